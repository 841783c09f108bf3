//! The rubrics and price tables a ledger has registered, found by what a user calls them
//! (`NAME@VERSION`), read back from their stored text, with errors that list what is
//! registered. Every face resolves a name the same way.

use std::path::{Path, PathBuf};

use crate::digest::sha256_hex;
use crate::error::{Error, Hint, Result};
use crate::ledger::Ledger;
use crate::model::{PriceTableRow, RubricRow};
use crate::prices::{self, PriceTable};
use crate::rubric::{self, Rubric, RubricInfo};

/// Splits `NAME@VERSION`.
pub fn split_id(spec: &str) -> Option<(&str, u32)> {
    let (name, version) = spec.rsplit_once('@')?;
    Some((name, version.parse().ok()?))
}

/// " (registered: a@1, b@2)", or nothing when none is.
fn registered_list(known: &[String]) -> String {
    if known.is_empty() {
        String::new()
    } else {
        format!(" (registered: {})", known.join(", "))
    }
}

/// A registered rubric's row, or an error listing what is registered.
pub fn rubric_row(ledger: &Ledger, name: &str, version: u32) -> Result<RubricRow> {
    if let Some(row) = ledger.rubric(name, version)? {
        return Ok(row);
    }
    let known: Vec<String> = ledger.rubrics()?.iter().map(RubricRow::id).collect();
    Err(Error::Usage(format!(
        "no rubric {name}@{version} is registered in {}{}",
        ledger.path().display(),
        registered_list(&known)
    ))
    .hinted(Hint::RegisterRubric))
}

/// A registered rubric's stored text, parsed; errors name it and the ledger.
pub fn parse_rubric(ledger: &Ledger, row: &RubricRow) -> Result<Rubric> {
    let origin = PathBuf::from(format!("{} in {}", row.id(), ledger.path().display()));
    rubric::parse(&origin, &row.text)
}

/// The registered rubric `NAME@VERSION`, as a leaderboard takes it.
pub fn rubric_info(ledger: &Ledger, name: &str, version: u32) -> Result<RubricInfo> {
    let row = rubric_row(ledger, name, version)?;
    Ok(RubricInfo {
        rubric: parse_rubric(ledger, &row)?,
        sha256: row.sha256,
        scale_violation: row.scale_violation,
        registered: true,
    })
}

/// A rubric file's text (read from `path`), parsed and checked, as a leaderboard takes it:
/// registered when the ledger holds the same text.
pub fn rubric_info_of_file(ledger: &Ledger, path: &Path, text: &str) -> Result<RubricInfo> {
    let rubric = rubric::parse(path, text)?;
    let report = rubric::check(&rubric);
    let sha256 = sha256_hex(text.as_bytes());
    let registered = ledger.rubric_by_sha256(&sha256)?.is_some();
    Ok(RubricInfo {
        scale_violation: !report.ok(),
        rubric,
        sha256,
        registered,
    })
}

/// The registered price table `spec` names (`NAME@VERSION`), or an error listing what is
/// registered.
pub fn price_table_row(ledger: &Ledger, spec: &str) -> Result<PriceTableRow> {
    let Some((name, version)) = split_id(spec) else {
        return Err(Error::Usage(format!(
            "expected a registered price table as NAME@VERSION, like list-prices@1; got {spec:?}"
        ))
        .hinted(Hint::RegisterPricesFirst));
    };
    if let Some(row) = ledger.price_table(name, version)? {
        return Ok(row);
    }
    let known: Vec<String> = ledger
        .price_tables()?
        .iter()
        .map(PriceTableRow::id)
        .collect();
    Err(Error::Usage(format!(
        "no price table {name}@{version} is registered in {}{}",
        ledger.path().display(),
        registered_list(&known)
    ))
    .hinted(Hint::RegisterPrices))
}

/// A registered price table's stored text, parsed; errors name it and the ledger.
pub fn parse_price_table(ledger: &Ledger, row: &PriceTableRow) -> Result<PriceTable> {
    let origin = PathBuf::from(format!(
        "price table {} in {}",
        row.id(),
        ledger.path().display()
    ));
    prices::parse(&origin, &row.text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The library says what is missing and what is registered; what to do next is a hint for
    /// the face to word, never a command in the message.
    #[test]
    fn an_unregistered_name_is_refused_with_a_hint_and_no_command() {
        let ledger = Ledger::in_memory().unwrap();
        let e = rubric_row(&ledger, "thrift", 2).unwrap_err();
        assert_eq!(e.hint(), Some(&Hint::RegisterRubric));
        assert_eq!(e.exit_code(), 2);
        assert!(
            e.to_string()
                .starts_with("no rubric thrift@2 is registered in "),
            "{e}"
        );
        for e in [
            e,
            price_table_row(&ledger, "list@1").unwrap_err(),
            price_table_row(&ledger, "list").unwrap_err(),
        ] {
            assert!(e.hint().is_some(), "{e}");
            assert!(!e.to_string().contains("benchledger "), "{e}");
        }
        assert_eq!(
            price_table_row(&ledger, "list").unwrap_err().hint(),
            Some(&Hint::RegisterPricesFirst)
        );
        assert_eq!(split_id("a@b@3"), Some(("a@b", 3)));
        assert_eq!(split_id("a@x"), None);
    }
}
