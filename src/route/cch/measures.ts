import { arcTail } from '../costs.js';
import type { CchMetric } from './customize.js';
import { neededArcs } from './perfect.js';
import { lowerTriangle } from './triangles.js';

/**
 * The arcs of one direction of a customized CCH that a search needs, per lower end: those of vertex v are
 * first[v] .. first[v + 1] - 1, heads in `head`, weights in `weight` and in `dl` at 2k, 2k + 1 the seconds and the
 * metres of arc k (apart from the weights, which every relaxation reads, while few improve a label). An arc's
 * seconds and metres are those of the path it unpacks to (its link, or the lower triangle lowerTriangle picks,
 * recursively), so labels carried along these arcs measure the very path CchQuery.route returns through the same
 * arcs (added in another order: equal up to float rounding).
 */
export interface MeasuredArcs {
  first: Uint32Array;
  head: Uint32Array;
  weight: Float64Array;
  dl: Float64Array;
}

/**
 * Both directions of a metric's needed arcs (neededArcs: drivable and on some shortest path) with their seconds and
 * metres, for searches that carry them along the weights (CchTable). A link between two arc states runs one way,
 * so about a third of a turn-aware topology's arcs are drivable each way, and 83 % of those are needed on whole
 * HCMC (only half of those on a walk's path, through the top's cliques): 28 B (head, weight, seconds, metres) per
 * needed arc and direction, 0.56 of them per topology arc, plus two offsets per vertex: ≈ 16 bytes per topology arc.
 */
export class CchMeasures {
  /** Driven up (lower → higher end): a forward search's arcs. */
  readonly up: MeasuredArcs;
  /** Driven down (higher → lower end), listed from the lower end: a backward search's arcs. */
  readonly down: MeasuredArcs;

  constructor(m: CchMetric) {
    const needed = neededArcs(m);
    const { arcs, dl } = measure(m);
    const topo = m.topo,
      n = topo.size;
    const { upFirst, upHead } = topo;
    const make = (bit: number): MeasuredArcs => {
      let count = 0;
      for (let i = 0; i < needed.length; i++) if (needed[i]! & bit) count++;
      const out = {
        first: new Uint32Array(n + 1),
        head: new Uint32Array(count),
        weight: new Float64Array(count),
        dl: new Float64Array(2 * count),
      };
      const w = bit === 1 ? m.up : m.down,
        from = bit === 1 ? 0 : 2;
      let k = 0;
      for (let v = 0; v < n; v++) {
        for (let i = upFirst[v]!; i < upFirst[v + 1]!; i++) {
          if (!(needed[i]! & bit)) continue;
          out.head[k] = upHead[i]!;
          out.weight[k] = w[i]!;
          const at = 4 * arcs[i]!;
          out.dl[2 * k] = dl[at + from]!;
          out.dl[2 * k++ + 1] = dl[at + from + 1]!;
        }
        out.first[v + 1] = k;
      }
      return out;
    };
    this.up = make(1);
    this.down = make(2);
  }
}

/**
 * Seconds and metres of every drivable arc (finite weight one way or both): `arcs` maps a topology arc to its
 * place p (-1 when not drivable), `dl` holds at 4p .. 4p + 3 the seconds and metres driven up, then down (Infinity where not drivable).
 * Arcs by lower end, ascending: a triangle's two arcs have a lower end below the arc's, so they come first.
 */
function measure(m: CchMetric): { arcs: Int32Array; dl: Float64Array } {
  const topo = m.topo,
    c = m.costs,
    g = c.graph;
  const { upFirst, upHead, stateOf } = topo;
  const arcs = new Int32Array(topo.arcs).fill(-1);
  let size = 0;
  for (let i = 0; i < topo.arcs; i++) if (m.up[i] !== Infinity || m.down[i] !== Infinity) arcs[i] = size++;
  const dl = new Float64Array(4 * size).fill(Infinity);
  const tri = new Int32Array(2);
  for (let lo = 0; lo < topo.size; lo++)
    for (let i = upFirst[lo]!; i < upFirst[lo + 1]!; i++) {
      const hi = upHead[i]!;
      const at = arcs[i]!;
      if (at < 0) continue;
      for (const upward of [true, false]) {
        if ((upward ? m.up[i]! : m.down[i]!) === Infinity) continue;
        const k = 4 * at + (upward ? 0 : 2);
        if (!lowerTriangle(m, i, lo, upward, tri)) {
          // The link: the turn from the tail's arc and the head's whole arc.
          const a = m.states.arcOf(stateOf[upward ? lo : hi]!),
            b = m.states.arcOf(stateOf[upward ? hi : lo]!);
          dl[k] = c.turnDur(a, b, arcTail(g, b)) + c.dur[b]!;
          dl[k + 1] = g.edgeLen[b >> 1]!;
          continue;
        }
        // Up: lo → v → hi, down the arc v–lo then up the arc v–hi; down: hi → v → lo, the reverse.
        const first = 4 * arcs[tri[upward ? 0 : 1]!]! + 2,
          second = 4 * arcs[tri[upward ? 1 : 0]!]!;
        dl[k] = dl[first]! + dl[second]!;
        dl[k + 1] = dl[first + 1]! + dl[second + 1]!;
      }
    }
  return { arcs, dl };
}
