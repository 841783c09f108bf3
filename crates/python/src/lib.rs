//! `benchledger._native`: the compiled half of the Python package (python/benchledger holds the
//! typed, documented API that calls it). It runs benchledger's commands in the Python process,
//! bound to the library rather than calling a binary:
//!
//! - [`main`] is the package's `benchledger` command: the whole command line, exit status kept;
//! - [`run`] runs one command against a ledger with its output captured, for the API's
//!   documents (each the `--format json` document of its command, built by the same code);
//! - [`table`] hands `export --what attempts|seats` over as Arrow arrays ([`arrow`]).
//!
//! Every call releases the GIL while it works, so other Python threads run during a long
//! ingest, rescore or bootstrap. An error becomes one of `benchledger.errors`' exceptions,
//! chosen by the command line's exit status and carrying its message.

mod arrow;

use std::path::PathBuf;

use benchledger::commands::{self, Surroundings};
use benchledger_core::error::Error;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The command line, run in this process: `argv` as `sys.argv` gives it (the program's name
/// first). Returns the exit status.
#[pyfunction]
fn main(py: Python<'_>, argv: Vec<String>) -> u8 {
    py.detach(move || benchledger::main_from(argv))
}

/// Runs one command (`args`, without the program's name) against the ledger `db`, its output
/// captured. Returns the output and the waves it added; an error raises `benchledger.errors`'
/// class for its exit status, with the output printed before it as `output`.
#[pyfunction]
fn run(py: Python<'_>, db: Option<String>, args: Vec<String>) -> PyResult<(String, Vec<String>)> {
    let mut argv = vec!["benchledger".to_string()];
    if let Some(db) = db {
        // One argument, so that no path or URL is ever read as an option of its own.
        argv.push(format!("--db={db}"));
    }
    argv.extend(args);
    let result = py.detach(move || -> Result<(String, Vec<String>), Failure> {
        use clap::Parser;
        let cli = benchledger::cli::Cli::try_parse_from(argv).map_err(Failure::Usage)?;
        let mut out = Vec::new();
        let done = quiet_surroundings()
            .and_then(|s| commands::run_for(cli, &mut out, s))
            .map_err(|e| Failure::Command(Box::new(e), out.clone()))?;
        Ok((String::from_utf8_lossy(&out).into_owned(), done.added_waves))
    });
    result.map_err(|f| f.raise(py))
}

/// Checks that `db` opens as a ledger to read, as every command that reads it opens it.
#[pyfunction]
fn open(py: Python<'_>, db: String) -> PyResult<()> {
    py.detach(move || with_ledger(&db, |_| Ok(())))
        .map_err(|e| Failure::Command(Box::new(e), Vec::new()).raise(py))
}

/// The rows of `export --what attempts|seats` (`what`) of the named waves (every wave not
/// withdrawn when `None`), as an object with `__arrow_c_stream__`.
#[pyfunction]
#[pyo3(signature = (db, what, waves=None, include_withdrawn=false))]
fn table(
    py: Python<'_>,
    db: String,
    what: &str,
    waves: Option<Vec<String>>,
    include_withdrawn: bool,
) -> PyResult<arrow::Table> {
    let source = match what {
        "attempts" => commands::export::Source::Attempts,
        "seats" => commands::export::Source::Seats,
        other => {
            return Err(PyRuntimeError::new_err(format!(
                "table({other:?}): attempts or seats"
            )));
        }
    };
    let waves = waves.unwrap_or_default();
    py.detach(move || {
        with_ledger(&db, |ledger| {
            let ids = commands::export::chosen_waves(ledger, &waves, include_withdrawn)?;
            let mut all = Vec::with_capacity(ids.len());
            for id in &ids {
                all.push(commands::export::wave_rows(ledger, &source, id)?);
            }
            Ok(all)
        })
    })
    .map_err(|e| Failure::Command(Box::new(e), Vec::new()).raise(py))
    .and_then(|rows| arrow::Table::of(&rows, what).map_err(PyRuntimeError::new_err))
}

/// Opens the ledger at `db` to read, as the commands do (refusing what is not a regular file),
/// and hands it to `f`.
fn with_ledger<T>(
    db: &str,
    f: impl FnOnce(&benchledger_core::ledger::Ledger) -> Result<T, Error>,
) -> Result<T, Error> {
    let s = quiet_surroundings()?;
    let mut sink = std::io::sink();
    let ctx = commands::Ctx {
        out: &mut sink,
        db_flag: Some(PathBuf::from(db)),
        now: s.now,
        interactive: false,
        stderr_terminal: false,
        db_env: None,
        wait: std::time::Duration::from_secs(600),
        layout: benchledger::terminal::Layout::full(),
        outcome: commands::Outcome::default(),
    };
    f(&ctx.open()?)
}

/// A command's surroundings in a library call: no terminal (no progress bars, full-width
/// output), the ledger always named, "now" from the clock or $BENCHLEDGER_NOW.
fn quiet_surroundings() -> Result<Surroundings, Error> {
    Ok(Surroundings {
        now: commands::now()?,
        db_env: None,
        interactive: false,
        stderr_terminal: false,
        width: None,
    })
}

/// Why a call failed, before it becomes a Python exception.
enum Failure {
    /// The arguments the API built were refused by the command line's parser.
    Usage(clap::Error),
    /// The command failed, having printed this much.
    Command(Box<Error>, Vec<u8>),
}

impl Failure {
    /// The exception of `benchledger.errors` for this failure: `CheckFailed` (exit status 1),
    /// `Unavailable` (3) or `BadInput` (2), its message the command line's, with `exit_code`
    /// and the `output` printed before the failure.
    fn raise(self, py: Python<'_>) -> PyErr {
        let (code, message, output) = match self {
            Failure::Usage(e) => (2, e.render().to_string().trim().to_string(), Vec::new()),
            Failure::Command(e, out) => (e.exit_code(), benchledger::advice::message(&e), out),
        };
        let class = match code {
            1 => "CheckFailed",
            3 => "Unavailable",
            _ => "BadInput",
        };
        let made = (|| -> PyResult<PyErr> {
            let errors = py.import("benchledger.errors")?;
            let kwargs = PyDict::new(py);
            kwargs.set_item("exit_code", code)?;
            kwargs.set_item("output", String::from_utf8_lossy(&output))?;
            let value = errors.getattr(class)?.call((message,), Some(&kwargs))?;
            Ok(PyErr::from_value(value))
        })();
        made.unwrap_or_else(|e| e)
    }
}

/// The module `benchledger._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(main, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(open, m)?)?;
    m.add_function(wrap_pyfunction!(table, m)?)?;
    m.add_class::<arrow::Table>()?;
    Ok(())
}
