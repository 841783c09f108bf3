//! Staging an ingest: waves are checked and written into a private scratch database first,
//! and the ledger's write lock is taken only to copy them in.
//!
//! Parsing a large wave takes a while; were the ledger's write lock held all that time, every
//! other writer would wait on it (issue 7: eight ingests of 250k-attempt waves started together
//! failed with "database is locked"). So a [`Staging`] streams each checked seat into a
//! temporary SQLite file of its own (no journal, no syncing: it is thrown away), holding one
//! seat in memory at a time, while the ledger is only read — to learn, for a wave whose id it
//! already holds, the content format to hash the new copy in. [`Staging::commit`] then takes the
//! write lock once, checks again what it learnt, and copies every new wave in with
//! `INSERT … SELECT`, its ids offset to follow the ledger's: the rows and ids are the ones
//! writing each seat straight into the ledger would have given. All the waves land in one
//! transaction, or none does.

use std::path::Path;

use rusqlite::{Connection, OpenFlags, params};

#[cfg(feature = "postgres")]
use super::sql::Cell;
use super::sql::Sql;
use super::waves::{Ingested, content_hash_of};
use super::{Ledger, on_sqlite, sqlite};
use crate::error::{Error, Hint, Result};
use crate::figures::{Basis, FigureTally};
use crate::formats::json::HashSink;
use crate::formats::wave::{ContentHash, Digest};
use crate::model::{
    Attempt, LogKind, NewLogEntry, RulesRow, SeatData, SuiteProblems, Wave, WaveReviewRow,
};

/// The scratch database's tables: the ledger's seat, seat tally, display name, attempt, attempt
/// origin and trace-step columns,
/// with ids the staging assigns in ledger order and no index but the row id.
const STAGE_SCHEMA: &str = "
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
CREATE TABLE seat (
    id INTEGER PRIMARY KEY, slug TEXT NOT NULL, model TEXT NOT NULL, provider TEXT NOT NULL,
    harness TEXT NOT NULL, config TEXT
) STRICT;
CREATE TABLE attempt (
    id INTEGER PRIMARY KEY, seat_id INTEGER NOT NULL, problem TEXT NOT NULL,
    trial INTEGER NOT NULL, correct INTEGER NOT NULL, outcome REAL, input_tokens INTEGER,
    output_tokens INTEGER, input_tokens_cache_read INTEGER, input_tokens_cache_write INTEGER,
    wall_s REAL, cost_usd REAL, steps INTEGER, errors INTEGER, checklist TEXT,
    working_s REAL, infra_error INTEGER NOT NULL, end_reason TEXT
) STRICT;
CREATE TABLE trace_step (
    id INTEGER PRIMARY KEY, attempt_id INTEGER NOT NULL, idx INTEGER NOT NULL,
    tool TEXT NOT NULL, ok INTEGER NOT NULL, error TEXT
) STRICT;
CREATE TABLE seat_tally (
    seat_id INTEGER PRIMARY KEY, format INTEGER NOT NULL, tally TEXT NOT NULL
) STRICT;
CREATE TABLE seat_display_name (seat_id INTEGER PRIMARY KEY, name TEXT NOT NULL) STRICT;
CREATE TABLE attempt_origin (
    attempt_id INTEGER PRIMARY KEY, file TEXT NOT NULL, record TEXT
) STRICT;
CREATE TABLE attempt_text (
    attempt_id INTEGER PRIMARY KEY, input TEXT, target TEXT, answer TEXT, explanation TEXT
) STRICT;
BEGIN;
";

/// An ingest being staged (see the module's documentation). For each wave:
/// [`begin_wave`](Staging::begin_wave), [`add_seat`](Staging::add_seat) for each seat in ledger
/// order, [`finish_wave`](Staging::finish_wave); then [`commit`](Staging::commit). Dropped
/// without a commit, it leaves the ledger untouched and deletes its scratch file. Once the
/// ledger's work was asked to stop ([`Ledger::set_cancel`]), its next `begin_wave`, `add_seat`
/// or `commit` fails with [`Error::Interrupted`], and the ledger is untouched.
pub struct Staging<'l> {
    ledger: &'l Ledger,
    conn: Connection,
    file: tempfile::TempPath,
    waves: Vec<Staged>,
    current: Option<Staged>,
    /// The content hash of the wave being staged, taken as its seats come, in the format it
    /// is hashed in: the staging computes it itself, so no caller can pair a wave's rows with
    /// another hash.
    digest: Option<(u32, Digest)>,
    /// The last id given to a staged seat, attempt and trace step.
    last: Ids,
    /// The reviews to record with the waves staged, each with the rules it ran under.
    reviews: Vec<(WaveReviewRow, RulesRow)>,
}

#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Ids {
    pub(super) seat: i64,
    pub(super) attempt: i64,
    pub(super) step: i64,
}

/// A wave as staged.
pub(super) enum Staged {
    /// Not in the ledger when staged: its seats are in the scratch database, with the ids
    /// after `before` up to `last`.
    New {
        wave: Box<Wave>,
        hash: Option<ContentHash>,
        before: Ids,
        last: Ids,
    },
    /// In the ledger when staged, with this content hash: nothing is staged, and the new copy's
    /// hash (in the same format) must equal it, and the wave it says it supersedes the one the
    /// chain recorded.
    Present {
        id: String,
        hash: ContentHash,
        supersedes: Option<String>,
        /// The display names this copy gives its seats (seat id, name), which the ledger keeps
        /// for seats that have none.
        names: Vec<(String, String)>,
    },
    /// The same id as a wave staged before it in this ingest, with this hash: nothing is staged
    /// and the hashes, and what each supersedes, must agree.
    Repeat {
        id: String,
        hash: ContentHash,
        supersedes: Option<String>,
    },
}

