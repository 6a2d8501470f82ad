//! Headers the TypeScript side writes into linear memory (field order must match src/route/wasm/layout.ts).
//! Every `*_ptr` field is a byte address in linear memory. Invariants guaranteed by the writer (RoadGraph.check):
//! node ids in `edge_nodes` are below `nodes`, arcs in `adj_arc` below `arcs`, `adj_first` has `nodes + 1` entries.

/// Per-arc label of one search side: weight, parent arc, and `state` (2·gen = seen this query, 2·gen + 1 = final).
#[repr(C)]
pub struct Label {
    pub dist: f64,
    pub parent: i32,
    pub state: u32,
}

/// The road graph of one pack plus the search state shared by every vehicle / weighting of that graph (a router
/// runs one query at a time).
#[repr(C)]
pub struct Graph {
    /// Out: weight of the last route.
    pub result_weight: f64,
    pub nodes: u32,
    pub arcs: u32,
    /// Query generation (see `Label::state`); the TypeScript side never writes it after setup.
    pub gen: u32,
    /// Out: arcs settled by the last query.
    pub settled: u32,
    /// Out: the arc of a route that stays on the source edge.
    pub result_arc: i32,
    /// u32 × 2 per edge: first and second node.
    pub edge_nodes: *const u32,
    /// u32 × (nodes + 1), CSR offsets into `adj_arc`.
    pub adj_first: *const u32,
    /// u32 arcs leaving each node.
    pub adj_arc: *const u32,
    /// f64 metres per edge.
    pub edge_len: *const f64,
    /// f64 projected node coordinates in metres.
    pub node_x: *const f64,
    pub node_y: *const f64,
    /// Label per arc, forward and backward side.
    pub fwd: *mut Label,
    pub bwd: *mut Label,
    /// Heaps of both sides: slots (16 bytes × arcs) and position by item (i32 × arcs, -1 = absent).
    pub fheap: *mut u8,
    pub fheap_pos: *mut i32,
    pub bheap: *mut u8,
    pub bheap_pos: *mut i32,
    /// f64 per arc: forward seconds and metres of one-to-many searches.
    pub fdur: *mut f64,
    pub flen: *mut f64,
    /// Points of one-to-many searches (targets) and many-to-many searches (origins, then destinations): edge,
    /// fraction, next target on the same arc (2 per target), flags. Capacity is tracked by the TypeScript side.
    pub dst_edge: *const u32,
    pub dst_t: *const f64,
    pub dst_next: *mut i32,
    pub dst_active: *mut u8,
    /// Outputs per target or per (origin, destination): weight, seconds, metres.
    pub out_weight: *mut f64,
    pub out_dur: *mut f64,
    pub out_dist: *mut f64,
}

/// Costs of one vehicle and weighting (see src/route/costs.ts and turns.ts).
#[repr(C)]
pub struct Costs {
    /// Weight per metre of straight-line distance no arc beats (A* bound).
    pub bound_per_metre: f64,
    /// Metres per degree of longitude / latitude of the projection of `Graph::node_x` / `node_y`.
    pub m_per_lon: f64,
    pub m_per_lat: f64,
    /// Seconds of a U-turn (ArcCosts.uTurn).
    pub u_turn: f64,
    /// 1 when turn seconds count as weight (fastest), 0 when not (shortest).
    pub turn_factor: f64,
    /// Number of arcs with turn bans.
    pub banned_arcs: u32,
    /// f64 per arc: search weight (Infinity = closed) and seconds.
    pub weight: *const f64,
    pub dur: *const f64,
    /// u8 per node: open arcs leaving it (capped at 255); 1 when the vehicle may not pass it.
    pub out_open: *const u8,
    pub blocked: *const u8,
    /// u8 per arc: 1 when some turn from this arc is banned.
    pub flagged: *const u8,
    /// Ascending arcs with bans (`banned_arcs` of them), CSR offsets (banned_arcs + 1) into `ban_to`, banned next arcs.
    pub ban_arc: *const u32,
    pub ban_first: *const u32,
    pub ban_to: *const u32,
    /// Turn costs (src/route/costs.ts): u16 per arc bearing leaving its tail (1/1024 turns), f64 per node traffic
    /// light seconds, u8 per node 1 when more than two roads meet, f64 × 1024 angle penalty per rounded angle.
    pub bearing: *const u16,
    pub signal: *const f64,
    pub cross: *const u8,
    pub angle_penalty: *const f64,
}

/// Unchecked read; callers index with values bounded by the invariants above.
#[inline(always)]
pub unsafe fn rd<T: Copy>(p: *const T, i: usize) -> T {
    *p.add(i)
}

impl Costs {
    /// Seconds of the transition from arc `a` (entering node v) on to arc `b` (leaving v): ArcCosts.turnDur, the
    /// same sum in the same order.
    #[inline(always)]
    pub unsafe fn turn_dur(&self, a: u32, b: u32, v: u32) -> f64 {
        let s = rd(self.signal, v as usize);
        if a >> 1 == b >> 1 {
            return s + self.u_turn;
        }
        if rd(self.cross, v as usize) == 0 {
            return s;
        }
        let k = (rd(self.bearing, b as usize) as u32).wrapping_sub(rd(self.bearing, (a ^ 1) as usize) as u32).wrapping_add(512) & 1023;
        s + rd(self.angle_penalty, k as usize)
    }

    /// Search weight of that transition (its seconds for fastest, 0 for shortest): ArcCosts.turnWeight.
    #[inline(always)]
    pub unsafe fn turn_weight(&self, a: u32, b: u32, v: u32) -> f64 {
        if self.turn_factor == 0.0 { 0.0 } else { self.turn_dur(a, b, v) }
    }

    /// True unless a turn restriction bans going from arc `a` on to arc `b` (only called when `flagged[a]` is 1).
    pub unsafe fn turn_allowed(&self, a: u32, b: u32) -> bool {
        let (mut lo, mut hi) = (0usize, self.banned_arcs as usize);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if rd(self.ban_arc, mid) < a { lo = mid + 1 } else { hi = mid }
        }
        if lo == self.banned_arcs as usize || rd(self.ban_arc, lo) != a {
            return true;
        }
        for i in rd(self.ban_first, lo) as usize..rd(self.ban_first, lo + 1) as usize {
            if rd(self.ban_to, i) == b {
                return false;
            }
        }
        true
    }
}

impl Graph {
    /// Starts a query: a new generation (resetting every label's state when the counter would overflow).
    pub unsafe fn next_gen(&mut self) -> u32 {
        self.settled = 0;
        self.gen += 1;
        if self.gen >= 0x7fff_fff0 {
            for a in 0..self.arcs as usize {
                (*self.fwd.add(a)).state = 0;
                (*self.bwd.add(a)).state = 0;
            }
            self.gen = 1;
        }
        self.gen
    }

    /// Head node of arc a (where it ends).
    #[inline(always)]
    pub unsafe fn head(&self, a: u32) -> u32 {
        rd(self.edge_nodes, ((a & !1) + 1 - (a & 1)) as usize)
    }

    /// Tail node of arc a (where it starts).
    #[inline(always)]
    pub unsafe fn tail(&self, a: u32) -> u32 {
        rd(self.edge_nodes, ((a & !1) + (a & 1)) as usize)
    }
}
