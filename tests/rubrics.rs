//! The rubric language through the real binary: `rubric check | add | list | show` and
//! `score`, on the shipped rubrics, the example waves and small fixtures of our own
//! (`tests/fixtures/rubrics/`).
//!
//! Every number the three source documents print is asserted here from `score --format json`
//! (unrounded, within 1e-9) and snapshotted as the leaderboard a person reads:
//!
//! - seed 000: the worked seat (565k of 1M tokens, 132 of 180 s, Correct) prints 125 under
//!   session-efficiency v1 and 100 under v2; capped seats tying at 100 are ranked on wall
//!   seconds, then new input tokens;
//! - seed 001: xai-hierarchical's cohort-relative efficiency is 1.375 in the first RCA wave and
//!   1.584 in the second, rank 1 both times, while its wall time went from 141 s to 262 s;
//! - seed 002: step efficiency 1.0 at 3 steps and 0.1 at 11; the tidy trace scores 1.0 and the
//!   wandering one 0.18.

mod common;

use common::{Env, NOW, Out, crate_root, run_raw, sha256_hex, snapshot_settings};
use serde_json::Value;

const V1: &str = "rubrics/session-efficiency.v1.toml";
const V2: &str = "rubrics/session-efficiency.v2.toml";
const COHORT: &str = "rubrics/cohort-efficiency.v1.toml";
const GATED: &str = "rubrics/session-efficiency-gated.v1.toml";
const NEW_INPUT: &str = "rubrics/session-efficiency-new-input.v1.toml";
const TRACE: &str = "rubrics/trace-holistic.v1.toml";
const RETRIES: &str = "rubrics/trace-holistic-retries.v1.toml";
const LEAN: &str = "tests/fixtures/rubrics/lean-diagnosis.v1.toml";
const CAREFUL: &str = "tests/fixtures/rubrics/careful.v1.toml";

const WORKED: &str = "tests/fixtures/rubrics/worked-seat/wave.toml";
const TRACES: &str = "tests/fixtures/rubrics/traces/wave.toml";
const VARIANTS: &str = "tests/fixtures/rubrics/variants/wave.toml";
const PER_ATTEMPT: &str = "tests/fixtures/rubrics/per-attempt/wave.toml";

// ---------------------------------------------------------------------------------------------
// Helpers

/// Runs the binary from the crate root (so relative paths in messages are stable) without a
/// ledger.
fn run_no_ledger(args: &[&str]) -> Out {
    run_raw(crate_root(), args, &[])
}

/// `score` on a ledger, as tables and as JSON.
trait Score {
    fn score(&self, wave: &str, rubric: &str, format: &str) -> Out;
    fn score_json(&self, wave: &str, rubric: &str) -> Value;
}

impl Score for Env {
    fn score(&self, wave: &str, rubric: &str, format: &str) -> Out {
        self.run([
            "score", "--wave", wave, "--rubric", rubric, "--format", format,
        ])
        .ok()
    }

    fn score_json(&self, wave: &str, rubric: &str) -> Value {
        self.score(wave, rubric, "json").json()
    }
}

fn snapshot(name: &str, value: &str) {
    snapshot_settings().bind(|| insta::assert_snapshot!(name, value));
}

/// The leaderboard as a person reads it, then every number behind it unrounded: the score, the
/// rank and the factors of each seat, as `score --format json` gives them.
fn leaderboard_snapshot(name: &str, ledger: &Env, wave: &str, rubric: &str) -> Value {
    let table = ledger.score(wave, rubric, "table");
    let raw = ledger.score(wave, rubric, "json");
    let json = raw.json();
    let unrounded = numbers(&raw.stdout);
    assert_eq!(
        unrounded.lines().filter(|l| !l.starts_with(' ')).count(),
        seats(&json).len(),
        "{unrounded}"
    );
    snapshot(
        name,
        &format!(
            "{}\n--- unrounded (score --format json)\n{unrounded}",
            table.transcript()
        ),
    );
    json
}

/// One block per seat: rank, score, gate, tie, note, then each factor — as the binary printed
/// them. The numbers are taken from the pretty-printed JSON text rather than from a parsed
/// `Value`: serde_json's default float parser may land one unit in the last place away from the
/// printed value (125.00000000000003 reads back as 125.00000000000004), and a snapshot of every
/// published number must show the number that was published.
fn numbers(stdout: &str) -> String {
    let field = |line: &str, indent: usize| -> Option<(String, String)> {
        let rest = line.strip_prefix(&" ".repeat(indent))?.strip_prefix('"')?;
        let (key, value) = rest.split_once("\": ")?;
        Some((key.to_string(), value.trim_end_matches(',').to_string()))
    };
    let mut out = String::new();
    let mut seat: Vec<(String, String)> = Vec::new();
    let mut factors: Vec<(String, String)> = Vec::new();
    let mut in_factors = false;
    let mut in_seats = false;
    for line in stdout.lines() {
        if line == "  \"seats\": [" {
            in_seats = true;
            continue;
        }
        if !in_seats {
            continue;
        }
        if line == "  ]" || line == "  ]," {
            in_seats = false;
        } else if line.starts_with("    }") {
            let get = |k: &str| {
                seat.iter()
                    .find(|(key, _)| key == k)
                    .map(|(_, v)| v.clone())
                    .unwrap_or_else(|| panic!("seat without {k}: {seat:?}"))
            };
            out.push_str(&format!(
                "{} rank={} score={}",
                get("seat").trim_matches('"'),
                get("rank"),
                get("score")
            ));
            for key in ["gate", "tie", "note"] {
                let v = get(key);
                if v != "null" {
                    out.push_str(&format!(" {key}={v}"));
                }
            }
            out.push('\n');
            for (k, v) in factors.drain(..) {
                out.push_str(&format!("    {k} = {v}\n"));
            }
            seat.clear();
        } else if in_factors {
            if line.starts_with("      }") {
                in_factors = false;
            } else if let Some(kv) = field(line, 8) {
                factors.push(kv);
            }
        } else if let Some((k, v)) = field(line, 6) {
            in_factors = k == "factors" && v == "{";
            seat.push((k, v));
        }
    }
    out
}

fn seats(json: &Value) -> &Vec<Value> {
    json["seats"].as_array().expect("seats is an array")
}

fn seat<'a>(json: &'a Value, id: &str) -> &'a Value {
    seats(json)
        .iter()
        .find(|s| s["seat"] == id)
        .unwrap_or_else(|| panic!("no seat {id} in {json}"))
}

fn score_of(json: &Value, id: &str) -> f64 {
    let s = seat(json, id);
    s["score"]
        .as_f64()
        .unwrap_or_else(|| panic!("seat {id} has no score: {s}"))
}

