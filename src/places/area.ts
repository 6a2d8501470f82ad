/**
 * The area a query names ("Quận 1", "P. Bến Nghé", "phường Bến Thành", "TP.HCM"): the admin unit it wrote most
 * specifically and the test of whether a place lies there. A named area constrains the answer (issue 35): a café
 * "ở Quận 1" is never one in Quận 10, whatever its other words score.
 *
 * A legacy unit has no polygon of its own: it covers the 2025 wards its legacy wards went into, whole or in part. A
 * 2025 ward made partly from the unit reaches a little past the old border, which is the "surroundings" a person
 * writing an old district still means.
 */
import type { AdminResolution } from '../admin/resolve';
import type { AdminNames } from './admin-names';
import { ADMIN_SLOTS, AdminSlot } from './kinds';
import type { ParsedAddress } from './text/address';
import type { PlacesRegion } from './region-places';

/** How far past a named unit's border a place still counts as in it, metres. */
const AREA_MARGIN_M = 250;
/** Metres per degree of latitude. */
const M_PER_DEG = 111_320;

/** The area of a query. */
export interface QueryArea {
  /** The unit named most specifically (a legacy or 2025 id): what a partial answer stands on. */
  unit: number;
  /** The place slot holding units of the named level and system (a place tagged with the unit is in it); -1: none. */
  slot: number;
  /** The 2025 wards the area covers; null for a province (then its 2025 and legacy province slots decide). */
  wards: ReadonlySet<number> | null;
  /** The 2025 province, and the legacy one, of a province-wide area (-1 when unknown). */
  province2025: number;
  province: number;
  /**
   * How sure a kind of place "in" the area is what a query of a kind of place and this unit's name alone asks for
   * (once no place bears the words as its name: "Chợ Bến Thành" is first the market of that name):
   * - 'sure': a district (Quận, Huyện) or a ward written with its type word ("chợ quận Bình Thạnh", "cà phê phường
   *   Bến Nghé") — a café in that district;
   * - 'partial': a ward named bare, or a district-level city ("Chợ Đồng Xuân", "Chợ Đà Lạt", "ATM Thủ Đức"; a city's
   *   landmarks carry its type word too: "Vườn hoa Thành phố Đà Lạt"): as likely the landmark named after it, which
   *   the data may lack — a place of the kind there, marked partial;
   * - 'none': a province ("Ga Hà Nội", "Bưu điện Thành phố Hồ Chí Minh" are no station or post office in the city).
   */
  reading: 'sure' | 'partial' | 'none';
  /**
   * The 2025 wards of the whole unit the name also reads as: a former district named like the district it went into
   * ("Thủ Đức": old Quận Thủ Đức, or the Thành phố Thủ Đức of 2021–2025 that people still write bare) is its own
   * wards first, and the whole city where nothing there answers (see {@link widenedArea}).
   */
  alsoNamed?: ReadonlySet<number>;
  /** The box [minLat, minLon, maxLat, maxLon] of its 2025 wards' polygons, degrees, set at first use. */
  box?: [number, number, number, number];
}

/** District-level types that make a unit a town of its own, named like its landmarks (Đà Lạt, Thủ Đức). */
const TOWN_TYPES = new Set(['Thành phố', 'Thị xã']);

/**
 * The most specific unit the query wrote that the region's table resolves (a ward, else a legacy district, else a
 * province), as an area; null when it named none (or only names that several units share).
 */
export function queryArea(admin: AdminNames, parsed: ParsedAddress, res: AdminResolution | null): QueryArea | null {
  if (!res || !admin.table) return null;
  const area = (unit: number, slot: number, wards: readonly number[] | null): QueryArea => {
    const u = admin.unit(unit);
    const typed =
      u?.level === 'ward' ? parsed.types.ward !== undefined : u?.level === 'district' && !!parsed.types.district;
    return {
      unit,
      slot,
      wards: wards && new Set(wards),
      province2025: res.v2025.province ?? -1,
      province: res.legacy.province ?? -1,
      reading:
        !u || u.level === 'province'
          ? 'none'
          : u.level === 'district' && TOWN_TYPES.has(u.type)
            ? 'partial'
            : typed || u.level === 'district'
              ? 'sure'
              : 'partial',
    };
  };
  // A legacy ward the official merges send nowhere (Phường 5 of Quận 10) has no 2025 wards to look in: its district's.
  if (parsed.ward && res.legacy.ward !== undefined && res.v2025.wards.length > 0) {
    // The 2025 wards the legacy ward went into; the one of the same name when there is one ("Bến Thành", which kept
    // most of it): the unit a reader of 2026 knows by that name.
    const v = res.v2025.ward;
    if (v !== undefined && admin.unit(v)?.foldedName === admin.unit(res.legacy.ward)?.foldedName)
      return area(v, AdminSlot.ward2025, [v]);
    return area(res.legacy.ward, AdminSlot.ward, res.v2025.wards);
  }
  if ((parsed.ward || parsed.district) && res.v2025.ward !== undefined)
    return area(res.v2025.ward, AdminSlot.ward2025, [res.v2025.ward]);
  if (parsed.district && res.former) {
    // No slot: a place tagged with the district it went into may be anywhere in that district.
    const into = res.legacy.district!;
    const former: QueryArea = { ...area(into, -1, firstSuccessors(admin, res.former)), reading: 'sure' };
    if (res.formerNamesInto) former.alsoNamed = new Set(admin.wards2025OfDistrict(into));
    return former;
  }
  if (parsed.district && res.legacy.district !== undefined)
    return area(res.legacy.district, AdminSlot.district, admin.wards2025OfDistrict(res.legacy.district));
  if (parsed.province && (res.v2025.province !== undefined || res.legacy.province !== undefined)) {
    const unit = res.v2025.province ?? res.legacy.province!;
    return area(unit, res.v2025.province !== undefined ? AdminSlot.province2025 : AdminSlot.province, null);
  }
  return null;
}

