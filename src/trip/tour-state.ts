/**
 * A cyclic tour over an asymmetric table with what move evaluation needs in O(1): the position of every stop and
 * prefix sums of the forward and backward arc costs along the tour. A move rewrites one window of consecutive
 * positions from up to three pieces (each a run of consecutive positions, forward or reversed) and refreshes only
 * what the window changed; neither evaluation nor a move allocates.
 */
export class TourState {
  /** Stop at each position. */
  readonly order: Int32Array;
  /** Position of each stop. */
  readonly pos: Int32Array;
  /** fwd[p] = Σ_{q<p} c(order[q] → order[q+1]) (cyclic: fwd[m] is the tour cost). */
  readonly fwd: Float64Array;
  /** bwd[p] = the same arcs travelled backwards, c(order[q+1] → order[q]). */
  readonly bwd: Float64Array;
  private readonly scratch: Int32Array;
  private w = 0;

  /**
   * @param table row-major n×n costs (cost i→j at `i*n+j`), finite.
   * @param n number of stops; the tour visits all of them.
   * @param order initial cyclic order (copied).
   */
  constructor(
    readonly table: Float64Array,
    readonly n: number,
    order: ArrayLike<number>,
  ) {
    this.order = Int32Array.from(order);
    this.pos = new Int32Array(n);
    this.fwd = new Float64Array(n + 1);
    this.bwd = new Float64Array(n + 1);
    this.scratch = new Int32Array(n);
    this.refresh();
  }

  /** Tour cost (table unit). */
  get cost(): number {
    return this.fwd[this.n] as number;
  }

  /** Stop at cyclic position p (any integer). */
  at(p: number): number {
    const m = this.n;
    return this.order[((p % m) + m) % m] as number;
  }

  /** Cost of the arcs from position u forward to position v (cyclic; 0 when u = v). */
  forward(u: number, v: number): number {
    const f = this.fwd;
    return v >= u ? (f[v] as number) - (f[u] as number) : (f[this.n] as number) - (f[u] as number) + (f[v] as number);
  }

  /** Cost of the same arcs as {@link forward} travelled in the opposite direction. */
  backward(u: number, v: number): number {
    const b = this.bwd;
    return v >= u ? (b[v] as number) - (b[u] as number) : (b[this.n] as number) - (b[u] as number) + (b[v] as number);
  }

  /**
   * Starts a rewrite of a window of consecutive positions; follow with {@link piece} calls that together hold
   * exactly the window's stops in their new order, then {@link commit}.
   */
  begin(): void {
    this.w = 0;
  }

  /** Appends `len` stops from cyclic position `from` (−n ≤ from < 2n) onwards, or, reversed, from `from` backwards. */
  piece(from: number, len: number, reversed = false): void {
    const m = this.n;
    let p = from < 0 ? from + m : from >= m ? from - m : from;
    for (let k = 0; k < len; k++) {
      this.scratch[this.w++] = this.order[p] as number;
      p = reversed ? (p === 0 ? m - 1 : p - 1) : p + 1 === m ? 0 : p + 1;
    }
  }

  /**
   * Writes the pieces into the window that starts at cyclic position `at` (−n ≤ at < 2n) and refreshes what changed:
   * the window's positions, and the prefix sums from the window's first arc on (from 0 when the window wraps).
   * O(window + n − at); the prefix sums stay exactly what a sum from position 0 gives.
   */
  commit(at: number): void {
    const m = this.n;
    const { order, pos, scratch } = this;
    const len = this.w;
    let p = at < 0 ? at + m : at >= m ? at - m : at;
    const first = p;
    for (let k = 0; k < len; k++) {
      const stop = scratch[k] as number;
      order[p] = stop;
      pos[stop] = p;
      p = p + 1 === m ? 0 : p + 1;
    }
    this.sums(first + len > m || first === 0 ? 0 : first - 1);
  }

  /** Copies another state of the same table into this one. */
  copyFrom(other: TourState): void {
    this.order.set(other.order);
    this.pos.set(other.pos);
    this.fwd.set(other.fwd);
    this.bwd.set(other.bwd);
  }

  private refresh(): void {
    const { n, order, pos } = this;
    for (let p = 0; p < n; p++) pos[order[p] as number] = p;
    this.sums(0);
  }

  /** Recomputes fwd[p+1] and bwd[p+1] for p = from … n−1 (fwd[from], bwd[from] are kept). */
  private sums(from: number): void {
    const { table, n, order, fwd, bwd } = this;
    let f = fwd[from] as number;
    let g = bwd[from] as number;
    let a = order[from] as number;
    for (let p = from; p < n; p++) {
      const b = order[p + 1 === n ? 0 : p + 1] as number;
      f += table[a * n + b] as number;
      g += table[b * n + a] as number;
      fwd[p + 1] = f;
      bwd[p + 1] = g;
      a = b;
    }
  }
}
