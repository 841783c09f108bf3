//! `benchledger rubric check | add | list | show`, and resolving the rubric a command names.

use std::path::{Path, PathBuf};

use super::{Ctx, files};
use crate::cli::{Format, RubricCommand};
use benchledger_core::digest::sha256_hex;
use benchledger_core::error::{Error, Result};
use benchledger_core::ledger::{RubricAdded, RubricRow};
use benchledger_core::registry::{self, split_id};
use benchledger_core::report;
use benchledger_core::rubric::{self, Rubric};

/// A rubric file's text, parsed and checked.
struct Loaded {
    text: String,
    rubric: Rubric,
    report: rubric::CheckReport,
}

fn load_file(path: &Path) -> Result<Loaded> {
    // The shipped accuracy rubric is found by its name where no file has it (as `resolve`
    // finds it), so the advice to register it, `rubric add accuracy@1`, works without the
    // source tree's rubrics/.
    let shipped = rubric::accuracy();
    let text = if !path.exists() && path.to_str() == Some(shipped.rubric.id().as_str()) {
        rubric::ACCURACY_TEXT.to_owned()
    } else {
        files::read_text(path, files::RUBRIC).map_err(|e| Error::io(path, e))?
    };
    let parsed = rubric::parse(path, &text)?;
    let report = rubric::check(&parsed);
    Ok(Loaded {
        text,
        rubric: parsed,
        report,
    })
}

// What `--rubric` names, a rubric file or a registered NAME@VERSION, resolved by the library.
pub use benchledger_core::registry::resolve;

/// A note when a rubric file is not named `NAME.vVERSION.toml` after what it declares.
fn naming_note(path: &Path, r: &Rubric) -> Option<String> {
    let expected = format!("{}.v{}.toml", r.name, r.version);
    let actual = path.file_name()?.to_str()?;
    (actual != expected).then(|| {
        format!(
            "the file is named {actual} but declares {}; rubric files are named {expected} so \
             a version can be found by its name",
            r.id()
        )
    })
}

pub fn check(ctx: &mut Ctx<'_>, files: &[PathBuf]) -> Result<()> {
    let mut failed = Vec::new();
    let mut unreadable = 0;
    // Check every file, even after one that cannot be read.
    for f in files {
        let mut l = match load_file(f) {
            Ok(l) => l,
            Err(e) => {
                unreadable += 1;
                ctx.write(&format!(
                    "{}: cannot be checked\n  error: {e}\n",
                    f.display()
                ))?;
                continue;
            }
        };
        if f.exists() {
            l.report.warnings.extend(naming_note(f, &l.rubric));
        }
        ctx.write(&report::rubric::check_text(
            &f.display().to_string(),
            &l.rubric,
            &l.report,
        ))?;
        if !l.report.ok() {
            failed.push(l.rubric.id());
        }
    }
    if unreadable > 0 {
        return Err(Error::Usage(format!(
            "{unreadable} of {} rubric file{} could not be checked (see above)",
            files.len(),
            if files.len() == 1 { "" } else { "s" }
        )));
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(Error::CheckFailed(format!(
            "{} can leave {} declared scale (see above)",
            failed.join(", "),
            if failed.len() == 1 { "its" } else { "their" }
        )))
    }
}

pub fn add(ctx: &mut Ctx<'_>, files: &[PathBuf], allow_scale_violation: bool) -> Result<()> {
    // Check every file before registering any.
    let mut rows = Vec::new();
    for f in files {
        let l = load_file(f)?;
        if !l.report.ok() && !allow_scale_violation {
            return Err(Error::Usage(format!(
                "{}: {} fails `rubric check`: {}. Fix the rubric, or register it anyway with \
                 --allow-scale-violation to reproduce historical numbers (it will be marked as \
                 such wherever it is shown)",
                f.display(),
                l.rubric.id(),
                l.report.violations.join("; ")
            )));
        }
        rows.push(RubricRow {
            name: l.rubric.name.clone(),
            version: l.rubric.version,
            sha256: sha256_hex(l.text.as_bytes()),
            text: l.text,
            scale_violation: !l.report.ok(),
            added_at: ctx.now.clone(),
        });
    }
    let mut ledger = ctx.open_write()?;
    // Name the file behind a version conflict (the ledger checks again as it writes).
    for (row, f) in rows.iter().zip(files) {
        if let Some(existing) = ledger.rubric(&row.name, row.version)?
            && existing.sha256 != row.sha256
        {
            return Err(Error::Conflict(format!(
                "{}: {} is already registered with different text (sha256 {} there, {} here). A \
                 registered version is immutable: bump `version` in the file to register the \
                 change. Nothing was registered",
                f.display(),
                row.id(),
                benchledger_core::digest::short(&existing.sha256),
                benchledger_core::digest::short(&row.sha256)
            )));
        }
    }
    let outcomes = ledger.add_rubrics(&rows)?;
    let mut msg = String::new();
    for (row, outcome) in rows.iter().zip(outcomes) {
        match outcome {
            RubricAdded::Added => msg.push_str(&format!(
                "registered {} (sha256 {}){}\n",
                row.id(),
                benchledger_core::digest::short(&row.sha256),
                if row.scale_violation {
                    " — marked: its score can leave its scale"
                } else {
                    ""
                }
            )),
            RubricAdded::AlreadyPresent => msg.push_str(&format!(
                "{} is already registered with the same text; nothing to do\n",
                row.id()
            )),
        }
    }
    ctx.write(&msg)
}

pub fn list(ctx: &mut Ctx<'_>, format: Format) -> Result<()> {
    let ledger = ctx.open()?;
    let rows: Vec<_> = ledger
        .rubrics()?
        .into_iter()
        .map(|row| {
            let parsed = registry::parse_rubric(&ledger, &row).ok();
            (row, parsed)
        })
        .collect();
    let (table, json) = report::rubric::list(&rows);
    let text = ctx.render(format, "rubrics", &table, &json);
    ctx.write(&text)
}

pub fn show(ctx: &mut Ctx<'_>, spec: &str) -> Result<()> {
    let ledger = ctx.open()?;
    let Some((name, version)) = split_id(spec) else {
        return Err(Error::Usage(format!(
            "expected NAME@VERSION, like session-efficiency@2; got {spec:?}"
        )));
    };
    let row = registry::rubric_row(&ledger, name, version)?;
    ctx.write(&report::rubric::show(&row))
}

/// `benchledger rubric`: its subcommands.
pub fn run(ctx: &mut Ctx<'_>, command: RubricCommand) -> Result<()> {
    match command {
        RubricCommand::Check { files } => check(ctx, &files),
        RubricCommand::Add {
            files,
            allow_scale_violation,
            ..
        } => add(ctx, &files, allow_scale_violation),
        RubricCommand::List { format } => list(ctx, format.format),
        RubricCommand::Show { rubric } => show(ctx, &rubric),
    }
}
