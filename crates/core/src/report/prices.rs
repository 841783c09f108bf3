//! Price table reports: the verdict of `prices check`, the `prices list` listing, `prices show`,
//! and how a listing whose costs a price table filled in names that table (a heading line and
//! notes under the table; a `prices` object in the JSON).

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Advice, Cell, Column, Note, Table};
use crate::model::PriceTableRow;
use crate::number::{int, machine};
use crate::prices::{Costs, PriceTable, Pricing, SeatPricing, Unpriced};

/// A price as a person and a machine read it: the shortest decimal that is exactly the price
/// (`1.25`, `0.125`, `10`); `—` (empty in CSV) where the table gives none.
fn price_cell(p: Option<f64>) -> Cell {
    match p {
        Some(x) => Cell::text(machine(x)),
        None => Cell::none(),
    }
}

/// A table's rows: model, provider and the four prices, in file order.
pub fn rows_table(t: &PriceTable) -> Table {
    let mut table = Table::new(vec![
        Column::text("Model", "model"),
        Column::text("Provider", "provider"),
        Column::num("Input", "input"),
        Column::num("Output", "output"),
        Column::num("Cache read", "cache_read"),
        Column::num("Cache write", "cache_write"),
    ]);
    for m in &t.models {
        table.rows.push(vec![
            Cell::text(&m.model),
            m.provider
                .as_deref()
                .map_or_else(|| Cell::new("any", ""), Cell::text),
            price_cell(Some(m.input)),
            price_cell(Some(m.output)),
            price_cell(m.cache_read),
            price_cell(m.cache_write),
        ]);
    }
    table
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", int(n), if n == 1 { one } else { many })
}

/// The verdict on one price table file, as text: what it declares. Its rows follow, as
/// [`rows_table`].
pub fn check_heading(source: &str, t: &PriceTable, sha256: &str, notes: &[String]) -> String {
    let mut out = format!(
        "{source}: {} OK — {}, USD per million tokens, dated {} (sha256 {})\n  source: {}\n",
        t.id(),
        plural(t.models.len() as u64, "model", "models"),
        t.date,
        crate::digest::short(sha256),
        t.source
    );
    for n in notes {
        out.push_str(&format!("  note: {n}\n"));
    }
    out.push('\n');
    out
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PriceListJson {
    pub prices: Vec<PriceListEntry>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PriceListEntry {
    /// NAME@VERSION.
    pub prices: String,
    pub name: String,
    pub version: u32,
    pub sha256: String,
    pub added_at: String,
    /// What the registered text declares; null when it no longer parses (an edit behind
    /// benchledger's back: `verify --ledger` names it).
    pub date: Option<String>,
    pub source: Option<String>,
    pub description: Option<String>,
    /// How many models the table prices.
    pub models: Option<u64>,
}

/// The `prices list` listing. Each row is paired with its parsed form (when it parses).
pub fn list(rows: &[(PriceTableRow, Option<PriceTable>)]) -> (Table, PriceListJson) {
    let mut t = Table::new(vec![
        Column::text("Prices", "prices"),
        Column::text("SHA-256", "sha256"),
        Column::text("Date", "date"),
        Column::num("Models", "models"),
        Column::text("Source", "source"),
        Column::text("Added", "added_at"),
    ]);
    for (row, parsed) in rows {
        t.rows.push(vec![
            Cell::text(row.id()),
            Cell::new(crate::digest::short(&row.sha256), &row.sha256),
            parsed
                .as_ref()
                .map_or_else(Cell::none, |p| Cell::text(&p.date)),
            parsed
                .as_ref()
                .map_or_else(Cell::none, |p| Cell::text(p.models.len().to_string())),
            parsed
                .as_ref()
                .map_or_else(Cell::none, |p| Cell::text(&p.source)),
            Cell::text(&row.added_at),
        ]);
    }
    if rows.is_empty() {
        t.notes.push(Note::Advice(Advice::NoPrices));
    } else {
        t.notes.push(Note::Advice(Advice::PricesShown));
    }
    let json = PriceListJson {
        prices: rows
            .iter()
            .map(|(row, parsed)| PriceListEntry {
                prices: row.id(),
                name: row.name.clone(),
                version: row.version,
                sha256: row.sha256.clone(),
                added_at: row.added_at.clone(),
                date: parsed.as_ref().map(|p| p.date.clone()),
                source: parsed.as_ref().map(|p| p.source.clone()),
                description: parsed.as_ref().and_then(|p| p.description.clone()),
                models: parsed.as_ref().map(|p| p.models.len() as u64),
            })
            .collect(),
    };
    (t, json)
}

/// `prices show`: a header with the hash, then the verbatim registered text.
pub fn show(row: &PriceTableRow) -> String {
    registered_text(&row.id(), &row.sha256, &row.added_at, &row.text)
}

/// A registered text (a price table, submission rules) printed back: a line naming it, its
/// SHA-256 and when it was registered, then the text verbatim, ending in a newline.
pub(crate) fn registered_text(id: &str, sha256: &str, added_at: &str, text: &str) -> String {
    let mut out = format!("# {id} · sha256 {sha256} · registered {added_at}\n");
    out.push_str(text);
    if !text.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// The row of a price table that priced a seat, as JSON names it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PriceRowJson {
    pub model: String,
    pub provider: Option<String>,
}

/// How a price table priced one seat.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SeatPricesJson {
    pub seat: String,
    pub model: String,
    pub provider: String,
    /// The table's row that priced the seat's model; null when the table has none for it.
    pub price: Option<PriceRowJson>,
    pub priced_attempts: u64,
    pub recorded_attempts: u64,
    pub unpriced_attempts: u64,
    /// Why attempts were left without a cost, by reason (only the reasons that occurred).
    pub unpriced: BTreeMap<&'static str, u64>,
}

/// Which price table a listing's costs came from, and how many attempts it priced.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PricesJson {
    pub name: String,
    pub version: u32,
    pub sha256: String,
    pub date: String,
    pub source: String,
    /// "fill": the table set only the costs attempts lacked; "reprice": it set every cost.
    pub costs: &'static str,
    /// Attempts whose cost the table set.
    pub priced_attempts: u64,
    /// Attempts that kept the cost recorded with their results (always 0 with "reprice").
    pub recorded_attempts: u64,
    /// Attempts left without a cost (unknown, never zero).
    pub unpriced_attempts: u64,
    pub seats: Vec<SeatPricesJson>,
}

