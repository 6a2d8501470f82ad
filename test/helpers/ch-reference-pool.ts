/**
 * Per-state adjacency lists for contraction: each state's list is a contiguous slice of one pool (other state,
 * weight, record), grown by moving it to the end of the pool with double the room. Lists hold only live edges
 * (the contraction removes a contracted state from its neighbours' lists), so searches scan no dead entries and
 * read memory in order. The space a moved list leaves behind is not reused: the pool ends at most about twice
 * the size of the live lists.
 */
export class AdjacencyPool {
  /** Per state: first slot, live entries, room. */
  readonly start: Int32Array;
  readonly len: Int32Array;
  private readonly cap: Int32Array;
  other = new Int32Array(1024);
  w = new Float64Array(1024);
  rec = new Int32Array(1024);
  private used = 0;

  constructor(states: number) {
    this.start = new Int32Array(states);
    this.len = new Int32Array(states);
    this.cap = new Int32Array(states);
  }

  /** Appends an entry to state s's list. */
  push(s: number, other: number, w: number, rec: number): void {
    let n = this.len[s]!;
    if (n === this.cap[s]) this.move(s, Math.max(2, 2 * n));
    const i = this.start[s]! + n++;
    this.other[i] = other;
    this.w[i] = w;
    this.rec[i] = rec;
    this.len[s] = n;
  }

  /** Slot of the entry of s whose other state is x, or -1. */
  find(s: number, x: number): number {
    const o = this.other;
    for (let i = this.start[s]!, e = i + this.len[s]!; i < e; i++) if (o[i] === x) return i;
    return -1;
  }

  /** Removes the entry of s whose other state is x (there is at most one), moving the last entry into its slot. */
  remove(s: number, x: number): void {
    const i = this.find(s, x);
    if (i < 0) return;
    const last = this.start[s]! + --this.len[s]!;
    this.other[i] = this.other[last]!;
    this.w[i] = this.w[last]!;
    this.rec[i] = this.rec[last]!;
  }

  private move(s: number, room: number): void {
    if (this.used + room > this.other.length) this.grow(this.used + room);
    const from = this.start[s]!,
      n = this.len[s]!,
      to = this.used;
    this.other.copyWithin(to, from, from + n); // Same arrays: pools are grown before.
    this.w.copyWithin(to, from, from + n);
    this.rec.copyWithin(to, from, from + n);
    this.start[s] = to;
    this.cap[s] = room;
    this.used += room;
  }

  private grow(need: number): void {
    const m = Math.max(need, Math.ceil(this.other.length * 1.5));
    const other = new Int32Array(m),
      w = new Float64Array(m),
      rec = new Int32Array(m);
    other.set(this.other.subarray(0, this.used));
    w.set(this.w.subarray(0, this.used));
    rec.set(this.rec.subarray(0, this.used));
    this.other = other;
    this.w = w;
    this.rec = rec;
  }
}
