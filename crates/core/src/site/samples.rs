//! Every sample one click away: per wave, its problem × seat matrix
//! (`waves/W/problems.html`), a page per problem with every seat's attempts and the trace the
//! importer kept (`waves/W/problems/P.html`, only in a wave of at most
//! [`super::Input::problem_pages`] problems, so a large wave's site stays fast, and only in the
//! waves the site's attempts budget covers: [`problem_pages`]; the matrix is always made), and
//! between consecutive current waves of a suite, what each seat newly failed and newly solved
//! (`waves/A/since-B.html`).

use maud::{Markup, html};

use super::config::AttemptPages;
use super::html::{count, id_text, layout, seat_href, table, wave_href};
use super::{Input, WaveInput, file_name};
use crate::model::{Attempt, AttemptTexts, SeatData};
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

/// Whether a wave has few enough problems for a page each (`site --problem-pages`).
pub(super) fn has_problem_pages(w: &WaveInput, limit: usize) -> bool {
    problems::wave_problems(&w.data).len() <= limit
}

/// Whether a wave's problems get a page each, and if not, why not: its matrix says which.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ProblemPages {
    /// A page per problem.
    Each,
    /// More problems than `site --problem-pages` allows a page each.
    TooMany,
    /// Past the site's attempts budget (`site.toml`'s `attempt_pages`).
    OverBudget(u64),
}

/// How many attempts a wave holds, every seat's.
fn attempts_of(w: &WaveInput) -> u64 {
    w.data.seats.iter().map(|s| s.attempts.len() as u64).sum()
}

