import { PackWriter } from '../src/pack/writer.js';
import { offsetArrays } from '../src/pack/offsets.js';
import { valueArrays } from '../src/pack/value-column.js';
import type { StringTableBuilder } from '../src/pack/strings.js';
import type { BasemapArrays } from './basemap.js';
import type { ChSections } from './ch-pack.js';
import type { GraphArrays } from './graph.js';
import type { IndexSections } from './stored-indexes.js';
import type { PlaceArrays } from './places/index.js';
import { WARD_SECTIONS, type WardPolygonArrays } from '../src/admin/ward-polygons.js';
import { distinctRows } from '../src/pack/distinct-rows.js';
import { addOsmIds, OSM_IDS } from '../src/pack/osm-ids.js';
import { encodePartPoints } from '../src/map/part-points.js';
import { edgeSpeedRows, SPEED_ROW, SPEED_SECTIONS } from '../src/route/graph.js';
import { ADMIN_SLOTS } from '../src/places/kinds.js';

/** Everything a pack holds, before it is written. */
export interface PackContents {
  meta: Record<string, unknown>;
  strings: StringTableBuilder;
  graph: GraphArrays;
  /** Per-edge forward durations in seconds that replace length / speed (DIMACS travel-time graphs). */
  edgeDuration?: Float32Array;
  places?: PlaceArrays;
  admin?: unknown;
  /** The official polygons of the 2025 wards around the pack's area (src/admin/ward-polygons.ts). */
  wards?: WardPolygonArrays;
  basemap?: BasemapArrays;
  /** Indexes stored built (data-tools/stored-indexes.ts), from the pack's own graph. */
  indexes?: IndexSections;
  /** Contraction hierarchies (src/route/ch.ts), built from the pack's own graph. */
  ch?: ChSections;
}

/** The pack's bytes (up to 4 GiB: see `packWriter` for bigger ones). */
export function writePack(c: PackContents): Uint8Array {
  return packWriter(c).finish();
}

/**
 * The pack's sections in a fixed order, so the same contents always give the same bytes; `finish()` gives them in
 * one buffer, data-tools/pack-file.ts writes them to a file of any size.
 */
export function packWriter(c: PackContents): PackWriter {
  const w = new PackWriter();
  w.addJson('meta', c.meta);
  const g = c.graph;
  const speedRows = distinctRows(edgeSpeedRows(g.edgeSpeed, g.edgePref), SPEED_ROW);
  w.addArray('graph.node.lat', g.nodeLat)
    .addArray('graph.node.lon', g.nodeLon)
    .addArray('graph.node.flags', g.nodeFlags)
    .addArray('graph.node.block', g.nodeBlock)
    .addArray('graph.edge.nodes', g.edgeNodes)
    .addArray('graph.edge.len', g.edgeLen)
    .addArray(SPEED_SECTIONS.row, speedRows.ids)
    .addArray(SPEED_SECTIONS.rows, speedRows.rows)
    .addArray('graph.edge.class', g.edgeClass)
    .addArray('graph.edge.flags', g.edgeFlags)
    .addArray('graph.edge.restricted', g.edgeRestricted)
    .addArray('graph.edge.nostart', g.edgeNoStart)
    .addArrays(valueArrays('graph.edge.name', g.edgeName))
    .addArrays(offsetArrays('graph.edge.shape', g.edgeShape))
    .addArray('graph.shape.lat', g.shapeLat)
    .addArray('graph.shape.lon', g.shapeLon)
    .addArray('graph.adj.first', g.adjFirst)
    .addArray('graph.adj.arc', g.adjArc)
    .addArray('graph.turn.first', g.turnFirst)
    .addArray('graph.turn.edges', g.turnEdges)
    .addArray('graph.turn.kind', g.turnKind)
    .addArray('graph.turn.mask', g.turnMask);
  addOsmIds(w, OSM_IDS.node, g.nodeOsm);
  addOsmIds(w, OSM_IDS.way, g.edgeWay);
  if (g.arcBearing) w.addArray('graph.arc.bearing', g.arcBearing);
  if (c.edgeDuration) w.addArray('graph.edge.dur', c.edgeDuration);
  if (c.places) {
    const p = c.places;
    const units = distinctRows(p.adm, ADMIN_SLOTS);
    w.addArray('place.lat', p.lat)
      .addArray('place.lon', p.lon)
      .addArray('place.kind', p.kind)
      .addArray('place.name', p.name)
      .addArray('place.house', p.house)
      .addArrays(valueArrays('place.street', p.street))
      .addArrays(valueArrays('place.category', p.category))
      .addArrays(valueArrays('place.locality', p.locality))
      .addArray('place.admSet', units.ids)
      .addArray('place.admSets', units.rows);
    addOsmIds(w, OSM_IDS.place, p.osm);
    w.addArray('place.importance', p.importance)
      .addArrays(offsetArrays('place.alt.first', p.altFirst))
      .addArray('place.alt', p.alt)
      .addArray('place.alt.kind', p.altKind);
  }
  if (c.admin !== undefined) w.addJson('admin.units', c.admin);
  if (c.wards) {
    const k = WARD_SECTIONS;
    w.addArray(k.unit, c.wards.unit)
      .addArray(k.partWard, c.wards.partWard)
      .addArray(k.partRing, c.wards.partRing)
      .addArray(k.ringStart, c.wards.ringStart)
      .addArray(k.xy, c.wards.xy)
      .addArray(k.index, c.wards.index);
  }
  if (c.basemap) {
    const m = c.basemap;
    const points = encodePartPoints(m.lon, m.lat, m.partFirst);
    w.addArray('map.kind', m.kind)
      .addArray('map.type', m.type)
      .addArray('map.name', m.name)
      .addArray('map.bbox', m.bbox)
      .addArrays(offsetArrays('map.featPart', m.featPart))
      .addArrays(offsetArrays('map.partFirst', m.partFirst))
      .addArray('map.origin', points.origin)
      .addArrays(offsetArrays('map.at', points.at))
      .addArray('map.xy', points.xy);
  }
  if (c.indexes) {
    for (const [name, value] of c.indexes.json) w.addJson(name, value);
    for (const [name, arr] of c.indexes.arrays) w.addArray(name, arr);
  }
  if (c.ch) {
    w.addJson('ch.index', c.ch.index);
    for (const [name, arr] of c.ch.arrays) w.addArray(name, arr);
  }
  const s = c.strings.finish();
  w.addArrays(offsetArrays('str.offs', s.offs)).addArray('str.data', s.data);
  return w;
}
