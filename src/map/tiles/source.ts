import GeoJSONVT, { type LegacyFeature } from 'geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { COORD_SCALE } from '../../pack/format.js';
import type { Region } from '../../region.js';
import { parseTileCoords, TILE_EXTENT, TILE_MAX_ZOOM, tileBounds } from './coords.js';
import { regionFeatures, TILE_LAYERS, type RegionFeatures } from './features.js';
import { ByteLru } from './lru.js';
import { denseView, type OpenView } from './open-view.js';

/** Options of {@link createTileSource}. */
export interface TileSourceOptions {
  /** Most tiles kept in the cache (default 2048). */
  cacheTiles?: number;
  /** Most bytes of tiles kept in the cache (default 32 MiB). */
  cacheBytes?: number;
  /** Tile buffer around each tile, in tile units of 4096 (default 64). */
  buffer?: number;
  /** Simplification tolerance in tile units of 4096 below zoom 16 (default 3, geojson-vt's; 0 keeps every vertex). */
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
   * Builds every region's index now and cuts the tiles down to zoom 12 where each region's map opens (its densest
   * part, see view()), so the first map requests do not pay for it (about 0.5–1 s for the Hanoi pack). Call it at server start; optional.
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

/** Tiler state of one region, built on its first tile. */
interface RegionTiler {
  /** Region bounds in degrees [west, south, east, north]. */
  bounds: [number, number, number, number];
  region: Region;
  index?: GeoJSONVT;
  features?: RegionFeatures;
}

/** Drop a region's tiler when it holds more tiles than this; it is rebuilt on demand (bounds memory). */
const MAX_INDEXED_TILES = 20000;

/**
 * Creates a tile source over the basemap features of `regions`. Layers: water, landuse, park, waterway, building,
 * railway, road, place, poi; properties `class` (BASEMAP_KINDS class), `name` when named, and for POIs `category`
 * and `rank`. Zooms 0–16 (TILE_MAX_ZOOM); features enter at per-class minimum zooms (zooms.ts). Each region's
 * index (geojson-vt) is built lazily on the first tile that touches it; encoded tiles are kept in a bounded LRU.
 */
export function createTileSource(regions: Region | readonly Region[], options: TileSourceOptions = {}): TileSource {
  const buffer = options.buffer ?? 64;
  const tolerance = options.tolerance ?? 3;
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

  const build = (t: RegionTiler): GeoJSONVT => {
    if (t.index && t.index.tileCoords.length < MAX_INDEXED_TILES) return t.index;
    t.features ??= regionFeatures(t.region);
    t.index = new GeoJSONVT(t.features.collection, {
      maxZoom: TILE_MAX_ZOOM,
      indexMaxZoom: 5,
      indexMaxPoints: 100000,
      tolerance,
      extent: TILE_EXTENT,
      buffer,
    });
    return t.index;
  };

  const cut = (z: number, x: number, y: number): Uint8Array | null => {
    const [w, s, e, n] = tileBounds(z, x, y, buffer);
    const layers: LegacyFeature[][] = TILE_LAYERS.map(() => []);
    let count = 0;
    for (const t of tilers) {
      const b = t.bounds;
      if (b[0] > e || b[2] < w || b[1] > n || b[3] < s) continue;
      const tile = build(t).getTile(z, x, y);
      if (!tile) continue;
      const meta = t.features!;
      for (const f of tile.features) {
        const id = f.id as number;
        if (meta.minZoom[id]! > z) continue;
        // Replace the internal id (an index into the side tables) by the feature's properties.
        layers[meta.layer[id]!]!.push({ ...f, id: undefined, tags: meta.properties[id]! } as LegacyFeature);
        count++;
      }
    }
    if (count === 0) return null;
    const byName: Record<string, { features: LegacyFeature[] }> = {};
    TILE_LAYERS.forEach((name, i) => {
      if (layers[i]!.length > 0) byName[name] = { features: layers[i]! };
    });
    // vt-pbf's typings name @maplibre/geojson-vt's tile type; geojson-vt's legacy tile has the same shape.
    return fromGeojsonVt(byName as unknown as Parameters<typeof fromGeojsonVt>[0], { version: 2, extent: TILE_EXTENT });
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
      for (const t of tilers) {
        // Where a map of the region opens (its densest part), else the middle of its bounds.
        const [lon, lat] = (t === tilers[0] ? view() : denseView(t.region))?.center ?? [
          (t.bounds[0] + t.bounds[2]) / 2,
          (t.bounds[1] + t.bounds[3]) / 2,
        ];
        const z = 12,
          n = 2 ** z;
        const x = Math.floor(((lon + 180) / 360) * n);
        const y = Math.floor(((1 - Math.asinh(Math.tan((lat * Math.PI) / 180)) / Math.PI) / 2) * n);
        build(t).getTile(z, Math.min(n - 1, Math.max(0, x)), Math.min(n - 1, Math.max(0, y)));
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
