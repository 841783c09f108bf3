//! `benchledger rescore` and `benchledger diff`: auditing a rubric change across history.

use super::Ctx;
use crate::cli::Format;
use crate::error::{Error, Result};

pub fn rescore(_ctx: &mut Ctx<'_>, _rubric: &str, _waves: &[String]) -> Result<()> {
    Err(Error::Usage("rescore is not built yet".into()))
}

pub fn diff(
    _ctx: &mut Ctx<'_>,
    _old: &str,
    _new: &str,
    _waves: &[String],
    _format: Format,
) -> Result<()> {
    Err(Error::Usage("diff is not built yet".into()))
}
