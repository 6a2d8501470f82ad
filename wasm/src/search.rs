//! Point-to-point route: the bidirectional A* of ArcSearch.route in src/route/search.ts, step for step (same seeds,
//! same transition rules, same heap), so it settles the same arcs and finds the same path.

use crate::heap::Heap;
use crate::layout::{rd, Costs, Graph, Label};

/// A point on an edge where a route starts or ends; `only` ≥ 0 is the one arc a source may leave along.
pub struct End {
    pub edge: u32,
    pub t: f64,
    pub lat: f64,
    pub lon: f64,
    pub only: i32,
}

/// Fraction of an endpoint along arc a, in the arc's direction.
#[inline(always)]
pub fn pos_on_arc(edge_t: f64, a: u32) -> f64 {
    if a & 1 == 1 { 1.0 - edge_t } else { edge_t }
}

/// True when the vehicle may go from arc a (entering node v) on to arc b (leaving v).
#[inline(always)]
pub unsafe fn can_turn(c: &Costs, a: u32, b: u32, v: u32) -> bool {
    if rd(c.blocked, v as usize) != 0 {
        return false;
    }
    if a >> 1 == b >> 1 && rd(c.out_open, v as usize) != 1 {
        return false;
    }
    rd(c.flagged, a as usize) == 0 || c.turn_allowed(a, b)
}

/// Lower bound of the weight between node v and the projected point (x, y) in metres.
#[inline(always)]
unsafe fn bound(g: &Graph, c: &Costs, v: u32, x: f64, y: f64) -> f64 {
    let dx = rd(g.node_x, v as usize) - x;
    let dy = rd(g.node_y, v as usize) - y;
    (dx * dx + dy * dy).sqrt() * c.bound_per_metre
}

