import { PbfWriter } from 'pbf';

/** One SDF glyph in the MapLibre glyph protobuf: metrics in pixels at 24 px, bitmap (width+6)×(height+6) bytes. */
export interface SdfGlyph {
  id: number;
  bitmap: Uint8Array;
  width: number;
  height: number;
  left: number;
  top: number;
  advance: number;
}

/**
 * Encodes a glyph range as the MapLibre glyph protobuf:
 * `glyphs { stacks = 1: fontstack { name = 1, range = 2, glyphs = 3: glyph { id = 1, bitmap = 2, width = 3,
 * height = 4, left = 5 (sint32), top = 6 (sint32), advance = 7 } } }`.
 */
export function encodeGlyphRange(name: string, range: string, glyphs: readonly SdfGlyph[]): Uint8Array {
  const pbf = new PbfWriter();
  pbf.writeMessage(
    1,
    (_: unknown, stack: PbfWriter) => {
      stack.writeStringField(1, name);
      stack.writeStringField(2, range);
      for (const g of glyphs) {
        stack.writeMessage(
          3,
          (_g: unknown, w: PbfWriter) => {
            w.writeVarintField(1, g.id);
            if (g.bitmap.length > 0) w.writeBytesField(2, g.bitmap);
            w.writeVarintField(3, g.width);
            w.writeVarintField(4, g.height);
            w.writeSVarintField(5, g.left);
            w.writeSVarintField(6, g.top);
            w.writeVarintField(7, g.advance);
          },
          null,
        );
      }
    },
    null,
  );
  return pbf.finish();
}
