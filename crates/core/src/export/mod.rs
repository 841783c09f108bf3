//! Exporting a ledger: for analysts, Parquet (below); for the places the community gathers
//! results, Every Eval Ever records ([`eee`]) and Hugging Face's `.eval_results/` files ([`hf`]).
//!
//! `benchledger export --format parquet --out DIR` writes three
//! Parquet files that DuckDB, Spark or pandas read directly, their columns documented in
//! docs/export.md (and listed once, here, in [`ATTEMPTS`], [`SEATS`] and `SCORES`).
//!
//! - `attempts.parquet`: one row per attempt, with its wave, seat, model, provider, harness and
//!   the wave's load, accounting and budget as columns;
//! - `seats.parquet`: one row per seat of each wave, with the figures `show` prints;
//! - `scores.parquet`: the stored scores of every registered rubric.
//!
//! Every wave is exported, withdrawn ones included and marked (`withdrawn`). The attempts are
//! streamed from the ledger a seat at a time and written a row group at a time, so memory stays
//! bounded whatever the ledger's size. Behind the cargo feature `parquet`.

pub mod eee;
pub mod hf;
pub mod into_dir;
#[cfg(feature = "parquet")]
mod parquet;
pub mod rows;

use std::collections::BTreeSet;
use std::path::Path;

use crate::error::{Error, Result};
use crate::ledger::Ledger;

/// What a column holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Int,
    Real,
    Flag,
    Text,
}

/// A column of an exported table.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    pub name: &'static str,
    pub kind: Kind,
}

const fn col(name: &'static str, kind: Kind) -> Column {
    Column { name, kind }
}

/// One value of a row; `Null` is an unknown.
#[derive(Debug, Clone, Copy)]
pub enum Value<'a> {
    Null,
    Int(i64),
    Real(f64),
    Flag(bool),
    Text(&'a str),
}

#[cfg(feature = "parquet")]
impl<'a> Value<'a> {
    fn int(v: Option<impl Into<u64>>) -> Value<'a> {
        v.map_or(Value::Null, |v| {
            Value::Int(i64::try_from(v.into()).unwrap_or(i64::MAX))
        })
    }
    fn real(v: Option<f64>) -> Value<'a> {
        v.map_or(Value::Null, Value::Real)
    }
    fn flag(v: Option<bool>) -> Value<'a> {
        v.map_or(Value::Null, Value::Flag)
    }
    fn text(v: Option<&'a str>) -> Value<'a> {
        v.map_or(Value::Null, Value::Text)
    }
}

use Kind::{Flag, Int, Real, Text};

/// The wave's columns, first in `attempts.parquet` and `seats.parquet`.
#[cfg(feature = "parquet")]
const WAVE_COLUMNS: usize = 14;

/// `attempts.parquet`.
pub const ATTEMPTS: &[Column] = &[
    col("wave", Text),
    col("suite", Text),
    col("started_at", Text),
    col("withdrawn", Flag),
    col("parallel_sessions", Int),
    col("tool_server_sessions", Int),
    col("serial_rerun", Flag),
    col("timeout_multiplier", Real),
    col("input_tokens_include_cache_reads", Flag),
    col("price_source", Text),
    col("budget_tokens", Real),
    col("budget_wall_s", Real),
    col("budget_cost_usd", Real),
    col("content_sha256", Text),
    col("seat", Text),
    col("model", Text),
    col("provider", Text),
    col("harness", Text),
    col("problem", Text),
    col("trial", Int),
    col("correct", Flag),
    col("outcome", Real),
    col("input_tokens", Int),
    col("output_tokens", Int),
    col("input_tokens_cache_read", Int),
    col("input_tokens_cache_write", Int),
    col("wall_s", Real),
    col("cost_usd", Real),
    col("steps", Int),
    col("errors", Int),
    col("working_s", Real),
    col("infra_error", Flag),
    col("end_reason", Text),
];

