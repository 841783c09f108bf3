//! `benchledger review` and `benchledger rules`: a submission reviewed under declared rules
//! (the library's `review`, which reads and never writes), printed as text, Markdown or JSON;
//! with `--ingest`, an accepted submission added as `ingest --from` adds it.

use std::path::{Path, PathBuf};

use super::{Ctx, files, ingest, rules};
use crate::cli::{ReviewArgs, ReviewFormat};
use benchledger_core::error::{Error, Result};
use benchledger_core::ingest::Source;
use benchledger_core::ingest::from::FromOptions;
use benchledger_core::registry;
use benchledger_core::review::{self, Request, Verdict, render};

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
    let loaded = rules::load(ctx, &args.rules)?;
    let (rules, sha256) = (&loaded.rules, &loaded.sha256);
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
        rules,
        rules_sha256: sha256,
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
        // The review goes into the log with each wave it lets in, in the ingest's
        // transaction, and the rules it ran under are registered there too.
        let origin = Path::new(&args.rules);
        let registered = rules::row(&loaded, &ctx.now);
        rules::shipped_conflict(origin, &registered)?;
        let reviews = done
            .waves
            .iter()
            .map(|w| {
                (
                    review::recorded(&done, &w.wave.id, &ctx.now),
                    registered.clone(),
                )
            })
            .collect();
        let paths: Vec<PathBuf> = done.plan.manifests.iter().map(|b| b.path.clone()).collect();
        let said = ingest::run(ctx, &paths, &done.plan.manifests, reviews)?;
        if args.format == ReviewFormat::Json {
            // Standard output holds the one JSON document a bot parses; what the ingest did
            // goes beside it, for people.
            eprint!("{said}");
        } else {
            ctx.write(&said)?;
        }
    }
    Ok(())
}
