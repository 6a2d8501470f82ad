/**
 * The text functions of typing as people type (issue 35): reading Telex and VNI typed with the Vietnamese keyboard
 * off (text/telex.ts, text/syllable.ts), counting mark slips (markDifferences), the swap of the first two letters,
 * and the one-edit index that replaced the vocabulary scan (search/one-edit-index.ts). The words come from the real
 * Hanoi and Ho Chi Minh City packs' vocabularies (OSM names), not from the tables under test.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createEngine } from '../src/engine';
import { OneEditIndex } from '../src/places/search/one-edit-index';
import { firstTwoSwapped, withinOneEdit } from '../src/places/text/edits';
import { fold, markDifferences } from '../src/places/text/fold';
import {
  isBareSyllable,
  isSyllable,
  lostMarks,
  otherIY,
  soundAlikes,
  wordsSoundAlike,
} from '../src/places/text/syllable';
import { readJoined, splitJoined } from '../src/places/text/joined-words';
import { readEnglish } from '../src/places/text/english-words';
import { readAsTyped, type HeldWords } from '../src/places/search/as-typed';
import { categorySpans, unfinishedCategoryRows } from '../src/places/text/category-match';
import { NO_ROWS } from '../src/places/text/row-mask';
import { readKeyboardOff, readTyped } from '../src/places/text/telex';
import { JOINED, type PlaceIndex } from '../src/places/search/index';
import { nameTermsOf } from '../src/places/search/terms';
import { PostingReader } from '../src/places/search/postings';
import { testPack } from './helpers/packs';

let indexes: PlaceIndex[];
beforeAll(async () => {
  indexes = [];
  for (const region of ['hanoi', 'hcmc'] as const) {
    const engine = await createEngine({ packs: [testPack(region)], wasm: false });
    indexes.push(engine.places.regions[0]!.index);
  }
}, 120_000);

/** Tone marks and the Telex and VNI keys that type them. */
const TONES: Record<string, [string, string]> = {
  '\u0301': ['s', '1'],
  '\u0300': ['f', '2'],
  '\u0309': ['r', '3'],
  '\u0303': ['x', '4'],
  '\u0323': ['j', '5'],
};

/**
 * A word as typed with the keyboard off, written here from the input methods' documentation (not from telex.ts):
 * each letter then its vowel-mark key (Telex: the letter again for ^, w for the breve and the horn, dd for đ; VNI: 6,
 * 8, 7, d9), the tone key last.
 */
function typeWord(word: string, telex: boolean): string {
  let out = '';
  let tone = '';
  for (const ch of word.normalize('NFC')) {
    if (ch === 'đ') {
      out += telex ? 'dd' : 'd9';
      continue;
    }
    const [base, ...marks] = [...ch.normalize('NFD')];
    out += base;
    for (const m of marks) {
      if (TONES[m]) tone = TONES[m]![telex ? 0 : 1];
      else if (m === '\u0302') out += telex ? base : '6';
      else if (m === '\u0306') out += telex ? 'w' : '8';
      else if (m === '\u031b') out += telex ? 'w' : '7';
    }
  }
  return out + tone;
}

/** Whether some place holds form f as written (not only as two name words run together). */
const written = (ix: PlaceIndex, f: number): boolean => {
  for (const r = new PostingReader().open(ix.postings, ix.postStart.at(f), ix.postStart.at(f + 1)); r.next();)
    if ((r.value & JOINED) === 0) return true;
  return false;
};

/**
 * Syllables written from a grammar of Vietnamese (onsets and rhymes of a reference table, written here independently of
 * syllable.ts), toneless.
 */
const SYLLABLES = [
  ...['b', 'ch', 'đ', 'h', 'kh', 'l', 'm', 'nh', 'ph', 's', 't', 'th', 'tr', 'v', 'x', ''].flatMap((onset) =>
    [
      'a',
      'ai',
      'ao',
      'anh',
      'ăn',
      'âm',
      'ơi',
      'ôm',
      'ưa',
      'ươn',
      'ương',
      'uôi',
      'ưu',
      'oa',
      'oan',
      'uân',
      'uyên',
      'ong',
    ].map((rhyme) => onset + rhyme),
  ),
  ...['kê', 'kiêm', 'ghi', 'nghiêng', 'gia', 'giữ', 'gì', 'quân', 'quốc', 'quyết', 'quen', 'qua', 'quỳnh', 'yêu'],
].map((w) =>
  [...w.normalize('NFD')]
    .filter((c) => !TONES[c])
    .join('')
    .normalize('NFC'),
);

