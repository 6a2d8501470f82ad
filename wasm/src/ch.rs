//! Contraction hierarchy queries: ContractionHierarchy.route and .table of src/route/ch.ts step for step
//! (same seeds, same stall-on-demand, same heap), over the pack's "CH layout v1" arrays and the record weights,
//! durations and lengths the TypeScript side derived, copied into linear memory.

use crate::alloc::alloc;
use crate::heap::Heap;
use crate::layout::{rd, Costs, Graph};
use crate::search::{can_turn, pos_on_arc};

/// Per-state label of one search side: weight, seconds, metres, the record that reached the state (or -1 - arc
/// at a seed) and the state it came from, and `seen` (= generation when labelled in this query).
#[repr(C)]
pub struct ChLabel {
    pub w: f64,
    pub dur: f64,
    pub len: f64,
    pub par: i32,
    pub prev: i32,
    pub seen: u32,
    /// Position in the side's heap, -1 when not queued.
    pub pos: i32,
}

/// One record of the hierarchy.
#[repr(C)]
pub struct Rec {
    pub node: u32,
    pub _pad: u32,
    pub w: f64,
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
    /// Per record: the other state, weight, seconds, metres (one 32-byte slot, read together by the searches).
    pub rec: *const Rec,
    /// i32 per record: children (shortcut) or -1 and the payload arc (see src/route/ch.ts), for unpacking.
    pub ra: *const i32,
    pub rb: *const i32,
    /// Unpacked path of the last route (capacity `path_cap` arcs) and the explicit stack unpacking uses.
    pub path_cap: u32,
    pub path: *mut u32,
    pub stack: *mut i32,
    pub fwd: *mut ChLabel,
    pub bwd: *mut ChLabel,
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

struct Side {
    l: *mut ChLabel,
    h: Heap,
}

impl Ch {
    unsafe fn next_gen(&mut self) -> u32 {
        self.gen += 1;
        if self.gen == u32::MAX {
            for s in 0..self.states as usize {
                (*self.fwd.add(s)).seen = 0;
                (*self.bwd.add(s)).seen = 0;
            }
            self.gen = 1;
        }
        self.gen
    }

    unsafe fn sides(&self) -> (Side, Side) {
        let stride = core::mem::size_of::<ChLabel>() / 4;
        let pos = |l: *mut ChLabel| unsafe { core::ptr::addr_of_mut!((*l).pos) };
        (Side { l: self.fwd, h: Heap::new(self.fheap, pos(self.fwd), stride) },
         Side { l: self.bwd, h: Heap::new(self.bheap, pos(self.bwd), stride) })
    }

    /// Sets a label when it improves; true when it did.
    #[inline(always)]
    unsafe fn label(s: &mut Side, x: u32, gen: u32, w: f64, dur: f64, len: f64, par: i32, prev: i32) -> bool {
        let l = &mut *s.l.add(x as usize);
        if l.seen == gen && l.w <= w {
            return false;
        }
        l.w = w;
        l.dur = dur;
        l.len = len;
        l.par = par;
        l.prev = prev;
        l.seen = gen;
        s.h.push(x, w);
        true
    }

    unsafe fn seed_source(&self, g: &Graph, c: &Costs, f: &mut Side, edge: u32, t: f64, only: i32, gen: u32) {
        for a in 2 * edge..=2 * edge + 1 {
            let wa = rd(c.weight, a as usize);
            if wa == f64::INFINITY || (only >= 0 && a as i32 != only) {
                continue;
            }
            let k = 1.0 - pos_on_arc(t, a);
            let s = if self.edge_based != 0 { a } else { g.head(a) };
            Ch::label(f, s, gen, k * wa, k * rd(c.dur, a as usize), k * rd(g.edge_len, (a >> 1) as usize), -1 - a as i32, -1);
        }
    }

