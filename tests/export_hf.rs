//! `export --format hf-eval-results --out DIR`: the files parse as YAML and carry the fields
//! Hugging Face documents for `.eval_results/*.yaml` (huggingface/hub-docs,
//! `docs/hub/eval-results.md` and `eval_results.yaml`): a list of entries, each with
//! `dataset.id`, `dataset.task_id` and `value`, and here `date`, `source.url` and `notes`.

mod common;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use common::{Env, examples};
use serde_json::Value;

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn hf_eval_results_are_yaml_entries_with_the_documented_fields_one_file_per_wave_and_seat() {
    let env = Env::init();
    let manifests = examples();
    let refs: Vec<&Path> = manifests.iter().map(PathBuf::as_path).collect();
    env.ingest(&refs);
    let out = env.path().join("hf");
    env.run([
        OsStr::new("export"),
        OsStr::new("--format"),
        OsStr::new("hf-eval-results"),
        OsStr::new("--out"),
        out.as_os_str(),
        OsStr::new("--wave"),
        OsStr::new("rca-wave-2"),
        OsStr::new("--hf-dataset"),
        OsStr::new("grafana-incident-rca=acme/grafana-rca:rca"),
        OsStr::new("--source-url"),
        OsStr::new("https://example.org/ledger"),
    ])
    .ok();
    let show = env
        .run(["show", "rca-wave-2", "--format", "json"])
        .ok()
        .json();
    let seats = show["seats"].as_array().unwrap();
    let written = files(&out);
    assert_eq!(written.len(), seats.len(), "{written:?}");
    for s in seats {
        let (provider, model, seat) = (
            s["provider"].as_str().unwrap(),
            s["model"].as_str().unwrap(),
            s["seat"].as_str().unwrap(),
        );
        let path = out
            .join(provider)
            .join(model)
            .join(".eval_results")
            .join(format!("rca-wave-2_{seat}.yaml"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let entries: Value = serde_yaml_ng::from_str(&text).unwrap();
        let entries = entries.as_array().expect("a YAML list of entries");
        assert_eq!(entries.len(), 1);
        let e = &entries[0];
        assert_eq!(e["dataset"]["id"], "acme/grafana-rca");
        assert_eq!(e["dataset"]["task_id"], "rca");
        assert_eq!(e["value"], s["accuracy"], "{seat}");
        assert_eq!(e["date"], "2026-02-24T09:00:00Z");
        assert_eq!(e["source"]["url"], "https://example.org/ledger");
        let notes = e["notes"].as_str().unwrap();
        assert!(notes.contains(s["harness"].as_str().unwrap()), "{notes}");
        assert!(notes.contains("6 parallel sessions"), "{notes}");
    }
}

#[test]
fn an_hf_dataset_flag_that_names_no_exported_suite_or_is_malformed_is_refused_and_writes_nothing() {
    let env = Env::init();
    env.ingest(&[&examples()[0]]);
    let out = env.path().join("hf");
    for (flag, says) in [
        ("nosuch=a/b", "no exported wave is of"),
        (
            "grafana-incident-rca=just-a-name",
            "expected SUITE=OWNER/NAME",
        ),
    ] {
        let r = env
            .run([
                OsStr::new("export"),
                OsStr::new("--format"),
                OsStr::new("hf-eval-results"),
                OsStr::new("--out"),
                out.as_os_str(),
                OsStr::new("--hf-dataset"),
                OsStr::new(flag),
            ])
            .status(2);
        assert!(r.stderr.contains(says), "{flag}: {}", r.stderr);
        assert!(!out.exists());
    }
}
