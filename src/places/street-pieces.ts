/**
 * The street places of a pack grouped by their name's string id (one place per piece of a street in a ward), in typed
 * arrays: a Map of arrays held ≈ 1.1 MB of a worker's heap on whole Ho Chi Minh City for ≈ 0.3 MB of ids here.
 * Names are listed in the order of their first piece and each name's pieces ascending, as they were added.
 */
export class StreetPieces {
  /** Per name, in order of its first piece: its string id, and its pieces at `places[first[k] .. first[k + 1])`. */
  private readonly name: Int32Array;
  private readonly first: Uint32Array;
  private readonly places: Int32Array;
  /** The names' string ids ascending, and the row (index into `name`) of each. */
  private readonly sortedName: Int32Array;
  private readonly sortedRow: Uint32Array;

  /**
   * @param names the name's string id of each place
   * @param isStreet whether place i is a street piece
   */
  constructor(names: ArrayLike<number>, isStreet: (i: number) => boolean) {
    const rowOf = new Map<number, number>();
    const counts: number[] = [];
    for (let i = 0; i < names.length; i++) {
      if (!isStreet(i)) continue;
      const row = rowOf.get(names[i]!);
      if (row === undefined) {
        rowOf.set(names[i]!, counts.length);
        counts.push(1);
      } else counts[row]! += 1;
    }
    const rows = counts.length;
    this.name = Int32Array.from(rowOf.keys());
    this.first = new Uint32Array(rows + 1);
    for (let k = 0; k < rows; k++) this.first[k + 1] = this.first[k]! + counts[k]!;
    this.places = new Int32Array(this.first[rows]!);
    const at = this.first.slice(0, rows);
    for (let i = 0; i < names.length; i++) if (isStreet(i)) this.places[at[rowOf.get(names[i]!)!]!++] = i;
    const order = Array.from({ length: rows }, (_, k) => k).sort((a, b) => this.name[a]! - this.name[b]!);
    this.sortedRow = Uint32Array.from(order);
    this.sortedName = Int32Array.from(order, (k) => this.name[k]!);
  }

  /** Number of distinct street names. */
  get size(): number {
    return this.name.length;
  }

  /** True when some street piece bears the name with string id `name`. */
  has(name: number): boolean {
    return this.rowOf(name) >= 0;
  }

  /** The pieces (place indices, ascending) of the street named `name`, or undefined when none bears it. */
  get(name: number): number[] | undefined {
    const k = this.rowOf(name);
    return k < 0 ? undefined : Array.from(this.places.subarray(this.first[k]!, this.first[k + 1]!));
  }

  /** The names' string ids, in order of their first piece. */
  keys(): IterableIterator<number> {
    return this.name.values();
  }

  /** Each name's string id and its pieces, in order of its first piece. */
  *[Symbol.iterator](): IterableIterator<[number, number[]]> {
    for (let k = 0; k < this.name.length; k++)
      yield [this.name[k]!, Array.from(this.places.subarray(this.first[k]!, this.first[k + 1]!))];
  }

  /** The row of name `name` (binary search of the sorted ids), or -1. */
  private rowOf(name: number): number {
    const s = this.sortedName;
    let lo = 0,
      hi = s.length;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      if (s[m]! < name) lo = m + 1;
      else hi = m;
    }
    return lo < s.length && s[lo] === name ? this.sortedRow[lo]! : -1;
  }
}
