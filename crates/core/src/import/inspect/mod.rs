//! `inspect`: Inspect AI eval logs, `.eval` archives and `.json` documents (told apart by
//! their first bytes, not their names), one attempt per sample and epoch; `inspect-summaries`,
//! the same read for the figures alone (an archive's `summaries.json`, without the sample
//! members that hold the events: the fast path, without a trace). docs/importers.md has the
//! field table; in short:
//!
//! - `id` → problem, `epoch` → attempt number;
//! - the chosen scorer's value (the seat's `scorer`, else the log's first: the first entry of
//!   `results.scores`, else of `eval.scorers`, else the first key of the first sample's
//!   `scores`) → correct and outcome: `C` Correct (1), `I` not (0), `P` partial (0.5, not
//!   Correct), `N` no answer (0); `true`/`false`, `yes`/`no` and numbers from 0 to 1 (Correct
//!   at 1), as inspect_ai's own `value_to_float` reads them; a dict value needs a key,
//!   `scorer = "NAME/KEY"` (by default the key `results.scores` names, when it names one);
//! - `model_usage[eval.model]` → the four token counts and `total_cost`; other models'
//!   usage (a grader's) and `role_usage` are not the evaluated model's and are dropped;
//! - `total_time` → wall seconds, `working_time` → working seconds;
//! - tool events → the trace (named by function, failed when the event has an error, its
//!   `type` the step's error), hence steps and errors;
//! - `error` → an infrastructure failure, never Correct, its exception class in
//!   `end_reason`; `limit` → `end_reason` ("token limit");
//! - `input`, `target`, `output` and the deciding scorer's `explanation` → the attempt's texts
//!   (the `texts` module), each cut to 4,000 characters.
//!
//! Whole-log checks: the run must have succeeded (`status`), hold samples, and its samples'
//! usage of the evaluated model must add up to the log's own `stats.model_usage`. The token
//! accounting is stated by `accounting`, on the version of inspect_ai that wrote the log
//! and the model's provider.

pub(crate) mod accounting;
mod archive;
mod json_log;
pub(crate) mod log;
mod texts;
pub mod wave;

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde_json::Value;

use super::{Imported, Importer, Input, Options, Origin, Progress, Quiet, Record, Source, Stated};
use crate::error::{Error, Location, Result};
use crate::import::results::MAX_COUNT;
use crate::model::Attempt;
use log::{Header, Sample, Usage, UsageTotals};

/// Inspect AI eval logs.
pub struct Inspect;

impl Importer for Inspect {
    fn name(&self) -> &'static str {
        "inspect"
    }

    fn describes(&self) -> &'static str {
        "Inspect AI eval logs (.eval archives or .json), one attempt per sample and epoch"
    }

    fn has_scorers(&self) -> bool {
        true
    }

    fn read(&self, input: &mut Input<'_>) -> Result<Imported> {
        read_as(input, Mode::Trace)
    }

    fn finds(&self, _: &dyn Source, path: &Path) -> bool {
        wave::finds(path)
    }

    fn about(&self, src: &dyn Source, path: &Path) -> Result<Imported> {
        wave::imported(src, path)
    }
}

/// Inspect AI eval logs read for their figures alone: an `.eval` archive from its
/// `summaries.json`, without opening the sample members (unless a summary lacks usage or
/// times, as those of inspect_ai 0.3.58 and before do). Every figure `inspect` reads but the
/// trace: steps and failed tool calls stay unknown.
pub struct InspectSummaries;

impl Importer for InspectSummaries {
    fn name(&self) -> &'static str {
        "inspect-summaries"
    }

    fn describes(&self) -> &'static str {
        "Inspect AI eval logs read from their summaries: every figure but the trace, faster"
    }

    fn has_scorers(&self) -> bool {
        true
    }

    fn read(&self, input: &mut Input<'_>) -> Result<Imported> {
        read_as(input, Mode::Figures)
    }

    fn finds(&self, _: &dyn Source, path: &Path) -> bool {
        wave::finds(path)
    }

    fn about(&self, src: &dyn Source, path: &Path) -> Result<Imported> {
        wave::imported(src, path)
    }
}

fn read_as(input: &mut Input<'_>, mode: Mode) -> Result<Imported> {
    let mut mapper = Mapper::new(input.path, input.options);
    let log = read_log(input.src, input.path, mode, input.progress, &mut |h, s| {
        mapper.push(h, s)
    })?;
    mapper.finish(&log.header)
}

