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

/**
 * Initial consonants one dialect or another pronounces alike, so that people write one for another: the north says
 * ch and tr, s and x, d, gi and r alike (and some of it l and n), the south v like d and gi ("chần" for Trần, "xân bay"
 * for sân bay, "da định" for Gia Định, "dõ" for Võ, "nàng" for làng). Spelling mistakes, not typing slips: the letters
 * differ at the word's start, where a typo seldom falls.
 */
const SOUND_ALIKE: ReadonlyArray<readonly string[]> = [
  ['ch', 'tr'],
  ['s', 'x'],
  ['d', 'gi', 'r', 'v'],
  ['l', 'n'],
];

/** Letter for letter, a word without its marks (an NFC letter's marks strip to one letter; đ stays). */
const bare = (w: string): string => w.normalize('NFD').replace(/\p{M}/gu, '');
/**
 * Whether a word (lower case, NFC) spells a syllable, its tone aside: one written without vowel marks (folded) as
 * isBareSyllable reads it, one with them as isSyllable does ("chầnh" is none: â takes no nh).
 */
function spelt(w: string): boolean {
  const toneless = w
    .normalize('NFD')
    .replace(/[\u0300\u0301\u0303\u0309\u0323]/g, '')
    .normalize('NFC');
  const letters = bare(toneless).replace(/đ/g, 'd');
  return toneless.replace(/đ/g, 'd') === letters ? isBareSyllable(letters) : isSyllable(toneless);
}

/** ê with each tone, first in a rhyme. */
const E_FIRST = /^[êềếểễệ]/;

/**
 * The words `word` (lower case, NFC, folded or with its marks) is heard as with its initial consonant spelt as another
 * of its sound (SOUND_ALIKE), marks kept: "tran" for "chan", "trường" for "chường", "gia" and "ra" and "va" for "da"
 * ("gì" and "dì": a gi before i writes that i once). Only syllables of the language; empty for a word that is none or
 * has no such onset.
 */
function onsetsAlike(word: string): string[] {
  const letters = bare(word);
  if (!spelt(word)) return [];
  const onset = ONSETS.find((o) => letters.startsWith(o));
  const group = onset === undefined ? undefined : SOUND_ALIKE.find((g) => g.includes(onset));
  if (onset === undefined || group === undefined) return [];
  // A gi before no vowel or before ê holds the rhyme's i ("gìn"; "giếng" is gi + "iếng"): the other onset keeps it,
  // marks and all; so a rhyme of i or iê takes a gi without it, and one of ê alone none ("vệ" is no "giệ"). Written
  // without marks, gi + e may be either ("gien": Diên or Den).
  const giE = onset === 'gi' && letters[2] === 'e';
  const ownI = onset === 'gi' && (!/^[aeiouy]/.test(letters.slice(2)) || E_FIRST.test(word.slice(2)));
  const rests = ownI
    ? [word.slice(1)]
    : giE && word === letters
      ? [word.slice(2), word.slice(1)]
      : [word.slice(onset.length)];
  const out: string[] = [];
  for (const other of group)
    for (const rest of rests) {
      if (other === onset || (other === 'gi' && E_FIRST.test(rest))) continue;
      const heard = other === 'gi' && bare(rest).startsWith('i') ? 'g' + rest : other + rest;
      if (spelt(heard)) out.push(heard);
    }
  return out;
}

/**
 * Endings the south pronounces alike ("đức" said "đứt", "bình" "bìn", "bạch" "bạt", "tiền" "tiềng"), each with the
 * ones it is heard as; the longer of two that end a word is its ending.
 */
const SOUND_ALIKE_ENDS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['ng', ['n']],
  ['nh', ['n']],
  ['n', ['ng', 'nh']],
  ['ch', ['t']],
  ['c', ['t']],
  ['t', ['c', 'ch']],
];
/** ư with each tone, in I_FORMS' order: the rhymes "iu" and "ưu" are heard alike ("hiu" for Hưu). */
const U_HORN = 'ưừứửữự';

/**
 * The words `word` (as for soundAlikes) is heard as with its ending or its rhyme spelt as another of its sound, tone
 * kept: "đứt" for "đức", "bìn" for "bình", "dui" for "duy", "hiu" for "hưu". Only syllables of the language.
 */
function endsAlike(word: string): string[] {
  const letters = bare(word);
  if (!spelt(word)) return [];
  const out: string[] = [];
  const end = SOUND_ALIKE_ENDS.find(([e]) => letters.endsWith(e));
  if (end) for (const other of end[1]) out.push(word.slice(0, word.length - end[0].length) + other);
  const last = word.length - 1;
  const [i, y] = [I_FORMS.indexOf(word[last]!), Y_FORMS.indexOf(word[last]!)];
  if (letters.endsWith('ui') && i >= 0) out.push(word.slice(0, last) + Y_FORMS[i]);
  if (letters.endsWith('uy') && y >= 0) out.push(word.slice(0, last) + I_FORMS[y]);
  const tone = I_FORMS.indexOf(word[last - 1]!);
  // (Not the i of a gi: "giữ" is gi + ư.)
  if (letters.endsWith('iu') && letters !== 'giu' && tone >= 0) out.push(word.slice(0, last - 1) + U_HORN[tone] + 'u');
  const horn = U_HORN.indexOf(word[last - 1]!);
  if (letters.endsWith('uu') && horn >= 0 && word[last] === 'u')
    out.push(word.slice(0, last - 1) + I_FORMS[horn] + 'u');
  return out.filter((w) => w !== word && spelt(w));
}

/**
 * The words `word` (lower case, NFC, folded or with its marks) is heard as, spelt as people who say it so write it: its
 * initial consonant as another of its sound (onsetsAlike: "trần" for "chần", "gia" for "da") or its ending or rhyme
 * (endsAlike: "đức" for "đứt", "bình" for "bìn", "duy" for "dui"), one change at a time. Spelling mistakes, not typing
 * slips: they change the letters a typo seldom does (the first) or several at once. Only syllables of the language.
 * @example soundAlikes('chần') → ['trần', 'chầng']; soundAlikes('đứt') → ['đức']
 */
export function soundAlikes(word: string): readonly string[] {
  let heard = HEARD.get(word);
  if (heard === undefined) {
    if (HEARD.size >= HEARD_KEPT) HEARD.clear();
    HEARD.set(word, (heard = [...onsetsAlike(word), ...endsAlike(word)]));
  }
  return heard;
}

/** soundAlikes of the words asked lately (rank reads those of a query's words for each candidate's names). */
const HEARD = new Map<string, readonly string[]>();
const HEARD_KEPT = 4096;

/** Whether written word x is name word w spelt as another of its sound (soundAlikes: "chan" for "tran"). */
export function soundsAlike(x: string, w: string): boolean {
  return x !== w && soundAlikes(x).includes(w);
}

/** Whether words a and b (folded, one space apart) are the same words, some spelt as others of their sound. */
export function wordsSoundAlike(a: string, b: string): boolean {
  const x = a.split(' '),
    w = b.split(' ');
  return x.length === w.length && x.every((word, k) => word === w[k] || soundsAlike(word, w[k]!));
}
