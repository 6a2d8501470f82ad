/**
 * What the renderer derives once and reuses between images: style plans and decoded glyphs. An engine owns one (so
 * engines with different styles never share or disturb each other's, and dropping the engine frees it); tests and
 * benches make their own. Basemap indexes are derived from the pack alone and shared with the tile source
 * (basemap-index.ts `basemapIndex`).
 */
import { GlyphFonts } from './glyph-font.js';
import { planStyle, type StylePlan } from './style-plan.js';

/** The renderer's derived state, held by its owner. */
export class RenderCache {
  /** Plans by style object (a style must not be mutated after it is first drawn). */
  private readonly plans = new WeakMap<object, StylePlan>();
  /** The shipped fonts' glyphs, decoded on first use. */
  readonly fonts = new GlyphFonts();

  /** The plan of a style JSON ({@link planStyle}), made on its first image. */
  plan(style: unknown): StylePlan {
    if (style === null || typeof style !== 'object') return planStyle(style);
    let plan = this.plans.get(style);
    if (!plan) this.plans.set(style, (plan = planStyle(style)));
    return plan;
  }
}
