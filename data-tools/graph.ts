import { haversine } from '../src/geo.js';
import { COORD_SCALE } from '../src/pack/format.js';
import type { StringTableBuilder } from '../src/pack/strings.js';
import { EdgeFlag, PROFILE_COUNT, ROAD_CLASSES } from '../src/route/profiles.js';
import { hilbert16 } from './hilbert.js';
import { buildIncidence } from './incidence.js';
import { computeArcBearings } from '../src/route/turn-model.js';
import { PROFILES, roadClassOf, wayUse, type WayUse } from './profiles.js';
import type { OsmStore, WayRec } from './store.js';
import type { Tags } from './osm/types.js';

/** Node flag bits (graph.node.flags). */
export const NodeFlag = { trafficSignals: 1, stop: 2, giveWay: 4 } as const;

/**
 * The road graph in the flat typed arrays stored in a pack. Nodes are intersections (and way ends, barriers,
 * signals, restriction via nodes); each edge is a chain of OSM way segments between two nodes and keeps its shape.
 * `adjFirst`/`adjArc` list, per node, the arcs incident to it: arc = edge * 2 + dir, dir 0 leaving through the
 * edge's first node (first → second), dir 1 leaving through its second node (second → first). The same list
 * serves a backward search: arc a leaving v is arc (a ^ 1) entering v.
 */
export interface GraphArrays {
  nodeLat: Int32Array;
  nodeLon: Int32Array;
  nodeFlags: Uint8Array;
  /** Profiles (bit p) that may not pass the node (barriers). */
  nodeBlock: Uint8Array;
  nodeOsm: Float64Array;
  /** 2 × E: first and second node of each edge. */
  edgeNodes: Uint32Array;
  /** Length in metres. */
  edgeLen: Float64Array;
  /** E × PROFILE_COUNT × 2, km/h; index edge*10 + profile*2 + dir; 0 = not allowed in that direction. */
  edgeSpeed: Uint8Array;
  /** E × PROFILE_COUNT routing preference in percent (weight = duration × 100 / pref). */
  edgePref: Uint8Array;
  edgeClass: Uint8Array;
  edgeFlags: Uint8Array;
  /**
   * Per edge: bit p set when profile p may drive it but only for local access (access=destination-style, see
   * profiles.ts RESTRICTED); searches weigh turns onto such roads from other roads heavily (OSRM car.lua).
   */
  edgeRestricted: Uint8Array;
  /** String ids of street names (name, else ref). */
  edgeName: Uint32Array;
  edgeWay: Float64Array;
  /** E + 1 offsets into shapeLat/shapeLon (the intermediate points of each edge, first → second). */
  edgeShape: Uint32Array;
  shapeLat: Int32Array;
  shapeLon: Int32Array;
  adjFirst: Uint32Array;
  adjArc: Uint32Array;
  /** Turn restrictions: R + 1 offsets into turnEdges (edge paths from → via… → to). */
  turnFirst: Uint32Array;
  turnEdges: Uint32Array;
  /**
   * 2 × E: per arc (edge * 2 + dir) the bearing leaving its tail, 1/1024 turns clockwise from north
   * (src/route/turn-model.ts computeArcBearings): stored so that engines do not compute it at their first route.
   */
  arcBearing?: Uint16Array;
  /** 0 = no_* (path forbidden), 1 = only_* (from the first edge, only this path). */
  turnKind: Uint8Array;
  /** Profiles (bit p) the restriction applies to. */
  turnMask: Uint8Array;
}

interface RawEdge {
  a: number; // store node index
  b: number;
  shape: number[]; // store node indices in between
  way: WayRec;
  use: WayUse[];
  len: number;
}

const BARRIER_PASSABLE = new Set([
  'cattle_grid',
  'border_control',
  'toll_booth',
  'sally_port',
  'gate',
  'lift_gate',
  'no',
  'entrance',
  'height_restrictor',
  'arch',
  'checkpoint',
]);
const BARRIER_BIKE_PASSABLE = new Set(['bollard', 'cycle_barrier', 'motorcycle_barrier', 'swing_gate', 'kerb']);

