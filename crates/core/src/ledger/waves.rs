//! Storing and loading waves: the raw facts.

use rusqlite::types::FromSql;

use super::raw::{Cells, Number, utf8};
use super::sql::{Row, Sql, values};
use super::{Ledger, sqlite};
use crate::error::{Error, Hint, Result};
use crate::formats::record;
use crate::formats::wave::ContentHash;
use crate::model::WaveRow;
use crate::model::{
    Accounting, Attempt, AttemptFields, AttemptOrigin, AttemptTexts, Budget, ChecklistItem, Load,
    Provenance, Seat, SeatData, SuiteProblems, TraceStep, Wave, WaveData,
};

/// What an ingest did with one wave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ingested {
    /// The wave was written.
    Added,
    /// The same wave (same content hash) was already in the ledger; nothing was written.
    AlreadyPresent,
    /// The same wave was already in the ledger, and this many of its seats, which had no
    /// display name, were given the one this ingest names; nothing else was written.
    Named(usize),
}

impl Ledger {
    /// Writes waves, all in one transaction: either every new wave lands or none does.
    /// Each is staged first ([`Ledger::stage_ingest`], in the system's temporary directory),
    /// which hashes its content: a wave whose id is present with the same content hash is
    /// skipped; with a different hash the whole ingest is refused.
    pub fn add_waves(&mut self, waves: &[WaveData], now: &str) -> Result<Vec<Ingested>> {
        let mut staging = self.stage_ingest(&std::env::temp_dir())?;
        for data in waves {
            staging.begin_wave(&data.wave, std::path::Path::new(&data.wave.id))?;
            for seat in &data.seats {
                staging.add_seat(seat)?;
            }
            staging.finish_wave(&data.wave)?;
        }
        staging.commit(now)
    }

    /// Every wave, ordered by start time then id.
    pub fn waves(&self) -> Result<Vec<WaveRow>> {
        self.read(|sql| {
            let rows = sql.rows(
                &format!(
                    "SELECT {WAVE_COLUMNS},
                        (SELECT count(*) FROM seat s WHERE s.wave_id = w.id),
                        (SELECT count(*) FROM attempt a JOIN seat s ON a.seat_id = s.id
                          WHERE s.wave_id = w.id),
                        w.content_sha256, w.ingested_at, w.content_format
                     FROM wave w JOIN suite su ON su.id = w.suite_id
                     ORDER BY w.started_at, w.slug"
                ),
                &[],
                |r| {
                    let n = WAVE_COLUMN_COUNT;
                    Ok((
                        r.get::<i64>(0)?,
                        wave_from_row(r)?,
                        r.unsigned::<u64>(n, "a seat count")?,
                        r.unsigned::<u64>(n + 1, "an attempt count")?,
                        r.get::<String>(n + 2)?,
                        r.get::<String>(n + 3)?,
                        r.unsigned::<u32>(n + 4, "wave.content_format")?,
                    ))
                },
            )?;
            let mut out = Vec::with_capacity(rows.len());
            for (rowid, mut wave, seats, attempts, sha256, ingested_at, format) in rows {
                fill_problem_ids(sql, rowid, &mut wave)?;
                out.push(WaveRow {
                    wave,
                    seats,
                    attempts,
                    content: ContentHash { format, sha256 },
                    ingested_at,
                });
            }
            Ok(out)
        })
    }

    /// The ids of every wave, ordered by start time then id.
    pub fn wave_ids(&self) -> Result<Vec<String>> {
        self.read(|sql| {
            sql.rows(
                "SELECT slug FROM wave ORDER BY started_at, slug",
                &[],
                |r| r.get(0),
            )
        })
    }

    /// The ledger's internal row id of a wave, or a usage error naming the known waves.
    pub(crate) fn wave_rowid(&self, slug: &str) -> Result<i64> {
        match self.wave_id_of(slug)? {
            Some(id) => Ok(id),
            None => {
                let known = self.wave_ids()?;
                Err(if known.is_empty() {
                    Error::Usage(format!(
                        "no wave `{slug}` in {}: the ledger has no waves yet",
                        self.path.display()
                    ))
                    .hinted(Hint::AddWave)
                } else {
                    Error::Usage(format!(
                        "no wave `{slug}` in {}; the ledger has: {}",
                        self.path.display(),
                        known.join(", ")
                    ))
                })
            }
        }
    }

    /// The ledger's internal row id of a wave, if it holds one with this id.
    fn wave_id_of(&self, slug: &str) -> Result<Option<i64>> {
        self.read(|sql| {
            sql.row("SELECT id FROM wave WHERE slug = ?1", &values![slug], |r| {
                r.get(0)
            })
        })
    }

    /// A whole wave: conditions, seats (by id) and attempts (by problem, then trial).
    pub fn load_wave(&self, slug: &str) -> Result<WaveData> {
        let wave = self.wave_conditions(slug)?;
        let seats = self.fold_wave(
            slug,
            AttemptFields::ALL,
            |_| Vec::new(),
            |v, a| v.push(a.clone()),
        )?;
        let mut seats: Vec<SeatData> = seats
            .into_iter()
            .map(|(seat, attempts)| SeatData { seat, attempts })
            .collect();
        self.fill_origins(slug, &mut seats)?;
        self.fill_texts(slug, &mut seats)?;
        Ok(WaveData { wave, seats })
    }

