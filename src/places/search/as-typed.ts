/**
 * Query text as its writer meant it, read before the address parser sees it: "uơ" or "ưo" for "ươ" ("Truờng Chinh"), words
 * typed with the Vietnamese keyboard off (text/telex.ts: "Hangf Bacj", "Ha2ng Ba5c"), words run together (text/joined-words.ts: "lethanhton") and type words with one typo ("Phhường Bạch Mai", "Dunog 102",
 * "Qunậ 4"), which the parser would otherwise take for names, so that the ward, street or district they introduce is
 * read as one. A word is read so only when the region's places do not hold it as written.
 */
import { firstLetterKept, withinOneEdit } from '../text/edits';
import { fold, markDifferences } from '../text/fold';
import { readJoined } from '../text/joined-words';
import { readKeyboardOff } from '../text/telex';
import { categorySpans } from '../text/category-match';
import { soundAlikes } from '../text/syllable';
import { TYPE_WORDS } from './terms';
import { STREET_WORDS_BEFORE_TYPE } from '../text/street-words';

/** Type words this long or longer are read through one typo (shorter ones have too many neighbours: "xa", "so"). */
const TYPE_TYPO_MIN_LENGTH = 4;
const LONG_TYPES = [...TYPE_WORDS.keys()].filter((t) => t.length >= TYPE_TYPO_MIN_LENGTH);
/** Type words (folded) of the units known by a number ("Quận 6", "Phường 5"). */
const NUMBERED_UNITS = new Set(['quan', 'phuong']);

/** Words (letter runs with their marks), numbers (a digit and what is glued to it: "12A", "43/91") and breaks. */
const TOKEN = /([\p{L}\p{M}]+)|(\p{N}[\p{L}\p{M}\p{N}/-]*)|([,;\n|])/gu;

/**
 * A word with "uơ" or "ưo" before another letter ("Truờng", "đưòng", "Phuớc"): Vietnamese spells both "ươ" (one horn
 * left off, a slip keyboards make); "uơ" stands only at a word's end ("thuở", "huơ"), "ưo" nowhere.
 */
const HORNLESS = /[uU][ơờớởỡợƠỜỚỞỠỢ][\p{L}\p{M}]|[ưƯ][oòóỏõọOÒÓỎÕỌ][\p{L}\p{M}]/u;
/** A word: letters with their marks. */
const WORD = /[\p{L}\p{M}]+/gu;
/** o with each tone, and ơ with the same tone. */
const O_HORN = new Map([...'oòóỏõọOÒÓỎÕỌ'].map((o, k) => [o, 'ơờớởỡợƠỜỚỞỠỢ'[k]!]));

/** `text` (NFC) with each word holding HORNLESS spelt "ươ" where the places hold it so and not as written. */
function withHorns(text: string, held: HeldWords): string {
  return text.replace(WORD, (word) => {
    if (!HORNLESS.test(word)) return word;
    const fixed = word
      .replace(/u(?=[ơờớởỡợ])/g, 'ư')
      .replace(/U(?=[ƠỜỚỞỠỢơờớởỡợ])/g, 'Ư')
      .replace(/(?<=[ưƯ])[oòóỏõọOÒÓỎÕỌ]/g, (o) => O_HORN.get(o)!);
    return !held.hasForm(word.toLowerCase()) && held.hasForm(fixed.toLowerCase()) ? fixed : word;
  });
}

/** A word of a text: where it starts, its length, as written (lower case) and folded. */
interface TextWord {
  at: number;
  length: number;
  exact: string;
  folded: string;
}

/**
 * `text` with each word that `heardAs` (given the text's words, as written, and the word's index) spells otherwise
 * spelt so, the case of its first letter kept.
 */
