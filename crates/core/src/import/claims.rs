//! What each format's claims extractor shares (`import::<format>::claims`, docs/claims.md,
//! "Claims from leaderboards"): a claim filled in the same way by every reader, the precision
//! a published number is claimed with, a slug of a publisher's names, and the fields of a
//! JSON object read with errors that name them.

use std::io::Read;
use std::path::Path;

use serde_json::Value;

use super::json::describe;
use super::object::{Part, Take, walk};
use crate::error::{Error, Location, Result};
use crate::model::claims::{Claim, Figure, MAX_DECIMALS, Precision};

/// The interval a number published at full binary precision is claimed with: it absorbs the
/// last bits a different order of summation leaves, and nothing else.
pub const FULL_PRECISION: f64 = 1e-9;

/// The precision a published standard error is claimed with (docs/claims.md, "Standard
/// errors"). Harnesses publish the standard error with the sample variance (÷ n − 1: the
/// sample standard deviation ÷ √n, lm-evaluation-harness's `_stderr`, Inspect's `stderr()`),
/// and the ledger's `accuracy_se` is `show`'s, with the population variance (÷ n, clustered by
/// problem): on the same n outcomes the first is the second times √(n / (n − 1)). With `n`
/// known (two or more), the claim is an interval wide enough for that factor and for how the
/// value was written (`decimals`, or unrounded: ±10⁻⁹), rounded up to two significant digits,
/// so the two estimators on the same data reproduce and anything else (other data, other
/// clustering) differs, with its cause named. Without `n`, the value at its written precision,
/// where the estimator itself is named as the cause when it differs.
pub(crate) fn se_precision(value: f64, n: Option<u64>, decimals: Option<u32>) -> Precision {
    let written = match decimals {
        Some(d) => 0.5 / 10f64.powi(d as i32),
        None => FULL_PRECISION,
    };
    let Some(n) = n.filter(|n| *n >= 2) else {
        return match decimals {
            Some(d) => Precision::Decimals(d),
            None => Precision::Tolerance(FULL_PRECISION),
        };
    };
    let gap = value.abs() * ((n as f64 / (n - 1) as f64).sqrt() - 1.0);
    let t = written + gap;
    // Up to two significant digits, as a person writes an interval.
    let unit = 10f64.powi(t.log10().floor() as i32 - 1);
    let up = (t / unit).ceil() * unit;
    let text = format!("{up:.1e}");
    Precision::Tolerance(text.parse::<f64>().ok().filter(|x| *x >= t).unwrap_or(up))
}

/// The decimals a value's shortest form has (76.8 → 1, 0.77 → 2, 207.0 → 0), at most
/// [`MAX_DECIMALS`].
pub(crate) fn written_decimals(x: f64) -> u32 {
    let s = format!("{x}");
    let d = s.split_once('.').map_or(0, |(_, frac)| frac.len());
    u32::try_from(d).map_or(MAX_DECIMALS, |d| d.min(MAX_DECIMALS))
}

/// `s` made into a slug: every character a slug does not allow becomes `-`.
pub fn slug(s: &str) -> String {
    let s: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect();
    s.trim_start_matches(['-', '.', '_']).to_string()
}

/// A claim with the fields every reader fills the same way.
pub fn claim(
    wave: &str,
    seat: &str,
    figure: Figure,
    value: f64,
    scale: f64,
    p: Precision,
) -> Claim {
    Claim {
        line: 0,
        lines: Default::default(),
        wave: wave.into(),
        seat: seat.into(),
        figure,
        value,
        scale,
        precision: p,
        metric: None,
        counts: None,
        source: None,
    }
}

/// A number field of a JSON object: `None` when absent or null.
pub fn number(
    at: &dyn Fn(&str) -> Location,
    o: &serde_json::Map<String, Value>,
    key: &str,
) -> Result<Option<f64>> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n
            .as_f64()
            .filter(|x| x.is_finite())
            .map(Some)
            .ok_or_else(|| Error::input(at(key), format!("expected a finite number, got {n}"))),
        Some(v) => Err(Error::input(
            at(key),
            format!("expected a number, got {}", describe(v)),
        )),
    }
}

pub fn text<'v>(
    at: &dyn Fn(&str) -> Location,
    o: &'v serde_json::Map<String, Value>,
    key: &str,
) -> Result<Option<&'v str>> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(v) => Err(Error::input(
            at(key),
            format!("expected a text, got {}", describe(v)),
        )),
    }
}

pub fn count(
    at: &dyn Fn(&str) -> Location,
    o: &serde_json::Map<String, Value>,
    key: &str,
) -> Result<Option<u64>> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v.as_u64().map(Some).ok_or_else(|| {
            Error::input(
                at(key),
                format!("expected a whole number, 0 or more, got {}", describe(v)),
            )
        }),
    }
}

/// The figures of a JSON file that is one object, read from its top-level keys (the rest
/// skipped unread).
pub(crate) fn top_level<R: Read>(
    path: &Path,
    reader: R,
    expecting: &'static str,
    keys: &[&str],
) -> Result<serde_json::Map<String, Value>> {
    let mut got = serde_json::Map::new();
    walk(
        path,
        reader,
        expecting,
        |key| {
            if keys.contains(&key) {
                Take::Whole
            } else {
                Take::Skip
            }
        },
        |key, part| {
            if let Part::Whole(v) = part {
                got.insert(key.to_string(), v);
            }
            Ok(())
        },
    )?;
    Ok(got)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_standard_error_is_claimed_within_what_the_two_estimators_differ_by() {
        // n unknown: as written.
        assert_eq!(se_precision(25.0, None, Some(0)), Precision::Decimals(0));
        assert_eq!(
            se_precision(0.25, None, None),
            Precision::Tolerance(FULL_PRECISION)
        );
        assert_eq!(
            se_precision(0.25, Some(1), None),
            Precision::Tolerance(FULL_PRECISION)
        );
        // 1.23 at 2 decimals over n = 100: 0.005 + 1.23 × (sqrt(100/99) − 1) = 0.005 +
        // 0.0061965 = 0.0111965, up to two digits 0.012.
        assert_eq!(
            se_precision(1.23, Some(100), Some(2)),
            Precision::Tolerance(0.012)
        );
        // lm-eval's 0.2886751345948129 (sqrt(1/12), n = 4): × (sqrt(4/3) − 1) = 0.0446582 →
        // 0.045, wide enough for the population estimator's 0.25 on the same outcomes.
        assert_eq!(
            se_precision(0.288_675_134_594_812_9, Some(4), None),
            Precision::Tolerance(0.045)
        );
    }

    #[test]
    fn decimals_are_read_from_how_a_value_is_written() {
        assert_eq!(written_decimals(76.8), 1);
        assert_eq!(written_decimals(0.77), 2);
        assert_eq!(written_decimals(207.0), 0);
        assert_eq!(written_decimals(0.1 + 0.2), 12);
        assert_eq!(slug("claude opus/4"), "claude-opus-4");
    }
}
