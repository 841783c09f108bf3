//! The wave listings: `waves` (every wave with its conditions) and `show` (one wave's seats and
//! their absolute figures).

use serde::Serialize;

use super::fields::Fields;
use super::intervals::FiguresCiJson;
use super::{Advice, Cell, Column, DETAIL, ESSENTIAL, EXTRA, Note, Table, texts};
use crate::figures::{Known, SeatFigures};
use crate::model::{Accounting, Budget, Load, Seat, SuiteProblems, Wave, WaveData};
use crate::model::{WaveReviewRow, WaveRow};
use crate::number::{
    fixed, int, int_or_fixed, known_machine_f64, known_machine_u64, machine, partial, percent, usd,
    usd_significant,
};
use crate::stats::leaderboard::WaveIntervals;

/// Which Cost-of-Pass every listing prints (and names in its JSON).
pub(crate) const COST_OF_PASS: &str = "pooled: total USD / number Correct";

/// The footnote that defines the correct-rate and Cost-of-Pass.
pub(crate) const FIGURES_NOTE: &str = "Correct: Correct / (attempts + missing). Cost-of-Pass: \
     total USD / number Correct (pooled); — when nothing is Correct or a cost is unknown.";

/// A wave's conditions in the JSON contract.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct WaveJson {
    pub wave: String,
    pub suite: String,
    pub started_at: String,
    pub notes: Option<String>,
    /// The suite's declared size, when declared.
    pub suite_problems: Option<u64>,
    pub load: Load,
    pub accounting: Accounting,
    pub budget: Budget,
    pub provenance: crate::model::Provenance,
    /// The wave this one corrects (its manifest's `supersedes`), if any.
    pub supersedes: Option<String>,
    /// Problems any working harness solves (its manifest's `canary_problems`), sorted; empty
    /// when it declares none.
    pub canary_problems: Vec<String>,
}

impl WaveJson {
    pub fn of(w: &Wave) -> WaveJson {
        WaveJson {
            wave: w.id.clone(),
            suite: w.suite.clone(),
            started_at: w.started_at.clone(),
            notes: w.notes.clone(),
            suite_problems: w.suite_problems.as_ref().map(SuiteProblems::count),
            load: w.load.clone(),
            accounting: w.accounting.clone(),
            budget: w.budget.clone(),
            provenance: w.provenance.clone(),
            supersedes: w.supersedes.clone(),
            canary_problems: w.canary_problems.clone(),
        }
    }
}

/// A seat's absolute figures in the JSON contract. Sums cover the attempts where the quantity
/// is known; `*_known_attempts` says how many that is. A sum with no known attempt is null.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SeatJson {
    pub seat: String,
    /// How people see the seat, when it has a display name; absent when it has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
    pub model: String,
    pub provider: String,
    pub harness: String,
    pub config: Option<String>,
    pub problems: u64,
    pub attempts: u64,
    pub correct: u64,
    pub missing: u64,
    pub denominator: u64,
    pub accuracy: Option<f64>,
    pub input_tokens: Option<u64>,
    pub input_tokens_known_attempts: u64,
    pub output_tokens: Option<u64>,
    pub output_tokens_known_attempts: u64,
    /// Cached reads and cache writes, over the attempts that record them (a format that
    /// cannot record them leaves them null, not 0).
    pub input_tokens_cache_read: Option<u64>,
    pub input_tokens_cache_read_known_attempts: u64,
    pub input_tokens_cache_write: Option<u64>,
    pub input_tokens_cache_write_known_attempts: u64,
    pub tokens_total: Option<u64>,
    pub new_input_tokens: Option<u64>,
    /// The attempts `tokens_total` covers.
    pub tokens_known_attempts: u64,
    pub new_input_tokens_known_attempts: u64,
    pub wall_s: Option<f64>,
    pub wall_known_attempts: u64,
    pub cost_usd: Option<f64>,
    pub cost_known_attempts: u64,
    /// Pooled: total USD / number Correct. Null at zero Correct or with any cost unknown.
    pub cost_of_pass_usd: Option<f64>,
    pub steps: Option<u64>,
    pub steps_known_attempts: u64,
    pub errors: Option<u64>,
    pub errors_known_attempts: u64,
    /// The wave's canary problems this seat passed in no trial (0 when the wave declares
    /// none): above 0, its harness may be broken.
    pub canary_failures: u64,
    /// With `--ci`: the intervals of the accuracy and the Cost-of-Pass.
    #[serde(flatten)]
    pub ci: Option<super::intervals::FiguresCiJson>,
    /// With `--ci`: the seat's tie-group letters (`groups` in the listing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// In `show`: the per-problem mean and its standard errors, and where infrastructure
    /// errors could put the accuracy.
    #[serde(flatten)]
    pub per_problem: Option<PerProblemJson>,
}

/// A seat's accuracy as a mean over problems, with its clustered standard error
/// (`stats::trials::Clustered`), and the bounds infrastructure errors put on it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PerProblemJson {
    /// x̄: the mean over the wave's problems of the share of the seat's trials that passed (a
    /// missing problem one failed trial). Null without a problem.
    pub mean_per_problem: Option<f64>,
    /// The standard error of x̄ clustered by problem: sqrt(Σ (m_p − x̄)²) / P.
    pub accuracy_se: Option<f64>,
    /// sqrt(x̄ (1 − x̄) / n), n attempts and missing problems: every attempt taken as
    /// independent.
    pub accuracy_se_naive: Option<f64>,
    /// With infrastructure errors only: `[as failures, as passes]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accuracy_bounds: Option<[f64; 2]>,
    /// With infrastructure errors only: the accuracy with them left out of numerator and
    /// denominator (null when nothing is left).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accuracy_excluding_infra: Option<Option<f64>>,
}

