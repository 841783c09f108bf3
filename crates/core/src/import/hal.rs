//! `hal`: a HAL harness upload, the `{run_id}_UPLOAD.json` that hal-harness's
//! `BaseBenchmark.process_results` writes (HAL publishes no schema for it; that function is its
//! definition): one attempt per task, HAL running each task once.
//!
//! - the tasks are those of `results.successful_tasks` (Correct) and `results.failed_tasks`
//!   (not), the benchmark's own verdict; without both lists, the per-task `raw_eval_results`
//!   decide, a `reward` or `score` of 1 being Correct and an `"ERROR: ..."` string not;
//! - `raw_eval_results[task]`: `reward` (else `score`) → outcome, `cost` → cost_usd, an
//!   `"ERROR: ..."` string (the runner's word for a crash or timeout) → end_reason;
//! - `wall_clock_times[task]` → wall_s, else `results.latencies[task]` (seconds, or its
//!   `total_time`); `task_step_counts[task]` → steps;
//! - `raw_logging_results` → tokens, summed per task over its calls, in either of its shapes (a
//!   list of weave call records with `weave_task_id` and `summary.usage`; or an object keyed by
//!   task with `call_metadata[].usage`), each usage read as HAL's own `_normalize_usage` reads
//!   it, so the input counts include cached reads;
//! - `config.agent_args.model_name` → the model.
//!
//! The upload can be large (`raw_logging_results` holds every conversation): it is streamed key
//! by key and `raw_logging_results` entry by entry, keeping per task only the few numbers read.
//! An upload of a prompt-sensitivity run (each task under several prompts) and one written by
//! HAL's Inspect runner (its logs are an Inspect log) are refused, saying why.

pub mod claims;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

use super::json::{Rec, describe};
use super::object::{Part, Take, walk};
use super::tokens::{Tokens, count, sum};
use super::{Imported, Importer, Input, Origin, Record, Stated};
use crate::error::{Error, Location, Result};
use crate::model::Attempt;

/// A HAL harness upload.
pub struct Hal;

/// A reward or score this close to 1 is a success (tau-bench's test; HAL's benchmarks score
/// 0 or 1 where they score per task).
const SUCCESS: f64 = 1.0 - 1e-6;

/// The most of an error string kept as the attempt's end reason.
const ERROR_SHOWN: usize = 80;

impl Importer for Hal {
    fn name(&self) -> &'static str {
        "hal"
    }

    fn describes(&self) -> &'static str {
        "a HAL harness upload (*_UPLOAD.json): tasks, verdicts, times and weave usage"
    }

    fn finds(&self, _: &dyn super::Source, path: &Path) -> bool {
        path.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.ends_with("_UPLOAD.json"))
    }

    fn read(&self, input: &mut Input<'_>) -> Result<Imported> {
        let path = input.path;
        let file = input.src.open(path).map_err(|e| Error::io(path, e))?;
        let mut upload = Upload::default();
        walk(
            path,
            file,
            "a HAL upload: a JSON object with config, results, raw_eval_results and \
             raw_logging_results",
            |key| match key {
                "config" | "results" | "wall_clock_times" | "task_step_counts" => Take::Whole,
                "raw_eval_results" | "raw_logging_results" => Take::Each,
                _ => Take::Skip,
            },
            |key, part| upload.take(path, key, part),
        )?;
        upload.attempts(path, &mut *input.progress)
    }
}

/// What a task's `raw_eval_results` entry says, kept until the verdicts are known.
enum Raw {
    /// An object: its `reward`, `score` and `cost`, unchecked.
    Result {
        reward: Option<Value>,
        score: Option<Value>,
        cost: Option<Value>,
    },
    /// A string: the runner's error, or a benchmark's plain answer.
    Text(String),
    /// Anything else (a list of prompt variations, a number).
    Other,
}

