//! `eee`: Every Eval Ever's instance-level records (evaleval/every_eval_ever,
//! `instance_level_eval.schema.json`, schema 0.2.1 to 0.3.0): a `<id>_samples.jsonl`, one
//! record a line, usually beside its aggregate record `<id>.json`. The interchange schema that
//! EEE's converters write from Inspect, HELM, lm-eval, HAL and others. Read:
//!
//! - `sample_id` → problem; a sample given again is its next attempt, in file order;
//! - `evaluation.is_correct` → Correct; `evaluation.score` → outcome where it is from 0 to 1;
//! - `token_usage`: `input_tokens`, `output_tokens`, `input_tokens_cache_read`,
//!   `input_tokens_cache_write` (null is unknown, not 0);
//! - `performance.latency_ms` (else `generation_time_ms`) → wall seconds;
//! - `evaluation.tool_calls_count` → steps; `error` → end reason;
//! - `model_id` → the model, `evaluation_name` → the suite; the aggregate record beside it:
//!   `evaluation_timestamp` → the start, `eval_library` → the producer.
//!
//! And what benchledger's own export (`export --format eee`, `crate::export::eee`) writes where
//! the schema has no field: in a row's `metadata`, `benchledger.cost_usd`, `.errors`,
//! `.working_s`, `.infra_error`, `.trial`, `.outcome` (`unknown`: the score is the verdict) and
//! the token counts whose partner is unknown; in the aggregate record, the wave's accounting,
//! load (parallel and tool-server sessions, serial rerun, timeout multiplier) (`generation_config.additional_details`), the
//! suite's size (`source_data.additional_details.suite_problems`, else a Hugging Face
//! dataset's `samples_number`) and the seat's config (`model_info.additional_details`).

pub mod claims;

use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::json::Rec;
use super::object::describe;
use super::{About, Imported, Importer, Input, Origin, Record, Source, Stated};
use crate::error::{Error, Result};
use crate::model::Attempt;

/// The prefix of the `metadata` keys benchledger's export writes (`crate::export::eee::META`,
/// which cannot be imported here: exports sit above importers).
const META: &str = "benchledger.";

/// Every Eval Ever instance-level records.
pub struct Eee;

impl Importer for Eee {
    fn name(&self) -> &'static str {
        "eee"
    }

    fn describes(&self) -> &'static str {
        "Every Eval Ever instance-level records, <id>_samples.jsonl (schema 0.2.1 to 0.3.0)"
    }

    fn finds(&self, _: &dyn Source, path: &Path) -> bool {
        path.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.ends_with("_samples.jsonl"))
    }

    fn read(&self, input: &mut Input<'_>) -> Result<Imported> {
        let path = input.path;
        let lines = input.src.open_lines(path).map_err(|e| Error::io(path, e))?;
        let mut records = Vec::new();
        let mut trials: BTreeMap<String, u32> = BTreeMap::new();
        let (mut model, mut suite) = (None, None);
        for (i, line) in lines.lines().enumerate() {
            let line = line.map_err(|e| Error::io(path, e))?;
            if line.trim().is_empty() {
                continue;
            }
            let v: Value = super::json::strict_line(path, i + 1, &line)?;
            let r = Rec::new(path, format!("line {}", i + 1), &v)?;
            let mut a = sample(&r)?;
            let n = trials.entry(a.problem.clone()).or_default();
            *n += 1;
            if a.trial == 0 {
                a.trial = *n;
            }
            model = model.or(r.text("model_id")?.map(str::to_string));
            suite = suite.or(r.text("evaluation_name")?.map(str::to_string));
            records.push(Record {
                at: Origin::Line(i + 1),
                attempt: a,
                file: None,
            });
            input.progress.advance(1);
        }
        let (mut about, accounting) = aggregate(input.src, path)?;
        about.suite = suite;
        Ok(Imported {
            records,
            accounting,
            model,
            about,
        })
    }
}

/// One record as an attempt.
fn sample(r: &Rec<'_>) -> Result<Attempt> {
    let mut a = Attempt::empty();
    a.problem = r.id("sample_id")?;
    let e = r.required("evaluation", "the sample's score and verdict")?;
    let e = Rec::new(r.path, r.label.clone(), e)?;
    a.correct = e
        .boolean("is_correct")?
        .ok_or_else(|| r.bad("evaluation.is_correct", "missing: expected true or false"))?;
    a.outcome = e.number("score")?.filter(|s| (0.0..=1.0).contains(s));
    a.steps = e
        .count("tool_calls_count")?
        .map(|n| u32::try_from(n).unwrap_or(u32::MAX));
    if let Some(t) = r.get("token_usage") {
        let t = Rec::new(r.path, r.label.clone(), t)?;
        a.input_tokens = t.count("input_tokens")?;
        a.output_tokens = t.count("output_tokens")?;
        a.input_tokens_cache_read = t.count("input_tokens_cache_read")?;
        a.input_tokens_cache_write = t.count("input_tokens_cache_write")?;
    }
    if let Some(p) = r.get("performance") {
        let p = Rec::new(r.path, r.label.clone(), p)?;
        let ms = match p.number("latency_ms")? {
            Some(ms) => Some(ms),
            None => p.number("generation_time_ms")?,
        };
        a.wall_s = match ms {
            Some(ms) if ms >= 0.0 => Some(ms / 1000.0),
            Some(ms) => {
                return Err(r.bad(
                    "performance.latency_ms",
                    format!("expected milliseconds, 0 or more, got {ms}"),
                ));
            }
            None => None,
        };
    }
    a.end_reason = match r.get("error") {
        None => None,
        Some(Value::String(s)) => Some(s.chars().take(80).collect()),
        Some(other) => Some(describe(other)),
    };
    if let Some(m) = r.get("metadata") {
        benchledger_metadata(r, m, &mut a)?;
    }
    Ok(a)
}

