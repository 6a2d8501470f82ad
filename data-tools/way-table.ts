import type { Center, Tags } from './osm/types.js';

/** One way as the builder's stages read it: OSM id, node ids in order, tags, and the centre some inputs state. */
export interface WayRec {
  id: number;
  refs: number[];
  /** Shared by every way with the same tags (in the same order): read it, never change it. */
  tags: Tags;
  center?: Center;
  /** Position of the input this version came from. */
  seq: number;
}

/**
 * The ways of the builder's inputs, kept flat so that a country-sized input costs a few bytes per way and per node
 * reference instead of a JS object, an array and a tags object each:
 * - node references of all ways in one growable Float64Array (OSM ids exceed 2^32), way i's from `refStart[i]`;
 * - tags interned by their exact key/value sequence: road networks repeat a few thousand tag sets over millions
 *   of ways, so each way holds a u32 tag-set id;
 * - centres (Overpass `out center`) in a map by slot, as only small inputs carry them;
 * - the position of each version's input (u16), as the nodes keep it.
 *
 * A way id given again replaces the earlier one unless it comes from an earlier input (a later input wins; within one
 * input, the later call), as a map by id filled in input order would. Lookups and the sorted iteration materialise a
 * WayRec per call, which the caller drops after use.
 */
export class WayTable {
  private ids = new Float64Array(1 << 12);
  private refStart = new Float64Array((1 << 12) + 1);
  private tagSet = new Uint32Array(1 << 12);
  private seqs = new Uint16Array(1 << 12);
  private refs = new Float64Array(1 << 16);
  private count = 0;
  private refCount = 0;
  private readonly centers = new Map<number, Center>();
  private readonly tagSets: Tags[] = [];
  private readonly tagSetIds = new Map<string, number>();
  /** Slots of the latest version of each way id, sorted by id; null until first needed after a change. */
  private order: Uint32Array | null = null;

  /** Adds a way from input `seq` (a later call with the same id and no earlier input replaces it). */
  add(id: number, refs: readonly number[], tags: Tags, center: Center | undefined, seq: number): void {
    const n = this.count;
    if (n === this.ids.length) this.growWays();
    while (this.refCount + refs.length > this.refs.length) this.refs = grown(this.refs, this.refs.length * 2);
    this.ids[n] = id;
    for (let i = 0; i < refs.length; i++) this.refs[this.refCount + i] = refs[i]!;
    this.refCount += refs.length;
    this.refStart[n + 1] = this.refCount;
    this.tagSet[n] = this.internTags(tags);
    this.seqs[n] = seq;
    if (center) this.centers.set(n, center);
    this.count = n + 1;
    this.order = null;
  }

  /** Number of distinct way ids. */
  get size(): number {
    return this.sorted().length;
  }

  /** The way with OSM id `id` (its latest version), or undefined. */
  get(id: number): WayRec | undefined {
    const order = this.sorted();
    let lo = 0;
    let hi = order.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.ids[order[mid]!]!;
      if (v === id) return this.record(order[mid]!);
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /**
   * The ways in id order, each the latest version of its id; with `keep`, only those whose tags it accepts. `keep` is
   * asked once per tag set, and a way it rejects is never made into a WayRec (its refs copied): most passes want a
   * few kinds of way, and a country has tens of millions of refs.
   */
  *inIdOrder(keep?: (tags: Tags) => boolean): Generator<WayRec> {
    const order = this.sorted();
    // Per tag set: 0 not asked yet, 1 kept, 2 skipped.
    const verdict = keep ? new Uint8Array(this.tagSets.length) : null;
    for (let i = 0; i < order.length; i++) {
      const slot = order[i]!;
      if (verdict) {
        const set = this.tagSet[slot]!;
        if (verdict[set] === 0) verdict[set] = keep!(this.tagSets[set]!) ? 1 : 2;
        if (verdict[set] === 2) continue;
      }
      yield this.record(slot);
    }
  }

  /**
   * Node ids referenced by the latest version of each way, sorted, each once.
   * @param extra more node ids to include (relation members)
   */
  referencedNodes(extra: readonly number[]): Float64Array {
    const order = this.sorted();
    let total = extra.length;
    for (let i = 0; i < order.length; i++) total += this.refStart[order[i]! + 1]! - this.refStart[order[i]!]!;
    const a = new Float64Array(total);
    let k = 0;
    for (let i = 0; i < order.length; i++) {
      const s = order[i]!;
      a.set(this.refs.subarray(this.refStart[s]!, this.refStart[s + 1]!), k);
      k += this.refStart[s + 1]! - this.refStart[s]!;
    }
    a.set(extra, k);
    a.sort();
    let n = 0;
    for (let i = 0; i < a.length; i++) if (i === 0 || a[i] !== a[i - 1]) a[n++] = a[i]!;
    return a.slice(0, n);
  }

  private record(slot: number): WayRec {
    const refs = Array.from(this.refs.subarray(this.refStart[slot]!, this.refStart[slot + 1]!));
    const rec: WayRec = { id: this.ids[slot]!, refs, tags: this.tagSets[this.tagSet[slot]!]!, seq: this.seqs[slot]! };
    const center = this.centers.get(slot);
    if (center) rec.center = center;
    return rec;
  }

  /** Slots sorted by id, keeping the last slot of each id (the latest version: latest input, then latest call). */
  private sorted(): Uint32Array {
    if (this.order) return this.order;
    const ids = this.ids;
    const seqs = this.seqs;
    const order = new Uint32Array(this.count);
    for (let i = 0; i < order.length; i++) order[i] = i;
    order.sort((a, b) => ids[a]! - ids[b]! || seqs[a]! - seqs[b]! || a - b);
    let n = 0;
    for (let i = 0; i < order.length; i++) {
      if (i + 1 < order.length && ids[order[i + 1]!] === ids[order[i]!]) continue;
      order[n++] = order[i]!;
    }
    this.order = order.slice(0, n);
    return this.order;
  }

  /** The id of a tag set, by its keys and values in their order (so a shared object iterates as each way's did). */
  private internTags(tags: Tags): number {
    let key = '';
    for (const k in tags) key += `${k}\u0000${tags[k]}\u0001`;
    let id = this.tagSetIds.get(key);
    if (id === undefined) {
      id = this.tagSets.length;
      this.tagSets.push(tags);
      this.tagSetIds.set(key, id);
    }
    return id;
  }

  private growWays(): void {
    const n = this.ids.length * 2;
    this.ids = grown(this.ids, n);
    this.refStart = grown(this.refStart, n + 1);
    const t = new Uint32Array(n);
    t.set(this.tagSet);
    this.tagSet = t;
    const q = new Uint16Array(n);
    q.set(this.seqs);
    this.seqs = q;
  }
}

function grown(a: Float64Array, size: number): Float64Array<ArrayBuffer> {
  const b = new Float64Array(size);
  b.set(a);
  return b;
}
