import { grown } from '../../grown.js';

/**
 * Writes Mapbox Vector Tile 2.1 layers straight from tile coordinates: a minimal protobuf writer and one layer's
 * key and value tables, features and geometry commands. Values follow vt-pbf's typing (strings, booleans, doubles
 * for fractional numbers, sint64 for negative integers, uint64 otherwise).
 */

/** Feature geometry types of the MVT spec. */
export const MvtType = { point: 1, line: 2, polygon: 3 } as const;

/** A growable protobuf byte buffer (wire types 0 varint, 1 64-bit and 2 length-delimited). */
class Proto {
  bytes = new Uint8Array(64);
  length = 0;

  private reserve(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.length + n, 2 * this.bytes.length));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  /** A non-negative integer below 2^53 as a varint. */
  varint(v: number): void {
    this.reserve(8);
    this.put(v);
  }

  /** A varint into room already reserved. */
  private put(v: number): void {
    const b = this.bytes;
    let at = this.length;
    while (v >= 0x80) {
      b[at++] = (v & 0x7f) | 0x80;
      v = v < 0x100000000 ? v >>> 7 : Math.floor(v / 128);
    }
    b[at++] = v;
    this.length = at;
  }

  tag(field: number, wire: number): void {
    this.varint(field * 8 + wire);
  }

  /** Field `field` holding `data` (length-delimited). */
  bytesField(field: number, data: Uint8Array): void {
    this.tag(field, 2);
    this.varint(data.length);
    this.reserve(data.length);
    this.bytes.set(data, this.length);
    this.length += data.length;
  }

  /**
   * Field `field` holding `s` as UTF-8 (length-delimited), encoded in place: tile strings are short, and a
   * TextEncoder call per string (an allocation and a native call each) cost a fifth of a city tile's cut.
   */
  stringField(field: number, s: string): void {
    const n = utf8Length(s);
    this.tag(field, 2);
    this.varint(n);
    this.reserve(n);
    const b = this.bytes;
    let at = this.length;
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
        const d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d < 0xe000) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          i++;
        }
      }
      if (c >= 0xd800 && c < 0xe000) c = 0xfffd; // a lone surrogate, as TextEncoder writes it
      if (c < 0x80) b[at++] = c;
      else if (c < 0x800) {
        b[at++] = 0xc0 | (c >> 6);
        b[at++] = 0x80 | (c & 0x3f);
      } else if (c < 0x10000) {
        b[at++] = 0xe0 | (c >> 12);
        b[at++] = 0x80 | ((c >> 6) & 0x3f);
        b[at++] = 0x80 | (c & 0x3f);
      } else {
        b[at++] = 0xf0 | (c >> 18);
        b[at++] = 0x80 | ((c >> 12) & 0x3f);
        b[at++] = 0x80 | ((c >> 6) & 0x3f);
        b[at++] = 0x80 | (c & 0x3f);
      }
    }
    this.length = at;
  }

  doubleField(field: number, v: number): void {
    this.tag(field, 1);
    this.reserve(8);
    new DataView(this.bytes.buffer).setFloat64(this.length, v, true);
    this.length += 8;
  }

  /** Field `field` holding `values[0 .. n)` as packed varints. */
  packed(field: number, values: Uint32Array, n: number): void {
    this.tag(field, 2);
    this.varint(packedSize(values, n));
    this.reserve(5 * n);
    for (let i = 0; i < n; i++) this.put(values[i]!);
  }

  /** Appends bytes already encoded (whole fields). */
  raw(data: Uint8Array): void {
    this.reserve(data.length);
    this.bytes.set(data, this.length);
    this.length += data.length;
  }

  finish(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

/** Bytes of `values[0 .. n)` (each below 2^32) as varints. */
function packedSize(values: Uint32Array, n: number): number {
  let size = n;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    size += v < 0x80 ? 0 : v < 0x4000 ? 1 : v < 0x200000 ? 2 : v < 0x10000000 ? 3 : 4;
  }
  return size;
}

