import { direction, type DirectionParams, type DirectionResponse } from './api/direction.js';
import { distanceMatrix, type MatrixParams, type MatrixResponse } from './api/matrix.js';
import type { StaticRouteError, StaticRouteQuery } from './api/static-route.js';
import { trip, type TripParams, type TripResponse } from './api/trip.js';
import type { Query } from './api/param-types.js';
import { checkEngineOptions } from './engine-options.js';
import { resolveLimits, type Limits } from './limits.js';
import { loadPack, type PackSource } from './pack/load.js';
import type { Pack, Verify } from './pack/reader.js';
import { Region } from './region.js';
import { PlacesState } from './places/state.js';
import type { RenderCache } from './render/render-cache.js';
import { routerOf, type CoreInfo, type RoutingStructure } from './route/router.js';
import type { MetricCounts, MetricExchange } from './route/cch/exchange.js';
import { loadWasmCore } from './route/wasm/load.js';
import { geocode, type GeocodeParams } from './api/geocode.js';
import { autocomplete, type AutocompleteParams } from './api/autocomplete.js';
import { placeDetail, type PlaceDetailParams } from './api/place-detail.js';
import type { AutocompleteResponse, GeocodeResponse, PlaceDetailResponse } from './api/place-shapes.js';

export interface EngineOptions {
  /** Packs to load: Node file paths, URLs or bytes. Default: the embedded central-Hanoi pack. */
  packs?: PackSource[];
  /**
   * When section checksums (CRC-32) are checked; a pack's header and section table are always checked at load, and a
   * truncated pack is refused then. `true`: the whole pack is read and checked at load, so createEngine refuses a
   * corrupt pack, at a cost linear in its size (about 2.5 ms per MB). `'lazy'`: each section just before its first
   * use, so a corrupt section is never used: the request that needs it fails with an error naming the pack and the
   * section, and a pack file loads by its section table in milliseconds, whatever its size. `false`: never (trusted
   * packs). Default: `true` for packs up to 64 MB (EAGER_VERIFY_MAX_BYTES), `'lazy'` for bigger ones.
   */
  verify?: Verify;
  /** Style JSON of the static-map basemap (style-layers.md). Default: the package's default style. */
  style?: unknown;
  /** Route with the WebAssembly core where WebAssembly is available (default true); false forces TypeScript. */
  wasm?: boolean;
  /** Request limits to change from the online service's (src/limits.ts); each from 1 to its cap. */
  limits?: Partial<Limits>;
  /**
   * Shares the customized routing metrics of packs without hierarchies and of requests that avoid road kinds with other
   * engines of the process (route/cch/exchange.ts; `bando serve` gives one to each worker thread's engine). Default
   * none: every metric is made by this engine.
   */
  metrics?: MetricExchange;
}

/** Counts and provenance of the loaded packs. */
export interface EngineInfo {
  packs: {
    name: string;
    bbox: [number, number, number, number] | null;
    dataDate: string | null;
    bytes: number;
    counts: Record<string, number>;
    attribution: string;
    /** The route core this engine uses for the pack and, when it is TypeScript, why (option, load or call failure). */
    routeCore: CoreInfo;
    /** What routes the pack's usual requests (Router.structure): see docs/routing.md. */
    routing: RoutingStructure;
    /** Customized metrics (and their measures) this engine made and adopted from other engines so far. */
    metrics: MetricCounts;
  }[];
}

/** Why a closed engine refuses every call. */
const ENGINE_CLOSED = 'the engine was closed (engine.close()); make another with createEngine()';

/**
 * The region list of a closed engine: any use of it throws ENGINE_CLOSED, so each endpoint, which reads the regions
 * inside its own error boundary, answers its own ERROR body naming the closed engine.
 */
const CLOSED_REGIONS: Region[] = new Proxy([], {
  get() {
    throw new Error(ENGINE_CLOSED);
  },
});

/**
 * Where the embedded default pack lies from the package's code (src/ in development, dist/ when published). Kept in
 * a variable: bundlers (Vite, webpack, Parcel) emit the target of `new URL('<literal>', import.meta.url)` as an
 * asset into every app that includes this module, 6 MB also for apps that load their own packs. An app that wants
 * the default pack in its bundle imports `bando/default-pack` (src/default-pack.ts), which is that literal form.
 */
