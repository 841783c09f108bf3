//! Reviewing a submission before it joins the leaderboard (`benchledger review`,
//! docs/review.md): a stranger's run — a Harbor job, Inspect logs, an OpenHands index, any
//! format `ingest --from` reads — checked under the [`rules`] a maintainer declares, with every
//! finding's evidence and one [`Verdict`], **without writing anything**. The caller may then
//! ingest an accepted submission (the manifests the review read are in [`Review::plan`]).
//!
//! What a review checks, each a rule of its own in the output:
//!
//! - `integrity`: links (never followed), special files, unreadable entries, duplicated trials
//!   (`walk.rs`); `completeness`: trial directories without their result;
//! - `require.*`: trials per problem, every problem, the timeout multiplier, overrides in the
//!   run's configuration, the share of infrastructure errors, the model, trajectories;
//! - `score`: the figures recomputed from the per-trial verdicts, errored and missing trials
//!   counted as not Correct (or left out, as `[score]` declares);
//! - `claims`: the submission's own figures (a claims file, or what `claims from` reads from a
//!   Harbor job) checked as `claims check` checks them, its causes named;
//! - `cost`: the cost recomputed cache-aware under a price table, beside the submission's own;
//! - `scan.ID`: patterns searched in every trajectory (`trajectory.rs`);
//! - `secrets`: keys and tokens anywhere in the submission's files, never shown whole
//!   (`secrets.rs`);
//! - with a wave to compare against: where the submission would rank on its problems, and
//!   whether it is separable from the leader and its neighbours (a note, never a rejection).
//!
//! Everything is read through the caller's [`Source`]; nothing here touches the ledger, the
//! clock or the terminal. [`render`] turns a [`Review`] into text, Markdown and JSON.

mod finding;
mod position;
pub mod render;
pub mod rules;
mod runs;
mod scans;
mod secrets;
pub mod submission;
mod trajectory;
mod verdict;
mod walk;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::claims::{ClaimsFile, Figure, SeatFigure, Verdict as ClaimVerdict};
use crate::error::{Error, Location, Result};
use crate::import::Source;
use crate::ingest::from::{self, FromOptions, Plan, WithBuilt};
use crate::ingest::{WaveVisitor, visit_wave};
use crate::model::{SeatData, SuiteProblems, Wave, WaveData};
use crate::prices::{Costs, PriceTable};

pub use finding::{Evidence, Finding};
pub use position::{Neighbour, Position};
pub use rules::{Place, Rules, parse as parse_rules};
pub use verdict::Verdict;
pub use walk::{MAX_DEPTH, MAX_ENTRIES};

/// What to review, and under what.
pub struct Request<'a> {
    /// The submission: files, or directories searched for the format's results files.
    pub paths: &'a [PathBuf],
    /// Its format, as `ingest --from` names it.
    pub format: &'a str,
    /// What the files cannot say (the wave's id, the suite's size, ...), as for
    /// `ingest --from`.
    pub options: FromOptions,
    pub rules: &'a Rules,
    /// The SHA-256 of the rules' text.
    pub rules_sha256: &'a str,
    /// A claims file (its path and text) naming the submission's wave and seats.
    pub claims: Option<(&'a Path, &'a str)>,
    /// A registered price table and its SHA-256: costs recomputed under it.
    pub prices: Option<(&'a PriceTable, &'a str)>,
    /// A wave of the ledger to rank the submission against.
    pub against: Option<&'a WaveData>,
}

/// How one rule fared.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// `require.trials_per_problem`, `scan.git-history`, ...
    pub rule: String,
    /// The worst verdict of its findings; `None`: it passed, or could not be applied.
    pub verdict: Option<Verdict>,
    /// It could not be applied to this submission (said in `summary`).
    pub applied: bool,
    /// What it found, in a few words.
    pub summary: String,
}

/// A claim of the submission's, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimLine {
    pub wave: String,
    pub seat: String,
    pub figure: String,
    /// In the published scale.
    pub claimed: f64,
    pub recomputed: Option<f64>,
    /// `reproduced`, `within_tolerance`, `differs` or `cannot_be_computed`.
    pub outcome: &'static str,
    /// The plausible causes of a difference, in words.
    pub causes: Vec<String>,
}

