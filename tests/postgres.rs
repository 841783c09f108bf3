//! The PostgreSQL store against a real server: many writers on many connections, the chain
//! kept linear under concurrent publishers, a server restart in the middle of an ingest, a
//! connection cut in the middle of a rescore, and an SQLite ledger written by an earlier build
//! copied onto the server.
//!
//! These need a server: `BENCHLEDGER_TEST_PG` names one (`scripts/pg-test run cargo test`
//! starts a throwaway cluster and sets it). Without it they are skipped, saying so, except
//! under CI (`CI=true`), where a missing server is a failure: CI must never pass without having
//! run them. The rest of the integration suite runs against the server too with
//! `BENCHLEDGER_TEST_BACKEND=postgres` (see tests/common). Built only with the `postgres`
//! feature (the default).
#![cfg(feature = "postgres")]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Env, tests_dir};

/// Whether a test server is given; under CI, its absence fails the test.
fn server() -> bool {
    if common::pg::server().is_some() {
        return true;
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "BENCHLEDGER_TEST_PG is not set: under CI the PostgreSQL tests must run (start a \
         server with `scripts/pg-test run cargo test`)"
    );
    eprintln!(
        "skipped: no PostgreSQL server (BENCHLEDGER_TEST_PG); `scripts/pg-test run cargo test` \
         starts one"
    );
    false
}

/// A wave of `seats` × `problems` attempts.
fn wave(dir: &Path, id: &str, seats: usize, problems: usize) -> PathBuf {
    let wave_dir = dir.join(id);
    std::fs::create_dir_all(&wave_dir).unwrap();
    let mut manifest = format!(
        "[wave]\nid = \"{id}\"\nsuite = \"s\"\nstarted_at = 2026-05-01T00:00:00Z\n\n\
         [wave.accounting]\ninput_tokens_include_cache_reads = false\n\n\
         [wave.budget]\ntokens = 100000\nwall_s = 60\n"
    );
    for s in 0..seats {
        manifest.push_str(&format!(
            "\n[[seat]]\nid = \"seat-{s}\"\nmodel = \"m{s}\"\nprovider = \"p\"\nharness = \"h\"\n\
             results = \"seat-{s}.jsonl\"\n"
        ));
        let mut lines = String::with_capacity(problems * 150);
        for p in 0..problems {
            lines.push_str(&format!(
                "{{\"problem\":\"p{p:06}\",\"correct\":{},\"input_tokens\":{},\"output_tokens\":{},\
                 \"wall_s\":{}.5,\"steps\":{},\"errors\":0}}\n",
                (p + s) % 3 != 0,
                1000 + p,
                100 + s,
                10 + p % 50,
                p % 12
            ));
        }
        std::fs::write(wave_dir.join(format!("seat-{s}.jsonl")), lines).unwrap();
    }
    let path = wave_dir.join("wave.toml");
    std::fs::write(&path, manifest).unwrap();
    path
}

/// The binary on `db` with `args`, its output unread but for stderr.
fn command<S: AsRef<std::ffi::OsStr>>(db: &Path, args: &[S]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_benchledger"));
    c.arg("--db")
        .arg(db)
        .args(args)
        .env_remove("BENCHLEDGER_DB")
        .env("BENCHLEDGER_NOW", common::NOW)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    c
}

