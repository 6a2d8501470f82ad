/**
 * Parsing of Vietnamese addresses as people write them: parts in any order, with or without type words,
 * with or without commas. No Node imports.
 */
import { addressTokens, matchWords, type AddressToken, type TypeRole } from './abbreviations';
import { categorySpans, spannedCount } from './category-match';
import { nameKey } from './fold';
import { key, prefixKeys, suffixKeys } from './span-keys';
import { STREET_WORDS_BEFORE_TYPE } from './street-words';

/** The administrative levels a gazetteer can confirm. */
type AdminKind = 'province' | 'district' | 'ward';

/**
 * Caller-supplied knowledge of administrative names: does a unit of this kind carry this name?
 * `foldedName` is `nameKey(name)` without any type word ("dong da", "1"). `within` gives the keys of the larger
 * units already recognised in the same address, so a caller can scope the answer (ward names repeat across
 * districts); a caller may ignore it.
 */
export type Gazetteer = (
  kind: AdminKind,
  foldedName: string,
  within?: { province?: string; district?: string },
) => boolean;

/** What parseAddress found. Missing parts are absent; anything it could not place is in `rest`. */
export interface ParsedAddress {
  /** House number as written: "12", "12A", "12/3A", "43/91", "12B-14". Slash forms are kept whole. */
  house?: string;
  /** Alley path from explicit ngõ/hẻm/kiệt/ngách numbers, "/"-joined: "số 5 ngõ 10 ngách 2" → "10/2". */
  alley?: string;
  /** Street name as written, with its canonical type word when one was written ("Phố Văn Miếu", "Nguyễn Huệ"). */
  street?: string;
  /** Ward / commune name without its type word ("Bến Nghé", "12"). */
  ward?: string;
  /** District name without its type word ("Đống Đa", "1"). */
  district?: string;
  /** Province name without its type word; well-known nicknames become canonical ("HCM" → "Hồ Chí Minh"). */
  province?: string;
  /** Canonical type words that were written for the parts ("Phường", "Quận", "Thành phố", "Phố"). */
  types: { street?: string; ward?: string; district?: string; province?: string };
  rest: string[];
}

/** Options for parseAddress. */
export interface ParseOptions {
  /** Confirms which fragment is a ward/district/province when no type word says so. */
  isKnown?: Gazetteer;
  /** Whether folded words name a street of the region (a street's whole name is not split into street and unit). */
  isStreet?: (foldedName: string) => boolean;
}

type Slot = 'street' | 'ward' | 'district' | 'province';
const RANK: Record<Slot, number> = { street: 0, ward: 1, district: 2, province: 3 };
const SLOTS: Slot[] = ['street', 'ward', 'district', 'province'];

/** One run of words: typed (a type word said what it is), a place from the table, or untyped. */
interface Comp {
  slot?: Slot;
  /** For typed admin runs: the role of the type word (city is decided later). */
  role?: TypeRole;
  typeWord?: string;
  /** The type word's token, when one was written. */
  typeTok?: AddressToken;
  words: AddressToken[];
  /** A house or alley number came before the run in its segment: a street type word there leads a street. */
  afterNumber?: true;
}

const text = (ws: AddressToken[]): string => ws.map((w) => w.text).join(' ');

/** True when the words are one kind of place ("Bệnh viện", "Trường THCS"): then a number after them is its name. */
function onlyCategory(words: AddressToken[]): boolean {
  return spannedCount(categorySpans(matchWords(words), true)) === words.length;
}

/** Words a number follows inside a street's name: "3 Tháng 2", "Quốc lộ 5", "Đường số 9", "Km 10". Folded. */
const NUMBERED_NAME = new Set(['thang', 'lo', 'so', 'km', 'khu', 'to', 'block', 'duong']);

const ROLE_SLOT: Partial<Record<TypeRole, Slot>> = {
  province: 'province',
  district: 'district',
  ward: 'ward',
  street: 'street',
};

