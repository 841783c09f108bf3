//! Trust over time: the chain anchored by a head kept outside the ledger (`publications
//! --head`, `verify --expect-head`), everything stored checked against what it was derived
//! from (`verify --ledger`), and corrections without rewriting history (`withdraw`).
//!
//! Each forgery is done as someone with the sqlite3 shell would: drop the triggers in the way,
//! edit, close. `verify --all` alone cannot see some of them (the last publication deleted, a
//! chain forged from some point on, an unpublished wave edited); the head or `--ledger` must.

mod common;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use common::{Env, Out, tests_dir};

fn crate_path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// The four example waves, session-efficiency v2 registered and rescored, and two
/// publications: #1 checkout-rematch, #2 rca-wave-1.
fn published() -> Env {
    let env = Env::init();
    let mut manifests: Vec<PathBuf> = std::fs::read_dir(crate_path("examples"))
        .unwrap()
        .map(|e| e.unwrap().path().join("wave.toml"))
        .filter(|p| p.is_file())
        .collect();
    manifests.sort();
    let refs: Vec<&Path> = manifests.iter().map(PathBuf::as_path).collect();
    env.ingest(&refs);
    env.run([
        OsStr::new("rubric"),
        OsStr::new("add"),
        crate_path("rubrics/session-efficiency.v2.toml").as_os_str(),
    ])
    .ok();
    env.run(["rescore", "--rubric", "session-efficiency@2"])
        .ok();
    env.run([
        "publish",
        "--wave",
        "checkout-rematch",
        "--rubric",
        "session-efficiency@2",
    ])
    .ok();
    env.run([
        "publish",
        "--wave",
        "rca-wave-1",
        "--rubric",
        "session-efficiency@2",
    ])
    .ok();
    env
}

/// Edits a ledger behind benchledger's back.
fn tamper(db: &Path, sql: &str) {
    common::Shell::at(db).tamper(sql);
}

/// The text column of each row of a query.
fn texts(env: &Env, sql: &str) -> Vec<String> {
    env.rows(sql)
        .into_iter()
        .map(|r| match r.as_slice() {
            [common::Cell::Text(t)] => t.clone(),
            other => panic!("{other:?}"),
        })
        .collect()
}

fn head(env: &Env) -> String {
    let out = env.run(["publications", "--head"]).ok();
    let h = out.stdout.trim().to_string();
    assert_eq!(h.len(), 64, "{out:?}");
    assert!(h.bytes().all(|b| b.is_ascii_hexdigit()), "{h}");
    h
}

#[track_caller]
fn contains(out: &Out, needle: &str) {
    assert!(
        out.stdout.contains(needle) || out.stderr.contains(needle),
        "expected {needle:?} in {out:#?}"
    );
}

/// The head is the chain's last entry: after a publication, its log entry, which names the
/// publication's record hash.
#[test]
fn the_head_is_the_last_entry_and_an_empty_chain_has_none() {
    let env = Env::init();
    let out = env.run(["publications", "--head"]).status(2);
    contains(&out, "the chain of");
    contains(&out, "is empty");
    let env = published();
    let h = head(&env);
    let list = env.run(["publications", "--format", "json"]).ok().json();
    assert_eq!(list["head"], h.as_str());
    let last = env.rows(
        "SELECT kind, subject, subject_sha256, sha256 FROM chain_entry ORDER BY seq DESC LIMIT 1",
    );
    let record = list["publications"][1]["sha256"].as_str().unwrap();
    assert_eq!(
        last,
        [[
            common::Cell::Text("publication".into()),
            common::Cell::Text("2".into()),
            common::Cell::Text(record.into()),
            common::Cell::Text(h.clone()),
        ]]
    );
    let out = env.run(["verify", "--expect-head", &h]).ok();
    contains(&out, &format!("chain head: OK — the chain ends at {h}"));
    // The last publication's record hash is not the head: its log entry came after it.
    let out = env.run(["verify", "--expect-head", record]).status(1);
    contains(
        &out,
        &format!("{record} is the record hash of a publication, not a head"),
    );
    // Not a hash at all: bad input.
    let out = env.run(["verify", "--expect-head", "HEAD"]).status(2);
    contains(&out, "is not a record hash");
}

#[test]
fn deleting_the_last_publication_fails_the_expected_head() {
    let env = published();
    let h = head(&env);
    tamper(
        &env.db,
        "DROP TRIGGER publication_no_delete; DROP TRIGGER publication_claims_no_delete;
         DELETE FROM publication_claims WHERE publication_id = 2;
         DELETE FROM publication WHERE id = 2;",
    );
    // What remains of the publications is a consistent chain; the log still names the one
    // deleted, at the head.
    env.run(["verify", "--all"]).ok();
    let out = env.run(["verify", "--all", "--expect-head", &h]).status(1);
    contains(&out, "chain head: MISMATCH");
    contains(
        &out,
        "(publication #2 published): publication #2 is not in the ledger, though the log \
         recorded it on",
    );
    env.run(["verify", "--ledger"]).status(1);
    // Its log entry deleted too: only the head kept outside shows the loss.
    tamper(
        &env.db,
        "DROP TRIGGER chain_entry_no_delete;
         DELETE FROM chain_entry WHERE kind = 'publication' AND subject = '2';",
    );
    // (verify --ledger names the dropped triggers, and nothing else.)
    env.run(["verify", "--all"]).ok();
    contains(&env.run(["verify", "--ledger"]).status(1), "  log: OK");
    let out = env.run(["verify", "--all", "--expect-head", &h]).status(1);
    contains(&out, "is nowhere in it");
    tamper(
        &env.db,
        "DELETE FROM publication_claims; DELETE FROM publication; DELETE FROM chain_entry;",
    );
    let out = env.run(["verify", "--expect-head", &h]).status(1);
    contains(&out, "the chain is empty, but it was expected to end at");
}

#[test]
fn a_head_that_is_no_longer_last_names_what_came_after() {
    let env = published();
    let h = head(&env);
    env.run([
        "publish",
        "--wave",
        "prices-csv",
        "--rubric",
        "session-efficiency@2",
    ])
    .ok();
    let out = env.run(["verify", "--expect-head", &h]).status(1);
    contains(&out, "1 entry came after it");
    contains(&out, "keep the new head instead");
}

#[test]
fn a_full_forgery_with_old_times_fails_the_expected_head() {
    let env = published();
    let h = head(&env);
    let times = texts(&env, "SELECT created_at FROM publication ORDER BY id");
    // Edit the data of the second publication's wave, delete that publication and its log
    // entry, and publish it again at its old time: every hash is recomputed and consistent.
    tamper(
        &env.db,
        "DROP TRIGGER attempt_no_update; DROP TRIGGER publication_no_delete;
         DROP TRIGGER publication_claims_no_delete; DROP TRIGGER chain_entry_no_delete;
         UPDATE attempt SET correct = true WHERE seat_id IN
           (SELECT s.id FROM seat s JOIN wave w ON w.id = s.wave_id WHERE w.slug = 'rca-wave-1');
         DELETE FROM publication_claims WHERE publication_id = 2;
         DELETE FROM publication WHERE id = 2;
         DELETE FROM chain_entry WHERE kind = 'publication' AND subject = '2';",
    );
    let out = common::run_raw(
        env.path(),
        &[
            "--db",
            env.db.to_str().unwrap(),
            "publish",
            "--wave",
            "rca-wave-1",
            "--rubric",
            "session-efficiency@2",
        ],
        &[("BENCHLEDGER_NOW", OsStr::new(&times[1]))],
    );
    assert_eq!(out.status, 0, "{out:#?}");
    env.run(["verify", "--all"]).ok();
    let out = env.run(["verify", "--all", "--expect-head", &h]).status(1);
    contains(&out, "is nowhere in it");
    // And the edited wave's rows no longer match the hash it was ingested with.
    let out = env.run(["verify", "--ledger"]).status(1);
    contains(
        &out,
        "wave rca-wave-1: its rows no longer hash to the content hash",
    );
}

