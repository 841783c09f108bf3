//! The submission's files, walked once before anything reads them: every regular file found
//! (what the secrets search reads), and as findings of the rule `integrity` everything a
//! submission should not hold — links (named with their targets, never followed), files that
//! are not regular (FIFOs, devices, sockets), entries that cannot be read, and a tree past the
//! walk's bounds. [`Confined`] then serves the importers the same tree without its links and
//! special files, so nothing outside the submission is ever read through it.

use std::path::{Component, Path, PathBuf};

use super::finding::{Evidence, Finding};
use super::verdict::Verdict;
use crate::import::{Entry, ReadSeek, Source};

/// Directories deeper than this below a submission's root are not walked.
pub const MAX_DEPTH: usize = 32;
/// At most this many entries are walked.
pub const MAX_ENTRIES: usize = 1_000_000;

/// What the walk found.
#[derive(Debug, Default)]
pub struct Walked {
    /// Every regular file, sorted, with its name as a review shows it.
    pub files: Vec<(PathBuf, String)>,
    pub findings: Vec<Finding>,
}

/// How a review names a path: relative to the root it was found under, with the root's own
/// name first when the submission has several roots.
pub fn shown(roots: &[PathBuf], path: &Path) -> String {
    for root in roots {
        if let Ok(rest) = path.strip_prefix(root) {
            let rest = slashed(rest);
            let name = root
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| slashed(root));
            return match (roots.len() > 1 || rest.is_empty(), rest.is_empty()) {
                (_, true) => name,
                (true, false) => format!("{name}/{rest}"),
                (false, false) => rest,
            };
        }
    }
    slashed(path)
}

fn slashed(p: &Path) -> String {
    p.components()
        .filter(|c| !matches!(c, Component::CurDir))
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Whether a link at `link` (below `root`) pointing at `target` leads out of `root`: an
/// absolute target, or one whose `..` climb above the root, taken lexically.
fn leaves(root: &Path, link: &Path, target: &Path) -> bool {
    if target.is_absolute() {
        return true;
    }
    let below = link
        .parent()
        .and_then(|d| d.strip_prefix(root).ok())
        .map_or(0, |d| {
            d.components()
                .filter(|c| matches!(c, Component::Normal(_)))
                .count()
        });
    let mut depth = below as i64;
    for c in target.components() {
        match c {
            Component::ParentDir => depth -= 1,
            Component::Normal(_) => depth += 1,
            _ => {}
        }
        if depth < 0 {
            return true;
        }
    }
    false
}

/// Walks the submission's roots (files or directories), never following a link.
pub fn walk(src: &dyn Source, roots: &[PathBuf]) -> Walked {
    let mut met = Met::default();
    let mut entries = 0usize;
    for root in roots {
        walk_root(src, roots, root, &mut entries, &mut met);
    }
    let mut files = std::mem::take(&mut met.files);
    files.sort();
    Walked {
        files,
        findings: findings(met),
    }
}

/// What the walk met, before it becomes the rule `integrity`'s findings.
#[derive(Default)]
struct Met {
    files: Vec<(PathBuf, String)>,
    leaving: Vec<Evidence>,
    inside: Vec<Evidence>,
    special: Vec<Evidence>,
    unreadable: Vec<Evidence>,
    bounded: bool,
}

/// Walks one root, counting its entries on `entries` and stopping at the walk's bounds.
fn walk_root(src: &dyn Source, roots: &[PathBuf], root: &Path, entries: &mut usize, met: &mut Met) {
    let mut stack: Vec<(PathBuf, usize)> = vec![(root.to_path_buf(), 0)];
    while let Some((path, depth)) = stack.pop() {
        *entries += 1;
        if *entries > MAX_ENTRIES {
            met.bounded = true;
            break;
        }
        let name = shown(roots, &path);
        match src.entry(&path) {
            Ok(Entry::File) => met.files.push((path, name)),
            Ok(Entry::Dir) => {
                if depth >= MAX_DEPTH {
                    met.bounded = true;
                    continue;
                }
                match src.list(&path) {
                    Ok(Some(mut children)) => {
                        children.sort();
                        // Popped in order: pushed in reverse.
                        stack.extend(children.into_iter().rev().map(|c| (c, depth + 1)));
                    }
                    Ok(None) => {}
                    Err(e) => met.unreadable.push(Evidence {
                        excerpt: Some(e.to_string()),
                        ..Evidence::file(name)
                    }),
                }
            }
            Ok(Entry::Link(target)) => {
                let e = Evidence {
                    excerpt: Some(format!("-> {}", target.display())),
                    ..Evidence::file(name)
                };
                if leaves(root, &path, &target) {
                    met.leaving.push(e);
                } else {
                    met.inside.push(e);
                }
            }
            Ok(Entry::Other(kind)) => met.special.push(Evidence {
                excerpt: Some(kind.to_string()),
                ..Evidence::file(name)
            }),
            Ok(Entry::Missing) => met.unreadable.push(Evidence {
                excerpt: Some("nothing is there".into()),
                ..Evidence::file(name)
            }),
            Err(e) => met.unreadable.push(Evidence {
                excerpt: Some(e.to_string()),
                ..Evidence::file(name)
            }),
        }
    }
}

/// The rule `integrity`'s findings on what the walk met: one for each kind of entry met, and
/// one when the walk stopped at its bounds.
fn findings(met: Met) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut add = |evidence: Vec<Evidence>, verdict, message: String| {
        if !evidence.is_empty() {
            out.push(Finding::new("integrity", verdict, message).with(evidence));
        }
    };
    add(
        met.leaving,
        Verdict::Reject,
        "links leading out of the submission (not followed): a submission holds its own files"
            .into(),
    );
    add(
        met.inside,
        Verdict::NeedsReview,
        "links inside the submission (not followed): give the files themselves".into(),
    );
    add(
        met.special,
        Verdict::NeedsReview,
        "entries that are not regular files (not read)".into(),
    );
    add(
        met.unreadable,
        Verdict::NeedsReview,
        "entries that cannot be read".into(),
    );
    if met.bounded {
        add(
            vec![Evidence::default()],
            Verdict::NeedsReview,
            format!(
                "the submission is larger than a review walks ({MAX_ENTRIES} entries, \
                 directories {MAX_DEPTH} deep): what lies past that was not reviewed"
            ),
        );
    }
    out
}

