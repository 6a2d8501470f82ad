/**
 * Forward geocoding: address text to places. The text is parsed (house number, street, ward, district, province,
 * in any order, old or new admin names) to learn which admin units it names; every word is then searched, and
 * places in the named units rank up, places in other units down. A house number the data does not hold leaves
 * the street on top (the street's name is fully matched, other houses' numbers are not); a street the data does
 * not hold falls back to the most specific admin unit named.
 */
import { resolveAdmin, type AdminResolution } from '../../data-tools/admin/resolve';
import { ADMIN_SLOTS, AdminSlot, PlaceKind } from './kinds';
import type { PlacesRegion } from './region-places';
import type { Hit } from './search/search';
import { termsOf, type Term } from './search/terms';
import { parseAddress } from './text/address';

/** Most results a forward geocode returns. */
export const MAX_GEOCODE_RESULTS = 5;

/** Score added per admin level that agrees, and subtracted twice over per level that contradicts. */
const LEVEL_BOOST: Array<[slot: number, weight: number]> = [
  [AdminSlot.ward, 0.1],
  [AdminSlot.district, 0.08],
  [AdminSlot.province, 0.04],
  [AdminSlot.ward2025, 0.1],
  [AdminSlot.province2025, 0.04],
];

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
  const boost = (p: number): number => {
    let b = streetLevel && kinds[p]! >= PlaceKind.ward ? -UNIT_PENALTY : 0;
    for (const [slot, weight, ids] of wanted) {
      const have = adm[p * ADMIN_SLOTS + slot]!;
      if (have < 0) continue;
      b += ids.includes(have) ? weight : -2 * weight;
    }
    return b;
  };
  // House and alley numbers may be absent from the data: they rank but are not required.
  const hits = r.searcher.search(terms, { prefix: false, limit, importance: r.places.importance, boost, numbersOptional: true });
  if (hits.length > 0) return hits.map((h) => ({ ...h, region: r }));
  // Nothing by name: the most specific unit named.
  for (const [slot, , ids] of [...wanted].sort((a, b) => a[0] - b[0])) {
    const place = r.unitPlace.get(ids[0]!);
    if (place !== undefined && slot !== AdminSlot.province2025 && slot !== AdminSlot.province) return [{ place, score: 0, text: 0, region: r }];
  }
  for (const [, , ids] of wanted) {
    const place = r.unitPlace.get(ids[0]!);
    if (place !== undefined) return [{ place, score: 0, text: 0, region: r }];
  }
  return [];
}

/** The admin units an address named, per place slot, with the weight of agreeing. */
function wantedUnits(res: AdminResolution): Array<[slot: number, weight: number, ids: number[]]> {
  const out: Array<[number, number, number[]]> = [];
  const ids: Record<number, number[]> = {
    [AdminSlot.ward]: res.legacy.ward !== undefined ? [res.legacy.ward] : [],
    [AdminSlot.district]: res.legacy.district !== undefined ? [res.legacy.district] : [],
    [AdminSlot.province]: res.legacy.province !== undefined ? [res.legacy.province] : [],
    [AdminSlot.ward2025]: res.v2025.ward !== undefined ? [res.v2025.ward, ...res.v2025.wards] : [],
    [AdminSlot.province2025]: res.v2025.province !== undefined ? [res.v2025.province] : [],
  };
  for (const [slot, weight] of LEVEL_BOOST) if (ids[slot]!.length > 0) out.push([slot, weight, ids[slot]!]);
  return out;
}

/** Ranked places for an address over all regions, best first. */
export function forwardGeocode(regions: readonly PlacesRegion[], address: string, limit = MAX_GEOCODE_RESULTS): RegionHit[] {
  const terms = termsOf(address);
  if (terms.length === 0) return [];
  const all = regions.flatMap((r) => forwardInRegion(r, address, terms, limit));
  return all.sort((a, b) => b.score - a.score).slice(0, limit);
}