/// What the upload says, gathered key by key in whatever order the keys come.
#[derive(Default)]
struct Upload {
    model: Option<String>,
    about: super::About,
    prompt_sensitivity: bool,
    successful: Option<Vec<String>>,
    failed: Option<Vec<String>>,
    latencies: BTreeMap<String, f64>,
    wall: BTreeMap<String, f64>,
    steps: BTreeMap<String, u32>,
    raw: BTreeMap<String, Raw>,
    /// Whether `raw_eval_results` is an object of per-task entries.
    raw_per_task: bool,
    tokens: BTreeMap<String, Tokens>,
}

impl Upload {
    fn take(&mut self, path: &Path, key: &str, part: Part) -> Result<()> {
        match (key, part) {
            ("config", Part::Whole(v)) => self.config(path, &v),
            ("results", Part::Whole(v)) => self.results(path, &v),
            ("wall_clock_times", Part::Whole(v)) => {
                self.wall = seconds_by_task(path, key, &v)?;
                Ok(())
            }
            ("task_step_counts", Part::Whole(v)) => self.step_counts(path, &v),
            ("raw_eval_results", Part::Entry(task, v)) => {
                self.raw_per_task = true;
                self.raw.insert(task, raw(&v));
                Ok(())
            }
            // A list or a single value is no per-task result (HAL's USACO keeps its own dicts
            // under keys of their own, which the object case takes and the verdicts ignore).
            ("raw_eval_results", _) => Ok(()),
            ("raw_logging_results", Part::Element(i, v)) => self.weave_call(path, i, &v),
            ("raw_logging_results", Part::Entry(task, v)) => self.task_calls(path, task, &v),
            ("raw_logging_results", Part::Whole(Value::Null)) => Ok(()),
            ("raw_logging_results", Part::Whole(Value::String(_))) => Err(Error::input(
                Location::file(path).field("raw_logging_results"),
                "this upload was written by HAL's Inspect runner: its per-sample results are \
                 the Inspect log in raw_eval_results, not weave calls; import the Inspect log \
                 itself",
            )),
            (_, Part::Whole(v)) => Err(Error::input(
                Location::file(path).field(key),
                format!("expected an object or a list, got {}", describe(&v)),
            )),
            // The plan takes no other key a part at a time.
            _ => Ok(()),
        }
    }

    fn config(&mut self, path: &Path, v: &Value) -> Result<()> {
        let r = Rec::new(path, "config", v)?;
        // HAL's CLI turns `-A model_name=a,b` into a list: only a plain name is the model.
        self.model = v
            .pointer("/agent_args/model_name")
            .and_then(Value::as_str)
            .filter(|s| !s.trim().is_empty())
            .map(str::to_string);
        self.prompt_sensitivity = r.boolean("prompt_sensitivity")?.unwrap_or(false);
        let text = |key: &str| {
            v.get(key)
                .and_then(Value::as_str)
                .filter(|s| !s.trim().is_empty())
                .map(str::to_string)
        };
        self.about.suite = text("benchmark_name");
        self.about.harness = text("agent_name");
        self.about.producer = Some("hal-harness".into());
        Ok(())
    }

    fn results(&mut self, path: &Path, v: &Value) -> Result<()> {
        let r = Rec::new(path, "results", v)?;
        let ids = |field: &str| -> Result<Option<Vec<String>>> {
            let Some(list) = r.list(field)? else {
                return Ok(None);
            };
            list.iter()
                .enumerate()
                .map(|(i, id)| match id {
                    Value::String(s) if !s.trim().is_empty() => Ok(s.clone()),
                    Value::Number(n) if n.is_u64() || n.is_i64() => Ok(n.to_string()),
                    _ => Err(r.bad(
                        &format!("{field}[{i}]"),
                        format!("expected a task id, got {}", describe(id)),
                    )),
                })
                .collect::<Result<Vec<_>>>()
                .map(Some)
        };
        self.successful = ids("successful_tasks")?;
        self.failed = ids("failed_tasks")?;
        if let Some(l) = r.get("latencies") {
            let lat = Rec::new(path, "results.latencies", l)?;
            for (task, t) in l.as_object().into_iter().flatten() {
                // HAL writes `{first_call_timestamp, last_call_timestamp, total_time}` per task;
                // older uploads the seconds alone.
                let secs = match t {
                    Value::Object(o) => o.get("total_time").filter(|x| !x.is_null()),
                    Value::Null => None,
                    other => Some(other),
                };
                if let Some(s) = secs {
                    let field = if t.is_object() {
                        format!("{task}.total_time")
                    } else {
                        task.clone()
                    };
                    self.latencies
                        .insert(task.clone(), seconds(&lat, &field, s)?);
                }
            }
        }
        Ok(())
    }

