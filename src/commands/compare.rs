//! `benchledger compare`: one seat across waves, on absolutes only, with the waves' conditions
//! side by side and every difference called out as a confounder (built by the library:
//! [`documents::compare`]).

use super::Ctx;
use crate::cli::CompareArgs;
use benchledger_core::documents;
use benchledger_core::error::Result;

/// `benchledger compare`, from its flags.
pub fn run(ctx: &mut Ctx<'_>, args: CompareArgs) -> Result<()> {
    let CompareArgs {
        seat,
        waves,
        rubrics,
        include_withdrawn,
        format,
    } = args;
    let ledger = ctx.open()?;
    let compared = documents::compare(&ledger, &seat, &waves, &rubrics, include_withdrawn)?;
    let text = crate::terminal::render_comparison(
        &compared.comparison,
        format.format,
        &compared.json,
        &mut ctx.layout,
    );
    ctx.write(&text)
}
