/**
 * Contraction hierarchy query (bidirectional upward Dijkstra with stall-on-demand; many-to-many by buckets).
 *
 * Pack layout, "CH layout v5". Section `ch.index` (JSON) lists the hierarchies:
 *   { version: 5, list: [{ id, kind: 'node' | 'edge', profiles: number[], weighting: 'fastest' | 'shortest',
 *     check: number, states, records, core: number, landmarks: number }] }
 * and hierarchy `id` has five typed-array sections (S states, R records), seven with a core:
 *   ch.<id>.rank   Uint32[S]   contraction order of each state (0 = contracted first), a permutation
 *   ch.<id>.first  Uint32[2S+1] records by state from the highest rank down: the state at position p = S − 1 − rank
 *                              has its upward records (v → node[i], rank up) at first[2p] .. first[2p+1]-1 and its
 *                              downward records (node[i] → v, node[i] higher) at first[2p+1] .. first[2p+2]-1
 *   ch.<id>.node   Uint32[R]   the other state of each record
 *   ch.<id>.a      Int32[R]    shortcut: first child record (path order); original edge: -1
 *   ch.<id>.b      Int32[R]    shortcut: second child record; original edge: its payload road arc
 *   ch.<id>.lmf    Float64[C·L] core only: weight from landmark l to core state c at c·L + l (Infinity: no path)
 *   ch.<id>.lmt    Float64[C·L] core only: weight from core state c to landmark l at c·L + l
 * The children of a shortcut are records of the state it bypasses, ranked below both its ends, so they lie in later
 * ranges: a[i] > i and b[i] > i (checked as the weights are derived). Weights are derived children first in one
 * backward pass, by the core that answers: the WebAssembly core derives its own (wasm/src/derive.rs) and reads the
 * records in this order as they are (src/route/wasm/ch.ts); this query derives them at its first query. Version 4 and 3
 * hierarchies (records in state order, ranges `upf` and `dnf`: src/route/ch-v4.ts) are laid out as v5 at load.
 * Core (v4): contraction may stop early and leave the C = `core` states of the highest ranks (S − C .. S − 1)
 * uncontracted, with L = `landmarks` landmarks among them (data-tools/ch-core.ts); core state c is the state of
 * rank S − C + c. A record between two core states is stored twice, upward at its tail and downward at its head,
 * so a core state's upward records are its out-edges in the core and its downward records its in-edges. A version
 * 3 hierarchy (read too) is one with C = 0.
 * States: node-based (`kind: 'node'`, turn-free graphs) a state is a road node and an original record u → v is the
 * arc it drives; edge-based (`kind: 'edge'`, graphs with turn rules) a state is a search state of TurnTable (a road
 * arc, edge * 2 + dir, or a copy of a via arc that a via-way restriction adds after the arcs) and an original record
 * s → t is the allowed turn from state s onto arc b, leading to state t = TurnTable.next(s, b), its payload b. Turns
 * that a barrier (passing it: only the U-turn before it is allowed), a U-turn (elsewhere allowed only at dead ends)
 * or a restriction forbids are simply missing.
 * Weights are not stored: an original record's weight (and duration, distance) is its payload arc's (ArcCosts),
 * edge-based plus the turn weight (seconds) of its transition added before it (turn weight + arc weight), a
 * shortcut's the sum of its two children's, computed once in float64 exactly as the builder added them.
 * `check` is a hash of the arc weights, turn costs and restriction states the pack was contracted for
 * (costsCheck); when the engine's differ, the hierarchy is not used. Version 1 hierarchies were contracted without
 * turn costs, version 2 ones without via-way restrictions; neither is used.
 * Endpoints lie mid-edge: forward searches start at the source arc (edge-based) or its head node (node-based)
 * with the remaining part of the arc; backward searches at the arcs turning onto the target arc (edge-based, with
 * that turn's weight added first) or its tail node (node-based) with the part of the target arc up to the point. A path is the source arc, the
 * unpacked payloads of the forward then backward records, and the target arc.
 */
import { bytesHash } from '../pack/bytes-hash.js';
import { arcHead, type ArcCosts } from './costs.js';
import { doubled } from './doubled.js';
import { IndexHeap } from './heap.js';
import type { ArcPath, Endpoint } from './search.js';
import { posOnArc } from './search.js';
import { TRAFFIC_LIGHT_S } from './turn-model.js';
import type { TurnTable } from './turns.js';

/** The flat arrays of one hierarchy (see the layout above). */
export interface ChArrays {
  rank: Uint32Array;
  first: Uint32Array;
  node: Uint32Array;
  a: Int32Array;
  b: Int32Array;
  /** With a core only: landmark distances (see the layout above). */
  lmFrom?: Float64Array;
  lmTo?: Float64Array;
}

/** The arrays of a hierarchy a pack holds once, wherever a core keeps them: its ranges and records. */
export type ChRecordArray = 'first' | 'node' | 'a' | 'b';

/**
 * A hierarchy's arrays as a pack stores them (CH layout v5), for ContractionHierarchy to read only what it uses: the
 * ranks and landmarks (small, needed by both cores) at once, the ranges and records (most of the bytes) when the
 * TypeScript query first needs them (`read`), while the WebAssembly core reads those straight into its memory
 * (`into`), so that no second copy of them is kept on this side.
 */
export interface ChSections {
  rank: Uint32Array;
  lmFrom?: Float64Array;
  lmTo?: Float64Array;
  /** Elements of each of the arrays, without reading them. */
  length(k: ChRecordArray): number;
  /** Array k, read now (the caller keeps it). */
  read<K extends ChRecordArray>(k: K): ChArrays[K];
  /** Writes array k's bytes into `target` (exactly its byte length), checked as the pack checks a section. */
  into(k: ChRecordArray, target: Uint8Array): void;
}

