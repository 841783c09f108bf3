//! CSV results: a header row of the same field names as JSON lines, one attempt a row. Each
//! cell is read as the JSON value it stands for and then checked exactly as a JSON line's field
//! is.

use std::path::Path;

use serde_json::Value;

use super::Line;
use super::attempt::attempt;
use super::fields::{FIELDS, Fields, Kind, index_of, kind_of, unknown_field};
use super::strict::strict_json;
use crate::error::{Error, Location, Result};

/// Parses CSV with a header row of the same field names as JSONL. Empty cells are unknown;
/// `checklist` and `trace` cells hold JSON.
pub fn parse_csv(path: &Path, text: &str) -> Result<Vec<Line>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| {
            Error::input(
                Location::line(path, 1),
                format!("unreadable CSV header: {e}"),
            )
        })?
        .clone();
    let mut seen = std::collections::BTreeSet::new();
    for h in headers.iter() {
        if kind_of(h).is_none() {
            return Err(unknown_field(Location::line(path, 1).field(h), h));
        }
        if !seen.insert(h) {
            return Err(Error::input(
                Location::line(path, 1).field(h),
                "column appears twice in the header",
            ));
        }
    }
    // Every header is a known field, named once (checked above).
    let columns: Vec<usize> = headers.iter().filter_map(index_of).collect();
    let mut out = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line() as usize);
            Error::input(
                Location::line(path, line),
                format!("unreadable CSV row: {e}"),
            )
        })?;
        let line = record.position().map_or(0, |p| p.line() as usize);
        let at = Location::line(path, line);
        let mut fields = Fields::default();
        for (i, cell) in columns.iter().zip(record.iter()) {
            if cell.is_empty() {
                continue;
            }
            fields.slots[*i] = Some(csv_cell(FIELDS[*i].1, cell));
        }
        out.push(Line {
            line,
            attempt: attempt(&at, fields)?,
        });
    }
    Ok(out)
}

/// A CSV cell as the JSON value it stands for; a cell that does not read as its field's type is
/// kept as a string so the checker reports it.
fn csv_cell(kind: Kind, cell: &str) -> Value {
    let parsed = match kind {
        Kind::Text => None,
        Kind::Bool => match cell.to_ascii_lowercase().as_str() {
            "true" | "1" => Some(Value::Bool(true)),
            "false" | "0" => Some(Value::Bool(false)),
            _ => None,
        },
        Kind::Count | Kind::Trial | Kind::Amount | Kind::Fraction => {
            serde_json::from_str::<serde_json::Number>(cell)
                .ok()
                .map(Value::Number)
        }
        Kind::Checklist | Kind::Trace => strict_json(cell).ok(),
    };
    parsed.unwrap_or_else(|| Value::String(cell.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_reads_the_same_columns() {
        let lines = parse_csv(
            Path::new("r.csv"),
            "problem,correct,wall_s,cost_usd\na,true,1.5,\nb,0,2,0.1\n",
        )
        .unwrap();
        assert_eq!(lines[0].attempt.cost_usd, None);
        assert_eq!(lines[1].line, 3);
        assert!(!lines[1].attempt.correct);
        let e = parse_csv(Path::new("r.csv"), "problem,correct,wall_s\na,true,fast\n")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "r.csv:2: field `wall_s`: expected a finite number, 0 or more, got the string \"fast\""
        );
    }
}
