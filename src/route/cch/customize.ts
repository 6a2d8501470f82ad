import { arcHead, arcTail, type ArcCosts } from '../costs.js';
import type { TurnTable } from '../turns.js';
import { arcIndex, farMiddle, keptIndex, KeptRows, LINK, midOf, seek, type CchArcs, type KeptCounts } from './arcs.js';
import { BelowMarks, customizationParts, windowBudget, type WorkRows } from './parts.js';
import { compactIndex, compactRow, Lowered, perfectRow, ROW_END, type Keep } from './perfect.js';
import { Scratch, scratchBytes } from './scratch.js';
import type { SharedStates } from './states.js';
import type { CchTopology } from './topology.js';
import type { CchArena } from '../wasm/cch-arena.js';

/**
 * One metric of a CCH: a vehicle's costs (ArcCosts: a vehicle and weighting) on the shared topology. Per arc of the
 * topology (lower vertex → higher), its weight driven up is that of the best path from the lower state to the higher
 * one that runs through lower vertices only, driven down the same from the higher to the lower (Infinity when none).
 * A link between states x → y weighs what a search pays to go on from the head of x's arc to the head of y's: the
 * turn weight plus y's arc weight (ArcSearch's labels). The metric keeps only the arcs searches need each way
 * (perfect.ts perfectRow: about 0.56 per topology arc in both directions together on whole HCMC) with their weights
 * and middle vertices (arcs.ts CchArcs): ≈ 6.8 bytes per topology arc on whole HCMC (4.9 for truck). Customized over
 * a base whose rows most of its own equal (a car's for a taxi's), it keeps only the rows that differ (`base`): 0.66 MB
 * instead of 11.3 for a taxi on whole HCMC. Read a vertex's row through `arcsAt`, an arc through `keptAt` and `midAt`.
 */
export class CchMetric {
  /**
   * Kept arcs driven up (lower → higher end): a forward search's. Replaced only by another engine's copy of the same
   * bytes (Router.arrived), between calls: searches read them afresh on each call, and nothing else keeps them.
   */
  up: CchArcs;
  /** Kept arcs driven down (higher → lower end), listed from the lower end: a backward search's. As `up`. */
  down: CchArcs;
  /** The vehicle's turn table. */
  readonly turns: TurnTable;
  /**
   * The metric whose rows this one's are where `up` / `down` leave them to it (CchArcs.own), or null when every row
   * is its own.
   */
  readonly base: CchMetric | null;

  /**
   * Customizes the topology (the basic customization of Dibbelt, Strasser and Wagner): every arc starts at its
   * link's weight (Infinity for a shortcut), then each vertex, lowest first, relaxes the arcs between its higher
   * neighbours through itself (its lower triangles). Exact: an arc's weights are final once every vertex below both
   * its ends has been processed. Each arc notes the lowest vertex whose triangle made its weight (only a strictly
   * lighter triangle replaces the link or an earlier one). Then perfect customization, top down, picks the arcs kept
   * (perfect.ts perfectRow). On a topology of more than `windowArcs` arcs (parts.ts windowBudget: past 8.4 M arcs,
   * windows of 1 M) this runs by parts: the top of the elimination tree stays in memory, the windows below it are
   * customized one at a time, twice (once to pass their triangles on to the top, once against the top's final
   * weights), so the working rows are those of the top and one window (about 29 bytes per arc, 5 per vertex and,
   * when split, the top's marks on arcs below it: parts.ts BelowMarks), not of every arc; the same arcs, weights
   * and middles whatever the parts.
   * The working rows lie in Scratch blocks (where the CCH's build has just released its working blocks, those are
   * carved first), given up when it is done (Scratch.release: kept for the next customization until the event loop
   * turns, then freed).
   * @param made the kept arcs when another thread customized the same costs on the same topology (exchange.ts; the
   *   caller checked them: arcs.ts arcsProblem): adopted as they are, nothing customized
   * @param windowArcs most arcs of a window (parts.ts windowBudget; smaller in tests, to customize by parts)
   * @param base a metric of the same topology whose every row is its own (a car's for a taxi's, the same vehicle's
   *   for one that avoids road kinds): this one then keeps only the rows that differ from it, when they are few
   *   (arcs.ts KeptRows); needed when `made` leaves rows to a base
   * @param arena the kept arcs are written in this arena (cch-arena.ts) where it has room, for a router's
   *   WebAssembly search to read in place (for as long as the router lives: the router gives it for metrics it keeps)
   */
  constructor(
    readonly topo: CchTopology,
    readonly states: SharedStates,
    readonly costs: ArcCosts,
    made?: { up: CchArcs; down: CchArcs },
    private readonly windowArcs = windowBudget(topo),
    base: CchMetric | null = null,
    arena: CchArena | null = null,
  ) {
    if (base?.base) throw new Error('a base metric must keep every row itself');
    this.turns = states.tables[costs.profile]!;
    ({ up: this.up, down: this.down } = made ?? this.customize(base, arena));
    const over = this.up.own.length > 0 || this.down.own.length > 0;
    if (over && !base) throw new Error('kept arcs over a base metric, but no base');
    this.base = over ? base : null;
  }

