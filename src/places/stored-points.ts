/**
 * The reverse-geocoding point index (a kdbush tree over the POIs, addresses and street places) with its order stored
 * in a pack (written by data-tools/stored-indexes.ts), so that the first reverse geocode on a big pack does not
 * kd-sort hundreds of thousands of points. Sections:
 * - `place.pts` (JSON): `{ version, nodeSize, check }`: the tree's node size and a hash of the points it was sorted
 *   from (pointPlaces and their coordinates);
 * - `place.pts.order` (u32, one per point): the tree's ids after sorting (kdbush `ids`), each an index into
 *   pointPlaces.
 * Only the order is stored (4 bytes a point): the coordinates are the places' own, laid out in that order at load in
 * one pass. The order is used only when the hash is that of this code's points; packs without the sections sort at
 * first use.
 */
import KDBush from 'kdbush';
import { COORD_SCALE } from '../pack/format.js';
import { PackError, type Pack } from '../pack/reader.js';
import { bytesHash } from '../pack/bytes-hash.js';
import { PlaceKind } from './kinds.js';
import type { PlaceStore } from './store.js';

/** Layout version of the stored order. */
const LAYOUT = 1;
/** Points per kd-tree leaf (kdbush's default). */
const NODE_SIZE = 64;

const S = { index: 'place.pts', order: 'place.pts.order' } as const;

/** The `place.pts` section. */
interface StoredPointsInfo {
  version: number;
  nodeSize: number;
  check: number;
}

/** The places reverse geocoding finds by their own point: POIs, addresses and street places, ascending. */
export function pointPlaces(places: PlaceStore): Int32Array {
  const kind = places.kind;
  let n = 0;
  for (let i = 0; i < places.count; i++) if (isPoint(kind[i]!)) n++;
  const out = new Int32Array(n);
  n = 0;
  for (let i = 0; i < places.count; i++) if (isPoint(kind[i]!)) out[n++] = i;
  return out;
}

function isPoint(kind: number): boolean {
  return kind === PlaceKind.poi || kind === PlaceKind.address || kind === PlaceKind.street;
}

/** The points' coordinates in degrees, x (longitude) then y (latitude) per point, in pointPlaces order. */
function coordinates(places: PlaceStore, points: Int32Array): Float64Array {
  const xy = new Float64Array(2 * points.length);
  for (let k = 0; k < points.length; k++) {
    xy[2 * k] = places.lon[points[k]!]! / COORD_SCALE;
    xy[2 * k + 1] = places.lat[points[k]!]! / COORD_SCALE;
  }
  return xy;
}

/** The kdbush tree over `points` (pointPlaces), built: ids are indices into `points`. */
function built(xy: Float64Array): KDBush {
  const n = xy.length / 2;
  // kdbush needs one point; a region without points gets one at (0, 0) that no id in pointPlaces stands for.
  const tree = new KDBush(Math.max(1, n), NODE_SIZE);
  for (let k = 0; k < n; k++) tree.add(xy[2 * k]!, xy[2 * k + 1]!);
  if (n === 0) tree.add(0, 0);
  return tree.finish();
}

/** The sections of a region's point tree, or null for a region without points. */
export function pointSections(
  places: PlaceStore,
): { json: [string, unknown][]; arrays: [string, Uint32Array][] } | null {
  const points = pointPlaces(places);
  if (points.length === 0) return null;
  const xy = coordinates(places, points);
  const tree = built(xy);
  const info: StoredPointsInfo = { version: LAYOUT, nodeSize: NODE_SIZE, check: bytesHash(points, xy) };
  return { json: [[S.index, info]], arrays: [[S.order, Uint32Array.from(tree.ids)]] };
}

/**
 * The kdbush tree over `points` (pointPlaces of the pack's places): laid out in the pack's stored order when it was
 * sorted from exactly these points, else built. Throws PackError naming the section when the stored order is not
 * an order of the points (a pack opened without checksums).
 */
export function pointIndex(pack: Pack, places: PlaceStore, points: Int32Array): KDBush {
  const xy = coordinates(places, points);
  if (!pack.has(S.index) || points.length === 0) return built(xy);
  const info = pack.json<StoredPointsInfo>(S.index);
  if (info.version !== LAYOUT || info.nodeSize !== NODE_SIZE || info.check !== bytesHash(points, xy)) return built(xy);
  const order = pack.array(S.order);
  const n = points.length;
  const seen = new Uint8Array(n);
  const bad = !(order instanceof Uint32Array) || order.length !== n || order.some((k) => k >= n || seen[k]++ !== 0);
  if (bad) throw new PackError(pack.source, `corrupt: section "${S.order}" is not an order of the places' points`);
  // The tree as kdbush serialises it (its own header, ids, coordinates), filled in the stored order and opened.
  const tree = new KDBush(n, NODE_SIZE);
  tree.ids.set(order);
  const coords = tree.coords;
  for (let i = 0; i < n; i++) {
    coords[2 * i] = xy[2 * order[i]!]!;
    coords[2 * i + 1] = xy[2 * order[i]! + 1]!;
  }
  return KDBush.from(tree.data);
}
