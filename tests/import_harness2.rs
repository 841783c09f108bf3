//! The `hal` and `tau2-bench` importers through the CLI: a HAL upload in each shape of its
//! `raw_logging_results` and a tau2-bench run in each of its file layouts land as the attempts
//! hand-computed in their fixtures' manifests; an attempt that ended in an infrastructure error
//! is there and not Correct; a bad record is refused by name with the ledger unchanged.

mod common;

use benchledger_core::ledger::Ledger;
use benchledger_core::model::{Attempt, WaveData};
use common::{Env, copy_dir, snapshot_settings, tests_dir};
use serde_json::Value;

fn fixture(env: &Env, name: &str) -> std::path::PathBuf {
    let dir = env.path().join(name);
    copy_dir(&tests_dir(&format!("fixtures/import/{name}")), &dir);
    dir.join("wave.toml")
}

/// A seat of `show --format json`, by id.
fn seat<'a>(show: &'a Value, id: &str) -> &'a Value {
    show["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["seat"] == id)
        .unwrap_or_else(|| panic!("no seat {id} in {show:#}"))
}

fn close(v: &Value, expected: f64) -> bool {
    v.as_f64().is_some_and(|x| (x - expected).abs() < 1e-9)
}

/// One attempt of a wave in the ledger, by seat, problem and trial.
fn attempt<'a>(wave: &'a WaveData, seat: &str, problem: &str, trial: u32) -> &'a Attempt {
    wave.seats
        .iter()
        .find(|s| s.seat.id == seat)
        .and_then(|s| {
            s.attempts
                .iter()
                .find(|a| a.problem == problem && a.trial == trial)
        })
        .unwrap_or_else(|| panic!("no attempt {seat} {problem} {trial}"))
}

/// Runs `ingest` on a manifest whose results were spoilt, and checks that it is refused with
/// `says` and that the ledger is as it was.
#[track_caller]
fn refused(env: &Env, manifest: &std::path::Path, says: &str) {
    let before = env.ledger_bytes();
    let out = env
        .run([std::ffi::OsStr::new("ingest"), manifest.as_os_str()])
        .status(2);
    assert!(out.stderr.contains(says), "expected {says:?} in {out:#?}");
    assert_eq!(env.ledger_bytes(), before, "the ledger changed");
}

