//! A seat's repeated trials, problem by problem: how many trials each problem had, how many
//! passed, and the figures built on them (pass@k, pass^k, per-trial accuracy).
//!
//! The honest denominator holds here too: a declared problem the seat never attempted counts as
//! a problem whose every trial failed, at every k; an attempt that ended in an infrastructure
//! error is a failed trial, counted and flagged, never dropped.

use std::collections::BTreeMap;

use super::{pass_at_k, pass_hat_k};
use crate::model::{Attempt, SuiteProblems, Wave};

/// One problem's trials.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Problem {
    pub trials: u64,
    pub passed: u64,
}

/// A seat's problems: the attempted ones by id, and how many declared ones it never attempted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatProblems {
    pub attempted: BTreeMap<String, Problem>,
    pub missing: u64,
    /// Attempts that ended in an infrastructure error (counted as failed trials).
    pub infra_errors: u64,
    /// Of those, the ones flagged Correct all the same.
    pub infra_correct: u64,
    /// For each trial number, (Correct, attempts).
    pub by_trial: BTreeMap<u32, (u64, u64)>,
}

impl SeatProblems {
    pub fn of(wave: &Wave, attempts: &[Attempt]) -> SeatProblems {
        let mut attempted: BTreeMap<String, Problem> = BTreeMap::new();
        let mut by_trial: BTreeMap<u32, (u64, u64)> = BTreeMap::new();
        let (mut infra_errors, mut infra_correct) = (0, 0);
        for a in attempts {
            let p = attempted.entry(a.problem.clone()).or_insert(Problem {
                trials: 0,
                passed: 0,
            });
            p.trials += 1;
            p.passed += u64::from(a.correct);
            let t = by_trial.entry(a.trial).or_insert((0, 0));
            t.0 += u64::from(a.correct);
            t.1 += 1;
            infra_errors += u64::from(a.infra_error);
            infra_correct += u64::from(a.infra_error && a.correct);
        }
        let missing = match &wave.suite_problems {
            None => 0,
            Some(SuiteProblems::Ids(ids)) => ids
                .iter()
                .filter(|id| !attempted.contains_key(id.as_str()))
                .count() as u64,
            Some(SuiteProblems::Count(n)) => n.saturating_sub(attempted.len() as u64),
        };
        SeatProblems {
            attempted,
            missing,
            infra_errors,
            infra_correct,
            by_trial,
        }
    }

    /// Problems in all: attempted and missing.
    pub fn problems(&self) -> u64 {
        self.attempted.len() as u64 + self.missing
    }

    /// The fewest and the most trials of an attempted problem.
    pub(crate) fn trial_range(&self) -> Option<(u64, u64)> {
        let counts = self.attempted.values().map(|p| p.trials);
        Some((counts.clone().min()?, counts.max()?))
    }

    /// pass@k and pass^k at one k, averaged over the problems with at least k trials and the
    /// missing ones (each 0).
    pub fn at(&self, k: u64) -> AtK {
        let mut problems = self.missing;
        let (mut at, mut hat) = (0.0, 0.0);
        for p in self.attempted.values() {
            if let (Some(a), Some(h)) = (
                pass_at_k(p.trials, p.passed, k),
                pass_hat_k(p.trials, p.passed, k),
            ) {
                at += a;
                hat += h;
                problems += 1;
            }
        }
        let mean = |sum: f64| (problems > 0).then(|| sum / problems as f64);
        AtK {
            k,
            problems,
            left_out: self.problems() - problems,
            pass_at_k: mean(at),
            pass_hat_k: mean(hat),
        }
    }

    /// Each trial number's accuracy: its Correct attempts over the problems that had that trial
    /// and the missing ones.
    pub(crate) fn trial_accuracies(&self) -> Vec<(u32, f64)> {
        self.by_trial
            .iter()
            .map(|(t, (c, n))| (*t, *c as f64 / (*n + self.missing) as f64))
            .collect()
    }

    /// The mean of the trials' accuracies and the spread between the best and the worst, when
    /// the seat ran more than one trial of something.
    pub(crate) fn trial_accuracy(&self) -> Option<(f64, f64)> {
        let acc = self.trial_accuracies();
        if acc.len() < 2 {
            return None;
        }
        let mean = acc.iter().map(|(_, a)| a).sum::<f64>() / acc.len() as f64;
        let (lo, hi) = acc
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (_, a)| {
                (lo.min(*a), hi.max(*a))
            });
        Some((mean, hi - lo))
    }
}

/// A seat's accuracy as the mean of its problems' pass rates, with its standard error
/// clustered by problem (Miller 2024, "Adding Error Bars to Evals", eq. 4) beside the naive one
/// that takes every attempt as independent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Clustered {
    /// x̄ = (1/P) Σ_p m_p, m_p the share of the seat's trials of problem p that passed (a
    /// missing problem counting as one failed trial), over the P problems.
    pub mean_per_problem: f64,
    /// sqrt(Σ_p (m_p − x̄)²) / P: no small-sample correction.
    pub se: f64,
    /// sqrt(x̄ (1 − x̄) / n), n = attempts + missing problems.
    pub se_naive: f64,
    /// P.
    pub problems: u64,
}