/** Bytes of `s` in UTF-8 (a lone surrogate as U+FFFD's three bytes). */
function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d < 0xe000) {
        n += 2; // four bytes for two code units
        i++;
      } else n += 2;
    } else n += 2;
  }
  return n;
}

const zigzag = (v: number): number => (v < 0 ? -2 * v - 1 : 2 * v);
const command = (id: number, count: number): number => id | (count << 3);

/** Bytes of a varint. */
const varintSize = (v: number): number => (v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5);

/** Scratch of one encoded value message. */
const valueProto = new Proto();

/** A feature's property value as MVT writes it. */
export type MvtValue = string | number | boolean;

/**
 * Scratch of the feature under construction, shared by all layers (one feature is built at a time): its geometry
 * commands, its current part's points (x, y interleaved) and its tags.
 */
const scratch = {
  geom: new Uint32Array(1024),
  geomLength: 0,
  part: new Int32Array(1024),
  partLength: 0,
  tags: new Uint32Array(16),
};

/**
 * One layer under construction. Geometry is written part by part in integer tile coordinates: `moveTo` starts a
 * part, `lineTo` continues it (a point equal to the previous one is skipped), `endPart` writes it - a line with 2
 * distinct points or more, a polygon ring with 3 or more (a last point equal to the first is dropped: ClosePath
 * returns there) - and `endFeature` writes the feature when it kept any part.
 */
export class MvtLayer {
  private readonly keys = new Map<string, number>();
  private readonly values = new Map<MvtValue, number>();
  private readonly valueBytes = new Proto();
  private readonly features = new Proto();
  private tagCount = 0;
  /** Pen position: the last point written to the geometry. */
  private px = 0;
  private py = 0;
  private type = 0;
  /** Features written. */
  count = 0;

  constructor(
    readonly name: string,
    readonly extent: number,
  ) {}

  /** Starts a feature of geometry type `type` (MvtType) with its properties. */
  beginFeature(type: number, properties: Readonly<Record<string, MvtValue>>): void {
    this.type = type;
    scratch.geomLength = 0;
    this.tagCount = 0;
    this.px = this.py = 0;
    for (const key in properties) {
      if (this.tagCount + 2 > scratch.tags.length) scratch.tags = grown(scratch.tags, this.tagCount + 2);
      scratch.tags[this.tagCount++] = this.keyIndex(key);
      scratch.tags[this.tagCount++] = this.valueIndex(properties[key]!);
    }
  }

  /** Starts a part at (x, y), integer tile units. */
  moveTo(x: number, y: number): void {
    scratch.partLength = 0;
    this.push(x, y);
  }

  /** Continues the part to (x, y), integer tile units. */
  lineTo(x: number, y: number): void {
    const n = scratch.partLength;
    if (n > 0 && scratch.part[n - 2] === x && scratch.part[n - 1] === y) return;
    this.push(x, y);
  }

  private push(x: number, y: number): void {
    if (scratch.partLength + 2 > scratch.part.length) {
      const grown = new Int32Array(2 * scratch.part.length);
      grown.set(scratch.part);
      scratch.part = grown;
    }
    scratch.part[scratch.partLength++] = x;
    scratch.part[scratch.partLength++] = y;
  }

  /** Writes the current part (see the class); returns whether it was kept. */
  endPart(): boolean {
    const p = scratch.part;
    let n = scratch.partLength / 2;
    if (this.type === MvtType.point) {
      this.room(3);
      scratch.geom[scratch.geomLength++] = command(1, 1);
      this.writePoint(p[0]!, p[1]!);
      return true;
    }
    const ring = this.type === MvtType.polygon;
    if (ring && n > 1 && p[0] === p[2 * n - 2] && p[1] === p[2 * n - 1]) n--;
    if (n < (ring ? 3 : 2)) return false;
    this.room(2 * n + 3);
    scratch.geom[scratch.geomLength++] = command(1, 1);
    this.writePoint(p[0]!, p[1]!);
    scratch.geom[scratch.geomLength++] = command(2, n - 1);
    for (let i = 1; i < n; i++) this.writePoint(p[2 * i]!, p[2 * i + 1]!);
    if (ring) scratch.geom[scratch.geomLength++] = command(7, 1);
    return true;
  }

