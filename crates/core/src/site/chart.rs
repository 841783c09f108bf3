//! SVG charts for the static site, drawn in Rust: a cost–accuracy scatter with its frontier, a
//! wave-over-wave trend, and a slope chart of a rubric change.
//!
//! Every chart is markup built with maud, so each string from the ledger in it (a seat, a wave,
//! a rubric name) is escaped like any other text on the page. Every coordinate is printed with
//! one decimal and every tick with the places its step needs, so the same data gives the same
//! bytes on every machine (snapshots stay stable). Each chart carries a `<title>` and a
//! `<desc>`; the page beside it holds the chart's data as a table, its text alternative.
//!
//! The classes are a contract with the browser test: `point` (one per plotted value),
//! `pareto`, `frontier-segment`, `whisker`, `violation`, `slope`, `load`.

use maud::{Markup, html};

use crate::number::fixed;

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 400.0;
/// Margins: left, right, top, bottom.
const LEFT: f64 = 72.0;
const RIGHT: f64 = 170.0;
const TOP: f64 = 36.0;
const BOTTOM: f64 = 64.0;

/// A coordinate, with one decimal.
fn c(x: f64) -> String {
    fixed(x, 1)
}

/// The most decimal places a tick's label is given: past it, the axis is labelled at its two
/// ends ([`ticks`]).
const TICK_PLACES_MAX: usize = 12;

/// The most ticks an axis is given.
const TICKS_MAX: f64 = 50.0;

/// Evenly spaced "nice" ticks (1, 2 or 5 × 10^k) covering [lo, hi], and the decimal places
/// their labels need. Total for every pair of values (issue 34, #8: costs all at or below
/// 1e-308 made the step underflow to 0 and the tick count overflow): a range too narrow for
/// [`TICK_PLACES_MAX`] places, or too wide to step through, is labelled at its two ends; a
/// value that is not finite is taken as the range [0, 1].
pub fn ticks(lo: f64, hi: f64) -> (Vec<f64>, usize) {
    let (lo, hi) = if lo.is_finite() && hi.is_finite() {
        (lo, hi)
    } else {
        (0.0, 1.0)
    };
    let (lo, hi) = if hi > lo { (lo, hi) } else { (lo, lo + 1.0) };
    if hi <= lo {
        // lo + 1 rounds back to lo: a value too large for a unit step.
        return (vec![lo], 0);
    }
    // A fifth of the span, computed without overflowing at f64::MAX.
    let raw = hi / 5.0 - lo / 5.0;
    let exp = raw.log10().floor();
    let ends = |places: usize| (vec![lo, hi], places);
    if !raw.is_normal() || !exp.is_finite() || exp < -(TICK_PLACES_MAX as f64) || exp > 300.0 {
        return ends(if exp > 0.0 { 0 } else { TICK_PLACES_MAX });
    }
    let n = exp as i32;
    // m × 10^n, dividing by a power of ten rather than multiplying by its inverse, so that
    // 3 × 0.2 is 0.6.
    let at = |m: f64| {
        if n >= 0 {
            m * 10f64.powi(n)
        } else {
            m / 10f64.powi(-n)
        }
    };
    let m = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .find(|m| at(*m) >= raw)
        .unwrap_or(10.0);
    let step = at(m);
    let mut first = (lo / step).floor();
    let mut last = (hi / step).ceil();
    // A quotient rounded to 0 (a bound far smaller than the step) is stepped past.
    if at(first * m) > lo {
        first -= 1.0;
    }
    if at(last * m) < hi {
        last += 1.0;
    }
    if !(first.is_finite() && last.is_finite()) || last - first > TICKS_MAX {
        return ends(0);
    }
    let magnitude = if m == 10.0 { n + 1 } else { n };
    let places = usize::try_from(-magnitude).unwrap_or(0);
    let ticks = (first as i64..=last as i64)
        .map(|k| at(k as f64 * m))
        .collect();
    (ticks, places)
}

/// A linear map from data to the plot's pixels.
#[derive(Debug, Clone, Copy)]
struct Axis {
    lo: f64,
    hi: f64,
    from: f64,
    to: f64,
}

impl Axis {
    fn at(&self, v: f64) -> f64 {
        if self.hi == self.lo {
            return (self.from + self.to) / 2.0;
        }
        self.from + (v - self.lo) / (self.hi - self.lo) * (self.to - self.from)
    }
}

/// The frame every chart shares: the `<svg>` element, its title and description, the axis
/// labels, and the content. The chart is drawn `width` wide and shown at least `least` wide
/// (scrolling in its box, `.chart-box`, where the window is narrower) and at most `widest` wide
/// (the window's row permitting).
fn frame(
    id: &str,
    (width, height, least, widest): (f64, f64, f64, f64),
    [title, desc, x_label, y_label]: [&str; 4],
    body: Markup,
) -> Markup {
    frame_at(
        id,
        (width, height, least, widest),
        (LEFT, HEIGHT - 8.0),
        [title, desc, x_label, y_label],
        body,
    )
}

/// [`frame`] with the plot's left edge at `left` (the x axis's label centred under the plot)
/// and that label's baseline at `x_label_y`.
fn frame_at(
    id: &str,
    (width, height, least, widest): (f64, f64, f64, f64),
    (left, x_label_y): (f64, f64),
    [title, desc, x_label, y_label]: [&str; 4],
    body: Markup,
) -> Markup {
    // A chart whose points are links is a group of them, not one image (an image holds no
    // control a keyboard can reach).
    let interactive = body.0.contains("<a href=");
    let t = format!("{id}-title");
    let d = format!("{id}-desc");
    html! {
        svg xmlns="http://www.w3.org/2000/svg" class="chart" id=(id)
            viewBox=(format!("0 0 {} {}", c(width), c(height)))
            style=(format!("max-width:{}px;min-width:{}px", c(widest), c(least)))
            role=(if interactive { "group" } else { "img" }) aria-labelledby=(format!("{t} {d}")) {
            title id=(t) { (title) }
            desc id=(d) { (desc) }
            text.axis-label x=(c(left + (width - left - RIGHT) / 2.0)) y=(c(x_label_y))
                text-anchor="middle" { (x_label) }
            text.axis-label x="16" y=(c(TOP + (HEIGHT - TOP - BOTTOM) / 2.0)) text-anchor="middle"
                transform=(format!("rotate(-90 16 {})", c(TOP + (HEIGHT - TOP - BOTTOM) / 2.0))) {
                (y_label)
            }
            (body)
        }
    }
}

/// The least a trend or slope chart is scaled by, so that its smallest text (10 px) is drawn at
/// 7 px: in a box narrower than that (a phone's), the chart keeps this width and its figure
/// scrolls sideways in its box (`.chart-box`), the page staying as wide as the window. The
/// cost–accuracy chart, whose labels are most of what it says, keeps its size
/// ([`SCATTER_LEAST`]).
const MIN_SCALE: f64 = 0.7;

/// Roughly how wide a label is drawn, in pixels (11 px type).
fn text_width(s: &str) -> f64 {
    s.chars().count() as f64 * 6.2
}

/// How far a label's text reaches above its baseline and below it, in pixels (11 px type: its
/// box, as Chromium measures it, from 10.3 above to 2.9 below; two labels a [`LINE`] apart
/// touch and do not overlap).
const ASCENT: f64 = 10.3;
const DESCENT: f64 = 2.7;
/// The step between two placements of a label, up or down.
const LINE: f64 = 13.0;

/// Something a label keeps clear of, in the chart's coordinates (issue 31.4): a box (a point,
/// the legend, a tick's label, a label already placed) or a line (a whisker, its caps, a
/// segment of the frontier), which a label must not cross.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Obstacle {
    /// Left, top, right, bottom.
    Box(f64, f64, f64, f64),
    /// From one end to the other, with the half of its stroke's width it is drawn with.
    Line((f64, f64), (f64, f64), f64),
}

impl Obstacle {
    /// The box of a label (or of text like it) starting at `x`, `width` wide, on `baseline`.
    pub fn text(x: f64, baseline: f64, width: f64) -> Obstacle {
        Obstacle::Box(x, baseline - ASCENT, x + width, baseline + DESCENT)
    }

    /// The heights it takes between `x0` and `x1` (top, bottom), when it reaches across them.
    fn across(&self, x0: f64, x1: f64) -> Option<(f64, f64)> {
        match *self {
            Obstacle::Box(l, t, r, b) => (l < x1 && x0 < r).then_some((t, b)),
            Obstacle::Line((ax, ay), (bx, by), half) => {
                let (x0, x1) = (x0 - half, x1 + half);
                let (t0, t1) = if ax == bx {
                    if ax < x0 || ax > x1 {
                        return None;
                    }
                    (0.0, 1.0)
                } else {
                    let (u, v) = ((x0 - ax) / (bx - ax), (x1 - ax) / (bx - ax));
                    (u.min(v).max(0.0), u.max(v).min(1.0))
                };
                if t0 > t1 {
                    return None;
                }
                let (ya, yb) = (ay + (by - ay) * t0, ay + (by - ay) * t1);
                Some((ya.min(yb) - half, ya.max(yb) + half))
            }
        }
    }
}

