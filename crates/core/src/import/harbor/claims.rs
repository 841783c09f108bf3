//! The figures a Harbor job publishes, as claims (docs/claims.md, "Claims from
//! leaderboards"): read from the job's `result.json` in the shape the importer reads it with
//! ([`super::JOB`]), which keeps its `stats.evals` figures and skips the rest.

use std::path::Path;

use serde_json::Value;

use super::super::claims::{FULL_PRECISION, claim, slug};
use super::super::json::describe;
use crate::error::{Error, Location, Result};
use crate::model::claims::{ClaimsFile, Figure, Measure, Precision};

/// The figures a Harbor job's `result.json` publishes (`stats.evals`, one agent on one model
/// and dataset): its `mean` metric → `mean_outcome` (Harbor's mean of the rewards, a trial
/// without rewards counted as 0, as the ledger counts it), `pass_at_k` → `pass_at_k.K`.
pub fn harbor(path: &Path, text: &str, wave: &str, seat: &str) -> Result<ClaimsFile> {
    // The job's result as the importer reads it, its figures included.
    let v = super::super::json::shaped(path, text.as_bytes(), super::JOB)?;
    let at = |key: &str| Location::file(path).field(key);
    let evals = v
        .pointer("/stats/evals")
        .and_then(Value::as_object)
        .ok_or_else(|| Error::input(at("stats.evals"), "missing: the job publishes no figures"))?;
    if evals.len() != 1 {
        return Err(Error::input(
            at("stats.evals"),
            format!(
                "expected one agent on one model and dataset, got {}: {}",
                evals.len(),
                evals.keys().cloned().collect::<Vec<_>>().join(", ")
            ),
        ));
    }
    let Some((key, e)) = evals.iter().next() else {
        return Err(Error::input(at("stats.evals"), "missing: no evals"));
    };
    let mut claims = Vec::new();
    for m in e
        .get("metrics")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(x) = m.get("mean").and_then(Value::as_f64) {
            claims.push(claim(
                wave,
                seat,
                Figure::Mean(Measure::Outcome),
                x,
                1.0,
                Precision::Tolerance(FULL_PRECISION),
            ));
        }
    }
    if let Some(map) = e.get("pass_at_k").and_then(Value::as_object) {
        let mut ks: Vec<(u64, f64)> = Vec::new();
        for (k, x) in map {
            let kk = k.parse::<u64>().ok().filter(|k| *k >= 1).ok_or_else(|| {
                Error::input(
                    at(&format!("stats.evals.{key}.pass_at_k")),
                    format!("expected each key to be a number of trials k, got {k:?}"),
                )
            })?;
            let x = x.as_f64().ok_or_else(|| {
                Error::input(
                    at(&format!("stats.evals.{key}.pass_at_k.{k}")),
                    format!("expected a number, got {}", describe(x)),
                )
            })?;
            ks.push((kk, x));
        }
        ks.sort_by_key(|(k, _)| *k);
        for (k, x) in ks {
            claims.push(claim(
                wave,
                seat,
                Figure::PassAtK(k),
                x,
                1.0,
                Precision::Tolerance(FULL_PRECISION),
            ));
        }
    }
    if claims.is_empty() {
        return Err(Error::input(
            at(&format!("stats.evals.{key}")),
            "no published figures: expected a mean metric or pass_at_k",
        ));
    }
    Ok(ClaimsFile {
        name: slug(&format!("harbor-{wave}-{seat}")),
        version: 1,
        source: format!("Harbor job result.json, {key}"),
        description: None,
        claims,
    })
}
