import type { TypedArray } from '../src/pack/format.js';
import { Pack } from '../src/pack/reader.js';
import { bytesHash } from '../src/pack/bytes-hash.js';
import type { PackWriter } from '../src/pack/writer.js';
import { CH_LAYOUT_VERSION, chSection, costsCheck, type ChArrays } from '../src/route/ch.js';
import { ArcCosts, arcHead, type Weighting } from '../src/route/costs.js';
import { RoadGraph } from '../src/route/graph.js';
import { arcBearings } from '../src/route/turn-model.js';
import { PROFILE_COUNT, VEHICLES } from '../src/route/profiles.js';
import { TurnTable } from '../src/route/turns.js';
import type { ContractOptions } from './ch-build.js';
import { contractAll } from './ch-threads.js';
import { GrowableFloat64, GrowableInt32, GrowableUint32 } from './growable.js';
import { packWriter, writePack, type PackContents } from './pack-sections.js';
import type { StageProgress } from './progress.js';
import type { BaseGraph } from './ch-graph.js';

/** One hierarchy of `ch.index` (layout in src/route/ch.ts). */
export interface ChEntry {
  id: number;
  kind: 'node' | 'edge';
  profiles: number[];
  weighting: Weighting;
  check: number;
  states: number;
  records: number;
  /** Uncontracted states at the top (0: none) and landmarks among them (layout in src/route/ch.ts). */
  core: number;
  landmarks: number;
}

/** The CH sections of a pack: the index and the arrays, by section name. */
export interface ChSections {
  index: { version: typeof CH_LAYOUT_VERSION; list: ChEntry[] };
  arrays: [string, TypedArray][];
}

/**
 * The graph to contract for one vehicle and weighting: node-based when turns neither cost nor are restricted for
 * the vehicle (no turn costs, no restrictions, no barriers; U-turns are then never part of a shortest path), else
 * edge-based over the search states of TurnTable (arcs and copies of via arcs) with the transitions ArcSearch
 * allows, each weighing its turn weight plus the weight of the arc it turns onto.
 */
export function baseGraph(costs: ArcCosts, turns: TurnTable): { kind: 'node' | 'edge'; graph: BaseGraph } {
  const g = costs.graph;
  const W = costs.weight;
  const edgeBased = costs.turnCosts || turns.count > 0 || turns.states > turns.arcs || costs.blocked.includes(1);
  const S = edgeBased ? turns.states : g.nodeCount;
  const first = new Uint32Array(S + 1);
  const head = new GrowableUint32();
  const payload = new GrowableInt32();
  const weight = new GrowableFloat64();
  for (let s = 0; s < S; s++) {
    if (!edgeBased) {
      for (let i = g.adjFirst[s]!; i < g.adjFirst[s + 1]!; i++) {
        const b = g.adjArc[i]!;
        if (W[b] === Infinity) continue;
        head.push(arcHead(g, b));
        payload.push(b);
        weight.push(W[b]!);
      }
    } else if (W[turns.arcOf(s)] !== Infinity) {
      const a = turns.arcOf(s);
      const h = arcHead(g, a);
      for (let i = g.adjFirst[h]!; i < g.adjFirst[h + 1]!; i++) {
        const b = g.adjArc[i]!;
        if (W[b] === Infinity || !costs.openTurn(a, b, h)) continue;
        const t = turns.next(s, b);
        if (t < 0) continue;
        // Same expression as ContractionHierarchy's derive, so record weights match the builder's bit for bit.
        head.push(t);
        payload.push(b);
        weight.push(costs.turnWeight(a, b, h) + W[b]!);
      }
    }
    first[s + 1] = head.length;
  }
  // Copied to arrays of their own length: the graphs' buffers are handed to the contraction's workers whole.
  const graph: BaseGraph = {
    states: S,
    first,
    head: head.view().slice(),
    weight: weight.view().slice(),
    payload: payload.view().slice(),
  };
  // Partitioned contraction cuts ranges of this key: arcs follow their tail node (Hilbert order), a copy its arc.
  if (edgeBased) graph.key = Uint32Array.from({ length: S }, (_, s) => turns.arcOf(s));
  return { kind: edgeBased ? 'edge' : 'node', graph };
}

/** How `buildHierarchies` contracts: ContractOptions for every hierarchy, and the threads (see contractAll). */
export interface HierarchyOptions extends ContractOptions {
  threads?: number;
}

