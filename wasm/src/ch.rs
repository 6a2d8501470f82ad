//! Contraction hierarchy queries: ContractionHierarchy.route and .table of src/route/ch.ts step for step
//! (same seeds, same stall-on-demand, same heap), over the pack's "CH layout v1" arrays and the record weights,
//! durations and lengths the TypeScript side derived, copied into linear memory.

use crate::alloc::alloc;
use crate::heap::Heap;
use crate::layout::{rd, Costs, Graph};
use crate::search::{can_turn, pos_on_arc};

/// Per-state label of one search side: weight, the record that reached the state (or -1 - arc at a seed), the
/// state it came from, `seen` (= generation when labelled in this query) and the heap position. The forward and
/// backward labels of a state are adjacent (64 bytes, one cache line): a relaxation also reads the other side's.
/// Seconds and metres are not carried: they are summed along the parent chain in the same order the TypeScript
/// labels add them (seed first, then each record), so the sums are the same floats.
#[repr(C)]
pub struct ChLabel {
    pub w: f64,
    pub par: i32,
    pub prev: i32,
    pub seen: u32,
    /// Position in the side's heap, -1 when not queued.
    pub pos: i32,
    pub _pad: [u32; 2],
}

/// One record of the hierarchy as the searches read it (16 bytes): weight and the other state.
#[repr(C)]
pub struct Rec {
    pub w: f64,
    pub node: u32,
    pub _pad: u32,
}

/// Seconds and metres of a record or of a settled state's label.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Dl {
    pub dur: f64,
    pub len: f64,
}

/// A bucket entry grouped by state: what the backward search of destination `dest` left there.
#[repr(C)]
pub struct Bucket {
    pub dest: u32,
    pub _pad: u32,
    pub w: f64,
    pub d: f64,
    pub l: f64,
}

/// One hierarchy with its search state (field order must match src/route/wasm/layout.ts).
#[repr(C)]
pub struct Ch {
    /// Out: weight, seconds and metres of the last route.
    pub result_weight: f64,
    pub result_dur: f64,
    pub result_dist: f64,
    pub states: u32,
    pub edge_based: u32,
    pub gen: u32,
    pub settled: u32,
    /// Out: the arc of a route that stays on the source edge.
    pub result_arc: i32,
    /// u32 × (states + 1) each: upward records of a state, then downward records (one record space).
    pub up_first: *const u32,
    pub dn_first: *const u32,
    /// Per record: weight and the other state (read by the searches), seconds and metres (read along final
    /// chains), children (shortcut) or -1 and the payload arc (see src/route/ch.ts), for unpacking.
    pub rec: *const Rec,
    pub rdl: *const Dl,
    pub kids: *const [i32; 2],
    /// Unpacked path of the last route (capacity `path_cap` arcs) and the explicit stack unpacking uses.
    pub path_cap: u32,
    pub path: *mut u32,
    pub stack: *mut i32,
    /// Label pairs (forward, backward) per state.
    pub labels: *mut ChLabel,
    /// Seconds and metres of the states settled by many-to-many searches, forward and backward.
    pub fdl: *mut Dl,
    pub bdl: *mut Dl,
    /// Heap slots of both sides (16 bytes × states); positions are in the labels.
    pub fheap: *mut u8,
    pub bheap: *mut u8,
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
    /// u32 × (states + 1): bucket offsets per state.
    pub first: *mut u32,
}

/// One search side: its labels (state x at `l + 2x`, the pair's other half is the other side's), heap, the
/// seconds and metres of settled states (many-to-many), and the point it starts from (arc fraction `t`; forward
/// sides start at a source, backward sides at a target) to recompute seed seconds and metres.
struct Side {
    l: *mut ChLabel,
    h: Heap,
    dl: *mut Dl,
    forward: bool,
    t: f64,
}

impl Side {
    #[inline(always)]
    unsafe fn at(&self, x: u32) -> &mut ChLabel {
        &mut *self.l.add(2 * x as usize)
    }

    /// Seconds and metres of the seed label from arc `a` (the source arc forward, the target arc backward), with
    /// the expressions the seeds use.
    #[inline(always)]
    unsafe fn seed_dl(&self, g: &Graph, c: &Costs, a: u32) -> Dl {
        let k = if self.forward { 1.0 - pos_on_arc(self.t, a) } else { pos_on_arc(self.t, a) };
        Dl { dur: k * rd(c.dur, a as usize), len: k * rd(g.edge_len, (a >> 1) as usize) }
    }
}

