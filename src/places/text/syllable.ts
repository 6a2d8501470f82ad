/**
 * Whether letters spell one Vietnamese syllable: an initial consonant (or none), then a rhyme of the language (a
 * vowel nucleus, possibly after a glide o/u and before a final consonant or semivowel), with the spelling rules that
 * tie them (k, gh, ngh before i, e, ê; c, g, ng not before e, ê; qu before a glide-less rhyme). Tones are not checked:
 * a syllable typed with a wrong or missing tone is still that syllable. Used to tell text typed with the Vietnamese
 * keyboard off ("Hangf", "Quo6c") from plain words ("Express", "Coffee"), which are not syllables.
 */

/** Initial consonants, longest first (a word is tried with every one that starts it). */
const ONSETS = ['ngh', 'ng', 'nh', 'ch', 'gh', 'gi', 'kh', 'ph', 'qu', 'th', 'tr', 'b', 'c', 'd', 'đ', 'g', 'h'].concat(
  ['k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'x'],
);

/**
 * Rhymes: a nucleus (with its glide) and the finals it takes ('-' for none). From the standard table of Vietnamese
 * rhymes (vần), toneless.
 */
const RHYME_TABLE: ReadonlyArray<readonly [string, string]> = [
  ['a', '- i o u y c ch m n ng nh p t'],
  ['ă', 'c m n ng p t'],
  ['â', 'u y c m n ng p t'],
  ['e', '- o c m n ng p t'],
  ['ê', '- u ch m n nh p t'],
  ['i', '- a u ch m n nh p t'],
  ['iê', 'u c m n ng p t'],
  ['yê', 'u m n t'],
  ['y', '-'],
  ['o', '- i c m n ng p t'],
  ['oo', 'c ng'],
  ['ô', '- i c m n ng p t'],
  ['ơ', '- i m n p t'],
  ['u', '- a i c m n ng p t'],
  ['uô', 'i c m n ng t'],
  ['ư', '- a i u c m n ng t'],
  ['ươ', 'i u c m n ng p t'],
  ['oa', '- i y c ch m n ng nh p t'],
  ['oă', 'c m n ng t'],
  ['oe', '- o m n t'],
  ['uâ', 'y n ng t'],
  ['uê', '- ch n nh'],
  ['uy', '- a u ch n nh p t'],
  ['uyê', 'n t'],
  ['uơ', '-'],
];
const RHYMES = new Set<string>();
for (const [nucleus, finals] of RHYME_TABLE)
  for (const f of finals.split(' ')) RHYMES.add(f === '-' ? nucleus : nucleus + f);

/** Spelling rules: onsets written only before (`front: true`) or never before (`front: false`) i, e, ê, y. */
const FRONT_ONSETS: ReadonlyMap<string, boolean> = new Map([
  ['k', true],
  ['gh', true],
  ['ngh', true],
  ['c', false],
  ['ng', false],
]);
const FRONT = new Set(['i', 'e', 'ê', 'y']);

/** Whether `rhyme` may follow `onset`. */
function fits(onset: string, rhyme: string): boolean {
  if (!RHYMES.has(rhyme)) return false;
  const front = FRONT_ONSETS.get(onset);
  if (front !== undefined && FRONT.has(rhyme[0]!) !== front) return false;
  // "qu" carries the glide: its rhyme has none of its own, and of the rounded nuclei only ô, ơ ("qua", "quân",
  // "quốc", "quơ", "quyết").
  if (onset === 'qu') return !'uưo'.includes(rhyme[0]!);
  // "gi" is an onset of its own ("gia", "giữ"); a plain "g" takes no front vowel but i ("gì", "gìn").
  if (onset === 'g') return !FRONT.has(rhyme[0]!) || rhyme[0] === 'i';
  return true;
}

/**
 * True when `letters` (lower case, NFC, vowel marks and đ kept, no tone) spell one Vietnamese syllable.
 * @example isSyllable('quôc') === true; isSyllable('coffee') === false
 */
export function isSyllable(letters: string): boolean {
  if (fits('', letters)) return true;
  for (const onset of ONSETS) if (letters.startsWith(onset) && fits(onset, letters.slice(onset.length))) return true;
  return false;
}
