/**
 * True when `a` and `b` differ by at most one edit: one letter inserted, deleted or replaced, or two adjacent
 * letters swapped (the typos people make while typing). Allocation-free.
 */
export function withinOneEdit(a: string, b: string): boolean {
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === la && i === lb) return true;
  if (la === lb) {
    // replace at i, or swap i and i+1
    if (tailEqual(a, i + 1, b, i + 1)) return true;
    return (
      i + 1 < la &&
      a.charCodeAt(i) === b.charCodeAt(i + 1) &&
      a.charCodeAt(i + 1) === b.charCodeAt(i) &&
      tailEqual(a, i + 2, b, i + 2)
    );
  }
  return la > lb ? tailEqual(a, i + 1, b, i) : tailEqual(a, i, b, i + 1);
}

function tailEqual(a: string, i: number, b: string, j: number): boolean {
  if (a.length - i !== b.length - j) return false;
  for (; i < a.length; i++, j++) if (a.charCodeAt(i) !== b.charCodeAt(j)) return false;
  return true;
}

/**
 * True when `b` is `a` with its first two letters swapped ("ocffee" / "coffee"): the one typo that changes the first
 * letter of a word and still keeps all its letters.
 */
export function firstTwoSwapped(a: string, b: string): boolean {
  return (
    a.length === b.length &&
    a.length >= 2 &&
    a.charCodeAt(0) === b.charCodeAt(1) &&
    a.charCodeAt(1) === b.charCodeAt(0) &&
    a.charCodeAt(0) !== a.charCodeAt(1) &&
    tailEqual(a, 2, b, 2)
  );
}

/**
 * Whether typed word `a` may be a typo of `b` by its first letter: the same first letter, or the first two swapped.
 * People rarely mistype a word's first letter; requiring it keeps one-edit neighbours of short syllables out.
 */
export function firstLetterKept(a: string, b: string): boolean {
  return a.charCodeAt(0) === b.charCodeAt(0) || firstTwoSwapped(a, b);
}
