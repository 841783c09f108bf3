//! `benchledger waves` and `benchledger show`.

use super::Ctx;
use crate::cli::{CiArgs, Format, PricesArg, ShowArgs, WavesArgs};
use benchledger_core::error::Result;
use benchledger_core::report;

pub fn waves(ctx: &mut Ctx<'_>, format: Format) -> Result<()> {
    let ledger = ctx.open()?;
    let (table, json) = report::waves::listing(&ledger)?;
    let text = ctx.render(format, "waves", &table, &json);
    ctx.write(&text)
}

pub fn show(
    ctx: &mut Ctx<'_>,
    wave: &str,
    prices: &PricesArg,
    ci: CiArgs,
    format: Format,
) -> Result<()> {
    let settings = super::interval_settings(ci, false)?;
    let ledger = ctx.open()?;
    let mut data = ledger.load_wave(wave)?;
    let pricing = super::prices::apply(&ledger, prices, &mut data)?;
    let intervals = settings
        .map(|s| benchledger_core::stats::leaderboard::wave_intervals(&data, None, &s))
        .transpose()?;
    let (mut table, mut json) = report::waves::show_with(&data, intervals.as_ref());
    if intervals.is_some() {
        let groups = benchledger_core::stats::versus::TieGroups::of(&data, report::groups::ALPHA);
        report::waves::add_groups(&mut table, &mut json, &groups);
    }
    let json = report::prices::mark(&mut table, &json, pricing.as_ref());
    let json = report::intervals::caution(&mut table, &json, intervals.as_ref());
    let withdrawn = super::Withdrawn::load(&ledger)?;
    let json = report::withdrawn::mark(&mut table, &json, &withdrawn.among([wave]));
    let text = ctx.render(format, "show", &table, &json);
    ctx.write(&text)
}

/// `benchledger waves`, from its flags.
pub fn run_waves(ctx: &mut Ctx<'_>, args: WavesArgs) -> Result<()> {
    waves(ctx, args.format.format)
}

/// `benchledger show`, from its flags.
pub fn run_show(ctx: &mut Ctx<'_>, args: ShowArgs) -> Result<()> {
    let ShowArgs {
        wave,
        prices,
        ci,
        format,
    } = args;
    show(ctx, &wave, &prices, ci, format.format)
}
