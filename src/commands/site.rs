//! `benchledger site --out DIR`: reads everything the site shows from the ledger (verifying
//! each publication on the way, as `verify` does), has [`benchledger_core::site`] render the pages, and
//! writes them.
//!
//! The site is made whole each time. DIR must be new, empty, or a site this command wrote
//! before: it leaves a list of the files it wrote (`.benchledger-site`), and only those files
//! are removed before the new site is written, so nothing else in a directory is ever deleted.
//!
//! Nothing is written, or removed, through anything planted in DIR: before anything changes,
//! every path the site removes or writes is checked, folder by folder, to be a real directory
//! or a regular file (or not there yet), and a symbolic link, a FIFO, a device or a socket on
//! the way is refused, leaving DIR as it was. Each page is then created new, never opened
//! through what is at its path.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use super::{Ctx, Withdrawn};
use crate::cli::{PricesArg, SiteArgs};
use benchledger_core::error::{Error, Result};
use benchledger_core::ledger::{ChainEntry, Ledger};
use benchledger_core::prices::{self, Costs};
use benchledger_core::publication;
use benchledger_core::registry;
use benchledger_core::report::score::RubricInfo;
use benchledger_core::site::{self, Input, Page, PublicationInput, WaveInput};

/// The list of files a site directory holds, written last.
pub const MARKER: &str = ".benchledger-site";

/// What the site shows, read from the ledger. With intervals `asked` for (any of `--ci`,
/// `--resamples`, `--seed`), a wave whose suite is too large to resample is refused, as
/// `score --ci` refuses it; drawn by default, such a wave is shown without them.
///
/// With `--prices`, every wave's costs are filled in from the registered table (with
/// `--reprice`, every cost set from it), as `show --prices` fills them, before anything is
/// ranked or drawn; an unknown table is refused before any wave is read.
pub fn load(
    ledger: &Ledger,
    intervals: Option<benchledger_core::stats::bootstrap::Settings>,
    asked: bool,
    prices: &PricesArg,
) -> Result<Input> {
    let table = match prices.prices.as_deref() {
        Some(spec) => {
            let row = registry::price_table_row(ledger, spec)?;
            let table = registry::parse_price_table(ledger, &row)?;
            Some((table, row.sha256))
        }
        None => None,
    };
    let costs = if prices.reprice {
        Costs::Reprice
    } else {
        Costs::Fill
    };
    let withdrawn = Withdrawn::load(ledger)?;
    let mut waves = Vec::new();
    for row in ledger.waves()? {
        let mut data = ledger.load_wave(&row.wave.id)?;
        if intervals.is_some() && asked {
            benchledger_core::stats::check_suite_size(&data.wave)?;
        }
        let pricing = table
            .as_ref()
            .map(|(t, sha256)| prices::price_wave(t, sha256, &mut data, costs));
        waves.push(WaveInput {
            withdrawn: withdrawn.get(&row.wave.id).cloned(),
            reviews: ledger.wave_reviews(&row.wave.id)?,
            row,
            data,
            pricing,
        });
    }
    let mut rubrics = Vec::new();
    let mut rubric_added_at = Vec::new();
    for row in ledger.rubrics()? {
        rubric_added_at.push(row.added_at.clone());
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
        let mut problems =
            publication::reproduce::problems(ledger, &entries, i, &price_tables, false);
        // A signed statement that does not match the publication shows as a problem; who
        // signed it is for a reader with the key to check (`verify --trusted-key`).
        let signature = publication::signature::check(ledger, p, None)?;
        problems.extend(signature.problems);
        publications.push(PublicationInput {
            withdrawn: withdrawn.get(&p.wave).cloned(),
            row: p.clone(),
            problems,
            signed_by: signature.keyids,
        });
    }
    Ok(Input {
        waves,
        rubrics,
        publications,
        head: ledger.walk()?.last().map(|e| e.sha256().to_string()),
        intervals,
        rubric_added_at,
        front_rubric: None,
        problem_pages: site::PROBLEM_PAGES,
        advice: crate::advice::words,
        config: site::SiteConfig::default(),
    })
}

/// A page's path, checked again before anything is built from it: plain names only.
fn safe(rel: &str) -> bool {
    !rel.is_empty()
        && Path::new(rel)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
}

