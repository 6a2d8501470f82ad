import type { Pack } from '../pack/reader.js';
import type { Region } from '../region.js';
import { CH_LAYOUT_READ, chSection, ContractionHierarchy, costsCheck, type ChArrays, type ChSections } from './ch.js';
import { chSectionV4, fromV4 } from './ch-v4.js';
import { BIG_COMPONENT_EDGES, Components, strongComponents } from './components.js';
import { storedComponents } from './stored-components.js';
import { storedSnapGrid } from './stored-snap.js';
import { ArcCosts, costArraysProblem, costBasis, type CostBasis, type Weighting } from './costs.js';
import { arcBearings } from './turn-model.js';
import type { RoadGraph } from './graph.js';
import { PROFILE_COUNT, VEHICLES } from './profiles.js';
import { ArcSearch, SearchLabels, pathMeasure, sidesBytes, type ArcPath, type Endpoint } from './search.js';
import { LabelMemory } from './label-memory.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { SnapIndex, snapPoint, type Snap } from './snap.js';
import { TurnTable } from './turns.js';
import { WasmGraph } from './wasm/core.js';
import { cchLoadFailure, cchModule, wasmLoadFailure, wasmModule } from './wasm/load.js';
import { CchArena } from './wasm/cch-arena.js';
import { CchCoreSearch } from './wasm/cch-search.js';
import { leastHierarchyBytes, type WasmHierarchy } from './wasm/ch.js';
import type { WasmArcSearch } from './wasm/search.js';
import { avoidKindsIn } from './avoid.js';
import { alikeProfile } from './alike.js';
import { buildCch, type Cch } from './cch/build.js';
import { arcsProblem } from './cch/arcs.js';
import { CchMetric } from './cch/customize.js';
import { CchTopology, topologyProblem } from './cch/topology.js';
import { samePart, type MetricCounts, type MetricExchange, type MetricPart } from './cch/exchange.js';
import { CchMeasures, measuresProblem } from './cch/measures.js';
import { CchQuery, QueryLabels } from './cch/query.js';
import { CchTable, TableLabels } from './cch/table.js';
import { CCH_ORDER_SECTIONS, storedOrder } from './cch/stored-order.js';
import { TableTrees } from './cch/trees.js';

/** A computed route between two snapped points. */
export interface Leg {
  path: ArcPath;
  /** Search weight (routability for fastest, metres for shortest). */
  weight: number;
  /** Seconds. */
  duration: number;
  /** Metres. */
  distance: number;
}

/**
 * Contexts that avoid road kinds (avoid.ts) a router keeps at once, least recently used dropped first: each holds a
 * customized metric (about 8 bytes per CCH arc: 13 MB on a whole city), and there are 7 combinations of kinds per
 * vehicle and weighting.
 */
export const AVOID_CONTEXTS_KEPT = 4;

/** Bytes an instance of the core keeps free for the points and outputs of requests (see Router.placeInWasm). */
export const WASM_QUERY_RESERVE = 2 ** 24;

/** The context key under which a router shares its CCH's topology (one per pack, whatever the context). */
const TOPOLOGY = 'cch';

/** A context's key (`profile:weighting`, then `:avoid` when it avoids road kinds) as a reader names it: "car (fastest)". */
function contextName(key: string): string {
  const [profile, weighting] = key.split(':');
  return `${VEHICLES[Number(profile)] ?? `profile ${profile}`} (${weighting})`;
}

/** Everything the searches of one vehicle and weighting need, built on first use. */
export interface RouteContext {
  costs: ArcCosts;
  turns: TurnTable;
  search: ArcSearch;
  /** The road kinds it avoids (avoid.ts AVOID_KINDS bits, only kinds the graph has), 0 for none. */
  avoid: number;
  /** The pack's contraction hierarchy for this vehicle and weighting (see ch.ts), or null: then `cch` or A* answers. */
  ch: ContractionHierarchy | null;
  /**
   * The customizable hierarchy's query on this context's metric, customized on first use, when the context routes by
   * it (no hierarchy for its costs, and it avoids road kinds or the pack stores the CCH's order); else null: A*.
   */
  cch(): CchQuery | null;
  /** The same hierarchy's many-to-many table (made on first use; null when the context does not route by it). */
  cchTable(): CchTable | null;
  /** The context's customized metric when it is made already (null before, or when it does not route by the CCH). */
  metric(): CchMetric | null;
  /** The WebAssembly core's searches (same answers as `search` and `ch`), built on first use while the router uses it. */
  wasm: { search: WasmArcSearch; ch: WasmHierarchy | null } | null;
  /** Why this vehicle and weighting route in TypeScript while the router uses the core (it did not fit), or null. */
  wasmRefused: string | null;
  /** costsCheck of `costs` and `turns`, computed once on first use (stored hierarchies and components compare it). */
  check(): number;
}

/** One entry of a pack's `ch.index` section (layout in ch.ts). */
interface ChIndexEntry {
  id: number;
  kind: 'node' | 'edge';
  profiles: number[];
  weighting: Weighting;
  check: number;
  /** Uncontracted states at the top (version 4; absent in version 3: none). */
  core?: number;
}

/** An endpoint as Router.snap gives it: possibly with the nearest point of a small component kept in `local`. */
export type Snapped<P extends Endpoint = Endpoint> = P & { local?: P };

/** A leg between two snaps (see Router.snapLeg), with the two points it really runs between. */
export interface SnapLeg<P extends Endpoint = Endpoint> extends Leg {
  /** Where the leg starts: the origin's snap, or its `local` point when the pair routes within a small component. */
  from: P;
  /** Where the leg ends: the destination's snap, or its `local` point likewise. */
  to: P;
}

/**
 * A leg with its two points, as an object of one fixed shape. Not `{ ...leg, from, to }`: V8 gives nearly every
 * object built by a spread and then a further property a map of its own, so the code that reads legs saw a new map
 * at almost every call and was deoptimized and compiled again (whole-HCMC directions: tens of milliseconds of
 * compiling a few times per hundred calls).
 */
export function legWithEnds<P extends Endpoint>(leg: Leg, from: P, to: P): SnapLeg<P> {
  return { path: leg.path, weight: leg.weight, duration: leg.duration, distance: leg.distance, from, to };
}

