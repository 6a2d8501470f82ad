/**
 * A place followed by the name of a town or neighbourhood the admin table does not hold ("Musée océanographique,
 * Monaco"; whole HCMC's "Crescent Mall Phú Mỹ Hưng" is in the typed sets), on the Monaco pack, checked against a
 * straight scan of the raw OSM input: the elements carrying the name written.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readOsmFile } from '../data-tools/osm/read';
import type { GeocodeResponse } from '../src/api/place-shapes';
import { createEngine, type Engine } from '../src/engine';
import { haversine } from '../src/geo';
import { fold } from '../src/places/text/fold';
import { OSM, PACK_INPUTS, testPack } from './helpers/packs';

let engine: Engine;
/** Where the raw input's named elements are, by folded name. */
const named = new Map<string, [number, number][]>();
/** Folded names of the raw input's museums, attractions and hospitals. */
const landmarks = new Set<string>();
/** The raw input's place=city nodes, by name. */
const cities = new Map<string, [number, number]>();
beforeAll(async () => {
  engine = await createEngine({ packs: [testPack('monaco')], wasm: false });
  const nodes = new Map<number, [number, number]>();
  const add = (tags: Record<string, string>, at: [number, number]) => {
    const key = fold(tags.name!);
    named.set(key, [...(named.get(key) ?? []), at]);
    if (['museum', 'attraction'].includes(tags.tourism ?? '') || tags.amenity === 'hospital') landmarks.add(key);
  };
  for (const file of PACK_INPUTS.monaco)
    readOsmFile(OSM + file, {
      node: (id, lat, lon, tags) => {
        nodes.set(id, [lat, lon]);
        if (tags?.place === 'city' && tags.name) cities.set(tags.name, [lat, lon]);
        if (tags?.name) add(tags, [lat, lon]);
      },
      way: (_id, refs, tags) => {
        if (tags.name) for (const r of refs) if (nodes.has(r)) add(tags, nodes.get(r)!);
      },
      relation: () => undefined,
      feature: () => undefined,
    });
}, 180_000);

const top = (address: string) => {
  const r = engine.geocode({ address }) as GeocodeResponse;
  return r.status === 'OK' ? r.results[0] : undefined;
};
/** Metres from an answer to the nearest point of the elements called `name`. */
const metresTo = (name: string, at: { lat: number; lng: number }) =>
  Math.min(...named.get(fold(name))!.map(([lat, lon]) => haversine(at.lat, at.lng, lat, lon)));

describe('a place written with its town', () => {
  it('answers the place the words before the town name, there', () => {
    expect(cities.has('Monaco')).toBe(true);
    // Landmarks' names of two words or more, each carried by elements of one place only (within 300 m of each other)
    // and part of no other name ("Musée National" is also the "Nouveau Musée National de Monaco").
    const all = [...named.keys()];
    const names = [...landmarks].filter((k) => {
      const pts = named.get(k)!;
      return (
        k.includes(' ') &&
        pts.every((p) => haversine(...p, ...pts[0]!) < 300) &&
        !all.some((other) => other !== k && ` ${other} `.includes(` ${k} `))
      );
    });
    expect(names.length).toBeGreaterThanOrEqual(10);
    let found = 0;
    for (const name of names) {
      for (const query of [`${name}, Monaco`, `${name} Monaco`]) {
        const hit = top(query);
        if (!hit || hit.partial_match) continue;
        // Confident answers are the place called so, never another one.
        expect(metresTo(name, hit.geometry.location), query).toBeLessThanOrEqual(150);
        found++;
      }
    }
    console.log(`${found} of ${2 * names.length} queries "<landmark>, Monaco" answered whole, each at the landmark`);
    expect(found / (2 * names.length)).toBeGreaterThanOrEqual(0.9);
  });

  it("asks that a name written before the town be the place's whole name", () => {
    // Only stations called "Gare de …" outside Monaco hold those words: no confident answer.
    const hit = top('gare de monaco');
    expect(hit === undefined || hit.partial_match === true).toBe(true);
  });
});
