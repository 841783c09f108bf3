//! The Terminal-Bench, OpenHands and SWE-bench importers through the CLI: each fixture, written
//! by hand in its harness's shape, lands as the attempts hand-computed in its manifest (read
//! back from the ledger attempt by attempt), its `show` is snapshotted, and a bad record is
//! refused by name with the ledger unchanged.

mod common;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use common::{Env, copy_dir, snapshot_settings, tests_dir};

fn fixture(env: &Env, name: &str) -> PathBuf {
    let dir = env.path().join(name);
    copy_dir(&tests_dir(&format!("fixtures/import/{name}")), &dir);
    dir.join("wave.toml")
}

/// One attempt as the ledger holds it: problem, trial, Correct, infrastructure, end reason.
type Row = (String, u32, bool, bool, Option<String>);

/// Every attempt of a wave's seat, in ledger order, read straight from the ledger.
fn attempts(env: &Env, wave: &str) -> Vec<Row> {
    use common::Cell;
    env.rows(&format!(
        "SELECT a.problem, a.trial, a.correct, a.infra_error, a.end_reason
           FROM attempt a JOIN seat s ON s.id = a.seat_id JOIN wave w ON w.id = s.wave_id
          WHERE w.slug = {} ORDER BY a.problem, a.trial",
        common::sql_text(wave)
    ))
    .into_iter()
    .map(|r| match r.as_slice() {
        [
            Cell::Text(problem),
            Cell::Int(trial),
            Cell::Int(correct),
            Cell::Int(infra),
            end,
        ] => (
            problem.clone(),
            u32::try_from(*trial).unwrap(),
            *correct != 0,
            *infra != 0,
            match end {
                Cell::Text(t) => Some(t.clone()),
                Cell::Null => None,
                other => panic!("{other:?}"),
            },
        ),
        other => panic!("{other:?}"),
    })
    .collect()
}

fn row(problem: &str, trial: u32, correct: bool, infra: bool, end: Option<&str>) -> Row {
    (
        problem.to_string(),
        trial,
        correct,
        infra,
        end.map(str::to_string),
    )
}

/// Rewrites one file of a copied fixture, checking that the text to replace is there.
fn edit(file: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains(from), "{} holds no {from:?}", file.display());
    std::fs::write(file, text.replacen(from, to, 1)).unwrap();
}

/// Ingests a manifest that must be refused, and checks the refusal says `says` and that the
/// ledger was left as it was.
#[track_caller]
fn refused(env: &Env, manifest: &Path, says: &str) {
    let before = env.ledger_bytes();
    let out = env
        .run([OsStr::new("ingest"), manifest.as_os_str()])
        .status(2);
    assert!(out.stderr.contains(says), "should say: {says}\n{out:#?}");
    assert_eq!(env.ledger_bytes(), before, "the ledger changed");
}

#[test]
fn a_terminal_bench_run_of_five_trials_a_task_lands_as_five_attempts_a_problem() {
    let env = Env::init();
    let manifest = fixture(&env, "terminal-bench");
    env.ingest(&[&manifest]);
    let mut want = Vec::new();
    for (k, correct, end) in [
        (1, false, Some("agent_installation_failed")),
        (2, true, None),
        (3, false, None),
        (4, false, Some("context_length_exceeded")),
        (5, true, None),
    ] {
        want.push(row("fix-git", k, correct, k == 1, end));
    }
    for (k, correct, end) in [
        (1, true, None),
        (2, true, None),
        (3, false, None),
        (4, false, Some("agent_timeout")),
        (5, true, None),
    ] {
        want.push(row("hello-world", k, correct, false, end));
    }
    assert_eq!(attempts(&env, "tb-mini"), want);
    let show = env.run(["show", "tb-mini", "--format", "json"]).ok().json();
    let seat = &show["seats"][0];
    assert_eq!(seat["attempts"], 10);
    assert_eq!(seat["problems"], 2);
    assert_eq!(seat["correct"], 5);
    assert_eq!(seat["denominator"], 10);
    assert_eq!(seat["wall_s"], 1215.0);
    assert_eq!(seat["wall_known_attempts"], 10);
    assert_eq!(seat["input_tokens"], 42600);
    assert_eq!(seat["output_tokens"], 6800);
    assert_eq!(seat["tokens_total"], 49400);
    assert_eq!(seat["tokens_known_attempts"], 9);
    assert_eq!(seat["steps"], 51);
    assert_eq!(seat["steps_known_attempts"], 8);
    assert_eq!(seat["cost_usd"], serde_json::Value::Null);
    let table = env.run(["show", "tb-mini"]).ok().stdout;
    snapshot_settings().bind(|| insta::assert_snapshot!("import__terminal_bench_show", table));
}

