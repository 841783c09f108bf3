//! `benchledger models`: the shipped model alias table (`crate::models`) as a listing.

use serde::Serialize;

use super::{Cell, Column, Note, Table};
use crate::models;

/// The JSON of `models`.
#[derive(Debug, Serialize)]
pub struct ModelsJson<'a> {
    pub file: &'static str,
    pub version: u32,
    pub models: &'a [models::Entry],
}

/// The table, a model a row.
pub fn list(table: &models::Table) -> (Table, ModelsJson<'_>) {
    let mut t = Table::new(vec![
        Column::text("Canonical id", "canonical"),
        Column::text("Family", "family"),
        Column::text("Provider", "provider"),
        Column::text("Known aliases", "aliases"),
    ]);
    for m in &table.models {
        t.rows.push(vec![
            Cell::text(&m.canonical),
            Cell::text(&m.family),
            Cell::text(&m.provider),
            Cell::text(m.aliases.join(", ")),
        ]);
    }
    t.notes.push(Note::Text(format!(
        "{} v{}: a results file naming an alias of its seat's model is not a mismatch, and a \
         model named without its provider gets the provider here. Names match whole, ignoring \
         case, with or without a provider/ prefix or a dated snapshot's -YYYYMMDD.",
        models::ALIASES_FILE,
        table.version
    )));
    (
        t,
        ModelsJson {
            file: models::ALIASES_FILE,
            version: table.version,
            models: &table.models,
        },
    )
}
