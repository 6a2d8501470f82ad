/**
 * The categories of each place of a region (rows of the CATEGORIES table): those its OSM category value names; for a
 * place whose tags name none, those whose words its own names hold ("Bệnh viện X" untagged is a hospital; a café
 * tagged amenity=cafe and called "Hanoi Station" is not a station). Built once per region, or opened from the rows a
 * pack stores (stored-categories.ts).
 */
import type { StringTable } from '../../pack/strings';
import type { PlaceStore } from '../store';
import { categoryRowsOf, categorySpans, leadingKind, rowsOfKeys, type MatchWord } from '../text/category-match';
import { tokens } from '../text/fold';

/** The rows of the kind a name's words lead with ("Chợ Bà Chiểu": market), none when they lead with no kind. */
function leadingRows(name: string): [number, number] {
  return leadingKind(tokens(name))?.rows ?? [0, 0];
}

/** Rows of the CATEGORIES table a place can be of (two 32-bit masks). */
export const CATEGORY_ROWS = 64;

/** The places of every category row: rowPlaces[rowStart[r] .. rowStart[r + 1]), ascending. */
export interface CategoryRowArrays {
  /** CATEGORY_ROWS + 1 offsets into rowPlaces. */
  rowStart: Uint32Array;
  rowPlaces: Int32Array;
}

/** Computes the category rows of single places as this code reads them (names are cached, so reuse one instance). */
export class CategoryReader {
  /** String id of a name → its row bits; and with a leading abbreviation read. */
  private readonly nameRows = new Map<number, readonly [number, number]>();
  private readonly leadRows = new Map<number, readonly [number, number]>();
  /** String id of a name → the rows of the kind its words lead with. */
  private readonly firstRows = new Map<number, readonly [number, number]>();
  /** String id of an OSM category value → its row bits. */
  private readonly valueRows = new Map<number, readonly [number, number]>();

  constructor(
    private readonly places: PlaceStore,
    private readonly strings: StringTable,
  ) {}

  /**
   * The two row masks (rows 0–31, 32–63) of place `p`: its tag's rows, narrowed to those its names spell out when
   * they spell some of them (a place of worship of unknown religion named "Nhà thờ X" is a church, not a pagoda);
   * without a tag that names a row, its names' rows.
   */
  rowsOf(p: number): [number, number] {
    const places = this.places;
    const own = this.cached(this.valueRows, places.category[p]!, (s) => categoryRowsOf(s));
    let lo = 0;
    let hi = 0;
    const names = [places.name[p]!, ...places.alt.subarray(places.altFirst[p]!, places.altFirst[p + 1]!)].filter(
      (id) => id !== 0,
    );
    for (const id of names) {
      const r = this.cached(this.nameRows, id, (name) => nameRows(name, false));
      lo |= r[0];
      hi |= r[1];
    }
    if (own[0] === 0 && own[1] === 0) return [lo >>> 0, hi >>> 0];
    // Within a family a name's leading abbreviation says the kind too ("ĐH", "BV", "Trường THCS X").
    const f = FAMILY_MASKS.find((m) => (own[0] & ~m[0]) === 0 && (own[1] & ~m[1]) === 0);
    let leadLo = 0;
    let leadHi = 0;
    if (f) {
      for (const id of names) {
        const r = this.cached(this.leadRows, id, (name) => nameRows(name, 'leading'));
        leadLo |= r[0] & f[0];
        leadHi |= r[1] & f[1];
      }
    }
    if ((own[0] & lo) === 0 && (own[1] & hi) === 0) {
      if (!f) {
        // A name leading with a kind's words says the place is of it too ("Chợ Bà Chiểu" tagged shop=supermarket is
        // a market); a kind the name only holds inside does not ("Hanoi Station", a café).
        let [a, b] = own;
        for (const id of names) {
          const r = this.cached(this.firstRows, id, leadingRows);
          a |= r[0];
          b |= r[1];
        }
        return [a >>> 0, b >>> 0];
      }
      // Tag and names name other kinds of one family: the names' kind, and the family's broad kind the tag is of (a
      // university tagged amenity=school and named "ĐH Nông Lâm" is no primary school; "THCS X" no high school).
      if ((leadLo | leadHi) !== 0) return [(leadLo | (own[0] & BROAD[0])) >>> 0, (leadHi | (own[1] & BROAD[1])) >>> 0];
      return [(own[0] | (lo & f[0])) >>> 0, (own[1] | (hi & f[1])) >>> 0];
    }
    return [((own[0] & lo) | leadLo) >>> 0, ((own[1] & hi) | leadHi) >>> 0];
  }

  /** `f` of string `id`, computed once per string (a category value or a name repeats across many places). */
  private cached(
    cache: Map<number, readonly [number, number]>,
    id: number,
    f: (text: string) => readonly [number, number],
  ): readonly [number, number] {
    let r = cache.get(id);
    if (!r) cache.set(id, (r = f(this.strings.get(id))));
    return r;
  }
}

/**
 * Kinds of place that are one family (CATEGORIES keys): OSM tags them loosely within it (universities as
 * amenity=school), so a name of another kind of the family says what the place is.
 */
const FAMILIES: readonly (readonly string[])[] = [
  ['university', 'college', 'high_school', 'secondary_school', 'primary_school', 'school', 'kindergarten'],
  ['hospital', 'clinic', 'health_centre', 'health_post'],
  ['hotel', 'guest_house'],
];

