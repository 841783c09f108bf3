//! `benchledger publish`, `publications`, `verify` and `bundle`: frozen, reproducible
//! leaderboards.

use std::path::Path;

use super::Ctx;
use super::rubric::resolve;
use crate::cli::Format;
use crate::digest::sha256_hex;
use crate::error::{Error, Result};
use crate::ledger::{Ledger, NewPublication, PublicationRow, RubricRow};
use crate::publication::{self, Record, canonical_input, record_sha256, render_output};
use crate::report;
use crate::rubric::score_wave;

/// The file a bundle keeps its ledger in.
pub const BUNDLE_LEDGER: &str = "ledger.db";
/// The file a bundle keeps the published text in.
pub const BUNDLE_OUTPUT: &str = "publication.md";

pub fn publish(
    ctx: &mut Ctx<'_>,
    wave: &str,
    rubric: &str,
    title: Option<&str>,
    bundle_dir: Option<&Path>,
) -> Result<()> {
    let mut ledger = ctx.open()?;
    let info = resolve(&ledger, rubric)?;
    if !info.registered {
        return Err(Error::Usage(format!(
            "{} is not registered: a publication must name a rubric anyone can recompute it \
             with. Register it first with `benchledger rubric add {rubric}`",
            info.rubric.id()
        )));
    }
    if let Some(dir) = bundle_dir {
        check_empty_dir(dir)?;
    }
    let data = ledger.load_wave(wave)?;
    let scores = score_wave(&info.rubric, &data);
    let title = title
        .map(str::to_string)
        .unwrap_or_else(|| format!("{} under {}", data.wave.id, info.rubric.id()));
    let input = canonical_input(&data, &info);
    let input_sha256 = sha256_hex(input.as_bytes());
    let output = render_output(&title, &data, &info, &scores, &input_sha256);
    let new = NewPublication {
        wave: data.wave.id.clone(),
        rubric_sha256: info.sha256.clone(),
        title,
        created_at: ctx.now.clone(),
        input_format: crate::formats::input::LATEST,
        output_sha256: sha256_hex(output.as_bytes()),
        input,
        input_sha256,
        output,
    };
    let row = ledger.add_publication(&new, |id, prev| {
        record_sha256(&Record {
            id,
            wave: &new.wave,
            rubric_sha256: &new.rubric_sha256,
            title: &new.title,
            created_at: &new.created_at,
            input_sha256: &new.input_sha256,
            output_sha256: &new.output_sha256,
            prev_sha256: prev,
        })
    })?;
    let mut msg = format!(
        "published #{} {:?}: wave {} under {}\n  output sha256 {}\n  input sha256  {}\n  record sha256 {}{}\n",
        row.id,
        row.title,
        row.wave,
        row.rubric,
        row.output_sha256,
        row.input_sha256,
        row.sha256,
        match &row.prev_sha256 {
            Some(p) => format!(" (chained to {})", crate::digest::short(p)),
            None => " (first in the chain)".into(),
        }
    );
    if let Some(dir) = bundle_dir {
        // The publication is committed and frozen; if the bundle still cannot be written, say
        // so plainly and how to write it again.
        write_bundle(&ledger, &row, dir).map_err(|e| {
            Error::Usage(format!(
                "published #{} (it is in the ledger), but its bundle could not be written: {e}. \
                 Write it with `benchledger bundle {} --out DIR`",
                row.id, row.id
            ))
        })?;
        msg.push_str(&format!(
            "  bundle written to {}: check it with `benchledger verify --bundle {}`\n",
            dir.display(),
            dir.display()
        ));
    }
    msg.push('\n');
    msg.push_str(&row.output);
    ctx.write(&msg)
}

pub fn publications(ctx: &mut Ctx<'_>, format: Format) -> Result<()> {
    let ledger = ctx.open()?;
    let rows = ledger.publications()?;
    let (table, json) = report::publication::list(&rows);
    ctx.write(&report::render(format, "publications", &table, &json))
}

/// Verifies the named publications (or all) of a ledger — a bundle's, when `bundle` names its
/// directory; returns the report and whether all reproduced.
fn verify_ledger(ledger: &Ledger, ids: &[i64], bundle: Option<&Path>) -> Result<(String, bool)> {
    let in_bundle = bundle.is_some();
    let all = ledger.publications()?;
    let chosen: Vec<&PublicationRow> = if ids.is_empty() {
        all.iter().collect()
    } else {
        let mut v = Vec::new();
        for id in ids {
            match all.iter().find(|p| p.id == *id) {
                Some(p) => v.push(p),
                None => {
                    ledger.publication(*id)?;
                }
            }
        }
        v
    };
    if chosen.is_empty() {
        return Ok(("no publications to verify\n".into(), true));
    }
    let mut out = String::new();
    let mut failed = 0;
    for p in &chosen {
        let prev = all.iter().rev().find(|q| q.id < p.id);
        let rubric = ledger.publication_rubric(p.id)?;
        let mut problems = match ledger.load_wave(&p.wave) {
            Ok(fresh) => publication::check(p, prev, &rubric, &fresh, in_bundle),
            Err(e) => vec![format!("its wave cannot be loaded: {e}")],
        };
        if let Some(dir) = bundle {
            problems.extend(bundle_file_problems(dir, p, &rubric));
        }
        let head = format!(
            "publication #{} {:?} ({} under {})",
            p.id, p.title, p.wave, p.rubric
        );
        if problems.is_empty() {
            out.push_str(&format!(
                "{head}: OK — reproduces byte for byte (output sha256 {})\n",
                crate::digest::short(&p.output_sha256)
            ));
        } else {
            failed += 1;
            out.push_str(&format!("{head}: MISMATCH\n"));
            for pr in problems {
                out.push_str(&format!("  - {pr}\n"));
            }
        }
    }
    if in_bundle
        && let Some(first) = chosen.first()
        && let Some(link) = &first.prev_sha256
    {
        out.push_str(&format!(
            "note: the link to the publication before #{} (sha256 {}) lies outside this bundle\n",
            first.id,
            crate::digest::short(link)
        ));
    }
    out.push_str(&format!(
        "{} of {} publication{} reproduce{}\n",
        chosen.len() - failed,
        chosen.len(),
        if chosen.len() == 1 { "" } else { "s" },
        if chosen.len() - failed == 1 { "s" } else { "" }
    ));
    Ok((out, failed == 0))
}

