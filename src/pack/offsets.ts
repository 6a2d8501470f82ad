/**
 * Offset arrays ("first" arrays of compressed rows: row i owns items first[i] .. first[i+1]-1) are what readers
 * loop over, so a pack opened without `verify` must not hand them out unchecked: one flipped byte can turn
 * first[i+1] into four billion, and a loop meant to visit a handful of items then runs for minutes over
 * `undefined`. Checked once when a pack is opened (linear in the array), never in the loops.
 */

/**
 * True when `first` is a valid offset array over `end` items: it starts at 0, never decreases, and its last entry
 * is `end`. An empty array is valid only when it must describe nothing (`end` 0).
 * @param first the offsets (item indices)
 * @param end the number of items the rows cover
 */
export function isOffsetArray(first: ArrayLike<number>, end: number): boolean {
  const n = first.length;
  if (n === 0) return end === 0;
  if (first[0] !== 0 || first[n - 1] !== end) return false;
  for (let i = 1; i < n; i++) if (first[i]! < first[i - 1]!) return false;
  return true;
}
