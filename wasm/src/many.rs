//! One-to-many search: ArcSearch.oneToMany of src/route/search.ts, step for step (forward Dijkstra over states
//! stopped once every reachable target is final, turn costs and durations and metres added in path order).

use crate::heap::Heap;
use crate::layout::{rd, Costs, Graph};
use crate::search::pos_on_arc;

/// Searches from the source point (edge, fraction) to the first `n` targets of `g.dst_*`, writing each target's
/// weight, seconds and metres to `g.out_*` (Infinity when unreachable). Target arcs are marked seen in the backward
/// labels, whose `parent` heads a list of target slots (2·j + direction) chained through `g.dst_next`.
pub unsafe fn one_to_many(g: &mut Graph, c: &Costs, src_edge: u32, src_t: f64, n: usize) {
    let gen = g.next_gen();
    let seen = 2 * gen;
    let done = 2 * gen + 1;
    let (w, du, len) = (c.weight, c.dur, g.edge_len);
    let (fl, bl) = (g.fwd, g.bwd);
    let (ow, od, ol) = (g.out_weight, g.out_dur, g.out_dist);
    let (fd, fln) = (g.fdur, g.flen);
    for j in 0..n {
        *ow.add(j) = f64::INFINITY;
        *od.add(j) = f64::INFINITY;
        *ol.add(j) = f64::INFINITY;
        let e = rd(g.dst_edge, j);
        let t = rd(g.dst_t, j);
        let mut open = false;
        for b in 2 * e..=2 * e + 1 {
            let wb = rd(w, b as usize);
            if wb == f64::INFINITY {
                continue;
            }
            open = true;
            let lb = &mut *bl.add(b as usize);
            if lb.state != seen {
                lb.state = seen;
                lb.parent = -1;
            }
            let slot = 2 * j + (b & 1) as usize;
            *g.dst_next.add(slot) = lb.parent;
            lb.parent = slot as i32;
            if e == src_edge {
                let (from, to) = (pos_on_arc(src_t, b), pos_on_arc(t, b));
                if to >= from && (to - from) * wb < *ow.add(j) {
                    *ow.add(j) = (to - from) * wb;
                    *od.add(j) = (to - from) * rd(du, b as usize);
                    *ol.add(j) = (to - from) * rd(len, (b >> 1) as usize);
                }
            }
        }
        *g.dst_active.add(j) = open as u8;
    }
    let refresh = |g: &Graph| -> f64 {
        let mut bound = 0.0f64;
        for j in 0..n {
            if *g.dst_active.add(j) == 0 {
                continue;
            }
            let v = *ow.add(j);
            if v == f64::INFINITY {
                return f64::INFINITY;
            }
            bound = bound.max(v);
        }
        bound
    };
    let mut bound = refresh(g);
    let mut h = Heap::new(g.fheap, g.fheap_pos);
    for a in 2 * src_edge..=2 * src_edge + 1 {
        let wa = rd(w, a as usize);
        if wa == f64::INFINITY {
            continue;
        }
        let f = 1.0 - pos_on_arc(src_t, a);
        let la = &mut *fl.add(a as usize);
        la.dist = f * wa;
        *fd.add(a as usize) = f * rd(du, a as usize);
        *fln.add(a as usize) = f * rd(len, (a >> 1) as usize);
        la.parent = -1;
        la.state = seen;
        h.push(a, la.dist);
    }
    let mut settled = 0u32;
    while h.size > 0 {
        if h.min_key() >= bound {
            break;
        }
        let s = h.pop();
        let ls = &mut *fl.add(s as usize);
        ls.state = done;
        settled += 1;
        let a = c.arc_of(s);
        let hd = g.head(a);
        // At a barrier only the U-turn; elsewhere U-turns only at dead ends (`open_turn`).
        let blocked = rd(c.blocked, hd as usize) != 0;
        let da = ls.dist;
        let (fda, fla) = (*fd.add(s as usize), *fln.add(s as usize));
        let uturn_ok = blocked || rd(c.out_open, hd as usize) == 1;
        let ruled = rd(c.rule, s as usize) >= 0;
        let mut touched = false;
        for i in rd(g.adj_first, hd as usize)..rd(g.adj_first, hd as usize + 1) {
            let b = rd(g.adj_arc, i as usize);
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
            let td = c.turn_dur(a, b, hd);
            let tw = c.turn_weight_of(td, a, b);
            let rb = &*bl.add(b as usize);
            if rb.state == seen {
                // Reach every target on arc b through arc a.
                let mut slot = rb.parent;
                while slot >= 0 {
                    let j = (slot >> 1) as usize;
                    let f = pos_on_arc(rd(g.dst_t, j), b);
                    let cand = da + tw + f * wb;
                    if cand < *ow.add(j) {
                        *ow.add(j) = cand;
                        *od.add(j) = fda + td + f * rd(du, b as usize);
                        *ol.add(j) = fla + f * rd(len, (b >> 1) as usize);
                    }
                    slot = *g.dst_next.add(slot as usize);
                }
                touched = true;
            }
            let lt = &mut *fl.add(t as usize);
            if lt.state == done {
                continue;
            }
            let nd = da + tw + wb;
            if lt.state >= seen && nd >= lt.dist {
                continue;
            }
            lt.dist = nd;
            *fd.add(t as usize) = fda + td + rd(du, b as usize);
            *fln.add(t as usize) = fla + rd(len, (b >> 1) as usize);
            lt.parent = s as i32;
            lt.state = seen;
            h.push(t as u32, nd);
        }
        if touched {
            bound = refresh(g);
        }
    }
    h.clear();
    g.settled = settled;
}
