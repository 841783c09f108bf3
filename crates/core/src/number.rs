//! Number formatting for people and for machines.
//!
//! Human text is rounded to a fixed number of places and groups thousands; machine text is the
//! shortest representation that reads back to the same `f64`. A value that is not finite is
//! printed as undefined (`—` / empty), never as `NaN` or `inf`. A sum that covers only some
//! attempts says so (`partial`), and one that covers none is undefined.

use crate::model::Known;

/// Thousands grouped with commas: 565000 → "565,000".
pub fn int(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Fixed decimals; "—" when not finite. Negative zero prints as zero.
pub fn fixed(x: f64, places: usize) -> String {
    if !x.is_finite() {
        return "—".into();
    }
    let s = format!("{x:.places$}");
    if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
        s[1..].to_string()
    } else {
        s
    }
}

/// Fixed decimals with an explicit sign: "+1.50", "-25.00", "0.00".
pub fn signed(x: f64, places: usize) -> String {
    let s = fixed(x, places);
    if x > 0.0 && s.chars().any(|c| c.is_ascii_digit() && c != '0') {
        format!("+{s}")
    } else {
        s
    }
}

/// A whole number with thousands grouped ("10,000"), any other with fixed decimals.
pub(crate) fn int_or_fixed(x: f64, places: usize) -> String {
    if x.fract() == 0.0 && (0.0..1e15).contains(&x) {
        int(x as u64)
    } else {
        fixed(x, places)
    }
}

/// A whole number with thousands grouped and an explicit sign: "+20,256", "-1,000", "0".
pub(crate) fn signed_int(d: i64) -> String {
    let body = int(d.unsigned_abs());
    match d.signum() {
        1 => format!("+{body}"),
        -1 => format!("-{body}"),
        _ => body,
    }
}

/// USD with an explicit sign: "+$0.02", "-$1.50", "$0.00".
pub(crate) fn signed_usd(d: f64) -> String {
    let body = usd(d.abs());
    if body.chars().any(|c| c.is_ascii_digit() && c != '0') {
        if d > 0.0 {
            format!("+{body}")
        } else {
            format!("-{body}")
        }
    } else {
        body
    }
}

/// USD with a dollar sign: "$0.91"; four places below a cent so small costs stay visible.
pub fn usd(x: f64) -> String {
    if !x.is_finite() {
        return "—".into();
    }
    if x != 0.0 && x.abs() < 0.01 {
        format!("${}", fixed(x, 4))
    } else {
        format!("${}", fixed(x, 2))
    }
}

/// USD for people, as the terminal, the site and Markdown print it: two places from a cent up,
/// three significant digits below a cent ("$0.0000152"), so that a positive cost never prints
/// as zero. (Publications keep [`usd`]: their text is frozen.)
pub(crate) fn usd_significant(x: f64) -> String {
    if !x.is_finite() {
        return "—".into();
    }
    if x != 0.0 && x.abs() < 0.01 {
        // Three significant digits: the places that leave two more after the first non-zero.
        let first = x.abs().log10().floor() as i32;
        let places = usize::try_from(2 - first).unwrap_or(2).min(20);
        format!("${}", fixed(x, places))
    } else {
        format!("${}", fixed(x, 2))
    }
}

/// The two bounds of a cost interval as [`usd_significant`] prints them, but consistently: when
/// either bound is below a cent (and not zero), both get three significant digits, never fewer
/// than two places ("$0.00800–$0.0800", "$0.00500–$0.520", not "$0.00800–$0.08").
pub(crate) fn usd_significant_interval(lo: f64, hi: f64) -> (String, String) {
    let cheap = |x: f64| x.is_finite() && x != 0.0 && x.abs() < 0.01;
    if !(cheap(lo) || cheap(hi)) {
        return (usd_significant(lo), usd_significant(hi));
    }
    let three = |x: f64| {
        if !x.is_finite() {
            return "—".to_string();
        }
        if x == 0.0 {
            return usd_significant(x);
        }
        let first = x.abs().log10().floor() as i32;
        let places = usize::try_from(2 - first).unwrap_or(2).clamp(2, 20);
        format!("${}", fixed(x, places))
    };
    (three(lo), three(hi))
}

/// [`signed_usd`] with significant digits below a cent: "+$0.0000152".
pub(crate) fn signed_usd_significant(d: f64) -> String {
    let body = usd_significant(d.abs());
    match d.partial_cmp(&0.0) {
        Some(std::cmp::Ordering::Greater) => format!("+{body}"),
        Some(std::cmp::Ordering::Less) => format!("-{body}"),
        _ => body,
    }
}

/// A share as a percentage: 0.5358 → "53.6%".
/// A p-value for people: four places, or `< 0.0001` where four places would print `0.0000`
/// (issue 32, #9), which reads as impossible rather than small.
pub(crate) fn p_value(p: f64) -> String {
    if p < 0.00005 {
        "< 0.0001".into()
    } else {
        format!("{p:.4}")
    }
}

pub fn percent(x: f64) -> String {
    if !x.is_finite() {
        return "—".into();
    }
    format!("{}%", fixed(x * 100.0, 1))
}

