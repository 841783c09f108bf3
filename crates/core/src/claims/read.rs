//! `claims from` as one library call: a harness's or leaderboard's own files read (capped, as
//! regular files only) and their published figures made a claims file's text, with where they
//! came from said in its comments. The command writes it to a new file; Python's
//! `Ledger.claims_from` returns it or writes it the same way. The extractors themselves
//! (`claims::from`, `claims::from_evals`) stay pure; this module is where their files are read.

use std::io::Write;
use std::path::Path;

use super::{ClaimsFile, from, from_evals, write};
use crate::error::{Error, Result};
use crate::files;

/// A leaderboard's own file read whole (OpenHands index scores.json and metadata.json, a HELM
/// run's stats.json, an aggregate record).
const LEADERBOARD: files::Cap = files::Cap {
    bytes: 64 * 1024 * 1024,
    what: "a leaderboard's scores file",
    advice: "check the path",
};

/// Where the claims come from, by format, with what each format needs named.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    /// An OpenHands index model directory (`results/<model>`): a wave per benchmark,
    /// `wave_prefix` + its name; the seat the directory's name unless named.
    Openhands {
        dir: &'a Path,
        wave_prefix: &'a str,
        seat: Option<&'a str>,
    },
    /// A Terminal-Bench run's `results.json`.
    TerminalBench {
        results: &'a Path,
        wave: &'a str,
        seat: &'a str,
    },
    /// A HAL `*_UPLOAD.json`.
    Hal {
        upload: &'a Path,
        wave: &'a str,
        seat: &'a str,
    },
    /// A Harbor job's `result.json`.
    Harbor {
        result: &'a Path,
        wave: &'a str,
        seat: &'a str,
    },
    /// A HELM run directory, its main metric unless named.
    Helm {
        run_dir: &'a Path,
        metric: Option<&'a str>,
        wave: &'a str,
        seat: &'a str,
    },
    /// An Every Eval Ever aggregate record (or the samples file beside it).
    Eee {
        record: &'a Path,
        evaluation: Option<&'a str>,
        wave: &'a str,
        seat: &'a str,
    },
    /// An lm-evaluation-harness run's `results_<date>.json`, one task of it.
    LmEval {
        results: &'a Path,
        task: &'a str,
        metric: Option<&'a str>,
        wave: &'a str,
        seat: &'a str,
    },
}

/// A claims file made from a source's files: the claims, and the text to write (which reads
/// back as them).
#[derive(Debug, Clone)]
pub struct Made {
    pub file: ClaimsFile,
    pub text: String,
}

/// Reads the source's files and makes the claims file, its comments saying where each figure
/// came from and what it claims to be (docs/claims.md).
pub fn read(source: &Source<'_>) -> Result<Made> {
    let (file, comments) = match *source {
        Source::Openhands {
            dir,
            wave_prefix,
            seat,
        } => openhands(dir, wave_prefix, seat)?,
        Source::TerminalBench {
            results,
            wave,
            seat,
        } => run("terminal-bench", results, wave, seat)?,
        Source::Hal { upload, wave, seat } => run("hal", upload, wave, seat)?,
        Source::Harbor { result, wave, seat } => {
            let text = read_text(result)?;
            let file = from::harbor(result, &text, wave, seat)?;
            let comments = vec![
                said_by("harbor", result),
                format!(
                    "Wave {wave}, seat {seat}: the mean metric → mean_outcome, pass_at_k → \
                     pass_at_k.K; published unrounded, so within ±1e-9 (docs/claims.md)."
                ),
            ];
            (file, comments)
        }
        Source::Helm {
            run_dir,
            metric,
            wave,
            seat,
        } => helm(run_dir, metric, wave, seat)?,
        Source::Eee {
            record,
            evaluation,
            wave,
            seat,
        } => eee(record, evaluation, wave, seat)?,
        Source::LmEval {
            results,
            task,
            metric,
            wave,
            seat,
        } => {
            let text = read_text(results)?;
            let file = from::lm_eval(results, &text, task, metric, wave, seat)?;
            let comments = vec![
                said_by("lm-eval", results),
                format!(
                    "Wave {wave}, seat {seat}: task {task}'s figure → accuracy; published \
                     unrounded, so within ±1e-9; its _stderr → accuracy_se, within what ÷ n − 1 \
                     and ÷ n differ by (docs/claims.md)."
                ),
            ];
            (file, comments)
        }
    };
    let text = write::to_toml(&file, &comments);
    Ok(Made { file, text })
}

/// Writes a claims file's `text` to `out`, a new file: one that exists is never overwritten.
/// What is written must read back as written.
pub fn write_new(out: &Path, text: &str) -> Result<()> {
    super::parse(out, text)?;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(out)
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                Error::Usage(format!(
                    "{} already exists: claims are written to a new file, never over one; name \
                     another",
                    out.display()
                ))
            } else {
                Error::io(out, e)
            }
        })?;
    f.write_all(text.as_bytes())
        .and_then(|()| f.sync_all())
        .map_err(|e| Error::io(out, e))
}

fn read_text(path: &Path) -> Result<String> {
    files::read_text(path, LEADERBOARD).map_err(|e| Error::io(path, e))
}

