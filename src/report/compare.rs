//! `benchledger compare`: one seat across waves.
//!
//! Only absolutes are compared across waves — correct-rate with its denominator, wall seconds,
//! total tokens, USD, Cost-of-Pass — each with its change between consecutive waves, absolute
//! and relative. Two rules shape every number here:
//!
//! - **Absent is not zero.** A sum that covers only k of n attempts says so, and a change that
//!   involves such a sum (or an undefined value) is unknown: it is never computed from partial
//!   sums.
//! - **Conditions travel with the numbers** (principle 4). The waves' load, accounting, budget,
//!   suite and the seat's model, provider and harness stand side by side, and every condition
//!   that differs — known against unknown included — is called out as a confounder of the
//!   figures it can move: load confounds wall time, accounting confounds token totals, a price
//!   source confounds USD, and a different budget, suite or seat confounds every figure.
//!
//! A rubric named with `--rubric` is scored in each wave. An absolute rubric shows its score in
//! each wave and the change (still confounded by whatever differs). A **relative** rubric never
//! shows a value across waves (principle 3): only the seat's rank inside each wave, with a note
//! naming how the wave medians — the rubric's yardstick — moved (seed 001: a cohort efficiency
//! rose 1.375 → 1.584 while the seat's wall went 141 s → 262 s).
//!
//! People read the figures transposed — one column per wave with the change between — then the
//! conditions; CSV is one row per wave with the absolute figures and the conditions; the JSON is
//! the documented contract (see [`CompareJson`]).

use std::collections::BTreeSet;

use serde::Serialize;
use serde_json::Value;

use super::number::{fixed, int, machine, machine_opt, percent, signed, usd};
use super::score::{RubricInfo, places as score_places};
use super::waves::SeatJson;
use super::{Cell, Column, Table, to_csv, to_json, to_markdown, to_text};
use crate::cli::Format;
use crate::figures::{Known, SeatFigures};
use crate::model::{Accounting, Budget, Load, SeatData, SuiteProblems, WaveData};
use crate::rubric::interpret::median;
use crate::rubric::measure::Measure;
use crate::rubric::spec::{Rubric, Transform};
use crate::rubric::{SeatScore, WaveScores};

/// Which Cost-of-Pass is printed.
const COST_OF_PASS: &str = "pooled: total USD / number Correct";

/// The absolute figures a change is computed for, by their JSON names.
const ALL_FIGURES: &[&str] = &[
    "accuracy",
    "wall_s",
    "tokens_total",
    "new_input_tokens",
    "cost_usd",
    "cost_of_pass_usd",
];

/// One wave of the comparison: the wave, the seat in it, and the seat's wave scored under each
/// rubric (in the order the rubrics were named).
#[derive(Debug, Clone, Copy)]
pub struct WaveInput<'a> {
    pub data: &'a WaveData,
    pub seat: &'a SeatData,
    pub scores: &'a [WaveScores],
}

/// The seat named `id` in a wave, if it has one.
pub fn find_seat<'a>(data: &'a WaveData, id: &str) -> Option<&'a SeatData> {
    data.seats.iter().find(|s| s.seat.id == id)
}

/// What `compare` prints: the figures and the conditions for people, one row per wave for CSV,
/// and the JSON document.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    pub figures: Table,
    pub conditions: Table,
    pub csv: Table,
    pub json: CompareJson,
}

/// The JSON of `compare` (kind `"compare"`).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CompareJson {
    pub seat: String,
    /// Which Cost-of-Pass is printed.
    pub cost_of_pass: &'static str,
    /// Oldest first, as named on the command line.
    pub waves: Vec<CompareWaveJson>,
    /// One per pair of consecutive waves. Every difference is `to − from`, unrounded; null when
    /// either side is unknown (a sum covering only some attempts) or undefined.
    pub changes: Vec<ChangeJson>,
    /// Every condition that differs between the waves, with its value in each wave (null for
    /// unknown) and the figures whose change it confounds.
    pub confounders: Vec<ConfounderJson>,
    /// The one-line reading of each change, as printed first in the table.
    pub verdict: Vec<String>,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CompareWaveJson {
    pub wave: String,
    /// The seat's absolute figures in this wave, under the same names as `show`'s seats.
    #[serde(flatten)]
    pub figures: SeatJson,
    pub suite: String,
    pub suite_problems: Option<u64>,
    pub load: Load,
    pub accounting: Accounting,
    pub budget: Budget,
    pub rubrics: Vec<RubricPlaceJson>,
}

