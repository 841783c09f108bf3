//! `terminal-bench`: a Terminal-Bench run's `results.json` (the harness's `BenchmarkResults`:
//! `{"id", "results": [trial, ...], "pass_at_k", "accuracy", ...}`), one attempt per trial, the
//! `results` list streamed a trial at a time. `run_metadata.json` beside it is optional.
//!
//! - `task_id` → problem; `trial_name` → attempt number: the harness names the k-th of n trials
//!   of a task `<task_id>.<k>-of-<n>.<run_id>` (older runs: without `.<run_id>`), so a run of
//!   five trials a task lands as attempts 1..5 of each problem. Every trial of a run must say
//!   the same n (the run's `n_attempts`, which run_metadata.json repeats when it is there);
//! - `is_resolved` true → Correct; false, null or absent → not Correct;
//! - `failure_mode` → end_reason, in the harness's words, unless it is `unset` or `none`; an
//!   unresolved trial with neither gets "no verdict" when `is_resolved` is null. Infrastructure
//!   failures (never Correct) are the failures of the harness's own machinery that do not
//!   depend on what the agent did: `agent_installation_failed`, and a trial that raised out of
//!   the harness (Docker, compose) — which the harness records as `unknown_agent_error` with no
//!   `trial_started_at`, told apart only in a run whose other trials carry start times. Agent
//!   timeouts, model limits, test timeouts and unreadable test output are the attempt's own end;
//! - `trial_ended_at − trial_started_at` → wall seconds, `agent_ended_at − agent_started_at` →
//!   working seconds (the agent's phase: no container start, no tests), when both ends are given
//!   (RFC 3339 times);
//! - `total_input_tokens`, `total_output_tokens` → input and output tokens. Cached reads are not
//!   reported, and whether the input total holds them depends on the agent: not stated. A run
//!   whose every trial reports 0 of both recorded none (an agent that does not count them,
//!   Goose): its tokens are unknown, not a known 0 a price table would price at $0, and a note
//!   says so;
//! - `n_commands` (recent harnesses, Terminus agents) → steps; `parser_results` (test name →
//!   `passed` / `failed`) → the checklist, one item a test;
//! - run_metadata.json's `model_name` → the model the file names. The rest of it, and of the
//!   run's computed fields (`accuracy`, `pass_at_k`, `resolved_ids`, ...), is dropped: benchledger
//!   recomputes from the trials. `instruction`, `id`, `recording_path` and the test phase's times
//!   are dropped.

pub mod claims;

use std::path::Path;

use chrono::{DateTime, FixedOffset};
use serde_json::Value;

use super::json::{Rec, describe, each_in_member};
use super::{Imported, Importer, Input, Origin, Record};
use crate::error::{Error, Location, Result};
use crate::import::Source;
use crate::import::results::MAX_COUNT;
use crate::model::{Attempt, ChecklistItem};

/// Terminal-Bench run results.
pub struct TerminalBench;

/// The file beside results.json that says what the run was.
const RUN_METADATA: &str = "run_metadata.json";

/// Failure modes that are the harness's own machinery failing, whatever the agent did.
const INFRASTRUCTURE: &[&str] = &["agent_installation_failed"];

/// The failure mode the harness records for a trial that raised out of it.
const RAISED: &str = "unknown_agent_error";

