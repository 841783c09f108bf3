//! One query layer over both stores, so that a query both stores run is written once.
//!
//! A [`Sql`] is a connection (or a transaction on one) of either store: it runs a statement
//! written once, in SQLite's dialect with `?N` placeholders (rewritten to `$N` for PostgreSQL),
//! with parameters of one type ([`Value`]), and hands each row to the caller as a [`Row`] read
//! by column index. A value comes out in SQLite's kinds (a flag as 0 or 1) and is converted as
//! rusqlite converts it, and a failure is mapped to the ledger's errors as each store's are
//! (`super::sqlite`, the server's in `pg/`): the same words as when each store had its own copy
//! of the query. The server store is reached through [`Server`], a face written in this
//! layer's terms: nothing here knows the server's client crate (`pg/conn.rs` does).
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

/// A value a [`Row`] can give: any type rusqlite converts a value to (integers, reals, text,
/// flags, each optional), on either store. Unsigned numbers go through [`Row::unsigned`].
pub(super) trait Get: rusqlite::types::FromSql {}

impl<T: rusqlite::types::FromSql> Get for T {}

/// A connection or transaction of the server store, as this layer uses it (`pg/conn.rs` makes
/// one of the server's client): statements in SQLite's dialect, parameters as [`Value`]s,
/// rows as [`ServerRow`]s, failures already in the ledger's words.
#[cfg(feature = "postgres")]
pub(super) trait Server {
    /// Runs a query and calls `f` with each of its first `most` rows.
    fn each(
        &mut self,
        path: &Path,
        sql: &str,
        params: &[Value<'_>],
        most: usize,
        f: &mut dyn FnMut(&dyn ServerRow) -> Result<()>,
    ) -> Result<()>;

    /// Runs a query and calls `f` with each of its rows, holding a bounded number of them at
    /// a time where it can (a transaction's cursor).
    fn stream(
        &mut self,
        path: &Path,
        sql: &str,
        params: &[Value<'_>],
        f: &mut dyn FnMut(&dyn ServerRow) -> Result<()>,
    ) -> Result<()>;

    /// Runs a statement; returns how many rows it changed.
    fn execute(&mut self, path: &Path, sql: &str, params: &[Value<'_>]) -> Result<usize>;

    /// A writer of `table`'s rows, `columns` in that order, through the server's bulk load.
    fn copy_in<'s>(
        &'s mut self,
        path: &'s Path,
        table: &str,
        columns: &[String],
    ) -> Result<Box<dyn TableSink + 's>>;
}

/// A row of the server store.
#[cfg(feature = "postgres")]
pub(super) trait ServerRow {
    /// Column `i`, in SQLite's kinds (a flag as the integer 0 or 1).
    fn value(&self, path: &Path, i: usize) -> Result<rusqlite::types::ValueRef<'_>>;
}

/// A row of either store, read by column index.
pub(super) struct Row<'r> {
    path: &'r Path,
    of: RowOf<'r>,
}

enum RowOf<'r> {
    Lite(&'r rusqlite::Row<'r>),
    #[cfg(feature = "postgres")]
    Server(&'r dyn ServerRow),
}

impl<'r> Row<'r> {
    /// The ledger the row was read from, as messages name it.
    pub(super) fn path(&self) -> &'r Path {
        self.path
    }

    /// Column `i`, converted as rusqlite converts it.
    pub(super) fn get<T: Get>(&self, i: usize) -> Result<T> {
        match self.of {
            RowOf::Lite(r) => r.get(i).map_err(|e| super::sqlite(self.path, e)),
            #[cfg(feature = "postgres")]
            RowOf::Server(r) => {
                T::column_result(r.value(self.path, i)?).map_err(|e| crate::error::Error::Ledger {
                    path: self.path.to_path_buf(),
                    message: format!("PostgreSQL: error deserializing column {i}: {e}"),
                })
            }
        }
    }

    /// Column `i`, an unsigned number: as rusqlite converts it on SQLite; from the `bigint`
    /// PostgreSQL stores it as, out of range an error naming `what`.
    pub(super) fn unsigned<T>(&self, i: usize, what: &str) -> Result<T>
    where
        T: rusqlite::types::FromSql + TryFrom<i64>,
    {
        match self.of {
            RowOf::Lite(_) => unsigned(self.path, what, self.get(i)?),
            #[cfg(feature = "postgres")]
            RowOf::Server(_) => unsigned(self.path, what, self.get(i)?),
        }
    }

    /// [`Row::unsigned`] for a column that may be NULL.
    pub(super) fn unsigned_opt<T>(&self, i: usize, what: &str) -> Result<Option<T>>
    where
        T: rusqlite::types::FromSql + TryFrom<i64>,
    {
        match self.of {
            RowOf::Lite(_) => self
                .get::<Option<i64>>(i)?
                .map(|v| unsigned(self.path, what, v))
                .transpose(),
            #[cfg(feature = "postgres")]
            RowOf::Server(_) => self
                .get::<Option<i64>>(i)?
                .map(|v| unsigned(self.path, what, v))
                .transpose(),
        }
    }
}

/// A row read as SQLite's, for the code that reads attempts (`waves.rs`): on the server, its
/// values in SQLite's kinds, converted as rusqlite converts them.
impl super::raw::Cells for Row<'_> {
    #[inline]
    fn value(&self, i: usize) -> rusqlite::Result<rusqlite::types::ValueRef<'_>> {
        match self.of {
            RowOf::Lite(r) => r.get_ref(i),
            #[cfg(feature = "postgres")]
            RowOf::Server(r) => r.value(self.path, i).map_err(|e| {
                rusqlite::Error::FromSqlConversionFailure(
                    i,
                    rusqlite::types::Type::Null,
                    Box::new(std::io::Error::other(e.to_string())),
                )
            }),
        }
    }

    #[inline]
    fn get<T: rusqlite::types::FromSql>(&self, i: usize) -> rusqlite::Result<T> {
        match self.of {
            RowOf::Lite(r) => r.get(i),
            #[cfg(feature = "postgres")]
            RowOf::Server(_) => {
                let v = self.value(i)?;
                T::column_result(v).map_err(|e| match e {
                    rusqlite::types::FromSqlError::OutOfRange(n) => {
                        rusqlite::Error::IntegralValueOutOfRange(i, n)
                    }
                    e => rusqlite::Error::FromSqlConversionFailure(i, v.data_type(), Box::new(e)),
                })
            }
        }
    }
}

