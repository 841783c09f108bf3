//! Auditing and reproducing through the CLI: `rescore`, `diff`, `publish`, `publications`,
//! `verify` and `bundle` (issue 4; `compare` has its own tests).
//!
//! Every test builds a ledger from the shipped `examples/*/wave.toml` and registers rubrics
//! from `rubrics/`. Tampering is done the way someone with the sqlite3 shell would: open the
//! ledger file with rusqlite, drop the immutability trigger(s) first, edit, close — then
//! `verify` must exit 1 and name what changed.
//!
//! The numbers checked by hand below (session-efficiency v2 = 100 × accuracy ×
//! clip(budget.tokens × attempts / tokens_total, 0.25, 1) × clip(budget.wall_s × attempts /
//! wall_s, 0.25, 1); v1 the same with cap 1.25 and each factor through a square root):
//!
//! - checkout-rematch (budget 1M tokens, 180 s, one attempt per seat; its input totals exclude
//!   cached reads, so tokens_total adds them back):
//!   - xai-hierarchical: Correct, 500k + 65k = 565k tokens, 132 s. Token factor 1e6/565k ≈ 1.77,
//!     wall factor 180/132 ≈ 1.36: v1 clips both to 1.25, √1.25 × √1.25 = 1.25 → **125**; v2
//!     caps both at 1 → **100**.
//!   - openai-react: Correct, 288k + 41k + 214k cached = 543k, 118 s → 125 / 100.
//!   - google-react: Correct, 356k + 38k = 394k, 118 s → 125 / 100.
//!   - anthropic-react: Correct, 140k + 58k + 310k + 45k = 553k, 240 s: wall factor 180/240 =
//!     0.75 → v2 **75**; v1 100 × √1.25 × √0.75 ≈ **96.82**.
//!   - deepseek-react: not Correct → 0 under both.
//!   - v2 ties three seats at 100 and breaks the tie on wall seconds (xai's 132 s is last),
//!     then new input tokens (openai 288k before google 356k): openai 1, google 2, xai 3.
//!     v1 has no tie-break: all three share rank 1.

mod common;

use std::ffi::OsStr;

use std::path::{Path, PathBuf};

use common::{
    Cell, Env, Out, Shell, copy_dir, crate_path, examples, run_raw, sha256_hex, snapshot_settings,
    sql_text,
};
use serde_json::Value;

const V1: &str = "session-efficiency@1";
const V2: &str = "session-efficiency@2";
const CHECKOUT: &str = "checkout-rematch";
const TITLE: &str = "Checkout rematch, honest efficiency";

fn rubric_file(file: &str) -> PathBuf {
    crate_path("rubrics").join(file)
}

/// A ledger holding the example waves, without any rubric.
fn waves_only() -> Env {
    let env = Env::init();
    let manifests = examples();
    let refs: Vec<&Path> = manifests.iter().map(PathBuf::as_path).collect();
    env.ingest(&refs);
    env
}

/// The example waves, session-efficiency v2 registered, and v1 registered as the flawed
/// historical rubric it is.
fn ledger() -> Env {
    let env = waves_only();
    env.run([
        "rubric".as_ref(),
        "add".as_ref(),
        rubric_file("session-efficiency.v2.toml").as_os_str(),
    ])
    .ok();
    env.run([
        "rubric".as_ref(),
        "add".as_ref(),
        "--allow-scale-violation".as_ref(),
        rubric_file("session-efficiency.v1.toml").as_os_str(),
    ])
    .ok();
    env
}

/// `ledger()` with three chained publications under v2: #1 checkout-rematch (titled),
/// #2 rca-wave-1, #3 prices-csv.
fn published() -> Env {
    let env = ledger();
    env.run([
        "publish", "--wave", CHECKOUT, "--rubric", V2, "--title", TITLE,
    ])
    .ok();
    env.run(["publish", "--wave", "rca-wave-1", "--rubric", V2])
        .ok();
    env.run(["publish", "--wave", "prices-csv", "--rubric", V2])
        .ok();
    env
}

/// Edits a ledger (a file or a server's database) behind benchledger's back, as someone with
/// the database's own shell would.
fn tamper(db: &Path, sql: &str) {
    Shell::at(db).tamper(sql);
}

/// Every row of a query, every column as the ledger holds it.
fn rows(db: &Path, sql: &str) -> Vec<Vec<Cell>> {
    Shell::at(db).rows(sql)
}

/// The `score` table, floats as their bits so that "identical" means bit for bit.
fn score_table(db: &Path) -> Vec<Vec<String>> {
    rows(
        db,
        "SELECT rubric_id, seat_id, score, rank, factors, gate, tie, note FROM score
         ORDER BY rubric_id, seat_id",
    )
    .into_iter()
    .map(|r| {
        r.into_iter()
            .map(|v| match v {
                Cell::Real(f) => format!("real:{:016x}", f.to_bits()),
                other => format!("{other:?}"),
            })
            .collect()
    })
    .collect()
}

fn snapshot(name: &str, text: &str) {
    snapshot_settings().bind(|| insta::assert_snapshot!(name, text));
}

#[track_caller]
fn assert_contains(haystack: &str, needle: &str) {
    assert!(
        haystack.contains(needle),
        "expected {needle:?} in:\n{haystack}"
    );
}

#[track_caller]
fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-9, "{a} is not {b}");
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("{v} is not a number"))
}

// ---------------------------------------------------------------------------------------------
// rescore

