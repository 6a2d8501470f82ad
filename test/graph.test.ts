import { beforeAll, describe, expect, it } from 'vitest';
import { Pack } from '../src/pack/reader.js';
import { RoadGraph, speedOf, type EdgeSpeeds } from '../src/route/graph.js';
import { vehicleIndex } from '../src/route/profiles.js';
import { StringTable } from '../src/pack/strings.js';
import { roadMetres } from '../src/geo.js';
import { OSM, testPack } from './helpers/packs.js';
import { overpassWays } from './helpers/osm-json.js';

const CAR = vehicleIndex('car');
const BIKE = vehicleIndex('bike');
const TRUCK = vehicleIndex('truck');

/**
 * Metres between two points on the WGS84 ellipsoid: Vincenty's inverse formula (iterated to 1e-12 rad), written
 * here independently of the engine's road measure.
 */
function vincenty(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const a = 6378137,
    f = 1 / 298.257223563,
    b = a * (1 - f),
    rad = Math.PI / 180;
  const L = (lon2 - lon1) * rad;
  const U1 = Math.atan((1 - f) * Math.tan(lat1 * rad)),
    U2 = Math.atan((1 - f) * Math.tan(lat2 * rad));
  const [sinU1, cosU1, sinU2, cosU2] = [Math.sin(U1), Math.cos(U1), Math.sin(U2), Math.cos(U2)];
  let lambda = L,
    sinSigma = 0,
    cosSigma = 0,
    sigma = 0,
    cos2Alpha = 0,
    cos2SigmaM = 0;
  for (let i = 0; i < 100; i++) {
    const sinL = Math.sin(lambda),
      cosL = Math.cos(lambda);
    sinSigma = Math.hypot(cosU2 * sinL, cosU1 * sinU2 - sinU1 * cosU2 * cosL);
    if (sinSigma === 0) return 0;
    cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosL;
    sigma = Math.atan2(sinSigma, cosSigma);
    const sinAlpha = (cosU1 * cosU2 * sinL) / sinSigma;
    cos2Alpha = 1 - sinAlpha * sinAlpha;
    cos2SigmaM = cos2Alpha !== 0 ? cosSigma - (2 * sinU1 * sinU2) / cos2Alpha : 0;
    const C = (f / 16) * cos2Alpha * (4 + f * (4 - 3 * cos2Alpha));
    const next =
      L + (1 - C) * f * sinAlpha * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM ** 2)));
    if (Math.abs(next - lambda) < 1e-12) {
      lambda = next;
      break;
    }
    lambda = next;
  }
  const u2 = (cos2Alpha * (a * a - b * b)) / (b * b);
  const A = 1 + (u2 / 16384) * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)));
  const B = (u2 / 1024) * (256 + u2 * (-128 + u2 * (74 - 47 * u2)));
  const dSigma =
    B *
    sinSigma *
    (cos2SigmaM +
      (B / 4) *
        (cosSigma * (-1 + 2 * cos2SigmaM ** 2) -
          (B / 6) * cos2SigmaM * (-3 + 4 * sinSigma ** 2) * (-3 + 4 * cos2SigmaM ** 2)));
  return b * A * (sigma - dSigma);
}

/** Strongly connected components for one vehicle (iterative Tarjan), as a component id per node. */
function scc(g: RoadGraph, profile: number): Int32Array {
  const N = g.nodeCount;
  const index = new Int32Array(N).fill(-1);
  const low = new Int32Array(N);
  const comp = new Int32Array(N).fill(-1);
  const onStack = new Uint8Array(N);
  const speeds = g.speeds();
  const stack: number[] = [];
  let counter = 0;
  let comps = 0;
  const heads = (v: number) => {
    const out: number[] = [];
    for (let i = g.adjFirst[v]!; i < g.adjFirst[v + 1]!; i++) {
      const arc = g.adjArc[i]!;
      const e = arc >>> 1;
      if (speedOf(speeds, e, profile, arc & 1) > 0) out.push(g.edgeNodes[2 * e + 1 - (arc & 1)]!);
    }
    return out;
  };
  for (let root = 0; root < N; root++) {
    if (index[root]! >= 0) continue;
    const work: [number, number[], number][] = [[root, heads(root), 0]];
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (work.length) {
      const top = work[work.length - 1]!;
      const [v, hs] = top;
      if (top[2] < hs.length) {
        const w = hs[top[2]++]!;
        if (index[w]! < 0) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          work.push([w, heads(w), 0]);
        } else if (onStack[w]) low[v] = Math.min(low[v]!, index[w]!);
      } else {
        work.pop();
        if (work.length) {
          const u = work[work.length - 1]![0];
          low[u] = Math.min(low[u]!, low[v]!);
        }
        if (low[v] === index[v]) {
          let w: number;
          do {
            w = stack.pop()!;
            onStack[w] = 0;
            comp[w] = comps;
          } while (w !== v);
          comps++;
        }
      }
    }
  }
  return comp;
}

