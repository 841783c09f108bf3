//! The hashed formats: every serialisation whose bytes a hash is computed over, written by
//! hand, versioned, and documented field by field in docs/formats.md.
//!
//! A hash stored in the ledger or printed in a publication must come out the same from the same
//! data in every later build, so what is hashed is never "whatever the in-memory struct
//! serialises to": a field added to [`crate::model`] changes no hash until a new format version
//! chooses to include it. Each wave and publication records the version it was hashed in, and
//! this module keeps the writer of every version ever shipped, so old hashes are recomputed
//! exactly as they were made.
//!
//! - [`json`]: the canonical JSON every format is written in, and `read` to read it back;
//! - [`wave`]: a wave's content, behind its content hash;
//! - [`input`]: a publication's input rows, behind its input digest;
//! - [`record`]: the entries of the chain (publications, withdrawals), behind their record
//!   hashes.
//!
//! And one format that is stored but not hashed, versioned the same way: [`tally`], a seat's
//! totals kept beside it for rescoring.

pub mod input;
pub mod json;
pub(crate) mod read;
pub mod record;
pub mod tally;
pub mod wave;

use read::Val;

/// A hashed text that cannot be written or read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// The version is not one this build knows: written by a newer benchledger.
    #[error(
        "{what} format {version} is not one this benchledger knows (it writes and reads \
         versions up to {latest}): it was written by a newer benchledger; upgrade to check it"
    )]
    Unknown {
        what: &'static str,
        version: u32,
        latest: u32,
    },
    /// The text is not what its format says it is.
    #[error("{0}")]
    Malformed(String),
}

impl FormatError {
    pub(crate) fn unknown(what: &'static str, version: u32, latest: u32) -> FormatError {
        FormatError::Unknown {
            what,
            version,
            latest,
        }
    }
}

/// Reads a parsed canonical JSON value field by field, naming the path of what is missing or
/// of the wrong type.
pub(crate) struct Decoder<'a> {
    v: &'a Val,
    path: String,
}

impl<'a> Decoder<'a> {
    pub(crate) fn root(v: &'a Val) -> Decoder<'a> {
        Decoder {
            v,
            path: String::new(),
        }
    }

    fn err(&self, expected: &str) -> FormatError {
        let at = if self.path.is_empty() {
            "the top level"
        } else {
            &self.path
        };
        FormatError::Malformed(format!("{at}: expected {expected}, got {}", self.v))
    }

    pub(crate) fn field(&self, name: &str) -> Result<Decoder<'a>, FormatError> {
        let path = if self.path.is_empty() {
            name.to_string()
        } else {
            format!("{}.{name}", self.path)
        };
        match self.v {
            Val::Obj(_) => match self.v.get(name) {
                Some(v) => Ok(Decoder { v, path }),
                None => Err(FormatError::Malformed(format!("{path}: missing"))),
            },
            _ => Err(self.err("an object")),
        }
    }

    pub(crate) fn is_null(&self) -> bool {
        *self.v == Val::Null
    }

    pub(crate) fn array(&self) -> Result<Vec<Decoder<'a>>, FormatError> {
        match self.v {
            Val::Arr(items) => Ok(items
                .iter()
                .enumerate()
                .map(|(i, v)| Decoder {
                    v,
                    path: format!("{}[{i}]", self.path),
                })
                .collect()),
            _ => Err(self.err("an array")),
        }
    }

    pub(crate) fn string(&self) -> Result<String, FormatError> {
        self.v
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| self.err("a string"))
    }

    pub(crate) fn bool(&self) -> Result<bool, FormatError> {
        match self.v {
            Val::Bool(b) => Ok(*b),
            _ => Err(self.err("true or false")),
        }
    }

    /// A whole number, written without a point or an exponent.
    fn whole<T: std::str::FromStr>(&self) -> Result<T, FormatError> {
        match self.v {
            Val::Num(n) if !n.contains(['.', 'e', 'E']) => {
                n.parse().map_err(|_| self.err("a whole number in range"))
            }
            _ => Err(self.err("a whole number")),
        }
    }

    pub(crate) fn u64(&self) -> Result<u64, FormatError> {
        self.whole()
    }

    pub fn i64(&self) -> Result<i64, FormatError> {
        self.whole()
    }

    pub(crate) fn u32(&self) -> Result<u32, FormatError> {
        self.whole()
    }

    /// A measured number: read from its text, so it is exactly the `f64` that was written.
    pub(crate) fn f64(&self) -> Result<f64, FormatError> {
        match self.v {
            Val::Num(n) => n.parse().map_err(|_| self.err("a number")),
            _ => Err(self.err("a number")),
        }
    }

    fn opt<T>(
        &self,
        read: impl FnOnce(&Self) -> Result<T, FormatError>,
    ) -> Result<Option<T>, FormatError> {
        if self.is_null() {
            Ok(None)
        } else {
            read(self).map(Some)
        }
    }

    pub(crate) fn opt_string(&self) -> Result<Option<String>, FormatError> {
        self.opt(Self::string)
    }

    pub(crate) fn opt_bool(&self) -> Result<Option<bool>, FormatError> {
        self.opt(Self::bool)
    }

    pub(crate) fn opt_u64(&self) -> Result<Option<u64>, FormatError> {
        self.opt(Self::u64)
    }

    pub(crate) fn opt_u32(&self) -> Result<Option<u32>, FormatError> {
        self.opt(Self::u32)
    }

    pub(crate) fn opt_f64(&self) -> Result<Option<f64>, FormatError> {
        self.opt(Self::f64)
    }
}

/// Parses a canonical JSON text for a decoder.
pub(crate) fn parse(text: &str) -> Result<Val, FormatError> {
    read::parse(text)
}

#[cfg(test)]
mod tests;