/// A seat's cost: the submission's own, and recomputed under the price table.
#[derive(Debug, Clone, PartialEq)]
pub struct CostLine {
    pub wave: String,
    pub seat: String,
    pub attempts: u64,
    /// The sum of the costs the files record, and how many attempts record one.
    pub recorded_usd: Option<f64>,
    pub recorded_attempts: u64,
    /// Under the price table, cache-aware, and how many attempts it could price.
    pub recomputed_usd: Option<f64>,
    pub priced_attempts: u64,
}

/// The rules a review applied, as the output names them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesRef {
    pub name: String,
    pub version: u32,
    pub sha256: String,
}

/// A review: the verdict, each rule's check, the findings with their evidence, and what was
/// recomputed.
#[derive(Debug)]
pub struct Review {
    pub verdict: Verdict,
    pub rules: RulesRef,
    pub format: String,
    /// The submission's roots, as given.
    pub paths: Vec<String>,
    pub checks: Vec<Check>,
    pub findings: Vec<Finding>,
    /// The submission's waves as read (as `ingest --from` would add them).
    pub waves: Vec<WaveData>,
    /// The manifests they were read from: what ingesting the submission ingests.
    pub plan: Plan,
    /// Whether the recomputed figures count errored trials as not Correct.
    pub errors_count_as_failures: bool,
    pub claims: Vec<ClaimLine>,
    pub prices: Option<String>,
    pub costs: Vec<CostLine>,
    pub position: Option<Position>,
    pub notes: Vec<String>,
}

/// Findings and checks as they are made.
struct Checks {
    checks: Vec<Check>,
    findings: Vec<Finding>,
}

impl Checks {
    fn passed(&mut self, rule: &str, summary: impl Into<String>) {
        self.checks.push(Check {
            rule: rule.into(),
            verdict: None,
            applied: true,
            summary: summary.into(),
        });
    }

    /// A rule that cannot be applied to this submission: a finding of `verdict` when the
    /// rules ask for it, since what cannot be checked has not been shown.
    fn unchecked(&mut self, rule: &str, verdict: Verdict, why: impl Into<String>) {
        let why = why.into();
        self.checks.push(Check {
            rule: rule.into(),
            verdict: Some(verdict),
            applied: false,
            summary: why.clone(),
        });
        self.findings.push(Finding::new(rule, verdict, why));
    }

    fn found(&mut self, finding: Finding) {
        match self.checks.iter_mut().find(|c| c.rule == finding.rule) {
            Some(c) => {
                c.verdict = c.verdict.max(Some(finding.verdict));
                if c.summary.is_empty() {
                    c.summary = finding.message.clone();
                }
            }
            None => self.checks.push(Check {
                rule: finding.rule.clone(),
                verdict: Some(finding.verdict),
                applied: true,
                summary: finding.message.clone(),
            }),
        }
        self.findings.push(finding);
    }
}

/// Collects a wave's seats as `visit_wave` reads them.
#[derive(Default)]
struct Collect {
    seats: Vec<SeatData>,
}

impl WaveVisitor for Collect {
    fn wave(&mut self, _: &Wave) {}
    fn seat(&mut self, _: &Wave, seat: SeatData) {
        self.seats.push(seat);
    }
}

/// The review as the ledger records it with the wave `wave` it lets in (`review --ingest`;
/// [`crate::ledger::Staging::review`]): the rules it ran under, its verdict, and its findings
/// as the review document's `findings` JSON, with their SHA-256.
pub fn recorded(r: &Review, wave: &str, reviewed_at: &str) -> crate::model::WaveReviewRow {
    let findings = render::findings_json(&r.findings);
    crate::model::WaveReviewRow {
        wave: wave.to_string(),
        rules_name: r.rules.name.clone(),
        rules_version: r.rules.version,
        rules_sha256: r.rules.sha256.clone(),
        verdict: r.verdict.key().to_string(),
        findings_sha256: crate::digest::sha256_hex(findings.as_bytes()),
        findings,
        reviewed_at: reviewed_at.to_string(),
    }
}

