//! Writing a publication's reproduction bundle (`benchledger bundle`, and `publish --bundle`):
//! a small ledger holding only what the publication was made from, its texts, and a README
//! saying how to check it, which `verify --bundle` checks on any machine
//! ([`super::bundle`] reads one back, trusting nothing in it).
//!
//! A bundle is written only into a new or empty directory, and only directly inside it: every
//! file name is fixed or built from a rubric or price table name that is a slug
//! (`rubric_file_name`, `prices_file_name`), and every file is created new, never through
//! something already there.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::bundle::{
    BUNDLE_LEDGER, BUNDLE_OUTPUT, BUNDLE_README, prices_file_name, rubric_file_name,
};
use crate::attest;
use crate::error::{Error, Hint, Result};
use crate::formats::input::PricesId;
use crate::ledger::{Ledger, LogEntryRow, LogKind, PriceTableRow, PublicationRow, RubricRow};
use crate::report;
use crate::report::publication::ENVELOPE_FILE;

/// Writes the bundle of publication `id` into `dir`, new or empty, having checked first that
/// every file of it can be named and that the directory takes a file: nothing is written when
/// it cannot be.
pub fn publication(ledger: &Ledger, id: i64, dir: &Path) -> Result<()> {
    let row = ledger.publication(id)?;
    bundle_rubric_file(ledger, &ledger.publication_rubric(row.id)?)?;
    publication_prices(ledger, &row)?;
    check_empty_dir(dir)?;
    write(ledger, &row, dir)
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
    let Some(id) = super::named_prices(row).map_err(unusable)? else {
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
pub(crate) fn check_target(
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

/// Makes sure a bundle can be written to `dir` before anything is published: it is created if
/// missing; if it exists it must be a directory (not a symbolic link to one) and empty; and it
/// must take a file.
pub(crate) fn check_empty_dir(dir: &Path) -> Result<()> {
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
    data: &crate::model::WaveData,
    stored: &crate::model::ContentHash,
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
             (sha256 {} stored, {} now): the ledger was edited behind benchledger's back",
            data.wave.id,
            crate::digest::short(&stored.sha256),
            crate::digest::short(&hash.sha256)
        ))
        .hinted(Hint::VerifyLedger));
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

/// Writes a self-contained bundle into `dir` (see `check_empty_dir`): a small ledger holding
/// only the publication (with its signed envelope, if any), its wave, its rubric and the price
/// table its costs were filled in from (if any); the published text; the envelope file; the
/// rubric file; the price table file; and a README saying how to check it.
pub fn write(ledger: &Ledger, row: &PublicationRow, dir: &Path) -> Result<()> {
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
