//! `benchledger claims check | from`: published numbers checked against the ledger, and claims
//! files written from leaderboards' own files; and the claims a publication carries
//! (`publish --claims`).

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use super::{Ctx, Withdrawn, files};
use crate::cli::{ClaimsCommand, ClaimsFrom, Format, PricesArg};
use benchledger_core::claims::check::{
    Variant, WaveCtx, check as check_claim, pricing_variants, seat_missing, seat_of,
};
use benchledger_core::claims::{ClaimsFile, Figure, Verdict, from, from_evals, write};
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

/// A leaderboard's own file read whole (OpenHands index scores.json and metadata.json).
const LEADERBOARD: files::Cap = files::Cap {
    bytes: 64 * 1024 * 1024,
    what: "a leaderboard's scores file",
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

/// Writes a new claims file, refusing to overwrite one.
fn write_new(ctx: &mut Ctx<'_>, out: &Path, file: &ClaimsFile, comments: &[String]) -> Result<()> {
    let text = write::to_toml(file, comments);
    // What is written must read back as written.
    benchledger_core::claims::parse(out, &text)?;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(out)
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                Error::Usage(format!(
                    "{} already exists: `claims from` writes a new file and never overwrites \
                     one; name another with --out",
                    out.display()
                ))
            } else {
                Error::io(out, e)
            }
        })?;
    f.write_all(text.as_bytes())
        .and_then(|()| f.sync_all())
        .map_err(|e| Error::io(out, e))?;
    ctx.write(&format!(
        "wrote {} claim{} ({}) to {}: check them with `benchledger claims check {}`\n",
        file.claims.len(),
        if file.claims.len() == 1 { "" } else { "s" },
        file.id(),
        out.display(),
        out.display()
    ))
}

/// `claims from openhands DIR`.
pub fn from_openhands(
    ctx: &mut Ctx<'_>,
    dir: &Path,
    out: &Path,
    wave_prefix: &str,
    seat: Option<&str>,
) -> Result<()> {
    let scores_path = dir.join("scores.json");
    if !scores_path.is_file() {
        return Err(Error::Usage(format!(
            "{}: expected an OpenHands index model directory (results/<model> of \
             OpenHands/openhands-index-results), holding scores.json, metadata.json and \
             instance_results/; there is no scores.json there",
            dir.display()
        )));
    }
    let scores =
        files::read_text(&scores_path, LEADERBOARD).map_err(|e| Error::io(&scores_path, e))?;
    let metadata_path = dir.join("metadata.json");
    let metadata = if metadata_path.exists() {
        Some(
            files::read_text(&metadata_path, LEADERBOARD)
                .map_err(|e| Error::io(&metadata_path, e))?,
        )
    } else {
        None
    };
    let dir_name = std::fs::canonicalize(dir)
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .ok_or_else(|| {
            Error::Usage(format!(
                "{}: expected an OpenHands index model directory (results/<model>)",
                dir.display()
            ))
        })?;
    let file = from::openhands(&from::OpenHandsDir {
        dir_name: &dir_name,
        scores_path: &scores_path,
        scores: &scores,
        metadata: metadata.as_deref().map(|m| (metadata_path.as_path(), m)),
        wave_prefix,
        seat,
    })?;
    let comments = vec![
        format!(
            "Claims read by `benchledger claims from openhands` from {}.",
            scores_path.display()
        ),
        format!(
            "Each benchmark B is wave {wave_prefix}B; the seat is {}. score → accuracy (×100, \
             with the index's metric and counts), cost_per_instance → mean_cost_usd, \
             average_runtime → mean_wall_s (docs/claims.md).",
            file.claims[0].seat
        ),
    ];
    write_new(ctx, out, &file, &comments)
}

/// `claims from terminal-bench RESULTS.json` and `claims from hal UPLOAD.json`.
pub fn from_run(
    ctx: &mut Ctx<'_>,
    format: &str,
    path: &Path,
    out: &Path,
    wave: &str,
    seat: &str,
) -> Result<()> {
    let reader = files::open_regular(path).map_err(|e| Error::io(path, e))?;
    let file = match format {
        "terminal-bench" => from::terminal_bench(path, reader, wave, seat)?,
        _ => from::hal(path, reader, wave, seat)?,
    };
    let mapping = match format {
        "terminal-bench" => "accuracy → accuracy, pass_at_k → pass_at_k.K",
        _ => "results.accuracy → accuracy, total_cost → cost_usd",
    };
    let comments = vec![
        format!(
            "Claims read by `benchledger claims from {format}` from {}.",
            path.display()
        ),
        format!(
            "Wave {wave}, seat {seat}: {mapping}; published unrounded, so each within ±1e-9 \
             (docs/claims.md)."
        ),
    ];
    write_new(ctx, out, &file, &comments)
}

