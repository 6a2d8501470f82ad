import { arcHead, arcTail, type ArcCosts } from '../costs.js';
import type { TurnTable } from '../turns.js';
import { keptRows, LINK, seek, type CchArcs } from './arcs.js';
import { keptArcs, keptBytes } from './perfect.js';
import { Scratch, scratchBytes } from './scratch.js';
import type { SharedStates } from './states.js';
import type { CchTopology } from './topology.js';

/**
 * One metric of a CCH: a vehicle's costs (ArcCosts: a vehicle and weighting) on the shared topology. Per arc of the
 * topology (lower vertex → higher), its weight driven up is that of the best path from the lower state to the higher
 * one that runs through lower vertices only, driven down the same from the higher to the lower (Infinity when none).
 * A link between states x → y weighs what a search pays to go on from the head of x's arc to the head of y's: the
 * turn weight plus y's arc weight (ArcSearch's labels). The metric keeps only the arcs searches need each way
 * (perfect.ts keptArcs: about 0.56 per topology arc in both directions together on whole HCMC) with their weights
 * and middle vertices (arcs.ts CchArcs): ≈ 8 bytes per topology arc on whole HCMC (5.6 for truck).
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
   * Customizes the topology (the basic customization of Dibbelt, Strasser and Wagner): every arc starts at its
   * link's weight (Infinity for a shortcut), then each vertex, lowest first, relaxes the arcs between its higher
   * neighbours through itself (its lower triangles). Exact: an arc's weights are final once every vertex below both
   * its ends has been processed. Each arc notes the lowest vertex whose triangle made its weight (only a strictly
   * lighter triangle replaces the link or an earlier one). Then perfect customization picks the arcs kept, in place
   * (perfect.ts keptArcs); the weights of all arcs, in Scratch blocks (at most 29 bytes per topology arc and 4 per
   * vertex; where the CCH's build has just released its working blocks, those are carved first), are given up after
   * that (Scratch.release: kept for the next customization until the event loop turns, then freed).
   * @param made the kept arcs when another thread customized the same costs on the same topology (exchange.ts; the
   *   caller checked them: arcs.ts arcsProblem): adopted as they are, nothing customized
   */
  constructor(
    readonly topo: CchTopology,
    readonly states: SharedStates,
    readonly costs: ArcCosts,
    made?: { up: CchArcs; down: CchArcs },
  ) {
    this.turns = states.tables[costs.profile]!;
    ({ up: this.up, down: this.down } = made ?? this.customize());
  }

  /** The basic customization and the kept arcs (see the constructor). */
  private customize(): { up: CchArcs; down: CchArcs } {
    const topo = this.topo;
    const { upFirst, upHead, stateOf } = topo;
    const n = topo.size;
    const m = topo.arcs;
    const scratch = new Scratch(scratchBytes([m, 8], [m, 8], [m, 4], [m, 4]) + keptBytes(topo));
    const up = scratch.f64(m);
    const down = scratch.f64(m);
    const midUp = scratch.u32(m).fill(LINK);
    const midDown = scratch.u32(m).fill(LINK);
    // Shortcuts start at Infinity; only the state graph's links (a quarter of the arcs) have link weights to find.
    up.fill(Infinity);
    down.fill(Infinity);
    const links = topo.links;
    for (let r = 0; r < n; r++) {
      const x = stateOf[r]!;
      for (let i = upFirst[r]!; i < upFirst[r + 1]!; i++) {
        if ((links[i >> 3]! & (1 << (i & 7))) === 0) continue;
        const y = stateOf[upHead[i]!]!;
        up[i] = this.link(x, y);
        down[i] = this.link(y, x);
      }
    }
    lowerTriangles(n, upFirst, upHead, up, down, midUp, midDown);
    const kept = keptArcs(n, upFirst, upHead, up, down, midUp, midDown, scratch);
    const [rowsUp, rowsDown] = keptRows(upFirst, upHead, kept, up, down, midUp, midDown);
    scratch.release();
    return { up: rowsUp, down: rowsDown };
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
 * The basic customization's relaxation (CchMetric's constructor): each vertex v, lowest first, relaxes the arcs
 * between its higher neighbours through itself (its lower triangles); a strictly lighter triangle notes v as the
 * arc's middle vertex. `first`/`head` are the topology's rows, `up`/`down` the arcs' weights each way (their links'
 * to begin with), `midUp`/`midDown` their middle vertices (LINK to begin with).
 */
function lowerTriangles(
  n: number,
  first: Uint32Array,
  head: Uint32Array,
  up: Float64Array,
  down: Float64Array,
  midUp: Uint32Array,
  midDown: Uint32Array,
): void {
  for (let v = 0; v < n; v++) {
    const lo = first[v]!,
      hi = first[v + 1]!;
    for (let i = lo; i < hi; i++) {
      // Triangle v < u < w: the arcs v–u (i), v–w (j) and u–w (k).
      const u = head[i]!;
      const vuUp = up[i]!,
        vuDown = down[i]!;
      if (vuUp === Infinity && vuDown === Infinity) continue;
      const kEnd = first[u + 1]!;
      for (let j = i + 1, k = first[u]!; j < hi; j++, k++) {
        // The topology is chordal: v's higher neighbours above u are all u's higher neighbours too.
        const w = head[j]!;
        k = seek(head, k, kEnd, w);
        const viaUp = vuDown + up[j]!; // u → v → w
        if (viaUp < up[k]!) {
          up[k] = viaUp;
          midUp[k] = v;
        }
        const viaDown = down[j]! + vuUp; // w → v → u
        if (viaDown < down[k]!) {
          down[k] = viaDown;
          midDown[k] = v;
        }
      }
    }
  }
}