    /// Gives each attempt of a wave's `seats` (as [`Ledger::load_wave`] read them) its texts,
    /// when the ledger keeps them (`attempt_text`, written at ingest for the formats that
    /// record the sample).
    fn fill_texts(&self, slug: &str, seats: &mut [SeatData]) -> Result<()> {
        let rows = self.read(|sql| super::log::texts(sql, slug))?;
        if rows.is_empty() {
            return Ok(());
        }
        let mut by_key: std::collections::HashMap<(String, String, u32), AttemptTexts> = rows
            .into_iter()
            .map(|t| ((t.seat, t.problem, t.trial), t.texts))
            .collect();
        for s in seats.iter_mut() {
            for a in &mut s.attempts {
                a.texts = by_key.remove(&(s.seat.id.clone(), a.problem.clone(), a.trial));
            }
        }
        Ok(())
    }

    /// Gives each attempt of a wave's `seats` (as [`Ledger::load_wave`] read them) where it
    /// came from, when the ledger says (`attempt_origin`, written at ingest for the formats
    /// that name one).
    fn fill_origins(&self, slug: &str, seats: &mut [SeatData]) -> Result<()> {
        let rowid = self.wave_rowid(slug)?;
        let rows: Vec<(String, String, u32, AttemptOrigin)> = self.read(|sql| {
            sql.rows(
                "SELECT s.slug, a.problem, a.trial, o.file, o.record
                 FROM attempt_origin o JOIN attempt a ON a.id = o.attempt_id
                 JOIN seat s ON s.id = a.seat_id
                 WHERE s.wave_id = ?1",
                &values![rowid],
                |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        r.unsigned(2, "attempt.trial")?,
                        AttemptOrigin {
                            file: r.get(3)?,
                            record: r.get(4)?,
                        },
                    ))
                },
            )
        })?;
        let mut by_key: std::collections::HashMap<(String, String, u32), AttemptOrigin> = rows
            .into_iter()
            .map(|(seat, problem, trial, o)| ((seat, problem, trial), o))
            .collect();
        if by_key.is_empty() {
            return Ok(());
        }
        for s in seats.iter_mut() {
            for a in &mut s.attempts {
                a.origin = by_key.remove(&(s.seat.id.clone(), a.problem.clone(), a.trial));
            }
        }
        Ok(())
    }

    /// A wave's conditions: suite, declared problems, load, accounting, budget, provenance.
    pub fn wave_conditions(&self, slug: &str) -> Result<Wave> {
        let rowid = self.wave_rowid(slug)?;
        self.read(|sql| {
            let mut wave = sql.found(
                &format!(
                    "SELECT {WAVE_COLUMNS} FROM wave w JOIN suite su ON su.id = w.suite_id
                     WHERE w.id = ?1"
                ),
                &values![rowid],
                wave_from_row,
                ("wave", rowid),
            )?;
            fill_problem_ids(sql, rowid, &mut wave)?;
            Ok(wave)
        })
    }

    /// Folds a wave's attempts into one value per seat, reading them in ledger order (seat id,
    /// then problem, then trial) a row at a time and holding none: `start` makes a seat's value
    /// (a seat with no attempts keeps it), `add` takes each of the seat's attempts in turn.
    /// Seats come back in ledger order, each with its value. This is how a wave is scored
    /// without being held whole ([`crate::rubric::Scorer`]).
    ///
    /// Each attempt is what [`Ledger::load_wave`] gives, with only the `fields` asked for
    /// (the others `None`: see [`AttemptFields`]). It is lent to `add` for the call: the next
    /// row is read into the same buffers. It stops before each seat once the ledger's work was
    /// asked to stop ([`Ledger::set_cancel`]), with [`crate::Error::Interrupted`].
    pub fn fold_wave<T>(
        &self,
        slug: &str,
        fields: AttemptFields,
        mut start: impl FnMut(&Seat) -> T,
        mut add: impl FnMut(&mut T, &Attempt),
    ) -> Result<Vec<(Seat, T)>> {
        let rowid = self.wave_rowid(slug)?;
        let path = &self.path;
        self.snapshot(|sql| {
            let seats = seats_of(sql, rowid)?;
            let fields = with_traces(sql, fields)?;
            let columns = Columns::of(fields);
            let mut attempt = Attempt::empty();
            let mut out = Vec::with_capacity(seats.len());
            for (seat_id, seat) in seats {
                self.cancel.check()?;
                let mut value = start(&seat);
                // With traces, an attempt comes as one row per step (one row with no step when
                // it has none), its rows together. Either way an attempt is handed on when the
                // next one's first row arrives, or the rows end.
                let mut pending: Option<Option<i64>> = None;
                sql.stream(&columns.sql, &values![seat_id], |r| {
                    let id: Option<i64> = match columns.id {
                        Some(i) => Some(Cells::get(r, i).map_err(|e| sqlite(path, e))?),
                        None => None,
                    };
                    if !(fields.trace && pending == Some(id)) {
                        if pending.is_some() {
                            add(&mut value, &attempt);
                        }
                        read_attempt(path, &columns, r, id, &mut attempt, Problem::Read)?;
                        pending = Some(id);
                    }
                    read_step(path, &columns, r, &mut attempt)
                })?;
                if pending.is_some() {
                    add(&mut value, &attempt);
                }
                out.push((seat, value));
            }
            Ok(out)
        })
    }

    /// Feeds one seat's attempts, in ledger order, to `add`, through `stmt` (the query of
    /// [`Columns::of`]`(fields)`), reading each row into `attempt`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn fold_seat<T>(
        &self,
        stmt: &mut rusqlite::Statement<'_>,
        columns: &Columns,
        fields: AttemptFields,
        seat_id: i64,
        attempt: &mut Attempt,
        value: &mut T,
        add: &mut impl FnMut(&mut T, &Attempt),
    ) -> Result<()> {
        let mut rows = stmt.query([seat_id]).map_err(|e| self.err(e))?;
        // With traces, an attempt comes as one row per step (one row with no step when it has
        // none), its rows together. Either way an attempt is handed on when the next one's
        // first row arrives, or the rows end.
        let mut pending: Option<Option<i64>> = None;
        while let Some(r) = rows.next().map_err(|e| self.err(e))? {
            let id: Option<i64> = match columns.id {
                Some(i) => Some(r.get(i).map_err(|e| self.err(e))?),
                None => None,
            };
            if !(fields.trace && pending == Some(id)) {
                if pending.is_some() {
                    add(value, attempt);
                }
                read_attempt(&self.path, columns, r, id, attempt, Problem::Read)?;
                pending = Some(id);
            }
            read_step(&self.path, columns, r, attempt)?;
        }
        if pending.is_some() {
            add(value, attempt);
        }
        Ok(())
    }

    /// Checks that a wave exists, with the same error as `load_wave` when it does not.
    pub(crate) fn load_wave_check(&self, slug: &str) -> Result<()> {
        self.wave_rowid(slug).map(|_| ())
    }

    /// The content hash recorded when the wave was ingested, with its format.
    pub fn wave_content_hash(&self, slug: &str) -> Result<ContentHash> {
        let rowid = self.wave_rowid(slug)?;
        self.read(|sql| {
            sql.found(
                "SELECT content_format, content_sha256 FROM wave WHERE id = ?1",
                &values![rowid],
                content_hash,
                ("wave", rowid),
            )
        })
    }
}

