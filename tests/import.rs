//! Importers through the CLI: a harness's own results file, named by `format` in a manifest,
//! lands as the attempts it holds (hand-computed in each fixture's manifest), and a bad record
//! is refused by name with the ledger unchanged.

mod common;

use common::{Env, copy_dir, snapshot_settings, tests_dir};

fn fixture(env: &Env, name: &str) -> std::path::PathBuf {
    let dir = env.path().join(name);
    copy_dir(&tests_dir(&format!("fixtures/import/{name}")), &dir);
    dir.join("wave.toml")
}

#[test]
fn tau_bench_trials_land_as_attempts() {
    let env = Env::init();
    let manifest = fixture(&env, "tau-bench");
    env.ingest(&[&manifest]);
    let show = env
        .run(["show", "tau-mini", "--format", "json"])
        .ok()
        .json();
    let seat = &show["seats"][0];
    assert_eq!(seat["attempts"], 4);
    assert_eq!(seat["problems"], 2);
    assert_eq!(seat["missing"], 1);
    assert_eq!(seat["correct"], 2);
    assert_eq!(seat["denominator"], 5);
    assert_eq!(seat["steps"], 5);
    assert_eq!(seat["errors"], 1);
    assert_eq!(seat["cost_usd"], serde_json::Value::Null);
    let table = env.run(["show", "tau-mini"]).ok().stdout;
    snapshot_settings().bind(|| insta::assert_snapshot!("import__tau_bench_show", table));
}

#[test]
fn a_bad_tau_bench_record_is_named_and_nothing_is_written() {
    let env = Env::init();
    let manifest = fixture(&env, "tau-bench");
    let results = manifest.with_file_name("results.json");
    let text = std::fs::read_to_string(&results).unwrap();
    std::fs::write(
        &results,
        text.replacen("\"reward\": 0.0", "\"reward\": \"no\"", 1),
    )
    .unwrap();
    let before = env.ledger_bytes();
    let out = env
        .run([std::ffi::OsStr::new("ingest"), manifest.as_os_str()])
        .status(2);
    assert!(
        out.stderr.contains(
            "results.json: record 2 (task 0 trial 1): field `reward`: expected a finite \
             number, got the string \"no\""
        ),
        "{out:#?}"
    );
    assert_eq!(env.ledger_bytes(), before);
}

#[test]
fn an_unknown_format_is_named_with_the_formats_there_are() {
    let env = Env::init();
    let manifest = fixture(&env, "tau-bench");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replace("format = \"tau-bench\"", "format = \"tau_bench\""),
    )
    .unwrap();
    let out = env
        .run([std::ffi::OsStr::new("ingest"), manifest.as_os_str()])
        .status(2);
    assert!(
        out.stderr.contains(
            "wave.toml:19: field `format`: unknown results format \"tau_bench\" (did you mean \
             `tau-bench`?)"
        ),
        "{out:#?}"
    );
}

/// Issue 32.7: the wrong format was met with errors about something else ("line 1 is not UTF-8
/// text" for an `.eval` archive given as a manifest, "is a directory" with no hint, six skip
/// notes advising `inspect eval-retry` for a Harbor job given to `--from inspect`): each now
/// says what the input looks like and the `--from` that reads it.
#[test]
fn the_wrong_format_is_met_with_the_format_it_looks_like() {
    let env = Env::init();
    let job = fixture(&env, "harbor").with_file_name("job");
    let eval = env.path().join("run.eval");
    std::fs::write(&eval, b"PK\x03\x04\x14\x00\x00\x00 not read further").unwrap();
    let before = env.ledger_bytes();
    let refused = |args: &[&std::ffi::OsStr], says: &str| {
        let out = env.run(args).status(2);
        assert!(out.stderr.contains(says), "expected {says:?} in {out:#?}");
    };
    refused(
        &["ingest".as_ref(), eval.as_os_str()],
        "run.eval: is a results file, not a wave manifest (TOML); this looks like inspect: use \
         `--from inspect`",
    );
    refused(
        &["ingest".as_ref(), job.as_os_str()],
        "job: is a directory, not a wave manifest (TOML); a directory of results files is read \
         with the format they are in; this looks like harbor: use `--from harbor`",
    );
    refused(
        &[
            "ingest".as_ref(),
            "--from".as_ref(),
            "inspect".as_ref(),
            job.as_os_str(),
        ],
        "job holds no results file of format `inspect` (6 files that might have been were \
         not); this looks like harbor: use `--from harbor`",
    );
    refused(
        &[
            "ingest".as_ref(),
            "--from".as_ref(),
            "terminal-bench".as_ref(),
            job.join("result.json").as_os_str(),
        ],
        "; this looks like harbor: use `--from harbor`",
    );
    refused(
        &[
            "ingest".as_ref(),
            "--from".as_ref(),
            "inspect-ai".as_ref(),
            job.as_os_str(),
        ],
        "unknown results format \"inspect-ai\" (did you mean `inspect`?)",
    );
    refused(
        &[
            "ingest".as_ref(),
            "--from".as_ref(),
            "lm-evaluation-harness".as_ref(),
            job.as_os_str(),
        ],
        "(did you mean `lm-eval`?)",
    );
    refused(
        &[
            "score".as_ref(),
            "--wave".as_ref(),
            "w".as_ref(),
            "--rubric".as_ref(),
            "accuracy".as_ref(),
        ],
        "no rubric file \"accuracy\" (did you mean `accuracy@1`?)",
    );
    assert_eq!(env.ledger_bytes(), before);
    // A manifest is still read as one.
    env.ingest(&[&job.with_file_name("wave.toml")]);
}