/** Builds the road graph from merged OSM elements. */
export function buildGraph(store: OsmStore, strings: StringTableBuilder): GraphArrays {
  // 1. Routable ways and how often each OSM node is used by them.
  const routable: { way: WayRec; use: WayUse[]; refs: number[] }[] = [];
  const uses = new Map<number, number>();
  for (const way of store.sortedWays()) {
    const use = PROFILES.map((p) => wayUse(p, way.tags));
    if (!use.some((u) => u.forward > 0 || u.backward > 0)) continue;
    const refs = way.refs.map((r) => store.nodeIndex(r));
    routable.push({ way, use, refs });
    refs.forEach((r, i) => {
      if (r < 0) return;
      const ends = i === 0 || i === refs.length - 1 || refs[i - 1]! < 0 || refs[i + 1]! < 0;
      uses.set(r, (uses.get(r) ?? 0) + (ends ? 2 : 1));
    });
  }
  // Nodes that must stay graph nodes: restriction via nodes, barriers, signals.
  const forced = new Set<number>();
  for (const rel of store.relations.values()) {
    if (!isRestriction(rel.tags)) continue;
    for (const m of rel.members) if (m.type === 'node' && m.role === 'via') forced.add(store.nodeIndex(m.ref));
  }
  const isGraphNode = (r: number) =>
    (uses.get(r) ?? 0) >= 2 || forced.has(r) || nodeSpecial(store.nodeTags.get(store.nodeId(r)));

  // 2. Split ways into edges at graph nodes; a missing node (clipped extract) ends the chain.
  const raw: RawEdge[] = [];
  const wayEdges = new Map<number, number[]>();
  for (const { way, use, refs } of routable) {
    let start = -1;
    let shape: number[] = [];
    let len = 0;
    const list: number[] = [];
    for (let i = 0; i < refs.length; i++) {
      const r = refs[i]!;
      if (r < 0) {
        start = -1;
        continue;
      }
      if (start < 0) {
        start = r;
        shape = [];
        len = 0;
        continue;
      }
      const prev = refs[i - 1]!;
      len += haversine(
        store.latE7(prev) / COORD_SCALE,
        store.lonE7(prev) / COORD_SCALE,
        store.latE7(r) / COORD_SCALE,
        store.lonE7(r) / COORD_SCALE,
      );
      if (isGraphNode(r) || i === refs.length - 1 || refs[i + 1]! < 0) {
        if (r !== start || shape.length > 0) {
          list.push(raw.length);
          raw.push({ a: start, b: r, shape, way, use, len });
        }
        start = r;
        shape = [];
        len = 0;
      } else {
        shape.push(r);
      }
    }
    wayEdges.set(way.id, list);
  }

  // 3. Number graph nodes along a Hilbert curve for memory locality; edges by first node.
  const nodeSet = new Set<number>();
  for (const e of raw) {
    nodeSet.add(e.a);
    nodeSet.add(e.b);
  }
  const storeNodes = [...nodeSet];
  let minLat = Infinity,
    minLon = Infinity,
    maxLat = -Infinity,
    maxLon = -Infinity;
  for (const r of storeNodes) {
    minLat = Math.min(minLat, store.latE7(r));
    maxLat = Math.max(maxLat, store.latE7(r));
    minLon = Math.min(minLon, store.lonE7(r));
    maxLon = Math.max(maxLon, store.lonE7(r));
  }
  const sx = 65535 / Math.max(1, maxLon - minLon);
  const sy = 65535 / Math.max(1, maxLat - minLat);
  const key = new Map<number, number>();
  for (const r of storeNodes)
    key.set(r, hilbert16(Math.round((store.lonE7(r) - minLon) * sx), Math.round((store.latE7(r) - minLat) * sy)));
  storeNodes.sort((p, q) => key.get(p)! - key.get(q)! || store.nodeId(p) - store.nodeId(q));
  const nodeOf = new Map<number, number>();
  storeNodes.forEach((r, i) => nodeOf.set(r, i));

  const N = storeNodes.length;
  const edgeOrder = raw.map((_, i) => i);
  edgeOrder.sort((p, q) => nodeOf.get(raw[p]!.a)! - nodeOf.get(raw[q]!.a)! || p - q);
  const newEdgeId = new Int32Array(raw.length);
  edgeOrder.forEach((old, i) => (newEdgeId[old] = i));
  const E = raw.length;

  const g: GraphArrays = {
    nodeLat: new Int32Array(N),
    nodeLon: new Int32Array(N),
    nodeFlags: new Uint8Array(N),
    nodeBlock: new Uint8Array(N),
    nodeOsm: new Float64Array(N),
    edgeNodes: new Uint32Array(2 * E),
    edgeLen: new Float64Array(E),
    edgeSpeed: new Uint8Array(E * PROFILE_COUNT * 2),
    edgePref: new Uint8Array(E * PROFILE_COUNT),
    edgeClass: new Uint8Array(E),
    edgeFlags: new Uint8Array(E),
    edgeRestricted: new Uint8Array(E),
    edgeName: new Uint32Array(E),
    edgeWay: new Float64Array(E),
    edgeShape: new Uint32Array(E + 1),
    shapeLat: new Int32Array(0),
    shapeLon: new Int32Array(0),
    adjFirst: new Uint32Array(N + 1),
    adjArc: new Uint32Array(2 * E),
    turnFirst: new Uint32Array(1),
    turnEdges: new Uint32Array(0),
    turnKind: new Uint8Array(0),
    turnMask: new Uint8Array(0),
  };
  storeNodes.forEach((r, i) => {
    g.nodeLat[i] = store.latE7(r);
    g.nodeLon[i] = store.lonE7(r);
    g.nodeOsm[i] = store.nodeId(r);
    const tags = store.nodeTags.get(store.nodeId(r));
    g.nodeFlags[i] = nodeFlags(tags);
    g.nodeBlock[i] = nodeBlock(tags);
  });
  let shapeCount = 0;
  for (const e of raw) shapeCount += e.shape.length;
  g.shapeLat = new Int32Array(shapeCount);
  g.shapeLon = new Int32Array(shapeCount);
  let s = 0;
  edgeOrder.forEach((old, i) => {
    const e = raw[old]!;
    g.edgeNodes[2 * i] = nodeOf.get(e.a)!;
    g.edgeNodes[2 * i + 1] = nodeOf.get(e.b)!;
    g.edgeLen[i] = e.len;
    e.use.forEach((u, p) => {
      g.edgeSpeed[i * PROFILE_COUNT * 2 + p * 2] = u.forward;
      g.edgeSpeed[i * PROFILE_COUNT * 2 + p * 2 + 1] = u.backward;
      g.edgePref[i * PROFILE_COUNT + p] = Math.max(1, Math.min(100, Math.round(u.preference * 100)));
      if (u.restricted && (u.forward > 0 || u.backward > 0)) g.edgeRestricted[i]! |= 1 << p;
    });
    g.edgeClass[i] = roadClassOf(e.way.tags);
    g.edgeFlags[i] = edgeFlags(e.way.tags);
    g.edgeName[i] = strings.intern(e.way.tags.name ?? e.way.tags.ref);
    g.edgeWay[i] = e.way.id;
    g.edgeShape[i] = s;
    for (const r of e.shape) {
      g.shapeLat[s] = store.latE7(r);
      g.shapeLon[s] = store.lonE7(r);
      s++;
    }
  });
  g.edgeShape[E] = s;

  // 4. Incidence lists (CSR).
  Object.assign(g, buildIncidence(g.edgeNodes, N));

  // 5. Turn restrictions, as edge paths.
  buildRestrictions(store, g, wayEdges, newEdgeId, nodeOf);
  g.arcBearing = computeArcBearings(g);
  return g;
}

