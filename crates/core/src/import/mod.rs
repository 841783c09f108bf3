//! Importers: one module per results format, behind one trait, so that the logs a team already
//! has — Inspect AI, Terminal-Bench, HAL, OpenHands, tau-bench, SWE-bench — come in without a
//! hand-written converter. A seat in a wave manifest says `format = "..."` next to `results`
//! (else the format goes by the file's extension, `.jsonl` or `.csv`).
//!
//! An importer turns one file into records: attempts, each with where it came from (a line, or
//! a record in the format's own words: "sample 17 epoch 2"). It does not judge them: every
//! record goes through the same checks as a JSON line (`ingest::check_seat`), so an imported
//! wave is held to the rules of a hand-written one. What a log cannot say — load, budget, the
//! suite's size — comes from the manifest; what it does say about its token accounting is
//! returned, and a manifest that declares the opposite is refused. Adding a format is one module
//! implementing [`Importer`] and one line in [`FORMATS`]; docs/importers.md says what each
//! format's fields map to and what it cannot provide.
//!
//! Nothing here opens a file: the caller's [`Source`] does, as for every input of ingest.

pub(crate) mod claims;
pub(crate) mod eee;
pub(crate) mod hal;
pub(crate) mod harbor;
pub(crate) mod helm;
pub mod inspect;
pub(crate) mod json;
pub(crate) mod lm_eval;
mod native;
pub(crate) mod object;
pub(crate) mod openhands;
pub(crate) mod results;
pub mod sniff;
mod source;
pub(crate) mod swe_bench;
pub(crate) mod tau2_bench;
pub(crate) mod tau_bench;
pub(crate) mod terminal_bench;
mod tokens;

use std::path::{Path, PathBuf};

use crate::error::{Error, Location, Result};
use crate::model::Attempt;

#[cfg(test)]
pub(crate) use source::Memory;
pub use source::{Entry, ReadSeek, Source};

/// Where a record came from, for its errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A 1-based line of a line-oriented file (JSON lines, CSV).
    Line(usize),
    /// A record of a format that has records, in its own words: "sample 17 epoch 2".
    Record(String),
}

impl Origin {
    /// The location of this record in `path`.
    pub fn locate(&self, path: &Path) -> Location {
        match self {
            Origin::Line(n) => Location::line(path, *n),
            Origin::Record(r) => Location::record(path, r.clone()),
        }
    }
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Line(n) => write!(f, "line {n}"),
            Origin::Record(r) => f.write_str(r),
        }
    }
}

/// One attempt read from a results file, with where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub at: Origin,
    pub attempt: Attempt,
    /// The file or directory that holds this attempt alone, when the format keeps one per
    /// attempt (a Terminal-Bench or Harbor trial's directory): where a reader finds its logs.
    /// `None`: the results file read.
    pub file: Option<std::path::PathBuf>,
}

/// What a format says about its token accounting, and why: the rule the importer applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stated {
    /// Whether the `input_tokens` it reports already include the cached reads.
    pub input_tokens_include_cache_reads: bool,
    /// Why: "inspect_ai 0.3.95 counted cached reads inside input_tokens for OpenAI models".
    pub why: String,
}

/// What an importer read from one file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Imported {
    pub records: Vec<Record>,
    /// The token accounting the file states, when it states one.
    pub accounting: Option<Stated>,
    /// The evaluated model the file names, when it names one.
    pub model: Option<String>,
    /// What else the file says of its run, for a wave built from it (`ingest --from`).
    pub about: About,
}

