//! Plain data shared by every part of benchledger: waves, seats, attempts and the conditions
//! that shape their numbers.
//!
//! Nothing here does I/O. Ingest builds these values from files, the ledger stores and loads
//! them, the rubric interpreter and the figures module read them, and the renderers print what
//! is derived from them. "Absent is not zero": every quantity a result file may leave out is an
//! `Option`, and `None` means *unknown*, never 0.

pub mod claims;
mod rows;
#[cfg(test)]
pub(crate) mod testing;
mod totals;

pub use rows::{
    ChainEntry, ContentHash, LogEntryRow, LogKind, NewLogEntry, NewWithdrawal, PriceTableRow,
    PublicationRow, RubricRow, RulesRow, StoredClaims, WaveReviewRow, WaveRow, WithdrawalRow,
    WithdrawalSeal,
};
pub use totals::{Known, SeatTotals};

use serde::{Deserialize, Serialize};

/// What made a wave's wall times and token counts what they are, besides the agents.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Load {
    /// Seats running at the same time.
    pub parallel_sessions: Option<u32>,
    /// Sessions sharing the tool server.
    pub tool_server_sessions: Option<u32>,
    /// Whether this wave was a serial rerun (seats one after another).
    pub serial_rerun: Option<bool>,
    /// The factor every timeout of the run was scaled by (Harbor's `timeout_multiplier`): finite
    /// and above 0. Part of the content hash from wave content format 3, which only a wave that
    /// records one is hashed in; absent from JSON when unknown, so a wave without one reads as
    /// it always did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_multiplier: Option<f64>,
}

/// How tokens were counted and where prices came from.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Accounting {
    /// Whether the `input_tokens` of each attempt already include the cached reads.
    pub input_tokens_include_cache_reads: bool,
    /// Where the USD figures came from (a price sheet, the provider's invoice, ...).
    pub price_source: Option<String>,
}

/// The allowance per problem that a wave hoped not to exceed. In JSON a whole number is
/// written as an integer (`400000`, not `400000.0`), as the manifest wrote it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Budget {
    #[serde(serialize_with = "whole_as_integer")]
    pub tokens: Option<f64>,
    #[serde(serialize_with = "whole_as_integer")]
    pub wall_s: Option<f64>,
    #[serde(serialize_with = "whole_as_integer")]
    pub cost_usd: Option<f64>,
}

/// Serialises a whole number as an integer and any other as a float; `None` as null.
fn whole_as_integer<S: serde::Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        // Below 2^53 every whole f64 is exactly an i64.
        Some(x) if x.fract() == 0.0 && x.abs() < 9_007_199_254_740_992.0 => {
            s.serialize_i64(*x as i64)
        }
        Some(x) => s.serialize_f64(*x),
        None => s.serialize_none(),
    }
}

/// Who and what produced a wave's results.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// Version or commit of the harness the seats ran in.
    pub harness_version: Option<String>,
    /// The tool that wrote the result files.
    pub producer: Option<String>,
    /// That tool's version.
    pub producer_version: Option<String>,
}

/// The problems a suite is declared to hold, so that an accuracy divides by the suite and not by
/// what happened to finish.
#[derive(Debug, Clone, PartialEq)]
pub enum SuiteProblems {
    /// Only the number of problems is known.
    Count(u64),
    /// The problem ids, sorted and unique.
    Ids(Vec<String>),
}

/// The most problems a wave may declare its suite to hold by number (`suite_problems`): a
/// million. No benchmark's suite comes near it; the intervals draw every problem of the suite
/// on each resample, a declared one no seat attempted too, so a number past any real suite
/// (four billion) asked for gigabytes and hours, or could not be held at all.
pub const MAX_SUITE_PROBLEMS: u64 = 1_000_000;

/// [`MAX_SUITE_PROBLEMS`] as people read it.
pub const MAX_SUITE_PROBLEMS_TEXT: &str = "1,000,000";