/// How much of a log to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The header and every sample with its trace: an archive's sample members are opened.
    Trace,
    /// The header and every sample's figures: an archive's summaries, its sample members
    /// only where a summary lacks a figure.
    Figures,
    /// The header alone (what `ingest --from` builds a wave from).
    Head,
}

/// A log as read: its header, and whether its samples were read (they go to the caller's
/// `each` as they come).
#[derive(Debug, Default)]
pub struct Log {
    pub header: Header,
    pub samples_read: bool,
    /// The log has no samples at all (known without reading them: no `samples` field, no
    /// sample member).
    pub no_samples: bool,
    /// Whether the header's `status` is known: an archive's `header.json` is read whole, and a
    /// `.json` document's is known once its `status` is read or the document read to its end.
    /// A document read only up to its samples may give its status after them.
    pub status_read: bool,
}

/// Reads the log at `path`, an `.eval` archive or a `.json` document, handing each sample to
/// `each` as it is read.
pub(crate) fn read_log(
    src: &dyn Source,
    path: &Path,
    mode: Mode,
    progress: &mut dyn Progress,
    each: &mut dyn FnMut(&Header, Sample) -> Result<()>,
) -> Result<Log> {
    let mut file = src.open(path).map_err(|e| Error::io(path, e))?;
    let mut start = [0u8; 4];
    let mut n = 0;
    while n < start.len() {
        match file.read(&mut start[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::io(path, e)),
        }
    }
    file.seek(SeekFrom::Start(0))
        .map_err(|e| Error::io(path, e))?;
    if archive::is_zip(&start[..n]) {
        archive::read(path, file, &|| src.open(path), mode, progress, each)
    } else {
        let mut reopen = || src.open(path).ok().map(|f| f as Box<dyn Read + '_>);
        json_log::read(path, file, mode, progress, each, &mut reopen)
    }
}

/// A JSON error in a log, naming the line (of the file, or of an archive's member) and, for a
/// bare `NaN` or `Infinity` (which Python's `json` writes and JSON does not allow), saying so.
fn json_error<'r>(
    path: &Path,
    e: &serde_json::Error,
    context: Option<String>,
    reopen: &mut dyn FnMut() -> Option<Box<dyn Read + 'r>>,
) -> Error {
    let mut at = if e.line() > 0 {
        Location::line(path, e.line())
    } else {
        Location::file(path)
    };
    at.record = context;
    let near = if e.is_syntax() && e.line() > 0 {
        reopen().and_then(|r| excerpt(r, e.line(), e.column()))
    } else {
        None
    };
    let word = near.as_deref().and_then(|t| {
        let t = t.trim_start_matches([' ', '\t', ':', ',', '[']);
        ["NaN", "-Infinity", "Infinity"]
            .into_iter()
            .find(|w| t.starts_with(w))
    });
    let message = match word {
        Some(w) => format!(
            "a bare {w} at column {}, which is not JSON (Python's json module writes it for a \
             number that could not be computed): benchledger does not guess the number, so \
             the log cannot be read; rewrite the value as null or a number",
            e.column()
        ),
        None => format!("not the JSON an Inspect log holds: {e}"),
    };
    Error::input(at, message)
}

/// A few characters of `r` from just before 1-based `line` and `column`. `r` is read as a
/// stream and only those characters are kept, however far into it they are.
fn excerpt(r: Box<dyn Read + '_>, line: usize, column: usize) -> Option<String> {
    let r = std::io::BufReader::new(r);
    let (mut l, mut c) = (1usize, 0usize);
    let mut out = Vec::new();
    for b in r.bytes() {
        let b = b.ok()?;
        if b == b'\n' {
            if l == line {
                break;
            }
            l += 1;
            c = 0;
            continue;
        }
        c += 1;
        if l == line && c + 1 >= column {
            out.push(b);
            if out.len() >= 16 {
                break;
            }
        }
    }
    Some(String::from_utf8_lossy(&out).into_owned())
}

/// Which scorer decides Correct, and which key of its value when the value is a dict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub scorer: String,
    pub key: Option<String>,
    /// Whether the seat named it (else it is the log's first).
    pub named: bool,
}

