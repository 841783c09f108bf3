//! `benchledger publish`, `publications`, `verify` and `bundle`: frozen, reproducible
//! leaderboards.

use std::path::Path;

use super::Ctx;
use crate::cli::Format;
use crate::error::{Error, Result};

pub fn publish(
    _ctx: &mut Ctx<'_>,
    _wave: &str,
    _rubric: &str,
    _title: Option<&str>,
    _bundle: Option<&Path>,
) -> Result<()> {
    Err(Error::Usage("publish is not built yet".into()))
}

pub fn publications(_ctx: &mut Ctx<'_>, _format: Format) -> Result<()> {
    Err(Error::Usage("publications is not built yet".into()))
}

pub fn verify(_ctx: &mut Ctx<'_>, _ids: &[i64], _all: bool, _bundle: Option<&Path>) -> Result<()> {
    Err(Error::Usage("verify is not built yet".into()))
}

pub fn bundle(_ctx: &mut Ctx<'_>, _id: i64, _out: &Path) -> Result<()> {
    Err(Error::Usage("bundle is not built yet".into()))
}