/** The route core in use and, when it is TypeScript, why (see Router.coreInfo). */
export interface CoreInfo {
  core: 'wasm' | 'typescript';
  reason: string | null;
  /** With the WebAssembly core: the vehicles and weightings that route in TypeScript because they did not fit, why. */
  inTypeScript?: string[];
  /**
   * Once the router made its customizable hierarchy: where its point-to-point searches run (cch-search.ts), and for
   * TypeScript why; with WebAssembly, the metrics made so far that search in TypeScript all the same, and why.
   */
  customizable?: { core: 'wasm' | 'typescript'; reason: string | null; inTypeScript?: string[] };
}

/**
 * What routes a pack's usual requests (those that avoid nothing, which always route by the customizable hierarchy):
 * its per-vehicle contraction hierarchies (a pack built with `--ch`), the customizable hierarchy over its stored order
 * (the default), or searches on the road graph alone (a pack with neither).
 */
export type RoutingStructure = 'hierarchies' | 'customizable' | 'search';

/** Weight, duration (s) and distance (m) tables, row-major (origin i, destination j at i * cols + j). */
export interface CostTable {
  weight: Float64Array;
  dur: Float64Array;
  dist: Float64Array;
}

/**
 * A CostTable's weights alone (what a trip's solver reads: its legs are measured along their paths), or a whole
 * CostTable; a table filled into one without `dur` carries no seconds or metres.
 */
export type WeightTable = Pick<CostTable, 'weight'> & Partial<Pick<CostTable, 'dur' | 'dist'>>;

/**
 * Routing over one region's road graph: snapping and searches per vehicle profile (pack order, see VEHICLES) and
 * weighting. Contexts (arc costs, turn table, search) are built lazily and kept; a Router is not re-entrant
 * (one query at a time, as everything in the engine runs on one thread).
 */
export class Router {
  private snapIndex: SnapIndex | null = null;
  private readonly contexts = new Map<string, RouteContext>();
  /** Keys of the contexts that avoid road kinds, least recently used first (at most AVOID_CONTEXTS_KEPT). */
  private readonly avoiding: string[] = [];
  /** Each vehicle's turn table, made on first use and shared by its weightings and the CCH. */
  private readonly tables: (TurnTable | undefined)[] = new Array<TurnTable | undefined>(PROFILE_COUNT);
  /** The CCH's states and topology, made on first use (cchOf). */
  private customizable: Cch | undefined;
  /**
   * The memory the CCH's WebAssembly search reads (cch-arena.ts), made with the CCH (arenaOf), and the search over
   * it (CchCoreSearch; null where the topology found no room there); null where the CCH routes in TypeScript, why in
   * `inTypeScript`.
   */
  private arena: CchArena | null | undefined;
  private coreSearch: CchCoreSearch | null | undefined;
  private inTypeScript: string | null = null;
  /**
   * The labels every metric's CCH query shares, and those every metric's CCH table shares, on first use; their
   * per-vertex arrays and those of searchLabels lie in one block (`labelMemory`: the router runs one at a time).
   */
  private queryLabels: QueryLabels | undefined;
  private tableLabels: TableLabels | undefined;
  private readonly labelMemory = new LabelMemory();
  /** The walks of the last stopTable by the customizable hierarchy, their buffers kept for the next one. */
  private tableTrees: TableTrees | undefined;
  /** The labels every context's ArcSearch shares (made by the first search in TypeScript). */
  private readonly searchLabels = new SearchLabels(this.labelMemory);
  /** The avoid mask of the kinds of road the graph has (avoid.ts avoidKindsIn), on first use. */
  private avoidable: number | undefined;
  /** Per profile, the lowest one that routes exactly alike (alike.ts), each on its first use (-1 before). */
  private alike: number[] | undefined;
  private wasmGraph: WasmGraph | null = null;
  private readonly comps: (Components | null)[] = new Array<Components | null>(PROFILE_COUNT).fill(null);
  /** Edges a component needs to count as big (see Components); the largest component always counts. */
  readonly bigComponentEdges: number;
  /** Search with the WebAssembly core once it is loaded (see loadWasmCore); false forces the TypeScript searches. */
  wasm: boolean;
  /** Why this router left the WebAssembly core for TypeScript after a failed call into it; null while it has not. */
  private wasmFailure: string | null = null;
  /**
   * Shares the metrics this router customizes with the routers of other engines of the process, and offers theirs
   * (see MetricExchange); null: every metric is made here. Used only with a pack (its identity keys the metrics).
   */
  exchange: MetricExchange | null = null;
  /**
   * What holds each part this router made itself and published, by exchange key (its metric, or its table's
   * measures), until another engine's copy of the same bytes replaces it (`arrived`) or its context is dropped.
   */
  private readonly own = new Map<string, { kind: 'arcs' | 'measures'; holder: CchMetric | CchMeasures }>();
  /** The context key of the base of each metric made over one (CchMetric.base). */
  private readonly baseKeys = new WeakMap<CchMetric, string>();
  /** Metric parts made here, adopted and refused (metricCounts). */
  private readonly counts = {
    arcs: { made: 0, adopted: 0 },
    measures: { made: 0, adopted: 0 },
    topology: { made: 0, adopted: 0 },
    costs: { made: 0, adopted: 0 },
    refused: 0,
  };

  /** The graph, or how to open it on first use (a region's graph: a router made at load opens nothing). */
  private graphOf: RoadGraph | (() => RoadGraph);

  /** The bytes of an instance of the core the TypeScript side may use (LinearMemory `limit`; tests set it lower). */
  private readonly wasmLimit: number | undefined;

  /**
   * `graph`: the road graph, or a function giving it, called on first use. `pack` supplies the precomputed
   * hierarchies (sections `ch.*`); without it every search is A*. `opts.wasm`: see the `wasm` property (default
   * true). `opts.bigComponentEdges`: see that property (default BIG_COMPONENT_EDGES = 1000 edges).
   * `opts.wasmLimit`: bytes of each instance of the core the TypeScript side may fill (default 4 GiB, all of it).
   */
  constructor(
    graph: RoadGraph | (() => RoadGraph),
    readonly pack: Pack | null = null,
    opts: { wasm?: boolean; bigComponentEdges?: number; wasmLimit?: number } = {},
  ) {
    this.graphOf = graph;
    this.wasm = opts.wasm !== false;
    this.bigComponentEdges = opts.bigComponentEdges ?? BIG_COMPONENT_EDGES;
    this.wasmLimit = opts.wasmLimit;
  }

