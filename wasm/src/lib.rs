//! Route search core of bando for WebAssembly: the edge-based bidirectional A* and one-to-many searches of
//! src/route/search.ts and the contraction hierarchy queries of src/route/ch.ts, over typed arrays that the
//! TypeScript side copies once into linear memory (layout: src/route/wasm/layout.ts, mirrored by `Graph`, `Costs`
//! and `Ch` here). Memory is bump-allocated (`alloc`) and freed only by rolling back to a mark (`alloc_reset`).
//! `std` only for `f64::sqrt` (the Debian toolchain's `core` has no scalar square root for wasm32); nothing else of
//! it is linked.

mod alloc;
mod ch;
mod core_search;
mod derive;
mod heap;
mod layout;
mod many;
mod search;
mod sums;

pub use ch::Ch;
pub use layout::{Costs, Graph};

/// Address of `bytes` fresh 8-aligned bytes of linear memory (grown as needed), or 0 when it cannot grow.
#[no_mangle]
pub unsafe extern "C" fn alloc(bytes: u32) -> u32 {
    alloc::alloc(bytes as usize) as u32
}

/// The end of the last allocation: a mark to roll back to with `alloc_reset`.
#[no_mangle]
pub unsafe extern "C" fn alloc_top() -> u32 {
    alloc::top() as u32
}

/// Frees everything allocated after `top` (a mark of `alloc_top`); the bytes keep what was written to them.
#[no_mangle]
pub unsafe extern "C" fn alloc_reset(top: u32) {
    alloc::reset(top as usize)
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

/// Contraction hierarchy route (see `ch::route`), unpacked into `Ch::path`: the path's length in arcs (≥ 2), -2 for a
/// route along the source edge (arc in `Ch::result_arc`), -1 for none, -3 when the path does not fit (never).
#[no_mangle]
pub unsafe extern "C" fn ch_route(g: *const Graph, c: *const Costs, h: *mut Ch, src_edge: u32, src_t: f64, src_only: i32, dst_edge: u32, dst_t: f64) -> i32 {
    ch::route(&*g, &*c, &mut *h, src_edge, src_t, src_only, dst_edge, dst_t)
}

/// Derives a hierarchy's record weights (see `derive::derive`): -1 when every record is sound,
/// else the first one found corrupt.
#[no_mangle]
pub unsafe extern "C" fn ch_derive(g: *const Graph, c: *const Costs, h: *mut Ch) -> i32 {
    derive::derive(&*g, &*c, &mut *h)
}

/// Contraction hierarchy many-to-many (see `ch::table`); 0 when memory for the buckets ran out, else 1.
#[no_mangle]
pub unsafe extern "C" fn ch_table(g: *const Graph, c: *const Costs, h: *mut Ch, origins: u32, dests: u32) -> u32 {
    ch::table(&*g, &*c, &mut *h, origins as usize, dests as usize) as u32
}
