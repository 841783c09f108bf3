//! Canary problems through the CLI: a wave's manifest declares problems any working harness
//! solves (tests/fixtures/canaries/wave.toml, whose comments work out each seat by hand); a
//! seat that passed one in no trial is flagged by `show` and `score` (table, notes, JSON, CSV),
//! a rubric gates on `canary_failures`, and a manifest naming a canary that is not a problem of
//! its suite, or naming one twice, is refused with the ledger unchanged.

mod common;

use common::{Env, snapshot_settings, tests_dir, write_wave};
use serde_json::json;

const WAVE: &str = "five-trials-canaries";

fn ledger() -> Env {
    let env = Env::init().run_from_crate_root();
    env.ingest(&[&tests_dir("fixtures/canaries/wave.toml")]);
    env
}

fn seat<'a>(json: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    json["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .find(|s| s["seat"] == id)
        .unwrap_or_else(|| panic!("no seat {id} in {json}"))
}

#[test]
fn show_flags_the_seat_that_failed_a_canary() {
    let env = ledger();
    let text = env.run(["show", WAVE]).ok().stdout;
    snapshot_settings().bind(|| insta::assert_snapshot!("canaries__show", text));
    assert!(
        text.contains(
            "lucky: canary failed: 1 of the wave's 2 canary problems passed in none of its trials"
        ),
        "{text}"
    );
    assert!(!text.contains("steady: canary failed"), "{text}");

    let json = env.run(["show", WAVE, "--format", "json"]).ok().json();
    assert_eq!(json["canary_problems"], json!(["p1", "p3"]));
    assert_eq!(seat(&json, "steady")["canary_failures"], 0);
    assert_eq!(seat(&json, "lucky")["canary_failures"], 1);

    let csv = env.run(["show", WAVE, "--format", "csv"]).ok().stdout;
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = header
        .iter()
        .position(|h| *h == "canary_failures")
        .unwrap_or_else(|| panic!("no canary_failures column in {csv}"));
    let seat_col = header.iter().position(|h| *h == "seat").unwrap();
    let values: Vec<(&str, &str)> = csv
        .lines()
        .skip(1)
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            (cells[seat_col], cells[col])
        })
        .collect();
    assert_eq!(values, [("lucky", "1"), ("steady", "0")], "{csv}");
}

#[test]
fn a_wave_without_canaries_prints_no_canary_column() {
    let env = Env::init().run_from_crate_root();
    env.ingest(&[&tests_dir("fixtures/trials/wave.toml")]);
    let text = env.run(["show", "five-trials"]).ok().stdout;
    assert!(!text.contains("Canar"), "{text}");
    let json = env
        .run(["show", "five-trials", "--format", "json"])
        .ok()
        .json();
    assert_eq!(json["canary_problems"], json!([]));
    assert_eq!(seat(&json, "lucky")["canary_failures"], 0);
}

#[test]
fn a_rubric_gates_on_canary_failures() {
    let env = ledger();
    let rubric = "tests/fixtures/canaries/canary-gated.v1.toml";
    env.run(["rubric", "check", rubric]).ok();
    let text = env
        .run(["score", "--wave", WAVE, "--rubric", rubric])
        .ok()
        .stdout;
    snapshot_settings().bind(|| insta::assert_snapshot!("canaries__score", text));
    let json = env
        .run([
            "score", "--wave", WAVE, "--rubric", rubric, "--format", "json",
        ])
        .ok()
        .json();
    // steady: 6 Correct of 13 attempts + 1 missing = 6/14; no canary failed.
    let steady = seat(&json, "steady");
    let score = steady["score"].as_f64().unwrap();
    assert!((score - 600.0 / 14.0).abs() < 1e-9, "{score}");
    assert_eq!(steady["canary_failures"], 0);
    // lucky: 7/20 Correct, but it passed canary p3 in none of its five trials.
    let lucky = seat(&json, "lucky");
    assert_eq!(lucky["score"], 0.0);
    assert_eq!(lucky["canary_failures"], 1);
    assert_eq!(lucky["rank"], 2);
}

#[test]
fn a_canary_outside_the_suite_or_listed_twice_is_refused_and_nothing_lands() {
    let env = Env::init();
    let results = r#"{"problem": "a", "attempt": 1, "correct": true}"#;
    let cases = [
        (
            "undeclared",
            "suite_problems_file = \"problems.txt\"\ncanary_problems = [\"a\", \"z\"]",
            "wave.toml:6: field `canary_problems`: canary problem \"z\" is not one of the \
             problems the manifest declares (suite_problems_file)",
        ),
        (
            "twice",
            "suite_problems = 3\ncanary_problems = [\"a\",\n  \"a\"]",
            "wave.toml:7: field `canary_problems`: canary problem \"a\" is listed twice (first \
             at line 6)",
        ),
        (
            "too-many",
            "suite_problems = 1\ncanary_problems = [\"a\", \"b\"]",
            "2 canary problems in a suite of 1 (suite_problems)",
        ),
        (
            "empty",
            "canary_problems = [\"\"]",
            "a canary problem's id is empty",
        ),
    ];
    let before = env.ledger_bytes();
    for (name, lines, expected) in cases {
        let manifest = format!(
            "[wave]\nid = \"{name}\"\nsuite = \"s\"\nstarted_at = 2026-01-01T00:00:00Z\n{lines}\n\n\
             [[seat]]\nid = \"x\"\nmodel = \"m\"\nprovider = \"p\"\nharness = \"h\"\n\
             results = \"x.jsonl\"\n\n[wave.accounting]\ninput_tokens_include_cache_reads = true\n"
        );
        let path = write_wave(
            &env.path().join(name),
            &manifest,
            &[("x.jsonl", results), ("problems.txt", "a\nb\n")],
        );
        let out = env
            .run([std::ffi::OsStr::new("ingest"), path.as_os_str()])
            .status(2);
        assert!(
            out.stderr.contains(expected),
            "{name}: expected {expected:?} in\n{}",
            out.stderr
        );
        assert_eq!(env.ledger_bytes(), before, "{name} changed the ledger");
    }
}

#[test]
fn canaries_are_part_of_the_wave_its_hash_its_publication_and_its_bundle() {
    let env = ledger();
    let manifest = tests_dir("fixtures/canaries/wave.toml");
    let again = env
        .run([std::ffi::OsStr::new("ingest"), manifest.as_os_str()])
        .ok();
    assert!(again.stdout.contains("nothing to do"), "{again:?}");
    env.run(["verify", "--ledger"]).ok();
    env.run([
        "rubric",
        "add",
        "tests/fixtures/canaries/canary-gated.v1.toml",
    ])
    .ok();
    env.run(["publish", "--wave", WAVE, "--rubric", "canary-gated@1"])
        .ok();
    let published = env.run(["verify", "1"]).ok().stdout;
    assert!(
        published.contains("reproduces byte for byte"),
        "{published}"
    );
    let bundle = env.path().join("bundle");
    env.run([
        std::ffi::OsStr::new("bundle"),
        std::ffi::OsStr::new("1"),
        std::ffi::OsStr::new("--out"),
        bundle.as_os_str(),
    ])
    .ok();
    let verified = env
        .run([
            std::ffi::OsStr::new("verify"),
            std::ffi::OsStr::new("--bundle"),
            bundle.as_os_str(),
        ])
        .ok()
        .stdout;
    assert!(
        verified.contains("1 of 1 publication reproduces"),
        "{verified}"
    );
}
