//! `swe-bench`: a SWE-bench experiments submission (`evaluation/<split>/<submission>/`): its
//! `results/results.json`, lists of instance ids written by the repository's
//! `analysis/get_results.py`, and, where the submission has one, `per_instance_details.json`
//! (instance id → `{resolved, cost, api_calls}`) at the submission's root.
//!
//! - every instance a list names is an attempt (attempt 1: a submission is one run), Correct
//!   when `resolved` lists it. Today's lists are `resolved`, `no_generation` (no patch, or no
//!   output at all for the instance) and `no_logs` (a patch that was never evaluated); older
//!   submissions carry SWE-bench's earlier report: `generated`, `with_logs`, `applied` (stages
//!   reached), and `install_fail`, `reset_failed`, `no_apply`, `test_timeout`, `test_errored`;
//! - a failure list names how an unresolved instance ended (end_reason, the list's name; the
//!   first in the order the pipeline runs when several name it). Infrastructure (never Correct):
//!   `install_fail`, `reset_failed` and `no_logs` — the environment failed before the patch was
//!   tried, or the patch was never evaluated — whatever the agent did. `no_generation`,
//!   `no_apply`, `test_timeout` and `test_errored` are the submission's own: a patch that hangs
//!   or breaks the tests is the agent's. An instance both resolved and in a list that rules
//!   resolving out (no patch, no evaluation, no environment, a patch that did not apply) is
//!   refused, as is a list benchledger does not know;
//! - an instance evaluated and unresolved is in no list today: the file cannot name it, so
//!   benchledger counts it as missing from the suite's size, which this format requires
//!   (`suite_problems`); either way it is not Correct, and the seat's accuracy is SWE-bench's
//!   "% Resolved", resolved ÷ the suite;
//! - `per_instance_details.json` names every instance it ran: each is an attempt (so evaluated,
//!   unresolved instances are attempts, not missing), `cost` → USD, `api_calls` → steps; its
//!   `resolved` must agree with results.json's. The seat's results may name it alone, for a
//!   submission without results.json.
//!
//! Not in the files: tokens, wall time, errors. Token accounting: not stated.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::json::{Rec, describe, each_in_object};
use super::{Imported, Importer, Input, Origin, Record};
use crate::error::{Error, Location, Result};
use crate::import::Source;
use crate::model::Attempt;

/// A SWE-bench experiments submission's results.
pub struct SweBench;

/// The per-instance details a submission may have.
const DETAILS: &str = "per_instance_details.json";

/// What a list of results.json says of the instances it names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Says {
    Resolved,
    /// A stage reached (`generated`, `applied`): attempted, nothing more.
    Reached,
    /// How it ended, unresolved. `infra`: the harness's failure, not the agent's; `excludes`:
    /// an instance in this list cannot have been resolved.
    Failed {
        infra: bool,
        excludes: bool,
    },
}

/// Every list benchledger knows, failure lists in the order the pipeline meets them.
const LISTS: &[(&str, Says)] = &[
    ("resolved", Says::Resolved),
    (
        "no_generation",
        Says::Failed {
            infra: false,
            excludes: true,
        },
    ),
    (
        "install_fail",
        Says::Failed {
            infra: true,
            excludes: true,
        },
    ),
    (
        "reset_failed",
        Says::Failed {
            infra: true,
            excludes: true,
        },
    ),
    (
        "no_apply",
        Says::Failed {
            infra: false,
            excludes: true,
        },
    ),
    (
        "test_timeout",
        Says::Failed {
            infra: false,
            excludes: false,
        },
    ),
    (
        "test_errored",
        Says::Failed {
            infra: false,
            excludes: false,
        },
    ),
    (
        "no_logs",
        Says::Failed {
            infra: true,
            excludes: true,
        },
    ),
    ("generated", Says::Reached),
    ("with_logs", Says::Reached),
    ("applied", Says::Reached),
];