/** The marked words of the packs' names of two letters or more: Vietnamese letters only, typeable in Telex. */
function markedWords(): string[] {
  const out = new Set<string>();
  for (const ix of indexes)
    for (const [f, form] of ix.forms.entries())
      if (
        written(ix, f) &&
        form.length >= 2 &&
        form !== fold(form) &&
        /^[a-zđàáảãạăằắẳẵặâầấẩẫậèéẻẽẹêềếểễệìíỉĩịòóỏõọôồốổỗộơờớởỡợùúủũụưừứửữựỳýỷỹỵ]+$/u.test(form)
      )
        // Plain doubled vowels ("xoong") and letters Vietnamese does not write are not what the methods type back.
        if (!/(aa|ee|oo|[fjwz])/.test(fold(form))) out.add(form);
  return [...out];
}

describe('Telex and VNI typed with the keyboard off', () => {
  it('reads the examples of the issue', () => {
    const read = (s: string) => s.split(' ').map((w) => readTyped(w) ?? w);
    expect(read('Hangf Bacj')).toEqual(['hàng', 'bạc']);
    expect(read('phoos Hueej')).toEqual(['phố', 'huệ']);
    expect(read('Quoocs Tuwr Giams')).toEqual(['quốc', 'tử', 'giám']);
    expect(read('Ha2ng Ba5c')).toEqual(['hàng', 'bạc']);
    // "Quo6c" types no tone: quôc, one mark from quốc (the search counts it as a slip).
    expect(read('Quo6c Tu73 Gia1m')).toEqual(['quôc', 'tử', 'giám']);
    expect(readTyped('dduwowngf')).toBe('đường');
    expect(readTyped('nguoiwf')).toBe('người');
    expect(readTyped('thuowr')).toBe('thuở');
    // "w" that marks no letter types ư itself; English words with a w type no syllable.
    expect(read('Bwu ddieenj Twf')).toEqual(['bưu', 'điện', 'từ']);
    for (const w of ['Twin', 'Bowl', 'Wow', 'Newton']) expect(readTyped(w), w).toBeNull();
  });

  it('types the marked words of the packs back to themselves, in Telex and in VNI, and never to another word', () => {
    // The names' words are mostly syllables; the rest (French "crêpes", misspellings "kièu", abbreviations "đh", words
    // run together "càphê") type no syllable and read as nothing.
    const words = markedWords();
    expect(words.length).toBeGreaterThan(500);
    const lost: string[] = [];
    for (const word of words)
      for (const telex of [true, false]) {
        const typed = typeWord(word, telex);
        const back = readTyped(typed);
        // The input methods type uơ and ươ alike ("uow"): a word written with uơ reads as ươ.
        if (fold(word).includes('uo') && word.normalize('NFD').includes('o\u031b') && !/ư/.test(word)) continue;
        if (back === null) lost.push(`${word} → ${typed}`);
        // Tone placement (hoà / hòa) is spelling, not the word: letters and marks are compared.
        else
          expect(fold(back) === fold(word) && markDifferences(back, word) === 0, `${word} → ${typed} → ${back}`).toBe(
            true,
          );
      }
    console.log(`${lost.length} of ${2 * words.length} typed words read as no syllable: ${lost.join(', ')}`);
    expect(lost.length).toBeLessThanOrEqual(0.03 * 2 * words.length);
  });

  it('property: a syllable built from the tables of the language, typed in either method, reads back', () => {
    fc.assert(
      fc.property(
        // One-letter syllables are left out by design ("A1", "as" are not á).
        fc.constantFrom(...SYLLABLES.filter((s) => s.length >= 2)),
        fc.constantFrom('', ...Object.keys(TONES)),
        fc.boolean(),
        (s, tone, telex) => {
          // A syllable ending in a stop (c, ch, p, t) takes the rising or the heavy tone only.
          fc.pre(!/(c|ch|p|t)$/.test(s) || tone === '' || tone === '\u0301' || tone === '\u0323');
          // The tone on the syllable's last vowel: placement does not change the word.
          const chars = [...s];
          let at = chars.length - 1;
          while (at > 0 && !/[aăâeêioôơuưy]/.test(chars[at]!)) at--;
          chars[at] = (chars[at]! + tone).normalize('NFC');
          const word = chars.join('');
          const typed = typeWord(word, telex);
          const back = readTyped(typed);
          // A syllable without marks types no key: a plain word, read as nothing.
          if (typed === word) return back === null;
          return back !== null && fold(back) === fold(word) && markDifferences(back, word) === 0;
        },
      ),
    );
  });

  it('reads no plain word: brands and English words are not syllables, or not read when the places hold them', () => {
    for (const w of ['Coffee', 'Lotteria', 'Express', 'Circle', 'Vincom', 'Pizza', 'Highlands', 'Starbucks'])
      expect(readTyped(w), w).toBeNull();
    // Letters and digits of blocks and streets ("A1", "D2", "Q10", "CT2") are not VNI.
    for (const w of ['A1', 'B5', 'D2', 'Q10', 'CT2', 'HH4', '12A']) expect(readTyped(w), w).toBeNull();
    // "Bus" types bú, but a place holding the word as written keeps it.
    expect(readTyped('Bus')).toBe('bú');
    const holds = (folded: string) => folded === 'bus' || folded === 'bu';
    expect(readKeyboardOff('Bus Station', holds)).toBe('Bus Station');
    expect(readKeyboardOff('Hangf Bacj', (f) => f === 'hang' || f === 'bac')).toBe('hàng bạc');
    // A reading the places do not hold is no reading.
    expect(readKeyboardOff('Hangf Bacj', (f) => f === 'hang')).toBe('hàng Bacj');
    // Once a word is read, the keyboard was off for the whole text: a word the places also hold as written (a shop's
    // code "GO2") is read too; alone it is not.
    const vni = (f: string) => ['khach', 'san', 'go', 'vap', 'go2'].includes(f);
    expect(readKeyboardOff('kha1ch sa5n Go2 Va61p', vni)).toBe('khách sạn gò vấp');
    expect(readKeyboardOff('Go2', vni)).toBe('Go2');
  });

  it('reads a word the keyboard slipped on in marked text when its keys type a tone or a đ, that word alone', () => {
    const held = (f: string) => ['pho', 'ma', 'may', 'tong', 'dan', 'nguyen', 'van', 'giang', 'ca', 'phe'].includes(f);
    expect(readKeyboardOff('phố Max Mây', held)).toBe('phố mã Mây');
    expect(readKeyboardOff('phố Tông DDanr', held)).toBe('phố Tông đản');
    expect(readKeyboardOff('Nguye64n Văn', held)).toBe('nguyễn Văn');
    // A doubled letter (no tone, no đ), a word the places hold as written, a reading they do not hold: as typed.
    expect(readKeyboardOff('Cà Phê Giaang', held)).toBe('Cà Phê Giaang');
    expect(readKeyboardOff('phố Max Mây', (f) => held(f) || f === 'max')).toBe('phố Max Mây');
    expect(readKeyboardOff('phố Hangf Mây', held)).toBe('phố Hangf Mây');
  });

  it('reads English words of institutions as the Vietnamese words of their names, where the places hold them', () => {
    const held = (f: string) => ['bong', 'quoc', 'gia', 'da', 'khoa', 'quan'].includes(f);
    expect(readEnglish('National Burn Hospital', held)).toBe('quoc gia bong Hospital');
    // Typed without marks, read without them; a reading the places do not hold is no reading.
    expect(readEnglish('Hoc Mon general hospital', held)).toBe('Hoc Mon da khoa hospital');
    expect(readEnglish('Military Hospital 103, Bệnh viện', held)).toBe('quân Hospital 103, Bệnh viện');
    expect(readEnglish('Vietnam Sports Hospital', held)).toBe('Vietnam Sports Hospital');
    expect(readEnglish('Saigon Centre', () => true)).toBe('Saigon Centre');
    // A possessive goes with its word's reading ("Women's Museum": Bảo tàng Phụ nữ), and stays with a word read as is.
    expect(readEnglish("Gia Dinh People's Hospital", () => true)).toBe('Gia Dinh nhan dan Hospital');
    expect(readEnglish("St Mary's Church", () => true)).toBe("St Mary's Church");
  });

  it('reads initialisms of institutions as the words of their names, where the places hold them', () => {
    const held = (f: string) => ['giao', 'thong', 'van', 'tai', 'y', 'hoc', 'co', 'truyen'].includes(f);
    expect(readEnglish('Cao đẳng GTVT quận 12', held)).toBe('Cao đẳng giao thông vận tải quận 12');
    expect(readEnglish('bv yhct', held)).toBe('bv y hoc co truyen');
    expect(readEnglish('KTX Bách khoa', held)).toBe('KTX Bách khoa'); // "ký túc xá": not held here
    // Initialisms alone (the reading tried even when the text as typed finds a whole answer): English words stay.
    const withNational = (f: string) => held(f) || f === 'quoc' || f === 'gia';
    expect(readEnglish('National YHCT', withNational)).toBe('quoc gia y hoc co truyen');
    expect(readEnglish('National YHCT', withNational, false, true)).toBe('National y hoc co truyen');
  });

  it('reads an unfinished last English word as the words it begins, when they share one reading (autocomplete)', () => {
    const held = (f: string) => ['bong', 'quoc', 'gia', 'the', 'thao'].includes(f);
    expect(readEnglish('National Bur', held, true)).toBe('quoc gia bong');
    // "sport" begins "sport" and "sports": one reading.
    expect(readEnglish('Vietnam Sport', held, true)).toBe('Vietnam the thao');
    // Too short to tell, not the last word, or typed whole: as written ("Nation" last begins "national").
    expect(readEnglish('National Bu', held, true)).toBe('quoc gia Bu');
    expect(readEnglish('Bur Nation', held, true)).toBe('Bur quoc gia');
    expect(readEnglish('National Bur', held)).toBe('quoc gia Bur');
  });

  it('reads a unit type word one mark off before a number as the type (nhà hàng quân 6), not before a name', () => {
    const held: HeldWords = { has: () => true, hasForm: () => true, hasNear: () => false };
    const isStreet = (f: string) => f === 'nguyen tri phuong';
    const read = (text: string) => readAsTyped(text, held, isStreet);
    expect(read('nhà hàng quân 6')).toBe('nhà hàng quan 6');
    expect(read('Quạn 3')).toBe('quan 3');
    expect(read('Bệnh viện Quân y')).toBe('Bệnh viện Quân y');
    // Two marks off is another word ("Quán 1" is an eatery; "phuòng" is not "phường").
    expect(read('Quán 1 Nguyễn Huệ')).toBe('Quán 1 Nguyễn Huệ');
    expect(read('phuòng 5')).toBe('phuòng 5');
    // The end of a street's name before another street named with a number ("3 Tháng 2"): the street's word.
    expect(read('ngã tư Nguyễn Tri Phương 3 Tháng 2')).toBe('ngã tư Nguyễn Tri Phương 3 Tháng 2');
    expect(read('Tri Phương 3')).toBe('Tri phuong 3');
  });

  it('reads "uơ" or "ưo" before another letter as "ươ" where the places hold that spelling and not the one written', () => {
    const forms = new Set(['trường', 'chinh', 'phước', 'thuở', 'huơ']);
    const held: HeldWords = { has: () => true, hasForm: (f) => forms.has(f), hasNear: () => false };
    const read = (text: string) => readAsTyped(text, held, () => false);
    expect(read('Truờng Chinh')).toBe('Trường Chinh');
    expect(read('TRUỜNG CHINH')).toBe('TRƯỜNG CHINH');
    expect(read('chợ Phuớc')).toBe('chợ Phước');
    expect(read('Trưòng Chinh')).toBe('Trường Chinh');
    expect(read('TRƯÒNG CHINH')).toBe('TRƯỜNG CHINH');
    // NFD input is read alike.
    expect(read('Truờng Chinh'.normalize('NFD'))).toBe('Trường Chinh');
    // At a word's end "uơ" is Vietnamese ("thuở"); and a spelling the places do not hold is left as written.
    expect(read('thuở huơ')).toBe('thuở huơ');
    expect(read('Tuờng')).toBe('Tuờng');
  });

  it('an unfinished word begins the one-word category words it starts (hosp), with its marks when it has any', () => {
    const word = (w: string) => ({ folded: fold(w), exact: w });
    const [hospital] = categorySpans([word('hospital')], false);
    expect(unfinishedCategoryRows(word('hosp'))).toEqual(hospital!.rows);
    expect(unfinishedCategoryRows(word('hos'))).toEqual(NO_ROWS); // too short to tell
    expect(unfinishedCategoryRows(word('hospital'))).toEqual(NO_ROWS); // a whole word: categorySpans reads it
    expect(unfinishedCategoryRows(word('xyzw'))).toEqual(NO_ROWS);
  });

  it('a multi-word kind is read with one word mistyped, never with a word that is a syllable of its own', () => {
    const words = (t: string) => t.split(' ').map((w) => ({ folded: fold(w), exact: w }));
    const kinds = (t: string) => categorySpans(words(t), true).map((s) => [s.start, s.end]);
    expect(kinds('Bệh viện Bạch Mai')).toEqual([[0, 2]]); // "bẹh" is no syllable: a slip
    expect(kinds('quang truong Ba Dinh')).toEqual([[0, 2]]); // quảng trường
    expect(kinds('Quang Trung Dalat')).toEqual([]); // "trung" is a word: the street, not a square
    expect(kinds('giao Lê Văn Chí')).toEqual([]); // not "giao lộ"
  });

  it('every word of the packs names is left as written', () => {
    for (const ix of indexes) {
      const has = ix.has;
      for (const v of ix.vocab) if (/^[a-z][a-z0-9]*$/.test(v)) expect(readKeyboardOff(v, has), v).toBe(v);
    }
  });

  it('reads the unfinished last word of autocomplete as the start of a word', () => {
    const holds = (f: string, prefix: boolean) => (prefix ? 'quoc'.startsWith(f) && f.length > 0 : f === 'quoc');
    expect(readKeyboardOff('Quoo', holds, true)).toBe('quô');
    expect(readKeyboardOff('Quoo', holds, false)).toBe('Quoo');
  });

  it('never throws on any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => {
        expect(typeof readKeyboardOff(s, () => true)).toBe('string');
        const w = readTyped(s);
        expect(w === null || typeof w === 'string').toBe(true);
      }),
    );
  });
});

