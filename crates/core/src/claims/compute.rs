//! A claimed figure computed from a seat's attempts, as benchledger computes it everywhere else
//! (`show`, `trials`, `score`), and the same figure recomputed under the other conventions a
//! publisher may have followed: the alternatives a claim that differs is checked against.
//!
//! Every alternative is a whole recomputation with one convention changed, named in words and
//! by a stable key (docs/claims.md, "Plausible causes"):
//!
//! - accuracy over the attempted problems only (the missing left out), without the attempts
//!   that ended in an infrastructure error, a problem solved when any of its trials is, the
//!   mean of the accuracies trial by trial;
//! - means over every attempt with an unknown value counted as 0, over the suite's problems
//!   (the missing at 0), per problem rather than per attempt;
//! - wall seconds as the agent's working seconds;
//! - tokens as recorded, without cached reads, without cache writes, with cached reads added
//!   twice;
//! - pass@k and pass^k by the naive estimator, without infrastructure errors, without the
//!   missing problems;
//! - Cost-of-Pass with unknown costs at 0, per problem rather than pooled (and the reverse).
//!
//! Pure: a wave's data in, numbers out.

use std::collections::BTreeMap;

use super::spec::{Figure, Measure, SeatFigure};
use crate::figures::{Known, SeatFigures};
use crate::model::{Accounting, Attempt, SeatData, Wave};
use crate::rubric::WaveScores;
use crate::stats::cost_of_pass::{per_problem, summarise};
use crate::stats::trials::SeatProblems;
use crate::stats::{pass_at_k, pass_hat_k};

/// A computed figure, unscaled.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Value {
    pub value: f64,
    /// For a sum or a mean: how many of the seat's attempts it covers.
    pub covers: Option<Covers>,
}

/// How many attempts a sum or a mean covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Covers {
    pub known: u64,
    pub attempts: u64,
}

/// The figure recomputed under another convention.
#[derive(Debug, Clone, PartialEq)]
pub struct Alternative {
    /// Stable: the JSON names it (docs/claims.md).
    pub key: &'static str,
    /// The convention, in words.
    pub says: String,
    /// Unscaled.
    pub value: f64,
}

/// One problem's trials.
#[derive(Debug, Clone, Copy, Default)]
struct Tally {
    trials: u64,
    passed: u64,
    infra: u64,
}

/// A seat of a wave, with what every figure is computed from.
pub struct SeatView<'a> {
    pub wave: &'a Wave,
    pub seat: &'a SeatData,
    pub figures: SeatFigures,
    problems: BTreeMap<&'a str, Tally>,
}

impl<'a> SeatView<'a> {
    pub fn new(wave: &'a Wave, seat: &'a SeatData) -> SeatView<'a> {
        let mut problems: BTreeMap<&str, Tally> = BTreeMap::new();
        for a in &seat.attempts {
            let t = problems.entry(a.problem.as_str()).or_default();
            t.trials += 1;
            t.passed += u64::from(a.correct);
            t.infra += u64::from(a.infra_error);
        }
        SeatView {
            wave,
            seat,
            figures: SeatFigures::of(wave, seat),
            problems,
        }
    }

    fn attempts(&self) -> &[Attempt] {
        &self.seat.attempts
    }

    fn accounting(&self) -> &Accounting {
        &self.wave.accounting
    }

    fn multi_trial(&self) -> bool {
        self.figures.attempts > self.figures.problems
    }

    fn infra(&self) -> u64 {
        self.problems.values().map(|t| t.infra).sum()
    }
}

/// What a per-attempt quantity is called in a sentence: "cost", "wall time".
fn what(m: Measure) -> &'static str {
    match m {
        Measure::CostUsd => "cost",
        Measure::WallS => "wall time",
        Measure::TokensTotal => "token counts",
        Measure::Outcome => "outcomes",
        Measure::InputTokens => "input tokens",
        Measure::OutputTokens => "output tokens",
    }
}

/// A sum over the attempts where the quantity is known, or why there is none.
fn sum_u64(k: &Known<u64>, attempts: u64, what: &str) -> Result<Value, String> {
    if k.known == 0 {
        return Err(unknown(what, attempts));
    }
    Ok(Value {
        value: k.sum as f64,
        covers: Some(Covers {
            known: k.known,
            attempts,
        }),
    })
}

fn sum_f64(k: &Known<f64>, attempts: u64, what: &str) -> Result<Value, String> {
    if k.known == 0 {
        return Err(unknown(what, attempts));
    }
    Ok(Value {
        value: k.sum,
        covers: Some(Covers {
            known: k.known,
            attempts,
        }),
    })
}

