//! One claim checked against its wave: the ledger's value, at the published precision, and a
//! verdict — reproduced, differs (by how much, and the plausible causes the ledger can show), or
//! cannot be computed (and why).
//!
//! The causes of a difference, in the order they are named:
//!
//! 1. the figure recomputed under another convention (`compute::alternatives`, and, when a
//!    price table is at hand, the costs repriced under other pricing conventions: the
//!    [`Variant`]s) that **does** reproduce the published number, the one whose value is
//!    nearest the published one first;
//! 2. for an accuracy, a denominator that reproduces it with the ledger's Correct count (the
//!    publisher divides by another number of problems: one attempt more or fewer than the
//!    ledger holds, the suite's size as the publisher counts it);
//! 3. what the claim itself says that disagrees with the ledger: the publisher's name for the
//!    figure (`metric`), the publisher's own counts (`correct` of `of`);
//! 4. a sum that covers only some attempts.
//!
//! When nothing reproduces the number, the report lists what was tried, with its values,
//! nearest first.

use std::collections::BTreeMap;

use super::compute::{self, Covers, SeatView};
use super::round::{Comparison, Precision, compare};
use super::spec::{Claim, Figure, Measure, SeatFigure};
use crate::figures::SeatFigures;
use crate::model::{SeatData, WaveData};
use crate::prices::{Costs, ModelPrice, PriceTable, price_wave};
use crate::rubric::WaveScores;

/// The seat a claim names: the wave's seat of that id, else the one seat whose model the name
/// is of in the model alias table (`crate::models`), as ingest matches a results file's model
/// to its seat's: `claude-sonnet-4-5` (the seat an OpenHands index's model directory is named
/// after) is the seat running `claude-sonnet-4.5` or `anthropic/claude-sonnet-4-5-20250929`.
/// `Err` holds the seats whose model the name is of when that is not exactly one (none: the
/// wave has no such seat; more: the name does not say which).
pub(crate) fn seat_of<'a>(
    data: &'a WaveData,
    name: &str,
) -> std::result::Result<&'a SeatData, Vec<&'a SeatData>> {
    if let Some(s) = data.seats.iter().find(|s| s.seat.id == name) {
        return Ok(s);
    }
    let table = crate::models::table();
    if table.resolve(name).is_none() {
        return Err(Vec::new());
    }
    let fits: Vec<&SeatData> = data
        .seats
        .iter()
        .filter(|s| {
            let with_provider = format!("{}/{}", s.seat.provider, s.seat.model);
            [s.seat.id.as_str(), s.seat.model.as_str(), &with_provider]
                .iter()
                .any(|m| table.same(name, m))
        })
        .collect();
    match fits.as_slice() {
        [one] => Ok(one),
        _ => Err(fits),
    }
}

