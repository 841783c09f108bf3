//! Price tables through the CLI: a seat whose results record no costs is priced from a
//! registered table, every cost hand-computed below; the leaderboard names the table; cached
//! reads and cache writes are priced apart and once under either token accounting; repricing
//! gives the same bytes every time; a publication naming its prices verifies (in the ledger and
//! in a bundle) until the table's stored text is edited; and a bad price file is named by file,
//! line and field with the ledger unchanged.
//!
//! The prices of `hand@1` (USD per million tokens), and what they make of each attempt:
//!
//! | model | input | output | cache read | cache write |
//! |---|---|---|---|---|
//! | model-a | 2 | 10 | 0.25 | 2.5 |
//! | model-b | 1 | 4 | — | — |
//!
//! - alpha p1: 400,000 new input × 2 + 50,000 output × 10 + 300,000 cached reads × 0.25 +
//!   100,000 cache writes × 2.5 = 800,000 + 500,000 + 75,000 + 250,000 → **$1.625**
//! - alpha p2: 1,000,000 × 2 + 100,000 × 10 = 3,000,000 → **$3.00**; the seat: **$4.625**, one
//!   Correct, so Cost-of-Pass **$4.625**
//! - beta p1 records $0.50 (kept; repriced: 100,000 × 1 + 10,000 × 4 → **$0.14**); beta p2
//!   read 50,000 tokens from a cache and `hand@1` prices no cached reads for model-b: unknown
//! - gamma's model-c is not in the table: unknown
//!
//! In `bare-incl` the same alpha p1 is counted with its cached reads inside an input total of
//! 700,000; the reads are taken out before the input is priced, so it costs $1.625 there too.

mod common;

use std::path::{Path, PathBuf};

use common::{Env, Out, sha256_hex, snapshot_settings, write_wave};
use serde_json::Value;

const MANIFEST: &str = r#"[wave]
id = "bare"
suite = "costless"
started_at = 2026-03-04T10:00:00Z
suite_problems = 2

[wave.load]
parallel_sessions = 3

[wave.accounting]
input_tokens_include_cache_reads = false

[wave.budget]
tokens = 2_000_000
wall_s = 100
cost_usd = 2.0

[[seat]]
id = "alpha"
model = "model-a"
provider = "lab-a"
harness = "react"
results = "alpha.jsonl"

[[seat]]
id = "beta"
model = "model-b"
provider = "lab-b"
harness = "react"
results = "beta.jsonl"

[[seat]]
id = "gamma"
model = "model-c"
provider = "lab-c"
harness = "react"
results = "gamma.jsonl"
"#;

const ALPHA: &str = r#"{"problem":"p1","correct":true,"input_tokens":400000,"output_tokens":50000,"input_tokens_cache_read":300000,"input_tokens_cache_write":100000,"wall_s":50}
{"problem":"p2","correct":false,"input_tokens":1000000,"output_tokens":100000,"wall_s":60}
"#;

const BETA: &str = r#"{"problem":"p1","correct":true,"input_tokens":100000,"output_tokens":10000,"wall_s":40,"cost_usd":0.5}
{"problem":"p2","correct":true,"input_tokens":200000,"output_tokens":20000,"input_tokens_cache_read":50000,"wall_s":45}
"#;

const GAMMA: &str = r#"{"problem":"p1","correct":true,"input_tokens":10000,"output_tokens":1000,"wall_s":30}
"#;

/// The same alpha, counted with cached reads inside the input totals.
const MANIFEST_INCL: &str = r#"[wave]
id = "bare-incl"
suite = "costless"
started_at = 2026-03-05T10:00:00Z

[wave.accounting]
input_tokens_include_cache_reads = true

[[seat]]
id = "alpha"
model = "model-a"
provider = "lab-a"
harness = "react"
results = "alpha.jsonl"
"#;

const ALPHA_INCL: &str = r#"{"problem":"p1","correct":true,"input_tokens":700000,"output_tokens":50000,"input_tokens_cache_read":300000,"input_tokens_cache_write":100000,"wall_s":50}
{"problem":"p2","correct":false,"input_tokens":1000000,"output_tokens":100000,"wall_s":60}
"#;

const HAND_V1: &str = r#"name = "hand"
version = 1
date = 2026-03-01
source = "hand-computed test prices"

[[model]]
model = "model-a"
input = 2.0
output = 10.0
cache_read = 0.25
cache_write = 2.5

[[model]]
model = "model-b"
input = 1.0
output = 4.0
"#;

