//! JSON lines: a results file read a line at a time, never held whole, each line parsed by the
//! strict visitors of [`super::strict`] and its errors turned into ones naming the line and the
//! field.

use std::io::BufRead;
use std::path::Path;

use super::Line;
use super::attempt::attempt;
use super::fields::{describe, out_of_range};
use super::strict::{Top, strict_line};
use crate::error::{Error, Location, Result};
use crate::import::Source;

/// Reads a JSON-lines file a line at a time, never holding its text whole. The outcome is that of
/// reading the whole file as text and then parsing it (`parse_jsonl`, which the tests hold it
/// to): a file that cannot be read, or is not UTF-8, is that error even when a line before the
/// fault is bad too.
pub fn read_jsonl(src: &dyn Source, path: &Path) -> Result<Vec<Line>> {
    let open = || src.open_lines(path).map_err(|e| Error::io(path, e));
    // Count the lines first, so the attempts take one allocation of the right size rather than a
    // doubling series (a file can hold 10^5 lines, each attempt some 200 bytes).
    let mut lines = 0;
    let mut r = open()?;
    loop {
        let buf = r.fill_buf().map_err(|e| Error::io(path, e))?;
        if buf.is_empty() {
            break;
        }
        lines += buf.iter().filter(|b| **b == b'\n').count();
        let n = buf.len();
        r.consume(n);
    }
    let mut out = Vec::with_capacity(lines + 1);
    let mut r = open()?;
    let mut buf = Vec::new();
    let mut line = 0;
    loop {
        buf.clear();
        if r.read_until(b'\n', &mut buf)
            .map_err(|e| Error::io(path, e))?
            == 0
        {
            break;
        }
        line += 1;
        // A byte-order mark opens the file, not its first object (as TOML and CSV read it).
        let bytes = match line {
            1 => buf.strip_prefix(BOM.as_bytes()).unwrap_or(&buf),
            _ => &buf,
        };
        let raw = match text_of(bytes) {
            Some(raw) => raw,
            None => return Err(Error::io(path, not_utf8(bytes, line))),
        };
        match parse_line(path, line, raw) {
            Ok(Some(l)) => out.push(l),
            Ok(None) => {}
            // What the rest of the file holds decides which error comes first.
            Err(e) => return Err(unreadable_rest(path, r, line + 1).unwrap_or(e)),
        }
    }
    Ok(out)
}

/// The UTF-8 byte-order mark some editors write at the start of a file.
pub(super) const BOM: &str = "\u{feff}";

/// A line read with its ending, as `str::lines` would give it: without `\n` or `\r\n`; `None`
/// when it is not UTF-8. A line ending cannot fall inside a UTF-8 sequence, so the file is UTF-8
/// exactly when each of its lines is.
fn text_of(buf: &[u8]) -> Option<&str> {
    let bytes = match buf.strip_suffix(b"\n") {
        Some(b) => b.strip_suffix(b"\r").unwrap_or(b),
        None => buf,
    };
    std::str::from_utf8(bytes).ok()
}

/// The error for a line (number `line`) that is not UTF-8, naming it: as a whole file read
/// with [`crate::diagnostics::not_utf8`] would.
fn not_utf8(bytes: &[u8], line: usize) -> std::io::Error {
    crate::diagnostics::not_utf8(bytes, line)
        .unwrap_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"))
}

/// The error reading the rest of a file (from line `line` on) would meet, if any: what reading
/// it whole would have reported before a single line was parsed.
fn unreadable_rest(path: &Path, mut r: impl BufRead, mut line: usize) -> Option<Error> {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match r.read_until(b'\n', &mut buf) {
            Ok(0) => return None,
            Ok(_) if text_of(&buf).is_none() => {
                return Some(Error::io(path, not_utf8(&buf, line)));
            }
            Ok(_) => {}
            Err(e) => return Some(Error::io(path, e)),
        }
        line += 1;
    }
}

/// Parses JSON lines held whole. Blank lines are skipped. Ingest streams instead
/// ([`read_jsonl`]); this is the reference it is tested against.
#[cfg(test)]
pub(super) fn parse_jsonl(path: &Path, text: &str) -> Result<Vec<Line>> {
    let mut out = Vec::new();
    let text = text.strip_prefix(BOM).unwrap_or(text);
    for (i, raw) in text.lines().enumerate() {
        if let Some(l) = parse_line(path, i + 1, raw)? {
            out.push(l);
        }
    }
    Ok(out)
}

/// One JSON line (1-based `line`); `None` for a blank one.
fn parse_line(path: &Path, line: usize, raw: &str) -> Result<Option<Line>> {
    if raw.trim().is_empty() {
        return Ok(None);
    }
    let fields = strict_line(raw).map_err(|e| json_error(&Location::line(path, line), raw, &e))?;
    let fields = match fields {
        Top::Object(f) => f,
        Top::Other(value) => {
            return Err(Error::input(
                Location::line(path, line),
                format!(
                    "expected one JSON object per line, got {}",
                    describe(&value)
                ),
            ));
        }
    };
    Ok(Some(Line {
        at: crate::import::Origin::Line(line),
        attempt: attempt(&Location::line(path, line), fields)?,
        file: None,
    }))
}

