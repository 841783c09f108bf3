//! A publication's reproduction bundle, as `verify --bundle` reads it: the files a bundle
//! holds, and what a bundle's reader checks them against.
//!
//! A bundle comes back from someone else, so verifying one trusts nothing in it and touches
//! nothing: its ledger is read into memory from a regular file (never opened by SQLite, never
//! through a link, never beyond [`IMAGE_MAX_BYTES`]), its other files are read under the same
//! rules ([`crate::untrusted`]), and nothing is ever written inside it.
//! [`super::bundle_write`] writes one, under the file names built here.

use std::path::Path;

use crate::attest;
use crate::digest::sha256_hex;
use crate::error::{Error, Location, Result};
use crate::formats::input::PricesId;
use crate::ledger::{IMAGE_MAX_BYTES, Ledger, PublicationRow, RubricRow};
use crate::report;
use crate::report::publication::ENVELOPE_FILE;
use crate::untrusted::{self, Refusal};

/// The file a bundle keeps its ledger in.
pub(crate) const BUNDLE_LEDGER: &str = "ledger.db";
/// The file a bundle keeps the published text in.
pub(crate) const BUNDLE_OUTPUT: &str = "publication.md";
/// The file that tells a bundle's reader what it holds and how to check it.
pub(crate) const BUNDLE_README: &str = "README.md";
/// The largest `publication.md`, `README.md` or rubric file `verify --bundle` reads: 64 MiB.
pub(crate) const BUNDLE_TEXT_MAX_BYTES: u64 = 64 << 20;

/// Whether a stored name is a slug, by the rule ids and rubric names are checked with when
/// they come in (letters, digits, `.`, `_` and `-`, starting with a letter or digit): a slug
/// joined to a directory names a file directly inside it.
fn is_slug(s: &str) -> bool {
    crate::diagnostics::check_slug(Location::file(Path::new("")), "", s).is_ok()
}

/// A stored string for a message: quoted, and cut if it is long (a forged one can be huge).
fn quoted(s: &str) -> String {
    match s.char_indices().nth(60) {
        Some((i, _)) => format!("{:?}…", &s[..i]),
        None => format!("{s:?}"),
    }
}

/// The name of a bundle's rubric file, `NAME.vVERSION.toml`; an error (saying why) when the
/// stored rubric name is not a slug, which only an edit behind benchledger's back can make, and
/// from which no path is ever built.
pub(crate) fn rubric_file_name(rubric: &RubricRow) -> std::result::Result<String, String> {
    if is_slug(&rubric.name) {
        Ok(format!("{}.v{}.toml", rubric.name, rubric.version))
    } else {
        Err(format!(
            "its rubric's stored name {} is not a rubric name (letters, digits, '.', '_' and \
             '-', starting with a letter or digit): the ledger was edited behind benchledger's \
             back, and no file name was built from it",
            quoted(&rubric.name)
        ))
    }
}

/// The name of a bundle's price table file, `NAME.vVERSION.prices.toml`; an error (saying why)
/// when the name is not a slug — a stored name edited behind benchledger's back, or a
/// publication input naming one — from which no path is ever built.
pub(crate) fn prices_file_name(p: &PricesId) -> std::result::Result<String, String> {
    if is_slug(&p.name) {
        Ok(report::publication::prices_file_name(p))
    } else {
        Err(format!(
            "the price table name {} is not a price table name (letters, digits, '.', '_' and \
             '-', starting with a letter or digit): the ledger was edited behind benchledger's \
             back, and no file name was built from it",
            quoted(&p.name)
        ))
    }
}

