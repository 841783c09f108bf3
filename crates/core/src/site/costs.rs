//! The cost–accuracy figure: the chart, its caption and its data as a table, for one wave (on
//! the wave's page) or for a suite across its current waves (on the front page, as HAL's front
//! page has one benchmark-wide chart). One point per seat and wave; the frontier is drawn over
//! every point of the figure. Where no point can be drawn, the figure says why in words
//! instead of drawing an empty frame.

use maud::{Markup, html};

use super::boards::{Board, uncertainty};
use super::chart::{self, Scatter, ScatterPoint};
use super::frontier::{self, Point};
use super::html::{Words, conditions_line, count, seat_href};
use super::{Input, WaveInput};
use crate::figures::{Known, SeatFigures};
use crate::number::{machine, percent, usd_significant};
use crate::report::Advice;

/// A sum that covers every attempt, else `None`: a chart plots only whole figures.
pub(super) fn whole<T: Copy>(k: &Known<T>, attempts: u64) -> Option<T> {
    (attempts > 0 && k.known == attempts).then_some(k.sum)
}

/// The points a wave gives a figure, what it leaves out and why, and whether no attempt of it
/// records a cost at all. `label` names a seat on the chart (from its display name, else its
/// id); `depth` is the page's depth below
/// the site's root, for the links.
struct WavePoints {
    points: Vec<ScatterPoint>,
    left_out: Vec<String>,
    none_known: bool,
}

fn wave_points(
    w: &WaveInput,
    boards: &[Board<'_>],
    depth: usize,
    label: &dyn Fn(&str) -> String,
) -> WavePoints {
    let mut points = Vec::new();
    let mut left_out = Vec::new();
    let mut none_known = true;
    for s in &w.data.seats {
        let f = SeatFigures::of(&w.data.wave, s);
        none_known &= f.cost_usd.known == 0;
        let interval = boards.iter().find_map(|b| {
            b.json
                .seats
                .iter()
                .find(|j| j.seat.seat == s.seat.id)
                .and_then(|j| uncertainty(j).accuracy)
        });
        let name = label(s.seat.shown());
        match (whole(&f.cost_usd, f.attempts), f.accuracy) {
            (Some(cost), Some(accuracy)) if cost.is_finite() => points.push(ScatterPoint {
                label: name,
                cost,
                accuracy,
                interval,
                pareto: false,
                href: Some(seat_href(depth, &s.seat.id)),
            }),
            (None, _) => left_out.push(format!("{name} (cost unknown for some attempts)")),
            _ => left_out.push(format!("{name} (no accuracy)")),
        }
    }
    WavePoints {
        points,
        left_out,
        none_known,
    }
}

/// The Pareto set marked on `points`, and the frontier's vertices (indices, cheapest first).
fn mark_frontier(points: &mut [ScatterPoint]) -> Vec<usize> {
    let pts: Vec<Point> = points
        .iter()
        .map(|p| Point {
            cost: p.cost,
            accuracy: p.accuracy,
        })
        .collect();
    for (p, on) in points.iter_mut().zip(frontier::pareto(&pts)) {
        p.pareto = on;
    }
    frontier::hal_frontier(&pts)
}

/// A list in words, "none" when empty.
fn listed(items: &[&str], sep: &str) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.join(sep)
    }
}

