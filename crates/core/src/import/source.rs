//! Where importers read files from: a [`Source`] by path, so that ingest reads a wave from the
//! filesystem, a test from memory, and a results file is never held whole unless it is small.

#[cfg(test)]
use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::Path;

/// Where ingest reads the files a wave is made of, by path: the manifest, the result files and
/// problem lists it names (joined to the manifest's directory). Errors are plain I/O errors;
/// ingest adds the path, or the manifest line that named the file.
pub trait Source {
    /// Whether something is at `path` (a results file must be there). Whether it can be read,
    /// and is a file, is for the read to say.
    fn is_file(&self, path: &Path) -> bool;
    /// A small file's whole text: a manifest, a problem list, a CSV results file. Text that is
    /// not UTF-8 is an error of kind `InvalidData`, as `std::fs::read_to_string` gives.
    fn read_text(&self, path: &Path) -> std::io::Result<String>;
    /// A file to read a line at a time: a JSON-lines results file, which can be large and is
    /// never held whole. It may be opened more than once.
    fn open_lines(&self, path: &Path) -> std::io::Result<Box<dyn BufRead + '_>>;
    /// A file to read as a stream, or to seek in (a ZIP archive): a foreign results file,
    /// which can be large and is never held whole.
    fn open(&self, path: &Path) -> std::io::Result<Box<dyn ReadSeek + '_>>;
    /// The entries of a directory (files and directories, in any order), or `None` when
    /// `path` is not a directory: how `ingest --from` finds the results files in a directory
    /// it is given. A source that holds no directories says `None`.
    fn list(&self, path: &Path) -> std::io::Result<Option<Vec<std::path::PathBuf>>> {
        let _ = path;
        Ok(None)
    }
    /// What is at `path`, a link not followed: how a review finds the links and special files
    /// a submission holds without reading through them. By default what [`Source::list`] and
    /// [`Source::is_file`] tell (a source that holds no links).
    fn entry(&self, path: &Path) -> std::io::Result<Entry> {
        Ok(if self.list(path)?.is_some() {
            Entry::Dir
        } else if self.is_file(path) {
            Entry::File
        } else {
            Entry::Missing
        })
    }
    /// Whether `path` is a symbolic link (to a directory or anything else): a directory walk
    /// never follows one to a directory, which could lead back up the tree or anywhere else.
    fn is_link(&self, path: &Path) -> bool {
        matches!(self.entry(path), Ok(Entry::Link(_)))
    }
}

/// What is at a path, as [`Source::entry`] tells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    File,
    Dir,
    /// A symbolic link, and what it points to as written.
    Link(std::path::PathBuf),
    /// Something that is not a regular file, in words: "a FIFO (named pipe)".
    Other(&'static str),
    Missing,
}

/// A file that can be read and sought in.
pub trait ReadSeek: std::io::Read + std::io::Seek {}

impl<T: std::io::Read + std::io::Seek> ReadSeek for T {}

/// Files held in memory, by path: a [`Source`] for tests.
#[cfg(test)]
pub(crate) struct Memory {
    pub(crate) files: BTreeMap<std::path::PathBuf, Vec<u8>>,
    /// The buffer of a reader from [`Source::open_lines`]: small, so that lines straddle
    /// buffers as they do in a large file.
    capacity: usize,
}

#[cfg(test)]
impl Memory {
    pub(crate) fn new() -> Memory {
        Memory {
            files: BTreeMap::new(),
            capacity: 7,
        }
    }

    pub(crate) fn with(mut self, path: &str, bytes: impl Into<Vec<u8>>) -> Memory {
        self.files.insert(path.into(), bytes.into());
        self
    }

    fn get(&self, path: &Path) -> std::io::Result<&[u8]> {
        self.files
            .get(path)
            .map(Vec::as_slice)
            .ok_or_else(|| std::io::ErrorKind::NotFound.into())
    }
}

#[cfg(test)]
impl Source for Memory {
    fn is_file(&self, path: &Path) -> bool {
        self.files.contains_key(path)
    }

    fn read_text(&self, path: &Path) -> std::io::Result<String> {
        let bytes = self.get(path)?.to_vec();
        match crate::diagnostics::not_utf8(&bytes, 1) {
            Some(e) => Err(e),
            None => Ok(String::from_utf8(bytes).expect("checked")),
        }
    }

    fn open_lines(&self, path: &Path) -> std::io::Result<Box<dyn BufRead + '_>> {
        Ok(Box::new(std::io::BufReader::with_capacity(
            self.capacity,
            self.get(path)?,
        )))
    }

    fn open(&self, path: &Path) -> std::io::Result<Box<dyn ReadSeek + '_>> {
        Ok(Box::new(std::io::Cursor::new(self.get(path)?)))
    }

    /// A directory is any path that some file's path starts with.
    fn list(&self, path: &Path) -> std::io::Result<Option<Vec<std::path::PathBuf>>> {
        let mut entries = std::collections::BTreeSet::new();
        for file in self.files.keys() {
            if let Ok(rest) = file.strip_prefix(path)
                && let Some(first) = rest.components().next()
                && rest.components().count() >= 1
                && file != path
            {
                entries.insert(path.join(first));
            }
        }
        Ok((!entries.is_empty()).then(|| entries.into_iter().collect()))
    }
}
