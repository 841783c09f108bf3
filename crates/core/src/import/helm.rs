//! `helm`: a HELM run directory (stanford-crfm/helm, `benchmark_output/runs/<suite>/<run>/`):
//! `per_instance_stats.json` (one entry per instance and train trial, with its stats) beside
//! `run_spec.json`. Fields as HELM writes them (`helm/benchmark/metrics/metric.py`,
//! `PerInstanceStats`; `helm/benchmark/metrics/statistic.py`, `Stat`; `run_spec.py`), read in
//! two real run directories of Every Eval Ever's test data:
//!
//! - `instance_id` → problem, `train_trial_index + 1` → attempt;
//! - the run's main metric on its evaluated split, unperturbed: its `sum / count` → outcome,
//!   Correct at 1. The run directory does not say which metric is main: `exact_match` where
//!   the instances have it, else the seat's `scorer = "METRIC"` (`--scorer` with `--from`);
//! - `num_prompt_tokens`, `num_completion_tokens` → input and output tokens;
//!   `inference_runtime` → wall seconds;
//! - `run_spec.json`: `adapter_spec.model` → the model; its `name` without `model=` → the
//!   suite;
//! - `scenario_state.json`, when beside them: each unperturbed request state's instance input,
//!   its correct references and the first completion (a multiple-choice letter with the
//!   option it maps to) → the attempt's texts, each cut to 4,000 characters; streamed, a
//!   request state at a time.
//!
//! The evaluated split is `test` where its instances have the metric, else the split whose
//! instances do (a run evaluated on `valid` alone, as HELM's HellaSwag runs are; a note says
//! so). Instances of other splits and perturbed copies (robustness, fairness) are left out:
//! HELM reports each apart, and its headline figure is the unperturbed evaluated split. An
//! instance of the evaluated split without the metric (absent, or counted 0 times) is refused,
//! naming it: leaving it out would change the seat's accuracy without a word.

pub mod claims;

use std::path::Path;

use serde_json::Value;

use super::json::{Rec, Shape, each_in_array};

use super::{About, Imported, Importer, Input, Origin, Record, Source};
use crate::error::{Error, Hint, Location, Result};
use crate::model::{Attempt, AttemptTexts};

/// A HELM run directory.
pub struct Helm;

const SUCCESS: f64 = 1.0 - 1e-6;
const DEFAULT_METRIC: &str = "exact_match";
/// The split HELM's headline figures are of, chosen when its instances have the metric.
const SPLIT: &str = "test";

impl Importer for Helm {
    fn name(&self) -> &'static str {
        "helm"
    }

    fn describes(&self) -> &'static str {
        "a HELM run directory's per_instance_stats.json, with run_spec.json beside it"
    }

    fn has_scorers(&self) -> bool {
        true
    }

    fn finds(&self, src: &dyn Source, path: &Path) -> bool {
        path.file_name().and_then(|n| n.to_str()) == Some("per_instance_stats.json")
            && src.is_file(&path.with_file_name("run_spec.json"))
    }

    fn read(&self, input: &mut Input<'_>) -> Result<Imported> {
        let path = input.path;
        let metric = input
            .options
            .scorer
            .clone()
            .unwrap_or_else(|| DEFAULT_METRIC.into());
        // Two passes over a stream, an entry held at a time (the file is never held whole, nor
        // as a document): the split that holds the metric, then the attempts of that split.
        let open = || input.src.open(path).map_err(|e| Error::io(path, e));
        let mut splits = Splits::default();
        let entries = each_in_array(path, open()?, |_, e| {
            splits.add(&e, &metric);
            Ok(())
        })?;
        let split = splits.evaluated(path, &metric)?;
        input.progress.total(entries as u64);
        let mut records = Vec::new();
        let progress = &mut *input.progress;
        each_in_array(path, open()?, |i, e| {
            if let Some(a) = instance(path, i, &e, &metric, &split)? {
                records.push(Record {
                    at: Origin::Record(format!(
                        "entry {} (instance {} trial {})",
                        i + 1,
                        a.problem,
                        a.trial
                    )),
                    attempt: a,
                    file: None,
                });
            }
            progress.advance(1);
            Ok(())
        })?;
        let mut texts = texts(
            input.src,
            &path.with_file_name("scenario_state.json"),
            &split,
        )?;
        for r in &mut records {
            r.attempt.texts = texts.remove(&(r.attempt.problem.clone(), r.attempt.trial));
        }
        let (model, mut about) = run_spec(input.src, &path.with_file_name("run_spec.json"))?;
        if split != SPLIT {
            about.notes.push((
                "",
                format!(
                    "no instance of the {SPLIT} split has {metric}: the run was evaluated on the \
                     {split} split, whose instances are read"
                ),
            ));
        }
        Ok(Imported {
            records,
            accounting: None,
            model,
            about,
        })
    }
}

