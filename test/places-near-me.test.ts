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

let engine: Engine;
let elements: ReturnType<typeof osmElements>;
beforeAll(async () => {
  engine = await createEngine({ packs: [testPack('hcmc-city')], wasm: false });
  elements = osmElements('hcmc-city');
}, 600_000);

/**
 * Whether the first prediction for `query` from (lat, lng) is one of the three nearest raw elements that `is` says
 * are what it asks for, give or take where the pack puts an area (its centre, as the truth's mean of nodes).
 */
function firstIsNear(query: string, is: (tags: Record<string, string>) => boolean, lat: number, lng: number): boolean {
  const nearest = elements
    .filter((e) => is(e.tags))
    .map((e) => haversine(lat, lng, e.lat, e.lon))
    .sort((a, b) => a - b);
  const predictions = engine.autocomplete({ input: query, location: `${lat},${lng}`, limit: 5 }).predictions;
  expect(predictions.length).toBeGreaterThan(0);
  const at = engine.placeDetail({ place_id: predictions[0]!.place_id }).result.geometry!.location;
  return haversine(lat, lng, at.lat, at.lng) <= nearest[2]! + 50;
}

describe('a kind of place near the user, on the whole-HCMC pack', () => {
  for (const [query, is] of KINDS)
    it.each(FROM)(`${query} near %f,%f: the first prediction is one of the nearest three`, (lat, lng) => {
      expect(firstIsNear(query, is, lat, lng)).toBe(true);
    });
});

/**
 * A kind of place and a chain's name asked for near the user ("atm vietcombank", "cây xăng petrolimex"): the chain's
 * nearest branches first, whether or not a branch spells the kind in its name ("Cây Xăng Petrolimex" 10.7 km away came
 * before "Petrolimex" 3.7 km away). Truth: the raw elements of the kind whose name or brand holds the chain's name.
 */
const CHAINS: [query: string, is: (tags: Record<string, string>) => boolean][] = [
  ['atm vietcombank', (t) => t.amenity === 'atm' && /vietcombank/iu.test(`${t.name} ${t.brand}`)],
  ['ngân hàng techcombank', (t) => t.amenity === 'bank' && /techcombank/iu.test(`${t.name} ${t.brand}`)],
  ['cây xăng petrolimex', (t) => t.amenity === 'fuel' && /petrolimex/iu.test(`${t.name} ${t.brand}`)],
];

describe("a chain's branch near the user, on the whole-HCMC pack", () => {
  for (const [query, is] of CHAINS)
    it(`${query}: the first prediction is among the three nearest branches from most of the points`, () => {
      const near = FROM.filter(([lat, lng]) => firstIsNear(query, is, lat, lng)).length;
      // Before: 2, 1 and 0 of the five points (now 5, 5 and 4).
      expect(near).toBeGreaterThanOrEqual(4);
    });
});
