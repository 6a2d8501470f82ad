//! Binary min-heap of states keyed by f64, with decrease-key through a position array: the algorithm of
//! src/route/heap.ts (same comparisons, so both cores pop equal keys in the same order and return the same paths),
//! with each key stored beside its item so sifting reads one array instead of two, and an Infinity sentinel in the
//! slot after the last so sifting down picks the smaller child without testing for a missing right child.

/// One heap slot: key and item.
#[repr(C)]
pub struct Entry {
    key: f64,
    item: u32,
    _pad: u32,
}

/// Slots (capacity items + 1, for the sentinel) plus each item's position (-1 = absent).
pub struct Heap {
    e: *mut Entry,
    pos: *mut i32,
    pub size: usize,
}

impl Heap {
    /// An empty heap over slots and positions that are all -1 (every query empties its heaps). Keys are finite.
    pub unsafe fn new(entries: *mut u8, pos: *mut i32) -> Heap {
        let e = entries as *mut Entry;
        (*e).key = f64::INFINITY;
        Heap { e, pos, size: 0 }
    }

    /// Smallest key queued (Infinity when empty: the sentinel).
    #[inline(always)]
    pub unsafe fn min_key(&self) -> f64 {
        (*self.e).key
    }

    /// The item in slot k (0 ≤ k < size), to scan the queue without popping.
    #[inline(always)]
    pub unsafe fn item_at(&self, k: usize) -> u32 {
        (*self.e.add(k)).item
    }

    /// Queues the item or lowers its key (a higher key is ignored).
    #[inline(always)]
    pub unsafe fn push(&mut self, item: u32, key: f64) {
        let p = *self.pos.add(item as usize);
        if p >= 0 {
            if key >= (*self.e.add(p as usize)).key {
                return;
            }
            self.up(p as usize, item, key);
            return;
        }
        self.size += 1;
        (*self.e.add(self.size)).key = f64::INFINITY;
        self.up(self.size - 1, item, key);
    }

    /// True when the item is queued.
    #[allow(dead_code)] // used by the contraction crate (wasm/contract), which includes this file
    #[inline(always)]
    pub unsafe fn has(&self, item: u32) -> bool {
        *self.pos.add(item as usize) >= 0
    }

    /// Key of a queued item. Precondition: the item is queued.
    #[allow(dead_code)] // used by the contraction crate
    #[inline(always)]
    pub unsafe fn key_of(&self, item: u32) -> f64 {
        (*self.e.add(*self.pos.add(item as usize) as usize)).key
    }

    /// Queues the item or changes its key, up or down (src/route/heap.ts `set`).
    #[allow(dead_code)] // used by the contraction crate
    pub unsafe fn set(&mut self, item: u32, key: f64) {
        let p = *self.pos.add(item as usize);
        if p < 0 {
            return self.push(item, key);
        }
        let old = (*self.e.add(p as usize)).key;
        if key < old {
            self.up(p as usize, item, key);
        } else if key > old {
            self.down_from(p as usize, item, key);
        }
    }

    /// Removes and returns the item with the smallest key. Precondition: size > 0.
    #[inline(always)]
    pub unsafe fn pop(&mut self) -> u32 {
        let top = (*self.e).item;
        *self.pos.add(top as usize) = -1;
        self.size -= 1;
        let last = &mut *self.e.add(self.size);
        let (item, key) = (last.item, last.key);
        last.key = f64::INFINITY;
        if self.size > 0 {
            self.down_from(0, item, key);
        }
        top
    }

    /// Empties the heap, restoring positions to -1 for the items still queued.
    pub unsafe fn clear(&mut self) {
        for i in 0..self.size {
            *self.pos.add((*self.e.add(i)).item as usize) = -1;
        }
        self.size = 0;
        (*self.e).key = f64::INFINITY;
    }

    /// Places (item, key) at slot i or above.
    #[inline(always)]
    unsafe fn up(&mut self, mut i: usize, item: u32, key: f64) {
        while i > 0 {
            let parent = (i - 1) >> 1;
            let pe = &*self.e.add(parent);
            if pe.key <= key {
                break;
            }
            let (pi, pk) = (pe.item, pe.key);
            *self.e.add(i) = Entry { key: pk, item: pi, _pad: 0 };
            *self.pos.add(pi as usize) = i as i32;
            i = parent;
        }
        *self.e.add(i) = Entry { key, item, _pad: 0 };
        *self.pos.add(item as usize) = i as i32;
    }

    /// Places (item, key) at slot i or below. The right child is taken only when strictly smaller; a missing
    /// one is the Infinity sentinel, never smaller.
    #[inline(always)]
    unsafe fn down_from(&mut self, mut i: usize, item: u32, key: f64) {
        let n = self.size;
        loop {
            let mut c = 2 * i + 1;
            if c >= n {
                break;
            }
            c += ((*self.e.add(c + 1)).key < (*self.e.add(c)).key) as usize;
            let ce = &*self.e.add(c);
            if ce.key >= key {
                break;
            }
            let (ci, ck) = (ce.item, ce.key);
            *self.e.add(i) = Entry { key: ck, item: ci, _pad: 0 };
            *self.pos.add(ci as usize) = i as i32;
            i = c;
        }
        *self.e.add(i) = Entry { key, item, _pad: 0 };
        *self.pos.add(item as usize) = i as i32;
    }
}