impl Ledger {
    /// Starts staging an ingest, in a scratch database created in `dir` (a temporary
    /// directory).
    pub fn stage_ingest(&self, dir: &Path) -> Result<Staging<'_>> {
        let file = tempfile::Builder::new()
            .prefix("benchledger-stage-")
            .suffix(".db")
            .tempfile_in(dir)
            .map_err(|e| Error::io(dir, e))?
            .into_temp_path();
        let conn = Connection::open_with_flags(
            &file,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| sqlite(&file, e))?;
        conn.execute_batch(STAGE_SCHEMA)
            .map_err(|e| sqlite(&file, e))?;
        Ok(Staging {
            ledger: self,
            conn,
            file,
            waves: Vec::new(),
            current: None,
            digest: None,
            last: Ids::default(),
            reviews: Vec::new(),
        })
    }

    /// The content hash of the wave with this id, if the ledger holds it.
    fn stored_content_hash(&self, slug: &str) -> Result<Option<ContentHash>> {
        self.read(|sql| content_hash_of(sql, slug))
    }
}

impl Staging<'_> {
    fn err(&self, e: rusqlite::Error) -> Error {
        sqlite(&self.file, e)
    }

    /// The ledger's path.
    pub fn path(&self) -> &Path {
        &self.ledger.path
    }

    /// Starts a wave read from `origin` (its manifest, as errors name it), to be hashed in the
    /// wave content format the copy already in the ledger (or staged earlier in this ingest)
    /// was hashed in, so that the two hashes compare, or else the one a new wave is hashed in
    /// (`formats::wave::for_wave`: the latest, or format 3 for a wave that records a timeout
    /// multiplier). Returns that format.
    pub fn begin_wave(&mut self, w: &Wave, origin: &Path) -> Result<u32> {
        self.begin_wave_in(w, origin, crate::formats::wave::for_wave(w))
    }

    /// [`begin_wave`](Staging::begin_wave), hashing a wave the ledger does not hold in
    /// `format` rather than the latest: a copy of a wave keeps the format it was first hashed
    /// in.
    pub(crate) fn begin_wave_in(&mut self, w: &Wave, origin: &Path, format: u32) -> Result<u32> {
        self.ledger.cancel.check()?;
        self.digest = None;
        let format = self.choose_format(w, format)?;
        if format < 2 && !w.canary_problems.is_empty() {
            return Err(Error::Conflict(format!(
                "{}: field `wave.canary_problems`: wave {} is in the ledger hashed in wave \
                 content format 1 (ingested by a build before canary problems), which records \
                 none, and a wave keeps the conditions it was first ingested with: drop \
                 canary_problems here, or declare them in a new wave that supersedes it",
                origin.display(),
                w.id
            )));
        }
        if format < 3 && w.load.timeout_multiplier.is_some() {
            return Err(Error::Conflict(format!(
                "{}: field `wave.load.timeout_multiplier`: wave {} is in the ledger hashed in \
                 wave content format {format}, which records no timeout multiplier, and a wave \
                 keeps the conditions it was first ingested with: drop timeout_multiplier \
                 here, or record it in a new wave that supersedes it",
                origin.display(),
                w.id
            )));
        }
        let digest = Digest::new(format, HashSink::new(), w).map_err(|e| Error::Ledger {
            path: self.path().to_path_buf(),
            message: format!("wave `{}`: {e}", w.id),
        })?;
        self.digest = Some((format, digest));
        Ok(format)
    }

    /// Where a wave stands (new, in the ledger, or earlier in this ingest) and the format to
    /// hash it in: the format of the copy it is compared with, else `new_format`.
    fn choose_format(&mut self, w: &Wave, new_format: u32) -> Result<u32> {
        self.current = None;
        let earlier = self.waves.iter().find_map(|s| match s {
            Staged::New {
                wave,
                hash: Some(hash),
                ..
            } if wave.id == w.id => Some(hash.clone()),
            _ => None,
        });
        if let Some(hash) = earlier {
            let format = hash.format;
            self.current = Some(Staged::Repeat {
                id: w.id.clone(),
                hash,
                supersedes: w.supersedes.clone(),
            });
            return Ok(format);
        }
        let existing = self.ledger.stored_content_hash(&w.id)?;
        if let Some(hash) = existing {
            let format = hash.format;
            self.current = Some(Staged::Present {
                id: w.id.clone(),
                hash,
                supersedes: w.supersedes.clone(),
                names: Vec::new(),
            });
            return Ok(format);
        }
        self.current = Some(Staged::New {
            wave: Box::new(w.clone()),
            hash: None,
            before: self.last,
            last: self.last,
        });
        Ok(new_format)
    }

    /// Stages one seat and its attempts (nothing, when the wave is already present), and adds
    /// it to the wave's content hash. [`Error::Interrupted`] once the ledger's writes were asked
    /// to stop ([`Ledger::set_cancel`]): the staging is then void.
    pub fn add_seat(&mut self, s: &SeatData) -> Result<()> {
        self.ledger.cancel.check()?;
        if let Some((_, d)) = &mut self.digest {
            d.seat(s);
        }
        match &self.current {
            Some(Staged::New { wave, .. }) => {
                let mut last = self.last;
                let tally = seat_tally(wave, s);
                stage_seat(&self.conn, &mut last, s, tally.as_deref()).map_err(|e| self.err(e))?;
                self.last = last;
                if let Some(Staged::New { last: l, .. }) = &mut self.current {
                    *l = last;
                }
                Ok(())
            }
            Some(Staged::Present { .. }) => {
                if let (Some(Staged::Present { names, .. }), Some(name)) =
                    (&mut self.current, &s.seat.display_name)
                {
                    names.push((s.seat.id.clone(), name.clone()));
                }
                Ok(())
            }
            Some(Staged::Repeat { .. }) => Ok(()),
            None => Err(Error::Ledger {
                path: self.path().to_path_buf(),
                message: format!("seat {} was given before its wave", s.seat.id),
            }),
        }
    }

    /// The ledger's request to stop ([`Ledger::set_cancel`]), for a reader feeding the staging
    /// to check between the seats it reads.
    pub fn cancel(&self) -> &crate::cancel::Cancel {
        &self.ledger.cancel
    }

    /// Records `review` with the wave it names, in the commit's transaction, and registers the
    /// `rules` it ran under there too ([`Ledger::add_rules`]'s refusal of other text under a
    /// registered name@version fails the whole commit). The wave must be staged in this ingest
    /// or held by the ledger; one holding a review under the same rules text keeps that one.
    pub fn review(&mut self, review: WaveReviewRow, rules: RulesRow) {
        self.reviews.push((review, rules));
    }

    /// Ends a wave and returns its content hash, computed from the seats staged. When its id
    /// is already in the ledger, or earlier in this ingest, the hashes are compared: the same,
    /// and it will be reported as already present; different, and the ingest is refused.
    pub fn finish_wave(&mut self, w: &Wave) -> Result<ContentHash> {
        let Some((format, digest)) = self.digest.take() else {
            return Err(Error::Ledger {
                path: self.path().to_path_buf(),
                message: format!("wave {} was finished before it was begun", w.id),
            });
        };
        let new = ContentHash {
            format,
            sha256: digest.sha256(),
        };
        self.settle(w, &new)?;
        Ok(new)
    }

    /// Files the wave being staged under its content hash `new`, or refuses it.
    fn settle(&mut self, w: &Wave, new: &ContentHash) -> Result<()> {
        match self.current.take() {
            Some(Staged::New {
                wave, before, last, ..
            }) => {
                self.waves.push(Staged::New {
                    wave,
                    hash: Some(new.clone()),
                    before,
                    last,
                });
                Ok(())
            }
            Some(Staged::Present { id, hash, .. } | Staged::Repeat { id, hash, .. })
                if hash != *new =>
            {
                Err(conflict(&id, &hash, new))
            }
            Some(same @ (Staged::Present { .. } | Staged::Repeat { .. })) => {
                self.waves.push(same);
                Ok(())
            }
            None => Err(Error::Ledger {
                path: self.path().to_path_buf(),
                message: format!("wave {} was finished before it was begun", w.id),
            }),
        }
    }

    /// Takes the ledger's write lock (waiting as the ledger's [`super::Wait`] allows), checks
    /// that the ledger still holds what staging saw, and writes every new wave, all in one
    /// transaction. Returns what became of each wave, in the order they were staged. Once the
    /// ledger's writes were asked to stop ([`Ledger::set_cancel`]), the transaction is rolled
    /// back before it commits, with [`Error::Interrupted`].
    pub fn commit(self, now: &str) -> Result<Vec<Ingested>> {
        let Staging {
            ledger,
            conn,
            file,
            waves,
            reviews,
            ..
        } = self;
        conn.execute_batch("COMMIT").map_err(|e| sqlite(&file, e))?;
        // A store that cannot attach the scratch file (the server) takes its rows through its
        // bulk load (`staged.rs`).
        let lite = on_sqlite!(ledger, _server => ledger.write(|sql| {
            let stage = StageFile {
                conn: &conn,
                path: &file,
            };
            decide(sql, ledger.logging(), (&waves, &reviews), now, &mut |sql, w, span| {
                stage.copy_wave(sql, w, span)
            })
        }));
        drop(conn);
        let Some(name) = file.to_str() else {
            return Err(Error::Usage(format!(
                "the temporary directory's path {} is not UTF-8; point TMPDIR at another \
                 directory",
                file.display()
            )));
        };
        lite.execute("ATTACH DATABASE ?1 AS stage", [name])
            .map_err(|e| ledger.err(e))?;
        let outcome = copy_in(ledger, (&waves, &reviews), now);
        let detached = lite
            .execute_batch("DETACH DATABASE stage")
            .map_err(|e| ledger.err(e));
        let outcome = outcome?;
        detached?;
        drop(file);
        Ok(outcome)
    }
}

