//! The standard normal distribution, for the tests and plans built on a normal approximation
//! (the paired test of `versus`, Holm's correction over a leaderboard): its two-sided tail and
//! its quantiles, computed, never read from a table.
//!
//! The tail is `erfc` from the `libm` crate (a port of musl's, within an ulp or two over the
//! whole line), so a p-value far in the tail keeps its relative precision rather than
//! becoming 1 − 0.999…. The quantile starts from Acklam's rational approximation (relative
//! error below 1.15e-9) and takes one step of Halley's method on that tail, which brings it to
//! double precision.

use std::f64::consts::{FRAC_1_SQRT_2, PI};

/// P(|Z| ≥ |z|) for a standard normal Z: erfc(|z| / √2). 1 at z = 0; 0 for an infinite z.
pub(crate) fn two_sided_p(z: f64) -> f64 {
    libm::erfc(z.abs() * FRAC_1_SQRT_2)
}

/// P(Z ≤ z): erfc(−z / √2) / 2.
pub(crate) fn cdf(z: f64) -> f64 {
    0.5 * libm::erfc(-z * FRAC_1_SQRT_2)
}

/// The `p` quantile (0 < p < 1) of the standard normal: the z with P(Z ≤ z) = p. `None` outside
/// (0, 1).
pub(crate) fn quantile(p: f64) -> Option<f64> {
    if !(p > 0.0 && p < 1.0) {
        return None;
    }
    // Acklam's coefficients.
    const A: [f64; 6] = [
        -3.969683028665376e1,
        2.209460984245205e2,
        -2.759285104469687e2,
        1.38357751867269e2,
        -3.066479806614716e1,
        2.506628277459239,
    ];
    const B: [f64; 5] = [
        -5.447609879822406e1,
        1.615858368580409e2,
        -1.556989798598866e2,
        6.680131188771972e1,
        -1.328068155288572e1,
    ];
    const C: [f64; 6] = [
        -7.784894002430293e-3,
        -3.223964580411365e-1,
        -2.400758277161838,
        -2.549732539343734,
        4.374664141464968,
        2.938163982698783,
    ];
    const D: [f64; 4] = [
        7.784695709041462e-3,
        3.224671290700398e-1,
        2.445134137142996,
        3.754408661907416,
    ];
    const LOW: f64 = 0.02425;
    let tail = |q: f64| {
        let r = (-2.0 * q.ln()).sqrt();
        (((((C[0] * r + C[1]) * r + C[2]) * r + C[3]) * r + C[4]) * r + C[5])
            / ((((D[0] * r + D[1]) * r + D[2]) * r + D[3]) * r + 1.0)
    };
    let x = if p < LOW {
        tail(p)
    } else if p > 1.0 - LOW {
        -tail(1.0 - p)
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    };
    // One Halley step on f(x) = Φ(x) − p.
    let e = cdf(x) - p;
    let u = e * (2.0 * PI).sqrt() * (x * x / 2.0).exp();
    let stepped = x - u / (1.0 + x * u / 2.0);
    // Far in a tail (p near the smallest double) the step overflows: Acklam's x stands.
    Some(if stepped.is_finite() { stepped } else { x })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tails_match_known_values() {
        // Values of 2·(1 − Φ(z)) from the closed form at z = 0 and from published tables
        // computed to 15 digits (Abramowitz & Stegun 26.2; R's 2*pnorm(-z)).
        assert_eq!(two_sided_p(0.0), 1.0);
        let close = |x: f64, y: f64| ((x - y) / y).abs() < 1e-12;
        assert!(close(two_sided_p(1.959963984540054), 0.05));
        assert!(close(two_sided_p(-2.575829303548901), 0.01));
        assert!(close(two_sided_p(1.0), 0.3173105078629141));
        assert!(close(two_sided_p(3.0), 0.002699796063260207));
        // Far in the tail the relative precision holds.
        assert!(close(two_sided_p(10.0), 1.523970604832105e-23));
        assert_eq!(two_sided_p(f64::INFINITY), 0.0);
    }

    #[test]
    fn quantiles_invert_the_cdf_to_double_precision() {
        assert_eq!(quantile(0.5), Some(0.0));
        let z = quantile(0.975).unwrap();
        assert!((z - 1.959963984540054).abs() < 4e-16, "{z:e}");
        let z = quantile(0.8).unwrap();
        assert!((z - 0.8416212335729143).abs() < 4e-16, "{z:e}");
        for p in [1e-300, 1e-12, 0.001, 0.02, 0.3, 0.7, 0.99, 1.0 - 1e-12] {
            let z = quantile(p).unwrap();
            assert!(((cdf(z) - p) / p).abs() < 1e-12, "{p} {z}");
        }
        assert_eq!(quantile(0.0), None);
        assert_eq!(quantile(1.0), None);
        assert_eq!(quantile(f64::NAN), None);
    }
}