function respelt(text: string, heardAs: (words: readonly TextWord[], k: number) => string | undefined): string {
  const words = [...text.matchAll(WORD)].map((m) => {
    const exact = m[0].toLowerCase();
    return { at: m.index, length: m[0].length, exact, folded: fold(exact) };
  });
  let out = '';
  let last = 0;
  words.forEach((w, k) => {
    const heard = heardAs(words, k);
    if (heard === undefined) return;
    const first = text[w.at]!;
    out += text.slice(last, w.at) + (first === w.exact[0] ? heard : heard[0]!.toUpperCase() + heard.slice(1));
    last = w.at + w.length;
  });
  return out + text.slice(last);
}

/**
 * `text` with each word written with marks that no place holds as written ("chường", "xân") spelt as a word it sounds
 * like (soundAlikes) that the places hold and that, so spelt, makes a kind of place's words with the words around it
 * ("trường đại học", "sân bay"), so that the kind is read as one ("chường đại học bách khoa", "xân bay tân sơn nhất").
 * Only marked words: "chuong" may be a name (Chương); and only a kind's whole words ("giên hồng" is no "viên": that
 * is "công viên").
 */
function withKindSounds(text: string, held: HeldWords): string {
  return respelt(text, (words, k) => {
    const w = words[k]!;
    if (w.exact === w.folded || held.hasForm(w.exact)) return undefined;
    return soundAlikes(w.exact).find((alike) => {
      if (!held.hasForm(alike)) return false;
      const read = words.map((x, i) => (i === k ? { exact: alike, folded: fold(alike) } : x));
      return categorySpans(read, false, false).some((span) => span.start <= k && k < span.end);
    });
  });
}

/** Most words of a street's name that a word heard otherwise is read with ("nguyễn thị minh khai"). */
const STREET_RUN_MAX = 5;

/**
 * `text` with a word that no place holds as written (with its marks; written bare, as folded) spelt as another of its
 * sound (soundAlikes) where, so spelt, it and the words right beside it name a street of the region that they do not
 * name as written ("chần hưng đạo": Trần Hưng Đạo, whose "hưng đạo" the parser would read as a commune; "phố bà
 * chiệu": Bà Triệu), so that the street is read as one. A word the places hold is meant as written ("bến thành" is no
 * street "Bến Than").
 */
function withStreetSounds(text: string, held: HeldWords, isStreet: (folded: string) => boolean): string {
  return respelt(text, (words, k) => {
    const w = words[k]!;
    if (w.exact === w.folded ? held.has(w.folded) : held.hasForm(w.exact)) return undefined;
    // Whether words i and i + 1 stand side by side (a space between them, no comma or number).
    const beside = (i: number) => /^\s+$/.test(text.slice(words[i]!.at + words[i]!.length, words[i + 1]!.at));
    const names = (from: number, to: number, heard: string): boolean =>
      isStreet(
        words
          .slice(from, to)
          .map((x, i) => (from + i === k ? heard : x.folded))
          .join(' '),
      );
    return soundAlikes(w.exact).find((alike) => {
      const folded = fold(alike);
      for (let from = k; from >= 0 && k - from < STREET_RUN_MAX; from--) {
        if (from < k && !beside(from)) break;
        for (let to = k + 1; to <= words.length && to - from <= STREET_RUN_MAX; to++) {
          if (to > k + 1 && !beside(to - 2)) break;
          if (to - from >= 2 && names(from, to, folded) && !names(from, to, w.folded)) return true;
        }
      }
      return false;
    });
  });
}

/** Whether `a` is one typo from `b`, the first letter kept or swapped with the second. */
const typo = (a: string, b: string): boolean => withinOneEdit(a, b) && firstLetterKept(a, b);

/** The type word (folded) that `folded` is one typo of; or null. */
function typeTypo(folded: string): string | null {
  if (folded.length < TYPE_TYPO_MIN_LENGTH - 1) return null;
  const near = LONG_TYPES.filter((t) => typo(folded, t));
  return near.length === 1 ? near[0]! : null;
}

