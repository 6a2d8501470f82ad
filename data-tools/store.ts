import type { Center, Member, OsmSink, Tags } from './osm/types.js';
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
 * Collects the elements of several inputs and merges them by type + id: a later input wins. Nodes are kept in
 * growable typed arrays (no object per node); only tagged nodes keep a tags object. Ways are kept flat (WayTable:
 * node references in one typed array, tags interned); relations, few even in a country, as objects.
 */
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
  /** When set, nodes for which it returns false are dropped (the node pass of a two-pass PBF read). */
  nodeFilter: ((id: number, tags: Tags | null) => boolean) | null = null;

  private sortedIds: Float64Array | null = null;
  private sortedLat: Int32Array | null = null;
  private sortedLon: Int32Array | null = null;

  node(id: number, lat: number, lon: number, tags: Tags | null): void {
    if (this.nodeFilter && !this.nodeFilter(id, tags)) return;
    if (this.count === this.ids.length) this.grow();
    this.ids[this.count] = id;
    this.seqs[this.count] = this.inputSeq;
    this.lats[this.count] = Math.round(lat * COORD_SCALE);
    this.lons[this.count] = Math.round(lon * COORD_SCALE);
    this.count++;
    // Tags follow the same rule as coordinates: the latest input's version of the node wins. Only tagged nodes
    // (and nodes whose tags a later input removed) enter the maps.
    const prev = this.tagSeq.get(id);
    const tagged = tags !== null && Object.keys(tags).length > 0;
    if (prev === undefined ? tagged : prev <= this.inputSeq) {
      this.tagSeq.set(id, this.inputSeq);
      if (tagged) this.nodeTags.set(id, tags);
      else this.nodeTags.delete(id);
    }
    this.sortedIds = null;
  }

  way(id: number, refs: number[], tags: Tags, center?: Center): void {
    this.ways.add(id, refs, tags, center);
  }

  relation(id: number, members: Member[], tags: Tags, center?: Center): void {
    this.relations.set(id, { id, members, tags, center });
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
    for (let i = 0; i < n; i++) {
      const o = order[i]!;
      this.sortedIds[i] = ids[o]!;
      this.sortedLat[i] = this.lats[o]!;
      this.sortedLon[i] = this.lons[o]!;
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

  /** Ways sorted by id (deterministic iteration), each made as it is reached: keep only what you need. */
  sortedWays(): Iterable<WayRec> {
    return this.ways.inIdOrder();
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
