import { arcTail, type ArcCosts } from './costs.js';
import type { RoadGraph } from './graph.js';
import { IndexHeap } from './heap.js';
import { Carver, LabelMemory, type LabelHolder } from './label-memory.js';
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
 * Weight, seconds and metres of a path, each added in path order, so every caller that measures the same path gets
 * the same floating-point totals: the part of the first arc driven, then per transition its turn (ArcCosts.turnWeight
 * / turnDur; none for metres) before the arc it leads to, the last arc's part driven last. One pass over the arcs.
 */
export function pathMeasure(p: ArcPath, c: ArcCosts): { weight: number; duration: number; distance: number } {
  const arcs = p.arcs,
    n = arcs.length,
    g = c.graph,
    W = c.weight,
    D = c.dur,
    len = g.edgeLen;
  const first = arcs[0]!;
  if (n === 1) {
    const f = p.to - p.from;
    return { weight: f * W[first]!, duration: f * D[first]!, distance: f * len[first >> 1]! };
  }
  const f = 1 - p.from;
  let weight = f * W[first]!,
    duration = f * D[first]!,
    distance = f * len[first >> 1]!;
  for (let i = 1; i < n; i++) {
    const a = arcs[i - 1]!,
      b = arcs[i]!;
    const td = c.turnDur(a, b, arcTail(g, b));
    weight += c.turnWeightOf(td, a, b);
    duration += td;
    if (i < n - 1) {
      weight += W[b]!;
      duration += D[b]!;
      distance += len[b >> 1]!;
    } else {
      weight += p.to * W[b]!;
      duration += p.to * D[b]!;
      distance += p.to * len[b >> 1]!;
    }
  }
  return { weight, duration, distance };
}

/**
 * The route that stays on one edge, from a source ahead to a target on the same edge (the lighter direction when
 * both are), by per-arc weights `w`: its arc and weight, or arc -1 and weight Infinity when there is none.
 */
export function directOnEdge(src: Endpoint, dst: Endpoint, w: Float64Array): { arc: number; weight: number } {
  let arc = -1,
    weight = Infinity;
  if (src.edge !== dst.edge) return { arc, weight };
  for (let a = 2 * src.edge; a <= 2 * src.edge + 1; a++) {
    const from = posOnArc(src, a),
      to = posOnArc(dst, a);
    if (src.only !== undefined && a !== src.only) continue;
    if (w[a] !== Infinity && to >= from && (to - from) * w[a]! < weight) {
      weight = (to - from) * w[a]!;
      arc = a;
    }
  }
  return { arc, weight };
}

/** Labels of one search direction, reused across queries through a generation counter. */
class Side {
  readonly dist: Float64Array;
  /** Forward: previous arc (-1 at a source arc). Backward: next arc, or -1 - targetArc at a target seed. */
  readonly parent: Int32Array;
  readonly seen: Uint32Array;
  readonly done: Uint32Array;
  readonly heap: IndexHeap;
  /** Laid in `carve` for `n` states (36 bytes each), no state seen or done in any generation. */
  constructor(n: number, carve: Carver) {
    this.dist = carve.f64(n);
    this.parent = carve.i32(n);
    this.seen = carve.u32(n).fill(0);
    this.done = carve.u32(n).fill(0);
    this.heap = new IndexHeap(n, carve);
  }
}

/** Bytes of both sides' labels and heaps for `n` states (72 per state: per side two 8-byte and five 4-byte arrays). */
export function sidesBytes(n: number): number {
  return Carver.bytes(n, 4, 10);
}

/** The labels and heaps of both search sides (72 bytes per state). */
interface SideLabels {
  fwd: Side;
  bwd: Side;
}

/** The forward duration and distance labels of one-to-many searches (16 bytes per state). */
interface ManyLabels {
  fdur: Float64Array;
  flen: Float64Array;
}

