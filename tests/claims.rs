//! Claims through the CLI: published numbers checked against the ledger (`claims check`),
//! claims files written from leaderboards' own files (`claims from`), and claims carried by a
//! publication (`publish --claims`), which verify checks again.
//!
//! The figures are worked out by hand in the fixtures: tests/fixtures/claims/examples.v1.toml (a
//! claim of every kind of figure on the shipped examples), verdicts.v1.toml with the wave in
//! tests/fixtures/claims/mini (each verdict, values at a half), and the importers' fixtures.

mod common;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use common::{Cell, Env, Shell, copy_dir, snapshot_settings, tests_dir};
use serde_json::Value;

const WAVES: [&str; 4] = [
    "examples/rca-wave-1/wave.toml",
    "examples/checkout-rematch/wave.toml",
    "tests/fixtures/trials/wave.toml",
    "tests/fixtures/claims/mini/wave.toml",
];

const EXAMPLES: &str = "tests/fixtures/claims/examples.v1.toml";
const VERDICTS: &str = "tests/fixtures/claims/verdicts.v1.toml";

/// A ledger with the waves the claims fixtures are about, and session-efficiency@2 registered.
fn ledger() -> Env {
    let env = Env::with_waves(&WAVES);
    env.run(["rubric", "add", "rubrics/session-efficiency.v2.toml"])
        .ok();
    env
}

fn snapshot(name: &str, text: &str) {
    snapshot_settings().bind(|| insta::assert_snapshot!(name, text));
}

#[track_caller]
fn assert_contains(haystack: &str, needle: &str) {
    assert!(
        haystack.contains(needle),
        "expected to find {needle:?} in:\n{haystack}"
    );
}

fn claims(json: &Value) -> &Vec<Value> {
    json["claims"].as_array().expect("`claims` is a list")
}

fn strs(v: &Value) -> Vec<&str> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|s| s.as_str().expect("a text"))
        .collect()
}

fn cause_keys(c: &Value) -> Vec<&str> {
    c["causes"]
        .as_array()
        .expect("`causes` is a list")
        .iter()
        .map(|c| c["cause"].as_str().expect("a cause key"))
        .collect()
}

