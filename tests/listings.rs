//! The listings through the CLI — `waves` and `show` in every format — and opening ledgers:
//! `init` twice, a missing ledger, one from a newer benchledger, a file that is not SQLite.
//!
//! Two waves feed the listings. `tests/fixtures/checkout/` is committed: four declared problems
//! (by id), input totals that exclude cached reads, a seat with an unknown cost, a seat with
//! nothing Correct. The SWT-bench wave is generated into the temporary directory: a suite of 433
//! declared problems, a seat that attempted 426 and got 232 Correct (so 232/433, the honest
//! denominator, not 232/426), and a seat whose results file is empty (missing all 433).
//!
//! The JSON is parsed and its documented fields checked against figures worked out by hand in
//! the comments below; the text of every format is kept as a snapshot in `snapshots/`.

mod common;

use std::path::{Path, PathBuf};

use common::{Env, Out, snapshot_settings, tests_dir, write_wave};
use serde_json::Value;

const FORMATS: [&str; 4] = ["table", "json", "csv", "md"];

/// The SWT-bench wave: 433 declared problems; `swt-agent` attempted swt-001..swt-426 and got
/// the first 232 Correct, each attempt 1,000 input tokens (200 of them cached reads, which
/// this wave's input totals include), 100 output tokens, 2.5 s and $0.25; `no-show` has an
/// empty results file.
fn write_swt_wave(dir: &Path) -> PathBuf {
    let mut results = String::new();
    for i in 1..=426 {
        results.push_str(&format!(
            "{{\"problem\":\"swt-{i:03}\",\"correct\":{},\"input_tokens\":1000,\
             \"output_tokens\":100,\"input_tokens_cache_read\":200,\"wall_s\":2.5,\
             \"cost_usd\":0.25}}\n",
            i <= 232
        ));
    }
    write_wave(
        dir,
        r#"[wave]
id = "swt-2026-01"
suite = "swt-bench"
# Local time with its offset; stored and listed in UTC.
started_at = 2026-01-15T08:30:00+01:00
suite_problems = 433

[wave.load]
parallel_sessions = 1
tool_server_sessions = 1
serial_rerun = true

[wave.accounting]
input_tokens_include_cache_reads = true

[wave.budget]
tokens = 200_000
wall_s = 600

[[seat]]
id = "swt-agent"
model = "claude-opus-4"
provider = "anthropic"
harness = "single-agent-react"
results = "swt-agent.jsonl"

[[seat]]
id = "no-show"
model = "tiny-model"
provider = "local"
harness = "single-agent-react"
results = "no-show.jsonl"
"#,
        &[("swt-agent.jsonl", &results), ("no-show.jsonl", "")],
    )
}

/// A ledger holding both waves.
fn ledger() -> Env {
    let env = Env::init();
    let swt = write_swt_wave(&env.path().join("swt"));
    env.ingest(&[&tests_dir("fixtures/checkout/wave.toml"), &swt]);
    env
}

fn seat<'a>(show: &'a Value, id: &str) -> &'a Value {
    show["seats"]
        .as_array()
        .expect("`seats` is a list")
        .iter()
        .find(|s| s["seat"] == id)
        .unwrap_or_else(|| panic!("no seat {id} in {show:#}"))
}

/// Asserts a seat's documented fields, by name. `raw` is the JSON text the seat came from:
/// serde_json's default parser may be one unit in the last place off for some floats
/// (`1.6600000000000001` reads back as `1.66`), so a float is compared within that and its
/// exact text is looked for in the output, which prints the shortest round-trip form.
#[track_caller]
fn assert_fields(raw: &str, seat: &Value, expected: &[(&str, Value)]) {
    for (field, want) in expected {
        let got = seat
            .get(field)
            .unwrap_or_else(|| panic!("seat {} has no field `{field}`", seat["seat"]));
        let what = format!("seat {} field `{field}`", seat["seat"]);
        match (got.as_f64(), want.is_f64(), want.as_f64()) {
            (Some(g), true, Some(w)) => {
                assert!(
                    (g - w).abs() <= w.abs() * 4.0 * f64::EPSILON,
                    "{what}: {g} != {w}"
                );
                let text = format!("\"{field}\": {want}");
                assert!(raw.contains(&text), "{what}: `{text}` is not in the output");
            }
            _ => assert_eq!(got, want, "{what}"),
        }
    }
}

