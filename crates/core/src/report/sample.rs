//! One problem's sample, as the log recorded it: `benchledger problems WAVE --problem ID`.
//! Every seat's attempts at the problem with their outcome and the texts the importer kept
//! (input, target, answer, the scorer's explanation; docs/formats.md, "Attempt texts"): what a
//! maintainer reads before trusting a verdict, and what the site's problem page shows.

use serde::Serialize;

use super::{Cell, Column, ESSENTIAL, Table};
use crate::model::{AttemptTexts, WaveData};

/// One attempt at the problem.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SampleAttempt {
    pub seat: String,
    pub trial: u32,
    pub correct: bool,
    pub outcome: Option<f64>,
    pub infra_error: bool,
    /// Each `null` when the importer kept none (a format that records no sample, or a wave
    /// ingested before texts were kept).
    pub input: Option<String>,
    pub target: Option<String>,
    pub answer: Option<String>,
    pub explanation: Option<String>,
}

/// A problem's attempts, as `problems WAVE --problem ID --format json` prints them.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SampleJson {
    pub wave: String,
    pub problem: String,
    /// In ledger order: seat by seat, trial by trial.
    pub attempts: Vec<SampleAttempt>,
}

/// The attempts of `seats` (every seat when empty) at `problem`; `None` when no seat of the
/// wave attempted it.
pub fn sample(data: &WaveData, problem: &str, seats: &[String]) -> Option<SampleJson> {
    let attempts: Vec<SampleAttempt> = data
        .seats
        .iter()
        .filter(|s| seats.is_empty() || seats.contains(&s.seat.id))
        .flat_map(|s| s.attempts.iter().map(move |a| (s, a)))
        .filter(|(_, a)| a.problem == problem)
        .map(|(s, a)| {
            let t = a.texts.clone().unwrap_or_default();
            SampleAttempt {
                seat: s.seat.id.clone(),
                trial: a.trial,
                correct: a.correct,
                outcome: a.outcome,
                infra_error: a.infra_error,
                input: t.input,
                target: t.target,
                answer: t.answer,
                explanation: t.explanation,
            }
        })
        .collect();
    let attempted = data
        .seats
        .iter()
        .any(|s| s.attempts.iter().any(|a| a.problem == problem));
    attempted.then(|| SampleJson {
        wave: data.wave.id.clone(),
        problem: problem.to_string(),
        attempts,
    })
}

impl SampleAttempt {
    fn texts(&self) -> AttemptTexts {
        AttemptTexts {
            input: self.input.clone(),
            target: self.target.clone(),
            answer: self.answer.clone(),
            explanation: self.explanation.clone(),
        }
    }

    fn verdict(&self) -> String {
        let v = if self.infra_error {
            "infrastructure error"
        } else if self.correct {
            "Correct"
        } else {
            "not Correct"
        };
        match self.outcome {
            Some(o) => format!("{v} (graded {})", crate::number::fixed(o, 2)),
            None => v.to_string(),
        }
    }
}

/// For people: the input and target once when every attempt shares them, then each attempt
/// with its verdict and the texts it does not share, each text indented under its name; the
/// characters that act on a terminal written as escapes.
pub fn sample_text(s: &SampleJson) -> String {
    let mut out = format!("Problem {} of wave {}\n", s.problem, s.wave);
    let shared = |f: fn(&SampleAttempt) -> &Option<String>| -> Option<String> {
        let first = f(s.attempts.first()?).clone()?;
        s.attempts
            .iter()
            .all(|a| f(a).as_deref() == Some(first.as_str()))
            .then_some(first)
    };
    let (input, target) = (shared(|a| &a.input), shared(|a| &a.target));
    let block = |out: &mut String, indent: &str, name: &str, text: &str| {
        out.push_str(&format!("{indent}{name}:\n"));
        for line in crate::text::shown_keeping(text, |c| matches!(c, '\n' | '\t')).lines() {
            if line.is_empty() {
                out.push('\n');
            } else {
                out.push_str(&format!("{indent}    {line}\n"));
            }
        }
    };
    if let Some(i) = &input {
        out.push('\n');
        block(&mut out, "", "Input", i);
    }
    if let Some(t) = &target {
        out.push('\n');
        block(&mut out, "", "Target", t);
    }
    let none = s.attempts.iter().all(|a| a.texts().named().is_empty());
    if none {
        out.push_str(
            "\nNo texts: the log records none, or the wave was ingested before they were kept.\n",
        );
    }
    for a in &s.attempts {
        out.push_str(&format!(
            "\n{} · trial {} · {}\n",
            crate::text::shown(&a.seat),
            a.trial,
            a.verdict()
        ));
        let texts = a.texts();
        let named = texts.named();
        if named.is_empty() && !none {
            out.push_str("  no texts: the log records none, or the wave was ingested before they were kept\n");
        }
        for (name, text) in named {
            if (name == "input" && input.is_some()) || (name == "target" && target.is_some()) {
                continue;
            }
            let mut heading = name.to_string();
            heading[..1].make_ascii_uppercase();
            block(&mut out, "  ", &heading, text);
        }
    }
    out
}

/// For CSV: one row an attempt, its texts whole.
pub(crate) fn sample_table(s: &SampleJson) -> Table {
    let mut t = Table::new(vec![
        Column::text("Seat", "seat").priority(ESSENTIAL),
        Column::num("Trial", "trial"),
        Column::text("Outcome", "outcome"),
        Column::text("Input", "input"),
        Column::text("Target", "target"),
        Column::text("Answer", "answer"),
        Column::text("Explanation", "explanation"),
    ]);
    let opt = |v: &Option<String>| Cell::text(v.as_deref().unwrap_or(""));
    for a in &s.attempts {
        t.rows.push(vec![
            Cell::text(&a.seat),
            Cell::new(a.trial.to_string(), a.trial.to_string()),
            Cell::new(
                a.verdict(),
                a.outcome
                    .unwrap_or(if a.correct { 1.0 } else { 0.0 })
                    .to_string(),
            ),
            opt(&a.input),
            opt(&a.target),
            opt(&a.answer),
            opt(&a.explanation),
        ]);
    }
    t
}
