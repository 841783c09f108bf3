//! Every sample one click away: per wave, its problem × seat matrix
//! (`waves/W/problems.html`), a page per problem with every seat's attempts and the trace the
//! importer kept (`waves/W/problems/P.html`, only in a wave of at most
//! [`super::Input::problem_pages`] problems, so a large wave's site stays fast; the matrix is
//! always made), and between consecutive current waves of a suite, what each seat newly failed
//! and newly solved (`waves/A/since-B.html`).

use maud::{Markup, html};

use super::html::{count, id_text, layout, seat_href, table, wave_href};
use super::{Input, WaveInput, file_name};
use crate::model::{Attempt, SeatData};
use crate::number::{fixed, int, usd_significant};
use crate::report::problems::{self, MatrixJson, SeatCell};

/// The matrix page's path, from the site's root.
pub(super) fn matrix_path(wave: &str) -> String {
    format!("waves/{}/problems.html", file_name(wave))
}

/// A problem page's path, from the site's root.
pub(super) fn problem_path(wave: &str, problem: &str) -> String {
    format!(
        "waves/{}/problems/{}.html",
        file_name(wave),
        file_name(problem)
    )
}

/// The "what changed" page's path, from the site's root: wave `b` against the wave before it.
pub(super) fn since_path(a: &str, b: &str) -> String {
    format!("waves/{}/since-{}.html", file_name(b), file_name(a))
}

/// The current wave of the same suite listed last before wave `i`, when `i` is current: the
/// wave a "what changed" page compares it with.
pub(super) fn previous_current(input: &Input, i: usize) -> Option<&WaveInput> {
    let w = &input.waves[i];
    if w.withdrawn.is_some() {
        return None;
    }
    input.waves[..i]
        .iter()
        .rev()
        .find(|p| p.withdrawn.is_none() && p.data.wave.suite == w.data.wave.suite)
}

/// Whether a wave gets a page per problem.
pub(super) fn has_problem_pages(w: &WaveInput, limit: usize) -> bool {
    problems::wave_problems(&w.data).len() <= limit
}

fn cell_class(c: &SeatCell) -> &'static str {
    if c.missing {
        "missing"
    } else if c.solves() {
        "pass"
    } else {
        "fail"
    }
}

/// The matrix: a row a problem, most-solved first; a column a seat.
pub(super) fn matrix_page(w: &WaveInput, pages: bool) -> String {
    let m: MatrixJson = problems::matrix(&w.data, &[]);
    let id = &w.data.wave.id;
    let body = html! {
        h1 { "Problems of wave " a href=(wave_href(2, id)) { (id) } }
        p { (count(m.problems.len() as u64, "problem")) " × " (count(m.seats.len() as u64, "seat")) ", the problems most seats solve first. A seat solves a problem when more than half of its trials there are Correct: " span.pass { "pass" } " or " span.fail { "fail" } ", with how many of its trials passed when it ran more than one; " span.missing { "missing" } ": no attempt (counted as not Correct); infrastructure errors are named (an attempt that counts as not Correct)."
            @if pages { " Each problem links to every seat's attempts on it." }
            @else { " This wave has too many problems for a page each (" code { "site --problem-pages N" } " raises the limit); " code { "benchledger problems " (id) } " prints the same matrix." }
        }
        div.scroll { table.sortable.matrix {
            caption { "Problem × seat matrix of wave " (id) }
            thead { tr {
                th scope="col" { "Problem" }
                th.num scope="col" { "Solved by" }
                @for s in &m.seats { th scope="col" { a href=(seat_href(2, s)) { (seat_name(w, s)) } } }
            } }
            tbody { @for p in &m.problems {
                tr {
                    td.id data-v=(p.problem) {
                        @if pages { a href=(format!("problems/{}.html", file_name(&p.problem))) { (id_text(&p.problem)) } }
                        @else { (id_text(&p.problem)) }
                    }
                    td.num data-v=(p.solved_by) { (p.solved_by) " of " (m.seats.len()) }
                    @for s in &m.seats {
                        @let c = &p.seats[s];
                        td class=(cell_class(c)) data-v=(if c.missing { String::new() } else { format!("{}", f64::from(c.passed) / f64::from(c.trials.max(1))) }) { (c.words()) }
                    }
                }
            } }
        } }
    };
    layout(&format!("Problems of wave {id}"), 2, body)
}

/// A seat of the wave as people read it: its display name (with its id on hover), else its id.
fn seat_name(w: &WaveInput, id: &str) -> Markup {
    match w
        .data
        .seats
        .iter()
        .find(|s| s.seat.id == id)
        .and_then(|s| s.seat.display_name.as_deref())
    {
        Some(name) => html! { span title=(id) { (name) } },
        None => id_text(id),
    }
}

/// Where an attempt came from, when its importer said: the file or trial directory, and the
/// record in it.
fn origin(a: &Attempt) -> Markup {
    html! {
        @match &a.origin {
            None => "—",
            Some(o) => {
                // A path breaks only after its slashes.
                code.path { @for (k, part) in o.file.split('/').enumerate() { @if k > 0 { "/" wbr; } (part) } }
                @if let Some(r) = &o.record { br; (r) }
            }
        }
    }
}

/// An attempt's outcome in words.
fn outcome(a: &Attempt) -> Markup {
    html! {
        @if a.infra_error { span.fail { "infrastructure error" } }
        @else if a.correct { span.pass { "Correct" } }
        @else { span.fail { "not Correct" } }
        @if let Some(o) = a.outcome { " (graded " (fixed(o, 2)) ")" }
    }
}

