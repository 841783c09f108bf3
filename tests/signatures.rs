//! Signed publications (issue 23, item 3): `keygen` writes a key pair, `publish --sign` and
//! `sign` keep a DSSE envelope beside a publication, `verify --trusted-key` checks it, bundles
//! carry it. Each tampering a verifier must catch — a changed byte, a wrong key, a swapped
//! subject, an unsigned publication — is done here and must fail, naming the publication.
//!
//! Keys come from fixed seeds (through the library), so reports and READMEs are the same on
//! every run; `keygen`'s own keys come from the operating system.

mod common;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use benchledger_core::attest::PrivateKey;
use common::{Env, Out};

const V2: &str = "session-efficiency@2";

fn crate_path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// Writes the key pair of a fixed seed into `dir` as `NAME` and `NAME.pub`, as keygen would.
fn key_pair(dir: &Path, name: &str, seed: u8) -> (PathBuf, PathBuf, String) {
    let key = PrivateKey::from_seed(&[seed; 32]);
    let private = dir.join(name);
    let public = dir.join(format!("{name}.pub"));
    std::fs::write(&private, key.to_pem()).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    std::fs::write(&public, key.public().to_pem()).unwrap();
    (private, public, key.public().id())
}

/// Two waves ingested, session-efficiency v2 registered, and two publications: #1
/// checkout-rematch signed with the key `signer` (seed 1) as it was published, #2 rca-wave-1
/// unsigned.
fn published() -> (Env, PathBuf, PathBuf) {
    let env = Env::init();
    env.ingest(&[
        &crate_path("examples/checkout-rematch/wave.toml"),
        &crate_path("examples/rca-wave-1/wave.toml"),
    ]);
    env.run([
        OsStr::new("rubric"),
        OsStr::new("add"),
        crate_path("rubrics/session-efficiency.v2.toml").as_os_str(),
    ])
    .ok();
    let (private, public, _) = key_pair(env.path(), "signer", 1);
    let out = env
        .run([
            OsStr::new("publish"),
            OsStr::new("--wave"),
            OsStr::new("checkout-rematch"),
            OsStr::new("--rubric"),
            OsStr::new(V2),
            OsStr::new("--sign"),
            private.as_os_str(),
        ])
        .ok();
    contains(
        &out,
        &format!(
            "  signed by key {}\n",
            PrivateKey::from_seed(&[1; 32]).public().id()
        ),
    );
    env.run(["publish", "--wave", "rca-wave-1", "--rubric", V2])
        .ok();
    (env, private, public)
}

#[track_caller]
fn contains(out: &Out, needle: &str) {
    assert!(
        out.stdout.contains(needle) || out.stderr.contains(needle),
        "expected {needle:?} in {out:#?}"
    );
}

/// `sign ID --key KEY`.
fn sign(env: &Env, id: i64, key: &Path) -> Out {
    env.run([
        OsStr::new("sign"),
        OsStr::new(&id.to_string()),
        OsStr::new("--key"),
        key.as_os_str(),
    ])
}

/// `bundle ID --out DIR`.
fn bundle(env: &Env, id: i64, dir: &Path) -> Out {
    env.run([
        OsStr::new("bundle"),
        OsStr::new(&id.to_string()),
        OsStr::new("--out"),
        dir.as_os_str(),
    ])
}

fn verify_trusting(env: &Env, args: &[&str], key: &Path) -> Out {
    let mut all: Vec<&OsStr> = vec![OsStr::new("verify")];
    all.extend(args.iter().map(OsStr::new));
    all.extend([OsStr::new("--trusted-key"), key.as_os_str()]);
    env.run(all)
}