/// Reviews a submission. Errors are for input that cannot be read (the submission, the claims
/// file), naming the file, line and field; everything else is a finding.
pub fn review(src: &dyn Source, req: &Request<'_>) -> Result<Review> {
    let rules = req.rules;
    let importer = from::format_named(req.format)?;
    let walked = walk::walk(src, req.paths);
    let confined = walk::Confined { inner: src };
    let plan = from::ingest_from(&confined, req.format, req.paths, &req.options)?;
    let served = WithBuilt {
        inner: &confined,
        built: &plan.manifests,
    };
    let mut waves = Vec::with_capacity(plan.manifests.len());
    for m in &plan.manifests {
        let mut c = Collect::default();
        let wave = visit_wave(&served, &m.path, &mut c)?;
        waves.push(WaveData {
            wave,
            seats: c.seats,
        });
    }
    let beyond = suite_of_rules(&mut waves, rules.require.suite_problems);
    let results: Vec<PathBuf> = walked
        .files
        .iter()
        .map(|(p, _)| p.clone())
        .filter(|p| req.paths.contains(p) || importer.finds(&confined, p))
        .collect();
    let run = runs::read(
        &confined,
        importer.name(),
        &results,
        &walked.files,
        req.paths,
    )?;

    let mut c = Checks {
        checks: Vec::new(),
        findings: Vec::new(),
    };
    for f in walked.findings {
        c.found(f);
    }
    integrity(&mut c, &run);
    if !beyond.is_empty() {
        c.found(
            Finding::new(
                "require.suite_problems",
                Verdict::Reject,
                "the submission holds problems beyond the suite's size the rules declare: it \
                 was not run on the suite",
            )
            .with(beyond),
        );
    }
    require(&mut c, rules, &waves, &run, importer.name());
    let scored = scored(&waves, rules.errors_count_as_failures);
    score(&mut c, &waves, rules.errors_count_as_failures);
    let claims = claims(&mut c, src, req, &scored, &results)?;
    let costs = costs(&mut c, req, &waves);
    scans::scans(&mut c, &confined, rules, &run, &walked.files);
    let position = req
        .against
        .map(|against| position::position(against, &scored));

    let verdict = c
        .findings
        .iter()
        .map(|f| f.verdict)
        .max()
        .unwrap_or(Verdict::Accept);
    let mut notes = plan.notes.clone();
    if let Some(p) = &position {
        notes.extend(p.notes.iter().cloned());
    }
    Ok(Review {
        verdict,
        rules: RulesRef {
            name: rules.name.clone(),
            version: rules.version,
            sha256: req.rules_sha256.to_string(),
        },
        format: importer.name().to_string(),
        paths: req.paths.iter().map(|p| p.display().to_string()).collect(),
        checks: c.checks,
        findings: c.findings,
        waves,
        plan,
        errors_count_as_failures: rules.errors_count_as_failures,
        claims,
        prices: req.prices.map(|(t, _)| t.id()),
        costs,
        position,
        notes,
    })
}

/// The rules' suite size given to each wave that declares none, so that the problems it never
/// ran count as missing; a wave with more problems than that keeps none, and is named.
fn suite_of_rules(waves: &mut [WaveData], size: Option<u64>) -> Vec<Evidence> {
    let Some(n) = size else {
        return Vec::new();
    };
    let mut beyond = Vec::new();
    for w in waves.iter_mut().filter(|w| w.wave.suite_problems.is_none()) {
        let problems: std::collections::BTreeSet<&str> = w
            .seats
            .iter()
            .flat_map(|s| s.attempts.iter().map(|a| a.problem.as_str()))
            .collect();
        if problems.len() as u64 <= n {
            w.wave.suite_problems = Some(SuiteProblems::Count(n));
        } else {
            beyond.push(Evidence {
                excerpt: Some(format!(
                    "wave {}: {} problems, the suite {n}",
                    w.wave.id,
                    problems.len()
                )),
                ..Evidence::default()
            });
        }
    }
    beyond
}

/// The waves as the score counts them: every attempt, or (errors not counted as failures)
/// the attempts that did not end in an infrastructure error.
fn scored(waves: &[WaveData], errors_count_as_failures: bool) -> Vec<WaveData> {
    let mut out = waves.to_vec();
    if !errors_count_as_failures {
        for w in &mut out {
            for s in &mut w.seats {
                s.attempts.retain(|a| !a.infra_error);
            }
        }
    }
    out
}

