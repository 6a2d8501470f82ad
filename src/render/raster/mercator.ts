/**
 * Web Mercator (EPSG:3857) helpers for static maps, using maplibre's conventions: a world of `tileSize * 2^zoom`
 * pixels with tileSize 512 by default (maplibre's; classic raster tiles use 256), x growing east from longitude
 * -180 and y growing south from latitude +85.0511 (the square-world limit). Fractional zooms are allowed.
 */

/** Default tile size, pixels (maplibre's vector tile convention). */
const DEFAULT_TILE_SIZE = 512;
/** Largest latitude representable in the square Web Mercator world, degrees. */
const MAX_LATITUDE = 85.0511287798066;

/**
 * Longitude to world x.
 * @param lon degrees
 * @param zoom zoom level (fractional allowed)
 * @param tileSize pixels per tile at integer zooms
 * @returns world pixels from the antimeridian at -180
 */
export function lonToWorldX(lon: number, zoom: number, tileSize = DEFAULT_TILE_SIZE): number {
  return ((lon + 180) / 360) * tileSize * 2 ** zoom;
}

/**
 * Latitude to world y (clamped to +-MAX_LATITUDE).
 * @param lat degrees
 * @returns world pixels from the northern edge
 */
export function latToWorldY(lat: number, zoom: number, tileSize = DEFAULT_TILE_SIZE): number {
  const clamped = Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat));
  const s = Math.sin((clamped * Math.PI) / 180);
  const y = 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI);
  return y * tileSize * 2 ** zoom;
}

/**
 * World x back to longitude, degrees.
 * @param x world pixels
 */
export function worldXToLon(x: number, zoom: number, tileSize = DEFAULT_TILE_SIZE): number {
  return (x / (tileSize * 2 ** zoom)) * 360 - 180;
}

/**
 * World y back to latitude, degrees.
 * @param y world pixels
 */
export function worldYToLat(y: number, zoom: number, tileSize = DEFAULT_TILE_SIZE): number {
  const n = Math.PI * (1 - (2 * y) / (tileSize * 2 ** zoom));
  return (Math.atan(Math.sinh(n)) * 180) / Math.PI;
}

/** A map view: what part of the world a `width` x `height` image shows. */
export class Viewport {
  /** World pixel of the image's left edge at this zoom. */
  readonly left: number;
  /** World pixel of the image's top edge at this zoom. */
  readonly top: number;

  /**
   * @param center [lon, lat] degrees at the image centre
   * @param zoom zoom level
   * @param width image width, pixels
   * @param height image height, pixels
   * @param tileSize pixels per tile, default 512
   */
  constructor(
    readonly center: readonly [number, number],
    readonly zoom: number,
    readonly width: number,
    readonly height: number,
    readonly tileSize = DEFAULT_TILE_SIZE,
  ) {
    this.left = lonToWorldX(center[0], zoom, tileSize) - width / 2;
    this.top = latToWorldY(center[1], zoom, tileSize) - height / 2;
  }

  /**
   * Image pixels per style pixel: a style's sizes (line widths, text) are in pixels of 512-pixel tiles, so a view of
   * 1024-pixel tiles shows the same map at twice the pixels (a retina image, Google's `scale=2`).
   */
  get pixelRatio(): number {
    return this.tileSize / DEFAULT_TILE_SIZE;
  }

  /** Image x (pixels from the left edge) of a longitude in degrees. */
  x(lon: number): number {
    return lonToWorldX(lon, this.zoom, this.tileSize) - this.left;
  }

  /** Image y (pixels from the top edge) of a latitude in degrees. */
  y(lat: number): number {
    return latToWorldY(lat, this.zoom, this.tileSize) - this.top;
  }

  /**
   * Projects flat lon, lat pairs (degrees) to flat image x, y pairs (pixels).
   * @param out optional destination, at least as long as `lonLat`
   */
  project(lonLat: ArrayLike<number>, out = new Float64Array(lonLat.length)): Float64Array {
    for (let i = 0; i + 1 < lonLat.length; i += 2) {
      out[i] = this.x(lonLat[i]!);
      out[i + 1] = this.y(lonLat[i + 1]!);
    }
    return out;
  }
}

/** Padding in pixels: one number for all sides or per side. */
type Padding = number | { top: number; bottom: number; left: number; right: number };

/** Options of {@link fitBounds}. */
export interface FitBoundsOptions {
  /** Pixels kept free around the bounds. Default 0. */
  padding?: Padding;
  /** Upper zoom limit (also the zoom for a single-point box). Default 22, maplibre's maxZoom. */
  maxZoom?: number;
  /** Lower zoom limit. Default 0. */
  minZoom?: number;
  /** Pixels per tile. Default 512. */
  tileSize?: number;
}

/**
 * The largest zoom and its centre that show a lon/lat box inside a `width` x `height` image minus padding, like
 * maplibre's `cameraForBounds` (no bearing): the centre is the midpoint of the box in Mercator space, shifted by
 * half the difference of opposite paddings.
 *
 * @param bbox [minLon, minLat, maxLon, maxLat] degrees
 * @param width image width, pixels
 * @param height image height, pixels
 * @returns zoom and centre [lon, lat], or null when an input is not finite or the padding leaves no room
 */
export function fitBounds(
  bbox: readonly [number, number, number, number],
  width: number,
  height: number,
  options: FitBoundsOptions = {},
): { zoom: number; center: [number, number] } | null {
  const tileSize = options.tileSize ?? DEFAULT_TILE_SIZE;
  const maxZoom = options.maxZoom ?? 22;
  const minZoom = options.minZoom ?? 0;
  const pad = options.padding ?? 0;
  const p = typeof pad === 'number' ? { top: pad, bottom: pad, left: pad, right: pad } : pad;
  const numbers = [...bbox, width, height, tileSize, maxZoom, minZoom, p.top, p.bottom, p.left, p.right];
  if (!numbers.every(Number.isFinite) || tileSize <= 0) return null;
  const availW = width - p.left - p.right;
  const availH = height - p.top - p.bottom;
  if (availW <= 0 || availH <= 0) return null;
  // Box size in world pixels at zoom 0.
  const x0 = lonToWorldX(Math.min(bbox[0], bbox[2]), 0, tileSize),
    x1 = lonToWorldX(Math.max(bbox[0], bbox[2]), 0, tileSize);
  const y0 = latToWorldY(Math.max(bbox[1], bbox[3]), 0, tileSize),
    y1 = latToWorldY(Math.min(bbox[1], bbox[3]), 0, tileSize);
  const scale = Math.min(availW / (x1 - x0), availH / (y1 - y0)); // Infinity for a single point
  const zoom = Math.max(minZoom, Math.min(maxZoom, Math.log2(scale)));
  const k = 2 ** zoom;
  const cx = (x0 + x1) / 2 - (p.left - p.right) / 2 / k;
  const cy = (y0 + y1) / 2 - (p.top - p.bottom) / 2 / k;
  return { zoom, center: [worldXToLon(cx, 0, tileSize), worldYToLat(cy, 0, tileSize)] };
}
