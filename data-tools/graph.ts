import { Offsets } from '../src/pack/offsets.js';
import { roadMetres } from '../src/geo.js';
import { COORD_SCALE } from '../src/pack/format.js';
import type { StringTableBuilder } from '../src/pack/strings.js';
import { EdgeFlag, PROFILE_COUNT, ROAD_CLASSES } from '../src/route/profiles.js';
import { hilbert16 } from './hilbert.js';
import { buildIncidence } from './incidence.js';
import { computeArcBearings } from '../src/route/turn-model.js';
import { nodeClosed, PROFILES, roadClassOf, wayUse, type WayUse } from './profiles.js';
import { GrowableInt32 } from './growable.js';
import { sortedIndexOf } from './sorted.js';
import type { StageProgress } from './progress.js';
import type { OsmStore } from './store.js';
import type { Tags } from './osm/types.js';

/**
 * Node flag bits (graph.node.flags). `signalsForward` / `signalsBackward` narrow a traffic light to vehicles arriving
 * along its ways' direction / against it (`traffic_signals:direction`, else `direction`, as OSRM reads them); a pack
 * without them (older builders) has every light count both ways.
 */
export const NodeFlag = { trafficSignals: 1, stop: 2, giveWay: 4, signalsForward: 8, signalsBackward: 16 } as const;

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
  /**
   * Per edge: bit p set when profile p may drive it but a route of p never starts or ends on it (profiles.ts
   * WayUse.start: ferries, a car's private service roads); points are snapped to other roads.
   */
  edgeNoStart: Uint8Array;
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

/**
 * Builds the road graph from merged OSM elements. Country-sized inputs have tens of millions of node references, so
 * every per-node and per-edge table here is a typed array indexed by the store's dense node index or the edge
 * number (no map or object per node or edge); a routable way keeps its id, its (shared) tags and the vehicle uses
 * computed once per tag set.
 * @param progress told the ways read of all ways, now and then (a count and an ETA in the terminal)
 */
