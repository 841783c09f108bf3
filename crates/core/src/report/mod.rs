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
mod fields;
pub mod groups;
pub mod history;
pub mod intervals;
pub mod models;
pub mod plan;
pub mod prices;
pub mod problems;
pub mod publication;
pub mod rubric;
pub mod sample;
pub mod score;
pub mod trials;
pub mod verify;
pub mod versus;
pub mod waves;
pub mod withdrawn;

use serde::Serialize;

/// Version of the JSON envelope. Bump it when a documented field changes meaning or goes away.
pub(crate) const JSON_FORMAT_VERSION: u32 = 1;

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

    /// A seat as a cell: people read its display name (its id when it has none), a machine
    /// its id, the key.
    pub fn seat(seat: &crate::model::Seat) -> Cell {
        Cell::new(seat.shown(), &seat.id)
    }
}

/// The note under a table that shows seats by their display names, saying which id each name
/// stands for (the id is what `--seat` and the JSON take); `None` when no seat has one.
pub(crate) fn display_names_note<'a>(
    seats: impl IntoIterator<Item = &'a crate::model::Seat>,
) -> Option<Note> {
    names_note(
        seats
            .into_iter()
            .filter_map(|s| Some((s.display_name.as_deref()?, s.id.as_str()))),
    )
}

/// [`display_names_note`] from (display name, id) pairs, each said once however often it
/// comes (a seat of several waves).
pub(crate) fn names_note<'a>(names: impl IntoIterator<Item = (&'a str, &'a str)>) -> Option<Note> {
    let mut named: Vec<String> = Vec::new();
    for (name, id) in names {
        let said = format!("{name} is {id}");
        if !named.contains(&said) {
            named.push(said);
        }
    }
    (!named.is_empty()).then(|| {
        Note::Text(format!(
            "Seats shown by their display names: {}.",
            named.join("; ")
        ))
    })
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
    /// Which columns a narrow terminal loses first: the highest number first, [`ESSENTIAL`]
    /// last (the terminal table of the command line).
    pub priority: u8,
    /// A column that groups the rows (a wave and its conditions): in a table for people its
    /// value is printed on the first row of each run of equal values only. CSV repeats it.
    pub grouped: bool,
}

/// A column a table is not read without: left out to fit a terminal only when nothing else is
/// left and it still could not fit without cutting words.
pub const ESSENTIAL: u8 = 0;
/// The interval asked for of the figure a table is read for (a leaderboard's score): left out
/// after the other columns asked for, before the essential ones (the rank a leaderboard is
/// read for outlasts it).
pub(crate) const ASKED_MAIN: u8 = 1;
/// A column the user asked for (an interval of `--ci`): left out after every other optional
/// column, and only once ids and headers broken at their own separators still do not fit.
pub const ASKED: u8 = 2;
/// A column of ordinary importance.
pub(crate) const NORMAL: u8 = 3;
/// A column of detail: left out before the ordinary ones.
pub const DETAIL: u8 = 4;
/// A column that repeats what another says or the heading states: left out first.
pub const EXTRA: u8 = 5;

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
    /// [`ESSENTIAL`], `ASKED_MAIN`, [`ASKED`], `NORMAL`, [`DETAIL`], [`EXTRA`]).
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
    pub(crate) fn machine_text(key: &str) -> Column {
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
    /// Lines printed below the table (not in CSV): footnotes, labels, warnings, advice.
    pub notes: Vec<Note>,
}

/// A line under a table: the library's own words, or advice named rather than said (see
/// [`Advice`]), so that no listing names a command: each face says advice in its own words.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Note {
    /// A footnote, label or warning in the library's words.
    Text(String),
    /// What the reader can do next; the face that prints the table words it.
    Advice(Advice),
}

impl From<String> for Note {
    fn from(s: String) -> Note {
        Note::Text(s)
    }
}

impl From<&str> for Note {
    fn from(s: &str) -> Note {
        Note::Text(s.to_string())
    }
}

/// Footnotes in the library's words, as notes.
pub(crate) fn texts(lines: Vec<String>) -> impl Iterator<Item = Note> {
    lines.into_iter().map(Note::Text)
}

