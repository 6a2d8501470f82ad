/**
 * Render-side view of a pack's basemap, one per basemap shared by the static renderer and the tile source
 * ({@link basemapIndex}): feature culling by bounding box (straight scans until enough queries have paid for a
 * uniform grid, SCANS_BEFORE_GRID), and each part's points projected to Web Mercator (so a render only scales and
 * shifts) on the part's first use. A whole city holds far more parts than one image draws: projecting them all up
 * front cost the first image of whole Ho Chi Minh City about 70 ms. The projected points (and their significances)
 * are stored in the order parts are first used, not pack order, so that an image's parts share memory pages: on a
 * fresh engine each page is a page fault on first touch (about 25 us each in the 2-core VM the benches run on), and
 * the first image of whole Ho Chi Minh City touched 880 pages of these arrays in pack order against about 210 in
 * this order.
 *
 * The projected points, their significances, each part's slot and state lie in one block of shared memory where the
 * platform has it (a SharedArrayBuffer: Node, or a browser with cross-origin isolation), so the threads of one
 * process can fill and read one copy ({@link BasemapIndexStore}: `bando serve`'s serving thread hands its tile index's
 * to its engine workers, ≈ 7.7 MB each on whole Ho Chi Minh City).
 */
import { BASEMAP_KINDS } from '../map/kinds.js';
import type { Basemap } from '../map/basemap.js';
import { latToWorldY, lonToWorldX } from './raster/mercator.js';
import { significance } from './simplify.js';
import { kernelSignificances } from './raster/wasm-significance.js';

/** Grid cells per side. 64 x 64 keeps cells near 150 m across for a city pack and the cell lists small. */
const GRID = 64;

/** The source layers of the kinds, each once. */
const LAYER_NAMES = [...new Set(BASEMAP_KINDS.map((k) => k.layer))];

/** A cell coordinate clamped to the grid. */
function clamp(v: number): number {
  return v < 0 ? 0 : v > GRID - 1 ? GRID - 1 : v;
}

/**
 * A query sorts its hits when they are fewer than the features over this, else reads them back in order by a pass
 * over every feature's stamp (a sequential read, many times cheaper per feature than a sort's step).
 */
const SORT_OVER_SCAN = 16;

/**
 * Per-part state in BasemapIndex.ready: nothing computed, points projected, significances computed too, and being
 * projected by a thread of the process (which gives the part its slots).
 */
const RAW = 0,
  PROJECTED = 1,
  SIGNIFICANT = 2,
  CLAIMED = 3;

/** The index of each basemap, made on its first use by either consumer. */
const INDEXES = new WeakMap<Basemap, BasemapIndex>();

/**
 * The per-point arrays of a basemap's index, as they can cross to another thread of the process (structured clone
 * shares views of a SharedArrayBuffer rather than copying them): the projected points (`world`), their significances,
 * each part's slots and state (`ready`: RAW, PROJECTED, SIGNIFICANT or CLAIMED), for the basemap of the pack named
 * `identity`. A part is projected by the one thread that claims it (compareExchange RAW → CLAIMED), which takes its
 * slots from `used`; every thread computes a part's significances the same way from the same points, so threads may
 * do that at once, each writing the same values. A part's state is stored (Atomics.store) only once its values are
 * written and read with Atomics.load, so a thread that sees a state sees the values it stands for.
 */
export interface BasemapIndexStore {
  readonly identity: string;
  readonly world: Float64Array;
  readonly significance: Float32Array;
  /** Per part: the slot of its first point in `world` and `significance` (slots are given in first-use order). */
  readonly slot: Uint32Array;
  /** used[0]: slots given so far. */
  readonly used: Int32Array;
  readonly ready: Uint8Array;
}

/** Stores another thread made (offerBasemapIndexes), by pack identity, for the indexes this thread makes. */
const OFFERED = new Map<string, BasemapIndexStore>();

/**
 * Lets the indexes this thread makes from now on use `stores` (made by another thread's indexes: see
 * BasemapIndex.store) for the basemaps of the packs they name, instead of arrays of their own. A store whose lengths
 * do not fit the basemap is not used.
 */
