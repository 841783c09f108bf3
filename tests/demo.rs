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
    // The relative story in words, and the trace columns the trace section talks about.
    assert!(stdout.contains(
        "xai-hierarchical's relative score rose 1.375 → 1.584 while its wall time rose 141 → 262 s"
    ));
    assert!(stdout.contains("Steps") && stdout.contains("Errors charged, 1 free retry"));
    assert!(stdout.contains("fetch ×5"));
    assert!(stdout.contains("1 of 1 publication reproduces"));
    assert!(stdout.contains("8 claims: 4 reproduced, 3 differ, 1 cannot be computed."));
    // Nothing is left behind in the working directory.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    let stdout = common::schema_version_named(&stdout);
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

/// The README's session, line by line as the README prints it, run by a shell in a directory
/// holding nothing but what `demo --write` wrote there.
#[test]
fn demo_write_lets_the_readmes_session_run_in_any_directory() {
    let dir = tempfile::tempdir().unwrap();
    let out = common::run_raw(dir.path(), &["demo", "--write", "bl"], &[]);
    assert_eq!(out.status, 0, "{out:#?}");
    assert!(out.stdout.contains("The README's session runs from there"));
    let root = dir.path().join("bl");
    for f in [
        "examples/rca-wave-2/wave.toml",
        "rubrics/session-efficiency.v1.toml",
        "prices/example-list.v1.toml",
    ] {
        assert_eq!(
            std::fs::read(root.join(f)).unwrap(),
            std::fs::read(common::crate_path(f)).unwrap(),
            "{f}"
        );
    }
    let readme = std::fs::read_to_string(common::crate_path("README.md")).unwrap();
    let session = readme
        .split("## A session\n\n```sh\n")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .expect("the README has a session");
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_benchledger"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for line in session.lines().filter(|l| l.starts_with("benchledger ")) {
        let out = std::process::Command::new("sh")
            .args(["-c", line])
            .current_dir(&root)
            .env("PATH", &path)
            .env("BENCHLEDGER_NOW", common::NOW)
            .env_remove("BENCHLEDGER_DB")
            .output()
            .unwrap();
        // `rubric check` exits 1 on the rubric that fails its scale, and `claims check` on the
        // claims that differ, as the README says.
        let expected = if line.contains("rubric check") || line.contains("(exit 1)") {
            1
        } else {
            0
        };
        assert_eq!(
            out.status.code(),
            Some(expected),
            "`{line}` in {}:\n{}{}",
            root.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        ran += 1;
    }
    assert!(ran >= 15, "only {ran} lines of the session ran");
    assert!(root.join("benchledger.db").is_file());

    // Written again, identical files are left as they are; a file with other text is refused
    // before anything is written.
    let again = common::run_raw(dir.path(), &["demo", "--write", "bl"], &[]);
    assert_eq!(again.status, 0, "{again:#?}");
    assert!(again.stdout.contains("were there already, identical"));
    let edited = root.join("rubrics/session-efficiency.v2.toml");
    std::fs::write(&edited, "# mine\n").unwrap();
    std::fs::remove_file(root.join("rubrics/trace-holistic.v1.toml")).unwrap();
    let refused = common::run_raw(dir.path(), &["demo", "--write", "bl"], &[]);
    assert_eq!(refused.status, 2, "{refused:#?}");
    assert!(refused.stderr.contains("session-efficiency.v2.toml"));
    assert!(refused.stderr.contains("nothing was written"));
    assert!(!root.join("rubrics/trace-holistic.v1.toml").exists());
    assert_eq!(std::fs::read_to_string(&edited).unwrap(), "# mine\n");
}
