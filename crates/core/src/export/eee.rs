//! `export --format eee`: a wave's seats as Every Eval Ever records (evaleval/every_eval_ever,
//! schema 0.3.0, the version of the newest records there: `eval.schema.json` for the aggregate
//! record, `instance_level_eval.schema.json` for its rows; read at commit
//! 9bce4136e789ec006c62582f5f9d107d20f8b398, copied under `tests/fixtures/eee-schema/`).
//!
//! One aggregate record (`data/<suite>/<provider>/<model>/<uuid>.json`, EEE's own layout) per
//! wave and seat, and beside it, where the seat has attempts, its instance-level rows
//! (`<uuid>_samples.jsonl`, one attempt a line), the layout the `eee` importer reads back. What goes where, and what the schema has no room
//! for, is in docs/export.md; in short:
//!
//! - the seat's absolutes are evaluation results of their own: Correct-rate (with its clustered
//!   standard error), total USD, Cost-of-Pass, wall seconds and tokens, each with its unit and
//!   direction; every stored rubric score of the wave is one more, on the rubric's scale;
//! - the wave's load, accounting and budget are string pairs in each result's
//!   `generation_config.additional_details` (the schema has no typed place for them);
//! - an attempt's tokens go in `token_usage` only when its input and output are both known
//!   (the schema requires both, and a total): cache reads and writes only where known, null
//!   otherwise. Unknown is never written as 0;
//! - what an instance row has no field for (an attempt's USD, its error count, its working
//!   seconds, an infrastructure error, a token count whose partner is unknown) goes in its
//!   `metadata` (string values) under `benchledger.`-prefixed keys, which the importer reads.
//!
//! Nothing here reads the clock: `retrieved_timestamp` is when the ledger took the wave in, so
//! the export of a wave is the same bytes every time.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::error::{Error, Result};
use crate::figures::SeatFigures;
use crate::ledger::Ledger;
use crate::model::{Attempt, SeatData, SuiteProblems, WaveData, WaveRow};
use crate::rubric::StoredScore;

/// The schema version the records are written in.
pub const SCHEMA_VERSION: &str = "0.3.0";

/// The `evaluation_result_id` of a seat's Correct-rate, the result its instance rows belong to.
pub(crate) const ACCURACY_RESULT: &str = "benchledger.accuracy";

/// The prefix of the keys benchledger writes in an instance row's `metadata`.
pub(crate) const META: &str = "benchledger.";

/// One file of the export, its path relative to the output directory.
#[derive(Debug, Clone, PartialEq)]
pub struct File {
    pub path: String,
    pub bytes: Vec<u8>,
}

/// What one wave became: its files, and how many records and instance rows they hold.
#[derive(Debug, Clone, Default)]
pub struct Exported {
    pub files: Vec<File>,
    pub records: u64,
    pub rows: u64,
}

/// A rubric's stored scores of a wave, with its scale.
struct Scores {
    id: String,
    sha256: String,
    relative: bool,
    min: Option<f64>,
    max: Option<f64>,
    seats: Vec<StoredScore>,
}

/// The records of one wave: an aggregate record per seat, and its instance rows.
pub fn wave(ledger: &Ledger, wave: &str) -> Result<Exported> {
    let data = ledger.load_wave(wave)?;
    let row = ledger
        .waves()?
        .into_iter()
        .find(|w| w.wave.id == wave)
        .ok_or_else(|| Error::Usage(format!("no wave {wave:?} in the ledger")))?;
    let mut scores = Vec::new();
    for r in ledger.rubrics()? {
        let stored = ledger.stored_scores(&r.sha256, wave)?;
        if stored.is_empty() {
            continue;
        }
        let rubric = crate::rubric::parse(std::path::Path::new(&r.id()), &r.text)?;
        scores.push(Scores {
            id: r.id(),
            sha256: r.sha256.clone(),
            relative: rubric.relative,
            min: rubric.scale.min,
            max: rubric.scale.max,
            seats: stored,
        });
    }
    Ok(records(&data, &row, &scores))
}

