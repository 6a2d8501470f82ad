import { COORD_SCALE } from '../../pack/format.js';
import type { Region } from '../../region.js';
import { parseTileCoords, TILE_EXTENT, TILE_MAX_ZOOM, TILE_MIN_ZOOM, tileBounds } from './coords.js';
import { TILE_LAYERS } from './features.js';
import { ByteLru } from './lru.js';
import { MvtLayer, mvtTile } from './mvt-writer.js';
import { denseView, type OpenView } from './open-view.js';
import { RegionTiles, type CutOptions } from './region-tiles.js';

/** Options of {@link createTileSource}. */
export interface TileSourceOptions {
  /** Most tiles kept in the cache (default 2048). */
  cacheTiles?: number;
  /** Most bytes of tiles kept in the cache (default 32 MiB). */
  cacheBytes?: number;
  /** Tile buffer around each tile, in tile units of 4096 (default 64). */
  buffer?: number;
  /** Simplification tolerance in tile units of 4096 below zoom 16 (default 3; 0 keeps every vertex). */
  tolerance?: number;
}

/** Vector tiles cut on demand from the basemap of one or more regions. */
export interface TileSource {
  /**
   * The Mapbox Vector Tile 2.1 (uncompressed protobuf; the HTTP layer gzips) of tile z/x/y, or null when the
   * tile holds no feature (outside every region, or empty there) or the coordinates are invalid (check them with
   * parseTileCoords for a 400). Never throws for bad input.
   */
  tile(z: number, x: number, y: number): Uint8Array | null;
  /**
   * Builds every region's index now (its feature grid; each part is projected and simplified when a tile first
   * draws it), finds where the map opens (view()) and cuts that place's tiles once without keeping them (so the
   * cutting code is compiled), so the first map requests do not pay for any of it (a few hundred milliseconds for a
   * city). Call it at server start; optional.
   */
  prepare(): void;
  /** Cache statistics: entries and bytes held, and the regions whose index has been built. */
  stats(): { cachedTiles: number; cachedBytes: number; indexedRegions: number };
  /**
   * Where a map of these regions opens: the densest neighbourhood of roads and places of the first region with a
   * basemap (see denseView), centre [longitude, latitude] in degrees and zoom; null when no region has a basemap.
   */
  view(): OpenView | null;
}

/** Zoom at which `prepare` cuts a block of WARM_BLOCK × WARM_BLOCK tiles where the map opens (odd). */
const WARM_ZOOM = 14;
const WARM_BLOCK = 5;

/** Tiler state of one region, built on its first tile. */
interface RegionTiler {
  /** Region bounds in degrees [west, south, east, north]. */
  bounds: [number, number, number, number];
  region: Region;
  index?: RegionTiles;
}

/**
 * Creates a tile source over the basemap features of `regions`. Layers: water, landuse, park, waterway, building,
 * railway, road, place, poi; properties `class` (BASEMAP_KINDS class), `name` when named, and for POIs `category`
 * and `rank`. Zooms 0–16 (TILE_MAX_ZOOM); features enter at per-class minimum zooms (zooms.ts). Each region's
 * index (RegionTiles) is built lazily on the first tile that touches it; each tile is cut from it on its first
 * request (simplified, clipped to the buffered tile, encoded) and kept in a bounded LRU.
 */
