//! One function per subcommand. This is the only layer that reads files, writes output, or
//! knows the clock; everything it calls takes data and returns data (or speaks SQL, in the
//! ledger). Output goes through a `&mut dyn Write`, so every command can be run and snapshotted
//! in-process.

mod audit;
mod bundle;
mod claims;
mod compare;
mod completions;
mod copy;
mod demo;
mod export;
mod files;
mod history;
mod ingest;
mod keys;
mod memory;
mod models;
mod plan;
mod prices;
mod problems;
mod publish;
mod review;
mod rubric;
mod rules;
mod score;
mod site;
mod trials;
mod verify;
mod waves;
mod withdraw;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::cli::{Cli, Command};
use benchledger_core::cancel::Cancel;
use benchledger_core::error::{Error, Result};
use benchledger_core::ledger::{Ledger, Wait};

/// The ledger used when neither --db nor BENCHLEDGER_DB names one.
pub const DEFAULT_DB: &str = "benchledger.db";

/// What every command may need from its surroundings.
pub struct Ctx<'a> {
    pub out: &'a mut dyn Write,
    /// The --db flag, when given.
    pub db_flag: Option<PathBuf>,
    /// "Now", as RFC 3339. Fixed by BENCHLEDGER_NOW in tests so outputs are reproducible.
    pub now: String,
    /// Whether stdout is a terminal (progress bars only then).
    pub interactive: bool,
    /// Whether stderr is a terminal (progress and waiting are said there only then).
    pub stderr_terminal: bool,
    /// $BENCHLEDGER_DB, when set.
    pub db_env: Option<PathBuf>,
    /// How long a write waits for another writer (--wait).
    pub wait: Duration,
    /// How text is laid out: the terminal's width (none when piped or --wide), and the
    /// footnotes this output has printed.
    pub layout: crate::terminal::Layout,
    /// What the command did besides its output, for a caller in the same process.
    pub outcome: Outcome,
    /// What asks the command's ledger work to stop before it commits (see
    /// [`Surroundings::cancel`]): handed to every ledger [`Ctx::open`] and [`Ctx::open_write`]
    /// open.
    pub cancel: Cancel,
}

/// What a command did besides printing, for a caller that runs it in-process and needs it as
/// data (the Python module): the output says it for people.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The waves an ingest added, in the order of its manifests (a wave already in the ledger
    /// with the same content is not among them).
    pub added_waves: Vec<String>,
}

impl Ctx<'_> {
    /// The ledger path: --db, else $BENCHLEDGER_DB, else ./benchledger.db.
    pub fn db_path(&self) -> PathBuf {
        if let Some(p) = &self.db_flag {
            return p.clone();
        }
        self.db_env
            .clone()
            .unwrap_or_else(|| PathBuf::from(DEFAULT_DB))
    }

    /// Opens the ledger to read it: read-only when it cannot be written (a command that then
    /// writes fails with exit status 3). A write waits for another writer as --wait allows.
    pub fn open(&self) -> Result<Ledger> {
        let mut ledger = Ledger::open_for_reading(&self.ledger_file()?)?;
        ledger.set_wait(self.wait())?;
        ledger.set_cancel(self.cancel.clone());
        Ok(ledger)
    }

    /// Opens the ledger to write it. A write waits for another writer as --wait allows, and
    /// says so on a terminal.
    pub fn open_write(&self) -> Result<Ledger> {
        let mut ledger = Ledger::open_for_writing(&self.ledger_file()?)?;
        ledger.set_wait(self.wait())?;
        ledger.set_cancel(self.cancel.clone());
        Ok(ledger)
    }

    /// The ledger path, refused when something other than a regular file is there: SQLite
    /// would block for ever reading a FIFO, and read a device as an empty database.
    pub fn ledger_file(&self) -> Result<PathBuf> {
        let path = self.db_path();
        if let Some(kind) = files::irregular_at(&path) {
            return Err(Error::Usage(format!(
                "{} is {kind}, not a ledger file: point --db or BENCHLEDGER_DB at the ledger",
                Ledger::shown(&path).display()
            )));
        }
        Ok(path)
    }

    fn wait(&self) -> Wait {
        Wait {
            limit: self.wait,
            announce: if self.stderr_terminal {
                Some(Box::new(announce_wait))
            } else {
                None
            },
        }
    }

    /// A listing in the chosen format; a table for people fitted to the terminal, its
    /// footnotes printed once per output.
    pub fn render<T: serde::Serialize>(
        &mut self,
        format: crate::cli::Format,
        kind: &str,
        table: &benchledger_core::report::Table,
        json: &T,
    ) -> String {
        crate::terminal::render_in(format, kind, table, json, &mut self.layout)
    }

    /// Writes a library document in the chosen format.
    pub fn write_document(
        &mut self,
        format: crate::cli::Format,
        document: &benchledger_core::documents::Document,
    ) -> Result<()> {
        let text = self.render(format, document.kind, &document.table, &document.json);
        self.write(&text)
    }

    /// Writes prose: each line wrapped to the terminal's width.
    pub fn write_prose(&mut self, s: &str) -> Result<()> {
        let text = self.layout.wrap(s);
        self.write(&text)
    }

    pub fn write(&mut self, s: &str) -> Result<()> {
        self.out
            .write_all(s.as_bytes())
            .map_err(|e| Error::io(std::path::Path::new("<stdout>"), e))
    }
}