/// A rubric whose factor reads cost: 100 × accuracy × clip(allowance / cost, 0.25, 1).
const THRIFT: &str = r#"name = "thrift"
version = 1
scale = { min = 0, max = 100 }
multiplier = 100

[[factor]]
name = "accuracy"
measure = "accuracy"

[[factor]]
name = "cost"
measure = "cost_usd"
allowance = "budget.cost_usd"
floor = 0.25
cap = 1.0
"#;

/// A ledger holding both waves, with `hand@1` and the `thrift` rubric registered; the files
/// are in the temporary directory, and the binary runs there.
fn ledger() -> Env {
    let env = Env::init();
    let bare = write_wave(
        &env.path().join("bare"),
        MANIFEST,
        &[
            ("alpha.jsonl", ALPHA),
            ("beta.jsonl", BETA),
            ("gamma.jsonl", GAMMA),
        ],
    );
    let incl = write_wave(
        &env.path().join("bare-incl"),
        MANIFEST_INCL,
        &[("alpha.jsonl", ALPHA_INCL)],
    );
    env.ingest(&[&bare, &incl]);
    let prices = write(&env, "hand.v1.toml", HAND_V1);
    env.run([Path::new("prices"), Path::new("add"), &prices])
        .ok();
    let rubric = write(&env, "thrift.v1.toml", THRIFT);
    env.run([Path::new("rubric"), Path::new("add"), &rubric])
        .ok();
    env
}

fn write(env: &Env, name: &str, text: &str) -> PathBuf {
    let path = env.path().join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn snapshot(name: &str, text: &str) {
    snapshot_settings().bind(|| insta::assert_snapshot!(name, text));
}

#[track_caller]
fn contains(out: &Out, needle: &str) {
    let all = format!("{}{}", out.stdout, out.stderr);
    assert!(all.contains(needle), "expected {needle:?} in:\n{all}");
}

/// A seat of a listing's JSON, by id.
fn seat<'a>(json: &'a Value, id: &str) -> &'a Value {
    json["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .find(|s| s["seat"] == id)
        .unwrap_or_else(|| panic!("no seat {id} in {json}"))
}

#[test]
fn a_seat_with_no_costs_is_priced_from_a_registered_table_and_the_leaderboard_names_it() {
    let env = ledger();
    // Without a table, alpha's cost is unknown and so is its Cost-of-Pass.
    let plain = env
        .run([
            "score", "--wave", "bare", "--rubric", "thrift@1", "--format", "json",
        ])
        .ok()
        .json();
    assert_eq!(seat(&plain, "alpha")["cost_usd"], Value::Null);
    assert_eq!(seat(&plain, "alpha")["cost_of_pass_usd"], Value::Null);
    assert_eq!(seat(&plain, "alpha")["score"], Value::Null);
    assert!(plain.get("prices").is_none(), "{plain}");

    let args = [
        "score", "--wave", "bare", "--rubric", "thrift@1", "--prices", "hand@1",
    ];
    let json = env
        .run(args.iter().chain(&["--format", "json"]))
        .ok()
        .json();
    let alpha = seat(&json, "alpha");
    assert_eq!(alpha["cost_usd"], 4.625);
    assert_eq!(alpha["cost_known_attempts"], 2);
    assert_eq!(alpha["cost_of_pass_usd"], 4.625);
    // The rubric's cost factor reads the filled costs: allowance 2 × 2 attempts = 4 against
    // $4.625, times accuracy 1/2.
    let score = alpha["score"].as_f64().unwrap();
    assert!(
        (score - 100.0 * 0.5 * (4.0 / 4.625)).abs() < 1e-9,
        "{score}"
    );
    assert_eq!(alpha["factors"]["cost"], 4.0 / 4.625);
    // beta keeps its recorded $0.50; its cached reads cannot be priced by hand@1.
    let beta = seat(&json, "beta");
    assert_eq!(beta["cost_usd"], 0.5);
    assert_eq!(beta["cost_known_attempts"], 1);
    assert_eq!(beta["cost_of_pass_usd"], Value::Null);
    let gamma = seat(&json, "gamma");
    assert_eq!(gamma["cost_usd"], Value::Null);

    let p = &json["prices"];
    assert_eq!(p["name"], "hand");
    assert_eq!(p["version"], 1);
    assert_eq!(
        p["sha256"],
        sha256_hex(HAND_V1.as_bytes()),
        "the table's hash is its text's"
    );
    assert_eq!(p["costs"], "fill");
    assert_eq!(
        (
            &p["priced_attempts"],
            &p["recorded_attempts"],
            &p["unpriced_attempts"]
        ),
        (&Value::from(2), &Value::from(1), &Value::from(2))
    );
    let beta_prices = seat(p, "beta");
    assert_eq!(beta_prices["unpriced"]["no_cache_read_price"], 1);
    assert_eq!(
        beta_prices["price"],
        serde_json::json!({"model": "model-b", "provider": null})
    );
    assert_eq!(seat(p, "gamma")["price"], Value::Null);
    assert_eq!(seat(p, "gamma")["unpriced"]["no_price"], 1);

    let table = env.run(args).ok().stdout;
    snapshot("prices__score_filled_table", &table);
    assert!(
        table.contains("Prices: hand@1 (sha256 "),
        "the leaderboard names its table:\n{table}"
    );
    let md = env
        .run(["show", "bare", "--prices", "hand@1", "--format", "md"])
        .ok()
        .stdout;
    snapshot("prices__show_filled_md", &md);
    // CSV carries the filled costs unrounded.
    let csv = env
        .run(["show", "bare", "--prices", "hand@1", "--format", "csv"])
        .ok()
        .stdout;
    let alpha_row = csv.lines().find(|l| l.starts_with("bare,alpha,")).unwrap();
    assert!(alpha_row.contains(",4.625,4.625,"), "{alpha_row}");
}