fn f(x: f64) -> Value {
    Value::from(x)
}

/// The sum of some f64s in the given order, as the ledger sums them.
fn sum(xs: &[f64]) -> f64 {
    xs.iter().fold(0.0, |a, x| a + x)
}

#[test]
fn show_checkout_json_has_the_documented_figures() {
    let env = ledger();
    let out = env
        .run(["show", "checkout-2026-03", "--format", "json"])
        .ok();
    let show = out.json();
    assert_eq!(show["format_version"], 1);
    assert_eq!(show["kind"], "show");
    assert_eq!(show["wave"], "checkout-2026-03");
    assert_eq!(show["suite_problems"], 4);
    assert_eq!(show["load"]["parallel_sessions"], 6);
    assert_eq!(show["load"]["tool_server_sessions"], 6);
    assert_eq!(show["load"]["serial_rerun"], false);
    assert_eq!(
        show["accounting"]["input_tokens_include_cache_reads"],
        false
    );
    let ids: Vec<&str> = show["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["seat"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["anthropic-react", "openai-react", "xai-hierarchical"]);

    the_anthropic_seat_counts_a_missing_problem(&out.stdout, &show);
    the_openai_seat_counts_unknown_figures_apart(&out.stdout, &show);
    the_xai_seat_has_no_cost_of_pass(&out.stdout, &show);
}

/// `anthropic-react`: a missing problem in the denominator, every token known.
fn the_anthropic_seat_counts_a_missing_problem(stdout: &str, show: &Value) {
    // 3 of 4 declared problems attempted, 2 Correct: 2/4. Input totals exclude cached reads,
    // so tokens_total = input + cache read + cache write + output
    //   = (400,000 + 120,000 + 5,000 + 165,000) + (300,000 + 80,000 + 50,000)
    //     + (200,000 + 40,000) = 690,000 + 430,000 + 240,000 = 1,360,000.
    assert_fields(
        stdout,
        seat(show, "anthropic-react"),
        &[
            ("model", "claude-sonnet-4".into()),
            ("provider", "anthropic".into()),
            ("harness", "single-agent-react".into()),
            ("problems", 3.into()),
            ("attempts", 3.into()),
            ("correct", 2.into()),
            ("missing", 1.into()),
            ("denominator", 4.into()),
            ("accuracy", f(0.5)),
            ("input_tokens", 900_000.into()),
            ("input_tokens_known_attempts", 3.into()),
            ("output_tokens", 255_000.into()),
            ("output_tokens_known_attempts", 3.into()),
            ("input_tokens_cache_read", 200_000.into()),
            ("input_tokens_cache_read_known_attempts", 3.into()),
            ("input_tokens_cache_write", 5_000.into()),
            ("input_tokens_cache_write_known_attempts", 3.into()),
            ("tokens_total", 1_360_000.into()),
            ("new_input_tokens", 905_000.into()),
            ("tokens_known_attempts", 3.into()),
            ("new_input_tokens_known_attempts", 3.into()),
            ("wall_s", f(407.5)),
            ("wall_known_attempts", 3.into()),
            ("cost_usd", f(sum(&[0.91, 0.5, 0.25]))),
            ("cost_known_attempts", 3.into()),
            ("cost_of_pass_usd", f(sum(&[0.91, 0.5, 0.25]) / 2.0)),
            ("steps", 17.into()),
            ("steps_known_attempts", 3.into()),
            ("errors", 2.into()),
            ("errors_known_attempts", 3.into()),
        ],
    );
}

/// `openai-react`: figures some attempts lack, counted over the attempts that give them.
fn the_openai_seat_counts_unknown_figures_apart(stdout: &str, show: &Value) {
    // Five attempts on four problems (two trials of checkout-3), 2 Correct, none missing: 2/5.
    // checkout-2 has no cost: Cost-of-Pass is null and the USD covers 4 of 5 attempts.
    // checkout-4 has no tokens; checkout-3 trial 1 no wall; only two give cached reads and
    // none gives cache writes: left out, they are none in the token totals, which cover all
    // five, and unknown in their own sums (cached reads over 2 of 5, cache writes null).
    // tokens_total = (350,000 + 100,000 + 90,000) + (500,000 + 120,000) + (100,000 + 10,000)
    //   + (120,000 + 20,000 + 15,000) = 540,000 + 620,000 + 110,000 + 155,000 = 1,425,000.
    assert_fields(
        stdout,
        seat(show, "openai-react"),
        &[
            ("model", "gpt-5".into()),
            ("provider", "openai".into()),
            ("harness", "single-agent-react".into()),
            ("config", "temperature=0".into()),
            ("problems", 4.into()),
            ("attempts", 5.into()),
            ("correct", 2.into()),
            ("missing", 0.into()),
            ("denominator", 5.into()),
            ("accuracy", f(0.4)),
            ("input_tokens", 1_070_000.into()),
            ("input_tokens_known_attempts", 4.into()),
            ("output_tokens", 235_000.into()),
            ("output_tokens_known_attempts", 4.into()),
            ("input_tokens_cache_read", 120_000.into()),
            ("input_tokens_cache_read_known_attempts", 2.into()),
            ("input_tokens_cache_write", Value::Null),
            ("input_tokens_cache_write_known_attempts", 0.into()),
            ("tokens_total", 1_425_000.into()),
            ("new_input_tokens", 1_070_000.into()),
            ("tokens_known_attempts", 4.into()),
            ("new_input_tokens_known_attempts", 4.into()),
            ("wall_s", f(410.0)),
            ("wall_known_attempts", 4.into()),
            ("cost_usd", f(sum(&[1.2, 0.3, 0.35, 0.1]))),
            ("cost_known_attempts", 4.into()),
            ("cost_of_pass_usd", Value::Null),
            // No attempt reports steps or errors.
            ("steps", Value::Null),
            ("steps_known_attempts", 0.into()),
            ("errors", Value::Null),
            ("errors_known_attempts", 0.into()),
        ],
    );
}

/// `xai-hierarchical`: nothing Correct, so no Cost-of-Pass though every cost is known.
fn the_xai_seat_has_no_cost_of_pass(stdout: &str, show: &Value) {
    // Nothing Correct: 0/4 (2 attempted, 2 missing), Cost-of-Pass null though every cost is
    // known. tokens_total = (600,000 + 0 + 0 + 200,000) + (450,000 + 50,000 + 100,000).
    assert_fields(
        stdout,
        seat(show, "xai-hierarchical"),
        &[
            ("model", "grok-4".into()),
            ("provider", "xai".into()),
            ("harness", "hierarchical-reactree".into()),
            ("problems", 2.into()),
            ("attempts", 2.into()),
            ("correct", 0.into()),
            ("missing", 2.into()),
            ("denominator", 4.into()),
            ("accuracy", f(0.0)),
            ("input_tokens", 1_050_000.into()),
            ("output_tokens", 300_000.into()),
            ("input_tokens_cache_read", 50_000.into()),
            ("tokens_total", 1_400_000.into()),
            ("wall_s", f(315.0)),
            ("cost_usd", f(sum(&[1.4, 0.9]))),
            ("cost_known_attempts", 2.into()),
            ("cost_of_pass_usd", Value::Null),
            // checkout-2 leaves steps and errors empty.
            ("steps", 11.into()),
            ("steps_known_attempts", 1.into()),
            ("errors", 2.into()),
            ("errors_known_attempts", 1.into()),
        ],
    );
}

#[test]
fn show_swt_divides_by_the_suite_not_by_what_finished() {
    let env = ledger();
    let out = env.run(["show", "swt-2026-01", "--format", "json"]).ok();
    let show = out.json();
    assert_eq!(show["suite_problems"], 433);
    assert_eq!(show["started_at"], "2026-01-15T07:30:00Z");
    assert_eq!(show["load"]["parallel_sessions"], 1);
    assert_eq!(show["load"]["tool_server_sessions"], 1);
    assert_eq!(show["load"]["serial_rerun"], true);
    assert_eq!(show["accounting"]["input_tokens_include_cache_reads"], true);

    // Input totals include cached reads here, so they are not added again:
    // tokens_total = 426 × (1,000 + 100) = 468,600; new input = 426 × 800 = 340,800.
    assert_fields(
        &out.stdout,
        seat(&show, "swt-agent"),
        &[
            ("problems", 426.into()),
            ("attempts", 426.into()),
            ("correct", 232.into()),
            ("missing", 7.into()),
            ("denominator", 433.into()),
            ("accuracy", f(232.0 / 433.0)),
            ("input_tokens", 426_000.into()),
            ("output_tokens", 42_600.into()),
            ("input_tokens_cache_read", 85_200.into()),
            ("tokens_total", 468_600.into()),
            ("new_input_tokens", 340_800.into()),
            ("wall_s", f(1065.0)),
            ("cost_usd", f(106.5)),
            ("cost_known_attempts", 426.into()),
            ("cost_of_pass_usd", f(106.5 / 232.0)),
        ],
    );
    assert_ne!(seat(&show, "swt-agent")["accuracy"], f(232.0 / 426.0));

    // An empty results file under a declared suite: every problem missing, every sum unknown.
    assert_fields(
        &out.stdout,
        seat(&show, "no-show"),
        &[
            ("problems", 0.into()),
            ("attempts", 0.into()),
            ("correct", 0.into()),
            ("missing", 433.into()),
            ("denominator", 433.into()),
            ("accuracy", f(0.0)),
            ("input_tokens", Value::Null),
            ("output_tokens", Value::Null),
            ("input_tokens_cache_read", Value::Null),
            ("tokens_total", Value::Null),
            ("wall_s", Value::Null),
            ("cost_usd", Value::Null),
            ("cost_known_attempts", 0.into()),
            ("cost_of_pass_usd", Value::Null),
        ],
    );
}

#[test]
fn waves_json_lists_each_wave_with_its_conditions() {
    let env = ledger();
    let waves = env.run(["waves", "--format", "json"]).ok().json();
    assert_eq!(waves["kind"], "waves");
    let list = waves["waves"].as_array().unwrap();
    // By start time: SWT (January) before checkout (March).
    let ids: Vec<&str> = list.iter().map(|w| w["wave"].as_str().unwrap()).collect();
    assert_eq!(ids, ["swt-2026-01", "checkout-2026-03"]);
    let (swt, checkout) = (&list[0], &list[1]);
    assert_eq!((&swt["seats"], &swt["attempts"]), (&2.into(), &426.into()));
    assert_eq!(
        (&checkout["seats"], &checkout["attempts"]),
        (&3.into(), &10.into())
    );
    assert_eq!(checkout["suite"], "checkout-outage-rca");
    assert_eq!(checkout["notes"], "rematch, same incident");
    assert_eq!(checkout["load"]["parallel_sessions"], 6);
    assert_eq!(checkout["load"]["tool_server_sessions"], 6);
    assert_eq!(checkout["load"]["serial_rerun"], false);
    assert_eq!(
        checkout["accounting"]["input_tokens_include_cache_reads"],
        false
    );
    assert_eq!(
        checkout["accounting"]["price_source"],
        "list prices 2026-03"
    );
    // Whole budgets are integers, as the manifest wrote them (once printed as 1000000.0).
    assert_eq!(checkout["budget"]["tokens"].as_u64(), Some(1_000_000));
    assert_eq!(checkout["budget"]["wall_s"].as_u64(), Some(180));
    assert!(!out_text_has_whole_floats(&checkout["budget"]));
    assert_eq!(checkout["provenance"]["producer"], "inspect_ai");
    assert_eq!(swt["load"]["serial_rerun"], true);
    assert_eq!(swt["accounting"]["input_tokens_include_cache_reads"], true);
    for w in list {
        assert_eq!(w["content_sha256"].as_str().unwrap().len(), 64);
    }
}

/// Whether a JSON value holds a whole number written as a float (`400000.0`).
fn out_text_has_whole_floats(v: &serde_json::Value) -> bool {
    serde_json::to_string(v)
        .unwrap()
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .any(|t| t.ends_with(".0"))
}

#[test]
fn listings_in_every_format_match_their_snapshots() {
    let env = ledger();
    let snapshot = |name: String, out: Out| {
        assert!(out.stderr.is_empty(), "{name}: {}", out.stderr);
        snapshot_settings().bind(|| insta::assert_snapshot!(name, out.stdout));
    };
    for format in FORMATS {
        snapshot(
            format!("listings__waves_{format}"),
            env.run(["waves", "--format", format]).ok(),
        );
        for wave in ["checkout-2026-03", "swt-2026-01"] {
            snapshot(
                format!("listings__show_{wave}_{format}"),
                env.run(["show", wave, "--format", format]).ok(),
            );
        }
    }
    // Table is the default format.
    assert_eq!(
        env.run(["waves"]).ok().stdout,
        env.run(["waves", "--format", "table"]).ok().stdout
    );
}

#[test]
fn an_empty_ledger_lists_no_waves_and_says_how_to_add_one() {
    let env = Env::init();
    let out = env.run(["waves"]).ok();
    assert!(
        out.stdout
            .ends_with("\nNo waves yet: add one with `benchledger ingest MANIFEST.toml`.\n"),
        "{}",
        out.stdout
    );
    assert_eq!(
        env.run(["waves", "--format", "json"]).ok().json()["waves"],
        Value::Array(vec![])
    );
    assert_eq!(
        env.run(["waves", "--format", "csv"])
            .ok()
            .stdout
            .lines()
            .count(),
        1
    );
}

#[test]
fn show_of_an_unknown_wave_names_the_waves_there_are() {
    let env = ledger();
    let out = env.run(["show", "checkout-2026-04"]).status(2);
    assert!(out.stdout.is_empty());
    assert!(
        out.stderr.contains("no wave `checkout-2026-04`")
            && out
                .stderr
                .contains("the ledger has: swt-2026-01, checkout-2026-03"),
        "{}",
        out.stderr
    );
}

#[test]
fn init_twice_says_there_is_nothing_to_do() {
    let env = Env::new();
    let first = env.run(["init"]).ok();
    assert!(
        first.stdout.starts_with("created ledger "),
        "{}",
        first.stdout
    );
    let bytes = env.ledger_bytes();
    let second = env.run(["init"]).ok();
    assert!(
        second.stdout.contains("already exists") && second.stdout.contains("nothing to do"),
        "{}",
        second.stdout
    );
    assert_eq!(env.ledger_bytes(), bytes);
}

#[test]
fn the_ledger_path_comes_from_benchledger_db_when_no_flag_is_given() {
    let env = Env::new();
    let db = env.path().join("from-env.db");
    let out = common::run_raw(env.path(), &["init"], &[("BENCHLEDGER_DB", db.as_os_str())]).ok();
    assert!(out.stdout.contains("from-env.db"), "{}", out.stdout);
    assert!(db.is_file());
    assert!(!env.path().join("benchledger.db").exists());
    // And ./benchledger.db when neither is given.
    common::run_raw(env.path(), &["init"], &[]).ok();
    assert!(env.path().join("benchledger.db").is_file());
}

#[test]
fn a_missing_ledger_says_to_run_init() {
    let env = Env::new();
    for args in [vec!["waves"], vec!["show", "x"]] {
        let out = env.run(&args).status(2);
        assert!(out.stderr.contains("benchledger init"), "{}", out.stderr);
        assert!(
            out.stderr.contains(&*env.db.to_string_lossy()),
            "{}",
            out.stderr
        );
    }
    if common::postgres_backend() {
        // A database on the server: reading never makes it a ledger; bad input does not either.
        let before = env.ledger_bytes();
        let manifest = tests_dir("fixtures/checkout/wave.toml");
        let out = env.run([Path::new("ingest"), &manifest]).status(2);
        assert!(out.stderr.contains("benchledger init"), "{}", out.stderr);
        assert_eq!(env.ledger_bytes(), before);
        return;
    }
    // Reading never creates the ledger; ingest with bad input does not either.
    assert!(!env.db.exists());
    let manifest = tests_dir("fixtures/checkout/wave.toml");
    let out = env.run([Path::new("ingest"), &manifest]).status(2);
    assert!(out.stderr.contains("benchledger init"), "{}", out.stderr);
    assert!(!env.db.exists());
}

#[test]
fn a_ledger_from_a_newer_benchledger_is_refused_and_left_alone() {
    let env = Env::new();
    env.tamper(if common::postgres_backend() {
        "CREATE TABLE future (x bigint);
         CREATE TABLE benchledger_migration (version bigint PRIMARY KEY);
         INSERT INTO benchledger_migration VALUES (999)"
    } else {
        "CREATE TABLE future (x INTEGER); PRAGMA user_version = 999;"
    });
    let before = env.ledger_bytes();
    let manifest = tests_dir("fixtures/checkout/wave.toml");
    let outs = [
        env.run(["waves"]),
        env.run(["init"]),
        env.run([Path::new("ingest"), &manifest]),
    ];
    for out in outs {
        let out = out.status(2);
        assert!(
            out.stderr
                .contains("schema version 999, written by a newer benchledger")
                && out.stderr.contains("Upgrade benchledger"),
            "{}",
            out.stderr
        );
    }
    assert_eq!(env.ledger_bytes(), before);
}

#[test]
fn a_file_that_is_not_sqlite_is_refused_cleanly_and_left_alone() {
    let env = Env::sqlite();
    let text = "wave,seat\ncheckout,xai\n".repeat(50);
    std::fs::write(&env.db, &text).unwrap();
    for args in [vec!["waves"], vec!["init"], vec!["show", "checkout"]] {
        let out = env.run(&args).status(2);
        assert_eq!(
            out.stderr,
            format!(
                "error: {}: this file is not a benchledger ledger (not an SQLite database)\n",
                env.db.display()
            )
        );
    }
    assert_eq!(std::fs::read_to_string(&env.db).unwrap(), text);
    let mut wal = env.db.as_os_str().to_os_string();
    wal.push("-wal");
    assert!(!Path::new(&wal).exists());
}

#[test]
fn huge_token_counts_edited_into_the_ledger_neither_panic_nor_wrap() {
    // Ingest holds each count to 10^12; counts edited in behind benchledger's back can reach
    // i64::MAX, and two such attempts' totals no longer fit a u64. The figure must say it
    // covers fewer attempts rather than wrap (release) or panic (debug).
    let env = Env::init();
    let manifest = write_wave(
        &env.path().join("huge"),
        r#"[wave]
id = "huge"
suite = "s"
started_at = 2026-03-01T09:00:00Z

[wave.accounting]
input_tokens_include_cache_reads = false

[[seat]]
id = "s1"
model = "m"
provider = "p"
harness = "h"
results = "s1.jsonl"
"#,
        &[(
            "s1.jsonl",
            "{\"problem\":\"p1\",\"correct\":true,\"input_tokens\":1000,\"output_tokens\":100}\n\
             {\"problem\":\"p2\",\"correct\":true,\"input_tokens\":1000,\"output_tokens\":100}\n\
             {\"problem\":\"p3\",\"correct\":true,\"input_tokens\":1000,\"output_tokens\":100}\n",
        )],
    );
    env.ingest(&[&manifest]);
    env.tamper(&format!(
        "DROP TRIGGER attempt_no_update; UPDATE attempt SET input_tokens = {};",
        i64::MAX
    ));

    let out = env.run(["show", "huge", "--format", "json"]).ok();
    let s = seat(&out.json(), "s1").clone();
    // Each attempt's total is i64::MAX + 100 = 2^63 + 99; a second one would pass 2^64.
    assert_eq!(s["tokens_total"], Value::from(i64::MAX as u64 + 100));
    assert_eq!(s["tokens_known_attempts"], Value::from(1));
    // Two inputs of i64::MAX make 2^64 - 2; a third would not fit.
    assert_eq!(s["input_tokens"], Value::from(u64::MAX - 1));
    let table = env.run(["show", "huge"]).ok().stdout;
    assert!(
        table.contains("9,223,372,036,854,775,907 (1 of 3)"),
        "{table}"
    );
    assert!(
        table.contains("(k of n): the figure covers only"),
        "{table}"
    );
}

/// A cheap eval (issue: "a cheap eval's Cost-of-Pass reads `$0.0000`"): two problems, each
/// attempt $0.0000152, both Correct, so USD $0.0000304 and Cost-of-Pass $0.0000152; three
/// significant digits below a cent, in the table and in Markdown. Its model id is an
/// importer's long one, kept whole in the terminal. A publication's text keeps its frozen
/// format (fixed places), so every publication already made still verifies byte for byte.
#[test]
fn a_cheap_evals_costs_print_with_significant_digits() {
    let env = Env::init().run_from_crate_root();
    let dir = env.path().join("cheap");
    let attempt = |p: &str| {
        format!(
            "{{\"problem\":\"{p}\",\"correct\":true,\"input_tokens\":100,\"output_tokens\":10,\
             \"wall_s\":1.5,\"cost_usd\":0.0000152}}\n"
        )
    };
    let results = attempt("p1") + &attempt("p2");
    let manifest = write_wave(
        &dir,
        r#"[wave]
id = "cheap-2026-05"
suite = "cheap"
started_at = 2026-05-01T00:00:00Z

[wave.accounting]
input_tokens_include_cache_reads = true

[[seat]]
id = "llama-405b"
model = "azureai-Meta-Llama-3-1-405B-Instruct-jqf"
provider = "azureai"
harness = "generate"
results = "llama.jsonl"
"#,
        &[("llama.jsonl", &results)],
    );
    env.ingest(&[&manifest]);
    let table = env.run(["show", "cheap-2026-05"]).ok().stdout;
    assert!(
        table.contains("$0.0000304") && table.contains("$0.0000152"),
        "{table}"
    );
    assert!(!table.contains("$0.0000 "), "{table}");
    let md = env
        .run(["show", "cheap-2026-05", "--format", "md"])
        .ok()
        .stdout;
    assert!(md.contains("| $0.0000304 | $0.0000152 |"), "{md}");
    snapshot_settings().bind(|| {
        insta::assert_snapshot!("listings__show_cheap_table", table);
        insta::assert_snapshot!("listings__show_cheap_md", md);
    });
    // The publication's frozen text, and it verifies.
    env.run(["rubric", "add", "rubrics/accuracy.v1.toml"]).ok();
    env.run([
        "publish",
        "--wave",
        "cheap-2026-05",
        "--rubric",
        "accuracy@1",
        "--title",
        "Cheap",
    ])
    .ok();
    env.run(["verify", "1"]).ok();
}

/// The note under a wave of several trials gives each seat's Cost-of-Pass per problem; for a
/// cheap eval it too prints three significant digits, never `$0.0000`. One problem, two trials
/// of $0.0000152 each, one Correct: mean cost $0.0000152 over a success rate of 1/2, so
/// $0.0000304.
#[test]
fn a_cheap_evals_cost_of_pass_per_problem_prints_with_significant_digits() {
    let env = Env::init().run_from_crate_root();
    let attempt = |trial: u32, correct: bool| {
        format!(
            "{{\"problem\":\"p1\",\"attempt\":{trial},\"correct\":{correct},\"input_tokens\":100,\
             \"output_tokens\":10,\"wall_s\":1.5,\"cost_usd\":0.0000152}}\n"
        )
    };
    let results = attempt(1, true) + &attempt(2, false);
    let manifest = write_wave(
        &env.path().join("cheap-trials"),
        r#"[wave]
id = "cheap-trials"
suite = "cheap"
started_at = 2026-05-01T00:00:00Z

[wave.accounting]
input_tokens_include_cache_reads = true

[[seat]]
id = "llama-405b"
model = "llama"
provider = "azureai"
harness = "generate"
results = "llama.jsonl"
"#,
        &[("llama.jsonl", &results)],
    );
    env.ingest(&[&manifest]);
    for format in ["table", "md"] {
        let out = env
            .run(["show", "cheap-trials", "--format", format])
            .ok()
            .stdout;
        assert!(out.contains("Cost-of-Pass per problem"), "{out}");
        assert!(out.contains("llama-405b $0.0000304."), "{out}");
        assert!(
            !out.contains("$0.0000 ") && !out.contains("$0.0000."),
            "{out}"
        );
    }
}

/// Issue 32, #3: `show` printed `x̄ ± SE` only in a note, and only for seats whose per-problem
/// mean differs from their accuracy: a seat of many problems read `64.2%` with no error bar
/// anywhere. Every accuracy in `show`'s table has its clustered standard error beside it (with
/// `--ci`, its interval).
#[test]
fn issue_32_3_show_prints_an_error_bar_beside_every_accuracy() {
    let env = Env::with_waves(&["examples/rca-wave-2/wave.toml"]);
    let out = env.run(["show", "rca-wave-2"]).ok();
    let json = env
        .run(["show", "rca-wave-2", "--format", "json"])
        .ok()
        .json();
    let seats = json["seats"].as_array().unwrap();
    assert!(!seats.is_empty());
    for s in seats {
        let se = s["accuracy_se"].as_f64().unwrap();
        let shown = format!("± {:.1}", se * 100.0);
        let line = out
            .stdout
            .lines()
            .find(|l| l.contains(s["seat"].as_str().unwrap()) && l.contains('%'))
            .unwrap_or_else(|| panic!("no row for {s} in {}", out.stdout));
        assert!(line.contains(&shown), "{shown} not in {line:?}");
    }
    assert!(
        out.stdout.contains("Correct ± SE: the standard error"),
        "{}",
        out.stdout
    );
    // CSV keeps its columns: the error bar is for people; JSON has `accuracy_se`.
    let csv = env.run(["show", "rca-wave-2", "--format", "csv"]).ok();
    assert!(!csv.stdout.contains('±'), "{}", csv.stdout);
}