/// What a results file says of its run beyond its attempts and model: what `ingest --from`
/// builds a wave manifest from. Every field is what the file states, or `None`; nothing is
/// guessed (a wave's start is never a file's modification time).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct About {
    /// The suite (benchmark, task, dataset) the run was of.
    pub suite: Option<String>,
    /// The suite's size, where the file says it.
    pub suite_problems: Option<u64>,
    /// When the run started, RFC 3339 with its offset, as the file writes it.
    pub started_at: Option<String>,
    /// The agent or harness that ran the model.
    pub harness: Option<String>,
    /// Its version.
    pub harness_version: Option<String>,
    /// The provider, where the file names it apart from the model.
    pub provider: Option<String>,
    /// The program that wrote the file, and its version.
    pub producer: Option<String>,
    pub producer_version: Option<String>,
    /// Sessions run at a time.
    pub parallel_sessions: Option<u32>,
    /// Sessions that shared the tool server.
    pub tool_server_sessions: Option<u32>,
    /// Whether stragglers were rerun serially.
    pub serial_rerun: Option<bool>,
    /// The factor every timeout of the run was scaled by (Harbor's `timeout_multiplier`).
    pub timeout_multiplier: Option<f64>,
    /// How the model was configured (its generation settings) when the file says, as text:
    /// runs of one model under different settings are different seats.
    pub config: Option<String>,
    /// Whether any attempt counts cached reads (more than 0): a wave of files that state no
    /// token accounting can take either convention only when none does.
    pub counts_cached_reads: bool,
    /// Conditions of the run that the wave's load has no field for, in words: a wave built
    /// from the file says them in its notes.
    pub conditions: Vec<String>,
    /// What the importer had to decide in reading the file, for the user to hear once (a time
    /// written without an offset, read at an offset the file's other times pin), each with the
    /// field above it is about: `ingest --from` prints each as a note naming the file, unless
    /// the field was given another way (`--started-at`).
    pub notes: Vec<(&'static str, String)>,
}

/// Per-seat choices a manifest may make for an importer.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Options {
    /// The scorer whose value decides Correct, for formats with several (Inspect's
    /// `--scorer NAME`); default the format's first.
    pub scorer: Option<String>,
    /// For a format whose tasks come in groups (lm-evaluation-harness's `group_subtasks`): the
    /// group whose subtasks make the seat's results, one wave of them all.
    pub group: Option<String>,
    /// For a file of several agents' results (a Harbor job of several agents or models): the
    /// agent whose results are the seat's, and its model where the agent ran several.
    pub agent: Option<String>,
    pub agent_model: Option<String>,
}

/// Told how far a long import has got, so a terminal can show it. Importers call it; the
/// command draws it (or not).
pub trait Progress {
    /// The number of records the file holds, once known.
    fn total(&mut self, _records: u64) {}
    /// `n` more records read.
    fn advance(&mut self, _n: u64) {}
}

/// A progress that shows nothing.
pub struct Quiet;

impl Progress for Quiet {}

/// What an importer is given: the file, a way to read it, the seat's choices and a progress.
pub struct Input<'a> {
    pub src: &'a dyn Source,
    pub path: &'a Path,
    pub options: &'a Options,
    pub progress: &'a mut dyn Progress,
}

