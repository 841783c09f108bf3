//! Ingest as one library operation: wave manifests (or manifests built from a harness's files,
//! [`from`]) read, checked, staged and committed in one transaction, with any
//! reviews recorded beside the waves they let in. `benchledger ingest`, `ingest --from`,
//! `review --ingest` and the Python package's `Ledger.ingest` / `ingest_from` all call
//! [`manifests`] and [`from_files`]; each says what happened in its own way.

use std::path::{Path, PathBuf};

use super::files::Files;
use super::from::{self, Built, FromOptions};
use super::{WaveVisitor, visit_wave};
use crate::digest::short;
use crate::error::{Error, Hint, Result};
use crate::import::Progress;
use crate::ledger::{Ingested, Ledger, RulesRow, Staging, WaveReviewRow};
use crate::model::{SeatData, Wave};

/// One wave of an ingest, and what became of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Landed {
    pub wave: String,
    pub seats: usize,
    pub attempts: usize,
    /// Its content hash.
    pub sha256: String,
    pub outcome: Ingested,
}

/// A review recorded with an ingest (`review --ingest`), and the one the ledger keeps under
/// its rules text (another, when the wave already held a review under them).
#[derive(Debug, Clone, PartialEq)]
pub struct ReviewLanded {
    pub review: WaveReviewRow,
    pub kept: Option<WaveReviewRow>,
}

/// What an ingest did: every wave in the order read, every review asked to be recorded, and
/// the notes of building manifests from files (`ingest --from`: files skipped, waves split).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    pub notes: Vec<String>,
    pub waves: Vec<Landed>,
    pub reviews: Vec<ReviewLanded>,
}

impl Report {
    /// The waves the ingest added (not those the ledger held already), in order.
    pub fn added(&self) -> Vec<String> {
        self.waves
            .iter()
            .filter(|w| w.outcome == Ingested::Added)
            .map(|w| w.wave.clone())
            .collect()
    }