fn unknown(what: &str, attempts: u64) -> String {
    if attempts == 0 {
        "the seat has no attempts".into()
    } else {
        format!("the ledger knows no attempt's {what} (0 of {attempts} attempts)")
    }
}

/// "1 attempt", "2 attempts".
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn exact(n: u64) -> Result<Value, String> {
    Ok(Value {
        value: n as f64,
        covers: None,
    })
}

/// A measure's per-attempt value, as its figures sum it.
fn measure_of(m: Measure, a: &Attempt, accounting: &Accounting) -> Option<f64> {
    match m {
        Measure::CostUsd => a.cost_usd,
        Measure::WallS => a.wall_s,
        Measure::TokensTotal => a.tokens_total(accounting).map(|t| t as f64),
        Measure::Outcome => Some(a.outcome_or_verdict()),
        Measure::InputTokens => a.input_tokens.map(|t| t as f64),
        Measure::OutputTokens => a.output_tokens.map(|t| t as f64),
    }
}

/// The sum of a measure and how many attempts know it, summed in attempt order as the figures
/// sum it.
fn measure_sum(view: &SeatView<'_>, m: Measure) -> Known<f64> {
    let mut k = Known::<f64>::NONE;
    for a in view.attempts() {
        k.add(measure_of(m, a, view.accounting()));
    }
    k
}

/// The figure as benchledger computes it, unscaled; `Err` says why it cannot be computed.
/// `scores` holds the wave's scores under each rubric a claim names, by `NAME@VERSION`.
pub(crate) fn primary(
    figure: &Figure,
    view: &SeatView<'_>,
    scores: &BTreeMap<String, WaveScores>,
) -> Result<Value, String> {
    match figure {
        Figure::Seat(s) => seat_figure(s, view),
        Figure::Mean(m) => mean(*m, view),
        Figure::PassAtK(k) | Figure::PassHatK(k) => pass_k(figure, *k, view),
        Figure::Score { name, version } => rubric_score(name, *version, view, scores),
    }
}

/// A seat figure ([`Figure::Seat`]) as benchledger computes it; `Err` says why it cannot be.
fn seat_figure(s: &SeatFigure, view: &SeatView<'_>) -> Result<Value, String> {
    let f = &view.figures;
    let n = f.attempts;
    match s {
        SeatFigure::Problems => exact(f.problems),
        SeatFigure::Attempts => exact(f.attempts),
        SeatFigure::Correct => exact(f.correct),
        SeatFigure::Missing => exact(f.missing),
        SeatFigure::Denominator => exact(f.denominator),
        SeatFigure::CanaryFailures => exact(f.canary_failures),
        SeatFigure::Accuracy => f
            .accuracy
            .map(|a| Value {
                value: a,
                covers: None,
            })
            .ok_or_else(|| {
                "the seat has no attempts and its wave declares no problems".to_string()
            }),
        SeatFigure::AccuracySe => SeatProblems::of(view.wave, view.attempts())
            .clustered()
            .map(|c| Value {
                value: c.se,
                covers: None,
            })
            .ok_or_else(|| {
                "the seat has no attempts and its wave declares no problems".to_string()
            }),
        SeatFigure::InputTokens => sum_u64(&f.input_tokens, n, "input tokens"),
        SeatFigure::OutputTokens => sum_u64(&f.output_tokens, n, "output tokens"),
        SeatFigure::InputTokensCacheRead => sum_u64(&f.input_tokens_cache_read, n, "cached reads"),
        SeatFigure::InputTokensCacheWrite => {
            sum_u64(&f.input_tokens_cache_write, n, "cache writes")
        }
        SeatFigure::TokensTotal => sum_u64(&f.tokens_total, n, "token counts"),
        SeatFigure::NewInputTokens => sum_u64(&f.new_input_tokens, n, "input tokens"),
        SeatFigure::WallS => sum_f64(&f.wall_s, n, "wall time"),
        SeatFigure::CostUsd => sum_f64(&f.cost_usd, n, "cost"),
        SeatFigure::Steps => sum_u64(&f.steps, n, "steps"),
        SeatFigure::Errors => sum_u64(&f.errors, n, "failed steps"),
        SeatFigure::CostOfPassUsd => match f.cost_of_pass_usd {
            Some(c) => Ok(Value {
                value: c,
                covers: None,
            }),
            None if f.correct == 0 => Err("nothing is Correct: Cost-of-Pass is undefined".into()),
            None => Err(format!(
                "{} of {n} attempts have no cost: the pooled Cost-of-Pass is undefined with \
                 a cost unknown",
                n - f.cost_usd.known
            )),
        },
        SeatFigure::CostOfPassPerProblemUsd => {
            let s = summarise(&per_problem(view.attempts()), f.missing);
            s.mean_usd
                .map(|c| Value {
                    value: c,
                    covers: None,
                })
                .ok_or_else(|| {
                    format!(
                        "no problem was passed with every cost known ({} never passed, {} \
                         passed with a cost unknown)",
                        s.never_passed, s.unknown
                    )
                })
        }
    }
}

