//! `benchledger withdraw`: take a wave off the leaderboards without rewriting history. A
//! withdrawal is appended to the chain; nothing is deleted or changed.

use super::Ctx;
use crate::cli::WithdrawArgs;
use benchledger_core::digest::short;
use benchledger_core::error::{Error, Result};

pub fn withdraw(ctx: &mut Ctx<'_>, wave: &str, reason: &str) -> Result<()> {
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(Error::Usage(
            "--reason is empty: say why the wave is withdrawn (a wrong budget, a broken harness, \
             ...); the reason is kept in the chain"
                .into(),
        ));
    }
    let mut ledger = ctx.open_write()?;
    let (row, head) = ledger.withdraw_wave(wave, reason, &ctx.now)?;
    ctx.write(&format!(
        "withdrew wave {}: {}\n  record sha256 {}{}\n  chain head    {head} (keep it outside the \
         ledger: `verify --expect-head`)\n  it is left out of score, rescore, history, diff and \
         compare (--include-withdrawn shows it); its publications still verify\n",
        row.wave,
        row.reason,
        row.sha256,
        match &row.prev_sha256 {
            Some(p) => format!(" (chained to {})", short(p)),
            None => " (first in the chain)".into(),
        }
    ))
}

/// `benchledger withdraw`, from its flags.
pub fn run(ctx: &mut Ctx<'_>, args: WithdrawArgs) -> Result<()> {
    withdraw(ctx, &args.wave, &args.reason)
}
