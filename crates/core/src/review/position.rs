//! Where a submission would stand on a wave of the ledger (`review --against WAVE`): each of
//! its seats ranked among the wave's seats on the problems the wave holds, and compared with
//! the leader and its neighbours by the paired test `versus` uses (Miller 2024): a lead that
//! the data cannot separate from noise is said plainly. A position is a note for the
//! maintainer, never a finding: a submission is not rejected for ranking low.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::{SuiteProblems, WaveData};
use crate::stats::bootstrap::Settings;
use crate::stats::trials::Problem;
use crate::stats::versus::{ALPHA, Paired};

/// A seat beside the submission's, compared with it.
#[derive(Debug, Clone, PartialEq)]
pub struct Neighbour {
    pub seat: String,
    pub accuracy: f64,
    /// The submission's seat's accuracy minus this one's, on the problems both attempted.
    pub difference: Option<f64>,
    /// The p-value of the test the verdict rests on (`paired` with several trials, else
    /// McNemar's).
    pub p: f64,
    pub test: &'static str,
    /// Whether the data separate the two (p below 0.05).
    pub separable: bool,
}

/// One seat of the submission, placed.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    pub seat: String,
    pub accuracy: f64,
    /// 1-based, among the wave's seats and this one.
    pub rank: usize,
    pub of: usize,
    pub leader: Option<Neighbour>,
    pub above: Option<Neighbour>,
    pub below: Option<Neighbour>,
}

/// The submission's place on a wave.
#[derive(Debug, Clone, PartialEq)]
pub struct Position {
    pub wave: String,
    /// The wave's problems the comparison runs on.
    pub problems: u64,
    /// The submission's problems the wave does not hold (left out).
    pub outside: u64,
    pub seats: Vec<Placed>,
    pub notes: Vec<String>,
}

/// A seat's problems restricted to `keep`.
fn problems_of(
    attempts: &[crate::model::Attempt],
    keep: &BTreeSet<String>,
) -> BTreeMap<String, Problem> {
    let mut out: BTreeMap<String, Problem> = BTreeMap::new();
    for a in attempts.iter().filter(|a| keep.contains(&a.problem)) {
        let p = out.entry(a.problem.clone()).or_insert(Problem {
            trials: 0,
            passed: 0,
        });
        p.trials += 1;
        p.passed += u64::from(a.correct);
    }
    out
}

/// Mean over the wave's problems of the share of Correct trials (a problem not attempted: 0).
fn accuracy(p: &BTreeMap<String, Problem>, n: usize) -> f64 {
    if n == 0 {
        return 0.0;
    }
    p.values()
        .map(|p| p.passed as f64 / p.trials as f64)
        .sum::<f64>()
        / n as f64
}

fn neighbour(
    mine: &BTreeMap<String, Problem>,
    seat: &str,
    theirs: &BTreeMap<String, Problem>,
    n: usize,
) -> Neighbour {
    let paired = Paired::of(mine, theirs, &Settings::default());
    let p = match (&paired.test, paired.trials) {
        (Some(t), true) => t.p,
        _ => paired.mcnemar_p,
    };
    Neighbour {
        seat: seat.to_string(),
        accuracy: accuracy(theirs, n),
        difference: paired.diff,
        p,
        test: paired.verdict_test(),
        separable: paired.shared > 0 && p < ALPHA,
    }
}

pub(super) fn position(against: &WaveData, submission: &[WaveData]) -> Position {
    let mut keep: BTreeSet<String> = match &against.wave.suite_problems {
        Some(SuiteProblems::Ids(ids)) => ids.iter().cloned().collect(),
        _ => BTreeSet::new(),
    };
    for s in &against.seats {
        keep.extend(s.attempts.iter().map(|a| a.problem.clone()));
    }
    let n = keep.len();
    let theirs: Vec<(String, BTreeMap<String, Problem>)> = against
        .seats
        .iter()
        .map(|s| (s.seat.id.clone(), problems_of(&s.attempts, &keep)))
        .collect();
    let mut outside = BTreeSet::new();
    let mut seats = Vec::new();
    let mut notes = Vec::new();
    for w in submission {
        for s in &w.seats {
            outside.extend(
                s.attempts
                    .iter()
                    .filter(|a| !keep.contains(&a.problem))
                    .map(|a| a.problem.clone()),
            );
            let mine = problems_of(&s.attempts, &keep);
            let acc = accuracy(&mine, n);
            // Ranked by accuracy, best first; a tie ranks the submission after the wave's seat.
            let mut ranked: Vec<(f64, usize)> = theirs
                .iter()
                .enumerate()
                .map(|(i, (_, p))| (accuracy(p, n), i))
                .collect();
            ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            let above_me = ranked.iter().filter(|(a, _)| *a >= acc).count();
            let cmp = |i: usize| neighbour(&mine, &theirs[i].0, &theirs[i].1, n);
            let leader = ranked.first().map(|(_, i)| cmp(*i));
            let above = above_me.checked_sub(1).map(|k| cmp(ranked[k].1));
            let below = ranked.get(above_me).map(|(_, i)| cmp(*i));
            let placed = Placed {
                seat: s.seat.id.clone(),
                accuracy: acc,
                rank: above_me + 1,
                of: theirs.len() + 1,
                leader,
                above,
                below,
            };
            notes.push(note(&placed, &against.wave.id, n));
            seats.push(placed);
        }
    }
    Position {
        wave: against.wave.id.clone(),
        problems: n as u64,
        outside: outside.len() as u64,
        seats,
        notes,
    }
}

/// The position in words, saying plainly when a lead (or a gap) is within noise.
fn note(p: &Placed, wave: &str, n: usize) -> String {
    let mut s = format!(
        "on the {n} problems of wave {wave}, seat {} ({}) would rank {} of {}",
        p.seat,
        crate::number::percent(p.accuracy),
        p.rank,
        p.of
    );
    let said = |n: &Neighbour| {
        format!(
            "{} ({} test p = {})",
            n.seat,
            n.test,
            crate::number::fixed(n.p, 4)
        )
    };
    if p.rank == 1 {
        match &p.below {
            Some(b) if !b.separable => s.push_str(&format!(
                "; its lead over {} is within run-to-run noise: the data cannot separate them",
                said(b)
            )),
            Some(b) => s.push_str(&format!("; ahead of {}", said(b))),
            None => {}
        }
    } else if let Some(l) = &p.leader {
        if l.separable {
            s.push_str(&format!("; behind the leader {}", said(l)));
        } else {
            s.push_str(&format!(
                "; the data cannot separate it from the leader {}",
                said(l)
            ));
        }
    }
    s
}
