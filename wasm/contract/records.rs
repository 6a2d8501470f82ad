//! The contraction's edge records (base edges and shortcuts), append-only: test/helpers/ch-reference.ts `Records`.
//! No weight: the hierarchy's layout needs only the ends and children (weights are derived from the costs at
//! load), and the live edges' weights are in the pools.

pub struct Records {
    pub n: usize,
    pub tail: Vec<u32>,
    pub head: Vec<u32>,
    /// Shortcut: first and second child record (path order). Base edge: a = -1, b = payload.
    pub a: Vec<i32>,
    pub b: Vec<i32>,
    /// Base edges a record stands for (1 for a base edge), wrapping as the TypeScript Int32Array does.
    pub hops: Vec<i32>,
}

impl Records {
    pub fn new() -> Records {
        Records { n: 0, tail: Vec::new(), head: Vec::new(), a: Vec::new(), b: Vec::new(), hops: Vec::new() }
    }

    /// Appends a record and returns its number; `base_hops` is a base edge's hop count (1 for a road transition; an
    /// overlay's input edge stands for a record of a cell and brings its hops).
    pub fn add(&mut self, tail: u32, head: u32, a: i32, b: i32, base_hops: i32) -> i32 {
        let h = self.hops_of(a, b, base_hops);
        self.tail.push(tail);
        self.head.push(head);
        self.a.push(a);
        self.b.push(b);
        self.hops.push(h);
        self.n += 1;
        (self.n - 1) as i32
    }

    /// Makes record r stand for (a, b) instead.
    pub fn set(&mut self, r: usize, a: i32, b: i32, base_hops: i32) {
        self.a[r] = a;
        self.b[r] = b;
        self.hops[r] = self.hops_of(a, b, base_hops);
    }

    fn hops_of(&self, a: i32, b: i32, base_hops: i32) -> i32 {
        if a < 0 {
            base_hops
        } else {
            self.hops[a as usize].wrapping_add(self.hops[b as usize])
        }
    }
}
