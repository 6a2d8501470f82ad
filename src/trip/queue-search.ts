import type { TourState } from './tour-state.js';

/** Candidate lists: the k cheapest successors and predecessors of every stop (see neighbours.ts). */
export interface Candidates {
  succ: Int32Array;
  pred: Int32Array;
  k: number;
}

/**
 * Local search driven by a queue of "active" stops (don't-look bits): a stop is examined for Or-opt (moving the
 * 1–3 stops starting at it elsewhere, either direction), asymmetric 2-opt (a new arc from it to a candidate
 * successor, or into it from a candidate predecessor, reversing the run between) and segment exchange
 * (direction-preserving 3-opt with a new arc to a candidate successor). The best improving move is applied and the
 * stops at its changed arcs become active again; a stop with no improving move leaves the queue. After a kick only
 * the stops it touched need examining, which is what makes thousands of kicks cheap. An examination costs
 * O(k) table reads per move kind (Or-opt reads its candidate lists only while they pass the gain criterion), a move
 * O(window) plus a prefix-sum refresh (see TourState.commit); nothing allocates.
 *
 * Every accepted move saves more than the tolerance, so the search terminates.
 */
export class QueueSearch {
  private readonly queue: Int32Array;
  private readonly queued: Uint8Array;
  private head = 0;
  private size = 0;
  /** Best move found by the current examination: kind, its parameters and saving. */
  private delta = 0;
  private kind = 0;
  private p1 = 0;
  private p2 = 0;
  /** Segment exchange's per-candidate reads (see segmentExchange), one entry per candidate predecessor of b. */
  private readonly eq: Int32Array;
  private readonly ef: Int32Array;
  private readonly eb: Float64Array;
  private readonly eOut: Float64Array;
  /**
   * The costs of the candidate arcs, parallel to the lists: succCost[i*k+r] = c(i → succ[i*k+r]), predCost[i*k+r] =
   * c(pred[i*k+r] → i). The same numbers as the table's, read in sequence rather than scattered over it.
   */
  private readonly succCost: Float64Array;
  private readonly predCost: Float64Array;

  constructor(
    readonly tour: TourState,
    readonly cand: Candidates,
  ) {
    this.queue = new Int32Array(tour.n);
    this.queued = new Uint8Array(tour.n);
    this.eq = new Int32Array(cand.k);
    this.ef = new Int32Array(cand.k);
    this.eb = new Float64Array(cand.k);
    this.eOut = new Float64Array(cand.k);
    const { table, n } = tour;
    const { succ, pred, k } = cand;
    this.succCost = new Float64Array(n * k);
    this.predCost = new Float64Array(n * k);
    for (let i = 0; i < n; i++)
      for (let r = 0; r < k; r++) {
        this.succCost[i * k + r] = table[i * n + (succ[i * k + r] as number)] as number;
        this.predCost[i * k + r] = table[(pred[i * k + r] as number) * n + i] as number;
      }
  }

  /** Marks a stop active. */
  push(stop: number): void {
    if (this.queued[stop] === 1) return;
    this.queued[stop] = 1;
    const n = this.tour.n;
    const tail = this.head + this.size;
    this.queue[tail < n ? tail : tail - n] = stop;
    this.size++;
  }

  /** Marks every stop active, in tour order. */
  pushAll(): void {
    for (let p = 0; p < this.tour.n; p++) this.push(this.tour.order[p] as number);
  }

  /** Runs until no active stop has a move saving more than `tolerance` (table unit). */
  run(tolerance: number): void {
    const n = this.tour.n;
    if (n < 5) {
      this.size = 0;
      this.queued.fill(0);
      return;
    }
    while (this.size > 0) {
      const a = this.queue[this.head] as number;
      this.head = this.head + 1 === n ? 0 : this.head + 1;
      this.size--;
      this.queued[a] = 0;
      if (this.examine(a, tolerance)) this.push(a);
    }
  }

  /** Finds and applies the best improving move at stop a; true when one was applied. */
  private examine(a: number, tolerance: number): boolean {
    this.delta = -tolerance;
    this.kind = 0;
    const t = this.tour;
    const i = t.pos[a] as number;
    this.orOpt(a, i);
    this.twoOpt(a, i);
    this.segmentExchange(a, i);
    if (this.kind === 0) return false;
    this.apply(i);
    return true;
  }

  private take(delta: number, kind: number, p1: number, p2: number): void {
    if (delta < this.delta) {
      this.delta = delta;
      this.kind = kind;
      this.p1 = p1;
      this.p2 = p2;
    }
  }

