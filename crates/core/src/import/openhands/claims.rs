//! The figures an OpenHands index model directory publishes (`scores.json`, with
//! `metadata.json` beside it), as claims (docs/claims.md, "Claims from leaderboards").

use std::path::Path;

use serde_json::Value;

use super::super::claims::{claim, count, number, slug, text, written_decimals};
use super::super::json::{describe, syntax};
use crate::diagnostics::check_slug;
use crate::error::{Error, Location, Result};
use crate::model::claims::{Claim, ClaimsFile, Counts, Figure, Measure, Precision, SeatFigure};

/// Where an OpenHands index model directory's files are, and what to call its waves and seat.
pub struct OpenHandsDir<'a> {
    /// The model directory's name (the seat, unless `seat` is given).
    pub dir_name: &'a str,
    pub scores_path: &'a Path,
    pub scores: &'a str,
    /// metadata.json, when there is one: its path and text.
    pub metadata: Option<(&'a Path, &'a str)>,
    pub wave_prefix: &'a str,
    pub seat: Option<&'a str>,
}

/// The published figures of an OpenHands index model directory, as claims.
pub fn openhands(d: &OpenHandsDir<'_>) -> Result<ClaimsFile> {
    let path = d.scores_path;
    let seat = d.seat.unwrap_or(d.dir_name).to_string();
    check_slug(
        Location::file(path),
        "seat id (the model directory's name; give another with --seat)",
        &seat,
    )?;
    let value: Value = serde_json::from_str(d.scores).map_err(|e| syntax(path, &e))?;
    let Value::Array(entries) = &value else {
        return Err(Error::input(
            Location::file(path),
            format!(
                "expected the index's scores.json, a JSON list of one entry per benchmark, got {}",
                describe(&value)
            ),
        ));
    };
    let mut claims = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        openhands_entry(d, &seat, i, e, &mut claims)?;
    }
    if claims.is_empty() {
        return Err(Error::input(
            Location::file(path),
            "no published figures: expected entries with score, cost_per_instance or \
             average_runtime",
        ));
    }
    let (source, agent, model) = openhands_source(d)?;
    // After the agent and the model: two agents (or versions) on one model are two files.
    let name = [
        Some(agent.unwrap_or_else(|| "openhands".into())),
        Some(model.unwrap_or_else(|| d.dir_name.to_string())),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join("-");
    Ok(ClaimsFile {
        name: slug(&name.to_ascii_lowercase()),
        version: 1,
        source,
        description: None,
        claims,
    })
}

/// The claims of entry `i` of an OpenHands index's scores.json (one benchmark), added to
/// `claims`: its accuracy (and combined accuracy), cost per instance and average runtime.
fn openhands_entry(
    d: &OpenHandsDir<'_>,
    seat: &str,
    i: usize,
    e: &Value,
    claims: &mut Vec<Claim>,
) -> Result<()> {
    let path = d.scores_path;
    let record = format!("entry {}", i + 1);
    let Value::Object(o) = e else {
        return Err(Error::input(
            Location::record(path, record),
            format!(
                "expected a benchmark's scores, a JSON object, got {}",
                describe(e)
            ),
        ));
    };
    let at = |key: &str| Location::record(path, record.clone()).field(key);
    let Some(benchmark) = text(&at, o, "benchmark")? else {
        return Err(Error::input(
            at("benchmark"),
            "missing: expected the benchmark's name",
        ));
    };
    let record = format!("entry {} ({benchmark})", i + 1);
    let at = |key: &str| Location::record(path, record.clone()).field(key);
    let wave = format!("{}{benchmark}", d.wave_prefix);
    check_slug(
        at("benchmark"),
        "wave id (--wave-prefix and the benchmark)",
        &wave,
    )?;
    let source = entry_source(&at, o, benchmark)?;
    let metric = text(&at, o, "metric")?.unwrap_or("accuracy").to_string();
    let components = components_of(&at, o)?;
    let c_at = |key: &str| at(&format!("component_scores.{key}"));
    // The counts behind `X_accuracy` are `X_resolved` of `X_total`.
    let counts_of = |name: &str| counts_in(&c_at, components, name);
    if let Some(score) = number(&at, o, "score")? {
        let mut c = claim(
            &wave,
            seat,
            Figure::Seat(SeatFigure::Accuracy),
            score,
            100.0,
            Precision::Decimals(written_decimals(score).max(1)),
        );
        c.counts = counts_of(&metric)?;
        // `accuracy` is benchledger's accuracy; any other metric is another figure.
        c.metric = (metric != "accuracy").then(|| metric.clone());
        c.source = Some(source.clone());
        claims.push(c);
    }
    if metric != "accuracy"
        && let Some(comp) = components
        && let Some(combined) = number(&c_at, comp, "combined_accuracy")?
    {
        let mut c = claim(
            &wave,
            seat,
            Figure::Seat(SeatFigure::Accuracy),
            combined,
            100.0,
            Precision::Decimals(written_decimals(combined).max(1)),
        );
        // Every instance: the resolved and the totals of each part, summed.
        let parts = ["solveable", "unsolveable"];
        let mut sum = Some((0, 0));
        for p in parts {
            sum = match (sum, counts_of(&format!("{p}_accuracy"))?) {
                (Some((c, n)), Some(k)) => Some((c + k.correct, n + k.of)),
                _ => None,
            };
        }
        c.counts = sum.map(|(correct, of)| Counts { correct, of });
        c.source = Some(format!("{source}; component_scores.combined_accuracy"));
        claims.push(c);
    }
    mean_claims(&at, o, &wave, seat, &source, claims)
}

