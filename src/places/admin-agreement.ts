/**
 * How well a place's admin units agree with the units a query names, as a score: legacy and 2025 judged apart, a
 * province either way; and which system a query wrote its units in (its results are shown in it).
 */
import type { AdminResolution } from '../admin/resolve';
import { indexKey } from '../admin/table';
import type { AdminTable } from '../admin/types';
import type { AddressSystem } from './describe';
import { AdminSlot } from './kinds';
import { streetKey, type PlacesRegion } from './region-places';
import type { PlaceQuery } from './search/query';
import { adminNameKeys } from './text/admin-names';

/** Score added per admin level that agrees, and subtracted twice over per level that contradicts. */
const WARD_BOOST = 0.1;
const DISTRICT_BOOST = 0.08;
const PROVINCE_BOOST = 0.04;
/** One admin check: the place slot, the weight of agreeing, the accepted unit ids, its group and its query terms. */
export interface Check {
  slot: number;
  weight: number;
  ids: number[];
  group: 'legacy' | '2025' | 'province';
  terms: number;
}

/**
 * How well place `p`'s units agree with the units the query named: legacy and 2025 judged separately and the better
 * system counts (a written name can be both), either province slot agreeing is enough. A place whose legacy unit is
 * unknown agrees, at half weight, when its 2025 ward was made from the named legacy unit. A check whose words the
 * place holds itself (its name or street carries them: "Highlands Hai Bà Trưng" is on Phố Hai Bà Trưng, not in the
 * ward of that name) agrees.
 */
export function adminAgreement(r: PlacesRegion, p: number, own: number, checks: readonly Check[]): number {
  if (checks.length === 0) return 0;
  const one = (c: Check): number => {
    const v = unitAgreement(r, p, c);
    // The words are the place's own (its street or name): as good as being in the unit.
    return c.terms !== 0 && (own & c.terms) === c.terms ? Math.max(v, c.weight) : v;
  };
  let legacy = 0,
    modern = 0,
    hasLegacy = false,
    hasModern = false;
  let province = -Infinity;
  for (const c of checks) {
    if (c.group === 'legacy') ((legacy += one(c)), (hasLegacy = true));
    else if (c.group === '2025') ((modern += one(c)), (hasModern = true));
    else province = Math.max(province, one(c));
  }
  const units = hasLegacy && hasModern ? Math.max(legacy, modern) : legacy + modern;
  return units + (province === -Infinity ? 0 : province);
}

/**
 * How place `p`'s unit at the level of check `c` agrees with it: its weight when the place is in the unit, half of it
 * when the place's unit there is unknown and its 2025 ward was made from the unit (a street piece knows only its 2025
 * ward), twice its weight taken away when the place is elsewhere, 0 when nothing tells.
 */
function unitAgreement(r: PlacesRegion, p: number, c: Check): number {
  const have = r.places.unit(p, c.slot);
  const ward2025 = r.places.unit(p, AdminSlot.ward2025);
  if (have >= 0) return c.ids.includes(have) ? c.weight : -2 * c.weight;
  if (ward2025 < 0 || (c.slot !== AdminSlot.ward && c.slot !== AdminSlot.district)) return 0;
  const via = c.slot === AdminSlot.ward ? r.admin.legacyWardsOf(ward2025) : r.admin.legacyDistrictsOf(ward2025);
  return c.ids.some((id) => via.includes(id)) ? c.weight / 2 : -2 * c.weight;
}

/**
 * The query terms of the legacy districts place `p` lies in by its 2025 ward, as a mask: its own district is unknown
 * (a street piece stores only its 2025 ward), so its stored admin names do not hold the district's name, yet its 2025
 * ward was made from wards of that district ("25 Cát Linh, Đống Đa": the street, not only the places called Cát Linh
 * that store Đống Đa). Wards are left out: a 2025 ward merged many legacy wards, and a place in it lies in one.
 */
export function districtTermsVia2025(r: PlacesRegion, p: number, checks: readonly Check[]): number {
  let mask = 0;
  for (const c of checks)
    if (c.slot === AdminSlot.district && c.terms !== 0 && r.places.unit(p, c.slot) < 0)
      if (unitAgreement(r, p, c) > 0) mask |= c.terms;
  return mask;
}

/** The admin units an address named (the levels it wrote, not those they imply), as checks on place slots. */
export function wantedUnits(res: AdminResolution, q: PlaceQuery): Check[] {
  const out: Check[] = [];
  const m = q.adminMask;
  const p = q.parsed;
  if (res.legacy.ward !== undefined && p.ward)
    out.push({ slot: AdminSlot.ward, weight: WARD_BOOST, ids: [res.legacy.ward], group: 'legacy', terms: m.ward });
  if (res.legacy.district !== undefined && p.district)
    out.push({
      slot: AdminSlot.district,
      weight: DISTRICT_BOOST,
      ids: [res.legacy.district],
      group: 'legacy',
      terms: m.district,
    });
  if (res.v2025.ward !== undefined && (p.ward || p.district))
    out.push({
      slot: AdminSlot.ward2025,
      weight: WARD_BOOST,
      ids: [res.v2025.ward, ...res.v2025.wards],
      group: '2025',
      terms: m.ward | m.district,
    });
  if (p.province)
    for (const [slot, id] of [
      [AdminSlot.province, res.legacy.province],
      [AdminSlot.province2025, res.v2025.province],
    ] as const)
      if (id !== undefined) out.push({ slot, weight: PROVINCE_BOOST, ids: [id], group: 'province', terms: m.province });
  return out;
}

/**
 * 'legacy' when the query named a unit only the pre-2025 system has: a district written with its type word, or a
 * district or ward name that neither a 2025 ward nor (written without a type word) a street of the region carries;
 * else '2025'. Names both systems have ("Hoàn Kiếm" is a legacy district and a 2025 ward; "Bà Triệu" a legacy ward
 * and a street) leave the default.
 */
export function systemOf(r: PlacesRegion, table: AdminTable, q: PlaceQuery, res: AdminResolution): AddressSystem {
  const p = q.parsed;
  const onlyLegacy = (name: string, typed: boolean): boolean =>
    !adminNameKeys(name).some((k) => table.index.has(indexKey('2025', 'ward', k))) &&
    (typed || !r.streetKeys.has(streetKey(name)));
  if (
    res.legacy.district !== undefined &&
    p.district &&
    (p.types.district !== undefined || onlyLegacy(p.district, false))
  )
    return 'legacy';
  if (res.legacy.ward !== undefined && p.ward && onlyLegacy(p.ward, p.types.ward !== undefined)) return 'legacy';
  return '2025';
}
