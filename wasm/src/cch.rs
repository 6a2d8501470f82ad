//! The triangle loops of a customizable contraction hierarchy's customization (src/route/cch/customize.ts and
//! perfect.ts), over arrays the TypeScript side carved in this instance's memory (src/route/cch/scratch.ts). Each
//! is the TypeScript loop's operations in the same order, so the same floats: the TypeScript loops stay the
//! reference that test/route-cch-wasm.test.ts compares these with, bit for bit.
//!
//! Rows are CSRs by lower vertex: the arcs of vertex v are `first[v] .. first[v + 1]`, their heads ascending.

/// `mid` of an arc whose weight is its own link's (customize.ts LINK).
const LINK: u32 = u32::MAX;

/// Index of the first of `head[from .. end]` (ascending) that is ≥ h, else `end`: galloping, then binary (arcs.ts
/// `seek`).
#[inline(always)]
unsafe fn seek(head: *const u32, from: usize, end: usize, h: u32) -> usize {
    let (mut lo, mut hi, mut step) = (from, from, 1usize);
    while hi < end && *head.add(hi) < h {
        lo = hi + 1;
        hi += step;
        step <<= 1;
    }
    if hi > end {
        hi = end;
    }
    while lo < hi {
        let m = (lo + hi) >> 1;
        if *head.add(m) < h {
            lo = m + 1;
        } else {
            hi = m;
        }
    }
    lo
}

/// Basic customization (CchMetric's constructor): each vertex v, lowest first, relaxes the arcs between its higher
/// neighbours u < w through itself; a strictly lighter triangle notes v as the arc's middle vertex.
pub unsafe fn customize(
    n: usize, first: *const u32, head: *const u32,
    up: *mut f64, down: *mut f64, mid_up: *mut u32, mid_down: *mut u32,
) {
    for v in 0..n {
        let (lo, hi) = (*first.add(v) as usize, *first.add(v + 1) as usize);
        for i in lo..hi {
            let u = *head.add(i) as usize;
            let (vu_up, vu_down) = (*up.add(i), *down.add(i));
            if vu_up == f64::INFINITY && vu_down == f64::INFINITY {
                continue;
            }
            let k_end = *first.add(u + 1) as usize;
            let mut k = *first.add(u) as usize;
            for j in i + 1..hi {
                // The topology is chordal: v's higher neighbours above u are all u's higher neighbours too.
                k = seek(head, k, k_end, *head.add(j));
                let via_up = vu_down + *up.add(j); // u → v → w
                if via_up < *up.add(k) {
                    *up.add(k) = via_up;
                    *mid_up.add(k) = v as u32;
                }
                let via_down = *down.add(j) + vu_up; // w → v → u
                if via_down < *down.add(k) {
                    *down.add(k) = via_down;
                    *mid_down.add(k) = v as u32;
                }
                k += 1;
            }
        }
    }
}

/// A customized weight counts as beaten only below this fraction of itself (perfect.ts BEATEN).
const BEATEN: f64 = 1.0 - 1e-9;

/// The arcs searches keep, each way (perfect.ts keptArcs): per topology arc of the rows `up_first`/`up_head` with
/// customized weights `up_w`/`down_w` and middle vertices `mid_up`/`mid_down`, writes to `kept` bit 0 when kept
/// driven up, bit 1 driven down. `first`, `head`, `up`, `down` are room for the drivable arcs' compact rows (n + 1
/// and as many as the arcs).
pub unsafe fn kept(
    n: usize, up_first: *const u32, up_head: *const u32, up_w: *const f64, down_w: *const f64,
    mid_up: *const u32, mid_down: *const u32,
    first: *mut u32, head: *mut u32, up: *mut f64, down: *mut f64, kept: *mut u8,
) {
    // The arcs drivable at least one way, in order (perfect.ts neededArcs).
    let m = *up_first.add(n) as usize;
    let mut q = 0usize;
    *first = 0;
    for v in 0..n {
        for i in *up_first.add(v) as usize..*up_first.add(v + 1) as usize {
            let (w, d) = (*up_w.add(i), *down_w.add(i));
            if w == f64::INFINITY && d == f64::INFINITY {
                continue;
            }
            *head.add(q) = *up_head.add(i);
            *up.add(q) = w;
            *down.add(q) = d;
            q += 1;
        }
        *first.add(v + 1) = q as u32;
    }
    needed(n, first, head, up, down);
    q = 0;
    for i in 0..m {
        let (w, d) = (*up_w.add(i), *down_w.add(i));
        if w == f64::INFINITY && d == f64::INFINITY {
            continue;
        }
        let by_up = (w != f64::INFINITY && !(*up.add(q) < w * BEATEN)) as u8;
        let by_down = (d != f64::INFINITY && !(*down.add(q) < d * BEATEN)) as u8;
        *kept.add(i) = by_up | (by_down << 1);
        q += 1;
    }
    keep_triangles(n, up_first, up_head, kept, mid_up, mid_down);
}

