/**
 * Rivers, canals and streams as places: people look for them by name ("kênh Nhiêu Lộc", "rạch Bến Nghé", "sông Sài
 * Gòn"), like lakes. A waterway is a line (or a long, bent riverbank area), so it is shown at one of its own nodes,
 * never at its centroid, which for a bend lies on land, off the water.
 */
import { COORD_SCALE } from '../../src/pack/format.js';
import { fold } from '../../src/places/text/fold.js';
import type { Center, Tags } from '../osm/types.js';
import type { OsmStore } from '../store.js';
import { centroid, nameOf } from './tags.js';

/** Words that alone name no waterway: a mapper who wrote only "rạch" knew the kind, not the name. */
const KIND_WORDS = new Set(['song', 'kenh', 'rach', 'suoi', 'muong', 'ngoi', 'river', 'canal', 'stream', 'creek']);

/** Whether the element is a waterway (waterway=*: river, canal, stream, riverbank, ditch, dock …). */
export function isWaterway(tags: Tags): boolean {
  return !!tags.waterway;
}

/** Whether a waterway has a name of its own (more than its kind's word), so it is a place. */
export function namedWaterway(tags: Tags): boolean {
  const name = nameOf(tags);
  return name !== undefined && !KIND_WORDS.has(fold(name).trim());
}

/** The node of `refs` nearest their centroid (degrees): a point on the waterway itself; null when none is known. */
export function pointOnWaterway(store: OsmStore, refs: number[]): Center | null {
  const c = centroid(store, refs);
  if (!c) return null;
  const cosLat = Math.cos((c.lat * Math.PI) / 180);
  let best: Center | null = null;
  let bestD = Infinity;
  for (const ref of refs) {
    const r = store.nodeIndex(ref);
    if (r < 0) continue;
    const lat = store.latE7(r) / COORD_SCALE,
      lon = store.lonE7(r) / COORD_SCALE;
    const d = (lat - c.lat) ** 2 + ((lon - c.lon) * cosLat) ** 2;
    if (d < bestD) [bestD, best] = [d, { lat, lon }];
  }
  return best;
}
