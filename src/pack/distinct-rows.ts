/**
 * A table of fixed-width rows stored as its distinct rows: where many records repeat a few rows (a place's five
 * admin units, an edge's speeds and preferences for every vehicle), a pack keeps each distinct row once, in order of
 * first use, and per record the number of its row, in 1 byte while there are at most 256 rows, 2 while at most
 * 65,536, else 4.
 */

/** Per record, the number of its row. */
export type RowIds = Uint8Array | Uint16Array | Uint32Array;

/**
 * The records of `data` (`width` values each, record after record) as distinct rows and the row of each record.
 * Rows are found by a hash of their values, checked value by value (no string per record: a country's edges are
 * tens of millions).
 */
export function distinctRows<T extends Int32Array | Uint32Array | Uint8Array>(
  data: T,
  width: number,
): { ids: RowIds; rows: T } {
  const records = data.length / width;
  const ids = new Uint32Array(records);
  const rows: number[] = [];
  /** Per hash, the last distinct row with it; per distinct row, the one before it with the same hash (or -1). */
  const lastOf = new Map<number, number>();
  const before: number[] = [];
  for (let i = 0; i < records; i++) {
    const at = i * width;
    let h = 0x811c9dc5;
    for (let j = 0; j < width; j++) h = Math.imul(h ^ data[at + j]!, 0x01000193);
    let k = lastOf.get(h) ?? -1;
    for (; k >= 0; k = before[k]!) {
      let j = 0;
      while (j < width && rows[k * width + j] === data[at + j]) j++;
      if (j === width) break;
    }
    if (k < 0) {
      k = before.length;
      before.push(lastOf.get(h) ?? -1);
      lastOf.set(h, k);
      for (let j = 0; j < width; j++) rows.push(data[at + j]!);
    }
    ids[i] = k;
  }
  const count = before.length;
  const narrow = count <= 0x100 ? Uint8Array.from(ids) : count <= 0x10000 ? Uint16Array.from(ids) : ids;
  const out =
    data instanceof Int32Array
      ? Int32Array.from(rows)
      : data instanceof Uint32Array
        ? Uint32Array.from(rows)
        : Uint8Array.from(rows);
  return { ids: narrow, rows: out as T };
}

/** Whether `ids` is a row number per each of `records` records, each below `rows`. */
export function fitsRows(ids: ArrayLike<number>, records: number, rows: number): ids is RowIds {
  if (!(ids instanceof Uint8Array || ids instanceof Uint16Array || ids instanceof Uint32Array)) return false;
  if (ids.length !== records || !Number.isInteger(rows)) return false;
  for (let i = 0; i < ids.length; i++) if (ids[i]! >= rows) return false;
  return true;
}
