//! Per-state adjacency lists of live edges, each a contiguous slice of one pool, moved with double the room when
//! full: test/helpers/ch-reference-pool.ts `AdjacencyPool`, with the same list orders (appends at the end, removal
//! moves the last entry into the gap), which the contraction's tie-breaking depends on. Unlike the reference, the
//! block a moved list leaves is reused by the next list that needs that much room (rooms are powers of two): on
//! New York the pools then stay near twice the live lists instead of growing with every move.

pub struct Pool {
    /// Per state: first slot, live entries, room.
    pub start: Vec<i32>,
    pub len: Vec<i32>,
    cap: Vec<i32>,
    /// The entries; a state's list is `e[start..start + len]`.
    pub e: Vec<Slot>,
    /// Free blocks by room: `free[k]` holds the first slots of free blocks of 2^k entries.
    free: Vec<Vec<i32>>,
}

/// One entry: the other state, the weight and the record, side by side (a witness search reads the first two of
/// every entry it scans).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Slot {
    pub w: f64,
    pub other: i32,
    pub rec: i32,
}

impl Pool {
    pub fn new(states: usize) -> Pool {
        Pool {
            start: vec![0; states],
            len: vec![0; states],
            cap: vec![0; states],
            e: Vec::new(),
            free: Vec::new(),
        }
    }

    /// Appends an entry to state s's list.
    pub fn push(&mut self, s: usize, other: i32, w: f64, rec: i32) {
        let n = self.len[s];
        if n == self.cap[s] {
            self.move_list(s, 2.max(2 * n));
        }
        self.e[(self.start[s] + n) as usize] = Slot { w, other, rec };
        self.len[s] = n + 1;
    }

    /// Slot of the entry of s whose other state is x, or -1.
    #[inline(always)]
    pub fn find(&self, s: usize, x: i32) -> isize {
        let from = self.start[s] as usize;
        match self.e[from..from + self.len[s] as usize].iter().position(|o| o.other == x) {
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
        self.e[i] = self.e[last];
    }

    /// Empties s's list for good (s is contracted), freeing its block.
    pub fn drop_list(&mut self, s: usize) {
        let cap = self.cap[s];
        if cap > 0 {
            self.free[cap.trailing_zeros() as usize].push(self.start[s]);
        }
        self.len[s] = 0;
        self.cap[s] = 0;
    }

    /// Moves s's list to a free block of `room` entries (a power of two), else to the end of the pool; its old
    /// block becomes free.
    fn move_list(&mut self, s: usize, room: i32) {
        let (from, n, old) = (self.start[s] as usize, self.len[s] as usize, self.cap[s]);
        let k = room.trailing_zeros() as usize;
        if self.free.len() <= k {
            self.free.resize(k + 1, Vec::new());
        }
        let to = match self.free[k].pop() {
            Some(at) => at as usize,
            None => {
                let at = self.e.len();
                self.e.resize(at + room as usize, Slot { w: 0.0, other: 0, rec: 0 });
                at
            }
        };
        self.e.copy_within(from..from + n, to);
        if old > 0 {
            self.free[old.trailing_zeros() as usize].push(from as i32);
        }
        self.start[s] = to as i32;
        self.cap[s] = room;
    }
}