/// The mean of a measure over the seat's attempts with it known ([`Figure::Mean`]).
fn mean(m: Measure, view: &SeatView<'_>) -> Result<Value, String> {
    let n = view.figures.attempts;
    let k = measure_sum(view, m);
    if k.known == 0 {
        return Err(unknown(what(m), n));
    }
    Ok(Value {
        value: k.sum / k.known as f64,
        covers: Some(Covers {
            known: k.known,
            attempts: n,
        }),
    })
}

/// pass@k or pass^k (`figure` says which) over the seat's problems.
fn pass_k(figure: &Figure, k: u64, view: &SeatView<'_>) -> Result<Value, String> {
    let p = SeatProblems::of(view.wave, view.attempts());
    let at = p.at(k);
    let v = if matches!(figure, Figure::PassAtK(_)) {
        at.pass_at_k
    } else {
        at.pass_hat_k
    };
    v.map(|value| Value {
        value,
        covers: None,
    })
    .ok_or_else(|| match p.trial_range() {
        Some((_, most)) => format!(
            "no problem has {k} trials (the most a problem has is {most}), and none is \
             missing"
        ),
        None => "the seat has no attempts and its wave declares no problems".into(),
    })
}

/// The seat's score under the rubric `name`@`version`, from `scores` (by `NAME@VERSION`).
fn rubric_score(
    name: &str,
    version: u32,
    view: &SeatView<'_>,
    scores: &BTreeMap<String, WaveScores>,
) -> Result<Value, String> {
    let id = format!("{name}@{version}");
    let seat = scores
        .get(&id)
        .and_then(|w| w.seats.iter().find(|s| s.seat == view.seat.seat.id));
    match seat {
        Some(s) => s
            .score
            .map(|value| Value {
                value,
                covers: None,
            })
            .ok_or_else(|| match &s.note {
                Some(note) => format!("the score under {id} is undefined: {note}"),
                None => format!("the score under {id} is undefined"),
            }),
        None => Err(format!("the wave was not scored under {id}")),
    }
}

/// The mean per trial of a problem's pass figure over problems with at least k trials and the
/// missing (each 0), from per-problem (trials, passed); `None` when there are none.
fn mean_at_k(
    tallies: &[(u64, u64)],
    missing: u64,
    k: u64,
    f: impl Fn(u64, u64) -> f64,
) -> Option<f64> {
    let mut n = missing;
    let mut sum = 0.0;
    for &(trials, passed) in tallies {
        if trials >= k {
            sum += f(trials, passed);
            n += 1;
        }
    }
    (n > 0).then(|| sum / n as f64)
}

/// Token counts of an attempt under another convention.
type TokenRule = fn(&Attempt, &Accounting) -> Option<u64>;

fn token_rules(accounting: &Accounting) -> Vec<(&'static str, &'static str, TokenRule)> {
    let mut rules: Vec<(&'static str, &'static str, TokenRule)> = vec![
        (
            "tokens_as_recorded",
            "input + output as recorded, no cached reads or cache writes added",
            |a, _| a.input_tokens?.checked_add(a.output_tokens?),
        ),
        (
            "tokens_without_cached_reads",
            "without cached reads",
            |a, acc| {
                a.tokens_total(acc)?
                    .checked_sub(a.input_tokens_cache_read.unwrap_or(0))
            },
        ),
        (
            "tokens_without_cache_writes",
            "without cache writes",
            |a, acc| {
                a.tokens_total(acc)?
                    .checked_sub(a.input_tokens_cache_write.unwrap_or(0))
            },
        ),
    ];
    if accounting.input_tokens_include_cache_reads {
        rules.push((
            "tokens_cached_reads_twice",
            "with cached reads added again to input totals that already hold them",
            |a, acc| {
                a.tokens_total(acc)?
                    .checked_add(a.input_tokens_cache_read.unwrap_or(0))
            },
        ));
    }
    rules
}