/// What an entry's claims say they come from: the benchmark, with the agent's version and
/// when it was submitted where the entry says.
fn entry_source(
    at: &dyn Fn(&str) -> Location,
    o: &serde_json::Map<String, Value>,
    benchmark: &str,
) -> Result<String> {
    let version = text(at, o, "agent_version")?;
    let time = text(at, o, "submission_time")?;
    let mut s = benchmark.to_string();
    if let Some(v) = version {
        s.push_str(&format!(", agent {v}"));
    }
    if let Some(t) = time {
        s.push_str(&format!(", submitted {t}"));
    }
    Ok(s)
}

/// The entry's `component_scores`, an object, when it has them.
fn components_of<'o>(
    at: &dyn Fn(&str) -> Location,
    o: &'o serde_json::Map<String, Value>,
) -> Result<Option<&'o serde_json::Map<String, Value>>> {
    Ok(match o.get("component_scores") {
        None | Some(Value::Null) => None,
        Some(Value::Object(c)) => Some(c),
        Some(v) => {
            return Err(Error::input(
                at("component_scores"),
                format!("expected an object, got {}", describe(v)),
            ));
        }
    })
}

/// The counts behind the component `name` (`X_accuracy`): `X_resolved` of `X_total`, when
/// both are given and make a proportion.
fn counts_in(
    c_at: &dyn Fn(&str) -> Location,
    components: Option<&serde_json::Map<String, Value>>,
    name: &str,
) -> Result<Option<Counts>> {
    let (Some(c), Some(stem)) = (components, name.strip_suffix("_accuracy")) else {
        return Ok(None);
    };
    let correct = count(c_at, c, &format!("{stem}_resolved"))?;
    let of = count(c_at, c, &format!("{stem}_total"))?;
    Ok(match (correct, of) {
        (Some(correct), Some(of)) if of > 0 && correct <= of => Some(Counts { correct, of }),
        _ => None,
    })
}

/// The entry's means, added to `claims`: its `cost_per_instance` and `average_runtime`.
fn mean_claims(
    at: &dyn Fn(&str) -> Location,
    o: &serde_json::Map<String, Value>,
    wave: &str,
    seat: &str,
    source: &str,
    claims: &mut Vec<Claim>,
) -> Result<()> {
    if let Some(cost) = number(at, o, "cost_per_instance")? {
        let mut c = claim(
            wave,
            seat,
            Figure::Mean(Measure::CostUsd),
            cost,
            1.0,
            Precision::Decimals(written_decimals(cost).max(2)),
        );
        c.source = Some(format!("{source}; cost_per_instance"));
        claims.push(c);
    }
    if let Some(runtime) = number(at, o, "average_runtime")? {
        let mut c = claim(
            wave,
            seat,
            Figure::Mean(Measure::WallS),
            runtime,
            1.0,
            Precision::Decimals(written_decimals(runtime)),
        );
        c.source = Some(format!("{source}; average_runtime"));
        claims.push(c);
    }
    Ok(())
}

