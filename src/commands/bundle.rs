//! `benchledger bundle`: a self-contained reproduction bundle of a publication, which
//! `verify --bundle` checks on any machine.

use std::path::Path;

use super::Ctx;
use crate::digest::sha256_hex;
use crate::error::{Error, Result};
use crate::ledger::{Ledger, PublicationRow, RubricRow};
use crate::publication;
use crate::report;

/// The file a bundle keeps its ledger in.
pub const BUNDLE_LEDGER: &str = "ledger.db";
/// The file a bundle keeps the published text in.
pub const BUNDLE_OUTPUT: &str = "publication.md";

pub fn bundle(ctx: &mut Ctx<'_>, id: i64, out: &Path) -> Result<()> {
    let ledger = ctx.open()?;
    let row = ledger.publication(id)?;
    check_empty_dir(out)?;
    write_bundle(&ledger, &row, out)?;
    ctx.write(&format!(
        "bundle of publication #{id} written to {}: check it with `benchledger verify --bundle {}`\n",
        out.display(),
        out.display()
    ))
}

/// The name of a bundle's rubric file.
fn rubric_file_name(rubric: &RubricRow) -> String {
    format!("{}.v{}.toml", rubric.name, rubric.version)
}

/// What is wrong with the files a bundle shows its reader beside its ledger: `publication.md`
/// must be the published text and the rubric file the text it was computed with, byte for
/// byte — otherwise a bundle whose ledger verifies could still show edited numbers.
pub(super) fn bundle_file_problems(
    dir: &Path,
    p: &PublicationRow,
    rubric: &RubricRow,
) -> Vec<String> {
    let mut problems = Vec::new();
    let md = dir.join(BUNDLE_OUTPUT);
    match std::fs::read_to_string(&md) {
        Ok(text) if text == p.output => {}
        Ok(text) => {
            let lines = publication::diff_outputs(&text, &p.output);
            problems.push(format!(
                "{BUNDLE_OUTPUT} differs from the published output ({} difference{}, \
                 {BUNDLE_OUTPUT} → published):\n{}",
                lines.len(),
                if lines.len() == 1 { "" } else { "s" },
                publication::indent(&lines)
            ));
        }
        Err(e) => problems.push(format!(
            "the bundle's {BUNDLE_OUTPUT} is missing or unreadable: {e}"
        )),
    }
    let name = rubric_file_name(rubric);
    match std::fs::read(dir.join(&name)) {
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
        Err(e) => problems.push(format!("the bundle's {name} is missing or unreadable: {e}")),
    }
    problems
}

/// Makes sure a bundle can be written to `dir` before anything is published: it is created if
/// missing, must be empty, and must take a file.
pub(super) fn check_empty_dir(dir: &Path) -> Result<()> {
    if dir.exists() {
        let mut entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
        if entries.next().is_some() {
            return Err(Error::Usage(format!(
                "{} is not empty: a bundle goes into a new or empty directory",
                dir.display()
            )));
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let probe = dir.join(".benchledger-probe");
    std::fs::write(&probe, b"").map_err(|e| Error::io(&probe, e))?;
    std::fs::remove_file(&probe).map_err(|e| Error::io(&probe, e))
}

/// Writes a self-contained bundle: a small ledger holding only the publication, its wave and
/// its rubric; the published text; and a README saying how to check it.
pub(super) fn write_bundle(ledger: &Ledger, row: &PublicationRow, dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let data = ledger.load_wave(&row.wave)?;
    let content = ledger.wave_content_hash(&row.wave)?;
    let ingested_at = ledger.wave_ingested_at(&row.wave)?;
    let rubric = ledger.publication_rubric(row.id)?;
    let (mut bundle, _) = Ledger::create(&dir.join(BUNDLE_LEDGER))?;
    bundle.add_waves(&[(data, content)], &ingested_at)?;
    bundle.add_rubric(&rubric)?;
    bundle.import_publication(row)?;
    drop(bundle);
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).map_err(|e| Error::io(&p, e))
    };
    write(BUNDLE_OUTPUT, &row.output)?;
    write(&rubric_file_name(&rubric), &rubric.text)?;
    write("README.md", &report::publication::bundle_readme(row))
}