/// Replaces `from` (found exactly once) with `to` in a fixture file.
#[track_caller]
fn spoil(file: &std::path::Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    assert_eq!(
        text.matches(from).count(),
        1,
        "{from:?} in {}",
        file.display()
    );
    std::fs::write(file, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn hal_uploads_in_either_shape_land_one_attempt_per_task() {
    let env = Env::init();
    let manifest = fixture(&env, "hal");
    env.ingest(&[&manifest]);
    let show = env
        .run(["show", "hal-mini", "--format", "json"])
        .ok()
        .json();

    // raw_logging_results keyed by task, OpenAI's counts in call_metadata[].usage.
    let new = seat(&show, "gpt-4-1");
    assert_eq!(
        (
            &new["attempts"],
            &new["correct"],
            &new["missing"],
            &new["denominator"]
        ),
        (&3.into(), &1.into(), &1.into(), &4.into())
    );
    assert_eq!(new["input_tokens"], 65300);
    assert_eq!(new["output_tokens"], 1550);
    assert_eq!(new["input_tokens_cache_read"], 38700);
    // OpenAI's usage records no cache writes: unknown, not 0.
    assert_eq!(new["input_tokens_cache_write"], serde_json::Value::Null);
    assert_eq!(new["input_tokens_cache_write_known_attempts"], 0);
    assert_eq!(new["tokens_total"], 66850);
    assert_eq!(new["new_input_tokens"], 26600);
    assert!(close(&new["wall_s"], 2796.5), "{new:#}");
    assert_eq!(
        (&new["steps"], &new["steps_known_attempts"]),
        (&15.into(), &2.into())
    );
    assert_eq!(
        new["cost_usd"],
        Value::Null,
        "HAL prices whole runs, not tasks"
    );

    // raw_logging_results a list of weave calls, Anthropic's counts in summary.usage by model.
    let old = seat(&show, "claude-3-7");
    assert_eq!(
        (&old["attempts"], &old["correct"], &old["missing"]),
        (&3.into(), &2.into(), &1.into())
    );
    assert_eq!(old["input_tokens"], 28600);
    assert_eq!(old["output_tokens"], 1770);
    assert_eq!(old["input_tokens_cache_read"], 18200);
    assert_eq!(old["input_tokens_cache_write"], 9100);
    assert_eq!(old["tokens_total"], 39470);
    assert_eq!(old["new_input_tokens"], 19500);
    assert!(close(&old["wall_s"], 200.75), "{old:#}");
    assert!(close(&old["cost_usd"], 0.1075), "{old:#}");
    assert!(close(&old["cost_of_pass_usd"], 0.05375), "{old:#}");
    assert_eq!(old["steps_known_attempts"], 0);

    let wave = Ledger::open(&env.db)
        .unwrap()
        .load_wave("hal-mini")
        .unwrap();
    let timed_out = attempt(&wave, "gpt-4-1", "2", 1);
    assert!(!timed_out.correct && !timed_out.infra_error);
    assert_eq!(
        timed_out.end_reason.as_deref(),
        Some("ERROR: Task timed out after 2700 seconds")
    );
    assert_eq!(attempt(&wave, "claude-3-7", "0", 1).outcome, Some(1.0));

    let table = env.run(["show", "hal-mini"]).ok().stdout;
    snapshot_settings().bind(|| insta::assert_snapshot!("import_harness2__hal_show", table));
}

/// Issue 32.4: `ingest --from hal FILE` stopped on `suite`, then on `started_at`: every
/// missing field is named with its flag in one error.
#[test]
fn hal_missing_fields_are_named_with_their_flags_in_one_error() {
    let env = Env::init();
    let upload = fixture(&env, "hal").with_file_name("new-upload.json");
    let out = env
        .run([
            std::ffi::OsStr::new("ingest"),
            "--from".as_ref(),
            "hal".as_ref(),
            upload.as_os_str(),
        ])
        .status(2);
    assert!(
        // The provider of gpt-4.1-2025-04-14 comes from the model alias table
        // (models/aliases.v1.toml): the start is all the upload leaves unsaid.
        out.stderr.contains(
            "new-upload.json: field `started_at`: missing: the file does not say when its run \
             started; give it with --started-at (or in the wave manifest given with --manifest)"
        ),
        "{out:#?}"
    );
}

#[test]
fn a_bad_hal_record_is_named_and_nothing_is_written() {
    for (file, from, to, says) in [
        (
            "new-upload.json",
            "\"completion_tokens\": 350",
            "\"completion_tokens\": \"lots\"",
            "new-upload.json: raw_logging_results[\"1\"]: field \
             `call_metadata[1].usage.completion_tokens`: expected a token count (a whole number, \
             0 or more), got the string \"lots\"",
        ),
        (
            "old-upload.json",
            "\"input_tokens\": 3100",
            "\"input_tokens\": -3100",
            "old-upload.json: raw_logging_results[2]: field \
             `summary.usage.claude-3-7-sonnet-20250219.input_tokens`: expected a token count",
        ),
        (
            "old-upload.json",
            "\"reward\": 0.0",
            "\"reward\": 7",
            "old-upload.json: raw_eval_results[\"3\"]: field `reward`: expected a reward from 0 \
             to 1, got 7",
        ),
        (
            "new-upload.json",
            "\"failed_tasks\": [\n      \"1\",",
            "\"failed_tasks\": [\n      \"0\",",
            "new-upload.json: field `results.failed_tasks`: task \"0\" is in both \
             successful_tasks and failed_tasks",
        ),
    ] {
        let env = Env::init();
        let manifest = fixture(&env, "hal");
        spoil(&manifest.with_file_name(file), from, to);
        refused(&env, &manifest, says);
    }
}

#[test]
fn a_manifest_that_counts_hal_tokens_the_other_way_is_refused() {
    let env = Env::init();
    let manifest = fixture(&env, "hal");
    spoil(
        &manifest,
        "input_tokens_include_cache_reads = true",
        "input_tokens_include_cache_reads = false",
    );
    refused(
        &env,
        &manifest,
        "the manifest says input_tokens_include_cache_reads = false, but",
    );
}

#[test]
fn tau2_simulations_land_with_their_infrastructure_errors_kept() {
    let env = Env::init();
    let manifest = fixture(&env, "tau2-bench");
    env.ingest(&[&manifest]);
    let show = env
        .run(["show", "tau2-mini", "--format", "json"])
        .ok()
        .json();

    // One file, text mode: tokens from the agent's messages.
    let text = seat(&show, "text");
    assert_eq!(
        (
            &text["attempts"],
            &text["correct"],
            &text["missing"],
            &text["denominator"]
        ),
        (&6.into(), &3.into(), &0.into(), &6.into())
    );
    assert!(close(&text["wall_s"], 282.75), "{text:#}");
    assert_eq!(text["wall_known_attempts"], 5);
    assert!(close(&text["cost_usd"], 0.0784), "{text:#}");
    assert_eq!(text["cost_known_attempts"], 5);
    assert_eq!(text["cost_of_pass_usd"], Value::Null, "a cost is unknown");
    assert_eq!(text["input_tokens"], 29100);
    assert_eq!(text["output_tokens"], 478);
    assert_eq!(text["tokens_total"], 29578);
    assert_eq!((&text["steps"], &text["errors"]), (&10.into(), &2.into()));

    // The directory format, voice: tokens from agent_usage, cached reads among them.
    let voice = seat(&show, "voice");
    assert_eq!(
        (
            &voice["attempts"],
            &voice["correct"],
            &voice["missing"],
            &voice["denominator"]
        ),
        (&4.into(), &2.into(), &1.into(), &5.into())
    );
    assert!(close(&voice["wall_s"], 285.5), "{voice:#}");
    assert!(close(&voice["cost_usd"], 0.2455), "{voice:#}");
    assert_eq!(voice["input_tokens"], 63000);
    assert_eq!(voice["output_tokens"], 9300);
    assert_eq!(voice["input_tokens_cache_read"], 42500);
    assert_eq!(voice["tokens_total"], 72300);
    assert_eq!(voice["new_input_tokens"], 20500);
    assert_eq!((&voice["steps"], &voice["errors"]), (&2.into(), &1.into()));

    let wave = Ledger::open(&env.db)
        .unwrap()
        .load_wave("tau2-mini")
        .unwrap();
    for (seat, problem) in [("text", "2"), ("voice", "1")] {
        // Trial 0 in the file: attempt 1.
        let broken = attempt(&wave, seat, problem, 1);
        assert!(broken.infra_error && !broken.correct, "{broken:?}");
        assert_eq!(broken.end_reason.as_deref(), Some("infrastructure_error"));
        assert_eq!(
            (
                broken.wall_s,
                broken.input_tokens,
                broken.cost_usd,
                broken.steps
            ),
            (None, None, None, None)
        );
    }
    let refused_cancel = attempt(&wave, "text", "0", 2);
    let trace = refused_cancel.trace.as_ref().unwrap();
    assert_eq!(
        trace
            .iter()
            .map(|s| (s.tool.as_str(), s.ok))
            .collect::<Vec<_>>(),
        [("get_user_details", true), ("cancel_reservation", false)]
    );
    assert_eq!(
        attempt(&wave, "text", "1", 2).end_reason.as_deref(),
        Some("max_steps")
    );

    let table = env.run(["show", "tau2-mini"]).ok().stdout;
    snapshot_settings().bind(|| insta::assert_snapshot!("import_harness2__tau2_show", table));
}

#[test]
fn a_bad_tau2_simulation_is_named_and_nothing_is_written() {
    let voice_sim = "voice/simulations/9d1e4f00-aaaa-4bbb-8ccc-000000000002.json";
    for (file, from, to, says) in [
        (
            "text-results.json",
            "\"termination_reason\": \"max_steps\"",
            "\"termination_reason\": \"max_turns\"",
            "text-results.json: simulation 4 (task 1 trial 1): field `termination_reason`: \
             \"max_turns\" is not one of tau2's termination reasons",
        ),
        (
            "text-results.json",
            "\"duration\": 30.25",
            "\"duration\": -30.25",
            "text-results.json: simulation 3 (task 1 trial 0): field `duration`: expected \
             seconds, 0 or more, got -30.25",
        ),
        (
            voice_sim,
            "\"input_cached_tokens\": 16000",
            "\"input_cached_tokens\": 1.5",
            "9d1e4f00-aaaa-4bbb-8ccc-000000000002.json: simulation \
             9d1e4f00-aaaa-4bbb-8ccc-000000000002 (task 0 trial 1): field \
             `agent_usage.records[0].input_cached_tokens`: expected a token count",
        ),
    ] {
        let env = Env::init();
        let manifest = fixture(&env, "tau2-bench");
        spoil(&manifest.with_file_name(file), from, to);
        refused(&env, &manifest, says);
    }
    // A simulation the index names, missing from simulations/.
    let env = Env::init();
    let manifest = fixture(&env, "tau2-bench");
    std::fs::remove_file(manifest.with_file_name(voice_sim)).unwrap();
    refused(
        &env,
        &manifest,
        "voice/results.json: simulation_index[1]: field `id`: cannot read its simulation file",
    );
}

#[test]
fn a_harbor_job_lands_with_its_trials_as_attempts_and_its_exceptions_sorted() {
    let env = Env::init();
    let manifest = fixture(&env, "harbor");
    env.ingest(&[&manifest]);
    let show = env
        .run(["show", "harbor-mini", "--format", "json"])
        .ok()
        .json();
    let s = seat(&show, "terminus-2-claude-sonnet-4-5");
    // Worked by hand in tests/fixtures/import/harbor/wave.toml.
    assert_eq!(s["attempts"], 3);
    assert_eq!(s["problems"], 2);
    assert_eq!(s["correct"], 1);
    assert_eq!(s["input_tokens"], 1500);
    assert_eq!(s["input_tokens_cache_read"], 200);
    assert_eq!(s["new_input_tokens"], 1300);
    assert_eq!(s["output_tokens"], 150);
    assert_eq!(s["input_tokens_known_attempts"], 2);
    assert!(close(&s["cost_usd"], 0.015), "{s:#}");
    assert_eq!(s["cost_known_attempts"], 2);
    assert!(close(&s["wall_s"], 210.0), "{s:#}");
    assert_eq!(s["steps"], 2);
    assert_eq!(s["steps_known_attempts"], 1);
    let wave = Ledger::open(&env.db)
        .unwrap()
        .load_wave("harbor-mini")
        .unwrap();
    let first = attempt(&wave, "terminus-2-claude-sonnet-4-5", "hello-world", 1);
    assert!(first.correct && first.outcome == Some(1.0));
    assert_eq!(first.working_s, Some(40.0));
    // Issue 31, #5: its trajectory's first user message and the agent's last one are its texts;
    // a trial without a trajectory has none.
    let texts = first.texts.clone().expect("the first trial's texts");
    assert_eq!(texts.input.as_deref(), Some("Create hello.txt"));
    assert_eq!(texts.answer.as_deref(), Some("Done."));
    assert_eq!((texts.target, texts.explanation), (None, None));
    let second = attempt(&wave, "terminus-2-claude-sonnet-4-5", "hello-world", 2);
    assert!(!second.correct && !second.infra_error);
    assert_eq!(second.outcome, Some(0.0));
    assert_eq!(second.end_reason.as_deref(), Some("AgentTimeoutError"));
    assert_eq!(second.working_s, Some(60.0));
    let infra = attempt(&wave, "terminus-2-claude-sonnet-4-5", "fix-git", 1);
    assert!(!infra.correct && infra.infra_error);
    assert_eq!(infra.texts, None);
    assert_eq!(infra.outcome, None);
    assert_eq!(infra.input_tokens, None);
    assert_eq!(
        infra.end_reason.as_deref(),
        Some("EnvironmentStartTimeoutError")
    );

    // --from: the suite, the harness, the model and the load come from the job (its start,
    // written without an offset, is read: harbor_job_start_as_harbor_writes_it_...).
    let env = Env::init();
    let manifest = fixture(&env, "harbor");
    let job = manifest.with_file_name("job");
    let out = env
        .run([
            std::ffi::OsStr::new("ingest"),
            "--from".as_ref(),
            "harbor".as_ref(),
            "--started-at".as_ref(),
            "2025-11-01T10:00:00Z".as_ref(),
            job.as_os_str(),
        ])
        .ok();
    assert_eq!(
        out.stdout.split(" (sha256").next().unwrap(),
        "added wave terminal-bench-2025-11-01: 1 seats, 3 attempts"
    );
    let waves = env.run(["waves", "--format", "json"]).ok().json();
    assert_eq!(waves["waves"][0]["load"]["parallel_sessions"], 2);
    // The job's timeout_multiplier, 1 as Harbor writes its default: a condition the job
    // states, so the wave is hashed in content format 3, which holds it.
    assert_eq!(waves["waves"][0]["load"]["timeout_multiplier"], 1.0);
    assert_eq!(waves["waves"][0]["content_format"], 3);
    assert_eq!(waves["waves"][0]["provenance"]["harness_version"], "2.0.0");
}

/// Issue 32.10: Harbor writes a job's `started_at` with `datetime.now()`, naive local time, and
/// `--from harbor` called it missing; and `cd JOB && ingest --from harbor .` found no job where
/// the same directory by its absolute path ingested (`.`'s lexical parent is no directory, so
/// the job's own result.json was taken for a job above it).
#[test]
fn harbor_job_start_as_harbor_writes_it_is_read_and_dot_is_the_job() {
    // No trial states an offset: the start is taken as UTC, and a note says so.
    let env = Env::init();
    let job = fixture(&env, "harbor").with_file_name("job");
    let out = common::run_raw(
        &job,
        &[
            std::ffi::OsStr::new("--db"),
            env.db.as_os_str(),
            "ingest".as_ref(),
            "--from".as_ref(),
            "harbor".as_ref(),
            ".".as_ref(),
        ],
        &[],
    );
    assert_eq!(out.status, 0, "{out:#?}");
    assert!(
        out.stdout.starts_with(
            "note: ./result.json: the job's started_at \"2025-11-01T10:00:00.000000\" names no \
             offset (Harbor writes local time) and no trial states one: taken as UTC, \
             2025-11-01T10:00:00Z; give --started-at if the run was elsewhere\n"
        ),
        "{out:#?}"
    );
    assert!(
        out.stdout
            .contains("added wave terminal-bench-2025-11-01: 1 seats, 3 attempts"),
        "{out:#?}"
    );
    let waves = env.run(["waves", "--format", "json"]).ok().json();
    assert_eq!(waves["waves"][0]["started_at"], "2025-11-01T10:00:00Z");
    // The same directory by its absolute path is the same wave; with --started-at, no note.
    let out = env
        .run([
            std::ffi::OsStr::new("ingest"),
            "--from".as_ref(),
            "harbor".as_ref(),
            "--started-at".as_ref(),
            "2025-11-01T10:00:00Z".as_ref(),
            job.as_os_str(),
        ])
        .ok();
    assert!(
        out.stdout
            .starts_with("wave terminal-bench-2025-11-01 is already"),
        "{out:#?}"
    );
    // From a trial's directory, `..` is the job.
    let out = common::run_raw(
        &job.join("fix-git__g7H8i9"),
        &[
            std::ffi::OsStr::new("--db"),
            env.db.as_os_str(),
            "ingest".as_ref(),
            "--from".as_ref(),
            "harbor".as_ref(),
            "..".as_ref(),
        ],
        &[],
    );
    assert!(out.stdout.contains("is already in the ledger"), "{out:#?}");

    // Trials that state their start in UTC pin the job's offset: the job's 12:00 local is
    // 10:00 UTC when its first trial started at 10:00:01Z.
    let env = Env::init();
    let job = fixture(&env, "harbor").with_file_name("job");
    spoil(
        &job.join("result.json"),
        "\"started_at\": \"2025-11-01T10:00:00.000000\"",
        "\"started_at\": \"2025-11-01T12:00:00.000000\"",
    );
    for (trial, field, from, to) in [
        (
            "hello-world__a1B2c3",
            "started_at",
            "10:00:00.000000",
            "10:00:01Z",
        ),
        (
            "hello-world__a1B2c3",
            "finished_at",
            "10:01:00.000000",
            "10:01:00Z",
        ),
        (
            "hello-world__d4E5f6",
            "started_at",
            "10:02:00.000000",
            "10:02:00+00:00",
        ),
    ] {
        spoil(
            &job.join(trial).join("result.json"),
            &format!("\"{field}\": \"2025-11-01T{from}\""),
            &format!("\"{field}\": \"2025-11-01T{to}\""),
        );
    }
    let out = env
        .run([
            std::ffi::OsStr::new("ingest"),
            "--from".as_ref(),
            "harbor".as_ref(),
            job.as_os_str(),
        ])
        .ok();
    assert!(
        out.stdout.contains(
            "names no offset (Harbor writes local time); read as 2025-11-01T12:00:00+02:00, \
             the offset its earliest trial's start (2025-11-01T10:00:01Z) pins"
        ),
        "{out:#?}"
    );
    let waves = env.run(["waves", "--format", "json"]).ok().json();
    assert_eq!(waves["waves"][0]["started_at"], "2025-11-01T10:00:00Z");
}

#[test]
fn a_bad_harbor_trial_is_named_and_nothing_is_written() {
    for (file, from, to, says) in [
        (
            "job/hello-world__a1B2c3/result.json",
            "{\"reward\": 1.0}",
            "{\"reward\": 2.0}",
            "hello-world__a1B2c3/result.json: the trial: field `verifier_result.rewards`: \
             expected a reward from 0 to 1, got 2.0",
        ),
        (
            "job/hello-world__a1B2c3/result.json",
            "\"n_cache_tokens\": 200",
            "\"n_cache_tokens\": -1",
            "field `n_cache_tokens`: expected a whole number, 0 or more, got -1",
        ),
        (
            "job/hello-world__d4E5f6/result.json",
            "\"finished_at\": \"2025-11-01T10:04:00.000000\"",
            "\"finished_at\": \"yesterday\"",
            "field `finished_at`: expected an ISO 8601 date-time, got \"yesterday\"",
        ),
        (
            "job/fix-git__g7H8i9/result.json",
            "\"model_info\": {\"name\": \"claude-sonnet-4-5\"",
            "\"model_info\": {\"name\": \"gpt-5\"",
            "the job ran 2 agents or models",
        ),
        (
            "job/config.json",
            "\"timeout_multiplier\": 1.0",
            "\"timeout_multiplier\": 0",
            "job/config.json: the job's config: field `timeout_multiplier`: expected a factor \
             above 0, got 0",
        ),
    ] {
        let env = Env::init();
        let manifest = fixture(&env, "harbor");
        spoil(&manifest.with_file_name(file), from, to);
        refused(&env, &manifest, says);
    }
}

/// Harbor's golden ATIF trajectories (../shared/data/harbor/atif), each put in a trial of a
/// job built here: the steps counted are the tool calls of the agent's own steps, counted here
/// independently from the file.
#[test]
fn a_harbor_job_of_several_agents_is_a_seat_of_each() {
    // Worked by hand in tests/fixtures/import/harbor-agents/wave.toml.
    let want = |show: &Value, id: &str, correct: u64, attempts: u64, input: u64, wall: f64| {
        let s = seat(show, id);
        assert_eq!(
            (
                s["correct"].as_u64(),
                s["attempts"].as_u64(),
                s["input_tokens"].as_u64()
            ),
            (Some(correct), Some(attempts), Some(input)),
            "{id}"
        );
        assert!(close(&s["wall_s"], wall), "{id}: {s:#}");
    };
    let env = Env::init();
    let manifest = fixture(&env, "harbor-agents");
    env.ingest(&[&manifest]);
    let show = env
        .run(["show", "harbor-agents", "--format", "json"])
        .ok()
        .json();
    want(&show, "terminus-sonnet", 1, 2, 3000, 180.0);
    want(&show, "terminus-gpt", 2, 2, 2400, 150.0);
    want(&show, "openhands-sonnet", 0, 1, 3000, 120.0);
    // --from: a seat per agent and model, each named after both.
    let env = Env::init();
    let job = fixture(&env, "harbor-agents").with_file_name("job");
    env.run([
        std::ffi::OsStr::new("ingest"),
        "--from".as_ref(),
        "harbor".as_ref(),
        "--started-at".as_ref(),
        "2025-11-02T09:00:00Z".as_ref(),
        job.as_os_str(),
    ])
    .ok();
    let show = env
        .run(["show", "terminal-bench-2025-11-02", "--format", "json"])
        .ok()
        .json();
    want(&show, "terminus-2-claude-sonnet-4-5", 1, 2, 3000, 180.0);
    want(&show, "terminus-2-gpt-5", 2, 2, 2400, 150.0);
    want(&show, "openhands-claude-sonnet-4-5", 0, 1, 3000, 120.0);
    assert_eq!(seat(&show, "terminus-2-gpt-5")["provider"], "openai");
    assert_eq!(show["load"]["parallel_sessions"], 3);
    // config.json's timeout_multiplier 2 is the load's, hashed in wave content format 3.
    assert_eq!(show["load"]["timeout_multiplier"], 2.0);
    assert_eq!(show["notes"], serde_json::Value::Null);
    let waves = env.run(["waves", "--format", "json"]).ok().json();
    assert_eq!(waves["waves"][0]["content_format"], 3);
    let text = env.run(["show", "terminal-bench-2025-11-02"]).ok().stdout;
    assert!(
        text.contains(
            "Load: 3 parallel sessions, tool-server sharing unknown, serial rerun \
                       unknown, timeouts × 2"
        ),
        "{text}"
    );
}

#[test]
fn a_harbor_agent_the_job_did_not_run_is_named_and_nothing_is_written() {
    for (from, to, says) in [
        (
            "agent = \"openhands\"",
            "agent = \"nobody\"",
            "job/result.json: no trial of agent \"nobody\"; the job ran openhands with \
             claude-sonnet-4-5; terminus-2 with claude-sonnet-4-5; terminus-2 with gpt-5",
        ),
        (
            "agent = \"terminus-2\"\nagent_model = \"gpt-5\"",
            "agent = \"terminus-2\"",
            "agent \"terminus-2\" ran several models",
        ),
        (
            "format = \"harbor\"\nagent = \"openhands\"",
            "format = \"jsonl\"\nagent = \"openhands\"",
            "results of format `jsonl` are of one agent each; drop `agent`",
        ),
    ] {
        let env = Env::init();
        let manifest = fixture(&env, "harbor-agents");
        spoil(&manifest, from, to);
        refused(&env, &manifest, says);
    }
    let env = Env::init();
    let manifest = fixture(&env, "harbor-agents");
    spoil(
        &manifest.with_file_name("job/config.json"),
        "\"timeout_multiplier\": 2.0",
        "\"timeout_multiplier\": 0",
    );
    refused(
        &env,
        &manifest,
        "config.json: the job's config: field `timeout_multiplier`: expected a factor above 0, \
         got 0",
    );
}

#[test]
fn shared_atif_trajectories_give_their_tool_calls_as_steps() {
    let Some(root) = std::env::var_os("BENCHLEDGER_SHARED_DATA") else {
        eprintln!("skipped: BENCHLEDGER_SHARED_DATA does not name the shared data directory");
        return;
    };
    let atif = std::path::PathBuf::from(root).join("harbor/atif");
    for name in [
        "terminus_2/hello-world-timeout.trajectory.json",
        "terminus_2/hello-world-invalid-json.trajectory.json",
        "terminus_2/hello-world-context-summarization.trajectory.json",
        "openhands/hello-world.trajectory.json",
        "openhands/hello-world.trajectory.no_function_calling.json",
    ] {
        let text = std::fs::read_to_string(atif.join(name)).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        let calls: usize = v["steps"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["source"] == "agent" && s["is_copied_context"] != true)
            .map(|s| s["tool_calls"].as_array().map_or(0, Vec::len))
            .sum();
        let env = Env::init();
        let manifest = fixture(&env, "harbor");
        let dir = manifest.with_file_name("job/hello-world__a1B2c3/agent");
        std::fs::write(dir.join("trajectory.json"), &text).unwrap();
        env.ingest(&[&manifest]);
        let wave = Ledger::open(&env.db)
            .unwrap()
            .load_wave("harbor-mini")
            .unwrap();
        let a = attempt(&wave, "terminus-2-claude-sonnet-4-5", "hello-world", 1);
        assert_eq!(a.steps, Some(calls as u32), "{name}");
    }
}

#[test]
fn lm_eval_samples_land_one_attempt_a_document_with_the_rest_of_the_suite_missing() {
    let env = Env::init();
    let manifest = fixture(&env, "lm-eval");
    env.ingest(&[&manifest]);
    let show = env.run(["show", "lm-mini", "--format", "json"]).ok().json();
    // Worked by hand in tests/fixtures/import/lm-eval/wave.toml: the results' own 0.5, 0.75.
    for (id, correct) in [("strict", 2), ("flexible", 3)] {
        let s = seat(&show, id);
        assert_eq!(s["attempts"], 3, "{id}");
        assert_eq!(s["missing"], 1, "{id}");
        assert_eq!(s["correct"], correct, "{id}");
        assert_eq!(s["input_tokens_known_attempts"], 0, "{id}");
        assert_eq!(s["cost_known_attempts"], 0, "{id}");
    }
    // Issue 31, #5: document 0's prompt (its first request's first argument), target and
    // filtered response are kept as its texts; document 1's request is empty, so it has none.
    let sample = env
        .run([
            "problems",
            "lm-mini",
            "--problem",
            "0",
            "--seat",
            "strict",
            "--format",
            "json",
        ])
        .ok()
        .json();
    let a = &sample["attempts"][0];
    assert_eq!(a["input"], "Question: 0+1\nAnswer:", "{sample}");
    assert_eq!(a["target"], "1", "{sample}");
    assert_eq!(a["answer"], "1", "{sample}");
    assert_eq!(a["explanation"], serde_json::Value::Null, "{sample}");
    let sample = env
        .run([
            "problems",
            "lm-mini",
            "--problem",
            "1",
            "--seat",
            "strict",
            "--format",
            "json",
        ])
        .ok()
        .json();
    assert_eq!(
        sample["attempts"][0]["input"],
        serde_json::Value::Null,
        "{sample}"
    );
    assert_eq!(sample["attempts"][0]["target"], "2", "{sample}");
    // The suite's fourth document was attempted by no seat: declared by count, it has no row
    // in the matrix, and the matrix says so.
    let matrix = env
        .run(["problems", "lm-mini", "--format", "json"])
        .ok()
        .json();
    assert_eq!(matrix["unlisted"], 1, "{matrix}");
    assert_eq!(matrix["problems"].as_array().unwrap().len(), 3, "{matrix}");
    let table = env.run(["problems", "lm-mini"]).ok().stdout;
    assert!(
        table.contains("1 more problem the wave declares by count was attempted by no seat"),
        "{table}"
    );
    // --from: the suite, its size, the model and the start come from the results file.
    let env = Env::init();
    let manifest = fixture(&env, "lm-eval");
    let run = manifest.with_file_name("run");
    let out = env
        .run([
            std::ffi::OsStr::new("ingest"),
            "--from".as_ref(),
            "lm-eval".as_ref(),
            "--provider".as_ref(),
            "hf".as_ref(),
            run.as_os_str(),
        ])
        .ok();
    assert_eq!(
        out.stdout.split(" (sha256").next().unwrap(),
        "added wave arith-2025-01-02: 1 seats, 3 attempts"
    );
    let show = env
        .run(["show", "arith-2025-01-02", "--format", "json"])
        .ok()
        .json();
    let s = seat(&show, "org-tiny-7b");
    assert_eq!(
        (s["correct"].as_u64(), s["denominator"].as_u64()),
        (Some(2), Some(4))
    );
    assert_eq!(s["model"], "org/tiny-7b");
}

#[test]
fn a_bad_lm_eval_sample_is_named_and_nothing_is_written() {
    let samples = "run/samples_arith_2025-01-02T03-04-05.000006.jsonl";
    for (file, from, to, says) in [
        (
            samples,
            "\"exact_match\": 0.0}",
            "\"exact_match\": 7.5}",
            "samples_arith_2025-01-02T03-04-05.000006.jsonl: line 2: field `exact_match`: \
             expected a score from 0 to 1, got 7.5",
        ),
        (
            samples,
            "{\"doc_id\": 1, \"doc\": {\"q\": \"1+1\"}, \"target\": \"2\", \"arguments\": {}, \
             \"resps\": [[\"2\"]], \"filtered_resps\": [\"2\"], \"filter\": \"strict-match\"",
            "{\"doc_id\": null, \"doc\": {\"q\": \"1+1\"}, \"target\": \"2\", \"arguments\": \
             {}, \"resps\": [[\"2\"]], \"filtered_resps\": [\"2\"], \"filter\": \"strict-match\"",
            "line 2: field `doc_id`: missing",
        ),
        (
            "run/results_2025-01-02T03-04-05.000006.json",
            "\"configs\": {\"arith\"",
            "\"configs\": {\"other\"",
            "field `configs.arith`: missing: the results do not configure the samples' task",
        ),
    ] {
        let env = Env::init();
        let manifest = fixture(&env, "lm-eval");
        spoil(&manifest.with_file_name(file), from, to);
        refused(&env, &manifest, says);
    }
}

/// `ingest --from lm-eval` over a directory, with extra arguments, returning its output.
fn from_lm_eval(env: &Env, dir: &std::path::Path, extra: &[&str]) -> common::Out {
    let mut args: Vec<&std::ffi::OsStr> = vec!["ingest".as_ref(), "--from".as_ref()];
    args.push("lm-eval".as_ref());
    args.extend(extra.iter().map(|a| std::ffi::OsStr::new(*a)));
    args.push(dir.as_os_str());
    env.run(args).ok()
}

#[test]
fn an_lm_eval_group_lands_as_one_wave_of_its_subtasks() {
    // Worked by hand in tests/fixtures/import/lm-eval-group/wave.toml.
    let env = Env::init();
    let manifest = fixture(&env, "lm-eval-group");
    env.ingest(&[&manifest]);
    let show = env
        .run(["show", "algebra-group", "--format", "json"])
        .ok()
        .json();
    let s = seat(&show, "tiny");
    assert_eq!(
        (
            s["attempts"].as_u64(),
            s["correct"].as_u64(),
            s["missing"].as_u64(),
            s["denominator"].as_u64()
        ),
        (Some(5), Some(3), Some(2), Some(7))
    );
    assert!(close(&s["accuracy"], 3.0 / 7.0), "{s:#}");
    assert_eq!(s["input_tokens"], Value::Null);
    assert_eq!(s["input_tokens_cache_read"], Value::Null);
    let csv = env
        .run(["export", "--what", "attempts", "--format", "csv"])
        .ok()
        .stdout;
    let problems: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(2).unwrap())
        .collect();
    assert_eq!(
        problems,
        [
            "algebra_linear/0",
            "algebra_linear/1",
            "algebra_linear/2",
            "algebra_quad/0",
            "algebra_quad/1"
        ]
    );

    // --from --group: the group is one wave, the task of no group another.
    let env = Env::init();
    let run = fixture(&env, "lm-eval-group").with_file_name("run");
    let out = from_lm_eval(&env, &run, &["--group", "--provider", "hf"]);
    let added: Vec<&str> = out
        .stdout
        .lines()
        .map(|l| l.split(" (sha256").next().unwrap())
        .collect();
    assert_eq!(
        added,
        [
            "added wave algebra-2025-02-03: 1 seats, 5 attempts",
            "added wave spelling-2025-02-03: 1 seats, 2 attempts"
        ],
        "{out:#?}"
    );
    for (wave, correct, denominator) in
        [("algebra-2025-02-03", 3, 7), ("spelling-2025-02-03", 1, 2)]
    {
        let show = env.run(["show", wave, "--format", "json"]).ok().json();
        let s = seat(&show, "org-tiny-7b");
        assert_eq!(
            (s["correct"].as_u64(), s["denominator"].as_u64()),
            (Some(correct), Some(denominator)),
            "{wave}"
        );
    }
    // Without --group, each task is a wave.
    let env = Env::init();
    let run = fixture(&env, "lm-eval-group").with_file_name("run");
    let out = from_lm_eval(&env, &run, &["--provider", "hf"]);
    assert_eq!(out.stdout.lines().count(), 3, "{out:#?}");
    assert!(
        out.stdout
            .contains("added wave algebra_quad-2025-02-03: 1 seats, 2 attempts")
    );
}

#[test]
fn a_bad_lm_eval_group_is_named_and_nothing_is_written() {
    let results = "run/results_2025-02-03T04-05-06.000007.json";
    let quad = "run/samples_algebra_quad_2025-02-03T04-05-06.000007.jsonl";
    for (file, from, to, says) in [
        (
            "wave.toml",
            "group = \"algebra\"",
            "group = \"geometry\"",
            "results_2025-02-03T04-05-06.000007.json: the results: field `group_subtasks.geometry`: \
             missing: the results have no group \"geometry\"; their groups are: algebra, \
             algebra_more",
        ),
        (
            "wave.toml",
            "group = \"algebra\"\n",
            "",
            "field `group`: missing: a results file is read as a group's",
        ),
        (
            "wave.toml",
            "run/results_2025-02-03T04-05-06.000007.json",
            "run/samples_spelling_2025-02-03T04-05-06.000007.jsonl",
            "a group is read from the run's results_<date>.json",
        ),
        (
            quad,
            "\"filter\": \"strict-match\", \"metrics\": [\"acc\"], \"doc_hash\": \"h\", \
             \"prompt_hash\": \"p\", \"target_hash\": \"t\", \"acc\": 0.0}",
            "\"filter\": \"strict-match\", \"metrics\": [\"acc\"], \"doc_hash\": \"h\", \
             \"prompt_hash\": \"p\", \"target_hash\": \"t\", \"acc\": 3.0}",
            "samples_algebra_quad_2025-02-03T04-05-06.000007.jsonl: line 3: field `acc`: \
             expected a score from 0 to 1, got 3",
        ),
        (
            results,
            "\"algebra_linear\", \"algebra_more\"",
            "\"algebra_linear\", 7",
            "field `group_subtasks.algebra`: expected task names, got 7",
        ),
    ] {
        let env = Env::init();
        let manifest = fixture(&env, "lm-eval-group");
        spoil(&manifest.with_file_name(file), from, to);
        refused(&env, &manifest, says);
    }
    // A group on a format without groups.
    let env = Env::init();
    let manifest = fixture(&env, "lm-eval");
    spoil(
        &manifest,
        "format = \"lm-eval\"\nscorer = \"exact_match,flexible-extract\"",
        "format = \"jsonl\"\ngroup = \"arith\"",
    );
    refused(&env, &manifest, "have no groups of tasks; drop `group`");
    // --group with a format that has none.
    let env = Env::init();
    let before = env.ledger_bytes();
    let out = env
        .run(["ingest", "--from", "tau-bench", "--group", "x.json"])
        .status(2);
    assert!(
        out.stderr
            .contains("--group: results of format `tau-bench` have no groups")
    );
    assert_eq!(env.ledger_bytes(), before);
}

/// lm-evaluation-harness's own output (../shared/data/lm-eval, eee/tests/data/lm_eval): each
/// task's samples land, one attempt a document of the chosen filter, the suite its
/// `n-samples.effective`; where the samples hold every document the results count, Correct ÷
/// the suite is the results' own figure.
#[test]
fn shared_lm_eval_runs_land_with_their_own_suite_sizes() {
    let Some(root) = std::env::var_os("BENCHLEDGER_SHARED_DATA") else {
        eprintln!("skipped: BENCHLEDGER_SHARED_DATA does not name the shared data directory");
        return;
    };
    let root = std::path::PathBuf::from(root);
    for (dir, wave, seat_id, correct, denominator) in [
        (
            "lm-eval/pyfade",
            "gsm8k-2025-09-09",
            "gemma3-12b-u1",
            1,
            100,
        ),
        (
            "lm-eval/pyfade/eval_mmlu_pro_plus",
            "mmlu_pro_plus_health-2025-10-14",
            "workspace-gemma-3-12b-it-base",
            2,
            100,
        ),
        (
            "eee/tests/data/lm_eval",
            "math_perturbed_full-2026-01-21",
            "RylanSchaeffer-mem_Qwen3-93M_minerva_math_rep_0_sbst_1.0000_epch_1_ot_1",
            0,
            5000,
        ),
    ] {
        let env = Env::init();
        env.run([
            std::ffi::OsStr::new("ingest"),
            "--from".as_ref(),
            "lm-eval".as_ref(),
            "--provider".as_ref(),
            "local".as_ref(),
            root.join(dir).as_os_str(),
        ])
        .ok();
        let show = env.run(["show", wave, "--format", "json"]).ok().json();
        let s = show["seats"].as_array().unwrap();
        let s = s.iter().find(|s| s["seat"] == seat_id).unwrap_or(&s[0]);
        assert_eq!(
            (s["correct"].as_u64(), s["denominator"].as_u64()),
            (Some(correct), Some(denominator)),
            "{dir}: {s:#}"
        );
    }
    // --group: mmlu_pro_plus whole, its 14 subjects' n-samples.effective summed (14 × 100), the
    // three subjects whose samples the directory keeps (3 documents each, 6 Correct under
    // custom-extract) attempted and the rest missing.
    let env = Env::init();
    let out = from_lm_eval(
        &env,
        &root.join("lm-eval/pyfade/eval_mmlu_pro_plus"),
        &["--group", "--provider", "local"],
    );
    assert!(
        out.stdout
            .starts_with("added wave mmlu_pro_plus-2025-10-14: 1 seats, 9 attempts"),
        "{out:#?}"
    );
    let show = env
        .run(["show", "mmlu_pro_plus-2025-10-14", "--format", "json"])
        .ok()
        .json();
    let s = &show["seats"][0];
    assert_eq!(
        (
            s["correct"].as_u64(),
            s["missing"].as_u64(),
            s["denominator"].as_u64()
        ),
        (Some(6), Some(1391), Some(1400)),
        "{s:#}"
    );
}

#[test]
fn a_helm_run_lands_its_unperturbed_test_instances() {
    let env = Env::init();
    let manifest = fixture(&env, "helm");
    env.ingest(&[&manifest]);
    let show = env
        .run(["show", "helm-mini", "--format", "json"])
        .ok()
        .json();
    // Worked by hand in tests/fixtures/import/helm/wave.toml.
    let s = seat(&show, "tiny");
    assert_eq!(s["attempts"], 3);
    assert_eq!(s["problems"], 2);
    assert_eq!(s["correct"], 2);
    assert_eq!(s["input_tokens"], 300);
    assert_eq!(s["output_tokens"], 6);
    assert!(close(&s["wall_s"], 1.75), "{s:#}");
    let wave = Ledger::open(&env.db)
        .unwrap()
        .load_wave("helm-mini")
        .unwrap();
    assert_eq!(attempt(&wave, "tiny", "id1", 2).outcome, Some(0.0));
    // Issue 31, #5: the texts of scenario_state.json's unperturbed test states (by hand: a
    // multiple-choice letter with its option; every correct reference one per line); the
    // perturbed copy, the state for one reference alone and the valid split's give none.
    let texts = |problem: &str, trial: u32| {
        attempt(&wave, "tiny", problem, trial)
            .texts
            .clone()
            .unwrap()
    };
    let first = texts("id1", 1);
    assert_eq!(first.input.as_deref(), Some("What is 2 + 2?"));
    assert_eq!(first.target.as_deref(), Some("4"));
    assert_eq!(first.answer.as_deref(), Some("B (4)"));
    assert_eq!(texts("id1", 2).answer.as_deref(), Some("A (3)"));
    let prime = texts("id2", 1);
    assert_eq!(prime.input.as_deref(), Some("Name a prime."));
    assert_eq!(prime.target.as_deref(), Some("2\n3"));
    assert_eq!(prime.answer.as_deref(), Some(" 3"));
    // A metric that is not a score, or none there, is named.
    for (from, to, says) in [
        (
            "\"sum\": 110,",
            "\"sum\": -110,",
            "field `stats.num_prompt_tokens`: expected a whole number of tokens, got -110",
        ),
        (
            "\"instance_id\": \"id2\",\n  \"train_trial_index\": 0,\n  \"stats\": [\n   {\n    \"name\": {\n     \"name\": \"exact_match\",\n     \"split\": \"test\"\n    },\n    \"count\": 1,\n    \"sum\": 1,",
            "\"instance_id\": \"id2\",\n  \"train_trial_index\": 0,\n  \"stats\": [\n   {\n    \"name\": {\n     \"name\": \"exact_match\",\n     \"split\": \"test\"\n    },\n    \"count\": 1,\n    \"sum\": 3,",
            "field `stats.exact_match`: expected a score from 0 to 1, got 3",
        ),
    ] {
        let env = Env::init();
        let manifest = fixture(&env, "helm");
        spoil(
            &manifest.with_file_name("run/per_instance_stats.json"),
            from,
            to,
        );
        refused(&env, &manifest, says);
    }
}

/// `ingest --from helm` on a run directory, from the test's directory.
fn from_helm(env: &Env, run: &std::path::Path, extra: &[&str]) -> common::Out {
    let mut args: Vec<&std::ffi::OsStr> = vec![
        "ingest".as_ref(),
        "--from".as_ref(),
        "helm".as_ref(),
        "--started-at".as_ref(),
        "2025-01-01T00:00:00Z".as_ref(),
    ];
    args.extend(extra.iter().map(std::ffi::OsStr::new));
    args.push(run.as_os_str());
    env.run(args)
}

/// Issue 32.1: a HELM run evaluated on the `valid` split (HellaSwag's runs: `exact_match` on
/// every instance, all in split `valid`) was refused as having no metric, with advice that
/// named a manifest field to a `--from` call.
#[test]
fn a_helm_run_on_the_valid_split_lands_and_a_missing_metric_is_advised_by_flag() {
    let env = Env::init();
    let run = fixture(&env, "helm").with_file_name("run");
    let stats = run.join("per_instance_stats.json");
    let text = std::fs::read_to_string(&stats).unwrap();
    std::fs::write(
        &stats,
        text.replace("\"split\": \"test\"", "\"split\": \"valid\""),
    )
    .unwrap();
    let out = from_helm(&env, &run, &[]).ok();
    assert!(
        out.stdout.contains(
            "per_instance_stats.json: no instance of the test split has exact_match: the run \
             was evaluated on the valid split, whose instances are read"
        ),
        "{out:#?}"
    );
    let show = env
        .run(["show", "arith-digits-2-2025-01-01", "--format", "json"])
        .ok()
        .json();
    // Every unperturbed instance, id3 among them; the robustness copy still left out.
    let s = &show["seats"][0];
    assert_eq!(
        (s["attempts"].as_u64(), s["correct"].as_u64()),
        (Some(4), Some(3)),
        "{s:#}"
    );
    assert_eq!(s["input_tokens"], 380);

    // A metric no instance has: the error names the metrics there are, and with --from the
    // flag that chooses one, not a manifest field.
    let env = Env::init();
    let run = fixture(&env, "helm").with_file_name("run");
    let out = from_helm(&env, &run, &["--scorer", "f1_score"]).status(2);
    assert!(
        out.stderr.contains(
            "no unperturbed instance has metric \"f1_score\", on any split; the instances' \
             metrics are: exact_match, inference_runtime, num_completion_tokens, \
             num_prompt_tokens; choose the one that decides Correct with --scorer METRIC"
        ),
        "{out:#?}"
    );
    // --scorer chooses it for every file: num_completion_tokens is no score, and says so.
    let out = from_helm(&env, &run, &["--scorer", "num_completion_tokens"]).status(2);
    assert!(
        out.stderr
            .contains("expected a score from 0 to 1, got 2: a metric that is not a score"),
        "{out:#?}"
    );
    let out = env
        .run([
            std::ffi::OsStr::new("ingest"),
            "--from".as_ref(),
            "tau-bench".as_ref(),
            "--scorer".as_ref(),
            "x".as_ref(),
            run.as_os_str(),
        ])
        .status(2);
    assert!(
        out.stderr
            .contains("--scorer x: results of format `tau-bench` have no scorers"),
        "{out:#?}"
    );
}

/// Issue 34.7: an instance of the evaluated split whose main metric is missing, or counted 0
/// times, was dropped without a word (3 attempts became 2 and accuracy moved).
#[test]
fn a_helm_instance_without_its_metric_is_refused_not_dropped() {
    // id2's unperturbed entry (its robustness copy sums 0).
    let id2 = |name: &str, count: u32| {
        format!(
            "\"instance_id\": \"id2\",\n  \"train_trial_index\": 0,\n  \"stats\": [\n   {{\n    \
             \"name\": {{\n     \"name\": \"{name}\",\n     \"split\": \"test\"\n    }},\n    \
             \"count\": {count},\n    \"sum\": 1,"
        )
    };
    // Counted 0 times; absent.
    for (from, to) in [
        (id2("exact_match", 1), id2("exact_match", 0)),
        (id2("exact_match", 1), id2("other", 1)),
    ] {
        let (from, to) = (from.as_str(), to.as_str());
        let env = Env::init();
        let manifest = fixture(&env, "helm");
        spoil(
            &manifest.with_file_name("run/per_instance_stats.json"),
            from,
            to,
        );
        refused(
            &env,
            &manifest,
            "per_instance_stats.json: entry 3: field `stats.exact_match`: instance id2 of the \
             test split has no exact_match (absent, or counted 0 times): leaving it out would \
             change the seat's accuracy",
        );
    }
}

/// HELM's own run directories (eee/tests/data/helm): the totals equal the run's stats.json
/// (test split, unperturbed), which HELM writes as means over the instances.
#[test]
fn shared_helm_runs_land_with_their_own_totals() {
    let Some(root) = std::env::var_os("BENCHLEDGER_SHARED_DATA") else {
        eprintln!("skipped: BENCHLEDGER_SHARED_DATA does not name the shared data directory");
        return;
    };
    let dir = std::path::PathBuf::from(root).join("eee/tests/data/helm");
    let env = Env::init();
    env.run([
        std::ffi::OsStr::new("ingest"),
        "--from".as_ref(),
        "helm".as_ref(),
        "--started-at".as_ref(),
        "2025-01-01T00:00:00Z".as_ref(),
        dir.as_os_str(),
    ])
    .ok();
    for (run, wave) in [
        (
            "mmlu-subject=philosophy,method=multiple_choice_joint,model=openai_gpt2",
            "mmlu-subject-philosophy-method-multiple_choice_joint-2025-01-01",
        ),
        ("narrative_qa-model=openai_gpt2", "narrative_qa-2025-01-01"),
    ] {
        let stats: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(run).join("stats.json")).unwrap(),
        )
        .unwrap();
        let mean = |name: &str| {
            stats
                .as_array()
                .unwrap()
                .iter()
                .find(|s| {
                    s["name"]["name"] == name
                        && s["name"]["split"] == "test"
                        && s["name"]["perturbation"].is_null()
                })
                .and_then(|s| s["mean"].as_f64())
                .unwrap()
        };
        let show = env.run(["show", wave, "--format", "json"]).ok().json();
        let s = &show["seats"][0];
        let n = s["attempts"].as_f64().unwrap();
        assert_eq!(n, mean("num_instances"), "{run}");
        let per = |field: &str| s[field].as_f64().unwrap() / n;
        assert!((per("correct") - mean("exact_match")).abs() < 1e-9, "{run}");
        assert!(
            (per("input_tokens") - mean("num_prompt_tokens")).abs() < 1e-9,
            "{run}"
        );
        assert!(
            (per("output_tokens") - mean("num_completion_tokens")).abs() < 1e-9,
            "{run}"
        );
        assert!(
            (per("wall_s") - mean("inference_runtime")).abs() < 1e-9,
            "{run}"
        );
    }
}

