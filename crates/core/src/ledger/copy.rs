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

use rusqlite::types::ValueRef;

use super::sql::{Sql, Value};
use super::{Ledger, Store, schema_version, sqlite};
use crate::error::{Error, Result};

/// The ledger's tables, each after those it refers to.
pub const TABLES: [&str; 14] = [
    "suite",
    "wave",
    "wave_problem",
    "wave_canary",
    "seat",
    "seat_tally",
    "attempt",
    "trace_step",
    "rubric",
    "score",
    "price_table",
    "publication",
    "publication_claims",
    "withdrawal",
];

/// One value of a row, as both stores can hold it: a flag is an integer 0 or 1, as SQLite keeps
/// it.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Cell {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
}

impl Cell {
    /// The cell of a value as SQLite holds it (a flag as 0 or 1); an error naming
    /// `table.column` for a blob or text that is not UTF-8, which benchledger never writes.
    pub(super) fn of(v: ValueRef<'_>, path: &Path, table: &str, column: &str) -> Result<Cell> {
        let text = |v| {
            std::str::from_utf8(v)
                .ok()
                .map(|s| Cell::Text(s.to_string()))
        };
        match v {
            ValueRef::Null => Some(Cell::Null),
            ValueRef::Integer(v) => Some(Cell::Int(v)),
            ValueRef::Real(v) => Some(Cell::Real(v)),
            ValueRef::Text(v) => text(v),
            ValueRef::Blob(_) => None,
        }
        .ok_or_else(|| Error::Ledger {
            path: path.to_path_buf(),
            message: format!(
                "{table}.{column} holds a blob, which benchledger never writes: the ledger was \
                 edited behind its back"
            ),
        })
    }

    /// The cell as a parameter of a statement.
    pub(super) fn value(&self) -> Value<'_> {
        match self {
            Cell::Null => Value::Null,
            Cell::Int(v) => Value::Int(*v),
            Cell::Real(v) => Value::Real(*v),
            Cell::Text(v) => Value::Text(v),
        }
    }
}

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

/// Writes one table's rows.
pub(super) trait TableSink {
    fn write(&mut self, row: &[Cell]) -> Result<()>;
    fn finish(self: Box<Self>) -> Result<()>;
}

/// How many rows of each table were copied, in [`TABLES`] order.
pub type Copied = Vec<(&'static str, u64)>;

impl Ledger {
    /// Copies every row of this ledger into `to`, which must be an empty ledger of the same
    /// schema version (as `Ledger::create` leaves one). Returns the rows copied per table.
    pub fn copy_to(&self, to: &Ledger) -> Result<Copied> {
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
                let out = f(&mut LiteSource {
                    tx: &tx,
                    path: &self.path,
                })?;
                tx.finish().map_err(|e| self.err(e))?;
                Ok(out)
            }
            #[cfg(feature = "postgres")]
            Store::Postgres(pg) => pg.with_source(f),
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

/// An SQLite ledger read in one transaction.
struct LiteSource<'a> {
    tx: &'a rusqlite::Transaction<'a>,
    path: &'a Path,
}

impl Source for LiteSource<'_> {
    fn each_row(
        &mut self,
        table: &str,
        columns: &[String],
        f: &mut dyn FnMut(&[Cell]) -> Result<()>,
    ) -> Result<u64> {
        let err = |e| sqlite(self.path, e);
        let mut stmt = self
            .tx
            .prepare(&format!(
                "SELECT {} FROM {table} ORDER BY 1, 2",
                columns.join(", ")
            ))
            .map_err(err)?;
        let mut rows = stmt.query([]).map_err(err)?;
        let mut row = Vec::with_capacity(columns.len());
        let mut n = 0;
        while let Some(r) = rows.next().map_err(err)? {
            row.clear();
            for (i, column) in columns.iter().enumerate() {
                let v = r.get_ref(i).map_err(err)?;
                row.push(Cell::of(v, self.path, table, column)?);
            }
            f(&row)?;
            n += 1;
        }
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
