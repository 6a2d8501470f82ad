/**
 * Glob matching where `*` (any run of characters, also none) is the only special character, in time linear in the
 * text for a given pattern: the literal pieces between stars are found left to right, each at its first place after
 * the previous one. A regular expression `^a.*b.*c$` would instead backtrack polynomially on texts the pattern
 * nearly matches (a Referer header of thousands of `b`s against `*b*b*b*`).
 */

/**
 * True when `text` matches `glob` as a whole. Leftmost placement of each middle piece is always right for `*`
 * globs: an earlier end leaves the rest of the text as free as any later one.
 */
export function globMatch(glob: string, text: string): boolean {
  const pieces = glob.split('*');
  if (pieces.length === 1) return glob === text;
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  if (first.length + last.length > text.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  let at = first.length;
  const end = text.length - last.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i]!;
    if (piece === '') continue;
    const found = text.indexOf(piece, at);
    if (found < 0 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}