/// The cost–accuracy figure of one wave, for its page.
pub(super) fn wave_figure(w: &WaveInput, boards: &[Board<'_>], words: Words) -> Markup {
    let wave = &w.data.wave;
    let WavePoints {
        mut points,
        left_out,
        none_known,
    } = wave_points(w, boards, 1, &|s| s.to_string());
    let frontier = mark_frontier(&mut points);
    let scope = format!(" of wave {}", wave.id);
    let s = Scatter {
        id: "frontier".into(),
        title: format!("Cost and accuracy, wave {}", wave.id),
        desc: description(&points, &frontier, &scope),
        points,
        frontier,
    };
    if let Some(one) = lone_point(&s) {
        return one;
    }
    if s.points.is_empty() {
        return html! {
            p.no-chart {
                @if let (true, Some(p)) = (none_known, &w.pricing) {
                    "No cost–accuracy chart: no attempt of this wave records a cost, and " (p.id()) " priced none of them (see the prices note above)."
                } @else if none_known {
                    "No cost–accuracy chart: no attempt of this wave records a cost (this format records none). " (super::html::code_spans(&words(&Advice::NoCost)))
                } @else {
                    "No cost–accuracy chart: no seat has a cost for every attempt. Not plotted: " (left_out.join(", ")) "."
                    @if w.pricing.is_none() { " " (super::html::code_spans(&words(&Advice::NoCost))) }
                }
            }
        };
    }
    figure(&s, html! {}, &left_out, 1)
}

/// The cost–accuracy figure of a suite across its current waves (`waves`, indices into
/// `input.waves`, oldest first), for the front page: a point per seat and wave, labelled
/// `seat (wave)` when there are several waves, the frontier over them all, and each wave's conditions under it, since the
/// figure sets waves side by side.
pub(super) fn suite_figure(
    input: &Input,
    scored: &[Vec<Board<'_>>],
    suite: &str,
    waves: &[usize],
) -> Markup {
    let mut points = Vec::new();
    let mut left_out = Vec::new();
    let mut none_known = true;
    for &i in waves {
        let w = &input.waves[i];
        let id = &w.data.wave.id;
        // A seat is named with its wave where the figure sets several waves side by side.
        let p = if waves.len() > 1 {
            wave_points(w, &scored[i], 0, &|s| format!("{s} ({id})"))
        } else {
            wave_points(w, &scored[i], 0, &|s| s.to_string())
        };
        points.extend(p.points);
        left_out.extend(p.left_out);
        none_known &= p.none_known;
    }
    let frontier = mark_frontier(&mut points);
    let names: Vec<&str> = waves
        .iter()
        .map(|&i| input.waves[i].data.wave.id.as_str())
        .collect();
    let scope = format!(
        " across the current {} of suite {suite} ({})",
        if waves.len() == 1 { "wave" } else { "waves" },
        names.join(", ")
    );
    let s = Scatter {
        id: format!("frontier-{}", super::file_name(suite)),
        title: format!("Cost and accuracy, suite {suite}"),
        desc: description(&points, &frontier, &scope),
        points,
        frontier,
    };
    if let Some(one) = lone_point(&s) {
        return one;
    }
    if s.points.is_empty() {
        return html! {
            p.no-chart {
                "No cost–accuracy chart for this suite: "
                @if none_known {
                    "no attempt of its current waves records a cost (their format records none). " (super::html::code_spans(&(input.advice)(&Advice::NoCost)))
                } @else {
                    "no seat has a cost for every attempt. Not plotted: " (left_out.join(", ")) "."
                }
            }
        };
    }
    let conditions = html! {
        @if waves.len() > 1 {
            " Costs and accuracies are absolutes, comparable across waves; what else differs between these waves is their conditions: "
            @for (k, &i) in waves.iter().enumerate() {
                @if k > 0 { "; " }
                @let w = &input.waves[i];
                (w.data.wave.id) ": " (conditions_line(w))
            }
            "."
        }
    };
    figure(&s, conditions, &left_out, 0)
}

/// In place of a chart of one point (a wave or suite of one seat, issue 31's new-user check:
/// a lone point on axes compares nothing), its figures in a line.
fn lone_point(s: &Scatter) -> Option<Markup> {
    let [p] = s.points.as_slice() else {
        return None;
    };
    Some(html! {
        p.no-chart {
            "No cost–accuracy chart for one seat: " (p.label) " costs "
            (usd_significant(p.cost)) " in total for an accuracy of " (percent(p.accuracy)) "."
        }
    })
}

/// What the chart shows, in words: its `<desc>` and the start of its caption.
fn description(points: &[ScatterPoint], frontier: &[usize], scope: &str) -> String {
    let pareto: Vec<&str> = points
        .iter()
        .filter(|p| p.pareto)
        .map(|p| p.label.as_str())
        .collect();
    let vertices: Vec<&str> = frontier.iter().map(|&i| points[i].label.as_str()).collect();
    format!(
        "Total cost in USD against accuracy for {}{scope}. Pareto set: {}. Frontier \
         (upper convex hull's Pareto-efficient vertices, cheapest first): {}.",
        count(points.len() as u64, "seat"),
        listed(&pareto, ", "),
        listed(&vertices, " → "),
    )
}

/// The chart, its caption (with `more` after the explanation) and its data as a table.
fn figure(s: &Scatter, more: Markup, left_out: &[String], depth: usize) -> Markup {
    let (chart, unlabelled) = chart::scatter(s);
    html! {
        figure {
            div.chart-box { (chart) }
            figcaption {
                (s.desc) " Filled: the Pareto set; the line: the frontier as HAL draws it"
                @if s.points.iter().any(|p| p.interval.is_some()) { "; whiskers: the leaderboard's accuracy interval" }
                " (" (super::manual::link(depth, "frontier", "how to read this chart")) ")."
                @if unlabelled > 0 {
                    " " (count(unlabelled as u64, "point")) " of " (s.points.len())
                    " go unlabelled for want of room near them: each names its seat when pointed at, and the chart's data below lists every one."
                }
                (more)
                @if !left_out.is_empty() { " Not plotted: " (left_out.join(", ")) "." }
            }
            details {
                summary { "The chart's data" }
                div.scroll { table.sortable {
                    thead { tr { th { "Seat" } th.num { "Total USD" } th.num { "Accuracy" } th { "Pareto set" } th { "Frontier vertex" } } }
                    tbody { @for (i, p) in s.points.iter().enumerate() {
                        tr {
                            td data-v=(p.label) { (p.label) }
                            td.num data-v=(machine(p.cost)) { (usd_significant(p.cost)) }
                            td.num data-v=(machine(p.accuracy)) { (percent(p.accuracy)) }
                            td data-v=(p.pareto) { (if p.pareto { "yes" } else { "no" }) }
                            td data-v=(s.frontier.contains(&i)) { (if s.frontier.contains(&i) { "yes" } else { "no" }) }
                        }
                    } }
                } }
            }
        }
    }
}
