//! The schema of a result line: the fields it may carry, what each must hold, and the check of
//! one value against its kind, with the message that names the field and what was expected.

use serde_json::Value;

use crate::diagnostics::closest;
use crate::error::{Error, Location, Result};

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Kind {
    Text,
    Bool,
    Count,
    Trial,
    Amount,
    Fraction,
    Checklist,
    Trace,
    /// A text of the attempt's sample: a string, kept cut to its cap (empty: none).
    Sample,
}

/// The fields a result line may carry, and what each must hold.
pub(super) const FIELDS: &[(&str, Kind)] = &[
    ("problem", Kind::Text),
    ("attempt", Kind::Trial),
    ("correct", Kind::Bool),
    ("outcome", Kind::Fraction),
    ("input_tokens", Kind::Count),
    ("output_tokens", Kind::Count),
    ("input_tokens_cache_read", Kind::Count),
    ("input_tokens_cache_write", Kind::Count),
    ("wall_s", Kind::Amount),
    ("cost_usd", Kind::Amount),
    ("steps", Kind::Count),
    ("errors", Kind::Count),
    ("checklist", Kind::Checklist),
    ("trace", Kind::Trace),
    ("working_s", Kind::Amount),
    ("infra_error", Kind::Bool),
    ("end_reason", Kind::Text),
    ("input", Kind::Sample),
    ("target", Kind::Sample),
    ("answer", Kind::Sample),
    ("explanation", Kind::Sample),
];

pub(super) fn kind_of(field: &str) -> Option<Kind> {
    index_of(field).map(|i| FIELDS[i].1)
}

pub(super) fn index_of(field: &str) -> Option<usize> {
    FIELDS.iter().position(|(n, _)| *n == field)
}

// Positions in FIELDS.
pub(super) const PROBLEM: usize = 0;
pub(super) const ATTEMPT: usize = 1;
pub(super) const CORRECT: usize = 2;
pub(super) const OUTCOME: usize = 3;
pub(super) const INPUT_TOKENS: usize = 4;
pub(super) const OUTPUT_TOKENS: usize = 5;
pub(super) const CACHE_READ: usize = 6;
pub(super) const CACHE_WRITE: usize = 7;
pub(super) const WALL_S: usize = 8;
pub(super) const COST_USD: usize = 9;
pub(super) const STEPS: usize = 10;
pub(super) const ERRORS: usize = 11;
pub(super) const CHECKLIST: usize = 12;
pub(super) const TRACE: usize = 13;
pub(super) const WORKING_S: usize = 14;
pub(super) const INFRA_ERROR: usize = 15;
pub(super) const END_REASON: usize = 16;
pub(super) const INPUT: usize = 17;
pub(super) const TARGET: usize = 18;
pub(super) const ANSWER: usize = 19;
pub(super) const EXPLANATION: usize = 20;

/// One result line's fields, by position in [`FIELDS`] (`Some(Null)` for a field given as
/// `null`), and the names of any unknown fields. What a JSON object of the line would hold,
/// without building one: no map, no key allocated per field.
#[derive(Default)]
pub(super) struct Fields {
    pub(super) slots: [Option<Value>; FIELDS.len()],
    pub(super) unknown: Vec<String>,
}

pub(super) fn expected(kind: Kind) -> &'static str {
    match kind {
        Kind::Text => "a non-empty string",
        Kind::Sample => "a string",
        Kind::Bool => "true or false",
        Kind::Count => "a whole number, 0 or more",
        Kind::Trial => "a whole number, 1 or more",
        Kind::Amount => "a finite number, 0 or more",
        Kind::Fraction => "a number from 0 to 1",
        Kind::Checklist => r#"a list of {"item": "...", "pass": true|false}"#,
        Kind::Trace => r#"a list of {"tool": "...", "ok": true|false, "error": "..."}"#,
    }
}

pub(super) fn unknown_field(at: Location, key: &str) -> Error {
    let names = FIELDS.iter().map(|(n, _)| *n);
    let hint = match closest(key, names.clone()) {
        Some(c) => format!(" (did you mean `{c}`?)"),
        None => String::new(),
    };
    Error::input(
        at,
        format!(
            "unknown field{hint}; a result line may hold: {}",
            names.collect::<Vec<_>>().join(", ")
        ),
    )
}

