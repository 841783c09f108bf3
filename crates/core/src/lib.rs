//! benchledger keeps a long-lived leaderboard for AI-agent benchmarks in one embedded SQLite
//! file, and scores it with versioned, declarative TOML rubrics whose numbers cannot lie.
//!
//! The crate is layered so that each concept has one home:
//!
//! - [`model`]: plain data (waves, seats, attempts, conditions) shared by everything;
//! - [`diagnostics`]: how bad input is reported (file, line, field, the closest known name),
//!   shared by ingest and the rubric language;
//! - [`ingest`]: wave manifests and result files, parsed and checked, into the model;
//! - [`ledger`]: the SQLite file; the only module that speaks SQL;
//! - [`figures`]: a seat's absolute figures (accuracy with its denominator, tokens, wall, USD,
//!   Cost-of-Pass), pure;
//! - [`prices`]: versioned price tables, and the costs they give attempts, pure;
//! - [`claims`]: published numbers checked against the ledger, pure;
//! - [`report`]: every listing built once as data (a [`report::Table`] for people, a JSON
//!   value for machines) and rendered as Markdown, CSV or JSON; a terminal's tables are drawn
//!   by the command line, which is the only face that has a terminal;
//! - [`publication`]: what a publication freezes, rendered once for `publish` and `verify`;
//! - [`site`]: the static site, pages and SVG charts as strings (pure);
//! - [`review`]: a submission checked under declared rules before it joins the leaderboard;
//! - [`verify`]: publications recomputed and compared byte for byte, the chain and the ledger
//!   checked against what they were derived from.
//!
//! The library depends on no terminal or command-line crate: the `benchledger` binary, the
//! Python package and the site are faces that call it (ARCHITECTURE.md).
//!
//! Start with what is named at the root: a [`Ledger`] opened on a file or a server, the waves
//! it holds ([`WaveData`]: a [`Wave`]'s conditions, its seats and their attempts), a
//! [`Rubric`] parsed and checked, and the [`Error`] every call returns, whose [`Hint`] says what
//! to do next. The modules below hold the rest; what only the library uses inside itself is
//! not public.
//!
//! # Example
//!
//! A ledger, a wave ingested from its manifest, and its leaderboard under a rubric, as the
//! command line's `score --format json` prints it:
//!
//! ```
//! use std::path::Path;
//! use benchledger_core::{Ledger, documents, import::Quiet, ingest};
//!
//! # fn main() -> benchledger_core::Result<()> {
//! let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
//! let ledger = Ledger::in_memory()?;
//! let wave = root.join("examples/rca-wave-2/wave.toml");
//! let report = ingest::run::manifests(&ledger, &[wave], "2026-12-04T00:00:00Z", &mut Quiet)?;
//! assert_eq!(report.added(), ["rca-wave-2"]);
//!
//! let rubric = root.join("rubrics/accuracy.v1.toml");
//! let board = documents::score(
//!     &ledger,
//!     "rca-wave-2",
//!     rubric.to_str().unwrap(),
//!     false,
//!     &documents::Prices::default(),
//!     documents::Ci::default(),
//! )?;
//! let json: serde_json::Value = serde_json::from_str(&board.to_json()).unwrap();
//! assert_eq!(json["kind"], "score");
//! assert_eq!(json["rubric"]["name"], "accuracy");
//! // Ranked: the leader first, its score on the rubric's declared scale (0 to 1).
//! assert_eq!(json["seats"][0]["seat"], "openai-hierarchical");
//! assert_eq!(json["seats"][0]["score"], 1.0);
//! # Ok(())
//! # }
//! ```

pub mod attest;
pub mod cancel;
pub mod chain;
pub mod claims;
pub mod diagnostics;
pub mod digest;
pub mod documents;
pub mod error;
pub mod export;
pub mod figures;
pub mod files;
pub mod formats;
pub mod import;
pub mod ingest;
pub mod ledger;
pub mod model;
pub mod models;
pub mod number;
pub mod prices;
pub mod publication;
pub mod registry;
pub mod report;
pub mod rescore;
pub mod review;
pub mod rubric;
pub mod site;
pub mod stats;
pub mod text;
pub mod untrusted;
pub mod verify;

pub use error::{Error, Hint, Result};
pub use ledger::Ledger;
pub use model::{Attempt, Seat, SeatData, Wave, WaveData};
pub use rubric::{Rubric, RubricInfo, SeatScore, WaveScores};