/// Why a claim's seat is refused: the wave has no such seat (its seats named), or the name is of
/// the model of several seats (those named).
pub(crate) fn seat_missing(data: &WaveData, name: &str, fits: &[&SeatData], quote: bool) -> String {
    let q = |s: &str| {
        if quote {
            format!("`{s}`")
        } else {
            s.to_string()
        }
    };
    if fits.is_empty() {
        return format!(
            "wave {} has no seat {}; its seats: {}",
            data.wave.id,
            q(name),
            data.seats
                .iter()
                .map(|s| s.seat.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let canonical = crate::models::table()
        .resolve(name)
        .map_or(name, |e| e.canonical.as_str());
    format!(
        "wave {} has no seat {}, and by the model alias table ({canonical}) it is the model of \
         {} of its seats: {}; name one by its id",
        data.wave.id,
        q(name),
        fits.len(),
        fits.iter()
            .map(|s| s.seat.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The wave's data under another pricing convention, for the causes of a cost that differs.
#[derive(Debug, Clone)]
pub struct Variant {
    pub key: &'static str,
    /// The convention, in words.
    pub says: String,
    pub data: WaveData,
}

/// The wave repriced under other pricing conventions a publisher may have followed, for the
/// causes of a cost that differs: every cost from the table (when the listing only filled in
/// the missing ones), cache writes at the input price (no cache-write premium, as the OpenHands
/// index's script prices them: docs/importers.md, `openhands`), cache writes at the
/// cached-read price (both cache prices taken as one), cached reads at the input price (no
/// cache discount). `raw` is the wave as recorded, before any table priced it; a convention
/// that changes nothing in the table is left out.
pub(crate) fn pricing_variants(
    table: &PriceTable,
    sha256: &str,
    raw: &WaveData,
    costs: Costs,
) -> Vec<Variant> {
    let id = table.id();
    let mut out = Vec::new();
    let mut add = |key: &'static str, says: String, t: &PriceTable| {
        let mut data = raw.clone();
        price_wave(t, sha256, &mut data, Costs::Reprice);
        out.push(Variant { key, says, data });
    };
    if costs == Costs::Fill {
        add("repriced", format!("every cost repriced from {id}"), table);
    }
    let with = |f: &dyn Fn(&mut ModelPrice)| {
        let mut t = table.clone();
        t.models.iter_mut().for_each(f);
        (t != *table).then_some(t)
    };
    if let Some(t) = with(&|m| m.cache_write = Some(m.input)) {
        add(
            "cache_writes_as_input",
            format!(
                "every cost repriced from {id} with cache writes at the input price (as the \
                 OpenHands index prices them: docs/importers.md)"
            ),
            &t,
        );
    }
    if let Some(t) = with(&|m| m.cache_write = m.cache_read.or(m.cache_write)) {
        add(
            "cache_writes_as_reads",
            format!("every cost repriced from {id} with cache writes at the cached-read price"),
            &t,
        );
    }
    if let Some(t) = with(&|m| m.cache_read = Some(m.input)) {
        add(
            "cached_reads_as_input",
            format!("every cost repriced from {id} with cached reads at the input price"),
            &t,
        );
    }
    out
}

/// What a claim is checked against: its wave, the wave's scores under the rubrics the claims
/// name (by `NAME@VERSION`), and the wave under other pricing conventions.
pub struct WaveCtx<'a> {
    pub data: &'a WaveData,
    pub scores: &'a BTreeMap<String, WaveScores>,
    pub variants: &'a [Variant],
}

/// A claim's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    Reproduced,
    Differs,
    CannotBeComputed,
}

impl Verdict {
    pub const ALL: [Verdict; 3] = [
        Verdict::Reproduced,
        Verdict::Differs,
        Verdict::CannotBeComputed,
    ];

    /// The stable key JSON names it by.
    pub fn key(self) -> &'static str {
        match self {
            Verdict::Reproduced => "reproduced",
            Verdict::Differs => "differs",
            Verdict::CannotBeComputed => "cannot_be_computed",
        }
    }

    /// In words.
    pub fn words(self) -> &'static str {
        match self {
            Verdict::Reproduced => "reproduced",
            Verdict::Differs => "differs",
            Verdict::CannotBeComputed => "cannot be computed",
        }
    }
}

/// The figure recomputed under another convention, compared with the claim.
#[derive(Debug, Clone, PartialEq)]
pub struct Tried {
    pub key: &'static str,
    pub says: String,
    /// In the published scale.
    pub computed: f64,
    /// At the published decimals (two at a half; none for an interval).
    pub rounded: Vec<String>,
    pub reproduces: bool,
}

/// A plausible cause of a difference: a convention that reproduces the published number, or
/// something the claim says that disagrees with the ledger.
#[derive(Debug, Clone, PartialEq)]
pub struct Cause {
    /// Stable (docs/claims.md): a convention's key, `other_denominator`, `metric`, `counts` or
    /// `partial`.
    pub key: &'static str,
    /// In words, with the value it gives.
    pub says: String,
    /// Whether the ledger reproduces the published number under it.
    pub reproduces: bool,
}

/// A cause's key in a few words, for a listing's column (docs/claims.md lists them all).
pub(crate) fn cause_label(key: &str) -> &str {
    match key {
        "over_attempted" => "missing left out",
        "sample_variance" => "sample variance (÷ P − 1)",
        "unclustered" => "not clustered",
        "unclustered_sample_variance" => "not clustered, ÷ n − 1",
        "over_attempted_sample_variance" => "missing left out, ÷ P − 1",
        "without_infra_errors" => "infrastructure errors left out",
        "any_trial" => "any trial solves",
        "mean_of_trials" => "mean of trials",
        "unknown_as_zero" => "unknown as 0",
        "over_suite" => "÷ the suite",
        "per_problem" => "per problem",
        "working_time" => "working time",
        "tokens_as_recorded" => "tokens as recorded",
        "tokens_without_cached_reads" => "without cached reads",
        "tokens_with_cached_reads" => "with cached reads",
        "tokens_without_cache_writes" => "without cache writes",
        "tokens_cached_reads_twice" => "cached reads twice",
        "naive_estimator" => "naive estimator",
        "pooled" => "pooled",
        "repriced" => "repriced",
        "cache_writes_as_input" => "cache writes as input",
        "cache_writes_as_reads" => "cache writes as reads",
        "cached_reads_as_input" => "cached reads as input",
        "other_denominator" => "denominator",
        "metric" => "another figure",
        "counts" => "other counts",
        "partial" => "partial sum",
        other => other,
    }
}

/// A claim, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    pub verdict: Verdict,
    /// The ledger's value in the published scale.
    pub computed: Option<f64>,
    /// The ledger's value at the published decimals: one, or two at a half; none for an
    /// interval or when it cannot be computed.
    pub rounded: Vec<String>,
    /// computed − published, in the published scale.
    pub difference: Option<f64>,
    pub covers: Option<Covers>,
    /// Why it cannot be computed.
    pub reason: Option<String>,
    /// The plausible causes of a difference, nearest first: the conventions that reproduce it,
    /// then what disagrees. When it cannot be computed: the conventions under which it can,
    /// and reproduces.
    pub causes: Vec<Cause>,
    /// Every other convention tried (for a claim that does not reproduce).
    pub tried: Vec<Tried>,
    /// Notes on a claim that reproduces (at a half, a partial sum, counts that disagree), and,
    /// whatever the verdict, the seat the alias table found for it.
    pub notes: Vec<String>,
}

