//! Where the seat stands under each rubric named with `--rubric`, in each wave; and, for a
//! relative rubric, the wave medians its cohort factors divide by — the yardstick that moves
//! when a whole wave does.

use crate::model::WaveData;
use crate::number::fixed;
use crate::report::score::{RubricInfo, places as score_places, rank_text};
use crate::rubric::WaveScores;
use crate::rubric::interpret;
use crate::rubric::measure::Measure;
use crate::rubric::spec::{Rubric, Transform};

/// The seat's place under one rubric in one wave.
pub(super) struct Place {
    /// Always `None` under a relative rubric: its value is never compared across waves.
    pub(super) score: Option<f64>,
    pub(super) rank: Option<u32>,
    /// How many seats of the wave have a rank.
    pub(super) of: u32,
    /// For people: the score and rank, or the rank alone under a relative rubric.
    pub(super) text: String,
    /// Why the score is undefined, or the gate the seat failed.
    pub(super) note: Option<String>,
}

pub(super) fn place(info: &RubricInfo, scores: &WaveScores, seat: &str) -> Place {
    let of = scores.seats.iter().filter(|s| s.rank.is_some()).count() as u32;
    let Some(s) = scores.seats.iter().find(|s| s.seat == seat) else {
        return Place {
            score: None,
            rank: None,
            of,
            text: "—".into(),
            note: None,
        };
    };
    let note = s
        .gate
        .as_ref()
        .map(|g| format!("failed gate {g}"))
        .or_else(|| s.note.clone());
    let rank = rank_text(s).map_or("unranked".into(), |r| format!("{r} of {of}"));
    let r = &info.rubric;
    let text = if r.relative {
        match &s.note {
            Some(n) => format!("unranked (undefined: {n})"),
            None => rank,
        }
    } else {
        match s.score {
            Some(x) => format!("{} (rank {rank})", fixed(x, score_places(r))),
            None => format!("— ({})", note.clone().unwrap_or_default()),
        }
    };
    Place {
        score: if r.relative { None } else { s.score },
        rank: s.rank,
        of,
        text,
        note,
    }
}

/// A cohort factor's yardstick in one wave: the median of its measure over the wave's seats.
pub(super) struct CohortMedian {
    pub(super) factor: String,
    pub(super) measure: Measure,
    pub(super) median: Option<f64>,
}

/// Each wave's cohort medians under each rubric: `[wave][rubric][factor]`.
pub(super) type Medians = Vec<Vec<Vec<CohortMedian>>>;

/// The median of each cohort factor's measure over a wave's seats — the interpreter's own
/// yardstick — in the order the rubric declares its factors.
pub(super) fn cohort_medians(r: &Rubric, data: &WaveData) -> Vec<CohortMedian> {
    let medians = interpret::cohort_medians(r, data);
    r.factors
        .iter()
        .filter(|f| f.transform == Transform::CohortRatio)
        .map(|f| CohortMedian {
            factor: f.name.clone(),
            measure: f.measure,
            median: medians.get(&f.name).copied().flatten(),
        })
        .collect()
}