export function offerBasemapIndexes(stores: readonly BasemapIndexStore[]): void {
  for (const store of stores) OFFERED.set(store.identity, store);
}

/**
 * The index of a basemap, built on its first use and shared by every consumer (images and tiles of any engine):
 * it is derived from read-only pack data only, and dropped with the basemap.
 */
export function basemapIndex(basemap: Basemap): BasemapIndex {
  let index = INDEXES.get(basemap);
  if (!index) INDEXES.set(basemap, (index = new BasemapIndex(basemap, OFFERED.get(basemap.identity))));
  return index;
}

/** True when `store` has the lengths of `basemap`'s index arrays. */
function fits(store: BasemapIndexStore, basemap: Basemap): boolean {
  return (
    store.identity === basemap.identity &&
    store.world.length === 2 * basemap.pointCount &&
    store.significance.length === basemap.pointCount &&
    store.slot.length === Math.max(0, basemap.partFirst.length - 1) &&
    store.used.length === 1 &&
    store.ready.length === Math.max(0, basemap.partFirst.length - 1)
  );
}

/** A new store for `basemap`'s index: its three arrays in one block, shared memory where the platform has it. */
function newStore(basemap: Basemap): BasemapIndexStore {
  const points = basemap.pointCount,
    parts = Math.max(0, basemap.partFirst.length - 1);
  // world (8 bytes per coordinate) first, then significance (4 per point), slot (4 per part), used, then ready: each
  // view aligned.
  const bytes = 20 * points + 4 * parts + 4 + parts;
  const block = typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
  return {
    identity: basemap.identity,
    world: new Float64Array(block, 0, 2 * points),
    significance: new Float32Array(block, 16 * points, points),
    slot: new Uint32Array(block, 20 * points, parts),
    used: new Int32Array(block, 20 * points + 4 * parts, 1),
    ready: new Uint8Array(block, 20 * points + 4 * parts + 4, parts),
  };
}

/**
 * A uniform grid over the feature bounding boxes (1e-7 degrees), in CSR form: the features of cell c are
 * `items[start[c] .. start[c + 1])`.
 */
interface Grid {
  readonly minLon: number;
  readonly minLat: number;
  readonly cellLon: number;
  readonly cellLat: number;
  readonly start: Uint32Array;
  readonly items: Uint32Array;
}

/**
 * Queries answered by a straight scan of every feature's box before the grid is built: building it costs about as
 * much as this many scans (whole Ho Chi Minh City, 42 k features, warm: a scan of an image's view 0.15-0.5 ms, the
 * grid 4-5 ms; a grid query of such a view 0.01-0.35 ms), so no sequence of queries pays much more than twice what
 * the best choice knowing them in advance would. Cold, on a fresh engine's first image, the scan took 2.4 ms where
 * building the grid took 15-45 ms and its first query 10-25 ms.
 */
const SCANS_BEFORE_GRID = 16;

/** The projected basemap and its feature grid. */
export class BasemapIndex {
  /**
   * Mercator x, y per point in world units of 1 at zoom 0 (0..1 across the world), interleaved, part by part in the
   * order they were first used (part p's points from slot `slot[p]`): read it through {@link points}.
   */
  private readonly world: Float64Array;
  /**
   * Per point slot (as `world`): the largest Douglas-Peucker tolerance (world units, as `world`) at which its part
   * keeps it (see simplify.ts); Infinity for a part's ends. Filled part by part on first use
   * ({@link partSignificance}).
   */
  private readonly significance: Float32Array;
  /**
   * Per part: RAW, PROJECTED or SIGNIFICANT (what of it is filled in `world` and `significance`), read and written
   * with Atomics (another thread may share it: BasemapIndexStore).
   */
  private readonly ready: Uint8Array;
  /** Per part not RAW: the slot of its first point in `world` and `significance`. */
  private readonly slot: Uint32Array;
  /** used[0]: point slots given to parts so far (by every thread sharing the store). */
  private readonly used: Int32Array;
  /** The three arrays above, to hand to another thread's index (offerBasemapIndexes). */
  readonly store: BasemapIndexStore;
  /** Scratch stack of the significance computation. */
  private stack: Float64Array = new Float64Array(96);
  /** Slot of each kind's source layer in LAYER_NAMES (query's grouping). */
  private readonly slotOf = Uint8Array.from(BASEMAP_KINDS, (k) => LAYER_NAMES.indexOf(k.layer));
  /** The grid, once built (see SCANS_BEFORE_GRID). */
  private grid: Grid | null = null;
  /** Scans of every feature made so far (queries answered without the grid). */
  private scans = 0;
  /**
   * Per feature: the query number that last reported it (dedupes features listed in several cells), made with the
   * grid: the first queries, by scans, need none, and a fresh array's pages are first touched (a page fault per 4 KB,
   * ~40 on whole HCMC) when it is made.
   */
  private seen: Uint32Array | null = null;
  private stamp = 0;
  /** Scratch list of query hits. */
  private readonly hits: Uint32Array;
  /** Scratch list of the parts prepareSignificance computes, made on its first use. */
  private pending: Uint32Array | null = null;

