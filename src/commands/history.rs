//! `benchledger history`: a registered rubric's stored scores across the waves of the ledger
//! (built by the library: [`documents::history`]).

use super::Ctx;
use crate::cli::HistoryArgs;
use benchledger_core::documents;
use benchledger_core::error::Result;

/// `benchledger history`, from its flags.
pub fn run(ctx: &mut Ctx<'_>, args: HistoryArgs) -> Result<()> {
    let HistoryArgs {
        rubric,
        seat,
        waves,
        include_withdrawn,
        format,
    } = args;
    let ledger = ctx.open()?;
    let document =
        documents::history(&ledger, &rubric, seat.as_deref(), &waves, include_withdrawn)?;
    ctx.write_document(format.format, &document)
}
