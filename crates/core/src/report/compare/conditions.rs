//! The conditions a wave's figures were measured under — load, token accounting, prices,
//! budget, suite and the seat itself — and what a difference in each confounds (principle 4:
//! conditions travel with the numbers). Known against unknown is a difference too.

use std::collections::BTreeSet;

use serde_json::Value;

use super::WaveInput;
use super::wave_figures::ALL_FIGURES;
use crate::model::SuiteProblems;
use crate::number::{int, int_or_fixed, machine};
use crate::report::score::RubricInfo;
use crate::rubric::measure::Measure;
use crate::rubric::spec::{Rubric, Transform};

/// The key of the timeout multiplier, the one load condition most harnesses have no notion
/// of: a wave that records none has not left its load unrecorded.
pub(super) const TIMEOUT_MULTIPLIER: &str = "timeout_multiplier";

/// What a different timeout multiplier confounds: not only the wall time, as the rest of the
/// load does. A longer timeout lets trials finish that would have timed out, which moves the
/// accuracy and the tokens and USD they spent.
const TIMEOUT_FIGURES: &[&str] = &[
    "accuracy",
    "wall_s",
    "tokens_total",
    "new_input_tokens",
    "cost_usd",
    "cost_of_pass_usd",
];

/// A condition's value in one wave.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum CondValue {
    /// Not recorded (load, price source) or not declared (budget, suite size, config).
    Unknown,
    Int(u64),
    Num(f64),
    /// A factor (the timeout multiplier): printed as written, `2.5` rather than `2.50`.
    Factor(f64),
    Bool(bool),
    Text(String),
}

impl CondValue {
    pub(super) fn json(&self) -> Value {
        match self {
            CondValue::Unknown => Value::Null,
            CondValue::Int(n) => Value::from(*n),
            CondValue::Num(x) | CondValue::Factor(x) => {
                serde_json::Number::from_f64(*x).map_or(Value::Null, Value::Number)
            }
            CondValue::Bool(b) => Value::Bool(*b),
            CondValue::Text(s) => Value::String(s.clone()),
        }
    }

    pub(super) fn machine(&self) -> String {
        match self {
            CondValue::Unknown => String::new(),
            CondValue::Int(n) => n.to_string(),
            CondValue::Num(x) | CondValue::Factor(x) => machine(*x),
            CondValue::Bool(b) => b.to_string(),
            CondValue::Text(s) => s.clone(),
        }
    }

    pub(super) fn human(&self, unknown: &str) -> String {
        match self {
            CondValue::Unknown => unknown.to_string(),
            CondValue::Int(n) => int(*n),
            CondValue::Num(x) => int_or_fixed(*x, 2),
            CondValue::Factor(x) => machine(*x),
            CondValue::Bool(b) => (if *b { "yes" } else { "no" }).to_string(),
            CondValue::Text(s) => s.clone(),
        }
    }
}

fn opt_u32(v: Option<u32>) -> CondValue {
    v.map_or(CondValue::Unknown, |v| CondValue::Int(u64::from(v)))
}

fn opt_f64(v: Option<f64>) -> CondValue {
    v.map_or(CondValue::Unknown, CondValue::Num)
}

fn opt_text(v: Option<&String>) -> CondValue {
    v.map_or(CondValue::Unknown, |s| CondValue::Text(s.clone()))
}

/// What kind of thing a condition is, which decides what it confounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Load,
    CacheAccounting,
    Prices,
    Budget,
    /// The suite, its size, or the seat's model, provider, harness or config: a different
    /// thing was measured, so every figure is confounded.
    Identity,
    /// The number of attempts the seat made: the sums cover different work.
    Attempts,
}

