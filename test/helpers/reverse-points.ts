/**
 * Seeded query points for judging reverse geocoding, drawn without the engine's ward index: points inside the
 * official 2025 ward polygons (read by ward-reference.ts), a ward at a time.
 */
import { mulberry32 } from '../../src/trip/rng';
import { referenceWardAt, referenceWards, type RefWard } from './ward-reference';

/** A query point (degrees) and the official ward whose polygon holds it. */
export interface WardPoint {
  lat: number;
  lng: number;
  ward: RefWard;
}

/**
 * `count` seeded points: each in a ward drawn at random among the wards whose bounding box lies inside `bbox`
 * ([minLon, minLat, maxLon, maxLat] degrees), uniform over that ward's polygon (rejection in its bounding box).
 * Drawing the ward first weights small urban wards as much as large rural ones, as people's queries do.
 */
export function pointsInWards(bbox: readonly number[], count: number, seed: number): WardPoint[] {
  const [x0, y0, x1, y1] = bbox.map((v) => Math.round(v * 1e7)) as [number, number, number, number];
  const wards = referenceWards().filter(
    (w) => w.bbox[0] >= x0 && w.bbox[1] >= y0 && w.bbox[2] <= x1 && w.bbox[3] <= y1,
  );
  if (wards.length === 0) return [];
  const rand = mulberry32(seed);
  const out: WardPoint[] = [];
  while (out.length < count) {
    const w = wards[Math.floor(rand() * wards.length)]!;
    // Give up on a ward after 200 draws (a sliver whose box it barely fills) and draw another.
    for (let t = 0; t < 200; t++) {
      const lat = (w.bbox[1] + rand() * (w.bbox[3] - w.bbox[1])) / 1e7;
      const lng = (w.bbox[0] + rand() * (w.bbox[2] - w.bbox[0])) / 1e7;
      if (referenceWardAt(lat, lng) === w) {
        out.push({ lat, lng, ward: w });
        break;
      }
    }
  }
  return out;
}
