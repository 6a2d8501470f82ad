import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { FORMAT_VERSION } from '../src/pack/format.js';
import { StringTableBuilder } from '../src/pack/strings.js';
import { VEHICLES } from '../src/route/profiles.js';
import { buildBasemap, type UnitLabel } from './basemap.js';
import { withHierarchies, type HierarchyOptions } from './ch-pack.js';
import { orderInWorker } from './ch-threads.js';
import { buildGraph, type GraphArrays } from './graph.js';
import type { WardPolygonArrays } from '../src/admin/ward-polygons.js';
import type { Rect } from '../src/admin/ward-polygons-builder.js';
import { packWriter, writePack, type PackContents } from './pack-sections.js';
import { buildPlaces, placeNameOf, type AdminResolver } from './places/index.js';
import { Progress } from './progress.js';
import { sortedIndexOf } from './sorted.js';
import { OsmStore } from './store.js';
import { buildStoredIndexes } from './stored-indexes.js';
import type { CchOrder } from '../src/route/cch/build.js';
import { Pack } from '../src/pack/reader.js';
import type { PackWriter } from '../src/pack/writer.js';
import { detectOsmFormat, readOsmFile } from './osm/read.js';
import type { InputInfo, Tags } from './osm/types.js';

export const ATTRIBUTION = '© OpenStreetMap contributors';

export interface BuildOptions {
  /**
   * Input files: OSM PBF, OSM XML, Overpass JSON, GeoJSON (places); later inputs win over earlier ones for the same
   * element.
   */
  inputs: string[];
  /** Pack name (defaults to the output file's base name, given by the caller). */
  name: string;
  /** Builds the admin resolver once the places' provinces are known (Vietnamese admin units); null for none. */
  admin?: (() => AdminBundle) | null;
  progress?: Progress;
  /**
   * Also contract per-vehicle hierarchies (default: when `contraction` is given). Every pack stores the order of the
   * customizable hierarchy, which routes every vehicle and weighting (docs/routing.md); hierarchies make a pack about
   * three times the size and its build twice as long, for tables and trips about a tenth quicker.
   */
  hierarchies?: boolean;
  /** How the hierarchies are contracted (threads, a forced core size for tests); default the automatic rules. */
  contraction?: HierarchyOptions;
  /**
   * Without hierarchies (the default), whether the nested-dissection order of the customizable hierarchy (a stored
   * index) is made in a worker thread while this one builds the rest (default: when the road graph has
   * ORDER_THREAD_MIN_EDGES edges or more). The same bytes either way. With hierarchies it is made in this thread: the
   * contraction's threads already keep the cores busy.
   */
  orderThread?: boolean;
}

/** What the admin step contributes: a resolver for places, the ward polygons and the serialised units of the pack. */
export interface AdminBundle {
  resolver: AdminResolver;
  /** The 2025 ward polygons clipped to a rectangle (degrees), or null when the admin data has none. */
  wardPolygons(clip: Rect): WardPolygonArrays | null;
  /** Serialised units, available after places were resolved (only the units the pack uses). */
  serialize(): unknown;
}

/**
 * Below this many road graph edges the order is made in the builder's thread (orderThread): starting a worker (and,
 * from TypeScript sources, its loader) costs up to a second; the order takes about 5 s on whole HCMC (77,000 edges).
 */
const ORDER_THREAD_MIN_EDGES = 20_000;

/** Ward polygons are kept this far around the road graph (degrees): reverse geocoding answers up to 1 km outside it. */
const WARD_MARGIN_DEG = 0.02;

/** Tags that make an untagged-way node worth keeping on the node pass of a PBF. */
function interestingNode(tags: Tags): boolean {
  return !!(
    tags.highway ||
    tags.barrier ||
    tags.place ||
    tags.entrance ||
    tags['addr:housenumber'] ||
    placeNameOf(tags) !== undefined
  );
}

/** Builds a pack from OSM inputs and returns its bytes. Deterministic: the same inputs give the same bytes. */
export function buildOsmPack(opts: BuildOptions): Uint8Array {
  return osmPack(opts).finish();
}

/**
 * Builds a pack from OSM inputs, its sections laid out but not copied into one buffer: `finish()` gives its bytes (up
 * to 4 GiB), data-tools/pack-file.ts writes it to a file of any size (a country with hierarchies).
 */
