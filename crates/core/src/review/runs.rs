//! What a review needs to know of a run beyond its attempts, format by format: the trials a
//! Harbor job holds (its directories, whether each kept its result and its trajectory, whether
//! it reached its agent), the run's configuration as written (for overrides), and the
//! trajectory files to scan (Harbor's ATIF, Inspect AI's samples, SWE-agent's `.traj`). The
//! attempts themselves come from the format's importer, as `ingest --from` reads them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::finding::Evidence;
use super::trajectory::Layout;
use crate::error::{Error, Location, Result};
use crate::import::Source;

/// One trial of a Harbor job, as its directory shows it.
#[derive(Debug, Clone)]
pub struct Trial {
    /// Harbor's trial id (a UUID), when its result names one.
    pub id: Option<String>,
    /// The agent ran (`agent_execution` is recorded).
    pub reached_agent: bool,
}

/// A trajectory file to scan, with the trial it belongs to where the file does not say.
#[derive(Debug, Clone)]
pub struct Trajectory {
    pub path: PathBuf,
    pub shown: String,
    pub layout: Layout,
    /// Inspect's `.eval` archive: its `samples/*.json` members are the trajectories.
    pub archive: bool,
    pub problem: Option<String>,
    pub trial: Option<String>,
}

/// What a review reads of a run besides its attempts.
#[derive(Debug, Default)]
pub struct Run {
    /// Harbor's trials (empty for other formats).
    pub trials: Vec<Trial>,
    /// Trial directories without a `result.json`.
    pub without_result: Vec<Evidence>,
    /// Trials that reached their agent but kept no trajectory.
    pub without_trajectory: Vec<Evidence>,
    /// The same trial (by Harbor's id) in more than one directory.
    pub duplicated: Vec<Evidence>,
    /// Whether the format keeps trajectories at all.
    pub keeps_trajectories: bool,
    /// Whether the format records its configuration (Harbor's config.json).
    pub records_config: bool,
    /// Overrides found in the configuration: (the setting, its value), with where.
    pub overrides: BTreeMap<(String, String), Vec<Evidence>>,
    /// Every timeout multiplier a trial's own configuration names, with where.
    pub trial_multipliers: BTreeMap<String, Vec<Evidence>>,
    pub trajectories: Vec<Trajectory>,
}

/// The exceptions Harbor counts as a trial's own outcome (as its importer does): its default
/// error policy never retries them.
const OWN: [&str; 5] = [
    "AgentTimeoutError",
    "VerifierTimeoutError",
    "RewardFileNotFoundError",
    "RewardFileEmptyError",
    "VerifierOutputParseError",
];

fn json(src: &dyn Source, path: &Path) -> Result<Value> {
    let text = src.read_text(path).map_err(|e| Error::io(path, e))?;
    serde_json::from_str(&text)
        .map_err(|e| Error::input(Location::line(path, e.line()), format!("not JSON: {e}")))
}

/// Reads what the format keeps beside its attempts. `results` are the format's results files
/// found in the submission (by the importer's own test), `files` every regular file walked.
pub fn read(
    src: &dyn Source,
    format: &str,
    results: &[PathBuf],
    files: &[(PathBuf, String)],
    roots: &[PathBuf],
) -> Result<Run> {
    let mut run = Run::default();
    match format {
        "harbor" => {
            run.keeps_trajectories = true;
            run.records_config = true;
            for r in results {
                harbor_job(src, r, roots, &mut run)?;
            }
        }
        "inspect" => {
            run.keeps_trajectories = true;
            for r in results {
                let archive = r.extension().is_some_and(|e| e == "eval");
                run.trajectories.push(Trajectory {
                    path: r.clone(),
                    shown: super::walk::shown(roots, r),
                    layout: if archive {
                        Layout::InspectSample
                    } else {
                        Layout::InspectLog
                    },
                    archive,
                    problem: None,
                    trial: None,
                });
            }
        }
        "swe-bench" => {
            run.keeps_trajectories = true;
            for (path, shown) in files {
                if path.extension().is_some_and(|e| e == "traj") {
                    run.trajectories.push(Trajectory {
                        path: path.clone(),
                        shown: shown.clone(),
                        layout: Layout::SweAgent,
                        archive: false,
                        problem: path.file_stem().map(|s| s.to_string_lossy().into_owned()),
                        trial: None,
                    });
                }
            }
        }
        _ => {}
    }
    Ok(run)
}

