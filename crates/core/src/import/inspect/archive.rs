//! An `.eval` Inspect log: a ZIP archive of JSON members — `header.json` (the run),
//! `summaries.json` (every sample's figures), `samples/<id>_epoch_<n>.json` (each sample whole,
//! with its messages and events), `reductions.json` (per-sample reductions over epochs, not
//! read) and `_journal/` (what a running eval writes as it goes, not read). Members are stored,
//! deflated or, since inspect_ai 0.3.206, zstd-compressed (ZIP method 93); the `zip` crate
//! reads all three.
//!
//! The figures come from `summaries.json`, streamed a sample at a time. A sample's own member
//! is opened for what a summary never holds, its events (the tool calls that are the trace:
//! [`Mode::Trace`], the `inspect` format), and for what an older summary lacks (inspect_ai
//! 0.3.58 and before wrote summaries without `model_usage` or times); of a member only those
//! fields are built, the rest scanned past. [`Mode::Figures`] (`inspect-summaries`) opens a
//! member only for a missing figure. Members are read one at a time, through a second handle on
//! the file while `summaries.json` streams through the first, so nothing holds every summary: a
//! small member (under [`WHOLE_MEMBER`]) whole, then parsed from memory, which costs
//! serde_json about a third of the instructions a stream does (12 against 35 a byte, by
//! callgrind); a larger one as a stream. An archive without `summaries.json` is read from its
//! sample members alone.

use std::io::{BufReader, Read, Seek};
use std::marker::PhantomData;
use std::path::Path;

use serde::de::DeserializeSeed;

use zip::ZipArchive;
use zip::result::ZipError;

use super::log::{Header, Sample, SampleSeed, SamplesSeed};
use super::{Log, Mode, json_error};
use crate::error::{Error, Location, Result};
use crate::import::Progress;

/// The largest member read whole before parsing (uncompressed, as the archive states it).
pub(crate) const WHOLE_MEMBER: u64 = 8 * 1024 * 1024;

/// The most an archive's members may inflate to, all read together: 8 GiB. Members are
/// streamed, so memory stays bounded whatever they hold; this bounds the time a small archive
/// of highly compressed blanks (a "zip bomb") can take, far past any real log.
pub(crate) const INFLATED_MAX: u64 = 8 * 1024 * 1024 * 1024;

/// What is left of an archive's [`INFLATED_MAX`], shared by every member read from it.
struct Budget {
    cap: u64,
    left: std::cell::Cell<u64>,
    exceeded: std::cell::Cell<bool>,
}

impl Budget {
    fn new(cap: u64) -> Budget {
        Budget {
            cap,
            left: std::cell::Cell::new(cap),
            exceeded: std::cell::Cell::new(false),
        }
    }

    /// The error once the members read have inflated past the cap.
    fn error(&self, path: &Path) -> Error {
        Error::input(
            Location::file(path),
            format!(
                "the archive's members inflate to more than {} MiB, past any real Inspect log \
                 (highly compressed filler, a \"zip bomb\"); nothing was read from it",
                self.cap >> 20
            ),
        )
    }
}

/// A member's inflated bytes, counted against the archive's [`Budget`].
struct Inflated<'b, R> {
    inner: R,
    budget: &'b Budget,
}

impl<R: Read> Read for Inflated<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let left = self.budget.left.get();
        if n as u64 > left {
            self.budget.exceeded.set(true);
            return Err(std::io::Error::other(
                "the archive inflates past benchledger's cap",
            ));
        }
        self.budget.left.set(left - n as u64);
        Ok(n)
    }
}

/// Whether these bytes open a ZIP archive (a local file header, or the end record of an empty
/// archive).
pub(crate) fn is_zip(start: &[u8]) -> bool {
    start.starts_with(b"PK\x03\x04") || start.starts_with(b"PK\x05\x06")
}

