//! Result files: one attempt a line (JSONL), or a CSV with the same column names — the
//! formats `jsonl` and `csv` of [`crate::import`].
//!
//! Every field is checked by name, so an error can say which field of which line is wrong and
//! what was expected: a misspelt key is an error (never silently ignored), a string where a
//! number belongs is an error, a negative count, a count above a trillion ([`MAX_COUNT`]), a NaN
//! or an infinity is an error. A field that
//! is left out (or `null`, or an empty CSV cell) is *unknown*, never zero.
//!
//! The work is split along its seams:
//!
//! - `fields`: the schema — which fields a line may carry, what each must hold, and the
//!   checks and messages for one value;
//! - `jsonl`: JSON lines, read a line at a time, with JSON errors turned into field errors;
//! - `strict`: the serde visitors behind it, which refuse a key given twice and read a line's
//!   object straight into its fields;
//! - `csv_file`: CSV with the same columns, each cell read as the JSON value it stands for;
//! - `attempt`: one line's fields, checked against each other, into an [`Attempt`](crate::model::Attempt).

mod attempt;
mod csv_file;
mod fields;
mod jsonl;
pub(crate) mod strict;

pub use csv_file::parse_csv;
pub use fields::MAX_COUNT;
pub use jsonl::read_jsonl;