#[test]
fn every_eval_ever_records_land_one_attempt_a_record() {
    let env = Env::init();
    let manifest = fixture(&env, "eee");
    env.ingest(&[&manifest]);
    let show = env
        .run(["show", "eee-mini", "--format", "json"])
        .ok()
        .json();
    // Worked by hand in tests/fixtures/import/eee/wave.toml.
    let s = seat(&show, "tiny");
    assert_eq!(
        (s["attempts"].as_u64(), s["problems"].as_u64()),
        (Some(3), Some(2))
    );
    assert_eq!(s["correct"], 1);
    assert_eq!(s["input_tokens"], 30);
    assert_eq!(s["output_tokens"], 6);
    assert_eq!(s["input_tokens_known_attempts"], 2);
    assert_eq!(s["steps"], 2);
    assert!(close(&s["wall_s"], 2.0), "{s:#}");
    assert_eq!(s["wall_known_attempts"], 2);
    let wave = Ledger::open(&env.db)
        .unwrap()
        .load_wave("eee-mini")
        .unwrap();
    let s2 = attempt(&wave, "tiny", "s2", 1);
    assert_eq!(s2.outcome, Some(0.25));
    assert_eq!(s2.input_tokens_cache_read, None, "null is unknown, not 0");
    let again = attempt(&wave, "tiny", "s1", 2);
    assert_eq!(again.end_reason.as_deref(), Some("timeout"));
    assert_eq!(again.input_tokens, None);

    // --from: the records count cached reads without saying how: the accounting is asked for.
    let run = manifest.with_file_name("run");
    let out = env
        .run([
            std::ffi::OsStr::new("ingest"),
            "--from".as_ref(),
            "eee".as_ref(),
            run.as_os_str(),
        ])
        .status(2);
    assert!(
        out.stderr
            .contains("field `wave.accounting.input_tokens_include_cache_reads`: missing"),
        "{out:#?}"
    );
    let base = env.path().join("base.toml");
    std::fs::write(
        &base,
        "[wave.accounting]\ninput_tokens_include_cache_reads = true\n",
    )
    .unwrap();
    let out = env
        .run([
            std::ffi::OsStr::new("ingest"),
            "--from".as_ref(),
            "eee".as_ref(),
            "--manifest".as_ref(),
            base.as_os_str(),
            run.as_os_str(),
        ])
        .ok();
    // The start is the aggregate record's evaluation_timestamp; the harness its eval_library.
    assert_eq!(
        out.stdout.split(" (sha256").next().unwrap(),
        "added wave arith-2025-06-15: 1 seats, 3 attempts"
    );
    // A record without its verdict is named.
    let env = Env::init();
    let manifest = fixture(&env, "eee");
    spoil(
        &manifest.with_file_name("run/0f0f0f0f-0000-4000-8000-000000000001_samples.jsonl"),
        "\"evaluation\": {\"score\": 0.25, \"is_correct\": false}",
        "\"evaluation\": {\"score\": 0.25}",
    );
    refused(
        &env,
        &manifest,
        "_samples.jsonl: line 2: field `evaluation.is_correct`: missing: expected true or false",
    );
}

