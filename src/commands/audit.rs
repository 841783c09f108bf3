//! `benchledger rescore` and `benchledger diff`: auditing a rubric change across history.

use super::Ctx;
use super::rubric::resolve;
use crate::cli::{DiffArgs, RescoreArgs};
use benchledger_core::error::Result;
use benchledger_core::rescore;

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
    let mut bar = Spinner::new(ctx);
    let done = rescore::one(
        &mut ledger,
        rubric,
        &info,
        waves,
        include_withdrawn,
        &mut bar,
    )?;
    bar.finish();
    let stored = &done.rubrics[0];
    let mut msg = format!(
        "rescored {}, {} under {} (sha256 {}); scores stored, attempts untouched\n",
        plural(done.waves.len(), "wave", "waves"),
        plural(stored.seats as usize, "seat", "seats"),
        stored.id,
        benchledger_core::digest::short(&stored.sha256)
    );
    if stored.undefined > 0 {
        msg.push_str(&format!(
            "{} no score (see `benchledger score` for why)\n",
            plural(stored.undefined, "seat has", "seats have")
        ));
    }
    msg.push_str(&left_out_note(&done.left_out));
    if stored.scale_violation {
        msg.push_str(&format!(
            "note: {} fails `rubric check`; its scores can leave its declared scale\n",
            stored.id
        ));
    }
    ctx.write(&msg)
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
/// show), on a terminal only, shown once the rescore knows how many waves it reads.
struct Spinner {
    interactive: bool,
    bar: Option<indicatif::ProgressBar>,
}

impl Spinner {
    fn new(ctx: &Ctx<'_>) -> Spinner {
        Spinner {
            interactive: ctx.interactive,
            bar: None,
        }
    }

    fn finish(self) {
        if let Some(b) = self.bar {
            b.finish_and_clear();
        }
    }
}

impl rescore::Watch for Spinner {
    fn reading(&mut self, waves: usize) {
        self.bar = (self.interactive && waves > 1).then(|| {
            let bar = indicatif::ProgressBar::new_spinner();
            bar.set_style(
                indicatif::ProgressStyle::with_template("{spinner} rescoring {msg} ({elapsed})")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
            );
            bar.set_message(format!("{waves} waves"));
            bar.enable_steady_tick(std::time::Duration::from_millis(120));
            bar
        });
    }
}

/// `rescore --all`: every registered rubric, each wave read once.
pub fn rescore_all(ctx: &mut Ctx<'_>, waves: &[String], include_withdrawn: bool) -> Result<()> {
    let mut ledger = ctx.open_write()?;
    let mut bar = Spinner::new(ctx);
    let done = rescore::all(&mut ledger, waves, include_withdrawn, &mut bar)?;
    bar.finish();
    let n = done.rubrics.len();
    let mut msg = format!(
        "rescored {} under {} registered rubric{} in one pass; scores stored, attempts \
         untouched\n",
        plural(done.waves.len(), "wave", "waves"),
        n,
        if n == 1 { "" } else { "s" }
    );
    for stored in &done.rubrics {
        msg.push_str(&format!(
            "  {} (sha256 {}): {}{}\n",
            stored.id,
            benchledger_core::digest::short(&stored.sha256),
            plural(stored.seats as usize, "seat", "seats"),
            if stored.scale_violation {
                "; fails `rubric check`: its scores can leave its declared scale"
            } else {
                ""
            }
        ));
    }
    msg.push_str(&left_out_note(&done.left_out));
    ctx.write(&msg)
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
    let ledger = ctx.open()?;
    let document =
        benchledger_core::documents::diff(&ledger, &old, &new, &waves, include_withdrawn)?;
    ctx.write_document(format.format, &document)
}
