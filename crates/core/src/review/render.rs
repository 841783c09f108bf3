//! A [`Review`] for people (text), for a pull request (Markdown: a summary line with the
//! verdict, a table of the rules with what each found, the findings with their evidence, then
//! the recomputed figures, the claims, the cost and the position) and for bots (JSON, the
//! `review` document of docs/review.md). Every renderer returns a string; every string from the
//! submission is escaped for where it lands, and every excerpt had its keys masked before it
//! got here.

use serde::Serialize;

use super::position::{Neighbour, Placed};
use super::{Check, ClaimLine, CostLine, Finding, Review, Verdict};
use crate::report::{self, Table};

/// A check's result in a word: `passed`, `not applied`, or its verdict.
fn result(c: &Check) -> &'static str {
    match (c.verdict, c.applied) {
        (None, true) => "passed",
        (None, false) => "not applied",
        (Some(v), _) => v.key(),
    }
}

fn usd(x: Option<f64>) -> String {
    x.map_or("unknown".into(), crate::number::usd_significant)
}

fn rate(x: Option<f64>) -> String {
    x.map_or("cannot be computed".into(), crate::number::machine)
}

/// Every control character escaped, so a string from the submission cannot move a terminal's
/// cursor or break a line.
fn plain(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}') {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// Text for a Markdown line or table cell: controls escaped, then every character Markdown
/// or HTML gives meaning to.
fn md(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in plain(s).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '#' | '~' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// An excerpt as a Markdown code span (where nothing is markup, HTML included), fenced by
/// more backticks than it holds in a row, control characters escaped. Not for a table's cell
/// unless it holds no `|`.
fn code(s: &str) -> String {
    let s = plain(s);
    let mut run = 0;
    let mut longest = 0;
    for c in s.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

fn evidence_line(e: &super::Evidence, markdown: bool) -> String {
    let place = e.place();
    let place = if markdown { md(&place) } else { plain(&place) };
    match (&e.excerpt, markdown) {
        (Some(x), true) if place.is_empty() => code(x),
        (Some(x), true) => format!("{place}: {}", code(x)),
        (Some(x), false) if place.is_empty() => plain(x),
        (Some(x), false) => format!("{place}: {}", plain(x)),
        (None, _) => place,
    }
}

fn neighbour_text(n: &Neighbour) -> String {
    format!(
        "{} {} ({}{}; {} test p = {})",
        n.seat,
        crate::number::percent(n.accuracy),
        n.difference
            .map(|d| format!("difference {}", crate::number::signed(d * 100.0, 1)))
            .unwrap_or_else(|| "no shared problem".into()),
        if n.difference.is_some() {
            " points"
        } else {
            ""
        },
        n.test,
        crate::number::fixed(n.p, 4)
    )
}

/// The review as text, the recomputed leaderboards drawn by `table` (the terminal's renderer).
pub fn text(r: &Review, table: &dyn Fn(&Table) -> String) -> String {
    let mut out = format!(
        "Review of {} ({}) under rules {}@{} (sha256 {})\nverdict: {}\n",
        plain(&r.paths.join(", ")),
        r.format,
        plain(&r.rules.name),
        r.rules.version,
        crate::digest::short(&r.rules.sha256),
        r.verdict.key()
    );
    out.push_str("\nRules\n");
    let width = r
        .checks
        .iter()
        .map(|c| c.rule.chars().count())
        .max()
        .unwrap_or(0);
    for c in &r.checks {
        out.push_str(&format!(
            "  {:width$}  {:12}  {}\n",
            plain(&c.rule),
            result(c),
            plain(&c.summary)
        ));
    }
    if !r.findings.is_empty() {
        out.push_str(&format!("\nFindings ({})\n", r.findings.len()));
        for f in &r.findings {
            out.push_str(&format!(
                "  {} {}: {}\n",
                f.verdict.key(),
                plain(&f.rule),
                plain(&f.message)
            ));
            for e in &f.evidence {
                out.push_str(&format!("    - {}\n", evidence_line(e, false)));
            }
            if f.more_evidence > 0 {
                out.push_str(&format!("    - and {} more\n", f.more_evidence));
            }
        }
    }
    out.push_str("\nRecomputed\n");
    for w in &r.waves {
        let (t, _) = report::waves::show(w);
        out.push('\n');
        out.push_str(&table(&t));
    }
    if !r.claims.is_empty() {
        out.push_str("\nClaims\n");
        for c in &r.claims {
            out.push_str(&format!(
                "  {} {}: claimed {}, recomputed {}: {}{}\n",
                plain(&c.seat),
                c.figure,
                crate::number::machine(c.claimed),
                rate(c.recomputed),
                c.outcome.replace('_', " "),
                if c.causes.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", plain(&c.causes.join("; or ")))
                }
            ));
        }
    }
    if let Some(prices) = &r.prices {
        out.push_str(&format!(
            "\nCost (recomputed under {prices}, cache-aware)\n"
        ));
        for c in &r.costs {
            out.push_str(&format!(
                "  {}: the submission's {} ({} of {} attempts), recomputed {} ({} of {} \
                 priced)\n",
                plain(&c.seat),
                usd(c.recorded_usd),
                c.recorded_attempts,
                c.attempts,
                usd(c.recomputed_usd),
                c.priced_attempts,
                c.attempts
            ));
        }
    }
    if let Some(p) = &r.position {
        out.push_str(&format!("\nPosition on wave {}\n", plain(&p.wave)));
        for s in &p.seats {
            out.push_str(&format!("  {}\n", plain(&position_line(s, p.problems))));
        }
    }
    if !r.notes.is_empty() {
        out.push_str("\nNotes\n");
        for n in &r.notes {
            out.push_str(&format!("  - {}\n", plain(n)));
        }
    }
    out
}

fn position_line(s: &Placed, problems: u64) -> String {
    let mut line = format!(
        "{}: {} on {problems} problems, rank {} of {}",
        s.seat,
        crate::number::percent(s.accuracy),
        s.rank,
        s.of
    );
    for (what, n) in [
        ("leader", &s.leader),
        ("above", &s.above),
        ("below", &s.below),
    ] {
        if let Some(n) = n {
            line.push_str(&format!(
                "; {what}: {}{}",
                neighbour_text(n),
                if n.separable { "" } else { ", within noise" }
            ));
        }
    }
    line
}

/// The review as Markdown, made to be posted as a pull request's comment.
pub fn markdown(r: &Review) -> String {
    let mut out = format!(
        "## benchledger review: **{}**\n\n{} under rules {} (sha256 {}): {} finding{}\n\n",
        r.verdict.key(),
        r.paths
            .iter()
            .map(|p| code(p))
            .collect::<Vec<_>>()
            .join(", ")
            + &format!(" ({})", r.format),
        code(&format!("{}@{}", r.rules.name, r.rules.version)),
        code(crate::digest::short(&r.rules.sha256)),
        r.findings.len(),
        if r.findings.len() == 1 { "" } else { "s" }
    );
    md_checks(&mut out, r);
    md_findings(&mut out, r);
    md_recomputed(&mut out, r);
    md_claims(&mut out, r);
    md_costs(&mut out, r);
    md_notes(&mut out, r);
    out
}

/// The Markdown review's table of checks: each rule, its result and what it found.
fn md_checks(out: &mut String, r: &Review) {
    out.push_str("| rule | result | what it found |\n|---|---|---|\n");
    for c in &r.checks {
        let word = match c.verdict {
            Some(v) if v != Verdict::Accept => format!("**{}**", v.key()),
            _ => result(c).to_string(),
        };
        out.push_str(&format!(
            "| {} | {word} | {} |\n",
            code(&c.rule),
            md(&c.summary)
        ));
    }
}

/// The Markdown review's findings, each with its evidence, when there are any.
fn md_findings(out: &mut String, r: &Review) {
    if !r.findings.is_empty() {
        out.push_str("\n### Findings\n\n");
        for f in &r.findings {
            out.push_str(&format!(
                "- **{}** {}: {}\n",
                f.verdict.key(),
                code(&f.rule),
                md(&f.message)
            ));
            for e in &f.evidence {
                out.push_str(&format!("  - {}\n", evidence_line(e, true)));
            }
            if f.more_evidence > 0 {
                out.push_str(&format!("  - and {} more\n", f.more_evidence));
            }
        }
    }
}

/// The Markdown review's recomputed figures: each wave's table.
fn md_recomputed(out: &mut String, r: &Review) {
    out.push_str(&format!(
        "\n### Recomputed\n\nFrom the per-trial verdicts, {}.\n",
        if r.errors_count_as_failures {
            "every errored or missing trial counted as not Correct"
        } else {
            "trials that ended in an infrastructure error left out"
        }
    ));
    for w in &r.waves {
        let (t, _) = report::waves::show(w);
        out.push('\n');
        out.push_str(&report::to_markdown_html_safe(
            &report::with_significant_costs(&t),
        ));
    }
}

/// The Markdown review's table of claims, when there are any.
fn md_claims(out: &mut String, r: &Review) {
    if !r.claims.is_empty() {
        out.push_str(
            "\n### Claims\n\n| seat | figure | claimed | recomputed | outcome | cause |\n\
             |---|---|---:|---:|---|---|\n",
        );
        for c in &r.claims {
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} |\n",
                md(&c.seat),
                code(&c.figure),
                crate::number::machine(c.claimed),
                rate(c.recomputed),
                c.outcome.replace('_', " "),
                md(&c.causes.join("; or "))
            ));
        }
    }
}

