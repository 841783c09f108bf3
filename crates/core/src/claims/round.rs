//! How a published number is compared with the ledger's: rounded to the decimals it was
//! published with, or held to an interval around it (docs/claims.md, "Rounding").
//!
//! Published numbers come out of programs: Python's `round(x, n)` and `f"{x:.nf}"` round the
//! binary value of `x` to nearest, a tie to even; JavaScript's `toFixed` rounds it to nearest,
//! a tie upwards. Both agree everywhere but at an exact half, and whether the ledger's value
//! sits exactly at a half depends on the order its arithmetic ran in (9/16 × 100 is exactly
//! 56.25; 41/200 × 100 may come out a hair either side of 20.5). So the rule here is:
//!
//! - the ledger's value, in the published scale, is rounded to nearest at the published
//!   decimals;
//! - a value within [`HALF_SLACK`] of a half (relative to its size, and never more than 10⁻⁶ of
//!   the last decimal) is **at a half**, and rounds either way: both neighbours reproduce the
//!   claim, and the report says which rule gives which;
//! - with an interval (`tolerance`), the claim reproduces when the ledger's value is within
//!   it, its ends included (to within 10⁻¹² of the values' size, so that a value printed exactly
//!   at an end is not refused for its last bit).
//!
//! Values are compared in whole units of the last decimal (`i128`), never as decimals in
//! binary, so 0.1 + 0.2 rounded to one decimal is 0.3 and nothing else.

pub use crate::model::claims::{MAX_DECIMALS, Precision};

/// How close to a half, relative to the value in units of its last decimal, counts as at a
/// half: the noise of a long floating-point sum (millions of attempts) is below this.
pub(crate) const HALF_SLACK: f64 = 1e-9;

/// The most slack at a half, in units of the last decimal.
const HALF_SLACK_MAX: f64 = 1e-6;

/// How far from a whole number of units a published value may be and still have been written
/// with the decimals claimed (binary noise of reading `76.8` as a float).
const WRITTEN_SLACK: f64 = 1e-6;

/// The largest magnitude, in units of the last decimal, compared exactly.
const UNITS_MAX: f64 = 1e30;

fn pow10(d: u32) -> f64 {
    10f64.powi(d as i32)
}

/// A published value in whole units of its last decimal (76.8 at 1 decimal → 768), or `None`
/// when it has more decimals than that (or is too large to compare).
pub(crate) fn published_units(value: f64, decimals: u32) -> Option<i128> {
    let y = value * pow10(decimals);
    if !y.is_finite() || y.abs() >= UNITS_MAX {
        return None;
    }
    let n = y.round();
    ((y - n).abs() <= WRITTEN_SLACK * y.abs().max(1.0)).then_some(n as i128)
}

/// The ledger's value rounded to `decimals`, in whole units: one value, or the two neighbours
/// of a half, lower first. `None` for a value too large to compare.
pub(crate) fn rounded_units(x: f64, decimals: u32) -> Option<Vec<i128>> {
    let y = x * pow10(decimals);
    if !y.is_finite() || y.abs() >= UNITS_MAX {
        return None;
    }
    let lo = y.floor();
    let frac = y - lo;
    let slack = (HALF_SLACK * y.abs().max(1.0)).min(HALF_SLACK_MAX);
    let lo = lo as i128;
    Some(if (frac - 0.5).abs() <= slack {
        vec![lo, lo + 1]
    } else if frac < 0.5 {
        vec![lo]
    } else {
        vec![lo + 1]
    })
}

/// Whole units of the last decimal as text: (768, 1) → "76.8", (-5, 2) → "-0.05".
pub(crate) fn units_text(n: i128, decimals: u32) -> String {
    let digits = n.unsigned_abs().to_string();
    let d = decimals as usize;
    let padded = if digits.len() <= d {
        format!("{}{digits}", "0".repeat(d + 1 - digits.len()))
    } else {
        digits
    };
    let (int, frac) = padded.split_at(padded.len() - d);
    let sign = if n < 0 { "-" } else { "" };
    if d == 0 {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{frac}")
    }
}