/// Runs the binary on `db` and returns its exit status and stderr.
fn run(db: &Path, args: &[&std::ffi::OsStr]) -> (Option<i32>, String) {
    let out = command(db, args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Waits (two minutes at most) until `sql`, run on the server at `url`, counts something:
/// the moment another process reaches the point `what` names.
fn wait_until(url: &str, sql: &str, what: &str) {
    let started = Instant::now();
    while count(url, sql) == 0 {
        assert!(started.elapsed() < Duration::from_secs(120), "{what}");
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// The publications as listed: each one's sha256 and its predecessor's.
fn links(env: &Env) -> Vec<(String, Option<String>)> {
    let list = env.run(["publications", "--format", "json"]).ok().json();
    list["publications"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["sha256"].as_str().unwrap().to_string(),
                p["prev_sha256"].as_str().map(str::to_string),
            )
        })
        .collect()
}

/// Each entry chained to the one before it, the first to nothing.
#[track_caller]
fn assert_linear(links: &[(String, Option<String>)]) {
    for (i, (_, prev)) in links.iter().enumerate() {
        let expected = i.checked_sub(1).map(|j| links[j].0.clone());
        assert_eq!(prev, &expected, "entry {i} of {links:#?}");
    }
}

#[test]
fn eight_writers_and_readers_lose_nothing_and_the_chain_stays_linear() {
    if !server() {
        return;
    }
    const WRITERS: usize = 8;
    let env = Env::postgres();
    env.run(["init"]).ok();
    let rubric = common::crate_path("rubrics/session-efficiency.v2.toml");
    env.run(["rubric".as_ref(), "add".as_ref(), rubric.as_os_str()])
        .ok();
    let manifests: Vec<PathBuf> = (0..WRITERS)
        .map(|i| wave(env.path(), &format!("w{i}"), 2, 500))
        .collect();
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        // Readers, all along: every listing they get is whole and its chain linear.
        let readers: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    let mut reads = 0;
                    while !done.load(std::sync::atomic::Ordering::SeqCst) {
                        assert_linear(&links(&env));
                        env.run(["waves", "--format", "json"]).ok();
                        reads += 1;
                    }
                    reads
                })
            })
            .collect();
        // Eight writers, each on its own connection: ingest a wave, score it, publish it.
        let writers: Vec<_> = manifests
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let db = &env.db;
                s.spawn(move || {
                    let w = format!("w{i}");
                    for args in [
                        vec!["ingest".as_ref(), m.as_os_str()],
                        vec![
                            "rescore".as_ref(),
                            "--rubric".as_ref(),
                            "session-efficiency@2".as_ref(),
                            "--wave".as_ref(),
                            w.as_ref(),
                        ],
                        vec![
                            "publish".as_ref(),
                            "--wave".as_ref(),
                            w.as_ref(),
                            "--rubric".as_ref(),
                            "session-efficiency@2".as_ref(),
                        ],
                    ] {
                        let (status, stderr) = run(db, &args);
                        assert_eq!(status, Some(0), "writer {i}, {args:?}: {stderr}");
                    }
                })
            })
            .collect();
        for w in writers {
            w.join().unwrap();
        }
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        for r in readers {
            assert!(r.join().unwrap() > 0);
        }
    });
    // Nothing lost: every wave whole, every publication there, one line of them.
    let waves = env.run(["waves", "--format", "json"]).ok().json();
    let listed = waves["waves"].as_array().unwrap();
    assert_eq!(listed.len(), WRITERS);
    assert!(listed.iter().all(|w| w["attempts"] == 1000), "{waves:#}");
    assert_eq!(
        env.count("SELECT count(*) FROM attempt"),
        (WRITERS * 1000) as i64
    );
    let chain = links(&env);
    assert_eq!(chain.len(), WRITERS);
    assert_linear(&chain);
    let out = env.run(["verify", "--all", "--ledger"]).ok();
    assert!(
        out.stdout
            .contains(&format!("{WRITERS} of {WRITERS} publications reproduce")),
        "{}",
        out.stdout
    );
}

/// A cluster of this test's own, stopped (and removed) when dropped.
struct Cluster {
    dir: tempfile::TempDir,
    url: String,
}

