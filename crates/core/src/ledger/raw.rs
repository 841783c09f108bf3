//! A query stepped through SQLite's C interface, for the one loop where rusqlite's cost per
//! value is a quarter of the work: reading every attempt of the history ([`super::scan`]).
//!
//! rusqlite reads a value with three or four calls into SQLite: the column count (a bounds
//! check), the column's type, and its value (two calls for text), the last ones each entering
//! and leaving the connection's mutex. Rescoring a million attempts reads thirteen million
//! values. A [`RawStatement`] reads each with one call for the column's value object and two
//! plain accessors on it, and checks the column index against a count taken once, when the
//! query is prepared. Measured over a million attempts of fourteen columns, on one core:
//! 0.33 s through rusqlite, 0.23 s here, of which 0.14 s is SQLite stepping the rows.
//!
//! What comes out is rusqlite's own: values as [`ValueRef`], conversions through [`FromSql`]
//! with the errors `Row::get` gives, failures as [`rusqlite::Error`]. Code that reads rows
//! takes any [`Cells`], a rusqlite [`rusqlite::Row`] or a [`RawRow`], so the reading of an
//! attempt is written once.
//!
//! The unsafe code is this module's alone. Its premises: a statement lives no longer than
//! its connection (the `'conn` borrow), is used from one thread (a raw pointer makes it
//! neither `Send` nor `Sync`, and `&Connection` cannot cross threads), and a row's values are
//! read only until the next step (a [`RawRow`] holds the borrow of [`RawStatement::next`], so
//! the statement cannot step while a row or a value from it lives). SQLite calls a
//! value from `sqlite3_column_value` "unprotected": safe to read as long as no other thread
//! uses the connection meanwhile, which the premises above make so.

use std::ffi::{CStr, CString, c_int};
use std::marker::PhantomData;

use rusqlite::Connection;
use rusqlite::ffi;
use rusqlite::types::{FromSql, FromSqlError, ValueRef};

/// A row whose values can be read by column index: a rusqlite row or a [`RawRow`].
pub(super) trait Cells {
    /// The value of column `i`, borrowed from the row.
    fn value(&self, i: usize) -> rusqlite::Result<ValueRef<'_>>;

    /// The value of column `i` converted to `T`, with `Row::get`'s errors.
    fn get<T: FromSql>(&self, i: usize) -> rusqlite::Result<T>;

    /// Column `i` when it holds a number or NULL, for the fast paths of the readers of
    /// counts and reals; [`Number::Other`] for anything else (text, a blob, no such column,
    /// a failure), which the caller reads through [`Cells::get`] for its conversions and
    /// errors.
    #[inline]
    fn number(&self, i: usize) -> Number {
        match self.value(i) {
            Ok(ValueRef::Null) => Number::Null,
            Ok(ValueRef::Integer(n)) => Number::Integer(n),
            Ok(ValueRef::Real(x)) => Number::Real(x),
            _ => Number::Other,
        }
    }

    /// Column `i`'s bytes when it holds text; `None` for anything else, which the caller reads
    /// through [`Cells::get`] for its conversions and errors.
    #[inline]
    fn text(&self, i: usize) -> Option<&[u8]> {
        match self.value(i) {
            Ok(ValueRef::Text(t)) => Some(t),
            _ => None,
        }
    }
}

/// `bytes` as text, when they are UTF-8: as `std::str::from_utf8`, with ASCII (problem ids
/// such as `prob-00042`) recognised a word at a time rather than a byte at a time.
#[inline]
pub(super) fn utf8(bytes: &[u8]) -> Option<&str> {
    if bytes.is_ascii() {
        // SAFETY: ASCII is UTF-8.
        Some(unsafe { std::str::from_utf8_unchecked(bytes) })
    } else {
        std::str::from_utf8(bytes).ok()
    }
}

/// What [`Cells::number`] found in a column.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Number {
    Null,
    Integer(i64),
    Real(f64),
    Other,
}

impl Cells for rusqlite::Row<'_> {
    #[inline]
    fn value(&self, i: usize) -> rusqlite::Result<ValueRef<'_>> {
        self.get_ref(i)
    }

    #[inline]
    fn get<T: FromSql>(&self, i: usize) -> rusqlite::Result<T> {
        rusqlite::Row::get(self, i)
    }
}

