//! `ingest --from inspect LOG...` (or `--from inspect-summaries`): a wave manifest built from the logs' own headers, for the
//! common case of one Inspect run (one task, one log per model) that needs no hand-written
//! manifest. The manifest is ordinary TOML text handed to the same ingest as any other, so a
//! wave built here is held to every rule of a written one.
//!
//! From the logs: the wave's id (the task and the date of the earliest log,
//! `popularity-2025-09-23`, unless `--wave` names it), its suite (the task), its start (the
//! earliest `eval.created`), its token accounting (the `super::accounting` rule; logs that
//! disagree cannot share a wave), the producer (inspect_ai and its version), and a seat per
//! model: id a slug of the model (`openai/gpt-4o` → `openai-gpt-4o`), provider the model's
//! prefix, harness the agent or the plan's solvers. From `--manifest`, a wave manifest without
//! seats: whatever it says of the wave (load, budget, suite, its size, notes, and any of the
//! above) wins over what the logs say.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use toml::{Table, Value};

use super::log::Header;
use crate::error::{Error, Location, Result};

/// One log, as the built manifest names it.
pub struct Log<'a> {
    /// The path shown in errors.
    pub path: &'a Path,
    /// The path written into the manifest's `results` (relative to the manifest, or absolute).
    pub results: &'a Path,
    pub header: &'a Header,
}

/// A slug of a name: runs of characters an id cannot hold become one `-`.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '.' | '_') {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').trim_start_matches(['.', '_']);
    if out.is_empty() {
        "inspect".into()
    } else {
        out.to_string()
    }
}

/// The date and time a log says its run was created, as RFC 3339 in UTC.
fn created(log: &Log<'_>) -> Result<String> {
    let raw = log
        .header
        .eval
        .as_ref()
        .and_then(|e| e.created.as_deref())
        .ok_or_else(|| {
            Error::input(
                Location::file(log.path).field("eval.created"),
                "missing: the log does not say when its run started; give started_at in \
                 --manifest",
            )
        })?;
    chrono::DateTime::parse_from_rfc3339(raw)
        .map(|t| {
            t.with_timezone(&chrono::Utc)
                .to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
        })
        .map_err(|_| {
            Error::input(
                Location::file(log.path).field("eval.created"),
                format!(
                    "{raw:?} is not a date-time with a UTC offset; give started_at in \
                     --manifest"
                ),
            )
        })
}