/// A note as a face without words of its own for advice prints it: the text, or the
/// advice's words here (which name no command).
impl std::fmt::Display for Note {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Note::Text(s) => f.write_str(s),
            Note::Advice(a) => a.fmt(f),
        }
    }
}

/// What a listing advises its reader to do next, named rather than said: the command line
/// says it with its commands, and the library's own words ([`std::fmt::Display`]) name none.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Advice {
    /// The publications listing is empty: freeze a publication.
    NoPublications,
    /// The listed publications can be checked against the ledger.
    VerifyPublications,
    /// The publication chain ends at this hash: keep it outside the ledger, and check later
    /// that the chain still ends there.
    ChainHead(String),
    /// The price tables listing is empty: register one.
    NoPrices,
    /// Prices are USD per million tokens, and one table's rows can be printed.
    PricesShown,
    /// No attempt records a cost (the format records none): a price table can fill the costs
    /// in from each attempt's tokens.
    NoCost,
    /// The rubrics listing is empty: register one.
    NoRubrics,
    /// The waves listing is empty: add a wave.
    NoWaves,
    /// A seat's accuracy trial by trial (`summary`, a whole sentence); the wave's trials can
    /// be looked at one by one.
    Trials { summary: String, wave: String },
    /// What a listing's tie-group letters mean (`summary`, a whole sentence); every pair of
    /// the wave's seats can be looked at.
    Groups { summary: String, wave: String },
    /// Scores of different waves were made under different conditions: compare the waves.
    CompareWaves,
    /// These waves (`waves`, listed) have no stored scores under `rubric`: rescore them.
    Rescore { waves: String, rubric: String },
    /// A leaderboard shown elsewhere (the site's) is the one the terminal prints for `wave`
    /// under `rubric` (`NAME@VERSION`), with the intervals drawn as `ci` says when it has them:
    /// the level in percent, the resamples and the seed.
    Score {
        wave: String,
        rubric: String,
        ci: Option<(String, u32, u64)>,
    },
}

impl std::fmt::Display for Advice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Advice::NoPublications => f.write_str("No publications yet."),
            Advice::VerifyPublications => {
                f.write_str("Each publication can be verified against the ledger.")
            }
            Advice::ChainHead(h) => write!(
                f,
                "Chain head: {h}. Keep it outside the ledger, to check that the chain still \
                 ends there."
            ),
            Advice::NoPrices => f.write_str("No price tables registered."),
            Advice::PricesShown => f.write_str("Prices are USD per million tokens."),
            Advice::NoCost => {
                f.write_str("Add a price table to fill the costs in from each attempt's tokens.")
            }
            Advice::NoRubrics => f.write_str("No rubrics registered."),
            Advice::NoWaves => f.write_str("No waves yet."),
            Advice::Trials { summary, .. } | Advice::Groups { summary, .. } => f.write_str(summary),
            Advice::CompareWaves => f.write_str(
                "Scores of different waves were made under different conditions: compare the \
                 absolutes and the load side by side.",
            ),
            Advice::Rescore { waves, rubric } => {
                write!(f, "No stored scores for {waves} under {rubric}.")
            }
            Advice::Score { wave, rubric, .. } => {
                write!(
                    f,
                    "The same leaderboard: wave {wave} scored under {rubric}."
                )
            }
        }
    }
}

impl Table {
    pub fn new(columns: Vec<Column>) -> Table {
        Table {
            columns,
            ..Table::default()
        }
    }

    /// The columns people see (all but the machine-only ones).
    pub fn human_columns(&self) -> impl Iterator<Item = &Column> {
        self.columns.iter().filter(|c| !c.machine_only)
    }

    /// A row's cells in the columns people see.
    pub fn human_cells<'a>(&'a self, row: &'a [Cell]) -> impl Iterator<Item = &'a Cell> {
        row.iter()
            .zip(&self.columns)
            .filter(|(_, c)| !c.machine_only)
            .map(|(cell, _)| cell)
    }