#[test]
fn cached_reads_are_priced_once_under_either_accounting() {
    let env = ledger();
    for wave in ["bare", "bare-incl"] {
        let json = env
            .run(["show", wave, "--prices", "hand@1", "--format", "json"])
            .ok()
            .json();
        let alpha = seat(&json, "alpha");
        assert_eq!(alpha["cost_usd"], 4.625, "{wave}");
        // The figures agree on what new input is: cached reads are not in it.
        assert_eq!(alpha["new_input_tokens"], 1_500_000, "{wave}");
    }
}

#[test]
fn repricing_history_is_deterministic() {
    let env = ledger();
    let run = |args: &[&str]| env.run(args).ok().stdout;
    let reprice = [
        "score",
        "--wave",
        "bare",
        "--rubric",
        "thrift@1",
        "--prices",
        "hand@1",
        "--reprice",
        "--format",
        "json",
    ];
    let first = run(&reprice);
    assert_eq!(run(&reprice), first, "repricing twice gives the same bytes");
    let json: Value = serde_json::from_str(&first).unwrap();
    // The recorded $0.50 is set aside for the table's $0.14.
    let beta = seat(&json, "beta");
    assert_eq!(beta["cost_usd"], 0.14);
    assert_eq!(beta["cost_known_attempts"], 1);
    assert_eq!(seat(&json, "alpha")["cost_usd"], 4.625);
    assert_eq!(json["prices"]["costs"], "reprice");
    assert_eq!(json["prices"]["priced_attempts"], 3);
    assert_eq!(json["prices"]["recorded_attempts"], 0);
    assert_eq!(json["prices"]["unpriced_attempts"], 2);

    // A second version of the table reprices alpha; the first still gives what it gave.
    let v2 = write(
        &env,
        "hand.v2.toml",
        &HAND_V1
            .replace("version = 1", "version = 2")
            .replace("input = 2.0", "input = 4.0"),
    );
    env.run([Path::new("prices"), Path::new("add"), &v2]).ok();
    let mut with_v2 = reprice;
    with_v2[6] = "hand@2";
    let json: Value = serde_json::from_str(&run(&with_v2)).unwrap();
    // hand@2 doubles model-a's input price: p1 400,000 × 4 + 500,000 + 75,000 + 250,000 =
    // 2,425,000 → $2.425; p2 1,000,000 × 4 + 1,000,000 = 5,000,000 → $5; the seat: $7.425.
    assert_eq!(seat(&json, "alpha")["cost_usd"], 7.425);
    assert_eq!(run(&reprice), first, "hand@1 reprices as it did");
    let table = run(&reprice[..8]);
    snapshot("prices__score_repriced_table", &table);
}

