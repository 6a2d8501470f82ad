/**
 * A tiny protobuf wire-format reader for the OSM PBF decoder: varints, zigzag, int64, length-delimited
 * ranges and field skipping. It reads in place over a byte array and never allocates while reading numbers.
 *
 * Numbers are JavaScript doubles: values up to 2^53 are exact, which covers OSM ids, coordinates in
 * nanodegrees and timestamps. Reading past the end of the current range throws a {@link ProtoError}, so a
 * caller can tell corrupt input apart from errors raised by its own callbacks.
 */

/** Thrown for malformed or truncated protobuf data. */
export class ProtoError extends Error {
  override name = 'ProtoError';
}

/** Protobuf wire types used by the OSM PBF format. */
export const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
const WIRE_FIXED32 = 5;

const TWO_32 = 4294967296;

export class ProtoReader {
  /** The bytes being read. */
  buf: Uint8Array;
  /** Current read position (byte index into `buf`). */
  pos: number;
  /** End of the readable range (exclusive byte index). */
  end: number;

  constructor(buf: Uint8Array, pos = 0, end = buf.length) {
    this.buf = buf;
    this.pos = pos;
    this.end = end;
  }

  /** Points the reader at bytes [pos, end) of `buf`, so one reader can be reused without allocating. */
  reset(buf: Uint8Array, pos: number, end: number): this {
    this.buf = buf;
    this.pos = pos;
    this.end = end;
    return this;
  }

  /** True when the whole range has been consumed. */
  done(): boolean {
    return this.pos >= this.end;
  }

  /** An unsigned varint (uint32/uint64/enum/key), exact up to 2^53. */
  varint(): number {
    const buf = this.buf;
    const end = this.end;
    let p = this.pos;
    if (p >= end) throw new ProtoError('message ends inside a varint');
    let byte = buf[p++]!;
    if (byte < 0x80) {
      this.pos = p;
      return byte;
    }
    let result = byte & 0x7f;
    let mul = 128;
    for (let i = 1; i < 10; i++) {
      if (p >= end) throw new ProtoError('message ends inside a varint');
      byte = buf[p++]!;
      result += (byte & 0x7f) * mul;
      if (byte < 0x80) {
        this.pos = p;
        return result;
      }
      mul *= 128;
    }
    throw new ProtoError('varint longer than 10 bytes');
  }

  /** A zigzag-encoded signed varint (sint32/sint64). */
  svarint(): number {
    const n = this.varint();
    // Bit tricks only work below 2^31; larger values use exact double arithmetic.
    if (n < 0x80000000) return (n >>> 1) ^ -(n & 1);
    return n % 2 === 0 ? n / 2 : -(n + 1) / 2;
  }

  /**
   * A two's-complement signed varint (int32/int64). Negative values are encoded in 10 bytes; they are
   * decoded via separate low and high 32-bit halves so small negative numbers stay exact.
   */
  int64(): number {
    const buf = this.buf;
    const end = this.end;
    let p = this.pos;
    let lo = 0;
    let hi = 0;
    let shift = 0;
    let byte = 0x80;
    for (let i = 0; i < 10 && byte >= 0x80; i++) {
      if (p >= end) throw new ProtoError('message ends inside a varint');
      byte = buf[p++]!;
      const bits = byte & 0x7f;
      if (shift < 28) lo |= bits << shift;
      else if (shift === 28) {
        lo |= (bits & 0x0f) << 28;
        hi |= bits >>> 4;
      } else hi |= bits << (shift - 32);
      shift += 7;
    }
    if (byte >= 0x80) throw new ProtoError('varint longer than 10 bytes');
    this.pos = p;
    lo >>>= 0;
    if (hi & 0x80000000) return -((~hi >>> 0) * TWO_32 + (~lo >>> 0) + 1);
    return (hi >>> 0) * TWO_32 + lo;
  }

  /** Reads a length prefix and returns the end index of the length-delimited value that follows. */
  lengthEnd(): number {
    const len = this.varint();
    const e = this.pos + len;
    if (e > this.end) throw new ProtoError(`length-delimited field of ${len} bytes runs past the end of its message`);
    return e;
  }

  /** Skips one field value of the given wire type. */
  skip(wire: number): void {
    switch (wire) {
      case WIRE_VARINT:
        this.varint();
        return;
      case WIRE_FIXED64:
        this.advance(8);
        return;
      case WIRE_BYTES:
        this.pos = this.lengthEnd();
        return;
      case WIRE_FIXED32:
        this.advance(4);
        return;
      default:
        throw new ProtoError(`unsupported wire type ${wire}`);
    }
  }

  private advance(n: number): void {
    if (this.pos + n > this.end) throw new ProtoError('message ends inside a fixed-size field');
    this.pos += n;
  }
}