/**
 * Parses an address into house number, alley path, street, ward, district and province.
 * Parts may come in any order, with or without type words ("Phường", "P.", "Q1") and with or without commas.
 * Without type words, fragments are placed by position (small to large, left to right) and, when a gazetteer
 * is given, by what it confirms (scoped by the larger units found to the right). Without a gazetteer, untyped
 * fragments fill the free levels right-aligned below the nearest typed level (province when none).
 * Never throws; non-string input gives an empty result.
 * @example parseAddress('123 Nguyễn Huệ, P. Bến Nghé, Q.1, TP.HCM')
 *   → { house: '123', street: 'Nguyễn Huệ', ward: 'Bến Nghé', district: '1', province: 'Hồ Chí Minh', … }
 */
export function parseAddress(input: string, options?: ParseOptions): ParsedAddress {
  return parseAddressTokens(addressTokens(input), options).parsed;
}

/** What a token of a parsed address became: a part of the address, or a house or alley number. */
export type TokenRole = Slot | 'house' | 'alley';

/**
 * parseAddress over tokens already made by addressTokens, also telling which part each token went to (type words
 * with their part; tokens in `rest` are absent).
 */
export function parseAddressTokens(
  toks: AddressToken[],
  options?: ParseOptions,
): { parsed: ParsedAddress; roleOf: Map<AddressToken, TokenRole>; asWords: ReadonlySet<AddressToken> } {
  const isKnown = options?.isKnown;
  const out: ParsedAddress = { types: {}, rest: [] };
  const roleOf = new Map<AddressToken, TokenRole>();
  const alley: string[] = [];
  const comps: Comp[] = [];

  let cur: Comp | null = null;
  let numbered = false; // a house or alley number was seen in this segment: following words name the street
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    const next = toks[i + 1];
    if (t.kind === 'break') {
      cur = null;
      numbered = false;
    } else if (t.kind === 'type') {
      if (cur?.slot === 'street' && cur.words.length === 0) {
        cur.words.push(t); // "Đường số 9": the type word is part of the street's name
      } else if (cur && inStreetName(cur.words, t, toks, i + 1, options?.isStreet)) {
        cur.words.push(t); // "Lý Thường Kiệt 3 Tháng 2": no alley 3 (Kiệt), the street's last word
      } else if ((t.role === 'house' || t.role === 'alley' || t.role === 'suballey') && next?.kind === 'number') {
        if (t.role === 'house' && out.house === undefined) out.house = next.text;
        else if (t.role === 'house') out.rest.push(next.text);
        else alley.push(next.text);
        if (t.role === 'house' || t.role === 'alley' || t.role === 'suballey') {
          roleOf.set(t, t.role === 'house' ? 'house' : 'alley');
          roleOf.set(next, t.role === 'house' ? 'house' : 'alley');
        }
        i++;
        numbered = true;
        cur = null;
      } else if (t.role === 'alley' || t.role === 'suballey') {
        cur = { slot: 'street', typeWord: t.text, typeTok: t, words: [] }; // a named alley: "Ngõ Thông Phong"
        comps.push(cur);
      } else if (t.role === 'house') {
        out.rest.push(t.text);
      } else {
        cur = { slot: ROLE_SLOT[t.role!], role: t.role, typeWord: t.text, typeTok: t, words: [] };
        if (numbered) cur.afterNumber = true;
        comps.push(cur);
      }
    } else if (t.kind === 'place') {
      if (cur && (cur.role === 'city' || cur.role === 'province') && cur.words.length === 0) {
        cur.words.push(t);
        cur.slot = 'province';
      } else {
        comps.push({ slot: 'province', typeWord: t.impliedType, words: [t] });
      }
      cur = null;
    } else if (t.kind === 'number') {
      if (cur)
        cur.words.push(t); // "Quận 1", "Đường 3 Tháng 2"
      else if (
        next?.kind === 'word' &&
        next.folded === 'thang' &&
        (toks[i + 2]?.kind === 'number' || toks[i + 2]?.kind === 'word')
      ) {
        // A date names a street ("19 Tháng 5", "3 tháng 2"): the number starts the name, it is no house number.
        cur = numbered ? { slot: 'street', words: [t] } : { words: [t] };
        comps.push(cur);
      } else if (out.house === undefined && alley.length === 0) {
        out.house = t.text;
        roleOf.set(t, 'house');
        numbered = true;
      } else out.rest.push(t.text);
    } else if (cur) {
      cur.words.push(t);
    } else {
      cur = numbered ? { slot: 'street', words: [t] } : { words: [t] };
      comps.push(cur);
    }
  }
  if (alley.length > 0) out.alley = alley.join('/');

  settleCities(comps, isKnown);
  // Word tokens made from type tokens by untypeUnitNames, and the type token each stands for.
  const typeTokenOf = new Map<AddressToken, AddressToken>();
  if (isKnown) {
    untypeUnitNames(comps, isKnown, options?.isStreet, typeTokenOf);
    splitTypedRuns(comps, isKnown);
    untypeBareWords(comps, isKnown, options?.isStreet, typeTokenOf);
  }
  placeUntyped(comps, isKnown, options?.isStreet);

  // "Cao Bá Quát 31", "Phố Văn Miếu 5": a number ending a street, with no house number yet, is the house number, unless
  // it belongs to the name ("3 Tháng 2", "Quốc lộ 5").
  for (const c of comps) {
    const last = c.words[c.words.length - 1];
    const before = c.words[c.words.length - 2];
    const minWords = c.typeWord ? 2 : 3;
    const alleyLed = c.typeTok?.role === 'alley' || c.typeTok?.role === 'suballey'; // "Ngõ An Trạch 1": its name
    if (
      c.slot === 'street' &&
      !alleyLed &&
      out.house === undefined &&
      c.words.length >= minWords &&
      last?.kind === 'number' &&
      before?.kind === 'word' &&
      !NUMBERED_NAME.has(before.folded) &&
      !onlyCategory(c.words.slice(0, -1))
    ) {
      out.house = last.text;
      roleOf.set(last, 'house');
      c.words = c.words.slice(0, -1);
    }
  }
  for (const c of comps) {
    if (c.words.length === 0) {
      if (c.typeWord) out.rest.push(c.typeWord);
      continue;
    }
    const slot = c.slot;
    if (!slot || out[slot] !== undefined) {
      out.rest.push(c.typeWord ? `${c.typeWord} ${text(c.words)}` : text(c.words));
      continue;
    }
    for (const w of c.words) roleOf.set(typeTokenOf.get(w) ?? w, slot);
    if (c.typeTok) roleOf.set(c.typeTok, slot);
    if (slot === 'street') {
      out.street = c.typeWord ? `${c.typeWord} ${text(c.words)}` : text(c.words);
      if (c.typeWord) out.types.street = c.typeWord;
    } else {
      out[slot] = text(c.words);
      if (c.typeWord) out.types[slot] = c.typeWord;
    }
  }
  // Type words inside a street's name ("Đường số 9": "số") are words of it, like those untyped above.
  const asWords = new Set(typeTokenOf.values());
  for (const c of comps) for (const w of c.words) if (w.kind === 'type') asWords.add(w);
  return { parsed: out, roleOf, asWords };
}

