//! Versioned price tables: what a token cost, in US dollars, so that a seat whose harness did
//! not record its costs still gets them, and all of history can be priced alike.
//!
//! A price table (`prices/NAME.vVERSION.toml`, docs/prices.md) gives USD per million tokens for
//! new input, output, cached reads and cache writes, per model, with the date and source of the
//! prices. Registered in the ledger it is frozen like a rubric: its text verbatim, with its
//! SHA-256, so a leaderboard priced with it reproduces after the file changes.
//!
//! This module is pure, as [`crate::rubric`] is: `spec` parses and checks a table's text,
//! `cost` prices attempts under it — data in, data out, no I/O. The commands read the files
//! and the ledger, and the reports say which table priced which attempts.

pub(crate) mod cost;
pub(crate) mod spec;

pub use cost::{Costs, Pricing, SeatPricing, Unpriced, attempt_cost, price_wave};
pub use spec::{ModelPrice, PriceTable, parse};