/// A value in the published scale as a cause names it: at the published decimals (both
/// neighbours at a half), or in full.
fn value_text(c: &Comparison, x: f64) -> String {
    if c.rounded.is_empty() {
        crate::number::machine(x)
    } else {
        c.rounded.join(" or ")
    }
}

/// Whether a figure is built on costs (and so moves with the pricing conventions).
fn priced(figure: &Figure) -> bool {
    matches!(
        figure,
        Figure::Seat(
            SeatFigure::CostUsd | SeatFigure::CostOfPassUsd | SeatFigure::CostOfPassPerProblemUsd
        ) | Figure::Mean(Measure::CostUsd)
    )
}

/// Every other convention's value of the claim's figure, compared with the claim, nearest the
/// published value first. `own` is the figure's own value (unscaled), when it has one: a
/// convention that gives the same value is no cause and is left out.
fn tried(claim: &Claim, view: &SeatView<'_>, ctx: &WaveCtx<'_>, own: Option<f64>) -> Vec<Tried> {
    let mut all: Vec<(&'static str, String, f64)> = compute::alternatives(&claim.figure, view)
        .into_iter()
        .map(|a| (a.key, a.says, a.value))
        .collect();
    if priced(&claim.figure) {
        for v in ctx.variants {
            let Ok(seat) = seat_of(&v.data, &claim.seat) else {
                continue;
            };
            let other = SeatView::new(&v.data.wave, seat);
            if let Ok(x) = compute::primary(&claim.figure, &other, ctx.scores) {
                all.push((v.key, v.says.clone(), x.value));
            }
        }
    }
    let mut out: Vec<Tried> = all
        .into_iter()
        .filter(|(_, _, value)| Some(*value) != own && (value * claim.scale).is_finite())
        .map(|(key, says, value)| {
            let computed = value * claim.scale;
            let c = compare(claim.value, computed, claim.precision);
            Tried {
                key,
                says,
                computed,
                rounded: c.rounded,
                reproduces: c.reproduced,
            }
        })
        .collect();
    // Nearest the published value first; conventions equally near keep their fixed order.
    out.sort_by(|a, b| {
        (a.computed - claim.value)
            .abs()
            .total_cmp(&(b.computed - claim.value).abs())
    });
    out
}

/// "7.69" for a cause: the tried value at the published precision.
fn tried_text(t: &Tried, claim: &Claim) -> String {
    if t.rounded.is_empty() {
        super::round::computed_text(t.computed, claim.precision, claim.value)
    } else {
        t.rounded.join(" or ")
    }
}

/// The denominators, other than the ledger's, that give the published accuracy with the
/// ledger's Correct count — only when the published precision pins them to one or two.
fn other_denominators(claim: &Claim, correct: u64, denominator: u64) -> Vec<u64> {
    if correct == 0 {
        return Vec::new();
    }
    let (lo, hi) = match claim.precision {
        Precision::Decimals(d) => {
            let half = 0.5 / 10f64.powi(d as i32);
            (claim.value - half, claim.value + half)
        }
        Precision::Tolerance(t) => (claim.value - t, claim.value + t),
    };
    let (lo, hi) = (lo / claim.scale, hi / claim.scale);
    if hi <= 0.0 {
        return Vec::new();
    }
    let c = correct as f64;
    let first = (c / hi).floor().max(c) as u64;
    let last = if lo > 0.0 {
        (c / lo).ceil()
    } else {
        f64::INFINITY
    };
    if !last.is_finite() || last - first as f64 > 8.0 {
        return Vec::new();
    }
    let found: Vec<u64> = (first..=last as u64)
        .filter(|d| *d >= correct.max(1) && *d != denominator)
        .filter(|d| compare(claim.value, c / *d as f64 * claim.scale, claim.precision).reproduced)
        .collect();
    if found.len() <= 2 { found } else { Vec::new() }
}

/// Checks one claim against its wave.
pub fn check(claim: &Claim, ctx: &WaveCtx<'_>) -> Checked {
    let mut out = Checked {
        verdict: Verdict::CannotBeComputed,
        computed: None,
        rounded: Vec::new(),
        difference: None,
        covers: None,
        reason: None,
        causes: Vec::new(),
        tried: Vec::new(),
        notes: Vec::new(),
    };
    let seat = match claimed_seat(claim, ctx.data) {
        Ok(seat) => seat,
        Err(reason) => {
            out.reason = Some(reason);
            return out;
        }
    };
    if seat.seat.id != claim.seat {
        out.notes.push(alias_note(claim, seat));
    }
    let view = SeatView::new(&ctx.data.wave, seat);
    let f = &view.figures;
    // What the claim says that disagrees with the ledger, whatever the verdict.
    let disagrees = disagreements(claim, f);
    let value = match compute::primary(&claim.figure, &view, ctx.scores) {
        Ok(v) => v,
        Err(reason) => {
            not_computed(&mut out, claim, &view, ctx, reason);
            return out;
        }
    };
    let x = value.value * claim.scale;
    if !(x.is_finite() && (x - claim.value).is_finite()) {
        out.reason = Some(format!(
            "the ledger's value ({}) times the scale ({}) is beyond what can be compared",
            crate::number::machine(value.value),
            crate::number::machine(claim.scale)
        ));
        return out;
    }
    let cmp = compare(claim.value, x, claim.precision);
    out.computed = Some(x);
    out.rounded = cmp.rounded.clone();
    out.difference = Some(x - claim.value);
    out.covers = value.covers;
    let partial = value
        .covers
        .filter(|c| c.known < c.attempts)
        .map(|c| Cause {
            key: "partial",
            says: format!(
                "the ledger's figure covers the {} of {} attempts whose value is known",
                c.known, c.attempts
            ),
            reproduces: false,
        });
    if cmp.reproduced {
        out.verdict = Verdict::Reproduced;
        out.notes.extend(half_note(claim, x, &cmp));
        out.notes.extend(se_note(claim, &view));
        out.notes.extend(partial.map(|c| c.says));
        out.notes.extend(disagrees.into_iter().map(|c| c.says));
        return out;
    }
    differs(&mut out, claim, &view, ctx, value.value);
    out.causes.extend(disagrees);
    out.causes.extend(partial);
    out
}

/// The seat a claim names in `data`, or why there is none.
fn claimed_seat<'a>(claim: &Claim, data: &'a WaveData) -> Result<&'a SeatData, String> {
    match seat_of(data, &claim.seat) {
        Ok(seat) => Ok(seat),
        Err(fits) if fits.is_empty() => {
            Err(format!("wave {} has no seat {}", data.wave.id, claim.seat))
        }
        Err(fits) => Err(seat_missing(data, &claim.seat, &fits, false)),
    }
}

