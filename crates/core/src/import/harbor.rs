//! `harbor`: a Harbor job directory (harbor-framework/harbor, the harness that runs
//! Terminal-Bench 2.0): the job's `result.json` and `config.json`, and one directory per trial,
//! `<task>__<id>/result.json` (a `TrialResult`) with the agent's ATIF trajectory in
//! `agent/trajectory.json`. Fields as Harbor 0.13.1 defines them (`models/trial/result.py`,
//! `models/job/result.py`, `models/agent/context.py`, `models/job/config.py`, read at
//! lieexxli/harbor 2922220, a fork at that version):
//!
//! - `task_name` → problem; the trials of one task, in the order they started, → attempts 1..n;
//! - `verifier_result.rewards` (its one value, or its `reward`) → outcome, Correct at 1;
//! - `agent_result` (or the sum over `step_results[].agent_result`, as Harbor's own
//!   `compute_token_cost_totals` sums it): `n_input_tokens` (cache included), `n_cache_tokens`
//!   → cached reads, `n_output_tokens`, `cost_usd`;
//! - `started_at`/`finished_at` → wall seconds; `agent_execution` → working seconds;
//! - `exception_info.exception_type` → end reason; infrastructure unless it is one of the
//!   exceptions Harbor's retry policy treats as the trial's own outcome (below);
//! - the trajectory's tool calls → steps (ATIF records no failure per call: errors unknown);
//!   its first user message (the instruction as given) and the agent's last message → the
//!   attempt's texts, input and answer, each cut to 4,000 characters;
//! - `agent_info.model_info` → the model; `agent_info` → the harness; `source` → the suite;
//!   the job's `started_at` → the wave's start; `n_concurrent_trials` → parallel sessions;
//!   Harbor writes the job's start with `datetime.now()`, a naive local time: when trials
//!   state their start with an offset, the earliest pins the job's offset (the smallest
//!   whole quarter-hour that puts the job's start at or before it); else it is taken as UTC.
//!   Either way a note says so;
//!   `timeout_multiplier` → the load's timeout multiplier (1 included: the job says it).
//!
//! A job of several agents or models (Harbor's `agents` list, each with its `model_name`) is
//! one seat per agent and model: the seat's `agent` (and `agent_model`, where one agent ran
//! several models) chooses its trials.
//!
//! Which exceptions are the trial's own: those Harbor's `RetryConfig.exclude_exceptions`
//! never retries by default because they are outcomes, not accidents — `AgentTimeoutError`,
//! `VerifierTimeoutError`, `RewardFileNotFoundError`, `RewardFileEmptyError`,
//! `VerifierOutputParseError`. Every other exception (the environment failing to start or
//! build, a cancelled trial, the agent's setup timing out) is infrastructure: never Correct,
//! and a reward the verifier still left is recorded in the end reason, not scored.

pub mod claims;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::{DateTime, FixedOffset, NaiveDateTime, SecondsFormat, TimeZone, Utc};
use serde_json::Value;

use super::json::{Rec, Shape};
use super::object::describe;
use super::{About, Imported, Importer, Input, Origin, Record, Source, Stated};
use crate::error::{Error, Location, Result};
use crate::model::{Attempt, AttemptTexts};

/// A Harbor job directory.
pub struct Harbor;

/// A reward this close to 1 is a pass (Harbor's pass@k counts a reward of exactly 1).
const SUCCESS: f64 = 1.0 - 1e-6;

/// The most files one trial's trajectory is read from (`trajectory.json` and its
/// continuations): a chain longer than this is refused (README, limits).
pub(crate) const MAX_CONTINUATIONS: usize = 100;

/// The exceptions that are a trial's own outcome (Harbor's default `exclude_exceptions`).
const OWN: [&str; 5] = [
    "AgentTimeoutError",
    "VerifierTimeoutError",
    "RewardFileNotFoundError",
    "RewardFileEmptyError",
    "VerifierOutputParseError",
];

