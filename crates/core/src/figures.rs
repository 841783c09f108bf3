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
//!   quantity is known, and each carries the number of attempts it covers. The one exception is
//!   cached reads and writes: a result that leaves them out had none (the convention
//!   `tokens_total` already follows), so their sums cover every attempt. Cost-of-Pass is
//!   total USD / number Correct (pooled, as in seed 000), and is undefined (`None`) when nothing
//!   is Correct or when any attempt's cost is unknown.
//!
//! Summation runs in the seat's attempt order (problem, then trial), which the ledger fixes, so
//! the same data gives the same bits on every machine.
//!
//! The figures are running totals ([`FigureTally`]): a seat's attempts can be fed one at a time,
//! as the ledger reads them, and never held together. A seat held whole is tallied the same way,
//! so both give the same figures to the bit.

use std::borrow::Cow;

use serde::Serialize;

use crate::model::{Accounting, Attempt, AttemptFields, SeatData, SuiteProblems, Wave};
pub use crate::model::{Known, SeatTotals};

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
    /// The sum over attempts of the graded outcome, or 1/0 from Correct where none is graded
    /// (always known).
    pub outcome_sum: f64,
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
    /// The wave's canary problems the seat did not pass in any trial, missing ones included
    /// (0 when the wave declares none).
    pub canary_failures: u64,
}

/// What a wave's seats are counted against: how the wave counted tokens, the problems its
/// suite declares (ids sorted, so that one lookup per attempted problem says whether it was
/// declared), and its canary problems (sorted; in a resampled wave, a canary drawn twice is
/// listed twice).
#[derive(Debug, Clone)]
pub struct Basis<'a> {
    accounting: &'a Accounting,
    suite: Suite<'a>,
    canaries: Cow<'a, [String]>,
}

#[derive(Debug, Clone)]
enum Suite<'a> {
    Undeclared,
    Count(u64),
    Ids(Cow<'a, [String]>),
}

impl<'a> Basis<'a> {
    pub fn of(wave: &'a Wave) -> Basis<'a> {
        let mut b = Self::new(wave.suite_problems.as_ref(), &wave.accounting);
        b.canaries = if wave.canary_problems.is_sorted() {
            Cow::Borrowed(&wave.canary_problems)
        } else {
            let mut sorted = wave.canary_problems.clone();
            sorted.sort_unstable();
            Cow::Owned(sorted)
        };
        b
    }

    /// A basis without canary problems.
    pub fn new(suite: Option<&'a SuiteProblems>, accounting: &'a Accounting) -> Basis<'a> {
        let suite = match suite {
            None => Suite::Undeclared,
            Some(SuiteProblems::Count(n)) => Suite::Count(*n),
            // The ledger and ingest keep ids sorted; ids built by hand may not be.
            Some(SuiteProblems::Ids(ids)) if ids.is_sorted() => Suite::Ids(Cow::Borrowed(ids)),
            Some(SuiteProblems::Ids(ids)) => {
                let mut sorted = ids.clone();
                sorted.sort_unstable();
                Suite::Ids(Cow::Owned(sorted))
            }
        };
        Basis {
            accounting,
            suite,
            canaries: Cow::Borrowed(&[]),
        }
    }

    /// Whether `problem` is a canary problem.
    fn is_canary(&self, problem: &str) -> bool {
        !self.canaries.is_empty()
            && self
                .canaries
                .binary_search_by(|c| c.as_str().cmp(problem))
                .is_ok()
    }

    /// How many of the declared ids are `problem` (0 or 1 in any ledger).
    fn declared(&self, problem: &str) -> u64 {
        match &self.suite {
            Suite::Ids(ids) => {
                let lo = ids.partition_point(|id| id.as_str() < problem);
                let hi = lo + ids[lo..].partition_point(|id| id.as_str() == problem);
                (hi - lo) as u64
            }
            _ => 0,
        }
    }
}

