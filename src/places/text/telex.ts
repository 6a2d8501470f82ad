/**
 * Reading text typed with the Vietnamese keyboard off: the key strokes of the Telex and VNI input methods left as
 * plain letters and digits ("Hangf Bacj", "Quoocs Tuwr Giams", "Ha2ng Ba5c") are turned into the syllables they
 * type (Hàng Bạc, Quốc Tử Giám). A word is read only when its keys make one well-formed Vietnamese syllable
 * (syllable.ts), so plain words ("Coffee", "Express", "Lotteria", "Vincom") never are; readKeyboardOff also leaves a
 * word alone when the place index holds it as written, or does not hold its reading ("Bus" stays "Bus").
 */
import { fold, hasDiacritics } from './fold';
import { isSyllable } from './syllable';

const ACUTE = '\u0301';
const GRAVE = '\u0300';
const HOOK = '\u0309';
const TILDE = '\u0303';
const DOT = '\u0323';
const CIRCUMFLEX = '\u0302';
const BREVE = '\u0306';
const HORN = '\u031b';
/** The stroke of đ: not a combining mark, the letter changes. */
const STROKE = 'đ';

/** A key that marks a letter: the mark, the letters it applies to, and whether it is that letter typed twice. */
interface MarkKey {
  key: string;
  mark: string;
  on: string;
  /** Applies to the letter just before only ("aa", "dd"); else to the nearest letter before that takes it. */
  repeat?: boolean;
}

/** An input method: its tone keys and its mark keys (the first mark key that finds a letter applies). */
interface Keyboard {
  tones: Readonly<Record<string, string>>;
  marks: readonly MarkKey[];
  /** Keys that type a marked letter of their own when they mark none (Telex "w" alone is ư: "Bwu" → bưu). */
  alone?: Readonly<Record<string, Letter>>;
}

/** Telex and VNI, the two input methods in use. */
const KEYBOARDS: { telex: Keyboard; vni: Keyboard } = {
  telex: {
    tones: { s: ACUTE, f: GRAVE, r: HOOK, x: TILDE, j: DOT },
    marks: [
      { key: 'a', mark: CIRCUMFLEX, on: 'a', repeat: true },
      { key: 'e', mark: CIRCUMFLEX, on: 'e', repeat: true },
      { key: 'o', mark: CIRCUMFLEX, on: 'o', repeat: true },
      { key: 'd', mark: STROKE, on: 'd', repeat: true },
      { key: 'w', mark: HORN, on: 'ou' },
      { key: 'w', mark: BREVE, on: 'a' },
    ],
    alone: { w: { base: 'u', mark: HORN } },
  },
  vni: {
    tones: { 1: ACUTE, 2: GRAVE, 3: HOOK, 4: TILDE, 5: DOT },
    marks: [
      { key: '6', mark: CIRCUMFLEX, on: 'aeo' },
      { key: '7', mark: HORN, on: 'ou' },
      { key: '8', mark: BREVE, on: 'a' },
      { key: '9', mark: STROKE, on: 'd' },
    ],
  },
};

const VOWELS = 'aeiouy';

/** One letter being typed: its base letter and its mark ('' none). */
interface Letter {
  base: string;
  mark: string;
}

/** The letters with their marks, NFC, without tone. */
function spell(letters: readonly Letter[]): string {
  return letters
    .map((l) => (l.mark === STROKE ? 'đ' : l.base + l.mark))
    .join('')
    .normalize('NFC');
}

/**
 * Where the tone goes in a toneless syllable (index into its code points): the last vowel with a mark of its own
 * (ơ of ươ); else the last vowel before a final consonant; else the one before last of two or more vowels; else the
 * only one. The "qu" and "gi" onsets' vowel is not a place for it.
 */
function tonePlace(s: readonly string[]): number {
  const vowel = (c: string) => VOWELS.includes(c.normalize('NFD')[0]!);
  let from = 0;
  const head = s.slice(0, 2).join('');
  if ((head === 'qu' || head === 'gi') && s.length > 2 && vowel(s[2]!)) from = 2;
  let start = from;
  while (start < s.length && !vowel(s[start]!)) start++;
  let end = start;
  while (end < s.length && vowel(s[end]!)) end++;
  for (let k = end - 1; k >= start; k--) if (s[k]!.normalize('NFD').length > 1) return k;
  if (end < s.length || end - start === 1) return end - 1;
  return end - 2;
}

