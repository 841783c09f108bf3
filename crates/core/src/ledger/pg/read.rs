//! Reading a ledger on PostgreSQL where it differs from SQLite: a wave's attempts come through
//! a server-side cursor (a portal, fetched [`super::FETCH_ROWS`] at a time), never all at
//! once, and the whole history through one cursor, fetched a batch ahead. Every other query is
//! the one body both stores run (`crate::ledger::sql`).

use postgres::Row;

use super::{Pg, unsigned, unsigned_opt};
use crate::error::Result;
use crate::ledger::sql::{Sql, dollars};
use crate::ledger::waves::{Columns, checklist, seats_of, with_traces};
use crate::model::{Attempt, AttemptFields, Seat, TraceStep};

impl Pg {
    /// A column of a row, its conversion error named.
    fn get<'a, T: postgres::types::FromSql<'a>>(&self, r: &'a Row, i: usize) -> Result<T> {
        r.try_get(i).map_err(|e| self.err(e))
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
        let seats = seats_of(&mut Sql::pg(&mut tx, &self.path), rowid)?;
        let fields = with_traces(&mut Sql::pg(&mut tx, &self.path), fields)?;
        let columns = Columns::of(fields);
        let stmt = tx.prepare(&dollars(&columns.sql)).map_err(err)?;
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
        // Seat row id -> (wave, index among its seats).
        let mut slot_of: std::collections::HashMap<i64, (usize, usize)> =
            std::collections::HashMap::new();
        let mut seats: Vec<Vec<(Seat, T)>> = Vec::with_capacity(waves.len());
        for (w, &rowid) in waves.iter().enumerate() {
            let mut these = Vec::new();
            for (id, seat) in seats_of(&mut Sql::pg(&mut tx, &self.path), rowid)? {
                slot_of.insert(id, (w, these.len()));
                let value = start(w, &seat);
                these.push((seat, value));
            }
            seats.push(these);
        }
        let fields = with_traces(&mut Sql::pg(&mut tx, &self.path), fields)?;
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
}
