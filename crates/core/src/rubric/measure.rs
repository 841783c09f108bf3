//! The vocabulary a rubric may use: measures (what is counted) and allowances (what was hoped
//! for), with the range each can take in any valid ledger. The checker builds its proof from
//! these ranges, and the interpreter reads their values from a seat or an attempt.
//!
//! Every measure a seat sums over its attempts (tokens, wall seconds, USD, steps, errors) also
//! has a mean per attempt, `mean.NAME`: the seat's sum divided by the attempts it made. A
//! per-seat rubric can then charge "5 points per error, averaged per attempt" without turning
//! every other factor into a per-attempt one (`per = "attempt"`). A mean is known exactly when
//! the sum is (so never for a seat without attempts), and lies in the same range as one
//! attempt's value, which is the range the checker gives it.

use crate::figures::SeatFigures;
use crate::model::{Attempt, AttemptFields, Budget, TraceStep, Wave};

/// Something a rubric can measure, at the seat level (totals over a seat's attempts) or the
/// attempt level (one attempt).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Measure {
    /// Seat: Correct / (attempts + missing). Attempt: 1 if Correct, else 0.
    Accuracy,
    /// Seat: the mean outcome over attempts + missing (missing count 0). Attempt: the graded
    /// outcome, or 1/0 from Correct when there is none.
    Outcome,
    /// Number of Correct attempts (attempt: 1 or 0).
    Correct,
    /// Attempts made (attempt: 1).
    Attempts,
    /// Declared problems never attempted (attempt: 0).
    Missing,
    /// Seat: the wave's canary problems the seat did not pass in any trial, missing ones
    /// included. Attempt: 1 when the attempt is on a canary problem and not Correct, else 0.
    CanaryFailures,
    /// Every token read and written, normalised across accounting conventions.
    TokensTotal,
    /// Input tokens not served from a cache (cached reads excluded).
    NewInputTokens,
    InputTokens,
    OutputTokens,
    CacheReadTokens,
    WallS,
    CostUsd,
    /// Tool calls.
    Steps,
    /// Failed tool calls.
    Errors,
    /// Seat: the sum of a summed measure divided by the attempts made (missing problems are not
    /// attempts and add nothing). Attempt: the attempt's own value.
    Mean(Summed),
}

/// A measure a seat sums over its attempts, and so has a mean per attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Summed {
    TokensTotal,
    NewInputTokens,
    InputTokens,
    OutputTokens,
    CacheReadTokens,
    WallS,
    CostUsd,
    Steps,
    Errors,
}

impl Summed {
    /// The summed measure itself.
    pub fn measure(self) -> Measure {
        match self {
            Summed::TokensTotal => Measure::TokensTotal,
            Summed::NewInputTokens => Measure::NewInputTokens,
            Summed::InputTokens => Measure::InputTokens,
            Summed::OutputTokens => Measure::OutputTokens,
            Summed::CacheReadTokens => Measure::CacheReadTokens,
            Summed::WallS => Measure::WallS,
            Summed::CostUsd => Measure::CostUsd,
            Summed::Steps => Measure::Steps,
            Summed::Errors => Measure::Errors,
        }
    }
}