pub(super) fn conflict(id: &str, there: &ContentHash, here: &ContentHash) -> Error {
    Error::Conflict(format!(
        "wave `{id}` is already in the ledger with different content (sha256 {} there, {} \
         here). Waves are append-only",
        crate::digest::short(&there.sha256),
        crate::digest::short(&here.sha256)
    ))
    .hinted(crate::error::Hint::OwnWaveId)
}

/// A seat's tally in the latest seat tally format: the totals of its attempts as the ledger
/// will give them back (a REAL -0.0 is read back as 0.0), in ledger order. `None` for attempts
/// not in ledger order, which staging is never given: the seat is then left without a tally, and
/// a rescore reads its attempts.
fn seat_tally(wave: &Wave, s: &SeatData) -> Option<String> {
    let in_order = s
        .attempts
        .is_sorted_by(|a, b| (a.problem.as_str(), a.trial) < (b.problem.as_str(), b.trial));
    if !in_order {
        return None;
    }
    let basis = Basis::of(wave);
    let negative_zero = |a: &Attempt| a.outcome.is_some_and(|o| o == 0.0 && o.is_sign_negative());
    let tally = if s.attempts.iter().any(negative_zero) {
        let stored: Vec<Attempt> = s
            .attempts
            .iter()
            .map(|a| Attempt {
                outcome: a.outcome.map(|o| o + 0.0),
                ..a.clone()
            })
            .collect();
        FigureTally::of_attempts(&basis, &stored)
    } else {
        FigureTally::of_attempts(&basis, &s.attempts)
    };
    Some(crate::formats::tally::write(&tally.totals()))
}

