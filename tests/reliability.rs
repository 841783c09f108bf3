//! Reliability of the ledger under the failures a long-lived leaderboard meets: a process killed
//! mid-ingest, and several writers at once. These assert outcomes, never timings.

mod common;

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use common::{Env, crate_path};

/// Writes a wave of `seats` × `problems` attempts, large enough that ingest takes a while.
fn big_wave(dir: &Path, id: &str, seats: usize, problems: usize) -> std::path::PathBuf {
    let wave_dir = dir.join(id);
    std::fs::create_dir_all(&wave_dir).unwrap();
    let mut manifest = format!(
        "[wave]\nid = \"{id}\"\nsuite = \"big\"\nstarted_at = 2026-05-01T00:00:00Z\n\n\
         [wave.accounting]\ninput_tokens_include_cache_reads = false\n\n\
         [wave.budget]\ntokens = 100000\nwall_s = 60\n"
    );
    for s in 0..seats {
        manifest.push_str(&format!(
            "\n[[seat]]\nid = \"seat-{s}\"\nmodel = \"m{s}\"\nprovider = \"p\"\nharness = \"h\"\n\
             results = \"seat-{s}.jsonl\"\n"
        ));
        let mut lines = String::with_capacity(problems * 200);
        for p in 0..problems {
            lines.push_str(&format!(
                "{{\"problem\":\"p{p:06}\",\"correct\":{},\"input_tokens\":{},\"output_tokens\":{},\
                 \"wall_s\":{}.5,\"cost_usd\":0.0{},\"steps\":{},\"errors\":0}}\n",
                p % 3 != 0,
                1000 + p,
                100 + s,
                10 + p % 50,
                1 + p % 9,
                p % 12
            ));
        }
        std::fs::write(wave_dir.join(format!("seat-{s}.jsonl")), lines).unwrap();
    }
    let path = wave_dir.join("wave.toml");
    std::fs::write(&path, manifest).unwrap();
    path
}

fn count(db: &Path, sql: &str) -> i64 {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row(sql, [], |r| r.get(0)).unwrap()
}

fn integrity(db: &Path) -> String {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap()
}

#[test]
fn a_kill_mid_ingest_leaves_the_wave_wholly_there_or_wholly_absent() {
    let env = Env::init();
    let manifest = big_wave(env.path(), "big", 4, 20_000);
    let total = 4 * 20_000;
    let wal = env.db.with_extension("db-wal");
    // Start an ingest and kill it (SIGKILL) the moment its transaction has written into the
    // WAL: mid-write, long before the commit of 80,000 attempts.
    let mut child = env
        .command(["ingest".as_ref(), manifest.as_os_str()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut killed_mid_write = false;
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if std::fs::metadata(&wal).is_ok_and(|m| m.len() > 256 * 1024) {
            child.kill().unwrap();
            killed_mid_write = child.wait().unwrap().code().is_none();
            break;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    eprintln!("killed mid-write: {killed_mid_write}");
    assert_eq!(integrity(&env.db), "ok");
    let waves = count(&env.db, "SELECT count(*) FROM wave");
    let attempts = count(&env.db, "SELECT count(*) FROM attempt");
    if killed_mid_write {
        assert_eq!(
            (waves, attempts),
            (0, 0),
            "a killed transaction left rows behind"
        );
    } else {
        assert!(
            (waves, attempts) == (0, 0) || (waves, attempts) == (1, total),
            "{waves} waves, {attempts} attempts"
        );
    }
    // A new ingest completes the ledger (or finds the wave already whole).
    env.run(["ingest".as_ref(), manifest.as_os_str()]).ok();
    assert_eq!(count(&env.db, "SELECT count(*) FROM attempt"), total);
    assert_eq!(integrity(&env.db), "ok");
}

#[test]
fn concurrent_writers_lose_nothing() {
    let env = Env::init();
    let manifests: Vec<_> = (0..4)
        .map(|i| big_wave(env.path(), &format!("w{i}"), 2, 3_000))
        .collect();
    // Four ingests and a rubric registration, all at once, each in its own process.
    let mut children: Vec<_> = manifests
        .iter()
        .map(|m| {
            env.command(["ingest".as_ref(), m.as_os_str()])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let rubric = crate_path("rubrics/session-efficiency.v2.toml");
    children.push(
        env.command(["rubric".as_ref(), "add".as_ref(), rubric.as_os_str()])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "a concurrent writer failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_eq!(count(&env.db, "SELECT count(*) FROM wave"), 4);
    assert_eq!(
        count(&env.db, "SELECT count(*) FROM attempt"),
        4 * 2 * 3_000
    );
    assert_eq!(count(&env.db, "SELECT count(*) FROM rubric"), 1);
    assert_eq!(integrity(&env.db), "ok");
    // And a rescore over all of it, while nothing else writes, stores every seat.
    let out = env
        .run(["rescore", "--rubric", "session-efficiency@2"])
        .ok();
    assert!(
        out.stdout.contains("rescored 4 waves, 8 seats"),
        "{}",
        out.stdout
    );
}