fn factor(json: &Value, id: &str, name: &str) -> f64 {
    let s = seat(json, id);
    s["factors"][name]
        .as_f64()
        .unwrap_or_else(|| panic!("seat {id} has no factor {name}: {s}"))
}

fn order(json: &Value) -> Vec<&str> {
    seats(json)
        .iter()
        .map(|s| s["seat"].as_str().unwrap())
        .collect()
}

#[track_caller]
fn close(actual: f64, expected: f64) {
    assert!(
        (actual - expected).abs() <= 1e-9,
        "expected {expected}, got {actual}"
    );
}

fn sha256_file(path: &str) -> String {
    sha256_hex(&std::fs::read(crate_root().join(path)).expect("read file"))
}

fn shipped_rubrics() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(crate_root().join("rubrics"))
        .expect("rubrics/")
        .map(|e| e.expect("dir entry").file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".toml"))
        .map(|n| format!("rubrics/{n}"))
        .collect();
    files.sort();
    files
}

// ---------------------------------------------------------------------------------------------
// rubric check

#[test]
fn check_rejects_session_efficiency_v1_for_printing_125_and_accepts_every_other_shipped_rubric() {
    let files = shipped_rubrics();
    assert!(files.len() >= 7, "{files:?}");
    for f in &files {
        let out = run_no_ledger(&["rubric", "check", f]);
        if f == V1 {
            assert_eq!(out.status, 1, "{}", out.transcript());
            assert!(
                out.stdout.contains(
                    "error: the score can reach 125 on a 0–100 scale: a seat with accuracy 1 \
                     (fully Correct), tokens_total at or under 80% of budget.tokens and wall_s at \
                     or under 80% of budget.wall_s scores 125, above the scale's max of 100"
                ),
                "{}",
                out.transcript()
            );
            assert!(
                out.stdout.contains("score range: 0 to 125"),
                "{}",
                out.stdout
            );
            assert_eq!(
                out.stderr,
                "error: session-efficiency@1 can leave its declared scale (see above)\n"
            );
        } else {
            assert_eq!(out.status, 0, "{}", out.transcript());
            assert!(out.stdout.contains(" keeps its "), "{}", out.stdout);
            assert!(!out.stdout.contains("error:"), "{}", out.stdout);
        }
    }

    // All of them at once: the report covers every file, and one failure fails the run.
    let mut args = vec!["rubric", "check"];
    args.extend(files.iter().map(String::as_str));
    let all = run_no_ledger(&args);
    assert_eq!(all.status, 1);
    snapshot("rubrics__check_shipped", &all.transcript());
}

#[test]
fn check_proves_the_range_of_a_relative_rubric_and_labels_it() {
    let out = run_no_ledger(&["rubric", "check", COHORT]).ok();
    assert!(
        out.stdout
            .contains("cohort-efficiency@1 (relative) keeps its scale from 0")
    );
    assert!(out.stdout.contains("score range: 0 to ∞ (per seat)"));
    assert!(out.stdout.contains("never compared across waves"));
}

// ---------------------------------------------------------------------------------------------
// Seed 000: the worked seat

#[test]
fn the_worked_seat_prints_125_under_v1_and_100_under_v2() {
    let l = Env::with_waves(&[WORKED]);

    let v1 = leaderboard_snapshot("rubrics__worked_seat_v1", &l, "worked-seat", V1);
    // 100 × 1 × √clip(1M/565k, .25, 1.25) × √clip(180/132, .25, 1.25) = 100 × √1.25 × √1.25.
    close(score_of(&v1, "worked"), 125.0);
    close(factor(&v1, "worked", "accuracy"), 1.0);
    close(factor(&v1, "worked", "tokens"), 1.25f64.sqrt());
    close(factor(&v1, "worked", "wall"), 1.25f64.sqrt());
    assert_eq!(seat(&v1, "worked")["tokens_total"], 565_000);
    assert_eq!(seat(&v1, "worked")["wall_s"], 132.0);
    // Read from its file, v1 is flagged: its score can leave its scale.
    assert_eq!(v1["rubric"]["scale_violation"], true);

    let v2 = leaderboard_snapshot("rubrics__worked_seat_v2", &l, "worked-seat", V2);
    // 100 × 1 × clip(1.77, .25, 1) × clip(1.36, .25, 1) = 100.
    close(score_of(&v2, "worked"), 100.0);
    for f in ["accuracy", "tokens", "wall"] {
        close(factor(&v2, "worked", f), 1.0);
    }
    assert_eq!(v2["rubric"]["scale_violation"], false);
}

#[test]
fn capped_seats_tied_at_100_are_ranked_on_wall_then_new_input_tokens() {
    let l = Env::with_waves(&["examples/checkout-rematch/wave.toml"]);
    let j = leaderboard_snapshot("rubrics__checkout_rematch_v2", &l, "checkout-rematch", V2);
    // openai-react and google-react both took 118 s; openai read 288k new input, google 356k.
    // xai-hierarchical (the worked seat: 565k tokens, 132 s) comes third.
    assert_eq!(
        order(&j),
        [
            "openai-react",
            "google-react",
            "xai-hierarchical",
            "anthropic-react",
            "deepseek-react"
        ]
    );
    for (id, rank) in [
        ("openai-react", 1),
        ("google-react", 2),
        ("xai-hierarchical", 3),
    ] {
        close(score_of(&j, id), 100.0);
        assert_eq!(seat(&j, id)["rank"], rank);
    }
    assert_eq!(
        seat(&j, "openai-react")["tie"],
        "tied on score; broken on wall_s, then new_input_tokens"
    );
    assert_eq!(
        seat(&j, "google-react")["tie"],
        "tied on score; broken on wall_s, then new_input_tokens"
    );
    assert_eq!(
        seat(&j, "xai-hierarchical")["tie"],
        "tied on score; broken on wall_s"
    );
    // 240 s against 180: the wall factor is 0.75.
    close(factor(&j, "anthropic-react", "wall"), 0.75);
    close(score_of(&j, "anthropic-react"), 75.0);
    close(score_of(&j, "deepseek-react"), 0.0);
    assert_eq!(
        j["rubric"]["tie_break"],
        serde_json::json!(["wall_s", "new_input_tokens"])
    );

    // The same wave under v1: the three thrifty Correct seats all print 125, and v1 declares no
    // tie-break, so they share rank 1.
    let v1 = l.score_json("checkout-rematch", V1);
    for id in ["openai-react", "google-react", "xai-hierarchical"] {
        close(score_of(&v1, id), 125.0);
        assert_eq!(seat(&v1, id)["rank"], 1);
    }
}

// ---------------------------------------------------------------------------------------------
// Seed 002: the tidy and the wandering trace

