import { readFileSync } from 'node:fs';
import { PbfReader } from 'pbf';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { GLYPH_FONTS, GLYPH_RANGES, glyphRange, loadFonts } from '../data-tools/glyphs.js';
import { drawSprite, ICONS } from '../data-tools/sprites.js';
import { glyphIndex, glyphs, GLYPH_FONTSTACKS } from '../src/map/glyphs.js';
import { encodeGlyphIndex } from '../src/render/raster/index.js';
import { sprite } from '../src/map/sprites.js';

interface Glyph {
  id: number;
  bitmap?: Uint8Array;
  width: number;
  height: number;
  left: number;
  top: number;
  advance: number;
}

/** Decodes a glyph PBF with pbf (field numbers of the MapLibre glyph proto). */
function decodeGlyphs(bytes: Uint8Array): { name: string; range: string; glyphs: Map<number, Glyph> } {
  const out = { name: '', range: '', glyphs: new Map<number, Glyph>() };
  new PbfReader(bytes).readFields((tag, _, pbf) => {
    if (tag !== 1) return;
    pbf.readMessage((t, _r, p) => {
      if (t === 1) out.name = p.readString();
      else if (t === 2) out.range = p.readString();
      else if (t === 3) {
        const g = p.readMessage(
          (f, gl: Glyph, q) => {
            if (f === 1) gl.id = q.readVarint();
            else if (f === 2) gl.bitmap = q.readBytes();
            else if (f === 3) gl.width = q.readVarint();
            else if (f === 4) gl.height = q.readVarint();
            else if (f === 5) gl.left = q.readSVarint();
            else if (f === 6) gl.top = q.readSVarint();
            else if (f === 7) gl.advance = q.readVarint();
          },
          { id: 0, width: 0, height: 0, left: 0, top: 0, advance: 0 } as Glyph,
        );
        out.glyphs.set(g.id, g);
      }
    }, null);
  }, null);
  return out;
}

const ok = <T extends { ok: boolean }>(r: T) => {
  expect(r.ok).toBe(true);
  return r as Extract<T, { ok: true }>;
};

