//! `benchledger site --out DIR`: the library reads everything the site shows from the ledger
//! (verifying each publication on the way, as `verify` does: [`site::load`]), renders the
//! pages ([`site::render`]) and writes them into DIR ([`site::write`], which says what DIR may
//! hold and how nothing is written through anything planted there).

use crate::cli::SiteArgs;
use benchledger_core::error::{Error, Result};
use benchledger_core::prices::Costs;
use benchledger_core::site;

use super::Ctx;

/// `benchledger site`, from its flags.
pub fn run(ctx: &mut Ctx<'_>, args: SiteArgs) -> Result<()> {
    let SiteArgs {
        out,
        rubric,
        config,
        artifacts,
        problem_pages,
        attempt_pages,
        ci,
        no_ci,
        prices,
    } = args;
    let (out, rubric, prices) = (out.as_path(), rubric.as_deref(), &prices);
    // site.toml first: a mistake in it is named before the ledger is read.
    let mut config = match config.as_deref() {
        Some(path) => {
            let text = super::files::read_text(path, super::files::SITE_CONFIG)
                .map_err(|e| Error::io(path, e))?;
            site::SiteConfig::parse(path, &text)?
        }
        None => site::SiteConfig::default(),
    };
    if attempt_pages.is_some() {
        config.attempt_pages = attempt_pages;
    }
    if let Some(url) = artifacts {
        config.artifacts = Some(
            site::config::base_url(&url)
                .map_err(|why| Error::Usage(format!("--artifacts: {why}")))?,
        );
    }
    // Intervals by default (the per-problem-sums bootstrap draws a 100-wave ledger's in a few
    // seconds: bench/site); `--no-ci` leaves them out.
    let settings = if no_ci {
        None
    } else {
        super::interval_settings(ci, true)?
    };
    let asked = ci.level.is_some() || ci.resamples.is_some() || ci.seed.is_some();
    let ledger = ctx.open()?;
    if let Some(spec) = rubric {
        // A registered rubric, or the shipped accuracy one; an unknown one is an error naming
        // the registered ones, before anything is read or written.
        let Some((name, version)) = benchledger_core::registry::split_id(spec) else {
            return Err(Error::Usage(format!(
                "--rubric {spec:?}: expected a registered rubric as NAME@VERSION (see \
                 `benchledger rubric list`)"
            )));
        };
        if spec != benchledger_core::rubric::accuracy().rubric.id() {
            benchledger_core::registry::rubric_info(&ledger, name, version)?;
        }
    }
    let costs = if prices.reprice {
        Costs::Reprice
    } else {
        Costs::Fill
    };
    let mut input = site::load::load(
        &ledger,
        settings,
        asked,
        prices.prices.as_deref().map(|spec| (spec, costs)),
    )?;
    input.advice = crate::advice::words;
    config.check(input.waves.iter().map(|w| w.data.wave.suite.as_str()))?;
    input.config = config;
    input.front_rubric = rubric.map(str::to_string);
    input.problem_pages = problem_pages;
    let pages = site::render(&input);
    let bytes = site::write::to_dir(out, &pages)?;
    let seats: std::collections::BTreeSet<&str> = input
        .waves
        .iter()
        .flat_map(|w| w.data.seats.iter().map(|s| s.seat.id.as_str()))
        .collect();
    let failing = input
        .publications
        .iter()
        .filter(|p| !p.problems.is_empty())
        .count();
    let n = |n: usize, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
    ctx.write(&format!(
        "wrote {} ({} KiB) to {}: {}, {}, {}, {}{}\nopen {}\n",
        n(pages.len(), "file"),
        bytes.div_ceil(1024),
        out.display(),
        n(input.waves.len(), "wave"),
        n(seats.len(), "seat"),
        n(input.rubrics.len(), "rubric"),
        n(input.publications.len(), "publication"),
        if failing > 0 {
            format!(" ({failing} failing verification: see the index)")
        } else {
            String::new()
        },
        out.join("index.html").display()
    ))
}
