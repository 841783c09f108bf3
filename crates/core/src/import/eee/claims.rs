//! The figures an Every Eval Ever aggregate record publishes for one evaluation result, as
//! claims (docs/claims.md, "Claims from leaderboards' own files").

use std::path::Path;

use serde_json::Value;

use super::super::claims::{FULL_PRECISION, claim, se_precision, slug, written_decimals};
use super::super::json::{describe, syntax};
use crate::error::{Error, Location, Result};
use crate::model::claims::{Claim, ClaimsFile, Figure, Measure, Precision, SeatFigure};

/// The most decimals a score is taken to have been rounded to; one written with more is claimed
/// within ±10⁻⁹ ([`FULL_PRECISION`]).
const ROUNDED_AT_MOST: u32 = 9;

/// The figures of one evaluation result of an Every Eval Ever aggregate record (`path`, its
/// `text`) as claims about one seat: the result named `evaluation` (its `evaluation_name`),
/// or the record's only one.
pub fn eee(
    path: &Path,
    text: &str,
    evaluation: Option<&str>,
    wave: &str,
    seat: &str,
) -> Result<ClaimsFile> {
    let v: Value = serde_json::from_str(text).map_err(|e| syntax(path, &e))?;
    let (r, i, names) = chosen(path, &v, evaluation)?;
    let at = |k: &str| Location::file(path).field(format!("evaluation_results[{i}].{k}"));
    let details = r
        .get("score_details")
        .ok_or_else(|| Error::input(at("score_details"), "missing"))?;
    let score = score_of(details, &at)?;
    let (figure, scale, metric) = reading(r);
    // A score written with more decimals than a person writes was written unrounded.
    let decimals = written_decimals(score);
    let precision = if decimals > ROUNDED_AT_MOST {
        Precision::Tolerance(FULL_PRECISION)
    } else {
        Precision::Decimals(decimals)
    };
    let mut claims = vec![Claim {
        metric,
        source: uncertainty(details.get("uncertainty")),
        ..claim(wave, seat, figure.clone(), score, scale, precision)
    }];
    let samples = details
        .pointer("/uncertainty/num_samples")
        .and_then(Value::as_u64);
    // The standard error of an accuracy, claimed as the ledger's `accuracy_se` (of a mean
    // score, it is of the outcomes, which the ledger does not compute: said in words only).
    if figure == Figure::Seat(SeatFigure::Accuracy) {
        claims.extend(standard_error(details, &at, samples, scale, wave, seat)?);
    }
    if let Some(n) = samples {
        claims.push(claim(
            wave,
            seat,
            Figure::Seat(SeatFigure::Attempts),
            n as f64,
            1.0,
            Precision::Decimals(0),
        ));
    }
    let id = v
        .get("evaluation_id")
        .and_then(Value::as_str)
        .unwrap_or("record");
    Ok(ClaimsFile {
        name: tidy(&slug(&format!("eee-{wave}-{seat}-{}", names[i]))),
        version: 1,
        source: format!("Every Eval Ever record {id}, evaluation {:?}", names[i]),
        description: None,
        claims,
    })
}

