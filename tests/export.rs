//! `benchledger export`, and the CSV and JSON every listing prints: rows carry their wave and
//! seat, so two waves' CSVs concatenate into one table; integers stay integers; unknown stays
//! empty or null. `publish --out FILE` writes the published text to a file.

mod common;

use common::Env;

fn rca() -> Env {
    Env::with_waves(&[
        "examples/rca-wave-1/wave.toml",
        "examples/rca-wave-2/wave.toml",
        "examples/checkout-rematch/wave.toml",
    ])
}

/// A CSV text's header and rows, checked to be one rectangular table.
#[track_caller]
fn table(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::ReaderBuilder::new().from_reader(text.as_bytes());
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let rows: Vec<Vec<String>> = r
        .records()
        .map(|rec| rec.unwrap().iter().map(String::from).collect())
        .collect();
    assert!(rows.iter().all(|row| row.len() == header.len()));
    (header, rows)
}

#[test]
fn csv_exports_of_two_waves_concatenate_into_one_table() {
    let env = rca();
    for what in ["attempts", "seats"] {
        let one = env
            .run([
                "export",
                "--format",
                "csv",
                "--what",
                what,
                "--wave",
                "rca-wave-1",
            ])
            .ok()
            .stdout;
        let two = env
            .run([
                "export",
                "--format",
                "csv",
                "--what",
                what,
                "--wave",
                "rca-wave-2",
                "--no-header",
            ])
            .ok()
            .stdout;
        let both = env
            .run([
                "export",
                "--format",
                "csv",
                "--what",
                what,
                "--wave",
                "rca-wave-1",
                "--wave",
                "rca-wave-2",
            ])
            .ok()
            .stdout;
        assert_eq!(format!("{one}{two}"), both, "{what}");
        let (header, rows) = table(&both);
        assert_eq!(&header[..2], ["wave", "seat"], "{what}");
        let per_wave = if what == "attempts" { 24 } else { 6 };
        assert_eq!(rows.len(), 2 * per_wave, "{what}");
        assert!(rows[..per_wave].iter().all(|r| r[0] == "rca-wave-1"));
        assert!(rows[per_wave..].iter().all(|r| r[0] == "rca-wave-2"));
    }
    // `show --format csv` carries its wave too: two waves' listings, the second without its
    // header, are one table.
    let a = env
        .run(["show", "rca-wave-1", "--format", "csv"])
        .ok()
        .stdout;
    let b = env
        .run(["show", "rca-wave-2", "--format", "csv"])
        .ok()
        .stdout;
    let (ha, _) = table(&a);
    let (hb, _) = table(&b);
    assert_eq!(ha, hb);
    assert_eq!(ha[0], "wave");
    let joined = format!("{a}{}", b.split_once('\n').unwrap().1);
    let (_, rows) = table(&joined);
    assert_eq!(rows.len(), 12);
    assert_eq!(
        rows.iter()
            .filter(|r| r[0] == "rca-wave-2" && r[1] == "xai-hierarchical")
            .count(),
        1
    );
}

