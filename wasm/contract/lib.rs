//! Contraction of bando's route hierarchies for WebAssembly: the loop of data-tools/ch-build.ts (priority queue,
//! witness searches, adjacency pools; see `contract`), run by the pack builder. The TypeScript side copies the base
//! graph in (`prepare`), calls `contract` and reads the edge records, the order and the core's live edges out of
//! linear memory (`Out`) before it drops the instance. A faithful port: same arithmetic in f64, same heap (the query
//! core's, whose comparisons are those of src/route/heap.ts) and same list orders, so it gives the same hierarchy,
//! bit for bit, as the reference in test/helpers/ch-reference.ts.

#[allow(dead_code)] // the query core's heap: `item_at` is the query's alone
#[path = "../src/heap.rs"]
mod heap;
mod pool;
mod records;

use heap::Heap;
use pool::Pool;
use records::Records;

extern "C" {
    /// Hears the number of states contracted so far, every 1024.
    fn progress(done: u32);
}

/// The tuning of the contraction, passed by the TypeScript side (ch-build.ts TUNING explains each term).
#[derive(Clone, Copy)]
struct Tuning {
    real_settles: u32,
    sim_min: f64,
    sim_max: f64,
    eager: usize,
    prio_edges: f64,
    prio_hops: f64,
    prio_depth: f64,
}

/// The base graph as CSR, filled by the TypeScript side after `prepare`: per edge its head, weight, payload and hop
/// count (1 unless the edge stands for a record of a partition cell, data-tools/ch-partition.ts), and per state
/// whether it must stay uncontracted (`keep` ≠ 0: a cell's boundary state).
struct Input {
    first: Vec<u32>,
    head: Vec<u32>,
    weight: Vec<f64>,
    payload: Vec<i32>,
    hops: Vec<i32>,
    keep: Vec<u8>,
}

/// Addresses and counts the TypeScript side reads (data-tools/ch-wasm.ts mirrors the order). Pools: per state its
/// first slot and live entries, then the entries (`pool::Slot`, 16 bytes: weight, other state, record).
#[repr(C)]
pub struct Out {
    records: u32,
    tail: u32,
    head: u32,
    a: u32,
    b: u32,
    rec_hops: u32,
    rank: u32,
    core: u32,
    out_start: u32,
    out_len: u32,
    out_entries: u32,
    inn_start: u32,
    inn_len: u32,
    inn_entries: u32,
    // Input addresses (after `prepare`).
    first: u32,
    in_head: u32,
    weight: u32,
    payload: u32,
    hops: u32,
    keep: u32,
}

static mut INPUT: Option<Input> = None;
static mut STATE: Option<Contraction> = None;
static mut OUT: Out = Out {
    records: 0, tail: 0, head: 0, a: 0, b: 0, rec_hops: 0, rank: 0, core: 0, out_start: 0, out_len: 0, out_entries: 0,
    inn_start: 0, inn_len: 0, inn_entries: 0, first: 0, in_head: 0, weight: 0, payload: 0, hops: 0, keep: 0,
};

/// Room for a base graph of `states` states and `edges` edges; returns the address of `Out`, whose last six fields
/// then hold where to write `first` (states + 1 entries), `head`, `weight`, `payload`, `hops` (all 1 unless
/// written) and `keep` (all 0 unless written).
#[no_mangle]
pub unsafe extern "C" fn prepare(states: u32, edges: u32) -> *const Out {
    let input = Input {
        first: vec![0; states as usize + 1],
        head: vec![0; edges as usize],
        weight: vec![0.0; edges as usize],
        payload: vec![0; edges as usize],
        hops: vec![1; edges as usize],
        keep: vec![0; states as usize],
    };
    OUT.first = input.first.as_ptr() as u32;
    OUT.in_head = input.head.as_ptr() as u32;
    OUT.weight = input.weight.as_ptr() as u32;
    OUT.payload = input.payload.as_ptr() as u32;
    OUT.hops = input.hops.as_ptr() as u32;
    OUT.keep = input.keep.as_ptr() as u32;
    INPUT = Some(input);
    &*core::ptr::addr_of!(OUT)
}

