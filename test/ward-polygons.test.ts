/**
 * The 2025 ward of a point, from the official polygons: the indexed lookup (national, at build time; clipped, in a
 * pack) against a straight scan of every polygon (test/helpers/ward-reference.ts), and the admin units places get.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAdminUnits } from '../data-tools/admin';
import { loadWardBoundaries } from '../data-tools/admin/boundaries';
import { WardPolygons } from '../src/admin/ward-polygons';
import type { AdminTable } from '../src/admin/types';
import { createEngine, type Engine } from '../src/engine';
import { AdminSlot, PlaceKind } from '../src/places/kinds';
import { nameKey } from '../src/places/text/fold';
import { mulberry32 } from '../src/trip/rng';
import { ADMIN, testPack } from './helpers/packs';
import { rewrite } from './helpers/pack-rewrite';
import { Pack } from '../src/pack/reader';
import { referenceWardAt, referenceWards } from './helpers/ward-reference';

let table: AdminTable;
let national: WardPolygons;
let hanoi: Engine;
/**
 * A ward's key, comparable between the admin table and the GeoJSON: province code and folded name without the type
 * word (the sources disagree on two wards' codes, a few type words and some tone placements).
 */
const keyOf = (unit: number): string | undefined => {
  const u = table.byId.get(unit);
  return u && `${table.byId.get(u.parent)!.code}|${nameKey(u.name)}`;
};
const refKey = (lat: number, lon: number): string | undefined => {
  const w = referenceWardAt(lat, lon);
  return w ? `${w.provinceCode}|${nameKey(w.name)}` : undefined;
};

beforeAll(async () => {
  table = loadAdminUnits(ADMIN);
  national = new WardPolygons(loadWardBoundaries(ADMIN, table).finish());
  hanoi = await createEngine({ packs: [testPack('hanoi')], wasm: false });
}, 120_000);

/** Points to test around a box (degrees): random ones, edge midpoints and vertices of the polygons there, hole points. */
function samplePoints(box: [number, number, number, number], n: number, seed: number): Array<[number, number]> {
  const rand = mulberry32(seed);
  const pts: Array<[number, number]> = [];
  for (let k = 0; k < n; k++) pts.push([box[1] + rand() * (box[3] - box[1]), box[0] + rand() * (box[2] - box[0])]);
  const [x0, y0, x1, y1] = box.map((v) => v * 1e7);
  for (const w of referenceWards()) {
    if (w.bbox[2] < x0! || w.bbox[0] > x1! || w.bbox[3] < y0! || w.bbox[1] > y1!) continue;
    for (const part of w.parts) {
      part.forEach((ring, r) => {
        for (let i = 0; i < ring.length; i += 7) {
          const [ax, ay] = ring[i]!;
          const [bx, by] = ring[(i + 1) % ring.length]!;
          pts.push([ay! / 1e7, ax! / 1e7]); // a vertex
          pts.push([(ay! + by!) / 2e7, (ax! + bx!) / 2e7]); // on an edge (shared with the neighbour, mostly)
          if (r > 0)
            pts.push([(ay! * 3 + by!) / 4e7 + (rand() - 0.5) * 2e-5, (ax! * 3 + bx!) / 4e7 + (rand() - 0.5) * 2e-5]); // at a hole
        }
      });
    }
  }
  return pts;
}

describe('ward of a point', () => {
  it('the national index agrees with a straight scan of every polygon (10,000 random points, vertices, shared edges, holes)', () => {
    const rand = mulberry32(2025);
    const pts: Array<[number, number]> = [];
    // Across the country (many fall outside every ward: sea, neighbours) ...
    for (let k = 0; k < 3000; k++) pts.push([8 + rand() * 16, 102 + rand() * 8]);
    // ... and dense where wards are small and share many edges.
    pts.push(...samplePoints([105.8, 20.97, 105.9, 21.07], 7000, 7));
    let inside = 0;
    for (const [lat, lon] of pts) {
      const want = refKey(lat, lon);
      const got = keyOf(national.unitAt(lat, lon));
      expect(got, `${lat},${lon}`).toBe(want);
      if (want) inside++;
    }
    expect(inside).toBeGreaterThan(7000);
  });

  it('the clipped polygons of a pack give the same ward as the whole ones inside the pack area', () => {
    const region = hanoi.regions[0]!;
    const wards = region.wards!;
    expect(wards.count).toBeGreaterThan(20);
    const [x0, y0, x1, y1] = region.meta.bbox!;
    for (const [lat, lon] of samplePoints([x0, y0, x1, y1], 3000, 11)) {
      if (lon < x0 || lon > x1 || lat < y0 || lat > y1) continue;
      expect(keyOf(wards.unitAt(lat, lon)), `${lat},${lon}`).toBe(refKey(lat, lon));
    }
  });

  it('a ward whose unit the admin table does not know (a corrupt pack read without checksums) names nothing', async () => {
    const bytes = testPack('hcmc');
    const unit = Pack.from(bytes).array<Int32Array>('ward.unit').slice();
    unit[unit.length >> 1] = 1e9;
    const engine = await createEngine({ packs: [rewrite(bytes, { 'ward.unit': unit })], verify: false });
    for (const input of ['Lê Lợi', 'Phường Bến Nghé', 'chợ Bến Thành'])
      for (const r of [engine.autocomplete({ input }), engine.geocode({ address: input })])
        expect((r as { status: string }).status, input).toMatch(/^(OK|NOT_FOUND)$/);
  });

  it('checks the Hoàn Kiếm Lake and Bến Thành market points named in the data notes', () => {
    expect(referenceWardAt(21.0287, 105.8523)?.code).toBe('00070');
    expect(table.byId.get(national.unitAt(21.0287, 105.8523))?.code).toBe('00070');
    expect(table.byId.get(national.unitAt(10.7725, 106.698))?.code).toBe('26743');
  });
});

describe('admin units of places', () => {
  it('every place with a 2025 ward lies in that ward by the polygons, and its province is the ward’s', () => {
    const r = hanoi.places.regions[0]!;
    const p = r.places;
    let checked = 0;
    for (let i = 0; i < p.count; i++) {
      if (p.kind[i]! >= PlaceKind.district) continue;
      const ward = r.admin.unit(p.unit(i, AdminSlot.ward2025));
      if (!ward) continue;
      expect(keyOf(ward.id), `place ${i}`).toBe(refKey(r.lat(i), r.lon(i)));
      expect(p.unit(i, AdminSlot.province2025)).toBe(ward.parent);
      checked++;
    }
    expect(checked).toBeGreaterThan(2000);
  });

  it('a place in a 2025 ward formed from several legacy wards gets no guessed legacy ward; one formed from one gets it', () => {
    const r = hanoi.places.regions[0]!;
    const p = r.places;
    let several = 0;
    let single = 0;
    for (let i = 0; i < p.count; i++) {
      // Street pieces carry no addr:* tags: their legacy units come from the mapping alone.
      if (p.kind[i] !== PlaceKind.street) continue;
      const w = p.unit(i, AdminSlot.ward2025);
      if (w < 0) continue;
      const sources = (table.toLegacy.get(w) ?? []).filter((id) => table.byId.get(id)!.level === 'ward');
      const legacyWard = p.unit(i, AdminSlot.ward);
      if (sources.length > 1) {
        expect(legacyWard, `street piece ${i}`).toBe(-1);
        several++;
      } else if (sources.length === 1) {
        expect(legacyWard).toBe(sources[0]);
        single++;
      }
    }
    expect(several).toBeGreaterThan(100);
    expect(single + several).toBeGreaterThan(100);
  });
});
