//! `benchledger waves` and `benchledger show`.

use super::Ctx;
use crate::cli::{Format, ShowArgs, WavesArgs};
use benchledger_core::documents;
use benchledger_core::error::Result;
use benchledger_core::report;

pub fn waves(ctx: &mut Ctx<'_>, format: Format) -> Result<()> {
    let ledger = ctx.open()?;
    let (table, json) = report::waves::listing(&ledger)?;
    let text = ctx.render(format, "waves", &table, &json);
    ctx.write(&text)
}

/// `benchledger waves`, from its flags.
pub fn run_waves(ctx: &mut Ctx<'_>, args: WavesArgs) -> Result<()> {
    waves(ctx, args.format.format)
}

/// `benchledger show`, from its flags: the library's [`documents::show`].
pub fn run_show(ctx: &mut Ctx<'_>, args: ShowArgs) -> Result<()> {
    let ShowArgs {
        wave,
        prices,
        ci,
        format,
    } = args;
    let ci = super::ci_of(ci);
    let ledger = ctx.open()?;
    let document = documents::show(&ledger, &wave, &super::prices_of(&prices), ci)?;
    ctx.write_document(format.format, &document)
}
