//! One query layer over both stores, so that a query both stores run is written once.
//!
//! A [`Sql`] is a connection (or a transaction on one) of either store: it runs a statement
//! written once, in SQLite's dialect with `?N` placeholders (rewritten to `$N` for PostgreSQL),
//! with parameters of one type ([`Value`]), and hands each row to the caller as a [`Row`] read
//! by column index. A value comes out as each store's own client converts it, and a failure
//! is mapped to the ledger's errors as each store's are (`super::sqlite`, [`pg_error`]): the
//! same words as when each store had its own copy of the query.
//!
//! Only what the stores truly do differently stays outside: the bulk loads (an ingest's
//! `INSERT … SELECT` from the attached scratch file, binary `COPY` on the server), the write
//! lock (`BEGIN IMMEDIATE`, an advisory lock), reading the whole history (rusqlite's raw scan,
//! a server-side cursor), migrations, integrity checks and the schema's own comparison. On
//! SQLite every statement is prepared once per connection (`prepare_cached`), as before.

use std::path::Path;

use crate::error::Result;

/// A parameter of a statement, in the types the schemas use.
#[derive(Debug, Clone, Copy)]
pub(super) enum Value<'a> {
    Null,
    Int(i64),
    Real(f64),
    Text(&'a str),
    Bool(bool),
}

impl From<i64> for Value<'_> {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}

impl From<u32> for Value<'_> {
    fn from(v: u32) -> Self {
        Value::Int(i64::from(v))
    }
}

/// Every count benchledger stores is far below 2^63 (ingest refuses counts past 10^12).
impl From<u64> for Value<'_> {
    fn from(v: u64) -> Self {
        Value::Int(i64::try_from(v).unwrap_or(i64::MAX))
    }
}

impl From<f64> for Value<'_> {
    fn from(v: f64) -> Self {
        Value::Real(v)
    }
}

impl From<bool> for Value<'_> {
    fn from(v: bool) -> Self {
        Value::Bool(v)
    }
}

impl<'a> From<&'a str> for Value<'a> {
    fn from(v: &'a str) -> Self {
        Value::Text(v)
    }
}

impl<'a> From<&'a String> for Value<'a> {
    fn from(v: &'a String) -> Self {
        Value::Text(v)
    }
}

impl<'a, T: Into<Value<'a>>> From<Option<T>> for Value<'a> {
    fn from(v: Option<T>) -> Self {
        v.map_or(Value::Null, Into::into)
    }
}

/// The parameters of a statement, each converted to a [`Value`].
macro_rules! values {
    ($($v:expr),* $(,)?) => {
        [$($crate::ledger::sql::Value::from($v)),*]
    };
}
pub(super) use values;

impl rusqlite::ToSql for Value<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match *self {
            Value::Null => ValueRef::Null,
            Value::Int(v) => ValueRef::Integer(v),
            Value::Real(v) => ValueRef::Real(v),
            Value::Text(v) => ValueRef::Text(v.as_bytes()),
            Value::Bool(v) => ValueRef::Integer(i64::from(v)),
        }))
    }
}

/// A value as PostgreSQL's column type asks: integers as `bigint` (or a narrower integer),
/// reals as `double precision`, flags as `boolean`.
#[cfg(feature = "postgres")]
impl postgres::types::ToSql for Value<'_> {
    fn to_sql(
        &self,
        ty: &postgres::types::Type,
        out: &mut bytes::BytesMut,
    ) -> std::result::Result<postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>>
    {
        use postgres::types::{IsNull, Type};
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

    fn accepts(ty: &postgres::types::Type) -> bool {
        <i64 as postgres::types::ToSql>::accepts(ty)
            || <i32 as postgres::types::ToSql>::accepts(ty)
            || <i16 as postgres::types::ToSql>::accepts(ty)
            || <f64 as postgres::types::ToSql>::accepts(ty)
            || <&str as postgres::types::ToSql>::accepts(ty)
            || <bool as postgres::types::ToSql>::accepts(ty)
    }

    postgres::types::to_sql_checked!();
}