/** What the places hold: folded words (`prefix`: a word starting with it) and words as written. */
export interface HeldWords {
  has(folded: string, prefix?: boolean): boolean;
  hasForm(exact: string): boolean;
  /** Another word within one edit, on the same first letter. */
  hasNear(folded: string): boolean;
}

/**
 * The text with keyboard-off words read (readKeyboardOff) and type words with one typo written right (folded, as the
 * parser reads them). A word is read as a type word only where one stands: before a word or number of its part of
 * the text, not after another type word ("Phố Thnh Yên" is Thanh, not Tỉnh), and at the start of a part, after a number
 * or before one ("Phhường Bạch Mai", "209 Dunog 207", "Qunậ 4"; in "Cà Phê Pương Linh" Pương is a name); and only
 * when the places do not hold it, or, written with marks, hold it only otherwise marked ("Đưng Số 2" is Đường: no
 * place is called "Đưng", though many "Dũng"). `isStreet` says whether folded words name a street of the region: a
 * word that ends one with the words before it is the street's ("Nguyễn Tri Phương 3 Tháng 2" is no Phường 3). With
 * `opts.prefixLast`, the last word may be unfinished (autocomplete): a word the places' words start with is no typo.
 * With `opts.heard`, words the places do not hold are read as others of their sound where those make a kind's or a
 * street's words (withKindSounds, withStreetSounds): the reading of text whose words as written find nothing whole.
 */
export function readAsTyped(
  text: string,
  held: HeldWords,
  isStreet: (folded: string) => boolean,
  opts: { prefixLast?: boolean; heard?: boolean } = {},
): string {
  const { prefixLast = false, heard = false } = opts;
  const isWord = (folded: string, prefix: boolean): boolean => held.has(folded, prefix);
  const horned = withHorns(text.normalize('NFC'), held);
  const read = readJoined(
    readKeyboardOff(
      heard ? withStreetSounds(withKindSounds(horned, held), held, isStreet) : horned,
      isWord,
      prefixLast,
    ),
    held,
    prefixLast,
  );
  const toks = [...read.matchAll(TOKEN)];
  // Whether word k ends a street's name with the words right before it.
  const endsStreet = (k: number): boolean => {
    let words = fold(toks[k]![1]!);
    for (let j = k - 1; j >= Math.max(0, k - STREET_WORDS_BEFORE_TYPE) && toks[j]![1] !== undefined; j--) {
      words = `${fold(toks[j]![1]!)} ${words}`;
      if (isStreet(words)) return true;
    }
    return false;
  };
  let out = '';
  let from = 0;
  toks.forEach((m, k) => {
    if (m[1] === undefined) return;
    const prev = toks[k - 1];
    const next = toks[k + 1];
    const folded = fold(m[1]);
    const typed = (t: RegExpMatchArray | undefined) => t?.[1] !== undefined && TYPE_WORDS.has(fold(t[1]));
    const stands =
      next !== undefined &&
      next[3] === undefined &&
      !typed(prev) &&
      (prev === undefined || prev[3] !== undefined || prev[2] !== undefined || next[2] !== undefined);
    if (!stands) return;
    const exact = m[1].normalize('NFC').toLowerCase();
    const type = typeTypo(folded);
    if (type === null) return;
    // A unit's type word with one mark off before a number ("nhà hàng quân 6"): units are numbered, names seldom are.
    const numbered =
      next[2] !== undefined &&
      NUMBERED_UNITS.has(type) &&
      markDifferences(exact, TYPE_WORDS.get(type)!) === 1 &&
      !endsStreet(k);
    if (isWord(folded, prefixLast && k === toks.length - 1) && !numbered) {
      // A word of the places as folded: a type word only as written with marks no place has, one typo from the
      // type's own spelling.
      if (exact === folded || held.hasForm(exact) || !typo(exact, TYPE_WORDS.get(type)!)) return;
    }
    out += read.slice(from, m.index) + type;
    from = m.index + m[0].length;
  });
  return out + read.slice(from);
}
