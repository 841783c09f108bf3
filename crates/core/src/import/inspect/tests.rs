//! The `inspect` importer on logs held in memory: the mapping of each field, the scorer
//! chosen, the whole-log checks, and both containers (`.json`, `.eval` with its members in
//! each compression inspect_ai writes).

use std::io::Write;
use std::path::Path;

use serde_json::{Value, json};

use super::*;
use crate::import::Memory;

/// A `.json` log of `samples` for `model`, written by inspect_ai `version`.
fn log(version: &str, model: &str, samples: Value) -> Value {
    json!({
        "version": 2, "status": "success",
        "eval": {"task": "t", "created": "2026-01-01T00:00:00Z", "model": model,
                 "packages": {"inspect_ai": version},
                 "scorers": [{"name": "match"}]},
        "results": {"scores": [{"name": "match", "scorer": "match"}]},
        "samples": samples
    })
}

fn sample(id: Value, epoch: u64, value: Value) -> Value {
    json!({"id": id, "epoch": epoch, "scores": {"match": {"value": value}},
           "model_usage": {"openai/gpt-4o": {"input_tokens": 10, "output_tokens": 2}},
           "total_time": 1.5, "working_time": 1.0, "events": []})
}

fn read_bytes(bytes: Vec<u8>, scorer: Option<&str>) -> Result<Imported> {
    let src = Memory::new().with("l", bytes);
    Inspect.read(&mut Input {
        src: &src,
        path: Path::new("l"),
        options: &Options {
            scorer: scorer.map(String::from),
            ..Options::default()
        },
        progress: &mut Quiet,
    })
}

fn read(v: &Value) -> Result<Imported> {
    read_bytes(serde_json::to_vec(v).unwrap(), None)
}

fn err(v: &Value) -> String {
    read(v).unwrap_err().to_string()
}

fn zip_of(members: &[(&str, &str)], method: zip::CompressionMethod) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().compression_method(method);
    for (name, text) in members {
        w.start_file(*name, options).unwrap();
        w.write_all(text.as_bytes()).unwrap();
    }
    w.finish().unwrap().into_inner()
}

#[test]
fn score_values_read_as_inspect_ai_reads_them() {
    for (v, want) in [
        (json!("C"), (true, 1.0)),
        (json!("I"), (false, 0.0)),
        (json!("P"), (false, 0.5)),
        (json!("N"), (false, 0.0)),
        (json!(true), (true, 1.0)),
        (json!(false), (false, 0.0)),
        (json!(1), (true, 1.0)),
        (json!(0.75), (false, 0.75)),
        (json!("yes"), (true, 1.0)),
        (json!("No"), (false, 0.0)),
        (json!("0.25"), (false, 0.25)),
    ] {
        assert_eq!(verdict(&v), Ok(want), "{v}");
    }
    for (v, says) in [
        (json!("X"), "is none of C, I, P, N"),
        (json!(7), "the value 7 is outside 0 to 1"),
        (json!(-0.5), "outside 0 to 1"),
        (json!("nan"), "is none of"),
        (json!(null), "no value"),
        (json!([1]), "a list"),
    ] {
        let e = verdict(&v).unwrap_err();
        assert!(e.contains(says), "{v}: {e}");
    }
}

#[test]
fn each_sample_and_epoch_is_an_attempt() {
    let mut s2 = sample(json!("q"), 2, json!("P"));
    s2["model_usage"] = json!({
        "openai/gpt-4o": {"input_tokens": 100, "output_tokens": 20,
                          "input_tokens_cache_read": 60, "input_tokens_cache_write": 5,
                          "total_cost": 0.25, "reasoning_tokens": 7},
        "anthropic/claude-grader": {"input_tokens": 999, "output_tokens": 999}
    });
    s2["events"] = json!([
        {"event": "tool", "function": "bash", "error": null},
        {"event": "tool", "function": "bash", "error": {"type": "timeout", "message": "m"}}
    ]);
    s2["limit"] = json!({"type": "message", "limit": 30});
    let got = read(&log(
        "0.3.200",
        "openai/gpt-4o",
        json!([sample(json!(7), 1, json!("C")), s2]),
    ))
    .unwrap();
    assert_eq!(got.model.as_deref(), Some("openai/gpt-4o"));
    assert_eq!(
        got.accounting.map(|a| a.input_tokens_include_cache_reads),
        Some(false)
    );
    let a = &got.records[0].attempt;
    assert_eq!((a.problem.as_str(), a.trial, a.correct), ("7", 1, true));
    assert_eq!(
        (a.outcome, a.wall_s, a.working_s),
        (Some(1.0), Some(1.5), Some(1.0))
    );
    assert_eq!(
        (a.steps, a.errors, a.trace.as_ref()),
        (Some(0), Some(0), None)
    );
    let b = &got.records[1].attempt;
    assert_eq!(got.records[1].at, Origin::Record("sample q epoch 2".into()));
    assert_eq!((b.correct, b.outcome), (false, Some(0.5)));
    // The grader's usage is not the seat's.
    assert_eq!(
        (
            b.input_tokens,
            b.output_tokens,
            b.input_tokens_cache_read,
            b.input_tokens_cache_write,
            b.cost_usd
        ),
        (Some(100), Some(20), Some(60), Some(5), Some(0.25))
    );
    assert_eq!((b.steps, b.errors), (Some(2), Some(1)));
    assert_eq!(b.end_reason.as_deref(), Some("message limit"));
    assert!(!b.infra_error);
}

