//! A publication's signature, as the ledger keeps it: the statement a publication's stored rows
//! make ([`crate::attest::Facts`]), signed when it is published (`publish --sign`) or later
//! (`sign`), and checked by `verify --trusted-key` against the rows as they are now.
//!
//! The subjects are hashed from the stored texts themselves, not read from their stored
//! digests: an edited text fails here even where its digest column was edited with it.

use std::path::Path;

use crate::attest::{self, Facts, PrivateKey, PublicKey};
use crate::digest::sha256_hex;
use crate::error::{Error, Location, Result};
use crate::files;
use crate::ledger::Ledger;
use crate::model::PublicationRow;

/// The version of benchledger that signs, recorded in the predicate.
pub(crate) const TOOL_VERSION: &str = env!("CARGO_PKG_VERSION");

/// A key file's text for `flag` (read as [`files::KEY`] caps it), or an error naming the file
/// (exit status 2).
pub(crate) fn read_key_text(path: &Path, flag: &str) -> Result<String> {
    files::read_text(path, files::KEY).map_err(|e| Error::Input {
        at: Location::file(path),
        message: format!("{flag}: cannot read the key file: {e}"),
    })
}

/// Refuses a private key file others can read or write: a key anyone on the machine can copy
/// signs as its owner (as ssh refuses such a key).
#[cfg(unix)]
fn check_private_mode(path: &Path, flag: &str) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path)
        .map_err(|e| Error::io(path, e))?
        .permissions()
        .mode();
    if mode & 0o077 != 0 {
        return Err(Error::Input {
            at: Location::file(path),
            message: format!(
                "{flag}: the private key file has mode {:04o}, so others on this machine can \
                 read it: make it yours alone (`chmod 600 {}`) and sign again",
                mode & 0o7777,
                path.display()
            ),
        });
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_private_mode(_: &Path, _: &str) -> Result<()> {
    Ok(())
}

/// A private key from its file, for `flag`; an error naming the file and what was expected.
pub fn read_private(path: &Path, flag: &str) -> Result<PrivateKey> {
    let text = read_key_text(path, flag)?;
    let key = PrivateKey::from_pem(&text).map_err(|why| Error::Input {
        at: Location::file(path),
        message: format!("{flag}: {why}"),
    })?;
    check_private_mode(path, flag)?;
    Ok(key)
}

/// A public key from its file (SubjectPublicKeyInfo PEM), for `flag` (`verify --trusted-key`);
/// an error naming the file and what was expected.
pub fn read_public(path: &Path, flag: &str) -> Result<PublicKey> {
    let text = read_key_text(path, flag)?;
    PublicKey::from_pem(&text).map_err(|why| Error::Input {
        at: Location::file(path),
        message: format!("{flag}: {why}"),
    })
}

/// The digests of a publication's stored texts, input then output.
struct TextDigests {
    input: String,
    output: String,
}

impl TextDigests {
    fn of(row: &PublicationRow) -> TextDigests {
        TextDigests {
            input: sha256_hex(row.input.as_bytes()),
            output: sha256_hex(row.output.as_bytes()),
        }
    }
}

/// The statement's facts of a publication row, its texts hashed in `texts` and its wave's
/// content hash given.
fn facts<'a>(row: &'a PublicationRow, texts: &'a TextDigests, wave_content: &'a str) -> Facts<'a> {
    Facts {
        publication: row.id,
        input_sha256: &texts.input,
        output_sha256: &texts.output,
        rubric: &row.rubric,
        rubric_sha256: &row.rubric_sha256,
        wave: &row.wave,
        wave_content_sha256: wave_content,
        record_sha256: &row.sha256,
    }
}

/// The envelope of a publication signed with `key`. `rubric` is its `NAME@VERSION` (a row
/// about to be appended does not carry it yet), `wave_content` its wave's content hash.
pub fn sign(key: &PrivateKey, row: &PublicationRow, rubric: &str, wave_content: &str) -> String {
    let texts = TextDigests::of(row);
    let mut facts = facts(row, &texts, wave_content);
    facts.rubric = rubric;
    key.sign(&facts, TOOL_VERSION)
}

/// What checking a publication's signature found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SignatureCheck {
    /// Whether an envelope is kept beside it.
    pub signed: bool,
    /// The key ids its envelope's signatures name.
    pub keyids: Vec<String>,
    /// Whether it is signed by the trusted key (false when none was given).
    pub trusted: bool,
    /// What is wrong (nothing, for an unsigned publication checked without a trusted key).
    pub problems: Vec<String>,
}

/// Checks publication `row`'s envelope, if it has one, against its stored rows and, when
/// `trusted` is given, that the trusted key signed it (an unsigned publication then fails).
pub fn check(
    ledger: &Ledger,
    row: &PublicationRow,
    trusted: Option<&PublicKey>,
) -> Result<SignatureCheck> {
    let Some(envelope) = ledger.publication_envelope(row.id)? else {
        let mut problems = Vec::new();
        if let Some(key) = trusted {
            problems.push(format!(
                "it is not signed (no envelope is kept beside it), so not by the trusted key {}",
                crate::digest::short(&key.id())
            ));
        }
        return Ok(SignatureCheck {
            problems,
            ..SignatureCheck::default()
        });
    };
    Ok(check_envelope(ledger, row, &envelope, trusted))
}

/// Checks an envelope said to be publication `row`'s (from its ledger, or a bundle's file).
pub(crate) fn check_envelope(
    ledger: &Ledger,
    row: &PublicationRow,
    envelope: &str,
    trusted: Option<&PublicKey>,
) -> SignatureCheck {
    let texts = TextDigests::of(row);
    let (wave_content, mut problems) = match ledger.wave_content_hash(&row.wave) {
        Ok(c) => (c.sha256, Vec::new()),
        Err(e) => (
            String::new(),
            vec![format!(
                "its wave's content hash cannot be read to check the signed statement: {e}"
            )],
        ),
    };
    let checked = attest::check(envelope, &facts(row, &texts, &wave_content), trusted);
    problems.extend(checked.problems);
    SignatureCheck {
        signed: true,
        keyids: checked.keyids,
        trusted: checked.signed_by_trusted,
        problems,
    }
}
