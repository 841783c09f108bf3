//! How sure a wave's numbers are, through the CLI: `trials` (pass@k, pass^k) and `versus`
//! (paired verdicts), on the five-trial fixture whose figures are worked out by hand in its
//! manifest (tests/fixtures/trials/wave.toml).

mod common;

use common::{Env, snapshot_settings, tests_dir};
use serde_json::json;

fn five_trials() -> Env {
    let env = Env::init();
    env.ingest(&[&tests_dir("fixtures/trials/wave.toml")]);
    env
}

#[test]
fn trials_match_the_hand_computation() {
    let env = five_trials();
    let out = env
        .run(["trials", "five-trials", "--k", "3,1,2", "--format", "json"])
        .ok()
        .json();
    assert_eq!(out["k"], json!([1, 2, 3]));
    let steady = &out["seats"][1];
    assert_eq!(steady["seat"], "steady");
    assert_eq!(
        (
            &steady["problems"],
            &steady["missing"],
            &steady["infra_errors"]
        ),
        (&json!(4), &json!(1), &json!(1))
    );
    assert_eq!(
        (&steady["trials_min"], &steady["trials_max"]),
        (&json!(3), &json!(5))
    );
    assert_eq!(steady["pass_at_k"], json!({"1": 0.4, "2": 0.475, "3": 0.5}));
    assert_eq!(
        steady["pass_hat_k"],
        json!({"1": 0.4, "2": 0.325, "3": 0.275})
    );
    let lucky = &out["seats"][0];
    assert_eq!(lucky["pass_at_k"]["3"], 0.55);
    assert_eq!(lucky["pass_hat_k"]["3"], 0.25);
    // k beyond some problem's trials: that problem is left out and counted.
    let out = env
        .run(["trials", "five-trials", "--k", "4", "--format", "json"])
        .ok()
        .json();
    assert_eq!(out["seats"][1]["problems_at_k"]["4"], 3);
    let table = env.run(["trials", "five-trials"]).ok().stdout;
    snapshot_settings().bind(|| insta::assert_snapshot!("stats__trials", table));
    let show = env
        .run(["show", "five-trials", "--format", "json"])
        .ok()
        .json();
    assert_eq!(show["trials"][1]["seat"], "steady");
    assert_eq!(show["trials"][1]["trial_accuracy_spread"], 0.5);
}

#[test]
fn versus_pairs_the_shared_problems() {
    let env = five_trials();
    let out = env
        .run([
            "versus",
            "--wave",
            "five-trials",
            "steady",
            "lucky",
            "--format",
            "json",
        ])
        .ok()
        .json();
    assert_eq!(
        (&out["shared_problems"], &out["only_a"], &out["only_b"]),
        (&json!(3), &json!(2), &json!(0))
    );
    assert_eq!(out["mcnemar_p"], 0.5);
    assert_eq!(out["verdict"], "no difference the data can show");
    // steady's shares (3/5, 0, 1) minus lucky's (1/5, 1/5, 0), averaged: 0.4.
    assert!((out["accuracy_diff"].as_f64().unwrap() - 0.4).abs() < 1e-12);
    let ci = out["accuracy_diff_ci"].as_array().unwrap();
    assert!(ci[0].as_f64().unwrap() <= 0.4 && ci[1].as_f64().unwrap() >= 0.4);
    // The same seed, the same bytes, from another process; another seed, another interval.
    let again = env
        .run([
            "versus",
            "--wave",
            "five-trials",
            "steady",
            "lucky",
            "--format",
            "json",
        ])
        .ok();
    assert_eq!(again.json(), out);
    let other = env
        .run([
            "versus",
            "--wave",
            "five-trials",
            "steady",
            "lucky",
            "--seed",
            "9",
            "--resamples",
            "500",
            "--format",
            "json",
        ])
        .ok()
        .json();
    assert_eq!(other["interval"]["seed"], 9);
    let table = env
        .run(["versus", "--wave", "five-trials", "steady", "lucky"])
        .ok()
        .stdout;
    snapshot_settings().bind(|| insta::assert_snapshot!("stats__versus", table));
    for (args, says) in [
        (
            vec!["versus", "--wave", "five-trials", "steady", "nobody"],
            "has no seat \"nobody\"",
        ),
        (
            vec!["versus", "--wave", "five-trials", "steady", "steady"],
            "versus itself",
        ),
        (
            vec![
                "versus",
                "--wave",
                "five-trials",
                "steady",
                "lucky",
                "--ci",
                "120",
            ],
            "--ci 120",
        ),
        (vec!["trials", "five-trials", "--k", "0"], "--k 0"),
    ] {
        let out = env.run(&args).status(2);
        assert!(out.stderr.contains(says), "{out:#?}");
    }
}

