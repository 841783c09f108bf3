//! `benchledger rules`: submission rules checked (`check`), registered in the ledger as
//! `NAME@VERSION` with their SHA-256 and verbatim text, immutable after (`add`), listed beside
//! those that ship with benchledger (`list`) and printed back (`show`). How `review --rules
//! SPEC` finds the rules it names (a file, registered rules, or shipped rules) is the
//! library's ([`submission::load_rules`]).

use std::path::{Path, PathBuf};

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

/// `rules list`: registered and shipped rules, by name then version, with how many waves a
/// review under each let in.
fn list(ctx: &mut Ctx<'_>, format: Format) -> Result<()> {
    let (registered, reviews) = if ledger_present(ctx) {
        let ledger = ctx.open()?;
        (ledger.rules_rows()?, ledger.reviews()?)
    } else {
        (Vec::new(), Vec::new())
    };
    let waves = |sha: &str| {
        let mut w: Vec<&str> = reviews
            .iter()
            .filter(|r| r.rules_sha256 == sha)
            .map(|r| r.wave.as_str())
            .collect();
        w.dedup();
        w.len() as u64
    };
    let description = |text: &str| {
        review::parse_rules(Path::new("rules"), text)
            .ok()
            .and_then(|r| r.description)
    };
    let mut rows: Vec<render::Listed> = registered
        .iter()
        .map(|r| render::Listed {
            name: r.name.clone(),
            version: r.version,
            sha256: r.sha256.clone(),
            description: description(&r.text),
            added_at: Some(r.added_at.clone()),
            shipped: rules::shipped(&r.name, r.version).is_some(),
            waves: waves(&r.sha256),
        })
        .collect();
    for (name, version, text) in rules::SHIPPED {
        if !registered
            .iter()
            .any(|r| r.name == *name && r.version == *version)
        {
            let sha256 = sha256_hex(text.as_bytes());
            rows.push(render::Listed {
                name: name.to_string(),
                version: *version,
                waves: waves(&sha256),
                sha256,
                description: description(text),
                added_at: None,
                shipped: true,
            });
        }
    }
    rows.sort_by(|a, b| (&a.name, a.version).cmp(&(&b.name, b.version)));
    let (table, json) = render::rules_list(&rows);
    let text = ctx.render(format, "rules", &table, &json);
    ctx.write(&text)
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
