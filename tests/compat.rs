//! The compatibility fixtures (tests/compat/README.md): ledgers and bundles written by earlier
//! builds must open, verify and take their source waves back as no-ops, in every later build.

mod common;

use std::path::{Path, PathBuf};

use common::{Env, copy_dir, tests_dir};

/// The v1 fixture's chain head, as the build that wrote it printed it.
const V1_HEAD: &str = "03bd298b61678947c805dd2673584b2e1cec40c9b3515ac1360acc3be6c40e82";

/// A working copy of the v1 ledger (opening a ledger may migrate it; the fixture stays as
/// written). An SQLite file on either store's run: that is what the fixture is.
fn v1_ledger() -> Env {
    let env = Env::sqlite();
    std::fs::copy(tests_dir("compat/v1/ledger.db"), &env.db).expect("copying the v1 ledger");
    env
}

fn v1_manifests() -> Vec<PathBuf> {
    let mut m: Vec<PathBuf> = std::fs::read_dir(tests_dir("compat/v1/waves"))
        .expect("the v1 waves")
        .map(|e| e.expect("an entry").path().join("wave.toml"))
        .collect();
    m.sort();
    m
}

#[test]
fn the_v1_ledger_verifies() {
    let env = v1_ledger();
    let out = env.run(["verify", "--all"]).ok();
    assert!(
        out.stdout.contains("4 of 4 publications reproduce"),
        "{}",
        out.stdout
    );
    let list = env.run(["publications", "--format", "json"]).ok().json();
    let last = list["publications"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(last["sha256"], V1_HEAD);
}

#[test]
fn the_v1_source_waves_reingest_as_no_ops() {
    let env = v1_ledger();
    let mut args = vec!["ingest".to_string()];
    args.extend(v1_manifests().iter().map(|m| m.display().to_string()));
    let out = env.run(&args).ok();
    assert_eq!(
        out.stdout
            .matches("already in the ledger with the same content")
            .count(),
        4,
        "{}",
        out.stdout
    );
    env.run(["verify", "--all"]).ok();
}

#[test]
fn the_v1_bundle_verifies() {
    let env = Env::new();
    let bundle = env.path().join("bundle");
    copy_dir(&tests_dir("compat/v1/bundle"), &bundle);
    let out = env
        .run(["verify", "--bundle", bundle.to_str().unwrap()])
        .ok();
    assert!(
        out.stdout.contains("1 of 1 publication reproduces"),
        "{}",
        out.stdout
    );
}

/// Intervals published before resamples were summed per problem are drawn again by the method
/// they name, attempt by attempt, and reproduce byte for byte.
#[test]
fn the_ci_v1_bundles_verify_by_the_method_they_name() {
    for name in ["session-efficiency", "trace-holistic"] {
        let env = Env::new();
        let bundle = env.path().join("bundle");
        copy_dir(&tests_dir(&format!("compat/ci-v1/{name}")), &bundle);
        let out = env
            .run(["verify", "--bundle", bundle.to_str().unwrap()])
            .ok();
        assert!(
            out.stdout.contains("1 of 1 publication reproduces"),
            "{name}: {}",
            out.stdout
        );
        let text = std::fs::read_to_string(bundle.join("publication.md")).unwrap();
        assert!(
            text.contains("; a percentile bootstrap over problems, each resample"),
            "{text}"
        );
    }
}

/// The claims a publication carries are rendered as the build that introduced them did.
#[test]
fn the_claims_v1_bundle_verifies() {
    let env = Env::new();
    let bundle = env.path().join("bundle");
    copy_dir(&tests_dir("compat/claims-v1/bundle"), &bundle);
    let out = env
        .run(["verify", "--bundle", bundle.to_str().unwrap()])
        .ok();
    assert!(
        out.stdout.contains("1 of 1 publication reproduces"),
        "{}",
        out.stdout
    );
    let text = std::fs::read_to_string(bundle.join("publication.md")).unwrap();
    assert!(
        text.contains("6 claims: 3 reproduced, 2 differ, 1 cannot be computed."),
        "{text}"
    );
}

/// The same publication as claims-v1's, made by the build that first kept a publication's
/// claims beside it: its ledger holds the claims file's text, verify renders the section from
/// that, and every file a reader sees is byte for byte claims-v1's.
#[test]
fn the_claims_v2_bundle_verifies_from_its_stored_claims() {
    let env = Env::new();
    let bundle = env.path().join("bundle");
    copy_dir(&tests_dir("compat/claims-v2/bundle"), &bundle);
    let out = env
        .run(["verify", "--bundle", bundle.to_str().unwrap()])
        .ok();
    assert!(
        out.stdout.contains("1 of 1 publication reproduces"),
        "{}",
        out.stdout
    );
    let stored: String = open_fixture(&tests_dir("compat/claims-v2/bundle/ledger.db"))
        .and_then(|c| {
            c.query_row(
                "SELECT text FROM publication_claims WHERE publication_id = 1",
                [],
                |r| r.get(0),
            )
        })
        .expect("the stored claims");
    let file = std::fs::read_to_string(tests_dir("compat/claims-v2/rematch-paper.v1.toml"))
        .expect("the claims file");
    assert_eq!(stored, file);
    for name in ["publication.md", "README.md", "session-efficiency.v2.toml"] {
        let read = |dir: &str| {
            std::fs::read(tests_dir(&format!("compat/{dir}/bundle/{name}"))).expect("a file")
        };
        assert!(read("claims-v1") == read("claims-v2"), "{name} differs");
    }
}

/// The claims-v1 bundle's ledger was written before the ledger kept a publication's claims
/// beside it (schema version 5): opened as a ledger, it is migrated, its publication gets no
/// claims row, and verify reads its claims back out of its published text. A publication made
/// after the migration, with claims, is verified from the claims stored beside it, in the same
/// run.
#[test]
fn a_publication_from_before_stored_claims_verifies_beside_one_after() {
    let fixture = tests_dir("compat/claims-v1/bundle/ledger.db");
    let version: i64 = open_fixture(&fixture)
        .and_then(|c| c.pragma_query_value(None, "user_version", |r| r.get(0)))
        .expect("the fixture's schema version");
    assert!(
        version < 7,
        "the fixture predates publication_claims: {version}"
    );
    let env = Env::sqlite();
    std::fs::copy(&fixture, &env.db).expect("copying the claims-v1 ledger");
    let out = env.run(["verify", "--all"]).ok();
    assert!(
        out.stdout.contains("1 of 1 publication reproduces"),
        "{}",
        out.stdout
    );
    assert_eq!(env.count("SELECT count(*) FROM publication_claims"), 0);

    let claims = tests_dir("compat/claims-v1/rematch-paper.v1.toml");
    let arg = std::ffi::OsStr::new;
    env.run([
        arg("publish"),
        arg("--wave"),
        arg("checkout-rematch"),
        arg("--rubric"),
        arg("session-efficiency@2"),
        arg("--claims"),
        claims.as_os_str(),
    ])
    .ok();
    assert_eq!(
        env.count("SELECT count(*) FROM publication_claims WHERE text IS NOT NULL"),
        1
    );
    let out = env.run(["verify", "--all"]).ok();
    assert!(
        out.stdout.contains("2 of 2 publications reproduce"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_v1_wave_reingested_with_canaries_is_refused_naming_the_field() {
    let env = v1_ledger();
    let dir = env.path().join("checkout");
    copy_dir(&tests_dir("compat/v1/waves/checkout"), &dir);
    let manifest = dir.join("wave.toml");
    let text = std::fs::read_to_string(&manifest).unwrap().replace(
        "suite_problems_file = \"problems.txt\"\n",
        "suite_problems_file = \"problems.txt\"\ncanary_problems = [\"checkout-1\"]\n",
    );
    std::fs::write(&manifest, text).unwrap();
    // Opening the v1 ledger migrates it: the bytes compared are those after a read.
    env.run(["waves"]).ok();
    let before = env.ledger_bytes();
    let out = env.run([std::ffi::OsStr::new("ingest"), manifest.as_os_str()]);
    assert_ne!(out.status, 0, "{out:?}");
    assert!(
        out.stderr.contains("field `wave.canary_problems`")
            && out.stderr.contains("wave content format 1"),
        "{}",
        out.stderr
    );
    assert!(
        env.ledger_bytes() == before,
        "the refused ingest changed the ledger"
    );
}

/// The signed-v1 ledger's chain head (its last log entry, the Inspect wave's origins), as the build that
/// wrote it printed it, and the key id of the key that signed its publication.
const SIGNED_V1_HEAD: &str = "71054dd47bb865a7a559853bd1ce70e768abd15191dcf7873f06da7475ea8cbd";
const SIGNED_V1_BUNDLE_HEAD: &str =
    "8685f2beef429b37a657adb35a6d333f848d773dbc34169981ff35e3c3f04ba0";
const SIGNED_V1_KEY_ID: &str = "84b1bdf5d883971482c7e20044bbdadb6e796232d29ecf698d3996ee784b3af6";

/// The first ledger with a log of every write and a signed publication: every later build
/// walks its log to the head it printed and checks the envelope against the public key.
#[test]
fn the_signed_v1_ledger_verifies_its_log_and_its_signature() {
    let env = Env::sqlite();
    std::fs::copy(tests_dir("compat/signed-v1/ledger.db"), &env.db).expect("copying the ledger");
    let key = tests_dir("compat/signed-v1/key.pub");
    let out = env
        .run([
            "verify",
            "--all",
            "--ledger",
            "--trusted-key",
            key.to_str().unwrap(),
            "--expect-head",
            SIGNED_V1_HEAD,
        ])
        .ok();
    for line in [
        "1 of 1 publication reproduces".to_string(),
        format!("1 of 1 publication signed by the trusted key {SIGNED_V1_KEY_ID}"),
        "log: OK — 10 entries".to_string(),
        "withdrawal #1 of wave prices-csv: OK".to_string(),
    ] {
        assert!(out.stdout.contains(&line), "{line}\n{}", out.stdout);
    }
}

/// The signed-v1 bundle verifies pinned to the head printed when it was published and to its
/// key; another key is refused, naming the publication.
#[test]
fn the_signed_v1_bundle_verifies_with_its_key_and_not_another() {
    let env = Env::new();
    let bundle = env.path().join("bundle");
    copy_dir(&tests_dir("compat/signed-v1/bundle"), &bundle);
    let key = tests_dir("compat/signed-v1/key.pub");
    let b = bundle.to_str().unwrap();
    let out = env
        .run([
            "verify",
            "--bundle",
            b,
            "--trusted-key",
            key.to_str().unwrap(),
            "--expect-head",
            SIGNED_V1_BUNDLE_HEAD,
        ])
        .ok();
    assert!(
        out.stdout.contains("signed by the trusted key"),
        "{}",
        out.stdout
    );
    let other = env.path().join("other");
    env.run(["keygen", "--out", other.to_str().unwrap()]).ok();
    let pub_key = env.path().join("other.pub");
    let out = env
        .run([
            "verify",
            "--bundle",
            b,
            "--trusted-key",
            pub_key.to_str().unwrap(),
        ])
        .status(1);
    assert!(out.stderr.contains("#1"), "{}\n{}", out.stdout, out.stderr);
}

/// A fixture's ledger, opened as an immutable file: read without a journal, so that reading it
/// leaves no `-wal` or `-shm` file beside it in the source tree.
fn open_fixture(path: &Path) -> rusqlite::Result<rusqlite::Connection> {
    rusqlite::Connection::open_with_flags(
        format!("file:{}?immutable=1", path.display()),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_URI,
    )
}