describe('syllables', () => {
  it('the marked words of the packs are syllables, but for a few (foreign words, misspellings, abbreviations)', () => {
    const words = markedWords();
    const notOne = words.filter((w) => {
      const toneless = [...w.normalize('NFD')]
        .filter((c) => !TONES[c])
        .join('')
        .normalize('NFC');
      return !isSyllable(toneless);
    });
    console.log(`${notOne.length} of ${words.length} marked words are no syllable: ${notOne.join(', ')}`);
    expect(notOne.length).toBeLessThanOrEqual(0.03 * words.length);
    for (const s of SYLLABLES) expect(isSyllable(s), s).toBe(true);
  });

  it('plain English and brand words are not', () => {
    for (const w of ['coffee', 'express', 'lotteria', 'circle', 'vincom', 'pizza', 'street', 'hotel', 'bank'])
      expect(isSyllable(w), w).toBe(false);
  });

  it('a syllable closed by c, ch, p or t carries sắc or nặng in the packs, so written bare it lost its marks', () => {
    // The rule lostMarks rests on, checked on the names of the packs: such syllables carry no other tone, nor none.
    const closed = markedWords().filter((w) => /(c|ch|p|t)$/.test(w) && isSyllable(fold(w)));
    const otherTone = closed.filter((w) => !/[\u0301\u0323]/.test(w.normalize('NFD')));
    console.log(`${otherTone.length} of ${closed.length} closed syllables carry another tone: ${otherTone.join(', ')}`);
    expect(closed.length).toBeGreaterThan(100);
    expect(otherTone.length).toBeLessThanOrEqual(0.01 * closed.length);
    for (const w of closed) expect(lostMarks(fold(w)), w).toBe(true);
    for (const w of ['ba', 'nha', 'tho', 'hotel', 'mart', 'coffee', 'big', 'pho']) expect(lostMarks(w), w).toBe(false);
  });
});