/// Where infrastructure errors could put a seat's accuracy: counted as failures (as every
/// listing counts them), counted as passes, and left out of numerator and denominator. Missing
/// problems stay in every denominator as failures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InfraBounds {
    pub as_failures: f64,
    pub as_passes: f64,
    pub excluded: Option<f64>,
}

impl SeatProblems {
    /// The per-problem mean and its standard errors; `None` without a problem. Sums run in
    /// problem order, the missing problems last.
    pub fn clustered(&self) -> Option<Clustered> {
        let p = self.problems();
        if p == 0 {
            return None;
        }
        let rate = |q: &Problem| q.passed as f64 / q.trials as f64;
        // From +0.0 (an empty `sum` of floats is −0.0, which would print as such).
        let total = self.attempted.values().fold(0.0, |acc, q| acc + rate(q));
        let mean = total / p as f64;
        let square = |d: f64| d * d;
        let spread = self
            .attempted
            .values()
            .fold(0.0, |acc, q| acc + square(rate(q) - mean))
            + self.missing as f64 * square(mean);
        let attempts: u64 = self.attempted.values().map(|q| q.trials).sum();
        let n = (attempts + self.missing) as f64;
        Some(Clustered {
            mean_per_problem: mean,
            se: spread.sqrt() / p as f64,
            se_naive: (mean * (1.0 - mean) / n).max(0.0).sqrt(),
            problems: p,
        })
    }

    /// Whether the per-problem mean is the pooled accuracy: every attempted problem has the
    /// same number of trials, and none is missing unless that number is 1 (a missing problem
    /// counts as one failed trial in both), or nothing was attempted.
    pub(crate) fn balanced(&self) -> bool {
        match self.trial_range() {
            None => true,
            Some((lo, hi)) => lo == hi && (self.missing == 0 || lo == 1),
        }
    }

    /// The accuracy with infrastructure errors as failures, as passes and left out; `None`
    /// when the seat has none.
    pub(crate) fn infra_bounds(&self) -> Option<InfraBounds> {
        if self.infra_errors == 0 {
            return None;
        }
        let attempts: u64 = self.attempted.values().map(|q| q.trials).sum();
        let passed: u64 = self.attempted.values().map(|q| q.passed).sum();
        let sure = (passed - self.infra_correct) as f64;
        let all = (attempts + self.missing) as f64;
        let left = all - self.infra_errors as f64;
        Some(InfraBounds {
            as_failures: sure / all,
            as_passes: (sure + self.infra_errors as f64) / all,
            excluded: (left > 0.0).then(|| sure / left),
        })
    }
}

