//! Route search core of bando for WebAssembly: the edge-based bidirectional A* point-to-point search and the
//! one-to-many search of src/route/search.ts, over typed arrays that the TypeScript side copies once into linear
//! memory (layout: src/route/wasm/layout.ts, mirrored by `Graph` and `Costs` here). Nothing allocates on the Rust
//! side: the TypeScript side owns memory above `heap_base()` and grows it. `std` only for `f64::sqrt` (the Debian
//! toolchain's `core` has no scalar square root for wasm32); nothing else of it is linked.

mod heap;
mod layout;
mod many;
mod search;

pub use layout::{Costs, Graph};

extern "C" {
    static __heap_base: u8;
}

/// First byte of linear memory free for the TypeScript side's allocations.
#[no_mangle]
pub extern "C" fn heap_base() -> u32 {
    unsafe { &__heap_base as *const u8 as u32 }
}

/// Point-to-point route (see `search::route`). Returns the meeting arc (≥ 0), -2 when the route stays on the source
/// edge (arc in `Graph::result_arc`), -1 when there is none; the weight is in `Graph::result_weight`.
#[no_mangle]
pub unsafe extern "C" fn route(
    g: *mut Graph, c: *const Costs,
    src_edge: u32, src_t: f64, src_lat: f64, src_lon: f64, src_only: i32,
    dst_edge: u32, dst_t: f64, dst_lat: f64, dst_lon: f64,
) -> i32 {
    search::route(&mut *g, &*c, search::End { edge: src_edge, t: src_t, lat: src_lat, lon: src_lon, only: src_only },
        search::End { edge: dst_edge, t: dst_t, lat: dst_lat, lon: dst_lon, only: -1 })
}

/// One-to-many search from one source to the `n` targets in `Graph::dst_edge` / `Graph::dst_t` (see
/// `many::one_to_many`); writes weight, seconds and metres per target to `Graph::out_*`.
#[no_mangle]
pub unsafe extern "C" fn one_to_many(g: *mut Graph, c: *const Costs, src_edge: u32, src_t: f64, n: u32) {
    many::one_to_many(&mut *g, &*c, src_edge, src_t, n as usize)
}