export function buildGraph(store: OsmStore, strings: StringTableBuilder, progress?: StageProgress): GraphArrays {
  const S = store.nodeCount;
  const wayCount = store.ways.size;
  let seen = 0;
  // 1. Routable ways (their node references, as store indices, in `refs`) and how often each node is used by them:
  // an inner reference counts 1, a way end (or next to a missing node) 2; only "2 or more" matters, so it saturates.
  const useOf = new Map<Tags, WayUse[]>();
  const wayId: number[] = [];
  const wayTags: Tags[] = [];
  const wayUses: WayUse[][] = [];
  const wayRefFirst: number[] = [0];
  const refs = new GrowableInt32();
  const uses = new Uint8Array(S);
  for (const way of store.sortedWays()) {
    if ((++seen & 0xfff) === 0) progress?.update(seen, wayCount);
    let use = useOf.get(way.tags);
    if (!use) useOf.set(way.tags, (use = PROFILES.map((p) => wayUse(p, way.tags))));
    if (!use.some((u) => u.forward > 0 || u.backward > 0)) continue;
    const at = refs.length;
    for (const id of way.refs) refs.push(store.nodeIndex(id));
    const n = refs.length;
    for (let i = at; i < n; i++) {
      const r = refs.at(i);
      if (r < 0) continue;
      const ends = i === at || i === n - 1 || refs.at(i - 1) < 0 || refs.at(i + 1) < 0;
      uses[r] = Math.min(255, uses[r]! + (ends ? 2 : 1));
    }
    wayId.push(way.id);
    wayTags.push(way.tags);
    wayUses.push(use);
    wayRefFirst.push(n);
  }
  // Nodes that must stay graph nodes: restriction via nodes, barriers, signals.
  const forced = new Set<number>();
  for (const rel of store.relations.values()) {
    if (!isRestriction(rel.tags)) continue;
    for (const m of rel.members) if (m.type === 'node' && m.role === 'via') forced.add(store.nodeIndex(m.ref));
  }
  const isGraphNode = (r: number) => uses[r]! >= 2 || forced.has(r) || nodeSpecial(store.nodeTags.get(store.nodeId(r)));

  // 2. Split ways into edges at graph nodes; a missing node (clipped extract) ends the chain. Edge k runs from store
  // node edgeA[k] to edgeB[k] through shape[shapeFirst[k] .. shapeFirst[k + 1]); a way's edges are consecutive,
  // wayEdgeFirst[w] .. wayEdgeFirst[w + 1].
  const edgeA = new GrowableInt32();
  const edgeB = new GrowableInt32();
  const edgeOfWay = new GrowableInt32();
  const edgeLength: number[] = [];
  /** Per edge: the OSM segments (node pairs) it joins, over which a ferry's `duration` is shared (OSRM: equally). */
  const edgeSegments: number[] = [];
  const shape = new GrowableInt32();
  const shapeFirst = new GrowableInt32();
  shapeFirst.push(0);
  const wayEdgeFirst = new Int32Array(wayId.length + 1);
  for (let w = 0; w < wayId.length; w++) {
    wayEdgeFirst[w] = edgeA.length;
    const lo = wayRefFirst[w]!;
    const hi = wayRefFirst[w + 1]!;
    let start = -1;
    let shapeAt = shape.length;
    let len = 0;
    let segments = 0;
    for (let i = lo; i < hi; i++) {
      const r = refs.at(i);
      if (r < 0) {
        start = -1;
        continue;
      }
      if (start < 0) {
        start = r;
        shape.truncate(shapeAt);
        len = 0;
        segments = 0;
        continue;
      }
      segments++;
      const prev = refs.at(i - 1);
      len += roadMetres(
        store.latE7(prev) / COORD_SCALE,
        store.lonE7(prev) / COORD_SCALE,
        store.latE7(r) / COORD_SCALE,
        store.lonE7(r) / COORD_SCALE,
      );
      if (isGraphNode(r) || i === hi - 1 || refs.at(i + 1) < 0) {
        if (r !== start || shape.length > shapeAt) {
          edgeA.push(start);
          edgeB.push(r);
          edgeOfWay.push(w);
          edgeLength.push(len);
          edgeSegments.push(segments);
          shapeFirst.push(shape.length);
          shapeAt = shape.length;
        } else shape.truncate(shapeAt);
        start = r;
        len = 0;
        segments = 0;
      } else {
        shape.push(r);
      }
    }
    shape.truncate(shapeAt);
  }
  wayEdgeFirst[wayId.length] = edgeA.length;
  const E = edgeA.length;

  // 3. Number graph nodes along a Hilbert curve for memory locality (ties by OSM id, which is store order); edges by
  // first node, in their order of creation within a node.
  const isNode = new Uint8Array(S);
  for (let k = 0; k < E; k++) isNode[edgeA.at(k)] = isNode[edgeB.at(k)] = 1;
  let N = 0;
  for (let r = 0; r < S; r++) N += isNode[r]!;
  const storeNodes = new Int32Array(N);
  let minLat = Infinity,
    minLon = Infinity,
    maxLat = -Infinity,
    maxLon = -Infinity;
  for (let r = 0, i = 0; r < S; r++) {
    if (!isNode[r]) continue;
    storeNodes[i++] = r;
    minLat = Math.min(minLat, store.latE7(r));
    maxLat = Math.max(maxLat, store.latE7(r));
    minLon = Math.min(minLon, store.lonE7(r));
    maxLon = Math.max(maxLon, store.lonE7(r));
  }
  const sx = 65535 / Math.max(1, maxLon - minLon);
  const sy = 65535 / Math.max(1, maxLat - minLat);
  const key = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    const r = storeNodes[i]!;
    key[i] = hilbert16(Math.round((store.lonE7(r) - minLon) * sx), Math.round((store.latE7(r) - minLat) * sy));
  }
  const byKey = new Int32Array(N);
  for (let i = 0; i < N; i++) byKey[i] = i;
  byKey.sort((p, q) => key[p]! - key[q]! || p - q);
  const nodeOf = new Int32Array(S).fill(-1);
  for (let i = 0; i < N; i++) nodeOf[storeNodes[byKey[i]!]!] = i;
  for (let i = 0; i < N; i++) byKey[i] = storeNodes[byKey[i]!]!;
  const ordered = byKey; // store index of graph node i

  // Edges by first graph node, stable (a counting sort).
  const edgeOrder = new Int32Array(E);
  const start = new Int32Array(N + 1);
  for (let k = 0; k < E; k++) start[nodeOf[edgeA.at(k)]! + 1]!++;
  for (let v = 0; v < N; v++) start[v + 1]! += start[v]!;
  for (let k = 0; k < E; k++) edgeOrder[start[nodeOf[edgeA.at(k)]!]!++] = k;
  const newEdgeId = new Int32Array(E);
  edgeOrder.forEach((old, i) => (newEdgeId[old] = i));

  const g = graphArrays(N, E, shape.length);
  for (let i = 0; i < N; i++) {
    const r = ordered[i]!;
    g.nodeLat[i] = store.latE7(r);
    g.nodeLon[i] = store.lonE7(r);
    g.nodeOsm[i] = store.nodeId(r);
    const tags = store.nodeTags.get(store.nodeId(r));
    g.nodeFlags[i] = nodeFlags(tags);
    g.nodeBlock[i] = nodeBlock(tags);
  }
  let s = 0;
  for (let i = 0; i < E; i++) {
    const old = edgeOrder[i]!;
    const w = edgeOfWay.at(old);
    const tags = wayTags[w]!;
    g.edgeNodes[2 * i] = nodeOf[edgeA.at(old)]!;
    g.edgeNodes[2 * i + 1] = nodeOf[edgeB.at(old)]!;
    g.edgeLen[i] = edgeLength[old]!;
    wayUses[w]!.forEach((u, p) => {
      // A ferry's duration is shared equally by its way's segments (as OSRM does): this edge's share, as a speed.
      const fixed =
        u.duration === undefined
          ? 0
          : kmhOf(edgeLength[old]!, (u.duration * edgeSegments[old]!) / (wayRefFirst[w + 1]! - wayRefFirst[w]! - 1));
      g.edgeSpeed[i * PROFILE_COUNT * 2 + p * 2] = fixed && u.forward ? fixed : u.forward;
      g.edgeSpeed[i * PROFILE_COUNT * 2 + p * 2 + 1] = fixed && u.backward ? fixed : u.backward;
      g.edgePref[i * PROFILE_COUNT + p] = Math.max(1, Math.min(100, Math.round(u.preference * 100)));
      if (u.restricted && (u.forward > 0 || u.backward > 0)) g.edgeRestricted[i]! |= 1 << p;
      if (!u.start && (u.forward > 0 || u.backward > 0)) g.edgeNoStart[i]! |= 1 << p;
    });
    g.edgeClass[i] = roadClassOf(tags);
    g.edgeFlags[i] = edgeFlags(tags);
    g.edgeName[i] = strings.intern(tags.name ?? tags.ref);
    g.edgeWay[i] = wayId[w]!;
    g.edgeShape[i] = s;
    for (let k = shapeFirst.at(old); k < shapeFirst.at(old + 1); k++) {
      const r = shape.at(k);
      g.shapeLat[s] = store.latE7(r);
      g.shapeLon[s] = store.lonE7(r);
      s++;
    }
  }
  g.edgeShape[E] = s;

  // 4. Incidence lists (CSR).
  Object.assign(g, buildIncidence(g.edgeNodes, N));

  // 5. Turn restrictions, as edge paths.
  const edgesOfWay = (id: number): number[] => {
    const w = sortedIndexOf(wayId, id);
    const out: number[] = [];
    if (w >= 0) for (let k = wayEdgeFirst[w]!; k < wayEdgeFirst[w + 1]!; k++) out.push(newEdgeId[k]!);
    return out;
  };
  const graphNode = (r: number): number => (r >= 0 ? nodeOf[r]! : -1);
  buildRestrictions(store, g, edgesOfWay, graphNode);
  g.arcBearing = computeArcBearings({ ...g, edgeShape: Offsets.whole(g.edgeShape) });
  return g;
}

