//! Source-over compositing of one solid colour onto straight-alpha RGBA pixels, and the coverage mask with its
//! touched list: the kernels of src/render/raster/composite.ts (`SolidSink`, `MaskSink`), to the same bytes.

/// `n` zeroed values of fresh memory, never freed: linear memory grown for them (new pages are zero, so a canvas's
/// megabytes cost no zeroing pass; the allocator's `vec![0; n]` clears them byte by byte).
pub fn fresh<T>(n: usize) -> &'static mut [T] {
    let bytes = n * core::mem::size_of::<T>();
    let pages = (bytes + 65535) / 65536;
    let at = core::arch::wasm32::memory_grow(0, pages);
    if at == usize::MAX {
        panic!("out of memory");
    }
    // Safety: the pages were just added to memory, are zero (a valid value of the numeric T used here) and are
    // handed out once.
    unsafe { core::slice::from_raw_parts_mut((at * 65536) as *mut T, n) }
}

/// Pixels as little-endian words (memory order r, g, b, a), row-major.
pub struct Pixels {
    pub width: usize,
    pub words: &'static mut [u32],
    r: i32,
    g: i32,
    b: i32,
    /// The colour's alpha times the opacity, 0..1.
    alpha: f64,
    /// The colour as one opaque pixel word.
    opaque: u32,
}

/// A byte as a `Uint8ClampedArray` stores a number: clamped to 0..255, rounded half to even, NaN as 0.
fn clamped_byte(v: f64) -> u32 {
    if !(v > 0.0) {
        return 0;
    }
    if v >= 255.0 {
        return 255;
    }
    let f = v.floor();
    let d = v - f;
    let r = if d > 0.5 || (d == 0.5 && (f as u32) & 1 == 1) {
        f + 1.0
    } else {
        f
    };
    r as u32
}

impl Pixels {
    pub fn new(width: usize, height: usize) -> Pixels {
        Pixels {
            width,
            // Room for a byte more per row after the pixels: their RGBA scanlines (lib.rs `scanlines`) are written
            // over them.
            words: &mut fresh::<u32>(width * height + (height + 3) / 4)[..width * height],
            r: 0,
            g: 0,
            b: 0,
            alpha: 0.0,
            opaque: 0,
        }
    }

    /// Sets the colour: integral channels 0..255 and alpha (colour alpha times opacity) in 0..1.
    pub fn set_color(&mut self, r: i32, g: i32, b: i32, alpha: f64) {
        self.r = r;
        self.g = g;
        self.b = b;
        self.alpha = alpha;
        self.opaque = (r as u32) | ((g as u32) << 8) | ((b as u32) << 16) | (255 << 24);
    }

    /// Source-over of the colour with alpha `a` (0..1) onto pixel `p`, as SolidSink.blend.
    #[inline(always)]
    pub fn blend(&mut self, p: usize, a: f64) {
        if a <= 0.0 {
            return;
        }
        let px = self.words[p];
        let (r, g, b) = (self.r, self.g, self.b);
        if px >> 24 == 255 {
            let w = (a * 256.0 + 0.5) as i32;
            let dr = (px & 255) as i32;
            let dg = ((px >> 8) & 255) as i32;
            let db = ((px >> 16) & 255) as i32;
            self.words[p] = ((dr + (((r - dr) * w + 128) >> 8)) as u32)
                | (((dg + (((g - dg) * w + 128) >> 8)) as u32) << 8)
                | (((db + (((b - db) * w + 128) >> 8)) as u32) << 16)
                | (255 << 24);
        } else {
            let dr = (px & 255) as f64;
            let dg = ((px >> 8) & 255) as f64;
            let db = ((px >> 16) & 255) as f64;
            let da = (px >> 24) as f64;
            let keep = (da / 255.0) * (1.0 - a);
            let out_a = a + keep;
            self.words[p] = clamped_byte((r as f64 * a + dr * keep) / out_a)
                | (clamped_byte((g as f64 * a + dg * keep) / out_a) << 8)
                | (clamped_byte((b as f64 * a + db * keep) / out_a) << 16)
                | (clamped_byte(out_a * 255.0) << 24);
        }
    }

    /// Composites coverage `cov[x0 .. x1)` onto row `y`, as SolidSink.span.
    pub fn span(&mut self, y: usize, x0: usize, x1: usize, cov: &[f32]) {
        let solid = self.alpha == 1.0;
        let row = y * self.width;
        let mut x = x0;
        while x < x1 {
            let c = cov[x];
            if c != 1.0 || !solid {
                self.blend(row + x, c as f64 * self.alpha);
                x += 1;
                continue;
            }
            let mut end = x + 1;
            while end < x1 && cov[end] == 1.0 {
                end += 1;
            }
            let word = self.opaque;
            for w in &mut self.words[row + x..row + end] {
                *w = word;
            }
            x = end;
        }
    }

