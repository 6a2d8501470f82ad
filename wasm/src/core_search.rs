//! The core search of a hierarchy with a core: ContractionHierarchy.coreSearch of src/route/ch.ts step for step
//! (the same potentials added in the same order, the same heap pushes and pops, the same stopping rule), so both
//! cores settle the same states and return the same route; the proof of the stopping rule is written there. Core
//! states are 0 .. core here (numbered from the highest rank down, see `Ch::perm`), and their records are their
//! core edges: upward records out-edges, downward records in-edges.

use crate::ch::{relax_meet, Ch, Side};

/// Bidirectional A* over the core from the entry states both upward searches settled (`ent_f[0 .. nf)`,
/// `ent_b[0 .. nb)`, with their labels), keyed by label + landmark potential; improves `best_w` and `meet`.
/// Returns the states settled. Never inlined: the upward searches of a full hierarchy stay small and fast.
#[inline(never)]
pub(crate) unsafe fn search(h: &mut Ch, f: &mut Side, b: &mut Side, best_w: &mut f64, meet: &mut i32, nf: usize, nb: usize) -> u32 {
    f.h.clear();
    b.h.clear();
    if h.gen == u32::MAX {
        for v in 0..h.core as usize {
            *h.pot_gen_f.add(v) = 0;
            *h.pot_gen_b.add(v) = 0;
        }
        h.gen = 0;
    }
    h.gen += 1;
    potentials(h, f, b, nf, nb);
    for k in 0..nf {
        queue(h, f, *h.ent_f.add(k));
    }
    for k in 0..nb {
        queue(h, b, *h.ent_b.add(k));
    }
    let slack = 1e-9 * h.lm_max;
    let mut settled = 0u32;
    loop {
        let (fk, bk) = (f.h.min_key(), b.h.min_key());
        let stop = *best_w + slack + 1e-9 * *best_w;
        if fk >= stop || bk >= stop {
            break;
        }
        settled += 1;
        if fk <= bk {
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
    relax_meet(h, l, o, v, best_w, meet, |s, x, _| queue(h, s, x));
}

/// Queues core state x (labelled) on its side with key label + potential, unless the potential is Infinity.
#[inline(always)]
unsafe fn queue(h: &Ch, l: &mut Side, x: u32) {
    let (pot, stamp) = if l.forward { (h.pot_f, h.pot_gen_f) } else { (h.pot_b, h.pot_gen_b) };
    let v = x as usize;
    if *stamp.add(v) != h.gen {
        *pot.add(v) = potential(h, v, l.forward);
        *stamp.add(v) = h.gen;
    }
    let p = *pot.add(v);
    if p != f64::INFINITY {
        l.h.push(x, l.w(x) + p);
    }
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

/// Landmark potential of core state v for the forward or backward core search (ContractionHierarchy.potential).
#[inline(always)]
unsafe fn potential(h: &Ch, v: usize, forward: bool) -> f64 {
    let nl = h.landmarks as usize;
    let mut p = 0.0f64;
    for l in 0..nl {
        let o = v * nl + l;
        let (f, t) = (*h.lm_from.add(o), *h.lm_to.add(o));
        let k = h.lmc.add(4 * l);
        if forward {
            if f != f64::INFINITY {
                p = max(p, *k - f);
            }
            if *k.add(1) != f64::INFINITY {
                p = max(p, t - *k.add(1));
            }
        } else {
            if *k.add(2) != f64::INFINITY {
                p = max(p, f - *k.add(2));
            }
            if t != f64::INFINITY {
                p = max(p, *k.add(3) - t);
            }
        }
    }
    p
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
