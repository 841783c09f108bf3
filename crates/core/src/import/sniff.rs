//! What a file or directory looks like, for an error that says which format to name: a results
//! file given as a wave manifest (`ingest FILE.eval`), a directory given as one (`ingest DIR`),
//! or logs given to the wrong `--from` (a Harbor job to `--from inspect`). Only advice: a guess
//! here never decides how anything is read.
//!
//! A directory is searched (never through a link to a directory, at most `DEPTH` deep and
//! `ENTRIES` entries) for a file one format's own name finds (`result.json` beside
//! `config.json`, `per_instance_stats.json` beside `run_spec.json`, ...); a file, by its own name
//! the same way, else by the keys its first `HEAD` bytes hold.

use std::io::Read;
use std::path::Path;

use super::{FORMATS, Importer, Source};

/// How deep a directory is searched for a file a format's name finds.
const DEPTH: usize = 4;
/// How many entries of a directory tree are looked at, at most.
const ENTRIES: usize = 2000;
/// How much of a file is read to guess its format by its keys.
const HEAD: u64 = 64 * 1024;

/// The formats whose files are found by name alone (not by a bare extension), in the order
/// they are tried.
const NAMED: [&str; 9] = [
    "harbor",
    "terminal-bench",
    "helm",
    "lm-eval",
    "openhands",
    "hal",
    "swe-bench",
    "eee",
    "tau2-bench",
];

fn format(name: &str) -> Option<&'static dyn Importer> {
    FORMATS.iter().copied().find(|i| i.name() == name)
}

/// The format a file or directory looks like, by name; `None` when it looks like none.
pub(crate) fn sniff(src: &dyn Source, path: &Path) -> Option<&'static str> {
    match src.list(path).ok()? {
        Some(entries) => sniff_dir(src, entries),
        None => sniff_file(src, path),
    }
}

fn by_name(src: &dyn Source, path: &Path) -> Option<&'static str> {
    NAMED
        .iter()
        .filter(|n| **n != "tau2-bench")
        .find(|n| format(n).is_some_and(|i| i.finds(src, path)))
        .copied()
}

fn sniff_dir(src: &dyn Source, first: Vec<std::path::PathBuf>) -> Option<&'static str> {
    let mut stack = vec![(first, 1usize)];
    let mut seen = 0usize;
    let mut eval = false;
    while let Some((entries, depth)) = stack.pop() {
        for p in entries {
            seen += 1;
            if seen > ENTRIES {
                return eval.then_some("inspect");
            }
            let is_link = src.is_link(&p);
            match src.list(&p).ok().flatten() {
                Some(inner) if !is_link && depth < DEPTH => stack.push((inner, depth + 1)),
                Some(_) => {}
                None => {
                    if let Some(f) = by_name(src, &p) {
                        return Some(f);
                    }
                    eval |= p.extension().and_then(|e| e.to_str()) == Some("eval");
                }
            }
        }
    }
    eval.then_some("inspect")
}

fn sniff_file(src: &dyn Source, path: &Path) -> Option<&'static str> {
    if let Some(f) = by_name(src, path) {
        return Some(f);
    }
    let mut head = Vec::new();
    src.open(path)
        .ok()?
        .take(HEAD)
        .read_to_end(&mut head)
        .ok()?;
    if head.starts_with(b"PK\x03\x04") {
        return (path.extension().and_then(|e| e.to_str()) == Some("eval")).then_some("inspect");
    }
    let text = String::from_utf8_lossy(&head);
    let start = text.trim_start();
    if !start.starts_with('{') && !start.starts_with('[') {
        return None;
    }
    by_keys(&text)
}

/// The format a JSON text's keys say it is.
fn by_keys(text: &str) -> Option<&'static str> {
    let has = |key: &str| text.contains(&format!("\"{key}\""));
    if has("raw_eval_results") || has("raw_logging_results") {
        Some("hal")
    } else if has("n_total_trials") || (has("trial_name") && has("agent_info")) {
        Some("harbor")
    } else if has("instance_id") && has("train_trial_index") {
        Some("helm")
    } else if has("eval") && has("status") && has("version") && has("task") {
        Some("inspect")
    } else if has("simulations") {
        Some("tau2-bench")
    } else if has("task_id") && has("traj") {
        Some("tau-bench")
    } else if has("group_subtasks")
        || has("n-samples")
        || (has("doc_id") && has("resps"))
        || (has("configs") && has("versions"))
    {
        Some("lm-eval")
    } else if has("schema_version") && has("evaluation_id") {
        Some("eee")
    } else if has("results") && (has("n_resolved") || has("is_resolved")) {
        Some("terminal-bench")
    } else if has("problem") && (has("correct") || has("outcome")) {
        Some("jsonl")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::Memory;

    #[test]
    fn files_and_directories_are_told_by_name_then_by_keys() {
        let src = Memory::new()
            .with("job/result.json", r#"{"n_total_trials": 1}"#)
            .with("job/config.json", "{}")
            .with("job/t__1/result.json", r#"{"trial_name": "t__1"}"#)
            .with("run/per_instance_stats.json", "[]")
            .with("run/run_spec.json", "{}")
            .with("a.eval", b"PK\x03\x04rest".to_vec())
            .with("u.json", r#"{"config": {}, "raw_eval_results": {}}"#)
            .with(
                "log.json",
                r#"{"version": 2, "status": "success", "eval": {"task": "x"}}"#,
            )
            .with("w.toml", "[wave]\n")
            .with("r.jsonl", r#"{"problem": "p", "correct": true}"#);
        assert_eq!(sniff(&src, Path::new("job")), Some("harbor"));
        assert_eq!(sniff(&src, Path::new("job/result.json")), Some("harbor"));
        assert_eq!(sniff(&src, Path::new("run")), Some("helm"));
        assert_eq!(sniff(&src, Path::new("a.eval")), Some("inspect"));
        assert_eq!(sniff(&src, Path::new("u.json")), Some("hal"));
        assert_eq!(sniff(&src, Path::new("log.json")), Some("inspect"));
        assert_eq!(sniff(&src, Path::new("r.jsonl")), Some("jsonl"));
        assert_eq!(sniff(&src, Path::new("w.toml")), None);
        assert_eq!(sniff(&src, Path::new("gone")), None);
    }
}