/// The Markdown review's table of costs recomputed, when a price table was given.
fn md_costs(out: &mut String, r: &Review) {
    if let Some(prices) = &r.prices {
        out.push_str(&format!(
            "\n### Cost\n\nRecomputed under {} (cached reads and writes at their own \
             prices).\n\n| seat | attempts | the submission's | recomputed |\n|---|---:|---:|---:|\n",
            code(prices)
        ));
        for c in &r.costs {
            out.push_str(&format!(
                "| {} | {} | {} ({} of {}) | {} ({} of {}) |\n",
                md(&c.seat),
                c.attempts,
                usd(c.recorded_usd),
                c.recorded_attempts,
                c.attempts,
                usd(c.recomputed_usd),
                c.priced_attempts,
                c.attempts
            ));
        }
    }
}

/// The Markdown review's position on a wave, and its other notes.
fn md_notes(out: &mut String, r: &Review) {
    if let Some(p) = &r.position {
        out.push_str(&format!("\n### Position on wave {}\n\n", code(&p.wave)));
        for n in &p.notes {
            out.push_str(&format!("- {}\n", md(n)));
        }
    }
    let other: Vec<&String> = r
        .notes
        .iter()
        .filter(|n| r.position.as_ref().is_none_or(|p| !p.notes.contains(n)))
        .collect();
    if !other.is_empty() {
        out.push_str("\n### Notes\n\n");
        for n in other {
            out.push_str(&format!("- {}\n", md(n)));
        }
    }
}