/// The note that the claim's seat is `seat` by the model alias table.
fn alias_note(claim: &Claim, seat: &SeatData) -> String {
    format!(
        "seat {} is {} by the model alias table: its model {} is {}",
        claim.seat,
        seat.seat.id,
        seat.seat.model,
        crate::models::table()
            .resolve(&claim.seat)
            .map_or(claim.seat.as_str(), |e| e.canonical.as_str())
    )
}

/// A claim whose figure the ledger cannot compute, for `reason`: the conventions tried, and
/// those that reproduce it as its causes.
fn not_computed(
    out: &mut Checked,
    claim: &Claim,
    view: &SeatView<'_>,
    ctx: &WaveCtx<'_>,
    reason: String,
) {
    out.reason = Some(reason);
    out.tried = tried(claim, view, ctx, None);
    out.causes = out
        .tried
        .iter()
        .filter(|t| t.reproduces)
        .map(|t| Cause {
            key: t.key,
            says: format!(
                "computed {}, it reproduces: {}",
                t.says,
                tried_text(t, claim)
            ),
            reproduces: true,
        })
        .collect();
}

/// A claim that differs from the ledger's `value`: the conventions tried, those that reproduce
/// it as its causes, and for an accuracy the denominators that would.
fn differs(out: &mut Checked, claim: &Claim, view: &SeatView<'_>, ctx: &WaveCtx<'_>, value: f64) {
    out.verdict = Verdict::Differs;
    out.tried = tried(claim, view, ctx, Some(value));
    out.causes = out
        .tried
        .iter()
        .filter(|t| t.reproduces)
        .map(|t| Cause {
            key: t.key,
            says: format!("reproduces {}: {}", t.says, tried_text(t, claim)),
            reproduces: true,
        })
        .collect();
    if claim.figure.is_accuracy() {
        out.causes
            .extend(denominator_cause(claim, &view.figures, &out.tried));
    }
}

