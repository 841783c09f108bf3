//! Registering versioned texts: rubrics and price tables are both `name@version` with a SHA-256
//! and the verbatim text, registered once and immutable after (the schema's triggers refuse any
//! change). One registration rule serves both: a version already registered with the same text
//! is left as it is, with other text it is refused, and a call registers all its rows or none.

use super::Ledger;
use super::sql::{Sql, Value, values};
use crate::error::{Error, Result};
use crate::model::{LogKind, NewLogEntry};

/// A row of a table of registered texts.
pub(super) trait Registered: Sized {
    /// The table, and its columns as the row is read and written (name and version first).
    const TABLE: &'static str;
    const COLUMNS: &'static str;
    /// What the row is called in messages, before its `name@version`: `"price table "`, or
    /// nothing for a rubric.
    const WHAT: &'static str;
    /// The kind of the log entry its registration appends.
    const KIND: LogKind;
    fn name(&self) -> &str;
    fn version(&self) -> u32;
    fn sha256(&self) -> &str;
    fn added_at(&self) -> &str;
    /// The row's values, in the order of [`Registered::COLUMNS`].
    fn values(&self) -> Vec<Value<'_>>;

    /// The refusal of this row, when its version is registered with the text hashed `there`
    /// (on either store).
    fn conflict(&self, there: &str) -> Error {
        Error::Conflict(format!(
            "{}{}@{} is already registered with different text (sha256 {} there, {} here). A \
             registered version is immutable: bump `version` in the file to register the \
             change. Nothing was registered",
            Self::WHAT,
            self.name(),
            self.version(),
            crate::digest::short(there),
            crate::digest::short(self.sha256())
        ))
    }
}

impl Ledger {
    /// Registers `rows` in one transaction: all of them, or (on any conflict) none. Returns,
    /// for each, whether it was added (`false`: already registered, same text). Each row added
    /// appends its entry to the log, in the same transaction.
    pub(super) fn register<R: Registered>(&mut self, rows: &[R]) -> Result<Vec<bool>> {
        let logging = self.logging();
        self.write(|sql| {
            rows.iter()
                .map(|row| register_in(sql, logging, row))
                .collect()
        })
    }
}

/// Registers `row` inside a write transaction already open: whether it was added (`false`:
/// already registered, same text); a conflict is an error, and the caller's transaction rolls
/// back. A new row's id is the largest so far plus one, read under the write lock; its log
/// entry is appended in the same transaction.
pub(super) fn register_in<R: Registered>(
    sql: &mut Sql<'_>,
    logging: bool,
    row: &R,
) -> Result<bool> {
    let there: Option<String> = sql.row(
        &format!(
            "SELECT sha256 FROM {} WHERE name = ?1 AND version = ?2",
            R::TABLE
        ),
        &values![row.name(), row.version()],
        |r| r.get(0),
    )?;
    if let Some(there) = there {
        if there == row.sha256() {
            return Ok(false);
        }
        return Err(row.conflict(&there));
    }
    let values = row.values();
    let slots: Vec<String> = (1..=values.len()).map(|i| format!("?{i}")).collect();
    sql.execute(
        &format!(
            "INSERT INTO {table}(id, {}) VALUES ((SELECT coalesce(max(id), 0) + 1 \
             FROM {table}), {})",
            R::COLUMNS,
            slots.join(", "),
            table = R::TABLE,
        ),
        &values,
    )?;
    let entry = NewLogEntry {
        kind: R::KIND,
        subject: row.name().to_string(),
        version: row.version(),
        subject_sha256: row.sha256().to_string(),
        created_at: row.added_at().to_string(),
    };
    super::log::append_at_head(sql, logging, &entry)?;
    Ok(true)
}