/// Findings as the review document's `findings` array (compact JSON): what the ledger keeps of
/// a review recorded with its wave.
pub(crate) fn findings_json(findings: &[Finding]) -> String {
    serde_json::to_string(findings).expect("findings serialise")
}

/// One set of submission rules as `rules list` shows it: registered in the ledger (with its
/// row), shipped with benchledger, or both (the same name@version and text).
#[derive(Debug, Clone)]
pub struct Listed {
    pub name: String,
    pub version: u32,
    pub sha256: String,
    pub description: Option<String>,
    /// When it was registered in the ledger; none: shipped only.
    pub added_at: Option<String>,
    pub shipped: bool,
    /// How many waves the ledger holds that a review under these rules let in.
    pub waves: u64,
}

#[derive(Debug, Serialize)]
pub struct RulesListJson {
    pub rules: Vec<RulesListEntry>,
}

#[derive(Debug, Serialize)]
pub struct RulesListEntry {
    /// NAME@VERSION.
    pub rules: String,
    pub name: String,
    pub version: u32,
    pub sha256: String,
    pub registered: bool,
    pub added_at: Option<String>,
    pub shipped: bool,
    pub waves: u64,
    pub description: Option<String>,
}

/// `rules list`: the registered rules and those shipped with benchledger, by name then version.
pub(crate) fn rules_list(rows: &[Listed]) -> (Table, RulesListJson) {
    use crate::report::{Cell, Column};
    let mut t = Table::new(vec![
        Column::text("Rules", "rules"),
        Column::text("SHA-256", "sha256"),
        Column::text("Registered", "added_at"),
        Column::text("Shipped", "shipped"),
        Column::num("Waves", "waves"),
        Column::text("Description", "description"),
    ]);
    for r in rows {
        t.rows.push(vec![
            Cell::text(format!("{}@{}", r.name, r.version)),
            Cell::new(crate::digest::short(&r.sha256), &r.sha256),
            r.added_at
                .as_deref()
                .map_or_else(|| Cell::new("no", ""), Cell::text),
            Cell::new(if r.shipped { "yes" } else { "no" }, r.shipped.to_string()),
            Cell::text(r.waves.to_string()),
            r.description.as_deref().map_or_else(Cell::none, Cell::text),
        ]);
    }
    let json = RulesListJson {
        rules: rows
            .iter()
            .map(|r| RulesListEntry {
                rules: format!("{}@{}", r.name, r.version),
                name: r.name.clone(),
                version: r.version,
                sha256: r.sha256.clone(),
                registered: r.added_at.is_some(),
                added_at: r.added_at.clone(),
                shipped: r.shipped,
                waves: r.waves,
                description: r.description.clone(),
            })
            .collect(),
    };
    (t, json)
}