  /** @param offered arrays another thread's index of the same basemap fills too, used when they fit */
  constructor(
    readonly basemap: Basemap,
    offered?: BasemapIndexStore,
  ) {
    this.store = offered && fits(offered, basemap) ? offered : newStore(basemap);
    ({
      world: this.world,
      significance: this.significance,
      ready: this.ready,
      slot: this.slot,
      used: this.used,
    } = this.store);
    this.hits = new Uint32Array(basemap.count);
  }

  /** Builds the grid now if it is not built (a tile server does at start, where it expects many queries). */
  buildGrid(): void {
    this.grid ??= buildGrid(this.basemap);
  }

  /**
   * The Mercator x, y of the projected points (world units of 1 at zoom 0, interleaved: slot j at 2j, 2j + 1), those
   * of part `p` filled: basemap point `partFirst[p] + k` of the part is slot `start(p) + k`. Other slots are
   * unspecified until their part is asked for.
   */
  points(p: number): Float64Array {
    const ready = this.ready;
    if (Atomics.load(ready, p) === RAW && Atomics.compareExchange(ready, p, RAW, CLAIMED) === RAW) {
      const { partFirst } = this.basemap;
      const world = this.world;
      let j = (this.slot[p] = Atomics.add(this.used, 0, partFirst.at(p + 1) - partFirst.at(p)));
      this.basemap.forEachPoint(p, (lon, lat) => {
        world[2 * j] = lonToWorldX(lon * 1e-7, 0, 1);
        world[2 * j + 1] = latToWorldY(lat * 1e-7, 0, 1);
        j++;
      });
      Atomics.store(ready, p, PROJECTED);
    } else {
      // Another thread sharing the store is projecting the part (microseconds): its slot is known once it is done.
      for (;;) if (Atomics.load(ready, p) !== CLAIMED) break;
    }
    return this.world;
  }

  /** The slot of part `p`'s first point in {@link points} and {@link partSignificance}. Projects the part. */
  start(p: number): number {
    this.points(p);
    return this.slot[p]!;
  }

  /**
   * The end (exclusive basemap point index) of part `p` without its closing vertex: a ring stored closed (last point
   * equal to the first) ends one point early, so a fill or a tile ring does not repeat it. Projects the part.
   */
  openEnd(p: number): number {
    const end = this.basemap.partFirst.at(p + 1);
    const n = end - this.basemap.partFirst.at(p);
    const world = this.points(p);
    const a = this.slot[p]!,
      b = a + n - 1;
    const closed = n > 1 && world[2 * a] === world[2 * b] && world[2 * a + 1] === world[2 * b + 1];
    return closed ? end - 1 : end;
  }

  /**
   * The significances of the point slots (see `significance`; indexed as {@link points}), those of part `p`
   * computed (and its points projected).
   */
  partSignificance(p: number): Float32Array {
    if (Atomics.load(this.ready, p) !== SIGNIFICANT) {
      const first = this.basemap.partFirst;
      const at = this.start(p);
      this.stack = significance(this.world, at, at + first.at(p + 1) - first.at(p), this.significance, this.stack);
      Atomics.store(this.ready, p, SIGNIFICANT);
    }
    return this.significance;
  }

