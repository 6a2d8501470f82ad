/** Highest zoom at which tiles are cut (native detail); clients overzoom beyond it (style source `maxzoom`). */
export const TILE_MAX_ZOOM = 16;
/** Lowest zoom at which tiles are cut. Features carry their own minimum zoom (see zooms.ts), so low tiles stay small. */
export const TILE_MIN_ZOOM = 0;
/** Tile extent in MVT units (MVT 2.1 default). */
export const TILE_EXTENT = 4096;

/** A tile address. */
export interface TileCoords {
  z: number;
  x: number;
  y: number;
}

/** Outcome of {@link parseTileCoords}: the coordinates, or an error naming the parameter. */
export type ParsedTileCoords = ({ ok: true } & TileCoords) | { ok: false; error: string };

const parseInteger = (v: unknown): number => {
  if (typeof v === 'number') return Number.isInteger(v) ? v : NaN;
  if (typeof v === 'string' && /^\d{1,8}$/.test(v)) return Number(v);
  return NaN;
};

/**
 * Checks tile coordinates from a URL (`/tiles/{z}/{x}/{y}.pbf`, strings or numbers): integers with
 * TILE_MIN_ZOOM ≤ z ≤ TILE_MAX_ZOOM and 0 ≤ x, y < 2^z. Never throws.
 */
export function parseTileCoords(z: unknown, x: unknown, y: unknown): ParsedTileCoords {
  const zi = parseInteger(z);
  if (!(zi >= TILE_MIN_ZOOM && zi <= TILE_MAX_ZOOM)) {
    return { ok: false, error: `z must be an integer from ${TILE_MIN_ZOOM} to ${TILE_MAX_ZOOM}; found ${String(z)}` };
  }
  const n = 2 ** zi;
  const xi = parseInteger(x);
  if (!(xi >= 0 && xi < n))
    return { ok: false, error: `x must be an integer from 0 to ${n - 1} at zoom ${zi}; found ${String(x)}` };
  const yi = parseInteger(y);
  if (!(yi >= 0 && yi < n))
    return { ok: false, error: `y must be an integer from 0 to ${n - 1} at zoom ${zi}; found ${String(y)}` };
  return { ok: true, z: zi, x: xi, y: yi };
}

/** Longitude (degrees) of the west edge of tile column `x` at zoom `z` (x may be fractional). */
function tileToLon(x: number, z: number): number {
  return (x / 2 ** z) * 360 - 180;
}

/** Latitude (degrees) of the north edge of tile row `y` at zoom `z` (Web Mercator; y may be fractional). */
function tileToLat(y: number, z: number): number {
  const n = Math.PI - (2 * Math.PI * y) / 2 ** z;
  return (180 / Math.PI) * Math.atan(Math.sinh(n));
}

/**
 * Bounds of a tile in degrees `[west, south, east, north]`, grown on each side by `buffer` tile units
 * (of TILE_EXTENT) so features in the tile's buffer count as inside.
 */
export function tileBounds(z: number, x: number, y: number, buffer = 0): [number, number, number, number] {
  const b = buffer / TILE_EXTENT;
  return [tileToLon(x - b, z), tileToLat(y + 1 + b, z), tileToLon(x + 1 + b, z), tileToLat(y - b, z)];
}
