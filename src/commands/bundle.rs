//! `benchledger bundle`: a self-contained reproduction bundle of a publication, which
//! `verify --bundle` checks on any machine. The library writes it
//! ([`benchledger_core::publication::bundle_write`]) and reads it back
//! ([`benchledger_core::publication::bundle`]).

use std::path::Path;

use super::Ctx;
use crate::cli::BundleArgs;
use benchledger_core::error::Result;
use benchledger_core::publication::bundle_write;

pub fn bundle(ctx: &mut Ctx<'_>, id: i64, out: &Path) -> Result<()> {
    let ledger = ctx.open()?;
    bundle_write::publication(&ledger, id, out)?;
    ctx.write(&format!(
        "bundle of publication #{id} written to {}: check it with `benchledger verify --bundle {}`\n",
        out.display(),
        out.display()
    ))
}

/// `benchledger bundle`, from its flags.
pub fn run(ctx: &mut Ctx<'_>, args: BundleArgs) -> Result<()> {
    bundle(ctx, args.id, &args.out)
}