/// `rules show`: registered rules' verbatim text under a line naming them and their hash.
pub fn rules_show(row: &crate::model::RulesRow) -> String {
    crate::report::prices::registered_text(&row.id(), &row.sha256, &row.added_at, &row.text)
}

/// What a rules file checks, a line each (`rules check`).
pub fn rules(r: &super::Rules, sha256: &str) -> String {
    let q = &r.require;
    let mut lines: Vec<(String, String)> = Vec::new();
    let mut add = |rule: &str, what: String| lines.push((rule.to_string(), what));
    if let Some(n) = q.trials_per_problem {
        add(
            "require.trials_per_problem",
            format!("at least {n} trials of every problem"),
        );
    }
    if q.every_problem {
        let size = q
            .suite_problems
            .map(|n| format!(" ({n} problems)"))
            .unwrap_or_default();
        add(
            "require.every_problem",
            format!("every problem of the suite{size}"),
        );
    }
    if let Some(m) = q.timeout_multiplier {
        add("require.timeout_multiplier", format!("exactly {m}"));
    }
    if q.no_overrides {
        add(
            "require.no_overrides",
            "no timeout, resource or error-policy override".into(),
        );
    }
    if let Some(x) = q.max_infra_error_share {
        add(
            "require.max_infra_error_share",
            format!(
                "at most {} of the trials (else needs-review)",
                crate::number::percent(x)
            ),
        );
    }
    if let Some(m) = &q.model {
        add("require.model", plain(m));
    }
    if q.trajectories {
        add(
            "require.trajectories",
            "every trial that ran keeps its trajectory".into(),
        );
    }
    add(
        "score",
        if r.errors_count_as_failures {
            "errored and missing trials count as not Correct"
        } else {
            "trials that ended in an infrastructure error are left out"
        }
        .into(),
    );
    if let Some(t) = r.claims_tolerance {
        add("claims", format!("within {t} of the recomputed figure"));
    }
    if let Some(t) = r.cost_tolerance {
        add(
            "cost",
            format!(
                "within {} of the cost under --prices",
                crate::number::percent(t)
            ),
        );
    }
    for s in &r.scans {
        add(
            &format!("scan.{}", plain(&s.id)),
            format!(
                "{} in {}: {}",
                s.verdict.key(),
                s.place.key(),
                plain(&s.pattern)
            ),
        );
    }
    if let Some(v) = r.secrets {
        add("secrets", format!("{} on any key or token", v.key()));
    }
    let width = lines
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = format!(
        "rules {} (sha256 {}): {} checks\n",
        plain(&r.id()),
        crate::digest::short(sha256),
        lines.len()
    );
    for (k, what) in lines {
        out.push_str(&format!("  {k:width$}  {what}\n"));
    }
    out
}