/**
 * What is wrong with a hierarchy's ranges over `records` records for `states` states (they must start at 0, never
 * decrease and end at the records' count), or null: checked by whichever core reads them, before any query does.
 */
export function rangesFault(first: Uint32Array, states: number, records: number): string | null {
  if (first.length !== 2 * states + 1 || first[0] !== 0 || first[2 * states] !== records)
    return 'offsets do not match the records';
  for (let k = 0; k < 2 * states; k++) if (first[k]! > first[k + 1]!) return `range ${k}`;
  return null;
}

/** Section name of one array of hierarchy `id` (at most 24 characters, as pack section names must be). */
export function chSection(id: number, name: keyof ChArrays): string {
  const short: Record<keyof ChArrays, string> = {
    rank: 'rank',
    first: 'first',
    node: 'node',
    a: 'a',
    b: 'b',
    lmFrom: 'lmf',
    lmTo: 'lmt',
  };
  return `ch.${id}.${short[name]}`;
}

/** A route found by the hierarchy with its weight, duration (s) and distance (m). */
export interface ChRoute {
  path: ArcPath;
  weight: number;
  dur: number;
  dist: number;
}

/**
 * `version` of `ch.index` this code writes (5: records in the order the searches read them; 4: may leave a core).
 * Version 4 and 3 hierarchies are read too (laid out at load, src/route/ch-v4.ts): a version 3 hierarchy (contracted
 * with turn costs and via-way restriction states, fully) is a version 4 one without a core.
 */
export const CH_LAYOUT_VERSION = 5;

/** Layout versions the query reads (see CH_LAYOUT_VERSION). */
export const CH_LAYOUT_READ: readonly number[] = [3, 4, 5];

/**
 * Hash of everything a hierarchy's states and record weights derive from: arc weights, the turn costs (ArcCosts,
 * restricted-access roads included) and the restriction states (TurnTable: the copies, and the restricted
 * transitions that are otherwise open, so vehicles whose restrictions differ only on closed turns share a hierarchy).
 */
export function costsCheck(c: ArcCosts, t: TurnTable): number {
  const scalars = Float64Array.of(c.uTurn, c.turnWeightFactor, c.turnCosts ? 1 : 0, c.restrictedTurn, t.states);
  return bytesHash(
    c.weight,
    c.bearing,
    // The seconds per arc, as the hash was first made over (packs store it).
    Float64Array.from(c.signal, (s) => s * TRAFFIC_LIGHT_S),
    c.cross,
    c.anglePenalty,
    c.restricted,
    scalars,
    t.copyArc,
    openRules(c, t),
  );
}

/** (state, arc, next state) of every listed transition of TurnTable from an open arc onto an open arc, open turn. */
function openRules(c: ArcCosts, t: TurnTable): Int32Array {
  const out: number[] = [];
  for (let r = 0; r < t.ruled.length; r++) {
    const s = t.ruled[r]!;
    const a = t.arcOf(s);
    if (c.weight[a] === Infinity) continue;
    const h = arcHead(c.graph, a);
    const blocked = c.blocked[h] === 1,
      uturn = blocked || c.outOpen[h] === 1;
    for (let i = t.ruleFirst[r]!; i < t.ruleFirst[r + 1]!; i++) {
      const b = t.ruleTo[i]!;
      if (c.weight[b] === Infinity || (a >> 1 === b >> 1 ? !uturn : blocked)) continue;
      out.push(s, b, t.ruleNext[i]!);
    }
  }
  return Int32Array.from(out);
}

/** Labels of one search direction, reused across queries through a generation counter. */
class Labels {
  readonly w: Float64Array;
  readonly dur: Float64Array;
  readonly len: Float64Array;
  /** Record that reached the state, or -1 - arc at a seed. */
  readonly par: Int32Array;
  readonly prev: Int32Array;
  readonly seen: Uint32Array;
  readonly heap: IndexHeap;
  constructor(n: number) {
    this.w = new Float64Array(n);
    this.dur = new Float64Array(n);
    this.len = new Float64Array(n);
    this.par = new Int32Array(n);
    this.prev = new Int32Array(n);
    this.seen = new Uint32Array(n);
    this.heap = new IndexHeap(n);
  }
}

/**
 * Why record r of hierarchy `ch` (over `arcs` road arcs) is corrupt, or null when it is sound: its other state must
 * be a state, an original record's payload an arc, and a shortcut's children records after it (so that weights
 * derive children first and shortcuts have no cycle).
 */
export function recordFault(ch: ChArrays, r: number, arcs: number): string | null {
  const R = ch.node.length,
    x = ch.a[r]!,
    y = ch.b[r]!;
  if (ch.node[r]! >= ch.rank.length) return `record ${r} refers to state ${ch.node[r]}`;
  if (x < 0 ? y < 0 || y >= arcs : x <= r || x >= R || y <= r || y >= R) return `record ${r} has children ${x}, ${y}`;
  return null;
}

/** The error refusing a corrupt hierarchy: `what` is wrong. */
export function corruptHierarchy(what: string): Error {
  return new Error(`corrupt contraction hierarchy: ${what}`);
}

/**
 * A contraction hierarchy of one cost vector, over pack arrays. One query at a time. The record weights and the
 * search labels are made at the first query (`prepare`): when the WebAssembly core answers (src/route/wasm/ch.ts),
 * it derives its own and this object holds only the pack's ranks and what both cores check at load; the ranges and
 * records are read from the pack (`sections`) when this query first needs them.
 */