impl SuiteProblems {
    pub fn count(&self) -> u64 {
        match self {
            SuiteProblems::Count(n) => *n,
            SuiteProblems::Ids(ids) => ids.len() as u64,
        }
    }
}

/// One sitting of a suite.
#[derive(Debug, Clone, PartialEq)]
pub struct Wave {
    /// The wave's unique slug.
    pub id: String,
    pub suite: String,
    /// RFC 3339, as written in the manifest.
    pub started_at: String,
    pub notes: Option<String>,
    pub suite_problems: Option<SuiteProblems>,
    pub load: Load,
    pub accounting: Accounting,
    pub budget: Budget,
    pub provenance: Provenance,
    /// The wave this one corrects, when its manifest says `supersedes`: ingesting it appends a
    /// withdrawal of that wave to the chain. Not part of the wave's content hash (format 1
    /// predates it; the chain covers it).
    pub supersedes: Option<String>,
    /// Canary problems (sorted, unique): problems any working harness solves, so that a seat
    /// failing one is flagged as possibly broken. Part of the content hash from wave content
    /// format 2; a wave of format 1 has none.
    pub canary_problems: Vec<String>,
}

/// One participant in a wave.
#[derive(Debug, Clone, PartialEq)]
pub struct Seat {
    pub id: String,
    pub model: String,
    pub provider: String,
    pub harness: String,
    /// Free-form configuration label (prompt variant, temperature, ...).
    pub config: Option<String>,
    /// How people see the seat in tables and charts (a manifest's `display_name`), when it has
    /// one; the id stays the key everywhere a machine reads it. Not part of the wave's content
    /// hash, nor of any publication (docs/formats.md, "Wave content").
    pub display_name: Option<String>,
}

impl Seat {
    /// The seat as people read it: its display name, else its id.
    pub fn shown(&self) -> &str {
        self.display_name.as_deref().unwrap_or(&self.id)
    }
}

/// One step of an agent's trace: a tool call and whether it succeeded.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceStep {
    pub tool: String,
    pub ok: bool,
    /// The kind of error when the call failed (timeout, parsing, ...).
    pub error: Option<String>,
}

/// One item of a judge's checklist.
#[derive(Debug, Clone, PartialEq)]
pub struct ChecklistItem {
    pub item: String,
    pub pass: bool,
}

/// One seat on one problem, one trial.
#[derive(Debug, Clone, PartialEq)]
pub struct Attempt {
    pub problem: String,
    /// Trial number, from 1.
    pub trial: u32,
    pub correct: bool,
    /// Graded quality of the answer in [0, 1], when the grader gives more than Correct or not.
    pub outcome: Option<f64>,
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    pub input_tokens_cache_read: Option<u64>,
    pub input_tokens_cache_write: Option<u64>,
    pub wall_s: Option<f64>,
    pub cost_usd: Option<f64>,
    pub steps: Option<u32>,
    pub errors: Option<u32>,
    pub checklist: Option<Vec<ChecklistItem>>,
    pub trace: Option<Vec<TraceStep>>,
    /// Seconds the agent itself worked, when the harness says (Inspect's `working_time`: the
    /// wall time less waiting on rate limits and sandboxes). Kept beside `wall_s`, never in
    /// its place.
    pub working_s: Option<f64>,
    /// The attempt ended in a failure of the harness or its infrastructure, not of the agent
    /// (a sandbox that died, a provider outage). It still counts, as an attempt that is not
    /// Correct: dropping such attempts is how a pass rate of one success in one try is made.
    pub infra_error: bool,
    /// How the harness says the attempt ended, in its own words, when it says (Terminal-Bench's
    /// `failure_mode`, tau2-bench's `termination_reason`, Inspect's sample limit or error).
    pub end_reason: Option<String>,
    /// Where the attempt was read from, when its importer says (see [`AttemptOrigin`]). Not
    /// part of the wave's content hash; a reader of some fields never gets it
    /// ([`AttemptFields`]), only a whole wave loaded from the ledger does.
    pub origin: Option<AttemptOrigin>,
    /// What the attempt was asked and answered, when its importer reads them (see
    /// [`AttemptTexts`]). Like `origin`, not part of the wave's content hash; its own log
    /// entry covers it.
    pub texts: Option<AttemptTexts>,
}