#[derive(Serialize)]
struct RulesJson<'a> {
    name: &'a str,
    version: u32,
    sha256: &'a str,
}

#[derive(Serialize)]
struct SeatJson<'a> {
    id: &'a str,
    model: &'a str,
    provider: &'a str,
    harness: &'a str,
    attempts: usize,
}

#[derive(Serialize)]
struct WaveJson<'a> {
    id: &'a str,
    suite: &'a str,
    seats: Vec<SeatJson<'a>>,
}

#[derive(Serialize)]
struct SubmissionJson<'a> {
    format: &'a str,
    paths: &'a [String],
    waves: Vec<WaveJson<'a>>,
}

#[derive(Serialize)]
struct CheckJson<'a> {
    rule: &'a str,
    /// `passed`, `not_applied`, `needs-review` or `reject`.
    result: &'static str,
    summary: &'a str,
}

#[derive(Serialize)]
struct ClaimJson<'a> {
    wave: &'a str,
    seat: &'a str,
    figure: &'a str,
    claimed: f64,
    recomputed: Option<f64>,
    outcome: &'a str,
    causes: &'a [String],
}

impl<'a> From<&'a ClaimLine> for ClaimJson<'a> {
    fn from(c: &'a ClaimLine) -> ClaimJson<'a> {
        ClaimJson {
            wave: &c.wave,
            seat: &c.seat,
            figure: &c.figure,
            claimed: c.claimed,
            recomputed: c.recomputed,
            outcome: c.outcome,
            causes: &c.causes,
        }
    }
}

#[derive(Serialize)]
struct CostJson<'a> {
    wave: &'a str,
    seat: &'a str,
    attempts: u64,
    recorded_usd: Option<f64>,
    recorded_attempts: u64,
    recomputed_usd: Option<f64>,
    priced_attempts: u64,
}

impl<'a> From<&'a CostLine> for CostJson<'a> {
    fn from(c: &'a CostLine) -> CostJson<'a> {
        CostJson {
            wave: &c.wave,
            seat: &c.seat,
            attempts: c.attempts,
            recorded_usd: c.recorded_usd,
            recorded_attempts: c.recorded_attempts,
            recomputed_usd: c.recomputed_usd,
            priced_attempts: c.priced_attempts,
        }
    }
}

#[derive(Serialize)]
struct CostsJson<'a> {
    prices: &'a str,
    seats: Vec<CostJson<'a>>,
}

#[derive(Serialize)]
struct NeighbourJson<'a> {
    seat: &'a str,
    accuracy: f64,
    difference: Option<f64>,
    p: f64,
    test: &'a str,
    separable: bool,
}

impl<'a> From<&'a Neighbour> for NeighbourJson<'a> {
    fn from(n: &'a Neighbour) -> NeighbourJson<'a> {
        NeighbourJson {
            seat: &n.seat,
            accuracy: n.accuracy,
            difference: n.difference,
            p: n.p,
            test: n.test,
            separable: n.separable,
        }
    }
}

