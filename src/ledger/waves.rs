//! Storing and loading waves: the raw facts.

use std::path::PathBuf;

use rusqlite::{OptionalExtension, Transaction, params};

use super::{Ledger, sqlite};
use crate::error::{Error, Result};
use crate::model::{
    Accounting, Attempt, Budget, ChecklistItem, Load, Provenance, Seat, SeatData, SuiteProblems,
    TraceStep, Wave, WaveData,
};

/// What an ingest did with one wave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ingested {
    /// The wave was written.
    Added,
    /// The same wave (same content hash) was already in the ledger; nothing was written.
    AlreadyPresent,
}

/// A wave as listed: its conditions and how much it holds.
#[derive(Debug, Clone, PartialEq)]
pub struct WaveRow {
    pub wave: Wave,
    pub seats: u64,
    pub attempts: u64,
    pub content_sha256: String,
    pub ingested_at: String,
}

impl Ledger {
    /// Writes waves, all in one transaction: either every new wave lands or none does.
    /// A wave whose id is present with the same content hash is skipped; with a different hash
    /// the whole ingest is refused.
    pub fn add_waves(&mut self, waves: &[(WaveData, String)], now: &str) -> Result<Vec<Ingested>> {
        let mut tx = self.begin_ingest(now)?;
        let mut out = Vec::with_capacity(waves.len());
        for (data, sha) in waves {
            tx.begin_wave(&data.wave)?;
            for seat in &data.seats {
                tx.add_seat(seat)?;
            }
            out.push(tx.finish_wave(&data.wave, sha)?);
        }
        tx.commit()?;
        Ok(out)
    }