/// A prepared statement, stepped row by row through SQLite's C interface.
pub(super) struct RawStatement<'conn> {
    stmt: *mut ffi::sqlite3_stmt,
    db: *mut ffi::sqlite3,
    columns: usize,
    _conn: PhantomData<&'conn Connection>,
}

impl<'conn> RawStatement<'conn> {
    /// Prepares the one statement in `sql` on `conn`.
    pub(super) fn prepare(conn: &'conn Connection, sql: &str) -> rusqlite::Result<Self> {
        let text = CString::new(sql).map_err(rusqlite::Error::NulError)?;
        // SAFETY: the handle is `conn`'s, open for as long as the borrow; `stmt` receives a
        // statement owned from here on by the returned value, or stays null on failure.
        unsafe {
            let db = conn.handle();
            let mut stmt = std::ptr::null_mut();
            let rc =
                ffi::sqlite3_prepare_v2(db, text.as_ptr(), -1, &mut stmt, std::ptr::null_mut());
            if rc != ffi::SQLITE_OK {
                return Err(failure(db, rc));
            }
            if stmt.is_null() {
                return Err(rusqlite::Error::InvalidQuery);
            }
            let columns = usize::try_from(ffi::sqlite3_column_count(stmt)).unwrap_or(0);
            Ok(RawStatement {
                stmt,
                db,
                columns,
                _conn: PhantomData,
            })
        }
    }

    /// Binds the integer `value` to parameter `i` (from 1).
    pub(super) fn bind(&mut self, i: usize, value: i64) -> rusqlite::Result<()> {
        let i = c_int::try_from(i).map_err(|_| rusqlite::Error::InvalidParameterCount(i, 0))?;
        // SAFETY: `stmt` is a live statement, not being stepped by anyone else.
        let rc = unsafe { ffi::sqlite3_bind_int64(self.stmt, i, value) };
        if rc == ffi::SQLITE_OK {
            Ok(())
        } else {
            Err(failure(self.db, rc))
        }
    }

    /// Steps to the next row: `None` when the rows have ended.
    pub(super) fn next(&mut self) -> rusqlite::Result<Option<RawRow<'_>>> {
        // SAFETY: as in `bind`.
        match unsafe { ffi::sqlite3_step(self.stmt) } {
            ffi::SQLITE_ROW => Ok(Some(RawRow { stmt: self })),
            ffi::SQLITE_DONE => Ok(None),
            rc => Err(failure(self.db, rc)),
        }
    }
}

impl Drop for RawStatement<'_> {
    fn drop(&mut self) {
        // SAFETY: the statement is ours and used no more. An error it reports is the last
        // step's, already returned from `next`.
        unsafe {
            ffi::sqlite3_finalize(self.stmt);
        }
    }
}

/// The current row of a [`RawStatement`], until its next step.
pub(super) struct RawRow<'s> {
    stmt: &'s RawStatement<'s>,
}

impl RawRow<'_> {
    fn column_name(&self, i: usize) -> String {
        // SAFETY: `i` is a column of the statement (checked by the caller); SQLite keeps the
        // name until the statement is finalized, and it is copied out here.
        unsafe {
            let name = ffi::sqlite3_column_name(self.stmt.stmt, i as c_int);
            if name.is_null() {
                String::new()
            } else {
                CStr::from_ptr(name).to_string_lossy().into_owned()
            }
        }
    }
}

