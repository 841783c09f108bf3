//! Test data, built one way across the library: a wave with no conditions to speak of, a seat
//! of model `m` from provider `p` in harness `h`, an attempt with nothing but its problem,
//! trial and verdict. A test states only what it is about, on top of these
//! (`Attempt { cost_usd: Some(0.5), ..attempt("p1", 1, true) }`).

use super::{
    Accounting, Attempt, Budget, Load, Provenance, Seat, SeatData, SuiteProblems, Wave, WaveData,
};

/// A wave `id` of suite `s`, started 2026-01-01, with no declared problems, no budget, default
/// load and accounting.
pub(crate) fn wave(id: &str) -> Wave {
    Wave {
        id: id.into(),
        suite: "s".into(),
        started_at: "2026-01-01T00:00:00Z".into(),
        notes: None,
        suite_problems: None,
        load: Load::default(),
        accounting: Accounting::default(),
        budget: Budget::default(),
        provenance: Provenance::default(),
        supersedes: None,
        canary_problems: Vec::new(),
    }
}

/// [`wave`] `w`, declaring the suite's problems.
pub(crate) fn wave_of(suite: Option<SuiteProblems>) -> Wave {
    Wave {
        suite_problems: suite,
        ..wave("w")
    }
}

/// A seat `id` (model `m`, provider `p`, harness `h`) with its attempts.
pub(crate) fn seat(id: &str, attempts: Vec<Attempt>) -> SeatData {
    SeatData {
        seat: Seat {
            id: id.into(),
            model: "m".into(),
            provider: "p".into(),
            harness: "h".into(),
            config: None,
            display_name: None,
        },
        attempts,
    }
}

/// An attempt at `problem`, trial `trial`, Correct or not, every figure unknown.
pub(crate) fn attempt(problem: &str, trial: u32, correct: bool) -> Attempt {
    Attempt {
        problem: problem.into(),
        trial,
        correct,
        ..Attempt::empty()
    }
}

/// A wave and its seats.
pub(crate) fn wave_data(wave: Wave, seats: Vec<SeatData>) -> WaveData {
    WaveData { wave, seats }
}
