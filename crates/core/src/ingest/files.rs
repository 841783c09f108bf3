//! The filesystem as a [`Source`]: where `ingest` reads waves from and `review` its
//! submissions, through [`crate::files`]' capped reads (regular files only, none held whole
//! past its cap), with manifests built in memory ([`Built`]) read in place of their paths.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use super::Source;
use super::from::Built;

/// The filesystem: regular files only, none held whole past its cap ([`crate::files`]).
pub struct Files<'a> {
    /// The manifest being read (capped as a manifest; the files it names, as files read whole).
    pub manifest: &'a Path,
    /// Manifests built in memory, read in place of their paths.
    pub built: &'a [Built],
}

impl Source for Files<'_> {
    fn is_file(&self, path: &Path) -> bool {
        // Whatever is there is for the read to accept or refuse, saying what it is.
        std::fs::metadata(path).is_ok()
    }

    fn read_text(&self, path: &Path) -> std::io::Result<String> {
        if let Some(b) = self.built.iter().find(|b| b.path == path) {
            return Ok(b.text.clone());
        }
        let cap = if path == self.manifest {
            crate::files::MANIFEST
        } else {
            crate::files::WHOLE
        };
        crate::files::read_text(path, cap)
    }

    fn open_lines(&self, path: &Path) -> std::io::Result<Box<dyn BufRead + '_>> {
        // Large reads: a results file can hold a million lines, read twice (counted, then
        // parsed).
        Ok(Box::new(crate::files::open_lines(path, 256 * 1024)?))
    }

    fn open(&self, path: &Path) -> std::io::Result<Box<dyn crate::import::ReadSeek + '_>> {
        Ok(Box::new(crate::files::open_regular(path)?))
    }

    fn list(&self, path: &Path) -> std::io::Result<Option<Vec<PathBuf>>> {
        if !path.is_dir() {
            return Ok(None);
        }
        std::fs::read_dir(path)?
            .map(|e| e.map(|e| e.path()))
            .collect::<std::io::Result<_>>()
            .map(Some)
    }

    fn entry(&self, path: &Path) -> std::io::Result<crate::import::Entry> {
        use crate::import::Entry;
        let meta = match std::fs::symlink_metadata(path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Entry::Missing),
            Err(e) => return Err(e),
        };
        let t = meta.file_type();
        Ok(if t.is_symlink() {
            Entry::Link(std::fs::read_link(path)?)
        } else if t.is_dir() {
            Entry::Dir
        } else {
            match crate::files::kind(t) {
                None => Entry::File,
                Some(kind) => Entry::Other(kind),
            }
        })
    }
}