/** Each family's rows as two 32-bit masks. */
const FAMILY_MASKS: readonly (readonly [number, number])[] = FAMILIES.map(rowsOfKeys);
/** The kinds of a family that name any of its places ("trường", "bệnh viện"). */
const BROAD = rowsOfKeys(['school', 'hospital']);

/**
 * The education family's two tiers: a university or college, and a school below it. OSM tags a university loosely as
 * a school, but a name says which tier its place is of: "International School Ho Chi Minh City" is no university,
 * and "Đại học X" no high school (a hospital is often named a clinic and a hotel a guest house, so the other families
 * have no tiers).
 */
const TIERS: readonly (readonly [number, number])[] = [
  rowsOfKeys(['university', 'college']),
  rowsOfKeys(['high_school', 'secondary_school', 'primary_school', 'school', 'kindergarten']),
];

/**
 * True when a name whose words spell the kinds `named` (row masks: categorySpans over it) says its place is of
 * another tier than every kind `asked` (the query's kinds, before withFamilies): the asked kinds all lie in one
 * tier, and the name spells kinds of the other tier alone.
 */
export function otherTier(asked: readonly [number, number], named: readonly [number, number]): boolean {
  const within = (rows: readonly [number, number], t: readonly [number, number]) =>
    (rows[0] & ~t[0]) === 0 && (rows[1] & ~t[1]) === 0 && (rows[0] | rows[1]) !== 0;
  const [a, b] = TIERS as [readonly [number, number], readonly [number, number]];
  return (within(asked, a) && within(named, b)) || (within(asked, b) && within(named, a));
}

/** `rows` with every row of each family one of them is in ("khách sạn" with "nhà nghỉ"). */
export function withFamilies(rows: readonly [number, number]): [number, number] {
  const out: [number, number] = [rows[0], rows[1]];
  for (const m of FAMILY_MASKS)
    if ((rows[0] & m[0]) !== 0 || (rows[1] & m[1]) !== 0) ((out[0] |= m[0]), (out[1] |= m[1]));
  return out;
}

/** The rows whose words a name holds (and its leading abbreviation's, with `abbreviations` 'leading'). */
function nameRows(name: string, abbreviations: false | 'leading'): [number, number] {
  return spannedRows(tokens(name), abbreviations);
}

/**
 * The rows of the kinds a run of words spells (categorySpans with `abbreviations`); with `skipLeading`, not those only
 * a word that leads a name spells ("Trường X" is any school).
 */
export function spannedRows(
  words: readonly MatchWord[],
  abbreviations: false | 'leading',
  skipLeading = false,
): [number, number] {
  const r: [number, number] = [0, 0];
  for (const span of categorySpans(words, abbreviations)) {
    if (skipLeading && span.leading) continue;
    r[0] |= span.rows[0];
    r[1] |= span.rows[1];
  }
  return r;
}

/** Category row bits of every place, and the places of every row. */
export class PlaceCategories implements CategoryRowArrays {
  /** Two 32-bit row masks per place (rows 0–31, 32–63). */
  readonly bits: Uint32Array;
  readonly rowStart: Uint32Array;
  readonly rowPlaces: Int32Array;

  /**
   * Reads every place's categories, or opens `stored` (the rows a pack stores; the caller checked that this code
   * gives them: stored-categories.ts), deriving the bits from them in one pass.
   */
  constructor(places: PlaceStore, strings: StringTable, stored: CategoryRowArrays | null = null) {
    const n = places.count;
    this.bits = new Uint32Array(2 * n);
    if (stored) {
      ({ rowStart: this.rowStart, rowPlaces: this.rowPlaces } = stored);
      for (let row = 0; row < CATEGORY_ROWS; row++) {
        const word = row < 32 ? 0 : 1;
        const bit = 1 << (row & 31);
        for (let k = this.rowStart[row]!; k < this.rowStart[row + 1]!; k++)
          this.bits[2 * this.rowPlaces[k]! + word]! |= bit;
      }
      return;
    }
    const reader = new CategoryReader(places, strings);
    const counts = new Uint32Array(CATEGORY_ROWS + 1);
    for (let p = 0; p < n; p++) {
      const [lo, hi] = reader.rowsOf(p);
      this.bits[2 * p] = lo;
      this.bits[2 * p + 1] = hi;
      for (let row = 0; row < CATEGORY_ROWS; row++) if (this.has(p, row)) counts[row + 1]!++;
    }
    for (let row = 0; row < CATEGORY_ROWS; row++) counts[row + 1]! += counts[row]!;
    this.rowStart = counts;
    this.rowPlaces = new Int32Array(counts[CATEGORY_ROWS]!);
    const fill = counts.slice(0, CATEGORY_ROWS);
    for (let p = 0; p < n; p++)
      for (let row = 0; row < CATEGORY_ROWS; row++) if (this.has(p, row)) this.rowPlaces[fill[row]!++] = p;
  }

  /** True when place `p` is of category row `row`. */
  has(p: number, row: number): boolean {
    return row < 32 ? (this.bits[2 * p]! & (1 << row)) !== 0 : (this.bits[2 * p + 1]! & (1 << (row - 32))) !== 0;
  }

  /** True when place `p` is of any of the rows in the mask pair. */
  any(p: number, rows: readonly [number, number]): boolean {
    return (this.bits[2 * p]! & rows[0]) !== 0 || (this.bits[2 * p + 1]! & rows[1]) !== 0;
  }
}
