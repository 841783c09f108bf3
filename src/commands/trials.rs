//! `benchledger trials` and `benchledger versus`: how sure a wave's numbers are, from its
//! repeated trials and its paired problems ([`documents::trials`], [`documents::versus`],
//! [`documents::versus_all`]).

use super::Ctx;
use crate::cli::{TrialsArgs, VersusArgs};
use benchledger_core::documents;
use benchledger_core::error::Result;

/// `benchledger trials`, from its flags.
pub fn run_trials(ctx: &mut Ctx<'_>, args: TrialsArgs) -> Result<()> {
    let TrialsArgs { wave, k, format } = args;
    let ledger = ctx.open()?;
    let document = documents::trials(&ledger, &wave, &k)?;
    ctx.write_document(format.format, &document)
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
    let document = match (a, b) {
        (Some(a), Some(b)) if !all => {
            documents::versus(&ctx.open()?, &wave, &a, &b, super::ci_of(ci))?
        }
        _ => documents::versus_all(&ctx.open()?, &wave, alpha.unwrap_or(0.05))?,
    };
    ctx.write_document(format.format, &document)
}
