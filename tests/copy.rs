//! `benchledger copy`: a whole ledger into a new one, across stores. The copy holds the same
//! rows (ids, hashes, every value) and passes `verify --all --ledger` with the same chain head.
//!
//! Run against SQLite, the ledger under test is a file and the round trip goes file → file →
//! file; run against PostgreSQL (`BENCHLEDGER_TEST_BACKEND=postgres`), it goes database → file
//! → database, so both directions between the stores are covered.

mod common;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use common::{Cell, Env, Shell, crate_path};

/// The four example waves, session-efficiency v2 registered and rescored, a price table, two
/// publications and a withdrawal; then a Harbor job's wave, which records a timeout multiplier.
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
    for wave in ["checkout-rematch", "rca-wave-1"] {
        env.run([
            "publish",
            "--wave",
            wave,
            "--rubric",
            "session-efficiency@2",
        ])
        .ok();
    }
    env.run(["withdraw", "rca-wave-2", "--reason", "a broken harness"])
        .ok();
    // A wave that records a timeout multiplier (wave content format 3, migration 12's column),
    // let in by a review recorded with it and its rules registered (migration 13's tables).
    let rules = env.path().join("rules.toml");
    std::fs::write(
        &rules,
        "[rules]\nname = \"copy-test\"\nversion = 1\n\n[secrets]\nverdict = \"reject\"\n",
    )
    .unwrap();
    env.run([
        OsStr::new("review"),
        crate_path("tests/fixtures/import/harbor/job").as_os_str(),
        OsStr::new("--rules"),
        rules.as_os_str(),
        OsStr::new("--started-at"),
        OsStr::new("2025-11-01T10:00:00Z"),
        OsStr::new("--ingest"),
    ])
    .ok();
    // A wave whose attempts keep their origins and texts (migration 14's table).
    env.run([
        OsStr::new("ingest"),
        crate_path("tests/fixtures/import/inspect/wave.toml").as_os_str(),
    ])
    .ok();
    env
}

/// Every row of every table of the ledger at `db`, columns by name, rows sorted (the stores
/// sort NULLs differently, so the rows are sorted here).
fn all_rows(db: &Path, columns: &[(String, Vec<String>)]) -> Vec<(String, Vec<Vec<Cell>>)> {
    let mut shell = Shell::at(db);
    columns
        .iter()
        .map(|(table, cols)| {
            let sql = format!("SELECT {} FROM {table}", cols.join(", "));
            let mut rows = shell.rows(&sql);
            rows.sort_by_cached_key(|r| format!("{r:?}"));
            (table.clone(), rows)
        })
        .collect()
}

/// The tables and their columns, as an SQLite ledger declares them.
fn tables(sqlite: &Path) -> Vec<(String, Vec<String>)> {
    let mut shell = Shell::open(sqlite);
    let names = shell.rows(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
         ORDER BY name",
    );
    names
        .into_iter()
        .map(|r| {
            let Cell::Text(table) = &r[0] else {
                panic!("{r:?}")
            };
            let cols = shell
                .rows(&format!(
                    "SELECT name FROM pragma_table_info('{table}') ORDER BY name"
                ))
                .into_iter()
                .map(|c| match &c[0] {
                    Cell::Text(c) => c.clone(),
                    other => panic!("{other:?}"),
                })
                .collect();
            (table.clone(), cols)
        })
        .collect()
}

fn head(env: &Env) -> String {
    env.run(["publications", "--head"]).ok().stdout
}

fn copy(from: &Path, to: &Path) -> common::Out {
    common::run_raw(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &[
            OsStr::new("copy"),
            OsStr::new("--from"),
            from.as_os_str(),
            OsStr::new("--to"),
            to.as_os_str(),
        ],
        &[],
    )
}