const DEFAULT_PACK_PATH = '../packs/hanoi.pack';
/**
 * This module's URL, also kept in a variable: webpack reads `new URL(<variable>, import.meta.url)` as a request for
 * every file the variable might name and makes it throw "Cannot find module" when the module loads, which stopped
 * the engine in every webpack-built worker (test/recipes.test.ts). It leaves `new URL(<variable>, <variable>)` alone.
 */
const MODULE_URL = import.meta.url;

/** The static-map renderer's entry points, from the two modules imported on the first image. */
interface Renderer {
  staticRouteImage: typeof import('./api/static-route-image.js').staticRouteImage;
  RenderCache: typeof RenderCache;
}
let renderer: Promise<Renderer> | undefined;

/**
 * The renderer's modules, imported on the first image: the renderer and the style code cost ~0.2 s of import, which
 * an engine that never draws should not pay at start. The promise is kept because each `import()` resolves the
 * specifier again: about 0.01 ms in plain Node, but 0.8-1.4 ms of CPU per image under a loader hook such as tsx's (a
 * round trip to its thread), which the benchmarks run from the sources pay.
 */
function rendererModules(): Promise<Renderer> {
  renderer ??= Promise.all([import('./api/static-route-image.js'), import('./render/render-cache.js')]).then(
    ([{ staticRouteImage }, { RenderCache }]) => ({ staticRouteImage, RenderCache }),
  );
  return renderer;
}

/** The embedded default pack (central Hanoi), loaded by createEngine when no pack is given. */
export const DEFAULT_PACK_URL = new URL(DEFAULT_PACK_PATH, MODULE_URL);

/** The engine: answers every endpoint from the loaded packs. */
export class Engine {
  /** Style JSON of the static-map basemap; undefined for the package's default style. */
  readonly style: unknown;
  /** The request limits in force. */
  readonly limits: Limits;

  /** The engine's own views of the loaded packs (Region.view); a list that throws on any use once closed. */
  private regionList: Region[];
  /** The packs the engine loaded itself (createEngine): close() closes them. */
  private readonly ownPacks: readonly Pack[];

  /** The place state, built on the first place request (a few milliseconds per thousand places). */
  private placeState: PlacesState | undefined;
  /** Style plans, basemap indexes and glyphs of the static map, made on the first image. */
  private renderCache: RenderCache | undefined;

  /**
   * @param regions the loaded packs (the engine routes over views of them, so another engine on the same regions
   *   keeps its own routers, WebAssembly instances and options)
   * @param opts `style`, `wasm`, `limits` and `metrics` as in EngineOptions (the WebAssembly core is used once loadWasmCore has
   *   run, as createEngine does)
   * @param ownPacks packs only this engine uses (createEngine's), closed by {@link close}; packs of regions given by
   *   the caller stay open for the caller's other engines
   * @throws RangeError naming a limit out of range
   */
  constructor(
    regions: readonly Region[],
    opts: Pick<EngineOptions, 'style' | 'wasm' | 'limits' | 'metrics'> = {},
    ownPacks: readonly Pack[] = [],
  ) {
    this.style = opts.style;
    this.limits = resolveLimits(opts.limits);
    this.regionList = regions.map((r) => r.view());
    this.ownPacks = ownPacks;
    for (const r of this.regionList) {
      const router = routerOf(r);
      router.wasm = opts.wasm !== false;
      router.exchange = opts.metrics ?? null;
      opts.metrics?.listen?.((key, part) => router.arrived(key, part));
    }
  }

  /** The engine's own views of the loaded packs (Region.view): its routers and their state are its alone. */
  get regions(): Region[] {
    return this.regionList;
  }

  /** True once {@link close} has run. */
  get closed(): boolean {
    return this.regionList === CLOSED_REGIONS;
  }