impl Importer for Harbor {
    fn name(&self) -> &'static str {
        "harbor"
    }

    fn describes(&self) -> &'static str {
        "a Harbor job directory's result.json, with config.json and a <task>__<id>/result.json \
         per trial"
    }

    /// A job's `result.json`: beside `config.json`, with no job above it (a trial's own
    /// `result.json` sits in a job's directory).
    fn finds(&self, src: &dyn Source, path: &Path) -> bool {
        let dir = job_dir(path);
        path.file_name().and_then(|n| n.to_str()) == Some("result.json")
            && src.is_file(&dir.join("config.json"))
            && !src.is_file(&above(&dir).join("result.json"))
    }

    fn has_agents(&self) -> bool {
        true
    }

    fn agents(&self, src: &dyn Source, path: &Path) -> Result<Vec<(String, Option<String>)>> {
        let dir = job_dir(path);
        let mut agents = std::collections::BTreeSet::new();
        for t in trial_files(src, &dir)? {
            let t = trial(src, &t)?;
            agents.insert((t.agent, t.model));
        }
        Ok(if agents.len() > 1 {
            agents.into_iter().collect()
        } else {
            Vec::new()
        })
    }

    fn read(&self, input: &mut Input<'_>) -> Result<Imported> {
        let path = input.path;
        let job = read_json(input.src, path, JOB)?;
        let job_rec = Rec::new(path, "the job's result", &job)?;
        let dir = job_dir(path);
        let dir = dir.as_path();
        let config = dir.join("config.json");
        let (parallel, multiplier) = if input.src.is_file(&config) {
            let c = read_json(input.src, &config, CONFIG)?;
            let r = Rec::new(&config, "the job's config", &c)?;
            let multiplier = match r.number("timeout_multiplier")? {
                Some(x) if x > 0.0 => Some(x),
                Some(x) => {
                    return Err(r.bad(
                        "timeout_multiplier",
                        format!("expected a factor above 0, got {x}"),
                    ));
                }
                None => None,
            };
            let parallel = r
                .count("n_concurrent_trials")?
                .map(|n| u32::try_from(n).unwrap_or(u32::MAX));
            (parallel, multiplier)
        } else {
            (None, None)
        };
        let trials = trial_files(input.src, dir)?;
        input.progress.total(trials.len() as u64);
        let mut read = Vec::with_capacity(trials.len());
        for t in &trials {
            read.push(trial(input.src, t)?);
            input.progress.advance(1);
        }
        // Attempts: a task's trials in the order they started (then by name).
        read.sort_by(|a, b| (&a.task, a.started, &a.name).cmp(&(&b.task, b.started, &b.name)));
        let (started_at, note) = job_start(&job_rec, &read)?;
        let mut records = Vec::with_capacity(read.len());
        let mut k: BTreeMap<String, u32> = BTreeMap::new();
        let read = chosen(path, read, input.options)?;
        for t in read.iter() {
            let n = k.entry(t.task.clone()).or_default();
            *n += 1;
            let mut attempt = t.attempt.clone();
            attempt.trial = *n;
            records.push(Record {
                at: Origin::Record(format!("trial {}", t.name)),
                attempt,
                // The trial's directory, which holds its logs and trajectory.
                file: t.path.parent().map(Path::to_path_buf),
            });
        }
        let first = read.first();
        let accounting = read
            .iter()
            .any(|t| t.attempt.input_tokens.is_some())
            .then(|| Stated {
                input_tokens_include_cache_reads: true,
                why: "Harbor's AgentContext counts n_input_tokens \"including cache\"".into(),
            });
        let about = About {
            suite: first.and_then(|t| t.source.clone()),
            started_at,
            notes: note.into_iter().map(|n| ("started_at", n)).collect(),
            harness: first.map(|t| t.agent.clone()),
            harness_version: first.and_then(|t| t.agent_version.clone()),
            provider: first.and_then(|t| t.provider.clone()),
            producer: Some("harbor".into()),
            parallel_sessions: parallel,
            timeout_multiplier: multiplier,
            suite_problems: None,
            ..About::default()
        };
        Ok(Imported {
            records,
            accounting,
            model: first.and_then(|t| t.model.clone()),
            about,
        })
    }
}

