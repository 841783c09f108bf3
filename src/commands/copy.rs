//! `benchledger copy`: a whole ledger into a new one, on either store (an SQLite file, a
//! PostgreSQL database). The library copies it (`ledger::copy::whole`); this says what went
//! over.

use std::path::Path;

use super::Ctx;
use crate::cli::CopyArgs;
use benchledger_core::error::Result;
use benchledger_core::ledger::{Ledger, copy};

pub fn copy(ctx: &mut Ctx<'_>, from: &Path, to: &Path) -> Result<()> {
    let (source, copied) = copy::whole(from, to, &|| ctx.wait())?;
    let n = |table: &str| {
        copied
            .iter()
            .find(|(t, _)| *t == table)
            .map_or(0, |(_, n)| *n)
    };
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    ctx.write(&format!(
        "copied {} to {}: {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}\n",
        source.display(),
        Ledger::shown(to).display(),
        plural(n("wave"), "wave", "waves"),
        plural(n("seat"), "seat", "seats"),
        plural(n("attempt"), "attempt", "attempts"),
        plural(n("trace_step"), "trace step", "trace steps"),
        plural(
            n("attempt_text"),
            "attempt with texts",
            "attempts with texts"
        ),
        plural(n("rubric"), "rubric", "rubrics"),
        plural(n("score"), "stored score", "stored scores"),
        plural(n("price_table"), "price table", "price tables"),
        plural(n("publication"), "publication", "publications"),
        plural(n("withdrawal"), "withdrawal", "withdrawals"),
        plural(n("wave_review"), "review", "reviews"),
        plural(n("chain_entry"), "log entry", "log entries"),
    ))
}

/// `benchledger copy`, from its flags.
pub fn run(ctx: &mut Ctx<'_>, args: CopyArgs) -> Result<()> {
    copy(ctx, &args.from, &args.to)
}
