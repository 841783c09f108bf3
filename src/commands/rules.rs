//! `benchledger rules`: submission rules checked (`check`), registered in the ledger as
//! `NAME@VERSION` with their SHA-256 and verbatim text, immutable after (`add`), listed beside
//! those that ship with benchledger (`list`) and printed back (`show`). How `review --rules
//! SPEC` finds the rules it names (a file, registered rules, or shipped rules) is the
//! library's ([`submission::load_rules`]).

use std::path::PathBuf;

use super::{Ctx, files};
use crate::cli::{Format, RulesCommand};
use benchledger_core::digest::{sha256_hex, short};
use benchledger_core::error::{Error, Result};
use benchledger_core::registry;
use benchledger_core::review::submission::{self, LoadedRules};
use benchledger_core::review::{self, render, rules};

/// Whether the ledger `--db` names is there to be read (a server, or a file that exists):
/// `review` needs no ledger, and must not make one.
pub(super) fn ledger_present(ctx: &Ctx<'_>) -> bool {
    let path = ctx.db_path();
    let s = path.to_string_lossy();
    s.starts_with("postgres://") || s.starts_with("postgresql://") || path.is_file()
}

/// `rules check`: each file parsed, and what it checks said in a line per rule.
fn check(ctx: &mut Ctx<'_>, paths: &[PathBuf]) -> Result<()> {
    let mut out = String::new();
    for p in paths {
        let text = files::read_text(p, submission::RULES).map_err(|e| Error::io(p, e))?;
        let r = review::parse_rules(p, &text)?;
        out.push_str(&render::rules(&r, &sha256_hex(text.as_bytes())));
    }
    ctx.write(&out)
}

/// `rules add`: every file checked before any is registered; all registered, or none.
fn add(ctx: &mut Ctx<'_>, paths: &[PathBuf]) -> Result<()> {
    let mut rows = Vec::with_capacity(paths.len());
    for p in paths {
        let text = files::read_text(p, submission::RULES).map_err(|e| Error::io(p, e))?;
        let rules = review::parse_rules(p, &text)?;
        let row = LoadedRules {
            rules,
            sha256: sha256_hex(text.as_bytes()),
            text,
        }
        .row(&ctx.now);
        submission::shipped_conflict(p, &row)?;
        rows.push(row);
    }
    let mut ledger = ctx.open_write()?;
    // Name the file behind a version conflict (the ledger checks again as it writes).
    for (row, p) in rows.iter().zip(paths) {
        if let Some(there) = ledger.rules_row(&row.name, row.version)?
            && there.sha256 != row.sha256
        {
            return Err(Error::Conflict(format!(
                "{}: rules {} are already registered with different text (sha256 {} there, {} \
                 here). Registered rules are immutable: bump `version` in the file to register \
                 the change. Nothing was registered",
                p.display(),
                row.id(),
                short(&there.sha256),
                short(&row.sha256)
            )));
        }
    }
    let added = ledger.add_rules(&rows)?;
    let mut msg = String::new();
    for (row, added) in rows.iter().zip(added) {
        msg.push_str(&if added {
            format!(
                "registered rules {} (sha256 {})\n",
                row.id(),
                short(&row.sha256)
            )
        } else {
            format!(
                "rules {} are already registered with the same text; nothing to do\n",
                row.id()
            )
        });
    }
    ctx.write(&msg)
}

/// `rules list`: registered and shipped rules (the library's [`documents::rules`]); without a
/// ledger, the shipped ones.
fn list(ctx: &mut Ctx<'_>, format: Format) -> Result<()> {
    let ledger = if ledger_present(ctx) {
        Some(ctx.open()?)
    } else {
        None
    };
    let document = benchledger_core::documents::rules(ledger.as_ref())?;
    ctx.write_document(format, &document)
}

/// `rules show`: registered rules' verbatim text, or shipped rules' when none are registered
/// under that name@version.
fn show(ctx: &mut Ctx<'_>, spec: &str) -> Result<()> {
    let Some((name, version)) = registry::split_id(spec) else {
        return Err(Error::Usage(format!(
            "expected rules as NAME@VERSION, like terminal-bench-2@1; got {spec:?}"
        )));
    };
    if ledger_present(ctx)
        && let Some(row) = ctx.open()?.rules_row(name, version)?
    {
        return ctx.write(&render::rules_show(&row));
    }
    match rules::shipped(name, version) {
        Some(text) => ctx.write(&format!(
            "# {spec} · sha256 {} · shipped with benchledger\n{text}{}",
            sha256_hex(text.as_bytes()),
            if text.ends_with('\n') { "" } else { "\n" }
        )),
        None => Err(Error::Usage(format!(
            "no rules {spec} are registered in the ledger or ship with benchledger; \
             `benchledger rules list` names those there are"
        ))),
    }
}

/// `benchledger rules`: its subcommands.
pub fn run(ctx: &mut Ctx<'_>, command: RulesCommand) -> Result<()> {
    match command {
        RulesCommand::Check { files } => check(ctx, &files),
        RulesCommand::Add { files } => add(ctx, &files),
        RulesCommand::List { format } => list(ctx, format.format),
        RulesCommand::Show { rules: spec } => show(ctx, &spec),
    }
}
