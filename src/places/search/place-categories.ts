/**
 * The categories of each place of a region (rows of the CATEGORIES table): those its OSM category value names; for a
 * place whose tags name none, those whose words its own names hold ("Bệnh viện X" untagged is a hospital; a café
 * tagged amenity=cafe and called "Hanoi Station" is not a station). Built once per region.
 */
import type { StringTable } from '../../pack/strings';
import type { PlaceStore } from '../store';
import { categoryRowsOf, categorySpans } from '../text/category-match';
import { tokens } from '../text/fold';

/** Category row bits of every place, and the places of every row. */
export class PlaceCategories {
  /** Two 32-bit row masks per place (rows 0–31, 32–63). */
  readonly bits: Uint32Array;
  /** Places of row r: rowPlaces[rowStart[r] .. rowStart[r + 1]), ascending. */
  readonly rowStart: Uint32Array;
  readonly rowPlaces: Int32Array;

  constructor(places: PlaceStore, strings: StringTable) {
    const n = places.count;
    this.bits = new Uint32Array(2 * n);
    const nameRows = new Map<number, [number, number]>(); // string id → row bits of that name
    const rowsOfName = (id: number): [number, number] => {
      let r = nameRows.get(id);
      if (!r) {
        r = [0, 0];
        for (const span of categorySpans(tokens(strings.get(id)), false)) {
          r[0] |= span.rows[0];
          r[1] |= span.rows[1];
        }
        nameRows.set(id, r);
      }
      return r;
    };
    const counts = new Uint32Array(65);
    for (let p = 0; p < n; p++) {
      const own = categoryRowsOf(strings.get(places.category[p]!));
      let lo = own[0];
      let hi = own[1];
      if (lo === 0 && hi === 0) {
        for (const id of [places.name[p]!, ...places.alt.subarray(places.altFirst[p]!, places.altFirst[p + 1]!)]) {
          if (id === 0) continue;
          const r = rowsOfName(id);
          lo |= r[0];
          hi |= r[1];
        }
      }
      this.bits[2 * p] = lo;
      this.bits[2 * p + 1] = hi;
      for (let row = 0; row < 64; row++) if (this.has(p, row)) counts[row + 1]!++;
    }
    for (let row = 0; row < 64; row++) counts[row + 1]! += counts[row]!;
    this.rowStart = counts;
    this.rowPlaces = new Int32Array(counts[64]!);
    const fill = counts.slice(0, 64);
    for (let p = 0; p < n; p++)
      for (let row = 0; row < 64; row++) if (this.has(p, row)) this.rowPlaces[fill[row]!++] = p;
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