/// What the ledger's value is at the published precision, and whether it reproduces the
/// published one.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    pub reproduced: bool,
    /// The ledger's value at the published decimals: one text, or two at a half (lower first).
    /// Empty for an interval.
    pub rounded: Vec<String>,
    /// At a half, the text rounding a tie to even gives (Python's `round`), and the one
    /// rounding it away from zero gives (JavaScript's `toFixed`).
    pub half: Option<(String, String)>,
}

/// Compares a published value with the ledger's, both in the published scale.
pub fn compare(published: f64, computed: f64, precision: Precision) -> Comparison {
    match precision {
        Precision::Decimals(d) => {
            let (Some(p), Some(c)) = (published_units(published, d), rounded_units(computed, d))
            else {
                return Comparison {
                    reproduced: false,
                    rounded: Vec::new(),
                    half: None,
                };
            };
            let half = (c.len() == 2).then(|| {
                let even = if c[0] % 2 == 0 { c[0] } else { c[1] };
                let away = if computed >= 0.0 { c[1] } else { c[0] };
                (units_text(even, d), units_text(away, d))
            });
            Comparison {
                reproduced: c.contains(&p),
                rounded: c.iter().map(|n| units_text(*n, d)).collect(),
                half,
            }
        }
        Precision::Tolerance(t) => {
            let size = published.abs().max(computed.abs()).max(1.0);
            Comparison {
                reproduced: (computed - published).abs() <= t + 1e-12 * size,
                rounded: Vec::new(),
                half: None,
            }
        }
    }
}

/// The published value as text: at its decimals, or as its shortest form with the interval.
pub(crate) fn published_text(value: f64, precision: Precision) -> String {
    match precision {
        Precision::Decimals(d) => match published_units(value, d) {
            Some(n) => units_text(n, d),
            None => crate::number::machine(value),
        },
        Precision::Tolerance(t) => format!(
            "{} ± {}",
            crate::number::machine(value),
            crate::number::machine(t)
        ),
    }
}

/// The most decimals a value beside an interval is printed with (its JSON keeps every digit).
const SHOWN_DECIMALS: usize = 6;

/// The decimals a value beside an interval is printed with: two more than the published
/// value is written with, at most [`SHOWN_DECIMALS`].
fn shown_decimals(published: f64) -> usize {
    let text = crate::number::machine(published);
    let written = if text.contains('e') {
        SHOWN_DECIMALS
    } else {
        text.split_once('.').map_or(0, |(_, f)| f.len())
    };
    (written + 2).min(SHOWN_DECIMALS)
}

/// The ledger's value as people read it beside a published one: a whole number as it is, any
/// other with two decimals more than were published (beside an interval, two more than the
/// published value is written with, at most six).
pub(crate) fn computed_text(x: f64, precision: Precision, published: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        return format!("{}", x as i64);
    }
    match precision {
        Precision::Decimals(d) => crate::number::fixed(x, d as usize + 2),
        Precision::Tolerance(_) => crate::number::fixed(x, shown_decimals(published)),
    }
}

