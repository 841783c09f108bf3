//! The figures a Terminal-Bench run publishes in its `results.json`, as claims (docs/claims.md,
//! "Claims from leaderboards"): its top-level figures, the rest (every trial) skipped unread.

use std::io::Read;
use std::path::Path;

use serde_json::Value;

use super::super::claims::{FULL_PRECISION, claim, count, number, slug, top_level};
use super::super::json::describe;
use crate::error::{Error, Location, Result};
use crate::model::claims::{ClaimsFile, Counts, Figure, Precision, SeatFigure};

/// The published figures of a Terminal-Bench run's results.json, as claims about one seat.
pub fn terminal_bench<R: Read>(
    path: &Path,
    reader: R,
    wave: &str,
    seat: &str,
) -> Result<ClaimsFile> {
    let o = top_level(
        path,
        reader,
        "a Terminal-Bench run's results.json: a JSON object with accuracy and pass_at_k",
        &["id", "accuracy", "pass_at_k", "n_resolved", "n_unresolved"],
    )?;
    let at = |key: &str| Location::file(path).field(key);
    let mut claims = Vec::new();
    if let Some(acc) = number(&at, &o, "accuracy")? {
        let mut c = claim(
            wave,
            seat,
            Figure::Seat(SeatFigure::Accuracy),
            acc,
            1.0,
            Precision::Tolerance(FULL_PRECISION),
        );
        if let (Some(r), Some(u)) = (
            count(&at, &o, "n_resolved")?,
            count(&at, &o, "n_unresolved")?,
        ) && r + u > 0
        {
            c.counts = Some(Counts {
                correct: r,
                of: r + u,
            });
        }
        claims.push(c);
    }
    match o.get("pass_at_k") {
        None | Some(Value::Null) => {}
        Some(Value::Object(m)) => {
            let mut ks = Vec::new();
            for key in m.keys() {
                let plain = !key.is_empty() && key.bytes().all(|b| b.is_ascii_digit());
                let Some(k) = key.parse::<u64>().ok().filter(|k| plain && *k >= 1) else {
                    return Err(Error::input(
                        at("pass_at_k"),
                        format!(
                            "expected each key to be a number of trials k, 1 or more, got {key:?}"
                        ),
                    ));
                };
                let pat = |key: &str| at(&format!("pass_at_k.{key}"));
                if let Some(x) = number(&pat, m, key)? {
                    ks.push((k, x));
                }
            }
            ks.sort_by_key(|(k, _)| *k);
            for (k, x) in ks {
                let c = claim(
                    wave,
                    seat,
                    Figure::PassAtK(k),
                    x,
                    1.0,
                    Precision::Tolerance(FULL_PRECISION),
                );
                claims.push(c);
            }
        }
        Some(v) => {
            return Err(Error::input(
                at("pass_at_k"),
                format!("expected an object of k → pass@k, got {}", describe(v)),
            ));
        }
    }
    if claims.is_empty() {
        return Err(Error::input(
            Location::file(path),
            "no published figures: expected accuracy or pass_at_k",
        ));
    }
    let run = o.get("id").and_then(Value::as_str);
    Ok(ClaimsFile {
        name: slug(&format!("terminal-bench-{wave}")),
        version: 1,
        source: match run {
            Some(id) => format!("Terminal-Bench run {id}, results.json"),
            None => "Terminal-Bench run, results.json".into(),
        },
        description: None,
        claims,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_bench_figures_skip_the_rest_of_the_file() {
        let results = r#"{"id":"run","results":[{"t":1}],"pass_at_k":{"4":1.0,"2":0.8,"10":null},
            "accuracy":0.5,"n_resolved":5,"n_unresolved":5}"#;
        let f = terminal_bench(Path::new("r.json"), results.as_bytes(), "w", "s").unwrap();
        let got: Vec<(String, f64)> = f
            .claims
            .iter()
            .map(|c| (c.figure.name(), c.value))
            .collect();
        assert_eq!(
            got,
            [
                ("accuracy".into(), 0.5),
                ("pass_at_k.2".into(), 0.8),
                ("pass_at_k.4".into(), 1.0)
            ]
        );
        assert_eq!(f.claims[0].counts, Some(Counts { correct: 5, of: 10 }));
        let e = terminal_bench(
            Path::new("r.json"),
            r#"{"pass_at_k":{"x":1}}"#.as_bytes(),
            "w",
            "s",
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("r.json: field `pass_at_k`: expected each key"),
            "{e}"
        );
    }
}
