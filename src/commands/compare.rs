//! `benchledger compare`: one seat across waves, on absolutes only, with the waves' conditions
//! side by side and every difference called out as a confounder.

use std::collections::BTreeSet;

use super::rubric::resolve;
use super::{Ctx, Withdrawn};
use crate::cli::{CompareArgs, Format};
use benchledger_core::error::{Error, Result};
use benchledger_core::model::WaveData;
use benchledger_core::report;
use benchledger_core::report::compare::{WaveInput, find_seat};
use benchledger_core::rubric::{WaveScores, score_wave};

pub fn compare(
    ctx: &mut Ctx<'_>,
    seat: &str,
    waves: &[String],
    rubrics: &[String],
    include_withdrawn: bool,
    format: Format,
) -> Result<()> {
    if waves.len() < 2 {
        return Err(Error::Usage(format!(
            "compare needs two or more waves, oldest first (got {}); e.g. `benchledger compare \
             --seat {seat} WAVE-1 WAVE-2`",
            waves.len()
        )));
    }
    let mut seen = BTreeSet::new();
    for w in waves {
        if !seen.insert(w.as_str()) {
            return Err(Error::Usage(format!(
                "wave {w} is named twice; name each wave once, oldest first"
            )));
        }
    }
    let ledger = ctx.open()?;
    let withdrawn = Withdrawn::load(&ledger)?;
    for w in waves {
        ledger.load_wave_check(w)?;
        withdrawn.check_named(w, include_withdrawn)?;
    }
    let infos = rubrics
        .iter()
        .map(|r| resolve(&ledger, r))
        .collect::<Result<Vec<_>>>()?;
    let data: Vec<WaveData> = waves
        .iter()
        .map(|w| ledger.load_wave(w))
        .collect::<Result<_>>()?;
    let mut inputs = Vec::with_capacity(data.len());
    let scores: Vec<Vec<WaveScores>> = data
        .iter()
        .map(|d| infos.iter().map(|i| score_wave(&i.rubric, d)).collect())
        .collect();
    for (d, s) in data.iter().zip(&scores) {
        let Some(found) = find_seat(d, seat) else {
            let seats: Vec<&str> = d.seats.iter().map(|s| s.seat.id.as_str()).collect();
            return Err(Error::Usage(format!(
                "wave {} has no seat {seat:?}; its seats are: {}",
                d.wave.id,
                if seats.is_empty() {
                    "(none)".to_string()
                } else {
                    seats.join(", ")
                }
            )));
        };
        inputs.push(WaveInput {
            data: d,
            seat: found,
            scores: s,
        });
    }
    let mut comparison = report::compare::compare(seat, &inputs, &infos)?;
    let shown = withdrawn.among(waves.iter().map(String::as_str));
    let json = comparison.json.clone();
    let json = report::withdrawn::mark(&mut comparison.conditions, &json, &shown);
    let text = crate::terminal::render_comparison(&comparison, format, &json, &mut ctx.layout);
    ctx.write(&text)
}

/// `benchledger compare`, from its flags.
pub fn run(ctx: &mut Ctx<'_>, args: CompareArgs) -> Result<()> {
    let CompareArgs {
        seat,
        waves,
        rubrics,
        include_withdrawn,
        format,
    } = args;
    compare(
        ctx,
        &seat,
        &waves,
        &rubrics,
        include_withdrawn,
        format.format,
    )
}