/// An attempt's sample as its log records it: what the model was asked, the target, what it
/// answered and the scorer's explanation, each as the format gives it (absent when the format
/// records none) and each cut to [`AttemptTexts::CAP`] characters, the cut said in words at its
/// end. Evidence beside the numbers, shown on the site's problem pages and by `problems
/// --problem`; no score reads it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AttemptTexts {
    pub input: Option<String>,
    pub target: Option<String>,
    pub answer: Option<String>,
    pub explanation: Option<String>,
}

impl AttemptTexts {
    /// The most characters of each text kept (docs/formats.md and the README's limits).
    pub const CAP: usize = 4000;

    /// The texts, each cut to [`Self::CAP`] characters; an empty text is absent. `None` when
    /// every text is absent.
    pub fn capped(
        input: Option<String>,
        target: Option<String>,
        answer: Option<String>,
        explanation: Option<String>,
    ) -> Option<AttemptTexts> {
        let t = AttemptTexts {
            input: input.and_then(Self::cap),
            target: target.and_then(Self::cap),
            answer: answer.and_then(Self::cap),
            explanation: explanation.and_then(Self::cap),
        };
        (t != AttemptTexts::default()).then_some(t)
    }

    /// `text` cut to [`Self::CAP`] characters, with a line saying how long it was; `None` when
    /// it holds nothing but white space.
    pub fn cap(text: String) -> Option<String> {
        if text.trim().is_empty() {
            return None;
        }
        let total = text.chars().count();
        if total <= Self::CAP {
            return Some(text);
        }
        let kept: String = text.chars().take(Self::CAP).collect();
        Some(format!(
            "{kept}\n[cut: the text ran to {total} characters; the first {} are kept]",
            Self::CAP
        ))
    }

    /// The texts with their names, in the order they are shown: input, target, answer,
    /// explanation; absent ones left out.
    pub fn named(&self) -> Vec<(&'static str, &str)> {
        [
            ("input", &self.input),
            ("target", &self.target),
            ("answer", &self.answer),
            ("explanation", &self.explanation),
        ]
        .into_iter()
        .filter_map(|(n, t)| t.as_deref().map(|t| (n, t)))
        .collect()
    }
}

/// Where an attempt was read from: the file or directory, and the record in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttemptOrigin {
    /// The results file, or the trial's directory for harnesses that keep a directory per trial
    /// (Terminal-Bench, Harbor): relative to the manifest's directory (for `ingest --from`, to
    /// its `--manifest`'s, else to the directory it ran in), `/`-separated, with `..` when it
    /// lies outside; absolute only when the two share nothing but the root.
    pub file: String,
    /// Where in the file, in the format's own words ("sample 2 epoch 1"), when it holds several
    /// attempts.
    pub record: Option<String>,
}

impl std::fmt::Display for AttemptOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.record {
            Some(r) => write!(f, "{}, {r}", self.file),
            None => f.write_str(&self.file),
        }
    }
}

impl Attempt {
    /// An attempt with no problem, trial 0, not correct and every other field absent: the
    /// buffer a reader fills row after row.
    pub fn empty() -> Attempt {
        Attempt {
            problem: String::new(),
            trial: 0,
            correct: false,
            outcome: None,
            input_tokens: None,
            output_tokens: None,
            input_tokens_cache_read: None,
            input_tokens_cache_write: None,
            wall_s: None,
            cost_usd: None,
            steps: None,
            errors: None,
            checklist: None,
            trace: None,
            working_s: None,
            infra_error: false,
            end_reason: None,
            origin: None,
            texts: None,
        }
    }

    /// The outcome in [0, 1]: the graded outcome when there is one, else 1 for Correct and 0
    /// otherwise.
    pub fn outcome_or_verdict(&self) -> f64 {
        match self.outcome {
            Some(o) => o,
            None => {
                if self.correct {
                    1.0
                } else {
                    0.0
                }
            }
        }
    }

