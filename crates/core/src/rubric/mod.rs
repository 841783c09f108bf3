//! Rubrics: versioned, declarative TOML that says how a wave's attempts become a score.
//!
//! A rubric is data, never code. It names measures (accuracy, tokens, wall seconds, USD, steps,
//! errors, outcome..., and the mean per attempt of each sum, `mean.errors`), turns them into
//! factors (an allowance ratio, a linear fall past an expected count, a ratio to the wave's
//! median, or the value itself; then floor, cap and exponent), and combines them through one
//! formula:
//!
//! ```text
//! score = clamp( multiplier × Π(multiply factors) × Σ(weight × add factors)
//!                                                 / Σ(weight × divide factors)
//!                − Σ(per_unit × penalty measure) )
//! ```
//!
//! with gates that fail a seat outright, a declared scale, per-seat or per-attempt evaluation,
//! and tie-breaks on absolutes. The four shipped rubrics and every variant are built from these
//! same blocks; none is special-cased by name. `docs/rubrics.md` documents every key.
//!
//! - [`spec`] parses and validates the TOML;
//! - `check`(mod@check) proves by interval arithmetic the range the score can take;
//! - [`interpret`] scores a wave — pure, deterministic, no I/O;
//! - `resolved` looks a per-attempt formula up once a wave, for the fast path every attempt
//!   of a rescore takes;
//! - `tally` keeps the running totals a seat is scored from, fed one attempt at a time, so
//!   that a wave can be scored as the ledger reads it, without holding its attempts.

mod arith;
pub(crate) mod check;
pub mod interpret;
pub(crate) mod interval;
pub mod measure;
mod resolved;
pub mod spec;
pub(crate) mod tally;

pub use arith::pow;
pub use check::{CheckReport, check};
pub use interpret::{SeatScore, WaveScores};
pub use spec::{Rubric, parse};
pub use tally::{Scorer, SeatTally, SharedFactors, score_wave};

/// Which rubric made a leaderboard: the rubric, the hash of its text, and what the ledger
/// knows of it.
#[derive(Debug, Clone, PartialEq)]
pub struct RubricInfo {
    pub rubric: Rubric,
    pub sha256: String,
    /// `rubric check` rejects it.
    pub scale_violation: bool,
    /// Registered in the ledger (rather than read from a file).
    pub registered: bool,
}

/// The text of the shipped `rubrics/accuracy.v1.toml`: plain accuracy, which needs no budget,
/// price or median, so that a wave with none (an imported one) still has a leaderboard.
pub const ACCURACY_TEXT: &str = include_str!("../../../../rubrics/accuracy.v1.toml");

/// The shipped accuracy rubric, as a leaderboard names it when it is not registered.
pub fn accuracy() -> RubricInfo {
    let rubric = parse(
        std::path::Path::new("rubrics/accuracy.v1.toml"),
        ACCURACY_TEXT,
    )
    .expect("the shipped accuracy rubric parses");
    RubricInfo {
        rubric,
        sha256: crate::digest::sha256_hex(ACCURACY_TEXT.as_bytes()),
        scale_violation: false,
        registered: false,
    }
}

/// A score as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredScore {
    pub wave: String,
    pub score: SeatScore,
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_shipped_accuracy_rubric_keeps_its_scale_and_needs_no_budget() {
        let info = super::accuracy();
        assert_eq!(info.rubric.id(), "accuracy@1");
        assert!(super::check(&info.rubric).ok());
        assert!(!info.registered);
    }
}