export function createTileSource(regions: Region | readonly Region[], options: TileSourceOptions = {}): TileSource {
  const cutOptions: CutOptions = { buffer: options.buffer ?? 64, tolerance: options.tolerance ?? 3 };
  const buffer = cutOptions.buffer;
  const cache = new ByteLru<number>(options.cacheTiles ?? 2048, options.cacheBytes ?? 32 * 1024 * 1024);
  const tilers: RegionTiler[] = [];
  /** The opening view, computed on first use. */
  let opening: OpenView | null | undefined;
  for (const region of Array.isArray(regions) ? regions : [regions as Region]) {
    const bounds = regionBounds(region);
    if (bounds && region.basemap) tilers.push({ bounds, region });
  }

  /** The opening view (TileSource.view), computed on first use. */
  const view = (): OpenView | null => {
    const first = tilers[0];
    if (!first) return null;
    if (opening === undefined) opening = denseView(first.region);
    return opening;
  };

  const build = (t: RegionTiler): RegionTiles => (t.index ??= new RegionTiles(t.region));

  const cut = (z: number, x: number, y: number): Uint8Array | null => {
    const [w, s, e, n] = tileBounds(z, x, y, buffer);
    // Layers are made on first use: most tiles of a region's bounds hold few layers, many none.
    const layers: (MvtLayer | undefined)[] = [];
    const layer = (i: number): MvtLayer => (layers[i] ??= new MvtLayer(TILE_LAYERS[i]!, TILE_EXTENT));
    let count = 0;
    for (const t of tilers) {
      const b = t.bounds;
      if (b[0] > e || b[2] < w || b[1] > n || b[3] < s) continue;
      count += build(t).cut(z, x, y, cutOptions, layer);
    }
    if (count === 0) return null;
    return mvtTile(layers.filter((l) => l && l.count > 0).map((l) => l!.finish()));
  };

  return {
    tile(z, x, y) {
      const c = parseTileCoords(z, x, y);
      if (!c.ok) return null;
      // Key: z < 2^5 and x, y < 2^16 at TILE_MAX_ZOOM 16, so the key fits exactly in a double.
      const key = (c.z * 65536 + c.x) * 65536 + c.y;
      const hit = cache.get(key);
      if (hit !== undefined) return hit;
      const bytes = cut(c.z, c.x, c.y);
      cache.set(key, bytes);
      return bytes;
    },
    prepare() {
      for (const t of tilers) build(t);
      // Cut (and drop) tiles where the map opens - the one under its centre at every zoom, and a block of
      // WARM_BLOCK² at WARM_ZOOM - so that the cutting code is compiled for low and high zooms alike: it otherwise
      // runs several times slower for the first few dozen tiles a process cuts.
      const open = view();
      if (!open) return;
      const [lon, lat] = open.center;
      for (let z = TILE_MIN_ZOOM; z <= TILE_MAX_ZOOM; z++) {
        const n = 2 ** z;
        const x = Math.floor(((lon + 180) / 360) * n);
        const y = Math.floor(((1 - Math.asinh(Math.tan((lat * Math.PI) / 180)) / Math.PI) / 2) * n);
        const r = z === WARM_ZOOM ? (WARM_BLOCK - 1) / 2 : 0;
        for (let dx = -r; dx <= r; dx++)
          for (let dy = -r; dy <= r; dy++)
            cut(z, Math.min(n - 1, Math.max(0, x + dx)), Math.min(n - 1, Math.max(0, y + dy)));
      }
    },
    view,
    stats() {
      return {
        cachedTiles: cache.size,
        cachedBytes: cache.byteSize,
        indexedRegions: tilers.filter((t) => t.index).length,
      };
    },
  };
}

/** Bounds in degrees of what a region puts in tiles (basemap feature bboxes and places), or null when nothing. */
function regionBounds(region: Region): [number, number, number, number] | null {
  const map = region.basemap;
  if (!map || map.count === 0) return null;
  let w = Infinity,
    s = Infinity,
    e = -Infinity,
    n = -Infinity;
  for (let f = 0; f < map.count; f++) {
    w = Math.min(w, map.bbox[4 * f]!);
    s = Math.min(s, map.bbox[4 * f + 1]!);
    e = Math.max(e, map.bbox[4 * f + 2]!);
    n = Math.max(n, map.bbox[4 * f + 3]!);
  }
  const places = region.places;
  for (let i = 0; places && i < places.count; i++) {
    w = Math.min(w, places.lon[i]!);
    e = Math.max(e, places.lon[i]!);
    s = Math.min(s, places.lat[i]!);
    n = Math.max(n, places.lat[i]!);
  }
  const k = 1 / COORD_SCALE;
  return [w * k, s * k, e * k, n * k];
}