impl Cluster {
    fn start() -> Cluster {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new(common::crate_path("scripts/pg-test"))
            .arg("start")
            .arg(dir.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let url = String::from_utf8(out.stdout).unwrap().trim().to_string();
        Cluster { dir, url }
    }

    fn pg_test(&self, what: &str) {
        let out = Command::new(common::crate_path("scripts/pg-test"))
            .arg(what)
            .arg(self.dir.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "pg-test {what}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(common::crate_path("scripts/pg-test"))
            .arg("stop")
            .arg(self.dir.path())
            .output();
    }
}

fn count(url: &str, sql: &str) -> i64 {
    common::Shell::at(Path::new(url)).rows(sql)[0][0]
        .clone()
        .int()
}

trait Int {
    fn int(self) -> i64;
}

impl Int for common::Cell {
    fn int(self) -> i64 {
        match self {
            common::Cell::Int(n) => n,
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn a_server_restart_mid_ingest_leaves_the_wave_absent_and_a_retry_lands_it() {
    if !server() {
        return;
    }
    // A server of this test's own: the shared one keeps serving the other tests.
    let cluster = Cluster::start();
    let db = PathBuf::from(&cluster.url);
    let scratch = tempfile::tempdir().unwrap();
    let manifest = wave(scratch.path(), "big", 4, 50_000);
    let (status, stderr) = run(&db, &["init".as_ref()]);
    assert_eq!(status, Some(0), "{stderr}");

    let child = command(&db, &["ingest".as_ref(), manifest.as_os_str()])
        .env("TMPDIR", scratch.path())
        .spawn()
        .unwrap();
    // Restart the server the moment the ingest's COPY into the ledger is under way.
    wait_until(
        &cluster.url,
        "SELECT count(*) FROM pg_stat_activity
         WHERE pid <> pg_backend_pid() AND state = 'active' AND query LIKE 'COPY attempt%'",
        "the ingest never started copying",
    );
    cluster.pg_test("restart");
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("nothing was written"), "{stderr}");
    // The wave wholly absent...
    assert_eq!(count(&cluster.url, "SELECT count(*) FROM wave"), 0);
    assert_eq!(count(&cluster.url, "SELECT count(*) FROM seat"), 0);
    assert_eq!(count(&cluster.url, "SELECT count(*) FROM attempt"), 0);
    // ... then ingested whole on retry.
    let (status, stderr) = run(&db, &["ingest".as_ref(), manifest.as_os_str()]);
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(count(&cluster.url, "SELECT count(*) FROM attempt"), 200_000);
    let (status, stderr) = run(&db, &["verify".as_ref(), "--ledger".as_ref()]);
    assert_eq!(status, Some(0), "{stderr}");
}

#[test]
fn a_connection_lost_mid_rescore_stores_nothing_and_a_retry_stores_every_score() {
    if !server() {
        return;
    }
    let env = Env::postgres();
    let url = env.pg.as_ref().unwrap().url.clone();
    let manifest = wave(env.path(), "big", 4, 50_000);
    // A per-attempt rubric beside a per-seat one: rescore --all then reads the attempts (a
    // per-seat rubric alone would read the seats' stored tallies instead).
    let rubric = tests_dir("../rubrics/session-efficiency.v2.toml");
    let per_attempt = tests_dir("../rubrics/trace-holistic.v1.toml");
    let steps: [&[&std::ffi::OsStr]; 3] = [
        &["init".as_ref()],
        &["ingest".as_ref(), manifest.as_os_str()],
        &[
            "rubric".as_ref(),
            "add".as_ref(),
            rubric.as_os_str(),
            per_attempt.as_os_str(),
        ],
    ];
    for args in steps {
        let (status, stderr) = run(&env.db, args);
        assert_eq!(status, Some(0), "{stderr}");
    }

    let child = command(&env.db, &["rescore", "--all"]).spawn().unwrap();
    // Cut the rescore's connection once it is reading the history through its cursor.
    wait_until(
        &url,
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
         WHERE pid <> pg_backend_pid() AND datname = current_database()
           AND query LIKE '%ORDER BY a.seat_id, a.problem, a.trial%'",
        "the rescore never started reading",
    );
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("nothing was written"), "{stderr}");
    assert_eq!(count(&url, "SELECT count(*) FROM score"), 0);
    // The retry reads the whole history again and stores a score for every seat.
    let (status, stderr) = run(&env.db, &["rescore".as_ref(), "--all".as_ref()]);
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(count(&url, "SELECT count(*) FROM score"), 8);
}

#[test]
fn the_v1_fixture_copied_onto_the_server_verifies_with_its_head() {
    if !server() {
        return;
    }
    // A working copy of the SQLite fixture (opening it upgrades it), copied onto the server.
    let file = Env::sqlite();
    std::fs::copy(tests_dir("compat/v1/ledger.db"), &file.db).unwrap();
    let env = Env::postgres();
    let out = common::run_raw(
        env.path(),
        &[
            "copy".as_ref(),
            "--from".as_ref(),
            file.db.as_os_str(),
            "--to".as_ref(),
            env.db.as_os_str(),
        ],
        &[],
    );
    assert_eq!(out.status, 0, "{out:#?}");
    let out = env
        .run([
            "verify",
            "--all",
            "--ledger",
            "--expect-head",
            "03bd298b61678947c805dd2673584b2e1cec40c9b3515ac1360acc3be6c40e82",
        ])
        .ok();
    assert!(
        out.stdout.contains("4 of 4 publications reproduce"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_role_that_may_only_read_reads_and_its_writes_exit_3_writing_nothing() {
    if !server() {
        return;
    }
    let env = Env::postgres();
    env.run(["init"]).ok();
    let manifest = wave(env.path(), "w", 2, 20);
    env.ingest(&[&manifest]);
    let name = &env.pg.as_ref().unwrap().name;
    let role = format!("{name}_reader");
    let mut admin = common::pg::admin();
    admin
        .batch_execute(&format!(
            "DROP ROLE IF EXISTS {role}; CREATE ROLE {role} LOGIN;
             GRANT CONNECT ON DATABASE {name} TO {role};"
        ))
        .unwrap();
    env.tamper(&format!(
        "GRANT USAGE ON SCHEMA public TO {role};
         GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role}"
    ));
    // The same database, as the reader.
    let url = env
        .db
        .to_string_lossy()
        .replacen("benchledger@", &format!("{role}@"), 1);
    assert_ne!(url, env.db.to_string_lossy());
    let reader = Path::new(&url);
    let before = env.ledger_bytes();
    for args in [vec!["waves"], vec!["show", "w"], vec!["verify", "--all"]] {
        let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
        let (status, stderr) = run(reader, &args);
        assert_eq!(status, Some(0), "{args:?}: {stderr}");
    }
    let rubric = common::crate_path("rubrics/session-efficiency.v2.toml");
    let other = wave(env.path(), "other", 1, 5);
    for args in [
        vec!["ingest".as_ref(), other.as_os_str()],
        vec!["rubric".as_ref(), "add".as_ref(), rubric.as_os_str()],
    ] {
        let (status, stderr) = run(reader, &args);
        assert_eq!(status, Some(3), "{args:?}: {stderr}");
        assert!(
            stderr.contains("cannot be written with this connection")
                && stderr.contains("nothing was written"),
            "{args:?}: {stderr}"
        );
    }
    assert_eq!(env.ledger_bytes(), before);
    drop(env);
    admin
        .batch_execute(&format!("DROP ROLE IF EXISTS {role}"))
        .unwrap();
}

/// `rescore --all` reads the history in one pass on either store (SQLite's table by id ranges,
/// PostgreSQL's through one cursor): the scores stored are the same, traces and all.
#[test]
fn rescore_all_stores_the_same_scores_on_both_stores() {
    if !server() {
        return;
    }
    // A wave whose traces repeat a failing tool: charged beyond the free retries.
    let retries = tempfile::tempdir().unwrap();
    let jsonl = (0..6)
        .map(|p| {
            let steps = (0..p % 4)
                .map(|_| r#"{"tool":"fetch","ok":false,"error":"timeout"}"#)
                .chain([r#"{"tool":"fetch","ok":true}"#])
                .collect::<Vec<_>>()
                .join(",");
            format!(
                "{{\"problem\":\"p{p}\",\"correct\":{},\"outcome\":0.5,\"trace\":[{steps}]}}\n",
                p % 2 == 0
            )
        })
        .collect::<String>();
    std::fs::write(retries.path().join("r.jsonl"), jsonl).unwrap();
    let manifest = retries.path().join("wave.toml");
    std::fs::write(
        &manifest,
        "[wave]\nid = \"retries\"\nsuite = \"s\"\nstarted_at = 2026-05-01T00:00:00Z\n\n\
         [wave.accounting]\ninput_tokens_include_cache_reads = false\n\n\
         [[seat]]\nid = \"retrying\"\nmodel = \"m\"\nprovider = \"p\"\nharness = \"h\"\n\
         results = \"r.jsonl\"\n",
    )
    .unwrap();
    let manifest = manifest.display().to_string();
    let manifests = [
        "tests/fixtures/rubrics/traces/wave.toml",
        "tests/fixtures/base/wave.toml",
        manifest.as_str(),
    ];
    let mut rubrics: Vec<String> = std::fs::read_dir(common::crate_root().join("rubrics"))
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .collect();
    rubrics.sort();
    let stores = [Env::sqlite(), Env::postgres()].map(|env| {
        let env = env.run_from_crate_root();
        env.run(["init"]).ok();
        env.ingest(&manifests.map(Path::new));
        let mut add = vec!["rubric", "add", "--allow-scale-violation"];
        add.extend(rubrics.iter().map(String::as_str));
        env.run(add).ok();
        let out = env.run(["rescore", "--all"]).ok();
        assert!(out.stdout.contains("in one pass"), "{}", out.stdout);
        env
    });
    // rubrics/NAME.vN.toml is NAME@N.
    let ids: Vec<String> = rubrics
        .iter()
        .map(|f| {
            let stem = Path::new(f).file_stem().unwrap().to_str().unwrap();
            let (name, version) = stem.rsplit_once(".v").unwrap();
            format!("{name}@{version}")
        })
        .collect();
    let scores = |env: &Env| -> Vec<String> {
        ids.iter()
            .map(|id| {
                env.run(["history", "--rubric", id, "--format", "json"])
                    .ok()
                    .stdout
            })
            .collect()
    };
    let (lite, pg) = (scores(&stores[0]), scores(&stores[1]));
    assert_eq!(lite.len(), 8);
    for (history, id) in lite.iter().zip(&ids) {
        for seat in ["tidy", "s1", "retrying"] {
            assert!(history.contains(&format!("\"{seat}\"")), "{id}: {history}");
        }
    }
    assert_eq!(lite, pg);
}
