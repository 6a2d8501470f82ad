//! JavaScript's Math.min and Math.max of two numbers (NaN when either is NaN), which the ported kernels need to
//! visit the same pixels as their TypeScript originals (Rust's f64::min and f64::max ignore a NaN).

#[inline(always)]
pub fn min(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if b < a {
        b
    } else {
        a
    }
}

#[inline(always)]
pub fn max(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if b > a {
        b
    } else {
        a
    }
}