    /// Starts an ingest: one write transaction that waves are streamed into a seat at a time
    /// ([`IngestTx`]), so that a wave need never be held whole. Dropped without
    /// [`IngestTx::commit`], it leaves the ledger as it was.
    pub fn begin_ingest(&mut self, now: &str) -> Result<IngestTx<'_>> {
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| sqlite(&path, e))?;
        // A wave's row is written after its seats, once its content hash is known (hashing
        // reads every attempt): its seats may point at it before it exists. SQLite checks
        // deferred foreign keys at COMMIT, and turns this off again there.
        tx.pragma_update(None, "defer_foreign_keys", true)
            .map_err(|e| sqlite(&path, e))?;
        Ok(IngestTx {
            tx,
            path,
            now: now.to_string(),
            current: None,
        })
    }

    /// Every wave, ordered by start time then id.
    pub fn waves(&self) -> Result<Vec<WaveRow>> {
        let mut stmt = self
            .conn
            .prepare_cached(&format!(
                "SELECT {WAVE_COLUMNS},
                    (SELECT count(*) FROM seat s WHERE s.wave_id = w.id),
                    (SELECT count(*) FROM attempt a JOIN seat s ON a.seat_id = s.id
                      WHERE s.wave_id = w.id),
                    w.content_sha256, w.ingested_at
                 FROM wave w JOIN suite su ON su.id = w.suite_id
                 ORDER BY w.started_at, w.slug"
            ))
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    wave_from_row(r)?,
                    r.get::<_, u64>(WAVE_COLUMN_COUNT)?,
                    r.get::<_, u64>(WAVE_COLUMN_COUNT + 1)?,
                    r.get::<_, String>(WAVE_COLUMN_COUNT + 2)?,
                    r.get::<_, String>(WAVE_COLUMN_COUNT + 3)?,
                ))
            })
            .map_err(|e| self.err(e))?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(|e| self.err(e))?;
        let mut out = Vec::with_capacity(rows.len());
        for (rowid, mut wave, seats, attempts, content_sha256, ingested_at) in rows {
            self.fill_problem_ids(rowid, &mut wave)?;
            out.push(WaveRow {
                wave,
                seats,
                attempts,
                content_sha256,
                ingested_at,
            });
        }
        Ok(out)
    }

    /// The ids of every wave, ordered by start time then id.
    pub fn wave_ids(&self) -> Result<Vec<String>> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT slug FROM wave ORDER BY started_at, slug")
            .map_err(|e| self.err(e))?;
        stmt.query_map([], |r| r.get(0))
            .map_err(|e| self.err(e))?
            .collect::<rusqlite::Result<Vec<String>>>()
            .map_err(|e| self.err(e))
    }

    /// The ledger's internal row id of a wave, or a usage error naming the known waves.
    pub(crate) fn wave_rowid(&self, slug: &str) -> Result<i64> {
        let id: Option<i64> = self
            .conn
            .prepare_cached("SELECT id FROM wave WHERE slug = ?1")
            .and_then(|mut s| s.query_row([slug], |r| r.get(0)).optional())
            .map_err(|e| self.err(e))?;
        match id {
            Some(id) => Ok(id),
            None => {
                let known = self.wave_ids()?;
                Err(Error::Usage(if known.is_empty() {
                    format!(
                        "no wave `{slug}` in {}: the ledger has no waves yet; add one with \
                         `benchledger ingest MANIFEST.toml`",
                        self.path.display()
                    )
                } else {
                    format!(
                        "no wave `{slug}` in {}; the ledger has: {}",
                        self.path.display(),
                        known.join(", ")
                    )
                }))
            }
        }
    }

    /// A whole wave: conditions, seats (by id) and attempts (by problem, then trial).
    pub fn load_wave(&self, slug: &str) -> Result<WaveData> {
        let rowid = self.wave_rowid(slug)?;
        let mut wave = self
            .conn
            .prepare_cached(&format!(
                "SELECT {WAVE_COLUMNS} FROM wave w JOIN suite su ON su.id = w.suite_id
                 WHERE w.id = ?1"
            ))
            .and_then(|mut s| s.query_row([rowid], wave_from_row))
            .map_err(|e| self.err(e))?;
        self.fill_problem_ids(rowid, &mut wave)?;

        let mut seats: Vec<(i64, SeatData)> = self
            .conn
            .prepare_cached(
                "SELECT id, slug, model, provider, harness, config FROM seat
                 WHERE wave_id = ?1 ORDER BY slug",
            )
            .and_then(|mut s| {
                s.query_map([rowid], |r| {
                    Ok((
                        r.get(0)?,
                        SeatData {
                            seat: Seat {
                                id: r.get(1)?,
                                model: r.get(2)?,
                                provider: r.get(3)?,
                                harness: r.get(4)?,
                                config: r.get(5)?,
                            },
                            attempts: Vec::new(),
                        },
                    ))
                })?
                .collect()
            })
            .map_err(|e| self.err(e))?;

        // One pass over the wave's trace steps, then one over its attempts, in a fixed order.
        // Most ledgers hold no traces at all: then the join over every attempt of the wave that
        // finding a wave's steps takes is skipped.
        let mut traces: std::collections::BTreeMap<i64, Vec<TraceStep>> = Default::default();
        let any_traces: bool = self
            .conn
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM trace_step)")
            .and_then(|mut s| s.query_row([], |r| r.get(0)))
            .map_err(|e| self.err(e))?;
        if any_traces {
            let mut stmt = self
                .conn
                .prepare_cached(
                    "SELECT t.attempt_id, t.tool, t.ok, t.error
                     FROM trace_step t JOIN attempt a ON a.id = t.attempt_id
                     JOIN seat s ON s.id = a.seat_id
                     WHERE s.wave_id = ?1 ORDER BY t.attempt_id, t.idx",
                )
                .map_err(|e| self.err(e))?;
            let mut rows = stmt.query([rowid]).map_err(|e| self.err(e))?;
            while let Some(r) = rows.next().map_err(|e| self.err(e))? {
                let attempt_id: i64 = r.get(0).map_err(|e| self.err(e))?;
                let step = TraceStep {
                    tool: r.get(1).map_err(|e| self.err(e))?,
                    ok: r.get(2).map_err(|e| self.err(e))?,
                    error: r.get(3).map_err(|e| self.err(e))?,
                };
                traces.entry(attempt_id).or_default().push(step);
            }
        }
        {
            let mut stmt = self
                .conn
                .prepare_cached(
                    "SELECT a.seat_id, a.id, a.problem, a.trial, a.correct, a.outcome,
                        a.input_tokens, a.output_tokens, a.input_tokens_cache_read,
                        a.input_tokens_cache_write, a.wall_s, a.cost_usd, a.steps, a.errors,
                        a.checklist
                     FROM attempt a JOIN seat s ON s.id = a.seat_id
                     WHERE s.wave_id = ?1 ORDER BY s.slug, a.problem, a.trial",
                )
                .map_err(|e| self.err(e))?;
            // Rows come seat by seat, in the seats' order.
            let mut pos = 0;
            let mut rows = stmt.query([rowid]).map_err(|e| self.err(e))?;
            while let Some(r) = rows.next().map_err(|e| self.err(e))? {
                let seat_id: i64 = r.get(0).map_err(|e| self.err(e))?;
                let attempt_id: i64 = r.get(1).map_err(|e| self.err(e))?;
                let checklist: Option<String> = r.get(14).map_err(|e| self.err(e))?;
                let checklist = match checklist {
                    None => None,
                    Some(text) => Some(serde_json::from_str::<Vec<ChecklistItem>>(&text).map_err(
                        |e| Error::Ledger {
                            path: self.path.clone(),
                            message: format!("attempt {attempt_id} has a malformed checklist: {e}"),
                        },
                    )?),
                };
                let mut attempt = attempt_from_row(r, checklist).map_err(|e| self.err(e))?;
                if !traces.is_empty() {
                    attempt.trace = traces.remove(&attempt_id);
                }
                if seats.get(pos).map(|s| s.0) != Some(seat_id) {
                    pos =
                        seats
                            .iter()
                            .position(|s| s.0 == seat_id)
                            .ok_or_else(|| Error::Ledger {
                                path: self.path.clone(),
                                message: format!(
                                    "attempt {attempt_id} belongs to no seat of {slug}"
                                ),
                            })?;
                }
                seats[pos].1.attempts.push(attempt);
            }
        }
        Ok(WaveData {
            wave,
            seats: seats.into_iter().map(|(_, s)| s).collect(),
        })
    }

    /// Checks that a wave exists, with the same error as `load_wave` when it does not.
    pub fn load_wave_check(&self, slug: &str) -> Result<()> {
        self.wave_rowid(slug).map(|_| ())
    }

    /// The content hash recorded when the wave was ingested.
    pub fn wave_content_sha256(&self, slug: &str) -> Result<String> {
        let rowid = self.wave_rowid(slug)?;
        self.conn
            .prepare_cached("SELECT content_sha256 FROM wave WHERE id = ?1")
            .and_then(|mut s| s.query_row([rowid], |r| r.get(0)))
            .map_err(|e| self.err(e))
    }

    fn fill_problem_ids(&self, rowid: i64, wave: &mut Wave) -> Result<()> {
        if let Some(SuiteProblems::Ids(ids)) = &mut wave.suite_problems {
            *ids = self
                .conn
                .prepare_cached(
                    "SELECT problem FROM wave_problem WHERE wave_id = ?1 ORDER BY problem",
                )
                .and_then(|mut s| s.query_map([rowid], |r| r.get(0))?.collect())
                .map_err(|e| self.err(e))?;
        }
        Ok(())
    }
}

