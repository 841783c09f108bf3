//! One result line's fields into an [`Attempt`]: each field checked against its kind, the trace
//! and the checklist read, and the fields checked against each other (a trace and the steps
//! and errors it implies, errors within steps). JSON lines and CSV rows both end here, so both
//! are held to the same rules in the same words.

use serde_json::Value;

use super::fields::{
    ANSWER, ATTEMPT, CACHE_READ, CACHE_WRITE, CHECKLIST, CORRECT, COST_USD, END_REASON, ERRORS,
    EXPLANATION, FIELDS, Fields, INFRA_ERROR, INPUT, INPUT_TOKENS, Kind, OUTCOME, OUTPUT_TOKENS,
    PROBLEM, STEPS, TARGET, TRACE, WALL_S, WORKING_S, amount, bad, count, describe, small,
    unknown_field,
};
use crate::error::{Error, Location, Result};
use crate::model::{Attempt, ChecklistItem, TraceStep};

fn checklist(at: &Location, v: &Value) -> Result<Vec<ChecklistItem>> {
    let err = || bad(at, "checklist", Kind::Checklist, v);
    let items = v.as_array().ok_or_else(err)?;
    items
        .iter()
        .map(|item| {
            let o = item.as_object().ok_or_else(err)?;
            if o.len() != 2 {
                return Err(err());
            }
            match (o.get("item"), o.get("pass")) {
                (Some(Value::String(i)), Some(Value::Bool(p))) => Ok(ChecklistItem {
                    item: i.clone(),
                    pass: *p,
                }),
                _ => Err(err()),
            }
        })
        .collect()
}

fn trace(at: &Location, v: &Value) -> Result<Vec<TraceStep>> {
    let steps = v
        .as_array()
        .ok_or_else(|| bad(at, "trace", Kind::Trace, v))?;
    steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let field = format!("trace[{i}]");
            let o = step.as_object().ok_or_else(|| {
                Error::input(
                    at.clone().field(&field),
                    format!(
                        "expected {}, got {}",
                        r#"{"tool": "...", "ok": true|false}"#,
                        describe(step)
                    ),
                )
            })?;
            for key in o.keys() {
                if !["tool", "ok", "error"].contains(&key.as_str()) {
                    return Err(Error::input(
                        at.clone().field(format!("{field}.{key}")),
                        "unknown field; a trace step may hold: tool, ok, error",
                    ));
                }
            }
            let tool = match o.get("tool") {
                Some(Value::String(s)) if !s.is_empty() => s.clone(),
                other => {
                    return Err(Error::input(
                        at.clone().field(format!("{field}.tool")),
                        format!(
                            "expected the tool's name, got {}",
                            other.map_or("nothing".into(), describe)
                        ),
                    ));
                }
            };
            let ok = match o.get("ok") {
                Some(Value::Bool(b)) => *b,
                other => {
                    return Err(Error::input(
                        at.clone().field(format!("{field}.ok")),
                        format!(
                            "expected true or false, got {}",
                            other.map_or("nothing".into(), describe)
                        ),
                    ));
                }
            };
            let error = match o.get("error") {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) => Some(s.clone()),
                Some(other) => {
                    return Err(Error::input(
                        at.clone().field(format!("{field}.error")),
                        format!(
                            "expected the error's kind as a string, got {}",
                            describe(other)
                        ),
                    ));
                }
            };
            if ok && error.is_some() {
                return Err(Error::input(
                    at.clone().field(format!("{field}.error")),
                    "a step with \"ok\": true cannot carry an error; set \"ok\": false or drop \
                     the error",
                ));
            }
            Ok(TraceStep { tool, ok, error })
        })
        .collect()
}

