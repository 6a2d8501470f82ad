/**
 * A number written after the words of a name ("Bệnh viện Quân y 103", "Military Hospital 103") is read by the address
 * parser as a house number, as it is after a street's name ("Cao Bá Quát 31"). Of the places the query's words find,
 * one whose own name holds that number beside all the query's name words is the place (or street) so named: for it the
 * number is the name's, as good as its house number, and the answer is whole (not a house the data lacks). A number before
 * the words ("24 Nguyễn Huệ") stays an address: "Phở 24" on Nguyễn Huệ is not number 24.
 */
import { PlaceKind } from './kinds';
import type { PlacesRegion } from './region-places';
import type { PlaceQuery } from './search/query';
import { soundsAlike } from './text/syllable';

/**
 * The folded number the query wrote as its house number right after a name or category word of the same part, and
 * the folded name words before it; null when the query wrote none so (a leading number, an alley, no house).
 */
export function numberAfterName(q: PlaceQuery): { number: string; words: string[] } | null {
  if (q.parsed.alley !== undefined) return null;
  const j = q.terms.findIndex((t) => t.part === 'house' && t.role === 'number');
  const before = q.terms[j - 1];
  if (j < 1 || !before || before.segment !== q.terms[j]!.segment) return null;
  if (before.role !== 'name' && before.role !== 'category') return null;
  const words = q.terms.filter((t) => t.role === 'name' && !t.numeric && (q.near & (1 << q.terms.indexOf(t))) === 0);
  return { number: q.terms[j]!.folded, words: words.map((t) => t.folded) };
}

/**
 * Whether a name of place `p` (a place or a street; not a house or unit) holds `n.number` as a word after every one
 * of `n.words`: the number is part of that name (Quận 12 names its streets so: "Thạnh Xuân 25", "Tân Chánh Hiệp 10").
 * @param names the string ids of the place's names
 */
export function namedWithNumber(
  r: PlacesRegion,
  p: number,
  names: Iterable<number>,
  n: { number: string; words: string[] },
): boolean {
  if (r.places.kind[p] !== PlaceKind.poi && r.places.kind[p] !== PlaceKind.street) return false;
  for (const id of names) {
    if (id === 0) continue;
    const words = r.folded(id).split(/[^\p{L}\p{N}]+/u);
    const at = words.indexOf(n.number);
    // A word may be written as another of its sound ("Nhân Giân 115").
    const before = words.slice(0, at);
    if (at > 0 && n.words.every((w) => before.some((x) => x === w || soundsAlike(w, x)))) return true;
  }
  return false;
}
