//! The `benchledger` command line: what the user typed ([`cli`]), one function per subcommand
//! ([`commands`]), and tables drawn for a terminal ([`terminal`]). Everything a command computes,
//! stores or publishes lives in `benchledger_core`; this crate parses, calls it, and prints.

pub mod advice;
pub mod cli;
pub mod commands;
pub mod terminal;
