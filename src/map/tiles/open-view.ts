/**
 * Where a web map opens on a region: on the densest neighbourhood of its roads and places, not on the middle of its
 * bounding box (which for an extract cut around a city, or a pack of two towns, is often the edge of the data or
 * empty land).
 */
import { COORD_SCALE } from '../../pack/format.js';
import { PlaceKind } from '../../places/kinds.js';
import type { Region } from '../../region.js';

/** A map's opening view: centre [longitude, latitude] in degrees and zoom. */
export interface OpenView {
  center: [number, number];
  zoom: number;
}

/** Side of the counting cells, 1e-7 degrees (0.01°, about 1.1 km). */
const CELL = 100_000;
/** Zoom of the opening view: the 3 × 3 cells around the densest one (about 3.3 km) fill a laptop screen. */
const OPEN_ZOOM = 14;

/**
 * The opening view of a region: the road-graph nodes and points of interest are counted in cells of CELL, the cell whose 3 × 3
 * neighbourhood holds the most is the densest, and the view is centred on the mean of the points in that
 * neighbourhood (so it sits on the data, never between clusters).
 * @returns null for a region with neither roads nor places
 */
export function denseView(region: Region): OpenView | null {
  const lat: ArrayLike<number>[] = [region.graph.nodeLat];
  const lon: ArrayLike<number>[] = [region.graph.nodeLon];
  // Points of interest only: a mass import of addresses (or of unnamed buildings) marks where someone imported, not
  // where a city's life is (whole HCMC's densest addresses lie in former Quận 9, its POIs in Quận 1).
  const places = region.places;
  if (places) {
    const poi: number[] = [];
    for (let i = 0; i < places.count; i++) if (places.kind[i] === PlaceKind.poi) poi.push(i);
    lat.push(poi.map((i) => places.lat[i]!));
    lon.push(poi.map((i) => places.lon[i]!));
  }
  const counts = new Map<number, number>();
  // Cell key: column and row within ±2^20 cells of the origin (±1000°, every coordinate).
  const key = (cx: number, cy: number): number => (cx + 1_048_576) * 2_097_152 + (cy + 1_048_576);
  const cellOf = (v: number): number => Math.floor(v / CELL);
  for (let s = 0; s < lat.length; s++) {
    for (let i = 0; i < lat[s]!.length; i++) {
      const k = key(cellOf(lon[s]![i]!), cellOf(lat[s]![i]!));
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
  }
  if (counts.size === 0) return null;
  let best = -1,
    bestX = 0,
    bestY = 0;
  for (const k of counts.keys()) {
    const cx = Math.floor(k / 2_097_152) - 1_048_576,
      cy = (k % 2_097_152) - 1_048_576;
    let n = 0;
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) n += counts.get(key(cx + dx, cy + dy)) ?? 0;
    // Ties go to the smaller key, so the answer does not depend on the map's iteration order.
    if (n > best || (n === best && key(cx, cy) < key(bestX, bestY))) ((best = n), (bestX = cx), (bestY = cy));
  }
  let sumLat = 0,
    sumLon = 0,
    n = 0;
  for (let s = 0; s < lat.length; s++) {
    for (let i = 0; i < lat[s]!.length; i++) {
      const x = lon[s]![i]!,
        y = lat[s]![i]!;
      if (Math.abs(cellOf(x) - bestX) <= 1 && Math.abs(cellOf(y) - bestY) <= 1) ((sumLon += x), (sumLat += y), n++);
    }
  }
  return { center: [sumLon / n / COORD_SCALE, sumLat / n / COORD_SCALE], zoom: OPEN_ZOOM };
}