#[cfg(unix)]
#[test]
fn keygen_writes_a_private_key_only_its_owner_reads_and_never_replaces_a_file() {
    use std::os::unix::fs::PermissionsExt;
    let env = Env::new();
    let key = env.path().join("release");
    let out = env
        .run([OsStr::new("keygen"), OsStr::new("--out"), key.as_os_str()])
        .ok();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&key), 0o600);
    let private = std::fs::read_to_string(&key).unwrap();
    let public = std::fs::read_to_string(env.path().join("release.pub")).unwrap();
    assert!(
        private.starts_with("-----BEGIN PRIVATE KEY-----\n"),
        "{private}"
    );
    assert!(
        public.starts_with("-----BEGIN PUBLIC KEY-----\n"),
        "{public}"
    );
    let id = benchledger_core::attest::PublicKey::from_pem(&public)
        .unwrap()
        .id();
    contains(&out, &format!("key id {id}"));

    // Neither file is ever replaced: not the private key, not the public one beside it.
    let again = env
        .run([OsStr::new("keygen"), OsStr::new("--out"), key.as_os_str()])
        .status(2);
    contains(
        &again,
        "exists: keygen writes a new key pair and never replaces a file",
    );
    assert_eq!(std::fs::read_to_string(&key).unwrap(), private);
    let other = env.path().join("other");
    std::fs::write(env.path().join("other.pub"), "mine").unwrap();
    let out = env
        .run([OsStr::new("keygen"), OsStr::new("--out"), other.as_os_str()])
        .status(2);
    contains(&out, "other.pub exists");
    assert!(!other.exists(), "no half pair is left");
    assert_eq!(
        std::fs::read_to_string(env.path().join("other.pub")).unwrap(),
        "mine"
    );
    // Two keys are two keys.
    let second = env.path().join("second");
    env.run([
        OsStr::new("keygen"),
        OsStr::new("--out"),
        second.as_os_str(),
    ])
    .ok();
    assert_ne!(std::fs::read_to_string(second).unwrap(), private);
}

#[test]
fn a_signed_publication_verifies_under_its_key_and_the_unsigned_one_is_named() {
    let (env, _, public) = published();
    // Without --trusted-key: the unsigned publication's report is as it always was, the signed
    // one says who signed it, and both verify.
    let out = env.run(["verify", "--all"]).ok();
    let id = PrivateKey::from_seed(&[1; 32]).public().id();
    contains(
        &out,
        &format!(
            "  signature: signed by key {}; its statement names this publication as stored \
             (pass --trusted-key to check who signed it)\n",
            &id[..12]
        ),
    );
    assert_eq!(out.stdout.matches("signature:").count(), 1, "{out:#?}");

    let out = verify_trusting(&env, &["1"], &public).ok();
    contains(
        &out,
        &format!(
            "  signature: OK — signed by the trusted key {}\n",
            &id[..12]
        ),
    );
    contains(&out, "1 of 1 publication signed by the trusted key");

    // Every publication: the unsigned #2 is named, exit 1.
    let out = verify_trusting(&env, &["--all"], &public).status(1);
    contains(
        &out,
        &format!(
            "verify: publication #2 is not signed by the trusted key {}",
            &id[..12]
        ),
    );
    common::snapshot_settings().bind(|| {
        insta::assert_snapshot!("signatures__verify_all_one_unsigned", out.stdout);
    });
    contains(&out, "is not signed by the trusted key");

    // The same verdicts as data.
    let out = verify_trusting(&env, &["--all", "--format", "json"], &public).status(1);
    let doc = out.json();
    assert_eq!(doc["ok"], false);
    let first = &doc["entries"][0]["signature"];
    assert_eq!(first["signed"], true);
    assert_eq!(first["signed_by_trusted_key"], true);
    assert_eq!(first["keyids"][0], id.as_str());
    assert_eq!(first["trusted_key"], id.as_str());
    assert_eq!(first["verdict"], "ok");
    let second = &doc["entries"][1]["signature"];
    assert_eq!(second["signed"], false);
    assert_eq!(second["verdict"], "mismatch");
    assert_eq!(doc["signatures"]["signed"], 1);
    assert_eq!(doc["signatures"]["total"], 2);
    // Without a key, an unsigned publication's document has no signature, as before.
    let doc = env.run(["verify", "2", "--format", "json"]).ok().json();
    assert!(doc["entries"][0].get("signature").is_none(), "{doc}");
    assert!(doc.get("signatures").is_none(), "{doc}");

    // Signed later: then every publication is signed by the key.
    let (private, ..) = key_pair(env.path(), "signer", 1);
    let out = sign(&env, 2, &private).ok();
    contains(&out, "signed publication #2");
    let out = verify_trusting(&env, &["--all"], &public).ok();
    contains(&out, "2 of 2 publications signed by the trusted key");
    // Once only.
    let out = sign(&env, 2, &private).status(2);
    contains(&out, "publication #2 in");
    contains(&out, "is signed already");
}

