//! `benchledger init` and `benchledger ingest`.

use std::path::{Path, PathBuf};

use super::Ctx;
use crate::cli::IngestArgs;
use benchledger_core::error::{Error, Hint, Result};
use benchledger_core::ingest::files::Files;
use benchledger_core::ingest::from::{self, Built, FromOptions};
use benchledger_core::ingest::{WaveVisitor, visit_wave};
use benchledger_core::ledger::{Ingested, Ledger, RulesRow, Staging, WaveReviewRow};
use benchledger_core::model::{SeatData, Wave};

pub fn init(ctx: &mut Ctx<'_>) -> Result<()> {
    let path = ctx.ledger_file()?;
    let (ledger, created) = Ledger::create(&path)?;
    let version = ledger.user_version()?;
    if created {
        return ctx.write(&format!(
            "created ledger {} (schema version {version})\n",
            ledger.path().display()
        ));
    }
    // An existing ledger is up to date only if its schema is what schema.sql makes: a ledger
    // whose triggers were dropped is not "nothing to do".
    let differences = ledger.schema_differences()?;
    if !differences.is_empty() {
        return Err(benchledger_core::error::Error::CheckFailed(format!(
            "ledger {} exists, but its schema differs from schema.sql:\n{}\nIts raw facts may \
             have been changed behind benchledger's back: check them with `benchledger verify \
             --ledger --all`",
            ledger.path().display(),
            differences
                .iter()
                .map(|d| format!("  - {d}"))
                .collect::<Vec<_>>()
                .join("\n")
        )));
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
    for m in manifests {
        let files = Files {
            manifest: m,
            built: &[],
        };
        if let Some(e) = from::not_a_manifest(&files, m) {
            return Err(e);
        }
    }
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
    let files = Files {
        manifest: options.manifest.as_deref().unwrap_or(Path::new("")),
        built: &[],
    };
    let plan = from::ingest_from(&files, format, inputs, options)?;
    for note in &plan.notes {
        ctx.write(&format!("note: {note}\n"))?;
    }
    let paths: Vec<PathBuf> = plan.manifests.iter().map(|b| b.path.clone()).collect();
    let said = run(ctx, &paths, &plan.manifests, Vec::new()).map_err(|e| match e {
        // A wave built from files may have been meant as seats added to one there.
        Error::Hinted { error, hint } if *hint == Hint::OwnWaveId => Error::Hinted {
            error,
            hint: Box::new(Hint::AddSeats),
        },
        e => relocate(&plan.manifests, e),
    })?;
    ctx.write(&said)
}

/// An error in a built manifest names its field, not a line of text the user never saw.
fn relocate(built: &[Built], e: Error) -> Error {
    match e {
        Error::Input { mut at, message } if built.iter().any(|b| b.path == at.path) => {
            at.line = None;
            Error::Input { at, message }
        }
        Error::Hinted { error, hint } => Error::Hinted {
            error: Box::new(relocate(built, *error)),
            hint,
        },
        other => other,
    }
}

/// Ingests `manifests` (`built` read in place of their paths) in one transaction, with
/// `reviews` recorded beside the waves they name (`review --ingest`). Returns what it did, a
/// line per wave and per review, for the caller to print.
pub(super) fn run(
    ctx: &mut Ctx<'_>,
    manifests: &[PathBuf],
    built: &[Built],
    reviews: Vec<(WaveReviewRow, RulesRow)>,
) -> Result<String> {
    let ledger = match ctx.open_write() {
        Ok(l) => l,
        Err(e) => return Err(first_input_error(manifests, built).unwrap_or(e)),
    };
    let staging = match ledger.stage_ingest(&std::env::temp_dir()) {
        Ok(s) => s,
        Err(e) => return Err(first_input_error(manifests, built).unwrap_or(e)),
    };
    let mut sink = Sink {
        manifest: PathBuf::new(),
        staging,
        begun: false,
        failed: None,
        seats: 0,
        attempts: 0,
        bar: Bar::new(ctx.stderr_terminal),
    };
    // (wave id, seats, attempts, sha256) of each wave staged, in order.
    let mut staged = Vec::with_capacity(manifests.len());
    for m in manifests {
        sink.seats = 0;
        sink.attempts = 0;
        sink.manifest.clone_from(m);
        // An error reading this manifest is the first input error: report it (dropping the
        // staging leaves the ledger untouched).
        let wave = visit_wave(&Files { manifest: m, built }, m, &mut sink)?;
        if sink.failed.is_some() {
            continue;
        }
        if !std::mem::take(&mut sink.begun) {
            // `visit_wave` names the wave before it returns it.
            sink.failed = Some(Error::Usage(format!(
                "wave {} was read without its conditions",
                wave.id
            )));
            continue;
        }
        match sink.staging.finish_wave(&wave) {
            Ok(hash) => staged.push((wave.id, sink.seats, sink.attempts, hash.sha256)),
            Err(e) => sink.failed = Some(e),
        }
    }
    sink.bar.clear();
    if let Some(e) = sink.failed {
        return Err(e);
    }
    let reviewed: Vec<WaveReviewRow> = reviews.iter().map(|(r, _)| r.clone()).collect();
    for (review, rules) in reviews {
        sink.staging.review(review, rules);
    }
    let outcomes = sink.staging.commit(&ctx.now)?;
    let mut msg = String::new();
    for ((id, seats, attempts, sha), o) in staged.iter().zip(outcomes) {
        match o {
            Ingested::Added => {
                ctx.outcome.added_waves.push(id.clone());
                msg.push_str(&format!(
                    "added wave {id}: {seats} seats, {attempts} attempts (sha256 {})\n",
                    benchledger_core::digest::short(sha)
                ));
            }
            Ingested::AlreadyPresent => msg.push_str(&format!(
                "wave {id} is already in the ledger with the same content (sha256 {}); nothing \
                 to do\n",
                benchledger_core::digest::short(sha)
            )),
            Ingested::Named(n) => msg.push_str(&format!(
                "wave {id} is already in the ledger with the same content (sha256 {}); gave {n} \
                 of its seats the display name{} the manifest names\n",
                benchledger_core::digest::short(sha),
                if n == 1 { "" } else { "s" }
            )),
        }
    }
    for r in &reviewed {
        let kept = ledger
            .wave_reviews(&r.wave)?
            .into_iter()
            .find(|k| k.rules_sha256 == r.rules_sha256);
        msg.push_str(&match kept {
            Some(k) if k.reviewed_at == r.reviewed_at && k.findings_sha256 == r.findings_sha256 => {
                format!(
                    "recorded the review of wave {} under rules {} ({}, sha256 {}) in the log\n",
                    r.wave,
                    r.rules(),
                    r.verdict,
                    benchledger_core::digest::short(&r.rules_sha256)
                )
            }
            Some(k) => format!(
                "wave {} already holds a review under rules {} ({}, {}); kept that one\n",
                r.wave,
                r.rules(),
                k.verdict,
                k.reviewed_at
            ),
            None => String::new(),
        });
    }
    Ok(msg)
}

/// Where a wave's seats go as they are read: into its content hash and the staging. After a
/// ledger error it only lets the seats pass, so the rest of the input is still checked.
struct Sink<'l> {
    /// The manifest being read.
    manifest: PathBuf,
    staging: Staging<'l>,
    /// The wave being read was begun in the staging.
    begun: bool,
    failed: Option<Error>,
    seats: usize,
    attempts: usize,
    /// How far a long results file has been read, on a terminal.
    bar: Bar,
}

