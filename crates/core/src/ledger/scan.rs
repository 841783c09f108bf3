//! Reading the attempts of many waves in one pass over the attempt table.
//!
//! Rescoring the history reads every attempt of every wave. Seat by seat ([`Ledger::fold_wave`])
//! each attempt is found through the index of the attempt table's UNIQUE (seat_id, problem,
//! trial) and then fetched from the table: two B-tree walks a row. But ingest writes a seat's attempts together and in ledger order
//! (problem, then trial), so the table read in id order already holds every seat's attempts the
//! way a tally takes them: one scan, no index, and it splits into ranges of ids that separate
//! connections read at once, on separate cores (a WAL ledger has any number of readers).
//!
//! [`Ledger::fold_waves`] does this, and checks the premise as it goes rather than trusting
//! it: a seat whose rows are not in ledger order by id, or turn up in two ranges (a ledger
//! written some other way, or copied from a server), is read again on its own, through the
//! index. So every seat's value is the one [`Ledger::fold_wave`] gives, to the bit, whatever
//! the ledger's physical order. Where the waves asked for hold few of the ledger's seats, they
//! are read one by one instead. PostgreSQL keeps no physical order to rely on: there the whole
//! history comes in one query, seat after seat in ledger order, streamed in one snapshot
//! ([`fold_by_seat`]; the server's cursor fetches a batch ahead while one is read).
//!
//! The ranges are read on separate connections, each in its own snapshot. That is safe because
//! what they read cannot change: the waves and their seats were listed first, a wave's rows are
//! written whole in one transaction before it can be listed, and attempts are never updated or
//! deleted (triggers refuse it). A wave ingested meanwhile adds rows of seats not asked for,
//! which every range skips.

use std::num::NonZeroUsize;
use std::path::Path;

use rusqlite::{Connection, OpenFlags};

use super::raw::{Cells, RawRow, RawStatement};
use super::sql::{Sql, Value};
use super::waves::{Columns, Problem, integer, read_attempt, read_step, seats_of, with_traces};
use super::{Ledger, Store, sqlite};
use crate::error::Result;
use crate::model::{Attempt, AttemptFields, Seat};

/// Below this many attempts a range is not worth a connection and a thread of its own.
const RANGE_MIN_ATTEMPTS: i64 = 100_000;

/// At most this many ranges are read at once.
const RANGES_MAX: usize = 8;

/// How a ledger's attempts are cut for reading at once: into at most `most` ranges of ids, of
/// at least `attempts` ids each (but the last).
#[derive(Debug, Clone, Copy)]
struct Ranges {
    most: usize,
    attempts: i64,
}

/// A visited seat: the index of its wave, its row id, and itself.
struct Slot<'a> {
    wave: usize,
    seat_id: i64,
    seat: &'a Seat,
}

/// What one range's reader made of a seat it met. Each range keeps a slot for every visited
/// seat but meets few of them: boxed, an empty slot costs a pointer.
struct Found<T> {
    value: T,
    /// The last attempt's problem and trial, which the next must follow, once a row of
    /// another seat has been read after it (until then they are the reader's: see
    /// `scan_range`).
    problem: String,
    trial: u32,
    /// Every row so far followed the one before in ledger order.
    in_order: bool,
}

/// What one range's reader made of each slot (`None`: a seat it did not meet).
type Met<T> = Vec<Option<Box<Found<T>>>>;

impl Ledger {
    /// Folds the attempts of every wave in `slugs` into one value per seat, as
    /// [`Ledger::fold_wave`] does wave by wave and with the same values, in one pass over the
    /// attempts (see the module docs of `ledger::scan`). `start` makes a seat's value, given the index in
    /// `slugs` of its wave; `add` takes each of the seat's attempts in ledger order. Both may
    /// be called from several threads at once. Returns each wave's seats with their values, in
    /// the order of `slugs`. Asked to stop ([`Ledger::set_cancel`]), it does not start, or
    /// (reading wave by wave) stops before the next seat, with [`crate::Error::Interrupted`].
    pub(crate) fn fold_waves<T: Send>(
        &self,
        slugs: &[String],
        fields: AttemptFields,
        start: impl Fn(usize, &Seat) -> T + Sync,
        add: impl Fn(&mut T, &Attempt) + Sync,
    ) -> Result<Vec<Vec<(Seat, T)>>> {
        self.cancel.check()?;
        let threads = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
        let ranges = Ranges {
            most: threads.min(RANGES_MAX),
            attempts: RANGE_MIN_ATTEMPTS,
        };
        self.fold_waves_in(slugs, fields, ranges, start, add)
    }