#[test]
fn a_publication_that_does_not_verify_is_not_signed() {
    let (env, private, _) = published();
    env.tamper(
        "DROP TRIGGER publication_no_update;
         UPDATE publication SET output = output || 'x' WHERE id = 2;",
    );
    let out = sign(&env, 2, &private).status(1);
    contains(&out, "publication #2 does not verify, so it was not signed");
    assert_eq!(env.count("SELECT count(*) FROM publication_envelope"), 1);
}

#[test]
fn a_wrong_key_a_changed_byte_and_a_swapped_subject_each_fail() {
    let (env, private, public) = published();
    sign(&env, 2, &private).ok();
    verify_trusting(&env, &["--all"], &public).ok();

    // A wrong key: signed by #1's key, checked against another.
    let (_, other, other_id) = key_pair(env.path(), "other", 2);
    let out = verify_trusting(&env, &["--all"], &other).status(1);
    contains(
        &out,
        &format!(
            "it is not signed by the trusted key {}: its envelope is signed by key",
            &other_id[..12]
        ),
    );
    contains(&out, "0 of 2 publications signed by the trusted key");
    contains(
        &out,
        "verify: publications #1, #2 are not signed by the trusted key",
    );
    contains(&out, "is not signed by the trusted key");

    // A changed byte in the envelope's payload: the signature no longer verifies.
    let envelope = |id: i64| -> String {
        match env
            .rows(&format!(
                "SELECT envelope FROM publication_envelope WHERE publication_id = {id}"
            ))
            .as_slice()
        {
            [row] => match row.as_slice() {
                [common::Cell::Text(t)] => t.clone(),
                other => panic!("{other:?}"),
            },
            other => panic!("{other:?}"),
        }
    };
    let (one, two) = (envelope(1), envelope(2));
    let at = one.find("\"payload\":\"").unwrap() + 20;
    let flipped = if &one[at..=at] == "A" { "B" } else { "A" };
    let changed = format!("{}{flipped}{}", &one[..at], &one[at + 1..]);
    env.tamper(&format!(
        "DROP TRIGGER publication_envelope_no_update;
         UPDATE publication_envelope SET envelope = '{changed}' WHERE publication_id = 1;"
    ));
    let out = verify_trusting(&env, &["--all"], &public).status(1);
    contains(
        &out,
        "does not verify: the envelope (or what it signs) was changed",
    );

    // Swapped subjects: each publication carries the other's signed statement, whose
    // signature verifies under the trusted key but whose subjects are the other's texts.
    env.tamper(&format!(
        "UPDATE publication_envelope SET envelope = '{two}' WHERE publication_id = 1;
         UPDATE publication_envelope SET envelope = '{one}' WHERE publication_id = 2;"
    ));
    let out = verify_trusting(&env, &["--all"], &public).status(1);
    contains(
        &out,
        "the signed statement's subject names is \"publication-2.input, publication-2.md\", \
         but the ledger's is \"publication-1.input, publication-1.md\"",
    );
    contains(&out, "the signed statement's chain record sha256 is");
    // Without a key the statement is still held to the publication.
    let out = env.run(["verify", "--all"]).status(1);
    contains(&out, "signature: MISMATCH");
    contains(
        &out,
        "verify: the signed statement of publications #1, #2 does not match them",
    );
}