#[test]
fn a_bad_terminal_bench_trial_is_named_and_nothing_is_written() {
    let env = Env::init();
    let manifest = fixture(&env, "terminal-bench");
    let results = manifest.with_file_name("run/results.json");
    edit(
        &results,
        "\"trial_name\": \"fix-git.3-of-5.",
        "\"trial_name\": \"fix-git.3of5.",
    );
    refused(
        &env,
        &manifest,
        "results.json: record 6 (trial fix-git.3of5.2025-06-01__10-00-00): field `trial_name`: \
         expected `fix-git.<k>-of-<n>`",
    );
    // A trial counted against a different number of trials than the run's metadata says.
    let manifest = fixture(&env, "terminal-bench");
    edit(
        &manifest.with_file_name("run/run_metadata.json"),
        "\"n_attempts\": 5",
        "\"n_attempts\": 3",
    );
    refused(
        &env,
        &manifest,
        "results.json: record 1 (trial fix-git.2-of-5.2025-06-01__10-00-00): field \
         `trial_name`: trial 2 of 5, but run_metadata.json says n_attempts = 3",
    );
}

#[test]
fn an_openhands_benchmark_lands_with_its_null_verdict_as_an_attempt() {
    let env = Env::init();
    let manifest = fixture(&env, "openhands");
    env.ingest(&[&manifest]);
    assert_eq!(
        attempts(&env, "oh-mini"),
        [
            row("astropy__astropy-12907", 1, true, false, None),
            row("django__django-11099", 1, false, false, None),
            row("django__django-11133", 1, false, false, Some("no verdict")),
            row("sympy__sympy-20590", 1, true, false, None),
            row("sympy__sympy-24102", 1, false, false, None),
        ]
    );
    let show = env.run(["show", "oh-mini", "--format", "json"]).ok().json();
    let seat = &show["seats"][0];
    assert_eq!(seat["attempts"], 5);
    assert_eq!(seat["missing"], 1);
    assert_eq!(seat["correct"], 2);
    assert_eq!(seat["denominator"], 6);
    assert_eq!(seat["cost_usd"], 2.5);
    assert_eq!(seat["cost_known_attempts"], 4);
    assert_eq!(seat["tokens_total"], serde_json::Value::Null);
    let table = env.run(["show", "oh-mini"]).ok().stdout;
    snapshot_settings().bind(|| insta::assert_snapshot!("import__openhands_show", table));
}

#[test]
fn a_bad_openhands_instance_is_named_and_nothing_is_written() {
    let env = Env::init();
    let manifest = fixture(&env, "openhands");
    edit(
        &manifest.with_file_name("claude-x/instance_results/swe-bench.json"),
        "\"cost\":1.25",
        "\"cost\":-1.25",
    );
    refused(
        &env,
        &manifest,
        "swe-bench.json: instance django__django-11099: field `cost`: expected a cost in USD, \
         0 or more, got -1.25",
    );
    // An instance given twice is refused by name, not silently kept once.
    let manifest = fixture(&env, "openhands");
    edit(
        &manifest.with_file_name("claude-x/instance_results/swe-bench.json"),
        "\"sympy__sympy-24102\":",
        "\"sympy__sympy-20590\":",
    );
    refused(
        &env,
        &manifest,
        "swe-bench.json: field `sympy__sympy-20590`: appears twice at the top of the file",
    );
}