/// Alternatives as they are found: each kept only when it is finite and unlike every one
/// before it.
struct Found(Vec<Alternative>);

impl Found {
    /// Keeps `value` under `key`, said in words, when it is finite and new.
    fn push(&mut self, key: &'static str, says: String, value: Option<f64>) {
        if let Some(value) = value.filter(|v| v.is_finite())
            && !self.0.iter().any(|a| a.value == value)
        {
            self.0.push(Alternative { key, says, value });
        }
    }
}

/// The figure recomputed under every other convention that applies to it, in a fixed order
/// (the order a report names them in). Conventions that give the figure's own value, or no
/// value, are left out; so is a convention that gives the same value as one before it.
pub(crate) fn alternatives(figure: &Figure, view: &SeatView<'_>) -> Vec<Alternative> {
    let f = &view.figures;
    let n = f.attempts;
    let mut out = Found(Vec::new());
    match figure {
        Figure::Seat(SeatFigure::Accuracy) => accuracy_alternatives(&mut out, view),
        Figure::Seat(SeatFigure::AccuracySe) => se_alternatives(&mut out, view),
        Figure::Mean(m) => mean_alternatives(&mut out, view, *m),
        Figure::Seat(SeatFigure::TokensTotal) => {
            for (key, says, rule) in token_rules(view.accounting()) {
                let mut t = Known::<u64>::NONE;
                for a in view.attempts() {
                    t.add(rule(a, view.accounting()));
                }
                if t.known > 0 {
                    out.push(key, says.into(), Some(t.sum as f64));
                }
            }
        }
        Figure::Seat(SeatFigure::InputTokens) => {
            let reads = f.input_tokens_cache_read.sum as f64;
            if reads > 0.0 && f.input_tokens.known > 0 {
                let input = f.input_tokens.sum as f64;
                if view.accounting().input_tokens_include_cache_reads {
                    out.push(
                        "tokens_without_cached_reads",
                        "without the cached reads the input totals hold".into(),
                        Some(input - reads),
                    );
                } else {
                    out.push(
                        "tokens_with_cached_reads",
                        "with the cached reads added to the input totals".into(),
                        Some(input + reads),
                    );
                }
            }
        }
        Figure::Seat(SeatFigure::NewInputTokens) => {
            let writes = f.input_tokens_cache_write.sum as f64;
            if writes > 0.0 && f.new_input_tokens.known > 0 {
                out.push(
                    "tokens_without_cache_writes",
                    "without cache writes".into(),
                    Some(f.new_input_tokens.sum as f64 - writes),
                );
            }
        }
        Figure::Seat(SeatFigure::WallS) => {
            let mut w = Known::<f64>::NONE;
            for a in view.attempts() {
                w.add(a.working_s);
            }
            if w.known > 0 {
                out.push(
                    "working_time",
                    format!(
                        "the agent's working seconds rather than wall seconds ({} attempts \
                         record them)",
                        w.known
                    ),
                    Some(w.sum),
                );
            }
        }
        Figure::Seat(SeatFigure::CostOfPassUsd) => {
            if f.correct > 0 && f.cost_usd.known > 0 && f.cost_usd.known < n {
                out.push(
                    "unknown_as_zero",
                    format!(
                        "the known costs ÷ Correct, the {} without a cost counted as 0",
                        count(n - f.cost_usd.known, "attempt", "attempts")
                    ),
                    Some(f.cost_usd.sum / f.correct as f64),
                );
            }
            out.push(
                "per_problem",
                "per problem (the Cost-of-Pass paper's: each problem's mean cost ÷ its success \
                 rate, averaged), not pooled"
                    .into(),
                summarise(&per_problem(view.attempts()), f.missing).mean_usd,
            );
        }
        Figure::Seat(SeatFigure::CostOfPassPerProblemUsd) => {
            out.push(
                "pooled",
                "pooled (total USD ÷ number Correct), not per problem".into(),
                f.cost_of_pass_usd,
            );
        }
        Figure::PassAtK(k) | Figure::PassHatK(k) => {
            pass_k_alternatives(&mut out, view, matches!(figure, Figure::PassAtK(_)), *k);
        }
        _ => {}
    }
    out.0
}