impl Importer for TerminalBench {
    fn name(&self) -> &'static str {
        "terminal-bench"
    }

    fn describes(&self) -> &'static str {
        "a Terminal-Bench run's results.json ({\"results\": [trials]}), run_metadata.json beside \
         it optional"
    }

    fn finds(&self, src: &dyn Source, path: &Path) -> bool {
        path.file_name().and_then(|n| n.to_str()) == Some("results.json")
            && src.is_file(&path.with_file_name(RUN_METADATA))
    }

    fn read(&self, input: &mut Input<'_>) -> Result<Imported> {
        let path = input.path;
        let meta = run_metadata(input.src, path)?;
        let file = input.src.open(path).map_err(|e| Error::io(path, e))?;
        let progress = &mut *input.progress;
        let mut trials: Vec<Trial> = Vec::new();
        let listed = each_in_member(path, file, "results", |i, value| {
            let t = trial(path, i, &value)?;
            let first = trials.first().map(|f| (f.of, f.record.at.to_string()));
            let said = match (&meta.n_attempts, first) {
                (Some(n), _) => Some((*n, format!("{RUN_METADATA} says n_attempts = {n}"))),
                (None, Some((n, at))) => Some((n, format!("{at} is of {n}"))),
                (None, None) => None,
            };
            if let Some((n, who)) = said
                && t.of != n
            {
                return Err(Error::input(
                    t.record.at.locate(path).field("trial_name"),
                    format!(
                        "trial {} of {}, but {who}: a run's trials all say how many trials each \
                         task had",
                        t.record.attempt.trial, t.of
                    ),
                ));
            }
            trials.push(t);
            progress.advance(1);
            Ok(())
        })?;
        if listed.is_none() {
            return Err(Error::input(
                Location::file(path).field("results"),
                "missing: expected a Terminal-Bench run's results.json, an object whose \
                 `results` lists the run's trials (a trial's own results.json, in its trial \
                 directory, holds one trial: name the run's)",
            ));
        }
        // A run whose trials carry start times tells a trial that raised out of the harness
        // (none) from one whose agent failed (started).
        let timed = trials.iter().any(|t| t.started);
        // Absent is not zero: a run that counted no token in any trial counted none.
        let counted_none = !trials.is_empty()
            && trials.iter().all(|t| {
                let a = &t.record.attempt;
                a.input_tokens.unwrap_or(0) == 0 && a.output_tokens.unwrap_or(0) == 0
            })
            && trials.iter().any(|t| {
                let a = &t.record.attempt;
                a.input_tokens.is_some() || a.output_tokens.is_some()
            });
        if counted_none {
            for t in &mut trials {
                t.record.attempt.input_tokens = None;
                t.record.attempt.output_tokens = None;
            }
        }
        let records = trials
            .into_iter()
            .map(|mut t| {
                let a = &mut t.record.attempt;
                if timed && !t.started && !a.correct && a.end_reason.as_deref() == Some(RAISED) {
                    a.infra_error = true;
                }
                t.record
            })
            .collect();
        let mut about = meta.about;
        if counted_none {
            about.notes.push((
                "",
                "every trial reports 0 input and 0 output tokens: the agent counted none, so \
                 its tokens are read as unknown, not as 0"
                    .into(),
            ));
        }
        Ok(Imported {
            records,
            accounting: None,
            model: meta.model,
            about,
        })
    }
}

/// A trial's directory, where the harness keeps its logs: `<run>/<task>/<trial name>` beside
/// the run's results.json, when task and trial name are plain names (a name that could step out
/// of the run's directory names none).
fn trial_dir(results: &Path, task: &str, name: &str) -> Option<std::path::PathBuf> {
    let plain = |s: &str| !s.is_empty() && s != "." && s != ".." && !s.contains(['/', '\\', '\0']);
    (plain(task) && plain(name)).then(|| {
        results
            .parent()
            .unwrap_or(Path::new(""))
            .join(task)
            .join(name)
    })
}

/// One trial, with what the run-wide checks need.
struct Trial {
    record: Record,
    /// n, of "k-of-n".
    of: u32,
    /// Whether it has a `trial_started_at`.
    started: bool,
}