#[test]
fn a_swe_bench_submission_lands_with_its_details_and_the_rest_missing() {
    let env = Env::init();
    let manifest = fixture(&env, "swe-bench");
    env.ingest(&[&manifest]);
    assert_eq!(
        attempts(&env, "swe-mini"),
        [
            row("astropy__astropy-12907", 1, true, false, None),
            row("django__django-11099", 1, true, false, None),
            row("django__django-11133", 1, false, false, None),
            row(
                "matplotlib__matplotlib-23314",
                1,
                false,
                false,
                Some("no_generation")
            ),
            row("pytest-dev__pytest-5227", 1, false, false, None),
            row(
                "scikit-learn__scikit-learn-13142",
                1,
                false,
                true,
                Some("no_logs")
            ),
            row("sympy__sympy-20590", 1, true, false, None),
        ]
    );
    let show = env
        .run(["show", "swe-mini", "--format", "json"])
        .ok()
        .json();
    let seat = &show["seats"][0];
    assert_eq!(seat["attempts"], 7);
    assert_eq!(seat["missing"], 1);
    assert_eq!(seat["correct"], 3);
    assert_eq!(seat["denominator"], 8);
    assert_eq!(seat["cost_usd"], 4.5);
    assert_eq!(seat["cost_known_attempts"], 7);
    assert_eq!(seat["cost_of_pass_usd"], 1.5);
    assert_eq!(seat["steps"], 225);
    let table = env.run(["show", "swe-mini"]).ok().stdout;
    snapshot_settings().bind(|| insta::assert_snapshot!("import__swe_bench_show", table));
}

#[test]
fn a_bad_swe_bench_submission_is_named_and_nothing_is_written() {
    let env = Env::init();
    let manifest = fixture(&env, "swe-bench");
    edit(
        &manifest.with_file_name("20250601_mini_claude-x/per_instance_details.json"),
        "\"django__django-11099\": {\"resolved\": true",
        "\"django__django-11099\": {\"resolved\": false",
    );
    refused(
        &env,
        &manifest,
        "per_instance_details.json: instance django__django-11099: field `resolved`: false, \
         but ",
    );
    let manifest = fixture(&env, "swe-bench");
    edit(
        &manifest.with_file_name("20250601_mini_claude-x/results/results.json"),
        "\"no_logs\"",
        "\"errors\"",
    );
    refused(
        &env,
        &manifest,
        "results.json: list `errors`: not a list SWE-bench's results.json holds",
    );
}

#[test]
fn a_swe_bench_seat_needs_the_suites_size() {
    let env = Env::init();
    let manifest = fixture(&env, "swe-bench");
    edit(&manifest, "suite_problems = 8\n", "");
    refused(
        &env,
        &manifest,
        "wave.toml: field `wave.suite_problems`: missing: seat `mini-claude-x` reads format \
         `swe-bench`, which needs the suite's size",
    );
}