/// The source an OpenHands index's claims file names: the scores.json, and the agent and
/// model its metadata.json states, when there is one; with the agent (name and version) and
/// the model, for the file's name.
fn openhands_source(d: &OpenHandsDir<'_>) -> Result<(String, Option<String>, Option<String>)> {
    let mut source = format!("OpenHands index, {}/scores.json", d.dir_name);
    let (mut agent, mut model) = (None, None);
    if let Some((mpath, mtext)) = d.metadata {
        let m: Value = serde_json::from_str(mtext).map_err(|e| syntax(mpath, &e))?;
        if let Value::Object(o) = &m {
            let at = |key: &str| Location::file(mpath).field(key);
            let named: Vec<&str> = [text(&at, o, "agent_name")?, text(&at, o, "agent_version")?]
                .into_iter()
                .flatten()
                .collect();
            agent = (!named.is_empty()).then(|| named.join("-"));
            model = text(&at, o, "model")?.map(str::to_string);
            let parts: Vec<String> = [
                text(&at, o, "agent_name")?,
                text(&at, o, "agent_version")?,
                text(&at, o, "model")
                    .map(|m| m.map(|m| format!("model {m}")))?
                    .as_deref(),
            ]
            .into_iter()
            .flatten()
            .map(str::to_string)
            .collect();
            if !parts.is_empty() {
                source.push_str(&format!(" ({})", parts.join(" ")));
            }
        }
    }
    Ok((source, agent, model))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openhands_scores_become_claims_with_counts_and_metrics() {
        let scores = r#"[{"benchmark":"swe-bench-multimodal","score":41.8,
            "metric":"solveable_accuracy","cost_per_instance":2.37,"average_runtime":602.0,
            "agent_version":"v1.11.0","component_scores":{"solveable_accuracy":41.8,
            "unsolveable_accuracy":3.0,"combined_accuracy":29.0,"solveable_resolved":28,
            "solveable_total":67,"unsolveable_resolved":1,"unsolveable_total":33}}]"#;
        let f = openhands(&OpenHandsDir {
            dir_name: "claude-opus-4-6",
            scores_path: Path::new("d/scores.json"),
            scores,
            metadata: None,
            wave_prefix: "oh-",
            seat: None,
        })
        .unwrap();
        assert_eq!(f.name, "openhands-claude-opus-4-6");
        // With metadata.json, the file is named after the agent and the model, so that two
        // agents (or versions) on one model are two files.
        let meta = r#"{"agent_name": "OpenHands", "agent_version": "v1.11.0",
            "model": "claude-opus-4-6"}"#;
        let named = openhands(&OpenHandsDir {
            dir_name: "claude-opus-4-6",
            scores_path: Path::new("d/scores.json"),
            scores,
            metadata: Some((Path::new("d/metadata.json"), meta)),
            wave_prefix: "oh-",
            seat: None,
        })
        .unwrap();
        assert_eq!(named.name, "openhands-v1.11.0-claude-opus-4-6");
        let got: Vec<(String, f64, Option<Counts>, Option<&str>)> = f
            .claims
            .iter()
            .map(|c| (c.figure.name(), c.value, c.counts, c.metric.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "accuracy".into(),
                    41.8,
                    Some(Counts {
                        correct: 28,
                        of: 67
                    }),
                    Some("solveable_accuracy")
                ),
                (
                    "accuracy".into(),
                    29.0,
                    Some(Counts {
                        correct: 29,
                        of: 100
                    }),
                    None
                ),
                ("mean_cost_usd".into(), 2.37, None, None),
                ("mean_wall_s".into(), 602.0, None, None),
            ]
        );
        assert!(f.claims.iter().all(|c| c.wave == "oh-swe-bench-multimodal"));
        assert_eq!(f.claims[1].precision, Precision::Decimals(1));
        assert_eq!(f.claims[2].precision, Precision::Decimals(2));
        assert_eq!(f.claims[3].precision, Precision::Decimals(0));
        let e = openhands(&OpenHandsDir {
            dir_name: "m",
            scores_path: Path::new("d/scores.json"),
            scores: r#"[{"benchmark":"gaia","score":"80"}]"#,
            metadata: None,
            wave_prefix: "oh-",
            seat: None,
        })
        .unwrap_err()
        .to_string();
        assert_eq!(
            e,
            "d/scores.json: entry 1 (gaia): field `score`: expected a number, got the string \
             \"80\""
        );
    }
}
