//! `tau2-bench`: the results file tau2-bench writes (its `Results` model: `info`, `tasks`,
//! `simulations`), one attempt per simulation, that is per task and trial. Also its directory
//! format: a `results.json` whose `simulation_index` names one `simulations/<id>.json` per
//! simulation beside it.
//!
//! - `task_id` → problem; `trial` (from 0) → attempt number `trial + 1`;
//! - `reward_info.reward` → outcome, and Correct when within 10⁻⁶ of 1 (tau2's `is_successful`);
//! - `termination_reason` → end_reason; `infrastructure_error` (retries exhausted on a failure
//!   of the harness or a provider) → infra_error: an attempt that is never Correct and is never
//!   dropped, where tau2's own metrics leave it out;
//! - `duration` → wall_s, `agent_cost` → cost_usd;
//! - `agent_usage.records[]` (audio-native runs) summed → input, output and cached input tokens,
//!   input counting the cached reads (tau2's `UsageRecord`); without it, the agent's messages'
//!   `usage` (`prompt_tokens`, `completion_tokens`, litellm's counts, cached reads inside);
//! - the agent's tool calls and their results, in `messages` (or, in full-duplex runs, `ticks`)
//!   → trace, steps and errors: a tool result with `error: true` is a failed step. The simulated
//!   user's own tool calls are not the agent's steps.
//!
//! A simulation tau2 never ran — the placeholder its runner records when every retry failed or
//! the context window was exceeded: no messages and a duration of 0 — has no wall time, steps or
//! tokens (unknown, not 0). The simulated user's cost and usage are not the agent's: dropped.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::json::{Rec, describe};
use super::object::{Part, Take, walk};
use super::tokens::{Tokens, count, sum};
use super::{Imported, Importer, Input, Origin, Record, Stated};
use crate::error::{Error, Location, Result};
use crate::model::{Attempt, TraceStep};

/// tau2-bench results.
pub struct Tau2Bench;

/// tau2's `TerminationReason`s, and whether each is a failure of the infrastructure rather than
/// of the agent. Only `infrastructure_error` is: tau2 records it when every retry of a
/// simulation raised (a provider outage, a dropped connection); the others are limits the agent
/// ran into or failures tau2 itself grades (`user_error`, the simulated user's, is graded by tau2
/// as a premature end and kept so here).
const TERMINATIONS: &[(&str, bool)] = &[
    ("user_stop", false),
    ("agent_stop", false),
    ("max_steps", false),
    ("timeout", false),
    ("too_many_errors", false),
    ("agent_error", false),
    ("user_error", false),
    ("infrastructure_error", true),
    ("context_window_exceeded", false),
    ("unexpected_error", false),
];

/// The terminations of a simulation tau2 may record without having run it (its
/// `NON_EVALUABLE_TERMINATION_REASONS`): no reward, and possibly a placeholder.
const NEVER_RAN: &[&str] = &["infrastructure_error", "context_window_exceeded"];

/// The most of a failed tool result kept as the step's error.
const ERROR_SHOWN: usize = 80;

impl Importer for Tau2Bench {
    fn name(&self) -> &'static str {
        "tau2-bench"
    }

    fn describes(&self) -> &'static str {
        "tau2-bench results: a JSON object of info, tasks and simulations (or its directory \
         format)"
    }

    fn read(&self, input: &mut Input<'_>) -> Result<Imported> {
        let path = input.path;
        let file = input.src.open(path).map_err(|e| Error::io(path, e))?;
        let mut records = Vec::new();
        let mut model = None;
        let mut about = super::About {
            producer: Some("tau2-bench".into()),
            ..super::About::default()
        };
        let mut index = None;
        // Whether the file has its simulations in it (even none), or leaves them to its index.
        let inline = std::cell::Cell::new(false);
        let progress = &mut *input.progress;
        walk(
            path,
            file,
            "tau2-bench results: a JSON object with info, tasks and simulations",
            |key| match key {
                "simulations" => {
                    inline.set(true);
                    Take::Each
                }
                "info" | "simulation_index" | "timestamp" => Take::Whole,
                _ => Take::Skip,
            },
            |key, part| {
                match (key, part) {
                    ("simulations", Part::Element(i, v)) => {
                        records.push(simulation(path, format!("simulation {}", i + 1), &v)?);
                        progress.advance(1);
                    }
                    ("simulations", Part::Whole(Value::Null)) => {}
                    ("simulations", Part::Entry(..) | Part::Whole(_)) => {
                        return Err(Error::input(
                            Location::file(path).field("simulations"),
                            "expected a list of simulations",
                        ));
                    }
                    ("info", Part::Whole(v)) => model = info(&v, &mut about),
                    // Taken only when it is a date-time with its offset: tau2 has written it
                    // in other shapes.
                    ("timestamp", Part::Whole(Value::String(t)))
                        if chrono::DateTime::parse_from_rfc3339(&t).is_ok() =>
                    {
                        about.started_at = Some(t);
                    }
                    ("simulation_index", Part::Whole(v)) => index = Some(v),
                    _ => {}
                }
                Ok(())
            },
        )?;
        if !inline.get() {
            from_index(input.src, path, index, progress, &mut records)?;
        }
        let accounting = accounting(&records);
        Ok(Imported {
            records,
            accounting,
            model,
            about,
        })
    }
}

