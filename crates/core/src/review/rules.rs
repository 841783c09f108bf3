//! Submission rules: the versioned TOML file a maintainer declares what a submission must
//! show before it joins the leaderboard (docs/review.md). Like a rubric, a rules file is data,
//! never code: parsing is strict (an unknown key is an error naming the file, line and key),
//! every pattern is compiled on the linear-time engine of the `regex` crate (so no pattern can
//! make a review run for ever), and what comes out is plain data [`super::review`] applies.

use serde::Deserialize;
use toml::Spanned;

use crate::diagnostics::{check_slug, closest, line_of, toml_error};
use crate::error::{Error, Location, Result};

use super::verdict::Verdict;

/// Where a `[[scan]]` pattern looks in a trajectory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Place {
    /// What the agent ran: a tool call's arguments (a shell command, a file edit).
    Commands,
    /// What was said: the task, the agent's messages and reasoning.
    Messages,
    /// What came back: a tool's output, an observation.
    Outputs,
    /// All of the above, and any other text the trajectory holds.
    Any,
}

impl Place {
    pub const ALL: [Place; 4] = [Place::Commands, Place::Messages, Place::Outputs, Place::Any];

    /// The word a rules file and the JSON use.
    pub fn key(self) -> &'static str {
        match self {
            Place::Commands => "commands",
            Place::Messages => "messages",
            Place::Outputs => "outputs",
            Place::Any => "any",
        }
    }

    /// Whether a text found at `found` is searched by a pattern that looks `self`.
    pub fn covers(self, found: Place) -> bool {
        self == Place::Any || self == found
    }
}

/// One `[[scan]]`: a pattern searched in every trajectory the submission holds.
#[derive(Debug, Clone)]
pub struct Scan {
    pub id: String,
    pub description: Option<String>,
    /// The pattern as written.
    pub pattern: String,
    pub regex: regex::Regex,
    pub place: Place,
    pub verdict: Verdict,
    /// Line of the `[[scan]]` header.
    pub line: usize,
}

/// What `[require]` asks of a run. Each `None` (or `false`) is not required.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Require {
    /// At least this many trials of every problem.
    pub trials_per_problem: Option<u32>,
    /// Every problem of the suite has its trials: the missing ones are named.
    pub every_problem: bool,
    /// The suite's size, when the submission's files cannot say it (`--suite-problems` wins).
    pub suite_problems: Option<u64>,
    /// The run's timeout multiplier must be exactly this.
    pub timeout_multiplier: Option<f64>,
    /// No per-phase timeout, resource or error-policy override in the run's configuration.
    pub no_overrides: bool,
    /// More infrastructure errors than this share of the trials: needs review.
    pub max_infra_error_share: Option<f64>,
    /// Every seat runs this model.
    pub model: Option<String>,
    /// Every trial that reached its agent keeps its trajectory (formats that keep them).
    pub trajectories: bool,
}

/// A parsed, checked rules file.
#[derive(Debug, Clone)]
pub struct Rules {
    pub name: String,
    pub version: u32,
    pub description: Option<String>,
    /// Where each rule comes from: the leaderboard's published rules, an issue, a paper.
    pub sources: Vec<String>,
    pub require: Require,
    /// `[score] errors_count_as_failures` (default true): the recomputed score counts every
    /// errored or missing trial as not Correct.
    pub errors_count_as_failures: bool,
    /// `[claims] tolerance`: a claimed rate further than this from the recomputed one differs.
    pub claims_tolerance: Option<f64>,
    /// `[cost] tolerance`: the submission's own cost further than this share from the cost
    /// recomputed with `--prices` needs review.
    pub cost_tolerance: Option<f64>,
    pub scans: Vec<Scan>,
    /// `[secrets] verdict`: what a key or token found anywhere in the submission gives; `None`
    /// when the rules have no `[secrets]` (keys are then not searched for).
    pub secrets: Option<Verdict>,
}

