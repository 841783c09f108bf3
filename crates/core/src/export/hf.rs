//! `export --format hf-eval-results`: seats' Correct-rates as the `.eval_results/*.yaml` files a
//! Hugging Face model repository carries, which the Hub shows on the model's page and gathers
//! into the benchmark dataset's leaderboard.
//!
//! The format, as Hugging Face documents it (read at huggingface/hub-docs commit
//! 064c75486afa079642c3a60c3f077835eed03a06, `docs/hub/eval-results.md`, and its specification
//! `eval_results.yaml`; the same fields as `huggingface_hub`'s `EvalResultEntry` and
//! `parse_eval_result_entries`, `src/huggingface_hub/_eval_results.py`): a YAML list of entries,
//! each with `dataset.id` (the benchmark's Hub dataset), `dataset.task_id` (a task of its
//! `eval.yaml`), `value`, and optionally `date`, `source` (`url`, required when `source` is
//! given, `name`, `user`, `org`) and `notes`.
//!
//! The format has no field for the metric: the benchmark's `eval.yaml` defines it. So the value
//! is the seat's Correct-rate as a proportion (0 to 1), and `notes` says so, with the harness,
//! the denominator and the wave's load, so that the number does not travel without its
//! conditions. One file per wave and seat (`<model dir>/.eval_results/<wave>_<seat>.yaml`):
//! Hugging Face's guidance puts each variant of a benchmark score (another harness, other
//! tools) in a file of its own.

use std::collections::BTreeMap;

use crate::error::Result;
use crate::figures::SeatFigures;
use crate::ledger::Ledger;
use crate::model::WaveData;

use super::eee::File;

/// Where a suite is on the Hub: the benchmark's dataset id and the task of its `eval.yaml`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HubDataset {
    pub id: String,
    pub task_id: String,
}

/// What the entries say beyond the ledger: where each suite is on the Hub (a suite not named
/// keeps its own name as the dataset id and task `default`), and a link to the results.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub datasets: BTreeMap<String, HubDataset>,
    pub source_url: Option<String>,
}

/// `SUITE=OWNER/NAME[:TASK]` of `--hf-dataset`.
pub fn hub_dataset(s: &str) -> Result<(String, HubDataset)> {
    let bad = || {
        crate::error::Error::argument(
            "hf_dataset",
            format!("{s:?}"),
            "expected SUITE=OWNER/NAME or SUITE=OWNER/NAME:TASK, e.g. \
             gpqa=Idavidrein/gpqa:gpqa_diamond",
        )
    };
    let (suite, rest) = s.split_once('=').ok_or_else(bad)?;
    let (id, task) = match rest.split_once(':') {
        Some((id, task)) => (id, task),
        None => (rest, "default"),
    };
    let ok = |t: &str| !t.trim().is_empty() && t.trim() == t;
    if !ok(suite) || !ok(task) || id.split('/').count() != 2 || !id.split('/').all(ok) {
        return Err(bad());
    }
    Ok((
        suite.to_string(),
        HubDataset {
            id: id.to_string(),
            task_id: task.to_string(),
        },
    ))
}

/// One wave's files: a YAML file per seat with a Correct-rate.
pub fn wave(ledger: &Ledger, wave: &str, options: &Options) -> Result<Vec<File>> {
    let data = ledger.load_wave(wave)?;
    Ok(files(&data, options))
}

fn files(data: &WaveData, options: &Options) -> Vec<File> {
    let w = &data.wave;
    let dataset = options
        .datasets
        .get(&w.suite)
        .cloned()
        .unwrap_or(HubDataset {
            id: w.suite.clone(),
            task_id: "default".into(),
        });
    let mut out = Vec::new();
    for seat in &data.seats {
        let f = SeatFigures::of(w, seat);
        let Some(acc) = f.accuracy.filter(|a| a.is_finite()) else {
            continue;
        };
        let s = &seat.seat;
        let mut load = Vec::new();
        if let Some(n) = w.load.parallel_sessions {
            load.push(format!("{n} parallel sessions"));
        }
        if let Some(n) = w.load.tool_server_sessions {
            load.push(format!("{n} on the tool server"));
        }
        if let Some(b) = w.load.serial_rerun {
            load.push(if b { "serial rerun" } else { "no serial rerun" }.to_string());
        }
        let mut notes = format!(
            "Correct-rate as a proportion: {} of {} Correct ({} attempts, {} problems missing); \
             harness {}; benchledger wave {}, seat {}",
            f.correct, f.denominator, f.attempts, f.missing, s.harness, w.id, s.id
        );
        if let Some(c) = &s.config {
            notes.push_str(&format!("; config {c}"));
        }
        if !load.is_empty() {
            notes.push_str(&format!("; load: {}", load.join(", ")));
        }
        let mut y = String::new();
        y.push_str("- dataset:\n");
        y.push_str(&format!("    id: {}\n", quoted(&dataset.id)));
        y.push_str(&format!("    task_id: {}\n", quoted(&dataset.task_id)));
        y.push_str(&format!("  value: {}\n", number(acc)));
        y.push_str(&format!("  date: {}\n", quoted(&w.started_at)));
        if let Some(url) = &options.source_url {
            y.push_str("  source:\n");
            y.push_str(&format!("    url: {}\n", quoted(url)));
            y.push_str(&format!(
                "    name: {}\n",
                quoted(&format!("benchledger wave {}", w.id))
            ));
        }
        y.push_str(&format!("  notes: {}\n", quoted(&notes)));
        out.push(File {
            path: format!(
                "{}/{}/.eval_results/{}_{}.yaml",
                super::eee::file_name(&s.provider),
                super::eee::file_name(&s.model),
                super::eee::file_name(&w.id),
                super::eee::file_name(&s.id)
            ),
            bytes: y.into_bytes(),
        });
    }
    out
}

/// A YAML double-quoted scalar. JSON's string escapes are YAML's, so a JSON string is one.
fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// A finite number as the shortest text that reads back to it.
fn number(x: f64) -> String {
    serde_json::to_string(&x).unwrap_or_else(|_| "null".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quoted_scalar_escapes_what_yaml_would_read_otherwise() {
        assert_eq!(quoted("a: b #c"), "\"a: b #c\"");
        assert_eq!(quoted("line\n\"q\""), "\"line\\n\\\"q\\\"\"");
        assert_eq!(number(0.75), "0.75");
        assert_eq!(number(1.0), "1.0");
    }
}