/// What a claim says that disagrees with the ledger, whatever the verdict: the publisher's
/// name for the figure, and the publisher's own counts.
fn disagreements(claim: &Claim, f: &SeatFigures) -> Vec<Cause> {
    let mut disagrees = Vec::new();
    if let Some(m) = &claim.metric
        && *m != claim.figure.name()
    {
        disagrees.push(Cause {
            key: "metric",
            says: format!(
                "published as `{m}`, another figure than benchledger's {}",
                claim.figure.name()
            ),
            reproduces: false,
        });
    }
    if let Some(c) = claim.counts
        && (c.correct, c.of) != (f.correct, f.denominator)
    {
        disagrees.push(Cause {
            key: "counts",
            says: format!(
                "the publisher counts {} Correct of {}; the ledger holds {} Correct of {} ({} \
                 attempts, {} missing)",
                c.correct, c.of, f.correct, f.denominator, f.attempts, f.missing
            ),
            reproduces: false,
        });
    }
    disagrees
}

/// The note on a reproduced value `x` at a half of the published precision: which neighbours
/// each rounding rule gives (either reproduces). None when `x` is not at a half.
fn half_note(claim: &Claim, x: f64, cmp: &Comparison) -> Option<String> {
    let (even, away) = cmp.half.as_ref()?;
    let at = match claim.precision {
        Precision::Decimals(d) => crate::number::fixed(x, d as usize + 1),
        Precision::Tolerance(_) => crate::number::machine(x),
    };
    let either = cmp.rounded.join(" or ");
    Some(if even != away {
        format!(
            "{at} is at a half: {either} (rounding half to even, as Python's round does, \
             gives {even}; half away from zero, as JavaScript's toFixed does, {away}); \
             either reproduces"
        )
    } else {
        // Both rules take an exact half to the same neighbour; the other is what a
        // value a hair on the other side rounds to, as another order of the same
        // arithmetic may give.
        let other = cmp.rounded.iter().find(|r| **r != *even).unwrap_or(even);
        format!(
            "{at} is at a half: {either} (rounding half to even, as Python's round does, \
             and half away from zero, as JavaScript's toFixed does, both give {even}; a \
             value a hair from the half, as another order of the same arithmetic may \
             give, rounds to {other}); either reproduces"
        )
    })
}

/// The note on a standard error that reproduces: which estimator the ledger's is, and what the
/// sample variance gives beside it (the estimator lm-evaluation-harness and Inspect publish),
/// so that a claim whose interval takes in both says which it matched.
fn se_note(claim: &Claim, view: &SeatView<'_>) -> Option<String> {
    if claim.figure != Figure::Seat(SeatFigure::AccuracySe) {
        return None;
    }
    let sample = compute::alternatives(&claim.figure, view)
        .into_iter()
        .find(|a| a.key == "sample_variance")?;
    let text = |x: f64| super::round::computed_text(x, claim.precision, claim.value);
    Some(format!(
        "the ledger's accuracy_se is clustered by problem with the population variance (÷ P, \
         as show computes it); with the sample variance (÷ P − 1) it is {}",
        text(sample.value * claim.scale)
    ))
}

