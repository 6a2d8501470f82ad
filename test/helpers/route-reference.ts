import TinyQueue from 'tinyqueue';
import { TIE_PER_METRE } from '../../src/route/costs.js';
import { prefOf, speedOf, type RoadGraph } from '../../src/route/graph.js';
import type { Router } from '../../src/route/router.js';
import type { Endpoint } from '../../src/route/search.js';
import { mulberry32 as rng } from '../../src/trip/rng.js';

/** n seeded random points snapped (within 5 km) from about 100 m around random nodes of the graph. */
export function randomEndpoints(g: RoadGraph, router: Router, profile: number, n: number, seed: number): Endpoint[] {
  const rand = rng(seed);
  const out: Endpoint[] = [];
  while (out.length < n) {
    const v = Math.floor(rand() * g.nodeCount);
    const s = router.snap(g.lat(v) + (rand() - 0.5) * 0.002, g.lon(v) + (rand() - 0.5) * 0.002, profile, 5000);
    if (s) out.push(s);
  }
  return out;
}

/** Plain per-arc costs, written independently of src/route/costs.ts: seconds and routability weight. */
export function plainCosts(
  g: RoadGraph,
  profile: number,
  weighting: 'fastest' | 'shortest',
): { w: number[]; dur: number[] } {
  const w: number[] = [];
  const dur: number[] = [];
  const speeds = g.speeds();
  for (let e = 0; e < g.edgeCount; e++) {
    for (const dir of [0, 1]) {
      const speed = speedOf(speeds, e, profile, dir);
      if (!speed) {
        w.push(Infinity);
        dur.push(Infinity);
        continue;
      }
      const penalty = prefOf(speeds, e, profile) / 100;
      // Given durations, or a graph not from OSM (DIMACS): seconds as given, else at the speed over the edge's length.
      if (g.edgeDuration || !g.fromOsm) {
        const d = g.edgeDuration ? g.edgeDuration[e]! : (g.edgeLen[e]! / speed) * 3.6;
        dur.push(d);
        w.push(weighting === 'shortest' ? g.edgeLen[e]! : d / penalty);
        continue;
      }
      // OSRM's extractor (extraction_containers.cpp): per segment between two OSM nodes, its cheap-ruler length over
      // its latitude band, seconds = length / rate in whole deciseconds, at least one; rate = speed × penalty / 3.6.
      let ds = 0,
        ws = 0;
      for (const metres of osrmSegments(g, e)) {
        ds += Math.max(1, Math.round((metres / (speed / 3.6)) * 10));
        ws += Math.max(1, Math.round((metres / ((speed * penalty) / 3.6)) * 10));
      }
      dur.push(ds / 10);
      // Among routes of one such weight, the shorter (costs.ts TIE_PER_METRE).
      w.push(weighting === 'shortest' ? g.edgeLen[e]! : ws / 10 + g.edgeLen[e]! * TIE_PER_METRE);
    }
  }
  return { w, dur };
}

/**
 * Lengths of edge e's segments, node to node, as OSRM v6 measures them (util/coordinate_calculation.cpp
 * greatCircleDistance): coordinates in whole millionths of a degree (std::lround), mapbox's cheap ruler made for
 * the middle of the 0.05° latitude band that the segment's mean latitude falls in (1,800 bands over 90°).
 */
function osrmSegments(g: RoadGraph, e: number): number[] {
  const micro = (e7: number) => {
    const x = (e7 / 1e7) * 1e6;
    return Math.sign(x) * Math.floor(Math.abs(x) + 0.5);
  };
  const [u, v] = [g.edgeNodes[2 * e]!, g.edgeNodes[2 * e + 1]!];
  const pts: [number, number][] = [[micro(g.nodeLat[u]!), micro(g.nodeLon[u]!)]];
  for (let i = g.edgeShape.at(e); i < g.edgeShape.at(e + 1); i++)
    pts.push([micro(g.shapeLat[i]!), micro(g.shapeLon[i]!)]);
  pts.push([micro(g.nodeLat[v]!), micro(g.nodeLon[v]!)]);
  const out: number[] = [];
  for (let i = 1; i < pts.length; i++) {
    const [[lat1, lon1], [lat2, lon2]] = [pts[i - 1]!, pts[i]!];
    const band = Math.floor((Math.abs(Math.trunc((lat1 + lat2) / 2)) - 1) / 50_000);
    const phi = (((band + 0.5) * 50_000) / 1e6) * (Math.PI / 180);
    // WGS84: a = 6378.137 km, f = 1 / 298.257223563; e² = f (2 − f).
    const e2 = (1 / 298.257223563) * (2 - 1 / 298.257223563);
    const w2 = 1 / (1 - e2 * Math.sin(phi) ** 2);
    const perDegree = (Math.PI / 180) * 6378137;
    const kx = perDegree * Math.sqrt(w2) * Math.cos(phi),
      ky = perDegree * Math.sqrt(w2) * w2 * (1 - e2);
    out.push(Math.hypot((lon1 / 1e6 - lon2 / 1e6) * kx, (lat1 / 1e6 - lat2 / 1e6) * ky));
  }
  return out;
}