export class ContractionHierarchy {
  readonly states: number;
  /** Records of the hierarchy. */
  readonly records: number;
  /** State at each position p = states − 1 − rank (the order of the record ranges). */
  readonly stateAt: Int32Array;
  /** The pack's sections the arrays are read from on first use, or null when they were given whole. */
  readonly sections: ChSections | null;
  /** The arrays, once read (see `ch`). */
  private arrays: ChArrays | null;
  /** Per record: weight, duration (s), distance (m); empty before the first query (prepare). */
  private w = new Float64Array(0);
  private dur = new Float64Array(0);
  private len = new Float64Array(0);
  /** Search labels of both directions, made by prepare. */
  private F!: Labels;
  private B!: Labels;
  /** True once prepare has derived the weights and made the labels. */
  private prepared = false;
  private gen = 0;
  /** States settled by the last query. */
  settled = 0;
  /** First rank of the core (states − core). */
  private readonly top: number;
  /** Landmarks of the core (0 without one). */
  readonly landmarks: number;
  /** Largest finite landmark weight: scales the core search's float tolerance. */
  readonly lmMax: number;
  /**
   * Core search: per core state both landmark potentials (π_f toward the target, π_b from the source), valid where
   * `potSeen` is the query's generation.
   */
  private readonly potF: Float64Array;
  private readonly potB: Float64Array;
  private readonly potSeen: Uint32Array;
  /** Best weight and meeting state of the query under way (`route`'s, kept here for expand and coreSearch). */
  private bestW = Infinity;
  private meet = -1;
  /** Core search: the per-landmark constants of both potentials (see corePotentials). */
  private readonly lmc: Float64Array;
  /** Core states each side's first phase reached (entry states), and how many. */
  private readonly entF: Uint32Array;
  private readonly entB: Uint32Array;

  /**
   * `ch`: the arrays, or the pack's sections to read them from when first needed. `core`: uncontracted states at the
   * top of the hierarchy (0: fully contracted; see the layout above).
   */
  constructor(
    ch: ChArrays | ChSections,
    readonly costs: ArcCosts,
    readonly edgeBased: boolean,
    readonly turns: TurnTable,
    readonly core = 0,
  ) {
    const given = 'read' in ch ? null : ch;
    this.sections = given ? null : (ch as ChSections);
    this.arrays = given;
    this.states = ch.rank.length;
    this.records = given ? given.node.length : this.sections!.length('node');
    this.stateAt = new Int32Array(this.states);
    this.top = this.states - core;
    this.landmarks = core > 0 ? (ch.lmFrom?.length ?? 0) / core : 0;
    this.check(ch);
    let max = 0;
    for (const x of [ch.lmFrom, ch.lmTo]) if (x) for (const d of x) if (d !== Infinity && d > max) max = d;
    this.lmMax = max;
    this.potF = new Float64Array(core);
    this.potB = new Float64Array(core);
    this.potSeen = new Uint32Array(core);
    this.lmc = new Float64Array(4 * this.landmarks);
    this.entF = new Uint32Array(core);
    this.entB = new Uint32Array(core);
  }

  /**
   * The hierarchy's arrays, read from the pack's sections on first use (their ranges checked then, rangesFault):
   * the TypeScript query's, and what a refusal names a faulty record from.
   */
  get ch(): ChArrays {
    if (this.arrays) return this.arrays;
    const x = this.sections!;
    const first = x.read('first');
    const fault = rangesFault(first, this.states, this.records);
    if (fault) throw corruptHierarchy(fault);
    const { rank, lmFrom, lmTo } = x;
    return (this.arrays = { rank, first, node: x.read('node'), a: x.read('a'), b: x.read('b'), lmFrom, lmTo });
  }

  /**
   * Cross-checks lengths and the states, so a corrupt pack fails at load rather than inside a query: rank a
   * permutation, ranges in order that tile the records (given arrays: here; sections: by the core that reads them).
   * Each record is checked as its weight is derived (by recordFault, here or in the WebAssembly core), before any
   * query reads it.
   */
  private check(ch: ChArrays | ChSections): void {
    const rank = ch.rank;
    const S = this.states,
      R = this.records;
    const bad = (what: string) => {
      throw corruptHierarchy(what);
    };
    const given = this.arrays;
    const lengths = given
      ? { first: given.first.length, a: given.a.length, b: given.b.length }
      : { first: this.sections!.length('first'), a: this.sections!.length('a'), b: this.sections!.length('b') };
    if (lengths.first !== 2 * S + 1) bad('offsets do not match the records');
    if (given) {
      const fault = rangesFault(given.first, S, R);
      if (fault) bad(fault);
    }
    if (lengths.a !== R || lengths.b !== R) bad('record arrays differ in length');
    const C = this.core;
    if (!(C >= 0 && C <= S && Number.isInteger(C))) bad(`core of ${C} states`);
    if (C > 0) {
      const L = this.landmarks;
      if (!(L >= 1 && Number.isInteger(L)) || ch.lmTo?.length !== C * L) bad('landmark arrays');
      for (const x of [ch.lmFrom!, ch.lmTo!]) for (const d of x) if (!(d >= 0)) bad(`landmark weight ${d}`);
    }
    if (S !== (this.edgeBased ? this.turns.states : this.costs.graph.nodeCount))
      bad(`${S} states for a ${this.edgeBased ? 'edge' : 'node'}-based graph`);
    const at = this.stateAt;
    at.fill(-1);
    for (let v = 0; v < S; v++) {
      if (rank[v]! >= S || at[S - 1 - rank[v]!]! >= 0) bad(`state ${v}`);
      at[S - 1 - rank[v]!] = v;
    }
  }