/// One results format.
pub trait Importer: Sync {
    /// The name a manifest's `format = "..."` uses.
    fn name(&self) -> &'static str;
    /// One line on what it reads, for error messages and `--help`.
    fn describes(&self) -> &'static str;
    /// Whether its files hold several scorers' verdicts, one chosen by the seat's `scorer`.
    fn has_scorers(&self) -> bool {
        false
    }
    /// Whether its tasks come in groups, one read whole by the seat's `group`.
    fn has_groups(&self) -> bool {
        false
    }
    /// Whether one file may hold several agents' results, one chosen by the seat's `agent`
    /// (and `agent_model`).
    fn has_agents(&self) -> bool {
        false
    }
    /// The agents (and models) whose results a file holds, when it holds several: one seat
    /// each (`ingest --from`). Empty for a file of one agent on one model.
    fn agents(&self, src: &dyn Source, path: &Path) -> Result<Vec<(String, Option<String>)>> {
        let _ = (src, path);
        Ok(Vec::new())
    }
    /// With `ingest --from ... --group`: the file a group's seat names and the group, for a
    /// results file `path` found in a directory whose task belongs to a group (`None`: it
    /// belongs to none, and stays a wave of its own).
    fn group_of(&self, src: &dyn Source, path: &Path) -> Option<(PathBuf, String)> {
        let _ = (src, path);
        None
    }
    /// Why its files cannot stand without the suite's size, when they cannot: a format that
    /// names only some of the problems it was run on (SWE-bench's lists name the resolved
    /// instances, not the unresolved ones) needs the manifest's `suite_problems`, or a seat's
    /// accuracy would count only the problems the file happens to name.
    fn needs_suite_size(&self) -> Option<&'static str> {
        None
    }
    /// Reads one seat's results from the file. Errors name the file and the record.
    fn read(&self, input: &mut Input<'_>) -> Result<Imported>;
    /// Whether a file met in a directory given to `ingest --from` is one of this format's
    /// results files (`results.json` beside `run_metadata.json`, `*_UPLOAD.json`, ...).
    fn finds(&self, src: &dyn Source, path: &Path) -> bool {
        let _ = src;
        path.extension().and_then(|e| e.to_str()) == Some("json")
    }
    /// What a file says of its run, for a wave built from it: by default the whole file is
    /// read and its attempts let go. Formats whose run is described in a small header
    /// override it to read that alone.
    fn about(&self, src: &dyn Source, path: &Path) -> Result<Imported> {
        self.about_with(src, path, &Options::default())
    }
    /// [`Importer::about`] under a seat's choices (a group's results file is read for its
    /// group).
    fn about_with(&self, src: &dyn Source, path: &Path, options: &Options) -> Result<Imported> {
        let mut imported = self.read(&mut Input {
            src,
            path,
            options,
            progress: &mut Quiet,
        })?;
        imported.about.counts_cached_reads = imported
            .records
            .iter()
            .any(|r| r.attempt.input_tokens_cache_read.is_some_and(|n| n > 0));
        imported.records = Vec::new();
        Ok(imported)
    }
}

/// Every format benchledger reads, by name.
pub static FORMATS: &[&dyn Importer] = &[
    &native::JsonLines,
    &native::Csv,
    &tau_bench::TauBench,
    &terminal_bench::TerminalBench,
    &openhands::OpenHands,
    &swe_bench::SweBench,
    &hal::Hal,
    &tau2_bench::Tau2Bench,
    &inspect::Inspect,
    &inspect::InspectSummaries,
    &harbor::Harbor,
    &lm_eval::LmEval,
    &helm::Helm,
    &eee::Eee,
];

/// The importer of a format named in a manifest; the error says which exist.
pub fn named(name: &str, at: Location) -> Result<&'static dyn Importer> {
    if let Some(i) = FORMATS.iter().find(|i| i.name() == name) {
        return Ok(*i);
    }
    let names: Vec<&str> = FORMATS.iter().map(|i| i.name()).collect();
    let hint = crate::diagnostics::near_name(name, &names)
        .map(|c| format!(" (did you mean `{c}`?)"))
        .unwrap_or_default();
    Err(Error::input(
        at,
        format!(
            "unknown results format {name:?}{hint}; benchledger reads: {}",
            FORMATS
                .iter()
                .map(|i| format!("{} ({})", i.name(), i.describes()))
                .collect::<Vec<_>>()
                .join("; ")
        ),
    ))
}

/// The importer a results file's extension implies when the manifest names no format:
/// `.jsonl`, `.json`, `.ndjson` are JSON lines, `.csv` is CSV.
pub fn by_extension(path: &Path) -> Result<&'static dyn Importer> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    match ext.as_str() {
        "jsonl" | "json" | "ndjson" => Ok(&native::JsonLines),
        "csv" => Ok(&native::Csv),
        _ => Err(Error::input(
            Location::file(path),
            "unknown results format: name the file .jsonl (one JSON object a line) or .csv, or \
             say which format it is with `format = \"...\"` beside `results` (the formats are \
             listed in docs/importers.md)",
        )),
    }
}
