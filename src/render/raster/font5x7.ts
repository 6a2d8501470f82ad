/**
 * A 5x7 bitmap font for ASCII 0x20..0x7E plus the copyright sign, enough for attribution text.
 *
 * Each glyph is a hex string of column bytes, left to right; bit 0 of a column is the top row, bit 6 the bottom.
 * Glyphs are 5 columns wide except the copyright sign (7). Characters without a glyph draw as '?'.
 * Vietnamese labels need a real font with diacritics; this table deliberately covers Latin basics only.
 */

/** Glyph rows, pixels. */
export const GLYPH_HEIGHT = 7;

/** Column bytes of ASCII 0x20..0x7E, 5 columns (10 hex digits) each. */
const ASCII =
  '0000000000' +
  '00005f0000' +
  '0007000700' +
  '147f147f14' +
  '242a7f2a12' +
  '2313086462' +
  '3649552250' +
  '0005030000' +
  '001c224100' +
  '0041221c00' +
  '082a1c2a08' +
  '08083e0808' +
  '0050300000' +
  '0808080808' +
  '0060600000' +
  '2010080402' +
  '3e5149453e' +
  '00427f4000' +
  '4261514946' +
  '2141454b31' +
  '1814127f10' +
  '2745454539' +
  '3c4a494930' +
  '0171090503' +
  '3649494936' +
  '064949291e' +
  '0036360000' +
  '0056360000' +
  '0814224100' +
  '1414141414' +
  '0041221408' +
  '0201510906' +
  '324979413e' +
  '7e1111117e' +
  '7f49494936' +
  '3e41414122' +
  '7f4141221c' +
  '7f49494941' +
  '7f09090101' +
  '3e41415132' +
  '7f0808087f' +
  '00417f4100' +
  '2040413f01' +
  '7f08142241' +
  '7f40404040' +
  '7f0204027f' +
  '7f0408107f' +
  '3e4141413e' +
  '7f09090906' +
  '3e4151215e' +
  '7f09192946' +
  '4649494931' +
  '01017f0101' +
  '3f4040403f' +
  '1f2040201f' +
  '7f2018207f' +
  '6314081463' +
  '0304780403' +
  '6151494543' +
  '007f414100' +
  '0204081020' +
  '0041417f00' +
  '0402010204' +
  '4040404040' +
  '0001020400' +
  '2054545478' +
  '7f48444438' +
  '3844444420' +
  '384444487f' +
  '3854545418' +
  '087e090102' +
  '081454543c' +
  '7f08040478' +
  '00447d4000' +
  '2040443d00' +
  '007f102844' +
  '00417f4000' +
  '7c04180478' +
  '7c08040478' +
  '3844444438' +
  '7c14141408' +
  '081414187c' +
  '7c08040408' +
  '4854545420' +
  '043f444020' +
  '3c4040207c' +
  '1c2040201c' +
  '3c4030403c' +
  '4428102844' +
  '0c5050503c' +
  '4464544c44' +
  '0008364100' +
  '00007f0000' +
  '0041360800' +
  '0804081008';

/** Column bytes of the copyright sign: a ring with a small C inside. */
const COPYRIGHT: readonly number[] = [0x1c, 0x22, 0x5d, 0x55, 0x55, 0x22, 0x1c];

/** Decoded column bytes of ASCII 0x20..0x7E, 5 per glyph. */
const TABLE = Uint8Array.from(ASCII.match(/../g)!, (h) => parseInt(h, 16));

/**
 * Column bytes of the glyph for one UTF-16 code unit (pixels are set where bits are 1; bit 0 = top row).
 * @param code character code
 */
export function glyphColumns(code: number): ArrayLike<number> {
  if (code === 0xa9) return COPYRIGHT;
  const index = code >= 0x20 && code <= 0x7e ? code - 0x20 : 0x3f - 0x20;
  return TABLE.subarray(index * 5, index * 5 + 5);
}