/// Opens the ledger of the bundle in `dir` for verifying: its bytes, read from a regular file
/// of at most [`IMAGE_MAX_BYTES`], loaded into memory. Returns it with the notes `verify` prints
/// about the bundle (journal files beside the ledger, which are ignored).
pub fn open(dir: &Path) -> Result<(Ledger, Vec<String>)> {
    let not_a_bundle = |why: &str| {
        Error::Usage(format!(
            "{} is not a benchledger bundle: {why}",
            dir.display()
        ))
    };
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => return Err(not_a_bundle("it is not a directory")),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(not_a_bundle("it does not exist"));
        }
        Err(e) => return Err(Error::io(dir, e)),
    }
    let path = dir.join(BUNDLE_LEDGER);
    let opened = match untrusted::open(dir, BUNDLE_LEDGER, IMAGE_MAX_BYTES) {
        Ok(o) => o,
        Err(Refusal::Missing) => return Err(not_a_bundle(&format!("it has no {BUNDLE_LEDGER}"))),
        Err(r @ Refusal::TooLarge { .. }) => {
            return Err(Error::Usage(format!(
                "{} {r}: a bundle's ledger holds one publication and its wave. If this one \
                 really is that large, verify a copy of it as a ledger: `benchledger --db COPY \
                 verify --all`",
                path.display()
            )));
        }
        Err(r) => {
            return Err(Error::Usage(format!(
                "{} {r}. Nothing was read from it: put the ledger file itself in the bundle",
                path.display()
            )));
        }
    };
    let ledger = Ledger::from_image(&opened.path, opened.file, opened.len)?;
    let notes = ["-wal", "-shm", "-journal"]
        .iter()
        .map(|suffix| format!("{BUNDLE_LEDGER}{suffix}"))
        .filter(|name| std::fs::symlink_metadata(dir.join(name)).is_ok())
        .map(|name| {
            format!(
                "note: the bundle's {name} was ignored: a bundle's ledger is read from \
                 {BUNDLE_LEDGER} alone, and no journal is ever applied to it\n"
            )
        })
        .collect();
    Ok((ledger, notes))
}

/// A text file of a bundle, or what stops it being read, as a problem.
fn read_text(dir: &Path, name: &str) -> std::result::Result<String, String> {
    let bytes = untrusted::read(dir, name, BUNDLE_TEXT_MAX_BYTES)
        .map_err(|r| format!("the bundle's {name} {r}"))?;
    String::from_utf8(bytes).map_err(|_| format!("the bundle's {name} is not UTF-8 text"))
}

/// A difference between a bundle's text file and what it should say, as a problem.
/// `what` names the text it should be, `short` the same in a word.
fn text_difference(name: &str, (what, short): (&str, &str), found: &str, expected: &str) -> String {
    let lines = super::diff_outputs(found, expected);
    format!(
        "{name} differs from {what} ({} difference{}, {name} → {short}):\n{}",
        lines.len(),
        if lines.len() == 1 { "" } else { "s" },
        super::indent(&lines)
    )
}