  /** The road graph routed over. */
  get graph(): RoadGraph {
    if (typeof this.graphOf === 'function') this.graphOf = this.graphOf();
    return this.graphOf;
  }

  /** The graph's perceived bearings per arc (turn-model.ts), computed on first use and shared by every context. */
  private bearings: Uint16Array | undefined;
  /** What every context's costs share (costs.ts CostBasis), computed on first use. */
  private basis: CostBasis | undefined;

  /**
   * The index of the graph's edge segments, shared by snapping and reverse geocoding: on first use, over the pack's
   * stored grid when it has one for this graph, else built.
   */
  segments(): SnapIndex {
    const pack = this.pack;
    return (this.snapIndex ??= new SnapIndex(this.graph, pack && ((layout) => storedSnapGrid(pack, layout))));
  }

  /**
   * Strongly connected components of a vehicle's road graph (turn rules included), on first use: the pack's stored
   * ones when it has them for these costs, else computed.
   */
  components(profile: number): Components {
    profile = this.alikeOf(profile);
    let c = this.comps[profile];
    if (!c) {
      const ctx = this.context(profile, 'fastest');
      const stored = this.pack ? storedComponents(this.pack, profile, ctx.costs, ctx.turns, ctx.check()) : null;
      c = this.comps[profile] = new Components(
        stored ?? strongComponents(ctx.costs, ctx.turns),
        this.bigComponentEdges,
      );
    }
    return c;
  }

  /**
   * The costs, turn table and search of a vehicle and weighting, avoiding the road kinds of avoid mask `avoid`
   * (avoid.ts; kinds the graph has none of are dropped, so a mask of only those is the context without avoid).
   * Contexts that avoid something are kept AVOID_CONTEXTS_KEPT at a time. Profiles that route alike (alike.ts)
   * share one context: its costs are the lowest such profile's.
   */
  context(profile: number, weighting: Weighting = 'fastest', avoid = 0): RouteContext {
    if (!(profile >= 0 && profile < PROFILE_COUNT)) throw new RangeError(`unknown profile ${profile}`);
    profile = this.alikeOf(profile);
    if (avoid !== 0) avoid &= this.avoidable ??= avoidKindsIn(this.graph);
    const key = contextKey(profile, weighting, avoid);
    let c = this.contexts.get(key);
    if (!c) {
      const g = this.graph;
      const made = this.adopt('costs', key, (p) => costArraysProblem(p, g));
      const costs = new ArcCosts(
        g,
        profile,
        weighting,
        () => (this.bearings ??= arcBearings(g)),
        () => (this.basis ??= costBasis(g)),
        avoid,
        { made, shared: !!(this.exchange && this.pack), same: made ? undefined : this.sameVehicle(profile) },
      );
      if (!made) {
        const { weight, dur, outOpen, blocked, cross, restricted, boundPerMetre } = costs;
        this.publish(key, { kind: 'costs', weight, dur, outOpen, blocked, cross, restricted, boundPerMetre });
      }
      const turns = this.turnTable(profile);
      const search = new ArcSearch(costs, turns, this.searchLabels);
      let hash: number | undefined;
      const check = () => (hash ??= costsCheck(costs, turns));
      const ch = this.hierarchy(profile, weighting, costs, turns, check);
      const byCch = !ch && (avoid !== 0 || !!this.pack?.has(CCH_ORDER_SECTIONS.index));
      let metric: CchMetric | undefined, query: CchQuery | undefined, many: CchTable | undefined;
      const customized = () => (metric ??= this.metric(costs, key));
      c = {
        costs,
        turns,
        search,
        avoid,
        ch,
        cch: () => (byCch ? (query ??= this.cchQuery(customized())) : null),
        cchTable: () => (byCch ? (many ??= this.cchTable(customized(), key)) : null),
        metric: () => metric ?? null,
        wasm: null,
        wasmRefused: null,
        check,
      };
      this.contexts.set(key, c);
      if (avoid !== 0) this.avoiding.push(key);
    }
    if (avoid !== 0) this.keep(key);
    return c;
  }

  /** The arc costs of a context of vehicle `profile` (after alike.ts) this router holds, if any. */
  private sameVehicle(profile: number): ArcCosts | undefined {
    for (const c of this.contexts.values()) if (c.costs.profile === profile) return c.costs;
    return undefined;
  }

  /** Marks avoiding context `key` used last, dropping the least recently used beyond AVOID_CONTEXTS_KEPT. */
  private keep(key: string): void {
    const list = this.avoiding;
    list.splice(list.indexOf(key), 1);
    list.push(key);
    while (list.length > AVOID_CONTEXTS_KEPT) {
      const dropped = list.shift()!;
      const metric = this.contexts.get(dropped)?.metric();
      this.contexts.delete(dropped);
      if (!this.pack) continue;
      this.own.delete(this.shareKey('arcs', dropped));
      this.own.delete(this.shareKey('measures', metric ? this.measuresKey(metric, dropped) : dropped));
    }
  }

  /** The lowest profile that routes exactly like `profile` (alike.ts): the one whose structures both use. */
  private alikeOf(profile: number): number {
    const alike = (this.alike ??= new Array<number>(PROFILE_COUNT).fill(-1));
    if (alike[profile]! < 0) alike[profile] = alikeProfile(this.graph, profile);
    return alike[profile]!;
  }

  /**
   * A vehicle's turn table (one per vehicle, whatever the weighting; profiles that route alike share one, whose
   * states are the same as each would have).
   */
  private turnTable(profile: number): TurnTable {
    const p = this.alikeOf(profile);
    return (this.tables[profile] ??= this.tables[p] ??= new TurnTable(this.graph, p));
  }