function isRestriction(tags: Tags): boolean {
  return tags.type === 'restriction' || (tags.type?.startsWith('restriction:') ?? false);
}

function nodeSpecial(tags: Tags | undefined): boolean {
  return (
    !!tags && (tags.barrier !== undefined || tags.highway === 'traffic_signals' || tags.crossing === 'traffic_signals')
  );
}

function nodeFlags(tags: Tags | undefined): number {
  if (!tags) return 0;
  let f = 0;
  if (tags.highway === 'traffic_signals') f |= NodeFlag.trafficSignals;
  if (tags.highway === 'stop') f |= NodeFlag.stop;
  if (tags.highway === 'give_way') f |= NodeFlag.giveWay;
  return f;
}

function nodeBlock(tags: Tags | undefined): number {
  const barrier = tags?.barrier;
  if (!tags || !barrier || BARRIER_PASSABLE.has(barrier)) return 0;
  let mask = 0;
  PROFILES.forEach((p, i) => {
    if (i === 1 && BARRIER_BIKE_PASSABLE.has(barrier)) return;
    const access = p.accessKeys.map((k) => tags[k]).find((v) => v !== undefined);
    if (access === 'yes' || access === 'permissive' || access === 'designated' || access === 'destination') return;
    mask |= 1 << i;
  });
  return mask;
}

function edgeFlags(tags: Tags): number {
  let f = 0;
  if (tags.junction === 'roundabout' || tags.junction === 'circular') f |= EdgeFlag.roundabout;
  if (tags.bridge && tags.bridge !== 'no') f |= EdgeFlag.bridge;
  if (tags.tunnel && tags.tunnel !== 'no') f |= EdgeFlag.tunnel;
  if (tags.toll === 'yes') f |= EdgeFlag.toll;
  if (tags.highway?.endsWith('_link')) f |= EdgeFlag.link;
  if (tags.route === 'ferry') f |= EdgeFlag.ferry;
  return f;
}

/** Vehicle keys of each profile for `restriction:<key>` and `except=<keys>`, in pack profile order. */
const RESTRICTION_KEYS: string[][] = [
  ['motorcar', 'motor_vehicle', 'vehicle'],
  ['motorcycle', 'moped', 'motor_vehicle', 'vehicle'],
  ['taxi', 'psv', 'motorcar', 'motor_vehicle', 'vehicle'],
  ['hgv', 'goods', 'motor_vehicle', 'vehicle'],
  ['motorcar', 'motor_vehicle', 'vehicle'],
];