/// The alternatives of a seat's accuracy: over the attempted problems, without
/// infrastructure errors, and, with repeated trials, any trial and the mean of the trials.
fn accuracy_alternatives(out: &mut Found, view: &SeatView<'_>) {
    let f = &view.figures;
    let n = f.attempts;
    if f.missing > 0 && n > 0 {
        out.push(
            "over_attempted",
            format!(
                "over the {}, leaving out the {}",
                count(n, "attempt", "attempts"),
                count(f.missing, "missing problem", "missing problems")
            ),
            Some(f.correct as f64 / n as f64),
        );
    }
    let infra = view.infra();
    if infra > 0 && f.denominator > infra {
        out.push(
            "without_infra_errors",
            format!(
                "leaving out the {} that ended in an infrastructure error",
                count(infra, "attempt", "attempts")
            ),
            Some(f.correct as f64 / (f.denominator - infra) as f64),
        );
    }
    if view.multi_trial() {
        let solved = view.problems.values().filter(|t| t.passed > 0).count() as u64;
        out.push(
            "any_trial",
            format!(
                "a problem solved when any of its trials is Correct ({solved} of {})",
                f.problems + f.missing
            ),
            Some(solved as f64 / (f.problems + f.missing) as f64),
        );
        let p = SeatProblems::of(view.wave, view.attempts());
        out.push(
            "mean_of_trials",
            "the mean of the accuracies trial by trial".into(),
            p.trial_accuracy().map(|(mean, _)| mean),
        );
    }
}

/// The standard error of the mean of `rates`, the last `missing` of them 0 besides: with the
/// population variance (÷ P, as `show`'s `accuracy_se`), or the sample variance (÷ P − 1;
/// `None` under two values). Summed in order, from +0.0, as `stats::trials` sums.
fn se_of(rates: &[f64], missing: u64, sample: bool) -> Option<f64> {
    let p = rates.len() as u64 + missing;
    if p == 0 || (sample && p < 2) {
        return None;
    }
    let mean = rates.iter().fold(0.0, |acc, r| acc + r) / p as f64;
    let square = |d: f64| d * d;
    let spread =
        rates.iter().fold(0.0, |acc, r| acc + square(r - mean)) + missing as f64 * square(mean);
    let d = if sample { (p - 1) as f64 } else { p as f64 };
    Some((spread / d).sqrt() / (p as f64).sqrt())
}

/// The alternatives of the accuracy's standard error (`accuracy_se`, clustered by problem,
/// ÷ P): the estimators other harnesses publish. With the sample variance (÷ P − 1, as
/// lm-evaluation-harness's `_stderr` and Inspect's `stderr()` compute it); every attempt taken
/// as independent (`show`'s `accuracy_se_naive`, and the same with ÷ n − 1); over the attempted
/// problems only, the missing left out (and with ÷ P − 1).
fn se_alternatives(out: &mut Found, view: &SeatView<'_>) {
    let f = &view.figures;
    let rates: Vec<f64> = view
        .problems
        .values()
        .map(|t| t.passed as f64 / t.trials as f64)
        .collect();
    let p = rates.len() as u64 + f.missing;
    out.push(
        "sample_variance",
        format!(
            "with the sample variance (÷ {} rather than ÷ {p} problems: Bessel's correction, as \
             lm-evaluation-harness's _stderr and Inspect's stderr() compute it)",
            p.saturating_sub(1)
        ),
        se_of(&rates, f.missing, true),
    );
    let clustered = SeatProblems::of(view.wave, view.attempts()).clustered();
    if view.multi_trial() {
        out.push(
            "unclustered",
            format!(
                "every attempt taken as independent, sqrt(x̄ (1 − x̄) / n) over the n = {} \
                 attempts and missing problems (show's accuracy_se_naive), not clustered by \
                 problem",
                f.attempts + f.missing
            ),
            clustered.map(|c| c.se_naive),
        );
        let n = f.attempts + f.missing;
        out.push(
            "unclustered_sample_variance",
            format!(
                "every attempt taken as independent, with the sample variance of the {n} \
                 outcomes (÷ {})",
                n.saturating_sub(1)
            ),
            (n >= 2).then(|| {
                let a = f.correct as f64 / n as f64;
                (a * (1.0 - a) / (n - 1) as f64).max(0.0).sqrt()
            }),
        );
    }
    if f.missing > 0 {
        out.push(
            "over_attempted",
            format!(
                "over the {} attempted problems, leaving out the {}",
                rates.len(),
                count(f.missing, "missing problem", "missing problems")
            ),
            se_of(&rates, 0, false),
        );
        out.push(
            "over_attempted_sample_variance",
            format!(
                "over the {} attempted problems with the sample variance (÷ {})",
                rates.len(),
                rates.len().saturating_sub(1)
            ),
            se_of(&rates, 0, true),
        );
    }
}