const WAVE_COLUMNS: &str = "w.id, w.slug, su.name, w.started_at, w.notes, w.suite_problems,
    w.suite_problems_listed, w.parallel_sessions, w.tool_server_sessions, w.serial_rerun,
    w.input_tokens_include_cache_reads, w.price_source, w.budget_tokens, w.budget_wall_s,
    w.budget_cost_usd, w.harness_version, w.producer, w.producer_version";
const WAVE_COLUMN_COUNT: usize = 18;

fn wave_from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Wave> {
    let count: Option<u64> = r.get(5)?;
    let listed: bool = r.get(6)?;
    Ok(Wave {
        id: r.get(1)?,
        suite: r.get(2)?,
        started_at: r.get(3)?,
        notes: r.get(4)?,
        suite_problems: count.map(|n| {
            if listed {
                // Filled in by `fill_problem_ids`.
                SuiteProblems::Ids(Vec::new())
            } else {
                SuiteProblems::Count(n)
            }
        }),
        load: Load {
            parallel_sessions: r.get(7)?,
            tool_server_sessions: r.get(8)?,
            serial_rerun: r.get(9)?,
        },
        accounting: Accounting {
            input_tokens_include_cache_reads: r.get(10)?,
            price_source: r.get(11)?,
        },
        budget: Budget {
            tokens: r.get(12)?,
            wall_s: r.get(13)?,
            cost_usd: r.get(14)?,
        },
        provenance: Provenance {
            harness_version: r.get(15)?,
            producer: r.get(16)?,
            producer_version: r.get(17)?,
        },
    })
}

