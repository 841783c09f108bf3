//! `benchledger prices check | add | list | show`, and pricing a wave with the registered table
//! a command names (`show --prices`, `score --prices`, `publish --prices`).

use std::path::{Path, PathBuf};

use super::{Ctx, files};
use crate::cli::{Format, PricesCommand};
use benchledger_core::digest::sha256_hex;
use benchledger_core::error::{Error, Result};
use benchledger_core::ledger::{PriceTableRow, PricesAdded};
use benchledger_core::prices::{self, PriceTable};
use benchledger_core::registry;
use benchledger_core::report;

/// A price table file's text, parsed.
fn load_file(path: &Path) -> Result<(String, PriceTable)> {
    let text = files::read_text(path, files::PRICES).map_err(|e| Error::io(path, e))?;
    let table = prices::parse(path, &text)?;
    Ok((text, table))
}

/// A note when a price table file is not named `NAME.vVERSION.toml` after what it declares.
fn naming_note(path: &Path, t: &PriceTable) -> Option<String> {
    let expected = format!("{}.v{}.toml", t.name, t.version);
    let actual = path.file_name()?.to_str()?;
    (actual != expected).then(|| {
        format!(
            "the file is named {actual} but declares {}; price table files are named {expected} \
             so a version can be found by its name",
            t.id()
        )
    })
}

pub fn check(ctx: &mut Ctx<'_>, files: &[PathBuf]) -> Result<()> {
    let mut bad = 0;
    // Check every file, even after one that cannot be read.
    for (i, f) in files.iter().enumerate() {
        if i > 0 {
            ctx.write("\n")?;
        }
        match load_file(f) {
            Ok((text, table)) => {
                let notes: Vec<String> = naming_note(f, &table).into_iter().collect();
                ctx.write(&report::prices::check_heading(
                    &f.display().to_string(),
                    &table,
                    &sha256_hex(text.as_bytes()),
                    &notes,
                ))?;
                ctx.write(&crate::terminal::to_text(&report::prices::rows_table(
                    &table,
                )))?;
            }
            Err(e) => {
                bad += 1;
                ctx.write(&format!(
                    "{}: not a valid price table\n  error: {e}\n",
                    f.display()
                ))?;
            }
        }
    }
    if bad > 0 {
        return Err(Error::Usage(format!(
            "{bad} of {} price table file{} could not be read as a price table (see above)",
            files.len(),
            if files.len() == 1 { "" } else { "s" }
        )));
    }
    Ok(())
}

pub fn add(ctx: &mut Ctx<'_>, files: &[PathBuf]) -> Result<()> {
    // Check every file before registering any.
    let mut rows = Vec::with_capacity(files.len());
    for f in files {
        let (text, table) = load_file(f)?;
        rows.push(PriceTableRow {
            name: table.name,
            version: table.version,
            sha256: sha256_hex(text.as_bytes()),
            text,
            added_at: ctx.now.clone(),
        });
    }
    let mut ledger = ctx.open_write()?;
    // Name the file behind a version conflict (the ledger checks again as it writes).
    for (row, f) in rows.iter().zip(files) {
        if let Some(existing) = ledger.price_table(&row.name, row.version)?
            && existing.sha256 != row.sha256
        {
            return Err(Error::Conflict(format!(
                "{}: price table {} is already registered with different text (sha256 {} \
                 there, {} here). A registered version is immutable: bump `version` in the file \
                 to register the change. Nothing was registered",
                f.display(),
                row.id(),
                benchledger_core::digest::short(&existing.sha256),
                benchledger_core::digest::short(&row.sha256)
            )));
        }
    }
    let outcomes = ledger.add_price_tables(&rows)?;
    let mut msg = String::new();
    for (row, outcome) in rows.iter().zip(outcomes) {
        msg.push_str(&match outcome {
            PricesAdded::Added => format!(
                "registered price table {} (sha256 {})\n",
                row.id(),
                benchledger_core::digest::short(&row.sha256)
            ),
            PricesAdded::AlreadyPresent => format!(
                "price table {} is already registered with the same text; nothing to do\n",
                row.id()
            ),
        });
    }
    ctx.write(&msg)
}

pub fn list(ctx: &mut Ctx<'_>, format: Format) -> Result<()> {
    let ledger = ctx.open()?;
    let rows: Vec<_> = ledger
        .price_tables()?
        .into_iter()
        .map(|row| {
            let parsed = registry::parse_price_table(&ledger, &row).ok();
            (row, parsed)
        })
        .collect();
    let (table, json) = report::prices::list(&rows);
    let text = ctx.render(format, "prices", &table, &json);
    ctx.write(&text)
}

pub fn show(ctx: &mut Ctx<'_>, spec: &str) -> Result<()> {
    let ledger = ctx.open()?;
    let row = registry::price_table_row(&ledger, spec)?;
    ctx.write(&report::prices::show(&row))
}

/// `benchledger prices`: its subcommands.
pub fn run(ctx: &mut Ctx<'_>, command: PricesCommand) -> Result<()> {
    match command {
        PricesCommand::Check { files } => check(ctx, &files),
        PricesCommand::Add { files, .. } => add(ctx, &files),
        PricesCommand::List { format } => list(ctx, format.format),
        PricesCommand::Show { prices: spec } => show(ctx, &spec),
    }
}
