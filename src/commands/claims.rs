//! `benchledger claims check | from`: published numbers checked against the ledger, and claims
//! files written from leaderboards' own files; and the claims a publication carries
//! (`publish --claims`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::{Ctx, Withdrawn, files};
use crate::cli::{ClaimsCommand, ClaimsFrom, Format, PricesArg};
use benchledger_core::claims::check::{
    Variant, WaveCtx, check as check_claim, pricing_variants, seat_missing, seat_of,
};
use benchledger_core::claims::{ClaimsFile, Figure, Verdict, read};
use benchledger_core::error::{Error, Location, Result};
use benchledger_core::ledger::Ledger;
use benchledger_core::model::WaveData;
use benchledger_core::prices::Costs;
use benchledger_core::publication::claims::{self as published, Carried};
use benchledger_core::report;
use benchledger_core::report::claims::{Digits, Row, Source, listing};
use benchledger_core::rubric::{WaveScores, score_wave};

/// A claims file, read whole.
pub const CLAIMS: files::Cap = files::Cap {
    bytes: 16 * 1024 * 1024,
    what: "a claims file",
    advice: "check the path",
};

/// A claims file's text, parsed.
pub(super) fn load(path: &Path) -> Result<(String, ClaimsFile)> {
    let text = files::read_text(path, CLAIMS).map_err(|e| Error::io(path, e))?;
    let file = benchledger_core::claims::parse(path, &text)?;
    Ok((text, file))
}

/// Refuses a claim whose wave, seat or rubric the ledger does not have, naming the file, the
/// claim's line and the field.
fn check_references(
    ledger: &Ledger,
    path: &Path,
    file: &ClaimsFile,
    waves: &BTreeMap<String, WaveData>,
) -> Result<()> {
    for c in &file.claims {
        let at = |line: usize, field: &str| Location::line(path, line).field(field);
        let Some(data) = waves.get(&c.wave) else {
            // The ledger's own words for a wave it does not have, where the claim is.
            let message = match ledger.load_wave_check(&c.wave) {
                Err(e) => e.to_string(),
                Ok(()) => format!("no wave `{}`", c.wave),
            };
            return Err(Error::input(at(c.lines.wave, "wave"), message));
        };
        if let Err(fits) = seat_of(data, &c.seat) {
            return Err(Error::input(
                at(c.lines.seat, "seat"),
                seat_missing(data, &c.seat, &fits, true),
            ));
        }
        if let Figure::Score { name, version } = &c.figure
            && let Err(e) = benchledger_core::registry::rubric_row(ledger, name, *version)
        {
            return Err(Error::input(
                at(c.lines.figure, "figure"),
                crate::advice::message(&e),
            ));
        }
    }
    Ok(())
}