pub(super) fn describe(v: &Value) -> String {
    match v {
        Value::String(s) => format!("the string {s:?}"),
        Value::Number(n) => format!("{n}"),
        Value::Bool(b) => format!("{b}"),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
        Value::Null => "null".into(),
    }
}

pub(super) fn bad(at: &Location, field: &str, kind: Kind, got: &Value) -> Error {
    Error::input(
        at.clone().field(field),
        format!("expected {}, got {}", expected(kind), describe(got)),
    )
}

/// The largest count a result line may give — tokens of any kind, steps, errors, a trial
/// number: a trillion. No real attempt comes near it, and under it every count fits the ledger's
/// signed 64-bit integers and a seat's sums cannot overflow in any realistic wave.
pub const MAX_COUNT: u64 = 1_000_000_000_000;

/// [`MAX_COUNT`] as people read it.
pub(super) const MAX_COUNT_TEXT: &str = "1,000,000,000,000";

pub(super) fn count(at: &Location, field: &str, kind: Kind, v: &Value) -> Result<u64> {
    let n = match v {
        Value::Number(n) => n,
        _ => return Err(bad(at, field, kind, v)),
    };
    let within = match n.as_u64() {
        Some(u) => (u <= MAX_COUNT).then_some(u),
        // Some tools write whole numbers as floats (500000.0); accept those, nothing else. A
        // whole number up to 10^12 is held exactly by an f64.
        None => match n.as_f64() {
            Some(f) if f.is_finite() && f >= 0.0 && f.fract() == 0.0 => {
                (f <= MAX_COUNT as f64).then_some(f as u64)
            }
            _ => return Err(bad(at, field, kind, v)),
        },
    };
    within.ok_or_else(|| {
        Error::input(
            at.clone().field(field),
            format!("expected {}, got {}", within_range(kind), describe(v)),
        )
    })
}

/// What a field of this kind must hold, a count with its whole range: what to say of a number
/// that is out of it.
pub(super) fn within_range(kind: Kind) -> String {
    match kind {
        Kind::Count => format!("a whole number from 0 to {MAX_COUNT_TEXT}"),
        Kind::Trial => format!("a whole number from 1 to {MAX_COUNT_TEXT}"),
        other => expected(other).to_string(),
    }
}

/// A number written beyond what any number can hold (`1e400`, `-1e400`): refused as it is
/// read, naming the field when it is known and saying what the field expects.
pub(super) fn out_of_range(at: &Location, field: Option<&str>, literal: &str) -> Error {
    let want = field
        .and_then(kind_of)
        .map_or_else(|| "a finite number".to_string(), within_range);
    let at = match field {
        Some(f) => at.clone().field(f),
        None => at.clone(),
    };
    Error::input(
        at,
        format!("number out of range: expected {want}, got {literal}"),
    )
}

pub(super) fn amount(at: &Location, field: &str, kind: Kind, v: &Value) -> Result<f64> {
    match v.as_f64() {
        Some(f) if f.is_finite() && f >= 0.0 && (kind != Kind::Fraction || f <= 1.0) => Ok(f),
        _ => Err(bad(at, field, kind, v)),
    }
}

pub(super) fn small(at: &Location, field: &str, n: u64) -> Result<u32> {
    u32::try_from(n).map_err(|_| {
        Error::input(
            at.clone().field(field),
            format!("{n} is too large (at most {})", u32::MAX),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_positions_match_the_field_list() {
        let named = [
            (PROBLEM, "problem"),
            (ATTEMPT, "attempt"),
            (CORRECT, "correct"),
            (OUTCOME, "outcome"),
            (INPUT_TOKENS, "input_tokens"),
            (OUTPUT_TOKENS, "output_tokens"),
            (CACHE_READ, "input_tokens_cache_read"),
            (CACHE_WRITE, "input_tokens_cache_write"),
            (WALL_S, "wall_s"),
            (COST_USD, "cost_usd"),
            (STEPS, "steps"),
            (ERRORS, "errors"),
            (CHECKLIST, "checklist"),
            (TRACE, "trace"),
            (WORKING_S, "working_s"),
            (INFRA_ERROR, "infra_error"),
            (END_REASON, "end_reason"),
            (INPUT, "input"),
            (TARGET, "target"),
            (ANSWER, "answer"),
            (EXPLANATION, "explanation"),
        ];
        assert_eq!(named.len(), FIELDS.len());
        for (i, name) in named {
            assert_eq!(FIELDS[i].0, name);
        }
    }
}
