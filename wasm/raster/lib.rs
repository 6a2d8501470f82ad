//! Raster kernels of bando's static map for WebAssembly: the polygon fill (src/render/raster/scanline.ts), the
//! distance stroker (distance-stroke.ts) and compositing (composite.ts), each ported to give the same bytes. One
//! instance draws one canvas: its pixels, coverage mask and scratch live in this instance's memory, which the
//! TypeScript side (src/render/raster/wasm-raster.ts) reads through views and fills with its inputs (`input_*`)
//! before each call. `std` for the float rounding functions and `Vec`.

mod composite;
mod js;
mod scanline;
mod sdf;
mod simplify;
mod stroke;

use composite::{Mask, Pixels};
use scanline::{Rasterizer, Sink};
use stroke::{add_distance_stroke, Dashing, Shape};

struct State {
    pixels: Pixels,
    mask: Mask,
    raster: Rasterizer,
    /// Inputs written by the TypeScript side: coordinates (pixels), ring starts or line ends, the dash pattern.
    xy: Vec<f64>,
    idx: Vec<u32>,
    dash_on: Vec<f64>,
    dash_table: Vec<f32>,
    /// A stroke's polylines, cleaned.
    lines: Lines,
    /// Bytes per pixel of the last PNG scanlines (3 RGB, 4 RGBA).
    row_channels: u32,
    /// A polygon's rings cleaned (see `fill_rings`): points, and ring starts.
    ring_xy: Vec<f64>,
    ring_start: Vec<u32>,
    /// Glyph bitmaps (input), and text coverage kept for the pass after a halo: (pixel, coverage).
    bytes: Vec<u8>,
    text: Vec<(u32, f32)>,
    /// The mask's window (first row, rows) when the kept text was drawn: its indices are relative to that window.
    text_window: (usize, usize),
    /// Significances of the parts given to `significances`, and that computation's scratch stack.
    sig: Vec<f32>,
    sig_stack: Vec<(usize, usize, f64)>,
}

static mut STATE: Option<State> = None;

fn state() -> &'static mut State {
    // Safety: one thread per instance, and `init` runs before any other export.
    unsafe { STATE.as_mut().expect("init first") }
}

/// Sets up a transparent canvas of `width` x `height` pixels (each 1..16384) with a clear mask.
#[no_mangle]
pub extern "C" fn init(width: u32, height: u32) {
    let (w, h) = (width as usize, height as usize);
    unsafe {
        STATE = Some(State {
            pixels: Pixels::new(w, h),
            mask: Mask::new(w, h),
            raster: Rasterizer::new(w, h),
            xy: Vec::new(),
            idx: Vec::new(),
            dash_on: Vec::new(),
            dash_table: Vec::new(),
            lines: Lines::default(),
            row_channels: 4,
            ring_xy: Vec::new(),
            ring_start: Vec::new(),
            bytes: Vec::new(),
            text: Vec::new(),
            text_window: (0, h),
            sig: Vec::new(),
            sig_stack: Vec::new(),
        });
    }
}

/// Makes every pixel transparent again (an instance reused for another canvas; its mask is already clear).
#[no_mangle]
pub extern "C" fn clear_pixels() {
    state().pixels.fill(0);
}

/// Address of the pixels: straight RGBA bytes, row-major.
#[no_mangle]
pub extern "C" fn pixels_ptr() -> u32 {
    state().pixels.words.as_ptr() as u32
}

/// Address of the mask's coverage (Float32 per pixel).
#[no_mangle]
pub extern "C" fn mask_ptr() -> u32 {
    state().mask.cov.as_ptr() as u32
}

/// Address of the mask's touched list (Int32 pixel indices).
#[no_mangle]
pub extern "C" fn touched_ptr() -> u32 {
    state().mask.touched.as_ptr() as u32
}

/// Entries of the touched list in use.
#[no_mangle]
pub extern "C" fn mask_count() -> u32 {
    state().mask.count as u32
}

/// Sets the touched list's length after the TypeScript side wrote coverage through the views.
#[no_mangle]
pub extern "C" fn set_mask_count(count: u32) {
    state().mask.count = count as usize;
}

/// Sets the clear mask's window to rows `row0 .. row0 + rows` of the canvas (within it) before the TypeScript side
/// writes coverage through the views at indices relative to the window (WasmRaster.coverRows): the next flush
/// composites there.
#[no_mangle]
pub extern "C" fn set_mask_window(row0: u32, rows: u32) {
    state().mask.set_window(row0 as usize, rows as usize);
}