/// Where a label may go: its start left of its point or right of it, and its wanted baseline.
#[derive(Debug, Clone, PartialEq)]
pub struct Wanted {
    /// Where the label may start, in the order tried (right of its point first), each with the
    /// way away from its point (1 rightwards, -1 leftwards), in which it may also slide.
    pub starts: Vec<(f64, f64)>,
    pub baseline: f64,
    pub width: f64,
    /// How far from its point the label may go before it goes without a spot.
    pub reach: Reach,
}

/// How far a label may go from its wanted spot (issue 31's new-user check: a suite's chart of
/// 2,000 points sent labels thousands of pixels below its axis on leader lines as long).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reach {
    /// Anywhere: drawn even when the area has no room for it (below the area, then).
    Anywhere,
    /// Anywhere inside the area, else nowhere.
    Inside,
    /// Only near its wanted spot ([`NEAR`]), where no long leader line is needed to tell whose
    /// it is, else nowhere.
    Near,
}

/// The part of a chart its labels are placed in first: left, top, right, bottom.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Area {
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
}

/// How far a label slides sideways, away from its point, at each step, and how many steps.
const SLIDE: f64 = 16.0;
const SLIDES: usize = 8;
/// How far from its wanted spot a label of [`Reach::Near`] may go: two lines up or down, or two
/// slides sideways (or one of each).
const NEAR: f64 = 2.0 * SLIDE + 1.0;

/// Where labels go so that none covers another or crosses what is drawn (issue 31.4). Each
/// takes the free spot inside `area` nearest its wanted one: on either side of its point, up
/// or down a line at a time, or slid sideways away from it; past every label already placed
/// and every obstacle in `taken` (points, the legend, ticks' labels, whiskers, the frontier),
/// as far as its [`Reach`] lets it. When `area` has no room, a label of [`Reach::Anywhere`]
/// goes down a line at a time below it until it is clear (never above `area.top`), and any
/// other gets no spot (`None`). Those labels are placed first, then the others, each from the
/// top of the chart down; each one's start and baseline are returned in the order given.
pub(crate) fn place_labels_around(
    wanted: &[Wanted],
    taken: &[Obstacle],
    area: Area,
) -> Vec<Option<(f64, f64)>> {
    let mut order: Vec<usize> = (0..wanted.len()).collect();
    order.sort_by(|&a, &b| {
        (wanted[a].reach != Reach::Anywhere)
            .cmp(&(wanted[b].reach != Reach::Anywhere))
            .then(wanted[a].baseline.total_cmp(&wanted[b].baseline))
            .then(wanted[a].starts[0].0.total_cmp(&wanted[b].starts[0].0))
            .then(a.cmp(&b))
    });
    let mut placed: Vec<Obstacle> = taken.to_vec();
    let mut out = vec![None; wanted.len()];
    for i in order {
        let w = &wanted[i];
        // Every start a label may take, and the heights taken across it (computed when first
        // needed: a label moves only up or down from a start, so only these can stop it).
        let mut xs: Vec<(f64, f64)> = Vec::new();
        for (k, &(x, away)) in w.starts.iter().enumerate() {
            for j in 0..=SLIDES {
                let x = x + away * SLIDE * j as f64;
                let inside = x >= area.left && x + w.width <= area.right;
                if j == 0 || inside {
                    xs.push((x, SLIDE * j as f64 + k as f64 * 0.5));
                }
            }
        }
        let mut across: Vec<Option<Vec<(f64, f64)>>> = vec![None; xs.len()];
        let mut free = |k: usize, y: f64| {
            let x = xs[k].0;
            let taken = across[k].get_or_insert_with(|| {
                placed
                    .iter()
                    .filter_map(|o| o.across(x, x + w.width))
                    .collect()
            });
            !taken
                .iter()
                .any(|&(t, b)| t < y + DESCENT && b > y - ASCENT)
        };
        // The spots inside the area, nearest first (of two as near, the lower).
        let lines = ((area.bottom - area.top) / LINE).ceil() as i64 + 1;
        let mut spots: Vec<(f64, usize, f64)> = (-lines..=lines)
            .map(|m| w.baseline + LINE * m as f64)
            .filter(|&y| y >= area.top && y + DESCENT <= area.bottom)
            .flat_map(|y| {
                let xs = &xs;
                (0..xs.len()).map(move |k| ((y - w.baseline).abs() + xs[k].1, k, y))
            })
            .collect();
        spots.sort_by(|a, b| {
            a.0.total_cmp(&b.0)
                .then(a.1.cmp(&b.1))
                .then(b.2.total_cmp(&a.2))
        });
        let near = spots
            .into_iter()
            .take_while(|&(d, _, _)| w.reach != Reach::Near || d <= NEAR)
            .find(|&(_, k, y)| free(k, y));
        if near.is_none() && w.reach != Reach::Anywhere {
            continue;
        }
        // Below the area, a line at a time: far enough down, nothing is in the way (the bound
        // only makes the search total).
        let below = w.baseline + LINE * ((area.bottom - w.baseline) / LINE).ceil().max(0.0);
        let spot = near.map(|(_, k, y)| (xs[k].0, y)).or_else(|| {
            (0..4096).map(|m| below + LINE * m as f64).find_map(|y| {
                (0..xs.len())
                    .filter(|&k| xs[k].1 < SLIDE)
                    .find(|&k| free(k, y))
                    .map(|k| (xs[k].0, y))
            })
        });
        let spot = spot.unwrap_or((w.starts[0].0, w.baseline));
        placed.push(Obstacle::text(spot.0, spot.1, w.width));
        out[i] = Some(spot);
    }
    out
}

/// Horizontal grid lines and labels for the y axis.
fn y_grid(axis: Axis, width: f64, ticks: &[f64], label: impl Fn(f64) -> String) -> Markup {
    y_grid_from(LEFT, axis, width, ticks, label)
}

/// [`y_grid`] for a plot whose left edge is at `left`.
fn y_grid_from(
    left: f64,
    axis: Axis,
    width: f64,
    ticks: &[f64],
    label: impl Fn(f64) -> String,
) -> Markup {
    html! {
        @for &v in ticks {
            line.grid x1=(c(left)) x2=(c(width - RIGHT)) y1=(c(axis.at(v))) y2=(c(axis.at(v))) {}
            text.tick x=(c(left - 6.0)) y=(c(axis.at(v) + 4.0)) text-anchor="end" { (label(v)) }
        }
    }
}

/// A seat on the cost–accuracy chart.
#[derive(Debug, Clone, PartialEq)]
pub struct ScatterPoint {
    pub label: String,
    /// Total USD.
    pub cost: f64,
    /// Accuracy in [0, 1].
    pub accuracy: f64,
    /// An interval around the accuracy, when the leaderboard carries one.
    pub interval: Option<(f64, f64)>,
    pub pareto: bool,
    /// The seat's page, which the point links to.
    pub href: Option<String>,
}

/// The cost–accuracy chart of a wave.
#[derive(Debug, Clone, PartialEq)]
pub struct Scatter {
    pub id: String,
    pub title: String,
    pub desc: String,
    pub points: Vec<ScatterPoint>,
    /// Indices into `points` of the frontier's vertices, cheapest first.
    pub frontier: Vec<usize>,
}

/// Accuracy as a percentage for a tick.
fn pct_tick(v: f64) -> String {
    format!("{}%", fixed(v * 100.0, 0))
}

/// The cost–accuracy chart's width: wider than the others, since it holds a label a seat.
const SCATTER_WIDTH: f64 = 1000.0;
/// How far past [`SCATTER_WIDTH`] a cost–accuracy chart may grow to fill its row.
const SCATTER_GROWTH: f64 = 1.4;
/// The least a cost–accuracy chart is scaled by: its size, so that its seats' labels (11 px)
/// read at 11 px on a phone, where the chart scrolls sideways in its box, the box's edge
/// shadowed where more of it lies (issue 31's new-user check: at [`MIN_SCALE`] they read at
/// 7 px, too small to read).
const SCATTER_LEAST: f64 = 1.0;

