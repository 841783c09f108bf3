//! A bundle comes from someone else: `verify --bundle` trusts nothing in it and touches nothing
//! (issue 7, part 4), and `bundle --out` writes only directly inside the directory it is given.
//!
//! "Touches nothing" is checked as the property itself, not through permission bits (tests may
//! run as root, whom a read-only mode does not stop): every entry of the bundle — name, type,
//! length, permissions, modification time and bytes — and the directory's own modification
//! time, which changes whenever a file is created or removed in it, even one that is gone again
//! by the end (an SQLite `-wal` or `-shm`), are the same before and after.
//!
//! Every run is bounded: a run still going after 30 seconds is killed and the test fails, so a
//! FIFO that blocks a reader fails a test instead of hanging the suite.

#![cfg(unix)]

mod common;

use std::collections::BTreeMap;
use std::ffi::OsStr;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant, SystemTime};

use common::{Env, Out, copy_dir, tests_dir};
use rusqlite::Connection;

const WAVE: &str = "checkout-rematch";
const V2: &str = "session-efficiency@2";
const RUBRIC_FILE: &str = "session-efficiency.v2.toml";
/// `verify`'s report on the clean bundle of [`published`].
fn clean_report() -> String {
    format!(
        "publication #1 \"checkout-rematch under session-efficiency@2\" \
         (checkout-rematch under session-efficiency@2): OK — reproduces byte for byte (output \
         sha256 ab40329487ea)\n1 of 1 publication reproduces\n{}",
        ledger_report()
    )
}

/// The head of the clean bundle: its publication's log entry, which follows the entries of
/// its wave's ingest and its rubric's registration.
const BUNDLE_HEAD: &str = "37b6e84a3d19ecc1d057586059fe73a0f3b640161d1ad183045b36d3f6a56579";

/// What `verify --bundle` says of the clean bundle's ledger, after its publications.
fn ledger_report() -> String {
    format!(
        "the bundle's ledger, against what it was derived from (as verify --ledger checks a \
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
         holds it; head {BUNDLE_HEAD} (keep it outside the ledger and check it with \
         --expect-head)\n",
        benchledger_core::ledger::schema_version()
    )
}

fn crate_path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// A ledger with the checkout-rematch wave published under session-efficiency v2, and the
/// publication's bundle, written by `publish --bundle`, in `bundle/` beside it.
fn published() -> (Env, PathBuf) {
    let env = Env::init();
    env.ingest(&[&crate_path("examples/checkout-rematch/wave.toml")]);
    let rubric = crate_path("rubrics").join(RUBRIC_FILE);
    env.run(["rubric".as_ref(), "add".as_ref(), rubric.as_os_str()])
        .ok();
    let dir = env.path().join("bundle");
    env.run([
        "publish".as_ref(),
        "--wave".as_ref(),
        WAVE.as_ref(),
        "--rubric".as_ref(),
        V2.as_ref(),
        "--bundle".as_ref(),
        dir.as_os_str(),
    ])
    .ok();
    (env, dir)
}

/// A copy of a bundle at `rel` under a new temporary directory (kept alive by the first value).
fn copy_of(bundle: &Path, rel: &str) -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::tempdir().expect("a temporary directory");
    let dir = root.path().join(rel);
    copy_dir(bundle, &dir);
    (root, dir)
}

/// Runs `benchledger ARGS` from `cwd`, killing it (and failing) if it is still running after
/// 30 seconds.
fn run_bounded<S: AsRef<OsStr>>(cwd: &Path, args: &[S]) -> Out {
    common::run_guarded(cwd, args, Duration::from_secs(30))
}

/// `verify --bundle DIR`, run from another directory with no ledger in sight.
fn verify_bundle(dir: &Path) -> Out {
    let elsewhere = tempfile::tempdir().expect("a temporary directory");
    run_bounded(
        elsewhere.path(),
        &["verify".as_ref(), "--bundle".as_ref(), dir.as_os_str()],
    )
}

/// One entry of a directory, as far as any write could change it.
#[derive(Debug, PartialEq)]
struct Entry {
    kind: &'static str,
    len: u64,
    mode: u32,
    modified: SystemTime,
    /// A regular file's bytes (up to 1 MiB: larger files are compared by length and time
    /// only), a link's target.
    content: Vec<u8>,
}