/// What benchledger's export keeps in a row's `metadata` (string values, under
/// `benchledger.` keys): the fields the schema has no room for. A token count here never
/// overrides `token_usage`.
fn benchledger_metadata(r: &Rec<'_>, m: &Value, a: &mut Attempt) -> Result<()> {
    let get = |k: &str| {
        m.get(format!("{META}{k}"))
            .and_then(Value::as_str)
            .map(|v| (format!("metadata.{META}{k}"), v))
    };
    let number = |k: &str| -> Result<Option<f64>> {
        match get(k) {
            None => Ok(None),
            Some((field, v)) => v
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .map(Some)
                .ok_or_else(|| r.bad(&field, format!("expected a number, 0 or more, got {v:?}"))),
        }
    };
    let count = |k: &str| -> Result<Option<u64>> {
        match get(k) {
            None => Ok(None),
            Some((field, v)) => v.parse::<u64>().map(Some).map_err(|_| {
                r.bad(
                    &field,
                    format!("expected a whole number, 0 or more, got {v:?}"),
                )
            }),
        }
    };
    a.cost_usd = a.cost_usd.or(number("cost_usd")?);
    a.working_s = a.working_s.or(number("working_s")?);
    a.errors = a
        .errors
        .or(count("errors")?.map(|n| u32::try_from(n).unwrap_or(u32::MAX)));
    a.input_tokens = a.input_tokens.or(count("input_tokens")?);
    a.output_tokens = a.output_tokens.or(count("output_tokens")?);
    a.input_tokens_cache_read = a
        .input_tokens_cache_read
        .or(count("input_tokens_cache_read")?);
    a.input_tokens_cache_write = a
        .input_tokens_cache_write
        .or(count("input_tokens_cache_write")?);
    if let Some(t) = count("trial")? {
        a.trial = u32::try_from(t)
            .ok()
            .filter(|t| *t > 0)
            .ok_or_else(|| r.bad(&format!("metadata.{META}trial"), "expected 1 or more"))?;
    }
    a.infra_error = get("infra_error").is_some_and(|(_, v)| v == "true");
    if get("outcome").is_some_and(|(_, v)| v == "unknown") {
        a.outcome = None;
    }
    Ok(())
}

/// What the aggregate record beside the samples (`<id>.json` for `<id>_samples.jsonl`) says of
/// the run, when it is there, and the token accounting it states (benchledger's export states
/// it).
fn aggregate(src: &dyn Source, samples: &Path) -> Result<(About, Option<Stated>)> {
    let mut about = About {
        producer: Some("every_eval_ever".into()),
        ..About::default()
    };
    let Some(path) = aggregate_path(samples).filter(|p| src.is_file(p)) else {
        return Ok((about, None));
    };
    let text = src.read_text(&path).map_err(|e| Error::io(&path, e))?;
    let v: Value = super::json::strict_str(&path, &text)?;
    let r = Rec::new(&path, "the aggregate record", &v)?;
    about.started_at = r
        .text("evaluation_timestamp")?
        .and_then(|t| t.parse::<f64>().ok())
        .and_then(|t| chrono::DateTime::from_timestamp(t.floor() as i64, 0))
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
    let library = |key: &str| {
        v.pointer(&format!("/eval_library/{key}"))
            .and_then(Value::as_str)
            .filter(|s| *s != "unknown")
            .map(str::to_string)
    };
    about.harness = library("name");
    about.harness_version = library("version");
    about.config = v
        .pointer("/model_info/additional_details/benchledger_config")
        .and_then(Value::as_str)
        .map(str::to_string);
    // The first result's source and conditions: benchledger writes the same in every result.
    let first = |p: &str| v.pointer(&format!("/evaluation_results/0/{p}"));
    about.suite_problems = first("source_data/additional_details/suite_problems")
        .and_then(Value::as_str)
        .and_then(|n| n.parse::<u64>().ok())
        .or_else(|| first("source_data/samples_number").and_then(Value::as_u64));
    let condition = |k: &str| {
        first(&format!("generation_config/additional_details/{k}")).and_then(Value::as_str)
    };
    about.parallel_sessions = condition("parallel_sessions").and_then(|n| n.parse().ok());
    about.tool_server_sessions = condition("tool_server_sessions").and_then(|n| n.parse().ok());
    about.serial_rerun = condition("serial_rerun").and_then(|b| b.parse().ok());
    about.timeout_multiplier = condition("timeout_multiplier")
        .and_then(|n| n.parse::<f64>().ok())
        .filter(|x| x.is_finite() && *x > 0.0);
    let accounting = match condition("input_tokens_include_cache_reads") {
        Some(b @ ("true" | "false")) => Some(Stated {
            input_tokens_include_cache_reads: b == "true",
            why: format!(
                "{} says input_tokens_include_cache_reads = {b} (generation_config)",
                path.display()
            ),
        }),
        _ => None,
    };
    Ok((about, accounting))
}

fn aggregate_path(samples: &Path) -> Option<PathBuf> {
    let name = samples.file_name()?.to_str()?;
    let id = name.strip_suffix("_samples.jsonl")?;
    Some(samples.with_file_name(format!("{id}.json")))
}