/// The cost axis: linear from zero, or logarithmic when the costs span more than ten times
/// (so that cheap seats do not pile up at the origin), with its ticks and their labels.
fn cost_axis(points: &[ScatterPoint], from: f64, to: f64) -> (Axis, bool, Vec<(f64, String)>) {
    let max = points.iter().map(|p| p.cost).fold(0.0, f64::max);
    let min = points.iter().map(|p| p.cost).fold(f64::INFINITY, f64::min);
    if min > 0.0 && max / min > 10.0 {
        let (lo, hi) = (min.log10().floor(), max.log10().ceil());
        let mut ticks = Vec::new();
        for e in lo as i32..=hi as i32 {
            for m in [1.0, 2.0, 5.0] {
                let v = m * 10f64.powi(e);
                if v.log10() <= hi + 1e-9 && (m == 1.0 || hi - lo <= 3.0) {
                    ticks.push((v.log10(), crate::number::usd_significant(v)));
                }
            }
        }
        let axis = Axis { lo, hi, from, to };
        return (axis, true, ticks);
    }
    // A margin past the costliest seat, so that its label stays inside the plot.
    let (xt, xp) = ticks(0.0, if max > 0.0 { max * 1.08 } else { 1.0 });
    let axis = Axis {
        lo: xt[0],
        hi: xt[xt.len() - 1],
        from,
        to,
    };
    let labelled = xt
        .iter()
        .map(|&v| (v, format!("${}", fixed(v, xp))))
        .collect();
    (axis, false, labelled)
}

/// Where each point's label starts: right of the point, or left of it when it would run past
/// the plot's right edge (`right`) into the legend; never left of `left`.
fn label_x(cx: f64, width: f64, left: f64, right: f64) -> f64 {
    if cx + 8.0 + width <= right {
        cx + 8.0
    } else {
        (cx - 8.0 - width).max(left)
    }
}

/// The line from a point to its label `(x, baseline, width)` when the label was moved off its
/// wanted baseline `wanted` and ends up far enough that it could be read as another point's:
/// from the circle's edge to the label's near end.
fn leader_line(
    (cx, cy): (f64, f64),
    (lx, ly, lw): (f64, f64, f64),
    wanted: f64,
) -> Option<((f64, f64), (f64, f64))> {
    if (ly - wanted).abs() < 0.05 {
        return None;
    }
    let end = (if lx > cx { lx - 2.0 } else { lx + lw + 2.0 }, ly - 4.0);
    let (dx, dy) = (end.0 - cx, end.1 - cy);
    let d = (dx * dx + dy * dy).sqrt();
    (d > 12.0).then(|| ((cx + dx / d * 6.0, cy + dy / d * 6.0), end))
}

/// The legend, right of the plot: Pareto set, other seats, the frontier, and the interval
/// whiskers when there are any. Returns it and the boxes it takes (for label placement).
fn scatter_legend(x: f64, y: f64, whiskers: bool) -> (Markup, Vec<Obstacle>) {
    let rows = if whiskers { 4 } else { 3 };
    let taken = (0..rows)
        .map(|k| Obstacle::text(x - 8.0, y + 4.0 + 20.0 * k as f64, 110.0))
        .collect();
    let legend = html! {
        g.legend transform=(format!("translate({} {})", c(x), c(y))) {
            circle.point.pareto.key cx="0" cy="0" r="5" {}
            text x="10" y="4" { "Pareto set" }
            circle.point.key cx="0" cy="20" r="5" {}
            text x="10" y="24" { "other seats" }
            line.frontier-key x1="-6" x2="6" y1="40" y2="40" {}
            text x="10" y="44" { "frontier" }
            @if whiskers {
                line.whisker-key x1="0" x2="0" y1="53" y2="67" {}
                text x="10" y="64" { "accuracy interval" }
            }
        }
    };
    (legend, taken)
}

/// What a cost–accuracy chart's labels keep clear of: every point, whisker (and its caps) and
/// segment of the frontier, the legend, and the axes' ticks and labels.
fn scatter_obstacles(
    s: &Scatter,
    points: &[(f64, f64)],
    y: Axis,
    (x, xt): (&Axis, &[(f64, String)]),
    legend: Vec<Obstacle>,
) -> Vec<Obstacle> {
    let mut taken: Vec<Obstacle> = points
        .iter()
        .map(|&(cx, cy)| Obstacle::Box(cx - 6.0, cy - 6.0, cx + 6.0, cy + 6.0))
        .collect();
    for (p, &(cx, _)) in s.points.iter().zip(points) {
        if let Some((lo, hi)) = p.interval {
            let (top, bottom) = (y.at(hi), y.at(lo));
            taken.push(Obstacle::Line((cx, top), (cx, bottom), 0.75));
            for end in [top, bottom] {
                taken.push(Obstacle::Line((cx - 3.0, end), (cx + 3.0, end), 0.75));
            }
        }
    }
    for w in s.frontier.windows(2) {
        taken.push(Obstacle::Line(points[w[0]], points[w[1]], 1.0));
    }
    taken.extend(legend);
    for k in 0..=5 {
        let label = pct_tick(k as f64 * 0.2);
        let w = text_width(&label);
        taken.push(Obstacle::text(
            LEFT - 6.0 - w,
            y.at(k as f64 * 0.2) + 4.0,
            w,
        ));
    }
    for (v, label) in xt {
        let w = text_width(label);
        taken.push(Obstacle::text(
            x.at(*v) - w / 2.0,
            HEIGHT - BOTTOM + 18.0,
            w,
        ));
    }
    taken.extend(axis_labels("Total cost (USD, log scale)", SCATTER_WIDTH));
    taken
}

/// Where a chart `width` wide prints its axes' labels: the x axis's (`x_label`, 12 px type,
/// centred under the plot) and the y axis's, upright at the left.
fn axis_labels(x_label: &str, width: f64) -> [Obstacle; 2] {
    let w = text_width(x_label) * 12.0 / 11.0;
    let centre = LEFT + (width - LEFT - RIGHT) / 2.0;
    [
        Obstacle::Box(
            centre - w / 2.0,
            HEIGHT - 20.0,
            centre + w / 2.0,
            HEIGHT - 5.0,
        ),
        Obstacle::Box(4.0, TOP, 22.0, HEIGHT - BOTTOM),
    ]
}

/// How many points a cost–accuracy chart may hold and still label each one anywhere inside its
/// plot; past this, a point outside the Pareto set is labelled only near it.
const CROWDED: usize = 40;

/// Where each point of a cost–accuracy chart `width` wide wants its label: right of it, or
/// left when there is no room, just above it; a Pareto point's anywhere in the chart, another's
/// inside the plot, or only near its point in a chart of more than [`CROWDED`].
fn scatter_wanted(s: &Scatter, points: &[(f64, f64)], width: f64) -> Vec<Wanted> {
    s.points
        .iter()
        .zip(points)
        .map(|(p, &(cx, cy))| {
            let w = text_width(&p.label);
            let (right, left) = (cx + 8.0, cx - 8.0 - w);
            let mut starts = Vec::new();
            if right + w <= width - RIGHT {
                starts.push((right, 1.0));
            }
            if left >= 4.0 {
                starts.push((left, -1.0));
            }
            if starts.is_empty() {
                starts.push((label_x(cx, w, 4.0, width - RIGHT), 1.0));
            }
            Wanted {
                starts,
                baseline: cy - 8.0,
                width: w,
                reach: if p.pareto {
                    Reach::Anywhere
                } else if s.points.len() > CROWDED {
                    Reach::Near
                } else {
                    Reach::Inside
                },
            }
        })
        .collect()
}

/// A cost–accuracy chart's lines under its points: each accuracy interval's whisker (capped
/// when it has a length), then the frontier's segments.
fn scatter_lines(s: &Scatter, points: &[(f64, f64)], y: Axis) -> Markup {
    html! {
        @for (p, &(cx, _)) in s.points.iter().zip(points) {
            @if let Some((lo, hi)) = p.interval {
                line.whisker x1=(c(cx)) x2=(c(cx)) y1=(c(y.at(lo))) y2=(c(y.at(hi))) {}
                @if hi > lo {
                    @for end in [lo, hi] {
                        line.whisker-cap x1=(c(cx - 3.0)) x2=(c(cx + 3.0)) y1=(c(y.at(end))) y2=(c(y.at(end))) {}
                    }
                }
            }
        }
        @for w in s.frontier.windows(2) {
            @let (a, b) = (points[w[0]], points[w[1]]);
            line.frontier-segment x1=(c(a.0)) y1=(c(a.1)) x2=(c(b.0)) y2=(c(b.1)) {}
        }
    }
}