#[test]
fn the_tidy_trace_scores_1_and_the_wandering_one_0_18() {
    let l = Env::with_waves(&[TRACES]);
    let j = leaderboard_snapshot(
        "rubrics__seed_traces_trace_holistic",
        &l,
        "seed-traces",
        TRACE,
    );
    // Steps and errors derive from the traces.
    assert_eq!(seat(&j, "tidy")["steps"], 3);
    assert_eq!(seat(&j, "tidy")["errors"], 0);
    assert_eq!(seat(&j, "wandering")["steps"], 11);
    assert_eq!(seat(&j, "wandering")["errors"], 2);
    // efficiency = clip(1 − (n − 5) × 0.15, 0, 1): 1.30 → 1.0 at 3 steps, 0.10 at 11.
    close(factor(&j, "tidy", "efficiency"), 1.0);
    close(factor(&j, "wandering", "efficiency"), 0.1);
    close(factor(&j, "tidy", "outcome"), 1.0);
    close(factor(&j, "wandering", "outcome"), 0.9);
    close(factor(&j, "tidy", "penalty.errors"), 0.0);
    close(factor(&j, "wandering", "penalty.errors"), 0.4);
    // 0.6 × 1.0 + 0.4 × 1.0 − 0 = 1.0; 0.6 × 0.9 + 0.4 × 0.1 − 0.2 × 2 = 0.18.
    close(score_of(&j, "tidy"), 1.0);
    close(score_of(&j, "wandering"), 0.18);
    assert_eq!(order(&j), ["tidy", "wandering"]);
}

#[test]
fn free_retries_score_one_smart_retry_higher_and_still_punish_a_five_time_repeat() {
    let l = Env::with_waves(&["examples/prices-csv/wave.toml"]);
    let plain = leaderboard_snapshot(
        "rubrics__prices_csv_trace_holistic",
        &l,
        "prices-csv",
        TRACE,
    );
    let retries = leaderboard_snapshot(
        "rubrics__prices_csv_trace_holistic_retries",
        &l,
        "prices-csv",
        RETRIES,
    );

    // one-retry: 5 steps (efficiency 1.0), one failed fetch retried at once.
    // Plain: 0.6 + 0.4 − 0.2 = 0.8. With the first failure of a run free: 1.0.
    close(score_of(&plain, "one-retry"), 0.8);
    close(score_of(&retries, "one-retry"), 1.0);
    close(factor(&retries, "one-retry", "penalty.errors"), 0.0);
    assert!(score_of(&retries, "one-retry") > score_of(&plain, "one-retry"));

    // five-repeats: 8 steps (efficiency 1 − 3 × 0.15 = 0.55), the same fetch failing five times
    // in a row. Plain: max(0, 0.6 + 0.22 − 1.0) = 0. With one free retry, four failures still
    // count: 0.82 − 0.8 = 0.02, far below the smart retry.
    close(factor(&plain, "five-repeats", "efficiency"), 0.55);
    close(score_of(&plain, "five-repeats"), 0.0);
    close(factor(&retries, "five-repeats", "penalty.errors"), 0.8);
    close(score_of(&retries, "five-repeats"), 0.02);
    assert_eq!(seat(&retries, "five-repeats")["rank"], 4);

    // The seed's own numbers hold on the example wave too.
    close(score_of(&plain, "tidy"), 1.0);
    close(score_of(&plain, "wandering"), 0.18);
}

// ---------------------------------------------------------------------------------------------
// Seed 001: cohort-relative efficiency across two waves

#[test]
fn cohort_efficiency_rose_from_1_375_to_1_584_while_the_leader_got_slower() {
    let l = Env::with_waves(&[
        "examples/rca-wave-1/wave.toml",
        "examples/rca-wave-2/wave.toml",
    ]);
    let w1 = leaderboard_snapshot("rubrics__rca_wave_1_cohort", &l, "rca-wave-1", COHORT);
    let w2 = leaderboard_snapshot("rubrics__rca_wave_2_cohort", &l, "rca-wave-2", COHORT);

    for (j, wall, score) in [(&w1, 141.0, 1.375), (&w2, 262.0, 1.584)] {
        let x = seat(j, "xai-hierarchical");
        close(x["wall_s"].as_f64().unwrap(), wall);
        close(score_of(j, "xai-hierarchical"), score);
        assert_eq!(x["rank"], 1);
        assert_eq!(order(j)[0], "xai-hierarchical");
        // Relative, and labelled as such.
        assert_eq!(j["rubric"]["relative"], true);
        assert!(
            j["relative_note"]
                .as_str()
                .unwrap()
                .contains("rank inside this wave only")
        );
        assert_eq!(j["rubric"]["scale"], serde_json::json!({ "min": 0.0 }));
    }

    // Wave 1 by hand: medians over the six seats are wall 188 s (176.4 and 194.4 averaged),
    // tokens 1,253,340 (1,212,480 and 1,294,200) and USD 1.65 (1.52 and 1.78). xai-hierarchical
    // (141 s, 899,915 tokens, $1.10, 4/4 Correct):
    //   1 / (0.45 × 141/188 + 0.45 × 899,915/1,253,340 + 0.10 × 1.10/1.65) = 1.375.
    let by_hand =
        1.0 / (0.45 * 141.0 / 188.0 + 0.45 * 899_915.0 / 1_253_340.0 + 0.10 * 1.10 / 1.65);
    close(score_of(&w1, "xai-hierarchical"), by_hand);
    close(factor(&w1, "xai-hierarchical", "wall"), 141.0 / 188.0);
    close(
        factor(&w1, "xai-hierarchical", "tokens"),
        899_915.0 / 1_253_340.0,
    );
    close(factor(&w1, "xai-hierarchical", "cost"), 1.10 / 1.65);
    // Wave 2: medians wall 471.6 s, tokens 1,316,007, USD 1.68.
    let by_hand =
        1.0 / (0.45 * 262.0 / 471.6 + 0.45 * 920_171.0 / 1_316_007.0 + 0.10 * 1.12 / 1.68);
    close(score_of(&w2, "xai-hierarchical"), by_hand);

    let table = l.score("rca-wave-2", COHORT, "table").stdout;
    assert!(
        table.contains("cohort-efficiency@1 (relative, this wave only)"),
        "{table}"
    );
    assert!(table.contains("Rank in wave"), "{table}");
}

// ---------------------------------------------------------------------------------------------
// The JSON contract of `score`

