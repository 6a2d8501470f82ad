import type { ContractionHierarchy } from '../ch.js';
import type { ArcCosts } from '../costs.js';
import type { RoadGraph } from '../graph.js';
import type { Endpoint } from '../search.js';
import { TRAFFIC_LIGHT_S } from '../turn-model.js';
import type { TurnTable } from '../turns.js';
import { WasmHierarchy } from './ch.js';
import {
  COSTS,
  COSTS_BYTES,
  COSTS_F64,
  GRAPH,
  GRAPH_BYTES,
  HEAP_ENTRY_BYTES,
  LABEL_BYTES,
  type GraphField,
} from './layout.js';
import { LinearMemory } from './memory.js';
import { WasmArcSearch } from './search.js';

/** Exports of bando-route.wasm (see wasm/src/lib.rs). */
export interface CoreExports {
  memory: WebAssembly.Memory;
  alloc(bytes: number): number;
  alloc_top(): number;
  alloc_reset(top: number): void;
  route(
    g: number,
    c: number,
    se: number,
    st: number,
    slat: number,
    slon: number,
    sonly: number,
    de: number,
    dt: number,
    dlat: number,
    dlon: number,
  ): number;
  one_to_many(g: number, c: number, se: number, st: number, n: number): void;
  ch_route(g: number, c: number, h: number, se: number, st: number, sonly: number, de: number, dt: number): number;
  ch_table(g: number, c: number, h: number, origins: number, dests: number): number;
  ch_derive(g: number, c: number, h: number): number;
}

/**
 * One instance of the WebAssembly core for one road graph: the graph's arrays copied once into its memory, and
 * the A* search state (labels and heaps of both sides, about 90 bytes per arc, allocated on first A* query) that
 * every vehicle and weighting of the graph shares, since a router runs one query at a time. Each vehicle /
 * weighting adds its costs (19 bytes per arc, 11 per node: weights, seconds, bearings; lights, road counts) and,
 * with a hierarchy, its records and labels.
 */
export class WasmGraph {
  readonly exports: CoreExports;
  readonly mem: LinearMemory;
  /** Address of the `Graph` header. */
  readonly header: number;
  private pointCap = 0;
  private outCap = 0;
  /** States the A* / one-to-many labels have room for (0 before the first search). */
  private labelCap = 0;
  /** Vehicles and weightings set up in this instance (Router.placeInWasm). */
  hosted = 0;
  /** Bytes the graph's copy took: what a fresh instance of the same graph starts with. */
  readonly graphBytes: number;

  /** `limit`: see LinearMemory. */
  constructor(
    module: WebAssembly.Module,
    readonly graph: RoadGraph,
    limit?: number,
  ) {
    this.exports = new WebAssembly.Instance(module, {}).exports as unknown as CoreExports;
    const m = (this.mem = new LinearMemory(this.exports.memory, this.exports, limit));
    const g = graph;
    this.header = m.filled(GRAPH_BYTES, 0);
    const set: [GraphField, number][] = [
      ['nodes', g.nodeCount],
      ['arcs', 2 * g.edgeCount],
      ['resultArc', -1],
      ['edgeNodes', m.copy(g.edgeNodes)],
      ['adjFirst', m.copy(g.adjFirst)],
      ['adjArc', m.copy(g.adjArc)],
      ['edgeLen', m.copy(g.edgeLen)],
      // Projected coordinates: written by the first vehicle / weighting (they are the same for all of them).
      ['nodeX', m.alloc(8 * g.nodeCount)],
      ['nodeY', m.alloc(8 * g.nodeCount)],
    ];
    for (const [f, v] of set) this.setField(f, v);
    this.graphBytes = m.used;
  }

  /**
   * A checkpoint of this instance: calling the function returned frees everything allocated since and restores the
   * `Graph` header and the capacities as they were (a setup that did not fit, Router.placeInWasm).
   */
  checkpoint(): () => void {
    const mark = this.mem.used;
    const header = new Uint8Array(this.mem.buffer, this.header, GRAPH_BYTES).slice();
    const { pointCap, outCap, labelCap } = this;
    return () => {
      this.mem.rollback(mark);
      new Uint8Array(this.mem.buffer, this.header, GRAPH_BYTES).set(header);
      this.pointCap = pointCap;
      this.outCap = outCap;
      this.labelCap = labelCap;
    };
  }

