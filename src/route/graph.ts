import { readValues, type ValueColumn } from '../pack/value-column.js';
import { COORD_SCALE } from '../pack/format.js';
import { isOffsetArray, readOffsets, type Offsets } from '../pack/offsets.js';
import { distinctRows, fitsRows, type RowIds } from '../pack/distinct-rows.js';
import type { Pack } from '../pack/reader.js';
import { PackError } from '../pack/reader.js';
import { OSM_IDS, osmIdsFit, readOsmIds } from '../pack/osm-ids.js';
import type { OsmIds } from '../pack/id-column.js';
import { PROFILE_COUNT } from './profiles.js';

/**
 * The road graph of a pack, as zero-copy views over its sections (layout documented in data-tools/graph.ts):
 * nodes with int32 coordinates (1e-7 degree), edges with length, per-vehicle speeds by direction, class, name
 * and shape, and per node the incident arcs (arc = edge * 2 + dir; dir 0 runs first → second node).
 */
export class RoadGraph {
  readonly nodeLat: Int32Array;
  readonly nodeLon: Int32Array;
  readonly nodeFlags: Uint8Array;
  readonly nodeBlock: Uint8Array;
  readonly edgeNodes: Uint32Array;
  readonly edgeLen: Float64Array;
  readonly edgeClass: Uint8Array;
  readonly edgeFlags: Uint8Array;
  /**
   * Per edge: bit p set when profile p may drive it only for local access (access=destination-style); all zeros
   * in packs from before the section existed.
   */
  readonly edgeRestricted: Uint8Array;
  /**
   * Per edge: bit p set when profile p may drive it but never starts or ends a route on it (a ferry, a car's private
   * service road: OSRM's is_startpoint); all zeros in packs from before the section existed.
   */
  readonly edgeNoStart: Uint8Array;
  /** Per edge its name (a string id; 0 for none). */
  readonly edgeName: ValueColumn;
  /** E + 1 offsets: edge e's shape points are shapeLat/shapeLon[edgeShape.at(e) .. edgeShape.at(e + 1)). */
  readonly edgeShape: Offsets;
  readonly shapeLat: Int32Array;
  readonly shapeLon: Int32Array;
  readonly adjFirst: Uint32Array;
  readonly adjArc: Uint32Array;
  readonly turnFirst: Uint32Array;
  readonly turnEdges: Uint32Array;
  readonly turnKind: Uint8Array;
  readonly turnMask: Uint8Array;
  /** Forward durations in seconds replacing length / speed (routing-only packs from travel-time graphs), or null. */
  readonly edgeDuration: Float32Array | null;
  /**
   * True for graphs built from OSM, whose transitions cost OSRM's turn model (costs.ts); false for routing-only
   * benchmark graphs (DIMACS), recognised by the `weights` their pack meta names.
   */
  readonly fromOsm: boolean;
  readonly nodeCount: number;
  readonly edgeCount: number;
  /** arcBearing once read (undefined until then). */
  private bearings: Uint16Array | null | undefined;
  private nodeIds: OsmIds | undefined;
  private wayIds: OsmIds | undefined;
  /** The speeds of a pack from before the rows, made into rows at the first call of `speeds`. */
  private wholeSpeeds: EdgeSpeeds | undefined;

  constructor(private readonly pack: Pack) {
    this.nodeLat = pack.array('graph.node.lat');
    this.nodeLon = pack.array('graph.node.lon');
    this.nodeFlags = pack.array('graph.node.flags');
    this.nodeBlock = pack.array('graph.node.block');
    this.edgeNodes = pack.array('graph.edge.nodes');
    this.edgeLen = pack.array('graph.edge.len');
    this.edgeClass = pack.array('graph.edge.class');
    this.edgeFlags = pack.array('graph.edge.flags');
    this.edgeRestricted = pack.has('graph.edge.restricted')
      ? pack.array('graph.edge.restricted')
      : new Uint8Array(this.edgeFlags.length);
    this.edgeNoStart = pack.has('graph.edge.nostart')
      ? pack.array('graph.edge.nostart')
      : new Uint8Array(this.edgeFlags.length);
    this.shapeLat = pack.array('graph.shape.lat');
    this.shapeLon = pack.array('graph.shape.lon');
    this.adjFirst = pack.array('graph.adj.first');
    this.adjArc = pack.array('graph.adj.arc');
    this.turnFirst = pack.array('graph.turn.first');
    this.turnEdges = pack.array('graph.turn.edges');
    this.turnKind = pack.array('graph.turn.kind');
    this.turnMask = pack.array('graph.turn.mask');
    this.edgeDuration = pack.has('graph.edge.dur') ? pack.array<Float32Array>('graph.edge.dur') : null;
    this.fromOsm = !(pack.has('meta') && pack.json<{ weights?: string }>('meta').weights !== undefined);
    this.nodeCount = this.nodeLat.length;
    this.edgeCount = this.edgeLen.length;
    this.edgeName = readValues(pack, 'graph.edge.name', this.edgeCount);
    this.edgeShape = readOffsets(pack, 'graph.edge.shape', { rows: this.edgeCount, end: this.shapeLat.length });
    this.check(pack.source);
  }