/// pass@k and pass^k at one k.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AtK {
    pub k: u64,
    /// Problems the figures average over: those with at least k trials, and the missing.
    pub problems: u64,
    /// Attempted problems with fewer than k trials, left out.
    pub left_out: u64,
    pub pass_at_k: Option<f64>,
    pub pass_hat_k: Option<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::testing;

    fn wave(suite: Option<SuiteProblems>) -> Wave {
        testing::wave_of(suite)
    }

    fn attempt(problem: &str, trial: u32, correct: bool, infra: bool) -> Attempt {
        Attempt {
            infra_error: infra,
            ..testing::attempt(problem, trial, correct)
        }
    }

    #[test]
    fn five_trials_a_problem_by_hand() {
        // p1: 5 trials, 3 passed; p2: 5 trials, 0 passed (one an infrastructure error);
        // p3: 3 trials, 3 passed; p4 declared, never attempted.
        let mut a = Vec::new();
        for t in 1..=5 {
            a.push(attempt("p1", t, t <= 3, false));
            a.push(attempt("p2", t, false, t == 2));
        }
        for t in 1..=3 {
            a.push(attempt("p3", t, true, false));
        }
        let s = SeatProblems::of(&wave(Some(SuiteProblems::Count(4))), &a);
        assert_eq!((s.problems(), s.missing, s.infra_errors), (4, 1, 1));
        assert_eq!(s.trial_range(), Some((3, 5)));
        // k = 1: (3/5 + 0 + 1 + 0) / 4 = 0.4 for both.
        let k1 = s.at(1);
        assert_eq!((k1.problems, k1.left_out), (4, 0));
        assert!((k1.pass_at_k.unwrap() - 0.4).abs() < 1e-15);
        assert!((k1.pass_hat_k.unwrap() - 0.4).abs() < 1e-15);
        // k = 2: pass@2 = (1 − C(2,2)/C(5,2) + 0 + 1 + 0) / 4 = (0.9 + 1) / 4 = 0.475;
        // pass^2 = (C(3,2)/C(5,2) + 0 + 1 + 0) / 4 = (0.3 + 1) / 4 = 0.325.
        let k2 = s.at(2);
        assert!((k2.pass_at_k.unwrap() - 0.475).abs() < 1e-15);
        assert!((k2.pass_hat_k.unwrap() - 0.325).abs() < 1e-15);
        // k = 4: p3 (3 trials) left out: pass@4 = (1 + 0 + 0) / 3, pass^4 = 0.
        let k4 = s.at(4);
        assert_eq!((k4.problems, k4.left_out), (3, 1));
        assert!((k4.pass_at_k.unwrap() - 1.0 / 3.0).abs() < 1e-15);
        assert_eq!(k4.pass_hat_k, Some(0.0));
        // Trials 1..3: 2 Correct of 3 problems + 1 missing = 0.5; trials 4, 5: 0 of 2 + 1 = 0.
        let acc = s.trial_accuracies();
        assert_eq!(acc, vec![(1, 0.5), (2, 0.5), (3, 0.5), (4, 0.0), (5, 0.0)]);
        let (mean, spread) = s.trial_accuracy().unwrap();
        assert!((mean - 0.3).abs() < 1e-15);
        assert_eq!(spread, 0.5);
    }

    #[test]
    fn the_clustered_standard_error_by_hand() {
        // p1: trials 1, 0 → 0.5; p2: 1, 1, 1 → 1; p3 declared, missing → 0.
        let a = vec![
            attempt("p1", 1, true, false),
            attempt("p1", 2, false, true),
            attempt("p2", 1, true, false),
            attempt("p2", 2, true, false),
            attempt("p2", 3, true, false),
        ];
        let s = SeatProblems::of(&wave(Some(SuiteProblems::Count(3))), &a);
        let c = s.clustered().unwrap();
        // x̄ = (0.5 + 1 + 0) / 3 = 0.5; Σ (m − x̄)² = 0 + 0.25 + 0.25 = 0.5.
        assert_eq!(c.mean_per_problem, 0.5);
        assert!((c.se - 0.5f64.sqrt() / 3.0).abs() < 1e-15, "{c:?}");
        // n = 5 attempts + 1 missing: sqrt(0.25 / 6).
        assert!((c.se_naive - (0.25f64 / 6.0).sqrt()).abs() < 1e-15, "{c:?}");
        assert_eq!(c.problems, 3);
        assert!(!s.balanced());
        // One infrastructure error (p1's trial 2): 4 of 6 as a failure, 5 of 6 as a pass,
        // 4 of 5 left out.
        let b = s.infra_bounds().unwrap();
        assert_eq!((b.as_failures, b.as_passes), (4.0 / 6.0, 5.0 / 6.0));
        assert_eq!(b.excluded, Some(4.0 / 5.0));
        assert_eq!(SeatProblems::of(&wave(None), &a[2..]).infra_bounds(), None);
        assert!(SeatProblems::of(&wave(None), &a[2..]).balanced());
    }

    /// Over 1,000 simulated waves of 50 problems × 4 trials, each problem easy (passed with
    /// probability 0.9) or hard (0.1) with even odds, so that trials are correlated within a
    /// problem and the true rate is 0.5: the 95 % interval x̄ ± 1.959964 · `se` covers 0.5 at
    /// least 93 % of the time, while the naive one (every attempt independent) covers it far
    /// less often.
    #[test]
    fn the_clustered_interval_covers_where_the_naive_one_does_not() {
        let mut world = crate::stats::bootstrap::Draws::new(2028);
        let (mut clustered, mut naive) = (0, 0);
        for _ in 0..1000 {
            let mut a = Vec::new();
            for p in 0..50 {
                let rate = if world.below(2) == 0 { 9 } else { 1 };
                for t in 1..=4 {
                    a.push(attempt(
                        &format!("p{p:02}"),
                        t,
                        world.below(10) < rate,
                        false,
                    ));
                }
            }
            let c = SeatProblems::of(&wave(None), &a).clustered().unwrap();
            let covers = |se: f64| (c.mean_per_problem - 0.5).abs() <= 1.959964 * se;
            clustered += u32::from(covers(c.se));
            naive += u32::from(covers(c.se_naive));
        }
        assert!(
            clustered >= 930,
            "clustered {clustered}, naive {naive} of 1000"
        );
        assert!(naive < 850, "clustered {clustered}, naive {naive} of 1000");
    }

    #[test]
    fn one_trial_has_no_spread() {
        let a = vec![
            attempt("p1", 1, true, false),
            attempt("p2", 1, false, false),
        ];
        let s = SeatProblems::of(&wave(None), &a);
        assert_eq!(s.trial_accuracy(), None);
        assert_eq!(s.at(1).pass_at_k, Some(0.5));
        assert_eq!(s.at(2).pass_at_k, None);
        assert_eq!(s.at(2).left_out, 2);
    }
}
