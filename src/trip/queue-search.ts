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
 * the stops it touched need examining, which is what makes thousands of kicks cheap.
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

  constructor(
    readonly tour: TourState,
    readonly cand: Candidates,
  ) {
    this.queue = new Int32Array(tour.n);
    this.queued = new Uint8Array(tour.n);
  }

  /** Marks a stop active. */
  push(stop: number): void {
    if (this.queued[stop] === 1) return;
    this.queued[stop] = 1;
    const n = this.tour.n;
    this.queue[(this.head + this.size) % n] = stop;
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
      this.head = (this.head + 1) % n;
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

  /** Or-opt of the segment of `len` stops starting at a (kind 1 forward, 2 reversed; p1 = len, p2 = offset of x). */
  private orOpt(a: number, i: number): void {
    const t = this.tour;
    const { table, n } = t;
    const { succ, pred, k } = this.cand;
    for (let len = 1; len <= 3 && n - len >= 3; len++) {
      const last = (i + len - 1) % n;
      const sL = t.order[last] as number;
      const prev = t.at(i - 1);
      const next = t.at(i + len);
      const remove =
        (table[prev * n + a] as number) + (table[sL * n + next] as number) - (table[prev * n + next] as number);
      const flip = t.backward(i, last) - t.forward(i, last);
      // For a single stop sL = a, so lists 1 and 3 repeat lists 0 and 2.
      for (let list = 0; list < 4; list += len === 1 ? 2 : 1) {
        for (let r = 0; r < k; r++) {
          // Lists 0, 1 give x (the stop before the insertion point); 2, 3 give y (the stop after it).
          const cnd =
            list === 0
              ? pred[a * k + r]
              : list === 1
                ? pred[sL * k + r]
                : list === 2
                  ? succ[sL * k + r]
                  : succ[a * k + r];
          let ox = ((t.pos[cnd as number] as number) - i + n) % n;
          if (list >= 2) ox = (ox + n - 1) % n;
          if (ox < len || ox > n - 2) continue;
          const x = t.at(i + ox);
          const y = t.at(i + ox + 1);
          const xy = table[x * n + y] as number;
          this.take((table[x * n + a] as number) + (table[sL * n + y] as number) - xy - remove, 1, len, ox);
          this.take((table[x * n + sL] as number) + (table[a * n + y] as number) - xy - remove + flip, 2, len, ox);
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
    const { table, n } = t;
    const { succ, pred, k } = this.cand;
    const b = t.at(i + 1);
    const r = t.at(i - 1);
    const ab = table[a * n + b] as number;
    const ra = table[r * n + a] as number;
    for (let s = 0; s < k; s++) {
      const c = succ[a * k + s] as number;
      const oc = ((t.pos[c] as number) - i + n) % n;
      if (oc >= 2 && oc <= n - 2) {
        const d = t.at(i + oc + 1);
        const u = (i + 1) % n;
        const v = (i + oc) % n;
        const delta =
          (table[a * n + c] as number) +
          (table[b * n + d] as number) -
          ab -
          (table[c * n + d] as number) +
          t.backward(u, v) -
          t.forward(u, v);
        this.take(delta, 3, oc, 0);
      }
      const q = pred[a * k + s] as number;
      const oq = ((t.pos[q] as number) - i + n) % n;
      if (oq >= 2 && oq <= n - 2) {
        const p = t.at(i + oq - 1);
        const u = (i + oq) % n;
        const v = (i + n - 1) % n;
        const delta =
          (table[p * n + r] as number) +
          (table[q * n + a] as number) -
          (table[p * n + q] as number) -
          ra +
          t.backward(u, v) -
          t.forward(u, v);
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
    const { table, n } = t;
    const { succ, pred, k } = this.cand;
    const b = t.at(i + 1);
    const ab = table[a * n + b] as number;
    for (let s = 0; s < k; s++) {
      const d = succ[a * k + s] as number;
      const dOff = ((t.pos[d] as number) - i + n) % n;
      if (dOff < 2) continue;
      const c = t.at(i + dOff - 1);
      const opened = (table[a * n + d] as number) - ab - (table[c * n + d] as number);
      if (opened >= 0) continue;
      // e (the end of C, joined to b) among b's candidate predecessors: O(k²) per stop instead of O(k·n).
      for (let r = 0; r < k; r++) {
        const e = pred[b * k + r] as number;
        const q = ((t.pos[e] as number) - i + n) % n;
        if (q < dOff) continue;
        const f = t.at(i + q + 1);
        this.take(
          opened + (table[e * n + b] as number) + (table[c * n + f] as number) - (table[e * n + f] as number),
          5,
          dOff,
          q,
        );
      }
    }
  }

  /** Applies the recorded move at position i and activates the stops at its changed arcs. */
  private apply(i: number): void {
    const t = this.tour;
    const n = t.n;
    const { kind, p1, p2 } = this;
    const touch = (...offsets: number[]) => {
      for (const o of offsets) this.push(t.at(i + o));
    };
    if (kind === 1 || kind === 2) {
      const len = p1;
      const ox = p2;
      touch(-1, 0, len - 1, len, ox, ox + 1);
      t.begin();
      t.piece(i + len, ox - len + 1);
      if (kind === 1) t.piece(i, len);
      else t.piece(i + len - 1, len, true);
      t.piece(i + ox + 1, n - ox - 1);
    } else if (kind === 3) {
      touch(0, 1, p1, p1 + 1);
      t.begin();
      t.piece(i + p1, p1, true);
      t.piece(i + p1 + 1, n - p1);
    } else if (kind === 4) {
      touch(-1, 0, p1 - 1, p1);
      const len = n - p1;
      t.begin();
      t.piece(i - 1, len, true);
      t.piece(i, n - len);
    } else {
      touch(0, 1, p1 - 1, p1, p2, p2 + 1);
      t.begin();
      t.piece(i + p2 + 1, n - p2);
      t.piece(i + p1, p2 - p1 + 1);
      t.piece(i + 1, p1 - 1);
    }
    t.commit();
  }
}
