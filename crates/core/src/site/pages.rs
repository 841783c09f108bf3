//! The site's pages, as HTML strings. Every string from the ledger goes through maud's escaping;
//! the only markup written as it is (`PreEscaped`) is the stylesheet and the sorting script
//! below, which are constants of this file.

use std::collections::{BTreeMap, BTreeSet};

use maud::{Markup, html};

use super::boards::{Board, every_wave, with_rank_ranges};
use super::chart::{self, Slope, SlopeRow, Trend, TrendPoint};
use super::costs::whole;
use super::html::{
    Words, count, hash_text, layout, notes, priced_by, publication_file, seat_href, table,
    wave_href,
};
use super::samples;
use super::{Input, Page, PublicationInput, WaveInput, file_name};
use crate::figures::SeatFigures;
use crate::number::{fixed, int_or_fixed, percent};
use crate::report::diff::{self, DiffRow};
use crate::report::score::{RubricInfo, places};
use crate::report::waves::{describe_load, wave_heading};
use crate::report::withdrawn::describe;
use crate::report::{Cell, Column, Table};
use crate::rubric::WaveScores;

/// The rubric changes the site shows: each registered version of a rubric after the first,
/// beside the version before it (indices into `rubrics`).
fn changes(rubrics: &[RubricInfo]) -> Vec<(usize, usize)> {
    let mut by_name: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, r) in rubrics.iter().enumerate() {
        by_name.entry(&r.rubric.name).or_default().push(i);
    }
    let mut out = Vec::new();
    for mut v in by_name.into_values() {
        v.sort_by_key(|&i| rubrics[i].rubric.version);
        out.extend(v.windows(2).map(|w| (w[0], w[1])));
    }
    out
}

fn change_path(old: &RubricInfo, new: &RubricInfo) -> String {
    format!(
        "changes/{}-v{}-v{}.html",
        file_name(&old.rubric.name),
        old.rubric.version,
        new.rubric.version
    )
}

pub(super) fn all(input: &Input) -> Vec<Page> {
    let mut pages = Vec::new();
    let accuracy = crate::rubric::accuracy();
    let scored: Vec<Vec<Board<'_>>> = every_wave(input, &accuracy);
    pages.push(Page {
        path: "index.html".into(),
        body: index(input, &scored),
    });
    pages.push(Page {
        path: super::manual::PATH.into(),
        body: super::manual::page(input),
    });
    // One stylesheet and one script for the whole site (issue 31: every page carried its own).
    pages.push(Page {
        path: super::html::STYLESHEET_PATH.into(),
        body: super::html::stylesheet(),
    });
    pages.push(Page {
        path: super::html::SCRIPT_PATH.into(),
        body: super::html::SCRIPT.into(),
    });
    let problem_pages = samples::problem_pages(input);
    for (i, (w, boards)) in input.waves.iter().zip(&scored).enumerate() {
        let attempts = problem_pages[i] == samples::ProblemPages::Each;
        pages.push(Page {
            path: format!("waves/{}.html", file_name(&w.data.wave.id)),
            body: wave_page(
                w,
                boards,
                samples::previous_current(input, i),
                attempts,
                input.advice,
            ),
        });
    }
    for (i, (w, &each)) in input.waves.iter().zip(&problem_pages).enumerate() {
        let id = &w.data.wave.id;
        pages.push(Page {
            path: samples::matrix_path(id),
            body: samples::matrix_page(w, each),
        });
        if each == samples::ProblemPages::Each {
            for p in crate::report::problems::wave_problems(&w.data) {
                pages.push(Page {
                    path: samples::problem_path(id, &p),
                    body: samples::problem_page(w, &p, input.config.artifacts.as_deref()),
                });
            }
        }
        if let Some(prev) = samples::previous_current(input, i) {
            pages.push(Page {
                path: samples::since_path(&prev.data.wave.id, id),
                body: samples::since_page(prev, w),
            });
        }
    }
    for (seat, body) in seat_pages(input) {
        pages.push(Page {
            path: format!("seats/{}.html", file_name(&seat)),
            body,
        });
    }
    for (old, new) in changes(&input.rubrics) {
        let (o, n) = (&input.rubrics[old], &input.rubrics[new]);
        pages.push(Page {
            path: change_path(o, n),
            body: change_page(input, &scored, old, new),
        });
    }
    for p in &input.publications {
        pages.push(Page {
            path: format!("{}.html", publication_file(p.row.id)),
            body: publication_page(p),
        });
        pages.push(Page {
            path: format!("{}.md", publication_file(p.row.id)),
            body: p.row.output.clone(),
        });
    }
    pages
}