function buildRestrictions(
  store: OsmStore,
  g: GraphArrays,
  wayEdges: Map<number, number[]>,
  newEdgeId: Int32Array,
  nodeOf: Map<number, number>,
): void {
  const first: number[] = [0];
  const edges: number[] = [];
  const kinds: number[] = [];
  const masks: number[] = [];
  const endpoint = (e: number, side: 0 | 1) => g.edgeNodes[2 * e + side]!;
  /** The edge of `wayId` that touches graph node v (the one adjacent to v along the way). */
  const edgeAt = (wayId: number, v: number): number => {
    for (const old of wayEdges.get(wayId) ?? []) {
      const e = newEdgeId[old]!;
      if (endpoint(e, 0) === v || endpoint(e, 1) === v) return e;
    }
    return -1;
  };
  for (const rel of store.sortedRelations()) {
    if (!isRestriction(rel.tags)) continue;
    const from = rel.members.filter((m) => m.role === 'from' && m.type === 'way');
    const to = rel.members.filter((m) => m.role === 'to' && m.type === 'way');
    const via = rel.members.filter((m) => m.role === 'via');
    if (from.length !== 1 || to.length !== 1 || via.length === 0) continue;
    let mask = 0;
    let kind = -1;
    const except = (rel.tags.except ?? '').split(';').map((s) => s.trim());
    RESTRICTION_KEYS.forEach((keys, p) => {
      if (keys.some((k) => except.includes(k))) return;
      let value = keys.map((k) => rel.tags[`restriction:${k}`]).find((v) => v !== undefined) ?? rel.tags.restriction;
      if (!value) return;
      value = value.split(';')[0]!.trim();
      const k = value.startsWith('no_') ? 0 : value.startsWith('only_') ? 1 : -1;
      if (k < 0 || (kind >= 0 && k !== kind)) return;
      kind = k;
      mask |= 1 << p;
    });
    if (!mask || kind < 0) continue;
    let path: number[] | null = null;
    if (via.length === 1 && via[0]!.type === 'node') {
      const v = nodeOf.get(store.nodeIndex(via[0]!.ref));
      if (v === undefined) continue;
      const a = edgeAt(from[0]!.ref, v);
      const b = edgeAt(to[0]!.ref, v);
      if (a >= 0 && b >= 0) path = [a, b];
    } else if (via.every((m) => m.type === 'way')) {
      path = viaWayPath(
        g,
        from[0]!.ref,
        via.map((m) => m.ref),
        to[0]!.ref,
        wayEdges,
        newEdgeId,
      );
    }
    if (!path) continue;
    edges.push(...path);
    first.push(edges.length);
    kinds.push(kind);
    masks.push(mask);
  }
  g.turnFirst = Uint32Array.from(first);
  g.turnEdges = Uint32Array.from(edges);
  g.turnKind = Uint8Array.from(kinds);
  g.turnMask = Uint8Array.from(masks);
}

/** Edge path for a via-way restriction: the from edge, the via ways' edges in driving order, the to edge. */
function viaWayPath(
  g: GraphArrays,
  fromWay: number,
  viaWays: number[],
  toWay: number,
  wayEdges: Map<number, number[]>,
  newEdgeId: Int32Array,
): number[] | null {
  const edgesOf = (w: number) => (wayEdges.get(w) ?? []).map((old) => newEdgeId[old]!);
  const other = (e: number, v: number) => (g.edgeNodes[2 * e] === v ? g.edgeNodes[2 * e + 1]! : g.edgeNodes[2 * e]!);
  const touches = (e: number, v: number) => g.edgeNodes[2 * e] === v || g.edgeNodes[2 * e + 1] === v;
  const viaEdges = new Set(viaWays.flatMap(edgesOf));
  // Try every from edge / shared node; walk the via edges until an edge of the to way.
  for (const fe of edgesOf(fromWay)) {
    for (const side of [0, 1]) {
      let v = g.edgeNodes[2 * fe + side]!;
      const path = [fe];
      const used = new Set<number>();
      for (let steps = 0; steps <= viaEdges.size; steps++) {
        const te = edgesOf(toWay).find((e) => touches(e, v) && !path.includes(e));
        if (te !== undefined && path.length > 1) return [...path, te];
        const next = [...viaEdges].find((e) => !used.has(e) && touches(e, v));
        if (next === undefined) break;
        used.add(next);
        path.push(next);
        v = other(next, v);
      }
    }
  }
  return null;
}

export { ROAD_CLASSES };