/// `input` resized to `n` values; its address, for the TypeScript side to write the next call's input.
fn room<T: Copy + Default>(input: &mut Vec<T>, n: u32) -> u32 {
    input.resize(n as usize, T::default());
    input.as_ptr() as u32
}

/// Address of room for `n` Float64 coordinates (the next call's input).
#[no_mangle]
pub extern "C" fn input_xy(n: u32) -> u32 {
    room(&mut state().xy, n)
}

/// Address of room for `n` Uint32 ring starts or line ends (the next call's input).
#[no_mangle]
pub extern "C" fn input_idx(n: u32) -> u32 {
    room(&mut state().idx, n)
}

/// Address of room for a dash pattern's `on` intervals (`n_on` Float64); its table follows at `dash_table_ptr`.
#[no_mangle]
pub extern "C" fn input_dash(n_on: u32, n_table: u32) -> u32 {
    let s = state();
    room(&mut s.dash_table, n_table);
    room(&mut s.dash_on, n_on)
}

/// Address of the dash table (Float32) sized by the last `input_dash`.
#[no_mangle]
pub extern "C" fn dash_table_ptr() -> u32 {
    state().dash_table.as_ptr() as u32
}

/// Sets the drawing colour: integral channels 0..255 and alpha (colour alpha times opacity, 0..1).
#[no_mangle]
pub extern "C" fn set_color(r: i32, g: i32, b: i32, alpha: f64) {
    state().pixels.set_color(r, g, b, alpha);
}

/// Fills the rings of the input (points in `input_xy`, `rings + 1` ring starts in `input_idx`) translated by
/// (dx, dy): composited in the colour, or with `to_mask` added to the mask times `weight`.
#[no_mangle]
pub extern "C" fn fill(rings: u32, even_odd: u32, antialias: u32, dx: f64, dy: f64, to_mask: u32, weight: f64) {
    let s = state();
    let starts = &s.idx[..rings as usize + 1];
    if to_mask != 0 {
        s.mask.weight = weight;
        s.raster.fill(
            &s.xy,
            starts,
            even_odd != 0,
            antialias != 0,
            dx,
            dy,
            &mut Sink::Mask(&mut s.mask),
        );
    } else {
        s.raster.fill(
            &s.xy,
            starts,
            even_odd != 0,
            antialias != 0,
            dx,
            dy,
            &mut Sink::Solid(&mut s.pixels),
        );
    }
}

/// Fills a polygon given as rings of raw points as Canvas.fillPolygon builds its path: ring k is
/// `input_xy[ends[k - 1] .. ends[k])` (flat x, y; the first from 0); points with a non-finite coordinate and repeats
/// of the previous point are dropped, and a closing point equal to the first; rings left with under 3 points enclose
/// nothing. Then as `fill`, composited in the colour.
#[no_mangle]
pub extern "C" fn fill_rings(rings: u32, even_odd: u32, antialias: u32, dx: f64, dy: f64) {
    fill_ring_run(state(), 0, 0, rings as usize, even_odd != 0, antialias != 0, dx, dy);
}

/// `fill_rings` of rings `first_ring .. first_ring + rings` of the input, the first starting at coordinate `from`.
#[allow(clippy::too_many_arguments)]
fn fill_ring_run(
    s: &mut State,
    from: usize,
    first_ring: usize,
    rings: usize,
    even_odd: bool,
    antialias: bool,
    dx: f64,
    dy: f64,
) {
    s.ring_xy.clear();
    s.ring_start.clear();
    s.ring_start.push(0);
    let mut from = from;
    for k in first_ring..first_ring + rings {
        let end = s.idx[k] as usize;
        let start = s.ring_xy.len();
        let mut i = from;
        while i + 1 < end {
            let (x, y) = (s.xy[i], s.xy[i + 1]);
            i += 2;
            let n = s.ring_xy.len();
            if !(x.is_finite() && y.is_finite()) || (n > start && s.ring_xy[n - 2] == x && s.ring_xy[n - 1] == y) {
                continue;
            }
            s.ring_xy.push(x);
            s.ring_xy.push(y);
        }
        from = end;
        let mut n = s.ring_xy.len();
        if n - start >= 4 && s.ring_xy[n - 2] == s.ring_xy[start] && s.ring_xy[n - 1] == s.ring_xy[start + 1] {
            n -= 2;
        }
        if n - start < 6 {
            n = start;
        } else {
            s.ring_start.push((n / 2) as u32);
        }
        s.ring_xy.truncate(n);
    }
    s.raster.fill(
        &s.ring_xy,
        &s.ring_start,
        even_odd,
        antialias,
        dx,
        dy,
        &mut Sink::Solid(&mut s.pixels),
    );
}