    fn step_counts(&mut self, path: &Path, v: &Value) -> Result<()> {
        let r = Rec::new(path, "task_step_counts", v)?;
        for (task, n) in v.as_object().into_iter().flatten() {
            let steps = n
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| {
                    r.bad(
                        task,
                        format!("expected a number of steps, got {}", describe(n)),
                    )
                })?;
            self.steps.insert(task.clone(), steps);
        }
        Ok(())
    }

    /// One weave call record of the older shape: its task's usage, by model.
    fn weave_call(&mut self, path: &Path, i: usize, v: &Value) -> Result<()> {
        let r = Rec::new(path, format!("raw_logging_results[{i}]"), v)?;
        // A call made outside any task (HAL's own prompt variations) is no attempt's.
        if r.get("weave_task_id").is_none() {
            return Ok(());
        }
        let task = r.id("weave_task_id")?;
        let Some(usage) = r
            .get("summary")
            .and_then(|s| s.get("usage"))
            .filter(|u| !u.is_null())
        else {
            return Ok(());
        };
        // `summary.usage` maps a model to its usage; weave also writes it as a list of such maps.
        let mut tally = Tokens::default();
        let mut per_model = |prefix: String, by_model: &Value| -> Result<()> {
            let Value::Object(models) = by_model else {
                return Err(r.bad(
                    &prefix,
                    format!("expected the usage by model, got {}", describe(by_model)),
                ));
            };
            for (model, u) in models {
                tally.add(normalise(&r, &format!("{prefix}.{model}"), u)?, &r.at())?;
            }
            Ok(())
        };
        match usage {
            Value::Array(list) => {
                for (j, m) in list.iter().enumerate() {
                    per_model(format!("summary.usage[{j}]"), m)?;
                }
            }
            other => per_model("summary.usage".into(), other)?,
        }
        self.tokens.entry(task).or_default().add(tally, &r.at())
    }

    /// One task of the newer shape: the usage of each of its calls.
    fn task_calls(&mut self, path: &Path, task: String, v: &Value) -> Result<()> {
        let r = Rec::new(path, format!("raw_logging_results[{task:?}]"), v)?;
        let mut tally = Tokens::default();
        for (j, call) in r.list("call_metadata")?.into_iter().flatten().enumerate() {
            let field = format!("call_metadata[{j}]");
            let Value::Object(c) = call else {
                return Err(r.bad(
                    &field,
                    format!("expected a call's metadata, got {}", describe(call)),
                ));
            };
            if let Some(u) = c.get("usage").filter(|u| !u.is_null()) {
                tally.add(normalise(&r, &format!("{field}.usage"), u)?, &r.at())?;
            }
        }
        self.tokens.entry(task).or_default().add(tally, &r.at())
    }

    /// The attempts: one per task with a verdict.
    fn attempts(self, path: &Path, progress: &mut dyn super::Progress) -> Result<Imported> {
        let at = |field: &str| Location::file(path).field(field);
        if self.prompt_sensitivity {
            return Err(Error::input(
                at("config.prompt_sensitivity"),
                "this run put each task to the agent under several prompt variations, which \
                 are not trials of one problem; import a run made without --prompt_sensitivity",
            ));
        }
        let verdicts: BTreeMap<String, bool> = match (&self.successful, &self.failed) {
            (Some(ok), Some(failed)) => {
                let ok: BTreeSet<&String> = ok.iter().collect();
                if let Some(both) = failed.iter().find(|t| ok.contains(t)) {
                    return Err(Error::input(
                        at("results.failed_tasks"),
                        format!(
                            "task {both:?} is in both successful_tasks and failed_tasks; a task \
                             has one verdict"
                        ),
                    ));
                }
                let mut v: BTreeMap<String, bool> =
                    failed.iter().map(|t| (t.clone(), false)).collect();
                v.extend(ok.into_iter().map(|t| (t.clone(), true)));
                v
            }
            (Some(_), None) | (None, Some(_)) => {
                let missing = if self.failed.is_none() {
                    "failed_tasks"
                } else {
                    "successful_tasks"
                };
                return Err(Error::input(
                    at(&format!("results.{missing}")),
                    "missing: HAL writes successful_tasks and failed_tasks together; with one \
                     alone the other tasks' verdicts are unknown",
                ));
            }
            (None, None) => self.raw_verdicts(path)?,
        };
        let mut records = Vec::with_capacity(verdicts.len());
        for (task, correct) in verdicts {
            let (outcome, cost, end_reason) = match self.raw.get(&task) {
                Some(raw) => raw_fields(path, &task, raw)?,
                None => (None, None, None),
            };
            let tokens = self.tokens.get(&task).copied().unwrap_or_default();
            let attempt = Attempt {
                problem: task.clone(),
                trial: 1,
                correct,
                outcome,
                input_tokens: tokens.input,
                output_tokens: tokens.output,
                input_tokens_cache_read: tokens.cache_read,
                input_tokens_cache_write: tokens.cache_write,
                wall_s: self
                    .wall
                    .get(&task)
                    .or_else(|| self.latencies.get(&task))
                    .copied(),
                cost_usd: cost,
                steps: self.steps.get(&task).copied(),
                errors: None,
                checklist: None,
                trace: None,
                working_s: None,
                infra_error: false,
                end_reason,
                origin: None,
                texts: None,
            };
            records.push(Record {
                at: Origin::Record(format!("task {task}")),
                attempt,
                file: None,
            });
            progress.advance(1);
        }
        let accounting = records
            .iter()
            .any(|r| r.attempt.input_tokens.is_some())
            .then(|| Stated {
                input_tokens_include_cache_reads: true,
                why: "HAL's usage records are read as HAL's own _normalize_usage reads them: \
                      OpenAI's prompt_tokens include the cached reads, Anthropic's input_tokens \
                      are added to cache_read_input_tokens"
                    .into(),
            });
        Ok(Imported {
            records,
            accounting,
            model: self.model,
            about: self.about,
        })
    }

    /// Verdicts from `raw_eval_results` alone, when `results` has no task lists.
    fn raw_verdicts(&self, path: &Path) -> Result<BTreeMap<String, bool>> {
        if !self.raw_per_task {
            return Err(Error::input(
                Location::file(path).field("results.successful_tasks"),
                "missing, and raw_eval_results holds no per-task results: this upload does not \
                 say which tasks succeeded",
            ));
        }
        let mut verdicts = BTreeMap::new();
        for (task, raw) in &self.raw {
            let (outcome, _, _) = raw_fields(path, task, raw)?;
            let correct = match (raw, outcome) {
                (_, Some(x)) => x > SUCCESS,
                (Raw::Text(_), None) => false,
                _ => {
                    return Err(Error::input(
                        Location::record(path, format!("raw_eval_results[{task:?}]")),
                        "expected the task's result with a reward or score (results has no \
                         successful_tasks and failed_tasks to say whether it succeeded)",
                    ));
                }
            };
            verdicts.insert(task.clone(), correct);
        }
        Ok(verdicts)
    }
}

