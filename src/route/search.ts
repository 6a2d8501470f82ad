import type { ArcCosts } from './costs.js';
import type { RoadGraph } from './graph.js';
import { IndexHeap } from './heap.js';
import type { TurnTable } from './turns.js';

/** A point on an edge where a route starts or ends (see Snap; only edge and fraction matter to searches). */
export interface Endpoint {
  edge: number;
  /** Fraction of the edge from its first node, 0..1. */
  t: number;
  /** Degrees; used for the A* bound only. */
  lat: number;
  lon: number;
  /**
   * As a source only: the one arc of the edge the route may leave along (to continue in the direction of arrival at
   * an intermediate destination, i.e. no U-turn there).
   */
  only?: number;
}

/**
 * A route as a sequence of arcs: it starts on `arcs[0]` at fraction `from` of that arc (measured in the arc's own
 * direction) and ends on the last arc at fraction `to`. A single-arc route runs from `from` to `to` on that arc.
 */
export interface ArcPath {
  arcs: number[];
  from: number;
  to: number;
  /** Search weight of the route. */
  weight: number;
}

/** Fraction of an endpoint along arc a, measured in the arc's direction. */
export function posOnArc(p: Endpoint, a: number): number {
  return a & 1 ? 1 - p.t : p.t;
}

/**
 * Sum of a per-arc quantity (weight, duration, or metres when `perEdge`) along a path, in path order, so every
 * caller that adds the same path gets the same floating-point total. `turn(a, b)`, when given, is added for each
 * transition before the arc it leads to (turn weights or seconds, see ArcCosts.turnWeight / turnDur).
 */
export function pathSum(p: ArcPath, values: Float64Array, perEdge = false, turn?: (a: number, b: number) => number): number {
  const n = p.arcs.length;
  const v = (a: number) => values[perEdge ? a >> 1 : a]!;
  if (n === 1) return (p.to - p.from) * v(p.arcs[0]!);
  let s = (1 - p.from) * v(p.arcs[0]!);
  for (let i = 1; i < n; i++) {
    if (turn) s += turn(p.arcs[i - 1]!, p.arcs[i]!);
    s += i < n - 1 ? v(p.arcs[i]!) : p.to * v(p.arcs[i]!);
  }
  return s;
}

/** Labels of one search direction, reused across queries through a generation counter. */
class Side {
  readonly dist: Float64Array;
  /** Forward: previous arc (-1 at a source arc). Backward: next arc, or -1 - targetArc at a target seed. */
  readonly parent: Int32Array;
  readonly seen: Uint32Array;
  readonly done: Uint32Array;
  readonly heap: IndexHeap;
  constructor(n: number) {
    this.dist = new Float64Array(n);
    this.parent = new Int32Array(n);
    this.seen = new Uint32Array(n);
    this.done = new Uint32Array(n);
    this.heap = new IndexHeap(n);
  }
}

/**
 * Exact edge-based route search for one vehicle and weighting. States are arcs; a forward label is the weight from
 * the source to the arc's head, a backward label the weight from the arc's head to the target. A transition from
 * arc a (entering node v) to arc b (leaving v) is refused when v is a barrier for the vehicle, when b turns back
 * along a's edge and v is not a dead end (OSRM's rule: U-turns only where no other arc leaves), and when a turn
 * restriction forbids it; an allowed transition adds its turn weight (ArcCosts.turnWeight) and, in one-to-many
 * searches, its turn seconds. Searches never allocate per settled arc; each arc is settled at most once per side, which
 * bounds every query by 2 × arcs settles.
 */
export class ArcSearch {
  readonly graph: RoadGraph;
  private readonly fwd: Side;
  private readonly bwd: Side;
  /** Forward duration / distance labels of one-to-many searches. */
  private readonly fdur: Float64Array;
  private readonly flen: Float64Array;
  private gen = 0;
  /** Arcs settled by the last query (both sides). */
  settled = 0;

  constructor(readonly costs: ArcCosts, readonly turns: TurnTable) {
    this.graph = costs.graph;
    const n = 2 * this.graph.edgeCount;
    this.fwd = new Side(n);
    this.bwd = new Side(n);
    this.fdur = new Float64Array(n);
    this.flen = new Float64Array(n);
  }

  /** True when the vehicle may go from arc a (entering node v) on to arc b (leaving v). */
  canTurn(a: number, b: number, v: number): boolean {
    const c = this.costs;
    if (c.blocked[v]) return false;
    if (a >> 1 === b >> 1 && c.outOpen[v] !== 1) return false;
    return this.turns.allowed(a, b);
  }

  private nextGen(): number {
    this.fwd.heap.clear();
    this.bwd.heap.clear();
    this.settled = 0;
    if (++this.gen === 0xffffffff) {
      this.fwd.seen.fill(0); this.fwd.done.fill(0); this.bwd.seen.fill(0); this.bwd.done.fill(0);
      this.gen = 1;
    }
    return this.gen;
  }