  /** Reads a 4-byte field of the `Graph` header. */
  field(f: GraphField): number {
    return this.mem.i32(this.header + GRAPH[f]);
  }

  /** Reads an address field of the `Graph` header (unsigned: memory reaches 4 GiB). */
  address(f: GraphField): number {
    return this.field(f) >>> 0;
  }

  /** Writes a 4-byte field of the `Graph` header. */
  setField(f: GraphField, v: number): void {
    this.mem.i32(this.header + GRAPH[f], v);
  }

  /**
   * Allocates the A* / one-to-many search state for `states` search states (TurnTable.states) on first use, and
   * again (old buffers abandoned) when a vehicle with more states than any before searches.
   */
  ensureSearchState(states: number): void {
    if (states <= this.labelCap) return;
    const m = this.mem;
    const n = Math.max(states, 2 * this.graph.edgeCount);
    const set: [GraphField, number][] = [
      ['fwd', m.filled(LABEL_BYTES * n, 0)],
      ['bwd', m.filled(LABEL_BYTES * n, 0)],
      ['fheap', m.alloc(HEAP_ENTRY_BYTES * (n + 1))],
      ['fheapPos', m.filled(4 * n, 0xff)],
      ['bheap', m.alloc(HEAP_ENTRY_BYTES * (n + 1))],
      ['bheapPos', m.filled(4 * n, 0xff)],
      ['fdur', m.alloc(8 * n)],
      ['flen', m.alloc(8 * n)],
      ['labelCap', n],
    ];
    for (const [f, v] of set) this.setField(f, v);
    this.labelCap = n;
  }

  /**
   * Writes the points of a search (edge and fraction each) and makes room for `outputs` results. Throws RangeError
   * when memory cannot grow for them; the instance is then as it was (Router answers that request in TypeScript).
   */
  writePoints(points: readonly Endpoint[], outputs: number): void {
    const m = this.mem;
    const n = points.length;
    if (n > this.pointCap || outputs > this.outCap) this.grow(n, outputs);
    const edges = new Uint32Array(m.buffer, this.address('dstEdge'), n);
    const ts = new Float64Array(m.buffer, this.address('dstT'), n);
    for (let j = 0; j < n; j++) {
      edges[j] = points[j]!.edge;
      ts[j] = points[j]!.t;
    }
  }

  /**
   * Regrows the point and output arrays that are smaller than `points` and `outputs` (by doubling; old buffers are
   * abandoned). All or nothing: fields and capacities change only once all the room is had, and a failed allocation
   * gives back what the others took before it throws.
   */
  private grow(points: number, outputs: number): void {
    const m = this.mem;
    const pointCap = points > this.pointCap ? Math.max(points, 2 * this.pointCap, 64) : 0;
    const outCap = outputs > this.outCap ? Math.max(outputs, 2 * this.outCap, 64) : 0;
    const mark = m.used;
    const set: [GraphField, number][] = [];
    try {
      if (pointCap > 0)
        set.push(
          ['dstEdge', m.alloc(4 * pointCap)],
          ['dstT', m.alloc(8 * pointCap)],
          ['dstNext', m.alloc(8 * pointCap)],
          ['dstActive', m.alloc(pointCap)],
        );
      if (outCap > 0)
        set.push(['outWeight', m.alloc(8 * outCap)], ['outDur', m.alloc(8 * outCap)], ['outDist', m.alloc(8 * outCap)]);
    } catch (err) {
      m.rollback(mark);
      throw err;
    }
    for (const [f, v] of set) this.setField(f, v);
    if (pointCap > 0) this.pointCap = pointCap;
    if (outCap > 0) this.outCap = outCap;
  }

