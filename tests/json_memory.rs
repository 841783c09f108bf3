//! Issue 34.3: whole-file JSON formats were read as a document, which grows about twelve times
//! the file in memory (a 100 MB HELM `per_instance_stats.json` reached 1.2 GB; one of 250 MB
//! tried to allocate 4 GiB and aborted). HELM's per-instance stats are streamed now, an entry
//! at a time, and the files beside a format's results (HELM's `run_spec.json`, Harbor's job
//! and trial `result.json` and `config.json`, lm-eval's `results_*.json`) are streamed with
//! what the importer does not read skipped unread. The heap this process holds at its highest
//! while an importer reads a 100 MB file of each kind is measured here, by an allocator that
//! counts (`tests/common/counting.rs`), and must stay under twice the file's size plus a
//! constant (the bound the README's limits table states).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use benchledger_core::import::{FORMATS, Imported, Input, Options, Quiet, ReadSeek, Source};

#[path = "common/counting.rs"]
mod counting;

/// One measurement at a time: the counts are the whole process's, and tests run on threads.
static ALONE: Mutex<()> = Mutex::new(());

const MIB: usize = 1024 * 1024;

/// Files on disk, opened as streams.
struct Disk;

impl Source for Disk {
    fn is_file(&self, path: &Path) -> bool {
        path.is_file()
    }
    fn read_text(&self, path: &Path) -> std::io::Result<String> {
        std::fs::read_to_string(path)
    }
    fn open_lines(&self, path: &Path) -> std::io::Result<Box<dyn std::io::BufRead + '_>> {
        Ok(Box::new(std::io::BufReader::new(std::fs::File::open(
            path,
        )?)))
    }
    fn open(&self, path: &Path) -> std::io::Result<Box<dyn ReadSeek + '_>> {
        Ok(Box::new(std::fs::File::open(path)?))
    }
    fn list(&self, path: &Path) -> std::io::Result<Option<Vec<PathBuf>>> {
        if !path.is_dir() {
            return Ok(None);
        }
        std::fs::read_dir(path)?
            .map(|e| e.map(|e| e.path()))
            .collect::<std::io::Result<_>>()
            .map(Some)
    }
}

/// What `format`'s importer makes of the file at `path`, and the heap's peak while it read.
fn read(format: &str, path: &Path, options: &Options) -> (Imported, usize) {
    let importer = FORMATS.iter().find(|i| i.name() == format).unwrap();
    counting::peak_during(|| {
        importer
            .read(&mut Input {
                src: &Disk,
                path,
                options,
                progress: &mut Quiet,
            })
            .unwrap()
    })
}

/// Writes `head`, then `item` (its `{i}` numbered) as many times as makes the file at least
/// `size` bytes long, separated by commas, then `tail`; returns the file's size.
fn big_json(path: &Path, head: &str, item: &str, tail: &str, size: usize) -> usize {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    out.write_all(head.as_bytes()).unwrap();
    let mut written = head.len() + tail.len();
    let mut i = 0usize;
    while written < size {
        let one = format!(
            "{}{}",
            if i == 0 { "" } else { ", " },
            item.replace("{i}", &i.to_string())
        );
        out.write_all(one.as_bytes()).unwrap();
        written += one.len();
        i += 1;
    }
    out.write_all(tail.as_bytes()).unwrap();
    out.flush().unwrap();
    written
}

/// The bound: twice the file, plus a constant for the buffers.
fn within_bound(what: &str, size: usize, peak: usize) {
    eprintln!(
        "{what}, a file of {} MiB: the heap's peak {} KiB",
        size / MIB,
        peak / 1024
    );
    assert!(
        peak < 2 * size + 16 * MIB,
        "reading {what} of {} MiB held {} MiB at its peak",
        size / MIB,
        peak / MIB
    );
}

