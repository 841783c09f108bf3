//! `openhands`: one benchmark of a model's directory in the OpenHands index
//! (`<model>/instance_results/<benchmark>.json`, written by the index's
//! `scripts/extract_instance_results.py`): an object of instance id → `{"resolved", "cost"}`,
//! one attempt per instance, streamed a member at a time so that an instance given twice is
//! refused rather than silently kept once.
//!
//! - the instance id → problem, attempt 1 (the index publishes one run per benchmark);
//! - `resolved` true → Correct; false → not Correct (the index folds errors, incomplete runs,
//!   empty patches and invalidated instances into false); `null` → an attempt with no verdict
//!   (the index could not tell how it ended): not Correct, end_reason "no verdict";
//! - `cost` → USD (`null` → unknown). The index reprices each instance from its token counts
//!   at the prices in `metadata.json` — ignoring the cache-write price — and by default scales
//!   the instances' costs so that their mean is the published `cost_per_instance`;
//! - `metadata.json` (beside the file, or two directories up in the model's directory) → the
//!   model the file names (`model`). Its prices are not recorded: the index's per-instance cost
//!   is already priced, and a price table is not an attempt's fact. `scores.json` is not read.
//!
//! Not in the file: tokens, wall time, steps. Token accounting: not stated.

pub mod claims;

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::json::{Rec, describe, each_in_object};
use super::{Imported, Importer, Input, Origin, Record};
use crate::error::{Error, Location, Result};
use crate::import::Source;
use crate::model::Attempt;

/// An OpenHands index model directory's per-instance results.
pub struct OpenHands;

impl Importer for OpenHands {
    fn name(&self) -> &'static str {
        "openhands"
    }

    fn describes(&self) -> &'static str {
        "an OpenHands index model directory's instance_results/<benchmark>.json ({instance id: \
         {resolved, cost}}), metadata.json in the model's directory optional"
    }

    fn read(&self, input: &mut Input<'_>) -> Result<Imported> {
        let path = input.path;
        let (model, about) = metadata(input.src, path)?;
        let file = input.src.open(path).map_err(|e| Error::io(path, e))?;
        let progress = &mut *input.progress;
        let mut records = Vec::new();
        each_in_object(path, file, |_, id, value| {
            records.push(instance(path, id, &value)?);
            progress.advance(1);
            Ok(())
        })?;
        Ok(Imported {
            records,
            accounting: None,
            model,
            about,
        })
    }

    fn finds(&self, _: &dyn Source, path: &Path) -> bool {
        path.extension().and_then(|e| e.to_str()) == Some("json")
            && path
                .parent()
                .and_then(Path::file_name)
                .and_then(|n| n.to_str())
                == Some("instance_results")
    }
}

fn instance(path: &Path, id: String, value: &Value) -> Result<Record> {
    if id.trim().is_empty() {
        let label = format!("instance {id:?}");
        return Err(Error::input(
            Location::record(path, label),
            "expected an instance id, got an empty key",
        ));
    }
    let r = Rec::new(path, format!("instance {id}"), value)?;
    // `null` is a verdict the index could not give; a record without the key is not the index's.
    let correct = match r.value.get("resolved") {
        None => {
            return Err(r.bad(
                "resolved",
                "missing: expected true, false or null (no verdict)",
            ));
        }
        Some(Value::Null) => None,
        Some(Value::Bool(b)) => Some(*b),
        Some(v) => {
            return Err(r.bad(
                "resolved",
                format!(
                    "expected true, false or null (no verdict), got {}",
                    describe(v)
                ),
            ));
        }
    };
    let cost_usd = match r.number("cost")? {
        Some(c) if c < 0.0 => {
            return Err(r.bad(
                "cost",
                format!("expected a cost in USD, 0 or more, got {c}"),
            ));
        }
        c => c,
    };
    Ok(Record {
        at: Origin::Record(r.label.clone()),
        attempt: Attempt {
            problem: id,
            trial: 1,
            correct: correct == Some(true),
            outcome: None,
            input_tokens: None,
            output_tokens: None,
            input_tokens_cache_read: None,
            input_tokens_cache_write: None,
            wall_s: None,
            cost_usd,
            steps: None,
            errors: None,
            checklist: None,
            trace: None,
            working_s: None,
            infra_error: false,
            end_reason: correct.is_none().then(|| "no verdict".to_string()),
            origin: None,
            texts: None,
        },
        file: None,
    })
}

/// Where the model directory's metadata.json is for a benchmark's results: beside them, else
/// in the model's directory, two up from `instance_results/<benchmark>.json`.
fn metadata_path(src: &dyn Source, results: &Path) -> Option<PathBuf> {
    let beside = results.with_file_name("metadata.json");
    let up = results
        .parent()
        .and_then(Path::parent)
        .map(|d| d.join("metadata.json"));
    std::iter::once(beside).chain(up).find(|p| src.is_file(p))
}