#[test]
fn a_sample_that_errored_is_an_infrastructure_failure() {
    let mut s = sample(json!(1), 1, json!("C"));
    s["error"] = json!({"message": "boom", "traceback":
        "Traceback (most recent call last):\n  File \"x\"\nanthropic.APIStatusError: overloaded\n"});
    // Unscored, as inspect_ai leaves a failed sample.
    s.as_object_mut().unwrap().remove("scores");
    let ok = sample(json!(2), 1, json!("I"));
    let got = read(&log("0.3.200", "openai/gpt-4o", json!([s, ok]))).unwrap();
    let a = &got.records[0].attempt;
    assert!(a.infra_error && !a.correct);
    assert_eq!(a.outcome, None);
    assert_eq!(
        a.end_reason.as_deref(),
        Some("error: anthropic.APIStatusError")
    );
}

#[test]
fn the_log_s_first_scorer_decides_unless_the_seat_names_one() {
    let mut s = sample(json!(1), 1, json!("I"));
    s["scores"] = json!({"match": {"value": "I"}, "judge": {"value": {"acc": 1, "style": 0}}});
    let mut l = log("0.3.200", "openai/gpt-4o", json!([s]));
    let correct = |l: &Value, scorer: Option<&str>| {
        read_bytes(serde_json::to_vec(l).unwrap(), scorer).map(|i| i.records[0].attempt.correct)
    };
    assert!(!correct(&l, None).unwrap());
    assert!(correct(&l, Some("judge/acc")).unwrap());
    assert!(!correct(&l, Some("judge/style")).unwrap());
    // results.scores names a key of a dict-valued scorer: that key, by default.
    l["results"]["scores"] = json!([{"name": "acc", "scorer": "judge"}]);
    assert!(correct(&l, None).unwrap());
    // No results: eval.scorers, then the sample's own order.
    l.as_object_mut().unwrap().remove("results");
    assert!(!correct(&l, None).unwrap());
    l["eval"].as_object_mut().unwrap().remove("scorers");
    // The sample's first as written (serde_json writes keys in order: judge, match).
    let e = correct(&l, None).unwrap_err().to_string();
    assert!(
        e.contains("scorer \"judge\" cannot be read as a verdict"),
        "{e}"
    );
    let e = correct(&l, Some("judge")).unwrap_err().to_string();
    assert_eq!(
        e,
        "l: sample 1 epoch 1: field `scores.judge`: scorer \"judge\" cannot be read as a \
         verdict: its value is a dict of acc, style; choose one with scorer = \"judge/KEY\""
    );
    let e = correct(&l, Some("match/acc")).unwrap_err().to_string();
    assert!(
        e.contains("its value is the string \"I\", not a dict with a key \"acc\""),
        "{e}"
    );
}