/// Where the seat stands under one rubric in one wave.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RubricPlaceJson {
    /// `name@version`.
    pub rubric: String,
    pub sha256: String,
    pub relative: bool,
    /// The score, unrounded. Always null for a relative rubric: its value is measured against
    /// this wave's medians and is never compared across waves; see `rank`.
    pub score: Option<f64>,
    /// The seat's rank inside this wave (1 for the best); null when its score is undefined.
    pub rank: Option<u32>,
    /// How many seats of the wave have a rank.
    pub of: u32,
    /// Why the score is undefined, or the gate the seat failed.
    pub note: Option<String>,
    /// For a relative rubric: the wave medians its cohort factors divide by.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cohort_medians: Option<Vec<MedianJson>>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct MedianJson {
    pub factor: String,
    pub measure: &'static str,
    /// Null when the measure is unknown for every seat of the wave.
    pub median: Option<f64>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ChangeJson {
    pub from: String,
    pub to: String,
    /// Difference of the correct-rates (a share: -0.25 is 25 percentage points down).
    pub accuracy: Option<f64>,
    pub wall_s: Option<f64>,
    /// to / from.
    pub wall_s_ratio: Option<f64>,
    pub tokens_total: Option<i64>,
    pub tokens_total_ratio: Option<f64>,
    pub new_input_tokens: Option<i64>,
    pub cost_usd: Option<f64>,
    pub cost_usd_ratio: Option<f64>,
    pub cost_of_pass_usd: Option<f64>,
    /// Score differences under the absolute rubrics only (a relative rubric is never
    /// compared across waves).
    pub rubrics: Vec<RubricChangeJson>,
    /// The conditions that differ between these two waves.
    pub confounded_by: Vec<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RubricChangeJson {
    pub rubric: String,
    pub score: Option<f64>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ConfounderJson {
    pub condition: &'static str,
    /// One per wave; null for unknown (or, for a budget or config, none declared).
    pub values: Vec<Value>,
    /// The figures (and absolute rubrics) whose change this difference confounds.
    pub confounds: Vec<String>,
}

// ---------------------------------------------------------------------------------------------
// Values that may be unknown.

/// A figure of one wave: known, or why not.
#[derive(Debug, Clone, PartialEq)]
enum Fig {
    Known(f64),
    Unknown(String),
}

impl Fig {
    fn value(&self) -> Option<f64> {
        match self {
            Fig::Known(x) => Some(*x),
            Fig::Unknown(_) => None,
        }
    }
}

/// A sum is a usable figure only when it covers every attempt.
fn complete_f64(k: &Known<f64>, attempts: u64, what: &str) -> Fig {
    if attempts == 0 {
        Fig::Unknown("no attempts".into())
    } else if k.known < attempts {
        Fig::Unknown(format!(
            "{what} known for {} of {attempts} attempts",
            k.known
        ))
    } else {
        Fig::Known(k.sum)
    }
}

fn complete_u64(k: &Known<u64>, attempts: u64, what: &str) -> Fig {
    let f = Known {
        sum: k.sum as f64,
        known: k.known,
    };
    complete_f64(&f, attempts, what)
}

fn complete_tokens(k: &Known<u64>, attempts: u64) -> Option<u64> {
    (attempts > 0 && k.known == attempts).then_some(k.sum)
}

/// The figures of the seat in one wave, each known or with the reason it is not.
struct WaveFigs {
    accuracy: Fig,
    wall_s: Fig,
    tokens_total: Fig,
    new_input_tokens: Fig,
    cost_usd: Fig,
    cost_of_pass_usd: Fig,
}

impl WaveFigs {
    fn of(f: &SeatFigures) -> WaveFigs {
        let n = f.attempts;
        WaveFigs {
            accuracy: match f.accuracy {
                Some(a) => Fig::Known(a),
                None => Fig::Unknown("no attempts and no declared problems".into()),
            },
            wall_s: complete_f64(&f.wall_s, n, "wall"),
            tokens_total: complete_u64(&f.tokens_total, n, "tokens"),
            new_input_tokens: complete_u64(&f.new_input_tokens, n, "input tokens"),
            cost_usd: complete_f64(&f.cost_usd, n, "cost"),
            cost_of_pass_usd: match f.cost_of_pass_usd {
                Some(c) => Fig::Known(c),
                None if f.correct == 0 => Fig::Unknown("undefined: nothing Correct".into()),
                None => Fig::Unknown(format!(
                    "cost known for {} of {n} attempts",
                    f.cost_usd.known
                )),
            },
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Human text.

/// "+20,256", "-1,000", "0".
fn signed_int(d: i64) -> String {
    let body = int(d.unsigned_abs());
    match d.signum() {
        1 => format!("+{body}"),
        -1 => format!("-{body}"),
        _ => body,
    }
}

/// "+$0.02", "-$1.50", "$0.00".
fn signed_usd(d: f64) -> String {
    let body = usd(d.abs());
    if body.chars().any(|c| c.is_ascii_digit() && c != '0') {
        if d > 0.0 {
            format!("+{body}")
        } else {
            format!("-{body}")
        }
    } else {
        body
    }
}

/// The relative change "+85.8%", or nothing when the base is 0.
fn relative(from: f64, to: f64) -> Option<String> {
    (from != 0.0).then(|| format!("{}%", signed((to - from) / from * 100.0, 1)))
}

fn with_relative(abs: String, from: f64, to: f64) -> String {
    match relative(from, to) {
        Some(r) => format!("{abs} ({r})"),
        None => abs,
    }
}

/// A sum that may cover only some attempts: "565,000", or "1,200 (3 of 4)".
fn partial<T: Copy>(k: &Known<T>, of: u64, human: impl Fn(T) -> String) -> String {
    if k.known == 0 {
        "—".into()
    } else if k.known < of {
        format!("{} ({} of {of})", human(k.sum), k.known)
    } else {
        human(k.sum)
    }
}

/// The change of one figure between two waves, for people.
fn change_text(
    a: &Fig,
    b: &Fig,
    from_wave: &str,
    to_wave: &str,
    show: impl Fn(f64, f64) -> String,
) -> String {
    match (a, b) {
        (Fig::Known(x), Fig::Known(y)) => show(*x, *y),
        (Fig::Unknown(why), _) => format!("unknown ({from_wave}: {why})"),
        (_, Fig::Unknown(why)) => format!("unknown ({to_wave}: {why})"),
    }
}

fn seat_rank_text(s: &SeatScore, of: u32) -> String {
    match s.rank {
        Some(r) => {
            let shared = s
                .tie
                .as_deref()
                .is_some_and(|t| t.starts_with("tied on score and") || t.contains("no tie-break"));
            format!("{r}{} of {of}", if shared { "=" } else { "" })
        }
        None => "unranked".into(),
    }
}

/// A measure's value in its own unit, for people.
fn measure_text(m: Measure, x: f64) -> String {
    match m {
        Measure::WallS => format!("{} s", fixed(x, 1)),
        Measure::CostUsd => usd(x),
        Measure::TokensTotal
        | Measure::NewInputTokens
        | Measure::InputTokens
        | Measure::OutputTokens
        | Measure::CacheReadTokens
        | Measure::Steps
        | Measure::Errors
        | Measure::Correct
        | Measure::Attempts
        | Measure::Missing => {
            if x.fract() == 0.0 && (0.0..1e15).contains(&x) {
                int(x as u64)
            } else {
                fixed(x, 1)
            }
        }
        Measure::Accuracy | Measure::Outcome => fixed(x, 3),
    }
}

fn number_text(x: f64) -> String {
    if x.fract() == 0.0 && (0.0..1e15).contains(&x) {
        int(x as u64)
    } else {
        fixed(x, 2)
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// "a", "a and b", "a, b and c".
fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

// ---------------------------------------------------------------------------------------------
// Conditions.

/// A condition's value in one wave.
#[derive(Debug, Clone, PartialEq)]
enum CondValue {
    /// Not recorded (load, price source) or not declared (budget, suite size, config).
    Unknown,
    Int(u64),
    Num(f64),
    Bool(bool),
    Text(String),
}

impl CondValue {
    fn json(&self) -> Value {
        match self {
            CondValue::Unknown => Value::Null,
            CondValue::Int(n) => Value::from(*n),
            CondValue::Num(x) => {
                serde_json::Number::from_f64(*x).map_or(Value::Null, Value::Number)
            }
            CondValue::Bool(b) => Value::Bool(*b),
            CondValue::Text(s) => Value::String(s.clone()),
        }
    }

    fn machine(&self) -> String {
        match self {
            CondValue::Unknown => String::new(),
            CondValue::Int(n) => n.to_string(),
            CondValue::Num(x) => machine(*x),
            CondValue::Bool(b) => b.to_string(),
            CondValue::Text(s) => s.clone(),
        }
    }

    fn human(&self, unknown: &str) -> String {
        match self {
            CondValue::Unknown => unknown.to_string(),
            CondValue::Int(n) => int(*n),
            CondValue::Num(x) => number_text(*x),
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
enum Kind {
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
    fn figures(self) -> &'static [&'static str] {
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
    fn confounds_text(self) -> &'static str {
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

struct Condition {
    /// JSON and CSV name.
    key: &'static str,
    /// For people, in a sentence: "parallel sessions".
    label: &'static str,
    kind: Kind,
    /// What an unknown value reads as.
    unknown: &'static str,
    values: Vec<CondValue>,
}

impl Condition {
    fn differs(&self) -> bool {
        self.values.windows(2).any(|w| w[0] != w[1])
    }

    fn differs_between(&self, i: usize, j: usize) -> bool {
        self.values[i] != self.values[j]
    }

    /// "4 → 6".
    fn path(&self) -> String {
        let v: Vec<String> = self.values.iter().map(|v| v.human(self.unknown)).collect();
        v.join(" → ")
    }

    fn pair(&self, i: usize, j: usize) -> String {
        format!(
            "{} → {}",
            self.values[i].human(self.unknown),
            self.values[j].human(self.unknown)
        )
    }
}

fn conditions(waves: &[WaveInput<'_>]) -> Vec<Condition> {
    let each = |f: &dyn Fn(&WaveInput<'_>) -> CondValue| waves.iter().map(f).collect::<Vec<_>>();
    let cond = |key, label, kind, unknown, values| Condition {
        key,
        label,
        kind,
        unknown,
        values,
    };
    vec![
        cond(
            "parallel_sessions",
            "parallel sessions",
            Kind::Load,
            "unknown",
            each(&|w| opt_u32(w.data.wave.load.parallel_sessions)),
        ),
        cond(
            "tool_server_sessions",
            "sessions sharing the tool server",
            Kind::Load,
            "unknown",
            each(&|w| opt_u32(w.data.wave.load.tool_server_sessions)),
        ),
        cond(
            "serial_rerun",
            "serial rerun",
            Kind::Load,
            "unknown",
            each(&|w| {
                w.data
                    .wave
                    .load
                    .serial_rerun
                    .map_or(CondValue::Unknown, CondValue::Bool)
            }),
        ),
        cond(
            "input_tokens_include_cache_reads",
            "input totals include cached reads",
            Kind::CacheAccounting,
            "unknown",
            each(&|w| CondValue::Bool(w.data.wave.accounting.input_tokens_include_cache_reads)),
        ),
        cond(
            "price_source",
            "price source",
            Kind::Prices,
            "unknown",
            each(&|w| opt_text(w.data.wave.accounting.price_source.as_ref())),
        ),
        cond(
            "budget.tokens",
            "budget tokens per problem",
            Kind::Budget,
            "none",
            each(&|w| opt_f64(w.data.wave.budget.tokens)),
        ),
        cond(
            "budget.wall_s",
            "budget wall s per problem",
            Kind::Budget,
            "none",
            each(&|w| opt_f64(w.data.wave.budget.wall_s)),
        ),
        cond(
            "budget.cost_usd",
            "budget USD per problem",
            Kind::Budget,
            "none",
            each(&|w| opt_f64(w.data.wave.budget.cost_usd)),
        ),
        cond(
            "suite",
            "suite",
            Kind::Identity,
            "unknown",
            each(&|w| CondValue::Text(w.data.wave.suite.clone())),
        ),
        cond(
            "suite_problems",
            "declared suite size",
            Kind::Identity,
            "undeclared",
            each(&|w| {
                w.data
                    .wave
                    .suite_problems
                    .as_ref()
                    .map_or(CondValue::Unknown, |p| {
                        CondValue::Int(SuiteProblems::count(p))
                    })
            }),
        ),
        cond(
            "model",
            "model",
            Kind::Identity,
            "unknown",
            each(&|w| CondValue::Text(w.seat.seat.model.clone())),
        ),
        cond(
            "provider",
            "provider",
            Kind::Identity,
            "unknown",
            each(&|w| CondValue::Text(w.seat.seat.provider.clone())),
        ),
        cond(
            "harness",
            "harness",
            Kind::Identity,
            "unknown",
            each(&|w| CondValue::Text(w.seat.seat.harness.clone())),
        ),
        cond(
            "config",
            "config",
            Kind::Identity,
            "none",
            each(&|w| opt_text(w.seat.seat.config.as_ref())),
        ),
        cond(
            "attempts",
            "attempts made",
            Kind::Attempts,
            "unknown",
            each(&|w| CondValue::Int(w.seat.attempts.len() as u64)),
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
        match m {
            Measure::Accuracy | Measure::Outcome | Measure::Correct | Measure::Missing => {
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
            Measure::Attempts | Measure::Steps | Measure::Errors => {}
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
fn confounds(c: &Condition, rubrics: &[RubricInfo]) -> Vec<String> {
    let figs = c.kind.figures();
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
fn load_direction(conds: &[Condition], i: usize, j: usize) -> i32 {
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

// ---------------------------------------------------------------------------------------------
// Rubrics.

/// The seat's place under one rubric in one wave.
struct Place {
    score: Option<f64>,
    rank: Option<u32>,
    of: u32,
    text: String,
    note: Option<String>,
}

fn place(info: &RubricInfo, scores: &WaveScores, seat: &str) -> Place {
    let of = scores.seats.iter().filter(|s| s.rank.is_some()).count() as u32;
    let Some(s) = scores.seats.iter().find(|s| s.seat == seat) else {
        return Place {
            score: None,
            rank: None,
            of,
            text: "—".into(),
            note: None,
        };
    };
    let note = s
        .gate
        .as_ref()
        .map(|g| format!("failed gate {g}"))
        .or_else(|| s.note.clone());
    let rank = seat_rank_text(s, of);
    let r = &info.rubric;
    let text = if r.relative {
        match &s.note {
            Some(n) => format!("unranked (undefined: {n})"),
            None => rank,
        }
    } else {
        match s.score {
            Some(x) => format!("{} (rank {rank})", fixed(x, score_places(r))),
            None => format!("— ({})", note.clone().unwrap_or_default()),
        }
    };
    Place {
        score: if r.relative { None } else { s.score },
        rank: s.rank,
        of,
        text,
        note,
    }
}

/// A cohort factor's yardstick in one wave: the median of its measure over the wave's seats.
struct CohortMedian {
    factor: String,
    measure: Measure,
    median: Option<f64>,
}

/// Each wave's cohort medians under each rubric: `[wave][rubric][factor]`.
type Medians = Vec<Vec<Vec<CohortMedian>>>;

/// The median of each cohort factor's measure over a wave's seats, as the interpreter
/// computes it.
fn cohort_medians(r: &Rubric, data: &WaveData) -> Vec<CohortMedian> {
    r.factors
        .iter()
        .filter(|f| f.transform == Transform::CohortRatio)
        .map(|f| {
            let values: Vec<f64> = data
                .seats
                .iter()
                .filter_map(|s| f.measure.of_seat(&SeatFigures::of(&data.wave, s), s))
                .collect();
            CohortMedian {
                factor: f.name.clone(),
                measure: f.measure,
                median: median(&values),
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The comparison.

/// Builds the comparison of one seat across two or more waves. `rubrics[k]` was scored into
/// `waves[i].scores[k]` for every wave.
pub fn compare(seat: &str, waves: &[WaveInput<'_>], rubrics: &[RubricInfo]) -> Comparison {
    let figures: Vec<SeatFigures> = waves
        .iter()
        .map(|w| SeatFigures::of(&w.data.wave, w.seat))
        .collect();
    let figs: Vec<WaveFigs> = figures.iter().map(WaveFigs::of).collect();
    let ids: Vec<&str> = waves.iter().map(|w| w.data.wave.id.as_str()).collect();
    let conds = conditions(waves);
    let places: Vec<Vec<Place>> = waves
        .iter()
        .map(|w| {
            rubrics
                .iter()
                .zip(w.scores)
                .map(|(info, s)| place(info, s, seat))
                .collect()
        })
        .collect();
    let medians: Medians = waves
        .iter()
        .map(|w| {
            rubrics
                .iter()
                .map(|info| {
                    if info.rubric.relative {
                        cohort_medians(&info.rubric, w.data)
                    } else {
                        Vec::new()
                    }
                })
                .collect()
        })
        .collect();

    let p = Parts {
        seat,
        waves,
        rubrics,
        ids,
        figures,
        figs,
        conds,
        places,
        medians,
    };
    let verdict = verdict(&p);
    let notes = notes(&p);
    Comparison {
        figures: figures_table(&p, &verdict),
        conditions: conditions_table(&p, &notes),
        csv: csv_table(&p),
        json: json(&p, verdict, notes),
    }
}

/// Everything the renderings share, computed once.
struct Parts<'a> {
    seat: &'a str,
    waves: &'a [WaveInput<'a>],
    rubrics: &'a [RubricInfo],
    ids: Vec<&'a str>,
    figures: Vec<SeatFigures>,
    figs: Vec<WaveFigs>,
    conds: Vec<Condition>,
    /// `[wave][rubric]`.
    places: Vec<Vec<Place>>,
    medians: Medians,
}

/// The figures, for people: one column per wave, the change between consecutive waves.
fn figures_table(p: &Parts<'_>, verdict: &[String]) -> Table {
    let Parts {
        seat,
        waves,
        rubrics,
        ids,
        figures,
        figs,
        places,
        ..
    } = p;
    let mut columns = vec![Column::text("Figure", "figure")];
    for (i, id) in ids.iter().enumerate() {
        if i > 0 {
            columns.push(Column::num(
                "Change",
                &format!("change_{}_{}", ids[i - 1], id),
            ));
        }
        columns.push(Column::num(id, id));
    }
    let mut people = Table::new(columns);
    let suites: BTreeSet<&str> = waves.iter().map(|w| w.data.wave.suite.as_str()).collect();
    people.heading.push(format!(
        "Seat {seat} across waves {}{} · only absolutes are compared",
        ids.join(" → "),
        if suites.len() == 1 {
            format!(" · suite {}", waves[0].data.wave.suite)
        } else {
            String::new()
        }
    ));
    // A blank line, then the verdict: the first thing a reader should see.
    people.heading.push(String::new());
    people.heading.extend(verdict.iter().cloned());

    let row =
        |label: String, cell: &dyn Fn(usize) -> String, change: &dyn Fn(usize, usize) -> String| {
            let mut r = vec![Cell::text(label)];
            for i in 0..ids.len() {
                if i > 0 {
                    r.push(Cell::text(change(i - 1, i)));
                }
                r.push(Cell::text(cell(i)));
            }
            r
        };
    let ch =
        |pick: fn(&WaveFigs) -> &Fig, i: usize, j: usize, show: &dyn Fn(f64, f64) -> String| {
            change_text(pick(&figs[i]), pick(&figs[j]), ids[i], ids[j], show)
        };

    people.rows.push(row(
        "Correct".into(),
        &|i| {
            let f = &figures[i];
            match f.accuracy {
                Some(a) => format!("{}/{} {}", f.correct, f.denominator, percent(a)),
                None => "—".into(),
            }
        },
        &|i, j| {
            ch(|f| &f.accuracy, i, j, &|x, y| {
                with_relative(format!("{} pp", signed((y - x) * 100.0, 1)), x, y)
            })
        },
    ));
    people.rows.push(row(
        "Wall s".into(),
        &|i| partial(&figures[i].wall_s, figures[i].attempts, |x| fixed(x, 1)),
        &|i, j| {
            ch(|f| &f.wall_s, i, j, &|x, y| {
                with_relative(format!("{} s", signed(y - x, 1)), x, y)
            })
        },
    ));
    let tokens_label = {
        let incl: BTreeSet<bool> = waves
            .iter()
            .map(|w| w.data.wave.accounting.input_tokens_include_cache_reads)
            .collect();
        match (incl.contains(&true), incl.contains(&false)) {
            (true, false) => "Tokens (cached reads in)",
            (false, true) => "Tokens (cached reads added)",
            _ => "Tokens (cached reads in or added)",
        }
    };
    let token_change = |x: f64, y: f64| {
        let d = y as i64 - x as i64;
        with_relative(signed_int(d), x, y)
    };
    people.rows.push(row(
        tokens_label.into(),
        &|i| partial(&figures[i].tokens_total, figures[i].attempts, int),
        &|i, j| ch(|f| &f.tokens_total, i, j, &token_change),
    ));
    people.rows.push(row(
        "New input tokens".into(),
        &|i| partial(&figures[i].new_input_tokens, figures[i].attempts, int),
        &|i, j| ch(|f| &f.new_input_tokens, i, j, &token_change),
    ));
    people.rows.push(row(
        "USD".into(),
        &|i| partial(&figures[i].cost_usd, figures[i].attempts, usd),
        &|i, j| {
            ch(|f| &f.cost_usd, i, j, &|x, y| {
                with_relative(signed_usd(y - x), x, y)
            })
        },
    ));
    people.rows.push(row(
        "Cost-of-Pass".into(),
        &|i| figures[i].cost_of_pass_usd.map_or("—".into(), usd),
        &|i, j| {
            ch(|f| &f.cost_of_pass_usd, i, j, &|x, y| {
                with_relative(signed_usd(y - x), x, y)
            })
        },
    ));
    for (k, info) in rubrics.iter().enumerate() {
        let r = &info.rubric;
        if r.relative {
            people.rows.push(row(
                format!("{} rank in wave (relative)", r.id()),
                &|i| places[i][k].text.clone(),
                &|_, _| "not compared (relative)".into(),
            ));
        } else {
            people
                .rows
                .push(row(r.id(), &|i| places[i][k].text.clone(), &|i, j| match (
                    places[i][k].score,
                    places[j][k].score,
                ) {
                    (Some(x), Some(y)) => with_relative(signed(y - x, score_places(r)), x, y),
                    _ => "unknown (a score is undefined)".into(),
                }));
        }
    }

    people
}

/// The conditions, side by side, each marked with what a difference in it confounds.
fn conditions_table(p: &Parts<'_>, notes: &[String]) -> Table {
    let Parts { ids, conds, .. } = p;
    let mut columns = vec![Column::text("Condition", "condition")];
    for id in ids.iter() {
        columns.push(Column::text(id, id));
    }
    columns.push(Column::text("Confounds", "confounds"));
    let mut cond_table = Table::new(columns);
    cond_table
        .heading
        .push("Conditions (every difference is a confounder of the change):".into());
    for c in conds.iter() {
        let mut r = vec![Cell::text(capitalise(c.label))];
        for v in &c.values {
            r.push(Cell::text(v.human(c.unknown)));
        }
        r.push(Cell::text(if c.differs() {
            c.kind.confounds_text()
        } else if c.unknown == "unknown" && c.values.iter().all(|v| *v == CondValue::Unknown) {
            "not recorded in any wave"
        } else {
            "same"
        }));
        cond_table.rows.push(r);
    }
    cond_table.notes = notes.to_vec();

    cond_table
}

/// CSV: one row per wave with the absolute figures and the conditions.
fn csv_table(p: &Parts<'_>) -> Table {
    let Parts {
        seat,
        rubrics,
        ids,
        figures,
        conds,
        places,
        ..
    } = p;
    let mut csv_cols: Vec<Column> = vec![
        Column::text("Wave", "wave"),
        Column::text("Seat", "seat"),
        Column::num("Problems", "problems"),
        Column::num("Attempts", "attempts"),
        Column::num("Correct", "correct"),
        Column::num("Missing", "missing"),
        Column::num("Denominator", "denominator"),
        Column::num("Accuracy", "accuracy"),
        Column::num("Wall s", "wall_s"),
        Column::num("Wall known", "wall_known_attempts"),
        Column::num("Tokens", "tokens_total"),
        Column::num("Tokens known", "tokens_known_attempts"),
        Column::num("New input", "new_input_tokens"),
        Column::num("USD", "cost_usd"),
        Column::num("USD known", "cost_known_attempts"),
        Column::num("Cost-of-Pass", "cost_of_pass_usd"),
    ];
    for c in conds.iter() {
        if c.key != "attempts" {
            csv_cols.push(Column::text(c.label, &c.key.replace('.', "_")));
        }
    }
    for info in rubrics.iter() {
        let id = info.rubric.id();
        if !info.rubric.relative {
            csv_cols.push(Column::num(&id, &format!("{id}_score")));
        }
        csv_cols.push(Column::num(&id, &format!("{id}_rank")));
        csv_cols.push(Column::num(&id, &format!("{id}_of")));
    }
    let mut csv = Table::new(csv_cols);
    let known_u = |k: &Known<u64>| {
        if k.known == 0 {
            String::new()
        } else {
            k.sum.to_string()
        }
    };
    let known_f = |k: &Known<f64>| {
        if k.known == 0 {
            String::new()
        } else {
            machine(k.sum)
        }
    };
    for (i, f) in figures.iter().enumerate() {
        let mut r = vec![
            Cell::text(ids[i]),
            Cell::text(*seat),
            Cell::text(f.problems.to_string()),
            Cell::text(f.attempts.to_string()),
            Cell::text(f.correct.to_string()),
            Cell::text(f.missing.to_string()),
            Cell::text(f.denominator.to_string()),
            Cell::text(machine_opt(f.accuracy)),
            Cell::text(known_f(&f.wall_s)),
            Cell::text(f.wall_s.known.to_string()),
            Cell::text(known_u(&f.tokens_total)),
            Cell::text(f.tokens_total.known.to_string()),
            Cell::text(known_u(&f.new_input_tokens)),
            Cell::text(known_f(&f.cost_usd)),
            Cell::text(f.cost_usd.known.to_string()),
            Cell::text(machine_opt(f.cost_of_pass_usd)),
        ];
        for c in conds.iter().filter(|c| c.key != "attempts") {
            r.push(Cell::text(c.values[i].machine()));
        }
        for (k, info) in rubrics.iter().enumerate() {
            let p = &places[i][k];
            if !info.rubric.relative {
                r.push(Cell::text(machine_opt(p.score)));
            }
            r.push(Cell::text(
                p.rank.map(|r| r.to_string()).unwrap_or_default(),
            ));
            r.push(Cell::text(p.of.to_string()));
        }
        csv.rows.push(r);
    }

    csv
}

/// The JSON document.
fn json(p: &Parts<'_>, verdict: Vec<String>, notes: Vec<String>) -> CompareJson {
    let Parts {
        seat,
        waves,
        rubrics,
        ids,
        figures,
        figs,
        conds,
        places,
        medians,
    } = p;
    let json_waves = waves
        .iter()
        .enumerate()
        .map(|(i, w)| CompareWaveJson {
            wave: ids[i].to_string(),
            figures: SeatJson::of(&w.seat.seat, &figures[i]),
            suite: w.data.wave.suite.clone(),
            suite_problems: w
                .data
                .wave
                .suite_problems
                .as_ref()
                .map(SuiteProblems::count),
            load: w.data.wave.load.clone(),
            accounting: w.data.wave.accounting.clone(),
            budget: w.data.wave.budget.clone(),
            rubrics: rubrics
                .iter()
                .enumerate()
                .map(|(k, info)| {
                    let p = &places[i][k];
                    RubricPlaceJson {
                        rubric: info.rubric.id(),
                        sha256: info.sha256.clone(),
                        relative: info.rubric.relative,
                        score: p.score,
                        rank: p.rank,
                        of: p.of,
                        note: p.note.clone(),
                        cohort_medians: info.rubric.relative.then(|| {
                            medians[i][k]
                                .iter()
                                .map(|c| MedianJson {
                                    factor: c.factor.clone(),
                                    measure: c.measure.name(),
                                    median: c.median,
                                })
                                .collect()
                        }),
                    }
                })
                .collect(),
        })
        .collect();
    let diff = |a: &Fig, b: &Fig| Some(b.value()? - a.value()?);
    let ratio = |a: &Fig, b: &Fig| {
        let (x, y) = (a.value()?, b.value()?);
        (x != 0.0).then(|| y / x)
    };
    let token_diff = |a: &Known<u64>, na: u64, b: &Known<u64>, nb: u64| {
        let x = i64::try_from(complete_tokens(a, na)?).ok()?;
        let y = i64::try_from(complete_tokens(b, nb)?).ok()?;
        y.checked_sub(x)
    };
    let changes = (1..waves.len())
        .map(|j| {
            let i = j - 1;
            let (a, b) = (&figs[i], &figs[j]);
            let (fa, fb) = (&figures[i], &figures[j]);
            ChangeJson {
                from: ids[i].to_string(),
                to: ids[j].to_string(),
                accuracy: diff(&a.accuracy, &b.accuracy),
                wall_s: diff(&a.wall_s, &b.wall_s),
                wall_s_ratio: ratio(&a.wall_s, &b.wall_s),
                tokens_total: token_diff(
                    &fa.tokens_total,
                    fa.attempts,
                    &fb.tokens_total,
                    fb.attempts,
                ),
                tokens_total_ratio: ratio(&a.tokens_total, &b.tokens_total),
                new_input_tokens: token_diff(
                    &fa.new_input_tokens,
                    fa.attempts,
                    &fb.new_input_tokens,
                    fb.attempts,
                ),
                cost_usd: diff(&a.cost_usd, &b.cost_usd),
                cost_usd_ratio: ratio(&a.cost_usd, &b.cost_usd),
                cost_of_pass_usd: diff(&a.cost_of_pass_usd, &b.cost_of_pass_usd),
                rubrics: rubrics
                    .iter()
                    .enumerate()
                    .filter(|(_, info)| !info.rubric.relative)
                    .map(|(k, info)| RubricChangeJson {
                        rubric: info.rubric.id(),
                        score: match (places[i][k].score, places[j][k].score) {
                            (Some(x), Some(y)) => Some(y - x),
                            _ => None,
                        },
                    })
                    .collect(),
                confounded_by: conds
                    .iter()
                    .filter(|c| c.differs_between(i, j))
                    .map(|c| c.key.to_string())
                    .collect(),
            }
        })
        .collect();
    let confounders = conds
        .iter()
        .filter(|c| c.differs())
        .map(|c| ConfounderJson {
            condition: c.key,
            values: c.values.iter().map(CondValue::json).collect(),
            confounds: confounds(c, rubrics),
        })
        .collect();
    CompareJson {
        seat: seat.to_string(),
        cost_of_pass: COST_OF_PASS,
        waves: json_waves,
        changes,
        confounders,
        verdict,
        notes,
    }
}

/// One line per pair of consecutive waves: did the seat get slower or faster, and under what
/// difference in conditions.
fn verdict(p: &Parts<'_>) -> Vec<String> {
    let Parts {
        seat,
        ids,
        figures,
        figs,
        conds,
        ..
    } = p;
    (1..ids.len())
        .map(|j| {
            let i = j - 1;
            let prefix = if ids.len() > 2 {
                format!("{} → {}: ", ids[i], ids[j])
            } else {
                String::new()
            };
            let different_work: Vec<String> = conds
                .iter()
                .filter(|c| {
                    matches!(c.kind, Kind::Identity | Kind::Attempts) && c.differs_between(i, j)
                })
                .map(|c| format!("{} {}", c.label, c.pair(i, j)))
                .collect();
            let same_work = different_work.is_empty();
            let accuracy_moved = figures[i].accuracy != figures[j].accuracy
                && figures[i].accuracy.is_some()
                && figures[j].accuracy.is_some();
            let correct = format!(
                "Correct {}/{} → {}/{}",
                figures[i].correct,
                figures[i].denominator,
                figures[j].correct,
                figures[j].denominator
            );
            let speed = match (&figs[i].wall_s, &figs[j].wall_s) {
                (Fig::Known(x), Fig::Known(y)) => {
                    let d = y - x;
                    // On different work (another suite, seat or number of attempts) a change in
                    // wall time says nothing about speed.
                    let what = if fixed(d, 1) == "0.0" {
                        "took the same wall time"
                    } else if same_work {
                        if d > 0.0 { "got slower" } else { "got faster" }
                    } else if d > 0.0 {
                        "took more wall time"
                    } else {
                        "took less wall time"
                    };
                    let mut detail = format!("wall {} s", signed(d, 1));
                    if let Some(r) = relative(*x, *y) {
                        detail.push_str(&format!(", {r}"));
                    }
                    if accuracy_moved {
                        detail.push_str(&format!("; {correct}"));
                    }
                    format!("{seat} {what} ({detail})")
                }
                (a, b) => {
                    let (w, why) = match (a, b) {
                        (Fig::Unknown(why), _) => (ids[i], why),
                        (_, Fig::Unknown(why)) => (ids[j], why),
                        _ => (ids[j], &String::new()),
                    };
                    let mut s = format!("{seat}'s change in wall time is unknown ({w}: {why}");
                    if accuracy_moved {
                        s.push_str(&format!("; {correct}"));
                    }
                    s.push(')');
                    s
                }
            };
            let load: Vec<&Condition> = conds
                .iter()
                .filter(|c| c.kind == Kind::Load && c.differs_between(i, j))
                .collect();
            let load_text = if load.is_empty() {
                let all_known = conds
                    .iter()
                    .filter(|c| c.kind == Kind::Load)
                    .all(|c| c.values[i] != CondValue::Unknown);
                if all_known {
                    " under the same recorded load".to_string()
                } else {
                    " under load that was not fully recorded".to_string()
                }
            } else {
                let how = match load_direction(conds, i, j) {
                    1 => "heavier load",
                    -1 => "lighter load",
                    _ => "different load",
                };
                let parts: Vec<String> = load
                    .iter()
                    .map(|c| format!("{} {}", c.label, c.pair(i, j)))
                    .collect();
                format!(" under {how}: {}", parts.join(", "))
            };
            let others: Vec<String> = conds
                .iter()
                .filter(|c| {
                    matches!(c.kind, Kind::CacheAccounting | Kind::Prices | Kind::Budget)
                        && c.differs_between(i, j)
                })
                .map(|c| format!("{} {}", c.label, c.pair(i, j)))
                .collect();
            let mut line = format!("{prefix}{speed}{load_text}");
            if same_work {
                line.push('.');
            } else {
                line.push_str(&format!(
                    " — but on different work: {}.",
                    different_work.join(", ")
                ));
            }
            if !others.is_empty() {
                line.push_str(&format!(" Also different: {}.", others.join(", ")));
            }
            line
        })
        .collect()
}

/// The notes printed under the conditions (and carried in the JSON).
fn notes(p: &Parts<'_>) -> Vec<String> {
    let Parts {
        waves,
        ids,
        figures,
        conds,
        rubrics,
        places,
        medians,
        ..
    } = p;
    let mut notes = Vec::new();
    // Confounders, grouped by what they confound.
    let groups: [(&[Kind], &str); 5] = [
        (
            &[Kind::Load],
            "the change in wall time cannot be assigned to the seat alone; repeat under \
             comparable load to separate them",
        ),
        (
            &[Kind::CacheAccounting],
            "the change in token totals is confounded by how tokens were counted (totals are \
             normalised, with cached reads added where input totals exclude them, but that rests \
             on each wave's declaration)",
        ),
        (
            &[Kind::Prices],
            "the change in USD and Cost-of-Pass is confounded by where prices came from",
        ),
        (
            &[Kind::Budget],
            "every change is confounded by what the seat was allowed (a seat may pace itself \
             to its budget, and a score held against the budget moves with it)",
        ),
        (
            &[Kind::Identity, Kind::Attempts],
            "a different thing was measured and every change is confounded",
        ),
    ];
    for (kinds, why) in groups {
        let differing: Vec<String> = conds
            .iter()
            .filter(|c| kinds.contains(&c.kind) && c.differs())
            .map(|c| format!("{} {}", c.label, c.path()))
            .collect();
        if !differing.is_empty() {
            notes.push(format!(
                "Confounder{}: {} — {why}.",
                if differing.len() > 1 { "s" } else { "" },
                join_and(&differing)
            ));
        }
    }
    if conds.iter().all(|c| !c.differs()) {
        notes.push(
            "No recorded condition differs between the waves (load, accounting, budget, suite, \
             seat); an unrecorded one still may."
                .into(),
        );
    }
    notes.push(
        "Correct: Correct / (attempts + missing). Cost-of-Pass: total USD / number Correct \
         (pooled); — when nothing is Correct or a cost is unknown. Changes: later wave minus \
         earlier, with the relative change in parentheses."
            .into(),
    );
    let excl: Vec<&str> = waves
        .iter()
        .zip(ids)
        .filter(|(w, _)| !w.data.wave.accounting.input_tokens_include_cache_reads)
        .map(|(_, id)| *id)
        .collect();
    if !excl.is_empty() {
        notes.push(format!(
            "Tokens: the input totals of {} exclude cached reads, so cached reads and cache \
             writes are added to make the totals comparable.",
            join_and(&excl.iter().map(|s| s.to_string()).collect::<Vec<_>>())
        ));
    }
    if figures.iter().any(|f| {
        f.wall_s.known < f.attempts
            || f.tokens_total.known < f.attempts
            || f.new_input_tokens.known < f.attempts
            || f.cost_usd.known < f.attempts
    }) {
        notes.push(
            "(k of n): the figure covers only the k attempts whose value is known; unknown is \
             not zero, so a change involving it is unknown."
                .into(),
        );
    }
    for (k, info) in rubrics.iter().enumerate() {
        let r = &info.rubric;
        if info.scale_violation {
            notes.push(format!(
                "WARNING: {} fails `rubric check`: its score can leave its declared scale.",
                r.id()
            ));
        }
        if !r.relative {
            let id = r.id();
            let by: Vec<String> = conds
                .iter()
                .filter(|c| c.differs() && confounds(c, rubrics).contains(&id))
                .map(|c| format!("{} {}", c.label, c.path()))
                .collect();
            if !by.is_empty() {
                notes.push(format!(
                    "{id} is absolute, so its score is compared across waves; but it reads figures \
                     whose conditions differ, so its change is confounded too: by {}.",
                    join_and(&by)
                ));
            }
            continue;
        }
        let ranks: Vec<String> = places.iter().map(|p| p[k].text.clone()).collect();
        // Each cohort factor's measure: its wave median in each wave, and how far it moved.
        let mut moved = Vec::new();
        let first = medians.first().map(|w| w[k].as_slice()).unwrap_or_default();
        for (m, CohortMedian { measure, .. }) in first.iter().enumerate() {
            let values: Vec<Option<f64>> = medians
                .iter()
                .map(|w| w[k].get(m).and_then(|c| c.median))
                .collect();
            let path: Vec<String> = values
                .iter()
                .map(|v| v.map_or("unknown".into(), |v| measure_text(*measure, v)))
                .collect();
            let mut text = format!("{} {}", measure.name(), path.join(" → "));
            if let (Some(Some(a)), Some(Some(b))) = (values.first(), values.last())
                && let Some(r) = relative(*a, *b)
            {
                text.push_str(&format!(" ({r})"));
            }
            moved.push(text);
        }
        let mut note = format!(
            "{} is relative: a seat's score is measured against its own wave's medians, so only \
             its rank inside each wave is shown ({}), never its value or a change across waves. \
             When a whole wave slows, the medians move, and a relative score can rise while the \
             seat got slower.",
            r.id(),
            ranks.join(" → ")
        );
        if !moved.is_empty() {
            note.push_str(&format!(
                " The yardstick moved: the wave median of {}.",
                join_and(&moved)
            ));
        }
        notes.push(note);
    }
    notes
}

/// Renders a comparison in the chosen format.
pub fn render(c: &Comparison, format: Format) -> String {
    match format {
        Format::Table => format!("{}\n{}", to_text(&c.figures), to_text(&c.conditions)),
        Format::Md => {
            // Markdown separates every heading line by a blank line already.
            let mut figures = c.figures.clone();
            figures.heading.retain(|h| !h.is_empty());
            format!("{}\n{}", to_markdown(&figures), to_markdown(&c.conditions))
        }
        Format::Csv => to_csv(&c.csv),
        Format::Json => to_json("compare", &c.json),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_texts() {
        assert_eq!(signed_int(20256), "+20,256");
        assert_eq!(signed_int(-1000), "-1,000");
        assert_eq!(signed_int(0), "0");
        assert_eq!(signed_usd(0.02), "+$0.02");
        assert_eq!(signed_usd(-1.5), "-$1.50");
        assert_eq!(signed_usd(0.0), "$0.00");
        assert_eq!(
            with_relative(format!("{} s", signed(121.0, 1)), 141.0, 262.0),
            "+121.0 s (+85.8%)"
        );
        assert_eq!(with_relative("+1".into(), 0.0, 1.0), "+1");
    }

    #[test]
    fn a_partial_sum_gives_no_figure() {
        let k = Known {
            sum: 10.0,
            known: 3,
        };
        assert_eq!(
            complete_f64(&k, 4, "wall"),
            Fig::Unknown("wall known for 3 of 4 attempts".into())
        );
        assert_eq!(complete_f64(&k, 3, "wall"), Fig::Known(10.0));
        assert_eq!(
            complete_f64(&Known { sum: 0.0, known: 0 }, 0, "wall"),
            Fig::Unknown("no attempts".into())
        );
    }

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