  /**
   * Releases what the engine holds: its region views with their routers and WebAssembly instances (kept per view,
   * so dropped with it), its place search state and render caches, and the packs createEngine loaded for it (their
   * files closed, their bytes dropped). Every later call answers its endpoint's ERROR status naming the closed
   * engine (`info()` and `regionAt()` throw it). Idempotent; also `await using engine = await createEngine()`.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.regionList = CLOSED_REGIONS;
    this.placeState = undefined;
    this.renderCache = undefined;
    for (const p of this.ownPacks) p.close(ENGINE_CLOSED);
  }

  /** `await using`: closes the engine (see {@link close}). */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** This engine's place search state over its regions (built on first use, held by the engine alone). */
  get places(): PlacesState {
    return (this.placeState ??= new PlacesState(this.regions));
  }

  /** Counts and provenance of the loaded packs. */
  info(): EngineInfo {
    return {
      packs: this.regions.map((r) => ({
        name: r.meta.name,
        bbox: r.meta.bbox,
        dataDate: r.meta.dataDate,
        bytes: r.pack.byteLength,
        counts: r.meta.counts,
        attribution: r.meta.attribution,
        routeCore: routerOf(r).coreInfo(),
        routing: routerOf(r).structure(),
        metrics: routerOf(r).metricCounts(),
      })),
    };
  }

  /** GET /Direction: routes from `origin` through the `;`-separated `destination`s (see src/api/direction.ts). */
  direction(params: Query<DirectionParams>): DirectionResponse {
    return direction(this.regions, params, this.limits);
  }

  /** GET /DistanceMatrix: distance and duration per origin × destination (see src/api/matrix.ts). */
  distanceMatrix(params: Query<MatrixParams>): MatrixResponse {
    return distanceMatrix(this.regions, params, this.limits);
  }

  /**
   * GET /staticmap/route: PNG bytes of the route over the styled basemap, or an error body (BAD_REQUEST naming the
   * parameter, NOT_FOUND without a route); see src/api/static-route-image.ts.
   */
  async staticRoute(params: Query<StaticRouteQuery>): Promise<Uint8Array | StaticRouteError> {
    const { staticRouteImage, RenderCache } = await rendererModules();
    this.renderCache ??= new RenderCache();
    return staticRouteImage(this.regions, this.style, this.renderCache, params, this.limits);
  }

  /** GET /Geocode: `{ address }` (forward), `{ latlng }` (reverse) or `{ place_id }`. See src/api/geocode.ts. */
  geocode(params: Query<GeocodeParams>): GeocodeResponse {
    return geocode(this, params);
  }

  /** GET /Place/AutoComplete. See src/api/autocomplete.ts. */
  autocomplete(params: Query<AutocompleteParams>): AutocompleteResponse {
    return autocomplete(this, params);
  }

  /** GET /Place/Detail. See src/api/place-detail.ts. */
  placeDetail(params: Query<PlaceDetailParams>): PlaceDetailResponse {
    return placeDetail(this, params);
  }

  /** GET /trip: the shortest round trip through origin, waypoints and destination (see src/api/trip.ts). */
  trip(params: Query<TripParams>): TripResponse {
    return trip(this, params);
  }

  /** The region whose area holds the point (degrees), preferring the first pack given; null when none does. */
  regionAt(lat: number, lon: number): Region | null {
    return this.regions.find((r) => r.contains(lat, lon)) ?? null;
  }
}

/**
 * Loads packs and returns an engine. Rejects with a TypeError naming the option when the options are wrong (an
 * unknown key, `packs` not an array, …), and with an error naming the file and the problem when a pack is missing,
 * truncated, corrupt or of another format version.
 */
export async function createEngine(opts: EngineOptions = {}): Promise<Engine> {
  checkEngineOptions(opts);
  const limits = resolveLimits(opts.limits); // a bad limit fails before any pack is read
  const sources = opts.packs && opts.packs.length > 0 ? opts.packs : [DEFAULT_PACK_URL];
  const [packs] = await Promise.all([
    Promise.all(sources.map((s) => loadPack(s, { verify: opts.verify }))),
    opts.wasm === false ? null : loadWasmCore(),
  ]);
  return new Engine(
    packs.map((p) => new Region(p)),
    { style: opts.style, wasm: opts.wasm, limits, metrics: opts.metrics },
    packs,
  );
}
