//! `lm-eval`: the output of EleutherAI's lm-evaluation-harness run with `--log_samples`: per
//! task a `samples_<task>_<date>.jsonl` (one line per document and filter) beside the run's
//! `results_<date>.json`. A seat reads one task's samples file; the results file beside it
//! (same date) says the task's metric and filter, the suite's size and the model. Fields as
//! lm-evaluation-harness 0.4 writes them (`lm_eval/loggers/evaluation_tracker.py`,
//! `save_results_aggregated`, `save_results_samples`; `lm_eval/evaluator.py`), read in the
//! files themselves (the harness's own output of two real runs, and Every Eval Ever's test
//! data):
//!
//! - `doc_id` → problem (one attempt a document: the task's filter reduces a document's
//!   repeats to one answer, and the metric scores that answer once);
//! - the sample's value of the chosen metric, on the lines of the chosen filter → outcome,
//!   Correct at 1: the task's first metric (`configs[task].metric_list`) and first filter
//!   (`filter_list`, else `none`), or the seat's `scorer = "METRIC,FILTER"`;
//! - `n-samples[task].effective` → the suite's size, so that documents a trimmed samples file
//!   left out are missing, not dropped; `model_name` (else `model=` of `config.model_args`) →
//!   the model; `date` → the start; `lm_eval_version` → the producer's version.
//!
//! Not in the files: tokens, cost, time per document (never 0: unknown).

use std::io::BufRead;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::json::Rec;
use super::object::{describe, syntax};
use super::{About, Imported, Importer, Input, Origin, Record, Source};
use crate::error::{Error, Location, Result};
use crate::model::Attempt;

/// lm-evaluation-harness samples.
pub struct LmEval;

/// A value this close to 1 is Correct.
const SUCCESS: f64 = 1.0 - 1e-6;

impl Importer for LmEval {
    fn name(&self) -> &'static str {
        "lm-eval"
    }

    fn describes(&self) -> &'static str {
        "lm-evaluation-harness samples_<task>_<date>.jsonl with results_<date>.json beside it"
    }

    fn has_scorers(&self) -> bool {
        true
    }

    fn finds(&self, src: &dyn Source, path: &Path) -> bool {
        split(path).is_some_and(|(_, results)| src.is_file(&results))
    }

    fn read(&self, input: &mut Input<'_>) -> Result<Imported> {
        let path = input.path;
        let (task, results_path) = split(path).ok_or_else(|| {
            Error::input(
                Location::file(path),
                "expected a samples file named samples_<task>_<date>.jsonl, as \
                 lm-evaluation-harness names them",
            )
        })?;
        let run = Run::read(input.src, &results_path, &task)?;
        let (metric, filter) = match &input.options.scorer {
            Some(s) => match s.split_once(',') {
                Some((m, f)) => (m.to_string(), f.to_string()),
                None => (s.clone(), run.filter.clone()),
            },
            None => (run.metric.clone(), run.filter.clone()),
        };
        let lines = input.src.open_lines(path).map_err(|e| Error::io(path, e))?;
        let mut records = Vec::new();
        for (i, line) in lines.lines().enumerate() {
            let line = line.map_err(|e| Error::io(path, e))?;
            if line.trim().is_empty() {
                continue;
            }
            let at = Location::line(path, i + 1);
            let v: Value = serde_json::from_str(&line)
                .map_err(|e| Error::input(at.clone(), format!("not JSON: {e}")))?;
            let r = Rec::new(path, format!("line {}", i + 1), &v)?;
            if r.text("filter")?.unwrap_or("none") != filter {
                continue;
            }
            let doc = r.id("doc_id")?;
            let value = match r.get(&metric) {
                Some(Value::Bool(b)) => f64::from(u8::from(*b)),
                Some(x) => match x.as_f64() {
                    Some(x) if (0.0..=1.0).contains(&x) => x,
                    _ => {
                        return Err(r.bad(
                            &metric,
                            format!(
                                "expected a score from 0 to 1, got {}: a metric that is not a \
                                 score cannot decide Correct; choose another with scorer = \
                                 \"METRIC,FILTER\"",
                                describe(x)
                            ),
                        ));
                    }
                },
                None => {
                    return Err(r.bad(
                        &metric,
                        format!("missing: the sample has no value of metric {metric:?}"),
                    ));
                }
            };
            let mut a = Attempt::empty();
            a.problem = doc.clone();
            a.trial = 1;
            a.outcome = Some(value);
            a.correct = value >= SUCCESS;
            records.push(Record {
                at: Origin::Record(format!("line {} (doc {doc}, filter {filter})", i + 1)),
                attempt: a,
                file: None,
            });
            input.progress.advance(1);
        }
        if records.is_empty() {
            return Err(Error::input(
                Location::file(path),
                format!(
                    "no sample of filter {filter:?} (the filters are the task's filter_list; \
                     choose one with scorer = \"{metric},FILTER\")"
                ),
            ));
        }
        Ok(Imported {
            records,
            accounting: None,
            model: run.model,
            about: About {
                suite: Some(task),
                suite_problems: run.effective,
                started_at: run.started_at,
                harness: Some("lm-evaluation-harness".into()),
                producer: Some("lm-evaluation-harness".into()),
                producer_version: run.version,
                ..About::default()
            },
        })
    }
}