fn records(data: &WaveData, row: &WaveRow, scores: &[Scores]) -> Exported {
    let mut out = Exported::default();
    for seat in &data.seats {
        let stem = path_of(data, seat);
        let samples_path = format!("{stem}_samples.jsonl");
        let samples = (!seat.attempts.is_empty()).then(|| instance_rows(data, seat));
        let record = aggregate(
            data,
            row,
            seat,
            scores,
            samples
                .as_ref()
                .map(|s| (samples_path.as_str(), s, seat.attempts.len())),
        );
        out.records += 1;
        out.files.push(File {
            path: format!("{stem}.json"),
            bytes: record.into_bytes(),
        });
        if let Some(s) = samples {
            out.rows += seat.attempts.len() as u64;
            out.files.push(File {
                path: samples_path,
                bytes: s.into_bytes(),
            });
        }
    }
    out
}

/// Where a seat's record goes, without its extension: EEE's repository layout,
/// `data/<benchmark>/<developer>/<model>/<uuid>`, which the schema requires of the path to the
/// instance rows. The UUID is not random: it is the SHA-256 of the record's `evaluation_id`
/// with the version and variant bits of a version-4 UUID set (the schema's pattern asks for
/// version 4), so the same seat of the same wave is the same file every time.
fn path_of(data: &WaveData, seat: &SeatData) -> String {
    format!(
        "data/{}/{}/{}/{}",
        file_name(&data.wave.suite),
        file_name(&seat.seat.provider),
        file_name(&seat.seat.model),
        uuid(&evaluation_id(data, seat))
    )
}

/// A version-4-shaped UUID from a text's SHA-256.
fn uuid(of: &str) -> String {
    use sha2::Digest;
    let d = sha2::Sha256::digest(of.as_bytes());
    let mut b = [0u8; 16];
    b.copy_from_slice(&d[..16]);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h = crate::digest::hex(&b);
    format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    )
}

/// A name safe as a file name on every system: letters, digits, `.`, `_` and `-` kept, anything
/// else `_`.
pub(crate) fn file_name(id: &str) -> String {
    let s: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with('.') {
        format!("_{s}")
    } else {
        s
    }
}

/// The model as Every Eval Ever names it, in Hugging Face's `developer/model` form.
fn model_id(seat: &SeatData) -> String {
    format!("{}/{}", seat.seat.provider, seat.seat.model)
}

fn evaluation_id(data: &WaveData, seat: &SeatData) -> String {
    format!("benchledger/{}/{}", data.wave.id, seat.seat.id)
}

/// Seconds since the epoch, as EEE writes its timestamps; `None` for a time that is not
/// RFC 3339.
fn epoch(rfc3339: &str) -> Option<String> {
    chrono::DateTime::parse_from_rfc3339(rfc3339)
        .ok()
        .map(|t| t.timestamp().to_string())
}

/// A finite number as JSON; null otherwise (never NaN or inf in an output).
fn num(v: Option<f64>) -> Value {
    v.filter(|x| x.is_finite())
        .map_or(Value::Null, |x| json!(x))
}

