//! `benchledger init` and `benchledger ingest`.

use std::path::PathBuf;

use super::Ctx;
use crate::cli::IngestArgs;
use benchledger_core::error::Result;
use benchledger_core::ingest::from::{self, Built, FromOptions};
use benchledger_core::ingest::run;
use benchledger_core::ledger::{Ledger, RulesRow, WaveReviewRow};

pub fn init(ctx: &mut Ctx<'_>) -> Result<()> {
    let path = ctx.ledger_file()?;
    let (ledger, created) = Ledger::init(&path)?;
    let version = ledger.user_version()?;
    if created {
        return ctx.write(&format!(
            "created ledger {} (schema version {version})\n",
            ledger.path().display()
        ));
    }
    ctx.write(&format!(
        "ledger {} already exists (schema version {version}, matching schema.sql); nothing to \
         do\n",
        ledger.path().display()
    ))
}

/// Ingests waves, all in one transaction: every new wave lands, or none does and the ledger is
/// as it was.
///
/// Each wave is streamed: a seat is read, checked, hashed and staged (written to a scratch
/// database in the temporary directory), then let go, so a wave of a million attempts is never
/// held whole, and the ledger's write lock is not held while files are read. Once every
/// manifest has been read and checked, the staged waves are copied into the ledger in one write
/// transaction, waiting for another writer as --wait allows. Errors are reported as if every
/// manifest were read and checked before the ledger is touched: a bad input file wins over a
/// missing ledger, a conflicting wave id or an SQL error, whichever manifest each is in (the
/// rest are then only read and checked).
pub fn ingest(ctx: &mut Ctx<'_>, manifests: &[PathBuf]) -> Result<()> {
    run::check_manifests(manifests)?;
    let said = run(ctx, manifests, &[], Vec::new())?;
    ctx.write(&said)
}

/// `ingest --from FORMAT PATH...`: the wave manifests built from the files' own words
/// (`ingest::from`), ingested as any manifest is. Notes (files skipped, waves split) come
/// first, one line each.
pub fn ingest_from(
    ctx: &mut Ctx<'_>,
    format: &str,
    inputs: &[PathBuf],
    options: &FromOptions,
) -> Result<()> {
    let plan = run::plan_from_files(format, inputs, options)?;
    for note in &plan.notes {
        ctx.write(&format!("note: {note}\n"))?;
    }
    let said = run(ctx, &[], &plan.manifests, Vec::new())?;
    ctx.write(&said)
}

/// Ingests `manifests`, or the manifests `built` in memory, in one transaction (the library's
/// [`run`]), with `reviews` recorded beside the waves they name (`review --ingest`). Returns
/// what it did, a line per wave and per review, for the caller to print; the waves added go
/// into the command's outcome.
pub(super) fn run(
    ctx: &mut Ctx<'_>,
    manifests: &[PathBuf],
    built: &[Built],
    reviews: Vec<(WaveReviewRow, RulesRow)>,
) -> Result<String> {
    let ledger = match ctx.open_write() {
        Ok(l) => l,
        Err(e) => {
            let paths: Vec<PathBuf> = built.iter().map(|b| b.path.clone()).collect();
            let all = if built.is_empty() { manifests } else { &paths };
            return Err(run::first_input_error(all, built).unwrap_or(e));
        }
    };
    let mut bar = Bar::new(ctx.stderr_terminal);
    let report = if built.is_empty() {
        run::manifests(&ledger, manifests, &ctx.now, &mut bar)?
    } else {
        run::built(&ledger, built, reviews, &ctx.now, &mut bar)?
    };
    ctx.outcome.added_waves.extend(report.added());
    Ok(report.lines())
}

/// How far an importer has read a results file: a bar on stderr, drawn only when stderr is a
/// terminal, and cleared when the file is done.
struct Bar {
    on: bool,
    bar: Option<indicatif::ProgressBar>,
}

impl Bar {
    /// A bar drawn on stderr when it is a terminal (`on`).
    fn new(on: bool) -> Bar {
        Bar { on, bar: None }
    }

    fn get(&mut self, total: Option<u64>) -> Option<&indicatif::ProgressBar> {
        if !self.on {
            return None;
        }
        let bar = self.bar.get_or_insert_with(|| {
            let b = indicatif::ProgressBar::new_spinner();
            b.set_style(
                indicatif::ProgressStyle::with_template("reading {spinner} {pos} records")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
            );
            b
        });
        if let Some(n) = total {
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "reading {bar:40} {pos}/{len} records ({eta} left)",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            bar.set_length(n);
            bar.set_position(0);
        }
        Some(bar)
    }

    fn clear(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
    }
}

impl benchledger_core::import::Progress for Bar {
    fn total(&mut self, records: u64) {
        self.get(Some(records));
    }

    fn advance(&mut self, n: u64) {
        if let Some(b) = self.get(None) {
            b.inc(n);
        }
    }
}

impl run::Watch for Bar {
    /// A seat read: its bar cleared, and the memory it took handed back.
    fn seat_done(&mut self) {
        self.clear();
        super::memory::release_freed();
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.clear();
    }
}

/// `benchledger ingest`: wave manifests, or with `--from`, logs of that format.
pub fn run_ingest(ctx: &mut Ctx<'_>, args: IngestArgs) -> Result<()> {
    let IngestArgs {
        manifests,
        from,
        wave,
        manifest,
        suite_problems,
        suite,
        started_at,
        model,
        harness,
        provider,
        model_mismatch,
        group,
        scorer,
        seat,
        display_name,
        wait: _,
    } = args;
    match from {
        None => ingest(ctx, &manifests),
        Some(format) => {
            let options = FromOptions {
                wave,
                manifest,
                suite,
                suite_problems,
                started_at,
                model,
                provider,
                harness,
                model_mismatch_allowed: model_mismatch.is_some(),
                group,
                scorer,
                seats: seat
                    .iter()
                    .map(|a| from::seat_arg(a))
                    .collect::<Result<_>>()?,
                display_names: display_name
                    .iter()
                    .map(|a| from::display_name_arg(a))
                    .collect::<Result<_>>()?,
            };
            ingest_from(ctx, &format, &manifests, &options)
        }
    }
}
