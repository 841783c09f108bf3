//! `benchledger export`: the ledger's rows as CSV or JSON lines (see [`benchledger_core::report::export`]).
//! Waves are read and written one at a time, so an export of a long history never holds it
//! whole.

use std::path::Path;

use super::rubric::resolve;
use super::{Ctx, Withdrawn};
use crate::cli::ExportArgs;
use benchledger_core::error::{Error, Result};
use benchledger_core::export::hf;
use benchledger_core::ledger::Ledger;
use benchledger_core::report;
use benchledger_core::report::export::{ExportFormat, Rows, Value, What};

/// What `export` was asked for.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    pub format: ExportFormat,
    /// What to export (csv and jsonl).
    pub what: Option<What>,
    /// Where the Parquet files go (parquet).
    pub out: Option<&'a Path>,
    /// The named waves; every wave not withdrawn when empty.
    pub waves: &'a [String],
    /// The rubric of a scores export.
    pub rubric: Option<&'a str>,
    pub include_withdrawn: bool,
    /// Write the CSV header row.
    pub header: bool,
    /// hf-eval-results: `SUITE=OWNER/NAME[:TASK]`, as typed.
    pub hf_datasets: &'a [String],
    /// hf-eval-results: each entry's `source.url`.
    pub source_url: Option<&'a str>,
}

pub fn export(ctx: &mut Ctx<'_>, r: Request<'_>) -> Result<()> {
    if r.format == ExportFormat::Parquet {
        return parquet(ctx, &r);
    }
    if r.format == ExportFormat::Eee {
        return eee(ctx, &r);
    }
    if r.format == ExportFormat::HfEvalResults {
        return hf(ctx, &r);
    }
    if !r.hf_datasets.is_empty() || r.source_url.is_some() {
        return Err(Error::Usage(
            "--hf-dataset and --source-url go with --format hf-eval-results".into(),
        ));
    }
    if r.out.is_some() {
        return Err(Error::Usage(
            "--out goes with --format parquet, eee and hf-eval-results only: csv and jsonl are \
             written to stdout"
                .into(),
        ));
    }
    let Some(what) = r.what else {
        return Err(Error::Usage(
            "--what is missing: export attempts, seats or scores (--what attempts|seats|scores)"
                .into(),
        ));
    };
    let ledger = ctx.open()?;
    let source = match (what, r.rubric) {
        (What::Scores, Some(spec)) => Source::Scores(Box::new(resolve(&ledger, spec)?)),
        (What::Scores, None) => {
            return Err(Error::Usage(
                "--what scores needs --rubric NAME@VERSION (or a rubric file): the scores of \
                 which rubric?"
                    .into(),
            ));
        }
        (_, Some(_)) => {
            return Err(Error::Usage(
                "--rubric goes with --what scores only: attempts and seats are the same under \
                 every rubric"
                    .into(),
            ));
        }
        (What::Attempts, None) => Source::Attempts,
        (What::Seats, None) => Source::Seats,
    };
    let ids = chosen_waves(&ledger, r.waves, r.include_withdrawn)?;
    let mut header = r.header && r.format == ExportFormat::Csv;
    if ids.is_empty() && header {
        let columns = match what {
            What::Attempts => report::export::attempt_columns(),
            // The columns of seats and scores come from a wave's listing; with no wave there
            // is no row, and no header to print either.
            _ => Vec::new(),
        };
        if !columns.is_empty() {
            let rows = Rows {
                columns,
                kinds: report::export::attempt_kinds(),
                rows: Vec::new(),
            };
            ctx.write(&report::export::to_csv(&rows, true))?;
        }
    }
    if r.format == ExportFormat::Csv
        && !ids.is_empty()
        && matches!(source, Source::Seats | Source::Scores(_))
    {
        // A seats or scores listing's columns can differ between waves (a wave with canaries
        // has one more): one header over the union of them, each value under its own column.
        let parts = ids
            .iter()
            .map(|id| wave_rows(&ledger, &source, id))
            .collect::<Result<Vec<_>>>()?;
        return ctx.write(&report::export::to_csv(
            &report::export::concat(parts),
            header,
        ));
    }
    for id in &ids {
        let rows = wave_rows(&ledger, &source, id)?;
        ctx.write(&match r.format {
            ExportFormat::Csv => report::export::to_csv(&rows, header),
            ExportFormat::Jsonl => report::export::to_jsonl(&rows),
            ExportFormat::Parquet | ExportFormat::Eee | ExportFormat::HfEvalResults => {
                unreachable!("written into --out by `parquet`, `eee` and `hf`")
            }
        })?;
        header = false;
    }
    Ok(())
}