fn status_cell(w: &WaveInput) -> Cell {
    match &w.withdrawn {
        Some(x) => Cell::new(describe(x), "withdrawn"),
        None => Cell::new("current", "current"),
    }
}

/// The front page: each suite's board and chart ([`super::front`]), then every wave, the
/// rubrics, the seats and the publications with the chain head.
fn index(input: &Input, scored: &[Vec<Board<'_>>]) -> String {
    let title = input.config.title.as_deref().unwrap_or("Leaderboard");
    let body = html! {
        h1 { (title) }
        @if let Some(d) = &input.config.description { p.description { (d) } }
        p { "Each suite's latest current wave, best first: correct-rate, wall seconds, tokens and dollars before any score, then the score and the rank. Every seat links to its figures wave over wave, every wave to its samples. Older waves, the registered rubrics and every publication follow. " (super::manual::link(0, "ranking", "How to read this site")) "." }
        (super::front::leaderboards(input, scored))
        h2 { "Waves" }
        (waves_table(input))
        h2 { "Rubrics" }
        (rubrics_section(input))
        h2 { "Seats" }
        (seats_list(input))
        h2 { "Publications" }
        (publications_section(input))
    };
    layout(title, 0, body)
}

/// The front page's table of every wave, oldest first, with its status, each linked to its
/// page; a note when any is withdrawn.
fn waves_table(input: &Input) -> Markup {
    let rows: Vec<_> = input.waves.iter().map(|w| w.row.clone()).collect();
    let reviews: Vec<_> = input
        .waves
        .iter()
        .flat_map(|w| w.reviews.iter().cloned())
        .collect();
    let (mut waves, _) = crate::report::waves::waves(&rows, &reviews);
    waves.columns.push(Column::text("Status", "status"));
    for (row, w) in waves.rows.iter_mut().zip(&input.waves) {
        row.push(status_cell(w));
    }
    let wave_links: Vec<Option<String>> = input
        .waves
        .iter()
        .map(|w| Some(wave_href(0, &w.data.wave.id)))
        .collect();
    html! {
        (table(&waves, Some("Every wave, oldest first, with its load, accounting and budget"), &wave_links))
        @if input.waves.iter().any(|w| w.withdrawn.is_some()) {
            p.note { "A withdrawn or superseded wave is not a current result: it is kept, marked, and left out of rubric changes." }
        }
    }
}

/// The front page's registered rubrics (scale, kind, whether each keeps its scale, digest)
/// and links to their changes.
fn rubrics_section(input: &Input) -> Markup {
    html! {
        @if input.rubrics.is_empty() {
            p { "No rubric is registered: register one with " code { "benchledger rubric add FILE" } " to see leaderboards here." }
        } @else {
            div.scroll { table.sortable {
                thead { tr { th { "Rubric" } th { "Scale" } th { "Kind" } th { "Check" } th { "sha256" } } }
                tbody {
                    @for r in &input.rubrics {
                        tr {
                            td data-v=(r.rubric.id()) { (r.rubric.id()) }
                            td data-v=(r.rubric.scale.range_words()) { (r.rubric.scale.range_words()) }
                            td data-v=(kind(r)) { (kind(r)) }
                            td data-v=(if r.scale_violation { "fails" } else { "keeps" }) {
                                @if r.scale_violation { span.bad { "fails rubric check: its score can leave its scale" } }
                                @else { "keeps its scale" }
                            }
                            td data-v=(r.sha256) { code { (crate::digest::short(&r.sha256)) } }
                        }
                    }
                }
            } }
            @let ch = changes(&input.rubrics);
            @if !ch.is_empty() {
                h3 { "Rubric changes" }
                ul { @for (o, n) in ch {
                    li { a href=(change_path(&input.rubrics[o], &input.rubrics[n])) {
                        (input.rubrics[o].rubric.id()) " → " (input.rubrics[n].rubric.id())
                    } }
                } }
            }
        }
    }
}

/// The front page's list of seats: each by its display names (its id beside them) or its id,
/// with how many waves it ran, filtered by its models, providers and harnesses too.
fn seats_list(input: &Input) -> Markup {
    // Each seat: how many waves it ran, and its display names there, each once, in wave order.
    let mut seats: BTreeMap<&str, (usize, Vec<&str>)> = BTreeMap::new();
    // What the seats list's filter also matches: each seat's models, providers and harnesses.
    let mut terms: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for w in &input.waves {
        for s in &w.data.seats {
            terms.entry(&s.seat.id).or_default().extend([
                s.seat.model.as_str(),
                s.seat.provider.as_str(),
                s.seat.harness.as_str(),
            ]);
            // The model's canonical id too, so that the filter finds a seat whose files wrote
            // the model another way.
            if let Some(c) = super::html::canonical_model(&s.seat.model) {
                terms.entry(&s.seat.id).or_default().insert(c);
            }
            let (n, names) = seats.entry(&s.seat.id).or_default();
            *n += 1;
            if let Some(name) = s.seat.display_name.as_deref()
                && !names.contains(&name)
            {
                names.push(name);
            }
        }
    }
    html! {
        ul.seats data-filter="seat, model, provider or harness" { @for (s, (n, names)) in &seats {
            // A named seat is listed by its name(s), its id beside them (as on its own page).
            li data-f=(terms.get(s).map(|t| t.iter().copied().collect::<Vec<_>>().join(" ")).unwrap_or_default()) {
                @if names.is_empty() {
                    a href=(seat_href(0, s)) { (s) }
                    " (" (count(*n as u64, "wave")) ")"
                } @else {
                    a href=(seat_href(0, s)) title=(s) { (names.join(" / ")) }
                    " (" (s) ", " (count(*n as u64, "wave")) ")"
                }
            }
        } }
    }
}

/// The front page's publications, each with whether it still reproduces, then the chain head
/// and the command that checks the chain still ends there.
fn publications_section(input: &Input) -> Markup {
    html! {
        @if input.publications.is_empty() {
            p { "Nothing is published yet: " code { "benchledger publish --wave W --rubric NAME@VERSION" } "." }
        } @else {
            div.scroll { table.sortable {
                thead { tr { th.num { "#" } th { "Title" } th { "Wave" } th { "Rubric" } th { "Published" } th { "Verification" } } }
                tbody { @for p in &input.publications {
                    tr {
                        td.num data-v=(p.row.id) { a href=(format!("{}.html", publication_file(p.row.id))) { (p.row.id) } }
                        td data-v=(p.row.title) { (p.row.title) }
                        td data-v=(p.row.wave) { (p.row.wave) @if p.withdrawn.is_some() { span.tag { "withdrawn" } } }
                        td data-v=(p.row.rubric) { (p.row.rubric) }
                        td data-v=(p.row.created_at) { (p.row.created_at) }
                        td data-v=(if p.problems.is_empty() { "ok" } else { "mismatch" }) { (verdict(p)) }
                    }
                } }
            } }
        }
        @match &input.head {
            Some(h) => {
                p { "Chain head: " (hash_text(h)) " — check that the chain still ends there with:" }
                pre { code { "benchledger verify --all --expect-head " (h) } }
            }
            None => { p { "Chain head: none (nothing published or withdrawn yet)." } }
        }
    }
}

fn kind(r: &RubricInfo) -> &'static str {
    if r.rubric.relative {
        "relative: a rank inside each wave"
    } else {
        "absolute"
    }
}