/// The alternatives of a mean of measure `m`: unknown as 0, over the suite, per problem;
/// working seconds for wall seconds; the token conventions for token totals.
fn mean_alternatives(out: &mut Found, view: &SeatView<'_>, m: Measure) {
    let f = &view.figures;
    let n = f.attempts;
    let k = measure_sum(view, m);
    if k.known > 0 {
        if k.known < n {
            out.push(
                "unknown_as_zero",
                format!(
                    "counting the {} without a {} as 0 (÷ {n} rather than ÷ {})",
                    count(n - k.known, "attempt", "attempts"),
                    what(m),
                    k.known
                ),
                Some(k.sum / n as f64),
            );
        }
        if f.missing > 0 {
            out.push(
                "over_suite",
                format!(
                    "÷ every problem of the suite, the {} missing at 0 (÷ {})",
                    f.missing,
                    n + f.missing
                ),
                Some(k.sum / (n + f.missing) as f64),
            );
        }
        if view.multi_trial() {
            out.push(
                "per_problem",
                format!(
                    "÷ the {} problems rather than the {n} attempts (all of a problem's \
                     trials together)",
                    f.problems
                ),
                Some(k.sum / f.problems as f64),
            );
        }
    }
    match m {
        Measure::WallS => {
            let mut w = Known::<f64>::NONE;
            for a in view.attempts() {
                w.add(a.working_s);
            }
            if w.known > 0 {
                out.push(
                    "working_time",
                    format!(
                        "the agent's working seconds rather than wall seconds ({} \
                         attempts record them)",
                        w.known
                    ),
                    Some(w.sum / w.known as f64),
                );
            }
        }
        Measure::TokensTotal => {
            for (key, says, rule) in token_rules(view.accounting()) {
                let mut t = Known::<u64>::NONE;
                for a in view.attempts() {
                    t.add(rule(a, view.accounting()));
                }
                if t.known > 0 {
                    out.push(key, says.into(), Some(t.sum as f64 / t.known as f64));
                }
            }
        }
        Measure::Outcome => {
            if n > 0 {
                out.push(
                    "accuracy",
                    "Correct ÷ attempts rather than the mean outcome".into(),
                    Some(f.correct as f64 / n as f64),
                );
            }
            // A harness that drops the runs that errored (inspect_ai #4286, tau2-bench #493)
            // publishes the mean of the rest.
            let kept: Vec<f64> = view
                .attempts()
                .iter()
                .filter(|a| !a.infra_error)
                .map(|a| a.outcome_or_verdict())
                .collect();
            let infra = n - kept.len() as u64;
            if infra > 0 && !kept.is_empty() {
                out.push(
                    "without_infra_errors",
                    format!(
                        "leaving out the {} that ended in an infrastructure error",
                        count(infra, "attempt", "attempts")
                    ),
                    Some(kept.iter().fold(0.0, |acc, x| acc + x) / kept.len() as f64),
                );
            }
        }
        Measure::CostUsd | Measure::InputTokens | Measure::OutputTokens => {}
    }
}

