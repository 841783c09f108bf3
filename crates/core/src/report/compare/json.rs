//! The JSON of `compare` (kind `"compare"`): the documented machine contract. Every difference
//! is unrounded and null when either side is unknown.

use serde::Serialize;
use serde_json::Value;

use super::Parts;
use super::conditions::{CondValue, confounds};
pub use super::shift::Shift;
use super::wave_figures::{Fig, complete_tokens};
use crate::figures::Known;
use crate::model::{Accounting, Budget, Load, SuiteProblems};
use crate::report::waves::{COST_OF_PASS, SeatJson};

/// The JSON of `compare` (kind `"compare"`).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CompareJson {
    pub seat: String,
    /// Which Cost-of-Pass is printed.
    pub cost_of_pass: &'static str,
    /// Oldest first, as named on the command line.
    pub waves: Vec<CompareWaveJson>,
    /// One per pair of consecutive waves. Every difference is `to − from`, unrounded; null when
    /// either side is unknown (a sum covering only some attempts) or undefined.
    pub changes: Vec<ChangeJson>,
    /// Every condition that differs between the waves, with its value in each wave (null for
    /// unknown) and the figures whose change it confounds.
    pub confounders: Vec<ConfounderJson>,
    /// The one-line reading of each change, as printed first in the table.
    pub verdict: Vec<String>,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CompareWaveJson {
    pub wave: String,
    /// The seat's absolute figures in this wave, under the same names as `show`'s seats.
    #[serde(flatten)]
    pub figures: SeatJson,
    pub suite: String,
    pub suite_problems: Option<u64>,
    pub load: Load,
    pub accounting: Accounting,
    pub budget: Budget,
    pub rubrics: Vec<RubricPlaceJson>,
}