/// One point of a cost–accuracy chart at `(cx, cy)`: its leader line when its label was moved
/// off its spot, the point naming its seat, cost and accuracy on hover, and its label where
/// placed (`spot`), linked to the seat's page when it has one.
fn scatter_point(
    p: &ScatterPoint,
    spot: Option<(f64, f64)>,
    (cx, cy): (f64, f64),
    w: &Wanted,
) -> Markup {
    let dot = html! {
        @if let Some((from, to)) = spot.and_then(|(lx, ly)| leader_line((cx, cy), (lx, ly, w.width), w.baseline)) {
            line.label-leader x1=(c(from.0)) y1=(c(from.1)) x2=(c(to.0)) y2=(c(to.1)) {}
        }
        circle.point.pareto[p.pareto] data-seat=(p.label) cx=(c(cx)) cy=(c(cy)) r="5" {
            title {
                (p.label) ": " (crate::number::usd_significant(p.cost)) ", "
                (crate::number::percent(p.accuracy))
                @if p.pareto { " (Pareto set)" }
            }
        }
        @if let Some((lx, ly)) = spot {
            text.point-label x=(c(lx)) y=(c(ly)) { (p.label) }
        }
    };
    html! { @if let Some(href) = &p.href { a href=(href) { (dot) } } @else { (dot) } }
}

/// The cost–accuracy chart, and how many of its points go without a label: every point of the
/// Pareto set is labelled, below the plot when it has no room; another only where the plot has
/// room for it (near its point, in a chart of more than [`CROWDED`]: a suite's chart across a
/// hundred waves holds thousands of points). Each point names its seat when pointed at.
pub(crate) fn scatter(s: &Scatter) -> (Markup, usize) {
    let width = SCATTER_WIDTH;
    let (x, log, xt) = cost_axis(&s.points, LEFT, width - RIGHT);
    let px = |cost: f64| x.at(if log { cost.log10() } else { cost });
    let y = Axis {
        lo: 0.0,
        hi: 1.0,
        from: HEIGHT - BOTTOM,
        to: TOP,
    };
    let yt: Vec<f64> = (0..=5).map(|k| k as f64 * 0.2).collect();
    let points: Vec<(f64, f64)> = s
        .points
        .iter()
        .map(|p| (px(p.cost), y.at(p.accuracy)))
        .collect();
    let whiskers = s.points.iter().any(|p| p.interval.is_some());
    let (legend, legend_boxes) = scatter_legend(width - RIGHT + 14.0, TOP + 6.0, whiskers);
    // Labels avoid each other, every point, whisker and frontier segment, the legend and the
    // axes' labels (issue 31.4); a label moved off its spot is joined to its point by a leader
    // line.
    let taken = scatter_obstacles(s, &points, y, (&x, &xt), legend_boxes);
    let wanted = scatter_wanted(s, &points, width);
    let area = Area {
        left: 4.0,
        top: 12.0,
        right: width - RIGHT,
        bottom: HEIGHT - BOTTOM,
    };
    let spots = place_labels_around(&wanted, &taken, area);
    let unlabelled = spots.iter().filter(|s| s.is_none()).count();
    let label_y: Vec<f64> = spots.iter().flatten().map(|s| s.1).collect();
    let body = html! {
        (y_grid(y, width, &yt, pct_tick))
        @for (v, label) in &xt {
            text.tick x=(c(x.at(*v))) y=(c(HEIGHT - BOTTOM + 18.0)) text-anchor="middle" { (label) }
        }
        (scatter_lines(s, &points, y))
        @for (((p, spot), &at), w) in s.points.iter().zip(&spots).zip(&points).zip(&wanted) {
            (scatter_point(p, *spot, at, w))
        }
        (legend)
    };
    let height = label_y.iter().fold(HEIGHT, |h, y| h.max(y + 8.0));
    // It fills its row, as far as SCATTER_GROWTH × the size it is drawn at (a 1400 px window's
    // whole row; its 11 px labels then read at 15 px); the other charts stop at their size.
    let chart = frame(
        &s.id,
        (width, height, width * SCATTER_LEAST, width * SCATTER_GROWTH),
        [
            &s.title,
            &s.desc,
            if log {
                "Total cost (USD, log scale)"
            } else {
                "Total cost (USD)"
            },
            "Accuracy",
        ],
        body,
    );
    (chart, unlabelled)
}

/// One wave's value in a seat's trend.
#[derive(Debug, Clone, PartialEq)]
pub struct TrendPoint {
    pub wave: String,
    /// The wave's load, in a few words, written above the point.
    pub load: String,
    /// None when unknown (nothing drawn, the gap shown).
    pub value: Option<f64>,
    /// Joined by a line to the current point before (same suite, both known; a withdrawn
    /// wave's point is joined to none).
    pub joined: bool,
    /// The wave is withdrawn: drawn hollow (a current wave's point is filled).
    pub withdrawn: bool,
}

/// A seat's figure wave over wave.
#[derive(Debug, Clone, PartialEq)]
pub struct Trend {
    pub id: String,
    pub title: String,
    pub desc: String,
    /// The y axis's label, with its unit.
    pub y_label: String,
    /// Accuracy (fixed 0–100 %) rather than an amount from 0.
    pub share: bool,
    pub points: Vec<TrendPoint>,
}

/// The load above a trend's point, a line each: "6 par", "6 tool", and "serial" for a serial
/// rerun: narrow enough for a wave every [`TREND_STEP`] pixels.
fn load_lines(load: &str) -> Vec<&str> {
    load.split(" · ").collect()
}

/// Pixels between two waves of a trend; a long history makes a wider chart, which the page
/// scrolls.
const TREND_STEP: f64 = 56.0;

pub fn trend(t: &Trend) -> Markup {
    let max = t.points.iter().filter_map(|p| p.value).fold(0.0, f64::max);
    let (yt, yp) = if t.share {
        ((0..=5).map(|k| k as f64 * 0.2).collect(), 0)
    } else {
        ticks(0.0, if max > 0.0 { max } else { 1.0 })
    };
    let y = Axis {
        lo: yt[0],
        hi: yt[yt.len() - 1],
        from: HEIGHT - BOTTOM,
        to: TOP + 24.0,
    };
    let label = |v: f64| {
        if t.share {
            pct_tick(v)
        } else {
            crate::number::int_or_fixed(v, yp)
        }
    };
    // The plot starts right of its widest tick label, which stays clear of the y axis's
    // label (drawn upright at x = 16, about 12 px wide).
    let widest = yt
        .iter()
        .map(|&v| text_width(&label(v)))
        .fold(0.0, f64::max);
    let left = LEFT.max(widest + 34.0);
    let width = WIDTH.max(left + RIGHT + TREND_STEP * t.points.len() as f64);
    let n = t.points.len().max(1) as f64;
    let xs: Vec<f64> = (0..t.points.len())
        .map(|i| left + (i as f64 + 0.5) * (width - left - RIGHT) / n)
        .collect();
    let (height, x_label_y) = trend_x_label(t, &xs, left, width);
    let body = html! {
        (y_grid_from(left, y, width, &yt, label))
        @for (i, j) in trend_segments(&t.points) {
            @if let (Some(a), Some(b)) = (t.points[i].value, t.points[j].value) {
                line.trend x1=(c(xs[i])) y1=(c(y.at(a))) x2=(c(xs[j])) y2=(c(y.at(b))) {}
            }
        }
        @for (i, p) in t.points.iter().enumerate() {
            text.tick x=(c(xs[i])) y=(c(HEIGHT - BOTTOM + 16.0)) text-anchor="end"
                transform=(format!("rotate(-20 {} {})", c(xs[i]), c(HEIGHT - BOTTOM + 16.0))) {
                (p.wave)
            }
            @if let Some(v) = p.value {
                @let lines = load_lines(&p.load);
                circle.point.current[!p.withdrawn].withdrawn[p.withdrawn] data-wave=(p.wave) cx=(c(xs[i])) cy=(c(y.at(v)))
                    r="5" {
                    title { (p.wave) ": " (t.value_text(v)) " under load " (p.load) }
                }
                text.load x=(c(xs[i])) y=(c(y.at(v) - 10.0 - 11.0 * (lines.len() - 1) as f64))
                    text-anchor="middle" {
                    @for (k, line) in lines.iter().enumerate() {
                        tspan x=(c(xs[i])) dy=(if k == 0 { "0" } else { "11" }) { (line) }
                    }
                }
            }
        }
    };
    frame_at(
        &t.id,
        (width, height, width * MIN_SCALE, width),
        (left, x_label_y),
        [&t.title, &t.desc, TREND_X_LABEL, &t.y_label],
        body,
    )
}

