//! What an Inspect log's header says of its run, for a wave built from logs (`ingest --from
//! inspect`, `crate::ingest::from`): the task (the suite), the start (`eval.created`), the
//! agent or the plan's solvers (the harness), inspect_ai and its version (the producer), the
//! generation config (runs of one model under different settings are different seats), and
//! whether the log counts cached reads. Read from the header alone, so a directory of large
//! logs is described without reading a sample.

use std::path::Path;

use super::log::Header;
use crate::error::Result;
use crate::import::{About, Imported, Source};

/// What the header says of the run.
pub fn about(header: &Header) -> About {
    let eval = header.eval.as_ref();
    let harness = eval.and_then(|e| e.solver.clone()).or_else(|| {
        let steps = header.plan.as_ref()?.steps.as_ref()?;
        let names: Vec<&str> = steps.iter().filter_map(|s| s.solver.as_deref()).collect();
        (!names.is_empty()).then(|| names.join(" + "))
    });
    let config = eval
        .and_then(|e| e.model_generate_config.as_ref())
        .filter(|c| c.as_object().is_some_and(|o| !o.is_empty()))
        .map(|c| c.to_string());
    About {
        suite: eval
            .and_then(|e| e.task.clone())
            .filter(|t| !t.trim().is_empty()),
        started_at: eval.and_then(|e| e.created.clone()),
        harness: Some(harness.unwrap_or_else(|| "inspect_ai".into())),
        producer: Some("inspect_ai".into()),
        producer_version: eval.and_then(|e| e.inspect_version()).map(str::to_string),
        config,
        counts_cached_reads: !counts_no_cached_reads(header),
        ..About::default()
    }
}

/// A log described from its header alone.
pub fn imported(src: &dyn Source, path: &Path) -> Result<Imported> {
    let header = super::head(src, path)?;
    Ok(Imported {
        records: Vec::new(),
        accounting: super::stated(&header),
        model: header.eval.as_ref().and_then(|e| e.model.clone()),
        about: about(&header),
    })
}

/// Whether a log's own totals count no cached reads for its model.
fn counts_no_cached_reads(header: &Header) -> bool {
    let model = header.eval.as_ref().and_then(|e| e.model.as_deref());
    let usage = header.stats.as_ref().and_then(|s| s.model_usage.as_ref());
    match (model, usage) {
        (Some(m), Some(u)) => u
            .get(m)
            .is_none_or(|t| t.input_tokens_cache_read.unwrap_or(0) == 0),
        _ => true,
    }
}

/// Whether a file in a directory of logs may be a log: `.eval` and `.json` files, leaving out
/// the indexes inspect_ai keeps beside its logs (`logs.json`, `eval-set.json`,
/// `listing.json`).
pub fn finds(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    (name.ends_with(".eval") || name.ends_with(".json"))
        && !matches!(name, "logs.json" | "eval-set.json" | "listing.json")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(json: &str) -> Header {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn the_run_comes_from_the_header() {
        let a = about(&header(
            r#"{"status": "success", "eval": {"task": "inspect_evals/popularity",
            "created": "2025-09-23T08:09:58-04:00", "model": "openai/gpt-4o-mini",
            "model_generate_config": {"temperature": 0.5},
            "packages": {"inspect_ai": "0.3.133"}}, "plan": {"steps": [{"solver": "prompt"},
            {"solver": "generate"}]}}"#,
        ));
        assert_eq!(a.suite.as_deref(), Some("inspect_evals/popularity"));
        assert_eq!(a.started_at.as_deref(), Some("2025-09-23T08:09:58-04:00"));
        assert_eq!(a.harness.as_deref(), Some("prompt + generate"));
        assert_eq!(a.producer_version.as_deref(), Some("0.3.133"));
        assert_eq!(a.config.as_deref(), Some(r#"{"temperature":0.5}"#));
        assert!(!a.counts_cached_reads);
        let b = about(&header(
            r#"{"eval": {"model": "anthropic/c", "solver": "react", "model_generate_config": {}},
            "stats": {"model_usage": {"anthropic/c": {"input_tokens_cache_read": 5}}}}"#,
        ));
        assert_eq!(b.harness.as_deref(), Some("react"));
        assert_eq!(b.config, None, "an empty config is the default");
        assert!(b.counts_cached_reads);
        assert_eq!(b.suite, None);
    }

    #[test]
    fn indexes_beside_the_logs_are_not_logs() {
        assert!(finds(Path::new("d/2025_x.eval")));
        assert!(finds(Path::new("d/x.json")));
        assert!(!finds(Path::new("d/logs.json")));
        assert!(!finds(Path::new("d/eval-set.json")));
        assert!(!finds(Path::new("d/notes.txt")));
    }
}
