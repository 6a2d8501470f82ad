/**
 * Decoding of MapLibre SDF glyph PBFs (the `glyphs` URL of a style): `glyphs { stacks = 1: fontstack { name = 1,
 * range = 2, glyphs = 3: glyph { id = 1, bitmap = 2, width = 3, height = 4, left = 5 (sint32), top = 6 (sint32),
 * advance = 7 } } }`, with a hand-written protobuf reader (a few varint and length-delimited fields).
 *
 * Glyph metrics are pixels at GLYPH_EM; the bitmap is (width + 2 GLYPH_BORDER) x (height + 2 GLYPH_BORDER) bytes of
 * signed distance: 255 - 255 (d / SDF_RADIUS + SDF_CUTOFF), clamped, d the distance to the outline in pixels
 * (positive outside). `top` is the glyph's top above the baseline minus the font's ascender (fontnik's convention),
 * so rows are placed relative to the ascender line.
 */

/** Font size the glyphs are rendered at, pixels. */
export const GLYPH_EM = 24;
/** Border of SDF pixels around each glyph bitmap. */
export const GLYPH_BORDER = 3;
/** SDF radius, pixels at GLYPH_EM: a value step of 255 / SDF_RADIUS is one pixel of distance. */
export const SDF_RADIUS = 8;
/** Fraction of the value range inside the outline: the outline is at 255 (1 - cutoff). */
export const SDF_CUTOFF = 0.25;

/** One decoded glyph (metrics in pixels at GLYPH_EM). */
export interface SdfGlyph {
  readonly id: number;
  /** Outline box width and height (the bitmap has GLYPH_BORDER more on every side); 0 for blank glyphs. */
  readonly width: number;
  readonly height: number;
  /** Horizontal offset of the box from the pen position. */
  readonly left: number;
  /** The box top above the baseline minus the ascender (so the box top lies `-top` below the ascender line). */
  readonly top: number;
  /** Pen advance. */
  readonly advance: number;
  /** Signed-distance bytes, row-major, (width + 6) x (height + 6); empty for blank glyphs. */
  readonly bitmap: Uint8Array;
}

/** A protobuf reader over one message's bytes. */
class Reader {
  pos: number;
  constructor(
    readonly bytes: Uint8Array,
    start: number,
    readonly end: number,
  ) {
    this.pos = start;
  }

  varint(): number {
    let result = 0,
      shift = 0,
      b: number;
    do {
      if (this.pos >= this.end) throw new RangeError('truncated varint');
      b = this.bytes[this.pos++]!;
      result += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80 && shift < 64);
    return result;
  }

  /** Skips a field of wire type `wire`. */
  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) {
      const n = this.varint(); // read before `pos`: `pos += varint()` would add to the pre-varint position
      this.pos += n;
    } else if (wire === 5) this.pos += 4;
    else throw new RangeError(`unsupported wire type ${wire}`);
    if (this.pos > this.end) throw new RangeError('truncated field');
  }

  /** The [start, end) of a length-delimited field's bytes (after its tag), advancing past it. */
  span(): [number, number] {
    const n = this.varint();
    const start = this.pos;
    this.pos += n;
    if (this.pos > this.end) throw new RangeError('truncated field');
    return [start, this.pos];
  }
}

const zigzag = (n: number): number => (n % 2 === 1 ? -(n + 1) / 2 : n / 2);

/** Bytes of one entry of a glyph range's index (see {@link encodeGlyphIndex}): code point, start, end. */
const INDEX_ENTRY = 12;

/**
 * The glyphs of a glyph PBF by code point (all font stacks of the file merged, a later glyph of a code replacing an
 * earlier one), each decoded on its first lookup: a label needs a few dozen of a range's hundreds, and decoding them
 * all was most of a fresh engine's first image's glyph work. Never throws: a file damaged in its framing gives the
 * glyphs before the damage; a glyph damaged inside its own bytes is absent.
 *
 * Finding the glyphs' messages means reading every field of every glyph (about 250 a range): 1-1.5 ms a range in
 * the cold code of a fresh engine's first image. The shipped ranges come with that answer written beside them (an
 * index, {@link encodeGlyphIndex}), which a range given one looks up instead.
 */
export class GlyphRange {
  /** Each glyph's message [start, end) in `bytes` by code point, in file order; null when read from `index`. */
  private readonly spans: Map<number, [number, number]> | null = null;
  /** The index given; null when the file was read. */
  private readonly index: DataView | null = null;
  /** Glyphs decoded so far (null: its bytes are damaged). */
  private readonly decoded = new Map<number, SdfGlyph | null>();

  /**
   * @param index the file's index ({@link encodeGlyphIndex}), if it has one (not used unless made of whole
   *   entries). One that does not match the file gives fewer glyphs, never wrong ones: a span outside the file is
   *   not read, and a glyph whose id is not the code looked up is absent.
   */
  constructor(
    private readonly bytes: Uint8Array,
    index?: Uint8Array,
  ) {
    if (index && index.length % INDEX_ENTRY === 0)
      this.index = new DataView(index.buffer, index.byteOffset, index.byteLength);
    else this.spans = findSpans(bytes);
  }

  /** The code points of the file's glyphs, in file order (in code order when read from an index). */
  *codes(): IterableIterator<number> {
    if (this.spans) yield* this.spans.keys();
    else for (let at = 0; at < this.index!.byteLength; at += INDEX_ENTRY) yield this.index!.getUint32(at, true);
  }

