//! A basemap's points projected to Web Mercator and their Douglas-Peucker significances, part by part on first use
//! (src/render/basemap-index.ts `points` and `partSignificance`, src/render/simplify.ts `significance`), ported to give
//! the same numbers: the projection calls JavaScript's own Math.sin and Math.log (imported), the rest is IEEE
//! arithmetic in the same order. One instance holds one basemap (its own, apart from any canvas's).

#[link(wasm_import_module = "math")]
extern "C" {
    /// JavaScript's Math.sin.
    #[link_name = "sin"]
    fn js_sin(x: f64) -> f64;
    /// JavaScript's Math.log.
    #[link_name = "log"]
    fn js_log(x: f64) -> f64;
}

/// Per-part state (basemap-index.ts): nothing computed, points projected, significances computed too.
const RAW: u8 = 0;
const PROJECTED: u8 = 1;
const SIGNIFICANT: u8 = 2;

/// mercator.ts MAX_LATITUDE.
const MAX_LATITUDE: f64 = 85.0511287798066;

pub struct Basemap {
    /// Points in 1e-7 degrees (the pack's), written by the TypeScript side after `basemap_init`.
    pub lat: Vec<i32>,
    pub lon: Vec<i32>,
    /// Part p's points are part_first[p] .. part_first[p + 1].
    pub part_first: Vec<u32>,
    /// Mercator x, y per point, world units of 1 at zoom 0, interleaved.
    pub world: Vec<f64>,
    /// Per point: the largest tolerance (world units) at which its part keeps it.
    pub sig: Vec<f32>,
    /// Per part: RAW, PROJECTED or SIGNIFICANT.
    pub ready: Vec<u8>,
    /// The parts of the next `basemap_prepare` call.
    pub parts: Vec<u32>,
    /// Scratch of pending (from, to, parent significance) triples, sized for the longest part.
    stack: Vec<f64>,
}

impl Basemap {
    /// Room for `points` points and `parts` parts, everything RAW (the TypeScript side then writes lat, lon and
    /// part_first): nothing grows after this, so the views the TypeScript side takes stay valid.
    pub fn new(points: usize, parts: usize, longest: usize) -> Basemap {
        Basemap {
            lat: vec![0; points],
            lon: vec![0; points],
            part_first: vec![0; parts + 1],
            world: vec![0.0; 2 * points],
            sig: vec![0.0; points],
            ready: vec![RAW; parts],
            parts: vec![0; parts],
            stack: vec![0.0; 3 * longest + 6],
        }
    }

    /// Projects part `p` if it is RAW, then computes its significances if `significant` and they are not known.
    pub fn prepare(&mut self, p: usize, significant: bool) {
        if self.ready[p] == RAW {
            self.project(p);
            self.ready[p] = PROJECTED;
        }
        if significant && self.ready[p] != SIGNIFICANT {
            let (first, end) = (self.part_first[p] as usize, self.part_first[p + 1] as usize);
            self.significance(first, end);
            self.ready[p] = SIGNIFICANT;
        }
    }

    /// mercator.ts lonToWorldX and latToWorldY at zoom 0 and a tile size of 1, for each point of part p.
    fn project(&mut self, p: usize) {
        for i in self.part_first[p] as usize..self.part_first[p + 1] as usize {
            let lon = self.lon[i] as f64 * 1e-7;
            let lat = self.lat[i] as f64 * 1e-7;
            self.world[2 * i] = ((lon + 180.0) / 360.0) * 1.0 * 1.0;
            let clamped = crate::js::max(-MAX_LATITUDE, crate::js::min(MAX_LATITUDE, lat));
            // Safety: imported pure functions.
            let s = unsafe { js_sin((clamped * core::f64::consts::PI) / 180.0) };
            let y = 0.5 - unsafe { js_log((1.0 + s) / (1.0 - s)) } / (4.0 * core::f64::consts::PI);
            self.world[2 * i + 1] = y * 1.0 * 1.0;
        }
    }

    /// simplify.ts `significance` of the points first .. end - 1.
    fn significance(&mut self, first: usize, end: usize) {
        if end <= first {
            return;
        }
        let xy = &self.world;
        let out = &mut self.sig;
        let stack = &mut self.stack;
        out[first] = f32::INFINITY;
        out[end - 1] = f32::INFINITY;
        let mut top = 0;
        if end - first > 2 {
            stack[0] = first as f64;
            stack[1] = (end - 1) as f64;
            stack[2] = f64::INFINITY;
            top = 3;
        }
        while top > 0 {
            top -= 1;
            let parent = stack[top];
            top -= 1;
            let b = stack[top] as usize;
            top -= 1;
            let a = stack[top] as usize;
            let (ax, ay) = (xy[2 * a], xy[2 * a + 1]);
            let dx = xy[2 * b] - ax;
            let dy = xy[2 * b + 1] - ay;
            let len2 = dx * dx + dy * dy;
            let mut best = usize::MAX;
            let mut best_d2 = -1.0f64;
            for i in a + 1..b {
                let px = xy[2 * i] - ax;
                let py = xy[2 * i + 1] - ay;
                let d2 = if len2 > 0.0 {
                    let t = (px * dx + py * dy) / len2;
                    let tc = if t < 0.0 {
                        0.0
                    } else if t > 1.0 {
                        1.0
                    } else {
                        t
                    };
                    let ex = px - tc * dx;
                    let ey = py - tc * dy;
                    ex * ex + ey * ey
                } else {
                    px * px + py * py
                };
                if d2 > best_d2 {
                    best_d2 = d2;
                    best = i;
                }
            }
            let own = best_d2.sqrt();
            let sig = if own < parent { own } else { parent };
            out[best] = sig as f32;
            if best - a > 1 {
                stack[top] = a as f64;
                stack[top + 1] = best as f64;
                stack[top + 2] = sig;
                top += 3;
            }
            if b - best > 1 {
                stack[top] = best as f64;
                stack[top + 1] = b as f64;
                stack[top + 2] = sig;
                top += 3;
            }
        }
    }
}
