//! Contraction hierarchy queries: ContractionHierarchy.route and .table of src/route/ch.ts step for step
//! (same seeds, same stall-on-demand, same heap, same relaxation order, the same core search: wasm/src/core.rs),
//! over the pack's "CH layout v5" arrays (records already in the order searched here) copied into linear memory
//! (src/route/wasm/ch.ts), the record weights derived from them here at load (wasm/src/derive.rs) and their
//! seconds and metres at first use (wasm/src/sums.rs), in a layout made for these searches: states renumbered by
//! rank, labels reduced to weights. Renumbering changes no answer: the heap compares keys only, and each state keeps
//! its records in pack order, so pushes, pops, ties and bucket order are those of the TypeScript query.

use crate::alloc::alloc;
use crate::heap::Heap;
use crate::layout::{rd, Costs, Graph};
use crate::search::{open_turn, pos_on_arc};

/// Records per block of `Ch::block_state` (as a power of two): a state's ranges hold about ten records, so a block's
/// first record lies a few dozen ranges at most before any of its records.
pub const BLOCK_SHIFT: usize = 8;

/// Seconds and metres of a record or of a settled state's label.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Dl {
    pub dur: f64,
    pub len: f64,
}

/// A bucket entry grouped by state: what the backward search of destination `dest` left there. `run` is the number
/// of entries of the state in its first entry (`bucket_range`), 0 in the others.
#[repr(C)]
pub struct Bucket {
    pub dest: u32,
    pub run: u32,
    pub w: f64,
    pub d: f64,
    pub l: f64,
}

/// The labels of one search direction, one entry per state in each array. A label is its weight alone where the
/// searches test it (stall-on-demand, relaxation, meeting): Infinity = not labelled in this query, so no
/// generation stamp is needed; every query puts its touched states back to Infinity. The record that reached the
/// state (or -1 - arc at a seed) and the state it came from sit apart, written only on improvements. Seconds and
/// metres are not carried: they are summed along the parent chain in the order the TypeScript labels add them
/// (seed first, then each record), so the sums are the same floats.
#[repr(C)]
pub struct SideMem {
    pub w: *mut f64,
    /// (record, previous state) per state.
    pub pp: *mut [i32; 2],
    /// Heap position per state, -1 when not queued.
    pub pos: *mut i32,
    /// States labelled in this query (each once: when its weight leaves Infinity).
    pub touched: *mut u32,
    /// Seconds and metres of the states settled by many-to-many searches.
    pub dl: *mut Dl,
    /// Heap slots (16 bytes × states).
    pub heap: *mut u8,
}

