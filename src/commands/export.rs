//! `benchledger export`: the ledger's rows as CSV or JSON lines, or Parquet, Every Eval Ever
//! and Hugging Face files written into a directory, each built by the library
//! (`benchledger_core::export::rows` and `into_dir`); this checks which flags go together and
//! says what was written.

use std::path::Path;

use super::Ctx;
use crate::cli::ExportArgs;
use benchledger_core::error::{Error, Result};
use benchledger_core::export::rows::{self, Source, chosen_waves};
use benchledger_core::export::{hf, into_dir};
use benchledger_core::report::export::{ExportFormat, What};

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
    let source = Source::of(&ledger, what, r.rubric)?;
    let ids = chosen_waves(&ledger, r.waves, r.include_withdrawn)?;
    rows::text(&ledger, &source, r.format, &ids, r.header, &mut |s| {
        ctx.write(s)
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
    let n = into_dir::parquet(&ledger, out)?;
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

/// The directory --out names (the library refuses one that is a file).
fn out_dir<'a>(r: &Request<'a>, what: &str) -> Result<&'a Path> {
    let Some(out) = r.out else {
        return Err(Error::Usage(format!(
            "--format {what} needs --out DIR: the directory to write the files into"
        )));
    };
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
    let into_dir::EeeWritten { records, rows } = into_dir::eee(&ledger, &ids, out)?;
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
        let (suite, dataset) = hf::hub_dataset(d)?;
        options.datasets.insert(suite, dataset);
    }
    let out = out_dir(r, "hf-eval-results")?;
    let ledger = ctx.open()?;
    let ids = chosen_waves(&ledger, r.waves, r.include_withdrawn)?;
    let into_dir::HfWritten { files, models } = into_dir::hf(&ledger, &ids, &options, out)?;
    ctx.write(&format!(
        "exported {} wave{} to {}: {} .eval_results file{} for {} model{}\n",
        ids.len(),
        if ids.len() == 1 { "" } else { "s" },
        out.display(),
        files,
        if files == 1 { "" } else { "s" },
        models,
        if models == 1 { "" } else { "s" },
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