/// A directory's own modification time, and every entry in it by name.
#[derive(Debug, PartialEq)]
struct State {
    modified: SystemTime,
    entries: BTreeMap<String, Entry>,
}

fn state(dir: &Path) -> State {
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};
    let meta = std::fs::symlink_metadata(dir).expect("the directory's metadata");
    let mut entries = BTreeMap::new();
    for e in std::fs::read_dir(dir).expect("reading the directory") {
        let e = e.expect("a directory entry");
        let m = std::fs::symlink_metadata(e.path()).expect("an entry's metadata");
        let t = m.file_type();
        let (kind, content) = if t.is_symlink() {
            let target = std::fs::read_link(e.path()).expect("a link's target");
            ("link", target.into_os_string().into_encoded_bytes())
        } else if t.is_file() && m.len() <= 1 << 20 {
            ("file", std::fs::read(e.path()).expect("a file's bytes"))
        } else if t.is_file() {
            ("large file", Vec::new())
        } else if t.is_fifo() {
            ("fifo", Vec::new())
        } else if t.is_dir() {
            ("directory", Vec::new())
        } else {
            ("other", Vec::new())
        };
        let entry = Entry {
            kind,
            len: m.len(),
            mode: m.permissions().mode(),
            modified: m.modified().expect("a modification time"),
            content,
        };
        entries.insert(e.file_name().to_string_lossy().into_owned(), entry);
    }
    State {
        modified: meta.modified().expect("a modification time"),
        entries,
    }
}

#[track_caller]
fn assert_contains(haystack: &str, needle: &str) {
    assert!(
        haystack.contains(needle),
        "expected {needle:?} in:\n{haystack}"
    );
}

/// Edits a ledger (a bundle's file, or the test's ledger on either store) behind benchledger's
/// back, as someone with the database's own shell would.
fn tamper(db: &Path, sql: &str) {
    common::Shell::at(db).tamper(sql);
}

/// Runs `sql` on a ledger file as someone editing it with the sqlite3 shell would: every
/// trigger dropped first and restored, word for word, after, so that the schema shows nothing.
fn forge(db: &Path, sql: &str) {
    let conn = rusqlite::Connection::open(db).unwrap();
    let triggers: Vec<(String, String)> = conn
        .prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' ORDER BY name")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(!triggers.is_empty());
    for (name, _) in &triggers {
        conn.execute_batch(&format!("DROP TRIGGER {name}")).unwrap();
    }
    conn.execute_batch(sql).unwrap();
    for (_, sql) in &triggers {
        conn.execute_batch(sql).unwrap();
    }
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
        .unwrap();
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

#[test]
fn verify_bundle_leaves_every_file_byte_identical() {
    let (_env, bundle) = published();
    let (_root, dir) = copy_of(&bundle, "copied");
    let before = state(&dir);
    assert_eq!(
        before.entries.keys().collect::<Vec<_>>(),
        ["README.md", "ledger.db", "publication.md", RUBRIC_FILE]
    );
    let out = verify_bundle(&dir).ok();
    assert_eq!(out.stdout, clean_report());
    // As its README says: from inside the bundle.
    let out = run_bounded(&dir, &["verify", "--bundle", "."]).ok();
    assert_eq!(out.stdout, clean_report());
    assert_eq!(state(&dir), before, "verify --bundle changed the bundle");
}

/// Restores a directory's permissions (and its files') when dropped, so that a failing test
/// still cleans up.
struct Writable(PathBuf);

impl Drop for Writable {
    fn drop(&mut self) {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&self.0, std::fs::Permissions::from_mode(0o755));
        if let Ok(entries) = std::fs::read_dir(&self.0) {
            for e in entries.flatten() {
                let _ = std::fs::set_permissions(e.path(), std::fs::Permissions::from_mode(0o644));
            }
        }
    }
}

#[test]
fn a_read_only_bundle_verifies() {
    use std::os::unix::fs::PermissionsExt;
    let (_env, bundle) = published();
    let (_root, dir) = copy_of(&bundle, "read-only");
    let _restore = Writable(dir.clone());
    for e in std::fs::read_dir(&dir).unwrap() {
        std::fs::set_permissions(e.unwrap().path(), std::fs::Permissions::from_mode(0o444))
            .unwrap();
    }
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o555)).unwrap();
    let before = state(&dir);
    let out = verify_bundle(&dir).ok();
    assert_eq!(out.stdout, clean_report());
    assert_eq!(state(&dir), before, "verify --bundle changed the bundle");
}