#[test]
fn score_json_carries_the_wave_the_rubric_and_each_seat_with_its_show_fields() {
    let l = Env::with_waves(&["examples/checkout-rematch/wave.toml"]);
    let j = l.score_json("checkout-rematch", V2);
    assert_eq!(j["format_version"], 1);
    assert_eq!(j["kind"], "score");
    assert_eq!(j["wave"], "checkout-rematch");

    let r = &j["rubric"];
    assert_eq!(r["name"], "session-efficiency");
    assert_eq!(r["version"], 2);
    assert_eq!(r["sha256"], sha256_file(V2));
    assert_eq!(r["relative"], false);
    assert_eq!(r["scale"], serde_json::json!({ "min": 0.0, "max": 100.0 }));
    assert_eq!(r["scale_violation"], false);
    assert_eq!(r["registered"], false);

    // Each seat: every field of `show --format json`, the same values, plus the score.
    let show = l
        .run(["show", "checkout-rematch", "--format", "json"])
        .ok()
        .json();
    let shown = seats(&show);
    assert_eq!(shown.len(), seats(&j).len());
    for s in shown {
        let id = s["seat"].as_str().unwrap();
        let scored = seat(&j, id);
        // Less what `show` alone computes from the attempts (`score` reads each seat's
        // stored totals): the per-problem mean and its standard errors.
        let show_only = ["mean_per_problem", "accuracy_se", "accuracy_se_naive"];
        for (k, v) in s.as_object().unwrap() {
            if show_only.contains(&k.as_str()) {
                assert!(scored.get(k).is_none(), "seat {id}, field {k}");
                continue;
            }
            assert_eq!(&scored[k], v, "seat {id}, field {k}");
        }
        assert!(scored["score"].is_f64(), "{scored}");
        assert!(scored["rank"].is_u64(), "{scored}");
        let factors = scored["factors"].as_object().unwrap();
        assert_eq!(
            factors.keys().collect::<Vec<_>>(),
            ["accuracy", "tokens", "wall"]
        );
        assert!(factors.values().all(Value::is_f64));
        for k in ["gate", "tie", "note"] {
            assert!(scored.get(k).is_some(), "seat {id} lacks {k}");
        }
    }
    // The score is unrounded: anthropic-react's wall factor is exactly 180/240.
    assert_eq!(seat(&j, "anthropic-react")["score"], 75.0);

    // A relative rubric's scale has no max.
    let l = Env::with_waves(&["examples/rca-wave-1/wave.toml"]);
    let c = l.score_json("rca-wave-1", COHORT);
    assert_eq!(c["rubric"]["relative"], true);
    assert!(c["rubric"]["scale"].get("max").is_none());
    assert_eq!(c["rubric"]["scale"]["min"], 0.0);
}

// ---------------------------------------------------------------------------------------------
// Variants

#[test]
fn the_gated_variant_fails_a_seat_below_half_correct_or_past_twice_its_allowance() {
    let l = Env::with_waves(&[VARIANTS]);
    let j = leaderboard_snapshot("rubrics__variants_gated", &l, "variants", GATED);

    // 1 of 3 Correct: below the accuracy gate.
    close(score_of(&j, "half-wrong"), 0.0);
    assert_eq!(seat(&j, "half-wrong")["gate"], "accuracy");
    // 250k tokens against 100k: 2.5× the allowance.
    close(score_of(&j, "over-tokens"), 0.0);
    assert_eq!(seat(&j, "over-tokens")["gate"], "token-budget");
    close(factor(&j, "over-tokens", "gate.token-budget"), 2.5);
    // 150 s against 60 s.
    close(score_of(&j, "slow"), 0.0);
    assert_eq!(seat(&j, "slow")["gate"], "wall-budget");
    // 200 s against 60 s fails the wall gate even though its token counts are unknown (so the
    // token gate cannot be decided): a failed gate decides the score whatever else is known.
    close(score_of(&j, "untallied-slow"), 0.0);
    assert_eq!(seat(&j, "untallied-slow")["gate"], "wall-budget");
    assert!(seat(&j, "untallied-slow")["note"].is_null());
    for id in ["half-wrong", "over-tokens", "slow", "untallied-slow"] {
        assert!(seat(&j, id)["note"].is_null(), "{id}");
    }

    // Exactly 50% Correct is not below the gate: 100 × 0.5 × (200k/260k) × 1.
    close(
        score_of(&j, "half-right"),
        100.0 * 0.5 * (200_000.0 / 260_000.0),
    );
    assert!(seat(&j, "half-right")["gate"].is_null());
    // 1.9× the token allowance is within 2×: scored as v2 scores it.
    close(score_of(&j, "cached"), 100.0 * 100_000.0 / 190_000.0);
    close(factor(&j, "cached", "gate.token-budget"), 1.9);
    close(score_of(&j, "steady"), 100.0);

    let table = l.score("variants", GATED, "table").stdout;
    assert!(table.contains("failed gate accuracy"), "{table}");
    assert!(table.contains("failed gate token-budget"), "{table}");
    assert!(table.contains("failed gate wall-budget"), "{table}");
}