/// The task a samples file is of, and the results file beside it.
fn split(path: &Path) -> Option<(String, PathBuf)> {
    let name = path.file_name()?.to_str()?;
    let stem = name.strip_prefix("samples_")?.strip_suffix(".jsonl")?;
    let (task, date) = stem.rsplit_once('_')?;
    (!task.is_empty() && !date.is_empty()).then(|| {
        (
            task.to_string(),
            path.with_file_name(format!("results_{date}.json")),
        )
    })
}

/// What the results file says of one task.
struct Run {
    metric: String,
    filter: String,
    effective: Option<u64>,
    model: Option<String>,
    started_at: Option<String>,
    version: Option<String>,
}

impl Run {
    fn read(src: &dyn Source, path: &Path, task: &str) -> Result<Run> {
        let text = src.read_text(path).map_err(|e| Error::io(path, e))?;
        let v: Value = serde_json::from_str(&text).map_err(|e| syntax(path, &e))?;
        let r = Rec::new(path, "the results", &v)?;
        let config = v.get("configs").and_then(|c| c.get(task)).ok_or_else(|| {
            r.bad(
                &format!("configs.{task}"),
                "missing: the results do not configure the samples' task",
            )
        })?;
        let metric = config
            .pointer("/metric_list/0/metric")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                r.bad(
                    &format!("configs.{task}.metric_list"),
                    "missing: the task names no metric",
                )
            })?
            .to_string();
        let filter = config
            .pointer("/filter_list/0/name")
            .and_then(Value::as_str)
            .unwrap_or("none")
            .to_string();
        let effective = match v.pointer(&format!("/n-samples/{task}/effective")) {
            None | Some(Value::Null) => None,
            Some(n) => Some(n.as_u64().filter(|n| *n > 0).ok_or_else(|| {
                r.bad(
                    &format!("n-samples.{task}.effective"),
                    format!("expected the number of documents, got {}", describe(n)),
                )
            })?),
        };
        let model = r.text("model_name")?.map(str::to_string).or_else(|| {
            let args = v.pointer("/config/model_args")?.as_str()?;
            args.split(',')
                .find_map(|kv| kv.strip_prefix("model=").or(kv.strip_prefix("pretrained=")))
                .map(str::to_string)
        });
        let started_at = r
            .number("date")?
            .and_then(|d| chrono::DateTime::from_timestamp(d.floor() as i64, 0))
            .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
        Ok(Run {
            metric,
            filter,
            effective,
            model,
            started_at,
            version: r.text("lm_eval_version")?.map(str::to_string),
        })
    }
}
