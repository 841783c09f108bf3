//! `benchledger waves` and `benchledger show`.

use super::Ctx;
use crate::cli::{Format, PricesArg};
use crate::error::Result;
use crate::report;

pub fn waves(ctx: &mut Ctx<'_>, format: Format) -> Result<()> {
    let ledger = ctx.open()?;
    let rows = ledger.waves()?;
    let (mut table, json) = report::waves::waves(&rows);
    let withdrawn = super::Withdrawn::load(&ledger)?;
    let json = report::withdrawn::mark(
        &mut table,
        &json,
        &withdrawn.among(rows.iter().map(|r| r.wave.id.as_str())),
    );
    let text = ctx.render(format, "waves", &table, &json);
    ctx.write(&text)
}

pub fn show(ctx: &mut Ctx<'_>, wave: &str, prices: &PricesArg, format: Format) -> Result<()> {
    let ledger = ctx.open()?;
    let mut data = ledger.load_wave(wave)?;
    let pricing = super::prices::apply(&ledger, prices, &mut data)?;
    let (mut table, json) = report::waves::show(&data);
    let json = report::prices::mark(&mut table, &json, pricing.as_ref());
    let withdrawn = super::Withdrawn::load(&ledger)?;
    let json = report::withdrawn::mark(&mut table, &json, &withdrawn.among([wave]));
    let text = ctx.render(format, "show", &table, &json);
    ctx.write(&text)
}
