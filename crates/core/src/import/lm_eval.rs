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
//! A group (`group_subtasks`: `mmlu_pro_plus` of fourteen subjects) is read whole when the seat
//! names the run's results file and `group = "NAME"`: every subtask under it (through nested
//! groups) with its own metric and filter, each document a problem `<subtask>/<doc_id>`, the
//! suite the group and its size the subtasks' `effective` summed; a subtask whose samples file
//! is absent has all its documents missing.
//!
//! - the first request's prompt, `target` and the filtered response (a generation's) → the
//!   attempt's texts, each cut to 4,000 characters.
//!
//! Not in the files: tokens, cost, time per document (never 0: unknown).

pub mod claims;

use std::io::BufRead;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::json::{Rec, Shape};
use super::object::describe;
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

    fn has_groups(&self) -> bool {
        true
    }

    fn group_of(&self, src: &dyn Source, path: &Path) -> Option<(PathBuf, String)> {
        let (task, results) = split(path)?;
        let v = super::json::shaped_file(src, &results, GROUPS).ok()?;
        let groups = v.get("group_subtasks")?.as_object()?;
        // The outermost group holding the task: climb while a group holds the one found.
        let holder = |t: &str| {
            groups
                .iter()
                .find(|(_, subs)| {
                    subs.as_array()
                        .is_some_and(|a| a.iter().any(|x| x.as_str() == Some(t)))
                })
                .map(|(g, _)| g.clone())
        };
        let mut group = holder(&task)?;
        for _ in 0..groups.len() {
            match holder(&group) {
                Some(outer) => group = outer,
                None => break,
            }
        }
        Some((results, group))
    }

    fn read(&self, input: &mut Input<'_>) -> Result<Imported> {
        let path = input.path;
        if let Some(date) = results_date(path) {
            return read_group(input, &date);
        }
        let (task, results_path) = split(path).ok_or_else(|| {
            Error::input(
                Location::file(path),
                "expected a samples file named samples_<task>_<date>.jsonl (or, with group = \
                 \"NAME\", the run's results_<date>.json), as lm-evaluation-harness names them",
            )
        })?;
        if input.options.group.is_some() {
            return Err(Error::input(
                Location::file(path),
                "a group is read from the run's results_<date>.json: name that file as the \
                 seat's results, or drop group to read this one task",
            ));
        }
        let v = parse_results(input.src, &results_path)?;
        let run = Run::of(&v, &results_path, &task)?;
        let (metric, filter) = chosen(input.options, &run);
        let mut records = Vec::new();
        samples(input, path, None, (&metric, &filter), &mut records)?;
        Ok(imported(
            records,
            task,
            run.effective,
            Head::of(&v, &results_path)?,
        ))
    }
}

/// The metric and filter the seat's `scorer` chooses, else the task's first.
fn chosen(options: &super::Options, run: &Run) -> (String, String) {
    match &options.scorer {
        Some(s) => match s.split_once(',') {
            Some((m, f)) => (m.to_string(), f.to_string()),
            None => (s.clone(), run.filter.clone()),
        },
        None => (run.metric.clone(), run.filter.clone()),
    }
}

fn imported(records: Vec<Record>, suite: String, effective: Option<u64>, head: Head) -> Imported {
    Imported {
        records,
        accounting: None,
        model: head.model,
        about: About {
            suite: Some(suite),
            suite_problems: effective,
            started_at: head.started_at,
            harness: Some("lm-evaluation-harness".into()),
            producer: Some("lm-evaluation-harness".into()),
            producer_version: head.version,
            ..About::default()
        },
    }
}

