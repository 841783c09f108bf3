//! A ledger that cannot be written (issue 7): commands that only read it work, in a read-only
//! directory too; commands that write it exit 3, saying why, and change nothing.
//!
//! Permission bits make a file or directory read-only for an ordinary user, but not for root,
//! who ignores them; as root the tests use the immutable attribute (`chattr +i`), which binds
//! root too. Only where neither binds is a test skipped, saying so.

#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};

use common::{Env, Out, copy_dir, tests_dir};

/// A file or directory made read-only for this process until dropped.
struct ReadOnly {
    path: PathBuf,
    /// The permissions to restore, or `None` when the immutable attribute was set.
    restore: Option<std::fs::Permissions>,
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        match &self.restore {
            Some(p) => std::fs::set_permissions(&self.path, p.clone()).unwrap(),
            None => {
                let ok = std::process::Command::new("chattr")
                    .arg("-i")
                    .arg(&self.path)
                    .status()
                    .is_ok_and(|s| s.success());
                assert!(ok, "chattr -i {}", self.path.display());
            }
        }
    }
}

/// Whether this process can write `path` (a file: open it for writing; a directory: create a
/// file in it).
fn writable(path: &Path) -> bool {
    if path.is_dir() {
        let probe = path.join(".probe");
        let ok = std::fs::File::create(&probe).is_ok();
        let _ = std::fs::remove_file(&probe);
        ok
    } else {
        std::fs::OpenOptions::new().write(true).open(path).is_ok()
    }
}

/// Makes `path` read-only for this process, or says why it cannot and returns `None`.
fn read_only(path: &Path) -> Option<ReadOnly> {
    use std::os::unix::fs::PermissionsExt;
    let original = std::fs::metadata(path).unwrap().permissions();
    let mut p = original.clone();
    p.set_mode(if path.is_dir() { 0o555 } else { 0o444 });
    std::fs::set_permissions(path, p).unwrap();
    if !writable(path) {
        return Some(ReadOnly {
            path: path.to_path_buf(),
            restore: Some(original),
        });
    }
    std::fs::set_permissions(path, original).unwrap();
    let set = std::process::Command::new("chattr")
        .arg("+i")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success());
    if set {
        let guard = ReadOnly {
            path: path.to_path_buf(),
            restore: None,
        };
        if !writable(path) {
            return Some(guard);
        }
    }
    eprintln!(
        "skipped: neither permission bits nor the immutable attribute make {} read-only for \
         this process",
        path.display()
    );
    None
}

/// A ledger with two waves sharing a seat, a registered and rescored rubric, and a
/// publication: something for every reading command to read. Always an SQLite file: these
/// tests are about a file and a directory the process may not write.
fn full_ledger() -> Env {
    let env = Env::sqlite();
    env.run(["init"]).ok();
    let second = env.path().join("second");
    copy_dir(&tests_dir("fixtures/base"), &second);
    let manifest = second.join("wave.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replace("id = \"base\"", "id = \"second\"")
            .replace("2026-03-01T09:00:00Z", "2026-04-01T09:00:00Z"),
    )
    .unwrap();
    env.ingest(&[&tests_dir("fixtures/base/wave.toml"), &manifest]);
    env.run(["rubric", "add", &rubric("session-efficiency.v2.toml")])
        .ok();
    env.run(["rescore", "--rubric", "session-efficiency@2"])
        .ok();
    env.run([
        "publish",
        "--wave",
        "base",
        "--rubric",
        "session-efficiency@2",
    ])
    .ok();
    env
}

fn rubric(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("rubrics")
        .join(name)
        .display()
        .to_string()
}

/// Every command that only reads, with what its output must hold.
fn reads() -> Vec<(Vec<String>, &'static str)> {
    let v = |args: &[&str]| args.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    vec![
        (v(&["waves"]), "second"),
        (v(&["show", "base"]), "s1"),
        (
            v(&[
                "score",
                "--wave",
                "base",
                "--rubric",
                "session-efficiency@2",
            ]),
            "s1",
        ),
        (
            v(&[
                "score",
                "--wave",
                "base",
                "--rubric",
                &rubric("cohort-efficiency.v1.toml"),
            ]),
            "s1",
        ),
        (v(&["history", "--rubric", "session-efficiency@2"]), "s1"),
        (
            v(&[
                "diff",
                "session-efficiency@2",
                &rubric("session-efficiency.v1.toml"),
            ]),
            "s1",
        ),
        (v(&["compare", "--seat", "s1", "base", "second"]), "s1"),
        (v(&["publications"]), "base"),
        (v(&["verify", "--all"]), "reproduce"),
        (v(&["rubric", "list"]), "session-efficiency"),
        (v(&["rubric", "show", "session-efficiency@2"]), "scale"),
    ]
}

/// Every command that writes, each of which must now exit 3.
fn writes() -> Vec<Vec<String>> {
    let v = |args: &[&str]| args.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    vec![
        v(&["rubric", "add", &rubric("trace-holistic.v1.toml")]),
        v(&["rescore", "--rubric", "session-efficiency@2"]),
        v(&[
            "publish",
            "--wave",
            "second",
            "--rubric",
            "session-efficiency@2",
        ]),
    ]
}

#[track_caller]
fn assert_reads_work(env: &Env) {
    for (args, expect) in reads() {
        let out = env.run(&args);
        assert_eq!(out.status, 0, "{args:?}: {out:#?}");
        assert!(out.stdout.contains(expect), "{args:?}: {}", out.stdout);
    }
}

/// Each write exits 3, saying the ledger is read-only (or, opening it, that its directory must be
/// writable) and that nothing was written.
#[track_caller]
fn assert_writes_exit_3(env: &Env, ingest_dir: &Path) {
    let mut all = writes();
    all.push(vec![
        "ingest".to_string(),
        ingest_dir.join("wave.toml").display().to_string(),
    ]);
    for args in all {
        let out: Out = env.run(&args);
        assert_eq!(out.status, 3, "{args:?}: {out:#?}");
        assert!(
            (out.stderr.contains("is read-only") || out.stderr.contains("must be writable"))
                && out.stderr.contains("nothing was written"),
            "{args:?}: {}",
            out.stderr
        );
    }
}

/// A new wave, outside the ledger's directory.
fn new_wave(dir: &Path) -> PathBuf {
    let wave = dir.join("new-wave");
    copy_dir(&tests_dir("corpus/bad/second-manifest-bad/good"), &wave);
    wave
}

#[test]
fn a_ledger_in_a_read_only_directory_can_be_read_and_not_written() {
    let env = full_ledger();
    let outside = tempfile::tempdir().unwrap();
    let wave = new_wave(outside.path());
    let before = env.ledger_bytes();
    let listing = std::fs::read_dir(env.path()).unwrap().count();
    let Some(_guard) = read_only(env.path()) else {
        return;
    };
    assert_reads_work(&env);
    assert_writes_exit_3(&env, &wave);
    assert_eq!(env.ledger_bytes(), before);
    assert_eq!(std::fs::read_dir(env.path()).unwrap().count(), listing);
}

#[test]
fn a_read_only_ledger_file_can_be_read_and_not_written() {
    let env = full_ledger();
    let outside = tempfile::tempdir().unwrap();
    let wave = new_wave(outside.path());
    let before = env.ledger_bytes();
    let Some(_guard) = read_only(&env.db) else {
        return;
    };
    assert_reads_work(&env);
    assert_writes_exit_3(&env, &wave);
    assert_eq!(env.ledger_bytes(), before);
}