/// A seat's figures as running totals, fed one attempt at a time, so that a seat's figures
/// never need its attempts held together: [`FigureTally::add`] each attempt in ledger order
/// (problem, then trial), then read [`FigureTally::figures`].
///
/// Every sum runs in the order the attempts are added, from the same starting value as a sum
/// over a seat's attempts held whole, so it comes out the same to the bit. Distinct problems
/// are counted against the previous attempt's problem, which is exact in ledger order; a seat's
/// attempts held in another order are recounted by `FigureTally::of_attempts`.
#[derive(Debug, Clone)]
pub struct FigureTally {
    attempts: u64,
    correct: u64,
    /// Distinct problems attempted (problem changes, in ledger order).
    problems: u64,
    /// How many declared ids those problems match.
    declared: u64,
    /// The previous attempt's problem.
    last: String,
    /// Every attempt so far came in problem order.
    in_order: bool,
    outcome_sum: f64,
    input_tokens: Known<u64>,
    output_tokens: Known<u64>,
    cache_read: Known<u64>,
    cache_write: Known<u64>,
    tokens_total: Known<u64>,
    new_input_tokens: Known<u64>,
    wall_s: Known<f64>,
    cost_usd: Known<f64>,
    steps: Known<u64>,
    errors: Known<u64>,
    /// Canary problems (each draw of one, in a resampled wave) with a Correct trial.
    canaries_passed: u64,
    /// The current problem is a canary not yet passed.
    canary_open: bool,
}

impl Default for FigureTally {
    fn default() -> Self {
        FigureTally {
            attempts: 0,
            correct: 0,
            problems: 0,
            declared: 0,
            last: String::new(),
            in_order: true,
            // The starting value of `Iterator::sum` for floats: -0.0 + x is x for every x,
            // -0.0 included.
            outcome_sum: -0.0,
            input_tokens: Known::<u64>::NONE,
            output_tokens: Known::<u64>::NONE,
            cache_read: Known::<u64>::NONE,
            cache_write: Known::<u64>::NONE,
            tokens_total: Known::<u64>::NONE,
            new_input_tokens: Known::<u64>::NONE,
            wall_s: Known::<f64>::NONE,
            cost_usd: Known::<f64>::NONE,
            steps: Known::<u64>::NONE,
            errors: Known::<u64>::NONE,
            canaries_passed: 0,
            canary_open: false,
        }
    }
}

impl FigureTally {
    pub fn new() -> FigureTally {
        FigureTally::default()
    }

    /// Adds one attempt.
    pub fn add(&mut self, basis: &Basis<'_>, a: &Attempt) {
        let new_problem = if self.attempts == 0 {
            true
        } else {
            match a.problem.as_str().cmp(self.last.as_str()) {
                std::cmp::Ordering::Equal => false,
                std::cmp::Ordering::Greater => true,
                std::cmp::Ordering::Less => {
                    self.in_order = false;
                    true
                }
            }
        };
        if new_problem {
            self.last.clear();
            self.last.push_str(&a.problem);
        }
        self.add_counted(basis, a, new_problem);
    }

    /// Adds one attempt of a resampled wave, where the same problem may be drawn more than
    /// once: `first` says that it opens a drawn problem, and every draw of a problem counts as
    /// a problem of its own. (Problems are then told apart by the caller, not by their ids: a
    /// tally fed this way is fed only this way.)
    pub(crate) fn add_drawn(&mut self, basis: &Basis<'_>, a: &Attempt, first: bool) {
        self.add_counted(basis, a, first);
    }

