//! A hierarchy's record weights, seconds and metres, derived where the searches read them: in one backward pass over
//! the records, children first (ContractionHierarchy.derive of src/route/ch.ts: the same sums in the same order,
//! so the same floats), each record checked as it is read. Deriving here spares a copy of the TypeScript side's
//! weights into linear memory, and that side derives its own only when it answers a query itself.

use crate::ch::{Ch, Rec, Sums};
use crate::layout::{rd, Costs, Graph};

/// Writes every record's `Rec` (weight, the other state renumbered by `Ch::perm`, slot = its index) and `Ch::rec_sums`.
/// Expects, written by the TypeScript side (src/route/wasm/ch.ts): `perm`, `rec_first` (the pack's ranges, already
/// checked to tile the records in order), `kid_a` and `kid_b` (the pack's children), and the pack's `node` array
/// (u32 per record) at the start of `rec`; it is read in place, each record's entry before its `Rec` is written over
/// it: records are written from the last down, and `Rec` r (bytes 16r ..) lies past every entry below r (bytes 4r ..).
/// Uses `first` as scratch. Returns -1 when all records are sound, else the first one (from the last down) that
/// refers to a state or child out of range, lists a child not after it (children first), or has a weight that is
/// not finite; what is wrong is for the caller to say.
pub unsafe fn derive(g: &Graph, c: &Costs, h: &mut Ch) -> i32 {
    let states = h.states as usize;
    let records = rd(h.rec_first, 2 * states) as usize;
    // The pack state of each state here (`perm` inverted): a record's tail state, to find the arc it turns from.
    let pack_state = h.first;
    for s in 0..states {
        *pack_state.add(rd(h.perm, s) as usize) = s as u32;
    }
    let node = h.rec as *const u32;
    for v in (0..states).rev() {
        let up_end = rd(h.rec_first, 2 * v + 1) as usize;
        for r in (rd(h.rec_first, 2 * v) as usize..rd(h.rec_first, 2 * v + 2) as usize).rev() {
            let (x, a, b) = (rd(node, r), rd(h.kid_a, r), rd(h.kid_b, r));
            if x as usize >= states {
                return r as i32;
            }
            let sums = if a >= 0 {
                let (a, b) = (a as usize, b as usize);
                if a <= r || a >= records || b <= r || b >= records {
                    return r as i32;
                }
                let (x, y) = (*h.rec_sums.add(a), *h.rec_sums.add(b));
                Sums { w: x.w + y.w, dur: x.dur + y.dur, len: x.len + y.len }
            } else {
                if b < 0 || b as u32 >= g.arcs {
                    return r as i32;
                }
                let y = b as u32;
                let len = rd(g.edge_len, (y >> 1) as usize);
                if h.edge_based != 0 {
                    // The record leaves its tail: the state itself for upward records, the other state for
                    // downward ones.
                    let from = c.arc_of(if r < up_end { *pack_state.add(v) } else { x });
                    let td = c.turn_dur(from, y, g.tail(y));
                    let tw = c.turn_weight_of(td, from, y);
                    Sums { w: tw + rd(c.weight, y as usize), dur: td + rd(c.dur, y as usize), len }
                } else {
                    Sums { w: rd(c.weight, y as usize), dur: rd(c.dur, y as usize), len }
                }
            };
            // The searches read an infinite label weight as "not labelled": a record must never offer one.
            if !sums.w.is_finite() {
                return r as i32;
            }
            *h.rec.add(r) = Rec { w: sums.w, node: rd(h.perm, x as usize), slot: r as u32 };
            *h.rec_sums.add(r) = sums;
        }
    }
    -1
}