/// The samples of one task's file, on the lines of `filter`, scored by `metric`; each
/// document's problem is its `doc_id`, after `prefix/` for a subtask of a group.
fn samples(
    input: &mut Input<'_>,
    path: &Path,
    prefix: Option<&str>,
    (metric, filter): (&str, &str),
    records: &mut Vec<Record>,
) -> Result<()> {
    let before = records.len();
    let lines = input.src.open_lines(path).map_err(|e| Error::io(path, e))?;
    for (i, line) in lines.lines().enumerate() {
        let line = line.map_err(|e| Error::io(path, e))?;
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = super::json::strict_line(path, i + 1, &line)?;
        let r = Rec::new(path, format!("line {}", i + 1), &v)?;
        if r.text("filter")?.unwrap_or("none") != filter {
            continue;
        }
        let doc = r.id("doc_id")?;
        let value = match r.get(metric) {
            Some(Value::Bool(b)) => f64::from(u8::from(*b)),
            Some(x) => match x.as_f64() {
                Some(x) if (0.0..=1.0).contains(&x) => x,
                _ => {
                    return Err(r.bad(
                        metric,
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
                    metric,
                    format!("missing: the sample has no value of metric {metric:?}"),
                ));
            }
        };
        let mut a = Attempt::empty();
        a.problem = match prefix {
            Some(p) => format!("{p}/{doc}"),
            None => doc.clone(),
        };
        a.trial = 1;
        a.outcome = Some(value);
        a.correct = value >= SUCCESS;
        a.texts = texts(&v);
        let of = prefix.map(|p| format!("{p}, ")).unwrap_or_default();
        records.push(Record {
            at: Origin::Record(format!("line {} ({of}doc {doc}, filter {filter})", i + 1)),
            attempt: a,
            file: None,
        });
        input.progress.advance(1);
    }
    if records.len() == before {
        return Err(Error::input(
            Location::file(path),
            format!(
                "no sample of filter {filter:?} (the filters are the task's filter_list; \
                 choose one with scorer = \"{metric},FILTER\")"
            ),
        ));
    }
    Ok(())
}

/// A sample line's texts: the prompt (the first request's first argument: `arguments` as
/// `{"gen_args_0": {"arg_0": PROMPT, …}}`, or as `[[PROMPT, …], …]` before 0.4.3; a chat
/// model's as its messages), the
/// `target` (a string, a number such as a choice's index, or a list one per line) and the
/// filtered response when it is text (a generation's; a multiple-choice task's responses are
/// log-likelihoods, not an answer in words, and are not kept).
fn texts(v: &Value) -> Option<crate::model::AttemptTexts> {
    let first_request = match v.get("arguments") {
        Some(Value::Object(o)) => o
            .get("gen_args_0")
            .or_else(|| o.values().next())
            .and_then(|g| g.get("arg_0")),
        Some(Value::Array(a)) => a.first().and_then(|r| r.get(0)),
        _ => None,
    };
    // A chat model's request is its messages, as a list holding their JSON (written by
    // `apply_chat_template`): shown as "role: content", a blank line between.
    let input = match first_request {
        Some(Value::String(t)) => Some(t.clone()),
        Some(Value::Array(a)) => a.first().and_then(Value::as_str).map(|t| {
            match serde_json::from_str::<Vec<serde_json::Map<String, Value>>>(t) {
                Ok(messages) if !messages.is_empty() => messages
                    .iter()
                    .map(|m| {
                        let role = m.get("role").and_then(Value::as_str).unwrap_or("message");
                        let content = m.get("content").and_then(Value::as_str).unwrap_or("");
                        format!("{role}: {content}")
                    })
                    .collect::<Vec<_>>()
                    .join("\n\n"),
                _ => t.to_string(),
            }
        }),
        _ => None,
    };
    let scalar = |x: &Value| match x {
        Value::String(t) => Some(t.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    };
    let target = match v.get("target") {
        Some(Value::Array(ts)) => {
            let all: Vec<String> = ts.iter().filter_map(scalar).collect();
            (!all.is_empty()).then(|| all.join("\n"))
        }
        Some(x) => scalar(x),
        None => None,
    };
    let answer = match v.get("filtered_resps") {
        Some(Value::Array(r)) => r.first().and_then(Value::as_str).map(str::to_string),
        Some(Value::String(t)) => Some(t.clone()),
        _ => None,
    };
    crate::model::AttemptTexts::capped(input, target, answer, None)
}

/// A group read whole from the run's results file (`group = "NAME"`): every subtask under it,
/// each from its samples file beside the results.
fn read_group(input: &mut Input<'_>, date: &str) -> Result<Imported> {
    let path = input.path;
    let v = parse_results(input.src, path)?;
    let Some(group) = input.options.group.clone() else {
        return Err(Error::input(
            Location::file(path).field("group"),
            "missing: a results file is read as a group's (give the seat group = \"NAME\", a \
             group of its group_subtasks), or name one task's samples_<task>_<date>.jsonl",
        ));
    };
    let tasks = subtasks(&v, path, &group)?;
    let mut records = Vec::new();
    let mut effective = Some(0u64);
    let mut read = 0;
    for task in &tasks {
        let run = Run::of(&v, path, task)?;
        effective = effective.zip(run.effective).map(|(a, b)| a + b);
        let file = path.with_file_name(format!("samples_{task}_{date}.jsonl"));
        if !input.src.is_file(&file) {
            // Its documents are missing: the suite's size counts them.
            continue;
        }
        read += 1;
        let (metric, filter) = chosen(input.options, &run);
        samples(input, &file, Some(task), (&metric, &filter), &mut records)?;
    }
    if read == 0 {
        return Err(Error::input(
            Location::file(path).field(format!("group_subtasks.{group}")),
            format!(
                "no samples file of any of the group's {} subtasks beside the results \
                 (samples_<task>_{date}.jsonl; the run logs them with --log_samples)",
                tasks.len()
            ),
        ));
    }
    Ok(imported(records, group, effective, Head::of(&v, path)?))
}

/// The tasks under `group`, through nested groups, in the results' order.
/// The tasks under `group` of a results file (`v`, read from `path`), through nested groups,
/// in the results' order; an error names a group the results do not have.
pub(crate) fn subtasks(v: &Value, path: &Path, group: &str) -> Result<Vec<String>> {
    let r = Rec::new(path, "the results", v)?;
    let groups = v
        .get("group_subtasks")
        .and_then(Value::as_object)
        .ok_or_else(|| r.bad("group_subtasks", "missing: the results name no groups"))?;
    let named: Vec<&str> = groups
        .iter()
        .filter(|(_, subs)| subs.as_array().is_some_and(|a| !a.is_empty()))
        .map(|(g, _)| g.as_str())
        .collect();
    if !named.contains(&group) {
        return Err(r.bad(
            &format!("group_subtasks.{group}"),
            format!(
                "missing: the results have no group {group:?}; their groups are: {}",
                if named.is_empty() {
                    "none".to_string()
                } else {
                    named.join(", ")
                }
            ),
        ));
    }
    let mut out = Vec::new();
    let mut stack = vec![group.to_string()];
    let mut seen = std::collections::BTreeSet::new();
    while let Some(g) = stack.pop() {
        if !seen.insert(g.clone()) {
            continue;
        }
        let subs = groups.get(&g).and_then(Value::as_array);
        match subs {
            Some(subs) if !subs.is_empty() => {
                for s in subs.iter().rev() {
                    let s = s.as_str().ok_or_else(|| {
                        r.bad(
                            &format!("group_subtasks.{g}"),
                            format!("expected task names, got {}", describe(s)),
                        )
                    })?;
                    stack.push(s.to_string());
                }
            }
            _ => out.push(g),
        }
    }
    Ok(out)
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

/// The date of a results file, `results_<date>.json`.
fn results_date(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let date = name.strip_prefix("results_")?.strip_suffix(".json")?;
    (!date.is_empty()).then(|| date.to_string())
}

/// What is read of a results file to find the group a task is in.
const GROUPS: Shape = Shape::Fields(&[("group_subtasks", Shape::Whole)]);

/// What is read of a task's configuration: its first metric and filter are what is used.
const CONFIG: Shape = Shape::Fields(&[
    (
        "metric_list",
        Shape::Each(&Shape::Fields(&[("metric", Shape::Whole)])),
    ),
    (
        "filter_list",
        Shape::Each(&Shape::Fields(&[("name", Shape::Whole)])),
    ),
]);

/// What is read of a results file, by the importer and by [`claims`]: the model, the date and
/// version, the groups, each task's metric, filter and document count, and the figures
/// (`results`). The rest (each task's whole configuration, with its prompts and few-shot
/// examples, samples a file may carry) is skipped unread.
const RESULTS: Shape = Shape::Fields(&[
    ("results", Shape::Whole),
    ("model_name", Shape::Whole),
    ("config", Shape::Fields(&[("model_args", Shape::Whole)])),
    ("date", Shape::Whole),
    ("lm_eval_version", Shape::Whole),
    ("group_subtasks", Shape::Whole),
    ("configs", Shape::Each(&CONFIG)),
    (
        "n-samples",
        Shape::Each(&Shape::Fields(&[("effective", Shape::Whole)])),
    ),
]);

/// The results file, streamed: what [`RESULTS`] names (issue 34.3: read as a document, a
/// results file grew about twelve times its size in memory).
fn parse_results(src: &dyn Source, path: &Path) -> Result<Value> {
    super::json::shaped_file(src, path, RESULTS)
}

/// What the results file says of the run.
struct Head {
    model: Option<String>,
    started_at: Option<String>,
    version: Option<String>,
}

impl Head {
    fn of(v: &Value, path: &Path) -> Result<Head> {
        let r = Rec::new(path, "the results", v)?;
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
        Ok(Head {
            model,
            started_at,
            version: r.text("lm_eval_version")?.map(str::to_string),
        })
    }
}

/// What the results file says of one task.
struct Run {
    metric: String,
    filter: String,
    effective: Option<u64>,
}

impl Run {
    fn of(v: &Value, path: &Path, task: &str) -> Result<Run> {
        let r = Rec::new(path, "the results", v)?;
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
        Ok(Run {
            metric,
            filter,
            effective,
        })
    }
}
