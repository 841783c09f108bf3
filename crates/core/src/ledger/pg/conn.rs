//! The server's client as the query layer's [`Server`]: statements rewritten to its dialect
//! (`$N` placeholders), parameters in the column types it asks for, its rows read as SQLite's
//! kinds of value, its bulk load (binary `COPY`) as a [`TableSink`], and its failures mapped to
//! the ledger's errors.

use std::path::Path;

use postgres::binary_copy::BinaryCopyInWriter;
use postgres::types::{IsNull, ToSql, Type};
use rusqlite::types::ValueRef;

use crate::error::Result;
use crate::ledger::sql::{Cell, Server, ServerRow, TableSink, Value, dollars};

/// A value as PostgreSQL's column type asks: integers as `bigint` (or a narrower integer),
/// reals as `double precision`, flags as `boolean`.
impl ToSql for Value<'_> {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut bytes::BytesMut,
    ) -> std::result::Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match *self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(v) if *ty == Type::INT4 => i32::try_from(v)?.to_sql(ty, out),
            Value::Int(v) if *ty == Type::INT2 => i16::try_from(v)?.to_sql(ty, out),
            Value::Int(v) if *ty == Type::FLOAT8 => (v as f64).to_sql(ty, out),
            // SQLite's flags (a scratch database's rows, copied in).
            Value::Int(v) if *ty == Type::BOOL => match v {
                0 => false.to_sql(ty, out),
                1 => true.to_sql(ty, out),
                _ => Err(format!("{v} is not a flag (0 or 1)").into()),
            },
            Value::Int(v) => v.to_sql(ty, out),
            Value::Real(v) => v.to_sql(ty, out),
            Value::Text(v) => v.to_sql(ty, out),
            Value::Bool(v) => v.to_sql(ty, out),
        }
    }

    fn accepts(ty: &Type) -> bool {
        <i64 as ToSql>::accepts(ty)
            || <i32 as ToSql>::accepts(ty)
            || <i16 as ToSql>::accepts(ty)
            || <f64 as ToSql>::accepts(ty)
            || <&str as ToSql>::accepts(ty)
            || <bool as ToSql>::accepts(ty)
    }

    postgres::types::to_sql_checked!();
}