  /** Best route between two endpoints (bidirectional A*), or null when none exists. */
  route(src: Endpoint, dst: Endpoint): ArcPath | null {
    const g = this.graph;
    const c = this.costs;
    const w = c.weight;
    const en = g.edgeNodes;
    const adjFirst = g.adjFirst, adjArc = g.adjArc;
    const gen = this.nextGen();
    const F = this.fwd, B = this.bwd;
    const xs = src.lon * c.mPerLon, ys = src.lat * c.mPerLat;
    const xt = dst.lon * c.mPerLon, yt = dst.lat * c.mPerLat;
    const pot = (v: number) => (c.bound(v, xt, yt) - c.bound(v, xs, ys)) / 2;
    let best = Infinity;
    let meet = -1;
    let direct = -1;
    // Same edge, target ahead of the source.
    if (src.edge === dst.edge) {
      for (let a = 2 * src.edge; a <= 2 * src.edge + 1; a++) {
        const from = posOnArc(src, a), to = posOnArc(dst, a);
        if (src.only !== undefined && a !== src.only) continue;
        if (w[a] !== Infinity && to >= from && (to - from) * w[a]! < best) {
          best = (to - from) * w[a]!;
          direct = a;
        }
      }
    }
    for (let a = 2 * src.edge; a <= 2 * src.edge + 1; a++) {
      if (w[a] === Infinity || (src.only !== undefined && a !== src.only)) continue;
      const d = (1 - posOnArc(src, a)) * w[a]!;
      F.dist[a] = d; F.parent[a] = -1; F.seen[a] = gen;
      F.heap.push(a, d + pot(en[(a & ~1) + 1 - (a & 1)]!));
    }
    for (let b = 2 * dst.edge; b <= 2 * dst.edge + 1; b++) {
      if (w[b] === Infinity) continue;
      const u = en[(b & ~1) + (b & 1)]!;
      const d = posOnArc(dst, b) * w[b]!;
      for (let i = adjFirst[u]!; i < adjFirst[u + 1]!; i++) {
        const a = adjArc[i]! ^ 1;
        if (w[a] === Infinity || !this.canTurn(a, b, u)) continue;
        const da = c.turnWeight(a, b, u) + d;
        if (B.seen[a] === gen && B.dist[a]! <= da) continue;
        B.dist[a] = da; B.parent[a] = -1 - b; B.seen[a] = gen;
        B.heap.push(a, da - pot(u));
        if (F.seen[a] === gen && F.dist[a]! + da < best) {
          best = F.dist[a]! + da;
          meet = a;
        }
      }
    }
    const FH = F.heap, BH = B.heap;
    while (FH.size > 0 && BH.size > 0) {
      const kf = FH.minKey(), kb = BH.minKey();
      if (kf + kb >= best) break;
      this.settled++;
      if (kf <= kb) {
        const a = FH.pop();
        F.done[a] = gen;
        const h = en[(a & ~1) + 1 - (a & 1)]!;
        if (c.blocked[h]) continue;
        const da = F.dist[a]!;
        for (let i = adjFirst[h]!; i < adjFirst[h + 1]!; i++) {
          const b = adjArc[i]!;
          const wb = w[b]!;
          if (wb === Infinity || F.done[b] === gen) continue;
          if (a >> 1 === b >> 1 && c.outOpen[h] !== 1) continue;
          if (this.turns.flagged[a] && !this.turns.allowed(a, b)) continue;
          const nd = da + c.turnWeight(a, b, h) + wb;
          if (F.seen[b] === gen && nd >= F.dist[b]!) continue;
          F.dist[b] = nd; F.parent[b] = a; F.seen[b] = gen;
          FH.push(b, nd + pot(en[(b & ~1) + 1 - (b & 1)]!));
          if (B.seen[b] === gen && nd + B.dist[b]! < best) {
            best = nd + B.dist[b]!;
            meet = b;
          }
        }
      } else {
        const b = BH.pop();
        B.done[b] = gen;
        const u = en[(b & ~1) + (b & 1)]!;
        if (c.blocked[u]) continue;
        const db = B.dist[b]! + w[b]!;
        const pu = pot(u);
        for (let i = adjFirst[u]!; i < adjFirst[u + 1]!; i++) {
          const a = adjArc[i]! ^ 1;
          if (w[a] === Infinity || B.done[a] === gen) continue;
          if (a >> 1 === b >> 1 && c.outOpen[u] !== 1) continue;
          if (this.turns.flagged[a] && !this.turns.allowed(a, b)) continue;
          const nd = c.turnWeight(a, b, u) + db;
          if (B.seen[a] === gen && nd >= B.dist[a]!) continue;
          B.dist[a] = nd; B.parent[a] = b; B.seen[a] = gen;
          BH.push(a, nd - pu);
          if (F.seen[a] === gen && nd + F.dist[a]! < best) {
            best = nd + F.dist[a]!;
            meet = a;
          }
        }
      }
    }
    if (best === Infinity) return null;
    if (meet < 0) return { arcs: [direct], from: posOnArc(src, direct), to: posOnArc(dst, direct), weight: best };
    return this.joinAt(meet, src, dst, best);
  }