#[test]
fn from_terminal_bench_builds_the_wave_from_run_metadata_alone() {
    let env = Env::init();
    let manifest = fixture(&env, "terminal-bench");
    let run = manifest.with_file_name("run");
    let out = env
        .run([
            OsStr::new("ingest"),
            "--from".as_ref(),
            "terminal-bench".as_ref(),
            run.as_os_str(),
        ])
        .ok();
    // The id: the dataset and the date of run_metadata.json's start_time.
    assert_eq!(
        out.stdout.split(" (sha256").next().unwrap(),
        "added wave terminal-bench-core-0.1.1-2025-06-01: 1 seats, 10 attempts"
    );
    let waves = env.run(["waves", "--format", "json"]).ok().json();
    let w = &waves["waves"][0];
    assert_eq!(w["suite"], "terminal-bench-core@0.1.1");
    assert_eq!(w["suite_problems"], 2);
    assert_eq!(w["started_at"], "2025-06-01T10:00:00Z");
    assert_eq!(w["load"]["parallel_sessions"], 4);
    let show = env
        .run([
            "show",
            "terminal-bench-core-0.1.1-2025-06-01",
            "--format",
            "json",
        ])
        .ok()
        .json();
    let seat = &show["seats"][0];
    assert_eq!(seat["seat"], "anthropic-claude-sonnet-4-20250514");
    assert_eq!(seat["provider"], "anthropic");
    assert_eq!(seat["model"], "claude-sonnet-4-20250514");
    assert_eq!(seat["harness"], "terminus");
}

#[test]
fn from_openhands_names_what_the_directory_cannot_say_and_the_model_is_checked() {
    let env = Env::init();
    let manifest = fixture(&env, "openhands");
    let dir = manifest.with_file_name("claude-x");
    let before = env.ledger_bytes();
    // The index names no provider and no start: both in one error (issue 32.4).
    let out = env
        .run([
            OsStr::new("ingest"),
            "--from".as_ref(),
            "openhands".as_ref(),
            dir.as_os_str(),
        ])
        .status(2);
    assert!(
        out.stderr.contains(
            "missing 2 fields the files do not give: `started_at` (the file does not say when \
             its run started), `provider` (the file names model \"claude-x\" without its \
             provider); give them with --started-at, --provider"
        ),
        "{out:#?}"
    );
    let from = |extra: &[&str]| {
        let mut args: Vec<&OsStr> = vec![
            OsStr::new("ingest"),
            "--from".as_ref(),
            "openhands".as_ref(),
            "--started-at".as_ref(),
            "2026-02-01T00:00:00Z".as_ref(),
        ];
        args.extend(extra.iter().map(OsStr::new));
        args.push(dir.as_os_str());
        env.run(args)
    };
    let out = from(&[]).status(2);
    assert!(
        out.stderr.contains(
            "swe-bench.json: field `provider`: missing: the file names model \"claude-x\" \
             without its provider; give it with --provider"
        ),
        "{out:#?}"
    );
    // A model the files do not name is refused, naming both.
    let out = from(&["--provider", "openai", "--model", "gpt-4"]).status(2);
    assert!(
        out.stderr.contains("says model \"gpt-4\"")
            && out.stderr.contains("name model \"claude-x\""),
        "{out:#?}"
    );
    assert_eq!(env.ledger_bytes(), before, "the ledger changed");
    // ... unless allowed, which the wave's notes record.
    let out = from(&[
        "--provider",
        "anthropic",
        "--model",
        "claude-x-served",
        "--model-mismatch",
        "allow",
    ])
    .ok();
    assert_eq!(
        out.stdout.split(" (sha256").next().unwrap(),
        "added wave swe-bench-2026-02-01: 1 seats, 5 attempts"
    );
    let waves = env.run(["waves", "--format", "json"]).ok().json();
    assert_eq!(
        waves["waves"][0]["notes"],
        "seat claude-x-served: its results name model claude-x; it was ingested as \
         claude-x-served (model_mismatch = \"allow\")"
    );
}

#[test]
fn a_manifest_whose_model_the_results_contradict_is_refused() {
    let env = Env::init();
    let manifest = fixture(&env, "openhands");
    edit(&manifest, "model = \"claude-x\"", "model = \"gpt-4\"");
    refused(
        &env,
        &manifest,
        "seat `openhands-claude-x` says model \"gpt-4\" (provider \"anthropic\"), but its \
         results",
    );
    edit(
        &manifest,
        "harness = \"openhands\"",
        "harness = \"openhands\"\nmodel_mismatch = \"allow\"",
    );
    env.ingest(&[&manifest]);
}
