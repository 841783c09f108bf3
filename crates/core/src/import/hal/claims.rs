//! The figures a HAL upload publishes (`results.accuracy`, `results.total_cost`), as claims
//! (docs/claims.md, "Claims from leaderboards"): read from its top-level keys, the rest (every
//! conversation) skipped unread.

use std::io::Read;
use std::path::Path;

use serde_json::Value;

use super::super::claims::{FULL_PRECISION, claim, number, slug, text, top_level};
use super::super::json::describe;
use crate::error::{Error, Location, Result};
use crate::model::claims::{ClaimsFile, Figure, Measure, Precision, SeatFigure};

/// The published figures of a HAL upload, as claims about one seat.
pub fn hal<R: Read>(path: &Path, reader: R, wave: &str, seat: &str) -> Result<ClaimsFile> {
    let o = top_level(
        path,
        reader,
        "a HAL upload: a JSON object with config and results",
        &["config", "results", "total_cost"],
    )?;
    let results = match o.get("results") {
        Some(Value::Object(r)) => r.clone(),
        None | Some(Value::Null) => serde_json::Map::new(),
        Some(v) => {
            return Err(Error::input(
                Location::file(path).field("results"),
                format!("expected an object, got {}", describe(v)),
            ));
        }
    };
    let r_at = |key: &str| Location::file(path).field(format!("results.{key}"));
    let at = |key: &str| Location::file(path).field(key);
    let mut claims = Vec::new();
    let benchmark = o
        .get("config")
        .and_then(|c| c.get("benchmark_name"))
        .and_then(Value::as_str)
        .unwrap_or_default();
    // AssistantBench's "accuracy" is the mean of its per-task scores (hal-harness,
    // `benchmarks/assistantbench.py`), not Correct over tasks: claimed as the mean outcome.
    let accuracy = if benchmark.to_ascii_lowercase().contains("assistantbench") {
        Figure::Mean(Measure::Outcome)
    } else {
        Figure::Seat(SeatFigure::Accuracy)
    };
    if let Some(acc) = number(&r_at, &results, "accuracy")? {
        let c = claim(
            wave,
            seat,
            accuracy,
            acc,
            1.0,
            Precision::Tolerance(FULL_PRECISION),
        );
        claims.push(c);
    }
    let cost = match number(&r_at, &results, "total_cost")? {
        Some(c) => Some(c),
        None => number(&at, &o, "total_cost")?,
    };
    if let Some(cost) = cost {
        let c = claim(
            wave,
            seat,
            Figure::Seat(SeatFigure::CostUsd),
            cost,
            1.0,
            Precision::Tolerance(FULL_PRECISION),
        );
        claims.push(c);
    }
    if claims.is_empty() {
        return Err(Error::input(
            Location::file(path),
            "no published figures: expected results.accuracy or total_cost",
        ));
    }
    let config = match o.get("config") {
        Some(Value::Object(c)) => c.clone(),
        _ => serde_json::Map::new(),
    };
    let c_at = |key: &str| Location::file(path).field(format!("config.{key}"));
    let parts: Vec<String> = [
        text(&c_at, &config, "run_id")?.map(|r| format!("run {r}")),
        text(&c_at, &config, "agent_name")?.map(str::to_string),
        text(&c_at, &config, "benchmark_name")?.map(|b| format!("on {b}")),
        text(&c_at, &config, "date")?.map(|d| format!("({d})")),
    ]
    .into_iter()
    .flatten()
    .collect();
    Ok(ClaimsFile {
        name: slug(&format!("hal-{wave}-{seat}")),
        version: 1,
        source: if parts.is_empty() {
            "HAL upload".into()
        } else {
            format!("HAL upload, {}", parts.join(" "))
        },
        description: None,
        claims,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hal_figures_skip_the_rest_of_the_file() {
        let upload = r#"{"raw_logging_results":[{"huge":1}],"config":{"run_id":"r1"},
            "results":{"accuracy":0.02,"total_cost":0.1431},"total_cost":9}"#;
        let f = hal(Path::new("u.json"), upload.as_bytes(), "w", "s").unwrap();
        let got: Vec<(String, f64)> = f
            .claims
            .iter()
            .map(|c| (c.figure.name(), c.value))
            .collect();
        assert_eq!(
            got,
            [("accuracy".into(), 0.02), ("cost_usd".into(), 0.1431)]
        );
        assert_eq!(f.source, "HAL upload, run r1");
        // AssistantBench's accuracy is a mean of per-task scores: claimed as the mean outcome.
        let ab = r#"{"config": {"benchmark_name": "assistantbench"},
            "results": {"accuracy": 0.1645}}"#;
        let f = hal(Path::new("u.json"), ab.as_bytes(), "w", "s").unwrap();
        assert_eq!(f.claims[0].figure.name(), "mean_outcome");
        assert_eq!(f.claims[0].value, 0.1645);
    }
}