fn trial(path: &Path, index: usize, value: &Value) -> Result<Trial> {
    let r = Rec::new(path, format!("record {}", index + 1), value)?;
    let name = r.text("trial_name")?;
    let r = match name {
        Some(n) => Rec {
            label: format!("record {} (trial {n})", index + 1),
            ..r
        },
        None => r,
    };
    let task = r.id("task_id")?;
    let name = name.ok_or_else(|| {
        r.bad(
            "trial_name",
            format!("missing: expected the trial's name, `{task}.<k>-of-<n>`"),
        )
    })?;
    let (k, of) = trial_number(&r, &task, name)?;
    let resolved = r.boolean("is_resolved")?;
    let mode = r
        .text("failure_mode")?
        .filter(|m| !matches!(*m, "unset" | "none"));
    let correct = resolved == Some(true);
    let end_reason = match (mode, resolved) {
        (Some(m), _) => Some(m.to_string()),
        (None, None) => Some("no verdict".to_string()),
        (None, Some(_)) => None,
    };
    let started = r.get("trial_started_at").is_some();
    let wall_s = seconds(&r, "trial_started_at", "trial_ended_at")?;
    let working_s = seconds(&r, "agent_started_at", "agent_ended_at")?;
    let steps = match r.count("n_commands")? {
        None => None,
        Some(n) => Some(
            u32::try_from(n)
                .map_err(|_| r.bad("n_commands", format!("{n} commands is past any real trial")))?,
        ),
    };
    let file = trial_dir(path, &task, name);
    Ok(Trial {
        record: Record {
            at: Origin::Record(r.label.clone()),
            attempt: Attempt {
                problem: task,
                trial: k,
                correct,
                outcome: None,
                input_tokens: tokens(&r, "total_input_tokens")?,
                output_tokens: tokens(&r, "total_output_tokens")?,
                input_tokens_cache_read: None,
                input_tokens_cache_write: None,
                wall_s,
                cost_usd: None,
                steps,
                errors: None,
                checklist: tests(&r)?,
                trace: None,
                working_s,
                infra_error: !correct && mode.is_some_and(|m| INFRASTRUCTURE.contains(&m)),
                end_reason,
                origin: None,
                texts: None,
            },
            file,
        },
        of,
        started,
    })
}

/// k and n of a trial named `<task>.<k>-of-<n>`, optionally followed by `.<run id>`.
fn trial_number(r: &Rec, task: &str, name: &str) -> Result<(u32, u32)> {
    let expected = || {
        r.bad(
            "trial_name",
            format!(
                "expected `{task}.<k>-of-<n>` (then, in recent runs, `.<run id>`): how \
                 Terminal-Bench names the k-th of n trials of task {task:?}; got {name:?}"
            ),
        )
    };
    let rest = name
        .strip_prefix(task)
        .and_then(|r| r.strip_prefix('.'))
        .ok_or_else(expected)?;
    let k_of_n = rest.split('.').next().unwrap_or(rest);
    let (k, n) = k_of_n.split_once("-of-").ok_or_else(expected)?;
    let number = |s: &str| -> Option<u32> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    let (Some(k), Some(n)) = (number(k), number(n)) else {
        return Err(expected());
    };
    if k < 1 || k > n {
        return Err(r.bad(
            "trial_name",
            format!("trial {k} of {n}: the k-th of n trials counts from 1 to n"),
        ));
    }
    Ok((k, n))
}

/// A token count, when given: a whole number up to benchledger's largest count.
fn tokens(r: &Rec, field: &str) -> Result<Option<u64>> {
    match r.count(field)? {
        Some(n) if n > MAX_COUNT => Err(r.bad(
            field,
            format!("{n} tokens is past any real trial (at most {MAX_COUNT})"),
        )),
        n => Ok(n),
    }
}

/// The seconds from one time field to another, when both are given.
fn seconds(r: &Rec, from: &str, to: &str) -> Result<Option<f64>> {
    let (Some(start), Some(end)) = (time(r, from)?, time(r, to)?) else {
        return Ok(None);
    };
    let span = end.signed_duration_since(start);
    let micros = span
        .num_microseconds()
        .ok_or_else(|| r.bad(to, format!("{end} is centuries after {from} {start}")))?;
    if micros < 0 {
        return Err(r.bad(
            to,
            format!("{end} is before {from} {start}: a trial cannot end before it starts"),
        ));
    }
    Ok(Some(micros as f64 / 1e6))
}

