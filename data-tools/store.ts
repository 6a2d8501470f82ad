import type { Center, ElementRef, Member, OsmSink, Tags } from './osm/types.js';
import { COORD_SCALE } from '../src/pack/format.js';
import { sortedIndexOf } from './sorted.js';
import { WayTable, type WayRec } from './way-table.js';

export type { WayRec } from './way-table.js';

export interface RelationRec {
  id: number;
  members: Member[];
  tags: Tags;
  center?: Center;
}

/**
 * Ids of the nodes made for features that name no OSM element: far above OSM's ids (about 1.3e10 in 2025, below 2^34),
 * and low enough that id × 4 + type (a place's OSM id) stays within the 2^50 a pack's id column holds
 * (src/pack/id-column.ts).
 */
const FEATURE_ID_BASE = 2 ** 47;

/** A feature (GeoJSON) as read, kept until every input is read. */
interface PendingFeature {
  element: ElementRef | null;
  seq: number;
  lat: number;
  lon: number;
  tags: Tags;
}

/** What a feature merges with: the element's version from the inputs, with the input it came from. */
interface Version {
  seq: number;
  tags: Tags | undefined;
  refs?: number[];
  members?: Member[];
}

/**
 * Collects the elements of several inputs and merges them by type + id: a later input wins. Nodes are kept in
 * growable typed arrays (no object per node); only tagged nodes keep a tags object. Ways are kept flat (WayTable:
 * node references in one typed array, tags interned); relations, few even in a country, as objects. Features
 * (GeoJSON places) are merged into the elements once every input is read: {@link OsmStore.mergeFeatures}.
 */
/** A string of ASCII characters only (most tag values): nothing to compose. */
const ASCII = /^[\x00-\x7f]*$/;

/**
 * The tags with every value in NFC, in place: OSM holds some text decomposed (a vowel and its marks as separate code
 * points: 221 names of whole HCMC), which answers would show so and which would not join the same name composed.
 */
function composed(tags: Tags): Tags {
  for (const k in tags) {
    const v = tags[k]!;
    if (!ASCII.test(v)) tags[k] = v.normalize('NFC');
  }
  return tags;
}

export class OsmStore implements OsmSink {
  private ids = new Float64Array(1 << 16);
  private lats = new Int32Array(1 << 16);
  private lons = new Int32Array(1 << 16);
  private seqs = new Uint16Array(1 << 16);
  private count = 0;
  /** Position of the input being read; a node from a later input wins over the same id from an earlier one. */
  inputSeq = 0;
  readonly nodeTags = new Map<number, Tags>();
  private tagSeq = new Map<number, number>();
  /** Ways by id (`ways.get(id)`), latest input's version. */
  readonly ways = new WayTable();
  readonly relations = new Map<number, RelationRec>();
  private relationSeq = new Map<number, number>();
  private pending: PendingFeature[] = [];
  /** Elements ("way/123") that features made or overlaid. */
  private readonly featured = new Set<string>();
  private ownFeatures = 0;
  /** When set, nodes for which it returns false are dropped (the node pass of a two-pass PBF read). */
  nodeFilter: ((id: number, tags: Tags | null) => boolean) | null = null;

  private sortedIds: Float64Array | null = null;
  private sortedLat: Int32Array | null = null;
  private sortedLon: Int32Array | null = null;
  /** Input position of each node's winning version, in sortedIds order. */
  private sortedSeq: Uint16Array | null = null;

  node(id: number, lat: number, lon: number, tags: Tags | null): void {
    if (this.nodeFilter && !this.nodeFilter(id, tags)) return;
    this.putNode(id, lat, lon, tags && composed(tags), this.inputSeq);
  }

  private putNode(id: number, lat: number, lon: number, tags: Tags | null, seq: number): void {
    if (this.count === this.ids.length) this.grow();
    this.ids[this.count] = id;
    this.seqs[this.count] = seq;
    this.lats[this.count] = Math.round(lat * COORD_SCALE);
    this.lons[this.count] = Math.round(lon * COORD_SCALE);
    this.count++;
    // Tags follow the same rule as coordinates: the latest input's version of the node wins. Only tagged nodes
    // (and nodes whose tags a later input removed) enter the maps.
    const prev = this.tagSeq.get(id);
    const tagged = tags !== null && Object.keys(tags).length > 0;
    if (prev === undefined ? tagged : prev <= seq) {
      this.tagSeq.set(id, seq);
      if (tagged) this.nodeTags.set(id, tags);
      else this.nodeTags.delete(id);
    }
    this.sortedIds = null;
  }

  way(id: number, refs: number[], tags: Tags, center?: Center): void {
    this.ways.add(id, refs, composed(tags), center, this.inputSeq);
  }

  relation(id: number, members: Member[], tags: Tags, center?: Center): void {
    this.putRelation(id, members, composed(tags), center, this.inputSeq);
  }

  private putRelation(id: number, members: Member[], tags: Tags, center: Center | undefined, seq: number): void {
    if ((this.relationSeq.get(id) ?? -1) > seq) return;
    this.relations.set(id, { id, members, tags, center });
    this.relationSeq.set(id, seq);
  }

  feature(element: ElementRef | null, lat: number, lon: number, tags: Tags): void {
    this.pending.push({ element, seq: this.inputSeq, lat, lon, tags: composed(tags) });
  }

