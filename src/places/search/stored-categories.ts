/**
 * The places' categories (PlaceCategories) stored in a pack (written by data-tools/stored-indexes.ts), so that the
 * first place request on a big pack does not match every place's category value and names against the CATEGORIES
 * table. Sections:
 * - `place.cat` (JSON): `{ version, table }`, the layout and a hash of the CATEGORIES table the rows were read with;
 * - `place.cat.start` (u32, CATEGORY_ROWS + 1 offsets) and `place.cat.places` (i32): CategoryRowArrays.
 * The rows are used only when the table's hash is this code's and, for a sample of places (spread over all of them,
 * and the first and last place of every row), the rows they give are the rows this code reads: a pack built by code
 * that reads categories otherwise reads them again. Packs without the sections read them at first use.
 */
import { isOffsetArray } from '../../pack/offsets.js';
import { PackError, type Pack } from '../../pack/reader.js';
import type { StringTable } from '../../pack/strings.js';
import { bytesHash } from '../../pack/bytes-hash.js';
import type { PlaceStore } from '../store.js';
import { CATEGORIES } from '../text/categories.js';
import { CATEGORY_ROWS, sameRows } from '../text/row-mask.js';
import { CategoryReader, PlaceCategories, type CategoryRowArrays } from './place-categories.js';

/**
 * Version of the stored rows: their layout, and how names and tags make them (2: families, place-categories.ts; 3:
 * CATEGORY_ROWS rows of three mask words).
 */
const LAYOUT = 3;
/** Places sampled over the whole pack (besides each row's first and last). */
const PROBE_PLACES = 64;

const S = { index: 'place.cat', start: 'place.cat.start', places: 'place.cat.places' } as const;

/** The `place.cat` section. */
interface StoredCategoriesInfo {
  version: number;
  table: number;
}

/** A hash of the CATEGORIES table (its words, abbreviations and OSM values, row by row). */
function tableHash(): number {
  return bytesHash(new TextEncoder().encode(JSON.stringify(CATEGORIES)));
}

/** The sections of a region's categories: JSON sections and arrays, by name, in writing order. */
export function categorySections(c: CategoryRowArrays): {
  json: [string, unknown][];
  arrays: [string, Uint32Array | Int32Array][];
} {
  const info: StoredCategoriesInfo = { version: LAYOUT, table: tableHash() };
  return {
    json: [[S.index, info]],
    arrays: [
      [S.start, c.rowStart],
      [S.places, c.rowPlaces],
    ],
  };
}

/**
 * The categories of a region's places: the pack's stored rows when they are this code's (see the module comment),
 * else read from the places. Throws PackError naming the section when the stored rows do not fit the places (a pack
 * opened without checksums).
 */
export function placeCategories(pack: Pack, places: PlaceStore, strings: StringTable): PlaceCategories {
  const stored = storedRows(pack, places.count);
  if (stored) {
    const c = new PlaceCategories(places, strings, stored);
    if (sampleAgrees(c, places, strings)) return c;
  }
  return new PlaceCategories(places, strings);
}

/** The pack's stored rows, checked to fit `count` places, or null when it has none or none of this layout and table. */
function storedRows(pack: Pack, count: number): CategoryRowArrays | null {
  if (!pack.has(S.index)) return null;
  const info = pack.json<StoredCategoriesInfo>(S.index);
  if (info.version !== LAYOUT || info.table !== tableHash()) return null;
  const rowStart = pack.array(S.start);
  const rowPlaces = pack.array(S.places);
  if (
    !(rowStart instanceof Uint32Array) ||
    !(rowPlaces instanceof Int32Array) ||
    rowStart.length !== CATEGORY_ROWS + 1 ||
    !isOffsetArray(rowStart, rowPlaces.length)
  )
    throw new PackError(pack.source, `corrupt: section "${S.start}" does not fit the places`);
  // Each row's places ascending and in range, as PlaceCategories builds them (so a place is listed once per row).
  for (let row = 0; row < CATEGORY_ROWS; row++)
    for (let k = rowStart[row]!; k < rowStart[row + 1]!; k++) {
      const p = rowPlaces[k]!;
      if (p < 0 || p >= count || (k > rowStart[row]! && p <= rowPlaces[k - 1]!))
        throw new PackError(pack.source, `corrupt: section "${S.places}" does not fit the places`);
    }
  return { rowStart, rowPlaces };
}

/** True when, for the sampled places, the stored rows are the rows this code reads. */
function sampleAgrees(c: PlaceCategories, places: PlaceStore, strings: StringTable): boolean {
  const reader = new CategoryReader(places, strings);
  const sample: number[] = [];
  const step = Math.max(1, Math.floor(places.count / PROBE_PLACES));
  for (let p = 0; p < places.count; p += step) sample.push(p);
  for (let row = 0; row < CATEGORY_ROWS; row++)
    if (c.rowStart[row + 1]! > c.rowStart[row]!)
      sample.push(c.rowPlaces[c.rowStart[row]!]!, c.rowPlaces[c.rowStart[row + 1]! - 1]!);
  return sample.every((p) => sameRows(c.rowsAt(p), reader.rowsOf(p)));
}
