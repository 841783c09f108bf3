//! Claims read straight from leaderboards' own files, so a whole leaderboard is checked in two
//! commands (`claims from ...`, then `claims check`). Each reader maps every figure the file
//! publishes to the figure of benchledger's that it claims to be (docs/claims.md, "Claims from
//! leaderboards"):
//!
//! - **OpenHands index** (`scores.json` of a model directory, `metadata.json` beside it): per
//!   benchmark, `score` → `accuracy` (a percentage, with its `metric`: `solveable_accuracy` is
//!   not benchledger's accuracy, and the check says so) and, where `component_scores` give it,
//!   `combined_accuracy` → `accuracy` over every instance, each with the counts the index states;
//!   `cost_per_instance` → `mean_cost_usd`; `average_runtime` → `mean_wall_s`. The wave is
//!   `PREFIX + benchmark` (default prefix `oh-`), the seat the model directory's name. Published
//!   precision: what the value is written with, and at least one decimal for a percentage, two for
//!   dollars, none for seconds (how the index writes them).
//! - **Terminal-Bench** (a run's `results.json`): `accuracy` → `accuracy` (with `n_resolved` of
//!   `n_resolved + n_unresolved`), `pass_at_k` → `pass_at_k.K`. Written by the harness unrounded:
//!   an interval of ±10⁻⁹ ([`FULL_PRECISION`]).
//! - **HAL** (an `*_UPLOAD.json`): `results.accuracy` → `accuracy`, `results.total_cost` (else the
//!   top-level `total_cost`) → `cost_usd`. Unrounded, ±10⁻⁹.
//! - **Harbor** (a job's `result.json`) and **lm-evaluation-harness** (a run's
//!   `results_<date>.json`): see their modules.
//!
//! Large files (a HAL upload holds every conversation; a Terminal-Bench run every trial) are
//! streamed, their top-level keys skipped unread but for the few figures published.
//!
//! Each reader lives beside its format's importer, in `import/<format>/claims.rs` (one module
//! per format: the files it reads, read once, in one place); they are re-exported here, where
//! the commands and the review call them.

pub use crate::import::claims::FULL_PRECISION;
pub use crate::import::hal::claims::hal;
pub use crate::import::harbor::claims::harbor;
pub use crate::import::lm_eval::claims::lm_eval;
pub use crate::import::openhands::claims::{OpenHandsDir, openhands};
pub use crate::import::terminal_bench::claims::terminal_bench;