/// The texts of the run's instances on `split`, by instance id and trial, from its
/// `scenario_state.json` (`path`) when there: streamed, a request state at a time. A state of
/// a perturbed instance, of another split or for one reference alone (a multiple-choice
/// method that asks once per option) gives none.
fn texts(
    src: &dyn Source,
    path: &Path,
    split: &str,
) -> Result<std::collections::HashMap<(String, u32), AttemptTexts>> {
    let mut out = std::collections::HashMap::new();
    if !src.is_file(path) {
        return Ok(out);
    }
    let file = src.open(path).map_err(|e| Error::io(path, e))?;
    super::object::walk(
        path,
        file,
        "HELM's scenario state, a JSON object with its request_states",
        |key| match key {
            "request_states" => super::object::Take::Elements,
            _ => super::object::Take::Skip,
        },
        |_, part| {
            if let super::object::Part::Element(_, state) = part
                && let Some((key, t)) = state_texts(&state, split)
            {
                out.entry(key).or_insert(t);
            }
            Ok(())
        },
    )?;
    Ok(out)
}

/// One request state's texts, keyed by its instance's id and trial (see [`texts`]).
fn state_texts(s: &Value, split: &str) -> Option<((String, u32), AttemptTexts)> {
    let instance = s.get("instance")?;
    if instance.get("perturbation").is_some_and(|p| !p.is_null())
        || instance.get("split").and_then(Value::as_str) != Some(split)
        || s.get("reference_index").is_some_and(|r| !r.is_null())
    {
        return None;
    }
    let id = instance.get("id")?.as_str()?.to_string();
    let trial = u32::try_from(
        s.get("train_trial_index")
            .and_then(Value::as_u64)
            .unwrap_or(0),
    )
    .ok()?
    .checked_add(1)?;
    let input = instance
        .get("input")
        .and_then(|i| i.get("text"))
        .and_then(Value::as_str)
        .map(str::to_string);
    let correct: Vec<&str> = instance
        .get("references")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|r| {
            r.get("tags")
                .and_then(Value::as_array)
                .is_some_and(|t| t.iter().any(|x| x == "correct"))
        })
        .filter_map(|r| r.get("output")?.get("text")?.as_str())
        .collect();
    let target = (!correct.is_empty()).then(|| correct.join("\n"));
    let answer = s
        .get("result")
        .and_then(|r| r.get("completions"))
        .and_then(|c| c.get(0))
        .and_then(|c| c.get("text"))
        .and_then(Value::as_str)
        .map(|completion| {
            let mapped = s
                .get("output_mapping")
                .and_then(|m| m.get(completion.trim()))
                .and_then(Value::as_str);
            match mapped {
                Some(option) => format!("{} ({option})", completion.trim()),
                None => completion.to_string(),
            }
        });
    Some((
        (id, trial),
        AttemptTexts::capped(input, target, answer, None)?,
    ))
}

/// What is read of `run_spec.json`: its name and the adapter's model. The rest (the scenario's
/// arguments, the adapter's instructions and prompts, the metric specs) is skipped unread.
const RUN_SPEC: Shape = Shape::Fields(&[
    ("name", Shape::Whole),
    ("adapter_spec", Shape::Fields(&[("model", Shape::Whole)])),
]);

/// The mean of a stat of `split`, unperturbed, when the entry has it.
fn stat(r: &Rec<'_>, stats: &[Value], name: &str, split: &str) -> Result<Option<f64>> {
    for s in stats {
        let n = s.get("name");
        if n.and_then(|n| n.get("name")).and_then(Value::as_str) != Some(name)
            || n.and_then(|n| n.get("split")).and_then(Value::as_str) != Some(split)
            || n.and_then(|n| n.get("perturbation"))
                .is_some_and(|p| !p.is_null())
        {
            continue;
        }
        let count = s.get("count").and_then(Value::as_f64).unwrap_or(0.0);
        if count == 0.0 {
            return Ok(None);
        }
        let sum = s.get("sum").and_then(Value::as_f64).ok_or_else(|| {
            r.bad(
                &format!("stats.{name}.sum"),
                "expected a number beside its count",
            )
        })?;
        return Ok(Some(sum / count));
    }
    Ok(None)
}

/// The split an entry's unperturbed stats are of (HELM gives each instance one), `None` for a
/// perturbed entry or one with no stats.
fn split_of(e: &Value) -> Option<&str> {
    if e.get("perturbation").is_some_and(|p| !p.is_null()) {
        return None;
    }
    e.get("stats")?.as_array()?.iter().find_map(|s| {
        let n = s.get("name")?;
        if n.get("perturbation").is_some_and(|p| !p.is_null()) {
            return None;
        }
        n.get("split")?.as_str()
    })
}

/// Whether an entry has `metric` on `split`, unperturbed, counted at least once.
fn has_metric(e: &Value, metric: &str, split: &str) -> bool {
    e.get("stats")
        .and_then(Value::as_array)
        .is_some_and(|stats| {
            stats.iter().any(|s| {
                let n = s.get("name");
                n.and_then(|n| n.get("name")).and_then(Value::as_str) == Some(metric)
                    && n.and_then(|n| n.get("split")).and_then(Value::as_str) == Some(split)
                    && n.and_then(|n| n.get("perturbation"))
                        .is_none_or(Value::is_null)
                    && s.get("count")
                        .and_then(Value::as_f64)
                        .is_some_and(|c| c > 0.0)
            })
        })
}