/// The trials of the seat's agent and model (`agent`, `agent_model`); all of them when it
/// names none and they are of one agent on one model.
fn chosen(path: &Path, read: Vec<Trial>, options: &super::Options) -> Result<Vec<Trial>> {
    let mut agents: BTreeMap<(String, Option<String>), usize> = BTreeMap::new();
    for t in &read {
        *agents
            .entry((t.agent.clone(), t.model.clone()))
            .or_default() += 1;
    }
    let listed = || {
        agents
            .keys()
            .map(|(a, m)| format!("{a} with {}", m.as_deref().unwrap_or("no model named")))
            .collect::<Vec<_>>()
            .join("; ")
    };
    let Some(agent) = &options.agent else {
        if agents.len() > 1 {
            return Err(Error::input(
                Location::file(path),
                format!(
                    "the job ran {} agents or models ({}); a seat is one agent on one model: \
                     choose its trials with agent = \"NAME\" (and agent_model = \"MODEL\" \
                     where the agent ran several), or ingest --from harbor, which makes a seat \
                     of each",
                    agents.len(),
                    listed()
                ),
            ));
        }
        return Ok(read);
    };
    let model = options.agent_model.as_ref();
    let matching: Vec<&(String, Option<String>)> = agents
        .keys()
        .filter(|(a, m)| a == agent && model.is_none_or(|want| m.as_ref() == Some(want)))
        .collect();
    match matching.len() {
        1 => {}
        0 => {
            return Err(Error::input(
                Location::file(path),
                format!(
                    "no trial of agent {agent:?}{}; the job ran {}",
                    model
                        .map(|m| format!(" with model {m:?}"))
                        .unwrap_or_default(),
                    listed()
                ),
            ));
        }
        _ => {
            return Err(Error::input(
                Location::file(path),
                format!(
                    "agent {agent:?} ran several models ({}): choose one with agent_model = \
                     \"MODEL\"",
                    listed()
                ),
            ));
        }
    }
    let (a, m) = matching[0].clone();
    Ok(read
        .into_iter()
        .filter(|t| t.agent == a && t.model == m)
        .collect())
}

/// The directory of a job whose `result.json` is at `path` (`.` for a bare file name).
fn job_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The directory above `dir`, as a path to read through: `dir/..` where `dir` ends in `.` or
/// `..` (whose lexical parent is not the directory above: `cd JOB && ingest --from harbor .`).
fn above(dir: &Path) -> PathBuf {
    match dir.components().next_back() {
        Some(std::path::Component::Normal(_)) => match dir.parent() {
            Some(up) if !up.as_os_str().is_empty() => up.to_path_buf(),
            _ => PathBuf::from("."),
        },
        _ => dir.join(".."),
    }
}

/// The job's start as RFC 3339, and a note when it had to be read: Harbor writes it naive
/// (`datetime.now()`, local time). The earliest trial start written with an offset pins the
/// job's offset, the smallest whole quarter-hour that puts the job's start at or before that
/// trial's; with no such trial it is taken as UTC.
fn job_start(r: &Rec<'_>, trials: &[Trial]) -> Result<(Option<String>, Option<String>)> {
    let Some(raw) = r.text("started_at")? else {
        return Ok((None, None));
    };
    if DateTime::parse_from_rfc3339(raw).is_ok() {
        return Ok((Some(raw.to_string()), None));
    }
    let Ok(naive) = raw.parse::<NaiveDateTime>() else {
        return Err(r.bad(
            "started_at",
            format!("expected an ISO 8601 date-time, got {raw:?}"),
        ));
    };
    const QUARTER: i64 = 15 * 60;
    if let Some(first) = trials.iter().filter_map(|t| t.started_utc).min() {
        let gap = (naive - first.naive_utc()).num_seconds();
        let offset = gap.div_euclid(QUARTER) * QUARTER
            + if gap.rem_euclid(QUARTER) == 0 {
                0
            } else {
                QUARTER
            };
        if let Some(zone) = i32::try_from(offset)
            .ok()
            .filter(|s| s.abs() <= 14 * 3600)
            .and_then(FixedOffset::east_opt)
            && let Some(t) = zone.from_local_datetime(&naive).single()
        {
            let at = t.to_rfc3339_opts(SecondsFormat::AutoSi, false);
            return Ok((
                Some(at.clone()),
                Some(format!(
                    "the job's started_at {raw:?} names no offset (Harbor writes local time); \
                     read as {at}, the offset its earliest trial's start ({}) pins",
                    first.to_rfc3339_opts(SecondsFormat::AutoSi, true)
                )),
            ));
        }
    }
    let at = naive.and_utc().to_rfc3339_opts(SecondsFormat::AutoSi, true);
    Ok((
        Some(at.clone()),
        Some(format!(
            "the job's started_at {raw:?} names no offset (Harbor writes local time) and no \
             trial states one: taken as UTC, {at}; give --started-at if the run was elsewhere"
        )),
    ))
}