  /** Before the first query: the record weights (derive) and the search labels. */
  private prepare(): void {
    if (this.prepared) return;
    this.derive();
    this.F = new Labels(this.states);
    this.B = new Labels(this.states);
    this.prepared = true;
  }

  /**
   * Record weights from payload arcs (edge-based: after the turn from the record's tail state) and children, in
   * one backward pass, each record checked first (recordFault): children lie after their parents. Throws on a
   * corrupt record, leaving the hierarchy unprepared (every query throws again).
   */
  private derive(): void {
    const { first, node, a, b } = this.ch;
    const c = this.costs,
      g = c.graph,
      R = node.length;
    const W = c.weight,
      D = c.dur,
      L = g.edgeLen;
    const w = (this.w = new Float64Array(R)),
      dur = (this.dur = new Float64Array(R)),
      len = (this.len = new Float64Array(R));
    for (let p = this.states - 1; p >= 0; p--) {
      const v = this.stateAt[p]!;
      for (let r = first[2 * p + 2]! - 1; r >= first[2 * p]!; r--) {
        const fault = recordFault(this.ch, r, W.length);
        if (fault) throw corruptHierarchy(fault);
        const x = a[r]!,
          y = b[r]!;
        if (x >= 0) {
          w[r] = w[x]! + w[y]!;
          dur[r] = dur[x]! + dur[y]!;
          len[r] = len[x]! + len[y]!;
          continue;
        }
        if (this.edgeBased) {
          // The record leaves its tail: the state itself for upward records, the other state for downward ones.
          const from = this.turns.arcOf(r < first[2 * p + 1]! ? v : node[r]!),
            h = g.edgeNodes[(y & ~1) + (y & 1)]!;
          w[r] = c.turnWeight(from, y, h) + W[y]!;
          dur[r] = c.turnDur(from, y, h) + D[y]!;
        } else {
          w[r] = W[y]!;
          dur[r] = D[y]!;
        }
        len[r] = L[y >> 1]!;
      }
    }
  }

  /** Index into `first` of the upward (`up`) or downward records of state v: they are first[k] .. first[k+1]-1. */
  private range(v: number, up: boolean): number {
    return 2 * (this.states - 1 - this.ch.rank[v]!) + (up ? 0 : 1);
  }

  private nextGen(): number {
    this.F.heap.clear();
    this.B.heap.clear();
    this.settled = 0;
    if (++this.gen === 0xffffffff) {
      this.F.seen.fill(0);
      this.B.seen.fill(0);
      this.gen = 1;
    }
    return this.gen;
  }

  /** Sets a label when it improves, queued with its weight as key unless `queue` is false; true when it did. */
  private label(
    L: Labels,
    s: number,
    gen: number,
    w: number,
    dur: number,
    len: number,
    par: number,
    prev: number,
    queue = true,
  ): boolean {
    if (L.seen[s] === gen && L.w[s]! <= w) return false;
    L.w[s] = w;
    L.dur[s] = dur;
    L.len[s] = len;
    L.par[s] = par;
    L.prev[s] = prev;
    L.seen[s] = gen;
    if (queue) L.heap.push(s, w);
    return true;
  }

  /** Forward seeds of a source point. */
  private seedSource(src: Endpoint, gen: number, only: number | undefined): void {
    const c = this.costs,
      en = c.graph.edgeNodes;
    for (let a = 2 * src.edge; a <= 2 * src.edge + 1; a++) {
      if (c.weight[a] === Infinity || (only !== undefined && a !== only)) continue;
      const f = 1 - posOnArc(src, a);
      const s = this.edgeBased ? a : en[(a & ~1) + 1 - (a & 1)]!;
      this.label(this.F, s, gen, f * c.weight[a]!, f * c.dur[a]!, f * c.graph.edgeLen[a >> 1]!, -1 - a, -1);
    }
  }

  /** Backward seeds of a target point (edge-based: every state that may turn onto a target arc). */
  private seedTarget(dst: Endpoint, gen: number): void {
    const c = this.costs,
      g = c.graph,
      en = g.edgeNodes,
      T = this.turns;
    for (let b = 2 * dst.edge; b <= 2 * dst.edge + 1; b++) {
      if (c.weight[b] === Infinity) continue;
      const f = posOnArc(dst, b);
      const w = f * c.weight[b]!,
        d = f * c.dur[b]!,
        l = f * g.edgeLen[b >> 1]!;
      const u = en[(b & ~1) + (b & 1)]!;
      if (!this.edgeBased) {
        this.label(this.B, u, gen, w, d, l, -1 - b, -1);
        continue;
      }
      const blocked = c.blocked[u] === 1,
        uturn = blocked || c.outOpen[u] === 1;
      for (let i = g.adjFirst[u]!; i < g.adjFirst[u + 1]!; i++) {
        const a = g.adjArc[i]! ^ 1;
        // At a barrier only the U-turn; elsewhere U-turns only at dead ends (ArcCosts.openTurn).
        if (c.weight[a] === Infinity || (a >> 1 === b >> 1 ? !uturn : blocked)) continue;
        const n = T.copyCount(a),
          c0 = n > 0 ? T.firstCopy(a) : 0;
        for (let k = -1; k < n; k++) {
          const s = k < 0 ? a : T.arcs + c0 + k;
          if (T.next(s, b) >= 0)
            this.label(this.B, s, gen, c.turnWeight(a, b, u) + w, c.turnDur(a, b, u) + d, l, -1 - b, -1);
        }
      }
    }
  }

