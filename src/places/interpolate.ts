/**
 * Where a house the data lacks probably is: between its numbered neighbours on the same street (the same side: odd
 * and even numbers face each other), or in the same alley; an alley house the data has no neighbour of stands at the
 * alley's mouth, the house of the alley's number on the street. An estimate, always answered as a partial match.
 */
import { haversine } from '../geo';
import { PlaceKind } from './kinds';
import { streetKey, type PlacesRegion } from './region-places';
import { fold } from './text/fold';
import { streetNumber } from './text/house-path';

/** Farthest a one-sided neighbour's number may be from the asked one (a street's houses are not evenly spaced). */
const ONE_SIDED_GAP = 20;
/** Two neighbours farther apart than this are on different stretches (or streets) of one name, metres. */
const SAME_STRETCH_M = 500;
/** Neighbours tried on each side for the bracketing pair (the nearest numbers first). */
const PAIR_CANDIDATES = 24;
/** Alley words that may follow a street key's leading alley number ("10 ngach 2 …"), and street type words after them. */
const ALLEY_WORDS = new Set(['ngach', 'hem', 'kiet']);
const STREET_WORDS = new Set(['pho', 'duong']);
/** Alley words that may lead a street's name, folded. */
const NAMED_ALLEY_WORDS = new Set(['ngo', 'ngach', 'hem', 'kiet']);

/**
 * The key of the street a house is on, without the alleys it leads with: streetKey drops the leading type word, so
 * "Hẻm 88 Mạc Đĩnh Chi" is "88 mac dinh chi" and "Ngõ 10 Ngách 2 Khâm Thiên" is "10 ngach 2 kham thien"; the numbers,
 * the alley words between them and a street type word after them ("Ngõ 27 Phố Cát Linh") go.
 */
function houseStreetKey(name: string): string {
  // An alley named by words alone ("Ngõ Tràng Tiền") is a street of its own, not the street of those words (Phố
  // Tràng Tiền): its houses are not that street's.
  const [lead, next] = fold(name).split(' ');
  if (lead !== undefined && NAMED_ALLEY_WORDS.has(lead) && next !== undefined && !/\d/.test(next))
    return `${lead} ${streetKey(name)}`;
  const words = streetKey(name).split(' ');
  let k = 0;
  while (k < words.length && /\d/.test(words[k]!)) {
    k++;
    if (ALLEY_WORDS.has(words[k] ?? '') && /\d/.test(words[k + 1] ?? '')) k++;
  }
  if (k > 0 && STREET_WORDS.has(words[k] ?? '')) k++;
  return words.slice(k).join(' ');
}

/** A position in degrees, and the house there when the data holds the one asked for. */
export interface Position {
  lat: number;
  lng: number;
  house?: number;
}

/** houseStreetKey of the region's strings, by string id, kept at first use. */
const houseStreetKeys = new WeakMap<PlacesRegion, Map<number, string>>();

/** houseStreetKey of string `id` of the region (a street's name), cached. */
export function houseStreetKeyOf(r: PlacesRegion, id: number): string {
  let keys = houseStreetKeys.get(r);
  if (!keys) houseStreetKeys.set(r, (keys = new Map()));
  let k = keys.get(id);
  if (k === undefined) keys.set(id, (k = houseStreetKey(r.region.strings.get(id))));
  return k;
}

/** The street pieces of a region by houseStreetKey of their name, built at first use. */
const piecesByStreet = new WeakMap<PlacesRegion, Map<string, number[]>>();

/**
 * The street piece to show a house `key` estimated at `at` on: among the pieces of the street named like place
 * `street` and of its alleys, those of the house's alley when it is in one ("số 12 ngõ 27 Cát Linh" is on Ngõ 27 Phố
 * Cát Linh), else of the street itself, else any; the nearest of them.
 */
export function shownPiece(r: PlacesRegion, street: number, key: string, at: Position): number {
  const nameOf = (p: number) => r.region.strings.get(r.places.name[p]!);
  let byStreet = piecesByStreet.get(r);
  if (!byStreet) {
    byStreet = new Map();
    for (const [name, pieces] of r.streetPieces) {
      const k = houseStreetKeyOf(r, name);
      const list = byStreet.get(k);
      if (list) list.push(...pieces);
      else byStreet.set(k, [...pieces]);
    }
    piecesByStreet.set(r, byStreet);
  }
  const pieces = byStreet.get(houseStreetKeyOf(r, r.places.name[street]!)) ?? [];
  const alley = key.includes('/') ? key.slice(0, key.indexOf('/')) : '';
  // A piece's alley: the number its name leads with ("Ngõ 27 Phố Cát Linh": 27); '' for the street itself.
  const alleyOf = (p: number): string => {
    const k = streetKey(nameOf(p));
    return k === houseStreetKeyOf(r, r.places.name[p]!) ? '' : (k.split(' ')[0] ?? '');
  };
  // The house's alley when the data names it, else the street itself ("28/3 Tân Kỳ Tân Quý" in an alley the data does
  // not name is shown on the street, not on the nearest other alley, Hẻm 65), else any piece.
  const own = pieces.filter((p) => alleyOf(p) === alley);
  const main = pieces.filter((p) => alleyOf(p) === '');
  let best = -1;
  for (const p of own.length > 0 ? own : main.length > 0 ? main : pieces.length > 0 ? pieces : [street])
    if (best < 0 || haversine(at.lat, at.lng, r.lat(p), r.lon(p)) < haversine(at.lat, at.lng, r.lat(best), r.lon(best)))
      best = p;
  return best;
}

