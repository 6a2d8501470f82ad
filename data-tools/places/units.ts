/** One place per admin unit: what forward geocoding answers for a ward, district or province, and reverse for a ward. */
import { haversine } from '../../src/geo.js';
import { AdminSlot, PlaceKind } from '../../src/places/kinds.js';
import type { AdminRef, AdminResolver } from './index.js';

/** The part of a draft place that unit places are made from and of. */
export interface UnitMember {
  lat: number;
  lon: number;
  adm: AdminRef;
}

/** A unit place. */
export interface UnitPlace extends UnitMember {
  kind: number;
  name: string;
  /** -(unit id + 1), the `place.osm` value of unit places. */
  osm: number;
  importance: number;
  /** "admin" for legacy units, "admin_2025" for 2025 units. */
  category: string;
}

const LEVEL_KIND = { ward: PlaceKind.ward, district: PlaceKind.district, province: PlaceKind.province } as const;
/**
 * Importance of unit places: larger units first; a pre-2025 unit below a 2025 one of its level, and a pre-2025 ward
 * below a long street (its name now mostly means the street: "Hàng Bông").
 */
const IMPORTANCE = {
  '2025': { province: 250, district: 200, ward: 150 },
  legacy: { province: 200, district: 160, ward: 90 },
} as const;

/**
 * One place per admin unit that holds places of the pack, and per 2025 ward in `wards` (those whose polygons the pack
 * keeps, so reverse geocoding can name the ward of any point). A unit with places sits at its place nearest to the
 * median of its places (a point of its populated area, inside it); a ward without places at a point inside its
 * polygon. Its admin parts are its own parents.
 */
export function unitPlaces(members: readonly UnitMember[], admin: AdminResolver, wards: Iterable<number>): UnitPlace[] {
  const byUnit = new Map<number, UnitMember[]>();
  for (const d of members) {
    for (const id of d.adm) {
      if (id < 0) continue;
      let list = byUnit.get(id);
      if (!list) byUnit.set(id, (list = []));
      list.push(d);
    }
  }
  for (const w of wards) if (!byUnit.has(w)) byUnit.set(w, []);
  const out: UnitPlace[] = [];
  for (const [id, list] of [...byUnit.entries()].sort((a, b) => a[0] - b[0])) {
    const unit = admin.describe(id);
    if (!unit) continue;
    const slot =
      unit.system === '2025'
        ? unit.level === 'ward'
          ? AdminSlot.ward2025
          : AdminSlot.province2025
        : AdminSlot[unit.level];
    let at: UnitMember | null = list.length > 0 ? medianMember(list) : null;
    if (!at) {
      const inside = admin.pointInside(id);
      if (!inside) continue;
      at = { ...inside, adm: admin.locate(inside.lat, inside.lon, null) };
    }
    // The unit's own admin parts: those of the place it sits at, from its level up, in its own system.
    const adm = [...at.adm] as AdminRef;
    if (unit.system === 'legacy') {
      for (let s = 0; s < slot; s++) adm[s] = -1;
      adm[AdminSlot.ward2025] = adm[AdminSlot.province2025] = -1;
    } else {
      adm[AdminSlot.ward] = adm[AdminSlot.district] = adm[AdminSlot.province] = -1;
      if (slot === AdminSlot.province2025) adm[AdminSlot.ward2025] = -1;
    }
    adm[slot] = id;
    out.push({
      lat: at.lat,
      lon: at.lon,
      kind: LEVEL_KIND[unit.level],
      name: unit.name,
      adm,
      osm: -(id + 1),
      importance: IMPORTANCE[unit.system][unit.level],
      category: unit.system === '2025' ? 'admin_2025' : 'admin',
    });
  }
  return out;
}

/** The member nearest to the per-axis median of all members. */
function medianMember(list: UnitMember[]): UnitMember {
  const lats = list.map((d) => d.lat).sort((a, b) => a - b);
  const lons = list.map((d) => d.lon).sort((a, b) => a - b);
  const mLat = lats[lats.length >> 1]!;
  const mLon = lons[lons.length >> 1]!;
  return list.reduce((best, d) =>
    haversine(d.lat, d.lon, mLat, mLon) < haversine(best.lat, best.lon, mLat, mLon) ? d : best,
  );
}
