//! `benchledger export --format parquet --out DIR`: the ledger as Parquet files for analysts
//! (`crate::export`); this is the glue.

use std::path::Path;

use super::Ctx;
use crate::cli::ExportFormat;
use crate::error::{Error, Result};

pub fn export(ctx: &mut Ctx<'_>, format: ExportFormat, out: &Path) -> Result<()> {
    let ExportFormat::Parquet = format;
    let ledger = ctx.open()?;
    if out.exists() && !out.is_dir() {
        return Err(Error::Usage(format!(
            "--out {} is not a directory: give a directory to write the Parquet files into",
            out.display()
        )));
    }
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let n = crate::export::parquet(&ledger, out)?;
    ctx.write(&format!(
        "exported {} to {}: attempts.parquet ({} rows), seats.parquet ({} rows), \
         scores.parquet ({} rows)\n",
        ledger.path().display(),
        out.display(),
        n.attempts,
        n.seats,
        n.scores
    ))
}