/// Fills `polygons` polygons one after another, each as `fill_rings` in the fill colour and then, when `outline`,
/// each of its rings stroked as a closed 1 px line in the outline colour and composited ring by ring: what
/// Canvas.fillPolygon does polygon by polygon (fill-outline-color), in one call. The rings of all polygons lie one
/// after another in `input_xy` as for `fill_rings`, their `rings` ends first in `input_idx`, then each polygon's ring
/// count. A colour is channels 0..255 and alpha; `fill` 0 skips the fills (a transparent fill colour).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn fill_polygons(
    polygons: u32,
    rings: u32,
    even_odd: u32,
    antialias: u32,
    dx: f64,
    dy: f64,
    fill: u32,
    fr: i32,
    fg: i32,
    fb: i32,
    fa: f64,
    outline: u32,
    or: i32,
    og: i32,
    ob: i32,
    oa: f64,
) {
    let s = state();
    let shape = Shape {
        half_width: 0.5,
        cap: 0,
        blur: 0.0,
    };
    let (mut ring, mut from) = (0usize, 0usize);
    for k in 0..polygons as usize {
        let count = s.idx[rings as usize + k] as usize;
        if fill != 0 {
            s.pixels.set_color(fr, fg, fb, fa);
            fill_ring_run(s, from, ring, count, even_odd != 0, antialias != 0, dx, dy);
        }
        if outline != 0 {
            s.pixels.set_color(or, og, ob, oa);
            for r in ring..ring + count {
                let end = s.idx[r] as usize;
                let start = if r == 0 { 0 } else { s.idx[r - 1] as usize };
                clean_lines(&s.xy, &mut s.lines, start, &[end as u32], dx, dy, shape.half_width);
                stroke_in_bands(&mut s.mask, &mut s.pixels, &s.lines, true, &shape, None);
            }
        }
        from = if count > 0 { s.idx[ring + count - 1] as usize } else { from };
        ring += count;
    }
}

/// A stroke's polylines, cleaned: flat x, y pairs, each line's end, and the first and last row each line's stroke
/// may reach.
#[derive(Default)]
struct Lines {
    xy: Vec<f64>,
    ends: Vec<usize>,
    rows: Vec<(f64, f64)>,
}

/// The lines `xy[ends[k - 1] .. ends[k])` (the first from `start`) translated by (dx, dy) into `lines`, each with
/// points of a non-finite coordinate and repeats of the previous point dropped (what `stroke` does to each line),
/// with the rows their strokes of half width `half_width` may reach (square caps included); lines left empty are
/// dropped.
fn clean_lines(xy: &[f64], lines: &mut Lines, start: usize, ends: &[u32], dx: f64, dy: f64, half_width: f64) {
    let clean = &mut lines.xy;
    clean.clear();
    lines.ends.clear();
    lines.rows.clear();
    // The stroker reaches half_width + 0.5 px from a segment, whose ends a square cap moves half_width further.
    let reach = 2.0 * half_width + 1.0;
    let mut i = start;
    for &end in ends {
        let end = end as usize;
        let first = clean.len();
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        while i + 1 < end {
            let x = xy[i] + dx;
            let y = xy[i + 1] + dy;
            i += 2;
            if !(x.is_finite() && y.is_finite()) {
                continue;
            }
            let n = clean.len();
            if n > first && clean[n - 2] == x && clean[n - 1] == y {
                continue;
            }
            clean.push(x);
            clean.push(y);
            lo = if y < lo { y } else { lo };
            hi = if y > hi { y } else { hi };
        }
        i = end;
        if clean.len() > first {
            lines.ends.push(clean.len());
            lines.rows.push(((lo - reach).floor(), (hi + reach).ceil()));
        }
    }
}

/// Pixels of the mask's window while stroking in bands: 256 KB of coverage and at most as much of touched list.
const BAND_PIXELS: usize = 65536;

