//! `benchledger rescore` and `benchledger diff`: auditing a rubric change across history.

use super::rubric::resolve;
use super::{Ctx, Withdrawn};
use crate::cli::{DiffArgs, Format, RescoreArgs};
use benchledger_core::error::{Error, Result};
use benchledger_core::ledger::Ledger;
use benchledger_core::report;
use benchledger_core::rescore;
use benchledger_core::rubric::{Rubric, score_wave};

/// The waves a command should visit: the named ones (checked to exist, and refused when
/// withdrawn unless `include`; a wave named twice is visited once), else every wave but the
/// withdrawn ones (unless `include`).
fn waves_to_visit(
    ledger: &Ledger,
    named: &[String],
    withdrawn: &Withdrawn,
    include: bool,
) -> Result<Vec<String>> {
    if named.is_empty() {
        let mut all = ledger.wave_ids()?;
        all.retain(|w| include || withdrawn.get(w).is_none());
        return Ok(all);
    }
    let mut out: Vec<String> = Vec::with_capacity(named.len());
    for w in named {
        ledger.load_wave_check(w)?;
        withdrawn.check_named(w, include)?;
        if !out.contains(w) {
            out.push(w.clone());
        }
    }
    Ok(out)
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

pub fn rescore(
    ctx: &mut Ctx<'_>,
    rubric: &str,
    waves: &[String],
    include_withdrawn: bool,
) -> Result<()> {
    let mut ledger = ctx.open_write()?;
    let info = resolve(&ledger, rubric)?;
    if !info.registered {
        return Err(Error::Usage(format!(
            "{} is not registered: stored scores are keyed by a registered rubric's hash. \
             Register it first with `benchledger rubric add {rubric}`",
            info.rubric.id()
        )));
    }
    let (ids, left_out) = rescore_waves(&ledger, waves, include_withdrawn)?;
    let bar = progress(ctx, ids.len());
    let stored = rescore::store(&mut ledger, &[&info.rubric], &[&info.sha256], &ids)?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let undefined = stored.undefined[0];
    let mut msg = format!(
        "rescored {}, {} under {} (sha256 {}); scores stored, attempts untouched\n",
        plural(ids.len(), "wave", "waves"),
        plural(stored.seats[0] as usize, "seat", "seats"),
        info.rubric.id(),
        benchledger_core::digest::short(&info.sha256)
    );
    if undefined > 0 {
        msg.push_str(&format!(
            "{} no score (see `benchledger score` for why)\n",
            plural(undefined, "seat has", "seats have")
        ));
    }
    msg.push_str(&left_out_note(&left_out));
    if info.scale_violation {
        msg.push_str(&format!(
            "note: {} fails `rubric check`; its scores can leave its declared scale\n",
            info.rubric.id()
        ));
    }
    ctx.write(&msg)
}

/// The waves a rescore visits, and the withdrawn ones it leaves out (when none is named).
fn rescore_waves(
    ledger: &Ledger,
    waves: &[String],
    include_withdrawn: bool,
) -> Result<(Vec<String>, Vec<String>)> {
    let withdrawn = Withdrawn::load(ledger)?;
    let ids = waves_to_visit(ledger, waves, &withdrawn, include_withdrawn)?;
    let left_out = if waves.is_empty() && !include_withdrawn {
        ledger
            .wave_ids()?
            .into_iter()
            .filter(|w| withdrawn.get(w).is_some())
            .collect()
    } else {
        Vec::new()
    };
    Ok((ids, left_out))
}

fn left_out_note(left_out: &[String]) -> String {
    if left_out.is_empty() {
        return String::new();
    }
    format!(
        "left out {}: {} (--include-withdrawn rescores them too)\n",
        plural(left_out.len(), "withdrawn wave", "withdrawn waves"),
        left_out.join(", ")
    )
}

/// A spinner while the waves are read (in one pass, so there is no count of waves done to
/// show), on a terminal only.
fn progress(ctx: &Ctx<'_>, waves: usize) -> Option<indicatif::ProgressBar> {
    (ctx.interactive && waves > 1).then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_style(
            indicatif::ProgressStyle::with_template("{spinner} rescoring {msg} ({elapsed})")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        bar.set_message(format!("{waves} waves"));
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
        bar
    })
}

