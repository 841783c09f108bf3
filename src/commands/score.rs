//! `benchledger score`: one wave's leaderboard under one rubric.

use super::rubric::resolve;
use super::{Ctx, Withdrawn};
use crate::cli::{Format, PricesArg};
use crate::error::Result;
use crate::report;
use crate::rubric::score_wave;

pub fn score(
    ctx: &mut Ctx<'_>,
    wave: &str,
    rubric: &str,
    include_withdrawn: bool,
    prices: &PricesArg,
    format: Format,
) -> Result<()> {
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
    let (mut table, json) = report::score::leaderboard(&data, &info, &scores);
    let json = report::prices::mark(&mut table, &json, pricing.as_ref());
    let json = report::withdrawn::mark(&mut table, &json, &withdrawn.among([wave]));
    let text = ctx.render(format, "score", &table, &json);
    ctx.write(&text)
}