    /// A line per wave and per review, as the command prints them (the notes apart).
    pub fn lines(&self) -> String {
        let mut msg = String::new();
        for w in &self.waves {
            let sha = short(&w.sha256);
            let id = &w.wave;
            match w.outcome {
                Ingested::Added => msg.push_str(&format!(
                    "added wave {id}: {} seats, {} attempts (sha256 {sha})\n",
                    w.seats, w.attempts
                )),
                Ingested::AlreadyPresent => msg.push_str(&format!(
                    "wave {id} is already in the ledger with the same content (sha256 {sha}); \
                     nothing to do\n"
                )),
                Ingested::Named(n) => msg.push_str(&format!(
                    "wave {id} is already in the ledger with the same content (sha256 {sha}); \
                     gave {n} of its seats the display name{} the manifest names\n",
                    if n == 1 { "" } else { "s" }
                )),
            }
        }
        for ReviewLanded { review: r, kept } in &self.reviews {
            msg.push_str(&match kept {
                Some(k)
                    if k.reviewed_at == r.reviewed_at && k.findings_sha256 == r.findings_sha256 =>
                {
                    format!(
                        "recorded the review of wave {} under rules {} ({}, sha256 {}) in the \
                         log\n",
                        r.wave,
                        r.rules(),
                        r.verdict,
                        short(&r.rules_sha256)
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
        msg
    }
}

/// Where a seat's reading reports to the caller (a terminal's bar, or nothing): how far a
/// results file is read, and when a seat is done (so the caller can clear its bar or hand
/// memory back).
pub trait Watch: Progress {
    fn seat_done(&mut self) {}
}

impl Watch for crate::import::Quiet {}

/// Each of `paths` is a wave manifest, not a results file given in its place (which is named
/// as such): checked before a ledger is opened, so that bad input is named first.
pub fn check_manifests(paths: &[PathBuf]) -> Result<()> {
    for m in paths {
        let files = Files {
            manifest: m,
            built: &[],
        };
        if let Some(e) = from::not_a_manifest(&files, m) {
            return Err(e);
        }
    }
    Ok(())
}

/// Ingests the wave manifests at `paths` into `ledger` in one transaction at `now`: every new
/// wave lands, or none does ([`check_manifests`] first).
///
/// # Example
///
/// ```
/// use std::path::Path;
/// use benchledger_core::{Ledger, import::Quiet, ingest};
///
/// # fn main() -> benchledger_core::Result<()> {
/// let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
/// let waves = [
///     examples.join("rca-wave-1/wave.toml"),
///     examples.join("rca-wave-2/wave.toml"),
/// ];
/// let ledger = Ledger::in_memory()?;
/// let now = "2026-12-04T00:00:00Z";
/// let report = ingest::run::manifests(&ledger, &waves, now, &mut Quiet)?;
/// assert_eq!(report.added(), ["rca-wave-1", "rca-wave-2"]);
/// // The same waves again are already there, with the same content: nothing is added.
/// let again = ingest::run::manifests(&ledger, &waves, now, &mut Quiet)?;
/// assert!(again.added().is_empty());
/// # Ok(())
/// # }
/// ```
pub fn manifests(
    ledger: &Ledger,
    paths: &[PathBuf],
    now: &str,
    watch: &mut dyn Watch,
) -> Result<Report> {
    check_manifests(paths)?;
    staged(ledger, paths, &[], Vec::new(), now, watch)
}

/// `ingest --from FORMAT PATH...`: the wave manifests built from the files' own words
/// ([`from::ingest_from`]), ingested as any manifest is; the report carries the notes of
/// building them.
pub fn from_files(
    ledger: &Ledger,
    format: &str,
    inputs: &[PathBuf],
    options: &FromOptions,
    now: &str,
    watch: &mut dyn Watch,
) -> Result<Report> {
    let plan = plan_from_files(format, inputs, options)?;
    let mut report = built(ledger, &plan.manifests, Vec::new(), now, watch)?;
    report.notes = plan.notes;
    Ok(report)
}

/// The manifests `ingest --from` builds from `inputs`, read from the filesystem.
pub fn plan_from_files(
    format: &str,
    inputs: &[PathBuf],
    options: &FromOptions,
) -> Result<from::Plan> {
    let files = Files {
        manifest: options.manifest.as_deref().unwrap_or(Path::new("")),
        built: &[],
    };
    from::ingest_from(&files, format, inputs, options)
}

/// Ingests manifests built in memory (`ingest --from`, `review --ingest`), with `reviews`
/// recorded beside the waves they name. An error in a built manifest names its field, and a
/// wave id already taken is advised as seats to add.
pub fn built(
    ledger: &Ledger,
    manifests: &[Built],
    reviews: Vec<(WaveReviewRow, RulesRow)>,
    now: &str,
    watch: &mut dyn Watch,
) -> Result<Report> {
    let paths: Vec<PathBuf> = manifests.iter().map(|b| b.path.clone()).collect();
    staged(ledger, &paths, manifests, reviews, now, watch).map_err(|e| match e {
        // A wave built from files may have been meant as seats added to one there.
        Error::Hinted { error, hint } if *hint == Hint::OwnWaveId => Error::Hinted {
            error,
            hint: Box::new(Hint::AddSeats),
        },
        e => relocate(manifests, e),
    })
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

/// The first error in reading and checking these manifests, if any: what a caller reports in
/// place of a ledger that cannot be opened, so that bad input is named first.
pub fn first_input_error(manifests: &[PathBuf], built: &[Built]) -> Option<Error> {
    struct Check;
    impl WaveVisitor for Check {
        fn wave(&mut self, _: &Wave) {}
        fn seat(&mut self, _: &Wave, _: SeatData) {}
    }
    manifests
        .iter()
        .find_map(|m| visit_wave(&Files { manifest: m, built }, m, &mut Check).err())
}

/// Stages `manifests` (`built` read in place of their paths), then commits them with
/// `reviews` in one transaction.
fn staged(
    ledger: &Ledger,
    manifests: &[PathBuf],
    built: &[Built],
    reviews: Vec<(WaveReviewRow, RulesRow)>,
    now: &str,
    watch: &mut dyn Watch,
) -> Result<Report> {
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
        watch,
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
    sink.watch.seat_done();
    if let Some(e) = sink.failed {
        return Err(e);
    }
    let asked: Vec<WaveReviewRow> = reviews.iter().map(|(r, _)| r.clone()).collect();
    for (review, rules) in reviews {
        sink.staging.review(review, rules);
    }
    let outcomes = sink.staging.commit(now)?;
    let waves = staged
        .into_iter()
        .zip(outcomes)
        .map(|((wave, seats, attempts, sha256), outcome)| Landed {
            wave,
            seats,
            attempts,
            sha256,
            outcome,
        })
        .collect();
    let mut reviews = Vec::with_capacity(asked.len());
    for review in asked {
        let kept = ledger
            .wave_reviews(&review.wave)?
            .into_iter()
            .find(|k| k.rules_sha256 == review.rules_sha256);
        reviews.push(ReviewLanded { review, kept });
    }
    Ok(Report {
        notes: Vec::new(),
        waves,
        reviews,
    })
}

/// Where a wave's seats go as they are read: into its content hash and the staging. After a
/// ledger error it only lets the seats pass, so the rest of the input is still checked.
struct Sink<'l, 'w> {
    /// The manifest being read.
    manifest: PathBuf,
    staging: Staging<'l>,
    /// The wave being read was begun in the staging.
    begun: bool,
    failed: Option<Error>,
    seats: usize,
    attempts: usize,
    watch: &'w mut dyn Watch,
}

impl WaveVisitor for Sink<'_, '_> {
    fn progress(&mut self) -> Option<&mut dyn Progress> {
        Some(&mut *self.watch)
    }

    fn cancel(&self) -> Option<&crate::cancel::Cancel> {
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
        self.seats += 1;
        self.attempts += seat.attempts.len();
        if self.failed.is_none()
            && let Err(e) = self.staging.add_seat(&seat)
        {
            self.failed = Some(e);
        }
        drop(seat);
        self.watch.seat_done();
    }
}
