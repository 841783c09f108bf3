//! The `versus` verdict: two seats of one wave on the problems both attempted, paired.

use serde::Serialize;

use super::fields::Fields;
use super::{Cell, Column, Note, Table};
use crate::number::{fixed, int, int_or_fixed, machine, p_value, signed};
use crate::stats::bootstrap::{GENERATOR, METHOD, Settings};
use crate::stats::versus::{FEW_DISCORDANT, Paired, TieGroups};

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct IntervalJson {
    pub method: &'static str,
    pub generator: &'static str,
    pub level: f64,
    pub resamples: u32,
    pub seed: u64,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct VersusJson {
    pub wave: String,
    pub a: String,
    pub b: String,
    pub shared_problems: u64,
    /// Problems only A solved, and only B (a problem is solved by a seat when more than half
    /// of its trials there are Correct).
    pub only_a: u64,
    pub only_b: u64,
    pub both: u64,
    pub neither: u64,
    /// Mean over the shared problems of A's share of Correct trials minus B's.
    pub accuracy_diff: Option<f64>,
    pub accuracy_diff_ci: Option<[f64; 2]>,
    pub mcnemar_p: f64,
    /// The paired test on every trial (`stats::versus::PairedTest`): the mean over shared
    /// problems of the difference of the two seats' shares of Correct trials, its standard
    /// error, z, the two-sided normal p-value and d̄ ∓ 1.959964 · se. Null with no shared
    /// problem (z also when the standard error is 0).
    pub mean_diff: Option<f64>,
    pub se_paired: Option<f64>,
    pub z: Option<f64>,
    pub p_paired: Option<f64>,
    pub diff_ci95: Option<[f64; 2]>,
    /// The test the verdict rests on: `paired` with more than one trial, else `mcnemar`.
    pub verdict_test: &'static str,
    pub verdict: String,
    /// What the numbers cannot bear: few shared problems, few discordant ones.
    pub warnings: Vec<String>,
    pub interval: IntervalJson,
}

/// Fewer shared problems than this, and an interval over them is a rough guide.
pub(crate) const FEW_PROBLEMS: u64 = 30;

/// The cautions a comparison carries.
fn warnings(p: &Paired) -> Vec<String> {
    let mut w = Vec::new();
    if p.shared > 0 && p.shared < FEW_PROBLEMS {
        w.push(format!(
            "only {} shared problem{}: intervals and tests over fewer than {FEW_PROBLEMS} \
             problems are rough",
            p.shared,
            if p.shared == 1 { "" } else { "s" }
        ));
    }
    if p.shared > 0 && p.discordant() < FEW_DISCORDANT {
        w.push(format!(
            "only {} discordant problem{} (solved by one seat and not the other): McNemar's \
             test has little power to tell the seats apart",
            p.discordant(),
            if p.discordant() == 1 { "" } else { "s" }
        ));
    }
    w
}

/// The pair's rows: the problems each solved, the accuracy difference and its interval, and
/// the tests (McNemar's on problems; the paired test on every trial, when run).
fn rows(a: &str, b: &str, p: &Paired, s: &Settings) -> Vec<Vec<Cell>> {
    let mut rows = Vec::new();
    let row = |name: &str, human: String, machine: String| {
        vec![Cell::text(name), Cell::new(human, machine)]
    };
    rows.push(row(
        "Problems both attempted",
        int(p.shared),
        p.shared.to_string(),
    ));
    rows.push(row(
        &format!("Solved by {a} only"),
        int(p.only_a),
        p.only_a.to_string(),
    ));
    rows.push(row(
        &format!("Solved by {b} only"),
        int(p.only_b),
        p.only_b.to_string(),
    ));
    rows.push(row("Solved by both", int(p.both), p.both.to_string()));
    rows.push(row(
        "Solved by neither",
        int(p.neither),
        p.neither.to_string(),
    ));
    rows.push(match p.diff {
        Some(d) => row(
            &format!("Accuracy difference ({a} − {b})"),
            format!("{} points", signed(d * 100.0, 1)),
            machine(d),
        ),
        None => vec![
            Cell::text(format!("Accuracy difference ({a} − {b})")),
            Cell::none(),
        ],
    });
    rows.push(match p.diff_ci {
        Some(ci) => row(
            &format!("{}% interval", int_or_fixed(s.level * 100.0, 1)),
            format!(
                "{} to {} points",
                signed(ci.lo * 100.0, 1),
                signed(ci.hi * 100.0, 1)
            ),
            format!("{} {}", machine(ci.lo), machine(ci.hi)),
        ),
        None => vec![
            Cell::text(format!("{}% interval", int_or_fixed(s.level * 100.0, 1))),
            Cell::none(),
        ],
    });
    rows.push(row(
        "McNemar exact p",
        p_value(p.mcnemar_p),
        machine(p.mcnemar_p),
    ));
    if let Some(test) = &p.test {
        rows.push(row(
            "Paired difference, every trial",
            format!(
                "{} points ± {} (se)",
                signed(test.mean_diff * 100.0, 1),
                fixed(test.se * 100.0, 1)
            ),
            machine(test.mean_diff),
        ));
        rows.push(row(
            "95% interval (paired, normal)",
            format!(
                "{} to {} points",
                signed(test.ci95[0] * 100.0, 1),
                signed(test.ci95[1] * 100.0, 1)
            ),
            format!("{} {}", machine(test.ci95[0]), machine(test.ci95[1])),
        ));
        rows.push(row("Paired p", p_value(test.p), machine(test.p)));
    }
    rows
}

pub fn versus(wave: &str, a: &str, b: &str, p: &Paired, s: &Settings) -> (Table, VersusJson) {
    let mut t = Table::new(vec![
        Column::text("", "measure"),
        Column::num("Value", "value"),
    ]);
    t.heading
        .push(format!("Wave {wave} · {a} versus {b}, paired"));
    t.rows = rows(a, b, p, s);
    t.notes.push(Note::Text(format!(
        "Verdict: {} ({}).",
        p.verdict(a, b),
        if p.trials {
            "the paired test on every trial: more than one trial a problem"
        } else {
            "McNemar's exact test: one trial a problem"
        }
    )));
    for w in warnings(p) {
        t.notes.push(Note::Text(format!("Caution: {w}.")));
    }
    t.notes.push(Note::Text(format!(
        "A problem is solved by a seat when more than half of its trials there are Correct. The \
         interval is a {METHOD} ({} resamples, seed {}, generator {GENERATOR}); McNemar's exact \
         test is two-sided on the problems one seat solved and the other did not; the paired \
         test takes, per shared problem, the difference of the seats' shares of Correct trials \
         (standard error sqrt(Σ (d − d̄)²) / problems, two-sided normal p). The verdict names a \
         leader only when p < 0.05.",
        s.resamples, s.seed
    )));
    let json = VersusJson {
        wave: wave.to_string(),
        a: a.to_string(),
        b: b.to_string(),
        shared_problems: p.shared,
        only_a: p.only_a,
        only_b: p.only_b,
        both: p.both,
        neither: p.neither,
        accuracy_diff: p.diff,
        accuracy_diff_ci: p.diff_ci.map(|c| [c.lo, c.hi]),
        mcnemar_p: p.mcnemar_p,
        mean_diff: p.test.map(|t| t.mean_diff),
        se_paired: p.test.map(|t| t.se),
        z: p.test.and_then(|t| t.z),
        p_paired: p.test.map(|t| t.p),
        diff_ci95: p.test.map(|t| t.ci95),
        verdict_test: p.verdict_test(),
        verdict: p.verdict(a, b),
        warnings: warnings(p),
        interval: IntervalJson {
            method: METHOD,
            generator: GENERATOR,
            level: s.level,
            resamples: s.resamples,
            seed: s.seed,
        },
    };
    (t, json)
}

/// One pair in `versus --all`'s JSON.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PairJson {
    pub a: String,
    pub b: String,
    pub shared_problems: u64,
    pub mean_diff: Option<f64>,
    pub se_paired: Option<f64>,
    pub p_paired: Option<f64>,
    pub p_holm: f64,
    pub separable: bool,
}

