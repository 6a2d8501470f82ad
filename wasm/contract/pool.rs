//! Per-state adjacency lists of live edges, each a contiguous slice of one pool, moved to the end with double the
//! room when full: ch-adjacency.ts `AdjacencyPool`, with the same list orders (appends at the end, removal moves
//! the last entry into the gap), which the contraction's tie-breaking depends on.

pub struct Pool {
    /// Per state: first slot, live entries, room.
    pub start: Vec<i32>,
    pub len: Vec<i32>,
    cap: Vec<i32>,
    pub other: Vec<i32>,
    pub w: Vec<f64>,
    pub rec: Vec<i32>,
}

impl Pool {
    pub fn new(states: usize) -> Pool {
        Pool {
            start: vec![0; states],
            len: vec![0; states],
            cap: vec![0; states],
            other: Vec::new(),
            w: Vec::new(),
            rec: Vec::new(),
        }
    }

    /// Appends an entry to state s's list.
    pub fn push(&mut self, s: usize, other: i32, w: f64, rec: i32) {
        let n = self.len[s];
        if n == self.cap[s] {
            self.move_list(s, 2.max(2 * n));
        }
        let i = (self.start[s] + n) as usize;
        self.other[i] = other;
        self.w[i] = w;
        self.rec[i] = rec;
        self.len[s] = n + 1;
    }

    /// Slot of the entry of s whose other state is x, or -1.
    #[inline(always)]
    pub fn find(&self, s: usize, x: i32) -> isize {
        let from = self.start[s] as usize;
        match self.other[from..from + self.len[s] as usize].iter().position(|&o| o == x) {
            Some(k) => (from + k) as isize,
            None => -1,
        }
    }

    /// Removes the entry of s whose other state is x (there is at most one), moving the last entry into its slot.
    pub fn remove(&mut self, s: usize, x: i32) {
        let i = self.find(s, x);
        if i < 0 {
            return;
        }
        let i = i as usize;
        self.len[s] -= 1;
        let last = (self.start[s] + self.len[s]) as usize;
        self.other[i] = self.other[last];
        self.w[i] = self.w[last];
        self.rec[i] = self.rec[last];
    }

    /// Moves s's list to the end of the pool with room for `room` entries. The old slots are not reused.
    fn move_list(&mut self, s: usize, room: i32) {
        let (from, n, to) = (self.start[s] as usize, self.len[s] as usize, self.other.len());
        let end = to + room as usize;
        self.other.resize(end, 0);
        self.w.resize(end, 0.0);
        self.rec.resize(end, 0);
        self.other.copy_within(from..from + n, to);
        self.w.copy_within(from..from + n, to);
        self.rec.copy_within(from..from + n, to);
        self.start[s] = to as i32;
        self.cap[s] = room;
    }
}
