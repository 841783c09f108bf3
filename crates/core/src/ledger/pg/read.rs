//! Reading a ledger on PostgreSQL: the same queries as on SQLite, in PostgreSQL's types. A
//! wave's attempts come through a server-side cursor (a portal, fetched [`super::FETCH_ROWS`]
//! at a time), never all at once.

use postgres::Row;

use super::{Pg, unsigned, unsigned_opt};
use crate::error::Result;
use crate::formats::wave::ContentHash;
use crate::ledger::scores::ScoreRow;
use crate::ledger::waves::{Columns, WAVE_COLUMN_COUNT, WAVE_COLUMNS, checklist};
use crate::model::{
    Accounting, Attempt, AttemptFields, Budget, Load, Provenance, Seat, SuiteProblems, TraceStep,
    Wave,
};
use crate::model::{PriceTableRow, PublicationRow, RubricRow, WaveRow, WithdrawalRow};

/// A wave's seats (`$1` its row id), in ledger order.
const SEATS: &str = "SELECT id, slug, model, provider, harness, config FROM seat
                     WHERE wave_id = $1 ORDER BY slug";

impl Pg {
    /// Runs a query and converts each row.
    fn rows<T>(
        &self,
        sql: &str,
        params: &[&(dyn postgres::types::ToSql + Sync)],
        f: impl Fn(&Pg, &Row) -> Result<T>,
    ) -> Result<Vec<T>> {
        let rows = self.client()?.query(sql, params).map_err(|e| self.err(e))?;
        rows.iter().map(|r| f(self, r)).collect()
    }

    /// Runs a query for at most one row and converts it.
    fn row<T>(
        &self,
        sql: &str,
        params: &[&(dyn postgres::types::ToSql + Sync)],
        f: impl Fn(&Pg, &Row) -> Result<T>,
    ) -> Result<Option<T>> {
        let row = self
            .client()?
            .query_opt(sql, params)
            .map_err(|e| self.err(e))?;
        row.map(|r| f(self, &r)).transpose()
    }

    /// A column of a row, its conversion error named.
    fn get<'a, T: postgres::types::FromSql<'a>>(&self, r: &'a Row, i: usize) -> Result<T> {
        r.try_get(i).map_err(|e| self.err(e))
    }

    pub(in crate::ledger) fn waves(&self) -> Result<Vec<WaveRow>> {
        let sql = format!(
            "SELECT {WAVE_COLUMNS},
                (SELECT count(*) FROM seat s WHERE s.wave_id = w.id),
                (SELECT count(*) FROM attempt a JOIN seat s ON a.seat_id = s.id
                  WHERE s.wave_id = w.id),
                w.content_sha256, w.ingested_at, w.content_format
             FROM wave w JOIN suite su ON su.id = w.suite_id
             ORDER BY w.started_at, w.slug"
        );
        let rows = self.rows(&sql, &[], |pg, r| {
            let n = WAVE_COLUMN_COUNT;
            Ok((
                pg.get::<i64>(r, 0)?,
                pg.wave_from_row(r)?,
                unsigned::<u64>(&pg.path, "a seat count", pg.get(r, n)?)?,
                unsigned::<u64>(&pg.path, "an attempt count", pg.get(r, n + 1)?)?,
                pg.get::<String>(r, n + 2)?,
                pg.get::<String>(r, n + 3)?,
                unsigned::<u32>(&pg.path, "wave.content_format", pg.get(r, n + 4)?)?,
            ))
        })?;
        let mut out = Vec::with_capacity(rows.len());
        for (rowid, mut wave, seats, attempts, sha256, ingested_at, format) in rows {
            self.fill_problem_ids(rowid, &mut wave)?;
            out.push(WaveRow {
                wave,
                seats,
                attempts,
                content: ContentHash { format, sha256 },
                ingested_at,
            });
        }
        Ok(out)
    }

    pub(in crate::ledger) fn wave_ids(&self) -> Result<Vec<String>> {
        self.rows(
            "SELECT slug FROM wave ORDER BY started_at, slug",
            &[],
            |pg, r| pg.get(r, 0),
        )
    }

