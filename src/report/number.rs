//! Number formatting for people and for machines.
//!
//! Human text is rounded to a fixed number of places and groups thousands; machine text is the
//! shortest representation that reads back to the same `f64`. A value that is not finite is
//! printed as undefined (`—` / empty), never as `NaN` or `inf`.

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

/// A share as a percentage: 0.5358 → "53.6%".
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
    // serde_json (ryu) prints the shortest text that reads back to the same f64.
    let s = serde_json::Number::from_f64(x)
        .map(|n| n.to_string())
        .unwrap_or_default();
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

/// The machine text of an optional number.
pub fn machine_opt(x: Option<f64>) -> String {
    x.map(machine).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
