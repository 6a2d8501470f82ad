//! Douglas-Peucker significances (src/render/simplify.ts `significance`, same arithmetic in the same order, so the
//! same Float32 values): each vertex gets the largest tolerance at which Douglas-Peucker still keeps it, the ends
//! of a part Infinity.

/// Writes the significance of points `first .. end` of `xy` (flat x, y pairs) into `out` (same index as the point).
/// `stack` is scratch for the pending (from, to, parent significance) triples.
pub fn significance(xy: &[f64], first: usize, end: usize, out: &mut [f32], stack: &mut Vec<(usize, usize, f64)>) {
    if end <= first {
        return;
    }
    out[first] = f32::INFINITY;
    out[end - 1] = f32::INFINITY;
    stack.clear();
    if end - first > 2 {
        stack.push((first, end - 1, f64::INFINITY));
    }
    while let Some((a, b, parent)) = stack.pop() {
        let (ax, ay) = (xy[2 * a], xy[2 * a + 1]);
        let dx = xy[2 * b] - ax;
        let dy = xy[2 * b + 1] - ay;
        let len2 = dx * dx + dy * dy;
        let mut best = 0usize;
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
        // Pushed in the TypeScript's order (the results do not depend on it: each split's value is its own).
        if best - a > 1 {
            stack.push((a, best, sig));
        }
        if b - best > 1 {
            stack.push((best, b, sig));
        }
    }
}
