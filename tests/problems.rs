//! `benchledger problems`: a wave's problem × seat matrix and, with `--regressions`, what each
//! seat newly failed or newly solved between two waves. The expected values are worked out by
//! hand from the examples' results files (one attempt a problem in the rca waves):
//!
//! ```text
//!                          rca-wave-1                 rca-wave-2
//!                          rca-1 rca-2 rca-3 rca-4    rca-1 rca-2 rca-3 rca-4
//! anthropic-hierarchical   C     C     C     C        C     C     x     C
//! anthropic-react          C     x     C     x        C     C     C     x
//! openai-hierarchical      C     C     C     C        C     C     C     C
//! openai-react             C     C     C     x        C     x     C     x
//! xai-hierarchical         C     C     C     C        C     C     C     C
//! xai-react                C     C     x     C        C     C     x     C
//! ```
//!
//! Solved by, wave 1: rca-1 6, rca-2 5, rca-3 5, rca-4 4. Wave 2: rca-1 6, rca-2 5, rca-3 4,
//! rca-4 4 (rca-3 before rca-4 on ties by id). Between them: anthropic-hierarchical newly
//! failed rca-3; anthropic-react newly solved rca-2; openai-react newly failed rca-2; nobody
//! else changed. Terminal-Bench's tb-mini (its manifest's hand count): hello-world 3 of 5
//! trials Correct (solved), fix-git 2 of 5 with 1 infrastructure failure (not solved).

mod common;

use common::{Env, snapshot_settings};
use serde_json::{Value, json};

fn env() -> Env {
    Env::with_waves(&[
        "examples/rca-wave-1/wave.toml",
        "examples/rca-wave-2/wave.toml",
        "tests/fixtures/import/terminal-bench/wave.toml",
    ])
}

fn cell(trials: u32, passed: u32, infra: u32) -> Value {
    json!({"trials": trials, "passed": passed, "infra_errors": infra, "missing": false})
}

#[test]
fn the_matrix_puts_the_most_solved_problems_first() {
    let env = env();
    let j = env
        .run(["problems", "rca-wave-2", "--format", "json"])
        .ok()
        .json();
    let order: Vec<(&str, u64)> = j["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["problem"].as_str().unwrap(),
                p["solved_by"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        order,
        [("rca-1", 6), ("rca-2", 5), ("rca-3", 4), ("rca-4", 4)]
    );
    let rca3 = &j["problems"][2]["seats"];
    assert_eq!(rca3.as_object().unwrap().len(), 6);
    assert_eq!(rca3["anthropic-hierarchical"], cell(1, 0, 0));
    assert_eq!(rca3["anthropic-react"], cell(1, 1, 0));
    // Repeated trials and an infrastructure failure.
    let tb = env
        .run(["problems", "tb-mini", "--format", "json"])
        .ok()
        .json();
    assert_eq!(tb["problems"][0]["problem"], "hello-world");
    assert_eq!(tb["problems"][0]["solved_by"], 1);
    assert_eq!(tb["problems"][0]["seats"]["terminus-sonnet"], cell(5, 3, 0));
    assert_eq!(tb["problems"][1]["problem"], "fix-git");
    assert_eq!(tb["problems"][1]["solved_by"], 0);
    assert_eq!(tb["problems"][1]["seats"]["terminus-sonnet"], cell(5, 2, 1));
    // --seat keeps only the seats named.
    let one = env
        .run([
            "problems",
            "rca-wave-1",
            "--seat",
            "xai-react",
            "--format",
            "json",
        ])
        .ok()
        .json();
    assert_eq!(one["seats"], json!(["xai-react"]));
    assert_eq!(one["problems"][3]["problem"], "rca-3");
    assert_eq!(one["problems"][3]["seats"]["xai-react"], cell(1, 0, 0));
    let table = env.run(["problems", "rca-wave-1"]).ok().stdout;
    let tb_table = env.run(["problems", "tb-mini"]).ok().stdout;
    snapshot_settings().bind(|| {
        insta::assert_snapshot!("problems__rca_wave_1_table", table);
        insta::assert_snapshot!("problems__tb_mini_table", tb_table);
    });
}

#[test]
fn regressions_name_what_each_seat_newly_failed_and_newly_solved() {
    let env = env();
    let j = env
        .run([
            "problems",
            "--regressions",
            "rca-wave-1",
            "rca-wave-2",
            "--format",
            "json",
        ])
        .ok()
        .json();
    let seat = |id: &str| {
        j["seats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["seat"] == id)
            .unwrap_or_else(|| panic!("{id}: {j}"))
            .clone()
    };
    let none: Vec<&str> = vec![];
    assert_eq!(j["seats"].as_array().unwrap().len(), 6);
    assert_eq!(
        seat("anthropic-hierarchical"),
        json!({"seat": "anthropic-hierarchical", "newly_failed": ["rca-3"], "newly_solved": none,
               "only_in_a": none, "only_in_b": none})
    );
    assert_eq!(seat("anthropic-react")["newly_solved"], json!(["rca-2"]));
    assert_eq!(seat("anthropic-react")["newly_failed"], json!(none));
    assert_eq!(seat("openai-react")["newly_failed"], json!(["rca-2"]));
    for id in ["openai-hierarchical", "xai-hierarchical", "xai-react"] {
        let s = seat(id);
        assert_eq!(
            (&s["newly_failed"], &s["newly_solved"]),
            (&json!(none), &json!(none))
        );
    }
    let table = env
        .run(["problems", "--regressions", "rca-wave-1", "rca-wave-2"])
        .ok()
        .stdout;
    snapshot_settings().bind(|| insta::assert_snapshot!("problems__regressions_rca", table));
}

#[test]
fn an_unknown_wave_or_seat_or_a_withdrawn_wave_is_refused_naming_what_is_known() {
    let env = env();
    let before = env.ledger_bytes();
    let out = env.run(["problems", "nope"]).status(2);
    assert!(
        out.stderr.contains("no wave `nope`") && out.stderr.contains("rca-wave-1"),
        "{}",
        out.stderr
    );
    let out = env
        .run(["problems", "rca-wave-1", "--seat", "nobody"])
        .status(2);
    assert!(
        out.stderr.contains("--seat nobody") && out.stderr.contains("anthropic-react"),
        "{}",
        out.stderr
    );
    let out = env
        .run(["problems", "--regressions", "rca-wave-1"])
        .status(2);
    assert!(out.stderr.contains("name both"), "{}", out.stderr);
    assert_eq!(env.ledger_bytes(), before);
    env.run(["withdraw", "rca-wave-1", "--reason", "rerun"])
        .ok();
    let out = env
        .run(["problems", "--regressions", "rca-wave-1", "rca-wave-2"])
        .status(2);
    assert!(out.stderr.contains("--include-withdrawn"), "{}", out.stderr);
    let shown = env
        .run([
            "problems",
            "--regressions",
            "rca-wave-1",
            "rca-wave-2",
            "--include-withdrawn",
        ])
        .ok()
        .stdout;
    assert!(shown.contains("withdrawn"), "{shown}");
}

/// Issue 32, #9: `problems --help` opened with a slogan ("Every sample one click away") rather
/// than with what the command prints.
#[test]
fn issue_32_9_problems_help_opens_with_what_it_prints() {
    let out = Env::new().run(["problems", "--help"]).ok();
    assert!(
        out.stdout.starts_with("A wave's problem × seat matrix"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("one click away"), "{}", out.stdout);
}