/// One hierarchy with its search state (field order must match src/route/wasm/layout.ts).
#[repr(C)]
pub struct Ch {
    /// Out: weight, seconds and metres of the last route.
    pub result_weight: f64,
    pub result_dur: f64,
    pub result_dist: f64,
    /// Largest finite landmark weight (scales the core search's float tolerance; 0 without a core).
    pub lm_max: f64,
    pub states: u32,
    pub edge_based: u32,
    pub settled: u32,
    /// Out: the arc of a route that stays on the source edge.
    pub result_arc: i32,
    /// u32 per pack state (road node or arc): its state here. States are numbered here from the highest rank
    /// down, and records follow their states, so the top of the hierarchy that every search climbs is compact in
    /// memory. Each state keeps its records in pack order, so searches relax, tie and settle as in the pack order.
    pub perm: *const u32,
    /// u32 × (2 states + 1): the upward records of state v are `first[2v] .. first[2v+1]`, its downward records
    /// `first[2v+1] .. first[2v+2]`, so a settle's stall test and relaxation read one stretch of records.
    pub rec_first: *const u32,
    /// Per record, in the pack's order (CH layout v5: the order the searches read them), what a relaxation reads:
    /// its weight (f64, written by `derive`) and its other state here (the pack's, renumbered in place by `derive`).
    pub rec_w: *mut f64,
    pub rec_node: *mut u32,
    /// Per record, for unpacking: the pack's children (`a`, `b` of src/route/ch.ts: a shortcut's two child records,
    /// or -1 and the payload arc), copied as they are.
    pub kid_a: *const i32,
    pub kid_b: *const i32,
    /// Per record: seconds and metres, derived at first use (wasm/src/sums.rs) where its bit in `dl_done` is set;
    /// that derivation's explicit stack (states + 1 entries: each level of a shortcut tree is a lower state).
    pub rec_dl: *mut Dl,
    pub dl_done: *mut u32,
    pub dl_stack: *mut u32,
    /// u32 per state here: its pack state (`perm` inverted); u32 per block of 2^BLOCK_SHIFT records: the state whose
    /// range holds the block's first record (both by `derive`), to find the state an original record leaves.
    pub pack_state: *mut u32,
    pub block_state: *mut u32,
    /// Unpacked path of the last route (capacity `path_cap` arcs) and the explicit stack unpacking uses.
    pub path_cap: u32,
    pub path: *mut u32,
    pub stack: *mut i32,
    pub fwd: SideMem,
    pub bwd: SideMem,
    /// Buckets of `table` (capacity `bucket_cap`, regrown here): state, destination, weight, seconds, metres.
    pub bucket_cap: u32,
    pub e_state: *mut u32,
    pub e_dest: *mut u32,
    pub e_w: *mut f64,
    pub e_d: *mut f64,
    pub e_l: *mut f64,
    /// The same entries grouped by state (destination, weight, seconds, metres), scanned in order by the forward
    /// searches.
    pub sorted: *mut Bucket,
    /// u32 × (states + 1): per state with buckets in the running `table`, RUN_AT | the index of its first entry in
    /// `sorted`; 0 at every other state (zero between calls: a call puts back only the states it touched, so its
    /// cost follows its entries, not the hierarchy's size).
    pub first: *mut u32,
    /// The core (see src/route/ch.ts): its states are 0 .. core here (the highest ranks), with `landmarks`
    /// landmarks; 0 for a fully contracted hierarchy.
    pub core: u32,
    pub landmarks: u32,
    /// f64 × core × landmarks: weight from landmark l to core state v at v·L + l, and from v to l (Infinity: none).
    pub lm_from: *const f64,
    pub lm_to: *const f64,
    /// Core search state (wasm/src/core_search.rs): per core state both potentials (toward the target, from the
    /// source), valid where its stamp is `gen`.
    pub gen: u32,
    pub pot_f: *mut f64,
    pub pot_b: *mut f64,
    pub pot_gen: *mut u32,
    /// f64 × 4 landmarks: the per-landmark constants of both potentials of the query under way.
    pub lmc: *mut f64,
    /// u32 × core each: core states each side's upward search settled (entry states).
    pub ent_f: *mut u32,
    pub ent_b: *mut u32,
    /// i32 × `dest_cap` each: per destination of `table`, its core entries, and how many an origin's core search
    /// has still to settle.
    pub dest_cap: u32,
    pub d_entries: *mut i32,
    pub d_left: *mut i32,
}

/// One search side at work: its labels, touched states and heap, and the point it starts from (arc fraction
/// `t`; forward sides start at a source, backward sides at a target) to recompute seed seconds and metres.
pub(crate) struct Side {
    w: *mut f64,
    pp: *mut [i32; 2],
    touched: *mut u32,
    nt: usize,
    pub(crate) dl: *mut Dl,
    pub(crate) h: Heap,
    pub(crate) forward: bool,
    t: f64,
}

impl Side {
    unsafe fn new(m: &SideMem, forward: bool, t: f64) -> Side {
        Side { w: m.w, pp: m.pp, touched: m.touched, nt: 0, dl: m.dl, h: Heap::new(m.heap, m.pos), forward, t }
    }

    /// Weight of state x's label (Infinity when not labelled).
    #[inline(always)]
    pub(crate) unsafe fn w(&self, x: u32) -> f64 {
        *self.w.add(x as usize)
    }

    /// (record, previous state) of state x's label.
    #[inline(always)]
    pub(crate) unsafe fn pp(&self, x: u32) -> [i32; 2] {
        *self.pp.add(x as usize)
    }