/// Contracts the prepared graph: until `core_size` states are left when it is ≥ 0, else by the core rule (ch-core.ts
/// CORE_RULE: at most `max_left` states left, at least `min_states`, mean live degree ≥ `degree`), never contracting
/// a state marked `keep`, with the tuning of ch-build.ts TUNING (settles, adaptive settle bounds, eager neighbours,
/// priority terms). Fills `Out` and returns its address.
#[no_mangle]
pub unsafe extern "C" fn contract(
    core_size: i32, max_left: u32, min_states: u32, degree: f64,
    real_settles: u32, sim_min: f64, sim_max: f64, eager: u32, prio_edges: f64, prio_hops: f64, prio_depth: f64,
) -> *const Out {
    let t = Tuning { real_settles, sim_min, sim_max, eager: eager as usize, prio_edges, prio_hops, prio_depth };
    let input = (*core::ptr::addr_of_mut!(INPUT)).take().unwrap();
    let forced = if core_size >= 0 { Some(core_size as usize) } else { None };
    let c = Contraction::run(&input, t, |left, live| match forced {
        Some(f) => left <= f,
        None => {
            let mean = (2 * live) as f64 / left as f64;
            left <= max_left as usize && left >= min_states as usize && mean >= degree
        }
    });
    drop(input);
    let o = &mut *core::ptr::addr_of_mut!(OUT);
    o.records = c.r.n as u32;
    o.tail = c.r.tail.as_ptr() as u32;
    o.head = c.r.head.as_ptr() as u32;
    o.a = c.r.a.as_ptr() as u32;
    o.b = c.r.b.as_ptr() as u32;
    o.rec_hops = c.r.hops.as_ptr() as u32;
    o.rank = c.rank.as_ptr() as u32;
    o.core = c.core as u32;
    o.out_start = c.out.start.as_ptr() as u32;
    o.out_len = c.out.len.as_ptr() as u32;
    o.out_entries = c.out.e.as_ptr() as u32;
    o.inn_start = c.inn.start.as_ptr() as u32;
    o.inn_len = c.inn.len.as_ptr() as u32;
    o.inn_entries = c.inn.e.as_ptr() as u32;
    STATE = Some(c);
    o
}

/// The contraction's state (ch-build.ts `contract`'s locals).
struct Contraction {
    r: Records,
    out: Pool,
    inn: Pool,
    /// Live edges (for the core rule's mean degree).
    live: usize,
    /// Witness search state per state.
    marks: Vec<Mark>,
    heap: Heap,
    _heap_mem: (Vec<u8>, Vec<i32>),
    gen: u32,
    /// Base edges the shortcuts of the last `shortcuts` call stand for.
    added_hops: f64,
    level: Vec<u32>,
    /// Per target of the current witness search: the weight through v it must beat (valid while `target` holds
    /// the search's generation), and the targets themselves.
    via: Vec<f64>,
    targets: Vec<u32>,
    sim_settles: u32,
    rank: Vec<u32>,
    core: usize,
    t: Tuning,
}

/// What the witness searches know of a state, side by side so that relaxing an edge touches one cache line: its
/// distance, valid when `seen` is the current search's generation, and whether it is a target of that search not yet
/// decided (`target` = the generation).
#[derive(Clone, Copy)]
struct Mark {
    dist: f64,
    seen: u32,
    target: u32,
}

/// A heap over `n` items: its slots (n + 1 for the sentinel, 16 bytes each) and positions (all -1).
unsafe fn new_heap(n: usize) -> (Heap, (Vec<u8>, Vec<i32>)) {
    let mut slots = vec![0u8; 16 * (n + 1) + 8];
    let mut pos = vec![-1i32; n];
    let at = (slots.as_mut_ptr() as usize + 7) & !7;
    (Heap::new(at as *mut u8, pos.as_mut_ptr()), (slots, pos))
}