/// A value a [`Row`] can give: any type both stores' clients read (integers, reals, text,
/// flags, each optional). Unsigned numbers go through [`Row::unsigned`].
pub(super) trait Get: Sized {
    fn lite(r: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<Self>;
    #[cfg(feature = "postgres")]
    fn pg(r: &postgres::Row, i: usize) -> std::result::Result<Self, postgres::Error>;
}

#[cfg(feature = "postgres")]
impl<T: rusqlite::types::FromSql + for<'a> postgres::types::FromSql<'a>> Get for T {
    fn lite(r: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<Self> {
        r.get(i)
    }
    fn pg(r: &postgres::Row, i: usize) -> std::result::Result<Self, postgres::Error> {
        r.try_get(i)
    }
}

#[cfg(not(feature = "postgres"))]
impl<T: rusqlite::types::FromSql> Get for T {
    fn lite(r: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<Self> {
        r.get(i)
    }
}

/// A row of either store, read by column index.
pub(super) struct Row<'r> {
    path: &'r Path,
    of: RowOf<'r>,
}

enum RowOf<'r> {
    Lite(&'r rusqlite::Row<'r>),
    #[cfg(feature = "postgres")]
    Pg(&'r postgres::Row),
}

impl Row<'_> {
    /// Column `i`, as the store's client converts it.
    pub(super) fn get<T: Get>(&self, i: usize) -> Result<T> {
        match self.of {
            RowOf::Lite(r) => T::lite(r, i).map_err(|e| super::sqlite(self.path, e)),
            #[cfg(feature = "postgres")]
            RowOf::Pg(r) => T::pg(r, i).map_err(|e| pg_error(self.path, e)),
        }
    }

    /// Column `i`, an unsigned number: as rusqlite converts it on SQLite; from the `bigint`
    /// PostgreSQL stores it as, out of range an error naming `what`.
    #[cfg_attr(not(feature = "postgres"), allow(unused_variables))]
    pub(super) fn unsigned<T>(&self, i: usize, what: &str) -> Result<T>
    where
        T: rusqlite::types::FromSql + TryFrom<i64>,
    {
        match self.of {
            RowOf::Lite(r) => r.get(i).map_err(|e| super::sqlite(self.path, e)),
            #[cfg(feature = "postgres")]
            RowOf::Pg(_) => unsigned(self.path, what, self.get(i)?),
        }
    }

    /// [`Row::unsigned`] for a column that may be NULL.
    #[cfg_attr(not(feature = "postgres"), allow(unused_variables))]
    pub(super) fn unsigned_opt<T>(&self, i: usize, what: &str) -> Result<Option<T>>
    where
        T: rusqlite::types::FromSql + TryFrom<i64>,
    {
        match self.of {
            RowOf::Lite(r) => r.get(i).map_err(|e| super::sqlite(self.path, e)),
            #[cfg(feature = "postgres")]
            RowOf::Pg(_) => self
                .get::<Option<i64>>(i)?
                .map(|v| unsigned(self.path, what, v))
                .transpose(),
        }
    }
}

/// A count or id read from a `bigint` column, as the unsigned type the model holds.
#[cfg(feature = "postgres")]
pub(super) fn unsigned<T: TryFrom<i64>>(path: &Path, what: &str, v: i64) -> Result<T> {
    T::try_from(v).map_err(|_| crate::error::Error::Ledger {
        path: path.to_path_buf(),
        message: format!(
            "{what} holds {v}, which is out of range: the row was edited behind \
                          benchledger's back"
        ),
    })
}

/// What the PostgreSQL store's connections and transactions offer the layer (an object-safe
/// face of [`postgres::GenericClient`]).
#[cfg(feature = "postgres")]
pub(super) trait PgConn {
    fn query(
        &mut self,
        sql: &str,
        params: &[&(dyn postgres::types::ToSql + Sync)],
    ) -> std::result::Result<Vec<postgres::Row>, postgres::Error>;
    fn execute(
        &mut self,
        sql: &str,
        params: &[&(dyn postgres::types::ToSql + Sync)],
    ) -> std::result::Result<u64, postgres::Error>;
    fn copy_in(
        &mut self,
        sql: &str,
    ) -> std::result::Result<postgres::CopyInWriter<'_>, postgres::Error>;
}

#[cfg(feature = "postgres")]
impl<C: postgres::GenericClient> PgConn for C {
    fn query(
        &mut self,
        sql: &str,
        params: &[&(dyn postgres::types::ToSql + Sync)],
    ) -> std::result::Result<Vec<postgres::Row>, postgres::Error> {
        postgres::GenericClient::query(self, sql, params)
    }
    fn execute(
        &mut self,
        sql: &str,
        params: &[&(dyn postgres::types::ToSql + Sync)],
    ) -> std::result::Result<u64, postgres::Error> {
        postgres::GenericClient::execute(self, sql, params)
    }
    fn copy_in(
        &mut self,
        sql: &str,
    ) -> std::result::Result<postgres::CopyInWriter<'_>, postgres::Error> {
        postgres::GenericClient::copy_in(self, sql)
    }
}

/// A connection, or a transaction, of either store.
pub(super) struct Sql<'a> {
    path: &'a Path,
    conn: Conn<'a>,
}

enum Conn<'a> {
    Lite(&'a rusqlite::Connection),
    #[cfg(feature = "postgres")]
    Pg(&'a mut (dyn PgConn + 'a)),
}