fn verdict(p: &PublicationInput) -> Markup {
    html! {
        @if p.problems.is_empty() { span.ok { "reproduces byte for byte" } }
        @else { span.bad { "MISMATCH: " (p.problems.len()) (if p.problems.len() == 1 { " problem" } else { " problems" }) } }
    }
}

fn withdrawn_banner(w: &WaveInput) -> Markup {
    html! {
        @if let Some(x) = &w.withdrawn {
            p.banner { "Wave " (x.wave) " was " (describe(x)) ". It is not a current result." }
        }
    }
}

fn conditions(w: &WaveInput) -> Markup {
    let wave = &w.data.wave;
    html! {
        ul.conditions {
            @for line in wave_heading(wave).into_iter().skip(1) { li { (line) } }
            @if let Some(v) = &wave.provenance.harness_version { li { "Harness version: " (v) } }
            @if let Some(v) = &wave.provenance.producer {
                li { "Produced by " (v) @if let Some(pv) = &wave.provenance.producer_version { " " (pv) } }
            }
            @if let Some(s) = &wave.supersedes { li { "Supersedes " a href=(wave_href(1, s)) { (s) } } }
            li { (count(w.row.seats, "seat")) ", " (count(w.row.attempts, "attempt")) "; content sha256 " (hash_text(&w.row.content.sha256)) }
        }
    }
}

