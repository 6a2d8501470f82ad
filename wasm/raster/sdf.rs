//! Text coverage from SDF glyphs, as src/render/raster/sdf-text.ts `accumulate` computes it (to the same values):
//! each destination pixel samples a glyph's distance field bilinearly; the outline grown by `grow` pixels is
//! max-accumulated into the mask, and the ungrown outline's coverage may be kept for a second pass (text over its
//! halo).

use crate::composite::Mask;
use crate::js::{max, min};

const MIN_COVERAGE: f64 = 1.0 / 512.0;

/// A label's glyphs: per glyph u0, v0 (the bitmap's top-left in text space, glyph pixels from the label's centre),
/// bitmap width and height (border included); the bitmaps one after another.
pub struct Run<'a> {
    pub glyphs: &'a [f64],
    pub bitmaps: &'a [u8],
}

/// Where a label lies: centre (pixels), pixels per glyph pixel, baseline direction (cos, sin), outline growth
/// (pixels), the distance-field value of the outline and pixels per value step.
pub struct Placement {
    pub cx: f64,
    pub cy: f64,
    pub scale: f64,
    pub ux: f64,
    pub uy: f64,
    pub grow: f64,
    pub edge: f64,
    pub dist_scale: f64,
}

/// The integer x whose coordinate b + x step lies in [0, limit] (lo > hi when none), as sdf-text.ts `sampleRange`.
fn sample_range(b: f64, step: f64, limit: f64) -> (f64, f64) {
    if step > 1e-12 {
        ((-b / step).ceil(), ((limit - b) / step).floor())
    } else if step < -1e-12 {
        (((limit - b) / step).ceil(), (-b / step).floor())
    } else if b < 0.0 || b > limit {
        (0.0, -1.0)
    } else {
        (f64::NEG_INFINITY, f64::INFINITY)
    }
}

/// `v` clamped to [0, limit].
#[inline(always)]
fn within(v: f64, limit: f64) -> f64 {
    if v < 0.0 {
        0.0
    } else if v > limit {
        limit
    } else {
        v
    }
}

/// The first and last row of a canvas `height` pixels high that `accumulate` draws the run on (the union of its
/// glyphs' rows), or None when none.
pub fn rows(run: &Run, at: &Placement, height: usize) -> Option<(usize, usize)> {
    let (mut first, mut last) = (f64::INFINITY, f64::NEG_INFINITY);
    for g in run.glyphs.chunks_exact(4) {
        let (y0, y1) = glyph_rows(g, at, height as f64);
        if y0 <= y1 {
            first = if y0 < first { y0 } else { first };
            last = if y1 > last { y1 } else { last };
        }
    }
    if first <= last {
        Some((first as usize, last as usize))
    } else {
        None
    }
}

/// The rows (first, last; none when not first <= last) a glyph (u0, v0, bitmap width and height) covers.
fn glyph_rows(g: &[f64], at: &Placement, hf: f64) -> (f64, f64) {
    let (u0, v0, bw, bh) = (g[0], g[1], g[2], g[3]);
    let (ux, uy, scale, cy) = (at.ux, at.uy, at.scale, at.cy);
    let (yu0, yu1, yv0, yv1) = (u0 * uy, (u0 + bw) * uy, v0 * ux, (v0 + bh) * ux);
    let min_y = cy + scale * (min(yu0, yu1) + min(yv0, yv1));
    let max_y = cy + scale * (max(yu0, yu1) + max(yv0, yv1));
    (max(0.0, min_y.floor()), min(hf - 1.0, max_y.ceil()))
}

/// Max-accumulates the run's coverage into `mask`, whose window holds the run's rows (see `rows`); with `text`,
/// also records the ungrown outline's coverage there (indices within the window).
pub fn accumulate(mask: &mut Mask, mut text: Option<&mut Vec<(u32, f32)>>, run: &Run, at: &Placement) {
    let (ux, uy, scale, cx, cy) = (at.ux, at.uy, at.scale, at.cx, at.cy);
    let w = mask.width;
    let (wf, hf) = (mask.width as f64, mask.height as f64);
    let inv = 1.0 / scale;
    let sx = ux * inv;
    let sy = -uy * inv;
    let mut offset = 0usize;
    for g in run.glyphs.chunks_exact(4) {
        let (u0, v0, bw, bh) = (g[0], g[1], g[2], g[3]);
        let bmp = &run.bitmaps[offset..offset + (bw * bh) as usize];
        offset += (bw * bh) as usize;
        let bwi = bw as usize;
        let (y0, y1) = glyph_rows(g, at, hf);
        let mut yf = y0;
        while yf <= y1 {
            let y = yf;
            yf += 1.0;
            let dy = y + 0.5 - cy;
            let bx0 = ((0.5 - cx) * ux + dy * uy) * inv - u0 - 0.5;
            let by0 = (dy * ux - (0.5 - cx) * uy) * inv - v0 - 0.5;
            let xr = sample_range(bx0, sx, bw - 1.0);
            let yr = sample_range(by0, sy, bh - 1.0);
            let lo = max(max(0.0, xr.0), yr.0);
            let hi = min(min(wf - 1.0, xr.1), yr.1);
            if !(lo <= hi) {
                continue;
            }
            let mut bx = bx0 + lo * sx;
            let mut by = by0 + lo * sy;
            let row = (y as usize - mask.row0) * w;
            for x in lo as usize..=hi as usize {
                let (cbx, cby) = (bx, by);
                bx += sx;
                by += sy;
                // Rounding at the range ends can step a hair outside the bitmap.
                let (cxs, cys) = (within(cbx, bw - 1.0), within(cby, bh - 1.0));
                let (ixf, iyf) = (cxs.floor(), cys.floor());
                let (fx, fy) = (cxs - ixf, cys - iyf);
                let (ix, iy) = (ixf as usize, iyf as usize);
                let i = iy * bwi + ix;
                let ix1 = if ix + 1 < bwi { 1 } else { 0 };
                let iy1 = if iy + 1 < bh as usize { bwi } else { 0 };
                let (a, b) = (bmp[i] as f64, bmp[i + ix1] as f64);
                let (c, d) = (bmp[i + iy1] as f64, bmp[i + iy1 + ix1] as f64);
                let top = a + (b - a) * fx;
                let bottom = c + (d - c) * fx;
                let dist = (at.edge - (top + (bottom - top) * fy)) * at.dist_scale;
                let p = row + x;
                if let Some(t) = text.as_deref_mut() {
                    let v = 0.5 - dist;
                    if v >= MIN_COVERAGE {
                        t.push((p as u32, (if v > 1.0 { 1.0 } else { v }) as f32));
                    }
                }
                let mut cov = 0.5 - (dist - at.grow);
                if cov < MIN_COVERAGE {
                    continue;
                }
                if cov > 1.0 {
                    cov = 1.0;
                }
                mask.raise(p, cov);
            }
        }
    }
}

/// Max-accumulates the kept text coverage, drawn in a window from row `row0`, into `mask` (whose window holds those
/// rows) and empties the list (sdf-text.ts `TextCoverage.moveTo`).
pub fn move_text(mask: &mut Mask, text: &mut Vec<(u32, f32)>, row0: usize) {
    let shift = (row0 - mask.row0) * mask.width;
    for &(p, c) in text.iter() {
        mask.raise(p as usize + shift, c as f64);
    }
    text.clear();
}
