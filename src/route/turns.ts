import type { RoadGraph } from './graph.js';

/**
 * Turn restrictions of one vehicle, as searches apply them over *states*.
 *
 * Via-node restrictions (edge paths of two edges) are transitions between arcs at the via node: `from` arc entering
 * the node, `to` arc leaving it; `no_*` forbids the listed transitions, `only_*` allows from that arc only the listed
 * ones.
 *
 * Via-way restrictions (edge paths from → via… → to of three or more edges) need memory of how a vehicle entered
 * the via way(s), which plain arc states do not have. As OSRM does (its restriction graph duplicates the edge-based
 * nodes of via ways), states are expanded: states 0 .. 2E-1 are the arcs themselves, and states from 2E on are
 * *copies* of via arcs, one per set of restriction prefixes a vehicle on that arc has driven (a copy of arc x_k for
 * a vehicle that came x_0 → … → x_k along some restriction's path). A transition from state s onto arc b leads to
 * state `next(s, b)`: b itself, a copy of b (the path goes on along b), or -1 (forbidden: a `no_*` path would be
 * completed, or an `only_*` path whose via ways were all driven is left at its last via node). Leaving the via
 * way(s) before their end drops the restriction, as in OSRM, where only the turn at the end of the via path is
 * restricted. Prefixes of overlapping paths are tracked together (the copy's set), so every restriction is applied
 * however paths overlap; a via-node restriction applies to the arc whatever state it is in.
 *
 * Copies of one arc are numbered consecutively (`copyArc` ascending), so a backward search finds the states that can
 * precede a state t of arc b among the arcs a entering b's tail and their copies: those with next(s, b) = t.
 * Sources start on plain arc states (a route starting on the `from` edge is bound by the restriction as OSRM's is).
 */
export class TurnTable {
  /** Number of via-node restrictions applied. */
  readonly count: number;
  /** Via-way restrictions of this vehicle enforced through copy states. */
  readonly viaWay: number;
  /** Via-way restrictions of this vehicle whose edges do not chain into a path of arcs (not applied). */
  readonly ignoredViaWay: number;
  /** Number of arcs (2 × edges): states below it are plain arcs. */
  readonly arcs: number;
  /** Number of states: arcs plus copies. */
  readonly states: number;
  /** Per copy (state - arcs): the arc it is a copy of; ascending, so the copies of an arc are consecutive. */
  readonly copyArc: Uint32Array;
  /**
   * The states that have a row of the transition table, ascending: state ruled[r] has row r, listing arcs
   * `ruleTo[ruleFirst[r] .. ruleFirst[r + 1] - 1]` with the state each leads to in `ruleNext` (-1 = forbidden); arcs
   * not listed lead to themselves, and so does every transition from a state without a row.
   */
  readonly ruled: Uint32Array;
  readonly ruleFirst: Uint32Array;
  readonly ruleTo: Uint32Array;
  readonly ruleNext: Int32Array;
  /**
   * One bit per state: set when it has a row; and one per arc: set when it has copies. A few states and arcs of
   * millions have either, so searches test these bits (1/8 B each) per state (`hasRow`, `copyCount`) and look the few
   * up only where one is set, rather than read per-state rows and per-arc copy offsets (4 B each: DenseTurns, which
   * only the WebAssembly core's memory holds).
   */
  private readonly ruledBits: Uint32Array;
  private readonly copiedBits: Uint32Array;

