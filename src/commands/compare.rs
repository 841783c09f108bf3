//! `benchledger compare`: one seat across waves, on absolutes only.

use super::Ctx;
use crate::cli::Format;
use crate::error::{Error, Result};

pub fn compare(
    _ctx: &mut Ctx<'_>,
    _seat: &str,
    _waves: &[String],
    _rubrics: &[String],
    _format: Format,
) -> Result<()> {
    Err(Error::Usage("compare is not built yet".into()))
}