#[test]
fn a_symlinked_ledger_is_refused_and_its_target_untouched() {
    let (_env, bundle) = published();
    let (root, dir) = copy_of(&bundle, "linked");
    // The link leads to a genuine ledger: it is refused for being a link, not for what it
    // leads to.
    let elsewhere = root.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::fs::rename(dir.join("ledger.db"), elsewhere.join("real.db")).unwrap();
    std::os::unix::fs::symlink(elsewhere.join("real.db"), dir.join("ledger.db")).unwrap();
    let (target_before, bundle_before) = (state(&elsewhere), state(&dir));
    let out = verify_bundle(&dir).status(2);
    assert_contains(
        &out.stderr,
        &format!(
            "{} is a symbolic link: a bundle's files are read only as regular files inside it, \
             and the link was not followed. Nothing was read from it",
            dir.join("ledger.db").display()
        ),
    );
    assert_eq!(out.stdout, "");
    assert_eq!(
        state(&elsewhere),
        target_before,
        "the link's target changed"
    );
    assert_eq!(state(&dir), bundle_before);

    // Nor is /dev/zero read through a link.
    std::fs::remove_file(dir.join("ledger.db")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("ledger.db")).unwrap();
    let out = verify_bundle(&dir).status(2);
    assert_contains(&out.stderr, "ledger.db is a symbolic link");
}

#[test]
fn a_ledger_that_is_not_a_regular_file_is_refused_promptly() {
    let (_env, bundle) = published();
    let (_root, dir) = copy_of(&bundle, "fifo");
    std::fs::remove_file(dir.join("ledger.db")).unwrap();
    mkfifo(&dir.join("ledger.db"));
    let started = Instant::now();
    let out = verify_bundle(&dir).status(2);
    assert_contains(
        &out.stderr,
        "ledger.db is a FIFO (named pipe), not a regular file, and was not read",
    );
    assert!(started.elapsed() < Duration::from_secs(10));

    std::fs::remove_file(dir.join("ledger.db")).unwrap();
    std::fs::create_dir(dir.join("ledger.db")).unwrap();
    let out = verify_bundle(&dir).status(2);
    assert_contains(&out.stderr, "ledger.db is a directory, not a regular file");
}

#[test]
fn an_oversized_ledger_is_refused_unread() {
    let (_env, bundle) = published();
    let (_root, dir) = copy_of(&bundle, "large");
    // Sparse: one byte over the cap costs no disk.
    let f = std::fs::File::create(dir.join("ledger.db")).unwrap();
    f.set_len((512 << 20) + 1).unwrap();
    drop(f);
    let before = state(&dir);
    let out = verify_bundle(&dir).status(2);
    assert_contains(
        &out.stderr,
        "ledger.db is 536870913 bytes, more than the 512 MiB it may be, and was not read: a \
         bundle's ledger holds one publication and its wave. If this one really is that large, \
         verify a copy of it as a ledger: `benchledger --db COPY verify --all`",
    );
    assert_eq!(state(&dir), before);
}

#[test]
fn the_files_beside_the_ledger_are_read_under_the_same_rules() {
    let (env, bundle) = published();
    // A link to a file with the right bytes is still a link.
    let (_root, dir) = copy_of(&bundle, "links");
    let readme = env.path().join("README.copy.md");
    std::fs::rename(dir.join("README.md"), &readme).unwrap();
    std::os::unix::fs::symlink(&readme, dir.join("README.md")).unwrap();
    std::fs::remove_file(dir.join(RUBRIC_FILE)).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join(RUBRIC_FILE)).unwrap();
    std::fs::remove_file(dir.join("publication.md")).unwrap();
    mkfifo(&dir.join("publication.md"));
    let out = verify_bundle(&dir).status(1);
    assert_eq!(
        out.stdout,
        format!(
            "publication #1 \"checkout-rematch under session-efficiency@2\" (checkout-rematch \
             under session-efficiency@2): MISMATCH\n  \
             - the bundle's publication.md is a FIFO (named pipe), not a regular file, and was \
             not read\n  \
             - the bundle's {RUBRIC_FILE} is a symbolic link: a bundle's files are read only as \
             regular files inside it, and the link was not followed\n  \
             - the bundle's README.md is a symbolic link: a bundle's files are read only as \
             regular files inside it, and the link was not followed\n\
             0 of 1 publication reproduce\n{}",
            ledger_report()
        )
    );

    // A README over the cap (sparse, so free) is not read.
    let (_root, dir) = copy_of(&bundle, "large-readme");
    std::fs::File::options()
        .write(true)
        .open(dir.join("README.md"))
        .unwrap()
        .set_len((64 << 20) + 1)
        .unwrap();
    let out = verify_bundle(&dir).status(1);
    assert_contains(
        &out.stdout,
        "the bundle's README.md is 67108865 bytes, more than the 64 MiB it may be, and was not \
         read",
    );
}