/// Every measure with its name in rubric files.
pub const MEASURES: &[(&str, Measure, &str)] = &[
    (
        "accuracy",
        Measure::Accuracy,
        "share of attempts Correct, missing problems counting as not Correct (0 to 1)",
    ),
    (
        "outcome",
        Measure::Outcome,
        "graded outcome of the answer, or 1/0 from Correct when none is given (0 to 1)",
    ),
    ("correct", Measure::Correct, "number of Correct attempts"),
    ("attempts", Measure::Attempts, "number of attempts made"),
    (
        "missing",
        Measure::Missing,
        "declared problems never attempted",
    ),
    (
        "canary_failures",
        Measure::CanaryFailures,
        "canary problems (the wave's `canary_problems`) the seat passed in no trial, missing ones \
         included: a harness that fails one may be broken",
    ),
    (
        "tokens_total",
        Measure::TokensTotal,
        "every token read and written (cached reads included, normalised across accounting)",
    ),
    (
        "new_input_tokens",
        Measure::NewInputTokens,
        "input tokens not served from a cache (cached reads excluded)",
    ),
    (
        "input_tokens",
        Measure::InputTokens,
        "input tokens as reported",
    ),
    ("output_tokens", Measure::OutputTokens, "output tokens"),
    (
        "cache_read_tokens",
        Measure::CacheReadTokens,
        "cached reads",
    ),
    ("wall_s", Measure::WallS, "wall-clock seconds"),
    ("cost_usd", Measure::CostUsd, "US dollars"),
    ("steps", Measure::Steps, "tool calls"),
    ("errors", Measure::Errors, "failed tool calls"),
    (
        "mean.tokens_total",
        Measure::Mean(Summed::TokensTotal),
        "tokens_total per attempt, averaged over the attempts made",
    ),
    (
        "mean.new_input_tokens",
        Measure::Mean(Summed::NewInputTokens),
        "new_input_tokens per attempt, averaged over the attempts made",
    ),
    (
        "mean.input_tokens",
        Measure::Mean(Summed::InputTokens),
        "input_tokens per attempt, averaged over the attempts made",
    ),
    (
        "mean.output_tokens",
        Measure::Mean(Summed::OutputTokens),
        "output_tokens per attempt, averaged over the attempts made",
    ),
    (
        "mean.cache_read_tokens",
        Measure::Mean(Summed::CacheReadTokens),
        "cache_read_tokens per attempt, averaged over the attempts made",
    ),
    (
        "mean.wall_s",
        Measure::Mean(Summed::WallS),
        "wall_s per attempt, averaged over the attempts made",
    ),
    (
        "mean.cost_usd",
        Measure::Mean(Summed::CostUsd),
        "cost_usd per attempt, averaged over the attempts made",
    ),
    (
        "mean.steps",
        Measure::Mean(Summed::Steps),
        "steps per attempt, averaged over the attempts made",
    ),
    (
        "mean.errors",
        Measure::Mean(Summed::Errors),
        "errors per attempt, averaged over the attempts made",
    ),
];

impl Measure {
    pub fn parse(name: &str) -> Option<Measure> {
        MEASURES
            .iter()
            .find(|(n, _, _)| *n == name)
            .map(|(_, m, _)| *m)
    }