/**
 * "Thành phố X" is a province-level city (Hà Nội) or a district-level one (Thủ Đức, Đà Lạt). The gazetteer
 * decides when given; otherwise it is a district when a province is written to its right, else a province.
 */
function settleCities(comps: Comp[], isKnown: Gazetteer | undefined): void {
  for (let i = 0; i < comps.length; i++) {
    const c = comps[i]!;
    if (c.role !== 'city' || c.slot) continue;
    const k = key(c.words);
    if (isKnown && isKnown('province', k)) c.slot = 'province';
    else if (isKnown && isKnown('district', k)) c.slot = 'district';
    else c.slot = comps.slice(i + 1).some((d) => d.slot === 'province') ? 'district' : 'province';
  }
}

/**
 * "Phố Hiến", "Phố Huế" are ward names that start with a street type word: a street run whose type word and words
 * together name a ward or district (and whose words alone name none) becomes an untyped run of those words, for
 * placeUntyped to place, unless a house number stands before it and it names a street too ("10 phố Huế"). So does a
 * unit's run whose words alone name no unit of its level and whose type word and words name a street ("Xã Đàn,
 * phường Kim Liên" is Phố Xã Đàn). The type word's token goes with the run.
 */
function untypeUnitNames(
  comps: Comp[],
  isKnown: Gazetteer,
  isStreet: ((foldedName: string) => boolean) | undefined,
  typeTokenOf: Map<AddressToken, AddressToken>,
): void {
  for (const c of comps) {
    if (!c.typeTok || c.words.length === 0) continue;
    const whole = nameKey(`${c.typeWord} ${text(c.words)}`);
    const unitNamed =
      c.slot === 'street' &&
      c.role === 'street' &&
      (isKnown('ward', whole) || isKnown('district', whole)) &&
      !isKnown('ward', key(c.words)) &&
      !(c.afterNumber && isStreet?.(whole));
    // A unit's letter ("p Bát Đàn": Phố, see isPhoLetter) or number ("Quận 1") is the unit's.
    const streetNamed =
      (c.slot === 'ward' || c.slot === 'district') &&
      c.typeTok.written === undefined &&
      !c.words.some((w) => w.kind === 'number') &&
      isStreet !== undefined &&
      !isKnown(c.slot, key(c.words)) &&
      isStreet(whole);
    if (!unitNamed && !streetNamed) continue;
    const asWord: AddressToken = { kind: 'word', text: c.typeTok.text, folded: c.typeTok.folded };
    typeTokenOf.set(asWord, c.typeTok);
    c.words = [asWord, ...c.words];
    c.slot = undefined;
    c.role = undefined;
    c.typeWord = undefined;
    c.typeTok = undefined;
  }
}

