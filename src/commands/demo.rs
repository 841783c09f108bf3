//! `benchledger demo`: a guided tour on the shipped examples.
//!
//! The example waves and rubrics are compiled into the binary, written to a temporary directory
//! (or next to the ledger named by an explicit `--db`), ingested, and walked through: the absolute
//! figures, the score that printed 125 on a 0–100 scale and the one that prints 100, a relative
//! score that rose while the seat got slower, the tidy and the wandering trace, a published
//! leaderboard verified byte for byte, and a paper's numbers checked against the ledger.

use std::path::{Path, PathBuf};

use super::Ctx;
use crate::cli::{DemoArgs, Format, PricesArg};
use benchledger_core::documents::{self, Ci, Prices};
use benchledger_core::error::{Error, Result};
use benchledger_core::ledger::Ledger;
use benchledger_core::verify;

/// Every file the demo needs, and `demo --write` writes, by its path in the repository: the
/// examples, rubrics, price tables and claims the README's session uses.
const FILES: &[(&str, &str)] = &[
    (
        "claims/example-paper.v1.toml",
        include_str!("../../claims/example-paper.v1.toml"),
    ),
    (
        "examples/checkout-rematch/anthropic-react.jsonl",
        include_str!("../../examples/checkout-rematch/anthropic-react.jsonl"),
    ),
    (
        "examples/checkout-rematch/deepseek-react.jsonl",
        include_str!("../../examples/checkout-rematch/deepseek-react.jsonl"),
    ),
    (
        "examples/checkout-rematch/google-react.jsonl",
        include_str!("../../examples/checkout-rematch/google-react.jsonl"),
    ),
    (
        "examples/checkout-rematch/openai-react.jsonl",
        include_str!("../../examples/checkout-rematch/openai-react.jsonl"),
    ),
    (
        "examples/checkout-rematch/wave.toml",
        include_str!("../../examples/checkout-rematch/wave.toml"),
    ),
    (
        "examples/checkout-rematch/xai-hierarchical.jsonl",
        include_str!("../../examples/checkout-rematch/xai-hierarchical.jsonl"),
    ),
    (
        "examples/prices-csv/five-repeats.jsonl",
        include_str!("../../examples/prices-csv/five-repeats.jsonl"),
    ),
    (
        "examples/prices-csv/one-retry.jsonl",
        include_str!("../../examples/prices-csv/one-retry.jsonl"),
    ),
    (
        "examples/prices-csv/tidy.jsonl",
        include_str!("../../examples/prices-csv/tidy.jsonl"),
    ),
    (
        "examples/prices-csv/wandering.jsonl",
        include_str!("../../examples/prices-csv/wandering.jsonl"),
    ),
    (
        "examples/prices-csv/wave.toml",
        include_str!("../../examples/prices-csv/wave.toml"),
    ),
    (
        "examples/rca-wave-1/anthropic-hierarchical.jsonl",
        include_str!("../../examples/rca-wave-1/anthropic-hierarchical.jsonl"),
    ),
    (
        "examples/rca-wave-1/anthropic-react.jsonl",
        include_str!("../../examples/rca-wave-1/anthropic-react.jsonl"),
    ),
    (
        "examples/rca-wave-1/openai-hierarchical.jsonl",
        include_str!("../../examples/rca-wave-1/openai-hierarchical.jsonl"),
    ),
    (
        "examples/rca-wave-1/openai-react.jsonl",
        include_str!("../../examples/rca-wave-1/openai-react.jsonl"),
    ),
    (
        "examples/rca-wave-1/wave.toml",
        include_str!("../../examples/rca-wave-1/wave.toml"),
    ),
    (
        "examples/rca-wave-1/xai-hierarchical.jsonl",
        include_str!("../../examples/rca-wave-1/xai-hierarchical.jsonl"),
    ),
    (
        "examples/rca-wave-1/xai-react.jsonl",
        include_str!("../../examples/rca-wave-1/xai-react.jsonl"),
    ),
    (
        "examples/rca-wave-2/anthropic-hierarchical.jsonl",
        include_str!("../../examples/rca-wave-2/anthropic-hierarchical.jsonl"),
    ),
    (
        "examples/rca-wave-2/anthropic-react.jsonl",
        include_str!("../../examples/rca-wave-2/anthropic-react.jsonl"),
    ),
    (
        "examples/rca-wave-2/openai-hierarchical.jsonl",
        include_str!("../../examples/rca-wave-2/openai-hierarchical.jsonl"),
    ),
    (
        "examples/rca-wave-2/openai-react.jsonl",
        include_str!("../../examples/rca-wave-2/openai-react.jsonl"),
    ),
    (
        "examples/rca-wave-2/wave.toml",
        include_str!("../../examples/rca-wave-2/wave.toml"),
    ),
    (
        "examples/rca-wave-2/xai-hierarchical.jsonl",
        include_str!("../../examples/rca-wave-2/xai-hierarchical.jsonl"),
    ),
    (
        "examples/rca-wave-2/xai-react.jsonl",
        include_str!("../../examples/rca-wave-2/xai-react.jsonl"),
    ),
    (
        "prices/example-list.v1.toml",
        include_str!("../../prices/example-list.v1.toml"),
    ),
    (
        "prices/example-list.v2.toml",
        include_str!("../../prices/example-list.v2.toml"),
    ),
    (
        "rubrics/accuracy.v1.toml",
        include_str!("../../rubrics/accuracy.v1.toml"),
    ),
    (
        "rubrics/cohort-efficiency.v1.toml",
        include_str!("../../rubrics/cohort-efficiency.v1.toml"),
    ),
    (
        "rubrics/session-efficiency-gated.v1.toml",
        include_str!("../../rubrics/session-efficiency-gated.v1.toml"),
    ),
    (
        "rubrics/session-efficiency-new-input.v1.toml",
        include_str!("../../rubrics/session-efficiency-new-input.v1.toml"),
    ),
    (
        "rubrics/session-efficiency.v1.toml",
        include_str!("../../rubrics/session-efficiency.v1.toml"),
    ),
    (
        "rubrics/session-efficiency.v2.toml",
        include_str!("../../rubrics/session-efficiency.v2.toml"),
    ),
    (
        "rubrics/trace-holistic-retries.v1.toml",
        include_str!("../../rubrics/trace-holistic-retries.v1.toml"),
    ),
    (
        "rubrics/trace-holistic.v1.toml",
        include_str!("../../rubrics/trace-holistic.v1.toml"),
    ),
];

