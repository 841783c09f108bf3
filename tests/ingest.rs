//! Ingest through the CLI: the corpus of bad inputs, re-ingest, conflicts, all-or-nothing.
//!
//! Every directory under `tests/corpus/bad/` is one case: a `wave.toml` and the result files it
//! names (or, when the case holds an `args.txt`, the manifests listed there, one a line, given
//! to one `ingest` in that order), and an `expected.txt` holding the exact error line the binary
//! must print, with the case's directory written as `<dir>`. Each case is ingested into a
//! ledger that already holds the good wave of `tests/fixtures/base/`; it must exit 2, print
//! exactly that line, and leave the ledger's bytes as they were.
//!
//! To add a case, make its directory and run `BLESS_CORPUS=1 cargo test --test ingest`, which
//! writes the `expected.txt` of every case from what the binary prints; then read them.

mod common;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use common::{Env, copy_dir, tests_dir, write_wave};

/// The cases the corpus must hold at least (issue 2, then regressions found since); the test
/// fails if one goes missing.
const REQUIRED: &[&str] = &[
    "wrong-type-string-for-number",
    "unknown-field-misspelt",
    "manifest-unknown-key",
    "negative-tokens",
    "nan",
    "infinity",
    "number-out-of-range",
    "outcome-above-one",
    "duplicate-attempt",
    "duplicate-seat",
    "missing-results-file",
    "trace-steps-disagree",
    "trace-errors-disagree",
    "more-errors-than-steps",
    "problem-not-in-suite-file",
    "more-problems-than-suite",
    "missing-accounting",
    "missing-correct",
    "invalid-json",
    "csv-bad-cell",
    "csv-unknown-column",
    "bad-started-at",
    "wave-id-with-space",
    "cache-reads-exceed-input",
    "second-manifest-bad",
    "different-wave-same-id",
    "tokens-above-a-trillion",
    "tokens-above-i64-max",
    "csv-crlf-bad-cell",
    "tokens-1e400",
    "csv-tokens-1e400",
    "manifest-budget-1e400",
    "suite-problems-above-the-cap",
    "manifest-timeout-multiplier-zero",
    "manifest-timeout-multiplier-nan",
    "timeout-multiplier-on-a-wave-held-without-one",
];

fn base_manifest() -> PathBuf {
    tests_dir("fixtures/base/wave.toml")
}

/// A ledger holding the base wave.
fn ledger_with_base() -> Env {
    let env = Env::init();
    env.ingest(&[&base_manifest()]);
    env
}

/// Runs one corpus case; returns a description of what went wrong, if anything did.
fn run_case(case: &Path) -> Option<String> {
    let name = case.file_name().unwrap().to_string_lossy().into_owned();
    let env = ledger_with_base();
    let dir = env.path().join("case").join(&name);
    copy_dir(case, &dir);
    let manifests: Vec<PathBuf> = match std::fs::read_to_string(case.join("args.txt")) {
        Ok(list) => list
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| dir.join(l.trim()))
            .collect(),
        Err(_) => vec![dir.join("wave.toml")],
    };

    let before = env.ledger_bytes();
    let mut args = vec![PathBuf::from("ingest")];
    args.extend(manifests);
    let out = env.run(&args);
    let after = env.ledger_bytes();

    let message = out
        .stderr
        .trim_end()
        .replace(dir.to_str().expect("a UTF-8 temporary path"), "<dir>");
    let expected_path = case.join("expected.txt");
    if std::env::var_os("BLESS_CORPUS").is_some() {
        std::fs::write(&expected_path, format!("{message}\n")).expect("writing expected.txt");
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();

    let mut problems = Vec::new();
    if out.status != 2 {
        problems.push(format!("exit status {} (expected 2)", out.status));
    }
    if message != expected.trim_end() {
        problems.push(format!(
            "stderr differs from expected.txt\n   expected: {}\n   actual:   {message}",
            expected.trim_end()
        ));
    }
    if message.lines().count() != 1 || !message.starts_with("error: ") {
        problems.push(format!("expected one `error: ` line, got {message:?}"));
    }
    if !out.stdout.is_empty() {
        problems.push(format!("printed to stdout: {:?}", out.stdout));
    }
    if before != after {
        problems.push("the ledger's bytes changed".into());
    }
    (!problems.is_empty()).then(|| format!("[{name}] {}", problems.join("\n  ")))
}