    fn add_counted(&mut self, basis: &Basis<'_>, a: &Attempt, new_problem: bool) {
        if new_problem {
            self.problems += 1;
            self.declared += basis.declared(&a.problem);
            self.canary_open = basis.is_canary(&a.problem);
        }
        if a.correct && self.canary_open {
            self.canaries_passed += 1;
            self.canary_open = false;
        }
        let accounting = basis.accounting;
        self.attempts += 1;
        self.correct += u64::from(a.correct);
        self.outcome_sum += a.outcome_or_verdict();
        self.input_tokens.add(a.input_tokens);
        self.output_tokens.add(a.output_tokens);
        // A result that leaves out cached reads or writes had none as far as `tokens_total` is
        // concerned, but their own sums cover only the attempts that record them: a format
        // that cannot record them leaves them unknown, not 0.
        self.cache_read.add(a.input_tokens_cache_read);
        self.cache_write.add(a.input_tokens_cache_write);
        self.tokens_total.add(a.tokens_total(accounting));
        self.new_input_tokens.add(a.new_input_tokens(accounting));
        self.wall_s.add(a.wall_s);
        self.cost_usd.add(a.cost_usd);
        self.steps.add(a.steps.map(u64::from));
        self.errors.add(a.errors.map(u64::from));
    }

    /// A seat's attempts held whole, in any order, tallied.
    pub(crate) fn of_attempts(basis: &Basis<'_>, attempts: &[Attempt]) -> FigureTally {
        let mut t = FigureTally::new();
        for a in attempts {
            t.add(basis, a);
        }
        t.recount_problems(basis, attempts);
        t
    }

    /// After the attempts of a seat held whole were added: when they did not come in problem
    /// order (data built by hand), counts their distinct problems again, from the attempts
    /// themselves. Attempts in ledger order are left as counted.
    pub(crate) fn recount_problems(&mut self, basis: &Basis<'_>, attempts: &[Attempt]) {
        if self.in_order {
            return;
        }
        let mut problems: Vec<&str> = attempts.iter().map(|a| a.problem.as_str()).collect();
        problems.sort_unstable();
        problems.dedup();
        self.problems = problems.len() as u64;
        self.declared = problems.iter().map(|p| basis.declared(p)).sum();
        let mut passed: Vec<&str> = attempts
            .iter()
            .filter(|a| a.correct && basis.is_canary(&a.problem))
            .map(|a| a.problem.as_str())
            .collect();
        passed.sort_unstable();
        passed.dedup();
        self.canaries_passed = passed.len() as u64;
        self.in_order = true;
    }

    /// The figures of the attempts added so far.
    pub fn figures(&self, basis: &Basis<'_>) -> SeatFigures {
        let missing = match &basis.suite {
            Suite::Undeclared => 0,
            Suite::Count(n) => n.saturating_sub(self.problems),
            // Each attempted problem matches a declared id at most as often as it is declared.
            Suite::Ids(ids) => (ids.len() as u64).saturating_sub(self.declared),
        };
        let (attempts, correct) = (self.attempts, self.correct);
        // Attempts are rows and a suite the manifest or the ledger can declare holds at most
        // i64::MAX problems, so this cannot saturate but for a suite built by hand.
        let denominator = attempts.saturating_add(missing);
        let accuracy = (denominator > 0).then(|| correct as f64 / denominator as f64);
        let cost_usd = self.cost_usd;
        let cost_of_pass_usd =
            (correct > 0 && cost_usd.known == attempts).then(|| cost_usd.sum / correct as f64);
        SeatFigures {
            problems: self.problems,
            attempts,
            correct,
            missing,
            denominator,
            accuracy,
            outcome_sum: self.outcome_sum,
            input_tokens: self.input_tokens,
            output_tokens: self.output_tokens,
            input_tokens_cache_read: self.cache_read,
            input_tokens_cache_write: self.cache_write,
            tokens_total: self.tokens_total,
            new_input_tokens: self.new_input_tokens,
            wall_s: self.wall_s,
            cost_usd,
            cost_of_pass_usd,
            steps: self.steps,
            errors: self.errors,
            canary_failures: (basis.canaries.len() as u64).saturating_sub(self.canaries_passed),
        }
    }
}

