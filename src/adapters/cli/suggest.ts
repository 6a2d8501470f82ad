/** "Did you mean …": the nearest known word to a mistyped command, flag or parameter. */

/**
 * Edit distance between `a` and `b`: insertions, deletions, substitutions and swaps of two neighbours (`prot` →
 * `port`) of one character each (optimal string alignment).
 */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j]!, before[j - 2]! + 1);
    }
    before = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The known word nearest to `word` (case ignored), when it is within a third of the longer one's length in edits
 * (at least one edit), else null: close enough to be a slip (`destinaton`, `--prot`), not a different word.
 */
function nearest(word: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = editDistance(word.toLowerCase(), k.toLowerCase());
    if (d < bestDistance && d <= Math.max(1, Math.floor(Math.max(word.length, k.length) / 3))) {
      best = k;
      bestDistance = d;
    }
  }
  return best;
}

/** ` (did you mean X?)` for the nearest known word, or ''. */
export function didYouMean(word: string, known: readonly string[], prefix = ''): string {
  const n = nearest(word, known);
  return n === null ? '' : ` (did you mean ${prefix}${n}?)`;
}