/// Max-accumulates the distance strokes of `lines` into the mask and composites them in the colour (leaving the
/// mask clear), band by band: the mask's window is set to each band of rows in turn, every line that may reach it
/// is stroked (the stroker draws the window's rows only) and the band is composited. Each pixel gets the coverage
/// one pass over the whole canvas gives it (the same segments in the same order) and is composited once, so the
/// pixels are the same; but the coverage only ever touches a band's memory. A mask that already holds coverage is
/// stroked and composited in one pass.
fn stroke_in_bands(
    mask: &mut Mask,
    pixels: &mut Pixels,
    lines: &Lines,
    closed: bool,
    shape: &Shape,
    dashing: Option<&Dashing>,
) {
    let stroke_rows = |mask: &mut Mask, first: f64, last: f64| {
        let mut from = 0;
        for (k, &to) in lines.ends.iter().enumerate() {
            let (lo, hi) = lines.rows[k];
            if lo <= last && hi >= first {
                add_distance_stroke(mask, &lines.xy[from..to], closed, shape, dashing);
            }
            from = to;
        }
    };
    let (width, height) = (mask.width, mask.height);
    if mask.count > 0 {
        stroke_rows(mask, f64::NEG_INFINITY, f64::INFINITY);
        mask.flush(pixels);
        return;
    }
    let (mut top, mut bottom) = (f64::INFINITY, f64::NEG_INFINITY);
    for &(lo, hi) in &lines.rows {
        top = if lo < top { lo } else { top };
        bottom = if hi > bottom { hi } else { bottom };
    }
    if !(top <= bottom && bottom >= 0.0) {
        return;
    }
    let band = (BAND_PIXELS / width).max(1);
    // Rows top..=bottom within the canvas (`as` saturates: a top below 0 is row 0).
    let mut row0 = (top as usize).min(height);
    let end = if bottom < height as f64 { bottom as usize + 1 } else { height };
    while row0 < end {
        let rows = band.min(height - row0);
        mask.set_window(row0, rows);
        stroke_rows(mask, row0 as f64, (row0 + rows) as f64 - 1.0);
        mask.flush(pixels);
        row0 += rows;
    }
}

/// Composites in the colour the distance strokes of the input's polylines, max-accumulated as one shape (see
/// `stroke_in_bands`), and leaves the mask clear: line k is the finite points of `input_xy[ends[k - 1] .. ends[k])`
/// (flat x, y; the first from 0) translated by (dx, dy), consecutive duplicates dropped. `cap`: 0 butt, 1 round, 2
/// square. With `dashed`, the pattern of `input_dash`.
#[no_mangle]
pub extern "C" fn stroke(
    lines: u32,
    dx: f64,
    dy: f64,
    closed: u32,
    half_width: f64,
    cap: u32,
    blur: f64,
    dashed: u32,
    period: f64,
    reach_periods: f64,
    round: u32,
) {
    let s = state();
    let shape = Shape { half_width, cap, blur };
    let dashing = Dashing {
        period,
        on: &s.dash_on,
        reach_periods,
        round: round != 0,
        table: &s.dash_table,
    };
    let dashing = if dashed != 0 { Some(&dashing) } else { None };
    clean_lines(&s.xy, &mut s.lines, 0, &s.idx[..lines as usize], dx, dy, half_width);
    stroke_in_bands(&mut s.mask, &mut s.pixels, &s.lines, closed != 0, &shape, dashing);
}

/// Composites the mask's touched pixels in the colour (coverage clamped to 1 when summed) and clears the mask.
#[no_mangle]
pub extern "C" fn flush() {
    let s = state();
    s.mask.flush(&mut s.pixels);
}

/// Clears the mask without compositing.
#[no_mangle]
pub extern "C" fn clear_mask() {
    state().mask.clear();
}

/// Sets every pixel to `word` (an opaque colour, bytes r, g, b, a from the lowest).
#[no_mangle]
pub extern "C" fn fill_words(word: u32) {
    state().pixels.fill(word);
}

/// Composites the colour over every pixel at full coverage.
#[no_mangle]
pub extern "C" fn blend_all() {
    state().pixels.blend_all();
}