  /**
   * The CCH of the graph, on first use: its topology adopted from another engine when one offers it for this pack and
   * it fits the states; else made over the pack's stored order when it has one for this graph, else ordered, and then
   * offered to the other engines (in shared memory, so that a process holds it once).
   */
  private cchOf(): Cch {
    if (this.customizable) return this.customizable;
    const pack = this.pack;
    let adopted: CchTopology | undefined;
    const cch = buildCch(
      this.graph,
      Array.from({ length: PROFILE_COUNT }, (_, p) => this.turnTable(p)),
      (t) => pack && storedOrder(pack, t),
      (states) => {
        const part = this.adopt('topology', TOPOLOGY, (p) => topologyProblem(p, states.size));
        return (adopted = part && new CchTopology(part));
      },
      { shared: !!(this.exchange && pack), arena: this.arenaOf() },
    );
    // Another engine's topology lies in its memory, which this router's search cannot read: no arena then, and the
    // metrics made here go to shared buffers as the other engines' do.
    if (adopted && this.arena) {
      this.arena = null;
      this.inTypeScript = "the topology is another engine's (adopted through the metric exchange)";
    }
    if (!adopted) {
      const { upFirst, upHead, parent, rankOf, stateOf, links } = cch.topo;
      this.publish(TOPOLOGY, { kind: 'topology', upFirst, upHead, parent, rankOf, stateOf, links });
    }
    return (this.customizable = cch);
  }

  /**
   * The CCH customized for a context's costs (context key `key`): adopted from another engine when one offers it
   * (with its base, made or adopted here, when it keeps only its rows that differ from one), else customized over
   * the first base this router holds (`bases`), keeping only its own rows when they are few (arcs.ts KeptRows).
   */
  private metric(costs: ArcCosts, key: string): CchMetric {
    const { topo, states } = this.cchOf();
    let base: CchMetric | null = null;
    const adopted = this.adopt(
      'arcs',
      key,
      (p) =>
        arcsProblem(p.up, topo.upFirst) ??
        arcsProblem(p.down, topo.upFirst) ??
        this.baseProblem(p, costs, (m) => (base = m)),
    );
    let baseKey = adopted?.base ?? '';
    if (!adopted)
      for (const { key: k } of bases(costs.profile, costs.weighting, costs.avoid)) {
        const made = this.contexts.get(k)?.metric();
        if (made && !made.base) {
          [base, baseKey] = [made, k];
          break;
        }
      }
    // In the arena only metrics the router keeps as long as it lives: those avoiding road kinds are dropped (keep).
    const m = new CchMetric(topo, states, costs, adopted, undefined, base, costs.avoid === 0 ? this.arenaOf() : null);
    if (m.base) this.baseKeys.set(m, baseKey);
    if (!adopted) this.publish(key, { kind: 'arcs', up: m.up, down: m.down, base: m.base ? baseKey : '' }, m);
    return m;
  }

  /**
   * Why the base that offered kept arcs `p` name cannot be had here, or null, `use` then given it: rows left to a base
   * need one of `bases` of these costs (so a base never leads back to the metric asking), made or adopted here as a
   * metric of every row; rows all its own need none.
   */
  private baseProblem(
    p: Extract<MetricPart, { kind: 'arcs' }>,
    costs: ArcCosts,
    use: (base: CchMetric) => void,
  ): string | null {
    if (p.up.own.length === 0 && p.down.own.length === 0) return p.base === '' ? null : `a base ${p.base} for no row`;
    const named = bases(costs.profile, costs.weighting, costs.avoid).find((b) => b.key === p.base);
    if (!named) return `rows left to ${p.base ? `base ${p.base}, none of its own` : 'no base'}`;
    const m = this.context(named.profile, costs.weighting).cch()?.metric;
    if (!m || m.base) return `its base ${p.base} is not a metric of every row`;
    use(m);
    return null;
  }

  /**
   * Part `kind` of context `key`'s metric as another engine offers it through `exchange` (see MetricExchange), when
   * `problem` finds nothing wrong with it; else undefined, and the caller makes it (an offer that does not fit is
   * counted refused).
   */
  private adopt<K extends MetricPart['kind']>(
    kind: K,
    key: string,
    problem: (part: Extract<MetricPart, { kind: K }>) => string | null,
  ): Extract<MetricPart, { kind: K }> | undefined {
    const x = this.exchange;
    if (!x || !this.pack) return undefined;
    const id = this.shareKey(kind, key);
    const part = x.offer(id);
    if (!part) return undefined;
    if (part.kind !== kind || problem(part as Extract<MetricPart, { kind: K }>) !== null) {
      this.counts.refused++;
      return undefined;
    }
    this.counts[part.kind].adopted++;
    x.adopted(id);
    return part as Extract<MetricPart, { kind: K }>;
  }

  /**
   * Counts a part this router made for context `key` (TOPOLOGY: the CCH's topology), and offers it to other engines
   * through `exchange`; `holder` holds a metric part (see `own`). Arc costs have no holder: a router keeps the ones
   * it made (every search of the context reads them), even when another engine made the same at the same time.
   */
  private publish(key: string, part: MetricPart, holder?: CchMetric | CchMeasures): void {
    this.counts[part.kind].made++;
    if (!this.exchange || !this.pack) return;
    const id = this.shareKey(part.kind, key);
    if (holder && (part.kind === 'arcs' || part.kind === 'measures')) this.own.set(id, { kind: part.kind, holder });
    this.exchange.published(id, part);
  }

  /**
   * A part another engine made arrived under exchange key `key` (MetricExchange.listen), between calls. When this
   * router made its own copy of it (both were asked for it at once) and the bytes are the same, its own is let go
   * for the one that arrived, which the other engines hold too: the process then holds the part once. Anything else
   * changes nothing (a part not made here is offered when needed, and checked then).
   */
  arrived(key: string, part: MetricPart): void {
    const mine = this.own.get(key);
    if (!mine || mine.kind !== part.kind) return;
    const { holder } = mine;
    const base = holder instanceof CchMetric && holder.base ? this.baseKeys.get(holder)! : '';
    const held = { kind: mine.kind, up: holder.up, down: holder.down, base } as MetricPart;
    if (!samePart(held, part)) return;
    // Arcs this router's WebAssembly search reads stay where it reads them (the other copy lies in other memory).
    if (holder instanceof CchMetric && this.arena?.holds(holder.up.weight)) return;
    this.own.delete(key);
    holder.up = part.up;
    holder.down = part.down;
  }

  /** The exchange key of part `kind` of context `key`'s metric: the pack's identity makes it exact across engines. */
  private shareKey(kind: MetricPart['kind'], key: string): string {
    return `${kind}:${this.pack!.identity}:${key}`;
  }

  /** How many metric parts this router made, adopted and refused (MetricCounts), as a copy. */
  metricCounts(): MetricCounts {
    const c = this.counts;
    return {
      metrics: { ...c.arcs },
      measures: { ...c.measures },
      topology: { ...c.topology },
      costs: { ...c.costs },
      refused: c.refused,
    };
  }