fn integrity(c: &mut Checks, run: &runs::Run) {
    if !run.duplicated.is_empty() {
        c.found(
            Finding::new(
                "integrity",
                Verdict::Reject,
                "the same trial (by its id) appears in more than one directory: a trial is \
                 counted once",
            )
            .with(run.duplicated.iter().cloned()),
        );
    }
    if !c.checks.iter().any(|k| k.rule == "integrity") {
        c.passed(
            "integrity",
            "no link, special file, unreadable entry or duplicated trial",
        );
    }
    if !run.without_result.is_empty() {
        c.found(
            Finding::new(
                "completeness",
                Verdict::Reject,
                format!(
                    "{} trial director{} without a result.json: every trial keeps its result",
                    run.without_result.len(),
                    if run.without_result.len() == 1 {
                        "y"
                    } else {
                        "ies"
                    }
                ),
            )
            .with(run.without_result.iter().cloned()),
        );
    } else if !run.trials.is_empty() {
        c.passed(
            "completeness",
            format!("every one of {} trials keeps its result", run.trials.len()),
        );
    }
}

/// Whether a seat's model is the model the rules name: the same, or the same after a
/// provider's prefix (`anthropic/claude-sonnet-4-5`).
fn same_model(seat: &str, want: &str) -> bool {
    let bare = |m: &str| m.rsplit('/').next().unwrap_or(m).to_string();
    seat == want || bare(seat) == bare(want)
}

fn require(c: &mut Checks, rules: &Rules, waves: &[WaveData], run: &runs::Run, format: &str) {
    let r = &rules.require;
    if let Some(n) = r.trials_per_problem {
        trials_per_problem(c, n, waves);
    }
    if r.every_problem {
        every_problem(c, waves);
    }
    if let Some(want) = r.timeout_multiplier {
        timeout_multiplier(c, want, waves, run);
    }
    if r.no_overrides {
        no_overrides(c, run, format);
    }
    if let Some(max) = r.max_infra_error_share {
        infra_share(c, max, waves);
    }
    if let Some(want) = &r.model {
        require_model(c, want, waves);
    }
    if r.trajectories {
        trajectories(c, waves, run, format);
    }
}

/// `require.trials_per_problem`: each seat has at least `n` trials of every problem it attempts.
fn trials_per_problem(c: &mut Checks, n: u32, waves: &[WaveData]) {
    let mut short = Vec::new();
    for w in waves {
        for s in &w.seats {
            let mut counts: BTreeMap<&str, u32> = BTreeMap::new();
            for a in &s.attempts {
                *counts.entry(&a.problem).or_default() += 1;
            }
            for (p, k) in counts.into_iter().filter(|(_, k)| *k < n) {
                short.push(Evidence {
                    problem: Some(p.to_string()),
                    seat: Some(s.seat.id.clone()),
                    excerpt: Some(format!("{k} of {n} trials")),
                    ..Evidence::default()
                });
            }
        }
    }
    let rule = "require.trials_per_problem";
    if short.is_empty() {
        c.passed(rule, format!("every problem has at least {n} trials"));
    } else {
        c.found(
            Finding::new(
                rule,
                Verdict::Reject,
                format!(
                    "{} problem{} fewer than {n} trials",
                    short.len(),
                    if short.len() == 1 { " has" } else { "s have" }
                ),
            )
            .with(short),
        );
    }
}

/// `require.no_overrides`: the run overrides no timeout, resource or error policy.
fn no_overrides(c: &mut Checks, run: &runs::Run, format: &str) {
    let rule = "require.no_overrides";
    if !run.records_config {
        c.unchecked(
            rule,
            Verdict::NeedsReview,
            format!(
                "results of format `{format}` record no run configuration: overrides \
                 cannot be ruled out"
            ),
        );
    } else if run.overrides.is_empty() {
        c.passed(rule, "no timeout, resource or error-policy override");
    } else {
        for ((setting, value), at) in &run.overrides {
            c.found(
                Finding::new(
                    rule,
                    Verdict::Reject,
                    format!("the run overrides {setting} = {value}"),
                )
                .with(at.iter().cloned()),
            );
        }
    }
}