#[test]
fn verify_ledger_passes_on_an_honest_ledger_and_names_what_it_checked() {
    let env = published();
    let out = env.run(["verify", "--ledger"]).ok();
    contains(&out, "schema: OK");
    contains(
        &out,
        "waves: OK — 4 waves, each one's rows hashing to its stored content hash",
    );
    contains(
        &out,
        "rubrics: OK — 1 registered rubric text, each hashing to its registered sha256",
    );
    contains(
        &out,
        "scores: OK — 21 stored scores, each equal to a rescore under its rubric",
    );
    contains(&out, "chain: OK — 2 entries");
}

#[test]
fn an_edited_stored_score_fails_verify_ledger() {
    let env = published();
    tamper(
        &env.db,
        "UPDATE score SET score = 99.5 WHERE seat_id =
           (SELECT s.id FROM seat s JOIN wave w ON w.id = s.wave_id
            WHERE w.slug = 'checkout-rematch' AND s.slug = 'anthropic-react');",
    );
    let out = env.run(["verify", "--ledger"]).status(1);
    contains(
        &out,
        "rubric session-efficiency@2, wave checkout-rematch, seat anthropic-react: score 99.5 \
         stored, 75 on rescoring",
    );
    // Publications are not what changed.
    env.run(["verify", "--all"]).ok();
    let out = env.run(["verify", "--ledger"]).status(1);
    contains(&out, "verify: the ledger does not hold what it should");
    tamper(&env.db, "DELETE FROM score WHERE rank = 1;");
    let out = env.run(["verify", "--ledger"]).status(1);
    contains(&out, "its stored score is missing");
}

#[test]
fn an_edited_unpublished_wave_fails_verify_ledger() {
    let env = published();
    tamper(
        &env.db,
        "DROP TRIGGER attempt_no_update;
         UPDATE attempt SET wall_s = wall_s / 2 WHERE seat_id IN
           (SELECT s.id FROM seat s JOIN wave w ON w.id = s.wave_id WHERE w.slug = 'rca-wave-2');",
    );
    env.run(["verify", "--all"]).ok();
    let out = env.run(["verify", "--ledger"]).status(1);
    contains(
        &out,
        "wave rca-wave-2: its rows no longer hash to the content hash",
    );
    contains(&out, "trigger `attempt_no_update` is missing");
}

#[test]
fn dropped_triggers_fail_verify_ledger_and_init() {
    let env = published();
    let pg = common::postgres_backend();
    let triggers = texts(
        &env,
        if pg {
            "SELECT tgname::text FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname"
        } else {
            "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name"
        },
    );
    // Every frozen table refuses UPDATE and DELETE (and, on PostgreSQL, TRUNCATE); migration 10
    // added seat_display_name's and attempt_origin's, 11 chain_entry's, 13 submission_rules'
    // and wave_review's, 14 attempt_text's.
    assert_eq!(triggers.len(), if pg { 57 } else { 38 }, "{triggers:?}");
    let drops: String = triggers
        .iter()
        .map(|t| format!("DROP TRIGGER {t};"))
        .collect();
    tamper(&env.db, &drops);
    let out = env.run(["verify", "--ledger"]).status(1);
    // Each is named, up to the section's first 50 problems; the rest are counted.
    let named = triggers
        .iter()
        .filter(|t| out.stdout.contains(&format!("trigger `{t}` is missing")))
        .count();
    let more = triggers.len() - named;
    assert!(named >= 38.min(triggers.len()), "{}", out.stdout);
    if more > 0 {
        contains(&out, &format!("… and {more} more"));
    }
    let out = env.run(["init"]).status(1);
    contains(&out, "its schema differs from schema.sql");
    contains(
        &out,
        "`benchledger verify --all --ledger` names what changed",
    );
    // A changed CHECK is a changed table.
    let env = published();
    if pg {
        tamper(
            &env.db,
            "ALTER TABLE attempt DROP CONSTRAINT attempt_wall_s_check",
        );
        let out = env.run(["verify", "--ledger"]).status(1);
        contains(&out, "constraint `attempt.attempt_wall_s_check` is missing");
        // A trigger switched off is as good as dropped.
        let env = published();
        tamper(
            &env.db,
            "ALTER TABLE attempt DISABLE TRIGGER attempt_no_update",
        );
        let out = env.run(["verify", "--ledger"]).status(1);
        contains(&out, "trigger `attempt_no_update` is disabled");
        return;
    }
    tamper(
        &env.db,
        "PRAGMA writable_schema = ON;
         UPDATE sqlite_master SET sql = replace(sql, 'CHECK (wall_s >= 0)', '')
          WHERE name = 'attempt';",
    );
    let out = env.run(["verify", "--ledger"]).status(1);
    contains(&out, "table `attempt` differs from schema.sql");
}

#[test]
fn a_junk_now_is_refused_before_anything_is_written() {
    let env = published();
    let before = env.ledger_bytes();
    let out = common::run_raw(
        env.path(),
        &[
            "--db",
            env.db.to_str().unwrap(),
            "publish",
            "--wave",
            "prices-csv",
            "--rubric",
            "session-efficiency@2",
        ],
        &[("BENCHLEDGER_NOW", OsStr::new("yesterday\", \"x\": \"y"))],
    );
    assert_eq!(out.status, 2, "{out:#?}");
    assert!(
        out.stderr.contains("BENCHLEDGER_NOW=") && out.stderr.contains("RFC 3339"),
        "{out:#?}"
    );
    assert_eq!(env.ledger_bytes(), before);
    // A valid time in another offset is written in UTC.
    let out = common::run_raw(
        env.path(),
        &[
            "--db",
            env.db.to_str().unwrap(),
            "withdraw",
            "prices-csv",
            "--reason",
            "test",
        ],
        &[("BENCHLEDGER_NOW", OsStr::new("2026-12-01T02:00:00+02:00"))],
    );
    assert_eq!(out.status, 0, "{out:#?}");
    let list = env.run(["publications", "--format", "json"]).ok().json();
    assert_eq!(list["head"].as_str().map(str::len), Some(64));
    let out = env.run(["waves"]).ok();
    contains(&out, "withdrawn on 2026-12-01T00:00:00Z: test");
}

#[test]
fn a_withdrawn_wave_leaves_the_leaderboards_and_its_publication_still_verifies() {
    let env = published();
    let h0 = head(&env);
    let out = env
        .run([
            "withdraw",
            "checkout-rematch",
            "--reason",
            "budget was 10x too high",
        ])
        .ok();
    contains(
        &out,
        "withdrew wave checkout-rematch: budget was 10x too high",
    );
    let h1 = head(&env);
    assert_ne!(h0, h1);

    left_out_of_the_leaderboards(&env);

    // Its publication still verifies, listed as withdrawn; the withdrawal is in the chain.
    let out = env.run(["verify", "--all", "--expect-head", &h1]).ok();
    contains(&out, "publication #1");
    contains(
        &out,
        "withdrawal #1 of wave checkout-rematch: OK — withdrawn on 2026-11-30T00:00:00Z: budget \
         was 10x too high",
    );
    contains(&out, "2 of 2 publications reproduce");
    let list = env.run(["publications", "--format", "json"]).ok().json();
    assert_eq!(
        list["publications"][0]["withdrawn"]["reason"],
        "budget was 10x too high"
    );
    assert_eq!(
        list["publications"][1]["withdrawn"],
        serde_json::Value::Null
    );
    let out = env.run(["publications"]).ok();
    contains(&out, "#1: wave checkout-rematch was withdrawn on");
    env.run(["verify", "--ledger"]).ok();

    // Once only.
    let out = env
        .run(["withdraw", "checkout-rematch", "--reason", "again"])
        .status(2);
    contains(&out, "was already withdrawn on 2026-11-30T00:00:00Z");
    let out = env
        .run(["withdraw", "rca-wave-2", "--reason", "  "])
        .status(2);
    contains(&out, "--reason is empty");

    // The next publication chains to the withdrawal.
    env.run([
        "publish",
        "--wave",
        "prices-csv",
        "--rubric",
        "session-efficiency@2",
    ])
    .ok();
    let list = env.run(["publications", "--format", "json"]).ok().json();
    let withdrawal = texts(&env, "SELECT sha256 FROM withdrawal");
    assert_eq!(
        list["publications"][2]["prev_sha256"],
        withdrawal[0].as_str()
    );
    env.run(["verify", "--all", "--ledger"]).ok();
}