/// One parsed attempt with the line it came from.
pub type Line = crate::import::Record;

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::fields::MAX_COUNT_TEXT;
    use super::jsonl::parse_jsonl;
    use super::*;
    use crate::error::Result;
    use crate::model::Attempt;

    fn one(line: &str) -> Result<Attempt> {
        parse_jsonl(Path::new("r.jsonl"), line).map(|mut v| v.remove(0).attempt)
    }

    #[test]
    fn of_several_unknown_fields_the_first_by_name_is_named() {
        let e = one(r#"{"zeta":1,"problem":"p","correct":true,"alpha":2}"#)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("r.jsonl:1: field `alpha`: unknown field"),
            "{e}"
        );
        let e = one(r#"{"zeta":1,"problem":"p","zeta":2}"#)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "r.jsonl:1: field `zeta`: the field appears twice on this line; give it once"
        );
        // A syntax error later on the line still wins over an unknown field.
        let e = one(r#"{"zeta":1,"problem":"p","correct":tru}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not valid JSON"), "{e}");
        let e = one(r#"[1,2]"#).unwrap_err().to_string();
        assert_eq!(
            e,
            "r.jsonl:1: expected one JSON object per line, got a list"
        );
    }

    #[test]
    fn a_count_above_a_trillion_is_refused_with_the_range() {
        let line =
            |field: &str, n: &str| format!(r#"{{"problem":"p","correct":true,"{field}":{n}}}"#);
        let ok = |field: &str, n: &str| one(&line(field, n)).unwrap();
        let err = |field: &str, n: &str| one(&line(field, n)).unwrap_err().to_string();
        assert_eq!(
            ok("input_tokens", "1000000000000").input_tokens,
            Some(MAX_COUNT)
        );
        assert_eq!(ok("output_tokens", "1e12").output_tokens, Some(MAX_COUNT));
        assert_eq!(
            ok("input_tokens_cache_read", "1000000000000.0").input_tokens_cache_read,
            Some(MAX_COUNT)
        );
        for (field, n, got) in [
            ("input_tokens", "1000000000001", "1000000000001"),
            (
                "output_tokens",
                "9223372036854775808",
                "9223372036854775808",
            ),
            (
                "input_tokens_cache_read",
                "18446744073709551615",
                "18446744073709551615",
            ),
            ("input_tokens_cache_write", "100000000000000000000", "1e+20"),
            ("input_tokens", "1.5e12", "1500000000000.0"),
            ("steps", "2000000000000", "2000000000000"),
            ("errors", "1e13", "10000000000000.0"),
        ] {
            assert_eq!(
                err(field, n),
                format!(
                    "r.jsonl:1: field `{field}`: expected a whole number from 0 to \
                     1,000,000,000,000, got {got}"
                )
            );
        }
        assert_eq!(
            err("attempt", "1000000000001"),
            "r.jsonl:1: field `attempt`: expected a whole number from 1 to 1,000,000,000,000, \
             got 1000000000001"
        );
        // Under the bound, the u32 fields keep their own limit.
        assert_eq!(
            err("steps", "5000000000"),
            "r.jsonl:1: field `steps`: 5000000000 is too large (at most 4294967295)"
        );
        // Other faults keep their messages.
        assert_eq!(
            err("input_tokens", "-1"),
            "r.jsonl:1: field `input_tokens`: expected a whole number, 0 or more, got -1"
        );
        let grouped = MAX_COUNT
            .to_string()
            .as_bytes()
            .rchunks(3)
            .rev()
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect::<Vec<_>>()
            .join(",");
        assert_eq!(MAX_COUNT_TEXT, grouped);
        // CSV cells are held to the same bound.
        let e = parse_csv(
            Path::new("r.csv"),
            "problem,correct,input_tokens\np,true,1000000000001\n",
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            e,
            "r.csv:2: field `input_tokens`: expected a whole number from 0 to 1,000,000,000,000, \
             got 1000000000001"
        );
    }

    #[test]
    fn a_full_line_parses() {
        let a = one(r#"{"problem":"checkout-1","correct":true,"outcome":1.0,"input_tokens":400000,"output_tokens":165000,"input_tokens_cache_read":0,"input_tokens_cache_write":0,"wall_s":132.0,"cost_usd":0.91,"steps":3,"errors":0}"#).unwrap();
        assert_eq!(a.input_tokens, Some(400_000));
        assert_eq!(a.trial, 1);
        assert_eq!(a.cost_usd, Some(0.91));
    }

    #[test]
    fn absent_and_null_are_unknown_not_zero() {
        let a = one(r#"{"problem":"p","correct":false,"cost_usd":null}"#).unwrap();
        assert_eq!((a.cost_usd, a.wall_s, a.input_tokens), (None, None, None));
    }

    #[test]
    fn errors_name_the_line_and_field() {
        let e = parse_jsonl(
            Path::new("r.jsonl"),
            "{\"problem\":\"a\",\"correct\":true}\n{\"problem\":\"b\",\"correct\":true,\"cost_usd\":\"cheap\"}",
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            e,
            "r.jsonl:2: field `cost_usd`: expected a finite number, 0 or more, got the string \"cheap\""
        );
    }

    #[test]
    fn a_misspelt_field_is_refused_with_a_suggestion() {
        let e = one(r#"{"problem":"p","correct":true,"wal_s":3}"#)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("r.jsonl:1: field `wal_s`: unknown field (did you mean `wall_s`?)"),
            "{e}"
        );
    }

    #[test]
    fn a_field_given_twice_is_refused_not_overwritten() {
        let e = one(r#"{"problem":"p","correct":true,"correct":false}"#)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "r.jsonl:1: field `correct`: the field appears twice on this line; give it once"
        );
        let e =
            one(r#"{"problem":"p","correct":true,"trace":[{"tool":"a","ok":true,"ok":false}]}"#)
                .unwrap_err()
                .to_string();
        assert!(e.contains("field `ok`: the field appears twice"), "{e}");
    }

    #[test]
    fn nan_is_named_as_such() {
        let e = one(r#"{"problem":"p","correct":true,"wall_s":NaN}"#)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("r.jsonl:1: field `wall_s`: NaN and infinities"),
            "{e}"
        );
    }

    #[test]
    fn a_trace_derives_steps_and_errors_and_must_agree() {
        let a = one(r#"{"problem":"p","correct":true,"trace":[{"tool":"a","ok":true},{"tool":"a","ok":false,"error":"timeout"}]}"#).unwrap();
        assert_eq!((a.steps, a.errors), (Some(2), Some(1)));
        let e = one(r#"{"problem":"p","correct":true,"steps":3,"trace":[{"tool":"a","ok":true}]}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("steps = 3, but the trace holds 1"), "{e}");
    }

    #[test]
    fn a_number_beyond_any_number_names_its_field_and_what_the_field_expects() {
        let range = |field: &str| match field {
            "attempt" => "a whole number from 1 to 1,000,000,000,000",
            "wall_s" | "cost_usd" => "a finite number, 0 or more",
            "outcome" => "a number from 0 to 1",
            _ => "a whole number from 0 to 1,000,000,000,000",
        };
        for field in [
            "attempt",
            "input_tokens",
            "output_tokens",
            "input_tokens_cache_read",
            "input_tokens_cache_write",
            "wall_s",
            "cost_usd",
            "outcome",
            "steps",
            "errors",
        ] {
            for n in ["1e400", "-1e400", "1E+400"] {
                let want = format!(
                    "field `{field}`: number out of range: expected {}, got {n}",
                    range(field)
                );
                let e = one(&format!(
                    r#"{{"problem":"p","correct":true,"{field}": {n} }}"#
                ))
                .unwrap_err()
                .to_string();
                assert_eq!(e, format!("r.jsonl:1: {want}"));
                let e = parse_csv(
                    Path::new("r.csv"),
                    &format!("problem,correct,{field}\np,true,{n}\n"),
                )
                .unwrap_err()
                .to_string();
                assert_eq!(e, format!("r.csv:2: {want}"));
            }
        }
        // A field that is not a result field still has its name given.
        let e = one(r#"{"problem":"p","correct":true,"tokns":1e400}"#)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "r.jsonl:1: field `tokns`: number out of range: expected a finite number, got 1e400"
        );
        // Small enough to read, too large to count: the count's own range.
        let e = one(r#"{"problem":"p","correct":true,"input_tokens":1e300}"#)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(
                "r.jsonl:1: field `input_tokens`: expected a whole number from 0 to \
                 1,000,000,000,000, got 1"
            ),
            "{e}"
        );
    }
}
