//! Copying a whole ledger from one store to another (`benchledger copy`): an SQLite file into
//! a PostgreSQL database and back, or into a fresh file. Every row of every table goes over as
//! it is, ids included, so every hash stored (and every hash recomputed from the rows) is the
//! same on the copy, and `verify` passes there as it does on the original.
//!
//! The rows stream: the source is read table by table in one snapshot (a read transaction on
//! SQLite, a repeatable-read one on PostgreSQL, its rows through a server-side cursor), and each
//! row is written as it is read, into the destination's one write transaction (prepared inserts
//! on SQLite, binary `COPY` on PostgreSQL). Memory stays bounded whatever the ledger's size; the
//! destination gets the whole ledger or, on any error, nothing.

use std::path::Path;

use super::raw::Cells;
use super::sql::{Cell, Sql, TableSink};
use super::{Ledger, Store, schema_version, sqlite};
use crate::error::{Error, Result};

/// The ledger's tables, each after those it refers to.
pub const TABLES: [&str; 21] = [
    "suite",
    "wave",
    "wave_problem",
    "wave_canary",
    "seat",
    "seat_tally",
    "seat_display_name",
    "attempt",
    "attempt_origin",
    "attempt_text",
    "trace_step",
    "rubric",
    "score",
    "price_table",
    "publication",
    "publication_claims",
    "publication_envelope",
    "withdrawal",
    "submission_rules",
    "wave_review",
    "chain_entry",
];

/// Reads a table's rows, in one snapshot of the source.
pub(super) trait Source {
    /// Calls `f` with every row of `table`, its `columns` in that order, by key. Returns how many
    /// rows there were.
    fn each_row(
        &mut self,
        table: &str,
        columns: &[String],
        f: &mut dyn FnMut(&[Cell]) -> Result<()>,
    ) -> Result<u64>;
}

/// Writes rows, in the destination's one write transaction.
pub(super) trait Sink {
    /// The columns of `table`, in the order the destination declares them.
    fn columns(&mut self, table: &str) -> Result<Vec<String>>;
    /// How many rows `table` holds.
    fn count(&mut self, table: &str) -> Result<i64>;
    /// A writer of `table`'s rows, `columns` in that order.
    fn table<'s>(&'s mut self, table: &str, columns: &[String]) -> Result<Box<dyn TableSink + 's>>;
}

/// How many rows of each table were copied, in [`TABLES`] order.
pub type Copied = Vec<(&'static str, u64)>;

/// Copies the whole ledger at `from` into a new one at `to`, on either store (`benchledger
/// copy`, Python's `Ledger.copy`): `Ledger::copy_to`, with the files around it. A new SQLite
/// file is written under a name of its own beside the destination and linked into place only
/// once whole, so a copy stopped half way leaves no ledger at the destination (an empty one
/// there would verify); a file made for a copy that fails is taken away again. Each ledger
/// waits for a writer as `wait` says. Returns the source as the ledger names it, and the rows
/// copied.
pub fn whole(
    from: &Path,
    to: &Path,
    wait: &dyn Fn() -> super::Wait,
) -> Result<(std::path::PathBuf, Copied)> {
    for path in [from, to] {
        if let Some(kind) = crate::files::irregular_at(path) {
            return Err(Error::Usage(format!(
                "{} is {kind}, not a ledger file",
                Ledger::shown(path).display()
            )));
        }
    }
    if from == to {
        return Err(Error::Usage(format!(
            "the source and the destination (--from and --to) both name {}: copy a ledger into \
             another one",
            Ledger::shown(from).display()
        )));
    }
    let mut src = Ledger::open_for_reading(from)?;
    src.set_wait(wait())?;
    let staged = staging_name(to);
    let made_at = staged.as_deref().unwrap_or(to);
    let (mut dst, created) = Ledger::create(made_at)?;
    dst.set_wait(wait())?;
    let copied = match src.copy_to(&dst) {
        Ok(copied) => copied,
        Err(e) => {
            drop(dst);
            if created && made_at.is_file() {
                remove_ledger_file(made_at);
            }
            return Err(e);
        }
    };
    drop(dst);
    if let Some(staged) = &staged {
        // A link, not a rename: it never replaces a ledger that appeared meanwhile.
        let linked = std::fs::hard_link(staged, to);
        remove_ledger_file(staged);
        linked.map_err(|e| Error::io(to, e))?;
    }
    Ok((src.path().to_path_buf(), copied))
}

/// Where a new SQLite destination is written before it is linked into place: a hidden name
/// beside it, this process's own. `None` for a server's database, or a file already there.
fn staging_name(to: &Path) -> Option<std::path::PathBuf> {
    if Ledger::on_a_server(to) || std::fs::symlink_metadata(to).is_ok() {
        return None;
    }
    let name = to.file_name()?.to_string_lossy();
    Some(to.with_file_name(format!(".{name}.copying-{}", std::process::id())))
}

/// Removes an SQLite file and its journal files, if there.
fn remove_ledger_file(path: &Path) {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let mut p = path.as_os_str().to_os_string();
        p.push(suffix);
        let _ = std::fs::remove_file(p);
    }
}

