//! Inputs that are not regular files, or are huge (issue 7): a FIFO named as a manifest, problem
//! list, results file or rubric blocked its read for ever; `/dev/zero` was read until memory
//! ran out. Each must be refused at once, naming the file and what it is, with exit status 2 and
//! the ledger unchanged.
//!
//! Every command runs under a guard that kills it after 30 s and fails the test, so a
//! regression shows as a failure, never as a hung test run.

#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{Env, Out, copy_dir, tests_dir};

const LIMIT: Duration = Duration::from_secs(30);

fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// A ledger holding the base wave, and a copy of that wave's directory to break.
fn setup() -> (Env, PathBuf) {
    let env = Env::init();
    env.ingest(&[&tests_dir("fixtures/base/wave.toml")]);
    let dir = env.path().join("case");
    copy_dir(&tests_dir("fixtures/base"), &dir);
    (env, dir)
}

/// Runs a command that must be refused as bad input: exit 2, one error line holding every one
/// of `expected`, nothing on stdout, the ledger's bytes unchanged.
#[track_caller]
fn refused(env: &Env, args: &[&std::ffi::OsStr], expected: &[&str]) -> Out {
    let before = env.ledger_bytes();
    let out = env.run_guarded(args, LIMIT);
    assert_eq!(out.status, 2, "{args:?}: {out:#?}");
    for e in expected {
        assert!(
            out.stderr.contains(e),
            "{args:?}: expected {e:?} in {}",
            out.stderr
        );
    }
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    assert_eq!(env.ledger_bytes(), before, "{args:?} changed the ledger");
    out
}

fn ingest(env: &Env, manifest: &Path, expected: &[&str]) -> Out {
    refused(env, &["ingest".as_ref(), manifest.as_os_str()], expected)
}

const FIFO: &str = "is a FIFO (named pipe), not a regular file";
const DEVICE: &str = "is a character device, not a regular file";

#[test]
fn a_fifo_as_manifest_is_refused() {
    let (env, dir) = setup();
    let fifo = dir.join("fifo.toml");
    mkfifo(&fifo);
    ingest(&env, &fifo, &[&format!("{}: {FIFO}", fifo.display())]);
}

#[test]
fn dev_zero_as_manifest_is_refused() {
    let (env, dir) = setup();
    let zero = dir.join("zero.toml");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    ingest(&env, &zero, &[&format!("{}: {DEVICE}", zero.display())]);
}

#[test]
fn a_fifo_or_dev_zero_as_suite_problems_file_is_refused() {
    let (env, dir) = setup();
    mkfifo(&dir.join("ids.fifo"));
    std::os::unix::fs::symlink("/dev/zero", dir.join("ids.zero")).unwrap();
    let manifest = dir.join("wave.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    for (file, what) in [("ids.fifo", FIFO), ("ids.zero", DEVICE)] {
        std::fs::write(
            &manifest,
            text.replace(
                "suite_problems = 3",
                &format!("suite_problems_file = \"{file}\""),
            ),
        )
        .unwrap();
        ingest(
            &env,
            &manifest,
            &[
                "wave.toml:6: field `suite_problems_file`: cannot read the problem list",
                &format!("{}: {what}", dir.join(file).display()),
            ],
        );
    }
}

#[test]
fn a_fifo_or_device_or_directory_as_results_file_is_refused() {
    let (env, dir) = setup();
    mkfifo(&dir.join("r.jsonl"));
    mkfifo(&dir.join("r.csv"));
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.jsonl")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.csv")).unwrap();
    std::fs::create_dir(dir.join("dir.jsonl")).unwrap();
    let manifest = dir.join("wave.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    for (file, what) in [
        ("r.jsonl", FIFO),
        ("r.csv", FIFO),
        ("zero.jsonl", DEVICE),
        ("zero.csv", DEVICE),
        ("dir.jsonl", "is a directory, not a regular file"),
    ] {
        std::fs::write(
            &manifest,
            text.replace("results = \"s1.jsonl\"", &format!("results = \"{file}\"")),
        )
        .unwrap();
        ingest(
            &env,
            &manifest,
            &[&format!("{}: {what}", dir.join(file).display())],
        );
    }
}

