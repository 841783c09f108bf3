//! The `trials` listing: per seat, its problems and trials, and pass@k and pass^k at each k.

use std::collections::BTreeMap;

use serde::Serialize;

use super::fields::Fields;
use super::{Cell, Column, Table};
use crate::model::WaveData;
use crate::number::{int, machine_opt, percent};
use crate::stats::trials::{AtK, SeatProblems};

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SeatTrialsJson {
    pub seat: String,
    /// Problems in all: attempted and declared but never attempted.
    pub problems: u64,
    pub missing: u64,
    pub trials_min: Option<u64>,
    pub trials_max: Option<u64>,
    /// Attempts that ended in an infrastructure error: failed trials, counted, never dropped.
    pub infra_errors: u64,
    /// Keyed by k as a string; null when no problem has k trials.
    pub pass_at_k: BTreeMap<String, Option<f64>>,
    pub pass_hat_k: BTreeMap<String, Option<f64>>,
    /// Problems each k averages over (attempted with at least k trials, and the missing).
    pub problems_at_k: BTreeMap<String, u64>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TrialsJson {
    pub wave: String,
    pub k: Vec<u64>,
    pub seats: Vec<SeatTrialsJson>,
}

/// The k to show when none is asked: 1 up to the most any seat allows on every problem it
/// attempted (its fewest trials of a problem), so that one seat of a single trial does not
/// hide the others' pass@k (issue 32 item 9); a seat that cannot reach a k is marked there.
pub(crate) fn default_k(seats: &[SeatProblems]) -> Vec<u64> {
    let most = seats
        .iter()
        .filter_map(|s| s.trial_range().map(|(lo, _)| lo))
        .max()
        .unwrap_or(1);
    (1..=most.max(1)).collect()
}

/// One seat's row: its problems, its trials' range, and its figures at each k asked (none
/// where the seat ran fewer trials than k on every problem).
struct Row<'a> {
    wave: &'a str,
    seat: &'a crate::model::Seat,
    problems: &'a SeatProblems,
    range: Option<(u64, u64)>,
    at: Vec<AtK>,
}

impl Row<'_> {
    /// A k beyond every problem's trials of this seat: no figure, marked as out of reach.
    fn short(&self, k: u64) -> bool {
        self.range.is_some_and(|(_, hi)| hi < k)
    }

    /// A figure at k: "— (n trials)" out of reach, "x% (k of n)" over some problems only.
    fn cell(&self, x: Option<f64>, at: &AtK) -> Cell {
        match (self.range, x) {
            (Some((_, hi)), _) if hi < at.k => Cell::new(
                format!("— ({hi} trial{})", if hi == 1 { "" } else { "s" }),
                String::new(),
            ),
            (_, Some(x)) if at.left_out > 0 => Cell::new(
                format!(
                    "{} ({} of {})",
                    percent(x),
                    at.problems,
                    at.problems + at.left_out
                ),
                machine_opt(Some(x)),
            ),
            (_, Some(x)) => Cell::new(percent(x), machine_opt(Some(x))),
            (_, None) => Cell::none(),
        }
    }
}

/// The listing's columns, each with its cell: pass@k for each k, then pass^k for each.
fn fields<'a>(ks: &[u64]) -> Fields<'a, Row<'a>> {
    let mut f = Fields::new()
        .with(Column::machine_text("wave"), |r: &Row| Cell::text(r.wave))
        .with(Column::text("Seat", "seat"), |r| Cell::seat(r.seat))
        .with(Column::num("Problems", "problems"), |r| {
            let n = r.problems.problems();
            Cell::new(int(n), n.to_string())
        })
        .with(Column::machine("missing"), |r| {
            Cell::text(r.problems.missing.to_string())
        })
        .with(Column::num("Trials", "trials"), |r| match r.range {
            Some((lo, hi)) if lo == hi => Cell::new(int(lo), format!("{lo}")),
            Some((lo, hi)) => Cell::new(format!("{lo}–{hi}"), format!("{lo}-{hi}")),
            None => Cell::none(),
        })
        .with(Column::num("Infra errors", "infra_errors"), |r| {
            Cell::text(r.problems.infra_errors.to_string())
        });
    for (i, k) in ks.iter().enumerate() {
        f.push(
            Column::num(&format!("pass@{k}"), &format!("pass_at_{k}")),
            move |r| r.cell(r.at[i].pass_at_k, &r.at[i]),
        );
    }
    for (i, k) in ks.iter().enumerate() {
        f.push(
            Column::num(&format!("pass^{k}"), &format!("pass_hat_{k}")),
            move |r| r.cell(r.at[i].pass_hat_k, &r.at[i]),
        );
    }
    f
}

pub fn trials(data: &WaveData, ks: &[u64]) -> (Table, TrialsJson) {
    let problems: Vec<SeatProblems> = data
        .seats
        .iter()
        .map(|s| SeatProblems::of(&data.wave, &s.attempts))
        .collect();
    let rows: Vec<Row> = data
        .seats
        .iter()
        .zip(&problems)
        .map(|(s, p)| {
            let mut row = Row {
                wave: &data.wave.id,
                seat: &s.seat,
                problems: p,
                range: p.trial_range(),
                at: Vec::new(),
            };
            row.at = ks
                .iter()
                .map(|k| {
                    let mut a = p.at(*k);
                    if row.short(*k) {
                        a.pass_at_k = None;
                        a.pass_hat_k = None;
                    }
                    a
                })
                .collect();
            row
        })
        .collect();
    let any_left_out = rows
        .iter()
        .any(|r| r.at.iter().any(|a| a.left_out > 0 && !r.short(a.k)));
    let any_short = rows.iter().any(|r| ks.iter().any(|k| r.short(*k)));
    let mut t = fields(ks).table(&rows);
    t.heading.push(format!(
        "Wave {} · suite {} · repeated trials",
        data.wave.id, data.wave.suite
    ));
    let key = |a: &AtK| a.k.to_string();
    let seats = rows
        .iter()
        .map(|r| SeatTrialsJson {
            seat: r.seat.id.clone(),
            problems: r.problems.problems(),
            missing: r.problems.missing,
            trials_min: r.range.map(|r| r.0),
            trials_max: r.range.map(|r| r.1),
            infra_errors: r.problems.infra_errors,
            pass_at_k: r.at.iter().map(|a| (key(a), a.pass_at_k)).collect(),
            pass_hat_k: r.at.iter().map(|a| (key(a), a.pass_hat_k)).collect(),
            problems_at_k: r.at.iter().map(|a| (key(a), a.problems)).collect(),
        })
        .collect();
    t.notes.push(
        "pass@k: the chance that at least one of k trials passes (unbiased estimator, per \
         problem 1 − C(n−c, k)/C(n, k), averaged). pass^k: the chance that all k pass (per \
         problem C(c, k)/C(n, k), averaged). A declared problem never attempted counts as \
         failing every trial; an infrastructure error is a failed trial."
            .into(),
    );
    if any_short {
        t.notes.push(
            "— (n trials): the seat ran at most n trials of a problem, fewer than k, so it has \
             no figure at that k."
                .into(),
        );
    }
    if any_left_out {
        t.notes.push(
            "(k of n): problems with fewer than k trials are left out of that k; the figure \
             averages over the k problems counted."
                .into(),
        );
    }
    let json = TrialsJson {
        wave: data.wave.id.clone(),
        k: ks.to_vec(),
        seats,
    };
    (t, json)
}