  /**
   * Alternative-route candidates: runs plain forward and backward searches to every arc whose label is at most
   * `limit`, and returns the arcs settled by both with their through weight (forward + backward label), ascending.
   * `joinAt` turns one into a path until the next search reuses the state.
   */
  viaCandidates(src: Endpoint, dst: Endpoint, limit: number): { arc: number; weight: number }[] {
    const g = this.graph;
    const c = this.costs;
    const w = c.weight;
    const en = g.edgeNodes;
    const adjFirst = g.adjFirst, adjArc = g.adjArc;
    const gen = this.nextGen();
    const F = this.fwd, B = this.bwd;
    for (let a = 2 * src.edge; a <= 2 * src.edge + 1; a++) {
      if (w[a] === Infinity) continue;
      F.dist[a] = (1 - posOnArc(src, a)) * w[a]!; F.parent[a] = -1; F.seen[a] = gen;
      F.heap.push(a, F.dist[a]!);
    }
    for (let b = 2 * dst.edge; b <= 2 * dst.edge + 1; b++) {
      if (w[b] === Infinity) continue;
      const u = en[(b & ~1) + (b & 1)]!;
      const d = posOnArc(dst, b) * w[b]!;
      for (let i = adjFirst[u]!; i < adjFirst[u + 1]!; i++) {
        const a = adjArc[i]! ^ 1;
        if (w[a] === Infinity || !this.canTurn(a, b, u)) continue;
        const da = c.turnWeight(a, b, u) + d;
        if (B.seen[a] === gen && B.dist[a]! <= da) continue;
        B.dist[a] = da; B.parent[a] = -1 - b; B.seen[a] = gen;
        B.heap.push(a, da);
      }
    }
    const out: { arc: number; weight: number }[] = [];
    while (F.heap.size > 0 && F.heap.minKey() <= limit) {
      const a = F.heap.pop();
      F.done[a] = gen;
      const h = en[(a & ~1) + 1 - (a & 1)]!;
      for (let i = adjFirst[h]!; i < adjFirst[h + 1]!; i++) {
        const b = adjArc[i]!;
        if (w[b] === Infinity || F.done[b] === gen || !this.canTurn(a, b, h)) continue;
        const nd = F.dist[a]! + c.turnWeight(a, b, h) + w[b]!;
        if (F.seen[b] === gen && nd >= F.dist[b]!) continue;
        F.dist[b] = nd; F.parent[b] = a; F.seen[b] = gen;
        F.heap.push(b, nd);
      }
    }
    while (B.heap.size > 0 && B.heap.minKey() <= limit) {
      const b = B.heap.pop();
      B.done[b] = gen;
      if (F.done[b] === gen && F.dist[b]! + B.dist[b]! <= limit) out.push({ arc: b, weight: F.dist[b]! + B.dist[b]! });
      const u = en[(b & ~1) + (b & 1)]!;
      const db = B.dist[b]! + w[b]!;
      for (let i = adjFirst[u]!; i < adjFirst[u + 1]!; i++) {
        const a = adjArc[i]! ^ 1;
        if (w[a] === Infinity || B.done[a] === gen || !this.canTurn(a, b, u)) continue;
        const nd = c.turnWeight(a, b, u) + db;
        if (B.seen[a] === gen && nd >= B.dist[a]!) continue;
        B.dist[a] = nd; B.parent[a] = b; B.seen[a] = gen;
        B.heap.push(a, nd);
      }
    }
    this.fwd.heap.clear();
    this.bwd.heap.clear();
    return out.sort((x, y) => x.weight - y.weight || x.arc - y.arc);
  }

  /** The path through arc m from the forward and backward labels of the last search. */
  joinAt(m: number, src: Endpoint, dst: Endpoint, weight: number): ArcPath {
    const arcs: number[] = [];
    for (let a = m; a >= 0; a = this.fwd.parent[a]!) arcs.push(a);
    arcs.reverse();
    let x = this.bwd.parent[m]!;
    while (x >= 0) {
      arcs.push(x);
      x = this.bwd.parent[x]!;
    }
    const last = -1 - x;
    arcs.push(last);
    return { arcs, from: posOnArc(src, arcs[0]!), to: posOnArc(dst, last), weight };
  }

