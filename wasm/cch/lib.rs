//! The customizable hierarchy's point-to-point search of bando for WebAssembly (src/route/cch/query.ts `route`, the
//! same labels, order and ties), over a memory the TypeScript side owns and imports (src/route/wasm/cch-arena.ts):
//! the topology and each metric's kept arcs are written there where they are made, so nothing is copied in. The
//! memory is shared (a SharedArrayBuffer), so that growing it never detaches the views the TypeScript side reads.
//! One instance per memory and one search at a time: the module keeps nothing between calls but what `Query` holds.
#![no_std]

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

/// One direction of a metric's kept arcs (arcs.ts CchArcs): vertex v's arcs are row_base[v >> 8] + row_off[v] up to
/// the same of v + 1; arc k's head is up_head[up_first[v] + slot[k]], its weight weight[k].
#[repr(C)]
pub struct Arcs {
    row_base: *const u32,
    row_off: *const u8,
    /// Bytes of a row_off entry: 2 or 4.
    off_bytes: u32,
    slot: *const u8,
    /// Bytes of a slot: 1, 2 or 4.
    slot_bytes: u32,
    weight: *const f64,
}

/// A query's inputs, working arrays and outputs, as cch-arena.ts lays them (QUERY_WORDS there: 4-byte words, `best`
/// at word 34).
#[repr(C)]
pub struct Query {
    /// The topology (topology.ts CchTopology): elimination-tree parents (-1 at a root), rows, heads; n vertices.
    parent: *const i32,
    up_first: *const u32,
    up_head: *const u32,
    n: u32,
    up: Arcs,
    down: Arcs,
    /// Labels each side (weight, and the vertex it came from or -1 - arc at a seed), written before they are read.
    df: *mut f64,
    db: *mut f64,
    pf: *mut i32,
    pb: *mut i32,
    /// Per vertex the walk that listed it last; `stamp` the forward walk's, stamp + 1 the backward's.
    mark: *mut u32,
    stamp: u32,
    /// Each side's vertices, ascending, and a run being merged in: room for `cap` each.
    flist: *mut u32,
    blist: *mut u32,
    run: *mut u32,
    cap: u32,
    /// Each side's seeds: vertex, weight, where from.
    fseed: *const u32,
    fw: *const f64,
    fp: *const i32,
    nfs: u32,
    bseed: *const u32,
    bw: *const f64,
    bp: *const i32,
    nbs: u32,
    /// In: the direct route's weight (Infinity for none). Out: the best weight, and the vertex where it meets (-1:
    /// the direct route), and the vertices both walks listed.
    best: f64,
    meet: i32,
    visited: u32,
    /// A metric kept over a base (CchMetric.base): per direction a bit per vertex, set when its row is the metric's
    /// own (else the base's row is read); `has_own` 0 when every row is the metric's.
    up_own: *const u32,
    down_own: *const u32,
    has_own: u32,
    base_up: Arcs,
    base_down: Arcs,
}

const _: () = assert!(core::mem::size_of::<Query>() == 216);

/// Reads entry i of an array of unsigned integers of one width.
trait Entry {
    unsafe fn at(p: *const u8, i: usize) -> usize;
}
struct U8;
struct U16;
struct U32;
impl Entry for U8 {
    #[inline(always)]
    unsafe fn at(p: *const u8, i: usize) -> usize {
        *p.add(i) as usize
    }
}
impl Entry for U16 {
    #[inline(always)]
    unsafe fn at(p: *const u8, i: usize) -> usize {
        *(p as *const u16).add(i) as usize
    }
}
impl Entry for U32 {
    #[inline(always)]
    unsafe fn at(p: *const u8, i: usize) -> usize {
        *(p as *const u32).add(i) as usize
    }
}

/// Lists one side's vertices (the seeds and their ancestors, ascending) and labels them: Infinity, then each seed
/// unless an earlier seed of the same vertex is as light (Ancestors.walk and CchQuery.side). None when the list
/// would pass `cap`.
unsafe fn side(q: &Query, stamp: u32, seeds: *const u32, w: *const f64, from: *const i32, ns: u32, list: *mut u32, d: *mut f64, p: *mut i32) -> Option<usize> {
    let cap = q.cap as usize;
    let mut count = 0usize;
    for k in 0..ns as usize {
        let start = count;
        let mut v = *seeds.add(k) as i32;
        while v >= 0 && *q.mark.add(v as usize) != stamp {
            if count == cap {
                return None;
            }
            *q.mark.add(v as usize) = stamp;
            *list.add(count) = v as u32;
            count += 1;
            v = *q.parent.add(v as usize);
        }
        if start > 0 && count > start && *list.add(start) < *list.add(start - 1) {
            // Merge list[0 .. start) and list[start .. count) from the top down.
            let m = count - start;
            for t in 0..m {
                *q.run.add(t) = *list.add(start + t);
            }
            let mut i = start as isize - 1;
            let mut j = m as isize - 1;
            let mut at = count as isize - 1;
            while j >= 0 {
                if i >= 0 && *list.add(i as usize) > *q.run.add(j as usize) {
                    *list.add(at as usize) = *list.add(i as usize);
                    i -= 1;
                } else {
                    *list.add(at as usize) = *q.run.add(j as usize);
                    j -= 1;
                }
                at -= 1;
            }
        }
    }
    for t in 0..count {
        let v = *list.add(t) as usize;
        *d.add(v) = f64::INFINITY;
        *p.add(v) = 0;
    }
    for k in 0..ns as usize {
        let r = *seeds.add(k) as usize;
        let value = *w.add(k);
        if *d.add(r) <= value {
            continue;
        }
        *d.add(r) = value;
        *p.add(r) = *from.add(k);
    }
    Some(count)
}