#[test]
fn a_bad_key_file_is_refused_naming_it_and_nothing_is_published() {
    let (env, private, public) = published();
    let before = env.run(["publications", "--head"]).ok().stdout;
    let junk = env.path().join("junk.pem");
    std::fs::write(&junk, "not a key\n").unwrap();
    for (flag, file, says) in [
        (
            "--sign",
            &junk,
            "it is not an ed25519 private key in PKCS#8 PEM",
        ),
        (
            "--sign",
            &public,
            "it is a public key: sign with the private key file",
        ),
        (
            "--sign",
            &env.path().join("missing"),
            "cannot read the key file",
        ),
    ] {
        let out = env
            .run([
                OsStr::new("publish"),
                OsStr::new("--wave"),
                OsStr::new("rca-wave-1"),
                OsStr::new("--rubric"),
                OsStr::new(V2),
                OsStr::new(flag),
                file.as_os_str(),
            ])
            .status(2);
        contains(&out, &file.display().to_string());
        contains(&out, says);
    }
    assert_eq!(env.run(["publications", "--head"]).ok().stdout, before);

    let out = verify_trusting(&env, &["--all"], &junk).status(2);
    contains(&out, &junk.display().to_string());
    contains(
        &out,
        "it is not an ed25519 public key in SubjectPublicKeyInfo PEM",
    );
    let out = verify_trusting(&env, &["--all"], &private).status(2);
    contains(&out, "it is a private key: trust the public key file");
    let out = verify_trusting(&env, &[], &public).status(2);
    contains(
        &out,
        "--trusted-key: checks the signatures of the publications named, and none is; give \
         --all too",
    );

    // A private key others can read is refused, as ssh refuses one.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o644)).unwrap();
        let out = sign(&env, 2, &private).status(2);
        contains(&out, "the private key file has mode 0644");
        assert_eq!(env.count("SELECT count(*) FROM publication_envelope"), 1);
    }
}

#[test]
fn a_bundle_carries_the_envelope_and_verifies_under_the_key() {
    let (env, _, public) = published();
    let dir = env.path().join("bundle");
    bundle(&env, 1, &dir).ok();
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    common::snapshot_settings().bind(|| {
        insta::assert_snapshot!("signatures__bundle_readme", readme);
    });
    let verify_bundle = |key: &Path| {
        common::run_raw(
            env.path(),
            &[
                OsStr::new("verify"),
                OsStr::new("--bundle"),
                dir.as_os_str(),
                OsStr::new("--trusted-key"),
                key.as_os_str(),
            ],
            &[],
        )
    };
    let out = verify_bundle(&public).ok();
    contains(&out, "  signature: OK — signed by the trusted key");
    let (_, other, _) = key_pair(env.path(), "other", 2);
    let out = verify_bundle(&other).status(1);
    contains(&out, "it is not signed by the trusted key");

    // The envelope file is the ledger's envelope, byte for byte.
    let file = dir.join("publication.dsse.json");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace("\"keyid\":\"", "\"keyid\":\"0")).unwrap();
    let out = verify_bundle(&public).status(1);
    contains(
        &out,
        "the bundle's publication.dsse.json differs from the envelope its ledger keeps",
    );
    std::fs::remove_file(&file).unwrap();
    let out = verify_bundle(&public).status(1);
    contains(&out, "the bundle's publication.dsse.json is missing");

    // The unsigned publication's bundle is as before: no envelope, layout 2, and it fails
    // only when a key is demanded.
    let dir2 = env.path().join("bundle2");
    bundle(&env, 2, &dir2).ok();
    assert!(!dir2.join("publication.dsse.json").exists());
    let readme = std::fs::read_to_string(dir2.join("README.md")).unwrap();
    assert!(readme.ends_with("Bundle layout 2.\n"), "{readme}");
    let verify2 = |extra: &[&OsStr]| {
        let mut args = vec![
            OsStr::new("verify"),
            OsStr::new("--bundle"),
            dir2.as_os_str(),
        ];
        args.extend_from_slice(extra);
        common::run_raw(env.path(), &args, &[])
    };
    verify2(&[]).ok();
    let out = verify2(&[
        OsStr::new("--trusted-key"),
        public.as_os_str(),
        OsStr::new("--format"),
        OsStr::new("json"),
    ])
    .status(1);
    let doc = out.json();
    assert_eq!(doc["entries"][0]["signature"]["signed"], false);
    assert_eq!(doc["signatures"]["signed"], 0);
    // An envelope file in an unsigned publication's bundle is not its signature.
    std::fs::write(dir2.join("publication.dsse.json"), &text).unwrap();
    let out = verify2(&[]).status(1);
    contains(
        &out,
        "the publication is unsigned, and the file is not its signature",
    );
}