#[test]
fn a_copy_holds_the_same_rows_and_verifies_with_the_same_head_both_ways() {
    let env = published();
    // Into a new SQLite file...
    let file = Env::sqlite();
    let out = copy(&env.db, &file.db).ok();
    assert!(
        out.stdout.ends_with(
            ": 6 waves, 23 seats, 66 attempts, 36 trace steps, 7 attempts with texts, 1 rubric, \
             21 stored scores, 0 price tables, 2 publications, 1 withdrawal, 1 review, \
             16 log entries\n"
        ),
        "{}",
        out.stdout
    );
    // ... and from it into a new ledger on the store under test.
    let back = Env::new();
    copy(&file.db, &back.db).ok();

    let columns = tables(&file.db);
    // Every table of the schema: 21 at migration 14 (migration 10 added seat_display_name
    // and attempt_origin, 11 the log's chain_entry, 12 a column of wave, 13 submission_rules
    // and wave_review, 14 attempt_text).
    assert_eq!(columns.len(), 21, "{columns:?}");
    assert!(
        columns
            .iter()
            .any(|(t, cols)| t == "wave" && cols.iter().any(|c| c == "timeout_multiplier")),
        "{columns:?}"
    );
    assert!(
        ["seat_display_name", "attempt_origin", "attempt_text"]
            .iter()
            .all(|t| columns.iter().any(|(c, _)| c == t)),
        "{columns:?}"
    );
    let original = all_rows(&env.db, &columns);
    assert!(
        original
            .iter()
            .any(|(t, rows)| t == "attempt" && rows.len() == 66)
    );
    assert!(
        original
            .iter()
            .any(|(t, rows)| t == "attempt_text" && rows.len() == 7)
    );
    // Each publication's claims row (none carries claims) goes over with it.
    assert!(
        original
            .iter()
            .any(|(t, rows)| t == "publication_claims" && rows.len() == 2)
    );
    for table in ["submission_rules", "wave_review"] {
        assert!(
            original
                .iter()
                .any(|(t, rows)| t == table && rows.len() == 1),
            "{table}"
        );
    }
    assert_eq!(all_rows(&file.db, &columns), original);
    assert_eq!(all_rows(&back.db, &columns), original);

    let h = head(&env);
    for copy in [&file, &back] {
        let out = copy.run(["verify", "--all", "--ledger"]).ok();
        assert!(
            out.stdout.contains("2 of 2 publications reproduce"),
            "{}",
            out.stdout
        );
        assert_eq!(head(copy), h);
        assert_eq!(
            copy.run(["waves", "--format", "json"]).ok().stdout,
            env.run(["waves", "--format", "json"]).ok().stdout
        );
    }
}

#[test]
fn a_copy_never_writes_over_a_ledger_and_needs_one_to_copy() {
    let env = published();
    let other = Env::sqlite();
    other.run(["init"]).ok();
    copy(&env.db, &other.db).ok();
    let before = (env.ledger_bytes(), other.ledger_bytes());
    let out = copy(&env.db, &other.db).status(2);
    assert!(
        out.stderr.contains("already holds rows") && out.stderr.contains("never over a ledger"),
        "{}",
        out.stderr
    );
    assert_eq!((env.ledger_bytes(), other.ledger_bytes()), before);

    let out = copy(&env.db, &env.db).status(2);
    assert!(out.stderr.contains("both name"), "{}", out.stderr);

    // No ledger to copy: nothing is made at the destination.
    let missing = Env::sqlite();
    let to = missing.path().join("to.db");
    let out = copy(&missing.db, &to).status(2);
    assert!(out.stderr.contains("benchledger init"), "{}", out.stderr);
    assert!(!to.exists());
}

/// Issue 23: a `copy` killed half way left an empty ledger at the destination, which passed
/// `verify --all --ledger`. A new SQLite destination is now written under a name of its own and
/// linked into place once whole: killed at any moment, the destination is absent or a whole
/// copy.
#[test]
fn a_killed_copy_leaves_no_destination_or_a_whole_one() {
    if common::postgres_backend() {
        return; // the destination here is a file; the source's store does not matter
    }
    let env = Env::init();
    // Enough rows that the copy takes a while: 12 seats of 3,000 attempts.
    let dir = env.path().join("big");
    let mut manifest = "[wave]\nid = \"big\"\nsuite = \"s\"\nstarted_at = 2026-05-01T00:00:00Z\n\n\
                        [wave.accounting]\ninput_tokens_include_cache_reads = false\n"
        .to_string();
    let mut files = Vec::new();
    for s in 0..12 {
        manifest.push_str(&format!(
            "\n[[seat]]\nid = \"s{s}\"\nmodel = \"m{s}\"\nprovider = \"p\"\nharness = \"h\"\n\
             results = \"s{s}.jsonl\"\n"
        ));
        let lines: String = (0..3000)
            .map(|p| {
                format!(
                    "{{\"problem\":\"p{p:05}\",\"correct\":{},\"input_tokens\":{p}}}\n",
                    (p + s) % 3 == 0
                )
            })
            .collect();
        files.push((format!("s{s}.jsonl"), lines));
    }
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let path = common::write_wave(&dir, &manifest, &refs);
    env.ingest(&[&path]);
    let target = tempfile::tempdir().unwrap();
    let mut absent = 0;
    for (i, delay_ms) in [5u64, 20, 40, 80, 120, 200, 400].into_iter().enumerate() {
        let to = target.path().join(format!("copy-{i}.db"));
        let mut child = common::command()
            .args([
                OsStr::new("copy"),
                OsStr::new("--from"),
                env.db.as_os_str(),
                OsStr::new("--to"),
                to.as_os_str(),
            ])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        child.kill().ok();
        child.wait().unwrap();
        if !to.exists() {
            absent += 1;
            continue;
        }
        // There: a whole copy, the wave and every attempt.
        let out = common::run_raw(
            target.path(),
            &[
                OsStr::new("--db"),
                to.as_os_str(),
                OsStr::new("verify"),
                OsStr::new("--ledger"),
            ],
            &[],
        )
        .ok();
        assert!(out.stdout.contains("waves: OK — 1 wave"), "{}", out.stdout);
    }
    // The first kills come before the copy is whole.
    assert!(absent >= 1, "every copy finished before its kill");
}
