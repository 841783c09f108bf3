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
    // A new SQLite file is written under a name of its own beside the destination and linked
    // into place only once whole, so a copy killed half way leaves no ledger at the
    // destination (an empty one there would verify).
    let staged = staging_name(to);
    let made_at = staged.as_deref().unwrap_or(to);
    let (mut dst, created) = Ledger::create(made_at)?;
    dst.set_wait(ctx.wait())?;
    let copied = match src.copy_to(&dst) {
        Ok(copied) => copied,
        Err(e) => {
            // A file made for the copy is taken away again: nothing is left behind.
            drop(dst);
            if created && made_at.is_file() {
                remove_ledger_file(made_at);
            }
            return Err(e);
        }
    };
    drop(dst);
    if let Some(staged) = &staged {
        // A link, not a rename: it never replaces a ledger that appeared meanwhile.
        let linked = std::fs::hard_link(staged, to);
        remove_ledger_file(staged);
        linked.map_err(|e| Error::io(to, e))?;
    }
    let n = |table: &str| {
        copied
            .iter()
            .find(|(t, _)| *t == table)
            .map_or(0, |(_, n)| *n)
    };
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    ctx.write(&format!(
        "copied {} to {}: {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}\n",
        src.path().display(),
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

/// Where a new SQLite destination is written before it is linked into place: a hidden name
/// beside it, this process's own. `None` for a server's database, or a file already there.
fn staging_name(to: &Path) -> Option<std::path::PathBuf> {
    if Ledger::on_a_server(to) || std::fs::symlink_metadata(to).is_ok() {
        return None;
    }
    let name = to.file_name()?.to_string_lossy();
    Some(to.with_file_name(format!(".{name}.copying-{}", std::process::id())))
}

/// Removes an SQLite file and its journal files, if there.
fn remove_ledger_file(path: &Path) {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let mut p = path.as_os_str().to_os_string();
        p.push(suffix);
        let _ = std::fs::remove_file(p);
    }
}

/// `benchledger copy`, from its flags.
pub fn run(ctx: &mut Ctx<'_>, args: CopyArgs) -> Result<()> {
    copy(ctx, &args.from, &args.to)
}