/// Writes a claims file into the test's directory.
fn write_claims(env: &Env, name: &str, text: &str) -> PathBuf {
    let path = env.path().join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_claim_of_every_kind_of_figure_on_the_examples_reproduces_as_worked_out_by_hand() {
    let env = ledger();
    let out = env
        .run(["claims", "check", EXAMPLES, "--format", "json"])
        .ok();
    let json = out.json();
    assert_eq!(json["kind"], "claims");
    // (figure, the value worked out by hand in the claims file, in the published scale)
    let expected: [(&str, f64); 29] = [
        ("problems", 4.0),
        ("attempts", 4.0),
        ("correct", 2.0),
        ("missing", 0.0),
        ("denominator", 4.0),
        ("accuracy", 50.0),
        ("input_tokens", 962_983.0),
        ("output_tokens", 87_544.0),
        ("input_tokens_cache_read", 434_000.0),
        ("input_tokens_cache_write", 43_773.0),
        ("tokens_total", 1_094_300.0),
        ("new_input_tokens", 572_756.0),
        ("wall_s", 181.6),
        ("cost_usd", 1.81),
        ("cost_of_pass_usd", 0.905),
        ("cost_of_pass_per_problem_usd", 0.49),
        ("steps", 75.0),
        ("errors", 4.0),
        ("canary_failures", 0.0),
        ("canary_failures", 1.0),
        ("mean_cost_usd", 0.4525),
        ("mean_wall_s", 45.4),
        ("mean_tokens_total", 273_575.0),
        ("score:session-efficiency@2", 75.0),
        ("score:session-efficiency@2", 100.0),
        ("pass_at_k.2", 0.475),
        ("pass_hat_k.2", 0.325),
        ("pass_hat_k.3", 0.275),
        ("pass_at_k.3", 0.55),
    ];
    let list = claims(&json);
    assert_eq!(list.len(), expected.len());
    for (c, (figure, value)) in list.iter().zip(expected) {
        assert_eq!(c["figure"], figure);
        assert_eq!(c["verdict"], "reproduced", "{c}");
        let computed = c["computed"].as_f64().unwrap();
        assert!(
            (computed - value).abs() <= 1e-9 * value.abs().max(1.0),
            "{figure}: {computed} computed, {value} by hand"
        );
    }
    // Cost-of-Pass 1.81 / 2 sits at a half: both neighbours are named.
    assert_eq!(strs(&list[14]["computed_rounded"]), ["0.90", "0.91"]);
    assert_eq!(
        json["summary"],
        serde_json::json!({"claims": 29, "reproduced": 29, "differs": 0, "cannot_be_computed": 0})
    );
    // The table says the same, and exits 0.
    let table = env.run(["claims", "check", EXAMPLES]).ok();
    assert_contains(
        &table.stdout,
        "29 claims: 29 reproduced, 0 differ, 0 cannot be computed.",
    );
}

#[test]
fn the_shipped_example_paper_s_claims() {
    let env = ledger();
    let out = env
        .run([
            "claims",
            "check",
            "claims/example-paper.v1.toml",
            "--format",
            "json",
        ])
        .status(1);
    let json = out.json();
    let got: Vec<(&str, &str, Vec<&str>)> = claims(&json)
        .iter()
        .map(|c| {
            (
                c["figure"].as_str().unwrap(),
                c["verdict"].as_str().unwrap(),
                cause_keys(c),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("accuracy", "reproduced", vec![]),
            ("cost_of_pass_usd", "reproduced", vec![]),
            ("mean_wall_s", "reproduced", vec![]),
            (
                "input_tokens",
                "differs",
                vec!["tokens_without_cached_reads"]
            ),
            ("tokens_total", "differs", vec!["tokens_cached_reads_twice"]),
            ("score:session-efficiency@2", "reproduced", vec![]),
            ("cost_usd", "differs", vec![]),
            ("pass_at_k.2", "cannot_be_computed", vec![]),
        ]
    );
    let table = env
        .run(["claims", "check", "claims/example-paper.v1.toml"])
        .status(1);
    snapshot("claims__example_paper", &table.stdout);
}

#[test]
fn each_verdict_and_values_at_a_half() {
    let env = ledger();
    let out = env
        .run(["claims", "check", VERDICTS, "--format", "json"])
        .status(1);
    assert_contains(&out.stderr, "6 of 16 claims differ from the ledger");
    let json = out.json();
    let list = claims(&json);
    let verdicts: Vec<&str> = list
        .iter()
        .map(|c| c["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(
        verdicts,
        [
            "reproduced",
            "reproduced",
            "reproduced",
            "differs",
            "differs",
            "cannot_be_computed",
            "cannot_be_computed",
            "differs",
            "reproduced",
            "reproduced",
            "differs",
            "differs",
            "reproduced",
            "differs",
            "reproduced",
            "reproduced",
        ]
    );
    // 9 / 16 = 56.25 %: Python's 56.2 and JavaScript's 56.3 both reproduce; 56 at no decimals.
    for c in &list[0..2] {
        assert_eq!(strs(&c["computed_rounded"]), ["56.2", "56.3"]);
    }
    assert_eq!(strs(&list[2]["computed_rounded"]), ["56"]);
    assert_eq!(list[3]["difference"].as_f64().unwrap(), 56.25 - 56.1);
    assert!(cause_keys(&list[3]).is_empty());
    // The mean cost: $0.50 over the 14 priced, $0.4375 with the 2 unpriced at $0.
    assert_eq!(list[4]["computed"], 0.5);
    assert_eq!(
        list[4]["covers"],
        serde_json::json!({"known": 14, "attempts": 16})
    );
    assert_eq!(cause_keys(&list[4]), ["unknown_as_zero", "partial"]);
    assert_eq!(list[4]["tried"][0]["computed"], 0.4375);
    assert_eq!(strs(&list[4]["tried"][0]["computed_rounded"]), ["0.44"]);
    // Cannot be computed, and why.
    assert_eq!(
        list[5]["reason"],
        "the ledger knows no attempt's wall time (0 of 16 attempts)"
    );
    assert!(list[5]["computed"].is_null());
    assert_eq!(cause_keys(&list[6]), ["unknown_as_zero"]);
    // twelve: 37.5 %; 50.0 is over the attempted; 40.0 is 6 of 15.
    assert_eq!(cause_keys(&list[7]), ["over_attempted"]);
    assert_eq!(strs(&list[8]["computed_rounded"]), ["37", "38"]);
    assert_eq!(list[9]["tolerance"], 0.05);
    assert_eq!(cause_keys(&list[10]), ["other_denominator"]);
    assert_contains(
        list[10]["causes"][0]["says"].as_str().unwrap(),
        "6 Correct of 15 (1 fewer than the ledger's 16): 40.0",
    );
    assert!(cause_keys(&list[11]).is_empty());
    assert_eq!(list[11]["tried"][0]["convention"], "over_suite");
    assert_eq!(
        cause_keys(&list[13]),
        ["other_denominator", "metric", "counts"]
    );
    // 0.905 and 0.4525, computed as 0.9049999999999999 and 0.45249999999999996: at a half.
    assert_eq!(strs(&list[14]["computed_rounded"]), ["0.90", "0.91"]);
    assert_eq!(strs(&list[15]["computed_rounded"]), ["0.452", "0.453"]);
    assert_eq!(
        json["summary"],
        serde_json::json!({"claims": 16, "reproduced": 8, "differs": 6, "cannot_be_computed": 2})
    );
    snapshot("claims__verdicts_json", &out.stdout);
    let table = env.run(["claims", "check", VERDICTS]).status(1);
    snapshot("claims__verdicts_table", &table.stdout);
    // CSV: unrounded machine values, the verdict keys.
    let csv = env
        .run(["claims", "check", VERDICTS, "--format", "csv"])
        .status(1);
    let mut lines = csv.stdout.lines();
    assert_eq!(
        lines.next(),
        Some(
            "claim,file,line,wave,seat,figure,scale,published,computed,computed_rounded,\
             difference,verdict,cause"
        )
    );
    assert_eq!(
        lines.next(),
        Some(
            "1,0,8,claims-mini,nine,accuracy,100,56.2,56.25,56.2 or 56.3,0.04999999999999716,reproduced,"
        )
    );
}

#[test]
fn a_claim_about_a_wave_seat_or_rubric_the_ledger_lacks_is_refused_by_name() {
    let env = ledger();
    let before = env.ledger_bytes();
    let head = "name = \"x\"\nversion = 1\nsource = \"a paper\"\n\n";
    let claim = |wave: &str, seat: &str, figure: &str| {
        format!(
            "[[claim]]\nwave = \"{wave}\"\nseat = \"{seat}\"\nfigure = \"{figure}\"\nvalue = 1\n\
             decimals = 0\n"
        )
    };
    for (body, says) in [
        (
            format!(
                "{}\n{}",
                claim("rca-wave-1", "xai-react", "correct"),
                claim("rca-wave-9", "xai-react", "correct")
            ),
            "bad.toml:13: field `wave`: no wave `rca-wave-9` in",
        ),
        (
            claim("rca-wave-1", "nobody", "correct"),
            "bad.toml:7: field `seat`: wave rca-wave-1 has no seat `nobody`; its seats: \
             anthropic-hierarchical, anthropic-react",
        ),
        (
            claim("rca-wave-1", "xai-react", "score:cohort-efficiency@1"),
            "bad.toml:8: field `figure`: no rubric cohort-efficiency@1 is registered",
        ),
        (
            claim("rca-wave-1", "xai-react", "accuracy_rate"),
            "bad.toml:8: field `figure`: unknown figure \"accuracy_rate\"",
        ),
    ] {
        let path = write_claims(&env, "bad.toml", &format!("{head}{body}"));
        let out = env
            .run([OsStr::new("claims"), OsStr::new("check"), path.as_os_str()])
            .status(2);
        assert_contains(&out.stderr, says);
        assert!(out.stdout.is_empty(), "{}", out.stdout);
    }
    // The missing wave is named with the waves there are.
    let path = write_claims(
        &env,
        "bad.toml",
        &format!("{head}{}", claim("no-such-wave", "s", "correct")),
    );
    let out = env
        .run([OsStr::new("claims"), OsStr::new("check"), path.as_os_str()])
        .status(2);
    assert_contains(
        &out.stderr,
        "bad.toml:6: field `wave`: no wave `no-such-wave` in",
    );
    assert_contains(
        &out.stderr,
        &format!(
            "{}; the ledger has: rca-wave-1, checkout-rematch, five-trials, claims-mini",
            env.db.display()
        ),
    );
    assert_eq!(env.ledger_bytes(), before, "claims check writes nothing");
}

/// A wave whose results record tokens and no costs, priced from a table: the causes a cost or
/// a token count that differs can have in how cached reads and cache writes were counted.
const PRICED_WAVE: &str = r#"[wave]
id = "priced"
suite = "costless"
started_at = 2026-03-04T10:00:00Z
suite_problems = 2

[wave.accounting]
input_tokens_include_cache_reads = false

[[seat]]
id = "alpha"
model = "model-a"
provider = "lab-a"
harness = "react"
results = "alpha.jsonl"
"#;

const PRICED_ALPHA: &str = r#"{"problem":"p1","correct":true,"input_tokens":400000,"output_tokens":50000,"input_tokens_cache_read":300000,"input_tokens_cache_write":100000}
{"problem":"p2","correct":false,"input_tokens":1000000,"output_tokens":100000}
"#;

const PRICE_TABLE: &str = r#"name = "hand"
version = 1
date = 2026-03-01
source = "hand-computed test prices"

[[model]]
model = "model-a"
input = 2.0
output = 10.0
cache_read = 0.25
cache_write = 2.5
"#;

/// USD per million tokens 2 input, 10 output, 0.25 a cached read, 2.5 a cache write. p1:
/// 400,000 × 2 + 50,000 × 10 + 300,000 × 0.25 + 100,000 × 2.5 = $1.625; p2: 1,000,000 × 2 +
/// 100,000 × 10 = $3.00; the seat $4.625. Each claim below was computed another way:
const PRICED_CLAIMS: &str = r#"name = "pricing"
version = 1
source = "written for the tests: a cost and token counts priced and counted other ways"

# Cache writes at the input price: p1 $1.575, the seat $4.575.
[[claim]]
wave = "priced"
seat = "alpha"
figure = "cost_usd"
value = 4.575
decimals = 3

# Cache writes at the cached-read price: p1 $1.40, the seat $4.40.
[[claim]]
wave = "priced"
seat = "alpha"
figure = "cost_usd"
value = 4.4
decimals = 1

# Cached reads at the input price: p1 $2.15, the seat $5.15; one Correct.
[[claim]]
wave = "priced"
seat = "alpha"
figure = "cost_of_pass_usd"
value = 5.15
decimals = 2

# The input totals with the cached reads in them: 1,400,000 + 300,000.
[[claim]]
wave = "priced"
seat = "alpha"
figure = "input_tokens"
value = 1700000
decimals = 0

# The total without cached reads: 1,400,000 + 100,000 + 150,000 (the ledger's adds 300,000).
[[claim]]
wave = "priced"
seat = "alpha"
figure = "tokens_total"
value = 1650000
decimals = 0

# The ledger's own: $4.625 — at a half at two decimals.
[[claim]]
wave = "priced"
seat = "alpha"
figure = "cost_usd"
value = 4.63
decimals = 2
"#;

#[test]
fn claims_resolve_a_seat_named_by_its_model_s_alias_in_the_alias_table() {
    // A claims file written from a leaderboard names its seat after the model
    // (`claude-sonnet-4-5`, an OpenHands index's model directory); checkout-rematch's one seat
    // on that model is anthropic-react, whose files say `claude-sonnet-4.5`. The claim is checked
    // against that seat, as ingest matches a results file's model to its seat's, and says so.
    let env = ledger();
    let head = "name = \"x\"\nversion = 1\nsource = \"a leaderboard\"\n\n";
    let claim = |wave: &str, seat: &str| {
        format!(
            "[[claim]]\nwave = \"{wave}\"\nseat = \"{seat}\"\nfigure = \"accuracy\"\n\
             value = 50\nscale = 100\ndecimals = 0\n"
        )
    };
    let body = format!(
        "{head}{}\n{}",
        claim("checkout-rematch", "anthropic-react"),
        claim("checkout-rematch", "anthropic/claude-sonnet-4-5-20250929")
    );
    let path = write_claims(&env, "alias.toml", &body);
    let out = env.run([
        OsStr::new("claims"),
        OsStr::new("check"),
        path.as_os_str(),
        OsStr::new("--format"),
        OsStr::new("json"),
    ]);
    let json = out.json();
    let list = claims(&json);
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["computed"], list[1]["computed"]);
    assert_eq!(list[0]["verdict"], list[1]["verdict"]);
    assert_eq!(list[1]["seat"], "anthropic/claude-sonnet-4-5-20250929");
    assert!(
        strs(&list[1]["notes"]).contains(
            &"seat anthropic/claude-sonnet-4-5-20250929 is anthropic-react by the model alias \
              table: its model claude-sonnet-4.5 is claude-sonnet-4-5"
        ),
        "{}",
        list[1]
    );

    // The table says so too, under the claim that differs (the seat's accuracy is 1 of 1).
    let table = env
        .run([OsStr::new("claims"), OsStr::new("check"), path.as_os_str()])
        .status(1);
    assert_contains(&table.stdout, "is anthropic-react by the model alias");

    // rca-wave-1 runs the model in two seats: the name does not say which, and nothing is
    // checked.
    let path = write_claims(
        &env,
        "ambiguous.toml",
        &format!("{head}{}", claim("rca-wave-1", "claude-sonnet-4-5")),
    );
    let out = env
        .run([OsStr::new("claims"), OsStr::new("check"), path.as_os_str()])
        .status(2);
    assert_contains(
        &out.stderr,
        "ambiguous.toml:7: field `seat`: wave rca-wave-1 has no seat `claude-sonnet-4-5`, and by \
         the model alias table (claude-sonnet-4-5) it is the model of 2 of its seats: \
         anthropic-hierarchical, anthropic-react; name one by its id",
    );
    assert!(out.stdout.is_empty(), "{}", out.stdout);
}

#[test]
fn a_cost_or_token_count_that_differs_names_the_cached_reads_or_cache_write_pricing() {
    let env = Env::init();
    let manifest = common::write_wave(
        &env.path().join("priced"),
        PRICED_WAVE,
        &[("alpha.jsonl", PRICED_ALPHA)],
    );
    env.ingest(&[&manifest]);
    let table = write_claims(&env, "hand.toml", PRICE_TABLE);
    env.run([OsStr::new("prices"), OsStr::new("add"), table.as_os_str()])
        .ok();
    let claims_file = write_claims(&env, "pricing.toml", PRICED_CLAIMS);
    let args = |format: &str| {
        vec![
            OsStr::new("claims").to_os_string(),
            "check".into(),
            claims_file.as_os_str().to_os_string(),
            "--prices".into(),
            "hand@1".into(),
            "--format".into(),
            format.into(),
        ]
    };
    let out = env.run(args("json")).status(1);
    let json = out.json();
    let list = claims(&json);
    let got: Vec<(&str, Option<f64>, Vec<&str>)> = list
        .iter()
        .map(|c| {
            (
                c["verdict"].as_str().unwrap(),
                c["computed"].as_f64(),
                cause_keys(c),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("differs", Some(4.625), vec!["cache_writes_as_input"]),
            ("differs", Some(4.625), vec!["cache_writes_as_reads"]),
            ("differs", Some(4.625), vec!["cached_reads_as_input"]),
            (
                "differs",
                Some(1_400_000.0),
                vec!["tokens_with_cached_reads"]
            ),
            (
                "differs",
                Some(1_950_000.0),
                vec!["tokens_without_cached_reads"]
            ),
            ("reproduced", Some(4.625), vec![]),
        ]
    );
    let tried = |i: usize, key: &str| -> f64 {
        list[i]["tried"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["convention"] == key)
            .unwrap_or_else(|| panic!("claim {i} tried no {key}"))["computed"]
            .as_f64()
            .unwrap()
    };
    for (i, key, usd) in [
        (0, "cache_writes_as_input", 4.575),
        (1, "cache_writes_as_reads", 4.4),
        (2, "cached_reads_as_input", 5.15),
    ] {
        assert!(
            (tried(i, key) - usd).abs() < 1e-9,
            "{key}: {}",
            tried(i, key)
        );
    }
    assert_eq!(strs(&list[5]["computed_rounded"]), ["4.62", "4.63"]);
    // Without a price table the seat has no cost at all.
    let bare = env
        .run([
            OsStr::new("claims"),
            OsStr::new("check"),
            claims_file.as_os_str(),
            OsStr::new("--format"),
            OsStr::new("json"),
        ])
        .status(1);
    assert_eq!(
        claims(&bare.json())[0]["reason"],
        "the ledger knows no attempt's cost (0 of 2 attempts)"
    );
    let table = env.run(args("table")).status(1);
    snapshot(
        "claims__pricing_table",
        &table
            .stdout
            .replace(&env.path().display().to_string(), "TMP"),
    );

    // A publication priced from the table carries claims about the priced costs, and verify
    // prices the rows again before it checks them.
    let rubric = common::crate_path("rubrics/session-efficiency.v2.toml");
    env.run([OsStr::new("rubric"), OsStr::new("add"), rubric.as_os_str()])
        .ok();
    let paper = write_claims(
        &env,
        "paper.toml",
        "name = \"p\"\nversion = 1\nsource = \"a paper\"\n\n[[claim]]\nwave = \"priced\"\n\
         seat = \"alpha\"\nfigure = \"cost_usd\"\nvalue = 4.63\ndecimals = 2\n",
    );
    let published = env
        .run([
            OsStr::new("publish"),
            OsStr::new("--wave"),
            OsStr::new("priced"),
            OsStr::new("--rubric"),
            OsStr::new("session-efficiency@2"),
            OsStr::new("--prices"),
            OsStr::new("hand@1"),
            OsStr::new("--claims"),
            paper.as_os_str(),
        ])
        .ok();
    assert_contains(
        &published.stdout,
        "| 1 | priced | alpha | cost_usd | 4.63 | 4.6250 | 4.62 or 4.63 | reproduced | at a half |",
    );
    env.run(["verify", "--all"]).ok();
}

/// Copies an importer fixture into the test's directory.
fn fixture(env: &Env, name: &str) -> PathBuf {
    let dir = env.path().join(name);
    copy_dir(&tests_dir(&format!("fixtures/import/{name}")), &dir);
    dir
}

#[test]
fn claims_from_an_openhands_model_directory_name_the_unpriced_instances() {
    let env = Env::init();
    let dir = fixture(&env, "openhands");
    // The wave and seat `claims from openhands` names: oh-<benchmark>, the directory's name.
    let manifest = std::fs::read_to_string(dir.join("wave.toml"))
        .unwrap()
        .replace("id = \"oh-mini\"", "id = \"oh-swe-bench\"")
        .replace("id = \"openhands-claude-x\"", "id = \"claude-x\"");
    std::fs::write(dir.join("wave.toml"), manifest).unwrap();
    env.ingest(&[&dir.join("wave.toml")]);
    let out = env
        .run([
            OsStr::new("claims"),
            OsStr::new("from"),
            OsStr::new("openhands"),
            dir.join("claude-x").as_os_str(),
            OsStr::new("--out"),
            OsStr::new("claims.toml"),
        ])
        .ok();
    assert_contains(
        &out.stdout,
        "wrote 3 claims (openhands-v1.11.0-claude-x@1) to claims.toml",
    );
    let written = std::fs::read_to_string(env.path().join("claims.toml")).unwrap();
    snapshot(
        "claims__from_openhands_file",
        &written.replace(&env.path().display().to_string(), "TMP"),
    );
    // Never overwritten.
    let again = env.run([
        OsStr::new("claims"),
        OsStr::new("from"),
        OsStr::new("openhands"),
        dir.join("claude-x").as_os_str(),
        OsStr::new("--out"),
        OsStr::new("claims.toml"),
    ]);
    assert_contains(&again.status(2).stderr, "claims.toml already exists");
    assert_eq!(
        std::fs::read_to_string(env.path().join("claims.toml")).unwrap(),
        written
    );

    // 2 Correct of the 6 declared: 33.3 %. The cost: $2.50 over 4 priced instances is $0.625
    // each; the index's $0.50 counts the instance without a cost as $0 (2.50 / 5). No wall time.
    let out = env
        .run(["claims", "check", "claims.toml", "--format", "json"])
        .status(1);
    let json = out.json();
    let list = claims(&json);
    let got: Vec<(&str, &str)> = list
        .iter()
        .map(|c| {
            (
                c["figure"].as_str().unwrap(),
                c["verdict"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("accuracy", "reproduced"),
            ("mean_cost_usd", "differs"),
            ("mean_wall_s", "cannot_be_computed")
        ]
    );
    // 2.50 / 4 = 0.625, at a half.
    assert_eq!(strs(&list[1]["computed_rounded"]), ["0.62", "0.63"]);
    assert_eq!(cause_keys(&list[1]), ["unknown_as_zero", "partial"]);
    assert_contains(
        list[1]["causes"][0]["says"].as_str().unwrap(),
        "counting the 1 attempt without a cost as 0 (÷ 5 rather than ÷ 4): 0.50",
    );
    let table = env.run(["claims", "check", "claims.toml"]).status(1);
    snapshot("claims__from_openhands_check", &table.stdout);
}

#[test]
fn a_terminal_bench_run_s_published_pass_at_k_reproduce() {
    let env = Env::init();
    let dir = fixture(&env, "terminal-bench");
    env.ingest(&[&dir.join("wave.toml")]);
    let results = dir.join("run/results.json");
    env.run([
        OsStr::new("claims"),
        OsStr::new("from"),
        OsStr::new("terminal-bench"),
        results.as_os_str(),
        OsStr::new("--wave"),
        OsStr::new("tb-mini"),
        OsStr::new("--seat"),
        OsStr::new("terminus-sonnet"),
        OsStr::new("--out"),
        OsStr::new("tb.toml"),
    ])
    .ok();
    // hello-world 3 of 5, fix-git 2 of 5: pass@2 = (1 − C(2,2)/C(5,2) + 1 − C(3,2)/C(5,2)) / 2
    // = (0.9 + 0.7) / 2 = 0.8; pass@4 and pass@5 are 1 (fewer than 4 failures each); accuracy
    // 5 of 10 trials.
    let out = env
        .run(["claims", "check", "tb.toml", "--format", "json"])
        .ok();
    let json = out.json();
    let got: Vec<(&str, f64, &str)> = claims(&json)
        .iter()
        .map(|c| {
            (
                c["figure"].as_str().unwrap(),
                c["computed"].as_f64().unwrap(),
                c["verdict"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("accuracy", 0.5, "reproduced"),
            ("pass_at_k.2", 0.8, "reproduced"),
            ("pass_at_k.4", 1.0, "reproduced"),
            ("pass_at_k.5", 1.0, "reproduced"),
        ]
    );
    assert_eq!(claims(&json)[0]["tolerance"], 1e-9);
    assert_eq!(
        claims(&json)[0]["counts"],
        serde_json::json!({"correct": 5, "of": 10})
    );
}

#[test]
fn a_hal_upload_s_accuracy_is_over_the_whole_benchmark_and_its_cost_needs_costs() {
    let env = Env::init();
    let dir = fixture(&env, "hal");
    env.ingest(&[&dir.join("wave.toml")]);
    for (upload, seat, out) in [
        ("new-upload.json", "gpt-4-1", "gpt.toml"),
        ("old-upload.json", "claude-3-7", "claude.toml"),
    ] {
        env.run([
            OsStr::new("claims"),
            OsStr::new("from"),
            OsStr::new("hal"),
            dir.join(upload).as_os_str(),
            OsStr::new("--wave"),
            OsStr::new("hal-mini"),
            OsStr::new("--seat"),
            OsStr::new(seat),
            OsStr::new("--out"),
            OsStr::new(out),
        ])
        .ok();
    }
    // The uploads' accuracy divides by taubench-airline's 50 tasks (1 / 50, 2 / 50); the wave
    // declares 4 problems. gpt-4-1's upload has no cost per task; claude-3-7's costs sum to
    // its total, 0.0412 + 0.0388 + 0.0275 = 0.1075.
    let out = env
        .run([
            "claims",
            "check",
            "gpt.toml",
            "claude.toml",
            "--format",
            "json",
        ])
        .status(1);
    let json = out.json();
    let list = claims(&json);
    let got: Vec<(&str, &str, &str)> = list
        .iter()
        .map(|c| {
            (
                c["seat"].as_str().unwrap(),
                c["figure"].as_str().unwrap(),
                c["verdict"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("gpt-4-1", "accuracy", "differs"),
            ("gpt-4-1", "cost_usd", "cannot_be_computed"),
            ("claude-3-7", "accuracy", "differs"),
            ("claude-3-7", "cost_usd", "reproduced"),
        ]
    );
    assert_contains(
        list[0]["causes"][0]["says"].as_str().unwrap(),
        "1 Correct of 50 (46 more than the ledger's 4)",
    );
    assert_contains(
        list[2]["causes"][0]["says"].as_str().unwrap(),
        "2 Correct of 50 (46 more than the ledger's 4)",
    );
    assert_eq!(
        list[1]["reason"],
        "the ledger knows no attempt's cost (0 of 3 attempts)"
    );
    assert_eq!(list[0]["file"], 0);
    assert_eq!(list[2]["file"], 1);
}

#[test]
fn a_leaderboard_file_claims_from_cannot_read_is_named_and_nothing_is_written() {
    let env = Env::init();
    let model = env.path().join("model");
    std::fs::create_dir_all(&model).unwrap();
    let results = env.path().join("results.json");
    for (format, file, text, says) in [
        (
            "openhands",
            model.join("scores.json"),
            r#"{"benchmark": "gaia"}"#,
            "scores.json: expected the index's scores.json, a JSON list of one entry per \
             benchmark, got an object",
        ),
        (
            "openhands",
            model.join("scores.json"),
            r#"[{"benchmark": "gaia", "cost_per_instance": -}]"#,
            "scores.json:1: not the JSON this format expects: invalid number at line 1 column 46",
        ),
        (
            "openhands",
            model.join("scores.json"),
            r#"[{"benchmark": "gaia", "tags": ["gaia"]}]"#,
            "scores.json: no published figures: expected entries with score, \
             cost_per_instance or average_runtime",
        ),
        (
            "terminal-bench",
            results.clone(),
            r#"{"accuracy": "0.5", "pass_at_k": {"2": 0.8}}"#,
            "results.json: field `accuracy`: expected a number, got the string \"0.5\"",
        ),
        (
            "hal",
            results.clone(),
            r#"{"config": {}, "results": {"latencies": {}}}"#,
            "results.json: no published figures: expected results.accuracy or total_cost",
        ),
    ] {
        std::fs::write(&file, text).unwrap();
        let mut args: Vec<&OsStr> = vec![OsStr::new("claims"), OsStr::new("from")];
        args.push(OsStr::new(format));
        if format == "openhands" {
            args.push(model.as_os_str());
        } else {
            args.extend([results.as_os_str(), OsStr::new("--wave"), OsStr::new("w")]);
            args.extend([OsStr::new("--seat"), OsStr::new("s")]);
        }
        args.extend([OsStr::new("--out"), OsStr::new("out.toml")]);
        let out = env.run(args).status(2);
        assert_contains(&out.stderr, says);
        assert!(
            !env.path().join("out.toml").exists(),
            "{format}: nothing is written"
        );
    }
}

/// Publishes checkout-rematch under session-efficiency@2 with `claims` (a file in the test's
/// directory).
fn publish_with_claims(env: &Env, claims: &Path, bundle: Option<&Path>) -> common::Out {
    let mut args: Vec<&OsStr> = [
        "publish",
        "--wave",
        "checkout-rematch",
        "--rubric",
        "session-efficiency@2",
        "--title",
        "Rematch, with the paper's claims",
        "--claims",
    ]
    .iter()
    .map(OsStr::new)
    .collect();
    args.push(claims.as_os_str());
    if let Some(b) = bundle {
        args.push(OsStr::new("--bundle"));
        args.push(b.as_os_str());
    }
    env.run(args)
}

const PAPER: &str = r#"# As a paper might print them.
name = "rematch-paper"
version = 1
source = "A paper's Table 2"

[[claim]]
wave = "checkout-rematch"
seat = "anthropic-react"
figure = "score:session-efficiency@2"
value = 75
decimals = 0

[[claim]]
wave = "checkout-rematch"
seat = "deepseek-react"
figure = "cost_usd"
value = 0.5
decimals = 1

[[claim]]
wave = "checkout-rematch"
seat = "xai-hierarchical"
figure = "tokens_total"
value = 500000
decimals = 0
"#;

#[test]
fn a_publication_carries_its_checked_claims_and_verify_checks_them_again() {
    let env = ledger();
    let paper = write_claims(&env, "paper.toml", PAPER);
    let bundle = env.path().join("bundle");
    let out = publish_with_claims(&env, &paper, Some(&bundle)).ok();
    // The published text: the leaderboard, then the claims with their verdicts, then the file.
    let text = std::fs::read_to_string(bundle.join("publication.md")).unwrap();
    assert!(out.stdout.ends_with(&text));
    let claims_at = text
        .find("\n## Claims checked\n")
        .expect("a claims section");
    snapshot("claims__publication_section", &text[claims_at..]);
    assert!(
        text.ends_with(&format!("~~~~toml\n{PAPER}~~~~\n")),
        "{text}"
    );
    // anthropic-react scores 75; deepseek-react's $0.46 is 0.5 at one decimal;
    // xai-hierarchical's 500,000 input + 65,000 output tokens are not 500,000, and no other
    // convention gives 500,000 (it read nothing from a cache and wrote nothing to one).
    assert_contains(&text, "| 1 | checkout-rematch | anthropic-react |");
    assert_contains(
        &text,
        "3 claims: 2 reproduced, 1 differs, 0 cannot be computed.",
    );

    let ok = env.run(["verify", "--all"]).ok();
    assert_contains(&ok.stdout, "1 of 1 publication reproduces");
    // The bundle carries the claims, and verifies on its own.
    let elsewhere = tempfile::tempdir().unwrap();
    let copy = elsewhere.path().join("copy");
    copy_dir(&bundle, &copy);
    common::run_raw(
        elsewhere.path(),
        &[
            OsStr::new("verify"),
            OsStr::new("--bundle"),
            copy.as_os_str(),
        ],
        &[],
    )
    .ok();

    // Behind benchledger's back, anthropic-react's wall time goes from 240 s to 200 s: its
    // score moves to 90, and the claim of 75 no longer reproduces. Verify says where.
    env.tamper(
        "DROP TRIGGER attempt_no_update;
         UPDATE attempt SET wall_s = 200.0 WHERE seat_id =
           (SELECT s.id FROM seat s JOIN wave w ON w.id = s.wave_id
            WHERE w.slug = 'checkout-rematch' AND s.slug = 'anthropic-react');",
    );
    let bad = env.run(["verify", "--all"]).status(1);
    assert_contains(
        &bad.stdout,
        "#1: Ledger 75 → 90; At published precision 75 → 90; Verdict reproduced → differs",
    );
    assert_contains(
        &bad.stdout,
        "\"3 claims: 2 reproduced, 1 differs, 0 cannot be computed.\" → \"3 claims: 1 \
         reproduced, 2 differ, 0 cannot be computed.\"",
    );
}

/// The claims file a publication carries is kept beside it, and verify renders the claims
/// section from that, not from the published Markdown: an edit of the stored text is a
/// difference in the section, and a stored text that no longer parses is named as such. A
/// bundle carries the stored text in its ledger.
#[test]
fn verify_renders_a_publication_s_claims_from_the_text_stored_beside_it() {
    let env = ledger();
    let paper = write_claims(&env, "paper.toml", &PAPER.replace('\n', "\r\n"));
    let bundle = env.path().join("bundle");
    publish_with_claims(&env, &paper, Some(&bundle)).ok();
    // Stored as the section quotes it: `\n` line endings.
    let stored = vec![vec![Cell::Text(PAPER.to_string())]];
    let query = "SELECT text FROM publication_claims WHERE publication_id = 1";
    assert_eq!(env.rows(query), stored);
    assert_eq!(Shell::open(&bundle.join("ledger.db")).rows(query), stored);
    env.run(["verify", "--all"]).ok();

    // The claim of 75 is edited to 80 in the stored text: the section rendered from it no
    // longer is the published one.
    env.tamper(
        "DROP TRIGGER publication_claims_no_update;
         UPDATE publication_claims SET text = replace(text, 'value = 75', 'value = 80');",
    );
    let bad = env.run(["verify", "--all"]).status(1);
    assert_contains(&bad.stdout, "the published leaderboard does not reproduce");
    assert_contains(&bad.stdout, "#1: Published 75 → 80");
    // A stored text that no longer parses is named, with where it was read from.
    env.tamper("UPDATE publication_claims SET text = 'name = ';");
    let bad = env.run(["verify", "--all"]).status(1);
    assert_contains(
        &bad.stdout,
        "its claims no longer parse: the claims file stored with publication #1",
    );
}

#[test]
fn a_publication_s_claims_are_about_its_own_wave_and_rubric() {
    let env = ledger();
    for (edit, says) in [
        (
            ("seat = \"deepseek-react\"", "seat = \"nobody\""),
            "paper.toml:15: field `seat`: wave checkout-rematch has no seat nobody",
        ),
        (
            (
                "wave = \"checkout-rematch\"\nseat = \"xai-hierarchical\"",
                "wave = \"rca-wave-1\"\nseat = \"xai-hierarchical\"",
            ),
            "paper.toml:21: field `wave`: a publication's claims are about its own wave, \
             checkout-rematch; this claim is about rca-wave-1",
        ),
        (
            ("score:session-efficiency@2", "score:session-efficiency@1"),
            "paper.toml:9: field `figure`: a publication's score claims are about its own \
             rubric, session-efficiency@2; this claim is of score:session-efficiency@1",
        ),
    ] {
        let paper = write_claims(&env, "paper.toml", &PAPER.replace(edit.0, edit.1));
        let before = env.ledger_bytes();
        let out = publish_with_claims(&env, &paper, None).status(2);
        assert_contains(&out.stderr, says);
        assert_eq!(env.ledger_bytes(), before, "nothing is published");
    }
    let out = env.run(["verify", "--all"]).ok();
    assert_eq!(out.stdout, "no publications to verify\n");
}

/// The published OpenHands index results of one model, from its own per-instance rows, when
/// the developer has them (`BENCHLEDGER_SHARED_DATA` names the directory holding `openhands/`):
/// which published accuracies and costs per instance reproduce, and the plausible cause of each
/// that does not.
#[test]
fn the_openhands_index_s_published_numbers_against_its_own_rows() {
    let Some(shared) = std::env::var_os("BENCHLEDGER_SHARED_DATA") else {
        eprintln!("BENCHLEDGER_SHARED_DATA is not set: skipped");
        return;
    };
    let model = Path::new(&shared).join("openhands/claude-opus-4-6");
    let env = Env::init();
    let mut manifests = Vec::new();
    for (benchmark, suite) in [
        ("swe-bench", Some(500)),
        ("swt-bench", Some(433)),
        ("gaia", Some(165)),
        ("commit0", Some(16)),
        ("swe-bench-multimodal", None),
    ] {
        let results = model.join(format!("instance_results/{benchmark}.json"));
        let manifest = format!(
            "[wave]\nid = \"oh-{benchmark}\"\nsuite = \"{benchmark}\"\n\
             started_at = 2026-02-06T00:00:00Z\n{}\n[wave.accounting]\n\
             input_tokens_include_cache_reads = false\n\n[[seat]]\nid = \"claude-opus-4-6\"\n\
             model = \"claude-opus-4-6\"\nprovider = \"anthropic\"\nharness = \"openhands\"\n\
             results = {:?}\nformat = \"openhands\"\n",
            suite.map_or(String::new(), |n| format!("suite_problems = {n}\n")),
            results.display().to_string()
        );
        manifests.push(write_claims(&env, &format!("{benchmark}.toml"), &manifest));
    }
    let paths: Vec<&Path> = manifests.iter().map(PathBuf::as_path).collect();
    env.ingest(&paths);
    env.run([
        OsStr::new("claims"),
        OsStr::new("from"),
        OsStr::new("openhands"),
        model.as_os_str(),
        OsStr::new("--out"),
        OsStr::new("oh.toml"),
    ])
    .ok();
    let out = env
        .run(["claims", "check", "oh.toml", "--format", "json"])
        .status(1);
    let json = out.json();
    let got: Vec<(String, String, String, Vec<&str>)> = claims(&json)
        .iter()
        .map(|c| {
            (
                c["wave"]
                    .as_str()
                    .unwrap()
                    .trim_start_matches("oh-")
                    .to_string(),
                c["figure"].as_str().unwrap().to_string(),
                c["verdict"].as_str().unwrap().to_string(),
                cause_keys(c),
            )
        })
        .collect();
    let row = |b: &str, f: &str, v: &str, c: &[&'static str]| {
        (b.to_string(), f.to_string(), v.to_string(), c.to_vec())
    };
    let acc = "accuracy";
    let cost = "mean_cost_usd";
    let wall = "mean_wall_s";
    let none = "cannot_be_computed";
    assert_eq!(
        got,
        [
            // 384 / 500; $0.772 all priced.
            row("swe-bench", acc, "reproduced", &[]),
            row("swe-bench", cost, "reproduced", &[]),
            row("swe-bench", wall, none, &[]),
            // 341 / 433; $0.430.
            row("swt-bench", acc, "reproduced", &[]),
            row("swt-bench", cost, "reproduced", &[]),
            row("swt-bench", wall, none, &[]),
            // 41.8 is the solvable share, 28 of 67; the file holds 29 resolved of 102.
            row(
                "swe-bench-multimodal",
                acc,
                "differs",
                &["metric", "counts"]
            ),
            // combined_accuracy 29.0 is 29 of the index's 100, not of the file's 102.
            row(
                "swe-bench-multimodal",
                acc,
                "differs",
                &["other_denominator", "counts"]
            ),
            // $2.41 over the 100 priced; $2.37 with the 2 unpriced at $0.
            row(
                "swe-bench-multimodal",
                cost,
                "differs",
                &["unknown_as_zero", "partial"]
            ),
            row("swe-bench-multimodal", wall, none, &[]),
            // 132 / 165; $0.44 is neither $0.460 over the 161 priced nor $0.448 over all.
            row("gaia", acc, "reproduced", &[]),
            row("gaia", cost, "differs", &["partial"]),
            row("gaia", wall, none, &[]),
            // 9 / 16 = 56.25, published 56.2; $7.69 counts the 2 unpriced as $0 ($8.79 over
            // the priced).
            row("commit0", acc, "reproduced", &[]),
            row("commit0", cost, "differs", &["unknown_as_zero", "partial"]),
            row("commit0", wall, none, &[]),
        ]
    );
    eprintln!(
        "{}",
        env.run(["claims", "check", "oh.toml"]).status(1).stdout
    );
}

#[test]
fn claims_from_openhands_pointed_at_the_wrong_directory_says_what_it_expects() {
    let env = Env::init();
    let dir = fixture(&env, "openhands");
    // instance_results/, one level too deep: no scores.json there.
    let out = env
        .run([
            OsStr::new("claims"),
            OsStr::new("from"),
            OsStr::new("openhands"),
            dir.join("claude-x/instance_results").as_os_str(),
            OsStr::new("--out"),
            OsStr::new("claims.toml"),
        ])
        .status(2);
    assert_contains(
        &out.stderr,
        "instance_results: expected an OpenHands index model directory (results/<model> of \
         OpenHands/openhands-index-results), holding scores.json, metadata.json and \
         instance_results/; there is no scores.json there",
    );
    assert!(!env.path().join("claims.toml").exists());
}

#[test]
fn claims_from_lm_eval_are_the_tasks_figures_and_reproduce() {
    let env = Env::init();
    let dir = fixture(&env, "lm-eval");
    env.ingest(&[&dir.join("wave.toml")]);
    let results = dir.join("run/results_2025-01-02T03-04-05.000006.json");
    for (seat, metric, out) in [
        ("strict", None, "strict.toml"),
        (
            "flexible",
            Some("exact_match,flexible-extract"),
            "flexible.toml",
        ),
    ] {
        let mut args = vec![
            OsStr::new("claims"),
            OsStr::new("from"),
            OsStr::new("lm-eval"),
            results.as_os_str(),
            OsStr::new("--task"),
            OsStr::new("arith"),
            OsStr::new("--wave"),
            OsStr::new("lm-mini"),
            OsStr::new("--seat"),
            OsStr::new(seat),
            OsStr::new("--out"),
            OsStr::new(out),
        ];
        if let Some(m) = metric {
            args.extend([OsStr::new("--metric"), OsStr::new(m)]);
        }
        env.run(args).ok();
    }
    // Each task's _stderr claimed as accuracy_se, within what ÷ n − 1 and ÷ n differ by at
    // n = 4: strict sqrt(1/12) = 0.288675 × (sqrt(4/3) − 1) = 0.0447 → 0.045; flexible 0.25 ×
    // 0.1547 = 0.0387 → 0.039.
    let strict = std::fs::read_to_string(env.path().join("strict.toml")).unwrap();
    assert_contains(
        &strict,
        "figure = \"accuracy_se\"\nvalue = 0.2886751345948129\ntolerance = 0.045\n",
    );
    let flexible = std::fs::read_to_string(env.path().join("flexible.toml")).unwrap();
    assert_contains(
        &flexible,
        "figure = \"accuracy_se\"\nvalue = 0.25\ntolerance = 0.039\n",
    );
    // 2 of 4 and 3 of 4: the results' own 0.5 and 0.75. The standard errors: the ledger's
    // (÷ P, doc 3 missing as a failure) sqrt(4 × 0.25) / 4 = 0.25 and sqrt(0.75) / 4 = 0.2165,
    // inside those intervals.
    let out = env
        .run(["claims", "check", "strict.toml", "flexible.toml"])
        .ok();
    snapshot("claims__from_lm_eval_check", &out.stdout);
    // A task the results do not hold is named.
    let out = env
        .run([
            OsStr::new("claims"),
            OsStr::new("from"),
            OsStr::new("lm-eval"),
            results.as_os_str(),
            OsStr::new("--task"),
            OsStr::new("other"),
            OsStr::new("--wave"),
            OsStr::new("lm-mini"),
            OsStr::new("--seat"),
            OsStr::new("strict"),
            OsStr::new("--out"),
            OsStr::new("other.toml"),
        ])
        .status(2);
    assert_contains(
        &out.stderr,
        "field `configs.other.metric_list`: missing: the task names no metric",
    );
}

#[test]
fn claims_from_harbor_are_the_jobs_mean_and_reproduce() {
    let env = Env::init();
    let dir = fixture(&env, "harbor");
    env.ingest(&[&dir.join("wave.toml")]);
    env.run([
        OsStr::new("claims"),
        OsStr::new("from"),
        OsStr::new("harbor"),
        dir.join("job/result.json").as_os_str(),
        OsStr::new("--wave"),
        OsStr::new("harbor-mini"),
        OsStr::new("--seat"),
        OsStr::new("terminus-2-claude-sonnet-4-5"),
        OsStr::new("--out"),
        OsStr::new("harbor.toml"),
    ])
    .ok();
    // Harbor's mean counts the infrastructure failure's missing reward as 0, as the ledger
    // counts it: (1 + 0 + 0) / 3.
    let out = env.run(["claims", "check", "harbor.toml"]).ok();
    snapshot("claims__from_harbor_check", &out.stdout);
}

/// `claims from FORMAT ARGS...` in the test's directory.
fn claims_from(env: &Env, format: &str, args: &[&OsStr]) -> common::Out {
    let mut all = vec![OsStr::new("claims"), OsStr::new("from"), OsStr::new(format)];
    all.extend_from_slice(args);
    env.run(all)
}

#[test]
fn claims_from_helm_are_the_runs_means_and_reproduce() {
    // Worked by hand in tests/fixtures/import/helm/wave.toml.
    let env = Env::init();
    let dir = fixture(&env, "helm");
    env.ingest(&[&dir.join("wave.toml")]);
    let run = dir.join("run");
    let seat = |out: &'static str| -> Vec<&OsStr> {
        vec![
            run.as_os_str(),
            OsStr::new("--wave"),
            OsStr::new("helm-mini"),
            OsStr::new("--seat"),
            OsStr::new("tiny"),
            OsStr::new("--out"),
            OsStr::new(out),
        ]
    };
    claims_from(&env, "helm", &seat("helm.toml")).ok();
    let out = env.run(["claims", "check", "helm.toml"]).ok();
    snapshot("claims__from_helm_check", &out.stdout);
    // Another main metric: its mean is claimed as the mean outcome, which the ledger's
    // exact_match outcomes do not reproduce.
    let mut args = seat("f1.toml");
    args.extend([OsStr::new("--metric"), OsStr::new("f1_score")]);
    claims_from(&env, "helm", &args).ok();
    let out = env
        .run(["claims", "check", "f1.toml", "--format", "json"])
        .status(1)
        .json();
    let c = &claims(&out)[0];
    assert_eq!(
        (&c["figure"], &c["verdict"]),
        (&"mean_outcome".into(), &"differs".into())
    );
    assert_eq!(c["published"], 0.8);
}

#[test]
fn claims_from_eee_are_the_records_scores_and_reproduce() {
    // Worked by hand in tests/fixtures/import/eee/wave.toml.
    let env = Env::init();
    let dir = fixture(&env, "eee");
    env.ingest(&[&dir.join("wave.toml")]);
    let samples = dir.join("run/0f0f0f0f-0000-4000-8000-000000000001_samples.jsonl");
    for (evaluation, out) in [("arith", "mean.toml"), ("arith (correct)", "correct.toml")] {
        claims_from(
            &env,
            "eee",
            &[
                samples.as_os_str(),
                OsStr::new("--evaluation"),
                OsStr::new(evaluation),
                OsStr::new("--wave"),
                OsStr::new("eee-mini"),
                OsStr::new("--seat"),
                OsStr::new("tiny"),
                OsStr::new("--out"),
                OsStr::new(out),
            ],
        )
        .ok();
    }
    let written = std::fs::read_to_string(env.path().join("correct.toml")).unwrap();
    assert_contains(
        &written,
        "uncertainty as published: standard error 25, 95% confidence interval [0, 86.7], \
         standard deviation 0.47",
    );
    assert_contains(
        &written,
        "figure = \"accuracy\"\nvalue = 33.3\nscale = 100\ndecimals = 1",
    );
    // Its standard error, 25.0 % with no num_samples: claimed as accuracy_se at its 0 decimals.
    assert_contains(
        &written,
        "figure = \"accuracy_se\"\nvalue = 25.0\nscale = 100\ndecimals = 0\nsource = \
         \"uncertainty.standard_error (method analytic)\"",
    );
    // The mean outcome's standard error (0.3) is of the outcomes: said, not claimed.
    let mean = std::fs::read_to_string(env.path().join("mean.toml")).unwrap();
    assert!(!mean.contains("figure = \"accuracy_se\""), "{mean}");
    assert_contains(&mean, "uncertainty as published: standard error 0.3");
    // The ledger's 17.68 % (clustered, ÷ P) rounds to 18, not 25; the sample variance (÷ P − 1)
    // gives 25 and is named.
    let out = env
        .run(["claims", "check", "mean.toml", "correct.toml"])
        .status(1);
    snapshot("claims__from_eee_check", &out.stdout);
    let json = env
        .run(["claims", "check", "correct.toml", "--format", "json"])
        .status(1)
        .json();
    let c = &claims(&json)[1];
    assert_eq!(
        (&c["figure"], &c["verdict"]),
        (&"accuracy_se".into(), &"differs".into())
    );
    assert!((c["computed"].as_f64().unwrap() - 0.125f64.sqrt() / 2.0 * 100.0).abs() < 1e-12);
    assert_eq!(c["causes"][0]["cause"], "sample_variance");
    assert_eq!(c["causes"][0]["reproduces"], true);
}

#[test]
fn a_helm_or_eee_file_claims_from_cannot_read_is_named_and_nothing_is_written() {
    let env = Env::init();
    let helm = fixture(&env, "helm").join("run");
    let eee = fixture(&env, "eee").join("run/0f0f0f0f-0000-4000-8000-000000000001.json");
    let common = [
        OsStr::new("--wave"),
        OsStr::new("w"),
        OsStr::new("--seat"),
        OsStr::new("s"),
        OsStr::new("--out"),
        OsStr::new("out.toml"),
    ];
    let refused = |format: &str, args: &[&OsStr], says: &str| {
        let mut all = args.to_vec();
        all.extend(common);
        let out = claims_from(&env, format, &all).status(2);
        assert_contains(&out.stderr, says);
        assert!(!env.path().join("out.toml").exists());
    };
    refused(
        "helm",
        &[helm.parent().unwrap().as_os_str()],
        "expected a HELM run directory (benchmark_output/runs/<suite>/<run>), holding \
         stats.json beside run_spec.json and per_instance_stats.json; there is no stats.json \
         there",
    );
    refused(
        "helm",
        &[
            helm.as_os_str(),
            OsStr::new("--metric"),
            OsStr::new("bleu_4"),
        ],
        "stats.json: field `bleu_4`: missing: no stat \"bleu_4\" on the unperturbed test split; \
         its stats are num_references, num_prompt_tokens, num_completion_tokens, \
         inference_runtime, exact_match, f1_score, num_instances",
    );
    let stats = helm.join("stats.json");
    let text = std::fs::read_to_string(&stats).unwrap();
    std::fs::write(
        &stats,
        text.replacen("\"mean\": 100.0", "\"mean\": \"many\"", 1),
    )
    .unwrap();
    refused(
        "helm",
        &[helm.as_os_str()],
        "stats.json: field `[1].mean`: expected the stat \"num_prompt_tokens\"'s mean as a \
         finite number",
    );
    refused(
        "eee",
        &[eee.as_os_str()],
        "0f0f0f0f-0000-4000-8000-000000000001.json: field `evaluation_results`: the record \
         holds 2 evaluations: name one with --evaluation; the record's evaluations are: arith, \
         arith (correct)",
    );
    let text = std::fs::read_to_string(&eee).unwrap();
    std::fs::write(
        &eee,
        text.replacen("\"value\": 25.0", "\"value\": \"25\"", 1),
    )
    .unwrap();
    refused(
        "eee",
        &[
            eee.as_os_str(),
            OsStr::new("--evaluation"),
            OsStr::new("arith (correct)"),
        ],
        "field `evaluation_results[1].score_details.uncertainty.standard_error.value`: expected \
         the standard error as a number, 0 or more, got the string \"25\"",
    );
    std::fs::write(
        &eee,
        text.replacen("\"score\": 33.3", "\"score\": \"33.3\"", 1),
    )
    .unwrap();
    refused(
        "eee",
        &[
            eee.as_os_str(),
            OsStr::new("--evaluation"),
            OsStr::new("arith (correct)"),
        ],
        "field `evaluation_results[1].score_details.score`: expected the score as a number, \
         got the string \"33.3\"",
    );
    refused(
        "eee",
        &[eee.with_file_name("other.json").as_os_str()],
        "expected an Every Eval Ever aggregate record <id>.json",
    );
}

/// HELM's and Every Eval Ever's own files (../shared/data/eee): the HELM runs' stats.json
/// means are claimed and reproduce from the runs' instances; EEE records' scores are claimed as
/// written.
#[test]
fn shared_helm_and_eee_files_give_their_own_figures_as_claims() {
    let Some(root) = std::env::var_os("BENCHLEDGER_SHARED_DATA") else {
        eprintln!("skipped: BENCHLEDGER_SHARED_DATA does not name the shared data directory");
        return;
    };
    let root = PathBuf::from(root).join("eee");
    for run in [
        "mmlu-subject=philosophy,method=multiple_choice_joint,model=openai_gpt2",
        "narrative_qa-model=openai_gpt2",
    ] {
        let env = Env::init();
        let dir = root.join("tests/data/helm").join(run);
        env.run([
            OsStr::new("ingest"),
            OsStr::new("--from"),
            OsStr::new("helm"),
            dir.as_os_str(),
            OsStr::new("--wave"),
            OsStr::new("h"),
            OsStr::new("--started-at"),
            OsStr::new("2025-01-01T00:00:00Z"),
        ])
        .ok();
        let seat = &env.run(["show", "h", "--format", "json"]).ok().json()["seats"][0]["seat"];
        let seat = seat.as_str().unwrap().to_string();
        claims_from(
            &env,
            "helm",
            &[
                dir.as_os_str(),
                OsStr::new("--wave"),
                OsStr::new("h"),
                OsStr::new("--seat"),
                OsStr::new(&seat),
                OsStr::new("--out"),
                OsStr::new("c.toml"),
            ],
        )
        .ok();
        let out = env
            .run(["claims", "check", "c.toml", "--format", "json"])
            .ok()
            .json();
        let verdicts: Vec<(&str, &str)> = claims(&out)
            .iter()
            .map(|c| {
                (
                    c["figure"].as_str().unwrap(),
                    c["verdict"].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            verdicts,
            [
                ("mean_outcome", "reproduced"),
                ("mean_input_tokens", "reproduced"),
                ("mean_output_tokens", "reproduced"),
                ("mean_wall_s", "reproduced"),
                ("problems", "reproduced")
            ],
            "{run}"
        );
    }
    // An EEE record of several evaluations: the one named, its score as written and its
    // interval in words.
    let env = Env::init();
    let record = root.join(
        "data/global-mmlu-lite/alibaba/qwen3-235b-a22b-instruct-2507/\
         c8ab4e94-d8e8-417f-be18-fececf3c815c.json",
    );
    claims_from(
        &env,
        "eee",
        &[
            record.as_os_str(),
            OsStr::new("--evaluation"),
            OsStr::new("Culturally Sensitive"),
            OsStr::new("--wave"),
            OsStr::new("g"),
            OsStr::new("--seat"),
            OsStr::new("q"),
            OsStr::new("--out"),
            OsStr::new("g.toml"),
        ],
    )
    .ok();
    let written = std::fs::read_to_string(env.path().join("g.toml")).unwrap();
    assert_contains(
        &written,
        "figure = \"mean_outcome\"\nvalue = 0.8522\ndecimals = 4",
    );
}

#[test]
fn claims_from_lm_eval_of_a_group_are_its_figure_over_all_its_tasks() {
    // tests/fixtures/import/lm-eval-group: the group algebra's own acc 0.6 is over the 5
    // documents the trimmed samples hold; the ledger's accuracy is over the group's 7 (3 / 7),
    // and the check names the 2 missing as the cause.
    let env = Env::init();
    let dir = fixture(&env, "lm-eval-group");
    env.ingest(&[&dir.join("wave.toml")]);
    let results = dir.join("run/results_2025-02-03T04-05-06.000007.json");
    claims_from(
        &env,
        "lm-eval",
        &[
            results.as_os_str(),
            OsStr::new("--task"),
            OsStr::new("algebra"),
            OsStr::new("--wave"),
            OsStr::new("algebra-group"),
            OsStr::new("--seat"),
            OsStr::new("tiny"),
            OsStr::new("--out"),
            OsStr::new("group.toml"),
        ],
    )
    .ok();
    let written = std::fs::read_to_string(env.path().join("group.toml")).unwrap();
    assert_contains(
        &written,
        "source = \"lm-evaluation-harness results, group algebra of 2 tasks, acc,none (standard \
         error 0.2449489742783178) over 7 documents\"",
    );
    let out = env
        .run(["claims", "check", "group.toml", "--format", "json"])
        .status(1)
        .json();
    let c = &claims(&out)[0];
    assert_eq!(
        (&c["published"], &c["verdict"]),
        (&0.6.into(), &"differs".into())
    );
    assert!(
        (c["computed"].as_f64().unwrap() - 3.0 / 7.0).abs() < 1e-12,
        "{c:#}"
    );
    assert_eq!(cause_keys(c), ["over_attempted"]);
}

/// lm-evaluation-harness's own standard errors (../shared/data/lm-eval/pyfade, eee's
/// tests/data/lm_eval): each `_stderr` is the sample-variance estimator of its task's 0/1
/// values, sqrt(a (1 − a) / (n − 1)) from the file's own accuracy a and n, and `claims from
/// lm-eval` claims it as accuracy_se within an interval that takes in the population estimator
/// sqrt(a (1 − a) / n) on the same outcomes. The samples are trimmed (3 of 100 documents), so
/// the ledger's accuracy_se, over the 3 and 97 missing, is its own and differs.
#[test]
fn shared_lm_eval_standard_errors_are_claimed_as_accuracy_se() {
    let Some(root) = std::env::var_os("BENCHLEDGER_SHARED_DATA") else {
        eprintln!("skipped: BENCHLEDGER_SHARED_DATA does not name the shared data directory");
        return;
    };
    let root = PathBuf::from(root);
    let dir = root.join("lm-eval/pyfade");
    let env = Env::init();
    env.run([
        OsStr::new("ingest"),
        OsStr::new("--from"),
        OsStr::new("lm-eval"),
        OsStr::new("--provider"),
        OsStr::new("local"),
        dir.as_os_str(),
    ])
    .ok();
    let show = env
        .run(["show", "gsm8k-2025-09-09", "--format", "json"])
        .ok()
        .json();
    for (file, model, correct) in [
        (
            "results_2025-09-09T13-31-53.431753.json",
            "gemma3:12b-u1",
            1u32,
        ),
        (
            "results_2025-09-09T13-42-42.857006.json",
            "gemma3:12b-it-q4_K_M",
            2,
        ),
    ] {
        let results = dir.join(file);
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
        let a = v["results"]["gsm8k"]["exact_match,strict-match"]
            .as_f64()
            .unwrap();
        let stderr = v["results"]["gsm8k"]["exact_match_stderr,strict-match"]
            .as_f64()
            .unwrap();
        let n = v["n-samples"]["gsm8k"]["effective"].as_f64().unwrap();
        assert_eq!(n, 100.0);
        // The file's own estimator: ÷ n − 1.
        assert!(
            (stderr - (a * (1.0 - a) / (n - 1.0)).sqrt()).abs() < 1e-15,
            "{file}"
        );
        let seat = show["seats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["model"] == model)
            .unwrap_or_else(|| panic!("no seat of {model}: {show:#}"));
        let seat = seat["seat"].as_str().unwrap();
        claims_from(
            &env,
            "lm-eval",
            &[
                results.as_os_str(),
                OsStr::new("--task"),
                OsStr::new("gsm8k"),
                OsStr::new("--wave"),
                OsStr::new("gsm8k-2025-09-09"),
                OsStr::new("--seat"),
                OsStr::new(seat),
                OsStr::new("--out"),
                OsStr::new("c.toml"),
            ],
        )
        .ok();
        let out = env
            .run(["claims", "check", "c.toml", "--format", "json"])
            .status(1)
            .json();
        std::fs::remove_file(env.path().join("c.toml")).unwrap();
        let c = &claims(&out)[1];
        assert_eq!(c["figure"], "accuracy_se", "{c:#}");
        assert_eq!(c["published"].as_f64(), Some(stderr));
        // The interval: stderr × (sqrt(n / (n − 1)) − 1) + 1e-9, up to two digits; the
        // population estimator on the file's own outcomes lies inside it.
        let t = c["tolerance"].as_f64().expect("an interval");
        let gap = stderr * ((n / (n - 1.0)).sqrt() - 1.0) + 1e-9;
        assert!(t >= gap && t < gap * 1.1 + 1e-12, "{file}: {t} for {gap}");
        assert!((stderr - (a * (1.0 - a) / n).sqrt()).abs() <= t);
        // The ledger's, over its own data: `correct` of the 3 documents kept, 97 missing (each
        // one failed trial): x̄ = c/100, Σ (m − x̄)² = c (1 − x̄)² + (100 − c) x̄², ÷ 100.
        let x = f64::from(correct) / 100.0;
        let spread = f64::from(correct) * (1.0 - x).powi(2) + (100.0 - f64::from(correct)) * x * x;
        assert!(
            (c["computed"].as_f64().unwrap() - spread.sqrt() / 100.0).abs() < 1e-15,
            "{file}: {c:#}"
        );
        assert_eq!(c["verdict"], "differs");
    }
    // A task whose _stderr is 0 (nothing Correct of 5000) is not claimed; one of 0.0004 over
    // 5000 is, as written.
    let results = root.join("eee/tests/data/lm_eval/results_2026-01-21T03-44-18.458309.json");
    for (task, se) in [
        ("math_perturbed_full", None),
        ("math_rephrased_full", Some("0.0002828144211304471")),
    ] {
        claims_from(
            &env,
            "lm-eval",
            &[
                results.as_os_str(),
                OsStr::new("--task"),
                OsStr::new(task),
                OsStr::new("--wave"),
                OsStr::new("m"),
                OsStr::new("--seat"),
                OsStr::new("s"),
                OsStr::new("--out"),
                OsStr::new("m.toml"),
            ],
        )
        .ok();
        let written = std::fs::read_to_string(env.path().join("m.toml")).unwrap();
        std::fs::remove_file(env.path().join("m.toml")).unwrap();
        match se {
            None => assert!(!written.contains("figure = \"accuracy_se\""), "{written}"),
            Some(v) => assert_contains(
                &written,
                &format!("figure = \"accuracy_se\"\nvalue = {v}\ntolerance = 0.00000003\n"),
            ),
        }
    }
}