    /// [`Ledger::fold_waves`], its ledger's attempts read in `ranges`.
    fn fold_waves_in<T: Send>(
        &self,
        slugs: &[String],
        fields: AttemptFields,
        ranges: Ranges,
        start: impl Fn(usize, &Seat) -> T + Sync,
        add: impl Fn(&mut T, &Attempt) + Sync,
    ) -> Result<Vec<Vec<(Seat, T)>>> {
        // Reading the whole history reads every seat's rows: worth it when most are wanted.
        let rowids: Vec<i64> = slugs
            .iter()
            .map(|s| self.wave_rowid(s))
            .collect::<Result<_>>()?;
        let (visited, all) = self.read(|sql| seat_counts(sql, &rowids))?;
        if visited * 2 < all {
            return self.fold_each_wave(slugs, fields, start, add);
        }
        #[cfg_attr(
            not(feature = "postgres"),
            allow(clippy::infallible_destructuring_match)
        )]
        let conn = match &self.store {
            Store::Sqlite(conn) => conn,
            #[cfg(feature = "postgres")]
            Store::Postgres(_) => {
                return self.snapshot(|sql| fold_by_seat(sql, &rowids, fields, start, add));
            }
        };
        let mut seats: Vec<Vec<(i64, Seat)>> = Vec::with_capacity(slugs.len());
        for &rowid in &rowids {
            seats.push(seats_of(&mut Sql::lite(conn, &self.path), rowid)?);
        }
        let fields = with_traces(&mut Sql::lite(conn, &self.path), fields)?;
        // Every visited seat has a slot: its wave, its row id, and itself.
        let slots: Vec<Slot<'_>> = seats
            .iter()
            .enumerate()
            .flat_map(|(w, s)| {
                s.iter().map(move |(id, seat)| Slot {
                    wave: w,
                    seat_id: *id,
                    seat,
                })
            })
            .collect();
        let slot_of = Visit::slot_of(&slots);
        let visit = Visit {
            slot_of: &slot_of,
            slots: &slots,
        };
        let found = self.scan_ranges(conn, fields, ranges, &visit, &start, &add)?;
        let mut out: Vec<Vec<(Seat, T)>> =
            seats.iter().map(|s| Vec::with_capacity(s.len())).collect();
        self.gather(fields, &slots, found, &start, &add, &mut out)?;
        Ok(out)
    }

    /// [`Ledger::fold_waves`] wave by wave ([`Ledger::fold_wave`]): for waves that hold few
    /// of the ledger's seats.
    fn fold_each_wave<T>(
        &self,
        slugs: &[String],
        fields: AttemptFields,
        start: impl Fn(usize, &Seat) -> T,
        add: impl Fn(&mut T, &Attempt),
    ) -> Result<Vec<Vec<(Seat, T)>>> {
        slugs
            .iter()
            .enumerate()
            .map(|(w, slug)| self.fold_wave(slug, fields, |s| start(w, s), &add))
            .collect()
    }

    /// The ledger's attempts read in `ranges` (of ids, each on its own connection and thread
    /// but the first, on `conn`), each visited seat's attempts fed to its value: for each
    /// range, what it made of each slot.
    fn scan_ranges<T: Send>(
        &self,
        conn: &Connection,
        fields: AttemptFields,
        ranges: Ranges,
        visit: &Visit<'_>,
        start: &(impl Fn(usize, &Seat) -> T + Sync),
        add: &(impl Fn(&mut T, &Attempt) + Sync),
    ) -> Result<Vec<Met<T>>> {
        let ranges = Ranges {
            most: if self.is_in_memory() { 1 } else { ranges.most },
            ..ranges
        };
        let id_ranges = self.id_ranges(conn, ranges)?;
        let path = self.path.as_path();
        match id_ranges.split_first() {
            None => Ok(Vec::new()),
            Some((first, [])) => Ok(vec![scan_range(
                path, conn, fields, *first, visit, start, add,
            )?]),
            Some((first, rest)) => std::thread::scope(|scope| {
                let others: Vec<_> = rest
                    .iter()
                    .map(|&range| {
                        scope.spawn(move || {
                            let conn = reader(path)?;
                            scan_range(path, &conn, fields, range, visit, start, add)
                        })
                    })
                    .collect();
                let mine = scan_range(path, conn, fields, *first, visit, start, add);
                let mut all = vec![mine?];
                for h in others {
                    match h.join() {
                        Ok(r) => all.push(r?),
                        Err(panic) => std::panic::resume_unwind(panic),
                    }
                }
                Ok(all)
            }),
        }
    }

    /// Each slot's value into `out` (by wave, in slot order): from the one range that read
    /// the seat in order; a seat no range met has no attempts; any other is read again on its
    /// own, through the index.
    fn gather<T>(
        &self,
        fields: AttemptFields,
        slots: &[Slot<'_>],
        mut found: Vec<Met<T>>,
        start: &impl Fn(usize, &Seat) -> T,
        add: &impl Fn(&mut T, &Attempt),
        out: &mut [Vec<(Seat, T)>],
    ) -> Result<()> {
        let conn = self.lite()?;
        let columns = Columns::of(fields);
        let mut stmt = None;
        let mut attempt = Attempt::empty();
        for (k, slot) in slots.iter().enumerate() {
            let mut met = found.iter_mut().filter_map(|f| f[k].take());
            let (first, second) = (met.next(), met.next());
            let value = match (first, second) {
                (None, _) => start(slot.wave, slot.seat),
                (Some(f), None) if f.in_order => f.value,
                _ => {
                    let stmt = match &mut stmt {
                        Some(stmt) => stmt,
                        None => {
                            stmt.insert(conn.prepare_cached(&columns.sql).map_err(|e| self.err(e))?)
                        }
                    };
                    let mut value = start(slot.wave, slot.seat);
                    self.fold_seat(
                        stmt,
                        &columns,
                        fields,
                        slot.seat_id,
                        &mut attempt,
                        &mut value,
                        &mut |t, a| add(t, a),
                    )?;
                    value
                }
            };
            out[slot.wave].push((slot.seat.clone(), value));
        }
        Ok(())
    }

    /// The ledger's attempt ids cut into ranges as `ranges` says, each ending where a seat's
    /// last attempt does.
    fn id_ranges(&self, conn: &Connection, ranges: Ranges) -> Result<Vec<(i64, i64)>> {
        let err = |e| self.err(e);
        let (lo, hi): (Option<i64>, Option<i64>) = conn
            .query_row(
                "SELECT (SELECT min(id) FROM attempt), (SELECT max(id) FROM attempt)",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .map_err(err)?;
        let (Some(lo), Some(hi)) = (lo, hi) else {
            return Ok(Vec::new());
        };
        let n = (ranges.most as i64).clamp(1, 1 + (hi - lo) / ranges.attempts.max(1));
        let mut out = Vec::new();
        let mut from = lo;
        for k in 1..n {
            let cut = lo + (hi - lo + 1) * k / n;
            if cut <= from {
                continue;
            }
            // The end of the seat whose attempt is at (or first after) the cut.
            let end: Option<i64> = conn
                .query_row(
                    "SELECT max(id) FROM attempt WHERE seat_id =
                        (SELECT seat_id FROM attempt WHERE id >= ?1 ORDER BY id LIMIT 1)",
                    [cut],
                    |r| r.get(0),
                )
                .map_err(err)?;
            let end = end.unwrap_or(hi).max(cut);
            if end >= hi {
                break;
            }
            out.push((from, end));
            from = end + 1;
        }
        out.push((from, hi));
        Ok(out)
    }

    fn is_in_memory(&self) -> bool {
        self.path == Path::new(":memory:")
    }
}

/// [`Ledger::fold_waves`] through one query of every attempt, seat after seat (by seat id),
/// each seat's in ledger order ([`Columns::by_seat`]), streamed: how a store whose rows keep
/// no physical order (the server) reads the whole history, instead of a query per seat. Rows
/// of seats not asked for are skipped.
#[cfg(feature = "postgres")]
fn fold_by_seat<T>(
    sql: &mut Sql<'_>,
    rowids: &[i64],
    fields: AttemptFields,
    start: impl Fn(usize, &Seat) -> T,
    add: impl Fn(&mut T, &Attempt),
) -> Result<Vec<Vec<(Seat, T)>>> {
    // Seat row id -> (wave, index among its seats).
    let mut slot_of = std::collections::HashMap::new();
    let mut seats: Vec<Vec<(Seat, T)>> = Vec::with_capacity(rowids.len());
    for (w, &rowid) in rowids.iter().enumerate() {
        let mut these = Vec::new();
        for (id, seat) in seats_of(sql, rowid)? {
            slot_of.insert(id, (w, these.len()));
            let value = start(w, &seat);
            these.push((seat, value));
        }
        seats.push(these);
    }
    let fields = with_traces(sql, fields)?;
    let columns = Columns::by_seat(fields);
    let Some(seat_col) = columns.seat else {
        unreachable!("a query over seats reads the seat");
    };
    let path = sql.path();
    let mut attempt = Attempt::empty();
    // The attempt read but not yet handed on (rows of its trace steps may follow): its seat's
    // place and its id.
    let mut pending: Option<((usize, usize), Option<i64>)> = None;
    sql.stream(&columns.sql, &[], |r| {
        let id: Option<i64> = columns.id.map(|i| r.get(i)).transpose()?;
        if fields.trace && pending.is_some_and(|(_, p)| p == id) {
            return read_step(path, &columns, r, &mut attempt);
        }
        if let Some(((w, k), _)) = pending.take() {
            add(&mut seats[w][k].1, &attempt);
        }
        let seat: i64 = r.get(seat_col)?;
        let Some(&slot) = slot_of.get(&seat) else {
            return Ok(());
        };
        read_attempt(path, &columns, r, id, &mut attempt, Problem::Read)?;
        read_step(path, &columns, r, &mut attempt)?;
        pending = Some((slot, id));
        Ok(())
    })?;
    if let Some(((w, k), _)) = pending {
        add(&mut seats[w][k].1, &attempt);
    }
    Ok(seats)
}

/// How many seats the waves `rowids` hold (each wave once), and how many the ledger holds.
fn seat_counts(sql: &mut Sql<'_>, rowids: &[i64]) -> Result<(i64, i64)> {
    let mut distinct = rowids.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    let mut visited = 0;
    for some in distinct.chunks(500) {
        let slots: Vec<String> = (1..=some.len()).map(|i| format!("?{i}")).collect();
        let params: Vec<Value<'_>> = some.iter().map(|&id| Value::from(id)).collect();
        visited += sql.value::<i64>(
            &format!(
                "SELECT count(*) FROM seat WHERE wave_id IN ({})",
                slots.join(", ")
            ),
            &params,
        )?;
    }
    Ok((visited, sql.value("SELECT count(*) FROM seat", &[])?))
}

/// Another connection to the ledger file at `path`, for reading only.
fn reader(path: &Path) -> Result<Connection> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| sqlite(path, e))?;
    conn.busy_timeout(std::time::Duration::from_secs(10))
        .map_err(|e| sqlite(path, e))?;
    Ok(conn)
}