  /**
   * The kept arcs that hold vertex v's row driven up (`upward`) or down: this metric's, or its base's where it leaves
   * the row to it.
   */
  arcsAt(upward: boolean, v: number): CchArcs {
    const a = upward ? this.up : this.down;
    const own = a.own;
    if (own.length === 0 || (own[v >> 5]! >>> (v & 31)) & 1) return a;
    return upward ? this.base!.up : this.base!.down;
  }

  /**
   * Index of the kept arc from v to h (v below h) driven up (`upward`) or down, or -1 when none is kept: among this
   * metric's own arcs, then its base's (at own arcs + their index), so one index names each kept arc of the metric.
   */
  keptAt(upward: boolean, v: number, h: number): number {
    const a = this.arcsAt(upward, v);
    const k = keptIndex(a, this.topo.upFirst, this.topo.upHead, v, h);
    return k < 0 || a === (upward ? this.up : this.down) ? k : (upward ? this.up : this.down).slot.length + k;
  }

  /** Where the arcs of `arcsAt(upward, v)` start among the indexes keptAt gives: 0 for the metric's own. */
  firstAt(upward: boolean, v: number): number {
    const own = upward ? this.up : this.down;
    return this.arcsAt(upward, v) === own ? 0 : own.slot.length;
  }

  /** How many indexes keptAt gives driven up (`upward`) or down: the own arcs, and the base's when it has one. */
  keptCount(upward: boolean): number {
    const own = upward ? this.up : this.down;
    return own.slot.length + (own.own.length && (upward ? this.base!.up : this.base!.down).slot.length);
  }

  /** The middle vertex of kept arc i (an index keptAt gives, of vertex v's row), or LINK. */
  midAt(upward: boolean, i: number, v: number): number {
    const own = upward ? this.up : this.down;
    if (i < own.slot.length) return midOf(own, i, v);
    return midOf(upward ? this.base!.up : this.base!.down, i - own.slot.length, v);
  }

