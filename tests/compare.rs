//! `benchledger compare` through the real binary: one seat across waves, on absolutes only.
//!
//! Two cases:
//!
//! - **Seed 001**, on the shipped `examples/rca-wave-1` and `examples/rca-wave-2`: the leader,
//!   xai-hierarchical, went 141 s → 262 s while its cohort-relative efficiency rose
//!   1.375 → 1.584. The comparison must say the seat got slower, under heavier load (parallel
//!   sessions 4 → 6, sessions sharing the tool server 4 → 6, serial rerun yes → no), show the
//!   relative rubric only as a rank inside each wave (1 of 6 both times), and never let a
//!   relative score value reach the output.
//! - **Accounting and an unknown cost**, on `tests/fixtures/compare/`: acct-a's input totals
//!   include cached reads and name a price sheet; acct-b's exclude them, name no price source,
//!   do not record the tool server's sessions, and one of s1's costs is unknown. Worked by hand:
//!
//!   | s1                 | acct-a                         | acct-b                              |
//!   |--------------------|--------------------------------|-------------------------------------|
//!   | Correct            | 2/2                            | 1/2                                 |
//!   | wall s             | 20 + 30 = 50                   | 25 + 35 = 60                        |
//!   | tokens_total       | (3000+500) + (4000+500) = 8000 | (2000+1000+500) + (2000+2000+900) = 8400 |
//!   | new_input_tokens   | (3000−1000) + (4000−2000) = 4000 | 2000 + 2000 = 4000                |
//!   | USD                | 0.05 + 0.06 = 0.11             | 0.05, known for 1 of 2 attempts     |
//!   | Cost-of-Pass       | 0.11 / 2 = 0.055               | unknown (a cost is unknown)         |
//!   | session-efficiency@2 | 100 × 1 × 1 × 1 = 100, rank 1 of 2 | 100 × 0.5 × 1 × 1 = 50, rank 2 of 2 (s2 is 100) |
//!
//!   So the changes are wall +10, tokens +400, new input 0, score −50, and the USD and
//!   Cost-of-Pass changes are unknown (null), never computed from the partial sum.

mod common;

use common::{Env, snapshot_settings};
use serde_json::Value;

// Each ledger runs the binary from the crate root, so `rubrics/...` resolves.

fn rca_ledger() -> Env {
    Env::with_waves(&[
        "examples/rca-wave-1/wave.toml",
        "examples/rca-wave-2/wave.toml",
    ])
}

fn accounting_ledger() -> Env {
    Env::with_waves(&[
        "tests/fixtures/compare/acct-a/wave.toml",
        "tests/fixtures/compare/acct-b/wave.toml",
    ])
}

const RCA: [&str; 6] = [
    "compare",
    "--seat",
    "xai-hierarchical",
    "rca-wave-1",
    "rca-wave-2",
    "--rubric",
];
const COHORT_FILE: &str = "rubrics/cohort-efficiency.v1.toml";

fn snapshot(name: &str, text: &str) {
    snapshot_settings().bind(|| insta::assert_snapshot!(name, text));
}

fn rca_args<'a>(rubric: &'a str, format: &'a str) -> Vec<&'a str> {
    let mut a = RCA.to_vec();
    a.extend([rubric, "--format", format]);
    a
}

/// Every number anywhere in a JSON value.
fn numbers(v: &Value, out: &mut Vec<f64>) {
    match v {
        Value::Number(n) => out.extend(n.as_f64()),
        Value::Array(a) => a.iter().for_each(|x| numbers(x, out)),
        Value::Object(m) => m.values().for_each(|x| numbers(x, out)),
        _ => {}
    }
}

