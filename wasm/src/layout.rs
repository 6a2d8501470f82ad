//! Headers the TypeScript side writes into linear memory (field order must match src/route/wasm/layout.ts).
//! Every `*_ptr` field is a byte address in linear memory. Invariants guaranteed by the writer (RoadGraph.check):
//! node ids in `edge_nodes` are below `nodes`, arcs in `adj_arc` below `arcs`, `adj_first` has `nodes + 1` entries.

/// Per-state label of one search side (states: arcs and copies of via arcs, see src/route/turns.ts): weight, parent
/// state, and `state` (2·gen = seen this query, 2·gen + 1 = final).
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
    /// Labels per side (states of the vehicle with the most; at least `arcs`).
    pub label_cap: u32,
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
    /// Label per state (`label_cap`), forward and backward side.
    pub fwd: *mut Label,
    pub bwd: *mut Label,
    /// Heaps of both sides: slots (16 bytes × (label_cap + 1)) and position by item (i32 × label_cap, -1 = absent).
    pub fheap: *mut u8,
    pub fheap_pos: *mut i32,
    pub bheap: *mut u8,
    pub bheap_pos: *mut i32,
    /// f64 per state: forward seconds and metres of one-to-many searches.
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
    /// Turn weight of entering a road restricted to local access from one that is not (ArcCosts.restrictedTurn).
    pub restricted_turn: f64,
    /// Number of arcs (states below it are plain arcs) and of states (arcs, then copies of via arcs).
    pub arcs: u32,
    pub states: u32,
    /// f64 per arc: search weight (Infinity = closed) and seconds.
    pub weight: *const f64,
    pub dur: *const f64,
    /// u8 per node: open arcs leaving it (capped at 255); 1 when the vehicle may not pass it.
    pub out_open: *const u8,
    pub blocked: *const u8,
    /// u8 per edge: 1 when the vehicle may drive it only for local access (ArcCosts.restricted).
    pub restricted: *const u8,
    /// Transition table of TurnTable: i32 per state, its row or -1 (every transition leads to the plain arc);
    /// u32 row offsets into `rule_to` (arcs) and `rule_next` (the state each leads to, -1 = forbidden).
    pub rule: *const i32,
    pub rule_first: *const u32,
    pub rule_to: *const u32,
    pub rule_next: *const i32,
    /// u32 per copy: its arc; u32 × (arcs + 1): copies of arc a are states arcs + copy_first[a] .. arcs + copy_first[a + 1] - 1.
    pub copy_arc: *const u32,
    pub copy_first: *const u32,
    /// Turn costs (src/route/costs.ts): u16 per arc bearing leaving its tail (1/1024 turns), f64 per arc the seconds
    /// of the traffic light it stops at on entering its head, u8 per node 1 when more than two roads meet, f64 × 1024
    /// angle penalty per rounded angle.
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
        let s = rd(self.signal, a as usize);
        if a >> 1 == b >> 1 {
            return s + self.u_turn;
        }
        if rd(self.cross, v as usize) == 0 {
            return s;
        }
        let k = (rd(self.bearing, b as usize) as u32).wrapping_sub(rd(self.bearing, (a ^ 1) as usize) as u32).wrapping_add(512) & 1023;
        s + rd(self.angle_penalty, k as usize)
    }

    /// Search weight of that transition (its seconds plus the restricted-access weight for fastest, 0 for
    /// shortest): ArcCosts.turnWeight.
    #[inline(always)]
    pub unsafe fn turn_weight(&self, a: u32, b: u32, v: u32) -> f64 {
        if self.turn_factor == 0.0 { 0.0 } else { self.turn_dur(a, b, v) + self.access_weight(a, b) }
    }

    /// `turn_weight` when the transition's seconds `td` are known: ArcCosts.turnWeightOf.
    #[inline(always)]
    pub unsafe fn turn_weight_of(&self, td: f64, a: u32, b: u32) -> f64 {
        if self.turn_factor == 0.0 { 0.0 } else { td + self.access_weight(a, b) }
    }

    /// Weight of entering b's edge from a's when only b's is restricted to local access, else 0.
    #[inline(always)]
    unsafe fn access_weight(&self, a: u32, b: u32) -> f64 {
        if rd(self.restricted, (b >> 1) as usize) == 1 && rd(self.restricted, (a >> 1) as usize) == 0 { self.restricted_turn } else { 0.0 }
    }

    /// The arc of state s (TurnTable.arcOf).
    #[inline(always)]
    pub unsafe fn arc_of(&self, s: u32) -> u32 {
        if s < self.arcs { s } else { rd(self.copy_arc, (s - self.arcs) as usize) }
    }

    /// The state the transition from state s onto arc b leads to, -1 when a restriction forbids it (TurnTable.next).
    #[inline(always)]
    pub unsafe fn next(&self, s: u32, b: u32) -> i32 {
        let r = rd(self.rule, s as usize);
        if r < 0 {
            return b as i32;
        }
        for i in rd(self.rule_first, r as usize)..rd(self.rule_first, r as usize + 1) {
            if rd(self.rule_to, i as usize) == b {
                return rd(self.rule_next, i as usize);
            }
        }
        b as i32
    }

    /// First and end (exclusive) state of the copies of arc a.
    #[inline(always)]
    pub unsafe fn copies(&self, a: u32) -> (u32, u32) {
        (self.arcs + rd(self.copy_first, a as usize), self.arcs + rd(self.copy_first, a as usize + 1))
    }
}

impl Graph {
    /// Starts a query: a new generation (resetting every label's state when the counter would overflow).
    pub unsafe fn next_gen(&mut self) -> u32 {
        self.settled = 0;
        self.gen += 1;
        if self.gen >= 0x7fff_fff0 {
            for a in 0..self.label_cap as usize {
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