fn text_map(pairs: impl IntoIterator<Item = (&'static str, Option<String>)>) -> Value {
    let mut m = Map::new();
    for (k, v) in pairs {
        if let Some(v) = v {
            m.insert(k.into(), Value::String(v));
        }
    }
    Value::Object(m)
}

/// The wave's load, accounting and budget as string pairs: the schema's
/// `generation_config.additional_details`.
fn conditions(data: &WaveData) -> Value {
    let w = &data.wave;
    let s = |v: Option<f64>| v.filter(|x| x.is_finite()).map(|x| x.to_string());
    text_map([
        ("wave", Some(w.id.clone())),
        (
            "parallel_sessions",
            w.load.parallel_sessions.map(|v| v.to_string()),
        ),
        (
            "tool_server_sessions",
            w.load.tool_server_sessions.map(|v| v.to_string()),
        ),
        ("serial_rerun", w.load.serial_rerun.map(|v| v.to_string())),
        ("timeout_multiplier", s(w.load.timeout_multiplier)),
        (
            "input_tokens_include_cache_reads",
            Some(w.accounting.input_tokens_include_cache_reads.to_string()),
        ),
        ("price_source", w.accounting.price_source.clone()),
        ("budget_tokens_per_problem", s(w.budget.tokens)),
        ("budget_wall_s_per_problem", s(w.budget.wall_s)),
        ("budget_cost_usd_per_problem", s(w.budget.cost_usd)),
    ])
}

fn suite_size(data: &WaveData) -> Option<u64> {
    match &data.wave.suite_problems {
        Some(SuiteProblems::Count(n)) => Some(*n),
        Some(SuiteProblems::Ids(ids)) => Some(ids.len() as u64),
        None => None,
    }
}

/// One evaluation result of the record.
struct Metric<'a> {
    id: String,
    name: String,
    kind: &'a str,
    unit: &'a str,
    lower_is_better: bool,
    min: Value,
    max: Value,
    score: f64,
    details: Value,
    uncertainty: Option<Value>,
    description: String,
}

/// The seat's Correct-rate, with its standard error clustered by problem.
fn accuracy_metric(
    w: &crate::model::Wave,
    seat: &SeatData,
    f: &SeatFigures,
) -> Option<Metric<'static>> {
    let acc = f.accuracy.filter(|a| a.is_finite())?;
    let p = crate::stats::trials::SeatProblems::of(w, &seat.attempts);
    let uncertainty = p.clustered().filter(|c| c.se.is_finite()).map(|c| {
        json!({
            "standard_error": {"value": c.se, "method": "clustered by problem"},
            "num_samples": p.problems(),
        })
    });
    Some(Metric {
        id: ACCURACY_RESULT.into(),
        name: "Correct-rate".into(),
        kind: "accuracy",
        unit: "proportion",
        lower_is_better: false,
        min: json!(0.0),
        max: json!(1.0),
        score: acc,
        details: text_map([
            ("correct", Some(f.correct.to_string())),
            ("denominator", Some(f.denominator.to_string())),
            ("attempts", Some(f.attempts.to_string())),
            ("problems", Some(f.problems.to_string())),
            ("missing", Some(f.missing.to_string())),
        ]),
        uncertainty,
        description: "Share of attempts Correct; each problem of the suite the seat never \
                          attempted counts as one attempt not Correct"
            .into(),
    })
}

/// The seat's absolute sums (cost, wall time, tokens) and its Cost-of-Pass, each where some
/// attempt knows it.
fn absolute_metrics(f: &SeatFigures) -> Vec<Metric<'static>> {
    let mut metrics = Vec::new();
    let unbounded = || json!("Infinity");
    let known = |k: u64| {
        text_map([
            ("known_attempts", Some(k.to_string())),
            ("attempts", Some(f.attempts.to_string())),
        ])
    };
    let sums = [
        (
            "cost_usd",
            "Cost (USD)",
            "cost",
            "usd",
            f.cost_usd.known,
            f.cost_usd.sum,
        ),
        (
            "wall_s",
            "Wall time (s)",
            "latency",
            "seconds",
            f.wall_s.known,
            f.wall_s.sum,
        ),
        (
            "tokens_total",
            "Tokens",
            "tokens",
            "tokens",
            f.tokens_total.known,
            f.tokens_total.sum as f64,
        ),
        (
            "new_input_tokens",
            "New input tokens",
            "tokens",
            "tokens",
            f.new_input_tokens.known,
            f.new_input_tokens.sum as f64,
        ),
    ];
    for (id, name, kind, unit, k, sum) in sums {
        if k == 0 || !sum.is_finite() {
            continue;
        }
        metrics.push(Metric {
            id: format!("benchledger.{id}"),
            name: name.into(),
            kind,
            unit,
            lower_is_better: true,
            min: json!(0.0),
            max: unbounded(),
            score: sum,
            details: known(k),
            uncertainty: None,
            description: format!(
                "Sum over the seat's attempts where it is known ({k} of {})",
                f.attempts
            ),
        });
    }
    if let Some(cop) = f.cost_of_pass_usd.filter(|c| c.is_finite()) {
        metrics.push(Metric {
            id: "benchledger.cost_of_pass_usd".into(),
            name: "Cost-of-Pass (USD)".into(),
            kind: "cost",
            unit: "usd",
            lower_is_better: true,
            min: json!(0.0),
            max: unbounded(),
            score: cop,
            details: known(f.cost_usd.known),
            uncertainty: None,
            description: "Pooled Cost-of-Pass: total USD / number Correct".into(),
        });
    }
    metrics
}