  /**
   * One search from `src` to every endpoint of `dsts` (forward Dijkstra, stopped once every target is final).
   * Writes weight, duration (s) and distance (m) per target into the output arrays at `offset + j`; Infinity when
   * unreachable. Durations and distances are added in path order, like `pathSum` does for `route`'s paths.
   */
  oneToMany(src: Endpoint, dsts: readonly Endpoint[], out: { weight: Float64Array; dur: Float64Array; dist: Float64Array }, offset = 0): void {
    const g = this.graph;
    const c = this.costs;
    const w = c.weight, du = c.dur, len = g.edgeLen;
    const en = g.edgeNodes;
    const adjFirst = g.adjFirst, adjArc = g.adjArc;
    const gen = this.nextGen();
    const F = this.fwd;
    const FD = this.fdur, FL = this.flen;
    // Target arcs: arc → indices of targets on it (marked in the backward side's `seen` array).
    const targetsOf = new Map<number, number[]>();
    const B = this.bwd;
    // Targets on edges closed both ways can never be reached and do not hold the search open.
    const active = new Uint8Array(dsts.length);
    for (let j = 0; j < dsts.length; j++) {
      out.weight[offset + j] = Infinity;
      out.dur[offset + j] = Infinity;
      out.dist[offset + j] = Infinity;
      const p = dsts[j]!;
      let open = false;
      for (let b = 2 * p.edge; b <= 2 * p.edge + 1; b++) {
        if (w[b] === Infinity) continue;
        open = true;
        B.seen[b] = gen;
        const list = targetsOf.get(b);
        if (list) list.push(j);
        else targetsOf.set(b, [j]);
        // Same edge, target ahead of the source on this arc.
        if (p.edge === src.edge) {
          const from = posOnArc(src, b), to = posOnArc(p, b);
          if (to >= from && (to - from) * w[b]! < out.weight[offset + j]!) {
            out.weight[offset + j] = (to - from) * w[b]!;
            out.dur[offset + j] = (to - from) * du[b]!;
            out.dist[offset + j] = (to - from) * len[b >> 1]!;
          }
        }
      }
      active[j] = open ? 1 : 0;
    }
    let bound = Infinity;
    const refreshBound = () => {
      bound = 0;
      for (let j = 0; j < dsts.length; j++) {
        if (!active[j]) continue;
        const v = out.weight[offset + j]!;
        if (v === Infinity) {
          bound = Infinity;
          return;
        }
        bound = Math.max(bound, v);
      }
    };
    refreshBound();
    const reach = (a: number, b: number, tw: number, td: number) => {
      const pos = b & 1 ? 1 : 0;
      for (const j of targetsOf.get(b)!) {
        const p = dsts[j]!;
        const f = pos ? 1 - p.t : p.t;
        const cand = F.dist[a]! + tw + f * w[b]!;
        if (cand < out.weight[offset + j]!) {
          out.weight[offset + j] = cand;
          out.dur[offset + j] = FD[a]! + td + f * du[b]!;
          out.dist[offset + j] = FL[a]! + f * len[b >> 1]!;
        }
      }
    };
    const H = F.heap;
    for (let a = 2 * src.edge; a <= 2 * src.edge + 1; a++) {
      if (w[a] === Infinity) continue;
      const f = 1 - posOnArc(src, a);
      F.dist[a] = f * w[a]!; FD[a] = f * du[a]!; FL[a] = f * len[a >> 1]!;
      F.parent[a] = -1; F.seen[a] = gen;
      H.push(a, F.dist[a]!);
    }
    while (H.size > 0) {
      if (H.minKey() >= bound) break;
      const a = H.pop();
      F.done[a] = gen;
      this.settled++;
      const h = en[(a & ~1) + 1 - (a & 1)]!;
      if (c.blocked[h]) continue;
      const da = F.dist[a]!;
      let touched = false;
      for (let i = adjFirst[h]!; i < adjFirst[h + 1]!; i++) {
        const b = adjArc[i]!;
        const wb = w[b]!;
        if (wb === Infinity) continue;
        if (a >> 1 === b >> 1 && c.outOpen[h] !== 1) continue;
        if (this.turns.flagged[a] && !this.turns.allowed(a, b)) continue;
        const td = c.turnDur(a, b, h);
        const tw = c.turnWeightFactor === 0 ? 0 : td;
        if (B.seen[b] === gen) {
          reach(a, b, tw, td);
          touched = true;
        }
        if (F.done[b] === gen) continue;
        const nd = da + tw + wb;
        if (F.seen[b] === gen && nd >= F.dist[b]!) continue;
        F.dist[b] = nd; FD[b] = FD[a]! + td + du[b]!; FL[b] = FL[a]! + len[b >> 1]!;
        F.parent[b] = a; F.seen[b] = gen;
        H.push(b, nd);
      }
      if (touched) refreshBound();
    }
  }
}
