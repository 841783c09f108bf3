//! `benchledger rules`: submission rules checked (`check`), registered in the ledger as
//! `NAME@VERSION` with their SHA-256 and verbatim text, immutable after (`add`), listed beside
//! those that ship with benchledger (`list`) and printed back (`show`); and how `review
//! --rules SPEC` finds the rules it names: a file, registered rules, or shipped rules.

use std::path::{Path, PathBuf};

use super::{Ctx, files};
use crate::cli::{Format, RulesCommand};
use benchledger_core::digest::{sha256_hex, short};
use benchledger_core::error::{Error, Result};
use benchledger_core::ledger::RulesRow;
use benchledger_core::registry;
use benchledger_core::review::{self, Rules, render, rules};

/// A rules file, read whole.
pub(super) const RULES: files::Cap = files::Cap {
    bytes: 16 * 1024 * 1024,
    what: "a rules file",
    advice: "check the path",
};

/// Rules as a review runs under them: parsed, with their text and where it came from.
pub(super) struct Loaded {
    pub(super) rules: Rules,
    pub(super) text: String,
    pub(super) sha256: String,
}

/// Whether the ledger `--db` names is there to be read (a server, or a file that exists):
/// `review` needs no ledger, and must not make one.
fn ledger_present(ctx: &Ctx<'_>) -> bool {
    let path = ctx.db_path();
    let s = path.to_string_lossy();
    s.starts_with("postgres://") || s.starts_with("postgresql://") || path.is_file()
}

/// The rules `spec` names: a file; else `NAME@VERSION` registered in the ledger; else shipped
/// with benchledger. Their text, and the path errors name.
fn rules_text(ctx: &Ctx<'_>, spec: &str) -> Result<(PathBuf, String)> {
    let path = Path::new(spec);
    let Some((name, version)) = registry::split_id(spec).filter(|_| !path.exists()) else {
        let text = files::read_text(path, RULES).map_err(|e| Error::io(path, e))?;
        return Ok((path.to_path_buf(), text));
    };
    let mut registered = Vec::new();
    if ledger_present(ctx) {
        let ledger = ctx.open()?;
        if let Some(row) = ledger.rules_row(name, version)? {
            return Ok((
                PathBuf::from(format!(
                    "rules {spec} registered in {}",
                    ledger.path().display()
                )),
                row.text,
            ));
        }
        registered = ledger.rules_rows()?.iter().map(RulesRow::id).collect();
    }
    if let Some(text) = rules::shipped(name, version) {
        return Ok((
            PathBuf::from(format!("shipped rules {spec}")),
            text.to_string(),
        ));
    }
    let shipped: Vec<String> = rules::SHIPPED
        .iter()
        .map(|(n, v, _)| format!("{n}@{v}"))
        .collect();
    let registered = if registered.is_empty() {
        "none are registered in the ledger".to_string()
    } else {
        format!("the ledger has {}", registered.join(", "))
    };
    Err(Error::Usage(format!(
        "--rules {spec}: no file is at that path, no rules {spec} are registered ({registered}), \
         and none ship with benchledger under that name (they are {}). Register a rules file \
         with `benchledger rules add FILE`, or give its path",
        shipped.join(", ")
    )))
}

/// Reads and parses the rules `spec` names ([`rules_text`]).
pub(super) fn load(ctx: &Ctx<'_>, spec: &str) -> Result<Loaded> {
    let (path, text) = rules_text(ctx, spec)?;
    let rules = review::parse_rules(&path, &text)?;
    Ok(Loaded {
        rules,
        sha256: sha256_hex(text.as_bytes()),
        text,
    })
}

/// The row registering `loaded` now.
pub(super) fn row(loaded: &Loaded, now: &str) -> RulesRow {
    RulesRow {
        name: loaded.rules.name.clone(),
        version: loaded.rules.version,
        sha256: loaded.sha256.clone(),
        text: loaded.text.clone(),
        added_at: now.to_string(),
    }
}

/// Rules that claim a shipped name@version with other text: refused, so a name that ships
/// means the same text in every ledger.
pub(super) fn shipped_conflict(origin: &Path, row: &RulesRow) -> Result<()> {
    match rules::shipped(&row.name, row.version) {
        Some(text) if sha256_hex(text.as_bytes()) != row.sha256 => Err(Error::Conflict(format!(
            "{}: rules {} ship with benchledger with other text (sha256 {} shipped, {} \
                 here); give your own rules another name, or a version of their own. Nothing \
                 was registered",
            origin.display(),
            row.id(),
            short(&sha256_hex(text.as_bytes())),
            short(&row.sha256)
        ))),
        _ => Ok(()),
    }
}

/// `rules check`: each file parsed, and what it checks said in a line per rule.
fn check(ctx: &mut Ctx<'_>, paths: &[PathBuf]) -> Result<()> {
    let mut out = String::new();
    for p in paths {
        let text = files::read_text(p, RULES).map_err(|e| Error::io(p, e))?;
        let r = review::parse_rules(p, &text)?;
        out.push_str(&render::rules(&r, &sha256_hex(text.as_bytes())));
    }
    ctx.write(&out)
}

/// `rules add`: every file checked before any is registered; all registered, or none.
fn add(ctx: &mut Ctx<'_>, paths: &[PathBuf]) -> Result<()> {
    let mut rows = Vec::with_capacity(paths.len());
    for p in paths {
        let text = files::read_text(p, RULES).map_err(|e| Error::io(p, e))?;
        let rules = review::parse_rules(p, &text)?;
        let row = row(
            &Loaded {
                rules,
                sha256: sha256_hex(text.as_bytes()),
                text,
            },
            &ctx.now,
        );
        shipped_conflict(p, &row)?;
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