fn write_files(root: &Path) -> Result<()> {
    for (rel, text) in FILES {
        let path = root.join(rel);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        std::fs::write(&path, text).map_err(|e| Error::io(&path, e))?;
    }
    Ok(())
}

fn section(ctx: &mut Ctx<'_>, title: &str, words: &str) -> Result<()> {
    ctx.write(&format!("\n━━ {title} ━━\n{words}\n\n"))
}

pub fn demo(ctx: &mut Ctx<'_>) -> Result<()> {
    // Only an explicit --db keeps the demo ledger; BENCHLEDGER_DB is ignored so the demo never
    // writes into a real ledger.
    let temp = tempfile::tempdir().map_err(|e| Error::io(Path::new("<tempdir>"), e))?;
    let (db, keep) = match &ctx.db_flag {
        Some(p) => (p.clone(), true),
        None => (temp.path().join("demo.db"), false),
    };
    if keep && db.exists() {
        return Err(Error::Usage(format!(
            "{} already exists: the demo builds a new ledger; give --db a path that does not \
             exist yet",
            Ledger::shown(&db).display()
        )));
    }
    let root = temp.path().join("files");
    write_files(&root)?;
    ctx.db_flag = Some(db.clone());

    ctx.write(
        "benchledger demo: a ledger built from the shipped examples (examples/ and rubrics/).\n",
    )?;
    tour_ingest(ctx, &db, keep, &root)?;
    tour_absolutes(ctx)?;
    tour_scale(ctx, &root)?;
    tour_relative(ctx, &root)?;
    tour_trace(ctx, &root)?;
    tour_audit(ctx, &root)?;
    tour_publish(ctx)?;
    tour_claims(ctx, &root)?;
    tour_anchor(ctx)?;

    ctx.write(&if keep {
        format!(
            "\nThe demo ledger is at {}. Try `benchledger --db {} waves`.\n",
            Ledger::shown(&db).display(),
            Ledger::shown(&db).display()
        )
    } else {
        "\nThe demo ledger was temporary. Keep one with `benchledger demo --db demo.db`; write the \
         files it is built from with `benchledger demo --write DIR` and run the \
         README's session from DIR; or start your own: `benchledger init` and `benchledger ingest \
         MANIFEST.toml`.\n"
            .to_string()
    })
}

