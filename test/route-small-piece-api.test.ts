/**
 * Direction, DistanceMatrix, trip and the static route image apply one pair rule (Router.ends): two points nearest to
 * roads of the same small component (a piece cut off from the main network) route within it, everything else routes
 * between big-component snaps. Real Hanoi places found by a straight grid scan; routes within a piece checked against
 * a plain Dijkstra over that piece's arcs.
 */
import TinyQueue from 'tinyqueue';
import { describe, expect, it } from 'vitest';
import type { DirectionResponse } from '../src/api/direction.js';
import type { MatrixElement } from '../src/api/matrix.js';
import type { TripResponse } from '../src/api/trip.js';
import { Engine } from '../src/engine.js';
import { Pack } from '../src/pack/reader.js';
import { Region } from '../src/region.js';
import { findRouteLine } from '../src/api/static-route-image.js';
import { encodePolyline } from '../src/route/geometry.js';
import { routerOf } from '../src/route/router.js';
import type { Snap } from '../src/route/snap.js';
import { PlainDijkstra, plainCosts } from './helpers/route-reference.js';
import { testPack } from './helpers/packs.js';

const region = new Region(Pack.from(testPack('hanoi')));
const g = region.graph;
const engine = new Engine([region]);
const router = routerOf(region);
const comps = router.components(0);
const plain = new PlainDijkstra(g, 0, 'fastest');
const costs = plainCosts(g, 0, 'fastest');

interface Point {
  /** "lat,lng" as a request gives it. */
  text: string;
  lat: number;
  lng: number;
  snap: Snap;
}

/**
 * Straight scan: a 0.001° grid over the pack's box; points whose snap keeps a nearest road of a small component
 * (`local`) within 50 m, grouped by that component, in scan order.
 */
function scanPieces(): Map<number, Point[]> {
  const [minLon, minLat, maxLon, maxLat] = region.meta.bbox!;
  const pieces = new Map<number, Point[]>();
  for (let i = 0; minLat + i * 0.001 <= maxLat; i++) {
    for (let j = 0; minLon + j * 0.001 <= maxLon; j++) {
      const lat = Number((minLat + i * 0.001).toFixed(6));
      const lng = Number((minLon + j * 0.001).toFixed(6));
      const snap = router.snap(lat, lng, 0);
      if (!snap?.local || snap.local.dist > 50) continue;
      const c = comps.edgeComp[snap.local.edge]!;
      if (!pieces.has(c)) pieces.set(c, []);
      pieces.get(c)!.push({ text: `${lat},${lng}`, lat, lng, snap });
    }
  }
  return pieces;
}

/** Plain scan over every segment of every car-open edge: the nearest edge to a point and its distance (flat metres). */
function nearestOpenEdge(lat: number, lng: number): { edge: number; metres: number } {
  const ky = 111195;
  const kx = ky * Math.cos((lat * Math.PI) / 180);
  let best = { edge: -1, metres: Infinity };
  for (let e = 0; e < g.edgeCount; e++) {
    if (costs.w[2 * e] === Infinity && costs.w[2 * e + 1] === Infinity) continue;
    const pts: [number, number][] = [[g.lat(g.edgeNodes[2 * e]!), g.lon(g.edgeNodes[2 * e]!)]];
    for (let k = g.edgeShape.at(e); k < g.edgeShape.at(e + 1); k++)
      pts.push([g.shapeLat[k]! / 1e7, g.shapeLon[k]! / 1e7]);
    pts.push([g.lat(g.edgeNodes[2 * e + 1]!), g.lon(g.edgeNodes[2 * e + 1]!)]);
    for (let k = 0; k + 1 < pts.length; k++) {
      const ax = (pts[k]![1] - lng) * kx,
        ay = (pts[k]![0] - lat) * ky;
      const bx = (pts[k + 1]![1] - lng) * kx,
        by = (pts[k + 1]![0] - lat) * ky;
      const len2 = (bx - ax) ** 2 + (by - ay) ** 2;
      const u = len2 > 0 ? Math.max(0, Math.min(1, -(ax * (bx - ax) + ay * (by - ay)) / len2)) : 0;
      const m = Math.hypot(ax + u * (bx - ax), ay + u * (by - ay));
      if (m < best.metres) best = { edge: e, metres: m };
    }
  }
  return best;
}

interface Reference {
  weight: number;
  /** Seconds. */
  duration: number;
  /** Metres. */
  distance: number;
  /** Last arc of the best route. */
  last: number;
}

/**
 * Plain Dijkstra over the arcs of one component's edges with PlainDijkstra's rules (its costs, turnOk, turn costs,
 * tail, head):
 * best route from point s to point d, or null. `only`: the one arc s may leave along. Seconds and metres are added
 * along the best route's arcs (partial first and last arcs).
 */
