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
import {
  andRows,
  CATEGORY_ROWS,
  MASK_WORDS,
  NO_ROWS,
  noRow,
  orRows,
  rowsMeet,
  rowsWithin,
  withoutRows,
  type RowMask,
} from '../text/row-mask';

/** The rows of the kind a name's words lead with ("Chợ Bà Chiểu": market), none when they lead with no kind. */
function leadingRows(name: string): RowMask {
  return leadingKind(tokens(name))?.rows ?? NO_ROWS;
}

/** The places of every category row: rowPlaces[rowStart[r] .. rowStart[r + 1]), ascending. */
export interface CategoryRowArrays {
  /** CATEGORY_ROWS + 1 offsets into rowPlaces. */
  rowStart: Uint32Array;
  rowPlaces: Int32Array;
}

/** Computes the category rows of single places as this code reads them (names are cached, so reuse one instance). */
export class CategoryReader {
  /** String id of a name → its rows; and with a leading abbreviation read. */
  private readonly nameRows = new Map<number, RowMask>();
  private readonly leadRows = new Map<number, RowMask>();
  /** String id of a name → the rows of the kind its words lead with. */
  private readonly firstRows = new Map<number, RowMask>();
  /** String id of an OSM category value → its rows. */
  private readonly valueRows = new Map<number, RowMask>();

  constructor(
    private readonly places: PlaceStore,
    private readonly strings: StringTable,
  ) {}

  /**
   * The rows of place `p`: its tag's rows, narrowed to those its names spell out when they spell some of them (a place
   * of worship of unknown religion named "Nhà thờ X" is a church, not a pagoda); without a tag that names a row, its
   * names' rows.
   */
  rowsOf(p: number): RowMask {
    const places = this.places;
    const own = this.cached(this.valueRows, places.category.at(p), (s) => categoryRowsOf(s));
    const names = [places.name[p]!, ...places.alt.subarray(places.altFirst.at(p), places.altFirst.at(p + 1))].filter(
      (id) => id !== 0,
    );
    const spelt = this.namesRows(this.nameRows, names, (name) => nameRows(name, false));
    if (noRow(own)) return spelt;
    // Within a family a name's leading abbreviation says the kind too ("ĐH", "BV", "Trường THCS X").
    const f = FAMILY_MASKS.find((m) => rowsWithin(own, m));
    const lead = f
      ? andRows(
          this.namesRows(this.leadRows, names, (name) => nameRows(name, 'leading')),
          f,
        )
      : NO_ROWS;
    if (!rowsMeet(own, spelt)) {
      // A name leading with a kind's words says the place is of it too ("Chợ Bà Chiểu" tagged shop=supermarket is a
      // market; "Cà Phê Œufs" tagged a bar is a café); a kind the name only holds inside does not ("Hanoi Station", a
      // café).
      const first = this.namesRows(this.firstRows, names, leadingRows);
      if (!f) return orRows(own, first);
      // Tag and names name other kinds of one family: the names' kind, and the family's broad kind the tag is of (a
      // university tagged amenity=school and named "ĐH Nông Lâm" is no primary school; "THCS X" no high school).
      const outside = withoutRows(first, f);
      if (!noRow(lead)) return orRows(orRows(lead, andRows(own, BROAD)), outside);
      return orRows(orRows(own, andRows(spelt, f)), outside);
    }
    return orRows(andRows(own, spelt), lead);
  }

  /** The rows `f` gives the names of string ids `names`, together (each name's computed once: `cache`). */
  private namesRows(cache: Map<number, RowMask>, names: readonly number[], f: (text: string) => RowMask): RowMask {
    let rows = NO_ROWS;
    for (const id of names) rows = orRows(rows, this.cached(cache, id, f));
    return rows;
  }