/// The model, suite, harness and producer's version the results file's `info` names: the
/// model returned, the rest set on `about`.
fn info(v: &Value, about: &mut super::About) -> Option<String> {
    let model = v
        .pointer("/agent_info/llm")
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
        .map(str::to_string);
    let text = |p: &str| {
        v.pointer(p)
            .and_then(Value::as_str)
            .filter(|s| !s.trim().is_empty())
            .map(str::to_string)
    };
    about.suite = text("/environment_info/domain_name");
    about.harness = text("/agent_info/implementation");
    about.producer_version = text("/git_commit");
    model
}

/// Reads the directory format's simulations, one per entry of the results file's
/// `simulation_index`, onto `records`.
fn from_index(
    src: &dyn super::Source,
    path: &Path,
    index: Option<Value>,
    progress: &mut dyn super::Progress,
    records: &mut Vec<Record>,
) -> Result<()> {
    match index {
        Some(Value::Array(entries)) => {
            progress.total(entries.len() as u64);
            for (j, entry) in entries.iter().enumerate() {
                records.push(indexed(src, path, j, entry)?);
                progress.advance(1);
            }
        }
        Some(Value::Null) | None => {}
        Some(other) => {
            return Err(Error::input(
                Location::file(path).field("simulation_index"),
                format!("expected a list of simulations, got {}", describe(&other)),
            ));
        }
    }
    Ok(())
}

/// The token accounting tau2 states, when any simulation reports its tokens.
fn accounting(records: &[Record]) -> Option<Stated> {
    records
        .iter()
        .any(|r| r.attempt.input_tokens.is_some())
        .then(|| Stated {
            input_tokens_include_cache_reads: true,
            why: "tau2's usage records count cached tokens inside the input totals \
                  (UsageRecord: input_cached_tokens are the cached subset), as litellm's \
                  prompt_tokens do"
                .into(),
        })
}

