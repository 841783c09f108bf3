//! One wave's documents: its figures per seat (`show`), its leaderboard under a rubric
//! (`score`), and its repeated trials (`trials`).

use super::document::Document;
use super::request::{self, Ci, Prices};
use crate::error::{Error, Result};
use crate::ledger::Ledger;
use crate::registry;
use crate::report;
use crate::report::withdrawn::Withdrawn;
use crate::rubric::score_wave;
use crate::stats::leaderboard::wave_intervals;
use crate::stats::trials::SeatProblems;
use crate::stats::versus::TieGroups;

/// `show`: a wave's absolute figures per seat, costs filled in from `prices`, with intervals
/// and tie groups when `ci` asks for them.
pub fn show(ledger: &Ledger, wave: &str, prices: &Prices, ci: Ci) -> Result<Document> {
    let settings = ci.settings(false)?;
    let mut data = ledger.load_wave(wave)?;
    let pricing = prices.apply(ledger, &mut data)?;
    let intervals = settings
        .map(|s| wave_intervals(&data, None, &s))
        .transpose()?;
    let (mut table, mut json) = report::waves::show_with(&data, intervals.as_ref());
    if intervals.is_some() {
        let groups = TieGroups::of(&data, report::groups::ALPHA);
        report::waves::add_groups(&mut table, &mut json, &groups);
    }
    let json = report::prices::mark(&mut table, &json, pricing.as_ref());
    let json = report::intervals::caution(&mut table, &json, intervals.as_ref());
    let withdrawn = Withdrawn::load(ledger)?;
    let json = report::withdrawn::mark(&mut table, &json, &withdrawn.among([wave]));
    Ok(Document::new("show", table, &json))
}

/// `score`: a wave's leaderboard under `rubric` (a rubric file, or a registered
/// NAME@VERSION), costs filled in from `prices` before scoring, with intervals, rank ranges and
/// tie groups when `ci` asks for them. A withdrawn wave is refused unless
/// `include_withdrawn`, and then marked.
pub fn score(
    ledger: &Ledger,
    wave: &str,
    rubric: &str,
    include_withdrawn: bool,
    prices: &Prices,
    ci: Ci,
) -> Result<Document> {
    let settings = ci.settings(false)?;
    let info = registry::resolve(ledger, rubric)?;
    let withdrawn = Withdrawn::load(ledger)?;
    ledger.load_wave_check(wave)?;
    withdrawn.check_named(wave, include_withdrawn)?;
    let mut data = ledger.load_wave(wave)?;
    // Costs are filled in before scoring, so Cost-of-Pass and every measure that reads cost
    // see the table's.
    let pricing = prices.apply(ledger, &mut data)?;
    let scores = score_wave(&info.rubric, &data);
    let intervals = settings
        .map(|s| wave_intervals(&data, Some(&info.rubric), &s))
        .transpose()?;
    let (mut table, mut json) =
        report::score::leaderboard_with(&data, &info, &scores, intervals.as_ref());
    if intervals.is_some() {
        let groups = TieGroups::of(&data, report::groups::ALPHA);
        report::score::add_groups(&mut table, &mut json, &groups);
    }
    let json = report::prices::mark(&mut table, &json, pricing.as_ref());
    let json = report::intervals::caution(&mut table, &json, intervals.as_ref());
    let json = report::withdrawn::mark(&mut table, &json, &withdrawn.among([wave]));
    Ok(Document::new("score", table, &json))
}

/// `trials`: each seat's pass@k and pass^k for the `k` given (none: 1 up to the fewest trials
/// of a problem).
pub fn trials(ledger: &Ledger, wave: &str, k: &[u64]) -> Result<Document> {
    if let Some(bad) = k.iter().find(|k| **k == 0) {
        return Err(Error::argument(
            "k",
            bad,
            "k counts trials, from 1 (e.g. 1,2,4)",
        ));
    }
    let data = request::named(ledger, wave)?;
    let ks = if k.is_empty() {
        let problems: Vec<SeatProblems> = data
            .seats
            .iter()
            .map(|s| SeatProblems::of(&data.wave, &s.attempts))
            .collect();
        report::trials::default_k(&problems)
    } else {
        let mut ks = k.to_vec();
        ks.sort_unstable();
        ks.dedup();
        ks
    };
    let (mut table, json) = report::trials::trials(&data, &ks);
    let withdrawn = Withdrawn::load(ledger)?;
    let json = report::withdrawn::mark(&mut table, &json, &withdrawn.among([wave]));
    Ok(Document::new("trials", table, &json))
}
