//! Display names and where each attempt came from (issue 19, items 5 and 7): a seat's
//! `display_name` in a manifest or `ingest --from --display-name SEAT=NAME` is shown in
//! tables, Markdown and JSON while the id stays the key; an attempt read by a foreign format's
//! importer keeps its log file and record, or its trial directory. Neither is part of the
//! wave's content hash, nor of any publication's text.

mod common;

use std::path::{Path, PathBuf};

use common::Env;

/// The checkout-rematch example copied into `dir`, with `names` (seat id, display name lines)
/// added to its seats: each line is written into the seat's table as it is.
fn checkout_with(dir: &Path, names: &[(&str, &str)]) -> PathBuf {
    example_with("checkout-rematch", dir, names)
}

/// The example `example` copied into `dir`, with `names` added to its seats as
/// [`checkout_with`] adds them.
fn example_with(example: &str, dir: &Path, names: &[(&str, &str)]) -> PathBuf {
    let from = common::crate_path(&format!("examples/{example}"));
    common::copy_dir(&from, dir);
    let manifest = dir.join("wave.toml");
    let mut text = std::fs::read_to_string(&manifest).unwrap();
    for (seat, line) in names {
        let key = format!("id = \"{seat}\"\n");
        assert!(text.contains(&key), "no seat {seat}");
        text = text.replacen(&key, &format!("{key}{line}\n"), 1);
    }
    std::fs::write(&manifest, text).unwrap();
    manifest
}