/// Parameters as the client takes them.
pub(super) fn params<'v>(values: &'v [Value<'_>]) -> Vec<&'v (dyn ToSql + Sync)> {
    values.iter().map(|v| v as &(dyn ToSql + Sync)).collect()
}

/// [`Server`]'s calls that a connection and a transaction make alike (they differ in how a
/// query streams): a query's rows at once, a statement, a bulk load through binary `COPY`.
macro_rules! calls {
    () => {
        fn each(
            &mut self,
            path: &Path,
            sql: &str,
            values: &[Value<'_>],
            most: usize,
            f: &mut dyn FnMut(&dyn ServerRow) -> Result<()>,
        ) -> Result<()> {
            let rows = (self.query(&*dollars(sql), &params(values))).map_err(|e| error(path, e))?;
            rows.iter().take(most).try_for_each(|r| f(r))
        }

        fn execute(&mut self, path: &Path, sql: &str, values: &[Value<'_>]) -> Result<usize> {
            postgres::GenericClient::execute(self, &*dollars(sql), &params(values))
                .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
                .map_err(|e| error(path, e))
        }

        fn copy_in<'s>(
            &'s mut self,
            path: &'s Path,
            table: &str,
            columns: &[String],
        ) -> Result<Box<dyn TableSink + 's>> {
            let list = columns.join(", ");
            let statement = (self.prepare(&format!("SELECT {list} FROM {table} LIMIT 0")))
                .map_err(|e| error(path, e))?;
            let types: Vec<Type> = statement
                .columns()
                .iter()
                .map(|c| c.type_().clone())
                .collect();
            let sink = postgres::GenericClient::copy_in(
                self,
                &format!("COPY {table} ({list}) FROM STDIN (FORMAT binary)"),
            )
            .map_err(|e| error(path, e))?;
            Ok(Box::new(Copying {
                writer: BinaryCopyInWriter::new(sink, &types),
                path,
            }))
        }
    };
}

/// A connection: a query's rows come at once (outside a transaction, no cursor can hold them).
impl Server for postgres::Client {
    calls!();

    fn stream(
        &mut self,
        path: &Path,
        sql: &str,
        values: &[Value<'_>],
        f: &mut dyn FnMut(&dyn ServerRow) -> Result<()>,
    ) -> Result<()> {
        self.each(path, sql, values, usize::MAX, f)
    }
}

/// A transaction: a query streams through a server-side cursor, so memory stays bounded
/// however many rows there are. The first [`super::FETCH_ROWS`] rows are fetched and read;
/// when more may follow, a second thread fetches them [`super::FETCH_ROWS_ALL`] at a time,
/// one batch ahead of the reading at most, so that the server makes the next batch while this
/// thread reads the last (a whole history's read).
impl Server for postgres::Transaction<'_> {
    calls!();

    fn stream(
        &mut self,
        path: &Path,
        sql: &str,
        values: &[Value<'_>],
        f: &mut dyn FnMut(&dyn ServerRow) -> Result<()>,
    ) -> Result<()> {
        let err = |e| error(path, e);
        let stmt = self.prepare(&dollars(sql)).map_err(err)?;
        let portal = self.bind(&stmt, &params(values)).map_err(err)?;
        let first = self.query_portal(&portal, super::FETCH_ROWS).map_err(err)?;
        first.iter().try_for_each(|r| f(r))?;
        if first.len() < super::FETCH_ROWS as usize {
            return Ok(());
        }
        drop(first);
        let (sent, received) = std::sync::mpsc::sync_channel::<Vec<postgres::Row>>(1);
        let (tx, portal) = (self, &portal);
        std::thread::scope(|scope| {
            let fetcher = scope.spawn(move || -> std::result::Result<(), postgres::Error> {
                loop {
                    let rows = tx.query_portal(portal, super::FETCH_ROWS_ALL)?;
                    let last = rows.len() < super::FETCH_ROWS_ALL as usize;
                    // A reader that stopped (on an error of its own) takes no more.
                    if sent.send(rows).is_err() || last {
                        return Ok(());
                    }
                }
            });
            let read = (received.iter()).try_for_each(|rows| rows.iter().try_for_each(|r| f(r)));
            drop(received);
            let fetched = fetcher
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            read.and(fetched.map_err(err))
        })
    }
}

/// A row's column `i` in SQLite's kinds of value: `bigint` an integer, `boolean` the integer 0
/// or 1, `double precision` a real, anything else text.
impl ServerRow for postgres::Row {
    fn value(&self, path: &Path, i: usize) -> Result<ValueRef<'_>> {
        let ty = self.columns().get(i).map(|c| c.type_());
        let v = if ty == Some(&Type::INT8) {
            self.try_get::<_, Option<i64>>(i)
                .map(|v| v.map(ValueRef::Integer))
        } else if ty == Some(&Type::BOOL) {
            (self.try_get::<_, Option<bool>>(i)).map(|v| v.map(|b| ValueRef::Integer(i64::from(b))))
        } else if ty == Some(&Type::FLOAT8) {
            self.try_get::<_, Option<f64>>(i)
                .map(|v| v.map(ValueRef::Real))
        } else {
            (self.try_get::<_, Option<&str>>(i)).map(|v| v.map(|s| ValueRef::Text(s.as_bytes())))
        };
        Ok(v.map_err(|e| error(path, e))?.unwrap_or(ValueRef::Null))
    }
}

/// Rows of one table going in through binary `COPY`.
struct Copying<'a> {
    writer: BinaryCopyInWriter<'a>,
    path: &'a Path,
}

