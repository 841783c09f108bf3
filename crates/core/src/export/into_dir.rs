//! The exports written into a directory: Parquet for analysts, and the community's formats,
//! Every Eval Ever records and Hugging Face's `.eval_results/` files. Each builds every file
//! before it writes the first, so a wave that cannot be exported leaves the directory as it
//! was; each returns what it wrote, for the caller to say in its own words.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::{Exported, eee, hf};
use crate::error::{Error, Result};
use crate::ledger::Ledger;

/// Refuses an `out` that is there and not a directory.
fn check_dir(out: &Path) -> Result<()> {
    if out.exists() && !out.is_dir() {
        return Err(Error::argument(
            "out",
            out.display(),
            "is not a directory: give a directory to write the files into",
        ));
    }
    Ok(())
}

/// Writes `files` under `out`, making the directories they need; returns those directories.
fn write_all(out: &Path, files: &[eee::File]) -> Result<BTreeSet<PathBuf>> {
    let mut dirs = BTreeSet::new();
    for f in files {
        let path = out.join(&f.path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
            dirs.insert(dir.to_path_buf());
        }
        std::fs::write(&path, &f.bytes).map_err(|e| Error::io(&path, e))?;
    }
    Ok(dirs)
}

/// `export --format parquet --out DIR`: every wave's attempts, seats and stored scores as three
/// Parquet files in `out` (made when missing), withdrawn waves marked.
pub fn parquet(ledger: &Ledger, out: &Path) -> Result<Exported> {
    if out.exists() && !out.is_dir() {
        return Err(Error::argument(
            "out",
            out.display(),
            "is not a directory: give a directory to write the Parquet files into",
        ));
    }
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    super::parquet(ledger, out)
}

/// What [`eee()`] wrote: how many Every Eval Ever records and instance rows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EeeWritten {
    pub records: u64,
    pub rows: u64,
}

/// `export --format eee --out DIR`: per wave of `ids` and seat an Every Eval Ever record and
/// its instance rows.
pub fn eee(ledger: &Ledger, ids: &[String], out: &Path) -> Result<EeeWritten> {
    check_dir(out)?;
    let mut waves = Vec::with_capacity(ids.len());
    for id in ids {
        waves.push(eee::wave(ledger, id)?);
    }
    let mut written = EeeWritten::default();
    for w in &waves {
        write_all(out, &w.files)?;
        written.records += w.records;
        written.rows += w.rows;
    }
    Ok(written)
}

/// What [`hf()`] wrote: how many `.eval_results` files, for how many models.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HfWritten {
    pub files: usize,
    pub models: usize,
}

/// `export --format hf-eval-results --out DIR`: per model a `.eval_results/` directory, a YAML
/// file per wave of `ids` and seat. Every suite `options` places on the Hub must be the suite
/// of an exported wave.
pub fn hf(ledger: &Ledger, ids: &[String], options: &hf::Options, out: &Path) -> Result<HfWritten> {
    check_dir(out)?;
    let suites: BTreeSet<String> = ledger
        .waves()?
        .into_iter()
        .filter(|w| ids.contains(&w.wave.id))
        .map(|w| w.wave.suite)
        .collect();
    if let Some(s) = options.datasets.keys().find(|s| !suites.contains(*s)) {
        return Err(Error::argument(
            "hf_dataset",
            format!("{s:?}"),
            format!(
                "names a suite no exported wave is of; the suites: {}",
                suites.iter().cloned().collect::<Vec<_>>().join(", ")
            ),
        ));
    }
    let mut files = Vec::new();
    for id in ids {
        files.extend(hf::wave(ledger, id, options)?);
    }
    let models = write_all(out, &files)?;
    Ok(HfWritten {
        files: files.len(),
        models: models.len(),
    })
}
