//! `benchledger claims check | from`: published numbers checked against the ledger, and claims
//! files written from leaderboards' own files (both built by the library).

use std::path::{Path, PathBuf};

use super::Ctx;
use crate::cli::{ClaimsCommand, ClaimsFrom, Format, PricesArg};
use benchledger_core::claims::read;
use benchledger_core::documents::claims;
use benchledger_core::error::{Error, Result};

pub fn check(
    ctx: &mut Ctx<'_>,
    paths: &[PathBuf],
    prices: &PricesArg,
    format: Format,
) -> Result<()> {
    let labels: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    check_labelled(ctx, paths, &labels, prices, format)
}

/// `claims check`, each file named in the listing by its label (the demo names its files as the
/// repository does, not by where it wrote them): the library's [`claims::claims`].
pub(super) fn check_labelled(
    ctx: &mut Ctx<'_>,
    paths: &[PathBuf],
    labels: &[String],
    prices: &PricesArg,
    format: Format,
) -> Result<()> {
    // Every file is read and parsed before the ledger is opened.
    let files = paths
        .iter()
        .zip(labels)
        .map(|(path, label)| {
            claims::load(path).map(|(_, file)| claims::Loaded {
                label: label.clone(),
                path: path.clone(),
                file,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let ledger = ctx.open()?;
    let checked = claims::claims(&ledger, &files, &super::prices_of(prices))?;
    ctx.write_document(format, &checked.document)?;
    checked.outcome()
}

/// `claims from`: the library reads the source's files and makes the claims file
/// ([`benchledger_core::claims::read`]); this writes it to `out`, a new file.
fn claims_from(ctx: &mut Ctx<'_>, source: &read::Source<'_>, out: &Path) -> Result<()> {
    let made = read::read(source)?;
    read::write_new(out, &made.text).map_err(|e| match e {
        Error::Usage(m) if out.exists() => Error::Usage(format!("{m} with --out")),
        e => e,
    })?;
    let file = &made.file;
    ctx.write(&format!(
        "wrote {} claim{} ({}) to {}: check them with `benchledger claims check {}`\n",
        file.claims.len(),
        if file.claims.len() == 1 { "" } else { "s" },
        file.id(),
        out.display(),
        out.display()
    ))
}

/// `benchledger claims`: its subcommands.
pub fn run(ctx: &mut Ctx<'_>, command: ClaimsCommand) -> Result<()> {
    match command {
        ClaimsCommand::Check {
            files,
            prices,
            format,
        } => check(ctx, &files, &prices, format.format),
        ClaimsCommand::From { source } => {
            let (source, out) = match &source {
                ClaimsFrom::Openhands {
                    dir,
                    out,
                    wave_prefix,
                    seat,
                } => (
                    read::Source::Openhands {
                        dir,
                        wave_prefix,
                        seat: seat.as_deref(),
                    },
                    out,
                ),
                ClaimsFrom::TerminalBench {
                    results,
                    out,
                    wave,
                    seat,
                } => (
                    read::Source::TerminalBench {
                        results,
                        wave,
                        seat,
                    },
                    out,
                ),
                ClaimsFrom::Hal {
                    upload,
                    out,
                    wave,
                    seat,
                } => (read::Source::Hal { upload, wave, seat }, out),
                ClaimsFrom::Harbor {
                    result,
                    out,
                    wave,
                    seat,
                } => (read::Source::Harbor { result, wave, seat }, out),
                ClaimsFrom::Helm {
                    run_dir,
                    metric,
                    out,
                    wave,
                    seat,
                } => (
                    read::Source::Helm {
                        run_dir,
                        metric: metric.as_deref(),
                        wave,
                        seat,
                    },
                    out,
                ),
                ClaimsFrom::Eee {
                    record,
                    evaluation,
                    out,
                    wave,
                    seat,
                } => (
                    read::Source::Eee {
                        record,
                        evaluation: evaluation.as_deref(),
                        wave,
                        seat,
                    },
                    out,
                ),
                ClaimsFrom::LmEval {
                    results,
                    task,
                    metric,
                    out,
                    wave,
                    seat,
                } => (
                    read::Source::LmEval {
                        results,
                        task,
                        metric: metric.as_deref(),
                        wave,
                        seat,
                    },
                    out,
                ),
            };
            claims_from(ctx, &source, out)
        }
    }
}