/**
 * Whether type word `t` is a word of a street's name with the last of `words` before it: its end ("Lý Thường" +
 * Kiệt, "Nguyen Tri" + phuong) or its middle, with the words of `toks` from `from` on ("an" + duong + "vuong": An
 * Dương Vương).
 */
function inStreetName(
  words: readonly AddressToken[],
  t: AddressToken,
  toks: readonly AddressToken[],
  from: number,
  isStreet: ((foldedName: string) => boolean) | undefined,
): boolean {
  if (!isStreet) return false;
  let after = 0; // words of toks from `from` that may go on the name
  while (after < STREET_WORDS_BEFORE_TYPE && toks[from + after]?.kind === 'word') after++;
  for (let n = 1; n <= Math.min(STREET_WORDS_BEFORE_TYPE, words.length); n++) {
    const before = words.slice(words.length - n);
    if (before.some((w) => w.kind !== 'word')) return false;
    for (let k = 0; k <= after; k++)
      if (isStreet(nameKey(`${text(before)} ${t.folded} ${text(toks.slice(from, from + k))}`.trim()))) return true;
  }
  return false;
}

/**
 * A type word and the word after it that make a common word of names, however written ("Khoa học Xã hội", "Bảo hiểm
 * Xã hội"): like a bare type word, read as words unless they lead a known unit (Xã Hội Xuân). Folded.
 */
const WORD_WITH_TYPE = new Set(['xa hoi']);

/** The street type word Phố, as a token. */
const PHO: AddressToken = { kind: 'type', text: 'Phố', folded: 'pho', role: 'street' };

/**
 * Whether a ward's letter "P" leads a street's name that is no unit's ("p Bát Đàn", "P. Hàng Gai" where no ward is
 * so called): then it is Phố, as Hà Nội writes it.
 */
function isPhoLetter(
  t: AddressToken,
  words: AddressToken[],
  isKnown: Gazetteer,
  isStreet: ((foldedName: string) => boolean) | undefined,
): boolean {
  if (t.role !== 'ward' || t.written !== 'p' || !isStreet || words.length === 0) return false;
  if (words.every((w) => w.kind === 'number')) return false;
  const k = key(words);
  return !isKnown('ward', k) && !isKnown('district', k) && isStreet(k);
}