  /** The glyph of a code point, decoded on its first lookup; undefined when the file has none (or a damaged one). */
  get(code: number): SdfGlyph | undefined {
    let glyph = this.decoded.get(code);
    if (glyph === undefined) {
      const span = this.span(code);
      if (!span) return undefined;
      try {
        glyph = readGlyph(new Reader(this.bytes, span[0], span[1]));
      } catch {
        glyph = null;
      }
      // An index that does not match its file gives no glyph rather than another code's.
      if (glyph && glyph.id !== code) glyph = null;
      this.decoded.set(code, glyph);
    }
    return glyph ?? undefined;
  }

  /** The [start, end) of the message of a code's glyph, by a binary search of the index or from the file's spans. */
  private span(code: number): [number, number] | undefined {
    if (this.spans) return this.spans.get(code);
    const index = this.index!;
    let lo = 0,
      hi = index.byteLength / INDEX_ENTRY;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = mid * INDEX_ENTRY;
      const c = index.getUint32(at, true);
      if (c === code) {
        const start = index.getUint32(at + 4, true),
          end = index.getUint32(at + 8, true);
        return start <= end && end <= this.bytes.length ? [start, end] : undefined;
      }
      if (c < code) lo = mid + 1;
      else hi = mid;
    }
    return undefined;
  }
}

/** Each glyph's message [start, end) by code point, read from the file (see GlyphRange: up to any damage). */
function findSpans(bytes: Uint8Array): Map<number, [number, number]> {
  const spans = new Map<number, [number, number]>();
  try {
    const top = new Reader(bytes, 0, bytes.length);
    while (top.pos < top.end) {
      const tag = top.varint();
      if (tag >> 3 !== 1 || (tag & 7) !== 2) {
        top.skip(tag & 7);
        continue;
      }
      const [s0, s1] = top.span();
      const stack = new Reader(bytes, s0, s1);
      while (stack.pos < stack.end) {
        const t = stack.varint();
        if (t >> 3 !== 3 || (t & 7) !== 2) {
          stack.skip(t & 7);
          continue;
        }
        const span = stack.span();
        const id = glyphId(new Reader(bytes, span[0], span[1]));
        if (id >= 0) spans.set(id, span);
      }
    }
  } catch {
    // Keep the glyphs found before the damage.
  }
  return spans;
}

/**
 * The index of a glyph PBF, shipped beside it (`<start>-<end>.idx`) so that a reader need not find its glyphs
 * itself: for each glyph, by ascending code point, three little-endian uint32s: the code point and the [start, end)
 * of its message in the file (the glyph {@link GlyphRange} reads for that code). 12 bytes a glyph.
 */
export function encodeGlyphIndex(bytes: Uint8Array): Uint8Array {
  const spans = [...findSpans(bytes)].sort((a, b) => a[0] - b[0]);
  const out = new Uint8Array(spans.length * INDEX_ENTRY);
  const view = new DataView(out.buffer);
  spans.forEach(([code, [start, end]], i) => {
    view.setUint32(i * INDEX_ENTRY, code, true);
    view.setUint32(i * INDEX_ENTRY + 4, start, true);
    view.setUint32(i * INDEX_ENTRY + 8, end, true);
  });
  return out;
}

/**
 * Decodes a glyph PBF into all its glyphs by code point (see GlyphRange: the glyphs before any damage to the file's
 * framing, less any damaged inside). Never throws.
 */
export function decodeGlyphs(bytes: Uint8Array): Map<number, SdfGlyph> {
  const range = new GlyphRange(bytes);
  const out = new Map<number, SdfGlyph>();
  for (const code of range.codes()) {
    const glyph = range.get(code);
    if (glyph) out.set(code, glyph);
  }
  return out;
}

/** The id (field 1, the last one as protobuf reads it) of a glyph message, -1 when it has none. */
function glyphId(r: Reader): number {
  let id = -1;
  while (r.pos < r.end) {
    const tag = r.varint();
    if (tag === ((1 << 3) | 0)) id = r.varint();
    else r.skip(tag & 7);
  }
  return id;
}

function readGlyph(r: Reader): SdfGlyph | null {
  let id = -1,
    width = 0,
    height = 0,
    left = 0,
    top = 0,
    advance = 0;
  let bitmap: Uint8Array = new Uint8Array(0);
  while (r.pos < r.end) {
    const tag = r.varint();
    const field = tag >> 3,
      wire = tag & 7;
    if (field === 2 && wire === 2) {
      const [a, b] = r.span();
      bitmap = r.bytes.subarray(a, b);
    } else if (wire === 0 && field >= 1 && field <= 7) {
      const v = r.varint();
      if (field === 1) id = v;
      else if (field === 3) width = v;
      else if (field === 4) height = v;
      else if (field === 5) left = zigzag(v);
      else if (field === 6) top = zigzag(v);
      else if (field === 7) advance = v;
    } else r.skip(wire);
  }
  if (id < 0) return null;
  // A bitmap of the wrong size cannot be sampled: keep the glyph's advance, draw nothing.
  if (bitmap.length !== (width + 2 * GLYPH_BORDER) * (height + 2 * GLYPH_BORDER))
    ((bitmap = new Uint8Array(0)), (width = 0), (height = 0));
  return { id, width, height, left, top, advance, bitmap };
}