impl Cells for RawRow<'_> {
    /// Straight from SQLite's value, without building a [`ValueRef`] or a `Result`: the
    /// commonest read of a rescore, several a row (issue 32 item 11).
    #[inline]
    fn number(&self, i: usize) -> Number {
        if i >= self.stmt.columns {
            return Number::Other;
        }
        // SAFETY: the statement stands on a row (a `RawRow` exists only then) and `i` is one of
        // its columns; the value is read before the next step, as for `value`.
        unsafe {
            let v = ffi::sqlite3_column_value(self.stmt.stmt, i as c_int);
            match ffi::sqlite3_value_type(v) {
                ffi::SQLITE_INTEGER => Number::Integer(ffi::sqlite3_value_int64(v)),
                ffi::SQLITE_FLOAT => Number::Real(ffi::sqlite3_value_double(v)),
                ffi::SQLITE_NULL => Number::Null,
                _ => Number::Other,
            }
        }
    }

    /// Straight from SQLite's value, as [`RawRow::number`].
    #[inline]
    fn text(&self, i: usize) -> Option<&[u8]> {
        if i >= self.stmt.columns {
            return None;
        }
        // SAFETY: as in `value`: the statement stands on a row, `i` is one of its columns, and
        // the bytes are borrowed from this row, so read before the next step. The type is read
        // before the text, and the length after the pointer, as SQLite asks.
        unsafe {
            let v = ffi::sqlite3_column_value(self.stmt.stmt, i as c_int);
            if ffi::sqlite3_value_type(v) != ffi::SQLITE_TEXT {
                return None;
            }
            let text = ffi::sqlite3_value_text(v);
            if text.is_null() {
                // Out of memory: `value` reports it.
                return None;
            }
            let len = usize::try_from(ffi::sqlite3_value_bytes(v)).unwrap_or(0);
            Some(std::slice::from_raw_parts(text, len))
        }
    }

    #[inline]
    fn value(&self, i: usize) -> rusqlite::Result<ValueRef<'_>> {
        if i >= self.stmt.columns {
            return Err(rusqlite::Error::InvalidColumnIndex(i));
        }
        // SAFETY: the statement stands on a row (a `RawRow` exists only then) and `i` is one of
        // its columns. The text or blob pointer stays valid until the next step, which needs
        // the statement borrowed mutably, so not while the returned value borrows this row;
        // the type is read before the value, and the length after the pointer, as SQLite asks.
        unsafe {
            let v = ffi::sqlite3_column_value(self.stmt.stmt, i as c_int);
            Ok(match ffi::sqlite3_value_type(v) {
                ffi::SQLITE_INTEGER => ValueRef::Integer(ffi::sqlite3_value_int64(v)),
                ffi::SQLITE_FLOAT => ValueRef::Real(ffi::sqlite3_value_double(v)),
                ffi::SQLITE_TEXT => {
                    let text = ffi::sqlite3_value_text(v);
                    let len = usize::try_from(ffi::sqlite3_value_bytes(v)).unwrap_or(0);
                    if text.is_null() {
                        // Out of memory converting the value: SQLite says so.
                        return Err(failure(self.stmt.db, ffi::SQLITE_NOMEM));
                    }
                    ValueRef::Text(std::slice::from_raw_parts(text, len))
                }
                ffi::SQLITE_BLOB => {
                    let blob = ffi::sqlite3_value_blob(v);
                    let len = usize::try_from(ffi::sqlite3_value_bytes(v)).unwrap_or(0);
                    if blob.is_null() || len == 0 {
                        ValueRef::Blob(&[])
                    } else {
                        ValueRef::Blob(std::slice::from_raw_parts(blob.cast::<u8>(), len))
                    }
                }
                _ => ValueRef::Null,
            })
        }
    }

    fn get<T: FromSql>(&self, i: usize) -> rusqlite::Result<T> {
        let value = self.value(i)?;
        // As `Row::get` maps them.
        T::column_result(value).map_err(|err| match err {
            FromSqlError::InvalidType => {
                rusqlite::Error::InvalidColumnType(i, self.column_name(i), value.data_type())
            }
            FromSqlError::OutOfRange(n) => rusqlite::Error::IntegralValueOutOfRange(i, n),
            FromSqlError::Utf8Error(e) => rusqlite::Error::Utf8Error(i, e),
            FromSqlError::Other(e) => {
                rusqlite::Error::FromSqlConversionFailure(i, value.data_type(), e)
            }
            other => {
                rusqlite::Error::FromSqlConversionFailure(i, value.data_type(), Box::new(other))
            }
        })
    }
}