/// A shipped file's path under the demo's `root`, as text for a command's argument.
fn file(root: &Path, rel: &str) -> String {
    root.join(rel).display().to_string()
}

/// Section 1 of the tour: the demo ledger created at `db`, and the example waves ingested
/// into it with their conditions.
fn tour_ingest(ctx: &mut Ctx<'_>, db: &Path, keep: bool, root: &Path) -> Result<()> {
    section(
        ctx,
        "1. Every wave lands in the ledger with the conditions that shape its numbers",
        "`benchledger init`, then `benchledger ingest examples/*/wave.toml`. Load (parallel \
         sessions, sessions sharing the tool server, serial rerun), token accounting and budget \
         travel with each wave.",
    )?;
    let (ledger, _) = benchledger_core::ledger::Ledger::create(db)?;
    drop(ledger);
    ctx.write(if keep {
        "created the demo ledger\n"
    } else {
        "created a ledger in a temporary directory\n"
    })?;
    let manifests: Vec<PathBuf> = ["checkout-rematch", "rca-wave-1", "rca-wave-2", "prices-csv"]
        .iter()
        .map(|w| root.join(format!("examples/{w}/wave.toml")))
        .collect();
    super::ingest::ingest(ctx, &manifests)?;
    ctx.write("\n")?;
    super::waves::waves(ctx, Format::Table)?;
    Ok(())
}

/// Section 2 of the tour: absolutes first, `show` of one wave.
fn tour_absolutes(ctx: &mut Ctx<'_>) -> Result<()> {
    // The demo's waves record their costs: no price table fills any in.
    let no_prices = Prices::default();
    section(
        ctx,
        "2. Absolutes first",
        "`benchledger show checkout-rematch`: correct-rate with its denominator, wall seconds, \
         tokens (saying whether cached reads are in), USD and Cost-of-Pass.",
    )?;
    let ledger = ctx.open()?;
    let document = documents::show(&ledger, "checkout-rematch", &no_prices, Ci::default())?;
    ctx.write_document(Format::Table, &document)?;
    Ok(())
}

/// A wave's leaderboard under a rubric file, as `score` prints it (the demo's waves record
/// their costs: no price table fills any in).
fn score(ctx: &mut Ctx<'_>, wave: &str, rubric: &str) -> Result<()> {
    let ledger = ctx.open()?;
    let document = documents::score(
        &ledger,
        wave,
        rubric,
        false,
        &Prices::default(),
        Ci::default(),
    )?;
    ctx.write_document(Format::Table, &document)
}

/// Section 3 of the tour: `rubric check` of the old and the new formula, and the score each
/// prints.
fn tour_scale(ctx: &mut Ctx<'_>, root: &Path) -> Result<()> {
    section(
        ctx,
        "3. A scale is a promise: the score that printed 125 on a 0–100 scale",
        "The old formula clipped each factor to [0.25, 1.25] and multiplied them through square \
         roots, so finishing under budget earned bonuses that compound. `benchledger rubric \
         check` proves the range of every rubric by interval arithmetic and rejects it:",
    )?;
    for rel in [
        "rubrics/session-efficiency.v1.toml",
        "rubrics/session-efficiency.v2.toml",
    ] {
        let text =
            std::fs::read_to_string(root.join(rel)).map_err(|e| Error::io(&root.join(rel), e))?;
        let rubric = benchledger_core::rubric::parse(Path::new(rel), &text)?;
        let report = benchledger_core::rubric::check(&rubric);
        ctx.write(&benchledger_core::report::rubric::check_text(
            rel, &rubric, &report,
        ))?;
    }
    ctx.write("\nUnder the old formula the worked seat (565k tokens, 132 s, under 1M / 180 s, Correct) prints 125:\n\n")?;
    score(
        ctx,
        "checkout-rematch",
        &file(root, "rubrics/session-efficiency.v1.toml"),
    )?;
    ctx.write("\nCapping each factor at 1.0 and multiplying directly, it prints 100; seats tied at 100 are ranked on wall seconds, then new input tokens:\n\n")?;
    score(
        ctx,
        "checkout-rematch",
        &file(root, "rubrics/session-efficiency.v2.toml"),
    )?;
    Ok(())
}