    /// Every token read and written, normalised across accounting conventions: where the input
    /// total excludes cached reads they are added; cache writes are always counted once.
    /// Unknown unless both input and output tokens are known. Cache fields a result leaves out
    /// are taken as none. Unknown, too, when the total would not fit a `u64`: ingest holds each
    /// count to 10^12, so only an attempt built by hand or edited behind benchledger's back can
    /// get there, and a wrapped or clipped total would be a wrong number.
    pub fn tokens_total(&self, accounting: &Accounting) -> Option<u64> {
        let input = self.input_tokens?;
        let output = self.output_tokens?;
        let read = self.input_tokens_cache_read.unwrap_or(0);
        let write = self.input_tokens_cache_write.unwrap_or(0);
        let reads_outside = if accounting.input_tokens_include_cache_reads {
            0
        } else {
            read
        };
        input
            .checked_add(reads_outside)?
            .checked_add(write)?
            .checked_add(output)
    }

    /// Input tokens that were not served from a cache: the input total without cached reads,
    /// plus cache writes (which are new input the provider processed). Unknown when the input
    /// total is, or when the sum would not fit a `u64` (see [`Attempt::tokens_total`]).
    pub fn new_input_tokens(&self, accounting: &Accounting) -> Option<u64> {
        let input = self.input_tokens?;
        let read = self.input_tokens_cache_read.unwrap_or(0);
        let write = self.input_tokens_cache_write.unwrap_or(0);
        let without_reads = if accounting.input_tokens_include_cache_reads {
            input.saturating_sub(read)
        } else {
            input
        };
        without_reads.checked_add(write)
    }
}

/// Which of an attempt's fields a reader of the ledger wants: the others are left `None` (the
/// trial 0). Only for a reader that never looks at them — a rubric reads the fields of its own
/// measures and nothing else, and reading fewer columns is most of what streaming a wave costs.
/// Problem and verdict are always read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttemptFields {
    pub trial: bool,
    pub outcome: bool,
    pub input_tokens: bool,
    pub output_tokens: bool,
    pub input_tokens_cache_read: bool,
    pub input_tokens_cache_write: bool,
    pub wall_s: bool,
    pub cost_usd: bool,
    pub steps: bool,
    pub errors: bool,
    pub checklist: bool,
    pub trace: bool,
    pub working_s: bool,
    /// `infra_error` and `end_reason` (when not read, `false` and `None`).
    pub end: bool,
}

impl AttemptFields {
    /// `a` as the ledger lends it to a reader that asked for these fields: every other field
    /// unknown (`infra_error` false), the trial 0 when it was not asked for. So a reader of
    /// attempts already in memory (the bootstrap's per-problem sums, the tests of streamed
    /// rescoring) sees exactly what a streamed read would give it.
    pub fn read(self, a: &Attempt) -> Attempt {
        fn keep<T: Clone>(on: bool, v: &Option<T>) -> Option<T> {
            if on { v.clone() } else { None }
        }
        let f = self;
        Attempt {
            problem: a.problem.clone(),
            trial: if f.trial { a.trial } else { 0 },
            correct: a.correct,
            outcome: keep(f.outcome, &a.outcome),
            input_tokens: keep(f.input_tokens, &a.input_tokens),
            output_tokens: keep(f.output_tokens, &a.output_tokens),
            input_tokens_cache_read: keep(f.input_tokens_cache_read, &a.input_tokens_cache_read),
            input_tokens_cache_write: keep(f.input_tokens_cache_write, &a.input_tokens_cache_write),
            wall_s: keep(f.wall_s, &a.wall_s),
            cost_usd: keep(f.cost_usd, &a.cost_usd),
            steps: keep(f.steps, &a.steps),
            errors: keep(f.errors, &a.errors),
            checklist: keep(f.checklist, &a.checklist),
            trace: keep(f.trace, &a.trace),
            working_s: keep(f.working_s, &a.working_s),
            infra_error: f.end && a.infra_error,
            end_reason: keep(f.end, &a.end_reason),
            origin: None,
            texts: None,
        }
    }