fn content_sha256(env: &Env, wave: &str) -> String {
    let waves = env.run(["waves", "--format", "json"]).ok().json();
    waves["waves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["wave"] == wave)
        .unwrap_or_else(|| panic!("no wave {wave} in {waves}"))["content_sha256"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn a_display_name_is_shown_by_people_and_the_id_stays_the_key() {
    let env = Env::init().run_from_crate_root();
    let manifest = checkout_with(
        &env.path().join("named"),
        &[
            ("xai-hierarchical", "display_name = \"Grok 4 (ReAcTree)\""),
            ("openai-react", "display_name = \"  GPT-5 <ReAct>  \""),
        ],
    );
    env.ingest(&[&manifest]);
    // The ingest logged each name it gave, by wave and seat, with the SHA-256 of the name.
    let logged = env.rows(
        "SELECT subject, subject_sha256 FROM chain_entry WHERE kind = 'display_name' ORDER BY seq",
    );
    let stored = env.rows(
        "SELECT s.slug, d.name FROM seat_display_name d JOIN seat s ON s.id = d.seat_id \
         ORDER BY s.id",
    );
    let expected: Vec<Vec<common::Cell>> = stored
        .iter()
        .map(|r| match r.as_slice() {
            [common::Cell::Text(seat), common::Cell::Text(name)] => vec![
                common::Cell::Text(format!("checkout-rematch/{seat}")),
                common::Cell::Text(common::sha256_hex(name.as_bytes())),
            ],
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(expected.len(), 2, "{stored:?}");
    assert_eq!(logged, expected);
    env.run(["verify", "--all", "--ledger"]).ok();
    // The content hash is the one the example has without names: a display name is outside it.
    let plain = Env::with_waves(&["examples/checkout-rematch/wave.toml"]);
    assert_eq!(
        content_sha256(&env, "checkout-rematch"),
        content_sha256(&plain, "checkout-rematch")
    );

    // The table shows the names (trimmed), and says which id each stands for.
    let show = env.run(["show", "checkout-rematch"]).ok().stdout;
    assert!(show.contains(" Grok 4 (ReAcTree) "), "{show}");
    assert!(show.contains(" GPT-5 <ReAct> "), "{show}");
    assert!(!show.contains(" xai-hierarchical "), "{show}");
    assert!(
        show.contains(
            "Seats shown by their display names: GPT-5 <ReAct> is openai-react; Grok 4 \
             (ReAcTree) is xai-hierarchical."
        ),
        "{show}"
    );
    // Seats without one keep their ids.
    assert!(show.contains(" google-react "), "{show}");
    let md = env
        .run(["show", "checkout-rematch", "--format", "md"])
        .ok()
        .stdout;
    assert!(md.contains("| Grok 4 (ReAcTree) |"), "{md}");

    // JSON keeps `seat` and gains `display_name`, only where there is one.
    let json = env
        .run(["show", "checkout-rematch", "--format", "json"])
        .ok()
        .json();
    let seats = json["seats"].as_array().unwrap();
    let xai = seats
        .iter()
        .find(|s| s["seat"] == "xai-hierarchical")
        .unwrap();
    assert_eq!(xai["display_name"], "Grok 4 (ReAcTree)");
    let google = seats.iter().find(|s| s["seat"] == "google-react").unwrap();
    assert!(google.get("display_name").is_none(), "{google}");

    // CSV: the id under `seat`, the name in a column of its own.
    let csv = env
        .run(["show", "checkout-rematch", "--format", "csv"])
        .ok()
        .stdout;
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let seat = header.iter().position(|c| *c == "seat").unwrap();
    let name = header.iter().position(|c| *c == "display_name").unwrap();
    let xai_row: Vec<&str> = csv
        .lines()
        .find(|l| l.contains("xai-hierarchical"))
        .unwrap()
        .split(',')
        .collect();
    assert_eq!(xai_row[seat], "xai-hierarchical");
    assert_eq!(xai_row[name], "Grok 4 (ReAcTree)");

    // The leaderboard shows them too; `--seat` and every other key take the id.
    let score = env
        .run([
            "score",
            "--wave",
            "checkout-rematch",
            "--rubric",
            "rubrics/session-efficiency.v2.toml",
        ])
        .ok();
    assert!(score.stdout.contains(" GPT-5 <ReAct> "), "{}", score.stdout);
    let trials = env.run(["trials", "checkout-rematch"]).ok().stdout;
    assert!(trials.contains(" Grok 4 (ReAcTree) "), "{trials}");
}

/// A new user's check (issue 19, item 7): `problems`, `problems --regressions` and `diff`
/// printed seat ids where `show` and `score` print display names. They show the names, with
/// the note saying which id each stands for; JSON and CSV keep the ids as keys and add the
/// names beside them.
///
/// Its ledger: rca-wave-1 and rca-wave-2, two seats of each named.
fn named_rca_waves() -> Env {
    let env = Env::init().run_from_crate_root();
    let names = [
        ("xai-hierarchical", "display_name = \"Grok 4 (ReAcTree)\""),
        ("anthropic-react", "display_name = \"Claude / ReAct\""),
    ];
    let one = example_with("rca-wave-1", &env.path().join("one"), &names);
    let two = example_with("rca-wave-2", &env.path().join("two"), &names);
    env.ingest(&[&one, &two]);
    env
}

/// The note under a table of [`named_rca_waves`]' seats.
const NAMES_NOTE: &str = "Seats shown by their display names: Claude / ReAct is \
                          anthropic-react; Grok 4 (ReAcTree) is xai-hierarchical.";

fn without_note(text: &str) -> String {
    text.replace(NAMES_NOTE, "")
}

#[test]
fn the_problems_matrix_shows_display_names_and_keeps_ids_as_keys() {
    let env = named_rca_waves();
    let note = NAMES_NOTE;
    // The matrix: a column a seat, headed by its name.
    let matrix = env.run(["problems", "rca-wave-1"]).ok().stdout;
    assert!(matrix.contains(" Grok 4 (ReAcTree) "), "{matrix}");
    assert!(matrix.contains(" Claude / ReAct "), "{matrix}");
    assert!(matrix.contains(" openai-react "), "{matrix}");
    assert!(matrix.contains(note), "{matrix}");
    assert!(
        !without_note(&matrix).contains("xai-hierarchical"),
        "{matrix}"
    );
    let json = env
        .run(["problems", "rca-wave-1", "--format", "json"])
        .ok()
        .json();
    assert_eq!(json["seats"][4], "xai-hierarchical");
    assert_eq!(
        json["display_names"],
        serde_json::json!({
            "xai-hierarchical": "Grok 4 (ReAcTree)",
            "anthropic-react": "Claude / ReAct"
        })
    );
    assert!(
        json["problems"][0]["seats"]["xai-hierarchical"]["trials"].is_u64(),
        "{json}"
    );
    let csv = env
        .run(["problems", "rca-wave-1", "--format", "csv"])
        .ok()
        .stdout;
    assert!(
        csv.lines().next().unwrap().contains(",xai-hierarchical,"),
        "{csv}"
    );
    assert!(!csv.contains("Grok"), "{csv}");
    // `--seat` takes the id.
    let one_seat = env
        .run(["problems", "rca-wave-1", "--seat", "xai-hierarchical"])
        .ok()
        .stdout;
    assert!(one_seat.contains(" Grok 4 (ReAcTree) "), "{one_seat}");
    assert!(
        one_seat
            .contains("Seats shown by their display names: Grok 4 (ReAcTree) is xai-hierarchical."),
        "{one_seat}"
    );
    // The same wave without names prints ids and no note.
    let plain = Env::with_waves(&["examples/rca-wave-1/wave.toml"]);
    let plain_matrix = plain.run(["problems", "rca-wave-1"]).ok().stdout;
    assert!(
        plain_matrix.contains(" xai-hierarchical "),
        "{plain_matrix}"
    );
    assert!(!plain_matrix.contains("display names"), "{plain_matrix}");
}

#[test]
fn problems_regressions_show_display_names_and_keep_ids_as_keys() {
    let env = named_rca_waves();
    let note = NAMES_NOTE;
    // Regressions: a row a seat, by its name.
    let regressions = env
        .run(["problems", "--regressions", "rca-wave-1", "rca-wave-2"])
        .ok()
        .stdout;
    assert!(regressions.contains(" Claude / ReAct "), "{regressions}");
    assert!(regressions.contains(note), "{regressions}");
    assert!(
        !without_note(&regressions).contains("anthropic-react"),
        "{regressions}"
    );
    let json = env
        .run([
            "problems",
            "--regressions",
            "rca-wave-1",
            "rca-wave-2",
            "--format",
            "json",
        ])
        .ok()
        .json();
    let react = json["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["seat"] == "anthropic-react")
        .unwrap();
    assert_eq!(react["display_name"], "Claude / ReAct");
    assert_eq!(react["newly_solved"], serde_json::json!(["rca-2"]));
    let plain_seat = json["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["seat"] == "openai-react")
        .unwrap();
    assert!(plain_seat.get("display_name").is_none(), "{plain_seat}");
}

#[test]
fn diff_shows_display_names_and_keeps_ids_as_keys() {
    let env = named_rca_waves();
    let note = NAMES_NOTE;
    // A rubric change: each row's seat by its name, the summary's too.
    for r in ["session-efficiency.v2.toml", "session-efficiency.v1.toml"] {
        env.run([
            "rubric",
            "add",
            "--allow-scale-violation",
            &format!("rubrics/{r}"),
        ])
        .ok();
    }
    let diff = env
        .run(["diff", "session-efficiency@1", "session-efficiency@2"])
        .ok()
        .stdout;
    assert!(diff.contains(" Grok 4 (ReAcTree) "), "{diff}");
    assert!(
        diff.contains("rca-wave-1/Grok 4 (ReAcTree) -25.00"),
        "{diff}"
    );
    assert!(diff.contains(note), "{diff}");
    assert!(!without_note(&diff).contains("xai-hierarchical"), "{diff}");
    let json = env
        .run([
            "diff",
            "session-efficiency@1",
            "session-efficiency@2",
            "--format",
            "json",
        ])
        .ok()
        .json();
    let row = json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["seat"] == "xai-hierarchical")
        .unwrap();
    assert_eq!(row["display_name"], "Grok 4 (ReAcTree)");
    assert_eq!(
        json["summary"]["largest_shifts"][0]["seat"],
        "xai-hierarchical"
    );
    let csv = env
        .run([
            "diff",
            "session-efficiency@1",
            "session-efficiency@2",
            "--format",
            "csv",
        ])
        .ok()
        .stdout;
    assert!(
        csv.contains(",xai-hierarchical,") && !csv.contains("Grok"),
        "{csv}"
    );
}

#[test]
fn a_publication_shows_ids_only_and_verifies() {
    let env = Env::init().run_from_crate_root();
    let manifest = checkout_with(
        &env.path().join("named"),
        &[("xai-hierarchical", "display_name = \"Grok 4 (ReAcTree)\"")],
    );
    env.ingest(&[&manifest]);
    env.run(["rubric", "add", "rubrics/session-efficiency.v2.toml"])
        .ok();
    env.run([
        "publish",
        "--wave",
        "checkout-rematch",
        "--rubric",
        "session-efficiency@2",
        "--title",
        "Checkout rematch",
    ])
    .ok();
    // The same input and text, byte for byte, as the example's without names: their digests
    // are equal.
    let digests = |env: &Env| {
        let p = env.run(["publications", "--format", "json"]).ok().json();
        let p = &p["publications"][0];
        (p["input_sha256"].clone(), p["output_sha256"].clone())
    };
    let plain = Env::with_waves(&["examples/checkout-rematch/wave.toml"]);
    plain
        .run(["rubric", "add", "rubrics/session-efficiency.v2.toml"])
        .ok();
    plain
        .run([
            "publish",
            "--wave",
            "checkout-rematch",
            "--rubric",
            "session-efficiency@2",
            "--title",
            "Checkout rematch",
        ])
        .ok();
    assert_eq!(digests(&env), digests(&plain));
    env.run(["verify", "--all", "--ledger"]).ok();
}

#[test]
fn a_bad_display_name_is_refused_naming_line_and_field_and_the_ledger_is_unchanged() {
    let env = Env::init();
    let before = env.ledger_bytes();
    let long = "x".repeat(81);
    for (k, (names, says)) in [
        (
            vec![("openai-react", "display_name = \"   \"")],
            "wave.toml:28: field `display_name`: the display name is empty",
        ),
        (
            vec![
                ("openai-react", "display_name = \"Frontier\""),
                ("google-react", "display_name = \"Frontier \""),
            ],
            "is already seat `openai-react`'s display name",
        ),
        (
            vec![("openai-react", "display_name = \"a\\tb\"")],
            "holds the control character",
        ),
        (
            vec![(
                "openai-react",
                Box::leak(format!("display_name = \"{long}\"").into_boxed_str()) as &str,
            )],
            "is 81 characters long: a display name is at most 80",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let manifest = checkout_with(&env.path().join(format!("bad{k}")), &names);
        let out = env.run(["ingest", manifest.to_str().unwrap()]).status(2);
        assert!(out.stderr.contains(says), "{says:?} in {}", out.stderr);
        assert!(out.stderr.contains("display_name"), "{}", out.stderr);
        assert_eq!(env.ledger_bytes(), before, "{says}");
    }
}

#[test]
fn a_reingest_gives_names_to_seats_without_and_never_changes_one() {
    let env = Env::init();
    let plain = checkout_with(&env.path().join("plain"), &[]);
    env.ingest(&[&plain]);
    let sha = content_sha256(&env, "checkout-rematch");
    let named = checkout_with(
        &env.path().join("named"),
        &[
            ("xai-hierarchical", "display_name = \"Grok 4\""),
            ("openai-react", "display_name = \"GPT-5\""),
        ],
    );
    let out = env.ingest(&[&named]);
    assert!(
        out.stdout
            .contains("gave 2 of its seats the display names the manifest names"),
        "{}",
        out.stdout
    );
    assert_eq!(content_sha256(&env, "checkout-rematch"), sha);
    let show = env.run(["show", "checkout-rematch"]).ok().stdout;
    assert!(
        show.contains(" Grok 4 ") && show.contains(" GPT-5 "),
        "{show}"
    );
    // Again: nothing to do.
    let out = env.ingest(&[&named]);
    assert!(out.stdout.contains("nothing to do"), "{}", out.stdout);
    // Another name for a seat that has one: refused, nothing written.
    let before = env.ledger_bytes();
    let renamed = checkout_with(
        &env.path().join("renamed"),
        &[("xai-hierarchical", "display_name = \"Grok\"")],
    );
    let out = env.run(["ingest", renamed.to_str().unwrap()]).status(2);
    assert!(
        out.stderr.contains(
            "seat `xai-hierarchical` of wave `checkout-rematch` is already shown as \"Grok 4\""
        ),
        "{}",
        out.stderr
    );
    assert_eq!(env.ledger_bytes(), before);
}

#[test]
fn ingest_from_takes_display_names_by_seat_id() {
    let env = Env::init().run_from_crate_root();
    let log = "tests/fixtures/import/inspect/run.json";
    let before = env.ledger_bytes();
    // A seat no wave has: refused, naming the seats there are.
    let out = env
        .run([
            "ingest",
            "--from",
            "inspect",
            log,
            "--display-name",
            "claude=Claude",
        ])
        .status(2);
    assert!(
        out.stderr.contains(
            "--display-name claude=Claude: names seat `claude`, which none of the waves built \
             from these files has; their seats are: anthropic-claude-sonnet-4-5"
        ),
        "{}",
        out.stderr
    );
    let out = env
        .run([
            "ingest",
            "--from",
            "inspect",
            log,
            "--display-name",
            "claude",
        ])
        .status(2);
    assert!(out.stderr.contains("expected SEAT=NAME"), "{}", out.stderr);
    assert_eq!(env.ledger_bytes(), before);
    env.run([
        "ingest",
        "--from",
        "inspect",
        log,
        "--display-name",
        "anthropic-claude-sonnet-4-5=Claude Sonnet 4.5 = ReAct",
    ])
    .ok();
    let wave = env.wave_ids().pop().unwrap();
    let json = env.run(["show", &wave, "--format", "json"]).ok().json();
    assert_eq!(json["seats"][0]["seat"], "anthropic-claude-sonnet-4-5");
    assert_eq!(
        json["seats"][0]["display_name"],
        "Claude Sonnet 4.5 = ReAct"
    );
}

/// The attempts export's last two columns.
fn origins(env: &Env, wave: &str) -> Vec<(String, String, String, String)> {
    let csv = env
        .run([
            "export", "--what", "attempts", "--format", "csv", "--wave", wave,
        ])
        .ok()
        .stdout;
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header[header.len() - 2..], ["origin_file", "origin_record"]);
    let at = |name: &str| header.iter().position(|c| *c == name).unwrap();
    let (p, t, f, r) = (
        at("problem"),
        at("attempt"),
        at("origin_file"),
        at("origin_record"),
    );
    lines
        .map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            (
                c[p].to_string(),
                c[t].to_string(),
                c[f].to_string(),
                c[r].to_string(),
            )
        })
        .collect()
}

#[test]
fn every_imported_attempt_keeps_where_it_came_from_outside_the_content_hash() {
    let env = Env::with_waves(&[
        "tests/fixtures/import/inspect/wave.toml",
        "tests/fixtures/import/terminal-bench/wave.toml",
        "tests/fixtures/import/harbor/wave.toml",
        "examples/checkout-rematch/wave.toml",
    ]);
    // Each imported wave's origins are logged with it (checkout-rematch has none), and verify.
    let logged = env.rows("SELECT subject FROM chain_entry WHERE kind = 'origins' ORDER BY seq");
    assert_eq!(logged.len(), 3, "{logged:?}");
    env.run(["verify", "--all", "--ledger"]).ok();
    // Inspect: the log the manifest names (`results = "run.json"`), and each sample's id and
    // epoch, for its 3 samples × 2 epochs.
    let inspect = origins(&env, "arith-mini");
    assert_eq!(inspect.len(), 6);
    assert_eq!(
        inspect[0],
        (
            "1".into(),
            "1".into(),
            "run.json".into(),
            "sample 1 epoch 1".into()
        )
    );
    assert_eq!(
        inspect[5],
        (
            "q3".into(),
            "2".into(),
            "run.json".into(),
            "sample q3 epoch 2".into()
        )
    );
    // Terminal-Bench: each trial's directory, <run>/<task>/<trial name>, beside results.json.
    let tb = origins(&env, "tb-mini");
    assert_eq!(tb.len(), 10);
    assert_eq!(
        tb[0],
        (
            "fix-git".into(),
            "1".into(),
            "run/fix-git/fix-git.1-of-5.2025-06-01__10-00-00".into(),
            String::new()
        )
    );
    // Harbor: each trial's own directory in the job.
    let harbor = origins(&env, "harbor-mini");
    let dirs: Vec<&str> = harbor.iter().map(|o| o.2.as_str()).collect();
    assert_eq!(
        dirs,
        [
            "job/fix-git__g7H8i9",
            "job/hello-world__a1B2c3",
            "job/hello-world__d4E5f6"
        ]
    );
    // Native result lines keep none: the seat names its file.
    assert!(
        origins(&env, "checkout-rematch")
            .iter()
            .all(|o| o.2.is_empty() && o.3.is_empty())
    );
    // The content hashes are the fixtures' own (the manifests' comments, tests/compat): a
    // ledger that keeps no origin would hash these waves the same.
    env.run(["verify", "--ledger"]).ok();
}

/// The origin of each attempt of `wave` in `env`'s ledger (the attempts export's
/// `origin_file`), deduplicated, in order.
fn origin_files(env: &Env, wave: &str) -> Vec<String> {
    let mut files: Vec<String> = origins(env, wave).into_iter().map(|o| o.2).collect();
    files.dedup();
    files
}

/// A new user's check (issue 19): an origin was stored as typed on the command line (`ingest
/// --from --manifest` made it absolute, `/home/…/logs/../run.json`), though the docs say it is
/// relative to the manifest. It is relative to the manifest's directory, whatever directory the
/// ingest runs in; for `ingest --from`, to its `--manifest`'s directory, else to the directory
/// it runs in; and the content hash is the one it always was.
#[test]
fn an_origin_is_relative_to_the_manifests_directory_wherever_the_ingest_runs() {
    let env = Env::init();
    let root = env.path();
    common::copy_dir(
        &common::tests_dir("fixtures/import/inspect"),
        &root.join("data/sub/inspect"),
    );
    common::copy_dir(
        &common::tests_dir("fixtures/import/terminal-bench"),
        &root.join("data/sub/tb"),
    );
    let elsewhere = root.join("elsewhere");
    std::fs::create_dir_all(elsewhere.join("logs")).unwrap();
    std::fs::copy(
        root.join("data/sub/inspect/run.json"),
        elsewhere.join("logs/run.json"),
    )
    .unwrap();
    std::fs::create_dir_all(root.join("meta")).unwrap();
    std::fs::write(
        root.join("meta/wave.toml"),
        "[wave]\nnotes = \"read from the logs\"\n",
    )
    .unwrap();
    let db = env.db.to_str().unwrap().to_string();
    let run = |args: &[&str]| {
        let mut all = vec!["--db", db.as_str()];
        all.extend(args);
        common::run_raw(
            &elsewhere,
            &all,
            &[("BENCHLEDGER_NOW", common::NOW.as_ref())],
        )
        .ok()
    };
    // Manifests in a subdirectory, ingested from another directory.
    run(&[
        "ingest",
        "../data/sub/inspect/wave.toml",
        "../data/sub/tb/wave.toml",
    ]);
    assert_eq!(origin_files(&env, "arith-mini"), ["run.json"]);
    assert_eq!(
        origin_files(&env, "tb-mini")[0],
        "run/fix-git/fix-git.1-of-5.2025-06-01__10-00-00"
    );
    // `ingest --from`: relative to the directory it runs in, as the paths were given (`./`
    // left out, an absolute one inside the directory made relative).
    let inside = elsewhere.join("logs/run.json");
    for (wave, path, manifest, expected) in [
        (
            "from-up",
            "../data/sub/inspect/run.json",
            None,
            "../data/sub/inspect/run.json",
        ),
        ("from-dot", "./logs/run.json", None, "logs/run.json"),
        ("from-abs", inside.to_str().unwrap(), None, "logs/run.json"),
        // With a manifest: relative to its directory.
        (
            "from-meta",
            "../data/sub/inspect/run.json",
            Some("../meta/wave.toml"),
            "../data/sub/inspect/run.json",
        ),
        (
            "from-meta-logs",
            "logs/run.json",
            Some("../meta/wave.toml"),
            "../elsewhere/logs/run.json",
        ),
    ] {
        let mut args = vec!["ingest", "--from", "inspect", path, "--wave", wave];
        if let Some(m) = manifest {
            args.extend(["--manifest", m]);
        }
        run(&args);
        assert_eq!(origin_files(&env, wave), [expected], "{args:?}");
    }
    // Origins are outside the content hash: the Inspect wave hashes as the same manifest
    // ingested from the crate root does.
    assert_eq!(
        content_sha256(&env, "arith-mini"),
        content_sha256(
            &Env::with_waves(&["tests/fixtures/import/inspect/wave.toml"]),
            "arith-mini"
        )
    );
    env.run(["verify", "--ledger"]).ok();
}