/// The machine text of a number: shortest round-trip, "" when not finite.
pub fn machine(x: f64) -> String {
    if !x.is_finite() {
        return String::new();
    }
    // Negative zero is zero.
    let x = x + 0.0;
    // The shortest text that reads back to the same f64, as the hashed formats write it.
    let s = crate::formats::json::number(x);
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

/// The machine text of an optional number.
pub(crate) fn machine_opt(x: Option<f64>) -> String {
    x.map(machine).unwrap_or_default()
}

/// A sum that may cover only some attempts: "565,000", or "1,200 (3 of 4)"; "—" when it
/// covers none.
pub(crate) fn partial<T: Copy>(k: &Known<T>, of: u64, human: impl Fn(T) -> String) -> String {
    if k.known == 0 {
        "—".into()
    } else if k.known < of {
        format!("{} ({} of {of})", human(k.sum), k.known)
    } else {
        human(k.sum)
    }
}

/// The machine text of a count that may cover only some attempts: "" when it covers none.
pub(crate) fn known_machine_u64(k: &Known<u64>) -> String {
    if k.known == 0 {
        String::new()
    } else {
        k.sum.to_string()
    }
}

/// The machine text of a sum that may cover only some attempts: "" when it covers none.
pub(crate) fn known_machine_f64(k: &Known<f64>) -> String {
    if k.known == 0 {
        String::new()
    } else {
        machine(k.sum)
    }
}

/// A number for people: up to six decimals, trailing zeros dropped, "∞" for infinity.
pub fn pretty(x: f64) -> String {
    if x == f64::INFINITY {
        return "∞".into();
    }
    if x == f64::NEG_INFINITY {
        return "-∞".into();
    }
    if x.is_nan() {
        return "undefined".into();
    }
    let s = format!("{:.6}", x);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_positive_cost_never_prints_as_zero() {
        assert_eq!(usd_significant(1.52e-5), "$0.0000152");
        assert_eq!(usd_significant(0.0042), "$0.00420");
        assert_eq!(usd_significant(0.00999), "$0.00999");
        assert_eq!(usd_significant(0.01), "$0.01");
        assert_eq!(usd_significant(2.5), "$2.50");
        assert_eq!(usd_significant(0.0), "$0.00");
        assert_eq!(usd_significant(f64::NAN), "—");
        assert_eq!(usd_significant(1e-300), format!("${}", fixed(1e-300, 20)));
        assert_eq!(signed_usd_significant(-1.52e-5), "-$0.0000152");
        let pair = |lo: f64, hi: f64| {
            let (a, b) = usd_significant_interval(lo, hi);
            format!("{a}–{b}")
        };
        assert_eq!(pair(0.008, 0.08), "$0.00800–$0.0800");
        assert_eq!(pair(0.005, 0.52), "$0.00500–$0.520");
        assert_eq!(pair(0.0042, 1.5), "$0.00420–$1.50");
        assert_eq!(pair(0.0042, 12.5), "$0.00420–$12.50");
        assert_eq!(pair(0.0, 0.0042), "$0.00–$0.00420");
        assert_eq!(pair(2.5e-6, 7.8e-6), "$0.00000250–$0.00000780");
        assert_eq!(pair(0.01, 0.08), "$0.01–$0.08");
        assert_eq!(pair(0.52, 0.91), "$0.52–$0.91");
        assert_eq!(signed_usd_significant(0.25), "+$0.25");
    }

    #[test]
    fn formats() {
        assert_eq!(int(565000), "565,000");
        assert_eq!(int(1_000_000), "1,000,000");
        assert_eq!(int(12), "12");
        assert_eq!(fixed(-0.0001, 2), "0.00");
        assert_eq!(fixed(f64::NAN, 2), "—");
        assert_eq!(signed(1.5, 2), "+1.50");
        assert_eq!(signed(-25.0, 1), "-25.0");
        assert_eq!(signed(0.0, 1), "0.0");
        assert_eq!(usd(0.91), "$0.91");
        assert_eq!(usd(0.0042), "$0.0042");
        assert_eq!(percent(232.0 / 433.0), "53.6%");
        assert_eq!(machine(132.0), "132");
        assert_eq!(machine(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(machine(f64::INFINITY), "");
        assert_eq!(int_or_fixed(10000.0, 2), "10,000");
        assert_eq!(int_or_fixed(2.5, 1), "2.5");
        assert_eq!(signed_int(20256), "+20,256");
        assert_eq!(signed_int(-1000), "-1,000");
        assert_eq!(signed_int(0), "0");
        assert_eq!(signed_usd(0.02), "+$0.02");
        assert_eq!(signed_usd(-1.5), "-$1.50");
        assert_eq!(signed_usd(0.0), "$0.00");
    }

    #[test]
    fn partial_sums_say_what_they_cover() {
        let k = |sum: u64, known| Known { sum, known };
        assert_eq!(partial(&k(565_000, 4), 4, int), "565,000");
        assert_eq!(partial(&k(1200, 3), 4, int), "1,200 (3 of 4)");
        assert_eq!(partial(&k(0, 0), 4, int), "—");
        assert_eq!(known_machine_u64(&k(0, 0)), "");
        assert_eq!(known_machine_u64(&k(7, 1)), "7");
        assert_eq!(known_machine_f64(&Known { sum: 1.5, known: 1 }), "1.5");
    }
}

#[cfg(test)]
mod p_value_tests {
    /// Issue 32, #9: `versus --all` printed p-values as `0.0000`.
    #[test]
    fn issue_32_9_a_p_value_below_the_fourth_place_reads_less_than_0_0001() {
        assert_eq!(super::p_value(0.0), "< 0.0001");
        assert_eq!(super::p_value(3e-7), "< 0.0001");
        assert_eq!(super::p_value(0.00005), "0.0001");
        assert_eq!(super::p_value(0.0312), "0.0312");
        assert_eq!(super::p_value(1.0), "1.0000");
    }
}