impl WaveVisitor for Sink<'_> {
    fn progress(&mut self) -> Option<&mut dyn benchledger_core::import::Progress> {
        Some(&mut self.bar)
    }

    fn cancel(&self) -> Option<&benchledger_core::cancel::Cancel> {
        Some(self.staging.cancel())
    }

    fn wave(&mut self, wave: &Wave) {
        if self.failed.is_some() {
            return;
        }
        match self.staging.begin_wave(wave, &self.manifest) {
            Ok(_) => self.begun = true,
            Err(e) => self.failed = Some(e),
        }
    }

    fn seat(&mut self, _: &Wave, seat: SeatData) {
        self.bar.clear();
        self.seats += 1;
        self.attempts += seat.attempts.len();
        if self.failed.is_some() {
            return;
        }
        if let Err(e) = self.staging.add_seat(&seat) {
            self.failed = Some(e);
        }
        drop(seat);
        super::memory::release_freed();
    }
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

impl Drop for Bar {
    fn drop(&mut self) {
        self.clear();
    }
}

/// The first error in reading and checking these manifests, if any.
fn first_input_error(manifests: &[PathBuf], built: &[Built]) -> Option<Error> {
    struct Check;
    impl WaveVisitor for Check {
        fn wave(&mut self, _: &Wave) {}
        fn seat(&mut self, _: &Wave, _: SeatData) {}
    }
    manifests
        .iter()
        .find_map(|m| visit_wave(&Files { manifest: m, built }, m, &mut Check).err())
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