#[test]
fn jsonl_keeps_integers_integers_and_unknown_null() {
    let env = Env::init();
    let manifest = common::write_wave(
        &env.path().join("w"),
        r#"
[wave]
id = "partial"
suite = "s"
started_at = 2026-03-04T10:00:00Z
[wave.accounting]
input_tokens_include_cache_reads = false
[wave.budget]
tokens = 400_000
[[seat]]
id = "a"
model = "m"
provider = "p"
harness = "h"
results = "a.jsonl"
"#,
        &[(
            "a.jsonl",
            "{\"problem\":\"p1\",\"correct\":true,\"input_tokens\":400000,\"output_tokens\":5,\"wall_s\":132.0,\"cost_usd\":0.25}\n\
             {\"problem\":\"p2\",\"correct\":false,\"input_tokens\":7,\"output_tokens\":5,\"wall_s\":1.5}\n",
        )],
    );
    env.ingest(&[&manifest]);
    let out = env
        .run(["export", "--format", "jsonl", "--what", "attempts"])
        .ok()
        .stdout;
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0]["input_tokens"].is_u64(), "{out}");
    assert_eq!(lines[0]["input_tokens"], 400000);
    assert!(lines[0]["attempt"].is_u64());
    assert_eq!(lines[1]["cost_usd"], serde_json::Value::Null);
    assert_eq!(lines[1]["outcome"], serde_json::Value::Null);
    assert_eq!(lines[1]["wall_s"], 1.5);
    // Keys in the documented order, which is the CSV's.
    let keys: Vec<&str> = out.lines().next().unwrap()[1..]
        .split(",\"")
        .map(|kv| kv.trim_start_matches('"').split('"').next().unwrap())
        .collect();
    let csv = env
        .run(["export", "--format", "csv", "--what", "attempts"])
        .ok()
        .stdout;
    let (header, rows) = table(&csv);
    assert_eq!(keys, header);
    assert_eq!(
        rows[0][header.iter().position(|h| h == "wall_s").unwrap()],
        "132"
    );
    assert_eq!(
        rows[1][header.iter().position(|h| h == "cost_usd").unwrap()],
        ""
    );
    // The seats export: the unknown cost of one attempt leaves Cost-of-Pass null.
    let seats = env
        .run(["export", "--format", "jsonl", "--what", "seats"])
        .ok()
        .stdout;
    let seat: serde_json::Value = serde_json::from_str(seats.lines().next().unwrap()).unwrap();
    assert_eq!(seat["wave"], "partial");
    assert_eq!(seat["cost_known_attempts"], 1);
    assert_eq!(seat["cost_of_pass_usd"], serde_json::Value::Null);
    assert!(seat["tokens_total"].is_u64());
    // And `waves --format json` prints the whole budget as an integer.
    let waves = env.run(["waves", "--format", "json"]).ok();
    assert!(
        waves.stdout.contains("\"tokens\": 400000\n")
            || waves.stdout.contains("\"tokens\": 400000,")
    );
}

#[test]
fn exports_of_the_examples_match_their_snapshots() {
    let env = rca();
    let attempts = env
        .run([
            "export",
            "--format",
            "csv",
            "--what",
            "attempts",
            "--wave",
            "checkout-rematch",
        ])
        .ok();
    let scores = env
        .run([
            "export",
            "--format",
            "jsonl",
            "--what",
            "scores",
            "--rubric",
            "rubrics/session-efficiency.v2.toml",
            "--wave",
            "checkout-rematch",
        ])
        .ok();
    common::snapshot_settings().bind(|| {
        insta::assert_snapshot!("export__attempts_checkout_csv", attempts.stdout);
        insta::assert_snapshot!("export__scores_checkout_jsonl", scores.stdout);
    });
}

#[test]
fn an_export_asked_wrongly_is_refused() {
    let env = rca();
    let out = env
        .run(["export", "--format", "csv", "--what", "scores"])
        .status(2);
    assert!(
        out.stderr.contains(
            "--what scores: the scores of which rubric? Name one (NAME@VERSION, or a rubric \
             file); give --rubric too"
        ),
        "{}",
        out.stderr
    );
    let out = env
        .run([
            "export", "--format", "csv", "--what", "seats", "--rubric", "x@1",
        ])
        .status(2);
    assert!(
        out.stderr
            .contains("--rubric x@1: goes with an export of scores only"),
        "{}",
        out.stderr
    );
    let out = env
        .run([
            "export", "--format", "csv", "--what", "seats", "--wave", "nope",
        ])
        .status(2);
    assert!(out.stderr.contains("nope"), "{}", out.stderr);
    // csv and jsonl need --what, and go to stdout; parquet needs a directory and takes it all.
    for (args, says) in [
        (vec!["--format", "csv"], "--what is missing"),
        (
            vec!["--format", "jsonl", "--what", "seats", "--out", "d"],
            "--out goes with --format parquet, eee and hf-eval-results only",
        ),
        (
            vec!["--format", "parquet"],
            "--format parquet needs --out DIR",
        ),
        (
            vec!["--format", "parquet", "--out", "d", "--what", "seats"],
            "go with csv and jsonl",
        ),
    ] {
        let out = env.run([&["export"][..], &args].concat()).status(2);
        assert!(out.stderr.contains(says), "{args:?}: {}", out.stderr);
    }
    assert!(!env.path().join("d").exists());
}

