//! `benchledger review` and `benchledger rules`: a submission reviewed under declared rules
//! (the library's `review`, which reads and never writes), printed as text, Markdown or JSON;
//! with `--ingest`, an accepted submission added as `ingest --from` adds it.

use std::path::{Path, PathBuf};

use super::{Ctx, files, ingest};
use crate::cli::{ReviewArgs, ReviewFormat, RulesCommand};
use benchledger_core::error::{Error, Result};
use benchledger_core::ingest::Source;
use benchledger_core::ingest::from::FromOptions;
use benchledger_core::registry;
use benchledger_core::review::{self, Request, Rules, Verdict, render, rules};

/// A rules file, read whole.
const RULES: files::Cap = files::Cap {
    bytes: 16 * 1024 * 1024,
    what: "a rules file",
    advice: "check the path",
};

/// The rules `spec` names: a file, or shipped rules `NAME@VERSION`. Their text, and the path
/// errors name.
fn rules_text(spec: &str) -> Result<(PathBuf, String)> {
    let path = Path::new(spec);
    if let Some((name, version)) = registry::split_id(spec)
        && !path.exists()
    {
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
        return Err(Error::Usage(format!(
            "--rules {spec}: no rules {spec} ship with benchledger (they are {}), and no file \
             is at that path",
            shipped.join(", ")
        )));
    }
    let text = files::read_text(path, RULES).map_err(|e| Error::io(path, e))?;
    Ok((path.to_path_buf(), text))
}

/// Reads and parses the rules `spec` names, with the SHA-256 of their text.
fn load_rules(spec: &str) -> Result<(Rules, String)> {
    let (path, text) = rules_text(spec)?;
    let parsed = review::parse_rules(&path, &text)?;
    Ok((
        parsed,
        benchledger_core::digest::sha256_hex(text.as_bytes()),
    ))
}

/// The format of a submission given without --from: a Harbor job's directory, or Inspect
/// logs.
fn sniff(src: &dyn Source, paths: &[PathBuf]) -> Result<String> {
    for p in paths {
        if src.is_file(&p.join("result.json")) && src.is_file(&p.join("config.json")) {
            return Ok("harbor".into());
        }
        let eval = |q: &Path| q.extension().is_some_and(|e| e == "eval");
        if eval(p)
            || src
                .list(p)
                .ok()
                .flatten()
                .is_some_and(|entries| entries.iter().any(|q| eval(q)))
        {
            return Ok("inspect".into());
        }
    }
    let looks = paths
        .iter()
        .find_map(|p| benchledger_core::import::sniff::sniff(src, p))
        .map(|f| format!(" (this looks like {f}: use --from {f})"))
        .unwrap_or_default();
    Err(Error::Usage(format!(
        "say which format the submission is in with --from FORMAT{looks}; without it, a review \
         reads a Harbor job directory or Inspect logs (the formats are those of `ingest --from`)"
    )))
}

pub fn run(ctx: &mut Ctx<'_>, args: ReviewArgs) -> Result<()> {
    let (rules, sha256) = load_rules(&args.rules)?;
    let claims = args
        .claims
        .as_deref()
        .map(|p| {
            files::read_text(p, super::claims::CLAIMS)
                .map(|t| (p.to_path_buf(), t))
                .map_err(|e| Error::io(p, e))
        })
        .transpose()?;
    let ledger = if args.against.is_some() || args.prices.is_some() {
        Some(ctx.open()?)
    } else {
        None
    };
    let prices = match (&args.prices, &ledger) {
        (Some(spec), Some(l)) => {
            let row = registry::price_table_row(l, spec)?;
            Some((registry::parse_price_table(l, &row)?, row.sha256))
        }
        _ => None,
    };
    let against = match (&args.against, &ledger) {
        (Some(id), Some(l)) => Some(l.load_wave(id)?),
        _ => None,
    };
    let options = FromOptions {
        wave: args.wave.clone(),
        manifest: args.manifest.clone(),
        suite: args.suite.clone(),
        suite_problems: args.suite_problems,
        started_at: args.started_at.clone(),
        model: args.model.clone(),
        provider: args.provider.clone(),
        harness: args.harness.clone(),
        ..FromOptions::default()
    };
    let source = ingest::Files {
        manifest: args.manifest.as_deref().unwrap_or(Path::new("")),
        built: &[],
    };
    let format = match &args.from {
        Some(f) => f.clone(),
        None => sniff(&source, &args.paths)?,
    };
    let request = Request {
        paths: &args.paths,
        format: &format,
        options,
        rules: &rules,
        rules_sha256: &sha256,
        claims: claims.as_ref().map(|(p, t)| (p.as_path(), t.as_str())),
        prices: prices.as_ref().map(|(t, s)| (t, s.as_str())),
        against: against.as_ref(),
    };
    let done = review::review(&source, &request)?;
    let text = match args.format {
        ReviewFormat::Text => {
            let layout = &mut ctx.layout;
            render::text(&done, &|t| {
                crate::terminal::to_text_in(
                    &benchledger_core::report::with_significant_costs(t),
                    &mut layout.clone(),
                )
            })
        }
        ReviewFormat::Md => render::markdown(&done),
        ReviewFormat::Json => render::json(&done),
    };
    ctx.write(&text)?;
    if done.verdict != Verdict::Accept {
        let findings = done.findings.len();
        return Err(Error::CheckFailed(format!(
            "the review's verdict is {}: {findings} finding{} under rules {}@{} (see above){}",
            done.verdict.key(),
            if findings == 1 { "" } else { "s" },
            rules.name,
            rules.version,
            if args.ingest {
                "; nothing was ingested"
            } else {
                ""
            }
        )));
    }
    if args.ingest {
        let paths: Vec<PathBuf> = done.plan.manifests.iter().map(|b| b.path.clone()).collect();
        ingest::run(ctx, &paths, &done.plan.manifests)?;
    }
    Ok(())
}

/// `rules check`: each file parsed, and what it checks said in a line per rule.
fn check(ctx: &mut Ctx<'_>, paths: &[PathBuf]) -> Result<()> {
    let mut out = String::new();
    for p in paths {
        let text = files::read_text(p, RULES).map_err(|e| Error::io(p, e))?;
        let r = review::parse_rules(p, &text)?;
        out.push_str(&render::rules(
            &r,
            &benchledger_core::digest::sha256_hex(text.as_bytes()),
        ));
    }
    ctx.write(&out)
}

/// `benchledger rules`: its subcommands.
pub fn run_rules(ctx: &mut Ctx<'_>, command: RulesCommand) -> Result<()> {
    match command {
        RulesCommand::Check { files } => check(ctx, &files),
    }
}