/// A tally laid out as numbers, for resampling from per-problem sums (`stats::sums`): a
/// tally of a resample is Σ count × the columns of each drawn problem's tally. Counts and
/// integer sums are held as `f64`, exact while they stay below 2⁵³ (the caller checks that no
/// resample can carry one past it); the columns in `FigureTally::FLOAT_COLUMNS` are sums of
/// real numbers.
impl FigureTally {
    /// How many columns [`FigureTally::columns`] writes.
    pub const COLUMNS: usize = 26;
    /// The columns holding sums of real numbers: outcomes, wall seconds, USD.
    pub(crate) const FLOAT_COLUMNS: [usize; 3] = [5, 18, 20];

    /// Attempts added so far.
    pub fn attempts(&self) -> u64 {
        self.attempts
    }

    /// Appends the tally's totals (see `FigureTally::from_columns`).
    pub fn columns(&self, out: &mut Vec<f64>) {
        let n = |v: u64| v as f64;
        out.extend([
            n(self.attempts),
            n(self.correct),
            n(self.problems),
            n(self.declared),
            n(self.canaries_passed),
            self.outcome_sum,
        ]);
        for k in [
            self.input_tokens,
            self.output_tokens,
            self.cache_read,
            self.cache_write,
            self.tokens_total,
            self.new_input_tokens,
        ] {
            out.extend([n(k.sum), n(k.known)]);
        }
        for k in [self.wall_s, self.cost_usd] {
            out.extend([k.sum, n(k.known)]);
        }
        for k in [self.steps, self.errors] {
            out.extend([n(k.sum), n(k.known)]);
        }
    }

    /// The tally whose totals are `c` (laid out as [`FigureTally::columns`] writes them): the
    /// tally of a resampled wave, read as [`FigureTally::add_drawn`] leaves one.
    pub(crate) fn from_columns(c: &[f64]) -> FigureTally {
        let n = |i: usize| c[i] as u64;
        let k = |i: usize| Known {
            sum: n(i),
            known: n(i + 1),
        };
        FigureTally {
            attempts: n(0),
            correct: n(1),
            problems: n(2),
            declared: n(3),
            canaries_passed: n(4),
            outcome_sum: c[5],
            input_tokens: k(6),
            output_tokens: k(8),
            cache_read: k(10),
            cache_write: k(12),
            tokens_total: k(14),
            new_input_tokens: k(16),
            wall_s: Known {
                sum: c[18],
                known: n(19),
            },
            cost_usd: Known {
                sum: c[20],
                known: n(21),
            },
            steps: k(22),
            errors: k(24),
            ..FigureTally::default()
        }
    }
}

impl FigureTally {
    /// The fields of an attempt a tally reads: a tally of attempts read with these is the one
    /// of the whole attempts.
    pub(crate) const FIELDS: AttemptFields = AttemptFields {
        outcome: true,
        input_tokens: true,
        output_tokens: true,
        input_tokens_cache_read: true,
        input_tokens_cache_write: true,
        wall_s: true,
        cost_usd: true,
        steps: true,
        errors: true,
        ..AttemptFields::NONE
    };

    /// The totals of the attempts added so far (attempts added out of problem order: recount
    /// them first, as `FigureTally::of_attempts` does).
    pub fn totals(&self) -> SeatTotals {
        SeatTotals {
            attempts: self.attempts,
            correct: self.correct,
            problems: self.problems,
            declared: self.declared,
            canaries_passed: self.canaries_passed,
            outcome_sum: self.outcome_sum,
            input_tokens: self.input_tokens,
            output_tokens: self.output_tokens,
            cache_read: self.cache_read,
            cache_write: self.cache_write,
            tokens_total: self.tokens_total,
            new_input_tokens: self.new_input_tokens,
            wall_s: self.wall_s,
            cost_usd: self.cost_usd,
            steps: self.steps,
            errors: self.errors,
        }
    }