  /**
   * A query on metric `m` in the labels the router's CCH queries share (a router runs one query at a time), searching
   * in WebAssembly when the router's core search reads the metric.
   */
  private cchQuery(m: CchMetric): CchQuery {
    const arena = this.arenaOf();
    if (arena && this.coreSearch === undefined) {
      this.coreSearch = CchCoreSearch.over(arena, m.topo);
      if (!this.coreSearch) this.inTypeScript = 'the WebAssembly memory had no room for the topology';
      // The labels of every search of the router in one block there, room for the largest: an ArcSearch's over every
      // state (a vehicle's states are some of the CCH's), more than a query's or a table's per vertex.
      else this.labelMemory.place(arena, sidesBytes(m.topo.size));
    }
    return new CchQuery(m, (this.queryLabels ??= new QueryLabels(m.topo.parent, this.labelMemory)), this.coreSearch);
  }

  /**
   * The arena of the CCH's WebAssembly search, made on first call (before the CCH is built, which lays its topology
   * there), or null: without WebAssembly (`wasm` false, or bando-cch.wasm not loaded) or shared WebAssembly memory
   * (a browser page that is not cross-origin isolated). The labels of the router's searches are laid there too, from
   * its first CCH query (LabelMemory.place). With an `exchange`, the parts made here are offered to the other engines
   * as views of this memory (a SharedArrayBuffer: another thread reads them in place, searching in TypeScript); a
   * router that adopts the topology drops its arena (cchOf).
   */
  private arenaOf(): CchArena | null {
    if (this.arena !== undefined) return this.arena;
    const module = this.wasm ? cchModule() : null;
    this.arena = module && CchArena.create(module);
    this.inTypeScript = this.arena
      ? null
      : !this.wasm
        ? 'WebAssembly turned off (wasm: false)'
        : !module
          ? (cchLoadFailure() ?? 'not loaded')
          : 'no shared WebAssembly memory here';
    return this.arena;
  }

  /**
   * A many-to-many table on metric `m` (context key `key`) in the labels the router's CCH tables share. The metric's
   * measures are adopted from another engine when one offers them, else made and offered, when a table first carries
   * seconds and metres (a trip's tables carry weights alone).
   */
  private cchTable(m: CchMetric, key: string): CchTable {
    key = this.measuresKey(m, key);
    return new CchTable(m, (this.tableLabels ??= new TableLabels(m.topo.parent, this.labelMemory)), () => {
      const adopted = this.adopt('measures', key, (p) => measuresProblem(m, p));
      const made = new CchMeasures(m, adopted);
      if (!adopted) this.publish(key, { kind: 'measures', up: made.up, down: made.down }, made);
      return made;
    });
  }

  /**
   * The context key metric `m`'s measures are shared under (its context's key `key`): measures index a metric's kept
   * arcs its base's included (CchMetric.keptAt), so those of a metric over a base are keyed by both.
   */
  private measuresKey(m: CchMetric, key: string): string {
    return m.base ? `${key}>${this.baseKeys.get(m)}` : key;
  }

  /** The WebAssembly core's searches of a context when the router uses the core and it is loaded, else null. */
  private wasmOf(ctx: RouteContext): RouteContext['wasm'] {
    const module = this.wasm ? wasmModule() : null;
    // Contexts that avoid road kinds come and go (AVOID_CONTEXTS_KEPT), and the core cannot free what one placed.
    if (!module || ctx.avoid !== 0) return null;
    if (ctx.wasmRefused) return null;
    try {
      if (!ctx.wasm) this.placeInWasm(ctx, module);
      return ctx.wasm;
    } catch (err) {
      // Linear memory could not grow, or a hierarchy the core refuses: stay in TypeScript, and say why (coreInfo).
      this.wasm = false;
      this.wasmFailure = err instanceof Error ? err.message : String(err);
      return null;
    }
  }

  /**
   * Sets up a context's costs and hierarchy in the router's current instance of the core; when they do not fit there
   * (a wasm32 memory ends at 4 GiB: a big pack's hierarchies, NY 2 × 2 tiles about 1.5 GB each, do not all fit in
   * one), in a new instance (a copy of the graph), which later contexts then share; when they do not fit alone
   * either, the context stays in TypeScript (`wasmRefused`) and the others keep the core. A setup that did not fit
   * is rolled back; one whose hierarchy alone needs more than an instance has left (`leastHierarchyBytes`) is not
   * tried there, and no new instance is made for it when even a fresh one would not hold it.
   */
  private placeInWasm(ctx: RouteContext, module: WebAssembly.Module): void {
    let why = '';
    // A hierarchy is not copied into an instance whose room is less than it needs at least.
    const least = ctx.ch ? leastHierarchyBytes(ctx.ch) : 0;
    const tooBig = (used: number, limit: number) =>
      used + least > limit - WASM_QUERY_RESERVE
        ? `its hierarchy needs at least ${least} bytes of the core's memory and ${limit - used} are left`
        : null;
    // A new instance helps only when the current one holds other contexts.
    const tries = !this.wasmGraph ? [true] : this.wasmGraph.hosted > 0 ? [false, true] : [false];
    for (const fresh of tries) {
      // A fresh instance starts with the graph's copy, as the current one did: none is made for a hierarchy too big.
      const base = this.wasmGraph;
      const hopeless = fresh && base && tooBig(base.graphBytes, base.mem.limit);
      if (hopeless) {
        why = hopeless;
        break;
      }
      if (fresh) this.wasmGraph = new WasmGraph(module, this.graph, this.wasmLimit);
      const core = this.wasmGraph!;
      const restore = core.checkpoint();
      try {
        const full = tooBig(core.mem.used, core.mem.limit);
        if (full) throw new RangeError(full);
        const search = core.search(ctx.costs, ctx.turns);
        const ch = ctx.ch && core.hierarchy(ctx.ch, search.header);
        // What queries allocate on the TypeScript side: the A* labels, made now so that they are counted, and room
        // for the points and outputs of a request.
        core.ensureSearchState(ctx.turns.states);
        if (core.mem.used > core.mem.limit - WASM_QUERY_RESERVE)
          throw new RangeError(`less than ${WASM_QUERY_RESERVE} bytes would be left for queries`);
        ctx.wasm = { search, ch };
        core.hosted++;
        return;
      } catch (err) {
        restore();
        if (!(err instanceof RangeError)) throw err;
        why = err.message;
      }
    }
    ctx.wasmRefused = why;
  }