/// The scorers a log names, in its order: `results.scores`, `eval.scorers`, then the first
/// sample's.
fn scorers_named(header: &Header, first: Option<&Sample>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut add = |n: &str| {
        if !names.iter().any(|x| x == n) {
            names.push(n.to_string());
        }
    };
    if let Some(scores) = header.results.as_ref().and_then(|r| r.scores.as_ref()) {
        for s in scores {
            if let Some(n) = s.scorer.as_deref().or(s.name.as_deref()) {
                add(n);
            }
        }
    }
    if let Some(scorers) = header.eval.as_ref().and_then(|e| e.scorers.as_ref()) {
        for s in scorers {
            if let Some(n) = &s.name {
                add(n);
            }
        }
    }
    for (n, _) in first.and_then(|s| s.scores.as_ref()).into_iter().flatten() {
        add(n);
    }
    names
}

/// The scorer that decides, chosen at the first sample with scores.
fn choose(at: &Location, header: &Header, first: &Sample, options: &Options) -> Result<Choice> {
    let has = |name: &str| {
        first
            .scores
            .as_ref()
            .is_some_and(|sc| sc.iter().any(|(n, _)| n == name))
    };
    if let Some(wanted) = &options.scorer {
        if has(wanted) {
            return Ok(Choice {
                scorer: wanted.clone(),
                key: None,
                named: true,
            });
        }
        if let Some((scorer, key)) = wanted.rsplit_once('/')
            && has(scorer)
        {
            return Ok(Choice {
                scorer: scorer.to_string(),
                key: Some(key.to_string()),
                named: true,
            });
        }
        return Err(Error::input(
            at.clone().field("scores"),
            format!(
                "no score from scorer {wanted:?} (the log's scorers: {})",
                scorers_named(header, Some(first)).join(", ")
            ),
        ));
    }
    let first_result = header
        .results
        .as_ref()
        .and_then(|r| r.scores.as_ref())
        .and_then(|s| s.first());
    if let Some(r) = first_result
        && let Some(scorer) = r.scorer.as_deref().or(r.name.as_deref())
    {
        let key = r.name.clone().filter(|n| n != scorer);
        return Ok(Choice {
            scorer: scorer.to_string(),
            key,
            named: false,
        });
    }
    // `first` has scores, so the list is not empty.
    let scorer = scorers_named(header, Some(first))
        .into_iter()
        .next()
        .unwrap_or_default();
    Ok(Choice {
        scorer,
        key: None,
        named: false,
    })
}

/// A score value as Correct and an outcome in [0, 1], as inspect_ai's `value_to_float` reads
/// it; the error says what the value is.
fn verdict(v: &Value) -> std::result::Result<(bool, f64), String> {
    let fraction = |x: f64| {
        if x.is_finite() && (0.0..=1.0).contains(&x) {
            Ok((x == 1.0, x))
        } else {
            Err(format!(
                "the value {x} is outside 0 to 1; benchledger reads an outcome as a fraction, \
                 so choose a scorer whose values are one (the seat's `scorer`)"
            ))
        }
    };
    match v {
        Value::String(s) => match s.trim() {
            "C" => Ok((true, 1.0)),
            "I" => Ok((false, 0.0)),
            "P" => Ok((false, 0.5)),
            "N" => Ok((false, 0.0)),
            t => match t.to_ascii_lowercase().as_str() {
                "yes" | "true" => Ok((true, 1.0)),
                "no" | "false" => Ok((false, 0.0)),
                l => match l.parse::<f64>() {
                    Ok(x) if x.is_finite() => fraction(x),
                    _ => Err(format!(
                        "the value {s:?} is none of C, I, P, N, yes, no, true, false or a \
                         number from 0 to 1"
                    )),
                },
            },
        },
        Value::Bool(b) => Ok((*b, if *b { 1.0 } else { 0.0 })),
        Value::Number(n) => fraction(n.as_f64().unwrap_or(f64::NAN)),
        Value::Null => Err("it has no value (the scorer did not score this sample)".into()),
        Value::Array(_) => Err("its value is a list, which benchledger cannot read as a \
                                verdict; choose another scorer (the seat's `scorer`)"
            .into()),
        Value::Object(_) => Err("its value is a dict".into()),
    }
}

/// What one sample's usage of the evaluated model says.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Tokens {
    input: Option<u64>,
    output: Option<u64>,
    cache_read: Option<u64>,
    cache_write: Option<u64>,
    cost: Option<f64>,
}