    pub fn name(self) -> &'static str {
        MEASURES
            .iter()
            .find(|(_, m, _)| *m == self)
            .map_or("?", |(n, _, _)| n)
    }

    /// For a name that is not a measure but says "the mean of a summed measure" in other
    /// words (`errors_per_attempt`, `avg.errors`, `mean_errors`), the measure that is:
    /// `mean.errors`.
    pub(crate) fn mean_spelt_otherwise(name: &str) -> Option<Measure> {
        let base = [
            "mean_",
            "avg.",
            "avg_",
            "average.",
            "average_",
            "per_attempt.",
        ]
        .iter()
        .find_map(|p| name.strip_prefix(p))
        .or_else(|| {
            ["_per_attempt", "_mean", "_avg", "_average", ".mean"]
                .iter()
                .find_map(|s| name.strip_suffix(s))
        })?;
        let mean = Measure::parse(&format!("mean.{base}"))?;
        matches!(mean, Measure::Mean(_)).then_some(mean)
    }

    /// The summed measure a mean is the mean of; any other measure, itself.
    pub fn base(self) -> Measure {
        match self {
            Measure::Mean(s) => s.measure(),
            m => m,
        }
    }

    /// The least and greatest value the measure can take in valid data (`f64::INFINITY` for
    /// unbounded). A mean lies where the values it averages lie.
    pub(crate) fn domain(self) -> (f64, f64) {
        match self {
            Measure::Accuracy | Measure::Outcome => (0.0, 1.0),
            Measure::Mean(s) => s.measure().domain(),
            _ => (0.0, f64::INFINITY),
        }
    }

    /// The seat-level value, `None` when unknown for any attempt. A seat that made no attempts
    /// has counts (accuracy over its missing problems, correct, attempts, missing) but no
    /// resources: what it would have used is unknown, not zero.
    pub(crate) fn of_seat(self, f: &SeatFigures) -> Option<f64> {
        let all = |k: &crate::figures::Known<u64>| {
            (f.attempts > 0 && k.known == f.attempts).then_some(k.sum as f64)
        };
        let all_f = |k: &crate::figures::Known<f64>| {
            (f.attempts > 0 && k.known == f.attempts).then_some(k.sum)
        };
        match self {
            Measure::Accuracy => f.accuracy,
            Measure::Outcome => (f.denominator > 0).then(|| f.outcome_sum / f.denominator as f64),
            Measure::Correct => Some(f.correct as f64),
            Measure::Attempts => Some(f.attempts as f64),
            Measure::Missing => Some(f.missing as f64),
            Measure::CanaryFailures => Some(f.canary_failures as f64),
            Measure::TokensTotal => all(&f.tokens_total),
            Measure::NewInputTokens => all(&f.new_input_tokens),
            Measure::InputTokens => all(&f.input_tokens),
            Measure::OutputTokens => all(&f.output_tokens),
            Measure::CacheReadTokens => {
                // A result that does not report caching is taken to have none.
                (f.attempts > 0).then_some(f.input_tokens_cache_read.sum as f64)
            }
            Measure::WallS => all_f(&f.wall_s),
            Measure::CostUsd => all_f(&f.cost_usd),
            Measure::Steps => all(&f.steps),
            Measure::Errors => all(&f.errors),
            // Known only when the sum is, which needs an attempt: never a division by 0.
            Measure::Mean(s) => s.measure().of_seat(f).map(|sum| sum / f.attempts as f64),
        }
    }

    /// The fields of an attempt the measure is made of, at either level (problem and verdict
    /// aside, which every reader has).
    pub fn fields(self) -> AttemptFields {
        let none = AttemptFields::NONE;
        match self {
            Measure::Accuracy
            | Measure::Correct
            | Measure::Attempts
            | Measure::Missing
            | Measure::CanaryFailures => none,
            Measure::Outcome => AttemptFields {
                outcome: true,
                ..none
            },
            Measure::TokensTotal => AttemptFields {
                input_tokens: true,
                output_tokens: true,
                input_tokens_cache_read: true,
                input_tokens_cache_write: true,
                ..none
            },
            Measure::NewInputTokens => AttemptFields {
                input_tokens: true,
                input_tokens_cache_read: true,
                input_tokens_cache_write: true,
                ..none
            },
            Measure::InputTokens => AttemptFields {
                input_tokens: true,
                ..none
            },
            Measure::OutputTokens => AttemptFields {
                output_tokens: true,
                ..none
            },
            Measure::CacheReadTokens => AttemptFields {
                input_tokens_cache_read: true,
                ..none
            },
            Measure::WallS => AttemptFields {
                wall_s: true,
                ..none
            },
            Measure::CostUsd => AttemptFields {
                cost_usd: true,
                ..none
            },
            Measure::Steps => AttemptFields {
                steps: true,
                ..none
            },
            Measure::Errors => AttemptFields {
                errors: true,
                ..none
            },
            Measure::Mean(s) => s.measure().fields(),
        }
    }

    /// The attempt-level value, `None` when unknown. The per-attempt formula's fast path reads
    /// it for every factor and penalty of every attempt of a rescore: the measures that are a
    /// field read as it is (the verdict, the outcome, steps, errors) are read inline, the
    /// others through [`Measure::of_attempt_read`] (inlined whole, the conversions of every
    /// measure were computed ahead of the loop over the factors, on every attempt).
    #[inline(always)]
    pub(crate) fn of_attempt(self, a: &Attempt, wave: &Wave) -> Option<f64> {
        match self {
            Measure::Accuracy | Measure::Correct => Some(if a.correct { 1.0 } else { 0.0 }),
            Measure::Outcome => Some(a.outcome_or_verdict()),
            Measure::Steps => a.steps.map(f64::from),
            Measure::Errors => a.errors.map(f64::from),
            m => m.of_attempt_read(a, wave),
        }
    }

    /// [`Measure::of_attempt`], for any measure.
    #[inline(never)]
    fn of_attempt_read(self, a: &Attempt, wave: &Wave) -> Option<f64> {
        let acc = &wave.accounting;
        let u = |v: Option<u64>| v.map(|v| v as f64);
        match self {
            Measure::Accuracy | Measure::Correct => Some(if a.correct { 1.0 } else { 0.0 }),
            Measure::Outcome => Some(a.outcome_or_verdict()),
            Measure::Attempts => Some(1.0),
            Measure::Missing => Some(0.0),
            Measure::CanaryFailures => {
                Some(if !a.correct && wave.canary_problems.contains(&a.problem) {
                    1.0
                } else {
                    0.0
                })
            }
            Measure::TokensTotal => u(a.tokens_total(acc)),
            Measure::NewInputTokens => u(a.new_input_tokens(acc)),
            Measure::InputTokens => u(a.input_tokens),
            Measure::OutputTokens => u(a.output_tokens),
            Measure::CacheReadTokens => Some(a.input_tokens_cache_read.unwrap_or(0) as f64),
            Measure::WallS => a.wall_s,
            Measure::CostUsd => a.cost_usd,
            Measure::Steps => a.steps.map(f64::from),
            Measure::Errors => a.errors.map(f64::from),
            // The mean over one attempt is the attempt's value.
            Measure::Mean(s) => s.measure().of_attempt_read(a, wave),
        }
    }
}