impl Kind {
    pub(super) fn figures(self) -> &'static [&'static str] {
        match self {
            Kind::Load => &["wall_s"],
            Kind::CacheAccounting => &["tokens_total", "new_input_tokens"],
            Kind::Prices => &["cost_usd", "cost_of_pass_usd"],
            Kind::Budget => &[
                "wall_s",
                "tokens_total",
                "new_input_tokens",
                "cost_usd",
                "cost_of_pass_usd",
            ],
            Kind::Identity => ALL_FIGURES,
            Kind::Attempts => &["wall_s", "tokens_total", "new_input_tokens", "cost_usd"],
        }
    }

    /// For people: what a difference in this kind of condition confounds.
    pub(super) fn confounds_text(self) -> &'static str {
        match self {
            Kind::Load => "wall time",
            Kind::CacheAccounting => "token totals",
            Kind::Prices => "USD, Cost-of-Pass",
            Kind::Budget => "wall, tokens, USD",
            Kind::Identity => "every figure",
            Kind::Attempts => "wall, tokens, USD sums",
        }
    }
}

/// One condition in every wave of the comparison.
pub(super) struct Condition {
    /// JSON and CSV name.
    pub(super) key: &'static str,
    /// For people, in a sentence: "parallel sessions".
    pub(super) label: &'static str,
    pub(super) kind: Kind,
    /// What an unknown value reads as.
    pub(super) unknown: &'static str,
    /// One per wave.
    pub(super) values: Vec<CondValue>,
}

impl Condition {
    /// The figures a difference in this condition confounds: its kind's, except for the
    /// timeout multiplier, a load condition that confounds more than wall time.
    pub(super) fn figures(&self) -> &'static [&'static str] {
        if self.key == TIMEOUT_MULTIPLIER {
            TIMEOUT_FIGURES
        } else {
            self.kind.figures()
        }
    }

    /// For people: what a difference in this condition confounds.
    pub(super) fn confounds_text(&self) -> &'static str {
        if self.key == TIMEOUT_MULTIPLIER {
            "accuracy, wall, tokens, USD"
        } else {
            self.kind.confounds_text()
        }
    }

    pub(super) fn differs(&self) -> bool {
        self.values.windows(2).any(|w| w[0] != w[1])
    }

    pub(super) fn differs_between(&self, i: usize, j: usize) -> bool {
        self.values[i] != self.values[j]
    }

    /// The condition across every wave, for people: "parallel sessions 4 → 6 → 6".
    pub(super) fn across(&self) -> String {
        let v: Vec<String> = self.values.iter().map(|v| v.human(self.unknown)).collect();
        format!("{} {}", self.label, v.join(" → "))
    }

    /// The condition from wave `i` to wave `j`, for people: "parallel sessions 4 → 6".
    pub(super) fn between(&self, i: usize, j: usize) -> String {
        format!(
            "{} {} → {}",
            self.label,
            self.values[i].human(self.unknown),
            self.values[j].human(self.unknown)
        )
    }
}