/// Builds an attempt from one line's fields, checking each.
pub(super) fn attempt(at: &Location, mut fields: Fields) -> Result<Attempt> {
    // The first unknown field in name order, as a JSON object's keys would list them.
    if let Some(key) = fields.unknown.iter().min() {
        return Err(unknown_field(at.clone().field(key), key));
    }
    let problem = problem_of(at, &mut fields)?;
    let get = |i: usize| fields.slots[i].as_ref().filter(|v| !v.is_null());
    let correct = match get(CORRECT) {
        Some(Value::Bool(b)) => *b,
        Some(v) => return Err(bad(at, "correct", Kind::Bool, v)),
        None => {
            return Err(Error::input(
                at.clone().field("correct"),
                "missing: every result line says whether it was Correct (true or false)",
            ));
        }
    };
    let trial = trial_of(at, get(ATTEMPT))?;
    let cnt = |i: usize| -> Result<Option<u64>> {
        get(i)
            .map(|v| count(at, FIELDS[i].0, Kind::Count, v))
            .transpose()
    };
    let amt = |i: usize, kind: Kind| -> Result<Option<f64>> {
        get(i).map(|v| amount(at, FIELDS[i].0, kind, v)).transpose()
    };
    let steps = cnt(STEPS)?.map(|n| small(at, "steps", n)).transpose()?;
    let errors = cnt(ERRORS)?.map(|n| small(at, "errors", n)).transpose()?;
    let trace = get(TRACE).map(|v| trace(at, v)).transpose()?;
    let (steps, errors) = checked_by_trace(at, steps, errors, trace.as_deref())?;
    let working_s = amt(WORKING_S, Kind::Amount)?;
    let infra_error = match get(INFRA_ERROR) {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(v) => return Err(bad(at, "infra_error", Kind::Bool, v)),
    };
    if infra_error && correct {
        return Err(Error::input(
            at.clone().field("infra_error"),
            "an attempt that ended in an infrastructure error cannot be Correct; set \
             \"correct\": false, or drop infra_error if the agent did finish",
        ));
    }
    let end_reason = match get(END_REASON) {
        None => None,
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
        Some(v) => return Err(bad(at, "end_reason", Kind::Text, v)),
    };
    let texts = texts_of(at, &fields)?;
    if let (Some(s), Some(e)) = (steps, errors)
        && e > s
    {
        return Err(Error::input(
            at.clone().field("errors"),
            format!("{e} errors in {s} steps: a run cannot have more failed steps than steps"),
        ));
    }
    Ok(Attempt {
        problem,
        trial,
        correct,
        outcome: amt(OUTCOME, Kind::Fraction)?,
        input_tokens: cnt(INPUT_TOKENS)?,
        output_tokens: cnt(OUTPUT_TOKENS)?,
        input_tokens_cache_read: cnt(CACHE_READ)?,
        input_tokens_cache_write: cnt(CACHE_WRITE)?,
        wall_s: amt(WALL_S, Kind::Amount)?,
        cost_usd: amt(COST_USD, Kind::Amount)?,
        steps,
        errors,
        checklist: get(CHECKLIST).map(|v| checklist(at, v)).transpose()?,
        // An empty trace says no more than no trace.
        trace: trace.filter(|t| !t.is_empty()),
        working_s,
        infra_error,
        end_reason,
        origin: None,
        texts,
    })
}

/// The line's `problem`: text that is not blank (`null` is the same as absent: missing).
fn problem_of(at: &Location, fields: &mut Fields) -> Result<String> {
    match fields.slots[PROBLEM].take().filter(|v| !v.is_null()) {
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(s),
        Some(v) => Err(bad(at, "problem", Kind::Text, &v)),
        None => Err(Error::input(
            at.clone().field("problem"),
            "missing: every result line names its problem",
        )),
    }
}

/// The line's trial (`attempt`), from 1: 1 when it is not given.
fn trial_of(at: &Location, v: Option<&Value>) -> Result<u32> {
    Ok(match v {
        None => 1,
        Some(v) => {
            let n = count(at, "attempt", Kind::Trial, v)?;
            if n == 0 {
                return Err(bad(at, "attempt", Kind::Trial, v));
            }
            small(at, "attempt", n)?
        }
    })
}

/// The steps and errors an attempt has: those given, or, with a trace, the trace's (its
/// steps and failed steps), which those given must agree with.
fn checked_by_trace(
    at: &Location,
    steps: Option<u32>,
    errors: Option<u32>,
    trace: Option<&[TraceStep]>,
) -> Result<(Option<u32>, Option<u32>)> {
    Ok(match trace {
        None => (steps, errors),
        Some(t) => {
            let n = t.len() as u32;
            let e = t.iter().filter(|s| !s.ok).count() as u32;
            if let Some(s) = steps.filter(|s| *s != n) {
                return Err(Error::input(
                    at.clone().field("steps"),
                    format!("steps = {s}, but the trace holds {n}; fix one or leave steps out"),
                ));
            }
            if let Some(given) = errors.filter(|g| *g != e) {
                return Err(Error::input(
                    at.clone().field("errors"),
                    format!(
                        "errors = {given}, but the trace has {e} failed step{}; fix one or \
                     leave errors out",
                        if e == 1 { "" } else { "s" }
                    ),
                ));
            }
            (Some(n), Some(e))
        }
    })
}

/// The sample's texts: strings, each cut to its cap; an empty one, or null, is none.
fn texts_of(at: &Location, fields: &Fields) -> Result<Option<crate::model::AttemptTexts>> {
    let get = |i: usize| fields.slots[i].as_ref().filter(|v| !v.is_null());
    let text = |i: usize, name: &str| -> Result<Option<String>> {
        match get(i) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(bad(at, name, Kind::Sample, v)),
        }
    };
    Ok(crate::model::AttemptTexts::capped(
        text(INPUT, "input")?,
        text(TARGET, "target")?,
        text(ANSWER, "answer")?,
        text(EXPLANATION, "explanation")?,
    ))
}