/// The model metadata.json names, when there is one, and what it and the file's name say of
/// the run: the benchmark (the file's stem) and the agent.
fn metadata(src: &dyn Source, results: &Path) -> Result<(Option<String>, super::About)> {
    let mut about = super::About {
        suite: results
            .file_stem()
            .and_then(|s| s.to_str())
            .map(str::to_string),
        ..super::About::default()
    };
    let Some(path) = metadata_path(src, results) else {
        return Ok((None, about));
    };
    let text = src.read_text(&path).map_err(|e| Error::io(&path, e))?;
    let value: Value = super::json::strict_str(&path, &text)?;
    let Value::Object(map) = &value else {
        return Err(Error::input(
            Location::file(&path),
            format!(
                "expected the model directory's metadata, a JSON object, got {}",
                describe(&value)
            ),
        ));
    };
    let text_of = |field: &str| match map.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(Some(s.clone())),
        Some(v) => Err(Error::input(
            Location::file(&path).field(field),
            format!("expected text, got {}", describe(v)),
        )),
    };
    let model = text_of("model").map_err(|_| {
        Error::input(
            Location::file(&path).field("model"),
            format!(
                "expected the model's name, got {}",
                describe(map.get("model").unwrap_or(&Value::Null))
            ),
        )
    })?;
    about.harness = text_of("agent_name")?;
    about.harness_version = text_of("agent_version")?;
    Ok((model, about))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::Memory;
    use crate::import::{Options, Quiet};

    const RESULTS: &str = "m/instance_results/swe-bench.json";

    fn read_with(files: &[(&str, &str)]) -> Result<Imported> {
        let mut src = Memory::new();
        for (name, text) in files {
            src = src.with(name, *text);
        }
        OpenHands.read(&mut Input {
            src: &src,
            path: Path::new(RESULTS),
            options: &Options::default(),
            progress: &mut Quiet,
        })
    }

    fn read(text: &str) -> Result<Imported> {
        read_with(&[(RESULTS, text)])
    }

    #[test]
    fn instances_become_attempts_and_null_is_no_verdict() {
        let got = read(
            r#"{"b__b-2":{"cost":0.25,"resolved":false},"a__a-1":{"cost":1.5,"resolved":true},
                "c__c-3":{"cost":null,"resolved":null}}"#,
        )
        .unwrap();
        type Seen<'a> = (&'a str, u32, bool, Option<f64>, Option<&'a str>);
        let a: Vec<Seen> = got
            .records
            .iter()
            .map(|r| {
                let a = &r.attempt;
                (
                    a.problem.as_str(),
                    a.trial,
                    a.correct,
                    a.cost_usd,
                    a.end_reason.as_deref(),
                )
            })
            .collect();
        // File order: ingest puts them in ledger order.
        assert_eq!(
            a,
            [
                ("b__b-2", 1, false, Some(0.25), None),
                ("a__a-1", 1, true, Some(1.5), None),
                ("c__c-3", 1, false, None, Some("no verdict")),
            ]
        );
        assert!(got.records.iter().all(|r| !r.attempt.infra_error));
        assert_eq!(got.records[2].at, Origin::Record("instance c__c-3".into()));
        assert_eq!((got.model, got.accounting), (None, None));
    }

    #[test]
    fn the_model_comes_from_metadata_json_in_the_model_directory() {
        let results = r#"{"a":{"cost":1,"resolved":true}}"#;
        let meta = r#"{"agent_name": "OpenHands", "model": "claude-x", "input_price": 5.0,
                       "output_price": 25.0, "cache_read_price": 0.5, "cache_write_price": 6.25}"#;
        for at in ["m/metadata.json", "m/instance_results/metadata.json"] {
            let got = read_with(&[(RESULTS, results), (at, meta)]).unwrap();
            assert_eq!(got.model.as_deref(), Some("claude-x"), "{at}");
            let a = &got.records[0].attempt;
            assert_eq!(
                a.cost_usd,
                Some(1.0),
                "prices change nothing in the attempt"
            );
            assert_eq!((a.input_tokens, a.input_tokens_cache_write), (None, None));
        }
        let e = read_with(&[(RESULTS, results), ("m/metadata.json", r#"{"model": ""}"#)])
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "m/metadata.json: field `model`: expected the model's name, got the string \"\""
        );
    }

    #[test]
    fn a_bad_instance_is_named() {
        for (text, says) in [
            (
                r#"{"a":{"cost":1,"resolved":true},"b":{"cost":-1,"resolved":false}}"#,
                "m/instance_results/swe-bench.json: instance b: field `cost`: expected a cost in \
                 USD, 0 or more, got -1",
            ),
            (
                r#"{"a":{"cost":1}}"#,
                "m/instance_results/swe-bench.json: instance a: field `resolved`: missing: \
                 expected true, false or null (no verdict)",
            ),
            (
                r#"{"a":{"cost":1,"resolved":"yes"}}"#,
                "instance a: field `resolved`: expected true, false or null (no verdict), got \
                 the string \"yes\"",
            ),
            (
                r#"{"a":{"cost":"1","resolved":true}}"#,
                "instance a: field `cost`: expected a finite number, got the string \"1\"",
            ),
            (
                r#"{"a":true}"#,
                "instance a: expected a JSON object, got true",
            ),
            (
                r#"{"":{"resolved":true}}"#,
                "instance \"\": expected an instance id, got an empty key",
            ),
            (
                r#"[{"a":1}]"#,
                "m/instance_results/swe-bench.json:1: not the JSON this format expects",
            ),
        ] {
            let e = read(text).unwrap_err().to_string();
            assert!(e.contains(says), "{e}\n  should say: {says}");
        }
    }

    #[test]
    fn an_instance_given_twice_is_refused_by_name() {
        let e = read(r#"{"a":{"cost":1,"resolved":true},"a":{"cost":2,"resolved":false}}"#)
            .unwrap_err()
            .to_string();
        assert!(
            e.ends_with("field `a`: appears twice at the top of the file; keep one"),
            "{e}"
        );
    }
}