    /// Sets a label when it improves, queued with its weight as key; true when it did.
    #[inline(always)]
    unsafe fn label(&mut self, x: u32, w: f64, par: i32, prev: i32) -> bool {
        if !self.set(x, w, par, prev) {
            return false;
        }
        self.h.push(x, w);
        true
    }

    /// Sets a label when it improves, not queued; true when it did.
    #[inline(always)]
    pub(crate) unsafe fn set(&mut self, x: u32, w: f64, par: i32, prev: i32) -> bool {
        let lw = &mut *self.w.add(x as usize);
        if *lw <= w {
            return false;
        }
        if *lw == f64::INFINITY {
            *self.touched.add(self.nt) = x;
            self.nt += 1;
        }
        *lw = w;
        *self.pp.add(x as usize) = [par, prev];
        true
    }

    /// Ends a query: empties the heap and unlabels the touched states.
    unsafe fn reset(&mut self) {
        self.h.clear();
        for k in 0..self.nt {
            *self.w.add(*self.touched.add(k) as usize) = f64::INFINITY;
        }
        self.nt = 0;
    }

    /// Seconds and metres of the seed label from arc `a` (the source arc forward, the target arc backward), with
    /// the expressions the seeds use. `from` ≥ 0 (edge-based backward seeds): the seed state's arc, whose turn
    /// onto `a` comes first.
    #[inline(always)]
    unsafe fn seed_dl(&self, g: &Graph, c: &Costs, a: u32, from: i32) -> Dl {
        let k = if self.forward { 1.0 - pos_on_arc(self.t, a) } else { pos_on_arc(self.t, a) };
        let d = k * rd(c.dur, a as usize);
        let dur = if from >= 0 { c.turn_dur(from as u32, a, g.tail(a)) + d } else { d };
        Dl { dur, len: k * rd(g.edge_len, (a >> 1) as usize) }
    }
}

impl Ch {
    unsafe fn seed_source(&self, g: &Graph, c: &Costs, f: &mut Side, edge: u32, only: i32) {
        for a in 2 * edge..=2 * edge + 1 {
            let wa = rd(c.weight, a as usize);
            if wa == f64::INFINITY || (only >= 0 && a as i32 != only) {
                continue;
            }
            let k = 1.0 - pos_on_arc(f.t, a);
            let s = rd(self.perm, (if self.edge_based != 0 { a } else { g.head(a) }) as usize);
            f.label(s, k * wa, -1 - a as i32, -1);
        }
    }

