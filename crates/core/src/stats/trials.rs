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
    /// For each trial number, (Correct, attempts).
    pub by_trial: BTreeMap<u32, (u64, u64)>,
}

impl SeatProblems {
    pub fn of(wave: &Wave, attempts: &[Attempt]) -> SeatProblems {
        let mut attempted: BTreeMap<String, Problem> = BTreeMap::new();
        let mut by_trial: BTreeMap<u32, (u64, u64)> = BTreeMap::new();
        let mut infra_errors = 0;
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
            by_trial,
        }
    }

    /// Problems in all: attempted and missing.
    pub fn problems(&self) -> u64 {
        self.attempted.len() as u64 + self.missing
    }

    /// The fewest and the most trials of an attempted problem.
    pub fn trial_range(&self) -> Option<(u64, u64)> {
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
    pub fn trial_accuracies(&self) -> Vec<(u32, f64)> {
        self.by_trial
            .iter()
            .map(|(t, (c, n))| (*t, *c as f64 / (*n + self.missing) as f64))
            .collect()
    }

    /// The mean of the trials' accuracies and the spread between the best and the worst, when
    /// the seat ran more than one trial of something.
    pub fn trial_accuracy(&self) -> Option<(f64, f64)> {
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
