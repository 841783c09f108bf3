//! `benchledger models`: the shipped model alias table (`benchledger_core::models`).

use super::Ctx;
use crate::cli::ModelsArgs;
use benchledger_core::error::Result;
use benchledger_core::{models, report};

pub fn run(ctx: &mut Ctx<'_>, args: ModelsArgs) -> Result<()> {
    let (table, json) = report::models::list(models::table());
    let text = ctx.render(args.format.format, "models", &table, &json);
    ctx.write(&text)
}
