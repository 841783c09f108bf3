//! The human wording the tables, the verdict and the notes share: a change with its relative
//! change, a change that is unknown and why, a measure in its own unit, a list in prose.

use super::wave_figures::Fig;
use crate::number::{fixed, int_or_fixed, signed, usd};
use crate::rubric::measure::Measure;

/// The relative change "+85.8%", or nothing when the base is 0.
pub(super) fn relative(from: f64, to: f64) -> Option<String> {
    (from != 0.0).then(|| format!("{}%", signed((to - from) / from * 100.0, 1)))
}

/// An absolute change followed by the relative one: "+121.0 s (+85.8%)".
pub(super) fn with_relative(abs: String, from: f64, to: f64) -> String {
    match relative(from, to) {
        Some(r) => format!("{abs} ({r})"),
        None => abs,
    }
}

/// The change of one figure between two waves, for people.
pub(super) fn change_text(
    a: &Fig,
    b: &Fig,
    from_wave: &str,
    to_wave: &str,
    show: impl Fn(f64, f64) -> String,
) -> String {
    match Fig::known_pair(a, b, from_wave, to_wave) {
        Ok((x, y)) => show(x, y),
        Err((wave, why)) => format!("unknown ({wave}: {why})"),
    }
}

/// A measure's value in its own unit, for people.
pub(super) fn measure_text(m: Measure, x: f64) -> String {
    match m {
        Measure::WallS => format!("{} s", fixed(x, 1)),
        Measure::CostUsd => usd(x),
        Measure::TokensTotal
        | Measure::NewInputTokens
        | Measure::InputTokens
        | Measure::OutputTokens
        | Measure::CacheReadTokens
        | Measure::Steps
        | Measure::Errors
        | Measure::Correct
        | Measure::Attempts
        | Measure::Missing
        | Measure::CanaryFailures => int_or_fixed(x, 1),
        Measure::Accuracy | Measure::Outcome => fixed(x, 3),
        // A mean is in its sum's unit.
        Measure::Mean(s) => measure_text(s.measure(), x),
    }
}

/// "a", "a and b", "a, b and c".
pub(super) fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_carry_their_relative_change() {
        assert_eq!(
            with_relative(format!("{} s", signed(121.0, 1)), 141.0, 262.0),
            "+121.0 s (+85.8%)"
        );
        assert_eq!(with_relative("+1".into(), 0.0, 1.0), "+1");
    }

    #[test]
    fn an_unknown_change_names_the_wave_and_why() {
        let known = Fig::Known(1.0);
        let unknown = Fig::Unknown("cost known for 1 of 2 attempts".into());
        assert_eq!(
            change_text(&known, &unknown, "a", "b", |x, y| (y - x).to_string()),
            "unknown (b: cost known for 1 of 2 attempts)"
        );
        assert_eq!(
            join_and(&["x".into(), "y".into(), "z".into()]),
            "x, y and z"
        );
    }
}