  /** Best route on one edge from src to dst (target ahead of the source on an arc), or null. */
  private direct(src: Endpoint, dst: Endpoint, only: number | undefined): ChRoute | null {
    if (src.edge !== dst.edge) return null;
    const c = this.costs;
    let best: ChRoute | null = null;
    for (let a = 2 * src.edge; a <= 2 * src.edge + 1; a++) {
      if (c.weight[a] === Infinity || (only !== undefined && a !== only)) continue;
      const from = posOnArc(src, a),
        to = posOnArc(dst, a);
      const f = to - from;
      if (f < 0 || (best && f * c.weight[a]! >= best.weight)) continue;
      const weight = f * c.weight[a]!;
      best = { path: { arcs: [a], from, to, weight }, weight, dur: f * c.dur[a]!, dist: f * c.graph.edgeLen[a >> 1]! };
    }
    return best;
  }

  /** True when a state's label is beaten through a higher neighbour (stall-on-demand), forward or backward. */
  private stalled(L: Labels, v: number, forward: boolean, gen: number): boolean {
    const { first, node } = this.ch;
    const k = this.range(v, !forward);
    const lo = first[k]!,
      hi = first[k + 1]!;
    const dv = L.w[v]!;
    for (let i = lo; i < hi; i++) {
      const x = node[i]!;
      if (L.seen[x] === gen && L.w[x]! + this.w[i]! < dv) return true;
    }
    return false;
  }

  /**
   * Best route between two endpoints, or null. `src.only` restricts the first arc (edge-based hierarchies only;
   * the router uses A* for it on node-based ones, where a U-turn at the first node could otherwise slip in).
   */
  route(src: Endpoint, dst: Endpoint): ChRoute | null {
    this.prepare();
    const gen = this.nextGen();
    const F = this.F,
      B = this.B;
    const only = src.only;
    let best = this.direct(src, dst, only);
    this.bestW = best ? best.weight : Infinity;
    this.meet = -1;
    this.seedSource(src, gen, only);
    this.seedTarget(dst, gen);
    // Seeds meeting seeds.
    for (let k = 0; k < B.heap.size; k++) {
      const s = B.heap.itemAt(k);
      if (F.seen[s] === gen && F.w[s]! + B.w[s]! < this.bestW) {
        this.bestW = F.w[s]! + B.w[s]!;
        this.meet = s;
      }
    }
    const FH = F.heap,
      BH = B.heap;
    const top = this.top,
      rank = this.ch.rank;
    // Core states the upward searches reach, not searched beyond here (the core search below starts from them).
    let nf = 0,
      nb = 0;
    while (FH.size > 0 || BH.size > 0) {
      const fk = FH.minKey(),
        bk = BH.minKey();
      if (Math.min(fk, bk) >= this.bestW) break;
      const forward = fk <= bk;
      const L = forward ? F : B,
        O = forward ? B : F;
      const v = L.heap.pop();
      this.settled++;
      if (rank[v]! >= top) {
        if (forward) this.entF[nf++] = v;
        else this.entB[nb++] = v;
        continue;
      }
      if (this.stalled(L, v, forward, gen)) continue;
      this.expand(L, O, v, forward, gen, false);
    }
    if (nf > 0 && nb > 0) this.coreSearch(gen, nf, nb);
    const meet = this.meet;
    if (meet < 0) return best;
    const arcs: number[] = [];
    const chain: number[] = [];
    let v = meet;
    while (F.par[v]! >= 0) {
      chain.push(F.par[v]!);
      v = F.prev[v]!;
    }
    const srcArc = -1 - F.par[v]!;
    arcs.push(srcArc);
    for (let k = chain.length - 1; k >= 0; k--) this.unpack(chain[k]!, arcs);
    v = meet;
    while (B.par[v]! >= 0) {
      this.unpack(B.par[v]!, arcs);
      v = B.prev[v]!;
    }
    const dstArc = -1 - B.par[v]!;
    arcs.push(dstArc);
    const [weight, dur, dist] = this.sums(meet);
    return { path: { arcs, from: posOnArc(src, srcArc), to: posOnArc(dst, dstArc), weight }, weight, dur, dist };
  }

  /**
   * Weight, seconds and metres of the route that met at `meet`, added as `table` adds them: the forward labels at
   * `meet`, then the core records of the backward chain after it in driving order, up to the route's last core
   * state (its exit; `meet` itself for a route that meets outside the core or leaves it there), then the exit's
   * backward label. Float addition is not associative: summing the core part forward, as the many-to-many's
   * one-to-many search over the core does, makes a matrix element and the direction of the same pair equal to the
   * last bit. Without a core this is the forward plus the backward label at `meet`.
   */
  private sums(meet: number): [number, number, number] {
    const F = this.F,
      B = this.B,
      rank = this.ch.rank;
    let w = F.w[meet]!,
      dur = F.dur[meet]!,
      len = F.len[meet]!,
      v = meet;
    while (B.par[v]! >= 0 && rank[B.prev[v]!]! >= this.top) {
      const i = B.par[v]!;
      w += this.w[i]!;
      dur += this.dur[i]!;
      len += this.len[i]!;
      v = B.prev[v]!;
    }
    return [w + B.w[v]!, dur + B.dur[v]!, len + B.len[v]!];
  }