impl PerProblemJson {
    pub fn of(p: &crate::stats::trials::SeatProblems) -> PerProblemJson {
        let c = p.clustered();
        let bounds = p.infra_bounds();
        PerProblemJson {
            mean_per_problem: c.map(|c| c.mean_per_problem),
            accuracy_se: c.map(|c| c.se),
            accuracy_se_naive: c.map(|c| c.se_naive),
            accuracy_bounds: bounds.map(|b| [b.as_failures, b.as_passes]),
            accuracy_excluding_infra: bounds.map(|b| b.excluded),
        }
    }
}

/// What `show`'s `± SE` beside each accuracy is.
const ERROR_BAR_NOTE: &str = "Correct ± SE: the standard error of the per-problem mean in \
     points, clustered by problem (Miller 2024); about 2 SE either side is a 95% interval.";

/// The notes `show` adds for a seat: its per-problem mean ± clustered SE where that is not the
/// printed accuracy (trials differ between problems, or problems are missing), and how far
/// infrastructure errors could move its accuracy.
fn per_problem_notes(seat: &str, p: &crate::stats::trials::SeatProblems) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(c) = p.clustered().filter(|_| !p.balanced()) {
        let mut why = Vec::new();
        if p.trial_range().is_some_and(|(lo, hi)| lo != hi) {
            why.push("trials differ between problems".to_string());
        }
        if p.missing > 0 {
            why.push(format!("{} missing, each one failed trial", int(p.missing)));
        }
        notes.push(format!(
            "{seat}: per-problem mean {} ± {} points (standard error clustered by problem, over \
             {} problems), not the pooled accuracy: {}.",
            percent(c.mean_per_problem),
            fixed(c.se * 100.0, 1),
            int(c.problems),
            why.join("; "),
        ));
    }
    if let Some(b) = p.infra_bounds() {
        notes.push(format!(
            "{seat}: {} infrastructure error{} counted as failed: counted as passes the accuracy \
             would be {}, left out {} (from {}).",
            int(p.infra_errors),
            if p.infra_errors == 1 { "" } else { "s" },
            percent(b.as_passes),
            b.excluded.map_or("—".to_string(), percent),
            percent(b.as_failures),
        ));
    }
    notes
}

fn known<T: Copy>(k: &Known<T>) -> Option<T> {
    (k.known > 0).then_some(k.sum)
}

impl SeatJson {
    pub fn of(seat: &Seat, f: &SeatFigures) -> SeatJson {
        SeatJson {
            seat: seat.id.clone(),
            display_name: seat.display_name.clone(),
            model: seat.model.clone(),
            provider: seat.provider.clone(),
            harness: seat.harness.clone(),
            config: seat.config.clone(),
            problems: f.problems,
            attempts: f.attempts,
            correct: f.correct,
            missing: f.missing,
            denominator: f.denominator,
            accuracy: f.accuracy,
            input_tokens: known(&f.input_tokens),
            input_tokens_known_attempts: f.input_tokens.known,
            output_tokens: known(&f.output_tokens),
            output_tokens_known_attempts: f.output_tokens.known,
            input_tokens_cache_read: known(&f.input_tokens_cache_read),
            input_tokens_cache_read_known_attempts: f.input_tokens_cache_read.known,
            input_tokens_cache_write: known(&f.input_tokens_cache_write),
            input_tokens_cache_write_known_attempts: f.input_tokens_cache_write.known,
            tokens_total: known(&f.tokens_total),
            new_input_tokens: known(&f.new_input_tokens),
            tokens_known_attempts: f.tokens_total.known,
            new_input_tokens_known_attempts: f.new_input_tokens.known,
            wall_s: known(&f.wall_s),
            wall_known_attempts: f.wall_s.known,
            cost_usd: known(&f.cost_usd),
            cost_known_attempts: f.cost_usd.known,
            cost_of_pass_usd: f.cost_of_pass_usd,
            steps: known(&f.steps),
            steps_known_attempts: f.steps.known,
            errors: known(&f.errors),
            errors_known_attempts: f.errors.known,
            canary_failures: f.canary_failures,
            ci: None,
            group: None,
            per_problem: None,
        }
    }
}

/// The JSON of `show`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ShowJson {
    #[serde(flatten)]
    pub wave: WaveJson,
    /// Which Cost-of-Pass is printed.
    pub cost_of_pass: &'static str,
    pub seats: Vec<SeatJson>,
    /// For each seat that ran more than one trial of a problem: its accuracy trial by trial,
    /// their mean, and the spread between the best trial and the worst.
    pub trials: Vec<TrialAccuracyJson>,
    /// Each seat's Cost-of-Pass per problem (the Cost-of-Pass paper's: per problem, the mean
    /// cost of an attempt ÷ its success rate, averaged over the problems passed), beside the
    /// pooled `cost_of_pass_usd` of each seat.
    pub cost_of_pass_per_problem: Vec<CostOfPassJson>,
    /// Per problem, the cheapest seat's cost of pass, averaged.
    pub frontier_cost_of_pass: CostOfPassSummaryJson,
    /// With `--ci`: how the intervals were drawn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval: Option<super::versus::IntervalJson>,
    /// With `--ci`: the tie groups as letters (see `add_groups`).
    #[serde(flatten)]
    pub tie_groups: Option<super::groups::GroupsJson>,
}

/// Adds the tie groups to `show`: the "Group" column beside the correct-rate (and its
/// interval), the note saying what the letters mean, each seat's `group` and the listing's
/// `groups` in the JSON.
pub(crate) fn add_groups(t: &mut Table, json: &mut ShowJson, g: &crate::stats::versus::TieGroups) {
    super::groups::add_column(t, g, &json.wave.wave);
    for s in &mut json.seats {
        s.group = g.letters(&s.seat).map(str::to_string);
    }
    json.tie_groups = Some(super::groups::GroupsJson::of(g));
}

/// A Cost-of-Pass averaged over problems, with what it covers.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CostOfPassSummaryJson {
    /// Null when no problem has a known cost of pass.
    pub usd: Option<f64>,
    /// Problems it averages over.
    pub problems: u64,
    /// Problems never passed: counted apart, never averaged in as infinity.
    pub never_passed: u64,
    /// Problems passed with an attempt of unknown cost: left out.
    pub unknown_cost: u64,
}