/// Says on a terminal that a write is waiting for another writer's lock.
fn announce_wait(ledger: &Path, limit: Duration) {
    eprintln!(
        "waiting for another writer to finish with {} (up to {} s; see --wait)...",
        ledger.display(),
        limit.as_secs()
    );
}

/// The interval settings `--ci`, `--resamples` and `--seed` ask for, checked: `None` when no
/// interval is asked for (`--ci` not given, unless `always`: `versus` always draws its one).
pub(crate) fn interval_settings(
    ci: crate::cli::CiArgs,
    always: bool,
) -> Result<Option<benchledger_core::stats::bootstrap::Settings>> {
    ci_of(ci).settings(always)
}

/// The library's interval request from `--ci`, `--resamples` and `--seed`.
pub(crate) fn ci_of(ci: crate::cli::CiArgs) -> benchledger_core::documents::Ci {
    benchledger_core::documents::Ci {
        level: ci.level,
        resamples: ci.resamples,
        seed: ci.seed,
    }
}

/// The library's pricing request from `--prices` and `--reprice`.
pub(crate) fn prices_of(p: &crate::cli::PricesArg) -> benchledger_core::documents::Prices {
    benchledger_core::documents::Prices {
        table: p.prices.clone(),
        reprice: p.reprice,
    }
}

/// What a command takes from its surroundings besides its arguments. [`run`] reads them from
/// the process; a caller that runs commands in-process (the tests) gives them, so that no
/// command reads the environment, the clock or the terminal itself.
#[derive(Debug, Clone)]
pub struct Surroundings {
    /// "Now", as RFC 3339: $BENCHLEDGER_NOW, else the clock.
    pub now: String,
    /// $BENCHLEDGER_DB, when set and not empty.
    pub db_env: Option<PathBuf>,
    /// Whether stdout is a terminal (progress bars only then).
    pub interactive: bool,
    /// Whether stderr is a terminal (progress and waiting are said there only then).
    pub stderr_terminal: bool,
    /// The terminal's width in columns, when it says (or $COLUMNS).
    pub width: Option<usize>,
    /// What asks the command to stop, writing nothing: a caller that runs the command on a
    /// thread of its own sets it (the Python module, on Ctrl-C), and the ledger's work stops
    /// at its next check with [`Error::Interrupted`] (`benchledger_core::cancel`). The command
    /// line never sets it: Ctrl-C ends its process, and the store undoes a write that had not
    /// committed.
    pub cancel: Cancel,
}

impl Surroundings {
    /// This process's surroundings.
    pub fn of_process() -> Result<Surroundings> {
        use std::io::IsTerminal;
        Ok(Surroundings {
            now: now()?,
            db_env: std::env::var_os("BENCHLEDGER_DB")
                .filter(|p| !p.is_empty())
                .map(PathBuf::from),
            interactive: std::io::stdout().is_terminal(),
            stderr_terminal: std::io::stderr().is_terminal(),
            width: terminal_width(),
            cancel: Cancel::new(),
        })
    }
}