    unsafe fn seed_target(&self, g: &Graph, c: &Costs, b_side: &mut Side, edge: u32, t: f64, gen: u32) {
        for b in 2 * edge..=2 * edge + 1 {
            let wb = rd(c.weight, b as usize);
            if wb == f64::INFINITY {
                continue;
            }
            let k = pos_on_arc(t, b);
            let (w, d, l) = (k * wb, k * rd(c.dur, b as usize), k * rd(g.edge_len, (b >> 1) as usize));
            let u = g.tail(b);
            if self.edge_based == 0 {
                Ch::label(b_side, u, gen, w, d, l, -1 - b as i32, -1);
                continue;
            }
            for i in rd(g.adj_first, u as usize)..rd(g.adj_first, u as usize + 1) {
                let a = rd(g.adj_arc, i as usize) ^ 1;
                if rd(c.weight, a as usize) != f64::INFINITY && can_turn(c, a, b, u) {
                    Ch::label(b_side, a, gen, w, d, l, -1 - b as i32, -1);
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
    unsafe fn stalled(&self, s: &Side, v: u32, forward: bool, gen: u32) -> bool {
        let (lo, hi) = if forward {
            (rd(self.dn_first, v as usize), rd(self.dn_first, v as usize + 1))
        } else {
            (rd(self.up_first, v as usize), rd(self.up_first, v as usize + 1))
        };
        let dv = (*s.l.add(v as usize)).w;
        for i in lo as usize..hi as usize {
            let r = &*self.rec.add(i);
            let x = &*s.l.add(r.node as usize);
            if x.seen == gen && x.w + r.w < dv {
                return true;
            }
        }
        false
    }

    #[inline(always)]
    unsafe fn range(&self, v: u32, forward: bool) -> (usize, usize) {
        if forward {
            (rd(self.up_first, v as usize) as usize, rd(self.up_first, v as usize + 1) as usize)
        } else {
            (rd(self.dn_first, v as usize) as usize, rd(self.dn_first, v as usize + 1) as usize)
        }
    }

    /// Relaxes the upward (forward) or downward-reversed (backward) records of v.
    #[inline(always)]
    unsafe fn relax(&self, s: &mut Side, v: u32, forward: bool, gen: u32) {
        let (lo, hi) = self.range(v, forward);
        let lv = &*s.l.add(v as usize);
        let (dv, du, dl) = (lv.w, lv.dur, lv.len);
        for i in lo..hi {
            let r = &*self.rec.add(i);
            Ch::label(s, r.node, gen, dv + r.w, du + r.dur, dl + r.len, i as i32, v as i32);
        }
    }
}

/// Best route; returns the meeting state (≥ 0: the path follows `par` / `prev` of both sides' labels), -2 for a
/// route along the source edge (arc in `result_arc`), -1 for none. Weight, seconds, metres go to `result_*`.
pub unsafe fn route(g: &Graph, c: &Costs, h: &mut Ch, se: u32, st: f64, only: i32, de: u32, dt: f64) -> i32 {
    let gen = h.next_gen();
    h.settled = 0;
    let (mut f, mut b) = h.sides();
    let d = Ch::direct(g, c, se, st, de, dt, only);
    let mut best_w = d.0;
    let mut meet: i32 = -1;
    h.seed_source(g, c, &mut f, se, st, only, gen);
    h.seed_target(g, c, &mut b, de, dt, gen);
    for k in 0..b.h.size {
        let s = b.h.item_at(k) as usize;
        let (fl, bl) = (&*f.l.add(s), &*b.l.add(s));
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
        let forward = fk <= bk;
        let (l, o) = if forward { (&mut f, &b) } else { (&mut b, &f) };
        let v = l.h.pop();
        settled += 1;
        if h.stalled(l, v, forward, gen) {
            continue;
        }
        let (lo, hi) = h.range(v, forward);
        let lv = &*l.l.add(v as usize);
        let (dv, du, dl) = (lv.w, lv.dur, lv.len);
        for i in lo..hi {
            let r = &*h.rec.add(i);
            let x = r.node;
            if !Ch::label(l, x, gen, dv + r.w, du + r.dur, dl + r.len, i as i32, v as i32) {
                continue;
            }
            let ox = &*o.l.add(x as usize);
            let lx = &*l.l.add(x as usize);
            if ox.seen == gen && lx.w + ox.w < best_w {
                best_w = lx.w + ox.w;
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
    let (fm, bm) = (&*f.l.add(meet as usize), &*b.l.add(meet as usize));
    h.result_weight = best_w;
    h.result_dur = fm.dur + bm.dur;
    h.result_dist = fm.len + bm.len;
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
        let a = rd(h.ra, x);
        if a < 0 {
            if *n == h.path_cap as usize {
                return false;
            }
            *h.path.add(*n) = rd(h.rb, x) as u32;
            *n += 1;
        } else {
            if sp + 2 > limit {
                return false;
            }
            *h.stack.add(sp) = rd(h.rb, x);
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
    let (f, b) = (h.fwd, h.bwd);
    let cap = h.path_cap as usize;
    // Forward records from the meeting state back to the source, parked at the top of the stack area.
    let mut chain = 0usize;
    let mut v = meet as usize;
    while (*f.add(v)).par >= 0 {
        if chain == cap {
            return -1;
        }
        *h.stack.add(cap - 1 - chain) = (*f.add(v)).par;
        chain += 1;
        v = (*f.add(v)).prev as usize;
    }
    *h.path = (-1 - (*f.add(v)).par) as u32;
    let mut n = 1usize;
    for k in cap - chain..cap {
        if !emit(h, *h.stack.add(k), &mut n, cap - chain) {
            return -1;
        }
    }
    let mut v = meet as usize;
    while (*b.add(v)).par >= 0 {
        if !emit(h, (*b.add(v)).par, &mut n, cap) {
            return -1;
        }
        v = (*b.add(v)).prev as usize;
    }
    if n == cap {
        return -1;
    }
    *h.path.add(n) = (-1 - (*b.add(v)).par) as u32;
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
    let (mut f, mut b) = h.sides();
    let mut n = 0usize;
    let mut settled = 0u32;
    for j in 0..nd {
        let gen = h.next_gen();
        h.seed_target(g, c, &mut b, rd(g.dst_edge, no + j), rd(g.dst_t, no + j), gen);
        while b.h.size > 0 {
            let v = b.h.pop();
            settled += 1;
            if h.stalled(&b, v, false, gen) {
                continue;
            }
            if n == h.bucket_cap as usize && !grow_buckets(h, n, n + 1) {
                b.h.clear();
                return false;
            }
            let lv = &*b.l.add(v as usize);
            *h.e_state.add(n) = v;
            *h.e_dest.add(n) = j as u32;
            *h.e_w.add(n) = lv.w;
            *h.e_d.add(n) = lv.dur;
            *h.e_l.add(n) = lv.len;
            n += 1;
            h.relax(&mut b, v, false, gen);
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
        h.seed_source(g, c, &mut f, se, st, -1, gen);
        while f.h.size > 0 {
            let v = f.h.pop();
            settled += 1;
            if h.stalled(&f, v, true, gen) {
                continue;
            }
            let lv = &*f.l.add(v as usize);
            let (dv, du, dl) = (lv.w, lv.dur, lv.len);
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
            h.relax(&mut f, v, true, gen);
        }
    }
    h.settled = settled;
    true
}