/// The seat's stored score under each rubric rescored over its wave.
fn score_metrics(seat: &SeatData, scores: &[Scores]) -> Vec<Metric<'static>> {
    let mut metrics = Vec::new();
    for r in scores {
        let Some(s) = r.seats.iter().find(|s| s.score.seat == seat.seat.id) else {
            continue;
        };
        let Some(score) = s.score.score.filter(|x| x.is_finite()) else {
            continue;
        };
        let mut details = Map::new();
        details.insert("rubric_sha256".into(), json!(r.sha256));
        details.insert("relative".into(), json!(r.relative.to_string()));
        if let Some(rank) = s.score.rank {
            details.insert("rank".into(), json!(rank.to_string()));
        }
        for (k, v) in [("gate", &s.score.gate), ("tie", &s.score.tie)] {
            if let Some(v) = v {
                details.insert(k.into(), json!(v));
            }
        }
        for (k, v) in &s.score.factors {
            if v.is_finite() {
                details.insert(format!("factor.{k}"), json!(v.to_string()));
            }
        }
        let bound = |b: Option<f64>, inf: &str| b.map_or(json!(inf), |x| json!(x));
        metrics.push(Metric {
            id: format!("benchledger.rubric.{}", r.id),
            name: r.id.clone(),
            kind: "score",
            unit: "points",
            lower_is_better: false,
            min: bound(r.min, "-Infinity"),
            max: bound(r.max, "Infinity"),
            score,
            details: Value::Object(details),
            uncertainty: None,
            description: if r.relative {
                format!(
                    "Rubric {} (cohort-relative: a rank inside this wave only, never compared \
                     across waves)",
                    r.id
                )
            } else {
                format!(
                    "Rubric {} (benchledger), its text hashed as rubric_sha256",
                    r.id
                )
            },
        });
    }
    metrics
}

/// Each metric as one of the record's `evaluation_results`, with the suite as its source and
/// the wave's conditions as its generation config.
fn evaluation_results(data: &WaveData, metrics: Vec<Metric<'_>>) -> Vec<Value> {
    let w = &data.wave;
    let mut source = Map::new();
    source.insert("dataset_name".into(), json!(w.suite));
    source.insert("source_type".into(), json!("other"));
    if let Some(n) = suite_size(data) {
        source.insert(
            "additional_details".into(),
            json!({ "suite_problems": n.to_string() }),
        );
    }
    let generation = json!({ "additional_details": conditions(data) });
    metrics
        .into_iter()
        .map(|m| {
            let config = json!({
                "evaluation_description": m.description,
                "metric_id": m.id,
                "metric_name": m.name,
                "metric_kind": m.kind,
                "metric_unit": m.unit,
                "lower_is_better": m.lower_is_better,
                "score_type": "continuous",
                "min_score": m.min,
                "max_score": m.max,
            });
            let mut details = json!({ "score": m.score, "details": m.details });
            if let Some(u) = m.uncertainty {
                details["uncertainty"] = u;
            }
            json!({
                "evaluation_result_id": m.id,
                "evaluation_name": w.suite,
                "source_data": Value::Object(source.clone()),
                "evaluation_timestamp": epoch(&w.started_at),
                "metric_config": config,
                "score_details": details,
                "generation_config": generation,
            })
        })
        .map(|mut v| {
            if v["evaluation_timestamp"].is_null()
                && let Some(o) = v.as_object_mut()
            {
                o.remove("evaluation_timestamp");
            }
            v
        })
        .collect()
}