/**
 * Where ArcSearches keep their labels, with the generation that marks a label current: laid by the first search
 * (a router that answers with the WebAssembly core or a hierarchy never pays for them) and laid anew, larger, for a
 * search over more states. A router's searches of every vehicle and weighting share one set (Router.searchLabels:
 * 13.6 MB on whole HCMC, which each context held for itself before): a router runs one search at a time, each search
 * starts a new generation, so no search reads a label another one left, and a search's labels are read (ArcSearch
 * joinAt) only before the router's next search, as they were when each context had its own. The sides lie in a
 * LabelMemory, a router's shared with its CCH queries and tables: a search laid after another holder wrote there
 * starts from zeroed generations.
 */
export class SearchLabels implements LabelHolder {
  private sides: SideLabels | null = null;
  /** The most states a search asked for (the sides are laid for that many). */
  private states = 0;
  /** Made by the first one-to-many search only (a CCH pack's tables never run one: 2.5 MB on whole HCMC). */
  private many: ManyLabels | null = null;
  private gen = 0;

  /** @param memory where the sides lie (default: a block of their own) */
  constructor(private readonly memory = new LabelMemory()) {}

  /** The labels of the search under way (see `next`), for at least `states` states. */
  of(states: number): SideLabels {
    if (!this.sides || this.sides.fwd.dist.length < states) throw new Error('no search under way over these states');
    return this.sides;
  }

  drop(): void {
    this.sides = null;
  }

  /**
   * The one-to-many labels, for at least `states` states. Read only at states the search's forward side has seen in
   * its generation, so new ones need no reset.
   */
  manyOf(states: number): ManyLabels {
    if (!this.many || this.many.fdur.length < states)
      this.many = { fdur: new Float64Array(states), flen: new Float64Array(states) };
    return this.many;
  }

  /** Starts a search over `states` states: its generation, with both heaps empty. */
  next(states: number): number {
    if (!this.sides || this.states < states) {
      this.states = Math.max(this.states, states);
      const carve = this.memory.take(this, sidesBytes(this.states));
      this.sides = { fwd: new Side(this.states, carve), bwd: new Side(this.states, carve) };
      this.gen = 0;
    }
    const { fwd, bwd } = this.sides;
    fwd.heap.clear();
    bwd.heap.clear();
    if (++this.gen === 0xffffffff) {
      for (const side of [fwd, bwd]) {
        side.seen.fill(0);
        side.done.fill(0);
      }
      this.gen = 1;
    }
    return this.gen;
  }
}

/**
 * Exact edge-based route search for one vehicle and weighting. States are arcs and the copies of via arcs that
 * via-way restrictions add (TurnTable: state s drives arc `turns.arcOf(s)`); a forward label is the weight from
 * the source to the head of the state's arc, a backward label the weight from there to the target. A transition
 * from arc a (entering node v) to arc b (leaving v) is refused when v is a barrier for the vehicle and b does not
 * turn back along a's edge (OSRM turns round before a barrier it may not pass), when b turns back along a's edge
 * and v is neither a barrier nor a dead end (OSRM's rule: U-turns only where no other arc leaves), and when a
 * turn restriction forbids it (TurnTable.next is -1); an allowed transition leads to state `turns.next(s, b)` and
 * adds its turn weight (ArcCosts.turnWeight) and, in one-to-many searches, its turn seconds. Searches never
 * allocate per settled state; each state is settled at most once per side, which bounds every query by
 * 2 × states settles. Paths are returned as arcs.
 */
export class ArcSearch {
  readonly graph: RoadGraph;
  /** Arcs settled by the last query (both sides). */
  settled = 0;

  /**
   * @param labels where the searches keep their labels: by default their own; a router passes the one set its
   *   searches of every vehicle and weighting share (see SearchLabels)
   */
  constructor(
    readonly costs: ArcCosts,
    readonly turns: TurnTable,
    private readonly labels = new SearchLabels(),
  ) {
    this.graph = costs.graph;
  }

