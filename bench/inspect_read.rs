//! Times the `inspect` importer reading one log in-process, as `bench/inspect` times
//! inspect_ai's `read_eval_log` in-process: the read alone, without the ledger.
//!
//!     cargo run --release --example inspect_read -- LOG [RUNS] [inspect|inspect-summaries]
//!
//! Prints the best time in seconds and the number of attempts read. Built with the crate's
//! examples; run only by `bench/inspect`.

use std::io::BufRead;
use std::path::Path;
use std::time::Instant;

use benchledger_core::import::inspect::{Inspect, InspectSummaries};
use benchledger_core::import::{Importer, Input, Options, Quiet};
use benchledger_core::import::{ReadSeek, Source};

/// The filesystem, read as ingest reads it.
struct Fs;

impl Source for Fs {
    fn is_file(&self, path: &Path) -> bool {
        path.is_file()
    }
    fn read_text(&self, path: &Path) -> std::io::Result<String> {
        std::fs::read_to_string(path)
    }
    fn open_lines(&self, path: &Path) -> std::io::Result<Box<dyn BufRead + '_>> {
        Ok(Box::new(std::io::BufReader::new(std::fs::File::open(
            path,
        )?)))
    }
    fn open(&self, path: &Path) -> std::io::Result<Box<dyn ReadSeek + '_>> {
        Ok(Box::new(std::fs::File::open(path)?))
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let path = Path::new(
        args.get(1)
            .ok_or("usage: inspect_read LOG [RUNS] [FORMAT]")?,
    );
    let runs: usize = args.get(2).map(|r| r.parse()).transpose()?.unwrap_or(10);
    let importer: &dyn Importer = match args.get(3).map(String::as_str) {
        None | Some("inspect") => &Inspect,
        Some("inspect-summaries") => &InspectSummaries,
        Some(other) => return Err(format!("unknown format {other}").into()),
    };
    let mut best = f64::INFINITY;
    let mut attempts = 0;
    for _ in 0..runs.max(1) {
        let started = Instant::now();
        let got = importer.read(&mut Input {
            src: &Fs,
            path,
            options: &Options::default(),
            progress: &mut Quiet,
        })?;
        best = best.min(started.elapsed().as_secs_f64());
        attempts = got.records.len();
    }
    println!("{best} {attempts}");
    Ok(())
}
