/**
 * Where a house is in the alley tree of its street, as one key: the alley numbers from the street inwards, then the
 * house, "/"-joined and folded. Vietnamese addresses write the same house in several ways and OSM stores it in
 * several more: "88/6 Mạc Đĩnh Chi", "số 6 hẻm 88 Mạc Đĩnh Chi", or house "6" on the street "Hẻm 88 Mạc Đĩnh Chi" are
 * all 88/6; "số 5 ngõ 10 ngách 2" is 10/2/5. No Node imports.
 */
import { parseAddress } from './address';
import { fold } from './fold';

/** "45 bis" is the house 45bis (house-number.ts reads both), not an alley path 45/bis. Folded text. */
const SPACED_SUFFIX = / (bis|ter)(?![a-z0-9])/g;

/**
 * The key of a house number and the alley path it sits in: "88/6", "10/2/5", "11/2b". Leading zeros are dropped,
 * letters kept ("12A" → "12a"); '' when there is no house number.
 * @param house the house number as written ("6", "88/6", "12B")
 * @param alley the alley path around it, "/"-joined ("88", "10/2"), when written apart from the number
 */
export function houseKey(house: string | undefined, alley?: string): string {
  if (!house) return '';
  const parts = (s: string | undefined): string[] =>
    fold(s ?? '')
      .replace(SPACED_SUFFIX, '$1')
      .split(' ')
      .filter((p) => p !== '')
      .map((p) => p.replace(/^0+(?=\d)/, ''));
  const [a, h] = [parts(alley), parts(house)];
  // "502/43" in "Hẻm 502" already holds its alley: 502/43, not 502/502/43.
  const holds = a.length > 0 && a.length < h.length && a.every((x, k) => h[k] === x);
  return [...(holds ? [] : a), ...h].join('/');
}

/**
 * The key of a stored address: its house number with the alley numbers that lead its street or its house text
 * ("6" on "Hẻm 88 Mạc Đĩnh Chi" → "88/6"; "Số 3, Ngõ 107A" on "Tôn Đức Thắng" → "107a/3").
 * @param alleyPath streetAlleyPath(street), which callers cache per street
 */
export function storedHouseKey(house: string, street: string, alleyPath: string | null): string {
  // A plain number ("12", "12B") sits where any plain number on that street does: the street is parsed once per
  // street (region-places.ts caches alleyPath), not once per house (a query for "1" meets thousands of them).
  if (alleyPath !== null && PLAIN_HOUSE.test(house)) return houseKey(house, alleyPath || undefined);
  const p = parseAddress(`${house} ${street}`);
  return houseKey(p.house, p.alley);
}

/** A house number of digits and at most one letter, or a path of them ("12", "12B", "88/6", "686/16/8"). */
const PLAIN_HOUSE = /^\d+[a-z]?(\/\d+[a-z]?)*$/i;

/**
 * The alley path a plain house number on `street` sits in ("88" on "Hẻm 88 Mạc Đĩnh Chi"; '' on a street itself), or
 * null when a number written before the street's name is not read as its house (then each house is parsed whole).
 */
export function streetAlleyPath(street: string): string | null {
  const p = parseAddress(`1 ${street}`);
  return p.house === '1' ? (p.alley ?? '') : null;
}

/**
 * The number of a house on its street and its side, when the key is a plain number on the street itself (no alley:
 * "98", "98b"); null otherwise. Vietnamese streets keep odd numbers on one side and even on the other.
 */
export function streetNumber(key: string): { n: number; odd: boolean } | null {
  const m = /^(\d+)[a-z]?$/.exec(key);
  if (!m) return null;
  const n = Number(m[1]);
  return { n, odd: n % 2 === 1 };
}