/// Writes the pixels as PNG scanlines (each row behind its filter-type byte 0, none) over the pixels' own memory and
/// returns their address: what a PNG's image data deflates. RGB, `(3 width + 1) height` bytes, when every pixel is
/// opaque (see png.ts `scanlines`), else RGBA, `(4 width + 1) height` bytes (the pixels have room for them: see
/// `Pixels::new`); `scanline_channels` tells which. The pixels are lost: a canvas's last use. Written in place
/// because memory costs most the first time it is touched (a page fault per 4 KB page): on a fresh instance, rows in
/// memory of their own took about a tenth of the page faults of an 800 x 600 city image.
#[no_mangle]
pub extern "C" fn scanlines() -> u32 {
    let s = state();
    let (w, h) = (s.pixels.width, s.mask.height);
    let opaque = s.pixels.words.iter().all(|&word| word >> 24 == 255);
    let channels = if opaque { 3 } else { 4 };
    s.row_channels = channels as u32;
    let stride = channels * w + 1;
    let words = s.pixels.words.as_mut_ptr();
    let rows = words as *mut u8;
    // Each pixel is read before any byte over it is written: RGB rows (3 w + 1 bytes) start at or before their
    // pixels (4 w bytes a row) and a pixel's 3 bytes end at or before the next pixel's word, so rows and pixels go
    // forward; RGBA rows start y bytes after their pixels, so they go backward, the last pixel first. A row's filter
    // byte, over its own or an earlier row's pixels, is written after the row.
    let write_row = |y: usize| {
        // Safety: `words` has room for `stride * h` bytes (Pixels::new), and nothing else reads or writes them here.
        unsafe {
            let row = rows.add(y * stride);
            let src = words.add(y * w);
            if opaque {
                for x in 0..w {
                    let b = src.add(x).read().to_le_bytes();
                    row.add(1 + 3 * x).copy_from_nonoverlapping(b.as_ptr(), 3);
                }
            } else {
                for x in (0..w).rev() {
                    let b = src.add(x).read().to_le_bytes();
                    row.add(1 + 4 * x).copy_from_nonoverlapping(b.as_ptr(), 4);
                }
            }
            row.write(0);
        }
    };
    if opaque {
        (0..h).for_each(write_row);
    } else {
        (0..h).rev().for_each(write_row);
    }
    rows as u32
}

/// Bytes per pixel of the last `scanlines`: 3 (RGB) or 4 (RGBA).
#[no_mangle]
pub extern "C" fn scanline_channels() -> u32 {
    state().row_channels
}

/// Address of room for `n` bytes (glyph bitmaps: the next `sdf_text` call's input).
#[no_mangle]
pub extern "C" fn input_bytes(n: u32) -> u32 {
    room(&mut state().bytes, n)
}

/// Max-accumulates into the mask the coverage of a label's SDF glyphs (4 numbers per glyph in `input_xy`: u0, v0,
/// bitmap width and height; their bitmaps in `input_bytes`), grown by `grow` pixels; with `keep`, the ungrown
/// outlines' coverage is kept for `sdf_text_move` (see sdf.rs and sdf-text.ts).
#[no_mangle]
pub extern "C" fn sdf_text(
    glyphs: u32,
    cx: f64,
    cy: f64,
    scale: f64,
    ux: f64,
    uy: f64,
    grow: f64,
    keep: u32,
    edge: f64,
    dist_scale: f64,
) {
    let s = state();
    let run = sdf::Run {
        glyphs: &s.xy[..4 * glyphs as usize],
        bitmaps: &s.bytes,
    };
    let at = sdf::Placement {
        cx,
        cy,
        scale,
        ux,
        uy,
        grow,
        edge,
        dist_scale,
    };
    s.text.clear();
    // A clear mask's window is set to the label's rows (see Mask), the kept text's indices are relative to it.
    if s.mask.count == 0 {
        if let Some((first, last)) = sdf::rows(&run, &at, s.mask.height) {
            s.mask.set_window(first, last + 1 - first);
        }
    }
    s.text_window = (s.mask.row0, s.mask.rows);
    sdf::accumulate(&mut s.mask, if keep != 0 { Some(&mut s.text) } else { None }, &run, &at);
}

/// Max-accumulates the text coverage kept by `sdf_text` into the mask.
#[no_mangle]
pub extern "C" fn sdf_text_move() {
    let s = state();
    if s.mask.count == 0 {
        s.mask.set_window(s.text_window.0, s.text_window.1);
    }
    sdf::move_text(&mut s.mask, &mut s.text, s.text_window.0);
}

/// Douglas-Peucker significances (simplify.rs) of `parts` parts: part k is points `starts[k] .. starts[k + 1])` of
/// `input_xy` (flat x, y pairs), with the `parts + 1` starts in `input_idx`. Returns the address of the Float32
/// significances, one per input point (valid until the next call that may allocate).
#[no_mangle]
pub extern "C" fn significances(parts: u32) -> u32 {
    let s = state();
    let n = s.xy.len() / 2;
    s.sig.resize(n, 0.0);
    for k in 0..parts as usize {
        let (first, end) = (s.idx[k] as usize, s.idx[k + 1] as usize);
        simplify::significance(&s.xy, first, end, &mut s.sig, &mut s.sig_stack);
    }
    s.sig.as_ptr() as u32
}