fn attempt_from_row(
    r: &rusqlite::Row<'_>,
    checklist: Option<Vec<ChecklistItem>>,
) -> rusqlite::Result<Attempt> {
    Ok(Attempt {
        problem: r.get(2)?,
        trial: r.get(3)?,
        correct: r.get(4)?,
        outcome: real(r, 5)?,
        input_tokens: count(r, 6)?,
        output_tokens: count(r, 7)?,
        input_tokens_cache_read: count(r, 8)?,
        input_tokens_cache_write: count(r, 9)?,
        wall_s: real(r, 10)?,
        cost_usd: real(r, 11)?,
        steps: r.get(12)?,
        errors: r.get(13)?,
        checklist,
        trace: None,
    })
}

// `Row::get` for the two commonest column types, with the usual case (a value of the column's
// own type, or NULL) taken straight from the row; anything else goes through `get`, for its
// conversions and its errors.

fn count(r: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<Option<u64>> {
    use rusqlite::types::ValueRef;
    match r.get_ref(i)? {
        ValueRef::Null => Ok(None),
        ValueRef::Integer(n) if n >= 0 => Ok(Some(n as u64)),
        _ => r.get(i),
    }
}

fn real(r: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<Option<f64>> {
    use rusqlite::types::ValueRef;
    match r.get_ref(i)? {
        ValueRef::Null => Ok(None),
        ValueRef::Real(x) => Ok(Some(x)),
        _ => r.get(i),
    }
}

/// An ingest in progress (see [`Ledger::begin_ingest`]). For each wave: [`begin_wave`], then
/// [`add_seat`] for each seat in ledger order, then [`finish_wave`] with the wave's content hash.
/// The rows land with the same ids as if the wave row had been written first.
///
/// [`begin_wave`]: IngestTx::begin_wave
/// [`add_seat`]: IngestTx::add_seat
/// [`finish_wave`]: IngestTx::finish_wave
pub struct IngestTx<'a> {
    tx: Transaction<'a>,
    path: PathBuf,
    now: String,
    current: Option<Current>,
}

/// The wave being streamed in.
enum Current {
    /// A new wave: its rows are written under the id its wave row will take.
    New { wave_id: i64 },
    /// Its id is already in the ledger with this content hash: nothing is written, and the
    /// hashes are compared at the end.
    Present { sha: String },
}

impl IngestTx<'_> {
    fn err(&self, e: rusqlite::Error) -> Error {
        sqlite(&self.path, e)
    }

    /// Starts a wave: notes whether its id is already in the ledger, and if not, writes its
    /// declared problems.
    pub fn begin_wave(&mut self, w: &Wave) -> Result<()> {
        self.current = None;
        let existing: Option<String> = self
            .tx
            .prepare_cached("SELECT content_sha256 FROM wave WHERE slug = ?1")
            .and_then(|mut s| s.query_row([&w.id], |r| r.get(0)).optional())
            .map_err(|e| self.err(e))?;
        if let Some(sha) = existing {
            self.current = Some(Current::Present { sha });
            return Ok(());
        }
        // The id SQLite would give the wave row were it written now: nothing else writes waves
        // while this transaction holds the write lock.
        let wave_id: i64 = self
            .tx
            .prepare_cached("SELECT coalesce(max(id), 0) + 1 FROM wave")
            .and_then(|mut s| s.query_row([], |r| r.get(0)))
            .map_err(|e| self.err(e))?;
        if let Some(SuiteProblems::Ids(ids)) = &w.suite_problems {
            let mut stmt = self
                .tx
                .prepare_cached("INSERT INTO wave_problem(wave_id, problem) VALUES (?1, ?2)")
                .map_err(|e| sqlite(&self.path, e))?;
            for id in ids {
                stmt.execute(params![wave_id, id])
                    .map_err(|e| sqlite(&self.path, e))?;
            }
        }
        self.current = Some(Current::New { wave_id });
        Ok(())
    }

    /// Writes one seat and its attempts (nothing, when the wave is already present).
    pub fn add_seat(&mut self, s: &SeatData) -> Result<()> {
        match &self.current {
            Some(Current::New { wave_id }) => {
                insert_seat(&self.tx, *wave_id, s).map_err(|e| sqlite(&self.path, e))
            }
            Some(Current::Present { .. }) => Ok(()),
            None => Err(Error::Ledger {
                path: self.path.clone(),
                message: format!("seat {} was given before its wave", s.seat.id),
            }),
        }
    }

    /// Ends a wave: writes its row with its content hash, or, when its id was already in the
    /// ledger, compares the hashes (the same: nothing to do; different: the ingest is refused).
    pub fn finish_wave(&mut self, w: &Wave, sha: &str) -> Result<Ingested> {
        match self.current.take() {
            Some(Current::Present { sha: existing }) => {
                if existing == sha {
                    return Ok(Ingested::AlreadyPresent);
                }
                Err(Error::Conflict(format!(
                    "wave `{}` is already in the ledger with different content (sha256 {} there, \
                     {} here). Waves are append-only: give the new wave its own id in [wave] id",
                    w.id,
                    &existing[..12],
                    &sha[..12]
                )))
            }
            Some(Current::New { wave_id }) => {
                insert_wave_row(&self.tx, wave_id, w, sha, &self.now)
                    .map_err(|e| sqlite(&self.path, e))?;
                Ok(Ingested::Added)
            }
            None => Err(Error::Ledger {
                path: self.path.clone(),
                message: format!("wave {} was finished before it was begun", w.id),
            }),
        }
    }

    /// Commits every wave at once.
    pub fn commit(self) -> Result<()> {
        let path = self.path;
        self.tx.commit().map_err(|e| sqlite(&path, e))
    }
}