/// The visited seats, found by row id.
struct Visit<'a> {
    /// Seat row id -> 1 + its index in `slots` (0: not visited).
    slot_of: &'a [u32],
    slots: &'a [Slot<'a>],
}

impl Visit<'_> {
    /// Seat row id -> 1 + the seat's index in `slots` (0: not visited). Seat ids run from 1
    /// up, one per seat ever ingested.
    fn slot_of(slots: &[Slot<'_>]) -> Vec<u32> {
        let top = slots.iter().map(|s| s.seat_id).max().unwrap_or(0);
        let mut slot_of = vec![0u32; usize::try_from(top).unwrap_or(0) + 1];
        for (k, s) in slots.iter().enumerate() {
            if let Ok(i) = usize::try_from(s.seat_id) {
                slot_of[i] = k as u32 + 1;
            }
        }
        slot_of
    }

    /// The index in `slots` of the visited seat with row id `seat_id`.
    fn slot(&self, seat_id: i64) -> Option<usize> {
        let k = *self.slot_of.get(usize::try_from(seat_id).ok()?)?;
        (k > 0).then(|| k as usize - 1)
    }
}

/// Reads the attempts with ids in `lo..=hi` of the ledger at `path` (through `conn`), in id
/// order, feeding each to its seat's value (its slot's; rows of seats not visited skipped).
/// Returns what it made of each slot it met.
fn scan_range<T>(
    path: &Path,
    conn: &Connection,
    fields: AttemptFields,
    (lo, hi): (i64, i64),
    visit: &Visit<'_>,
    start: &(impl Fn(usize, &Seat) -> T + Sync),
    add: &(impl Fn(&mut T, &Attempt) + Sync),
) -> Result<Met<T>> {
    let err = |e| sqlite(path, e);
    let columns = Columns::over_ids(fields);
    let Some(seat_col) = columns.seat else {
        unreachable!("a query over ids reads the seat");
    };
    let mut rows = RawStatement::prepare(conn, &columns.sql).map_err(err)?;
    rows.bind(1, lo).map_err(err)?;
    rows.bind(2, hi).map_err(err)?;
    let mut scan = RangeScan::new(visit.slots.len());
    while let Some(r) = rows.next().map_err(err)? {
        let id: Option<i64> = match columns.id {
            Some(i) => Some(integer(&r, i).map_err(err)?),
            None => None,
        };
        if fields.trace && scan.pending.is_some_and(|(p, _)| p == id) {
            read_step(path, &columns, &r, &mut scan.attempt)?;
            continue;
        }
        scan.hand_on_pending(fields, add);
        let seat_id = integer(&r, seat_col).map_err(err)?;
        let Some(k) = visit.slot(seat_id) else {
            continue;
        };
        scan.let_go_of_held(k);
        let RangeScan {
            found,
            attempt,
            pending,
            held,
        } = &mut scan;
        let f = found[k].get_or_insert_with(|| Found::start(&visit.slots[k], start));
        if !f.in_order {
            continue;
        }
        if read_in_order(path, &columns, &r, id, attempt, *held, f)? {
            *held = Some((k, attempt.trial));
            read_step(path, &columns, &r, attempt)?;
            *pending = Some((id, k));
        } else {
            f.in_order = false;
            *held = None;
        }
    }
    scan.hand_on_pending(fields, add);
    Ok(scan.found)
}