    pub(in crate::ledger) fn wave_id_of(&self, slug: &str) -> Result<Option<i64>> {
        self.row("SELECT id FROM wave WHERE slug = $1", &[&slug], |pg, r| {
            pg.get(r, 0)
        })
    }

    pub(in crate::ledger) fn wave_conditions(&self, rowid: i64) -> Result<Wave> {
        let sql = format!(
            "SELECT {WAVE_COLUMNS} FROM wave w JOIN suite su ON su.id = w.suite_id
             WHERE w.id = $1"
        );
        let mut wave = self
            .row(&sql, &[&rowid], |pg, r| pg.wave_from_row(r))?
            .ok_or_else(|| self.vanished("wave", rowid))?;
        self.fill_problem_ids(rowid, &mut wave)?;
        Ok(wave)
    }

    pub(in crate::ledger) fn wave_content_hash(&self, rowid: i64) -> Result<ContentHash> {
        self.row(
            "SELECT content_format, content_sha256 FROM wave WHERE id = $1",
            &[&rowid],
            |pg, r| pg.content_hash(r),
        )?
        .ok_or_else(|| self.vanished("wave", rowid))
    }

    pub(in crate::ledger) fn content_hash_of(&self, slug: &str) -> Result<Option<ContentHash>> {
        self.row(
            "SELECT content_format, content_sha256 FROM wave WHERE slug = $1",
            &[&slug],
            |pg, r| pg.content_hash(r),
        )
    }

    fn content_hash(&self, r: &Row) -> Result<ContentHash> {
        Ok(ContentHash {
            format: unsigned(&self.path, "wave.content_format", self.get(r, 0)?)?,
            sha256: self.get(r, 1)?,
        })
    }

    pub(in crate::ledger) fn wave_ingested_at(&self, rowid: i64) -> Result<String> {
        self.row(
            "SELECT ingested_at FROM wave WHERE id = $1",
            &[&rowid],
            |pg, r| pg.get(r, 0),
        )?
        .ok_or_else(|| self.vanished("wave", rowid))
    }

    /// A row found a moment ago and gone now: only an edit behind benchledger's back does that.
    fn vanished(&self, what: &str, rowid: i64) -> crate::error::Error {
        crate::error::Error::Ledger {
            path: self.path.clone(),
            message: format!(
                "{what} row {rowid} disappeared while it was read: it was deleted behind \
                 benchledger's back"
            ),
        }
    }

    fn wave_from_row(&self, r: &Row) -> Result<Wave> {
        let p = &self.path;
        let count: Option<i64> = self.get(r, 5)?;
        let listed: bool = self.get(r, 6)?;
        let count: Option<u64> = unsigned_opt(p, "wave.suite_problems", count)?;
        Ok(Wave {
            id: self.get(r, 1)?,
            suite: self.get(r, 2)?,
            started_at: self.get(r, 3)?,
            notes: self.get(r, 4)?,
            suite_problems: count.map(|n| {
                if listed {
                    SuiteProblems::Ids(Vec::new())
                } else {
                    SuiteProblems::Count(n)
                }
            }),
            load: Load {
                parallel_sessions: unsigned_opt(p, "wave.parallel_sessions", self.get(r, 7)?)?,
                tool_server_sessions: unsigned_opt(
                    p,
                    "wave.tool_server_sessions",
                    self.get(r, 8)?,
                )?,
                serial_rerun: self.get(r, 9)?,
            },
            accounting: Accounting {
                input_tokens_include_cache_reads: self.get(r, 10)?,
                price_source: self.get(r, 11)?,
            },
            budget: Budget {
                tokens: self.get(r, 12)?,
                wall_s: self.get(r, 13)?,
                cost_usd: self.get(r, 14)?,
            },
            provenance: Provenance {
                harness_version: self.get(r, 15)?,
                producer: self.get(r, 16)?,
                producer_version: self.get(r, 17)?,
            },
            supersedes: None,
            // Filled in by `fill_problem_ids`.
            canary_problems: Vec::new(),
        })
    }