  private get fwd(): Side {
    return this.labels.of(this.turns.states).fwd;
  }
  private get bwd(): Side {
    return this.labels.of(this.turns.states).bwd;
  }
  /** Forward duration / distance labels of one-to-many searches. */
  private get fdur(): Float64Array {
    return this.labels.manyOf(this.turns.states).fdur;
  }
  private get flen(): Float64Array {
    return this.labels.manyOf(this.turns.states).flen;
  }

  /**
   * Seeds the backward side at the states that may turn onto target arc b (leaving node u), each with the turn's
   * weight plus `d`, the part of b up to the target; `pot`: the A* potential of u (0 without). Returns the best
   * forward + backward sum met at a seed (Infinity when none) and sets `this.seedMeet`.
   */
  private seedTarget(b: number, u: number, d: number, pu: number, gen: number): number {
    const c = this.costs,
      g = this.graph,
      w = c.weight,
      T = this.turns,
      A = T.arcs;
    const F = this.fwd,
      B = this.bwd;
    let best = Infinity;
    for (let i = g.adjFirst[u]!; i < g.adjFirst[u + 1]!; i++) {
      const a = g.adjArc[i]! ^ 1;
      if (w[a] === Infinity || !c.openTurn(a, b, u)) continue;
      const da = c.turnWeight(a, b, u) + d;
      const n = T.copyCount(a),
        c0 = n > 0 ? T.firstCopy(a) : 0;
      for (let k = -1; k < n; k++) {
        const s = k < 0 ? a : A + c0 + k;
        if (T.next(s, b) < 0) continue;
        if (B.seen[s] === gen && B.dist[s]! <= da) continue;
        B.dist[s] = da;
        B.parent[s] = -1 - b;
        B.seen[s] = gen;
        B.heap.push(s, da - pu);
        if (F.seen[s] === gen && F.dist[s]! + da < best) {
          best = F.dist[s]! + da;
          this.seedMeet = s;
        }
      }
    }
    return best;
  }

  /** State where the last seedTarget met the forward side best. */
  private seedMeet = -1;

  private nextGen(): number {
    this.settled = 0;
    return this.labels.next(this.turns.states);
  }