#[test]
fn a_run_that_did_not_succeed_or_holds_nothing_is_refused() {
    let mut l = log(
        "0.3.200",
        "openai/gpt-4o",
        json!([sample(json!(1), 1, json!("C"))]),
    );
    l["status"] = json!("error");
    l["error"] = json!({"message": "RuntimeError: too many samples failed\nmore", "traceback": ""});
    assert_eq!(
        err(&l),
        "l: field `status`: the run stopped on an error (status \"error\") (its error: \
         RuntimeError: too many samples failed): its samples are not the whole run, so they \
         are not imported as a seat's results; rerun or retry it (`inspect eval-retry`) and \
         import the log of the finished run"
    );
    let mut l = log("0.3.200", "openai/gpt-4o", json!([]));
    assert!(err(&l).starts_with("l: field `samples`: the log holds no samples"));
    l["eval"].as_object_mut().unwrap().remove("model");
    assert_eq!(
        err(&l),
        "l: field `eval.model`: missing: the log does not name the model it evaluated"
    );
    let mut unscored = sample(json!(1), 1, json!("C"));
    unscored.as_object_mut().unwrap().remove("scores");
    let e = err(&log("0.3.200", "openai/gpt-4o", json!([unscored])));
    assert!(
        e.starts_with("l: field `scores`: no sample has a score"),
        "{e}"
    );
    let mut running = sample(json!(1), 1, json!("C"));
    running["completed"] = json!(false);
    let e = err(&log("0.3.200", "openai/gpt-4o", json!([running])));
    assert!(
        e.starts_with("l: sample 1 epoch 1: field `completed`"),
        "{e}"
    );
    let e = err(&log(
        "0.3.200",
        "openai/gpt-4o",
        json!([sample(json!(1.5), 1, json!("C"))]),
    ));
    assert!(
        e.starts_with("l: samples[0]: field `id`: expected the sample's id"),
        "{e}"
    );
    let e = err(&log(
        "0.3.200",
        "openai/gpt-4o",
        json!([sample(json!(1), 0, json!("C"))]),
    ));
    assert!(
        e.starts_with("l: sample 1: field `epoch`: expected the epoch"),
        "{e}"
    );
}

#[test]
fn samples_must_add_up_to_the_log_s_own_totals() {
    let mut l = log(
        "0.3.200",
        "openai/gpt-4o",
        json!([
            sample(json!(1), 1, json!("C")),
            sample(json!(2), 1, json!("C"))
        ]),
    );
    l["stats"] =
        json!({"model_usage": {"openai/gpt-4o": {"input_tokens": 20, "output_tokens": 4}}});
    assert_eq!(read(&l).unwrap().records.len(), 2);
    l["stats"]["model_usage"]["openai/gpt-4o"]["output_tokens"] = json!(5);
    assert_eq!(
        err(&l),
        "l: field `stats.model_usage.openai/gpt-4o.output_tokens`: the log counts 5 \
         output_tokens for openai/gpt-4o over the run, but its samples add up to 4: a log \
         whose attempts do not add up to its own totals is not imported (inspect_ai before \
         0.3.42 kept usage for the whole run only, not per sample)"
    );
}

#[test]
fn a_bare_nan_is_named_where_it_stands() {
    let text = serde_json::to_string_pretty(&log(
        "0.3.200",
        "openai/gpt-4o",
        json!([sample(json!(1), 1, json!(0.5))]),
    ))
    .unwrap()
    .replace("0.5", "NaN");
    let line = text.lines().position(|l| l.contains("NaN")).unwrap() + 1;
    let e = read_bytes(text.into_bytes(), None).unwrap_err().to_string();
    assert!(
        e.starts_with(&format!("l:{line}: samples[0]: a bare NaN at column")),
        "{e}"
    );
    // The same in an archive's member.
    let member = "[{\"id\": 1, \"epoch\": 1, \"total_time\": -Infinity}]";
    let header = serde_json::to_string(&log("0.3.285", "openai/gpt-4o", json!(null))).unwrap();
    let bytes = zip_of(
        &[
            ("header.json", &header),
            ("summaries.json", member),
            ("samples/1_epoch_1.json", "{}"),
        ],
        zip::CompressionMethod::Zstd,
    );
    let e = read_bytes(bytes, None).unwrap_err().to_string();
    assert!(
        e.starts_with("l:1: member summaries.json: [0]: a bare -Infinity at column"),
        "{e}"
    );
}