  /**
   * Or-opt of the segment of `len` stops starting at a (kind 1 forward, 2 reversed; p1 = len, p2 = offset of x).
   * Insertion points come from four candidate lists: a's and sL's predecessors give x (the stop before the insertion
   * point), sL's and a's successors give y (the stop after it); a single stop (sL = a) only needs two of them and
   * one orientation (its reversal is itself).
   */
  private orOpt(a: number, i: number): void {
    const t = this.tour;
    const { table, n, order, pos } = t;
    const { succ, pred, k } = this.cand;
    const { succCost, predCost } = this;
    const prev = order[i === 0 ? n - 1 : i - 1] as number;
    for (let len = 1; len <= 3 && n - len >= 3; len++) {
      const last = wrap(i + len - 1, n);
      const sL = order[last] as number;
      const next = order[wrap(i + len, n)] as number;
      const remove =
        (table[prev * n + a] as number) + (table[sL * n + next] as number) - (table[prev * n + next] as number);
      const flip = t.backward(i, last) - t.forward(i, last);
      // Gain criterion: a list's own new arc (x→a, x→sL, sL→y or a→y; each list is sorted by it) must cost less than
      // taking the segment out saves (plus what reversing it saves); the candidates after it cost more still.
      const bound = remove + (flip < 0 ? -flip : 0);
      for (let list = 0; list < 4; list += len === 1 ? 2 : 1) {
        const cands = list < 2 ? pred : succ;
        const costs = list < 2 ? predCost : succCost;
        const own = list === 0 || list === 3 ? a : sL;
        for (let r = 0; r < k; r++) {
          const cnd = cands[own * k + r] as number;
          if ((costs[own * k + r] as number) >= bound) break;
          let ox = (pos[cnd] as number) - i;
          if (ox < 0) ox += n;
          // A successor candidate is y: x is the stop before it.
          if (list >= 2) ox = ox === 0 ? n - 1 : ox - 1;
          if (ox < len || ox > n - 2) continue;
          const px = wrap(i + ox, n);
          const x = order[px] as number;
          const y = order[px + 1 === n ? 0 : px + 1] as number;
          const xy = table[x * n + y] as number;
          this.take((table[x * n + a] as number) + (table[sL * n + y] as number) - xy - remove, 1, len, ox);
          if (len > 1) {
            this.take((table[x * n + sL] as number) + (table[a * n + y] as number) - xy - remove + flip, 2, len, ox);
          }
        }
      }
    }
  }

  /**
   * Asymmetric 2-opt. Kind 3: new arcs a→c (c a candidate successor, p1 = its offset) and b→d, reversing b…c.
   * Kind 4: new arcs q→a (q a candidate predecessor, p1 = its offset) and p→r, reversing q…r (r = pred(a)).
   */
  private twoOpt(a: number, i: number): void {
    const t = this.tour;
    const { table, n, order, pos } = t;
    const { succ, pred, k } = this.cand;
    const { succCost, predCost } = this;
    const u1 = i + 1 === n ? 0 : i + 1;
    const v1 = i === 0 ? n - 1 : i - 1;
    const b = order[u1] as number;
    const r = order[v1] as number;
    const ab = table[a * n + b] as number;
    const ra = table[r * n + a] as number;
    for (let s = 0; s < k; s++) {
      const c = succ[a * k + s] as number;
      let oc = (pos[c] as number) - i;
      if (oc < 0) oc += n;
      if (oc >= 2 && oc <= n - 2) {
        const v = wrap(i + oc, n);
        const d = order[v + 1 === n ? 0 : v + 1] as number;
        const delta =
          (succCost[a * k + s] as number) +
          (table[b * n + d] as number) -
          ab -
          (table[c * n + d] as number) +
          t.backward(u1, v) -
          t.forward(u1, v);
        this.take(delta, 3, oc, 0);
      }
      const q = pred[a * k + s] as number;
      let oq = (pos[q] as number) - i;
      if (oq < 0) oq += n;
      if (oq >= 2 && oq <= n - 2) {
        const u = wrap(i + oq, n);
        const p = order[u === 0 ? n - 1 : u - 1] as number;
        const delta =
          (table[p * n + r] as number) +
          (predCost[a * k + s] as number) -
          (table[p * n + q] as number) -
          ra +
          t.backward(u, v1) -
          t.forward(u, v1);
        this.take(delta, 4, oq, 0);
      }
    }
  }