#[test]
fn the_site_shows_the_key_id_on_a_signed_publication_s_page() {
    let (env, ..) = published();
    let out = env.path().join("site");
    env.run([OsStr::new("site"), OsStr::new("--out"), out.as_os_str()])
        .ok();
    let id = PrivateKey::from_seed(&[1; 32]).public().id();
    let page =
        |n: i64| std::fs::read_to_string(out.join(format!("publications/{n}.html"))).unwrap();
    let signed = page(1);
    assert!(signed.contains(&id), "{signed}");
    assert!(
        signed.contains("benchledger verify 1 --trusted-key PUB"),
        "{signed}"
    );
    let unsigned = page(2);
    assert!(!unsigned.contains("Signature"), "{unsigned}");
}

/// The head `publications --head` prints.
fn chain_head(env: &Env) -> String {
    let out = env.run(["publications", "--head"]).ok();
    let h = out.stdout.trim().to_string();
    assert_eq!(h.len(), 64, "{out:?}");
    h
}

/// A signature is a log entry (`publish --sign` writes it after the publication's own; `sign`,
/// later), so it moves the head; a publication's bundle ends at the head `publish` printed,
/// and at its signature's, whether it was signed then or since.
#[test]
fn a_signature_is_logged_and_its_bundle_ends_at_either_head() {
    let env = Env::init();
    env.ingest(&[
        &crate_path("examples/checkout-rematch/wave.toml"),
        &crate_path("examples/rca-wave-1/wave.toml"),
    ]);
    env.run([
        OsStr::new("rubric"),
        OsStr::new("add"),
        crate_path("rubrics/session-efficiency.v2.toml").as_os_str(),
    ])
    .ok();
    let (private, _, _) = key_pair(env.path(), "signer", 1);
    let out = env
        .run([
            OsStr::new("publish"),
            OsStr::new("--wave"),
            OsStr::new("checkout-rematch"),
            OsStr::new("--rubric"),
            OsStr::new(V2),
            OsStr::new("--sign"),
            private.as_os_str(),
        ])
        .ok();
    let signed_at_publish = chain_head(&env);
    contains(&out, &format!("  chain head    {signed_at_publish}"));
    env.run(["publish", "--wave", "rca-wave-1", "--rubric", V2])
        .ok();
    let published = chain_head(&env);
    let out = sign(&env, 2, &private).ok();
    let signed_later = chain_head(&env);
    contains(&out, &format!("  chain head    {signed_later}"));
    assert_ne!(published, signed_later, "`sign` appends an entry");
    let out = env
        .run([
            "verify",
            "--all",
            "--ledger",
            "--expect-head",
            &signed_later,
        ])
        .ok();
    contains(&out, "chain head: OK");

    let expect = |id: i64, head: &str| {
        let dir = env.path().join(format!("bundle-{id}"));
        if !dir.exists() {
            bundle(&env, id, &dir).ok();
        }
        common::run_raw(
            env.path(),
            &[
                OsStr::new("verify"),
                OsStr::new("--bundle"),
                dir.as_os_str(),
                OsStr::new("--expect-head"),
                OsStr::new(head),
            ],
            &[],
        )
    };
    contains(&expect(1, &signed_at_publish).ok(), "chain head: OK");
    contains(&expect(2, &published).ok(), "chain head: OK");
    contains(&expect(2, &signed_later).ok(), "chain head: OK");
    contains(&expect(1, &signed_later).status(1), "chain head: MISMATCH");
}
