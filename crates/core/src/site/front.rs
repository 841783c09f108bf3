//! The front page's leaderboards: for each suite, its latest current wave ranked under one
//! rubric, absolutes first, with rank, rank range, interval and tie-group letters when `site`
//! drew them (unless told `--no-ci`), and each seat a link to its page.
//!
//! Which rubric: the one `site --rubric NAME@VERSION` names, when it scores the wave; else the
//! most recently registered rubric that scores it; else the shipped accuracy rubric, which
//! scores every wave (a wave imported without a budget has no efficiency score). The page says
//! which was chosen and why, so a reader never takes one rubric's order for another's.

use std::collections::BTreeMap;

use maud::{Markup, html};

use super::Input;
use super::boards::{Board, with_rank_ranges};
use super::html::{code_spans, conditions_line, count, seat_href, table, wave_href};

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

/// The suites the front page shows, each with the wave and board it shows: the suites
/// `site.toml` pins first, in its order; then the rest with the newest latest wave first (the
/// listing's order is by start, so the latest is the last); a suite whose every wave is
/// withdrawn last. A suite `site.toml` hides is left out.
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
    let mut fronts: Vec<Front<'a>> = order
        .into_iter()
        .filter(|suite| !input.config.hides(suite))
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
        .collect();
    // Pinned first (in their order), then the latest wave that started last (of equal starts,
    // the later listed); `Reverse(None)` sorts after every `Reverse(Some)`, so a suite with no
    // current wave comes last.
    fronts.sort_by_key(|f| {
        (
            input.config.pin(f.suite).unwrap_or(usize::MAX),
            std::cmp::Reverse(
                f.wave
                    .map(|i| (input.waves[i].data.wave.started_at.clone(), i)),
            ),
        )
    });
    fronts
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
    // A rubric that keeps its scale before one that fails `rubric check`, then the most
    // recently registered.
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
            (!a.info.scale_violation, added(a))
                .cmp(&(!b.info.scale_violation, added(b)))
                .then(i.cmp(j))
        });
    if let Some((i, b)) = registered {
        let why = if b.info.scale_violation {
            "the most recently registered rubric that scores this wave (no registered rubric \
             that passes `rubric check` scores it; this one fails it)"
        } else {
            "the most recently registered rubric that passes `rubric check` and scores this wave"
        };
        return Some((i, format!("{passed_over}{why}")));
    }
    boards.iter().position(Board::scores_any).map(|i| {
        (
            i,
            format!(
                "{passed_over}no registered rubric scores this wave, so it is ranked on plain \
                 accuracy (the shipped rubrics/accuracy.v1.toml)"
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

/// The seat a board ranks first (its display name, as the table shows it), and its score as the
/// table prints it: the first row's cells.
fn leader(board: &Board<'_>) -> Option<(String, String, String)> {
    let t = &board.table;
    let row = t.rows.first()?;
    let at = |key: &str| t.columns.iter().position(|c| c.key == key);
    let seat = board.json.seats.first()?.seat.seat.clone();
    let shown = at("seat").map_or_else(|| seat.clone(), |k| row[k].human.clone());
    let score = at("score").map_or_else(|| "—".to_string(), |k| row[k].human.clone());
    // Seats tied with it for the first rank ("1="), said beside it.
    let tied = at("rank").map_or(0, |k| {
        let first = &row[k].human;
        if first.ends_with('=') {
            t.rows
                .iter()
                .skip(1)
                .filter(|r| &r[k].human == first)
                .count()
        } else {
            0
        }
    });
    let shown = match tied {
        0 => shown,
        n => format!("{shown} (tied with {n} more)"),
    };
    Some((seat, shown, score))
}

/// The front page's table of contents: a row per suite, in the order the boards follow — the
/// suite (to its board), the seat that leads its latest current wave and its score on its
/// rubric's scale ([`super::boards::on_scale`]: the suites' rubrics need not share one), the
/// rubric, the wave, and how many seats it has. The leader and score come before the wave, so
/// that a phone shows them beside the sticky suite column (a new user's check).
fn contents(input: &Input, scored: &[Vec<Board<'_>>], fronts: &[Front<'_>]) -> Markup {
    html! {
        div.scroll { table.contents {
            caption { "Contents: each suite's latest current wave and its leader" }
            thead { tr {
                th scope="col" { "Suite" } th scope="col" { "Leader" } th.num scope="col" { "Score" }
                th scope="col" { "Under" } th scope="col" { "Latest wave" } th.num scope="col" { "Seats" }
            } }
            tbody { @for f in fronts {
                tr {
                    td.id { a href=(format!("#{}", suite_anchor(f.suite))) { (f.suite) } }
                    @match f.wave {
                        None => { td colspan="5" { "every wave withdrawn" } }
                        Some(i) => {
                            @let w = &input.waves[i];
                            @match f.board.as_ref().and_then(|(b, _)| leader(&scored[i][*b]).map(|l| (l, &scored[i][*b]))) {
                                Some(((seat, shown, score), board)) => {
                                    td.id { a href=(seat_href(0, &seat)) { (shown) } }
                                    td.num { (super::boards::on_scale(&score, &board.info.rubric)) }
                                    td { (board.info.rubric.id()) }
                                }
                                None => { td { "—" } td.num { "—" } td { "—" } }
                            }
                            td.id { a href=(wave_href(0, &w.data.wave.id)) { (w.data.wave.id) } }
                            td.num { (w.row.seats) }
                        }
                    }
                }
            } }
        } }
    }
}

/// The anchor of a suite's board on the front page.
fn suite_anchor(suite: &str) -> String {
    format!("suite-{}", super::file_name(suite))
}

/// The caution a board's intervals carry when drawn over few problems, as its note says it.
fn rough<'b>(board: &'b Board<'_>) -> Option<&'b str> {
    board.table.notes.iter().find_map(|n| match n {
        crate::report::Note::Text(t) if t.starts_with("Caution: intervals over only") => {
            Some(t.as_str())
        }
        _ => None,
    })
}

/// The one line of notes under a front-page board: the command that prints it in the terminal
/// (with the intervals as the site drew them, which the explanations page states once), and
/// links to what its marks mean and to every note of it on the wave's page.
fn board_line(input: &Input, board: &Board<'_>, wave: &str) -> Markup {
    let drawn = board.json.interval.is_some();
    let terminal = in_the_terminal(input, wave, &board.info.rubric.id(), drawn);
    html! {
        p.note.board-note {
            (code_spans(&terminal)) " "
            (super::manual::link(0, "absolutes", "How to read this board"))
            " · " a href=(format!("{}#leaderboards", wave_href(0, wave))) { "all its notes" }
        }
    }
}

/// The front page: the title and description `site.toml` gives, the contents, then a
/// leaderboard per suite.
pub(super) fn leaderboards(input: &Input, scored: &[Vec<Board<'_>>]) -> Markup {
    let fronts = choose(input, scored);
    let hidden = input.config.hidden.len();
    html! {
        @if fronts.is_empty() {
            @if hidden > 0 {
                p { "Every suite of the ledger is hidden by " code { "site.toml" } "." }
            } @else {
                p { "The ledger holds no wave yet: " code { "benchledger ingest wave.toml" } "." }
            }
        } @else {
            (contents(input, scored, &fronts))
        }
        @for f in &fronts {
            @match f.wave {
                None => {
                    h2 id=(suite_anchor(f.suite)) { "Suite " (f.suite) }
                    p { "Every wave of this suite is withdrawn: it has no current leaderboard." }
                }
                Some(i) => {
                    @let w = &input.waves[i];
                    @let id = &w.data.wave.id;
                    h2 id=(suite_anchor(f.suite)) {
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
                                "Ranked under " strong { (r.id()) } " (" (r.description.as_deref().unwrap_or("")) "): " (code_spans(why)) "."
                                @if r.relative { " " span.tag { "relative: a rank inside this wave only" } }
                                @if board.info.scale_violation { " " span.tag.bad { "fails rubric check" } }
                                // The caution intervals over few problems carry, short here and
                                // whole among the wave's notes.
                                @if let Some(caution) = rough(board) { " " span.tag.bad title=(caution) { "under " (crate::report::intervals::FEW_PROBLEMS) " problems: intervals and tie groups are rough" } }
                            }
                            @let t = with_rank_ranges(board);
                            @let links: Vec<Option<String>> = board.json.seats.iter().map(|s| Some(seat_href(0, &s.seat.seat))).collect();
                            @let board_table = table(&t, Some(&format!("Leaderboard of wave {id}, best first: absolute figures, then the score and rank")), &links);
                            // A board of one seat has nothing to filter.
                            @if board.json.seats.len() > 1 { div data-filter="seat" { (board_table) } } @else { (board_table) }
                            (board_line(input, board, id))
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