  private writePoint(x: number, y: number): void {
    scratch.geom[scratch.geomLength++] = zigzag(x - this.px);
    scratch.geom[scratch.geomLength++] = zigzag(y - this.py);
    this.px = x;
    this.py = y;
  }

  /**
   * Twice the signed area of the current part (shoelace, tile units; positive for the clockwise rings of MVT's
   * exterior rings, y pointing down).
   */
  partArea(): number {
    const p = scratch.part,
      n = scratch.partLength / 2;
    let a = 0;
    for (let i = 0, j = n - 1; i < n; j = i++) a += p[2 * j]! * p[2 * i + 1]! - p[2 * i]! * p[2 * j + 1]!;
    return a;
  }

  /** Reverses the current part's points (to wind a ring as MVT requires). */
  reversePart(): void {
    const p = scratch.part;
    for (let i = 0, j = scratch.partLength - 2; i < j; i += 2, j -= 2) {
      const x = p[i]!,
        y = p[i + 1]!;
      p[i] = p[j]!;
      p[i + 1] = p[j + 1]!;
      p[j] = x;
      p[j + 1] = y;
    }
  }

  /** Writes the feature when it kept any geometry; returns whether it did. */
  endFeature(): boolean {
    if (scratch.geomLength === 0) return false;
    // Feature: tags (2, packed), type (3), geometry (4, packed), written in place after its length.
    const tags = packedSize(scratch.tags, this.tagCount),
      geom = packedSize(scratch.geom, scratch.geomLength);
    const size = 1 + varintSize(tags) + tags + 2 + 1 + varintSize(geom) + geom;
    const out = this.features;
    out.tag(2, 2);
    out.varint(size);
    out.packed(2, scratch.tags, this.tagCount);
    out.tag(3, 0);
    out.varint(this.type);
    out.packed(4, scratch.geom, scratch.geomLength);
    this.count++;
    return true;
  }

  /** The layer message (to be written as field 3 of the tile). */
  finish(): Uint8Array {
    const out = new Proto();
    out.tag(15, 0);
    out.varint(2);
    out.stringField(1, this.name);
    out.raw(this.features.finish());
    for (const key of this.keys.keys()) out.stringField(3, key);
    out.raw(this.valueBytes.finish());
    out.tag(5, 0);
    out.varint(this.extent);
    return out.finish();
  }

  private room(n: number): void {
    if (scratch.geomLength + n > scratch.geom.length) scratch.geom = grown(scratch.geom, scratch.geomLength + n);
  }

  private keyIndex(key: string): number {
    let i = this.keys.get(key);
    if (i === undefined) this.keys.set(key, (i = this.keys.size));
    return i;
  }

  private valueIndex(v: MvtValue): number {
    // Map keys keep strings, numbers and booleans apart ('1', 1 and true are three values).
    let i = this.values.get(v);
    if (i !== undefined) return i;
    this.values.set(v, (i = this.values.size));
    const value = valueProto;
    value.length = 0;
    if (typeof v === 'string') value.stringField(1, v);
    else if (typeof v === 'boolean') (value.tag(7, 0), value.varint(v ? 1 : 0));
    else if (v % 1 !== 0) value.doubleField(3, v);
    else if (v < 0) (value.tag(6, 0), value.varint(zigzag(v)));
    else (value.tag(5, 0), value.varint(v));
    this.valueBytes.bytesField(4, value.finish());
    return i;
  }
}

/** The tile message of its layers (each from {@link MvtLayer.finish}). */
export function mvtTile(layers: readonly Uint8Array[]): Uint8Array {
  const out = new Proto();
  for (const l of layers) out.bytesField(3, l);
  return out.finish().slice();
}
