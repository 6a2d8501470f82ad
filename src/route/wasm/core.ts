import type { ArcCosts } from '../costs.js';
import type { RoadGraph } from '../graph.js';
import type { TurnTable } from '../turns.js';
import { COSTS, COSTS_BYTES, COSTS_F64, GRAPH, GRAPH_BYTES, LABEL_BYTES, type GraphField } from './layout.js';
import { LinearMemory } from './memory.js';
import { WasmArcSearch } from './search.js';

/** Exports of bando-route.wasm (see wasm/src/lib.rs). */
export interface CoreExports {
  memory: WebAssembly.Memory;
  heap_base(): number;
  route(g: number, c: number, se: number, st: number, slat: number, slon: number, sonly: number, de: number, dt: number, dlat: number, dlon: number): number;
  one_to_many(g: number, c: number, se: number, st: number, n: number): void;
}

/**
 * One instance of the WebAssembly core for one road graph: the graph's arrays copied once into its memory, plus
 * the search state (labels and heaps of both sides) that every vehicle and weighting of the graph shares, since a
 * router runs one query at a time. Memory: about 90 bytes per arc, plus 17 per arc for each vehicle / weighting.
 */
export class WasmGraph {
  readonly exports: CoreExports;
  readonly mem: LinearMemory;
  /** Address of the `Graph` header. */
  readonly header: number;

  constructor(module: WebAssembly.Module, readonly graph: RoadGraph) {
    this.exports = new WebAssembly.Instance(module, {}).exports as unknown as CoreExports;
    const m = (this.mem = new LinearMemory(this.exports.memory, this.exports.heap_base()));
    const g = graph;
    const arcs = 2 * g.edgeCount;
    this.header = m.filled(GRAPH_BYTES, 0);
    const set: [GraphField, number][] = [
      ['nodes', g.nodeCount], ['arcs', arcs], ['resultArc', -1],
      ['edgeNodes', m.copy(g.edgeNodes)], ['adjFirst', m.copy(g.adjFirst)], ['adjArc', m.copy(g.adjArc)],
      ['edgeLen', m.copy(g.edgeLen)],
      // Projected coordinates are filled per vehicle / weighting context (they are the same for all of them).
      ['nodeX', m.alloc(8 * g.nodeCount)], ['nodeY', m.alloc(8 * g.nodeCount)],
      ['fwd', m.filled(LABEL_BYTES * arcs, 0)], ['bwd', m.filled(LABEL_BYTES * arcs, 0)],
      ['fheapItems', m.alloc(4 * arcs)], ['fheapKeys', m.alloc(8 * arcs)], ['fheapPos', m.filled(4 * arcs, 0xff)],
      ['bheapItems', m.alloc(4 * arcs)], ['bheapKeys', m.alloc(8 * arcs)], ['bheapPos', m.filled(4 * arcs, 0xff)],
      ['fdur', m.alloc(8 * arcs)], ['flen', m.alloc(8 * arcs)],
    ];
    for (const [f, v] of set) this.setField(f, v);
  }

  /** Reads a 4-byte field of the `Graph` header. */
  field(f: GraphField): number {
    return new Int32Array(this.mem.buffer, this.header + GRAPH[f], 1)[0]!;
  }

  /** Writes a 4-byte field of the `Graph` header. */
  setField(f: GraphField, v: number): void {
    new Int32Array(this.mem.buffer, this.header + GRAPH[f], 1)[0] = v;
  }

  /** Ensures room for `n` one-to-many targets (buffers regrown by doubling; old ones are abandoned). */
  reserveTargets(n: number): void {
    if (n <= this.field('dstCap')) return;
    const cap = Math.max(n, 2 * this.field('dstCap'), 64);
    const m = this.mem;
    const set: [GraphField, number][] = [
      ['dstEdge', m.alloc(4 * cap)], ['dstT', m.alloc(8 * cap)], ['dstNext', m.alloc(8 * cap)], ['dstActive', m.alloc(cap)],
      ['outWeight', m.alloc(8 * cap)], ['outDur', m.alloc(8 * cap)], ['outDist', m.alloc(8 * cap)],
    ];
    for (const [f, v] of set) this.setField(f, v);
    this.setField('dstCap', cap);
  }

  /** The search of one vehicle and weighting: copies its costs and turn bans into memory. */
  search(costs: ArcCosts, turns: TurnTable): WasmArcSearch {
    const g = this.graph;
    const m = this.mem;
    // Turn bans as explicit (from, to) arc pairs at the via node, so the core needs no restriction kinds.
    const banArc: number[] = [];
    const banFirst: number[] = [0];
    const banTo: number[] = [];
    for (let a = 0; a < 2 * g.edgeCount; a++) {
      if (!turns.flagged[a]) continue;
      const h = g.edgeNodes[(a & ~1) + 1 - (a & 1)]!;
      const before = banTo.length;
      for (let i = g.adjFirst[h]!; i < g.adjFirst[h + 1]!; i++) if (!turns.allowed(a, g.adjArc[i]!)) banTo.push(g.adjArc[i]!);
      if (banTo.length === before) continue;
      banArc.push(a);
      banFirst.push(banTo.length);
    }
    new Float64Array(m.buffer, this.field('nodeX'), g.nodeCount).set(costs.nodeX);
    new Float64Array(m.buffer, this.field('nodeY'), g.nodeCount).set(costs.nodeY);
    const header = m.filled(COSTS_BYTES, 0);
    const ptrs: [keyof typeof COSTS, number][] = [
      ['bannedArcs', banArc.length],
      ['weight', m.copy(costs.weight)], ['dur', m.copy(costs.dur)],
      ['outOpen', m.copy(costs.outOpen)], ['blocked', m.copy(costs.blocked)], ['flagged', m.copy(turns.flagged)],
      ['banArc', m.copy(Uint32Array.from(banArc))], ['banFirst', m.copy(Uint32Array.from(banFirst))],
      ['banTo', m.copy(Uint32Array.from(banTo))],
    ];
    const words = new Int32Array(m.buffer);
    for (const [f, v] of ptrs) words[(header + COSTS[f]) >> 2] = v;
    const f64 = new Float64Array(m.buffer, header, 3);
    f64[COSTS_F64.boundPerMetre >> 3] = costs.boundPerMetre;
    f64[COSTS_F64.mPerLon >> 3] = costs.mPerLon;
    f64[COSTS_F64.mPerLat >> 3] = costs.mPerLat;
    return new WasmArcSearch(this, header, costs);
  }
}