/// `claims from helm RUN_DIR`: the run's stats.json.
fn from_helm(
    ctx: &mut Ctx<'_>,
    dir: &Path,
    metric: Option<&str>,
    out: &Path,
    wave: &str,
    seat: &str,
) -> Result<()> {
    let stats = dir.join("stats.json");
    if !stats.is_file() {
        return Err(Error::Usage(format!(
            "{}: expected a HELM run directory (benchmark_output/runs/<suite>/<run>), holding \
             stats.json beside run_spec.json and per_instance_stats.json; there is no \
             stats.json there",
            dir.display()
        )));
    }
    let text = files::read_text(&stats, LEADERBOARD).map_err(|e| Error::io(&stats, e))?;
    let file = from_evals::helm(&stats, &text, metric, wave, seat)?;
    let metric = metric.unwrap_or(from_evals::HELM_METRIC);
    let comments = vec![
        format!(
            "Claims read by `benchledger claims from helm` from {}.",
            stats.display()
        ),
        format!(
            "Wave {wave}, seat {seat}: of the unperturbed test split, {metric} → mean_outcome, \
             num_prompt_tokens → mean_input_tokens, num_completion_tokens → \
             mean_output_tokens, inference_runtime → mean_wall_s, each within ±1e-9 (HELM \
             writes its means unrounded); num_instances → problems (docs/claims.md)."
        ),
    ];
    write_new(ctx, out, &file, &comments)
}

/// `claims from eee PATH`: an Every Eval Ever aggregate record (or the one beside a samples
/// file).
fn from_eee(
    ctx: &mut Ctx<'_>,
    path: &Path,
    evaluation: Option<&str>,
    out: &Path,
    wave: &str,
    seat: &str,
) -> Result<()> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let record = match name.strip_suffix("_samples.jsonl") {
        Some(id) => path.with_file_name(format!("{id}.json")),
        None => path.to_path_buf(),
    };
    if !record.is_file() {
        return Err(Error::Usage(format!(
            "{}: expected an Every Eval Ever aggregate record <id>.json (or its \
             <id>_samples.jsonl, with the record beside it); there is no such file",
            record.display()
        )));
    }
    let text = files::read_text(&record, LEADERBOARD).map_err(|e| Error::io(&record, e))?;
    let file = from_evals::eee(&record, &text, evaluation, wave, seat)?;
    let comments = vec![
        format!(
            "Claims read by `benchledger claims from eee` from {}.",
            record.display()
        ),
        format!(
            "Wave {wave}, seat {seat}: score_details.score → accuracy (an accuracy metric) or \
             mean_outcome, at its written decimals; its uncertainty is said in the claim's \
             source, and an accuracy's standard_error → accuracy_se, within what the sample and \
             population estimators differ by; uncertainty.num_samples → attempts \
             (docs/claims.md)."
        ),
    ];
    write_new(ctx, out, &file, &comments)
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
        ClaimsCommand::From { source } => match source {
            ClaimsFrom::Openhands {
                dir,
                out,
                wave_prefix,
                seat,
            } => from_openhands(ctx, &dir, &out, &wave_prefix, seat.as_deref()),
            ClaimsFrom::TerminalBench {
                results,
                out,
                wave,
                seat,
            } => from_run(ctx, "terminal-bench", &results, &out, &wave, &seat),
            ClaimsFrom::Hal {
                upload,
                out,
                wave,
                seat,
            } => from_run(ctx, "hal", &upload, &out, &wave, &seat),
            ClaimsFrom::Harbor {
                result,
                out,
                wave,
                seat,
            } => {
                let text =
                    files::read_text(&result, LEADERBOARD).map_err(|e| Error::io(&result, e))?;
                let file = from::harbor(&result, &text, &wave, &seat)?;
                let comments = vec![
                    format!(
                        "Claims read by `benchledger claims from harbor` from {}.",
                        result.display()
                    ),
                    format!(
                        "Wave {wave}, seat {seat}: the mean metric → mean_outcome, pass_at_k → \
                         pass_at_k.K; published unrounded, so within ±1e-9 (docs/claims.md)."
                    ),
                ];
                write_new(ctx, &out, &file, &comments)
            }
            ClaimsFrom::Helm {
                run_dir,
                metric,
                out,
                wave,
                seat,
            } => from_helm(ctx, &run_dir, metric.as_deref(), &out, &wave, &seat),
            ClaimsFrom::Eee {
                record,
                evaluation,
                out,
                wave,
                seat,
            } => from_eee(ctx, &record, evaluation.as_deref(), &out, &wave, &seat),
            ClaimsFrom::LmEval {
                results,
                task,
                metric,
                out,
                wave,
                seat,
            } => {
                let text =
                    files::read_text(&results, LEADERBOARD).map_err(|e| Error::io(&results, e))?;
                let file = from::lm_eval(&results, &text, &task, metric.as_deref(), &wave, &seat)?;
                let comments = vec![
                    format!(
                        "Claims read by `benchledger claims from lm-eval` from {}.",
                        results.display()
                    ),
                    format!(
                        "Wave {wave}, seat {seat}: task {task}'s figure → accuracy; published \
                         unrounded, so within ±1e-9; its _stderr → accuracy_se, within what \
                         ÷ n − 1 and ÷ n differ by (docs/claims.md)."
                    ),
                ];
                write_new(ctx, &out, &file, &comments)
            }
        },
    }
}