/// After checkout-rematch is withdrawn: left out of score, rescore, history and diff by default,
/// refused when named by score, compare and publish, shown marked when asked for.
fn left_out_of_the_leaderboards(env: &Env) {
    // Left out by default, refused when named, shown marked when asked for.
    let out = env
        .run([
            "score",
            "--wave",
            "checkout-rematch",
            "--rubric",
            "session-efficiency@2",
        ])
        .status(2);
    contains(&out, "wave checkout-rematch was withdrawn on");
    contains(&out, "--include-withdrawn");
    let out = env
        .run([
            "score",
            "--wave",
            "checkout-rematch",
            "--rubric",
            "session-efficiency@2",
            "--include-withdrawn",
            "--format",
            "json",
        ])
        .ok()
        .json();
    assert_eq!(out["withdrawn"][0]["wave"], "checkout-rematch");
    assert_eq!(out["withdrawn"][0]["reason"], "budget was 10x too high");
    assert_eq!(out["seats"].as_array().unwrap().len(), 5);
    let out = env
        .run(["rescore", "--rubric", "session-efficiency@2"])
        .ok();
    contains(&out, "rescored 3 waves");
    contains(&out, "left out 1 withdrawn wave: checkout-rematch");
    let hist = env
        .run([
            "history",
            "--rubric",
            "session-efficiency@2",
            "--format",
            "json",
        ])
        .ok()
        .json();
    let waves: Vec<&str> = hist["waves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["wave"].as_str().unwrap())
        .collect();
    assert!(!waves.contains(&"checkout-rematch"), "{waves:?}");
    let out = env
        .run([
            "history",
            "--rubric",
            "session-efficiency@2",
            "--include-withdrawn",
        ])
        .ok();
    contains(&out, "Wave checkout-rematch was withdrawn on");
    let out = env
        .run([
            "diff",
            "session-efficiency@2",
            "session-efficiency@2",
            "--format",
            "json",
        ])
        .ok()
        .json();
    assert!(
        !out["rows"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["wave"] == "checkout-rematch")
    );
    let out = env
        .run([
            "compare",
            "--seat",
            "xai-hierarchical",
            "checkout-rematch",
            "rca-wave-1",
        ])
        .status(2);
    contains(&out, "was withdrawn on");
    let out = env
        .run([
            "publish",
            "--wave",
            "checkout-rematch",
            "--rubric",
            "session-efficiency@2",
        ])
        .status(2);
    contains(&out, "a withdrawn wave is not published");
}

#[test]
fn an_edited_or_deleted_withdrawal_is_caught() {
    let env = published();
    env.run(["withdraw", "rca-wave-1", "--reason", "broken harness"])
        .ok();
    let h = head(&env);
    tamper(
        &env.db,
        "DROP TRIGGER withdrawal_no_update;
         UPDATE withdrawal SET reason = 'nothing to see' WHERE id = 1;",
    );
    let out = env.run(["verify", "--all"]).status(1);
    contains(&out, "withdrawal #1 of wave rca-wave-1: MISMATCH");
    contains(&out, "the withdrawal record was edited");
    env.run(["verify", "--ledger"]).status(1);
    tamper(
        &env.db,
        "DROP TRIGGER withdrawal_no_delete; DELETE FROM withdrawal;",
    );
    // The wave is back on the leaderboards; its log entry shows it is gone.
    env.run(["verify", "--all"]).ok();
    let out = env.run(["verify", "--expect-head", &h]).status(1);
    contains(
        &out,
        "(withdrawal #1 made): withdrawal #1 is not in the ledger, though the log recorded it",
    );
    // And with its log entry deleted, only the head kept outside.
    tamper(
        &env.db,
        "DROP TRIGGER chain_entry_no_delete;
         DELETE FROM chain_entry WHERE kind = 'withdrawal';",
    );
    env.run(["verify", "--all"]).ok();
    contains(&env.run(["verify", "--ledger"]).status(1), "  log: OK");
    let out = env.run(["verify", "--expect-head", &h]).status(1);
    contains(&out, "is nowhere in it");
}

#[test]
fn the_v1_fixture_passes_every_check_and_its_head_is_where_it_was_written() {
    // The fixture is an SQLite file, as it was written.
    let env = Env::sqlite();
    std::fs::copy(tests_dir("compat/v1/ledger.db"), &env.db).unwrap();
    let out = env
        .run([
            "verify",
            "--all",
            "--ledger",
            "--expect-head",
            "03bd298b61678947c805dd2673584b2e1cec40c9b3515ac1360acc3be6c40e82",
        ])
        .ok();
    contains(&out, "4 of 4 publications reproduce");
    contains(
        &out,
        "scores: OK — 60 stored scores, each equal to a rescore under its rubric",
    );
}

#[test]
fn a_relabelled_rubric_is_caught_by_verify_and_verify_ledger() {
    let env = published();
    tamper(
        &env.db,
        "DROP TRIGGER rubric_no_update; UPDATE rubric SET name = 'generous', version = 9;",
    );
    let out = env.run(["verify", "--all"]).status(1);
    contains(
        &out,
        "rubric session-efficiency@2: the ledger names it generous@9, but its text declares \
         session-efficiency@2",
    );
    let out = env.run(["verify", "--ledger"]).status(1);
    contains(&out, "the ledger names it generous@9");
}

/// A small wave directory: one seat, two problems, under `id`, optionally superseding `old`.
fn small_wave(env: &Env, dir: &str, id: &str, supersedes: Option<&str>, wall: f64) -> PathBuf {
    let sup = supersedes.map_or(String::new(), |o| format!("supersedes = \"{o}\"\n"));
    common::write_wave(
        &env.path().join(dir),
        &format!(
            "[wave]\nid = \"{id}\"\nsuite = \"s\"\nstarted_at = 2026-05-01T00:00:00Z\n{sup}\n\
             [wave.accounting]\ninput_tokens_include_cache_reads = false\n\n\
             [wave.budget]\ntokens = 1000\nwall_s = 60\n\n\
             [[seat]]\nid = \"a\"\nmodel = \"m\"\nprovider = \"p\"\nharness = \"h\"\n\
             results = \"a.jsonl\"\n"
        ),
        &[(
            "a.jsonl",
            &format!(
                "{{\"problem\":\"p1\",\"correct\":true,\"input_tokens\":100,\"output_tokens\":10,\"wall_s\":{wall}}}\n"
            ),
        )],
    )
}

#[test]
fn a_corrected_wave_supersedes_the_old_one_in_the_same_ingest() {
    let env = Env::init();
    let old = small_wave(&env, "old", "w-old", None, 30.0);
    env.ingest(&[&old]);
    // The ingest is in the log: the chain has a head.
    let head_before = head(&env);

    // Bad references are refused and nothing is written.
    let before = env.ledger_bytes();
    let missing = small_wave(&env, "missing", "w-new", Some("w-nope"), 3.0);
    let out = env
        .run([OsStr::new("ingest"), missing.as_os_str()])
        .status(2);
    contains(&out, "the ledger has no wave `w-nope`");
    assert_eq!(env.ledger_bytes(), before);
    let itself = small_wave(&env, "self", "w-new", Some("w-new"), 3.0);
    let out = env
        .run([OsStr::new("ingest"), itself.as_os_str()])
        .status(2);
    contains(&out, "field `supersedes`: a wave cannot supersede itself");
    assert_eq!(env.ledger_bytes(), before);

    let new = small_wave(&env, "new", "w-new", Some("w-old"), 3.0);
    env.ingest(&[&new]);
    // The new wave's ingest, then the old one's withdrawal, in the log.
    let kinds = texts(&env, "SELECT kind FROM chain_entry ORDER BY seq");
    assert_eq!(kinds, ["ingest", "ingest", "withdrawal"]);
    assert_ne!(head(&env), head_before);
    let waves = env.run(["waves", "--format", "json"]).ok().json();
    assert_eq!(waves["withdrawn"][0]["wave"], "w-old");
    assert_eq!(waves["withdrawn"][0]["superseded_by"], "w-new");
    assert_eq!(waves["withdrawn"][0]["reason"], "superseded by wave w-new");
    let listed: Vec<(&str, &serde_json::Value)> = waves["waves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w["wave"].as_str().unwrap(), &w["supersedes"]))
        .collect();
    assert_eq!(
        listed,
        [
            ("w-new", &serde_json::json!("w-old")),
            ("w-old", &serde_json::Value::Null)
        ]
    );
    env.run(["verify", "--all", "--ledger"]).ok();
    let h = head(&env);

    // Re-ingesting the corrected manifest is a no-op; the same results claiming otherwise are
    // refused; a second correction of the same wave is refused.
    let out = env.ingest(&[&new]);
    contains(&out, "already in the ledger with the same content");
    assert_eq!(head(&env), h);
    let plain = small_wave(&env, "plain", "w-new", None, 3.0);
    let out = env.run([OsStr::new("ingest"), plain.as_os_str()]).status(2);
    contains(&out, "it supersedes `w-old` while this manifest names none");
    let again = small_wave(&env, "again", "w-newer", Some("w-old"), 2.0);
    let out = env.run([OsStr::new("ingest"), again.as_os_str()]).status(2);
    contains(&out, "`w-old` is already superseded by `w-new`");
    assert_eq!(head(&env), h);

    // The old wave is off the leaderboards.
    env.run([
        OsStr::new("rubric"),
        OsStr::new("add"),
        crate_path("rubrics/session-efficiency.v2.toml").as_os_str(),
    ])
    .ok();
    let out = env
        .run([
            "score",
            "--wave",
            "w-old",
            "--rubric",
            "session-efficiency@2",
        ])
        .status(2);
    contains(&out, "wave w-old was superseded by w-new on");
}

#[test]
fn rescore_all_stores_what_each_rubric_stores_alone() {
    // Every shipped rubric registered, rescored one at a time, and the stored rows kept.
    let env = Env::init();
    let mut manifests: Vec<PathBuf> = std::fs::read_dir(crate_path("examples"))
        .unwrap()
        .map(|e| e.unwrap().path().join("wave.toml"))
        .filter(|p| p.is_file())
        .collect();
    manifests.sort();
    let refs: Vec<&Path> = manifests.iter().map(PathBuf::as_path).collect();
    env.ingest(&refs);
    let mut rubrics: Vec<PathBuf> = std::fs::read_dir(crate_path("rubrics"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    rubrics.sort();
    let mut add: Vec<&OsStr> = vec![OsStr::new("rubric"), OsStr::new("add")];
    add.push(OsStr::new("--allow-scale-violation"));
    add.extend(rubrics.iter().map(|p| p.as_os_str()));
    env.run(add).ok();
    // Each stored score: rubric, seat, score, rank, factors.
    let stored = |env: &Env| {
        env.rows(
            "SELECT r.name || '@' || r.version, s.slug, sc.score, sc.rank, sc.factors
             FROM score sc JOIN rubric r ON r.id = sc.rubric_id JOIN seat s ON s.id = sc.seat_id
             ORDER BY 1, s.id",
        )
    };
    let list = env.run(["rubric", "list", "--format", "json"]).ok().json();
    let ids: Vec<String> = list["rubrics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["rubric"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), rubrics.len());
    for id in &ids {
        env.run(["rescore", "--rubric", id]).ok();
    }
    let one_by_one = stored(&env);
    assert!(!one_by_one.is_empty());
    // Clear them, then rescore every rubric in one pass.
    tamper(&env.db, "DELETE FROM score;");
    let out = env.run(["rescore", "--all"]).ok();
    contains(
        &out,
        &format!("under {} registered rubrics in one pass", ids.len()),
    );
    assert_eq!(stored(&env), one_by_one);
    env.run(["verify", "--ledger"]).ok();
    let out = env.run(["rescore", "--all", "--rubric", "x@1"]).status(2);
    contains(&out, "cannot be used with");
    let empty = Env::init();
    let out = empty.run(["rescore", "--all"]).status(2);
    contains(&out, "no rubric is registered");
}

/// The stored score of one seat of one wave under session-efficiency v2.
fn stored_score(env: &Env, wave: &str, seat: &str) -> Vec<Vec<common::Cell>> {
    env.rows(&format!(
        "SELECT sc.score, sc.factors FROM score sc JOIN seat s ON s.id = sc.seat_id
         JOIN wave w ON w.id = s.wave_id WHERE w.slug = '{wave}' AND s.slug = '{seat}'"
    ))
}

#[test]
fn rescore_reads_the_stored_seat_tallies_and_verify_ledger_catches_an_edited_one() {
    let env = published();
    let before = stored_score(&env, "checkout-rematch", "anthropic-react");
    let leader = stored_score(&env, "checkout-rematch", "xai-hierarchical");
    assert_ne!(before, leader);
    env.run(["verify", "--ledger"]).ok();
    // One seat's tally replaced by another's: well formed, and wrong.
    tamper(
        &env.db,
        "DROP TRIGGER seat_tally_no_update;
         UPDATE seat_tally SET tally = (SELECT t.tally FROM seat_tally t JOIN seat s
             ON s.id = t.seat_id JOIN wave w ON w.id = s.wave_id
             WHERE w.slug = 'checkout-rematch' AND s.slug = 'xai-hierarchical')
         WHERE seat_id = (SELECT s.id FROM seat s JOIN wave w ON w.id = s.wave_id
             WHERE w.slug = 'checkout-rematch' AND s.slug = 'anthropic-react');",
    );
    // A rescore under a rubric that reads nothing but figures takes the tally for the
    // attempts: the edit shows in the stored score...
    env.run(["rescore", "--rubric", "session-efficiency@2"])
        .ok();
    assert_eq!(
        stored_score(&env, "checkout-rematch", "anthropic-react"),
        leader
    );
    // ... and verify --ledger names the tally, and the score it made.
    let out = env.run(["verify", "--ledger"]).status(1);
    contains(
        &out,
        "wave checkout-rematch, seat anthropic-react: its stored tally is not what its attempts \
         add up to",
    );
    contains(
        &out,
        "rubric session-efficiency@2, wave checkout-rematch, seat anthropic-react: score",
    );
    // Publications recompute from the attempts, never from tallies.
    env.run(["verify", "--all"]).ok();
    // A tally that does not read is not used, and verify --ledger says so (the trigger that
    // would refuse the edit was dropped above).
    tamper(
        &env.db,
        "UPDATE seat_tally SET tally = '{}' WHERE seat_id = (SELECT s.id FROM seat s
             JOIN wave w ON w.id = s.wave_id
             WHERE w.slug = 'checkout-rematch' AND s.slug = 'xai-hierarchical');",
    );
    let out = env.run(["verify", "--ledger"]).status(1);
    contains(
        &out,
        "wave checkout-rematch, seat xai-hierarchical: its stored tally does not read",
    );
    contains(
        &out,
        "this one holds none), so a rescore reads its attempts instead",
    );
    env.run(["rescore", "--rubric", "session-efficiency@2"])
        .ok();
    assert_eq!(
        stored_score(&env, "checkout-rematch", "xai-hierarchical"),
        leader
    );
}

#[test]
fn a_ledger_from_before_seat_tallies_gets_them_on_its_first_rescore_with_the_same_scores() {
    // The fixture was written before tallies were kept: opened, it is migrated, with none.
    let env = Env::sqlite();
    std::fs::copy(tests_dir("compat/v1/ledger.db"), &env.db).unwrap();
    let out = env.run(["verify", "--ledger"]).ok();
    contains(
        &out,
        "tallies: OK — 0 stored seat tallies, each what its seat's attempts add up to; 15 seats \
         have none (ingested before tallies were kept: a rescore reads their attempts)",
    );
    let scores = "SELECT r.name, r.version, s.slug, sc.score, sc.rank, sc.factors, sc.gate,
                         sc.tie, sc.note
                  FROM score sc JOIN rubric r ON r.id = sc.rubric_id
                  JOIN seat s ON s.id = sc.seat_id ORDER BY 1, 2, s.id";
    let before = env.rows(scores);
    assert!(!before.is_empty());
    let rubrics = env.run(["rubric", "list", "--format", "json"]).ok().json();
    for r in rubrics["rubrics"].as_array().unwrap() {
        env.run(["rescore", "--rubric", r["rubric"].as_str().unwrap()])
            .ok();
    }
    assert_eq!(env.rows(scores), before);
    assert_eq!(
        env.count("SELECT count(*) FROM seat_tally"),
        env.count("SELECT count(*) FROM seat")
    );
    let out = env.run(["verify", "--all", "--ledger"]).ok();
    contains(
        &out,
        "tallies: OK — 15 stored seat tallies, each what its seat's attempts add up to\n",
    );
    // A rescore from the tallies stores the same again.
    env.run(["rescore", "--rubric", "session-efficiency@2"])
        .ok();
    assert_eq!(env.rows(scores), before);
}

#[test]
fn seat_tallies_of_format_1_are_kept_checked_and_joined_by_format_2_on_the_first_rescore() {
    // Written by a build whose tallies took absent cached reads for 0 (format 1).
    let env = Env::sqlite();
    std::fs::copy(tests_dir("compat/claims-v2/bundle/ledger.db"), &env.db).unwrap();
    let formats = "SELECT format, count(*) FROM seat_tally GROUP BY format ORDER BY format";
    let by_format = |env: &Env| -> Vec<String> {
        env.rows(formats)
            .into_iter()
            .map(|r| format!("{r:?}"))
            .collect()
    };
    assert_eq!(by_format(&env).len(), 1);
    let out = env.run(["verify", "--ledger"]).ok();
    contains(
        &out,
        "tallies: OK — 5 stored seat tallies, each what its seat's attempts add up to; 5 seats \
         have one in an older format only (the first rescore that wants it keeps one in format 2)",
    );
    // The bundle holds no scores: the rescore reads the attempts (no tally of format 2 yet) and
    // keeps a tally of format 2 for each seat; verify --ledger then checks its scores against
    // the attempts.
    let scores = "SELECT s.slug, sc.score, sc.rank, sc.factors FROM score sc
                  JOIN seat s ON s.id = sc.seat_id ORDER BY s.id";
    env.run(["rescore", "--rubric", "session-efficiency@2"])
        .ok();
    let before = env.rows(scores);
    assert_eq!(before.len(), 5);
    // The old rows are kept as they were, the new ones beside them.
    assert_eq!(by_format(&env).len(), 2);
    assert_eq!(
        env.count("SELECT count(*) FROM seat_tally WHERE format = 2"),
        5
    );
    let out = env.run(["verify", "--all", "--ledger"]).ok();
    contains(
        &out,
        "tallies: OK — 10 stored seat tallies, each what its seat's attempts add up to\n",
    );
    // A format-1 tally edited is named with its format, though nothing reads it.
    tamper(
        &env.db,
        "DROP TRIGGER seat_tally_no_update;
         UPDATE seat_tally SET tally = replace(tally, '\"correct\":', '\"correct\":1')
         WHERE format = 1 AND seat_id = (SELECT min(seat_id) FROM seat_tally);",
    );
    let out = env.run(["verify", "--ledger"]).status(1);
    contains(
        &out,
        "its stored tally in format 1 is not what its attempts add up to: it was written or \
         changed behind benchledger's back",
    );
    env.run(["rescore", "--rubric", "session-efficiency@2"])
        .ok();
    assert_eq!(env.rows(scores), before);
}

#[test]
fn a_negative_zero_in_results_is_taken_as_zero_and_the_wave_verifies() {
    // Regression: -0.0 was hashed as written while the ledger kept 0.0, so `verify --ledger`
    // reported the wave's rows as edited behind benchledger's back.
    let env = Env::init();
    let manifest = common::write_wave(
        env.path(),
        "[wave]\nid = \"zeros\"\nsuite = \"s\"\nstarted_at = 2026-03-04T10:00:00Z\n\n\
         [wave.accounting]\ninput_tokens_include_cache_reads = false\n\n\
         [[seat]]\nid = \"a\"\nmodel = \"m\"\nprovider = \"p\"\nharness = \"h\"\n\
         results = \"a.jsonl\"\n",
        &[(
            "a.jsonl",
            "{\"problem\":\"p1\",\"correct\":false,\"outcome\":-0.0,\"wall_s\":-0.0,\
             \"cost_usd\":-0.0,\"input_tokens\":1,\"output_tokens\":1}\n",
        )],
    );
    env.ingest(&[manifest.as_path()]);
    let out = env.run(["verify", "--ledger"]).ok();
    contains(
        &out,
        "waves: OK — 1 wave, each one's rows hashing to its stored content hash",
    );
    contains(&out, "tallies: OK — 1 stored seat tally");
    // The same file again is the same wave.
    let out = env.run([OsStr::new("ingest"), manifest.as_os_str()]).ok();
    contains(&out, "already");
}

/// Runs `sql` on the ledger as an editor who puts every protection back afterwards: on SQLite,
/// every trigger dropped, the edit made (references unchecked), every trigger created again as
/// it was; on PostgreSQL, in a session whose triggers and references are off. The schema is
/// then what benchledger made, so only the log and the hashes can show the edit.
fn behind_triggers(env: &Env, sql: &str) {
    if common::postgres_backend() {
        env.tamper(sql);
        return;
    }
    let names = texts(
        env,
        "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name",
    );
    let creates = texts(
        env,
        "SELECT sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name",
    );
    let drops: String = names
        .iter()
        .map(|n| format!("DROP TRIGGER {n};\n"))
        .collect();
    env.tamper(&format!(
        "PRAGMA foreign_keys = OFF;\n{drops}{sql};\n{};",
        creates.join(";\n")
    ));
}

/// Every row of a wave, deleted as a thorough editor would: its scores, tallies, trace steps,
/// attempts, seats, declared and canary problems, and the wave itself.
fn delete_wave_sql(wave: &str) -> String {
    let seats =
        format!("SELECT s.id FROM seat s JOIN wave w ON w.id = s.wave_id WHERE w.slug = '{wave}'");
    format!(
        "DELETE FROM score WHERE seat_id IN ({seats});
         DELETE FROM seat_tally WHERE seat_id IN ({seats});
         DELETE FROM trace_step WHERE attempt_id IN (SELECT id FROM attempt WHERE seat_id IN \
         ({seats}));
         DELETE FROM attempt WHERE seat_id IN ({seats});
         DELETE FROM seat WHERE id IN ({seats});
         DELETE FROM wave_problem WHERE wave_id IN (SELECT id FROM wave WHERE slug = '{wave}');
         DELETE FROM wave_canary WHERE wave_id IN (SELECT id FROM wave WHERE slug = '{wave}');
         DELETE FROM wave WHERE slug = '{wave}'"
    )
}

/// Issue 23, #3: an unpublished wave's rows deleted (every one of them, the triggers put back
/// after) used to pass every verify mode. Its ingest is in the log, so `verify --ledger` names
/// it; with its log entry deleted too, the next link breaks; only a log rewritten from there on
/// needs the head kept outside.
#[test]
fn issue_23_3_deleting_an_unpublished_waves_rows_is_caught() {
    let env = published();
    let h = head(&env);
    behind_triggers(&env, &delete_wave_sql("rca-wave-2"));
    env.run(["verify", "--all"]).ok();
    let out = env.run(["verify", "--ledger"]).status(1);
    contains(&out, "schema: OK");
    contains(
        &out,
        "(wave rca-wave-2 ingested): wave rca-wave-2 is not in the ledger, though the log \
         recorded it on",
    );
    contains(&out, "its rows were deleted behind benchledger's back");
    let out = env
        .run(["verify", "--all", "--ledger", "--expect-head", &h])
        .status(1);
    contains(&out, "wave rca-wave-2 is not in the ledger");

    // Its log entry deleted as well: the entry after it names a predecessor that is gone.
    behind_triggers(
        &env,
        "DELETE FROM chain_entry WHERE kind = 'ingest' AND subject = 'rca-wave-2'",
    );
    let out = env.run(["verify", "--ledger"]).status(1);
    contains(&out, "the chain is broken: it names predecessor");
    let out = env.run(["verify", "--expect-head", &h]).status(1);
    contains(&out, "the chain is broken");
}

/// Registers the shipped accuracy rubric, scoring nothing with it.
fn add_accuracy(env: &Env) {
    env.run([
        OsStr::new("rubric"),
        OsStr::new("add"),
        crate_path("rubrics/accuracy.v1.toml").as_os_str(),
    ])
    .ok();
}

/// Issue 23, #3: an unpublished, unscored rubric's text and sha256 rewritten together (its gate
/// loosened: later rescores and publications would use the altered text under the same
/// NAME@VERSION) used to pass every verify mode. Its registration is in the log, with the
/// sha256 of the text registered.
#[test]
fn issue_23_3_rewriting_an_unpublished_unscored_rubrics_text_and_sha256_is_caught() {
    let env = published();
    add_accuracy(&env);
    let h = head(&env);
    let text = texts(&env, "SELECT text FROM rubric WHERE name = 'accuracy'").remove(0);
    let altered = format!("{text}\n# loosened\n");
    let sha = common::sha256_hex(altered.as_bytes());
    behind_triggers(
        &env,
        &format!(
            "UPDATE rubric SET text = '{}', sha256 = '{sha}' WHERE name = 'accuracy'",
            altered.replace('\'', "''")
        ),
    );
    // Nothing else shows it: the text hashes to its (new) sha256, and nothing was scored.
    env.run(["verify", "--all"]).ok();
    let out = env.run(["verify", "--ledger"]).status(1);
    contains(&out, "schema: OK");
    contains(&out, "rubrics: OK");
    contains(
        &out,
        &format!(
            "(rubric accuracy@1 registered): rubric accuracy@1 is in the ledger with text sha256 \
             {} (version 1), but the log recorded",
            &sha[..12]
        ),
    );
    let out = env
        .run(["verify", "--all", "--ledger", "--expect-head", &h])
        .status(1);
    contains(&out, "it was rewritten behind benchledger's back");
}

/// The tampering sweep: every kind of edit of the ledger's rows — raw facts, registered texts,
/// derived rows, publications, withdrawals and the log itself; published or not — made with
/// every protection put back afterwards, fails `verify --all --ledger --expect-head`, naming
/// what changed (and never only because a trigger is missing).
#[test]
fn every_edit_of_ledger_rows_is_caught_by_verify_all_ledger_expect_head() {
    let prepared = || {
        let env = published();
        add_accuracy(&env);
        env.run([
            OsStr::new("prices"),
            OsStr::new("add"),
            crate_path("prices/example-list.v1.toml").as_os_str(),
        ])
        .ok();
        env.run(["withdraw", "prices-csv", "--reason", "a broken harness"])
            .ok();
        let key = env.path().join("signer");
        env.run([OsStr::new("keygen"), OsStr::new("--out"), key.as_os_str()])
            .ok();
        env.run([
            OsStr::new("sign"),
            OsStr::new("1"),
            OsStr::new("--key"),
            key.as_os_str(),
        ])
        .ok();
        // A re-ingest that gives a seat of the published wave a display name.
        let named = env.path().join("named");
        common::copy_dir(&crate_path("examples/checkout-rematch"), &named);
        let manifest = named.join("wave.toml");
        let seat = "id = \"xai-hierarchical\"\n";
        let text = std::fs::read_to_string(&manifest).unwrap();
        assert!(text.contains(seat), "{text}");
        let text = text.replacen(seat, &format!("{seat}display_name = \"Grok 4\"\n"), 1);
        std::fs::write(&manifest, text).unwrap();
        env.ingest(&[&manifest]);
        // A wave whose attempts keep where they came from.
        env.ingest(&[&crate_path("tests/fixtures/import/inspect/wave.toml")]);
        // A wave that records a timeout multiplier: hashed in wave content format 3.
        env.ingest_harbor_job();
        let h = head(&env);
        (env, h)
    };
    let mut cases = raw_fact_edits();
    cases.extend(side_record_edits());
    cases.extend(registration_and_chain_edits());
    for (what, sql, needle) in cases {
        let (env, h) = prepared();
        behind_triggers(&env, &sql);
        let out = env.run(["verify", "--all", "--ledger", "--expect-head", &h]);
        assert_eq!(out.status, 1, "{what}: {}", out.stdout);
        assert!(
            !out.stdout.contains("schema: MISMATCH"),
            "{what}: the triggers were put back: {}",
            out.stdout
        );
        assert!(
            out.stdout.contains(needle),
            "{what}: expected {needle:?} in {}",
            out.stdout
        );
    }
}

/// A seat of the unpublished wave rca-wave-2, in SQL.
const UNPUBLISHED_SEAT: &str = "(SELECT s.id FROM seat s JOIN wave w ON w.id = s.wave_id \
                                WHERE w.slug = 'rca-wave-2' ORDER BY s.id LIMIT 1)";

/// The sweep's edits of raw facts and derived rows: (what, SQL, what verify must say).
fn raw_fact_edits() -> Vec<(&'static str, String, &'static str)> {
    let x = common::sha256_hex(b"x");
    let unpublished_seat = UNPUBLISHED_SEAT;
    let wave_columns = "slug, suite_id, started_at, notes, suite_problems, \
                        suite_problems_listed, parallel_sessions, tool_server_sessions, \
                        serial_rerun, input_tokens_include_cache_reads, price_source, \
                        budget_tokens, budget_wall_s, budget_cost_usd, harness_version, producer, \
                        producer_version, content_sha256, content_format, ingested_at";
    vec![
        (
            "an unpublished wave's notes",
            "UPDATE wave SET notes = 'x' WHERE slug = 'rca-wave-2'".into(),
            "wave rca-wave-2: its rows no longer hash",
        ),
        (
            "a wave's timeout multiplier",
            "UPDATE wave SET timeout_multiplier = 3 WHERE slug = 'terminal-bench-2025-11-01'"
                .into(),
            "wave terminal-bench-2025-11-01: its rows no longer hash",
        ),
        (
            "a wave's timeout multiplier taken away",
            "UPDATE wave SET timeout_multiplier = NULL WHERE slug = 'terminal-bench-2025-11-01'"
                .into(),
            "wave terminal-bench-2025-11-01: its rows no longer hash",
        ),
        (
            "a wave's ingest time",
            "UPDATE wave SET ingested_at = '2020-01-01T00:00:00Z' WHERE slug = 'rca-wave-2'".into(),
            "its time was rewritten",
        ),
        (
            "a wave's rows and stored hash together",
            format!(
                "DELETE FROM trace_step WHERE attempt_id IN (SELECT id FROM attempt WHERE \
                 seat_id = {unpublished_seat});
                 DELETE FROM attempt WHERE seat_id = {unpublished_seat};
                 UPDATE wave SET content_sha256 = '{x}' WHERE slug = 'rca-wave-2'"
            ),
            "wave rca-wave-2 is in the ledger with content hash",
        ),
        (
            "an unpublished wave, every row",
            delete_wave_sql("rca-wave-2"),
            "wave rca-wave-2 is not in the ledger",
        ),
        (
            "a published wave, every row",
            delete_wave_sql("checkout-rematch"),
            "wave checkout-rematch is not in the ledger",
        ),
        (
            "a withdrawn wave, every row",
            delete_wave_sql("prices-csv"),
            "wave prices-csv is not in the ledger",
        ),
        (
            "a wave added behind benchledger's back",
            format!(
                "INSERT INTO wave (id, {wave_columns}) SELECT 99, 'forged', suite_id, \
                 started_at, notes, suite_problems, suite_problems_listed, parallel_sessions, \
                 tool_server_sessions, serial_rerun, input_tokens_include_cache_reads, \
                 price_source, budget_tokens, budget_wall_s, budget_cost_usd, harness_version, \
                 producer, producer_version, content_sha256, content_format, ingested_at FROM \
                 wave WHERE slug = 'rca-wave-2'"
            ),
            "wave forged: no log entry names it",
        ),
        (
            "a suite's name",
            "UPDATE suite SET name = name || ' (renamed)'".into(),
            "its rows no longer hash",
        ),
        (
            "a seat's model",
            format!("UPDATE seat SET model = 'm' WHERE id = {unpublished_seat}"),
            "wave rca-wave-2: its rows no longer hash",
        ),
        (
            "an attempt's verdict",
            format!("UPDATE attempt SET correct = NOT correct WHERE seat_id = {unpublished_seat}"),
            "wave rca-wave-2: its rows no longer hash",
        ),
        (
            "an attempt deleted",
            format!(
                "DELETE FROM trace_step WHERE attempt_id IN (SELECT min(id) FROM attempt WHERE \
                 seat_id = {unpublished_seat});
                 DELETE FROM attempt WHERE id IN (SELECT min(id) FROM attempt WHERE seat_id = \
                 {unpublished_seat})"
            ),
            "wave rca-wave-2: its rows no longer hash",
        ),
        (
            "a seat's stored tally",
            format!(
                "UPDATE seat_tally SET tally = replace(tally, '1', '2') WHERE seat_id = \
                 {unpublished_seat}"
            ),
            "stored tally",
        ),
        (
            "a stored score",
            format!("UPDATE score SET score = 1.5 WHERE seat_id = {unpublished_seat}"),
            "stored, ",
        ),
        (
            "a stored score deleted",
            format!("DELETE FROM score WHERE seat_id = {unpublished_seat}"),
            "its stored score is missing",
        ),
    ]
}

/// The sweep's edits of the records kept beside waves and publications, each logged when it
/// was written: signatures, origins, sample texts and display names.
fn side_record_edits() -> Vec<(&'static str, String, &'static str)> {
    vec![
        (
            "a publication's signed statement edited",
            "UPDATE publication_envelope SET envelope = envelope || ' ' WHERE publication_id = 1"
                .into(),
            "the signature of publication #1 is in the ledger with envelope sha256",
        ),
        (
            "an attempt's origin edited",
            "UPDATE attempt_origin SET file = 'elsewhere.json' WHERE attempt_id = \
             (SELECT min(attempt_id) FROM attempt_origin)"
                .into(),
            "the origin record of wave arith-mini is in the ledger with origins sha256",
        ),
        (
            "a wave's origins deleted",
            "DELETE FROM attempt_origin".into(),
            "the origin record of wave arith-mini is not in the ledger",
        ),
        (
            "an attempt's texts edited",
            "UPDATE attempt_text SET answer = '41' WHERE attempt_id = \
             (SELECT min(attempt_id) FROM attempt_text)"
                .into(),
            "the text record of wave arith-mini is in the ledger with texts sha256",
        ),
        (
            "a wave's texts deleted",
            "DELETE FROM attempt_text".into(),
            "the text record of wave arith-mini is not in the ledger",
        ),
        (
            "texts added behind benchledger's back",
            format!(
                "INSERT INTO attempt_text (attempt_id, input, target, answer, explanation) \
                 SELECT min(id), 'forged', NULL, NULL, NULL FROM attempt \
                 WHERE seat_id = {UNPUBLISHED_SEAT}"
            ),
            "the text record of wave rca-wave-2: no log entry names it",
        ),
        (
            "a seat's display name edited",
            "UPDATE seat_display_name SET name = 'Grok 5'".into(),
            "the display name of seat checkout-rematch/xai-hierarchical is in the ledger with \
             name sha256",
        ),
        (
            "a seat's display name deleted",
            "DELETE FROM seat_display_name".into(),
            "the display name of seat checkout-rematch/xai-hierarchical is not in the ledger",
        ),
        (
            "a signature added behind benchledger's back",
            "INSERT INTO publication_envelope (publication_id, envelope) \
             SELECT 2, envelope FROM publication_envelope WHERE publication_id = 1"
                .into(),
            "the signature of publication #2: no log entry names it",
        ),
        (
            "a display name added behind benchledger's back",
            "INSERT INTO seat_display_name (seat_id, name) SELECT s.id, 'Forged' FROM seat s \
             JOIN wave w ON w.id = s.wave_id WHERE w.slug = 'checkout-rematch' AND s.id NOT IN \
             (SELECT seat_id FROM seat_display_name) ORDER BY s.slug LIMIT 1"
                .into(),
            "the display name of seat checkout-rematch/anthropic-react: no log entry names it",
        ),
        (
            "origins added behind benchledger's back",
            format!(
                "INSERT INTO attempt_origin (attempt_id, file, record) SELECT min(id), \
                 'forged.json', NULL FROM attempt WHERE seat_id = {UNPUBLISHED_SEAT}"
            ),
            "the origin record of wave rca-wave-2: no log entry names it",
        ),
        (
            "a publication's signed statement deleted",
            "DELETE FROM publication_envelope WHERE publication_id = 1".into(),
            "the signature of publication #1 is not in the ledger",
        ),
    ]
}

/// The sweep's edits of registered texts, publications, withdrawals and the log itself.
fn registration_and_chain_edits() -> Vec<(&'static str, String, &'static str)> {
    let x = common::sha256_hex(b"x");
    vec![
        (
            "an unscored rubric's text and sha256",
            format!("UPDATE rubric SET text = text || ' ', sha256 = '{x}' WHERE name = 'accuracy'"),
            "rubric accuracy@1 is in the ledger with text sha256",
        ),
        (
            "a rubric's scale-violation mark",
            "UPDATE rubric SET scale_violation = NOT scale_violation WHERE name = 'accuracy'"
                .into(),
            "the mark was changed",
        ),
        (
            "a rubric's registration time",
            "UPDATE rubric SET added_at = '2020-01-01T00:00:00Z' WHERE name = 'accuracy'".into(),
            "its time was rewritten",
        ),
        (
            "a rubric deleted",
            "DELETE FROM rubric WHERE name = 'accuracy'".into(),
            "rubric accuracy@1 is not in the ledger",
        ),
        (
            "a rubric added behind benchledger's back",
            format!(
                "INSERT INTO rubric (id, name, version, sha256, text, scale_violation, \
                 added_at) SELECT 99, 'forged', 1, '{x}', 'x', scale_violation, added_at FROM \
                 rubric WHERE name = 'accuracy'"
            ),
            "rubric forged@1: no log entry names it",
        ),
        (
            "a price table's text and sha256",
            format!("UPDATE price_table SET text = text || ' ', sha256 = '{x}'"),
            "price table example-list@1 is in the ledger with text sha256",
        ),
        (
            "a price table deleted",
            "DELETE FROM price_table".into(),
            "price table example-list@1 is not in the ledger",
        ),
        (
            "a publication's title",
            "UPDATE publication SET title = 'x' WHERE id = 1".into(),
            "the publication record was edited",
        ),
        (
            "the last publication",
            "DELETE FROM publication_claims WHERE publication_id = 2;
             DELETE FROM publication WHERE id = 2"
                .into(),
            "publication #2 is not in the ledger",
        ),
        (
            "a publication's claims row",
            "DELETE FROM publication_claims WHERE publication_id = 1".into(),
            "publication #1 has no claims row",
        ),
        (
            "a withdrawal's reason",
            "UPDATE withdrawal SET reason = 'nothing'".into(),
            "the withdrawal record was edited",
        ),
        (
            "a withdrawal deleted",
            "DELETE FROM withdrawal".into(),
            "withdrawal #1 is not in the ledger",
        ),
        (
            "a log entry's time",
            "UPDATE chain_entry SET created_at = '2020-01-01T00:00:00Z' WHERE seq = 3".into(),
            "the log entry was edited",
        ),
        (
            "a log entry from the middle",
            "DELETE FROM chain_entry WHERE seq = 3".into(),
            "the chain is broken",
        ),
        (
            "the last log entry",
            "DELETE FROM chain_entry WHERE seq = (SELECT max(seq) FROM chain_entry)".into(),
            "entries were removed or rewritten",
        ),
    ]
}

/// Issue 34, #1: a whole wave added through benchledger itself (its content hash right), moved
/// to row id 0 or below and its log entry dropped, passed `verify --all --ledger --expect-head`
/// as "from before the log began" in a ledger made after the log existed; so did a rubric moved
/// to id 0 and a price table to a negative id. What the log names decides now, not row ids:
/// this ledger's log began at its creation, so nothing in it is older than the log.
#[test]
fn issue_34_1_fabricated_rows_moved_below_the_logged_ids_fail_the_expected_head() {
    let seats = "SELECT s.id FROM seat s JOIN wave w ON w.id = s.wave_id WHERE w.slug = 'planted'";
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "a wave at id 0",
            format!(
                "UPDATE score SET seat_id = -seat_id WHERE seat_id IN ({seats});
                 UPDATE seat_tally SET seat_id = -seat_id WHERE seat_id IN ({seats});
                 UPDATE attempt SET seat_id = -seat_id WHERE seat_id IN ({seats});
                 UPDATE seat SET id = -id, wave_id = 0 WHERE id IN ({seats});
                 UPDATE wave SET id = 0 WHERE slug = 'planted';
                 DELETE FROM chain_entry WHERE kind = 'ingest' AND subject = 'planted'"
            ),
            "wave planted: no log entry names it",
        ),
        (
            "a rubric at id 0",
            "UPDATE rubric SET id = 0 WHERE name = 'accuracy';
             DELETE FROM chain_entry WHERE kind = 'rubric' AND subject = 'accuracy'"
                .into(),
            "rubric accuracy@1: no log entry names it",
        ),
        (
            "a price table at id -3",
            "UPDATE price_table SET id = -3 WHERE name = 'example-list';
             DELETE FROM chain_entry WHERE kind = 'price_table' AND subject = 'example-list'"
                .into(),
            "price table example-list@1: no log entry names it",
        ),
    ];
    for (what, sql, needle) in cases {
        let env = published();
        let h = head(&env);
        // Added through benchledger, so every hash is right; the entry is the log's last.
        match what {
            "a wave at id 0" => {
                let wave = small_wave(&env, "planted", "planted", None, 3.0);
                env.ingest(&[&wave]);
            }
            "a rubric at id 0" => add_accuracy(&env),
            _ => {
                env.run([
                    OsStr::new("prices"),
                    OsStr::new("add"),
                    crate_path("prices/example-list.v1.toml").as_os_str(),
                ])
                .ok();
            }
        }
        behind_triggers(&env, &sql);
        assert_eq!(head(&env), h, "{what}: the log is as it was");
        let out = env.run(["verify", "--all", "--ledger", "--expect-head", &h]);
        assert_eq!(out.status, 1, "{what}: {}{}", out.stdout, out.stderr);
        assert!(out.stdout.contains(needle), "{what}: {}", out.stdout);
        assert!(
            !out.stdout.contains("from before the log began,"),
            "{what}: {}",
            out.stdout
        );
    }
}

/// Issue 34, #2: rows naming ids that do not exist (yet) passed `verify --all --ledger
/// --expect-head`, then broke the next write: a claims row for the next publication made
/// `publish` fail on a UNIQUE constraint, a planted envelope attached itself to the next
/// unsigned publication, a display name or origin row waited for the next ingest's seat or
/// attempt. `verify --ledger` sweeps every reference now.
#[test]
fn issue_34_2_dangling_rows_fail_verify_ledger() {
    let cases = [
        (
            "INSERT INTO seat_display_name(seat_id, name) VALUES (9999, 'Planted')",
            "seat_display_name.seat_id: 1 row names seat id 9999 that does not exist",
        ),
        (
            "INSERT INTO attempt_origin(attempt_id, file, record) VALUES (999999, 'f', NULL)",
            "attempt_origin.attempt_id: 1 row names attempt id 999999 that does not exist",
        ),
        (
            "INSERT INTO publication_claims(publication_id, text) VALUES (3, NULL)",
            "publication_claims.publication_id: 1 row names publication id 3 that does not exist",
        ),
        (
            "INSERT INTO publication_envelope(publication_id, envelope) VALUES (3, '{}')",
            "publication_envelope.publication_id: 1 row names publication id 3 that does not \
             exist",
        ),
    ];
    for (sql, needle) in cases {
        let env = published();
        let h = head(&env);
        behind_triggers(&env, sql);
        let out = env.run(["verify", "--all", "--ledger", "--expect-head", &h]);
        assert_eq!(out.status, 1, "{sql}: {}{}", out.stdout, out.stderr);
        assert!(out.stdout.contains(needle), "{sql}: {}", out.stdout);
        assert!(out.stdout.contains("references: "), "{sql}: {}", out.stdout);
    }
    // An honest ledger's references hold.
    let env = published();
    let out = env.run(["verify", "--ledger"]).ok();
    contains(&out, "references: OK — every row names rows that exist");
}

/// Issue 34, the smaller ones: rows only an editor with the store's CHECKs off can write. A
/// negative count made `verify` exit 2 with "Integer -5 out of range at index 2", naming no
/// table; `correct = 2`, a tally of format 99 and declared problems on a wave that declares no
/// list went unnoticed. Each is named now, with its table and column, and verify exits 1.
#[test]
fn issue_34_rows_written_with_checks_off_are_named_by_verify_ledger() {
    let first_attempt = "(SELECT min(id) FROM attempt)";
    let cases = [
        (
            format!("UPDATE attempt SET trial = -5 WHERE id = {first_attempt}"),
            "attempt.trial holds -5",
        ),
        (
            format!("UPDATE attempt SET input_tokens = -5 WHERE id = {first_attempt}"),
            "attempt.input_tokens holds -5",
        ),
        (
            "UPDATE wave SET parallel_sessions = -5 WHERE slug = 'rca-wave-2'".into(),
            "wave.parallel_sessions holds -5",
        ),
        (
            format!("UPDATE attempt SET correct = 2 WHERE id = {first_attempt}"),
            "attempt.correct holds 2",
        ),
        (
            "INSERT INTO seat_tally(seat_id, format, tally) \
             SELECT seat_id, 99, tally FROM seat_tally ORDER BY seat_id LIMIT 1"
                .into(),
            "a stored tally of format 99, which no benchledger writes",
        ),
        (
            "INSERT INTO wave_problem(wave_id, problem) \
             SELECT id, 'planted' FROM wave WHERE slug = 'prices-csv'"
                .into(),
            "wave prices-csv declares no problem list, yet 1 declared problem is stored",
        ),
    ];
    // The first four break a CHECK. PostgreSQL enforces CHECKs even in a session whose
    // triggers are off: only dropping the constraint writes them there, and the schema check
    // names that. SQLite's shell writes them with `ignore_check_constraints`.
    for (n, (sql, needle)) in cases.into_iter().enumerate() {
        let checks_off = n < 4;
        if checks_off && common::postgres_backend() {
            continue;
        }
        let env = published();
        let sql = if checks_off {
            format!("PRAGMA ignore_check_constraints = 1; {sql}")
        } else {
            sql
        };
        behind_triggers(&env, &sql);
        let out = env.run(["verify", "--ledger"]);
        assert_eq!(out.status, 1, "{sql}: {}{}", out.stdout, out.stderr);
        assert!(out.stdout.contains(needle), "{sql}: {}", out.stdout);
    }
}