/// What is read of a job's `result.json`, by the importer and by [`claims`]: its start, and
/// the figures of each of its evals (`stats.evals`: `metrics`, `pass_at_k`). The rest (each
/// eval's `reward_stats` and `exception_stats`, which name every trial) is skipped unread.
const JOB: Shape = Shape::Fields(&[
    ("started_at", Shape::Whole),
    (
        "stats",
        Shape::Fields(&[(
            "evals",
            Shape::Each(&Shape::Fields(&[
                ("metrics", Shape::Whole),
                ("pass_at_k", Shape::Whole),
            ])),
        )]),
    ),
]);

/// What is read of a job's `config.json`.
const CONFIG: Shape = Shape::Fields(&[
    ("timeout_multiplier", Shape::Whole),
    ("n_concurrent_trials", Shape::Whole),
]);

/// What is read of an `AgentContext`: its counts, not its `rollout_details` (token ids and log
/// probabilities of every turn) nor its `metadata`.
const CONTEXT: Shape = Shape::Fields(&[
    ("n_input_tokens", Shape::Whole),
    ("n_cache_tokens", Shape::Whole),
    ("n_output_tokens", Shape::Whole),
    ("cost_usd", Shape::Whole),
]);

/// Seconds of a trial or one of its phases.
const SPAN: Shape = Shape::Fields(&[("started_at", Shape::Whole), ("finished_at", Shape::Whole)]);

/// What is read of a trial's `result.json` (a `TrialResult`); the rest is skipped unread.
const TRIAL: Shape = Shape::Fields(&[
    ("task_name", Shape::Whole),
    ("trial_name", Shape::Whole),
    ("source", Shape::Whole),
    ("started_at", Shape::Whole),
    ("finished_at", Shape::Whole),
    (
        "agent_info",
        Shape::Fields(&[
            ("name", Shape::Whole),
            ("version", Shape::Whole),
            (
                "model_info",
                Shape::Fields(&[("name", Shape::Whole), ("provider", Shape::Whole)]),
            ),
        ]),
    ),
    ("agent_result", CONTEXT),
    (
        "step_results",
        Shape::Each(&Shape::Fields(&[("agent_result", CONTEXT)])),
    ),
    ("agent_execution", SPAN),
    (
        "verifier_result",
        Shape::Fields(&[("rewards", Shape::Whole)]),
    ),
    (
        "exception_info",
        Shape::Fields(&[("exception_type", Shape::Whole)]),
    ),
]);

/// The parts of a Harbor JSON file that `shape` names, streamed (issue 34.3: a trial's
/// `result.json` read as a document grew about twelve times its size in memory).
fn read_json(src: &dyn Source, path: &Path, shape: Shape) -> Result<Value> {
    super::json::shaped_file(src, path, shape)
}

/// The `result.json` of each trial directory of a job, sorted.
fn trial_files(src: &dyn Source, dir: &Path) -> Result<Vec<PathBuf>> {
    let entries = src
        .list(dir)
        .map_err(|e| Error::io(dir, e))?
        .ok_or_else(|| {
            Error::input(
                Location::file(dir),
                "expected a Harbor job directory, whose trial directories can be listed",
            )
        })?;
    let mut out: Vec<PathBuf> = entries
        .into_iter()
        .map(|d| d.join("result.json"))
        .filter(|r| src.is_file(r))
        .collect();
    out.sort();
    if out.is_empty() {
        return Err(Error::input(
            Location::file(dir),
            "the job directory holds no trial directories (<task>__<id>/result.json): there \
             are no attempts to import",
        ));
    }
    Ok(out)
}

/// One trial, read.
struct Trial {
    task: String,
    name: String,
    started: Option<NaiveDateTime>,
    /// Its start, when written with an offset.
    started_utc: Option<DateTime<Utc>>,
    source: Option<String>,
    agent: String,
    agent_version: Option<String>,
    model: Option<String>,
    provider: Option<String>,
    attempt: Attempt,
    /// The trial's `result.json`; its directory holds the trial's logs and trajectory.
    path: PathBuf,
}