    /// The table as people see it, without each column (but the first people see) whose every
    /// cell people see is unknown (`—` or empty), and a note naming them in the words of the
    /// rows: "Unknown for every wave, so left out: Timeout ×." (issue 31).
    /// The note is `None`, and the table the same, when no column is left out or there are no
    /// rows. CSV, JSON and Markdown keep every column: they are for machines, and a
    /// publication's text is frozen.
    pub fn without_unknown_columns(&self) -> (Table, Option<String>) {
        let first = self.columns.iter().position(|c| !c.machine_only);
        let unknown = |k: usize| {
            self.rows
                .iter()
                .all(|r| r.get(k).is_none_or(|c| matches!(c.human.trim(), "" | "—")))
        };
        let gone: Vec<usize> = (0..self.columns.len())
            .filter(|&k| {
                !self.columns[k].machine_only
                    && Some(k) != first
                    && !self.rows.is_empty()
                    && unknown(k)
            })
            .collect();
        if gone.is_empty() {
            return (self.clone(), None);
        }
        let mut t = self.clone();
        t.columns = keep(&self.columns, &gone);
        t.rows = self.rows.iter().map(|r| keep(r, &gone)).collect();
        // A footnote that explains a column left out ("Header: ...") goes with it (a new user
        // found "Tokens: ..." under "Unknown ..., so left out: Tokens"), as does the "(k of
        // n)" one when no cell left shows such a count. A note that gives figures of its own
        // (each seat's Cost-of-Pass per problem) stays, whatever columns are left.
        let explains = |text: &str| {
            gone.iter().any(|&k| {
                // The header's name without its qualifier: "Tokens" of "Tokens (cached reads
                // added)".
                let h = self.columns[k]
                    .header
                    .split(" (")
                    .next()
                    .unwrap_or_default();
                !h.is_empty()
                    && text
                        .strip_prefix(h)
                        .is_some_and(|rest| rest.starts_with(':'))
            })
        };
        let counted = t.rows.iter().flatten().any(|c| counts_known(&c.human));
        t.notes.retain(|n| match n {
            Note::Text(text) if text.starts_with("(k of n)") => counted,
            Note::Text(text) => !explains(text),
            Note::Advice(_) => true,
        });
        let names: Vec<&str> = gone
            .iter()
            .map(|&k| self.columns[k].header.as_str())
            .collect();
        // The rows' noun: the first column's header when it is a word ("Wave", "Seat").
        let noun = first
            .map(|k| self.columns[k].header.to_lowercase())
            .filter(|h| !h.is_empty() && h.chars().all(char::is_alphabetic))
            .unwrap_or_else(|| "row".to_string());
        // A plural header ("Rules") names the rows as a whole.
        let every = match noun.as_str() {
            "row" => "in every row".to_string(),
            n if n.ends_with('s') => format!("for all {n}"),
            n => format!("for every {n}"),
        };
        let note = format!(
            "Unknown {every}, so left out: {}.",
            match names.as_slice() {
                [init @ .., last] if !init.is_empty() => format!("{} and {last}", init.join(", ")),
                _ => names.join(""),
            }
        );
        (t, Some(note))
    }
}

/// Whether a cell shows how many of its attempts a figure covers, as "(k of n)" does:
/// "(3 of 5)".
fn counts_known(cell: &str) -> bool {
    cell.split('(').skip(1).any(|rest| {
        let inside = rest.split(')').next().unwrap_or("");
        let mut words = inside.split(' ');
        matches!(
            (words.next(), words.next(), words.next(), words.next()),
            (Some(k), Some("of"), Some(n), None)
                if k.chars().all(|c| c.is_ascii_digit() || c == ',')
                    && n.chars().all(|c| c.is_ascii_digit() || c == ',')
                    && !k.is_empty()
                    && !n.is_empty()
        )
    })
}