  /**
   * The core part of `route`: bidirectional A* over the core's edges from the entry states the upward searches
   * settled (`entF[0 .. nf)`, `entB[0 .. nb)`, with their labels), guided by landmark potentials; improves
   * `bestW` and `meet`.
   *
   * Why the two parts stop differently. The upward searches are not searches of one graph in two directions (each
   * climbs its own upward graph), so they stop only when both keys reach the best weight μ: a shorter route's top
   * state (or core entry state) is settled by both before that. In the core both sides search the same graph
   * (forward along out-edges, backward along in-edges), and every route that enters the core runs: source, upward
   * records to an entry state e_s of the source side, core edges, an entry state e_t of the target side, downward
   * records to the target (a shortest path in the graph the hierarchy stands for has this form, its core part a
   * shortest path of the core, whose edges keep the distances between core states). Forward potential π_f(v) is a
   * lower bound of the weight from core state v on to the target: of min over target entries e of
   * (core distance v → e + backward label of e), bounded per landmark l by the triangle inequality, in O(L) per
   * state through constants over the entries (corePotentials); backward potential π_b(v), a lower bound of the
   * weight from the source to v, likewise. Each term is feasible (π_f(u) ≤ w(u, v) + π_f(v) and
   * π_b(v) ≤ π_b(u) + w(u, v) on every core edge u → v), so their maxima are.
   * Both sides use one potential p = (π_f − π_b) / 2 (the consistent average, Goldberg and Harrelson 2005):
   * forward key label + p, backward key label − p. Reduced weights w(u, v) − p(u) + p(v) are not negative, the
   * same for both sides, so the core search is a bidirectional Dijkstra over them and its labels are exact where
   * settled: the upward search settles e_s with its exact weight (a state whose label is exact is never stalled,
   * stalling needs a lighter real path).
   * Claim: once the two least keys add up to at least μ, no route is lighter than μ. Let P be a route lighter than
   * μ through the core, v_0 = e_s, …, v_k = e_t its core states, i the first of them the forward side has not
   * settled, j the last the backward side has not. If i ≤ j, v_i and v_j are queued with exact labels and their
   * keys add up to label(v_i) + p(v_i) − p(v_j) + label(v_j) ≤ weight(P) < μ (p(v_i) − p(v_j) ≤ weight(v_i → v_j),
   * reduced weights not being negative). Else some state of P has exact labels on both sides (v_0 or v_k, entry
   * states, when i or j is missing; else v_(j+1), reached forward from v_j), and whichever was set last was tested
   * against the other: μ ≤ weight(P). States are not queued where a bound proves no route through them lighter than
   * μ: a potential of Infinity (the state reaches no entry of the other side, or no entry of its own side reaches
   * it) or label + the side's own potential (π_f forward, π_b backward) at least μ; μ only falls. Landmark sums are
   * floats: the stop and the pruning allow a relative 1e-9 of slack (searching a little longer is always safe), and
   * a label that improves after its state was settled is queued again.
   */
  private coreSearch(gen: number, nf: number, nb: number): void {
    const F = this.F,
      B = this.B;
    F.heap.clear();
    B.heap.clear();
    this.corePotentials(nf, nb);
    for (let k = 0; k < nf; k++) this.queueCore(F, true, this.entF[k]!, gen);
    for (let k = 0; k < nb; k++) this.queueCore(B, false, this.entB[k]!, gen);
    // The sides take turns: this settles fewer core states than taking the side with the smaller key (NY, per
    // direction: 142 against 176 for car, 121 against 159 for truck; Hanoi's forced core of 5,000: 216 against 326),
    // though the legs took the same time within noise (p50 0.93–1.05 of it, shared machine).
    for (let turn = 0; ; turn++) {
      if (F.heap.minKey() + B.heap.minKey() >= this.coreBound()) break;
      const forward = (turn & 1) === 0;
      const L = forward ? F : B,
        O = forward ? B : F;
      const v = L.heap.pop();
      this.settled++;
      this.expand(L, O, v, forward, gen, true);
    }
  }

  /**
   * Relaxes the records of v on side L (upward or core out-edges forward, downward-reversed or core in-edges
   * backward), queued by weight or, in the core search, by weight ± potential (queueCore); improves `bestW` and
   * `meet` through labels that side O (when given: point to point) has too.
   */
  private expand(L: Labels, O: Labels | null, v: number, forward: boolean, gen: number, core: boolean): void {
    const { first, node } = this.ch;
    const k = this.range(v, forward);
    const lo = first[k]!,
      hi = first[k + 1]!;
    const dv = L.w[v]!,
      du = L.dur[v]!,
      dl = L.len[v]!;
    for (let i = lo; i < hi; i++) {
      const x = node[i]!;
      if (!this.label(L, x, gen, dv + this.w[i]!, du + this.dur[i]!, dl + this.len[i]!, i, v, !core)) continue;
      if (core) this.queueCore(L, forward, x, gen);
      if (O && O.seen[x] === gen && L.w[x]! + O.w[x]! < this.bestW) {
        this.bestW = L.w[x]! + O.w[x]!;
        this.meet = x;
      }
    }
  }

  /** The best weight so far with the core search's float slack (see coreSearch). */
  private coreBound(): number {
    return this.bestW + 1e-9 * this.lmMax + 1e-9 * this.bestW;
  }

  /**
   * Queues core state x (labelled) on its side with key label ± (π_f − π_b) / 2 (+ forward, − backward), unless a
   * potential is Infinity or label + the side's own potential reaches the bound (see coreSearch).
   */
  private queueCore(L: Labels, forward: boolean, x: number, gen: number): void {
    const c = this.ch.rank[x]! - this.top;
    if (this.potSeen[c] !== gen) {
      this.potential(c);
      this.potSeen[c] = gen;
    }
    const pf = this.potF[c]!,
      pb = this.potB[c]!,
      w = L.w[x]!;
    if (pf === Infinity || pb === Infinity || w + (forward ? pf : pb) >= this.coreBound()) return;
    const p = (pf - pb) / 2;
    L.heap.push(x, forward ? w + p : w - p);
  }