#[test]
fn publish_out_writes_the_published_text_to_a_file() {
    let env = rca();
    env.run(["rubric", "add", "rubrics/session-efficiency.v2.toml"])
        .ok();
    let file = env.path().join("leaderboard.md");
    let out = env
        .run([
            "publish",
            "--wave",
            "checkout-rematch",
            "--rubric",
            "session-efficiency@2",
            "--out",
            file.to_str().unwrap(),
        ])
        .ok();
    assert!(
        out.stdout.contains("published text written to"),
        "{}",
        out.stdout
    );
    assert!(
        !out.stdout.contains("| Seat |"),
        "the text goes to the file, not stdout"
    );
    let text = std::fs::read(&file).unwrap();
    let json = env.run(["publications", "--format", "json"]).ok().json();
    assert_eq!(
        common::sha256_hex(&text),
        json["publications"][0]["output_sha256"].as_str().unwrap()
    );
    // A file in a directory that does not exist is refused before anything is published.
    let before = env.ledger_bytes();
    let missing = env.path().join("no/such/dir/x.md");
    let out = env
        .run([
            "publish",
            "--wave",
            "rca-wave-1",
            "--rubric",
            "session-efficiency@2",
            "--out",
            missing.to_str().unwrap(),
        ])
        .status(2);
    assert!(
        out.stderr.contains("nothing was published"),
        "{}",
        out.stderr
    );
    assert_eq!(env.ledger_bytes(), before);
}

/// Two waves whose seat listings differ in columns (the second declares canaries, so it has
/// `canary_failures`): one CSV, one header over every column, each value under its own header
/// and unknown where its wave has no such column.
#[test]
fn a_seats_csv_of_waves_with_different_columns_keeps_every_value_under_its_header() {
    let env = Env::with_waves(&[
        "tests/fixtures/trials/wave.toml",
        "tests/fixtures/canaries/wave.toml",
    ]);
    let export = |waves: &[&str]| {
        let mut args = vec!["export", "--format", "csv", "--what", "seats"];
        for w in waves {
            args.extend(["--wave", w]);
        }
        table(&env.run(args).ok().stdout)
    };
    let (plain_header, plain) = export(&["five-trials"]);
    let (canary_header, canary) = export(&["five-trials-canaries"]);
    assert!(!plain_header.contains(&"canary_failures".to_string()));
    assert!(canary_header.contains(&"canary_failures".to_string()));
    let (header, rows) = export(&["five-trials", "five-trials-canaries"]);
    assert_eq!(rows.len(), plain.len() + canary.len());
    // Every column of either wave, the first wave's in its order, the later one's after them.
    assert_eq!(&header[..plain_header.len()], &plain_header[..]);
    for c in &canary_header {
        assert!(header.contains(c), "{c} missing from {header:?}");
    }
    let cell = |row: &[String], h: &[String], col: &str| {
        h.iter().position(|c| c == col).map(|i| row[i].clone())
    };
    for (part, part_header, offset) in [
        (&plain, &plain_header, 0),
        (&canary, &canary_header, plain.len()),
    ] {
        for (i, row) in part.iter().enumerate() {
            for col in &header {
                let want = cell(row, part_header, col).unwrap_or_default();
                assert_eq!(
                    cell(&rows[offset + i], &header, col).unwrap(),
                    want,
                    "{col}"
                );
            }
        }
    }
    let lucky = rows
        .iter()
        .find(|r| r[0] == "five-trials-canaries" && r[1] == "lucky");
    assert_eq!(
        cell(lucky.expect("the lucky seat"), &header, "canary_failures").as_deref(),
        Some("1")
    );
}