/// Where one range's reader stands: what it made of each slot so far, and the attempt at hand.
struct RangeScan<T> {
    found: Met<T>,
    /// The row read last, as an attempt.
    attempt: Attempt,
    /// The attempt read but not yet handed on (rows of its trace steps may follow): its id
    /// (when read: with traces or checklists) and slot.
    pending: Option<(Option<i64>, usize)>,
    /// The slot whose last attempt `attempt` still holds (no row of another seat read into it
    /// since), with that attempt's trial: then the next row of the same seat, the usual case,
    /// is checked against `attempt` itself, and the seat's `Found` is given its last problem
    /// only when a row of another seat is read.
    held: Option<(usize, u32)>,
}

impl<T> RangeScan<T> {
    /// Before the first row, with `slots` slots, none met.
    fn new(slots: usize) -> Self {
        RangeScan {
            found: (0..slots).map(|_| None).collect(),
            attempt: Attempt::empty(),
            pending: None,
            held: None,
        }
    }

    /// Hands the pending attempt (if any) on to its seat's value.
    #[inline]
    fn hand_on_pending(&mut self, fields: AttemptFields, add: &impl Fn(&mut T, &Attempt)) {
        let Some((_, k)) = self.pending.take() else {
            return;
        };
        if let Some(f) = &mut self.found[k] {
            if !fields.trial {
                // As a seat's own query gives it, when the trial is not asked for.
                self.attempt.trial = 0;
            }
            add(&mut f.value, &self.attempt);
        }
    }