/// `seats.parquet`: the wave's columns, the seat's, and its figures; a sum that covers only
/// some attempts has its `_known` count below `attempts`.
pub const SEATS: &[Column] = &[
    col("wave", Text),
    col("suite", Text),
    col("started_at", Text),
    col("withdrawn", Flag),
    col("parallel_sessions", Int),
    col("tool_server_sessions", Int),
    col("serial_rerun", Flag),
    col("timeout_multiplier", Real),
    col("input_tokens_include_cache_reads", Flag),
    col("price_source", Text),
    col("budget_tokens", Real),
    col("budget_wall_s", Real),
    col("budget_cost_usd", Real),
    col("content_sha256", Text),
    col("seat", Text),
    col("model", Text),
    col("provider", Text),
    col("harness", Text),
    col("problems", Int),
    col("attempts", Int),
    col("correct", Int),
    col("missing", Int),
    col("accuracy", Real),
    col("tokens_total", Int),
    col("tokens_total_known", Int),
    col("new_input_tokens", Int),
    col("new_input_tokens_known", Int),
    col("wall_s", Real),
    col("wall_s_known", Int),
    col("cost_usd", Real),
    col("cost_usd_known", Int),
    col("cost_of_pass_usd", Real),
    col("steps", Int),
    col("steps_known", Int),
    col("errors", Int),
    col("errors_known", Int),
    col("canary_failures", Int),
];

/// `scores.parquet`.
pub const SCORES: &[Column] = &[
    col("rubric", Text),
    col("rubric_sha256", Text),
    col("wave", Text),
    col("seat", Text),
    col("score", Real),
    col("rank", Int),
    col("gate", Text),
    col("tie", Text),
    col("note", Text),
    col("factors", Text),
];

/// A sum over the attempts where a quantity is known: null when it is known for none.
#[cfg(feature = "parquet")]
fn known(known: u64, sum: Value<'_>) -> Value<'_> {
    if known == 0 { Value::Null } else { sum }
}

/// Rows written to each file.
#[derive(Debug, Clone, Copy, Default)]
pub struct Exported {
    pub attempts: u64,
    pub seats: u64,
    pub scores: u64,
}

/// Writes `attempts.parquet`, `seats.parquet` and `scores.parquet` into `dir`.
#[cfg(feature = "parquet")]
pub fn parquet(ledger: &Ledger, dir: &Path) -> Result<Exported> {
    use crate::figures::{Basis, FigureTally};
    use crate::model::AttemptFields;

    let withdrawn: BTreeSet<String> = ledger.withdrawals()?.into_iter().map(|w| w.wave).collect();
    let mut attempts = parquet::Writer::create(&dir.join("attempts.parquet"), "attempt", ATTEMPTS)?;
    let mut seats = parquet::Writer::create(&dir.join("seats.parquet"), "seat", SEATS)?;
    for w in ledger.waves()? {
        let head = wave_cells(&w, withdrawn.contains(&w.wave.id));
        let basis = Basis::of(&w.wave);
        let mut failed: Option<Error> = None;
        let tallies = ledger.fold_wave(
            &w.wave.id,
            AttemptFields {
                checklist: false,
                trace: false,
                ..AttemptFields::ALL
            },
            |seat| (seat.clone(), FigureTally::new()),
            |(seat, tally), a| {
                tally.add(&basis, a);
                if failed.is_none()
                    && let Err(e) = attempts.push(&attempt_row(&head, seat, a))
                {
                    failed = Some(e);
                }
            },
        )?;
        if let Some(e) = failed {
            return Err(e);
        }
        for (_, (seat, tally)) in &tallies {
            seats.push(&seat_row(&head, seat, &tally.figures(&basis)))?;
        }
    }
    Ok(Exported {
        attempts: attempts.finish()?,
        seats: seats.finish()?,
        scores: scores(ledger, dir)?,
    })
}

/// The columns every attempt's and seat's row starts with: its wave's.
#[cfg(feature = "parquet")]
fn wave_cells(w: &crate::model::WaveRow, gone: bool) -> [Value<'_>; WAVE_COLUMNS] {
    let wave = &w.wave;
    [
        Value::Text(&wave.id),
        Value::Text(&wave.suite),
        Value::Text(&wave.started_at),
        Value::Flag(gone),
        Value::int(wave.load.parallel_sessions),
        Value::int(wave.load.tool_server_sessions),
        Value::flag(wave.load.serial_rerun),
        Value::real(wave.load.timeout_multiplier),
        Value::Flag(wave.accounting.input_tokens_include_cache_reads),
        Value::text(wave.accounting.price_source.as_deref()),
        Value::real(wave.budget.tokens),
        Value::real(wave.budget.wall_s),
        Value::real(wave.budget.cost_usd),
        Value::Text(&w.content.sha256),
    ]
}

/// A row of `attempts.parquet`, in [`ATTEMPTS`]' order.
#[cfg(feature = "parquet")]
fn attempt_row<'a>(
    head: &[Value<'a>; WAVE_COLUMNS],
    seat: &'a crate::model::Seat,
    a: &'a crate::model::Attempt,
) -> Vec<Value<'a>> {
    let mut row: Vec<Value<'_>> = Vec::with_capacity(ATTEMPTS.len());
    row.extend_from_slice(head);
    row.extend([
        Value::Text(&seat.id),
        Value::Text(&seat.model),
        Value::Text(&seat.provider),
        Value::Text(&seat.harness),
        Value::Text(&a.problem),
        Value::int(Some(a.trial)),
        Value::Flag(a.correct),
        Value::real(a.outcome),
        Value::int(a.input_tokens),
        Value::int(a.output_tokens),
        Value::int(a.input_tokens_cache_read),
        Value::int(a.input_tokens_cache_write),
        Value::real(a.wall_s),
        Value::real(a.cost_usd),
        Value::int(a.steps),
        Value::int(a.errors),
        Value::real(a.working_s),
        Value::Flag(a.infra_error),
        Value::text(a.end_reason.as_deref()),
    ]);
    row
}