/// A wave's page: its conditions, absolute figures, cost–accuracy chart and boards, linking
/// its matrix (which links each problem's attempts when the wave has a page per problem:
/// `attempts`) and what changed since the suite's previous current wave.
fn wave_page(
    w: &WaveInput,
    boards: &[Board<'_>],
    previous: Option<&WaveInput>,
    attempts: bool,
    words: Words,
) -> String {
    let wave = &w.data.wave;
    let (show, _) = crate::report::waves::show(&w.data);
    let seat_links: Vec<Option<String>> = w
        .data
        .seats
        .iter()
        .map(|s| Some(seat_href(1, &s.seat.id)))
        .collect();
    let mut seen = BTreeSet::new();
    let body = html! {
        h1 { "Wave " (wave.id) @if w.withdrawn.is_some() { span.tag { "withdrawn" } } }
        (withdrawn_banner(w))
        (conditions(w))
        (priced_by(w))
        p.samples {
            a href=(format!("{}/problems.html", file_name(&wave.id))) { "Every problem × seat" } @if attempts { " (which seat solved what, each attempt and its trace)" } @else { " (which seat solved what)" }
            @if let Some(p) = previous {
                " · " a href=(format!("{}/since-{}.html", file_name(&wave.id), file_name(&p.data.wave.id))) { "what changed since " (p.data.wave.id) }
            }
        }
        h2 { "Absolute figures" }
        (table(&show, Some("Each seat's absolute figures"), &seat_links))
        (notes(&show.notes, &mut seen, words))
        h2 { "Cost and accuracy" }
        (super::costs::wave_figure(w, boards, words))
        h2 id="leaderboards" { "Leaderboards" }
        p.note { (super::manual::link(1, "absolutes", "How to read these boards")) }
        @if boards.is_empty() {
            p { "No rubric is registered: register one with " code { "benchledger rubric add FILE" } "." }
        }
        // The boards of rubrics that pass `rubric check` first; a failing rubric's after them,
        // collapsed and marked (issue 31: session-efficiency@1, which prints 125 on 0–100,
        // led rca-wave-2's page).
        // Of those, a board that scores no seat of the wave (a rubric whose inputs the wave
        // does not record, such as a budget) comes after the ones that rank, collapsed: the
        // new-user check found one leading a wave's page with nothing in it.
        @for b in boards.iter().filter(|b| !b.info.scale_violation && b.scores_any()) {
            (wave_board(b, &mut seen, words))
        }
        @for b in boards.iter().filter(|b| !b.info.scale_violation && !b.scores_any()) {
            details.unscored {
                summary { (board_heading(b)) span.note { "scores no seat of this wave" } }
                (wave_board_body(b, &mut seen, words))
            }
        }
        @for b in boards.iter().filter(|b| b.info.scale_violation) {
            details.failing {
                summary { (board_heading(b)) }
                (wave_board_body(b, &mut seen, words))
            }
        }
    };
    layout(&format!("Wave {}", wave.id), 1, body)
}

/// A wave page's heading of one board: its rubric, marked relative or failing its check.
fn board_heading(b: &Board<'_>) -> Markup {
    let r = &b.info.rubric;
    html! {
        h3 {
            "Under " (r.id())
            @if r.relative { span.tag { "relative: a rank inside this wave only" } }
            @if b.info.scale_violation { span.tag.bad { "fails rubric check" } }
        }
    }
}

/// One board of a wave's page: its heading, then [`wave_board_body`].
fn wave_board(b: &Board<'_>, seen: &mut BTreeSet<String>, words: Words) -> Markup {
    html! { (board_heading(b)) (wave_board_body(b, seen, words)) }
}

/// One board of a wave's page under its heading: the rubric's lines, how the intervals were
/// drawn, the table and the notes this page has not printed yet.
fn wave_board_body(b: &Board<'_>, seen: &mut BTreeSet<String>, words: Words) -> Markup {
    let t = with_rank_ranges(b);
    let links: Vec<Option<String>> = b
        .json
        .seats
        .iter()
        .map(|s| Some(seat_href(1, &s.seat.seat)))
        .collect();
    html! {
        @for line in crate::report::score::rubric_heading(b.info) { p.note { (line) } }
        // With intervals (drawn unless `site --no-ci`), the table's last heading line says
        // how they were drawn.
        @if b.json.interval.is_some() {
            @if let Some(line) = b.table.heading.last() { p.note { (line) } }
        }
        (table(&t, None, &links))
        (notes(&t.notes, seen, words))
    }
}

/// Load in a few words for a chart: "6 par · 6 tool · serial" (and " · timeouts ×2").
fn load_words(l: &crate::model::Load) -> String {
    let n = |v: Option<u32>| v.map_or("?".to_string(), |v| v.to_string());
    let mut s = format!(
        "{} par · {} tool",
        n(l.parallel_sessions),
        n(l.tool_server_sessions)
    );
    if l.serial_rerun == Some(true) {
        s.push_str(" · serial");
    }
    if let Some(x) = l.timeout_multiplier {
        s.push_str(&format!(" · timeouts ×{}", crate::number::machine(x)));
    }
    s
}

fn seat_pages(input: &Input) -> Vec<(String, String)> {
    let mut by_seat: BTreeMap<&str, Vec<(&WaveInput, usize)>> = BTreeMap::new();
    for w in &input.waves {
        for (i, s) in w.data.seats.iter().enumerate() {
            by_seat.entry(&s.seat.id).or_default().push((w, i));
        }
    }
    by_seat
        .into_iter()
        .map(|(seat, appearances)| {
            (
                seat.to_string(),
                seat_page(seat, &appearances, input.advice),
            )
        })
        .collect()
}

/// A seat's figures in each suite it ran, one [`TrendPoint`] a wave for each of its wall
/// seconds, tokens and accuracy, suites in the order the seat first ran each.
type SuitePoints<'a> = Vec<(&'a str, [Vec<TrendPoint>; 3])>;