function withinPiece(
  piece: number,
  s: { edge: number; t: number },
  d: { edge: number; t: number },
  only?: number,
): Reference | null {
  const out = new Map<number, number[]>();
  for (let e = 0; e < g.edgeCount; e++) {
    if (comps.edgeComp[e] !== piece) continue;
    for (const a of [2 * e, 2 * e + 1]) {
      if (costs.w[a] === Infinity) continue;
      const v = plain.tail(a);
      if (!out.has(v)) out.set(v, []);
      out.get(v)!.push(a);
    }
  }
  const pos = (a: number, t: number) => (a & 1 ? 1 - t : t);
  const len = (a: number) => g.edgeLen[a >> 1]!;
  const starts = [2 * s.edge, 2 * s.edge + 1].filter(
    (a) => costs.w[a] !== Infinity && (only === undefined || a === only),
  );
  const label = new Map<number, { w: number; dur: number; dist: number }>();
  const q = new TinyQueue<[number, number, number, number]>([], (x, y) => x[0] - y[0]);
  for (const a of starts) {
    const f = 1 - pos(a, s.t);
    q.push([f * costs.w[a]!, f * costs.dur[a]!, f * len(a), a]);
  }
  while (q.length) {
    const [w, dur, dist, a] = q.pop()!;
    if (label.has(a)) continue;
    label.set(a, { w, dur, dist });
    for (const b of out.get(plain.head(a)) ?? []) {
      if (!label.has(b) && plain.turnOk(a, b))
        q.push([
          w + plain.turnWeight(a, b) + costs.w[b]!,
          dur + plain.turnSeconds(a, b) + costs.dur[b]!,
          dist + len(b),
          b,
        ]);
    }
  }
  let best: Reference | null = null;
  const offer = (weight: number, duration: number, distance: number, last: number) => {
    if (!best || weight < best.weight) best = { weight, duration, distance, last };
  };
  for (const b of [2 * d.edge, 2 * d.edge + 1]) {
    if (costs.w[b] === Infinity) continue;
    const f = pos(b, d.t);
    if (s.edge === d.edge && starts.includes(b) && f >= pos(b, s.t)) {
      const k = f - pos(b, s.t);
      offer(k * costs.w[b]!, k * costs.dur[b]!, k * len(b), b);
    }
    for (const [a, l] of label) {
      if (plain.head(a) === plain.tail(b) && plain.turnOk(a, b))
        offer(
          l.w + plain.turnWeight(a, b) + f * costs.w[b]!,
          l.dur + plain.turnSeconds(a, b) + f * costs.dur[b]!,
          l.dist + f * len(b),
          b,
        );
    }
  }
  return best;
}

function ok<T extends DirectionResponse>(r: T): T {
  if (r.status !== 'OK') throw new Error(`${r.status}: ${r.error_message}`);
  return r;
}

function okTrip(r: TripResponse) {
  if (r.code !== 'Ok') throw new Error(`${r.code}: ${'message' in r ? r.message : ''}`);
  return r;
}

function okElement(el: MatrixElement) {
  if (el.status !== 'OK') throw new Error(`matrix element ${el.status}`);
  return el;
}

const at = (p: { lat: number; lon: number }) => ({ lat: p.lat, lng: p.lon });

/** Whole metres / seconds (Direction, DistanceMatrix) agree with an unrounded value up to the rounding. */
function expectWhole(value: number, exact: number): void {
  expect(Math.abs(value - exact)).toBeLessThanOrEqual(0.5 + 1e-6);
}