/// Section 4 of the tour: a relative score shown only as a rank in each wave, and `compare`
/// on absolutes.
fn tour_relative(ctx: &mut Ctx<'_>, root: &Path) -> Result<()> {
    section(
        ctx,
        "4. Relative is labelled: a score that rose while the seat got slower",
        "cohort-efficiency divides correctness by resources normalised to the wave's medians. \
         Between two waves of six seats, xai-hierarchical ranked first both times while its wall \
         time went from 141 s to 262 s under heavier tool-server load. benchledger shows the \
         relative score only as a rank inside each wave, and compares waves on absolutes:",
    )?;
    for w in ["rca-wave-1", "rca-wave-2"] {
        score(ctx, w, &file(root, "rubrics/cohort-efficiency.v1.toml"))?;
        ctx.write("\n")?;
    }
    let ledger = ctx.open()?;
    let compared = documents::compare(
        &ledger,
        "xai-hierarchical",
        &["rca-wave-1".to_string(), "rca-wave-2".to_string()],
        &[file(root, "rubrics/cohort-efficiency.v1.toml")],
        false,
    )?;
    let text = crate::terminal::render_comparison(
        &compared.comparison,
        Format::Table,
        &compared.json,
        &mut ctx.layout,
    );
    ctx.write(&text)?;
    relative_story(ctx, &file(root, "rubrics/cohort-efficiency.v1.toml"))?;
    Ok(())
}

/// Section 5 of the tour: the trace scored, by trace-holistic and its retries variant.
fn tour_trace(ctx: &mut Ctx<'_>, root: &Path) -> Result<()> {
    section(
        ctx,
        "5. Score the trace, not only the answer",
        "trace-holistic scores each attempt max(0, 0.6·outcome + 0.4·clip(1 − (steps − 5)·0.15, \
         0, 1) − 0.2·errors): the tidy 3-step run scores 1.0, the wandering 11-step run with two \
         errors 0.18. The retries variant forgives one smart retry but not a five-time repeat.",
    )?;
    trace_columns(ctx)?;
    score(
        ctx,
        "prices-csv",
        &file(root, "rubrics/trace-holistic.v1.toml"),
    )?;
    ctx.write("\n")?;
    score(
        ctx,
        "prices-csv",
        &file(root, "rubrics/trace-holistic-retries.v1.toml"),
    )?;
    Ok(())
}

/// Section 6 of the tour: a rubric change audited across history (register, rescore, diff).
fn tour_audit(ctx: &mut Ctx<'_>, root: &Path) -> Result<()> {
    section(
        ctx,
        "6. Audit a rubric change across all of history",
        "Register both versions (the old one only with --allow-scale-violation, to reproduce \
         historical numbers), rescore every wave, and diff: seat by seat, what moved and why.",
    )?;
    super::rubric::add(
        ctx,
        &[root.join("rubrics/session-efficiency.v2.toml")],
        false,
    )?;
    super::rubric::add(
        ctx,
        &[root.join("rubrics/session-efficiency.v1.toml")],
        true,
    )?;
    super::audit::rescore(ctx, "session-efficiency@2", &[], false)?;
    ctx.write("\n")?;
    let ledger = ctx.open()?;
    let document = documents::diff(
        &ledger,
        "session-efficiency@1",
        "session-efficiency@2",
        &["checkout-rematch".to_string(), "rca-wave-1".to_string()],
        false,
    )?;
    ctx.write_document(Format::Table, &document)?;
    Ok(())
}

/// Section 7 of the tour: a publication, then `verify` byte for byte.
fn tour_publish(ctx: &mut Ctx<'_>) -> Result<()> {
    section(
        ctx,
        "7. Publish, then verify byte for byte",
        "A publication freezes the rendered leaderboard with a digest of every input row and the \
         rubric's hash, chained to the previous publication. `verify` recomputes it from the \
         ledger and compares.",
    )?;
    super::publish::publish(
        ctx,
        super::publish::Request {
            wave: "checkout-rematch",
            rubric: "session-efficiency@2",
            title: Some("Checkout-outage rematch"),
            ..Default::default()
        },
    )?;
    ctx.write("\n")?;
    verify_all(
        ctx,
        &verify::Request {
            all: true,
            ..Default::default()
        },
    )?;
    Ok(())
}

/// The tour's `benchledger verify`: the library's verification, its report printed.
fn verify_all(ctx: &mut Ctx<'_>, req: &verify::Request<'_>) -> Result<()> {
    let report = verify::run(req, || ctx.open())?;
    ctx.write(&report.text)?;
    report.outcome()
}

