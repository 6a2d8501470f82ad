import { readOffsets, type Offsets } from './offsets.js';
import type { Pack } from './reader.js';

/**
 * String table: `str.offs` (count + 1 offsets: an Offsets column, offsets.ts) into `str.data` (UTF-8). String 0 is
 * always "".
 */
export class StringTableBuilder {
  private ids = new Map<string, number>();
  private list: string[] = [''];

  constructor() {
    this.ids.set('', 0);
  }

  /** Id of `s`, adding it when new. Ids follow first use, so a deterministic build gives the same ids. */
  intern(s: string | undefined | null): number {
    if (!s) return 0;
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.list.length;
      this.list.push(s);
      this.ids.set(s, id);
    }
    return id;
  }

  /** Encodes the table into its two sections. */
  finish(): { offs: Uint32Array; data: Uint8Array } {
    const enc = new TextEncoder();
    const parts = this.list.map((s) => enc.encode(s));
    const offs = new Uint32Array(parts.length + 1);
    for (let i = 0; i < parts.length; i++) offs[i + 1] = offs[i]! + parts[i]!.length;
    const data = new Uint8Array(offs[parts.length]!);
    parts.forEach((p, i) => data.set(p, offs[i]!));
    return { offs, data };
  }
}

/**
 * Strings a StringTable keeps decoded, at most (a power of two). A server keeps its tables for its whole life and its
 * answers, tiles and one-off scans (every place's name, read once at start) ask for ever more of the ids, so keeping
 * each decoded string would hold the whole table as JavaScript strings (≈ 1 MB of heap per thread on whole HCMC, tens
 * of MB for a country); a repeated id (a street's name along a route, a label on every tile of its area) is mostly
 * one asked again soon.
 */
const CACHE_SLOTS = 4096;

/** Reads strings of a pack's string table, decoding each when asked and keeping the last few thousand decoded. */
export class StringTable {
  /** Direct-mapped cache: slot id & (CACHE_SLOTS - 1) holds string `cachedId[slot]` (0: none) as `cached[slot]`. */
  private readonly cachedId = new Int32Array(CACHE_SLOTS);
  private readonly cached: string[] = new Array<string>(CACHE_SLOTS).fill('');
  private readonly offs: Offsets;
  private readonly data: Uint8Array;
  private dec = new TextDecoder();

  constructor(pack: Pack) {
    this.data = pack.array<Uint8Array>('str.data');
    this.offs = readOffsets(pack, 'str.offs', { end: this.data.length });
  }

  /** Number of strings. */
  get size(): number {
    return this.offs.length - 1;
  }

  /** True when id `i` names a string that is not empty (without decoding it). */
  has(i: number): boolean {
    return i > 0 && i < this.offs.length - 1 && this.offs.at(i + 1) > this.offs.at(i);
  }

  /** The string with id `i` ("" for 0 or an id out of range). */
  get(i: number): string {
    if (i <= 0 || i >= this.offs.length - 1) return '';
    const slot = i & (CACHE_SLOTS - 1);
    if (this.cachedId[slot] === i) return this.cached[slot]!;
    const s = this.dec.decode(this.data.subarray(this.offs.at(i), this.offs.at(i + 1)));
    this.cachedId[slot] = i;
    this.cached[slot] = s;
    return s;
  }
}