    /// Whether [`FigureTally::from_totals`] can give the tally of attempts read with `fields`:
    /// not when a token total (everything read and written, or new input) would be summed with
    /// one cache column read and not the other, or with neither while both inputs and outputs
    /// are read; those per-attempt values are other sums than the ones the totals keep.
    pub fn totals_give(fields: AttemptFields) -> bool {
        let (read, write) = (
            fields.input_tokens_cache_read,
            fields.input_tokens_cache_write,
        );
        let both = read && write;
        let tokens_total = !(fields.input_tokens && fields.output_tokens) || both;
        let new_input = !fields.input_tokens || both || (!read && !write);
        tokens_total && new_input
    }

    /// The tally that adding a seat's attempts, read with only `fields`, would have made, from
    /// their totals with every field read; to the bit. `None` where the totals cannot say
    /// ([`FigureTally::totals_give`]). Fields not read leave a tally as reading the attempts does:
    /// a measure unknown for every attempt and an outcome sum of the verdicts.
    pub fn from_totals(t: &SeatTotals, fields: AttemptFields) -> Option<FigureTally> {
        if !FigureTally::totals_give(fields) {
            return None;
        }
        let read = |on: bool, k: Known<u64>| if on { k } else { Known::<u64>::NONE };
        let read_f = |on: bool, k: Known<f64>| if on { k } else { Known::<f64>::NONE };
        let both_caches = fields.input_tokens_cache_read && fields.input_tokens_cache_write;
        let tokens_total = if fields.input_tokens && fields.output_tokens {
            t.tokens_total
        } else {
            Known::<u64>::NONE
        };
        let new_input_tokens = if !fields.input_tokens {
            Known::<u64>::NONE
        } else if both_caches {
            t.new_input_tokens
        } else {
            // Read without either cache column, an attempt's new input is its input.
            t.input_tokens
        };
        let outcome_sum = if fields.outcome {
            t.outcome_sum
        } else if t.attempts == 0 {
            -0.0
        } else {
            // Σ of 1.0 or 0.0 per attempt from -0.0: whole numbers, exact in any order.
            t.correct as f64
        };
        Some(FigureTally {
            attempts: t.attempts,
            correct: t.correct,
            problems: t.problems,
            declared: t.declared,
            last: String::new(),
            in_order: true,
            outcome_sum,
            input_tokens: read(fields.input_tokens, t.input_tokens),
            output_tokens: read(fields.output_tokens, t.output_tokens),
            cache_read: read(fields.input_tokens_cache_read, t.cache_read),
            cache_write: read(fields.input_tokens_cache_write, t.cache_write),
            tokens_total,
            new_input_tokens,
            wall_s: read_f(fields.wall_s, t.wall_s),
            cost_usd: read_f(fields.cost_usd, t.cost_usd),
            steps: read(fields.steps, t.steps),
            errors: read(fields.errors, t.errors),
            canaries_passed: t.canaries_passed,
            canary_open: false,
        })
    }
}

impl SeatFigures {
    pub fn of(wave: &Wave, seat: &SeatData) -> SeatFigures {
        let basis = Basis::of(wave);
        FigureTally::of_attempts(&basis, &seat.attempts).figures(&basis)
    }

    /// A seat's figures from a wave's suite size and accounting alone (the tests' way in).
    #[cfg(test)]
    pub(crate) fn compute(
        suite: Option<&SuiteProblems>,
        accounting: &Accounting,
        seat: &SeatData,
    ) -> SeatFigures {
        let basis = Basis::new(suite, accounting);
        FigureTally::of_attempts(&basis, &seat.attempts).figures(&basis)
    }
}