/// Every Eval Ever's own instance-level records (eee/None: written by its HELM converter; the
/// 0.3.0 demo): the totals equal the records' own sums, counted here from the file.
#[test]
fn shared_every_eval_ever_records_land_with_their_own_totals() {
    let Some(root) = std::env::var_os("BENCHLEDGER_SHARED_DATA") else {
        eprintln!("skipped: BENCHLEDGER_SHARED_DATA does not name the shared data directory");
        return;
    };
    let root = std::path::PathBuf::from(root).join("eee");
    for (file, wave) in [
        (
            "None/mmlu/openai/gpt2/None_samples.jsonl",
            "mmlu-2025-01-01",
        ),
        (
            "None/narrativeqa/openai/gpt2/None_samples.jsonl",
            "narrativeqa-2025-01-01",
        ),
    ] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        let records: Vec<Value> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let correct = records
            .iter()
            .filter(|r| r["evaluation"]["is_correct"] == true)
            .count();
        let input: u64 = records
            .iter()
            .map(|r| r["token_usage"]["input_tokens"].as_u64().unwrap())
            .sum();
        let wall: f64 = records
            .iter()
            .map(|r| r["performance"]["generation_time_ms"].as_f64().unwrap() / 1000.0)
            .sum();
        let env = Env::init();
        env.run([
            std::ffi::OsStr::new("ingest"),
            "--from".as_ref(),
            "eee".as_ref(),
            "--started-at".as_ref(),
            "2025-01-01T00:00:00Z".as_ref(),
            "--harness".as_ref(),
            "helm".as_ref(),
            root.join(file).as_os_str(),
        ])
        .ok();
        let show = env.run(["show", wave, "--format", "json"]).ok().json();
        let s = &show["seats"][0];
        assert_eq!(s["attempts"].as_u64(), Some(records.len() as u64), "{file}");
        assert_eq!(s["correct"].as_u64(), Some(correct as u64), "{file}");
        assert_eq!(s["input_tokens"].as_u64(), Some(input), "{file}");
        assert!(close(&s["wall_s"], wall), "{file}: {s:#}");
    }
}