fn aggregate(
    data: &WaveData,
    row: &WaveRow,
    seat: &SeatData,
    scores: &[Scores],
    samples: Option<(&str, &String, usize)>,
) -> String {
    let w = &data.wave;
    let f = SeatFigures::of(w, seat);
    let mut metrics: Vec<Metric<'_>> = accuracy_metric(w, seat, &f).into_iter().collect();
    metrics.extend(absolute_metrics(&f));
    metrics.extend(score_metrics(seat, scores));
    let results = evaluation_results(data, metrics);
    let mut model_details = Map::new();
    model_details.insert("deployment_type".into(), json!("unknown"));
    model_details.insert("model_availability".into(), json!("unknown"));
    model_details.insert("benchledger_seat".into(), json!(seat.seat.id));
    if let Some(c) = &seat.seat.config {
        model_details.insert("benchledger_config".into(), json!(c));
    }
    let mut record = json!({
        "schema_version": SCHEMA_VERSION,
        "evaluation_id": evaluation_id(data, seat),
        "retrieved_timestamp": epoch(&row.ingested_at).unwrap_or_else(|| "0".into()),
        "source_metadata": {
            "source_name": format!("benchledger wave {}", w.id),
            "source_type": "evaluation_run",
            "source_organization_name": "unknown",
            "evaluator_relationship": "other",
            "additional_details": text_map([
                ("producer", Some("benchledger".into())),
                ("wave", Some(w.id.clone())),
                ("wave_content_sha256", Some(row.content.sha256.clone())),
                ("started_at", Some(w.started_at.clone())),
                ("notes", w.notes.clone()),
                ("supersedes", w.supersedes.clone()),
            ]),
        },
        "eval_library": {
            "name": seat.seat.harness,
            "version": w.provenance.harness_version.clone().unwrap_or_else(|| "unknown".into()),
        },
        "model_info": {
            "name": seat.seat.model,
            "id": model_id(seat),
            "developer": seat.seat.provider,
            "additional_details": Value::Object(model_details),
        },
        "evaluation_results": results,
    });
    if let Some(t) = epoch(&w.started_at) {
        record["evaluation_timestamp"] = json!(t);
    }
    if let Some((path, text, rows)) = samples {
        record["detailed_evaluation_results"] = json!({
            "format": "jsonl",
            "file_path": path,
            "hash_algorithm": "sha256",
            "checksum": crate::digest::sha256_hex(text.as_bytes()),
            "total_rows": rows,
        });
    }
    let mut s = serde_json::to_string_pretty(&record).unwrap_or_default();
    s.push('\n');
    s
}

/// The seat's attempts as instance-level rows, one JSON object a line.
fn instance_rows(data: &WaveData, seat: &SeatData) -> String {
    let mut out = String::new();
    let eval_id = evaluation_id(data, seat);
    let model = model_id(seat);
    for a in &seat.attempts {
        let v = instance_row(&eval_id, &model, &data.wave.suite, a);
        out.push_str(&serde_json::to_string(&v).unwrap_or_default());
        out.push('\n');
    }
    out
}