/// `require.model`: every seat runs the model `want`.
fn require_model(c: &mut Checks, want: &str, waves: &[WaveData]) {
    let rule = "require.model";
    let other: Vec<Evidence> = waves
        .iter()
        .flat_map(|w| &w.seats)
        .filter(|s| !same_model(&s.seat.model, want))
        .map(|s| Evidence {
            seat: Some(s.seat.id.clone()),
            excerpt: Some(format!("model {}", s.seat.model)),
            ..Evidence::default()
        })
        .collect();
    if other.is_empty() {
        c.passed(rule, format!("every seat runs {want}"));
    } else {
        c.found(
            Finding::new(
                rule,
                Verdict::Reject,
                format!("seats that do not run {want}"),
            )
            .with(other),
        );
    }
}

fn every_problem(c: &mut Checks, waves: &[WaveData]) {
    let rule = "require.every_problem";
    let mut missing = Vec::new();
    let mut unknown = false;
    for w in waves {
        for s in &w.seats {
            let attempted: std::collections::BTreeSet<&str> =
                s.attempts.iter().map(|a| a.problem.as_str()).collect();
            match &w.wave.suite_problems {
                None => unknown = true,
                Some(SuiteProblems::Ids(ids)) => {
                    for id in ids.iter().filter(|id| !attempted.contains(id.as_str())) {
                        missing.push(Evidence {
                            problem: Some(id.clone()),
                            seat: Some(s.seat.id.clone()),
                            ..Evidence::default()
                        });
                    }
                }
                Some(SuiteProblems::Count(n)) => {
                    let have = attempted.len() as u64;
                    if have < *n {
                        missing.push(Evidence {
                            seat: Some(s.seat.id.clone()),
                            excerpt: Some(format!(
                                "{} of the suite's {n} problems have no trial",
                                n - have
                            )),
                            ..Evidence::default()
                        });
                    }
                }
            }
        }
    }
    if !missing.is_empty() {
        c.found(
            Finding::new(
                rule,
                Verdict::Reject,
                "problems of the suite without a trial (each counts as not Correct)",
            )
            .with(missing),
        );
    } else if unknown {
        c.unchecked(
            rule,
            Verdict::NeedsReview,
            "the submission does not say how many problems its suite has: give \
             --suite-problems N, or declare suite_problems in the rules' [require]",
        );
    } else {
        c.passed(rule, "every problem of the suite has its trials");
    }
}

fn timeout_multiplier(c: &mut Checks, want: f64, waves: &[WaveData], run: &runs::Run) {
    let rule = "require.timeout_multiplier";
    let mut any = false;
    let mut wrong = Vec::new();
    for w in waves {
        if let Some(m) = w.wave.load.timeout_multiplier {
            any = true;
            if m != want {
                wrong.push(Evidence {
                    excerpt: Some(format!("wave {}: timeout multiplier {m}", w.wave.id)),
                    ..Evidence::default()
                });
            }
        }
    }
    for (m, at) in &run.trial_multipliers {
        any = true;
        if m.parse::<f64>().ok() != Some(want) {
            wrong.extend(at.iter().map(|e| Evidence {
                excerpt: Some(format!("config.timeout_multiplier = {m}")),
                ..e.clone()
            }));
        }
    }
    if !wrong.is_empty() {
        c.found(
            Finding::new(
                rule,
                Verdict::Reject,
                format!("the run's timeouts were scaled: the rules require a multiplier of {want}"),
            )
            .with(wrong),
        );
    } else if !any {
        c.unchecked(
            rule,
            Verdict::NeedsReview,
            "the submission records no timeout multiplier",
        );
    } else {
        c.passed(rule, format!("timeout multiplier {want}"));
    }
}

fn infra_share(c: &mut Checks, max: f64, waves: &[WaveData]) {
    let rule = "require.max_infra_error_share";
    for w in waves {
        for s in &w.seats {
            let n = s.attempts.len() as u64;
            let errors: Vec<&crate::model::Attempt> =
                s.attempts.iter().filter(|a| a.infra_error).collect();
            let share = if n == 0 {
                0.0
            } else {
                errors.len() as f64 / n as f64
            };
            if share > max {
                c.found(
                    Finding::new(
                        rule,
                        Verdict::NeedsReview,
                        format!(
                            "seat {}: {} of {n} trials ended in an infrastructure error \
                             ({}, more than the {} the rules allow)",
                            s.seat.id,
                            errors.len(),
                            crate::number::percent(share),
                            crate::number::percent(max)
                        ),
                    )
                    .with(errors.iter().map(|a| {
                        Evidence {
                            problem: Some(a.problem.clone()),
                            trial: Some(
                                a.origin
                                    .as_ref()
                                    .and_then(|o| o.file.rsplit('/').next().map(str::to_string))
                                    .unwrap_or_else(|| a.trial.to_string()),
                            ),
                            seat: Some(s.seat.id.clone()),
                            excerpt: a.end_reason.clone(),
                            ..Evidence::default()
                        }
                    })),
                );
            }
        }
    }
    if !c.checks.iter().any(|k| k.rule == rule) {
        c.passed(
            rule,
            format!(
                "infrastructure errors within {} of the trials",
                crate::number::percent(max)
            ),
        );
    }
}

