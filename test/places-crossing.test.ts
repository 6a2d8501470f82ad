/**
 * Where two streets meet ("góc Phạm Ngọc Thạch Điện Biên Phủ", "ngã tư Hai Bà Trưng Trần Quốc Toản"), on the HCMC
 * district pack, checked against a straight scan of the raw OSM input: the nodes that highway ways of both names share.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readOsmFile } from '../data-tools/osm/read';
import type { GeocodeResponse } from '../src/api/place-shapes';
import { createEngine, type Engine } from '../src/engine';
import { haversine } from '../src/geo';
import { OSM, PACK_INPUTS, testPack } from './helpers/packs';

let engine: Engine;
/** Node ids of the highway ways of each name, and every node's position. */
const byName = new Map<string, Set<number>>();
const nodes = new Map<number, [number, number]>();
beforeAll(async () => {
  engine = await createEngine({ packs: [testPack('hcmc')], wasm: false });
  for (const file of PACK_INPUTS.hcmc)
    readOsmFile(OSM + file, {
      node: (id, lat, lon) => void nodes.set(id, [lat, lon]),
      way: (_id, refs, tags) => {
        if (!tags.highway || !tags.name) return;
        let set = byName.get(tags.name);
        if (!set) byName.set(tags.name, (set = new Set()));
        for (const r of refs) set.add(r);
      },
      relation: () => undefined,
      feature: () => undefined,
    });
}, 180_000);

/** The positions of the nodes the streets named `a` and `b` share in the raw input. */
function sharedNodes(a: string, b: string): [number, number][] {
  const onB = byName.get(b) ?? new Set();
  return [...(byName.get(a) ?? [])].filter((n) => onB.has(n)).map((n) => nodes.get(n)!);
}

const top = (address: string) => {
  const r = engine.geocode({ address }) as GeocodeResponse;
  return r.status === 'OK' ? r.results[0] : undefined;
};

describe('where two streets meet', () => {
  it('is answered at the nodes both streets share, named "A & B", whole', () => {
    for (const [a, b, query] of [
      ['Phạm Ngọc Thạch', 'Điện Biên Phủ', 'góc Phạm Ngọc Thạch Điện Biên Phủ'],
      ['Trần Quốc Toản', 'Nam Kỳ Khởi Nghĩa', 'góc Trần Quốc Toản Nam Kỳ Khởi Nghĩa'],
      ['Hai Bà Trưng', 'Trần Quốc Toản', 'ngã tư Hai Bà Trưng Trần Quốc Toản'],
      // The other street's words are also a 2025 ward's (Phường Võ Thị Sáu): read as the street they name.
      ['Hai Bà Trưng', 'Võ Thị Sáu', 'ngã tư Hai Bà Trưng Võ Thị Sáu'],
      ['Trần Quốc Thảo', 'Võ Thị Sáu', 'góc Trần Quốc Thảo và Võ Thị Sáu'],
      // "giao Lê" is no "giao lộ" (junction) one letter off.
      ['Võ Văn Ngân', 'Lê Văn Chí', 'Võ Văn Ngân giao Lê Văn Chí'],
    ] as const) {
      const shared = sharedNodes(a, b);
      expect(shared.length, `${a} / ${b} meet in the input`).toBeGreaterThan(0);
      const got = top(query);
      expect(got?.partial_match ?? false, query).toBe(false);
      expect([`${a} & ${b}`, `${b} & ${a}`], query).toContain(got?.formatted_address.split(',')[0]);
      const near = Math.min(
        ...shared.map(([lat, lng]) => haversine(got!.geometry.location.lat, got!.geometry.location.lng, lat, lng)),
      );
      expect(near, query).toBeLessThan(60);
      // Its place_id names the crossing, not the first street: Geocode and Place/Detail of it give the same answer.
      const [byId, detail] = [
        engine.geocode({ place_id: got!.place_id }),
        engine.placeDetail({ place_id: got!.place_id }),
      ];
      expect(byId.results[0]!.formatted_address, query).toBe(got!.formatted_address);
      expect(byId.results[0]!.geometry.location, query).toEqual(got!.geometry.location);
      expect(detail.result.name, query).toBe(got!.formatted_address.split(',')[0]);
      expect(detail.result.geometry!.location, query).toEqual(got!.geometry.location);
      expect(detail.result.place_id, query).toBe(got!.place_id);
    }
  });

  it('is no answer for streets that do not meet: no "A & B" (parallel streets, a street and a place on it)', () => {
    for (const [a, b, query] of [['Trần Quốc Toản', 'Điện Biên Phủ', 'góc Trần Quốc Toản Điện Biên Phủ']] as const) {
      expect(sharedNodes(a, b), `${a} / ${b} do not meet in the input`).toEqual([]);
      expect(top(query)?.formatted_address ?? '', query).not.toContain(' & ');
    }
    expect(top('Phở Hòa Pasteur')?.formatted_address ?? '').not.toContain(' & ');
  });
});