/// Perfect customization's relaxation (perfect.ts upperTriangles), over the drivable arcs' compact rows: vertices top
/// down, each relaxing the arcs to its higher neighbours through every pair of them; y–z may be missing from the
/// rows.
unsafe fn needed(n: usize, first: *const u32, head: *const u32, up: *mut f64, down: *mut f64) {
    for x in (0..n).rev() {
        let (lo, hi) = (*first.add(x) as usize, *first.add(x + 1) as usize);
        for i in lo..hi {
            let y = *head.add(i) as usize;
            let k_end = *first.add(y + 1) as usize;
            let (mut j, mut k) = (i + 1, *first.add(y) as usize);
            while j < hi && k < k_end {
                let z = *head.add(j);
                k = seek(head, k, k_end, z);
                if k < k_end && *head.add(k) == z {
                    let (i_, j_, k_) = (up.add(i), up.add(j), up.add(k));
                    let (di, dj, dk) = (down.add(i), down.add(j), down.add(k));
                    if *j_ + *dk < *i_ {
                        *i_ = *j_ + *dk; // x → z → y
                    }
                    if *i_ + *k_ < *j_ {
                        *j_ = *i_ + *k_; // x → y → z
                    }
                    if *k_ + *dj < *di {
                        *di = *k_ + *dj; // y → z → x
                    }
                    if *dk + *di < *dj {
                        *dj = *dk + *di; // z → y → x
                    }
                }
                // k stays: when y–z is missing, head[k] > z may be the next z.
                j += 1;
            }
        }
    }
}

/// Index of the arc from v to h in rows `first`/`head`, if any (arcs.ts `arcIndex`).
#[inline(always)]
unsafe fn arc_index(first: *const u32, head: *const u32, v: usize, h: u32) -> Option<usize> {
    let end = *first.add(v + 1) as usize;
    let at = seek(head, *first.add(v) as usize, end, h);
    if at < end && *head.add(at) == h {
        Some(at)
    } else {
        None
    }
}

/// Marks the triangle arcs of every kept shortcut kept too (perfect.ts keptArcs), top down: `kept` holds per arc
/// bit 0 when kept driven up, bit 1 driven down.
unsafe fn keep_triangles(
    n: usize, first: *const u32, head: *const u32, kept: *mut u8, mid_up: *const u32, mid_down: *const u32,
) {
    let mark = |m: u32, h: u32, bit: u8| {
        if let Some(a) = arc_index(first, head, m as usize, h) {
            *kept.add(a) |= bit;
        }
    };
    for x in (0..n).rev() {
        for i in *first.add(x) as usize..*first.add(x + 1) as usize {
            let y = *head.add(i);
            let (k, mu, md) = (*kept.add(i), *mid_up.add(i), *mid_down.add(i));
            if k & 1 != 0 && mu != LINK {
                mark(mu, x as u32, 2); // x → m → y: the arc m–x down, then m–y up
                mark(mu, y, 1);
            }
            if k & 2 != 0 && md != LINK {
                mark(md, y, 2); // y → m → x: the arc m–y down, then m–x up
                mark(md, x as u32, 1);
            }
        }
    }
}
