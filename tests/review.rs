//! `benchledger review` and `benchledger rules`: a submission (a Harbor job written here,
//! trial by trial, or the Inspect fixture) reviewed under rules of its own, each rule broken
//! alone with its finding and verdict worked out by hand; a key planted in a trajectory never
//! printed; nothing written to the ledger unless `--ingest` and an accepted review.

mod common;

use std::path::{Path, PathBuf};

use common::{Env, crate_path};
use serde_json::{Value, json};

/// One trial of a job written by [`Job::write`].
#[derive(Clone)]
struct Trial {
    task: &'static str,
    id: String,
    reward: f64,
    /// An exception Harbor recorded, and whether the agent ran before it.
    exception: Option<&'static str>,
    reached_agent: bool,
    /// The shell commands the agent ran (one step each), and what came back.
    commands: Vec<(String, String)>,
    trajectory: bool,
}

/// A Harbor job: config.json, result.json and one directory per trial.
struct Job {
    trials: Vec<Trial>,
    config: Value,
    /// The job's own published mean (result.json's `stats.evals`), if any.
    mean: Option<f64>,
}

impl Job {
    /// 2 tasks × 5 trials, 7 of them solved, every trial with its trajectory.
    fn clean() -> Job {
        let mut trials = Vec::new();
        for (task, solved) in [("hello-world", 5), ("fix-git", 2)] {
            for k in 0..5 {
                trials.push(Trial {
                    task,
                    id: format!("{task}__t{k}"),
                    reward: if k < solved { 1.0 } else { 0.0 },
                    exception: None,
                    reached_agent: true,
                    commands: vec![
                        ("ls -la\n".into(), "total 0".into()),
                        ("echo hi > hello.txt\n".into(), String::new()),
                    ],
                    trajectory: true,
                });
            }
        }
        Job {
            trials,
            config: json!({"job_name": "j", "n_attempts": 5, "timeout_multiplier": 1.0,
                "n_concurrent_trials": 4,
                "agents": [{"name": "terminus-2", "model_name": "anthropic/claude-sonnet-4-5",
                            "override_timeout_sec": null}],
                "environment": {"override_cpus": null}}),
            mean: Some(0.7),
        }
    }

    fn write(&self, dir: &Path) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("config.json"), self.config.to_string()).unwrap();
        let mut evals = json!({"n_trials": self.trials.len(), "n_errors": 0, "metrics": []});
        if let Some(m) = self.mean {
            evals["metrics"] = json!([{"mean": m}]);
        }
        let result = json!({"id": "job-1", "started_at": "2025-11-01T10:00:00+00:00",
            "finished_at": "2025-11-01T11:00:00+00:00", "n_total_trials": self.trials.len(),
            "stats": {"evals": {"terminus-2__claude-sonnet-4-5__terminal-bench": evals}}});
        std::fs::write(dir.join("result.json"), result.to_string()).unwrap();
        for (i, t) in self.trials.iter().enumerate() {
            let tdir = dir.join(&t.id);
            std::fs::create_dir_all(tdir.join("agent")).unwrap();
            let minute = format!("{:02}", i % 60);
            let mut r = json!({"id": format!("00000000-0000-4000-8000-{i:012}"),
                "task_name": t.task, "trial_name": t.id, "source": "terminal-bench",
                "config": {"timeout_multiplier": self.config["timeout_multiplier"]},
                "agent_info": {"name": "terminus-2", "version": "2.0.0",
                    "model_info": {"name": "claude-sonnet-4-5", "provider": "anthropic"}},
                "started_at": format!("2025-11-01T10:{minute}:00+00:00"),
                "finished_at": format!("2025-11-01T10:{minute}:30+00:00"),
                "agent_result": {"n_input_tokens": 1000, "n_cache_tokens": 200,
                    "n_output_tokens": 100, "cost_usd": 0.01},
                "verifier_result": {"rewards": {"reward": t.reward}},
                "exception_info": null, "agent_execution": null});
            if t.reached_agent {
                r["agent_execution"] = json!({"started_at": format!("2025-11-01T10:{minute}:05+00:00"),
                    "finished_at": format!("2025-11-01T10:{minute}:25+00:00")});
            }
            if let Some(e) = t.exception {
                r["exception_info"] = json!({"exception_type": e, "exception_message": "x"});
                r["verifier_result"] = Value::Null;
                r["agent_result"] = Value::Null;
            }
            std::fs::write(tdir.join("result.json"), r.to_string()).unwrap();
            if t.trajectory {
                let mut steps = vec![json!({"step_id": 1, "source": "user",
                    "message": format!("Solve {}", t.task)})];
                for (n, (cmd, out)) in t.commands.iter().enumerate() {
                    steps.push(json!({"step_id": n + 2, "source": "agent", "message": "next",
                        "tool_calls": [{"tool_call_id": format!("c{n}"), "function_name": "bash_command",
                                        "arguments": {"keystrokes": cmd}}],
                        "observation": {"results": [{"source_call_id": format!("c{n}"), "content": out}]}}));
                }
                let traj = json!({"schema_version": "ATIF-v1.6", "session_id": t.id,
                    "agent": {"name": "terminus-2", "version": "2.0.0"}, "steps": steps});
                std::fs::write(tdir.join("agent/trajectory.json"), traj.to_string()).unwrap();
            }
        }
    }
}

