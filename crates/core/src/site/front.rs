//! The front page's leaderboards: for each suite, its latest current wave ranked under one
//! rubric, absolutes first, with rank, rank range, interval and tie-group letters when `site`
//! drew them (unless told `--no-ci`), and each seat a link to its page.
//!
//! Which rubric: the one `site --rubric NAME@VERSION` names, when it scores the wave; else the
//! most recently registered rubric that scores it; else the shipped accuracy rubric, which
//! scores every wave (a wave imported without a budget has no efficiency score). The page says
//! which was chosen and why, so a reader never takes one rubric's order for another's.

use std::collections::{BTreeMap, BTreeSet};

use maud::{Markup, html};

use super::Input;
use super::boards::{Board, with_rank_ranges};
use super::html::{code_spans, conditions_line, count, notes, seat_href, table, wave_href};

/// One suite on the front page: its latest current wave and the board it is ranked under.
pub(super) struct Front<'a> {
    pub(super) suite: &'a str,
    /// Index into `input.waves` of the suite's latest current wave; `None` when every wave of
    /// the suite is withdrawn.
    pub(super) wave: Option<usize>,
    /// Index into that wave's boards, and why that rubric.
    pub(super) board: Option<(usize, String)>,
    /// Indices into `input.waves` of every current wave of the suite, oldest first: the
    /// suite's cost–accuracy figure sets them side by side.
    pub(super) current: Vec<usize>,
}

/// The suites in the order their latest wave appears in the listing (oldest first), each with
/// the wave and board the front page shows.
pub(super) fn choose<'a>(input: &'a Input, scored: &[Vec<Board<'_>>]) -> Vec<Front<'a>> {
    let mut current: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    let mut order: Vec<&str> = Vec::new();
    for (i, w) in input.waves.iter().enumerate() {
        let suite = w.data.wave.suite.as_str();
        let slot = current.entry(suite).or_insert_with(|| {
            order.push(suite);
            Vec::new()
        });
        if w.withdrawn.is_none() {
            slot.push(i);
        }
    }
    order
        .into_iter()
        .map(|suite| {
            let current = current.remove(suite).unwrap_or_default();
            let wave = current.last().copied();
            let board = wave.and_then(|i| pick(input, &scored[i]));
            Front {
                suite,
                wave,
                board,
                current,
            }
        })
        .collect()
}

/// The board a wave is ranked under on the front page, and why.
fn pick(input: &Input, boards: &[Board<'_>]) -> Option<(usize, String)> {
    let mut passed_over = String::new();
    if let Some(named) = &input.front_rubric {
        match boards.iter().position(|b| &b.info.rubric.id() == named) {
            Some(i) if boards[i].scores_any() => {
                return Some((
                    i,
                    format!("the rubric this site was made with (--rubric {named})"),
                ));
            }
            _ => {
                passed_over =
                    format!("{named}, named with --rubric, gives no seat of this wave a score; ")
            }
        }
    }
    let registered = boards
        .iter()
        .enumerate()
        .filter(|(_, b)| b.info.registered && b.scores_any())
        .max_by(|(i, a), (j, b)| {
            let added = |b: &Board<'_>| {
                input
                    .rubrics
                    .iter()
                    .position(|r| r == b.info)
                    .and_then(|p| input.rubric_added_at.get(p).cloned())
                    .unwrap_or_default()
            };
            added(a).cmp(&added(b)).then(i.cmp(j))
        });
    if let Some((i, _)) = registered {
        return Some((
            i,
            format!("{passed_over}the most recently registered rubric that scores this wave"),
        ));
    }
    boards.iter().position(Board::scores_any).map(|i| {
        (
            i,
            format!(
                "{passed_over}no registered rubric scores this wave (an efficiency rubric needs \
                 a budget, prices or medians this wave does not declare), so it is ranked on \
                 plain accuracy, the shipped rubrics/accuracy.v1.toml"
            ),
        )
    })
}

/// The command that prints this leaderboard in the terminal, with the intervals as the site drew
/// them, in the face's words.
fn in_the_terminal(input: &Input, wave: &str, rubric: &str, drawn: bool) -> String {
    let ci = input
        .intervals
        .as_ref()
        .filter(|_| drawn)
        .map(|s| (crate::report::intervals::level_text(s), s.resamples, s.seed));
    (input.advice)(&crate::report::Advice::Score {
        wave: wave.to_string(),
        rubric: rubric.to_string(),
        ci,
    })
}

/// The front page's leaderboards, one per suite.
pub(super) fn leaderboards(input: &Input, scored: &[Vec<Board<'_>>]) -> Markup {
    let fronts = choose(input, scored);
    let mut seen = BTreeSet::new();
    html! {
        @if fronts.is_empty() {
            p { "The ledger holds no wave yet: " code { "benchledger ingest wave.toml" } "." }
        }
        @for f in &fronts {
            @match f.wave {
                None => {
                    h2 { "Suite " (f.suite) }
                    p { "Every wave of this suite is withdrawn: it has no current leaderboard." }
                }
                Some(i) => {
                    @let w = &input.waves[i];
                    @let id = &w.data.wave.id;
                    h2 id=(format!("suite-{}", super::file_name(f.suite))) {
                        "Suite " (f.suite) ": wave " a href=(wave_href(0, id)) { (id) }
                    }
                    p.note { (conditions_line(w)) "; " (count(w.row.seats, "seat")) ", " (count(w.row.attempts, "attempt")) "." }
                    (super::html::priced_by(w))
                    p.samples {
                        a href=(super::samples::matrix_path(id)) { "Every problem × seat" }
                        @if let Some(prev) = super::samples::previous_current(input, i) {
                            " · " a href=(super::samples::since_path(&prev.data.wave.id, id)) { "what changed since " (prev.data.wave.id) }
                        }
                    }
                    @match &f.board {
                        None => p { "No seat of this wave has a score under any rubric (no attempt is recorded)." },
                        Some((b, why)) => {
                            @let board = &scored[i][*b];
                            @let r = &board.info.rubric;
                            p.ranked-by {
                                "Ranked under " strong { (r.id()) } " (" (r.description.as_deref().unwrap_or("")) "): " (why) "."
                                @if r.relative { " " span.tag { "relative: a rank inside this wave only" } }
                            }
                            @if board.json.interval.is_some() {
                                @if let Some(line) = board.table.heading.last() { p.note { (line) } }
                            }
                            p.note.terminal { (code_spans(&in_the_terminal(input, id, &r.id(), board.json.interval.is_some()))) }
                            @let t = with_rank_ranges(board);
                            @let links: Vec<Option<String>> = board.json.seats.iter().map(|s| Some(seat_href(0, &s.seat.seat))).collect();
                            (table(&t, Some(&format!("Leaderboard of wave {id}, best first: absolute figures, then the score and rank")), &links))
                            (notes(&t.notes, &mut seen, input.advice))
                        }
                    }
                    h3 { "Cost and accuracy across the suite" }
                    // The figure's other waves, each with the table that priced it, if one did.
                    @for o in f.current.iter().filter(|&&j| j != i).map(|&j| &input.waves[j]).filter(|o| o.pricing.is_some()) {
                        p.note.prices { "Wave " (o.data.wave.id) ":" }
                        (super::html::priced_by(o))
                    }
                    (super::costs::suite_figure(input, scored, f.suite, &f.current))
                }
            }
        }
    }
}