#[test]
fn rescore_stores_scores_and_a_second_run_stores_identical_numbers() {
    let env = ledger();
    let attempts_before = rows(&env.db, "SELECT * FROM attempt ORDER BY id");
    let steps_before = rows(&env.db, "SELECT * FROM trace_step ORDER BY attempt_id, idx");
    assert_eq!(attempts_before.len(), 5 + 4 + 24 + 24);

    let out = env.run(["rescore", "--rubric", V2]).ok();
    // Piped: no progress bar, only the summary.
    assert_eq!(
        out.stdout,
        "rescored 4 waves, 21 seats under session-efficiency@2 (sha256 6d1678567cb4); scores \
         stored, attempts untouched\n"
    );
    assert!(out.stderr.is_empty(), "{}", out.stderr);
    let first = score_table(&env.db);
    assert_eq!(first.len(), 21);

    let out = env.run(["rescore", "--rubric", V2]).ok();
    assert_eq!(out.stdout.lines().count(), 1, "{}", out.stdout);
    assert_eq!(
        score_table(&env.db),
        first,
        "a second rescore stored other numbers"
    );

    // The attempts and their trace steps are untouched.
    assert_eq!(
        rows(&env.db, "SELECT * FROM attempt ORDER BY id"),
        attempts_before
    );
    assert_eq!(
        rows(&env.db, "SELECT * FROM trace_step ORDER BY attempt_id, idx"),
        steps_before
    );

    // The worked seat's stored score and factors.
    let stored = rows(
        &env.db,
        "SELECT sc.score, sc.rank, sc.factors FROM score sc JOIN seat s ON s.id = sc.seat_id
         JOIN wave w ON w.id = s.wave_id JOIN rubric r ON r.id = sc.rubric_id
         WHERE w.slug = 'checkout-rematch' AND s.slug = 'xai-hierarchical' AND r.version = 2",
    );
    let [row] = stored.as_slice() else {
        panic!("{stored:?}")
    };
    assert_eq!(row[0], Cell::Real(100.0));
    assert_eq!(row[1], Cell::Int(3));
    assert_eq!(
        row[2],
        Cell::Text(r#"{"accuracy":1.0,"tokens":1.0,"wall":1.0}"#.into())
    );
}

#[test]
fn rescore_under_the_flawed_rubric_stores_its_125_and_says_it_fails_check() {
    let env = ledger();
    let out = env.run(["rescore", "--rubric", V1]).ok();
    assert_contains(
        &out.stdout,
        "note: session-efficiency@1 fails `rubric check`; its scores can leave its declared scale",
    );
    let stored = rows(
        &env.db,
        "SELECT sc.score FROM score sc JOIN seat s ON s.id = sc.seat_id
         JOIN wave w ON w.id = s.wave_id
         WHERE w.slug = 'checkout-rematch' AND s.slug = 'xai-hierarchical'",
    );
    let [row] = stored.as_slice() else {
        panic!("{stored:?}")
    };
    let Cell::Real(score) = row[0] else {
        panic!("{row:?}")
    };
    close(score, 125.0);
}

#[test]
fn rescore_of_an_unregistered_rubric_file_is_refused_and_says_to_register_it() {
    let env = ledger();
    let file = rubric_file("trace-holistic.v1.toml");
    let out = env
        .run(["rescore".as_ref(), "--rubric".as_ref(), file.as_os_str()])
        .status(2);
    assert_contains(&out.stderr, "trace-holistic@1 is not registered");
    assert_contains(&out.stderr, "benchledger rubric add");
    assert!(score_table(&env.db).is_empty());
    // An unregistered NAME@VERSION is refused too, listing what is registered.
    let out = env
        .run(["rescore", "--rubric", "trace-holistic@1"])
        .status(2);
    assert_contains(&out.stderr, "no rubric trace-holistic@1 is registered");
    assert_contains(&out.stderr, "session-efficiency@1, session-efficiency@2");
}

#[test]
fn rescore_with_waves_scores_only_those_and_an_unknown_wave_names_the_known_ones() {
    let env = ledger();
    let out = env
        .run([
            "rescore",
            "--rubric",
            V2,
            "--wave",
            CHECKOUT,
            "--wave",
            "prices-csv",
        ])
        .ok();
    assert_contains(&out.stdout, "rescored 2 waves, 9 seats");
    let waves = rows(
        &env.db,
        "SELECT w.slug, count(*) FROM score sc JOIN seat s ON s.id = sc.seat_id
         JOIN wave w ON w.id = s.wave_id GROUP BY w.slug ORDER BY w.slug",
    );
    assert_eq!(
        waves,
        vec![
            vec![Cell::Text(CHECKOUT.into()), Cell::Int(5)],
            vec![Cell::Text("prices-csv".into()), Cell::Int(4)],
        ]
    );

    // Naming a wave twice scores it once.
    let out = env
        .run([
            "rescore", "--rubric", V2, "--wave", CHECKOUT, "--wave", CHECKOUT,
        ])
        .ok();
    assert_contains(&out.stdout, "rescored 1 wave, 5 seats under");

    let before = score_table(&env.db);
    let out = env
        .run([
            "rescore",
            "--rubric",
            V2,
            "--wave",
            CHECKOUT,
            "--wave",
            "no-such-wave",
        ])
        .status(2);
    assert_contains(&out.stderr, "no wave `no-such-wave`");
    assert_contains(
        &out.stderr,
        "rca-wave-1, rca-wave-2, checkout-rematch, prices-csv",
    );
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    assert_eq!(
        score_table(&env.db),
        before,
        "a refused rescore stored something"
    );
}

// ---------------------------------------------------------------------------------------------
// diff

#[test]
fn diff_of_the_two_efficiency_versions_turns_125_into_100() {
    let env = ledger();
    let table = env.run(["diff", V1, V2]).ok();
    assert!(table.stderr.is_empty(), "{}", table.stderr);
    snapshot("audit__diff_v1_v2_table", &table.stdout);
    let md = env.run(["diff", V1, V2, "--format", "md"]).ok();
    snapshot("audit__diff_v1_v2_md", &md.stdout);

    let json = env.run(["diff", V1, V2, "--format", "json"]).ok().json();
    assert_eq!(json["kind"], "diff");
    assert_eq!(json["old"]["version"], 1);
    assert_eq!(json["old"]["scale_violation"], true);
    assert_eq!(json["new"]["version"], 2);
    assert_eq!(json["new"]["scale_violation"], false);
    let rows = json["rows"].as_array().expect("rows is a list");
    assert_eq!(rows.len(), 21);
    for r in rows {
        for key in [
            "wave", "seat", "old", "new", "delta", "old_rank", "new_rank",
        ] {
            assert!(r.get(key).is_some(), "row without {key}: {r}");
        }
        close(num(&r["delta"]), num(&r["new"]) - num(&r["old"]));
    }
    let row = |wave: &str, seat: &str| -> &Value {
        rows.iter()
            .find(|r| r["wave"] == wave && r["seat"] == seat)
            .unwrap_or_else(|| panic!("no row {wave}/{seat}"))
    };

    // The worked seat: 125 → 100, from a shared first place to third on the tie-break.
    let xai = row(CHECKOUT, "xai-hierarchical");
    close(num(&xai["old"]), 125.0);
    close(num(&xai["new"]), 100.0);
    close(num(&xai["delta"]), -25.0);
    assert_eq!(
        (xai["old_rank"].as_u64(), xai["new_rank"].as_u64()),
        (Some(1), Some(3))
    );
    // 240 s against 180: wall factor 0.75. v1: 100 × √1.25 × √0.75.
    let anthropic = row(CHECKOUT, "anthropic-react");
    close(
        num(&anthropic["old"]),
        100.0 * 1.25f64.sqrt() * 0.75f64.sqrt(),
    );
    close(num(&anthropic["new"]), 75.0);
    let deepseek = row(CHECKOUT, "deepseek-react");
    assert_eq!((num(&deepseek["old"]), num(&deepseek["new"])), (0.0, 0.0));

    // The summary agrees with the rows.
    let summary = &json["summary"];
    let moved = rows.iter().filter(|r| r["old"] != r["new"]).count();
    assert_eq!(moved, 20, "every seat but the one scoring 0 under both");
    assert_eq!(summary["moved"], moved);
    assert_eq!(summary["unchanged"], 1);
    assert_eq!(summary["seats"], 21);
    assert_eq!(summary["waves"], 4);
    let names = |list: &Value| -> Vec<String> {
        list.as_array()
            .expect("a list")
            .iter()
            .map(|s| {
                format!(
                    "{}/{}",
                    s["wave"].as_str().unwrap(),
                    s["seat"].as_str().unwrap()
                )
            })
            .collect()
    };
    let rank_changes: Vec<(String, u64, u64)> = summary["rank_changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                format!(
                    "{}/{}",
                    s["wave"].as_str().unwrap(),
                    s["seat"].as_str().unwrap()
                ),
                s["old_rank"].as_u64().unwrap(),
                s["new_rank"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        rank_changes,
        vec![
            ("checkout-rematch/google-react".into(), 1, 2),
            ("checkout-rematch/xai-hierarchical".into(), 1, 3),
            ("prices-csv/five-repeats".into(), 1, 3),
            ("prices-csv/one-retry".into(), 1, 2),
        ]
    );
    let expected_outside: Vec<String> = rows
        .iter()
        .filter(|r| num(&r["old"]) > 100.0 + 1e-9)
        .map(|r| {
            format!(
                "{}/{}",
                r["wave"].as_str().unwrap(),
                r["seat"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(expected_outside.len(), 12);
    assert_eq!(names(&summary["old_outside_scale"]), expected_outside);
    assert!(
        names(&summary["old_outside_scale"]).contains(&"checkout-rematch/xai-hierarchical".into())
    );
    assert_eq!(names(&summary["new_outside_scale"]), Vec::<String>::new());
    let largest = summary["largest_shifts"].as_array().unwrap();
    assert_eq!(largest.len(), 5);
    for s in largest {
        close(num(&s["delta"]), -25.0);
    }
}

#[test]
fn diff_takes_rubric_files_as_well_as_registered_versions() {
    let env = ledger();
    let registered = env.run(["diff", V1, V2, "--format", "json"]).ok().json();
    let (v1, v2) = (
        rubric_file("session-efficiency.v1.toml"),
        rubric_file("session-efficiency.v2.toml"),
    );
    let by_file = env
        .run([
            "diff".as_ref(),
            v1.as_os_str(),
            v2.as_os_str(),
            "--format".as_ref(),
            "json".as_ref(),
        ])
        .ok()
        .json();
    assert_eq!(by_file["rows"], registered["rows"]);
    assert_eq!(by_file["summary"], registered["summary"]);
    assert_eq!(by_file["old"]["sha256"], registered["old"]["sha256"]);

    // On a ledger where neither is registered, the files still diff, and say so.
    let bare = waves_only();
    let unregistered = bare
        .run([
            "diff".as_ref(),
            v1.as_os_str(),
            v2.as_os_str(),
            "--format".as_ref(),
            "json".as_ref(),
        ])
        .ok()
        .json();
    assert_eq!(unregistered["rows"], registered["rows"]);
    assert_eq!(unregistered["old"]["registered"], false);
    assert_eq!(unregistered["new"]["registered"], false);
    // The failing check is found from the file itself, not from a registration flag.
    assert_eq!(unregistered["old"]["scale_violation"], true);
}

#[test]
fn diff_with_waves_shows_only_those() {
    let env = ledger();
    let out = env
        .run(["diff", V1, V2, "--wave", CHECKOUT, "--format", "md"])
        .ok();
    snapshot("audit__diff_v1_v2_checkout_md", &out.stdout);
    let json = env
        .run(["diff", V1, V2, "--wave", CHECKOUT, "--format", "json"])
        .ok()
        .json();
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 5);
    assert!(rows.iter().all(|r| r["wave"] == CHECKOUT));
    assert_eq!(json["summary"]["waves"], 1);
    assert_eq!(json["summary"]["moved"], 4);

    let two = env
        .run([
            "diff",
            V1,
            V2,
            "--wave",
            "rca-wave-2",
            "--wave",
            CHECKOUT,
            "--format",
            "json",
        ])
        .ok()
        .json();
    let waves: std::collections::BTreeSet<&str> = two["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["wave"].as_str().unwrap())
        .collect();
    assert_eq!(waves, [CHECKOUT, "rca-wave-2"].into_iter().collect());
    assert_eq!(two["rows"].as_array().unwrap().len(), 11);

    let out = env.run(["diff", V1, V2, "--wave", "nope"]).status(2);
    assert_contains(&out.stderr, "no wave `nope`");
    assert_contains(&out.stderr, "checkout-rematch");
}

// ---------------------------------------------------------------------------------------------
// publish, publications, verify

#[test]
fn publish_then_verify_reproduces_and_the_publications_chain() {
    let env = ledger();
    let first = env
        .run([
            "publish", "--wave", CHECKOUT, "--rubric", V2, "--title", TITLE,
        ])
        .ok();
    assert!(first.stderr.is_empty(), "{}", first.stderr);
    // Everything published is in this snapshot: review every number in it.
    snapshot("audit__publish_checkout_v2", &first.stdout);

    // The printed output is exactly what is stored, and its digests are what they claim.
    let stored = rows(
        &env.db,
        "SELECT output, output_sha256, input, input_sha256, rubric_sha256 FROM publication",
    );
    let [row] = stored.as_slice() else {
        panic!("{stored:?}")
    };
    let text = |v: &Cell| match v {
        Cell::Text(s) => s.clone(),
        other => panic!("{other:?} is not text"),
    };
    let output = text(&row[0]);
    assert!(first.stdout.ends_with(&format!("\n\n{output}")));
    assert_eq!(sha256_hex(output.as_bytes()), text(&row[1]));
    assert_eq!(sha256_hex(text(&row[2]).as_bytes()), text(&row[3]));
    let rubric_text = std::fs::read(rubric_file("session-efficiency.v2.toml")).unwrap();
    assert_eq!(sha256_hex(&rubric_text), text(&row[4]));
    assert!(output.starts_with(&format!("# {TITLE}\n")));

    let second = env
        .run(["publish", "--wave", "rca-wave-1", "--rubric", V2])
        .ok();
    assert_contains(
        &second.stdout,
        "published #2 \"rca-wave-1 under session-efficiency@2\"",
    );

    let table = env.run(["publications"]).ok();
    snapshot("audit__publications_table", &table.stdout);
    let json = env.run(["publications", "--format", "json"]).ok().json();
    assert_eq!(json["kind"], "publications");
    let list = json["publications"].as_array().unwrap();
    assert_eq!(list.len(), 2);
    for p in list {
        for key in [
            "id",
            "title",
            "wave",
            "rubric",
            "rubric_sha256",
            "created_at",
            "input_sha256",
            "output_sha256",
            "prev_sha256",
            "sha256",
        ] {
            assert!(p.get(key).is_some(), "publication without {key}: {p}");
        }
        assert_eq!(p["rubric"], V2);
        assert_eq!(p["created_at"], common::NOW);
        assert_eq!(p["rubric_sha256"], text(&row[4]).as_str());
    }
    assert_eq!(list[0]["id"], 1);
    assert_eq!(list[0]["title"], TITLE);
    assert_eq!(list[0]["wave"], CHECKOUT);
    assert_eq!(list[0]["output_sha256"], text(&row[1]).as_str());
    assert!(list[0]["prev_sha256"].is_null());
    assert_eq!(list[1]["id"], 2);
    assert_eq!(list[1]["title"], "rca-wave-1 under session-efficiency@2");
    assert_eq!(list[1]["prev_sha256"], list[0]["sha256"]);
    assert_ne!(list[1]["sha256"], list[0]["sha256"]);

    let out = env.run(["verify", "--all"]).ok();
    assert_eq!(
        out.stdout
            .matches(": OK — reproduces byte for byte")
            .count(),
        2
    );
    assert!(
        out.stdout.ends_with("2 of 2 publications reproduce\n"),
        "{}",
        out.stdout
    );
    let one = env.run(["verify", "2"]).ok();
    assert!(
        one.stdout.ends_with("1 of 1 publication reproduces\n"),
        "{}",
        one.stdout
    );

    let out = env.run(["verify"]).status(2);
    assert_contains(&out.stderr, "--all");
    let out = env.run(["verify", "9"]).status(2);
    assert_contains(&out.stderr, "no publication 9");
}

#[test]
fn publish_refuses_an_unregistered_rubric_and_an_unknown_wave() {
    let env = ledger();
    let file = rubric_file("trace-holistic.v1.toml");
    let out = env
        .run([
            "publish".as_ref(),
            "--wave".as_ref(),
            "prices-csv".as_ref(),
            "--rubric".as_ref(),
            file.as_os_str(),
        ])
        .status(2);
    assert_contains(&out.stderr, "trace-holistic@1 is not registered");
    let out = env
        .run(["publish", "--wave", "nope", "--rubric", V2])
        .status(2);
    assert_contains(&out.stderr, "no wave `nope`");
    assert_eq!(
        rows(&env.db, "SELECT * FROM publication"),
        Vec::<Vec<Cell>>::new()
    );
    let out = env.run(["verify", "--all"]).ok();
    assert_eq!(out.stdout, "no publications to verify\n");
}

/// Runs `verify --all` on a tampered ledger: it must exit 1 and say so on stderr.
#[track_caller]
fn verify_fails(env: &Env) -> String {
    let out = env.run(["verify", "--all"]).status(1);
    assert_contains(&out.stderr, "a publication does not reproduce");
    out.stdout
}

/// The id of the attempt of `seat` in `wave` on `problem`, trial 1.
fn attempt_id(db: &Path, wave: &str, seat: &str, problem: &str) -> i64 {
    let r = rows(
        db,
        &format!(
            "SELECT a.id FROM attempt a JOIN seat s ON s.id = a.seat_id
             JOIN wave w ON w.id = s.wave_id
             WHERE w.slug = '{wave}' AND s.slug = '{seat}' AND a.problem = '{problem}'
               AND a.trial = 1"
        ),
    );
    match r.as_slice() {
        [row] => match row[0] {
            Cell::Int(id) => id,
            ref other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
}

fn xai_checkout_attempt(env: &Env) -> i64 {
    attempt_id(&env.db, CHECKOUT, "xai-hierarchical", "checkout-outage")
}

#[test]
fn verify_catches_an_edited_wall_time() {
    let env = published();
    let id = xai_checkout_attempt(&env);
    tamper(
        &env.db,
        &format!(
            "DROP TRIGGER attempt_no_update; UPDATE attempt SET wall_s = 131.0 WHERE id = {id};"
        ),
    );
    let out = verify_fails(&env);
    snapshot("audit__verify_tampered_wall_s", &out);
    assert_contains(
        &out,
        "publication #1 \"Checkout rematch, honest efficiency\" (checkout-rematch under \
         session-efficiency@2): MISMATCH",
    );
    assert_contains(
        &out,
        "data.seats [seat xai-hierarchical].attempts [problem checkout-outage trial 1].wall_s: \
         132.0 → 131.0",
    );
    assert_contains(&out, "seat xai-hierarchical: Wall s 132.0 → 131.0");
    // The other publications are untouched and say so.
    assert_contains(
        &out,
        "publication #2 \"rca-wave-1 under session-efficiency@2\" (rca-wave-1 under session-efficiency@2): OK",
    );
    assert!(out.ends_with("2 of 3 publications reproduce\n"), "{out}");
}

/// `verify --format json`: the same verdicts as the report, as a document. The figures are
/// hashes and counts of the published ledger; the tampered one names its mismatch and exits 1
/// after printing the whole document.
#[test]
fn verify_as_json_gives_each_entry_its_verdict_and_the_ledger_checks() {
    let env = published();
    env.run(["withdraw", "prices-csv", "--reason", "a wrong budget"])
        .ok();
    let out = env
        .run(["verify", "--all", "--ledger", "--format", "json"])
        .ok();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["kind"], "verify");
    assert_eq!(doc["ok"], true);
    assert_eq!(doc["publications"]["reproduced"], 3);
    assert_eq!(doc["entries"].as_array().unwrap().len(), 4);
    snapshot(
        "audit__verify_json",
        &common::schema_version_named(&out.stdout),
    );

    let id = xai_checkout_attempt(&env);
    tamper(
        &env.db,
        &format!(
            "DROP TRIGGER attempt_no_update; UPDATE attempt SET wall_s = 131.0 WHERE id = {id};"
        ),
    );
    let out = env
        .run(["verify", "--all", "--ledger", "--format", "json"])
        .status(1);
    assert_contains(&out.stderr, "a publication does not reproduce");
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["ok"], false);
    assert_eq!(doc["entries"][0]["verdict"], "mismatch");
    assert_eq!(doc["entries"][1]["verdict"], "ok");
    assert_eq!(doc["publications"]["reproduced"], 2);
    snapshot("audit__verify_json_tampered", &out.stdout);

    let out = env.run(["verify", "--all", "--format", "csv"]).status(2);
    assert_contains(&out.stderr, "verify prints its report, or --format json");
}

#[test]
fn verify_catches_an_edited_cost() {
    let env = published();
    let id = xai_checkout_attempt(&env);
    tamper(
        &env.db,
        &format!(
            "DROP TRIGGER attempt_no_update; UPDATE attempt SET cost_usd = 0.5 WHERE id = {id};"
        ),
    );
    let out = verify_fails(&env);
    snapshot("audit__verify_tampered_cost_usd", &out);
    assert_contains(
        &out,
        "[seat xai-hierarchical].attempts [problem checkout-outage trial 1].cost_usd: 0.91 → 0.5",
    );
    assert_contains(
        &out,
        "seat xai-hierarchical: USD $0.91 → $0.50; Cost-of-Pass $0.91 → $0.50",
    );
}

#[test]
fn verify_catches_a_flipped_correct_flag() {
    let env = published();
    let id = xai_checkout_attempt(&env);
    tamper(
        &env.db,
        &format!(
            "DROP TRIGGER attempt_no_update; UPDATE attempt SET correct = false WHERE id = {id};"
        ),
    );
    let out = verify_fails(&env);
    snapshot("audit__verify_tampered_correct", &out);
    assert_contains(
        &out,
        "[seat xai-hierarchical].attempts [problem checkout-outage trial 1].correct: true → false",
    );
    // The leaderboard's rows are matched by seat, not by line: the seat's own row names its
    // changed figures, score and rank.
    assert_contains(&out, "seat xai-hierarchical: Correct 1/1 100.0% → 0/1 0.0%");
    assert_contains(&out, "session-efficiency@2 100.00 → 0.00; Rank 3 → 4");
}

#[test]
fn verify_catches_an_edited_rubric_text() {
    let env = published();
    tamper(
        &env.db,
        "DROP TRIGGER rubric_no_update;
         UPDATE rubric SET text = replace(text, 'floor = 0.25', 'floor = 0.3');",
    );
    let out = verify_fails(&env);
    snapshot("audit__verify_tampered_rubric_text", &out);
    // Every publication under the rubric is named.
    assert_eq!(
        out.matches(
            "rubric session-efficiency@2: its text was edited behind benchledger's back \
             (published sha256 6d1678567cb4"
        )
        .count(),
        3,
        "{out}"
    );
    assert!(out.ends_with("0 of 3 publications reproduce\n"), "{out}");

    // A careful forger also rewrites the rubric row's stored hash to match the edited text:
    // the publications still hold the hash they were computed with.
    let env = published();
    let text = match rows(
        &env.db,
        "SELECT text FROM rubric WHERE name = 'session-efficiency' AND version = 2",
    )
    .as_slice()
    {
        [row] => match &row[0] {
            Cell::Text(t) => t.clone(),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    };
    let edited = text.replace("floor = 0.25", "floor = 0.3");
    tamper(
        &env.db,
        &format!(
            "DROP TRIGGER rubric_no_update;
             UPDATE rubric SET text = {}, sha256 = {}
             WHERE name = 'session-efficiency' AND version = 2",
            sql_text(&edited),
            sql_text(&sha256_hex(edited.as_bytes()))
        ),
    );
    let out = verify_fails(&env);
    assert_eq!(
        out.matches("rubric session-efficiency@2: its text was edited behind benchledger's back")
            .count(),
        3,
        "{out}"
    );
}

#[test]
fn verify_catches_an_edited_published_output() {
    let env = published();
    tamper(
        &env.db,
        "DROP TRIGGER publication_no_update;
         UPDATE publication SET output = replace(output, '100.00', '99.00') WHERE id = 1;",
    );
    let out = verify_fails(&env);
    snapshot("audit__verify_tampered_output", &out);
    assert_contains(
        &out,
        "the stored output was edited: it no longer matches its digest",
    );
    assert_contains(&out, "the published leaderboard does not reproduce");
    for seat in ["openai-react", "google-react", "xai-hierarchical"] {
        assert_contains(
            &out,
            &format!("seat {seat}: session-efficiency@2 99.00 → 100.00"),
        );
    }
    assert!(out.ends_with("2 of 3 publications reproduce\n"), "{out}");
}

#[test]
fn verify_catches_an_edited_title_by_the_record_hash() {
    let env = published();
    tamper(
        &env.db,
        "DROP TRIGGER publication_no_update;
         UPDATE publication SET title = 'Forged title' WHERE id = 2;",
    );
    let out = verify_fails(&env);
    snapshot("audit__verify_tampered_title", &out);
    assert_contains(
        &out,
        "publication #2 \"Forged title\" (rca-wave-1 under session-efficiency@2): MISMATCH\n  \
         - the publication record was edited: its fields no longer hash to its sha256",
    );
}

#[test]
fn verify_catches_a_consistently_rehashed_middle_publication_by_the_next_link() {
    let env = published();
    // A careful forger rewrites #2's title everywhere it appears — the record, the published
    // text's heading, the output digest — and recomputes the record hash, so #2 is
    // self-consistent. #3 still chains to the old hash.
    let old = rows(
        &env.db,
        "SELECT wave_id, rubric_sha256, created_at, input_sha256, output, prev_sha256, sha256
         FROM publication WHERE id = 2",
    );
    let text = |v: &Cell| match v {
        Cell::Text(s) => s.clone(),
        other => panic!("{other:?}"),
    };
    let row = &old[0];
    let title = "rca-wave-1, as we would rather remember it";
    let output = text(&row[4]).replacen(
        "# rca-wave-1 under session-efficiency@2\n",
        &format!("# {title}\n"),
        1,
    );
    assert_ne!(output, text(&row[4]));
    let output_sha256 = sha256_hex(output.as_bytes());
    let prev = text(&row[5]);
    let sha256 =
        benchledger_core::publication::record_sha256(&benchledger_core::publication::Record {
            id: 2,
            wave: "rca-wave-1",
            rubric_sha256: &text(&row[1]),
            title,
            created_at: &text(&row[2]),
            input_sha256: &text(&row[3]),
            output_sha256: &output_sha256,
            prev_sha256: Some(&prev),
        });
    tamper(
        &env.db,
        &format!(
            "DROP TRIGGER publication_no_update;
             UPDATE publication SET title = {}, output = {}, output_sha256 = {}, sha256 = {}
             WHERE id = 2",
            sql_text(title),
            sql_text(&output),
            sql_text(&output_sha256),
            sql_text(&sha256)
        ),
    );

    let out = verify_fails(&env);
    snapshot("audit__verify_forged_middle_publication", &out);
    assert_contains(
        &out,
        &format!("publication #2 {title:?} (rca-wave-1 under session-efficiency@2): OK"),
    );
    assert_contains(
        &out,
        &format!(
            "publication #3 \"prices-csv under session-efficiency@2\" (prices-csv under \
             session-efficiency@2): MISMATCH\n  - the chain is broken: it names predecessor {} \
             but the entry before it, publication #2, hashes to {}",
            &text(&row[6])[..12],
            &sha256[..12]
        ),
    );
    // Verifying #3 alone still checks its link.
    let out = env.run(["verify", "3"]).status(1);
    assert_contains(&out.stdout, "the chain is broken");
}

#[test]
fn verify_catches_a_deleted_publication_by_the_next_link() {
    let env = published();
    tamper(
        &env.db,
        "DROP TRIGGER publication_no_delete; DROP TRIGGER publication_claims_no_delete;
         DELETE FROM publication_claims WHERE publication_id = 2;
         DELETE FROM publication WHERE id = 2;",
    );
    let out = verify_fails(&env);
    assert_contains(&out, "publication #3");
    assert_contains(&out, "the chain is broken: it names predecessor");
    assert_contains(&out, "but the entry before it, publication #1, hashes to");
}

#[test]
fn verify_catches_a_deleted_attempt() {
    let env = published();
    let id = xai_checkout_attempt(&env);
    tamper(
        &env.db,
        &format!("DROP TRIGGER attempt_no_delete; DELETE FROM attempt WHERE id = {id};"),
    );
    let out = verify_fails(&env);
    snapshot("audit__verify_deleted_attempt", &out);
    assert_contains(
        &out,
        "data.seats [seat xai-hierarchical].attempts: 1 items → 0 items",
    );
    assert_contains(
        &out,
        "data.seats [seat xai-hierarchical].attempts [problem checkout-outage trial 1]: removed",
    );
}

#[test]
fn verify_names_the_one_attempt_deleted_from_the_middle_of_a_seat() {
    // Regression: attempts were paired by position, so deleting rca-2 of four reported rca-2
    // as "changed into" rca-3 and rca-3 into rca-4, field by field.
    let env = published();
    let id = attempt_id(&env.db, "rca-wave-1", "xai-hierarchical", "rca-2");
    tamper(
        &env.db,
        &format!("DROP TRIGGER attempt_no_delete; DELETE FROM attempt WHERE id = {id};"),
    );
    let out = verify_fails(&env);
    assert_contains(
        &out,
        "input rows changed since publication (2 differences):\n      \
         data.seats [seat xai-hierarchical].attempts: 4 items → 3 items\n      \
         data.seats [seat xai-hierarchical].attempts [problem rca-2 trial 1]: removed",
    );
    assert!(!out.contains("rca-3 trial 1]."), "{out}");
}

#[test]
fn the_triggers_refuse_updates_and_deletes_and_the_ledger_stays_intact() {
    let env = published();
    let mut shell = Shell::at(&env.db);
    let mut refused = |sql: &str, message: &str| {
        let err = shell
            .try_execute(sql)
            .expect_err(&format!("{sql} was allowed"));
        assert!(err.contains(message), "{sql}: {err}");
    };
    refused(
        "UPDATE attempt SET wall_s = 1",
        "benchledger: attempts are append-only raw facts and cannot be changed",
    );
    refused(
        "DELETE FROM attempt",
        "benchledger: attempts are append-only raw facts and cannot be deleted",
    );
    refused(
        "UPDATE rubric SET text = replace(text, 'floor = 0.25', 'floor = 0.3')",
        "benchledger: a registered rubric version is immutable; register a new version instead",
    );
    refused(
        "DELETE FROM rubric",
        "benchledger: a registered rubric version is immutable and cannot be deleted",
    );
    refused(
        "UPDATE publication SET title = 'x'",
        "benchledger: publications are frozen and cannot be changed",
    );
    refused(
        "DELETE FROM publication",
        "benchledger: publications are frozen and cannot be deleted",
    );
    refused(
        "UPDATE trace_step SET ok = true",
        "benchledger: trace steps are append-only raw facts and cannot be changed",
    );
    refused(
        "UPDATE wave SET notes = 'x'",
        "benchledger: waves are append-only raw facts and cannot be changed",
    );
    refused(
        "DELETE FROM seat",
        "benchledger: seats are append-only raw facts and cannot be deleted",
    );
    if common::postgres_backend() {
        // TRUNCATE fires no row trigger: PostgreSQL's statement triggers refuse it.
        refused(
            "TRUNCATE attempt CASCADE",
            "benchledger: attempts are append-only raw facts and cannot be deleted",
        );
        refused(
            "TRUNCATE publication CASCADE",
            "benchledger: publications are frozen and cannot be deleted",
        );
    } else {
        assert_eq!(
            shell.rows("PRAGMA integrity_check"),
            vec![vec![Cell::Text("ok".into())]]
        );
    }
    drop(shell);
    let out = env.run(["verify", "--all"]).ok();
    assert!(
        out.stdout.ends_with("3 of 3 publications reproduce\n"),
        "{}",
        out.stdout
    );
}

// ---------------------------------------------------------------------------------------------
// bundles

const BUNDLE_FILES: [&str; 4] = [
    "README.md",
    "ledger.db",
    "publication.md",
    "session-efficiency.v2.toml",
];

fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Runs `verify --bundle DIR` from another directory, with no ledger anywhere in sight.
fn verify_bundle(dir: &Path) -> Out {
    let elsewhere = tempfile::tempdir().unwrap();
    run_raw(
        elsewhere.path(),
        &["verify".as_ref(), "--bundle".as_ref(), dir.as_os_str()],
        &[],
    )
}

#[test]
fn a_bundle_written_by_publish_verifies_in_a_fresh_directory() {
    let env = ledger();
    let dir = env.path().join("bundle");
    let out = env
        .run([
            "publish".as_ref(),
            "--wave".as_ref(),
            CHECKOUT.as_ref(),
            "--rubric".as_ref(),
            V2.as_ref(),
            "--title".as_ref(),
            TITLE.as_ref(),
            "--bundle".as_ref(),
            dir.as_os_str(),
        ])
        .ok();
    assert_contains(&out.stdout, "bundle written to");
    assert_eq!(listing(&dir), BUNDLE_FILES);
    common::ledger_bytes(&dir.join("ledger.db"));

    let output = std::fs::read_to_string(dir.join("publication.md")).unwrap();
    assert!(out.stdout.ends_with(&format!("\n\n{output}")));
    assert_eq!(
        std::fs::read(dir.join("session-efficiency.v2.toml")).unwrap(),
        std::fs::read(rubric_file("session-efficiency.v2.toml")).unwrap(),
        "the bundle's rubric file is the registered text, byte for byte"
    );
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    snapshot("audit__bundle_readme", &readme);
    assert_contains(&readme, &sha256_hex(output.as_bytes()));

    // The bundle holds only the published wave and its rubric.
    let bundle_db = dir.join("ledger.db");
    assert_eq!(
        rows(&bundle_db, "SELECT slug FROM wave"),
        vec![vec![Cell::Text(CHECKOUT.into())]]
    );
    assert_eq!(
        rows(&bundle_db, "SELECT name, version FROM rubric"),
        vec![vec![Cell::Text("session-efficiency".into()), Cell::Int(2)]]
    );
    assert_eq!(rows(&bundle_db, "SELECT * FROM attempt").len(), 5);

    // Another machine: the bundle copied into a fresh directory.
    let fresh = tempfile::tempdir().unwrap();
    let copy = fresh.path().join("copied");
    copy_dir(&dir, &copy);
    let out = verify_bundle(&copy).ok();
    assert_eq!(
        out.stdout,
        format!(
            "publication #1 \"Checkout rematch, honest efficiency\" (checkout-rematch under \
         session-efficiency@2): OK — reproduces byte for byte (output sha256 616fef8e8210)\n\
         1 of 1 publication reproduces\n\
         the bundle's ledger, against what it was derived from (as verify --ledger checks a \
         ledger):\n  \
         schema: OK — tables, CHECKs, indexes and triggers match schema.sql (version {})\n  \
         references: OK — every row names rows that exist\n  \
         waves: OK — 1 wave, each one's rows hashing to its stored content hash\n  \
         tallies: OK — 5 stored seat tallies, each what its seat's attempts add up to\n  \
         rubrics: OK — 1 registered rubric text, each hashing to its registered sha256\n  \
         prices: OK — no price table registered\n  \
         scores: OK — 0 stored scores, each equal to a rescore under its rubric\n  \
         chain: OK — 1 entry, every record and link intact\n  \
         log: OK — 3 entries, every record and link intact, each naming a row as the ledger \
         holds it; head 96dad4a7fe54e6d6a1360c8a14419db1df32465b25b9a241769d64012fa621e1 (keep \
         it outside the ledger and check it with --expect-head)\n",
            benchledger_core::ledger::schema_version()
        )
    );
    // As the README says: from inside the bundle, `verify --bundle .`.
    run_raw(&copy, &["verify", "--bundle", "."], &[]).ok();
    // Verifying leaves nothing behind.
    assert_eq!(listing(&copy), BUNDLE_FILES);
}

#[test]
fn a_bundle_of_a_chained_publication_verifies_and_notes_the_link_outside_it() {
    let env = published();
    let dir = env.path().join("bundle-2");
    let out = env
        .run([
            "bundle".as_ref(),
            "2".as_ref(),
            "--out".as_ref(),
            dir.as_os_str(),
        ])
        .ok();
    assert_contains(&out.stdout, "bundle of publication #2 written to");
    assert_eq!(listing(&dir), BUNDLE_FILES);
    let fresh = tempfile::tempdir().unwrap();
    copy_dir(&dir, fresh.path());
    let out = verify_bundle(fresh.path()).ok();
    assert_contains(
        &out.stdout,
        "publication #2 \"rca-wave-1 under session-efficiency@2\"",
    );
    assert_contains(&out.stdout, ": OK — reproduces byte for byte");
    assert_contains(
        &out.stdout,
        "note: the link to the entry before publication #2 (sha256",
    );
    // The bundle's publication is the ledger's, field for field.
    let fields = "SELECT id, title, rubric_sha256, created_at, input, input_sha256, output,
                  output_sha256, prev_sha256, sha256 FROM publication WHERE id = 2";
    assert_eq!(
        rows(&fresh.path().join("ledger.db"), fields),
        rows(&env.db, fields)
    );
}

#[test]
fn a_tampered_bundle_fails_verify_naming_the_change() {
    let env = published();
    let dir = env.path().join("bundle");
    env.run([
        "bundle".as_ref(),
        "1".as_ref(),
        "--out".as_ref(),
        dir.as_os_str(),
    ])
    .ok();
    let fresh = tempfile::tempdir().unwrap();
    copy_dir(&dir, fresh.path());
    let db = fresh.path().join("ledger.db");
    let id = attempt_id(&db, CHECKOUT, "xai-hierarchical", "checkout-outage");
    // The trigger dropped and restored word for word, so that the schema shows nothing.
    let trigger = match &rows(
        &db,
        "SELECT sql FROM sqlite_schema WHERE name = 'attempt_no_update'",
    )[0][0]
    {
        Cell::Text(sql) => sql.clone(),
        other => panic!("{other:?}"),
    };
    tamper(
        &db,
        &format!(
            "DROP TRIGGER attempt_no_update; UPDATE attempt SET wall_s = 131.0 WHERE id = {id}; \
             {trigger};"
        ),
    );
    let out = verify_bundle(fresh.path()).status(1);
    assert_contains(&out.stdout, "MISMATCH");
    assert_contains(
        &out.stdout,
        "[seat xai-hierarchical].attempts [problem checkout-outage trial 1].wall_s: 132.0 → 131.0",
    );
    assert_contains(&out.stdout, "0 of 1 publication reproduce\n");
    assert_contains(&out.stdout, "  waves: MISMATCH\n");
}

#[test]
fn a_bundle_whose_files_were_edited_fails_verify() {
    let env = published();
    let dir = env.path().join("bundle");
    env.run([
        "bundle".as_ref(),
        "1".as_ref(),
        "--out".as_ref(),
        dir.as_os_str(),
    ])
    .ok();

    // The published text a reader sees, edited.
    let edited = tempfile::tempdir().unwrap();
    copy_dir(&dir, edited.path());
    let md = edited.path().join("publication.md");
    let text = std::fs::read_to_string(&md).unwrap();
    std::fs::write(&md, text.replacen("| 75.00 |", "| 85.00 |", 1)).unwrap();
    let out = verify_bundle(edited.path()).status(1);
    assert_contains(
        &out.stdout,
        "publication.md differs from the published output (1 difference, publication.md → \
         published):\n      seat anthropic-react: session-efficiency@2 85.00 → 75.00",
    );

    // The rubric file beside it, edited.
    let edited = tempfile::tempdir().unwrap();
    copy_dir(&dir, edited.path());
    let toml = edited.path().join("session-efficiency.v2.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replace("floor = 0.25", "floor = 0.3")).unwrap();
    let out = verify_bundle(edited.path()).status(1);
    assert_contains(
        &out.stdout,
        "session-efficiency.v2.toml differs from the rubric text the publication was computed \
         with",
    );

    // A file removed.
    let edited = tempfile::tempdir().unwrap();
    copy_dir(&dir, edited.path());
    std::fs::remove_file(edited.path().join("publication.md")).unwrap();
    let out = verify_bundle(edited.path()).status(1);
    assert_contains(&out.stdout, "publication.md is missing");
}

#[test]
fn bundles_go_only_into_new_or_empty_directories() {
    let env = published();
    let dir = env.path().join("occupied");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let out = env
        .run([
            "bundle".as_ref(),
            "1".as_ref(),
            "--out".as_ref(),
            dir.as_os_str(),
        ])
        .status(2);
    assert_contains(
        &out.stderr,
        "is not empty: a bundle goes into a new or empty directory",
    );
    assert_eq!(listing(&dir), ["notes.txt"]);

    // publish --bundle checks before publishing anything.
    let out = env
        .run([
            "publish".as_ref(),
            "--wave".as_ref(),
            CHECKOUT.as_ref(),
            "--rubric".as_ref(),
            V2.as_ref(),
            "--bundle".as_ref(),
            dir.as_os_str(),
        ])
        .status(2);
    assert_contains(&out.stderr, "is not empty");
    assert_eq!(rows(&env.db, "SELECT id FROM publication").len(), 3);

    // An empty directory is fine.
    let empty = env.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    env.run([
        "bundle".as_ref(),
        "1".as_ref(),
        "--out".as_ref(),
        empty.as_os_str(),
    ])
    .ok();
    assert_eq!(listing(&empty), BUNDLE_FILES);

    let out = env
        .run([
            "bundle".as_ref(),
            "7".as_ref(),
            "--out".as_ref(),
            env.path().join("b7").as_os_str(),
        ])
        .status(2);
    assert_contains(&out.stderr, "no publication 7");
}

#[test]
fn verify_bundle_of_a_directory_without_a_ledger_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("README.md"), "not a bundle").unwrap();
    let out = verify_bundle(dir.path()).status(2);
    assert_contains(
        &out.stderr,
        "is not a benchledger bundle: it has no ledger.db",
    );
    let missing = dir.path().join("nowhere");
    let out = verify_bundle(&missing).status(2);
    assert_contains(&out.stderr, "is not a benchledger bundle");
    assert!(!missing.exists(), "verify created {}", missing.display());
}

// ---------------------------------------------------------------------------------------------
// determinism

#[test]
fn the_same_wave_published_in_two_fresh_ledgers_has_the_same_digests() {
    let publish = || {
        let env = ledger();
        let out = env
            .run([
                "publish", "--wave", CHECKOUT, "--rubric", V2, "--title", TITLE,
            ])
            .ok();
        let json = env.run(["publications", "--format", "json"]).ok().json();
        (out.stdout, json["publications"][0].clone())
    };
    let (a_out, a) = publish();
    let (b_out, b) = publish();
    assert_eq!(a["input_sha256"], b["input_sha256"]);
    assert_eq!(a["output_sha256"], b["output_sha256"]);
    assert_eq!(a["sha256"], b["sha256"]);
    assert_eq!(a_out, b_out);
    // Pinned: a change here means a published number (or its canonical input) would no
    // longer reproduce on another machine. (Publication input format 2, wave content format
    // 2: docs/formats.md. Under format 1 these were 217b400e… and fe8b8a4f…; publications made
    // then still verify, in the format they record: tests/compat.)
    assert_eq!(
        a["input_sha256"],
        "8bc276c32431c03717d466700fdcec57a76020f6a9a27d68b243a39cda59a680"
    );
    assert_eq!(
        a["output_sha256"],
        "616fef8e82107ebf47975d96f7e9a765822374aa22b677c64ea82d90c93e36a2"
    );
}

#[test]
fn publish_with_a_bundle_that_cannot_be_written_publishes_nothing() {
    let env = ledger();
    let before = env.ledger_bytes();
    // A directory no process can create: the publication must not land half-done.
    let out = env
        .run([
            "publish",
            "--wave",
            CHECKOUT,
            "--rubric",
            V2,
            "--bundle",
            "/proc/benchledger-cannot-write-here/bundle",
        ])
        .status(2);
    assert_contains(&out.stderr, "/proc/benchledger-cannot-write-here/bundle");
    assert_eq!(env.ledger_bytes(), before, "nothing was published");
    let json = env.run(["publications", "--format", "json"]).ok().json();
    assert_eq!(json["publications"].as_array().map(Vec::len), Some(0));
}

#[test]
fn diff_of_a_relative_rubric_shows_ranks_only() {
    let env = waves_only();
    // A second version of the cohort rubric, reweighted.
    let v2 = env.path().join("cohort-efficiency.v2.toml");
    let text = std::fs::read_to_string(rubric_file("cohort-efficiency.v1.toml"))
        .unwrap()
        .replace("version = 1", "version = 2")
        .replace("weight = 0.10", "weight = 0.30");
    std::fs::write(&v2, text).unwrap();
    let v1 = rubric_file("cohort-efficiency.v1.toml");
    let out = env
        .run([
            "diff".as_ref(),
            v1.as_os_str(),
            v2.as_os_str(),
            "--format".as_ref(),
            "json".as_ref(),
        ])
        .ok();
    let json = out.json();
    let rows = json["rows"].as_array().unwrap();
    assert!(!rows.is_empty());
    for r in rows {
        assert!(
            r["old"].is_null() && r["new"].is_null() && r["delta"].is_null(),
            "{r}"
        );
        assert!(r["old_rank"].is_u64() && r["new_rank"].is_u64(), "{r}");
    }
    assert_eq!(json["summary"]["largest_shifts"], serde_json::json!([]));
    let table = env
        .run(["diff".as_ref(), v1.as_os_str(), v2.as_os_str()])
        .ok();
    assert_contains(&table.stdout, "it is shown only as a rank inside each wave");
    assert!(!table.stdout.contains("1.375"), "{}", table.stdout);
}

/// The record hashes of a chain published with a fixed clock, pinned from the build before the
/// library moved into its own crate (benchledger-core): how a publication is rendered, digested
/// and chained must not change when the code that does it moves. #4 carries a claims section
/// and a price table, so the claims render and the priced leaderboard are pinned too.
#[test]
fn publication_record_hashes_are_pinned_across_refactors() {
    let env = published();
    env.run([
        Path::new("prices"),
        Path::new("add"),
        &crate_path("prices/example-list.v1.toml"),
    ])
    .ok();
    let claims = env.path().join("paper.toml");
    std::fs::write(
        &claims,
        "name = \"paper\"\nversion = 1\nsource = \"a paper\"\n\n\
         [[claim]]\nwave = \"rca-wave-1\"\nseat = \"anthropic-react\"\nfigure = \"accuracy\"\n\
         value = 50.0\nscale = 100\ndecimals = 1\ncorrect = 2\nof = 4\n\n\
         [[claim]]\nwave = \"rca-wave-1\"\nseat = \"anthropic-react\"\n\
         figure = \"cost_of_pass_usd\"\nvalue = 0.91\ndecimals = 2\n",
    )
    .expect("writing the claims file");
    env.run([
        Path::new("publish"),
        Path::new("--wave"),
        Path::new("rca-wave-1"),
        Path::new("--rubric"),
        Path::new(V2),
        Path::new("--prices"),
        Path::new("example-list@1"),
        Path::new("--claims"),
        &claims,
    ])
    .ok();
    let list = env.run(["publications", "--format", "json"]).ok().json();
    let hashes: Vec<&str> = list["publications"]
        .as_array()
        .expect("a list of publications")
        .iter()
        .map(|p| p["sha256"].as_str().expect("a record hash"))
        .collect();
    assert_eq!(hashes, PINNED_RECORD_HASHES);
}

const PINNED_RECORD_HASHES: [&str; 4] = [
    "08767e5415b644b5f9e0ec438f2a788032bb718cb1a65f941d2755c1071322bb",
    "63e3f3f060b0d7220567826d4824d5a8e5dab42a939f62f4bb541d26743612b7",
    "cfe901373d08ed7b6ff2ac5eff6b2f65449ea5e66dfeb92800691c89b50cbd19",
    "4e4b514fbd27a9798042d13b03c7b4eed2b95694f0eca1b4c119b8981e9ea17b",
];

/// Issue 23, #8: the characters HTML gives meaning to, in any user string a publication shows
/// (its title, the suite, the wave's notes, a seat's model, provider and harness, a problem),
/// are written as character references in publication format 2, so a renderer that passes HTML
/// through shows them as text; the publication verifies; a wave without such characters is
/// still published in format 1, byte for byte as before (the pinned record hashes above).
#[test]
fn published_markdown_escapes_html_in_every_user_string_in_format_2() {
    let env = Env::init();
    let evil = "<img src=x onerror=alert(1)>";
    let manifest = format!(
        "[wave]\nid = \"html\"\nsuite = \"s {evil}\"\nstarted_at = 2026-05-01T00:00:00Z\n\
         notes = \"n <a href=\\\"javascript:alert(1)\\\">x</a> & more\"\n\n\
         [wave.accounting]\ninput_tokens_include_cache_reads = false\n\n\
         [[seat]]\nid = \"a\"\nmodel = \"m {evil}\"\nprovider = \"p&q\"\nharness = \"h<b>\"\n\
         results = \"a.jsonl\"\n"
    );
    let results = "{\"problem\":\"p1\",\"correct\":true,\"input_tokens\":10,\"output_tokens\":5,\
                   \"wall_s\":1,\"cost_usd\":0.5}\n";
    let path = common::write_wave(&env.path().join("w"), &manifest, &[("a.jsonl", results)]);
    env.ingest(&[&path]);
    env.run([
        OsStr::new("rubric"),
        OsStr::new("add"),
        crate_path("rubrics/session-efficiency.v2.toml").as_os_str(),
    ])
    .ok();
    let out = env.path().join("out.md");
    env.run([
        OsStr::new("publish"),
        OsStr::new("--wave"),
        OsStr::new("html"),
        OsStr::new("--rubric"),
        OsStr::new("session-efficiency@2"),
        OsStr::new("--title"),
        OsStr::new("Title <script>alert(1)</script>"),
        OsStr::new("--out"),
        out.as_os_str(),
    ])
    .ok();
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("\nPublication format 2.\n"), "{text}");
    for raw in ["<img", "<script", "<a ", "<b>", "&q", "& more"] {
        assert!(!text.contains(raw), "{raw} is in:\n{text}");
    }
    assert!(text.starts_with("# Title &lt;script&gt;alert(1)&lt;/script&gt;\n"));
    snapshot("publication_format_2_html_escaped", &text);
    let verified = env.run(["verify", "--all"]).ok();
    assert!(
        verified.stdout.contains("1 of 1 publication reproduces"),
        "{}",
        verified.stdout
    );
}