/// Where the seat stands under one rubric in one wave.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RubricPlaceJson {
    /// `name@version`.
    pub rubric: String,
    pub sha256: String,
    pub relative: bool,
    /// The score, unrounded. Always null for a relative rubric: its value is measured against
    /// this wave's medians and is never compared across waves; see `rank`.
    pub score: Option<f64>,
    /// The seat's rank inside this wave (1 for the best); null when its score is undefined.
    pub rank: Option<u32>,
    /// How many seats of the wave have a rank.
    pub of: u32,
    /// Why the score is undefined, or the gate the seat failed.
    pub note: Option<String>,
    /// For a relative rubric: the wave medians its cohort factors divide by.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cohort_medians: Option<Vec<MedianJson>>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct MedianJson {
    pub factor: String,
    pub measure: &'static str,
    /// Null when the measure is unknown for every seat of the wave.
    pub median: Option<f64>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ChangeJson {
    pub from: String,
    pub to: String,
    /// Difference of the correct-rates (a share: -0.25 is 25 percentage points down).
    pub accuracy: Option<f64>,
    pub wall_s: Option<f64>,
    /// to / from.
    pub wall_s_ratio: Option<f64>,
    pub tokens_total: Option<i64>,
    pub tokens_total_ratio: Option<f64>,
    pub new_input_tokens: Option<i64>,
    pub cost_usd: Option<f64>,
    pub cost_usd_ratio: Option<f64>,
    pub cost_of_pass_usd: Option<f64>,
    /// Score differences under the absolute rubrics only (a relative rubric is never
    /// compared across waves).
    pub rubrics: Vec<RubricChangeJson>,
    /// The conditions that differ between these two waves.
    pub confounded_by: Vec<String>,
    /// The accuracy difference's percentile bootstrap interval (each wave's problems
    /// resampled; seed 0, 2000 resamples, 95 %), and whether it leaves out zero.
    pub accuracy_ci: Option<[f64; 2]>,
    pub accuracy_beyond_noise: Option<bool>,
    /// How the other seats present in both waves moved: per figure, their median relative
    /// change, how many they are, this seat's change and how it relates.
    pub wave_shift: WaveShiftJson,
    /// Per figure: whether this seat's change went beyond its wave's.
    pub beyond_wave_shift: BeyondJson,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct WaveShiftJson {
    pub wall_s: Option<Shift>,
    pub tokens_total: Option<Shift>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct BeyondJson {
    pub wall_s: Option<bool>,
    pub tokens_total: Option<bool>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RubricChangeJson {
    pub rubric: String,
    pub score: Option<f64>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ConfounderJson {
    pub condition: &'static str,
    /// One per wave; null for unknown (or, for a budget or config, none declared).
    pub values: Vec<Value>,
    /// The figures (and absolute rubrics) whose change this difference confounds.
    pub confounds: Vec<String>,
}

/// The JSON document.
pub(super) fn json(p: &Parts<'_>, verdict: Vec<String>, notes: Vec<String>) -> CompareJson {
    let Parts {
        seat,
        waves,
        rubrics,
        conds,
        ..
    } = p;
    let confounders = conds
        .iter()
        .filter(|c| c.differs())
        .map(|c| ConfounderJson {
            condition: c.key,
            values: c.values.iter().map(CondValue::json).collect(),
            confounds: confounds(c, rubrics),
        })
        .collect();
    CompareJson {
        seat: seat.to_string(),
        cost_of_pass: COST_OF_PASS,
        waves: (0..waves.len()).map(|i| wave_json(p, i)).collect(),
        changes: (1..waves.len()).map(|j| change_json(p, j - 1, j)).collect(),
        confounders,
        verdict,
        notes,
    }
}

/// The `i`th wave: the seat's figures there, the wave's conditions, and its place under
/// each rubric (a relative rubric's with the cohort's medians it was measured against).
fn wave_json(p: &Parts<'_>, i: usize) -> CompareWaveJson {
    let Parts {
        waves,
        rubrics,
        ids,
        figures,
        places,
        medians,
        ..
    } = p;
    let w = &waves[i];
    CompareWaveJson {
        wave: ids[i].to_string(),
        figures: SeatJson::of(&w.seat.seat, &figures[i]),
        suite: w.data.wave.suite.clone(),
        suite_problems: w
            .data
            .wave
            .suite_problems
            .as_ref()
            .map(SuiteProblems::count),
        load: w.data.wave.load.clone(),
        accounting: w.data.wave.accounting.clone(),
        budget: w.data.wave.budget.clone(),
        rubrics: rubrics
            .iter()
            .enumerate()
            .map(|(k, info)| {
                let p = &places[i][k];
                RubricPlaceJson {
                    rubric: info.rubric.id(),
                    sha256: info.sha256.clone(),
                    relative: info.rubric.relative,
                    score: p.score,
                    rank: p.rank,
                    of: p.of,
                    note: p.note.clone(),
                    cohort_medians: info.rubric.relative.then(|| {
                        medians[i][k]
                            .iter()
                            .map(|c| MedianJson {
                                factor: c.factor.clone(),
                                measure: c.measure.name(),
                                median: c.median,
                            })
                            .collect()
                    }),
                }
            })
            .collect(),
    }
}

/// The change from wave `i` to wave `j`: each figure's difference (and ratio), each absolute
/// rubric's, the conditions that differ, and whether it lies beyond the noise and the wave's
/// own shift.
fn change_json(p: &Parts<'_>, i: usize, j: usize) -> ChangeJson {
    let Parts {
        rubrics,
        ids,
        figures,
        figs,
        conds,
        places,
        shifts,
        ..
    } = p;
    let beyond = |s: Option<Shift>| {
        s.and_then(|s| s.relation)
            .map(|r| r == super::shift::Relation::Beyond)
    };
    let diff = |a: &Fig, b: &Fig| Some(b.value()? - a.value()?);
    let ratio = |a: &Fig, b: &Fig| {
        let (x, y) = (a.value()?, b.value()?);
        (x != 0.0).then(|| y / x)
    };
    let token_diff = |a: &Known<u64>, na: u64, b: &Known<u64>, nb: u64| {
        let x = i64::try_from(complete_tokens(a, na)?).ok()?;
        let y = i64::try_from(complete_tokens(b, nb)?).ok()?;
        y.checked_sub(x)
    };
    let (a, b) = (&figs[i], &figs[j]);
    let (fa, fb) = (&figures[i], &figures[j]);
    ChangeJson {
        from: ids[i].to_string(),
        to: ids[j].to_string(),
        accuracy: diff(&a.accuracy, &b.accuracy),
        wall_s: diff(&a.wall_s, &b.wall_s),
        wall_s_ratio: ratio(&a.wall_s, &b.wall_s),
        tokens_total: token_diff(&fa.tokens_total, fa.attempts, &fb.tokens_total, fb.attempts),
        tokens_total_ratio: ratio(&a.tokens_total, &b.tokens_total),
        new_input_tokens: token_diff(
            &fa.new_input_tokens,
            fa.attempts,
            &fb.new_input_tokens,
            fb.attempts,
        ),
        cost_usd: diff(&a.cost_usd, &b.cost_usd),
        cost_usd_ratio: ratio(&a.cost_usd, &b.cost_usd),
        cost_of_pass_usd: diff(&a.cost_of_pass_usd, &b.cost_of_pass_usd),
        rubrics: rubrics
            .iter()
            .enumerate()
            .filter(|(_, info)| !info.rubric.relative)
            .map(|(k, info)| RubricChangeJson {
                rubric: info.rubric.id(),
                score: match (places[i][k].score, places[j][k].score) {
                    (Some(x), Some(y)) => Some(y - x),
                    _ => None,
                },
            })
            .collect(),
        confounded_by: conds
            .iter()
            .filter(|c| c.differs_between(i, j))
            .map(|c| c.key.to_string())
            .collect(),
        accuracy_ci: shifts[i].accuracy.map(|a| a.ci),
        accuracy_beyond_noise: shifts[i].accuracy.map(|a| a.beyond_noise),
        wave_shift: WaveShiftJson {
            wall_s: shifts[i].wall_s,
            tokens_total: shifts[i].tokens_total,
        },
        beyond_wave_shift: BeyondJson {
            wall_s: beyond(shifts[i].wall_s),
            tokens_total: beyond(shifts[i].tokens_total),
        },
    }
}