/// Best route from `src` to `dst`. Returns the arc where the sides met (≥ 0; the path follows the forward parents
/// back to the source and the backward parents on to the target), -2 for a route along the source edge only
/// (its arc in `g.result_arc`), or -1 when none exists. The weight goes to `g.result_weight`.
pub unsafe fn route(g: &mut Graph, c: &Costs, src: End, dst: End) -> i32 {
    let gen = g.next_gen();
    let seen = 2 * gen;
    let done = 2 * gen + 1;
    let w = c.weight;
    let (fl, bl): (*mut Label, *mut Label) = (g.fwd, g.bwd);
    let mut fh = Heap::new(g.fheap, g.fheap_pos);
    let mut bh = Heap::new(g.bheap, g.bheap_pos);
    let (xs, ys) = (src.lon * c.m_per_lon, src.lat * c.m_per_lat);
    let (xt, yt) = (dst.lon * c.m_per_lon, dst.lat * c.m_per_lat);
    let gr: &Graph = g;
    let pot = |v: u32| (bound(gr, c, v, xt, yt) - bound(gr, c, v, xs, ys)) / 2.0;
    let mut best = f64::INFINITY;
    let mut meet: i32 = -1;
    let mut direct: i32 = -1;
    if src.edge == dst.edge {
        for a in 2 * src.edge..=2 * src.edge + 1 {
            let (from, to) = (pos_on_arc(src.t, a), pos_on_arc(dst.t, a));
            if src.only >= 0 && a as i32 != src.only {
                continue;
            }
            let wa = rd(w, a as usize);
            if wa != f64::INFINITY && to >= from && (to - from) * wa < best {
                best = (to - from) * wa;
                direct = a as i32;
            }
        }
    }
    for a in 2 * src.edge..=2 * src.edge + 1 {
        let wa = rd(w, a as usize);
        if wa == f64::INFINITY || (src.only >= 0 && a as i32 != src.only) {
            continue;
        }
        let d = (1.0 - pos_on_arc(src.t, a)) * wa;
        *fl.add(a as usize) = Label { dist: d, parent: -1, state: seen };
        fh.push(a, d + pot(gr.head(a)));
    }
    for b in 2 * dst.edge..=2 * dst.edge + 1 {
        let wb = rd(w, b as usize);
        if wb == f64::INFINITY {
            continue;
        }
        let u = gr.tail(b);
        let d = pos_on_arc(dst.t, b) * wb;
        for i in rd(gr.adj_first, u as usize)..rd(gr.adj_first, u as usize + 1) {
            let a = rd(gr.adj_arc, i as usize) ^ 1;
            if rd(w, a as usize) == f64::INFINITY || !can_turn(c, a, b, u) {
                continue;
            }
            let da = c.turn_weight(a, b, u) + d;
            let la = &mut *bl.add(a as usize);
            if la.state >= seen && la.dist <= da {
                continue;
            }
            *la = Label { dist: da, parent: -1 - b as i32, state: seen };
            bh.push(a, da - pot(u));
            let fa = &*fl.add(a as usize);
            if fa.state >= seen && fa.dist + da < best {
                best = fa.dist + da;
                meet = a as i32;
            }
        }
    }
    let mut settled = 0u32;
    while fh.size > 0 && bh.size > 0 {
        let (kf, kb) = (fh.min_key(), bh.min_key());
        if kf + kb >= best {
            break;
        }
        settled += 1;
        if kf <= kb {
            let a = fh.pop();
            let la = &mut *fl.add(a as usize);
            la.state = done;
            let da = la.dist;
            let h = gr.head(a);
            if rd(c.blocked, h as usize) != 0 {
                continue;
            }
            let uturn_ok = rd(c.out_open, h as usize) == 1;
            let flagged = rd(c.flagged, a as usize) != 0;
            for i in rd(gr.adj_first, h as usize)..rd(gr.adj_first, h as usize + 1) {
                let b = rd(gr.adj_arc, i as usize);
                let wb = rd(w, b as usize);
                let lb = &mut *fl.add(b as usize);
                if wb == f64::INFINITY || lb.state == done {
                    continue;
                }
                if a >> 1 == b >> 1 && !uturn_ok {
                    continue;
                }
                if flagged && !c.turn_allowed(a, b) {
                    continue;
                }
                let nd = da + c.turn_weight(a, b, h) + wb;
                if lb.state >= seen && nd >= lb.dist {
                    continue;
                }
                *lb = Label { dist: nd, parent: a as i32, state: seen };
                fh.push(b, nd + pot(gr.head(b)));
                let rb = &*bl.add(b as usize);
                if rb.state >= seen && nd + rb.dist < best {
                    best = nd + rb.dist;
                    meet = b as i32;
                }
            }
        } else {
            let b = bh.pop();
            let lb = &mut *bl.add(b as usize);
            lb.state = done;
            let u = gr.tail(b);
            if rd(c.blocked, u as usize) != 0 {
                continue;
            }
            let db = lb.dist + rd(w, b as usize);
            let pu = pot(u);
            let uturn_ok = rd(c.out_open, u as usize) == 1;
            for i in rd(gr.adj_first, u as usize)..rd(gr.adj_first, u as usize + 1) {
                let a = rd(gr.adj_arc, i as usize) ^ 1;
                let la = &mut *bl.add(a as usize);
                if rd(w, a as usize) == f64::INFINITY || la.state == done {
                    continue;
                }
                if a >> 1 == b >> 1 && !uturn_ok {
                    continue;
                }
                if rd(c.flagged, a as usize) != 0 && !c.turn_allowed(a, b) {
                    continue;
                }
                let nd = c.turn_weight(a, b, u) + db;
                if la.state >= seen && nd >= la.dist {
                    continue;
                }
                *la = Label { dist: nd, parent: b as i32, state: seen };
                bh.push(a, nd - pu);
                let fa = &*fl.add(a as usize);
                if fa.state >= seen && nd + fa.dist < best {
                    best = nd + fa.dist;
                    meet = a as i32;
                }
            }
        }
    }
    fh.clear();
    bh.clear();
    g.settled = settled;
    g.result_weight = best;
    if best == f64::INFINITY {
        return -1;
    }
    if meet < 0 {
        g.result_arc = direct;
        return -2;
    }
    meet
}
