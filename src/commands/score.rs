//! `benchledger score`: one wave's leaderboard under one rubric.

use super::Ctx;
use super::rubric::resolve;
use crate::cli::Format;
use crate::error::Result;
use crate::report;
use crate::rubric::score_wave;

pub fn score(ctx: &mut Ctx<'_>, wave: &str, rubric: &str, format: Format) -> Result<()> {
    let ledger = ctx.open()?;
    let info = resolve(&ledger, rubric)?;
    let data = ledger.load_wave(wave)?;
    let scores = score_wave(&info.rubric, &data);
    let (table, json) = report::score::leaderboard(&data, &info, &scores);
    ctx.write(&report::render(format, "score", &table, &json))
}