/// Maps a log's samples to attempts as they are read, then makes the whole-log checks.
pub struct Mapper<'a> {
    path: &'a Path,
    options: &'a Options,
    /// The evaluated model, once the header has been checked (at the first sample).
    model: Option<String>,
    /// The scorer that decides, once a sample with scores has been seen.
    choice: Option<Choice>,
    /// The first sample with neither a score nor an error, seen before any sample with a
    /// score: an error, unless no sample has a score (then the log's error).
    unscored: Option<Location>,
    records: Vec<Record>,
    sums: [u64; 4],
    counted: [bool; 4],
}

impl<'a> Mapper<'a> {
    pub fn new(path: &'a Path, options: &'a Options) -> Mapper<'a> {
        Mapper {
            path,
            options,
            model: None,
            choice: None,
            unscored: None,
            records: Vec::new(),
            sums: [0; 4],
            counted: [false; 4],
        }
    }

    /// Maps one sample (the header is the log's, read before it).
    pub fn push(&mut self, header: &Header, s: Sample) -> Result<()> {
        let r = self.map(header, s);
        // A sample before this one that had no score is the first error.
        match (r, &self.choice, &self.unscored) {
            (Err(_), Some(c), Some(at)) => Err(unscored(at, c)),
            (r, _, _) => r,
        }
    }

    fn map(&mut self, header: &Header, s: Sample) -> Result<()> {
        let model = match &self.model {
            Some(m) => m.clone(),
            None => {
                // The status may follow the samples in a `.json` document: `finish` checks
                // that it was given.
                let m = check_header(self.path, header, false)?
                    .model
                    .clone()
                    .unwrap_or_default();
                if let Some(n) = header.results.as_ref().and_then(|r| r.total_samples) {
                    self.records.reserve(n.min(1 << 20) as usize);
                }
                self.model = Some(m.clone());
                m
            }
        };
        let index = self.records.len();
        let scored = s.scores.as_ref().is_some_and(|sc| !sc.is_empty());
        if s.error.is_none() && !scored {
            let (problem, epoch) = identify(self.path, index, &s)?;
            let at = Location::record(self.path, format!("sample {problem} epoch {epoch}"));
            return match &self.choice {
                Some(c) => Err(unscored(&at, c)),
                None => {
                    self.unscored.get_or_insert(at);
                    Ok(())
                }
            };
        }
        if scored && self.choice.is_none() {
            let (problem, epoch) = identify(self.path, index, &s)?;
            let at = Location::record(self.path, format!("sample {problem} epoch {epoch}"));
            self.choice = Some(choose(&at, header, &s, self.options)?);
        }
        let r = attempt(self.path, index, s, &model, self.choice.as_ref())?;
        let a = &r.attempt;
        for (k, v) in [
            a.input_tokens,
            a.output_tokens,
            a.input_tokens_cache_read,
            a.input_tokens_cache_write,
        ]
        .into_iter()
        .enumerate()
        {
            if let Some(v) = v {
                self.sums[k] = self.sums[k].saturating_add(v);
                self.counted[k] = true;
            }
        }
        self.records.push(r);
        Ok(())
    }

    /// The attempts, once every sample has been read, with the whole-log checks.
    pub fn finish(self, header: &Header) -> Result<Imported> {
        // Again: a document may give its status after its samples.
        check_header(self.path, header, true)?;
        let Some(model) = self.model else {
            return Err(no_samples(self.path));
        };
        match (&self.choice, &self.unscored) {
            (None, Some(_)) => {
                return Err(Error::input(
                    Location::file(self.path).field("scores"),
                    "no sample has a score (no scorer ran, or the run was not scored): there is \
                     no verdict to import; score the log first (`inspect score`)",
                ));
            }
            (Some(c), Some(at)) => return Err(unscored(at, c)),
            _ => {}
        }
        check_totals(self.path, header, &model, self.sums, self.counted)?;
        Ok(Imported {
            records: self.records,
            accounting: stated(header),
            model: Some(model),
            about: wave::about(header),
        })
    }
}

/// A sample with no score from the chosen scorer, and no error.
fn unscored(at: &Location, c: &Choice) -> Error {
    Error::input(
        at.clone().field("scores"),
        format!(
            "no score from scorer {:?}{}, and no error to say why",
            c.scorer,
            if c.named { "" } else { ", the log's first" }
        ),
    )
}