/// Turns a JSON error into one naming the field it happened in, when that can be found.
fn json_error(at: &Location, raw: &str, e: &serde_json::Error) -> Error {
    use serde_json::error::Category;
    let col = e.column().saturating_sub(1).min(raw.len());
    // serde_json's text ends "at line 1 column N"; within one JSONL line only the column
    // means anything.
    let text = e.to_string();
    let what = text
        .rsplit_once(" at line ")
        .map_or(text.as_str(), |(w, _)| w);
    if let Some(key) = what
        .strip_prefix("duplicate field `")
        .and_then(|r| r.strip_suffix('`'))
    {
        return Error::input(
            at.clone().field(key),
            "the field appears twice on this line; give it once",
        );
    }
    if e.classify() == Category::Eof {
        return Error::input(
            at.clone(),
            "the line ends before its JSON object does (a missing `}` or `\"`?): each line \
             must hold one whole JSON object",
        );
    }
    let before = &raw[..raw.floor_char_boundary(col)];
    // The last `"key":` before the error is the field being read.
    let field = before.rfind("\":").and_then(|end| {
        let start = before[..end].rfind('"')?;
        Some(before[start + 1..end].to_string())
    });
    let rest = &raw[raw.floor_char_boundary(col)..];
    let non_number = ["NaN", "-NaN", "Infinity", "-Infinity", "inf", "-inf", "nan"]
        .iter()
        .any(|t| rest.trim_start().starts_with(t));
    if what.starts_with("number out of range") && !non_number {
        // The column is the number's last character: the number is the run of number
        // characters ending there.
        let through = &raw[..raw.floor_char_boundary(e.column().min(raw.len()))];
        let start = through
            .rfind(|c: char| !matches!(c, '0'..='9' | '-' | '+' | '.' | 'e' | 'E'))
            .map_or(0, |i| i + 1);
        return out_of_range(at, field.as_deref(), &through[start..]);
    }
    let message = if non_number {
        "NaN and infinities are not numbers; leave the field out (or null) when the value is \
         unknown"
            .to_string()
    } else {
        format!("not valid JSON at column {}: {what}", e.column())
    };
    let at = match field {
        Some(f) => at.clone().field(f),
        None => at.clone(),
    };
    Error::input(at, message)
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn reading_a_file_a_line_at_a_time_is_reading_it_whole() {
        use crate::import::Memory;
        let cases: &[&[u8]] = &[
            b"{\"problem\":\"a\",\"correct\":true}\r\n\n  \n{\"problem\":\"b\",\"correct\":false}",
            b"{\"problem\":\"a\",\"correct\":true}\n",
            b"",
            // A bad line before a line that is not UTF-8: the file is unreadable first.
            b"{\"problem\":\"a\"}\n{\"problem\":\"\xff\",\"correct\":true}\n",
            b"{\"problem\":\"\xff\",\"correct\":true}\n{\"problem\":\"a\"}\n",
            // A bad line, then good ones.
            b"{\"problem\":\"a\",\"correct\":true}\n{\"problem\":3}\n{}\n",
            // A bare \r at the very end stays in the line, as str::lines leaves it.
            b"{\"problem\":\"a\",\"correct\":true}\r",
            // \r\n split across the reader's buffers (of 7 bytes).
            b"{\"problem\":\"a\",\"correct\":true}\r\n{\"problem\":\"bb\",\"correct\":true}\r\n",
            // A byte-order mark opens the file; it is not part of the first line.
            b"\xef\xbb\xbf{\"problem\":\"a\",\"correct\":true}\r\n{\"problem\":\"b\",\"correct\":true}",
            b"\xef\xbb\xbf\n{\"problem\":\"a\",\"correct\":true}\n",
            b"\xef\xbb\xbf",
            // Anywhere else it is a character where JSON cannot have one.
            b"{\"problem\":\"a\",\"correct\":true}\n\xef\xbb\xbf{\"problem\":\"b\",\"correct\":true}\n",
        ];
        for (i, bytes) in cases.iter().enumerate() {
            let path = Path::new("w/r.jsonl");
            let src = Memory::new().with("w/r.jsonl", *bytes);
            let whole = match src.read_text(path) {
                Ok(text) => parse_jsonl(path, &text),
                Err(e) => Err(Error::io(path, e)),
            };
            let streamed = read_jsonl(&src, path);
            assert_eq!(
                format!("{:?}", streamed.map_err(|e| e.to_string())),
                format!("{:?}", whole.map_err(|e| e.to_string())),
                "case {i}"
            );
        }
        // Issue 23: the error for text that is not UTF-8 names its line, streamed or whole.
        let text = b"{\"problem\":\"p1\",\"correct\":true}\n{\"problem\":\"p\xff\"}\n";
        let src = crate::import::Memory::new().with("r.jsonl", text.to_vec());
        let e = read_jsonl(&src, Path::new("r.jsonl"))
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "r.jsonl: line 2 is not UTF-8 text (an invalid byte at column 14): save the file \
             as UTF-8"
        );
        assert_eq!(
            crate::diagnostics::not_utf8(text, 1).unwrap().kind(),
            std::io::ErrorKind::InvalidData
        );
    }

    #[test]
    fn a_byte_order_mark_is_skipped_at_the_start_of_a_file_only() {
        use crate::import::Memory;
        let path = Path::new("r.jsonl");
        let read_bytes = |bytes: &[u8]| {
            read_jsonl(&Memory::new().with("r.jsonl", bytes.to_vec()), path)
                .map_err(|e| e.to_string())
        };
        let plain = read_bytes(b"{\"problem\":\"a\",\"correct\":true}\n").unwrap();
        let marked = read_bytes(b"\xef\xbb\xbf{\"problem\":\"a\",\"correct\":true}\n").unwrap();
        assert_eq!(marked, plain);
        assert_eq!(marked[0].attempt.problem, "a");
        assert_eq!(
            read_bytes(b"\n\xef\xbb\xbf{\"problem\":\"a\",\"correct\":true}\n").unwrap_err(),
            "r.jsonl:2: not valid JSON at column 1: expected value"
        );
    }
}