/// Writes one seat, its tally (in the latest format) and its attempts into the scratch
/// database, with the ids after `last`.
fn stage_seat(
    conn: &Connection,
    last: &mut Ids,
    s: &SeatData,
    tally: Option<&str>,
) -> rusqlite::Result<()> {
    last.seat += 1;
    conn.prepare_cached(
        "INSERT INTO seat(id, slug, model, provider, harness, config)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        last.seat,
        s.seat.id,
        s.seat.model,
        s.seat.provider,
        s.seat.harness,
        s.seat.config
    ])?;
    if let Some(tally) = tally {
        conn.prepare_cached("INSERT INTO seat_tally(seat_id, format, tally) VALUES (?1, ?2, ?3)")?
            .execute(params![last.seat, crate::formats::tally::LATEST, tally])?;
    }
    if let Some(name) = &s.seat.display_name {
        conn.prepare_cached("INSERT INTO seat_display_name(seat_id, name) VALUES (?1, ?2)")?
            .execute(params![last.seat, name])?;
    }
    let mut attempt_stmt = conn.prepare_cached(
        "INSERT INTO attempt(id, seat_id, problem, trial, correct, outcome, input_tokens,
            output_tokens, input_tokens_cache_read, input_tokens_cache_write, wall_s, cost_usd,
            steps, errors, checklist, working_s, infra_error, end_reason)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
            ?18)",
    )?;
    let mut step_stmt = conn.prepare_cached(
        "INSERT INTO trace_step(id, attempt_id, idx, tool, ok, error)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    let mut origin_stmt = conn.prepare_cached(
        "INSERT INTO attempt_origin(attempt_id, file, record) VALUES (?1, ?2, ?3)",
    )?;
    let mut text_stmt = conn.prepare_cached(
        "INSERT INTO attempt_text(attempt_id, input, target, answer, explanation)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for a in &s.attempts {
        last.attempt += 1;
        let checklist = a
            .checklist
            .as_deref()
            .map(crate::formats::wave::checklist_text);
        attempt_stmt.execute(params![
            last.attempt,
            last.seat,
            a.problem,
            a.trial,
            a.correct,
            a.outcome,
            a.input_tokens,
            a.output_tokens,
            a.input_tokens_cache_read,
            a.input_tokens_cache_write,
            a.wall_s,
            a.cost_usd,
            a.steps,
            a.errors,
            checklist,
            a.working_s,
            a.infra_error,
            a.end_reason,
        ])?;
        if let Some(o) = &a.origin {
            origin_stmt.execute(params![last.attempt, o.file, o.record])?;
        }
        if let Some(t) = &a.texts {
            text_stmt.execute(params![
                last.attempt,
                t.input,
                t.target,
                t.answer,
                t.explanation
            ])?;
        }
        for (i, step) in a.trace.iter().flatten().enumerate() {
            last.step += 1;
            step_stmt.execute(params![
                last.step,
                last.attempt,
                i as i64,
                step.tool,
                step.ok,
                step.error
            ])?;
        }
    }
    Ok(())
}

/// Where a staged wave's rows lie in the scratch database (the ids after `before` up to
/// `last`), and the row id its wave was given in the ledger.
#[derive(Debug, Clone, Copy)]
pub(super) struct Span {
    pub(super) wave_id: i64,
    pub(super) before: Ids,
    pub(super) last: Ids,
}

/// How a store copies a staged wave's rows in, once its wave row is written: its declared
/// problems, seats, seat tallies, attempts and trace steps, their ids following the ledger's.
pub(super) type Bulk<'b> = dyn FnMut(&mut Sql<'_>, &Wave, Span) -> Result<()> + 'b;

/// The write transaction of [`Staging::commit`], with the scratch database attached as
/// `stage`.
fn copy_in(ledger: &Ledger, staged: Commit<'_>, now: &str) -> Result<Vec<Ingested>> {
    ledger.write(|sql| decide(sql, ledger.logging(), staged, now, &mut copy_staged))
}

/// What a commit writes: the waves staged, and the reviews to record with them.
pub(super) type Commit<'c> = (&'c [Staged], &'c [(WaveReviewRow, RulesRow)]);

/// What becomes of each staged wave, inside the write transaction `tx`: a new wave is copied
/// in (and its supersession recorded), one already there compared; then each review is
/// recorded with its wave. Returns the outcome of each wave, in order; the caller commits.
pub(super) fn decide(
    tx: &mut Sql<'_>,
    logging: bool,
    (waves, reviews): Commit<'_>,
    now: &str,
    bulk: &mut Bulk<'_>,
) -> Result<Vec<Ingested>> {
    let path = tx.path();
    let mut out = Vec::with_capacity(waves.len());
    for staged in waves {
        let outcome = match staged {
            Staged::Repeat { id, supersedes, .. } => {
                super::chain::check_supersedes(tx, id, supersedes.as_deref())?;
                Ingested::AlreadyPresent
            }
            Staged::Present {
                id,
                hash,
                supersedes,
                names,
            } => decide_present(tx, logging, id, hash, supersedes.as_deref(), names, now)?,
            Staged::New {
                wave,
                hash,
                before,
                last,
            } => {
                let Some(hash) = hash else {
                    return Err(Error::Ledger {
                        path: path.to_path_buf(),
                        message: format!("wave {} was staged but not finished", wave.id),
                    });
                };
                match content_hash_of(tx, &wave.id)? {
                    None => {
                        let span = Span {
                            wave_id: tx.next_id("wave")?,
                            before: *before,
                            last: *last,
                        };
                        add_new(tx, logging, wave, hash, span, now, bulk)?
                    }
                    Some(there) => added_meanwhile(tx, wave, hash, &there)?,
                }
            }
        };
        out.push(outcome);
    }
    for (review, rules) in reviews {
        super::reviews::record(tx, logging, review, rules)?;
    }
    Ok(out)
}

/// A wave that was in the ledger when staged, with this `hash`: still there unchanged, its
/// supersession checked and its display names added; refused when it changed meanwhile.
fn decide_present(
    tx: &mut Sql<'_>,
    logging: bool,
    id: &str,
    hash: &ContentHash,
    supersedes: Option<&str>,
    names: &[(String, String)],
    now: &str,
) -> Result<Ingested> {
    match content_hash_of(tx, id)? {
        Some(now_there) if now_there == *hash => {
            super::chain::check_supersedes(tx, id, supersedes)?;
            Ok(
                match super::waves::add_display_names(tx, logging, id, names, now)? {
                    0 => Ingested::AlreadyPresent,
                    n => Ingested::Named(n),
                },
            )
        }
        _ => Err(Error::Ledger {
            path: tx.path().to_path_buf(),
            message: format!(
                "wave `{id}` changed in the ledger while this ingest ran, which \
                 benchledger never does (waves are append-only); nothing was \
                 written"
            ),
        }
        .hinted(Hint::VerifyAll)),
    }
}