  /**
   * Per landmark l, from the other side's entry states e and labels d(e) (backward labels for the forward
   * potential, forward ones for the backward potential), with from(l, x) / to(x, l) the landmark weights:
   *   forward  (toward the target entries): A = min over e with from(l, e) finite of from(l, e) + d(e);
   *            B = max over e of to(e, l) − d(e), Infinity when some to(e, l) is
   *   backward (from the source entries):  C = max over e of from(l, e) − d(e), Infinity when some from(l, e) is;
   *            D = min over e with to(e, l) finite of d(e) + to(e, l)
   * so that the potentials are (potential):
   *   π_f(v) = max(0; A − from(l, v) where from(l, v) is finite; to(v, l) − B where B is finite)
   *   π_b(v) = max(0; from(l, v) − C where C is finite; D − to(v, l) where to(v, l) is finite).
   * Each term is a lower bound by the triangle inequality (from(l, e) ≤ from(l, v) + dist(v, e), and so on). Where an
   * entry is left out or a term skipped, the inequality is empty: an entry e with from(l, e) = Infinity cannot be
   * reached from a v with from(l, v) finite; a term whose other weight is Infinity says nothing. A term that is
   * Infinity (A − finite, or to(v, l) = Infinity − finite B) is a true bound: v reaches no entry of the other side.
   */
  private corePotentials(nf: number, nb: number): void {
    const L = this.landmarks,
      top = this.top,
      rank = this.ch.rank;
    const from = this.ch.lmFrom!,
      to = this.ch.lmTo!,
      k = this.lmc;
    for (let l = 0; l < L; l++) {
      let A = Infinity,
        Bm = -Infinity,
        Cm = -Infinity,
        D = Infinity;
      for (let q = 0; q < nb; q++) {
        const e = this.entB[q]!,
          c = (rank[e]! - top) * L + l,
          d = this.B.w[e]!;
        if (from[c]! !== Infinity) A = Math.min(A, from[c]! + d);
        Bm = Math.max(Bm, to[c]! - d);
      }
      for (let q = 0; q < nf; q++) {
        const e = this.entF[q]!,
          c = (rank[e]! - top) * L + l,
          d = this.F.w[e]!;
        Cm = Math.max(Cm, from[c]! - d);
        if (to[c]! !== Infinity) D = Math.min(D, d + to[c]!);
      }
      k[4 * l] = A;
      k[4 * l + 1] = Bm;
      k[4 * l + 2] = Cm;
      k[4 * l + 3] = D;
    }
  }

  /** Both landmark potentials of core state c, into potF[c] and potB[c] (see corePotentials). */
  private potential(c: number): void {
    const L = this.landmarks,
      from = this.ch.lmFrom!,
      to = this.ch.lmTo!,
      k = this.lmc;
    let pf = 0,
      pb = 0;
    for (let l = 0, o = c * L; l < L; l++, o++) {
      const f = from[o]!,
        t = to[o]!;
      if (f !== Infinity) pf = Math.max(pf, k[4 * l]! - f);
      if (k[4 * l + 1]! !== Infinity) pf = Math.max(pf, t - k[4 * l + 1]!);
      if (k[4 * l + 2]! !== Infinity) pb = Math.max(pb, f - k[4 * l + 2]!);
      if (t !== Infinity) pb = Math.max(pb, k[4 * l + 3]! - t);
    }
    this.potF[c] = pf;
    this.potB[c] = pb;
  }

