/**
 * Named buildings and named areas are places again (issue 35): a building, a piece of land, a military or power site
 * known by its name and of no other kind ("Tả Môn", building=yes; "Tổng Công ty Dược Việt Nam", landuse=commercial)
 * is found by that name; a word for a kind of place ("bệnh viện") still needs a place of that kind; a number or a lone
 * letter ("F1") names no place. Truth from the raw OSM XML, read independently of the builder (helpers/osm-xml.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/engine';
import { haversine } from '../src/geo';
import { fold } from '../src/places/text/fold';
import { OSM, testPack } from './helpers/packs';
import { packPlaces, type PackPlace } from './helpers/pack-places';
import { xmlElements, type XmlElement } from './helpers/osm-xml';

/** Keys of areas (and sites) in the raw data; the roads and waterways among them are not places. */
const AREA = ['building', 'building:part', 'landuse', 'military', 'power'];
/** Named areas of a raw OSM XML file, with their centre. */
const namedAreas = (file: string): XmlElement[] =>
  xmlElements(OSM + file).filter(
    (e) => e.tags.name && e.at && AREA.some((k) => e.tags[k]) && !e.tags.highway && !e.tags.waterway,
  );
const PACK_FILES = { hanoi: ['hanoi-quoctugiam.osm'], hcmc: ['hcmc-d1-d3.osm', 'hcmc-thuduc-hcmute.osm'] } as const;

let engines: Record<'hanoi' | 'hcmc', Engine>;
let places: Record<'hanoi' | 'hcmc', PackPlace[]>;
beforeAll(async () => {
  engines = {
    hanoi: await createEngine({ packs: [testPack('hanoi')], wasm: false }),
    hcmc: await createEngine({ packs: [testPack('hcmc')], wasm: false }),
  };
  places = { hanoi: packPlaces(testPack('hanoi')), hcmc: packPlaces(testPack('hcmc')) };
}, 120_000);

describe('named buildings and areas', () => {
  it('are found by their exact names (the Quốc Tử Giám examples of the issue)', () => {
    const raw = namedAreas('hanoi-quoctugiam.osm');
    for (const [query, name] of [
      ['Tả Môn', 'Tả Môn'],
      ['Left Gate', 'Tả Môn'],
      ['Befine', 'Befine'],
      ['Tổng Công ty Dược Việt Nam', 'Tổng Công ty Dược Việt Nam'],
    ]) {
      const truth = raw.filter((e) => e.tags.name === name);
      expect(truth, name).toHaveLength(1);
      const [lat, lon] = truth[0]!.at!;
      const r = engines.hanoi.geocode({ address: query });
      expect(r.status, query).toBe('OK');
      if (r.status !== 'OK') continue;
      const top = r.results[0]!;
      expect(top.partial_match, query).toBeFalsy();
      expect(haversine(top.geometry.location.lat, top.geometry.location.lng, lat, lon), query).toBeLessThan(150);
    }
  });

  it('each named area of the inputs is a place of its name, or the outline of a place of that name', () => {
    for (const pack of ['hanoi', 'hcmc'] as const) {
      const raw = PACK_FILES[pack].flatMap(namedAreas).filter((e) => /\p{L}{2}/u.test(e.tags.name!));
      expect(raw.length, pack).toBeGreaterThan(50);
      const missing = raw.filter(
        (e) =>
          !places[pack].some(
            (p) =>
              (p.name === e.tags.name || p.alts.includes(e.tags.name!)) &&
              haversine(p.lat, p.lon, e.at![0], e.at![1]) <= 150,
          ),
      );
      expect(
        missing.map((e) => `${e.element} ${e.tags.name}`),
        pack,
      ).toEqual([]);
    }
  });

  it('a number or a lone letter names no place', () => {
    const f1 = namedAreas('hcmc-thuduc-hcmute.osm').filter((e) => e.tags.name === 'F1');
    expect(f1).toHaveLength(1);
    expect(places.hcmc.filter((p) => p.element === f1[0]!.element)).toEqual([]);
  });

  it('answer no query for a kind of place they are not ("bệnh viện Befine")', () => {
    let asked = 0;
    for (const pack of ['hanoi', 'hcmc'] as const) {
      // The named areas with no kind of their own: the places of the categories they bring.
      const areas = places[pack].filter(
        (p) =>
          p.kind === 1 && ['building', 'commercial', 'construction', 'residential', 'military'].includes(p.category),
      );
      expect(areas.length, pack).toBeGreaterThan(10);
      for (const area of areas) {
        for (const kind of ['bệnh viện', 'khách sạn', 'nhà thuốc', 'ATM']) {
          if (fold(area.name).includes(fold(kind))) continue; // named as that kind: rightly found
          const query = `${kind} ${area.name}`;
          asked++;
          const r = engines[pack].geocode({ address: query });
          if (r.status !== 'OK') continue;
          for (const x of r.results) {
            const same =
              x.formatted_address.startsWith(`${area.name},`) &&
              haversine(x.geometry.location.lat, x.geometry.location.lng, area.lat, area.lon) < 1;
            expect(same && !x.partial_match, `${query} → ${x.formatted_address}`).toBe(false);
          }
        }
      }
    }
    expect(asked).toBeGreaterThan(100);
  });
});