/// Adds a staged wave still not in the ledger: its wave row under `span.wave_id`, its rows
/// copied in by `bulk`, its log entries and its supersession.
fn add_new(
    tx: &mut Sql<'_>,
    logging: bool,
    wave: &Wave,
    hash: &ContentHash,
    span: Span,
    now: &str,
    bulk: &mut Bulk<'_>,
) -> Result<Ingested> {
    super::waves::insert_wave_row(tx, span.wave_id, wave, hash, now)?;
    bulk(tx, wave, span)?;
    let entry = NewLogEntry {
        kind: LogKind::Ingest,
        subject: wave.id.clone(),
        version: hash.format,
        subject_sha256: hash.sha256.clone(),
        created_at: now.to_string(),
    };
    super::log::append_at_head(tx, logging, &entry)?;
    super::waves::log_display_names(tx, logging, &wave.id, now)?;
    super::waves::log_origins(tx, logging, &wave.id, now)?;
    super::waves::log_texts(tx, logging, &wave.id, now)?;
    if let Some(old) = &wave.supersedes {
        super::chain::supersede(tx, logging, &wave.id, old, now)?;
    }
    Ok(Ingested::Added)
}

/// A staged wave another writer added while this ingest was staged, `there` its hash in the
/// ledger: the same wave, or a conflict, or a hash in another format not comparable yet.
fn added_meanwhile(
    tx: &mut Sql<'_>,
    wave: &Wave,
    hash: &ContentHash,
    there: &ContentHash,
) -> Result<Ingested> {
    if there == hash {
        super::chain::check_supersedes(tx, &wave.id, wave.supersedes.as_deref())?;
        Ok(Ingested::AlreadyPresent)
    } else if there.format == hash.format {
        Err(conflict(&wave.id, there, hash))
    } else {
        Err(Error::Unavailable {
            path: tx.path().to_path_buf(),
            cause: crate::error::Cause::Raced,
            message: format!(
                "could not complete: another writer added wave `{}` while this \
                 ingest ran, hashed in wave content format {} where this one \
                 was hashed in format {}, so the two cannot be compared yet; \
                 nothing was written. Run the ingest again: it will compare \
                 them in the ledger's format",
                wave.id, there.format, hash.format
            ),
        })
    }
}

/// Copies one staged wave's rows in from the attached scratch database (SQLite's bulk load:
/// `INSERT … SELECT`), its ids following the ledger's: its declared problems, seats, seat
/// tallies, attempts and trace steps.
fn copy_staged(sql: &mut Sql<'_>, w: &Wave, span: Span) -> Result<()> {
    let path = sql.path();
    let seat_offset = sql.next_id("seat")? - (span.before.seat + 1);
    let attempt_offset = sql.next_id("attempt")? - (span.before.attempt + 1);
    let Some(tx) = sql.as_lite() else {
        unreachable!("an SQLite ledger's ingest is copied in by SQLite");
    };
    copy_rows(tx, w, span, seat_offset, attempt_offset).map_err(|e| sqlite(path, e))
}

/// [`copy_staged`]'s statements, ids moved by the offsets.
fn copy_rows(
    tx: &Connection,
    w: &Wave,
    Span {
        wave_id,
        before,
        last,
    }: Span,
    seat_offset: i64,
    attempt_offset: i64,
) -> rusqlite::Result<()> {
    if let Some(SuiteProblems::Ids(ids)) = &w.suite_problems {
        let mut stmt =
            tx.prepare_cached("INSERT INTO main.wave_problem(wave_id, problem) VALUES (?1, ?2)")?;
        for id in ids {
            stmt.execute(params![wave_id, id])?;
        }
    }
    // A staged id `i` of this wave becomes `i + offset`: the first becomes the ledger's next.
    tx.prepare(
        "INSERT INTO main.seat(id, wave_id, slug, model, provider, harness, config)
         SELECT id + ?1, ?2, slug, model, provider, harness, config FROM stage.seat
         WHERE id > ?3 AND id <= ?4 ORDER BY id",
    )?
    .execute(params![seat_offset, wave_id, before.seat, last.seat])?;
    tx.prepare(
        "INSERT INTO main.seat_tally(seat_id, format, tally)
         SELECT seat_id + ?1, format, tally FROM stage.seat_tally
         WHERE seat_id > ?2 AND seat_id <= ?3 ORDER BY seat_id",
    )?
    .execute(params![seat_offset, before.seat, last.seat])?;
    tx.prepare(
        "INSERT INTO main.attempt(id, seat_id, problem, trial, correct, outcome, input_tokens,
            output_tokens, input_tokens_cache_read, input_tokens_cache_write, wall_s, cost_usd,
            steps, errors, checklist, working_s, infra_error, end_reason)
         SELECT id + ?1, seat_id + ?2, problem, trial, correct, outcome, input_tokens,
            output_tokens, input_tokens_cache_read, input_tokens_cache_write, wall_s, cost_usd,
            steps, errors, checklist, working_s, infra_error, end_reason
         FROM stage.attempt WHERE id > ?3 AND id <= ?4 ORDER BY id",
    )?
    .execute(params![
        attempt_offset,
        seat_offset,
        before.attempt,
        last.attempt
    ])?;
    tx.prepare(
        "INSERT INTO main.trace_step(attempt_id, idx, tool, ok, error)
         SELECT attempt_id + ?1, idx, tool, ok, error FROM stage.trace_step
         WHERE id > ?2 AND id <= ?3 ORDER BY id",
    )?
    .execute(params![attempt_offset, before.step, last.step])?;
    tx.prepare(
        "INSERT INTO main.seat_display_name(seat_id, name)
         SELECT seat_id + ?1, name FROM stage.seat_display_name
         WHERE seat_id > ?2 AND seat_id <= ?3 ORDER BY seat_id",
    )?
    .execute(params![seat_offset, before.seat, last.seat])?;
    tx.prepare(
        "INSERT INTO main.attempt_origin(attempt_id, file, record)
         SELECT attempt_id + ?1, file, record FROM stage.attempt_origin
         WHERE attempt_id > ?2 AND attempt_id <= ?3 ORDER BY attempt_id",
    )?
    .execute(params![attempt_offset, before.attempt, last.attempt])?;
    tx.prepare(
        "INSERT INTO main.attempt_text(attempt_id, input, target, answer, explanation)
         SELECT attempt_id + ?1, input, target, answer, explanation FROM stage.attempt_text
         WHERE attempt_id > ?2 AND attempt_id <= ?3 ORDER BY attempt_id",
    )?
    .execute(params![attempt_offset, before.attempt, last.attempt])?;
    Ok(())
}