    /// Every pixel set to `word` (an opaque background).
    pub fn fill(&mut self, word: u32) {
        for w in self.words.iter_mut() {
            *w = word;
        }
    }

    /// The colour composited over every pixel at full coverage (a translucent background).
    pub fn blend_all(&mut self) {
        let a = self.alpha;
        for p in 0..self.words.len() {
            self.blend(p, a);
        }
    }
}

/// Coverage per pixel and the pixels it touched (see MaskSink: `touched[0 .. count)` lists every pixel whose
/// coverage is non-zero, each once), over a window of the canvas's rows: rows `row0 .. row0 + rows` at the start of
/// `cov` (pixel (x, y) at `(y - row0) * width + x`; `touched` holds those indices). The window is the whole canvas
/// except between a windowed draw and the flush or clear that ends it (`lib.rs` strokes in bands, a label's text
/// draws over its own rows): the coverage then lies in the first pages of `cov` and `touched`, which every window
/// reuses, so a canvas's first strokes and labels touch for the first time (a page fault per 4 KB) a band's memory
/// instead of the whole canvas's.
pub struct Mask {
    pub width: usize,
    pub height: usize,
    pub cov: &'static mut [f32],
    pub touched: &'static mut [u32],
    pub count: usize,
    /// The window's first row and its number of rows.
    pub row0: usize,
    pub rows: usize,
    /// Whether coverage was summed since the last flush (and may exceed 1).
    pub summed: bool,
    /// Weight applied to summed coverage.
    pub weight: f64,
}

impl Mask {
    pub fn new(width: usize, height: usize) -> Mask {
        Mask {
            width,
            height,
            cov: fresh(width * height),
            touched: fresh(width * height),
            count: 0,
            row0: 0,
            rows: height,
            summed: false,
            weight: 1.0,
        }
    }

    /// Sets the window to rows `row0 .. row0 + rows` of the canvas (within it); the mask must be clear.
    pub fn set_window(&mut self, row0: usize, rows: usize) {
        self.row0 = row0;
        self.rows = rows;
    }

    /// Adds `weight` x the row's coverage (MaskSink.span; row `y` within the window).
    pub fn span(&mut self, y: usize, x0: usize, x1: usize, cov: &[f32]) {
        let row = (y - self.row0) * self.width;
        let mut n = self.count;
        for x in x0..x1 {
            let add = cov[x] as f64 * self.weight;
            if !(add >= 1.0 / 512.0) {
                continue;
            }
            let i = row + x;
            if self.cov[i] == 0.0 {
                self.touched[n] = i as u32;
                n += 1;
            }
            self.cov[i] = (self.cov[i] as f64 + add) as f32;
        }
        self.count = n;
        self.summed = true;
    }

    /// Composites the touched pixels (coverage clamped to 1 when summed) and clears the mask (SolidSink.blendList),
    /// whose window is then the whole canvas.
    pub fn flush(&mut self, px: &mut Pixels) {
        let clamp = self.summed;
        let solid = px.alpha == 1.0;
        let word = px.opaque;
        let alpha = px.alpha;
        let at = self.row0 * self.width;
        for k in 0..self.count {
            let i = self.touched[k] as usize;
            let mut c = self.cov[i] as f64;
            self.cov[i] = 0.0;
            if clamp && c > 1.0 {
                c = 1.0;
            }
            let p = at + i;
            if c == 1.0 && solid {
                px.words[p] = word;
            } else {
                px.blend(p, c * alpha);
            }
        }
        self.count = 0;
        self.summed = false;
        self.set_window(0, self.height);
    }

    /// Raises the coverage at index `p` of the window to `c` (max-accumulation), listing the pixel when it was clear.
    #[inline(always)]
    pub fn raise(&mut self, p: usize, c: f64) {
        let old = self.cov[p] as f64;
        if c > old {
            if old == 0.0 {
                self.touched[self.count] = p as u32;
                self.count += 1;
            }
            self.cov[p] = c as f32;
        }
    }

    /// Clears the mask without compositing; its window is then the whole canvas.
    pub fn clear(&mut self) {
        for k in 0..self.count {
            let p = self.touched[k] as usize;
            self.cov[p] = 0.0;
        }
        self.count = 0;
        self.summed = false;
        self.set_window(0, self.height);
    }
}
