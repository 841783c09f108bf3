//! The site written into a directory (`benchledger site --out DIR`, Python's `Ledger.site`).
//!
//! The site is made whole each time. DIR must be new, empty, or a site written here before: it
//! keeps a list of the files it wrote (`MARKER`), and only those files are removed before the
//! new site is written, so nothing else in a directory is ever deleted.
//!
//! Nothing is written, or removed, through anything planted in DIR: before anything changes,
//! every path the site removes or writes is checked, folder by folder, to be a real directory
//! or a regular file (or not there yet), and a symbolic link, a FIFO, a device or a socket on
//! the way is refused, leaving DIR as it was. Each page is then created new, never opened
//! through what is at its path.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use crate::error::{Error, Result};

use super::Page;

/// The list of files a site directory holds, written last.
pub(crate) const MARKER: &str = ".benchledger-site";

/// Writes `pages` into `dir` (see the module's doc), the list of them last. Returns how many
/// bytes the pages hold.
pub fn to_dir(dir: &Path, pages: &[Page]) -> Result<usize> {
    if let Some(page) = pages.iter().find(|p| !safe(&p.path)) {
        return Err(Error::Usage(format!(
            "refusing to write a page at {:?}: not a plain path inside the site",
            page.path
        )));
    }
    prepare(dir, pages)?;
    let mut listed = String::new();
    let mut bytes = 0usize;
    for page in pages {
        let path = dir.join(&page.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        write_new(&path, page.body.as_bytes())?;
        listed.push_str(&page.path);
        listed.push('\n');
        bytes += page.body.len();
    }
    write_new(&dir.join(MARKER), listed.as_bytes())?;
    Ok(bytes)
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
                let kind = crate::files::kind(t).unwrap_or("a regular file");
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
        Ok(m) if m.is_file() => crate::files::read_text(&marker, crate::files::WHOLE)
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