#[test]
fn seed_001_table_says_the_seat_got_slower_under_heavier_load() {
    let l = rca_ledger();
    let out = l.run(rca_args(COHORT_FILE, "table")).ok().stdout;
    let lines: Vec<&str> = out.lines().collect();
    // The heading, a blank line, then the verdict: the first thing a reader sees.
    assert!(lines[0].starts_with("Seat xai-hierarchical across waves rca-wave-1 → rca-wave-2"));
    assert_eq!(lines[1], "");
    assert_eq!(
        lines[2],
        "xai-hierarchical got slower (wall +121.0 s, +85.8%) under heavier load: parallel \
         sessions 4 → 6, sessions sharing the tool server 4 → 6, serial rerun yes → no. The rest \
         of the wave slowed by a median 148.7% (5 seats in both waves): xai-hierarchical moved \
         less than the wave."
    );
    // The wave-wide shift behind it, in the JSON: the other five seats' median relative
    // change, the seat's own, and that it did not go beyond its wave.
    let json = l.run(rca_args(COHORT_FILE, "json")).ok().json();
    let shift = &json["changes"][0]["wave_shift"]["wall_s"];
    assert_eq!(shift["seats"], 5);
    assert!(
        (shift["median_change"].as_f64().unwrap() - 1.487).abs() < 0.0005,
        "{shift}"
    );
    assert!(
        (shift["seat_change"].as_f64().unwrap() - 0.858).abs() < 0.0005,
        "{shift}"
    );
    assert_eq!(shift["relation"], "less_than_the_wave");
    assert_eq!(json["changes"][0]["beyond_wave_shift"]["wall_s"], false);
    // The relative efficiency (1.375 → 1.584) never appears: only the rank, 1 of 6 twice.
    assert!(!out.contains("1.375") && !out.contains("1.584"), "{out}");
    let rank_row = lines
        .iter()
        .find(|l| l.contains("cohort-efficiency@1"))
        .expect("a row for the relative rubric");
    assert_eq!(rank_row.matches("1 of 6").count(), 2, "{rank_row}");
    assert!(rank_row.contains("not compared"), "{rank_row}");
    snapshot("compare__rca_table", &out);
}

#[test]
fn seed_001_markdown_and_csv() {
    let l = rca_ledger();
    let md = l.run(rca_args(COHORT_FILE, "md")).ok().stdout;
    assert!(!md.contains("1.375") && !md.contains("1.584"), "{md}");
    snapshot("compare__rca_md", &md);
    let csv = l.run(rca_args(COHORT_FILE, "csv")).ok().stdout;
    // One row per wave; a relative rubric has a rank column and no score column.
    assert_eq!(csv.lines().count(), 3, "{csv}");
    assert!(csv.contains("cohort-efficiency@1_rank"), "{csv}");
    assert!(!csv.contains("cohort-efficiency@1_score"), "{csv}");
    snapshot("compare__rca_csv", &csv);
}