/** The stored speed (whole km/h, 1–255) that covers `metres` in `seconds`. */
function kmhOf(metres: number, seconds: number): number {
  return Math.max(1, Math.min(255, Math.round((metres * 3.6) / seconds)));
}

/** Zeroed graph arrays for `nodes` nodes, `edges` edges and `shapePoints` intermediate points, without turns. */
export function graphArrays(nodes: number, edges: number, shapePoints: number): GraphArrays {
  const N = nodes;
  const E = edges;
  return {
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
    edgeNoStart: new Uint8Array(E),
    edgeName: new Uint32Array(E),
    edgeWay: new Float64Array(E),
    edgeShape: new Uint32Array(E + 1),
    shapeLat: new Int32Array(shapePoints),
    shapeLon: new Int32Array(shapePoints),
    adjFirst: new Uint32Array(N + 1),
    adjArc: new Uint32Array(2 * E),
    turnFirst: new Uint32Array(1),
    turnEdges: new Uint32Array(0),
    turnKind: new Uint8Array(0),
    turnMask: new Uint8Array(0),
  };
}

function isRestriction(tags: Tags): boolean {
  return tags.type === 'restriction' || (tags.type?.startsWith('restriction:') ?? false);
}

/** Nodes that stay graph nodes: barriers, nodes some profile may not pass, traffic lights. */
function nodeSpecial(tags: Tags | undefined): boolean {
  return (
    !!tags &&
    (tags.barrier !== undefined ||
      tags.highway === 'traffic_signals' ||
      tags.crossing === 'traffic_signals' ||
      nodeBlock(tags) !== 0)
  );
}

function nodeFlags(tags: Tags | undefined): number {
  if (!tags) return 0;
  let f = 0;
  if (tags.highway === 'traffic_signals') {
    f |= NodeFlag.trafficSignals;
    const towards = tags['traffic_signals:direction'] ?? tags.direction;
    if (towards === 'forward') f |= NodeFlag.signalsForward;
    if (towards === 'backward') f |= NodeFlag.signalsBackward;
  }
  if (tags.highway === 'stop') f |= NodeFlag.stop;
  if (tags.highway === 'give_way') f |= NodeFlag.giveWay;
  return f;
}