/// Everything one wave's claims are checked against.
struct WaveInput {
    data: WaveData,
    scores: BTreeMap<String, WaveScores>,
    variants: Vec<Variant>,
    pricing: Option<benchledger_core::prices::Pricing>,
}

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
/// repository does, not by where it wrote them).
pub(super) fn check_labelled(
    ctx: &mut Ctx<'_>,
    paths: &[PathBuf],
    labels: &[String],
    prices: &PricesArg,
    format: Format,
) -> Result<()> {
    // Every file is read and parsed before the ledger is opened.
    let loaded = paths
        .iter()
        .map(|p| load(p).map(|(_, f)| f))
        .collect::<Result<Vec<_>>>()?;
    let ledger = ctx.open()?;
    let existing: BTreeSet<String> = ledger.wave_ids()?.into_iter().collect();
    let named: BTreeSet<&str> = loaded
        .iter()
        .flat_map(|f| f.claims.iter().map(|c| c.wave.as_str()))
        .filter(|w| existing.contains(*w))
        .collect();
    let mut raw: BTreeMap<String, WaveData> = BTreeMap::new();
    for w in &named {
        raw.insert(w.to_string(), ledger.load_wave(w)?);
    }
    for (path, file) in paths.iter().zip(&loaded) {
        check_references(&ledger, path, file, &raw)?;
    }
    let table = match &prices.prices {
        Some(spec) => {
            let row = benchledger_core::registry::price_table_row(&ledger, spec)?;
            let table = benchledger_core::registry::parse_price_table(&ledger, &row)?;
            Some((row.sha256, table))
        }
        None => None,
    };
    let costs = if prices.reprice {
        Costs::Reprice
    } else {
        Costs::Fill
    };
    let mut inputs: BTreeMap<String, WaveInput> = BTreeMap::new();
    for (id, data) in raw {
        let (data, variants, pricing) = match &table {
            Some((sha, t)) => {
                let variants = pricing_variants(t, sha, &data, costs);
                let mut priced = data;
                let p = benchledger_core::prices::price_wave(t, sha, &mut priced, costs);
                (priced, variants, Some(p))
            }
            None => (data, Vec::new(), None),
        };
        let mut scores = BTreeMap::new();
        for c in loaded
            .iter()
            .flat_map(|f| &f.claims)
            .filter(|c| c.wave == id)
        {
            if let Figure::Score { name, version } = &c.figure {
                let key = format!("{name}@{version}");
                if let std::collections::btree_map::Entry::Vacant(slot) = scores.entry(key) {
                    let row = benchledger_core::registry::rubric_row(&ledger, name, *version)?;
                    let rubric = benchledger_core::registry::parse_rubric(&ledger, &row)?;
                    slot.insert(score_wave(&rubric, &data));
                }
            }
        }
        inputs.insert(
            id,
            WaveInput {
                data,
                scores,
                variants,
                pricing,
            },
        );
    }
    let mut rows = Vec::new();
    for (i, file) in loaded.iter().enumerate() {
        for c in &file.claims {
            let Some(w) = inputs.get(&c.wave) else {
                continue;
            };
            let checked = check_claim(
                c,
                &WaveCtx {
                    data: &w.data,
                    scores: &w.scores,
                    variants: &w.variants,
                },
            );
            rows.push(Row {
                file: i,
                claim: c,
                checked,
            });
        }
    }
    let sources: Vec<Source<'_>> = labels
        .iter()
        .zip(&loaded)
        .map(|(l, f)| Source {
            label: Some(l.clone()),
            file: f,
        })
        .collect();
    let (mut out, json) = listing(&sources, &rows, Digits::Readable);
    for (id, w) in &inputs {
        if let Some(p) = &w.pricing {
            out.notes.push(report::Note::Text(format!(
                "Wave {id}: {} cost{} set from price table {} ({}; {} recorded kept, {} left \
                 unpriced); costs repriced under other conventions are among the causes tried.",
                p.priced(),
                if p.priced() == 1 { "" } else { "s" },
                p.id(),
                if p.costs == Costs::Reprice {
                    "every cost repriced"
                } else {
                    "the missing costs filled in"
                },
                p.recorded(),
                p.unpriced()
            )));
        }
    }
    let withdrawn = Withdrawn::load(&ledger)?;
    let json = report::withdrawn::mark(
        &mut out,
        &json,
        &withdrawn.among(inputs.keys().map(String::as_str)),
    );
    let text = ctx.render(format, "claims", &out, &json);
    ctx.write(&text)?;
    let differ = rows
        .iter()
        .filter(|r| r.checked.verdict == Verdict::Differs)
        .count();
    if differ > 0 {
        return Err(Error::CheckFailed(format!(
            "{differ} of {} claim{} differ{} from the ledger (see above)",
            rows.len(),
            if rows.len() == 1 { "" } else { "s" },
            if differ == 1 { "s" } else { "" }
        )));
    }
    Ok(())
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

/// The claims a publication will carry: read, parsed, and checked to be about its wave, its
/// rubric and the wave's seats.
pub(super) fn for_publication(path: &Path, data: &WaveData, rubric_id: &str) -> Result<Carried> {
    let (text, file) = load(path)?;
    published::check_fits(path, &file, data, rubric_id)?;
    Ok(Carried { file, text })
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