/// Writes a HELM run directory whose per-instance stats are at least `size` bytes, in HELM's
/// own shape and indentation; returns the file's path and size.
fn helm_run(dir: &Path, size: usize) -> (std::path::PathBuf, usize) {
    std::fs::write(
        dir.join("run_spec.json"),
        r#"{"name": "arith:digits=2,model=org_tiny", "adapter_spec": {"model": "org/tiny"}}"#,
    )
    .unwrap();
    let path = dir.join("per_instance_stats.json");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let stat = |name: &str, x: f64| {
        format!(
            "   {{\n    \"name\": {{\n     \"name\": \"{name}\",\n     \"split\": \"test\"\n    }},\n    \
             \"count\": 1,\n    \"sum\": {x},\n    \"sum_squared\": {},\n    \"min\": {x},\n    \
             \"max\": {x},\n    \"mean\": {x},\n    \"variance\": 0.0,\n    \"stddev\": 0.0\n   }}",
            x * x
        )
    };
    out.write_all(b"[\n").unwrap();
    let mut written = 2;
    let mut i = 0usize;
    while written < size {
        let entry = format!(
            "{} {{\n  \"instance_id\": \"id{i}\",\n  \"train_trial_index\": 0,\n  \"stats\": [\n{},\n{},\n{},\n{}\n  ]\n }}",
            if i == 0 { "" } else { ",\n" },
            stat("exact_match", (i % 2) as f64),
            stat("num_prompt_tokens", 100.0),
            stat("num_completion_tokens", 2.0),
            stat("inference_runtime", 0.5),
        );
        out.write_all(entry.as_bytes()).unwrap();
        written += entry.len();
        i += 1;
    }
    out.write_all(b"\n]\n").unwrap();
    out.flush().unwrap();
    (path, written + 3)
}

#[test]
fn a_100_mb_helm_file_is_read_in_under_twice_its_size() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let (path, size) = helm_run(dir.path(), 100 * MIB);
    let (imported, peak) = read("helm", &path, &Options::default());
    let attempts = imported.records.len();
    assert!(attempts > 50_000, "{attempts}");
    assert_eq!(
        imported
            .records
            .iter()
            .filter(|r| r.attempt.correct)
            .count(),
        attempts / 2
    );
    drop(imported);
    within_bound(&format!("HELM's stats of {attempts} instances"), size, peak);
}

#[test]
fn a_100_mb_helm_run_spec_is_read_in_under_twice_its_size() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = helm_run(dir.path(), 64 * 1024);
    // What the importer does not read, inside what it does and beside it.
    let size = big_json(
        &dir.path().join("run_spec.json"),
        r#"{"name": "arith:digits=2,model=org_tiny", "adapter_spec": {"model": "org/tiny",
            "instructions": "Answer.", "stop_sequences": ["#,
        r#""stop {i}""#,
        r#"]}, "metric_specs": [], "groups": ["arith"]}"#,
        100 * MIB,
    );
    let (imported, peak) = read("helm", &path, &Options::default());
    assert_eq!(imported.model.as_deref(), Some("org/tiny"));
    assert_eq!(imported.about.suite.as_deref(), Some("arith:digits=2"));
    drop(imported);
    within_bound("HELM's run_spec.json", size, peak);
}