/// Errors in a trace after free retries: in each run of consecutive failing calls to the same
/// tool, the first `free` failures are forgiven. Without a trace every reported error counts.
#[inline]
pub(crate) fn errors_after_free_retries(a: &Attempt, free: u32) -> Option<f64> {
    let Some(trace) = &a.trace else {
        return a.errors.map(f64::from);
    };
    Some(charged_errors(trace, free) as f64)
}

fn charged_errors(trace: &[TraceStep], free: u32) -> u64 {
    let mut charged = 0u64;
    let mut run_tool: Option<&str> = None;
    let mut run_len = 0u32;
    for step in trace {
        if step.ok {
            run_tool = None;
            run_len = 0;
            continue;
        }
        if run_tool == Some(step.tool.as_str()) {
            run_len += 1;
        } else {
            run_tool = Some(step.tool.as_str());
            run_len = 1;
        }
        if run_len > free {
            charged += 1;
        }
    }
    charged
}

/// Something a measure can be held against: the wave's per-problem budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Allowance {
    Tokens,
    WallS,
    CostUsd,
}

pub const ALLOWANCES: &[(&str, Allowance)] = &[
    ("budget.tokens", Allowance::Tokens),
    ("budget.wall_s", Allowance::WallS),
    ("budget.cost_usd", Allowance::CostUsd),
];

impl Allowance {
    pub fn parse(name: &str) -> Option<Allowance> {
        ALLOWANCES.iter().find(|(n, _)| *n == name).map(|(_, a)| *a)
    }

