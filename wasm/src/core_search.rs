//! The core search of a hierarchy with a core: ContractionHierarchy.coreSearch of src/route/ch.ts step for step
//! (the same potentials added in the same order, the same heap pushes and pops, the same pruning and stopping
//! rule), so both cores settle the same states and return the same route; the proof of the stopping rule is written
//! there. Core states are 0 .. core here (numbered from the highest rank down, see `Ch::perm`), and their records
//! are their core edges: upward records out-edges, downward records in-edges.

use crate::ch::{relax_meet, Ch, Side};

/// Bidirectional A* over the core from the entry states both upward searches settled (`ent_f[0 .. nf)`,
/// `ent_b[0 .. nb)`, with their labels), keyed by label ± the average potential (π_f − π_b) / 2, the sides taking
/// turns, stopped once the two least keys add up to the best weight; improves `best_w` and `meet`.
/// Returns the states settled. Never inlined: the upward searches of a full hierarchy stay small and fast.
#[inline(never)]
pub(crate) unsafe fn search(h: &mut Ch, f: &mut Side, b: &mut Side, best_w: &mut f64, meet: &mut i32, nf: usize, nb: usize) -> u32 {
    f.h.clear();
    b.h.clear();
    if h.gen == u32::MAX {
        for v in 0..h.core as usize {
            *h.pot_gen.add(v) = 0;
        }
        h.gen = 0;
    }
    h.gen += 1;
    potentials(h, f, b, nf, nb);
    for k in 0..nf {
        queue(h, f, *h.ent_f.add(k), *best_w);
    }
    for k in 0..nb {
        queue(h, b, *h.ent_b.add(k), *best_w);
    }
    let mut settled = 0u32;
    loop {
        if f.h.min_key() + b.h.min_key() >= bound(h, *best_w) {
            break;
        }
        settled += 1;
        // The sides take turns (see ContractionHierarchy.coreSearch): forward on odd counts, the first included.
        if settled & 1 == 1 {
            expand(h, f, b, best_w, meet);
        } else {
            expand(h, b, f, best_w, meet);
        }
    }
    settled
}

/// Settles the next core state of side `l`: relaxes its core edges, queues each improved label with its potential,
/// and tests the meeting with side `o`.
#[inline(always)]
unsafe fn expand(h: &Ch, l: &mut Side, o: &Side, best_w: &mut f64, meet: &mut i32) {
    let v = l.h.pop();
    relax_meet(h, l, o, v, best_w, meet, |s, x, _, best| queue(h, s, x, best));
}

/// The best weight with the core search's float slack (ContractionHierarchy.coreBound).
#[inline(always)]
fn bound(h: &Ch, best_w: f64) -> f64 {
    best_w + 1e-9 * h.lm_max + 1e-9 * best_w
}

/// Queues core state x (labelled) on its side with key label ± (π_f − π_b) / 2 (+ forward, − backward), unless a
/// potential is Infinity or label + the side's own potential reaches the bound (ContractionHierarchy.queueCore).
#[inline(always)]
unsafe fn queue(h: &Ch, l: &mut Side, x: u32, best_w: f64) {
    let v = x as usize;
    if *h.pot_gen.add(v) != h.gen {
        potential(h, v);
        *h.pot_gen.add(v) = h.gen;
    }
    let (pf, pb, w) = (*h.pot_f.add(v), *h.pot_b.add(v), l.w(x));
    if pf == f64::INFINITY || pb == f64::INFINITY || w + if l.forward { pf } else { pb } >= bound(h, best_w) {
        return;
    }
    let p = (pf - pb) / 2.0;
    l.h.push(x, if l.forward { w + p } else { w - p });
}

/// The per-landmark constants A, B, C, D of both potentials from the other side's entries and labels
/// (ContractionHierarchy.corePotentials), into `lmc`.
unsafe fn potentials(h: &Ch, f: &Side, b: &Side, nf: usize, nb: usize) {
    let nl = h.landmarks as usize;
    for l in 0..nl {
        let (mut a, mut bm, mut cm, mut d) = (f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY, f64::INFINITY);
        for q in 0..nb {
            let e = *h.ent_b.add(q);
            let (c, de) = (e as usize * nl + l, b.w(e));
            let (from, to) = (*h.lm_from.add(c), *h.lm_to.add(c));
            if from != f64::INFINITY {
                a = min(a, from + de);
            }
            bm = max(bm, to - de);
        }
        for q in 0..nf {
            let e = *h.ent_f.add(q);
            let (c, de) = (e as usize * nl + l, f.w(e));
            let (from, to) = (*h.lm_from.add(c), *h.lm_to.add(c));
            cm = max(cm, from - de);
            if to != f64::INFINITY {
                d = min(d, de + to);
            }
        }
        let k = h.lmc.add(4 * l);
        *k = a;
        *k.add(1) = bm;
        *k.add(2) = cm;
        *k.add(3) = d;
    }
}

/// Both landmark potentials of core state v, into `pot_f` and `pot_b` (ContractionHierarchy.potential).
#[inline(always)]
unsafe fn potential(h: &Ch, v: usize) {
    let nl = h.landmarks as usize;
    let (mut pf, mut pb) = (0.0f64, 0.0f64);
    for l in 0..nl {
        let o = v * nl + l;
        let (f, t) = (*h.lm_from.add(o), *h.lm_to.add(o));
        let k = h.lmc.add(4 * l);
        if f != f64::INFINITY {
            pf = max(pf, *k - f);
        }
        if *k.add(1) != f64::INFINITY {
            pf = max(pf, t - *k.add(1));
        }
        if *k.add(2) != f64::INFINITY {
            pb = max(pb, f - *k.add(2));
        }
        if t != f64::INFINITY {
            pb = max(pb, *k.add(3) - t);
        }
    }
    *h.pot_f.add(v) = pf;
    *h.pot_b.add(v) = pb;
}

/// Math.min and Math.max of two numbers that are never NaN here (landmark weights and labels are not).
#[inline(always)]
fn min(a: f64, b: f64) -> f64 {
    if b < a { b } else { a }
}

#[inline(always)]
fn max(a: f64, b: f64) -> f64 {
    if b > a { b } else { a }
}