/// Section 8 of the tour: `claims check` of a paper's claims file.
fn tour_claims(ctx: &mut Ctx<'_>, root: &Path) -> Result<()> {
    // The demo's waves record their costs: no price table fills any in.
    let no_prices = PricesArg::default();
    section(
        ctx,
        "8. Check what others published",
        "A claims file lists numbers someone published about these waves — here a paper's — with \
         the precision they were printed with. `benchledger claims check \
         claims/example-paper.v1.toml` computes each from the ledger and says whether it \
         reproduces, differs (and under which convention it would reproduce), or cannot be \
         computed (and why).",
    )?;
    match super::claims::check_labelled(
        ctx,
        &[root.join("claims/example-paper.v1.toml")],
        &["claims/example-paper.v1.toml".to_string()],
        &no_prices,
        Format::Table,
    ) {
        Err(Error::CheckFailed(why)) => ctx.write(&format!(
            "`claims check` exits 1 when a claim differs: here {}.\n",
            why.trim_end_matches(" (see above)")
        ))?,
        other => other?,
    }
    Ok(())
}

/// Section 9 of the tour: the chain's head, a withdrawal, and `verify --all --ledger`.
fn tour_anchor(ctx: &mut Ctx<'_>) -> Result<()> {
    section(
        ctx,
        "9. Anchor the chain, check the whole ledger, correct without rewriting",
        "The chain's head goes outside the ledger (a git tag, a README badge): every ingest, \
         registration, publication and withdrawal is an entry of the chain, so `verify \
         --expect-head` then fails if one is later removed or re-forged at its old time. \
         `verify --ledger` checks the schema, every wave, rubric and stored score against what \
         they were derived from, and every entry against the rows it names. A wave found wrong is withdrawn, never deleted: it leaves \
         the leaderboards and its publications still verify.",
    )?;
    let head = ctx
        .open()?
        .walk()?
        .last()
        .map(|e| e.sha256().to_string())
        .unwrap_or_default();
    ctx.write(&format!("$ benchledger publications --head\n{head}\n\n"))?;
    super::withdraw::withdraw(
        ctx,
        "rca-wave-1",
        "stragglers were rerun serially against a different tool-server build",
    )?;
    ctx.write("\n")?;
    verify_all(
        ctx,
        &verify::Request {
            all: true,
            ledger: true,
            ..Default::default()
        },
    )?;
    Ok(())
}

/// `benchledger demo --write DIR`: writes the shipped examples, rubrics, price tables and claims
/// under DIR (`DIR/examples/`, `DIR/rubrics/`, `DIR/prices/`, `DIR/claims/`), so that the README's session runs from
/// DIR on a machine without the repository. A file already there with the same text is left
/// as it is; one with other text is refused, before anything is written.
pub fn write(ctx: &mut Ctx<'_>, dir: &Path) -> Result<()> {
    if dir.exists() && !dir.is_dir() {
        return Err(Error::Usage(format!(
            "--write {} is not a directory: name a directory to write the examples into (it \
             is created when missing)",
            dir.display()
        )));
    }
    let mut differing = Vec::new();
    let mut present = 0usize;
    for (rel, text) in FILES {
        let path = dir.join(rel);
        match std::fs::read(&path) {
            Ok(bytes) if bytes == text.as_bytes() => present += 1,
            Ok(_) => differing.push(path.display().to_string()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(&path, e)),
        }
    }
    if !differing.is_empty() {
        return Err(Error::Usage(format!(
            "{} already exist{} with other content: nothing was written. Write the examples \
             into another directory, or move {} away",
            differing.join(", "),
            if differing.len() == 1 { "s" } else { "" },
            if differing.len() == 1 { "it" } else { "them" },
        )));
    }
    write_files(dir)?;
    let written = FILES.len() - present;
    let mut msg = format!(
        "wrote {written} files under {} (examples/, rubrics/, prices/, claims/)",
        dir.display()
    );
    if present > 0 {
        msg.push_str(&format!("; {present} were there already, identical"));
    }
    msg.push_str(&format!(
        "\nThe README's session runs from there:\n  cd {}\n  benchledger init\n  benchledger \
         ingest examples/*/wave.toml\n",
        dir.display()
    ));
    ctx.write(&msg)
}

/// The seat whose relative score rose while it got slower.
const STORY_SEAT: &str = "xai-hierarchical";