  /** Best route between two endpoints (bidirectional A*), or null when none exists. */
  route(src: Endpoint, dst: Endpoint): ArcPath | null {
    const g = this.graph;
    const c = this.costs;
    const w = c.weight;
    const en = g.edgeNodes;
    const adjFirst = g.adjFirst,
      adjArc = g.adjArc;
    const gen = this.nextGen();
    const F = this.fwd,
      B = this.bwd;
    const xs = src.lon * c.mPerLon,
      ys = src.lat * c.mPerLat;
    const xt = dst.lon * c.mPerLon,
      yt = dst.lat * c.mPerLat;
    const { nodeX, nodeY } = c.projection(),
      perMetre = c.boundPerMetre;
    // Half the difference of the lower bounds of the weight to the target and from the source (consistent both ways).
    const bound = (v: number, x: number, y: number) => {
      const dx = nodeX[v]! - x,
        dy = nodeY[v]! - y;
      return Math.sqrt(dx * dx + dy * dy) * perMetre;
    };
    const pot = (v: number) => (bound(v, xt, yt) - bound(v, xs, ys)) / 2;
    const { arc: direct, weight: directWeight } = directOnEdge(src, dst, w);
    let best = directWeight;
    let meet = -1;
    for (let a = 2 * src.edge; a <= 2 * src.edge + 1; a++) {
      if (w[a] === Infinity || (src.only !== undefined && a !== src.only)) continue;
      const d = (1 - posOnArc(src, a)) * w[a]!;
      F.dist[a] = d;
      F.parent[a] = -1;
      F.seen[a] = gen;
      F.heap.push(a, d + pot(en[(a & ~1) + 1 - (a & 1)]!));
    }
    for (let b = 2 * dst.edge; b <= 2 * dst.edge + 1; b++) {
      if (w[b] === Infinity) continue;
      const u = en[(b & ~1) + (b & 1)]!;
      const m = this.seedTarget(b, u, posOnArc(dst, b) * w[b]!, pot(u), gen);
      if (m < best) {
        best = m;
        meet = this.seedMeet;
      }
    }
    const T = this.turns,
      A = T.arcs,
      copyArc = T.copyArc;
    const FH = F.heap,
      BH = B.heap;
    while (FH.size > 0 && BH.size > 0) {
      const kf = FH.minKey(),
        kb = BH.minKey();
      if (kf + kb >= best) break;
      this.settled++;
      if (kf <= kb) {
        const s = FH.pop();
        F.done[s] = gen;
        const a = s < A ? s : copyArc[s - A]!;
        const h = en[(a & ~1) + 1 - (a & 1)]!;
        // At a barrier only the U-turn; elsewhere U-turns only at dead ends (ArcCosts.openTurn).
        const blocked = c.blocked[h] === 1,
          uturn = blocked || c.outOpen[h] === 1;
        const da = F.dist[s]!;
        const ruled = T.hasRow(s);
        for (let i = adjFirst[h]!; i < adjFirst[h + 1]!; i++) {
          const b = adjArc[i]!;
          const wb = w[b]!;
          if (wb === Infinity) continue;
          if (a >> 1 === b >> 1 ? !uturn : blocked) continue;
          const t = ruled ? T.next(s, b) : b;
          if (t < 0 || F.done[t] === gen) continue;
          const nd = da + c.turnWeight(a, b, h) + wb;
          if (F.seen[t] === gen && nd >= F.dist[t]!) continue;
          F.dist[t] = nd;
          F.parent[t] = s;
          F.seen[t] = gen;
          FH.push(t, nd + pot(en[(b & ~1) + 1 - (b & 1)]!));
          if (B.seen[t] === gen && nd + B.dist[t]! < best) {
            best = nd + B.dist[t]!;
            meet = t;
          }
        }
      } else {
        const t = BH.pop();
        B.done[t] = gen;
        const b = t < A ? t : copyArc[t - A]!;
        const u = en[(b & ~1) + (b & 1)]!;
        const blocked = c.blocked[u] === 1,
          uturn = blocked || c.outOpen[u] === 1;
        const db = B.dist[t]! + w[b]!;
        const pu = pot(u);
        for (let i = adjFirst[u]!; i < adjFirst[u + 1]!; i++) {
          const a = adjArc[i]! ^ 1;
          if (w[a] === Infinity) continue;
          if (a >> 1 === b >> 1 ? !uturn : blocked) continue;
          const nd = c.turnWeight(a, b, u) + db;
          // The states of arc a whose transition onto b leads to t: a itself and its copies.
          const n = T.copyCount(a),
            c0 = n > 0 ? T.firstCopy(a) : 0;
          for (let k = -1; k < n; k++) {
            const s = k < 0 ? a : A + c0 + k;
            if (B.done[s] === gen || T.next(s, b) !== t) continue;
            if (B.seen[s] === gen && nd >= B.dist[s]!) continue;
            B.dist[s] = nd;
            B.parent[s] = t;
            B.seen[s] = gen;
            BH.push(s, nd - pu);
            if (F.seen[s] === gen && nd + F.dist[s]! < best) {
              best = nd + F.dist[s]!;
              meet = s;
            }
          }
        }
      }
    }
    if (best === Infinity) return null;
    if (meet < 0) return { arcs: [direct], from: posOnArc(src, direct), to: posOnArc(dst, direct), weight: best };
    return this.joinAt(meet, src, dst, best);
  }