fn trajectories(c: &mut Checks, waves: &[WaveData], run: &runs::Run, format: &str) {
    let rule = "require.trajectories";
    if !run.keeps_trajectories {
        c.unchecked(
            rule,
            Verdict::NeedsReview,
            format!("results of format `{format}` keep no trajectories"),
        );
        return;
    }
    let mut without = run.without_trajectory.clone();
    if format == "swe-bench" {
        let have: std::collections::BTreeSet<&str> = run
            .trajectories
            .iter()
            .filter_map(|t| t.problem.as_deref())
            .collect();
        for w in waves {
            for s in &w.seats {
                for a in s
                    .attempts
                    .iter()
                    .filter(|a| !have.contains(a.problem.as_str()))
                {
                    without.push(Evidence {
                        problem: Some(a.problem.clone()),
                        seat: Some(s.seat.id.clone()),
                        ..Evidence::default()
                    });
                }
            }
        }
    }
    if without.is_empty() {
        c.passed(
            rule,
            "every trial that reached its agent keeps its trajectory",
        );
    } else {
        c.found(
            Finding::new(
                rule,
                Verdict::Reject,
                format!(
                    "{} trial{} reached {} agent but kept no trajectory",
                    without.len(),
                    if without.len() == 1 { "" } else { "s" },
                    if without.len() == 1 { "its" } else { "their" }
                ),
            )
            .with(without),
        );
    }
}

/// The score recomputed: always reported, never a finding of its own (claims compare with it).
fn score(c: &mut Checks, waves: &[WaveData], errors_count_as_failures: bool) {
    let mut parts = Vec::new();
    for w in waves {
        for s in &w.seats {
            let p = crate::stats::trials::SeatProblems::of(&w.wave, &s.attempts);
            let correct = s.attempts.iter().filter(|a| a.correct).count() as u64;
            let kept = if errors_count_as_failures {
                s.attempts.len() as u64
            } else {
                s.attempts.len() as u64 - p.infra_errors
            };
            let denominator = kept + p.missing;
            let rate = if denominator == 0 {
                "no trials".to_string()
            } else {
                crate::number::percent(correct as f64 / denominator as f64)
            };
            parts.push(format!(
                "{}: {correct} of {denominator} Correct ({rate})",
                s.seat.id
            ));
        }
    }
    c.passed(
        "score",
        format!(
            "{}; {}",
            parts.join("; "),
            if errors_count_as_failures {
                "errored and missing trials count as not Correct"
            } else {
                "trials that ended in an infrastructure error are left out"
            }
        ),
    );
}

/// Whether a figure is a rate on a 0–1 scale (compared by absolute difference); others are
/// compared by relative difference.
fn is_rate(figure: &Figure) -> bool {
    matches!(
        figure,
        Figure::Seat(SeatFigure::Accuracy)
            | Figure::Mean(crate::claims::Measure::Outcome)
            | Figure::PassAtK(_)
            | Figure::PassHatK(_)
    )
}