// An ingest's staged rows copied into a store that cannot attach the scratch file they were
// staged in (the server): table by table, read from the scratch file and written through the
// store's bulk load (`Sql::sink`: binary `COPY` on PostgreSQL), their ids moved to follow the
// ledger's. Written over the query layer, with nothing of the server's in it; SQLite's own
// ingest attaches the file instead and copies with `INSERT … SELECT` (above).

#[cfg(feature = "postgres")]
/// A table an ingest stages: its columns, and the query reading them from the scratch database
/// in that order.
struct StagedTable {
    table: &'static str,
    columns: &'static [&'static str],
    select: &'static str,
}

#[cfg(feature = "postgres")]
const SEATS: StagedTable = StagedTable {
    table: "seat",
    columns: &[
        "id", "wave_id", "slug", "model", "provider", "harness", "config",
    ],
    select: "SELECT id, ?3, slug, model, provider, harness, config FROM seat
             WHERE id > ?1 AND id <= ?2 ORDER BY id",
};

#[cfg(feature = "postgres")]
const SEAT_TALLIES: StagedTable = StagedTable {
    table: "seat_tally",
    columns: &["seat_id", "format", "tally"],
    select: "SELECT seat_id, format, tally FROM seat_tally
             WHERE seat_id > ?1 AND seat_id <= ?2 ORDER BY seat_id",
};

#[cfg(feature = "postgres")]
const ATTEMPTS: StagedTable = StagedTable {
    table: "attempt",
    columns: &[
        "id",
        "seat_id",
        "problem",
        "trial",
        "correct",
        "outcome",
        "input_tokens",
        "output_tokens",
        "input_tokens_cache_read",
        "input_tokens_cache_write",
        "wall_s",
        "cost_usd",
        "steps",
        "errors",
        "checklist",
        "working_s",
        "infra_error",
        "end_reason",
    ],
    select: "SELECT id, seat_id, problem, trial, correct, outcome, input_tokens,
                output_tokens, input_tokens_cache_read, input_tokens_cache_write, wall_s,
                cost_usd, steps, errors, checklist, working_s, infra_error, end_reason
             FROM attempt WHERE id > ?1 AND id <= ?2 ORDER BY id",
};

#[cfg(feature = "postgres")]
const TRACE_STEPS: StagedTable = StagedTable {
    table: "trace_step",
    columns: &["attempt_id", "idx", "tool", "ok", "error"],
    select: "SELECT attempt_id, idx, tool, ok, error FROM trace_step
             WHERE id > ?1 AND id <= ?2 ORDER BY id",
};

#[cfg(feature = "postgres")]
const DISPLAY_NAMES: StagedTable = StagedTable {
    table: "seat_display_name",
    columns: &["seat_id", "name"],
    select: "SELECT seat_id, name FROM seat_display_name
             WHERE seat_id > ?1 AND seat_id <= ?2 ORDER BY seat_id",
};

#[cfg(feature = "postgres")]
const ORIGINS: StagedTable = StagedTable {
    table: "attempt_origin",
    columns: &["attempt_id", "file", "record"],
    select: "SELECT attempt_id, file, record FROM attempt_origin
             WHERE attempt_id > ?1 AND attempt_id <= ?2 ORDER BY attempt_id",
};

#[cfg(feature = "postgres")]
const TEXTS: StagedTable = StagedTable {
    table: "attempt_text",
    columns: &["attempt_id", "input", "target", "answer", "explanation"],
    select: "SELECT attempt_id, input, target, answer, explanation FROM attempt_text
             WHERE attempt_id > ?1 AND attempt_id <= ?2 ORDER BY attempt_id",
};

#[cfg(feature = "postgres")]
/// The scratch database an ingest was staged in, and where it is (for its errors).
pub(super) struct StageFile<'s> {
    pub(super) conn: &'s Connection,
    pub(super) path: &'s Path,
}