  /** Appends the road arcs of record r in driving order. */
  private unpack(r: number, out: number[]): void {
    const { a, b } = this.ch;
    const stack = [r];
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (a[x]! < 0) out.push(b[x]!);
      else stack.push(b[x]!, a[x]!);
    }
  }

  /**
   * Many-to-many by buckets: one backward upward search per destination leaves (destination, weight, duration,
   * distance) at every state it settles; one forward upward search per origin scans them. Writes row-major
   * (origin i, destination j at i * dests.length + j) into the tables; Infinity where unreachable. The values are
   * the ones `route` gives for the same pair (its `sums`). With a core, the upward searches stop at the core states
   * they reach (entry states, as in `route`): each destination's entries go to core buckets, and each origin runs one
   * one-to-many Dijkstra over the core from its entries (coreTable) that reads them: one core search per origin,
   * not per pair.
   */
  table(
    origins: readonly Endpoint[],
    dests: readonly Endpoint[],
    out: { weight: Float64Array; dur: Float64Array; dist: Float64Array },
  ): void {
    this.prepare();
    const nd = dests.length;
    out.weight.fill(Infinity);
    out.dur.fill(Infinity);
    out.dist.fill(Infinity);
    const B = this.B,
      F = this.F,
      top = this.top,
      rank = this.ch.rank;
    const up = new Buckets(),
      inCore = new Buckets();
    let settled = 0;
    for (let j = 0; j < nd; j++) {
      const gen = this.nextGen();
      this.seedTarget(dests[j]!, gen);
      while (B.heap.size > 0) {
        const v = B.heap.pop();
        settled++;
        if (rank[v]! >= top) {
          inCore.push(rank[v]! - top, j, B.w[v]!, B.dur[v]!, B.len[v]!);
          continue;
        }
        if (this.stalled(B, v, false, gen)) continue;
        up.push(v, j, B.w[v]!, B.dur[v]!, B.len[v]!);
        this.expand(B, null, v, false, gen, false);
      }
    }
    const [first, order] = up.group(this.states);
    const [coreFirst, coreOrder] = inCore.group(this.core);
    // Per destination, its core entries: a destination is done in an origin's core search once all are settled.
    const entries = new Int32Array(nd);
    for (let k = 0; k < inCore.n; k++) entries[inCore.dest[k]!]!++;
    const left = new Int32Array(nd);
    for (let i = 0; i < origins.length; i++) {
      const src = origins[i]!;
      const row = i * nd;
      for (let j = 0; j < nd; j++) {
        const d = this.direct(src, dests[j]!, undefined);
        if (d) {
          out.weight[row + j] = d.weight;
          out.dur[row + j] = d.dur;
          out.dist[row + j] = d.dist;
        }
      }
      const gen = this.nextGen();
      this.seedSource(src, gen, undefined);
      let nf = 0;
      while (F.heap.size > 0) {
        const v = F.heap.pop();
        settled++;
        if (rank[v]! >= top) {
          this.entF[nf++] = v;
          continue;
        }
        if (this.stalled(F, v, true, gen)) continue;
        this.scan(v, v, row, first, order, up, out);
        this.expand(F, null, v, true, gen, false);
      }
      if (nf === 0 || inCore.n === 0) continue;
      left.set(entries);
      settled += this.coreTable(gen, nf, row, nd, coreFirst, coreOrder, inCore, left, out);
    }
    this.settled = settled;
  }

  /**
   * Offers the bucket entries grouped at `at` (`first`, `order`: state v, or v's core number for core buckets) to
   * row `row` through state v's forward labels.
   */
  private scan(
    v: number,
    at: number,
    row: number,
    first: Uint32Array,
    order: Uint32Array,
    b: Buckets,
    out: { weight: Float64Array; dur: Float64Array; dist: Float64Array },
  ): void {
    const F = this.F,
      dv = F.w[v]!;
    for (let q = first[at]!; q < first[at + 1]!; q++) {
      const k = order[q]!;
      const t = row + b.dest[k]!;
      const w = dv + b.w[k]!;
      if (w < out.weight[t]!) {
        out.weight[t] = w;
        out.dur[t] = F.dur[v]! + b.dur[k]!;
        out.dist[t] = F.len[v]! + b.len[k]!;
      }
    }
  }

  /**
   * The core part of `table` for one origin: a Dijkstra over the core's edges from the origin's entry states
   * (`entF[0 .. nf)`, with their forward labels), offering at each settled core state the core buckets there (the
   * destinations whose backward search entered the core at it) to row `row`. Exact: a route through the core runs
   * source, upward records, core edges to its last core state e, downward records to the target, and settling e
   * with its exact label offers e's bucket entry. Destination j is done when every core state its entries sit at
   * is settled (`left[j]` counts them down), or when the least key reaches its best weight (later offers weigh at
   * least the key: bucket weights are not negative); the search stops when all are done. `bound`, the largest best
   * weight of a destination not done, only falls, so a stale value stops no later than the true one; it is made
   * again after nd settles that changed it. Returns the states settled.
   */
  private coreTable(
    gen: number,
    nf: number,
    row: number,
    nd: number,
    first: Uint32Array,
    order: Uint32Array,
    b: Buckets,
    left: Int32Array,
    out: { weight: Float64Array; dur: Float64Array; dist: Float64Array },
  ): number {
    const F = this.F,
      top = this.top,
      rank = this.ch.rank;
    for (let q = 0; q < nf; q++) F.heap.push(this.entF[q]!, F.w[this.entF[q]!]!);
    let open = 0;
    for (let j = 0; j < nd; j++) if (left[j]! > 0) open++;
    const boundOf = () => {
      let m = -Infinity;
      for (let j = 0; j < nd; j++) if (left[j]! > 0) m = Math.max(m, out.weight[row + j]!);
      return m;
    };
    let bound = boundOf(),
      changed = 0,
      settled = 0;
    while (F.heap.size > 0 && open > 0) {
      if (F.heap.minKey() >= bound) {
        if (changed === 0) break;
        bound = boundOf();
        changed = 0;
        continue;
      }
      const v = F.heap.pop();
      settled++;
      const c = rank[v]! - top;
      if (first[c]! < first[c + 1]!) {
        this.scan(v, c, row, first, order, b, out);
        for (let q = first[c]!; q < first[c + 1]!; q++) if (--left[b.dest[order[q]!]!]! === 0) open--;
        if (++changed >= nd) {
          bound = boundOf();
          changed = 0;
        }
      }
      this.expand(F, null, v, true, gen, false);
    }
    F.heap.clear();
    return settled;
  }
}

/**
 * Bucket entries of many-to-many searches (state, destination, weight, seconds, metres), appended per destination
 * and grouped by state at the end (group). Grown by doubling.
 */
class Buckets {
  n = 0;
  state = new Uint32Array(1024);
  dest = new Uint32Array(1024);
  w = new Float64Array(1024);
  dur = new Float64Array(1024);
  len = new Float64Array(1024);

  push(state: number, dest: number, w: number, dur: number, len: number): void {
    if (this.n === this.state.length) {
      this.state = doubled(this.state);
      this.dest = doubled(this.dest);
      this.w = doubled(this.w);
      this.dur = doubled(this.dur);
      this.len = doubled(this.len);
    }
    const k = this.n++;
    this.state[k] = state;
    this.dest[k] = dest;
    this.w[k] = w;
    this.dur[k] = dur;
    this.len[k] = len;
  }

  /**
   * The entries grouped by state (counting sort, stable): entry order[q] for q in first[s] .. first[s + 1] - 1 sits
   * at state s (of `states`).
   */
  group(states: number): [Uint32Array, Uint32Array] {
    const first = new Uint32Array(states + 1);
    for (let k = 0; k < this.n; k++) first[this.state[k]! + 1]!++;
    for (let s = 0; s < states; s++) first[s + 1]! += first[s]!;
    const fill = first.slice(0, states);
    const order = new Uint32Array(this.n);
    for (let k = 0; k < this.n; k++) order[fill[this.state[k]!]!++] = k;
    return [first, order];
  }
}