  /** The basic customization and the kept arcs, part by part (see the constructor). */
  private customize(base: CchMetric | null, arena: CchArena | null): { up: CchArcs; down: CchArcs } {
    const topo = this.topo;
    const { upFirst, upHead } = topo;
    const n = topo.size;
    const plan = new Scratch(scratchBytes([n, 4], [n, 1]));
    const { top, topArcs, windows, widest, longest, spare } = customizationParts(topo, this.windowArcs, plan);
    // By parts unless one window holds everything (a forest of small trees has no top but may need windows).
    const split = topArcs > 0 || windows.length > 2;
    const size = topArcs + widest;
    const scratch = new Scratch(scratchBytes([size, 8], [size, 8], [size, 4], [size, 4], [size, 1], [size, 4]));
    const w: WorkRows = {
      upFirst,
      upHead,
      up: scratch.f64(size),
      down: scratch.f64(size),
      midUp: scratch.u32(size),
      midDown: scratch.u32(size),
      kept: scratch.u8(size),
      head: scratch.u32(size),
      // Each row's place is written before it is read (the top's first, each window's as it is laid).
      at: spare,
    };
    // The ways the top's kept arcs keep arcs below it (their triangles'), until the arc's window is customized.
    const below = new BelowMarks();
    const rowUp = new Float64Array(longest),
      rowDown = new Float64Array(longest);
    const row = (v: number) => upFirst[v + 1]! - upFirst[v]!;
    const inWindow = (a: number, b: number, each: (v: number) => void, downwards = false) => {
      for (let i = 0; i < b - a; i++) {
        const v = downwards ? b - 1 - i : a + i;
        if (!top[v]) each(v);
      }
    };
    // The window [a, b)'s rows after the top's, at their links' weights and kept the ways the top keeps them.
    const lay = (a: number, b: number) => {
      inWindow(a, b, (v) => {
        w.at[v] = topArcs + upFirst[v]! - upFirst[a]!;
        this.linkRow(w, v);
      });
      // Marks are on the rows of vertices below the top only, so on the window's own: topology arc i of one of them
      // is local arc topArcs + i − upFirst[a], as its row is laid above.
      below.each(upFirst[a]!, upFirst[b]!, (i, ways) => (w.kept[topArcs + i - upFirst[a]!] |= ways));
    };
    const keepLocal: Keep = (m, h, bit) => {
      w.kept[compactIndex(w, m, h)] |= bit;
    };
    // Room for the kept arcs: each is finite its way after the basic customization (a part's count, when split).
    const room: Required<KeptCounts> = { up: 0, down: 0, midsUp: 0, midsDown: 0, farUp: 0, farDown: 0 };
    const count = (v: number, keptOnly: boolean) => {
      for (let q = w.at[v]!; q < w.at[v]! + row(v) && !(keptOnly && w.head[q] === ROW_END); q++) {
        const u = keptOnly ? w.kept[q]! & 1 : w.up[q] !== Infinity,
          d = keptOnly ? w.kept[q]! & 2 : w.down[q] !== Infinity;
        if (u) (room.up++, (room.midsUp += +(w.midUp[q] !== LINK)), (room.farUp += +farMiddle(v, w.midUp[q]!)));
        if (d)
          (room.down++, (room.midsDown += +(w.midDown[q] !== LINK)), (room.farDown += +farMiddle(v, w.midDown[q]!)));
      }
    };
    // The notes of the top's rows, and of each window's in turn (all given back when its rows are written).
    const topLowered = new Lowered(),
      lowered = new Lowered();
    if (split) {
      // The top's basic weights take every window's triangles (then its own), then the top is customized perfectly.
      let next = 0;
      for (let v = 0; v < n; v++)
        if (top[v]) {
          w.at[v] = next;
          next += row(v);
          this.linkRow(w, v);
        }
      // Every vertex lowest first, as in one piece (so each arc's middle is the same), each window laid at its first.
      for (let v = 0, i = 0; v < n; v++) {
        if (i < windows.length && v === windows[i]) lay(windows[i]!, windows[(i += 2) - 1]!);
        lowerTriangles(w, v, null);
        count(v, false);
      }
      const keepBelow: Keep = (m, h, bit) => {
        if (top[m]) return keepLocal(m, h, bit);
        below.note(arcIndex(upFirst, upHead, m, h), bit);
      };
      for (let v = 0; v < n; v++) if (top[v]) compactRow(w, v);
      for (let v = n - 1; v >= 0; v--) if (top[v]) perfectRow(w, v, keepBelow, topLowered, rowUp, rowDown);
      below.finish();
    }
    // Each window again, from its links: its basic weights (the top's are final), its perfect customization against
    // the top's, and its kept arcs written with the top's rows in rank order.
    const over = base && ([base.up, base.down] as const);
    let rows: KeptRows | null = split ? new KeptRows(upFirst, room, over, false, arena, true) : null;
    let written = 0;
    // A row is written once every window below it is done: no window after reads it (its vertices rank higher than
    // the vertices below them), so its kept arcs' basic weights go back in place.
    const write = (v: number, lowered: Lowered) => {
      const lo = w.at[v]!,
        hi = lo + row(v);
      lowered.restore(lo, hi, w.up, w.down);
      // A kept arc's slot is its place in the topology's row, whose heads its compacted row's are some of, in order.
      for (let q = lo, i = upFirst[v]!; q < hi && w.head[q] !== ROW_END; q++) {
        while (upHead[i] !== w.head[q]) i++;
        const k = w.kept[q]!;
        if (k & 1) rows!.put(0, i - upFirst[v]!, w.up[q]!, w.midUp[q]!);
        if (k & 2) rows!.put(1, i - upFirst[v]!, w.down[q]!, w.midDown[q]!);
      }
      rows!.endRow();
    };
    for (let i = 0; i < windows.length; i += 2) {
      const a = windows[i]!,
        b = windows[i + 1]!;
      lay(a, b);
      inWindow(a, b, (v) => lowerTriangles(w, v, split ? top : null));
      inWindow(a, b, (v) => compactRow(w, v));
      inWindow(a, b, (v) => perfectRow(w, v, keepLocal, lowered, rowUp, rowDown), true);
      if (!rows) {
        inWindow(a, b, (v) => count(v, true));
        rows = new KeptRows(upFirst, room, over, false, arena);
      }
      for (; written < b; written++) write(written, top[written] ? topLowered : lowered);
    }
    for (; written < n; written++) write(written, topLowered);
    scratch.release();
    plan.release();
    const [up, down] = rows!.finish();
    return { up, down };
  }

