//! Storing and loading waves: the raw facts.

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
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| sqlite(&path, e))?;
        let mut out = Vec::with_capacity(waves.len());
        for (data, sha) in waves {
            out.push(insert_wave(&tx, data, sha, now).map_err(|e| match e {
                Inner::Sql(e) => sqlite(&path, e),
                Inner::Other(e) => e,
            })?);
        }
        tx.commit().map_err(|e| sqlite(&path, e))?;
        Ok(out)
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

        // One pass over the wave's attempts, and one over its trace steps, in a fixed order.
        let mut index = std::collections::HashMap::new();
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
            let seat_pos: std::collections::HashMap<i64, usize> = seats
                .iter()
                .enumerate()
                .map(|(i, (id, _))| (*id, i))
                .collect();
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
                let attempt = attempt_from_row(r, checklist).map_err(|e| self.err(e))?;
                let pos = seat_pos[&seat_id];
                index.insert(attempt_id, (pos, seats[pos].1.attempts.len()));
                seats[pos].1.attempts.push(attempt);
            }
        }
        {
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
                let (s, a) = index[&attempt_id];
                seats[s].1.attempts[a]
                    .trace
                    .get_or_insert_with(Vec::new)
                    .push(step);
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
        outcome: r.get(5)?,
        input_tokens: r.get(6)?,
        output_tokens: r.get(7)?,
        input_tokens_cache_read: r.get(8)?,
        input_tokens_cache_write: r.get(9)?,
        wall_s: r.get(10)?,
        cost_usd: r.get(11)?,
        steps: r.get(12)?,
        errors: r.get(13)?,
        checklist,
        trace: None,
    })
}

enum Inner {
    Sql(rusqlite::Error),
    Other(Error),
}

impl From<rusqlite::Error> for Inner {
    fn from(e: rusqlite::Error) -> Inner {
        Inner::Sql(e)
    }
}

fn insert_wave(
    tx: &Transaction<'_>,
    data: &WaveData,
    sha: &str,
    now: &str,
) -> Result<Ingested, Inner> {
    let w = &data.wave;
    let existing: Option<String> = tx
        .prepare_cached("SELECT content_sha256 FROM wave WHERE slug = ?1")?
        .query_row([&w.id], |r| r.get(0))
        .optional()?;
    if let Some(existing) = existing {
        if existing == sha {
            return Ok(Ingested::AlreadyPresent);
        }
        return Err(Inner::Other(Error::Conflict(format!(
            "wave `{}` is already in the ledger with different content (sha256 {} there, {} \
             here). Waves are append-only: give the new wave its own id in [wave] id",
            w.id,
            &existing[..12],
            &sha[..12]
        ))));
    }
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
        "INSERT INTO wave(slug, suite_id, started_at, notes, suite_problems, suite_problems_listed,
            parallel_sessions, tool_server_sessions, serial_rerun,
            input_tokens_include_cache_reads, price_source,
            budget_tokens, budget_wall_s, budget_cost_usd,
            harness_version, producer, producer_version, content_sha256, ingested_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)",
    )?
    .execute(params![
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
    let wave_id = tx.last_insert_rowid();
    if let Some(SuiteProblems::Ids(ids)) = &w.suite_problems {
        let mut stmt =
            tx.prepare_cached("INSERT INTO wave_problem(wave_id, problem) VALUES (?1, ?2)")?;
        for id in ids {
            stmt.execute(params![wave_id, id])?;
        }
    }
    let mut seat_stmt = tx.prepare_cached(
        "INSERT INTO seat(wave_id, slug, model, provider, harness, config)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    let mut attempt_stmt = tx.prepare_cached(
        "INSERT INTO attempt(seat_id, problem, trial, correct, outcome, input_tokens,
            output_tokens, input_tokens_cache_read, input_tokens_cache_write, wall_s, cost_usd,
            steps, errors, checklist)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
    )?;
    let mut step_stmt = tx.prepare_cached(
        "INSERT INTO trace_step(attempt_id, idx, tool, ok, error) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for s in &data.seats {
        seat_stmt.execute(params![
            wave_id,
            s.seat.id,
            s.seat.model,
            s.seat.provider,
            s.seat.harness,
            s.seat.config
        ])?;
        let seat_id = tx.last_insert_rowid();
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
    }
    Ok(Ingested::Added)
}
