/**
 * Where a region's places mostly lie: a pack of a city also holds the edges of the units around it, and a query that
 * names no unit, or names "the city", means the pack's own.
 */
import { AdminSlot } from './kinds';
import type { PlacesRegion } from './region-places';

/** A legacy level a home unit is counted at. */
type HomeSlot = typeof AdminSlot.province | typeof AdminSlot.district;

/** homeUnit of each region and level, kept at first use. */
const homes = new WeakMap<PlacesRegion, Map<HomeSlot, number>>();

/**
 * The legacy unit of level `slot` (province or district) most of the region's places lie in: its id in the pack's
 * admin table, -1 when no place has one.
 */
export function homeUnit(r: PlacesRegion, slot: HomeSlot): number {
  let bySlot = homes.get(r);
  if (!bySlot) homes.set(r, (bySlot = new Map()));
  let home = bySlot.get(slot);
  if (home === undefined) {
    const count = new Map<number, number>();
    const places = r.places;
    for (let i = 0; i < places.count; i++) {
      const u = places.unit(i, slot);
      if (u >= 0) count.set(u, (count.get(u) ?? 0) + 1);
    }
    home = -1;
    for (const [id, n] of count) if (home < 0 || n > count.get(home)!) home = id;
    bySlot.set(slot, home);
  }
  return home;
}