#[test]
fn an_archive_is_read_from_its_summaries_and_sample_members() {
    let full = sample(json!("s1"), 2, json!("C"));
    let mut summary = full.clone();
    let o = summary.as_object_mut().unwrap();
    o.remove("events");
    o.remove("model_usage");
    let header = serde_json::to_string(&log("0.3.95", "openai/gpt-4o", json!(null))).unwrap();
    let summaries = serde_json::to_string(&json!([summary])).unwrap();
    let member = serde_json::to_string(&full).unwrap();
    for method in [
        zip::CompressionMethod::Stored,
        zip::CompressionMethod::Deflated,
        zip::CompressionMethod::Zstd,
    ] {
        let bytes = zip_of(
            &[
                ("header.json", &header),
                ("summaries.json", &summaries),
                ("samples/s1_epoch_2.json", &member),
            ],
            method,
        );
        let got = read_bytes(bytes, None).unwrap();
        let a = &got.records[0].attempt;
        // Usage from the member, where this old summary lacks it; steps from its events.
        assert_eq!((a.input_tokens, a.steps), (Some(10), Some(0)), "{method:?}");
        assert_eq!(
            got.accounting.map(|s| s.input_tokens_include_cache_reads),
            Some(true)
        );
    }
    // A member holding another sample than its name says.
    let other = serde_json::to_string(&sample(json!("s9"), 2, json!("C"))).unwrap();
    let bytes = zip_of(
        &[
            ("header.json", &header),
            ("summaries.json", &summaries),
            ("samples/s1_epoch_2.json", &other),
        ],
        zip::CompressionMethod::Deflated,
    );
    assert_eq!(
        read_bytes(bytes, None).unwrap_err().to_string(),
        "l: member samples/s1_epoch_2.json: the sample member holds another sample than its \
         name says"
    );
    // An eval still running has written its journal but no header.
    let bytes = zip_of(
        &[
            ("_journal/start.json", "{}"),
            ("samples/s1_epoch_2.json", &member),
        ],
        zip::CompressionMethod::Zstd,
    );
    let e = read_bytes(bytes, None).unwrap_err().to_string();
    assert!(
        e.starts_with("l: the log has no header.json: the eval was still running"),
        "{e}"
    );
    let e = read_bytes(b"PK\x03\x04 not really".to_vec(), None)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("l: not a readable .eval archive (a ZIP file)"),
        "{e}"
    );
}

#[test]
fn a_member_compressed_another_way_is_named() {
    let header = serde_json::to_string(&log("0.3.200", "openai/gpt-4o", json!(null))).unwrap();
    let mut bytes = zip_of(&[("header.json", &header)], zip::CompressionMethod::Stored);
    // Say bzip2 (method 12), in the local and the central header.
    for (sig, at) in [(b"PK\x03\x04", 8), (b"PK\x01\x02", 10)] {
        let pos = bytes.windows(4).position(|w| w == sig).unwrap();
        bytes[pos + at] = 12;
    }
    let e = read_bytes(bytes, None).unwrap_err().to_string();
    assert!(e.starts_with("l: member header.json: "), "{e}");
    assert!(
        e.contains("benchledger reads members that are stored, deflated or zstd-compressed"),
        "{e}"
    );
}

/// An Inspect log with `"status": null` was accepted, though a log must say its run
/// succeeded: a null or missing status is refused as any other that is not `success` is, in a
/// `.json` document (whether it gives its status before or after its samples) and in an
/// `.eval` archive's header.
#[test]
fn an_inspect_log_with_status_null_or_missing_is_refused() {
    const REFUSED: &str = "l: field `status`: the run does not say it succeeded (status null or \
                           missing): its samples are not the whole run, so they are not imported \
                           as a seat's results; rerun or retry it (`inspect eval-retry`) and \
                           import the log of the finished run";
    let good = log(
        "0.3.200",
        "openai/gpt-4o",
        json!([sample(json!(1), 1, json!("C"))]),
    );
    assert!(read(&good).is_ok());
    let mut null = good.clone();
    null["status"] = Value::Null;
    let mut missing = good.clone();
    missing.as_object_mut().unwrap().remove("status");
    // As serde_json writes them, `samples` before `status`.
    assert_eq!(err(&null), REFUSED);
    assert_eq!(err(&missing), REFUSED);
    // As inspect_ai writes it, `status` first.
    let text = serde_json::to_string(&missing).unwrap();
    let first = format!("{{\"status\": null, {}", text.strip_prefix('{').unwrap());
    assert_eq!(
        read_bytes(first.into_bytes(), None)
            .unwrap_err()
            .to_string(),
        REFUSED
    );
    // An archive's header says it whole: `ingest --from` refuses it too.
    let summaries = serde_json::to_string(&json!([sample(json!(1), 1, json!("C"))])).unwrap();
    for l in [&null, &missing] {
        let mut header = l.clone();
        header.as_object_mut().unwrap().remove("samples");
        let header = serde_json::to_string(&header).unwrap();
        let bytes = zip_of(
            &[
                ("header.json", &header),
                ("summaries.json", &summaries),
                ("samples/1_epoch_1.json", "{}"),
            ],
            zip::CompressionMethod::Zstd,
        );
        assert_eq!(
            read_bytes(bytes.clone(), None).unwrap_err().to_string(),
            REFUSED
        );
        let src = Memory::new().with("l", bytes);
        assert_eq!(head(&src, Path::new("l")).unwrap_err().to_string(), REFUSED);
    }
}

