//! The distance stroker of src/render/raster/distance-stroke.ts (see there for the method), to the same coverage:
//! each pixel's coverage is a box-filtered function of its centre's distance to the polyline, max-accumulated into
//! the mask.

use crate::composite::Mask;
use crate::js::{max, min};

/// Cap kinds, as the TypeScript passes them (0 is butt).
pub const CAP_ROUND: u32 = 1;
pub const CAP_SQUARE: u32 = 2;

const JOINT_EPSILON: f64 = 1e-6;
const MIN_COVERAGE: f64 = 1.0 / 512.0;
const DASH_TABLE_STEP: f64 = 1.0 / 32.0;

/// A prepared dash pattern (distance-stroke.ts `Dashing`): drawn intervals of one period, and the value table.
pub struct Dashing<'a> {
    pub period: f64,
    pub on: &'a [f64],
    pub reach_periods: f64,
    pub round: bool,
    /// Empty when the period is too long to tabulate.
    pub table: &'a [f32],
}

/// Shape of a distance stroke.
pub struct Shape {
    pub half_width: f64,
    pub cap: u32,
    pub blur: f64,
}

impl<'a> Dashing<'a> {
    fn value(&self, s: f64) -> f64 {
        let period = self.period;
        let phase = s - (s / period).floor() * period;
        if self.table.is_empty() {
            return self.exact(phase);
        }
        let x = phase / DASH_TABLE_STEP;
        let k = x.floor();
        let ku = k as usize;
        let (t0, t1) = (self.table[ku] as f64, self.table[ku + 1] as f64);
        t0 + (t1 - t0) * (x - k)
    }

    fn exact(&self, phase: f64) -> f64 {
        let mut gap = f64::INFINITY;
        let mut covered = 0.0f64;
        let mut m = -self.reach_periods;
        while m <= self.reach_periods {
            let shift = m * self.period;
            let mut k = 0;
            while k + 1 < self.on.len() {
                let a = self.on[k] + shift;
                let b = self.on[k + 1] + shift;
                if self.round {
                    let g = if phase < a {
                        a - phase
                    } else if phase > b {
                        phase - b
                    } else {
                        0.0
                    };
                    if g < gap {
                        gap = g;
                    }
                } else {
                    let o = min(phase + 0.5, b) - max(phase - 0.5, a);
                    if o > 0.0 {
                        covered += o;
                    }
                }
                k += 2;
            }
            m += 1.0;
        }
        if self.round {
            gap
        } else if covered > 1.0 {
            1.0
        } else {
            covered
        }
    }
}

/// The numbers of one segment (distance-stroke.ts `setSegment`).
struct Segment {
    ax: f64,
    ay: f64,
    bx: f64,
    by: f64,
    start: f64,
    prev_ux: f64,
    prev_uy: f64,
}

