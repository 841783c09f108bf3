//! Tables drawn for a terminal. The library builds every listing as data (a
//! [`Table`] and a JSON value) and renders the formats a file
//! keeps (Markdown, CSV, JSON); only a terminal needs a table fitted to its width, its headers
//! wrapped and its least important columns left out, so that drawing lives here, with the
//! terminal-table crate it uses.

use comfy_table::{CellAlignment, ContentArrangement, LineStyle, TableStyle};
use serde::Serialize;

use benchledger_core::report::compare::Comparison;
use benchledger_core::report::{
    ASKED, Column, Table, to_csv, to_json, to_markdown_shown, with_significant_costs,
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
/// U+0000 to U+001F, U+007F to U+009F) or a bidirectional formatting character (U+202A to
/// U+202E, U+2066 to U+2069, …: `benchledger_core::text`) is shown escaped, as `\u{1b}`, so
/// that nothing a ledger holds (a model's name, a wave's notes) can clear the screen, move the
/// cursor, ring the bell or reorder a name to spoof another. A line break is kept where `breaks` says the text is laid out in lines (a heading, a
/// note); in a cell it is escaped too.
fn shown(text: &str, breaks: bool) -> std::borrow::Cow<'_, str> {
    benchledger_core::text::shown_keeping(text, |c| breaks && c == '\n')
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

/// Renders a table for a terminal as `layout` says. At a width, the table is fitted
/// (`fitted`): its headers wrap at spaces first, then columns are left out, the highest
/// `priority` number first and the rightmost of equals first, ids and headers breaking at their
/// own separators before a column the user asked for goes, until it fits; a note under the
/// table names the columns left out. Heading and notes wrap to the width. Grouped columns print their value
/// on the first row of each run only, and a footnote already printed in this output is not
/// printed again. A control character in a cell, header, heading or note is shown escaped,
/// as `\u{1b}`, and printed never; a heading's or note's line breaks stay line breaks.
pub fn to_text_in(t: &Table, layout: &mut Layout) -> String {
    // A column no row records is left out, and said so under the table (issue 31).
    let (t, unrecorded) = t.without_unknown_columns();
    let t = &with_significant_costs(&t);
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
    let mut left_out: Vec<usize> = Vec::new();
    let lines = match layout.width {
        Some(width) => fitted(&columns, &rows, &mut kept, &mut left_out, width),
        None => draw(&columns, &rows, &kept, None),
    };
    for line in &lines {
        out.push_str(line);
        out.push('\n');
    }
    let mut notes: Vec<String> = unrecorded.into_iter().collect();
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

/// The lines of a table fitted to `width`, the columns left out to fit it moved from `kept` to
/// `left_out`. Columns wrap at spaces first (no word is cut); then the optional columns go, the
/// highest `priority` number first and the rightmost of equals first; once only the columns
/// asked for ([`ASKED`]) and the essential ones are left, ids and headers break at their own
/// separators ([`broken_at_separators`]) before another column goes; the essential columns go
/// last (the first column, what a row is, never). Only a first column that cannot fit alone has
/// its words cut, so that a line never runs past the terminal.
fn fitted(
    columns: &[&Column],
    rows: &[Vec<String>],
    kept: &mut Vec<usize>,
    left_out: &mut Vec<usize>,
    width: usize,
) -> Vec<String> {
    let fits = |lines: &[String]| lines.iter().all(|l| display_width(l) <= width);
    let lines = draw(columns, rows, kept, None);
    if fits(&lines) {
        return lines;
    }
    loop {
        let lines = draw(columns, rows, kept, Some(width));
        if fits(&lines) {
            return lines;
        }
        // Only the columns asked for and the essential ones left: ids and headers break at
        // their own separators before another column goes.
        if !kept.iter().skip(1).any(|c| columns[*c].priority > ASKED)
            && let Some(lines) = draw_broken(columns, rows, kept, width)
        {
            return lines;
        }
        // The rightmost of the columns of the highest priority number; `max_by_key` keeps the
        // last of equals.
        let drop = kept
            .iter()
            .enumerate()
            .skip(1)
            .max_by_key(|(_, c)| columns[**c].priority)
            .map(|(k, _)| k);
        let Some(k) = drop else {
            return draw_with(columns, rows, kept, Some(width), Floors::None);
        };
        left_out.push(kept.remove(k));
    }
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
    /// As wide as the longest piece of a header word or of an id in a cell, cut at its
    /// separators ([`pieces`]); numbers stay whole.
    Separators,
    /// Any width: words break anywhere.
    None,
}

/// A comfy-table of the `kept` columns with these headers and rows, in benchledger's style.
fn comfy(
    columns: &[&Column],
    kept: &[usize],
    headers: Vec<String>,
    rows: impl Iterator<Item = Vec<String>>,
) -> comfy_table::Table {
    let mut table = comfy_table::Table::new();
    table
        .load_style(
            TableStyle::new()
                .header_separator(LineStyle::none().fill('─').junction('─'))
                .bottom_border(LineStyle::none().fill('─').junction('─')),
        )
        .force_no_tty()
        .set_header(headers);
    for row in rows {
        table.add_row(row);
    }
    for (i, c) in kept.iter().enumerate() {
        if let Some(col) = table.column_mut(i)
            && columns[*c].numeric
        {
            col.set_cell_alignment(CellAlignment::Right);
        }
    }
    table
}

/// A table's lines, without the blanks comfy-table pads every line with to the table's width
/// (noise in snapshots).
fn lines_of(table: &comfy_table::Table) -> Vec<String> {
    table
        .to_string()
        .lines()
        .map(|l| l.trim_end().to_string())
        .collect()
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
    let headers = kept
        .iter()
        .map(|c| shown(&columns[*c].header, false).into_owned())
        .collect();
    let mut table = comfy(
        columns,
        kept,
        headers,
        rows.iter()
            .map(|row| kept.iter().map(|c| row[*c].clone()).collect()),
    );
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
    if width.is_some() && floors != Floors::None {
        for (i, c) in kept.iter().enumerate() {
            let least = floor(columns[*c], rows, *c, floors);
            if let Some(col) = table.column_mut(i) {
                col.set_constraint(ColumnConstraint::LowerBoundary(Width::Fixed(
                    u16::try_from(least + 2).unwrap_or(u16::MAX),
                )));
            }
        }
    }
    lines_of(&table)
}

/// The `kept` columns within `width` with headers and ids broken only at their own separators
/// ([`broken_at_separators`]), never inside a word or a number; `None` when even that is too
/// wide. Each column starts as narrow as its pieces allow; the room left goes first to keeping
/// ids and header words whole, then headers on one line, the column that needs least first.
fn draw_broken(
    columns: &[&Column],
    rows: &[Vec<String>],
    kept: &[usize],
    width: usize,
) -> Option<Vec<String>> {
    let mut widths: Vec<usize> = kept
        .iter()
        .map(|c| floor(columns[*c], rows, *c, Floors::Separators))
        .collect();
    // What the columns themselves do not take: padding and the gaps between them.
    // (A table of one-character headers, less those characters.)
    let bare = comfy(
        columns,
        kept,
        vec!["x".into(); kept.len()],
        std::iter::empty(),
    );
    let frame = lines_of(&bare)
        .iter()
        .map(|l| display_width(l))
        .max()
        .unwrap_or(0)
        .saturating_sub(kept.len());
    let mut room = width.checked_sub(frame + widths.iter().sum::<usize>())?;
    // What each column takes for its cells whole, then its header's words whole too, then its
    // header on one line.
    let whole_cells: Vec<usize> = kept
        .iter()
        .zip(&widths)
        .map(|(c, w)| cells_floor(columns[*c], rows, *c, Floors::Words).max(*w))
        .collect();
    let whole: Vec<usize> = kept
        .iter()
        .map(|c| floor(columns[*c], rows, *c, Floors::Words))
        .collect();
    let natural: Vec<usize> = kept
        .iter()
        .map(|c| {
            let header = display_width(&shown(&columns[*c].header, false));
            rows.iter()
                .map(|r| display_width(&r[*c]))
                .fold(header, usize::max)
        })
        .collect();
    for want in [&whole_cells, &whole, &natural] {
        let mut needy: Vec<usize> = (0..kept.len()).filter(|i| want[*i] > widths[*i]).collect();
        needy.sort_by_key(|i| want[*i] - widths[*i]);
        for i in needy {
            let more = (want[i] - widths[i]).min(room);
            widths[i] += more;
            room -= more;
        }
    }
    let headers = kept
        .iter()
        .zip(&widths)
        .map(|(c, w)| broken_at_separators(&shown(&columns[*c].header, false), *w))
        .collect();
    let cells = rows.iter().map(|row| {
        kept.iter()
            .zip(&widths)
            .map(|(c, w)| {
                if columns[*c].numeric {
                    row[*c].clone()
                } else {
                    broken_at_separators(&row[*c], *w)
                }
            })
            .collect()
    });
    let mut table = comfy(columns, kept, headers, cells);
    table.set_content_arrangement(ContentArrangement::Disabled);
    let lines = lines_of(&table);
    lines
        .iter()
        .all(|l| display_width(l) <= width)
        .then_some(lines)
}

/// How narrow column `c` may get under `floors`, padding aside. No word is ever cut: a column
/// is at least as wide as its longest header word and, for a column of numbers or names, its
/// widest cell (under [`Floors::Separators`], the longest piece of a header word or a name cut
/// at its separators; a number stays whole).
fn floor(column: &Column, rows: &[Vec<String>], c: usize, floors: Floors) -> usize {
    cells_floor(column, rows, c, floors).max(longest_piece(&shown(&column.header, false), floors))
}

/// The widest of the pieces of `text` that `floors` keeps whole: its words, or the pieces of
/// its words.
fn longest_piece(text: &str, floors: Floors) -> usize {
    match floors {
        Floors::Words => text.split(' ').map(display_width).max().unwrap_or(0),
        Floors::Separators => pieces(text)
            .iter()
            .map(|p| display_width(p))
            .max()
            .unwrap_or(0),
        Floors::None => 0,
    }
}

/// [`floor`] for the cells of column `c` alone.
fn cells_floor(column: &Column, rows: &[Vec<String>], c: usize, floors: Floors) -> usize {
    let cells = rows.iter().map(|r| r[c].as_str());
    if column.numeric {
        cells.map(display_width).max().unwrap_or(0)
    } else if !rows.iter().any(|r| r[c].contains(' ')) {
        cells.map(|s| longest_piece(s, floors)).max().unwrap_or(0)
    } else {
        // Text that wraps at spaces, but not into a column so narrow that it reads as a list
        // of words.
        let widest = rows.iter().map(|r| display_width(&r[c])).max().unwrap_or(0);
        cells
            .map(|s| longest_piece(s, floors))
            .max()
            .unwrap_or(0)
            .max(widest.min(24))
    }
}

/// Text cut where its words may break: at spaces, after `-`, `_`, `/` and `.`, and before `@`
/// (a rubric's `name@version` keeps its version together). `session-efficiency@2` is
/// `session-`, `efficiency`, `@2`. The pieces keep their separators; spaces are dropped.
fn pieces(text: &str) -> Vec<String> {
    let mut pieces = Vec::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
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

/// A header or a cell laid out in lines at most `width` wide (where its [`pieces`] allow):
/// wrapped at spaces, and a word too long for a line of its own broken between its pieces.
fn broken_at_separators(text: &str, width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let fits = |line: &str, gap: usize, word: &str| {
        display_width(line) + gap + display_width(word) <= width
    };
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let gap = usize::from(!line.is_empty());
        if fits(&line, gap, word) {
            line.push_str(&" ".repeat(gap));
            line.push_str(word);
        } else if display_width(word) <= width {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        } else {
            for (k, piece) in pieces(word).into_iter().enumerate() {
                let gap = usize::from(k == 0 && !line.is_empty());
                if line.is_empty() || fits(&line, gap, &piece) {
                    line.push_str(&" ".repeat(gap));
                } else {
                    lines.push(std::mem::take(&mut line));
                }
                line.push_str(&piece);
            }
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
        Format::Md => to_markdown_shown(&with_significant_costs(&crate::advice::worded(table))),
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
    use benchledger_core::report::{Cell, DETAIL, ESSENTIAL, EXTRA};

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
            pieces("session-efficiency@2 Δ"),
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
    fn ids_break_at_their_separators_and_a_column_goes_before_a_word_is_cut() {
        assert_eq!(
            broken_at_separators("anthropic-claude-sonnet-4-5", 17),
            "anthropic-claude-\nsonnet-4-5"
        );
        // Words first: a word that fits on a line of its own is not broken.
        assert_eq!(
            broken_at_separators("Only in rca-wave-1", 10),
            "Only in\nrca-wave-1"
        );
        let mut t = Table::new(vec![
            Column::text("Seat", "seat"),
            Column::num("Correct", "accuracy").priority(ESSENTIAL),
            Column::num("Correct 95% CI", "accuracy_ci").priority(ASKED),
            Column::text("Group", "group"),
            Column::num("Rank", "rank").priority(ESSENTIAL),
        ]);
        t.rows.push(vec![
            Cell::text("anthropic-claude-sonnet-4-5"),
            Cell::text("2/6 33.3%"),
            Cell::text("0.0–50.0%"),
            Cell::text("a"),
            Cell::text("1"),
        ]);
        // At 46 columns Group goes, then the id breaks after its hyphens so that the interval
        // asked for stays.
        let text = to_text_in(&t, &mut Layout::fit(46));
        insta::assert_snapshot!(text, @r"
         Seat           Correct     Correct   Rank
                                     95% CI
        ───────────────────────────────────────────
         anthropic-   2/6 33.3%   0.0–50.0%      1
         claude-
         sonnet-4-5
        ───────────────────────────────────────────

        Left out to fit 46 columns: Group (--wide, or
        output piped to a file, prints every column).
        ");
        // Narrower, the interval goes too, then the rightmost essential column, never a word
        // cut.
        let mut with_score = t.clone();
        with_score
            .columns
            .insert(4, Column::num("Score", "score").priority(ESSENTIAL));
        with_score.rows[0].insert(4, Cell::text("0.000–0.500"));
        for (t, gone) in [
            (&t, "Correct 95% CI, Group"),
            (&with_score, "Correct 95% CI, Group, Rank"),
        ] {
            let width = 40;
            let text = to_text_in(t, &mut Layout::fit(width));
            assert!(text.lines().all(|l| display_width(l) <= width), "{text}");
            assert!(
                text.replace('\n', " ")
                    .contains(&format!("Left out to fit {width} columns: {gone} (")),
                "{text}"
            );
            let table = text.split("Left out").next().unwrap_or_default();
            for w in table.split_whitespace().filter(|w| !w.starts_with('─')) {
                assert!(
                    [
                        "Seat",
                        "Correct",
                        "Rank",
                        "anthropic-",
                        "anthropic-claude-",
                        "claude-",
                        "sonnet-4-5",
                        "2/6",
                        "33.3%",
                        "Score",
                        "0.000–0.500",
                        "1"
                    ]
                    .contains(&w),
                    "{w} in\n{text}"
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