  /**
   * Computes the significances of the parts of `features` not computed yet in one call of the WebAssembly raster
   * kernel when it is loaded (else they are left to partSignificance, part by part): the same values, without the
   * cold TypeScript's cost on a fresh engine's first image (see wasm-significance.ts).
   * @param features feature indices of the basemap
   */
  prepareSignificance(features: ArrayLike<number>): void {
    const featPart = this.basemap.featPart;
    const pending = (this.pending ??= new Uint32Array(this.ready.length));
    let count = 0;
    for (let k = 0; k < features.length; k++) {
      for (let p = featPart.at(features[k]!); p < featPart.at(features[k]! + 1); p++) {
        if (Atomics.load(this.ready, p) === SIGNIFICANT) continue;
        this.points(p);
        pending[count++] = p;
      }
    }
    if (
      count === 0 ||
      !kernelSignificances(this.world, this.basemap.partFirst, this.slot, pending, count, this.significance)
    )
      return;
    for (let k = 0; k < count; k++) Atomics.store(this.ready, pending[k]!, SIGNIFICANT);
  }

  /**
   * Features whose bounding box meets the box [minLon, minLat, maxLon, maxLat] (degrees), grouped by source layer,
   * each group in pack order (the order features are drawn in).
   */
  query(box: readonly [number, number, number, number]): Map<string, Uint32Array> {
    const q0 = box[0] * 1e7,
      q1 = box[1] * 1e7,
      q2 = box[2] * 1e7,
      q3 = box[3] * 1e7;
    if (!this.grid && this.scans < SCANS_BEFORE_GRID) this.scans++;
    else this.buildGrid();
    const found = this.grid ? this.gridHits(this.grid, q0, q1, q2, q3) : this.scanHits(q0, q1, q2, q3);
    return this.byLayer(found);
  }

  /** Writes the features whose box meets the query box (1e-7 degrees) to `hits` by testing every one; their count. */
  private scanHits(q0: number, q1: number, q2: number, q3: number): number {
    const bbox = this.basemap.bbox,
      hits = this.hits;
    let found = 0;
    for (let f = 0; f < this.basemap.count; f++)
      if (bbox[4 * f]! <= q2 && bbox[4 * f + 2]! >= q0 && bbox[4 * f + 1]! <= q3 && bbox[4 * f + 3]! >= q1)
        hits[found++] = f;
    return found;
  }

  /** As scanHits, through the grid's cells; the hits ascending. */
  private gridHits(grid: Grid, q0: number, q1: number, q2: number, q3: number): number {
    const count = this.basemap.count;
    if (q2 < grid.minLon || q3 < grid.minLat || q0 > grid.minLon + GRID * grid.cellLon) return 0;
    if (q1 > grid.minLat + GRID * grid.cellLat) return 0;
    const cx0 = clamp(Math.floor((q0 - grid.minLon) / grid.cellLon)),
      cy0 = clamp(Math.floor((q1 - grid.minLat) / grid.cellLat)),
      cx1 = clamp(Math.floor((q2 - grid.minLon) / grid.cellLon)),
      cy1 = clamp(Math.floor((q3 - grid.minLat) / grid.cellLat));
    let listed = 0;
    for (let cy = cy0; cy <= cy1; cy++) listed += grid.start[cy * GRID + cx1 + 1]! - grid.start[cy * GRID + cx0]!;
    // A box over most of the grid: one pass over every feature is cheaper, and finds them in order.
    if (listed >= count) return this.scanHits(q0, q1, q2, q3);
    // Two stamps per query: `stamp` marks the features looked at, `stamp + 1` the hits read back in order.
    const stamp = (this.stamp += 2);
    const seen = (this.seen ??= new Uint32Array(count));
    const hits = this.hits;
    const bbox = this.basemap.bbox;
    let found = 0;
    for (let cy = cy0; cy <= cy1; cy++) {
      for (let cx = cx0; cx <= cx1; cx++) {
        const c = cy * GRID + cx;
        for (let k = grid.start[c]!; k < grid.start[c + 1]!; k++) {
          const f = grid.items[k]!;
          if (seen[f] === stamp) continue;
          seen[f] = stamp;
          if (bbox[4 * f]! <= q2 && bbox[4 * f + 2]! >= q0 && bbox[4 * f + 1]! <= q3 && bbox[4 * f + 3]! >= q1)
            hits[found++] = f;
        }
      }
    }
    if (found * SORT_OVER_SCAN < count) hits.subarray(0, found).sort();
    else {
      // Many hits: reading them back in order from their stamps is cheaper than sorting them.
      for (let k = 0; k < found; k++) seen[hits[k]!] = stamp + 1;
      found = 0;
      for (let f = 0; f < count; f++) if (seen[f] === stamp + 1) hits[found++] = f;
    }
    return found;
  }

