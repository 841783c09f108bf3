//! `benchledger demo`: a guided tour on the shipped examples.
//!
//! The example waves and rubrics are compiled into the binary, written to a temporary directory
//! (or next to the ledger named by an explicit `--db`), ingested, and walked through: the absolute
//! figures, the score that printed 125 on a 0–100 scale and the one that prints 100, a relative
//! score that rose while the seat got slower, the tidy and the wandering trace, and a published
//! leaderboard verified byte for byte.

use std::path::{Path, PathBuf};

use super::Ctx;
use crate::cli::{CiArgs, Format, PricesArg};
use crate::error::{Error, Result};

/// Every file the demo needs, by its path in the repository.
const FILES: &[(&str, &str)] = &[
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
    // The demo's waves record their costs: no price table fills any in.
    let no_prices = PricesArg::default();
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
            db.display()
        )));
    }
    let root = temp.path().join("files");
    write_files(&root)?;
    ctx.db_flag = Some(db.clone());
    let path = |rel: &str| -> PathBuf { root.join(rel) };
    let p = |rel: &str| path(rel).display().to_string();

    ctx.write(
        "benchledger demo: a ledger built from the shipped examples (examples/ and rubrics/).\n",
    )?;
    section(
        ctx,
        "1. Every wave lands in the ledger with the conditions that shape its numbers",
        "`benchledger init`, then `benchledger ingest examples/*/wave.toml`. Load (parallel \
         sessions, sessions sharing the tool server, serial rerun), token accounting and budget \
         travel with each wave.",
    )?;
    let (ledger, _) = crate::ledger::Ledger::create(&db)?;
    drop(ledger);
    ctx.write(if keep {
        "created the demo ledger\n"
    } else {
        "created a ledger in a temporary directory\n"
    })?;
    let manifests: Vec<PathBuf> = ["checkout-rematch", "rca-wave-1", "rca-wave-2", "prices-csv"]
        .iter()
        .map(|w| path(&format!("examples/{w}/wave.toml")))
        .collect();
    super::ingest::ingest(ctx, &manifests)?;
    ctx.write("\n")?;
    super::waves::waves(ctx, Format::Table)?;

    section(
        ctx,
        "2. Absolutes first",
        "`benchledger show checkout-rematch`: correct-rate with its denominator, wall seconds, \
         tokens (saying whether cached reads are in), USD and Cost-of-Pass.",
    )?;
    super::waves::show(
        ctx,
        "checkout-rematch",
        &no_prices,
        CiArgs::default(),
        Format::Table,
    )?;

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
        let text = std::fs::read_to_string(path(rel)).map_err(|e| Error::io(&path(rel), e))?;
        let rubric = crate::rubric::parse(Path::new(rel), &text)?;
        let report = crate::rubric::check(&rubric);
        ctx.write(&crate::report::rubric::check_text(rel, &rubric, &report))?;
    }
    ctx.write("\nUnder the old formula the worked seat (565k tokens, 132 s, under 1M / 180 s, Correct) prints 125:\n\n")?;
    super::score::score(
        ctx,
        "checkout-rematch",
        &p("rubrics/session-efficiency.v1.toml"),
        false,
        &no_prices,
        CiArgs::default(),
        Format::Table,
    )?;
    ctx.write("\nCapping each factor at 1.0 and multiplying directly, it prints 100; seats tied at 100 are ranked on wall seconds, then new input tokens:\n\n")?;
    super::score::score(
        ctx,
        "checkout-rematch",
        &p("rubrics/session-efficiency.v2.toml"),
        false,
        &no_prices,
        CiArgs::default(),
        Format::Table,
    )?;

    section(
        ctx,
        "4. Relative is labelled: a score that rose while the seat got slower",
        "cohort-efficiency divides correctness by resources normalised to the wave's medians. \
         Between two waves of six seats, xai-hierarchical ranked first both times while its wall \
         time went from 141 s to 262 s under heavier tool-server load. benchledger shows the \
         relative score only as a rank inside each wave, and compares waves on absolutes:",
    )?;
    for w in ["rca-wave-1", "rca-wave-2"] {
        super::score::score(
            ctx,
            w,
            &p("rubrics/cohort-efficiency.v1.toml"),
            false,
            &no_prices,
            CiArgs::default(),
            Format::Table,
        )?;
        ctx.write("\n")?;
    }
    super::compare::compare(
        ctx,
        "xai-hierarchical",
        &["rca-wave-1".to_string(), "rca-wave-2".to_string()],
        &[p("rubrics/cohort-efficiency.v1.toml")],
        false,
        Format::Table,
    )?;

    section(
        ctx,
        "5. Score the trace, not only the answer",
        "trace-holistic scores each attempt max(0, 0.6·outcome + 0.4·clip(1 − (steps − 5)·0.15, \
         0, 1) − 0.2·errors): the tidy 3-step run scores 1.0, the wandering 11-step run with two \
         errors 0.18. The retries variant forgives one smart retry but not a five-time repeat.",
    )?;
    super::score::score(
        ctx,
        "prices-csv",
        &p("rubrics/trace-holistic.v1.toml"),
        false,
        &no_prices,
        CiArgs::default(),
        Format::Table,
    )?;
    ctx.write("\n")?;
    super::score::score(
        ctx,
        "prices-csv",
        &p("rubrics/trace-holistic-retries.v1.toml"),
        false,
        &no_prices,
        CiArgs::default(),
        Format::Table,
    )?;

    section(
        ctx,
        "6. Audit a rubric change across all of history",
        "Register both versions (the old one only with --allow-scale-violation, to reproduce \
         historical numbers), rescore every wave, and diff: seat by seat, what moved and why.",
    )?;
    super::rubric::add(ctx, &[path("rubrics/session-efficiency.v2.toml")], false)?;
    super::rubric::add(ctx, &[path("rubrics/session-efficiency.v1.toml")], true)?;
    super::audit::rescore(ctx, "session-efficiency@2", &[], false)?;
    ctx.write("\n")?;
    super::audit::diff(
        ctx,
        "session-efficiency@1",
        "session-efficiency@2",
        &["checkout-rematch".to_string(), "rca-wave-1".to_string()],
        false,
        Format::Table,
    )?;

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
    super::verify::verify(
        ctx,
        super::verify::Request {
            all: true,
            ..Default::default()
        },
    )?;

    section(
        ctx,
        "8. Anchor the chain, check the whole ledger, correct without rewriting",
        "The chain's head goes outside the ledger (a git tag, a README badge): `verify \
         --expect-head` then fails if a publication is later removed or re-forged at its old \
         time. `verify --ledger` checks the schema, every wave, rubric and stored score against \
         what they were derived from. A wave found wrong is withdrawn, never deleted: it leaves \
         the leaderboards and its publications still verify.",
    )?;
    let head = ctx
        .open()?
        .chain()?
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
    super::verify::verify(
        ctx,
        super::verify::Request {
            all: true,
            ledger: true,
            ..Default::default()
        },
    )?;

    ctx.write(&if keep {
        format!(
            "\nThe demo ledger is at {}. Try `benchledger --db {} waves`.\n",
            db.display(),
            db.display()
        )
    } else {
        "\nThe demo ledger was temporary. Keep one with `benchledger demo --db demo.db`, or start \
         your own: `benchledger init` and `benchledger ingest MANIFEST.toml`.\n"
            .to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::FILES;

    /// Every example and rubric in the repository is compiled into the demo, and nothing else.
    #[test]
    fn the_demo_ships_every_example_and_rubric() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut on_disk = Vec::new();
        for dir in ["examples", "rubrics"] {
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