  /**
   * Alternative-route candidates: runs plain forward and backward searches to every state whose label is at most
   * `limit`, and returns the states settled by both (with their arc) and their through weight (forward + backward
   * label), ascending. `joinAt` turns one into a path until the next search reuses the labels.
   */
  viaCandidates(src: Endpoint, dst: Endpoint, limit: number): { state: number; arc: number; weight: number }[] {
    const g = this.graph;
    const c = this.costs;
    const w = c.weight;
    const en = g.edgeNodes;
    const adjFirst = g.adjFirst,
      adjArc = g.adjArc;
    const gen = this.nextGen();
    const F = this.fwd,
      B = this.bwd;
    for (let a = 2 * src.edge; a <= 2 * src.edge + 1; a++) {
      if (w[a] === Infinity) continue;
      F.dist[a] = (1 - posOnArc(src, a)) * w[a]!;
      F.parent[a] = -1;
      F.seen[a] = gen;
      F.heap.push(a, F.dist[a]!);
    }
    for (let b = 2 * dst.edge; b <= 2 * dst.edge + 1; b++) {
      if (w[b] === Infinity) continue;
      const u = en[(b & ~1) + (b & 1)]!;
      this.seedTarget(b, u, posOnArc(dst, b) * w[b]!, 0, gen);
    }
    const T = this.turns,
      A = T.arcs,
      copyArc = T.copyArc;
    const out: { state: number; arc: number; weight: number }[] = [];
    while (F.heap.size > 0 && F.heap.minKey() <= limit) {
      const s = F.heap.pop();
      F.done[s] = gen;
      const a = s < A ? s : copyArc[s - A]!;
      const h = en[(a & ~1) + 1 - (a & 1)]!;
      const blocked = c.blocked[h] === 1,
        uturn = blocked || c.outOpen[h] === 1;
      const ruled = T.hasRow(s);
      for (let i = adjFirst[h]!; i < adjFirst[h + 1]!; i++) {
        const b = adjArc[i]!;
        if (w[b] === Infinity || (a >> 1 === b >> 1 ? !uturn : blocked)) continue;
        const t = ruled ? T.next(s, b) : b;
        if (t < 0 || F.done[t] === gen) continue;
        const nd = F.dist[s]! + c.turnWeight(a, b, h) + w[b]!;
        if (F.seen[t] === gen && nd >= F.dist[t]!) continue;
        F.dist[t] = nd;
        F.parent[t] = s;
        F.seen[t] = gen;
        F.heap.push(t, nd);
      }
    }
    while (B.heap.size > 0 && B.heap.minKey() <= limit) {
      const t = B.heap.pop();
      B.done[t] = gen;
      const b = t < A ? t : copyArc[t - A]!;
      if (F.done[t] === gen && F.dist[t]! + B.dist[t]! <= limit)
        out.push({ state: t, arc: b, weight: F.dist[t]! + B.dist[t]! });
      const u = en[(b & ~1) + (b & 1)]!;
      const blocked = c.blocked[u] === 1,
        uturn = blocked || c.outOpen[u] === 1;
      const db = B.dist[t]! + w[b]!;
      for (let i = adjFirst[u]!; i < adjFirst[u + 1]!; i++) {
        const a = adjArc[i]! ^ 1;
        if (w[a] === Infinity || (a >> 1 === b >> 1 ? !uturn : blocked)) continue;
        const nd = c.turnWeight(a, b, u) + db;
        const n = T.copyCount(a),
          c0 = n > 0 ? T.firstCopy(a) : 0;
        for (let k = -1; k < n; k++) {
          const s = k < 0 ? a : A + c0 + k;
          if (B.done[s] === gen || T.next(s, b) !== t) continue;
          if (B.seen[s] === gen && nd >= B.dist[s]!) continue;
          B.dist[s] = nd;
          B.parent[s] = t;
          B.seen[s] = gen;
          B.heap.push(s, nd);
        }
      }
    }
    this.fwd.heap.clear();
    this.bwd.heap.clear();
    return out.sort((x, y) => x.weight - y.weight || x.state - y.state);
  }

  /** The path (as arcs) through state m from the forward and backward labels of the last search. */
  joinAt(m: number, src: Endpoint, dst: Endpoint, weight: number): ArcPath {
    const T = this.turns;
    const arcs: number[] = [];
    for (let s = m; s >= 0; s = this.fwd.parent[s]!) arcs.push(T.arcOf(s));
    arcs.reverse();
    let x = this.bwd.parent[m]!;
    while (x >= 0) {
      arcs.push(T.arcOf(x));
      x = this.bwd.parent[x]!;
    }
    const last = -1 - x;
    arcs.push(last);
    return { arcs, from: posOnArc(src, arcs[0]!), to: posOnArc(dst, last), weight };
  }