impl From<crate::stats::cost_of_pass::Summary> for CostOfPassSummaryJson {
    fn from(s: crate::stats::cost_of_pass::Summary) -> CostOfPassSummaryJson {
        CostOfPassSummaryJson {
            usd: s.mean_usd,
            problems: s.problems,
            never_passed: s.never_passed,
            unknown_cost: s.unknown,
        }
    }
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CostOfPassJson {
    pub seat: String,
    #[serde(flatten)]
    pub summary: CostOfPassSummaryJson,
}

/// A seat's accuracy, trial by trial (see `stats::trials`).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TrialAccuracyJson {
    pub seat: String,
    /// Each trial number's Correct attempts over the problems that had that trial and the
    /// missing ones, keyed by the trial number as a string.
    pub by_trial: std::collections::BTreeMap<String, f64>,
    pub trial_accuracy_mean: f64,
    pub trial_accuracy_spread: f64,
}

/// Words for a wave's load: "6 parallel sessions, 6 sharing the tool server, not a serial
/// rerun", and ", timeouts × 2" when it records a timeout multiplier.
pub(crate) fn describe_load(l: &Load) -> String {
    let parallel = match l.parallel_sessions {
        Some(1) => "1 session at a time".to_string(),
        Some(n) => format!("{n} parallel sessions"),
        None => "parallel sessions unknown".to_string(),
    };
    let shared = match l.tool_server_sessions {
        Some(1) => "1 on the tool server".to_string(),
        Some(n) => format!("{n} sharing the tool server"),
        None => "tool-server sharing unknown".to_string(),
    };
    let serial = match l.serial_rerun {
        Some(true) => "serial rerun",
        Some(false) => "not a serial rerun",
        None => "serial rerun unknown",
    };
    // Said only when recorded: most harnesses have no such factor.
    match l.timeout_multiplier {
        Some(x) => format!("{parallel}, {shared}, {serial}, timeouts × {}", machine(x)),
        None => format!("{parallel}, {shared}, {serial}"),
    }
}

/// Words for a wave's accounting.
pub(crate) fn describe_accounting(a: &Accounting) -> String {
    let cache = if a.input_tokens_include_cache_reads {
        "input totals include cached reads"
    } else {
        "input totals exclude cached reads"
    };
    match &a.price_source {
        Some(p) => format!("{cache}; prices from {p}"),
        None => cache.to_string(),
    }
}

/// Words for a wave's budget.
pub(crate) fn describe_budget(b: &Budget) -> String {
    let mut parts = Vec::new();
    if let Some(t) = b.tokens {
        parts.push(format!("{} tokens", int_or_fixed(t, 2)));
    }
    if let Some(w) = b.wall_s {
        parts.push(format!("{} s", int_or_fixed(w, 2)));
    }
    if let Some(c) = b.cost_usd {
        parts.push(usd(c));
    }
    if parts.is_empty() {
        "none".into()
    } else {
        format!("{} per problem", parts.join(", "))
    }
}

/// The lines that head every per-wave listing: the wave and its conditions.
pub(crate) fn wave_heading(w: &Wave) -> Vec<String> {
    let mut h = vec![format!(
        "Wave {} · suite {} · started {}",
        w.id, w.suite, w.started_at
    )];
    if let Some(n) = &w.notes {
        h.push(format!("Notes: {n}"));
    }
    h.push(format!("Load: {}", describe_load(&w.load)));
    h.push(format!(
        "Accounting: {}",
        describe_accounting(&w.accounting)
    ));
    h.push(format!("Budget: {}", describe_budget(&w.budget)));
    if let Some(p) = &w.suite_problems {
        h.push(format!(
            "Suite: {} declared problems; a problem a seat did not attempt counts as not Correct",
            p.count()
        ));
    }
    if !w.canary_problems.is_empty() {
        h.push(format!(
            "Canaries: {} (problems any working harness solves; a seat that fails one is \
             flagged)",
            w.canary_problems.join(", ")
        ));
    }
    h
}

/// The column of canary failures, for a wave that declares canary problems.
pub(crate) fn canary_column(w: &Wave) -> Option<Column> {
    (!w.canary_problems.is_empty()).then(|| Column::num("Canaries failed", "canary_failures"))
}

/// The canary-failures cell of a seat.
pub(crate) fn canary_cell(f: &SeatFigures) -> Cell {
    Cell::new(int(f.canary_failures), f.canary_failures.to_string())
}

/// One flag per seat that failed a canary problem in every trial.
pub(crate) fn canary_notes<'a>(
    w: &Wave,
    seats: impl IntoIterator<Item = (&'a str, &'a SeatFigures)>,
) -> Vec<String> {
    seats
        .into_iter()
        .filter(|(_, f)| f.canary_failures > 0)
        .map(|(seat, f)| {
            format!(
                "{seat}: canary failed: {} of the wave's {} canary problems passed in none of \
                 its trials; its harness may be broken.",
                f.canary_failures,
                w.canary_problems.len()
            )
        })
        .collect()
}

/// "232/433 53.6%".
pub(crate) fn correct_cell(f: &SeatFigures) -> Cell {
    match f.accuracy {
        Some(a) => Cell::new(
            format!("{}/{} {}", f.correct, f.denominator, percent(a)),
            machine(a),
        ),
        None => Cell::none(),
    }
}

/// Which absolute columns a listing prints: all of them (`show`), or the leaderboard's few.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    Full,
    Leaderboard,
}

/// The header of the token totals: whether a wave's cached reads are in its input totals or
/// were added to them.
pub(crate) fn tokens_header(cache_reads_in: bool) -> &'static str {
    if cache_reads_in {
        "Tokens (cached reads in)"
    } else {
        "Tokens (cached reads added)"
    }
}

/// A count's cell.
fn count(n: u64) -> Cell {
    Cell::text(n.to_string())
}

/// A sum of whole numbers known for some attempts of `n`: the people's cell says how many.
fn known_sum(k: &Known<u64>, n: u64) -> Cell {
    Cell::new(partial(k, n, int), known_machine_u64(k))
}

