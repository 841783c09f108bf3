//! benchledger embedded in another program, with the library alone: no command line, no
//! terminal. It opens a new ledger, ingests two of the shipped example waves in one
//! transaction, proves a shipped rubric keeps its declared scale, scores a wave under it, and
//! verifies the ledger against what it was derived from.
//!
//! ```text
//! cargo run -p benchledger-core --example embed
//! ```
//!
//! `cargo test` runs it too (`test = true` in the crate's Cargo.toml), so it cannot rot.

use std::error::Error;
use std::path::{Path, PathBuf};

use benchledger_core::import::Quiet;
use benchledger_core::ingest;
use benchledger_core::ledger::Ledger;
use benchledger_core::report;
use benchledger_core::rubric;
use benchledger_core::verify;

/// What the walk-through found: the waves added, the rubric's proven range, the leader and
/// its score, and whether the ledger verified.
#[derive(Debug)]
struct Walk {
    added: Vec<String>,
    range: (f64, f64),
    board: String,
    verified: bool,
}

fn walk(root: &Path, db: &Path) -> Result<Walk, Box<dyn Error>> {
    // A new ledger (SQLite here; a `postgresql://` URL opens a shared one).
    let (ledger, _created) = Ledger::create(db)?;

    // Ingest: every wave lands, or none does; bad input names file, line and field.
    let manifests: Vec<PathBuf> = ["rca-wave-1", "rca-wave-2"]
        .iter()
        .map(|w| root.join("examples").join(w).join("wave.toml"))
        .collect();
    let now = "2026-12-04T00:00:00Z";
    let added = ingest::run::manifests(&ledger, &manifests, now, &mut Quiet)?.added();

    // A rubric is data: parsed from its TOML, then proven to stay inside its declared scale.
    let path = root.join("rubrics/session-efficiency.v2.toml");
    let text = std::fs::read_to_string(&path)?;
    let rubric = rubric::parse(&path, &text)?;
    let proof = rubric::check(&rubric);
    if !proof.violations.is_empty() {
        return Err(format!("{path:?} can leave its scale: {:?}", proof.violations).into());
    }
    let range = (proof.range.lo.value, proof.range.hi.value);

    // Score one wave: the interpreter is pure, data in and data out.
    let data = ledger.load_wave("rca-wave-2")?;
    let scores = rubric::score_wave(&rubric, &data);
    let info = rubric::RubricInfo {
        rubric,
        sha256: benchledger_core::digest::sha256_hex(text.as_bytes()),
        scale_violation: false,
        registered: false,
    };
    let (table, _json) = report::score::leaderboard_with(&data, &info, &scores, None);
    let board = report::to_markdown(&table);

    // Verify: every wave re-hashed and every stored figure recomputed.
    let request = verify::Request {
        ids: &[],
        all: true,
        bundle: None,
        ledger: true,
        expect_head: None,
        trusted_key: None,
    };
    let found = verify::run(&request, || Ledger::open(db))?;
    Ok(Walk {
        added,
        range,
        board,
        verified: found.outcome().is_ok(),
    })
}

fn main() -> Result<(), Box<dyn Error>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = tempfile::tempdir()?;
    let w = walk(&root, &dir.path().join("ledger.db"))?;
    println!("added: {}", w.added.join(", "));
    println!(
        "session-efficiency@2 scores within [{}, {}]",
        w.range.0, w.range.1
    );
    println!("{}", w.board);
    println!("verified: {}", if w.verified { "yes" } else { "no" });
    Ok(())
}

#[test]
fn the_walk_through_ingests_scores_and_verifies() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = tempfile::tempdir().unwrap();
    let w = walk(&root, &dir.path().join("ledger.db")).unwrap();
    assert_eq!(w.added, ["rca-wave-1", "rca-wave-2"]);
    assert!(0.0 <= w.range.0 && w.range.1 <= 100.0, "{:?}", w.range);
    // Six seats ranked, each a row of the board.
    assert_eq!(
        w.board.lines().filter(|l| l.starts_with("| ")).count(),
        1 + 6,
        "{}",
        w.board
    );
    assert!(w.verified);
}