/// `items` without the positions in `gone` (ascending).
fn keep<T: Clone>(items: &[T], gone: &[usize]) -> Vec<T> {
    items
        .iter()
        .enumerate()
        .filter(|(k, _)| gone.binary_search(k).is_err())
        .map(|(_, x)| x.clone())
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

/// The table with every cost restated with significant digits
/// (`crate::number::usd_significant`): a cell whose text begins with its own value printed as
/// [`crate::number::usd`] (`$0.0000`, or `$0.0000 (5 of 6)`) has that beginning replaced; an
/// interval's cell (`$0.0000025–$0.0000`, its upper bound the next cell's value, as
/// [`intervals::cells`] makes them) has both bounds restated alike
/// (`crate::number::usd_significant_interval`: `$0.00800–$0.0800`, not `$0.00800–$0.08`).
/// The terminal, the site
/// and `--format md` print tables through this; a publication's frozen text does not, so every
/// publication still verifies byte for byte.
pub fn with_significant_costs(t: &Table) -> Table {
    let mut out = t.clone();
    for row in &mut out.rows {
        for i in 0..row.len() {
            let Ok(x) = row[i].machine.parse::<f64>() else {
                continue;
            };
            let upper = row.get(i + 1).and_then(|c| c.machine.parse::<f64>().ok());
            let cell = &mut row[i];
            let restated = [
                (crate::number::usd(x), crate::number::usd_significant(x)),
                (
                    crate::number::signed_usd(x),
                    crate::number::signed_usd_significant(x),
                ),
            ];
            for (fixed, significant) in restated {
                let Some(rest) = cell.human.strip_prefix(&fixed) else {
                    continue;
                };
                let rest = match upper.and_then(|hi| {
                    rest.strip_prefix(&format!("–{}", crate::number::usd(hi)))
                        .map(|tail| (hi, tail))
                }) {
                    Some((hi, tail)) => {
                        // Both bounds alike: three significant digits on each when either
                        // is below a cent.
                        let (lo, hi) = crate::number::usd_significant_interval(x, hi);
                        cell.human = format!("{lo}–{hi}{tail}");
                        break;
                    }
                    None => rest.to_string(),
                };
                cell.human = format!("{significant}{rest}");
                break;
            }
        }
    }
    out
}

/// Renders a table as Markdown.
pub fn to_markdown(t: &Table) -> String {
    markdown(t, &md_escape)
}

/// [`to_markdown`] as a person is shown it (`--format md`): every control and bidirectional
/// formatting character written as `\u{…}` ([`crate::text::shown`]), so that a note's or
/// title's `\u{1b}[2J` clears no screen it is printed on (issue 32, #2). Never what a
/// publication freezes: [`to_markdown`] and `to_markdown_html_safe` stay as every
/// publication made with them was rendered, so each still verifies byte for byte.
pub fn to_markdown_shown(t: &Table) -> String {
    markdown(t, &|s| crate::text::shown(&md_escape(s)).into_owned())
}

/// [`to_markdown`] with the characters HTML gives meaning to (`&`, `<`, `>`) written as
/// character references in every heading, header, cell and note, so that a renderer that
/// passes HTML through shows a model named `<img src=x onerror=…>` as text. What a
/// publication in format 2 freezes.
pub(crate) fn to_markdown_html_safe(t: &Table) -> String {
    markdown(t, &|s| html_escape(&md_escape(s)))
}

/// `&`, `<` and `>` as the character references `&amp;`, `&lt;` and `&gt;`.
pub(crate) fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn markdown(t: &Table, md_escape: &dyn Fn(&str) -> String) -> String {
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
        out.push_str(&md_escape(&n.to_string()));
        out.push('\n');
    }
    out
}

/// What the `expect`s of the renderers say. Rendering into memory fails only on a bug in
/// benchledger (a row with the wrong number of cells, a JSON body that is not plain data), and
/// output that silently lost a row or turned into `null` would hide it: it panics instead.
pub(crate) const RENDERING_CANNOT_FAIL: &str = "rendering plain data into memory cannot fail";

/// A CSV field as it is written: every control and bidirectional formatting character but a
/// line break or tab (which CSV quotes) escaped as `\u{…}`, so that `cat`ting an export rings
/// no bell and clears no screen (issue 34). JSON and Parquet keep every character.
pub(crate) fn csv_shown(s: &str) -> std::borrow::Cow<'_, str> {
    crate::text::shown_keeping(s, |c| c == '\n' || c == '\t')
}

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
        w.write_record(row.iter().map(|c| csv_shown(&c.machine).into_owned()))
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

