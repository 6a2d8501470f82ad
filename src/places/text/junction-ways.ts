/**
 * How many ways meet at a junction, as its name says: "ngã ba" three, "ngã tư" four, up to "ngã bảy" (or with a
 * digit, "Ngã 4 Hàng Xanh"). The count is part of what a junction is: "Ngã sáu Gò Vấp" is not Ngã tư An Nhơn in the
 * same district, though both are junctions (CATEGORIES' one row). Words are folded.
 */
import { fold } from './fold';

/** The word of each count as people write it after "ngã", by its digit ("ngã 4" is "ngã tư"). */
export const WAYS_WORD: ReadonlyMap<string, string> = new Map([
  ['3', 'ba'],
  ['4', 'tư'],
  ['5', 'năm'],
  ['6', 'sáu'],
  ['7', 'bảy'],
]);

/** The count each folded word after "ngã" says: the word or the digit. */
const WAYS: ReadonlyMap<string, number> = new Map(
  [...WAYS_WORD].flatMap(([digit, word]) => [
    [fold(word), Number(digit)],
    [digit, Number(digit)],
  ]),
);

/** Bit n set for each count n that `words` (folded, in order) name as "ngã n"; 0 when they name none. */
export function junctionWays(words: readonly string[]): number {
  let ways = 0;
  for (let k = 0; k + 1 < words.length; k++) {
    const n = words[k] === 'nga' ? WAYS.get(words[k + 1]!) : undefined;
    if (n !== undefined) ways |= 1 << n;
  }
  return ways;
}