/// The points a trend's line joins, as pairs of indices: each current wave's point to the
/// current wave's before it, when it is joined to it and both are known (an unknown value
/// breaks the line). A withdrawn wave's point is drawn, hollow, and joined to none: a line
/// through it read as a result of the seat's (issue 31's new-user check).
fn trend_segments(points: &[TrendPoint]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut before: Option<usize> = None;
    for (j, p) in points.iter().enumerate() {
        if p.withdrawn {
            continue;
        }
        if let Some(i) = before.filter(|_| p.joined)
            && points[i].value.is_some()
            && p.value.is_some()
        {
            out.push((i, j));
        }
        before = Some(j);
    }
    out
}

/// The x axis's label of a trend.
const TREND_X_LABEL: &str = "Wave (oldest first)";

/// The height of a trend and the baseline of its x axis's label: below every wave's slanted
/// label that reaches under it (a long wave id runs down past the usual baseline), the chart
/// made taller by as much.
fn trend_x_label(t: &Trend, xs: &[f64], left: f64, width: f64) -> (f64, f64) {
    // The slant of the wave labels (20°), where they hang from, and the axis label's extent.
    let (sin, cos) = 20f64.to_radians().sin_cos();
    let hang = HEIGHT - BOTTOM + 16.0;
    let centre = left + (width - left - RIGHT) / 2.0;
    let half = text_width(TREND_X_LABEL) * 12.0 / 11.0 / 2.0;
    // The lowest a slanted label under the axis label reaches (its descenders 4 px below).
    let lowest = t
        .points
        .iter()
        .zip(xs)
        .filter(|(p, x)| {
            let w = text_width(&p.wave);
            *x - w * cos < centre + half && **x > centre - half
        })
        .map(|(p, _)| hang + text_width(&p.wave) * sin + 4.0)
        .fold(0.0, f64::max);
    // The axis label's top is 11 px above its baseline (12 px type); keep 3 px between.
    let baseline = (HEIGHT - 8.0).max(lowest + 14.5);
    (HEIGHT + baseline - (HEIGHT - 8.0), baseline)
}

impl Trend {
    /// A value as the chart's text says it: a share as a percentage, a whole number grouped,
    /// anything else with one decimal.
    pub(crate) fn value_text(&self, v: f64) -> String {
        if self.share {
            crate::number::percent(v)
        } else {
            crate::number::int_or_fixed(v, 1)
        }
    }
}

/// One seat in a slope chart.
#[derive(Debug, Clone, PartialEq)]
pub struct SlopeRow {
    pub label: String,
    pub old: Option<f64>,
    pub new: Option<f64>,
    /// The old score lies outside the old rubric's scale.
    pub old_violation: bool,
    pub new_violation: bool,
}

/// Old → new score per seat under a rubric change.
#[derive(Debug, Clone, PartialEq)]
pub struct Slope {
    pub id: String,
    pub title: String,
    pub desc: String,
    pub old_label: String,
    pub new_label: String,
    /// Decimal places of the scores.
    pub places: usize,
    /// Lines drawn across the chart: each scale's bounds, labelled.
    pub marks: Vec<(f64, String)>,
    pub rows: Vec<SlopeRow>,
}

/// The labels beside one column of a slope chart, one a seat ("seat 100.00"), stacked so that
/// seats sharing a value do not cover each other: (seat's value, label).
fn column_labels(
    rows: &[SlopeRow],
    pick: impl Fn(&SlopeRow) -> Option<f64>,
    places: usize,
) -> Vec<(f64, String)> {
    let mut out: Vec<(f64, String)> = rows
        .iter()
        .filter_map(|r| pick(r).map(|v| (v, format!("{} {}", r.label, fixed(v, places)))))
        .collect();
    // Highest first, so that a stack of equal values reads top to bottom by name.
    out.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    out
}

/// A label placed in a slope chart: its text, the point it names, where it starts and its
/// baseline, the baseline it wanted, and its width.
struct Placed {
    text: String,
    point: (f64, f64),
    at: (f64, f64),
    wanted: f64,
    width: f64,
}

/// What a slope chart's labels keep clear of: every seat's points and line, each scale's line,
/// the y axis's ticks, the columns' names and the axes' labels.
fn slope_obstacles(
    s: &Slope,
    y: Axis,
    (x0, x1, width): (f64, f64, f64),
    ticks: &[(f64, String)],
) -> Vec<Obstacle> {
    let mut taken = Vec::new();
    for r in &s.rows {
        for (x, v) in [(x0, r.old), (x1, r.new)] {
            if let Some(v) = v {
                let cy = y.at(v);
                taken.push(Obstacle::Box(x - 6.0, cy - 6.0, x + 6.0, cy + 6.0));
            }
        }
        if let (Some(a), Some(b)) = (r.old, r.new) {
            taken.push(Obstacle::Line((x0, y.at(a)), (x1, y.at(b)), 0.75));
        }
    }
    for (v, _) in &s.marks {
        taken.push(Obstacle::Line((x0, y.at(*v)), (x1, y.at(*v)), 0.75));
    }
    for (v, label) in ticks {
        let w = text_width(label);
        taken.push(Obstacle::text(LEFT - 6.0 - w, y.at(*v) + 4.0, w));
    }
    for (x, label) in [(x0, &s.old_label), (x1, &s.new_label)] {
        let w = text_width(label);
        taken.push(Obstacle::text(x - w / 2.0, HEIGHT - BOTTOM + 20.0, w));
    }
    taken.extend(axis_labels("Rubric version", width));
    taken
}

/// Where a slope chart's labels go (issue 31's new-user check: stacked beside a column, a label
/// sat beside another seat's point, and seats' lines crossed a scale's label). Each scale's
/// label first, between the columns and clear of every line and point; then each seat's, on
/// its column's side, placed as the cost–accuracy chart places its labels
/// ([`place_labels_around`]): clear of each other and of all that is drawn, moved up or down
/// where another is in its way. Returns the scales' labels, then the seats' (old column first,
/// highest first), each with its point.
fn slope_labels(
    s: &Slope,
    y: Axis,
    (x0, x1, width): (f64, f64, f64),
    ticks: &[(f64, String)],
) -> (Vec<Placed>, Vec<Placed>) {
    let mut taken = slope_obstacles(s, y, (x0, x1, width), ticks);
    let bottom = HEIGHT - BOTTOM + 8.0;
    // Each label with the ways it may slide from its start (away from its point).
    let want = |labels: &[(Placed, Vec<f64>)]| -> Vec<Wanted> {
        labels
            .iter()
            .map(|(l, away)| Wanted {
                starts: away.iter().map(|&a| (l.at.0, a)).collect(),
                baseline: l.wanted,
                width: l.width,
                reach: Reach::Anywhere,
            })
            .collect()
    };
    let place = |labels: Vec<(Placed, Vec<f64>)>, spots: Vec<Option<(f64, f64)>>| {
        labels
            .into_iter()
            .zip(spots)
            .map(|((l, _), spot)| Placed {
                at: spot.unwrap_or(l.at),
                ..l
            })
            .collect::<Vec<Placed>>()
    };
    let marks: Vec<(Placed, Vec<f64>)> = s
        .marks
        .iter()
        .map(|(v, text)| {
            let (width, wanted) = (text_width(text), y.at(*v) - 5.0);
            let point = ((x0 + x1) / 2.0, y.at(*v));
            let at = (point.0 - width / 2.0, wanted);
            let text = text.clone();
            (
                Placed {
                    text,
                    point,
                    at,
                    wanted,
                    width,
                },
                vec![1.0, -1.0],
            )
        })
        .collect();
    let between = Area {
        left: x0 + 8.0,
        top: 12.0,
        right: x1 - 8.0,
        bottom,
    };
    let spots = place_labels_around(&want(&marks), &taken, between);
    let marks = place(marks, spots);
    taken.extend(
        marks
            .iter()
            .map(|m| Obstacle::text(m.at.0, m.at.1, m.width)),
    );
    let mut seats = Vec::new();
    for (x, away, new) in [(x0, -1.0, false), (x1, 1.0, true)] {
        let pick = |r: &SlopeRow| if new { r.new } else { r.old };
        for (v, text) in column_labels(&s.rows, pick, s.places) {
            let (width, wanted) = (text_width(&text), y.at(v) + 4.0);
            let start = if new { x + 10.0 } else { x - 10.0 - width };
            let (point, at) = ((x, y.at(v)), (start, wanted));
            seats.push((
                Placed {
                    text,
                    point,
                    at,
                    wanted,
                    width,
                },
                vec![away],
            ));
        }
    }
    let area = Area {
        left: LEFT,
        top: 12.0,
        right: width - 4.0,
        bottom,
    };
    let spots = place_labels_around(&want(&seats), &taken, area);
    (marks, place(seats, spots))
}