    /// Every field: the whole attempt.
    pub const ALL: AttemptFields = AttemptFields {
        trial: true,
        outcome: true,
        input_tokens: true,
        output_tokens: true,
        input_tokens_cache_read: true,
        input_tokens_cache_write: true,
        wall_s: true,
        cost_usd: true,
        steps: true,
        errors: true,
        checklist: true,
        trace: true,
        working_s: true,
        end: true,
    };

    /// Problem and verdict only.
    pub const NONE: AttemptFields = AttemptFields {
        trial: false,
        outcome: false,
        input_tokens: false,
        output_tokens: false,
        input_tokens_cache_read: false,
        input_tokens_cache_write: false,
        wall_s: false,
        cost_usd: false,
        steps: false,
        errors: false,
        checklist: false,
        trace: false,
        working_s: false,
        end: false,
    };

    /// The fields either asks for.
    pub fn and(self, o: AttemptFields) -> AttemptFields {
        AttemptFields {
            trial: self.trial || o.trial,
            outcome: self.outcome || o.outcome,
            input_tokens: self.input_tokens || o.input_tokens,
            output_tokens: self.output_tokens || o.output_tokens,
            input_tokens_cache_read: self.input_tokens_cache_read || o.input_tokens_cache_read,
            input_tokens_cache_write: self.input_tokens_cache_write || o.input_tokens_cache_write,
            wall_s: self.wall_s || o.wall_s,
            cost_usd: self.cost_usd || o.cost_usd,
            steps: self.steps || o.steps,
            errors: self.errors || o.errors,
            checklist: self.checklist || o.checklist,
            trace: self.trace || o.trace,
            working_s: self.working_s || o.working_s,
            end: self.end || o.end,
        }
    }
}

/// A seat with its attempts, in ledger order (problem, then trial).
#[derive(Debug, Clone, PartialEq)]
pub struct SeatData {
    pub seat: Seat,
    pub attempts: Vec<Attempt>,
}

/// A whole wave: conditions, seats and attempts. This is what ingest produces, what the ledger
/// stores and loads, and what the rubric interpreter scores.
#[derive(Debug, Clone, PartialEq)]
pub struct WaveData {
    pub wave: Wave,
    /// Seats in ledger order (by seat id).
    pub seats: Vec<SeatData>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(input: u64, output: u64, read: u64, write: u64) -> Attempt {
        Attempt {
            problem: "p".into(),
            trial: 1,
            correct: true,
            input_tokens: Some(input),
            output_tokens: Some(output),
            input_tokens_cache_read: Some(read),
            input_tokens_cache_write: Some(write),
            ..Attempt::empty()
        }
    }

    #[test]
    fn a_total_that_would_overflow_is_unknown_not_wrapped() {
        let excl = Accounting::default();
        let incl = Accounting {
            input_tokens_include_cache_reads: true,
            price_source: None,
        };
        let max = 1_000_000_000_000;
        let a = tokens(max, max, max, max);
        assert_eq!(a.tokens_total(&excl), Some(4 * max));
        assert_eq!(a.new_input_tokens(&excl), Some(2 * max));
        for (input, output, read, write) in [
            (u64::MAX, 1, 0, 0),
            (u64::MAX - 1, 0, 1, 1),
            (1, u64::MAX, 0, 0),
            (i64::MAX as u64, i64::MAX as u64, i64::MAX as u64, 0),
        ] {
            assert_eq!(tokens(input, output, read, write).tokens_total(&excl), None);
        }
        assert_eq!(tokens(u64::MAX, 1, 0, 1).new_input_tokens(&excl), None);
        // Cached reads inside the input total are taken out before the writes are added.
        assert_eq!(
            tokens(u64::MAX, 0, 1, 1).new_input_tokens(&incl),
            Some(u64::MAX)
        );
    }
}