impl Importer for SweBench {
    fn name(&self) -> &'static str {
        "swe-bench"
    }

    fn describes(&self) -> &'static str {
        "a SWE-bench experiments submission's results/results.json (lists of instance ids), \
         per_instance_details.json in the submission optional"
    }

    fn needs_suite_size(&self) -> Option<&'static str> {
        Some(
            "SWE-bench's results.json lists the resolved instances and those that failed before \
             evaluation, not those evaluated and unresolved",
        )
    }

    /// A submission's `results/results.json`.
    fn finds(&self, _: &dyn Source, path: &Path) -> bool {
        path.file_name().and_then(|n| n.to_str()) == Some("results.json")
            && path
                .parent()
                .and_then(Path::file_name)
                .and_then(|n| n.to_str())
                == Some("results")
    }

    fn read(&self, input: &mut Input<'_>) -> Result<Imported> {
        let path = input.path;
        let alone = path.file_name().and_then(|n| n.to_str()) == Some(DETAILS);
        let lists = if alone {
            None
        } else {
            Some(read_lists(input.src, path)?)
        };
        let details = match details_path(input.src, path) {
            Some(d) => Some((read_details(input.src, &d)?, d)),
            None => None,
        };
        let mut ids: BTreeMap<&str, (Option<&Listed>, Option<&Detail>)> = BTreeMap::new();
        for (id, listed) in lists.iter().flatten() {
            ids.entry(id).or_default().0 = Some(listed);
        }
        for (id, detail) in details.iter().flat_map(|(d, _)| d) {
            ids.entry(id).or_default().1 = Some(detail);
        }
        let mut records = Vec::with_capacity(ids.len());
        for (id, (listed, detail)) in ids {
            let resolved = match (&lists, listed) {
                (Some(_), Some(l)) => l.has(0),
                (Some(_), None) => false,
                (None, _) => detail.and_then(|d| d.resolved) == Some(true),
            };
            if let (Some(_), Some(d), Some((_, at))) = (&lists, detail, &details)
                && let Some(said) = d.resolved
                && said != resolved
            {
                return Err(Error::input(
                    Location::record(at, format!("instance {id}")).field("resolved"),
                    format!(
                        "{said}, but {} {} it in `resolved`: the submission's two files \
                         disagree on its verdict",
                        path.display(),
                        if resolved { "lists" } else { "does not list" },
                    ),
                ));
            }
            let failed = listed.and_then(|l| {
                LISTS
                    .iter()
                    .enumerate()
                    .find_map(|(i, (name, says))| match says {
                        Says::Failed { infra, .. } if l.has(i) => Some((*name, *infra)),
                        _ => None,
                    })
            });
            let (end_reason, infra_error) = match failed {
                Some((name, infra)) if !resolved => (Some(name.to_string()), infra),
                _ => (None, false),
            };
            records.push(Record {
                at: Origin::Record(format!("instance {id}")),
                attempt: Attempt {
                    problem: id.to_string(),
                    trial: 1,
                    correct: resolved,
                    outcome: None,
                    input_tokens: None,
                    output_tokens: None,
                    input_tokens_cache_read: None,
                    input_tokens_cache_write: None,
                    wall_s: None,
                    cost_usd: detail.and_then(|d| d.cost),
                    steps: detail.and_then(|d| d.api_calls),
                    errors: None,
                    checklist: None,
                    trace: None,
                    working_s: None,
                    infra_error,
                    end_reason,
                    origin: None,
                    texts: None,
                },
                file: None,
            });
            input.progress.advance(1);
        }
        Ok(Imported {
            records,
            accounting: None,
            model: None,
            about: super::About::default(),
        })
    }
}

/// The lists of results.json an instance is in, one bit for each of [`LISTS`].
#[derive(Default)]
struct Listed(u16);

impl Listed {
    fn has(&self, list: usize) -> bool {
        self.0 & (1 << list) != 0
    }
}

