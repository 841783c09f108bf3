//! `benchledger init` and `benchledger ingest`.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use super::Ctx;
use crate::error::Result;
use crate::formats::json::HashSink;
use crate::formats::wave::{ContentHash, Digest};
use crate::ingest::{Source, WaveVisitor, visit_wave};
use crate::ledger::{IngestTx, Ingested, Ledger};
use crate::model::{SeatData, Wave};

pub fn init(ctx: &mut Ctx<'_>) -> Result<()> {
    let path = ctx.db_path();
    let (ledger, created) = Ledger::create(&path)?;
    let version = ledger.user_version()?;
    let msg = if created {
        format!(
            "created ledger {} (schema version {version})\n",
            path.display()
        )
    } else {
        format!(
            "ledger {} already exists (schema version {version}); nothing to do\n",
            path.display()
        )
    };
    ctx.write(&msg)
}

/// Ingests waves, all in one transaction: every new wave lands, or none does and the ledger is
/// as it was.
///
/// Each wave is streamed: a seat is read, checked, hashed and written, then let go, so a wave of
/// a million attempts is never held whole. The wave's row is written last, once its content hash
/// is known. Errors are reported as if every manifest were read and checked before the ledger is
/// touched: a bad input file wins over a missing ledger, a conflicting wave id or an SQL error,
/// whichever manifest each is in (the rest are then only read and checked).
pub fn ingest(ctx: &mut Ctx<'_>, manifests: &[PathBuf]) -> Result<()> {
    let mut ledger = match ctx.open_write() {
        Ok(l) => l,
        Err(e) => return Err(first_input_error(manifests).unwrap_or(e)),
    };
    let mut tx = match ledger.begin_ingest(&ctx.now) {
        Ok(tx) => tx,
        Err(e) => return Err(first_input_error(manifests).unwrap_or(e)),
    };
    let mut msg = String::new();
    for (i, m) in manifests.iter().enumerate() {
        let mut sink = Sink {
            tx: &mut tx,
            digest: None,
            failed: None,
            seats: 0,
            attempts: 0,
        };
        // An error reading this manifest is the first input error: report it (dropping the
        // transaction rolls everything back).
        let wave = visit_wave(&Files, m, &mut sink)?;
        let (seats, attempts) = (sink.seats, sink.attempts);
        let outcome = match (sink.failed.take(), sink.digest.take()) {
            (Some(e), _) => Err(e),
            (None, Some(digest)) => {
                let hash = digest.finish();
                tx.finish_wave(&wave, &hash).map(|o| (o, hash.sha256))
            }
            // `visit_wave` names the wave before it returns it.
            (None, None) => Err(crate::error::Error::Usage(format!(
                "wave {} was read without its conditions",
                wave.id
            ))),
        };
        let (o, sha) = match outcome {
            Ok(done) => done,
            Err(e) => return Err(first_input_error(&manifests[i + 1..]).unwrap_or(e)),
        };
        match o {
            Ingested::Added => msg.push_str(&format!(
                "added wave {}: {seats} seats, {attempts} attempts (sha256 {})\n",
                wave.id,
                crate::digest::short(&sha)
            )),
            Ingested::AlreadyPresent => msg.push_str(&format!(
                "wave {} is already in the ledger with the same content (sha256 {}); nothing \
                 to do\n",
                wave.id,
                crate::digest::short(&sha)
            )),
        }
    }
    tx.commit()?;
    ctx.write(&msg)
}

/// The filesystem, which is where the ingest command reads waves from.
struct Files;

impl Source for Files {
    fn is_file(&self, path: &Path) -> bool {
        path.is_file()
    }

    fn read_text(&self, path: &Path) -> std::io::Result<String> {
        std::fs::read_to_string(path)
    }

    fn open_lines(&self, path: &Path) -> std::io::Result<Box<dyn BufRead + '_>> {
        // Large reads: a results file can hold a million lines, read twice (counted, then
        // parsed).
        let f = std::fs::File::open(path)?;
        Ok(Box::new(std::io::BufReader::with_capacity(256 * 1024, f)))
    }
}

/// Where a wave's seats go as they are read: into its content hash and the open transaction.
/// After a ledger error it only lets the seats pass, so the rest of the input is still checked.
struct Sink<'a, 'l> {
    tx: &'a mut IngestTx<'l>,
    digest: Option<WaveHash>,
    failed: Option<crate::error::Error>,
    seats: usize,
    attempts: usize,
}

impl WaveVisitor for Sink<'_, '_> {
    fn wave(&mut self, wave: &Wave) {
        let digest = self.tx.begin_wave(wave).and_then(|format| {
            Digest::new(format, HashSink::new(), wave)
                .map(|d| WaveHash { format, d })
                .map_err(|e| crate::error::Error::Ledger {
                    path: self.tx.path().to_path_buf(),
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
        if let Err(e) = self.tx.add_seat(&seat) {
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
fn first_input_error(manifests: &[PathBuf]) -> Option<crate::error::Error> {
    struct Check;
    impl WaveVisitor for Check {
        fn wave(&mut self, _: &Wave) {}
        fn seat(&mut self, _: &Wave, _: SeatData) {}
    }
    manifests
        .iter()
        .find_map(|m| visit_wave(&Files, m, &mut Check).err())
}