#[test]
fn seed_001_json_compares_absolutes_and_names_the_contention() {
    let l = rca_ledger();
    // By registered NAME@VERSION this time (the table tests use the file).
    l.run(["rubric", "add", COHORT_FILE]).ok();
    let v = l.run(rca_args("cohort-efficiency@1", "json")).ok().json();
    assert_eq!(v["format_version"], 1);
    assert_eq!(v["kind"], "compare");
    assert_eq!(v["seat"], "xai-hierarchical");

    let waves = v["waves"].as_array().expect("waves");
    assert_eq!(waves.len(), 2);
    assert_eq!(waves[0]["wave"], "rca-wave-1");
    assert_eq!(waves[1]["wave"], "rca-wave-2");
    // 31 + 35.25 + 41 + 33.75 = 141 s; 262 s in the rematch.
    assert_eq!(waves[0]["wall_s"].as_f64(), Some(141.0));
    assert_eq!(waves[1]["wall_s"].as_f64(), Some(262.0));
    for w in waves {
        assert_eq!(w["wall_known_attempts"], 4);
        assert_eq!(
            (w["correct"].as_u64(), w["denominator"].as_u64()),
            (Some(4), Some(4))
        );
        assert_eq!(w["accounting"]["input_tokens_include_cache_reads"], true);
        let r = &w["rubrics"][0];
        assert_eq!(r["rubric"], "cohort-efficiency@1");
        assert_eq!(r["relative"], true);
        assert_eq!(
            r["score"],
            Value::Null,
            "a relative score never leaves its wave"
        );
        assert_eq!((r["rank"].as_u64(), r["of"].as_u64()), (Some(1), Some(6)));
    }
    assert_eq!(waves[0]["load"]["parallel_sessions"], 4);
    assert_eq!(waves[1]["load"]["parallel_sessions"], 6);
    assert_eq!(waves[0]["tokens_total"], 899_915);
    assert_eq!(waves[1]["tokens_total"], 920_171);
    // The yardstick: the wave median of wall went (181.6 + 194.4) / 2 = 188 → (455.4 + 487.8)
    // / 2 = 471.6.
    let med = |w: &Value| w["rubrics"][0]["cohort_medians"][0]["median"].as_f64();
    assert_eq!(
        waves[0]["rubrics"][0]["cohort_medians"][0]["measure"],
        "wall_s"
    );
    assert!((med(&waves[0]).expect("a median") - 188.0).abs() < 1e-9);
    assert!((med(&waves[1]).expect("a median") - 471.6).abs() < 1e-9);

    let c = &v["changes"][0];
    assert_eq!(
        (c["from"].as_str(), c["to"].as_str()),
        (Some("rca-wave-1"), Some("rca-wave-2"))
    );
    assert_eq!(c["wall_s"].as_f64(), Some(121.0));
    assert_eq!(c["wall_s_ratio"].as_f64(), Some(262.0 / 141.0));
    assert_eq!(c["tokens_total"], 20_256);
    assert_eq!(c["accuracy"].as_f64(), Some(0.0));
    assert_eq!(
        c["rubrics"],
        Value::Array(vec![]),
        "no change of a relative score"
    );
    assert_eq!(
        c["confounded_by"],
        serde_json::json!(["parallel_sessions", "tool_server_sessions", "serial_rerun"])
    );

    assert_eq!(
        v["confounders"],
        serde_json::json!([
            {"condition": "parallel_sessions", "values": [4, 6], "confounds": ["wall_s"]},
            {"condition": "tool_server_sessions", "values": [4, 6], "confounds": ["wall_s"]},
            {"condition": "serial_rerun", "values": [true, false], "confounds": ["wall_s"]},
        ])
    );
    let verdict = v["verdict"][0].as_str().expect("a verdict");
    assert!(
        verdict.contains("got slower") && verdict.contains("heavier load"),
        "{verdict}"
    );

    // No relative score value appears anywhere in the JSON: take the seat's actual cohort
    // efficiencies from `score` and look for them (and their printed roundings).
    let mut relative_scores = Vec::new();
    for wave in ["rca-wave-1", "rca-wave-2"] {
        let s = l
            .run([
                "score",
                "--wave",
                wave,
                "--rubric",
                "cohort-efficiency@1",
                "--format",
                "json",
            ])
            .ok()
            .json();
        let seat = s["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .find(|x| x["seat"] == "xai-hierarchical")
            .expect("the seat is scored");
        relative_scores.push(seat["score"].as_f64().expect("a score"));
    }
    assert_eq!(format!("{:.3}", relative_scores[0]), "1.375");
    assert_eq!(format!("{:.3}", relative_scores[1]), "1.584");
    let mut all = Vec::new();
    numbers(&v, &mut all);
    for x in all {
        for r in &relative_scores {
            assert!(
                (x - r).abs() > 1e-6 && format!("{x:.3}") != format!("{r:.3}"),
                "the relative score {r} leaked into the JSON as {x}"
            );
        }
    }
}

#[test]
fn accounting_difference_and_an_unknown_cost() {
    let l = accounting_ledger();
    let args = |format: &'static str| {
        vec![
            "compare",
            "--seat",
            "s1",
            "acct-a",
            "acct-b",
            "--rubric",
            "rubrics/session-efficiency.v2.toml",
            "--format",
            format,
        ]
    };
    let table = l.run(args("table")).ok().stdout;
    assert!(
        table.contains("unknown (acct-b: cost known for 1 of 2 attempts)"),
        "{table}"
    );
    assert!(table.contains("$0.05 (1 of 2)"), "{table}");
    snapshot("compare__accounting_table", &table);
    let csv = l.run(args("csv")).ok().stdout;
    snapshot("compare__accounting_csv", &csv);

    let v = l.run(args("json")).ok().json();
    let w = v["waves"].as_array().expect("waves");
    assert_eq!(w[0]["tokens_total"], 8000);
    assert_eq!(w[1]["tokens_total"], 8400);
    assert_eq!(w[0]["new_input_tokens"], 4000);
    assert_eq!(w[1]["new_input_tokens"], 4000);
    assert_eq!(w[0]["cost_of_pass_usd"].as_f64(), Some((0.05 + 0.06) / 2.0));
    // The partial sum is kept with its coverage; Cost-of-Pass is undefined.
    assert_eq!(w[1]["cost_usd"].as_f64(), Some(0.05));
    assert_eq!(w[1]["cost_known_attempts"], 1);
    assert_eq!(w[1]["attempts"], 2);
    assert_eq!(w[1]["cost_of_pass_usd"], Value::Null);
    // An absolute rubric shows its score in each wave.
    assert_eq!(w[0]["rubrics"][0]["score"].as_f64(), Some(100.0));
    assert_eq!(w[1]["rubrics"][0]["score"].as_f64(), Some(50.0));
    assert_eq!(w[0]["rubrics"][0]["rank"], 1);
    assert_eq!(w[1]["rubrics"][0]["rank"], 2);

    let c = &v["changes"][0];
    assert_eq!(c["accuracy"].as_f64(), Some(-0.5));
    assert_eq!(c["wall_s"].as_f64(), Some(10.0));
    assert_eq!(c["tokens_total"], 400);
    assert_eq!(c["new_input_tokens"], 0);
    // A change involving an unknown value is unknown, never one from partial sums.
    assert_eq!(c["cost_usd"], Value::Null);
    assert_eq!(c["cost_usd_ratio"], Value::Null);
    assert_eq!(c["cost_of_pass_usd"], Value::Null);
    assert_eq!(
        c["rubrics"],
        serde_json::json!([{"rubric": "session-efficiency@2", "score": -50.0}])
    );

    // Unknown against known is a difference, with null as the unknown value.
    assert_eq!(
        v["confounders"],
        serde_json::json!([
            {
                "condition": "tool_server_sessions",
                "values": [2, null],
                "confounds": ["wall_s", "session-efficiency@2"],
            },
            {
                "condition": "input_tokens_include_cache_reads",
                "values": [true, false],
                "confounds": ["tokens_total", "new_input_tokens", "session-efficiency@2"],
            },
            {
                "condition": "price_source",
                "values": ["list prices 2026-05", null],
                "confounds": ["cost_usd", "cost_of_pass_usd"],
            },
        ])
    );
}