/// A Harbor job: its configuration's overrides, and each trial directory.
fn harbor_job(src: &dyn Source, result: &Path, roots: &[PathBuf], run: &mut Run) -> Result<()> {
    let dir = result.parent().unwrap_or(Path::new("."));
    let config = dir.join("config.json");
    if src.is_file(&config) {
        let v = json(src, &config)?;
        let shown = super::walk::shown(roots, &config);
        overrides(&v, &mut String::new(), &shown, None, &mut run.overrides);
    }
    let mut dirs = src
        .list(dir)
        .map_err(|e| Error::io(dir, e))?
        .unwrap_or_default();
    dirs.sort();
    let mut ids: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for d in dirs {
        if src.list(&d).ok().flatten().is_none() {
            continue;
        }
        harbor_trial(src, &d, roots, run, &mut ids)?;
    }
    for (id, dirs) in ids {
        if dirs.len() > 1 {
            for d in dirs {
                run.duplicated.push(Evidence {
                    excerpt: Some(format!("trial id {id}")),
                    ..Evidence::file(d)
                });
            }
        }
    }
    Ok(())
}

/// One trial directory `d` of a Harbor job: its result, configuration and trajectories, its
/// Harbor id noted in `ids` under the name it is shown by.
fn harbor_trial(
    src: &dyn Source,
    d: &Path,
    roots: &[PathBuf],
    run: &mut Run,
    ids: &mut BTreeMap<String, Vec<String>>,
) -> Result<()> {
    let name = d
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let shown = super::walk::shown(roots, d);
    let result = d.join("result.json");
    if !src.is_file(&result) {
        // Harbor names a trial's directory `<task>__<id>`.
        if name.contains("__") {
            run.without_result.push(Evidence {
                problem: name.split("__").next().map(str::to_string),
                trial: Some(name.clone()),
                ..Evidence::file(shown)
            });
        }
        return Ok(());
    }
    let v = json(src, &result)?;
    let problem = v
        .get("task_name")
        .and_then(Value::as_str)
        .unwrap_or_else(|| name.split("__").next().unwrap_or(&name))
        .to_string();
    let trial = Trial {
        id: v.get("id").and_then(Value::as_str).map(str::to_string),
        reached_agent: v.get("agent_execution").is_some_and(|a| !a.is_null()),
    };
    if let Some(id) = &trial.id {
        ids.entry(id.clone()).or_default().push(shown.clone());
    }
    let at = Evidence {
        problem: Some(problem.clone()),
        trial: Some(name.clone()),
        ..Evidence::file(super::walk::shown(roots, &result))
    };
    if let Some(c) = v.get("config") {
        overrides(
            c,
            &mut "config".to_string(),
            "",
            Some(&at),
            &mut run.overrides,
        );
        if let Some(m) = c.get("timeout_multiplier").and_then(Value::as_f64) {
            run.trial_multipliers
                .entry(crate::number::machine(m))
                .or_default()
                .push(at.clone());
        }
    }
    let trajectories = trial_trajectories(src, d);
    if trajectories.is_empty() && trial.reached_agent {
        run.without_trajectory.push(Evidence {
            problem: Some(problem.clone()),
            trial: Some(name.clone()),
            ..Evidence::file(shown.clone())
        });
    }
    for t in trajectories {
        run.trajectories.push(Trajectory {
            shown: super::walk::shown(roots, &t),
            path: t,
            layout: Layout::Atif,
            archive: false,
            problem: Some(problem.clone()),
            trial: Some(name.clone()),
        });
    }
    run.trials.push(trial);
    Ok(())
}

