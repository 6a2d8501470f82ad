import { loadAdminUnits, resolveAdmin, subsetFor, provinceOf, type AdminTable } from './admin/index.js';
import type { AdminRef, AdminResolver } from './places.js';
import type { Tags } from './osm/types.js';
import type { AdminBundle } from './build-pack.js';

const tables = new Map<string, AdminTable>();

/**
 * The Vietnamese admin step of a pack build: resolves places' addr:* tags to legacy (province, district, ward)
 * and 2025 (province, ward) units, and stores the units of every province the pack touches.
 * `dir` holds vn-legacy/, vn-2025/ and vn-2025-communes/.
 */
export function vietnamAdmin(dir: string): () => AdminBundle {
  return () => {
    let table = tables.get(dir);
    if (!table) tables.set(dir, (table = loadAdminUnits(dir)));
    const t = table;
    const used = new Set<number>();
    const first2025 = (id: number) => t.legacyTo2025.get(id)?.[0] ?? -1;
    const parent = (id: number) => (id >= 0 ? t.byId.get(id)?.parent ?? -1 : -1);
    const note = (ref: AdminRef) => {
      for (const id of [ref[2], ref[4]]) if (id >= 0) used.add(id);
      return ref;
    };
    const resolver: AdminResolver = {
      resolve(tags: Tags): AdminRef | null {
        const province = tags['addr:province'] ?? tags['addr:city'];
        const district = tags['addr:district'];
        const ward = tags['addr:subdistrict'] ?? tags['addr:ward'] ?? tags['addr:quarter'];
        if (!province && !district && !ward) return null;
        const r = resolveAdmin(t, { province, district, ward });
        const ref: AdminRef = [r.legacy.ward ?? -1, r.legacy.district ?? -1, r.legacy.province ?? -1, r.v2025.ward ?? -1, r.v2025.province ?? -1];
        return ref.some((v) => v >= 0) ? ref : null;
      },
      complete(ref: AdminRef): AdminRef {
        let [ward, district, province, ward2025, province2025] = ref;
        if (ward >= 0) district = parent(ward);
        if (district >= 0) province = parent(district);
        if (ward >= 0 && ward2025 < 0) ward2025 = first2025(ward);
        if (ward2025 >= 0) province2025 = provinceOf(t, ward2025) ?? province2025;
        if (province >= 0 && province2025 < 0) province2025 = first2025(province);
        return note([ward, district, province, ward2025, province2025]);
      },
      describe(id: number) {
        const u = t.byId.get(id);
        return u ? { name: u.nameWithType, level: u.level, system: u.system } : null;
      },
    };
    return { resolver, serialize: () => subsetFor(t, [...used].sort((a, b) => a - b)) };
  };
}
