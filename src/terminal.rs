//! Tables drawn for a terminal. The library builds every listing as data (a
//! [`Table`] and a JSON value) and renders the formats a file
//! keeps (Markdown, CSV, JSON); only a terminal needs a table fitted to its width, its headers
//! wrapped and its least important columns left out, so that drawing lives here, with the
//! terminal-table crate it uses.

use comfy_table::{CellAlignment, ContentArrangement, LineStyle, TableStyle};
use serde::Serialize;

use benchledger_core::report::compare::Comparison;
use benchledger_core::report::{
    Column, ESSENTIAL, Table, to_csv, to_json, to_markdown, with_significant_costs,
};

pub use crate::cli::Format;

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

/// Text of a listing as a terminal is given it: a control character (Unicode's category Cc:
/// U+0000 to U+001F, U+007F to U+009F) is shown escaped, as `\u{1b}`, so that nothing a ledger
/// holds (a model's name, a wave's notes) can clear the screen, move the cursor or ring the
/// bell. A line break is kept where `breaks` says the text is laid out in lines (a heading, a
/// note); in a cell it is escaped too.
fn shown(text: &str, breaks: bool) -> std::borrow::Cow<'_, str> {
    let escaped = |c: char| c.is_control() && !(breaks && c == '\n');
    if !text.chars().any(escaped) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if escaped(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
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
/// printed again. A control character in a cell, header, heading or note is shown escaped,
/// as `\u{1b}`, and printed never; a heading's or note's line breaks stay line breaks.
pub fn to_text_in(t: &Table, layout: &mut Layout) -> String {
    let t = &with_significant_costs(t);
    let mut out = String::new();
    for h in &t.heading {
        out.push_str(&layout.wrap(&shown(h, true)));
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
                // Only essential columns are left and still too wide: long header words break
                // at their own separators (`session-` over `efficiency` over `@2`), then
                // anywhere, as a last resort.
                lines = draw_with(&columns, &rows, &kept, Some(width), Floors::Separators);
                if widest(&lines).unwrap_or(0) > width {
                    lines = draw_with(&columns, &rows, &kept, Some(width), Floors::Cells);
                }
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
        let names: Vec<std::borrow::Cow<'_, str>> = left_out
            .iter()
            .map(|c| shown(&columns[*c].header, false))
            .collect();
        notes.push(format!(
            "Left out to fit {} columns: {} (--wide, or output piped to a file, prints every \
             column).",
            layout.width.unwrap_or_default(),
            names.join(", ")
        ));
    }
    for n in &t.notes {
        let n = crate::advice::note(n);
        if layout.printed_notes.insert(n.clone()) {
            notes.push(shown(&n, true).into_owned());
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
                    return shown(cell, false).into_owned();
                }
                same_so_far &= previous.as_ref().is_some_and(|p| p[k] == *cell);
                if same_so_far {
                    String::new()
                } else {
                    shown(cell, false).into_owned()
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
    /// As wide as its cells and the longest piece of a header word cut at its separators
    /// ([`header_pieces`]); the header is broken there.
    Separators,
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
    let floors_of: Vec<usize> = kept
        .iter()
        .map(|c| floor(columns[*c], rows, *c, floors))
        .collect();
    let mut table = comfy_table::Table::new();
    table
        .load_style(
            TableStyle::new()
                .header_separator(LineStyle::none().fill('─').junction('─'))
                .bottom_border(LineStyle::none().fill('─').junction('─')),
        )
        .force_no_tty()
        .set_header(kept.iter().zip(&floors_of).map(|(c, f)| {
            let header = shown(&columns[*c].header, false);
            if width.is_some() && floors == Floors::Separators {
                broken_at_separators(&header, *f)
            } else {
                header.into_owned()
            }
        }));
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
            col.set_constraint(ColumnConstraint::LowerBoundary(Width::Fixed(
                u16::try_from(floors_of[i] + 2).unwrap_or(u16::MAX),
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

/// How narrow column `c` may get under `floors`, padding aside. No word is ever cut: a column
/// is at least as wide as its longest header word (or, under [`Floors::Separators`], the longest
/// piece of one) and, for a column of numbers or names, its widest cell.
fn floor(column: &Column, rows: &[Vec<String>], c: usize, floors: Floors) -> usize {
    let longest_word = |s: &str| s.split(' ').map(display_width).max().unwrap_or(0);
    let cells = rows.iter().map(|r| r[c].as_str());
    let of_cells = if column.numeric || !rows.iter().any(|r| r[c].contains(' ')) {
        cells.map(display_width).max().unwrap_or(0)
    } else {
        // Text that wraps at spaces, but not into a column so narrow that it reads as a list
        // of words.
        let widest = rows.iter().map(|r| display_width(&r[c])).max().unwrap_or(0);
        cells
            .map(longest_word)
            .max()
            .unwrap_or(0)
            .max(widest.min(24))
    };
    let header = shown(&column.header, false);
    of_cells.max(match floors {
        Floors::Words => longest_word(&header),
        Floors::Separators => header_pieces(&header)
            .iter()
            .map(|p| display_width(p))
            .max()
            .unwrap_or(0),
        Floors::Cells | Floors::None => 0,
    })
}

/// A header cut where its words may break: at spaces, after `-`, `_`, `/` and `.`, and before
/// `@` (a rubric's `name@version` keeps its version together). `session-efficiency@2` is
/// `session-`, `efficiency`, `@2`. The pieces keep their separators; spaces are dropped.
fn header_pieces(header: &str) -> Vec<String> {
    let mut pieces = Vec::new();
    for word in header.split(' ').filter(|w| !w.is_empty()) {
        let mut piece = String::new();
        for ch in word.chars() {
            if ch == '@' && !piece.is_empty() {
                pieces.push(std::mem::take(&mut piece));
            }
            piece.push(ch);
            if matches!(ch, '-' | '_' | '/' | '.') {
                pieces.push(std::mem::take(&mut piece));
            }
        }
        if !piece.is_empty() {
            pieces.push(piece);
        }
    }
    pieces
}

/// A header laid out in lines at most `width` wide, broken only between its
/// [`header_pieces`]: a space between two pieces that were words, nothing between two pieces
/// of one word.
fn broken_at_separators(header: &str, width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in header.split(' ').filter(|w| !w.is_empty()) {
        for (k, piece) in header_pieces(word).into_iter().enumerate() {
            let gap = if k == 0 && !line.is_empty() { " " } else { "" };
            if !line.is_empty() && display_width(&line) + gap.len() + display_width(&piece) > width
            {
                lines.push(std::mem::take(&mut line));
            } else {
                line.push_str(gap);
            }
            line.push_str(&piece);
        }
    }
    lines.push(line);
    lines.join("\n")
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
        Format::Md => to_markdown(&with_significant_costs(&crate::advice::worded(table))),
        Format::Csv => to_csv(table),
        Format::Json => to_json(kind, json),
    }
}

/// Renders a comparison in the chosen format, with `json` as its JSON body (the comparison's,
/// or the comparison's marked: see [`benchledger_core::report::withdrawn::mark`]). A table for
/// people is laid out as `layout` says.
pub fn render_comparison<T: Serialize>(
    c: &Comparison,
    format: Format,
    json: &T,
    layout: &mut Layout,
) -> String {
    match format {
        Format::Table => {
            let figures = to_text_in(&c.figures, layout);
            format!("{figures}\n{}", to_text_in(&c.conditions, layout))
        }
        Format::Md => c.to_markdown(),
        Format::Csv => to_csv(&c.csv),
        Format::Json => to_json("compare", json),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use benchledger_core::report::{Cell, DETAIL, EXTRA};

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
    fn a_long_header_breaks_at_its_own_separators_before_anywhere() {
        assert_eq!(
            header_pieces("session-efficiency@2 Δ"),
            ["session-", "efficiency", "@2", "Δ"]
        );
        assert_eq!(
            broken_at_separators("session-efficiency@2", 12),
            "session-\nefficiency@2"
        );
        assert_eq!(broken_at_separators("cost per pass", 8), "cost per\npass");
        // Two essential columns whose headers are rubric names, in a table too narrow for
        // them whole: each header breaks after `-` and before `@`, never inside a word.
        let mut t = Table::new(vec![
            Column::text("Seat", "seat"),
            Column::num("session-efficiency@1", "old").priority(ESSENTIAL),
            Column::num("session-efficiency@2", "new").priority(ESSENTIAL),
        ]);
        t.rows.push(vec![
            Cell::text("anthropic-hierarchical"),
            Cell::text("125.00"),
            Cell::text("100.00"),
        ]);
        let text = to_text_in(&t, &mut Layout::fit(50));
        assert!(text.lines().all(|l| display_width(l) <= 50), "{text}");
        for l in text.lines().take(3) {
            for w in l.split_whitespace() {
                assert!(
                    ["Seat", "session-", "efficiency", "@1", "@2"].contains(&w),
                    "{w:?} in\n{text}"
                );
            }
        }
    }

    #[test]
    fn wrapping_keeps_indentation_and_long_words() {
        let layout = Layout::fit(40);
        let text = layout.wrap(&format!("  {} {}\nshort\n", "a".repeat(50), "b c d"));
        assert_eq!(text, format!("  {}\n  b c d\nshort\n", "a".repeat(50)));
        assert_eq!(Layout::full().wrap("x y\n"), "x y\n");
    }
}