impl Contraction {
    /// Contracts `g` until `stop(left, live edges)` or no state but those marked `keep` is left; see ch-build.ts
    /// for the algorithm and its reasons. Kept states never enter the queue: they are neither popped nor contracted,
    /// but witness searches pass through them and they get shortcuts; they end in the core, in state order.
    unsafe fn run(g: &Input, t: Tuning, stop: impl Fn(usize, usize) -> bool) -> Contraction {
        let s_count = g.first.len() - 1;
        let (heap, heap_mem) = new_heap(s_count);
        let mut c = Contraction {
            r: Records::new(),
            out: Pool::new(s_count),
            inn: Pool::new(s_count),
            live: 0,
            marks: vec![Mark { dist: 0.0, seen: 0, target: 0 }; s_count],
            heap,
            _heap_mem: heap_mem,
            gen: 0,
            added_hops: 0.0,
            level: vec![0; s_count],
            via: vec![0.0; s_count],
            targets: Vec::new(),
            sim_settles: t.sim_min as u32,
            rank: vec![0; s_count],
            core: 0,
            t,
        };
        for u in 0..s_count {
            for i in g.first[u] as usize..g.first[u + 1] as usize {
                let (x, w) = (g.head[i] as usize, g.weight[i]);
                if x != u && w != f64::INFINITY {
                    c.add_edge(u, x, w, -1, g.payload[i], g.hops[i]);
                }
            }
        }
        let (mut queue, _queue_mem) = new_heap(s_count);
        for v in 0..s_count {
            if g.keep[v] == 0 {
                let p = c.prio(v);
                queue.push(v as u32, p);
            }
        }
        let mut mark = vec![-1i32; s_count];
        let mut stale = vec![0u8; s_count];
        let mut nbrs: Vec<u32> = Vec::new();
        let mut next = 0usize;
        let mut deg_avg = 0.0f64;
        while queue.size > 0 {
            if stop(s_count - next, c.live) {
                break;
            }
            let v = queue.pop() as usize;
            if stale[v] != 0 {
                stale[v] = 0;
                let p = c.prio(v);
                if queue.size > 0 && p > queue.min_key() {
                    queue.push(v as u32, p);
                    continue;
                }
            }
            c.shortcuts(v, t.real_settles, true);
            let (n_in, n_out) = (c.inn.len[v] as usize, c.out.len[v] as usize);
            c.rank[v] = next as u32;
            next += 1;
            if next & 1023 == 0 {
                progress(next as u32);
            }
            deg_avg += ((n_in + n_out) as f64 - deg_avg) / 1000.0;
            c.sim_settles = t.sim_max.min(t.sim_min.max((2.0 * deg_avg).round())) as u32;
            nbrs.clear();
            for i in 0..n_in {
                let x = c.inn.e[c.inn.start[v] as usize + i].other;
                c.out.remove(x as usize, v as i32);
                if mark[x as usize] != v as i32 {
                    mark[x as usize] = v as i32;
                    nbrs.push(x as u32);
                }
            }
            for i in 0..n_out {
                let x = c.out.e[c.out.start[v] as usize + i].other;
                c.inn.remove(x as usize, v as i32);
                if mark[x as usize] != v as i32 {
                    mark[x as usize] = v as i32;
                    nbrs.push(x as u32);
                }
            }
            c.inn.drop_list(v);
            c.out.drop_list(v);
            c.live -= n_in + n_out;
            let n = nbrs.len();
            for &x in nbrs.iter() {
                let x = x as usize;
                if c.level[x] <= c.level[v] {
                    c.level[x] = c.level[v] + 1;
                }
                if g.keep[x] != 0 {
                    continue;
                }
                if n <= t.eager {
                    let p = c.prio(x);
                    queue.set(x as u32, p);
                } else {
                    stale[x] = 1;
                    queue.set(x as u32, queue.key_of(x as u32).max(t.prio_depth * c.level[x] as f64));
                }
            }
        }
        // The core: ranked above every contracted state, in state order.
        c.core = s_count - next;
        for v in 0..s_count {
            if queue.has(v as u32) || g.keep[v] != 0 {
                c.rank[v] = next as u32;
                next += 1;
            }
        }
        c
    }

    /// Adds edge u→x of weight w standing for record (a, b) (a base edge of `hops` hops when a < 0), or lowers the
    /// existing one to it.
    fn add_edge(&mut self, u: usize, x: usize, w: f64, a: i32, b: i32, hops: i32) {
        let i = self.out.find(u, x as i32);
        if i < 0 {
            let r = self.r.add(u as u32, x as u32, a, b, hops);
            self.out.push(u, x as i32, w, r);
            self.inn.push(x, u as i32, w, r);
            self.live += 1;
            return;
        }
        let i = i as usize;
        if w >= self.out.e[i].w {
            return;
        }
        let r = self.out.e[i].rec as usize;
        self.out.e[i].w = w;
        let j = self.inn.find(x, u as i32) as usize;
        self.inn.e[j].w = w;
        self.r.set(r, a, b, hops);
    }

    /// Shortcuts needed to contract v (witness searches limited to `settles` settled states), added when `apply`;
    /// returns their number and leaves the base edges they stand for in `added_hops`. A witness search that stops
    /// early only adds a needless shortcut, never a wrong one.
    unsafe fn shortcuts(&mut self, v: usize, settles: u32, apply: bool) -> u32 {
        let n_in = self.inn.len[v] as usize;
        let n_out = self.out.len[v] as usize;
        let mut count = 0u32;
        self.added_hops = 0.0;
        if n_in == 0 || n_out == 0 {
            return 0;
        }
        let mut max_out = 0.0f64;
        let o0 = self.out.start[v] as usize;
        for k in 0..n_out {
            max_out = max_out.max(self.out.e[o0 + k].w);
        }
        for i in 0..n_in {
            // Read through the pools each time: adding a shortcut may move them.
            let ii = self.inn.start[v] as usize + i;
            let (u, wu, ru) = (self.inn.e[ii].other as usize, self.inn.e[ii].w, self.inn.e[ii].rec);
            self.gen = self.gen.wrapping_add(1);
            if self.gen == 0xffff_ffff {
                self.marks.fill(Mark { dist: 0.0, seen: 0, target: 0 });
                self.gen = 1;
            }
            let gen = self.gen;
            let os = self.out.start[v] as usize;
            self.targets.clear();
            for k in 0..n_out {
                let x = self.out.e[os + k].other as usize;
                if x != u && self.marks[x].target != gen {
                    self.marks[x].target = gen;
                    self.via[x] = wu + self.out.e[os + k].w;
                    self.targets.push(x as u32);
                }
            }
            if self.targets.is_empty() {
                continue;
            }
            self.witness(u, v, wu + max_out, settles);
            for k in 0..n_out {
                let j = self.out.start[v] as usize + k;
                let x = self.out.e[j].other as usize;
                if x == u {
                    continue;
                }
                let via = wu + self.out.e[j].w;
                if self.marks[x].seen == gen && self.marks[x].dist <= via {
                    continue;
                }
                count += 1;
                let rx = self.out.e[j].rec;
                self.added_hops += self.r.hops[ru as usize] as f64 + self.r.hops[rx as usize] as f64;
                if apply {
                    self.add_edge(u, x, via, ru, rx, 0);
                }
            }
        }
        self.heap.clear();
        count
    }