/** The syllable (or with `start` its beginning) a word's key strokes type with `kb`, or null when they type none. */
function readWith(word: string, kb: Keyboard, start: boolean): string | null {
  const letters: Letter[] = [];
  let tone = '';
  let keys = 0;
  // A horn put on a u because an o after it took one ("uow" → ươ): without it the syllable may be "uơ" (thuở).
  let pairedHorn: Letter | undefined;
  for (const ch of word) {
    const hasVowel = letters.some((l) => VOWELS.includes(l.base));
    const toneKey = kb.tones[ch];
    if (toneKey !== undefined && hasVowel && tone === '') {
      tone = toneKey;
      keys++;
      continue;
    }
    const applied = kb.marks.some((m) => {
      if (m.key !== ch) return false;
      let k = letters.length - 1;
      if (!m.repeat) while (k >= 0 && !(m.on.includes(letters[k]!.base) && letters[k]!.mark === '')) k--;
      const target = letters[k];
      if (!target || !m.on.includes(target.base) || target.mark !== '') return false;
      target.mark = m.mark;
      const before = letters[k - 1];
      if (m.mark === HORN && target.base === 'o' && before?.base === 'u' && before.mark === '') {
        before.mark = HORN;
        pairedHorn = before;
      }
      return true;
    });
    if (applied) {
      keys++;
      continue;
    }
    const alone = kb.alone?.[ch];
    if (alone) {
      letters.push({ ...alone });
      keys++;
      continue;
    }
    if (!/[a-z]/.test(ch)) return null;
    letters.push({ base: ch, mark: '' });
  }
  if (keys === 0 || letters.length < 2) return null;
  let toneless = spell(letters);
  if (!isSyllable(toneless, start) && pairedHorn) {
    pairedHorn.mark = '';
    toneless = spell(letters);
  }
  if (!isSyllable(toneless, start)) return null;
  if (tone === '') return toneless;
  // A syllable ending in a stop (c, ch, p, t) takes only the rising or the heavy tone: "mart", "port" type none.
  if (/(c|ch|p|t)$/.test(toneless) && tone !== ACUTE && tone !== DOT) return null;
  const chars = [...toneless];
  const at = tonePlace(chars);
  if (at < 0) return null;
  chars[at] = (chars[at]! + tone).normalize('NFC');
  return chars.join('');
}

/**
 * The Vietnamese syllable a word typed with the keyboard off stands for: VNI when it holds digits, else Telex; null
 * when its keys type no well-formed syllable (or it holds no key at all: a plain word). Lower case, NFC. Words of one
 * letter are left out: "A1", "as" are blocks and words more often than á.
 * @example readTyped('Quoocs') === 'quốc'; readTyped('Ba5c') === 'bạc'; readTyped('Coffee') === null
 * @param word one word of ASCII letters and digits (anything else gives null)
 * @param start the word may be unfinished: its keys may type the beginning of a syllable ("Quoo" → quô)
 */
export function readTyped(word: string, start = false): string | null {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(word)) return null;
  const w = word.toLowerCase();
  return readWith(w, /\d/.test(w) ? KEYBOARDS.vni : KEYBOARDS.telex, start);
}

/** A word of two to four capitals: an acronym ("HUST", "UEH"), not keys typed with the keyboard off. */
const ACRONYM = /^[A-Z]{2,4}$/;

/** Runs of ASCII letters and digits starting with a letter: the words a keyboard left off can have typed. */
const TYPED_WORD = /(?<![\p{L}\p{M}\p{N}])[A-Za-z][A-Za-z0-9]*(?![\p{L}\p{M}\p{N}])/gu;

/**
 * Text with its words typed with the keyboard off read as Vietnamese: a word is replaced by its reading (readTyped)
 * when the region's places do not hold it as written but do hold its reading (`isWord`, on folded words). Once one
 * word is read so, the writer's keyboard was off for the whole text: every other word whose reading the places hold
 * is read too, even one they also hold as written ("kha1ch sa5n Go2 Va61p": "go2" may be some shop's code, here it is
 * Gò). Text that carries diacritics was mostly typed with the keyboard on: only a word whose keys type a tone or a đ
 * (the keyboard slipped for that word: "phố Hangf Bạc", "Nguye64n Văn Trỗi", "phố Tông DDanr") is read there, each on
 * its own, and only when the places do not hold it as written ("Cà Phê Giaang" is a doubled letter, not "giâng"). With
 * `prefixLast`, the last word may be unfinished (autocomplete): it is checked as the start of a word.
 * @param isWord whether the places hold a folded word (`prefix`: a word starting with it)
 */
export function readKeyboardOff(
  text: string,
  isWord: (folded: string, prefix: boolean) => boolean,
  prefixLast = false,
): string {
  if (typeof text !== 'string') return text;
  const marked = hasDiacritics(text);
  const words = [...text.matchAll(TYPED_WORD)];
  const readings = words.map((m, k) => {
    const prefix = prefixLast && k === words.length - 1;
    // A short word in capitals is an acronym as written ("HUST" is no "hút").
    if (ACRONYM.test(m[0])) return null;
    const reading = readTyped(m[0], prefix);
    if (reading === null || (marked && !TONED.test(reading.normalize('NFD')))) return null;
    return isWord(fold(reading), prefix) ? { reading, held: isWord(fold(m[0]), prefix) } : null;
  });
  const keyboardOff = readings.some((r) => r !== null && !r.held);
  if (!keyboardOff) return text;
  let k = 0;
  return text.replace(TYPED_WORD, (word: string) => {
    const r = readings[k++];
    return r && !(marked && r.held) ? r.reading : word;
  });
}

/** A tone mark or the stroke of đ: keys a slipped keyboard leaves that no plain word's letters hold by chance. */
const TONED = new RegExp(`[${ACUTE}${GRAVE}${HOOK}${TILDE}${DOT}${STROKE}]`, 'u');
