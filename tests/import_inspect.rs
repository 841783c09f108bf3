//! The `inspect` importer through the CLI: an Inspect AI log — a `.json` document, or an
//! `.eval` archive whose members are deflated or zstd-compressed — lands as the attempts it
//! holds, with the totals computed by hand in `tests/fixtures/import/inspect/wave.toml`; a bad
//! sample is refused by name with the ledger unchanged; the token accounting follows the
//! version of inspect_ai on both sides of 0.3.184; `ingest --from inspect` builds the wave from
//! the logs themselves.
//!
//! The `.eval` archives are built here from the `.json` fixture (a ZIP of `header.json`,
//! `summaries.json` and one member per sample, as inspect_ai writes them), so both forms of
//! the same run are checked to land the same.
//!
//! The real logs in `../shared/data/inspect` are checked too, by a developer, when
//! `BENCHLEDGER_SHARED_DATA` names that data directory (they are not the project's to commit).

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};

use common::{Env, copy_dir, snapshot_settings, tests_dir};
use serde_json::Value;

fn fixture(env: &Env) -> PathBuf {
    let dir = env.path().join("inspect");
    copy_dir(&tests_dir("fixtures/import/inspect"), &dir);
    dir
}

fn ingest(env: &Env, manifest: &Path) -> common::Out {
    env.run([std::ffi::OsStr::new("ingest"), manifest.as_os_str()])
}

fn seat(env: &Env, wave: &str) -> Value {
    let show = env.run(["show", wave, "--format", "json"]).ok().json();
    show["seats"][0].clone()
}

/// How the `.eval` archive is written.
#[derive(Clone, Copy)]
enum Archive {
    Deflate,
    Zstd,
    /// zstd, with summaries as inspect_ai wrote them before they carried usage and times.
    ZstdOldSummaries,
    /// deflate, without summaries.json (an archive read from its sample members alone).
    NoSummaries,
}

