import type { Pack } from './reader.js';

/**
 * String table: `str.offs` (u32, count + 1 offsets) into `str.data` (UTF-8). String 0 is always "".
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

/** Reads strings of a pack's string table, decoding each on first use. */
export class StringTable {
  private cache: (string | undefined)[];
  private offs: Uint32Array;
  private data: Uint8Array;
  private dec = new TextDecoder();

  constructor(pack: Pack) {
    this.offs = pack.array<Uint32Array>('str.offs');
    this.data = pack.array<Uint8Array>('str.data');
    this.cache = new Array(this.offs.length - 1);
  }

  /** Number of strings. */
  get size(): number {
    return this.offs.length - 1;
  }

  /** The string with id `i` ("" for 0 or an id out of range). */
  get(i: number): string {
    if (i <= 0 || i >= this.offs.length - 1) return '';
    let s = this.cache[i];
    if (s === undefined) {
      s = this.dec.decode(this.data.subarray(this.offs[i]!, this.offs[i + 1]!));
      this.cache[i] = s;
    }
    return s;
  }
}