#[test]
fn a_seat_missing_from_a_wave_is_an_error_listing_its_seats() {
    let l = rca_ledger();
    let out = l.run(["compare", "--seat", "nobody", "rca-wave-1", "rca-wave-2"]);
    assert_eq!(out.status, 2, "{}", out.stderr);
    assert!(out.stdout.is_empty());
    assert!(
        out.stderr
            .contains("wave rca-wave-1 has no seat \"nobody\"")
            && out.stderr.contains(
                "anthropic-hierarchical, anthropic-react, openai-hierarchical, openai-react, \
                 xai-hierarchical, xai-react"
            ),
        "{}",
        out.stderr
    );
}

#[test]
fn fewer_than_two_waves_is_a_usage_error() {
    let l = rca_ledger();
    let out = l.run(["compare", "--seat", "xai-hierarchical", "rca-wave-1"]);
    assert_eq!(out.status, 2, "{}", out.stderr);
    let out = l.run([
        "compare",
        "--seat",
        "xai-hierarchical",
        "rca-wave-1",
        "rca-wave-1",
    ]);
    assert_eq!(out.status, 2, "{}", out.stderr);
    assert!(out.stderr.contains("named twice"), "{}", out.stderr);
}

/// Two waves of one seat whose only difference of load is the timeout multiplier (1 → 2.5):
/// a load condition, so the comparison says "different load", but unlike the rest of the load
/// it is named a confounder of accuracy, tokens, wall time and USD (a longer timeout lets
/// trials finish that would have timed out); `show` and `waves` print it, and the wave with
/// none reads as before.
#[test]
fn a_timeout_multiplier_that_differs_confounds_accuracy_tokens_wall_and_cost() {
    let env = Env::init();
    let wave = |dir: &str, id: &str, multiplier: &str, wall: u32| {
        common::write_wave(
            &env.path().join(dir),
            &format!(
                "[wave]\nid = \"{id}\"\nsuite = \"s\"\nstarted_at = 2026-05-0{wall}T00:00:00Z\n\
                 suite_problems = 2\n\n[wave.load]\nparallel_sessions = 2\n\
                 tool_server_sessions = 2\nserial_rerun = false\n{multiplier}\n\
                 [wave.accounting]\ninput_tokens_include_cache_reads = false\n\n\
                 [[seat]]\nid = \"a\"\nmodel = \"m\"\nprovider = \"p\"\nharness = \"h\"\n\
                 results = \"a.jsonl\"\n"
            ),
            &[(
                "a.jsonl",
                &format!(
                    "{{\"problem\":\"p1\",\"correct\":true,\"wall_s\":{wall}0}}\n\
                     {{\"problem\":\"p2\",\"correct\":false,\"wall_s\":{wall}0}}\n"
                ),
            )],
        )
    };
    let one = wave("one", "tm-1", "timeout_multiplier = 1", 1);
    let two = wave("two", "tm-2", "timeout_multiplier = 2.5", 3);
    let none = wave("none", "tm-none", "", 5);
    env.ingest(&[&one, &two, &none]);
    let out = env.run(["compare", "--seat", "a", "tm-1", "tm-2"]).ok();
    snapshot("compare__timeout_multiplier_table", &out.stdout);
    let json = env
        .run(["compare", "--seat", "a", "tm-1", "tm-2", "--format", "json"])
        .ok()
        .json();
    assert_eq!(
        json["confounders"],
        serde_json::json!([
            {
                "condition": "timeout_multiplier",
                "values": [1.0, 2.5],
                "confounds": [
                    "accuracy",
                    "wall_s",
                    "tokens_total",
                    "new_input_tokens",
                    "cost_usd",
                    "cost_of_pass_usd"
                ]
            }
        ])
    );
    let notes: Vec<&str> = json["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n.as_str())
        .collect();
    assert!(
        notes.contains(
            &"Confounder: timeout multiplier 1 → 2.5 — the changes in accuracy, wall time, \
              tokens and USD cannot be assigned to the seat alone (a longer timeout lets trials \
              finish that would have timed out); repeat under the same timeouts to separate them."
        ),
        "{notes:?}"
    );
    assert!(
        !notes.iter().any(|n| n.contains("comparable load")),
        "no other load condition differs: {notes:?}"
    );
    // A wave with none against one with a factor: known against unknown is a difference too,
    // but the load of a wave that records none is not "not fully recorded" on its account.
    let text = env
        .run(["compare", "--seat", "a", "tm-2", "tm-none"])
        .ok()
        .stdout;
    assert!(
        text.contains("under different load: timeout multiplier 2.5 → none recorded"),
        "{text}"
    );
    let show = env.run(["show", "tm-2"]).ok().stdout;
    assert!(
        show.contains(
            "Load: 2 parallel sessions, 2 sharing the tool server, not a serial rerun, \
             timeouts × 2.5"
        ),
        "{show}"
    );
    let show = env.run(["show", "tm-none"]).ok().stdout;
    assert!(
        show.contains("Load: 2 parallel sessions, 2 sharing the tool server, not a serial rerun\n"),
        "{show}"
    );
    let waves = env.run(["waves", "--format", "csv"]).ok().stdout;
    snapshot("compare__timeout_multiplier_waves_csv", &waves);
    let listed = env.run(["waves", "--format", "json"]).ok().json();
    let formats: Vec<(&str, u64)> = listed["waves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w["wave"]["wave"]
                    .as_str()
                    .unwrap_or_else(|| w["wave"].as_str().unwrap()),
                w["content_format"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(formats, [("tm-1", 3), ("tm-2", 3), ("tm-none", 2)]);
    // The site: the wave page's conditions, and the seat page's chart labels.
    let site = env.path().join("site");
    env.run(["site", "--out", site.to_str().unwrap()]).ok();
    let page = std::fs::read_to_string(site.join("waves/tm-2.html")).unwrap();
    assert!(
        page.contains("not a serial rerun, timeouts × 2.5</li>"),
        "{page}"
    );
    let none = std::fs::read_to_string(site.join("waves/tm-none.html")).unwrap();
    assert!(!none.contains("timeouts"), "{none}");
    let seat = std::fs::read_to_string(site.join("seats/a.html")).unwrap();
    assert!(seat.contains("2 par · 2 tool · timeouts ×2.5"), "{seat}");
}