pub fn verify(ctx: &mut Ctx<'_>, ids: &[i64], all: bool, bundle: Option<&Path>) -> Result<()> {
    let (report, ok) = match bundle {
        Some(dir) => {
            let path = dir.join(BUNDLE_LEDGER);
            if !path.is_file() {
                return Err(Error::Usage(format!(
                    "{} is not a benchledger bundle: it has no {BUNDLE_LEDGER}",
                    dir.display()
                )));
            }
            let ledger = Ledger::open(&path)?;
            verify_ledger(&ledger, ids, Some(dir))?
        }
        None => {
            if ids.is_empty() && !all {
                return Err(Error::Usage(
                    "name the publications to verify (see `benchledger publications`), or pass \
                     --all"
                        .into(),
                ));
            }
            let ledger = ctx.open()?;
            verify_ledger(&ledger, if all { &[] } else { ids }, None)?
        }
    };
    ctx.write(&report)?;
    if ok {
        Ok(())
    } else {
        Err(Error::CheckFailed(
            "verify: a publication does not reproduce from the ledger (see above)".into(),
        ))
    }
}

pub fn bundle(ctx: &mut Ctx<'_>, id: i64, out: &Path) -> Result<()> {
    let ledger = ctx.open()?;
    let row = ledger.publication(id)?;
    check_empty_dir(out)?;
    write_bundle(&ledger, &row, out)?;
    ctx.write(&format!(
        "bundle of publication #{id} written to {}: check it with `benchledger verify --bundle {}`\n",
        out.display(),
        out.display()
    ))
}

/// The name of a bundle's rubric file.
fn rubric_file_name(rubric: &RubricRow) -> String {
    format!("{}.v{}.toml", rubric.name, rubric.version)
}

/// What is wrong with the files a bundle shows its reader beside its ledger: `publication.md`
/// must be the published text and the rubric file the text it was computed with, byte for
/// byte — otherwise a bundle whose ledger verifies could still show edited numbers.
fn bundle_file_problems(dir: &Path, p: &PublicationRow, rubric: &RubricRow) -> Vec<String> {
    let mut problems = Vec::new();
    let md = dir.join(BUNDLE_OUTPUT);
    match std::fs::read_to_string(&md) {
        Ok(text) if text == p.output => {}
        Ok(text) => {
            let lines = publication::diff_outputs(&text, &p.output);
            problems.push(format!(
                "{BUNDLE_OUTPUT} differs from the published output ({} difference{}, \
                 {BUNDLE_OUTPUT} → published):\n{}",
                lines.len(),
                if lines.len() == 1 { "" } else { "s" },
                publication::indent(&lines)
            ));
        }
        Err(e) => problems.push(format!(
            "the bundle's {BUNDLE_OUTPUT} is missing or unreadable: {e}"
        )),
    }
    let name = rubric_file_name(rubric);
    match std::fs::read(dir.join(&name)) {
        Ok(bytes) => {
            let sha = sha256_hex(&bytes);
            if sha != p.rubric_sha256 {
                problems.push(format!(
                    "the bundle's {name} differs from the rubric text the publication was \
                     computed with (the file hashes to {}, the publication names {})",
                    crate::digest::short(&sha),
                    crate::digest::short(&p.rubric_sha256)
                ));
            }
        }
        Err(e) => problems.push(format!("the bundle's {name} is missing or unreadable: {e}")),
    }
    problems
}

/// Makes sure a bundle can be written to `dir` before anything is published: it is created if
/// missing, must be empty, and must take a file.
fn check_empty_dir(dir: &Path) -> Result<()> {
    if dir.exists() {
        let mut entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
        if entries.next().is_some() {
            return Err(Error::Usage(format!(
                "{} is not empty: a bundle goes into a new or empty directory",
                dir.display()
            )));
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let probe = dir.join(".benchledger-probe");
    std::fs::write(&probe, b"").map_err(|e| Error::io(&probe, e))?;
    std::fs::remove_file(&probe).map_err(|e| Error::io(&probe, e))
}

/// Writes a self-contained bundle: a small ledger holding only the publication, its wave and
/// its rubric; the published text; and a README saying how to check it.
fn write_bundle(ledger: &Ledger, row: &PublicationRow, dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let data = ledger.load_wave(&row.wave)?;
    let content = ledger.wave_content_hash(&row.wave)?;
    let ingested_at = ledger.wave_ingested_at(&row.wave)?;
    let rubric = ledger.publication_rubric(row.id)?;
    let (mut bundle, _) = Ledger::create(&dir.join(BUNDLE_LEDGER))?;
    bundle.add_waves(&[(data, content)], &ingested_at)?;
    bundle.add_rubric(&rubric)?;
    bundle.import_publication(row)?;
    drop(bundle);
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).map_err(|e| Error::io(&p, e))
    };
    write(BUNDLE_OUTPUT, &row.output)?;
    write(&rubric_file_name(&rubric), &rubric.text)?;
    write("README.md", &report::publication::bundle_readme(row))
}