  /**
   * Segment exchange A B C → A C B with the new arc a→d (d a candidate successor): B = offsets 1…dOff−1,
   * C = dOff…q, A = q+1…n (a last), with e (C's last stop, joined to b) a candidate predecessor of b.
   * Kind 5, p1 = dOff, p2 = q.
   */
  private segmentExchange(a: number, i: number): void {
    const t = this.tour;
    const { table, n, order, pos } = t;
    const { succ, pred, k } = this.cand;
    const { succCost, predCost } = this;
    const b = order[i + 1 === n ? 0 : i + 1] as number;
    const ab = table[a * n + b] as number;
    // What each e contributes apart from C's first stop: read once, on the first d that opens a gain.
    const { eq, ef, eb, eOut } = this;
    let read = false;
    // this.delta, kept in a local: only take() below changes it here.
    let best = this.delta;
    for (let s = 0; s < k; s++) {
      const d = succ[a * k + s] as number;
      let dOff = (pos[d] as number) - i;
      if (dOff < 0) dOff += n;
      if (dOff < 2) continue;
      const c = order[wrap(i + dOff - 1, n)] as number;
      const opened = (succCost[a * k + s] as number) - ab - (table[c * n + d] as number);
      if (opened >= 0) continue;
      if (!read) {
        read = true;
        // e (the end of C, joined to b) among b's candidate predecessors: O(k²) per stop instead of O(k·n).
        for (let r = 0; r < k; r++) {
          const e = pred[b * k + r] as number;
          let q = (pos[e] as number) - i;
          if (q < 0) q += n;
          const f = order[wrap(i + q + 1, n)] as number;
          eq[r] = q;
          ef[r] = f;
          eb[r] = predCost[b * k + r] as number;
          eOut[r] = table[e * n + f] as number;
        }
      }
      for (let r = 0; r < k; r++) {
        const q = eq[r] as number;
        if (q < dOff) continue;
        const delta = opened + (eb[r] as number) + (table[c * n + (ef[r] as number)] as number) - (eOut[r] as number);
        if (delta < best) {
          best = delta;
          this.take(delta, 5, dOff, q);
        }
      }
    }
  }

  /**
   * Applies the recorded move at position i and activates the stops at its changed arcs. Each move rewrites one
   * window of positions (an Or-opt the shorter of the two ways round: the stops between slide one way or the other).
   */
  private apply(i: number): void {
    const t = this.tour;
    const n = t.n;
    const { kind, p1, p2 } = this;
    if (kind === 1 || kind === 2) {
      const len = p1;
      const ox = p2;
      this.touch(i - 1);
      this.touch(i);
      this.touch(i + len - 1);
      this.touch(i + len);
      this.touch(i + ox);
      this.touch(i + ox + 1);
      t.begin();
      if (ox + 1 <= n - ox - 1 + len) {
        // Offsets len … ox slide back, the segment ends at offset ox.
        t.piece(i + len, ox - len + 1);
        this.segment(i, len, kind === 2);
        t.commit(i);
      } else {
        // Offsets ox+1 … n−1 slide forward, the segment starts at offset ox+1.
        this.segment(i, len, kind === 2);
        t.piece(i + ox + 1, n - ox - 1);
        t.commit(i + ox + 1);
      }
    } else if (kind === 3) {
      this.touch(i);
      this.touch(i + 1);
      this.touch(i + p1);
      this.touch(i + p1 + 1);
      t.begin();
      t.piece(i + p1, p1, true);
      t.commit(i + 1);
    } else if (kind === 4) {
      this.touch(i - 1);
      this.touch(i);
      this.touch(i + p1 - 1);
      this.touch(i + p1);
      t.begin();
      t.piece(i - 1, n - p1, true);
      t.commit(i + p1);
    } else {
      this.touch(i);
      this.touch(i + 1);
      this.touch(i + p1 - 1);
      this.touch(i + p1);
      this.touch(i + p2);
      this.touch(i + p2 + 1);
      t.begin();
      t.piece(i + p1, p2 - p1 + 1);
      t.piece(i + 1, p1 - 1);
      t.commit(i + 1);
    }
  }

  /** Appends the `len` stops from position i, reversed or not, to the tour's rewrite. */
  private segment(i: number, len: number, reversed: boolean): void {
    if (reversed) this.tour.piece(i + len - 1, len, true);
    else this.tour.piece(i, len);
  }

  /** Activates the stop at position p, −n ≤ p < 2n. */
  private touch(p: number): void {
    this.push(this.tour.order[wrap(p, this.tour.n)] as number);
  }
}

/** Position p (−n ≤ p < 2n) brought into 0 … n−1 without a division. */
function wrap(p: number, n: number): number {
  return p < 0 ? p + n : p >= n ? p - n : p;
}