/// A Harbor job of one trial, its job `result.json`, `config.json` or trial `result.json`
/// (`big`) holding `size` bytes the importer does not read; returns the job's `result.json`
/// and the big file's size.
fn harbor_job(dir: &Path, big: &str, size: usize) -> (PathBuf, usize) {
    let trial = dir.join("hello__a1");
    std::fs::create_dir_all(&trial).unwrap();
    let files = [
        (
            "result.json",
            r#"{"id": "j", "started_at": "2025-01-01T00:00:00Z", "n_total_trials": 1,
                "stats": {"evals": {"terminus__m__tb": {"reward_stats": {"reward": {"1.0": ["#,
            r#""hello__{i}""#,
            "]}}}}}}",
        ),
        (
            "config.json",
            r#"{"job_name": "j", "n_concurrent_trials": 4, "timeout_multiplier": 1.5,
                "datasets": [{"name": "tb", "task_names": ["#,
            r#""task-{i}""#,
            "]}]}",
        ),
        (
            "hello__a1/result.json",
            r#"{"task_name": "hello", "trial_name": "hello__a1", "source": "tb",
                "started_at": "2025-01-01T00:00:01Z", "finished_at": "2025-01-01T00:01:01Z",
                "agent_info": {"name": "terminus", "version": "1",
                               "model_info": {"name": "m", "provider": "p"}},
                "verifier_result": {"rewards": {"reward": 1.0}},
                "agent_result": {"n_input_tokens": 10, "n_cache_tokens": 4,
                                 "n_output_tokens": 2, "cost_usd": 0.5,
                                 "rollout_details": [{"completion_token_ids": ["#,
            "{i}",
            "]}]}}",
        ),
    ];
    let mut big_size = 0;
    for (name, head, item, tail) in files {
        let n = big_json(
            &dir.join(name),
            head,
            item,
            tail,
            if name == big { size } else { 0 },
        );
        if name == big {
            big_size = n;
        }
    }
    (dir.join("result.json"), big_size)
}

#[test]
fn a_100_mb_harbor_result_or_config_is_read_in_under_twice_its_size() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    for big in ["result.json", "config.json", "hello__a1/result.json"] {
        let dir = tempfile::tempdir().unwrap();
        let (path, size) = harbor_job(dir.path(), big, 100 * MIB);
        let (imported, peak) = read("harbor", &path, &Options::default());
        assert_eq!(imported.records.len(), 1);
        let a = &imported.records[0].attempt;
        assert!(a.correct);
        assert_eq!(
            (a.input_tokens, a.input_tokens_cache_read, a.output_tokens),
            (Some(10), Some(4), Some(2))
        );
        assert_eq!(imported.about.parallel_sessions, Some(4));
        assert_eq!(imported.about.timeout_multiplier, Some(1.5));
        assert_eq!(
            imported.about.started_at.as_deref(),
            Some("2025-01-01T00:00:00Z")
        );
        drop(imported);
        within_bound(&format!("Harbor's {big}"), size, peak);
    }
}

#[test]
fn a_100_mb_lm_eval_results_file_is_read_in_under_twice_its_size() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let date = "2025-01-02T03-04-05.000006";
    let size = big_json(
        &dir.path().join(format!("results_{date}.json")),
        r#"{"results": {"arith": {"alias": "arith", "exact_match,none": 0.5}},
            "configs": {"arith": {"task": "arith", "metric_list": [{"metric": "exact_match",
            "aggregation": "mean", "higher_is_better": true}], "fewshot_samples": ["#,
        r#"{"question": "What is {i} + 0?", "answer": "{i}"}"#,
        r#"]}}, "n-samples": {"arith": {"original": 2, "effective": 2}},
            "config": {"model_args": "pretrained=org/tiny"}, "model_name": "org/tiny",
            "date": 1735787045.0, "lm_eval_version": "0.4.8"}"#,
        100 * MIB,
    );
    let samples = dir.path().join(format!("samples_arith_{date}.jsonl"));
    std::fs::write(
        &samples,
        "{\"doc_id\": 0, \"filter\": \"none\", \"exact_match\": 1.0}\n\
         {\"doc_id\": 1, \"filter\": \"none\", \"exact_match\": 0.0}\n",
    )
    .unwrap();
    let (imported, peak) = read("lm-eval", &samples, &Options::default());
    assert_eq!(imported.records.len(), 2);
    assert_eq!(imported.model.as_deref(), Some("org/tiny"));
    assert_eq!(imported.about.suite_problems, Some(2));
    drop(imported);
    within_bound("lm-eval's results file", size, peak);
}
