import { Offsets } from '../pack/offsets.js';
import { putVarint, unzigzag, VarintCursor, varintBytes, zigzag } from '../pack/varint.js';

/**
 * The basemap's points as a pack stores them (sections `map.xy`, `map.at`, `map.origin`): per part (a ring or a
 * line), its first point as its offset from the origin (the least longitude and latitude of every point), then each
 * further point as its step from the one before, zigzag-signed; every number a varint (7 bits a byte, the low bits
 * first). Coordinates are 1e-7 degrees (1.1 cm), and most steps along a line are metres, so a coordinate takes 2 bytes
 * instead of 4 (whole HCMC: 384,739 points in 1.72 MB instead of 3.08). Part p's bytes are xy[at[p] .. at[p + 1]);
 * a part is read on its own, when it is first drawn.
 */
export interface PartPoints {
  xy: Uint8Array;
  /** P + 1 byte offsets into xy (an Offsets column in the pack: offsets.ts). */
  at: Offsets;
  /** The least longitude and latitude of every point (1e-7 degrees). */
  origin: Int32Array;
}

/**
 * The points of the parts (P + 1 offsets `partFirst` into the coordinates `lon`, `lat`, 1e-7 degrees) as the pack
 * stores them.
 */
export function encodePartPoints(lon: Int32Array, lat: Int32Array, partFirst: Uint32Array): PartPoints {
  let west = 0,
    south = 0;
  for (let i = 0; i < lon.length; i++) {
    if (i === 0 || lon[i]! < west) west = lon[i]!;
    if (i === 0 || lat[i]! < south) south = lat[i]!;
  }
  const parts = Math.max(0, partFirst.length - 1);
  const at = new Uint32Array(parts + 1);
  // Twice over the points: once to count the bytes, once to write them (a country's basemap is tens of millions of
  // points: no array of numbers per byte).
  let xy = new Uint8Array(0);
  let k = 0;
  for (let pass = 0; pass < 2; pass++) {
    const put = pass === 0 ? (v: number) => (k += varintBytes(v)) : (v: number) => (k = putVarint(xy, k, v));
    k = 0;
    for (let p = 0; p < parts; p++) {
      at[p] = k;
      for (let i = partFirst[p]!; i < partFirst[p + 1]!; i++)
        if (i === partFirst[p]) {
          put(lon[i]! - west);
          put(lat[i]! - south);
        } else {
          put(zigzag(lon[i]! - lon[i - 1]!));
          put(zigzag(lat[i]! - lat[i - 1]!));
        }
    }
    at[parts] = k;
    if (pass === 0) xy = new Uint8Array(k);
  }
  return { xy, at: Offsets.encode(at), origin: Int32Array.of(west, south) };
}

/**
 * readPart's cursor, so that drawing a part allocates nothing (`visit` never reads another part; the only caller is
 * Basemap).
 */
const cursor = new VarintCursor();

/**
 * Calls visit(lon, lat) for each of the `count` points of part `p` (1e-7 degrees), in order. Returns false when the
 * part's bytes do not hold exactly that many points (a corrupt pack), having visited the points read before.
 */
export function readPart(
  points: PartPoints,
  p: number,
  count: number,
  visit: (lon: number, lat: number) => void,
): boolean {
  const { xy, at, origin } = points;
  const c = cursor;
  c.at = at.at(p);
  const end = at.at(p + 1);
  let lon = origin[0]!,
    lat = origin[1]!;
  // Numbers 2i and 2i + 1 are point i's longitude and latitude: the first point's offsets, then zigzag steps.
  for (let n = 0; n < 2 * count; n++) {
    // An offset or a zigzagged step between 32-bit coordinates is below 2^34: more than 6 bytes is damage.
    let v = c.read(xy, end, 6);
    if (v < 0) return false;
    if (n >= 2) v = unzigzag(v);
    if ((n & 1) === 0) lon += v;
    else {
      lat += v;
      visit(lon, lat);
    }
  }
  return c.at === end;
}