/// A difference beside an interval, signed, as [`computed_text`] prints the value.
pub(crate) fn difference_beside_interval(d: f64, published: f64) -> String {
    crate::number::signed(d, shown_decimals(published))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_read_and_print_exactly() {
        assert_eq!(published_units(76.8, 1), Some(768));
        assert_eq!(published_units(7.69, 2), Some(769));
        // The binary noise of arithmetic is not a decimal.
        assert_eq!(published_units(0.1 + 0.2, 1), Some(3));
        assert_eq!(published_units(76.85, 1), None);
        assert_eq!(published_units(80.0, 0), Some(80));
        assert_eq!(units_text(768, 1), "76.8");
        assert_eq!(units_text(-5, 2), "-0.05");
        assert_eq!(units_text(5, 0), "5");
        assert_eq!(units_text(0, 3), "0.000");
    }

    #[test]
    fn an_exact_half_rounds_either_way_and_says_which_rule_gives_which() {
        // 9 of 16 as a percentage is exactly 56.25: Python's round gives 56.2, toFixed 56.3.
        let x = 9.0 / 16.0 * 100.0;
        assert_eq!(x, 56.25);
        for published in [56.2, 56.3] {
            let c = compare(published, x, Precision::Decimals(1));
            assert!(c.reproduced, "{published}");
            assert_eq!(c.rounded, ["56.2", "56.3"]);
            assert_eq!(c.half, Some(("56.2".into(), "56.3".into())));
        }
        assert!(!compare(56.1, x, Precision::Decimals(1)).reproduced);
        // 0.125 at two decimals: half to even is 0.12, away from zero 0.13.
        let c = compare(0.13, 0.125, Precision::Decimals(2));
        assert!(c.reproduced);
        assert_eq!(c.half, Some(("0.12".into(), "0.13".into())));
        // Negative: away from zero is the lower.
        let c = compare(-0.13, -0.125, Precision::Decimals(2));
        assert_eq!(c.half, Some(("-0.12".into(), "-0.13".into())));
    }

    #[test]
    fn a_hair_from_a_half_is_at_a_half_and_a_real_distance_is_not() {
        // 41/200 as a percentage is 20.5 in decimal; its float may land a hair off.
        let x = 41.0 / 200.0 * 100.0;
        let c = compare(20.0, x, Precision::Decimals(0));
        assert!(c.reproduced && c.rounded == ["20", "21"], "{c:?}");
        // 0.615 is below the half in binary by 1.1e-17: noise, so at a half.
        assert_eq!(
            compare(0.62, 0.615, Precision::Decimals(2)).rounded,
            ["0.61", "0.62"]
        );
        // A millionth of a unit past the half is not noise.
        let c = compare(56.2, 56.250001, Precision::Decimals(1));
        assert!(!c.reproduced);
        assert_eq!(c.rounded, ["56.3"]);
        // Large whole numbers are never at a half by size alone.
        assert_eq!(
            compare(1e12, 1e12, Precision::Decimals(0)).rounded,
            ["1000000000000"]
        );
    }

    #[test]
    fn an_interval_includes_its_ends() {
        assert!(compare(0.8, 0.8 + 1e-9, Precision::Tolerance(1e-9)).reproduced);
        assert!(compare(0.5, 0.505, Precision::Tolerance(0.005)).reproduced);
        assert!(compare(0.5, 0.495, Precision::Tolerance(0.005)).reproduced);
        assert!(!compare(0.5, 0.50500001, Precision::Tolerance(0.005)).reproduced);
        assert!(compare(0.5, 0.5, Precision::Tolerance(0.0)).reproduced);
        assert_eq!(
            published_text(0.8, Precision::Tolerance(1e-9)),
            "0.8 ± 1e-9"
        );
    }

    #[test]
    fn rounding_to_nearest_away_from_halves() {
        let c = compare(28.4, 29.0 / 102.0 * 100.0, Precision::Decimals(1));
        assert!(c.reproduced);
        assert_eq!(c.rounded, ["28.4"]);
        assert_eq!(c.half, None);
        assert_eq!(compare(0.0, 0.3, Precision::Decimals(0)).rounded, ["0"]);
        assert_eq!(compare(1.0, 0.7, Precision::Decimals(0)).rounded, ["1"]);
        assert_eq!(
            computed_text(8.791387, Precision::Decimals(2), 8.79),
            "8.7914"
        );
        // Beside an interval: two decimals more than the published value's, at most six.
        let t = Precision::Tolerance(1e-9);
        assert_eq!(computed_text(0.46249999999999974, t, 0.4625), "0.462500");
        assert_eq!(computed_text(0.46249999999999974, t, 0.46), "0.4625");
        assert_eq!(computed_text(1.0 / 3.0, t, 0.3333333333), "0.333333");
        assert_eq!(
            difference_beside_interval(-0.0050000000000001155, 0.5),
            "-0.005"
        );
    }
}