#[test]
fn versus_all_pairs_every_seat_with_holm_and_letters() {
    let env = five_trials();
    let out = env
        .run([
            "versus",
            "--wave",
            "five-trials",
            "--all",
            "--format",
            "json",
        ])
        .ok()
        .json();
    // One pair. steady's shares (3/5, 0, 1) minus lucky's (1/5, 1/5, 0): d = 0.4, −0.2, 1;
    // d̄ = 0.4, Σ (d − d̄)² = 0 + 0.36 + 0.36 = 0.72, se = sqrt(0.72) / 3 = sqrt(2) / 5,
    // z = sqrt(2), p = erfc(1) = 0.157299207050285; Holm over one pair leaves it as it is.
    let pair = &out["pairs"][0];
    assert_eq!(
        (&pair["a"], &pair["b"]),
        (&json!("steady"), &json!("lucky"))
    );
    assert_eq!(pair["shared_problems"], 3);
    assert!((pair["mean_diff"].as_f64().unwrap() - 0.4).abs() < 1e-12);
    assert!((pair["se_paired"].as_f64().unwrap() - 2f64.sqrt() / 5.0).abs() < 1e-12);
    let p = pair["p_paired"].as_f64().unwrap();
    assert!((p / 0.157_299_207_050_285 - 1.0).abs() < 1e-6, "{p}");
    assert_eq!(pair["p_holm"], pair["p_paired"]);
    assert_eq!(pair["separable"], false);
    assert_eq!(out["groups"], json!({"steady": "a", "lucky": "a"}));
    assert_eq!(out["alpha"], 0.05);
    assert_eq!(out["warnings"].as_array().unwrap().len(), 1);
    // At α = 0.2 the pair is separable (0.157 < 0.2), and the two seats part letters.
    let loose = env
        .run([
            "versus",
            "--wave",
            "five-trials",
            "--all",
            "--alpha",
            "0.2",
            "--format",
            "json",
        ])
        .ok()
        .json();
    assert_eq!(loose["pairs"][0]["separable"], true);
    assert_eq!(loose["groups"], json!({"steady": "a", "lucky": "b"}));
    for (args, says) in [
        (
            vec!["versus", "--wave", "five-trials", "--all", "--alpha", "1.5"],
            "--alpha 1.5",
        ),
        (
            vec!["versus", "--wave", "five-trials", "steady", "--all"],
            "cannot be used with '--all'",
        ),
    ] {
        let out = env.run(&args).status(2);
        assert!(out.stderr.contains(says), "{out:#?}");
    }
}