pub fn slope(s: &Slope) -> Markup {
    let values = s
        .rows
        .iter()
        .flat_map(|r| [r.old, r.new])
        .flatten()
        .chain(s.marks.iter().map(|m| m.0));
    let (lo, hi) = values.fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let (yt, yp) = ticks(lo, if hi > lo { hi } else { lo + 1.0 });
    let y = Axis {
        lo: yt[0],
        hi: yt[yt.len() - 1],
        from: HEIGHT - BOTTOM,
        to: TOP,
    };
    let old = column_labels(&s.rows, |r| r.old, s.places);
    let new = column_labels(&s.rows, |r| r.new, s.places);
    // The columns 228 px apart; the old one far enough right, and the chart wide enough, for
    // the longest label on each side (a long seat id) to stay clear of the y axis and inside
    // the chart.
    let widest = |labels: &[(f64, String)]| {
        labels
            .iter()
            .map(|(_, t)| text_width(t))
            .fold(0.0, f64::max)
    };
    let x0 = LEFT + 190f64.max(widest(&old) + 18.0);
    let x1 = x0 + 228.0;
    let width = WIDTH.max(x1 + 18.0 + widest(&new)).max(x1 + 60.0 + RIGHT);
    let tick_labels: Vec<(f64, String)> = yt.iter().map(|&v| (v, fixed(v, yp))).collect();
    let (marks, labels) = slope_labels(s, y, (x0, x1, width), &tick_labels);
    let body = html! {
        (y_grid(y, width, &yt, |v| fixed(v, yp)))
        @for (v, _) in &s.marks {
            // Between the two columns only: the seats' labels outside the columns are never
            // struck through or run into.
            line.scale-mark x1=(c(x0)) x2=(c(x1)) y1=(c(y.at(*v))) y2=(c(y.at(*v))) {}
        }
        @for m in &marks {
            text.scale-label x=(c(m.at.0)) y=(c(m.at.1)) { (m.text) }
        }
        text.column x=(c(x0)) y=(c(HEIGHT - BOTTOM + 20.0)) text-anchor="middle" { (s.old_label) }
        text.column x=(c(x1)) y=(c(HEIGHT - BOTTOM + 20.0)) text-anchor="middle" { (s.new_label) }
        @for r in &s.rows {
            @if let (Some(a), Some(b)) = (r.old, r.new) {
                line.slope data-seat=(r.label) x1=(c(x0)) y1=(c(y.at(a))) x2=(c(x1)) y2=(c(y.at(b))) {}
            }
        }
        @for l in &labels {
            @if let Some((from, to)) = leader_line(l.point, (l.at.0, l.at.1, l.width), l.wanted) {
                line.label-leader x1=(c(from.0)) y1=(c(from.1)) x2=(c(to.0)) y2=(c(to.1)) {}
            }
        }
        @for r in &s.rows {
            @for (x, v, bad, which) in [(x0, r.old, r.old_violation, &s.old_label), (x1, r.new, r.new_violation, &s.new_label)] {
                @if let Some(v) = v {
                    circle.point.violation[bad] data-seat=(r.label) cx=(c(x)) cy=(c(y.at(v))) r="5" {
                        title {
                            (r.label) " under " (which) ": " (fixed(v, s.places))
                            @if bad { " (outside its declared scale)" }
                        }
                    }
                }
            }
        }
        @for l in &labels {
            // The old column's labels end at their spot, so that they line up on the right
            // whatever the font's widths.
            @if l.at.0 < l.point.0 {
                text.point-label x=(c(l.at.0 + l.width)) y=(c(l.at.1)) text-anchor="end" { (l.text) }
            } @else {
                text.point-label x=(c(l.at.0)) y=(c(l.at.1)) { (l.text) }
            }
        }
    };
    let height = labels.iter().fold(HEIGHT, |h, l| h.max(l.at.1 + 8.0));
    frame(
        &s.id,
        (width, height, width * MIN_SCALE, width),
        [&s.title, &s.desc, "Rubric version", "Score"],
        body,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(cost: f64) -> ScatterPoint {
        ScatterPoint {
            label: "s".into(),
            cost,
            accuracy: 0.5,
            interval: None,
            pareto: false,
            href: None,
        }
    }

    #[test]
    fn costs_spanning_more_than_ten_times_get_a_log_axis() {
        let (_, log, ticks) = cost_axis(&[point(0.002), point(1.5)], 0.0, 100.0);
        assert!(log);
        let labels: Vec<&str> = ticks.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(labels.first(), Some(&"$0.00100"));
        assert!(
            labels.contains(&"$1.00") && labels.contains(&"$10.00"),
            "{labels:?}"
        );
        let (_, log, _) = cost_axis(&[point(0.2), point(1.5)], 0.0, 100.0);
        assert!(!log);
    }

    /// A chart's area from `top` down, wider and taller than any label here needs.
    fn area(top: f64) -> Area {
        Area {
            left: 0.0,
            top,
            right: 1000.0,
            bottom: 1000.0,
        }
    }

    /// The baselines [`place_labels_around`] gives labels `(start, baseline, width)` that may
    /// go only where they start, among text boxes `(x, baseline, width)`.
    fn baselines(wanted: &[(f64, f64, f64)], taken: &[(f64, f64, f64)], top: f64) -> Vec<f64> {
        let wanted: Vec<Wanted> = wanted
            .iter()
            .map(|&(x, baseline, width)| Wanted {
                starts: vec![(x, 1.0)],
                baseline,
                width,
                reach: Reach::Anywhere,
            })
            .collect();
        let taken: Vec<Obstacle> = taken
            .iter()
            .map(|&(x, y, w)| Obstacle::text(x, y, w))
            .collect();
        place_labels_around(&wanted, &taken, area(top))
            .into_iter()
            .map(|s| s.unwrap().1)
            .collect()
    }

    #[test]
    fn a_label_moves_off_a_point_it_would_cover() {
        // A label wanted right over another seat's point (10 px above it) moves a line (13 px)
        // down, clear of it.
        let y = baselines(&[(100.0, 50.0, 60.0)], &[(120.0, 40.0, 12.0)], 0.0);
        assert_eq!(y, vec![63.0]);
        // A line below still over it (11 px away): a line above is tried next, 50 → 63 → 37.
        let y = baselines(&[(100.0, 50.0, 60.0)], &[(120.0, 52.0, 12.0)], 0.0);
        assert_eq!(y, vec![37.0]);
        // Never above the top: two lines below, 76.
        let y = baselines(&[(100.0, 50.0, 60.0)], &[(120.0, 52.0, 12.0)], 45.0);
        assert_eq!(y, vec![76.0]);
    }

    /// Issue 31.4: interval whiskers ran through seat labels (`openai-react`, `xai-react`).
    /// A whisker or a frontier segment is an obstacle like a point: a label crossed by one on
    /// its right goes to its point's left, and when both sides are crossed, down a line.
    #[test]
    fn issue_31_4_whiskers_and_the_frontier_do_not_cross_a_label() {
        let label = |starts: Vec<(f64, f64)>| Wanted {
            starts,
            baseline: 100.0,
            width: 60.0,
            reach: Reach::Anywhere,
        };
        let whisker = Obstacle::Line((150.0, 40.0), (150.0, 200.0), 0.75);
        assert_eq!(
            place_labels_around(
                &[label(vec![(108.0, 1.0), (32.0, -1.0)])],
                &[whisker],
                area(0.0)
            ),
            [Some((32.0, 100.0))]
        );
        // A frontier segment rising across the left side too, from 114.5 to 83.5 under the
        // label: both sides are crossed at 100, a line up (87) and a line down (113); two
        // lines away the left side is clear of it, up (74) and down (126): of two spots as
        // near, the lower.
        let frontier = Obstacle::Line((20.0, 120.0), (100.0, 80.0), 1.0);
        assert_eq!(
            place_labels_around(
                &[label(vec![(108.0, 1.0), (32.0, -1.0)])],
                &[whisker, frontier],
                area(0.0)
            ),
            [Some((32.0, 126.0))]
        );
        // A sloped line takes, across a span, only the heights of its part over that span
        // (and half its stroke): from x = 59 to 81, 100.5 to 89.5.
        assert_eq!(frontier.across(60.0, 80.0), Some((88.5, 101.5)));
    }

    /// A suite's chart across a hundred waves held 2,000 points, and every label went somewhere:
    /// thousands of pixels below the axis, on leader lines as long (the new-user check of issue
    /// 31). Now a label goes only where the plot has room near its point, except the Pareto
    /// set's, which are always drawn; the rest are counted, and their points keep their names.
    #[test]
    fn a_crowded_chart_labels_only_what_fits_and_every_pareto_point() {
        let points: Vec<ScatterPoint> = (0..400)
            .map(|i| ScatterPoint {
                label: format!("seat-{i:03} (wave-{i:03})"),
                cost: 1.0 + (i % 40) as f64 * 0.05,
                accuracy: 0.3 + (i % 7) as f64 * 0.05,
                interval: None,
                pareto: i % 97 == 0,
                href: None,
            })
            .collect();
        let pareto = points.iter().filter(|p| p.pareto).count();
        let s = Scatter {
            id: "c".into(),
            title: "t".into(),
            desc: "d".into(),
            points,
            frontier: vec![],
        };
        let (svg, unlabelled) = scatter(&s);
        let svg = svg.into_string();
        let labels = svg.matches("<text class=\"point-label\"").count();
        assert!(unlabelled > 300, "{unlabelled}");
        assert_eq!(labels + unlabelled, 400);
        assert_eq!(
            svg.matches("<circle class=\"point").count(),
            400 + 1 /* legend's */ + 1
        );
        for p in s.points.iter().filter(|p| p.pareto) {
            assert!(svg.contains(&format!(">{}</text>", p.label)), "{}", p.label);
        }
        assert!(pareto == 5);
        // No label below the plot: the chart keeps its height.
        assert!(
            svg.contains(&format!("viewBox=\"0 0 {SCATTER_WIDTH:.1} {HEIGHT:.1}\"")),
            "{}",
            &svg[..300]
        );
    }

    /// Two waves of a suite side by side: long labels crowd the costliest corner, where the
    /// legend is. No label runs into the legend or past the plot's right edge, none covers
    /// another, and each moved off its spot has a leader line back to its point; whiskers
    /// are drawn in their own grey, under the frontier, and keyed in the legend.
    #[test]
    fn crowded_labels_keep_clear_of_the_legend_and_each_other() {
        let at = |label: &str, cost: f64, accuracy: f64| ScatterPoint {
            label: label.into(),
            cost,
            accuracy,
            interval: Some((accuracy - 0.2, (accuracy + 0.1).min(1.0))),
            pareto: false,
            href: None,
        };
        let s = Scatter {
            id: "c".into(),
            title: "t".into(),
            desc: "d".into(),
            points: vec![
                at("anthropic-react (checkout-named)", 1.55, 1.0),
                at("anthropic-react (checkout-rematch)", 1.55, 1.0),
                at("xai-hierarchical (checkout-named)", 1.50, 1.0),
                at("xai-hierarchical (checkout-rematch)", 1.50, 0.95),
                at("openai-react (checkout-rematch)", 0.80, 1.0),
                at("deepseek-react (checkout-rematch)", 0.46, 0.0),
            ],
            frontier: vec![5, 4],
        };
        let svg = scatter(&s).0.into_string();
        let attr = |el: &str, name: &str| -> f64 {
            let from = el.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
            el[from..from + el[from..].find('"').unwrap()]
                .parse()
                .unwrap()
        };
        let labels: Vec<(f64, f64, f64)> = svg
            .split("<text class=\"point-label\"")
            .skip(1)
            .map(|t| {
                let text = &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()];
                (attr(t, "x"), attr(t, "y"), text_width(text))
            })
            .collect();
        assert_eq!(labels.len(), 6);
        let legend_x = SCATTER_WIDTH - RIGHT + 14.0 - 8.0;
        for (i, &(x, y, w)) in labels.iter().enumerate() {
            assert!(
                x + w <= legend_x,
                "label {i} runs into the legend: {labels:?}"
            );
            for &(x2, y2, w2) in &labels[i + 1..] {
                let apart = x + w <= x2 || x2 + w2 <= x || (y - y2).abs() >= 13.0;
                assert!(apart, "labels overlap: {labels:?}");
            }
        }
        // Four labels want the same spot at the top right: three of them move, each with a
        // leader line.
        let wanted_top = TOP - 8.0;
        let moved = labels
            .iter()
            .zip(&s.points)
            .filter(|((_, y, _), p)| p.accuracy == 1.0 && (*y - wanted_top).abs() > 0.05)
            .count();
        assert!(moved >= 2, "{labels:?}");
        let far = labels
            .iter()
            .zip(&s.points)
            .filter(|((x, y, w), p)| {
                let (cx, cy) = (
                    LEFT + p.cost / 2.0 * (SCATTER_WIDTH - RIGHT - LEFT),
                    HEIGHT - BOTTOM - p.accuracy * (HEIGHT - BOTTOM - TOP),
                );
                let end = if *x > cx { *x - 2.0 } else { *x + *w + 2.0 };
                (*y - (cy - 8.0)).abs() > 0.05 && (end - cx).hypot(*y - 4.0 - cy) > 12.0
            })
            .count();
        assert!(far >= 2, "{labels:?}");
        assert_eq!(svg.matches("<line class=\"label-leader\"").count(), far);
        assert_eq!(svg.matches("<line class=\"whisker\"").count(), 6);
        assert!(svg.find("class=\"whisker\"") < svg.find("class=\"frontier-segment\""));
        assert!(svg.contains("accuracy interval"));
        let style = super::super::html::STYLE_CHARTS;
        assert!(style.contains("svg .whisker,svg .whisker-cap,svg .whisker-key{stroke:#98a2b3"));
    }

    #[test]
    fn ticks_are_nice_and_cover_the_range() {
        assert_eq!(ticks(0.0, 1.55), (vec![0.0, 0.5, 1.0, 1.5, 2.0], 1));
        assert_eq!(ticks(0.0, 262.0).0.last(), Some(&300.0));
        assert_eq!(ticks(0.0, 125.0).0, [0.0, 50.0, 100.0, 150.0]);
        assert_eq!(ticks(0.0, 0.0).0, [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        assert_eq!(ticks(0.0, 0.003), (vec![0.0, 0.001, 0.002, 0.003], 3));
    }

    /// Issue 34, #8: costs all at or below 1e-308 (a value ingest accepts) made the step
    /// underflow and `site` abort with a capacity overflow. Every pair of values gives a few
    /// finite ticks covering it.
    #[test]
    fn issue_34_8_ticks_are_total_for_every_value() {
        let values = [
            0.0,
            1e-320,
            2e-320,
            1e-308,
            f64::MIN_POSITIVE,
            1e-13,
            1e-9,
            0.5,
            1.0,
            1e12,
            1e300,
            f64::MAX,
            -1e-308,
            -1.0,
            -f64::MAX,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        for &lo in &values {
            for &hi in &values {
                let (t, places) = ticks(lo, hi);
                assert!(!t.is_empty() && t.len() <= 52, "{lo} {hi}: {t:?}");
                assert!(t.iter().all(|x| x.is_finite()), "{lo} {hi}: {t:?}");
                assert!(places <= TICK_PLACES_MAX, "{lo} {hi}: {places}");
                if lo.is_finite() && hi.is_finite() && hi > lo {
                    assert!(t[0] <= lo && *t.last().unwrap() >= hi, "{lo} {hi}: {t:?}");
                }
            }
        }
    }

    #[test]
    fn a_hostile_label_is_text_in_the_chart() {
        let s = Scatter {
            id: "c".into(),
            title: "<b>t</b>".into(),
            desc: "d".into(),
            points: vec![ScatterPoint {
                label: "<script>alert(1)</script>".into(),
                cost: 1.0,
                accuracy: 0.5,
                interval: Some((0.25, 0.75)),
                pareto: true,
                href: None,
            }],
            frontier: vec![0],
        };
        let svg = scatter(&s).0.into_string();
        assert!(!svg.contains("<script>"), "{svg}");
        assert!(svg.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(svg.contains("<title id=\"c-title\">&lt;b&gt;t&lt;/b&gt;</title>"));
        assert_eq!(svg.matches("class=\"whisker\"").count(), 1);
        assert_eq!(svg.matches("class=\"frontier-segment\"").count(), 0);
    }

    #[test]
    fn labels_of_equal_values_are_listed_highest_first_by_name() {
        let row = |label: &str, old: f64| SlopeRow {
            label: label.into(),
            old: Some(old),
            new: Some(old.min(100.0)),
            old_violation: old > 100.0,
            new_violation: false,
        };
        let rows = [row("c", 96.82), row("b", 125.0), row("a", 125.0)];
        let labels = column_labels(&rows, |r| r.old, 2);
        assert_eq!(
            labels.iter().map(|l| l.1.as_str()).collect::<Vec<_>>(),
            ["a 125.00", "b 125.00", "c 96.82"]
        );
        // Beside points: a label moves down past one it would cover, not past one elsewhere.
        assert_eq!(
            baselines(
                &[(10.0, 20.0, 50.0), (30.0, 22.0, 50.0), (300.0, 20.0, 50.0)],
                &[],
                0.0
            ),
            [20.0, 35.0, 20.0]
        );
    }

    /// The rematch's rubric change: three seats at 125 on a 0–100 scale drop to 100, one 96.82
    /// to 75, one stays at 0.
    fn rematch_slope() -> Slope {
        let row = |label: &str, old: f64, new: f64| SlopeRow {
            label: label.into(),
            old: Some(old),
            new: Some(new),
            old_violation: old > 100.0,
            new_violation: false,
        };
        Slope {
            id: "s".into(),
            title: "t".into(),
            desc: "d".into(),
            old_label: "r@1".into(),
            new_label: "r@2".into(),
            places: 2,
            marks: vec![
                (0.0, "scale min 0.00".into()),
                (100.0, "scale max 100.00".into()),
            ],
            rows: vec![
                row("anthropic-react", 96.82, 75.0),
                row("deepseek-react", 0.0, 0.0),
                row("google-react", 125.0, 100.0),
                row("openai-react", 125.0, 100.0),
                row("xai-hierarchical", 125.0, 100.0),
            ],
        }
    }

    #[test]
    fn issue_31_a_slope_charts_labels_keep_clear_and_a_moved_one_points_home() {
        let s = rematch_slope();
        let (yt, _) = ticks(0.0, 125.0);
        let y = Axis {
            lo: yt[0],
            hi: yt[yt.len() - 1],
            from: HEIGHT - BOTTOM,
            to: TOP,
        };
        let (x0, x1) = (262.0, 490.0);
        let (marks, seats) = slope_labels(&s, y, (x0, x1, 720.0), &[]);
        let boxes: Vec<(String, Obstacle)> = marks
            .iter()
            .chain(&seats)
            .map(|l| (l.text.clone(), Obstacle::text(l.at.0, l.at.1, l.width)))
            .collect();
        // No label covers another.
        for (i, (a, ba)) in boxes.iter().enumerate() {
            let Obstacle::Box(l, t, r, b) = *ba else {
                unreachable!()
            };
            for (b_text, bb) in &boxes[i + 1..] {
                if let Some((t2, b2)) = bb.across(l + 0.5, r - 0.5) {
                    assert!(t2 >= b - 0.5 || b2 <= t + 0.5, "{a} / {b_text}");
                }
            }
        }
        // No seat's line or scale's line crosses a label (the scale's label sat across three
        // seats' lines).
        let lines: Vec<Obstacle> = s
            .rows
            .iter()
            .map(|r| Obstacle::Line((x0, y.at(r.old.unwrap())), (x1, y.at(r.new.unwrap())), 0.0))
            .chain(
                s.marks
                    .iter()
                    .map(|(v, _)| Obstacle::Line((x0, y.at(*v)), (x1, y.at(*v)), 0.0)),
            )
            .collect();
        for (text, bx) in &boxes {
            let Obstacle::Box(l, t, r, b) = *bx else {
                unreachable!()
            };
            for line in &lines {
                if let Some((lt, lb)) = line.across(l, r) {
                    assert!(lt >= b || lb <= t, "{text} / {line:?}");
                }
            }
        }
        // Of the three labels at one point, one is beside it and two are moved, each joined
        // to it by a leader line; the others stay beside their points.
        let moved: Vec<&str> = seats
            .iter()
            .filter(|l| leader_line(l.point, (l.at.0, l.at.1, l.width), l.wanted).is_some())
            .map(|l| l.text.as_str())
            .collect();
        assert_eq!(moved.len(), 4, "{moved:?}");
        assert!(
            moved
                .iter()
                .all(|t| t.ends_with(" 125.00") || t.ends_with(" 100.00")),
            "{moved:?}"
        );
        let svg = slope(&s).into_string();
        assert_eq!(svg.matches("class=\"label-leader\"").count(), 4, "{svg}");
    }

    /// The `x` (or `y`) attribute of the first element of `svg` whose text is `text`.
    fn attr_of(svg: &str, text: &str, attr: &str) -> f64 {
        let at = svg.find(&format!(">{text}<")).expect(text);
        let tag = &svg[svg[..at].rfind('<').unwrap()..at];
        let start = tag.find(&format!(" {attr}=\"")).expect(attr) + attr.len() + 3;
        tag[start..start + tag[start..].find('"').unwrap()]
            .parse()
            .unwrap()
    }

    fn trend_of(points: &[(&str, f64)]) -> Trend {
        Trend {
            id: "t".into(),
            title: "t".into(),
            desc: "d".into(),
            y_label: "Tokens (total, cached reads in)".into(),
            share: false,
            points: points
                .iter()
                .map(|&(wave, v)| TrendPoint {
                    wave: wave.into(),
                    load: "3 par".into(),
                    value: Some(v),
                    joined: true,
                    withdrawn: false,
                })
                .collect(),
        }
    }

    #[test]
    fn a_trend_keeps_its_axis_labels_clear_of_ticks_and_wave_ids() {
        // Tokens in millions: the widest tick ("2,000,000") ends 6 px left of the plot and
        // starts right of the upright y axis label (x = 16, 12 px type: clear from x = 22).
        let svg = trend(&trend_of(&[
            ("rca-wave-1", 1_588_900.0),
            ("rca-wave-2", 1_654_200.0),
        ]))
        .into_string();
        let tick = attr_of(&svg, "2,000,000", "x");
        assert!(tick - text_width("2,000,000") >= 22.0, "{tick}: {svg}");
        // A long wave id slanted 20° under the x axis's label: the label's top (11 px above its
        // baseline) is below the id's lowest point, and the chart taller by as much.
        let id = "cheap-long-ids-2026-05-02";
        let svg = trend(&trend_of(&[(id, 5.0)])).into_string();
        let lowest = HEIGHT - BOTTOM + 16.0 + text_width(id) * 20f64.to_radians().sin() + 4.0;
        let label = attr_of(&svg, TREND_X_LABEL, "y");
        assert!(label - 11.0 > lowest, "{label} {lowest}: {svg}");
        assert!(
            svg.contains(&format!("viewBox=\"0 0 720.0 {}\"", c(label + 8.0))),
            "{svg}"
        );
        // Short ids and small numbers: the chart as it always was.
        let svg = trend(&trend_of(&[("w1", 5.0), ("w2", 7.0)])).into_string();
        assert_eq!(attr_of(&svg, TREND_X_LABEL, "y"), HEIGHT - 8.0);
        assert_eq!(attr_of(&svg, "8", "x"), LEFT - 6.0);
    }

    #[test]
    fn issue_31_a_withdrawn_waves_point_is_drawn_hollow_and_joined_to_none() {
        let mut t = trend_of(&[("w1", 5.0), ("w2", 9.0), ("w3", 6.0), ("w4", 7.0)]);
        t.points[0].joined = false;
        t.points[1].withdrawn = true;
        assert_eq!(trend_segments(&t.points), [(0, 2), (2, 3)]);
        let svg = trend(&t).into_string();
        assert_eq!(svg.matches("<line class=\"trend\"").count(), 2, "{svg}");
        assert_eq!(svg.matches("class=\"point withdrawn\"").count(), 1, "{svg}");
        // No line ends at the withdrawn point.
        let x = attr_of(&svg, "w2", "x");
        assert!(!svg.contains(&format!("x2=\"{}\"", c(x))), "{svg}");
        assert!(!svg.contains(&format!("x1=\"{}\"", c(x))), "{svg}");
        // A point whose value is unknown breaks the line.
        t.points[1].withdrawn = false;
        t.points[1].value = None;
        assert_eq!(trend_segments(&t.points), [(2, 3)]);
    }

    #[test]
    fn a_slope_chart_makes_room_for_long_seat_ids() {
        let long = "openai-gpt-4o-mini-2024-07-18-react-tools-v2";
        let chart = Slope {
            id: "s".into(),
            title: "t".into(),
            desc: "d".into(),
            old_label: "r@1".into(),
            new_label: "r@2".into(),
            places: 2,
            marks: vec![],
            rows: vec![SlopeRow {
                label: long.into(),
                old: Some(83.33),
                new: Some(80.0),
                old_violation: false,
                new_violation: false,
            }],
        };
        let svg = slope(&chart).into_string();
        // The old score's label (right-aligned 10 px left of its column) starts right of the
        // y axis's ticks; the new one's ends inside the chart.
        let old = format!("{long} 83.33");
        let start = attr_of(&svg, &old, "x") - text_width(&old);
        assert!(start >= LEFT, "{start}: {svg}");
        let new = format!("{long} 80.00");
        let width: f64 = svg
            .split("viewBox=\"0 0 ")
            .nth(1)
            .and_then(|v| v.split(' ').next())
            .unwrap()
            .parse()
            .unwrap();
        assert!(
            attr_of(&svg, &new, "x") + text_width(&new) <= width,
            "{width}: {svg}"
        );
    }
}
