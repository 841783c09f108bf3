//! `benchledger site --out DIR`: reads everything the site shows from the ledger (verifying
//! each publication on the way, as `verify` does), has [`benchledger_core::site`] render the pages, and
//! writes them.
//!
//! The site is made whole each time. DIR must be new, empty, or a site this command wrote
//! before: it leaves a list of the files it wrote (`.benchledger-site`), and only those files
//! are removed before the new site is written, so nothing else in a directory is ever deleted.

use std::path::{Component, Path};

use super::{Ctx, Withdrawn};
use crate::cli::SiteArgs;
use benchledger_core::error::{Error, Result};
use benchledger_core::ledger::{ChainEntry, Ledger};
use benchledger_core::publication;
use benchledger_core::report::score::RubricInfo;
use benchledger_core::site::{self, Input, PublicationInput, WaveInput};

/// The list of files a site directory holds, written last.
pub const MARKER: &str = ".benchledger-site";

/// What the site shows, read from the ledger.
pub fn load(
    ledger: &Ledger,
    intervals: Option<benchledger_core::stats::bootstrap::Settings>,
) -> Result<Input> {
    let withdrawn = Withdrawn::load(ledger)?;
    let mut waves = Vec::new();
    for row in ledger.waves()? {
        let data = ledger.load_wave(&row.wave.id)?;
        waves.push(WaveInput {
            withdrawn: withdrawn.get(&row.wave.id).cloned(),
            row,
            data,
        });
    }
    let mut rubrics = Vec::new();
    for row in ledger.rubrics()? {
        rubrics.push(RubricInfo {
            rubric: benchledger_core::registry::parse_rubric(ledger, &row)?,
            sha256: row.sha256,
            scale_violation: row.scale_violation,
            registered: true,
        });
    }
    let entries = ledger.chain()?;
    let price_tables = ledger.price_tables()?;
    let mut publications = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let ChainEntry::Publication(p) = entry else {
            continue;
        };
        let problems = publication::reproduce::problems(ledger, &entries, i, &price_tables, false);
        publications.push(PublicationInput {
            withdrawn: withdrawn.get(&p.wave).cloned(),
            row: p.clone(),
            problems,
        });
    }
    Ok(Input {
        waves,
        rubrics,
        publications,
        head: entries.last().map(|e| e.sha256().to_string()),
        intervals,
    })
}

/// A page's path, checked again before anything is built from it: plain names only.
fn safe(rel: &str) -> bool {
    !rel.is_empty()
        && Path::new(rel)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
}

/// Makes DIR ready for a new site: created when missing; when it holds the site written before,
/// that site's files are removed. Anything else in it is refused.
fn prepare(dir: &Path) -> Result<()> {
    match std::fs::symlink_metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e));
        }
        Err(e) => return Err(Error::io(dir, e)),
        Ok(m) if m.file_type().is_symlink() => {
            return Err(Error::Usage(format!(
                "{} is a symbolic link: name the directory itself (or a new one) for the site",
                dir.display()
            )));
        }
        Ok(m) if !m.is_dir() => {
            return Err(Error::Usage(format!(
                "{} is not a directory: name a new or empty directory for the site",
                dir.display()
            )));
        }
        Ok(_) => {}
    }
    let mut entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    if entries.next().is_none() {
        return Ok(());
    }
    let marker = dir.join(MARKER);
    let listed = match std::fs::symlink_metadata(&marker) {
        Ok(m) if m.is_file() => super::files::read_text(&marker, super::files::WHOLE)
            .map_err(|e| Error::io(&marker, e))?,
        _ => {
            return Err(Error::Usage(format!(
                "{} is not empty and holds no site written by `benchledger site` (no {MARKER}): \
                 name a new or empty directory, or the directory of an earlier site",
                dir.display()
            )));
        }
    };
    for rel in listed.lines().filter(|l| safe(l)) {
        let path = dir.join(rel);
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.is_file() => std::fs::remove_file(&path).map_err(|e| Error::io(&path, e))?,
            _ => {}
        }
    }
    std::fs::remove_file(&marker).map_err(|e| Error::io(&marker, e))
}

pub fn site(ctx: &mut Ctx<'_>, out: &Path, ci: crate::cli::CiArgs) -> Result<()> {
    let settings = super::interval_settings(ci, false)?;
    let ledger = ctx.open()?;
    let input = load(&ledger, settings)?;
    let pages = site::render(&input);
    prepare(out)?;
    let mut listed = String::new();
    let mut bytes = 0usize;
    for page in &pages {
        if !safe(&page.path) {
            return Err(Error::Usage(format!(
                "refusing to write a page at {:?}: not a plain path inside the site",
                page.path
            )));
        }
        let path = out.join(&page.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        std::fs::write(&path, &page.body).map_err(|e| Error::io(&path, e))?;
        listed.push_str(&page.path);
        listed.push('\n');
        bytes += page.body.len();
    }
    let marker = out.join(MARKER);
    std::fs::write(&marker, listed).map_err(|e| Error::io(&marker, e))?;
    let seats: std::collections::BTreeSet<&str> = input
        .waves
        .iter()
        .flat_map(|w| w.data.seats.iter().map(|s| s.seat.id.as_str()))
        .collect();
    let failing = input
        .publications
        .iter()
        .filter(|p| !p.problems.is_empty())
        .count();
    let n = |n: usize, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
    ctx.write(&format!(
        "wrote {} ({} KiB) to {}: {}, {}, {}, {}{}\nopen {}\n",
        n(pages.len(), "file"),
        bytes.div_ceil(1024),
        out.display(),
        n(input.waves.len(), "wave"),
        n(seats.len(), "seat"),
        n(input.rubrics.len(), "rubric"),
        n(input.publications.len(), "publication"),
        if failing > 0 {
            format!(" ({failing} failing verification: see the index)")
        } else {
            String::new()
        },
        out.join("index.html").display()
    ))
}

/// `benchledger site`, from its flags.
pub fn run(ctx: &mut Ctx<'_>, args: SiteArgs) -> Result<()> {
    site(ctx, &args.out, args.ci)
}