export function osmPack(opts: BuildOptions): PackWriter {
  const progress = opts.progress ?? new Progress(null, true);
  const read = readInputs(opts.inputs, progress);
  const { infos } = read;

  const strings = new StringTableBuilder();
  progress.step('building the road graph');
  const graph = buildGraph(read.store!, strings, progress);
  const contents: PackContents = { meta: {}, strings, graph };
  /** Places, the basemap, the metadata and the stored indexes: what the pack holds besides its road graph. */
  const rest = (order?: () => CchOrder) => {
    progress.step('extracting places');
    const admin = opts.admin?.() ?? null;
    const area = graphBox(graph, WARD_MARGIN_DEG);
    const wards = admin && area ? admin.wardPolygons(area) : null;
    contents.places = buildPlaces(read.store!, strings, admin?.resolver ?? null, wards?.unit ?? []);
    progress.step('extracting basemap features');
    contents.basemap = buildBasemap(
      read.store!,
      strings,
      statedBounds(infos),
      unitLabels(wards, admin?.resolver ?? null),
    );
    // Nothing reads the OSM elements from here on: they go before the stored indexes, the build's peak.
    read.store = null;
    contents.wards = wards ?? undefined;
    contents.admin = admin ? admin.serialize() : undefined;
    contents.meta = metadata(opts.name, infos, contents);
    progress.step('building the stored indexes');
    contents.indexes = buildStoredIndexes(Pack.from(writePack(contents)), order);
  };
  let pack: PackWriter;
  if (!(opts.hierarchies ?? opts.contraction !== undefined)) {
    // The order reads only the road graph: the worker gets a pack of the graph alone, one buffer (transferred).
    const aside =
      (opts.orderThread ?? graph.edgeLen.length >= ORDER_THREAD_MIN_EDGES) ? orderInWorker(writePack(contents)) : null;
    try {
      rest(aside?.join);
    } finally {
      aside?.stop();
    }
    progress.step('writing the pack');
    pack = packWriter(contents);
  } else {
    // The hierarchies read only the road graph: they are contracted in worker threads while this thread does the rest.
    progress.step('contracting the road graph');
    pack = withHierarchies(contents, progress, opts.contraction, rest);
  }
  progress.done(
    `${opts.name}: ${graph.nodeLat.length} nodes, ${graph.edgeLen.length} edges, ${contents.places!.lat.length} places, ${contents.basemap!.kind.length} map features (${contents.basemap!.skippedMultipolygons} broken multipolygons skipped${contents.basemap!.seaSkipped ? ', the sea left out: coastline without stated bounds or with a gap' : ''}), ${(pack.byteLength / 1e6).toFixed(2)} MB`,
  );
  return pack;
}

/** An input file as the pack's metadata lists it. */
type InputRecord = InputInfo & { file: string; bytes: number; sha256: string };

/** What the inputs hold: their elements (null once the builder has let them go) and their metadata. */
interface ReadInputs {
  store: OsmStore | null;
  infos: InputRecord[];
}

/** Reads every input into one store (later inputs win), with the metadata of each. */
function readInputs(inputs: readonly string[], progress: Progress): ReadInputs {
  const store = new OsmStore();
  const infos: InputRecord[] = [];
  const pbf: number[] = [];
  inputs.forEach((file, i) => {
    progress.step(`reading ${basename(file)}`);
    store.inputSeq = i;
    // A PBF is read in two passes (ways and relations first, then only the nodes they need); other formats at once.
    const isPbf = detectOsmFormat(file) === 'pbf';
    const info = readOsmFile(file, store, {
      nodes: !isPbf,
      ways: true,
      relations: true,
      progress: (d, t) => progress.update(d, t),
    });
    if (isPbf) pbf.push(i);
    infos.push({ ...info, file: basename(file), bytes: statSync(file).size, sha256: sha256(file) });
  });
  if (pbf.length > 0) {
    // Second pass over PBF inputs: only the nodes that ways and relations use, or that are places themselves.
    const needed = store.referencedNodes();
    store.nodeFilter = (id, tags) => sortedIndexOf(needed, id) >= 0 || (tags !== null && interestingNode(tags));
    for (const i of pbf) {
      progress.step(`reading nodes of ${basename(inputs[i]!)}`);
      store.inputSeq = i;
      readOsmFile(inputs[i]!, store, {
        nodes: true,
        ways: false,
        relations: false,
        progress: (d, t) => progress.update(d, t),
      });
    }
    store.nodeFilter = null;
  }
  store.mergeFeatures();
  return { store, infos };
}