/// The trajectory files of a Harbor trial directory `d` (`agent/trajectory*.json`), sorted.
fn trial_trajectories(src: &dyn Source, d: &Path) -> Vec<PathBuf> {
    let agent = d.join("agent");
    let mut trajectories: Vec<PathBuf> = src
        .list(&agent)
        .ok()
        .flatten()
        .unwrap_or_default()
        .into_iter()
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("trajectory") && n.ends_with(".json"))
                && src.is_file(p)
        })
        .collect();
    trajectories.sort();
    trajectories
}

/// Whether a setting's value is set at all (null, false, an empty list or table are not).
fn set(v: &Value) -> bool {
    match v {
        Value::Null | Value::Bool(false) => false,
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
        _ => true,
    }
}

/// Whether a setting is an override a leaderboard refuses: a per-phase timeout or its
/// multiplier, a resource, a disabled verifier, a changed error policy.
fn is_override(key: &str, v: &Value) -> bool {
    if !set(v) {
        return false;
    }
    if key.starts_with("override_") || key == "max_timeout_sec" {
        return true;
    }
    if key.ends_with("_timeout_multiplier") {
        return v.as_f64() != Some(1.0);
    }
    match key {
        "disable" => v.as_bool() == Some(true),
        "include_exceptions" => true,
        "exclude_exceptions" => {
            let mut named: Vec<&str> = v
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            named.sort_unstable();
            let mut own = OWN.to_vec();
            own.sort_unstable();
            named != own
        }
        _ => false,
    }
}

/// Every override in a configuration, keyed by (setting, value), with where it was seen.
fn overrides(
    v: &Value,
    path: &mut String,
    file: &str,
    at: Option<&Evidence>,
    out: &mut BTreeMap<(String, String), Vec<Evidence>>,
) {
    match v {
        Value::Object(o) => {
            for (k, child) in o {
                let len = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
                if is_override(k, child) {
                    let value = child.to_string();
                    let evidence = at.cloned().unwrap_or_else(|| Evidence::file(file));
                    out.entry((path.clone(), value)).or_default().push(evidence);
                } else {
                    overrides(child, path, file, at, out);
                }
                path.truncate(len);
            }
        }
        Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                overrides(child, path, file, at, out);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_are_found_where_they_sit_and_defaults_are_not() {
        let v: Value = serde_json::from_str(
            r#"{"timeout_multiplier": 1.0, "agent_timeout_multiplier": null,
                "agents": [{"name": "a", "override_timeout_sec": 3600, "max_timeout_sec": null}],
                "environment": {"override_cpus": null, "override_memory_mb": 8192},
                "verifier": {"disable": false, "override_timeout_sec": null},
                "retry": {"exclude_exceptions": ["AgentTimeoutError", "VerifierTimeoutError",
                  "RewardFileNotFoundError", "RewardFileEmptyError", "VerifierOutputParseError"]}}"#,
        )
        .unwrap();
        let mut out = BTreeMap::new();
        overrides(&v, &mut String::new(), "config.json", None, &mut out);
        let keys: Vec<String> = out.keys().map(|(k, v)| format!("{k} = {v}")).collect();
        assert_eq!(
            keys,
            vec![
                "agents[0].override_timeout_sec = 3600",
                "environment.override_memory_mb = 8192"
            ]
        );
        let v: Value = serde_json::from_str(
            r#"{"verifier": {"disable": true}, "agent_timeout_multiplier": 2}"#,
        )
        .unwrap();
        let mut out = BTreeMap::new();
        overrides(&v, &mut String::new(), "config.json", None, &mut out);
        assert_eq!(out.len(), 2);
    }
}