/// Writes `log` (a `.json` Inspect log) as an `.eval` archive at `out`.
fn write_eval(log: &Value, out: &Path, how: Archive) {
    use zip::CompressionMethod;
    use zip::write::SimpleFileOptions;
    let method = match how {
        Archive::Deflate | Archive::NoSummaries => CompressionMethod::Deflated,
        Archive::Zstd | Archive::ZstdOldSummaries => CompressionMethod::Zstd,
    };
    let options = SimpleFileOptions::default().compression_method(method);
    let mut zip = zip::ZipWriter::new(std::fs::File::create(out).unwrap());
    let mut header = log.clone();
    let obj = header.as_object_mut().unwrap();
    let samples = obj.remove("samples").unwrap();
    obj.remove("reductions");
    let mut add = |name: &str, v: &Value| {
        zip.start_file(name, options).unwrap();
        zip.write_all(serde_json::to_string(v).unwrap().as_bytes())
            .unwrap();
    };
    add("_journal/start.json", &Value::Null);
    let mut summaries = Vec::new();
    for s in samples.as_array().unwrap() {
        let name = format!(
            "samples/{}_epoch_{}.json",
            match &s["id"] {
                Value::String(x) => x.clone(),
                other => other.to_string(),
            },
            s["epoch"]
        );
        add(&name, s);
        let mut summary = s.clone();
        let o = summary.as_object_mut().unwrap();
        for k in [
            "messages",
            "events",
            "output",
            "store",
            "attachments",
            "error_retries",
        ] {
            o.remove(k);
        }
        // A summary's error and limit are strings.
        if let Some(e) = o.get("error").cloned() {
            o.insert("error".into(), e["message"].clone());
        }
        if let Some(l) = o.get("limit").cloned() {
            o.insert("limit".into(), l["type"].clone());
        }
        if let Archive::ZstdOldSummaries = how {
            for k in [
                "model_usage",
                "total_time",
                "working_time",
                "error",
                "limit",
            ] {
                o.remove(k);
            }
        }
        summaries.push(summary);
    }
    if !matches!(how, Archive::NoSummaries) {
        add("summaries.json", &Value::Array(summaries));
    }
    add("reductions.json", &serde_json::json!([]));
    add("header.json", &header);
    zip.finish().unwrap();
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_json_log_lands_with_the_totals_computed_by_hand() {
    let env = Env::init();
    let dir = fixture(&env);
    env.ingest(&[&dir.join("wave.toml")]);
    let s = seat(&env, "arith-mini");
    assert_eq!(s["attempts"], 6);
    assert_eq!(s["problems"], 3);
    assert_eq!(s["correct"], 2);
    assert_eq!(s["input_tokens"], 5800);
    assert_eq!(s["output_tokens"], 700);
    assert_eq!(s["input_tokens_cache_read"], 1400);
    assert_eq!(s["input_tokens_cache_write"], 150);
    assert_eq!(s["tokens_total"], 8050);
    assert_eq!(s["new_input_tokens"], 5950);
    assert_eq!(s["wall_s"], 58.75);
    assert_eq!(s["cost_known_attempts"], 5);
    assert!((s["cost_usd"].as_f64().unwrap() - 0.055).abs() < 1e-12);
    assert_eq!(s["steps"], 9);
    assert_eq!(s["errors"], 2);
    let table = env.run(["show", "arith-mini"]).ok().stdout;
    snapshot_settings().bind(|| insta::assert_snapshot!("import_inspect__show", table));
}

#[test]
fn an_eval_archive_deflated_or_zstd_lands_as_the_json_log_does() {
    let env = Env::init();
    let dir = fixture(&env);
    env.ingest(&[&dir.join("wave.toml")]);
    let expected = seat(&env, "arith-mini");
    let log = read_json(&dir.join("run.json"));
    let manifest = std::fs::read_to_string(dir.join("wave.toml")).unwrap();
    for (i, how) in [
        Archive::Deflate,
        Archive::Zstd,
        Archive::ZstdOldSummaries,
        Archive::NoSummaries,
    ]
    .into_iter()
    .enumerate()
    {
        let eval = dir.join(format!("run{i}.eval"));
        write_eval(&log, &eval, how);
        let wave = format!("arith-eval-{i}");
        let m = dir.join(format!("wave{i}.toml"));
        std::fs::write(
            &m,
            manifest
                .replace("arith-mini", &wave)
                .replace("\"run.json\"", &format!("\"run{i}.eval\"")),
        )
        .unwrap();
        env.ingest(&[&m]);
        assert_eq!(seat(&env, &wave), expected, "archive {i}");
    }
    // Read from its summaries alone, the same figures but the trace.
    let m = dir.join("summaries.toml");
    std::fs::write(
        &m,
        manifest
            .replace("arith-mini", "arith-summaries")
            .replace("\"run.json\"", "\"run1.eval\"")
            .replace("\nformat = \"inspect\"", "\nformat = \"inspect-summaries\""),
    )
    .unwrap();
    env.ingest(&[&m]);
    let mut without_trace = expected.clone();
    for k in ["steps", "errors"] {
        without_trace[k] = Value::Null;
        without_trace[format!("{k}_known_attempts")] = Value::from(0);
    }
    assert_eq!(seat(&env, "arith-summaries"), without_trace);
    // The zstd archive is what inspect_ai writes since 0.3.206: every member method 93.
    let mut zip =
        zip::ZipArchive::new(std::fs::File::open(dir.join("run1.eval")).unwrap()).unwrap();
    for k in 0..zip.len() {
        assert_eq!(
            zip.by_index_raw(k).unwrap().compression(),
            zip::CompressionMethod::Zstd
        );
    }
}

#[test]
fn the_seat_chooses_the_scorer() {
    let env = Env::init();
    let dir = fixture(&env);
    let manifest = std::fs::read_to_string(dir.join("wave.toml")).unwrap();
    let with = |scorer: &str, wave: &str| {
        let m = dir.join(format!("{wave}.toml"));
        std::fs::write(
            &m,
            manifest.replace("arith-mini", wave).replace(
                "\nformat = \"inspect\"",
                &format!("\nformat = \"inspect\"\nscorer = \"{scorer}\""),
            ),
        )
        .unwrap();
        m
    };
    // judge: 1.0, 0.0, 0.5, 0.25, 1 (and the error): 2 Correct.
    env.ingest(&[&with("judge", "by-judge")]);
    assert_eq!(seat(&env, "by-judge")["correct"], 2);
    // rubric's style: 0.5, 1.0, 0.0, 1.0, 1.0: 3 Correct.
    env.ingest(&[&with("rubric/style", "by-style")]);
    assert_eq!(seat(&env, "by-style")["correct"], 3);
    let out = ingest(&env, &with("rubric", "by-rubric")).status(2);
    assert!(
        out.stderr.contains(
            "run.json: sample 1 epoch 1: field `scores.rubric`: scorer \"rubric\" cannot be \
             read as a verdict: its value is a dict of accuracy, style; choose one with scorer \
             = \"rubric/KEY\""
        ),
        "{out:#?}"
    );
    let out = ingest(&env, &with("exact", "by-exact")).status(2);
    assert!(
        out.stderr.contains(
            "run.json: sample 1 epoch 1: field `scores`: no score from scorer \"exact\" (the \
             log's scorers: match, judge, rubric)"
        ),
        "{out:#?}"
    );
}

#[test]
fn a_bad_sample_is_named_and_nothing_is_written() {
    let env = Env::init();
    let dir = fixture(&env);
    let log = dir.join("run.json");
    let text = std::fs::read_to_string(&log).unwrap();
    let before = env.ledger_bytes();
    for (from, to, says) in [
        (
            "\"value\": \"P\"",
            "\"value\": \"X\"",
            "run.json: sample 2 epoch 1: field `scores.match`: scorer \"match\" cannot be read \
             as a verdict: the value \"X\" is none of C, I, P, N, yes, no, true, false or a \
             number from 0 to 1",
        ),
        (
            "\"input_tokens\": 800,",
            "\"input_tokens\": -800,",
            "run.json: sample 2 epoch 1: field \
             `model_usage.anthropic/claude-sonnet-4-5.input_tokens`: expected a whole number \
             of tokens from 0 to 10^12, got -800",
        ),
        (
            "\"total_time\": 20.0,",
            "\"total_time\": \"long\",",
            "run.json: sample 2 epoch 2: field `total_time`: expected seconds, 0 or more, got \
             the string \"long\"",
        ),
        (
            "\"status\": \"success\"",
            "\"status\": \"cancelled\"",
            "run.json: field `status`: the run was cancelled (status \"cancelled\")",
        ),
    ] {
        assert!(text.contains(from), "{from}");
        std::fs::write(&log, text.replacen(from, to, 1)).unwrap();
        let out = ingest(&env, &dir.join("wave.toml")).status(2);
        assert!(out.stderr.contains(says), "{says}\n{out:#?}");
        assert_eq!(env.ledger_bytes(), before);
    }
}

#[test]
fn the_accounting_follows_inspect_ai_on_both_sides_of_0_3_184() {
    let env = Env::init();
    let dir = fixture(&env);
    let manifest_path = dir.join("openai.toml");
    let manifest = std::fs::read_to_string(&manifest_path).unwrap();
    let log_path = dir.join("openai-0.3.183.json");
    let log = std::fs::read_to_string(&log_path).unwrap();
    let before = env.ledger_bytes();

    // 0.3.183: input_tokens include the cached reads; a manifest saying otherwise is refused.
    std::fs::write(
        &manifest_path,
        manifest
            .replace("= true", "= false")
            .replace("recall-openai", "r1"),
    )
    .unwrap();
    let out = ingest(&env, &manifest_path).status(2);
    assert!(
        out.stderr.contains(
            "openai.toml:10: field `input_tokens_include_cache_reads`: the manifest says \
             input_tokens_include_cache_reads = false, but"
        ) && out.stderr.contains(
            "counts them the other way: inspect_ai 0.3.183 (before 0.3.184) counted cached \
             reads inside input_tokens for OpenAI and OpenAI-compatible models such as \
             openai/gpt-4o. Make the manifest say true"
        ),
        "{out:#?}"
    );
    assert_eq!(env.ledger_bytes(), before);
    std::fs::write(&manifest_path, manifest.replace("recall-openai", "r1")).unwrap();
    env.ingest(&[&manifest_path]);
    let s = seat(&env, "r1");
    // The log's input_tokens as written: the wave's flag says how to read them.
    assert_eq!(s["input_tokens"], 3000);
    assert_eq!(s["input_tokens_cache_read"], 2100);
    assert_eq!(s["tokens_total"], 3150);
    assert_eq!(s["new_input_tokens"], 900);

    // 0.3.184: input_tokens exclude them.
    std::fs::write(&log_path, log.replace("\"0.3.183\"", "\"0.3.184\"")).unwrap();
    std::fs::write(&manifest_path, manifest.replace("recall-openai", "r2")).unwrap();
    let out = ingest(&env, &manifest_path).status(2);
    assert!(
        out.stderr.contains(
            "inspect_ai 0.3.184 (since 0.3.184) counts cached reads outside input_tokens for \
             OpenAI and OpenAI-compatible models such as openai/gpt-4o. Make the manifest say \
             false"
        ),
        "{out:#?}"
    );
    std::fs::write(
        &manifest_path,
        manifest
            .replace("= true", "= false")
            .replace("recall-openai", "r2"),
    )
    .unwrap();
    env.ingest(&[&manifest_path]);
    let s = seat(&env, "r2");
    assert_eq!(s["tokens_total"], 3000 + 2100 + 150);
    assert_eq!(s["new_input_tokens"], 3000);
}

#[test]
fn from_inspect_builds_the_wave_from_the_logs() {
    let env = Env::init();
    let dir = fixture(&env);
    let logs = env.path().join("logs");
    std::fs::create_dir_all(logs.join("nested")).unwrap();
    let text = std::fs::read_to_string(dir.join("run.json")).unwrap();
    std::fs::write(logs.join("a.json"), &text).unwrap();
    // A second model on the same task, as an .eval archive in a subdirectory.
    let opus: Value = serde_json::from_str(
        &text.replace("anthropic/claude-sonnet-4-5", "anthropic/claude-opus-4-8"),
    )
    .unwrap();
    write_eval(&opus, &logs.join("nested/b.eval"), Archive::Zstd);
    // inspect_ai's own index beside the logs is not a log.
    std::fs::write(logs.join("logs.json"), "{}").unwrap();
    let out = env
        .run([
            std::ffi::OsStr::new("ingest"),
            "--from".as_ref(),
            "inspect".as_ref(),
            logs.as_os_str(),
        ])
        .ok();
    assert_eq!(
        out.stdout.split(" (sha256").next().unwrap(),
        "added wave arith-2026-05-01: 2 seats, 12 attempts"
    );
    let waves = env.run(["waves", "--format", "json"]).ok().json();
    let w = &waves["waves"][0];
    assert_eq!(w["suite"], "arith");
    assert_eq!(w["started_at"], "2026-05-01T08:00:00Z");
    assert_eq!(w["accounting"]["input_tokens_include_cache_reads"], false);
    let show = env
        .run(["show", "arith-2026-05-01", "--format", "json"])
        .ok()
        .json();
    let seats: Vec<&str> = show["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["seat"].as_str().unwrap())
        .collect();
    assert_eq!(
        seats,
        ["anthropic-claude-opus-4-8", "anthropic-claude-sonnet-4-5"]
    );
    assert_eq!(show["seats"][0]["tokens_total"], 8050);
    assert_eq!(show["seats"][0]["harness"], "use_tools + generate");

    // --manifest supplies what the logs cannot say; --wave names the wave.
    let m = env.path().join("extra.toml");
    std::fs::write(
        &m,
        "[wave]\nsuite_problems = 3\nnotes = \"nightly\"\n[wave.load]\nparallel_sessions = 2\n\
         [wave.budget]\ntokens = 2000\nwall_s = 15\n",
    )
    .unwrap();
    env.run([
        std::ffi::OsStr::new("ingest"),
        "--from".as_ref(),
        "inspect".as_ref(),
        "--wave".as_ref(),
        "arith-nightly".as_ref(),
        "--manifest".as_ref(),
        m.as_os_str(),
        logs.join("a.json").as_os_str(),
    ])
    .ok();
    let table = env.run(["show", "arith-nightly"]).ok().stdout;
    snapshot_settings().bind(|| insta::assert_snapshot!("import_inspect__from_show", table));

    // A bad key in --manifest is named there, without a line of a manifest never written.
    std::fs::write(&m, "[wave.load]\nparalel_sessions = 2\n").unwrap();
    let out = env
        .run([
            std::ffi::OsStr::new("ingest"),
            "--from".as_ref(),
            "inspect".as_ref(),
            "--wave".as_ref(),
            "w2".as_ref(),
            "--manifest".as_ref(),
            m.as_os_str(),
            logs.join("a.json").as_os_str(),
        ])
        .status(2);
    assert!(
        out.stderr
            .contains("extra.toml: field `paralel_sessions`: unknown field"),
        "{out:#?}"
    );
}

#[test]
fn from_inspect_makes_an_eval_set_one_wave_per_task_and_skips_what_is_not_a_log() {
    let env = Env::init();
    let dir = fixture(&env);
    let set = env.path().join("set");
    std::fs::create_dir_all(&set).unwrap();
    let run = std::fs::read_to_string(dir.join("run.json")).unwrap();
    std::fs::write(set.join("arith-sonnet.json"), &run).unwrap();
    // The same task under other generation settings: a seat of its own.
    let mut hot: Value = serde_json::from_str(&run).unwrap();
    hot["eval"]["model_generate_config"] = serde_json::json!({"temperature": 1.0});
    std::fs::write(set.join("arith-sonnet-hot.json"), hot.to_string()).unwrap();
    // A second task, and a file that is no log.
    std::fs::write(
        set.join("recall.json"),
        run.replace("\"arith\"", "\"recall\""),
    )
    .unwrap();
    std::fs::write(set.join("notes.json"), "{\"written\": \"by hand\"}").unwrap();
    let out = env
        .run([
            std::ffi::OsStr::new("ingest"),
            "--from".as_ref(),
            "inspect".as_ref(),
            set.as_os_str(),
        ])
        .ok();
    let lines: Vec<&str> = out
        .stdout
        .lines()
        .map(|l| l.split(" (sha256").next().unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{out:#?}");
    assert!(
        lines[0].starts_with("note: skipped ")
            && lines[0].contains("notes.json: not read as inspect"),
        "{out:#?}"
    );
    assert_eq!(
        lines[1],
        "added wave arith-2026-05-01: 2 seats, 12 attempts"
    );
    assert_eq!(
        lines[2],
        "added wave recall-2026-05-01: 1 seats, 6 attempts"
    );
    let show = env
        .run(["show", "arith-2026-05-01", "--format", "json"])
        .ok()
        .json();
    let seats: Vec<&str> = show["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["seat"].as_str().unwrap())
        .collect();
    assert_eq!(
        seats,
        [
            "anthropic-claude-sonnet-4-5-config1",
            "anthropic-claude-sonnet-4-5-config2"
        ]
    );

    // Logs of one task that count cached reads in opposite ways are two waves, said so.
    let env = Env::init();
    let dir = fixture(&env);
    let openai = std::fs::read_to_string(dir.join("openai-0.3.183.json"))
        .unwrap()
        .replace("\"recall\"", "\"arith\"");
    std::fs::write(dir.join("openai-0.3.183.json"), openai).unwrap();
    let out = env
        .run([
            std::ffi::OsStr::new("ingest"),
            "--from".as_ref(),
            "inspect".as_ref(),
            dir.join("run.json").as_os_str(),
            dir.join("openai-0.3.183.json").as_os_str(),
        ])
        .ok();
    assert!(
        out.stdout.contains("count cached reads in two ways")
            && out.stdout.contains("added wave arith-2026-05-01: 1 seats")
            && out
                .stdout
                .contains("added wave arith-2026-02-20-cached-in: 1 seats"),
        "{out:#?}"
    );
}

#[test]
fn a_wrong_format_lists_the_formats_and_a_missing_field_names_its_flag() {
    let env = Env::init();
    let dir = fixture(&env);
    for wrong in ["json", "Inspect"] {
        let out = env.run(["ingest", "--from", wrong, "x.json"]).status(2);
        assert!(
            out.stderr
                .contains(&format!("unknown results format {wrong:?}"))
                && out.stderr.contains(
                    "the formats are: jsonl, csv, tau-bench, terminal-bench, openhands, \
                     swe-bench, hal, tau2-bench, inspect, inspect-summaries, harbor, lm-eval, helm, eee"
                )
                && !out.stderr.contains("format = "),
            "{out:#?}"
        );
    }
    let before = env.ledger_bytes();
    let lines = dir.join("a.jsonl");
    std::fs::write(&lines, "{\"problem\": \"p1\", \"correct\": true}\n").unwrap();
    let out = env
        .run([
            std::ffi::OsStr::new("ingest"),
            "--from".as_ref(),
            "jsonl".as_ref(),
            lines.as_os_str(),
        ])
        .status(2);
    assert!(
        out.stderr.contains(
            "a.jsonl: missing 4 fields the files do not give: `suite` (the file does not name \
             the suite it was run on)"
        ) && out
            .stderr
            .contains("give them with --suite, --started-at, --model, --harness"),
        "{out:#?}"
    );
    assert_eq!(env.ledger_bytes(), before);
}

#[test]
fn on_a_terminal_a_long_import_shows_how_far_it_has_read() {
    use std::process::{Command, Stdio};
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: `script` (util-linux) is not installed, so no terminal to test on");
        return;
    }
    let env = Env::init();
    let dir = fixture(&env);
    // Enough samples that the bar is drawn before the import ends.
    let mut log = read_json(&dir.join("run.json"));
    let mut samples = Vec::new();
    for k in 0..20_000 {
        samples.push(serde_json::json!({
            "id": format!("p{k}"), "epoch": 1, "scores": {"match": {"value": "C"}},
            "model_usage": {}, "total_time": 1.0, "events": []
        }));
    }
    log["samples"] = Value::Array(samples);
    log["stats"]["model_usage"] = serde_json::json!({});
    let eval = env.path().join("big.eval");
    write_eval(&log, &eval, Archive::Deflate);
    let quote = |p: &Path| format!("'{}'", p.display());
    let line = format!(
        "{} --db {} ingest --from inspect {}",
        env!("CARGO_BIN_EXE_benchledger"),
        quote(&env.db),
        quote(&eval)
    );
    let out = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .env_remove("BENCHLEDGER_DB")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("/20000 records"), "{text}");
    assert!(text.contains("added wave arith-2026-05-01: 1 seats, 20000 attempts"));
}

/// Every real log in `$BENCHLEDGER_SHARED_DATA/inspect` either lands with the log's own token
/// totals (`stats.model_usage` of the evaluated model) and time total (the samples'
/// `total_time`), or is refused with a reason (exit status 2, the file named). A developer's
/// check: the logs are other projects' and are not committed.
#[test]
fn every_shared_inspect_log_lands_with_its_own_totals_or_is_refused() {
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
    let mut report = String::new();
    for f in &files {
        let env = Env::init();
        let out = env.run([
            std::ffi::OsStr::new("ingest"),
            "--from".as_ref(),
            "inspect".as_ref(),
            f.as_os_str(),
        ]);
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        if out.status != 0 {
            assert_eq!(out.status, 2, "{name}: {out:#?}");
            assert!(
                out.stderr.contains(&*f.to_string_lossy()),
                "{name}: the refusal names the file: {out:#?}"
            );
            let reason = out.stderr.trim().rsplit(": ").next().unwrap_or("");
            report.push_str(&format!("refused  {name}: {}\n", out.stderr.trim()));
            assert!(!reason.is_empty());
            continue;
        }
        let wave = out
            .stdout
            .split_whitespace()
            .nth(2)
            .unwrap()
            .trim_end_matches(':');
        let s = seat(&env, wave);
        let (header, times) = own_totals(f);
        let model = header["eval"]["model"].as_str().unwrap();
        let usage = &header["stats"]["model_usage"][model];
        for k in [
            "input_tokens",
            "output_tokens",
            "input_tokens_cache_read",
            "input_tokens_cache_write",
        ] {
            if !usage[k].is_null() {
                assert_eq!(s[k], usage[k], "{name}: {k}");
            }
        }
        match times {
            Some(t) => assert!((s["wall_s"].as_f64().unwrap() - t).abs() < 1e-6, "{name}"),
            None => assert_eq!(s["wall_s"], Value::Null, "{name}"),
        }
        report.push_str(&format!(
            "ingested {name}: {} attempts, {} correct, input {} output {} cached {} wall {}\n",
            s["attempts"],
            s["correct"],
            s["input_tokens"],
            s["output_tokens"],
            s["input_tokens_cache_read"],
            s["wall_s"]
        ));
    }
    eprintln!("{report}");
}

/// A log's header and the sum of its samples' `total_time` (None when no sample has one).
fn own_totals(path: &Path) -> (Value, Option<f64>) {
    let bytes = std::fs::read(path).unwrap();
    let (header, samples): (Value, Vec<Value>) = if bytes.starts_with(b"PK") {
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        let mut member = |n: &str| -> Value {
            let mut s = String::new();
            std::io::Read::read_to_string(&mut zip.by_name(n).unwrap(), &mut s).unwrap();
            serde_json::from_str(&s).unwrap()
        };
        let header = member("header.json");
        let summaries = member("summaries.json");
        let mut samples = Vec::new();
        for s in summaries.as_array().unwrap() {
            let id = match &s["id"] {
                Value::String(x) => x.clone(),
                other => other.to_string(),
            };
            samples.push(member(&format!("samples/{id}_epoch_{}.json", s["epoch"])));
        }
        (header, samples)
    } else {
        let v: Value = serde_json::from_slice(&bytes).unwrap();
        let samples = v["samples"].as_array().cloned().unwrap_or_default();
        (v, samples)
    };
    let times: Vec<f64> = samples
        .iter()
        .filter_map(|s| s["total_time"].as_f64())
        .collect();
    (header, (!times.is_empty()).then(|| times.iter().sum()))
}