/// A task's outcome, cost and end reason from its `raw_eval_results` entry.
fn raw_fields(
    path: &Path,
    task: &str,
    raw: &Raw,
) -> Result<(Option<f64>, Option<f64>, Option<String>)> {
    let label = format!("raw_eval_results[{task:?}]");
    let bad = |field: &str, msg: String| {
        Error::input(Location::record(path, label.clone()).field(field), msg)
    };
    match raw {
        Raw::Result {
            reward,
            score,
            cost,
        } => {
            let (field, given) = match (reward, score) {
                (Some(r), _) => ("reward", Some(r)),
                (None, Some(s)) => ("score", Some(s)),
                (None, None) => ("reward", None),
            };
            let outcome = match given {
                None => None,
                Some(v) => match v.as_f64().filter(|x| (0.0..=1.0).contains(x)) {
                    Some(x) => Some(x),
                    None => {
                        return Err(bad(
                            field,
                            format!("expected a {field} from 0 to 1, got {}", describe(v)),
                        ));
                    }
                },
            };
            let cost = match cost {
                None => None,
                Some(v) => match v.as_f64().filter(|x| x.is_finite() && *x >= 0.0) {
                    Some(x) => Some(x),
                    None => {
                        return Err(bad(
                            "cost",
                            format!(
                                "expected the task's cost in US dollars, 0 or more, got {}",
                                describe(v)
                            ),
                        ));
                    }
                },
            };
            Ok((outcome, cost, None))
        }
        Raw::Text(s) if s.trim_start().starts_with("ERROR") => Ok((
            None,
            None,
            Some(s.trim().chars().take(ERROR_SHOWN).collect()),
        )),
        Raw::Text(_) | Raw::Other => Ok((None, None, None)),
    }
}

