//! Registered price tables: `name@version` with its SHA-256 and verbatim text (docs/prices.md).
//! A version is immutable, as a rubric's is; the schema's triggers refuse any change to a
//! registered text.

use super::Ledger;
use super::registered::Registered;
use super::sql::{Row, Value, values};
use crate::error::Result;
use crate::model::{LogKind, PriceTableRow};

/// What `prices add` did with one table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PricesAdded {
    Added,
    /// The same name@version with the same text was already registered.
    AlreadyPresent,
}

const COLUMNS: &str = "name, version, sha256, text, added_at";

fn from_row(r: &Row<'_>) -> Result<PriceTableRow> {
    Ok(PriceTableRow {
        name: r.get(0)?,
        version: r.unsigned(1, "price_table.version")?,
        sha256: r.get(2)?,
        text: r.get(3)?,
        added_at: r.get(4)?,
    })
}

impl Ledger {
    /// Registers price tables in one transaction: all of them, or (on any conflict) none. The
    /// same name@version with different text is refused.
    pub fn add_price_tables(&mut self, rows: &[PriceTableRow]) -> Result<Vec<PricesAdded>> {
        Ok(self
            .register(rows)?
            .into_iter()
            .map(|added| {
                if added {
                    PricesAdded::Added
                } else {
                    PricesAdded::AlreadyPresent
                }
            })
            .collect())
    }

    /// The registered price table `name@version`, if there is one.
    pub fn price_table(&self, name: &str, version: u32) -> Result<Option<PriceTableRow>> {
        self.read(|sql| {
            sql.row(
                &format!("SELECT {COLUMNS} FROM price_table WHERE name = ?1 AND version = ?2"),
                &values![name, version],
                from_row,
            )
        })
    }

    /// Every registered price table, by name then version.
    pub fn price_tables(&self) -> Result<Vec<PriceTableRow>> {
        self.read(|sql| {
            sql.rows(
                &format!("SELECT {COLUMNS} FROM price_table ORDER BY name, version"),
                &[],
                from_row,
            )
        })
    }
}

impl Registered for PriceTableRow {
    const TABLE: &'static str = "price_table";
    const COLUMNS: &'static str = COLUMNS;
    const KIND: LogKind = LogKind::PriceTable;
    const WHAT: &'static str = "price table ";
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
            &self.added_at
        ]
        .to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    fn row(version: u32, text: &str) -> PriceTableRow {
        PriceTableRow {
            name: "list".into(),
            version,
            sha256: crate::digest::sha256_hex(text.as_bytes()),
            text: text.into(),
            added_at: "2026-03-01T00:00:00Z".into(),
        }
    }

    #[test]
    fn a_version_is_registered_once_and_never_changed() {
        let mut l = Ledger::in_memory().unwrap();
        let a = row(1, "a");
        assert_eq!(
            l.add_price_tables(std::slice::from_ref(&a)).unwrap(),
            vec![PricesAdded::Added]
        );
        assert_eq!(
            l.add_price_tables(std::slice::from_ref(&a)).unwrap(),
            vec![PricesAdded::AlreadyPresent]
        );
        // Different text under the same version: refused, and the batch with it left out whole.
        let e = l
            .add_price_tables(&[row(2, "b"), row(1, "changed")])
            .unwrap_err();
        assert!(matches!(e, Error::Conflict(_)), "{e}");
        assert_eq!(l.price_tables().unwrap(), vec![a.clone()]);
        assert_eq!(l.price_table("list", 1).unwrap(), Some(a));
        assert_eq!(l.price_table("list", 2).unwrap(), None);
        // The triggers refuse an edit or a deletion.
        for sql in [
            "UPDATE price_table SET text = 'x'",
            "DELETE FROM price_table",
        ] {
            let e = l.conn().execute_batch(sql).unwrap_err().to_string();
            assert!(e.contains("price table version is immutable"), "{e}");
        }
        // A hash that is not 64 lower-case hex digits is refused by the schema.
        let mut bad = row(3, "c");
        bad.sha256 = bad.sha256.to_uppercase();
        assert!(l.add_price_tables(&[bad]).is_err());
    }
}