#[cfg(test)]
mod tests {
    /// Issue 31 item 2: the waves table folded a second table off just to show a `Timeout ×`
    /// column whose every cell was `—`. Such a column is left out, and one note names it; a
    /// column with one known cell, the first column and machine-only columns stay.
    /// A new user's check: footnotes defined Tokens and "(k of n)" right under the note that
    /// left those columns out. A footnote that explains a column left out goes with it; the
    /// others stay (one giving figures of its own too), and "(k of n)" stays while a cell
    /// shows such a count.
    #[test]
    fn a_footnote_explaining_a_column_left_out_goes_with_it() {
        use super::{Cell, Column, Note, Table};
        let mut t = Table::new(vec![
            Column::text("Seat", "seat"),
            Column::num("Correct", "correct"),
            Column::num("Tokens (cached reads added)", "tokens"),
            Column::num("Cost-of-Pass", "cost_of_pass"),
            Column::num("Wall s", "wall"),
        ]);
        t.rows.push(vec![
            Cell::text("a"),
            Cell::text("1/2"),
            Cell::none(),
            Cell::none(),
            Cell::text("3.0 (1 of 2)"),
        ]);
        for n in [
            "Correct: Correct / attempts.",
            "Tokens: input totals exclude cached reads.",
            "Cost-of-Pass per problem (...): a —.",
            "(k of n): the figure covers only the k attempts whose value is known.",
            "a: 5 trials.",
        ] {
            t.notes.push(Note::Text(n.into()));
        }
        let texts = |t: &Table| -> Vec<String> {
            t.notes
                .iter()
                .map(|n| match n {
                    Note::Text(s) => s.clone(),
                    Note::Advice(_) => String::new(),
                })
                .collect()
        };
        let (out, _) = t.without_unknown_columns();
        assert_eq!(
            texts(&out),
            [
                "Correct: Correct / attempts.",
                "Cost-of-Pass per problem (...): a —.",
                "(k of n): the figure covers only the k attempts whose value is known.",
                "a: 5 trials."
            ]
        );
        // Without the wall column's count, "(k of n)" goes too.
        t.rows[0][4] = Cell::text("3.0");
        let (out, _) = t.without_unknown_columns();
        assert_eq!(
            texts(&out),
            [
                "Correct: Correct / attempts.",
                "Cost-of-Pass per problem (...): a —.",
                "a: 5 trials."
            ]
        );
    }

    #[test]
    fn a_column_no_row_records_is_left_out_with_one_note() {
        use super::{Cell, Column, Table};
        let mut t = Table::new(vec![
            Column::text("Wave", "wave"),
            Column::num("Timeout ×", "timeout_multiplier"),
            Column::num("Parallel", "parallel"),
            Column::text("Remark", "remark"),
            Column::machine("n"),
        ]);
        for (w, p) in [("w1", Cell::none()), ("w2", Cell::text("4"))] {
            t.rows.push(vec![
                Cell::text(w),
                Cell::none(),
                p,
                Cell::text(""),
                Cell::none(),
            ]);
        }
        let (out, note) = t.without_unknown_columns();
        let keys: Vec<&str> = out.columns.iter().map(|c| c.key.as_str()).collect();
        assert_eq!(keys, ["wave", "parallel", "n"]);
        assert_eq!(out.rows[1].len(), 3);
        assert_eq!(out.rows[1][1].human, "4");
        assert_eq!(
            note.as_deref(),
            Some("Unknown for every wave, so left out: Timeout × and Remark.")
        );
        t.columns.remove(3);
        for r in &mut t.rows {
            r.remove(3);
        }
        assert_eq!(
            t.without_unknown_columns().1.as_deref(),
            Some("Unknown for every wave, so left out: Timeout ×.")
        );
        // No rows: nothing is unknown.
        t.rows.clear();
        assert_eq!(t.without_unknown_columns(), (t.clone(), None));
    }

