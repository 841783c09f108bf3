//! `benchledger problems`: a wave's problem × seat matrix and, with `--regressions`, what each
//! seat newly failed or newly solved between two waves. The expected values are worked out by
//! hand from the examples' results files (one attempt a problem in the rca waves):
//!
//! ```text
//!                          rca-wave-1                 rca-wave-2
//!                          rca-1 rca-2 rca-3 rca-4    rca-1 rca-2 rca-3 rca-4
//! anthropic-hierarchical   C     C     C     C        C     C     x     C
//! anthropic-react          C     x     C     x        C     C     C     x
//! openai-hierarchical      C     C     C     C        C     C     C     C
//! openai-react             C     C     C     x        C     x     C     x
//! xai-hierarchical         C     C     C     C        C     C     C     C
//! xai-react                C     C     x     C        C     C     x     C
//! ```
//!
//! Solved by, wave 1: rca-1 6, rca-2 5, rca-3 5, rca-4 4. Wave 2: rca-1 6, rca-2 5, rca-3 4,
//! rca-4 4 (rca-3 before rca-4 on ties by id). Between them: anthropic-hierarchical newly
//! failed rca-3; anthropic-react newly solved rca-2; openai-react newly failed rca-2; nobody
//! else changed. Terminal-Bench's tb-mini (its manifest's hand count): hello-world 3 of 5
//! trials Correct (solved), fix-git 2 of 5 with 1 infrastructure failure (not solved).

mod common;

use common::{Env, snapshot_settings};
use serde_json::{Value, json};

fn env() -> Env {
    Env::with_waves(&[
        "examples/rca-wave-1/wave.toml",
        "examples/rca-wave-2/wave.toml",
        "tests/fixtures/import/terminal-bench/wave.toml",
    ])
}

fn cell(trials: u32, passed: u32, infra: u32) -> Value {
    json!({"trials": trials, "passed": passed, "infra_errors": infra, "missing": false})
}