  /**
   * Merges the features read so far into the elements; call it once every input is read (a PBF's nodes come in a
   * second pass). A feature that names an element overlays the element's version from earlier inputs: its tags over
   * the element's, its point as the node's position or as the way's or relation's centre; node references and
   * members stay the element's. A version from a later input wins over the feature, as between OSM inputs. A feature
   * naming no element becomes a node of its own (ids from FEATURE_ID_BASE up, in input order).
   */
  mergeFeatures(): void {
    const pending = this.pending.sort((a, b) => a.seq - b.seq); // stable: file order within an input
    this.pending = [];
    const groups = new Map<string, { element: ElementRef; features: PendingFeature[] }>();
    for (const f of pending) {
      const element = f.element ?? { type: 'node' as const, id: FEATURE_ID_BASE + this.ownFeatures++ };
      const key = `${element.type}/${element.id}`;
      const group = groups.get(key) ?? { element, features: [] };
      group.features.push(f);
      groups.set(key, group);
    }
    // Every version is looked up before anything changes: a change makes the nodes or the ways sort again.
    const merges = [...groups].map(([key, { element, features }]) => {
      const base = this.versionOf(element);
      return { key, element, base, newer: features.filter((f) => f.seq >= (base?.seq ?? -1)) };
    });
    for (const { key, element, base, newer } of merges) {
      const last = newer[newer.length - 1];
      if (!last) continue;
      const tags: Tags = Object.assign({}, base?.tags, ...newer.map((f) => f.tags));
      const center = { lat: last.lat, lon: last.lon };
      if (element.type === 'node') this.putNode(element.id, last.lat, last.lon, tags, last.seq);
      else if (element.type === 'way') this.ways.add(element.id, base?.refs ?? [], tags, center, last.seq);
      else this.putRelation(element.id, base?.members ?? [], tags, center, last.seq);
      this.featured.add(key);
    }
  }

  /** True when a feature (GeoJSON) made this element or overlaid it (after {@link mergeFeatures}). */
  isFeature(type: ElementRef['type'], id: number): boolean {
    return this.featured.has(`${type}/${id}`);
  }

  /** The element's winning version so far, or null when no input has it. */
  private versionOf(e: ElementRef): Version | null {
    if (e.type === 'node') {
      const r = this.nodeIndex(e.id);
      return r < 0 ? null : { seq: this.sortedSeq![r]!, tags: this.nodeTags.get(e.id) };
    }
    if (e.type === 'way') {
      const w = this.ways.get(e.id);
      return w ? { seq: w.seq, tags: w.tags, refs: w.refs } : null;
    }
    const rel = this.relations.get(e.id);
    return rel ? { seq: this.relationSeq.get(e.id)!, tags: rel.tags, members: rel.members } : null;
  }

  private grow(): void {
    const n = this.ids.length * 2;
    const ids = new Float64Array(n);
    ids.set(this.ids);
    const lats = new Int32Array(n);
    lats.set(this.lats);
    const lons = new Int32Array(n);
    lons.set(this.lons);
    const seqs = new Uint16Array(n);
    seqs.set(this.seqs);
    this.seqs = seqs;
    this.ids = ids;
    this.lats = lats;
    this.lons = lons;
  }

  /** Sorts nodes by id, keeping the last occurrence of each id (the latest input). Idempotent. */
  private index(): void {
    if (this.sortedIds) return;
    const order = new Uint32Array(this.count);
    for (let i = 0; i < order.length; i++) order[i] = i;
    const ids = this.ids;
    const seqs = this.seqs;
    // Ties broken by input position, then insertion order, so the last of a run is the latest input's node.
    order.sort((a, b) => ids[a]! - ids[b]! || seqs[a]! - seqs[b]! || a - b);
    let n = 0;
    for (let i = 0; i < order.length; i++) {
      if (i + 1 < order.length && ids[order[i + 1]!] === ids[order[i]!]) continue;
      order[n++] = order[i]!;
    }
    this.sortedIds = new Float64Array(n);
    this.sortedLat = new Int32Array(n);
    this.sortedLon = new Int32Array(n);
    this.sortedSeq = new Uint16Array(n);
    for (let i = 0; i < n; i++) {
      const o = order[i]!;
      this.sortedIds[i] = ids[o]!;
      this.sortedLat[i] = this.lats[o]!;
      this.sortedLon[i] = this.lons[o]!;
      this.sortedSeq[i] = seqs[o]!;
    }
  }

  /** Number of distinct nodes. */
  get nodeCount(): number {
    this.index();
    return this.sortedIds!.length;
  }

  /** Dense index of a node id, or -1 when the node is not in the inputs. */
  nodeIndex(id: number): number {
    this.index();
    return sortedIndexOf(this.sortedIds!, id);
  }

  /** Node id at a dense index. */
  nodeId(i: number): number {
    return this.sortedIds![i]!;
  }

  /** Latitude in 1e-7 degrees of a dense node index. */
  latE7(i: number): number {
    return this.sortedLat![i]!;
  }

  /** Longitude in 1e-7 degrees of a dense node index. */
  lonE7(i: number): number {
    return this.sortedLon![i]!;
  }

  /**
   * Ways sorted by id (deterministic iteration), each made as it is reached: keep only what you need. With `keep`,
   * only the ways whose tags it accepts (asked once per distinct tag set; the others are never made).
   */
  sortedWays(keep?: (tags: Tags) => boolean): Iterable<WayRec> {
    return this.ways.inIdOrder(keep);
  }

  /** Sorted ids of the nodes that ways and relations reference, each once (the nodes a PBF's node pass keeps). */
  referencedNodes(): Float64Array {
    const members: number[] = [];
    for (const rel of this.relations.values()) for (const m of rel.members) if (m.type === 'node') members.push(m.ref);
    return this.ways.referencedNodes(members);
  }

  /** Relations sorted by id. */
  sortedRelations(): RelationRec[] {
    return [...this.relations.values()].sort((a, b) => a.id - b.id);
  }
}