impl Ch {
    unsafe fn next_gen(&mut self) -> u32 {
        self.gen += 1;
        if self.gen == u32::MAX {
            for s in 0..2 * self.states as usize {
                (*self.labels.add(s)).seen = 0;
            }
            self.gen = 1;
        }
        self.gen
    }

    unsafe fn sides(&self, src_t: f64, dst_t: f64) -> (Side, Side) {
        let stride = 2 * core::mem::size_of::<ChLabel>() / 4;
        let (fl, bl) = (self.labels, self.labels.add(1));
        let pos = |l: *mut ChLabel| core::ptr::addr_of_mut!((*l).pos);
        (Side { l: fl, h: Heap::new(self.fheap, pos(fl), stride), dl: self.fdl, forward: true, t: src_t },
         Side { l: bl, h: Heap::new(self.bheap, pos(bl), stride), dl: self.bdl, forward: false, t: dst_t })
    }

    /// Sets a label when it improves; true when it did.
    #[inline(always)]
    unsafe fn label(s: &mut Side, x: u32, gen: u32, w: f64, par: i32, prev: i32) -> bool {
        let l = s.at(x);
        if l.seen == gen && l.w <= w {
            return false;
        }
        l.w = w;
        l.par = par;
        l.prev = prev;
        l.seen = gen;
        s.h.push(x, w);
        true
    }

    unsafe fn seed_source(&self, g: &Graph, c: &Costs, f: &mut Side, edge: u32, only: i32, gen: u32) {
        for a in 2 * edge..=2 * edge + 1 {
            let wa = rd(c.weight, a as usize);
            if wa == f64::INFINITY || (only >= 0 && a as i32 != only) {
                continue;
            }
            let k = 1.0 - pos_on_arc(f.t, a);
            let s = if self.edge_based != 0 { a } else { g.head(a) };
            Ch::label(f, s, gen, k * wa, -1 - a as i32, -1);
        }
    }