describe('small pieces of road: Direction, DistanceMatrix, trip and the static route agree (Hanoi, car)', () => {
  const pieces = scanPieces();
  // Per piece (scan order) its first and last points, both ways.
  const pairs: { piece: number; p: Point; q: Point }[] = [];
  for (const [piece, list] of pieces) {
    if (list.length < 2 || pairs.length >= 24) continue;
    const [p, q] = [list[0]!, list[list.length - 1]!];
    pairs.push({ piece, p, q }, { piece, p: q, q: p });
  }
  const points = [...new Set(pairs.flatMap(({ p, q }) => [p, q]))];
  const mx = engine.distanceMatrix({
    origins: points.map((x) => x.text).join('|'),
    destinations: points.map((x) => x.text).join('|'),
  });
  const element = (p: Point, q: Point) => okElement(mx.rows[points.indexOf(p)]!.elements[points.indexOf(q)]!);

  it('the scan finds points whose nearest car road (plain scan over all edges) lies in a small piece', () => {
    expect(pairs.length).toBeGreaterThanOrEqual(12);
    for (const x of points) {
      const near = nearestOpenEdge(x.lat, x.lng);
      expect(Math.abs(near.metres - x.snap.local!.dist)).toBeLessThan(0.5);
      expect(comps.edgeComp[near.edge]).toBe(comps.edgeComp[x.snap.local!.edge]);
      expect(comps.big[near.edge]).toBe(0);
      expect(comps.big[x.snap.edge]).toBe(1);
    }
  });

  it('a pair in one piece routes within it (plain Dijkstra); with no route there, between the big-network snaps', () => {
    let within = 0;
    let changed = 0;
    let fallback = 0;
    for (const { piece, p, q } of pairs) {
      const ref = withinPiece(piece, p.snap.local!, q.snap.local!);
      const old = router.leg(p.snap, q.snap, 0)!; // Between the big-component snaps (the rule off).
      // With no route within the piece the pair is routed as before, between the big-component snaps.
      const want = ref ?? { weight: old.weight, duration: old.duration, distance: old.distance };
      const [from, to] = ref ? [p.snap.local!, q.snap.local!] : [p.snap, q.snap];
      if (ref) within++;
      else fallback++;
      if (ref && Math.abs(ref.distance - old.distance) > 1) changed++;

      const leg = ok(engine.direction({ origin: p.text, destination: q.text })).routes[0]!.legs[0]!;
      expectWhole(leg.distance.value, want.distance);
      expectWhole(leg.duration.value, want.duration);
      expect(leg.start_location).toEqual(at(from));
      expect(leg.end_location).toEqual(at(to));

      const el = element(p, q);
      expect(el.distance.value).toBe(leg.distance.value);
      expect(el.duration.value).toBe(leg.duration.value);

      // The static image draws Direction's route: the same line, point for point.
      const line = findRouteLine([region], { origin: p, destination: q, vehicle: 'car', type: 'fastest' });
      if ('status' in line) throw new Error(line.error_message);
      const dir = ok(engine.direction({ origin: p.text, destination: q.text })).routes[0]!;
      expect(encodePolyline(line.line.coordinates.flatMap(([lon, lat]) => [lat, lon]))).toBe(
        dir.overview_polyline.points,
      );
    }
    expect(within).toBeGreaterThanOrEqual(8);
    // The rule matters: routing between the big-component snaps would give other answers.
    expect(changed).toBeGreaterThanOrEqual(4);
    // One-way pieces: the second point lies behind the first.
    expect(fallback).toBeGreaterThanOrEqual(1);
  });

  it('trip legs equal the matrix entries and the plain Dijkstra; waypoints report the points left from', () => {
    for (const { piece, p, q } of pairs.filter((_, k) => k % 2 === 0)) {
      const r = okTrip(engine.trip({ waypoints: `${p.text};${q.text}` }));
      expect(r.waypoints.map((w) => w.waypoint_index)).toEqual([0, 1]);
      expect(r.trips[0]!.legs).toHaveLength(2);
      const [there, back] = [r.trips[0]!.legs[0]!, r.trips[0]!.legs[1]!];
      for (const [leg, a, b] of [
        [there, p, q],
        [back, q, p],
      ] as const) {
        const ref = withinPiece(piece, a.snap.local!, b.snap.local!);
        const el = element(a, b);
        expect(Math.abs(leg.distance - el.distance.value)).toBeLessThanOrEqual(0.55);
        expect(Math.abs(leg.duration - el.duration.value)).toBeLessThanOrEqual(0.55);
        if (ref) {
          expect(Math.abs(leg.weight - ref.weight)).toBeLessThanOrEqual(0.051);
          expect(Math.abs(leg.distance - ref.distance)).toBeLessThanOrEqual(0.051);
        }
        // The waypoint of a stop is the point its outgoing leg starts from.
        const w = r.waypoints[a === p ? 0 : 1]!;
        const from = ref ? a.snap.local! : a.snap;
        expect(w.location).toEqual([Math.round(from.lat * 1e6) / 1e6, Math.round(from.lon * 1e6) / 1e6]);
        expect(w.distance).toBeCloseTo(from.dist, 1);
      }
    }
  });

  it('direction with several destinations in one piece: each leg within it, continuing along the arc of arrival', () => {
    // Stops a → b → d in one piece where leaving b along the arc of arrival changes the second leg (plain Dijkstra),
    // e.g. a → b → a: no U-turn at b.
    let found: { piece: number; a: Point; b: Point; d: Point; first: Reference; second: Reference } | null = null;
    for (const [piece, list] of pieces) {
      const l = list.slice(0, 6);
      for (const a of l)
        for (const b of l)
          for (const d of l) {
            if (found || a === b || b === d) continue;
            const first = withinPiece(piece, a.snap.local!, b.snap.local!);
            if (!first) continue;
            const second = withinPiece(piece, b.snap.local!, d.snap.local!, first.last);
            const free = withinPiece(piece, b.snap.local!, d.snap.local!);
            if (second && free && second.distance > free.distance + 5) found = { piece, a, b, d, first, second };
          }
    }
    expect(found).not.toBeNull();
    const { a, b, d, first, second } = found!;
    const legs = ok(engine.direction({ origin: a.text, destination: `${b.text};${d.text}` })).routes[0]!.legs;
    expect(legs).toHaveLength(2);
    expectWhole(legs[0]!.distance.value, first.distance);
    expectWhole(legs[1]!.distance.value, second.distance);
    expectWhole(legs[1]!.duration.value, second.duration);
    expect(legs[0]!.end_location).toEqual(at(b.snap.local!));
    expect(legs[1]!.start_location).toEqual(at(b.snap.local!));
    expect(legs[1]!.end_location).toEqual(at(d.snap.local!));
  });

  it('with one point on the main network the pair routes between big-component snaps, as before', () => {
    const main = { text: '21.0285,105.8542', lat: 21.0285, lng: 105.8542, snap: router.snap(21.0285, 105.8542, 0)! };
    expect(main.snap.local).toBeUndefined();
    expect(comps.big[main.snap.edge]).toBe(1);
    const { piece, p, q } = pairs.find(({ piece, p, q }) => withinPiece(piece, p.snap.local!, q.snap.local!))!;
    expect(piece).toBeGreaterThanOrEqual(0);
    const mixed = engine.distanceMatrix({
      origins: `${p.text}|${main.text}`,
      destinations: `${main.text}|${q.text}|${p.text}`,
    });
    for (const [a, b, el] of [
      [p, main, mixed.rows[0]!.elements[0]!],
      [main, p, mixed.rows[1]!.elements[2]!],
    ] as const) {
      const old = router.leg(a.snap, b.snap, 0)!;
      const leg = ok(engine.direction({ origin: a.text, destination: b.text })).routes[0]!.legs[0]!;
      expectWhole(leg.distance.value, old.distance);
      expectWhole(leg.duration.value, old.duration);
      expect(leg.start_location).toEqual(at(a.snap));
      expect(leg.end_location).toEqual(at(b.snap));
      expect(okElement(el).distance.value).toBe(leg.distance.value);
      expect(okElement(el).duration.value).toBe(leg.duration.value);
    }
    // The same matrix still routes the in-piece pair within the piece.
    expectWhole(
      okElement(mixed.rows[0]!.elements[1]!).distance.value,
      withinPiece(piece, p.snap.local!, q.snap.local!)!.distance,
    );

    // A trip through the piece point and the main point: the piece point's waypoint is its big-component snap.
    const r = okTrip(engine.trip({ waypoints: `${p.text};${main.text}` }));
    expect(r.waypoints[0]!.location).toEqual([Math.round(p.snap.lat * 1e6) / 1e6, Math.round(p.snap.lon * 1e6) / 1e6]);
    expect(
      Math.abs(r.trips[0]!.legs[0]!.distance - okElement(mixed.rows[0]!.elements[0]!).distance.value),
    ).toBeLessThanOrEqual(0.55);

    // Origin and first destination in the piece, then the main network: the first leg ends at the destination's
    // point in the piece, the second starts at its big-component snap (the pair rule is per leg) and is Direction's
    // answer for that pair alone.
    const legs = ok(engine.direction({ origin: p.text, destination: `${q.text};${main.text}` })).routes[0]!.legs;
    expect(legs[0]!.end_location).toEqual(at(q.snap.local!));
    expect(legs[1]!.start_location).toEqual(at(q.snap));
    expect(legs[1]!.distance).toEqual(
      ok(engine.direction({ origin: q.text, destination: main.text })).routes[0]!.legs[0]!.distance,
    );
  });

  it('alternatives run between the same points as the best route', () => {
    let checked = 0;
    for (const [piece, list] of pieces) {
      const l = list.slice(0, 6);
      for (const p of l)
        for (const q of l) {
          if (p === q || checked >= 5) continue;
          const routes = ok(engine.direction({ origin: p.text, destination: q.text, alternatives: true })).routes;
          if (routes.length < 2) continue;
          checked++;
          const inside = withinPiece(piece, p.snap.local!, q.snap.local!) !== null;
          for (const r of routes) {
            expect(r.legs[0]!.start_location).toEqual(at(inside ? p.snap.local! : p.snap));
            expect(r.legs[0]!.end_location).toEqual(at(inside ? q.snap.local! : q.snap));
          }
        }
    }
    expect(checked).toBe(5);
  });
});
