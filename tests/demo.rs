//! The demo is the README's first command: it must run on a fresh machine and print every story
//! with the seeds' numbers. Its whole output is snapshotted.

mod common;

#[test]
fn the_demo_tells_every_story_with_the_right_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let out = common::run_raw(dir.path(), &["demo"], &[]);
    assert_eq!(out.status, 0, "demo failed: {}", out.stderr);
    let stdout = out.stdout;
    // The stories, in the seeds' own numbers.
    assert!(stdout.contains("the score can reach 125 on a 0–100 scale"));
    assert!(stdout.contains("125.00"));
    assert!(stdout.contains("1.375") && stdout.contains("1.584"));
    assert!(stdout.contains("wall +121.0 s"));
    assert!(stdout.contains("0.180"));
    assert!(stdout.contains("1 of 1 publication reproduces"));
    assert!(stdout.contains("8 claims: 4 reproduced, 3 differ, 1 cannot be computed."));
    // Nothing is left behind in the working directory.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    common::snapshot_settings().bind(|| insta::assert_snapshot!("demo", stdout));
}

#[test]
fn the_demo_keeps_its_ledger_only_where_asked() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("demo.db");
    let run = || common::run_raw(dir.path(), &["--db", db.to_str().unwrap(), "demo"], &[]);
    let first = run();
    assert_eq!(first.status, 0, "{first:#?}");
    assert!(db.is_file());
    // A second run refuses to overwrite an existing ledger.
    let second = run();
    assert_eq!(second.status, 2);
    assert!(second.stderr.contains("already exists"));
}
