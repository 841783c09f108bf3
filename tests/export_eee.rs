//! `export --format eee --out DIR`: every record and instance row is valid under Every Eval
//! Ever's own JSON schemas (copied in tests/fixtures/eee-schema/, with the commit they came
//! from), and `ingest --from eee` of the export gives the figures `show` printed for the source
//! wave: the example waves, and an Inspect log imported with `--from inspect`.

mod common;

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use common::{Env, crate_path, examples};
use serde_json::Value;

fn schema(name: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(crate_path("tests/fixtures/eee-schema").join(name)).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    jsonschema::draft7::new(&v).unwrap()
}

/// Every file under `dir`, recursively, sorted.
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

/// Validates every record and row under `dir`; returns (records, rows).
fn validate(dir: &Path) -> (usize, usize) {
    let (aggregate, instance) = (
        schema("eval.schema.json"),
        schema("instance_level_eval.schema.json"),
    );
    // The validators do refuse: an empty object misses every required field.
    assert!(!aggregate.is_valid(&serde_json::json!({})));
    assert!(!instance.is_valid(&serde_json::json!({})));
    let (mut records, mut rows) = (0, 0);
    for f in files(dir) {
        let text = std::fs::read_to_string(&f).unwrap();
        let name = f.to_string_lossy().to_string();
        if name.ends_with("_samples.jsonl") {
            for (i, line) in text.lines().enumerate() {
                let v: Value = serde_json::from_str(line).unwrap();
                let errors: Vec<String> = instance.iter_errors(&v).map(|e| e.to_string()).collect();
                assert!(errors.is_empty(), "{name} line {}: {errors:?}", i + 1);
                rows += 1;
            }
        } else {
            assert!(name.ends_with(".json"), "{name}");
            let v: Value = serde_json::from_str(&text).unwrap();
            let errors: Vec<String> = aggregate.iter_errors(&v).map(|e| e.to_string()).collect();
            assert!(errors.is_empty(), "{name}: {errors:?}");
            // The instance rows' path and checksum are those of the file beside it.
            if let Some(d) = v.get("detailed_evaluation_results") {
                let rel = d["file_path"].as_str().unwrap();
                let samples = dir.join(rel);
                let bytes = std::fs::read(&samples).unwrap();
                assert_eq!(d["checksum"], common::sha256_hex(&bytes), "{name}");
                assert_eq!(
                    d["total_rows"].as_u64().unwrap() as usize,
                    String::from_utf8(bytes).unwrap().lines().count()
                );
            }
            records += 1;
        }
    }
    (records, rows)
}

/// `show WAVE --format json`'s seats, keyed by model, provider and harness (the seat ids of a
/// wave built by `ingest --from` are its models' names), without the id.
fn figures(env: &Env, wave: &str) -> (BTreeMap<(String, String, String), Value>, Value) {
    let out = env.run(["show", wave, "--format", "json"]).ok().json();
    let mut seats = BTreeMap::new();
    for s in out["seats"].as_array().unwrap() {
        let mut s = s.clone();
        let key = (
            s["provider"].as_str().unwrap().to_string(),
            s["model"].as_str().unwrap().to_string(),
            s["harness"].as_str().unwrap().to_string(),
        );
        s.as_object_mut().unwrap().remove("seat");
        assert!(seats.insert(key, s).is_none());
    }
    let wave = serde_json::json!({
        "suite": out["suite"],
        "suite_problems": out["suite_problems"],
        "started_at": out["started_at"],
        "accounting": out["accounting"],
        "load": out["load"],
    });
    (seats, wave)
}

/// Exports `wave` from `env`, validates it, ingests it into a new ledger and compares.
fn round_trip(env: &Env, wave: &str) -> (usize, usize) {
    let out = env.path().join(format!("eee-{wave}"));
    let said = env
        .run([
            OsStr::new("export"),
            OsStr::new("--format"),
            OsStr::new("eee"),
            OsStr::new("--out"),
            out.as_os_str(),
            OsStr::new("--wave"),
            OsStr::new(wave),
        ])
        .ok();
    let (records, rows) = validate(&out);
    assert!(
        said.stdout
            .contains(&format!("{records} Every Eval Ever record")),
        "{}",
        said.stdout
    );
    let back = Env::init();
    back.run([
        OsStr::new("ingest"),
        OsStr::new("--from"),
        OsStr::new("eee"),
        OsStr::new("--wave"),
        OsStr::new("back"),
        out.as_os_str(),
    ])
    .ok();
    let (before, wave_before) = figures(env, wave);
    let (after, wave_after) = figures(&back, "back");
    assert_eq!(before, after, "{wave}: the seats' figures");
    assert_eq!(wave_before, wave_after, "{wave}: the wave's conditions");
    (records, rows)
}

