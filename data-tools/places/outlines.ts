/**
 * Named areas that are the outline of a place already there: the building of a museum, or the land of a school,
 * named like it. They would answer a query twice, a few metres apart.
 */
import { haversine } from '../../src/geo.js';

/** A named area within this of another place of the same name is that place's outline, metres. */
const OUTLINE_RADIUS_M = 150;

/** What the rule reads of a place: its point (degrees) and name. */
interface Named {
  lat: number;
  lon: number;
  name?: string;
}

/**
 * The places without the named areas (`isArea`) that lie within OUTLINE_RADIUS_M of another place, not such an area,
 * of the same name (compared case-insensitively); order kept.
 */
export function withoutOutlines<T extends Named>(places: T[], isArea: (p: T) => boolean): T[] {
  const key = (name: string) => name.normalize('NFC').toLowerCase();
  // Areas are few beside the places: index the names of the areas only, then pass over the places once.
  const areas = new Map<string, T[]>();
  for (const p of places) if (p.name && isArea(p)) areas.set(key(p.name), [...(areas.get(key(p.name)) ?? []), p]);
  const outlines = new Set<T>();
  for (const p of places) {
    if (!p.name || isArea(p)) continue;
    for (const a of areas.get(key(p.name)) ?? [])
      if (haversine(a.lat, a.lon, p.lat, p.lon) <= OUTLINE_RADIUS_M) outlines.add(a);
  }
  return places.filter((p) => !outlines.has(p));
}