fn zip_error(path: &Path, member: Option<&str>, e: ZipError) -> Error {
    let at = match member {
        Some(m) => Location::record(path, format!("member {m}")),
        None => Location::file(path),
    };
    let what = match &e {
        ZipError::UnsupportedArchive(m) => format!(
            "{m}: benchledger reads members that are stored, deflated or zstd-compressed, as \
             inspect_ai writes them"
        ),
        ZipError::Io(io) if io.to_string().contains("compression method") => format!(
            "{io}: benchledger reads members that are stored, deflated or zstd-compressed, as \
             inspect_ai writes them"
        ),
        ZipError::Io(io) => format!("cannot read the archive: {io}"),
        other => format!("not a readable .eval archive (a ZIP file): {other}"),
    };
    Error::input(at, what)
}

/// Parses one member with `seed`: read whole and parsed from memory when small, streamed
/// when not. A syntax error is quoted from a stream over the member, never from the member
/// read whole.
fn member<R: Read + Seek, S, T>(
    path: &Path,
    zip: &mut ZipArchive<R>,
    name: &str,
    budget: &Budget,
    seed: S,
) -> Result<T>
where
    S: for<'de> DeserializeSeed<'de, Value = T>,
{
    member_at(path, zip, name, None, budget, seed)
}

/// [`member`], with where in it a syntax error is (for `summaries.json`: which summary).
fn member_at<R: Read + Seek, S, T>(
    path: &Path,
    zip: &mut ZipArchive<R>,
    name: &str,
    at: Option<&std::cell::Cell<usize>>,
    budget: &Budget,
    seed: S,
) -> Result<T>
where
    S: for<'de> DeserializeSeed<'de, Value = T>,
{
    let file = zip
        .by_name(name)
        .map_err(|e| zip_error(path, Some(name), e))?;
    let size = file.size();
    let mut file = Inflated {
        inner: file,
        budget,
    };
    let context = || match at {
        Some(i) => format!("member {name}: [{}]", i.get()),
        None => format!("member {name}"),
    };
    if size <= WHOLE_MEMBER {
        let mut bytes = Vec::with_capacity(size as usize);
        (&mut file)
            .take(WHOLE_MEMBER + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| match budget.exceeded.get() {
                true => budget.error(path),
                false => zip_error(path, Some(name), ZipError::Io(e)),
            })?;
        drop(file);
        let mut de = serde_json::Deserializer::from_slice(&bytes);
        let parsed = seed.deserialize(&mut de).and_then(|v| de.end().map(|()| v));
        parsed.map_err(|e| {
            json_error(path, &e, Some(context()), &mut || {
                Some(Box::new(&bytes[..]))
            })
        })
    } else {
        let mut de =
            serde_json::Deserializer::from_reader(BufReader::with_capacity(256 * 1024, file));
        let parsed = seed.deserialize(&mut de).and_then(|v| de.end().map(|()| v));
        drop(de);
        if parsed.is_err() && budget.exceeded.get() {
            return Err(budget.error(path));
        }
        parsed.map_err(|e| {
            // The error is quoted from the member read again as a stream, a few bytes kept:
            // a member can be gigabytes (of blanks, say) before its error.
            let mut again = if e.is_syntax() {
                zip.by_name(name).ok()
            } else {
                None
            };
            json_error(path, &e, Some(context()), &mut || {
                again.take().map(|f| Box::new(f) as Box<dyn Read + '_>)
            })
        })
    }
}

/// The member of one sample × epoch.
pub(crate) fn sample_member(id: &str, epoch: &str) -> String {
    format!("samples/{id}_epoch_{epoch}.json")
}

/// Whether a member is a sample's.
fn is_sample(name: &str) -> bool {
    name.starts_with("samples/") && name.ends_with(".json")
}

/// Reads an `.eval` archive from `first`, handing each sample to `each` with the header.
/// `reopen` gives the file again: a sample's member is read through a second handle while the
/// first streams `summaries.json`.
pub fn read<R: Read + Seek>(
    path: &Path,
    first: R,
    reopen: &dyn Fn() -> std::io::Result<R>,
    mode: Mode,
    progress: &mut dyn Progress,
    each: &mut dyn FnMut(&Header, Sample) -> Result<()>,
) -> Result<Log> {
    read_capped(path, first, reopen, mode, progress, each, INFLATED_MAX)
}

/// [`read`], with the members' inflated bytes capped at `cap` (tests give a small one).
fn read_capped<R: Read + Seek>(
    path: &Path,
    first: R,
    reopen: &dyn Fn() -> std::io::Result<R>,
    mode: Mode,
    progress: &mut dyn Progress,
    each: &mut dyn FnMut(&Header, Sample) -> Result<()>,
    cap: u64,
) -> Result<Log> {
    let budget = Budget::new(cap);
    let mut zip = ZipArchive::new(BufReader::with_capacity(16 * 1024, first))
        .map_err(|e| zip_error(path, None, e))?;
    let header = read_header(path, &mut zip, &budget)?;
    let mut log = Log {
        header,
        status_read: true,
        ..Log::default()
    };
    let count = zip
        .file_names()
        .filter_map(|n| n.ok())
        .filter(|n| is_sample(n))
        .count();
    log.no_samples = count == 0;
    // A run that did not succeed (or does not say it did) is refused by its header, unread.
    if mode == Mode::Head || log.header.status.as_deref() != Some("success") {
        return Ok(log);
    }
    progress.total(count as u64);
    let trace = mode == Mode::Trace;
    let header = &log.header;
    if zip.index_for_name("summaries.json").is_some() {
        read_by_summaries(
            path, &mut zip, reopen, trace, header, &budget, progress, each,
        )?;
    } else {
        read_by_members(path, &mut zip, trace, header, &budget, progress, each)?;
    }
    log.samples_read = true;
    Ok(log)
}

/// Reads `header.json`, or says why an archive without it is no log to read: still running
/// (it has a journal) or not an Inspect log at all.
fn read_header<R: Read + Seek>(
    path: &Path,
    zip: &mut ZipArchive<R>,
    budget: &Budget,
) -> Result<Header> {
    if zip.index_for_name("header.json").is_none() {
        let running = zip.index_for_name("_journal/start.json").is_some();
        return Err(Error::input(
            Location::file(path),
            if running {
                "the log has no header.json: the eval was still running, or stopped before it \
                 finished (inspect_ai writes header.json at the end of a run); finish or \
                 recover it (`inspect log recover`) first"
            } else {
                "not an Inspect .eval log: the archive has no header.json"
            },
        ));
    }
    member(path, zip, "header.json", budget, PhantomData::<Header>)
}

/// Hands `each` every sample as `summaries.json` streams them, filling a summary from its
/// sample's own member (opened through a second handle from `reopen`) for the trace or for a
/// figure the summary lacks.
#[allow(clippy::too_many_arguments)]
fn read_by_summaries<R: Read + Seek>(
    path: &Path,
    zip: &mut ZipArchive<BufReader<R>>,
    reopen: &dyn Fn() -> std::io::Result<R>,
    trace: bool,
    header: &Header,
    budget: &Budget,
    progress: &mut dyn Progress,
    each: &mut dyn FnMut(&Header, Sample) -> Result<()>,
) -> Result<()> {
    let mut members: Option<ZipArchive<BufReader<R>>> = None;
    let mut failed: Option<Error> = None;
    let at = std::cell::Cell::new(0);
    let read = {
        let mut one = |mut s: Sample| -> std::result::Result<(), String> {
            let done = (|| -> Result<()> {
                // The member is opened for the trace, or for a figure the summary lacks.
                let wanted = trace || s.model_usage.is_none() || s.total_time.is_none();
                if let (true, Some(id), Some(epoch)) = (wanted, &s.id, &s.epoch) {
                    let name = sample_member(&text(id), &text(epoch));
                    let z = match &mut members {
                        Some(z) => z,
                        None => {
                            let file = reopen().map_err(|e| Error::io(path, e))?;
                            members.insert(
                                ZipArchive::new(BufReader::with_capacity(16 * 1024, file))
                                    .map_err(|e| zip_error(path, None, e))?,
                            )
                        }
                    };
                    if z.index_for_name(&name).is_some() {
                        let full = member(path, z, &name, budget, SampleSeed { trace })?;
                        if full.id.as_ref().map(text) != s.id.as_ref().map(text)
                            || full.epoch.as_ref().map(text) != s.epoch.as_ref().map(text)
                        {
                            return Err(Error::input(
                                Location::record(path, format!("member {name}")),
                                "the sample member holds another sample than its name says",
                            ));
                        }
                        s.fill_from(full);
                    }
                }
                each(header, s)?;
                progress.advance(1);
                Ok(())
            })();
            at.set(at.get() + 1);
            done.map_err(|e| {
                failed = Some(e);
                "stopped at a bad sample".to_string()
            })
        };
        let mut n = 0;
        member_at(
            path,
            zip,
            "summaries.json",
            Some(&at),
            budget,
            SamplesSeed {
                each: &mut one,
                at: &mut n,
                trace: false,
            },
        )
    };
    if let Some(e) = failed {
        return Err(e);
    }
    read
}

/// Hands `each` every sample member of an archive without `summaries.json`, in name order.
fn read_by_members<R: Read + Seek>(
    path: &Path,
    zip: &mut ZipArchive<R>,
    trace: bool,
    header: &Header,
    budget: &Budget,
    progress: &mut dyn Progress,
    each: &mut dyn FnMut(&Header, Sample) -> Result<()>,
) -> Result<()> {
    let mut names: Vec<String> = zip
        .file_names()
        .filter_map(|n| n.ok())
        .filter(|n| is_sample(n))
        .map(|n| n.into_owned())
        .collect();
    names.sort();
    for name in names {
        let s = member(path, zip, &name, budget, SampleSeed { trace })?;
        each(header, s)?;
        progress.advance(1);
    }
    Ok(())
}

/// A sample id or epoch as inspect_ai writes it into a member's name (`str(id)`).
pub fn text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Cursor, Write};

    use super::*;

    fn zip_of(members: &[(&str, &[u8])]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Zstd);
        for (name, bytes) in members {
            w.start_file(*name, options).unwrap();
            w.write_all(bytes).unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    fn read_with_cap(bytes: &[u8], cap: u64) -> Result<Log> {
        read_capped(
            Path::new("log.eval"),
            Cursor::new(bytes.to_vec()),
            &|| Ok(Cursor::new(bytes.to_vec())),
            Mode::Figures,
            &mut crate::import::Quiet,
            &mut |_, _| Ok(()),
            cap,
        )
    }

    /// Issue 23: the members of an archive are capped in total as they inflate, so a small
    /// archive of compressed blanks is refused after the cap, not read for as long as it
    /// inflates; a log under the cap reads as before.
    #[test]
    fn total_inflated_size_of_an_archive_is_capped() {
        let mut bomb = b"{\"status\": \"success\"".to_vec();
        bomb.resize(3 << 20, b' ');
        bomb.push(b'}');
        let archive = zip_of(&[("header.json", &bomb)]);
        assert!(archive.len() < 64 * 1024, "{}", archive.len());
        let e = read_with_cap(&archive, 1 << 20).unwrap_err().to_string();
        assert_eq!(
            e,
            "log.eval: the archive's members inflate to more than 1 MiB, past any real Inspect \
             log (highly compressed filler, a \"zip bomb\"); nothing was read from it"
        );
        // Streamed members (over WHOLE_MEMBER) count too.
        let mut big = b"[".to_vec();
        big.resize((WHOLE_MEMBER + (1 << 20)) as usize, b' ');
        big.push(b']');
        let archive = zip_of(&[
            ("header.json", b"{\"status\": \"success\"}"),
            ("summaries.json", &big),
        ]);
        let e = read_with_cap(&archive, WHOLE_MEMBER)
            .unwrap_err()
            .to_string();
        assert!(e.contains("inflate to more than 8 MiB"), "{e}");
        // Under the cap: read.
        read_with_cap(&archive, INFLATED_MAX).unwrap();
    }
}
