import { loadAdminUnits, resolveAdmin, subsetFor, provinceOf, type AdminTable } from './admin/index.js';
import { hasWardBoundaries, loadWardBoundaries } from './admin/boundaries.js';
import type { AdminRef, AdminResolver } from './places/index.js';
import type { Tags } from './osm/types.js';
import type { AdminBundle } from './build-pack.js';
import { WardPolygons } from '../src/admin/ward-polygons.js';
import { legacyOf } from '../src/admin/legacy-of.js';
import type { Rect, WardPolygonsBuilder } from '../src/admin/ward-polygons-builder.js';

interface AdminData {
  table: AdminTable;
  /** Every 2025 ward's official polygons (null when the admin folder has none) and their builder, for clipping. */
  wards: WardPolygons | null;
  builder: WardPolygonsBuilder | null;
}

const loaded = new Map<string, AdminData>();

function load(dir: string): AdminData {
  let d = loaded.get(dir);
  if (!d) {
    const table = loadAdminUnits(dir);
    const builder = hasWardBoundaries(dir) ? loadWardBoundaries(dir, table) : null;
    loaded.set(dir, (d = { table, builder, wards: builder ? new WardPolygons(builder.finish()) : null }));
  }
  return d;
}

/**
 * The Vietnamese admin step of a pack build. `dir` holds vn-legacy/, vn-2025/, vn-2025-communes/ and, when present,
 * vn-2025-boundaries/ (the official polygons).
 *
 * With the polygons, a place's 2025 ward and province are those whose polygon holds it (never its tags, never a
 * neighbour's); its legacy ward, district and province come from its own addr:* tags, and levels the tags leave
 * open from the legacy ↔ 2025 mapping only where it is unambiguous (the 2025 ward was made from a single legacy
 * ward, or all its legacy wards share one district or province). Without the polygons, both systems come from the
 * tags and the mapping. The pack keeps the units of every province it touches.
 */
export function vietnamAdmin(dir: string): () => AdminBundle {
  return () => {
    const { table: t, wards, builder } = load(dir);
    const used = new Set<number>();
    const parent = (id: number) => (id >= 0 ? (t.byId.get(id)?.parent ?? -1) : -1);
    const note = (ref: AdminRef) => {
      for (const id of [ref[2], ref[4]]) if (id >= 0) used.add(id);
      return ref;
    };
    /** The legacy chain of a tagged reference, completed by its parents. */
    const legacyChain = (ref: AdminRef): [number, number, number] => {
      let [ward, district, province] = ref;
      if (ward >= 0) district = parent(ward);
      if (district >= 0) province = parent(district);
      return [ward, district, province];
    };
    const resolver: AdminResolver = {
      polygons: wards !== null,
      resolve(tags: Tags): AdminRef | null {
        const province = tags['addr:province'] ?? tags['addr:city'];
        const district = tags['addr:district'];
        const ward = tags['addr:subdistrict'] ?? tags['addr:ward'] ?? tags['addr:quarter'];
        if (!province && !district && !ward) return null;
        const r = resolveAdmin(t, { province, district, ward });
        const ref: AdminRef = [
          r.legacy.ward ?? -1,
          r.legacy.district ?? -1,
          r.legacy.province ?? -1,
          r.v2025.ward ?? -1,
          r.v2025.province ?? -1,
        ];
        return ref.some((v) => v >= 0) ? ref : null;
      },
      locate(lat: number, lon: number, tagged: AdminRef | null): AdminRef {
        if (!wards) return note(completeFromTags(t, tagged));
        const ward2025 = wards.unitAt(lat, lon);
        const legacy = tagged ? legacyChain(tagged) : ([-1, -1, -1] as [number, number, number]);
        if (ward2025 >= 0) {
          const [w, d, p] = legacyOf(t, ward2025);
          // Fill only the open levels, and only with units that agree with what the tags said.
          if (legacy[0] < 0 && w >= 0 && (legacy[1] < 0 || parent(w) === legacy[1])) legacy[0] = w;
          if (legacy[1] < 0 && d >= 0 && (legacy[2] < 0 || parent(d) === legacy[2])) legacy[1] = d;
          if (legacy[2] < 0 && p >= 0) legacy[2] = p;
          if (legacy[0] >= 0) [legacy[1], legacy[2]] = [parent(legacy[0]), parent(parent(legacy[0]))];
          else if (legacy[1] >= 0) legacy[2] = parent(legacy[1]);
        }
        return note([...legacy, ward2025, ward2025 >= 0 ? parent(ward2025) : -1]);
      },
      describe(id: number) {
        const u = t.byId.get(id);
        return u ? { name: u.nameWithType, level: u.level, system: u.system } : null;
      },
      pointInside(unit: number) {
        const w = wards ? wards.unit.indexOf(unit) : -1;
        return w >= 0 ? wards!.pointInside(w) : null;
      },
    };
    return {
      resolver,
      serialize: () =>
        subsetFor(
          t,
          [...used].sort((a, b) => a - b),
        ),
      wardPolygons(clip: Rect) {
        if (!builder) return null;
        const arrays = builder.finish(clip);
        if (arrays.unit.length === 0) return null; // the pack lies outside Vietnam
        for (const u of arrays.unit) used.add(parent(u));
        return arrays;
      },
    };
  };
}

/** Without polygons: a tagged reference completed from the hierarchy and the mapping (first successor). */
function completeFromTags(t: AdminTable, tagged: AdminRef | null): AdminRef {
  if (!tagged) return [-1, -1, -1, -1, -1];
  const parent = (id: number) => (id >= 0 ? (t.byId.get(id)?.parent ?? -1) : -1);
  const first2025 = (id: number) => t.legacyTo2025.get(id)?.[0] ?? -1;
  let [ward, district, province, ward2025, province2025] = tagged;
  if (ward >= 0) district = parent(ward);
  if (district >= 0) province = parent(district);
  if (ward >= 0 && ward2025 < 0) ward2025 = first2025(ward);
  if (ward2025 >= 0) province2025 = provinceOf(t, ward2025) ?? province2025;
  if (province >= 0 && province2025 < 0) province2025 = first2025(province);
  return [ward, district, province, ward2025, province2025];
}