  /** Cross-checks array lengths and node references so a corrupt pack fails at load, not inside a search. */
  private check(source: string): void {
    const N = this.nodeCount;
    const E = this.edgeCount;
    const bad = (what: string) => {
      throw new PackError(source, `corrupt road graph: ${what}`);
    };
    if (this.nodeLon.length !== N || this.nodeFlags.length !== N || this.nodeBlock.length !== N)
      bad('node arrays differ in length');
    if (this.edgeNodes.length !== 2 * E) bad('edge arrays differ in length');
    if (this.pack.has(SPEED_SECTIONS.row)) {
      const { row, rows } = this.speeds();
      if (!(rows instanceof Uint8Array) || !fitsRows(row, E, rows.length / SPEED_ROW))
        bad(`section "${SPEED_SECTIONS.row}" does not fit the speeds`);
    } else if (
      this.pack.length('graph.edge.speed') !== E * PROFILE_COUNT * 2 ||
      this.pack.length('graph.edge.pref') !== E * PROFILE_COUNT
    )
      bad('edge speeds differ in length');
    if (this.adjFirst.length !== N + 1 || !isOffsetArray(this.adjFirst, this.adjArc.length))
      bad('adjacency offsets do not match');
    const restrictions = Math.max(0, this.turnFirst.length - 1);
    if (
      !isOffsetArray(this.turnFirst, this.turnEdges.length) ||
      this.turnKind.length !== restrictions ||
      this.turnMask.length !== restrictions
    )
      bad('turn restrictions do not match');
    for (let i = 0; i < this.turnEdges.length; i++)
      if (this.turnEdges[i]! >= E) bad(`turn restriction refers to edge ${this.turnEdges[i]} of ${E}`);
    for (let i = 0; i < 2 * E; i++)
      if (this.edgeNodes[i]! >= N) bad(`edge ${i >> 1} refers to node ${this.edgeNodes[i]} of ${N}`);
    for (let i = 0; i < this.adjArc.length; i++)
      if (this.adjArc[i]! >>> 1 >= E) bad(`arc ${this.adjArc[i]} refers to a missing edge`);
    if (this.edgeDuration && this.edgeDuration.length !== E) bad('edge durations differ in length');
    if (this.pack.has('graph.arc.bearing') && this.pack.length('graph.arc.bearing') !== 2 * E)
      bad('arc bearings differ in length');
    if (this.edgeRestricted.length !== E || this.edgeNoStart.length !== E) bad('edge access flags differ in length');
    if (!osmIdsFit(this.pack, OSM_IDS.node, N) || !osmIdsFit(this.pack, OSM_IDS.way, E))
      bad('OSM ids differ in length');
  }

  /**
   * Per node: its OSM id. Read from the pack at first use (a pack file's sections are read and checked then): routing
   * never reads it.
   */
  get nodeOsm(): OsmIds {
    return (this.nodeIds ??= readOsmIds(this.pack, OSM_IDS.node, this.nodeCount));
  }

  /** Per edge: the OSM id of its way. Read from the pack at first use, as nodeOsm. */
  get edgeWay(): OsmIds {
    return (this.wayIds ??= readOsmIds(this.pack, OSM_IDS.way, this.edgeCount));
  }

  /**
   * Per arc: the bearing leaving its tail in 1/1024 turns (turn-model.ts computeArcBearings), as the builder stored
   * it; null in packs from before the section (then computed at the first route). Read from the pack at first use,
   * as nodeOsm: only turn costs read it (graphs built from OSM), not routing-only graphs.
   */
  get arcBearing(): Uint16Array | null {
    if (this.bearings === undefined)
      this.bearings = this.pack.has('graph.arc.bearing') ? this.pack.array<Uint16Array>('graph.arc.bearing') : null;
    return this.bearings;
  }