/// A simulation of the directory format: `simulations/<id>.json` beside the results file, for
/// the `j`th entry of its `simulation_index`.
fn indexed(src: &dyn super::Source, path: &Path, j: usize, entry: &Value) -> Result<Record> {
    let r = Rec::new(path, format!("simulation_index[{j}]"), entry)?;
    let id = r
        .text("id")?
        .ok_or_else(|| r.bad("id", "missing: expected the simulation's id"))?;
    // The id names a file: only a plain file name is taken, never a path.
    let plain = !id.is_empty()
        && !id.starts_with('.')
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !plain {
        return Err(r.bad(
            "id",
            format!(
                "{:?} is not a simulation id tau2 writes (letters, digits, '-', '_', '.'): it \
                 would name a file outside simulations/",
                id
            ),
        ));
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let file = dir.join("simulations").join(format!("{id}.json"));
    let reader = src.open(&file).map_err(|e| {
        r.bad(
            "id",
            format!("cannot read its simulation file {}: {e}", file.display()),
        )
    })?;
    let v: Value = super::json::strict_reader(&file, reader)?;
    let record = simulation(&file, format!("simulation {id}"), &v)?;
    let sim = Rec::new(&file, format!("simulation {id}"), &v)?;
    if sim.text("id")? != Some(id) {
        return Err(sim.bad(
            "id",
            format!("the index names simulation {id:?}, but its file holds another"),
        ));
    }
    Ok(record)
}

/// One simulation: one attempt.
fn simulation(path: &Path, label: String, v: &Value) -> Result<Record> {
    let r = Rec::new(path, label, v)?;
    let task = r.id("task_id")?;
    let trial = r
        .count("trial")?
        .ok_or_else(|| r.bad("trial", "missing: expected the trial number, from 0"))?;
    let label = format!("{} (task {task} trial {trial})", r.label);
    let r = Rec { label, ..r };
    let trial = u32::try_from(trial + 1)
        .map_err(|_| r.bad("trial", format!("{trial} trials is past any real run")))?;
    let reason = r.text("termination_reason")?.ok_or_else(|| {
        r.bad(
            "termination_reason",
            "missing: expected how the simulation ended",
        )
    })?;
    let Some(&(_, infra_error)) = TERMINATIONS.iter().find(|(t, _)| *t == reason) else {
        return Err(r.bad(
            "termination_reason",
            format!(
                "{reason:?} is not one of tau2's termination reasons ({})",
                TERMINATIONS
                    .iter()
                    .map(|(t, _)| *t)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    };
    let duration = r
        .number("duration")?
        .ok_or_else(|| r.bad("duration", "missing: expected the simulation's seconds"))?;
    if duration < 0.0 {
        return Err(r.bad(
            "duration",
            format!("expected seconds, 0 or more, got {duration}"),
        ));
    }
    let messages = r.list("messages")?;
    let ticks = r.list("ticks")?;
    let never_ran = NEVER_RAN.contains(&reason);
    let placeholder = never_ran
        && duration == 0.0
        && messages.is_none_or(|m| m.is_empty())
        && ticks.is_none_or(|t| t.is_empty());
    let reward = reward(&r, never_ran)?;
    let cost = match r.number("agent_cost")? {
        Some(c) if c < 0.0 => {
            return Err(r.bad(
                "agent_cost",
                format!("expected US dollars, 0 or more, got {c}"),
            ));
        }
        c => c,
    };
    let (trace, message_tokens) = match (messages, ticks) {
        (Some(m), _) if !placeholder => {
            let (t, tokens) = from_messages(&r, m)?;
            (Some(t), tokens)
        }
        (None, Some(t)) if !placeholder => (Some(from_ticks(&r, t)?), Tokens::default()),
        _ => (None, Tokens::default()),
    };
    let usage = agent_usage(&r)?;
    let tokens = if usage.is_empty() {
        message_tokens
    } else {
        usage
    };
    let steps = trace.as_ref().map(|t| t.len() as u32);
    let errors = trace
        .as_ref()
        .map(|t| t.iter().filter(|s| !s.ok).count() as u32);
    Ok(Record {
        at: Origin::Record(r.label.clone()),
        attempt: Attempt {
            problem: task,
            trial,
            correct: !infra_error && reward.is_some_and(|x| (x - 1.0).abs() <= 1e-6),
            // A failure of the infrastructure says nothing of the agent's answer.
            outcome: if infra_error { None } else { reward },
            input_tokens: tokens.input,
            output_tokens: tokens.output,
            input_tokens_cache_read: tokens.cache_read,
            input_tokens_cache_write: tokens.cache_write,
            wall_s: (!placeholder).then_some(duration),
            cost_usd: cost,
            steps,
            errors,
            checklist: None,
            trace: trace.filter(|t| !t.is_empty()),
            working_s: None,
            infra_error,
            end_reason: Some(reason.to_string()),
            origin: None,
            texts: None,
        },
        file: None,
    })
}

/// `reward_info.reward`, from 0 to 1; required of every simulation tau2 ran and graded.
fn reward(r: &Rec<'_>, never_ran: bool) -> Result<Option<f64>> {
    let Some(info) = r.get("reward_info") else {
        if never_ran {
            return Ok(None);
        }
        return Err(r.bad(
            "reward_info",
            "missing: tau2 grades every simulation that ran; expected reward_info.reward",
        ));
    };
    let x = info.get("reward").filter(|x| !x.is_null());
    match x.and_then(Value::as_f64) {
        Some(x) if (0.0..=1.0).contains(&x) => Ok(Some(x)),
        _ => Err(r.bad(
            "reward_info.reward",
            match x {
                None => "missing: expected the reward, from 0 to 1".to_string(),
                Some(v) => format!("expected a reward from 0 to 1, got {}", describe(v)),
            },
        )),
    }
}

/// The agent's tokens from `agent_usage.records`, summed; empty when it states none.
fn agent_usage(r: &Rec<'_>) -> Result<Tokens> {
    let mut tokens = Tokens::default();
    let Some(usage) = r.get("agent_usage") else {
        return Ok(tokens);
    };
    let records = match usage.get("records").filter(|x| !x.is_null()) {
        None => return Ok(tokens),
        Some(Value::Array(a)) => a,
        Some(other) => {
            return Err(r.bad(
                "agent_usage.records",
                format!("expected a list of usage records, got {}", describe(other)),
            ));
        }
    };
    for (j, u) in records.iter().enumerate() {
        let f = |name: &str| format!("agent_usage.records[{j}].{name}");
        let Value::Object(o) = u else {
            return Err(r.bad(
                &format!("agent_usage.records[{j}]"),
                format!("expected a usage record, got {}", describe(u)),
            ));
        };
        let n = |name: &str| count(r, &f(name), o.get(name));
        // SessionUsage holds records already aggregated into deltas; a running total cannot be
        // summed with them.
        if o.get("semantics").and_then(Value::as_str) == Some("cumulative") {
            return Err(r.bad(
                &f("semantics"),
                "a cumulative record in agent_usage, which tau2 aggregates into deltas: \
                 expected \"delta\"",
            ));
        }
        // A total when given, else its modalities; the cached counts are inside the input.
        let either = |total: Option<u64>, parts: &[Option<u64>]| total.or_else(|| sum(parts));
        tokens.add(
            Tokens {
                input: either(
                    n("input_tokens")?,
                    &[n("input_text_tokens")?, n("input_audio_tokens")?],
                ),
                output: either(
                    n("output_tokens")?,
                    &[n("output_text_tokens")?, n("output_audio_tokens")?],
                ),
                cache_read: either(
                    n("input_cached_tokens")?,
                    &[
                        n("input_cached_text_tokens")?,
                        n("input_cached_audio_tokens")?,
                    ],
                ),
                cache_write: None,
            },
            &r.at(),
        )?;
    }
    Ok(tokens)
}

/// What the agent's tool calls and their results in `messages` make: a trace (one step per
/// result to the agent), and the tokens of its messages' `usage`.
fn from_messages(r: &Rec<'_>, messages: &[Value]) -> Result<(Vec<TraceStep>, Tokens)> {
    let mut names = BTreeMap::new();
    let mut trace = Vec::new();
    let mut tokens = Tokens::default();
    for (k, m) in messages.iter().enumerate() {
        let msg = Rec::new(r.path, format!("{} messages[{k}]", r.label), m)?;
        match msg.text("role")? {
            Some("assistant") => {
                calls(&msg, "tool_calls", &mut names)?;
                if let Some(u) = msg.get("usage") {
                    if !u.is_object() {
                        return Err(msg.bad(
                            "usage",
                            format!("expected the message's usage, got {}", describe(u)),
                        ));
                    }
                    tokens.add(
                        Tokens {
                            input: count(&msg, "usage.prompt_tokens", u.get("prompt_tokens"))?,
                            output: count(
                                &msg,
                                "usage.completion_tokens",
                                u.get("completion_tokens"),
                            )?,
                            ..Tokens::default()
                        },
                        &msg.at(),
                    )?;
                }
            }
            Some("tool") => match msg.list("tool_messages")? {
                // A MultiToolMessage: several results at once.
                Some(results) => {
                    for (i, t) in results.iter().enumerate() {
                        let t = Rec::new(r.path, format!("{} tool_messages[{i}]", msg.label), t)?;
                        result(&t, &names, &mut trace)?;
                    }
                }
                None => result(&msg, &names, &mut trace)?,
            },
            _ => {}
        }
    }
    Ok((trace, tokens))
}

/// The trace of a full-duplex simulation: the agent's tool calls and results in its ticks.
fn from_ticks(r: &Rec<'_>, ticks: &[Value]) -> Result<Vec<TraceStep>> {
    let mut names = BTreeMap::new();
    let mut trace = Vec::new();
    for (k, t) in ticks.iter().enumerate() {
        let tick = Rec::new(r.path, format!("{} ticks[{k}]", r.label), t)?;
        calls(&tick, "agent_tool_calls", &mut names)?;
        for (i, res) in tick
            .list("agent_tool_results")?
            .into_iter()
            .flatten()
            .enumerate()
        {
            let res = Rec::new(
                r.path,
                format!("{} agent_tool_results[{i}]", tick.label),
                res,
            )?;
            result(&res, &names, &mut trace)?;
        }
    }
    Ok(trace)
}

/// Notes the name of each of the agent's tool calls in `field`, by call id.
fn calls(m: &Rec<'_>, field: &str, names: &mut BTreeMap<String, String>) -> Result<()> {
    for (i, c) in m.list(field)?.into_iter().flatten().enumerate() {
        let call = Rec::new(m.path, format!("{} {field}[{i}]", m.label), c)?;
        if call.text("requestor")?.unwrap_or("assistant") != "assistant" {
            continue;
        }
        if let (Some(id), Some(name)) = (call.text("id")?, call.text("name")?) {
            names.insert(id.to_string(), name.to_string());
        }
    }
    Ok(())
}

/// One tool result: a step of the agent's when the agent asked for it.
fn result(t: &Rec<'_>, names: &BTreeMap<String, String>, trace: &mut Vec<TraceStep>) -> Result<()> {
    if t.text("requestor")?.unwrap_or("assistant") != "assistant" {
        return Ok(());
    }
    let tool = t
        .text("id")?
        .and_then(|id| names.get(id))
        .map_or("(unnamed tool)", String::as_str)
        .to_string();
    let failed = t.boolean("error")?.unwrap_or(false);
    let error = failed.then(|| {
        let said: String = t
            .text("content")
            .ok()
            .flatten()
            .unwrap_or("")
            .trim()
            .chars()
            .take(ERROR_SHOWN)
            .collect();
        if said.is_empty() {
            "error".into()
        } else {
            said
        }
    });
    trace.push(TraceStep {
        tool,
        ok: !failed,
        error,
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::Memory;
    use crate::import::{Options, Quiet};
    use serde_json::json;

    /// A change that spoils a good input.
    type Break = fn(&mut Value);

    fn read_in(src: &Memory, path: &str) -> Result<Imported> {
        Tau2Bench.read(&mut Input {
            src,
            path: Path::new(path),
            options: &Options::default(),
            progress: &mut Quiet,
        })
    }

    fn read(v: &Value) -> Result<Imported> {
        read_in(&Memory::new().with("r.json", v.to_string()), "r.json")
    }

    fn sim(task: &str, trial: u64, reason: &str, reward: Option<f64>) -> Value {
        json!({
            "id": format!("{task}-{trial}"), "task_id": task, "trial": trial,
            "start_time": "2025-07-01T10:00:00", "end_time": "2025-07-01T10:01:00",
            "duration": 60.0, "termination_reason": reason,
            "agent_cost": 0.02, "user_cost": 0.01,
            "reward_info": reward.map(|r| json!({"reward": r, "reward_basis": ["DB"]})),
            "messages": [], "seed": 7
        })
    }

    fn results(sims: Vec<Value>) -> Value {
        json!({"timestamp": "t", "info": {"git_commit": "abc", "num_trials": 2,
               "agent_info": {"implementation": "llm_agent", "llm": "gpt-4.1"},
               "user_info": {"implementation": "user_simulator", "llm": "gpt-4.1"}},
               "tasks": [{"id": "0"}], "simulations": sims})
    }

    #[test]
    fn simulations_become_attempts_and_infrastructure_errors_stay() {
        let mut a = sim("0", 0, "user_stop", Some(1.0));
        a["messages"] = json!([
            {"role": "assistant", "content": "Hi! How can I help you today?"},
            {"role": "user", "content": "cancel", "usage": {"prompt_tokens": 999}},
            {"role": "assistant", "tool_calls": [
                {"id": "c1", "name": "get_reservation_details", "arguments": {}},
                {"id": "c2", "name": "cancel_reservation", "arguments": {}}],
             "usage": {"prompt_tokens": 1500, "completion_tokens": 40}, "cost": 0.01},
            {"role": "tool", "tool_messages": [
                {"id": "c1", "role": "tool", "content": "{}", "requestor": "assistant"},
                {"id": "c2", "role": "tool", "content": "Error: not allowed",
                 "requestor": "assistant", "error": true}]},
            {"role": "user", "tool_calls": [{"id": "u1", "name": "toggle_airplane_mode",
                                             "arguments": {}, "requestor": "user"}]},
            {"id": "u1", "role": "tool", "content": "ok", "requestor": "user"},
            {"role": "assistant", "content": "Done.",
             "usage": {"prompt_tokens": 1700, "completion_tokens": 20}}
        ]);
        let mut broken = sim("0", 1, "infrastructure_error", None);
        broken["duration"] = json!(0.0);
        broken["agent_cost"] = Value::Null;
        let got = read(&results(vec![
            a,
            broken,
            sim("1", 0, "max_steps", Some(0.0)),
        ]))
        .unwrap();
        assert_eq!(got.model.as_deref(), Some("gpt-4.1"));
        assert!(
            got.accounting
                .as_ref()
                .unwrap()
                .input_tokens_include_cache_reads
        );
        let a: Vec<&Attempt> = got.records.iter().map(|r| &r.attempt).collect();
        assert_eq!(a.len(), 3);
        assert!(a[0].correct && a[0].trial == 1 && !a[0].infra_error);
        assert_eq!(
            (a[0].input_tokens, a[0].output_tokens),
            (Some(3200), Some(60))
        );
        assert_eq!(a[0].input_tokens_cache_read, None);
        assert_eq!((a[0].steps, a[0].errors), (Some(2), Some(1)));
        let t = a[0].trace.as_ref().unwrap();
        assert_eq!(
            (
                t[0].tool.as_str(),
                t[1].tool.as_str(),
                t[1].error.as_deref()
            ),
            (
                "get_reservation_details",
                "cancel_reservation",
                Some("Error: not allowed")
            )
        );
        assert_eq!(a[0].end_reason.as_deref(), Some("user_stop"));
        assert_eq!((a[0].wall_s, a[0].cost_usd), (Some(60.0), Some(0.02)));
        // The placeholder of a simulation that never ran: there, not Correct, nothing known.
        let b = a[1];
        assert!(b.infra_error && !b.correct);
        assert_eq!(
            (b.trial, b.outcome, b.wall_s, b.steps),
            (2, None, None, None)
        );
        assert_eq!(b.end_reason.as_deref(), Some("infrastructure_error"));
        assert_eq!(
            got.records[1].at,
            Origin::Record("simulation 2 (task 0 trial 1)".into())
        );
        // A run that hit its step limit is the agent's failure, graded 0.
        assert!(!a[2].correct && !a[2].infra_error);
        assert_eq!(
            (a[2].outcome, a[2].steps, a[2].trace.as_ref()),
            (Some(0.0), Some(0), None)
        );
    }

    #[test]
    fn usage_records_give_cached_tokens_and_ticks_the_trace() {
        let mut s = sim("7", 2, "agent_stop", Some(1.0));
        s["messages"] = Value::Null;
        s["ticks"] = json!([
            {"tick_id": 0, "timestamp": "t0", "agent_tool_calls": [{"id": "a", "name": "lookup", "arguments": {}}]},
            {"tick_id": 1, "timestamp": "t1", "agent_tool_results": [
                {"id": "a", "role": "tool", "content": "timeout", "error": true}]}
        ]);
        s["agent_usage"] = json!({"records": [
            {"provider": "openai", "model": "gpt-realtime", "component": "realtime",
             "semantics": "delta", "input_tokens": 5000, "output_tokens": 700,
             "input_cached_tokens": 3000},
            {"provider": "deepgram", "model": "nova-3", "component": "stt",
             "audio_input_seconds": 30.0},
            {"provider": "openai", "model": "gpt-4.1", "component": "llm",
             "input_text_tokens": 100, "input_audio_tokens": 20,
             "input_cached_text_tokens": 50, "output_text_tokens": 9, "billable": false}
        ], "cost": 0.05});
        let got = read(&results(vec![s])).unwrap();
        let a = &got.records[0].attempt;
        assert_eq!((a.trial, a.correct), (3, true));
        assert_eq!(
            (
                a.input_tokens,
                a.output_tokens,
                a.input_tokens_cache_read,
                a.input_tokens_cache_write
            ),
            (Some(5120), Some(709), Some(3050), None)
        );
        let t = a.trace.as_ref().unwrap();
        assert_eq!((t.len(), t[0].tool.as_str(), t[0].ok), (1, "lookup", false));
        assert_eq!(t[0].error.as_deref(), Some("timeout"));
    }

    #[test]
    fn the_directory_format_reads_each_indexed_simulation_file() {
        let meta = json!({"info": {"agent_info": {"llm": "gpt-realtime"}}, "tasks": [],
                          "simulation_index": [{"id": "s-1", "task_id": "3", "trial": 0},
                                               {"id": "s-2", "task_id": "3", "trial": 1}]});
        let mut s1 = sim("3", 0, "agent_stop", Some(1.0));
        s1["id"] = json!("s-1");
        let mut s2 = sim("3", 1, "agent_stop", Some(0.0));
        s2["id"] = json!("s-2");
        let src = Memory::new()
            .with("run/results.json", meta.to_string())
            .with("run/simulations/s-1.json", s1.to_string())
            .with("run/simulations/s-2.json", s2.to_string());
        let got = read_in(&src, "run/results.json").unwrap();
        assert_eq!(got.model.as_deref(), Some("gpt-realtime"));
        let trials: Vec<(u32, bool)> = got
            .records
            .iter()
            .map(|r| (r.attempt.trial, r.attempt.correct))
            .collect();
        assert_eq!(trials, [(1, true), (2, false)]);
        assert_eq!(
            got.records[1].at,
            Origin::Record("simulation s-2 (task 3 trial 1)".into())
        );
        // A file with its simulations in it, even none, is not of the directory format.
        let mut inline = meta.clone();
        inline["simulations"] = json!([]);
        let src = Memory::new().with("run/results.json", inline.to_string());
        assert!(
            read_in(&src, "run/results.json")
                .unwrap()
                .records
                .is_empty()
        );
        let bad = json!({"simulation_index": [{"id": "../../etc/passwd"}]});
        let src = Memory::new().with("run/results.json", bad.to_string());
        let e = read_in(&src, "run/results.json").unwrap_err().to_string();
        assert!(
            e.contains(
                "simulation_index[0]: field `id`: \"../../etc/passwd\" is not a simulation id"
            ),
            "{e}"
        );
        let src = Memory::new().with("run/results.json", meta.to_string());
        let e = read_in(&src, "run/results.json").unwrap_err().to_string();
        assert!(e.starts_with("run/results.json: simulation_index[0]: field `id`: cannot read its simulation file run/simulations/s-1.json"), "{e}");
    }

    #[test]
    fn a_bad_simulation_is_named() {
        let cases: Vec<(Break, &str)> = vec![
            (
                (|s| s["reward_info"]["reward"] = json!(1.5)),
                "r.json: simulation 1 (task 0 trial 0): field `reward_info.reward`: expected a reward from 0 to 1, got 1.5",
            ),
            (
                (|s| s["reward_info"] = Value::Null),
                "r.json: simulation 1 (task 0 trial 0): field `reward_info`: missing: tau2 grades every simulation that ran",
            ),
            (
                (|s| s["termination_reason"] = json!("crashed")),
                "r.json: simulation 1 (task 0 trial 0): field `termination_reason`: \"crashed\" is not one of tau2's termination reasons (user_stop, agent_stop,",
            ),
            (
                (|s| s["trial"] = Value::Null),
                "r.json: simulation 1: field `trial`: missing: expected the trial number, from 0",
            ),
            (
                (|s| s["agent_cost"] = json!(-1)),
                "r.json: simulation 1 (task 0 trial 0): field `agent_cost`: expected US dollars, 0 or more, got -1",
            ),
            (
                (|s| s["agent_usage"] = json!({"records": [{"input_tokens": "many"}]})),
                "r.json: simulation 1 (task 0 trial 0): field `agent_usage.records[0].input_tokens`: expected a token count",
            ),
            (
                (|s| {
                    s["agent_usage"] =
                        json!({"records": [{"semantics": "cumulative", "input_tokens": 1}]})
                }),
                "r.json: simulation 1 (task 0 trial 0): field `agent_usage.records[0].semantics`: a cumulative record",
            ),
            (
                (|s| s["messages"] = json!([{"role": "tool", "id": "x", "error": "yes"}])),
                "r.json: simulation 1 (task 0 trial 0) messages[0]: field `error`: expected true or false",
            ),
        ];
        for (break_it, says) in cases {
            let mut s = sim("0", 0, "user_stop", Some(1.0));
            break_it(&mut s);
            let e = read(&results(vec![s])).unwrap_err().to_string();
            assert!(e.starts_with(says), "{e}\n  expected: {says}");
        }
        let e = read(&json!({"simulations": {"a": 1}}))
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "r.json: field `simulations`: expected a list of simulations"
        );
    }
}