/// A wave's seats, in ledger order (by slug), each with its row id.
pub(super) fn seats_of(sql: &mut Sql<'_>, wave_rowid: i64) -> Result<Vec<(i64, Seat)>> {
    sql.rows(
        "SELECT id, slug, model, provider, harness, config,
            (SELECT name FROM seat_display_name d WHERE d.seat_id = seat.id) FROM seat
         WHERE wave_id = ?1 ORDER BY slug",
        &values![wave_rowid],
        |r| Ok((r.get(0)?, seat_at(r, 1)?)),
    )
}

/// `fields`, with the trace left out when the ledger holds no trace at all (most hold none:
/// then the join that finds the steps is skipped).
pub(super) fn with_traces(sql: &mut Sql<'_>, fields: AttemptFields) -> Result<AttemptFields> {
    let mut fields = fields;
    fields.trace = fields.trace && sql.value("SELECT EXISTS (SELECT 1 FROM trace_step)", &[])?;
    Ok(fields)
}

/// A content hash: the columns `content_format, content_sha256` of `r`.
pub(super) fn content_hash(r: &Row<'_>) -> Result<ContentHash> {
    Ok(ContentHash {
        format: r.unsigned(0, "wave.content_format")?,
        sha256: r.get(1)?,
    })
}

/// The content hash of the wave with this id, if the ledger (or the transaction) holds it.
pub(super) fn content_hash_of(sql: &mut Sql<'_>, slug: &str) -> Result<Option<ContentHash>> {
    sql.row(
        "SELECT content_format, content_sha256 FROM wave WHERE slug = ?1",
        &values![slug],
        content_hash,
    )
}

/// A wave's declared problem ids, its canary problems, and the wave it supersedes (from the
/// chain).
fn fill_problem_ids(sql: &mut Sql<'_>, rowid: i64, wave: &mut Wave) -> Result<()> {
    wave.canary_problems = sql.rows(
        "SELECT problem FROM wave_canary WHERE wave_id = ?1 ORDER BY problem",
        &values![rowid],
        |r| r.get(0),
    )?;
    wave.supersedes = sql.row(
        "SELECT w.slug FROM withdrawal d JOIN wave w ON w.id = d.wave_id
         WHERE d.superseded_by = ?1 ORDER BY d.id LIMIT 1",
        &values![rowid],
        |r| r.get(0),
    )?;
    if let Some(SuiteProblems::Ids(ids)) = &mut wave.suite_problems {
        *ids = sql.rows(
            "SELECT problem FROM wave_problem WHERE wave_id = ?1 ORDER BY problem",
            &values![rowid],
            |r| r.get(0),
        )?;
    }
    Ok(())
}