/**
 * The 2025 units of the pack's polygons as map labels: each ward with its official name ("Phường Bến Thành") at a
 * point inside its polygon, and each province at the label point of its ward nearest the mean of its wards' points
 * (inside the province, and central to the part of it the pack covers).
 */
function unitLabels(wards: WardPolygonArrays | null, admin: AdminResolver | null): UnitLabel[] {
  if (!wards || !admin) return [];
  const out: UnitLabel[] = [];
  const byProvince = new Map<number, UnitLabel[]>();
  for (const unit of wards.unit) {
    const name = admin.describe(unit)?.name;
    const at = admin.pointInside(unit);
    if (!name || !at) continue;
    const label: UnitLabel = { kind: 'ward', name, ...at };
    out.push(label);
    const province = admin.locate(at.lat, at.lon, null)[4];
    if (province < 0) continue;
    const list = byProvince.get(province);
    if (list) list.push(label);
    else byProvince.set(province, [label]);
  }
  for (const [province, labels] of [...byProvince].sort((a, b) => a[0] - b[0])) {
    const name = admin.describe(province)?.name;
    if (!name) continue;
    const lat = labels.reduce((s, l) => s + l.lat, 0) / labels.length,
      lon = labels.reduce((s, l) => s + l.lon, 0) / labels.length;
    const d = (l: UnitLabel) => (l.lat - lat) ** 2 + (l.lon - lon) ** 2;
    const central = labels.reduce((a, b) => (d(b) < d(a) ? b : a));
    out.push({ kind: 'province', name, lat: central.lat, lon: central.lon });
  }
  return out;
}

/** The union of the bounds the inputs state [minLon, minLat, maxLon, maxLat] (degrees), null when none states any. */
function statedBounds(infos: readonly InputInfo[]): Rect | null {
  const stated = infos.flatMap((i) => (i.bounds ? [i.bounds] : []));
  if (stated.length === 0) return null;
  return [
    Math.min(...stated.map((b) => b[0])),
    Math.min(...stated.map((b) => b[1])),
    Math.max(...stated.map((b) => b[2])),
    Math.max(...stated.map((b) => b[3])),
  ];
}

/** The bounding box [minLon, minLat, maxLon, maxLat] of the graph's nodes grown by `margin` degrees; null when empty. */
function graphBox(g: GraphArrays, margin: number): Rect | null {
  let minLat = Infinity,
    minLon = Infinity,
    maxLat = -Infinity,
    maxLon = -Infinity;
  for (let i = 0; i < g.nodeLat.length; i++) {
    minLat = Math.min(minLat, g.nodeLat[i]!);
    maxLat = Math.max(maxLat, g.nodeLat[i]!);
    minLon = Math.min(minLon, g.nodeLon[i]!);
    maxLon = Math.max(maxLon, g.nodeLon[i]!);
  }
  if (g.nodeLat.length === 0) return null;
  return [minLon / 1e7 - margin, minLat / 1e7 - margin, maxLon / 1e7 + margin, maxLat / 1e7 + margin];
}

/** Pack metadata: name, bbox, inputs with dates and checksums, counts, attribution, profiles. */
export function metadata(name: string, inputs: object[], c: PackContents): Record<string, unknown> {
  const bbox = graphBox(c.graph, 0);
  const dates = inputs
    .map((i) => (i as { timestamp?: string }).timestamp)
    .filter((t): t is string => !!t)
    .sort();
  return {
    name,
    format: FORMAT_VERSION,
    bbox,
    dataDate: dates[dates.length - 1] ?? null,
    inputs,
    counts: {
      nodes: c.graph.nodeLat.length,
      edges: c.graph.edgeLen.length,
      turnRestrictions: c.graph.turnKind.length,
      ...(c.wards ? { wards: c.wards.unit.length } : {}),
      places: c.places?.lat.length ?? 0,
      mapFeatures: c.basemap?.kind.length ?? 0,
      skippedMultipolygons: c.basemap?.skippedMultipolygons ?? 0,
      ...(c.basemap?.seaSkipped ? { seaSkipped: true } : {}),
    },
    vehicles: VEHICLES,
    attribution: ATTRIBUTION,
    license: 'ODbL-1.0',
  };
}

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}