/// Rules checking everything a Harbor job can show, for a suite of the job's two tasks.
const RULES: &str = r#"[rules]
name = "test-board"
version = 1
description = "the tests' own rules"

[require]
trials_per_problem = 5
every_problem = true
suite_problems = 2
timeout_multiplier = 1.0
no_overrides = true
max_infra_error_share = 0.1
trajectories = true

[claims]
tolerance = 0.005

[[scan]]
id = "git-history"
description = "the agent read the repository's history"
pattern = '''git\s+(log\s+[^\n]*--all|reflog)'''
in = "commands"
verdict = "needs-review"

[secrets]
verdict = "reject"
"#;

/// An initialised ledger with the rules written beside a job directory.
fn setup(job: &Job) -> (Env, PathBuf) {
    let env = Env::init();
    let dir = env.path().join("sub/job");
    job.write(&dir);
    std::fs::write(env.path().join("rules.toml"), RULES).unwrap();
    (env, dir)
}

fn review(env: &Env, dir: &Path, extra: &[&str]) -> common::Out {
    let mut args: Vec<String> = vec![
        "review".into(),
        dir.display().to_string(),
        "--rules".into(),
        env.path().join("rules.toml").display().to_string(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    env.run(&args)
}

fn json_review(env: &Env, dir: &Path) -> (i32, Value) {
    let out = review(env, dir, &["--format", "json"]);
    (out.status, out.json())
}

/// The findings of one rule in a JSON review.
fn findings<'a>(j: &'a Value, rule: &str) -> Vec<&'a Value> {
    j["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == rule)
        .collect()
}

/// The rules that found something, with their verdicts.
fn found(j: &Value) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = j["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn a_clean_job_is_accepted_and_nothing_is_written() {
    let (env, dir) = setup(&Job::clean());
    let before = env.ledger_bytes();
    let (status, j) = json_review(&env, &dir);
    assert_eq!(found(&j), vec![], "{j:#}");
    assert_eq!(status, 0);
    assert_eq!(j["kind"], "review");
    assert_eq!(j["verdict"], "accept");
    assert_eq!(j["rules"]["name"], "test-board");
    assert_eq!(
        j["rules"]["sha256"],
        common::sha256_hex(RULES.as_bytes()).as_str()
    );
    // 7 of 10 trials Correct, recomputed as show --format json gives them.
    let seat = &j["recomputed"][0]["seats"][0];
    assert_eq!(seat["correct"], 7);
    assert_eq!(seat["attempts"], 10);
    // The job's own mean, 0.7, reproduces.
    assert_eq!(j["claims"][0]["outcome"], "reproduced");
    for c in j["checks"].as_array().unwrap() {
        assert_eq!(c["result"], "passed", "{c}");
    }
    assert_eq!(env.ledger_bytes(), before, "a review writes nothing");
    assert_eq!(env.wave_ids(), Vec::<String>::new());
}

#[test]
fn too_few_trials_of_a_problem_reject_naming_it() {
    let mut job = Job::clean();
    job.trials.retain(|t| t.id != "fix-git__t4");
    job.mean = None;
    let (env, dir) = setup(&job);
    let (status, j) = json_review(&env, &dir);
    assert_eq!(status, 1);
    assert_eq!(
        found(&j),
        vec![("require.trials_per_problem".into(), "reject".into())]
    );
    let e = &findings(&j, "require.trials_per_problem")[0]["evidence"];
    assert_eq!(e[0]["problem"], "fix-git");
    assert_eq!(e[0]["excerpt"], "4 of 5 trials");
}

#[test]
fn a_problem_of_the_suite_without_trials_rejects() {
    let (env, dir) = setup(&Job::clean());
    let (status, j) = json_review(&env, &dir);
    assert_eq!(status, 0);
    let out = review(&env, &dir, &["--suite-problems", "3", "--format", "json"]);
    let j2 = out.json();
    assert_eq!(out.status, 1);
    assert_eq!(
        found(&j2),
        vec![("require.every_problem".into(), "reject".into())]
    );
    // Missing counts as not Correct: 7 of 15.
    assert_eq!(j2["recomputed"][0]["seats"][0]["missing"], 1);
    assert_eq!(j["verdict"], "accept");
}

#[test]
fn a_scaled_timeout_or_an_override_rejects() {
    let mut job = Job::clean();
    job.config["timeout_multiplier"] = json!(2.0);
    let (env, dir) = setup(&job);
    let (_, j) = json_review(&env, &dir);
    assert_eq!(
        found(&j),
        vec![("require.timeout_multiplier".into(), "reject".into())]
    );

    let mut job = Job::clean();
    job.config["agents"][0]["override_timeout_sec"] = json!(3600);
    let (env, dir) = setup(&job);
    let (status, j) = json_review(&env, &dir);
    assert_eq!(status, 1);
    assert_eq!(
        found(&j),
        vec![("require.no_overrides".into(), "reject".into())]
    );
    let f = findings(&j, "require.no_overrides")[0];
    assert_eq!(
        f["message"],
        "the run overrides agents[0].override_timeout_sec = 3600"
    );
    assert_eq!(f["evidence"][0]["file"], "config.json");
}

#[test]
fn infrastructure_errors_past_the_share_need_review_and_need_no_trajectory() {
    let mut job = Job::clean();
    // Two trials never reached their agent: 2 of 10 > 10%.
    for t in job
        .trials
        .iter_mut()
        .filter(|t| t.task == "fix-git")
        .take(2)
    {
        t.exception = Some("EnvironmentStartTimeoutError");
        t.reached_agent = false;
        t.trajectory = false;
        t.reward = 0.0;
    }
    job.mean = None;
    let (env, dir) = setup(&job);
    let (status, j) = json_review(&env, &dir);
    assert_eq!(status, 1);
    assert_eq!(
        found(&j),
        vec![(
            "require.max_infra_error_share".into(),
            "needs-review".into()
        )]
    );
    let f = findings(&j, "require.max_infra_error_share")[0];
    assert!(
        f["message"].as_str().unwrap().contains("2 of 10 trials"),
        "{f}"
    );
    assert_eq!(f["evidence"][0]["excerpt"], "EnvironmentStartTimeoutError");
}

#[test]
fn a_trial_that_ran_without_its_trajectory_rejects() {
    let mut job = Job::clean();
    job.trials[3].trajectory = false;
    let (env, dir) = setup(&job);
    let (_, j) = json_review(&env, &dir);
    assert_eq!(
        found(&j),
        vec![("require.trajectories".into(), "reject".into())]
    );
    let e = &findings(&j, "require.trajectories")[0]["evidence"][0];
    assert_eq!(e["trial"], "hello-world__t3");
}

#[test]
fn a_trial_directory_without_its_result_rejects() {
    let (env, dir) = setup(&Job::clean());
    std::fs::create_dir_all(dir.join("fix-git__lost")).unwrap();
    let (_, j) = json_review(&env, &dir);
    assert_eq!(found(&j), vec![("completeness".into(), "reject".into())]);
    assert_eq!(
        findings(&j, "completeness")[0]["evidence"][0]["trial"],
        "fix-git__lost"
    );
}

#[test]
fn a_scan_hit_is_attributed_to_its_trial_and_step() {
    let mut job = Job::clean();
    job.trials[6]
        .commands
        .push(("git log --oneline --all\n".into(), "abc fix".into()));
    // The same words in an output are not a command.
    job.trials[7].commands[0].1 = "try git log --all to see".into();
    let (env, dir) = setup(&job);
    let (status, j) = json_review(&env, &dir);
    assert_eq!(status, 1);
    assert_eq!(
        found(&j),
        vec![("scan.git-history".into(), "needs-review".into())]
    );
    let f = findings(&j, "scan.git-history")[0];
    assert_eq!(f["evidence"].as_array().unwrap().len(), 1, "{f}");
    let e = &f["evidence"][0];
    assert_eq!(e["file"], "fix-git__t1/agent/trajectory.json");
    assert_eq!(e["problem"], "fix-git");
    assert_eq!(e["trial"], "fix-git__t1");
    assert_eq!(e["step"], "step 4");
    assert_eq!(e["excerpt"], "git log --oneline --all\\n");
}

#[test]
fn a_planted_key_rejects_and_is_never_printed() {
    let key = format!("sk-proj-{}", "Xq7".repeat(18));
    let mut job = Job::clean();
    job.trials[2].commands[1].1 = format!("OPENAI_API_KEY={key}\n");
    let (env, dir) = setup(&job);
    let (_, j) = json_review(&env, &dir);
    assert_eq!(found(&j), vec![("secrets".into(), "reject".into())]);
    let e = &findings(&j, "secrets")[0]["evidence"][0];
    assert_eq!(e["file"], "hello-world__t2/agent/trajectory.json");
    assert_eq!(e["line"], 1);
    assert_eq!(
        e["excerpt"],
        "openai key sk-p…Q7 (62 characters)".replace("Q7", "q7")
    );
    for format in ["text", "md", "json"] {
        let out = review(&env, &dir, &["--format", format]);
        assert_eq!(out.status, 1);
        for s in [&out.stdout, &out.stderr] {
            assert!(!s.contains(&key[4..key.len() - 2]), "{format}: {s}");
        }
    }
    // A scan whose pattern matches the key's line shows it masked too.
    let rules = RULES.replace(r"git\s+(log\s+[^\n]*--all|reflog)", "OPENAI_API_KEY");
    let rules = rules.replace(r#"in = "commands""#, r#"in = "any""#);
    std::fs::write(env.path().join("rules.toml"), rules).unwrap();
    let out = review(&env, &dir, &["--format", "json"]);
    assert!(
        !out.stdout.contains(&key[4..key.len() - 2]),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("OPENAI_API_KEY=sk-p…"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_claim_that_leaves_errored_trials_out_rejects_and_says_so() {
    let mut job = Job::clean();
    // Two fix-git trials errored in the infrastructure; the job publishes its mean over the
    // other 8 (7 of 8), as a harness that drops errored runs would.
    for t in job
        .trials
        .iter_mut()
        .filter(|t| t.task == "fix-git")
        .skip(3)
    {
        t.exception = Some("EnvironmentStartTimeoutError");
        t.reached_agent = false;
        t.trajectory = false;
    }
    job.mean = Some(0.875);
    let (env, dir) = setup(&job);
    let rules = RULES.replace("max_infra_error_share = 0.1", "max_infra_error_share = 0.5");
    std::fs::write(env.path().join("rules.toml"), rules).unwrap();
    let (status, j) = json_review(&env, &dir);
    assert_eq!(status, 1);
    assert_eq!(found(&j), vec![("claims".into(), "reject".into())]);
    let f = findings(&j, "claims")[0];
    let m = f["message"].as_str().unwrap();
    assert!(
        m.ends_with(
            "; it reproduces leaving out the 2 attempts that ended in an infrastructure error: \
             0.87500"
        ),
        "{m}"
    );
    assert_eq!(j["claims"][0]["outcome"], "differs");
    assert_eq!(j["claims"][0]["recomputed"], 0.7);
}

#[cfg(unix)]
#[test]
fn a_link_out_of_the_submission_rejects_and_is_not_followed() {
    let (env, dir) = setup(&Job::clean());
    let secret = env.path().join("outside.txt");
    std::fs::write(&secret, format!("ghp_{}", "a1B2".repeat(9))).unwrap();
    std::os::unix::fs::symlink(&secret, dir.join("notes.txt")).unwrap();
    let (_, j) = json_review(&env, &dir);
    // The key outside is never read: the link is the only finding.
    assert_eq!(found(&j), vec![("integrity".into(), "reject".into())]);
    let e = &findings(&j, "integrity")[0]["evidence"][0];
    assert_eq!(e["file"], "notes.txt");
}

#[test]
fn the_same_trial_twice_rejects() {
    let (env, dir) = setup(&Job::clean());
    common::copy_dir(&dir.join("fix-git__t0"), &dir.join("fix-git__t9"));
    let (_, j) = json_review(&env, &dir);
    let rules: Vec<(String, String)> = found(&j);
    assert!(
        rules.contains(&("integrity".into(), "reject".into())),
        "{rules:?}"
    );
}

#[test]
fn bad_rules_exit_2_naming_file_line_and_field() {
    let (env, dir) = setup(&Job::clean());
    let path = env.path().join("rules.toml");
    std::fs::write(&path, RULES.replace("reflog)", "reflog")).unwrap();
    let out = review(&env, &dir, &[]);
    assert_eq!(out.status, 2);
    assert!(
        out.stderr
            .contains(&format!("{}:21: field `pattern`", path.display())),
        "{}",
        out.stderr
    );
    std::fs::write(&path, RULES.replace("no_overrides", "no_override")).unwrap();
    let out = env.run(["rules", "check", path.to_str().unwrap()]);
    assert_eq!(out.status, 2);
    assert!(
        out.stderr.contains(":11: field `no_override`"),
        "{}",
        out.stderr
    );
    // An unreadable submission: exit 2, the file named.
    std::fs::write(dir.join("fix-git__t0/result.json"), "{").unwrap();
    std::fs::write(&path, RULES).unwrap();
    let out = review(&env, &dir, &[]);
    assert_eq!(out.status, 2, "{out:#?}");
    assert!(
        out.stderr.contains("fix-git__t0/result.json"),
        "{}",
        out.stderr
    );
}

#[test]
fn shipped_rules_are_named_by_name_and_version() {
    let out = Env::new().run([
        "rules",
        "check",
        crate_path("rules/terminal-bench-2.v1.toml")
            .to_str()
            .unwrap(),
    ]);
    assert_eq!(out.status, 0, "{out:#?}");
    assert!(out.stdout.starts_with("rules terminal-bench-2@1 (sha256 "));
    let (env, dir) = setup(&Job::clean());
    let out = env.run([
        "review",
        dir.to_str().unwrap(),
        "--rules",
        "terminal-bench-2@1",
        "--format",
        "json",
    ]);
    let j = out.json();
    assert_eq!(j["rules"]["name"], "terminal-bench-2");
    // Two of the suite's 89 tasks: rejected for the other 87.
    assert_eq!(j["verdict"], "reject");
    assert!(found(&j).contains(&("require.every_problem".into(), "reject".into())));
    let out = env.run(["review", dir.to_str().unwrap(), "--rules", "nope@1"]);
    assert_eq!(out.status, 2);
    assert!(
        out.stderr.contains("terminal-bench-2@1, swe-bench@1"),
        "{}",
        out.stderr
    );
}

#[test]
fn an_accepted_review_ingests_and_a_rejected_one_does_not() {
    let mut bad = Job::clean();
    bad.trials[0].trajectory = false;
    let (env, dir) = setup(&bad);
    let out = review(&env, &dir, &["--ingest", "--wave", "sub-1"]);
    assert_eq!(out.status, 1);
    assert!(
        out.stderr.contains("nothing was ingested"),
        "{}",
        out.stderr
    );
    assert_eq!(env.wave_ids(), Vec::<String>::new());

    let (env, dir) = setup(&Job::clean());
    let out = review(&env, &dir, &["--ingest", "--wave", "sub-1"]);
    assert_eq!(out.status, 0, "{out:#?}");
    assert!(
        out.stdout
            .contains("added wave sub-1: 1 seats, 10 attempts"),
        "{}",
        out.stdout
    );
    assert_eq!(env.wave_ids(), vec!["sub-1".to_string()]);
}

#[test]
fn against_a_wave_the_position_and_its_noise_are_said() {
    let (env, dir) = setup(&Job::clean());
    // The same job as a wave of the ledger: the submission ties it, which no test separates.
    env.run([
        "ingest",
        "--from",
        "harbor",
        "--wave",
        "board",
        dir.to_str().unwrap(),
    ])
    .ok();
    let out = review(&env, &dir, &["--against", "board", "--format", "json"]);
    let j = out.json();
    let p = &j["position"];
    assert_eq!(p["wave"], "board");
    assert_eq!(p["problems"], 2);
    assert_eq!(p["seats"][0]["rank"], 2);
    assert_eq!(p["seats"][0]["of"], 2);
    assert_eq!(p["seats"][0]["leader"]["separable"], false);
    let note = p["notes"][0].as_str().unwrap();
    assert!(
        note.contains("cannot separate it from the leader"),
        "{note}"
    );
}

#[test]
fn inspect_samples_are_scanned_message_by_message() {
    let env = Env::new();
    let rules = r#"[rules]
name = "inspect-test"
version = 1
[[scan]]
id = "answer"
pattern = '''\b42\b'''
in = "messages"
"#;
    std::fs::write(env.path().join("r.toml"), rules).unwrap();
    let log = crate_path("tests/fixtures/import/inspect/run.json");
    let out = env.run([
        "review",
        log.to_str().unwrap(),
        "--from",
        "inspect",
        "--rules",
        env.path().join("r.toml").to_str().unwrap(),
        "--format",
        "json",
    ]);
    let j = out.json();
    assert_eq!(j["verdict"], "needs-review", "{j:#}");
    let e = &findings(&j, "scan.answer")[0]["evidence"][0];
    assert_eq!(e["file"], "run.json");
    assert_eq!(e["problem"], "1");
    assert_eq!(e["trial"], "epoch 1");
    assert_eq!(e["step"], "message 2");
    // The seats recomputed as ingest --from reads them.
    let ingest = Env::init();
    ingest
        .run([
            "ingest",
            "--from",
            "inspect",
            "--wave",
            "w",
            log.to_str().unwrap(),
        ])
        .ok();
    let show = ingest.run(["show", "w", "--format", "json"]).ok().json();
    assert_eq!(j["recomputed"][0]["seats"], show["seats"]);
}

#[test]
fn the_markdown_is_a_pull_request_comment() {
    let mut job = Job::clean();
    job.trials[6]
        .commands
        .push(("git reflog | head\n".into(), String::new()));
    job.config["environment"]["override_memory_mb"] = json!(8192);
    let (env, dir) = setup(&job);
    let out = review(&env, &dir, &["--format", "md"]);
    assert_eq!(out.status, 1);
    let md = out.stdout.replace(&dir.display().to_string(), "JOB");
    common::snapshot_settings().bind(|| insta::assert_snapshot!("review_markdown", md));
}

#[test]
fn a_cost_far_from_the_price_tables_needs_review() {
    let (env, dir) = setup(&Job::clean());
    let table = r#"name = "review-prices"
version = 1
date = 2026-12-01
source = "made for this test"

[[model]]
model = "claude-sonnet-4-5"
input = 3.0
output = 15.0
cache_read = 0.3
"#;
    std::fs::write(env.path().join("p.toml"), table).unwrap();
    env.run(["prices", "add", env.path().join("p.toml").to_str().unwrap()])
        .ok();
    let rules = format!("{RULES}\n[cost]\ntolerance = 0.10\n");
    std::fs::write(env.path().join("rules.toml"), rules).unwrap();
    let out = review(
        &env,
        &dir,
        &["--prices", "review-prices@1", "--format", "json"],
    );
    let j = out.json();
    assert_eq!(out.status, 1);
    assert_eq!(found(&j), vec![("cost".into(), "needs-review".into())]);
    // Per trial: 800 new input × $3/M + 100 output × $15/M + 200 cached reads × $0.30/M =
    // $0.00396; ten trials $0.0396, against the $0.10 the job records.
    let c = &j["cost"]["seats"][0];
    assert_eq!(j["cost"]["prices"], "review-prices@1");
    assert!(
        (c["recorded_usd"].as_f64().unwrap() - 0.1).abs() < 1e-12,
        "{c}"
    );
    assert!(
        (c["recomputed_usd"].as_f64().unwrap() - 0.0396).abs() < 1e-12,
        "{c}"
    );
    assert_eq!(c["priced_attempts"], 10);
    let m = findings(&j, "cost")[0]["message"].as_str().unwrap();
    assert!(
        m.contains("is 2.53× the cost recomputed under review-prices@1"),
        "{m}"
    );
}

#[test]
fn more_problems_than_the_rules_suite_reject() {
    let (env, dir) = setup(&Job::clean());
    std::fs::write(
        env.path().join("rules.toml"),
        RULES.replace("suite_problems = 2", "suite_problems = 1"),
    )
    .unwrap();
    let (status, j) = json_review(&env, &dir);
    assert_eq!(status, 1);
    assert!(
        found(&j).contains(&("require.suite_problems".into(), "reject".into())),
        "{j:#}"
    );
    let e = &findings(&j, "require.suite_problems")[0]["evidence"][0];
    assert_eq!(
        e["excerpt"],
        "wave terminal-bench-2025-11-01: 2 problems, the suite 1"
    );
}

#[test]
fn without_from_a_submission_that_is_no_harbor_job_is_named_by_what_it_looks_like() {
    let env = Env::new();
    std::fs::write(env.path().join("rules.toml"), RULES).unwrap();
    let dir = crate_path("tests/fixtures/import/openhands/claude-x");
    let out = review(&env, &dir, &[]);
    assert_eq!(out.status, 2, "{out:#?}");
    assert!(
        out.stderr
            .contains("(this looks like openhands: use --from openhands)"),
        "{}",
        out.stderr
    );
}

/// `rules add` registers a file's rules once, immutably; `rules list` shows them beside the
/// shipped ones; `rules show` prints the text back; `review --rules NAME@VERSION` then finds
/// them in the ledger with the file gone.
#[test]
fn rules_are_registered_once_and_found_by_name_and_version() {
    let (env, dir) = setup(&Job::clean());
    let file = env.path().join("rules.toml");
    let file = file.to_str().unwrap();
    let out = env.run(["rules", "add", file]).ok();
    assert!(
        out.stdout
            .starts_with("registered rules test-board@1 (sha256 "),
        "{}",
        out.stdout
    );
    let out = env.run(["rules", "add", file]).ok();
    assert_eq!(
        out.stdout,
        "rules test-board@1 are already registered with the same text; nothing to do\n"
    );
    // Other text under the same name@version: refused, naming the file; nothing changes.
    std::fs::write(file, RULES.replace("the tests' own rules", "edited")).unwrap();
    let before = env.ledger_bytes();
    let out = env.run(["rules", "add", file]);
    assert_eq!(out.status, 2, "{out:#?}");
    assert!(
        out.stderr
            .contains("rules.toml: rules test-board@1 are already registered with different text"),
        "{}",
        out.stderr
    );
    assert_eq!(env.ledger_bytes(), before);
    // A shipped name@version with other text is refused too.
    let spoof = env.path().join("spoof.toml");
    std::fs::write(
        &spoof,
        RULES.replace("name = \"test-board\"", "name = \"terminal-bench-2\""),
    )
    .unwrap();
    let out = env.run(["rules", "add", spoof.to_str().unwrap()]);
    assert_eq!(out.status, 2, "{out:#?}");
    assert!(
        out.stderr
            .contains("rules terminal-bench-2@1 ship with benchledger with other text"),
        "{}",
        out.stderr
    );
    assert_eq!(env.ledger_bytes(), before);

    let j = env.run(["rules", "list", "--format", "json"]).ok().json();
    let listed: Vec<(String, bool, bool)> = j["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["rules"].as_str().unwrap().to_string(),
                r["registered"].as_bool().unwrap(),
                r["shipped"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        listed,
        vec![
            ("swe-bench@1".to_string(), false, true),
            ("terminal-bench-2@1".to_string(), false, true),
            ("test-board@1".to_string(), true, false),
        ]
    );
    let out = env.run(["rules", "show", "test-board@1"]).ok();
    let (head, text) = out.stdout.split_once('\n').unwrap();
    assert!(head.starts_with("# test-board@1 · sha256 "), "{head}");
    assert_eq!(text, RULES);

    std::fs::remove_file(file).unwrap();
    let out = review(&env, &dir, &[]);
    assert_eq!(out.status, 2, "the file is gone: {out:#?}");
    let out = env.run([
        "review",
        dir.to_str().unwrap(),
        "--rules",
        "test-board@1",
        "--format",
        "json",
    ]);
    assert_eq!(out.status, 0, "{out:#?}");
    assert_eq!(
        out.json()["rules"]["sha256"],
        common::sha256_hex(RULES.as_bytes())
    );
}

/// `review --ingest` records the review with the wave in the log, registering its rules in the
/// same transaction; `rules list` counts the wave; `verify --ledger` checks the review and
/// finds its findings edited behind benchledger's back.
#[test]
fn an_ingested_review_is_recorded_in_the_log_and_verified() {
    let (env, dir) = setup(&Job::clean());
    let out = review(&env, &dir, &["--ingest", "--wave", "sub-1"]);
    assert_eq!(out.status, 0, "{out:#?}");
    assert!(
        out.stdout.contains(
            "recorded the review of wave sub-1 under rules test-board@1 (accept, sha256 "
        ),
        "{}",
        out.stdout
    );
    let j = env.run(["rules", "list", "--format", "json"]).ok().json();
    let board = j["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["rules"] == "test-board@1")
        .unwrap();
    assert_eq!(board["registered"], true);
    assert_eq!(board["waves"], 1);
    let out = env.run(["verify", "--ledger"]).ok();
    assert!(
        out.stdout
            .contains("reviews: OK — 1 registered rules text and 1 review"),
        "{}",
        out.stdout
    );
    // The log names the registration and the review.
    let kinds: Vec<String> = env
        .rows("SELECT kind, subject FROM chain_entry ORDER BY seq")
        .iter()
        .map(|r| match r.as_slice() {
            [common::Cell::Text(k), common::Cell::Text(s)] => format!("{k}:{s}"),
            other => panic!("{other:?}"),
        })
        .collect();
    assert!(kinds.contains(&"rules:test-board".to_string()), "{kinds:?}");
    assert!(
        kinds.contains(&"review:sub-1/test-board@1".to_string()),
        "{kinds:?}"
    );

    // A second ingest of the same submission keeps the first review.
    let out = review(&env, &dir, &["--ingest", "--wave", "sub-1"]);
    assert_eq!(out.status, 0, "{out:#?}");
    assert_eq!(env.count("SELECT count(*) FROM wave_review"), 1);

    env.tamper("DROP TRIGGER wave_review_no_update; UPDATE wave_review SET findings = '[{}]'");
    let out = env.run(["verify", "--ledger"]);
    assert_eq!(out.status, 1, "{out:#?}");
    assert!(
        out.stdout
            .contains("the review of wave sub-1 under rules test-board@1: its findings hash to"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("the review of wave sub-1 under rules test-board@1 is in the ledger"),
        "{}",
        out.stdout
    );
}

/// With `--format json`, standard output is the one document a bot parses, `--ingest` or not:
/// what the ingest did is said on standard error.
#[test]
fn a_json_review_that_ingests_prints_one_document() {
    let (env, dir) = setup(&Job::clean());
    let out = review(
        &env,
        &dir,
        &["--format", "json", "--ingest", "--wave", "sub-1"],
    );
    assert_eq!(out.status, 0, "{out:#?}");
    assert_eq!(out.json()["verdict"], "accept");
    assert!(
        out.stderr.contains("added wave sub-1")
            && out.stderr.contains("recorded the review of wave sub-1"),
        "{}",
        out.stderr
    );
    let waves = env.run(["waves", "--format", "json"]).ok().json();
    assert_eq!(waves["waves"][0]["reviews"][0]["rules"], "test-board@1");
    assert_eq!(waves["waves"][0]["reviews"][0]["verdict"], "accept");
    // The site's index says it too.
    let site = env.path().join("site");
    env.run(["site", "--out", site.to_str().unwrap()]).ok();
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("Reviewed under"), "{index}");
    assert!(index.contains("test-board@1: accept"), "{index}");
}

/// Every real Inspect log in `$BENCHLEDGER_SHARED_DATA/inspect` reviews with the figures
/// `ingest --from inspect` gives it: the review's recomputed document equals `show --format
/// json` of the wave the ingest adds (or both refuse the log, exit 2). A developer's check:
/// the logs are other projects' and are not committed.
#[test]
fn every_shared_inspect_log_reviews_with_the_figures_its_ingest_gives() {
    let Some(root) = std::env::var_os("BENCHLEDGER_SHARED_DATA") else {
        eprintln!("skipped: BENCHLEDGER_SHARED_DATA does not name the shared data directory");
        return;
    };
    let mut files = Vec::new();
    let mut stack = vec![PathBuf::from(root).join("inspect")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if !p.to_string_lossy().ends_with(".expected.json") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(
        !files.is_empty(),
        "no logs under $BENCHLEDGER_SHARED_DATA/inspect"
    );
    let (mut same, mut refused) = (0, 0);
    for f in &files {
        let env = Env::init();
        std::fs::write(
            env.path().join("rules.toml"),
            "[rules]\nname = \"real\"\nversion = 1\n\n[secrets]\nverdict = \"reject\"\n",
        )
        .unwrap();
        let reviewed = review(&env, f, &["--from", "inspect", "--format", "json"]);
        let ingested = env.run([
            std::ffi::OsStr::new("ingest"),
            "--from".as_ref(),
            "inspect".as_ref(),
            f.as_os_str(),
        ]);
        if ingested.status != 0 {
            assert_eq!(ingested.status, 2, "{}: {ingested:#?}", f.display());
            assert_eq!(reviewed.status, 2, "{}: {reviewed:#?}", f.display());
            refused += 1;
            continue;
        }
        assert!(reviewed.status <= 1, "{}: {reviewed:#?}", f.display());
        let j = reviewed.json();
        for shown in j["recomputed"].as_array().unwrap() {
            let wave = shown["wave"].as_str().unwrap_or_else(|| panic!("{shown}"));
            let mut show = env.run(["show", wave, "--format", "json"]).ok().json();
            // The document's envelope is the command's, not the wave's.
            let body = show.as_object_mut().unwrap();
            body.remove("format_version");
            body.remove("kind");
            assert_eq!(shown, &show, "{}: wave {wave}", f.display());
        }
        same += 1;
    }
    eprintln!("{same} logs reviewed with their ingest's figures, {refused} refused by both");
}

/// Issue 33, #3 (left last stop): a claims file may name its seat by a model alias, as `claims
/// check` takes it: `us.anthropic.claude-sonnet-4-5-v1:0` (Bedrock's id) fits the job's one
/// seat, whose model is `claude-sonnet-4-5`; a name that fits no seat is refused as before.
#[test]
fn a_claim_may_name_its_seat_by_a_model_alias() {
    let (env, dir) = setup(&Job::clean());
    let (_, j) = json_review(&env, &dir);
    let wave = j["recomputed"][0]["wave"].as_str().unwrap().to_string();
    let claims = env.path().join("claims.toml");
    let write = |seat: &str| {
        std::fs::write(
            &claims,
            format!(
                "name = \"sub\"\nversion = 1\nsource = \"by hand: 7 of 10\"\n\n[[claim]]\n\
                 wave = \"{wave}\"\nseat = \"{seat}\"\nfigure = \"correct\"\nvalue = 7\n\
                 decimals = 0\n"
            ),
        )
        .unwrap();
    };
    write("us.anthropic.claude-sonnet-4-5-v1:0");
    let out = review(
        &env,
        &dir,
        &["--claims", claims.to_str().unwrap(), "--format", "json"],
    );
    let j = out.json();
    assert_eq!(out.status, 0, "{j:#}");
    assert_eq!(j["claims"][0]["outcome"], "reproduced", "{j:#}");
    write("nobody");
    let out = review(&env, &dir, &["--claims", claims.to_str().unwrap()]);
    assert_eq!(out.status, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("has no seat `nobody`"),
        "{}",
        out.stderr
    );
}