#[test]
fn the_matrix_puts_the_most_solved_problems_first() {
    let env = env();
    let j = env
        .run(["problems", "rca-wave-2", "--format", "json"])
        .ok()
        .json();
    let order: Vec<(&str, u64)> = j["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["problem"].as_str().unwrap(),
                p["solved_by"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        order,
        [("rca-1", 6), ("rca-2", 5), ("rca-3", 4), ("rca-4", 4)]
    );
    let rca3 = &j["problems"][2]["seats"];
    assert_eq!(rca3.as_object().unwrap().len(), 6);
    assert_eq!(rca3["anthropic-hierarchical"], cell(1, 0, 0));
    assert_eq!(rca3["anthropic-react"], cell(1, 1, 0));
    // Repeated trials and an infrastructure failure.
    let tb = env
        .run(["problems", "tb-mini", "--format", "json"])
        .ok()
        .json();
    assert_eq!(tb["problems"][0]["problem"], "hello-world");
    assert_eq!(tb["problems"][0]["solved_by"], 1);
    assert_eq!(tb["problems"][0]["seats"]["terminus-sonnet"], cell(5, 3, 0));
    assert_eq!(tb["problems"][1]["problem"], "fix-git");
    assert_eq!(tb["problems"][1]["solved_by"], 0);
    assert_eq!(tb["problems"][1]["seats"]["terminus-sonnet"], cell(5, 2, 1));
    // --seat keeps only the seats named.
    let one = env
        .run([
            "problems",
            "rca-wave-1",
            "--seat",
            "xai-react",
            "--format",
            "json",
        ])
        .ok()
        .json();
    assert_eq!(one["seats"], json!(["xai-react"]));
    assert_eq!(one["problems"][3]["problem"], "rca-3");
    assert_eq!(one["problems"][3]["seats"]["xai-react"], cell(1, 0, 0));
    let table = env.run(["problems", "rca-wave-1"]).ok().stdout;
    let tb_table = env.run(["problems", "tb-mini"]).ok().stdout;
    snapshot_settings().bind(|| {
        insta::assert_snapshot!("problems__rca_wave_1_table", table);
        insta::assert_snapshot!("problems__tb_mini_table", tb_table);
    });
}

#[test]
fn regressions_name_what_each_seat_newly_failed_and_newly_solved() {
    let env = env();
    let j = env
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
    let seat = |id: &str| {
        j["seats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["seat"] == id)
            .unwrap_or_else(|| panic!("{id}: {j}"))
            .clone()
    };
    let none: Vec<&str> = vec![];
    assert_eq!(j["seats"].as_array().unwrap().len(), 6);
    assert_eq!(
        seat("anthropic-hierarchical"),
        json!({"seat": "anthropic-hierarchical", "newly_failed": ["rca-3"], "newly_solved": none,
               "only_in_a": none, "only_in_b": none})
    );
    assert_eq!(seat("anthropic-react")["newly_solved"], json!(["rca-2"]));
    assert_eq!(seat("anthropic-react")["newly_failed"], json!(none));
    assert_eq!(seat("openai-react")["newly_failed"], json!(["rca-2"]));
    for id in ["openai-hierarchical", "xai-hierarchical", "xai-react"] {
        let s = seat(id);
        assert_eq!(
            (&s["newly_failed"], &s["newly_solved"]),
            (&json!(none), &json!(none))
        );
    }
    let table = env
        .run(["problems", "--regressions", "rca-wave-1", "rca-wave-2"])
        .ok()
        .stdout;
    snapshot_settings().bind(|| insta::assert_snapshot!("problems__regressions_rca", table));
}

#[test]
fn an_unknown_wave_or_seat_or_a_withdrawn_wave_is_refused_naming_what_is_known() {
    let env = env();
    let before = env.ledger_bytes();
    let out = env.run(["problems", "nope"]).status(2);
    assert!(
        out.stderr.contains("no wave `nope`") && out.stderr.contains("rca-wave-1"),
        "{}",
        out.stderr
    );
    let out = env
        .run(["problems", "rca-wave-1", "--seat", "nobody"])
        .status(2);
    assert!(
        out.stderr.contains("--seat nobody") && out.stderr.contains("anthropic-react"),
        "{}",
        out.stderr
    );
    let out = env
        .run(["problems", "--regressions", "rca-wave-1"])
        .status(2);
    assert!(out.stderr.contains("name both"), "{}", out.stderr);
    assert_eq!(env.ledger_bytes(), before);
    env.run(["withdraw", "rca-wave-1", "--reason", "rerun"])
        .ok();
    let out = env
        .run(["problems", "--regressions", "rca-wave-1", "rca-wave-2"])
        .status(2);
    assert!(out.stderr.contains("--include-withdrawn"), "{}", out.stderr);
    let shown = env
        .run([
            "problems",
            "--regressions",
            "rca-wave-1",
            "rca-wave-2",
            "--include-withdrawn",
        ])
        .ok()
        .stdout;
    assert!(shown.contains("withdrawn"), "{shown}");
}

/// Issue 32, #9: `problems --help` opened with a slogan ("Every sample one click away") rather
/// than with what the command prints.
#[test]
fn issue_32_9_problems_help_opens_with_what_it_prints() {
    let out = Env::new().run(["problems", "--help"]).ok();
    assert!(
        out.stdout.starts_with("A wave's problem × seat matrix"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("one click away"), "{}", out.stdout);
}

/// Issue 31, #5: `problems WAVE --problem ID` prints every seat's attempts at one problem with
/// the texts the Inspect log recorded (tests/fixtures/import/inspect/run.json, by hand):
/// problem 1's input "What is 6 * 7? Use the tools." and target "42" are shared by both
/// trials, so said once; trial 1 answered "42" (Correct), trial 2 "41" (not Correct, the
/// `match` scorer's explanation "41 is not the target 42."). Problem q3's trials were asked
/// differently (chat messages, then a string), so each trial shows its own input; trial 2
/// errored and has no explanation.
#[test]
fn issue_31_5_a_problems_sample_is_what_the_log_recorded() {
    let env = Env::with_waves(&["tests/fixtures/import/inspect/wave.toml"]);
    let before = env.ledger_bytes();
    let text = env
        .run(["problems", "arith-mini", "--problem", "1"])
        .ok()
        .stdout;
    let q3 = env
        .run(["problems", "arith-mini", "--problem", "q3"])
        .ok()
        .stdout;
    snapshot_settings().bind(|| {
        insta::assert_snapshot!("problems__sample_arith_1", text);
        insta::assert_snapshot!("problems__sample_arith_q3", q3);
    });
    let j = env
        .run([
            "problems",
            "arith-mini",
            "--problem",
            "1",
            "--format",
            "json",
        ])
        .ok()
        .json();
    assert_eq!(j["kind"], "problem-sample");
    assert_eq!(j["wave"], "arith-mini");
    let attempts = j["attempts"].as_array().unwrap();
    assert_eq!(attempts.len(), 2, "{j}");
    assert_eq!(attempts[0]["answer"], "42");
    assert_eq!(attempts[0]["correct"], true);
    assert_eq!(attempts[1]["answer"], "41");
    assert_eq!(attempts[1]["correct"], false);
    assert_eq!(attempts[1]["explanation"], "41 is not the target 42.");
    for a in attempts {
        assert_eq!(a["input"], "What is 6 * 7? Use the tools.");
        assert_eq!(a["target"], "42");
    }
    let j = env
        .run([
            "problems",
            "arith-mini",
            "--problem",
            "q3",
            "--format",
            "json",
        ])
        .ok()
        .json();
    assert_eq!(
        j["attempts"][0]["input"],
        "system: Answer with a number.\n\nuser: What is 6 * 7?"
    );
    assert_eq!(j["attempts"][0]["target"], "42\nforty-two");
    assert_eq!(j["attempts"][1]["explanation"], Value::Null);
    let csv = env
        .run([
            "problems",
            "arith-mini",
            "--problem",
            "1",
            "--format",
            "csv",
        ])
        .ok()
        .stdout;
    assert!(
        csv.starts_with("seat,trial,outcome,input,target,answer,explanation\n")
            && csv.contains(",41,41 is not the target 42.\n"),
        "{csv}"
    );
    // A problem no seat attempted, and --problem beside --regressions, are refused.
    let out = env
        .run(["problems", "arith-mini", "--problem", "nope"])
        .status(2);
    assert!(
        out.stderr.contains("--problem nope") && out.stderr.contains("1, 2, q3"),
        "{}",
        out.stderr
    );
    env.run([
        "problems",
        "--regressions",
        "arith-mini",
        "arith-mini",
        "--problem",
        "1",
    ])
    .status(2);
    assert_eq!(env.ledger_bytes(), before);
}

/// Issue 31, #5, on real logs: every `.json` Inspect log in `$BENCHLEDGER_SHARED_DATA/inspect`
/// that ingests, its samples' texts as `problems --problem` prints them equal to the log's own,
/// read here with serde_json alone (a string input, the first choice's string content, a string
/// target; each cut as the importer cuts it), and its answer on the site's problem page. A
/// developer's check: the logs are other projects' and are not committed.
#[test]
fn every_shared_inspect_logs_samples_are_shown_as_the_log_wrote_them() {
    let Some(root) = std::env::var_os("BENCHLEDGER_SHARED_DATA") else {
        eprintln!("skipped: BENCHLEDGER_SHARED_DATA does not name the shared data directory");
        return;
    };
    let (mut checked, mut texts, mut on_pages) = (0, 0, 0);
    for log in &inspect_logs_under(&std::path::PathBuf::from(root).join("inspect")) {
        let Some((log_texts, log_on_pages)) = a_logs_samples_are_shown_as_it_wrote_them(log) else {
            continue;
        };
        texts += log_texts;
        on_pages += log_on_pages;
        checked += 1;
    }
    assert!(
        checked > 0 && on_pages > 0,
        "{checked} logs, {on_pages} pages"
    );
    eprintln!(
        "{checked} logs, {texts} texts equal to the log's own, {on_pages} found on their \
         problem pages"
    );
}

/// Every `.json` file under `dir`, at any depth, but the `.expected.json` ones; sorted.
fn inspect_logs_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut logs = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "json")
                && !p.to_string_lossy().ends_with(".expected.json")
            {
                logs.push(p);
            }
        }
    }
    logs.sort();
    logs
}

