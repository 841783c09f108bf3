//! Renderers: turn a result into text. They return strings and never print.
//!
//! A listing is built once as a [`Table`] (for humans: table, Markdown; and for CSV) and once as
//! a JSON value (the documented, versioned machine contract). Each cell carries two texts: the
//! human one, rounded for reading, and the machine one, unrounded, which CSV uses. Every number
//! a renderer prints goes through the helpers below, so precision is fixed and a NaN or an
//! infinity can never reach the output.

pub mod claims;
pub mod compare;
pub mod diff;
pub mod export;
pub mod history;
pub mod intervals;
pub mod number;
pub mod prices;
pub mod publication;
pub mod rubric;
pub mod score;
pub mod trials;
pub mod versus;
pub mod waves;
pub mod withdrawn;

use comfy_table::{CellAlignment, ContentArrangement, LineStyle, TableStyle};
use serde::Serialize;

/// How a listing is printed.
// `ValueEnum` makes these the values of `--format` as they are: the `///` comments below are
// the `--help` text, and `cli` takes the type as it is rather than mirroring it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum Format {
    /// Aligned columns for a terminal; numbers rounded for reading.
    #[default]
    Table,
    /// A JSON document with a format version; numbers unrounded. Documented in the README.
    Json,
    /// Comma-separated values with a header row; numbers unrounded.
    Csv,
    /// A Markdown table, for pasting into a changelog or a pull request.
    Md,
}

/// Version of the JSON envelope. Bump it when a documented field changes meaning or goes away.
pub const JSON_FORMAT_VERSION: u32 = 1;

/// One cell: what a person reads, and what a machine reads.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub human: String,
    pub machine: String,
}

impl Cell {
    pub fn text(s: impl Into<String>) -> Cell {
        let s = s.into();
        Cell {
            human: s.clone(),
            machine: s,
        }
    }

    pub fn new(human: impl Into<String>, machine: impl Into<String>) -> Cell {
        Cell {
            human: human.into(),
            machine: machine.into(),
        }
    }

    /// An unknown or undefined value.
    pub fn none() -> Cell {
        Cell::new("—", "")
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// Header for people.
    pub header: String,
    /// Header for CSV: a stable snake_case name.
    pub key: String,
    /// Right-aligned (numbers).
    pub numeric: bool,
    /// Printed in CSV only: detail a machine needs that would crowd a table (counts behind a
    /// ratio, how many attempts a sum covers).
    pub machine_only: bool,
    /// Which columns a narrow terminal loses first: [`ESSENTIAL`] never, then the highest
    /// number first (see [`to_text_in`]).
    pub priority: u8,
    /// A column that groups the rows (a wave and its conditions): in a table for people its
    /// value is printed on the first row of each run of equal values only. CSV repeats it.
    pub grouped: bool,
}

/// A column a table is not read without: never left out to fit a terminal.
pub const ESSENTIAL: u8 = 0;
/// A column of ordinary importance.
pub const NORMAL: u8 = 1;
/// A column of detail: left out before the ordinary ones.
pub const DETAIL: u8 = 2;
/// A column that repeats what another says or the heading states: left out first.
pub const EXTRA: u8 = 3;

impl Column {
    pub fn text(header: &str, key: &str) -> Column {
        Column {
            header: header.into(),
            key: key.into(),
            numeric: false,
            machine_only: false,
            priority: NORMAL,
            grouped: false,
        }
    }

    /// The same column, left out to fit a terminal in the order of `priority` (see
    /// [`ESSENTIAL`], [`NORMAL`], [`DETAIL`], [`EXTRA`]).
    pub fn priority(self, priority: u8) -> Column {
        Column { priority, ..self }
    }

    /// The same column, printed for people on the first row of each run of equal values only.
    pub fn grouped(self) -> Column {
        Column {
            grouped: true,
            ..self
        }
    }

    pub fn num(header: &str, key: &str) -> Column {
        Column {
            numeric: true,
            ..Column::text(header, key)
        }
    }

    /// A text column for CSV only: the wave of a per-wave listing, so that the CSVs of two
    /// waves concatenate into one table.
    pub fn machine_text(key: &str) -> Column {
        Column {
            machine_only: true,
            ..Column::text(key, key)
        }
    }

    /// A column for CSV only.
    pub fn machine(key: &str) -> Column {
        Column {
            numeric: true,
            machine_only: true,
            ..Column::text(key, key)
        }
    }
}

/// A listing for people (and CSV).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    /// Lines printed above the table (not in CSV).
    pub heading: Vec<String>,
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<Cell>>,
    /// Lines printed below the table (not in CSV): footnotes, labels, warnings.
    pub notes: Vec<String>,
}