#[test]
fn every_bad_input_is_refused_with_its_message_and_an_unchanged_ledger() {
    let root = tests_dir("corpus/bad");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("tests/corpus/bad exists")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    let names: Vec<String> = cases
        .iter()
        .map(|c| c.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for required in REQUIRED {
        assert!(
            names.iter().any(|n| n == required),
            "the corpus lost its `{required}` case"
        );
    }
    let failures: Vec<String> = cases.iter().filter_map(|c| run_case(c)).collect();
    assert!(
        failures.is_empty(),
        "{} of {} corpus cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn reingesting_the_same_wave_is_a_no_op_that_says_so() {
    let env = ledger_with_base();
    let before = env.ledger_bytes();
    let out = env.run([Path::new("ingest"), &base_manifest()]).ok();
    assert_eq!(
        out.stdout,
        "wave base is already in the ledger with the same content (sha256 9ff817cf1fcf); \
         nothing to do\n"
    );
    assert_eq!(env.ledger_bytes(), before);
    assert_eq!(env.wave_ids(), ["base"]);

    // The same content from a copy elsewhere is the same wave: paths are not content.
    let copy = env.path().join("copy");
    copy_dir(&tests_dir("fixtures/base"), &copy);
    let out = env.run([Path::new("ingest"), &copy.join("wave.toml")]).ok();
    assert!(out.stdout.contains("nothing to do"), "{}", out.stdout);
    assert_eq!(env.ledger_bytes(), before);
}

#[test]
fn a_different_wave_under_an_existing_id_is_refused() {
    let env = ledger_with_base();
    let before = env.ledger_bytes();
    // The base wave with one attempt's cost changed.
    let dir = env.path().join("changed");
    copy_dir(&tests_dir("fixtures/base"), &dir);
    let results = std::fs::read_to_string(dir.join("s1.jsonl")).unwrap();
    std::fs::write(
        dir.join("s1.jsonl"),
        results.replacen("\"cost_usd\":0.01", "\"cost_usd\":0.02", 1),
    )
    .unwrap();
    let out = env
        .run([Path::new("ingest"), &dir.join("wave.toml")])
        .status(2);
    assert!(
        out.stderr
            .starts_with("error: wave `base` is already in the ledger with different content"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("give the new wave its own id"),
        "{}",
        out.stderr
    );
    assert_eq!(env.ledger_bytes(), before);
    assert_eq!(env.wave_ids(), ["base"]);
}

#[test]
fn a_good_manifest_does_not_land_when_a_later_one_on_the_same_command_is_bad() {
    let env = ledger_with_base();
    let case = env.path().join("case");
    copy_dir(&tests_dir("corpus/bad/second-manifest-bad"), &case);
    // The good one alone would land...
    let alone = Env::init();
    alone.ingest(&[&case.join("good/wave.toml")]);
    assert_eq!(alone.wave_ids(), ["also-good"]);
    // ...but not beside a bad one.
    env.run([
        Path::new("ingest"),
        &case.join("good/wave.toml"),
        &case.join("bad/wave.toml"),
    ])
    .status(2);
    assert_eq!(env.wave_ids(), ["base"]);
}

#[test]
fn a_conflict_in_a_later_wave_keeps_an_earlier_new_wave_out_too() {
    // Both waves are well-formed; the second contradicts the ledger. The refusal comes from
    // inside the write transaction, so this checks the rollback rather than the pre-checks.
    let env = ledger_with_base();
    let before = env.ledger_bytes();
    let case = env.path().join("case");
    copy_dir(
        &tests_dir("corpus/bad/second-manifest-bad/good"),
        &case.join("new"),
    );
    copy_dir(
        &tests_dir("corpus/bad/different-wave-same-id"),
        &case.join("conflict"),
    );
    env.run([
        Path::new("ingest"),
        &case.join("new/wave.toml"),
        &case.join("conflict/wave.toml"),
    ])
    .status(2);
    assert_eq!(env.ledger_bytes(), before);
    assert_eq!(env.wave_ids(), ["base"]);
}

#[test]
fn several_good_manifests_land_together_and_a_repeat_among_them_is_skipped() {
    let env = ledger_with_base();
    let dir = env.path().join("w2");
    let manifest = write_wave(
        &dir,
        r#"
[wave]
id = "second"
suite = "demo-suite"
started_at = 2026-03-02T09:00:00Z

[wave.accounting]
input_tokens_include_cache_reads = false

[[seat]]
id = "s1"
model = "model-a"
provider = "prov"
harness = "react"
results = "s1.csv"
"#,
        &[("s1.csv", "problem,correct,wall_s\np1,true,3.5\np2,false,\n")],
    );
    let out = env.ingest(&[&base_manifest(), &manifest]);
    assert_eq!(
        out.stdout.lines().collect::<Vec<_>>(),
        [
            "wave base is already in the ledger with the same content (sha256 9ff817cf1fcf); \
             nothing to do",
            "added wave second: 1 seats, 2 attempts (sha256 958a8f6ca403)",
        ]
    );
    assert_eq!(env.wave_ids(), ["base", "second"]);
}

#[test]
fn a_byte_order_mark_opening_any_input_file_is_skipped() {
    // Editors on some systems open every UTF-8 file with a byte-order mark; the manifest, the
    // problem list and both kinds of results file are read as if it were not there.
    let manifest = r#"
[wave]
id = "marked"
suite = "demo-suite"
started_at = 2026-03-02T09:00:00Z
suite_problems_file = "problems.txt"

[wave.accounting]
input_tokens_include_cache_reads = false

[[seat]]
id = "s1"
model = "model-a"
provider = "prov"
harness = "react"
results = "s1.jsonl"

[[seat]]
id = "s2"
model = "model-b"
provider = "prov"
harness = "react"
results = "s2.csv"
"#;
    let files = [
        ("problems.txt", "p1\np2\n"),
        (
            "s1.jsonl",
            "{\"problem\":\"p1\",\"correct\":true,\"wall_s\":3.5}\n{\"problem\":\"p2\",\"correct\":false}\n",
        ),
        ("s2.csv", "problem,correct,wall_s\np1,true,4\n"),
    ];
    let plain = Env::init();
    let plain_out = plain.ingest(&[&write_wave(&plain.path().join("w"), manifest, &files)]);

    let env = Env::init();
    let bom = |s: &str| format!("\u{feff}{s}");
    let marked_files: Vec<(&str, String)> = files.iter().map(|(n, c)| (*n, bom(c))).collect();
    let marked_refs: Vec<(&str, &str)> =
        marked_files.iter().map(|(n, c)| (*n, c.as_str())).collect();
    let path = write_wave(&env.path().join("w"), &bom(manifest), &marked_refs);
    assert!(std::fs::read(&path).unwrap().starts_with(b"\xef\xbb\xbf"));
    let out = env.ingest(&[&path]);
    // The same wave, to the byte: the same content hash.
    assert_eq!(out.stdout, plain_out.stdout);
    assert!(
        out.stdout
            .starts_with("added wave marked: 2 seats, 3 attempts (sha256 "),
        "{}",
        out.stdout
    );
}

/// `suite_problems` had no cap (issue "Trust, round two"): 4000000000 ingested (and `show
/// --ci` then aborted allocating 32 GB), 9223372036854775807 too (a panic). A suite of more
/// than a million problems is refused now, naming the file, line and field, with the ledger
/// unchanged; a million is taken.
#[test]
fn suite_problems_has_no_cap_at_ingest() {
    let env = ledger_with_base();
    let results = std::fs::read_to_string(tests_dir("fixtures/base/s1.jsonl")).unwrap();
    let base = std::fs::read_to_string(base_manifest()).unwrap();
    for n in ["4000000000", "9223372036854775807", "1000001"] {
        let manifest = base
            .replace("id = \"base\"", "id = \"big\"")
            .replace("suite_problems = 3", &format!("suite_problems = {n}"));
        let dir = env.path().join(format!("big-{n}"));
        let path = write_wave(&dir, &manifest, &[("s1.jsonl", &results)]);
        let before = env.ledger_bytes();
        let out = env.run([std::ffi::OsStr::new("ingest"), path.as_os_str()]);
        assert_eq!(out.status, 2, "{n}: {out:#?}");
        assert_eq!(
            out.stderr,
            format!(
                "error: {}:6: field `suite_problems`: expected the number of problems in the \
                 suite, at most 1,000,000, got {n}: no suite comes near it, and every problem is \
                 drawn on each resample of an interval; check the number\n",
                path.display()
            )
        );
        assert_eq!(env.ledger_bytes(), before, "{n}");
    }
    let manifest = base
        .replace("id = \"base\"", "id = \"big\"")
        .replace("suite_problems = 3", "suite_problems = 1_000_000");
    let path = write_wave(
        &env.path().join("million"),
        &manifest,
        &[("s1.jsonl", &results)],
    );
    env.ingest(&[&path]);
}

/// Issue 23, #10: one rule for NUL on both stores. A NUL (U+0000) in any text the ledger would
/// store is refused at ingest naming file, line and field, whichever store the ledger is on
/// (SQLite used to take it, PostgreSQL to refuse it with a bare SQLSTATE), and the ledger is
/// left as it was.
#[test]
fn nul_in_any_text_is_refused_at_ingest_naming_file_line_and_field_on_either_store() {
    let env = Env::init();
    let dir = env.path().join("w");
    let manifest = |notes: &str, model: &str| {
        format!(
            "[wave]\nid = \"w\"\nsuite = \"s\"\nstarted_at = 2026-05-01T00:00:00Z\n\
             notes = \"{notes}\"\n\n[wave.accounting]\ninput_tokens_include_cache_reads = false\n\n\
             [[seat]]\nid = \"a\"\nmodel = \"{model}\"\nprovider = \"p\"\nharness = \"h\"\n\
             results = \"a.jsonl\"\n"
        )
    };
    let good = "{\"problem\":\"p1\",\"correct\":true}\n";
    let before = env.ledger_bytes();
    for (wave, results, says) in [
        (
            manifest("ok", "m"),
            format!("{good}{{\"problem\":\"p\\u0000x\",\"correct\":true}}\n"),
            "a.jsonl:2: field `problem`: holds a NUL character (U+0000) at byte 1 of \"p\\0x\"",
        ),
        (
            manifest("ok", "m"),
            "{\"problem\":\"p1\",\"correct\":false,\"end_reason\":\"x\\u0000\"}\n".to_string(),
            "a.jsonl:1: field `end_reason`: holds a NUL character",
        ),
        (
            manifest("a\\u0000b", "m"),
            good.to_string(),
            "wave.toml:5: field `notes`: holds a NUL character",
        ),
        (
            manifest("ok", "m\\u0000"),
            good.to_string(),
            "wave.toml:10: field `seat.model`: holds a NUL character",
        ),
    ] {
        let path = common::write_wave(&dir, &wave, &[("a.jsonl", &results)]);
        let out = env.run(["ingest".as_ref(), path.as_os_str()]).status(2);
        assert!(out.stderr.contains(says), "{says}\n{}", out.stderr);
        assert_eq!(env.ledger_bytes(), before, "the ledger changed");
    }
}

/// Issue 23: `[[wave]]` (a list of tables where the manifest takes one) named no field, and
/// `[seat]` said only "expected a sequence"; both name the table and say what to write.
#[test]
fn wave_written_as_a_list_of_tables_names_the_field_and_the_fix() {
    let env = Env::init();
    let dir = env.path().join("w");
    for (manifest, says) in [
        (
            "[[wave]]\nid = \"w\"\n",
            "wave.toml:1: field `wave`: [[wave]] makes a list of tables, but `wave` is one \
             table: write [wave]",
        ),
        (
            "[wave]\nid = \"w\"\nsuite = \"s\"\nstarted_at = 2026-05-01T00:00:00Z\n\
             [seat]\nid = \"a\"\n",
            "wave.toml:5: field `seat`: [seat] makes one table, but `seat` is a list of \
             tables: write [[seat]] for each",
        ),
    ] {
        let path = write_wave(&dir, manifest, &[]);
        let out = env.run(["ingest".as_ref(), path.as_os_str()]).status(2);
        assert!(out.stderr.contains(says), "{says}\n{}", out.stderr);
    }
}

/// Issue 34: a command whose caller asked it to stop (the Python module does, on Ctrl-C, through
/// `Surroundings::cancel`) fails with exit status 130 and writes nothing, whether it is an
/// ingest (stopped before its first seat) or a rescore (stopped before its scores are stored):
/// the ledger's bytes are as they were.
#[test]
fn a_command_asked_to_stop_exits_130_and_leaves_the_ledger_as_it_was() {
    use benchledger::commands::{Surroundings, run_in};
    use clap::Parser;
    let env = Env::with_waves(&["examples/rca-wave-1/wave.toml"]);
    env.run(["rubric", "add", "rubrics/session-efficiency.v2.toml"])
        .ok();
    let before = env.ledger_bytes();
    let cancel = benchledger_core::cancel::Cancel::new();
    cancel.cancel();
    let manifest = common::crate_path("examples/checkout-rematch/wave.toml");
    let runs: [&[&OsStr]; 2] = [
        &[OsStr::new("ingest"), manifest.as_os_str()],
        &[
            OsStr::new("rescore"),
            OsStr::new("--rubric"),
            OsStr::new("session-efficiency@2"),
        ],
    ];
    for args in runs {
        let argv = [
            OsStr::new("benchledger"),
            OsStr::new("--db"),
            env.db.as_os_str(),
        ]
        .into_iter()
        .chain(args.iter().copied());
        let cli = benchledger::cli::Cli::try_parse_from(argv).unwrap();
        let surroundings = Surroundings {
            now: common::NOW.into(),
            db_env: None,
            interactive: false,
            stderr_terminal: false,
            width: None,
            cancel: cancel.clone(),
        };
        let err = run_in(cli, &mut Vec::new(), surroundings).unwrap_err();
        assert!(
            matches!(err, benchledger_core::Error::Interrupted),
            "{args:?}: {err}"
        );
        assert_eq!(err.exit_code(), 130);
        assert_eq!(
            benchledger::advice::message(&err),
            "interrupted: nothing was written, the ledger is as it was"
        );
        assert_eq!(env.ledger_bytes(), before, "{args:?}");
    }
    assert_eq!(env.wave_ids(), ["rca-wave-1"]);
}

/// Issue 34, at the commit: an ingest staged whole and asked to stop before its commit is rolled
/// back on either store (SQLite's copy from the scratch file, or the server's bulk load), and
/// the ledger's bytes are as they were.
#[test]
fn a_staged_ingest_asked_to_stop_before_its_commit_writes_nothing() {
    use benchledger_core::ledger::Ledger;
    let env = Env::with_waves(&["examples/rca-wave-1/wave.toml"]);
    let before = env.ledger_bytes();
    let mut copy = {
        let ledger = Ledger::open(&env.db).unwrap();
        ledger.load_wave("rca-wave-1").unwrap()
    };
    copy.wave.id = "rca-wave-1-copy".into();
    let cancel = benchledger_core::cancel::Cancel::new();
    let mut ledger = Ledger::open(&env.db).unwrap();
    ledger.set_cancel(cancel.clone());
    let mut staging = ledger.stage_ingest(env.path()).unwrap();
    staging
        .begin_wave(&copy.wave, Path::new("copy.toml"))
        .unwrap();
    for seat in &copy.seats {
        staging.add_seat(seat).unwrap();
    }
    staging.finish_wave(&copy.wave).unwrap();
    cancel.cancel();
    let err = staging.commit(common::NOW).unwrap_err();
    assert!(matches!(err, benchledger_core::Error::Interrupted), "{err}");
    drop(ledger);
    assert_eq!(env.ledger_bytes(), before);
    assert_eq!(env.wave_ids(), ["rca-wave-1"]);
}