fn no_samples(path: &Path) -> Error {
    Error::input(
        Location::file(path).field("samples"),
        "the log holds no samples (it was written without them, `--no-log-samples`, or the \
         run ended before any finished): there are no attempts to import",
    )
}

/// The token accounting a log states, by `accounting::stated`.
pub(crate) fn stated(header: &Header) -> Option<Stated> {
    let eval = header.eval.as_ref()?;
    accounting::stated(eval.inspect_version(), eval.model.as_deref()?)
}

/// The header's checks: a run that succeeded, and the model it evaluated. A status that is
/// null or missing is not a success; `status_read` says whether a missing one is known to be
/// missing, or may still come (after a `.json` document's samples).
fn check_header<'h>(
    path: &Path,
    header: &'h Header,
    status_read: bool,
) -> Result<&'h log::EvalSpec> {
    let (what, status) = match header.status.as_deref() {
        Some("success") => (None, String::new()),
        None if !status_read => (None, String::new()),
        // inspect_ai writes a status for every run, "started" until it ends.
        None => (
            Some("does not say it succeeded"),
            "null or missing".to_string(),
        ),
        Some(status) => (
            Some(match status {
                "cancelled" => "was cancelled",
                "error" => "stopped on an error",
                "started" => "had not finished",
                _ => "did not succeed",
            }),
            format!("{status:?}"),
        ),
    };
    if let Some(what) = what {
        let why = header
            .error
            .as_ref()
            .and_then(|e| e.message.as_deref())
            .map(|m| {
                let first = m.lines().next().unwrap_or("").trim();
                let cut: String = first.chars().take(120).collect();
                format!(" (its error: {cut})")
            })
            .unwrap_or_default();
        return Err(Error::input(
            Location::file(path).field("status"),
            format!(
                "the run {what} (status {status}){why}: its samples are not the whole run, so \
                 they are not imported as a seat's results; rerun or retry it (`inspect \
                 eval-retry`) and import the log of the finished run"
            ),
        ));
    }
    let eval = header.eval.as_ref().ok_or_else(|| {
        Error::input(
            Location::file(path).field("eval"),
            "missing: not an Inspect log (it has no `eval`, the run's description)",
        )
    })?;
    match eval.model.as_deref() {
        Some(m) if !m.trim().is_empty() => Ok(eval),
        _ => Err(Error::input(
            Location::file(path).field("eval.model"),
            "missing: the log does not name the model it evaluated",
        )),
    }
}

/// The samples' usage of the evaluated model must add up to the log's own totals.
fn check_totals(
    path: &Path,
    header: &Header,
    model: &str,
    sums: [u64; 4],
    counted: [bool; 4],
) -> Result<()> {
    let Some(totals) = header
        .stats
        .as_ref()
        .and_then(|s| s.model_usage.as_ref())
        .and_then(|u| u.get(model))
    else {
        return Ok(());
    };
    let UsageTotals {
        input_tokens,
        output_tokens,
        input_tokens_cache_read,
        input_tokens_cache_write,
    } = totals;
    let names = [
        "input_tokens",
        "output_tokens",
        "input_tokens_cache_read",
        "input_tokens_cache_write",
    ];
    for (k, total) in [
        input_tokens,
        output_tokens,
        input_tokens_cache_read,
        input_tokens_cache_write,
    ]
    .into_iter()
    .enumerate()
    {
        let Some(total) = *total else { continue };
        if sums[k] == total && (counted[k] || total == 0) {
            continue;
        }
        let samples = if counted[k] {
            format!("add up to {}", sums[k])
        } else {
            "do not count them".to_string()
        };
        return Err(Error::input(
            Location::file(path).field(format!("stats.model_usage.{model}.{}", names[k])),
            format!(
                "the log counts {total} {} for {model} over the run, but its samples {samples}: \
                 a log whose attempts do not add up to its own totals is not imported (inspect_ai \
                 before 0.3.42 kept usage for the whole run only, not per sample)",
                names[k]
            ),
        ));
    }
    Ok(())
}

/// A sample's id, as the problem's.
fn sample_id(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
        Value::Number(n) if n.is_u64() || n.is_i64() => Some(n.to_string()),
        _ => None,
    }
}

