//! CSV results: a header row of the same field names as JSON lines, one attempt a row. Each
//! cell is read as the JSON value it stands for and then checked exactly as a JSON line's field
//! is.

use std::path::Path;

use serde_json::Value;

use super::Line;
use super::attempt::attempt;
use super::fields::{FIELDS, Fields, Kind, index_of, kind_of, out_of_range, unknown_field};
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
    let mut lines = LineIndex::new(text);
    let mut out = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| row_error(path, &mut lines, &e))?;
        let line = record.position().map_or(0, |p| lines.line_at(p.byte()));
        let at = Location::line(path, line);
        let mut fields = Fields::default();
        for (i, cell) in columns.iter().zip(record.iter()) {
            if cell.is_empty() {
                continue;
            }
            fields.slots[*i] = Some(csv_cell(&at, *i, cell)?);
        }
        out.push(Line {
            at: crate::import::Origin::Line(line),
            attempt: attempt(&at, fields)?,
            file: None,
        });
    }
    Ok(out)
}

/// A row the CSV reader could not read, named by its line.
fn row_error(path: &Path, lines: &mut LineIndex<'_>, e: &csv::Error) -> Error {
    let line = e.position().map_or(0, |p| lines.line_at(p.byte()));
    let message = match e.kind() {
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!(
            "unreadable CSV row: it has {len} field{}, but the header has {expected_len}",
            if *len == 1 { "" } else { "s" }
        ),
        _ => format!("unreadable CSV row: {e}"),
    };
    Error::input(Location::line(path, line), message)
}

/// The line a record of a CSV text starts on, from its byte offset.
///
/// Lines end as the CSV reader ends records: at `\r\n`, a lone `\n` or a lone `\r`. The
/// reader's own line count cannot be used: it counts `\n` only, and it places a record at the
/// end of the line break before it, so under `\r\n` line endings, or after a blank line, it
/// names the line before the record (csv issue #395). The offset the reader gives is that
/// same point, so the line breaks after it are skipped first: no record starts with one.
struct LineIndex<'a> {
    text: &'a [u8],
    /// Where counting stopped, and the line there. Records come in order, so each count
    /// resumes where the last one stopped.
    offset: usize,
    line: usize,
}

impl<'a> LineIndex<'a> {
    fn new(text: &'a str) -> LineIndex<'a> {
        LineIndex {
            text: text.as_bytes(),
            offset: 0,
            line: 1,
        }
    }

    /// The 1-based line of the record the reader places at byte `at`.
    fn line_at(&mut self, at: u64) -> usize {
        let t = self.text;
        let mut start = usize::try_from(at).map_or(t.len(), |a| a.min(t.len()));
        while start < t.len() && matches!(t[start], b'\r' | b'\n') {
            start += 1;
        }
        let mut i = self.offset;
        while i < start {
            match t[i] {
                // \r\n is one line break; `start` never falls between the two bytes.
                b'\r' if t.get(i + 1) == Some(&b'\n') => {
                    self.line += 1;
                    i += 1;
                }
                b'\r' | b'\n' => self.line += 1,
                _ => {}
            }
            i += 1;
        }
        self.offset = self.offset.max(start);
        self.line
    }
}

/// The cell of field `i` as the JSON value it stands for; a cell that does not read as its
/// field's type is kept as a string so the checker reports it. A number beyond what any number
/// can hold (`1e400`) is refused here, as it is in a JSON line, where reading the line refuses
/// it.
fn csv_cell(at: &Location, i: usize, cell: &str) -> Result<Value> {
    let (field, kind) = FIELDS[i];
    let parsed = match kind {
        Kind::Text | Kind::Sample => None,
        Kind::Bool => match cell.to_ascii_lowercase().as_str() {
            "true" | "1" => Some(Value::Bool(true)),
            "false" | "0" => Some(Value::Bool(false)),
            _ => None,
        },
        Kind::Count | Kind::Trial | Kind::Amount | Kind::Fraction => {
            match serde_json::from_str::<serde_json::Number>(cell) {
                Ok(n) => Some(Value::Number(n)),
                Err(e) if e.to_string().starts_with("number out of range") => {
                    return Err(out_of_range(at, Some(field), cell));
                }
                Err(_) => None,
            }
        }
        Kind::Checklist | Kind::Trace => strict_json(cell).ok(),
    };
    Ok(parsed.unwrap_or_else(|| Value::String(cell.to_string())))
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
        assert_eq!(lines[1].at, crate::import::Origin::Line(3));
        assert!(!lines[1].attempt.correct);
        let e = parse_csv(Path::new("r.csv"), "problem,correct,wall_s\na,true,fast\n")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "r.csv:2: field `wall_s`: expected a finite number, 0 or more, got the string \"fast\""
        );
    }

    /// The line each row starts on, and the line a bad row is reported at.
    fn lines(text: &str) -> (Vec<usize>, String) {
        let good = text.replace("BAD", "true");
        let rows = parse_csv(Path::new("r.csv"), &good).unwrap();
        let e = parse_csv(Path::new("r.csv"), text).unwrap_err().to_string();
        (
            rows.iter()
                .map(|l| match l.at {
                    crate::import::Origin::Line(n) => n,
                    _ => 0,
                })
                .collect(),
            e,
        )
    }

    #[test]
    fn a_bad_row_is_named_by_its_own_line_whatever_the_line_endings() {
        let bad = "field `correct`: expected true or false, got the string \"BAD\"";
        // \n, \r\n and a lone \r end a line alike, as they end a record.
        for text in [
            "problem,correct\na,true\nb,BAD\nc,true\n",
            "problem,correct\r\na,true\r\nb,BAD\r\nc,true\r\n",
            "problem,correct\ra,true\rb,BAD\rc,true\r",
        ] {
            assert_eq!(
                lines(text),
                (vec![2, 3, 4], format!("r.csv:3: {bad}")),
                "{text:?}"
            );
        }
        // Blank lines are skipped, and still counted.
        for text in [
            "problem,correct\n\na,true\n\n\nb,BAD\n",
            "problem,correct\r\n\r\na,true\r\n\r\n\r\nb,BAD\r\n",
        ] {
            assert_eq!(
                lines(text),
                (vec![3, 6], format!("r.csv:6: {bad}")),
                "{text:?}"
            );
        }
        // A quoted cell may hold line breaks; the next row starts after them.
        let text = "problem,correct\r\n\"a\r\nz\",true\r\nb,BAD\r\n";
        assert_eq!(lines(text), (vec![2, 4], format!("r.csv:4: {bad}")));
    }

    #[test]
    fn a_row_with_the_wrong_number_of_cells_is_named_by_its_line() {
        let e = parse_csv(
            Path::new("r.csv"),
            "problem,correct\r\na,true\r\nb,true,3\r\n",
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            e,
            "r.csv:3: unreadable CSV row: it has 3 fields, but the header has 2"
        );
    }
}
