//! The one error type of benchledger.
//!
//! Every message says what went wrong *and where* — the file, line and field of bad input, the
//! flag, the wave or the rubric version — and, where there is one, what to do next. The
//! variant decides the exit status: 2 for bad input or usage, 1 for a check that failed
//! (`rubric check`, `verify`).

use std::path::{Path, PathBuf};

/// Where in an input file something is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub path: PathBuf,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// The field (key, column) at fault, when known.
    pub field: Option<String>,
}

impl Location {
    pub fn file(path: &Path) -> Location {
        Location {
            path: path.to_path_buf(),
            line: None,
            field: None,
        }
    }

    pub fn line(path: &Path, line: usize) -> Location {
        Location {
            path: path.to_path_buf(),
            line: Some(line),
            field: None,
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

    /// The request contradicts what the ledger already holds (a different wave under an
    /// existing id, different text under an existing rubric version).
    #[error("{0}")]
    Conflict(String),

    /// The ledger file is not one this version can use.
    #[error("{path}: {message}", path = path.display())]
    Ledger { path: PathBuf, message: String },

    /// SQLite failed underneath us.
    #[error("ledger {path}: {source}", path = path.display())]
    Sqlite {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },

    /// A check ran and did not pass (rubric check, verify). The message is the report.
    #[error("{0}")]
    CheckFailed(String),
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

    /// The process exit status this error maps to: 1 for a failed check, 2 otherwise.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::CheckFailed(_) => 1,
            _ => 2,
        }
    }
}
