//! `export --format parquet --out DIR`: the files read back with the `parquet` crate's own reader give
//! one row per attempt, the figures `show` prints per seat, and every stored score. Built only
//! with the cargo feature `parquet`.
#![cfg(feature = "parquet")]

mod common;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use common::{Env, crate_path};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field;
use serde_json::{Map, Value};

/// The example waves, two rubrics registered and rescored.
fn ledger() -> Env {
    let env = Env::init();
    let mut manifests: Vec<PathBuf> = std::fs::read_dir(crate_path("examples"))
        .unwrap()
        .map(|e| e.unwrap().path().join("wave.toml"))
        .filter(|p| p.is_file())
        .collect();
    manifests.sort();
    let refs: Vec<&Path> = manifests.iter().map(PathBuf::as_path).collect();
    env.ingest(&refs);
    for r in ["session-efficiency.v2.toml", "session-efficiency.v1.toml"] {
        env.run([
            OsStr::new("rubric"),
            OsStr::new("add"),
            OsStr::new("--allow-scale-violation"),
            crate_path("rubrics").join(r).as_os_str(),
        ])
        .ok();
    }
    env.run(["rescore", "--all"]).ok();
    env.run(["withdraw", "rca-wave-2", "--reason", "a broken harness"])
        .ok();
    env
}

/// Every row of a Parquet file, as JSON objects keyed by column.
fn read(path: &Path) -> (Vec<String>, Vec<Map<String, Value>>) {
    let reader = SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap();
    let columns = reader
        .metadata()
        .file_metadata()
        .schema_descr()
        .columns()
        .iter()
        .map(|c| c.name().to_string())
        .collect();
    let rows = reader
        .get_row_iter(None)
        .unwrap()
        .map(|r| {
            r.unwrap()
                .get_column_iter()
                .map(|(name, f)| {
                    let v = match f {
                        Field::Null => Value::Null,
                        Field::Bool(b) => Value::from(*b),
                        Field::Long(n) => Value::from(*n),
                        Field::Double(x) => Value::from(*x),
                        Field::Str(s) => Value::from(s.as_str()),
                        other => panic!("{name}: {other:?}"),
                    };
                    (name.clone(), v)
                })
                .collect()
        })
        .collect();
    (columns, rows)
}

#[test]
fn the_parquet_files_hold_every_attempt_the_figures_of_show_and_every_score() {
    let env = ledger();
    let out_dir = env.path().join("export");
    let out = env
        .run([
            OsStr::new("export"),
            OsStr::new("--format"),
            OsStr::new("parquet"),
            OsStr::new("--out"),
            out_dir.as_os_str(),
        ])
        .ok();
    assert!(
        out.stdout.ends_with(
            "attempts.parquet (57 rows), seats.parquet (21 rows), scores.parquet (42 rows)\n"
        ),
        "{}",
        out.stdout
    );

    let (columns, attempts) = read(&out_dir.join("attempts.parquet"));
    let names: Vec<&str> = benchledger_core::export::ATTEMPTS
        .iter()
        .map(|c| c.name)
        .collect();
    assert_eq!(columns, names);
    assert_eq!(attempts.len(), 57);
    // One attempt, checked whole against the example it came from.
    let xai = attempts
        .iter()
        .find(|a| a["wave"] == "checkout-rematch" && a["seat"] == "xai-hierarchical")
        .unwrap();
    for (k, v) in [
        ("model", Value::from("grok-4")),
        ("problem", Value::from("checkout-outage")),
        ("trial", Value::from(1)),
        ("correct", Value::from(true)),
        ("input_tokens", Value::from(500_000)),
        ("output_tokens", Value::from(65_000)),
        ("wall_s", Value::from(132.0)),
        ("cost_usd", Value::from(0.91)),
        ("parallel_sessions", Value::from(5)),
        // Recorded by no example wave: null, never 1.
        ("timeout_multiplier", Value::Null),
        ("budget_tokens", Value::from(1_000_000.0)),
        ("budget_wall_s", Value::from(180.0)),
        ("input_tokens_include_cache_reads", Value::from(false)),
        ("withdrawn", Value::from(false)),
        ("outcome", Value::Null),
    ] {
        assert_eq!(xai[k], v, "{k}");
    }
    assert!(
        attempts
            .iter()
            .filter(|a| a["wave"] == "rca-wave-2")
            .all(|a| a["withdrawn"] == true)
    );

    // Per seat, the figures `show` prints.
    let (columns, seats) = read(&out_dir.join("seats.parquet"));
    let names: Vec<&str> = benchledger_core::export::SEATS
        .iter()
        .map(|c| c.name)
        .collect();
    assert_eq!(columns, names);
    assert_eq!(seats.len(), 21);
    let pairs = [
        ("problems", "problems"),
        ("attempts", "attempts"),
        ("correct", "correct"),
        ("missing", "missing"),
        ("accuracy", "accuracy"),
        ("tokens_total", "tokens_total"),
        ("tokens_total_known", "tokens_known_attempts"),
        ("new_input_tokens", "new_input_tokens"),
        ("new_input_tokens_known", "new_input_tokens_known_attempts"),
        ("wall_s", "wall_s"),
        ("wall_s_known", "wall_known_attempts"),
        ("cost_usd", "cost_usd"),
        ("cost_usd_known", "cost_known_attempts"),
        ("cost_of_pass_usd", "cost_of_pass_usd"),
        ("steps", "steps"),
        ("steps_known", "steps_known_attempts"),
        ("errors", "errors"),
        ("errors_known", "errors_known_attempts"),
        ("canary_failures", "canary_failures"),
        ("model", "model"),
        ("harness", "harness"),
    ];
    let mut checked = 0;
    for wave in env.wave_ids() {
        let show = env.run(["show", &wave, "--format", "json"]).ok().json();
        for s in show["seats"].as_array().unwrap() {
            let row = seats
                .iter()
                .find(|r| r["wave"] == wave.as_str() && r["seat"] == s["seat"])
                .unwrap_or_else(|| panic!("no row for {wave}/{}", s["seat"]));
            for (ours, theirs) in pairs {
                let (a, b) = (&row[ours], &s[theirs]);
                // serde_json's default float parsing may land one unit in the last place off
                // the printed value; the Parquet value is the exact sum.
                let same = match (a.as_f64(), b.as_f64()) {
                    (Some(x), Some(y)) => (x - y).abs() <= 1e-12 * x.abs().max(1.0),
                    _ => a == b,
                };
                assert!(
                    same,
                    "{wave}/{}: {ours} {a} against show's {theirs} {b}",
                    s["seat"]
                );
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 21);

    // Every stored score, under both rubrics.
    let (_, scores) = read(&out_dir.join("scores.parquet"));
    assert_eq!(scores.len(), 42);
    let v2 = scores
        .iter()
        .find(|s| {
            s["rubric"] == "session-efficiency@2"
                && s["wave"] == "checkout-rematch"
                && s["seat"] == "anthropic-react"
        })
        .unwrap();
    assert_eq!(v2["score"], 75.0);
    assert_eq!(
        v2["factors"],
        r#"{"accuracy":1.0,"tokens":1.0,"wall":0.75}"#
    );
}

#[test]
fn export_into_a_file_is_refused() {
    let env = ledger();
    let file = env.path().join("not-a-dir");
    std::fs::write(&file, "x").unwrap();
    let out = env
        .run([
            OsStr::new("export"),
            OsStr::new("--format"),
            OsStr::new("parquet"),
            OsStr::new("--out"),
            file.as_os_str(),
        ])
        .status(2);
    assert!(out.stderr.contains("is not a directory"), "{}", out.stderr);
}