/// A source serving only what the walk may read: no link and no special file is listed, found
/// or opened through it.
pub struct Confined<'a> {
    pub inner: &'a dyn Source,
}

impl Confined<'_> {
    fn plain(&self, path: &Path) -> bool {
        matches!(self.inner.entry(path), Ok(Entry::File | Entry::Dir))
    }

    fn refuse(path: &Path) -> std::io::Error {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "{} is a link or not a regular file, which a review does not read",
                path.display()
            ),
        )
    }
}

impl Source for Confined<'_> {
    fn is_file(&self, path: &Path) -> bool {
        self.plain(path) && self.inner.is_file(path)
    }

    fn read_text(&self, path: &Path) -> std::io::Result<String> {
        if !self.plain(path) {
            return Err(Self::refuse(path));
        }
        self.inner.read_text(path)
    }

    fn open_lines(&self, path: &Path) -> std::io::Result<Box<dyn std::io::BufRead + '_>> {
        if !self.plain(path) {
            return Err(Self::refuse(path));
        }
        self.inner.open_lines(path)
    }

    fn open(&self, path: &Path) -> std::io::Result<Box<dyn ReadSeek + '_>> {
        if !self.plain(path) {
            return Err(Self::refuse(path));
        }
        self.inner.open(path)
    }

    fn list(&self, path: &Path) -> std::io::Result<Option<Vec<PathBuf>>> {
        if !self.plain(path) {
            return Ok(None);
        }
        Ok(self
            .inner
            .list(path)?
            .map(|v| v.into_iter().filter(|p| self.plain(p)).collect()))
    }

    fn entry(&self, path: &Path) -> std::io::Result<Entry> {
        self.inner.entry(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_leaves_when_its_target_climbs_above_the_root() {
        let root = Path::new("job");
        assert!(leaves(root, Path::new("job/t/x"), Path::new("/etc/passwd")));
        assert!(leaves(root, Path::new("job/t/x"), Path::new("../../y")));
        assert!(!leaves(root, Path::new("job/t/x"), Path::new("../y")));
        assert!(!leaves(root, Path::new("job/x"), Path::new("t/y")));
    }

    #[test]
    fn a_path_is_shown_relative_to_its_root() {
        let one = [PathBuf::from("/s/job")];
        assert_eq!(
            shown(&one, Path::new("/s/job/t/result.json")),
            "t/result.json"
        );
        assert_eq!(shown(&one, Path::new("/s/job")), "job");
        let two = [PathBuf::from("a/logs"), PathBuf::from("b/more")];
        assert_eq!(shown(&two, Path::new("b/more/x.eval")), "more/x.eval");
    }
}
