//! The vocabulary a rubric may use: measures (what is counted) and allowances (what was hoped
//! for), with the range each can take in any valid ledger. The checker builds its proof from
//! these ranges, and the interpreter reads their values from a seat or an attempt.

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

    /// The least and greatest value the measure can take in valid data (`f64::INFINITY` for
    /// unbounded).
    pub fn domain(self) -> (f64, f64) {
        match self {
            Measure::Accuracy | Measure::Outcome => (0.0, 1.0),
            _ => (0.0, f64::INFINITY),
        }
    }

    /// The seat-level value, `None` when unknown for any attempt. A seat that made no attempts
    /// has counts (accuracy over its missing problems, correct, attempts, missing) but no
    /// resources: what it would have used is unknown, not zero.
    pub fn of_seat(self, f: &SeatFigures) -> Option<f64> {
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
        }
    }

    /// The fields of an attempt the measure is made of, at either level (problem and verdict
    /// aside, which every reader has).
    pub fn fields(self) -> AttemptFields {
        let none = AttemptFields::NONE;
        match self {
            Measure::Accuracy | Measure::Correct | Measure::Attempts | Measure::Missing => none,
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
        }
    }

    /// The attempt-level value, `None` when unknown.
    pub fn of_attempt(self, a: &Attempt, wave: &Wave) -> Option<f64> {
        let acc = &wave.accounting;
        let u = |v: Option<u64>| v.map(|v| v as f64);
        match self {
            Measure::Accuracy | Measure::Correct => Some(if a.correct { 1.0 } else { 0.0 }),
            Measure::Outcome => Some(a.outcome_or_verdict()),
            Measure::Attempts => Some(1.0),
            Measure::Missing => Some(0.0),
            Measure::TokensTotal => u(a.tokens_total(acc)),
            Measure::NewInputTokens => u(a.new_input_tokens(acc)),
            Measure::InputTokens => u(a.input_tokens),
            Measure::OutputTokens => u(a.output_tokens),
            Measure::CacheReadTokens => Some(a.input_tokens_cache_read.unwrap_or(0) as f64),
            Measure::WallS => a.wall_s,
            Measure::CostUsd => a.cost_usd,
            Measure::Steps => a.steps.map(f64::from),
            Measure::Errors => a.errors.map(f64::from),
        }
    }
}

/// Errors in a trace after free retries: in each run of consecutive failing calls to the same
/// tool, the first `free` failures are forgiven. Without a trace every reported error counts.
pub fn errors_after_free_retries(a: &Attempt, free: u32) -> Option<f64> {
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
    pub fn per_problem(self, b: &Budget) -> Option<f64> {
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
}