    unsafe fn seed_target(&self, g: &Graph, c: &Costs, b_side: &mut Side, edge: u32, gen: u32) {
        for b in 2 * edge..=2 * edge + 1 {
            let wb = rd(c.weight, b as usize);
            if wb == f64::INFINITY {
                continue;
            }
            let w = pos_on_arc(b_side.t, b) * wb;
            let u = g.tail(b);
            if self.edge_based == 0 {
                Ch::label(b_side, u, gen, w, -1 - b as i32, -1);
                continue;
            }
            for i in rd(g.adj_first, u as usize)..rd(g.adj_first, u as usize + 1) {
                let a = rd(g.adj_arc, i as usize) ^ 1;
                if rd(c.weight, a as usize) != f64::INFINITY && can_turn(c, a, b, u) {
                    Ch::label(b_side, a, gen, w, -1 - b as i32, -1);
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

    /// True when a state's label is beaten through a higher neighbour (stall-on-demand).
    #[inline(always)]
    unsafe fn stalled(&self, s: &Side, v: u32, gen: u32) -> bool {
        let (lo, hi) = self.range(v, !s.forward);
        let dv = s.at(v).w;
        for i in lo..hi {
            let r = &*self.rec.add(i);
            let x = s.at(r.node);
            if x.seen == gen && x.w + r.w < dv {
                return true;
            }
        }
        false
    }

    /// Upward records of v (`up`), else its downward records.
    #[inline(always)]
    unsafe fn range(&self, v: u32, up: bool) -> (usize, usize) {
        let f = if up { self.up_first } else { self.dn_first };
        (rd(f, v as usize) as usize, rd(f, v as usize + 1) as usize)
    }

    /// Relaxes the upward (forward) or downward-reversed (backward) records of v.
    #[inline(always)]
    unsafe fn relax(&self, s: &mut Side, v: u32, gen: u32) {
        let (lo, hi) = self.range(v, s.forward);
        let dv = s.at(v).w;
        for i in lo..hi {
            let r = &*self.rec.add(i);
            Ch::label(s, r.node, gen, dv + r.w, i as i32, v as i32);
        }
    }

    /// Records the seconds and metres of a settled, unstalled state from its parent's (settled before it), as the
    /// TypeScript labels add them.
    #[inline(always)]
    unsafe fn settle_dl(&self, g: &Graph, c: &Costs, s: &Side, v: u32) {
        let l = s.at(v);
        *s.dl.add(v as usize) = if l.par < 0 {
            s.seed_dl(g, c, (-1 - l.par) as u32)
        } else {
            let (p, r) = (*s.dl.add(l.prev as usize), *self.rdl.add(l.par as usize));
            Dl { dur: p.dur + r.dur, len: p.len + r.len }
        };
    }

    /// Seconds and metres of state x's label: the seed's, then each record's added from the seed on (the records
    /// parked on the stack); None when the chain overflows the stack (never: a chain is part of a shortest path).
    unsafe fn chain_dl(&self, g: &Graph, c: &Costs, s: &Side, x: u32) -> Option<Dl> {
        let mut n = 0usize;
        let mut l = s.at(x);
        while l.par >= 0 {
            if n == self.path_cap as usize {
                return None;
            }
            *self.stack.add(n) = l.par;
            n += 1;
            l = s.at(l.prev as u32);
        }
        let mut d = s.seed_dl(g, c, (-1 - l.par) as u32);
        for k in (0..n).rev() {
            let r = *self.rdl.add(*self.stack.add(k) as usize);
            d = Dl { dur: d.dur + r.dur, len: d.len + r.len };
        }
        Some(d)
    }
}

/// Best route; returns the meeting state (≥ 0: the path follows `par` / `prev` of both sides' labels), -2 for a
/// route along the source edge (arc in `result_arc`), -1 for none, -3 when a label chain overflows the stack
/// (never). Weight, seconds, metres go to `result_*`.
pub unsafe fn route(g: &Graph, c: &Costs, h: &mut Ch, se: u32, st: f64, only: i32, de: u32, dt: f64) -> i32 {
    let gen = h.next_gen();
    h.settled = 0;
    let (mut f, mut b) = h.sides(st, dt);
    let d = Ch::direct(g, c, se, st, de, dt, only);
    let mut best_w = d.0;
    let mut meet: i32 = -1;
    h.seed_source(g, c, &mut f, se, only, gen);
    h.seed_target(g, c, &mut b, de, gen);
    for k in 0..b.h.size {
        let s = b.h.item_at(k);
        let (fl, bl) = (f.at(s), b.at(s));
        if fl.seen == gen && fl.w + bl.w < best_w {
            best_w = fl.w + bl.w;
            meet = s as i32;
        }
    }
    let mut settled = 0u32;
    while f.h.size > 0 || b.h.size > 0 {
        let (fk, bk) = (f.h.min_key(), b.h.min_key());
        if fk.min(bk) >= best_w {
            break;
        }
        let (l, o) = if fk <= bk { (&mut f, &b) } else { (&mut b, &f) };
        let v = l.h.pop();
        settled += 1;
        if h.stalled(l, v, gen) {
            continue;
        }
        let (lo, hi) = h.range(v, l.forward);
        let dv = l.at(v).w;
        for i in lo..hi {
            let r = &*h.rec.add(i);
            let x = r.node;
            if !Ch::label(l, x, gen, dv + r.w, i as i32, v as i32) {
                continue;
            }
            let ox = o.at(x);
            let w = l.at(x).w + ox.w;
            if ox.seen == gen && w < best_w {
                best_w = w;
                meet = x as i32;
            }
        }
    }
    f.h.clear();
    b.h.clear();
    h.settled = settled;
    if meet < 0 {
        h.result_weight = d.0;
        h.result_dur = d.1;
        h.result_dist = d.2;
        h.result_arc = d.3;
        return if d.3 >= 0 { -2 } else { -1 };
    }
    let (fd, bd) = match (h.chain_dl(g, c, &f, meet as u32), h.chain_dl(g, c, &b, meet as u32)) {
        (Some(x), Some(y)) => (x, y),
        _ => return -3,
    };
    h.result_weight = best_w;
    h.result_dur = fd.dur + bd.dur;
    h.result_dist = fd.len + bd.len;
    meet
}

/// Appends the payload arcs of record r in driving order to `path` (length `*n`), with a depth-first stack in
/// `stack[0 .. limit]`. False when the path or the stack would overflow.
unsafe fn emit(h: &Ch, r: i32, n: &mut usize, limit: usize) -> bool {
    let mut sp = 1usize;
    *h.stack = r;
    while sp > 0 {
        sp -= 1;
        let x = *h.stack.add(sp) as usize;
        let [a, b] = *h.kids.add(x);
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
/// returns its length, or -1 when it does not fit (never on a shortest path: it holds each arc at most once).
pub unsafe fn unpack(h: &Ch, meet: u32) -> i32 {
    let (f, b) = (h.labels, h.labels.add(1));
    let cap = h.path_cap as usize;
    // Forward records from the meeting state back to the source, parked at the top of the stack area.
    let mut chain = 0usize;
    let mut v = meet as usize;
    while (*f.add(2 * v)).par >= 0 {
        if chain == cap {
            return -1;
        }
        *h.stack.add(cap - 1 - chain) = (*f.add(2 * v)).par;
        chain += 1;
        v = (*f.add(2 * v)).prev as usize;
    }
    *h.path = (-1 - (*f.add(2 * v)).par) as u32;
    let mut n = 1usize;
    for k in cap - chain..cap {
        if !emit(h, *h.stack.add(k), &mut n, cap - chain) {
            return -1;
        }
    }
    let mut v = meet as usize;
    while (*b.add(2 * v)).par >= 0 {
        if !emit(h, (*b.add(2 * v)).par, &mut n, cap) {
            return -1;
        }
        v = (*b.add(2 * v)).prev as usize;
    }
    if n == cap {
        return -1;
    }
    *h.path.add(n) = (-1 - (*b.add(2 * v)).par) as u32;
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

/// Many-to-many by buckets between the `no` origins and `nd` destinations in `g.dst_*` (origins first, then
/// destinations), writing row-major tables to `g.out_*`. Returns false when memory for the buckets ran out.
pub unsafe fn table(g: &Graph, c: &Costs, h: &mut Ch, no: usize, nd: usize) -> bool {
    let (ow, od, ol) = (g.out_weight, g.out_dur, g.out_dist);
    for k in 0..no * nd {
        *ow.add(k) = f64::INFINITY;
        *od.add(k) = f64::INFINITY;
        *ol.add(k) = f64::INFINITY;
    }
    let (mut f, mut b) = h.sides(0.0, 0.0);
    let mut n = 0usize;
    let mut settled = 0u32;
    for j in 0..nd {
        let gen = h.next_gen();
        b.t = rd(g.dst_t, no + j);
        h.seed_target(g, c, &mut b, rd(g.dst_edge, no + j), gen);
        while b.h.size > 0 {
            let v = b.h.pop();
            settled += 1;
            if h.stalled(&b, v, gen) {
                continue;
            }
            if n == h.bucket_cap as usize && !grow_buckets(h, n, n + 1) {
                b.h.clear();
                return false;
            }
            h.settle_dl(g, c, &b, v);
            let dl = *b.dl.add(v as usize);
            *h.e_state.add(n) = v;
            *h.e_dest.add(n) = j as u32;
            *h.e_w.add(n) = b.at(v).w;
            *h.e_d.add(n) = dl.dur;
            *h.e_l.add(n) = dl.len;
            n += 1;
            h.relax(&mut b, v, gen);
        }
    }
    let states = h.states as usize;
    let first = h.first;
    for s in 0..=states {
        *first.add(s) = 0;
    }
    for k in 0..n {
        *first.add(*h.e_state.add(k) as usize + 1) += 1;
    }
    for s in 0..states {
        *first.add(s + 1) += *first.add(s);
    }
    // Place each entry at its state's next free slot (counting sort, stable), then shift the offsets back.
    for k in 0..n {
        let s = *h.e_state.add(k) as usize;
        *h.sorted.add(*first.add(s) as usize) = Bucket { dest: *h.e_dest.add(k), _pad: 0, w: *h.e_w.add(k), d: *h.e_d.add(k), l: *h.e_l.add(k) };
        *first.add(s) += 1;
    }
    for s in (1..=states).rev() {
        *first.add(s) = *first.add(s - 1);
    }
    *first = 0;
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
        let gen = h.next_gen();
        f.t = st;
        h.seed_source(g, c, &mut f, se, -1, gen);
        while f.h.size > 0 {
            let v = f.h.pop();
            settled += 1;
            if h.stalled(&f, v, gen) {
                continue;
            }
            h.settle_dl(g, c, &f, v);
            let (dv, Dl { dur: du, len: dl }) = (f.at(v).w, *f.dl.add(v as usize));
            for q in *first.add(v as usize)..*first.add(v as usize + 1) {
                let e = &*h.sorted.add(q as usize);
                let t = row + e.dest as usize;
                let w = dv + e.w;
                if w < *ow.add(t) {
                    *ow.add(t) = w;
                    *od.add(t) = du + e.d;
                    *ol.add(t) = dl + e.l;
                }
            }
            h.relax(&mut f, v, gen);
        }
    }
    h.settled = settled;
    true
}
