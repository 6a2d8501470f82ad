/**
 * A cyclic tour over an asymmetric table with what move evaluation needs in O(1): the position of every stop and
 * prefix sums of the forward and backward arc costs along the tour. Moves are applied by rebuilding the order from
 * up to three pieces (each a run of consecutive positions, forward or reversed), O(m), after which every index is
 * refreshed; evaluation never allocates.
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

  /** Starts a rebuild; follow with {@link piece} calls covering every position once, then {@link commit}. */
  begin(): void {
    this.w = 0;
  }

  /** Appends `len` stops from cyclic position `from` onwards, or, reversed, from `from` backwards. */
  piece(from: number, len: number, reversed = false): void {
    const m = this.n;
    let p = ((from % m) + m) % m;
    for (let k = 0; k < len; k++) {
      this.scratch[this.w++] = this.order[p] as number;
      p = reversed ? (p === 0 ? m - 1 : p - 1) : p + 1 === m ? 0 : p + 1;
    }
  }

  /** Makes the rebuilt order current. */
  commit(): void {
    this.order.set(this.scratch);
    this.refresh();
  }

  /** Copies another state's order of the same table into this one. */
  copyFrom(other: TourState): void {
    this.order.set(other.order);
    this.refresh();
  }

  private refresh(): void {
    const { table, n, order, pos, fwd, bwd } = this;
    fwd[0] = 0;
    bwd[0] = 0;
    for (let p = 0; p < n; p++) {
      const a = order[p] as number;
      const b = order[p + 1 === n ? 0 : p + 1] as number;
      pos[a] = p;
      fwd[p + 1] = (fwd[p] as number) + (table[a * n + b] as number);
      bwd[p + 1] = (bwd[p] as number) + (table[b * n + a] as number);
    }
  }
}