fn instance_row(eval_id: &str, model: &str, suite: &str, a: &Attempt) -> Value {
    let mut meta: BTreeMap<String, String> = BTreeMap::new();
    let mut put = |k: &str, v: Option<String>| {
        if let Some(v) = v {
            meta.insert(format!("{META}{k}"), v);
        }
    };
    let fin = |v: Option<f64>| v.filter(|x| x.is_finite()).map(|x| x.to_string());
    put("cost_usd", fin(a.cost_usd));
    put("errors", a.errors.map(|v| v.to_string()));
    put("working_s", fin(a.working_s));
    put("trial", Some(a.trial.to_string()));
    if a.infra_error {
        put("infra_error", Some("true".into()));
    }
    if a.outcome.is_none() {
        put("outcome", Some("unknown".into()));
    }
    let token_usage = match (a.input_tokens, a.output_tokens) {
        (Some(i), Some(o)) => json!({
            "input_tokens": i,
            "output_tokens": o,
            "total_tokens": i.saturating_add(o),
            "input_tokens_cache_read": a.input_tokens_cache_read,
            "input_tokens_cache_write": a.input_tokens_cache_write,
        }),
        _ => {
            put("input_tokens", a.input_tokens.map(|v| v.to_string()));
            put("output_tokens", a.output_tokens.map(|v| v.to_string()));
            put(
                "input_tokens_cache_read",
                a.input_tokens_cache_read.map(|v| v.to_string()),
            );
            put(
                "input_tokens_cache_write",
                a.input_tokens_cache_write.map(|v| v.to_string()),
            );
            Value::Null
        }
    };
    let score = a
        .outcome
        .filter(|x| x.is_finite())
        .unwrap_or(if a.correct { 1.0 } else { 0.0 });
    json!({
        "schema_version": SCHEMA_VERSION,
        "evaluation_id": eval_id,
        "model_id": model,
        "evaluation_name": suite,
        "evaluation_result_id": ACCURACY_RESULT,
        "sample_id": a.problem,
        "sample_hash": null,
        "interaction_type": "agentic",
        "input": {"raw": "", "reference": []},
        "output": null,
        "messages": [],
        "answer_attribution": [],
        "evaluation": {
            "score": score,
            "is_correct": a.correct,
            "num_turns": null,
            "tool_calls_count": a.steps,
        },
        "token_usage": token_usage,
        "performance": {
            "latency_ms": num(a.wall_s.map(|w| w * 1000.0)),
        },
        "error": a.end_reason,
        "metadata": meta,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_s_uuid_has_the_shape_the_schema_asks_and_is_the_same_every_time() {
        let u = uuid("benchledger/w/s");
        assert_eq!(u, uuid("benchledger/w/s"));
        assert_ne!(u, uuid("benchledger/w/t"));
        let b = u.as_bytes();
        assert_eq!((u.len(), b[14], b[8], b[13]), (36, b'4', b'-', b'-'));
        assert!(matches!(b[19], b'8' | b'9' | b'a' | b'b'));
    }

    #[test]
    fn a_file_name_keeps_ids_readable_and_never_leaves_the_directory() {
        assert_eq!(file_name("rca-wave-1"), "rca-wave-1");
        assert_eq!(file_name("a/b c"), "a_b_c");
        assert_eq!(file_name(".."), "_..");
        assert_eq!(file_name(""), "_");
    }

    #[test]
    fn unknown_tokens_are_null_or_absent_never_zero() {
        let mut a = Attempt::empty();
        a.problem = "p1".into();
        a.trial = 1;
        a.input_tokens = Some(10);
        let v = instance_row("e", "m/x", "s", &a);
        assert!(v["token_usage"].is_null());
        assert_eq!(v["metadata"]["benchledger.input_tokens"], "10");
        assert!(v["metadata"].get("benchledger.output_tokens").is_none());
        a.output_tokens = Some(5);
        let v = instance_row("e", "m/x", "s", &a);
        assert_eq!(v["token_usage"]["total_tokens"], 15);
        assert!(v["token_usage"]["input_tokens_cache_read"].is_null());
        assert!(v["performance"]["latency_ms"].is_null());
    }
}
