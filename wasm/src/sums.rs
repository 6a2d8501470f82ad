//! Seconds and metres of shortcuts, derived at their first use: a query needs them only for the records its route
//! or its matrix's labels are made of, so loading a hierarchy derives the original records' alone, with the weights
//! (wasm/src/derive.rs). The same sums in the same order as ContractionHierarchy.derive of src/route/ch.ts (a
//! shortcut's are its first child's plus its second's), so the same floats.

use crate::ch::{Ch, Dl};
use crate::layout::rd;

/// Seconds and metres of record r, derived first (with those of its descendants not derived yet) when not yet.
#[inline(always)]
pub unsafe fn rec_dl(h: &Ch, r: usize) -> Dl {
    if !done(h, r) {
        derive_tree(h, r);
    }
    *h.rec_dl.add(r)
}

/// True when record r's seconds and metres are derived.
#[inline(always)]
unsafe fn done(h: &Ch, r: usize) -> bool {
    (*h.dl_done.add(r >> 5) >> (r & 31)) & 1 != 0
}

/// Derives shortcut r and its descendants not derived yet, children first, with an explicit stack holding the path
/// from r down (each level a record of a lower state: at most `states` deep; `derive` checked that children lie
/// after their parents, and derived every original record).
#[inline(never)]
unsafe fn derive_tree(h: &Ch, r: usize) {
    let stack = h.dl_stack;
    *stack = r as u32;
    let mut n = 1usize;
    while n > 0 {
        let x = *stack.add(n - 1) as usize;
        let (a, b) = (rd(h.kid_a, x) as usize, rd(h.kid_b, x) as usize);
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
        *h.rec_dl.add(x) = Dl { dur: da.dur + db.dur, len: da.len + db.len };
        *h.dl_done.add(x >> 5) |= 1 << (x & 31);
        n -= 1;
    }
}