/// The comment naming the format and the file the claims were read from.
fn said_by(format: &str, path: &Path) -> String {
    format!(
        "Claims read by `benchledger claims from {format}` from {}.",
        path.display()
    )
}

fn openhands(
    dir: &Path,
    wave_prefix: &str,
    seat: Option<&str>,
) -> Result<(ClaimsFile, Vec<String>)> {
    let scores_path = dir.join("scores.json");
    if !scores_path.is_file() {
        return Err(Error::Usage(format!(
            "{}: expected an OpenHands index model directory (results/<model> of \
             OpenHands/openhands-index-results), holding scores.json, metadata.json and \
             instance_results/; there is no scores.json there",
            dir.display()
        )));
    }
    let scores = read_text(&scores_path)?;
    let metadata_path = dir.join("metadata.json");
    let metadata = if metadata_path.exists() {
        Some(read_text(&metadata_path)?)
    } else {
        None
    };
    let dir_name = std::fs::canonicalize(dir)
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .ok_or_else(|| {
            Error::Usage(format!(
                "{}: expected an OpenHands index model directory (results/<model>)",
                dir.display()
            ))
        })?;
    let file = from::openhands(&from::OpenHandsDir {
        dir_name: &dir_name,
        scores_path: &scores_path,
        scores: &scores,
        metadata: metadata.as_deref().map(|m| (metadata_path.as_path(), m)),
        wave_prefix,
        seat,
    })?;
    let comments = vec![
        said_by("openhands", &scores_path),
        format!(
            "Each benchmark B is wave {wave_prefix}B; the seat is {}. score → accuracy (×100, \
             with the index's metric and counts), cost_per_instance → mean_cost_usd, \
             average_runtime → mean_wall_s (docs/claims.md).",
            file.claims[0].seat
        ),
    ];
    Ok((file, comments))
}

/// Terminal-Bench's `results.json` and HAL's upload.
fn run(format: &str, path: &Path, wave: &str, seat: &str) -> Result<(ClaimsFile, Vec<String>)> {
    let reader = files::open_regular(path).map_err(|e| Error::io(path, e))?;
    let file = match format {
        "terminal-bench" => from::terminal_bench(path, reader, wave, seat)?,
        _ => from::hal(path, reader, wave, seat)?,
    };
    let mapping = match format {
        "terminal-bench" => "accuracy → accuracy, pass_at_k → pass_at_k.K",
        _ => "results.accuracy → accuracy, total_cost → cost_usd",
    };
    let comments = vec![
        said_by(format, path),
        format!(
            "Wave {wave}, seat {seat}: {mapping}; published unrounded, so each within ±1e-9 \
             (docs/claims.md)."
        ),
    ];
    Ok((file, comments))
}

fn helm(
    dir: &Path,
    metric: Option<&str>,
    wave: &str,
    seat: &str,
) -> Result<(ClaimsFile, Vec<String>)> {
    let stats = dir.join("stats.json");
    if !stats.is_file() {
        return Err(Error::Usage(format!(
            "{}: expected a HELM run directory (benchmark_output/runs/<suite>/<run>), holding \
             stats.json beside run_spec.json and per_instance_stats.json; there is no \
             stats.json there",
            dir.display()
        )));
    }
    let text = read_text(&stats)?;
    let file = from_evals::helm(&stats, &text, metric, wave, seat)?;
    let metric = metric.unwrap_or(from_evals::HELM_METRIC);
    let comments = vec![
        said_by("helm", &stats),
        format!(
            "Wave {wave}, seat {seat}: of the unperturbed test split, {metric} → mean_outcome, \
             num_prompt_tokens → mean_input_tokens, num_completion_tokens → \
             mean_output_tokens, inference_runtime → mean_wall_s, each within ±1e-9 (HELM \
             writes its means unrounded); num_instances → problems (docs/claims.md)."
        ),
    ];
    Ok((file, comments))
}

/// An Every Eval Ever aggregate record (or the one beside a samples file).
fn eee(
    path: &Path,
    evaluation: Option<&str>,
    wave: &str,
    seat: &str,
) -> Result<(ClaimsFile, Vec<String>)> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let record = match name.strip_suffix("_samples.jsonl") {
        Some(id) => path.with_file_name(format!("{id}.json")),
        None => path.to_path_buf(),
    };
    if !record.is_file() {
        return Err(Error::Usage(format!(
            "{}: expected an Every Eval Ever aggregate record <id>.json (or its \
             <id>_samples.jsonl, with the record beside it); there is no such file",
            record.display()
        )));
    }
    let text = read_text(&record)?;
    let file = from_evals::eee(&record, &text, evaluation, wave, seat)?;
    let comments = vec![
        said_by("eee", &record),
        format!(
            "Wave {wave}, seat {seat}: score_details.score → accuracy (an accuracy metric) or \
             mean_outcome, at its written decimals; its uncertainty is said in the claim's \
             source, and an accuracy's standard_error → accuracy_se, within what the sample and \
             population estimators differ by; uncertainty.num_samples → attempts \
             (docs/claims.md)."
        ),
    ];
    Ok((file, comments))
}
