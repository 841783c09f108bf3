//! Registered rubrics: `name@version` with its SHA-256 and verbatim text. A version is
//! immutable; the schema's triggers refuse any change to a registered text.

use super::Ledger;
use super::registered::Registered;
use super::sql::{Row, Value, values};
use crate::error::Result;
use crate::model::{LogKind, RubricRow};

/// What `rubric add` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RubricAdded {
    Added,
    /// The same name@version with the same text was already registered.
    AlreadyPresent,
}

const COLUMNS: &str = "name, version, sha256, text, scale_violation, added_at";

/// A rubric row: the columns [`COLUMNS`] (or the same, named from a join) of `r`.
pub(super) fn from_row(r: &Row<'_>) -> Result<RubricRow> {
    Ok(RubricRow {
        name: r.get(0)?,
        version: r.unsigned(1, "rubric.version")?,
        sha256: r.get(2)?,
        text: r.get(3)?,
        scale_violation: r.get(4)?,
        added_at: r.get(5)?,
    })
}

impl Ledger {
    /// Registers a rubric version. The same name@version with different text is refused.
    pub(crate) fn add_rubric(&mut self, row: &RubricRow) -> Result<RubricAdded> {
        Ok(self.add_rubrics(std::slice::from_ref(row))?[0])
    }

    /// Registers rubric versions in one transaction: all of them, or (on any conflict) none.
    pub fn add_rubrics(&mut self, rows: &[RubricRow]) -> Result<Vec<RubricAdded>> {
        Ok(self
            .register(rows)?
            .into_iter()
            .map(|added| {
                if added {
                    RubricAdded::Added
                } else {
                    RubricAdded::AlreadyPresent
                }
            })
            .collect())
    }

    pub fn rubric(&self, name: &str, version: u32) -> Result<Option<RubricRow>> {
        self.read(|sql| {
            sql.row(
                &format!("SELECT {COLUMNS} FROM rubric WHERE name = ?1 AND version = ?2"),
                &values![name, version],
                from_row,
            )
        })
    }

    pub(crate) fn rubric_by_sha256(&self, sha256: &str) -> Result<Option<RubricRow>> {
        self.read(|sql| {
            sql.row(
                &format!("SELECT {COLUMNS} FROM rubric WHERE sha256 = ?1"),
                &values![sha256],
                from_row,
            )
        })
    }

    /// Every registered rubric, by name then version.
    pub fn rubrics(&self) -> Result<Vec<RubricRow>> {
        self.read(|sql| {
            sql.rows(
                &format!("SELECT {COLUMNS} FROM rubric ORDER BY name, version"),
                &[],
                from_row,
            )
        })
    }
}

impl Registered for RubricRow {
    const TABLE: &'static str = "rubric";
    const COLUMNS: &'static str = COLUMNS;
    const KIND: LogKind = LogKind::Rubric;
    const WHAT: &'static str = "";
    fn name(&self) -> &str {
        &self.name
    }
    fn version(&self) -> u32 {
        self.version
    }
    fn sha256(&self) -> &str {
        &self.sha256
    }
    fn added_at(&self) -> &str {
        &self.added_at
    }
    fn values(&self) -> Vec<Value<'_>> {
        values![
            &self.name,
            self.version,
            &self.sha256,
            &self.text,
            self.scale_violation,
            &self.added_at,
        ]
        .to_vec()
    }
}