/** Street type words that, written bare, are as often another common word: "pho" is Phở (noodle soup) too. */
const STREET_HOMOGRAPHS = new Set(['pho']);

/**
 * A type word written bare (or in a WORD_WITH_TYPE) that leads no known unit, or whose words and it together are a street's name, or a street
 * word that is also a common word (STREET_HOMOGRAPHS) leading no street of the region, is a word of a name: "43 quan su" is on Quán Sứ (no district "Sứ"), "18 ngo
 * quyen" on Ngô Quyền (not an alley "Quyền"), "Pho 10" is Phở 10. The run becomes untyped, for placeUntyped to place.
 */
function untypeBareWords(
  comps: Comp[],
  isKnown: Gazetteer,
  isStreet: ((foldedName: string) => boolean) | undefined,
  typeTokenOf: Map<AddressToken, AddressToken>,
): void {
  for (const c of comps) {
    const t = c.typeTok;
    if (t && isPhoLetter(t, c.words, isKnown, isStreet)) {
      Object.assign(c, { slot: 'street', role: undefined, typeWord: PHO.text, typeTok: PHO });
      continue;
    }
    if (!t || !(t.bare || WORD_WITH_TYPE.has(`${t.folded} ${c.words[0]?.folded}`)) || c.words.length === 0) continue;
    const unit = c.slot === 'ward' || c.slot === 'district';
    const alley = t.role === 'alley' || t.role === 'suballey';
    const street = t.role === 'street' && STREET_HOMOGRAPHS.has(t.folded);
    if (unit && (isKnown(c.slot as 'ward' | 'district', key(c.words)) || isKnown('province', key(c.words)))) continue;
    if (alley && !isStreet?.(nameKey(`${t.folded} ${text(c.words)}`))) continue;
    // "Pho 10", "pho ga": Phở, a dish, before no street of the region ("pho hue" is Phố Huế), and before a number
    // alone (a street of the word and a number is "Đường số 24", never "Phố 24").
    const numbered = c.words.every((w) => w.kind === 'number');
    if (
      street &&
      !numbered &&
      (!isStreet || isStreet(key(c.words)) || isStreet(nameKey(`${t.folded} ${text(c.words)}`)))
    )
      continue;
    if (!unit && !alley && !street) continue;
    const asWord: AddressToken = { kind: 'word', text: t.folded, folded: t.folded };
    typeTokenOf.set(asWord, t);
    // An alley word that begins a street's name stays the street ("18 ngo quyen"); a unit's or a dish's becomes a bare
    // run.
    Object.assign(c, { words: [asWord, ...c.words], slot: alley ? 'street' : undefined, role: undefined });
    Object.assign(c, { typeWord: undefined, typeTok: undefined });
  }
}

/**
 * With a gazetteer, a typed run that swallowed the next unit ("Phường Văn Miếu Đống Đa") keeps its longest
 * known prefix; the remaining words become an untyped run right after it.
 */
function splitTypedRuns(comps: Comp[], isKnown: Gazetteer): void {
  for (let i = 0; i < comps.length; i++) {
    const c = comps[i]!;
    if (!c.typeWord || !c.slot || c.slot === 'street' || c.words.length < 2) continue;
    const kind = c.slot;
    const keys = prefixKeys(c.words);
    for (let n = c.words.length - 1; n >= 1; n--) {
      if (!isKnown(kind, keys[n]!)) continue;
      if (isKnown(kind, keys[c.words.length]!)) break; // the whole run is a known name: keep it
      comps.splice(i + 1, 0, { words: c.words.slice(n) });
      c.words = c.words.slice(0, n);
      break;
    }
  }
}

/**
 * Places untyped runs, right to left, at levels that keep the written order (small to large). With a gazetteer,
 * the highest free level that confirms the run's name (or a suffix of it, the rest staying for the next level)
 * wins and unconfirmed text falls back to the street; without one, the highest free level is taken.
 */
