//! The means a HELM run publishes in its `stats.json`, as claims (docs/claims.md, "Claims from
//! leaderboards' own files"), the main metric's by default the one the importer scores.

use std::path::Path;

use serde_json::Value;

use super::super::claims::{FULL_PRECISION, claim, slug};
use super::super::json::{describe, syntax};
use crate::error::{Error, Location, Result};
use crate::model::claims::{ClaimsFile, Figure, Measure, Precision, SeatFigure};

/// The metric HELM's run directory is claimed for when none is named, as the importer reads it.
pub const HELM_METRIC: &str = super::DEFAULT_METRIC;

/// The figures of a HELM run's `stats.json` (`path`, its `text`) as claims about one seat;
/// `metric` is the run's main metric (default [`HELM_METRIC`]).
pub fn helm(
    path: &Path,
    text: &str,
    metric: Option<&str>,
    wave: &str,
    seat: &str,
) -> Result<ClaimsFile> {
    let means = test_means(path, text)?;
    let metric = metric.unwrap_or(HELM_METRIC);
    let get = |n: &str| means.iter().find(|(k, _)| k == n).map(|(_, m)| *m);
    let Some(main) = get(metric) else {
        let names: Vec<&str> = means.iter().map(|(k, _)| k.as_str()).collect();
        return Err(Error::input(
            Location::file(path).field(metric),
            format!(
                "missing: no stat {metric:?} on the unperturbed test split; its stats are {}; \
                 name the run's main metric with --metric",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ),
        ));
    };
    let unrounded = |figure: Figure, x: f64| {
        claim(
            wave,
            seat,
            figure,
            x,
            1.0,
            Precision::Tolerance(FULL_PRECISION),
        )
    };
    let mut claims = vec![unrounded(Figure::Mean(Measure::Outcome), main)];
    for (stat, measure) in [
        ("num_prompt_tokens", Measure::InputTokens),
        ("num_completion_tokens", Measure::OutputTokens),
        ("inference_runtime", Measure::WallS),
    ] {
        if let Some(x) = get(stat) {
            claims.push(unrounded(Figure::Mean(measure), x));
        }
    }
    if let Some(n) = get("num_instances") {
        claims.push(claim(
            wave,
            seat,
            Figure::Seat(SeatFigure::Problems),
            n,
            1.0,
            Precision::Decimals(0),
        ));
    }
    Ok(ClaimsFile {
        name: slug(&format!("helm-{wave}-{seat}")),
        version: 1,
        source: format!("HELM run stats.json, the unperturbed test split, main metric {metric}"),
        description: None,
        claims,
    })
}

/// The unperturbed test split's mean of each stat in a HELM run's `stats.json` (`path`, its
/// `text`), in the file's order.
fn test_means(path: &Path, text: &str) -> Result<Vec<(String, f64)>> {
    let v: Value = serde_json::from_str(text).map_err(|e| syntax(path, &e))?;
    let stats = v.as_array().ok_or_else(|| {
        Error::input(
            Location::file(path),
            format!("expected HELM's list of stats, got {}", describe(&v)),
        )
    })?;
    let mut means: Vec<(String, f64)> = Vec::new();
    for (i, s) in stats.iter().enumerate() {
        let at = |k: &str| Location::file(path).field(format!("[{i}].{k}"));
        let name = s
            .get("name")
            .ok_or_else(|| Error::input(at("name"), "missing"))?;
        let plain = name.get("split").and_then(Value::as_str) == Some("test")
            && name.get("perturbation").is_none_or(Value::is_null)
            && name.get("sub_split").is_none_or(Value::is_null);
        if !plain {
            continue;
        }
        let n = name
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| Error::input(at("name.name"), "missing: the stat has no name"))?;
        let count = s.get("count").and_then(Value::as_f64).unwrap_or(0.0);
        if count <= 0.0 {
            continue;
        }
        let mean = match (s.get("mean"), s.get("sum")) {
            (Some(m), _) if !m.is_null() => m.as_f64(),
            (_, Some(x)) => x.as_f64().map(|x| x / count),
            _ => None,
        }
        .filter(|x| x.is_finite())
        .ok_or_else(|| {
            Error::input(
                at("mean"),
                format!("expected the stat {n:?}'s mean as a finite number"),
            )
        })?;
        means.push((n.to_string(), mean));
    }
    Ok(means)
}