  /** `f` of string `id`, computed once per string (a category value or a name repeats across many places). */
  private cached(cache: Map<number, RowMask>, id: number, f: (text: string) => RowMask): RowMask {
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
  ['spa', 'beauty', 'nail'],
  ['bar', 'nightclub', 'karaoke'],
];

/** Each family's rows. */
const FAMILY_MASKS: readonly RowMask[] = FAMILIES.map(rowsOfKeys);
/** The kinds of a family that name any of its places ("trường", "bệnh viện"). */
const BROAD = rowsOfKeys(['school', 'hospital']);

/**
 * The education family's two tiers: a university or college, and a school below it. OSM tags a university loosely as
 * a school, but a name says which tier its place is of: "International School Ho Chi Minh City" is no university,
 * and "Đại học X" no high school (a hospital is often named a clinic and a hotel a guest house, so the other families
 * have no tiers).
 */
const TIERS: readonly [RowMask, RowMask] = [
  rowsOfKeys(['university', 'college']),
  rowsOfKeys(['high_school', 'secondary_school', 'primary_school', 'school', 'kindergarten']),
];

/**
 * True when a name whose words spell the kinds `named` (row masks: categorySpans over it) says its place is of
 * another tier than every kind `asked` (the query's kinds, before withFamilies): the asked kinds all lie in one
 * tier, and the name spells kinds of the other tier alone.
 */
export function otherTier(asked: RowMask, named: RowMask): boolean {
  const inTier = (rows: RowMask, t: RowMask) => !noRow(rows) && rowsWithin(rows, t);
  const [a, b] = TIERS;
  return (inTier(asked, a) && inTier(named, b)) || (inTier(asked, b) && inTier(named, a));
}

/** `rows` with every row of each family one of them is in ("khách sạn" with "nhà nghỉ"). */
export function withFamilies(rows: RowMask): RowMask {
  let out = rows;
  for (const m of FAMILY_MASKS) if (rowsMeet(rows, m)) out = orRows(out, m);
  return out;
}

/** The rows whose words a name holds (and its leading abbreviation's, with `abbreviations` 'leading'). */
function nameRows(name: string, abbreviations: false | 'leading'): RowMask {
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
): RowMask {
  let r = NO_ROWS;
  for (const span of categorySpans(words, abbreviations)) if (!(skipLeading && span.leading)) r = orRows(r, span.rows);
  return r;
}

/** Category row bits of every place, and the places of every row. */
export class PlaceCategories implements CategoryRowArrays {
  /** Per place its rows' mask, MASK_WORDS words (place p's from MASK_WORDS * p). */
  readonly bits: Uint32Array;
  readonly rowStart: Uint32Array;
  readonly rowPlaces: Int32Array;

  /**
   * Reads every place's categories, or opens `stored` (the rows a pack stores; the caller checked that this code
   * gives them: stored-categories.ts), deriving the bits from them in one pass.
   */
  constructor(places: PlaceStore, strings: StringTable, stored: CategoryRowArrays | null = null) {
    const n = places.count;
    this.bits = new Uint32Array(MASK_WORDS * n);
    if (stored) {
      ({ rowStart: this.rowStart, rowPlaces: this.rowPlaces } = stored);
      for (let row = 0; row < CATEGORY_ROWS; row++) {
        const word = row >> 5;
        const bit = 1 << (row & 31);
        for (let k = this.rowStart[row]!; k < this.rowStart[row + 1]!; k++)
          this.bits[MASK_WORDS * this.rowPlaces[k]! + word]! |= bit;
      }
      return;
    }
    const reader = new CategoryReader(places, strings);
    const counts = new Uint32Array(CATEGORY_ROWS + 1);
    for (let p = 0; p < n; p++) {
      this.bits.set(reader.rowsOf(p), MASK_WORDS * p);
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
    return ((this.bits[MASK_WORDS * p + (row >> 5)]! >>> (row & 31)) & 1) !== 0;
  }

  /** True when place `p` is of any of the rows `rows`. */
  any(p: number, rows: RowMask): boolean {
    const at = MASK_WORDS * p;
    return (
      (this.bits[at]! & rows[0]) !== 0 || (this.bits[at + 1]! & rows[1]) !== 0 || (this.bits[at + 2]! & rows[2]) !== 0
    );
  }

  /** The rows of place `p`. */
  rowsAt(p: number): RowMask {
    const at = MASK_WORDS * p;
    return [this.bits[at]!, this.bits[at + 1]!, this.bits[at + 2]!];
  }
}