    /// Dijkstra from u avoiding v, over weights ≤ `limit`, until `settles` states are settled or every target
    /// (`targets`, marked in `marks`) is decided; leaves distances in `marks` where `seen` holds the generation.
    ///
    /// A target is decided once it is settled, or once its distance is at most its `via` (a witness: distances only
    /// fall). The search also stops once the least queued key exceeds the greatest `via` of the targets left: from
    /// then on no distance of a target left could fall to its `via`. Until it stops it does what the search run to
    /// `limit` does, step for step, so each target's outcome (distance ≤ via or not) is the one that search would
    /// give, and the hierarchy the same bytes.
    #[inline(always)]
    unsafe fn witness(&mut self, u: usize, v: usize, limit: f64, settles: u32) {
        let gen = self.gen;
        let heap = &mut self.heap;
        let m = self.marks.as_mut_ptr();
        let via = self.via.as_ptr();
        let targets = &self.targets;
        let mut left = targets.len();
        let (os, ol, oe) = (self.out.start.as_ptr(), self.out.len.as_ptr(), self.out.e.as_ptr());
        // The greatest via of the targets not yet decided.
        let bound_left = || {
            let mut b = f64::NEG_INFINITY;
            for &x in targets.iter() {
                let x = x as usize;
                if (*m.add(x)).target == gen && *via.add(x) > b {
                    b = *via.add(x);
                }
            }
            b
        };
        let mut bound = limit;
        heap.clear();
        (*m.add(u)).dist = 0.0;
        (*m.add(u)).seen = gen;
        heap.push(u as u32, 0.0);
        let mut settled = 0u32;
        while heap.size > 0 && settled < settles {
            let k = heap.min_key();
            if k > bound {
                break;
            }
            let y = heap.pop() as usize;
            settled += 1;
            if (*m.add(y)).target == gen {
                (*m.add(y)).target = 0;
                left -= 1;
                if left == 0 {
                    break;
                }
                bound = bound_left();
            }
            let j0 = *os.add(y) as usize;
            for j in j0..j0 + *ol.add(y) as usize {
                let slot = &*oe.add(j);
                let z = slot.other as usize;
                if z == v {
                    continue;
                }
                let nd = k + slot.w;
                // A state beyond the limit could be no witness (it would be popped after the search ends). Not the
                // bound: a state left out of the heap would change the order in which it pops equal keys, so which
                // states a search cut by `settles` reaches.
                if nd > limit {
                    continue;
                }
                let mz = &mut *m.add(z);
                if mz.seen != gen || nd < mz.dist {
                    mz.dist = nd;
                    mz.seen = gen;
                    if mz.target == gen && nd <= *via.add(z) {
                        mz.target = 0;
                        left -= 1;
                        if left == 0 {
                            return;
                        }
                        bound = bound_left();
                    }
                    heap.push(z as u32, nd);
                }
            }
        }
    }

    /// Priority of v (test/helpers/ch-reference.ts `prio`): shortcuts per removed edge, base edges per removed base edge, depth.
    unsafe fn prio(&mut self, v: usize) -> f64 {
        let added = self.shortcuts(v, self.sim_settles, false);
        let removed = self.inn.len[v] + self.out.len[v];
        let t = self.t;
        let depth = t.prio_depth * self.level[v] as f64;
        if removed == 0 {
            return depth;
        }
        let mut removed_hops = 0.0f64;
        for pool in [&self.inn, &self.out] {
            let s = pool.start[v] as usize;
            for i in s..s + pool.len[v] as usize {
                removed_hops += self.r.hops[pool.e[i].rec as usize] as f64;
            }
        }
        (t.prio_edges * added as f64) / removed as f64 + (t.prio_hops * self.added_hops) / removed_hops + depth
    }
}