describe('words run together', () => {
  it('reads a run of bare syllables the places hold as those words, not a typo of a word they hold', () => {
    const words = new Set(['le', 'thanh', 'ton', 'nguyen', 'huu', 'huan', 'hue', 'bitexco', 'bi', 'te', 'xo', 'hem']);
    const held = {
      has: (w: string) => words.has(w),
      hasNear: (w: string) => [...words].some((x) => x !== w && x[0] === w[0] && withinOneEdit(x, w)),
    };
    expect(splitJoined('lethanhton', held)).toEqual(['le', 'thanh', 'ton']);
    expect(splitJoined('nguyenhuuhuan', held)).toEqual(['nguyen', 'huu', 'huan']);
    expect(splitJoined('bitexo', held)).toBe(null); // Bitexco mistyped
    expect(splitJoined('bitexco', held)).toBe(null); // a word of the places
    expect(splitJoined('restaurant', held)).toBe(null); // no syllables
    expect(readJoined('19 lethanhton, Q1', held)).toBe('19 le thanh ton, Q1');
    expect(readJoined('Lê Thánh Tôn', held)).toBe('Lê Thánh Tôn');
    expect(readJoined('19 nguyenhue', held, true)).toBe('19 nguyenhue'); // may be unfinished
  });

  it('a name holds its words joined in pairs, words joined by punctuation counting as one (Co-op Mart: coopmart)', () => {
    const joined = (name: string) =>
      nameTermsOf(name)
        .filter((t) => t.joined)
        .map((t) => t.folded);
    // "coop" is a term already (storedTermsOf: the words joined by punctuation written as one).
    expect(joined('Co-op Mart Bình Tân')).toEqual(['opmart', 'martbinh', 'binhtan', 'coopmart']);
    expect(nameTermsOf('Co-op Mart Bình Tân').map((t) => t.folded)).toContain('coop');
    expect(joined('Exim Bank')).toEqual(['eximbank']);
    expect(joined('19 5 Café')).toEqual(['5cafe']);
  });

  it('every marked syllable of the packs, its marks dropped, is a syllable written bare', () => {
    let n = 0;
    for (const w of markedWords()) {
      const toneless = [...w.normalize('NFD')]
        .filter((c) => !TONES[c])
        .join('')
        .normalize('NFC');
      if (!isSyllable(toneless)) continue;
      n++;
      expect(isBareSyllable(fold(w)), w).toBe(true);
    }
    expect(n).toBeGreaterThan(500);
  });
});