impl PricesJson {
    pub fn of(p: &Pricing) -> PricesJson {
        PricesJson {
            name: p.name.clone(),
            version: p.version,
            sha256: p.sha256.clone(),
            date: p.date.clone(),
            source: p.source.clone(),
            costs: p.costs.key(),
            priced_attempts: p.priced(),
            recorded_attempts: p.recorded(),
            unpriced_attempts: p.unpriced(),
            seats: p
                .seats
                .iter()
                .map(|s| SeatPricesJson {
                    seat: s.seat.clone(),
                    model: s.model.clone(),
                    provider: s.provider.clone(),
                    price: s.row.as_ref().map(|(model, provider)| PriceRowJson {
                        model: model.clone(),
                        provider: provider.clone(),
                    }),
                    priced_attempts: s.priced,
                    recorded_attempts: s.recorded,
                    unpriced_attempts: s.unpriced_total(),
                    unpriced: s.unpriced.iter().map(|(k, n)| (k.key(), *n)).collect(),
                })
                .collect(),
        }
    }
}

/// The line that heads a listing priced by a table: which table, and what it set (its source
/// on a line of its own, `source_line`).
pub fn heading(p: &Pricing) -> String {
    let what = match p.costs {
        Costs::Fill => format!(
            "filled in the cost of {} that lacked one; {} kept; {} left without a cost",
            plural(p.priced(), "attempt", "attempts"),
            plural(p.recorded(), "recorded cost", "recorded costs"),
            plural(p.unpriced(), "attempt", "attempts")
        ),
        Costs::Reprice => format!(
            "repriced every attempt, recorded costs set aside: {} priced; {} left without a cost",
            plural(p.priced(), "attempt", "attempts"),
            plural(p.unpriced(), "attempt", "attempts")
        ),
    };
    format!(
        "Prices: {} (sha256 {}), USD per million tokens, dated {}: {what}.",
        p.id(),
        crate::digest::short(&p.sha256),
        p.date,
    )
}

/// The line under [`heading`] that says where the table's prices come from.
pub(crate) fn source_line(p: &Pricing) -> String {
    format!("Price source ({}): {}", p.id(), p.source)
}

/// Why some of a seat's attempts were left without a cost, in words.
fn reason(why: Unpriced, table: &str) -> String {
    match why {
        Unpriced::NoPrice => format!("the seat's model is not in {table}"),
        Unpriced::TokensUnknown => "input or output tokens unknown".into(),
        Unpriced::NoCacheReadPrice => format!("cached reads, which {table} does not price"),
        Unpriced::NoCacheWritePrice => format!("cache writes, which {table} does not price"),
        Unpriced::ReadsExceedInput => {
            "more cached reads than input tokens, which the wave says include them".into()
        }
        Unpriced::NotFinite => "a cost too large to be a number".into(),
    }
}

/// The notes under a priced listing: each seat with attempts the table could not price, and
/// why.
pub fn notes(p: &Pricing) -> Vec<String> {
    let id = p.id();
    p.seats
        .iter()
        .filter(|s| s.unpriced_total() > 0)
        .map(|s: &SeatPricing| {
            let who = format!(
                "seat {} (model {}, provider {})",
                s.seat, s.model, s.provider
            );
            // With one reason, the count before it says how many; with several, each says.
            let single = s.unpriced.len() == 1;
            let why: Vec<String> = Unpriced::ALL
                .iter()
                .filter_map(|r| s.unpriced.get(r).map(|n| (r, n)))
                .map(|(r, n)| match single {
                    true => reason(*r, &id),
                    false => format!("{} ({})", reason(*r, &id), int(*n)),
                })
                .collect();
            format!(
                "Prices: {who}: {} left without a cost: {}.",
                plural(s.unpriced_total(), "attempt", "attempts"),
                why.join("; ")
            )
        })
        .collect()
}

/// A listing's JSON body with the price table that filled in its costs, if one did.
#[derive(Debug, Clone, Serialize)]
pub struct Priced<'a, T: Serialize> {
    #[serde(flatten)]
    pub body: &'a T,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prices: Option<PricesJson>,
}

/// Marks a listing whose costs a price table set: the heading line naming the table, the notes
/// on what it could not price, and the JSON's `prices` object. Without a table, the listing is
/// left as it is.
pub fn mark<'a, T: Serialize>(
    table: &mut Table,
    body: &'a T,
    pricing: Option<&Pricing>,
) -> Priced<'a, T> {
    if let Some(p) = pricing {
        table.heading.push(heading(p));
        table.heading.push(source_line(p));
        table.notes.extend(notes(p).into_iter().map(Note::Text));
    }
    Priced {
        body,
        prices: pricing.map(PricesJson::of),
    }
}