#[cfg(feature = "postgres")]
impl StageFile<'_> {
    /// Copies the rows `table.select` reads (with `params`) in through the ledger's bulk load,
    /// the first columns moved by `offsets` (a staged id made the ledger's).
    fn copy(
        &self,
        sql: &mut Sql<'_>,
        table: &StagedTable,
        params: &[i64],
        offsets: &[i64],
    ) -> Result<()> {
        let lite = |e| sqlite(self.path, e);
        let columns: Vec<String> = table.columns.iter().map(|c| c.to_string()).collect();
        let mut out = sql.sink(table.table, &columns)?;
        let mut stmt = self.conn.prepare_cached(table.select).map_err(lite)?;
        let mut rows = stmt
            .query(rusqlite::params_from_iter(params))
            .map_err(lite)?;
        let mut values = Vec::with_capacity(columns.len());
        while let Some(r) = rows.next().map_err(lite)? {
            values.clear();
            for (i, column) in table.columns.iter().enumerate() {
                let cell = Cell::of(r.get_ref(i).map_err(lite)?, self.path, table.table, column)?;
                values.push(match cell {
                    Cell::Int(v) => Cell::Int(v + offsets.get(i).copied().unwrap_or(0)),
                    other => other,
                });
            }
            out.write(&values)?;
        }
        out.finish()
    }

    /// Copies one staged wave's rows in through the ledger's bulk load ([`Sql::sink`]), its ids
    /// following the ledger's: its declared problems, seats, seat tallies, attempts and trace
    /// steps. How a store that cannot attach the scratch file (the server) takes an ingest.
    pub(super) fn copy_wave(&self, sql: &mut Sql<'_>, w: &Wave, span: Span) -> Result<()> {
        let Span {
            wave_id,
            before,
            last,
        } = span;
        // A staged id `i` of this wave becomes `i + offset`: the first becomes the ledger's next.
        let seat = sql.next_id("seat")? - (before.seat + 1);
        let attempt = sql.next_id("attempt")? - (before.attempt + 1);
        if let Some(SuiteProblems::Ids(ids)) = &w.suite_problems {
            let mut out = sql.sink("wave_problem", &["wave_id".into(), "problem".into()])?;
            for id in ids {
                out.write(&[Cell::Int(wave_id), Cell::Text(id.clone())])?;
            }
            out.finish()?;
        }
        let seats = [before.seat, last.seat, wave_id];
        self.copy(sql, &SEATS, &seats, &[seat])?;
        self.copy(sql, &SEAT_TALLIES, &seats[..2], &[seat])?;
        let ids = [before.attempt, last.attempt];
        self.copy(sql, &ATTEMPTS, &ids, &[attempt, seat])?;
        let steps = [before.step, last.step];
        self.copy(sql, &TRACE_STEPS, &steps, &[attempt])?;
        self.copy(sql, &DISPLAY_NAMES, &seats[..2], &[seat])?;
        self.copy(sql, &ORIGINS, &ids, &[attempt])?;
        self.copy(sql, &TEXTS, &ids, &[attempt])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Accounting, Attempt, Budget, Load, Provenance, Seat, TraceStep, WaveData};

    const NOW: &str = "2026-01-01T00:00:00Z";

    fn wave(id: &str, seats: usize, cost: f64) -> WaveData {
        let attempt = |p: usize| Attempt {
            problem: format!("p{p}"),
            trial: 1,
            correct: p.is_multiple_of(2),
            input_tokens: Some(100),
            wall_s: Some(1.5),
            cost_usd: Some(cost),
            trace: (p == 1).then(|| {
                vec![TraceStep {
                    tool: "t".into(),
                    ok: true,
                    error: None,
                }]
            }),
            working_s: (p == 2).then_some(0.75),
            infra_error: p == 3,
            end_reason: (p == 3).then(|| "provider outage".into()),
            ..Attempt::empty()
        };
        WaveData {
            wave: Wave {
                id: id.into(),
                suite: "s".into(),
                started_at: NOW.into(),
                notes: None,
                suite_problems: Some(SuiteProblems::Ids(vec!["p0".into(), "p1".into()])),
                load: Load::default(),
                accounting: Accounting::default(),
                budget: Budget::default(),
                provenance: Provenance::default(),
                supersedes: None,
                canary_problems: Vec::new(),
            },
            seats: (0..seats)
                .map(|s| SeatData {
                    seat: Seat {
                        id: format!("seat{s}"),
                        model: "m".into(),
                        provider: "p".into(),
                        harness: "h".into(),
                        config: None,
                        display_name: None,
                    },
                    attempts: vec![attempt(0), attempt(1)],
                })
                .collect(),
        }
    }

    fn stage<'l>(l: &'l Ledger, waves: &[&WaveData]) -> Result<Staging<'l>> {
        let mut s = l.stage_ingest(&std::env::temp_dir())?;
        for w in waves {
            s.begin_wave(&w.wave, Path::new("w.toml"))?;
            for seat in &w.seats {
                s.add_seat(seat)?;
            }
            s.finish_wave(&w.wave)?;
        }
        Ok(s)
    }

    fn file_ledger() -> (tempfile::TempDir, Ledger) {
        let dir = tempfile::tempdir().unwrap();
        let (l, _) = Ledger::create(&dir.path().join("l.db")).unwrap();
        (dir, l)
    }

    fn ids(l: &Ledger, sql: &str) -> Vec<(i64, i64)> {
        let mut stmt = l.conn().prepare(sql).unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap()
    }

    #[test]
    fn staged_waves_take_the_ids_that_follow_the_ledgers() {
        let (_dir, mut l) = file_ledger();
        let (a, b, c) = (wave("a", 2, 0.1), wave("b", 1, 0.1), wave("c", 3, 0.1));
        l.add_waves(std::slice::from_ref(&a), NOW).unwrap();
        // A present wave, a new one, a repeat of it, another new one.
        let outcomes = stage(&l, &[&a, &b, &b, &c]).unwrap().commit(NOW).unwrap();
        assert_eq!(
            outcomes,
            [
                Ingested::AlreadyPresent,
                Ingested::Added,
                Ingested::AlreadyPresent,
                Ingested::Added
            ]
        );
        assert_eq!(
            ids(&l, "SELECT id, wave_id FROM seat ORDER BY id"),
            [(1, 1), (2, 1), (3, 2), (4, 3), (5, 3), (6, 3)]
        );
        let attempts = ids(&l, "SELECT id, seat_id FROM attempt ORDER BY id");
        assert_eq!(attempts.len(), 12);
        assert!(
            attempts
                .iter()
                .enumerate()
                .all(|(i, (id, seat))| *id == i as i64 + 1 && *seat == i as i64 / 2 + 1)
        );
        // Each trace step belongs to its seat's second attempt.
        assert_eq!(
            ids(
                &l,
                "SELECT attempt_id, idx FROM trace_step ORDER BY attempt_id"
            ),
            (1..=6).map(|s| (2 * s, 0)).collect::<Vec<_>>()
        );
        for w in [&a, &b, &c] {
            assert_eq!(l.load_wave(&w.wave.id).unwrap(), *w);
        }
        assert_eq!(l.integrity_check().unwrap(), ["ok"]);
    }

    #[test]
    fn staging_takes_no_lock_and_writes_nothing_until_the_commit() {
        let (_dir, l) = file_ledger();
        let w = wave("w", 2, 0.1);
        let staging = stage(&l, &[&w]).unwrap();
        // Another writer can write meanwhile.
        let other = Connection::open(l.path()).unwrap();
        other.execute_batch("BEGIN IMMEDIATE; COMMIT").unwrap();
        assert!(l.wave_ids().unwrap().is_empty());
        let file = staging.file.to_path_buf();
        assert!(file.exists());
        drop(staging);
        assert!(!file.exists(), "the scratch file outlived its staging");
        assert!(l.wave_ids().unwrap().is_empty());
    }

    /// An ingest asked to stop (issue 34) writes nothing: not when asked between two seats (the
    /// next seat is refused and the staging is void), nor when asked once every wave is staged
    /// (the commit's transaction is rolled back before it commits). The ledger keeps its waves,
    /// its log and its head, and takes the same ingest whole once no one asks it to stop.
    #[test]
    fn an_ingest_asked_to_stop_writes_nothing() {
        let (_dir, mut l) = file_ledger();
        let a = wave("a", 2, 0.1);
        l.add_waves(std::slice::from_ref(&a), NOW).unwrap();
        let (b, c) = (wave("b", 3, 0.1), wave("c", 1, 0.1));
        let log = l.log().unwrap();
        let unchanged = |l: &Ledger| {
            assert_eq!(l.wave_ids().unwrap(), ["a"]);
            assert_eq!(l.log().unwrap(), log);
            assert_eq!(ids(l, "SELECT count(*), max(id) FROM seat"), [(2, 2)]);
            assert_eq!(l.integrity_check().unwrap(), ["ok"]);
        };
        let interrupted = |r: Result<_>| match r {
            Err(Error::Interrupted) => {}
            Err(e) => panic!("expected Interrupted, got {e}"),
            Ok(_) => panic!("expected Interrupted, got a success"),
        };

        let cancel = crate::cancel::Cancel::new();
        l.set_cancel(cancel.clone());
        let mut staging = l.stage_ingest(&std::env::temp_dir()).unwrap();
        staging.begin_wave(&b.wave, Path::new("b.toml")).unwrap();
        staging.add_seat(&b.seats[0]).unwrap();
        cancel.cancel();
        interrupted(staging.add_seat(&b.seats[1]).map(|()| Vec::new()));
        interrupted(
            staging
                .begin_wave(&c.wave, Path::new("c.toml"))
                .map(|_| Vec::new()),
        );
        interrupted(staging.commit(NOW));
        unchanged(&l);

        let cancel = crate::cancel::Cancel::new();
        l.set_cancel(cancel.clone());
        let staging = stage(&l, &[&b, &c]).unwrap();
        cancel.cancel();
        interrupted(staging.commit(NOW));
        unchanged(&l);

        l.set_cancel(crate::cancel::Cancel::new());
        let outcomes = stage(&l, &[&b, &c]).unwrap().commit(NOW).unwrap();
        assert_eq!(outcomes, [Ingested::Added, Ingested::Added]);
        assert_eq!(l.wave_ids().unwrap(), ["a", "b", "c"]);
        assert_eq!(l.log().unwrap().len(), log.len() + 2);
    }

    /// Stages `w`, then lets another writer add `meanwhile` under the same id before the
    /// commit.
    fn raced(
        w: &WaveData,
        meanwhile: &WaveData,
        format: u32,
    ) -> (Result<Vec<Ingested>>, Ledger, tempfile::TempDir) {
        let (dir, l) = file_ledger();
        let staging = stage(&l, &[w]).unwrap();
        let mut other = Ledger::open(l.path()).unwrap();
        other
            .add_waves(std::slice::from_ref(meanwhile), NOW)
            .unwrap();
        if format != crate::formats::wave::LATEST {
            other
                .conn()
                .execute_batch(&format!(
                    "DROP TRIGGER wave_no_update;
                     UPDATE wave SET content_format = {format};"
                ))
                .unwrap();
        }
        let outcome = staging.commit(NOW);
        (outcome, l, dir)
    }

    #[test]
    fn a_wave_another_writer_added_meanwhile_is_compared_not_duplicated() {
        let w = wave("w", 2, 0.1);
        // The same content: already present.
        let latest = crate::formats::wave::LATEST;
        let (outcome, l, _dir) = raced(&w, &w, latest);
        assert_eq!(outcome.unwrap(), [Ingested::AlreadyPresent]);
        assert_eq!(
            ids(&l, "SELECT count(*), max(id) FROM seat"),
            [(2, 2)],
            "the wave was written twice"
        );
        // Different content: the usual conflict.
        let (outcome, l, _dir) = raced(&w, &wave("w", 2, 0.2), latest);
        let err = outcome.unwrap_err();
        assert!(
            matches!(&err, Error::Hinted { error, hint }
                if matches!(**error, Error::Conflict(_))
                    && **hint == crate::error::Hint::OwnWaveId),
            "{err}"
        );
        assert!(err.to_string().contains("different content"), "{err}");
        assert_eq!(ids(&l, "SELECT count(*), 0 FROM wave"), [(1, 0)]);
        // Hashed in another format: cannot be compared; run again.
        let (outcome, ..) = raced(&w, &w, 1);
        let err = outcome.unwrap_err();
        assert_eq!(err.exit_code(), 3);
        assert!(err.to_string().contains("Run the ingest again"), "{err}");
    }
}
