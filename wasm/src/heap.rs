//! Binary min-heap of arcs keyed by f64, with decrease-key through a position array: the same algorithm as
//! src/route/heap.ts, so both cores pop equal keys in the same order and return the same paths.

pub struct Heap {
    items: *mut i32,
    keys: *mut f64,
    pos: *mut i32,
    pub size: usize,
}

impl Heap {
    /// A heap over arrays whose `pos` entries are all -1 (every query empties its heaps with `clear`).
    pub fn new(items: *mut i32, keys: *mut f64, pos: *mut i32) -> Heap {
        Heap { items, keys, pos, size: 0 }
    }

    /// Smallest key queued (Infinity when empty).
    #[inline(always)]
    pub unsafe fn min_key(&self) -> f64 {
        if self.size > 0 { *self.keys.add(*self.items as usize) } else { f64::INFINITY }
    }

    /// Queues the item or lowers its key (a higher key is ignored).
    #[inline(always)]
    pub unsafe fn push(&mut self, item: u32, key: f64) {
        let it = item as usize;
        let p = *self.pos.add(it);
        if p >= 0 {
            if key >= *self.keys.add(it) {
                return;
            }
            *self.keys.add(it) = key;
            self.up(p as usize);
            return;
        }
        *self.keys.add(it) = key;
        *self.items.add(self.size) = item as i32;
        *self.pos.add(it) = self.size as i32;
        self.size += 1;
        self.up(self.size - 1);
    }

    /// Removes and returns the item with the smallest key. Precondition: size > 0.
    #[inline(always)]
    pub unsafe fn pop(&mut self) -> u32 {
        let top = *self.items;
        *self.pos.add(top as usize) = -1;
        self.size -= 1;
        let last = *self.items.add(self.size);
        if self.size > 0 {
            *self.items = last;
            *self.pos.add(last as usize) = 0;
            self.down(0);
        }
        top as u32
    }

    /// Empties the heap, restoring `pos` to -1 for the items still queued.
    pub unsafe fn clear(&mut self) {
        for i in 0..self.size {
            *self.pos.add(*self.items.add(i) as usize) = -1;
        }
        self.size = 0;
    }

    unsafe fn up(&mut self, mut i: usize) {
        let item = *self.items.add(i);
        let k = *self.keys.add(item as usize);
        while i > 0 {
            let parent = (i - 1) >> 1;
            let pi = *self.items.add(parent);
            if *self.keys.add(pi as usize) <= k {
                break;
            }
            *self.items.add(i) = pi;
            *self.pos.add(pi as usize) = i as i32;
            i = parent;
        }
        *self.items.add(i) = item;
        *self.pos.add(item as usize) = i as i32;
    }

    unsafe fn down(&mut self, mut i: usize) {
        let n = self.size;
        let item = *self.items.add(i);
        let k = *self.keys.add(item as usize);
        loop {
            let mut c = 2 * i + 1;
            if c >= n {
                break;
            }
            if c + 1 < n && *self.keys.add(*self.items.add(c + 1) as usize) < *self.keys.add(*self.items.add(c) as usize) {
                c += 1;
            }
            let ci = *self.items.add(c);
            if *self.keys.add(ci as usize) >= k {
                break;
            }
            *self.items.add(i) = ci;
            *self.pos.add(ci as usize) = i as i32;
            i = c;
        }
        *self.items.add(i) = item;
        *self.pos.add(item as usize) = i as i32;
    }
}
