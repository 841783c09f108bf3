//! `benchledger init` and `benchledger ingest`.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use super::{Ctx, files};
use crate::error::{Error, Result};
use crate::formats::json::HashSink;
use crate::formats::wave::{ContentHash, Digest};
use crate::ingest::{Source, WaveVisitor, visit_wave};
use crate::ledger::{Ingested, Ledger, Staging};
use crate::model::{SeatData, Wave};

pub fn init(ctx: &mut Ctx<'_>) -> Result<()> {
    let path = ctx.ledger_file()?;
    let (ledger, created) = Ledger::create(&path)?;
    let version = ledger.user_version()?;
    if created {
        return ctx.write(&format!(
            "created ledger {} (schema version {version})\n",
            path.display()
        ));
    }
    // An existing ledger is up to date only if its schema is what schema.sql makes: a ledger
    // whose triggers were dropped is not "nothing to do".
    let differences = ledger.schema_differences()?;
    if !differences.is_empty() {
        return Err(crate::error::Error::CheckFailed(format!(
            "ledger {} exists, but its schema differs from schema.sql:\n{}\nIts raw facts may \
             have been changed behind benchledger's back: check them with `benchledger verify \
             --ledger --all`",
            path.display(),
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
        path.display()
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
    let ledger = match ctx.open_write() {
        Ok(l) => l,
        Err(e) => return Err(first_input_error(manifests).unwrap_or(e)),
    };
    let staging = match ledger.stage_ingest(&std::env::temp_dir()) {
        Ok(s) => s,
        Err(e) => return Err(first_input_error(manifests).unwrap_or(e)),
    };
    let mut sink = Sink {
        manifest: PathBuf::new(),
        staging,
        digest: None,
        failed: None,
        seats: 0,
        attempts: 0,
    };
    // (wave id, seats, attempts, sha256) of each wave staged, in order.
    let mut staged = Vec::with_capacity(manifests.len());
    for m in manifests {
        sink.seats = 0;
        sink.attempts = 0;
        sink.manifest.clone_from(m);
        // An error reading this manifest is the first input error: report it (dropping the
        // staging leaves the ledger untouched).
        let wave = visit_wave(&Files { manifest: m }, m, &mut sink)?;
        if sink.failed.is_some() {
            continue;
        }
        let Some(digest) = sink.digest.take() else {
            // `visit_wave` names the wave before it returns it.
            sink.failed = Some(Error::Usage(format!(
                "wave {} was read without its conditions",
                wave.id
            )));
            continue;
        };
        let hash = digest.finish();
        match sink.staging.finish_wave(&wave, &hash) {
            Ok(()) => staged.push((wave.id, sink.seats, sink.attempts, hash.sha256)),
            Err(e) => sink.failed = Some(e),
        }
    }
    if let Some(e) = sink.failed {
        return Err(e);
    }
    let outcomes = sink.staging.commit(&ctx.now)?;
    let mut msg = String::new();
    for ((id, seats, attempts, sha), o) in staged.iter().zip(outcomes) {
        match o {
            Ingested::Added => msg.push_str(&format!(
                "added wave {id}: {seats} seats, {attempts} attempts (sha256 {})\n",
                crate::digest::short(sha)
            )),
            Ingested::AlreadyPresent => msg.push_str(&format!(
                "wave {id} is already in the ledger with the same content (sha256 {}); nothing \
                 to do\n",
                crate::digest::short(sha)
            )),
        }
    }
    ctx.write(&msg)
}

/// The filesystem, which is where the ingest command reads waves from: regular files only,
/// none held whole past its cap ([`files`]).
struct Files<'a> {
    /// The manifest being read (capped as a manifest; the files it names, as files read whole).
    manifest: &'a Path,
}

impl Source for Files<'_> {
    fn is_file(&self, path: &Path) -> bool {
        // Whatever is there is for the read to accept or refuse, saying what it is.
        std::fs::metadata(path).is_ok()
    }

    fn read_text(&self, path: &Path) -> std::io::Result<String> {
        let cap = if path == self.manifest {
            files::MANIFEST
        } else {
            files::WHOLE
        };
        files::read_text(path, cap)
    }

    fn open_lines(&self, path: &Path) -> std::io::Result<Box<dyn BufRead + '_>> {
        // Large reads: a results file can hold a million lines, read twice (counted, then
        // parsed).
        Ok(Box::new(files::open_lines(path, 256 * 1024)?))
    }

    fn open(&self, path: &Path) -> std::io::Result<Box<dyn crate::ingest::ReadSeek + '_>> {
        Ok(Box::new(files::open_regular(path)?))
    }
}

/// Where a wave's seats go as they are read: into its content hash and the staging. After a
/// ledger error it only lets the seats pass, so the rest of the input is still checked.
struct Sink<'l> {
    /// The manifest being read.
    manifest: PathBuf,
    staging: Staging<'l>,
    digest: Option<WaveHash>,
    failed: Option<Error>,
    seats: usize,
    attempts: usize,
}

impl WaveVisitor for Sink<'_> {
    fn wave(&mut self, wave: &Wave) {
        if self.failed.is_some() {
            return;
        }
        let manifest = &self.manifest;
        let digest = self.staging.begin_wave(wave).and_then(|format| {
            if format < 2 && !wave.canary_problems.is_empty() {
                return Err(Error::Conflict(format!(
                    "{}: field `wave.canary_problems`: wave {} is in the ledger hashed in wave \
                     content format 1 (ingested by a build before canary problems), which \
                     records none, and a wave keeps the conditions it was first ingested with: \
                     drop canary_problems here, or declare them in a new wave that supersedes \
                     it",
                    manifest.display(),
                    wave.id
                )));
            }
            Digest::new(format, HashSink::new(), wave)
                .map(|d| WaveHash { format, d })
                .map_err(|e| Error::Ledger {
                    path: self.staging.path().to_path_buf(),
                    message: format!("wave `{}`: {e}", wave.id),
                })
        });
        match digest {
            Ok(d) => self.digest = Some(d),
            Err(e) => self.failed = Some(e),
        }
    }

    fn seat(&mut self, _: &Wave, seat: SeatData) {
        self.seats += 1;
        self.attempts += seat.attempts.len();
        if self.failed.is_some() {
            return;
        }
        if let Some(h) = &mut self.digest {
            h.d.seat(&seat);
        }
        if let Err(e) = self.staging.add_seat(&seat) {
            self.failed = Some(e);
        }
    }
}

/// A wave's content hash as it is computed, in the format the ledger asked for.
struct WaveHash {
    format: u32,
    d: Digest,
}

impl WaveHash {
    fn finish(self) -> ContentHash {
        ContentHash {
            format: self.format,
            sha256: self.d.sha256(),
        }
    }
}

/// The first error in reading and checking these manifests, if any.
fn first_input_error(manifests: &[PathBuf]) -> Option<Error> {
    struct Check;
    impl WaveVisitor for Check {
        fn wave(&mut self, _: &Wave) {}
        fn seat(&mut self, _: &Wave, _: SeatData) {}
    }
    manifests
        .iter()
        .find_map(|m| visit_wave(&Files { manifest: m }, m, &mut Check).err())
}