/// For an accuracy that differs: the other denominators that reproduce it with the ledger's
/// Correct count, as one cause, leaving out any a convention in `tried` already names.
fn denominator_cause(claim: &Claim, f: &SeatFigures, tried: &[Tried]) -> Option<Cause> {
    // A denominator a convention tried already names (the attempted problems, the
    // attempts without infrastructure errors) is not named twice.
    let named: Vec<f64> = tried
        .iter()
        .filter(|t| t.reproduces)
        .map(|t| t.computed)
        .collect();
    let ds: Vec<u64> = other_denominators(claim, f.correct, f.denominator)
        .into_iter()
        .filter(|d| !named.contains(&(f.correct as f64 / *d as f64 * claim.scale)))
        .collect();
    if ds.is_empty() {
        return None;
    }
    let d0 = f.denominator;
    let each: Vec<String> = ds
        .iter()
        .map(|d| {
            let by = if *d > d0 {
                format!("{} more", d - d0)
            } else {
                format!("{} fewer", d0 - d)
            };
            let shown = compare(
                claim.value,
                f.correct as f64 / *d as f64 * claim.scale,
                claim.precision,
            );
            format!(
                "{} Correct of {d} ({by} than the ledger's {d0}): {}",
                f.correct,
                value_text(&shown, f.correct as f64 / *d as f64 * claim.scale)
            )
        })
        .collect();
    Some(Cause {
        key: "other_denominator",
        says: format!(
            "reproduces with another denominator: {}; the ledger divides by {} attempts \
             + {} missing",
            each.join(", or "),
            f.attempts,
            f.missing
        ),
        reproduces: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::spec::Counts;
    use crate::model::testing;
    use crate::model::{Attempt, SuiteProblems};

    fn attempt(problem: String, correct: bool, cost: Option<f64>) -> Attempt {
        Attempt {
            cost_usd: cost,
            ..testing::attempt(&problem, 1, correct)
        }
    }

    /// `n` attempts, the first `correct` Correct, the last `unpriced` without a cost (the
    /// others at `cost`), of a suite of `suite`.
    fn wave(n: usize, correct: usize, unpriced: usize, cost: f64, suite: Option<u64>) -> WaveData {
        testing::wave_data(
            testing::wave_of(suite.map(SuiteProblems::Count)),
            vec![testing::seat(
                "s",
                (0..n)
                    .map(|i| {
                        attempt(
                            format!("p{i:04}"),
                            i < correct,
                            (i < n - unpriced).then_some(cost),
                        )
                    })
                    .collect(),
            )],
        )
    }

    fn claim(figure: Figure, value: f64, scale: f64, precision: Precision) -> Claim {
        Claim {
            line: 1,
            lines: Default::default(),
            wave: "w".into(),
            seat: "s".into(),
            figure,
            value,
            scale,
            precision,
            metric: None,
            counts: None,
            source: None,
        }
    }

    fn run(c: &Claim, data: &WaveData) -> Checked {
        check(
            c,
            &WaveCtx {
                data,
                scores: &BTreeMap::new(),
                variants: &[],
            },
        )
    }

    fn says(c: &Checked) -> Vec<&str> {
        c.causes.iter().map(|c| c.says.as_str()).collect()
    }

    const ACC: Figure = Figure::Seat(SeatFigure::Accuracy);

    #[test]
    fn a_percentage_that_reproduces() {
        let data = wave(500, 384, 0, 1.0, Some(500));
        let c = run(&claim(ACC, 76.8, 100.0, Precision::Decimals(1)), &data);
        assert_eq!(c.verdict, Verdict::Reproduced);
        assert_eq!(c.rounded, ["76.8"]);
        assert!(c.causes.is_empty() && c.tried.is_empty());
    }

    #[test]
    fn an_accuracy_over_the_attempted_problems_is_named() {
        // 26 of 68 attempted, a suite of 102: the ledger says 25.5 %; 38.2 is over the 68.
        let data = wave(68, 26, 0, 1.0, Some(102));
        let c = run(&claim(ACC, 38.2, 100.0, Precision::Decimals(1)), &data);
        assert_eq!(c.verdict, Verdict::Differs);
        assert_eq!(c.rounded, ["25.5"]);
        assert_eq!(
            c.causes[0].says,
            "reproduces over the 68 attempts, leaving out the 34 missing problems: 38.2"
        );
    }

    #[test]
    fn another_denominator_is_found_when_the_precision_pins_it() {
        // 29 Correct of 102 attempts; published 29.0 % = 29 of 100.
        let data = wave(102, 29, 0, 1.0, None);
        let mut cl = claim(ACC, 29.0, 100.0, Precision::Decimals(1));
        cl.counts = Some(Counts {
            correct: 29,
            of: 100,
        });
        let c = run(&cl, &data);
        assert_eq!(c.verdict, Verdict::Differs);
        assert_eq!(
            says(&c),
            [
                "reproduces with another denominator: 29 Correct of 100 (2 fewer than the \
                 ledger's 102): 29.0; the ledger divides by 102 attempts + 0 missing",
                "the publisher counts 29 Correct of 100; the ledger holds 29 Correct of 102 (102 \
                 attempts, 0 missing)"
            ]
        );
        // The solvable share: 28 of 67, a different metric and other counts; no denominator
        // gives 41.8 with 29 Correct.
        let mut cl = claim(ACC, 41.8, 100.0, Precision::Decimals(1));
        cl.metric = Some("solveable_accuracy".into());
        cl.counts = Some(Counts {
            correct: 28,
            of: 67,
        });
        let c = run(&cl, &data);
        assert_eq!(c.verdict, Verdict::Differs);
        assert_eq!(c.causes.len(), 2, "{:?}", c.causes);
        assert!(
            c.causes[0]
                .says
                .starts_with("published as `solveable_accuracy`")
        );
        assert!(
            c.causes[1]
                .says
                .starts_with("the publisher counts 28 Correct of 67")
        );
    }

    #[test]
    fn a_mean_cost_that_counts_unknown_costs_as_zero() {
        // 16 attempts, 14 priced at 8.79: the mean over the priced is 8.79; over all 16,
        // 14 × 8.79 / 16 = 7.69125.
        let data = wave(16, 9, 2, 8.79, Some(16));
        let c = run(
            &claim(
                Figure::Mean(Measure::CostUsd),
                7.69,
                1.0,
                Precision::Decimals(2),
            ),
            &data,
        );
        assert_eq!(c.verdict, Verdict::Differs);
        assert_eq!(c.rounded, ["8.79"]);
        assert_eq!(
            says(&c),
            [
                "reproduces counting the 2 attempts without a cost as 0 (÷ 16 rather than ÷ 14): \
                 7.69",
                "the ledger's figure covers the 14 of 16 attempts whose value is known"
            ]
        );
        assert!((c.difference.unwrap() - 1.1).abs() < 1e-12);
    }

    #[test]
    fn a_figure_that_cannot_be_computed_says_why() {
        let data = wave(4, 2, 0, 1.0, None);
        let c = run(
            &claim(
                Figure::Mean(Measure::WallS),
                207.0,
                1.0,
                Precision::Decimals(0),
            ),
            &data,
        );
        assert_eq!(c.verdict, Verdict::CannotBeComputed);
        assert_eq!(
            c.reason.as_deref(),
            Some("the ledger knows no attempt's wall time (0 of 4 attempts)")
        );
        let mut other = claim(ACC, 50.0, 100.0, Precision::Decimals(0));
        other.seat = "nobody".into();
        assert_eq!(
            run(&other, &data).reason.as_deref(),
            Some("wave w has no seat nobody")
        );
    }

    #[test]
    fn claims_resolve_a_seat_named_by_its_model_s_alias_as_ingest_does() {
        // Before, a claim's seat was its id alone: a claims file written from an OpenHands
        // index names its seat after the model directory (`claude-sonnet-4-5`), which a wave
        // whose seat runs `claude-sonnet-4.5` did not have.
        let mut data = wave(4, 2, 0, 1.0, None);
        data.seats[0].seat.model = "claude-sonnet-4.5".into();
        data.seats[0].seat.provider = "anthropic".into();
        for name in [
            "claude-sonnet-4-5",
            "anthropic/claude-sonnet-4-5-20250929",
            "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        ] {
            let mut c = claim(ACC, 50.0, 100.0, Precision::Decimals(0));
            c.seat = name.into();
            let checked = run(&c, &data);
            assert_eq!(checked.verdict, Verdict::Reproduced, "{name}");
            assert_eq!(
                checked.notes,
                [format!(
                    "seat {name} is s by the model alias table: its model claude-sonnet-4.5 is \
                     claude-sonnet-4-5"
                )]
            );
        }
        // Another model of the table, or a name it does not know, is no seat of the wave.
        for name in ["claude-sonnet-4", "sonnet"] {
            assert!(seat_of(&data, name).unwrap_err().is_empty(), "{name}");
        }
        // Two seats on the model: the name does not say which, and both are named.
        let mut two = data.seats[0].clone();
        two.seat.id = "t".into();
        data.seats.push(two);
        let mut c = claim(ACC, 50.0, 100.0, Precision::Decimals(0));
        c.seat = "claude-sonnet-4-5".into();
        let checked = run(&c, &data);
        assert_eq!(checked.verdict, Verdict::CannotBeComputed);
        assert_eq!(
            checked.reason.as_deref(),
            Some(
                "wave w has no seat claude-sonnet-4-5, and by the model alias table \
                 (claude-sonnet-4-5) it is the model of 2 of its seats: s, t; name one by its id"
            )
        );
    }

    #[test]
    fn a_scale_that_overflows_is_not_compared() {
        let data = wave(4, 2, 0, 1.0, None);
        let c = run(&claim(ACC, 1.0, 1e308, Precision::Decimals(0)), &data);
        assert_eq!(c.verdict, Verdict::Differs, "0.5 × 1e308 is still a number");
        let c = run(
            &claim(
                Figure::Seat(SeatFigure::Attempts),
                1.0,
                1e308,
                Precision::Decimals(0),
            ),
            &data,
        );
        assert_eq!(c.verdict, Verdict::CannotBeComputed);
        assert_eq!(
            c.reason.as_deref(),
            Some("the ledger's value (4) times the scale (1e+308) is beyond what can be compared")
        );
        assert!(c.computed.is_none() && c.difference.is_none());
    }

    #[test]
    fn nothing_reproduces_and_every_convention_tried_is_listed() {
        let data = wave(10, 5, 2, 1.0, Some(12));
        let c = run(
            &claim(
                Figure::Mean(Measure::CostUsd),
                0.44,
                1.0,
                Precision::Decimals(2),
            ),
            &data,
        );
        assert_eq!(c.verdict, Verdict::Differs);
        // 8 priced at $1 of 10 attempts, 2 problems missing of 12: $1.00 over the priced, $0.80
        // with the unpriced at $0, $0.67 over the suite. Nearest 0.44 first.
        let keys: Vec<&str> = c.tried.iter().map(|t| t.key).collect();
        assert_eq!(keys, ["over_suite", "unknown_as_zero"]);
        assert!(c.tried.iter().all(|t| !t.reproduces));
        assert_eq!(
            says(&c),
            ["the ledger's figure covers the 8 of 10 attempts whose value is known"]
        );
        assert!(!c.causes[0].reproduces);
    }
    #[test]
    fn a_standard_error_of_the_other_estimator_is_named_or_taken_in_by_its_interval() {
        // 10 problems, 4 Correct, one trial each: show's accuracy_se sqrt(0.4 × 0.6 / 10) =
        // 0.154919...; lm-evaluation-harness's stderr, the sample standard deviation ÷ √10,
        // sqrt(2.4 / 9) / sqrt(10) = 0.163299316...
        let data = wave(10, 4, 0, 1.0, Some(10));
        let se = Figure::Seat(SeatFigure::AccuracySe);
        let published = 0.163_299_316_185_545_2;
        // Claimed at full precision: differs, and the sample variance is named as reproducing.
        let c = run(
            &claim(se.clone(), published, 1.0, Precision::Tolerance(1e-9)),
            &data,
        );
        assert_eq!(c.verdict, Verdict::Differs);
        assert!((c.computed.unwrap() - (0.024f64).sqrt()).abs() < 1e-15);
        assert_eq!(c.causes[0].key, "sample_variance");
        assert!(c.causes[0].reproduces);
        assert!(
            c.causes[0]
                .says
                .starts_with("reproduces with the sample variance (÷ 9 rather than ÷ 10"),
            "{}",
            c.causes[0].says
        );
        // As `claims from` writes it, n = 10 known: 0.163299 × (sqrt(10/9) − 1) = 0.0088333 +
        // 1e-9, up to two digits 0.0089, which takes in 0.154919 (0.00838 away).
        let p = crate::import::claims::se_precision(published, Some(10), None);
        assert_eq!(p, Precision::Tolerance(0.0089));
        let c = run(&claim(se, published, 1.0, p), &data);
        assert_eq!(c.verdict, Verdict::Reproduced);
        assert_eq!(
            c.notes,
            [
                "the ledger's accuracy_se is clustered by problem with the population variance (÷ \
              P, as show computes it); with the sample variance (÷ P − 1) it is 0.163299"
            ]
        );
    }
}
