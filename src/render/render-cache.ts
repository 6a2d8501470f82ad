/**
 * What the renderer derives once and reuses between images: style plans, basemap indexes and decoded glyphs. An
 * engine owns one (so engines with different styles or packs never share or disturb each other's, and dropping the
 * engine frees it); tests and benches make their own.
 */
import type { Basemap } from '../map/basemap.js';
import { BasemapIndex } from './basemap-index.js';
import { GlyphFonts } from './glyph-font.js';
import { planStyle, type StylePlan } from './style-plan.js';

/** The renderer's derived state, held by its owner. */
export class RenderCache {
  /** Plans by style object (a style must not be mutated after it is first drawn). */
  private readonly plans = new WeakMap<object, StylePlan>();
  /** Spatial indexes by basemap (read-only pack data shared by region views). */
  private readonly indexes = new WeakMap<Basemap, BasemapIndex>();
  /** The shipped fonts' glyphs, decoded on first use. */
  readonly fonts = new GlyphFonts();

  /** The plan of a style JSON ({@link planStyle}), made on its first image. */
  plan(style: unknown): StylePlan {
    if (style === null || typeof style !== 'object') return planStyle(style);
    let plan = this.plans.get(style);
    if (!plan) this.plans.set(style, (plan = planStyle(style)));
    return plan;
  }

  /** The index of a basemap, built on its first image (tens of milliseconds for a city). */
  index(basemap: Basemap): BasemapIndex {
    let index = this.indexes.get(basemap);
    if (!index) this.indexes.set(basemap, (index = new BasemapIndex(basemap)));
    return index;
  }
}