/// A sample's problem and epoch, or the error naming what is wrong with them.
fn identify(path: &Path, index: usize, s: &Sample) -> Result<(String, u32)> {
    let problem = sample_id(s.id.as_ref()).ok_or_else(|| {
        Error::input(
            Location::record(path, format!("samples[{index}]")).field("id"),
            format!(
                "expected the sample's id (a string or a whole number), got {}",
                s.id.as_ref()
                    .map(super::json::describe)
                    .unwrap_or_else(|| "nothing".into())
            ),
        )
    })?;
    let epoch = match &s.epoch {
        Some(Value::Number(n)) => n
            .as_u64()
            .filter(|e| (1..=u64::from(u32::MAX)).contains(e))
            .map(|e| e as u32),
        _ => None,
    }
    .ok_or_else(|| {
        Error::input(
            Location::record(path, format!("sample {problem}")).field("epoch"),
            format!(
                "expected the epoch (a whole number from 1), got {}",
                s.epoch
                    .as_ref()
                    .map(super::json::describe)
                    .unwrap_or_else(|| "nothing".into())
            ),
        )
    })?;
    Ok((problem, epoch))
}

fn attempt(
    path: &Path,
    index: usize,
    s: Sample,
    model: &str,
    choice: Option<&Choice>,
) -> Result<Record> {
    let (problem, epoch) = identify(path, index, &s)?;
    let label = format!("sample {problem} epoch {epoch}");
    let at = Location::record(path, label.clone());
    if s.completed == Some(Value::Bool(false)) {
        return Err(Error::input(
            at.field("completed"),
            "the sample did not complete: the log is of a run still going or interrupted",
        ));
    }
    let tokens = tokens(&at, s.model_usage.as_deref(), model)?;
    let wall_s = seconds(&at, "total_time", s.total_time.as_ref())?;
    let working_s = seconds(&at, "working_time", s.working_time.as_ref())?;
    let (correct, outcome, infra_error, end_reason) = match &s.error {
        Some(e) => (false, None, true, Some(format!("error: {}", e.kind))),
        None => {
            let choice = choice.ok_or_else(|| {
                Error::input(
                    at.clone().field("scores"),
                    "no score, and no error to say why",
                )
            })?;
            let value = s
                .scores
                .as_ref()
                .and_then(|sc| sc.iter().find(|(n, _)| *n == choice.scorer))
                .map(|(_, v)| v.clone().unwrap_or(Value::Null));
            let Some(value) = value else {
                let present: Vec<&str> =
                    s.scores.iter().flatten().map(|(n, _)| n.as_str()).collect();
                return Err(Error::input(
                    at.field("scores"),
                    format!(
                        "no score from scorer {:?}{} (this sample's scorers: {})",
                        choice.scorer,
                        if choice.named {
                            ""
                        } else {
                            ", the log's first"
                        },
                        if present.is_empty() {
                            "none".into()
                        } else {
                            present.join(", ")
                        }
                    ),
                ));
            };
            let (correct, outcome) = score(&value, choice).map_err(|why| {
                Error::input(
                    at.clone().field(format!("scores.{}", choice.scorer)),
                    format!(
                        "scorer {:?} cannot be read as a verdict: {why}",
                        choice.scorer
                    ),
                )
            })?;
            (correct, Some(outcome), false, limit(s.limit.as_ref()))
        }
    };
    let texts = texts::of(&s, choice.map(|c| c.scorer.as_str()));
    let (steps, errors) = match &s.trace {
        Some(t) => (
            Some(small(&at, "events", t.len())?),
            Some(small(&at, "events", t.iter().filter(|x| !x.ok).count())?),
        ),
        None => (None, None),
    };
    Ok(Record {
        at: Origin::Record(label),
        attempt: Attempt {
            problem,
            trial: epoch,
            correct,
            outcome,
            input_tokens: tokens.input,
            output_tokens: tokens.output,
            input_tokens_cache_read: tokens.cache_read,
            input_tokens_cache_write: tokens.cache_write,
            wall_s,
            cost_usd: tokens.cost,
            steps,
            errors,
            checklist: None,
            trace: s.trace.filter(|t| !t.is_empty()),
            working_s,
            infra_error,
            end_reason,
            origin: None,
            texts,
        },
        file: None,
    })
}

fn small(at: &Location, field: &str, n: usize) -> Result<u32> {
    u32::try_from(n).map_err(|_| Error::input(at.clone().field(field), "too many tool calls"))
}

