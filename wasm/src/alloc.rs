//! Bump allocation of linear memory for the TypeScript side (graph arrays, search state) and for the buckets of
//! the many-to-many search. Nothing is freed, except by `reset`: what a router allocates lives as long as the
//! router, and a setup that did not fit is rolled back.

use core::arch::wasm32::{memory_grow, memory_size};

extern "C" {
    static __heap_base: u8;
}

static mut TOP: usize = 0;

/// The end of the last allocation.
pub unsafe fn top() -> usize {
    if TOP == 0 {
        TOP = &__heap_base as *const u8 as usize;
    }
    TOP
}

/// Frees everything allocated after `to` (a value of `top`). The bytes keep what was written to them.
pub unsafe fn reset(to: usize) {
    TOP = to;
}

/// Address of `bytes` fresh bytes, 8-aligned, growing memory as needed; 0 when memory cannot grow.
pub unsafe fn alloc(bytes: usize) -> usize {
    let at = (top() + 7) & !7;
    let end = match at.checked_add(bytes) {
        Some(e) => e,
        None => return 0,
    };
    let have = memory_size(0) * 65536;
    if end > have {
        // Grown by at least half its size, so that a run of allocations (a hierarchy's arrays) grows it a few times
        // rather than once each: each grow costs the host time, and pages never touched cost no memory. Exactly
        // what is needed when that fails (near the 4 GiB cap).
        let need = (end - have + 65535) / 65536;
        if memory_grow(0, need.max(memory_size(0) / 2)) == usize::MAX && memory_grow(0, need) == usize::MAX {
            return 0;
        }
    }
    TOP = end;
    at
}