/// How [`read_attempt`] takes the row's problem.
#[derive(Debug, Clone, Copy)]
pub(super) enum Problem<'r> {
    /// From the row.
    Read,
    /// The row's, already taken as text ([`Cells::text`]).
    Text(&'r [u8]),
    /// The attempt already holds it: the row's problem is the one read last, byte for byte.
    Held,
}

/// Reads the attempt of row `r` (whose id is `id`, when read) into `attempt`, its trace
/// emptied, the row's problem taken as `problem` says. `attempt` is a buffer only rows of
/// `columns`' query are read into, from [`Attempt::empty`]: the fields (and trace) the query
/// does not read stay as that left them.
pub(super) fn read_attempt(
    path: &std::path::Path,
    columns: &Columns,
    r: &impl Cells,
    id: Option<i64>,
    attempt: &mut Attempt,
    problem: Problem<'_>,
) -> Result<()> {
    if let (Some(i), Some(id)) = (columns.checklist, id) {
        let text: Option<String> = r.get(i).map_err(|e| sqlite(path, e))?;
        attempt.checklist = checklist(path, id, text)?;
    }
    columns.read(r, attempt, problem).map_err(|e| match e {
        // A count or trial below 0 (or past its type) can only have been written by hand,
        // with the store's CHECKs off: name the column (issue 34), not an index.
        rusqlite::Error::IntegralValueOutOfRange(i, n) => {
            let column = columns.names.get(i).map_or_else(
                || format!("column {i}"),
                |c| match (c.strip_prefix("a."), c.strip_prefix("t.")) {
                    (Some(c), _) => format!("attempt.{c}"),
                    (_, Some(c)) => format!("trace_step.{c}"),
                    _ => c.to_string(),
                },
            );
            crate::error::Error::Ledger {
                path: path.to_path_buf(),
                message: format!(
                    "{column} holds {n}{}, which is out of range: the row was edited behind \
                     benchledger's back",
                    id.map_or(String::new(), |id| format!(" in attempt {id}"))
                ),
            }
        }
        e => sqlite(path, e),
    })?;
    if columns.trace.is_some() {
        attempt.trace = None;
    }
    Ok(())
}

/// Adds the trace step of row `r`, if it holds one, to `attempt`'s trace. Whether the query
/// reads a trace at all is its columns' (decided once, with the query): without one this is
/// a test inlined into the row's reading, not a call.
#[inline]
pub(super) fn read_step(
    path: &std::path::Path,
    columns: &Columns,
    r: &impl Cells,
    attempt: &mut Attempt,
) -> Result<()> {
    match columns.trace {
        None => Ok(()),
        Some(i) => read_step_at(path, i, r, attempt),
    }
}

/// [`read_step`], the step's tool, ok and error being the columns from `i` on.
#[inline(never)]
fn read_step_at(
    path: &std::path::Path,
    i: usize,
    r: &impl Cells,
    attempt: &mut Attempt,
) -> Result<()> {
    if r.value(i).map_err(|e| sqlite(path, e))? != rusqlite::types::ValueRef::Null {
        let step = (|| {
            Ok::<_, rusqlite::Error>(TraceStep {
                tool: r.get(i)?,
                ok: r.get(i + 1)?,
                error: r.get(i + 2)?,
            })
        })()
        .map_err(|e| sqlite(path, e))?;
        attempt.trace.get_or_insert_with(Vec::new).push(step);
    }
    Ok(())
}

/// The checklist stored (as `text`) with attempt `id`, parsed.
pub(super) fn checklist(
    path: &std::path::Path,
    id: i64,
    text: Option<String>,
) -> Result<Option<Vec<ChecklistItem>>> {
    text.map(|text| {
        crate::formats::wave::parse_checklist(&text).map_err(|e| Error::Ledger {
            path: path.to_path_buf(),
            message: format!("attempt {id} has a malformed checklist: {e}"),
        })
    })
    .transpose()
}

pub(super) const WAVE_COLUMNS: &str =
    "w.id, w.slug, su.name, w.started_at, w.notes, w.suite_problems,
    w.suite_problems_listed, w.parallel_sessions, w.tool_server_sessions, w.serial_rerun,
    w.input_tokens_include_cache_reads, w.price_source, w.budget_tokens, w.budget_wall_s,
    w.budget_cost_usd, w.harness_version, w.producer, w.producer_version, w.timeout_multiplier";
pub(super) const WAVE_COLUMN_COUNT: usize = 19;

fn wave_from_row(r: &Row<'_>) -> Result<Wave> {
    let count: Option<u64> = r.unsigned_opt(5, "wave.suite_problems")?;
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
            parallel_sessions: r.unsigned_opt(7, "wave.parallel_sessions")?,
            tool_server_sessions: r.unsigned_opt(8, "wave.tool_server_sessions")?,
            serial_rerun: r.get(9)?,
            timeout_multiplier: r.get(18)?,
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
        // Filled from the chain (`fill_problem_ids`).
        supersedes: None,
        // Filled in by `fill_problem_ids`.
        canary_problems: Vec::new(),
    })
}