/** The area read as the whole unit its name also names (`alsoNamed`), or null when it names no other. */
export function widenedArea(area: QueryArea): QueryArea | null {
  if (!area.alsoNamed) return null;
  return { ...area, wards: area.alsoNamed, alsoNamed: undefined, box: undefined };
}

/** Where a place lies against an area: in it, in its surroundings, or out of it. */
export const Within = { out: 0, near: 1, in: 2 } as const;
export type Within = (typeof Within)[keyof typeof Within];

/**
 * Where place `p` lies against the area:
 * - in: tagged with the unit itself, or in one of its 2025 wards and not tagged with another unit of the named level
 *   (a post office of Quận 11 stands in a 2025 ward made mostly of Quận 6's); province-wide, in its province;
 * - near: otherwise within AREA_MARGIN_M of one of its 2025 wards, or in one while tagged with another unit (people
 *   place a landmark on the border in either unit: Hồ Con Rùa "in Quận 1" lies a few metres into Quận 3) — an answer
 *   there is only partly what was asked;
 * - out: anywhere else. A place whose units are all unknown (a pack without admin data) is not excluded.
 */
export function inArea(r: PlacesRegion, area: QueryArea, p: number): Within {
  const adm = r.places.units;
  const o = r.places.unitsAt(p);
  const tagged = area.slot >= 0 ? adm[o + area.slot]! : -1;
  if (tagged >= 0 && tagged === area.unit) return Within.in;
  const ward = adm[o + AdminSlot.ward2025]!;
  if (area.wards) {
    // Outside the pack's ward polygons (a hospital of another province in a city's file): by its legacy ward.
    if (ward < 0) {
      if (unknownUnits(adm, o)) return Within.in;
      const successors = r.admin.table?.legacyTo2025.get(adm[o + AdminSlot.ward]!) ?? [];
      return successors.some((w) => area.wards!.has(w)) ? Within.in : Within.out;
    }
    // A known legacy unit of the level named, other than the one named, puts the place beside the area at best.
    const other = tagged >= 0 && area.slot !== AdminSlot.ward2025;
    if (area.wards.has(ward)) return other ? Within.near : Within.in;
    // Beside it: first the box of its wards grown by the margin (most places of a city are far from one ward).
    const polygons = r.region.wards;
    if (!polygons) return Within.out;
    area.box ??= polygons.boxOf(area.wards) ?? [0, 0, -1, -1];
    const [lat, lon] = [r.lat(p), r.lon(p)];
    const dLat = AREA_MARGIN_M / M_PER_DEG;
    const dLon = dLat / Math.max(0.01, Math.cos(lat * (Math.PI / 180)));
    const b = area.box;
    if (lat < b[0] - dLat || lon < b[1] - dLon || lat > b[2] + dLat || lon > b[3] + dLon) return Within.out;
    return polygons.nearAny(lat, lon, AREA_MARGIN_M, area.wards) ? Within.near : Within.out;
  }
  const p2025 = adm[o + AdminSlot.province2025]!;
  const legacy = adm[o + AdminSlot.province]!;
  if ((p2025 >= 0 && p2025 === area.province2025) || (legacy >= 0 && legacy === area.province)) return Within.in;
  return p2025 < 0 && legacy < 0 ? Within.in : Within.out;
}

/** The 2025 ward that took most of each legacy ward. */
function firstSuccessors(admin: AdminNames, wards: readonly number[]): number[] {
  return [...new Set(wards.flatMap((w) => admin.table?.legacyTo2025.get(w)?.slice(0, 1) ?? []))];
}

/** True when none of the place's admin slots is known. */
function unknownUnits(adm: Int32Array, o: number): boolean {
  for (let s = 0; s < ADMIN_SLOTS; s++) if (adm[o + s]! >= 0) return false;
  return true;
}