  /** The A* / one-to-many search answering a context's queries: the WebAssembly core's when in use, else TypeScript's. */
  searchOf(ctx: RouteContext): ArcSearch | WasmArcSearch {
    return this.wasmOf(ctx)?.search ?? ctx.search;
  }

  /** The hierarchy query answering a context's queries (WebAssembly or TypeScript), null without a hierarchy. */
  hierarchyOf(ctx: RouteContext): ContractionHierarchy | WasmHierarchy | null {
    return ctx.ch && (this.wasmOf(ctx)?.ch ?? ctx.ch);
  }

  /**
   * Runs one query with the context's hierarchy and search (hierarchyOf, searchOf); when the WebAssembly core has no
   * memory left for it (RangeError: its points, outputs or many-to-many buckets; the core's state stays sound), runs
   * it again in TypeScript. Later queries try the core again: only a request bigger than what is left fails there.
   */
  private answer<T>(
    ctx: RouteContext,
    query: (ch: ContractionHierarchy | WasmHierarchy | null, search: ArcSearch | WasmArcSearch) => T,
  ): T {
    const ch = this.hierarchyOf(ctx),
      search = this.searchOf(ctx);
    try {
      return query(ch, search);
    } catch (err) {
      if (!(err instanceof RangeError) || (ch === ctx.ch && search === ctx.search)) throw err;
      return query(ctx.ch, ctx.search);
    }
  }

  /** Which core answers point-to-point and matrix searches of a vehicle and weighting. */
  core(profile: number, weighting: Weighting = 'fastest'): 'wasm' | 'typescript' {
    return this.wasmOf(this.context(profile, weighting)) ? 'wasm' : 'typescript';
  }

  /**
   * The core this router routes with and, for TypeScript, why: turned off (`wasm` false by option), the core not
   * loaded (wasmLoadFailure) or a failed call into it (the error, recorded when it happened); null with the
   * WebAssembly core, and then the vehicles that route in TypeScript because they did not fit (inTypeScript). Sets
   * nothing up.
   */
  coreInfo(): CoreInfo {
    if (this.wasmFailure) return { core: 'typescript', reason: `a WebAssembly call failed: ${this.wasmFailure}` };
    if (!this.wasm) return { core: 'typescript', reason: 'WebAssembly turned off (wasm: false)' };
    const failure = wasmLoadFailure();
    if (failure) return { core: 'typescript', reason: failure };
    const refused = [...this.contexts]
      .filter(([, c]) => c.wasmRefused)
      .map(([key, c]) => `${contextName(key)} does not fit in WebAssembly memory (${c.wasmRefused})`);
    return {
      core: 'wasm',
      reason: null,
      ...(refused.length > 0 && { inTypeScript: refused }),
      ...(this.arena !== undefined && { customizable: this.customizableCore() }),
    };
  }

  /**
   * Where the CCH's point-to-point searches run once it is made: WebAssembly, with the metrics made so far that search
   * in TypeScript all the same and why (those that avoid road kinds; arcs another engine made, or that found no room;
   * the CCH's tables always run in TypeScript), or TypeScript and why.
   */
  private customizableCore(): NonNullable<CoreInfo['customizable']> {
    const core = this.coreSearch;
    if (!core) return { core: 'typescript', reason: this.inTypeScript };
    const apart = [...this.contexts].flatMap(([key, c]) => {
      const m = c.metric();
      if (!m || core.reads(m)) return [];
      const why = c.avoid !== 0 ? 'it avoids road kinds' : "its arcs are another engine's, or found no room there";
      return [`${contextName(key)} searches in TypeScript: ${why}`];
    });
    return { core: 'wasm', reason: null, ...(apart.length > 0 && { inTypeScript: apart }) };
  }

  /** What routes this router's usual requests (RoutingStructure), from the pack's sections; builds nothing. */
  structure(): RoutingStructure {
    const p = this.pack;
    if (p?.has('ch.index')) return 'hierarchies';
    return p?.has(CCH_ORDER_SECTIONS.index) ? 'customizable' : 'search';
  }

  /** The pack's hierarchy for a vehicle and weighting when it was contracted for exactly these arc weights. */
  private hierarchy(
    profile: number,
    weighting: Weighting,
    costs: ArcCosts,
    turns: TurnTable,
    check: () => number,
  ): ContractionHierarchy | null {
    const p = this.pack;
    if (!p || !p.has('ch.index')) return null;
    const index = p.json<{ version: number; list: ChIndexEntry[] }>('ch.index');
    // Older layouts were contracted without turn costs or via-way restrictions: their shortcuts would be silently
    // wrong, so A* answers.
    if (!CH_LAYOUT_READ.includes(index.version)) return null;
    const e = index.list.find((x) => x.weighting === weighting && x.profiles.includes(profile));
    if (!e || e.check !== check()) return null;
    const arr = <K extends keyof ChArrays>(k: K) => p.array<NonNullable<ChArrays[K]>>(chSection(e.id, k));
    const core = e.core ?? 0;
    const lm = core > 0 ? { lmFrom: arr('lmFrom'), lmTo: arr('lmTo') } : {};
    // Version 5: the ranges and records are read when a core first needs them (the WebAssembly core's straight
    // into its memory). Older layouts keep their records in state order: laid out as v5 here, once per vehicle.
    const arrays: ChArrays | ChSections =
      index.version >= 5
        ? {
            rank: arr('rank'),
            ...lm,
            length: (k) => p.length(chSection(e.id, k)),
            read: (k) => arr(k),
            into: (k, target) => p.copyInto(chSection(e.id, k), target),
          }
        : fromV4({
            rank: arr('rank'),
            node: arr('node'),
            a: arr('a'),
            b: arr('b'),
            ...lm,
            upFirst: p.array<Uint32Array>(chSectionV4(e.id, 'upFirst')),
            dnFirst: p.array<Uint32Array>(chSectionV4(e.id, 'dnFirst')),
          });
    return new ContractionHierarchy(arrays, costs, e.kind === 'edge', turns, core);
  }