/** The houses of a region by the key of their street (without its alley words), built at first use. */
const housesByStreet = new WeakMap<PlacesRegion, Map<string, number[]>>();

function housesOf(r: PlacesRegion, key: string): readonly number[] {
  let byStreet = housesByStreet.get(r);
  if (!byStreet) {
    byStreet = new Map();
    const p = r.places;
    for (let i = 0; i < p.count; i++) {
      if (p.house[i] === 0 || p.street.at(i) === 0 || p.kind[i]! > PlaceKind.address) continue;
      const id = p.street.at(i);
      const k = houseStreetKeyOf(r, id);
      const list = byStreet.get(k);
      if (list) list.push(i);
      else byStreet.set(k, [i]);
    }
    housesByStreet.set(r, byStreet);
  }
  return byStreet.get(key) ?? [];
}

/**
 * The estimated position of the house `key` (see house-path.ts: "98", "185/2") on the street named like place
 * `street`, from the houses the data has on streets of that name (`keep` limits them: the area the query names);
 * null when no neighbour is close enough. Streets of one name in several districts are told apart by the neighbours
 * themselves: two that bracket the number stand within SAME_STRETCH_M of each other.
 */
export function interpolateHouse(
  r: PlacesRegion,
  street: number,
  key: string,
  keep: (place: number) => boolean = () => true,
): Position | null {
  const houses = housesOf(r, houseStreetKeyOf(r, r.places.name[street]!)).filter(keep);
  return estimate(r, houses, key);
}

function estimate(r: PlacesRegion, houses: readonly number[], key: string): Position | null {
  const slash = key.lastIndexOf('/');
  const prefix = slash < 0 ? '' : key.slice(0, slash + 1);
  const asked = streetNumber(key.slice(slash + 1));
  if (!asked) return null;
  // The houses of the same alley and side, by number.
  const side: Array<{ i: number; n: number }> = [];
  // A house of the number asked: the one written so, else one of that number with another letter ("125A" for "125").
  let sameNumber = -1;
  for (const i of houses) {
    const k = r.houseKeyOf(i);
    if (!k.startsWith(prefix) || k.includes('/', prefix.length)) continue;
    const m = streetNumber(k.slice(prefix.length));
    if (!m || m.odd !== asked.odd) continue;
    if (k === key) return { lat: r.lat(i), lng: r.lon(i), house: i };
    if (m.n === asked.n) {
      if (sameNumber < 0) sameNumber = i;
      continue;
    }
    side.push({ i, n: m.n });
  }
  if (sameNumber >= 0) return { lat: r.lat(sameNumber), lng: r.lon(sameNumber), house: sameNumber };
  const below = side.filter((h) => h.n < asked.n).sort((a, b) => b.n - a.n);
  const above = side.filter((h) => h.n > asked.n).sort((a, b) => a.n - b.n);
  // The closest pair that brackets the number on one stretch of street.
  let best: { b: (typeof side)[number]; a: (typeof side)[number] } | null = null;
  for (const b of below.slice(0, PAIR_CANDIDATES))
    for (const a of above.slice(0, PAIR_CANDIDATES)) {
      if (best && a.n - b.n >= best.a.n - best.b.n) break;
      if (haversine(r.lat(b.i), r.lon(b.i), r.lat(a.i), r.lon(a.i)) <= SAME_STRETCH_M) best = { b, a };
    }
  if (best) {
    const t = (asked.n - best.b.n) / (best.a.n - best.b.n);
    const [b, a] = [best.b.i, best.a.i];
    return { lat: r.lat(b) + t * (r.lat(a) - r.lat(b)), lng: r.lon(b) + t * (r.lon(a) - r.lon(b)) };
  }
  const nearest = [below[0], above[0]]
    .filter((h): h is (typeof side)[number] => h !== undefined && Math.abs(h.n - asked.n) <= ONE_SIDED_GAP)
    .sort((x, y) => Math.abs(x.n - asked.n) - Math.abs(y.n - asked.n))[0];
  if (nearest) return { lat: r.lat(nearest.i), lng: r.lon(nearest.i) };
  // No neighbour in the alley: its mouth, the house of its number one level out (a position only: that house is not
  // the one asked for).
  const mouth = prefix !== '' ? estimate(r, houses, key.slice(0, slash)) : null;
  return mouth && { lat: mouth.lat, lng: mouth.lng };
}
