//! `benchledger plan`: power and sample size for comparing two seats, from the wave's own
//! variance (built by the library: [`documents::plan`]).

use super::Ctx;
use crate::cli::PlanArgs;
use benchledger_core::documents;
use benchledger_core::error::Result;

/// `benchledger plan`, from its flags.
pub fn run(ctx: &mut Ctx<'_>, args: PlanArgs) -> Result<()> {
    let PlanArgs {
        wave,
        seat,
        vs,
        delta,
        alpha,
        power,
        format,
    } = args;
    let ledger = ctx.open()?;
    let document = documents::plan(&ledger, &wave, &seat, &vs, delta, alpha, power)?;
    ctx.write_document(format.format, &document)
}