fn time(r: &Rec, field: &str) -> Result<Option<DateTime<FixedOffset>>> {
    let Some(text) = r.text(field)? else {
        return Ok(None);
    };
    DateTime::parse_from_rfc3339(text).map(Some).map_err(|e| {
        r.bad(
            field,
            format!(
                "expected an RFC 3339 time with its offset, as the harness writes them \
                 (2025-09-05T23:33:51.941797+00:00), got {text:?} ({e})"
            ),
        )
    })
}

/// `parser_results`, test name → `passed` / `failed`, as checklist items in name order.
fn tests(r: &Rec) -> Result<Option<Vec<ChecklistItem>>> {
    let Some(v) = r.get("parser_results") else {
        return Ok(None);
    };
    let Value::Object(map) = v else {
        return Err(r.bad(
            "parser_results",
            format!(
                "expected an object of test name → \"passed\" or \"failed\", got {}",
                describe(v)
            ),
        ));
    };
    let mut items = Vec::with_capacity(map.len());
    for (test, status) in map {
        let pass = match status.as_str() {
            Some("passed") => true,
            Some("failed") => false,
            _ => {
                return Err(r.bad(
                    "parser_results",
                    format!(
                        "test {test:?}: expected \"passed\" or \"failed\", got {}",
                        describe(status)
                    ),
                ));
            }
        };
        items.push(ChecklistItem {
            item: test.clone(),
            pass,
        });
    }
    Ok((!items.is_empty()).then_some(items))
}

/// What run_metadata.json beside the results says, when it is there.
#[derive(Default)]
struct Meta {
    model: Option<String>,
    n_attempts: Option<u32>,
    about: super::About,
}