/** Profiles (bit p) that may not pass a node with these tags (profiles.ts nodeClosed). */
function nodeBlock(tags: Tags | undefined): number {
  let mask = 0;
  if (tags) PROFILES.forEach((p, i) => (mask |= nodeClosed(p, tags) ? 1 << i : 0));
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

/**
 * Turn restrictions as edge paths.
 * @param edgesOfWay the graph edges of a way id (none for a way that is not routable)
 * @param graphNode the graph node of a store node index, -1 when it is none
 */
function buildRestrictions(
  store: OsmStore,
  g: GraphArrays,
  edgesOfWay: (wayId: number) => number[],
  graphNode: (r: number) => number,
): void {
  const first: number[] = [0];
  const edges: number[] = [];
  const kinds: number[] = [];
  const masks: number[] = [];
  for (const rel of store.sortedRelations()) {
    if (!isRestriction(rel.tags)) continue;
    const from = rel.members.filter((m) => m.role === 'from' && m.type === 'way');
    const to = rel.members.filter((m) => m.role === 'to' && m.type === 'way');
    const via = rel.members.filter((m) => m.role === 'via');
    if (from.length === 0 || to.length === 0 || via.length === 0) continue;
    let mask = 0;
    let kind = -1;
    // OSRM's restriction parser: several from ways only for no_entry, several to ways only for no_exit; *_on_red
    // values are no restrictions.
    let manyFrom = true,
      manyTo = true;
    const except = (rel.tags.except ?? '').split(';').map((s) => s.trim());
    RESTRICTION_KEYS.forEach((keys, p) => {
      if (keys.some((k) => except.includes(k))) return;
      let value = keys.map((k) => rel.tags[`restriction:${k}`]).find((v) => v !== undefined) ?? rel.tags.restriction;
      if (!value) return;
      value = value.split(';')[0]!.trim();
      const k = value.endsWith('_on_red') ? -1 : value.startsWith('no_') ? 0 : value.startsWith('only_') ? 1 : -1;
      if (k < 0 || (kind >= 0 && k !== kind)) return;
      kind = k;
      mask |= 1 << p;
      manyFrom &&= value.startsWith('no_entry');
      manyTo &&= value.startsWith('no_exit');
    });
    if (!mask || kind < 0 || (from.length > 1 && !manyFrom) || (to.length > 1 && !manyTo)) continue;
    for (const f of from)
      for (const t of to) {
        const path = restrictionPath(g, f.ref, via, t.ref, edgesOfWay, (id) => graphNode(store.nodeIndex(id)));
        if (!path) continue;
        edges.push(...path);
        first.push(edges.length);
        kinds.push(kind);
        masks.push(mask);
      }
  }
  g.turnFirst = Uint32Array.from(first);
  g.turnEdges = Uint32Array.from(edges);
  g.turnKind = Uint8Array.from(kinds);
  g.turnMask = Uint8Array.from(masks);
}

/**
 * Edge path of one restriction from way `fromWay` over `via` (one node, or ways) to way `toWay`, null when the graph
 * has none (a way not routable, a via node off the graph).
 */
function restrictionPath(
  g: GraphArrays,
  fromWay: number,
  via: { type: string; ref: number }[],
  toWay: number,
  edgesOfWay: (wayId: number) => number[],
  graphNode: (nodeId: number) => number,
): number[] | null {
  if (via.length === 1 && via[0]!.type === 'node') {
    const v = graphNode(via[0]!.ref);
    if (v < 0) return null;
    const a = edgeAt(g, edgesOfWay(fromWay), v);
    const b = edgeAt(g, edgesOfWay(toWay), v);
    return a >= 0 && b >= 0 ? [a, b] : null;
  }
  if (!via.every((m) => m.type === 'way')) return null;
  return viaWayPath(
    g,
    fromWay,
    via.map((m) => m.ref),
    toWay,
    edgesOfWay,
  );
}

/** The first of `edges` that touches graph node v, -1 when none does. */
function edgeAt(g: GraphArrays, edges: number[], v: number): number {
  for (const e of edges) if (g.edgeNodes[2 * e] === v || g.edgeNodes[2 * e + 1] === v) return e;
  return -1;
}

/** Edge path for a via-way restriction: the from edge, the via ways' edges in driving order, the to edge. */
function viaWayPath(
  g: GraphArrays,
  fromWay: number,
  viaWays: number[],
  toWay: number,
  edgesOf: (wayId: number) => number[],
): number[] | null {
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