fn insert_wave_row(
    tx: &Transaction<'_>,
    wave_id: i64,
    w: &Wave,
    sha: &str,
    now: &str,
) -> rusqlite::Result<()> {
    tx.prepare_cached("INSERT OR IGNORE INTO suite(name) VALUES (?1)")?
        .execute([&w.suite])?;
    let suite_id: i64 = tx
        .prepare_cached("SELECT id FROM suite WHERE name = ?1")?
        .query_row([&w.suite], |r| r.get(0))?;
    let (problems, listed) = match &w.suite_problems {
        None => (None, false),
        Some(SuiteProblems::Count(n)) => (Some(*n), false),
        Some(SuiteProblems::Ids(ids)) => (Some(ids.len() as u64), true),
    };
    tx.prepare_cached(
        "INSERT INTO wave(id, slug, suite_id, started_at, notes, suite_problems,
            suite_problems_listed, parallel_sessions, tool_server_sessions, serial_rerun,
            input_tokens_include_cache_reads, price_source,
            budget_tokens, budget_wall_s, budget_cost_usd,
            harness_version, producer, producer_version, content_sha256, ingested_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,
            ?19, ?20)",
    )?
    .execute(params![
        wave_id,
        w.id,
        suite_id,
        w.started_at,
        w.notes,
        problems,
        listed,
        w.load.parallel_sessions,
        w.load.tool_server_sessions,
        w.load.serial_rerun,
        w.accounting.input_tokens_include_cache_reads,
        w.accounting.price_source,
        w.budget.tokens,
        w.budget.wall_s,
        w.budget.cost_usd,
        w.provenance.harness_version,
        w.provenance.producer,
        w.provenance.producer_version,
        sha,
        now,
    ])?;
    Ok(())
}

fn insert_seat(tx: &Transaction<'_>, wave_id: i64, s: &SeatData) -> rusqlite::Result<()> {
    tx.prepare_cached(
        "INSERT INTO seat(wave_id, slug, model, provider, harness, config)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        wave_id,
        s.seat.id,
        s.seat.model,
        s.seat.provider,
        s.seat.harness,
        s.seat.config
    ])?;
    let seat_id = tx.last_insert_rowid();
    let mut attempt_stmt = tx.prepare_cached(
        "INSERT INTO attempt(seat_id, problem, trial, correct, outcome, input_tokens,
            output_tokens, input_tokens_cache_read, input_tokens_cache_write, wall_s, cost_usd,
            steps, errors, checklist)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
    )?;
    let mut step_stmt = tx.prepare_cached(
        "INSERT INTO trace_step(attempt_id, idx, tool, ok, error) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for a in &s.attempts {
        let checklist = a
            .checklist
            .as_ref()
            .map(|c| serde_json::to_string(c).unwrap_or_default());
        attempt_stmt.execute(params![
            seat_id,
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
        ])?;
        if let Some(trace) = &a.trace {
            let attempt_id = tx.last_insert_rowid();
            for (i, step) in trace.iter().enumerate() {
                step_stmt.execute(params![
                    attempt_id, i as i64, step.tool, step.ok, step.error
                ])?;
            }
        }
    }
    Ok(())
}
