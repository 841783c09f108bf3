//! The one error type of benchledger.
//!
//! Every message says what went wrong *and where* — the file, line and field of bad input, the
//! flag, the wave or the rubric version — and, where there is one, what to do next. The
//! variant decides the exit status: 2 for bad input or usage, 1 for a check that failed
//! (`rubric check`, `verify`), 3 for a command that could not complete through no fault of its
//! input (the ledger busy past `--wait`, read-only, or the disk failing), which wrote nothing,
//! and 130 (128 + SIGINT, as a shell reports a command Ctrl-C ended) for a write its caller
//! asked to stop ([`crate::cancel`]), which wrote nothing either.

use std::path::{Path, PathBuf};

/// Where in an input file something is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub path: PathBuf,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// The record at fault, in the words of a format that has records rather than lines
    /// ("sample 17 epoch 2", "task 3 trial 1"), when known.
    pub record: Option<String>,
    /// The field (key, column) at fault, when known.
    pub field: Option<String>,
}

impl Location {
    pub fn file(path: &Path) -> Location {
        Location {
            path: path.to_path_buf(),
            line: None,
            record: None,
            field: None,
        }
    }

    pub fn line(path: &Path, line: usize) -> Location {
        Location {
            line: Some(line),
            ..Location::file(path)
        }
    }

    /// A record of a file whose format has records: "log.eval: sample 17 epoch 2".
    pub fn record(path: &Path, record: impl Into<String>) -> Location {
        Location {
            record: Some(record.into()),
            ..Location::file(path)
        }
    }

    pub fn field(mut self, field: impl Into<String>) -> Location {
        self.field = Some(field.into());
        self
    }
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(record) = &self.record {
            write!(f, ": {record}")?;
        }
        if let Some(field) = &self.field {
            write!(f, ": field `{field}`")?;
        }
        Ok(())
    }
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input in a file the user gave us.
    #[error("{at}: {message}")]
    Input { at: Location, message: String },

    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// The user asked for something that does not exist or cannot be done as asked.
    #[error("{0}")]
    Usage(String),

    /// An argument of a call out of its range, or naming what is not there: the argument by
    /// the library's name for it (`alpha`, `seat`), the value given (`None` for a switch, such
    /// as `reprice`), and what was expected. Each face names the argument as its callers write
    /// it (the command line's `--alpha 1.5`, Python's `alpha=1.5`; see [`Argument`]).
    #[error("{}", Argument { name, value: value.as_deref() }.said(&|a| a.library(), message))]
    Argument {
        name: &'static str,
        value: Option<String>,
        message: String,
    },

    /// The request contradicts what the ledger already holds (a different wave under an
    /// existing id, different text under an existing rubric version).
    #[error("{0}")]
    Conflict(String),

    /// The ledger file is not one this version can use.
    #[error("{path}: {message}", path = path.display())]
    Ledger { path: PathBuf, message: String },

    /// The store failed underneath us (SQLite, or the PostgreSQL server) for a reason that is
    /// not the ledger's surroundings: a constraint, a malformed file, a bug. The message is the
    /// store's own. (Busy, read-only and failing ledgers are [`Error::Unavailable`].)
    #[error("ledger {path}: {message}", path = path.display())]
    Store { path: PathBuf, message: String },
    /// A check ran and did not pass (rubric check, verify). The message is the report.
    #[error("{0}")]
    CheckFailed(String),

    /// The command could not complete through no fault of its input: the ledger stayed busy
    /// past `--wait`, cannot be written, or the disk failed. Nothing was written. The message
    /// says which, and what to do.
    #[error("{path}: {message}", path = path.display())]
    Unavailable {
        path: PathBuf,
        cause: Cause,
        message: String,
    },
    /// An error with what the user can do next, as data (see [`Hint`]). Its message is the
    /// error's own; each face adds the hint in its own words.
    #[error("{error}")]
    Hinted { error: Box<Error>, hint: Box<Hint> },

    /// The caller asked the work to stop ([`crate::cancel::Cancel`]), and it stopped before its
    /// transaction committed: nothing was written.
    #[error("interrupted: nothing was written, the ledger is as it was")]
    Interrupted,
}