/// `rescore --all`: every registered rubric, each wave read once.
pub fn rescore_all(ctx: &mut Ctx<'_>, waves: &[String], include_withdrawn: bool) -> Result<()> {
    let mut ledger = ctx.open_write()?;
    let rows = ledger.rubrics()?;
    if rows.is_empty() {
        return Err(Error::Usage(
            "no rubric is registered: register one with `benchledger rubric add FILE`".into(),
        ));
    }
    let rubrics: Vec<Rubric> = rows
        .iter()
        .map(|r| benchledger_core::registry::parse_rubric(&ledger, r))
        .collect::<Result<_>>()?;
    let refs: Vec<&Rubric> = rubrics.iter().collect();
    let (ids, left_out) = rescore_waves(&ledger, waves, include_withdrawn)?;
    let bar = progress(ctx, ids.len());
    let shas: Vec<&str> = rows.iter().map(|r| r.sha256.as_str()).collect();
    let stored = rescore::store(&mut ledger, &refs, &shas, &ids)?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let mut msg = format!(
        "rescored {} under {} registered rubric{} in one pass; scores stored, attempts \
         untouched\n",
        plural(ids.len(), "wave", "waves"),
        rows.len(),
        if rows.len() == 1 { "" } else { "s" }
    );
    for (row, stored) in rows.iter().zip(stored.seats) {
        msg.push_str(&format!(
            "  {} (sha256 {}): {}{}\n",
            row.id(),
            benchledger_core::digest::short(&row.sha256),
            plural(stored as usize, "seat", "seats"),
            if row.scale_violation {
                "; fails `rubric check`: its scores can leave its declared scale"
            } else {
                ""
            }
        ));
    }
    msg.push_str(&left_out_note(&left_out));
    ctx.write(&msg)
}

pub fn diff(
    ctx: &mut Ctx<'_>,
    old: &str,
    new: &str,
    waves: &[String],
    include_withdrawn: bool,
    format: Format,
) -> Result<()> {
    let ledger = ctx.open()?;
    let old = resolve(&ledger, old)?;
    let new = resolve(&ledger, new)?;
    let withdrawn = Withdrawn::load(&ledger)?;
    let ids = waves_to_visit(&ledger, waves, &withdrawn, include_withdrawn)?;
    let mut scores = Vec::with_capacity(ids.len());
    // (wave, seat) → display name, for the seats that have one.
    let mut names = std::collections::BTreeMap::new();
    for id in &ids {
        let data = ledger.load_wave(id)?;
        scores.push((
            score_wave(&old.rubric, &data),
            score_wave(&new.rubric, &data),
        ));
        for s in &data.seats {
            if let Some(n) = &s.seat.display_name {
                names.insert((id.clone(), s.seat.id.clone()), n.clone());
            }
        }
    }
    let rows = report::diff::rows(&old, &new, &scores, |wave, seat| {
        names.get(&(wave.to_string(), seat.to_string())).cloned()
    });
    let (mut table, json) = report::diff::diff(&old, &new, rows);
    let json = report::withdrawn::mark(
        &mut table,
        &json,
        &withdrawn.among(ids.iter().map(String::as_str)),
    );
    let text = ctx.render(format, "diff", &table, &json);
    ctx.write(&text)
}

/// `benchledger rescore`: under one rubric, or with `--all` under every registered one.
pub fn run_rescore(ctx: &mut Ctx<'_>, args: RescoreArgs) -> Result<()> {
    let RescoreArgs {
        rubric,
        all,
        waves,
        include_withdrawn,
        wait: _,
    } = args;
    match (rubric, all) {
        (Some(rubric), false) => rescore(ctx, &rubric, &waves, include_withdrawn),
        _ => rescore_all(ctx, &waves, include_withdrawn),
    }
}

/// `benchledger diff`, from its flags.
pub fn run_diff(ctx: &mut Ctx<'_>, args: DiffArgs) -> Result<()> {
    let DiffArgs {
        old,
        new,
        waves,
        include_withdrawn,
        format,
    } = args;
    diff(ctx, &old, &new, &waves, include_withdrawn, format.format)
}