/// A count or id read from an integer column, as the unsigned type the model holds: out of
/// range (a negative count edited in with the store's CHECKs off), an error naming the column.
pub(super) fn unsigned<T: TryFrom<i64>>(path: &Path, what: &str, v: i64) -> Result<T> {
    T::try_from(v).map_err(|_| crate::error::Error::Ledger {
        path: path.to_path_buf(),
        message: format!(
            "{what} holds {v}, which is out of range: the row was edited behind \
                          benchledger's back"
        ),
    })
}

/// A connection, or a transaction, of either store.
pub(super) struct Sql<'a> {
    path: &'a Path,
    conn: Conn<'a>,
}

enum Conn<'a> {
    Lite(&'a rusqlite::Connection),
    #[cfg(feature = "postgres")]
    Server(&'a mut (dyn Server + 'a)),
}

impl<'a> Sql<'a> {
    /// An SQLite connection (or a transaction: it derefs to its connection).
    pub(super) fn lite(conn: &'a rusqlite::Connection, path: &'a Path) -> Sql<'a> {
        Sql {
            path,
            conn: Conn::Lite(conn),
        }
    }

    /// A connection or transaction of the server store.
    #[cfg(feature = "postgres")]
    pub(super) fn server(conn: &'a mut (dyn Server + 'a), path: &'a Path) -> Sql<'a> {
        Sql {
            path,
            conn: Conn::Server(conn),
        }
    }

    /// Where the ledger is, as messages name it.
    pub(super) fn path(&self) -> &'a Path {
        self.path
    }

    /// The SQLite connection, for what only that store does.
    pub(super) fn as_lite(&self) -> Option<&'a rusqlite::Connection> {
        match self.conn {
            Conn::Lite(c) => Some(c),
            #[cfg(feature = "postgres")]
            Conn::Server(_) => None,
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
            Conn::Server(conn) => {
                let mut out = Vec::new();
                conn.each(path, sql, params, most, &mut |r| {
                    out.push(f(&Row {
                        path,
                        of: RowOf::Server(r),
                    })?);
                    Ok(())
                })?;
                Ok(out)
            }
        }
    }

    /// Runs a query and hands each row to `f` as it is read, holding none (SQLite's rows are
    /// stepped; the server's come through a cursor in a snapshot: [`super::Ledger::snapshot`]).
    pub(super) fn stream(
        &mut self,
        sql: &str,
        params: &[Value<'_>],
        mut f: impl FnMut(&Row<'_>) -> Result<()>,
    ) -> Result<()> {
        let path = self.path;
        match &mut self.conn {
            Conn::Lite(conn) => {
                let err = |e| super::sqlite(path, e);
                let mut stmt = conn.prepare_cached(sql).map_err(err)?;
                let mut rows = stmt
                    .query(rusqlite::params_from_iter(params))
                    .map_err(err)?;
                while let Some(r) = rows.next().map_err(err)? {
                    f(&Row {
                        path,
                        of: RowOf::Lite(r),
                    })?;
                }
                Ok(())
            }
            #[cfg(feature = "postgres")]
            Conn::Server(conn) => conn.stream(path, sql, params, &mut |r| {
                f(&Row {
                    path,
                    of: RowOf::Server(r),
                })
            }),
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
            None if matches!(self.conn, Conn::Server(_)) => Err(crate::error::Error::Ledger {
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
            Conn::Server(_) => crate::error::Error::Ledger {
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
            Conn::Server(conn) => conn.execute(path, sql, params),
        }
    }

    /// A writer of `table`'s rows, `columns` in that order: a prepared insert on SQLite, the
    /// server's bulk load on PostgreSQL.
    pub(super) fn sink(
        &mut self,
        table: &str,
        columns: &[String],
    ) -> Result<Box<dyn TableSink + '_>> {
        let path = self.path;
        match &mut self.conn {
            Conn::Lite(conn) => {
                let marks: Vec<String> = (1..=columns.len()).map(|i| format!("?{i}")).collect();
                let stmt = conn
                    .prepare(&format!(
                        "INSERT INTO {table}({}) VALUES ({})",
                        columns.join(", "),
                        marks.join(", ")
                    ))
                    .map_err(|e| super::sqlite(path, e))?;
                Ok(Box::new(Inserting { stmt, path }))
            }
            #[cfg(feature = "postgres")]
            Conn::Server(conn) => conn.copy_in(path, table, columns),
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

/// Rows of one table going into SQLite through a prepared insert.
struct Inserting<'a> {
    stmt: rusqlite::Statement<'a>,
    path: &'a Path,
}

impl TableSink for Inserting<'_> {
    fn write(&mut self, row: &[Cell]) -> Result<()> {
        self.stmt
            .execute(rusqlite::params_from_iter(row.iter().map(Cell::value)))
            .map(|_| ())
            .map_err(|e| super::sqlite(self.path, e))
    }

    fn finish(self: Box<Self>) -> Result<()> {
        Ok(())
    }
}

/// One value of a row, as both stores can hold it: a flag is an integer 0 or 1, as SQLite keeps
/// it.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::ledger) enum Cell {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
}

impl Cell {
    /// The cell of a value as SQLite holds it (a flag as 0 or 1); an error naming
    /// `table.column` for a blob or text that is not UTF-8, which benchledger never writes.
    pub(in crate::ledger) fn of(
        v: rusqlite::types::ValueRef<'_>,
        path: &Path,
        table: &str,
        column: &str,
    ) -> Result<Cell> {
        let text = |v| {
            std::str::from_utf8(v)
                .ok()
                .map(|s| Cell::Text(s.to_string()))
        };
        match v {
            rusqlite::types::ValueRef::Null => Some(Cell::Null),
            rusqlite::types::ValueRef::Integer(v) => Some(Cell::Int(v)),
            rusqlite::types::ValueRef::Real(v) => Some(Cell::Real(v)),
            rusqlite::types::ValueRef::Text(v) => text(v),
            rusqlite::types::ValueRef::Blob(_) => None,
        }
        .ok_or_else(|| crate::error::Error::Ledger {
            path: path.to_path_buf(),
            message: format!(
                "{table}.{column} holds a blob, which benchledger never writes: the ledger was \
                 edited behind its back"
            ),
        })
    }

    /// The cell as a parameter of a statement.
    pub(in crate::ledger) fn value(&self) -> Value<'_> {
        match self {
            Cell::Null => Value::Null,
            Cell::Int(v) => Value::Int(*v),
            Cell::Real(v) => Value::Real(*v),
            Cell::Text(v) => Value::Text(v),
        }
    }
}

/// Writes one table's rows.
pub(in crate::ledger) trait TableSink {
    fn write(&mut self, row: &[Cell]) -> Result<()>;
    fn finish(self: Box<Self>) -> Result<()>;
}

#[cfg(feature = "postgres")]
/// `sql` with SQLite's numbered placeholders `?N` written as PostgreSQL's `$N`: the one
/// rewriting a statement needs on the server.
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

#[cfg(all(test, feature = "postgres"))]
mod tests {
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
