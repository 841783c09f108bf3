//! `benchledger history`: stored scores across the waves of a ledger, as `rescore` left them.

mod common;

use common::{Env, crate_path, examples, snapshot_settings};

fn ledger() -> Env {
    let env = Env::init();
    let manifests = examples();
    let refs: Vec<&std::path::Path> = manifests.iter().map(|p| p.as_path()).collect();
    env.ingest(&refs);
    let rubrics = crate_path("rubrics");
    env.run([
        "rubric".as_ref(),
        "add".as_ref(),
        rubrics.join("session-efficiency.v2.toml").as_os_str(),
        rubrics.join("cohort-efficiency.v1.toml").as_os_str(),
    ])
    .ok();
    env
}

#[test]
fn history_lists_stored_scores_wave_by_wave_with_their_load() {
    let env = ledger();
    env.run([
        "rescore",
        "--rubric",
        "session-efficiency@2",
        "--wave",
        "rca-wave-1",
        "--wave",
        "rca-wave-2",
    ])
    .ok();
    let out = env
        .run([
            "history",
            "--rubric",
            "session-efficiency@2",
            "--seat",
            "xai-hierarchical",
        ])
        .ok();
    snapshot_settings().bind(|| insta::assert_snapshot!("history_v2_xai", out.stdout));
    // Waves not rescored are named, with the command that fills them.
    assert!(out.stdout.contains(
        "No stored scores for checkout-rematch, prices-csv: run `benchledger rescore --rubric \
         session-efficiency@2`."
    ));
    let json = env
        .run([
            "history",
            "--rubric",
            "session-efficiency@2",
            "--format",
            "json",
        ])
        .ok()
        .json();
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(
        rows.len(),
        12,
        "six seats in each of the two rescored waves"
    );
    let xai: Vec<_> = rows
        .iter()
        .filter(|r| r["seat"] == "xai-hierarchical")
        .collect();
    assert_eq!(xai.len(), 2);
    for r in xai {
        assert_eq!(r["score"], 100.0);
        assert_eq!((r["rank"].as_u64(), r["of"].as_u64()), (Some(1), Some(6)));
    }
    let rescored: Vec<bool> = json["waves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["rescored"].as_bool().unwrap())
        .collect();
    assert_eq!(rescored, vec![true, true, false, false]);
}

#[test]
fn a_relative_rubric_is_shown_as_ranks_only() {
    let env = ledger();
    env.run(["rescore", "--rubric", "cohort-efficiency@1"]).ok();
    let out = env
        .run([
            "history",
            "--rubric",
            "cohort-efficiency@1",
            "--seat",
            "xai-hierarchical",
        ])
        .ok();
    snapshot_settings().bind(|| insta::assert_snapshot!("history_cohort_xai", out.stdout));
    assert!(!out.stdout.contains("1.375") && !out.stdout.contains("1.584"));
    let json = env
        .run([
            "history",
            "--rubric",
            "cohort-efficiency@1",
            "--format",
            "json",
        ])
        .ok()
        .json();
    assert!(
        json["rows"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["score"].is_null())
    );
}

#[test]
fn history_needs_a_registered_rubric_and_a_known_seat() {
    let env = ledger();
    let file = common::tests_dir("../rubrics/trace-holistic.v1.toml");
    let out = env
        .run(["history".as_ref(), "--rubric".as_ref(), file.as_os_str()])
        .status(2);
    assert!(out.stderr.contains("is not registered"), "{}", out.stderr);
    let out = env
        .run([
            "history",
            "--rubric",
            "session-efficiency@2",
            "--seat",
            "nobody",
        ])
        .status(2);
    assert!(
        out.stderr.contains("no stored score for seat \"nobody\""),
        "{}",
        out.stderr
    );
}