/// The query that reads a seat's attempts with some of their fields, and where each field is
/// in its rows (`None`: not read).
pub(super) struct Columns {
    pub(super) sql: String,
    pub(super) trial: Option<usize>,
    pub(super) outcome: Option<usize>,
    pub(super) input_tokens: Option<usize>,
    pub(super) output_tokens: Option<usize>,
    pub(super) cache_read: Option<usize>,
    pub(super) cache_write: Option<usize>,
    pub(super) wall_s: Option<usize>,
    pub(super) cost_usd: Option<usize>,
    pub(super) steps: Option<usize>,
    pub(super) errors: Option<usize>,
    pub(super) working_s: Option<usize>,
    /// `infra_error`, then `end_reason`.
    pub(super) end: Option<usize>,
    /// The attempt's id, for the rows of one attempt's trace steps and for naming an attempt
    /// whose checklist is malformed.
    pub(super) id: Option<usize>,
    pub(super) checklist: Option<usize>,
    /// The attempt's seat (its row id), in a query over more than one seat.
    pub(super) seat: Option<usize>,
    /// The first of the step's tool, ok and error.
    pub(super) trace: Option<usize>,
    /// Each column's name, as the query names it (`a.input_tokens`): for an error naming it.
    pub(super) names: Vec<&'static str>,
}

/// Which attempts a [`Columns`] query reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rows {
    OneSeat,
    IdRange,
    #[cfg_attr(not(feature = "postgres"), allow(dead_code))]
    AllBySeat,
}

impl Columns {
    /// The query of one seat's attempts (`?1` its id), in ledger order.
    pub(super) fn of(f: AttemptFields) -> Columns {
        Columns::build(f, Rows::OneSeat)
    }

    /// The query of every attempt, seat after seat (by seat id), each seat's in ledger order:
    /// the seat's id is read too ([`Columns::seat`]).
    #[cfg(feature = "postgres")]
    pub(super) fn by_seat(f: AttemptFields) -> Columns {
        Columns::build(f, Rows::AllBySeat)
    }

    /// The query of every attempt whose id is between `?1` and `?2`, in id order, whatever
    /// its seat: the trial and (in [`Columns::seat`]) the seat's id are always read.
    pub(super) fn over_ids(f: AttemptFields) -> Columns {
        Columns::build(AttemptFields { trial: true, ..f }, Rows::IdRange)
    }

    fn build(f: AttemptFields, rows: Rows) -> Columns {
        // Problem and verdict first, always.
        let mut names = vec!["a.problem", "a.correct"];
        // The column(s) of a field, when it is read: the index of its first.
        let mut cols = |on: bool, these: &[&'static str]| {
            on.then(|| {
                names.extend_from_slice(these);
                names.len() - these.len()
            })
        };
        let mut c = Columns {
            sql: String::new(),
            trial: cols(f.trial, &["a.trial"]),
            outcome: cols(f.outcome, &["a.outcome"]),
            input_tokens: cols(f.input_tokens, &["a.input_tokens"]),
            output_tokens: cols(f.output_tokens, &["a.output_tokens"]),
            cache_read: cols(f.input_tokens_cache_read, &["a.input_tokens_cache_read"]),
            cache_write: cols(f.input_tokens_cache_write, &["a.input_tokens_cache_write"]),
            wall_s: cols(f.wall_s, &["a.wall_s"]),
            cost_usd: cols(f.cost_usd, &["a.cost_usd"]),
            steps: cols(f.steps, &["a.steps"]),
            errors: cols(f.errors, &["a.errors"]),
            working_s: cols(f.working_s, &["a.working_s"]),
            end: cols(f.end, &["a.infra_error", "a.end_reason"]),
            id: cols(f.checklist || f.trace, &["a.id"]),
            checklist: cols(f.checklist, &["a.checklist"]),
            seat: cols(rows != Rows::OneSeat, &["a.seat_id"]),
            trace: cols(f.trace, &["t.tool"]),
            names: Vec::new(),
        };
        if f.trace {
            names.extend(["t.ok", "t.error"]);
        }
        let (filter, order) = match rows {
            Rows::OneSeat => ("WHERE a.seat_id = ?1", "a.problem, a.trial"),
            Rows::IdRange => ("WHERE a.id BETWEEN ?1 AND ?2", "a.id"),
            Rows::AllBySeat => ("", "a.seat_id, a.problem, a.trial"),
        };
        c.sql = if f.trace {
            format!(
                "SELECT {} FROM attempt a LEFT JOIN trace_step t ON t.attempt_id = a.id
                 {filter} ORDER BY {order}, t.idx",
                names.join(", ")
            )
        } else {
            format!(
                "SELECT {} FROM attempt a {filter} ORDER BY {order}",
                names.join(", ")
            )
        };
        c.names = names;
        c
    }