/// Refuses, before anything is removed or written, a path inside `dir` the site would remove
/// or write through something other than a real directory or a regular file: each folder on
/// the way to each of `paths` must be a directory (not a link to one), and what is at the path
/// itself a regular file, when anything is there.
fn check_targets<'a>(dir: &Path, paths: impl IntoIterator<Item = &'a str>) -> Result<()> {
    let mut seen: BTreeSet<PathBuf> = BTreeSet::new();
    for rel in paths {
        let parts: Vec<Component<'_>> = Path::new(rel).components().collect();
        let mut at = PathBuf::new();
        for (i, part) in parts.iter().enumerate() {
            at.push(part);
            if !seen.insert(at.clone()) {
                continue;
            }
            let path = dir.join(&at);
            let last = i + 1 == parts.len();
            let t = match std::fs::symlink_metadata(&path) {
                Ok(m) => m.file_type(),
                // Nothing there yet: nothing below it either.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => break,
                Err(e) => return Err(Error::io(&path, e)),
            };
            let fits = if last { t.is_file() } else { t.is_dir() };
            if !fits {
                let kind = super::files::kind(t).unwrap_or("a regular file");
                return Err(Error::Usage(format!(
                    "{} is {kind}, where the site writes {}: a site is written only into real \
                     directories and regular files inside {}, never through a link or into a \
                     special file. Nothing was written; remove it, or name a new directory for \
                     the site",
                    path.display(),
                    if last { "a page" } else { "a folder of pages" },
                    dir.display()
                )));
            }
        }
    }
    Ok(())
}

/// Makes DIR ready for the new site's `pages`: created when missing; when it holds the site
/// written before, that site's files are removed. Anything else in it is refused, and so is a
/// path the old site's files or the new pages take through a link or a special file (see
/// [`check_targets`]), before anything is removed.
fn prepare(dir: &Path, pages: &[Page]) -> Result<()> {
    // `out/` names the link `out` itself, not what it points to.
    let named: PathBuf = dir.components().collect();
    match std::fs::symlink_metadata(&named) {
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
    let listed: Vec<&str> = listed.lines().filter(|l| safe(l)).collect();
    check_targets(
        dir,
        listed
            .iter()
            .copied()
            .chain(pages.iter().map(|p| p.path.as_str())),
    )?;
    for rel in listed {
        let path = dir.join(rel);
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.is_file() => std::fs::remove_file(&path).map_err(|e| Error::io(&path, e))?,
            _ => {}
        }
    }
    std::fs::remove_file(&marker).map_err(|e| Error::io(&marker, e))
}

/// Writes a file of the site anew: a regular file already at `path` (checked by
/// [`check_targets`]) is removed first, and the file is created new, never opened through
/// anything at its path (a link swapped in meanwhile makes the write fail).
fn write_new(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file()) {
        std::fs::remove_file(path).map_err(|e| Error::io(path, e))?;
    }
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .and_then(|mut f| f.write_all(bytes))
        .map_err(|e| Error::io(path, e))
}

/// `benchledger site`, from its flags.
pub fn run(ctx: &mut Ctx<'_>, args: SiteArgs) -> Result<()> {
    let SiteArgs {
        out,
        rubric,
        config,
        artifacts,
        problem_pages,
        ci,
        no_ci,
        prices,
    } = args;
    let (out, rubric, prices) = (out.as_path(), rubric.as_deref(), &prices);
    // site.toml first: a mistake in it is named before the ledger is read.
    let mut config = match config.as_deref() {
        Some(path) => {
            let text = super::files::read_text(path, super::files::SITE_CONFIG)
                .map_err(|e| Error::io(path, e))?;
            site::SiteConfig::parse(path, &text)?
        }
        None => site::SiteConfig::default(),
    };
    if let Some(url) = artifacts {
        config.artifacts = Some(
            site::config::base_url(&url)
                .map_err(|why| Error::Usage(format!("--artifacts: {why}")))?,
        );
    }
    // Intervals by default (the per-problem-sums bootstrap draws a 100-wave ledger's in a few
    // seconds: bench/site); `--no-ci` leaves them out.
    let settings = if no_ci {
        None
    } else {
        super::interval_settings(ci, true)?
    };
    let asked = ci.level.is_some() || ci.resamples.is_some() || ci.seed.is_some();
    let ledger = ctx.open()?;
    if let Some(spec) = rubric {
        // A registered rubric, or the shipped accuracy one; an unknown one is an error naming
        // the registered ones, before anything is read or written.
        let Some((name, version)) = benchledger_core::registry::split_id(spec) else {
            return Err(Error::Usage(format!(
                "--rubric {spec:?}: expected a registered rubric as NAME@VERSION (see \
                 `benchledger rubric list`)"
            )));
        };
        if spec != benchledger_core::rubric::accuracy().rubric.id() {
            benchledger_core::registry::rubric_info(&ledger, name, version)?;
        }
    }
    let mut input = load(&ledger, settings, asked, prices)?;
    config.check(input.waves.iter().map(|w| w.data.wave.suite.as_str()))?;
    input.config = config;
    input.front_rubric = rubric.map(str::to_string);
    input.problem_pages = problem_pages;
    let pages = site::render(&input);
    if let Some(page) = pages.iter().find(|p| !safe(&p.path)) {
        return Err(Error::Usage(format!(
            "refusing to write a page at {:?}: not a plain path inside the site",
            page.path
        )));
    }
    prepare(out, &pages)?;
    let mut listed = String::new();
    let mut bytes = 0usize;
    for page in &pages {
        let path = out.join(&page.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        write_new(&path, page.body.as_bytes())?;
        listed.push_str(&page.path);
        listed.push('\n');
        bytes += page.body.len();
    }
    write_new(&out.join(MARKER), listed.as_bytes())?;
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
