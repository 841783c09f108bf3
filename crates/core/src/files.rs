//! Reading the files a caller names (a command's arguments, a library call's paths): regular files
//! only, and never more than a stated size held whole.
//!
//! A FIFO named as a manifest, problem list or rubric blocked its read for ever (while holding
//! the ledger's write lock), and `/dev/zero` was read until memory ran out (issue 7). So every
//! input is checked to be a regular file, after following symlinks; it is opened without
//! blocking and checked again on the open handle, in case it was swapped meanwhile; a file read
//! whole is read to its cap and no further; a file read a line at a time has each line capped.
//! The caps are documented in the README ("Input files").

use std::fs::{File, Metadata};
use std::io::{BufRead, Read};
use std::path::Path;

const MIB: u64 = 1024 * 1024;

/// The most of one kind of file benchledger holds in memory at once, and what to do about a
/// larger one.
#[derive(Debug, Clone, Copy)]
pub struct Cap {
    pub bytes: u64,
    /// What is capped, as the error names it: "a wave manifest".
    pub what: &'static str,
    pub advice: &'static str,
}

/// A wave manifest, read whole.
pub const MANIFEST: Cap = Cap {
    bytes: 16 * MIB,
    what: "a wave manifest",
    advice: "a manifest names its result files rather than holding results; check the path",
};

/// A rubric file, read whole.
pub const RUBRIC: Cap = Cap {
    bytes: 16 * MIB,
    what: "a rubric file",
    advice: "check the path",
};

/// A price table file, read whole.
pub const PRICES: Cap = Cap {
    bytes: 16 * MIB,
    what: "a price table file",
    advice: "check the path",
};

/// The site's `site.toml`, read whole.
pub const SITE_CONFIG: Cap = Cap {
    bytes: 1024 * 1024,
    what: "a site.toml",
    advice: "site.toml holds a title, a description and lists of suites; check the path",
};

/// A signing key or a public key file (PEM), read whole.
pub const KEY: Cap = Cap {
    bytes: 64 * 1024,
    what: "a key file",
    advice: "a key file holds one PEM block of a few hundred bytes; check the path",
};

/// A problem list (`suite_problems_file`) or a CSV results file, read whole.
pub(crate) const WHOLE: Cap = Cap {
    bytes: 256 * MIB,
    what: "a problem list or a CSV results file",
    advice: "give the results as JSON lines (.jsonl), which are read a line at a time, or split \
             the seat's results",
};

/// One line of a JSON-lines results file.
pub(crate) const LINE: Cap = Cap {
    bytes: 16 * MIB,
    what: "a line of a JSON-lines results file",
    advice: "each line holds one attempt; check that the file is JSON lines",
};

/// What a file type is, in words, when it is not a regular file: "a FIFO (named pipe)".
pub fn kind(t: std::fs::FileType) -> Option<&'static str> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if t.is_char_device() {
            return Some("a character device");
        }
        if t.is_block_device() {
            return Some("a block device");
        }
        if t.is_socket() {
            return Some("a socket");
        }
    }
    if t.is_symlink() {
        Some("a symbolic link")
    } else if t.is_dir() {
        Some("a directory")
    } else if t.is_file() {
        None
    } else {
        Some("something other than a file")
    }
}

/// Why `meta` is not a regular file, if it is not.
fn irregular(meta: &Metadata) -> Option<&'static str> {
    kind(meta.file_type())
}

/// What is at `path` when it is something other than a regular file (after following
/// symlinks): "a FIFO (named pipe)". `None` for a regular file, or nothing there.
pub fn irregular_at(path: &Path) -> Option<&'static str> {
    std::fs::metadata(path).ok().and_then(|m| irregular(&m))
}

fn refuse_irregular_meta(meta: &Metadata) -> std::io::Result<()> {
    match irregular(meta) {
        None => Ok(()),
        Some(kind) => Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("is {kind}, not a regular file; benchledger reads only regular files"),
        )),
    }
}

/// Opens a regular file for reading, refusing anything else (after following symlinks). The
/// open does not block, so a FIFO swapped in after the first check is refused too.
pub(crate) fn open_regular(path: &Path) -> std::io::Result<File> {
    refuse_irregular_meta(&std::fs::metadata(path)?)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    refuse_irregular_meta(&file.metadata()?)?;
    Ok(file)
}

/// A size in the largest binary unit that shows it whole: "512 MiB", "64 KiB", "10 bytes".
pub fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// The error for a file (or `subject`: a line of it) over its cap.
fn too_large(cap: Cap, subject: &str, len: Option<u64>) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!(
            "{subject} than {}, the most benchledger reads of {}{}; {}",
            size(cap.bytes),
            cap.what,
            len.map(|n| format!(" (it is {n} bytes)"))
                .unwrap_or_default(),
            cap.advice
        ),
    )
}