impl Table {
    pub fn new(columns: Vec<Column>) -> Table {
        Table {
            columns,
            ..Table::default()
        }
    }

    /// The columns people see (all but the machine-only ones).
    fn human_columns(&self) -> impl Iterator<Item = &Column> {
        self.columns.iter().filter(|c| !c.machine_only)
    }

    /// A row's cells in the columns people see.
    fn human_cells<'a>(&'a self, row: &'a [Cell]) -> impl Iterator<Item = &'a Cell> {
        row.iter()
            .zip(&self.columns)
            .filter(|(_, c)| !c.machine_only)
            .map(|(cell, _)| cell)
    }
}

/// How text output is laid out across one command's output: the terminal's width, and the
/// footnotes already printed (each is printed once per output, under the first table that
/// needs it).
#[derive(Debug, Clone, Default)]
pub struct Layout {
    /// The width to fit, in terminal columns; `None` prints every column at full width (output
    /// that is piped or redirected, or `--wide`).
    pub width: Option<usize>,
    printed_notes: std::collections::BTreeSet<String>,
}

/// The narrowest width benchledger lays text out for: below it, a table could not keep even
/// its essential columns, and lines are left long rather than cut to nonsense.
pub const MIN_WIDTH: usize = 40;

impl Layout {
    /// Every column at full width, every footnote printed.
    pub fn full() -> Layout {
        Layout::default()
    }

    /// Fitted to a terminal `width` columns wide (at least [`MIN_WIDTH`]).
    pub fn fit(width: usize) -> Layout {
        Layout {
            width: Some(width.max(MIN_WIDTH)),
            ..Layout::default()
        }
    }

    /// The lines of `text`, each wrapped at spaces to the width (unchanged at full width). A
    /// continuation keeps its line's indentation.
    pub fn wrap(&self, text: &str) -> String {
        let mut out = String::new();
        for line in text.split_inclusive('\n') {
            let (body, end) = match line.strip_suffix('\n') {
                Some(b) => (b, "\n"),
                None => (line, ""),
            };
            match self.width {
                Some(w) => {
                    for (k, l) in wrap_line(body, w).iter().enumerate() {
                        if k > 0 {
                            out.push('\n');
                        }
                        out.push_str(l);
                    }
                }
                None => out.push_str(body),
            }
            out.push_str(end);
        }
        out
    }
}

/// How many terminal columns a text takes.
pub fn display_width(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}

/// One line wrapped at spaces to `width` columns; a word longer than the width stays whole on
/// a line of its own. Continuations keep the line's indentation.
fn wrap_line(line: &str, width: usize) -> Vec<String> {
    if display_width(line) <= width {
        return vec![line.to_string()];
    }
    let body = line.trim_start_matches(' ');
    let indent = &line[..line.len() - body.len()];
    let mut lines = Vec::new();
    let mut current = indent.to_string();
    let mut empty = true;
    for word in body.split(' ').filter(|w| !w.is_empty()) {
        if !empty && display_width(&current) + 1 + display_width(word) > width {
            lines.push(std::mem::replace(&mut current, indent.to_string()));
            empty = true;
        }
        if !empty {
            current.push(' ');
        }
        current.push_str(word);
        empty = false;
    }
    lines.push(current);
    lines
}

/// Renders a table for a terminal at full width, every footnote printed.
pub fn to_text(t: &Table) -> String {
    to_text_in(t, &mut Layout::full())
}