/// A score's value read through the choice: a dict through its key.
fn score(value: &Value, choice: &Choice) -> std::result::Result<(bool, f64), String> {
    match (value, &choice.key) {
        (Value::Object(o), Some(key)) => match o.get(key) {
            Some(v) => verdict(v).map_err(|why| format!("its key {key:?}: {why}")),
            None => Err(format!(
                "its value has no key {key:?} (its keys: {})",
                o.keys().map(String::as_str).collect::<Vec<_>>().join(", ")
            )),
        },
        (Value::Object(o), None) => Err(format!(
            "its value is a dict of {}; choose one with scorer = \"{}/KEY\"",
            o.keys().map(String::as_str).collect::<Vec<_>>().join(", "),
            choice.scorer
        )),
        (v, Some(key)) if choice.named => Err(format!(
            "its value is {}, not a dict with a key {key:?}; choose scorer = {:?}",
            super::json::describe(v),
            choice.scorer
        )),
        (v, _) => verdict(v),
    }
}

/// A sample's `limit` as an end reason: "token limit".
fn limit(v: Option<&Value>) -> Option<String> {
    let kind = match v? {
        Value::Null => return None,
        Value::String(s) => s.clone(),
        Value::Object(o) => o
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        _ => String::new(),
    };
    let kind = kind.trim();
    Some(if kind.is_empty() {
        "limit".into()
    } else {
        format!("{kind} limit")
    })
}

/// Seconds, finite and 0 or more, when given.
fn seconds(at: &Location, field: &str, v: Option<&Value>) -> Result<Option<f64>> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => match n.as_f64() {
            Some(x) if x.is_finite() && x >= 0.0 => Ok(Some(x)),
            _ => Err(Error::input(
                at.clone().field(field),
                format!("expected seconds, 0 or more, got {n}"),
            )),
        },
        Some(other) => Err(Error::input(
            at.clone().field(field),
            format!(
                "expected seconds, 0 or more, got {}",
                super::json::describe(other)
            ),
        )),
    }
}

/// The evaluated model's usage in one sample. A sample with usage but none of this model's
/// made no call to it: zero tokens. A sample with no usage at all (inspect_ai before 0.3.42)
/// leaves them unknown.
fn tokens(at: &Location, usage: Option<&[(String, Usage)]>, model: &str) -> Result<Tokens> {
    let Some(usage) = usage else {
        return Ok(Tokens::default());
    };
    let Some((_, u)) = usage.iter().find(|(m, _)| m == model) else {
        return Ok(Tokens {
            input: Some(0),
            output: Some(0),
            ..Tokens::default()
        });
    };
    let field = |name: &str| at.clone().field(format!("model_usage.{model}.{name}"));
    let count = |name: &str, v: &Option<Value>| -> Result<Option<u64>> {
        match v {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => match n.as_u64() {
                Some(x) if x <= MAX_COUNT => Ok(Some(x)),
                _ => Err(Error::input(
                    field(name),
                    format!("expected a whole number of tokens from 0 to 10^12, got {n}"),
                )),
            },
            Some(other) => Err(Error::input(
                field(name),
                format!(
                    "expected a whole number of tokens, got {}",
                    super::json::describe(other)
                ),
            )),
        }
    };
    let cost = match &u.total_cost {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => match n.as_f64() {
            Some(x) if x.is_finite() && x >= 0.0 => Some(x),
            _ => {
                return Err(Error::input(
                    field("total_cost"),
                    format!("expected US dollars, 0 or more, got {n}"),
                ));
            }
        },
        Some(other) => {
            return Err(Error::input(
                field("total_cost"),
                format!("expected US dollars, got {}", super::json::describe(other)),
            ));
        }
    };
    Ok(Tokens {
        // inspect_ai's ModelUsage defaults both counts to 0.
        input: Some(count("input_tokens", &u.input_tokens)?.unwrap_or(0)),
        output: Some(count("output_tokens", &u.output_tokens)?.unwrap_or(0)),
        cache_read: count("input_tokens_cache_read", &u.input_tokens_cache_read)?,
        cache_write: count("input_tokens_cache_write", &u.input_tokens_cache_write)?,
        cost,
    })
}

/// What `ingest --from` needs of a log: its header, read alone.
pub fn head(src: &dyn Source, path: &Path) -> Result<Header> {
    let log = read_log(src, path, Mode::Head, &mut Quiet, &mut |_, _| Ok(()))?;
    check_header(path, &log.header, log.status_read)?;
    if log.no_samples {
        return Err(no_samples(path));
    }
    Ok(log.header)
}

#[cfg(test)]
mod tests;
