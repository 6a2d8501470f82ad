//! Seconds and metres of hierarchy records, derived at their first use: a query needs them only for the records its
//! route or its matrix's labels are made of, so loading a hierarchy derives weights alone (wasm/src/derive.rs). The
//! same sums in the same order as ContractionHierarchy.derive of src/route/ch.ts (a shortcut's are its first
//! child's plus its second's; an original record's its transition's seconds plus its arc's), so the same floats.

use crate::ch::{Ch, Dl, BLOCK_SHIFT};
use crate::layout::{rd, Costs, Graph};

/// Seconds and metres of record r, derived first (with those of its descendants not derived yet) when not yet.
#[inline(always)]
pub unsafe fn rec_dl(h: &Ch, g: &Graph, c: &Costs, r: usize) -> Dl {
    if !done(h, r) {
        derive_tree(h, g, c, r);
    }
    *h.rec_dl.add(r)
}

/// True when record r's seconds and metres are derived.
#[inline(always)]
unsafe fn done(h: &Ch, r: usize) -> bool {
    (*h.dl_done.add(r >> 5) >> (r & 31)) & 1 != 0
}

/// Derives record r and its descendants not derived yet, children first, with an explicit stack holding the path
/// from r down (each level a record of a lower state: at most `states` deep; `derive` checked that children lie
/// after their parents).
#[inline(never)]
unsafe fn derive_tree(h: &Ch, g: &Graph, c: &Costs, r: usize) {
    let stack = h.dl_stack;
    *stack = r as u32;
    let mut n = 1usize;
    while n > 0 {
        let x = *stack.add(n - 1) as usize;
        let (a, b) = (rd(h.kid_a, x), rd(h.kid_b, x));
        *h.rec_dl.add(x) = if a < 0 {
            original(h, g, c, x, b as u32)
        } else {
            let (a, b) = (a as usize, b as usize);
            if !done(h, a) {
                *stack.add(n) = a as u32;
                n += 1;
                continue;
            }
            if !done(h, b) {
                *stack.add(n) = b as u32;
                n += 1;
                continue;
            }
            let (da, db) = (*h.rec_dl.add(a), *h.rec_dl.add(b));
            Dl { dur: da.dur + db.dur, len: da.len + db.len }
        };
        *h.dl_done.add(x >> 5) |= 1 << (x & 31);
        n -= 1;
    }
}

/// Seconds and metres of original record x over payload arc y: edge-based, after the turn from the arc of the
/// state it leaves (the state whose range holds it for an upward record, its other state for a downward one).
unsafe fn original(h: &Ch, g: &Graph, c: &Costs, x: usize, y: u32) -> Dl {
    let len = rd(g.edge_len, (y >> 1) as usize);
    if h.edge_based == 0 {
        return Dl { dur: rd(c.dur, y as usize), len };
    }
    // The range holding x (rec_first[k] <= x < rec_first[k + 1]; even k are upward), found from the state whose
    // range holds the first record of x's block, a few ranges before it.
    let mut k = 2 * *h.block_state.add(x >> BLOCK_SHIFT) as usize;
    while rd(h.rec_first, k + 1) as usize <= x {
        k += 1;
    }
    let tail = if k & 1 == 0 { k / 2 } else { rd(h.rec_node, x) as usize };
    let from = c.arc_of(*h.pack_state.add(tail));
    Dl { dur: c.turn_dur(from, y, g.tail(y)) + rd(c.dur, y as usize), len }
}