/// Issue 32.5: `--provider` and `--model` applied to every file, so the logs of several models
/// could not make one wave without a hand-written manifest, and importing one model at a time
/// collided on the wave id with advice that named a manifest field.
#[test]
fn several_models_make_one_from_wave_with_per_path_seats() {
    let env = Env::init();
    let results = fixture(&env, "tau-bench").with_file_name("results.json");
    for dir in ["logs/gpt", "logs/claude/run1"] {
        let d = env.path().join(dir);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::copy(&results, d.join("results.json")).unwrap();
    }
    let from = |extra: &[&str], paths: &[&str]| {
        let mut args: Vec<String> = [
            "ingest",
            "--from",
            "tau-bench",
            "--suite",
            "airline",
            "--started-at",
            "2024-06-01T00:00:00Z",
            "--harness",
            "tool-calling",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        args.extend(extra.iter().map(|s| s.to_string()));
        args.extend(
            paths
                .iter()
                .map(|p| env.path().join(p).display().to_string()),
        );
        env.run(args)
    };
    let gpt = format!(
        "--seat={}=gpt-4o@openai",
        env.path().join("logs/gpt").display()
    );
    let claude = format!(
        "--seat={}=claude-sonnet-4-5@anthropic",
        env.path().join("logs/claude").display()
    );
    // One model at a time: the second collides, and the advice says how to add seats.
    from(&[&gpt], &["logs/gpt"]).ok();
    let out = from(&[&claude], &["logs/claude"]).status(2);
    assert!(
        out.stderr.contains(
            "wave `airline-2024-06-01` is already in the ledger with different content"
        ) && out.stderr.contains(
            "Waves are append-only: a wave in the ledger cannot grow. To have these seats beside \
             its own, ingest them all at once under a new id: every results path in one call, \
             each with its model (--seat PATH=MODEL[@PROVIDER]), and --wave NEW-ID"
        ),
        "{out:#?}"
    );
    // Both at once, under a new id: one wave of two seats.
    let out = from(&[&gpt, &claude, "--wave", "airline-both"], &["logs"]).ok();
    assert!(
        out.stdout
            .contains("added wave airline-both: 2 seats, 8 attempts"),
        "{out:#?}"
    );
    let show = env
        .run(["show", "airline-both", "--format", "json"])
        .ok()
        .json();
    let mut seats: Vec<(String, String, String)> = show["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["seat"].as_str().unwrap().to_string(),
                s["model"].as_str().unwrap().to_string(),
                s["provider"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    seats.sort();
    assert_eq!(
        seats,
        [
            (
                "claude-sonnet-4-5".to_string(),
                "claude-sonnet-4-5".to_string(),
                "anthropic".to_string()
            ),
            (
                "gpt-4o".to_string(),
                "gpt-4o".to_string(),
                "openai".to_string()
            )
        ]
    );
    // A --seat whose path holds no file read, and one not written PATH=MODEL, are refused.
    let out = from(&[&gpt, "--seat=logs/nowhere=m@p"], &["logs/gpt"]).status(2);
    assert!(
        out.stderr
            .contains("--seat logs/nowhere=m: no results file read is at logs/nowhere"),
        "{out:#?}"
    );
    let out = from(&["--seat=logs/gpt"], &["logs/gpt"]).status(2);
    assert!(
        out.stderr
            .contains("--seat \"logs/gpt\": expected PATH=MODEL or PATH=MODEL@PROVIDER"),
        "{out:#?}"
    );
}

/// Issue 34.4: `ingest --from` followed links to directories with no cycle check: `logs/a/up ->
/// ..` imported one log 41 times (seats `-run2` ... `-run41`, exit 0), and a link to `/` walked
/// for minutes. A link to a directory is never followed, said in a note.
#[cfg(unix)]
#[test]
fn from_directory_walks_never_follow_a_link_to_a_directory() {
    let env = Env::init();
    let results = fixture(&env, "tau-bench").with_file_name("results.json");
    let a = env.path().join("logs/a");
    std::fs::create_dir_all(&a).unwrap();
    std::fs::copy(&results, a.join("results.json")).unwrap();
    std::os::unix::fs::symlink("..", a.join("up")).unwrap();
    std::os::unix::fs::symlink("/", a.join("root")).unwrap();
    let logs = env.path().join("logs");
    let out = env
        .run([
            std::ffi::OsStr::new("ingest"),
            "--from".as_ref(),
            "tau-bench".as_ref(),
            "--suite".as_ref(),
            "airline".as_ref(),
            "--started-at".as_ref(),
            "2024-06-01T00:00:00Z".as_ref(),
            "--model".as_ref(),
            "openai/gpt-4o".as_ref(),
            "--harness".as_ref(),
            "tool-calling".as_ref(),
            logs.as_os_str(),
        ])
        .ok();
    assert!(
        out.stdout
            .contains("added wave airline-2024-06-01: 1 seats, 4 attempts"),
        "{out:#?}"
    );
    assert!(
        out.stdout.contains("a/up: a link to a directory") && out.stdout.contains("a/root: a link"),
        "{out:#?}"
    );
}
