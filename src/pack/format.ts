/**
 * Pack file format, versions 1 and 2. All numbers little-endian.
 *
 *   offset  size  field
 *   0       8     magic "BANDOPAK"
 *   8       4     format version (u32) = 1
 *   12      4     section count (u32)
 *   16      4     CRC-32 of bytes 0..15 followed by the whole section table
 *   20      4     total file length in bytes (u32), so truncation is detected before any section is read
 *   24      48*n  section table, one entry per section:
 *                   0  24  name, ASCII, NUL padded (e.g. "graph.edge.len")
 *                   24  4  element type (ElementType)
 *                   28  4  byte offset from the start of the file (multiple of 8)
 *                   32  4  byte length
 *                   36  4  CRC-32 of the section bytes
 *                   40  8  reserved, zero
 *   ...           sections, each starting on an 8-byte boundary, zero padding between them
 *
 * Version 2 is version 1 with the total length (bytes 20..23) and the section offsets (entry bytes 28..31) counted in
 * 8-byte units, so a pack can reach 32 GiB (a country with hierarchies); section lengths stay bytes, at most 4 GiB each.
 * It is written only for packs past 4 GiB, so every smaller pack stays a version 1 pack, byte for byte. Such a pack
 * is bigger than one ArrayBuffer holds (Node 20: 4 GiB): it is opened from its file, section by section (Pack.lazy).
 *
 * Every section is one typed array (or a UTF-8 / raw byte blob), so a reader opens it in place with
 * `new Int32Array(buffer, offset, length / 4)`: no parsing, no copies. The same layout is what a WebAssembly core
 * copies into its linear memory.
 */
export const MAGIC = 'BANDOPAK';
export const FORMAT_VERSION = 1;
/** The version written for packs past 4 GiB: offsets and length counted in ALIGN-byte units. */
export const LARGE_FORMAT_VERSION = 2;
/** Largest pack (bytes) whose length and offsets fit version 1's 32-bit fields. */
export const SMALL_FORMAT_MAX_BYTES = 0xffffffff;
export const HEADER_BYTES = 24;
export const ENTRY_BYTES = 48;
export const NAME_BYTES = 24;
export const ALIGN = 8;

/** Element types of sections; the number is stored in the section table. */
export const ElementType = {
  bytes: 1,
  u8: 2,
  i8: 3,
  u16: 4,
  i16: 5,
  u32: 6,
  i32: 7,
  f32: 8,
  f64: 9,
  utf8: 10,
} as const;

export type TypedArray =
  Uint8Array | Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | Float32Array | Float64Array;

/** Constructors by element type, for zero-copy views. */
export const ARRAY_CTORS: Record<
  number,
  { new (b: ArrayBuffer, o: number, l: number): TypedArray; BYTES_PER_ELEMENT: number }
> = {
  [ElementType.bytes]: Uint8Array,
  [ElementType.u8]: Uint8Array,
  [ElementType.i8]: Int8Array,
  [ElementType.u16]: Uint16Array,
  [ElementType.i16]: Int16Array,
  [ElementType.u32]: Uint32Array,
  [ElementType.i32]: Int32Array,
  [ElementType.f32]: Float32Array,
  [ElementType.f64]: Float64Array,
  [ElementType.utf8]: Uint8Array,
};

/** Element type of a typed array instance. */
export function elementTypeOf(a: TypedArray): number {
  if (a instanceof Uint8Array) return ElementType.u8;
  if (a instanceof Int8Array) return ElementType.i8;
  if (a instanceof Uint16Array) return ElementType.u16;
  if (a instanceof Int16Array) return ElementType.i16;
  if (a instanceof Uint32Array) return ElementType.u32;
  if (a instanceof Int32Array) return ElementType.i32;
  if (a instanceof Float32Array) return ElementType.f32;
  return ElementType.f64;
}

/** Coordinates are stored as int32 in units of 1e-7 degree (OSM's own precision, about 1 cm). */
export const COORD_SCALE = 1e7;