#[test]
fn a_fifo_or_dev_zero_as_rubric_is_refused() {
    let (env, dir) = setup();
    let fifo = dir.join("r.v1.toml");
    mkfifo(&fifo);
    let zero = dir.join("zero.v1.toml");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    for (file, what) in [(&fifo, FIFO), (&zero, DEVICE)] {
        let expected = format!("{}: {what}", file.display());
        refused(
            &env,
            &["rubric".as_ref(), "add".as_ref(), file.as_os_str()],
            &[&expected],
        );
        refused(
            &env,
            &[
                "score".as_ref(),
                "--wave".as_ref(),
                "base".as_ref(),
                "--rubric".as_ref(),
                file.as_os_str(),
            ],
            &[&expected],
        );
        // `rubric check` reports each file it cannot check, then exits 2.
        let out = env.run_guarded(
            ["rubric".as_ref(), "check".as_ref(), file.as_os_str()],
            LIMIT,
        );
        assert_eq!(out.status, 2, "{out:#?}");
        assert!(out.stdout.contains(&expected), "{}", out.stdout);
    }
}

#[test]
fn a_huge_manifest_csv_or_line_is_refused_before_it_is_read_whole() {
    let (env, dir) = setup();
    // Sparse files: as large as they say, at no cost in disk or time.
    let manifest = dir.join("huge.toml");
    std::fs::File::create(&manifest)
        .unwrap()
        .set_len(16 * 1024 * 1024 + 1)
        .unwrap();
    ingest(
        &env,
        &manifest,
        &[&format!(
            "{}: is larger than 16 MiB, the most benchledger reads of a wave manifest (it is \
             16777217 bytes)",
            manifest.display()
        )],
    );

    let wave = dir.join("wave.toml");
    let text = std::fs::read_to_string(&wave).unwrap();
    std::fs::File::create(dir.join("huge.csv"))
        .unwrap()
        .set_len(256 * 1024 * 1024 + 1)
        .unwrap();
    std::fs::write(&wave, text.replace("s1.jsonl", "huge.csv")).unwrap();
    ingest(
        &env,
        &wave,
        &[
            "huge.csv: is larger than 256 MiB, the most benchledger reads of a problem list or a \
             CSV results file (it is 268435457 bytes)",
            "give the results as JSON lines",
        ],
    );

    // A JSON-lines file is read a line at a time, but a line without end is not held whole.
    let jsonl = dir.join("long.jsonl");
    let mut bytes = std::fs::read(dir.join("s1.jsonl")).unwrap();
    bytes.extend(std::iter::repeat_n(b' ', 16 * 1024 * 1024 + 1));
    std::fs::write(&jsonl, bytes).unwrap();
    std::fs::write(&wave, text.replace("s1.jsonl", "long.jsonl")).unwrap();
    let lines = std::fs::read_to_string(dir.join("s1.jsonl"))
        .unwrap()
        .lines()
        .count();
    ingest(
        &env,
        &wave,
        &[&format!(
            "long.jsonl: line {} is longer than 16 MiB, the most benchledger reads of a line of \
             a JSON-lines results file",
            lines + 1
        )],
    );
}

#[test]
fn a_fifo_or_device_as_the_ledger_is_refused() {
    let (_env, dir) = setup();
    let fifo = dir.join("ledger.fifo");
    mkfifo(&fifo);
    let zero = dir.join("ledger.zero");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let manifest = dir.join("wave.toml");
    for (db, what) in [
        (&fifo, "a FIFO (named pipe)"),
        (&zero, "a character device"),
    ] {
        for args in [
            vec!["waves".as_ref()],
            vec!["init".as_ref()],
            vec!["ingest".as_ref(), manifest.as_os_str()],
        ] {
            let mut all = vec!["--db".as_ref(), db.as_os_str()];
            all.extend(args);
            let out = common::run_guarded(&dir, &all, LIMIT);
            assert_eq!(out.status, 2, "{all:?}: {out:#?}");
            assert_eq!(
                out.stderr,
                format!(
                    "error: {} is {what}, not a ledger file: point --db or BENCHLEDGER_DB at \
                     the ledger\n",
                    db.display()
                )
            );
        }
    }
}
