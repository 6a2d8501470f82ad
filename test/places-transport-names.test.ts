/**
 * Roads, stations and resorts by the names people use for them: a provincial road as "tỉnh lộ", "đường tỉnh" or its
 * ref "ĐT", whichever its name is ("tinh lo 725 da lat" is "Đường tỉnh 725", "đường tỉnh 10" is "Tỉnh Lộ 10"), a
 * metro station mapped only as its trains' stop positions ("ga la thành"), "KDL" for khu du lịch, a station called by
 * its kind and the city's name ("ga sài gòn"). Truth: the raw inputs' roads and elements of those names, never the
 * engine.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/engine';
import { haversine } from '../src/geo';
import { osmElements } from './helpers/osm-elements';
import { testPack, type TestRegion } from './helpers/packs';
import { HIT_METRES } from './helpers/typed-queries';

/** Roads asked by another of their names: the answer is the road of the name the input gives it. */
const ROADS: [pack: TestRegion, query: string, road: string][] = [
  ['dalat', 'tinh lo 725 da lat', 'Đường tỉnh 725'],
  ['dalat', 'dt 726 lac duong', 'Đường tỉnh 726'],
  ['hcmc-city', 'đường tỉnh 10', 'Tỉnh Lộ 10'],
];
/** Places asked by what people call them: the answer lies within HIT_METRES of an element of the input's name. */
const PLACES: [pack: TestRegion, query: string, name: string][] = [
  ['hcmc-city', 'kdl kỳ hòa', 'Khu Du lịch Kỳ Hoà'],
  ['hanoi', 'ga la thành', 'La Thành'],
];

/** The engines of the packs the checks ask (those of ROADS and PLACES, whole HCMC among them). */
const engines = new Map<TestRegion, Engine>();
beforeAll(async () => {
  for (const pack of new Set([...ROADS, ...PLACES].map((c) => c[0]).concat('hcmc-city')))
    engines.set(pack, await createEngine({ packs: [testPack(pack)], wasm: false }));
}, 600_000);

describe('roads, stations and resorts as people write them', () => {
  it.each(ROADS)('%s: %s is the road %s', (pack, query, road) => {
    expect(osmElements(pack).some((e) => e.tags.highway !== undefined && e.tags.name === road)).toBe(true);
    const top = engines.get(pack)!.geocode({ address: query }).results[0];
    expect(top?.address_components[0]?.long_name).toBe(road);
  });

  it.each(PLACES)('%s: %s is the place named %s', (pack, query, name) => {
    const truth = osmElements(pack).filter((e) => e.tags.name === name && e.tags.highway === undefined);
    expect(truth.length).toBeGreaterThan(0);
    const top = engines.get(pack)!.geocode({ address: query }).results[0];
    expect(top).toBeDefined();
    const { lat, lng } = top!.geometry.location;
    expect(Math.min(...truth.map((e) => haversine(lat, lng, e.lat, e.lon)))).toBeLessThan(HIT_METRES);
  });
});

describe("a place called by its kind and the city's name", () => {
  const engine = () => engines.get('hcmc-city')!;

  it('is that place, whole ("ga sài gòn": the station, not one of many stations of the city)', () => {
    const truth = osmElements('hcmc-city').filter((e) => e.tags.name === 'Ga Sài Gòn' && e.tags.railway === 'station');
    expect(truth.length).toBeGreaterThan(0);
    for (const address of ['ga sài gòn', 'ga sai gon', 'Saigon railway station']) {
      const top = engine().geocode({ address }).results[0]!;
      expect(top.partial_match, address).toBeFalsy();
      const { lat, lng } = top.geometry.location;
      expect(Math.min(...truth.map((e) => haversine(lat, lng, e.lat, e.lon))), address).toBeLessThan(HIT_METRES);
    }
  });

  it('but a kind alone is one of many, though unnamed places are called by their kind ("nhà thuốc", "bưu điện")', () => {
    for (const address of ['nhà thuốc', 'bưu điện'])
      expect(engine().geocode({ address }).results[0]?.partial_match, address).toBe(true);
  });
});
