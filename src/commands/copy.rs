//! `benchledger copy`: a whole ledger into a new one, on either store (an SQLite file, a
//! PostgreSQL database). The rows go over as they are (`Ledger::copy_to`); this is the glue.

use std::path::Path;

use super::{Ctx, files};
use crate::cli::CopyArgs;
use benchledger_core::error::{Error, Result};
use benchledger_core::ledger::Ledger;

pub fn copy(ctx: &mut Ctx<'_>, from: &Path, to: &Path) -> Result<()> {
    for path in [from, to] {
        if let Some(kind) = files::irregular_at(path) {
            return Err(Error::Usage(format!(
                "{} is {kind}, not a ledger file",
                Ledger::shown(path).display()
            )));
        }
    }
    if from == to {
        return Err(Error::Usage(format!(
            "--from and --to both name {}: copy a ledger into another one",
            Ledger::shown(from).display()
        )));
    }
    let mut src = Ledger::open_for_reading(from)?;
    src.set_wait(ctx.wait())?;
    let (mut dst, created) = Ledger::create(to)?;
    dst.set_wait(ctx.wait())?;
    let copied = match src.copy_to(&dst) {
        Ok(copied) => copied,
        Err(e) => {
            // A file made for the copy is taken away again: nothing is left behind.
            drop(dst);
            if created && to.is_file() {
                for suffix in ["", "-wal", "-shm"] {
                    let mut p = to.as_os_str().to_os_string();
                    p.push(suffix);
                    let _ = std::fs::remove_file(p);
                }
            }
            return Err(e);
        }
    };
    let n = |table: &str| {
        copied
            .iter()
            .find(|(t, _)| *t == table)
            .map_or(0, |(_, n)| *n)
    };
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    ctx.write(&format!(
        "copied {} to {}: {}, {}, {}, {}, {}, {}, {}, {}, {}\n",
        src.path().display(),
        dst.path().display(),
        plural(n("wave"), "wave", "waves"),
        plural(n("seat"), "seat", "seats"),
        plural(n("attempt"), "attempt", "attempts"),
        plural(n("trace_step"), "trace step", "trace steps"),
        plural(n("rubric"), "rubric", "rubrics"),
        plural(n("score"), "stored score", "stored scores"),
        plural(n("price_table"), "price table", "price tables"),
        plural(n("publication"), "publication", "publications"),
        plural(n("withdrawal"), "withdrawal", "withdrawals"),
    ))
}

/// `benchledger copy`, from its flags.
pub fn run(ctx: &mut Ctx<'_>, args: CopyArgs) -> Result<()> {
    copy(ctx, &args.from, &args.to)
}
