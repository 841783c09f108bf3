//! `benchledger bundle`: a self-contained reproduction bundle of a publication, which
//! `verify --bundle` checks on any machine.
//!
//! A bundle is written only into a new or empty directory, and only directly inside it: every
//! file name is fixed or built from a rubric or price table name that is a slug, and every file
//! is created new, never through something already there. A bundle comes back from someone
//! else, so verifying one trusts nothing in it and touches nothing: its ledger is read into
//! memory from a regular file (never opened by SQLite, never through a link, never beyond
//! [`IMAGE_MAX_BYTES`]), its other files are read under the same rules, and nothing is ever
//! written inside it.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::Ctx;
use super::untrusted::{self, Refusal};
use crate::cli::BundleArgs;
use benchledger_core::attest;
use benchledger_core::digest::sha256_hex;
use benchledger_core::error::{Error, Location, Result};
use benchledger_core::formats::input::PricesId;
use benchledger_core::ledger::{
    IMAGE_MAX_BYTES, Ledger, LogEntryRow, LogKind, PriceTableRow, PublicationRow, RubricRow,
};
use benchledger_core::publication;
use benchledger_core::report;
use benchledger_core::report::publication::ENVELOPE_FILE;

/// The file a bundle keeps its ledger in.
pub const BUNDLE_LEDGER: &str = "ledger.db";
/// The file a bundle keeps the published text in.
pub const BUNDLE_OUTPUT: &str = "publication.md";
/// The file that tells a bundle's reader what it holds and how to check it.
pub const BUNDLE_README: &str = "README.md";
/// The largest `publication.md`, `README.md` or rubric file `verify --bundle` reads: 64 MiB.
pub const BUNDLE_TEXT_MAX_BYTES: u64 = 64 << 20;

pub fn bundle(ctx: &mut Ctx<'_>, id: i64, out: &Path) -> Result<()> {
    let ledger = ctx.open()?;
    let row = ledger.publication(id)?;
    bundle_rubric_file(&ledger, &ledger.publication_rubric(row.id)?)?;
    publication_prices(&ledger, &row)?;
    check_empty_dir(out)?;
    write_bundle(&ledger, &row, out)?;
    ctx.write(&format!(
        "bundle of publication #{id} written to {}: check it with `benchledger verify --bundle {}`\n",
        out.display(),
        out.display()
    ))
}