/// The current time as RFC 3339 UTC to the second, or $BENCHLEDGER_NOW when set (for
/// reproducible tests), which must be an RFC 3339 date-time: it goes into record hashes, so it
/// is checked and written the one way benchledger writes times.
pub fn now() -> Result<String> {
    let fmt =
        |t: chrono::DateTime<chrono::Utc>| t.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true);
    match std::env::var("BENCHLEDGER_NOW") {
        Ok(s) if !s.is_empty() => chrono::DateTime::parse_from_rfc3339(&s)
            .map(|t| fmt(t.with_timezone(&chrono::Utc)))
            .map_err(|_| {
                Error::Usage(format!(
                    "BENCHLEDGER_NOW={s:?} is not an RFC 3339 date-time like \
                     2026-03-04T10:00:00Z; fix or unset it (it fixes \"now\" for reproducible \
                     tests)"
                ))
            }),
        _ => Ok(chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)),
    }
}

/// The width of the terminal on stdout, in columns: asked of the terminal, else $COLUMNS.
fn terminal_width() -> Option<usize> {
    terminal_size::terminal_size_of(std::io::stdout())
        .map(|(w, _)| usize::from(w.0))
        .filter(|w| *w > 0)
        .or_else(|| std::env::var("COLUMNS").ok()?.trim().parse().ok())
}

/// Runs a parsed command line, writing its output to `out`.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<()> {
    run_in(cli, out, Surroundings::of_process()?)
}

/// Runs a parsed command line in the given surroundings, writing its output to `out`.
pub fn run_in(cli: Cli, out: &mut dyn Write, s: Surroundings) -> Result<()> {
    run_for(cli, out, s).map(|_| ())
}

/// Runs a parsed command line in the given surroundings, writing its output to `out`, and
/// returns what it did besides (see [`Outcome`]).
pub fn run_for(cli: Cli, out: &mut dyn Write, s: Surroundings) -> Result<Outcome> {
    let layout = match s.width {
        Some(w) if s.interactive && !cli.wide => crate::terminal::Layout::fit(w),
        _ => crate::terminal::Layout::full(),
    };
    let mut ctx = Ctx {
        out,
        db_flag: cli.db,
        now: s.now,
        interactive: s.interactive,
        stderr_terminal: s.stderr_terminal,
        db_env: s.db_env,
        wait: Duration::from_secs(
            cli.command
                .wait()
                .or(cli.wait)
                .unwrap_or(crate::cli::DEFAULT_WAIT_SECONDS),
        ),
        layout,
        outcome: Outcome::default(),
        cancel: s.cancel,
    };
    let done = match cli.command {
        Command::Init => ingest::init(&mut ctx),
        Command::Ingest(args) => ingest::run_ingest(&mut ctx, args),
        Command::Waves(args) => waves::run_waves(&mut ctx, args),
        Command::Show(args) => waves::run_show(&mut ctx, args),
        Command::Rubric { command } => rubric::run(&mut ctx, command),
        Command::Prices { command } => prices::run(&mut ctx, command),
        Command::Score(args) => score::run(&mut ctx, args),
        Command::Rescore(args) => audit::run_rescore(&mut ctx, args),
        Command::History(args) => history::run(&mut ctx, args),
        Command::Diff(args) => audit::run_diff(&mut ctx, args),
        Command::Compare(args) => compare::run(&mut ctx, args),
        Command::Review(args) => review::run(&mut ctx, args),
        Command::Rules { command } => rules::run(&mut ctx, command),
        Command::Claims { command } => claims::run(&mut ctx, command),
        Command::Publish(args) => publish::run_publish(&mut ctx, args),
        Command::Publications(args) => publish::run_publications(&mut ctx, args),
        Command::Models(args) => models::run(&mut ctx, args),
        Command::Keygen(args) => keys::run_keygen(&mut ctx, args),
        Command::Sign(args) => keys::run_sign(&mut ctx, args),
        Command::Verify(args) => verify::run(&mut ctx, args),
        Command::Withdraw(args) => withdraw::run(&mut ctx, args),
        Command::Trials(args) => trials::run_trials(&mut ctx, args),
        Command::Versus(args) => trials::run_versus(&mut ctx, args),
        Command::Plan(args) => plan::run(&mut ctx, args),
        Command::Problems(args) => problems::run(&mut ctx, args),
        Command::Bundle(args) => bundle::run(&mut ctx, args),
        Command::Copy(args) => copy::run(&mut ctx, args),
        Command::Export(args) => export::run(&mut ctx, args),
        Command::Site(args) => site::run(&mut ctx, args),
        Command::Demo(args) => demo::run(&mut ctx, args),
        Command::Completions(args) => completions::run_completions(&mut ctx, args),
        Command::Man(args) => completions::run_man(&mut ctx, args),
    };
    done.map(|()| ctx.outcome)
}