    pub fn name(self) -> &'static str {
        ALLOWANCES
            .iter()
            .find(|(_, a)| *a == self)
            .map_or("?", |(n, _)| n)
    }

    /// The per-problem allowance, if the wave declared one.
    pub(crate) fn per_problem(self, b: &Budget) -> Option<f64> {
        match self {
            Allowance::Tokens => b.tokens,
            Allowance::WallS => b.wall_s,
            Allowance::CostUsd => b.cost_usd,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(tool: &str, ok: bool) -> TraceStep {
        TraceStep {
            tool: tool.into(),
            ok,
            error: (!ok).then(|| "x".into()),
        }
    }

    #[test]
    fn one_smart_retry_is_free_but_a_five_time_repeat_is_not() {
        let smart = [step("fetch", false), step("fetch", true)];
        assert_eq!(charged_errors(&smart, 1), 0);
        assert_eq!(charged_errors(&smart, 0), 1);
        let repeat: Vec<_> = (0..5)
            .map(|_| step("fetch", false))
            .chain([step("fetch", true)])
            .collect();
        assert_eq!(charged_errors(&repeat, 1), 4);
        // Failures of different tools are separate runs.
        let mixed = [step("a", false), step("b", false), step("b", false)];
        assert_eq!(charged_errors(&mixed, 1), 1);
    }

    #[test]
    fn every_measure_has_a_name_that_parses_back() {
        for (name, m, _) in MEASURES {
            assert_eq!(Measure::parse(name), Some(*m));
            assert_eq!(m.name(), *name);
        }
    }

    #[test]
    fn every_summed_measure_has_a_mean_named_after_it() {
        let summed = [
            Summed::TokensTotal,
            Summed::NewInputTokens,
            Summed::InputTokens,
            Summed::OutputTokens,
            Summed::CacheReadTokens,
            Summed::WallS,
            Summed::CostUsd,
            Summed::Steps,
            Summed::Errors,
        ];
        for s in summed {
            let mean = Measure::Mean(s);
            assert_eq!(mean.name(), format!("mean.{}", s.measure().name()));
            assert_eq!(mean.base(), s.measure());
            assert_eq!(mean.domain(), s.measure().domain());
            assert_eq!(mean.fields(), s.measure().fields());
        }
        let means = MEASURES
            .iter()
            .filter(|(_, m, _)| matches!(m, Measure::Mean(_)))
            .count();
        assert_eq!(means, summed.len());
    }

    #[test]
    fn a_mean_is_the_seat_sum_over_the_attempts_made_and_unknown_without_one() {
        use crate::figures::SeatFigures;
        use crate::model::{Accounting, Budget, Load, Provenance, SuiteProblems};
        let wave = Wave {
            id: "w".into(),
            suite: "s".into(),
            started_at: "2026-01-01T00:00:00Z".into(),
            notes: None,
            suite_problems: Some(SuiteProblems::Count(5)),
            load: Load::default(),
            accounting: Accounting {
                input_tokens_include_cache_reads: false,
                price_source: None,
            },
            budget: Budget::default(),
            provenance: Provenance::default(),
            supersedes: None,
            canary_problems: Vec::new(),
        };
        let attempt = |problem: &str, errors: Option<u32>| Attempt {
            problem: problem.into(),
            trial: 1,
            correct: true,
            steps: errors,
            errors,
            ..Attempt::empty()
        };
        let seat = |attempts: Vec<Attempt>| crate::model::testing::seat("s", attempts);
        let mean = Measure::Mean(Summed::Errors);
        // 3 errors over 2 attempts; the 3 missing problems are not attempts.
        let two = seat(vec![attempt("a", Some(1)), attempt("b", Some(2))]);
        let f = SeatFigures::of(&wave, &two);
        assert_eq!(Measure::Errors.of_seat(&f), Some(3.0));
        assert_eq!(mean.of_seat(&f), Some(1.5));
        assert_eq!(mean.of_attempt(&two.attempts[1], &wave), Some(2.0));
        // Absent is not zero: one unknown makes the mean unknown, and so does no attempt.
        let unknown = seat(vec![attempt("a", Some(1)), attempt("b", None)]);
        assert_eq!(mean.of_seat(&SeatFigures::of(&wave, &unknown)), None);
        assert_eq!(mean.of_seat(&SeatFigures::of(&wave, &seat(vec![]))), None);
    }

    #[test]
    fn a_mean_spelt_otherwise_is_recognised() {
        let errors = Some(Measure::Mean(Summed::Errors));
        for name in [
            "errors_per_attempt",
            "avg.errors",
            "mean_errors",
            "errors_mean",
        ] {
            assert_eq!(Measure::mean_spelt_otherwise(name), errors, "{name}");
        }
        assert_eq!(
            Measure::mean_spelt_otherwise("wall_s_per_attempt"),
            Some(Measure::Mean(Summed::WallS))
        );
        // Only a summed measure has a mean; a name that is no measure has none.
        assert_eq!(Measure::mean_spelt_otherwise("accuracy_per_attempt"), None);
        assert_eq!(Measure::mean_spelt_otherwise("blunders_per_attempt"), None);
    }
}
