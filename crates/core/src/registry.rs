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
pub(crate) fn rubric_info_of_file(ledger: &Ledger, path: &Path, text: &str) -> Result<RubricInfo> {
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

/// Resolves what `--rubric` names: a rubric file, or a registered NAME@VERSION.
pub fn resolve(ledger: &Ledger, spec: &str) -> Result<RubricInfo> {
    let path = PathBuf::from(spec);
    // Whatever is at the path is read as a rubric file, or refused saying what it is.
    if std::fs::metadata(&path).is_ok() {
        let text = crate::files::read_text(&path, crate::files::RUBRIC)
            .map_err(|e| Error::io(&path, e))?;
        return rubric_info_of_file(ledger, &path, &text);
    }
    let Some((name, version)) = split_id(spec) else {
        return Err(Error::Usage(format!(
            "no rubric file {spec:?}{}; name a rubric file, or a registered rubric as \
             NAME@VERSION (see `benchledger rubric list`)",
            near_rubric(ledger, spec)?
                .map(|id| format!(" (did you mean `{id}`?)"))
                .unwrap_or_default()
        )));
    };
    // The shipped accuracy rubric, which the site ranks a wave under when no registered rubric
    // scores it, is found by its name without registering it, as its file would be: the
    // site's leaderboard is then printed by the command it names.
    let shipped = rubric::accuracy();
    if spec == shipped.rubric.id() && ledger.rubric(name, version)?.is_none() {
        return Ok(shipped);
    }
    rubric_info(ledger, name, version)
}

/// The rubric a name without its version means: the latest registered version of that name
/// (or the shipped accuracy rubric's), else the closest registered name.
fn near_rubric(ledger: &Ledger, spec: &str) -> Result<Option<String>> {
    let mut known: Vec<(String, u32)> = ledger
        .rubrics()?
        .into_iter()
        .map(|r| (r.name, r.version))
        .collect();
    let shipped = rubric::accuracy();
    known.push((shipped.rubric.name.clone(), shipped.rubric.version));
    let bare = spec.trim();
    let latest = |name: &str| {
        known
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| *v)
            .max()
            .map(|v| format!("{name}@{v}"))
    };
    if let Some(id) = latest(bare) {
        return Ok(Some(id));
    }
    let names: Vec<&str> = known.iter().map(|(n, _)| n.as_str()).collect();
    Ok(crate::diagnostics::closest(bare, names.iter().copied()).and_then(latest))
}

/// Prices a wave with the registered table `spec` names: the costs its attempts lack, or every
/// cost with `costs` = [`prices::Costs::Reprice`].
pub fn price(
    ledger: &Ledger,
    spec: &str,
    costs: prices::Costs,
    data: &mut crate::model::WaveData,
) -> Result<prices::Pricing> {
    let row = price_table_row(ledger, spec)?;
    let table = parse_price_table(ledger, &row)?;
    Ok(prices::price_wave(&table, &row.sha256, data, costs))
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