/// What each wave's rows are made of: its attempts, its seats, or its scores under a rubric.
pub enum Source {
    Attempts,
    Seats,
    Scores(Box<benchledger_core::report::score::RubricInfo>),
}

/// The waves an export covers, in ledger order: the named ones (each checked to be in the
/// ledger, and refused when withdrawn unless `include_withdrawn`), else every wave not
/// withdrawn (every wave, with `include_withdrawn`).
pub fn chosen_waves(
    ledger: &Ledger,
    waves: &[String],
    include_withdrawn: bool,
) -> Result<Vec<String>> {
    let withdrawn = Withdrawn::load(ledger)?;
    if waves.is_empty() {
        return Ok(ledger
            .wave_ids()?
            .into_iter()
            .filter(|w| include_withdrawn || withdrawn.get(w).is_none())
            .collect());
    }
    for w in waves {
        ledger.load_wave_check(w)?;
        withdrawn.check_named(w, include_withdrawn)?;
    }
    Ok(waves.to_vec())
}

/// One wave's rows of an export, in the columns and order `export --what` writes them.
pub fn wave_rows(ledger: &Ledger, source: &Source, wave: &str) -> Result<Rows> {
    let data = ledger.load_wave(wave)?;
    Ok(match source {
        Source::Attempts => report::export::attempts(&data),
        Source::Seats => report::export::from_table(&report::waves::show(&data).0, &[]),
        Source::Scores(info) => {
            let scores = benchledger_core::rubric::score_wave(&info.rubric, &data);
            let (table, _) = report::score::leaderboard(&data, info, &scores);
            report::export::from_table(&table, &[("rubric", Value::Text(info.rubric.id()))])
        }
    })
}

/// `--format parquet --out DIR`: every wave's attempts, seats and stored scores as three Parquet
/// files (`benchledger_core::export`).
fn parquet(ctx: &mut Ctx<'_>, r: &Request<'_>) -> Result<()> {
    let Some(out) = r.out else {
        return Err(Error::Usage(
            "--format parquet needs --out DIR: the directory to write attempts.parquet, \
             seats.parquet and scores.parquet into"
                .into(),
        ));
    };
    if r.what.is_some() || !r.waves.is_empty() || r.rubric.is_some() || r.include_withdrawn {
        return Err(Error::Usage(
            "--format parquet writes every wave's attempts, seats and stored scores (withdrawn \
             waves marked): --what, --wave, --rubric and --include-withdrawn go with csv and \
             jsonl"
                .into(),
        ));
    }
    let ledger = ctx.open()?;
    if out.exists() && !out.is_dir() {
        return Err(Error::Usage(format!(
            "--out {} is not a directory: give a directory to write the Parquet files into",
            out.display()
        )));
    }
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let n = benchledger_core::export::parquet(&ledger, out)?;
    ctx.write(&format!(
        "exported {} to {}: attempts.parquet ({} rows), seats.parquet ({} rows), \
         scores.parquet ({} rows)\n",
        ledger.path().display(),
        out.display(),
        n.attempts,
        n.seats,
        n.scores
    ))
}

/// The directory --out names, made if missing; refused when it is a file.
fn out_dir<'a>(r: &Request<'a>, what: &str) -> Result<&'a Path> {
    let Some(out) = r.out else {
        return Err(Error::Usage(format!(
            "--format {what} needs --out DIR: the directory to write the files into"
        )));
    };
    if out.exists() && !out.is_dir() {
        return Err(Error::Usage(format!(
            "--out {} is not a directory: give a directory to write the files into",
            out.display()
        )));
    }
    Ok(out)
}