impl<'a> Sql<'a> {
    /// An SQLite connection (or a transaction: it derefs to its connection).
    pub(super) fn lite(conn: &'a rusqlite::Connection, path: &'a Path) -> Sql<'a> {
        Sql {
            path,
            conn: Conn::Lite(conn),
        }
    }

    /// A PostgreSQL connection or transaction.
    #[cfg(feature = "postgres")]
    pub(super) fn pg(conn: &'a mut (dyn PgConn + 'a), path: &'a Path) -> Sql<'a> {
        Sql {
            path,
            conn: Conn::Pg(conn),
        }
    }

    /// Where the ledger is, as messages name it.
    pub(super) fn path(&self) -> &'a Path {
        self.path
    }

    /// The PostgreSQL connection, for what only that store does (its bulk loads).
    #[cfg(feature = "postgres")]
    pub(super) fn as_pg(&mut self) -> Option<&mut (dyn PgConn + 'a)> {
        match &mut self.conn {
            Conn::Lite(_) => None,
            Conn::Pg(c) => Some(&mut **c),
        }
    }

    /// The SQLite connection, for what only that store does.
    pub(super) fn as_lite(&self) -> Option<&'a rusqlite::Connection> {
        match self.conn {
            Conn::Lite(c) => Some(c),
            #[cfg(feature = "postgres")]
            Conn::Pg(_) => None,
        }
    }

    /// Runs a query and converts each row with `f`.
    pub(super) fn rows<T>(
        &mut self,
        sql: &str,
        params: &[Value<'_>],
        f: impl FnMut(&Row<'_>) -> Result<T>,
    ) -> Result<Vec<T>> {
        self.each(sql, params, usize::MAX, f)
    }

    /// Runs a query and converts each of its first `most` rows with `f`.
    fn each<T>(
        &mut self,
        sql: &str,
        params: &[Value<'_>],
        most: usize,
        mut f: impl FnMut(&Row<'_>) -> Result<T>,
    ) -> Result<Vec<T>> {
        let path = self.path;
        match &mut self.conn {
            Conn::Lite(conn) => {
                let err = |e| super::sqlite(path, e);
                let mut stmt = conn.prepare_cached(sql).map_err(err)?;
                let mut rows = stmt
                    .query(rusqlite::params_from_iter(params))
                    .map_err(err)?;
                let mut out = Vec::new();
                while out.len() < most
                    && let Some(r) = rows.next().map_err(err)?
                {
                    out.push(f(&Row {
                        path,
                        of: RowOf::Lite(r),
                    })?);
                }
                Ok(out)
            }
            #[cfg(feature = "postgres")]
            Conn::Pg(conn) => {
                let params: Vec<&(dyn postgres::types::ToSql + Sync)> = params
                    .iter()
                    .map(|v| v as &(dyn postgres::types::ToSql + Sync))
                    .collect();
                let rows = conn
                    .query(&dollars(sql), &params)
                    .map_err(|e| pg_error(path, e))?;
                rows.iter()
                    .take(most)
                    .map(|r| {
                        f(&Row {
                            path,
                            of: RowOf::Pg(r),
                        })
                    })
                    .collect()
            }
        }
    }

    /// Runs a query for at most one row (its first) and converts it.
    pub(super) fn row<T>(
        &mut self,
        sql: &str,
        params: &[Value<'_>],
        f: impl FnOnce(&Row<'_>) -> Result<T>,
    ) -> Result<Option<T>> {
        let mut f = Some(f);
        let out = self.each(sql, params, 1, |r| match f.take() {
            Some(f) => f(r).map(Some),
            None => Ok(None),
        })?;
        Ok(out.into_iter().next().flatten())
    }

    /// The first column of the one row a query gives (a count, a flag, an id to come).
    pub(super) fn value<T: Get>(&mut self, sql: &str, params: &[Value<'_>]) -> Result<T> {
        self.one(sql, params, |r| r.get(0))
    }

    /// Runs a query for its first row, which must be there (an aggregate, a row just read or
    /// written): none is an error, in each store's client's words.
    pub(super) fn one<T>(
        &mut self,
        sql: &str,
        params: &[Value<'_>],
        f: impl FnOnce(&Row<'_>) -> Result<T>,
    ) -> Result<T> {
        match self.row(sql, params, f)? {
            Some(v) => Ok(v),
            None => Err(self.no_rows()),
        }
    }

    /// Runs a query for the row `what` `id`, found a moment ago: gone now, only an edit behind
    /// benchledger's back does that, which SQLite's client reports in its words and the server
    /// store by name.
    pub(super) fn found<T>(
        &mut self,
        sql: &str,
        params: &[Value<'_>],
        f: impl FnOnce(&Row<'_>) -> Result<T>,
        (what, id): (&str, i64),
    ) -> Result<T> {
        match self.row(sql, params, f)? {
            Some(v) => Ok(v),
            #[cfg(feature = "postgres")]
            None if matches!(self.conn, Conn::Pg(_)) => Err(crate::error::Error::Ledger {
                path: self.path.to_path_buf(),
                message: format!(
                    "{what} row {id} disappeared while it was read: it was deleted behind \
                     benchledger's back"
                ),
            }),
            None => {
                let _ = (what, id);
                Err(self.no_rows())
            }
        }
    }

    /// A query that gave no row where one is certain (an aggregate): as each store's client
    /// says it.
    fn no_rows(&self) -> crate::error::Error {
        match self.conn {
            Conn::Lite(_) => super::sqlite(self.path, rusqlite::Error::QueryReturnedNoRows),
            #[cfg(feature = "postgres")]
            Conn::Pg(_) => crate::error::Error::Ledger {
                path: self.path.to_path_buf(),
                message: "PostgreSQL: query returned an unexpected number of rows".into(),
            },
        }
    }

    /// Runs a statement; returns how many rows it changed.
    pub(super) fn execute(&mut self, sql: &str, params: &[Value<'_>]) -> Result<usize> {
        let path = self.path;
        match &mut self.conn {
            Conn::Lite(conn) => conn
                .prepare_cached(sql)
                .and_then(|mut s| s.execute(rusqlite::params_from_iter(params)))
                .map_err(|e| super::sqlite(path, e)),
            #[cfg(feature = "postgres")]
            Conn::Pg(conn) => {
                let params: Vec<&(dyn postgres::types::ToSql + Sync)> = params
                    .iter()
                    .map(|v| v as &(dyn postgres::types::ToSql + Sync))
                    .collect();
                conn.execute(&dollars(sql), &params)
                    .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
                    .map_err(|e| pg_error(path, e))
            }
        }
    }

    /// The id the next row of `table` gets: the largest so far plus one, as on both stores
    /// (read under the write lock).
    pub(super) fn next_id(&mut self, table: &str) -> Result<i64> {
        self.value(
            &format!("SELECT coalesce(max(id), 0) + 1 FROM {table}"),
            &[],
        )
    }
}

/// `sql` with SQLite's numbered placeholders `?N` written as PostgreSQL's `$N`.
#[cfg(feature = "postgres")]
pub(super) fn dollars(sql: &str) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    let b = sql.as_bytes();
    if !b.windows(2).any(|w| w[0] == b'?' && w[1].is_ascii_digit()) {
        return Cow::Borrowed(sql);
    }
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '?' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('$');
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A PostgreSQL error on the ledger at `path`: [`crate::error::Error::Unavailable`] when the
/// cause is the ledger's surroundings (the server unreachable or shutting down, a full or
/// failing disk, a role or a server that may not write, a conflict with another transaction),
/// else [`crate::error::Error::Ledger`] with the server's words.
#[cfg(feature = "postgres")]
pub(super) fn pg_error(path: &Path, e: postgres::Error) -> crate::error::Error {
    use crate::error::{Cause, Error};
    use postgres::error::SqlState;
    let unavailable = |cause: Cause, why: &str| Error::Unavailable {
        path: path.to_path_buf(),
        cause,
        message: format!("could not complete ({}): {why}", pg_words(&e)),
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
            Error::Ledger {
                path: path.to_path_buf(),
                message: format!("PostgreSQL: {}", pg_words(&e)),
            }
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
             transaction, or a role without the privilege); nothing was written. Commands \
             that only read the ledger still work",
        )
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
            "the ledger is busy: another process kept its lock past the wait (--wait); \
             nothing was written. Run the command again when the other writer is done, or \
             give --wait more seconds",
        )
    } else {
        Error::Ledger {
            path: path.to_path_buf(),
            message: format!("PostgreSQL: {}", pg_words(&e)),
        }
    }
}

/// What the server said (its message, detail and code), or the client's own error.
#[cfg(feature = "postgres")]
pub(super) fn pg_words(e: &postgres::Error) -> String {
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

#[cfg(test)]
mod tests {
    #[cfg(feature = "postgres")]
    #[test]
    fn placeholders_are_numbered_in_each_dialect() {
        assert_eq!(
            super::dollars("SELECT a FROM t WHERE b = ?1 AND c IN (?2, ?10) AND d = '?'"),
            "SELECT a FROM t WHERE b = $1 AND c IN ($2, $10) AND d = '?'"
        );
        assert!(matches!(
            super::dollars("SELECT 1"),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
