import type { TurnTable } from '../turns.js';
import { seek } from './arcs.js';

/**
 * The states every vehicle's metric of one CCH shares: the arcs (0 .. arcs - 1, as in every TurnTable), then each
 * vehicle's copy states of via arcs (its via-way restrictions, TurnTable), vehicle after vehicle. A copy of vehicle
 * p is a vertex of the shared topology that only p's metrics reach: for the others its links weigh Infinity. Copies
 * are few (a handful per via-way restriction), so sharing them costs next to nothing.
 *
 * The states keep only each vehicle's copies (their arcs), not its turn table: a table holds about 9 bytes per arc
 * (its per-arc and per-state rows), and a vehicle not routed yet needs none. `table` gives a vehicle's table when its
 * metric is customized.
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
  /** Per vehicle: the arc of each of its copies (TurnTable.copyArc, ascending). */
  private readonly copyArc: Uint32Array[];

  /**
   * @param tables each vehicle's turn table, indexed by profile (read here, not kept)
   * @param table a vehicle's turn table, the same as `tables[p]` (default: that one, kept)
   */
  constructor(
    tables: readonly TurnTable[],
    readonly table: (p: number) => TurnTable = (p) => tables[p]!,
  ) {
    this.arcs = tables[0]!.arcs;
    this.base = [];
    this.copyArc = tables.map((t) => t.copyArc);
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
    return this.copyArc[p]![x - this.base[p]!]!;
  }

  /** Shared numbers of every vehicle's copies of arc a. */
  *copies(a: number): Generator<number> {
    for (let p = 0; p < this.copyArc.length; p++) {
      const arcs = this.copyArc[p]!;
      for (let k = seek(arcs, 0, arcs.length, a); k < arcs.length && arcs[k] === a; k++) yield this.base[p]! + k;
    }
  }
}
