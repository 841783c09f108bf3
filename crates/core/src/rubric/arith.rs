//! The real arithmetic the interpreter and the interval proof share, so that a score and the
//! proof of its range raise to a power the same way.

/// x^e, exactly reproducible for the common exponents.
pub fn pow(x: f64, e: f64) -> f64 {
    if e == 1.0 {
        x
    } else if e == 0.5 {
        x.sqrt()
    } else if e == 2.0 {
        x * x
    } else if x.is_infinite() {
        x
    } else {
        x.powf(e)
    }
}