/// The evaluation result of the record `v` that is claimed, with its index and the names of
/// every result: the one named `evaluation`, or the record's only one.
fn chosen<'v>(
    path: &Path,
    v: &'v Value,
    evaluation: Option<&str>,
) -> Result<(&'v Value, usize, Vec<String>)> {
    let at = |k: &str| Location::file(path).field(k);
    let results = v
        .get("evaluation_results")
        .and_then(Value::as_array)
        .ok_or_else(|| {
            Error::input(
                at("evaluation_results"),
                "missing: not an Every Eval Ever aggregate record (an <id>.json with \
                 evaluation_results)",
            )
        })?;
    let name_of = |r: &Value| {
        r.get("evaluation_name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let names: Vec<String> = results.iter().map(name_of).collect();
    let i = match evaluation {
        Some(e) => names.iter().position(|n| n == e),
        None if results.len() == 1 => Some(0),
        None => None,
    }
    .ok_or_else(|| {
        Error::input(
            at("evaluation_results"),
            format!(
                "{}; the record's evaluations are: {}",
                match evaluation {
                    Some(e) => format!("missing: no evaluation named {e:?}"),
                    None => format!(
                        "the record holds {} evaluations: name one with --evaluation",
                        results.len()
                    ),
                },
                names.join(", ")
            ),
        )
    })?;
    Ok((&results[i], i, names))
}

/// The result's score (`score_details.score`), a finite number.
fn score_of(details: &Value, at: &dyn Fn(&str) -> Location) -> Result<f64> {
    match details.get("score") {
        Some(Value::Number(n)) => n.as_f64().filter(|x| x.is_finite()),
        _ => None,
    }
    .ok_or_else(|| {
        Error::input(
            at("score_details.score"),
            format!(
                "expected the score as a number, got {}",
                details.get("score").map_or("nothing".into(), describe)
            ),
        )
    })
}

/// What the result's `metric_config` says its score is: the figure claimed (accuracy, or a
/// mean outcome), the scale it is written on (1, or 100 for a percent) and the metric named
/// where it is not accuracy or the mean outcome.
fn reading(r: &Value) -> (Figure, f64, Option<String>) {
    let config = r.get("metric_config");
    let says = |k: &str| {
        config
            .and_then(|c| c.get(k))
            .and_then(Value::as_str)
            .map(str::to_ascii_lowercase)
    };
    let accuracy = ["metric_id", "metric_kind", "metric_name"]
        .iter()
        .any(|k| says(k).as_deref() == Some("accuracy"));
    let scale = if says("metric_unit").as_deref() == Some("percent") {
        100.0
    } else {
        1.0
    };
    let figure = if accuracy {
        Figure::Seat(SeatFigure::Accuracy)
    } else {
        Figure::Mean(Measure::Outcome)
    };
    let metric = says("metric_id")
        .or_else(|| says("metric_name"))
        .filter(|m| !accuracy && m != "mean_outcome");
    (figure, scale, metric)
}

/// An accuracy's `uncertainty.standard_error` as an `accuracy_se` claim, at the score's
/// `scale`, within [`se_precision`] at `samples` (EEE's `num_samples`); none when the record
/// gives no standard error.
fn standard_error(
    details: &Value,
    at: &dyn Fn(&str) -> Location,
    samples: Option<u64>,
    scale: f64,
    wave: &str,
    seat: &str,
) -> Result<Option<Claim>> {
    let Some(se) = details.pointer("/uncertainty/standard_error/value") else {
        return Ok(None);
    };
    let se = se
        .as_f64()
        .filter(|x| x.is_finite() && *x >= 0.0)
        .ok_or_else(|| {
            Error::input(
                at("score_details.uncertainty.standard_error.value"),
                format!(
                    "expected the standard error as a number, 0 or more, got {}",
                    describe(se)
                ),
            )
        })?;
    let decimals = written_decimals(se);
    let method = details
        .pointer("/uncertainty/standard_error/method")
        .and_then(Value::as_str);
    Ok(Some(Claim {
        source: Some(format!(
            "uncertainty.standard_error{}{}",
            method.map_or(String::new(), |m| format!(" (method {m})")),
            samples.map_or(String::new(), |n| format!(" over num_samples = {n}"))
        )),
        ..claim(
            wave,
            seat,
            Figure::Seat(SeatFigure::AccuracySe),
            se,
            scale,
            se_precision(
                se,
                samples,
                (decimals <= ROUNDED_AT_MOST).then_some(decimals),
            ),
        )
    }))
}

/// A slug without runs of `-` or one at its end (`arith (correct)` → `arith-correct`).
fn tidy(slug: &str) -> String {
    let mut out = String::with_capacity(slug.len());
    for c in slug.chars() {
        if !(c == '-' && out.ends_with('-')) {
            out.push(c);
        }
    }
    out.trim_end_matches('-').to_string()
}

/// An EEE `uncertainty` object in words: the standard error, the confidence interval with its
/// level, the standard deviation, each as the record writes it.
fn uncertainty(u: Option<&Value>) -> Option<String> {
    let u = u?;
    let n = |p: &str| u.pointer(p).and_then(Value::as_f64);
    let mut parts = Vec::new();
    if let Some(se) = n("/standard_error/value") {
        parts.push(format!("standard error {se}"));
    }
    if let (Some(lo), Some(hi)) = (
        n("/confidence_interval/lower"),
        n("/confidence_interval/upper"),
    ) {
        let level = n("/confidence_interval/confidence_level")
            .map(|l| format!("{}% ", l * 100.0))
            .unwrap_or_default();
        parts.push(format!("{level}confidence interval [{lo}, {hi}]"));
    }
    if let Some(sd) = n("/standard_deviation") {
        parts.push(format!("standard deviation {sd}"));
    }
    (!parts.is_empty()).then(|| format!("uncertainty as published: {}", parts.join(", ")))
}