function placeUntyped(
  comps: Comp[],
  isKnown: Gazetteer | undefined,
  isStreet: ((foldedName: string) => boolean) | undefined,
): void {
  const filled = new Set<Slot>();
  for (const c of comps) if (c.slot && c.typeWord !== undefined) filled.add(c.slot);
  for (let i = comps.length - 1; i >= 0; i--) {
    const c = comps[i]!;
    // Runs after a house number, and runs a street or alley type word leads ("đường Yersin Đà Lạt", "1 ngõ Gạch Hoàn
    // Kiếm"), are the street; with a gazetteer they may still end with a known unit, unless the whole run names a
    // street of the region ("Trần Hưng Đạo" is no street "Trần" in a ward "Hưng Đạo").
    const led = c.typeWord === undefined || c.role === 'street' || c.typeTok?.role === 'alley';
    const streetRun = c.slot === 'street' && led && !isStreet?.(key(c.words));
    if (c.slot && !streetRun) continue;
    let lo = -1;
    let hi = 4;
    for (let j = 0; j < comps.length; j++) {
      const s = comps[j]!.slot;
      if (j === i || !s || (comps[j]!.typeWord === undefined && j < i)) continue;
      if (j < i) lo = Math.max(lo, RANK[s]);
      else hi = Math.min(hi, RANK[s]);
    }
    const free = SLOTS.filter((s) => RANK[s] > lo && RANK[s] < hi && !filled.has(s)).reverse();
    // Written out of order ("Ba Đình, Cao Bá Quát 31"): a unit the gazetteer confirms may still take a free level.
    const anyOrder = SLOTS.filter((s) => s !== 'street' && !filled.has(s) && !free.includes(s)).reverse();
    let placed: Slot | undefined;
    if (isKnown) {
      const within = scope(comps);
      const keys = suffixKeys(c.words);
      search: for (const s of [...free, ...(streetRun ? [] : anyOrder)]) {
        if (s === 'street') break;
        const minStart = streetRun ? 1 : 0; // a street run keeps at least one word for the street
        for (let start = minStart; start < c.words.length; start++) {
          // A unit name split off the end of a run has two words at least ("Nhà thờ Đức Bà" is not in a ward "Bà"),
          // or is one word joining several syllables ("Quang Trung Dalat").
          if (start > 0 && c.words.length - start < 2 && !severalSyllables(c.words[start]!.folded)) continue;
          if (!isKnown(s, keys[start]!, within)) continue;
          if (start > 0) {
            // The street keeps its type word; the unit split off its end is untyped.
            const { typeWord, typeTok, role } = c;
            comps.splice(i, 0, {
              slot: streetRun ? 'street' : undefined,
              words: c.words.slice(0, start),
              typeWord,
              typeTok,
              role,
            });
            i++;
            Object.assign(c, { typeWord: undefined, typeTok: undefined, role: undefined });
          }
          c.words = c.words.slice(start);
          placed = s;
          break search;
        }
      }
      if (!placed && free.includes('street')) placed = 'street';
    } else if (!streetRun) {
      placed = free[0];
    }
    if (streetRun) {
      if (placed && placed !== 'street') c.slot = placed;
      filled.add(c.slot!);
      continue;
    }
    if (placed) {
      c.slot = placed;
      filled.add(placed);
    }
  }
}

/**
 * True when a folded word has two vowel groups or more: several syllables written as one word ("dalat", "hoankiem",
 * "saigon"), since a Vietnamese syllable has one ("nguyen", "truong").
 */
function severalSyllables(folded: string): boolean {
  return (folded.match(/[aeiouy]+/g) ?? []).length >= 2;
}

/** Keys of the province and district placed so far, to scope gazetteer questions. */
function scope(comps: Comp[]): { province?: string; district?: string } {
  const within: { province?: string; district?: string } = {};
  for (const c of comps) {
    if (c.slot === 'province' && within.province === undefined) within.province = key(c.words);
    if (c.slot === 'district' && within.district === undefined) within.district = key(c.words);
  }
  return within;
}