describe('initial consonants heard alike', () => {
  it('ch/tr, s/x, d/gi/r/v and l/n trade places, and n/ng/nh, c/t/ch, ui/uy, iu/ưu at the end; marks kept, syllables only', () => {
    expect(soundAlikes('chần')).toEqual(['trần', 'chầng']);
    expect(soundAlikes('trợ')).toEqual(['chợ']);
    expect(soundAlikes('xân')).toEqual(['sân', 'xâng']);
    expect(soundAlikes('dõ')).toEqual(['giõ', 'rõ', 'võ']);
    expect(soundAlikes('da')).toEqual(['gia', 'ra', 'va']);
    // A gi before no other vowel holds the rhyme's i: "giữ" is heard as "dữ", "dìm" as "gìm".
    expect(soundAlikes('giữ')).toEqual(['dữ', 'rữ', 'vữ']);
    expect(soundAlikes('dìm')).toEqual(['gìm', 'rìm', 'vìm']);
    expect(soundAlikes('nê')).toEqual(['lê']);
    expect(soundAlikes('đứt')).toEqual(['đức']);
    expect(soundAlikes('bìn')).toEqual(['bình']);
    expect(soundAlikes('dui')).toEqual(['giui', 'rui', 'vui', 'duy']);
    expect(soundAlikes('hiu')).toEqual(['hưu']);
    // No such onset or ending, or no syllable ("chầnh": â takes no nh).
    for (const w of ['nguyễn', 'hoa', 'coffee', 'đà', 'xyz', '']) expect(soundAlikes(w), w).toEqual([]);
    expect(soundAlikes('chần')).not.toContain('chầnh');
    // Heard alike both ways, for every marked word of the packs with such an onset (and one tone at most: the names
    // hold slips such as "gìày").
    const oneTone = (w: string) => (w.normalize('NFD').match(/[\u0300\u0301\u0303\u0309\u0323]/g) ?? []).length <= 1;
    let heard = 0;
    for (const w of new Set(markedWords().filter(oneTone)))
      for (const a of soundAlikes(w)) {
        heard++;
        expect(soundAlikes(a), `${w} → ${a}`).toContain(w);
      }
    expect(heard).toBeGreaterThan(100);
    expect(wordsSoundAlike('chan hung dao', 'tran hung dao')).toBe(true);
    expect(wordsSoundAlike('le loi', 'le lai')).toBe(false);
    expect(wordsSoundAlike('chan hung', 'tran hung dao')).toBe(false);
  });
});