    /// Before a row of slot `k` is read into `attempt`: the seat whose last attempt it holds,
    /// if another, is given that attempt's problem and trial to keep.
    #[inline]
    fn let_go_of_held(&mut self, k: usize) {
        if let Some((h, trial)) = self.held
            && h != k
        {
            if let Some(g) = &mut self.found[h] {
                g.problem.clone_from(&self.attempt.problem);
                g.trial = trial;
            }
            self.held = None;
        }
    }
}

impl<T> Found<T> {
    /// A seat met for the first time: its value started, no attempt read yet.
    fn start(slot: &Slot<'_>, start: &impl Fn(usize, &Seat) -> T) -> Box<Self> {
        Box::new(Found {
            value: start(slot.wave, slot.seat),
            problem: String::new(),
            trial: 0,
            in_order: true,
        })
    }
}

/// Reads row `r` into `attempt` and says whether it comes strictly after its seat's previous
/// attempt in (problem, trial), as the index orders them (problems byte by byte, SQLite's
/// BINARY collation): the previous attempt is `attempt` itself while `held` (the seat's), else
/// the one `f` keeps. The first attempt has a trial, from 1: 0 means none yet. A problem that
/// is not text is read to say what is wrong, and is not in order (should it read, the seat is
/// read again on its own).
#[inline]
fn read_in_order<T>(
    path: &Path,
    columns: &Columns,
    r: &RawRow<'_>,
    id: Option<i64>,
    attempt: &mut Attempt,
    held: Option<(usize, u32)>,
    f: &Found<T>,
) -> Result<bool> {
    let Some(problem) = r.text(0) else {
        read_attempt(path, columns, r, id, attempt, Problem::Read)?;
        return Ok(false);
    };
    let (order, last_trial) = match held {
        Some((_, trial)) => (problem.cmp(attempt.problem.as_bytes()), trial),
        None => (problem.cmp(f.problem.as_bytes()), f.trial),
    };
    let problem = if held.is_some() && order == std::cmp::Ordering::Equal {
        Problem::Held
    } else {
        Problem::Text(problem)
    };
    read_attempt(path, columns, r, id, attempt, problem)?;
    let after = last_trial == 0
        || match order {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Equal => attempt.trial > last_trial,
            std::cmp::Ordering::Less => false,
        };
    Ok(after && attempt.trial != 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{
        Accounting, Budget, ChecklistItem, Load, Provenance, SeatData, SuiteProblems, TraceStep,
        Wave, WaveData,
    };

    const NOW: &str = "2026-01-01T00:00:00Z";

    fn attempt(problem: &str, trial: u32, n: u64) -> Attempt {
        Attempt {
            problem: problem.into(),
            trial,
            correct: n.is_multiple_of(3),
            outcome: n.is_multiple_of(2).then_some(0.25),
            input_tokens: Some(100 + n),
            output_tokens: Some(7 * n),
            input_tokens_cache_read: n.is_multiple_of(4).then_some(n),
            input_tokens_cache_write: None,
            wall_s: Some(0.1 * n as f64),
            cost_usd: Some(0.001 * n as f64),
            steps: Some(n as u32 % 9),
            errors: Some(n as u32 % 2),
            checklist: n.is_multiple_of(5).then(|| {
                vec![ChecklistItem {
                    item: "cites the log".into(),
                    pass: n.is_multiple_of(2),
                }]
            }),
            trace: (n % 3 == 1).then(|| {
                (0..n % 4)
                    .map(|i| TraceStep {
                        tool: format!("tool{i}"),
                        ok: i % 2 == 0,
                        error: (i % 2 == 1).then(|| "failed".into()),
                    })
                    .collect()
            }),
            working_s: Some(0.05 * n as f64),
            infra_error: n % 7 == 1 && !n.is_multiple_of(3),
            end_reason: (n % 7 == 1).then(|| "sandbox died".into()),
            origin: None,
            texts: None,
        }
    }

    /// A wave of `seats` seats (the last with no attempts) over `problems` problems, two
    /// trials each; the seats are given out of slug order.
    fn wave(id: &str, seats: usize, problems: usize) -> WaveData {
        let mut n = 0;
        let seats = (0..seats)
            .rev()
            .map(|s| {
                let attempts = if s + 1 == seats {
                    Vec::new()
                } else {
                    (0..problems)
                        .flat_map(|p| (1..=2).map(move |t| (p, t)))
                        .map(|(p, t)| {
                            n += 1;
                            attempt(&format!("p{p:02}"), t, n + s as u64)
                        })
                        .collect()
                };
                SeatData {
                    seat: Seat {
                        id: format!("seat-{s}"),
                        model: "m".into(),
                        provider: "p".into(),
                        harness: "h".into(),
                        config: None,
                        display_name: None,
                    },
                    attempts,
                }
            })
            .collect();
        WaveData {
            wave: Wave {
                id: id.into(),
                suite: "s".into(),
                started_at: NOW.into(),
                notes: None,
                suite_problems: Some(SuiteProblems::Count(problems as u64)),
                load: Load::default(),
                accounting: Accounting::default(),
                budget: Budget::default(),
                provenance: Provenance::default(),
                supersedes: None,
                canary_problems: Vec::new(),
            },
            seats,
        }
    }

    /// A ledger file holding `waves`.
    fn ledger(dir: &Path, waves: &[WaveData]) -> Ledger {
        let (mut ledger, _) = Ledger::create(&dir.join("ledger.db")).unwrap();
        ledger.add_waves(waves, NOW).unwrap();
        ledger
    }

    type Seen = Vec<Vec<(Seat, Vec<Attempt>)>>;

    /// Every wave's seats with their attempts as `fold_wave` reads them, wave by wave.
    fn by_wave(ledger: &Ledger, slugs: &[String], fields: AttemptFields) -> Seen {
        slugs
            .iter()
            .map(|w| {
                ledger
                    .fold_wave(w, fields, |_| Vec::new(), |v, a| v.push(a.clone()))
                    .unwrap()
            })
            .collect()
    }

    /// The same through `fold_waves_in`, each seat's value tagged with its wave.
    fn in_one_pass(
        ledger: &Ledger,
        slugs: &[String],
        fields: AttemptFields,
        ranges: Ranges,
    ) -> Seen {
        ledger
            .fold_waves_in(
                slugs,
                fields,
                ranges,
                |w, _| (w, Vec::new()),
                |(_, v): &mut (usize, Vec<Attempt>), a| v.push(a.clone()),
            )
            .unwrap()
            .into_iter()
            .enumerate()
            .map(|(w, seats)| {
                seats
                    .into_iter()
                    .map(|(seat, (wave, attempts))| {
                        assert_eq!(wave, w, "a seat's value was started for its own wave");
                        (seat, attempts)
                    })
                    .collect()
            })
            .collect()
    }

    fn some_fields() -> Vec<AttemptFields> {
        vec![
            AttemptFields::ALL,
            AttemptFields::NONE,
            AttemptFields {
                wall_s: true,
                input_tokens: true,
                checklist: true,
                ..AttemptFields::NONE
            },
            AttemptFields {
                trace: true,
                trial: true,
                ..AttemptFields::NONE
            },
        ]
    }

    fn slugs(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn one_pass_reads_what_each_wave_read_alone_reads() {
        let dir = tempfile::tempdir().unwrap();
        let l = ledger(
            dir.path(),
            &[wave("a", 3, 4), wave("b", 4, 3), wave("c", 2, 5)],
        );
        let asked = slugs(&["c", "a", "b"]);
        for fields in some_fields() {
            let expected = by_wave(&l, &asked, fields);
            assert!(expected[1][0].1.iter().any(|a| a.trace.is_some()) == fields.trace);
            for most in [1, 2, 3, 8] {
                let ranges = Ranges { most, attempts: 1 };
                assert_eq!(
                    in_one_pass(&l, &asked, fields, ranges),
                    expected,
                    "{most} ranges"
                );
            }
        }
    }

    #[test]
    fn ranges_end_where_a_seat_ends() {
        let dir = tempfile::tempdir().unwrap();
        let l = ledger(dir.path(), &[wave("a", 3, 4), wave("b", 4, 3)]);
        let conn = l.lite().unwrap();
        let ranges = l
            .id_ranges(
                conn,
                Ranges {
                    most: 4,
                    attempts: 1,
                },
            )
            .unwrap();
        assert!(ranges.len() > 1, "{ranges:?}");
        let (lo, hi): (i64, i64) = conn
            .query_row(
                "SELECT (SELECT min(id) FROM attempt), (SELECT max(id) FROM attempt)",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!(ranges.first().unwrap().0, lo);
        assert_eq!(ranges.last().unwrap().1, hi);
        for pair in ranges.windows(2) {
            assert_eq!(pair[0].1 + 1, pair[1].0);
            let seats: (i64, i64) = conn
                .query_row(
                    "SELECT (SELECT seat_id FROM attempt WHERE id = ?1),
                            (SELECT seat_id FROM attempt WHERE id = ?2)",
                    [pair[0].1, pair[1].0],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .unwrap();
            assert_ne!(seats.0, seats.1, "a seat cut in two at {pair:?}");
        }
        // Ranges of at least 100 attempts: one, for 34.
        let one = l
            .id_ranges(
                conn,
                Ranges {
                    most: 4,
                    attempts: 100,
                },
            )
            .unwrap();
        assert_eq!(one, [(lo, hi)]);
    }

    /// Attempts written behind ingest's back, out of ledger order by id and with a seat's rows
    /// apart: the seats concerned are read again through the index, with the same result.
    #[test]
    fn seats_out_of_order_or_apart_are_read_again_alone() {
        let dir = tempfile::tempdir().unwrap();
        let l = ledger(dir.path(), &[wave("a", 3, 4), wave("b", 3, 4)]);
        let conn = l.lite().unwrap();
        let seat = |wave: &str, slug: &str| -> i64 {
            conn.query_row(
                "SELECT s.id FROM seat s JOIN wave w ON w.id = s.wave_id
                 WHERE w.slug = ?1 AND s.slug = ?2",
                [wave, slug],
                |r| r.get(0),
            )
            .unwrap()
        };
        let add = |seat_id: i64, problem: &str, trial: u32| {
            conn.execute(
                "INSERT INTO attempt(seat_id, problem, trial, correct, wall_s)
                 VALUES (?1, ?2, ?3, 1, 9.5)",
                rusqlite::params![seat_id, problem, trial],
            )
            .unwrap();
        };
        // Before the seat's first problem, after the table's last row: out of order.
        add(seat("a", "seat-0"), "p", 1);
        // After the seat's last problem but past another seat's rows: in order, apart.
        add(seat("b", "seat-1"), "p99", 1);
        // A trial before one already read, for a problem already read.
        add(seat("b", "seat-0"), "p03", 3);
        add(seat("b", "seat-0"), "p02", 3);
        let asked = slugs(&["a", "b"]);
        for fields in some_fields() {
            let expected = by_wave(&l, &asked, fields);
            for most in [1, 2, 5] {
                let ranges = Ranges { most, attempts: 1 };
                assert_eq!(
                    in_one_pass(&l, &asked, fields, ranges),
                    expected,
                    "{most} ranges"
                );
            }
        }
    }

    /// Two seats' attempts written behind ingest's back, row for row in turn: each seat's in
    /// ledger order by id, though never two of a seat in a row (each checked against its own
    /// last attempt, not the row before), then one out of order.
    #[test]
    fn seats_whose_rows_alternate_are_each_checked_against_their_own() {
        let dir = tempfile::tempdir().unwrap();
        let l = ledger(dir.path(), &[wave("a", 3, 2)]);
        let conn = l.lite().unwrap();
        let seat = |slug: &str| -> i64 {
            conn.query_row("SELECT id FROM seat WHERE slug = ?1", [slug], |r| r.get(0))
                .unwrap()
        };
        let (s0, s1) = (seat("seat-0"), seat("seat-1"));
        let add = |seat_id: i64, problem: &str, trial: u32| {
            conn.execute(
                "INSERT INTO attempt(seat_id, problem, trial, correct, wall_s, steps, errors)
                 VALUES (?1, ?2, ?3, ?4, 2.5, ?3, 1)",
                rusqlite::params![seat_id, problem, trial, trial % 2],
            )
            .unwrap();
        };
        for (problem, trial) in [("q0", 1), ("q0", 2), ("q1", 1), ("q2", 1), ("q2", 3)] {
            add(s0, problem, trial);
            add(s1, problem, trial);
        }
        let asked = slugs(&["a"]);
        let check = |what: &str| {
            for fields in some_fields() {
                let expected = by_wave(&l, &asked, fields);
                for most in [1, 2] {
                    let ranges = Ranges { most, attempts: 1 };
                    assert_eq!(
                        in_one_pass(&l, &asked, fields, ranges),
                        expected,
                        "{what}, {most} ranges"
                    );
                }
            }
        };
        check("in order");
        // A trial of seat-1 before its last, after a row of seat-0 with a later problem.
        add(s0, "q3", 1);
        add(s1, "q2", 2);
        check("one out of order");
    }

    #[test]
    fn waves_holding_few_of_the_seats_are_read_wave_by_wave_with_the_same_result() {
        let dir = tempfile::tempdir().unwrap();
        let l = ledger(
            dir.path(),
            &[wave("a", 2, 2), wave("b", 6, 3), wave("c", 2, 1)],
        );
        for asked in [slugs(&["c"]), slugs(&["a", "c"]), slugs(&["b"]), Vec::new()] {
            let expected = by_wave(&l, &asked, AttemptFields::ALL);
            let ranges = Ranges {
                most: 2,
                attempts: 1,
            };
            assert_eq!(
                in_one_pass(&l, &asked, AttemptFields::ALL, ranges),
                expected
            );
        }
    }

    #[test]
    fn an_in_memory_ledger_is_read_in_one_range() {
        let mut l = Ledger::in_memory().unwrap();
        let data = wave("a", 3, 4);
        l.add_waves(std::slice::from_ref(&data), NOW).unwrap();
        let asked = slugs(&["a"]);
        let expected = by_wave(&l, &asked, AttemptFields::ALL);
        let ranges = Ranges {
            most: 4,
            attempts: 1,
        };
        assert_eq!(
            in_one_pass(&l, &asked, AttemptFields::ALL, ranges),
            expected
        );
    }
}