  /**
   * Every profile's speeds and preferences, per edge a row of them (SPEED_SECTIONS), which only a vehicle's costs
   * and alikeProfiles read: speedOf and prefOf read an edge's. Views of the pack's sections; a pack from before the
   * rows stores every edge's whole, made into rows at the first call and kept (1 or 2 bytes an edge).
   */
  speeds(): EdgeSpeeds {
    if (this.pack.has(SPEED_SECTIONS.row))
      return {
        row: this.pack.array<RowIds>(SPEED_SECTIONS.row),
        rows: this.pack.array<Uint8Array>(SPEED_SECTIONS.rows),
      };
    if (!this.wholeSpeeds) {
      const rows = edgeSpeedRows(this.pack.arrayOnce('graph.edge.speed'), this.pack.arrayOnce('graph.edge.pref'));
      const { ids, rows: distinct } = distinctRows(rows, SPEED_ROW);
      this.wholeSpeeds = { row: ids, rows: distinct };
    }
    return this.wholeSpeeds;
  }

  /** Latitude of a node in degrees. */
  lat(node: number): number {
    return this.nodeLat[node]! / COORD_SCALE;
  }

  /** Longitude of a node in degrees. */
  lon(node: number): number {
    return this.nodeLon[node]! / COORD_SCALE;
  }

  /** Number of edges that some vehicle may drive one way only (the other way closed for that vehicle). */
  onewayEdgeCount(profile: number): number {
    const speeds = this.speeds();
    let n = 0;
    for (let e = 0; e < this.edgeCount; e++) {
      const f = speedOf(speeds, e, profile, 0) > 0;
      const b = speedOf(speeds, e, profile, 1) > 0;
      if (f !== b) n++;
    }
    return n;
  }
}

/** Every profile's speeds and preferences per edge (RoadGraph.speeds): edge e's are row row[e] of `rows`. */
export interface EdgeSpeeds {
  row: RowIds;
  /** SPEED_ROW bytes a row: km/h per profile and direction (PROFILE_COUNT × 2), then preference per profile. */
  rows: Uint8Array;
}

/**
 * The sections of the edges' speeds and preferences (distinct-rows.ts): per edge the number of its row, and the
 * rows, SPEED_ROW bytes each: the speeds by profile and direction (PROFILE_COUNT × 2 bytes), then the preferences
 * (PROFILE_COUNT bytes). Edges share rows (whole HCMC: 77,156 edges, 158 rows), so 1 or 2 bytes an edge
 * instead of 15; packs from before them store `graph.edge.speed` and `graph.edge.pref` whole.
 */
export const SPEED_SECTIONS = { row: 'graph.edge.speedRow', rows: 'graph.speedRows' } as const;
/** Bytes of a row of SPEED_SECTIONS.rows. */
export const SPEED_ROW = PROFILE_COUNT * 3;
/** Where a row's preferences start. */
export const PREF_AT = PROFILE_COUNT * 2;

/**
 * Every edge's row of speeds and preferences, edge after edge (SPEED_SECTIONS), from the two whole arrays (as packs
 * stored them before the rows: per edge its speeds `speed`, PROFILE_COUNT × 2 bytes, and preferences `pref`).
 */
export function edgeSpeedRows(speed: Uint8Array, pref: Uint8Array): Uint8Array {
  const E = pref.length / PROFILE_COUNT,
    S = PROFILE_COUNT * 2;
  const out = new Uint8Array(E * SPEED_ROW);
  for (let e = 0; e < E; e++) {
    out.set(speed.subarray(e * S, e * S + S), e * SPEED_ROW);
    out.set(pref.subarray(e * PROFILE_COUNT, (e + 1) * PROFILE_COUNT), e * SPEED_ROW + S);
  }
  return out;
}

/** Speed in km/h of `edge` for vehicle `profile` in direction `dir` (0 first → second); 0 = not allowed. */
export function speedOf(s: EdgeSpeeds, edge: number, profile: number, dir: number): number {
  return s.rows[s.row[edge]! * SPEED_ROW + profile * 2 + dir]!;
}

/** Preference of `edge` for vehicle `profile`, percent (1–100). */
export function prefOf(s: EdgeSpeeds, edge: number, profile: number): number {
  return s.rows[s.row[edge]! * SPEED_ROW + PREF_AT + profile]!;
}