/// The text of the manifest for these logs, over `base` (the `--manifest`'s table, at
/// `base_path`), with the wave named `wave_id` when given.
pub fn manifest(
    logs: &[Log<'_>],
    format: &str,
    base: Option<(&Path, Table)>,
    wave_id: Option<&str>,
) -> Result<String> {
    let (base_path, mut root) = match base {
        Some((p, t)) => (Some(p.to_path_buf()), t),
        None => (None, Table::new()),
    };
    let at = |field: &str| match &base_path {
        Some(p) => Location::file(p).field(field),
        None => Location::file(Path::new("--manifest")).field(field),
    };
    if root.contains_key("seat") {
        return Err(Error::input(
            at("seat"),
            "with --from, the seats come from the logs (one per model); leave [[seat]] out of \
             --manifest, or write the whole manifest and ingest it without --from",
        ));
    }
    let mut wave = match root.remove("wave") {
        None => Table::new(),
        Some(Value::Table(t)) => t,
        Some(_) => return Err(Error::input(at("wave"), "expected a [wave] table")),
    };
    let first = logs.first().ok_or_else(|| {
        Error::Usage("--from inspect needs at least one .eval or .json log".into())
    })?;

    // One task: a wave is one sitting of one suite.
    let mut tasks: BTreeMap<String, Vec<&Path>> = BTreeMap::new();
    for log in logs {
        let task = log
            .header
            .eval
            .as_ref()
            .and_then(|e| e.task.clone())
            .unwrap_or_default();
        tasks.entry(task).or_default().push(log.path);
    }
    if tasks.len() > 1 {
        let listed: Vec<String> = tasks
            .iter()
            .map(|(t, ps)| format!("{t:?} ({})", shown(ps)))
            .collect();
        return Err(Error::Usage(format!(
            "the logs are of {} tasks: {}; a wave is one sitting of one suite, so ingest each \
             task's logs with its own --from",
            tasks.len(),
            listed.join("; ")
        )));
    }
    let task = tasks.into_keys().next().unwrap_or_default();

    let mut starts = Vec::with_capacity(logs.len());
    if !wave.contains_key("started_at") || (wave_id.is_none() && !wave.contains_key("id")) {
        for log in logs {
            starts.push(created(log)?);
        }
    }
    let earliest = starts.iter().min().cloned();
    if let Some(id) = wave_id {
        wave.insert("id".into(), Value::String(id.to_string()));
    } else if !wave.contains_key("id") {
        let date: String = earliest.as_deref().unwrap_or("").chars().take(10).collect();
        wave.insert(
            "id".into(),
            Value::String(format!(
                "{}-{date}",
                slug(task.rsplit('/').next().unwrap_or(&task))
            )),
        );
    }
    if !wave.contains_key("suite") {
        if task.trim().is_empty() {
            return Err(Error::input(
                Location::file(first.path).field("eval.task"),
                "missing: the log does not name its task; give the suite in --manifest",
            ));
        }
        wave.insert("suite".into(), Value::String(task.clone()));
    }
    if !wave.contains_key("started_at")
        && let Some(s) = earliest
    {
        wave.insert("started_at".into(), Value::String(s));
    }
    accounting(logs, &mut wave, &at)?;
    provenance(logs, &mut wave);
    root.insert("wave".into(), Value::Table(wave));
    root.insert("seat".into(), Value::Array(seats(logs, format)?));
    toml::to_string(&root).map_err(|e| Error::Usage(format!("cannot write the wave: {e}")))
}

fn shown(paths: &[&Path]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The wave's accounting: what `--manifest` says, else what the logs state. A log the rule
/// does not cover counts the same either way when it counts no cached reads.
fn accounting(logs: &[Log<'_>], wave: &mut Table, at: &dyn Fn(&str) -> Location) -> Result<()> {
    let mut section = match wave.remove("accounting") {
        None => Table::new(),
        Some(Value::Table(t)) => t,
        Some(_) => {
            return Err(Error::input(
                at("wave.accounting"),
                "expected a [wave.accounting] table",
            ));
        }
    };
    if !section.contains_key("input_tokens_include_cache_reads") {
        let mut stated: Vec<(bool, &Path, String)> = Vec::new();
        let mut unstated: Vec<&Path> = Vec::new();
        for log in logs {
            match super::stated(log.header) {
                Some(s) => stated.push((s.input_tokens_include_cache_reads, log.path, s.why)),
                None if counts_no_cached_reads(log.header) => {}
                None => unstated.push(log.path),
            }
        }
        if let Some((flag, path, why)) = stated.first()
            && let Some((other, opath, owhy)) = stated.iter().find(|(f, _, _)| f != flag)
        {
            return Err(Error::Usage(format!(
                "the logs count cached reads differently, so they cannot share a wave: {} says \
                 input_tokens_include_cache_reads = {flag} ({why}), {} says {other} ({owhy}); \
                 ingest them as separate waves (--wave)",
                path.display(),
                opath.display()
            )));
        }
        if !unstated.is_empty() {
            return Err(Error::Usage(format!(
                "benchledger cannot tell whether the input_tokens of {} include cached reads \
                 (no rule covers its inspect_ai version and provider, and it counts cached \
                 reads): say so in --manifest, under [wave.accounting], with \
                 input_tokens_include_cache_reads = true or false",
                shown(&unstated)
            )));
        }
        let flag = stated.first().is_some_and(|(f, _, _)| *f);
        section.insert(
            "input_tokens_include_cache_reads".into(),
            Value::Boolean(flag),
        );
    }
    wave.insert("accounting".into(), Value::Table(section));
    Ok(())
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

fn provenance(logs: &[Log<'_>], wave: &mut Table) {
    let mut section = match wave.remove("provenance") {
        Some(Value::Table(t)) => t,
        Some(other) => {
            // Not a table: left for the manifest's own check to name.
            wave.insert("provenance".into(), other);
            return;
        }
        None => Table::new(),
    };
    if !section.contains_key("producer") {
        section.insert("producer".into(), Value::String("inspect_ai".into()));
        let versions: std::collections::BTreeSet<&str> = logs
            .iter()
            .filter_map(|l| l.header.eval.as_ref()?.inspect_version())
            .collect();
        if versions.len() == 1
            && let Some(v) = versions.first()
            && !section.contains_key("producer_version")
        {
            section.insert("producer_version".into(), Value::String(v.to_string()));
        }
    }
    wave.insert("provenance".into(), Value::Table(section));
}

fn seats(logs: &[Log<'_>], format: &str) -> Result<Vec<Value>> {
    let mut by_id: BTreeMap<String, &Log<'_>> = BTreeMap::new();
    let mut seats = Vec::with_capacity(logs.len());
    for log in logs {
        let eval = log.header.eval.as_ref();
        let model = eval.and_then(|e| e.model.clone()).unwrap_or_default();
        let id = slug(&model);
        if let Some(other) = by_id.insert(id.clone(), log) {
            return Err(Error::Usage(format!(
                "{} and {} are both of model {model}: a seat reads one log, so ingest them as \
                 separate waves (--wave), or merge the runs into one log first",
                other.path.display(),
                log.path.display()
            )));
        }
        let (provider, name) = model.split_once('/').unwrap_or(("", model.as_str()));
        let harness = eval
            .and_then(|e| e.solver.clone())
            .or_else(|| {
                let steps = log.header.plan.as_ref()?.steps.as_ref()?;
                let names: Vec<&str> = steps.iter().filter_map(|s| s.solver.as_deref()).collect();
                (!names.is_empty()).then(|| names.join(" + "))
            })
            .unwrap_or_else(|| "inspect_ai".into());
        let results = log.results.to_str().ok_or_else(|| {
            Error::Usage(format!(
                "{} is not a UTF-8 path, which a manifest cannot name",
                log.results.display()
            ))
        })?;
        let mut seat = Table::new();
        seat.insert("id".into(), Value::String(id));
        seat.insert("model".into(), Value::String(name.to_string()));
        seat.insert(
            "provider".into(),
            Value::String(if provider.is_empty() {
                "unknown".into()
            } else {
                provider.to_string()
            }),
        );
        seat.insert("harness".into(), Value::String(harness));
        seat.insert("results".into(), Value::String(results.to_string()));
        seat.insert("format".into(), Value::String(format.into()));
        seats.push(Value::Table(seat));
    }
    Ok(seats)
}

/// The logs in `inputs`: files as given, directories searched (recursively) for `.eval` and
/// `.json` files, leaving out the indexes inspect_ai keeps beside its logs (`logs.json`,
/// `eval-set.json`, `listing.json`). `list` reads a directory; sorted, so the wave is the same
/// whatever order the directory lists.
pub fn logs_in(
    inputs: &[PathBuf],
    is_dir: &dyn Fn(&Path) -> bool,
    list: &dyn Fn(&Path) -> std::io::Result<Vec<PathBuf>>,
) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for input in inputs {
        if is_dir(input) {
            let mut found = Vec::new();
            let mut stack = vec![input.clone()];
            while let Some(dir) = stack.pop() {
                for p in list(&dir).map_err(|e| Error::io(&dir, e))? {
                    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
                    if name.starts_with('.') {
                        continue;
                    }
                    if is_dir(&p) {
                        stack.push(p);
                    } else if (name.ends_with(".eval") || name.ends_with(".json"))
                        && !matches!(name, "logs.json" | "eval-set.json" | "listing.json")
                    {
                        found.push(p);
                    }
                }
            }
            if found.is_empty() {
                return Err(Error::Usage(format!(
                    "{} holds no .eval or .json log",
                    input.display()
                )));
            }
            found.sort();
            out.extend(found);
        } else {
            out.push(input.clone());
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(json: &str) -> Header {
        serde_json::from_str(json).unwrap()
    }

    fn built(headers: &[(&str, &Header)], base: Option<&str>, id: Option<&str>) -> Result<Table> {
        let logs: Vec<Log<'_>> = headers
            .iter()
            .map(|(p, h)| Log {
                path: Path::new(p),
                results: Path::new(p),
                header: h,
            })
            .collect();
        let base = base.map(|t| (Path::new("m.toml"), t.parse::<Table>().unwrap()));
        manifest(&logs, "inspect", base, id).map(|t| t.parse::<Table>().unwrap())
    }

    const A: &str = r#"{"status": "success", "eval": {"task": "inspect_evals/popularity",
        "created": "2025-09-23T08:09:58-04:00", "model": "openai/gpt-4o-mini",
        "packages": {"inspect_ai": "0.3.133"}}, "plan": {"steps": [{"solver": "prompt"},
        {"solver": "generate"}]}}"#;
    const B: &str = r#"{"status": "success", "eval": {"task": "inspect_evals/popularity",
        "created": "2025-09-23T09:00:00-04:00", "model": "anthropic/claude-sonnet-4-5",
        "solver": "react", "packages": {"inspect_ai": "0.3.133"}},
        "stats": {"model_usage": {"anthropic/claude-sonnet-4-5": {"input_tokens_cache_read": 5}}}}"#;

    #[test]
    fn the_wave_comes_from_the_logs_headers() {
        let (a, b) = (
            header(A),
            header(&B.replace("anthropic/claude-sonnet-4-5", "openai/o3")),
        );
        let t = built(&[("a.eval", &a), ("b.json", &b)], None, None).unwrap();
        let w = t["wave"].as_table().unwrap();
        assert_eq!(w["id"].as_str(), Some("popularity-2025-09-23"));
        assert_eq!(w["suite"].as_str(), Some("inspect_evals/popularity"));
        assert_eq!(w["started_at"].as_str(), Some("2025-09-23T12:09:58Z"));
        assert_eq!(
            w["provenance"]["producer_version"].as_str(),
            Some("0.3.133")
        );
        let seats = t["seat"].as_array().unwrap();
        assert_eq!(seats[0]["id"].as_str(), Some("openai-gpt-4o-mini"));
        assert_eq!(seats[0]["provider"].as_str(), Some("openai"));
        assert_eq!(seats[0]["model"].as_str(), Some("gpt-4o-mini"));
        assert_eq!(seats[0]["harness"].as_str(), Some("prompt + generate"));
        assert_eq!(seats[1]["id"].as_str(), Some("openai-o3"));
        assert_eq!(seats[1]["harness"].as_str(), Some("react"));
        assert_eq!(seats[1]["format"].as_str(), Some("inspect"));
    }

    #[test]
    fn logs_that_count_cached_reads_differently_cannot_share_a_wave() {
        // openai at 0.3.133 includes them; anthropic never does.
        let (a, b) = (header(A), header(B));
        let e = built(&[("a.eval", &a), ("b.json", &b)], None, None);
        assert!(e.is_err());
        // ... unless the manifest says how (and ingest then holds each log to it).
        let (a2, b2) = (header(A), header(&B.replace("anthropic/", "mistral/")));
        let e = built(&[("a.eval", &a2), ("b.json", &b2)], None, None)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("cannot tell whether the input_tokens of b.json include cached reads"),
            "{e}"
        );
        let t = built(
            &[("a.eval", &a2), ("b.json", &b2)],
            Some("[wave.accounting]\ninput_tokens_include_cache_reads = true\n"),
            Some("w1"),
        )
        .unwrap();
        assert_eq!(
            t["wave"]["accounting"]["input_tokens_include_cache_reads"].as_bool(),
            Some(true)
        );
        assert_eq!(t["wave"]["id"].as_str(), Some("w1"));
    }

    #[test]
    fn the_manifest_supplies_what_logs_cannot_say_and_wins() {
        let a = header(A);
        let t = built(
            &[("a.eval", &a)],
            Some(
                "[wave]\nsuite = \"pop\"\nsuite_problems = 100\n[wave.load]\nparallel_sessions \
                 = 4\n[wave.budget]\ntokens = 1000\n",
            ),
            None,
        )
        .unwrap();
        let w = t["wave"].as_table().unwrap();
        assert_eq!(w["suite"].as_str(), Some("pop"));
        assert_eq!(w["suite_problems"].as_integer(), Some(100));
        assert_eq!(w["load"]["parallel_sessions"].as_integer(), Some(4));
        assert_eq!(w["budget"]["tokens"].as_integer(), Some(1000));
        let e = built(&[("a.eval", &a)], Some("[[seat]]\nid = \"x\"\n"), None)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("m.toml: field `seat`: with --from"), "{e}");
    }

    #[test]
    fn two_logs_of_one_model_or_two_tasks_are_refused() {
        let a = header(A);
        let e = built(&[("a.eval", &a), ("a2.eval", &a)], None, None)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("a.eval and a2.eval are both of model openai/gpt-4o-mini"),
            "{e}"
        );
        let other = header(&A.replace("popularity", "security"));
        let e = built(&[("a.eval", &a), ("s.eval", &other)], None, None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("the logs are of 2 tasks"), "{e}");
    }

    #[test]
    fn slugs_are_ids() {
        assert_eq!(slug("openai/gpt-4o-mini"), "openai-gpt-4o-mini");
        assert_eq!(
            slug("openai-api/deepseek/deepseek-chat"),
            "openai-api-deepseek-deepseek-chat"
        );
        assert_eq!(
            slug("hf/meta-llama/Llama-3.1-8B"),
            "hf-meta-llama-Llama-3.1-8B"
        );
        assert_eq!(slug("///"), "inspect");
        assert_eq!(slug("_x y_"), "x-y_");
    }
}