describe('i and y', () => {
  it('a lone i or y after h, k, l, m, s, t or qu is spelt either way, tone kept; no other word has another spelling', () => {
    expect(otherIY('lý')).toBe('lí');
    expect(otherIY('mĩ')).toBe('mỹ');
    expect(otherIY('kỳ')).toBe('kì');
    expect(otherIY('quí')).toBe('quý');
    expect(otherIY('ty')).toBe('ti');
    expect(otherIY('sy')).toBe('si');
    for (const w of ['vy', 'di', 'y', 'i', 'mai', 'tuy', 'kim', 'thy', 'ly ', 'nguyen'])
      expect(otherIY(w), w).toBe(null);
    // Both spellings of such syllables stand in the packs' own names: people write both.
    const words = new Set(markedWords());
    const pairs = [...words].filter((w) => otherIY(w) !== null && words.has(otherIY(w)!));
    console.log(`i/y pairs in the packs' marked words: ${pairs.join(', ')}`);
    expect(pairs.length).toBeGreaterThanOrEqual(2);
    for (const w of words) if (otherIY(w) !== null) expect(otherIY(otherIY(w)!), w).toBe(w);
  });
});

describe('mark slips', () => {
  it('one mark off is one difference; the tone counts once wherever it sits', () => {
    expect(markDifferences('đúc', 'đức')).toBe(1);
    expect(markDifferences('rấy', 'rẫy')).toBe(1);
    expect(markDifferences('chùa', 'chua')).toBe(1);
    expect(markDifferences('thiền', 'thiên')).toBe(1);
    expect(markDifferences('hoà', 'hòa')).toBe(0);
    expect(markDifferences('đục', 'dúc')).toBe(2);
    expect(markDifferences('nguyễn', 'nguyen')).toBe(2);
    expect(markDifferences('bac', 'ban')).toBeGreaterThanOrEqual(2);
  });

  it('property: removing or changing one mark of a real word is one difference', () => {
    // Words with one tone at most (the names hold misspellings with two: "gìày").
    const tones = (w: string) => w.normalize('NFD').replace(/[^\u0300\u0301\u0303\u0309\u0323]/gu, '').length;
    const words = markedWords().filter((w) => tones(w) <= 1);
    fc.assert(
      fc.property(fc.constantFrom(...words), fc.nat(), (word, k) => {
        const chars = [...word.normalize('NFD')];
        const marks = chars.flatMap((c, i) => (/\p{M}/u.test(c) ? [i] : []));
        fc.pre(marks.length > 0);
        chars.splice(marks[k % marks.length]!, 1);
        return markDifferences(chars.join('').normalize('NFC'), word) === 1;
      }),
    );
  });
});

