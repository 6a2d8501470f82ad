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
  ['ă', 'c k m n ng p t'],
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
/** The rhymes written without vowel marks ("uyen" of "uyên"), for text typed bare. */
const BARE_RHYMES = new Set([...RHYMES].map((r) => r.normalize('NFD').replace(/\p{M}/gu, '')));
/** Rhymes and their beginnings (a syllable being typed: "quô" of "quốc"). */
const RHYME_STARTS = new Set<string>();
for (const r of RHYMES) for (let n = 1; n <= r.length; n++) RHYME_STARTS.add(r.slice(0, n));

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
function fits(onset: string, rhyme: string, rhymes: ReadonlySet<string>): boolean {
  // "qu" is q and the glide u: u and the rest make a rhyme ("quân", "quỳnh", "quốc", "quyết"), or the rest is a rhyme
  // of a front or open vowel, or of ơ ("quen", "quét", "quới").
  if (onset === 'qu') return rhymes.has(`u${rhyme}`) || (rhymes.has(rhyme) && 'aăâeêiyơ'.includes(rhyme[0]!));
  if (!rhymes.has(rhyme)) return false;
  const front = FRONT_ONSETS.get(onset);
  if (front !== undefined && FRONT.has(rhyme[0]!) !== front) return false;
  // "gi" is an onset of its own ("gia", "giữ"); a plain "g" takes no front vowel but i ("gì", "gìn").
  if (onset === 'g') return !FRONT.has(rhyme[0]!) || rhyme[0] === 'i';
  return true;
}

/**
 * True when `letters` (lower case, NFC, vowel marks and đ kept, no tone) spell one Vietnamese syllable, or with
 * `start` the beginning of one (an initial consonant and the start of a rhyme: "quô", "ngh").
 * @example isSyllable('quôc') === true; isSyllable('coffee') === false; isSyllable('quô', true) === true
 */
export function isSyllable(letters: string, start = false): boolean {
  const rhymes = start ? RHYME_STARTS : RHYMES;
  if (fits('', letters, rhymes) || (start && ONSETS.includes(letters))) return true;
  for (const onset of ONSETS)
    if (letters.startsWith(onset) && fits(onset, letters.slice(onset.length), rhymes)) return true;
  return false;
}

/**
 * True when `letters` (lower case, without any mark; đ as d) are a Vietnamese syllable written bare ("nguyen",
 * "huu", "quoc"): an onset and a rhyme of the language once its marks are dropped.
 */
export function isBareSyllable(letters: string): boolean {
  if (BARE_RHYMES.has(letters)) return true;
  for (const onset of ONSETS) {
    if (!letters.startsWith(onset) || onset === 'đ') continue;
    const rhyme = letters.slice(onset.length);
    if (BARE_RHYMES.has(rhyme) || (onset === 'qu' && BARE_RHYMES.has(`u${rhyme}`))) return true;
  }
  return false;
}

/** Finals that close a syllable on a stop: such a syllable takes the sắc or nặng tone, never none. */
const STOP_FINAL = /(?:c|ch|p|t)$/;

/**
 * True when `word` (lower case, written without any mark) is a Vietnamese syllable that cannot be written so: one
 * closed by c, ch, p or t carries the sắc or nặng tone ("duc" is "đức" or "dục"), so its writer dropped the marks.
 * @example lostMarks('duc') === true; lostMarks('ba') === false; lostMarks('mart') === false (not a syllable)
 */
export function lostMarks(word: string): boolean {
  return STOP_FINAL.test(word) && isSyllable(word);
}

/** Onsets after which a syllable of a lone i or y is spelt either way ("Lý"/"Lí", "Mỹ"/"Mĩ", "quý"/"quí"). */
const IY_ONSETS = new Set(['h', 'k', 'l', 'm', 's', 't', 'qu']);
/** i and y with each tone, in the same order. */
const I_FORMS = 'iìíỉĩị';
const Y_FORMS = 'yỳýỷỹỵ';

/**
 * The word spelt with the other of i and y, when it is a syllable of a lone i or y after an onset that allows both
 * (the spelling reform of 1980 left both in use: "Lí Thường Kiệt", "Hoa Kì", "công ti"): tone kept, case as given
 * (lower case expected, folded or not); null for any other word.
 */
export function otherIY(word: string): string | null {
  const last = word.length - 1;
  if (last < 1 || !IY_ONSETS.has(word.slice(0, last))) return null;
  const c = word[last]!;
  const i = I_FORMS.indexOf(c);
  if (i >= 0) return word.slice(0, last) + Y_FORMS[i];
  const y = Y_FORMS.indexOf(c);
  return y >= 0 ? word.slice(0, last) + I_FORMS[y] : null;
}
