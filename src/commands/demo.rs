//! `benchledger demo`: a guided tour on the shipped examples.

use super::Ctx;
use crate::error::Result;

pub fn demo(ctx: &mut Ctx<'_>) -> Result<()> {
    ctx.write("demo: not yet\n")
}
