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

/// True when no barrier or U-turn rule keeps the vehicle from going from arc a (entering node v) on to arc b
/// (leaving v): at a barrier only the U-turn, elsewhere U-turns only at dead ends; restrictions are `Costs::next`'s
/// part (ArcSearch.openTurn).
#[inline(always)]
pub unsafe fn open_turn(c: &Costs, a: u32, b: u32, v: u32) -> bool {
    if rd(c.blocked, v as usize) != 0 {
        return a >> 1 == b >> 1;
    }
    a >> 1 != b >> 1 || rd(c.out_open, v as usize) == 1
}

/// Lower bound of the weight between node v and the projected point (x, y) in metres.
#[inline(always)]
unsafe fn bound(g: &Graph, c: &Costs, v: u32, x: f64, y: f64) -> f64 {
    let dx = rd(g.node_x, v as usize) - x;
    let dy = rd(g.node_y, v as usize) - y;
    (dx * dx + dy * dy).sqrt() * c.bound_per_metre
}

/// Best route from `src` to `dst`. Returns the state where the sides met (≥ 0; the path follows the forward parents
/// back to the source and the backward parents on to the target, states the TypeScript side maps to arcs), -2 for a route along the source edge only
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
        let pu = pot(u);
        for i in rd(gr.adj_first, u as usize)..rd(gr.adj_first, u as usize + 1) {
            let a = rd(gr.adj_arc, i as usize) ^ 1;
            if rd(w, a as usize) == f64::INFINITY || !open_turn(c, a, b, u) {
                continue;
            }
            let da = c.turn_weight(a, b, u) + d;
            // Arc a's plain state, then its copies.
            let (mut k, end) = c.copies(a);
            let mut s = a;
            loop {
                if c.next(s, b) >= 0 {
                    let ls = &mut *bl.add(s as usize);
                    if !(ls.state >= seen && ls.dist <= da) {
                        *ls = Label { dist: da, parent: -1 - b as i32, state: seen };
                        bh.push(s, da - pu);
                        let fs = &*fl.add(s as usize);
                        if fs.state >= seen && fs.dist + da < best {
                            best = fs.dist + da;
                            meet = s as i32;
                        }
                    }
                }
                if k >= end {
                    break;
                }
                s = k;
                k += 1;
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
            let s = fh.pop();
            let ls = &mut *fl.add(s as usize);
            ls.state = done;
            let da = ls.dist;
            let a = c.arc_of(s);
            let h = gr.head(a);
            let blocked = rd(c.blocked, h as usize) != 0;
            let uturn_ok = blocked || rd(c.out_open, h as usize) == 1;
            let ruled = rd(c.rule, s as usize) >= 0;
            for i in rd(gr.adj_first, h as usize)..rd(gr.adj_first, h as usize + 1) {
                let b = rd(gr.adj_arc, i as usize);
                let wb = rd(w, b as usize);
                if wb == f64::INFINITY {
                    continue;
                }
                if if a >> 1 == b >> 1 { !uturn_ok } else { blocked } {
                    continue;
                }
                let t = if ruled { c.next(s, b) } else { b as i32 };
                if t < 0 {
                    continue;
                }
                let lt = &mut *fl.add(t as usize);
                if lt.state == done {
                    continue;
                }
                let nd = da + c.turn_weight(a, b, h) + wb;
                if lt.state >= seen && nd >= lt.dist {
                    continue;
                }
                *lt = Label { dist: nd, parent: s as i32, state: seen };
                fh.push(t as u32, nd + pot(gr.head(b)));
                let rt = &*bl.add(t as usize);
                if rt.state >= seen && nd + rt.dist < best {
                    best = nd + rt.dist;
                    meet = t;
                }
            }
        } else {
            let t = bh.pop();
            let lt = &mut *bl.add(t as usize);
            lt.state = done;
            let b = c.arc_of(t);
            let u = gr.tail(b);
            let blocked = rd(c.blocked, u as usize) != 0;
            let db = lt.dist + rd(w, b as usize);
            let pu = pot(u);
            let uturn_ok = blocked || rd(c.out_open, u as usize) == 1;
            for i in rd(gr.adj_first, u as usize)..rd(gr.adj_first, u as usize + 1) {
                let a = rd(gr.adj_arc, i as usize) ^ 1;
                if rd(w, a as usize) == f64::INFINITY {
                    continue;
                }
                if if a >> 1 == b >> 1 { !uturn_ok } else { blocked } {
                    continue;
                }
                let nd = c.turn_weight(a, b, u) + db;
                // The states of arc a whose transition onto b leads to t: a itself and its copies.
                let (mut k, end) = c.copies(a);
                let mut s = a;
                loop {
                    let ls = &mut *bl.add(s as usize);
                    let next = if rd(c.rule, s as usize) >= 0 { c.next(s, b) } else { b as i32 };
                    if ls.state != done && next == t as i32 && !(ls.state >= seen && nd >= ls.dist) {
                        *ls = Label { dist: nd, parent: t as i32, state: seen };
                        bh.push(s, nd - pu);
                        let fs = &*fl.add(s as usize);
                        if fs.state >= seen && nd + fs.dist < best {
                            best = nd + fs.dist;
                            meet = s as i32;
                        }
                    }
                    if k >= end {
                        break;
                    }
                    s = k;
                    k += 1;
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