/**
 * OSRM car.lua `process_turn`, re-typed from the profile: seconds of a turn by `angle` degrees (0 straight, positive
 * right) at a node with `roads` usable roads, with or without a traffic light, U-turn or not.
 */
export function osrmTurnSeconds(angle: number, roads: number, light: boolean, uturn: boolean): number {
  const bias = 1.075;
  let d = light ? 2 : 0;
  if (roads > 2 || uturn) {
    d +=
      angle >= 0
        ? 7.5 / (1 + Math.exp(-(((13 / bias) * angle) / 180 - 6.5 * bias)))
        : 7.5 / (1 + Math.exp(-((13 * bias * -angle) / 180 - 6.5 / bias)));
    if (uturn) d += 20;
  }
  return d;
}

/** What OSRM keeps of a turn's seconds: whole deciseconds, truncated (edge_based_graph_factory.cpp). */
export function osrmStoredSeconds(seconds: number): number {
  return Math.trunc(seconds * 10) / 10;
}

/**
 * Bearing in degrees (clockwise from north) from the start of a polyline to the point `metres` along it (its end when
 * shorter), in a flat projection at the first point (metres: radius 6372797.560856 m, longitude scaled by the
 * cosine of the first point's latitude), rounded to 1/1024 turn (the documented turn model of src/route/costs.ts).
 */
function lookaheadBearing(pts: [number, number][], metres: number): number {
  const R = 6372797.560856,
    rad = Math.PI / 180;
  const c = Math.cos(pts[0]![0] * rad);
  const xy = pts.map(([lat, lon]) => [lon * rad * R * c, lat * rad * R] as const);
  let target = xy[xy.length - 1]!;
  let left = metres;
  for (let i = 1; i < xy.length; i++) {
    const seg = Math.hypot(xy[i]![0] - xy[i - 1]![0], xy[i]![1] - xy[i - 1]![1]);
    if (seg > 0 && seg >= left) {
      const f = left / seg;
      target = [xy[i - 1]![0] + f * (xy[i]![0] - xy[i - 1]![0]), xy[i - 1]![1] + f * (xy[i]![1] - xy[i - 1]![1])];
      break;
    }
    left -= seg;
  }
  const deg = Math.atan2(target[0] - xy[0]![0], target[1] - xy[0]![1]) / rad;
  return ((((Math.round((deg * 1024) / 360) % 1024) + 1024) % 1024) * 360) / 1024;
}

/**
 * Plain edge-based Dijkstra from a point on an edge to all arcs, then the cost to a point on an edge: no U-turn
 * except where a node has a single open way out or at a barrier node, which the vehicle may not pass, via-node turn restrictions (no_* forbids
 * the pair, only_* allows only the listed pairs from that arc), via-way restrictions (OSRM: a no_* path from → via
 * … → to may not be driven whole; after driving an only_* path's from and all its via edges, the next arc must be
 * its to). Each allowed turn costs OSRM's car turn seconds (osrmTurnSeconds with the angle between the rounded
 * lookahead bearings; as weight for fastest, 0 for shortest; none in DIMACS packs). A lazy-deletion queue, nothing
 * else. Via-way restrictions are checked on the history of driven arcs: a search state is the current arc with the
 * longest run of arcs just driven that is a proper prefix of some via-way path (keys "x,y,a", the arc last).
 */