/// A sum of reals known for some attempts of `n`, written by `human`.
fn known_real(k: &Known<f64>, n: u64, human: impl Fn(f64) -> String) -> Cell {
    Cell::new(partial(k, n, human), known_machine_f64(k))
}

/// The absolute columns every leaderboard prints first, in order, each with how a seat's
/// figures yield its cell: all of them (`show`), or the leaderboard's few.
pub(crate) fn absolute_fields(
    cache_reads_in: bool,
    detail: Detail,
) -> Fields<'static, SeatFigures> {
    let full = detail == Detail::Full;
    let fields = Fields::new()
        .with(Column::machine("problems"), |f: &SeatFigures| {
            count(f.problems)
        })
        .with(Column::machine("attempts"), |f| count(f.attempts))
        .with(Column::machine("correct"), |f| count(f.correct))
        .with(Column::machine("denominator"), |f| count(f.denominator))
        .with(
            Column::num("Correct", "accuracy").priority(ESSENTIAL),
            correct_cell,
        )
        .with_if(
            full,
            Column::num("Missing", "missing").priority(DETAIL),
            |f| count(f.missing),
        )
        .with(Column::num("Wall s", "wall_s"), |f| {
            known_real(&f.wall_s, f.attempts, |x| fixed(x, 1))
        })
        .with(
            Column::num(tokens_header(cache_reads_in), "tokens_total"),
            |f| known_sum(&f.tokens_total, f.attempts),
        )
        .with(
            Column::num("New input", "new_input_tokens").priority(DETAIL),
            |f| known_sum(&f.new_input_tokens, f.attempts),
        )
        .with_if(
            full,
            Column::num("Output", "output_tokens").priority(EXTRA),
            |f| known_sum(&f.output_tokens, f.attempts),
        )
        .with_if(
            full,
            Column::num("Cached reads", "input_tokens_cache_read").priority(EXTRA),
            |f| known_sum(&f.input_tokens_cache_read, f.attempts),
        )
        .with(Column::num("USD", "cost_usd"), |f| {
            known_real(&f.cost_usd, f.attempts, usd)
        })
        .with(Column::num("Cost-of-Pass", "cost_of_pass_usd"), |f| {
            f.cost_of_pass_usd
                .map_or_else(Cell::none, |x| Cell::new(usd(x), machine(x)))
        })
        .with(Column::machine("tokens_known_attempts"), |f| {
            count(f.tokens_total.known)
        })
        .with(Column::machine("wall_known_attempts"), |f| {
            count(f.wall_s.known)
        })
        .with(Column::machine("cost_known_attempts"), |f| {
            count(f.cost_usd.known)
        })
        // Added after the columns above, so that a reader that takes columns by position still
        // finds those where they were.
        .with(Column::machine("new_input_tokens_known_attempts"), |f| {
            count(f.new_input_tokens.known)
        });
    if full {
        fields.with_all(full_coverage(), |f| f)
    } else {
        fields
    }
}

/// The machine columns only `show` adds: the sums the leaderboard leaves out, each with how
/// many attempts it knows.
fn full_coverage() -> Fields<'static, SeatFigures> {
    let sum = |k: &Known<u64>| Cell::text(known_machine_u64(k));
    Fields::new()
        .with(
            Column::machine("output_tokens_known_attempts"),
            |f: &SeatFigures| count(f.output_tokens.known),
        )
        .with(Column::machine("input_tokens"), move |f| {
            sum(&f.input_tokens)
        })
        .with(Column::machine("input_tokens_known_attempts"), |f| {
            count(f.input_tokens.known)
        })
        .with(Column::machine("steps"), move |f| sum(&f.steps))
        .with(Column::machine("steps_known_attempts"), |f| {
            count(f.steps.known)
        })
        .with(Column::machine("errors"), move |f| sum(&f.errors))
        .with(Column::machine("errors_known_attempts"), |f| {
            count(f.errors.known)
        })
        .with(
            Column::machine("input_tokens_cache_read_known_attempts"),
            |f| count(f.input_tokens_cache_read.known),
        )
}

/// The absolute columns every leaderboard prints first, in order, for one seat.
pub(crate) fn absolute_columns(cache_reads_in: bool, detail: Detail) -> Vec<Column> {
    absolute_fields(cache_reads_in, detail).columns()
}

/// The absolute cells of one seat, matching [`absolute_columns`].
pub(crate) fn absolute_cells(f: &SeatFigures, detail: Detail) -> Vec<Cell> {
    absolute_fields(false, detail).cells(f)
}

/// The footnotes that explain the absolute columns of `detail`.
pub(crate) fn absolute_notes(w: &Wave, figures: &[SeatFigures], detail: Detail) -> Vec<String> {
    let mut notes = vec![FIGURES_NOTE.to_string()];
    if !w.accounting.input_tokens_include_cache_reads {
        notes.push(
            "Tokens: this wave's input totals exclude cached reads, so cached reads and cache \
             writes are added to make the total comparable."
                .into(),
        );
    }
    // Whenever any sum printed in the table covers fewer than all attempts. Only `show` prints
    // output tokens and cached reads. Checking output tokens for the leaderboard too changes
    // nothing there, since output known for fewer attempts leaves the tokens total partial as
    // well; cached reads are checked only where they are printed, so that a leaderboard (and
    // the published text made of it) says what it always said.
    if figures.iter().any(|f| {
        let mut printed = vec![&f.tokens_total, &f.new_input_tokens, &f.output_tokens];
        if detail == Detail::Full {
            printed.push(&f.input_tokens_cache_read);
        }
        printed.iter().any(|k| k.known < f.attempts)
            || f.wall_s.known < f.attempts
            || f.cost_usd.known < f.attempts
    }) {
        notes.push(
            "(k of n): the figure covers only the k attempts whose value is known; unknown is \
             not zero."
                .into(),
        );
    }
    notes
}