describe('glyph PBFs', () => {
  it('cover every character of Vietnamese street names, with SDF bitmaps of the declared size', () => {
    const text = 'Đường Hàng Bài ơ ư ă đ Phố Huế Nguyễn Trãi ỹ ự ẫ ặ “Hồ” – 1₫';
    for (const font of GLYPH_FONTSTACKS) {
      for (const ch of new Set(text)) {
        const code = ch.codePointAt(0)!;
        const start = code - (code % 256);
        const range = decodeGlyphs(ok(glyphs(font, `${start}-${start + 255}`)).bytes);
        expect(range.name).toBe(font);
        expect(range.range).toBe(`${start}-${start + 255}`);
        const g = range.glyphs.get(code);
        expect(g, `${font} ${ch}`).toBeDefined();
        expect(g!.advance).toBeGreaterThan(0);
        if (ch === ' ') continue;
        expect(g!.bitmap!.length).toBe((g!.width + 6) * (g!.height + 6));
        // SDF: the edge is at 191; some pixels are inside the glyph and the border is outside.
        expect(Math.max(...g!.bitmap!)).toBeGreaterThan(191);
        expect(g!.bitmap![0]).toBeLessThan(191);
      }
    }
  });

  it('are deterministic and current: regenerating a range gives the committed bytes', () => {
    const name = 'Noto Sans Regular';
    const fresh = glyphRange(name, loadFonts(GLYPH_FONTS[name]!), 256);
    expect(Buffer.from(fresh).equals(Buffer.from(ok(glyphs(name, '256-511')).bytes))).toBe(true);
  });

  it('each range has beside it the index of its glyphs (the one the generator writes)', () => {
    for (const font of GLYPH_FONTSTACKS) {
      for (const start of GLYPH_RANGES) {
        const range = `${start}-${start + 255}`;
        const index = glyphIndex(font, range);
        expect(index, `${font} ${range}`).not.toBeNull();
        expect(Buffer.from(index!).equals(Buffer.from(encodeGlyphIndex(ok(glyphs(font, range)).bytes)))).toBe(true);
      }
    }
    expect(glyphIndex('Noto Sans Regular', '19968-20223')).toBeNull();
  });

  it('metrics follow the glyph geometry: "l" is tall and thin, "m" wide, "." sits on the baseline', () => {
    const r = decodeGlyphs(ok(glyphs('Noto Sans Regular', '0-255')).bytes).glyphs;
    const l = r.get(108)!,
      m = r.get(109)!,
      dot = r.get(46)!;
    expect(l.height).toBeGreaterThan(3 * l.width);
    expect(m.advance).toBeGreaterThan(2 * l.advance);
    // top is measured from the ascender; the dot's top lies far below the l's.
    expect(l.top - dot.top).toBeGreaterThan(10);
  });

  it('picks the first shipped font of a stack, answers empty ranges, and rejects bad ranges', () => {
    const a = ok(glyphs('Noto Sans Bold,Arial Unicode MS Regular', '0-255')).bytes;
    expect(decodeGlyphs(a).name).toBe('Noto Sans Bold');
    expect(decodeGlyphs(ok(glyphs('Unknown Font', '0-255')).bytes).name).toBe('Noto Sans Regular');
    const cjk = decodeGlyphs(ok(glyphs('Noto Sans Regular', '19968-20223')).bytes);
    expect(cjk).toEqual({ name: 'Noto Sans Regular', range: '19968-20223', glyphs: new Map() });
    for (const bad of ['0-256', '1-256', 'abc', '65536-65791', '']) {
      const r = glyphs('Noto Sans Regular', bad);
      expect(r.ok).toBe(false);
      expect((r as { error: string }).error).toMatch(/^range/);
    }
  });
});

describe('sprite', () => {
  for (const [name, ratio] of [
    ['default', 1],
    ['default@2x', 2],
  ] as const) {
    it(`${name}: every JSON entry fits in the PNG and its centre is opaque`, () => {
      const index = JSON.parse(new TextDecoder().decode(ok(sprite(name, 'json')).bytes)) as Record<
        string,
        { x: number; y: number; width: number; height: number; pixelRatio: number }
      >;
      const png = PNG.sync.read(Buffer.from(ok(sprite(name, 'png')).bytes));
      expect(Object.keys(index).sort()).toEqual(['destination', 'origin', 'poi', 'waypoint']);
      for (const [icon, e] of Object.entries(index)) {
        expect(e.pixelRatio).toBe(ratio);
        expect(e.x >= 0 && e.y >= 0 && e.x + e.width <= png.width && e.y + e.height <= png.height, icon).toBe(true);
        const cx = e.x + Math.floor(e.width / 2),
          cy = e.y + Math.floor(e.height / (icon === 'destination' ? 3 : 2));
        expect(png.data[(cy * png.width + cx) * 4 + 3], icon).toBe(255);
        expect(png.data[(e.y * png.width + e.x) * 4 + 3], `${icon} corner`).toBe(0);
      }
    });
  }

  it('the committed files are what the generator draws', () => {
    const { png, index } = drawSprite(ICONS, 2);
    expect(Buffer.from(png).equals(readFileSync(new URL('../assets/sprites/default@2x.png', import.meta.url)))).toBe(
      true,
    );
    expect(JSON.parse(new TextDecoder().decode(ok(sprite('default@2x', 'json')).bytes))).toEqual(index);
  });

  it('rejects unknown sprites and extensions, naming the parameter', () => {
    expect(sprite('other', 'png')).toMatchObject({ ok: false, error: expect.stringMatching(/^sprite must/) });
    expect(sprite('default', 'svg')).toMatchObject({ ok: false, error: expect.stringMatching(/extension/) });
    expect(sprite('../x', 'json').ok).toBe(false);
  });
});
