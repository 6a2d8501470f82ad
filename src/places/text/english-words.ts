/**
 * English words of Vietnamese institutions' names, read as the Vietnamese words the names hold ("National Burn
 * Hospital" is Bệnh viện Bỏng Quốc gia, "Hoc Mon General Hospital" Bệnh viện Đa khoa Hóc Môn). OSM in Vietnam names
 * places in Vietnamese, rarely also in English, while visitors type English: the kind of place ("hospital",
 * "market") is a category word already (categories.ts); the words that tell one place of a kind from another are
 * these. The geocoder tries this reading only when the text as typed found no whole answer (forward.ts), so English
 * names the data has ("Saigon Centre", a name:en) are found as typed. One table; each reading is the shortest run of
 * words the Vietnamese names share: "military" is "quân" (Quân y 103, Quân đội 108). Initialisms of such words
 * ("GTVT", "YHCT") are read the same way, from a table of their own (initialisms.ts).
 */
import { fold, hasDiacritics } from './fold';
import { INITIALISMS } from './initialisms';

/** English word (lower case) → the Vietnamese words (NFC, lower case) of names it stands for. */
const ENGLISH: ReadonlyMap<string, string> = new Map([
  ['general', 'đa khoa'],
  ['national', 'quốc gia'],
  ['military', 'quân'],
  ['army', 'quân đội'],
  ['sport', 'thể thao'],
  ['sports', 'thể thao'],
  ['burn', 'bỏng'],
  ['burns', 'bỏng'],
  ['children', 'nhi'],
  ['pediatric', 'nhi'],
  ['paediatric', 'nhi'],
  ['maternity', 'phụ sản'],
  ['obstetrics', 'phụ sản'],
  ['eye', 'mắt'],
  ['cancer', 'ung bướu'],
  ['oncology', 'ung bướu'],
  ['heart', 'tim'],
  ['traditional', 'cổ truyền'],
  ['central', 'trung ương'],
  ['international', 'quốc tế'],
  ['technology', 'công nghệ'],
  ['technical', 'kỹ thuật'],
  ['economics', 'kinh tế'],
  ['law', 'luật'],
  ['polytechnic', 'bách khoa'],
  ['science', 'khoa học'],
  ['sciences', 'khoa học'],
  ['history', 'lịch sử'],
  ['women', 'phụ nữ'],
  ['revolution', 'cách mạng'],
  ['police', 'công an'],
  ['railway', 'đường sắt'],
  ['foreign', 'ngoại'],
  ['trade', 'thương'],
  ['transport', 'giao thông'],
  ['culture', 'văn hóa'],
  ['cultural', 'văn hóa'],
  ['economic', 'kinh tế'],
  ['finance', 'tài chính'],
  ['banking', 'ngân hàng'],
  ['architecture', 'kiến trúc'],
  ['agriculture', 'nông nghiệp'],
  ['forestry', 'lâm nghiệp'],
  ['industrial', 'công nghiệp'],
  ['industry', 'công nghiệp'],
  ['pedagogical', 'sư phạm'],
  ['social', 'xã hội'],
  ['humanities', 'nhân văn'],
  ['natural', 'tự nhiên'],
  ['information', 'thông tin'],
  ['medicine', 'y'],
  ['people', 'nhân dân'],
  ['southern', 'nam bộ'],
  ['tropical', 'nhiệt đới'],
  ['dermatology', 'da liễu'],
  ['psychiatric', 'tâm thần'],
  ['mental', 'tâm thần'],
  ['odonto', 'răng hàm mặt'],
  ['dental', 'răng hàm mặt'],
  ['endocrinology', 'nội tiết'],
  ['rehabilitation', 'phục hồi chức năng'],
  ['trauma', 'chấn thương'],
  // A river landing's name in English ("Nha Rong Wharf", "Bach Dang Wharf"): Bến Nhà Rồng, Bến Bạch Đằng.
  ['wharf', 'bến'],
  ['orthopedic', 'chỉnh hình'],
  ['orthopaedic', 'chỉnh hình'],
  ['hematology', 'huyết học'],
  ['transfusion', 'truyền máu'],
  ['lung', 'phổi'],
  ['conservatory', 'nhạc viện'],
  ['music', 'âm nhạc'],
]);