/// A seat's page: its table wave over wave, then its trend charts, each suite's apart.
fn seat_page(seat: &str, appearances: &[(&WaveInput, usize)], words: Words) -> String {
    let (t, links, suites) = seat_waves(appearances);
    let several = suites.len() > 1;
    let charts = seat_charts(seat, suites);
    let mut seen = BTreeSet::new();
    // The display names the seat has in its waves, each once, in wave order.
    let mut names: Vec<&str> = Vec::new();
    for (w, i) in appearances {
        if let Some(n) = w.data.seats[*i].seat.display_name.as_deref()
            && !names.contains(&n)
        {
            names.push(n);
        }
    }
    let body = html! {
        h1 { "Seat " (seat) @if !names.is_empty() { ": " (names.join(" / ")) } }
        p { "Absolute figures wave over wave. Each point is labelled with its wave's load — par: seats running in parallel; tool: sessions sharing the tool server; serial: a serial rerun — so a slowdown under heavier contention shows as such: wall seconds are the load's as much as the seat's. A hollow point is a withdrawn wave, which the line passes over; a figure some attempts lack is not plotted." }
        @if several { p.note { "This seat ran " (charts.len() / 3) " suites: figures of different suites are not comparable, so each suite has its charts." } }
        (table(&t, Some("The seat in each wave"), &links))
        (notes(&[crate::report::waves::FIGURES_NOTE.into()], &mut seen, words))
        @for (w, _) in appearances.iter().filter(|(w, _)| w.pricing.is_some()) {
            p.note.prices { "Wave " (w.data.wave.id) ":" }
            (priced_by(w))
        }
        @for c in &charts {
            @let what = c.title.trim_start_matches(&format!("{seat}: ")).trim_end_matches(", wave over wave");
            // A figure no wave records for the seat gets no heading and no empty axes, but says
            // so in a line.
            @if c.points.iter().all(|p| p.value.is_none()) {
                p.no-chart { "No chart of " (what.to_lowercase()) ": no wave here records " (what.split(',').next().unwrap_or(what).to_lowercase()) " for every attempt of this seat." }
            } @else {
                h2 { (what) }
                figure { div.chart-box { (chart::trend(c)) } figcaption { (c.desc) } }
            }
        }
    };
    layout(&format!("Seat {seat}"), 1, body)
}