/**
 * Contracts one hierarchy per distinct cost vector among the vehicles × weightings asked for (vehicles with the
 * same arc weights and turn graph share one: car and hd by construction, all five in DIMACS packs), the distinct
 * ones in parallel worker threads when they are big (contractAll), running `alongside` in this thread meanwhile.
 * Reads only the pack's road graph.
 */
export function buildHierarchies(
  pack: Pack,
  weightings: readonly Weighting[],
  progress?: StageProgress,
  options: HierarchyOptions = {},
  alongside?: () => void,
): ChSections {
  const g = new RoadGraph(pack);
  const list: ChEntry[] = [];
  const graphs: BaseGraph[] = [];
  const seen = new Map<string, ChEntry>();
  let bearings: Uint16Array | undefined; // computed once, shared by every vehicle and weighting
  for (const weighting of weightings) {
    for (let profile = 0; profile < PROFILE_COUNT; profile++) {
      const costs = new ArcCosts(g, profile, weighting, () => (bearings ??= arcBearings(g)));
      const turns = new TurnTable(g, profile);
      const { kind, graph } = baseGraph(costs, turns);
      const check = costsCheck(costs, turns);
      const key = `${weighting}:${kind}:${check}:${bytesHash(new Float64Array(graph.head))}:${bytesHash(new Float64Array(graph.first))}`;
      const same = seen.get(key);
      if (same) {
        same.profiles.push(profile);
        continue;
      }
      // No timing in the pack: the same inputs must give the same bytes.
      const entry: ChEntry = {
        id: list.length,
        kind,
        profiles: [profile],
        weighting,
        check,
        states: graph.states,
        records: 0,
        core: 0,
        landmarks: 0,
      };
      seen.set(key, entry);
      list.push(entry);
      graphs.push(graph);
    }
  }
  // Named by their first vehicle; vehicles with the same costs share them (see the summary).
  const stage = `contracting ${list.length} ${list.length === 1 ? 'hierarchy' : 'hierarchies'}`;
  progress?.step(
    `${stage} (${list.map((e) => `${e.weighting} of ${VEHICLES[e.profiles[0]!]}, ${e.kind}-based, ${e.states} states`).join('; ')})`,
  );
  const { threads, ...contractOptions } = options;
  // The graphs are handed over (`graphs` emptied), so that contractAll can let them go.
  const chs = contractAll(
    graphs.splice(0).map((graph) => ({ graph, options: contractOptions })),
    threads,
    progress && ((done, total) => progress.update(done, total)),
    // Round 0 stays under the step above; each later round (overlays of cell-wise hierarchies) is a step of its own.
    progress &&
      ((r) => {
        if (r.round > 0)
          progress.step(
            `contracting round ${r.round + 1}: ${r.instances} instances, ${r.states.toLocaleString('en')} states`,
          );
      }),
    // Its own stages show while it runs; the contraction's first round is shown again once it returns.
    alongside &&
      (() => {
        alongside();
        progress?.step(`${stage}, continued`);
      }),
  );
  const arrays: [string, TypedArray][] = [];
  list.forEach((entry, i) => {
    const { ch, core, landmarks } = chs[i]!;
    entry.records = ch.node.length;
    entry.core = core;
    entry.landmarks = landmarks;
    for (const [name, arr] of Object.entries(ch) as [keyof ChArrays, TypedArray][])
      arrays.push([chSection(entry.id, name), arr]);
  });
  progress?.step(
    `writing the hierarchies: ${list.map((e) => `${e.weighting} for ${e.profiles.map((p) => VEHICLES[p]).join(', ')}`).join('; ')}`,
  );
  return { index: { version: CH_LAYOUT_VERSION, list }, arrays };
}

/** Weightings that get a hierarchy in packs (shortest, used only by static maps, keeps the exact A*). */
export const CH_WEIGHTINGS: readonly Weighting[] = ['fastest'];

/**
 * Contracts the road graph of `contents` and returns the pack with the hierarchies, running `alongside` while the
 * workers contract (contractAll): it may fill in everything but the road graph, which is read as it is on the call.
 */
export function withHierarchies(
  contents: PackContents,
  progress?: StageProgress,
  options: HierarchyOptions = {},
  alongside?: () => void,
): PackWriter {
  const plain = writePack({ ...contents, ch: undefined });
  contents.ch = buildHierarchies(Pack.from(plain), CH_WEIGHTINGS, progress, options, alongside);
  return packWriter(contents);
}
