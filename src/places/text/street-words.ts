/** Words of street names as the place search reads them: type words they lead with, and alleys named by number. */

/** The words an alley's name leads with ("Hẻm", "Ngõ", "Ngách", "Kiệt"). Folded. */
export const ALLEY_WORDS: ReadonlySet<string> = new Set(['hem', 'ngo', 'ngach', 'kiet']);

/** A street named as an alley of another, by its number ("Hẻm 283 CMT8", "Ngõ 8 Cao Bá Quát"). Folded. */
export const ALLEY_NAME = new RegExp(`^(${[...ALLEY_WORDS].join('|')}) \\d`);

/**
 * Words before a type word that may make a street's name with it, at most: "Lý Thường" + Kiệt, "Nguyễn Tri" + Phương
 * end streets of the region, so the type word is the street's (address.ts, as-typed.ts).
 */
export const STREET_WORDS_BEFORE_TYPE = 4;

/** Street type words a street's name may lead with before what names it. Folded. */
const STREET_LEADS = new Set(['pho', 'duong', 'ngo', 'ngach', 'hem', 'kiet', 'dai', 'lo']);

/** Folded `name` without the street type words it leads with ("pho quoc tu giam" → "quoc tu giam"). */
export function withoutLeadingType(name: string): string {
  const w = name.split(' ');
  let k = 0;
  while (k < w.length - 1 && STREET_LEADS.has(w[k]!)) k++;
  return w.slice(k).join(' ');
}

/** Whether folded `name` starts with `words`, after any street type words ("Phố Chùa Một Cột" leads with "chùa"). */
export function leadsWith(name: string, words: readonly string[]): boolean {
  const w = name.split(' ');
  let k = 0;
  while (k < w.length && STREET_LEADS.has(w[k]!) && w[k] !== words[0]) k++;
  return words.every((x, i) => w[k + i] === x);
}
