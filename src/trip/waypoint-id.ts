import { crc32 } from '../pack/crc32.js';

const enc = new TextEncoder();

/** Fraction resolution of the encoded position along the edge (1e-6 of its length, well under a metre). */
const OFFSET_SCALE = 1e6;

function base36(n: number, width: number): string {
  return n.toString(36).padStart(width, '0');
}

/**
 * The `place_id` of a trip waypoint: an opaque, URL-safe string (lower-case letters, digits, dots) naming the road
 * position the coordinate snapped to, stable for a given pack: `<pack tag>.<edge>.<offset>.<check>`, where
 * - pack tag: 6 base-36 characters from the pack name and its road edge count (another pack gives another tag);
 * - edge: index of the snapped edge in the pack's road graph, base 36;
 * - offset: position along that edge in millionths of its length from its first node, base 36;
 * - check: 4 base-36 characters over the rest, so a mistyped id is detectable.
 * Trip waypoints are road positions, not places of the pack's place index, so this id is its own scheme (the same
 * snapped position always gives the same id).
 *
 * @param packName the region's pack name.
 * @param edgeCount number of road edges in the region's graph.
 * @param edge snapped edge index.
 * @param t fraction of the edge from its first node, 0..1.
 */
export function waypointPlaceId(packName: string, edgeCount: number, edge: number, t: number): string {
  const tag = base36(crc32(enc.encode(`${packName}|${edgeCount}`)) % 36 ** 6, 6);
  const offset = Math.round(Math.min(1, Math.max(0, t)) * OFFSET_SCALE);
  const body = `${tag}.${edge.toString(36)}.${offset.toString(36)}`;
  return `${body}.${base36(crc32(enc.encode(body)) % 36 ** 4, 4)}`;
}