  /** The first `found` hits grouped by source layer, pack order kept within each. */
  private byLayer(found: number): Map<string, Uint32Array> {
    const hits = this.hits;
    // Two passes: counts, then fill.
    const kind = this.basemap.kind,
      slotOf = this.slotOf;
    const counts = new Uint32Array(LAYER_NAMES.length);
    for (let k = 0; k < found; k++) counts[slotOf[kind[hits[k]!]!] ?? 0]!++;
    const lists = LAYER_NAMES.map((_, slot) => new Uint32Array(counts[slot]!));
    counts.fill(0);
    for (let k = 0; k < found; k++) {
      const f = hits[k]!;
      const slot = slotOf[kind[f]!] ?? 0;
      lists[slot]![counts[slot]!++] = f;
    }
    const out = new Map<string, Uint32Array>();
    LAYER_NAMES.forEach((name, slot) => {
      if (lists[slot]!.length > 0) out.set(name, lists[slot]!);
    });
    return out;
  }
}

/** The grid of a basemap's feature boxes (two passes, count then fill, build the lists without per-cell arrays). */
function buildGrid(basemap: Basemap): Grid {
  const { bbox, count } = basemap;
  // This runs once, mostly before it is optimised: it compares instead of calling Math.min / Math.max and works out
  // each feature's cell range once.
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  for (let k = 0; k < 4 * count; k += 4) {
    if (bbox[k]! < x0) x0 = bbox[k]!;
    if (bbox[k + 1]! < y0) y0 = bbox[k + 1]!;
    if (bbox[k + 2]! > x1) x1 = bbox[k + 2]!;
    if (bbox[k + 3]! > y1) y1 = bbox[k + 3]!;
  }
  if (count === 0) x0 = y0 = x1 = y1 = 0;
  const cellLon = Math.max(1, (x1 - x0 + 1) / GRID);
  const cellLat = Math.max(1, (y1 - y0 + 1) / GRID);
  // Each feature's inclusive cell range [cx0, cy0, cx1, cy1]: x (longitude) at even offsets, y (latitude) at odd ones.
  const ranges = new Int32Array(4 * count);
  for (let k = 0; k < 4 * count; k++)
    ranges[k] = clamp(k & 1 ? Math.floor((bbox[k]! - y0) / cellLat) : Math.floor((bbox[k]! - x0) / cellLon));
  const counts = new Uint32Array(GRID * GRID + 1);
  for (let k = 0; k < 4 * count; k += 4)
    for (let cy = ranges[k + 1]!; cy <= ranges[k + 3]!; cy++)
      for (let cx = ranges[k]!; cx <= ranges[k + 2]!; cx++) counts[cy * GRID + cx + 1]!++;
  for (let c = 0; c < GRID * GRID; c++) counts[c + 1]! += counts[c]!;
  const start = counts.slice();
  const items = new Uint32Array(counts[GRID * GRID]!);
  for (let f = 0, k = 0; f < count; f++, k += 4)
    for (let cy = ranges[k + 1]!; cy <= ranges[k + 3]!; cy++)
      for (let cx = ranges[k]!; cx <= ranges[k + 2]!; cx++) items[counts[cy * GRID + cx]!++] = f;
  return { minLon: x0, minLat: y0, cellLon, cellLat, start, items };
}
