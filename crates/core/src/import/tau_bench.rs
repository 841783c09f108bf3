//! `tau-bench`: the results file tau-bench writes (a JSON array of `{task_id, trial, reward,
//! info, traj}`), one attempt per task and trial.
//!
//! - `task_id` → problem; `trial` (from 0) → attempt number `trial + 1`;
//! - `reward` → outcome, and Correct when it is 1 (tau-bench's own test: reward > 1 − 10⁻⁶);
//! - `traj`: each `tool` message is a step, named by its tool; a tool reply that starts with
//!   `Error` (how tau-bench's tools report a failed call) is a failed step → trace, steps,
//!   errors (a trajectory with no tool reply is 0 steps; no trajectory, unknown);
//! - not in the file: tokens, wall time and the agent's cost (`info.user_cost` is the simulated
//!   user's, and is not the agent's: dropped). A price table cannot fill them in either.

use super::json::{Rec, each_in_array};
use super::{Imported, Importer, Input, Origin, Record};
use crate::error::{Error, Result};
use crate::model::{Attempt, TraceStep};

/// tau-bench results.
pub struct TauBench;

/// tau-bench's test of success: a reward within 10⁻⁶ of 1.
const SUCCESS: f64 = 1.0 - 1e-6;

/// The most of a failed tool reply kept as the step's error.
const ERROR_SHOWN: usize = 80;

impl Importer for TauBench {
    fn name(&self) -> &'static str {
        "tau-bench"
    }

    fn describes(&self) -> &'static str {
        "tau-bench results: a JSON array of {task_id, trial, reward, info, traj}"
    }

    fn read(&self, input: &mut Input<'_>) -> Result<Imported> {
        let path = input.path;
        let file = input.src.open(path).map_err(|e| Error::io(path, e))?;
        let mut records = Vec::new();
        let progress = &mut *input.progress;
        each_in_array(path, file, |i, value| {
            records.push(record(path, i, &value)?);
            progress.advance(1);
            Ok(())
        })?;
        Ok(Imported {
            records,
            ..Imported::default()
        })
    }
}

fn record(path: &std::path::Path, index: usize, value: &serde_json::Value) -> Result<Record> {
    let r = Rec::new(path, format!("record {}", index + 1), value)?;
    let task = r.id("task_id")?;
    let trial = r
        .count("trial")?
        .ok_or_else(|| r.bad("trial", "missing: expected the trial number, from 0"))?;
    let label = format!("record {} (task {task} trial {trial})", index + 1);
    let r = Rec { label, ..r };
    let trial = u32::try_from(trial + 1)
        .map_err(|_| r.bad("trial", format!("{trial} trials is past any real run")))?;
    let reward = r
        .number("reward")?
        .ok_or_else(|| r.bad("reward", "missing: expected the reward, from 0 to 1"))?;
    if !(0.0..=1.0).contains(&reward) {
        return Err(r.bad(
            "reward",
            format!("expected a reward from 0 to 1, got {reward}"),
        ));
    }
    let traj = r.list("traj")?;
    let mut trace = Vec::new();
    for (k, m) in traj.into_iter().flatten().enumerate() {
        let msg = Rec::new(path, format!("{} traj[{k}]", r.label), m)?;
        if msg.text("role")? != Some("tool") {
            continue;
        }
        let tool = msg.text("name")?.unwrap_or("(unnamed tool)").to_string();
        let reply = msg.text("content")?.unwrap_or("");
        let failed = reply.trim_start().starts_with("Error");
        trace.push(TraceStep {
            tool,
            ok: !failed,
            error: failed.then(|| reply.trim().chars().take(ERROR_SHOWN).collect()),
        });
    }
    let correct = reward > SUCCESS;
    Ok(Record {
        at: Origin::Record(r.label.clone()),
        attempt: Attempt {
            problem: task,
            trial,
            correct,
            outcome: Some(reward),
            input_tokens: None,
            output_tokens: None,
            input_tokens_cache_read: None,
            input_tokens_cache_write: None,
            wall_s: None,
            cost_usd: None,
            // With a trajectory, its tool replies are every step there was, even none.
            steps: traj.map(|_| trace.len() as u32),
            errors: traj.map(|_| trace.iter().filter(|t| !t.ok).count() as u32),
            checklist: None,
            trace: (!trace.is_empty()).then_some(trace),
            working_s: None,
            infra_error: false,
            end_reason: None,
            origin: None,
            texts: None,
        },
        file: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::Memory;
    use crate::import::{Options, Quiet};

    fn read(text: &str) -> Result<Imported> {
        let src = Memory::new().with("r.json", text);
        TauBench.read(&mut Input {
            src: &src,
            path: std::path::Path::new("r.json"),
            options: &Options::default(),
            progress: &mut Quiet,
        })
    }

    #[test]
    fn tasks_and_trials_become_attempts_and_tool_replies_steps() {
        let got = read(
            r#"[
              {"task_id": 3, "trial": 0, "reward": 1.0, "info": {"user_cost": 0.01},
               "traj": [{"role": "system", "content": "policy"},
                        {"role": "assistant", "content": null, "tool_calls": [{}]},
                        {"role": "tool", "name": "get_user", "content": "{\"id\": 1}"},
                        {"role": "tool", "name": "book", "content": "Error: no seats"}]},
              {"task_id": 3, "trial": 1, "reward": 0.0, "info": {}, "traj": []}
            ]"#,
        )
        .unwrap();
        let a: Vec<&Attempt> = got.records.iter().map(|r| &r.attempt).collect();
        assert_eq!(a.len(), 2);
        assert_eq!(
            (a[0].problem.as_str(), a[0].trial, a[0].correct),
            ("3", 1, true)
        );
        assert_eq!(
            (a[1].trial, a[1].correct, a[1].outcome),
            (2, false, Some(0.0))
        );
        let t = a[0].trace.as_ref().unwrap();
        assert_eq!(t.len(), 2);
        assert!(t[0].ok && !t[1].ok);
        assert_eq!(t[1].error.as_deref(), Some("Error: no seats"));
        assert_eq!(
            a[0].cost_usd, None,
            "the user simulator's cost is not the agent's"
        );
        assert_eq!(
            got.records[1].at,
            Origin::Record("record 2 (task 3 trial 1)".into())
        );
    }

    #[test]
    fn a_bad_record_is_named() {
        for (text, says) in [
            (
                r#"[{"task_id": 1, "trial": 0, "reward": 2}]"#,
                "r.json: record 1 (task 1 trial 0): field `reward`: expected a reward from 0 to 1, got 2",
            ),
            (
                r#"[{"task_id": 1, "trial": 0, "reward": 1}, {"trial": 0, "reward": 1}]"#,
                "r.json: record 2: field `task_id`: missing",
            ),
            (
                r#"[{"task_id": 1, "trial": "x", "reward": 1}]"#,
                "r.json: record 1: field `trial`: expected a whole number, 0 or more, got the string \"x\"",
            ),
            (
                r#"{"task_id": 1}"#,
                "r.json:1: not the JSON this format expects",
            ),
        ] {
            let e = read(text).unwrap_err().to_string();
            assert!(e.starts_with(says), "{e}");
        }
    }
}
