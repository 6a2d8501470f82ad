/**
 * A kind of place asked for near the user ("cây xăng", "atm", "chợ" with `location`): the nearest places of the kind
 * come first, whatever their names ("Trạm xăng" 256 m away before three stations named "Cây xăng" 9–14 km away).
 * Truth: the raw PBF's elements of the kind (amenity=fuel, amenity=atm or atm=yes, amenity=marketplace), by straight
 * distance from the location, never the engine.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/engine';
import { haversine } from '../src/geo';
import { osmElements } from './helpers/osm-elements';
import { testPack } from './helpers/packs';

/** Points people ask from: central District 1, Thủ Đức, Phú Mỹ Hưng, Bình Tân, Gò Vấp. */
const FROM: [number, number][] = [
  [10.7725, 106.698],
  [10.85, 106.772],
  [10.73, 106.72],
  [10.765, 106.6],
  [10.835, 106.665],
];

/** The kinds asked, with what makes a raw element one. */
const KINDS: [query: string, is: (tags: Record<string, string>) => boolean][] = [
  ['cây xăng', (t) => t.amenity === 'fuel'],
  ['atm', (t) => t.amenity === 'atm' || t.atm === 'yes'],
  ['chợ', (t) => t.amenity === 'marketplace'],
];

describe('a kind of place near the user, on the whole-HCMC pack', () => {
  let engine: Engine;
  let elements: ReturnType<typeof osmElements>;
  beforeAll(async () => {
    engine = await createEngine({ packs: [testPack('hcmc-city')], wasm: false });
    elements = osmElements('hcmc-city');
  }, 600_000);

  for (const [query, is] of KINDS)
    it.each(FROM)(`${query} near %f,%f: the first prediction is one of the nearest three`, (lat, lng) => {
      const nearest = elements
        .filter((e) => is(e.tags))
        .map((e) => haversine(lat, lng, e.lat, e.lon))
        .sort((a, b) => a - b);
      const predictions = engine.autocomplete({ input: query, location: `${lat},${lng}`, limit: 5 }).predictions;
      expect(predictions.length).toBeGreaterThan(0);
      const at = engine.placeDetail({ place_id: predictions[0]!.place_id }).result.geometry!.location;
      // One of the three nearest, give or take where the pack puts an area (its centre, as the truth's mean of nodes).
      expect(haversine(lat, lng, at.lat, at.lng)).toBeLessThanOrEqual(nearest[2]! + 50);
    });
});