  /**
   * Nearest point (degrees) on a road the vehicle may drive in at least one direction and start a route on (not a
   * ferry or a car's private service road: RoadGraph.edgeNoStart, OSRM's is_startpoint), preferring big components
   * (OSRM's rule, so a point beside a cut-off parking aisle or driveway still routes on the main network): when the
   * nearest road lies in a small component (see Components) and a big-component road lies within `maxDist` m, the
   * snap is the nearest point on a big-component road, with the nearest point kept in `local` (see `ends`).
   * Otherwise the nearest road of any component; null when none is within `maxDist` m.
   */
  snap(lat: number, lon: number, profile: number, maxDist = DEFAULT_LIMITS.snapRadius): Snap | null {
    const segments = this.segments();
    const comps = this.components(profile);
    const comp = comps.edgeComp;
    const big = comps.big;
    const noStart = this.graph.edgeNoStart,
      bit = 1 << profile;
    const near = segments.nearest(lat, lon, (e) => comp[e]! >= 0 && (noStart[e]! & bit) === 0, maxDist);
    if (!near || big[near.edge]) return near;
    const far = segments.nearest(lat, lon, (e) => big[e] === 1 && (noStart[e]! & bit) === 0, maxDist);
    // Not `{ ...far, local: near }`, a new map per snap (see legWithEnds).
    return far ? snapPoint(far.edge, far.t, far.lat, far.lon, far.dist, near, undefined) : near;
  }

  /**
   * The two points the pair rule routes snaps `a` and `b` between: their `local` points when both have one and both
   * lie in the same small component (the two points are nearest to one piece of road cut off from the main network:
   * route within it, as OSRM does), else `a` and `b` themselves. The rule is per pair, so one snap may route from
   * its `local` point to one destination and from the big-component point to another. snapLeg and snapTable fall
   * back to `a` and `b` when there is no route between the local points.
   */
  ends<P extends Endpoint>(a: Snapped<P>, b: Snapped<P>, profile: number): [P, P] {
    const la = a.local,
      lb = b.local;
    if (!la || !lb) return [a, b];
    const comp = this.components(profile).edgeComp;
    return comp[la.edge] === comp[lb.edge] ? [la, lb] : [a, b];
  }

  /**
   * Best route between two snapped points, or null when there is none. With a hierarchy, duration and distance
   * are the hierarchy's label sums (equal to `table`'s, and to the path's sums up to float rounding).
   */
  leg(a: Endpoint, b: Endpoint, profile: number, weighting: Weighting = 'fastest', avoid = 0): Leg | null {
    const ctx = this.context(profile, weighting, avoid);
    // A required first arc on a node-based hierarchy could let a U-turn at its head slip in: A* handles it.
    if (ctx.ch && (ctx.ch.edgeBased || a.only === undefined)) {
      const r = this.answer(ctx, (ch) => ch!.route(a, b));
      return r ? { path: r.path, weight: r.weight, duration: r.dur, distance: r.dist } : null;
    }
    const cch = ctx.cch();
    const path = cch ? cch.route(a, b) : this.answer(ctx, (_, search) => search.route(a, b));
    return path ? this.measure(path, ctx) : null;
  }

  /** Weight, duration and distance of a path (turn weights and seconds included), added in path order. */
  measure(path: ArcPath, ctx: RouteContext): Leg {
    const { weight, duration, distance } = pathMeasure(path, ctx.costs);
    return { path, weight, duration, distance };
  }

  /**
   * Costs from every origin to every destination; Infinity where unreachable. With a hierarchy: buckets (one
   * upward search per destination and per origin, and with a core one Dijkstra over the core per origin), values
   * those `leg` gives for the same pair; by the customizable hierarchy: its elimination-tree buckets (cch/table.ts),
   * likewise; without either: one A*-less Dijkstra per origin, values added along the best path in path order as
   * `measure` does.
   */
  table(
    origins: readonly Endpoint[],
    destinations: readonly Endpoint[],
    profile: number,
    weighting: Weighting = 'fastest',
    avoid = 0,
  ): CostTable {
    const ctx = this.context(profile, weighting, avoid);
    const n = origins.length * destinations.length;
    const out: CostTable = { weight: new Float64Array(n), dur: new Float64Array(n), dist: new Float64Array(n) };
    const cch = ctx.ch ? null : ctx.cchTable();
    if (ctx.ch) this.answer(ctx, (ch) => ch!.table(origins, destinations, out));
    else if (cch) cch.table(origins, destinations, out);
    else
      this.answer(ctx, (_, search) =>
        origins.forEach((o, i) => search.oneToMany(o, destinations, out, i * destinations.length)),
      );
    return out;
  }

  /**
   * `table`'s weights alone: by the customizable hierarchy its walks then carry no seconds or metres (the weights are
   * the same), so the metric's measures are not made for it; by another structure, the whole `table`.
   */
  private weightTable(
    origins: readonly Endpoint[],
    destinations: readonly Endpoint[],
    profile: number,
    weighting: Weighting,
    avoid: number,
  ): WeightTable {
    const ctx = this.context(profile, weighting, avoid);
    const cch = ctx.ch ? null : ctx.cchTable();
    if (!cch) return this.table(origins, destinations, profile, weighting, avoid);
    const out: WeightTable = { weight: new Float64Array(origins.length * destinations.length) };
    cch.table(origins, destinations, out);
    return out;
  }

  /**
   * `leg` between the points `ends` gives for two snaps (the small-component pair rule applied), with those points;
   * when the local points have no route between them (a piece can be one-way: a stub whose second point lies behind
   * the first), between `a` and `b` themselves; null when there is no route. `arrival`: the last arc of the leg that
   * arrived at `a` (an intermediate destination): when the leg starts where that one ended (same edge), it leaves
   * along that arc if that leads to the end (no U-turn at a stop), else it starts free.
   */
  snapLeg<P extends Endpoint>(
    a: Snapped<P>,
    b: Snapped<P>,
    profile: number,
    weighting: Weighting = 'fastest',
    avoid = 0,
    arrival?: number,
  ): SnapLeg<P> | null {
    const [from, to] = this.ends(a, b, profile);
    const leg = this.legBetween(from, to, profile, weighting, avoid, arrival);
    if (leg || from === a) return leg;
    return this.legBetween(a, b, profile, weighting, avoid, arrival);
  }