export class PlainDijkstra {
  private readonly w: number[];
  private readonly dur: number[];
  /** Banned turns a → b, as a * arcs + b. */
  private readonly banned = new Set<number>();
  private readonly only = new Map<number, Set<number>>();
  /** Via-way restrictions as arc paths (3 or more arcs). */
  readonly viaWay: { arcs: number[]; only: boolean }[] = [];
  /** viaWay by each rule's last via arc (the arc driven just before its to), and the viaWay length it indexes. */
  private viaWayByLast = new Map<number, { arcs: number[]; only: boolean }[]>();
  private indexed = -1;
  private readonly prefixes = new Set<string>();
  /** First arcs of the prefixes of two arcs or more: a key of one other arc steps to the next arc alone (step). */
  private readonly prefixFirst = new Set<number>();
  private readonly weighted: boolean;
  /** Open arcs leaving each node, in arc order, and usable roads at each node (see roads), from one pass. */
  private readonly outByNode: number[][];
  private readonly roadsAt: Int32Array;
  /** Lookahead bearing of each arc (lookaheadBearing of arcLine), NaN until first needed. */
  private readonly bearingOf: Float64Array;
  /** @param factor what each edge's weight is multiplied by (default 1: a route that avoids road kinds sets more) */
  constructor(
    private readonly g: RoadGraph,
    private readonly profile: number,
    weighting: 'fastest' | 'shortest',
    factor: (edge: number) => number = () => 1,
  ) {
    ({ w: this.w, dur: this.dur } = plainCosts(g, profile, weighting));
    this.w = this.w.map((x, a) => x * factor(a >> 1));
    this.weighted = weighting === 'fastest';
    this.outByNode = Array.from({ length: g.nodeCount }, () => []);
    this.roadsAt = new Int32Array(g.nodeCount);
    this.bearingOf = new Float64Array(2 * g.edgeCount).fill(NaN);
    for (let e = 0; e < g.edgeCount; e++) {
      for (const d of [0, 1]) if (this.w[e * 2 + d] !== Infinity) this.outByNode[this.tail(e * 2 + d)]!.push(e * 2 + d);
      if (this.w[2 * e] === Infinity && this.w[2 * e + 1] === Infinity) continue;
      this.roadsAt[g.edgeNodes[2 * e]!]!++;
      this.roadsAt[g.edgeNodes[2 * e + 1]!]!++;
    }
    for (let r = 0; r + 1 < g.turnFirst.length; r++) {
      if (!(g.turnMask[r]! & (1 << profile))) continue;
      if (g.turnFirst[r + 1]! - g.turnFirst[r]! > 2) {
        const arcs = this.viaWayArcs(Array.from(g.turnEdges.subarray(g.turnFirst[r]!, g.turnFirst[r + 1]!)));
        if (!arcs) continue;
        this.viaWay.push({ arcs, only: g.turnKind[r] === 1 });
        for (let k = 1; k < arcs.length; k++) this.prefixes.add(arcs.slice(0, k).join(','));
        this.prefixFirst.add(arcs[0]!);
        continue;
      }
      if (g.turnFirst[r + 1]! - g.turnFirst[r]! !== 2) continue;
      const e1 = g.turnEdges[g.turnFirst[r]!]!;
      const e2 = g.turnEdges[g.turnFirst[r]! + 1]!;
      for (const d1 of [0, 1]) {
        for (const d2 of [0, 1]) {
          const a = e1 * 2 + d1;
          const b = e2 * 2 + d2;
          if (this.head(a) !== this.tail(b)) continue;
          if (g.turnKind[r] === 0) this.banned.add(a * 2 * g.edgeCount + b);
          else {
            if (!this.only.has(a)) this.only.set(a, new Set());
            this.only.get(a)!.add(b);
          }
        }
      }
    }
  }
  /**
   * Arcs along edges e_0 … e_n: each arc runs from the node it shares with the previous edge to the node it shares
   * with the next one (the first arc ends where e_1 touches it); null when consecutive edges share no node.
   */
  private viaWayArcs(edges: number[]): number[] | null {
    const en = this.g.edgeNodes;
    const ends = (e: number) => [en[2 * e]!, en[2 * e + 1]!];
    const arcs: number[] = [];
    let at = -1;
    for (let k = 0; k < edges.length; k++) {
      const [p, q] = ends(edges[k]!);
      let start: number;
      if (k === 0) {
        const next = ends(edges[1]!);
        // Drive e_0 towards the node it shares with e_1.
        if (next.includes(q!)) start = p!;
        else if (next.includes(p!)) start = q!;
        else return null;
      } else {
        if (at !== p && at !== q) return null;
        start = at;
      }
      const dir = start === p ? 0 : 1;
      arcs.push(edges[k]! * 2 + dir);
      at = dir === 0 ? q! : p!;
    }
    return arcs;
  }
  /**
   * The search key after driving arc b from the state `key` (arcs driven, current last), or null when a via-way
   * restriction forbids it.
   */
  private step(key: string, b: number): string | null {
    const hist = key.split(',').map(Number);
    const seq = [...hist, b];
    // Only a restriction whose last via arc is the current one can match the arcs driven before b. viaWay is
    // indexed again when it changed (a test may empty it to route without via-way restrictions).
    if (this.indexed !== this.viaWay.length) {
      this.viaWayByLast = new Map();
      for (const r of this.viaWay) {
        const last = r.arcs[r.arcs.length - 2]!;
        this.viaWayByLast.set(last, [...(this.viaWayByLast.get(last) ?? []), r]);
      }
      this.indexed = this.viaWay.length;
    }
    for (const r of this.viaWayByLast.get(hist[hist.length - 1]!) ?? []) {
      const n = r.arcs.length;
      // Driven so far: r's from and every via arc, ending just before the to.
      const before = seq.slice(-n, -1);
      if (before.length !== n - 1 || before.some((x, i) => x !== r.arcs[i])) continue;
      if (r.only ? b !== r.arcs[n - 1] : b === r.arcs[n - 1]) return null;
    }
    for (let k = Math.min(seq.length, 64); k >= 1; k--) {
      const suffix = seq.slice(seq.length - k).join(',');
      if (k === 1 || this.prefixes.has(suffix)) return suffix;
    }
    return String(b);
  }
  /** True when the whole arc path keeps every restriction of the vehicle (via-node and via-way). */
  pathOk(arcs: readonly number[]): boolean {
    let key = String(arcs[0]);
    for (let i = 1; i < arcs.length; i++) {
      if (!this.turnOk(arcs[i - 1]!, arcs[i]!)) return false;
      const next = this.step(key, arcs[i]!);
      if (next === null) return false;
      key = next;
    }
    return true;
  }
  tail(a: number): number {
    return this.g.edgeNodes[2 * Math.floor(a / 2) + (a % 2)]!;
  }
  head(a: number): number {
    return this.g.edgeNodes[2 * Math.floor(a / 2) + 1 - (a % 2)]!;
  }
  private outArcs(v: number): number[] {
    return this.outByNode[v]!;
  }
  /** Points of arc a in driving order, degrees. */
  arcLine(a: number): [number, number][] {
    const e = Math.floor(a / 2);
    const pts: [number, number][] = [
      [this.g.nodeLat[this.g.edgeNodes[2 * e]!]! / 1e7, this.g.nodeLon[this.g.edgeNodes[2 * e]!]! / 1e7],
    ];
    for (let s = this.g.edgeShape.at(e); s < this.g.edgeShape.at(e + 1); s++)
      pts.push([this.g.shapeLat[s]! / 1e7, this.g.shapeLon[s]! / 1e7]);
    pts.push([
      this.g.nodeLat[this.g.edgeNodes[2 * e + 1]!]! / 1e7,
      this.g.nodeLon[this.g.edgeNodes[2 * e + 1]!]! / 1e7,
    ]);
    return a % 2 ? pts.reverse() : pts;
  }
  /** Roads at node v the vehicle may drive in some direction (an edge per end at v). */
  roads(v: number): number {
    return this.roadsAt[v]!;
  }
  /**
   * Lookahead bearing of arc a (cached: the same for every turn onto or off it): 10 m along it, 2 m along a
   * roundabout (edge flag 1), as OSRM's coordinate extractor looks.
   */
  private bearing(a: number): number {
    let b = this.bearingOf[a]!;
    const round = (this.g.edgeFlags[Math.floor(a / 2)]! & 1) !== 0;
    if (Number.isNaN(b)) this.bearingOf[a] = b = lookaheadBearing(this.arcLine(a), round ? 2 : 10);
    return b;
  }
  /** Seconds of the allowed turn from arc a to arc b (OSRM's car model; none for DIMACS packs). */
  turnSeconds(a: number, b: number): number {
    if (!this.g.fromOsm) return 0;
    const v = this.head(a);
    const uturn = Math.floor(a / 2) === Math.floor(b / 2);
    // Leaving bearing of b at v, and entering bearing of a at v (the reverse of a's edge leaving v, turned round).
    const out = this.bearing(b);
    const inb = (this.bearing(a % 2 ? a - 1 : a + 1) + 180) % 360;
    let angle = (((out - inb) % 360) + 360) % 360;
    if (angle > 180) angle -= 360;
    if (uturn) angle = 180;
    // A light tagged for one direction (flag 8: forward, 16: backward) stops only those arriving along its way
    // (arc a runs from its edge's first node to its second, the way's direction) or against it.
    const f = this.g.nodeFlags[v]!;
    const along = a % 2 === 0;
    const light = (f & 1) !== 0 && !((f & 8) !== 0 && !along) && !((f & 16) !== 0 && along);
    return osrmStoredSeconds(osrmTurnSeconds(angle, this.roads(v), light, uturn));
  }
  /**
   * Search weight of the allowed turn from a to b: its seconds, plus OSRM's max_turn_weight (int16 max in tenths)
   * when b's road is restricted to local access for the vehicle (access=destination-style) and a's is not.
   */
  turnWeight(a: number, b: number): number {
    if (!this.weighted) return 0;
    const local = (arc: number) => (this.g.edgeRestricted[Math.floor(arc / 2)]! & (1 << this.profile)) !== 0;
    const entering = this.g.fromOsm && local(b) && !local(a);
    return this.turnSeconds(a, b) + (entering ? 32767 / 10 : 0);
  }
  /**
   * Via-node rules of the turn from a to b: at a barrier the vehicle may only turn back (OSRM), elsewhere turn back only
   * where a single open way leaves; via-node restrictions.
   */
  turnOk(a: number, b: number): boolean {
    const v = this.head(a);
    const barrier = (this.g.nodeBlock[v]! & (1 << this.profile)) !== 0;
    const back = Math.floor(a / 2) === Math.floor(b / 2);
    if (barrier ? !back : back && this.outArcs(v).length !== 1) return false;
    if (this.banned.has(a * 2 * this.g.edgeCount + b)) return false;
    const only = this.only.get(a);
    return !only || only.has(b);
  }
  /** The current arc of a search key. */
  static arcOfKey(key: string): number {
    return Number(key.slice(key.lastIndexOf(',') + 1));
  }
  /**
   * Weight from (edge, t) to every search state (key: see the class comment) at the head of its arc (`durs`, when
   * given, gets the seconds along each best path).
   */
  run(edge: number, t: number, durs?: Map<string, number>): Map<string, number> {
    const dist = new Map<string, number>();
    this.search(edge, t, (id, d, s) => {
      const key = this.keyOf(id);
      dist.set(key, d);
      durs?.set(key, s);
      return false;
    });
    return dist;
  }
  /** Composite search keys (more than one arc) by number, from 2 × edges on: see idOf. */
  private readonly composite: string[] = [];
  private readonly compositeId = new Map<string, number>();
  /** A search key as a number: a key of one arc is the arc, a composite one is numbered from 2 × edges on. */
  private idOf(key: string): number {
    if (!key.includes(',')) return Number(key);
    let id = this.compositeId.get(key);
    if (id === undefined) {
      id = 2 * this.g.edgeCount + this.composite.length;
      this.composite.push(key);
      this.compositeId.set(key, id);
    }
    return id;
  }
  /** The current arc of a numbered key. */
  private arcOf(id: number): number {
    return id < 2 * this.g.edgeCount ? id : PlainDijkstra.arcOfKey(this.keyOf(id));
  }
  private keyOf(id: number): string {
    return id < 2 * this.g.edgeCount ? String(id) : this.composite[id - 2 * this.g.edgeCount]!;
  }
  /** `step` over numbered keys (-1: forbidden), without strings for a key of one arc that nothing continues. */
  private stepId(id: number, b: number): number {
    const plainArc = id < 2 * this.g.edgeCount && this.indexed === this.viaWay.length;
    if (plainArc && !this.viaWayByLast.has(id) && !this.prefixFirst.has(id)) return b;
    const next = this.step(this.keyOf(id), b);
    return next === null ? -1 : this.idOf(next);
  }
  /**
   * Plain Dijkstra from (edge, t) over search keys (numbered, idOf): `settle` hears each state once, in order of
   * weight (and the seconds along its best path); it returns true to stop the search.
   */
  private search(edge: number, t: number, settle: (id: number, d: number, s: number) => boolean): void {
    const arcs = 2 * this.g.edgeCount;
    const doneArc = new Uint8Array(arcs);
    const doneComposite = new Set<number>();
    const done = (id: number) => (id < arcs ? doneArc[id] === 1 : doneComposite.has(id));
    const q = new TinyQueue<[number, number, number]>([], (x, y) => x[0] - y[0]);
    if (this.w[2 * edge] !== Infinity) q.push([(1 - t) * this.w[2 * edge]!, 2 * edge, (1 - t) * this.dur[2 * edge]!]);
    if (this.w[2 * edge + 1] !== Infinity)
      q.push([t * this.w[2 * edge + 1]!, 2 * edge + 1, t * this.dur[2 * edge + 1]!]);
    while (q.length) {
      const [d, id, s] = q.pop()!;
      if (done(id)) continue;
      if (id < arcs) doneArc[id] = 1;
      else doneComposite.add(id);
      if (settle(id, d, s)) return;
      const a = this.arcOf(id);
      for (const b of this.outArcs(this.head(a))) {
        if (!this.turnOk(a, b)) continue;
        const next = this.stepId(id, b);
        if (next >= 0 && !done(next))
          q.push([d + this.turnWeight(a, b) + this.w[b]!, next, s + this.turnSeconds(a, b) + this.dur[b]!]);
      }
    }
  }
  /** Best weight from the source of `dist` to (edge, t) on the target side. */
  to(dist: Map<string, number>, src: { edge: number; t: number }, edge: number, t: number): number {
    let best = this.alongEdge(src, edge, t);
    for (const b of [2 * edge, 2 * edge + 1])
      for (const [key, d] of this.reachedAt(dist).get(this.tail(b)) ?? [])
        best = Math.min(best, this.onto(key, d, b, t));
    return best;
  }
  /**
   * Best weights from `src` to each target, as `to` gives them, by one search that stops once the least weight left
   * is at least every target's best so far (weights are not negative, so nothing can improve); it keeps only the
   * settled keys. For graphs of millions of states (bench/build-scale.ts), where `run` and `to` hold every state's
   * weight twice and settle the whole graph.
   */
  toMany(src: { edge: number; t: number }, targets: readonly { edge: number; t: number }[]): number[] {
    const best = targets.map((b) => this.alongEdge(src, b.edge, b.t));
    // Target arcs by their tail node: a state whose arc ends there may turn onto them.
    const atNode = new Map<number, { i: number; b: number }[]>();
    targets.forEach(({ edge }, i) => {
      for (const b of [2 * edge, 2 * edge + 1]) {
        const v = this.tail(b);
        atNode.set(v, [...(atNode.get(v) ?? []), { i, b }]);
      }
    });
    this.search(src.edge, src.t, (id, d) => {
      if (best.every((x) => d >= x)) return true;
      const onto = atNode.get(this.head(this.arcOf(id)));
      for (const { i, b } of onto ?? []) best[i] = Math.min(best[i]!, this.onto(this.keyOf(id), d, b, targets[i]!.t));
      return false;
    });
    return best;
  }
  /** Weight from `src` to (edge, t) along the edge itself, without a turn (Infinity when not in driving order). */
  private alongEdge(src: { edge: number; t: number }, edge: number, t: number): number {
    let best = Infinity;
    if (src.edge !== edge) return best;
    for (const b of [2 * edge, 2 * edge + 1]) {
      if (this.w[b] === Infinity) continue;
      const f = b % 2 ? 1 - t : t,
        s = b % 2 ? 1 - src.t : src.t;
      if (f >= s) best = Math.min(best, (f - s) * this.w[b]!);
    }
    return best;
  }
  /** Weight to (arc b, t) from the state `key` reached at weight d, whose arc ends at b's tail (Infinity if barred). */
  private onto(key: string, d: number, b: number, t: number): number {
    if (this.w[b] === Infinity) return Infinity;
    const a = PlainDijkstra.arcOfKey(key);
    if (!this.turnOk(a, b) || this.step(key, b) === null) return Infinity;
    return d + this.turnWeight(a, b) + (b % 2 ? 1 - t : t) * this.w[b]!;
  }
  private readonly byHead = new WeakMap<Map<string, number>, Map<number, [string, number][]>>();
  /** The states of a run's result grouped by the head node of their arc (made once per result). */
  private reachedAt(dist: Map<string, number>): Map<number, [string, number][]> {
    let m = this.byHead.get(dist);
    if (!m) {
      m = new Map();
      for (const [key, d] of dist) {
        const v = this.head(PlainDijkstra.arcOfKey(key));
        let list = m.get(v);
        if (!list) m.set(v, (list = []));
        list.push([key, d]);
      }
      this.byHead.set(dist, m);
    }
    return m;
  }
}