impl Ledger {
    /// Copies every row of this ledger into `to`, which must be an empty ledger of the same
    /// schema version (as `Ledger::create` leaves one). Returns the rows copied per table.
    pub(crate) fn copy_to(&self, to: &Ledger) -> Result<Copied> {
        let supported = schema_version();
        for l in [self, to] {
            let v = l.user_version()?;
            if v != supported {
                return Err(Error::Ledger {
                    path: l.path.clone(),
                    message: format!(
                        "this ledger has schema version {v}, and this build copies version \
                         {supported}: open it once with this build (any command upgrades it)"
                    ),
                });
            }
        }
        self.with_source(&mut |src| to.with_sink(&mut |sink| copy_all(src, sink, &to.path)))
    }

    /// Runs `f` with this ledger as a [`Source`], in one read snapshot.
    fn with_source(&self, f: &mut dyn FnMut(&mut dyn Source) -> Result<Copied>) -> Result<Copied> {
        match &self.store {
            Store::Sqlite(conn) => {
                let tx = conn.unchecked_transaction().map_err(|e| self.err(e))?;
                let out = f(&mut Sql::lite(&tx, &self.path))?;
                tx.finish().map_err(|e| self.err(e))?;
                Ok(out)
            }
            #[cfg(feature = "postgres")]
            Store::Postgres(pg) => pg.snapshot_read(|sql| f(sql)),
        }
    }

    /// Runs `f` with this ledger as a [`Sink`], in one write transaction committed when `f`
    /// succeeds.
    fn with_sink(&self, f: &mut dyn FnMut(&mut dyn Sink) -> Result<Copied>) -> Result<Copied> {
        self.write(|sql| f(sql))
    }
}

/// Every table, in order: refused unless the destination is empty.
fn copy_all(src: &mut dyn Source, sink: &mut dyn Sink, to: &Path) -> Result<Copied> {
    for table in TABLES {
        if sink.count(table)? > 0 {
            return Err(Error::Usage(format!(
                "{} already holds rows (table {table}): copy into a new file or an empty \
                 database, never over a ledger",
                to.display()
            )));
        }
    }
    let mut out = Vec::with_capacity(TABLES.len());
    for table in TABLES {
        let columns = sink.columns(table)?;
        let mut w = sink.table(table, &columns)?;
        let n = src.each_row(table, &columns, &mut |row| w.write(row))?;
        w.finish()?;
        out.push((table, n));
    }
    Ok(out)
}

/// A ledger read in one snapshot (a read transaction on SQLite, a repeatable-read one whose
/// queries stream through cursors on the server), each table a row at a time.
impl Source for Sql<'_> {
    fn each_row(
        &mut self,
        table: &str,
        columns: &[String],
        f: &mut dyn FnMut(&[Cell]) -> Result<()>,
    ) -> Result<u64> {
        let path = self.path();
        let query = format!("SELECT {} FROM {table} ORDER BY 1, 2", columns.join(", "));
        let mut row = Vec::with_capacity(columns.len());
        let mut n = 0;
        self.stream(&query, &[], |r| {
            row.clear();
            for (i, column) in columns.iter().enumerate() {
                let v = Cells::value(r, i).map_err(|e| sqlite(path, e))?;
                row.push(Cell::of(v, path, table, column)?);
            }
            n += 1;
            f(&row)
        })?;
        Ok(n)
    }
}

/// A ledger written in one transaction: each table through [`Sql::sink`].
impl Sink for Sql<'_> {
    fn columns(&mut self, table: &str) -> Result<Vec<String>> {
        // The catalogue is each store's own.
        let sql = if self.as_lite().is_some() {
            "SELECT name FROM pragma_table_info(?1) ORDER BY cid"
        } else {
            "SELECT column_name::text FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name = ?1
             ORDER BY ordinal_position"
        };
        self.rows(sql, &super::sql::values![table], |r| r.get(0))
    }

    fn count(&mut self, table: &str) -> Result<i64> {
        self.value(&format!("SELECT count(*) FROM {table}"), &[])
    }

    fn table<'s>(&'s mut self, table: &str, columns: &[String]) -> Result<Box<dyn TableSink + 's>> {
        self.sink(table, columns)
    }
}