/// A `raw_eval_results` entry, kept small: only what may become an attempt's.
fn raw(v: &Value) -> Raw {
    let field =
        |o: &serde_json::Map<String, Value>, k: &str| o.get(k).filter(|x| !x.is_null()).cloned();
    match v {
        Value::Object(o) => Raw::Result {
            reward: field(o, "reward"),
            score: field(o, "score"),
            cost: field(o, "cost"),
        },
        Value::String(s) => Raw::Text(s.chars().take(ERROR_SHOWN + 16).collect()),
        _ => Raw::Other,
    }
}

/// One usage record, read as hal-harness's `weave_utils._normalize_usage` reads it: OpenAI's
/// `prompt_tokens` (cached reads inside, `prompt_tokens_details.cached_tokens` of them, no
/// cache writes reported); Anthropic's `input_tokens` plus `cache_read_input_tokens`, with
/// `cache_creation_input_tokens` the writes; Bedrock's `inputTokens` with `cacheReadInputTokens`
/// and `cacheWriteInputTokens`. Output is whichever of `completion_tokens`, `output_tokens`,
/// `outputTokens` is given. A record with none of these keys states no tokens.
fn normalise(r: &Rec<'_>, prefix: &str, u: &Value) -> Result<Tokens> {
    let Value::Object(o) = u else {
        return Err(r.bad(
            prefix,
            format!("expected a usage record, got {}", describe(u)),
        ));
    };
    let n = |key: &str| count(r, &format!("{prefix}.{key}"), o.get(key));
    let has = |a: &str, b: &str| o.contains_key(a) || o.contains_key(b);
    let output = sum(&[
        n("completion_tokens")?,
        n("output_tokens")?,
        n("outputTokens")?,
    ]);
    let t = if has("prompt_tokens", "completion_tokens") {
        let details = o.get("prompt_tokens_details").filter(|d| !d.is_null());
        if let Some(d) = details.filter(|d| !d.is_object()) {
            return Err(r.bad(
                &format!("{prefix}.prompt_tokens_details"),
                format!("expected an object, got {}", describe(d)),
            ));
        }
        Tokens {
            input: n("prompt_tokens")?,
            output,
            cache_read: count(
                r,
                &format!("{prefix}.prompt_tokens_details.cached_tokens"),
                details.and_then(|d| d.get("cached_tokens")),
            )?,
            cache_write: None,
        }
    } else if has("input_tokens", "output_tokens") {
        let read = n("cache_read_input_tokens")?;
        Tokens {
            input: n("input_tokens")?.map(|fresh| fresh.saturating_add(read.unwrap_or(0))),
            output,
            cache_read: read,
            cache_write: n("cache_creation_input_tokens")?,
        }
    } else if has("inputTokens", "outputTokens") {
        Tokens {
            input: n("inputTokens")?,
            output,
            cache_read: n("cacheReadInputTokens")?,
            cache_write: n("cacheWriteInputTokens")?,
        }
    } else {
        Tokens::default()
    };
    Ok(t)
}

