//! The `trials` listing: per seat, its problems and trials, and pass@k and pass^k at each k.

use std::collections::BTreeMap;

use serde::Serialize;

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

pub fn trials(data: &WaveData, ks: &[u64]) -> (Table, TrialsJson) {
    let problems: Vec<SeatProblems> = data
        .seats
        .iter()
        .map(|s| SeatProblems::of(&data.wave, &s.attempts))
        .collect();
    let mut columns = vec![
        Column::machine_text("wave"),
        Column::text("Seat", "seat"),
        Column::num("Problems", "problems"),
        Column::machine("missing"),
        Column::num("Trials", "trials"),
        Column::num("Infra errors", "infra_errors"),
    ];
    for k in ks {
        columns.push(Column::num(&format!("pass@{k}"), &format!("pass_at_{k}")));
    }
    for k in ks {
        columns.push(Column::num(&format!("pass^{k}"), &format!("pass_hat_{k}")));
    }
    let mut t = Table::new(columns);
    t.heading.push(format!(
        "Wave {} · suite {} · repeated trials",
        data.wave.id, data.wave.suite
    ));
    let cell = |x: Option<f64>, at: &AtK| match x {
        Some(x) if at.left_out > 0 => Cell::new(
            format!(
                "{} ({} of {})",
                percent(x),
                at.problems,
                at.problems + at.left_out
            ),
            machine_opt(Some(x)),
        ),
        Some(x) => Cell::new(percent(x), machine_opt(Some(x))),
        None => Cell::none(),
    };
    let mut seats = Vec::new();
    let (mut any_left_out, mut any_short) = (false, false);
    for (s, p) in data.seats.iter().zip(&problems) {
        let range = p.trial_range();
        // A k beyond every problem's trials of this seat: no figure, marked as out of reach.
        let short = |k: u64| range.is_some_and(|(_, hi)| hi < k);
        let at: Vec<AtK> = ks
            .iter()
            .map(|k| {
                let mut a = p.at(*k);
                if short(*k) {
                    a.pass_at_k = None;
                    a.pass_hat_k = None;
                }
                a
            })
            .collect();
        any_left_out |= at.iter().any(|a| a.left_out > 0 && !short(a.k));
        any_short |= ks.iter().any(|k| short(*k));
        let cell = |x: Option<f64>, a: &AtK| match range {
            Some((_, hi)) if hi < a.k => Cell::new(
                format!("— ({hi} trial{})", if hi == 1 { "" } else { "s" }),
                String::new(),
            ),
            _ => cell(x, a),
        };
        let mut row = vec![
            Cell::text(&data.wave.id),
            Cell::seat(&s.seat),
            Cell::new(int(p.problems()), p.problems().to_string()),
            Cell::text(p.missing.to_string()),
            match range {
                Some((lo, hi)) if lo == hi => Cell::new(int(lo), format!("{lo}")),
                Some((lo, hi)) => Cell::new(format!("{lo}–{hi}"), format!("{lo}-{hi}")),
                None => Cell::none(),
            },
            Cell::text(p.infra_errors.to_string()),
        ];
        row.extend(at.iter().map(|a| cell(a.pass_at_k, a)));
        row.extend(at.iter().map(|a| cell(a.pass_hat_k, a)));
        t.rows.push(row);
        let key = |a: &AtK| a.k.to_string();
        seats.push(SeatTrialsJson {
            seat: s.seat.id.clone(),
            problems: p.problems(),
            missing: p.missing,
            trials_min: range.map(|r| r.0),
            trials_max: range.map(|r| r.1),
            infra_errors: p.infra_errors,
            pass_at_k: at.iter().map(|a| (key(a), a.pass_at_k)).collect(),
            pass_hat_k: at.iter().map(|a| (key(a), a.pass_hat_k)).collect(),
            problems_at_k: at.iter().map(|a| (key(a), a.problems)).collect(),
        });
    }
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
