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

impl Known<u64> {
    fn add(&mut self, v: Option<u64>) {
        if let Some(v) = v {
            self.sum += v;
            self.known += 1;
        }
    }
}

impl Known<f64> {
    fn add(&mut self, v: Option<f64>) {
        if let Some(v) = v {
            self.sum += v;
            self.known += 1;
        }
    }
}

/// The distinct problems a seat attempted, in order. Attempts come in ledger order (problem,
/// then trial), where a problem's trials sit together and dropping repeats is enough; any other
/// order is sorted first.
fn attempted(seat: &SeatData) -> Vec<&str> {
    let mut problems: Vec<&str> = seat.attempts.iter().map(|a| a.problem.as_str()).collect();
    if !problems.is_sorted() {
        problems.sort_unstable();
    }
    problems.dedup();
    problems
}

/// How many declared problems the seat has no attempt for.
pub fn missing_problems(suite: Option<&SuiteProblems>, seat: &SeatData) -> u64 {
    missing(suite, &attempted(seat))
}

/// How many declared problems are not among the `attempted` ones (sorted, distinct).
fn missing(suite: Option<&SuiteProblems>, attempted: &[&str]) -> u64 {
    match suite {
        None => 0,
        Some(SuiteProblems::Count(n)) => n.saturating_sub(attempted.len() as u64),
        Some(SuiteProblems::Ids(ids)) => ids
            .iter()
            .filter(|id| attempted.binary_search(&id.as_str()).is_err())
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
        let attempted = attempted(seat);
        let problems = attempted.len() as u64;
        let missing = missing(suite, &attempted);
        // One pass over the attempts; each sum still runs in attempt order, so it comes out
        // the same to the bit as a pass per sum.
        let none_u = || Known { sum: 0, known: 0 };
        let none_f = || Known { sum: 0.0, known: 0 };
        let mut correct = 0u64;
        let (mut input_tokens, mut output_tokens) = (none_u(), none_u());
        let (mut cache_read, mut cache_write) = (none_u(), none_u());
        let (mut tokens_total, mut new_input_tokens) = (none_u(), none_u());
        let (mut steps, mut errors) = (none_u(), none_u());
        let (mut wall_s, mut cost_usd) = (none_f(), none_f());
        for a in &seat.attempts {
            correct += u64::from(a.correct);
            input_tokens.add(a.input_tokens);
            output_tokens.add(a.output_tokens);
            cache_read.add(a.input_tokens_cache_read);
            cache_write.add(a.input_tokens_cache_write);
            tokens_total.add(a.tokens_total(accounting));
            new_input_tokens.add(a.new_input_tokens(accounting));
            wall_s.add(a.wall_s);
            cost_usd.add(a.cost_usd);
            steps.add(a.steps.map(u64::from));
            errors.add(a.errors.map(u64::from));
        }
        let attempts = seat.attempts.len() as u64;
        let denominator = attempts + missing;
        let accuracy = (denominator > 0).then(|| correct as f64 / denominator as f64);
        let cost_of_pass_usd =
            (correct > 0 && cost_usd.known == attempts).then(|| cost_usd.sum / correct as f64);
        SeatFigures {
            problems,
            attempts,
            correct,
            missing,
            denominator,
            accuracy,
            input_tokens,
            output_tokens,
            input_tokens_cache_read: cache_read,
            input_tokens_cache_write: cache_write,
            tokens_total,
            new_input_tokens,
            wall_s,
            cost_usd,
            cost_of_pass_usd,
            steps,
            errors,
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
    fn problems_are_counted_once_in_any_order() {
        // Ledger order keeps a problem's trials together; data built by hand may not.
        let s = seat(vec![
            attempt("c", true, None),
            attempt("a", false, None),
            attempt("c", false, None),
        ]);
        let ids = SuiteProblems::Ids(vec!["a".into(), "b".into(), "c".into()]);
        let f = SeatFigures::compute(Some(&ids), &Accounting::default(), &s);
        assert_eq!((f.problems, f.attempts, f.missing), (2, 3, 1));
        let f = SeatFigures::compute(Some(&SuiteProblems::Count(5)), &Accounting::default(), &s);
        assert_eq!((f.problems, f.missing, f.denominator), (2, 3, 6));
    }

    #[test]
    fn declared_ids_count_only_unattempted_problems_as_missing() {
        let s = seat(vec![attempt("a", true, None), attempt("c", false, None)]);
        let ids = SuiteProblems::Ids(vec!["a".into(), "b".into(), "c".into(), "d".into()]);
        let f = SeatFigures::compute(Some(&ids), &Accounting::default(), &s);
        assert_eq!((f.missing, f.denominator, f.accuracy), (2, 4, Some(0.25)));
    }
}
