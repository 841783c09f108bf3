//! Reading a ledger on PostgreSQL where it differs from SQLite: the whole history through one
//! server-side cursor, fetched a batch ahead by a second thread. Each row is read into an
//! attempt by the code that reads SQLite's (`crate::ledger::waves`, through [`Cells`]); every
//! other query is the one body both stores run (`crate::ledger::sql`), a wave's attempts
//! included (`Ledger::fold_wave`, streamed through a cursor in a snapshot: `conn.rs`).

use postgres::Row;

use super::Pg;
use super::conn::Cursor;
use crate::error::Result;
use crate::ledger::sql::{self, Sql};
use crate::ledger::waves::{Columns, read_attempt, read_step, seats_of, with_traces};
use crate::model::{Attempt, AttemptFields, Seat};

impl Pg {
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
        let mut tx = self.snapshot(&mut client)?;
        let err = |e| self.err(e);
        // Seat row id -> (wave, index among its seats).
        let mut slot_of: std::collections::HashMap<i64, (usize, usize)> =
            std::collections::HashMap::new();
        let mut seats: Vec<Vec<(Seat, T)>> = Vec::with_capacity(waves.len());
        for (w, &rowid) in waves.iter().enumerate() {
            let mut these = Vec::new();
            for (id, seat) in seats_of(&mut Sql::server(&mut Cursor(&mut tx), &self.path), rowid)? {
                slot_of.insert(id, (w, these.len()));
                let value = start(w, &seat);
                these.push((seat, value));
            }
            seats.push(these);
        }
        let fields = with_traces(&mut Sql::server(&mut Cursor(&mut tx), &self.path), fields)?;
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
                let r = sql::Row::server(&self.path, r);
                let id = self.id(columns, &r)?;
                if fields.trace && pending.is_some_and(|(_, p)| p == id) {
                    read_step(&self.path, columns, &r, &mut attempt)?;
                    continue;
                }
                if let Some(((w, k), _)) = pending.take() {
                    add(&mut seats[w][k].1, &attempt);
                }
                let seat: i64 = r.get(seat_col)?;
                let Some(&slot) = slot_of.get(&seat) else {
                    continue;
                };
                read_attempt(&self.path, columns, &r, id, &mut attempt)?;
                read_step(&self.path, columns, &r, &mut attempt)?;
                pending = Some((slot, id));
            }
        }
        if let Some(((w, k), _)) = pending {
            add(&mut seats[w][k].1, &attempt);
        }
        Ok(())
    }

    /// The attempt's id, when the query reads it.
    fn id(&self, columns: &Columns, r: &sql::Row<'_>) -> Result<Option<i64>> {
        columns.id.map(|i| r.get(i)).transpose()
    }
}
