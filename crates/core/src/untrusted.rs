//! Reading files from a directory benchledger does not trust: a reproduction bundle from
//! someone else.
//!
//! Only a regular file directly inside the directory is read — never through a symbolic link
//! (which could lead anywhere: another ledger, `/dev/zero`), never a FIFO (which would block),
//! a device, a socket or a directory, and never more than a stated number of bytes. The file is
//! opened without following a link and without blocking, and the open handle is checked again,
//! so a file swapped between the check and the open is refused too. Nothing here creates,
//! changes or removes anything.

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::path::{Component, Path, PathBuf};

use crate::files::{kind, size};

/// Why a file of an untrusted directory was not read. Displayed after the file's name: "the
/// bundle's README.md {refusal}".
#[derive(Debug)]
pub enum Refusal {
    Missing,
    Symlink,
    NotRegular(&'static str),
    TooLarge {
        len: u64,
        cap: u64,
    },
    /// The file was replaced between the check and the open.
    Changed,
    /// Not a plain file name: it would reach outside the directory.
    NotAName,
    Unreadable(std::io::Error),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Missing => write!(f, "is missing"),
            Refusal::Symlink => write!(
                f,
                "is a symbolic link: a bundle's files are read only as regular files inside it, \
                 and the link was not followed"
            ),
            Refusal::NotRegular(kind) => {
                write!(f, "is {kind}, not a regular file, and was not read")
            }
            Refusal::TooLarge { len, cap } => write!(
                f,
                "is {len} bytes, more than the {} it may be, and was not read",
                size(*cap)
            ),
            Refusal::Changed => write!(
                f,
                "changed while it was being opened (it is no longer the file that was checked) \
                 and was not read"
            ),
            Refusal::NotAName => write!(f, "is not a plain file name and was not looked for"),
            Refusal::Unreadable(e) => write!(f, "cannot be read: {e}"),
        }
    }
}

/// Whether two metadata describe the same file.
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        a.dev() == b.dev() && a.ino() == b.ino()
    }
    #[cfg(not(unix))]
    {
        a.len() == b.len() && a.modified().ok() == b.modified().ok()
    }
}

/// A regular file of an untrusted directory, open for reading, and its length (at most the
/// cap it was opened with).
#[derive(Debug)]
pub struct Opened {
    pub path: PathBuf,
    pub file: File,
    pub len: u64,
}

/// Opens `dir/name` for reading if it is a regular file of at most `cap` bytes. `name` must be
/// a plain file name.
pub fn open(dir: &Path, name: &str, cap: u64) -> Result<Opened, Refusal> {
    let mut parts = Path::new(name).components();
    if !matches!(
        (parts.next(), parts.next()),
        (Some(Component::Normal(_)), None)
    ) {
        return Err(Refusal::NotAName);
    }
    let path = dir.join(name);
    let seen = match std::fs::symlink_metadata(&path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(Refusal::Missing),
        Err(e) => return Err(Refusal::Unreadable(e)),
    };
    if seen.file_type().is_symlink() {
        return Err(Refusal::Symlink);
    }
    if let Some(k) = kind(seen.file_type()) {
        return Err(Refusal::NotRegular(k));
    }
    if seen.len() > cap {
        return Err(Refusal::TooLarge {
            len: seen.len(),
            cap,
        });
    }
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Should the file have been swapped since the check: no link is followed (the open
        // fails), and a FIFO opens at once instead of waiting for a writer.
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = match options.open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(Refusal::Changed),
        #[cfg(unix)]
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => return Err(Refusal::Changed),
        Err(e) => return Err(Refusal::Unreadable(e)),
    };
    let held = file.metadata().map_err(Refusal::Unreadable)?;
    if kind(held.file_type()).is_some() || !same_file(&seen, &held) {
        return Err(Refusal::Changed);
    }
    if held.len() > cap {
        return Err(Refusal::TooLarge {
            len: held.len(),
            cap,
        });
    }
    Ok(Opened {
        path,
        len: held.len(),
        file,
    })
}

/// The bytes of `dir/name` if it is a regular file of at most `cap` bytes. A file that grows
/// while it is read is still cut at `cap`, and refused.
pub fn read(dir: &Path, name: &str, cap: u64) -> Result<Vec<u8>, Refusal> {
    let opened = open(dir, name, cap)?;
    let mut bytes = Vec::with_capacity(usize::try_from(opened.len).unwrap_or(0));
    opened
        .file
        .take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(Refusal::Unreadable)?;
    if bytes.len() as u64 > cap {
        return Err(Refusal::TooLarge {
            len: bytes.len() as u64,
            cap,
        });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_within_the_cap_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("a.txt"), "hello").unwrap();
        assert_eq!(read(d, "a.txt", 5).unwrap(), b"hello");
        assert!(matches!(
            read(d, "a.txt", 4),
            Err(Refusal::TooLarge { len: 5, cap: 4 })
        ));
        assert!(matches!(read(d, "b.txt", 5), Err(Refusal::Missing)));
        std::fs::create_dir(d.join("sub")).unwrap();
        assert!(matches!(
            read(d, "sub", 5),
            Err(Refusal::NotRegular("a directory"))
        ));
        for name in ["../a.txt", "sub/x", "/etc/passwd", "..", ".", ""] {
            assert!(matches!(read(d, name, 5), Err(Refusal::NotAName)), "{name}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn links_and_special_files_are_refused_without_being_opened() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("real"), "x").unwrap();
        std::os::unix::fs::symlink(d.join("real"), d.join("link")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", d.join("zero")).unwrap();
        std::os::unix::fs::symlink(d.join("nowhere"), d.join("dangling")).unwrap();
        for name in ["link", "zero", "dangling"] {
            assert!(matches!(read(d, name, 5), Err(Refusal::Symlink)), "{name}");
        }
        // /dev itself: a character device is never read, whatever the cap.
        assert!(matches!(
            read(Path::new("/dev"), "zero", u64::MAX),
            Err(Refusal::NotRegular("a character device"))
        ));
    }

    #[test]
    fn sizes_read_in_whole_units() {
        assert_eq!(size(512 << 20), "512 MiB");
        assert_eq!(size(64 << 20), "64 MiB");
        assert_eq!(size(1 << 30), "1 GiB");
        assert_eq!(size(1000), "1000 bytes");
    }
}