/// The `waves` listing of `ledger`, its withdrawn waves marked: the table for people and the
/// JSON body (`waves --format json` is [`super::to_json`]`("waves", …)` of it).
pub fn listing(ledger: &crate::ledger::Ledger) -> crate::error::Result<(Table, serde_json::Value)> {
    let rows = ledger.waves()?;
    let (mut table, json) = waves(&rows, &ledger.reviews()?);
    let withdrawn = super::withdrawn::Withdrawn::load(ledger)?;
    let marked = super::withdrawn::mark(
        &mut table,
        &json,
        &withdrawn.among(rows.iter().map(|r| r.wave.id.as_str())),
    );
    let json = serde_json::to_value(&marked).expect(super::RENDERING_CANNOT_FAIL);
    Ok((table, json))
}

/// The `show` listing.
pub fn show(data: &WaveData) -> (Table, ShowJson) {
    show_with(data, None)
}

/// A seat's accuracy trial by trial, as a sentence: each trial's, their mean and their spread.
fn trials_summary(
    seat: &str,
    p: &crate::stats::trials::SeatProblems,
    mean: f64,
    spread: f64,
) -> String {
    format!(
        "{seat}: {} trials; accuracy by trial {}, mean {}, spread {} points (best trial − \
         worst).",
        p.by_trial.len(),
        p.trial_accuracies()
            .iter()
            .map(|(_, a)| percent(*a))
            .collect::<Vec<_>>()
            .join(" / "),
        percent(mean),
        crate::number::fixed(spread * 100.0, 1),
    )
}

/// A row of `show`: a seat and its absolute figures.
struct ShowRow<'a> {
    seat: &'a crate::model::SeatData,
    figures: &'a SeatFigures,
}

/// The columns of `show`, each with its cell: the seat, its absolute figures, its canaries
/// where the wave declares some, its display name (for machines) where a seat has one.
fn show_fields<'a>(data: &'a WaveData, named: bool) -> Fields<'a, ShowRow<'a>> {
    let wave = data.wave.id.as_str();
    Fields::new()
        .with(Column::machine_text("wave"), move |_: &ShowRow| {
            Cell::text(wave)
        })
        .with(Column::text("Seat", "seat"), |r| Cell::seat(&r.seat.seat))
        .with(Column::text("Model", "model").priority(DETAIL), |r| {
            Cell::text(&r.seat.seat.model)
        })
        .with(Column::text("Provider", "provider").priority(EXTRA), |r| {
            Cell::text(&r.seat.seat.provider)
        })
        .with(Column::text("Harness", "harness").priority(DETAIL), |r| {
            Cell::text(&r.seat.seat.harness)
        })
        .with_all(
            absolute_fields(
                data.wave.accounting.input_tokens_include_cache_reads,
                Detail::Full,
            ),
            |r| r.figures,
        )
        .with_some(canary_column(&data.wave), |r| canary_cell(r.figures))
        .with_if(named, Column::machine_text("display_name"), |r| {
            Cell::text(r.seat.seat.display_name.as_deref().unwrap_or(""))
        })
}

/// Per seat, the notes on its problems and trials (in `t`), its per-problem figures and its
/// accuracy trial by trial, for the JSON.
fn trial_notes(
    t: &mut Table,
    data: &WaveData,
    problems: Vec<crate::stats::trials::SeatProblems>,
) -> (Vec<TrialAccuracyJson>, Vec<PerProblemJson>) {
    let mut trials = Vec::new();
    let mut by_problem = Vec::with_capacity(data.seats.len());
    for (s, p) in data.seats.iter().zip(problems) {
        t.notes.extend(texts(per_problem_notes(&s.seat.id, &p)));
        by_problem.push(PerProblemJson::of(&p));
        if let Some((mean, spread)) = p.trial_accuracy() {
            t.notes.push(Note::Advice(Advice::Trials {
                summary: trials_summary(&s.seat.id, &p, mean, spread),
                wave: data.wave.id.clone(),
            }));
            trials.push(TrialAccuracyJson {
                seat: s.seat.id.clone(),
                by_trial: p
                    .trial_accuracies()
                    .into_iter()
                    .map(|(t, a)| (t.to_string(), a))
                    .collect(),
                trial_accuracy_mean: mean,
                trial_accuracy_spread: spread,
            });
        }
    }
    (trials, by_problem)
}

