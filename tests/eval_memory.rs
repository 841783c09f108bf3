//! A memory bomb in the `.eval` error path (issue "Trust, round two"): a small zstd archive
//! whose `summaries.json`, `header.json` or sample member is `[`, gigabytes of blanks, then
//! `x]` was read whole to quote its syntax error, so ~100 KB of archive took 2.87 GB. The
//! error is quoted from a stream now: the heap this process holds at its highest while the
//! importer reads such an archive is measured here, by an allocator that counts, and must stay
//! far below the member's size.
//!
//! The members are 32 MiB of blanks (four times what is read whole before parsing), which the
//! archive holds in a few kilobytes: enough to tell a member held whole (32 MiB and more) from
//! one streamed (under 300 KiB), and quick.

use std::io::{Cursor, Write};
use std::path::Path;

use benchledger_core::import::inspect::Inspect;
use benchledger_core::import::{Importer, Input, Options, Quiet, ReadSeek, Source};

#[path = "common/counting.rs"]
mod counting;

const MIB: usize = 1024 * 1024;

/// The blanks a bomb's member holds before its error.
const BLANKS: usize = 32 * MIB;

/// An archive held in memory, as the one file a [`Source`] holds.
struct Archive(Vec<u8>);

impl Source for Archive {
    fn is_file(&self, _: &Path) -> bool {
        true
    }
    fn read_text(&self, _: &Path) -> std::io::Result<String> {
        unreachable!("an .eval archive is opened, not read as text")
    }
    fn open_lines(&self, _: &Path) -> std::io::Result<Box<dyn std::io::BufRead + '_>> {
        unreachable!("an .eval archive is opened, not read in lines")
    }
    fn open(&self, _: &Path) -> std::io::Result<Box<dyn ReadSeek + '_>> {
        Ok(Box::new(Cursor::new(&self.0[..])))
    }
}

const HEADER: &str = r#"{"version": 2, "status": "success",
 "eval": {"task": "t", "created": "2026-01-01T00:00:00Z", "model": "openai/gpt-4o",
          "packages": {"inspect_ai": "0.3.206"}, "scorers": [{"name": "match"}]},
 "results": {"scores": [{"name": "match", "scorer": "match"}]}}"#;

/// A zstd archive of `members`, the one named `bomb` being `[`, [`BLANKS`] blanks, then `x]`
/// (`{` and `x}` for a sample's).
fn archive(members: &[&str], bomb: &str) -> Vec<u8> {
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Zstd)
        .large_file(true);
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let blanks = vec![b' '; MIB];
    for name in members {
        w.start_file(*name, options).unwrap();
        if *name == bomb {
            // A sample's member is an object, the others arrays.
            let sample = name.starts_with("samples/");
            w.write_all(if sample { b"{" } else { b"[" }).unwrap();
            for _ in 0..BLANKS / MIB {
                w.write_all(&blanks).unwrap();
            }
            w.write_all(if sample { b"x}" } else { b"x]" }).unwrap();
        } else if *name == "header.json" {
            w.write_all(HEADER.as_bytes()).unwrap();
        } else {
            w.write_all(b"[]").unwrap();
        }
    }
    w.finish().unwrap().into_inner()
}

#[test]
fn a_memory_bomb_in_the_eval_error_path() {
    let cases: [(&[&str], &str, &str); 3] = [
        (
            &["header.json", "summaries.json", "samples/1_epoch_1.json"],
            "summaries.json",
            "member summaries.json: [0]: not the JSON an Inspect log holds: expected value",
        ),
        (
            &["header.json"],
            "header.json",
            "member header.json: not the JSON an Inspect log holds: expected value",
        ),
        // Without summaries.json, a sample's member is read.
        (
            &["header.json", "samples/1_epoch_1.json"],
            "samples/1_epoch_1.json",
            "member samples/1_epoch_1.json: not the JSON an Inspect log holds: key must be a \
             string",
        ),
    ];
    for (members, bomb, expected) in cases {
        let src = Archive(archive(members, bomb));
        assert!(
            src.0.len() < MIB,
            "{bomb}: the archive is {} bytes",
            src.0.len()
        );
        let (e, peak) = counting::peak_during(|| {
            Inspect
                .read(&mut Input {
                    src: &src,
                    path: Path::new("l.eval"),
                    options: &Options::default(),
                    progress: &mut Quiet,
                })
                .map(|_| ())
                .unwrap_err()
                .to_string()
        });
        assert_eq!(
            e,
            format!("l.eval:1: {expected} at line 1 column {}", BLANKS + 2)
        );
        assert!(
            peak < BLANKS / 8,
            "{bomb}: reading a {} MiB member held {} KiB at most: it was read whole",
            BLANKS / MIB,
            peak / 1024
        );
    }
}
