//! `benchledger history`: a registered rubric's stored scores across the waves of the ledger.

use super::rubric::resolve;
use super::{Ctx, Withdrawn};
use crate::cli::{Format, HistoryArgs};
use benchledger_core::error::{Error, Result};
use benchledger_core::report;

pub fn history(
    ctx: &mut Ctx<'_>,
    rubric: &str,
    seat: Option<&str>,
    waves: &[String],
    include_withdrawn: bool,
    format: Format,
) -> Result<()> {
    let ledger = ctx.open()?;
    let info = resolve(&ledger, rubric)?;
    if !info.registered {
        return Err(Error::Usage(format!(
            "{} is not registered: stored scores belong to registered rubrics. Register it with \
             `benchledger rubric add {rubric}`, then `benchledger rescore --rubric {}`",
            info.rubric.id(),
            info.rubric.id()
        )));
    }
    let withdrawn = Withdrawn::load(&ledger)?;
    for w in waves {
        ledger.load_wave_check(w)?;
        withdrawn.check_named(w, include_withdrawn)?;
    }
    let mut rows = Vec::new();
    // Every wave's conditions, in ledger order (start time, then id).
    for listed in ledger.waves()? {
        if !waves.is_empty() && !waves.contains(&listed.wave.id) {
            continue;
        }
        if !include_withdrawn && withdrawn.get(&listed.wave.id).is_some() {
            continue;
        }
        let stored = ledger.stored_scores(&info.sha256, &listed.wave.id)?;
        rows.push(report::history::WaveHistory {
            wave: listed.wave,
            stored,
        });
    }
    if let Some(s) = seat
        && !rows
            .iter()
            .any(|w| w.stored.iter().any(|x| x.score.seat == s))
    {
        return Err(Error::Usage(format!(
            "no stored score for seat {s:?} under {}; check the seat's id with `benchledger show \
             WAVE`, or store scores with `benchledger rescore --rubric {}`",
            info.rubric.id(),
            info.rubric.id()
        )));
    }
    let (mut table, json) = report::history::history(&info, &rows, seat);
    let shown = withdrawn.among(rows.iter().map(|r| r.wave.id.as_str()));
    let json = report::withdrawn::mark(&mut table, &json, &shown);
    let text = ctx.render(format, "history", &table, &json);
    ctx.write(&text)
}

/// `benchledger history`, from its flags.
pub fn run(ctx: &mut Ctx<'_>, args: HistoryArgs) -> Result<()> {
    let HistoryArgs {
        rubric,
        seat,
        waves,
        include_withdrawn,
        format,
    } = args;
    history(
        ctx,
        &rubric,
        seat.as_deref(),
        &waves,
        include_withdrawn,
        format.format,
    )
}