/// A time as Harbor writes it: ISO 8601, with an offset or without (Python's naive
/// `datetime.now()`), read as the wall clock it names.
fn time(r: &Rec<'_>, v: &Value, field: &str) -> Result<Option<NaiveDateTime>> {
    match v.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => DateTime::parse_from_rfc3339(s)
            .map(|t| t.naive_utc())
            .or_else(|_| s.parse::<NaiveDateTime>())
            .map(Some)
            .map_err(|_| r.bad(field, format!("expected an ISO 8601 date-time, got {s:?}"))),
        Some(other) => Err(r.bad(
            field,
            format!("expected an ISO 8601 date-time, got {}", describe(other)),
        )),
    }
}

/// Seconds from `started_at` to `finished_at` of `v` (a trial, or one of its phases).
fn span(r: &Rec<'_>, v: Option<&Value>, what: &str) -> Result<Option<f64>> {
    let Some(v) = v.filter(|v| v.is_object()) else {
        return Ok(None);
    };
    let (Some(a), Some(b)) = (time(r, v, "started_at")?, time(r, v, "finished_at")?) else {
        return Ok(None);
    };
    let s = (b - a).num_microseconds().map(|us| us as f64 / 1e6);
    match s {
        Some(s) if s >= 0.0 => Ok(Some(s)),
        _ => Err(r.bad(what, "finished_at is before started_at")),
    }
}

/// The agent's counts: `agent_result`, else the sum over `step_results[].agent_result`.
fn usage(r: &Rec<'_>, a: &mut Attempt) -> Result<()> {
    let contexts: Vec<&Value> = match r.get("agent_result") {
        Some(c) => vec![c],
        None => r
            .list("step_results")?
            .map(|steps| {
                steps
                    .iter()
                    .filter_map(|s| s.get("agent_result").filter(|v| !v.is_null()))
                    .collect()
            })
            .unwrap_or_default(),
    };
    for c in contexts {
        let c = Rec::new(r.path, r.label.clone(), c)?;
        let add = |sum: &mut Option<u64>, n: Option<u64>| {
            if let Some(n) = n {
                *sum = Some(sum.unwrap_or(0).saturating_add(n));
            }
        };
        add(&mut a.input_tokens, c.count("n_input_tokens")?);
        add(&mut a.input_tokens_cache_read, c.count("n_cache_tokens")?);
        add(&mut a.output_tokens, c.count("n_output_tokens")?);
        if let Some(x) = c.number("cost_usd")? {
            a.cost_usd = Some(a.cost_usd.unwrap_or(0.0) + x);
        }
    }
    Ok(())
}

