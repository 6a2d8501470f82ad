/**
 * Forward geocoding: address text to places. The text is parsed (house number, street, ward, district, province,
 * in any order, old or new admin names) to learn which admin units it names; every word is then searched, and
 * places in the named units rank up, places in other units down. A house number the data does not hold leaves
 * the street on top (the street's name is fully matched, other houses' numbers are not); a street the data does
 * not hold falls back to the most specific admin unit named.
 */
import { resolveAdmin, type AdminResolution } from '../admin/resolve';
import { ADMIN_SLOTS, AdminSlot, PlaceKind } from './kinds';
import type { PlacesRegion } from './region-places';
import type { Hit } from './search/search';
import { termsOf, type Term } from './search/terms';
import { parseAddress } from './text/address';
import { nameKey } from './text/fold';

/** Most results a forward geocode returns. */
export const MAX_GEOCODE_RESULTS = 5;

/**
 * Score added per admin level that agrees, and subtracted twice over per level that contradicts. Legacy and 2025
 * names are judged separately and the better system counts, because a written name can be both (the 2025
 * "Phường Cửa Nam" shares its name with a smaller legacy ward): a place that agrees in one system is not
 * punished for the other.
 */
const WARD_BOOST = 0.1;
const DISTRICT_BOOST = 0.08;
const PROVINCE_BOOST = 0.04;

/** Slots tried, in order, when no place matches by name. */
const FALLBACK_ORDER = [AdminSlot.ward2025, AdminSlot.ward, AdminSlot.district, AdminSlot.province2025, AdminSlot.province];

/** Score added to a place whose house number is the one written (and half of it taken from other numbers). */
const HOUSE_BOOST = 0.15;

/** Score taken from admin units when the address names a house or street. */
const UNIT_PENALTY = 0.2;

/** A hit of one region. */
export interface RegionHit extends Hit {
  region: PlacesRegion;
}

/** Ranked places for an address in one region, best first (at most `limit`). */
export function forwardInRegion(r: PlacesRegion, address: string, terms: Term[], limit: number): RegionHit[] {
  const parsed = parseAddress(address, { isKnown: r.gazetteer });
  const res = r.admin.table ? resolveAdmin(r.admin.table, { province: parsed.province, district: parsed.district, ward: parsed.ward }) : null;
  const wanted = res ? wantedUnits(res) : [];
  const adm = r.places.adm;
  const kinds = r.places.kind;
  // An address with a house number or street asks for a street-level place: admin units rank below streets.
  const streetLevel = parsed.house !== undefined || parsed.street !== undefined;
  const agreeOne = (p: number, [slot, weight, ids]: Check): number => {
    const have = adm[p * ADMIN_SLOTS + slot]!;
    return have < 0 ? 0 : ids.includes(have) ? weight : -2 * weight;
  };
  const agreement = (p: number, checks: Check[]): number => {
    let b = 0;
    for (const c of checks) b += agreeOne(p, c);
    return b;
  };
  const [legacy, modern, province] = [wanted.filter((c) => c[3] === 'legacy'), wanted.filter((c) => c[3] === '2025'), wanted.filter((c) => c[3] === 'province')];
  const houseKey = parsed.house !== undefined ? nameKey(parsed.house).replace(/ /g, '') : undefined;
  const houseIds = r.places.house;
  const sameHouse = new Map<number, boolean>(); // house string id → equals the written number
  const boost = (p: number): number => {
    let b = streetLevel && kinds[p]! >= PlaceKind.ward ? -UNIT_PENALTY : 0;
    const h = houseIds[p]!;
    if (houseKey !== undefined && h !== 0) {
      let same = sameHouse.get(h);
      if (same === undefined) sameHouse.set(h, (same = nameKey(r.region.strings.get(h)).replace(/ /g, '') === houseKey));
      b += same ? HOUSE_BOOST : -HOUSE_BOOST / 2;
    }
    if (legacy.length && modern.length) b += Math.max(agreement(p, legacy), agreement(p, modern));
    else b += agreement(p, legacy) + agreement(p, modern);
    // Either province slot agreeing is enough (Hà Nội legacy and 2025 are different units).
    let bestProvince = province.length ? -Infinity : 0;
    for (const c of province) bestProvince = Math.max(bestProvince, agreeOne(p, c));
    return b + bestProvince;
  };
  // House and alley numbers may be absent from the data: they rank but are not required.
  const hits = r.searcher.search(terms, { prefix: false, limit, importance: r.places.importance, boost, numbersOptional: true });
  if (hits.length > 0) return hits.map((h) => ({ ...h, region: r }));
  // Nothing by name: the most specific unit named (the 2025 ward first, as addresses are shown today).
  for (const slot of FALLBACK_ORDER) {
    const check = wanted.find((c) => c[0] === slot);
    const place = check && r.unitPlace.get(check[2][0]!);
    if (place !== undefined) return [{ place, score: 0, text: 0, region: r }];
  }
  return [];
}

/** One admin check: the place slot, the weight of agreeing, the accepted unit ids, and its group. */
type Check = [slot: number, weight: number, ids: number[], group: 'legacy' | '2025' | 'province'];

/** The admin units an address named, as checks on place slots. */
function wantedUnits(res: AdminResolution): Check[] {
  const out: Check[] = [];
  if (res.legacy.ward !== undefined) out.push([AdminSlot.ward, WARD_BOOST, [res.legacy.ward], 'legacy']);
  if (res.legacy.district !== undefined) out.push([AdminSlot.district, DISTRICT_BOOST, [res.legacy.district], 'legacy']);
  if (res.v2025.ward !== undefined) out.push([AdminSlot.ward2025, WARD_BOOST, [res.v2025.ward, ...res.v2025.wards], '2025']);
  if (res.legacy.province !== undefined) out.push([AdminSlot.province, PROVINCE_BOOST, [res.legacy.province], 'province']);
  if (res.v2025.province !== undefined) out.push([AdminSlot.province2025, PROVINCE_BOOST, [res.v2025.province], 'province']);
  return out;
}

/** Ranked places for an address over all regions, best first. */
export function forwardGeocode(regions: readonly PlacesRegion[], address: string, limit = MAX_GEOCODE_RESULTS): RegionHit[] {
  const terms = termsOf(address);
  if (terms.length === 0) return [];
  const all = regions.flatMap((r) => forwardInRegion(r, address, terms, limit));
  return all.sort((a, b) => b.score - a.score).slice(0, limit);
}