/// `careful@1` on the per-attempt wave: 100 × accuracy − 5 × mean.errors, floored at 0. Worked
/// by hand (docs/rubrics.md §10 tells the same story):
///
/// | seat      | accuracy | errors / attempts | mean.errors | score            |
/// |-----------|----------|-------------------|-------------|------------------|
/// | steady    | 2/2      | 2 / 2             | 1           | 100 − 5 = 95     |
/// | retried   | 6/6      | 6 / 6             | 1           | 100 − 5 = 95     |
/// | half-done | 1/2      | 0 / 1             | 0           | 50               |
/// | careless  | 1/2      | 6 / 2             | 3           | 50 − 15 = 35     |
/// | untallied | 2/2      | unknown for one   | unknown     | undefined        |
/// | no-show   | 0/2      | no attempts       | unknown     | undefined        |
///
/// steady and retried tie at 95 and are ordered by mean wall seconds per attempt: retried's
/// 10 s before steady's 20 s (on summed wall seconds, 60 s against 40 s, it would be the other
/// way round).
#[test]
fn a_penalty_averaged_per_attempt_charges_how_often_a_seat_errs_not_how_many_trials_it_ran() {
    let check = run_no_ledger(&["rubric", "check", CAREFUL]).ok();
    assert_eq!(
        check.stdout,
        format!("{CAREFUL}: careful@1 keeps its 0–100 scale\n  score range: 0 to 100 (per seat)\n")
    );

    let l = Env::with_waves(&[PER_ATTEMPT]);
    let j = leaderboard_snapshot("rubrics__per_attempt_careful", &l, "per-attempt", CAREFUL);
    assert_eq!(
        order(&j),
        [
            "retried",
            "steady",
            "half-done",
            "careless",
            "no-show",
            "untallied"
        ]
    );
    for (id, score, points, rank) in [
        ("retried", 95.0, 5.0, 1),
        ("steady", 95.0, 5.0, 2),
        ("half-done", 50.0, 0.0, 3),
        ("careless", 35.0, 15.0, 4),
    ] {
        close(score_of(&j, id), score);
        close(factor(&j, id, "penalty.errors"), points);
        assert_eq!(seat(&j, id)["rank"], rank, "{id}");
    }
    // Accuracy stays the seat's: a missing problem counts as not Correct.
    close(factor(&j, "half-done", "accuracy"), 0.5);
    for id in ["retried", "steady"] {
        assert_eq!(
            seat(&j, id)["tie"],
            "tied on score; broken on mean.wall_s",
            "{id}"
        );
    }
    // Absent is not zero: an unreported count, or no attempt at all, leaves the mean unknown.
    assert!(seat(&j, "untallied")["score"].is_null());
    assert_eq!(
        seat(&j, "untallied")["note"],
        "mean.errors is unknown for some of its attempts"
    );
    assert!(seat(&j, "no-show")["score"].is_null());
    assert_eq!(
        seat(&j, "no-show")["note"],
        "the seat made no attempts, so its mean.errors is unknown"
    );

    // The same rubric on the summed errors charges the seat that ran three trials three times
    // as much: 100 − 5 × 6 = 70, below steady's 100 − 5 × 2 = 90.
    let text = std::fs::read_to_string(crate_root().join(CAREFUL)).unwrap();
    let summed = l.path().join("careful-summed.v1.toml");
    std::fs::write(
        &summed,
        text.replace("\"mean.errors\"", "\"errors\"")
            .replace("name = \"careful\"", "name = \"careful-summed\""),
    )
    .unwrap();
    let summed_json = l.score_json("per-attempt", summed.to_str().unwrap());
    close(score_of(&summed_json, "retried"), 70.0);
    close(score_of(&summed_json, "steady"), 90.0);
    close(score_of(&summed_json, "careless"), 20.0);
    assert_eq!(order(&summed_json)[..2], ["steady", "retried"]);

    // `rescore` streams the wave out of the ledger a row at a time and stores the same numbers
    // `score` printed, to the last digit.
    l.run(["rubric", "add", CAREFUL]).ok();
    l.run(["rescore", "--rubric", "careful@1"]).ok();
    let history = l
        .run(["history", "--rubric", "careful@1", "--format", "json"])
        .ok()
        .json();
    let rows = history["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 6);
    for row in rows {
        let id = row["seat"].as_str().unwrap();
        assert_eq!(row["score"], seat(&j, id)["score"], "{id}");
        assert_eq!(row["rank"], seat(&j, id)["rank"], "{id}");
        assert_eq!(row["note"], seat(&j, id)["note"], "{id}");
    }
}

#[test]
fn a_mean_held_against_an_allowance_meets_the_per_problem_budget() {
    // session-efficiency v2 on sums (budget × attempts / sum) and on means (budget / mean):
    // the same ratios, so the same scores up to rounding, for seats of 1 to 6 attempts.
    let l = Env::with_waves(&[PER_ATTEMPT]);
    let text = std::fs::read_to_string(crate_root().join(V2)).unwrap();
    let means = l.path().join("means.v1.toml");
    std::fs::write(
        &means,
        text.replace("\"tokens_total\"", "\"mean.tokens_total\"")
            .replace("\"wall_s\"", "\"mean.wall_s\"")
            .replace("tie_break = [\"wall_s\"", "tie_break = [\"mean.wall_s\""),
    )
    .unwrap();
    let sums = l.score_json("per-attempt", V2);
    let means = l.score_json("per-attempt", means.to_str().unwrap());
    let scored: Vec<&str> = order(&sums)
        .into_iter()
        .filter(|id| !seat(&sums, id)["score"].is_null())
        .collect();
    assert_eq!(scored.len(), 5, "{sums}");
    for id in scored {
        close(score_of(&means, id), score_of(&sums, id));
        close(factor(&means, id, "tokens"), factor(&sums, id, "tokens"));
        close(factor(&means, id, "wall"), factor(&sums, id, "wall"));
    }
    // careless used 1,200 tokens per attempt of a 1,000 budget: 1,000 / 1,200.
    close(factor(&means, "careless", "tokens"), 1_000.0 / 1_200.0);
}

#[test]
fn a_mean_spelt_another_way_is_refused_naming_the_mean_it_means() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(crate_root().join(CAREFUL)).unwrap();
    for spelt in ["errors_per_attempt", "avg.errors", "mean_errors"] {
        let file = dir.path().join("careful.v1.toml");
        std::fs::write(
            &file,
            text.replace("\"mean.errors\"", &format!("{spelt:?}")),
        )
        .unwrap();
        let out = run_no_ledger(&["rubric", "check", file.to_str().unwrap()]);
        assert_eq!(out.status, 2, "{}", out.transcript());
        assert!(
            out.stdout.contains(&format!(
                "careful.v1.toml:23: field `measure`: unknown measure {spelt:?} (did you mean \
                 `mean.errors`?); the measures are: "
            )),
            "{}",
            out.transcript()
        );
    }
}

#[test]
fn the_new_input_variant_does_not_charge_cached_reads() {
    let l = Env::with_waves(&[VARIANTS]);
    let v2 = leaderboard_snapshot("rubrics__variants_v2", &l, "variants", V2);
    let ni = leaderboard_snapshot("rubrics__variants_new_input", &l, "variants", NEW_INPUT);

    // cached: 30k new input, 150k cached reads, 10k output. v2 counts 190k tokens against
    // 100k; the new-input variant counts 30k.
    assert_eq!(seat(&v2, "cached")["tokens_total"], 190_000);
    assert_eq!(seat(&v2, "cached")["new_input_tokens"], 30_000);
    close(factor(&v2, "cached", "tokens"), 100_000.0 / 190_000.0);
    close(score_of(&v2, "cached"), 52.631_578_947_368_42);
    close(factor(&ni, "cached", "new-input-tokens"), 1.0);
    close(score_of(&ni, "cached"), 100.0);

    // Without cached reads the two agree on the wall factor, and differ on tokens only by the
    // output tokens: over-tokens reads 230k new input (factor 0.4348) of 250k in all (0.4).
    close(score_of(&v2, "over-tokens"), 40.0);
    close(score_of(&ni, "over-tokens"), 100.0 * 100_000.0 / 230_000.0);
    for id in ["steady", "flailing", "slow", "half-wrong"] {
        close(score_of(&v2, id), score_of(&ni, id));
    }
    // Unknown tokens are not zero tokens: the score is undefined, and says why.
    for j in [&v2, &ni] {
        let u = seat(j, "untallied-slow");
        assert!(u["score"].is_null());
        assert!(u["rank"].is_null());
        assert!(
            u["note"]
                .as_str()
                .unwrap()
                .contains("is unknown for some of its attempts")
        );
    }
}

