//! The figure lm-evaluation-harness publishes for a task or a group, as claims (docs/claims.md,
//! "Claims from leaderboards"): read from the run's `results_<date>.json` in the shape the
//! importer reads it with ([`super::RESULTS`]), which keeps the `results` figures.

use std::path::Path;

use serde_json::Value;

use super::super::claims::{FULL_PRECISION, claim, number, se_precision, slug};
use crate::error::{Error, Location, Result};
use crate::model::claims::{Claim, ClaimsFile, Figure, Precision, SeatFigure};

/// The figure lm-evaluation-harness's results file publishes for one task: its
/// `"METRIC,FILTER"` value (the task's first metric and filter unless `metric` names them),
/// claimed as the seat's accuracy — a mean over the documents the run scored, which the ledger
/// divides by the same count when the wave's suite size is the results' `n-samples.effective`
/// (as `ingest --from lm-eval` sets it). Its `_stderr` is said in the file's source and
/// claimed as the accuracy's standard error (`accuracy_se`, within what the sample and
/// population estimators differ by at the published n). A group (`group_subtasks`, no config
/// of its own) is claimed over all its tasks' documents, its figure the one `"METRIC,FILTER"`
/// the results give it unless `metric` names one.
pub fn lm_eval(
    path: &Path,
    text: &str,
    task: &str,
    metric: Option<&str>,
    wave: &str,
    seat: &str,
) -> Result<ClaimsFile> {
    // The results as the importer reads them, the published figures included.
    let v = super::super::json::shaped(path, text.as_bytes(), super::RESULTS)?;
    let config = v.pointer(&format!("/configs/{task}"));
    // A group (`ingest --from lm-eval --group`): its tasks, whose documents it counts.
    let group = match v.pointer(&format!("/group_subtasks/{task}")) {
        Some(Value::Array(a)) if config.is_none() && !a.is_empty() => {
            Some(super::subtasks(&v, path, task)?)
        }
        _ => None,
    };
    let key = metric_key(&v, path, task, metric, group.is_some())?;
    let (value, stderr) = figures(&v, path, task, &key)?;
    let (name, filter) = key.split_once(',').unwrap_or((key.as_str(), "none"));
    let effective_of = |t: &str| {
        v.pointer(&format!("/n-samples/{t}/effective"))
            .and_then(Value::as_u64)
    };
    let effective = match &group {
        Some(tasks) => tasks.iter().map(|t| effective_of(t)).sum::<Option<u64>>(),
        None => effective_of(task),
    };
    let mut source = match &group {
        Some(tasks) => format!(
            "lm-evaluation-harness results, group {task} of {} tasks, {key}",
            tasks.len()
        ),
        None => format!("lm-evaluation-harness results, task {task}, {key}"),
    };
    if let Some(e) = stderr {
        source.push_str(&format!(" (standard error {})", crate::number::machine(e)));
    }
    if let Some(n) = effective {
        source.push_str(&format!(" over {n} documents"));
    }
    let claims = claims_of(wave, seat, value, stderr, (name, filter), effective);
    Ok(ClaimsFile {
        name: slug(&format!("lm-eval-{wave}-{seat}")),
        version: 1,
        source,
        description: None,
        claims,
    })
}

/// The `"METRIC,FILTER"` key of the figure claimed: `metric` (with the task's first filter when
/// it names none), else the group's single figure, else the task's first metric and filter.
fn metric_key(
    v: &Value,
    path: &Path,
    task: &str,
    metric: Option<&str>,
    is_group: bool,
) -> Result<String> {
    let at = |key: &str| Location::file(path).field(key);
    let config = v.pointer(&format!("/configs/{task}"));
    Ok(match metric {
        Some(m) if m.contains(',') => m.to_string(),
        Some(m) => format!(
            "{m},{}",
            config
                .and_then(|c| c.pointer("/filter_list/0/name"))
                .and_then(Value::as_str)
                .unwrap_or("none")
        ),
        None if is_group => group_key(v, task).ok_or_else(|| {
            Error::input(
                at(&format!("results.{task}")),
                "missing: the group's results hold no single \"METRIC,FILTER\" figure; name \
                 one with --metric METRIC,FILTER",
            )
        })?,
        None => {
            let m = config
                .and_then(|c| c.pointer("/metric_list/0/metric"))
                .and_then(Value::as_str)
                .ok_or_else(|| {
                    Error::input(
                        at(&format!("configs.{task}.metric_list")),
                        "missing: the task names no metric; name one with --metric",
                    )
                })?;
            let f = config
                .and_then(|c| c.pointer("/filter_list/0/name"))
                .and_then(Value::as_str)
                .unwrap_or("none");
            format!("{m},{f}")
        }
    })
}

/// The task's figure under `key` and its standard error (`NAME_stderr,FILTER`), if given.
fn figures(v: &Value, path: &Path, task: &str, key: &str) -> Result<(f64, Option<f64>)> {
    let at = |k: &str| Location::file(path).field(k);
    let results = v
        .pointer(&format!("/results/{task}"))
        .and_then(Value::as_object)
        .ok_or_else(|| {
            Error::input(
                at(&format!("results.{task}")),
                "missing: the results hold no figures for this task",
            )
        })?;
    let r_at = |k: &str| at(&format!("results.{task}.{k}"));
    let value = number(&r_at, results, key)?.ok_or_else(|| {
        let known: Vec<&str> = results
            .keys()
            .map(String::as_str)
            .filter(|k| k.contains(',') && !k.contains("_stderr"))
            .collect();
        Error::input(
            r_at(key),
            format!(
                "missing: the task's results are {}; name one with --metric METRIC,FILTER",
                known.join(", ")
            ),
        )
    })?;
    let (name, filter) = key.split_once(',').unwrap_or((key, "none"));
    let stderr = number(&r_at, results, &format!("{name}_stderr,{filter}"))?;
    Ok((value, stderr))
}

/// The claims: the accuracy `value`, and its standard error `stderr` (of the results' `name`
/// and `filter`, over `effective` documents) when there is one above 0.
fn claims_of(
    wave: &str,
    seat: &str,
    value: f64,
    stderr: Option<f64>,
    (name, filter): (&str, &str),
    effective: Option<u64>,
) -> Vec<Claim> {
    let mut claims = vec![claim(
        wave,
        seat,
        Figure::Seat(SeatFigure::Accuracy),
        value,
        1.0,
        Precision::Tolerance(FULL_PRECISION),
    )];
    // The standard error as the accuracy's: the sample standard deviation of the documents'
    // values ÷ √n (lm-eval's `mean_stderr`, or its pooled version for a group).
    if let Some(e) = stderr.filter(|e| *e > 0.0) {
        claims.push(Claim {
            source: Some(format!(
                "{name}_stderr,{filter}: the sample standard deviation ÷ √n{}; claimed within \
                 the difference ÷ n − 1 and ÷ n make",
                effective.map_or(String::new(), |n| format!(" over n = {n} documents"))
            )),
            ..claim(
                wave,
                seat,
                Figure::Seat(SeatFigure::AccuracySe),
                e,
                1.0,
                se_precision(e, effective, None),
            )
        });
    }
    claims
}

/// A group's one `"METRIC,FILTER"` figure in the results (its `_stderr` and `alias` aside).
fn group_key(v: &Value, group: &str) -> Option<String> {
    let results = v.pointer(&format!("/results/{group}"))?.as_object()?;
    let keys: Vec<&String> = results
        .keys()
        .filter(|k| k.contains(',') && !k.contains("_stderr"))
        .collect();
    match keys.as_slice() {
        [k] => Some((*k).clone()),
        _ => None,
    }
}
