/**
 * One leg-geometry rule (route/geometry.ts legLine) for Direction, trip and the static map: every route line starts
 * exactly at its leg's start point and ends at its end point, and (before the polyline's 1e-5 rounding) never repeats
 * a point consecutively. Seeded random pairs of real Hanoi road points; the polylines decoded independently.
 */
import polyline from '@mapbox/polyline';
import { describe, expect, it } from 'vitest';
import type { DirectionResponse } from '../src/api/direction.js';
import { findRouteLine } from '../src/api/static-route-image.js';
import type { TripResponse } from '../src/api/trip.js';
import { Engine } from '../src/engine.js';
import { Pack } from '../src/pack/reader.js';
import { Region } from '../src/region.js';
import { testPack } from './helpers/packs.js';

const region = new Region(Pack.from(testPack('hanoi')));
const engine = new Engine([region]);
const g = region.graph;

/** Park–Miller generator: the same pairs on every run. */
function seeded(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 48271) % 2147483647) / 2147483647;
}

/** A random road node's position, as a request would give it. */
function randomPoint(rand: () => number): { lat: number; lng: number; text: string } {
  const v = Math.floor(rand() * g.nodeCount);
  const lat = +g.lat(v).toFixed(6),
    lng = +g.lon(v).toFixed(6);
  return { lat, lng, text: `${lat},${lng}` };
}

/** Two points equal at the polyline's precision (1e-5°; the response's points are themselves rounded to 1e-6°). */
const same = (p: readonly number[], q: readonly number[]) =>
  Math.abs(p[0]! - q[0]!) <= 1.1e-5 && Math.abs(p[1]! - q[1]!) <= 1.1e-5;
const noRepeats = (pts: number[][]) =>
  pts.every((p, i) => i === 0 || p[0] !== pts[i - 1]![0] || p[1] !== pts[i - 1]![1]);

describe('leg lines', () => {
  it('Direction, trip and the static map lines run exactly from the first stop to the last, without repeated points', () => {
    const rand = seeded(11);
    let checked = 0;
    for (let k = 0; k < 60; k++) {
      const a = randomPoint(rand),
        b = randomPoint(rand),
        c = randomPoint(rand);
      const dir = engine.direction({ origin: a.text, destination: `${b.text};${c.text}` }) as DirectionResponse;
      if (dir.status !== 'OK') continue;
      checked++;
      const route = dir.routes[0]!;
      const line = polyline.decode(route.overview_polyline.points);
      const start = route.legs[0]!.start_location,
        end = route.legs.at(-1)!.end_location;
      expect(same(line[0]!, [start.lat, start.lng])).toBe(true);
      expect(same(line.at(-1)!, [end.lat, end.lng])).toBe(true);

      const image = findRouteLine([region], { origin: a, destination: b, vehicle: 'car', type: 'fastest' });
      if ('status' in image) throw new Error(image.error_message);
      const first = route.legs[0]!;
      expect(image.line.coordinates[0]).toEqual([first.start_location.lng, first.start_location.lat]);
      expect(image.line.coordinates.at(-1)).toEqual([first.end_location.lng, first.end_location.lat]);
      expect(noRepeats(image.line.coordinates.map((p) => [...p]))).toBe(true);

      const trip = engine.trip({ origin: a.text, waypoints: b.text, destination: c.text }) as TripResponse;
      if (trip.code !== 'Ok') continue;
      const tripLine = polyline.decode(trip.trips[0]!.geometry);
      // A round trip: from the origin through every stop and back to the origin.
      const [o, ...others] = trip.waypoints.map((w) => w.location);
      expect(same(tripLine[0]!, o!)).toBe(true);
      expect(same(tripLine.at(-1)!, o!)).toBe(true);
      for (const stop of others) expect(tripLine.some((p) => same(p, stop))).toBe(true);
    }
    expect(checked).toBeGreaterThanOrEqual(40);
  });
});