/// The note giving each seat's Cost-of-Pass per problem (the paper's), beside the pooled one.
fn cost_of_pass_note(per_problem: &[CostOfPassJson]) -> Note {
    let line = per_problem
        .iter()
        .map(|c| {
            format!(
                "{} {}{}",
                c.seat,
                c.summary.usd.map_or("—".into(), usd_significant),
                if c.summary.never_passed > 0 {
                    format!(" ({} never passed)", c.summary.never_passed)
                } else {
                    String::new()
                }
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    Note::Text(format!(
        "Cost-of-Pass per problem (mean cost of an attempt ÷ its success rate, averaged over \
         the problems passed; problems never passed counted apart): {line}."
    ))
}

/// Writes an error bar beside every accuracy of `t`'s rows (one a seat, in `problems`'
/// order) unless intervals stand beside them; whether any accuracy carries one.
fn add_error_bars(
    t: &mut Table,
    figures: &[SeatFigures],
    problems: &[crate::stats::trials::SeatProblems],
    intervals: Option<&WaveIntervals>,
) -> bool {
    let Some(correct_at) = t.columns.iter().position(|c| c.key == "accuracy") else {
        return false;
    };
    let mut with_error_bar = false;
    for ((row, f), p) in t.rows.iter_mut().zip(figures).zip(problems) {
        // An error bar beside every accuracy (issue 32, #3; Miller 2024): the standard error
        // clustered by problem, in points, in the table itself and not only in a note. With
        // `--ci` the accuracy's interval stands beside it instead.
        if let (Some(c), Some(_), None) = (p.clustered(), f.accuracy, intervals) {
            let cell = &mut row[correct_at];
            cell.human = format!("{} ± {}", cell.human, fixed(c.se * 100.0, 1));
            with_error_bar = true;
        }
    }
    with_error_bar
}

/// The `show` listing, with each seat's intervals when they were drawn (`show --ci`).
pub(crate) fn show_with(data: &WaveData, intervals: Option<&WaveIntervals>) -> (Table, ShowJson) {
    let figures: Vec<SeatFigures> = data
        .seats
        .iter()
        .map(|s| SeatFigures::of(&data.wave, s))
        .collect();
    // A machine reads a seat by its id; its display name, where a seat has one, in a column
    // of its own (CSV only), so a listing of seats without one keeps its columns.
    let named = data.seats.iter().any(|s| s.seat.display_name.is_some());
    let rows: Vec<ShowRow> = data
        .seats
        .iter()
        .zip(&figures)
        .map(|(seat, figures)| ShowRow { seat, figures })
        .collect();
    let mut t = show_fields(data, named).table(&rows);
    t.heading = wave_heading(&data.wave);
    let problems: Vec<crate::stats::trials::SeatProblems> = data
        .seats
        .iter()
        .map(|s| crate::stats::trials::SeatProblems::of(&data.wave, &s.attempts))
        .collect();
    let with_error_bar = add_error_bars(&mut t, &figures, &problems, intervals);
    t.notes = absolute_notes(&data.wave, &figures, Detail::Full)
        .into_iter()
        .map(Note::Text)
        .collect();
    t.notes.extend(texts(canary_notes(
        &data.wave,
        data.seats.iter().map(|s| s.seat.id.as_str()).zip(&figures),
    )));
    t.notes.extend(super::display_names_note(
        data.seats.iter().map(|s| &s.seat),
    ));
    if let Some(w) = intervals {
        add_interval_columns(&mut t, w, data.seats.iter().map(|s| s.seat.id.as_str()));
        t.heading.push(super::intervals::heading(w, false));
        let order: Vec<&str> = data.seats.iter().map(|s| s.seat.id.as_str()).collect();
        t.notes
            .extend(texts(super::intervals::notes(w, &order, None, None)));
    }
    if with_error_bar {
        t.notes.push(Note::Text(ERROR_BAR_NOTE.into()));
    }
    let (trials, by_problem) = trial_notes(&mut t, data, problems);
    use crate::stats::cost_of_pass::{frontier, per_problem, summarise};
    let costs: Vec<_> = data
        .seats
        .iter()
        .map(|s| per_problem(&s.attempts))
        .collect();
    let cost_of_pass_per_problem: Vec<CostOfPassJson> = data
        .seats
        .iter()
        .zip(&costs)
        .zip(&figures)
        .map(|((s, c), f)| CostOfPassJson {
            seat: s.seat.id.clone(),
            summary: summarise(c, f.missing).into(),
        })
        .collect();
    if !trials.is_empty() {
        t.notes.push(cost_of_pass_note(&cost_of_pass_per_problem));
    }
    let json = ShowJson {
        wave: WaveJson::of(&data.wave),
        cost_of_pass: COST_OF_PASS,
        seats: data
            .seats
            .iter()
            .zip(&figures)
            .zip(by_problem)
            .map(|((s, f), p)| {
                let mut j = SeatJson::of(&s.seat, f);
                j.ci = intervals.map(|w| FiguresCiJson::of(&w.seat(&s.seat.id)));
                j.per_problem = Some(p);
                j
            })
            .collect(),
        trials,
        cost_of_pass_per_problem,
        frontier_cost_of_pass: frontier(
            &costs,
            data.wave.suite_problems.as_ref().map(SuiteProblems::count),
        )
        .into(),
        interval: intervals.map(|w| super::intervals::settings_json(&w.settings)),
        tie_groups: None,
    };
    (t, json)
}

/// Adds the interval columns of the absolute figures to a listing whose rows are these seats,
/// in order: the accuracy's beside `Correct`, the Cost-of-Pass's beside `Cost-of-Pass`.
pub(crate) fn add_interval_columns<'a>(
    t: &mut Table,
    w: &WaveIntervals,
    seats: impl Iterator<Item = &'a str>,
) {
    use super::intervals::{accuracy_cells, columns, cost_cells};
    let level = super::intervals::level_text(&w.settings);
    let seats: Vec<&str> = seats.collect();
    // The later column first, so that the earlier one's place is still where it was found.
    for (key, header, ci_key, accuracy) in [
        (
            "cost_of_pass_usd",
            format!("Cost-of-Pass {level}% CI"),
            "cost_of_pass_ci",
            false,
        ),
        (
            "accuracy",
            format!("Correct {level}% CI"),
            "accuracy_ci",
            true,
        ),
    ] {
        let Some(at) = t.columns.iter().position(|c| c.key == key) else {
            continue;
        };
        // Asked for with `--ci`: a narrow terminal keeps both intervals after every other
        // optional column ([`super::ASKED`]), the correct-rate's the longer (the rightmost of
        // equals goes first).
        let columns = columns(&header, ci_key);
        t.columns.splice(at + 1..at + 1, columns);
        for (row, id) in t.rows.iter_mut().zip(&seats) {
            let i = w.seat(id);
            let cells = if accuracy {
                accuracy_cells(i.accuracy)
            } else {
                cost_cells(i.cost_of_pass)
            };
            row.splice(at + 1..at + 1, cells);
        }
    }
}

/// The JSON of `waves`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct WavesJson {
    pub waves: Vec<WaveListJson>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct WaveListJson {
    #[serde(flatten)]
    pub wave: WaveJson,
    pub seats: u64,
    pub attempts: u64,
    pub content_sha256: String,
    /// The wave content format `content_sha256` was computed in (docs/formats.md).
    pub content_format: u32,
    /// The reviews recorded with the wave (`review --ingest`), in the order they were made;
    /// left out when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reviews: Vec<WaveReviewJson>,
}

/// A review recorded with a wave: the rules it ran under and its verdict.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct WaveReviewJson {
    /// NAME@VERSION.
    pub rules: String,
    pub rules_sha256: String,
    pub verdict: String,
    pub findings: usize,
    pub reviewed_at: String,
}

impl WaveReviewJson {
    pub fn of(r: &WaveReviewRow) -> WaveReviewJson {
        WaveReviewJson {
            rules: r.rules(),
            rules_sha256: r.rules_sha256.clone(),
            verdict: r.verdict.clone(),
            findings: serde_json::from_str::<Vec<serde_json::Value>>(&r.findings)
                .map_or(0, |f| f.len()),
            reviewed_at: r.reviewed_at.clone(),
        }
    }

    /// How a table cell says it: "terminal-bench-2@1: accept".
    pub fn cell(&self) -> String {
        format!("{}: {}", self.rules, self.verdict)
    }
}

/// The `waves` listing; a column of the rules each wave's submission was reviewed under when
/// any wave has a review recorded (`reviews`, in any order).
pub fn waves(rows: &[WaveRow], reviews: &[WaveReviewRow]) -> (Table, WavesJson) {
    let mut t = Table::new(vec![
        Column::text("Wave", "wave"),
        Column::text("Suite", "suite").priority(DETAIL),
        Column::text("Started", "started_at").priority(DETAIL),
        Column::num("Seats", "seats"),
        Column::num("Attempts", "attempts").priority(DETAIL),
        Column::num("Parallel", "parallel_sessions"),
        Column::num("Tool server", "tool_server_sessions"),
        Column::text("Serial rerun", "serial_rerun"),
        Column::num("Timeout ×", "timeout_multiplier").priority(DETAIL),
        Column::text(
            "Input incl. cached reads",
            "input_tokens_include_cache_reads",
        ),
        Column::num("Budget tokens", "budget_tokens"),
        Column::num("Budget wall s", "budget_wall_s"),
    ]);
    let opt = |v: Option<u32>| match v {
        Some(v) => Cell::text(v.to_string()),
        None => Cell::none(),
    };
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    let budget = |v: Option<f64>| match v {
        Some(x) => Cell::new(int_or_fixed(x, 2), machine(x)),
        None => Cell::none(),
    };
    for r in rows {
        let w = &r.wave;
        t.rows.push(vec![
            Cell::text(&w.id),
            Cell::text(&w.suite),
            Cell::text(&w.started_at),
            Cell::text(r.seats.to_string()),
            Cell::text(r.attempts.to_string()),
            opt(w.load.parallel_sessions),
            opt(w.load.tool_server_sessions),
            match w.load.serial_rerun {
                Some(b) => Cell::new(yes_no(b), b.to_string()),
                None => Cell::none(),
            },
            match w.load.timeout_multiplier {
                Some(x) => Cell::new(machine(x), machine(x)),
                None => Cell::none(),
            },
            Cell::new(
                yes_no(w.accounting.input_tokens_include_cache_reads),
                w.accounting.input_tokens_include_cache_reads.to_string(),
            ),
            budget(w.budget.tokens),
            budget(w.budget.wall_s),
        ]);
    }
    if rows.is_empty() {
        t.notes.push(Note::Advice(Advice::NoWaves));
    }
    let reviewed = |id: &str| -> Vec<WaveReviewJson> {
        reviews
            .iter()
            .filter(|r| r.wave == id)
            .map(WaveReviewJson::of)
            .collect()
    };
    if !reviews.is_empty() {
        t.columns
            .push(Column::text("Reviewed under", "reviews").priority(DETAIL));
        for (row, r) in t.rows.iter_mut().zip(rows) {
            let cells: Vec<String> = reviewed(&r.wave.id).iter().map(|j| j.cell()).collect();
            row.push(if cells.is_empty() {
                Cell::none()
            } else {
                Cell::text(cells.join(", "))
            });
        }
    }
    let json = WavesJson {
        waves: rows
            .iter()
            .map(|r| WaveListJson {
                wave: WaveJson::of(&r.wave),
                seats: r.seats,
                attempts: r.attempts,
                content_sha256: r.content.sha256.clone(),
                content_format: r.content.format,
                reviews: reviewed(&r.wave.id),
            })
            .collect(),
    };
    (t, json)
}

/// The trace columns of a wave's attempts, the ones a rubric that scores the trace reads: the
/// outcome, the steps, the errors reported, the failed tool calls in runs (`fetch ×5`: five
/// failures of one tool in a row), and the errors still charged when the first `free` failure
/// of each run is forgiven (`free_retries` in a rubric; docs/rubrics.md).
pub fn trace_table(data: &WaveData, free: u32) -> Table {
    let mut t = Table::new(vec![
        Column::machine_text("wave"),
        Column::text("Seat", "seat"),
        Column::text("Problem", "problem").grouped(),
        Column::num("Outcome", "outcome"),
        Column::num("Steps", "steps"),
        Column::num("Errors", "errors"),
        Column::text("Failed calls", "failed_calls").priority(DETAIL),
        Column::num(
            &format!("Errors charged, {free} free retry"),
            "errors_after_free_retries",
        ),
    ]);
    let count = |v: Option<u32>| match v {
        Some(n) => Cell::text(n.to_string()),
        None => Cell::none(),
    };
    for s in &data.seats {
        for a in &s.attempts {
            let runs = a.trace.as_ref().map(|trace| failed_runs(trace));
            let charged = crate::rubric::measure::errors_after_free_retries(a, free);
            t.rows.push(vec![
                Cell::text(&data.wave.id),
                Cell::seat(&s.seat),
                Cell::text(&a.problem),
                match a.outcome {
                    Some(x) => Cell::new(fixed(x, 2), machine(x)),
                    None => Cell::none(),
                },
                count(a.steps),
                count(a.errors),
                match runs {
                    Some(r) if r.is_empty() => Cell::text("none"),
                    Some(r) => Cell::text(r),
                    None => Cell::new("no trace", ""),
                },
                match charged {
                    Some(x) => Cell::new(fixed(x, 0), machine(x)),
                    None => Cell::none(),
                },
            ]);
        }
    }
    t
}

/// A trace's failed calls, one entry per run of failures of the same tool: `fetch ×5,
/// extract_price`.
fn failed_runs(trace: &[crate::model::TraceStep]) -> String {
    let mut runs: Vec<(&str, usize)> = Vec::new();
    let mut in_run = false;
    for step in trace {
        if step.ok {
            in_run = false;
            continue;
        }
        match runs.last_mut() {
            Some((tool, n)) if in_run && *tool == step.tool.as_str() => *n += 1,
            _ => runs.push((step.tool.as_str(), 1)),
        }
        in_run = true;
    }
    runs.iter()
        .map(|(tool, n)| {
            if *n == 1 {
                tool.to_string()
            } else {
                format!("{tool} ×{n}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::testing;
    use std::collections::BTreeMap;

    use crate::model::Attempt;

    fn attempt(problem: &str) -> Attempt {
        Attempt {
            input_tokens: Some(100),
            output_tokens: Some(10),
            input_tokens_cache_read: Some(0),
            wall_s: Some(1.0),
            cost_usd: Some(0.5),
            steps: Some(3),
            errors: Some(1),
            ..testing::attempt(problem, 1, true)
        }
    }

    fn wave() -> Wave {
        testing::wave("w")
    }

    fn figures(attempts: Vec<Attempt>) -> SeatFigures {
        SeatFigures::of(&wave(), &testing::seat("a", attempts))
    }

    const K_OF_N: &str = "(k of n)";

    fn k_of_n(f: SeatFigures) -> bool {
        k_of_n_in(f, Detail::Full)
    }

    fn k_of_n_in(f: SeatFigures, detail: Detail) -> bool {
        absolute_notes(&wave(), &[f], detail)
            .iter()
            .any(|n| n.starts_with(K_OF_N))
    }

    #[test]
    fn every_sum_in_csv_comes_with_its_coverage() {
        let mut b = attempt("b");
        b.input_tokens = None;
        b.steps = None;
        let f = figures(vec![attempt("a"), b]);
        for detail in [Detail::Full, Detail::Leaderboard] {
            let columns = absolute_columns(false, detail);
            let cells = absolute_cells(&f, detail);
            assert_eq!(columns.len(), cells.len(), "{detail:?}");
            let csv: BTreeMap<&str, &str> = columns
                .iter()
                .map(|c| c.key.as_str())
                .zip(cells.iter().map(|c| c.machine.as_str()))
                .collect();
            assert_eq!(csv.len(), columns.len(), "{detail:?}: a key twice");
            assert_eq!(csv["new_input_tokens"], "100");
            assert_eq!(csv["new_input_tokens_known_attempts"], "1");
            assert_eq!(csv["tokens_known_attempts"], "1");
            if detail == Detail::Full {
                assert_eq!(csv["input_tokens"], "100");
                assert_eq!(csv["input_tokens_known_attempts"], "1");
                assert_eq!(csv["output_tokens_known_attempts"], "2");
                assert_eq!(csv["steps"], "3");
                assert_eq!(csv["steps_known_attempts"], "1");
                assert_eq!(csv["errors"], "2");
                assert_eq!(csv["errors_known_attempts"], "2");
                assert_eq!(csv["input_tokens_cache_read"], "0");
                assert_eq!(csv["input_tokens_cache_read_known_attempts"], "2");
            } else {
                assert!(!csv.contains_key("steps"));
            }
        }
        let json = SeatJson::of(
            &Seat {
                id: "a".into(),
                model: "m".into(),
                provider: "p".into(),
                harness: "h".into(),
                config: None,
                display_name: None,
            },
            &f,
        );
        assert_eq!(
            (json.input_tokens, json.input_tokens_known_attempts),
            (Some(100), 1)
        );
        assert_eq!(
            (json.output_tokens, json.output_tokens_known_attempts),
            (Some(20), 2)
        );
        assert_eq!(
            (json.new_input_tokens, json.new_input_tokens_known_attempts),
            (Some(100), 1)
        );
        assert_eq!((json.steps, json.steps_known_attempts), (Some(3), 1));
        assert_eq!(
            (
                json.input_tokens_cache_read,
                json.input_tokens_cache_read_known_attempts
            ),
            (Some(0), 2)
        );
        assert_eq!(
            (
                json.input_tokens_cache_write,
                json.input_tokens_cache_write_known_attempts
            ),
            (None, 0)
        );
        assert_eq!((json.errors, json.errors_known_attempts), (Some(2), 2));
    }

    #[test]
    fn the_k_of_n_note_comes_with_any_partial_printed_figure_and_only_then() {
        assert!(!k_of_n(figures(vec![attempt("a"), attempt("b")])));
        // Steps and errors are not printed in a table.
        let mut b = attempt("b");
        (b.steps, b.errors) = (None, None);
        assert!(!k_of_n(figures(vec![attempt("a"), b])));
        // Cached reads left out are unknown where they are printed (show), and the
        // leaderboard, which does not print them, says nothing of them.
        let mut uncached = attempt("b");
        uncached.input_tokens_cache_read = None;
        assert!(k_of_n(figures(vec![attempt("a"), uncached.clone()])));
        assert!(k_of_n(figures(vec![uncached.clone()])));
        assert!(!k_of_n_in(figures(vec![uncached]), Detail::Leaderboard));
        for unknown in [
            |a: &mut Attempt| a.wall_s = None,
            |a: &mut Attempt| a.cost_usd = None,
            |a: &mut Attempt| a.input_tokens = None,
            |a: &mut Attempt| a.output_tokens = None,
        ] {
            let mut b = attempt("b");
            unknown(&mut b);
            assert!(k_of_n(figures(vec![attempt("a"), b])));
        }
    }

    #[test]
    fn failed_calls_are_told_in_runs_of_one_tool() {
        let step = |tool: &str, ok: bool| crate::model::TraceStep {
            tool: tool.into(),
            ok,
            error: None,
        };
        let trace = [
            step("fetch", false),
            step("fetch", false),
            step("fetch", true),
            step("fetch", false),
            step("parse", false),
        ];
        assert_eq!(super::failed_runs(&trace), "fetch ×2, fetch, parse");
        assert_eq!(super::failed_runs(&[step("a", true)]), "");
    }
}
