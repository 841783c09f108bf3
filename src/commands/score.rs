//! `benchledger score`: one wave's leaderboard under one rubric.

use super::rubric::resolve;
use super::{Ctx, Withdrawn};
use crate::cli::Format;
use crate::error::Result;
use crate::report;
use crate::rubric::score_wave;

pub fn score(
    ctx: &mut Ctx<'_>,
    wave: &str,
    rubric: &str,
    include_withdrawn: bool,
    format: Format,
) -> Result<()> {
    let ledger = ctx.open()?;
    let info = resolve(&ledger, rubric)?;
    let withdrawn = Withdrawn::load(&ledger)?;
    ledger.load_wave_check(wave)?;
    withdrawn.check_named(wave, include_withdrawn)?;
    let data = ledger.load_wave(wave)?;
    let scores = score_wave(&info.rubric, &data);
    let (mut table, json) = report::score::leaderboard(&data, &info, &scores);
    let json = report::withdrawn::mark(&mut table, &json, &withdrawn.among([wave]));
    ctx.write(&report::render(format, "score", &table, &json))
}
