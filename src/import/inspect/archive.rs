//! An `.eval` Inspect log: a ZIP archive of JSON members — `header.json` (the run),
//! `summaries.json` (every sample's figures), `samples/<id>_epoch_<n>.json` (each sample whole,
//! with its messages and events), `reductions.json` (per-sample reductions over epochs, not
//! read) and `_journal/` (what a running eval writes as it goes, not read). Members are stored,
//! deflated or, since inspect_ai 0.3.206, zstd-compressed (ZIP method 93); the `zip` crate
//! reads all three.
//!
//! The figures come from `summaries.json`, streamed a sample at a time. Each sample's own
//! member is then opened for what a summary never holds, its events (the tool calls that are
//! the trace), and for what an older summary lacks (inspect_ai before ~0.3.9x wrote
//! summaries without `model_usage` or times); of a sample member only those fields are built,
//! the rest scanned past. Members are read one at a time: a small one (under
//! [`WHOLE_MEMBER`]) whole, then parsed from memory, which is several times faster than
//! parsing from a stream; a larger one as a stream. An archive without `summaries.json` is
//! read from its sample members alone.

use std::io::{BufReader, Read, Seek};
use std::path::Path;

use zip::ZipArchive;
use zip::result::ZipError;

use super::log::{Header, Sample, SamplesSeed};
use super::{Log, Mode, json_error};
use crate::error::{Error, Location, Result};
use crate::import::Progress;

/// The largest member read whole before parsing (uncompressed, as the archive states it).
pub const WHOLE_MEMBER: u64 = 8 * 1024 * 1024;

/// Whether these bytes open a ZIP archive (a local file header, or the end record of an empty
/// archive).
pub fn is_zip(start: &[u8]) -> bool {
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

/// Parses one member as `T`.
fn member<R: Read + Seek, T: serde::de::DeserializeOwned>(
    path: &Path,
    zip: &mut ZipArchive<R>,
    name: &str,
) -> Result<T> {
    let mut file = zip
        .by_name(name)
        .map_err(|e| zip_error(path, Some(name), e))?;
    let size = file.size();
    let parsed = if size <= WHOLE_MEMBER {
        let mut bytes = Vec::with_capacity(size as usize);
        (&mut file)
            .take(WHOLE_MEMBER + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| zip_error(path, Some(name), ZipError::Io(e)))?;
        drop(file);
        serde_json::from_slice(&bytes).map_err(|e| {
            json_error(path, &e, Some(format!("member {name}")), &mut || {
                Some(Box::new(std::io::Cursor::new(bytes.clone())))
            })
        })?
    } else {
        let parsed = serde_json::from_reader(BufReader::with_capacity(256 * 1024, file));
        parsed.map_err(|e| {
            json_error(path, &e, Some(format!("member {name}")), &mut || {
                let mut bytes = Vec::new();
                zip.by_name(name).ok()?.read_to_end(&mut bytes).ok()?;
                Some(Box::new(std::io::Cursor::new(bytes)))
            })
        })?
    };
    Ok(parsed)
}

/// The member of one sample × epoch.
pub fn sample_member(id: &str, epoch: &str) -> String {
    format!("samples/{id}_epoch_{epoch}.json")
}

/// Reads an `.eval` archive, handing each sample to `each`.
pub fn read<R: Read + Seek>(
    path: &Path,
    reader: R,
    mode: Mode,
    progress: &mut dyn Progress,
    each: &mut dyn FnMut(Sample) -> Result<()>,
) -> Result<Log> {
    let mut zip = ZipArchive::new(BufReader::with_capacity(64 * 1024, reader))
        .map_err(|e| zip_error(path, None, e))?;
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
    let header: Header = member(path, &mut zip, "header.json")?;
    let mut log = Log {
        header,
        ..Log::default()
    };
    let mut sample_names: Vec<String> = zip
        .file_names()
        .filter_map(|n| n.ok())
        .filter(|n| n.starts_with("samples/") && n.ends_with(".json"))
        .map(|n| n.into_owned())
        .collect();
    log.no_samples = sample_names.is_empty();
    if mode == Mode::Head || log.header.status.as_deref().is_some_and(|s| s != "success") {
        return Ok(log);
    }
    progress.total(sample_names.len() as u64);
    if zip.index_for_name("summaries.json").is_some() {
        let mut summaries = Vec::new();
        read_summaries(path, &mut zip, &mut summaries)?;
        drop(sample_names);
        for mut s in summaries {
            let name = match (&s.id, &s.epoch) {
                (Some(id), Some(epoch)) => Some(sample_member(&text(id), &text(epoch))),
                _ => None,
            };
            if let Some(name) = name
                && zip.index_for_name(&name).is_some()
            {
                let full: Sample = member(path, &mut zip, &name)?;
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
            each(s)?;
            progress.advance(1);
        }
    } else {
        sample_names.sort();
        for name in sample_names {
            let s: Sample = member(path, &mut zip, &name)?;
            each(s)?;
            progress.advance(1);
        }
    }
    log.samples_read = true;
    Ok(log)
}

/// Streams `summaries.json` into `out`, a summary at a time.
fn read_summaries<R: Read + Seek>(
    path: &Path,
    zip: &mut ZipArchive<R>,
    out: &mut Vec<Sample>,
) -> Result<()> {
    let name = "summaries.json";
    let file = zip
        .by_name(name)
        .map_err(|e| zip_error(path, Some(name), e))?;
    let mut de = serde_json::Deserializer::from_reader(BufReader::with_capacity(256 * 1024, file));
    let mut at = 0usize;
    let mut push = |s: Sample| -> std::result::Result<(), String> {
        out.push(s);
        Ok(())
    };
    let r = serde::de::DeserializeSeed::deserialize(
        SamplesSeed {
            each: &mut push,
            at: &mut at,
        },
        &mut de,
    )
    .and_then(|()| de.end());
    drop(de);
    r.map_err(|e| {
        json_error(
            path,
            &e,
            Some(format!("member {name}: [{at}]")),
            &mut || {
                let mut bytes = Vec::new();
                zip.by_name(name).ok()?.read_to_end(&mut bytes).ok()?;
                Some(Box::new(std::io::Cursor::new(bytes)))
            },
        )
    })
}

/// A sample id or epoch as inspect_ai writes it into a member's name (`str(id)`).
pub fn text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