    unsafe fn seed_target(&self, g: &Graph, c: &Costs, b_side: &mut Side, edge: u32) {
        for b in 2 * edge..=2 * edge + 1 {
            let wb = rd(c.weight, b as usize);
            if wb == f64::INFINITY {
                continue;
            }
            let w = pos_on_arc(b_side.t, b) * wb;
            let u = g.tail(b);
            if self.edge_based == 0 {
                b_side.label(rd(self.perm, u as usize), w, -1 - b as i32, -1);
                continue;
            }
            for i in rd(g.adj_first, u as usize)..rd(g.adj_first, u as usize + 1) {
                let a = rd(g.adj_arc, i as usize) ^ 1;
                if rd(c.weight, a as usize) == f64::INFINITY || !open_turn(c, a, b, u) {
                    continue;
                }
                // Arc a's plain state, then its copies (TurnTable), each when it may turn onto b.
                let (mut k, end) = c.copies(a);
                let mut s = a;
                loop {
                    if c.next(s, b) >= 0 {
                        // A seed's previous state is unused: it keeps the seed's arc for `seed_dl`.
                        b_side.label(rd(self.perm, s as usize), c.turn_weight(a, b, u) + w, -1 - b as i32, a as i32);
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

    /// Best route along the source edge only: (weight, seconds, metres, arc), weight Infinity when none.
    unsafe fn direct(g: &Graph, c: &Costs, se: u32, st: f64, de: u32, dt: f64, only: i32) -> (f64, f64, f64, i32) {
        let mut best = (f64::INFINITY, f64::INFINITY, f64::INFINITY, -1);
        if se != de {
            return best;
        }
        for a in 2 * se..=2 * se + 1 {
            let wa = rd(c.weight, a as usize);
            if wa == f64::INFINITY || (only >= 0 && a as i32 != only) {
                continue;
            }
            let k = pos_on_arc(dt, a) - pos_on_arc(st, a);
            if k < 0.0 || (best.3 >= 0 && k * wa >= best.0) {
                continue;
            }
            best = (k * wa, k * rd(c.dur, a as usize), k * rd(g.edge_len, (a >> 1) as usize), a as i32);
        }
        best
    }

    /// True when a state's label is beaten through a higher neighbour (stall-on-demand). An unlabelled
    /// neighbour's Infinity never beats it, as the TypeScript test of `seen` first decides.
    #[inline(always)]
    unsafe fn stalled(&self, s: &Side, v: u32) -> bool {
        let (lo, hi) = self.range(v, !s.forward);
        let dv = s.w(v);
        for i in lo..hi {
            if s.w(rd(self.rec_node, i)) + rd(self.rec_w, i) < dv {
                return true;
            }
        }
        false
    }

    /// Upward records of v (`up`), else its downward records.
    #[inline(always)]
    pub(crate) unsafe fn range(&self, v: u32, up: bool) -> (usize, usize) {
        let k = 2 * v as usize + !up as usize;
        (rd(self.rec_first, k) as usize, rd(self.rec_first, k + 1) as usize)
    }

    /// Relaxes the upward (forward) or downward-reversed (backward) records of v.
    #[inline(always)]
    pub(crate) unsafe fn relax(&self, s: &mut Side, v: u32) {
        let (lo, hi) = self.range(v, s.forward);
        let dv = s.w(v);
        for i in lo..hi {
            s.label(rd(self.rec_node, i), dv + rd(self.rec_w, i), i as i32, v as i32);
        }
    }

    /// Seconds and metres of record r (see wasm/src/sums.rs).
    #[inline(always)]
    pub(crate) unsafe fn rec_dl(&self, g: &Graph, c: &Costs, r: i32) -> Dl {
        crate::sums::rec_dl(self, g, c, r as usize)
    }

    /// Records the seconds and metres of a settled, unstalled state from its parent's (settled before it), as the
    /// TypeScript labels add them.
    #[inline(always)]
    pub(crate) unsafe fn settle_dl(&self, g: &Graph, c: &Costs, s: &Side, v: u32) {
        let [par, prev] = s.pp(v);
        *s.dl.add(v as usize) = if par < 0 {
            s.seed_dl(g, c, (-1 - par) as u32, prev)
        } else {
            let (p, r) = (*s.dl.add(prev as usize), self.rec_dl(g, c, par));
            Dl { dur: p.dur + r.dur, len: p.len + r.len }
        };
    }

    /// Seconds and metres of state x's label: the seed's, then each record's added from the seed on (the records
    /// parked on the stack); None when the chain overflows the stack (never: a chain is part of a shortest path).
    unsafe fn chain_dl(&self, g: &Graph, c: &Costs, s: &Side, x: u32) -> Option<Dl> {
        let mut n = 0usize;
        let [mut par, mut prev] = s.pp(x);
        while par >= 0 {
            if n == self.path_cap as usize {
                return None;
            }
            *self.stack.add(n) = par;
            n += 1;
            [par, prev] = s.pp(prev as u32);
        }
        let mut d = s.seed_dl(g, c, (-1 - par) as u32, prev);
        for k in (0..n).rev() {
            let r = self.rec_dl(g, c, *self.stack.add(k));
            d = Dl { dur: d.dur + r.dur, len: d.len + r.len };
        }
        Some(d)
    }
}

/// Settles the next state of side `l` (its heap is not empty): pop, stall test, relaxation, and the meeting test
/// against side `o` for each improved label. A core state is not searched beyond: it is kept among the side's
/// entry states (`ent`, `*ne` of them) for the core search.
#[inline(always)]
unsafe fn settle(h: &Ch, l: &mut Side, o: &Side, best_w: &mut f64, meet: &mut i32, ent: *mut u32, ne: &mut usize) {
    let v = l.h.pop();
    if v < h.core {
        *ent.add(*ne) = v;
        *ne += 1;
        return;
    }
    if h.stalled(l, v) {
        return;
    }
    relax_meet(h, l, o, v, best_w, meet, |s, x, w, _| s.h.push(x, w));
}

/// Relaxes the records of v on side `l` (upward or core out-edges forward, downward-reversed or core in-edges
/// backward), queues each improved label through `queue` (given the label's weight and the best weight so far; key:
/// its weight, or in the core search weight ± potential), then tests the meeting with side `o`.
#[inline(always)]
pub(crate) unsafe fn relax_meet(
    h: &Ch, l: &mut Side, o: &Side, v: u32, best_w: &mut f64, meet: &mut i32, queue: impl Fn(&mut Side, u32, f64, f64),
) {
    let (lo, hi) = h.range(v, l.forward);
    let dv = l.w(v);
    for i in lo..hi {
        let x = rd(h.rec_node, i);
        let w = dv + rd(h.rec_w, i);
        if !l.set(x, w, i as i32, v as i32) {
            continue;
        }
        queue(l, x, w, *best_w);
        if w + o.w(x) < *best_w {
            *best_w = w + o.w(x);
            *meet = x as i32;
        }
    }
}

/// Best route, unpacked into `path`: returns its length in arcs (≥ 2), -2 for a route along the source edge (arc
/// in `result_arc`), -1 for none, -3 when it does not fit (never: a shortest path holds each state at most once).
/// Weight, seconds, metres go to `result_*`.
pub unsafe fn route(g: &Graph, c: &Costs, h: &mut Ch, se: u32, st: f64, only: i32, de: u32, dt: f64) -> i32 {
    let (mut f, mut b) = (Side::new(&h.fwd, true, st), Side::new(&h.bwd, false, dt));
    let d = Ch::direct(g, c, se, st, de, dt, only);
    let mut best_w = d.0;
    let mut meet: i32 = -1;
    h.seed_source(g, c, &mut f, se, only);
    h.seed_target(g, c, &mut b, de);
    for k in 0..b.h.size {
        let s = b.h.item_at(k);
        if f.w(s) + b.w(s) < best_w {
            best_w = f.w(s) + b.w(s);
            meet = s as i32;
        }
    }
    let mut settled = 0u32;
    let (mut nf, mut nb) = (0usize, 0usize);
    while f.h.size > 0 || b.h.size > 0 {
        let (fk, bk) = (f.h.min_key(), b.h.min_key());
        if fk.min(bk) >= best_w {
            break;
        }
        settled += 1;
        // Two inlined copies rather than references chosen at run time, so each side's fields stay in locals.
        if fk <= bk {
            settle(h, &mut f, &b, &mut best_w, &mut meet, h.ent_f, &mut nf);
        } else {
            settle(h, &mut b, &f, &mut best_w, &mut meet, h.ent_b, &mut nb);
        }
    }
    if nf > 0 && nb > 0 {
        settled += crate::core_search::search(h, &mut f, &mut b, &mut best_w, &mut meet, nf, nb);
    }
    h.settled = settled;
    let n = if meet < 0 {
        h.result_weight = d.0;
        h.result_dur = d.1;
        h.result_dist = d.2;
        h.result_arc = d.3;
        if d.3 >= 0 { -2 } else { -1 }
    } else {
        match h.sums(g, c, &f, &b, meet as u32) {
            Some(()) => unpack(h, &f, &b, meet as u32),
            None => -3,
        }
    };
    f.reset();
    b.reset();
    n
}

impl Ch {
    /// Writes weight, seconds and metres of the route that met at `meet` to `result_*`, added as
    /// ContractionHierarchy.sums adds them: forward labels at `meet`, the core records of the backward chain after
    /// it in driving order up to the route's last core state, then that state's backward label. None when a chain
    /// overflows the stack (never).
    unsafe fn sums(&mut self, g: &Graph, c: &Costs, f: &Side, b: &Side, meet: u32) -> Option<()> {
        let mut d = self.chain_dl(g, c, f, meet)?;
        let mut w = f.w(meet);
        let mut v = meet;
        loop {
            let [par, prev] = b.pp(v);
            if par < 0 || prev as u32 >= self.core {
                break;
            }
            let r = self.rec_dl(g, c, par);
            w += rd(self.rec_w, par as usize);
            d = Dl { dur: d.dur + r.dur, len: d.len + r.len };
            v = prev as u32;
        }
        let e = self.chain_dl(g, c, b, v)?;
        self.result_weight = w + b.w(v);
        self.result_dur = d.dur + e.dur;
        self.result_dist = d.len + e.len;
        Some(())
    }
}

/// Appends the payload arcs of record r in driving order to `path` (length `*n`), with a depth-first stack in
/// `stack[0 .. limit]`. False when the path or the stack would overflow.
unsafe fn emit(h: &Ch, r: i32, n: &mut usize, limit: usize) -> bool {
    let mut sp = 1usize;
    *h.stack = r;
    while sp > 0 {
        sp -= 1;
        let x = *h.stack.add(sp) as usize;
        let (a, b) = (rd(h.kid_a, x), rd(h.kid_b, x));
        if a < 0 {
            if *n == h.path_cap as usize {
                return false;
            }
            *h.path.add(*n) = b as u32;
            *n += 1;
        } else {
            if sp + 2 > limit {
                return false;
            }
            *h.stack.add(sp) = b;
            *h.stack.add(sp + 1) = a;
            sp += 2;
        }
    }
    true
}

/// Unpacks the route that met at state `meet` into `path` (source arc, the forward records' payloads from the
/// source on, the backward records' payloads on to the target, target arc), as ContractionHierarchy.route does;
/// returns its length, or -3 when it does not fit.
unsafe fn unpack(h: &Ch, f: &Side, b: &Side, meet: u32) -> i32 {
    let cap = h.path_cap as usize;
    // Forward records from the meeting state back to the source, parked at the top of the stack area.
    let mut chain = 0usize;
    let [mut par, mut prev] = f.pp(meet);
    while par >= 0 {
        if chain == cap {
            return -3;
        }
        *h.stack.add(cap - 1 - chain) = par;
        chain += 1;
        [par, prev] = f.pp(prev as u32);
    }
    *h.path = (-1 - par) as u32;
    let mut n = 1usize;
    for k in cap - chain..cap {
        if !emit(h, *h.stack.add(k), &mut n, cap - chain) {
            return -3;
        }
    }
    let [mut par, mut prev] = b.pp(meet);
    while par >= 0 {
        if !emit(h, par, &mut n, cap) {
            return -3;
        }
        [par, prev] = b.pp(prev as u32);
    }
    if n == cap {
        return -3;
    }
    *h.path.add(n) = (-1 - par) as u32;
    (n + 1) as i32
}

/// Grows the bucket arrays to at least `need` entries (old arrays abandoned); false when memory cannot grow.
unsafe fn grow_buckets(h: &mut Ch, n: usize, need: usize) -> bool {
    let cap = need.max(2 * h.bucket_cap as usize).max(1024);
    let p = [alloc(4 * cap), alloc(4 * cap), alloc(8 * cap), alloc(8 * cap), alloc(8 * cap), alloc(32 * cap)];
    if p.contains(&0) {
        return false;
    }
    core::ptr::copy_nonoverlapping(h.e_state, p[0] as *mut u32, n);
    core::ptr::copy_nonoverlapping(h.e_dest, p[1] as *mut u32, n);
    core::ptr::copy_nonoverlapping(h.e_w, p[2] as *mut f64, n);
    core::ptr::copy_nonoverlapping(h.e_d, p[3] as *mut f64, n);
    core::ptr::copy_nonoverlapping(h.e_l, p[4] as *mut f64, n);
    h.e_state = p[0] as *mut u32;
    h.e_dest = p[1] as *mut u32;
    h.e_w = p[2] as *mut f64;
    h.e_d = p[3] as *mut f64;
    h.e_l = p[4] as *mut f64;
    h.sorted = p[5] as *mut Bucket;
    h.bucket_cap = cap as u32;
    true
}

/// Grows the per-destination arrays to at least `nd` destinations (old arrays abandoned); false when memory cannot
/// grow.
unsafe fn grow_dests(h: &mut Ch, nd: usize) -> bool {
    if nd <= h.dest_cap as usize {
        return true;
    }
    let cap = nd.max(2 * h.dest_cap as usize).max(64);
    let p = [alloc(4 * cap), alloc(4 * cap)];
    if p.contains(&0) {
        return false;
    }
    h.d_entries = p[0] as *mut i32;
    h.d_left = p[1] as *mut i32;
    h.dest_cap = cap as u32;
    true
}

/// Marks a state's entry in `Ch::first` as the index of its run in `sorted` (a run may start at index 0).
const RUN_AT: u32 = 1 << 31;

/// The entries of state v in `sorted` (an empty range when it has none).
#[inline(always)]
unsafe fn bucket_range(h: &Ch, v: u32) -> (u32, u32) {
    let at = *h.first.add(v as usize);
    if at == 0 {
        return (0, 0);
    }
    let lo = at & !RUN_AT;
    (lo, lo + (*h.sorted.add(lo as usize)).run)
}

/// Offers the bucket entries at state v to row `row` of the tables through v's forward weight and (settled)
/// seconds and metres.
#[inline(always)]
unsafe fn scan(g: &Graph, h: &Ch, f: &Side, v: u32, row: usize) {
    let (ow, od, ol) = (g.out_weight, g.out_dur, g.out_dist);
    let (dv, Dl { dur: du, len: dl }) = (f.w(v), *f.dl.add(v as usize));
    let (lo, hi) = bucket_range(h, v);
    for q in lo..hi {
        let e = &*h.sorted.add(q as usize);
        let t = row + e.dest as usize;
        let w = dv + e.w;
        if w < *ow.add(t) {
            *ow.add(t) = w;
            *od.add(t) = du + e.d;
            *ol.add(t) = dl + e.l;
        }
    }
}

/// Many-to-many by buckets between the `no` origins and `nd` destinations in `g.dst_*` (origins first, then
/// destinations), writing row-major tables to `g.out_*` (ContractionHierarchy.table: with a core, the upward
/// searches stop at core states, whose bucket entries each origin's Dijkstra over the core reads, `core_table`).
/// Returns false when memory for the buckets ran out.
pub unsafe fn table(g: &Graph, c: &Costs, h: &mut Ch, no: usize, nd: usize) -> bool {
    let (ow, od, ol) = (g.out_weight, g.out_dur, g.out_dist);
    for k in 0..no * nd {
        *ow.add(k) = f64::INFINITY;
        *od.add(k) = f64::INFINITY;
        *ol.add(k) = f64::INFINITY;
    }
    if !grow_dests(h, nd) {
        return false;
    }
    let (mut f, mut b) = (Side::new(&h.fwd, true, 0.0), Side::new(&h.bwd, false, 0.0));
    let mut n = 0usize;
    let mut in_core = 0usize;
    let mut settled = 0u32;
    for j in 0..nd {
        *h.d_entries.add(j) = 0;
        b.t = rd(g.dst_t, no + j);
        h.seed_target(g, c, &mut b, rd(g.dst_edge, no + j));
        while b.h.size > 0 {
            let v = b.h.pop();
            settled += 1;
            let core = v < h.core;
            if !core && h.stalled(&b, v) {
                continue;
            }
            if n == h.bucket_cap as usize && !grow_buckets(h, n, n + 1) {
                b.reset();
                return false;
            }
            h.settle_dl(g, c, &b, v);
            let dl = *b.dl.add(v as usize);
            *h.e_state.add(n) = v;
            *h.e_dest.add(n) = j as u32;
            *h.e_w.add(n) = b.w(v);
            *h.e_d.add(n) = dl.dur;
            *h.e_l.add(n) = dl.len;
            n += 1;
            // A core state is an entry of this destination: not searched beyond (its entries are grouped with
            // the others by state, and core states are 0 .. core, which no upward scan reads).
            if core {
                *h.d_entries.add(j) += 1;
                in_core += 1;
            } else {
                h.relax(&mut b, v);
            }
        }
        b.reset();
    }
    // Counting sort by state, stable, over the touched states only: counts in `first` (zero at every state), then
    // each state's run placed where its first entry comes, its entries in their order, `run` counting them.
    let first = h.first;
    for k in 0..n {
        *first.add(*h.e_state.add(k) as usize) += 1;
    }
    let mut at = 0u32;
    for k in 0..n {
        let s = *h.e_state.add(k) as usize;
        let mut lo = *first.add(s);
        if lo & RUN_AT == 0 {
            let count = lo;
            lo = RUN_AT | at;
            *first.add(s) = lo;
            (*h.sorted.add(at as usize)).run = 0;
            at += count;
        }
        let lo = (lo & !RUN_AT) as usize;
        let q = lo + (*h.sorted.add(lo)).run as usize;
        let run = (*h.sorted.add(lo)).run + 1;
        *h.sorted.add(q) = Bucket { dest: *h.e_dest.add(k), run: 0, w: *h.e_w.add(k), d: *h.e_d.add(k), l: *h.e_l.add(k) };
        (*h.sorted.add(lo)).run = run;
    }
    for i in 0..no {
        let (se, st) = (rd(g.dst_edge, i), rd(g.dst_t, i));
        let row = i * nd;
        for j in 0..nd {
            let d = Ch::direct(g, c, se, st, rd(g.dst_edge, no + j), rd(g.dst_t, no + j), -1);
            if d.3 >= 0 {
                *ow.add(row + j) = d.0;
                *od.add(row + j) = d.1;
                *ol.add(row + j) = d.2;
            }
        }
        f.t = st;
        h.seed_source(g, c, &mut f, se, -1);
        let mut nf = 0usize;
        while f.h.size > 0 {
            let v = f.h.pop();
            settled += 1;
            if v < h.core {
                *h.ent_f.add(nf) = v;
                nf += 1;
                continue;
            }
            if h.stalled(&f, v) {
                continue;
            }
            h.settle_dl(g, c, &f, v);
            scan(g, h, &f, v, row);
            h.relax(&mut f, v);
        }
        if nf > 0 && in_core > 0 {
            settled += core_table(g, c, h, &mut f, nf, row, nd);
        }
        f.reset();
    }
    for k in 0..n {
        *first.add(*h.e_state.add(k) as usize) = 0;
    }
    h.settled = settled;
    true
}

/// The core part of `table` for one origin (ContractionHierarchy.coreTable, step for step): a Dijkstra over the
/// core from the origin's entry states, offering each settled core state's bucket entries to row `row`, until
/// every destination is done. Returns the states settled. Never inlined, like the core search.
#[inline(never)]
unsafe fn core_table(g: &Graph, c: &Costs, h: &Ch, f: &mut Side, nf: usize, row: usize, nd: usize) -> u32 {
    let left = h.d_left;
    let mut open = 0usize;
    for j in 0..nd {
        *left.add(j) = *h.d_entries.add(j);
        open += (*left.add(j) > 0) as usize;
    }
    for q in 0..nf {
        let e = *h.ent_f.add(q);
        f.h.push(e, f.w(e));
    }
    let bound_of = || {
        let mut m = f64::NEG_INFINITY;
        for j in 0..nd {
            if *left.add(j) > 0 && *g.out_weight.add(row + j) > m {
                m = *g.out_weight.add(row + j);
            }
        }
        m
    };
    let (mut bound, mut changed, mut settled) = (bound_of(), 0usize, 0u32);
    while f.h.size > 0 && open > 0 {
        if f.h.min_key() >= bound {
            if changed == 0 {
                break;
            }
            bound = bound_of();
            changed = 0;
            continue;
        }
        let v = f.h.pop();
        settled += 1;
        h.settle_dl(g, c, f, v);
        let (lo, hi) = bucket_range(h, v);
        if lo < hi {
            scan(g, h, f, v, row);
            for q in lo..hi {
                let j = (*h.sorted.add(q as usize)).dest as usize;
                *left.add(j) -= 1;
                open -= (*left.add(j) == 0) as usize;
            }
            changed += 1;
            if changed >= nd {
                bound = bound_of();
                changed = 0;
            }
        }
        h.relax(f, v);
    }
    f.h.clear();
    settled
}