#[test]
fn a_publication_naming_its_prices_verifies_and_an_edited_table_fails_it() {
    let env = ledger();
    let out = env
        .run([
            "publish", "--wave", "bare", "--rubric", "thrift@1", "--prices", "hand@1", "--title",
            "Priced",
        ])
        .ok();
    snapshot("prices__publish", &out.stdout);
    contains(&out, "Prices: hand@1 (sha256 ");
    env.run(["verify", "--all"]).ok();
    env.run(["verify", "--ledger"]).ok();
    // The publication's input names the table by its hash.
    let input = match env
        .rows("SELECT input FROM publication WHERE id = 1")
        .as_slice()
    {
        [row] => match &row[0] {
            common::Cell::Text(t) => t.clone(),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    };
    let named = format!(
        r#""prices":{{"name":"hand","version":1,"sha256":"{}"}}"#,
        sha256_hex(HAND_V1.as_bytes())
    );
    assert!(input.contains(&named), "{input}");
    // ...and holds the rows as recorded: alpha's costs are not in it.
    assert!(
        !input.contains("4.625") && !input.contains("1.625"),
        "{input}"
    );

    // A bundle carries the table, and verifies on its own.
    let dir = env.path().join("bundle");
    env.run([
        Path::new("bundle"),
        Path::new("1"),
        Path::new("--out"),
        &dir,
    ])
    .ok();
    assert_eq!(
        std::fs::read_to_string(dir.join("hand.v1.prices.toml")).unwrap(),
        HAND_V1
    );
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(readme.ends_with("Bundle layout 3.\n"), "{readme}");
    assert!(readme.contains(&format!(
        "- price table text (`hand@1`): `{}`",
        sha256_hex(HAND_V1.as_bytes())
    )));
    env.run([Path::new("verify"), Path::new("--bundle"), &dir])
        .ok();
    // An edited price file in the bundle is named.
    std::fs::write(
        dir.join("hand.v1.prices.toml"),
        HAND_V1.replace("output = 10.0", "output = 1.0"),
    )
    .unwrap();
    let out = env
        .run([Path::new("verify"), Path::new("--bundle"), &dir])
        .status(1);
    contains(
        &out,
        "the bundle's hand.v1.prices.toml differs from the price table text the publication's \
         costs were filled in from",
    );

    // An edit to the registered table behind benchledger's back fails verify, naming the table
    // and the numbers it moved.
    env.tamper(
        "DROP TRIGGER price_table_no_update;
         UPDATE price_table SET text = replace(text, 'output = 10.0', 'output = 1.0');",
    );
    let out = env.run(["verify", "--all"]).status(1);
    snapshot("prices__verify_edited_table", &out.stdout);
    contains(
        &out,
        "price table hand@1: its text was edited behind benchledger's back (published sha256",
    );
    contains(
        &out,
        "seat alpha: USD $4.62 → $3.28; Cost-of-Pass $4.62 → $3.28",
    );
    let out = env.run(["verify", "--ledger"]).status(1);
    contains(&out, "price table hand@1: its text hashes to");
    contains(&out, "trigger `price_table_no_update` is missing");
}

#[test]
fn bad_price_files_are_named_by_file_line_and_field_and_the_ledger_is_unchanged() {
    let env = ledger();
    let before = env.ledger_bytes();
    let bad = |name: &str, text: &str| write(&env, name, text);
    let good = bad("good.v1.toml", &HAND_V1.replace("\"hand\"", "\"good\""));
    for (file, text, message) in [
        (
            "negative.v1.toml",
            HAND_V1.replace("output = 4.0", "output = -4.0"),
            "negative.v1.toml:16: field `output`: expected USD per million tokens, 0 or more, \
             got -4",
        ),
        (
            "typo.v1.toml",
            HAND_V1.replace("cache_write = 2.5", "cache_writes = 2.5"),
            "typo.v1.toml:11: field `cache_writes`: unknown field `cache_writes`",
        ),
        (
            "twice.v1.toml",
            HAND_V1.replace("model = \"model-b\"", "model = \"model-a\""),
            "twice.v1.toml:13: field `model`: model-a is priced twice (first at line 6)",
        ),
        (
            "infinite.v1.toml",
            HAND_V1.replace("input = 1.0", "input = inf"),
            "infinite.v1.toml:15: field `input`: expected a finite number of USD per million \
             tokens, got inf",
        ),
    ] {
        let path = bad(file, &text);
        // Alone, or after a good file: nothing is registered.
        for args in [vec![&path], vec![&good, &path]] {
            let mut all = vec![Path::new("prices"), Path::new("add")];
            all.extend(args.iter().map(|p| p.as_path()));
            let out = env.run(&all).status(2);
            contains(&out, message);
            assert_eq!(env.ledger_bytes(), before, "{file}");
        }
        let out = env
            .run([Path::new("prices"), Path::new("check"), &good, &path])
            .status(2);
        contains(&out, "good.v1.toml: good@1 OK");
        contains(&out, message);
    }
    // A file not named after what it declares is checked, with a note.
    let copy = bad("copy.toml", HAND_V1);
    let out = env
        .run([Path::new("prices"), Path::new("check"), &copy])
        .ok();
    contains(
        &out,
        "note: the file is named copy.toml but declares hand@1; price table files are named \
         hand.v1.toml",
    );
    // A registered version is immutable: the same name@version with other text is refused.
    let changed = bad(
        "hand.v1.toml",
        &HAND_V1.replace("input = 2.0", "input = 2.5"),
    );
    let out = env
        .run([Path::new("prices"), Path::new("add"), &changed])
        .status(2);
    contains(
        &out,
        "hand.v1.toml: price table hand@1 is already registered with different text",
    );
    assert_eq!(env.ledger_bytes(), before);
    // A table that is not registered, and --reprice without a table, are refused.
    let out = env.run(["show", "bare", "--prices", "hand@9"]).status(2);
    contains(&out, "no price table hand@9 is registered");
    contains(&out, "(registered: hand@1)");
    env.run(["show", "bare", "--reprice"]).status(2);
}

#[test]
fn the_shipped_example_tables_check_and_register() {
    let env = Env::init().run_from_crate_root();
    let files = ["prices/example-list.v1.toml", "prices/example-list.v2.toml"];
    let out = env.run(["prices", "check", files[0], files[1]]).ok();
    snapshot("prices__check_shipped", &out.stdout);
    env.run(["prices", "add", files[0], files[1]]).ok();
    // Registering again is a no-op.
    let out = env.run(["prices", "add", files[0]]).ok();
    contains(&out, "already registered with the same text; nothing to do");
    let list = env.run(["prices", "list", "--format", "json"]).ok().json();
    let entries = list["prices"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[1]["prices"], "example-list@2");
    assert_eq!(entries[1]["date"], "2026-06-01");
    assert_eq!(entries[1]["models"], 5);
    let text = std::fs::read_to_string(common::crate_path(files[1])).unwrap();
    assert_eq!(entries[1]["sha256"], sha256_hex(text.as_bytes()));
    let show = env.run(["prices", "show", "example-list@2"]).ok().stdout;
    assert!(show.ends_with(&text), "{show}");
    assert!(show.starts_with(&format!(
        "# example-list@2 · sha256 {} · registered",
        sha256_hex(text.as_bytes())
    )));

    // The example waves record their costs; repriced under the example table, every seat but
    // the one whose model it leaves out gets the table's.
    let env = Env::with_waves(&["examples/checkout-rematch/wave.toml"]);
    env.run(["prices", "add", files[0]]).ok();
    let json = env
        .run([
            "show",
            "checkout-rematch",
            "--prices",
            "example-list@1",
            "--reprice",
            "--format",
            "json",
        ])
        .ok()
        .json();
    // openai-react: 288,000 × 1.25 + 41,000 × 10 + 214,000 × 0.125 = 796,750 → $0.79675.
    assert_eq!(seat(&json, "openai-react")["cost_usd"], 0.79675);
    assert_eq!(seat(&json, "deepseek-react")["cost_usd"], Value::Null);
}

#[test]
fn a_relabelled_price_table_is_named() {
    let env = ledger();
    env.run([
        "publish", "--wave", "bare", "--rubric", "thrift@1", "--prices", "hand@1",
    ])
    .ok();
    env.tamper(
        "DROP TRIGGER price_table_no_update;
         UPDATE price_table SET name = 'other' WHERE name = 'hand';",
    );
    let out = env.run(["verify", "--all"]).status(1);
    contains(
        &out,
        "price table hand@1, which the publication's costs were filled in from, is not in the \
         ledger under that name: it was deleted or renamed behind benchledger's back",
    );
    let out = env.run(["verify", "--ledger"]).status(1);
    contains(
        &out,
        "price table hand@1: the ledger names it other@1, but its text declares hand@1",
    );
    // A bundle of it is refused before anything is written.
    let dir = env.path().join("bundle");
    let out = env
        .run([
            Path::new("bundle"),
            Path::new("1"),
            Path::new("--out"),
            &dir,
        ])
        .status(2);
    contains(&out, "its price table hand@1 is not in the ledger");
    assert!(!dir.exists());
}