/// Seconds, 0 or more.
fn seconds(r: &Rec<'_>, field: &str, v: &Value) -> Result<f64> {
    v.as_f64()
        .filter(|x| x.is_finite() && *x >= 0.0)
        .ok_or_else(|| {
            r.bad(
                field,
                format!("expected seconds, 0 or more, got {}", describe(v)),
            )
        })
}

/// An object of seconds by task (`wall_clock_times`).
fn seconds_by_task(path: &Path, key: &str, v: &Value) -> Result<BTreeMap<String, f64>> {
    let r = Rec::new(path, key, v)?;
    v.as_object()
        .into_iter()
        .flatten()
        .map(|(task, s)| Ok((task.clone(), seconds(&r, task, s)?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::Memory;
    use crate::import::{Options, Quiet};
    use serde_json::json;

    /// A change that spoils a good input.
    type Break = fn(&mut Value);

    fn read(v: &Value) -> Result<Imported> {
        let src = Memory::new().with("u.json", v.to_string());
        Hal.read(&mut Input {
            src: &src,
            path: Path::new("u.json"),
            options: &Options::default(),
            progress: &mut Quiet,
        })
    }

    fn by_task(got: &Imported) -> BTreeMap<&str, &Attempt> {
        got.records
            .iter()
            .map(|r| (r.attempt.problem.as_str(), &r.attempt))
            .collect()
    }

    /// An upload of the newer shape, in HAL's key order.
    fn newer() -> Value {
        json!({
            "config": {"agent_name": "a", "benchmark_name": "taubench_airline",
                       "agent_args": {"model_name": "gpt-4.1-2025-04-14"},
                       "prompt_sensitivity": false},
            "results": {"accuracy": 0.5, "successful_tasks": ["0"], "failed_tasks": ["1", "2"],
                        "total_cost": 0.1,
                        "latencies": {"0": {"first_call_timestamp": "x", "last_call_timestamp": "y",
                                            "total_time": 30.5},
                                      "1": {"total_time": 12.0}}},
            "raw_eval_results": {"0": {"reward": 1.0, "task": {}}, "1": {"reward": 0.0},
                                 "2": "ERROR: Task timed out after 2700 seconds"},
            "raw_logging_results": {
                "0": {"messages": [{"role": "user", "content": "hi"}],
                      "call_metadata": [
                          {"usage": {"prompt_tokens": 1000, "completion_tokens": 50,
                                     "prompt_tokens_details": {"cached_tokens": 800}}},
                          {"usage": {"prompt_tokens": 1200, "completion_tokens": 70,
                                     "prompt_tokens_details": null}},
                          {"usage": null}],
                      "model": "gpt-4.1", "call_count": 3},
                "1": {"call_metadata": [{"usage": {"input_tokens": 100, "output_tokens": 10,
                                                   "cache_read_input_tokens": 400,
                                                   "cache_creation_input_tokens": 30}}]},
                "9": {"call_metadata": [{"usage": {"prompt_tokens": 5, "completion_tokens": 1}}]}
            },
            "task_prompts": {"0": "book a flight"},
            "total_usage": {}, "total_cost": 0.1, "git_info": {}, "agent_hash": null,
            "wall_clock_times": {"0": 41.25, "2": 2700.0},
            "task_step_counts": {"0": 7}
        })
    }

    #[test]
    fn the_newer_shape_gives_one_attempt_per_listed_task() {
        let got = read(&newer()).unwrap();
        assert_eq!(got.model.as_deref(), Some("gpt-4.1-2025-04-14"));
        assert!(
            got.accounting
                .as_ref()
                .unwrap()
                .input_tokens_include_cache_reads
        );
        let a = by_task(&got);
        assert_eq!(a.keys().copied().collect::<Vec<_>>(), ["0", "1", "2"]);
        let t0 = a["0"];
        assert!(t0.correct && t0.trial == 1);
        assert_eq!(t0.outcome, Some(1.0));
        // Calls: 1000 + 1200 in, 50 + 70 out, 800 cached (the second call states none).
        assert_eq!(
            (
                t0.input_tokens,
                t0.output_tokens,
                t0.input_tokens_cache_read
            ),
            (Some(2200), Some(120), Some(800))
        );
        assert_eq!(t0.input_tokens_cache_write, None);
        assert_eq!(
            (t0.wall_s, t0.steps, t0.errors),
            (Some(41.25), Some(7), None)
        );
        let t1 = a["1"];
        assert!(!t1.correct);
        // Anthropic-style: 100 fresh + 400 cached = 500 in.
        assert_eq!(
            (
                t1.input_tokens,
                t1.input_tokens_cache_read,
                t1.input_tokens_cache_write
            ),
            (Some(500), Some(400), Some(30))
        );
        assert_eq!(t1.wall_s, Some(12.0), "no wall clock time: the latency");
        let t2 = a["2"];
        assert_eq!(
            t2.end_reason.as_deref(),
            Some("ERROR: Task timed out after 2700 seconds")
        );
        assert_eq!(
            (t2.outcome, t2.input_tokens, t2.wall_s),
            (None, None, Some(2700.0))
        );
        assert_eq!(t2.cost_usd, None, "HAL prices whole runs, not tasks");
        assert_eq!(got.records[2].at, Origin::Record("task 2".into()));
    }

    #[test]
    fn the_older_shape_sums_weave_calls_by_task_and_model() {
        let mut u = newer();
        u["raw_logging_results"] = json!([
            {"weave_task_id": "0", "id": "c1", "inputs": {}, "outputs": [],
             "summary": {"usage": {"claude-3-7-sonnet-20250219":
                 {"requests": 1, "input_tokens": 10, "output_tokens": 5,
                  "cache_read_input_tokens": 90, "cache_creation_input_tokens": 20}}}},
            {"weave_task_id": 0, "summary": {"usage": [
                {"gpt-4o": {"prompt_tokens": 300, "completion_tokens": 30}},
                {"amazon.nova-pro-v1:0": {"inputTokens": 40, "outputTokens": 4,
                                          "cacheReadInputTokens": 8}}]}},
            {"weave_task_id": "1", "summary": {}},
            {"id": "no task", "summary": {"usage": {"gpt-4o": {"prompt_tokens": 9}}}}
        ]);
        u["raw_eval_results"]["0"]["cost"] = json!(0.0125);
        u["results"]["latencies"] = json!({"0": 30.5, "1": null});
        let got = read(&u).unwrap();
        let a = by_task(&got);
        let t0 = a["0"];
        // 10 + 90, 300, 40 in; 5 + 30 + 4 out; 90 + 8 cached; 20 written.
        assert_eq!(
            (
                t0.input_tokens,
                t0.output_tokens,
                t0.input_tokens_cache_read,
                t0.input_tokens_cache_write
            ),
            (Some(440), Some(39), Some(98), Some(20))
        );
        assert_eq!(t0.cost_usd, Some(0.0125));
        assert_eq!(
            t0.wall_s,
            Some(41.25),
            "the wall clock time wins over the latency"
        );
        let t1 = a["1"];
        assert_eq!(t1.input_tokens, None, "a call without usage states none");
        assert_eq!(t1.wall_s, None, "a latency of null is unknown");
    }

    #[test]
    fn without_task_lists_the_raw_results_decide() {
        let mut u = newer();
        u["results"] = json!({"accuracy": 0.5});
        let got = read(&u).unwrap();
        let a = by_task(&got);
        assert_eq!(
            a.iter().map(|(t, a)| (*t, a.correct)).collect::<Vec<_>>(),
            [("0", true), ("1", false), ("2", false)]
        );
        // With the lists, they win over the raw results.
        let mut u = newer();
        u["results"]["successful_tasks"] = json!(["1"]);
        u["results"]["failed_tasks"] = json!(["0", "2"]);
        let a = read(&u).unwrap();
        let a = by_task(&a);
        assert!(a["1"].correct && !a["0"].correct);
        assert_eq!(
            a["0"].outcome,
            Some(1.0),
            "the raw reward is still the outcome"
        );
    }

    #[test]
    fn a_bad_upload_is_named() {
        let cases: Vec<(Break, &str)> = vec![
            (
                (|u| u["raw_eval_results"]["1"]["reward"] = json!(3)),
                "u.json: raw_eval_results[\"1\"]: field `reward`: expected a reward from 0 to 1, got 3",
            ),
            (
                (|u| u["raw_eval_results"]["0"]["cost"] = json!("free")),
                "u.json: raw_eval_results[\"0\"]: field `cost`: expected the task's cost in US \
                 dollars, 0 or more, got the string \"free\"",
            ),
            (
                (|u| {
                    u["raw_logging_results"]["0"]["call_metadata"][1]["usage"]["completion_tokens"] =
                        json!(-4)
                }),
                "u.json: raw_logging_results[\"0\"]: field `call_metadata[1].usage.completion_tokens`: \
                 expected a token count (a whole number, 0 or more), got -4",
            ),
            (
                (|u| u["wall_clock_times"]["2"] = json!("long")),
                "u.json: wall_clock_times: field `2`: expected seconds, 0 or more, got the string \"long\"",
            ),
            (
                (|u| u["results"]["failed_tasks"] = json!(["1", "0"])),
                "u.json: field `results.failed_tasks`: task \"0\" is in both successful_tasks and failed_tasks",
            ),
            (
                (|u| {
                    u["results"].as_object_mut().unwrap().remove("failed_tasks");
                }),
                "u.json: field `results.failed_tasks`: missing",
            ),
            (
                (|u| u["results"]["successful_tasks"] = json!([{"id": 0}])),
                "u.json: results: field `successful_tasks[0]`: expected a task id, got an object",
            ),
            (
                (|u| u["config"]["prompt_sensitivity"] = json!(true)),
                "u.json: field `config.prompt_sensitivity`: this run put each task to the agent under \
                 several prompt variations",
            ),
            (
                (|u| {
                    u["raw_logging_results"] =
                        json!("Inspect logs are contained in raw_eval_results")
                }),
                "u.json: field `raw_logging_results`: this upload was written by HAL's Inspect runner",
            ),
            (
                (|u| {
                    u["results"] = json!({});
                    u["raw_eval_results"] = json!({"rdict": {"a": 1}});
                }),
                "u.json: raw_eval_results[\"rdict\"]: expected the task's result with a reward or score",
            ),
        ];
        for (break_it, says) in cases {
            let mut u = newer();
            break_it(&mut u);
            let e = read(&u).unwrap_err().to_string();
            assert!(e.starts_with(says), "{e}\n  expected: {says}");
        }
        let e = read(&json!([1])).unwrap_err().to_string();
        assert!(e.starts_with("u.json:1: not the JSON this format expects: invalid type: sequence, expected a HAL upload"), "{e}");
    }

    #[test]
    fn an_upload_without_usage_states_no_accounting() {
        let mut u = newer();
        u["raw_logging_results"] = json!({});
        let got = read(&u).unwrap();
        assert_eq!(got.accounting, None);
        assert!(got.records.iter().all(|r| r.attempt.input_tokens.is_none()));
    }
}