/// Which of `input.waves` get a page per problem (in their order), within the site's attempts
/// budget ([`super::config::AttemptPages`]): each suite's latest wave, and its latest current
/// wave when that is another, always; then whole waves, newest first (by start, then by id,
/// the later first), while the attempts on problem pages, those waves' included, stay within
/// the budget; the first wave that does not fit ends the run, so that the waves with pages
/// are the newest ones. A wave with too many problems for a page each gets none and costs
/// nothing.
pub(super) fn problem_pages(input: &Input) -> Vec<ProblemPages> {
    let fits: Vec<bool> = input
        .waves
        .iter()
        .map(|w| has_problem_pages(w, input.problem_pages))
        .collect();
    let mut each = vec![false; input.waves.len()];
    let mut newest: Vec<usize> = (0..input.waves.len()).collect();
    let key = |i: usize| {
        let wave = &input.waves[i].data.wave;
        (wave.started_at.as_str(), wave.id.as_str())
    };
    newest.sort_by(|&a, &b| key(b).cmp(&key(a)));
    let mut latest = std::collections::BTreeSet::new();
    let mut latest_current = std::collections::BTreeSet::new();
    let mut used = 0u64;
    for &i in &newest {
        let w = &input.waves[i];
        let suite = w.data.wave.suite.as_str();
        let first = latest.insert(suite);
        let first_current = w.withdrawn.is_none() && latest_current.insert(suite);
        if (first || first_current) && fits[i] {
            each[i] = true;
            used += attempts_of(w);
        }
    }
    let budget = match input.attempt_pages() {
        AttemptPages::All => u64::MAX,
        AttemptPages::Budget(n) => n,
    };
    for &i in &newest {
        if !fits[i] || each[i] {
            continue;
        }
        let n = attempts_of(&input.waves[i]);
        if used.saturating_add(n) > budget {
            break;
        }
        each[i] = true;
        used += n;
    }
    fits.iter()
        .zip(each)
        .map(|(&fits, each)| match (fits, each) {
            (false, _) => ProblemPages::TooMany,
            (true, true) => ProblemPages::Each,
            (true, false) => ProblemPages::OverBudget(budget),
        })
        .collect()
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

/// What a matrix cell sorts on (its share of trials passed), when its class does not say it:
/// the site's script sorts a cell without one as 1 when it passes, 0 when it fails and last when
/// it is missing, so that a cell of one trial, or of trials all passed or all failed, carries
/// no `data-v` (issue 31.7: a megabyte of a 100-wave site's matrices).
fn sort_value(c: &SeatCell) -> Option<String> {
    let share = f64::from(c.passed) / f64::from(c.trials.max(1));
    let said = match cell_class(c) {
        "missing" => true,
        "pass" => share == 1.0,
        _ => share == 0.0,
    };
    (!said).then(|| format!("{share}"))
}

/// What a matrix says of its wave's problem pages: that each problem links to them, or why
/// there are none and how to see an attempt anyway.
fn pages_note(id: &str, pages: ProblemPages) -> Markup {
    html! {
        @match pages {
            ProblemPages::Each => " Each problem links to every seat's attempts on it.",
            ProblemPages::TooMany => {
                " This wave has too many problems for a page each (" code { "site --problem-pages N" } " raises the limit); " code { "benchledger problems " (id) } " prints the same matrix."
            }
            ProblemPages::OverBudget(budget) => {
                p.note.budget {
                    "This wave's problems have no page each (the site gives them to each suite's latest wave and, newest first, to as many more waves as fit in " (crate::number::int(budget)) (if budget == 1 { " attempt" } else { " attempts" }) " in all: " a href=(super::manual::href(2, "attempts")) { "how to read this" } "): "
                    code { "benchledger problems " (id) " --problem ID" } " prints every seat's attempts at one, and " code { "attempt_pages" } " in " code { "site.toml" } " (or " code { "site --attempt-pages N" } ", " code { "all" } " for every wave) raises the budget."
                }
            }
        }
    }
}

/// The matrix: a row a problem, most-solved first; a column a seat.
pub(super) fn matrix_page(w: &WaveInput, pages: ProblemPages) -> String {
    let m: MatrixJson = problems::matrix(&w.data, &[]);
    let id = &w.data.wave.id;
    let each = pages == ProblemPages::Each;
    let over = matches!(pages, ProblemPages::OverBudget(_));
    let body = html! {
        h1 { "Problems of wave " a href=(wave_href(2, id)) { (id) } }
        p { (count(m.problems.len() as u64, "problem")) " × " (count(m.seats.len() as u64, "seat")) ", the problems most seats solve first. A seat solves a problem when more than half of its trials there are Correct: " span.pass { "pass" } " or " span.fail { "fail" } ", with how many of its trials passed when it ran more than one; " span.missing { "missing" } ": no attempt (counted as not Correct); infrastructure errors are named (an attempt that counts as not Correct)."
            @if let Some(n) = m.unlisted { " " (problems::unlisted_note(n)) }
            @if !over { (pages_note(id, pages)) }
        }
        @if over { (pages_note(id, pages)) }
        div data-filter="problem" { div.scroll { table.sortable.matrix {
            caption { "Problem × seat matrix of wave " (id) }
            thead { tr {
                th scope="col" { "Problem" }
                th.num scope="col" { "Solved by" }
                @for s in &m.seats { th scope="col" { a href=(seat_href(2, s)) { (seat_name(w, s)) } } }
            } }
            tbody { (super::html::without_end_tags(html! { @for p in &m.problems {
                tr {
                    td.id data-v=[super::html::id_value(&p.problem)] {
                        @if each { a href=(format!("problems/{}.html", file_name(&p.problem))) { (id_text(&p.problem)) } }
                        @else { (id_text(&p.problem)) }
                    }
                    td.num data-v=(p.solved_by) { (p.solved_by) " of " (m.seats.len()) }
                    @for s in &m.seats {
                        @let c = &p.seats[s];
                        td class=(cell_class(c)) data-v=[sort_value(c)] { (c.words()) }
                    }
                }
            } })) }
        } } }
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

/// An origin's path as a page shows it: as the ledger keeps it when it lies under the
/// manifest's directory; else (absolute, or climbing out with `..`) only its last name, so that
/// no page shows the layout of the machine the wave was ingested on. `true` when it is cut to
/// its name. Display only: the ledger keeps the path as it was given.
fn shown_path(file: &str) -> (&str, bool) {
    let drive = file.as_bytes().get(1) == Some(&b':') && file.as_bytes()[0].is_ascii_alphabetic();
    let outside = file.starts_with('/')
        || file.starts_with('\\')
        || drive
        || file.split(['/', '\\']).any(|s| s == "..");
    if !outside {
        return (file, false);
    }
    let name = file
        .rsplit(['/', '\\'])
        .find(|s| !s.is_empty() && *s != ".." && *s != ".")
        .unwrap_or("");
    (name, true)
}

/// What a cell cut to its file's name says on hover.
const OUTSIDE_TITLE: &str = "outside the directory the wave was ingested from: only the file's name is shown, not where it was";

/// Where an attempt came from, when its importer said: the file or trial directory, and the
/// record in it ([`shown_path`]: only its name when it lies outside the manifest's directory);
/// a link to it under the artifacts base, when the site has one and the file lies below it.
fn origin(a: &Attempt, artifacts: Option<&str>) -> Markup {
    html! {
        @match &a.origin {
            None => "—",
            Some(o) => {
                @let (shown, cut) = shown_path(&o.file);
                // A path breaks only after its slashes.
                @let path = html! { code.path title=[cut.then_some(OUTSIDE_TITLE)] { @for (k, part) in shown.split('/').enumerate() { @if k > 0 { "/" wbr; } (part) } } };
                @match artifacts.and_then(|base| super::config::artifact_link(base, &o.file)) {
                    Some(href) => a href=(href) { (path) },
                    None => (path),
                }
                @if let Some(r) = &o.record {
                    br; (r)
                    @if counts_from_zero(r, a.trial) { " — its file counts trials from 0: this is trial " (a.trial) }
                }
            }
        }
    }
}

/// Whether an origin's record names the attempt's trial as its file counts it, from 0 ("record 1
/// (task 0 trial 0)" for trial 1: tau-bench's and tau2-bench's files), so that the cell says so
/// beside the Trial column, which counts from 1 as the ledger stores it and `trials` and `show`
/// print it (issue 31's new-user check: "trial 0" beside Trial 1).
fn counts_from_zero(record: &str, trial: u32) -> bool {
    let says = |n: u32| {
        let word = format!("trial {n}");
        record
            .match_indices(&word)
            .any(|(i, _)| !record[i + word.len()..].starts_with(|c: char| c.is_ascii_digit()))
    };
    trial >= 1 && says(trial - 1) && !says(trial)
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

/// A column of a problem's attempts table after the seat's.
#[derive(Clone, Copy, PartialEq)]
enum Col {
    Trial,
    Outcome,
    Tokens,
    Wall,
    Usd,
    Steps,
    Errors,
    End,
    Trace,
    Origin,
}

impl Col {
    const ALL: [Col; 10] = [
        Col::Trial,
        Col::Outcome,
        Col::Tokens,
        Col::Wall,
        Col::Usd,
        Col::Steps,
        Col::Errors,
        Col::End,
        Col::Trace,
        Col::Origin,
    ];

    fn header(self) -> &'static str {
        match self {
            Col::Trial => "Trial",
            Col::Outcome => "Outcome",
            Col::Tokens => "Tokens",
            Col::Wall => "Wall s",
            Col::Usd => "USD",
            Col::Steps => "Steps",
            Col::Errors => "Errors",
            Col::End => "End reason",
            Col::Trace => "Trace",
            Col::Origin => "Came from",
        }
    }

    fn numeric(self) -> bool {
        matches!(
            self,
            Col::Trial | Col::Tokens | Col::Wall | Col::Usd | Col::Steps | Col::Errors
        )
    }

    /// Whether an attempt records this column's value (the seat, trial and outcome always).
    fn known(self, a: &Attempt, accounting: &crate::model::Accounting) -> bool {
        match self {
            Col::Trial | Col::Outcome => true,
            Col::Tokens => a.tokens_total(accounting).is_some(),
            Col::Wall => a.wall_s.is_some(),
            Col::Usd => a.cost_usd.is_some(),
            Col::Steps => a.steps.is_some(),
            Col::Errors => a.errors.is_some(),
            Col::End => a.end_reason.is_some(),
            Col::Trace => a.trace.is_some(),
            Col::Origin => a.origin.is_some(),
        }
    }

    fn cell(
        self,
        a: &Attempt,
        accounting: &crate::model::Accounting,
        artifacts: Option<&str>,
    ) -> Markup {
        html! {
            @match self {
                Col::Trial => (a.trial),
                Col::Outcome => (outcome(a)),
                Col::Tokens => (opt(a.tokens_total(accounting), int)),
                Col::Wall => (opt(a.wall_s, |v| fixed(v, 1))),
                Col::Usd => (opt(a.cost_usd, usd_significant)),
                Col::Steps => (opt(a.steps, |v| v.to_string())),
                Col::Errors => (opt(a.errors, |v| v.to_string())),
                Col::End => (a.end_reason.as_deref().unwrap_or("—")),
                Col::Trace => (trace(a)),
                Col::Origin => (origin(a, artifacts)),
            }
        }
    }
}

/// The stylesheet's rule for the columns of a problem's attempts table as shown: the numbers'
/// right and unbroken. A wave's problem pages are most of a site, so no cell repeats a class;
/// the site's stylesheet holds this rule for the table with every column (`table.attempts`),
/// and a page that leaves a column out ([`Col::known`]) carries its own (`table.attempts.trimmed`).
pub(super) fn attempts_rule(cols: &[bool], trimmed: bool) -> String {
    let table = if trimmed {
        ".attempts.trimmed"
    } else {
        ".attempts:not(.trimmed)"
    };
    // Each run of numbers' columns as one selector (`:nth-child(n+4):nth-child(-n+8)`).
    let positions: Vec<usize> = cols
        .iter()
        .enumerate()
        .filter(|(_, numeric)| **numeric)
        .map(|(k, _)| k + 2)
        .collect();
    let mut cells: Vec<String> = Vec::new();
    let mut k = 0;
    while k < positions.len() {
        let start = positions[k];
        let mut end = start;
        while k + 1 < positions.len() && positions[k + 1] == end + 1 {
            k += 1;
            end += 1;
        }
        cells.push(if start == end {
            format!("{table} td:nth-child({start})")
        } else {
            format!("{table} td:nth-child(n+{start}):nth-child(-n+{end})")
        });
        k += 1;
    }
    format!(
        "{}{{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}}",
        cells.join(",")
    )
}

/// The rule for the attempts table with every column (the site's stylesheet holds it).
#[cfg(test)]
pub(super) fn full_attempts_rule() -> String {
    let numeric: Vec<bool> = Col::ALL.iter().map(|c| c.numeric()).collect();
    attempts_rule(&numeric, false)
}

/// A seat as its rows name it: its display name (its id on hover), else its id.
fn seat_label(seat: &SeatData) -> Markup {
    match &seat.seat.display_name {
        Some(n) => html! { span title=(seat.seat.id) { (n) } },
        None => id_text(&seat.seat.id),
    }
}

/// One seat's attempts at one problem, as table rows in the columns `cols`.
fn attempt_rows(
    seat: &SeatData,
    problem: &str,
    accounting: &crate::model::Accounting,
    cols: &[Col],
    artifacts: Option<&str>,
) -> Markup {
    let attempts: Vec<&Attempt> = seat
        .attempts
        .iter()
        .filter(|a| a.problem == problem)
        .collect();
    let name = seat_label(seat);
    html! {
        @if attempts.is_empty() {
            tr { td { a href=(seat_href(3, &seat.seat.id)) { (name) } } td.gap colspan=(cols.len()) { span.missing { "missing" } ": no attempt (counted as not Correct)" } }
        }
        @for a in &attempts {
            tr {
                td { a href=(seat_href(3, &seat.seat.id)) { (name) } }
                @for c in cols { td { (c.cell(a, accounting, artifacts)) } }
            }
        }
    }
}

/// A problem's page: every seat's attempts at it, in the columns some attempt records (a
/// column no attempt at it records is left out, and a note says so).
pub(super) fn problem_page(w: &WaveInput, problem: &str, artifacts: Option<&str>) -> String {
    let id = &w.data.wave.id;
    let accounting = &w.data.wave.accounting;
    let here: Vec<&Attempt> = w
        .data
        .seats
        .iter()
        .flat_map(|s| &s.attempts)
        .filter(|a| a.problem == problem)
        .collect();
    let (cols, gone): (Vec<Col>, Vec<Col>) = Col::ALL
        .iter()
        .partition(|c| here.iter().any(|a| c.known(a, accounting)));
    // Where each attempt came from is a column only for a wave whose importer says, so it is
    // never named as left out.
    let gone: Vec<&str> = gone
        .iter()
        .filter(|c| **c != Col::Origin)
        .map(|c| c.header())
        .collect();
    let trimmed = !gone.is_empty();
    let rule =
        trimmed.then(|| attempts_rule(&cols.iter().map(|c| c.numeric()).collect::<Vec<_>>(), true));
    let body = html! {
        h1 { "Problem " (problem) }
        p { "Wave " a href=(wave_href(3, id)) { (id) } " · " a href="../problems.html" { "all its problems" } " · " (super::manual::link(3, "attempts", "how to read this table")) }
        (super::html::priced_by(w))
        div.scroll { table.attempts.trimmed[trimmed] {
            caption { "Attempts at " (problem) " in wave " (id) }
            thead { tr {
                th scope="col" { "Seat" }
                @for c in &cols { th.num[c.numeric()] scope="col" { (c.header()) } }
            } }
            tbody { (super::html::without_end_tags(html! { @for s in &w.data.seats { (attempt_rows(s, problem, accounting, &cols, artifacts)) } })) }
        } }
        @if trimmed {
            p.note.unrecorded {
                "Unknown for every attempt, so left out: " (super::html::words_list(&gone, "and")) "."
            }
        }
        @let outside = here.iter().filter(|a| a.origin.as_ref().is_some_and(|o| shown_path(&o.file).1)).count();
        @if outside > 0 {
            p.note.outside {
                (count(outside as u64, "attempt")) " with a path outside the directory the wave was ingested from (absolute, or climbing out with ..): shown by the file's name only"
                @if let Some(base) = artifacts { ", not linked under the artifacts base " code { (base) } }
                "."
            }
        }
        (sample_section(w, problem))
    };
    super::html::layout_styled(
        &format!("Problem {problem}, wave {id}"),
        3,
        body,
        rule.as_deref(),
    )
}

/// The sample itself, when the importer kept it (docs/formats.md, "Attempt texts"): what was
/// asked and the target once when every attempt shares them, then each attempt's answer and the
/// scorer's explanation, collapsed per trial. Empty when no attempt at the problem has texts.
fn sample_section(w: &WaveInput, problem: &str) -> Markup {
    let with_texts: Vec<(&SeatData, &Attempt, &AttemptTexts)> = w
        .data
        .seats
        .iter()
        .flat_map(|s| s.attempts.iter().map(move |a| (s, a)))
        .filter(|(_, a)| a.problem == problem)
        .filter_map(|(s, a)| a.texts.as_ref().map(|t| (s, a, t)))
        .collect();
    if with_texts.is_empty() {
        return html! {};
    }
    // A text every attempt with texts gives alike is shown once, above them.
    let shared = |f: fn(&AttemptTexts) -> &Option<String>| -> Option<&str> {
        let first = f(with_texts[0].2).as_deref()?;
        with_texts
            .iter()
            .all(|(_, _, t)| f(t).as_deref() == Some(first))
            .then_some(first)
    };
    let input = shared(|t| &t.input);
    let target = shared(|t| &t.target);
    html! {
        h2 { "The sample" }
        p.note { "As the log recorded it, each text cut to " (int(AttemptTexts::CAP as u64)) " characters (the cut said where made) · " (super::manual::link(3, "sample", "how to read this")) }
        @if let Some(i) = input { h3 { "Input" } pre.sample { (i) } }
        @if let Some(t) = target { h3 { "Target" } pre.sample { (t) } }
        @for (s, a, t) in &with_texts {
            details.sample {
                summary { (seat_label(s)) " · trial " (a.trial) " · " (outcome(a)) }
                dl {
                    @for (name, text) in t.named() {
                        @if !((name == "input" && input.is_some()) || (name == "target" && target.is_some())) {
                            dt { (text_name(name)) } dd { pre.sample { (text) } }
                        }
                    }
                }
            }
        }
    }
}

/// A text's name as a heading says it.
fn text_name(name: &str) -> &'static str {
    match name {
        "input" => "Input",
        "target" => "Target",
        "answer" => "Answer",
        _ => "Explanation",
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_31_a_record_counting_trials_from_0_is_said_to() {
        assert!(counts_from_zero("record 1 (task 0 trial 0)", 1));
        assert!(counts_from_zero("simulation s-2 (task 3 trial 1)", 2));
        // Counting as the ledger does (HELM's), or naming no trial number.
        assert!(!counts_from_zero("entry 3 (instance id7 trial 1)", 1));
        assert!(!counts_from_zero(
            "record 1 (trial nginx.2-of-2.2025-09-05)",
            1
        ));
        assert!(!counts_from_zero("sample q epoch 2", 2));
        // "trial 10" is not "trial 1".
        assert!(!counts_from_zero("record 1 (task 0 trial 10)", 2));
    }

    /// A path under the manifest's directory is shown as kept; one outside it (absolute, or
    /// climbing out) only by its last name, so that no page shows the ingesting machine's
    /// layout.
    #[test]
    fn an_origin_outside_the_manifests_directory_shows_only_its_name() {
        assert_eq!(shown_path("run.json"), ("run.json", false));
        assert_eq!(shown_path("logs/run 1.eval"), ("logs/run 1.eval", false));
        assert_eq!(
            shown_path("/work/data/inspect/run.json"),
            ("run.json", true)
        );
        assert_eq!(shown_path("../../data/jobs/trial-1/"), ("trial-1", true));
        assert_eq!(shown_path("C:/runs/a.json"), ("a.json", true));
        assert_eq!(shown_path("runs/../../x.json"), ("x.json", true));
    }

    /// The site's stylesheet sets the numbers' columns of a problem's table with every column;
    /// a page that leaves some out carries its own rule, for the columns it shows.
    #[test]
    fn the_stylesheet_holds_the_full_attempts_tables_rule() {
        assert!(super::super::html::STYLE.contains(&full_attempts_rule()));
        assert_eq!(
            attempts_rule(&[true, false, true, true, false, true], true),
            ".attempts.trimmed td:nth-child(2),.attempts.trimmed td:nth-child(n+4):nth-child(-n+5),\
             .attempts.trimmed td:nth-child(7)\
             {text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
        );
    }
}