/// A row of `seats.parquet`, in [`SEATS`]' order: the seat's absolute figures, each sum with
/// how many attempts it is known for.
#[cfg(feature = "parquet")]
fn seat_row<'a>(
    head: &[Value<'a>; WAVE_COLUMNS],
    seat: &'a crate::model::Seat,
    f: &crate::figures::SeatFigures,
) -> Vec<Value<'a>> {
    let whole = |sum: u64| Value::Int(i64::try_from(sum).unwrap_or(i64::MAX));
    let mut row: Vec<Value<'_>> = head.to_vec();
    row.extend([
        Value::Text(&seat.id),
        Value::Text(&seat.model),
        Value::Text(&seat.provider),
        Value::Text(&seat.harness),
        Value::int(Some(f.problems)),
        Value::int(Some(f.attempts)),
        Value::int(Some(f.correct)),
        Value::int(Some(f.missing)),
        Value::real(f.accuracy),
        known(f.tokens_total.known, whole(f.tokens_total.sum)),
        Value::int(Some(f.tokens_total.known)),
        known(f.new_input_tokens.known, whole(f.new_input_tokens.sum)),
        Value::int(Some(f.new_input_tokens.known)),
        known(f.wall_s.known, Value::Real(f.wall_s.sum)),
        Value::int(Some(f.wall_s.known)),
        known(f.cost_usd.known, Value::Real(f.cost_usd.sum)),
        Value::int(Some(f.cost_usd.known)),
        Value::real(f.cost_of_pass_usd),
        known(f.steps.known, whole(f.steps.sum)),
        Value::int(Some(f.steps.known)),
        known(f.errors.known, whole(f.errors.sum)),
        Value::int(Some(f.errors.known)),
        Value::int(Some(f.canary_failures)),
    ]);
    row
}

/// Writes `scores.parquet`: every stored score of every registered rubric, wave by wave.
#[cfg(feature = "parquet")]
fn scores(ledger: &Ledger, dir: &Path) -> Result<u64> {
    let mut scores = parquet::Writer::create(&dir.join("scores.parquet"), "score", SCORES)?;
    let waves = ledger.wave_ids()?;
    for r in ledger.rubrics()? {
        let id = r.id();
        for wave in &waves {
            for s in ledger.stored_scores(&r.sha256, wave)? {
                let factors = crate::formats::json::to_string(|j| {
                    j.begin_object();
                    for (k, v) in &s.score.factors {
                        j.key(k).f64(*v);
                    }
                    j.end_object();
                });
                scores.push(&[
                    Value::Text(&id),
                    Value::Text(&r.sha256),
                    Value::Text(wave),
                    Value::Text(&s.score.seat),
                    Value::real(s.score.score),
                    Value::int(s.score.rank),
                    Value::text(s.score.gate.as_deref()),
                    Value::text(s.score.tie.as_deref()),
                    Value::text(s.score.note.as_deref()),
                    Value::Text(&factors),
                ])?;
            }
        }
    }
    scores.finish()
}

/// Without the `parquet` feature: says how to get it.
#[cfg(not(feature = "parquet"))]
pub fn parquet(_: &Ledger, _: &Path) -> Result<Exported> {
    let _: BTreeSet<()> = BTreeSet::new();
    Err(Error::Usage(
        "this benchledger was built without Parquet export (cargo feature `parquet`): build it \
         with `cargo build --release --features parquet`"
            .into(),
    ))
}