/// A regular file's whole text, read only up to `cap`. Text that is not UTF-8 is the error
/// `std::fs::read_to_string` gives.
pub fn read_text(path: &Path, cap: Cap) -> std::io::Result<String> {
    let file = open_regular(path)?;
    let len = file.metadata()?.len();
    if len > cap.bytes {
        return Err(too_large(cap, "is larger", Some(len)));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    // A file may say it is small and hold more (it grew, or the kernel makes it up as it is
    // read): read one byte past the cap to tell.
    file.take(cap.bytes + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap.bytes {
        return Err(too_large(cap, "is larger", None));
    }
    String::from_utf8(bytes).map_err(|e| {
        crate::diagnostics::not_utf8(e.as_bytes(), 1)
            .expect("from_utf8 found bytes that are not UTF-8")
    })
}

/// A regular file to read a line at a time, each line (without its ending) at most
/// `LINE``.bytes` long: a longer one is an error, found before it is held.
pub fn open_lines(path: &Path, buffer: usize) -> std::io::Result<CappedLines<File>> {
    Ok(CappedLines::new(open_regular(path)?, buffer, LINE))
}

/// A buffered reader that refuses a line longer than its cap, so that a file without line
/// breaks cannot be read into memory whole by `read_until`.
pub struct CappedLines<R> {
    inner: R,
    buf: Box<[u8]>,
    pos: usize,
    filled: usize,
    /// Bytes consumed since the last line break.
    run: u64,
    /// Line breaks consumed.
    lines: u64,
    cap: Cap,
}

impl<R: Read> CappedLines<R> {
    pub fn new(inner: R, buffer: usize, cap: Cap) -> CappedLines<R> {
        CappedLines {
            inner,
            buf: vec![0; buffer.max(1)].into_boxed_slice(),
            pos: 0,
            filled: 0,
            run: 0,
            lines: 0,
            cap,
        }
    }
}

impl<R: Read> Read for CappedLines<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for CappedLines<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.pos == self.filled {
            self.filled = self.inner.read(&mut self.buf)?;
            self.pos = 0;
        }
        let available = &self.buf[self.pos..self.filled];
        let to_break = available
            .iter()
            .position(|b| *b == b'\n')
            .unwrap_or(available.len());
        if self.run + to_break as u64 > self.cap.bytes {
            return Err(too_large(
                self.cap,
                &format!("line {} is longer", self.lines + 1),
                None,
            ));
        }
        Ok(available)
    }

    fn consume(&mut self, n: usize) {
        let n = n.min(self.filled - self.pos);
        let taken = &self.buf[self.pos..self.pos + n];
        match taken.iter().rposition(|b| *b == b'\n') {
            Some(last) => {
                self.lines += taken.iter().filter(|b| **b == b'\n').count() as u64;
                self.run = (n - last - 1) as u64;
            }
            None => self.run += n as u64,
        }
        self.pos += n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Cap = Cap {
        bytes: 4,
        what: "a test line",
        advice: "shorten it",
    };

    fn lines(text: &[u8], buffer: usize) -> std::io::Result<Vec<String>> {
        let mut r = CappedLines::new(text, buffer, SMALL);
        let mut out = Vec::new();
        let mut line = Vec::new();
        while r.read_until(b'\n', &mut line)? > 0 {
            out.push(String::from_utf8(std::mem::take(&mut line)).unwrap());
        }
        Ok(out)
    }

    #[test]
    fn lines_up_to_the_cap_pass_whatever_the_buffer() {
        for buffer in [1, 2, 3, 5, 64] {
            assert_eq!(
                lines(b"abcd\n\nab\nabcd", buffer).unwrap(),
                ["abcd\n", "\n", "ab\n", "abcd"],
                "buffer {buffer}"
            );
        }
    }

    #[test]
    fn a_longer_line_is_refused_naming_it_whatever_the_buffer() {
        for buffer in [1, 2, 3, 5, 64] {
            let e = lines(b"ab\nabcd\nabcde\n", buffer).unwrap_err();
            assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
            assert_eq!(
                e.to_string(),
                "line 3 is longer than 4 bytes, the most benchledger reads of a test line; \
                 shorten it",
                "buffer {buffer}"
            );
            // A last line without a break, too.
            assert!(lines(b"abcde", buffer).is_err(), "buffer {buffer}");
        }
    }

    #[test]
    fn a_whole_read_stops_at_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.toml");
        std::fs::write(&path, "x".repeat(5)).unwrap();
        let e = read_text(&path, SMALL).unwrap_err();
        assert_eq!(
            e.to_string(),
            "is larger than 4 bytes, the most benchledger reads of a test line (it is 5 \
             bytes); shorten it"
        );
        std::fs::write(&path, "xyzw").unwrap();
        assert_eq!(read_text(&path, SMALL).unwrap(), "xyzw");
    }

    #[cfg(unix)]
    #[test]
    fn a_device_or_a_directory_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("zero.toml");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let e = read_text(&link, MANIFEST).unwrap_err();
        assert_eq!(
            e.to_string(),
            "is a character device, not a regular file; benchledger reads only regular files"
        );
        let e = read_text(dir.path(), MANIFEST).unwrap_err();
        assert!(e.to_string().starts_with("is a directory, not"), "{e}");
    }
}