impl Rules {
    /// `name@version`.
    pub fn id(&self) -> String {
        format!("{}@{}", self.name, self.version)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    rules: Spanned<RawHeader>,
    #[serde(default)]
    require: Option<Spanned<RawRequire>>,
    #[serde(default)]
    score: Option<RawScore>,
    #[serde(default)]
    claims: Option<Spanned<RawTolerance>>,
    #[serde(default)]
    cost: Option<Spanned<RawTolerance>>,
    #[serde(default)]
    scan: Vec<Spanned<RawScan>>,
    #[serde(default)]
    secrets: Option<Spanned<RawSecrets>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHeader {
    name: Spanned<String>,
    version: Spanned<i64>,
    description: Option<String>,
    #[serde(default)]
    sources: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRequire {
    trials_per_problem: Option<Spanned<i64>>,
    #[serde(default)]
    every_problem: bool,
    suite_problems: Option<Spanned<i64>>,
    timeout_multiplier: Option<Spanned<f64>>,
    #[serde(default)]
    no_overrides: bool,
    max_infra_error_share: Option<Spanned<f64>>,
    model: Option<Spanned<String>>,
    #[serde(default)]
    trajectories: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScore {
    errors_count_as_failures: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTolerance {
    tolerance: Spanned<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScan {
    id: Spanned<String>,
    description: Option<String>,
    pattern: Spanned<String>,
    #[serde(rename = "in")]
    place: Option<Spanned<String>>,
    verdict: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSecrets {
    verdict: Option<Spanned<String>>,
}

/// The most a compiled pattern may take (the `regex` crate's size limit): a pattern past it is
/// refused rather than slowing every review.
const PATTERN_SIZE: usize = 1 << 20;

struct Ctx<'a> {
    path: &'a std::path::Path,
    text: &'a str,
}

impl Ctx<'_> {
    fn at<T>(&self, v: &Spanned<T>, field: &str) -> Location {
        Location::line(self.path, line_of(self.text, v.span().start)).field(field)
    }

    fn share(&self, v: &Spanned<f64>, field: &str) -> Result<f64> {
        let x = *v.get_ref();
        if x.is_finite() && (0.0..=1.0).contains(&x) {
            Ok(x)
        } else {
            Err(Error::input(
                self.at(v, field),
                format!("expected a share between 0 and 1, got {x}"),
            ))
        }
    }

    fn count(&self, v: &Spanned<i64>, field: &str, max: i64) -> Result<u64> {
        let n = *v.get_ref();
        if (1..=max).contains(&n) {
            Ok(n as u64)
        } else {
            Err(Error::input(
                self.at(v, field),
                format!("expected a whole number from 1 to {max}, got {n}"),
            ))
        }
    }

    fn verdict(&self, v: &Option<Spanned<String>>, default: Verdict) -> Result<Verdict> {
        let Some(v) = v else { return Ok(default) };
        Verdict::from_key(v.get_ref())
            .ok_or_else(|| {
                let keys = [Verdict::NeedsReview.key(), Verdict::Reject.key()];
                let hint = closest(v.get_ref(), keys)
                    .map(|c| format!(" (did you mean `{c}`?)"))
                    .filter(|_| v.get_ref() != Verdict::Accept.key())
                    .unwrap_or_default();
                Error::input(
                    self.at(v, "verdict"),
                    format!(
                        "expected \"needs-review\" or \"reject\", got {:?}{hint}: a finding \
                     that accepts is no finding",
                        v.get_ref()
                    ),
                )
            })
            .and_then(|verdict| {
                if verdict == Verdict::Accept {
                    Err(Error::input(
                        self.at(v, "verdict"),
                        "expected \"needs-review\" or \"reject\": a finding that accepts is no \
                     finding",
                    ))
                } else {
                    Ok(verdict)
                }
            })
    }

    fn scan(&self, s: &Spanned<RawScan>, seen: &[Scan]) -> Result<Scan> {
        let line = line_of(self.text, s.span().start);
        let s = s.get_ref();
        let id = s.id.get_ref().clone();
        check_slug(self.at(&s.id, "id"), "scan id", &id)?;
        if let Some(first) = seen.iter().find(|o| o.id == id) {
            return Err(Error::input(
                self.at(&s.id, "id"),
                format!(
                    "scan {id:?} is declared twice (first at line {}): give each scan an id of \
                     its own",
                    first.line
                ),
            ));
        }
        let pattern = s.pattern.get_ref().clone();
        if pattern.is_empty() {
            return Err(Error::input(
                self.at(&s.pattern, "pattern"),
                format!("scan {id:?}: the pattern is empty, and would match every text"),
            ));
        }
        let regex = regex::RegexBuilder::new(&pattern)
            .size_limit(PATTERN_SIZE)
            .build()
            .map_err(|e| {
                Error::input(
                    self.at(&s.pattern, "pattern"),
                    format!(
                        "scan {id:?}: the pattern is not a valid regular expression (the syntax \
                         of Rust's regex crate, which has no look-around or back-references, so \
                         that every search takes linear time): {}",
                        one_line(&e.to_string())
                    ),
                )
            })?;
        if regex.is_match("") {
            return Err(Error::input(
                self.at(&s.pattern, "pattern"),
                format!(
                    "scan {id:?}: the pattern matches the empty text, so it would flag every \
                     step; make it require at least one character"
                ),
            ));
        }
        let place = match &s.place {
            None => Place::Any,
            Some(p) => Place::ALL
                .into_iter()
                .find(|k| k.key() == p.get_ref())
                .ok_or_else(|| {
                    let hint = closest(p.get_ref(), Place::ALL.map(Place::key))
                        .map(|c| format!(" (did you mean `{c}`?)"))
                        .unwrap_or_default();
                    Error::input(
                        self.at(p, "in"),
                        format!(
                            "scan {id:?}: unknown place {:?}{hint}; expected one of commands, \
                             messages, outputs, any",
                            p.get_ref()
                        ),
                    )
                })?,
        };
        Ok(Scan {
            id,
            description: s.description.clone(),
            pattern,
            regex,
            place,
            verdict: self.verdict(&s.verdict, Verdict::NeedsReview)?,
            line,
        })
    }

    fn require(&self, r: &RawRequire) -> Result<Require> {
        let timeout_multiplier = match &r.timeout_multiplier {
            None => None,
            Some(m) if m.get_ref().is_finite() && *m.get_ref() > 0.0 => Some(*m.get_ref()),
            Some(m) => {
                return Err(Error::input(
                    self.at(m, "timeout_multiplier"),
                    format!("expected a factor above 0, got {}", m.get_ref()),
                ));
            }
        };
        let model = match &r.model {
            Some(m) if m.get_ref().trim().is_empty() => {
                return Err(Error::input(
                    self.at(m, "model"),
                    "expected the model every seat must run, as its files name it",
                ));
            }
            m => m.as_ref().map(|m| m.get_ref().trim().to_string()),
        };
        Ok(Require {
            trials_per_problem: r
                .trials_per_problem
                .as_ref()
                .map(|n| {
                    self.count(n, "trials_per_problem", 10_000)
                        .map(|n| n as u32)
                })
                .transpose()?,
            every_problem: r.every_problem,
            suite_problems: r
                .suite_problems
                .as_ref()
                .map(|n| self.count(n, "suite_problems", crate::model::MAX_SUITE_PROBLEMS as i64))
                .transpose()?,
            timeout_multiplier,
            no_overrides: r.no_overrides,
            max_infra_error_share: r
                .max_infra_error_share
                .as_ref()
                .map(|x| self.share(x, "max_infra_error_share"))
                .transpose()?,
            model,
            trajectories: r.trajectories,
        })
    }
}

/// The rules benchledger ships (`rules/` in its repository), by name and version: a review
/// names them as `NAME@VERSION` without registering them first.
pub const SHIPPED: &[(&str, u32, &str)] = &[
    (
        "terminal-bench-2",
        1,
        include_str!("../../../../rules/terminal-bench-2.v1.toml"),
    ),
    (
        "swe-bench",
        1,
        include_str!("../../../../rules/swe-bench.v1.toml"),
    ),
];

/// The text of shipped rules `name@version`.
pub fn shipped(name: &str, version: u32) -> Option<&'static str> {
    SHIPPED
        .iter()
        .find(|(n, v, _)| *n == name && *v == version)
        .map(|(_, _, text)| *text)
}

/// An error's text on one line, for a message that carries it.
fn one_line(s: &str) -> String {
    s.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Parses a rules file's text. `path` is used in error messages only.
///
/// Checked in this order, always, so that of two faults the same one is reported every time:
/// the header, `[require]`, `[score]`, `[claims]`, `[cost]`, each `[[scan]]` in file order,
/// `[secrets]`.
pub fn parse(path: &std::path::Path, text: &str) -> Result<Rules> {
    let raw: RawFile = toml::from_str(text).map_err(|e| toml_error(path, text, &e))?;
    let c = Ctx { path, text };
    let header = raw.rules.get_ref();
    let name = header.name.get_ref().clone();
    check_slug(c.at(&header.name, "name"), "rules name", &name)?;
    let version = match *header.version.get_ref() {
        v @ 1..=100_000 => v as u32,
        v => {
            return Err(Error::input(
                c.at(&header.version, "version"),
                format!("expected a version from 1 up, got {v}"),
            ));
        }
    };
    let require = match &raw.require {
        Some(r) => c.require(r.get_ref())?,
        None => Require::default(),
    };
    let tolerance = |t: &Option<Spanned<RawTolerance>>, what: &str| {
        t.as_ref()
            .map(|t| c.share(&t.get_ref().tolerance, &format!("{what}.tolerance")))
            .transpose()
    };
    let claims_tolerance = tolerance(&raw.claims, "claims")?;
    let cost_tolerance = tolerance(&raw.cost, "cost")?;
    let mut scans: Vec<Scan> = Vec::with_capacity(raw.scan.len());
    for s in &raw.scan {
        let scan = c.scan(s, &scans)?;
        scans.push(scan);
    }
    let secrets = raw
        .secrets
        .as_ref()
        .map(|s| c.verdict(&s.get_ref().verdict, Verdict::Reject))
        .transpose()?;
    let rules = Rules {
        name,
        version,
        description: header.description.clone(),
        sources: header.sources.clone(),
        require,
        errors_count_as_failures: raw
            .score
            .as_ref()
            .and_then(|s| s.errors_count_as_failures)
            .unwrap_or(true),
        claims_tolerance,
        cost_tolerance,
        scans,
        secrets,
    };
    if nothing_checked(&rules) {
        return Err(Error::input(
            Location::file(path),
            "the rules check nothing: declare at least one of [require], [claims], [cost], \
             [[scan]] or [secrets] (docs/review.md lists them)",
        ));
    }
    Ok(rules)
}

/// Whether a rules file asks for nothing at all (a review under it would accept anything).
fn nothing_checked(r: &Rules) -> bool {
    r.require == Require::default()
        && r.claims_tolerance.is_none()
        && r.cost_tolerance.is_none()
        && r.scans.is_empty()
        && r.secrets.is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    const GOOD: &str = r#"[rules]
name = "tb2"
version = 1
description = "test rules"

[require]
trials_per_problem = 5
every_problem = true
timeout_multiplier = 1.0
no_overrides = true
max_infra_error_share = 0.05

[claims]
tolerance = 0.005

[[scan]]
id = "git-history"
pattern = '''git\s+log\s+--all'''
in = "commands"

[secrets]
"#;

    fn err(text: &str) -> String {
        parse(Path::new("r.toml"), text).unwrap_err().to_string()
    }

    #[test]
    fn a_good_file_parses_with_its_defaults() {
        let r = parse(Path::new("r.toml"), GOOD).unwrap();
        assert_eq!(r.id(), "tb2@1");
        assert_eq!(r.require.trials_per_problem, Some(5));
        assert!(r.require.every_problem && r.require.no_overrides);
        assert_eq!(r.require.timeout_multiplier, Some(1.0));
        assert_eq!(r.require.max_infra_error_share, Some(0.05));
        assert!(r.errors_count_as_failures);
        assert_eq!(r.claims_tolerance, Some(0.005));
        assert_eq!(r.scans.len(), 1);
        assert_eq!(r.scans[0].place, Place::Commands);
        assert_eq!(r.scans[0].verdict, Verdict::NeedsReview);
        assert_eq!(r.scans[0].line, 16);
        assert!(r.scans[0].regex.is_match("git  log --all"));
        assert_eq!(r.secrets, Some(Verdict::Reject));
    }

    #[test]
    fn an_unknown_key_is_named_with_its_line() {
        let e = err(&GOOD.replace("every_problem", "every_problems"));
        assert!(e.starts_with("r.toml:8: field `every_problems`:"), "{e}");
    }

    #[test]
    fn a_malformed_pattern_names_its_scan_and_line() {
        let e = err(&GOOD.replace(r"git\s+log\s+--all", r"git(log"));
        assert!(e.starts_with("r.toml:18: field `pattern`:"), "{e}");
        assert!(e.contains("scan \"git-history\""), "{e}");
        // Look-around is not linear-time: refused, saying why.
        let e = err(&GOOD.replace(r"git\s+log\s+--all", r"git(?=log)"));
        assert!(e.contains("linear time"), "{e}");
    }

    #[test]
    fn a_pattern_that_matches_nothing_in_particular_is_refused() {
        let e = err(&GOOD.replace(r"git\s+log\s+--all", r"x*"));
        assert!(e.contains("matches the empty text"), "{e}");
    }

    #[test]
    fn bad_values_name_their_field() {
        let e = err(&GOOD.replace("max_infra_error_share = 0.05", "max_infra_error_share = 5"));
        assert!(
            e.starts_with("r.toml:11: field `max_infra_error_share`:"),
            "{e}"
        );
        let e = err(&GOOD.replace("timeout_multiplier = 1.0", "timeout_multiplier = 0.0"));
        assert!(
            e.contains("field `timeout_multiplier`: expected a factor above 0"),
            "{e}"
        );
        let e = err(&GOOD.replace("in = \"commands\"", "in = \"command\""));
        assert!(e.contains("did you mean `commands`?"), "{e}");
        let e = err(&GOOD.replace("[secrets]", "[secrets]\nverdict = \"accept\""));
        assert!(e.contains("a finding that accepts is no finding"), "{e}");
        let e = err(&GOOD.replace("[secrets]", "[secrets]\nverdict = \"rejct\""));
        assert!(e.contains("did you mean `reject`?"), "{e}");
        let e = err(&GOOD.replace("trials_per_problem = 5", "trials_per_problem = 0"));
        assert!(
            e.contains("field `trials_per_problem`: expected a whole number"),
            "{e}"
        );
    }

    #[test]
    fn a_scan_id_is_declared_once() {
        let twice = format!("{GOOD}\n[[scan]]\nid = \"git-history\"\npattern = \"reflog\"\n");
        let e = err(&twice);
        assert!(e.contains("declared twice (first at line 16)"), "{e}");
    }

    #[test]
    fn the_shipped_rules_parse_under_their_own_names() {
        for (name, version, text) in SHIPPED {
            let r = parse(Path::new(name), text).unwrap();
            assert_eq!((r.name.as_str(), r.version), (*name, *version));
            assert!(!r.sources.is_empty(), "{name} cites its sources");
        }
        let tb = parse(Path::new("tb"), shipped("terminal-bench-2", 1).unwrap()).unwrap();
        let hit = |id: &str, text: &str| {
            tb.scans
                .iter()
                .find(|s| s.id == id)
                .unwrap()
                .regex
                .is_match(text)
        };
        assert!(hit(
            "benchmark-repository",
            "git clone https://github.com/laude-institute/terminal-bench"
        ));
        assert!(hit("reward-file", "echo 1 > /logs/verifier/reward.txt"));
        assert!(!hit("reward-file", "cat /logs/agent/output.txt"));
        let swe = parse(Path::new("swe"), shipped("swe-bench", 1).unwrap()).unwrap();
        let hit = |id: &str, text: &str| {
            swe.scans
                .iter()
                .find(|s| s.id == id)
                .unwrap()
                .regex
                .is_match(text)
        };
        assert!(hit("git-history", "git log --oneline --all"));
        assert!(hit("git-history", "git show 3f2a9c1"));
        assert!(!hit("git-history", "git diff HEAD"));
        assert!(hit(
            "upstream-fix",
            "curl -s https://github.com/django/django/pull/1234.diff"
        ));
        assert!(hit("tests-edited", "sed -i 's/a/b/' tests/test_views.py"));
    }

    #[test]
    fn rules_that_check_nothing_are_refused() {
        let e = err("[rules]\nname = \"x\"\nversion = 1\n");
        assert!(e.contains("the rules check nothing"), "{e}");
    }
}
