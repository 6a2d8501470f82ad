import type { TurnTable } from '../turns.js';

/**
 * The states every vehicle's metric of one CCH shares: the arcs (0 .. arcs - 1, as in every TurnTable), then each
 * vehicle's copy states of via arcs (its via-way restrictions, TurnTable), vehicle after vehicle. A copy of vehicle
 * p is a vertex of the shared topology that only p's metrics reach: for the others its links weigh Infinity. Copies
 * are few (a handful per via-way restriction), so sharing them costs next to nothing.
 */
export class SharedStates {
  /** Number of arcs. */
  readonly arcs: number;
  /** Number of shared states. */
  readonly size: number;
  /** Per vehicle (profile): the shared number of its first copy state. */
  private readonly base: number[];
  /** Per shared copy (state - arcs): its vehicle. */
  private readonly owner: Uint8Array;

  /** @param tables each vehicle's turn table, indexed by profile */
  constructor(readonly tables: readonly TurnTable[]) {
    this.arcs = tables[0]!.arcs;
    this.base = [];
    let next = this.arcs;
    for (const t of tables) {
      this.base.push(next);
      next += t.states - t.arcs;
    }
    this.size = next;
    this.owner = new Uint8Array(next - this.arcs);
    tables.forEach((t, p) =>
      this.owner.fill(p, this.base[p]! - this.arcs, this.base[p]! - this.arcs + t.states - t.arcs),
    );
  }

  /** The shared number of vehicle p's state s. */
  shared(p: number, s: number): number {
    return s < this.arcs ? s : this.base[p]! + s - this.arcs;
  }

  /** Vehicle p's own number of shared state x, or -1 when x is another vehicle's copy. */
  local(p: number, x: number): number {
    if (x < this.arcs) return x;
    return this.owner[x - this.arcs] === p ? x - this.base[p]! + this.arcs : -1;
  }

  /** The arc of shared state x. */
  arcOf(x: number): number {
    if (x < this.arcs) return x;
    const p = this.owner[x - this.arcs]!;
    return this.tables[p]!.arcOf(x - this.base[p]! + this.arcs);
  }

  /** Shared numbers of every vehicle's copies of arc a. */
  *copies(a: number): Generator<number> {
    for (let p = 0; p < this.tables.length; p++) {
      const t = this.tables[p]!;
      const n = t.copyCount(a),
        c0 = n > 0 ? t.firstCopy(a) : 0;
      for (let k = c0; k < c0 + n; k++) yield this.base[p]! + k;
    }
  }
}
