import type { RoadGraph } from './graph.js';

/**
 * Turn restrictions of one vehicle as transitions between arcs at a via node: `from` arc entering the node,
 * `to` arc leaving it. `no_*` forbids the listed transitions; `only_*` allows from that arc only the listed ones.
 * Via-way restrictions (edge paths of three or more edges) are not applied; they are counted in `ignoredViaWay`.
 */
export class TurnTable {
  /** Per arc: 1 when some restriction starts with this arc entering its head. */
  readonly flagged: Uint8Array;
  private readonly forbidden = new Map<number, number[]>();
  private readonly only = new Map<number, number[]>();
  /** Via-way restrictions of this vehicle that the search does not apply. */
  readonly ignoredViaWay: number;
  /** Number of via-node restrictions applied. */
  readonly count: number;

  constructor(graph: RoadGraph, profile: number) {
    const g = graph;
    this.flagged = new Uint8Array(2 * g.edgeCount);
    const bit = 1 << profile;
    let ignored = 0;
    let count = 0;
    for (let r = 0; r + 1 < g.turnFirst.length; r++) {
      if (!(g.turnMask[r]! & bit)) continue;
      const lo = g.turnFirst[r]!;
      const hi = g.turnFirst[r + 1]!;
      if (hi - lo !== 2) {
        ignored++;
        continue;
      }
      const e1 = g.turnEdges[lo]!;
      const e2 = g.turnEdges[lo + 1]!;
      let applied = false;
      for (const v of sharedNodes(g, e1, e2)) {
        for (const from of [2 * e1, 2 * e1 + 1]) {
          if (g.edgeNodes[(from & ~1) + 1 - (from & 1)] !== v) continue;
          for (const to of [2 * e2, 2 * e2 + 1]) {
            if (g.edgeNodes[(to & ~1) + (to & 1)] !== v) continue;
            const map = g.turnKind[r] === 1 ? this.only : this.forbidden;
            const list = map.get(from);
            if (list) list.push(to);
            else map.set(from, [to]);
            this.flagged[from] = 1;
            applied = true;
          }
        }
      }
      if (applied) count++;
    }
    this.ignoredViaWay = ignored;
    this.count = count;
  }

  /** True when the transition from arc `from` (entering node v) to arc `to` (leaving v) is allowed. */
  allowed(from: number, to: number): boolean {
    if (this.flagged[from] === 0) return true;
    const only = this.only.get(from);
    if (only && !only.includes(to)) return false;
    const no = this.forbidden.get(from);
    return !(no && no.includes(to));
  }
}

function sharedNodes(g: RoadGraph, e1: number, e2: number): number[] {
  const out: number[] = [];
  for (const u of [g.edgeNodes[2 * e1]!, g.edgeNodes[2 * e1 + 1]!]) {
    if ((u === g.edgeNodes[2 * e2] || u === g.edgeNodes[2 * e2 + 1]) && !out.includes(u)) out.push(u);
  }
  return out;
}
