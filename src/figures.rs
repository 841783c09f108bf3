//! The absolute figures of a seat in a wave: correct-rate with its denominator, tokens, wall
//! seconds, USD and Cost-of-Pass.
//!
//! These are the numbers every leaderboard prints *first*, before any composite (principle 1).
//! They are pure functions of a wave's data. Two rules shape them:
//!
//! - **The honest denominator.** Where the wave declares its suite's problems, every declared
//!   problem a seat has no attempt for counts as one attempt that is not Correct (`missing`),
//!   so accuracy = correct / (attempts + missing).
//! - **Absent is not zero.** Sums of tokens, wall seconds and USD run over the attempts where the
//!   quantity is known, and each carries the number of attempts it covers. Cost-of-Pass is
//!   total USD / number Correct (pooled, as in seed 000), and is undefined (`None`) when nothing
//!   is Correct or when any attempt's cost is unknown.
//!
//! Summation runs in the seat's attempt order (problem, then trial), which the ledger fixes, so
//! the same data gives the same bits on every machine.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::model::{Accounting, SeatData, SuiteProblems, Wave};

/// A sum over the attempts where a quantity is known.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Known<T> {
    pub sum: T,
    /// How many attempts the sum covers.
    pub known: u64,
}

/// A seat's absolute figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeatFigures {
    /// Distinct problems the seat attempted.
    pub problems: u64,
    /// Attempts made (problems × trials).
    pub attempts: u64,
    pub correct: u64,
    /// Declared problems the seat never attempted; each counts as an attempt that is not Correct.
    pub missing: u64,
    /// attempts + missing: what accuracy divides by.
    pub denominator: u64,
    /// correct / denominator; `None` when the denominator is 0.
    pub accuracy: Option<f64>,
    pub input_tokens: Known<u64>,
    pub output_tokens: Known<u64>,
    pub input_tokens_cache_read: Known<u64>,
    pub input_tokens_cache_write: Known<u64>,
    /// Everything read and written, normalised across accounting conventions.
    pub tokens_total: Known<u64>,
    /// Input tokens not served from a cache.
    pub new_input_tokens: Known<u64>,
    pub wall_s: Known<f64>,
    pub cost_usd: Known<f64>,
    /// Total USD / number Correct; `None` when nothing is Correct or any cost is unknown.
    pub cost_of_pass_usd: Option<f64>,
    pub steps: Known<u64>,
    pub errors: Known<u64>,
}

fn sum_u64(values: impl Iterator<Item = Option<u64>>) -> Known<u64> {
    let mut k = Known { sum: 0, known: 0 };
    for v in values.flatten() {
        k.sum += v;
        k.known += 1;
    }
    k
}

fn sum_f64(values: impl Iterator<Item = Option<f64>>) -> Known<f64> {
    let mut k = Known { sum: 0.0, known: 0 };
    for v in values.flatten() {
        k.sum += v;
        k.known += 1;
    }
    k
}

/// How many declared problems the seat has no attempt for.
pub fn missing_problems(suite: Option<&SuiteProblems>, seat: &SeatData) -> u64 {
    let attempted: BTreeSet<&str> = seat.attempts.iter().map(|a| a.problem.as_str()).collect();
    match suite {
        None => 0,
        Some(SuiteProblems::Count(n)) => n.saturating_sub(attempted.len() as u64),
        Some(SuiteProblems::Ids(ids)) => ids
            .iter()
            .filter(|id| !attempted.contains(id.as_str()))
            .count() as u64,
    }
}

impl SeatFigures {
    pub fn of(wave: &Wave, seat: &SeatData) -> SeatFigures {
        Self::compute(wave.suite_problems.as_ref(), &wave.accounting, seat)
    }