#[test]
fn the_example_waves_export_as_valid_eee_records_and_read_back_to_the_same_figures() {
    let env = Env::init();
    let manifests = examples();
    let refs: Vec<&Path> = manifests.iter().map(PathBuf::as_path).collect();
    env.ingest(&refs);
    env.run([
        OsStr::new("rubric"),
        OsStr::new("add"),
        crate_path("rubrics/session-efficiency.v2.toml").as_os_str(),
    ])
    .ok();
    env.run(["rescore", "--all"]).ok();
    let waves = env.wave_ids();
    assert!(waves.len() >= 3, "{waves:?}");
    for w in &waves {
        let (records, rows) = round_trip(&env, w);
        assert!(records > 0 && rows > 0, "{w}");
    }
    // A stored rubric score is one more result of the seat's record, on the rubric's scale.
    let out = env.path().join(format!("eee-{}", waves[0]));
    let record = files(&out)
        .into_iter()
        .find(|p| p.extension() == Some(OsStr::new("json")))
        .unwrap();
    let v: Value = serde_json::from_str(&std::fs::read_to_string(record).unwrap()).unwrap();
    let results = v["evaluation_results"].as_array().unwrap();
    let ids: Vec<&str> = results
        .iter()
        .map(|r| r["evaluation_result_id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"benchledger.accuracy"), "{ids:?}");
    let rubric = results
        .iter()
        .find(|r| r["evaluation_result_id"] == "benchledger.rubric.session-efficiency@2")
        .unwrap_or_else(|| panic!("no rubric score in {ids:?}"));
    assert_eq!(rubric["metric_config"]["max_score"], 100.0);
    // The wave's load travels in each result's generation_config.
    let load = &results[0]["generation_config"]["additional_details"];
    assert!(load["parallel_sessions"].is_string(), "{load}");
    assert!(
        load["input_tokens_include_cache_reads"].is_string(),
        "{load}"
    );
}

#[test]
fn an_imported_inspect_wave_exports_as_valid_eee_records_and_reads_back_to_the_same_figures() {
    // tests/fixtures/import/inspect/wave.toml works its figures by hand: unknown costs, cached
    // reads outside input_tokens, an errored sample.
    let env = Env::init();
    env.run([
        OsStr::new("ingest"),
        OsStr::new("--from"),
        OsStr::new("inspect"),
        OsStr::new("--wave"),
        OsStr::new("arith-inspect"),
        crate_path("tests/fixtures/import/inspect/run.json").as_os_str(),
    ])
    .ok();
    env.ingest(&[&crate_path("tests/fixtures/import/inspect/wave.toml")]);
    for w in ["arith-inspect", "arith-mini"] {
        let (records, rows) = round_trip(&env, w);
        assert_eq!((records, rows), (1, 6), "{w}");
    }
    // Unknown is not zero: the errored sample has no cache counts and no cost.
    let out = env.path().join("eee-arith-mini");
    let samples = files(&out)
        .into_iter()
        .find(|p| p.to_string_lossy().ends_with("_samples.jsonl"))
        .unwrap();
    let rows: Vec<Value> = std::fs::read_to_string(samples)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let errored = rows
        .iter()
        .find(|r| r["sample_id"] == "q3" && r["metadata"]["benchledger.trial"] == "2")
        .unwrap();
    assert!(errored["token_usage"]["input_tokens_cache_read"].is_null());
    assert!(errored["metadata"].get("benchledger.cost_usd").is_none());
    let first = rows.iter().find(|r| r["sample_id"] == "1").unwrap();
    assert_eq!(first["token_usage"]["input_tokens_cache_read"], 400);
}

#[test]
fn export_eee_without_out_or_into_a_file_is_refused_and_writes_nothing() {
    let env = Env::init();
    env.ingest(&[&examples()[0]]);
    let out = env.run(["export", "--format", "eee"]).status(2);
    assert!(out.stderr.contains("--out DIR"), "{}", out.stderr);
    let file = env.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let out = env
        .run([
            OsStr::new("export"),
            OsStr::new("--format"),
            OsStr::new("eee"),
            OsStr::new("--out"),
            file.as_os_str(),
        ])
        .status(2);
    assert!(out.stderr.contains("not a directory"), "{}", out.stderr);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");
}