/// The reward: the one value of `verifier_result.rewards`, or its `reward`.
fn reward(r: &Rec<'_>) -> Result<Option<f64>> {
    let Some(rewards) = r.get("verifier_result").and_then(|v| v.get("rewards")) else {
        return Ok(None);
    };
    let field = "verifier_result.rewards";
    let Value::Object(map) = rewards else {
        if rewards.is_null() {
            return Ok(None);
        }
        return Err(r.bad(
            field,
            format!("expected an object, got {}", describe(rewards)),
        ));
    };
    let value = match (map.len(), map.get("reward")) {
        (0, _) => return Ok(None),
        (1, _) => map.values().next(),
        (_, Some(v)) => Some(v),
        _ => {
            return Err(r.bad(
                field,
                format!(
                    "several rewards ({}) and none named `reward`: benchledger cannot tell \
                     which decides the trial",
                    map.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            ));
        }
    };
    match value.and_then(Value::as_f64) {
        Some(x) if (0.0..=1.0).contains(&x) => Ok(Some(x)),
        _ => Err(r.bad(
            field,
            format!(
                "expected a reward from 0 to 1, got {}",
                value.map(describe).unwrap_or_default()
            ),
        )),
    }
}

fn trial(src: &dyn Source, path: &Path) -> Result<Trial> {
    let v = read_json(src, path, TRIAL)?;
    let r = Rec::new(path, "the trial", &v)?;
    let task = r.id("task_name")?;
    let name = r.text("trial_name")?.unwrap_or(&task).to_string();
    let info = r.required("agent_info", "the agent's name and version")?;
    let info = Rec::new(path, "the trial", info)?;
    let agent = info.id("name")?;
    let agent_version = info.text("version")?.map(str::to_string);
    let (model, provider) = match info.get("model_info") {
        Some(m) => {
            let m = Rec::new(path, "the trial", m)?;
            (Some(m.id("name")?), m.text("provider")?.map(str::to_string))
        }
        None => (None, None),
    };
    let mut a = Attempt::empty();
    a.problem = task.clone();
    a.trial = 1;
    usage(&r, &mut a)?;
    a.wall_s = span(&r, Some(&v), "finished_at")?;
    a.working_s = span(&r, r.get("agent_execution"), "agent_execution")?;
    let reward = reward(&r)?;
    let exception = match r.get("exception_info") {
        Some(e) => Some(
            Rec::new(path, "the trial", e)?
                .text("exception_type")?
                .unwrap_or("an exception")
                .to_string(),
        ),
        None => None,
    };
    match (&exception, reward) {
        (Some(e), reward) if !OWN.contains(&e.as_str()) => {
            a.infra_error = true;
            a.end_reason = Some(match reward {
                Some(x) => format!("{e} (the verifier's reward {x} not scored)"),
                None => e.clone(),
            });
        }
        (e, reward) => {
            a.outcome = reward;
            a.correct = reward.is_some_and(|x| x >= SUCCESS);
            a.end_reason = e
                .clone()
                .or_else(|| reward.is_none().then(|| "no reward".into()));
        }
    }
    let (steps, texts) = trajectory(src, path)?;
    a.steps = steps;
    a.texts = texts;
    Ok(Trial {
        task,
        name,
        started: time(&r, &v, "started_at")?,
        started_utc: v
            .get("started_at")
            .and_then(Value::as_str)
            .and_then(|s| DateTime::parse_from_rfc3339(s).ok())
            .map(|t| t.with_timezone(&Utc)),
        source: r.text("source")?.map(str::to_string),
        agent,
        agent_version,
        model,
        provider,
        attempt: a,
        path: path.to_path_buf(),
    })
}

/// The tool calls of the agent's ATIF trajectory (`agent/trajectory.json` and its
/// continuations, `continued_trajectory_ref`), leaving out steps copied into a continuation
/// as context, and its texts: the first user message (the task's instruction, as the agent
/// was given it) and the agent's last message; `None` without a trajectory. Each file is
/// streamed a step at a time.
fn trajectory(src: &dyn Source, result: &Path) -> Result<(Option<u32>, Option<AttemptTexts>)> {
    let dir = result.parent().unwrap_or(Path::new(".")).join("agent");
    let mut next = Some(dir.join("trajectory.json"));
    if !next.as_ref().is_some_and(|p| src.is_file(p)) {
        return Ok((None, None));
    }
    let mut calls: u64 = 0;
    let (mut instruction, mut last): (Option<String>, Option<String>) = (None, None);
    let mut read: Vec<PathBuf> = Vec::new();
    while let Some(path) = next.take() {
        // A continuation naming one read already is a cycle: each file is read once.
        if let Some(first) = read.iter().position(|p| *p == path) {
            let from = read.last().unwrap_or(&path);
            return Err(Error::input(
                Location::file(from).field("continued_trajectory_ref"),
                format!(
                    "names {}, read already as continuation {} of this trajectory: the chain \
                     is a cycle",
                    path.display(),
                    first + 1
                ),
            ));
        }
        if read.len() >= MAX_CONTINUATIONS {
            return Err(Error::input(
                Location::file(&path),
                format!(
                    "a trajectory continued more than {MAX_CONTINUATIONS} times: benchledger \
                     reads at most {MAX_CONTINUATIONS} files of one trial's trajectory"
                ),
            ));
        }
        read.push(path.clone());
        // Streamed, a step at a time: a trajectory can be tens of megabytes.
        let file = src.open(&path).map_err(|e| Error::io(&path, e))?;
        let mut continued: Option<String> = None;
        super::object::walk(
            &path,
            file,
            "an ATIF trajectory, a JSON object with its steps",
            |key| match key {
                "steps" => super::object::Take::Elements,
                "continued_trajectory_ref" => super::object::Take::Whole,
                _ => super::object::Take::Skip,
            },
            |key, part| {
                match part {
                    super::object::Part::Element(i, step) => {
                        let s = Rec::new(&path, format!("step {}", i + 1), &step)?;
                        let own = s.boolean("is_copied_context")? != Some(true);
                        match s.text("source")? {
                            Some("agent") if own => {
                                calls += s.list("tool_calls")?.map_or(0, |c| c.len() as u64);
                                if let Some(m) = message(&step) {
                                    last = Some(m);
                                }
                            }
                            Some("user") if own && instruction.is_none() => {
                                instruction = message(&step);
                            }
                            _ => {}
                        }
                    }
                    super::object::Part::Whole(v) if key == "continued_trajectory_ref" => {
                        continued = match v {
                            Value::Null => None,
                            Value::String(f) => Some(f),
                            other => {
                                return Err(Error::input(
                                    Location::file(&path).field(key),
                                    format!("expected a string, got {}", describe(&other)),
                                ));
                            }
                        };
                    }
                    _ => {}
                }
                Ok(())
            },
        )?;
        next = continued
            .filter(|f| {
                !f.is_empty()
                    && f.chars()
                        .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
            })
            .map(|f| dir.join(f))
            .filter(|p| src.is_file(p));
    }
    Ok((
        Some(u32::try_from(calls).unwrap_or(u32::MAX)),
        AttemptTexts::capped(instruction, None, last, None),
    ))
}

/// An ATIF step's `message`: a string, or a list of content parts whose text parts are joined
/// (another part named in words); `None` when it says nothing.
fn message(step: &Value) -> Option<String> {
    let text = match step.get("message")? {
        Value::String(t) => t.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| match p.get("type").and_then(Value::as_str) {
                Some("text") => p.get("text").and_then(Value::as_str).map(str::to_string),
                Some(kind) => Some(format!("[{kind}]")),
                None => p.as_str().map(str::to_string),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        _ => return None,
    };
    (!text.trim().is_empty()).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::Memory;

    fn trajectory(calls: usize, next: Option<&str>) -> String {
        let calls: Vec<String> = (0..calls)
            .map(|i| format!(r#"{{"tool_call_id": "c{i}", "function_name": "bash"}}"#))
            .collect();
        let next = next
            .map(|n| format!(r#", "continued_trajectory_ref": "{n}""#))
            .unwrap_or_default();
        format!(
            r#"{{"steps": [{{"step_id": 1, "source": "agent", "tool_calls": [{}]}}]{next}}}"#,
            calls.join(", ")
        )
    }

    /// Issue 34.5: a trajectory whose `continued_trajectory_ref` names itself was read 1,000
    /// times (a 40 MB file: 83 s). A continuation read already is a cycle, refused at once, and
    /// a chain is read at most MAX_CONTINUATIONS files long.
    #[test]
    fn a_continued_trajectory_ref_cycle_is_refused_and_a_chain_capped() {
        let result = Path::new("job/t__1/result.json");
        let src = Memory::new()
            .with(
                "job/t__1/agent/trajectory.json",
                trajectory(2, Some("cont-1.json")),
            )
            .with("job/t__1/agent/cont-1.json", trajectory(3, None));
        assert_eq!(super::trajectory(&src, result).unwrap().0, Some(5));
        let src = Memory::new().with(
            "job/t__1/agent/trajectory.json",
            trajectory(1, Some("trajectory.json")),
        );
        assert_eq!(
            super::trajectory(&src, result).unwrap_err().to_string(),
            "job/t__1/agent/trajectory.json: field `continued_trajectory_ref`: names \
             job/t__1/agent/trajectory.json, read already as continuation 1 of this \
             trajectory: the chain is a cycle"
        );
        let src = Memory::new()
            .with(
                "job/t__1/agent/trajectory.json",
                trajectory(1, Some("b.json")),
            )
            .with(
                "job/t__1/agent/b.json",
                trajectory(1, Some("trajectory.json")),
            );
        assert!(
            super::trajectory(&src, result)
                .unwrap_err()
                .to_string()
                .starts_with("job/t__1/agent/b.json: field `continued_trajectory_ref`"),
        );
        let mut src = Memory::new().with(
            "job/t__1/agent/trajectory.json",
            trajectory(1, Some("c1.json")),
        );
        for i in 1..=MAX_CONTINUATIONS {
            src = src.with(
                &format!("job/t__1/agent/c{i}.json"),
                trajectory(1, Some(&format!("c{}.json", i + 1))),
            );
        }
        let e = super::trajectory(&src, result).unwrap_err().to_string();
        assert!(
            e.contains("a trajectory continued more than 100 times"),
            "{e}"
        );
    }
}