/// What is wrong with the files a bundle shows its reader beside its ledger: `publication.md`
/// must be the published text, the rubric file the text it was computed with, the price table
/// file (when the publication names one) the text its costs were filled in from, and
/// `README.md` the README of this publication with its digests, byte for byte — otherwise a
/// bundle whose ledger verifies could still show edited numbers.
pub(crate) fn file_problems(
    dir: &Path,
    p: &PublicationRow,
    rubric: &RubricRow,
    envelope: Option<&str>,
) -> Vec<String> {
    // What the publication's input names (an input that cannot be read is verify's to report).
    let prices = super::named_prices(p).ok().flatten();
    let mut problems = envelope_file_problems(dir, envelope);
    match read_text(dir, BUNDLE_OUTPUT) {
        Ok(text) if text == p.output => {}
        Ok(text) => problems.push(text_difference(
            BUNDLE_OUTPUT,
            ("the published output", "published"),
            &text,
            &p.output,
        )),
        Err(problem) => problems.push(problem),
    }
    match rubric_file_name(rubric) {
        Ok(name) => match untrusted::read(dir, &name, BUNDLE_TEXT_MAX_BYTES) {
            Ok(bytes) => {
                let sha = sha256_hex(&bytes);
                if sha != p.rubric_sha256 {
                    problems.push(format!(
                        "the bundle's {name} differs from the rubric text the publication was \
                         computed with (the file hashes to {}, the publication names {})",
                        crate::digest::short(&sha),
                        crate::digest::short(&p.rubric_sha256)
                    ));
                }
            }
            Err(r) => problems.push(format!("the bundle's {name} {r}")),
        },
        Err(problem) => problems.push(problem),
    }
    if let Some(id) = &prices {
        match prices_file_name(id) {
            Ok(name) => match untrusted::read(dir, &name, BUNDLE_TEXT_MAX_BYTES) {
                Ok(bytes) => {
                    let sha = sha256_hex(&bytes);
                    if sha != id.sha256 {
                        problems.push(format!(
                            "the bundle's {name} differs from the price table text the \
                             publication's costs were filled in from (the file hashes to {}, the \
                             publication names {})",
                            crate::digest::short(&sha),
                            crate::digest::short(&id.sha256)
                        ));
                    }
                }
                Err(r) => problems.push(format!("the bundle's {name} {r}")),
            },
            Err(problem) => problems.push(problem),
        }
    }
    match read_text(dir, BUNDLE_README) {
        Ok(text) => {
            let layout = report::publication::bundle_layout(&text);
            let signed_by = envelope.and_then(|e| attest::key_ids(e).into_iter().next());
            let expected = layout.and_then(|n| {
                report::publication::bundle_readme_in(n, p, prices.as_ref(), signed_by.as_deref())
            });
            match expected {
                Some(expected) if text == expected => {}
                Some(expected) => problems.push(text_difference(
                    BUNDLE_README,
                    ("the README of this publication", "expected"),
                    &text,
                    &expected,
                )),
                None => problems.push(format!(
                    "the bundle's {BUNDLE_README} declares a bundle layout this benchledger \
                     does not know (it knows 1 to {}): check it with a benchledger that writes \
                     that layout",
                    report::publication::BUNDLE_LAYOUT
                )),
            }
        }
        Err(problem) => problems.push(problem),
    }
    problems
}

/// What is wrong with a bundle's envelope file: it must hold the envelope its ledger keeps
/// beside the publication, byte for byte, and be absent when the publication is unsigned.
fn envelope_file_problems(dir: &Path, envelope: Option<&str>) -> Vec<String> {
    let name = ENVELOPE_FILE;
    let cap = attest::ENVELOPE_MAX_BYTES as u64;
    match (envelope, untrusted::read(dir, name, cap)) {
        (None, Err(Refusal::Missing)) => Vec::new(),
        (None, _) => vec![format!(
            "the bundle holds a {name}, but its ledger keeps no envelope beside the publication: \
             the publication is unsigned, and the file is not its signature"
        )],
        (Some(_), Err(r)) => vec![format!(
            "the bundle's {name} {r}: its ledger keeps a signed envelope beside the publication, \
             which the bundle carries as that file too"
        )],
        (Some(stored), Ok(bytes)) if bytes == stored.as_bytes() => Vec::new(),
        (Some(_), Ok(_)) => vec![format!(
            "the bundle's {name} differs from the envelope its ledger keeps beside the \
             publication"
        )],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rubric(name: &str) -> RubricRow {
        RubricRow {
            name: name.into(),
            version: 3,
            sha256: String::new(),
            text: String::new(),
            scale_violation: false,
            added_at: String::new(),
        }
    }

    #[test]
    fn rubric_file_names_are_built_from_slugs_only() {
        assert_eq!(
            rubric_file_name(&rubric("session-efficiency")).unwrap(),
            "session-efficiency.v3.toml"
        );
        assert_eq!(
            rubric_file_name(&rubric("a_b.c-d")).unwrap(),
            "a_b.c-d.v3.toml"
        );
        for bad in [
            "../../etc/outside",
            "..",
            ".hidden",
            "a/b",
            "/abs",
            "",
            "a\\b",
            "a\0b",
            "tab\tname",
        ] {
            let e = rubric_file_name(&rubric(bad)).unwrap_err();
            assert!(e.contains("no file name was built from it"), "{bad}: {e}");
        }
        let long = "/".repeat(10_000);
        let e = rubric_file_name(&rubric(&long)).unwrap_err();
        assert!(e.len() < 400, "{e}");
    }
}