/// Issue 34.6: a key written twice in one object resolved silently to the last in Harbor
/// (`reward`, `task_name`), lm-eval (`exact_match`) and Every Eval Ever (`score`,
/// `sample_id`); the native JSON-lines importer refused it. Every JSON importer now does,
/// naming the file, the line and the key.
#[test]
fn a_json_key_given_twice_is_refused_in_every_json_importer() {
    for (name, file, from, to, says) in [
        (
            "harbor",
            "job/hello-world__a1B2c3/result.json",
            "{\"reward\": 1.0}",
            "{\"reward\": 1.0, \"reward\": 0.0}",
            "hello-world__a1B2c3/result.json:4: field `reward`: the key appears twice in one \
             object; keep one",
        ),
        (
            "harbor",
            "job/hello-world__a1B2c3/result.json",
            "\"task_name\": \"hello-world\",",
            "\"task_name\": \"hello-world\", \"task_name\": \"fix-git\",",
            "hello-world__a1B2c3/result.json:1: field `task_name`: the key appears twice",
        ),
        (
            "lm-eval",
            "run/samples_arith_2025-01-02T03-04-05.000006.jsonl",
            "\"filter\": \"strict-match\", \"metrics\": [\"exact_match\"], \"doc_hash\": \"h\", \
             \"prompt_hash\": \"p\", \"target_hash\": \"t\", \"exact_match\": 0.0}",
            "\"filter\": \"strict-match\", \"metrics\": [\"exact_match\"], \"doc_hash\": \"h\", \
             \"prompt_hash\": \"p\", \"target_hash\": \"t\", \"exact_match\": 0.0, \"exact_match\": 1.0}",
            "samples_arith_2025-01-02T03-04-05.000006.jsonl:2: field `exact_match`: the key \
             appears twice in one object",
        ),
        (
            "eee",
            "run/0f0f0f0f-0000-4000-8000-000000000001_samples.jsonl",
            "\"score\": 0.25,",
            "\"score\": 0.25, \"score\": 1.0,",
            "_samples.jsonl:2: field `score`: the key appears twice in one object",
        ),
        (
            "eee",
            "run/0f0f0f0f-0000-4000-8000-000000000001_samples.jsonl",
            "\"sample_id\": \"s2\",",
            "\"sample_id\": \"s2\", \"sample_id\": \"s1\",",
            "_samples.jsonl:2: field `sample_id`: the key appears twice in one object",
        ),
    ] {
        let env = Env::init();
        let manifest = fixture(&env, name);
        spoil(&manifest.with_file_name(file), from, to);
        refused(&env, &manifest, says);
    }
}