// ---------------------------------------------------------------------------------------------
// A fifth rubric, written from the language alone

#[test]
fn a_fifth_rubric_written_from_the_language_alone_checks_and_scores_as_computed_by_hand() {
    let check = run_no_ledger(&["rubric", "check", LEAN]).ok();
    assert_eq!(
        check.stdout,
        "tests/fixtures/rubrics/lean-diagnosis.v1.toml: lean-diagnosis@1 keeps its 0–100 scale\n  \
         score range: 0 to 100 (per seat)\n"
    );

    let l = Env::with_waves(&[VARIANTS]);
    let j = leaderboard_snapshot("rubrics__variants_lean_diagnosis", &l, "variants", LEAN);
    // Budget per problem: 100k tokens, 60 s; a seat's allowance is that times its attempts.
    //   score = max(0, 100 × (0.6 × clip(A_tok/new_input, 0, 1) + 0.4 × clip(A_wall/wall, 0, 1))
    //                  − 5 × errors), and 0 below 50% Correct.
    let lean = |new_input: f64, a_tok: f64, wall: f64, a_wall: f64, errors: f64| -> f64 {
        let t = (a_tok / new_input).min(1.0);
        let w = (a_wall / wall).min(1.0);
        (100.0 * (0.6 * t + 0.4 * w) - 5.0 * errors).max(0.0)
    };
    // cached: 30k new input of 100k, 45 of 60 s, no errors → 100.
    close(score_of(&j, "cached"), 100.0);
    close(score_of(&j, "cached"), lean(30e3, 100e3, 45.0, 60.0, 0.0));
    // steady: 90k of 200k, 70 of 120 s, one error → 95.
    close(score_of(&j, "steady"), 95.0);
    // half-right: exactly 50% passes the gate; 240k of 200k → 0.8333 × 0.6 = 0.5; 90 of 120 s
    // → 0.4; → 90.
    close(score_of(&j, "half-right"), 90.0);
    close(factor(&j, "half-right", "new-input"), 200_000.0 / 240_000.0);
    // slow: 50k of 100k → 0.6; 150 s of 60 → 0.4 × 0.4 = 0.16; two errors → 76 − 10 = 66.
    close(score_of(&j, "slow"), 66.0);
    close(factor(&j, "slow", "wall"), 0.4);
    close(factor(&j, "slow", "penalty.errors"), 10.0);
    // over-tokens: 230k of 100k → 0.6 × 0.43478 = 0.26087; 50 of 60 s → 0.4; three errors →
    // 66.087 − 15 = 51.087.
    close(
        score_of(&j, "over-tokens"),
        100.0 * (0.6 * 100.0 / 230.0 + 0.4) - 15.0,
    );
    close(score_of(&j, "over-tokens"), 51.086_956_521_739_13);
    // flailing: under budget but 25 failed calls: 100 − 125 < 0 → 0 (not a gate).
    close(score_of(&j, "flailing"), 0.0);
    close(factor(&j, "flailing", "penalty.errors"), 125.0);
    assert!(seat(&j, "flailing")["gate"].is_null());
    // half-wrong: 1 of 3 Correct fails the accuracy gate.
    close(score_of(&j, "half-wrong"), 0.0);
    assert_eq!(seat(&j, "half-wrong")["gate"], "accuracy");
    // untallied-slow: its new input tokens are unknown.
    assert!(seat(&j, "untallied-slow")["score"].is_null());
    assert_eq!(
        seat(&j, "untallied-slow")["note"],
        "new_input_tokens is unknown for some of its attempts"
    );
    assert_eq!(
        order(&j),
        [
            "cached",
            "steady",
            "half-right",
            "slow",
            "over-tokens",
            "flailing",
            "half-wrong",
            "untallied-slow"
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// rubric add | list | show, and registered rubrics in `score`

#[test]
fn rubric_add_registers_a_version_once_and_refuses_to_change_it() {
    let l = Env::with_waves(&[WORKED]);
    let sha = sha256_file(V2);

    let add = l.run(["rubric", "add", V2]).ok();
    assert_eq!(
        add.stdout,
        format!("registered session-efficiency@2 (sha256 {})\n", &sha[..12])
    );
    let list = l.run(["rubric", "list", "--format", "json"]).ok().json();
    let rows = list["rubrics"].as_array().unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["rubric"], "session-efficiency@2");
    assert_eq!(rows[0]["sha256"], sha);
    assert_eq!(rows[0]["scale_violation"], false);
    assert_eq!(rows[0]["added_at"], NOW);

    // The same text again is a no-op.
    let again = l.run(["rubric", "add", V2]).ok();
    assert_eq!(
        again.stdout,
        "session-efficiency@2 is already registered with the same text; nothing to do\n"
    );
    let list2 = l.run(["rubric", "list", "--format", "json"]).ok().json();
    assert_eq!(list, list2);

    // The same name@version with different text is refused: a version is immutable.
    let text = std::fs::read_to_string(crate_root().join(V2)).unwrap();
    let edited = l.dir.path().join("session-efficiency.v2.toml");
    std::fs::write(&edited, text.replace("floor = 0.25", "floor = 0.1")).unwrap();
    let changed = l.run(["rubric", "add", edited.to_str().unwrap()]);
    assert_eq!(changed.status, 2, "{}", changed.transcript());
    assert!(changed.stdout.is_empty());
    assert!(
        changed.stderr.starts_with(&format!(
            "error: {}: session-efficiency@2 is already registered with different text \
                 (sha256 ",
            edited.display()
        )),
        "{}",
        changed.stderr
    );
    assert!(
        changed
            .stderr
            .contains("A registered version is immutable: bump `version` in the file"),
        "{}",
        changed.stderr
    );
    // Nothing changed.
    let list3 = l.run(["rubric", "list", "--format", "json"]).ok().json();
    assert_eq!(list, list3);
}

#[test]
fn a_rubric_that_fails_check_registers_only_when_allowed_and_is_marked_wherever_shown() {
    let l = Env::with_waves(&[WORKED]);
    a_rubric_that_fails_check_is_refused_without_the_flag(&l);
    a_rubric_that_fails_check_registers_with_the_flag_marked(&l);
    l.run(["rubric", "add", V2]).ok();
    rubric_list_marks_the_version_that_fails_check(&l);
    score_marks_the_version_that_fails_check_in_its_heading_and_json(&l);
    rubric_show_prints_each_version_verbatim_after_its_header_and_mark(&l);
    an_unregistered_version_is_refused_naming_those_registered(&l);
}

/// `rubric add` of session-efficiency@1, whose score can reach 125 on a 0–100 scale, without
/// `--allow-scale-violation`: refused, saying why and how to register it anyway; nothing
/// registered.
fn a_rubric_that_fails_check_is_refused_without_the_flag(l: &Env) {
    let refused = l.run(["rubric", "add", V1]);
    assert_eq!(refused.status, 2, "{}", refused.transcript());
    assert!(
        refused.stderr.starts_with(
            "error: rubrics/session-efficiency.v1.toml: session-efficiency@1 fails `rubric \
             check`: the score can reach 125 on a 0–100 scale"
        ),
        "{}",
        refused.stderr
    );
    assert!(
        refused
            .stderr
            .contains("register it anyway with --allow-scale-violation"),
        "{}",
        refused.stderr
    );
    let empty = l.run(["rubric", "list", "--format", "json"]).ok().json();
    assert_eq!(empty["rubrics"], serde_json::json!([]));
}

/// `rubric add --allow-scale-violation` of session-efficiency@1: registered, and said to be
/// marked.
fn a_rubric_that_fails_check_registers_with_the_flag_marked(l: &Env) {
    let allowed = l.run(["rubric", "add", "--allow-scale-violation", V1]).ok();
    assert_eq!(
        allowed.stdout,
        format!(
            "registered session-efficiency@1 (sha256 {}) — marked: its score can leave its scale\n",
            &sha256_file(V1)[..12]
        )
    );
}

/// `rubric list`, as a table and as JSON: session-efficiency@1 marked, @2 not.
fn rubric_list_marks_the_version_that_fails_check(l: &Env) {
    let list = l.run(["rubric", "list"]).ok();
    assert!(
        list.stdout.contains("FAILS (allowed: scale violation)"),
        "{}",
        list.stdout
    );
    snapshot("rubrics__rubric_list", &list.transcript());
    let json = l.run(["rubric", "list", "--format", "json"]).ok().json();
    let marks: Vec<(String, bool)> = json["rubrics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["rubric"].as_str().unwrap().to_string(),
                r["scale_violation"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        marks,
        [
            ("session-efficiency@1".to_string(), true),
            ("session-efficiency@2".to_string(), false)
        ]
    );
}

/// `score` under session-efficiency@1: marked in the heading and in the JSON, and its score of
/// 125 kept; under @2, unmarked, 100.
fn score_marks_the_version_that_fails_check_in_its_heading_and_json(l: &Env) {
    let table = l.score("worked-seat", "session-efficiency@1", "table");
    assert!(
        table.stdout.contains(
            "WARNING: session-efficiency@1 fails `rubric check`: its score can leave its declared \
             scale; it is kept to reproduce historical numbers"
        ),
        "{}",
        table.stdout
    );
    snapshot("rubrics__score_registered_v1", &table.transcript());
    let j = l.score_json("worked-seat", "session-efficiency@1");
    assert_eq!(j["rubric"]["scale_violation"], true);
    assert_eq!(j["rubric"]["registered"], true);
    assert_eq!(j["rubric"]["sha256"], sha256_file(V1));
    close(score_of(&j, "worked"), 125.0);
    let j2 = l.score_json("worked-seat", "session-efficiency@2");
    assert_eq!(j2["rubric"]["scale_violation"], false);
    close(score_of(&j2, "worked"), 100.0);
}

/// `rubric show` of each version: the verbatim text, after a header (and the mark where the
/// version fails `rubric check`).
fn rubric_show_prints_each_version_verbatim_after_its_header_and_mark(l: &Env) {
    for (id, file, marked) in [
        ("session-efficiency@1", V1, true),
        ("session-efficiency@2", V2, false),
    ] {
        let text = std::fs::read_to_string(crate_root().join(file)).unwrap();
        let show = l.run(["rubric", "show", id]).ok();
        assert!(
            show.stdout.starts_with(&format!(
                "# {id} · sha256 {} · registered {NOW}\n",
                sha256_file(file)
            )),
            "{}",
            show.stdout
        );
        assert!(show.stdout.ends_with(&text), "{}", show.stdout);
        assert_eq!(
            show.stdout.contains("# WARNING: fails `rubric check`"),
            marked
        );
    }
}

/// A version that is not registered, to `score` and to `rubric show`: the error names what is.
fn an_unregistered_version_is_refused_naming_those_registered(l: &Env) {
    let missing = l.run([
        "score",
        "--wave",
        "worked-seat",
        "--rubric",
        "session-efficiency@3",
    ]);
    assert_eq!(missing.status, 2, "{}", missing.transcript());
    assert!(
        missing
            .stderr
            .starts_with("error: no rubric session-efficiency@3 is registered in "),
        "{}",
        missing.stderr
    );
    assert!(
        missing
            .stderr
            .contains("(registered: session-efficiency@1, session-efficiency@2)"),
        "{}",
        missing.stderr
    );
    assert!(
        missing
            .stderr
            .contains("register it with `benchledger rubric add FILE`")
    );
    let show_missing = l.run(["rubric", "show", "trace-holistic@1"]);
    assert_eq!(show_missing.status, 2);
    assert!(
        show_missing
            .stderr
            .contains("no rubric trace-holistic@1 is registered")
    );
}

// ---------------------------------------------------------------------------------------------
// Bad rubric files

#[test]
fn a_bad_rubric_file_exits_2_with_a_message_naming_file_line_and_key() {
    let cases = [
        (
            "unknown-key",
            "tests/fixtures/rubrics/bad/unknown-key.v1.toml:12: field `capp`: unknown field `capp`, \
             expected one of `name`, `measure`, `role`, `weight`, `allowance`, `expected`, \
             `slope`, `relative_to`, `floor`, `cap`, `exponent`",
        ),
        (
            "unknown-measure",
            "tests/fixtures/rubrics/bad/unknown-measure.v1.toml:13: field `measure`: unknown measure \
             \"tokens_totl\" (did you mean `tokens_total`?); the measures are: accuracy, outcome, \
             correct, attempts, missing, canary_failures, tokens_total, new_input_tokens, input_tokens, \
             output_tokens, cache_read_tokens, wall_s, cost_usd, steps, errors; and the mean per \
             attempt of each sum: mean.tokens_total, mean.new_input_tokens, mean.input_tokens, \
             mean.output_tokens, mean.cache_read_tokens, mean.wall_s, mean.cost_usd, mean.steps, \
             mean.errors",
        ),
        (
            "unknown-allowance",
            "tests/fixtures/rubrics/bad/unknown-allowance.v1.toml:10: field `allowance`: unknown \
             allowance \"budget.time\"; the allowances are: budget.tokens, budget.wall_s, \
             budget.cost_usd",
        ),
        (
            "uncapped-allowance",
            "tests/fixtures/rubrics/bad/uncapped-allowance.v1.toml:11: field `cap`: factor \"tokens\" \
             divides an allowance by tokens_total and needs a cap: the ratio grows without bound \
             as the measure approaches 0",
        ),
        (
            "cohort-not-relative",
            "tests/fixtures/rubrics/bad/cohort-not-relative.v1.toml: field `relative`: this rubric \
             scores seats relative to their wave's median (relative_to = \"median\"), so it must \
             say so: add relative = true. A relative score ranks seats inside one wave and is \
             never compared across waves",
        ),
        (
            "no-scale",
            "tests/fixtures/rubrics/bad/no-scale.v1.toml: field `scale`: missing: declare the scale \
             the score promises, e.g. scale = { min = 0, max = 100 }",
        ),
        (
            "cap-beyond-any-number",
            "tests/fixtures/rubrics/bad/cap-beyond-any-number.v1.toml:12: field `cap`: number out \
             of range: expected a finite number, got 1e400",
        ),
    ];
    let l = Env::with_waves(&[WORKED]);
    for (name, message) in cases {
        let file = format!("tests/fixtures/rubrics/bad/{name}.v1.toml");
        let expected = format!("error: {message}\n");
        // `rubric check` reports every file it was given, the unreadable ones included.
        let out = run_no_ledger(&["rubric", "check", &file]);
        assert_eq!(out.status, 2, "{}", out.transcript());
        assert_eq!(
            out.stdout,
            format!("{file}: cannot be checked\n  {expected}"),
            "{}",
            out.transcript()
        );
        assert_eq!(
            out.stderr,
            "error: 1 of 1 rubric file could not be checked (see above)\n"
        );
        for out in [
            l.run(["rubric", "add", &file]),
            l.run(["score", "--wave", "worked-seat", "--rubric", &file]),
        ] {
            assert_eq!(out.status, 2, "{}", out.transcript());
            assert_eq!(out.stdout, "", "{}", out.transcript());
            assert_eq!(out.stderr, expected, "{}", out.transcript());
        }
    }
    // Nothing was registered.
    let list = l.run(["rubric", "list", "--format", "json"]).ok().json();
    assert_eq!(list["rubrics"], serde_json::json!([]));
}

// ---------------------------------------------------------------------------------------------
// Rubrics the checker once passed but should not have (regressions)

#[test]
fn check_rejects_a_fractional_exponent_on_a_factor_that_can_be_negative() {
    // Once reported "score range: NaN to NaN" and "keeps its 0–1 scale"; a trace of 12 steps
    // then scored NaN.
    let file = "tests/fixtures/rubrics/unsound/fractional-exponent-on-a-negative-factor.v1.toml";
    let out = run_no_ledger(&["rubric", "check", file]);
    assert_eq!(out.status, 1, "{}", out.transcript());
    assert!(!out.stdout.contains("NaN"), "{}", out.stdout);
    assert!(
        out.stdout.contains(
            "error: factor \"efficiency\" can be negative (an attempt with steps without limit \
             gives it -∞), and its exponent 0.5 is defined here only for values of 0 or more, so \
             the score can be undefined: give the factor floor = 0"
        ),
        "{}",
        out.stdout
    );
    // Scored anyway (from its file): a short trace has a defined score...
    let l = Env::with_waves(&[
        "examples/prices-csv/wave.toml",
        "examples/checkout-rematch/wave.toml",
    ]);
    let j = l.score_json("prices-csv", file);
    assert_eq!(j["rubric"]["scale_violation"], true);
    // wandering: 11 steps, efficiency 1 − 6 × 0.15 = 0.1 ≥ 0: √0.1.
    close(score_of(&j, "wandering"), 0.1f64.sqrt());
    // ...and a long one (14 to 31 steps in the checkout rematch) is undefined, never NaN.
    let long = l.score("checkout-rematch", file, "json");
    assert!(!long.stdout.contains("NaN"), "{}", long.stdout);
    let j = long.json();
    for s in seats(&j) {
        assert!(s["score"].is_null(), "{s}");
        assert_eq!(
            s["note"], "factor \"efficiency\" is not a finite number here",
            "{s}"
        );
        assert!(
            s["factors"]
                .as_object()
                .unwrap()
                .values()
                .all(Value::is_f64),
            "{s}"
        );
    }
}

#[test]
fn check_rejects_a_divisor_that_can_be_negative_or_near_zero() {
    // Once reported "score range: 0 to 1" and "keeps its 0–10 scale", while the checkout
    // rematch scored -2.86 under it.
    let file = "tests/fixtures/rubrics/unsound/divisor-that-can-be-negative.v1.toml";
    let out = run_no_ledger(&["rubric", "check", file]);
    assert_eq!(out.status, 1, "{}", out.transcript());
    assert!(
        out.stdout.contains("score range: -∞ to ∞ (per seat)"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains(
            "the score can reach ∞ on a 0–10 scale: a seat with accuracy 1 (fully Correct) and \
             the sum it is divided by just above 0 scores ∞"
        ),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("the score can fall to -∞ on a 0–10 scale"),
        "{}",
        out.stdout
    );
    let l = Env::with_waves(&["examples/checkout-rematch/wave.toml"]);
    let j = l.score_json("checkout-rematch", file);
    // google-react: 14 steps, efficiency 1 − 9 × 0.15 = −0.35; Correct: 1 / −0.35.
    close(score_of(&j, "google-react"), 1.0 / (1.0 - 9.0 * 0.15));
    assert!(score_of(&j, "google-react") < 0.0);
}

/// The advice `publish` and `rescore` give for the shipped accuracy rubric, which `score` finds
/// by its name unregistered, works as written: `rubric add accuracy@1` registers the shipped
/// text (the same sha256 as rubrics/accuracy.v1.toml), with no file of that name around.
#[test]
fn the_shipped_accuracy_rubric_is_registered_by_its_name() {
    let env = Env::with_waves(&["examples/rca-wave-2/wave.toml"]);
    let refused = env
        .run(["publish", "--wave", "rca-wave-2", "--rubric", "accuracy@1"])
        .status(2);
    assert!(
        refused
            .stderr
            .contains("Register it first with `benchledger rubric add accuracy@1`"),
        "{}",
        refused.stderr
    );
    let out = env.run(["rubric", "add", "accuracy@1"]).ok();
    let file = std::fs::read(crate_root().join("rubrics/accuracy.v1.toml")).unwrap();
    let short = &sha256_hex(&file)[..12];
    assert!(
        out.stdout
            .contains(&format!("registered accuracy@1 (sha256 {short})")),
        "{}",
        out.stdout
    );
    env.run(["publish", "--wave", "rca-wave-2", "--rubric", "accuracy@1"])
        .ok();
    // Any other name that is no file is still refused, naming it.
    let missing = env.run(["rubric", "add", "nosuch@1"]).status(2);
    assert!(missing.stderr.contains("nosuch@1"), "{}", missing.stderr);
}