#[test]
fn the_header_alone_is_read_without_the_samples() {
    let l = log("0.3.200", "openai/gpt-4o", json!([]));
    let text = serde_json::to_string(&l)
        .unwrap()
        .replace("\"samples\":[]", "\"samples\":[{oops");
    let src = Memory::new().with("l", text.clone());
    let h = head(&src, Path::new("l")).unwrap();
    assert_eq!(h.eval.unwrap().model.as_deref(), Some("openai/gpt-4o"));
    assert!(read_bytes(text.into_bytes(), None).is_err());
    let mut none = log("0.3.200", "openai/gpt-4o", json!([]));
    none.as_object_mut().unwrap().remove("samples");
    let src = Memory::new().with("l", serde_json::to_vec(&none).unwrap());
    let e = head(&src, Path::new("l")).unwrap_err().to_string();
    assert!(
        e.starts_with("l: field `samples`: the log holds no samples"),
        "{e}"
    );
}

#[test]
fn progress_is_told_the_total_and_each_sample() {
    #[derive(Default)]
    struct Count(Vec<u64>, u64);
    impl Progress for Count {
        fn total(&mut self, n: u64) {
            self.0.push(n);
        }
        fn advance(&mut self, n: u64) {
            self.1 += n;
        }
    }
    let mut l = log(
        "0.3.200",
        "openai/gpt-4o",
        json!([
            sample(json!(1), 1, json!("C")),
            sample(json!(1), 2, json!("C"))
        ]),
    );
    l["results"]["total_samples"] = json!(2);
    let src = Memory::new().with("l", serde_json::to_vec(&l).unwrap());
    let mut count = Count::default();
    Inspect
        .read(&mut Input {
            src: &src,
            path: Path::new("l"),
            options: &Options::default(),
            progress: &mut count,
        })
        .unwrap();
    assert_eq!((count.0, count.1), (vec![2], 2));
}

#[test]
fn the_summaries_alone_give_every_figure_but_the_trace() {
    let mut full = sample(json!("s1"), 1, json!("C"));
    full["events"] = json!([{"event": "tool", "function": "bash", "error": {"type": "timeout"}}]);
    let mut summary = full.clone();
    summary.as_object_mut().unwrap().remove("events");
    let header = serde_json::to_string(&log("0.3.285", "openai/gpt-4o", json!(null))).unwrap();
    let summaries = serde_json::to_string(&json!([summary])).unwrap();
    // A member that cannot be parsed: the summaries path never opens it.
    let bytes = zip_of(
        &[
            ("header.json", &header),
            ("summaries.json", &summaries),
            ("samples/s1_epoch_1.json", "{not json"),
        ],
        zip::CompressionMethod::Zstd,
    );
    let src = Memory::new().with("l", bytes.clone());
    let got = InspectSummaries
        .read(&mut Input {
            src: &src,
            path: Path::new("l"),
            options: &Options::default(),
            progress: &mut Quiet,
        })
        .unwrap();
    let a = &got.records[0].attempt;
    assert_eq!(
        (a.correct, a.input_tokens, a.wall_s),
        (true, Some(10), Some(1.5))
    );
    assert_eq!((a.steps, a.errors, a.trace.as_ref()), (None, None, None));
    let e = read_bytes(bytes, None).unwrap_err().to_string();
    assert!(
        e.starts_with("l:1: member samples/s1_epoch_1.json: not the JSON"),
        "{e}"
    );
    // A .json log read for its figures skips the events.
    let got = InspectSummaries
        .read(&mut Input {
            src: &Memory::new().with(
                "l",
                serde_json::to_vec(&log("0.3.285", "openai/gpt-4o", json!([full]))).unwrap(),
            ),
            path: Path::new("l"),
            options: &Options::default(),
            progress: &mut Quiet,
        })
        .unwrap();
    assert_eq!(got.records[0].attempt.steps, None);
}

#[test]
fn a_sample_without_a_score_is_named_even_before_the_scorer_is_known() {
    let mut unscored = sample(json!(1), 1, json!("C"));
    unscored.as_object_mut().unwrap().remove("scores");
    let mut bad = sample(json!(3), 1, json!("C"));
    bad["total_time"] = json!(-1);
    for later in [sample(json!(2), 1, json!("C")), bad] {
        let l = log("0.3.200", "openai/gpt-4o", json!([unscored.clone(), later]));
        assert_eq!(
            err(&l),
            "l: sample 1 epoch 1: field `scores`: no score from scorer \"match\", the log's \
             first, and no error to say why"
        );
    }
}