/// Every subset of [`FigureTally::FIELDS`], for tests of what a tally of attempts read with
/// some fields alone comes to.
#[cfg(test)]
pub(crate) fn tallied_field_sets() -> Vec<AttemptFields> {
    (0u32..512)
        .map(|bits| {
            let b = |i: u32| bits & (1 << i) != 0;
            AttemptFields {
                outcome: b(0),
                input_tokens: b(1),
                output_tokens: b(2),
                input_tokens_cache_read: b(3),
                input_tokens_cache_write: b(4),
                wall_s: b(5),
                cost_usd: b(6),
                steps: b(7),
                errors: b(8),
                ..AttemptFields::NONE
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::testing;

    fn attempt(problem: &str, correct: bool, cost: Option<f64>) -> Attempt {
        Attempt {
            input_tokens: Some(100),
            output_tokens: Some(10),
            input_tokens_cache_read: Some(40),
            wall_s: Some(2.0),
            cost_usd: cost,
            ..testing::attempt(problem, 1, correct)
        }
    }

    fn seat(attempts: Vec<Attempt>) -> SeatData {
        testing::seat("s", attempts)
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
    fn a_sum_that_would_overflow_leaves_the_attempt_out_rather_than_wrap() {
        let mut k = Known::<u64>::NONE;
        k.add(Some(u64::MAX - 1));
        k.add(Some(2));
        k.add(None);
        k.add(Some(1));
        assert_eq!((k.sum, k.known), (u64::MAX, 2));

        // Through a seat: the figures built on the huge input cover 1 of 2 attempts; the
        // others still cover both.
        let mut big = attempt("a", true, None);
        big.input_tokens = Some(u64::MAX - 50);
        big.input_tokens_cache_read = Some(0);
        let s = seat(vec![big, attempt("b", true, None)]);
        let f = SeatFigures::compute(None, &Accounting::default(), &s);
        let k = |k: Known<u64>| (k.sum, k.known);
        assert_eq!(k(f.input_tokens), (u64::MAX - 50, 1));
        assert_eq!(k(f.tokens_total), (u64::MAX - 40, 1));
        assert_eq!(k(f.new_input_tokens), (u64::MAX - 50, 1));
        assert_eq!(k(f.output_tokens), (20, 2));
        assert_eq!(k(f.input_tokens_cache_read), (40, 2));
        assert_eq!(f.attempts, 2);
    }

    #[test]
    fn cached_reads_and_writes_left_out_are_unknown_but_none_in_token_totals() {
        // attempt() gives cached reads but no cache writes.
        let mut bare = attempt("b", true, None);
        bare.input_tokens_cache_read = None;
        let s = seat(vec![attempt("a", true, None), bare]);
        let f = SeatFigures::compute(None, &Accounting::default(), &s);
        // Their own sums cover only the attempts that record them: unknown is not 0.
        assert_eq!(f.input_tokens_cache_read, Known { sum: 40, known: 1 });
        assert_eq!(f.input_tokens_cache_write, Known::<u64>::NONE);
        // The totals built on them cover both attempts, the missing read as none.
        assert_eq!(
            f.tokens_total,
            Known {
                sum: 150 + 110,
                known: 2
            }
        );
        // A seat with no attempts knows nothing either.
        let f = SeatFigures::compute(None, &Accounting::default(), &seat(vec![]));
        assert_eq!(f.input_tokens_cache_read, Known::<u64>::NONE);
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

    /// An attempt as a reader of the ledger that asks for `f` alone makes it.
    fn read_with(a: &Attempt, f: AttemptFields) -> Attempt {
        Attempt {
            problem: a.problem.clone(),
            trial: a.trial,
            correct: a.correct,
            outcome: a.outcome.filter(|_| f.outcome),
            input_tokens: a.input_tokens.filter(|_| f.input_tokens),
            output_tokens: a.output_tokens.filter(|_| f.output_tokens),
            input_tokens_cache_read: a
                .input_tokens_cache_read
                .filter(|_| f.input_tokens_cache_read),
            input_tokens_cache_write: a
                .input_tokens_cache_write
                .filter(|_| f.input_tokens_cache_write),
            wall_s: a.wall_s.filter(|_| f.wall_s),
            cost_usd: a.cost_usd.filter(|_| f.cost_usd),
            steps: a.steps.filter(|_| f.steps),
            errors: a.errors.filter(|_| f.errors),
            ..Attempt::empty()
        }
    }

    #[test]
    fn totals_give_the_tally_of_the_attempts_read_with_any_fields_to_the_bit() {
        // A seat with every kind of value: unknown ones, a token count past what a sum can
        // hold, sums that round, repeated trials, declared, undeclared and canary problems.
        let mut seed: u64 = 7;
        let mut next = move |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let mut attempts = Vec::new();
        for p in 0..40 {
            for trial in 1..=(1 + next(3) as u32) {
                let maybe = |v: u64, n: &mut dyn FnMut(u64) -> u64| (n(5) != 0).then_some(v);
                attempts.push(Attempt {
                    problem: format!("p{p:02}"),
                    trial,
                    correct: next(2) == 0,
                    outcome: (next(3) != 0).then(|| next(1000) as f64 / 999.0),
                    input_tokens: maybe(
                        if p == 7 { u64::MAX - 3 } else { next(10_000) },
                        &mut next,
                    ),
                    output_tokens: maybe(next(5_000), &mut next),
                    input_tokens_cache_read: maybe(next(20_000), &mut next),
                    input_tokens_cache_write: maybe(next(300), &mut next),
                    wall_s: (next(6) != 0).then(|| next(100_000) as f64 / 7.0),
                    cost_usd: (next(6) != 0).then(|| next(100_000) as f64 / 3.0e5),
                    steps: (next(4) != 0).then(|| next(30) as u32),
                    errors: (next(4) != 0).then(|| next(4) as u32),
                    ..Attempt::empty()
                });
            }
        }
        let ids = SuiteProblems::Ids((0..60).step_by(2).map(|p| format!("p{p:02}")).collect());
        let seats = [attempts.clone(), Vec::new()];
        for include in [false, true] {
            let wave = Wave {
                id: "w".into(),
                suite: "s".into(),
                started_at: "2026-01-01T00:00:00Z".into(),
                notes: None,
                suite_problems: Some(ids.clone()),
                load: Default::default(),
                accounting: Accounting {
                    input_tokens_include_cache_reads: include,
                    price_source: None,
                },
                budget: Default::default(),
                provenance: Default::default(),
                supersedes: None,
                canary_problems: vec!["p03".into(), "p10".into(), "p99".into()],
            };
            let basis = Basis::of(&wave);
            for attempts in &seats {
                let full = FigureTally::of_attempts(&basis, attempts).totals();
                let mut derivable = 0;
                for f in tallied_field_sets() {
                    let read: Vec<Attempt> = attempts.iter().map(|a| read_with(a, f)).collect();
                    let want = FigureTally::of_attempts(&basis, &read);
                    let Some(got) = FigureTally::from_totals(&full, f) else {
                        // Only a token total without both cache columns is out of reach.
                        assert!(
                            f.input_tokens
                                && f.input_tokens_cache_read != f.input_tokens_cache_write
                                || f.input_tokens
                                    && f.output_tokens
                                    && !(f.input_tokens_cache_read && f.input_tokens_cache_write),
                            "{f:?}"
                        );
                        continue;
                    };
                    derivable += 1;
                    // Debug writes -0.0 apart from 0.0: the bits are compared.
                    assert_eq!(
                        format!("{:?}", got.totals()),
                        format!("{:?}", want.totals())
                    );
                    assert_eq!(
                        format!("{:?}", got.figures(&basis)),
                        format!("{:?}", want.figures(&basis)),
                        "{f:?}"
                    );
                }
                assert!(derivable >= 300, "{derivable}");
            }
        }
    }
}