/// A seat's table (a row a wave it ran, each linked to its wave) and its figures' points, by
/// suite: each suite gets its own charts, since figures of different suites are not comparable
/// (and a line that had to break wherever another suite's wave fell between two of a suite's
/// said nothing).
fn seat_waves<'a>(
    appearances: &[(&'a WaveInput, usize)],
) -> (Table, Vec<Option<String>>, SuitePoints<'a>) {
    let mut t = Table::new(vec![
        Column::text("Wave", "wave"),
        Column::text("Suite", "suite"),
        Column::text("Started", "started_at"),
        Column::text("Load", "load"),
        Column::text("Model", "model"),
        Column::text("Harness", "harness"),
        Column::num("Correct", "accuracy"),
        Column::num("Wall s", "wall_s"),
        Column::num("Tokens", "tokens_total"),
        Column::num("USD", "cost_usd"),
    ]);
    let mut links = Vec::new();
    let mut suites: SuitePoints<'a> = Vec::new();
    for &(w, i) in appearances {
        let wave = &w.data.wave;
        let s = &w.data.seats[i];
        let f = SeatFigures::of(wave, s);
        let cells = crate::report::waves::absolute_cells(&f, crate::report::waves::Detail::Full);
        let columns = crate::report::waves::absolute_columns(
            wave.accounting.input_tokens_include_cache_reads,
            crate::report::waves::Detail::Full,
        );
        let cell = |key: &str| {
            columns
                .iter()
                .position(|c| c.key == key)
                .map_or_else(Cell::none, |k| cells[k].clone())
        };
        // A withdrawn wave is marked in the table as in the index's (a new user read it as
        // current: only its chart point, hollow, said otherwise).
        let id = match &w.withdrawn {
            Some(_) => Cell::new(format!("{} (withdrawn)", wave.id), &wave.id),
            None => Cell::text(&wave.id),
        };
        t.rows.push(vec![
            id,
            Cell::text(&wave.suite),
            Cell::text(&wave.started_at),
            Cell::new(describe_load(&wave.load), load_words(&wave.load)),
            Cell::text(&s.seat.model),
            Cell::text(&s.seat.harness),
            cell("accuracy"),
            cell("wall_s"),
            cell("tokens_total"),
            cell("cost_usd"),
        ]);
        links.push(Some(wave_href(1, &wave.id)));
        let k = match suites.iter().position(|(id, _)| *id == wave.suite) {
            Some(k) => k,
            None => {
                suites.push((&wave.suite, Default::default()));
                suites.len() - 1
            }
        };
        let [wall, tokens, accuracy] = &mut suites[k].1;
        let joined = !wall.is_empty();
        let point = |value: Option<f64>| TrendPoint {
            wave: wave.id.clone(),
            load: load_words(&wave.load),
            value,
            joined,
            withdrawn: w.withdrawn.is_some(),
        };
        wall.push(point(whole(&f.wall_s, f.attempts)));
        tokens.push(point(whole(&f.tokens_total, f.attempts).map(|v| v as f64)));
        accuracy.push(point(f.accuracy));
    }
    (t, links, suites)
}

/// A seat's three trend charts (wall seconds, tokens, accuracy) for each suite it ran, each
/// named by its suite when there are several.
fn seat_charts(seat: &str, suites: SuitePoints<'_>) -> Vec<Trend> {
    let several = suites.len() > 1;
    suites
        .into_iter()
        .flat_map(|(suite, [wall, tokens, accuracy])| {
            let of = several.then_some(suite);
            [
                trend(
                    seat,
                    of,
                    ("trend-wall", "Wall seconds", "Wall seconds (total)"),
                    false,
                    wall,
                ),
                trend(
                    seat,
                    of,
                    ("trend-tokens", "Tokens", "Tokens (total, cached reads in)"),
                    false,
                    tokens,
                ),
                trend(
                    seat,
                    of,
                    ("trend-accuracy", "Accuracy", "Accuracy"),
                    true,
                    accuracy,
                ),
            ]
        })
        .collect()
}

/// One of a seat's trend charts: `what` (its id, its name, its axis's label) of the seat in
/// each wave of one suite (`suite`, named when the seat ran several), oldest first. Each value
/// in the description as the seat's table prints it: wall seconds with one decimal, tokens
/// whole and grouped, accuracy a percentage.
fn trend(
    seat: &str,
    suite: Option<&str>,
    (id, what, unit): (&str, &str, &str),
    share: bool,
    points: Vec<TrendPoint>,
) -> Trend {
    let text = |v: f64| match (share, what) {
        (true, _) => percent(v),
        (false, "Tokens") => int_or_fixed(v, 1),
        (false, _) => fixed(v, 1),
    };
    let values: Vec<String> = points
        .iter()
        .map(|p| {
            format!(
                "{} {} ({})",
                p.wave,
                p.value.map_or("unknown".into(), text),
                p.load
            )
        })
        .collect();
    let (id, of, title) = match suite {
        Some(suite) => (
            format!("{id}-{}", super::file_name(suite)),
            format!(" of suite {suite}"),
            format!("{seat}: {what}, suite {suite}, wave over wave"),
        ),
        None => (
            id.to_string(),
            String::new(),
            format!("{seat}: {what}, wave over wave"),
        ),
    };
    Trend {
        id,
        title,
        desc: format!(
            "{what} of seat {seat} in each wave{of}, oldest first, each point labelled with its \
             wave's load: {}.",
            values.join("; ")
        ),
        y_label: unit.into(),
        share,
        points,
    }
}

fn change_page(input: &Input, scored: &[Vec<Board<'_>>], old: usize, new: usize) -> String {
    let (o, n) = (&input.rubrics[old], &input.rubrics[new]);
    let comparable = !o.rubric.relative && !n.rubric.relative;
    let current: Vec<(&WaveInput, &Vec<Board<'_>>)> = input
        .waves
        .iter()
        .zip(scored)
        .filter(|(w, _)| w.withdrawn.is_none())
        .collect();
    let pairs: Vec<(WaveScores, WaveScores)> = current
        .iter()
        .map(|(_, b)| (b[old].scores.clone(), b[new].scores.clone()))
        .collect();
    let rows = diff::rows(o, n, &pairs, |wave, seat| {
        let w = current.iter().find(|(w, _)| w.data.wave.id == wave)?;
        let s = w.0.data.seats.iter().find(|s| s.seat.id == seat)?;
        s.seat.display_name.clone()
    });
    let (t, _) = diff::diff(o, n, rows.clone());
    let places = places(&o.rubric).max(places(&n.rubric));
    let marks = scale_marks(o, n, places);
    let mut seen = BTreeSet::new();
    let body = html! {
        h1 { "Rubric change " (o.rubric.id()) " → " (n.rubric.id()) }
        @for info in [o, n] {
            @for line in crate::report::score::rubric_heading(info) { p.note { (line) } }
        }
        @if !comparable {
            p.banner { "A relative rubric's score is a rank inside its own wave: old and new are shown as ranks only, and no slope chart is drawn." }
        }
        p { "Each wave's seats, old score on the left and new on the right; a red point lies outside its rubric's declared scale, and the dashed lines are the scales' bounds. Withdrawn waves are left out." }
        @for (w, _) in &current {
            @let wave = &w.data.wave;
            @let wrows: Vec<&DiffRow> = rows.iter().filter(|r| r.shift.wave == wave.id).collect();
            h2 { "Wave " a href=(wave_href(1, &wave.id)) { (wave.id) } }
            @if comparable && wrows.iter().any(|r| r.shift.old.is_some() || r.shift.new.is_some()) {
                @let slope = Slope {
                    id: format!("slope-{}", file_name(&wave.id)),
                    title: format!("{} → {}, wave {}", o.rubric.id(), n.rubric.id(), wave.id),
                    desc: format!(
                        "Old and new score of each seat of wave {}: {}.",
                        wave.id,
                        wrows.iter().map(|r| format!(
                            "{} {} → {}{}",
                            r.shift.shown(),
                            r.shift.old.map_or("undefined".into(), |v| fixed(v, places)),
                            r.shift.new.map_or("undefined".into(), |v| fixed(v, places)),
                            // Which score left its rubric's scale: "outside its scale" after
                            // both read as if the new one had (a new user's check).
                            match (r.old_outside_scale, r.new_outside_scale) {
                                (true, true) => " (both outside their scales)",
                                (true, false) => " (the old score outside its scale)",
                                (false, true) => " (the new score outside its scale)",
                                (false, false) => "",
                            }
                        )).collect::<Vec<_>>().join("; ")
                    ),
                    old_label: o.rubric.id(),
                    new_label: n.rubric.id(),
                    places,
                    marks: marks.clone(),
                    rows: wrows.iter().map(|r| SlopeRow {
                        label: r.shift.shown().to_string(),
                        old: r.shift.old,
                        new: r.shift.new,
                        old_violation: r.old_outside_scale,
                        new_violation: r.new_outside_scale,
                    }).collect(),
                };
                figure { div.chart-box { (chart::slope(&slope)) } figcaption { (slope.desc) } }
            }
            (table(&rows_of(&t, &wave.id), None, &[]))
        }
        (notes(&t.notes, &mut seen, input.advice))
    };
    layout(&format!("{} → {}", o.rubric.id(), n.rubric.id()), 1, body)
}

/// The rows of a table whose first column is this wave.
fn rows_of(t: &Table, wave: &str) -> Table {
    Table {
        rows: t
            .rows
            .iter()
            .filter(|r| r.first().is_some_and(|c| c.machine == wave))
            .cloned()
            .collect(),
        ..Table::new(t.columns.clone())
    }
}

/// The lines a slope chart draws at the rubrics' scale bounds: one a value, labelled with the
/// bound ("scale max 100.00"), and which rubric's when only one of them has it.
fn scale_marks(o: &RubricInfo, n: &RubricInfo, places: usize) -> Vec<(f64, String)> {
    let mut by_value: Vec<(f64, Vec<(&str, String)>)> = Vec::new();
    for info in [o, n] {
        for (v, end) in [
            (info.rubric.scale.min, "min"),
            (info.rubric.scale.max, "max"),
        ] {
            let Some(v) = v else { continue };
            match by_value.iter_mut().find(|m| m.0 == v) {
                Some(m) => m.1.push((end, info.rubric.id())),
                None => by_value.push((v, vec![(end, info.rubric.id())])),
            }
        }
    }
    by_value
        .into_iter()
        .map(|(v, ends)| {
            let label = if ends.len() == 2 && ends[0].0 == ends[1].0 {
                format!("scale {} {}", ends[0].0, fixed(v, places))
            } else {
                let parts: Vec<String> = ends.iter().map(|(e, id)| format!("{id} {e}")).collect();
                format!("{} {}", parts.join(", "), fixed(v, places))
            };
            (v, label)
        })
        .collect()
}

fn publication_page(p: &PublicationInput) -> String {
    let r = &p.row;
    let digests = [
        (
            "Output (the published text, publications/N.md)",
            Some(r.output_sha256.clone()),
        ),
        (
            "Input rows (canonical serialisation)",
            Some(r.input_sha256.clone()),
        ),
        ("Rubric text", Some(r.rubric_sha256.clone())),
        ("Publication record", Some(r.sha256.clone())),
        ("Previous entry in the chain", r.prev_sha256.clone()),
    ];
    let body = html! {
        h1 { "Publication #" (r.id) ": " (r.title) }
        @if let Some(x) = &p.withdrawn {
            p.banner { "Its wave " (x.wave) " was " (describe(x)) ". The publication still verifies; it is no longer a current leaderboard." }
        }
        p {
            "Wave " a href=(wave_href(1, &r.wave)) { (r.wave) } " under rubric " (r.rubric) ", published " (r.created_at) ". "
            (verdict(p)) " when this site was made."
        }
        @if !p.problems.is_empty() { ul { @for pr in &p.problems { li.bad { (pr) } } } }
        h2 { "Verify it" }
        p { "From the ledger (recomputes the leaderboard from its rows and rubric, compares byte for byte, checks the chain):" }
        pre { code { "benchledger verify " (r.id) } }
        p { "On any machine, from a reproduction bundle:" }
        pre { code { "benchledger bundle " (r.id) " --out repro/ && benchledger verify --bundle repro/" } }
        p { "The published text beside this page, " a href=(format!("{}.md", r.id)) { (r.id) ".md" } ", has the output digest below: " code { "sha256sum " (r.id) ".md" } "." }
        @if !p.signed_by.is_empty() {
            h2 { "Signature" }
            p { "Signed (a DSSE envelope holding an in-toto statement of its input and output texts, its rubric, wave and record; ed25519) by the key with id (the SHA-256 of its raw public key):" }
            @for k in &p.signed_by { p { (hash_text(k)) } }
            p { "Check it with that key's public key file, obtained from its owner by a way you trust:" }
            pre { code { "benchledger verify " (r.id) " --trusted-key PUB" } }
        }
        h2 { "Digests (SHA-256)" }
        div.scroll { table {
            tbody { @for (what, d) in &digests { tr { th scope="row" { (what) } td { @match d { Some(d) => (hash_text(d)), None => "(none: the first)" } } } } }
        } }
        h2 { "The published text" }
        pre.published { (r.output) }
    };
    layout(&format!("Publication #{}", r.id), 1, body)
}
