//! Characters that act instead of being read — controls (`\u{1b}[2J` clears a screen, `\u{7}`
//! rings a bell) and bidirectional formatting characters (a right-to-left override makes
//! `evil\u{202e}4-kroG` read as another name) — are shown escaped as `\u{…}` wherever a person
//! reads a ledger's strings: terminal tables, Markdown, CSV, the site, the text `publish`
//! prints. JSON keeps them, escaped by JSON itself; a publication's frozen text and its files
//! keep their bytes.

mod common;

use std::path::{Path, PathBuf};

use common::Env;

/// The checkout-rematch example in `dir`, its notes holding an escape sequence and a bell, and
/// a seat's display name a right-to-left override.
fn hostile_wave(dir: &Path) -> PathBuf {
    common::copy_dir(&common::crate_path("examples/checkout-rematch"), dir);
    let manifest = dir.join("wave.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let notes = text
        .lines()
        .find(|l| l.starts_with("notes = "))
        .expect("the example has notes")
        .to_string();
    let text = text.replacen(
        &notes,
        "notes = \"calm\\u001b[2J\\u0007 then \\u202eevil\"",
        1,
    );
    let seat = "id = \"xai-hierarchical\"\n";
    let text = text.replacen(
        seat,
        &format!("{seat}display_name = \"Grok\\u202e4-kroG\\u2066x\\u2069\"\n"),
        1,
    );
    std::fs::write(&manifest, text).unwrap();
    manifest
}

const RAW: [char; 5] = ['\u{1b}', '\u{7}', '\u{202e}', '\u{2066}', '\u{2069}'];

#[track_caller]
fn no_raw(what: &str, text: &str) {
    for c in RAW {
        assert!(!text.contains(c), "{what}: a raw {c:?} in {text:?}");
    }
}

/// Issue 34 (smaller): Unicode's bidirectional overrides printed raw in terminal tables and the
/// site, so a name could be made to read as another's; `export --format csv` wrote ESC as it
/// is.
#[test]
fn issue_34_bidi_overrides_and_controls_are_escaped_in_tables_site_and_csv() {
    let env = Env::init();
    env.ingest(&[&hostile_wave(&env.path().join("w"))]);
    let show = env.run(["show", "checkout-rematch"]).ok();
    no_raw("show", &show.stdout);
    assert!(
        show.stdout.contains("Grok\\u{202e}4-kroG"),
        "{}",
        show.stdout
    );
    for what in ["attempts", "seats"] {
        let csv = env.run(["export", "--what", what, "--format", "csv"]).ok();
        no_raw(&format!("export --what {what} --format csv"), &csv.stdout);
    }
    let csv = env
        .run(["export", "--what", "seats", "--format", "csv"])
        .ok();
    assert!(csv.stdout.contains("Grok\\u{202e}4-kroG"), "{}", csv.stdout);
    // JSON keeps every character, as JSON writes it.
    let json = env
        .run(["show", "checkout-rematch", "--format", "json"])
        .ok();
    assert!(json.stdout.contains('\u{202e}'), "{}", json.stdout);
    let site = env.path().join("site");
    env.run(["site", "--out", site.to_str().unwrap()]).ok();
    let mut pages = 0;
    for entry in walk(&site) {
        if entry.extension().is_some_and(|e| e == "html") {
            pages += 1;
            no_raw(
                &entry.display().to_string(),
                &std::fs::read_to_string(&entry).unwrap(),
            );
        }
    }
    assert!(pages > 1, "the site has pages");
}

/// Issue 32, #2: a note's `\u{1b}[2J\u{7}` reached `show --format md`, `score --format md`,
/// `publications --format md` and the text `publish` prints; a title with control characters
/// was published as it was. Markdown escapes them now, and such a title is refused: a title is
/// frozen into the record and the published text, so what was typed is what is published.
#[test]
fn issue_32_2_control_characters_never_reach_markdown_and_a_title_with_them_is_refused() {
    let env = Env::init();
    env.ingest(&[&hostile_wave(&env.path().join("w"))]);
    env.run([
        std::ffi::OsStr::new("rubric"),
        "add".as_ref(),
        common::crate_path("rubrics/session-efficiency.v2.toml").as_os_str(),
    ])
    .ok();
    env.run(["rescore", "--rubric", "session-efficiency@2"])
        .ok();
    for args in [
        &["show", "checkout-rematch", "--format", "md"][..],
        &[
            "score",
            "--wave",
            "checkout-rematch",
            "--rubric",
            "session-efficiency@2",
            "--format",
            "md",
        ],
        &["waves", "--format", "md"],
    ] {
        let out = env.run(args).ok();
        no_raw(&args.join(" "), &out.stdout);
    }
    let before = env.ledger_bytes();
    let out = env
        .run([
            "publish",
            "--wave",
            "checkout-rematch",
            "--rubric",
            "session-efficiency@2",
            "--title",
            "Board\u{1b}[2J\u{7}",
        ])
        .status(2);
    assert!(out.stderr.contains("\\u{1b}"), "{}", out.stderr);
    no_raw("the refusal", &out.stderr);
    assert_eq!(
        env.ledger_bytes(),
        before,
        "a refused publication writes nothing"
    );
    let out = env
        .run([
            "publish",
            "--wave",
            "checkout-rematch",
            "--rubric",
            "session-efficiency@2",
        ])
        .ok();
    no_raw("publish", &out.stdout);
    let out = env.run(["publications", "--format", "md"]).ok();
    no_raw("publications --format md", &out.stdout);
    env.run(["verify", "--all"]).ok();
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}