impl TableSink for Copying<'_> {
    fn write(&mut self, row: &[Cell]) -> Result<()> {
        let values: Vec<Value<'_>> = row.iter().map(Cell::value).collect();
        self.writer
            .write(&params(&values))
            .map_err(|e| error(self.path, e))
    }

    fn finish(self: Box<Self>) -> Result<()> {
        let path = self.path;
        self.writer.finish().map(|_| ()).map_err(|e| error(path, e))
    }
}

/// A PostgreSQL error on the ledger at `path`: [`crate::error::Error::Unavailable`] when the
/// cause is the ledger's surroundings (the server unreachable or shutting down, a full or
/// failing disk, a role or a server that may not write, a conflict with another transaction;
/// a server that may not write comes [`crate::error::Error::Hinted`] with what still works),
/// else [`crate::error::Error::Ledger`] with the server's words.
pub(in crate::ledger) fn error(path: &Path, e: postgres::Error) -> crate::error::Error {
    use crate::error::{Cause, Error, Hint};
    use postgres::error::SqlState;
    let unavailable = |cause: Cause, why: &str| Error::Unavailable {
        path: path.to_path_buf(),
        cause,
        message: format!("could not complete ({}): {why}", words(&e)),
    };
    let refused = || Error::Ledger {
        path: path.to_path_buf(),
        message: format!("PostgreSQL: {}", words(&e)),
    };
    let Some(code) = e.code() else {
        // No answer from the server: the connection failed or was lost.
        return if e.is_closed() || std::error::Error::source(&e).is_some() {
            unavailable(
                Cause::CannotOpen,
                "the connection to the PostgreSQL server failed or was lost; nothing was \
                 written. Check that the server is running, then run the command again",
            )
        } else {
            refused()
        };
    };
    let class = &code.code()[..2];
    if class == "08"
        || *code == SqlState::ADMIN_SHUTDOWN
        || *code == SqlState::CRASH_SHUTDOWN
        || *code == SqlState::CANNOT_CONNECT_NOW
        || *code == SqlState::TOO_MANY_CONNECTIONS
    {
        unavailable(
            Cause::CannotOpen,
            "the PostgreSQL server is unreachable or shutting down; nothing was written. Run \
             the command again when it is back",
        )
    } else if *code == SqlState::DISK_FULL || *code == SqlState::OUT_OF_MEMORY {
        unavailable(
            Cause::DiskFull,
            "the PostgreSQL server is out of disk or memory; nothing was written. Free some \
             space and run the command again",
        )
    } else if *code == SqlState::IO_ERROR || class == "58" || class == "XX" {
        unavailable(
            Cause::DiskFailed,
            "the PostgreSQL server failed to read or write; nothing was written. Check the \
             server and run the command again",
        )
    } else if *code == SqlState::READ_ONLY_SQL_TRANSACTION
        || *code == SqlState::INSUFFICIENT_PRIVILEGE
    {
        unavailable(
            Cause::ReadOnly,
            "the ledger cannot be written with this connection (a read-only server or \
             transaction, or a role without the privilege); nothing was written",
        )
        .hinted(Hint::ReadsStillWork)
    } else if *code == SqlState::T_R_SERIALIZATION_FAILURE
        || *code == SqlState::T_R_DEADLOCK_DETECTED
    {
        unavailable(
            Cause::Raced,
            "another writer changed the ledger meanwhile; nothing was written. Run the command \
             again",
        )
    } else if *code == SqlState::LOCK_NOT_AVAILABLE || *code == SqlState::QUERY_CANCELED {
        unavailable(
            Cause::Busy,
            "the ledger is busy: another process kept its lock past the wait; nothing was \
             written",
        )
    } else {
        refused()
    }
}

/// What the server said (its message, detail and code), or the client's own error.
pub(in crate::ledger) fn words(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => {
            let mut s = db.message().to_string();
            if let Some(detail) = db.detail() {
                s.push_str(&format!(" ({detail})"));
            }
            s.push_str(&format!(" [SQLSTATE {}]", db.code().code()));
            s
        }
        None => match std::error::Error::source(e) {
            Some(source) => format!("{e}: {source}"),
            None => e.to_string(),
        },
    }
}
