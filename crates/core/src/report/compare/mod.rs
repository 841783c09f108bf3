//! `benchledger compare`: one seat across waves.
//!
//! Only absolutes are compared across waves — correct-rate with its denominator, wall seconds,
//! total tokens, USD, Cost-of-Pass — each with its change between consecutive waves, absolute
//! and relative. Two rules shape every number here:
//!
//! - **Absent is not zero.** A sum that covers only k of n attempts says so, and a change that
//!   involves such a sum (or an undefined value) is unknown: it is never computed from partial
//!   sums.
//! - **Conditions travel with the numbers** (principle 4). The waves' load, accounting, budget,
//!   suite and the seat's model, provider and harness stand side by side, and every condition
//!   that differs — known against unknown included — is called out as a confounder of the
//!   figures it can move: load confounds wall time (a timeout multiplier also accuracy, tokens
//!   and USD: a longer timeout lets trials finish), accounting confounds token totals, a price
//!   source confounds USD, and a different budget, suite or seat confounds every figure.
//!
//! A rubric named with `--rubric` is scored in each wave. An absolute rubric shows its score in
//! each wave and the change (still confounded by whatever differs). A **relative** rubric never
//! shows a value across waves (principle 3): only the seat's rank inside each wave, with a note
//! naming how the wave medians — the rubric's yardstick — moved (seed 001: a cohort efficiency
//! rose 1.375 → 1.584 while the seat's wall went 141 s → 262 s).
//!
//! People read the figures transposed — one column per wave with the change between — then the
//! conditions; CSV is one row per wave with the absolute figures and the conditions; the JSON is
//! the documented contract (see [`CompareJson`]).
//!
//! The comparison is computed once, in pieces, and every rendering reads the same pieces:
//! `wave_figures` (each figure in each wave, known or why not), `conditions` (what each wave
//! was measured under and what a difference confounds) and `rubrics` (the seat's place under
//! each rubric, and the wave medians of a relative one). From them come the `verdict` (first
//! thing a reader sees), the `notes` (under the conditions), the `tables` for people and CSV,
//! and the `json` contract; `text` holds the wording they share.

mod conditions;
mod json;
mod notes;
mod rubrics;
mod shift;
mod tables;
mod text;
mod verdict;
mod wave_figures;

pub use json::{
    ChangeJson, CompareJson, CompareWaveJson, ConfounderJson, MedianJson, RubricChangeJson,
    RubricPlaceJson,
};

use super::Table;
use super::score::RubricInfo;
use crate::figures::SeatFigures;
use crate::model::{SeatData, WaveData};
use crate::rubric::WaveScores;
use conditions::{Condition, conditions};
use rubrics::{Medians, Place, cohort_medians, place};
use wave_figures::WaveFigs;

/// One wave of the comparison: the wave, the seat in it, and the seat's wave scored under each
/// rubric (in the order the rubrics were named).
#[derive(Debug, Clone, Copy)]
pub struct WaveInput<'a> {
    pub data: &'a WaveData,
    pub seat: &'a SeatData,
    pub scores: &'a [WaveScores],
}

/// The seat named `id` in a wave, if it has one.
pub(crate) fn find_seat<'a>(data: &'a WaveData, id: &str) -> Option<&'a SeatData> {
    data.seats.iter().find(|s| s.seat.id == id)
}

/// What `compare` prints: the figures and the conditions for people, one row per wave for CSV,
/// and the JSON document.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    pub figures: Table,
    pub conditions: Table,
    pub csv: Table,
    pub json: CompareJson,
}

impl Comparison {
    /// The comparison as Markdown: the figures, then the conditions.
    pub fn to_markdown(&self) -> String {
        // Markdown separates every heading line by a blank line already.
        let mut figures = super::with_significant_costs(&self.figures);
        figures.heading.retain(|h| !h.is_empty());
        format!(
            "{}\n{}",
            super::to_markdown_shown(&figures),
            super::to_markdown_shown(&super::with_significant_costs(&self.conditions))
        )
    }
}

/// Builds the comparison of one seat across two or more waves. `rubrics[k]` was scored into
/// `waves[i].scores[k]` for every wave. A wave whose declared suite is too large to resample
/// (the accuracy change draws every problem) is refused: see
/// [`crate::stats::check_suite_size`].
pub fn compare(
    seat: &str,
    waves: &[WaveInput<'_>],
    rubrics: &[RubricInfo],
) -> crate::error::Result<Comparison> {
    for w in waves {
        crate::stats::check_suite_size(&w.data.wave)?;
    }
    let figures: Vec<SeatFigures> = waves
        .iter()
        .map(|w| SeatFigures::of(&w.data.wave, w.seat))
        .collect();
    let figs: Vec<WaveFigs> = figures.iter().map(WaveFigs::of).collect();
    let ids: Vec<&str> = waves.iter().map(|w| w.data.wave.id.as_str()).collect();
    let conds = conditions(waves);
    let places: Vec<Vec<Place>> = waves
        .iter()
        .map(|w| {
            rubrics
                .iter()
                .zip(w.scores)
                .map(|(info, s)| place(info, s, seat))
                .collect()
        })
        .collect();
    let medians: Medians = waves
        .iter()
        .map(|w| {
            rubrics
                .iter()
                .map(|info| {
                    if info.rubric.relative {
                        cohort_medians(&info.rubric, w.data)
                    } else {
                        Vec::new()
                    }
                })
                .collect()
        })
        .collect();

    let settings = crate::stats::bootstrap::Settings::default();
    let shifts = (1..waves.len())
        .map(|j| Shifts {
            wall_s: shift::shift(&waves[j - 1], &waves[j], seat, shift::Figure::WallS),
            tokens_total: shift::shift(&waves[j - 1], &waves[j], seat, shift::Figure::TokensTotal),
            accuracy: shift::accuracy_change(&waves[j - 1], &waves[j], &settings),
        })
        .collect();
    let p = Parts {
        seat,
        waves,
        rubrics,
        ids,
        figures,
        figs,
        conds,
        places,
        medians,
        shifts,
    };
    let verdict = verdict::verdict(&p);
    let notes = notes::notes(&p);
    Ok(Comparison {
        figures: tables::figures_table(&p, &verdict),
        conditions: tables::conditions_table(&p, &notes),
        csv: tables::csv_table(&p),
        json: json::json(&p, verdict, notes),
    })
}

/// Everything the renderings share, computed once.
struct Parts<'a> {
    seat: &'a str,
    waves: &'a [WaveInput<'a>],
    rubrics: &'a [RubricInfo],
    ids: Vec<&'a str>,
    figures: Vec<SeatFigures>,
    figs: Vec<WaveFigs>,
    conds: Vec<Condition>,
    /// `[wave][rubric]`.
    places: Vec<Vec<Place>>,
    medians: Medians,
    /// Between each wave and the next: the wave-wide shifts and the accuracy change.
    shifts: Vec<Shifts>,
}

/// Between two consecutive waves: how the rest of the wave moved, and the seat's accuracy
/// change with its interval.
#[derive(Debug, Clone, Copy)]
struct Shifts {
    wall_s: Option<shift::Shift>,
    tokens_total: Option<shift::Shift>,
    accuracy: Option<shift::AccuracyChange>,
}