  /** Puts vertex v's row (at w.at[v]) at its links' weights (Infinity for a shortcut), no middles, kept no way. */
  private linkRow(w: WorkRows, v: number): void {
    const { upFirst, upHead } = w;
    const links = this.topo.links,
      stateOf = this.topo.stateOf;
    const x = stateOf[v]!;
    for (let i = upFirst[v]!, q = w.at[v]!; i < upFirst[v + 1]!; i++, q++) {
      w.midUp[q] = w.midDown[q] = LINK;
      w.kept[q] = 0;
      // Only the state graph's links (a quarter of the arcs) have link weights to find.
      if ((links[i >> 3]! & (1 << (i & 7))) === 0) {
        w.up[q] = w.down[q] = Infinity;
        continue;
      }
      const y = stateOf[upHead[i]!]!;
      w.up[q] = this.link(x, y);
      w.down[q] = this.link(y, x);
    }
  }

  /**
   * Weight of the link from shared state x on to y — the turn's weight plus the weight of y's arc — or Infinity
   * when the vehicle cannot go from x to y: another vehicle's copy, y's arc not leaving the node x's arc enters, an
   * arc or turn closed to it (barrier, U-turn rule), or its turn table leading elsewhere (a restriction forbids the
   * turn, or it leads to another copy).
   */
  link(x: number, y: number): number {
    const p = this.costs.profile;
    const lx = this.states.local(p, x),
      ly = this.states.local(p, y);
    if (lx < 0 || ly < 0) return Infinity;
    const c = this.costs,
      t = this.turns;
    const a = t.arcOf(lx),
      b = t.arcOf(ly);
    const v = arcHead(c.graph, a);
    if (arcTail(c.graph, b) !== v) return Infinity;
    const w = c.weight;
    if (w[a] === Infinity || w[b] === Infinity || !c.openTurn(a, b, v) || t.next(lx, b) !== ly) return Infinity;
    return c.turnWeight(a, b, v) + w[b]!;
  }
}

/**
 * The basic customization's relaxation at vertex v (CchMetric's constructor): the arcs between v's higher
 * neighbours through v (its lower triangles); a strictly lighter triangle notes v as the arc's middle vertex. Run on
 * every vertex lowest first (a window's alone for its own arcs), so each arc's weight and middle are the same
 * whatever the parts.
 * @param frozen when given, the top's vertices (parts.ts): arcs between them are final and left as they are
 */
function lowerTriangles(w: WorkRows, v: number, frozen: Uint8Array | null): void {
  const { up, down, midUp, midDown, upFirst, upHead, at } = w;
  const row = upFirst[v]!,
    len = upFirst[v + 1]! - row,
    base = at[v]!;
  for (let s = 0; s < len; s++) {
    // Triangle v < u < x: the arcs v–u (i), v–x (j) and u–x (k).
    const i = base + s;
    const u = upHead[row + s]!;
    // Every later neighbour is an ancestor of u, so in the top too.
    if (frozen?.[u]) break;
    const vuUp = up[i]!,
      vuDown = down[i]!;
    if (vuUp === Infinity && vuDown === Infinity) continue;
    const kEnd = upFirst[u + 1]!,
      kAt = at[u]! - upFirst[u]!;
    for (let t = s + 1, k = upFirst[u]!; t < len; t++, k++) {
      // The topology is chordal: v's higher neighbours above u are all u's higher neighbours too.
      const j = base + t;
      k = seek(upHead, k, kEnd, upHead[row + t]!);
      const c = kAt + k;
      const viaUp = vuDown + up[j]!; // u → v → x
      if (viaUp < up[c]!) {
        up[c] = viaUp;
        midUp[c] = v;
      }
      const viaDown = down[j]! + vuUp; // x → v → u
      if (viaDown < down[c]!) {
        down[c] = viaDown;
        midDown[c] = v;
      }
    }
  }
}
