//! `benchledger score`: one wave's leaderboard under one rubric (with `--ci`, each seat's
//! intervals and rank range), built by the library ([`documents::score`]).

use super::Ctx;
use crate::cli::ScoreArgs;
use benchledger_core::documents;
use benchledger_core::error::Result;

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
    let ci = super::ci_of(ci);
    let ledger = ctx.open()?;
    let document = documents::score(
        &ledger,
        &wave,
        &rubric,
        include_withdrawn,
        &super::prices_of(&prices),
        ci,
    )?;
    ctx.write_document(format.format, &document)
}