/// Max-accumulates the coverage of one cleaned polyline (flat x, y pairs, no consecutive duplicates) into `mask`
/// (distance-stroke.ts `addDistanceStroke`).
pub fn add_distance_stroke(mask: &mut Mask, p: &[f64], closed: bool, shape: &Shape, dashing: Option<&Dashing>) {
    let n = p.len() / 2;
    let hw = shape.half_width;
    if n == 0 || !(hw > 0.0) {
        return;
    }
    if n == 1 {
        if shape.cap == CAP_ROUND {
            let s = Segment {
                ax: p[0],
                ay: p[1],
                bx: p[0],
                by: p[1],
                start: 0.0,
                prev_ux: 0.0,
                prev_uy: 0.0,
            };
            add_segment(mask, &s, false, false, shape, None, false);
        } else if shape.cap == CAP_SQUARE {
            let s = Segment {
                ax: p[0] - hw,
                ay: p[1],
                bx: p[0] + hw,
                by: p[1],
                start: 0.0,
                prev_ux: 0.0,
                prev_uy: 0.0,
            };
            add_segment(mask, &s, true, true, shape, None, false);
        }
        return;
    }
    let dashed = dashing.is_some();
    let is_closed = closed && n > 2;
    let segments = if is_closed { n } else { n - 1 };
    let butt_start = !is_closed && shape.cap != CAP_ROUND && !dashed;
    let butt_end = !is_closed && shape.cap != CAP_ROUND;
    let mut distance = 0.0f64;
    let mut prev_ux = 0.0f64;
    let mut prev_uy = 0.0f64;
    if is_closed && !dashed {
        let lx = p[0] - p[2 * n - 2];
        let ly = p[1] - p[2 * n - 1];
        let l = (lx * lx + ly * ly).sqrt();
        if l > 0.0 {
            prev_ux = lx / l;
            prev_uy = ly / l;
        }
    }
    for s in 0..segments {
        let j = (s + 1) % n;
        let mut ax = p[2 * s];
        let mut ay = p[2 * s + 1];
        let mut bx = p[2 * j];
        let mut by = p[2 * j + 1];
        let len = ((bx - ax) * (bx - ax) + (by - ay) * (by - ay)).sqrt();
        let first = butt_start && s == 0;
        let last = butt_end && s == segments - 1;
        let mut start = distance;
        if shape.cap == CAP_SQUARE && (first || last) {
            let ex = ((bx - ax) / len) * hw;
            let ey = ((by - ay) / len) * hw;
            if first {
                ax -= ex;
                ay -= ey;
                start -= hw;
            }
            if last {
                bx += ex;
                by += ey;
            }
        }
        let trim_end = !dashed && (is_closed || s < segments - 1);
        let seg = Segment {
            ax,
            ay,
            bx,
            by,
            start,
            prev_ux,
            prev_uy,
        };
        add_segment(mask, &seg, first, last, shape, dashing, trim_end);
        distance += len;
        let joint = trim_end && !first && len > 0.0;
        prev_ux = if joint { (bx - ax) / len } else { 0.0 };
        prev_uy = if joint { (by - ay) / len } else { 0.0 };
    }
}