  constructor(graph: RoadGraph, profile: number) {
    const g = graph;
    const A = (this.arcs = 2 * g.edgeCount);
    // Via-node restrictions, per `from` arc: the arcs it may turn onto only (`only_*`) or not (`no_*`).
    const forbidden = new Map<number, number[]>();
    const only = new Map<number, number[]>();
    const allowed = (from: number, to: number) => {
      const yes = only.get(from);
      if (yes && !yes.includes(to)) return false;
      const no = forbidden.get(from);
      return !(no && no.includes(to));
    };
    const bit = 1 << profile;
    let ignored = 0;
    let count = 0;
    /** Via-way restrictions as arc paths x_0 (from) … x_n (to), with their kind. */
    const paths: { x: number[]; only: boolean }[] = [];
    for (let r = 0; r + 1 < g.turnFirst.length; r++) {
      if (!(g.turnMask[r]! & bit)) continue;
      const lo = g.turnFirst[r]!;
      const hi = g.turnFirst[r + 1]!;
      if (hi - lo > 2) {
        const x = arcPath(g, Array.from(g.turnEdges.subarray(lo, hi)));
        // Progress along a path is counted in 6 bits (see `expand`); longer paths are not applied.
        if (x && x.length < 64) paths.push({ x, only: g.turnKind[r] === 1 });
        else ignored++;
        continue;
      }
      if (hi - lo !== 2) continue;
      const e1 = g.turnEdges[lo]!;
      const e2 = g.turnEdges[lo + 1]!;
      let applied = false;
      for (const v of sharedNodes(g, e1, e2)) {
        for (const from of [2 * e1, 2 * e1 + 1]) {
          if (g.edgeNodes[(from & ~1) + 1 - (from & 1)] !== v) continue;
          for (const to of [2 * e2, 2 * e2 + 1]) {
            if (g.edgeNodes[(to & ~1) + (to & 1)] !== v) continue;
            const map = g.turnKind[r] === 1 ? only : forbidden;
            const list = map.get(from);
            if (list) list.push(to);
            else map.set(from, [to]);
            applied = true;
          }
        }
      }
      if (applied) count++;
    }
    this.ignoredViaWay = ignored;
    this.viaWay = paths.length;
    this.count = count;

    // States: arcs, then copies found breadth-first from the paths' first arcs (temporary ids A, A + 1, …).
    const startsAt = new Map<number, number[]>();
    paths.forEach((p, i) => {
      const list = startsAt.get(p.x[0]!);
      if (list) list.push(i);
      else startsAt.set(p.x[0]!, [i]);
    });
    const copyKey = new Map<string, number>();
    const copies: { arc: number; progress: number[] }[] = [];
    const rows = new Map<number, [number, number][]>();
    const expand = (s: number, a: number, progress: number[]) => {
      // Active prefixes: those carried by the state, and every path starting with arc a (progress 0).
      const active = progress.slice();
      for (const p of startsAt.get(a) ?? []) active.push(p * 64);
      const h = g.edgeNodes[(a & ~1) + 1 - (a & 1)]!;
      const row: [number, number][] = [];
      for (let i = g.adjFirst[h]!; i < g.adjFirst[h + 1]!; i++) {
        const b = g.adjArc[i]!;
        let t = allowed(a, b) ? b : -1;
        const next: number[] = [];
        for (const tok of active) {
          if (t < 0) break;
          const { x, only } = paths[tok >> 6]!;
          const k = tok & 63;
          const n = x.length - 1;
          if (k + 1 === n) {
            if (only ? b !== x[n] : b === x[n]) t = -1;
          } else if (b === x[k + 1]) {
            next.push(tok + 1);
          }
        }
        if (t >= 0 && next.length > 0) {
          next.sort((p, q) => p - q);
          const key = `${b}:${next.join(',')}`;
          let c = copyKey.get(key);
          if (c === undefined) {
            c = A + copies.length;
            copyKey.set(key, c);
            copies.push({ arc: b, progress: next });
          }
          t = c;
        }
        if (t !== b) row.push([b, t]);
      }
      if (row.length > 0) rows.set(s, row);
    };
    // Arcs with a row: those some restriction starts from, in ascending order (the copies' discovery order), found
    // from the restrictions themselves rather than by a scan of every arc.
    const starts = [...new Set([...only.keys(), ...forbidden.keys(), ...startsAt.keys()])].sort((p, q) => p - q);
    for (const a of starts) expand(a, a, []);
    for (let i = 0; i < copies.length; i++) expand(A + i, copies[i]!.arc, copies[i]!.progress);

    // Number copies grouped by arc (stable: discovery order within an arc).
    const order = copies.map((_, i) => i).sort((i, j) => copies[i]!.arc - copies[j]!.arc || i - j);
    const id = new Int32Array(copies.length);
    order.forEach((i, k) => (id[i] = A + k));
    const final = (t: number) => (t >= A ? id[t - A]! : t);
    const S = (this.states = A + copies.length);
    this.copyArc = Uint32Array.from(order, (i) => copies[i]!.arc);
    this.copiedBits = new Uint32Array((A + 31) >>> 5);
    for (const c of copies) this.copiedBits[c.arc >>> 5]! |= 1 << (c.arc & 31);
    const first: number[] = [0];
    const to: number[] = [];
    const next: number[] = [];
    // Rows in state order: the states that have one (few), not a lookup per state.
    const withRow = [...rows.keys()].map(final).sort((p, q) => p - q);
    this.ruledBits = new Uint32Array((S + 31) >>> 5);
    for (const s of withRow) {
      const row = rows.get(s < A ? s : A + order[s - A]!)!;
      this.ruledBits[s >>> 5]! |= 1 << (s & 31);
      for (const [b, t] of row) {
        to.push(b);
        next.push(t < 0 ? -1 : final(t));
      }
      first.push(to.length);
    }
    this.ruled = Uint32Array.from(withRow);
    this.ruleFirst = Uint32Array.from(first);
    this.ruleTo = Uint32Array.from(to);
    this.ruleNext = Int32Array.from(next);
  }