    /// A wave's declared problem ids, its canary problems, and the wave it supersedes (from the
    /// chain).
    fn fill_problem_ids(&self, rowid: i64, wave: &mut Wave) -> Result<()> {
        wave.canary_problems = self.rows(
            "SELECT problem FROM wave_canary WHERE wave_id = $1 ORDER BY problem",
            &[&rowid],
            |pg, r| pg.get(r, 0),
        )?;
        wave.supersedes = self.row(
            "SELECT w.slug FROM withdrawal d JOIN wave w ON w.id = d.wave_id
             WHERE d.superseded_by = $1 ORDER BY d.id LIMIT 1",
            &[&rowid],
            |pg, r| pg.get(r, 0),
        )?;
        if let Some(SuiteProblems::Ids(ids)) = &mut wave.suite_problems {
            *ids = self.rows(
                "SELECT problem FROM wave_problem WHERE wave_id = $1 ORDER BY problem",
                &[&rowid],
                |pg, r| pg.get(r, 0),
            )?;
        }
        Ok(())
    }

    /// [`crate::ledger::Ledger::fold_wave`] on PostgreSQL: in one read-only, repeatable-read
    /// transaction (the seats and their attempts from one snapshot), each seat's attempts
    /// through a server-side cursor.
    pub(in crate::ledger) fn fold_wave<T>(
        &self,
        rowid: i64,
        fields: AttemptFields,
        mut start: impl FnMut(&Seat) -> T,
        mut add: impl FnMut(&mut T, &Attempt),
    ) -> Result<Vec<(Seat, T)>> {
        let mut client = self.client()?;
        let mut tx = client
            .build_transaction()
            .isolation_level(postgres::IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
            .map_err(|e| self.err(e))?;
        let err = |e| self.err(e);
        let seats = self.seats_of(&mut tx, SEATS, rowid)?;
        let mut fields = fields;
        fields.trace = fields.trace && {
            tx.query_one("SELECT EXISTS (SELECT 1 FROM trace_step)", &[])
                .map_err(err)?
                .get::<_, bool>(0)
        };
        let columns = Columns::of(fields);
        let stmt = tx.prepare(&columns.sql.replace("?1", "$1")).map_err(err)?;
        let mut attempt = Attempt::empty();
        let mut out = Vec::with_capacity(seats.len());
        for (seat_id, seat) in seats {
            let mut value = start(&seat);
            let portal = tx.bind(&stmt, &[&seat_id]).map_err(err)?;
            let mut pending: Option<Option<i64>> = None;
            loop {
                let rows = tx.query_portal(&portal, super::FETCH_ROWS).map_err(err)?;
                if rows.is_empty() {
                    break;
                }
                for r in &rows {
                    let id: Option<i64> = match columns.id {
                        Some(i) => Some(self.get(r, i)?),
                        None => None,
                    };
                    if !(fields.trace && pending == Some(id)) {
                        if pending.is_some() {
                            add(&mut value, &attempt);
                        }
                        if let (Some(i), Some(id)) = (columns.checklist, id) {
                            attempt.checklist = checklist(&self.path, id, self.get(r, i)?)?;
                        }
                        self.read_attempt(&columns, r, &mut attempt)?;
                        attempt.trace = None;
                        pending = Some(id);
                    }
                    self.read_step(&columns, r, &mut attempt)?;
                }
                if rows.len() < super::FETCH_ROWS as usize {
                    break;
                }
            }
            if pending.is_some() {
                add(&mut value, &attempt);
            }
            out.push((seat, value));
        }
        tx.commit().map_err(err)?;
        Ok(out)
    }

    /// [`crate::ledger::Ledger::seat_tallies`] on PostgreSQL, in one query: each seat of the
    /// waves `waves` (row ids) as the index of its wave, itself, and its tally in `format`.
    pub(in crate::ledger) fn seat_tallies(
        &self,
        waves: &[i64],
        format: u32,
    ) -> Result<Vec<(usize, Seat, Option<String>)>> {
        let index: std::collections::HashMap<i64, usize> =
            waves.iter().enumerate().map(|(w, &id)| (id, w)).collect();
        let mut rows = self.rows(
            "SELECT s.wave_id, s.slug, s.model, s.provider, s.harness, s.config, t.tally
             FROM seat s LEFT JOIN seat_tally t ON t.seat_id = s.id AND t.format = $2
             WHERE s.wave_id = ANY($1) ORDER BY s.wave_id, s.slug",
            &[&waves, &i64::from(format)],
            |pg, r| {
                let wave: i64 = pg.get(r, 0)?;
                Ok((index[&wave], pg.seat_at(r, 1)?, pg.get(r, 6)?))
            },
        )?;
        // In the order of `waves`, each wave's seats in ledger order (a stable sort).
        rows.sort_by_key(|(w, _, _)| *w);
        Ok(rows)
    }

    /// How many seats the waves `waves` hold, and how many the ledger holds.
    pub(in crate::ledger) fn seat_counts(&self, waves: &[i64]) -> Result<(usize, usize)> {
        let row = self
            .client()?
            .query_one(
                "SELECT (SELECT count(*) FROM seat WHERE wave_id = ANY($1)),
                        (SELECT count(*) FROM seat)",
                &[&waves],
            )
            .map_err(|e| self.err(e))?;
        let count = |i: usize| -> Result<usize> {
            Ok(usize::try_from(self.get::<i64>(&row, i)?).unwrap_or(0))
        };
        Ok((count(0)?, count(1)?))
    }

    /// [`crate::ledger::Ledger::fold_waves`] on PostgreSQL, for waves holding most of the
    /// ledger's seats: in one read-only, repeatable-read transaction, every attempt through
    /// one server-side cursor, seat after seat and each seat's in ledger order (the
    /// `attempt_by_seat` index's order), instead of a query per seat. Rows of seats not asked
    /// for are skipped.
    pub(in crate::ledger) fn fold_waves<T>(
        &self,
        waves: &[i64],
        fields: AttemptFields,
        start: impl Fn(usize, &Seat) -> T,
        add: impl Fn(&mut T, &Attempt),
    ) -> Result<Vec<Vec<(Seat, T)>>> {
        let mut client = self.client()?;
        let mut tx = client
            .build_transaction()
            .isolation_level(postgres::IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
            .map_err(|e| self.err(e))?;
        let err = |e| self.err(e);
        let seat_query = tx.prepare(SEATS).map_err(err)?;
        // Seat row id -> (wave, index among its seats).
        let mut slot_of: std::collections::HashMap<i64, (usize, usize)> =
            std::collections::HashMap::new();
        let mut seats: Vec<Vec<(Seat, T)>> = Vec::with_capacity(waves.len());
        for (w, &rowid) in waves.iter().enumerate() {
            let mut these = Vec::new();
            for (id, seat) in self.seats_of(&mut tx, &seat_query, rowid)? {
                slot_of.insert(id, (w, these.len()));
                let value = start(w, &seat);
                these.push((seat, value));
            }
            seats.push(these);
        }
        let mut fields = fields;
        fields.trace = fields.trace && {
            tx.query_one("SELECT EXISTS (SELECT 1 FROM trace_step)", &[])
                .map_err(err)?
                .get::<_, bool>(0)
        };
        let columns = Columns::by_seat(fields);
        let stmt = tx.prepare(&columns.sql).map_err(err)?;
        let portal = tx.bind(&stmt, &[]).map_err(err)?;
        // The server makes the next batch of rows while this thread reads the last one: a
        // thread fetches them from the cursor, one batch ahead at most (memory stays bounded).
        let (sent, received) = std::sync::mpsc::sync_channel::<Vec<Row>>(1);
        let (fetching, portal_ref) = (&mut tx, &portal);
        let (read, fetched) = std::thread::scope(|scope| {
            let fetcher = scope.spawn(move || -> std::result::Result<(), postgres::Error> {
                loop {
                    let rows = fetching.query_portal(portal_ref, super::FETCH_ROWS_ALL)?;
                    let last = rows.len() < super::FETCH_ROWS_ALL as usize;
                    // A reader that stopped (on an error of its own) takes no more.
                    if sent.send(rows).is_err() || last {
                        return Ok(());
                    }
                }
            });
            let read = self.fold_rows(&received, &columns, fields, &slot_of, &mut seats, &add);
            drop(received);
            let fetched = fetcher
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (read, fetched)
        });
        read?;
        fetched.map_err(err)?;
        tx.commit().map_err(err)?;
        Ok(seats)
    }

    /// Feeds the batches of rows of [`Columns::by_seat`] to the values of the seats they
    /// belong to (`slot_of`: a seat's wave and place; the rows of other seats skipped).
    fn fold_rows<T>(
        &self,
        batches: &std::sync::mpsc::Receiver<Vec<Row>>,
        columns: &Columns,
        fields: AttemptFields,
        slot_of: &std::collections::HashMap<i64, (usize, usize)>,
        seats: &mut [Vec<(Seat, T)>],
        add: &impl Fn(&mut T, &Attempt),
    ) -> Result<()> {
        let Some(seat_col) = columns.seat else {
            unreachable!("a query over seats reads the seat");
        };
        let mut attempt = Attempt::empty();
        // The attempt read but not yet handed on (rows of its trace steps may follow): its
        // seat's place and its id.
        let mut pending: Option<((usize, usize), Option<i64>)> = None;
        for rows in batches {
            for r in &rows {
                let id: Option<i64> = match columns.id {
                    Some(i) => Some(self.get(r, i)?),
                    None => None,
                };
                if fields.trace && pending.is_some_and(|(_, p)| p == id) {
                    self.read_step(columns, r, &mut attempt)?;
                    continue;
                }
                if let Some(((w, k), _)) = pending.take() {
                    add(&mut seats[w][k].1, &attempt);
                }
                let Some(&slot) = slot_of.get(&self.get::<i64>(r, seat_col)?) else {
                    continue;
                };
                if let (Some(i), Some(id)) = (columns.checklist, id) {
                    attempt.checklist = checklist(&self.path, id, self.get(r, i)?)?;
                }
                self.read_attempt(columns, r, &mut attempt)?;
                attempt.trace = None;
                self.read_step(columns, r, &mut attempt)?;
                pending = Some((slot, id));
            }
        }
        if let Some(((w, k), _)) = pending {
            add(&mut seats[w][k].1, &attempt);
        }
        Ok(())
    }

    /// A wave's seats in ledger order (by slug), each with its row id, through `query`:
    /// [`SEATS`] or that statement prepared.
    fn seats_of(
        &self,
        tx: &mut postgres::Transaction<'_>,
        query: &(impl postgres::ToStatement + ?Sized),
        wave: i64,
    ) -> Result<Vec<(i64, Seat)>> {
        tx.query(query, &[&wave])
            .map_err(|e| self.err(e))?
            .iter()
            .map(|r| Ok((self.get(r, 0)?, self.seat_at(r, 1)?)))
            .collect()
    }

    /// The seat whose slug, model, provider, harness and config are the columns of `r` from
    /// `first` on, in that order.
    fn seat_at(&self, r: &Row, first: usize) -> Result<Seat> {
        Ok(Seat {
            id: self.get(r, first)?,
            model: self.get(r, first + 1)?,
            provider: self.get(r, first + 2)?,
            harness: self.get(r, first + 3)?,
            config: self.get(r, first + 4)?,
        })
    }

    /// Adds the trace step of row `r`, if it holds one, to `attempt`'s trace.
    fn read_step(&self, c: &Columns, r: &Row, attempt: &mut Attempt) -> Result<()> {
        if let Some(i) = c.trace
            && let Some(tool) = self.get::<Option<String>>(r, i)?
        {
            let step = TraceStep {
                tool,
                ok: self.get(r, i + 1)?,
                error: self.get(r, i + 2)?,
            };
            attempt.trace.get_or_insert_with(Vec::new).push(step);
        }
        Ok(())
    }

    /// Reads an attempt's problem, verdict and the fields asked for into `a`, as
    /// `Columns::read` does from an SQLite row.
    fn read_attempt(&self, c: &Columns, r: &Row, a: &mut Attempt) -> Result<()> {
        let p = &self.path;
        let problem: &str = self.get(r, 0)?;
        a.problem.clear();
        a.problem.push_str(problem);
        a.correct = self.get(r, 1)?;
        a.trial = match c.trial {
            Some(i) => unsigned(p, "attempt.trial", self.get(r, i)?)?,
            None => 0,
        };
        let real =
            |i: Option<usize>| -> Result<Option<f64>> { i.map_or(Ok(None), |i| self.get(r, i)) };
        let count = |i: Option<usize>, what: &str| -> Result<Option<u64>> {
            i.map_or(Ok(None), |i| unsigned_opt(p, what, self.get(r, i)?))
        };
        let small = |i: Option<usize>, what: &str| -> Result<Option<u32>> {
            i.map_or(Ok(None), |i| unsigned_opt(p, what, self.get(r, i)?))
        };
        a.outcome = real(c.outcome)?;
        a.input_tokens = count(c.input_tokens, "attempt.input_tokens")?;
        a.output_tokens = count(c.output_tokens, "attempt.output_tokens")?;
        a.input_tokens_cache_read = count(c.cache_read, "attempt.input_tokens_cache_read")?;
        a.input_tokens_cache_write = count(c.cache_write, "attempt.input_tokens_cache_write")?;
        a.wall_s = real(c.wall_s)?;
        a.cost_usd = real(c.cost_usd)?;
        a.steps = small(c.steps, "attempt.steps")?;
        a.errors = small(c.errors, "attempt.errors")?;
        a.working_s = real(c.working_s)?;
        (a.infra_error, a.end_reason) = match c.end {
            Some(i) => (self.get(r, i)?, self.get(r, i + 1)?),
            None => (false, None),
        };
        Ok(())
    }

    pub(in crate::ledger) fn withdrawals(&self) -> Result<Vec<WithdrawalRow>> {
        let sql = format!("{} ORDER BY d.id", crate::ledger::chain::SELECT);
        self.rows(&sql, &[], |pg, r| pg.withdrawal_row(r))
    }

    fn withdrawal_row(&self, r: &Row) -> Result<WithdrawalRow> {
        Ok(WithdrawalRow {
            id: self.get(r, 0)?,
            wave: self.get(r, 1)?,
            wave_content_sha256: self.get(r, 2)?,
            superseded_by: self.get(r, 3)?,
            reason: self.get(r, 4)?,
            created_at: self.get(r, 5)?,
            after_publication: self.get(r, 6)?,
            prev_sha256: self.get(r, 7)?,
            record_format: unsigned(&self.path, "withdrawal.record_format", self.get(r, 8)?)?,
            sha256: self.get(r, 9)?,
        })
    }

    pub(in crate::ledger) fn publications(&self) -> Result<Vec<PublicationRow>> {
        let sql = format!("{} ORDER BY p.id", crate::ledger::publications::SELECT);
        self.rows(&sql, &[], |pg, r| pg.publication_row(r))
    }

    pub(in crate::ledger) fn publication(&self, id: i64) -> Result<Option<PublicationRow>> {
        let sql = format!("{} WHERE p.id = $1", crate::ledger::publications::SELECT);
        self.row(&sql, &[&id], |pg, r| pg.publication_row(r))
    }

    fn publication_row(&self, r: &Row) -> Result<PublicationRow> {
        Ok(PublicationRow {
            id: self.get(r, 0)?,
            wave: self.get(r, 1)?,
            rubric: self.get(r, 2)?,
            rubric_sha256: self.get(r, 3)?,
            title: self.get(r, 4)?,
            created_at: self.get(r, 5)?,
            input: self.get(r, 6)?,
            input_sha256: self.get(r, 7)?,
            output: self.get(r, 8)?,
            output_sha256: self.get(r, 9)?,
            prev_sha256: self.get(r, 10)?,
            sha256: self.get(r, 11)?,
            input_format: unsigned(&self.path, "publication.input_format", self.get(r, 12)?)?,
            record_format: unsigned(&self.path, "publication.record_format", self.get(r, 13)?)?,
        })
    }

    pub(in crate::ledger) fn publication_rubric(&self, id: i64) -> Result<RubricRow> {
        self.row(
            "SELECT r.name, r.version, r.sha256, r.text, r.scale_violation, r.added_at
             FROM publication p JOIN rubric r ON r.id = p.rubric_id WHERE p.id = $1",
            &[&id],
            |pg, r| pg.rubric_row(r),
        )?
        .ok_or_else(|| self.vanished("publication (or its rubric)", id))
    }

    fn rubric_row(&self, r: &Row) -> Result<RubricRow> {
        Ok(RubricRow {
            name: self.get(r, 0)?,
            version: unsigned(&self.path, "rubric.version", self.get(r, 1)?)?,
            sha256: self.get(r, 2)?,
            text: self.get(r, 3)?,
            scale_violation: self.get(r, 4)?,
            added_at: self.get(r, 5)?,
        })
    }

    pub(in crate::ledger) fn rubric(&self, name: &str, version: u32) -> Result<Option<RubricRow>> {
        self.row(
            "SELECT name, version, sha256, text, scale_violation, added_at FROM rubric
             WHERE name = $1 AND version = $2",
            &[&name, &i64::from(version)],
            |pg, r| pg.rubric_row(r),
        )
    }

    pub(in crate::ledger) fn rubric_by_sha256(&self, sha256: &str) -> Result<Option<RubricRow>> {
        self.row(
            "SELECT name, version, sha256, text, scale_violation, added_at FROM rubric
             WHERE sha256 = $1",
            &[&sha256],
            |pg, r| pg.rubric_row(r),
        )
    }

    pub(in crate::ledger) fn rubrics(&self) -> Result<Vec<RubricRow>> {
        self.rows(
            "SELECT name, version, sha256, text, scale_violation, added_at FROM rubric
             ORDER BY name, version",
            &[],
            |pg, r| pg.rubric_row(r),
        )
    }

    pub(in crate::ledger) fn rubric_id_of(&self, sha256: &str) -> Result<Option<i64>> {
        self.row(
            "SELECT id FROM rubric WHERE sha256 = $1",
            &[&sha256],
            |pg, r| pg.get(r, 0),
        )
    }

    pub(in crate::ledger) fn score_rows(
        &self,
        rubric_id: i64,
        wave: &str,
    ) -> Result<Vec<ScoreRow>> {
        self.rows(
            "SELECT w.slug, s.slug, sc.score, sc.rank, sc.factors, sc.gate, sc.tie, sc.note
             FROM score sc JOIN seat s ON s.id = sc.seat_id JOIN wave w ON w.id = s.wave_id
             WHERE sc.rubric_id = $1 AND w.slug = $2
             ORDER BY sc.rank IS NULL, sc.rank, s.slug",
            &[&rubric_id, &wave],
            |pg, r| {
                Ok((
                    pg.get(r, 0)?,
                    pg.get(r, 1)?,
                    pg.get(r, 2)?,
                    unsigned_opt(&pg.path, "score.rank", pg.get(r, 3)?)?,
                    pg.get(r, 4)?,
                    pg.get(r, 5)?,
                    pg.get(r, 6)?,
                    pg.get(r, 7)?,
                ))
            },
        )
    }

    fn price_row(&self, r: &Row) -> Result<PriceTableRow> {
        Ok(PriceTableRow {
            name: self.get(r, 0)?,
            version: unsigned(&self.path, "price_table.version", self.get(r, 1)?)?,
            sha256: self.get(r, 2)?,
            text: self.get(r, 3)?,
            added_at: self.get(r, 4)?,
        })
    }

    pub(in crate::ledger) fn price_table(
        &self,
        name: &str,
        version: u32,
    ) -> Result<Option<PriceTableRow>> {
        self.row(
            "SELECT name, version, sha256, text, added_at FROM price_table
             WHERE name = $1 AND version = $2",
            &[&name, &i64::from(version)],
            |pg, r| pg.price_row(r),
        )
    }

    pub(in crate::ledger) fn price_tables(&self) -> Result<Vec<PriceTableRow>> {
        self.rows(
            "SELECT name, version, sha256, text, added_at FROM price_table
             ORDER BY name, version",
            &[],
            |pg, r| pg.price_row(r),
        )
    }
}