/// Every condition the comparison sets side by side, in the order they are printed.
pub(super) fn conditions(waves: &[WaveInput<'_>]) -> Vec<Condition> {
    let mut all = load_conditions(waves);
    all.extend(accounting_conditions(waves));
    all.extend(identity_conditions(waves));
    all
}

/// Each wave's value of a condition, in order.
fn each(waves: &[WaveInput<'_>], f: &dyn Fn(&WaveInput<'_>) -> CondValue) -> Vec<CondValue> {
    waves.iter().map(f).collect()
}

impl Condition {
    fn new(
        key: &'static str,
        label: &'static str,
        kind: Kind,
        unknown: &'static str,
        values: Vec<CondValue>,
    ) -> Condition {
        Condition {
            key,
            label,
            kind,
            unknown,
            values,
        }
    }
}

/// The load a wave ran under: its sessions, the tool server's, a serial rerun, its timeouts.
fn load_conditions(waves: &[WaveInput<'_>]) -> Vec<Condition> {
    vec![
        Condition::new(
            "parallel_sessions",
            "parallel sessions",
            Kind::Load,
            "unknown",
            each(waves, &|w| opt_u32(w.data.wave.load.parallel_sessions)),
        ),
        Condition::new(
            "tool_server_sessions",
            "sessions sharing the tool server",
            Kind::Load,
            "unknown",
            each(waves, &|w| opt_u32(w.data.wave.load.tool_server_sessions)),
        ),
        Condition::new(
            "serial_rerun",
            "serial rerun",
            Kind::Load,
            "unknown",
            each(waves, &|w| {
                w.data
                    .wave
                    .load
                    .serial_rerun
                    .map_or(CondValue::Unknown, CondValue::Bool)
            }),
        ),
        Condition::new(
            TIMEOUT_MULTIPLIER,
            "timeout multiplier",
            Kind::Load,
            "none recorded",
            each(waves, &|w| {
                w.data
                    .wave
                    .load
                    .timeout_multiplier
                    .map_or(CondValue::Unknown, CondValue::Factor)
            }),
        ),
    ]
}

/// How a wave counted and priced tokens, and the budgets it declared.
fn accounting_conditions(waves: &[WaveInput<'_>]) -> Vec<Condition> {
    vec![
        Condition::new(
            "input_tokens_include_cache_reads",
            "input totals include cached reads",
            Kind::CacheAccounting,
            "unknown",
            each(waves, &|w| {
                CondValue::Bool(w.data.wave.accounting.input_tokens_include_cache_reads)
            }),
        ),
        Condition::new(
            "price_source",
            "price source",
            Kind::Prices,
            "unknown",
            each(waves, &|w| {
                opt_text(w.data.wave.accounting.price_source.as_ref())
            }),
        ),
        Condition::new(
            "budget.tokens",
            "budget tokens per problem",
            Kind::Budget,
            "none",
            each(waves, &|w| opt_f64(w.data.wave.budget.tokens)),
        ),
        Condition::new(
            "budget.wall_s",
            "budget wall s per problem",
            Kind::Budget,
            "none",
            each(waves, &|w| opt_f64(w.data.wave.budget.wall_s)),
        ),
        Condition::new(
            "budget.cost_usd",
            "budget USD per problem",
            Kind::Budget,
            "none",
            each(waves, &|w| opt_f64(w.data.wave.budget.cost_usd)),
        ),
    ]
}

/// What was compared: the suite and its size, the seat's model, provider, harness and config, and the attempts it made.
fn identity_conditions(waves: &[WaveInput<'_>]) -> Vec<Condition> {
    vec![
        Condition::new(
            "suite",
            "suite",
            Kind::Identity,
            "unknown",
            each(waves, &|w| CondValue::Text(w.data.wave.suite.clone())),
        ),
        Condition::new(
            "suite_problems",
            "declared suite size",
            Kind::Identity,
            "undeclared",
            each(waves, &|w| {
                w.data
                    .wave
                    .suite_problems
                    .as_ref()
                    .map_or(CondValue::Unknown, |p| {
                        CondValue::Int(SuiteProblems::count(p))
                    })
            }),
        ),
        Condition::new(
            "model",
            "model",
            Kind::Identity,
            "unknown",
            each(waves, &|w| CondValue::Text(w.seat.seat.model.clone())),
        ),
        Condition::new(
            "provider",
            "provider",
            Kind::Identity,
            "unknown",
            each(waves, &|w| CondValue::Text(w.seat.seat.provider.clone())),
        ),
        Condition::new(
            "harness",
            "harness",
            Kind::Identity,
            "unknown",
            each(waves, &|w| CondValue::Text(w.seat.seat.harness.clone())),
        ),
        Condition::new(
            "config",
            "config",
            Kind::Identity,
            "none",
            each(waves, &|w| opt_text(w.seat.seat.config.as_ref())),
        ),
        Condition::new(
            "attempts",
            "attempts made",
            Kind::Attempts,
            "unknown",
            each(waves, &|w| CondValue::Int(w.seat.attempts.len() as u64)),
        ),
    ]
}

/// The figures a rubric reads, by the names of the compared figures; and whether it holds
/// anything against the budget.
fn rubric_reads(r: &Rubric) -> (BTreeSet<&'static str>, bool) {
    let mut measures: Vec<Measure> = r.factors.iter().map(|f| f.measure).collect();
    measures.extend(r.penalties.iter().map(|p| p.measure));
    measures.extend(r.gates.iter().map(|g| g.measure));
    let mut figures = BTreeSet::new();
    for m in measures {
        // A mean reads the same figure as its sum.
        match m.base() {
            Measure::Accuracy
            | Measure::Outcome
            | Measure::Correct
            | Measure::Missing
            | Measure::CanaryFailures => {
                figures.insert("accuracy");
            }
            Measure::TokensTotal
            | Measure::NewInputTokens
            | Measure::InputTokens
            | Measure::OutputTokens
            | Measure::CacheReadTokens => {
                figures.insert("tokens_total");
                figures.insert("new_input_tokens");
            }
            Measure::WallS => {
                figures.insert("wall_s");
            }
            Measure::CostUsd => {
                figures.insert("cost_usd");
            }
            Measure::Attempts | Measure::Steps | Measure::Errors | Measure::Mean(_) => {}
        }
    }
    let budget = r
        .factors
        .iter()
        .any(|f| matches!(f.transform, Transform::AllowanceRatio(_)))
        || r.gates.iter().any(|g| g.allowance.is_some());
    (figures, budget)
}

/// What a differing condition confounds: its figures, and every absolute rubric that reads
/// one of them (or, for a budget, holds anything against it).
pub(super) fn confounds(c: &Condition, rubrics: &[RubricInfo]) -> Vec<String> {
    let figs = c.figures();
    let mut out: Vec<String> = figs.iter().map(|s| s.to_string()).collect();
    for info in rubrics.iter().filter(|i| !i.rubric.relative) {
        let (reads, budget) = rubric_reads(&info.rubric);
        let hit = c.kind == Kind::Identity
            || (c.kind == Kind::Budget && budget)
            || reads.iter().any(|r| figs.contains(r));
        if hit {
            out.push(info.rubric.id());
        }
    }
    out
}

/// Whether the load of wave `j` was heavier (+1), lighter (-1) or neither/unclear (0) than
/// that of wave `i`, judged on the load conditions that differ.
pub(super) fn load_direction(conds: &[Condition], i: usize, j: usize) -> i32 {
    let mut dirs = Vec::new();
    for c in conds
        .iter()
        .filter(|c| c.kind == Kind::Load && c.differs_between(i, j))
    {
        let d = match (&c.values[i], &c.values[j]) {
            (CondValue::Int(a), CondValue::Int(b)) => (b > a) as i32 - (b < a) as i32,
            // A serial rerun ran seats one after another: dropping it adds contention.
            (CondValue::Bool(a), CondValue::Bool(b)) => (a & !b) as i32 - (!a & b) as i32,
            _ => 0,
        };
        dirs.push(d);
    }
    if !dirs.is_empty() && dirs.iter().all(|&d| d == 1) {
        1
    } else if !dirs.is_empty() && dirs.iter().all(|&d| d == -1) {
        -1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropping_a_serial_rerun_is_heavier_load() {
        let c = |key, values| Condition {
            key,
            label: key,
            kind: Kind::Load,
            unknown: "unknown",
            values,
        };
        let heavier = vec![
            c(
                "parallel_sessions",
                vec![CondValue::Int(4), CondValue::Int(6)],
            ),
            c(
                "serial_rerun",
                vec![CondValue::Bool(true), CondValue::Bool(false)],
            ),
        ];
        assert_eq!(load_direction(&heavier, 0, 1), 1);
        assert_eq!(load_direction(&heavier, 1, 0), -1);
        let mixed = vec![
            c(
                "parallel_sessions",
                vec![CondValue::Int(4), CondValue::Int(6)],
            ),
            c(
                "serial_rerun",
                vec![CondValue::Bool(false), CondValue::Bool(true)],
            ),
        ];
        assert_eq!(load_direction(&mixed, 0, 1), 0);
        let unknown = vec![c(
            "parallel_sessions",
            vec![CondValue::Unknown, CondValue::Int(6)],
        )];
        assert_eq!(load_direction(&unknown, 0, 1), 0);
    }
}