#[derive(Serialize)]
struct PlacedJson<'a> {
    seat: &'a str,
    accuracy: f64,
    rank: usize,
    of: usize,
    leader: Option<NeighbourJson<'a>>,
    above: Option<NeighbourJson<'a>>,
    below: Option<NeighbourJson<'a>>,
}

#[derive(Serialize)]
struct PositionJson<'a> {
    wave: &'a str,
    problems: u64,
    outside: u64,
    seats: Vec<PlacedJson<'a>>,
    notes: &'a [String],
}

#[derive(Serialize)]
struct ReviewJson<'a> {
    verdict: Verdict,
    rules: RulesJson<'a>,
    submission: SubmissionJson<'a>,
    checks: Vec<CheckJson<'a>>,
    findings: &'a [Finding],
    errors_count_as_failures: bool,
    recomputed: Vec<report::waves::ShowJson>,
    claims: Vec<ClaimJson<'a>>,
    cost: Option<CostsJson<'a>>,
    position: Option<PositionJson<'a>>,
    notes: &'a [String],
}

/// The review as the JSON document `review --format json` prints (docs/review.md).
pub fn json(r: &Review) -> String {
    let body = ReviewJson {
        verdict: r.verdict,
        rules: RulesJson {
            name: &r.rules.name,
            version: r.rules.version,
            sha256: &r.rules.sha256,
        },
        submission: SubmissionJson {
            format: &r.format,
            paths: &r.paths,
            waves: r
                .waves
                .iter()
                .map(|w| WaveJson {
                    id: &w.wave.id,
                    suite: &w.wave.suite,
                    seats: w
                        .seats
                        .iter()
                        .map(|s| SeatJson {
                            id: &s.seat.id,
                            model: &s.seat.model,
                            provider: &s.seat.provider,
                            harness: &s.seat.harness,
                            attempts: s.attempts.len(),
                        })
                        .collect(),
                })
                .collect(),
        },
        checks: r
            .checks
            .iter()
            .map(|c| CheckJson {
                rule: &c.rule,
                result: match (c.verdict, c.applied) {
                    (None, true) => "passed",
                    (None, false) => "not_applied",
                    (Some(v), _) => v.key(),
                },
                summary: &c.summary,
            })
            .collect(),
        findings: &r.findings,
        errors_count_as_failures: r.errors_count_as_failures,
        recomputed: r.waves.iter().map(|w| report::waves::show(w).1).collect(),
        claims: r.claims.iter().map(ClaimJson::from).collect(),
        cost: r.prices.as_deref().map(|prices| CostsJson {
            prices,
            seats: r.costs.iter().map(CostJson::from).collect(),
        }),
        position: r.position.as_ref().map(|p| PositionJson {
            wave: &p.wave,
            problems: p.problems,
            outside: p.outside,
            seats: p
                .seats
                .iter()
                .map(|s| PlacedJson {
                    seat: &s.seat,
                    accuracy: s.accuracy,
                    rank: s.rank,
                    of: s.of,
                    leader: s.leader.as_ref().map(NeighbourJson::from),
                    above: s.above.as_ref().map(NeighbourJson::from),
                    below: s.below.as_ref().map(NeighbourJson::from),
                })
                .collect(),
            notes: &p.notes,
        }),
        notes: &r.notes,
    };
    report::to_json("review", &body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_cannot_be_broken_out_of() {
        assert_eq!(md("a|b <img> *x*"), "a\\|b &lt;img&gt; \\*x\\*");
        assert_eq!(code("a`b|c <i>"), "``a`b|c <i>``");
        assert_eq!(code("`x"), "`` `x ``");
        assert_eq!(code("\u{1b}[2J"), "`\\u{1b}[2J`");
        assert_eq!(plain("x\u{202e}y"), "x\\u{202e}y");
    }
}