/// Whether a stored name is a slug, by the rule ids and rubric names are checked with when
/// they come in (letters, digits, `.`, `_` and `-`, starting with a letter or digit): a slug
/// joined to a directory names a file directly inside it.
fn is_slug(s: &str) -> bool {
    benchledger_core::diagnostics::check_slug(Location::file(Path::new("")), "", s).is_ok()
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
fn rubric_file_name(rubric: &RubricRow) -> std::result::Result<String, String> {
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
fn prices_file_name(p: &PricesId) -> std::result::Result<String, String> {
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

/// The price table a publication's costs were filled in from, if its input names one: as the
/// input names it, and as the ledger registered it. An error when the input cannot be read,
/// the table is not in the ledger, or its name cannot name a file.
fn publication_prices(
    ledger: &Ledger,
    row: &PublicationRow,
) -> Result<Option<(PricesId, PriceTableRow)>> {
    let unusable = |message: String| Error::Ledger {
        path: ledger.path().to_path_buf(),
        message: format!(
            "cannot write a bundle of publication #{}: {message}. Nothing was written",
            row.id
        ),
    };
    let Some(id) = publication::named_prices(row).map_err(unusable)? else {
        return Ok(None);
    };
    prices_file_name(&id).map_err(unusable)?;
    match ledger.price_table(&id.name, id.version)? {
        Some(table) => Ok(Some((id, table))),
        None => Err(unusable(format!(
            "its price table {}@{} is not in the ledger (`benchledger verify {}` says more)",
            id.name, id.version, row.id
        ))),
    }
}

/// [`rubric_file_name`], as an error naming the ledger.
fn bundle_rubric_file(ledger: &Ledger, rubric: &RubricRow) -> Result<String> {
    rubric_file_name(rubric).map_err(|message| Error::Ledger {
        path: ledger.path().to_path_buf(),
        message: format!("cannot write a bundle: {message}. Nothing was written"),
    })
}

/// Checks, before anything is published, that a bundle of a publication under the rubric with
/// this hash (and this price table, if one fills in its costs) could be written to `dir` (see
/// [`check_empty_dir`]).
pub(super) fn check_bundle_target(
    ledger: &Ledger,
    rubric_sha256: &str,
    prices: Option<&PriceTableRow>,
    dir: &Path,
) -> Result<()> {
    if let Some(rubric) = ledger.rubric_by_sha256(rubric_sha256)? {
        bundle_rubric_file(ledger, &rubric)?;
    }
    if let Some(p) = prices {
        let id = PricesId {
            name: p.name.clone(),
            version: p.version,
            sha256: p.sha256.clone(),
        };
        prices_file_name(&id).map_err(|message| Error::Ledger {
            path: ledger.path().to_path_buf(),
            message: format!("cannot write a bundle: {message}. Nothing was written"),
        })?;
    }
    check_empty_dir(dir)
}

/// Opens the ledger of the bundle in `dir` for verifying: its bytes, read from a regular file
/// of at most [`IMAGE_MAX_BYTES`], loaded into memory. Returns it with the notes `verify` prints
/// about the bundle (journal files beside the ledger, which are ignored).
pub(super) fn open_bundle(dir: &Path) -> Result<(Ledger, Vec<String>)> {
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
    let lines = publication::diff_outputs(found, expected);
    format!(
        "{name} differs from {what} ({} difference{}, {name} → {short}):\n{}",
        lines.len(),
        if lines.len() == 1 { "" } else { "s" },
        publication::indent(&lines)
    )
}

/// What is wrong with the files a bundle shows its reader beside its ledger: `publication.md`
/// must be the published text, the rubric file the text it was computed with, the price table
/// file (when the publication names one) the text its costs were filled in from, and
/// `README.md` the README of this publication with its digests, byte for byte — otherwise a
/// bundle whose ledger verifies could still show edited numbers.
pub(super) fn bundle_file_problems(
    dir: &Path,
    p: &PublicationRow,
    rubric: &RubricRow,
    envelope: Option<&str>,
) -> Vec<String> {
    // What the publication's input names (an input that cannot be read is verify's to report).
    let prices = publication::named_prices(p).ok().flatten();
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
                        benchledger_core::digest::short(&sha),
                        benchledger_core::digest::short(&p.rubric_sha256)
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
                            benchledger_core::digest::short(&sha),
                            benchledger_core::digest::short(&id.sha256)
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

/// Makes sure a bundle can be written to `dir` before anything is published: it is created if
/// missing; if it exists it must be a directory (not a symbolic link to one) and empty; and it
/// must take a file.
pub(super) fn check_empty_dir(dir: &Path) -> Result<()> {
    // `out/` names the link `out` itself, not what it points to.
    let named: PathBuf = dir.components().collect();
    match std::fs::symlink_metadata(&named) {
        Ok(m) if m.file_type().is_symlink() => {
            return Err(Error::Usage(format!(
                "{} is a symbolic link: a bundle goes only into a real directory, new or empty; \
                 name that directory itself",
                dir.display()
            )));
        }
        Ok(m) if !m.is_dir() => {
            return Err(Error::Usage(format!(
                "{} exists and is not a directory: a bundle goes into a new or empty directory",
                dir.display()
            )));
        }
        Ok(_) => {
            let mut entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
            if entries.next().is_some() {
                return Err(Error::Usage(format!(
                    "{} is not empty: a bundle goes into a new or empty directory",
                    dir.display()
                )));
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(Error::io(dir, e)),
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let probe = dir.join(".benchledger-probe");
    create_new(&probe, b"")?;
    std::fs::remove_file(&probe).map_err(|e| Error::io(&probe, e))
}

/// Writes a new file: never through anything already at `path` (a link included).
fn create_new(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .and_then(|mut f| f.write_all(bytes))
        .map_err(|e| Error::io(path, e))
}

/// Copies a wave into a bundle's ledger, hashed in the content format the ledger stored its
/// hash in; a wave whose rows no longer give that hash was edited behind benchledger's back,
/// and is not bundled as if it were what was ingested.
fn copy_wave(
    bundle: &Ledger,
    data: &benchledger_core::WaveData,
    stored: &benchledger_core::model::ContentHash,
    ingested_at: &str,
) -> Result<()> {
    let mut staging = bundle.stage_ingest(&std::env::temp_dir())?;
    staging.begin_wave_in(&data.wave, Path::new(&data.wave.id), stored.format)?;
    for seat in &data.seats {
        staging.add_seat(seat)?;
    }
    let hash = staging.finish_wave(&data.wave)?;
    if hash != *stored {
        return Err(Error::Conflict(format!(
            "wave {}: its rows no longer give the content hash the ledger stored for it \
             (sha256 {} stored, {} now): the ledger was edited behind benchledger's back, and \
             `benchledger verify --ledger` names what changed",
            data.wave.id,
            benchledger_core::digest::short(&stored.sha256),
            benchledger_core::digest::short(&hash.sha256)
        )));
    }
    staging.commit(ingested_at)?;
    Ok(())
}

/// The log entries of the rows a bundle holds, in the log's order: its wave's ingest, its
/// rubric's and price table's registrations, the publication itself and its signature (none for
/// what was written before the log began).
fn bundled_entries(
    ledger: &Ledger,
    row: &PublicationRow,
    rubric: &RubricRow,
    prices: Option<&PriceTableRow>,
) -> Result<Vec<LogEntryRow>> {
    let id = row.id.to_string();
    Ok(ledger
        .log()?
        .into_iter()
        .filter(|e| match e.kind {
            LogKind::Ingest => e.subject == row.wave,
            LogKind::Rubric => e.subject == rubric.name && e.version == rubric.version,
            LogKind::PriceTable => {
                prices.is_some_and(|p| e.subject == p.name && e.version == p.version)
            }
            LogKind::Publication | LogKind::Signature => e.subject == id,
            LogKind::Withdrawal
            | LogKind::DisplayName
            | LogKind::Origins
            | LogKind::Texts
            | LogKind::Rules
            | LogKind::Review => false,
        })
        .collect())
}

/// Writes a self-contained bundle into `dir` (see [`check_empty_dir`]): a small ledger holding
/// only the publication (with its signed envelope, if any), its wave, its rubric and the price
/// table its costs were filled in from (if any); the published text; the envelope file; the
/// rubric file; the price table file; and a README saying how to check it.
pub(super) fn write_bundle(ledger: &Ledger, row: &PublicationRow, dir: &Path) -> Result<()> {
    let rubric = ledger.publication_rubric(row.id)?;
    let rubric_file = bundle_rubric_file(ledger, &rubric)?;
    let prices = publication_prices(ledger, row)?;
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let data = ledger.load_wave(&row.wave)?;
    let content = ledger.wave_content_hash(&row.wave)?;
    let ingested_at = ledger.wave_ingested_at(&row.wave)?;
    let db = dir.join(BUNDLE_LEDGER);
    // Claim the name first, so SQLite opens the file made here and nothing else.
    create_new(&db, b"")?;
    let (mut bundle, _) = Ledger::create(&db)?;
    // The bundle carries the log entries of its rows as the ledger made them, not its own.
    bundle.stop_logging();
    copy_wave(&bundle, &data, &content, &ingested_at)?;
    bundle.add_rubric(&rubric)?;
    if let Some((_, p)) = &prices {
        bundle.add_price_tables(std::slice::from_ref(p))?;
    }
    let envelope = ledger.publication_envelope(row.id)?;
    bundle.import_publication(
        row,
        &ledger.publication_claims(row.id)?,
        envelope.as_deref(),
    )?;
    let entries = bundled_entries(ledger, row, &rubric, prices.as_ref().map(|(_, p)| p))?;
    bundle.import_log_entries(&entries)?;
    drop(bundle);
    let write = |name: &str, text: &str| create_new(&dir.join(name), text.as_bytes());
    write(BUNDLE_OUTPUT, &row.output)?;
    if let Some(text) = &envelope {
        write(ENVELOPE_FILE, text)?;
    }
    write(&rubric_file, &rubric.text)?;
    // The name was checked to be a slug by `publication_prices`.
    if let Some((id, p)) = &prices {
        write(&report::publication::prices_file_name(id), &p.text)?;
    }
    let signed_by = envelope
        .as_deref()
        .and_then(|e| attest::key_ids(e).into_iter().next());
    write(
        BUNDLE_README,
        &report::publication::bundle_readme(
            row,
            prices.as_ref().map(|(id, _)| id),
            signed_by.as_deref(),
        ),
    )
}

/// `benchledger bundle`, from its flags.
pub fn run(ctx: &mut Ctx<'_>, args: BundleArgs) -> Result<()> {
    bundle(ctx, args.id, &args.out)
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