/// A WAL holding real changes to a copy of `db`: an attempt's wall time, with the trigger
/// that forbids it dropped. Returns the `-wal` and `-shm` files' bytes.
fn wal_changing(db: &Path) -> (Vec<u8>, Vec<u8>) {
    let scratch = tempfile::tempdir().unwrap();
    let copy = scratch.path().join("ledger.db");
    std::fs::copy(db, &copy).unwrap();
    let conn = Connection::open(&copy).unwrap();
    let mode: String = conn
        .pragma_update_and_check(None, "journal_mode", "wal", |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    conn.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
    conn.execute_batch("DROP TRIGGER attempt_no_update; UPDATE attempt SET wall_s = wall_s + 1.0;")
        .unwrap();
    // Read while the connection is open: closing would checkpoint the WAL away.
    let wal = std::fs::read(scratch.path().join("ledger.db-wal")).unwrap();
    let shm = std::fs::read(scratch.path().join("ledger.db-shm")).unwrap();
    drop(conn);
    (wal, shm)
}

fn total_wall(db: &Path) -> f64 {
    let conn = Connection::open(db).unwrap();
    conn.query_row("SELECT sum(wall_s) FROM attempt", [], |r| r.get(0))
        .unwrap()
}

#[test]
fn a_planted_wal_is_never_applied() {
    let (_env, bundle) = published();
    let (wal, shm) = wal_changing(&bundle.join("ledger.db"));
    assert!(!wal.is_empty());

    // The planted files are real: SQLite, opening the ledger beside them, applies them.
    let (_control_root, control) = copy_of(&bundle, "control");
    let clean = total_wall(&control.join("ledger.db"));
    std::fs::write(control.join("ledger.db-wal"), &wal).unwrap();
    std::fs::write(control.join("ledger.db-shm"), &shm).unwrap();
    assert_eq!(total_wall(&control.join("ledger.db")), clean + 5.0);

    let (_root, dir) = copy_of(&bundle, "planted");
    std::fs::write(dir.join("ledger.db-wal"), &wal).unwrap();
    std::fs::write(dir.join("ledger.db-shm"), &shm).unwrap();
    let before = state(&dir);
    let out = verify_bundle(&dir).ok();
    assert_eq!(
        out.stdout,
        format!(
            "note: the bundle's ledger.db-wal was ignored: a bundle's ledger is read from \
             ledger.db alone, and no journal is ever applied to it\n\
             note: the bundle's ledger.db-shm was ignored: a bundle's ledger is read from \
             ledger.db alone, and no journal is ever applied to it\n{}",
            clean_report()
        )
    );
    assert_eq!(
        state(&dir),
        before,
        "verify --bundle changed the bundle or its journal"
    );
}

#[test]
fn a_rubric_name_that_climbs_out_is_never_joined_to_a_path() {
    let (env, bundle) = published();
    let forged = "UPDATE rubric SET name = '../../outside';";

    // verify --bundle: a file sits where the forged name leads, with the very rubric text, so
    // following the name would find a match.
    let (root, dir) = copy_of(&bundle, "x/y/bundle");
    forge(&dir.join("ledger.db"), forged);
    let outside = root.path().join("x");
    std::fs::write(
        outside.join("outside.v2.toml"),
        std::fs::read(dir.join(RUBRIC_FILE)).unwrap(),
    )
    .unwrap();
    let outside_before = state(&outside);
    let out = verify_bundle(&dir).status(1);
    assert_contains(&out.stdout, ": MISMATCH\n");
    assert_contains(
        &out.stdout,
        "  - its rubric's stored name \"../../outside\" is not a rubric name (letters, digits, \
         '.', '_' and '-', starting with a letter or digit): the ledger was edited behind \
         benchledger's back, and no file name was built from it\n",
    );
    assert_eq!(state(&outside), outside_before);

    // bundle --out: refused before anything is created, inside DIR or outside it.
    tamper(&env.db, &format!("DROP TRIGGER rubric_no_update; {forged}"));
    let out_dir = env.path().join("a/b/out");
    let out = env
        .run([
            "bundle".as_ref(),
            "1".as_ref(),
            "--out".as_ref(),
            out_dir.as_os_str(),
        ])
        .status(2);
    assert_contains(
        &out.stderr,
        "cannot write a bundle: its rubric's stored name \"../../outside\" is not a rubric name",
    );
    assert_contains(&out.stderr, "Nothing was written");
    assert!(
        !env.path().join("a").exists(),
        "bundle --out created a path"
    );

    // publish --bundle: refused before anything is published.
    let rubric = crate_path("rubrics").join(RUBRIC_FILE);
    let out = env
        .run([
            "publish".as_ref(),
            "--wave".as_ref(),
            WAVE.as_ref(),
            "--rubric".as_ref(),
            rubric.as_os_str(),
            "--bundle".as_ref(),
            out_dir.as_os_str(),
        ])
        .status(2);
    assert_contains(&out.stderr, "is not a rubric name");
    assert!(
        !env.path().join("a").exists(),
        "publish --bundle created a path"
    );
    let list = env.run(["publications", "--format", "json"]).ok().json();
    assert_eq!(list["publications"].as_array().map(Vec::len), Some(1));
}

#[test]
fn an_edited_readme_is_named() {
    let (_env, bundle) = published();
    let (_root, dir) = copy_of(&bundle, "readme");
    let path = dir.join("README.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let prefix = "- output (publication.md): `";
    let output = text
        .lines()
        .find_map(|l| l.strip_prefix(prefix))
        .and_then(|l| l.strip_suffix('`'))
        .expect("the README names the output's digest");
    let forged = format!(
        "{}{}",
        if output.starts_with('0') { '1' } else { '0' },
        &output[1..]
    );
    std::fs::write(&path, text.replace(output, &forged)).unwrap();
    let out = verify_bundle(&dir).status(1);
    assert_contains(
        &out.stdout,
        &format!(
            "  - README.md differs from the README of this publication (1 difference, README.md \
             → expected):\n      line 25: \"{prefix}{forged}`\" → \"{prefix}{output}`\"\n"
        ),
    );

    // Claiming the first layout does not escape the check: it must then be that layout's text.
    std::fs::write(&path, text.replace("\nBundle layout 2.\n", "")).unwrap();
    let out = verify_bundle(&dir).status(1);
    assert_contains(
        &out.stdout,
        "README.md differs from the README of this publication",
    );

    // A layout from a later benchledger is said to be one.
    std::fs::write(&path, text.replace("Bundle layout 2.", "Bundle layout 9.")).unwrap();
    let out = verify_bundle(&dir).status(1);
    assert_contains(
        &out.stdout,
        &format!(
            "the bundle's README.md declares a bundle layout this benchledger does not know (it \
             knows 1 to {})",
            benchledger_core::report::publication::BUNDLE_LAYOUT
        ),
    );
}

#[test]
fn the_v1_bundle_readme_is_checked_in_its_own_layout() {
    let (_root, dir) = copy_of(&tests_dir("compat/v1/bundle"), "v1");
    let before = state(&dir);
    let out = verify_bundle(&dir).ok();
    assert_contains(&out.stdout, "1 of 1 publication reproduces");
    assert_eq!(state(&dir), before, "verify --bundle changed the v1 bundle");

    let path = dir.join("README.md");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace("published 2026-11-30", "published 2026-12-01"),
    )
    .unwrap();
    let out = verify_bundle(&dir).status(1);
    assert_contains(
        &out.stdout,
        "README.md differs from the README of this publication (1 difference, README.md → \
         expected):\n      line 3:",
    );
}

#[test]
fn bundle_out_refuses_a_symlinked_directory() {
    let (env, _bundle) = published();
    let target = env.path().join("target");
    std::fs::create_dir(&target).unwrap();
    let link = env.path().join("link");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let with_slash = format!("{}/", link.display());
    for out_dir in [link.as_os_str(), OsStr::new(&with_slash)] {
        let out = env
            .run(["bundle".as_ref(), "1".as_ref(), "--out".as_ref(), out_dir])
            .status(2);
        assert_contains(
            &out.stderr,
            "is a symbolic link: a bundle goes only into a real directory",
        );
    }
    assert_eq!(std::fs::read_dir(&target).unwrap().count(), 0);

    let file = env.path().join("a-file");
    std::fs::write(&file, "mine").unwrap();
    let out = env
        .run([
            "bundle".as_ref(),
            "1".as_ref(),
            "--out".as_ref(),
            file.as_os_str(),
        ])
        .status(2);
    assert_contains(&out.stderr, "exists and is not a directory");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
}

/// Issue 23, #2: a bundle whose derived rows were forged, with the triggers dropped and
/// restored so the schema shows nothing, is refused: a seat's stored tally is recomputed from
/// its attempts, a stored score is compared with a rescore.
#[test]
fn bundle_forged_seat_tally_or_stored_score_is_refused() {
    let (_env, bundle) = published();
    for (name, forged, says) in [
        (
            "tally",
            "UPDATE seat_tally SET tally = replace(tally, '\"correct\":1', '\"correct\":0')
             WHERE seat_id = 1",
            "  tallies: MISMATCH\n",
        ),
        (
            "score",
            "INSERT INTO score (rubric_id, seat_id, score, rank, factors)
             SELECT 1, id, 0.99, 1, '{}' FROM seat",
            "  scores: MISMATCH\n",
        ),
    ] {
        let (_root, dir) = copy_of(&bundle, name);
        forge(&dir.join("ledger.db"), forged);
        let out = verify_bundle(&dir).status(1);
        assert_contains(&out.stdout, says);
        assert_contains(&out.stderr, "verify: ");
    }
}

/// A bundle carries the log entries of its rows as the ledger made them (its wave's ingest, its
/// rubric's registration, its publication's entry): the same rows as the ledger's; an entry
/// edited, or one naming other content than the bundle's wave holds, fails `verify --bundle`.
#[test]
fn a_bundle_carries_its_rows_log_entries_and_an_edited_one_is_refused() {
    let (env, bundle) = published();
    let query = "SELECT seq, kind, subject, subject_sha256, prev_sha256, sha256 FROM chain_entry \
                 WHERE kind <> 'withdrawal' ORDER BY seq";
    let carried = common::Shell::open(&bundle.join("ledger.db")).rows(query);
    assert_eq!(carried, env.rows(query));
    assert_eq!(carried.len(), 3);
    for (name, forged, says) in [
        (
            "time",
            "UPDATE chain_entry SET created_at = '2020-01-01T00:00:00Z' WHERE kind = 'ingest'",
            "the log entry was edited",
        ),
        (
            "content",
            "UPDATE chain_entry SET subject_sha256 = replace(subject_sha256, 'a', 'b') \
             WHERE kind = 'ingest'",
            "wave checkout-rematch is in the ledger with content hash",
        ),
    ] {
        let (_root, dir) = copy_of(&bundle, name);
        forge(&dir.join("ledger.db"), forged);
        let out = verify_bundle(&dir).status(1);
        assert_contains(&out.stdout, "  log: MISMATCH\n");
        assert_contains(&out.stdout, says);
    }
}

/// Issue 23, #5: a recursive view put in a table's place (verify used to write temporary
/// data until the disk filled) and extra views and triggers are refused at once, before any
/// table is read, exit status 1.
#[test]
fn bundle_recursive_view_or_extra_schema_object_is_refused_fast() {
    let (_env, bundle) = published();
    for (name, forged, says) in [
        (
            "recursive",
            "ALTER TABLE attempt RENAME TO attempt_kept;
             CREATE VIEW attempt AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 \
             FROM r) SELECT n FROM r;",
            format!(
                "view `attempt` is not in schema version {}",
                benchledger_core::ledger::schema_version()
            ),
        ),
        (
            "view",
            "CREATE VIEW leaderboard AS SELECT * FROM seat;",
            format!(
                "view `leaderboard` is not in schema version {}",
                benchledger_core::ledger::schema_version()
            ),
        ),
        (
            "trigger",
            "CREATE TRIGGER seat_tally_quiet AFTER INSERT ON score BEGIN SELECT 1; END;",
            format!(
                "trigger `seat_tally_quiet` is not in schema version {}",
                benchledger_core::ledger::schema_version()
            ),
        ),
    ] {
        let (_root, dir) = copy_of(&bundle, name);
        tamper(&dir.join("ledger.db"), forged);
        let started = std::time::Instant::now();
        let out = verify_bundle(&dir).status(1);
        assert!(started.elapsed() < Duration::from_secs(10), "{name}");
        assert_contains(&out.stderr, &says);
        assert_contains(&out.stderr, "so nothing in it was read");
    }
}

