//! Sums over a seat's attempts, as plain data: what the figures add up and what the ledger keeps
//! beside each seat (`formats::tally`). Here, below both, so that the format that hashes them
//! does not reach up into the arithmetic that makes them.

use serde::Serialize;

/// A sum over the attempts where a quantity is known.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Known<T> {
    pub sum: T,
    /// How many attempts the sum covers.
    pub known: u64,
}

impl Known<u64> {
    pub(crate) const NONE: Known<u64> = Known { sum: 0, known: 0 };

    /// Adds one attempt's value, when it is known. A value that would carry the sum past
    /// `u64::MAX` is left out of it, as an unknown one is: the sum stays exact for the attempts
    /// it covers and its coverage says it covers fewer, so it is never printed as if it were
    /// whole, and it never wraps or panics. Ingest holds each count to 10^12, so getting here
    /// takes millions of attempts of trillions of tokens each — data built by hand or edited
    /// behind benchledger's back.
    pub fn add(&mut self, v: Option<u64>) {
        if let Some(sum) = v.and_then(|v| self.sum.checked_add(v)) {
            self.sum = sum;
            self.known += 1;
        }
    }
}

impl Known<f64> {
    pub(crate) const NONE: Known<f64> = Known { sum: 0.0, known: 0 };

    pub fn add(&mut self, v: Option<f64>) {
        if let Some(v) = v {
            self.sum += v;
            self.known += 1;
        }
    }
}

/// A seat's running totals once every attempt is added, with every field of the attempts read:
/// what a [`FigureTally`](crate::figures::FigureTally) keeps, as plain data. The ledger keeps them beside each seat when it is
/// ingested (in the format of `formats::tally`), so that a rescore under a rubric that reads
/// nothing of an attempt but its figures need not read the attempts again: the attempts are
/// append-only, so their totals never go stale. [`FigureTally::from_totals`](crate::figures::FigureTally::from_totals) makes the tally of
/// them that reading the attempts with fewer fields would have made.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeatTotals {
    pub attempts: u64,
    pub correct: u64,
    /// Distinct problems attempted.
    pub problems: u64,
    /// How many declared ids those problems match.
    pub declared: u64,
    /// Canary problems with a Correct trial.
    pub canaries_passed: u64,
    /// Σ of each attempt's graded outcome, or 1/0 from Correct where none is graded, in ledger
    /// order from -0.0 (as [`FigureTally`](crate::figures::FigureTally) sums it).
    pub outcome_sum: f64,
    pub input_tokens: Known<u64>,
    pub output_tokens: Known<u64>,
    /// Cached reads and writes, over the attempts that record them: a result that leaves them
    /// out had none as far as a token total goes, but how many it had is unknown.
    pub cache_read: Known<u64>,
    pub cache_write: Known<u64>,
    pub tokens_total: Known<u64>,
    pub new_input_tokens: Known<u64>,
    pub wall_s: Known<f64>,
    pub cost_usd: Known<f64>,
    pub steps: Known<u64>,
    pub errors: Known<u64>,
}