/// What the entries say of their splits, gathered an entry at a time: the splits whose
/// instances hold the metric, and every metric of each entry's own split (for the error when
/// none holds it).
#[derive(Default)]
struct Splits {
    holding: std::collections::BTreeSet<String>,
    metrics: std::collections::BTreeSet<String>,
}

impl Splits {
    fn add(&mut self, e: &Value, metric: &str) {
        let Some(split) = split_of(e) else { return };
        if has_metric(e, metric, split) {
            self.holding.insert(split.to_string());
        }
        if !self.holding.is_empty() {
            return;
        }
        for s in e
            .get("stats")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let n = s.get("name");
            if n.and_then(|n| n.get("split")).and_then(Value::as_str) == Some(split)
                && let Some(name) = n.and_then(|n| n.get("name")).and_then(Value::as_str)
                && !self.metrics.contains(name)
            {
                self.metrics.insert(name.to_string());
            }
        }
    }

    /// The split the run was evaluated on: `test` where its instances have the metric, else
    /// the split whose instances do (`valid` before others, then by name). None holding it is
    /// an error naming the metrics they have.
    fn evaluated(self, path: &Path, metric: &str) -> Result<String> {
        for preferred in [SPLIT, "valid"] {
            if self.holding.contains(preferred) {
                return Ok(preferred.to_string());
            }
        }
        if let Some(first) = self.holding.into_iter().next() {
            return Ok(first);
        }
        Err(Error::input(
            Location::file(path),
            format!(
                "no unperturbed instance has metric {metric:?}, on any split{}",
                if self.metrics.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; the instances' metrics are: {}",
                        self.metrics.into_iter().collect::<Vec<_>>().join(", ")
                    )
                }
            ),
        )
        .hinted(Hint::ChooseScorer))
    }
}

/// One entry as an attempt; `None` for an entry of another split, or a perturbed one.
fn instance(
    path: &Path,
    i: usize,
    e: &Value,
    metric: &str,
    split: &str,
) -> Result<Option<Attempt>> {
    let r = Rec::new(path, format!("entry {}", i + 1), e)?;
    if r.get("perturbation").is_some() || split_of(e) != Some(split) {
        return Ok(None);
    }
    let stats = r.list("stats")?.map(Vec::as_slice).unwrap_or_default();
    let Some(value) = stat(&r, stats, metric, split)? else {
        return Err(r
            .bad(
                &format!("stats.{metric}"),
                format!(
                    "instance {} of the {split} split has no {metric} (absent, or counted 0 \
                     times): leaving it out would change the seat's accuracy",
                    r.id("instance_id").unwrap_or_default()
                ),
            )
            .hinted(Hint::ChooseScorer));
    };
    if !(0.0..=1.0).contains(&value) {
        return Err(r
            .bad(
                &format!("stats.{metric}"),
                format!(
                    "expected a score from 0 to 1, got {value}: a metric that is not a score \
                 cannot decide Correct"
                ),
            )
            .hinted(Hint::ChooseScorer));
    }
    let trial = r.count("train_trial_index")?.unwrap_or(0);
    let mut a = Attempt::empty();
    a.problem = r.id("instance_id")?;
    a.trial = u32::try_from(trial + 1).map_err(|_| {
        r.bad(
            "train_trial_index",
            format!("expected a trial index, got {trial}"),
        )
    })?;
    a.outcome = Some(value);
    a.correct = value >= SUCCESS;
    let tokens = |name: &str| -> Result<Option<u64>> {
        match stat(&r, stats, name, split)? {
            None => Ok(None),
            Some(x) if x >= 0.0 && x.fract() == 0.0 => Ok(Some(x as u64)),
            Some(x) => Err(r.bad(
                &format!("stats.{name}"),
                format!("expected a whole number of tokens, got {x}"),
            )),
        }
    };
    a.input_tokens = tokens("num_prompt_tokens")?;
    a.output_tokens = tokens("num_completion_tokens")?;
    a.wall_s = stat(&r, stats, "inference_runtime", split)?.filter(|s| *s >= 0.0);
    Ok(Some(a))
}

/// The model and the suite run_spec.json names.
fn run_spec(src: &dyn Source, path: &Path) -> Result<(Option<String>, About)> {
    let mut about = About {
        harness: Some("helm".into()),
        producer: Some("helm".into()),
        ..About::default()
    };
    if !src.is_file(path) {
        return Ok((None, about));
    }
    let v = super::json::shaped_file(src, path, RUN_SPEC)?;
    let r = Rec::new(path, "the run spec", &v)?;
    let model = v
        .pointer("/adapter_spec/model")
        .and_then(Value::as_str)
        .map(str::to_string);
    about.suite = r.text("name")?.map(|n| {
        let (scenario, args) = n.split_once(':').unwrap_or((n, ""));
        let kept: Vec<&str> = args
            .split(',')
            .filter(|a| !a.is_empty() && !a.starts_with("model="))
            .collect();
        if kept.is_empty() {
            scenario.to_string()
        } else {
            format!("{scenario}:{}", kept.join(","))
        }
    });
    Ok((model, about))
}
