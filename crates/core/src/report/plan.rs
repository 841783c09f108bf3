//! The `plan` listing: what a comparison of two seats can detect, as a table and a JSON value.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Cell, Column, Note, Table};
use crate::number::{fixed, int, machine};
use crate::stats::plan::Plan;

/// The JSON of `plan`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PlanJson {
    pub wave: String,
    pub a: String,
    pub b: String,
    pub alpha: f64,
    pub power: f64,
    pub delta: Option<f64>,
    pub shared_problems: u64,
    pub trials_a: f64,
    pub trials_b: f64,
    pub sigma2_within_a: Option<f64>,
    pub sigma2_within_b: Option<f64>,
    pub omega2_diff: Option<f64>,
    pub mde: f64,
    /// Trials per problem (as text, a JSON key) → the MDE with that many on the same problems.
    pub mde_by_trials: BTreeMap<String, f64>,
    pub problems_needed: Option<u64>,
    pub notes: Vec<String>,
}

fn points(x: f64) -> String {
    format!("{} points", fixed(x * 100.0, 1))
}

/// The plan's rows: the shared problems and trials, the variances, the smallest detectable
/// difference (at these trials and at each other count), and the problems `delta` needs.
fn rows(a: &str, b: &str, delta: Option<f64>, p: &Plan) -> Vec<Vec<Cell>> {
    let row = |name: &str, human: String, m: String| vec![Cell::text(name), Cell::new(human, m)];
    let opt = |x: Option<f64>| {
        x.map_or(("—".to_string(), String::new()), |x| {
            (fixed(x, 4), machine(x))
        })
    };
    let mut rows = vec![
        row("Shared problems", int(p.problems), p.problems.to_string()),
        row(
            "Trials per problem",
            format!("{} / {}", fixed(p.trials_a, 2), fixed(p.trials_b, 2)),
            format!("{} {}", machine(p.trials_a), machine(p.trials_b)),
        ),
    ];
    for (name, v) in [
        (format!("Within-problem variance, {a}"), p.sigma2_within_a),
        (format!("Within-problem variance, {b}"), p.sigma2_within_b),
        (
            "Between-problem variance of the difference".to_string(),
            p.omega2_diff,
        ),
    ] {
        let (h, m) = opt(v);
        rows.push(row(&name, h, m));
    }
    rows.push(row(
        "Smallest detectable difference",
        points(p.mde),
        machine(p.mde),
    ));
    for (k, m) in &p.mde_by_trials {
        rows.push(row(
            &format!("  with {k} trial{} each", if *k == 1 { "" } else { "s" }),
            points(*m),
            machine(*m),
        ));
    }
    if let (Some(d), Some(n)) = (delta, p.problems_needed) {
        rows.push(row(
            &format!("Problems needed for {}", points(d)),
            int(n),
            n.to_string(),
        ));
    }
    rows
}

/// What the plan says in words: the problems (or trials) `delta` needs, and why more trials'
/// worth cannot be told when a seat ran one trial a problem.
fn notes(a: &str, b: &str, delta: Option<f64>, power: f64, p: &Plan) -> Vec<String> {
    let mut notes = Vec::new();
    if let (Some(d), Some(n)) = (delta, p.problems_needed) {
        let more_trials = p
            .mde_by_trials
            .iter()
            .find(|(_, m)| **m <= d)
            .map(|(k, _)| *k);
        notes.push(format!(
            "To tell a {} difference at {}% power you need about {} problems at these trials{}.",
            points(d),
            fixed(power * 100.0, 0),
            int(n),
            match more_trials {
                Some(k) if p.omega2_diff.is_some() => format!(
                    ", or {k} trial{} each on these {}",
                    if k == 1 { "" } else { "s" },
                    int(p.problems)
                ),
                _ => String::new(),
            }
        ));
    }
    if p.omega2_diff.is_none() {
        let who = if p.trials_a.round() == p.trials_b.round() {
            "One trial a problem".to_string()
        } else {
            format!(
                "{} has one trial a problem",
                if p.sigma2_within_a.is_none() { a } else { b }
            )
        };
        notes.push(format!(
            "{who}: the variance within a problem cannot be told from the variance between \
             problems, so the plan uses the variance of the differences whole, at these trials \
             ({} / {}), and cannot say what more trials would buy.",
            machine(p.trials_a),
            machine(p.trials_b)
        ));
    }
    notes
}

/// The listing of a plan for seat `a` against `b`.
pub fn plan(
    wave: &str,
    a: &str,
    b: &str,
    alpha: f64,
    power: f64,
    delta: Option<f64>,
    p: &Plan,
) -> (Table, PlanJson) {
    let mut t = Table::new(vec![
        Column::text("", "measure"),
        Column::num("Value", "value"),
    ]);
    t.heading.push(format!(
        "Wave {wave} · {a} versus {b}: what a paired test at α = {} with {}% power detects",
        machine(alpha),
        fixed(power * 100.0, 0)
    ));
    t.rows = rows(a, b, delta, p);
    let notes = notes(a, b, delta, power, p);
    t.notes.extend(notes.iter().cloned().map(Note::Text));
    t.notes.push(Note::Text(
        "MDE = (z₁₋α/₂ + z_power) · sqrt((ω² + σ²_A/K_A + σ²_B/K_B) / P) over the P shared \
         problems; see docs/statistics.md."
            .to_string(),
    ));
    let json = PlanJson {
        wave: wave.to_string(),
        a: a.to_string(),
        b: b.to_string(),
        alpha,
        power,
        delta,
        shared_problems: p.problems,
        trials_a: p.trials_a,
        trials_b: p.trials_b,
        sigma2_within_a: p.sigma2_within_a,
        sigma2_within_b: p.sigma2_within_b,
        omega2_diff: p.omega2_diff,
        mde: p.mde,
        mde_by_trials: p
            .mde_by_trials
            .iter()
            .map(|(k, m)| (k.to_string(), *m))
            .collect(),
        problems_needed: p.problems_needed,
        notes,
    };
    (t, json)
}