/// `--format eee --out DIR`: per wave and seat an Every Eval Ever record and its instance rows
/// (`benchledger_core::export::eee`). Every file is built before the first is written, so a
/// wave the library cannot export leaves DIR as it was.
fn eee(ctx: &mut Ctx<'_>, r: &Request<'_>) -> Result<()> {
    if r.what.is_some() || r.rubric.is_some() {
        return Err(Error::Usage(
            "--format eee writes each seat's figures, stored rubric scores and attempts: \
             --what and --rubric go with csv and jsonl"
                .into(),
        ));
    }
    if !r.hf_datasets.is_empty() || r.source_url.is_some() {
        return Err(Error::Usage(
            "--hf-dataset and --source-url go with --format hf-eval-results".into(),
        ));
    }
    let out = out_dir(r, "eee")?;
    let ledger = ctx.open()?;
    let ids = chosen_waves(&ledger, r.waves, r.include_withdrawn)?;
    let mut waves = Vec::with_capacity(ids.len());
    for id in &ids {
        waves.push(benchledger_core::export::eee::wave(&ledger, id)?);
    }
    let (mut records, mut rows) = (0, 0);
    for w in &waves {
        for f in &w.files {
            let path = out.join(&f.path);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
            }
            std::fs::write(&path, &f.bytes).map_err(|e| Error::io(&path, e))?;
        }
        records += w.records;
        rows += w.rows;
    }
    ctx.write(&format!(
        "exported {} wave{} to {}: {records} Every Eval Ever record{} (schema {}), {rows} \
         instance row{}\n",
        ids.len(),
        if ids.len() == 1 { "" } else { "s" },
        out.display(),
        if records == 1 { "" } else { "s" },
        benchledger_core::export::eee::SCHEMA_VERSION,
        if rows == 1 { "" } else { "s" },
    ))
}

/// `SUITE=OWNER/NAME[:TASK]` of `--hf-dataset`.
fn hub_dataset(s: &str) -> Result<(String, hf::HubDataset)> {
    let bad = || {
        Error::Usage(format!(
            "--hf-dataset {s:?}: expected SUITE=OWNER/NAME or SUITE=OWNER/NAME:TASK, e.g. \
             gpqa=Idavidrein/gpqa:gpqa_diamond"
        ))
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
        hf::HubDataset {
            id: id.to_string(),
            task_id: task.to_string(),
        },
    ))
}

/// `--format hf-eval-results --out DIR`: per model a `.eval_results/` directory, a YAML file per
/// wave and seat (`benchledger_core::export::hf`). Built whole before anything is written.
fn hf(ctx: &mut Ctx<'_>, r: &Request<'_>) -> Result<()> {
    if r.what.is_some() || r.rubric.is_some() {
        return Err(Error::Usage(
            "--format hf-eval-results writes each seat's Correct-rate: --what and --rubric go \
             with csv and jsonl"
                .into(),
        ));
    }
    let mut options = hf::Options {
        source_url: r.source_url.map(str::to_string),
        ..hf::Options::default()
    };
    for d in r.hf_datasets {
        let (suite, dataset) = hub_dataset(d)?;
        options.datasets.insert(suite, dataset);
    }
    let out = out_dir(r, "hf-eval-results")?;
    let ledger = ctx.open()?;
    let ids = chosen_waves(&ledger, r.waves, r.include_withdrawn)?;
    let suites: std::collections::BTreeSet<String> = ledger
        .waves()?
        .into_iter()
        .filter(|w| ids.contains(&w.wave.id))
        .map(|w| w.wave.suite)
        .collect();
    if let Some(s) = options.datasets.keys().find(|s| !suites.contains(*s)) {
        return Err(Error::Usage(format!(
            "--hf-dataset names suite {s:?}, which no exported wave is of; the suites: {}",
            suites.iter().cloned().collect::<Vec<_>>().join(", ")
        )));
    }
    let mut files = Vec::new();
    for id in &ids {
        files.extend(hf::wave(&ledger, id, &options)?);
    }
    let mut models = std::collections::BTreeSet::new();
    for f in &files {
        let path = out.join(&f.path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
            models.insert(dir.to_path_buf());
        }
        std::fs::write(&path, &f.bytes).map_err(|e| Error::io(&path, e))?;
    }
    ctx.write(&format!(
        "exported {} wave{} to {}: {} .eval_results file{} for {} model{}\n",
        ids.len(),
        if ids.len() == 1 { "" } else { "s" },
        out.display(),
        files.len(),
        if files.len() == 1 { "" } else { "s" },
        models.len(),
        if models.len() == 1 { "" } else { "s" },
    ))
}

/// `benchledger export`, from its flags.
pub fn run(ctx: &mut Ctx<'_>, args: ExportArgs) -> Result<()> {
    let ExportArgs {
        format,
        what,
        out,
        waves,
        rubric,
        include_withdrawn,
        no_header,
        hf_dataset,
        source_url,
    } = args;
    export(
        ctx,
        Request {
            format: format.into(),
            what: what.map(Into::into),
            out: out.as_deref(),
            waves: &waves,
            rubric: rubric.as_deref(),
            include_withdrawn,
            header: !no_header,
            hf_datasets: &hf_dataset,
            source_url: source_url.as_deref(),
        },
    )
}
