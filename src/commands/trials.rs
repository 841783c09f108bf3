//! `benchledger trials` and `benchledger versus`: how sure a wave's numbers are, from its
//! repeated trials and its paired problems.

use super::{Ctx, Withdrawn};
use crate::cli::{CiArgs, Format, TrialsArgs, VersusArgs};
use benchledger_core::error::{Error, Result};
use benchledger_core::report;
use benchledger_core::stats::trials::SeatProblems;
use benchledger_core::stats::versus::{Paired, TieGroups};

pub fn trials(ctx: &mut Ctx<'_>, wave: &str, k: &[u64], format: Format) -> Result<()> {
    if let Some(bad) = k.iter().find(|k| **k == 0) {
        return Err(Error::Usage(format!(
            "--k {bad}: k counts trials, from 1 (e.g. --k 1,2,4)"
        )));
    }
    let ledger = ctx.open()?;
    ledger.load_wave_check(wave)?;
    let data = ledger.load_wave(wave)?;
    let ks = if k.is_empty() {
        let problems: Vec<SeatProblems> = data
            .seats
            .iter()
            .map(|s| SeatProblems::of(&data.wave, &s.attempts))
            .collect();
        report::trials::default_k(&problems)
    } else {
        let mut ks = k.to_vec();
        ks.sort_unstable();
        ks.dedup();
        ks
    };
    let (mut table, json) = report::trials::trials(&data, &ks);
    let withdrawn = Withdrawn::load(&ledger)?;
    let json = report::withdrawn::mark(&mut table, &json, &withdrawn.among([wave]));
    let text = ctx.render(format, "trials", &table, &json);
    ctx.write(&text)
}

pub fn versus(
    ctx: &mut Ctx<'_>,
    wave: &str,
    a: &str,
    b: &str,
    ci: CiArgs,
    format: Format,
) -> Result<()> {
    let settings = super::interval_settings(ci, true)?.unwrap_or_default();
    if a == b {
        return Err(Error::Usage(format!(
            "seat {a} versus itself: name two different seats"
        )));
    }
    let ledger = ctx.open()?;
    ledger.load_wave_check(wave)?;
    let data = ledger.load_wave(wave)?;
    let seat = |id: &str| {
        data.seats.iter().find(|s| s.seat.id == id).ok_or_else(|| {
            Error::Usage(format!(
                "wave {wave} has no seat {id:?}; its seats are: {}",
                data.seats
                    .iter()
                    .map(|s| s.seat.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
    };
    let (sa, sb) = (seat(a)?, seat(b)?);
    let pa = SeatProblems::of(&data.wave, &sa.attempts);
    let pb = SeatProblems::of(&data.wave, &sb.attempts);
    let paired = Paired::of(&pa.attempted, &pb.attempted, &settings);
    let (mut table, json) = report::versus::versus(wave, a, b, &paired, &settings);
    let withdrawn = Withdrawn::load(&ledger)?;
    let json = report::withdrawn::mark(&mut table, &json, &withdrawn.among([wave]));
    let text = ctx.render(format, "versus", &table, &json);
    ctx.write(&text)
}

/// `benchledger trials`, from its flags.
pub fn run_trials(ctx: &mut Ctx<'_>, args: TrialsArgs) -> Result<()> {
    let TrialsArgs { wave, k, format } = args;
    trials(ctx, &wave, &k, format.format)
}

/// `benchledger versus`, from its flags.
pub fn run_versus(ctx: &mut Ctx<'_>, args: VersusArgs) -> Result<()> {
    let VersusArgs {
        wave,
        a,
        b,
        all,
        alpha,
        ci,
        format,
    } = args;
    match (a, b) {
        (Some(a), Some(b)) if !all => versus(ctx, &wave, &a, &b, ci, format.format),
        _ => versus_all(ctx, &wave, alpha.unwrap_or(0.05), format.format),
    }
}

/// `benchledger versus --wave W --all`: every pair of the wave's seats.
pub fn versus_all(ctx: &mut Ctx<'_>, wave: &str, alpha: f64, format: Format) -> Result<()> {
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(Error::Usage(format!(
            "--alpha {alpha}: give the family-wise error rate above 0 and below 1 (e.g. 0.05)"
        )));
    }
    let ledger = ctx.open()?;
    ledger.load_wave_check(wave)?;
    let data = ledger.load_wave(wave)?;
    let groups = TieGroups::of(&data, alpha);
    let (table, json) = report::versus::versus_all(wave, &groups);
    let text = ctx.render(format, "versus", &table, &json);
    ctx.write(&text)
}