#[test]
fn plan_works_out_power_from_the_waves_own_variance() {
    let env = five_trials();
    let out = env
        .run([
            "plan",
            "--wave",
            "five-trials",
            "--seat",
            "steady",
            "--vs",
            "lucky",
            "--delta",
            "0.1",
            "--format",
            "json",
        ])
        .ok()
        .json();
    // steady: 5, 5 and 3 trials (K = 13/3); within-problem variances 3·2/(5·4) = 0.3, 0, 0:
    // σ² = 0.1. lucky: 5 trials on each of its 4 problems (K = 5), σ² = 0.1. Differences on
    // the 3 shared problems 0.4, −0.2, 1: V = 0.72 / 3 = 0.24; ω² = 0.24 − 0.1/(13/3) − 0.1/5.
    let close = |k: &str, v: f64| {
        let got = out[k].as_f64().unwrap();
        assert!((got - v).abs() < 1e-12, "{k}: {got} vs {v}");
    };
    close("trials_a", 13.0 / 3.0);
    close("trials_b", 5.0);
    close("sigma2_within_a", 0.1);
    close("sigma2_within_b", 0.1);
    let omega2 = 0.24 - 0.1 / (13.0 / 3.0) - 0.1 / 5.0;
    close("omega2_diff", omega2);
    // (z₀.₉₇₅ + z₀.₈)² · V / δ² = 2.801585218113² · 0.24 / 0.01 = 188.37: 189 problems.
    let z = 1.959963984540054 + 0.8416212335729143;
    close("mde", z * (0.24f64 / 3.0).sqrt());
    assert_eq!(out["problems_needed"], 189);
    let by = &out["mde_by_trials"];
    assert!((by["4"].as_f64().unwrap() - z * ((omega2 + 0.2 / 4.0) / 3.0).sqrt()).abs() < 1e-12);
    let table = env
        .run([
            "plan",
            "--wave",
            "five-trials",
            "--seat",
            "steady",
            "--vs",
            "lucky",
            "--delta",
            "0.1",
        ])
        .ok()
        .stdout;
    snapshot_settings().bind(|| insta::assert_snapshot!("stats__plan", table));
    for (args, says) in [
        (
            vec![
                "plan",
                "--wave",
                "five-trials",
                "--seat",
                "steady",
                "--vs",
                "nobody",
            ],
            "has no seat \"nobody\"",
        ),
        (
            vec![
                "plan",
                "--wave",
                "five-trials",
                "--seat",
                "steady",
                "--vs",
                "lucky",
                "--power",
                "1.2",
            ],
            "--power 1.2",
        ),
    ] {
        let out = env.run(&args).status(2);
        assert!(out.stderr.contains(says), "{out:#?}");
    }
}

/// Issue 32 item 9: one seat of a single trial a problem made `trials` show k = 1 alone,
/// hiding the other seats' pass@k. Every k some seat allows is shown; a seat that cannot reach
/// a k has no figure there, marked with its trials.
#[test]
fn trials_shows_every_k_another_seat_allows_marking_a_single_trial_seat() {
    let env = Env::init();
    let manifest = "[wave]\nid = \"mixed\"\nsuite = \"s\"\nstarted_at = 2026-05-01T00:00:00Z\n\n\
                    [wave.accounting]\ninput_tokens_include_cache_reads = false\n\n\
                    [[seat]]\nid = \"many\"\nmodel = \"m1\"\nprovider = \"p\"\nharness = \"h\"\n\
                    results = \"many.jsonl\"\n\n\
                    [[seat]]\nid = \"once\"\nmodel = \"m2\"\nprovider = \"p\"\nharness = \"h\"\n\
                    results = \"once.jsonl\"\n";
    let mut many = String::new();
    for p in ["p1", "p2"] {
        for t in 1..=3 {
            many.push_str(&format!(
                "{{\"problem\": \"{p}\", \"attempt\": {t}, \"correct\": {}}}\n",
                t == 1
            ));
        }
    }
    let once = "{\"problem\": \"p1\", \"attempt\": 1, \"correct\": true}\n\
                {\"problem\": \"p2\", \"attempt\": 1, \"correct\": false}\n";
    let path = common::write_wave(
        &env.path().join("mixed"),
        manifest,
        &[("many.jsonl", &many), ("once.jsonl", once)],
    );
    env.ingest(&[&path]);
    let out = env.run(["trials", "mixed", "--format", "json"]).ok().json();
    assert_eq!(out["k"], json!([1, 2, 3]));
    assert_eq!(out["seats"][0]["seat"], "many");
    // many: each problem passes 1 of 3: pass@2 = 1 − C(2,2)/C(3,2) = 2/3, pass@3 = 1.
    assert_eq!(out["seats"][0]["pass_at_k"]["3"], 1.0);
    assert_eq!(
        out["seats"][1]["pass_at_k"],
        json!({"1": 0.5, "2": null, "3": null})
    );
    let table = env.run(["trials", "mixed"]).ok().stdout;
    assert!(table.contains("pass@3"), "{table}");
    assert!(table.contains("— (1 trial)"), "{table}");
    assert!(table.contains("ran at most n trials"), "{table}");
}
