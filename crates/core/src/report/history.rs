//! `benchledger history`: a registered rubric's stored scores, wave after wave — the long-lived
//! leaderboard as `rescore` left it. Each wave's load travels with its rows, since scores of
//! different waves were made under different conditions; a relative rubric is shown as ranks
//! only.

use serde::Serialize;

use super::fields::Fields;
use super::score::{RubricInfo, RubricJson, outcome_remark, places, rank_text};
use super::waves::describe_load;
use super::{Advice, Cell, Column, DETAIL, ESSENTIAL, EXTRA, Note, Table};
use crate::model::{Load, Wave};
use crate::number::{fixed, machine};
use crate::rubric::{Rubric, SeatScore, StoredScore};

/// One wave's conditions and its stored scores (best first).
pub struct WaveHistory {
    pub wave: Wave,
    pub stored: Vec<StoredScore>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct HistoryRowJson {
    pub wave: String,
    pub suite: String,
    pub started_at: String,
    pub seat: String,
    /// Null for a relative rubric (its values are not comparable across waves) or when
    /// undefined.
    pub score: Option<f64>,
    pub rank: Option<u32>,
    /// Seats ranked in that wave.
    pub of: usize,
    pub gate: Option<String>,
    pub note: Option<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct HistoryWaveJson {
    pub wave: String,
    pub suite: String,
    pub started_at: String,
    pub load: Load,
    /// Whether `rescore` has stored scores for this wave under the rubric.
    pub rescored: bool,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct HistoryJson {
    pub rubric: RubricJson,
    pub waves: Vec<HistoryWaveJson>,
    pub rows: Vec<HistoryRowJson>,
}

/// One row of the history: a seat's stored score in its wave, among `of` ranked there.
struct Row<'a> {
    wave: &'a Wave,
    score: &'a SeatScore,
    of: usize,
}

/// The history's columns, each with its cell: a relative score is never set beside another
/// wave's, so its column is left out.
fn fields<'a>(r: &'a Rubric) -> Fields<'a, Row<'a>> {
    let places = places(r);
    Fields::new()
        .with(Column::text("Wave", "wave").grouped(), |x: &Row| {
            Cell::text(&x.wave.id)
        })
        .with(
            Column::text("Suite", "suite").grouped().priority(EXTRA),
            |x| Cell::text(&x.wave.suite),
        )
        .with(
            Column::text("Started", "started_at")
                .grouped()
                .priority(EXTRA),
            |x| Cell::text(&x.wave.started_at),
        )
        .with(Column::text("Seat", "seat").priority(ESSENTIAL), |x| {
            Cell::text(&x.score.seat)
        })
        .with_if(
            !r.relative,
            Column::num(&r.id(), "score").priority(ESSENTIAL),
            move |x| match x.score.score {
                Some(v) => Cell::new(fixed(v, places), machine(v)),
                None => Cell::none(),
            },
        )
        .with(Column::num("Rank in wave", "rank"), |x| {
            match rank_text(x.score) {
                Some(text) => Cell::new(
                    format!("{text} of {}", x.of),
                    x.score.rank.map(|x| x.to_string()).unwrap_or_default(),
                ),
                None => Cell::none(),
            }
        })
        .with(Column::text("Load", "load").grouped(), |x| {
            Cell::text(describe_load(&x.wave.load))
        })
        .with(Column::text("Remark", "remark").priority(DETAIL), |x| {
            Cell::text(outcome_remark(x.score).unwrap_or_default())
        })
}

pub fn history(
    info: &RubricInfo,
    waves: &[WaveHistory],
    seat: Option<&str>,
) -> (Table, HistoryJson) {
    let r = &info.rubric;
    let mut shown = Vec::new();
    let mut not_rescored = Vec::new();
    for w in waves {
        if w.stored.is_empty() {
            not_rescored.push(w.wave.id.clone());
        }
        let of = w.stored.iter().filter(|s| s.score.rank.is_some()).count();
        shown.extend(
            w.stored
                .iter()
                .filter(|s| seat.is_none_or(|want| s.score.seat == want))
                .map(|s| Row {
                    wave: &w.wave,
                    score: &s.score,
                    of,
                }),
        );
    }
    let mut t = fields(r).table(&shown);
    t.heading.push(format!(
        "Stored scores under {} (sha256 {}), wave by wave",
        r.id(),
        crate::digest::short(&info.sha256)
    ));
    if info.scale_violation {
        t.heading.push(format!(
            "WARNING: {} fails `rubric check`: its score can leave its declared scale",
            r.id()
        ));
    }
    let rows = shown
        .iter()
        .map(|x| HistoryRowJson {
            wave: x.wave.id.clone(),
            suite: x.wave.suite.clone(),
            started_at: x.wave.started_at.clone(),
            seat: x.score.seat.clone(),
            score: if r.relative { None } else { x.score.score },
            rank: x.score.rank,
            of: x.of,
            gate: x.score.gate.clone(),
            note: x.score.note.clone(),
        })
        .collect();
    t.notes.push(Note::Advice(Advice::CompareWaves));
    if r.relative {
        t.notes.push(
            "This rubric is relative: each score was measured against its own wave's medians, \
             so only ranks inside each wave are shown."
                .into(),
        );
    }
    if !not_rescored.is_empty() {
        t.notes.push(Note::Advice(Advice::Rescore {
            waves: not_rescored.join(", "),
            rubric: r.id(),
        }));
    }
    let json = HistoryJson {
        rubric: RubricJson::of(info),
        waves: waves
            .iter()
            .map(|w| HistoryWaveJson {
                wave: w.wave.id.clone(),
                suite: w.wave.suite.clone(),
                started_at: w.wave.started_at.clone(),
                load: w.wave.load.clone(),
                rescored: !w.stored.is_empty(),
            })
            .collect(),
        rows,
    };
    (t, json)
}