  /** `leg` from `from` to `to`, leaving along `arrival` when it lies on from's edge and leads to `to` (see snapLeg). */
  private legBetween<P extends Endpoint>(
    from: P,
    to: P,
    profile: number,
    weighting: Weighting,
    avoid: number,
    arrival: number | undefined,
  ): SnapLeg<P> | null {
    const ahead =
      arrival !== undefined && arrival >> 1 === from.edge
        ? this.leg(
            snapPoint(from.edge, from.t, from.lat, from.lon, 0, undefined, arrival),
            to,
            profile,
            weighting,
            avoid,
          )
        : null;
    const leg = ahead ?? this.leg(from, to, profile, weighting, avoid);
    return leg && legWithEnds(leg, from, to);
  }

  /**
   * `table` where each pair runs between the points `ends` gives (the small-component pair rule applied, with
   * snapLeg's fallback to the snaps themselves when the local points have no route), so every element equals
   * `snapLeg`'s values for that pair.
   */
  snapTable(
    origins: readonly Snapped[],
    destinations: readonly Snapped[],
    profile: number,
    weighting: Weighting = 'fastest',
    avoid = 0,
  ): CostTable {
    const out = this.table(origins, destinations, profile, weighting, avoid);
    this.smallComponentPairs(out, origins, destinations, profile, weighting, avoid);
    return out;
  }

  /**
   * snapTable's weights from the stops to themselves, with `leg(i, j)`: snapLeg from stop i to stop j (the same
   * answer, for the default `arrival`). When the context routes by the customizable hierarchy, a leg between the
   * stops' own points is unpacked from the table's walks (CchQuery.routeIn) rather than searched again, and the
   * table carries no seconds or metres (each leg is measured along its path); a leg within a small component
   * (Router.ends), or by another structure, is searched, as is every leg once a later stopTable has taken the walks
   * (the router keeps one set of them).
   */
  stopTable<P extends Endpoint>(
    stops: readonly Snapped<P>[],
    profile: number,
    weighting: Weighting = 'fastest',
    avoid = 0,
  ): { table: WeightTable; leg: (i: number, j: number) => SnapLeg<P> | null } {
    const search = (i: number, j: number) => this.snapLeg(stops[i]!, stops[j]!, profile, weighting, avoid);
    const ctx = this.context(profile, weighting, avoid);
    const cch = ctx.ch ? null : ctx.cchTable();
    if (!cch) return { table: this.snapTable(stops, stops, profile, weighting, avoid), leg: search };
    const n = stops.length;
    const out: WeightTable = { weight: new Float64Array(n * n) };
    const trees = (this.tableTrees ??= new TableTrees(n, n));
    const held = trees.reset(n, n);
    cch.table(stops, stops, out, trees);
    this.smallComponentPairs(out, stops, stops, profile, weighting, avoid);
    const query = ctx.cch()!;
    const leg = (i: number, j: number): SnapLeg<P> | null => {
      const a = stops[i]!,
        b = stops[j]!;
      if (this.ends(a, b, profile)[0] !== a || trees.table !== held) return search(i, j);
      const path = query.routeIn(trees, i, j, a, b, out.weight[i * n + j]!);
      return path && legWithEnds(this.measure(path, ctx), a, b);
    };
    return { table: out, leg };
  }

  /**
   * Overwrites in `out` (a table from `origins` to `destinations`) the pairs whose two local points share a small
   * component (Router.ends) with their values between those points, where there is a route between them: one more
   * table per such component, over those points.
   */
  private smallComponentPairs(
    out: WeightTable,
    origins: readonly Snapped[],
    destinations: readonly Snapped[],
    profile: number,
    weighting: Weighting,
    avoid: number,
  ): void {
    const comp = this.components(profile).edgeComp;
    const groups = new Map<number, { o: number[]; d: number[] }>();
    const group = (s: Snapped, i: number, side: 'o' | 'd') => {
      if (!s.local) return;
      const c = comp[s.local.edge]!;
      let g = groups.get(c);
      if (!g) groups.set(c, (g = { o: [], d: [] }));
      g[side].push(i);
    };
    origins.forEach((s, i) => group(s, i, 'o'));
    destinations.forEach((s, j) => group(s, j, 'd'));
    const cols = destinations.length;
    for (const { o, d } of groups.values()) {
      if (o.length === 0 || d.length === 0) continue;
      const from = o.map((i) => origins[i]!.local!),
        to = d.map((j) => destinations[j]!.local!);
      // Weights alone for a table of weights alone (a trip's): no measures are made for it.
      const t = out.dur
        ? this.table(from, to, profile, weighting, avoid)
        : this.weightTable(from, to, profile, weighting, avoid);
      o.forEach((i, x) =>
        d.forEach((j, y) => {
          if (t.weight[x * d.length + y] === Infinity) return; // No route within the piece: keep the snaps' entry.
          out.weight[i * cols + j] = t.weight[x * d.length + y]!;
          if (out.dur) out.dur[i * cols + j] = t.dur![x * d.length + y]!;
          if (out.dist) out.dist[i * cols + j] = t.dist![x * d.length + y]!;
        }),
      );
    }
  }
}

// Keyed by the Region object, which belongs to one engine (Engine makes its own views of the regions it is given),
// so engines never share a router, its search state or its WebAssembly instance.
const routers = new WeakMap<Region, Router>();

/** The router of a region (one per region object, created on first use). */
export function routerOf(region: Region): Router {
  let r = routers.get(region);
  if (!r) {
    r = new Router(() => region.graph, region.pack);
    routers.set(region, r);
  }
  return r;
}

/**
 * The metrics a metric of `profile`, `weighting` and avoid mask `avoid` is customized over, the first a router holds
 * (Router.metric), by vehicle and context key (of the same weighting, avoiding nothing): the same vehicle's not
 * avoiding anything (avoiding a road kind changes the rows of few vertices), then a car's (a taxi's costs differ from
 * a car's only on the few ways open to taxis). A vehicle whose rows mostly differ from its base's keeps them all
 * (arcs.ts OWN_SHARE_MAX).
 */
function bases(profile: number, weighting: Weighting, avoid: number): { profile: number; key: string }[] {
  const vehicles = [...(avoid !== 0 ? [profile] : []), ...(profile !== 0 ? [0] : [])];
  return vehicles.map((p) => ({ profile: p, key: contextKey(p, weighting) }));
}

/** A context's key among a router's (and, with the pack's identity, among engines': Router.shareKey). */
function contextKey(profile: number, weighting: Weighting, avoid = 0): string {
  return avoid === 0 ? `${profile}:${weighting}` : `${profile}:${weighting}:${avoid}`;
}