/// Renders a table for a terminal as `layout` says. At a width, the table is fitted: its
/// headers wrap at spaces first, then columns are left out, the highest `priority` number
/// first and the rightmost of equals first, until it fits; a note under the table names the
/// columns left out. Heading and notes wrap to the width. Grouped columns print their value
/// on the first row of each run only, and a footnote already printed in this output is not
/// printed again.
pub fn to_text_in(t: &Table, layout: &mut Layout) -> String {
    let mut out = String::new();
    for h in &t.heading {
        out.push_str(&layout.wrap(h));
        out.push('\n');
    }
    if !t.heading.is_empty() {
        out.push('\n');
    }
    let columns: Vec<&Column> = t.human_columns().collect();
    let rows = grouped_rows(t);
    let mut kept: Vec<usize> = (0..columns.len()).collect();
    let mut lines = draw(&columns, &rows, &kept, None);
    let mut left_out: Vec<usize> = Vec::new();
    if let Some(width) = layout.width {
        let widest = |lines: &[String]| lines.iter().map(|l| display_width(l)).max();
        while widest(&lines).unwrap_or(0) > width {
            lines = draw(&columns, &rows, &kept, Some(width));
            if widest(&lines).unwrap_or(0) <= width {
                break;
            }
            // The rightmost of the columns of the highest priority number; the first column
            // (what a row is) and the essential ones stay.
            let drop = kept
                .iter()
                .enumerate()
                .skip(1)
                .filter(|(_, c)| columns[**c].priority > ESSENTIAL)
                .max_by_key(|(_, c)| columns[**c].priority)
                .map(|(k, _)| k);
            let Some(k) = drop else {
                // Only essential columns are left and still too wide: long header words may
                // break too, as a last resort.
                lines = draw_with(&columns, &rows, &kept, Some(width), Floors::Cells);
                if widest(&lines).unwrap_or(0) > width {
                    // And then any word: a line never runs past the terminal.
                    lines = draw_with(&columns, &rows, &kept, Some(width), Floors::None);
                }
                break;
            };
            // `max_by_key` keeps the last of equals: the rightmost.
            left_out.push(kept.remove(k));
        }
    }
    for line in &lines {
        out.push_str(line);
        out.push('\n');
    }
    let mut notes: Vec<String> = Vec::new();
    if !left_out.is_empty() {
        left_out.sort_unstable();
        let names: Vec<&str> = left_out
            .iter()
            .map(|c| columns[*c].header.as_str())
            .collect();
        notes.push(format!(
            "Left out to fit {} columns: {} (--wide, or output piped to a file, prints every \
             column).",
            layout.width.unwrap_or_default(),
            names.join(", ")
        ));
    }
    for n in &t.notes {
        if layout.printed_notes.insert(n.clone()) {
            notes.push(n.clone());
        }
    }
    if !notes.is_empty() {
        out.push('\n');
        for n in &notes {
            out.push_str(&layout.wrap(n));
            out.push('\n');
        }
    }
    out
}

/// The cells people read, row by row, with a grouped column's value blanked where it repeats
/// the row above (and every grouped column to its left repeats too).
fn grouped_rows(t: &Table) -> Vec<Vec<String>> {
    let columns: Vec<&Column> = t.human_columns().collect();
    let mut rows: Vec<Vec<String>> = Vec::with_capacity(t.rows.len());
    let mut previous: Option<Vec<&str>> = None;
    for row in &t.rows {
        let cells: Vec<&str> = t.human_cells(row).map(|c| c.human.as_str()).collect();
        let mut same_so_far = true;
        let printed = cells
            .iter()
            .enumerate()
            .map(|(k, cell)| {
                if !columns[k].grouped {
                    return cell.to_string();
                }
                same_so_far &= previous.as_ref().is_some_and(|p| p[k] == *cell);
                if same_so_far {
                    String::new()
                } else {
                    cell.to_string()
                }
            })
            .collect();
        rows.push(printed);
        previous = Some(cells);
    }
    rows
}

/// The lines of a table of the `kept` columns: at their natural widths, or fitted to `width`
/// with headers wrapped at spaces (cells wrap only at spaces between words, in text columns).
fn draw(
    columns: &[&Column],
    rows: &[Vec<String>],
    kept: &[usize],
    width: Option<usize>,
) -> Vec<String> {
    draw_with(columns, rows, kept, width, Floors::Words)
}

/// How narrow a fitted column may get.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Floors {
    /// As wide as its longest header word and its cells (see [`draw`]).
    Words,
    /// As wide as its cells; header words may break.
    Cells,
    /// Any width: words break anywhere.
    None,
}