/// Max-accumulates the coverage of one segment (distance-stroke.ts `addSegment`, same names and order).
fn add_segment(
    mask: &mut Mask,
    sg: &Segment,
    butt_a: bool,
    butt_b: bool,
    shape: &Shape,
    dashing: Option<&Dashing>,
    trim_b: bool,
) {
    let (ax, ay, bx, by) = (sg.ax, sg.ay, sg.bx, sg.by);
    let (start, prev_ux, prev_uy) = (sg.start, sg.prev_ux, sg.prev_uy);
    let width = mask.width as f64;
    let hw = shape.half_width;
    let blur = shape.blur;
    let reach = hw + 0.5;
    let dx = bx - ax;
    let dy = by - ay;
    let len = (dx * dx + dy * dy).sqrt();
    let ux = if len > 0.0 { dx / len } else { 1.0 };
    let uy = if len > 0.0 { dy / len } else { 0.0 };
    // Rows of the mask's window only (lib.rs strokes in bands; each row's coverage depends on that row alone).
    let y_start = max(mask.row0 as f64, (min(ay, by) - reach).floor());
    let y_end = min((mask.row0 + mask.rows) as f64 - 1.0, (max(ay, by) + reach).ceil());
    if y_start > y_end || max(ax, bx) + reach < 0.0 || min(ax, bx) - reach > width {
        return;
    }
    if !(y_start <= y_end) {
        return; // NaN: the TypeScript's row loop runs no row
    }
    let mask_w = mask.width;
    let row0 = mask.row0;
    let cov = &mut mask.cov;
    let touched = &mut mask.touched;
    let mut count = mask.count;
    let inv_ramp = 1.0 / (blur + 1.0);
    let along_min = if butt_a { -0.5 } else { -reach };
    let along_max = if butt_b {
        len + 0.5
    } else if trim_b {
        len
    } else {
        len + reach
    };
    let inv_ux = 1.0 / ux;
    let inv_uy = 1.0 / uy;
    let cross_lo = if inv_uy > 0.0 { -reach } else { reach };
    let along_lo = if inv_ux > 0.0 { along_min } else { along_max };
    let along_hi = if inv_ux > 0.0 { along_max } else { along_min };
    let plain = dashing.is_none() && !butt_a && !butt_b && blur == 0.0;
    let thin = hw < 0.5;
    let mut yf = y_start;
    while yf <= y_end {
        let y = yf;
        yf += 1.0;
        let py = y + 0.5 - ay;
        let pux = py * ux;
        let puy = py * uy;
        let mut u_lo = f64::NEG_INFINITY;
        let mut u_hi = f64::INFINITY;
        if uy != 0.0 {
            u_lo = (pux + cross_lo) * inv_uy;
            u_hi = (pux - cross_lo) * inv_uy;
        } else if pux.abs() >= reach {
            continue;
        }
        if ux != 0.0 {
            u_lo = max(u_lo, (along_lo - puy) * inv_ux);
            u_hi = min(u_hi, (along_hi - puy) * inv_ux);
        } else if puy < along_min || puy > along_max {
            continue;
        }
        let x0f = max(0.0, (ax + u_lo - 0.5).ceil());
        let x1f = min(width - 1.0, (ax + u_hi - 0.5).floor());
        if !(x0f <= x1f) {
            continue;
        }
        let (x0, x1) = (x0f as usize, x1f as usize);
        let base = (y as usize - row0) * mask_w;
        let mut along = (x0f + 0.5 - ax) * ux + puy;
        let mut cross = (x0f + 0.5 - ax) * uy - pux;
        if plain {
            let mut behind = (x0f + 0.5 - ax) * prev_ux + py * prev_uy;
            for x in x0..=x1 {
                let (al, cr, be) = (along, cross, behind);
                along += ux;
                cross += uy;
                behind += prev_ux;
                let d = if al < 0.0 {
                    if be < -JOINT_EPSILON {
                        continue;
                    }
                    (al * al + cr * cr).sqrt()
                } else if al > len {
                    let beyond = al - len;
                    (beyond * beyond + cr * cr).sqrt()
                } else if cr < 0.0 {
                    -cr
                } else {
                    cr
                };
                let mut c = if thin {
                    (if d + 0.5 < hw { d + 0.5 } else { hw }) - (if d - 0.5 > -hw { d - 0.5 } else { -hw })
                } else {
                    reach - d
                };
                if c < MIN_COVERAGE {
                    continue;
                }
                if c > 1.0 {
                    c = 1.0;
                }
                let i = base + x;
                // Safety: x0..=x1 lie within 0..width and y within the window, so i < width * rows <= width *
                // height; the touched list holds each pixel at most once, so count < width * height.
                unsafe {
                    let old = *cov.get_unchecked(i) as f64;
                    if c > old {
                        if old == 0.0 {
                            *touched.get_unchecked_mut(count) = i as u32;
                            count += 1;
                        }
                        *cov.get_unchecked_mut(i) = c as f32;
                    }
                }
            }
            continue;
        }
        for x in x0..=x1 {
            let (al, cr) = (along, cross);
            along += ux;
            cross += uy;
            let mut d = if cr < 0.0 { -cr } else { cr };
            if al < 0.0 {
                if !butt_a {
                    d = (al * al + cr * cr).sqrt();
                }
            } else if al > len && !butt_b {
                let beyond = al - len;
                d = (beyond * beyond + cr * cr).sqrt();
            }
            if d >= reach {
                continue;
            }
            let mut end_cov = 1.0f64;
            if let Some(ds) = dashing {
                let v = ds.value(start + al);
                if ds.round {
                    if v > 0.0 {
                        d = max(d, (v * v + cr * cr).sqrt());
                    }
                } else if v <= 0.0 {
                    continue;
                } else {
                    end_cov = v;
                }
            }
            if butt_a || butt_b {
                let lo = if butt_a && al < 0.5 { 0.0 } else { al - 0.5 };
                let hi = if butt_b && al > len - 0.5 { len } else { al + 0.5 };
                if hi <= lo {
                    continue;
                }
                end_cov *= hi - lo;
            }
            let mut c = if blur > 0.0 {
                (reach - d) * inv_ramp
            } else if hw >= 0.5 {
                reach - d
            } else {
                min(d + 0.5, hw) - max(d - 0.5, -hw)
            };
            if c > 1.0 {
                c = 1.0;
            }
            if end_cov < 1.0 {
                c *= end_cov;
            }
            if c < MIN_COVERAGE {
                continue;
            }
            let i = base + x;
            let old = cov[i] as f64;
            if c > old {
                if old == 0.0 {
                    touched[count] = i as u32;
                    count += 1;
                }
                cov[i] = c as f32;
            }
        }
    }
    mask.count = count;
}