/// results.json: every instance it names, with the lists that name it.
fn read_lists(src: &dyn Source, path: &Path) -> Result<BTreeMap<String, Listed>> {
    let file = src.open(path).map_err(|e| Error::io(path, e))?;
    // A list named twice is refused by the walk itself, naming it.
    let mut ids: BTreeMap<String, Listed> = BTreeMap::new();
    each_in_object(path, file, |_, key, value| {
        let at = || Location::record(path, format!("list `{key}`"));
        let Some(list) = LISTS.iter().position(|(name, _)| *name == key) else {
            return Err(Error::input(
                at(),
                format!(
                    "not a list SWE-bench's results.json holds; benchledger reads: {}",
                    LISTS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
                ),
            ));
        };
        let Value::Array(items) = value else {
            return Err(Error::input(
                at(),
                format!("expected a list of instance ids, got {}", describe(&value)),
            ));
        };
        for (i, item) in items.into_iter().enumerate() {
            let id = match item {
                Value::String(s) if !s.trim().is_empty() => s,
                other => {
                    return Err(Error::input(
                        Location::record(path, format!("list `{key}` item {}", i + 1)),
                        format!("expected an instance id, got {}", describe(&other)),
                    ));
                }
            };
            let listed = ids.entry(id).or_default();
            if listed.has(list) {
                return Err(Error::input(
                    Location::record(path, format!("list `{key}` item {}", i + 1)),
                    "the instance is listed twice in this list",
                ));
            }
            listed.0 |= 1 << list;
        }
        Ok(())
    })?;
    // An instance resolved and in a list that rules resolving out: the file contradicts itself.
    for (id, listed) in &ids {
        if !listed.has(0) {
            continue;
        }
        for (i, (name, says)) in LISTS.iter().enumerate() {
            if matches!(says, Says::Failed { excludes: true, .. }) && listed.has(i) {
                return Err(Error::input(
                    Location::record(path, format!("instance {id}")),
                    format!("listed both in `resolved` and in `{name}`, which rules resolving out"),
                ));
            }
        }
    }
    Ok(ids)
}

/// What per_instance_details.json says of one instance.
struct Detail {
    resolved: Option<bool>,
    cost: Option<f64>,
    api_calls: Option<u32>,
}

/// Where the submission's per_instance_details.json is: the results file itself, beside it,
/// or at the submission's root above `results/`.
fn details_path(src: &dyn Source, results: &Path) -> Option<PathBuf> {
    if results.file_name().and_then(|n| n.to_str()) == Some(DETAILS) {
        return Some(results.to_path_buf());
    }
    let dir = results.parent()?;
    let beside = dir.join(DETAILS);
    let root = (dir.file_name().and_then(|n| n.to_str()) == Some("results"))
        .then(|| dir.parent().map(|p| p.join(DETAILS)))
        .flatten();
    std::iter::once(beside).chain(root).find(|p| src.is_file(p))
}