/// [`draw`], with columns as narrow as `floors` allows.
fn draw_with(
    columns: &[&Column],
    rows: &[Vec<String>],
    kept: &[usize],
    width: Option<usize>,
    floors: Floors,
) -> Vec<String> {
    use comfy_table::{ColumnConstraint, Width};
    let mut table = comfy_table::Table::new();
    table
        .load_style(
            TableStyle::new()
                .header_separator(LineStyle::none().fill('─').junction('─'))
                .bottom_border(LineStyle::none().fill('─').junction('─')),
        )
        .force_no_tty()
        .set_header(kept.iter().map(|c| columns[*c].header.clone()));
    for row in rows {
        table.add_row(kept.iter().map(|c| row[*c].clone()));
    }
    match width {
        None => {
            table.set_content_arrangement(ContentArrangement::Disabled);
        }
        Some(w) => {
            table
                .set_content_arrangement(ContentArrangement::Dynamic)
                .set_width(u16::try_from(w).unwrap_or(u16::MAX));
        }
    }
    for (i, c) in kept.iter().enumerate() {
        let Some(col) = table.column_mut(i) else {
            continue;
        };
        if columns[*c].numeric {
            col.set_cell_alignment(CellAlignment::Right);
        }
        if width.is_some() && floors != Floors::None {
            // No word is ever cut: a column is at least as wide (with its padding of one space
            // each side) as its longest header word,
            // and, for a column of numbers or names, its widest cell.
            let longest_word = |s: &str| s.split(' ').map(display_width).max().unwrap_or(0);
            let cells = rows.iter().map(|r| r[*c].as_str());
            let floor = if columns[*c].numeric || !rows.iter().any(|r| r[*c].contains(' ')) {
                cells.map(display_width).max().unwrap_or(0)
            } else {
                // Text that wraps at spaces, but not into a column so narrow that it reads
                // as a list of words.
                let widest = rows
                    .iter()
                    .map(|r| display_width(&r[*c]))
                    .max()
                    .unwrap_or(0);
                cells
                    .map(longest_word)
                    .max()
                    .unwrap_or(0)
                    .max(widest.min(24))
            }
            .max(if floors == Floors::Words {
                longest_word(&columns[*c].header)
            } else {
                0
            });
            col.set_constraint(ColumnConstraint::LowerBoundary(Width::Fixed(
                u16::try_from(floor + 2).unwrap_or(u16::MAX),
            )));
        }
    }
    // comfy-table pads every line to the table's width; trailing blanks are noise in snapshots.
    table
        .to_string()
        .lines()
        .map(|l| l.trim_end().to_string())
        .collect()
}

/// The sentence-case of a phrase: its first letter upper-case.
pub(crate) fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