/// Relaxes vertex v's kept arcs of one direction (`a`, or `base` where the metric leaves v's row to its base: `own`)
/// from its label dv into the labels d and parents p of that side.
#[inline(always)]
unsafe fn relax<O: Entry, S: Entry>(q: &Query, a: &Arcs, base: &Arcs, own: *const u32, v: usize, dv: f64, d: *mut f64, p: *mut i32) {
    let a = if q.has_own != 0 && (*own.add(v >> 5) >> (v & 31)) & 1 == 0 { base } else { a };
    let row = *q.up_first.add(v) as usize;
    let k0 = *a.row_base.add(v >> 8) as usize + O::at(a.row_off, v);
    let k1 = *a.row_base.add((v + 1) >> 8) as usize + O::at(a.row_off, v + 1);
    for k in k0..k1 {
        let y = *q.up_head.add(row + S::at(a.slot, k)) as usize;
        let nd = dv + *a.weight.add(k);
        if nd < *d.add(y) {
            *d.add(y) = nd;
            *p.add(y) = v as i32;
        }
    }
}

/// Both sides up in one pass, rank by rank (CchQuery.route): returns the best weight and meeting vertex in `q`.
unsafe fn up<O: Entry, S: Entry>(q: &mut Query, nf: usize, nb: usize) {
    let mut best = q.best;
    let (df, db, pf, pb, fl, bl) = (q.df, q.db, q.pf, q.pb, q.flist, q.blist);
    let mut meet = -1i32;
    let (mut i, mut j) = (0usize, 0usize);
    while i < nf && j < nb {
        let f = *fl.add(i) as usize;
        let b = *bl.add(j) as usize;
        if f < b {
            let dv = *df.add(f);
            if dv < best {
                relax::<O, S>(q, &q.up, &q.base_up, q.up_own, f, dv, df, pf);
            }
            i += 1;
        } else if b < f {
            let bv = *db.add(b);
            if bv < best {
                relax::<O, S>(q, &q.down, &q.base_down, q.down_own, b, bv, db, pb);
            }
            j += 1;
        } else {
            let dv = *df.add(f);
            let bv = *db.add(f);
            if dv + bv < best {
                best = dv + bv;
                meet = f as i32;
            }
            if dv < best {
                relax::<O, S>(q, &q.up, &q.base_up, q.up_own, f, dv, df, pf);
            }
            if bv < best {
                relax::<O, S>(q, &q.down, &q.base_down, q.down_own, f, bv, db, pb);
            }
            i += 1;
            j += 1;
        }
    }
    // One side's list is done: the other's remaining vertices lie on no list of the first, so they meet nothing.
    while i < nf {
        let v = *fl.add(i) as usize;
        let dv = *df.add(v);
        if dv < best {
            relax::<O, S>(q, &q.up, &q.base_up, q.up_own, v, dv, df, pf);
        }
        i += 1;
    }
    while j < nb {
        let v = *bl.add(j) as usize;
        let bv = *db.add(v);
        if bv < best {
            relax::<O, S>(q, &q.down, &q.base_down, q.down_own, v, bv, db, pb);
        }
        j += 1;
    }
    q.best = best;
    q.meet = meet;
}

/// Runs the query `q` points at. Returns 0, or 1 when a side's vertices outgrow `cap` (nothing is answered: the
/// caller gives more room and asks again), or 2 for widths of offsets or slots this search does not read.
#[no_mangle]
pub unsafe extern "C" fn search(qp: *mut Query) -> u32 {
    let q = &mut *qp;
    let nf = match side(q, q.stamp, q.fseed, q.fw, q.fp, q.nfs, q.flist, q.df, q.pf) {
        Some(n) => n,
        None => return 1,
    };
    let nb = match side(q, q.stamp.wrapping_add(1), q.bseed, q.bw, q.bp, q.nbs, q.blist, q.db, q.pb) {
        Some(n) => n,
        None => return 1,
    };
    q.visited = (nf + nb) as u32;
    if q.up.off_bytes != q.down.off_bytes || q.up.slot_bytes != q.down.slot_bytes {
        return 2;
    }
    match (q.up.off_bytes, q.up.slot_bytes) {
        (2, 1) => up::<U16, U8>(q, nf, nb),
        (2, 2) => up::<U16, U16>(q, nf, nb),
        (4, 1) => up::<U32, U8>(q, nf, nb),
        (4, 2) => up::<U32, U16>(q, nf, nb),
        (4, 4) => up::<U32, U32>(q, nf, nb),
        _ => return 2,
    }
    0
}