describe('one edit', () => {
  it('swapping the first two letters is told apart from other first-letter changes', () => {
    expect(firstTwoSwapped('ocffee', 'coffee')).toBe(true);
    expect(firstTwoSwapped('coffee', 'coffee')).toBe(false);
    expect(firstTwoSwapped('toffee', 'coffee')).toBe(false);
    expect(firstTwoSwapped('oocffee', 'coffee')).toBe(false);
  });

  it('the one-edit index finds exactly what a scan of the vocabulary with withinOneEdit finds', () => {
    for (const ix of indexes) {
      const index = new OneEditIndex(ix.vocab, () => true);
      const letters = 'abcdeghiklmnopqrstuvxy';
      fc.assert(
        fc.property(
          fc.constantFrom(...ix.vocab),
          fc.nat(),
          fc.integer({ min: 0, max: 3 }),
          fc.constantFrom(...letters),
          (word, at, kind, letter) => {
            const i = at % (word.length + 1);
            // An edit of a real word (or the word itself): what people type.
            const w = [
              word,
              word.slice(0, i) + letter + word.slice(i),
              word.slice(0, i) + word.slice(i + 1),
              word.slice(0, i) + word.charAt(i + 1) + word.charAt(i) + word.slice(i + 2),
            ][kind]!;
            const scan = ix.vocab.flatMap((v, k) => (withinOneEdit(w, v) ? [k] : []));
            expect(index.near(w)).toEqual(scan);
          },
        ),
        { numRuns: 300 },
      );
    }
  });
});
