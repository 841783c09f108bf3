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
//! - [`report`]: renderers that turn results into text (table, markdown, CSV, JSON);
//! - [`site`]: the static site, pages and SVG charts as strings (pure);
//! - [`commands`]: one function per subcommand, the only place that reads files, prints, or
//!   knows the clock;
//! - [`cli`]: what the user typed (clap types only).

pub mod chain;
pub mod claims;
pub mod cli;
pub mod commands;
pub mod diagnostics;
pub mod digest;
pub mod error;
pub mod export;
pub mod figures;
pub mod formats;
pub mod import;
pub mod ingest;
pub mod ledger;
pub mod model;
pub mod prices;
pub mod publication;
pub mod report;
pub mod rubric;
pub mod site;
pub mod stats;

pub use error::{Error, Result};