describe('the real Hanoi road graph', () => {
  let g: RoadGraph;
  let speeds: EdgeSpeeds;
  let strings: StringTable;
  beforeAll(() => {
    const pack = Pack.from(testPack('hanoi'));
    g = new RoadGraph(pack);
    speeds = g.speeds();
    strings = new StringTable(pack);
  });

  it('has no dangling edges and consistent incidence lists', () => {
    expect(g.nodeCount).toBeGreaterThan(5000);
    for (let e = 0; e < g.edgeCount; e++) {
      for (const side of [0, 1]) {
        const v = g.edgeNodes[2 * e + side]!;
        expect(v).toBeLessThan(g.nodeCount);
        const arcs = [...g.adjArc.subarray(g.adjFirst[v]!, g.adjFirst[v + 1]!)];
        expect(arcs).toContain(e * 2 + side);
      }
      // The length is the sum of the shape's segments, so never shorter than the straight line between the ends (but
      // for the millimetres of each segment's ruler being taken at its own latitude).
      const a = g.edgeNodes[2 * e]!;
      const b = g.edgeNodes[2 * e + 1]!;
      expect(g.edgeLen[e]! + 1e-3).toBeGreaterThanOrEqual(roadMetres(g.lat(a), g.lon(a), g.lat(b), g.lon(b)));
    }
  });

  it('measures a road on the WGS84 ellipsoid: a straight edge within 0.2 % of the geodesic between its ends', () => {
    // OSRM's 1e-6 degrees (≈ 0.11 m) bound the error at 100 m; a sphere makes north–south roads 0.46 % long here.
    let straight = 0;
    for (let e = 0; e < g.edgeCount; e++) {
      if (g.edgeShape.at(e + 1) !== g.edgeShape.at(e) || g.edgeLen[e]! < 100) continue;
      const [a, b] = [g.edgeNodes[2 * e]!, g.edgeNodes[2 * e + 1]!];
      const geodesic = vincenty(g.lat(a), g.lon(a), g.lat(b), g.lon(b));
      expect(Math.abs(g.edgeLen[e]! - geodesic) / geodesic).toBeLessThan(0.002);
      straight++;
    }
    expect(straight).toBeGreaterThan(200);
  });

  it('folds degree-2 chains: inner shape points belong to no other edge', () => {
    const endpoints = new Set<number>();
    for (let i = 0; i < g.edgeNodes.length; i++)
      endpoints.add(g.nodeLat[g.edgeNodes[i]!]! * 1e3 + g.nodeLon[g.edgeNodes[i]!]!);
    let shapePoints = 0;
    for (let s = 0; s < g.shapeLat.length; s++)
      if (!endpoints.has(g.shapeLat[s]! * 1e3 + g.shapeLon[s]!)) shapePoints++;
    // Nearly every shape point is a true degree-2 point (a few coincide in position with a node of another layer).
    expect(shapePoints / Math.max(1, g.shapeLat.length)).toBeGreaterThan(0.99);
    expect(g.shapeLat.length).toBeGreaterThan(g.nodeCount);
  });

  it('keeps the car one-way ways of the source tags, and only those', () => {
    const files = [
      'hanoi-center-all-2023.overpass.json',
      'hanoi-hospitals-2024.overpass.json',
      'hanoi-restaurants-2024.overpass.json',
      'hanoi-central-drive-2025.overpass.json',
    ].map((f) => OSM + f);
    const ways = overpassWays(files);
    const carOneway = new Set<number>();
    const inGraphForCar = new Set<number>();
    for (let e = 0; e < g.edgeCount; e++) {
      const f = speedOf(speeds, e, CAR, 0) > 0;
      const b = speedOf(speeds, e, CAR, 1) > 0;
      if (f || b) inGraphForCar.add(g.edgeWay.at(e)!);
      if (f !== b) carOneway.add(g.edgeWay.at(e)!);
    }
    let checked = 0;
    for (const w of ways.values()) {
      if (!inGraphForCar.has(w.id)) continue;
      const t = w.tags;
      // The car's oneway keys, most specific first (OSRM car.lua: oneway:motorcar, …, then oneway).
      const oneway = t['oneway:motorcar'] ?? t['oneway:motor_vehicle'] ?? t['oneway:vehicle'] ?? t.oneway;
      const tagged =
        ['yes', '1', 'true', '-1', 'reverse'].includes(oneway ?? '') ||
        (oneway === undefined &&
          (t.junction === 'roundabout' || t.junction === 'circular' || t.highway === 'motorway'));
      expect(carOneway.has(w.id), `way ${w.id} oneway=${oneway}`).toBe(tagged);
      checked++;
    }
    expect(checked).toBeGreaterThan(2000);
    expect(carOneway.size).toBeGreaterThan(1000);
  });

  it('has a largest strongly connected component holding most nodes (car)', () => {
    const comp = scc(g, CAR);
    const sizes = new Map<number, number>();
    let carNodes = 0;
    for (let v = 0; v < g.nodeCount; v++) {
      let usable = false;
      for (let i = g.adjFirst[v]!; i < g.adjFirst[v + 1]!; i++) {
        const arc = g.adjArc[i]!;
        if (speedOf(speeds, arc >>> 1, CAR, 0) > 0 || speedOf(speeds, arc >>> 1, CAR, 1) > 0) usable = true;
      }
      if (!usable) continue;
      carNodes++;
      sizes.set(comp[v]!, (sizes.get(comp[v]!) ?? 0) + 1);
    }
    const largest = Math.max(...sizes.values());
    expect(largest / carNodes).toBeGreaterThan(0.8);
  });

  it('lets a motorbike use alleys that a car may not (motor_vehicle=no + motorcycle=yes)', () => {
    const ways = overpassWays([
      OSM + 'hanoi-center-all-2023.overpass.json',
      OSM + 'hanoi-central-drive-2025.overpass.json',
    ]);
    let found = 0;
    for (let e = 0; e < g.edgeCount; e++) {
      const t = ways.get(g.edgeWay.at(e)!)?.tags;
      if (t?.motor_vehicle !== 'no' || t.motorcycle !== 'yes') continue;
      expect(speedOf(speeds, e, CAR, 0) + speedOf(speeds, e, CAR, 1)).toBe(0);
      expect(speedOf(speeds, e, BIKE, 0) + speedOf(speeds, e, BIKE, 1)).toBeGreaterThan(0);
      found++;
    }
    expect(found).toBeGreaterThan(50);
  });

  it('keeps trucks off hgv=no roads that cars may use', () => {
    const ways = overpassWays([
      OSM + 'hanoi-center-all-2023.overpass.json',
      OSM + 'hanoi-central-drive-2025.overpass.json',
    ]);
    let found = 0;
    for (let e = 0; e < g.edgeCount; e++) {
      const t = ways.get(g.edgeWay.at(e)!)?.tags;
      if (t?.hgv !== 'no') continue;
      expect(speedOf(speeds, e, TRUCK, 0) + speedOf(speeds, e, TRUCK, 1)).toBe(0);
      if (speedOf(speeds, e, CAR, 0) + speedOf(speeds, e, CAR, 1) > 0) found++;
    }
    expect(found).toBeGreaterThan(5);
  });

  it('names edges after their streets', () => {
    const names = new Set<string>();
    for (let e = 0; e < g.edgeCount; e++) names.add(strings.get(g.edgeName.at(e)));
    for (const n of ['Phố Hàng Bài', 'Phố Huế', 'Đường Giải Phóng']) expect(names.has(n), n).toBe(true);
  });
});