fn md_escape(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// Renders a table as Markdown.
pub fn to_markdown(t: &Table) -> String {
    let mut out = String::new();
    for h in &t.heading {
        out.push_str(&md_escape(h));
        out.push_str("\n\n");
    }
    let header: Vec<String> = t.human_columns().map(|c| md_escape(&c.header)).collect();
    out.push_str(&format!("| {} |\n", header.join(" | ")));
    let rule: Vec<&str> = t
        .human_columns()
        .map(|c| if c.numeric { "---:" } else { "---" })
        .collect();
    out.push_str(&format!("|{}|\n", rule.join("|")));
    for row in &t.rows {
        let cells: Vec<String> = t.human_cells(row).map(|c| md_escape(&c.human)).collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    for n in &t.notes {
        out.push('\n');
        out.push_str(&md_escape(n));
        out.push('\n');
    }
    out
}

/// What the `expect`s of the renderers say. Rendering into memory fails only on a bug in
/// benchledger (a row with the wrong number of cells, a JSON body that is not plain data), and
/// output that silently lost a row or turned into `null` would hide it: it panics instead.
pub(crate) const RENDERING_CANNOT_FAIL: &str = "rendering plain data into memory cannot fail";

/// Renders a table as CSV: the stable column keys, then unrounded values.
///
/// # Panics
///
/// When a row's cells do not match the table's columns (a bug in the renderer that built it).
pub fn to_csv(t: &Table) -> String {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    w.write_record(t.columns.iter().map(|c| c.key.as_str()))
        .expect(RENDERING_CANNOT_FAIL);
    for row in &t.rows {
        assert_eq!(
            row.len(),
            t.columns.len(),
            "a row's cells match its columns"
        );
        w.write_record(row.iter().map(|c| c.machine.as_str()))
            .expect(RENDERING_CANNOT_FAIL);
    }
    let bytes = w.into_inner().expect(RENDERING_CANNOT_FAIL);
    String::from_utf8(bytes).expect("CSV is written from UTF-8 cells")
}

/// The JSON envelope: `{"format_version": N, "kind": "...", ...body}`.
///
/// # Panics
///
/// When the body does not serialise to JSON (a map with keys that are not strings: a bug).
pub fn to_json<T: Serialize>(kind: &str, body: &T) -> String {
    let mut value = serde_json::to_value(body).expect(RENDERING_CANNOT_FAIL);
    let mut envelope = serde_json::Map::new();
    envelope.insert("format_version".into(), JSON_FORMAT_VERSION.into());
    envelope.insert("kind".into(), kind.into());
    if let serde_json::Value::Object(map) = &mut value {
        envelope.append(map);
    } else {
        envelope.insert("data".into(), value);
    }
    let mut s = serde_json::to_string_pretty(&serde_json::Value::Object(envelope))
        .expect(RENDERING_CANNOT_FAIL);
    s.push('\n');
    s
}

/// Renders a listing in the chosen format.
pub fn render<T: Serialize>(format: Format, kind: &str, table: &Table, json: &T) -> String {
    render_in(format, kind, table, json, &mut Layout::full())
}

/// Renders a listing in the chosen format, a table for people laid out as `layout` says.
pub fn render_in<T: Serialize>(
    format: Format,
    kind: &str,
    table: &Table,
    json: &T,
    layout: &mut Layout,
) -> String {
    match format {
        Format::Table => to_text_in(table, layout),
        Format::Md => to_markdown(table),
        Format::Csv => to_csv(table),
        Format::Json => to_json(kind, json),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        let mut t = Table::new(vec![
            Column::text("Seat", "seat"),
            Column::num("Wall s", "wall_s"),
        ]);
        t.rows
            .push(vec![Cell::text("a|b"), Cell::new("132.0", "132")]);
        t.rows.push(vec![Cell::text("c"), Cell::none()]);
        t.notes.push("note".into());
        t
    }

    #[test]
    fn csv_uses_keys_and_machine_values() {
        assert_eq!(to_csv(&sample()), "seat,wall_s\na|b,132\nc,\n");
    }

    #[test]
    fn markdown_escapes_pipes_and_aligns_numbers() {
        insta::assert_snapshot!(to_markdown(&sample()), @r"
        | Seat | Wall s |
        |---|---:|
        | a\|b | 132.0 |
        | c | — |

        note
        ");
    }

    /// A table wider than 40 columns: a seat, two numbers, a detail and an extra.
    fn wide() -> Table {
        let mut t = Table::new(vec![
            Column::text("Wave", "wave").grouped(),
            Column::text("Seat", "seat"),
            Column::num("Score", "score").priority(ESSENTIAL),
            Column::num("Tokens (cached reads in)", "tokens"),
            Column::text("Remark", "remark").priority(DETAIL),
            Column::text("Provider", "provider").priority(EXTRA),
        ]);
        for (w, s) in [("w1", "alpha"), ("w1", "beta"), ("w2", "alpha")] {
            t.rows.push(vec![
                Cell::text(w),
                Cell::text(s),
                Cell::text("100.00"),
                Cell::text("1,234,567"),
                Cell::text("tied on score; broken on wall_s"),
                Cell::text("anthropic"),
            ]);
        }
        t.notes
            .push("Score: a note long enough to be wrapped at forty columns, word by word.".into());
        t
    }

    #[test]
    fn a_table_fits_its_width_leaving_out_the_lowest_priority_first_and_saying_so() {
        let mut layout = Layout::fit(40);
        let text = to_text_in(&wide(), &mut layout);
        insta::assert_snapshot!(text, @r"
         Wave   Seat     Score   Tokens (cached
                                      reads in)
        ────────────────────────────────────────
         w1     alpha   100.00        1,234,567
                beta    100.00        1,234,567
         w2     alpha   100.00        1,234,567
        ────────────────────────────────────────

        Left out to fit 40 columns: Remark,
        Provider (--wide, or output piped to a
        file, prints every column).
        Score: a note long enough to be wrapped
        at forty columns, word by word.
        ");
        assert!(text.lines().all(|l| display_width(l) <= 40));
        // A second table in the same output does not repeat the footnote.
        let again = to_text_in(&wide(), &mut layout);
        assert!(!again.contains("Score: a note"));
        assert!(again.contains("Left out to fit 40 columns"));
        // At full width every column is printed, repeated group values blanked all the same.
        let full = to_text(&wide());
        assert!(full.contains("Provider") && !full.contains("Left out"));
        assert_eq!(full.matches("w1").count(), 1);
    }

    #[test]
    fn wrapping_keeps_indentation_and_long_words() {
        let layout = Layout::fit(40);
        let text = layout.wrap(&format!("  {} {}\nshort\n", "a".repeat(50), "b c d"));
        assert_eq!(text, format!("  {}\n  b c d\nshort\n", "a".repeat(50)));
        assert_eq!(Layout::full().wrap("x y\n"), "x y\n");
    }

    #[test]
    fn json_carries_the_format_version() {
        let s = to_json("x", &serde_json::json!({"a": 1}));
        let v: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v["format_version"], 1);
        assert_eq!(v["kind"], "x");
        assert_eq!(v["a"], 1);
    }
}
