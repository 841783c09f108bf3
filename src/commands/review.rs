//! `benchledger review`: a submission reviewed under declared rules (the library's
//! [`submission::submit`], which reads and never writes), printed as text, Markdown or JSON;
//! with `--ingest`, an accepted submission added as `ingest --from` adds it, its review
//! recorded with it.

use std::path::Path;

use super::{Ctx, ingest, rules};
use crate::cli::{ReviewArgs, ReviewFormat};
use benchledger_core::error::Result;
use benchledger_core::ingest::from::FromOptions;
use benchledger_core::review::render;
use benchledger_core::review::submission::{self, Submission};

pub fn run(ctx: &mut Ctx<'_>, args: ReviewArgs) -> Result<()> {
    let submission = Submission {
        paths: args.paths.clone(),
        from: args.from.clone(),
        rules: args.rules.clone(),
        claims: args.claims.clone(),
        against: args.against.clone(),
        prices: args.prices.clone(),
        options: FromOptions {
            wave: args.wave.clone(),
            manifest: args.manifest.clone(),
            suite: args.suite.clone(),
            suite_problems: args.suite_problems,
            started_at: args.started_at.clone(),
            model: args.model.clone(),
            provider: args.provider.clone(),
            harness: args.harness.clone(),
            ..FromOptions::default()
        },
    };
    // Registered rules, a wave to rank against and a price table are found in the ledger;
    // a review needs none otherwise, and must not make one (nor open one it does not need).
    let registered = submission::names_registered_rules(&args.rules);
    let ledger = if (registered && rules::ledger_present(ctx))
        || args.against.is_some()
        || args.prices.is_some()
    {
        Some(ctx.open()?)
    } else {
        None
    };
    let reviewed = submission::submit(ledger.as_ref(), &submission)?;
    let (done, rules) = (&reviewed.review, &reviewed.rules.rules);
    let text = match args.format {
        ReviewFormat::Text => {
            let layout = &mut ctx.layout;
            render::text(done, &|t| {
                crate::terminal::to_text_in(
                    &benchledger_core::report::with_significant_costs(t),
                    &mut layout.clone(),
                )
            })
        }
        ReviewFormat::Md => render::markdown(done),
        ReviewFormat::Json => render::json(done),
    };
    ctx.write(&text)?;
    if let Some(refused) = submission::verdict_error(done, rules, args.ingest) {
        return Err(refused);
    }
    if args.ingest {
        // The review goes into the log with each wave it lets in, in the ingest's
        // transaction, and the rules it ran under are registered there too.
        let reviews = reviewed.records(Path::new(&args.rules), &ctx.now)?;
        let manifests = &reviewed.review.plan.manifests;
        let said = ingest::run(ctx, &[], manifests, reviews)?;
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