  /** The arc of state s. */
  arcOf(s: number): number {
    return s < this.arcs ? s : this.copyArc[s - this.arcs]!;
  }

  /** True when state s has a row of the transition table (see `ruled`). */
  hasRow(s: number): boolean {
    return ((this.ruledBits[s >>> 5]! >>> (s & 31)) & 1) === 1;
  }

  /** State s's row of the transition table (see `ruled`), or -1 when every transition from it leads to the plain arc. */
  ruleOf(s: number): number {
    return this.hasRow(s) ? lowerBound(this.ruled, s) : -1;
  }

  /** Number of copies of arc a. */
  copyCount(a: number): number {
    if (((this.copiedBits[a >>> 5]! >>> (a & 31)) & 1) === 0) return 0;
    return lowerBound(this.copyArc, a + 1) - lowerBound(this.copyArc, a);
  }

  /** Copy number (state - arcs) of arc a's first copy when it has copies (copyCount). */
  firstCopy(a: number): number {
    return lowerBound(this.copyArc, a);
  }

  /** The state that the transition from state s onto arc b (leaving the head of s's arc) leads to; -1 when forbidden. */
  next(s: number, b: number): number {
    const r = this.ruleOf(s);
    if (r < 0) return b;
    for (let i = this.ruleFirst[r]!; i < this.ruleFirst[r + 1]!; i++)
      if (this.ruleTo[i] === b) return this.ruleNext[i]!;
    return b;
  }

  /** Writes DenseTurns into `out` (every element: arrays of `states` and `arcs + 1` elements; the core's memory). */
  fillDense(out: DenseTurns): void {
    out.rule.fill(-1);
    this.ruled.forEach((s, r) => (out.rule[s] = r));
    const copyFirst = out.copyFirst;
    copyFirst.fill(0);
    for (const a of this.copyArc) copyFirst[a + 1]!++;
    for (let a = 0; a < this.arcs; a++) copyFirst[a + 1]! += copyFirst[a]!;
  }
}

/** A TurnTable's rows and copies by state and arc, as the WebAssembly core's searches index them (fillDense). */
export interface DenseTurns {
  /** Per state: its row of the transition table (TurnTable.ruled), or -1 when it has none. */
  rule: Int32Array;
  /** arcs + 1 offsets: the copies of arc a are states arcs + copyFirst[a] .. arcs + copyFirst[a + 1] - 1. */
  copyFirst: Uint32Array;
}

/** The first index of ascending `list` whose value is at least x (list.length when none is). */
function lowerBound(list: Uint32Array, x: number): number {
  let lo = 0,
    hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Arcs x_0 … x_n driving along edges e_0 … e_n in order (each arc leaving the node the previous one enters), or null
 * when the edges do not chain. The first direction of e_0 that chains wins.
 */
function arcPath(g: RoadGraph, edges: number[]): number[] | null {
  for (const d0 of [0, 1]) {
    const x = [2 * edges[0]! + d0];
    for (let k = 1; k < edges.length; k++) {
      const prev = x[k - 1]!;
      const v = g.edgeNodes[(prev & ~1) + 1 - (prev & 1)]!;
      const e = edges[k]!;
      const a = g.edgeNodes[2 * e] === v ? 2 * e : g.edgeNodes[2 * e + 1] === v ? 2 * e + 1 : -1;
      if (a < 0) break;
      x.push(a);
    }
    if (x.length === edges.length) return x;
  }
  return null;
}

function sharedNodes(g: RoadGraph, e1: number, e2: number): number[] {
  const out: number[] = [];
  for (const u of [g.edgeNodes[2 * e1]!, g.edgeNodes[2 * e1 + 1]!]) {
    if ((u === g.edgeNodes[2 * e2] || u === g.edgeNodes[2 * e2 + 1]) && !out.includes(u)) out.push(u);
  }
  return out;
}