    /// Reads an attempt's problem, verdict and the fields asked for into `a`, reusing its
    /// buffers. The fields not asked for are left as they are: `a` is a buffer only this
    /// query's rows are read into, from [`Attempt::empty`], so they stay `None` (the trial 0,
    /// no infra error) without being written again on every row.
    #[inline]
    fn read(&self, r: &impl Cells, a: &mut Attempt, problem: Problem<'_>) -> rusqlite::Result<()> {
        // The problem's text copied into the buffer (unless it is there already); anything
        // else through `get`, for its errors.
        let text = match problem {
            Problem::Held => None,
            Problem::Text(bytes) => Some(utf8(bytes)),
            Problem::Read => Some(r.text(0).and_then(utf8)),
        };
        match text {
            None => {}
            Some(Some(problem)) => {
                a.problem.clear();
                a.problem.push_str(problem);
            }
            Some(None) => a.problem = slow(r, 0)?,
        }
        a.correct = match r.number(1) {
            Number::Integer(n @ (0 | 1)) => n == 1,
            // Any other integer is no verdict (written with the store's CHECKs off), not
            // "true" as SQLite's conversion would read it (issue 34).
            Number::Integer(n) => return Err(rusqlite::Error::IntegralValueOutOfRange(1, n)),
            _ => slow(r, 1)?,
        };
        if let Some(i) = self.trial {
            a.trial = small(r, i)?;
        }
        if let Some(i) = self.outcome {
            a.outcome = real(r, i)?;
        }
        if let Some(i) = self.input_tokens {
            a.input_tokens = count(r, i)?;
        }
        if let Some(i) = self.output_tokens {
            a.output_tokens = count(r, i)?;
        }
        if let Some(i) = self.cache_read {
            a.input_tokens_cache_read = count(r, i)?;
        }
        if let Some(i) = self.cache_write {
            a.input_tokens_cache_write = count(r, i)?;
        }
        if let Some(i) = self.wall_s {
            a.wall_s = real(r, i)?;
        }
        if let Some(i) = self.cost_usd {
            a.cost_usd = real(r, i)?;
        }
        if let Some(i) = self.steps {
            a.steps = small_opt(r, i)?;
        }
        if let Some(i) = self.errors {
            a.errors = small_opt(r, i)?;
        }
        if let Some(i) = self.working_s {
            a.working_s = real(r, i)?;
        }
        if let Some(i) = self.end {
            (a.infra_error, a.end_reason) = (r.get(i)?, r.get(i + 1)?);
        }
        Ok(())
    }
}

// `Row::get` for the two commonest column types, with the usual case (a value of the column's
// own type, or NULL) taken straight from the row; anything else goes through `get` (out of
// line: [`slow`]), for its conversions and its errors.

/// `Cells::get`, for a value the fast paths above do not take: kept out of line, so that
/// they are small enough to be inlined into the reading of a row.
#[cold]
#[inline(never)]
fn slow<T: FromSql>(r: &impl Cells, i: usize) -> rusqlite::Result<T> {
    r.get(i)
}

#[inline]
fn count(r: &impl Cells, i: usize) -> rusqlite::Result<Option<u64>> {
    match r.number(i) {
        Number::Null => Ok(None),
        Number::Integer(n) if n >= 0 => Ok(Some(n as u64)),
        _ => slow(r, i),
    }
}

#[inline]
fn real(r: &impl Cells, i: usize) -> rusqlite::Result<Option<f64>> {
    match r.number(i) {
        Number::Null => Ok(None),
        Number::Real(x) => Ok(Some(x)),
        _ => slow(r, i),
    }
}

/// `Row::get::<Option<u32>>`, the usual case (NULL or an integer in range) taken straight
/// from the row.
#[inline]
fn small_opt(r: &impl Cells, i: usize) -> rusqlite::Result<Option<u32>> {
    match r.number(i) {
        Number::Null => Ok(None),
        Number::Integer(n) if (0..=i64::from(u32::MAX)).contains(&n) => Ok(Some(n as u32)),
        _ => slow(r, i),
    }
}

/// `Row::get::<u32>`, the usual case (an integer in range) taken straight from the row.
#[inline]
fn small(r: &impl Cells, i: usize) -> rusqlite::Result<u32> {
    match r.number(i) {
        Number::Integer(n) if (0..=i64::from(u32::MAX)).contains(&n) => Ok(n as u32),
        _ => slow(r, i),
    }
}

/// `Row::get::<i64>`, the usual case (an integer) taken straight from the row.
#[inline]
pub(super) fn integer(r: &impl Cells, i: usize) -> rusqlite::Result<i64> {
    match r.number(i) {
        Number::Integer(n) => Ok(n),
        _ => slow(r, i),
    }
}

/// The seat whose slug, model, provider, harness, config and display name are the columns of
/// `r` from `first` on, in that order.
pub(super) fn seat_at(r: &Row<'_>, first: usize) -> Result<Seat> {
    Ok(Seat {
        id: r.get(first)?,
        model: r.get(first + 1)?,
        provider: r.get(first + 2)?,
        harness: r.get(first + 3)?,
        config: r.get(first + 4)?,
        display_name: r.get(first + 5)?,
    })
}