/// The Inspect log `log` ingested into a ledger of its own and its site written: each sample's
/// texts as `problems --problem` prints them equal to the log's own, and found on the sample's
/// problem page where the site wrote one. None if the log does not ingest; else how many texts
/// were checked, and how many of them were found on a page.
fn a_logs_samples_are_shown_as_it_wrote_them(log: &std::path::Path) -> Option<(usize, usize)> {
    let env = Env::init();
    let out = env.run([
        std::ffi::OsStr::new("ingest"),
        "--from".as_ref(),
        "inspect".as_ref(),
        log.as_os_str(),
    ]);
    if out.status != 0 {
        return None;
    }
    let own: Value = serde_json::from_slice(&std::fs::read(log).unwrap()).unwrap();
    let wave = env.run(["waves", "--format", "json"]).ok().json()["waves"][0]["wave"]
        .as_str()
        .unwrap()
        .to_string();
    let site = env.path().join("site");
    env.run([
        std::ffi::OsStr::new("site"),
        "--out".as_ref(),
        site.as_os_str(),
    ])
    .ok();
    let (mut texts, mut on_pages) = (0, 0);
    for s in own["samples"].as_array().into_iter().flatten() {
        let id = match &s["id"] {
            Value::String(x) => x.clone(),
            x => x.to_string(),
        };
        let j = env
            .run(["problems", &wave, "--problem", &id, "--format", "json"])
            .ok()
            .json();
        let epoch = s["epoch"].as_u64().unwrap_or(1);
        let a = j["attempts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["trial"].as_u64() == Some(epoch))
            .unwrap_or_else(|| panic!("{}: sample {id} epoch {epoch}: {j}", log.display()));
        let file = site.join(format!("waves/{wave}/problems/{id}.html"));
        let page = std::fs::read_to_string(&file).unwrap_or_default();
        for (name, text) in sample_texts(s) {
            let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
                continue;
            };
            let text = cut_as_the_importer_cuts(&text);
            assert_eq!(
                a[name],
                text.as_str(),
                "{}: sample {id} {name}",
                log.display()
            );
            texts += 1;
            if !page.is_empty() {
                let escaped = text
                    .replace('&', "&amp;")
                    .replace('<', "&lt;")
                    .replace('>', "&gt;")
                    .replace('"', "&quot;");
                assert!(
                    page.contains(&format!("<pre class=\"sample\">{escaped}</pre>")),
                    "{}: sample {id} {name}: {escaped}",
                    log.display()
                );
                on_pages += 1;
            }
        }
    }
    Some((texts, on_pages))
}