fn read_details(src: &dyn Source, path: &Path) -> Result<BTreeMap<String, Detail>> {
    let file = src.open(path).map_err(|e| Error::io(path, e))?;
    let mut details = BTreeMap::new();
    each_in_object(path, file, |_, id, value| {
        let r = Rec::new(path, format!("instance {id}"), &value)?;
        if id.trim().is_empty() {
            return Err(Error::input(
                Location::record(path, format!("instance {id:?}")),
                "expected an instance id, got an empty key",
            ));
        }
        let cost = match r.number("cost")? {
            Some(c) if c < 0.0 => {
                return Err(r.bad(
                    "cost",
                    format!("expected a cost in USD, 0 or more, got {c}"),
                ));
            }
            c => c,
        };
        let api_calls =
            match r.count("api_calls")? {
                None => None,
                Some(n) => Some(u32::try_from(n).map_err(|_| {
                    r.bad("api_calls", format!("{n} calls is past any real instance"))
                })?),
            };
        let detail = Detail {
            resolved: r.boolean("resolved")?,
            cost,
            api_calls,
        };
        // An instance named twice is refused by the walk itself, naming it.
        details.insert(id, detail);
        Ok(())
    })?;
    Ok(details)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::Memory;
    use crate::import::{Options, Quiet};

    const RESULTS: &str = "sub/results/results.json";

    fn read_at(path: &str, files: &[(&str, &str)]) -> Result<Imported> {
        let mut src = Memory::new();
        for (name, text) in files {
            src = src.with(name, *text);
        }
        SweBench.read(&mut Input {
            src: &src,
            path: Path::new(path),
            options: &Options::default(),
            progress: &mut Quiet,
        })
    }

    fn read(files: &[(&str, &str)]) -> Result<Imported> {
        read_at(RESULTS, files)
    }

    type Seen<'a> = (
        &'a str,
        bool,
        bool,
        Option<&'a str>,
        Option<f64>,
        Option<u32>,
    );

    fn seen(got: &Imported) -> Vec<Seen<'_>> {
        got.records
            .iter()
            .map(|r| {
                let a = &r.attempt;
                (
                    a.problem.as_str(),
                    a.correct,
                    a.infra_error,
                    a.end_reason.as_deref(),
                    a.cost_usd,
                    a.steps,
                )
            })
            .collect()
    }

    #[test]
    fn every_listed_instance_is_an_attempt_correct_when_resolved() {
        let got = read(&[(
            RESULTS,
            r#"{"no_generation": ["c__c-3"], "no_logs": ["d__d-4"],
                "resolved": ["a__a-1", "b__b-2"]}"#,
        )])
        .unwrap();
        assert_eq!(
            seen(&got),
            [
                ("a__a-1", true, false, None, None, None),
                ("b__b-2", true, false, None, None, None),
                ("c__c-3", false, false, Some("no_generation"), None, None),
                ("d__d-4", false, true, Some("no_logs"), None, None),
            ]
        );
        assert_eq!(got.records[2].at, Origin::Record("instance c__c-3".into()));
        assert!(got.records.iter().all(|r| r.attempt.trial == 1));
        assert_eq!((got.model, got.accounting), (None, None));
    }

    #[test]
    fn the_older_report_names_stages_and_the_first_failure() {
        let got = read(&[(
            RESULTS,
            r#"{"no_generation": ["e"], "generated": ["a", "b", "c", "d", "f"],
                "with_logs": ["a", "b", "c", "d", "f"], "install_fail": ["c"],
                "reset_failed": [], "no_apply": ["d"], "applied": ["a", "b", "f"],
                "test_errored": ["b", "f"], "test_timeout": ["b"], "resolved": ["a", "f"]}"#,
        )])
        .unwrap();
        assert_eq!(
            seen(&got),
            [
                ("a", true, false, None, None, None),
                ("b", false, false, Some("test_timeout"), None, None),
                ("c", false, true, Some("install_fail"), None, None),
                ("d", false, false, Some("no_apply"), None, None),
                ("e", false, false, Some("no_generation"), None, None),
                ("f", true, false, None, None, None),
            ]
        );
    }

    #[test]
    fn per_instance_details_add_cost_steps_and_the_unresolved() {
        let lists = r#"{"no_generation": ["c"], "no_logs": [], "resolved": ["a"]}"#;
        let details = r#"{"a": {"resolved": true, "cost": 0.5, "api_calls": 12},
                          "b": {"resolved": false, "cost": 1.25, "api_calls": 40},
                          "c": {"resolved": false, "cost": 0.0, "api_calls": 3}}"#;
        let want = [
            ("a", true, false, None, Some(0.5), Some(12)),
            ("b", false, false, None, Some(1.25), Some(40)),
            ("c", false, false, Some("no_generation"), Some(0.0), Some(3)),
        ];
        // At the submission's root, as the repository keeps it, or beside results.json.
        for at in [
            "sub/per_instance_details.json",
            "sub/results/per_instance_details.json",
        ] {
            let got = read(&[(RESULTS, lists), (at, details)]).unwrap();
            assert_eq!(seen(&got), want, "{at}");
        }
        // Named alone, for a submission without results.json.
        let got = read_at(
            "sub/per_instance_details.json",
            &[("sub/per_instance_details.json", details)],
        )
        .unwrap();
        assert_eq!(
            seen(&got),
            [
                ("a", true, false, None, Some(0.5), Some(12)),
                ("b", false, false, None, Some(1.25), Some(40)),
                ("c", false, false, None, Some(0.0), Some(3)),
            ]
        );
        // Not above a directory that is not the submission's `results/`.
        let got = read_at(
            "elsewhere/results.json",
            &[
                ("elsewhere/results.json", lists),
                ("per_instance_details.json", details),
            ],
        )
        .unwrap();
        assert_eq!(got.records.len(), 2);
    }

    #[test]
    fn bad_lists_and_details_are_named() {
        let details = "sub/per_instance_details.json";
        for (files, says) in [
            (
                vec![(RESULTS, r#"{"resolved": ["a"], "errors": ["b"]}"#)],
                "sub/results/results.json: list `errors`: not a list SWE-bench's results.json \
                 holds; benchledger reads: resolved, no_generation,",
            ),
            (
                vec![(RESULTS, r#"{"resolved": ["a", 7]}"#)],
                "sub/results/results.json: list `resolved` item 2: expected an instance id, \
                 got 7",
            ),
            (
                vec![(RESULTS, r#"{"resolved": ["a", "a"]}"#)],
                "list `resolved` item 2: the instance is listed twice in this list",
            ),
            (
                vec![(RESULTS, r#"{"resolved": ["a"], "resolved": []}"#)],
                "field `resolved`: appears twice at the top of the file",
            ),
            (
                vec![(RESULTS, r#"{"resolved": "a"}"#)],
                "list `resolved`: expected a list of instance ids, got the string \"a\"",
            ),
            (
                vec![(RESULTS, r#"{"resolved": ["a"], "no_logs": ["a"]}"#)],
                "sub/results/results.json: instance a: listed both in `resolved` and in \
                 `no_logs`, which rules resolving out",
            ),
            (
                vec![
                    (RESULTS, r#"{"resolved": ["a"]}"#),
                    (details, r#"{"a": {"resolved": false}}"#),
                ],
                "sub/per_instance_details.json: instance a: field `resolved`: false, but \
                 sub/results/results.json lists it in `resolved`",
            ),
            (
                vec![
                    (RESULTS, r#"{"resolved": []}"#),
                    (details, r#"{"b": {"resolved": true}}"#),
                ],
                "instance b: field `resolved`: true, but sub/results/results.json does not list \
                 it in `resolved`",
            ),
            (
                vec![
                    (RESULTS, r#"{"resolved": []}"#),
                    (details, r#"{"b": {"resolved": false, "cost": -2}}"#),
                ],
                "sub/per_instance_details.json: instance b: field `cost`: expected a cost in \
                 USD, 0 or more, got -2",
            ),
            (
                vec![
                    (RESULTS, r#"{"resolved": []}"#),
                    (details, r#"{"b": {"api_calls": 1.5}}"#),
                ],
                "instance b: field `api_calls`: expected a whole number",
            ),
            (
                vec![
                    (RESULTS, r#"{"resolved": []}"#),
                    (details, r#"{"b": {}, "b": {}}"#),
                ],
                "sub/per_instance_details.json: field `b`: appears twice at the top of the file",
            ),
            (
                vec![(RESULTS, r#"["a"]"#)],
                "sub/results/results.json:1: not the JSON this format expects",
            ),
        ] {
            let e = read(&files).unwrap_err().to_string();
            assert!(e.contains(says), "{e}\n  should say: {says}");
        }
    }

    #[test]
    fn the_format_asks_for_the_suites_size() {
        assert!(SweBench.needs_suite_size().is_some());
    }
}
