//! A hierarchy's record weights, derived where the searches read them: in one backward pass over the records,
//! children first (ContractionHierarchy.derive of src/route/ch.ts: the same sums in the same order, so the same
//! floats), each record checked as it is read. Deriving here spares a copy of the TypeScript side's weights into
//! linear memory, and that side derives its own only when it answers a query itself. Seconds and metres are left
//! to their first use (wasm/src/sums.rs): this pass reads each shortcut's children at random places in memory, so
//! reading only their weights (8 bytes each, in 8 bytes per record) and writing nothing else per record is what
//! keeps it short.

use crate::ch::{Ch, BLOCK_SHIFT};
use crate::layout::{rd, Costs, Graph};

/// Writes every record's weight (`Ch::rec_w`), renumbers its other state in place (`Ch::rec_node` holds the pack's
/// `node` array, each entry read before it is written), and fills `Ch::pack_state` and `Ch::block_state`. Expects,
/// written by the TypeScript side (src/route/wasm/ch.ts): `perm`, `rec_first` (the pack's ranges, already checked to
/// tile the records in order), `kid_a` and `kid_b` (the pack's children). Returns -1 when all records are sound,
/// else the
/// first one (from the last down) that refers to a state, child or arc out of range, lists a child not after it
/// (children first: also what makes shortcut trees finite for wasm/src/sums.rs), or has a weight that is not
/// finite; what is wrong is for the caller to say.
pub unsafe fn derive(g: &Graph, c: &Costs, h: &mut Ch) -> i32 {
    let states = h.states as usize;
    let records = rd(h.rec_first, 2 * states) as usize;
    let pack_state = h.pack_state;
    for s in 0..states {
        *pack_state.add(rd(h.perm, s) as usize) = s as u32;
    }
    for v in (0..states).rev() {
        let up_end = rd(h.rec_first, 2 * v + 1) as usize;
        for r in (rd(h.rec_first, 2 * v) as usize..rd(h.rec_first, 2 * v + 2) as usize).rev() {
            if r & ((1 << BLOCK_SHIFT) - 1) == 0 {
                *h.block_state.add(r >> BLOCK_SHIFT) = v as u32;
            }
            let (x, a, b) = (rd(h.rec_node, r), rd(h.kid_a, r), rd(h.kid_b, r));
            if x as usize >= states {
                return r as i32;
            }
            let w = if a >= 0 {
                let (a, b) = (a as usize, b as usize);
                if a <= r || a >= records || b <= r || b >= records {
                    return r as i32;
                }
                rd(h.rec_w, a) + rd(h.rec_w, b)
            } else {
                if b < 0 || b as u32 >= g.arcs {
                    return r as i32;
                }
                let y = b as u32;
                if h.edge_based != 0 {
                    // The record leaves its tail: the state itself for upward records, the other state for
                    // downward ones.
                    let from = c.arc_of(if r < up_end { *pack_state.add(v) } else { x });
                    c.turn_weight(from, y, g.tail(y)) + rd(c.weight, y as usize)
                } else {
                    rd(c.weight, y as usize)
                }
            };
            // The searches read an infinite label weight as "not labelled": a record must never offer one.
            if !w.is_finite() {
                return r as i32;
            }
            *h.rec_w.add(r) = w;
            *h.rec_node.add(r) = rd(h.perm, x as usize);
        }
    }
    -1
}