/// A seat in `versus --all`'s order.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RankedSeatJson {
    pub seat: String,
    pub mean_per_problem: Option<f64>,
    pub group: String,
}

/// The JSON of `versus --wave W --all`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct VersusAllJson {
    pub wave: String,
    pub alpha: f64,
    /// Highest per-problem mean first, ties by seat id.
    pub seats: Vec<RankedSeatJson>,
    /// Every pair, a before b in the seats' order.
    pub pairs: Vec<PairJson>,
    /// Seat → its letters: two seats share a letter if and only if they are not separable.
    pub groups: std::collections::BTreeMap<String, String>,
    pub warnings: Vec<String>,
}

/// `versus --all`'s columns, one row a pair, each with its cell.
fn pair_fields<'a>() -> Fields<'a, PairJson> {
    let opt = |x: Option<f64>, human: &dyn Fn(f64) -> String| match x {
        Some(x) => Cell::new(human(x), machine(x)),
        None => Cell::none(),
    };
    Fields::new()
        .with(Column::text("A", "a"), |r: &PairJson| Cell::text(&r.a))
        .with(Column::text("B", "b"), |r| Cell::text(&r.b))
        .with(Column::num("Shared", "shared_problems"), |r| {
            Cell::new(int(r.shared_problems), r.shared_problems.to_string())
        })
        .with(Column::num("A − B", "mean_diff"), move |r| {
            opt(r.mean_diff, &|x| format!("{} points", signed(x * 100.0, 1)))
        })
        .with(Column::num("SE", "se_paired"), move |r| {
            opt(r.se_paired, &|x| fixed(x * 100.0, 1))
        })
        .with(Column::num("p", "p_paired"), move |r| {
            opt(r.p_paired, &p_value)
        })
        .with(Column::num("p (Holm)", "p_holm"), |r| {
            Cell::new(p_value(r.p_holm), machine(r.p_holm))
        })
        .with(Column::text("Separable", "separable"), |r| {
            Cell::text(if r.separable { "yes" } else { "no" })
        })
}