fn run_metadata(src: &dyn Source, results: &Path) -> Result<Meta> {
    let path = results.with_file_name(RUN_METADATA);
    if !src.is_file(&path) {
        return Ok(Meta::default());
    }
    let text = src.read_text(&path).map_err(|e| Error::io(&path, e))?;
    let value: Value = super::json::strict_str(&path, &text)?;
    let Value::Object(map) = &value else {
        return Err(Error::input(
            Location::file(&path),
            format!(
                "expected the run's metadata, a JSON object, got {}",
                describe(&value)
            ),
        ));
    };
    let at = |field: &str| Location::file(&path).field(field);
    let model = match map.get("model_name") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
        Some(v) => {
            return Err(Error::input(
                at("model_name"),
                format!("expected the model's name, got {}", describe(v)),
            ));
        }
    };
    let n_attempts = match map.get("n_attempts") {
        None | Some(Value::Null) => None,
        Some(v) => match v.as_u64().and_then(|n| u32::try_from(n).ok()) {
            Some(n) if n >= 1 => Some(n),
            _ => {
                return Err(Error::input(
                    at("n_attempts"),
                    format!(
                        "expected the number of trials a task, 1 or more, got {}",
                        describe(v)
                    ),
                ));
            }
        },
    };
    let text_of = |field: &str| -> Result<Option<String>> {
        match map.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if !s.trim().is_empty() => Ok(Some(s.clone())),
            Some(v) => Err(Error::input(
                at(field),
                format!("expected text, got {}", describe(v)),
            )),
        }
    };
    let count_of = |field: &str| -> Result<Option<u64>> {
        match map.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => match v.as_u64() {
                // The harness's default for a size it did not count.
                Some(0) => Ok(None),
                Some(n) => Ok(Some(n)),
                _ => Err(Error::input(
                    at(field),
                    format!("expected a whole number, got {}", describe(v)),
                )),
            },
        }
    };
    let suite = match (text_of("dataset_name")?, text_of("dataset_version")?) {
        (Some(n), Some(v)) => Some(format!("{n}@{v}")),
        (n, _) => n,
    };
    let about = super::About {
        suite,
        suite_problems: count_of("dataset_size")?,
        started_at: text_of("start_time")?,
        harness: text_of("agent_name")?,
        producer: Some("terminal-bench".into()),
        producer_version: text_of("commit_hash")?.filter(|c| c != "unknown"),
        parallel_sessions: count_of("n_concurrent_trials")?
            .map(|n| u32::try_from(n).unwrap_or(u32::MAX)),
        ..super::About::default()
    };
    Ok(Meta {
        model,
        n_attempts,
        about,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::Memory;
    use crate::import::{Options, Quiet};

    fn read_with(files: &[(&str, &str)]) -> Result<Imported> {
        let mut src = Memory::new();
        for (name, text) in files {
            src = src.with(name, *text);
        }
        TerminalBench.read(&mut Input {
            src: &src,
            path: Path::new("run/results.json"),
            options: &Options::default(),
            progress: &mut Quiet,
        })
    }

    fn read(text: &str) -> Result<Imported> {
        read_with(&[("run/results.json", text)])
    }

    fn trial(task: &str, k: u32, more: &str) -> String {
        format!(
            r#"{{"id": "00000000-0000-4000-8000-000000000000", "trial_name": "{task}.{k}-of-2.2025-09-05__16-26-44",
                "task_id": "{task}", "instruction": "do it"{more}}}"#
        )
    }

    /// Issue 32.6: a run whose every trial reports 0 tokens (Goose) was kept as a known 0, so a
    /// price table priced it at $0.00: it counted none, so they are unknown.
    #[test]
    fn a_run_whose_every_trial_reports_0_tokens_has_unknown_tokens_not_zero() {
        let zero = r#", "total_input_tokens": 0, "total_output_tokens": 0"#;
        let results = format!(
            r#"{{"results": [{}, {}]}}"#,
            trial("a", 1, zero),
            trial("a", 2, zero)
        );
        let got = read(&results).unwrap();
        for r in &got.records {
            assert_eq!(
                (r.attempt.input_tokens, r.attempt.output_tokens),
                (None, None)
            );
        }
        assert_eq!(got.about.notes.len(), 1);
        assert!(got.about.notes[0].1.contains("read as unknown, not as 0"));
        // One trial that counted some: the others' 0 are counts.
        let some = r#", "total_input_tokens": 7, "total_output_tokens": 0"#;
        let results = format!(
            r#"{{"results": [{}, {}]}}"#,
            trial("a", 1, zero),
            trial("a", 2, some)
        );
        let got = read(&results).unwrap();
        assert_eq!(got.records[0].attempt.input_tokens, Some(0));
        assert_eq!(got.records[1].attempt.input_tokens, Some(7));
        assert!(got.about.notes.is_empty());
    }

    #[test]
    fn trials_become_attempts_numbered_from_their_names() {
        let text = format!(
            r#"{{"id": "x", "results": [{}, {}], "accuracy": 0.5, "pass_at_k": {{"2": 1.0}}}}"#,
            trial(
                "nginx",
                2,
                r#", "is_resolved": true, "failure_mode": "unset",
                   "parser_results": {"test_b": "passed", "test_a": "failed"},
                   "total_input_tokens": 1200, "total_output_tokens": 300, "n_commands": 7,
                   "trial_started_at": "2025-09-05T23:33:51.500000+00:00",
                   "trial_ended_at": "2025-09-05T23:34:33.750000+00:00",
                   "agent_started_at": "2025-09-05T23:34:00+00:00",
                   "agent_ended_at": "2025-09-05T23:34:10.250+00:00""#
            ),
            trial(
                "nginx",
                1,
                r#", "is_resolved": false, "failure_mode": "agent_timeout""#
            ),
        );
        let got = read(&text).unwrap();
        assert_eq!(got.model, None, "no run_metadata.json, no model");
        assert_eq!(got.accounting, None);
        let a = &got.records[0].attempt;
        assert_eq!((a.problem.as_str(), a.trial, a.correct), ("nginx", 2, true));
        assert_eq!((a.input_tokens, a.output_tokens), (Some(1200), Some(300)));
        assert_eq!(a.input_tokens_cache_read, None);
        assert_eq!(a.wall_s, Some(42.25));
        assert_eq!(a.working_s, Some(10.25));
        assert_eq!(a.steps, Some(7));
        assert_eq!(a.end_reason, None, "unset is no failure");
        let checklist = a.checklist.as_ref().unwrap();
        assert_eq!(
            checklist
                .iter()
                .map(|c| (c.item.as_str(), c.pass))
                .collect::<Vec<_>>(),
            [("test_a", false), ("test_b", true)]
        );
        assert_eq!(
            got.records[0].at,
            Origin::Record("record 1 (trial nginx.2-of-2.2025-09-05__16-26-44)".into())
        );
        let b = &got.records[1].attempt;
        assert_eq!((b.trial, b.correct, b.infra_error), (1, false, false));
        assert_eq!(b.end_reason.as_deref(), Some("agent_timeout"));
        assert_eq!(
            (b.wall_s, b.input_tokens, b.checklist.as_ref()),
            (None, None, None)
        );
    }

    #[test]
    fn trial_names_old_and_new_give_k_of_n() {
        let v = serde_json::json!({});
        let r = Rec::new(Path::new("r.json"), "record 1", &v).unwrap();
        for (task, name, want) in [
            ("nginx", "nginx.2-of-5", (2, 5)),
            ("nginx", "nginx.5-of-5.2025-05-20__12-00-00", (5, 5)),
            ("a.b", "a.b.1-of-3.run.with.dots", (1, 3)),
        ] {
            assert_eq!(trial_number(&r, task, name).unwrap(), want, "{name}");
        }
        for (task, name, says) in [
            ("nginx", "other.1-of-5", "expected `nginx.<k>-of-<n>`"),
            ("nginx", "nginx.1of5", "expected `nginx.<k>-of-<n>`"),
            ("nginx", "nginx.+1-of-5", "expected `nginx.<k>-of-<n>`"),
            ("nginx", "nginx1-of-5", "expected `nginx.<k>-of-<n>`"),
            (
                "nginx",
                "nginx.0-of-5",
                "trial 0 of 5: the k-th of n trials counts from 1 to n",
            ),
            ("nginx", "nginx.6-of-5", "trial 6 of 5"),
        ] {
            let e = trial_number(&r, task, name).unwrap_err().to_string();
            assert!(
                e.starts_with("r.json: record 1: field `trial_name`: ") && e.contains(says),
                "{name}: {e}"
            );
        }
    }

    #[test]
    fn a_harness_failure_is_infrastructure_and_an_agent_failure_is_not() {
        let started = r#", "trial_started_at": "2025-09-05T23:33:51+00:00""#;
        let text = format!(
            r#"{{"results": [{}, {}, {}, {}, {}]}}"#,
            // Installation failed: the harness's, whatever the agent.
            trial("a", 1, r#", "failure_mode": "agent_installation_failed""#),
            // Raised out of the harness: no start time, in a run that records them.
            trial("a", 2, r#", "failure_mode": "unknown_agent_error""#),
            // The agent's own error: started.
            trial(
                "b",
                1,
                &format!(r#", "failure_mode": "unknown_agent_error"{started}"#)
            ),
            // No verdict and no failure mode said.
            trial("b", 2, started),
            // Tests timed out on what the agent left: its own end.
            trial(
                "c",
                1,
                &format!(r#", "is_resolved": null, "failure_mode": "test_timeout"{started}"#)
            ),
        );
        let got = read(&text).unwrap();
        let ends: Vec<(bool, Option<&str>)> = got
            .records
            .iter()
            .map(|r| (r.attempt.infra_error, r.attempt.end_reason.as_deref()))
            .collect();
        assert_eq!(
            ends,
            [
                (true, Some("agent_installation_failed")),
                (true, Some("unknown_agent_error")),
                (false, Some("unknown_agent_error")),
                (false, Some("no verdict")),
                (false, Some("test_timeout")),
            ]
        );
        assert!(got.records.iter().all(|r| !r.attempt.correct));
        // In a run that records no start times (an older harness), a missing one says nothing.
        let old = format!(
            r#"{{"results": [{}]}}"#,
            trial("a", 1, r#", "failure_mode": "unknown_agent_error""#)
        );
        assert!(!read(&old).unwrap().records[0].attempt.infra_error);
    }

    #[test]
    fn run_metadata_names_the_model_and_holds_the_trials_to_its_count() {
        let results = format!(r#"{{"results": [{}]}}"#, trial("a", 1, ""));
        let got = read_with(&[
            ("run/results.json", &results),
            (
                "run/run_metadata.json",
                r#"{"run_id": "r", "model_name": "anthropic/claude-sonnet-4", "n_attempts": 2,
                    "dataset_name": "terminal-bench-core", "accuracy": 0.0}"#,
            ),
        ])
        .unwrap();
        assert_eq!(got.model.as_deref(), Some("anthropic/claude-sonnet-4"));
        let e = read_with(&[
            ("run/results.json", &results),
            ("run/run_metadata.json", r#"{"n_attempts": 5}"#),
        ])
        .unwrap_err()
        .to_string();
        assert!(
            e.starts_with(
                "run/results.json: record 1 (trial a.1-of-2.2025-09-05__16-26-44): field \
                 `trial_name`: trial 1 of 2, but run_metadata.json says n_attempts = 5"
            ),
            "{e}"
        );
        let e = read_with(&[
            ("run/results.json", &results),
            ("run/run_metadata.json", r#"{"model_name": 4}"#),
        ])
        .unwrap_err()
        .to_string();
        assert_eq!(
            e,
            "run/run_metadata.json: field `model_name`: expected the model's name, got 4"
        );
    }

    #[test]
    fn a_bad_record_is_named() {
        let mixed = format!(
            r#"{{"results": [{}, {}]}}"#,
            trial("a", 1, ""),
            r#"{"trial_name": "a.2-of-5", "task_id": "a"}"#
        );
        for (text, says) in [
            (
                format!(
                    r#"{{"results": [{}]}}"#,
                    trial("a", 1, r#", "is_resolved": "yes""#)
                ),
                "run/results.json: record 1 (trial a.1-of-2.2025-09-05__16-26-44): field \
                 `is_resolved`: expected true or false, got the string \"yes\"",
            ),
            (
                format!(
                    r#"{{"results": [{}]}}"#,
                    trial(
                        "a",
                        1,
                        r#", "trial_started_at": "2025-09-05T23:34:00+00:00",
                           "trial_ended_at": "2025-09-05T23:33:00+00:00""#
                    )
                ),
                "field `trial_ended_at`: 2025-09-05 23:33:00 +00:00 is before trial_started_at",
            ),
            (
                format!(
                    r#"{{"results": [{}]}}"#,
                    trial("a", 1, r#", "trial_started_at": "2025-09-05 23:34""#)
                ),
                "field `trial_started_at`: expected an RFC 3339 time",
            ),
            (
                format!(
                    r#"{{"results": [{}]}}"#,
                    trial("a", 1, r#", "total_input_tokens": -5"#)
                ),
                "field `total_input_tokens`: expected a whole number, 0 or more, got -5",
            ),
            (
                format!(
                    r#"{{"results": [{}]}}"#,
                    trial("a", 1, r#", "parser_results": {"t": "skipped"}"#)
                ),
                "field `parser_results`: test \"t\": expected \"passed\" or \"failed\"",
            ),
            (
                r#"{"results": [{"task_id": "a"}]}"#.to_string(),
                "run/results.json: record 1: field `trial_name`: missing",
            ),
            (
                mixed,
                "run/results.json: record 2 (trial a.2-of-5): field `trial_name`: trial 2 of 5, \
                 but record 1 (trial a.1-of-2.2025-09-05__16-26-44) is of 2",
            ),
            (
                trial("a", 1, ""),
                "run/results.json: field `results`: missing: expected a Terminal-Bench run's \
                 results.json",
            ),
            (
                "[]".to_string(),
                "run/results.json:1: not the JSON this format expects",
            ),
        ] {
            let e = read(&text).unwrap_err().to_string();
            assert!(e.contains(says), "{e}\n  should say: {says}");
        }
    }
}