/// An argument of a call as an error names it ([`Error::Argument`]): its name in the library's
/// words and the value given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Argument<'a> {
    pub name: &'a str,
    /// `None` for a switch.
    pub value: Option<&'a str>,
}

impl Argument<'_> {
    /// The argument in the library's words: "`alpha` = 1.5", "`reprice`".
    pub fn library(&self) -> String {
        match self.value {
            Some(v) => format!("`{}` = {v}", self.name),
            None => format!("`{}`", self.name),
        }
    }

    /// The error's message with the argument named by `named`.
    pub fn said(&self, named: &dyn Fn(&Argument) -> String, message: &str) -> String {
        format!("{}: {message}", named(self))
    }
}

impl Error {
    /// An [`Error::Argument`] for `name` given as `value`.
    pub fn argument(name: &'static str, value: impl ToString, message: impl Into<String>) -> Error {
        Error::Argument {
            name,
            value: Some(value.to_string()),
            message: message.into(),
        }
    }

    /// An [`Error::Argument`] for the switch `name`.
    pub fn switch(name: &'static str, message: impl Into<String>) -> Error {
        Error::Argument {
            name,
            value: None,
            message: message.into(),
        }
    }
}

/// What the user can do next, named rather than said: each face (the command line, a library
/// caller) says it in its own words, naming its own commands, so the library's messages say
/// what went wrong and where, and never name a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hint {
    /// Register the rubric, or name its file instead.
    RegisterRubric,
    /// Register the price table.
    RegisterPrices,
    /// A registered price table was expected by name: register a price table file first.
    RegisterPricesFirst,
    /// No ledger is there: create one at this path, or name an existing one.
    CreateLedger(PathBuf),
    /// The file there is empty: create a ledger in it.
    InitLedger(PathBuf),
    /// The server has no such database: create it, then a ledger in it.
    CreateDatabase(PathBuf),
    /// A supersession cannot change after ingest: withdraw the wave by hand.
    Withdraw,
    /// Name a wave the ledger holds: list them.
    ListWaves,
    /// The ledger holds what no writer of it does: check it whole.
    VerifyAll,
    /// The ledger holds no waves: add one.
    AddWave,
    /// Name a publication the ledger holds: list them.
    ListPublications,
    /// No rubric with that hash is registered: register its file.
    RegisterRubricFile,
    /// A directory was named as the ledger: name the ledger file.
    NameLedgerFile,
    /// Another writer kept the ledger busy: run again when it is done, or wait longer.
    WaitLonger,
    /// A ledger of an older schema where it cannot be written: open it once where it can be
    /// (which upgrades it), or read it with the build that wrote it.
    UpgradeElsewhere,
    /// A wave built from results files (`crate::ingest::from`) lacks what the files do not
    /// say: give it as this option of [`crate::ingest::from::FromOptions`] (`model`,
    /// `provider`, `harness`, `suite`, `suite_problems`, `started_at`), or in a base manifest.
    Give(&'static str),
    /// As [`Hint::Give`], for several fields at once: every one the files do not say.
    GiveAll(Vec<&'static str>),
    /// A wave id the ledger holds with other content: give the new wave its own id.
    OwnWaveId,
    /// As [`Hint::OwnWaveId`], for a wave built from results files (`ingest --from`), which a
    /// user may have meant as seats added to the wave there: a wave cannot grow; ingest all its
    /// seats at once, under a new id.
    AddSeats,
    /// The input looks like results of this format (`crate::import::sniff`): read it as such.
    UseFormat(&'static str),
    /// A format of several scorers or metrics read with one its results lack: choose the one
    /// that decides Correct (a seat's `scorer`; `FromOptions::scorer`).
    ChooseScorer,
    /// A server ledger was named and this build has no PostgreSQL support: name an SQLite
    /// ledger, or build with the feature.
    NoServerSupport,
    /// A ledger was edited behind benchledger's back: check it whole with the build that
    /// wrote it.
    CheckWithWriter,
    /// A read-only ledger's write-ahead log holds changes not yet copied in: open it once where
    /// it can be written (which copies them in), then read it here.
    CopyInWhereWritable,
    /// The server refused to write: what only reads the ledger still works.
    ReadsStillWork,
    /// An argument needs another one beside it (`reprice` a price table, `resamples` an
    /// interval): give that one too, by the library's name for it.
    AlsoGive(&'static str),
    /// A rubric named by its file has no stored scores: register it, then store its scores
    /// (the file as named, the rubric's id).
    RegisterAndRescore { file: String, id: String },
    /// No stored score under the rubric for the seat named: check the seat's id among a
    /// wave's, or store the rubric's scores (its id).
    CheckSeatOrRescore(String),
    /// Fewer than two waves were named to compare: name two or more, oldest first (the seat).
    CompareTwo(String),
    /// A withdrawn wave was named: ask for withdrawn waves to be included (marked).
    IncludeWithdrawn,
    /// A rubric that must be registered is not: register it first (as the caller named it).
    RegisterFirst(String),
    /// The ledger no longer matches what was derived from it: verifying it whole names what
    /// changed.
    VerifyLedger,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn input(at: Location, message: impl Into<String>) -> Error {
        Error::Input {
            at,
            message: message.into(),
        }
    }

    pub fn io(path: &Path, source: std::io::Error) -> Error {
        Error::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    /// The same error, with what the user can do next.
    pub fn hinted(self, hint: Hint) -> Error {
        Error::Hinted {
            error: Box::new(self),
            hint: Box::new(hint),
        }
    }

    /// What the user can do next, when the error says.
    pub fn hint(&self) -> Option<&Hint> {
        match self {
            Error::Hinted { hint, .. } => Some(hint),
            Error::Unavailable {
                cause: Cause::Busy, ..
            } => Some(&Hint::WaitLonger),
            _ => None,
        }
    }

    /// The process exit status this error maps to: 1 for a failed check; 3 when the command
    /// could not complete through no fault of its input (the ledger busy, read-only or failing
    /// underneath, or a disk full, read-only or failing as a file was read or written); 130
    /// when the caller asked the work to stop ([`Error::Interrupted`]); 2 otherwise (bad input
    /// or usage).
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::CheckFailed(_) => 1,
            Error::Unavailable { .. } => 3,
            Error::Interrupted => 130,
            Error::Hinted { error, .. } => error.exit_code(),
            Error::Io { source, .. } if io_unavailable(source) => 3,
            _ => 2,
        }
    }
}

/// Why a command could not complete through no fault of its input ([`Error::Unavailable`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// Another process held the ledger's lock past the wait.
    Busy,
    /// The ledger (its file, directory or filesystem) cannot be written.
    ReadOnly,
    /// The ledger, or a file SQLite keeps beside it, cannot be opened.
    CannotOpen,
    /// The disk is full.
    DiskFull,
    /// A read or write on the disk failed.
    DiskFailed,
    /// Another writer changed what the command had read, in a way it cannot settle itself; run
    /// it again.
    Raced,
}

/// Whether an I/O error is the machine's fault rather than the input's: a full, read-only or
/// failing disk (not a missing file, a permission, or text that is not UTF-8).
fn io_unavailable(e: &std::io::Error) -> bool {
    use std::io::ErrorKind as K;
    const EIO: i32 = 5;
    matches!(
        e.kind(),
        K::StorageFull | K::ReadOnlyFilesystem | K::QuotaExceeded | K::FileTooLarge
    ) || e.raw_os_error() == Some(EIO)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_read_only_or_failing_disk_exits_3_and_bad_input_2() {
        let io = |e: std::io::Error| Error::io(Path::new("f"), e).exit_code();
        assert_eq!(io(std::io::ErrorKind::StorageFull.into()), 3);
        assert_eq!(io(std::io::ErrorKind::ReadOnlyFilesystem.into()), 3);
        assert_eq!(io(std::io::Error::from_raw_os_error(5)), 3);
        assert_eq!(io(std::io::ErrorKind::NotFound.into()), 2);
        assert_eq!(io(std::io::ErrorKind::PermissionDenied.into()), 2);
        assert_eq!(io(std::io::ErrorKind::InvalidData.into()), 2);
        assert_eq!(Error::CheckFailed(String::new()).exit_code(), 1);
        assert_eq!(Error::Usage(String::new()).exit_code(), 2);
        assert_eq!(Error::Interrupted.exit_code(), 130);
    }
}