  /** Copies `n` results (weight, seconds, metres) into the output tables at `offset`. */
  readOutputs(n: number, out: { weight: Float64Array; dur: Float64Array; dist: Float64Array }, offset: number): void {
    const buf = this.mem.buffer;
    out.weight.set(new Float64Array(buf, this.address('outWeight'), n), offset);
    out.dur.set(new Float64Array(buf, this.address('outDur'), n), offset);
    out.dist.set(new Float64Array(buf, this.address('outDist'), n), offset);
  }

  /**
   * The costs of one vehicle and weighting with its restriction states (TurnTable's transition table and copies,
   * so the core needs no restriction kinds), copied into memory; returns the header address.
   */
  costs(costs: ArcCosts, turns: TurnTable): number {
    const g = this.graph;
    const m = this.mem;
    const { nodeX, nodeY } = costs.projection();
    new Float64Array(m.buffer, this.address('nodeX'), g.nodeCount).set(nodeX);
    new Float64Array(m.buffer, this.address('nodeY'), g.nodeCount).set(nodeY);
    const header = m.filled(COSTS_BYTES, 0);
    // The per-state rows and per-arc copy offsets written in place (the table keeps neither per state).
    const rule = m.alloc(4 * turns.states),
      copyFirst = m.alloc(4 * (turns.arcs + 1));
    turns.fillDense({
      rule: new Int32Array(m.buffer, rule, turns.states),
      copyFirst: new Uint32Array(m.buffer, copyFirst, turns.arcs + 1),
    });
    const ptrs: [keyof typeof COSTS, number][] = [
      ['arcs', turns.arcs],
      ['states', turns.states],
      ['weight', m.copy(costs.weight)],
      ['dur', m.copy(costs.dur)],
      ['outOpen', m.copy(costs.outOpen)],
      ['blocked', m.copy(costs.blocked)],
      ['restricted', m.copy(costs.restricted)],
      ['rule', rule],
      ['ruleFirst', m.copy(turns.ruleFirst)],
      ['ruleTo', m.copy(turns.ruleTo)],
      ['ruleNext', m.copy(turns.ruleNext)],
      ['copyArc', m.copy(turns.copyArc)],
      ['copyFirst', copyFirst],
      ['bearing', m.copy(costs.bearing)],
      ['signal', signalSeconds(m, costs.signal)],
      ['cross', m.copy(costs.cross)],
      ['anglePenalty', m.copy(costs.anglePenalty)],
    ];
    for (const [f, v] of ptrs) m.i32(header + COSTS[f], v);
    const f64 = new Float64Array(m.buffer, header, 6);
    f64[COSTS_F64.boundPerMetre >> 3] = costs.boundPerMetre;
    f64[COSTS_F64.mPerLon >> 3] = costs.mPerLon;
    f64[COSTS_F64.mPerLat >> 3] = costs.mPerLat;
    f64[COSTS_F64.uTurn >> 3] = costs.uTurn;
    f64[COSTS_F64.turnFactor >> 3] = costs.turnWeightFactor;
    f64[COSTS_F64.restrictedTurn >> 3] = costs.restrictedTurn;
    return header;
  }

  /** The A* and one-to-many searches of one vehicle and weighting. */
  search(costs: ArcCosts, turns: TurnTable): WasmArcSearch {
    return new WasmArcSearch(this, this.costs(costs, turns), turns);
  }

  /** The queries of a pack hierarchy, over the costs header of its vehicle and weighting (see `costs`). */
  hierarchy(ch: ContractionHierarchy, costsHeader: number): WasmHierarchy {
    return new WasmHierarchy(this, costsHeader, ch);
  }
}

/** Address of the seconds of the traffic light each arc stops at (f64 per arc, as the core reads them). */
function signalSeconds(m: LinearMemory, signal: Uint8Array): number {
  const at = m.filled(8 * signal.length, 0);
  const seconds = new Float64Array(m.buffer, at, signal.length);
  for (let a = 0; a < signal.length; a++) if (signal[a]) seconds[a] = TRAFFIC_LIGHT_S;
  return at;
}