/// `versus --all`: the seats in order, with their per-problem means, every pair and the
/// letters ([`TieGroups`]).
pub fn versus_all(wave: &str, groups: &TieGroups) -> (Table, VersusAllJson) {
    let (seats, rows, alpha) = (&groups.seats, &groups.pairs, groups.alpha);
    let pairs: Vec<PairJson> = rows
        .iter()
        .map(|r| PairJson {
            a: seats[r.a].seat.clone(),
            b: seats[r.b].seat.clone(),
            shared_problems: r.shared,
            mean_diff: r.test.map(|t| t.mean_diff),
            se_paired: r.test.map(|t| t.se),
            p_paired: r.test.map(|t| t.p),
            p_holm: r.p_holm,
            separable: r.separable,
        })
        .collect();
    let mut t = pair_fields().table(&pairs);
    t.heading.push(format!(
        "Wave {wave} · every pair of seats, paired on every trial, Holm-corrected over {} \
         pair{} at α = {}",
        int(rows.len() as u64),
        if rows.len() == 1 { "" } else { "s" },
        machine(alpha)
    ));
    if groups.skipped_pairs > 0 {
        t.notes.push(Note::Text(super::groups::summary(groups)));
    }
    let ranked: Vec<RankedSeatJson> = seats
        .iter()
        .map(|s| RankedSeatJson {
            seat: s.seat.clone(),
            mean_per_problem: s.mean_per_problem,
            group: s.letters.clone(),
        })
        .collect();
    t.notes.push(Note::Text(format!(
        "Tie groups (seats sharing a letter cannot be told apart): {}.",
        ranked
            .iter()
            .map(|s| format!(
                "{} {} ({})",
                s.seat,
                s.group,
                s.mean_per_problem
                    .map_or("—".to_string(), crate::number::percent)
            ))
            .collect::<Vec<_>>()
            .join(", ")
    )));
    t.notes.push(Note::Text(
        "Seats in order of their per-problem mean (the mean over problems of the share of \
         trials passed), highest first. Each pair: the paired test on the problems both \
         attempted (difference of the shares of Correct trials, standard error sqrt(Σ (d − \
         d̄)²) / problems, two-sided normal p), then Holm's step-down adjustment over all \
         pairs; a pair is separable when its adjusted p is below α."
            .to_string(),
    ));
    let few = seats.iter().map(|s| s.attempted).min().unwrap_or(0);
    let mut warnings = Vec::new();
    if !seats.is_empty() && few < FEW_PROBLEMS {
        warnings.push(format!(
            "a seat attempted only {few} problem{}: tests over fewer than {FEW_PROBLEMS} \
             problems are rough",
            if few == 1 { "" } else { "s" }
        ));
    }
    for w in &warnings {
        t.notes.push(Note::Text(format!("Caution: {w}.")));
    }
    let json = VersusAllJson {
        wave: wave.to_string(),
        alpha,
        groups: ranked
            .iter()
            .map(|s| (s.seat.clone(), s.group.clone()))
            .collect(),
        seats: ranked,
        pairs,
        warnings,
    };
    (t, json)
}