/** Runs of ASCII letters: the words an English name is typed in, with their possessive "'s" ("Women's", "People's"). */
const ENGLISH_WORD = /(?<![\p{L}\p{M}\p{N}])([A-Za-z]+)(?:['’]s)?(?![\p{L}\p{M}\p{N}])/gu;

/** Letters an unfinished last word needs to stand for the English words it begins ("bur" for "burn"). */
const MIN_PREFIX = 3;

/** Letters a query's initialism needs to be read as its words (INITIALISMS), and between two other words. */
const MIN_QUERY_INITIALISM = 3;
const MIN_INNER_INITIALISM = 2;

/**
 * A query word's initialism reading: of three letters or more only where it begins or ends the query, since a
 * query's shorter ones there are mostly the start of a word being typed ("Trần Quốc Th" is no "tiểu học") or a type
 * word ("TT Củ Chi": thị trấn); between two other words (`inner`), as in "Vietcombank CN Nam Sài Gòn", a two-letter
 * one is neither. Stored names read them all (search/terms.ts): a name's "TT", "PT" and "ĐH" are whole words of it.
 */
function queryInitialism(word: string, inner: boolean): string | undefined {
  return word.length >= (inner ? MIN_INNER_INITIALISM : MIN_QUERY_INITIALISM) ? INITIALISMS.get(word) : undefined;
}

/**
 * The reading of an English word: its own, or for an unfinished word (`prefix`) the one reading shared by every word
 * of ENGLISH it begins ("sport" → thể thao, as "sports"; "tra" begins "traditional" and "trade": none).
 */
function readingOf(word: string, prefix: boolean, inner: boolean, initialismsOnly: boolean): string | undefined {
  const initialism = queryInitialism(word, inner);
  if (initialismsOnly) return initialism;
  // An initialism is read whole only: its start stands for too many.
  const own = ENGLISH.get(word) ?? initialism;
  if (!prefix || word.length < MIN_PREFIX) return own;
  const readings = new Set<string>(own === undefined ? [] : [own]);
  for (const [english, reading] of ENGLISH) if (english.startsWith(word)) readings.add(reading);
  return readings.size === 1 ? [...readings][0] : undefined;
}

/**
 * Text with the English words of ENGLISH and the initialisms of INITIALISMS read as their Vietnamese words (without
 * marks in text typed without any), each where the places hold every word of its reading (`isWord`, on folded words);
 * the text itself when none is.
 * @param isWord whether the places hold a folded word
 * @param lastIsPrefix the last word may be unfinished (autocomplete): it stands for the words it begins
 * @param initialismsOnly read the initialisms alone, the English words left as typed
 */
export function readEnglish(
  text: string,
  isWord: (folded: string) => boolean,
  lastIsPrefix = false,
  initialismsOnly = false,
): string {
  if (typeof text !== 'string') return text;
  // Text typed without marks gets its reading without them: a marked word there would make the others strict.
  const plain = !hasDiacritics(text);
  // Where the text's first word begins and its last word ends (the unfinished word, while typing, is the one ending
  // there).
  const start = text.search(/\S/),
    stop = text.trimEnd().length;
  return text.replace(ENGLISH_WORD, (whole: string, word: string, at: number) => {
    const last = at + whole.length === stop;
    const reading = readingOf(word.toLowerCase(), lastIsPrefix && last, at > start && !last, initialismsOnly);
    if (reading === undefined || !reading.split(' ').every((w) => isWord(fold(w)))) return whole;
    return plain ? fold(reading) : reading;
  });
}
