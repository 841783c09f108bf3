//! `benchledger score`: one wave's leaderboard under one rubric (with `--ci`, each seat's
//! intervals and rank range).

use super::rubric::resolve;
use super::{Ctx, Withdrawn};
use crate::cli::{CiArgs, Format, PricesArg, ScoreArgs};
use benchledger_core::error::Result;
use benchledger_core::report;
use benchledger_core::rubric::score_wave;
use benchledger_core::stats::leaderboard::wave_intervals;
use benchledger_core::stats::versus::TieGroups;

pub fn score(
    ctx: &mut Ctx<'_>,
    wave: &str,
    rubric: &str,
    include_withdrawn: bool,
    prices: &PricesArg,
    ci: CiArgs,
    format: Format,
) -> Result<()> {
    let settings = super::interval_settings(ci, false)?;
    let ledger = ctx.open()?;
    let info = resolve(&ledger, rubric)?;
    let withdrawn = Withdrawn::load(&ledger)?;
    ledger.load_wave_check(wave)?;
    withdrawn.check_named(wave, include_withdrawn)?;
    let mut data = ledger.load_wave(wave)?;
    // Costs are filled in before scoring, so Cost-of-Pass and every measure that reads cost
    // see the table's.
    let pricing = super::prices::apply(&ledger, prices, &mut data)?;
    let scores = score_wave(&info.rubric, &data);
    let intervals = settings
        .map(|s| wave_intervals(&data, Some(&info.rubric), &s))
        .transpose()?;
    let (mut table, mut json) =
        report::score::leaderboard_with(&data, &info, &scores, intervals.as_ref());
    if intervals.is_some() {
        let groups = TieGroups::of(&data, report::groups::ALPHA);
        report::score::add_groups(&mut table, &mut json, &groups);
    }
    let json = report::prices::mark(&mut table, &json, pricing.as_ref());
    let json = report::intervals::caution(&mut table, &json, intervals.as_ref());
    let json = report::withdrawn::mark(&mut table, &json, &withdrawn.among([wave]));
    let text = ctx.render(format, "score", &table, &json);
    ctx.write(&text)
}

/// `benchledger score`, from its flags.
pub fn run(ctx: &mut Ctx<'_>, args: ScoreArgs) -> Result<()> {
    let ScoreArgs {
        wave,
        rubric,
        include_withdrawn,
        prices,
        ci,
        format,
    } = args;
    score(
        ctx,
        &wave,
        &rubric,
        include_withdrawn,
        &prices,
        ci,
        format.format,
    )
}