/// Gives the seats of the wave `slug` the display names `names` (seat id, name) where they have
/// none, inside an ingest's write transaction; returns how many were given. A seat whose name
/// differs from the one it has is refused (display names, like seats, are never changed), and
/// so is a seat the wave does not have (which its content hash already rules out).
pub(super) fn add_display_names(
    sql: &mut Sql<'_>,
    logging: bool,
    slug: &str,
    names: &[(String, String)],
    now: &str,
) -> Result<usize> {
    let mut added = 0;
    for (seat, name) in names {
        let found: Option<(i64, Option<String>)> = sql.row(
            "SELECT s.id, (SELECT name FROM seat_display_name d WHERE d.seat_id = s.id)
             FROM seat s JOIN wave w ON w.id = s.wave_id WHERE w.slug = ?1 AND s.slug = ?2",
            &values![slug, seat],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        match found {
            None => {
                return Err(Error::Conflict(format!(
                    "wave `{slug}` in the ledger has no seat `{seat}` to give the display name \
                     {name:?}"
                )));
            }
            Some((_, Some(there))) if there == *name => {}
            Some((_, Some(there))) => {
                return Err(Error::Conflict(format!(
                    "seat `{seat}` of wave `{slug}` is already shown as {there:?} in the ledger, \
                     and this ingest names it {name:?}: display names, like seats, are never \
                     changed. Keep {there:?} in the manifest (or leave display_name out)"
                )));
            }
            Some((id, None)) => {
                sql.execute(
                    "INSERT INTO seat_display_name(seat_id, name) VALUES (?1, ?2)",
                    &values![id, name],
                )?;
                log_display_name(sql, logging, slug, seat, name, now)?;
                added += 1;
            }
        }
    }
    Ok(added)
}

/// Appends the `display_name` entry of seat `seat` of wave `slug`, named `name` at `now`.
fn log_display_name(
    sql: &mut Sql<'_>,
    logging: bool,
    slug: &str,
    seat: &str,
    name: &str,
    now: &str,
) -> Result<()> {
    let entry = crate::model::NewLogEntry {
        kind: crate::model::LogKind::DisplayName,
        subject: format!("{slug}/{seat}"),
        version: 1,
        subject_sha256: crate::digest::sha256_hex(name.as_bytes()),
        created_at: now.to_string(),
    };
    super::log::append_at_head(sql, logging, &entry)
}

/// Appends a `display_name` entry for each seat of the wave `slug` that has a display name, in
/// seat order: the names a new wave's ingest wrote with it.
pub(super) fn log_display_names(
    sql: &mut Sql<'_>,
    logging: bool,
    slug: &str,
    now: &str,
) -> Result<()> {
    if !logging {
        return Ok(());
    }
    let named: Vec<(String, String)> = sql.rows(
        "SELECT s.slug, d.name FROM seat_display_name d JOIN seat s ON s.id = d.seat_id
         JOIN wave w ON w.id = s.wave_id WHERE w.slug = ?1 ORDER BY s.id",
        &values![slug],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    for (seat, name) in named {
        log_display_name(sql, logging, slug, &seat, &name, now)?;
    }
    Ok(())
}

/// Appends the `origins` entry of the new wave `slug`, when its attempts have origins.
pub(super) fn log_origins(sql: &mut Sql<'_>, logging: bool, slug: &str, now: &str) -> Result<()> {
    if !logging {
        return Ok(());
    }
    let origins = super::log::origins(sql, slug)?;
    if origins.is_empty() {
        return Ok(());
    }
    let entry = crate::model::NewLogEntry {
        kind: crate::model::LogKind::Origins,
        subject: slug.to_string(),
        version: 1,
        subject_sha256: record::origins_sha256(&origins),
        created_at: now.to_string(),
    };
    super::log::append_at_head(sql, logging, &entry)
}

/// Appends the `texts` entry of the new wave `slug`, when its attempts have texts.
pub(super) fn log_texts(sql: &mut Sql<'_>, logging: bool, slug: &str, now: &str) -> Result<()> {
    if !logging {
        return Ok(());
    }
    let texts = super::log::texts(sql, slug)?;
    if texts.is_empty() {
        return Ok(());
    }
    let entry = crate::model::NewLogEntry {
        kind: crate::model::LogKind::Texts,
        subject: slug.to_string(),
        version: 1,
        subject_sha256: record::texts_sha256(&texts),
        created_at: now.to_string(),
    };
    super::log::append_at_head(sql, logging, &entry)
}

/// Writes the wave row `wave_id` (and its suite's, when the suite is new) and its canary
/// problems, inside an ingest's write transaction.
pub(super) fn insert_wave_row(
    sql: &mut Sql<'_>,
    wave_id: i64,
    w: &Wave,
    hash: &ContentHash,
    now: &str,
) -> Result<()> {
    let suite: Option<i64> = sql.row(
        "SELECT id FROM suite WHERE name = ?1",
        &values![&w.suite],
        |r| r.get(0),
    )?;
    let suite_id = match suite {
        Some(id) => id,
        None => {
            let id = sql.next_id("suite")?;
            sql.execute(
                "INSERT INTO suite(id, name) VALUES (?1, ?2)",
                &values![id, &w.suite],
            )?;
            id
        }
    };
    let (problems, listed) = match &w.suite_problems {
        None => (None, false),
        Some(SuiteProblems::Count(n)) => (Some(*n), false),
        Some(SuiteProblems::Ids(ids)) => (Some(ids.len() as u64), true),
    };
    sql.execute(
        "INSERT INTO wave(id, slug, suite_id, started_at, notes, suite_problems,
            suite_problems_listed, parallel_sessions, tool_server_sessions, serial_rerun,
            input_tokens_include_cache_reads, price_source,
            budget_tokens, budget_wall_s, budget_cost_usd,
            harness_version, producer, producer_version, content_sha256, content_format,
            ingested_at, timeout_multiplier)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,
            ?19, ?20, ?21, ?22)",
        &values![
            wave_id,
            &w.id,
            suite_id,
            &w.started_at,
            w.notes.as_deref(),
            problems,
            listed,
            w.load.parallel_sessions,
            w.load.tool_server_sessions,
            w.load.serial_rerun,
            w.accounting.input_tokens_include_cache_reads,
            w.accounting.price_source.as_deref(),
            w.budget.tokens,
            w.budget.wall_s,
            w.budget.cost_usd,
            w.provenance.harness_version.as_deref(),
            w.provenance.producer.as_deref(),
            w.provenance.producer_version.as_deref(),
            &hash.sha256,
            hash.format,
            now,
            w.load.timeout_multiplier,
        ],
    )?;
    for problem in &w.canary_problems {
        sql.execute(
            "INSERT INTO wave_canary(wave_id, problem) VALUES (?1, ?2)",
            &values![wave_id, problem],
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attempt(problem: &str, trial: u32) -> Attempt {
        Attempt {
            problem: problem.into(),
            trial,
            correct: trial == 1,
            outcome: Some(0.5),
            input_tokens: Some(100),
            input_tokens_cache_read: Some(40),
            wall_s: Some(2.5),
            steps: Some(2),
            errors: Some(1),
            checklist: Some(vec![ChecklistItem {
                item: "cites the log line".into(),
                pass: trial == 1,
            }]),
            trace: Some(vec![
                TraceStep {
                    tool: "fetch".into(),
                    ok: false,
                    error: Some("timeout".into()),
                },
                TraceStep {
                    tool: "fetch".into(),
                    ok: true,
                    error: None,
                },
            ]),
            working_s: Some(1.25),
            infra_error: trial == 2,
            end_reason: (trial == 2).then(|| "sandbox died".into()),
            ..Attempt::empty()
        }
    }

    fn seat(id: &str, attempts: Vec<Attempt>) -> SeatData {
        SeatData {
            seat: Seat {
                id: id.into(),
                model: "m".into(),
                provider: "p".into(),
                harness: "h".into(),
                config: None,
                display_name: None,
            },
            attempts,
        }
    }

    /// Two seats (one with no attempts), traces and checklists, one attempt without either.
    fn wave() -> WaveData {
        let plain = Attempt {
            checklist: None,
            trace: None,
            ..attempt("b", 1)
        };
        WaveData {
            wave: Wave {
                id: "w".into(),
                suite: "s".into(),
                started_at: "2026-01-01T00:00:00Z".into(),
                notes: None,
                suite_problems: Some(SuiteProblems::Ids(vec!["a".into(), "b".into()])),
                load: Load::default(),
                accounting: Accounting::default(),
                budget: Budget::default(),
                provenance: Provenance::default(),
                supersedes: None,
                canary_problems: Vec::new(),
            },
            seats: vec![
                seat("one", vec![attempt("a", 1), attempt("a", 2), plain]),
                seat("two", vec![]),
            ],
        }
    }

    fn ledger_with(data: &WaveData) -> Ledger {
        let mut ledger = Ledger::in_memory().unwrap();
        ledger
            .add_waves(std::slice::from_ref(data), "2026-01-01T00:00:00Z")
            .unwrap();
        ledger
    }

    #[test]
    fn a_wave_loads_back_as_written() {
        let data = wave();
        assert_eq!(ledger_with(&data).load_wave("w").unwrap(), data);
    }

    #[test]
    fn a_fold_reads_the_fields_asked_for_and_leaves_the_others_unknown() {
        let data = wave();
        let ledger = ledger_with(&data);
        let fields = AttemptFields {
            wall_s: true,
            trace: true,
            ..AttemptFields::NONE
        };
        let seats = ledger
            .fold_wave("w", fields, |_| Vec::new(), |v, a| v.push(a.clone()))
            .unwrap();
        let ids: Vec<&str> = seats.iter().map(|(s, _)| s.id.as_str()).collect();
        assert_eq!(ids, ["one", "two"]);
        assert!(seats[1].1.is_empty());
        let expected: Vec<Attempt> = data.seats[0]
            .attempts
            .iter()
            .map(|a| Attempt {
                problem: a.problem.clone(),
                trial: 0,
                correct: a.correct,
                wall_s: a.wall_s,
                trace: a.trace.clone(),
                ..Attempt::empty()
            })
            .collect();
        assert_eq!(seats[0].1, expected);
    }

    #[test]
    fn a_malformed_checklist_is_an_error_naming_its_attempt() {
        let ledger = ledger_with(&wave());
        // As someone with the sqlite3 shell would, behind benchledger's back.
        ledger
            .conn()
            .execute_batch(
                "DROP TRIGGER attempt_no_update;
                 UPDATE attempt SET checklist = '[{' WHERE trial = 2;",
            )
            .unwrap();
        let err = ledger.load_wave("w").unwrap_err().to_string();
        assert!(err.contains("attempt 2 has a malformed checklist"), "{err}");
    }
}