/// The relative story in words, its numbers read from the ledger: the seat's relative score
/// and wall seconds in each rca wave, and the wave's median wall seconds.
fn relative_story(ctx: &mut Ctx<'_>, rubric: &str) -> Result<()> {
    use benchledger_core::number::fixed;
    let ledger = ctx.open()?;
    let info = super::rubric::resolve(&ledger, rubric)?;
    let mut points = Vec::new();
    for w in ["rca-wave-1", "rca-wave-2"] {
        let data = ledger.load_wave(w)?;
        let scores = benchledger_core::rubric::score_wave(&info.rubric, &data);
        let score = scores
            .seats
            .iter()
            .find(|s| s.seat == STORY_SEAT)
            .and_then(|s| s.score);
        let mut walls: Vec<f64> = data
            .seats
            .iter()
            .map(|s| {
                benchledger_core::figures::SeatFigures::of(&data.wave, s)
                    .wall_s
                    .sum
            })
            .collect();
        walls.sort_by(f64::total_cmp);
        let median = match walls.len() {
            0 => None,
            n if n % 2 == 1 => Some(walls[n / 2]),
            n => Some((walls[n / 2 - 1] + walls[n / 2]) / 2.0),
        };
        let wall = data
            .seats
            .iter()
            .find(|s| s.seat.id == STORY_SEAT)
            .map(|s| {
                benchledger_core::figures::SeatFigures::of(&data.wave, s)
                    .wall_s
                    .sum
            });
        points.push((score, wall, median));
    }
    let [
        (Some(s1), Some(w1), Some(m1)),
        (Some(s2), Some(w2), Some(m2)),
    ] = points[..]
    else {
        return Ok(());
    };
    ctx.write_prose(&format!(
        "\nIn words: {STORY_SEAT}'s relative score rose {} → {} while its wall time rose {} → {} \
         s. The seat did not get better: the whole wave slowed more under the heavier load (the \
         wave's median wall time went {} → {} s), and a score measured against the wave's \
         medians rewards a seat for slowing less than the others. That is why a relative score \
         is shown as a rank inside its own wave, and waves are compared on wall seconds, tokens \
         and dollars.\n",
        fixed(s1, 3),
        fixed(s2, 3),
        fixed(w1, 0),
        fixed(w2, 0),
        fixed(m1, 0),
        fixed(m2, 0),
    ))
}

/// The trace columns the trace rubrics read, attempt by attempt, in the prices-csv wave: the
/// steps, the errors, the failed calls in runs, and the errors still charged with one free
/// retry (trace-holistic-retries' `free_retries = 1`).
fn trace_columns(ctx: &mut Ctx<'_>) -> Result<()> {
    let data = ctx.open()?.load_wave("prices-csv")?;
    let mut table = benchledger_core::report::waves::trace_table(&data, 1);
    table.heading.push(
        "The trace, attempt by attempt: steps, errors, the failed calls (a run of failures of \
         one tool as `fetch ×5`), and the errors left when the first failure of each run is \
         free:"
            .into(),
    );
    let text = crate::terminal::to_text_in(&table, &mut ctx.layout);
    ctx.write(&text)?;
    ctx.write("\n")
}

/// `benchledger demo`: the tour, or with `--write DIR` the files it is built from.
pub fn run(ctx: &mut Ctx<'_>, args: DemoArgs) -> Result<()> {
    match args.write {
        None => demo(ctx),
        Some(dir) => write(ctx, &dir),
    }
}

#[cfg(test)]
mod tests {
    use super::FILES;

    /// Every example and rubric in the repository is compiled into the demo, and nothing else.
    #[test]
    fn the_demo_ships_every_example_and_rubric() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut on_disk = Vec::new();
        for dir in ["claims", "examples", "prices", "rubrics"] {
            let mut stack = vec![root.join(dir)];
            while let Some(d) = stack.pop() {
                for entry in std::fs::read_dir(&d).unwrap() {
                    let p = entry.unwrap().path();
                    if p.is_dir() {
                        stack.push(p);
                    } else if p.file_name().is_some_and(|n| n != "README.md") {
                        let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                        on_disk.push(rel);
                    }
                }
            }
        }
        on_disk.sort();
        let mut shipped: Vec<String> = FILES.iter().map(|(p, _)| p.to_string()).collect();
        shipped.sort();
        assert_eq!(shipped, on_disk);
    }
}