  /**
   * One search from `src` to every endpoint of `dsts` (forward Dijkstra, stopped once every target is final).
   * Writes weight, duration (s) and distance (m) per target into the output arrays at `offset + j`; Infinity when
   * unreachable. Durations and distances are added in path order, like `pathMeasure` does for `route`'s paths.
   */
  oneToMany(
    src: Endpoint,
    dsts: readonly Endpoint[],
    out: { weight: Float64Array; dur: Float64Array; dist: Float64Array },
    offset = 0,
  ): void {
    const g = this.graph;
    const c = this.costs;
    const w = c.weight,
      du = c.dur,
      len = g.edgeLen;
    const en = g.edgeNodes;
    const adjFirst = g.adjFirst,
      adjArc = g.adjArc;
    const gen = this.nextGen();
    const F = this.fwd;
    const FD = this.fdur,
      FL = this.flen;
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
          const from = posOnArc(src, b),
            to = posOnArc(p, b);
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
    // Reaching target arc b from state s (labels of s, turn weight and seconds onto b).
    const reach = (s: number, b: number, tw: number, td: number) => {
      const pos = b & 1 ? 1 : 0;
      for (const j of targetsOf.get(b)!) {
        const p = dsts[j]!;
        const f = pos ? 1 - p.t : p.t;
        const cand = F.dist[s]! + tw + f * w[b]!;
        if (cand < out.weight[offset + j]!) {
          out.weight[offset + j] = cand;
          out.dur[offset + j] = FD[s]! + td + f * du[b]!;
          out.dist[offset + j] = FL[s]! + f * len[b >> 1]!;
        }
      }
    };
    const T = this.turns,
      A = T.arcs,
      copyArc = T.copyArc;
    const H = F.heap;
    for (let a = 2 * src.edge; a <= 2 * src.edge + 1; a++) {
      if (w[a] === Infinity) continue;
      const f = 1 - posOnArc(src, a);
      F.dist[a] = f * w[a]!;
      FD[a] = f * du[a]!;
      FL[a] = f * len[a >> 1]!;
      F.parent[a] = -1;
      F.seen[a] = gen;
      H.push(a, F.dist[a]!);
    }
    while (H.size > 0) {
      if (H.minKey() >= bound) break;
      const s = H.pop();
      F.done[s] = gen;
      this.settled++;
      const a = s < A ? s : copyArc[s - A]!;
      const h = en[(a & ~1) + 1 - (a & 1)]!;
      const blocked = c.blocked[h] === 1,
        uturn = blocked || c.outOpen[h] === 1;
      const da = F.dist[s]!;
      const ruled = T.hasRow(s);
      let touched = false;
      for (let i = adjFirst[h]!; i < adjFirst[h + 1]!; i++) {
        const b = adjArc[i]!;
        const wb = w[b]!;
        if (wb === Infinity) continue;
        if (a >> 1 === b >> 1 ? !uturn : blocked) continue;
        const t = ruled ? T.next(s, b) : b;
        if (t < 0) continue;
        const td = c.turnDur(a, b, h);
        const tw = c.turnWeightOf(td, a, b);
        if (B.seen[b] === gen) {
          reach(s, b, tw, td);
          touched = true;
        }
        if (F.done[t] === gen) continue;
        const nd = da + tw + wb;
        if (F.seen[t] === gen && nd >= F.dist[t]!) continue;
        F.dist[t] = nd;
        FD[t] = FD[s]! + td + du[b]!;
        FL[t] = FL[s]! + len[b >> 1]!;
        F.parent[t] = s;
        F.seen[t] = gen;
        H.push(t, nd);
      }
      if (touched) refreshBound();
    }
  }
}