    pub fn compute(
        suite: Option<&SuiteProblems>,
        accounting: &Accounting,
        seat: &SeatData,
    ) -> SeatFigures {
        let at = &seat.attempts;
        let problems = at
            .iter()
            .map(|a| a.problem.as_str())
            .collect::<BTreeSet<_>>()
            .len() as u64;
        let attempts = at.len() as u64;
        let correct = at.iter().filter(|a| a.correct).count() as u64;
        let missing = missing_problems(suite, seat);
        let denominator = attempts + missing;
        let accuracy = (denominator > 0).then(|| correct as f64 / denominator as f64);
        let cost_usd = sum_f64(at.iter().map(|a| a.cost_usd));
        let cost_of_pass_usd =
            (correct > 0 && cost_usd.known == attempts).then(|| cost_usd.sum / correct as f64);
        SeatFigures {
            problems,
            attempts,
            correct,
            missing,
            denominator,
            accuracy,
            input_tokens: sum_u64(at.iter().map(|a| a.input_tokens)),
            output_tokens: sum_u64(at.iter().map(|a| a.output_tokens)),
            input_tokens_cache_read: sum_u64(at.iter().map(|a| a.input_tokens_cache_read)),
            input_tokens_cache_write: sum_u64(at.iter().map(|a| a.input_tokens_cache_write)),
            tokens_total: sum_u64(at.iter().map(|a| a.tokens_total(accounting))),
            new_input_tokens: sum_u64(at.iter().map(|a| a.new_input_tokens(accounting))),
            wall_s: sum_f64(at.iter().map(|a| a.wall_s)),
            cost_usd,
            cost_of_pass_usd,
            steps: sum_u64(at.iter().map(|a| a.steps.map(u64::from))),
            errors: sum_u64(at.iter().map(|a| a.errors.map(u64::from))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Attempt, Seat};

    fn attempt(problem: &str, correct: bool, cost: Option<f64>) -> Attempt {
        Attempt {
            problem: problem.into(),
            trial: 1,
            correct,
            outcome: None,
            input_tokens: Some(100),
            output_tokens: Some(10),
            input_tokens_cache_read: Some(40),
            input_tokens_cache_write: None,
            wall_s: Some(2.0),
            cost_usd: cost,
            steps: None,
            errors: None,
            checklist: None,
            trace: None,
        }
    }

    fn seat(attempts: Vec<Attempt>) -> SeatData {
        SeatData {
            seat: Seat {
                id: "s".into(),
                model: "m".into(),
                provider: "p".into(),
                harness: "h".into(),
                config: None,
            },
            attempts,
        }
    }

    #[test]
    fn swt_bench_denominator_divides_by_the_suite() {
        // 232 Correct of 426 attempted, suite of 433: 232/433, not 232/426.
        let attempts = (0..426)
            .map(|i| attempt(&format!("p{i:03}"), i < 232, Some(0.1)))
            .collect();
        let s = seat(attempts);
        let f = SeatFigures::compute(Some(&SuiteProblems::Count(433)), &Accounting::default(), &s);
        assert_eq!((f.correct, f.missing, f.denominator), (232, 7, 433));
        assert_eq!(f.accuracy, Some(232.0 / 433.0));
    }

    #[test]
    fn cost_of_pass_is_undefined_at_zero_correct_and_with_unknown_cost() {
        let acc = Accounting::default();
        let none_correct = seat(vec![attempt("a", false, Some(1.0))]);
        assert_eq!(
            SeatFigures::compute(None, &acc, &none_correct).cost_of_pass_usd,
            None
        );
        let unknown = seat(vec![
            attempt("a", true, Some(1.0)),
            attempt("b", true, None),
        ]);
        let f = SeatFigures::compute(None, &acc, &unknown);
        assert_eq!(f.cost_of_pass_usd, None);
        assert_eq!((f.cost_usd.sum, f.cost_usd.known), (1.0, 1));
        let known = seat(vec![
            attempt("a", true, Some(1.0)),
            attempt("b", false, Some(0.5)),
        ]);
        assert_eq!(
            SeatFigures::compute(None, &acc, &known).cost_of_pass_usd,
            Some(1.5)
        );
    }

    #[test]
    fn tokens_total_adds_cached_reads_only_where_input_excludes_them() {
        let s = seat(vec![attempt("a", true, None)]);
        let excl = Accounting {
            input_tokens_include_cache_reads: false,
            price_source: None,
        };
        let incl = Accounting {
            input_tokens_include_cache_reads: true,
            price_source: None,
        };
        assert_eq!(SeatFigures::compute(None, &excl, &s).tokens_total.sum, 150);
        assert_eq!(SeatFigures::compute(None, &incl, &s).tokens_total.sum, 110);
        assert_eq!(
            SeatFigures::compute(None, &excl, &s).new_input_tokens.sum,
            100
        );
        assert_eq!(
            SeatFigures::compute(None, &incl, &s).new_input_tokens.sum,
            60
        );
    }

    #[test]
    fn declared_ids_count_only_unattempted_problems_as_missing() {
        let s = seat(vec![attempt("a", true, None), attempt("c", false, None)]);
        let ids = SuiteProblems::Ids(vec!["a".into(), "b".into(), "c".into(), "d".into()]);
        let f = SeatFigures::compute(Some(&ids), &Accounting::default(), &s);
        assert_eq!((f.missing, f.denominator, f.accuracy), (2, 4, Some(0.25)));
    }
}