/// The alternatives of pass@k (`at`) or pass^k: the naive estimator, without infrastructure
/// errors, without the missing problems.
fn pass_k_alternatives(out: &mut Found, view: &SeatView<'_>, at: bool, k: u64) {
    let f = &view.figures;
    let unbiased = |n: u64, c: u64| {
        if at {
            pass_at_k(n, c, k).unwrap_or(0.0)
        } else {
            pass_hat_k(n, c, k).unwrap_or(0.0)
        }
    };
    let naive = |n: u64, c: u64| {
        let p = c as f64 / n as f64;
        if at {
            1.0 - (1.0 - p).powi(k as i32)
        } else {
            p.powi(k as i32)
        }
    };
    let all: Vec<(u64, u64)> = view
        .problems
        .values()
        .map(|t| (t.trials, t.passed))
        .collect();
    out.push(
        "naive_estimator",
        if at {
            format!("the naive estimator 1 − (1 − c/n)^{k}, not the unbiased one")
        } else {
            format!("the naive estimator (c/n)^{k}, not the unbiased one")
        },
        mean_at_k(&all, f.missing, k, naive),
    );
    let infra = view.infra();
    if infra > 0 {
        let without: Vec<(u64, u64)> = view
            .problems
            .values()
            .filter(|t| t.trials > t.infra)
            .map(|t| (t.trials - t.infra, t.passed))
            .collect();
        out.push(
            "without_infra_errors",
            format!(
                "leaving out the {} that ended in an infrastructure error",
                count(infra, "trial", "trials")
            ),
            mean_at_k(&without, f.missing, k, unbiased),
        );
    }
    if f.missing > 0 {
        out.push(
            "over_attempted",
            format!(
                "leaving out the {}",
                count(f.missing, "missing problem", "missing problems")
            ),
            mean_at_k(&all, 0, k, unbiased),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::SuiteProblems;
    use crate::model::testing;

    fn wave(suite: Option<u64>) -> Wave {
        testing::wave_of(suite.map(SuiteProblems::Count))
    }

    fn attempt(problem: &str, trial: u32, correct: bool, cost: Option<f64>) -> Attempt {
        Attempt {
            input_tokens: Some(100),
            output_tokens: Some(10),
            input_tokens_cache_read: Some(40),
            input_tokens_cache_write: Some(5),
            wall_s: Some(10.0),
            cost_usd: cost,
            ..testing::attempt(problem, trial, correct)
        }
    }

    fn seat(attempts: Vec<Attempt>) -> SeatData {
        testing::seat("s", attempts)
    }

    fn alt(alts: &[Alternative], key: &str) -> f64 {
        alts.iter()
            .find(|a| a.key == key)
            .unwrap_or_else(|| panic!("no {key} in {alts:?}"))
            .value
    }

    #[test]
    fn a_mean_cost_over_known_costs_and_its_alternatives() {
        // Costs 1, 2, unknown; a fourth problem missing of a suite of 4.
        let w = wave(Some(4));
        let s = seat(vec![
            attempt("a", 1, true, Some(1.0)),
            attempt("b", 1, false, Some(2.0)),
            attempt("c", 1, false, None),
        ]);
        let v = SeatView::new(&w, &s);
        let m = Figure::Mean(Measure::CostUsd);
        let p = primary(&m, &v, &BTreeMap::new()).unwrap();
        assert_eq!(p.value, 1.5);
        assert_eq!(
            p.covers,
            Some(Covers {
                known: 2,
                attempts: 3
            })
        );
        let alts = alternatives(&m, &v);
        assert_eq!(alt(&alts, "unknown_as_zero"), 1.0);
        assert_eq!(alt(&alts, "over_suite"), 0.75);
        // Accuracy: 1 of 4; over the attempted, 1 of 3.
        let a = Figure::Seat(SeatFigure::Accuracy);
        assert_eq!(primary(&a, &v, &BTreeMap::new()).unwrap().value, 0.25);
        assert_eq!(alt(&alternatives(&a, &v), "over_attempted"), 1.0 / 3.0);
        // Pooled Cost-of-Pass is undefined with an unknown cost, and says why.
        let e = primary(
            &Figure::Seat(SeatFigure::CostOfPassUsd),
            &v,
            &BTreeMap::new(),
        );
        assert_eq!(
            e.unwrap_err(),
            "1 of 3 attempts have no cost: the pooled Cost-of-Pass is undefined with a cost \
             unknown"
        );
        // Wall time unknown everywhere: cannot be computed, saying how many attempts.
        let mut bare = s.clone();
        for a in &mut bare.attempts {
            a.wall_s = None;
        }
        let v = SeatView::new(&w, &bare);
        assert_eq!(
            primary(&Figure::Mean(Measure::WallS), &v, &BTreeMap::new()).unwrap_err(),
            "the ledger knows no attempt's wall time (0 of 3 attempts)"
        );
    }

    #[test]
    fn token_conventions() {
        // Excluding accounting: total = 100 + 40 + 5 + 10 = 155 per attempt.
        let w = wave(None);
        let s = seat(vec![
            attempt("a", 1, true, None),
            attempt("b", 1, true, None),
        ]);
        let v = SeatView::new(&w, &s);
        let t = Figure::Seat(SeatFigure::TokensTotal);
        assert_eq!(primary(&t, &v, &BTreeMap::new()).unwrap().value, 310.0);
        let alts = alternatives(&t, &v);
        assert_eq!(alt(&alts, "tokens_as_recorded"), 220.0);
        assert_eq!(alt(&alts, "tokens_without_cached_reads"), 230.0);
        assert_eq!(alt(&alts, "tokens_without_cache_writes"), 300.0);
        assert!(alts.iter().all(|a| a.key != "tokens_cached_reads_twice"));
    }

    #[test]
    fn pass_at_k_conventions() {
        // p1: 3 of 5 trials, one of the failures an infrastructure error; p2 never attempted.
        let w = wave(Some(2));
        let mut attempts: Vec<Attempt> = (1..=5).map(|t| attempt("p1", t, t <= 3, None)).collect();
        attempts[4].infra_error = true;
        let s = seat(attempts);
        let v = SeatView::new(&w, &s);
        let f = Figure::PassAtK(2);
        // Unbiased: (1 − C(2,2)/C(5,2)) / 2 = 0.9 / 2.
        assert_eq!(primary(&f, &v, &BTreeMap::new()).unwrap().value, 0.45);
        let alts = alternatives(&f, &v);
        // Naive: (1 − 0.4²) / 2 = 0.42.
        assert!((alt(&alts, "naive_estimator") - 0.42).abs() < 1e-15);
        // Without the infrastructure error: 3 of 4, 1 − C(1,2)/C(4,2) = 1, / 2.
        assert_eq!(alt(&alts, "without_infra_errors"), 0.5);
        assert_eq!(alt(&alts, "over_attempted"), 0.9);
        assert!(
            primary(&Figure::PassAtK(6), &v, &BTreeMap::new()).is_ok(),
            "the missing problem still counts at every k"
        );
        let alone = wave(None);
        let v = SeatView::new(&alone, &s);
        assert_eq!(
            primary(&Figure::PassAtK(6), &v, &BTreeMap::new()).unwrap_err(),
            "no problem has 6 trials (the most a problem has is 5), and none is missing"
        );
    }
    #[test]
    fn the_standard_error_is_shows_and_its_alternatives_are_the_other_estimators() {
        // A suite of 4: p1 passed 2 of 2 trials (m = 1), p2 1 of 2 (0.5), p3 0 of 2 (0), p4
        // missing (one failed trial, 0). x̄ = 1.5 / 4 = 0.375; the squared deviations 0.390625,
        // 0.015625, 0.140625, 0.140625 sum to 0.6875, exactly.
        let w = wave(Some(4));
        let s = seat(vec![
            attempt("p1", 1, true, None),
            attempt("p1", 2, true, None),
            attempt("p2", 1, true, None),
            attempt("p2", 2, false, None),
            attempt("p3", 1, false, None),
            attempt("p3", 2, false, None),
        ]);
        let v = SeatView::new(&w, &s);
        let f = Figure::Seat(SeatFigure::AccuracySe);
        // show's accuracy_se: sqrt(0.6875) / 4 = 0.20728904939721...
        let own = primary(&f, &v, &BTreeMap::new()).unwrap().value;
        assert_eq!(own, 0.6875f64.sqrt() / 4.0);
        assert!((own - 0.207_289_049_397_212_5).abs() < 1e-15);
        let alts = alternatives(&f, &v);
        let near = |key: &str, want: f64| {
            let got = alt(&alts, key);
            assert!((got - want).abs() < 1e-15, "{key}: {got} != {want}");
        };
        // ÷ P − 1: sqrt(0.6875 / 3) / sqrt(4) = sqrt(0.6875 / 12) = 0.23935677693908...
        near("sample_variance", (0.6875f64 / 12.0).sqrt());
        // Attempts as independent: sqrt(0.375 × 0.625 / 7), 6 attempts and 1 missing.
        near("unclustered", (0.375f64 * 0.625 / 7.0).sqrt());
        // The 7 outcomes' sample variance: 3 of 7 Correct, sqrt((3/7)(4/7) / 6).
        near(
            "unclustered_sample_variance",
            (3.0f64 / 7.0 * (4.0 / 7.0) / 6.0).sqrt(),
        );
        // The 3 attempted problems alone: rates 1, 0.5, 0, mean 0.5, deviations² sum 0.5;
        // sqrt(0.5 / 3) / sqrt(3) = sqrt(0.5) / 3, and ÷ 2: sqrt(0.5 / 2) / sqrt(3).
        near("over_attempted", 0.5f64.sqrt() / 3.0);
        near("over_attempted_sample_variance", 0.5 / 3.0f64.sqrt());
        // No problem at all: no standard error.
        let empty = seat(Vec::new());
        let alone = wave(None);
        let v = SeatView::new(&alone, &empty);
        assert_eq!(
            primary(&f, &v, &BTreeMap::new()).unwrap_err(),
            "the seat has no attempts and its wave declares no problems"
        );
    }
}