/// `t` cut as the importer cuts a sample's text: its first 4,000 characters, and a line saying
/// how long it ran, if it ran longer.
fn cut_as_the_importer_cuts(t: &str) -> String {
    let n = t.chars().count();
    if n <= 4000 {
        t.to_string()
    } else {
        let kept: String = t.chars().take(4000).collect();
        format!("{kept}\n[cut: the text ran to {n} characters; the first 4000 are kept]")
    }
}

/// An Inspect sample's input, target and answer as the log wrote them, each where it is a
/// string: the answer the output's completion, or else its first choice's message content.
fn sample_texts(s: &Value) -> [(&'static str, Option<String>); 3] {
    let answer = match s["output"]["completion"].as_str().filter(|c| !c.is_empty()) {
        Some(c) => Some(c.to_string()),
        None => message_content(&s["output"]["choices"][0]["message"]["content"]),
    };
    [
        ("input", s["input"].as_str().map(str::to_string)),
        ("target", s["target"].as_str().map(str::to_string)),
        ("answer", answer),
    ]
}

/// A message's content: a string, or its parts' texts one per line.
fn message_content(c: &Value) -> Option<String> {
    match c {
        Value::String(t) => Some(t.clone()),
        Value::Array(parts) => Some(
            parts
                .iter()
                .filter_map(|p| match p["type"].as_str() {
                    Some("text") => p["text"].as_str().map(str::to_string),
                    Some("reasoning") | None => None,
                    Some(kind) => Some(format!("[{kind}]")),
                })
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        _ => None,
    }
}

/// Issue 31, #5: the native formats carry a sample too (`input`, `target`, `answer`,
/// `explanation`, each a string, cut to 4,000 characters): a JSON line and a CSV row, read as
/// written; a text that is not a string is refused naming its field, and nothing is written.
#[test]
fn native_results_carry_their_sample_texts() {
    let env = Env::init();
    let dir = env.path().join("w");
    let manifest = common::write_wave(
        &dir,
        "[wave]\nid = \"native\"\nsuite = \"s\"\nstarted_at = 2026-03-02T09:00:00Z\n\n\
         [wave.accounting]\ninput_tokens_include_cache_reads = false\n\n\
         [[seat]]\nid = \"a\"\nmodel = \"m\"\nprovider = \"p\"\nharness = \"h\"\nresults = \"a.jsonl\"\n\n\
         [[seat]]\nid = \"b\"\nmodel = \"m\"\nprovider = \"p\"\nharness = \"h\"\nresults = \"b.csv\"\n",
        &[
            (
                "a.jsonl",
                "{\"problem\": \"p1\", \"correct\": true, \"input\": \"What is 6 * 7?\", \
                 \"target\": \"42\", \"answer\": \"42\", \"explanation\": \"exact\"}\n\
                 {\"problem\": \"p2\", \"correct\": false, \"answer\": \"\"}\n",
            ),
            (
                "b.csv",
                "problem,correct,input,answer\np1,false,What is 6 * 7?,\"41, I think\"\n",
            ),
        ],
    );
    env.ingest(&[&manifest]);
    let j = env
        .run(["problems", "native", "--problem", "p1", "--format", "json"])
        .ok()
        .json();
    let a = &j["attempts"][0];
    assert_eq!(
        (&a["input"], &a["target"], &a["answer"], &a["explanation"]),
        (
            &Value::from("What is 6 * 7?"),
            &Value::from("42"),
            &Value::from("42"),
            &Value::from("exact")
        ),
        "{j}"
    );
    let b = &j["attempts"][1];
    assert_eq!(b["seat"], "b");
    assert_eq!(b["answer"], "41, I think");
    assert_eq!(b["target"], Value::Null);
    // An empty answer is none: p2 has no texts.
    let j = env
        .run(["problems", "native", "--problem", "p2", "--format", "json"])
        .ok()
        .json();
    assert_eq!(j["attempts"][0]["answer"], Value::Null, "{j}");
    // Not a string: refused, naming the field; the ledger unchanged.
    let before = env.ledger_bytes();
    let bad = common::write_wave(
        &env.path().join("bad"),
        "[wave]\nid = \"bad\"\nsuite = \"s\"\nstarted_at = 2026-03-02T09:00:00Z\n\n\
         [wave.accounting]\ninput_tokens_include_cache_reads = false\n\n\
         [[seat]]\nid = \"a\"\nmodel = \"m\"\nprovider = \"p\"\nharness = \"h\"\nresults = \"a.jsonl\"\n",
        &[(
            "a.jsonl",
            "{\"problem\": \"p1\", \"correct\": true, \"answer\": 42}\n",
        )],
    );
    let out = env
        .run([std::ffi::OsStr::new("ingest"), bad.as_os_str()])
        .status(2);
    assert!(
        out.stderr
            .contains("a.jsonl:1: field `answer`: expected a string, got 42"),
        "{}",
        out.stderr
    );
    assert_eq!(env.ledger_bytes(), before);
}