/// The error SQLite reported with code `rc` on connection `db`.
fn failure(db: *mut ffi::sqlite3, rc: c_int) -> rusqlite::Error {
    // SAFETY: `db` is an open connection; its message is copied before anything else runs on
    // it.
    let message = unsafe {
        let m = ffi::sqlite3_errmsg(db);
        (!m.is_null()).then(|| CStr::from_ptr(m).to_string_lossy().into_owned())
    };
    rusqlite::Error::SqliteFailure(ffi::Error::new(rc), message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conn() -> Connection {
        let c = Connection::open_in_memory().unwrap();
        c.execute_batch(
            "CREATE TABLE t(i INTEGER, x REAL, s TEXT, b BLOB, n INTEGER);
             INSERT INTO t VALUES (-7, 0.25, 'pröblem', x'00ff', NULL);
             INSERT INTO t VALUES (9223372036854775807, -1e300, '', x'', NULL);
             INSERT INTO t VALUES (3, 2.5, 'x', NULL, 5000000000);",
        )
        .unwrap();
        c
    }

    const SQL: &str = "SELECT i, x, s, b, n FROM t WHERE rowid BETWEEN ?1 AND ?2 ORDER BY rowid";

    /// What `read` makes of each row of `SQL`, through a raw statement and through rusqlite.
    fn both(c: &Connection, read: fn(&dyn CellsDyn) -> String) -> (Vec<String>, Vec<String>) {
        let mut ours = Vec::new();
        let mut raw = RawStatement::prepare(c, SQL).unwrap();
        raw.bind(1, 1).unwrap();
        raw.bind(2, 3).unwrap();
        while let Some(r) = raw.next().unwrap() {
            ours.push(read(&r));
        }
        let mut theirs = Vec::new();
        let mut stmt = c.prepare(SQL).unwrap();
        let mut rows = stmt.query([1, 3]).unwrap();
        while let Some(r) = rows.next().unwrap() {
            theirs.push(read(r));
        }
        (ours, theirs)
    }

    /// The reads the tests make, callable on either kind of row.
    trait CellsDyn {
        fn values(&self) -> String;
        fn conversions(&self) -> String;
    }

    impl<C: Cells> CellsDyn for C {
        fn values(&self) -> String {
            (0..6)
                .map(|i| format!("{:?} {:?}; ", self.value(i), self.text(i)))
                .collect()
        }

        fn conversions(&self) -> String {
            format!(
                "{:?} {:?} {:?} {:?} {:?} {:?}",
                self.get::<u32>(0),
                self.get::<i64>(0),
                self.get::<f64>(1),
                self.get::<i64>(2),
                self.get::<Option<String>>(2),
                self.get::<Option<u32>>(4),
            )
        }
    }

    #[test]
    fn values_are_rusqlites() {
        let (ours, theirs) = both(&conn(), |r| r.values());
        assert_eq!(ours, theirs);
        let all = ours.concat();
        // Every type is there, and the index past the last column is refused.
        for seen in [
            "Integer(-7)",
            "Real(0.25)",
            "Text([112, 114, 195, 182",
            "Blob([0, 255])",
            "Blob([])",
            "Null",
            "InvalidColumnIndex(5)",
        ] {
            assert!(all.contains(seen), "{seen} not in {all}");
        }
    }

    /// Conversions through `get`, failing ones included, as `Row::get` gives them.
    #[test]
    fn conversions_and_their_errors_are_rusqlites() {
        let (ours, theirs) = both(&conn(), |r| r.conversions());
        assert_eq!(ours, theirs);
        let all = ours.concat();
        for seen in [
            "Ok(-7)",
            "InvalidColumnType(2, \"s\"",
            "IntegralValueOutOfRange(0",
            "IntegralValueOutOfRange(4",
        ] {
            assert!(all.contains(seen), "{seen} not in {all}");
        }
    }

    /// Text as `from_utf8` reads it, the ASCII shortcut included.
    #[test]
    fn text_is_utf8_as_std_reads_it() {
        for bytes in [
            &b""[..],
            b"prob-00042",
            b"a problem id longer than two words of eight",
            "pr\u{f6}blem".as_bytes(),
            b"\xff\xfe",
            b"ascii then \xc3",
        ] {
            assert_eq!(utf8(bytes), std::str::from_utf8(bytes).ok(), "{bytes:?}");
        }
        let (ours, _) = both(&conn(), |r| r.values());
        assert!(ours[0].contains("Some([112, 114, 195, 182"), "{}", ours[0]);
    }

    #[test]
    fn sqlite_errors_come_back_with_their_message() {
        let c = conn();
        let Err(e) = RawStatement::prepare(&c, "SELECT nope FROM t") else {
            panic!("a query naming no column was prepared");
        };
        assert!(e.to_string().contains("no such column: nope"), "{e}");
        // An error while stepping, at the first row.
        let mut raw = RawStatement::prepare(&c, "SELECT json(s) FROM t ORDER BY rowid").unwrap();
        match raw.next() {
            Err(e) => assert!(e.to_string().contains("malformed JSON"), "{e}"),
            Ok(_) => panic!("text that is not JSON was read as JSON"),
        }
    }
}
