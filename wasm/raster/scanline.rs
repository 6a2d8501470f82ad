//! The anti-aliased scanline polygon rasteriser of src/render/raster/scanline.ts (see there for the method), to the
//! same coverage: the same float operations in the same order, Float32 where the TypeScript stores Float32.

use crate::composite::{Mask, Pixels};
use crate::js::{max, min};

const MAX_SPLITS: u32 = 12;
const ORDER_EPSILON: f64 = 1e-6;
const COORD_LIMIT: f64 = 1e15;

/// Where a fill's row coverage goes.
pub enum Sink<'a> {
    Solid(&'a mut Pixels),
    Mask(&'a mut Mask),
}

impl<'a> Sink<'a> {
    fn span(&mut self, y: usize, x0: usize, x1: usize, cov: &[f32]) {
        match self {
            Sink::Solid(p) => p.span(y, x0, x1, cov),
            Sink::Mask(m) => m.span(y, x0, x1, cov),
        }
    }
}

pub struct Rasterizer {
    width: usize,
    height: usize,
    y_top: Vec<f64>,
    y_bot: Vec<f64>,
    x_top: Vec<f64>,
    slope: Vec<f64>,
    dir: Vec<i32>,
    order: Vec<u32>,
    active: Vec<u32>,
    band_edge: Vec<u32>,
    band_top: Vec<f64>,
    band_bot: Vec<f64>,
    band_mid: Vec<f64>,
    events: Vec<f64>,
    lo: isize,
    hi: isize,
    acc: Vec<f32>,
    cov: Vec<f32>,
}

/// Integral of clamp(w, 0, 1) for w from 0 to z.
#[inline(always)]
fn ramp(z: f64) -> f64 {
    if z <= 0.0 {
        0.0
    } else if z < 1.0 {
        (z * z) / 2.0
    } else {
        z - 0.5
    }
}

#[inline(always)]
fn clamp_coord(v: f64) -> f64 {
    if v > COORD_LIMIT {
        COORD_LIMIT
    } else if v < -COORD_LIMIT {
        -COORD_LIMIT
    } else {
        v
    }
}

impl Rasterizer {
    pub fn new(width: usize, height: usize) -> Rasterizer {
        Rasterizer {
            width,
            height,
            y_top: Vec::new(),
            y_bot: Vec::new(),
            x_top: Vec::new(),
            slope: Vec::new(),
            dir: Vec::new(),
            order: Vec::new(),
            active: Vec::new(),
            band_edge: Vec::new(),
            band_top: Vec::new(),
            band_bot: Vec::new(),
            band_mid: Vec::new(),
            events: Vec::new(),
            lo: 0,
            hi: -1,
            acc: vec![0.0; width + 2],
            cov: vec![0.0; width + 2],
        }
    }

    /// Grows the per-edge scratch (sort order, active list, a band's crossings, row events) to `n` edges. Only the
    /// part that is used is written: zero-filling room for every edge a polygon might make (three per point, doubled)
    /// wrote megabytes of fresh memory for a large polygon, each 4 KB page a page fault on a canvas's first image.
    fn ensure_scratch(&mut self, n: usize) {
        if self.order.len() < n {
            self.order.resize(n, 0);
            self.active.resize(n, 0);
            self.band_edge.resize(n, 0);
            self.band_top.resize(n, 0.0);
            self.band_bot.resize(n, 0.0);
            self.band_mid.resize(n, 0.0);
        }
        if self.events.len() < 2 * n + 2 {
            self.events.resize(2 * n + 2, 0.0);
        }
    }

    /// Rasterises the rings (points `xy`, ring r = points ring_start[r] .. ring_start[r + 1]) as one shape.
    pub fn fill(
        &mut self,
        xy: &[f64],
        ring_start: &[u32],
        even_odd: bool,
        antialias: bool,
        dx: f64,
        dy: f64,
        sink: &mut Sink,
    ) {
        let points = if ring_start.is_empty() {
            0
        } else {
            ring_start[ring_start.len() - 1] as usize
        };
        let n = self.build_edges(xy, ring_start, points, dx, dy);
        if n == 0 {
            return;
        }
        self.ensure_scratch(n);
        for i in 0..n {
            self.order[i] = i as u32;
        }
        {
            let y_top = &self.y_top;
            // A stable sort: the same permutation as the TypeScript's sortIndicesByKey (keys are never NaN).
            self.order[..n].sort_by(|a, b| y_top[*a as usize].partial_cmp(&y_top[*b as usize]).unwrap());
        }
        let mut min_y = f64::INFINITY;
        let mut max_y = f64::NEG_INFINITY;
        for i in 0..n {
            if self.y_top[i] < min_y {
                min_y = self.y_top[i];
            }
            if self.y_bot[i] > max_y {
                max_y = self.y_bot[i];
            }
        }
        let row_start = max(0.0, min_y.floor());
        let row_end = min(self.height as f64, max_y.ceil());
        let width = self.width;
        let mut next = 0usize;
        let mut active_count = 0usize;
        let mut row = row_start;
        while row < row_end {
            let py = row;
            row += 1.0;
            while next < n && self.y_top[self.order[next] as usize] < py + 1.0 {
                self.active[active_count] = self.order[next];
                active_count += 1;
                next += 1;
            }
            let mut kept = 0;
            for k in 0..active_count {
                let e = self.active[k];
                if self.y_bot[e as usize] > py {
                    self.active[kept] = e;
                    kept += 1;
                }
            }
            active_count = kept;
            if active_count == 0 {
                continue;
            }
            self.lo = width as isize + 2;
            self.hi = -1;
            if !antialias {
                self.sample_line(py + 0.5, 1.0, active_count, even_odd, true);
            } else {
                let mut count = 0usize;
                self.events[count] = py;
                count += 1;
                for k in 0..active_count {
                    let e = self.active[k] as usize;
                    if self.y_top[e] > py {
                        count = insert_sorted(&mut self.events, count, self.y_top[e]);
                    }
                    if self.y_bot[e] < py + 1.0 {
                        count = insert_sorted(&mut self.events, count, self.y_bot[e]);
                    }
                }
                self.events[count] = py + 1.0;
                count += 1;
                for i in 0..count - 1 {
                    let (a, b) = (self.events[i], self.events[i + 1]);
                    if !(b > a) {
                        continue;
                    }
                    self.band(active_count, even_odd, 0, a, b);
                }
            }
            let lo = self.lo;
            let hi = self.hi;
            if hi < 0 {
                continue;
            }
            let mut sum = 0.0f64;
            let end = min(hi as f64, width as f64) as isize;
            let mut x = lo;
            while x <= hi {
                let xu = x as usize;
                sum += self.acc[xu] as f64;
                self.acc[xu] = 0.0;
                if x < end {
                    self.cov[xu] = if sum > 1.0 {
                        1.0
                    } else if sum < 1e-6 {
                        0.0
                    } else {
                        sum as f32
                    };
                }
                x += 1;
            }
            if end > lo {
                sink.span(py as usize, lo as usize, end as usize, &self.cov);
            }
        }
    }

    fn band(&mut self, active_count: usize, even_odd: bool, depth: u32, ya: f64, yb: f64) {
        let mut m = 0usize;
        for k in 0..active_count {
            let e = self.active[k] as usize;
            if self.y_top[e] > ya || self.y_bot[e] < yb {
                continue;
            }
            let xt = self.x_top[e] + (ya - self.y_top[e]) * self.slope[e];
            let xb = self.x_top[e] + (yb - self.y_top[e]) * self.slope[e];
            let mid = (xt + xb) / 2.0;
            let mut j = m;
            m += 1;
            while j > 0 && self.band_mid[j - 1] > mid {
                self.band_mid[j] = self.band_mid[j - 1];
                self.band_top[j] = self.band_top[j - 1];
                self.band_bot[j] = self.band_bot[j - 1];
                self.band_edge[j] = self.band_edge[j - 1];
                j -= 1;
            }
            self.band_mid[j] = mid;
            self.band_top[j] = xt;
            self.band_bot[j] = xb;
            self.band_edge[j] = e as u32;
        }
        for k in 1..m {
            let d0 = self.band_top[k] - self.band_top[k - 1];
            let d1 = self.band_bot[k] - self.band_bot[k - 1];
            if d0 >= -ORDER_EPSILON && d1 >= -ORDER_EPSILON {
                continue;
            }
            if depth >= MAX_SPLITS {
                self.sample_line((ya + yb) / 2.0, yb - ya, active_count, even_odd, false);
                return;
            }
            let t = d0 / (d0 - d1);
            let yc = if t > 0.0 && t < 1.0 {
                ya + t * (yb - ya)
            } else {
                (ya + yb) / 2.0
            };
            self.band(active_count, even_odd, depth + 1, ya, yc);
            self.band(active_count, even_odd, depth + 1, yc, yb);
            return;
        }
        let height = yb - ya;
        let mut winding = 0i32;
        for k in 0..m {
            let was_inside = if even_odd { winding & 1 != 0 } else { winding != 0 };
            winding += self.dir[self.band_edge[k] as usize];
            let is_inside = if even_odd { winding & 1 != 0 } else { winding != 0 };
            if was_inside != is_inside {
                let (t, b) = (self.band_top[k], self.band_bot[k]);
                self.add_edge_area(t, b, if is_inside { height } else { -height });
            }
        }
    }

    fn add_edge_area(&mut self, x0: f64, x1: f64, weight: f64) {
        let xa = if x0 < x1 { x0 } else { x1 };
        let xb = if x0 < x1 { x1 } else { x0 };
        let span = xb - xa;
        let vertical = span < 1e-9;
        let first = max(0.0, xa.floor());
        let last = min(self.width as f64 + 1.0, xb.floor() + 1.0);
        let mut previous = 0.0f64;
        let mut i = first;
        while i <= last {
            let z = i + 1.0 - xa;
            let f = if vertical {
                if z <= 0.0 {
                    0.0
                } else if z >= 1.0 {
                    1.0
                } else {
                    z
                }
            } else {
                (ramp(z) - ramp(i + 1.0 - xb)) / span
            };
            let iu = i as usize;
            self.acc[iu] = (self.acc[iu] as f64 + weight * (f - previous)) as f32;
            previous = f;
            i += 1.0;
        }
        if (first as isize) < self.lo {
            self.lo = first as isize;
        }
        if (last as isize) > self.hi {
            self.hi = last as isize;
        }
    }

    fn sample_line(&mut self, y: f64, weight: f64, active_count: usize, even_odd: bool, centres: bool) {
        let mut count = 0usize;
        for k in 0..active_count {
            let e = self.active[k] as usize;
            if y < self.y_top[e] || y >= self.y_bot[e] {
                continue;
            }
            let x = self.x_top[e] + (y - self.y_top[e]) * self.slope[e];
            let mut j = count;
            count += 1;
            while j > 0 && self.band_mid[j - 1] > x {
                self.band_mid[j] = self.band_mid[j - 1];
                self.band_edge[j] = self.band_edge[j - 1];
                j -= 1;
            }
            self.band_mid[j] = x;
            self.band_edge[j] = e as u32;
        }
        let mut winding = 0i32;
        let mut span_start = 0.0f64;
        for k in 0..count {
            let was_inside = if even_odd { winding & 1 != 0 } else { winding != 0 };
            winding += self.dir[self.band_edge[k] as usize];
            let is_inside = if even_odd { winding & 1 != 0 } else { winding != 0 };
            if was_inside == is_inside {
                continue;
            }
            let x = if centres {
                (self.band_mid[k] - 0.5).ceil()
            } else {
                self.band_mid[k]
            };
            if is_inside {
                span_start = x;
            } else {
                self.add_span(span_start, x, weight);
            }
        }
    }

    fn add_span(&mut self, span_start: f64, span_end: f64, weight: f64) {
        let width = self.width as f64;
        let xa = min(width, max(0.0, span_start));
        let xb = min(width, max(0.0, span_end));
        if xb <= xa {
            return;
        }
        let iaf = xa.floor();
        let fa = xa - iaf;
        let ibf = xb.floor();
        let fb = xb - ibf;
        let ia = iaf as usize;
        let ib = ibf as usize;
        let acc = &mut self.acc;
        acc[ia] = (acc[ia] as f64 + weight * (1.0 - fa)) as f32;
        acc[ia + 1] = (acc[ia + 1] as f64 + weight * fa) as f32;
        acc[ib] = (acc[ib] as f64 - weight * (1.0 - fb)) as f32;
        acc[ib + 1] = (acc[ib + 1] as f64 - weight * fb) as f32;
        if (ia as isize) < self.lo {
            self.lo = ia as isize;
        }
        if (ib as isize + 1) > self.hi {
            self.hi = ib as isize + 1;
        }
    }

    /// Builds the edges of the rings (each segment clipped into at most three pieces at the canvas's sides) and
    /// returns their number. Room is reserved for a piece per point, which most segments make (reserving does not
    /// write the memory).
    fn build_edges(&mut self, xy: &[f64], ring_start: &[u32], points: usize, dx: f64, dy: f64) -> usize {
        self.y_top.clear();
        self.y_bot.clear();
        self.x_top.clear();
        self.slope.clear();
        self.dir.clear();
        self.y_top.reserve(points);
        self.y_bot.reserve(points);
        self.x_top.reserve(points);
        self.slope.reserve(points);
        self.dir.reserve(points);
        let left = -1.0f64;
        let right = self.width as f64 + 1.0;
        let height = self.height as f64;
        let mut n = 0usize;
        for r in 0..ring_start.len().saturating_sub(1) {
            let start = ring_start[r] as usize;
            let end = ring_start[r + 1] as usize;
            let mut px = clamp_coord(xy[2 * end - 2] + dx);
            let mut py = clamp_coord(xy[2 * end - 1] + dy);
            for i in start..end {
                let x = clamp_coord(xy[2 * i] + dx);
                let y = clamp_coord(xy[2 * i + 1] + dy);
                let above = y <= 0.0 && py <= 0.0;
                let below = y >= height && py >= height;
                if y != py && !above && !below && (x + y + px + py).is_finite() {
                    let down = y > py;
                    let x0 = if down { px } else { x };
                    let y0 = if down { py } else { y };
                    let x1 = if down { x } else { px };
                    let y1 = if down { y } else { py };
                    let d = if down { 1 } else { -1 };
                    let slope = (x1 - x0) / (y1 - y0);
                    let yl = if slope != 0.0 {
                        y0 + (left - x0) / slope
                    } else {
                        f64::NAN
                    };
                    let yr = if slope != 0.0 {
                        y0 + (right - x0) / slope
                    } else {
                        f64::NAN
                    };
                    let c0 = min(yl, yr);
                    let c1 = max(yl, yr);
                    let mut ya = y0;
                    for piece in 0..3 {
                        let yb = if piece == 0 {
                            c0
                        } else if piece == 1 {
                            c1
                        } else {
                            y1
                        };
                        if piece < 2 && !(yb > ya && yb < y1) {
                            continue;
                        }
                        if yb > ya {
                            let xa = x0 + (ya - y0) * slope;
                            let xb = x0 + (yb - y0) * slope;
                            let ca = if xa < left {
                                left
                            } else if xa > right {
                                right
                            } else {
                                xa
                            };
                            let cb = if xb < left {
                                left
                            } else if xb > right {
                                right
                            } else {
                                xb
                            };
                            self.y_top.push(ya);
                            self.y_bot.push(yb);
                            self.x_top.push(ca);
                            self.slope.push((cb - ca) / (yb - ya));
                            self.dir.push(d);
                            n += 1;
                        }
                        ya = yb;
                    }
                }
                px = x;
                py = y;
            }
        }
        n
    }
}

/// Inserts v into the sorted prefix a[0..count) and returns the new count.
fn insert_sorted(a: &mut [f64], count: usize, v: f64) -> usize {
    let mut j = count;
    while j > 0 && a[j - 1] > v {
        a[j] = a[j - 1];
        j -= 1;
    }
    a[j] = v;
    count + 1
}