    #[test]
    fn costs_are_restated_with_significant_digits_and_nothing_else() {
        let mut t = super::Table::new(vec![
            super::Column::num("USD", "cost_usd"),
            super::Column::num("Tokens", "tokens"),
        ]);
        t.rows.push(vec![
            super::Cell::new("$0.0000 (5 of 6)", "0.0000152"),
            super::Cell::new("15", "15"),
        ]);
        t.rows.push(vec![
            super::Cell::new("-$0.0042", "-0.0042"),
            super::Cell::new("$2.50", "2.5"),
        ]);
        let s = super::with_significant_costs(&t);
        assert_eq!(s.rows[0][0].human, "$0.0000152 (5 of 6)");
        assert_eq!(s.rows[0][1].human, "15");
        assert_eq!(s.rows[1][0].human, "-$0.00420");
        assert_eq!(s.rows[1][1].human, "$2.50");
        assert_eq!(s.rows[0][0].machine, "0.0000152");
    }

    /// An interval of cheap costs: both bounds restated, the upper read from the next cell
    /// (the `_hi` column); an interval of other figures beside a number is left alone.
    #[test]
    fn both_bounds_of_a_cheap_cost_interval_are_restated() {
        let mut t = super::Table::new(vec![
            super::Column::num("Cost-of-Pass 95% CI", "cost_of_pass_lo"),
            super::Column::machine("cost_of_pass_hi"),
            super::Column::num("Correct 95% CI", "correct_lo"),
            super::Column::machine("correct_hi"),
        ]);
        t.rows.push(vec![
            super::Cell::new("$0.0000–$0.0000", "0.0000025"),
            super::Cell::text("0.0000078"),
            super::Cell::new("41.2–65.0%", "0.412"),
            super::Cell::text("0.65"),
        ]);
        t.rows.push(vec![
            super::Cell::new("$0.52–$0.91", "0.52"),
            super::Cell::text("0.91"),
            super::Cell::none(),
            super::Cell::new("", ""),
        ]);
        let s = super::with_significant_costs(&t);
        assert_eq!(s.rows[0][0].human, "$0.00000250–$0.00000780");
        assert_eq!(s.rows[0][1].human, "0.0000078");
        assert_eq!(s.rows[0][2].human, "41.2–65.0%");
        assert_eq!(s.rows[1][0].human, "$0.52–$0.91");
    }

    /// An interval whose lower bound is below a cent and upper is not: both bounds get three
    /// significant digits, so the two read alike.
    #[test]
    fn an_interval_straddling_a_cent_prints_both_bounds_alike() {
        let mut t = super::Table::new(vec![
            super::Column::num("Cost-of-Pass 95% CI", "cost_of_pass_lo"),
            super::Column::machine("cost_of_pass_hi"),
        ]);
        t.rows.push(vec![
            super::Cell::new("$0.0080–$0.08", "0.008"),
            super::Cell::text("0.08"),
        ]);
        t.rows.push(vec![
            super::Cell::new("$0.0050–$0.52 †", "0.005"),
            super::Cell::text("0.52"),
        ]);
        let s = super::with_significant_costs(&t);
        assert_eq!(s.rows[0][0].human, "$0.00800–$0.0800");
        assert_eq!(s.rows[1][0].human, "$0.00500–$0.520 †");
        assert_eq!(s.rows[0][1].human, "0.08");
    }

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

    /// A listing's advice, in the library's own words, names no command and no flag: the
    /// command line words it (`src/advice.rs`).
    #[test]
    fn advice_in_the_librarys_words_names_no_command() {
        let all = [
            Advice::NoPublications,
            Advice::VerifyPublications,
            Advice::ChainHead("ab12".into()),
            Advice::NoPrices,
            Advice::PricesShown,
            Advice::NoCost,
            Advice::NoRubrics,
            Advice::NoWaves,
            Advice::Trials {
                summary: "a: 2 trials.".into(),
                wave: "w".into(),
            },
            Advice::CompareWaves,
            Advice::Rescore {
                waves: "w1, w2".into(),
                rubric: "r@1".into(),
            },
            Advice::Score {
                wave: "w".into(),
                rubric: "r@1".into(),
                ci: Some(("95".into(), 2000, 0)),
            },
        ];
        for a in all {
            let said = Note::Advice(a).to_string();
            assert!(!said.is_empty());
            assert!(
                !said.contains("benchledger") && !said.contains("`--"),
                "{said}"
            );
        }
        let mut t = sample();
        t.notes.push(Note::Advice(Advice::NoWaves));
        assert!(to_markdown(&t).ends_with("\nnote\n\nNo waves yet.\n"));
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