fn opt<T>(v: Option<T>, f: impl Fn(T) -> String) -> String {
    v.map_or_else(|| "—".into(), f)
}

/// The trace the importer kept: each step's tool, and its error when it failed.
fn trace(a: &Attempt) -> Markup {
    html! {
        @match &a.trace {
            None => "—",
            Some(steps) if steps.is_empty() => "no tool call",
            Some(steps) => {
                details {
                    summary { (count(steps.len() as u64, "step")) ", " (steps.iter().filter(|s| !s.ok).count()) " failed" }
                    ol.trace { @for s in steps {
                        li { code { (s.tool) } @if !s.ok { " " span.fail { "failed" @if let Some(e) = &s.error { ": " (e) } } } }
                    } }
                }
            }
        }
    }
}

/// One seat's attempts at one problem, as table rows.
fn attempt_rows(
    seat: &SeatData,
    problem: &str,
    accounting: &crate::model::Accounting,
    origins: bool,
) -> Markup {
    let attempts: Vec<&Attempt> = seat
        .attempts
        .iter()
        .filter(|a| a.problem == problem)
        .collect();
    let name = match &seat.seat.display_name {
        Some(n) => html! { span title=(seat.seat.id) { (n) } },
        None => id_text(&seat.seat.id),
    };
    html! {
        @if attempts.is_empty() {
            tr { td { a href=(seat_href(3, &seat.seat.id)) { (name) } } td.gap colspan=(if origins { "10" } else { "9" }) { span.missing { "missing" } ": no attempt (counted as not Correct)" } }
        }
        // The table's stylesheet sets the numbers' columns (2, 4 to 8) right and unbroken, and
        // the seat's unbroken: a wave's problem pages are most of a site, so no cell repeats
        // a class.
        @for a in &attempts {
            tr {
                td { a href=(seat_href(3, &seat.seat.id)) { (name) } }
                td { (a.trial) }
                td { (outcome(a)) }
                td { (opt(a.tokens_total(accounting), int)) }
                td { (opt(a.wall_s, |v| fixed(v, 1))) }
                td { (opt(a.cost_usd, usd_significant)) }
                td { (opt(a.steps, |v| v.to_string())) }
                td { (opt(a.errors, |v| v.to_string())) }
                td { (a.end_reason.as_deref().unwrap_or("—")) }
                td { (trace(a)) }
                @if origins { td { (origin(a)) } }
            }
        }
    }
}

/// A problem's page: every seat's attempts at it.
pub(super) fn problem_page(w: &WaveInput, problem: &str) -> String {
    let id = &w.data.wave.id;
    // The column of where each attempt came from, when the wave's importer said for any.
    let origins = w
        .data
        .seats
        .iter()
        .flat_map(|s| &s.attempts)
        .any(|a| a.problem == problem && a.origin.is_some());
    let body = html! {
        h1 { "Problem " (problem) }
        p { "Wave " a href=(wave_href(3, id)) { (id) } " · " a href="../problems.html" { "all its problems" } ". Every seat's attempts at this problem, trial by trial, with the trace its importer kept (each tool call, and the error of each that failed)." }
        (super::html::priced_by(w))
        div.scroll { table.attempts {
            caption { "Attempts at " (problem) " in wave " (id) }
            thead { tr {
                th scope="col" { "Seat" } th.num scope="col" { "Trial" } th scope="col" { "Outcome" }
                th.num scope="col" { "Tokens" } th.num scope="col" { "Wall s" } th.num scope="col" { "USD" }
                th.num scope="col" { "Steps" } th.num scope="col" { "Errors" } th scope="col" { "End reason" } th scope="col" { "Trace" }
                @if origins { th scope="col" { "Came from" } }
            } }
            tbody { @for s in &w.data.seats { (attempt_rows(s, problem, &w.data.wave.accounting, origins)) } }
        } }
        p.note { "Tokens: input plus output, with cached reads and writes as this wave's accounting counts them; — when the harness did not say."
            @if origins { " Came from: the log file and the record in it (Inspect's sample and epoch), or the trial's directory (Terminal-Bench, Harbor), relative to the directory of the wave's manifest (of a wave built by ingest --from, to the directory of its --manifest, else to the directory it ran in)." }
        }
    };
    layout(&format!("Problem {problem}, wave {id}"), 3, body)
}

/// What each seat newly failed and newly solved from wave `a` to wave `b`.
pub(super) fn since_page(a: &WaveInput, b: &WaveInput) -> String {
    let r = problems::regressions(&a.data, &b.data, &[]);
    let t = problems::regressions_table(&r);
    let links: Vec<Option<String>> = r
        .seats
        .iter()
        .map(|s| Some(seat_href(2, &s.seat)))
        .collect();
    let (ia, ib) = (&a.data.wave.id, &b.data.wave.id);
    let body = html! {
        h1 { "What changed: " (ia) " → " (ib) }
        p { "Suite " (b.data.wave.suite) ": for every seat in both waves, the problems it solved in " a href=(wave_href(2, ia)) { (ia) } " and not in " a href=(wave_href(2, ib)) { (ib) } ", and the reverse. The same in the terminal: " code { "benchledger problems --regressions " (ia) " " (ib) } "." }
        (table(&t, Some(&format!("Problems each seat solves in one wave and not the other, {ia} → {ib}")), &links))
        @for n in &t.notes { p.note { (n) } }
    };
    layout(&format!("What changed, {ia} → {ib}"), 2, body)
}