/// The submission's claims: the file given, else what `claims from` reads from a Harbor job
/// of one seat.
fn claims_file(
    c: &mut Checks,
    src: &dyn Source,
    req: &Request<'_>,
    waves: &[WaveData],
    results: &[PathBuf],
) -> Result<Option<ClaimsFile>> {
    if let Some((path, text)) = req.claims {
        let file = crate::claims::parse(path, text)?;
        for claim in &file.claims {
            let at = |line: usize, field: &str| Location::line(path, line).field(field);
            let Some(w) = waves.iter().find(|w| w.wave.id == claim.wave) else {
                return Err(Error::input(
                    at(claim.lines.wave, "wave"),
                    format!(
                        "the submission has no wave `{}`; its waves: {}",
                        claim.wave,
                        waves
                            .iter()
                            .map(|w| w.wave.id.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            };
            // A claim names its seat by id, or by a model alias that fits one seat only
            // (as `claims check` finds it).
            let fits = crate::claims::check::seat_of(w, &claim.seat);
            if let Err(several) = &fits
                && several.len() > 1
            {
                return Err(Error::input(
                    at(claim.lines.seat, "seat"),
                    format!(
                        "`{}` fits {} seats of wave {} ({}): name one by its id",
                        claim.seat,
                        several.len(),
                        claim.wave,
                        several
                            .iter()
                            .map(|s| s.seat.id.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
            if fits.is_err() {
                return Err(Error::input(
                    at(claim.lines.seat, "seat"),
                    format!(
                        "wave {} of the submission has no seat `{}`; its seats: {}",
                        claim.wave,
                        claim.seat,
                        w.seats
                            .iter()
                            .map(|s| s.seat.id.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
        }
        return Ok(Some(file));
    }
    if req.format != "harbor" {
        return Ok(None);
    }
    let (Some(result), [w]) = (results.first(), waves) else {
        return Ok(None);
    };
    let [seat] = w.seats.as_slice() else {
        return Ok(None);
    };
    let text = src.read_text(result).map_err(|e| Error::io(result, e))?;
    match crate::claims::from::harbor(result, &text, &w.wave.id, &seat.seat.id) {
        Ok(file) => Ok(Some(file)),
        Err(e) => {
            c.passed("claims", format!("the job publishes no figures ({e})"));
            Ok(None)
        }
    }
}

fn claims(
    c: &mut Checks,
    src: &dyn Source,
    req: &Request<'_>,
    waves: &[WaveData],
    results: &[PathBuf],
) -> Result<Vec<ClaimLine>> {
    let file = claims_file(c, src, req, waves, results)?;
    let Some(file) = file else {
        if req.rules.claims_tolerance.is_some() && !c.checks.iter().any(|k| k.rule == "claims") {
            c.checks.push(Check {
                rule: "claims".into(),
                verdict: None,
                applied: false,
                summary: "the submission claims no figures to check (give --claims FILE)".into(),
            });
        }
        return Ok(Vec::new());
    };
    let scores = BTreeMap::new();
    let mut lines = Vec::new();
    let mut differ = 0;
    for claim in &file.claims {
        let Some(data) = waves.iter().find(|w| w.wave.id == claim.wave) else {
            continue;
        };
        let checked = crate::claims::check(
            claim,
            &crate::claims::WaveCtx {
                data,
                scores: &scores,
                variants: &[],
            },
        );
        let causes: Vec<String> = checked
            .causes
            .iter()
            .filter(|k| k.reproduces)
            .map(|k| k.says.clone())
            .collect();
        let outcome = outcome_of(req, claim, &checked);
        let line = ClaimLine {
            wave: claim.wave.clone(),
            seat: claim.seat.clone(),
            figure: claim.figure.name(),
            claimed: claim.value,
            recomputed: checked.computed,
            outcome,
            causes: causes.clone(),
        };
        if req.rules.claims_tolerance.is_some() && judge_claim(c, claim, &line, &checked, &causes) {
            differ += 1;
        }
        lines.push(line);
    }
    if req.rules.claims_tolerance.is_some()
        && differ == 0
        && !lines.is_empty()
        && !c.checks.iter().any(|k| k.rule == "claims")
    {
        c.passed(
            "claims",
            format!(
                "{} claimed figure{} reproduce{}",
                lines.len(),
                if lines.len() == 1 { "" } else { "s" },
                if lines.len() == 1 { "s" } else { "" }
            ),
        );
    }
    Ok(lines)
}

/// How a claim came out against its recomputation: reproduced, within `--claims-tolerance`
/// (of a rate, in its units; of any other figure, relative to it), differs, or cannot be
/// computed.
fn outcome_of(
    req: &Request<'_>,
    claim: &crate::claims::Claim,
    checked: &crate::claims::Checked,
) -> &'static str {
    match checked.verdict {
        ClaimVerdict::Reproduced => "reproduced",
        ClaimVerdict::CannotBeComputed => "cannot_be_computed",
        ClaimVerdict::Differs => {
            let within = match (req.rules.claims_tolerance, checked.computed) {
                (Some(t), Some(x)) if is_rate(&claim.figure) => {
                    ((x - claim.value) / claim.scale).abs() <= t
                }
                (Some(t), Some(x)) if claim.value != 0.0 => {
                    ((x - claim.value) / claim.value).abs() <= t
                }
                _ => false,
            };
            if within {
                "within_tolerance"
            } else {
                "differs"
            }
        }
    }
}

/// Records the finding a claim's `line` makes, when it differs or cannot be recomputed; true
/// when it differs.
fn judge_claim(
    c: &mut Checks,
    claim: &crate::claims::Claim,
    line: &ClaimLine,
    checked: &crate::claims::Checked,
    causes: &[String],
) -> bool {
    let evidence = Evidence {
        seat: Some(claim.seat.clone()),
        excerpt: Some(format!(
            "{} claimed {}, recomputed {}",
            line.figure,
            crate::number::machine(claim.value),
            checked
                .computed
                .map_or("nothing".to_string(), crate::number::machine)
        )),
        ..Evidence::default()
    };
    match line.outcome {
        "differs" => {
            let why = if causes.is_empty() {
                String::new()
            } else {
                format!("; it {}", causes.join("; or it "))
            };
            c.found(
                Finding::new(
                    "claims",
                    Verdict::Reject,
                    format!(
                        "a claimed {} of seat {} differs from the one recomputed over \
                         every trial{why}",
                        line.figure, claim.seat
                    ),
                )
                .with([evidence]),
            );
            true
        }
        "cannot_be_computed" => {
            c.found(
                Finding::new(
                    "claims",
                    Verdict::NeedsReview,
                    format!(
                        "a claimed {} of seat {} cannot be recomputed: {}",
                        line.figure,
                        claim.seat,
                        checked.reason.clone().unwrap_or_default()
                    ),
                )
                .with([evidence]),
            );
            false
        }
        _ => false,
    }
}

fn costs(c: &mut Checks, req: &Request<'_>, waves: &[WaveData]) -> Vec<CostLine> {
    let Some((table, sha)) = req.prices else {
        if req.rules.cost_tolerance.is_some() {
            c.checks.push(Check {
                rule: "cost".into(),
                verdict: None,
                applied: false,
                summary: "not recomputed: give --prices NAME@VERSION".into(),
            });
        }
        return Vec::new();
    };
    let mut lines = Vec::new();
    for w in waves {
        let mut priced = w.clone();
        crate::prices::price_wave(table, sha, &mut priced, Costs::Reprice);
        for (s, p) in w.seats.iter().zip(&priced.seats) {
            let sum = |attempts: &[crate::model::Attempt]| {
                let known: Vec<f64> = attempts.iter().filter_map(|a| a.cost_usd).collect();
                let n = known.len() as u64;
                ((n > 0).then(|| known.iter().sum::<f64>()), n)
            };
            let (recorded_usd, recorded_attempts) = sum(&s.attempts);
            let (recomputed_usd, priced_attempts) = sum(&p.attempts);
            let line = CostLine {
                wave: w.wave.id.clone(),
                seat: s.seat.id.clone(),
                attempts: s.attempts.len() as u64,
                recorded_usd,
                recorded_attempts,
                recomputed_usd,
                priced_attempts,
            };
            if let (Some(t), Some(r), Some(x)) =
                (req.rules.cost_tolerance, recorded_usd, recomputed_usd)
                && x > 0.0
                && ((r - x) / x).abs() > t
            {
                c.found(
                    Finding::new(
                        "cost",
                        Verdict::NeedsReview,
                        format!(
                            "seat {}: the submission's own cost {} is {} the cost recomputed \
                             under {} ({}), more than the {} the rules allow",
                            s.seat.id,
                            crate::number::usd_significant(r),
                            crate::number::fixed(r / x, 2) + "×",
                            table.id(),
                            crate::number::usd_significant(x),
                            crate::number::percent(t)
                        ),
                    )
                    .with([Evidence {
                        seat: Some(s.seat.id.clone()),
                        ..Evidence::default()
                    }]),
                );
            }
            lines.push(line);
        }
    }
    if req.rules.cost_tolerance.is_some() && !c.checks.iter().any(|k| k.rule == "cost") {
        c.passed(
            "cost",
            format!("the submission's own costs agree with {}", table.id()),
        );
    }
    lines
}