/// Issue 23, #2: `verify --bundle DIR --expect-head H` passes when H is the head printed right
/// after publishing it (the publication's log entry, which the bundle carries) or the
/// publication's record hash (the head before the log began), fails on any other H,
/// and so catches a whole forgery: a bundle made from a fabricated ledger reproduces on its
/// own, but its record is not the one whose hash the verifier trusts.
#[test]
fn bundle_expect_head_pins_the_publication_and_catches_a_whole_forgery() {
    let (env, bundle) = published();
    let head = env.run(["publications", "--head"]).ok().stdout;
    let head = head.trim();
    let elsewhere = tempfile::tempdir().unwrap();
    let verify_pinned = |dir: &Path, h: &str| {
        run_bounded(
            elsewhere.path(),
            &[
                "verify".as_ref(),
                "--bundle".as_ref(),
                dir.as_os_str(),
                "--expect-head".as_ref(),
                OsStr::new(h),
            ],
        )
    };
    let out = verify_pinned(&bundle, head).ok();
    assert_eq!(
        out.stdout,
        format!(
            "{}chain head: OK — the chain ends at {head} (log entry #3 (publication #1 \
             published)), as expected\n",
            clean_report()
        )
    );
    // The publication's record hash, which the log entry names (and `publish` printed as the
    // head before the log began), pins it too.
    let list = env.run(["publications", "--format", "json"]).ok().json();
    let record = list["publications"][0]["sha256"]
        .as_str()
        .unwrap()
        .to_string();
    let out = verify_pinned(&bundle, &record).ok();
    assert_contains(
        &out.stdout,
        &format!(
            "chain head: OK — the chain ends at {record} (the publication's record hash, which \
             its log entry #3 (publication #1 published) names), as expected\n"
        ),
    );
    let out = verify_pinned(&bundle, &"0".repeat(64)).status(1);
    assert_contains(&out.stdout, "chain head: MISMATCH\n");

    // The same wave with one seat's result changed, ingested, published and bundled: a
    // fabricated ledger whose bundle reproduces on its own.
    let fake = Env::init();
    let wave = fake.path().join("wave");
    copy_dir(&crate_path("examples/checkout-rematch"), &wave);
    let results = wave.join("deepseek-react.jsonl");
    let text = std::fs::read_to_string(&results).unwrap();
    std::fs::write(
        &results,
        text.replace("\"correct\":false", "\"correct\":true"),
    )
    .unwrap();
    fake.ingest(&[&wave.join("wave.toml")]);
    let rubric = crate_path("rubrics").join(RUBRIC_FILE);
    fake.run(["rubric".as_ref(), "add".as_ref(), rubric.as_os_str()])
        .ok();
    let forged = fake.path().join("bundle");
    fake.run([
        "publish".as_ref(),
        "--wave".as_ref(),
        WAVE.as_ref(),
        "--rubric".as_ref(),
        V2.as_ref(),
        "--bundle".as_ref(),
        forged.as_os_str(),
    ])
    .ok();
    verify_bundle(&forged).ok();
    let out = verify_pinned(&forged, head).status(1);
    assert_contains(&out.stdout, "chain head: MISMATCH\n");
    assert_contains(
        &out.stdout,
        &format!("the expected head {head} is nowhere in it"),
    );
}
