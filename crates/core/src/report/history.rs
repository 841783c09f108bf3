//! `benchledger history`: a registered rubric's stored scores, wave after wave — the long-lived
//! leaderboard as `rescore` left it. Each wave's load travels with its rows, since scores of
//! different waves were made under different conditions; a relative rubric is shown as ranks
//! only.

use serde::Serialize;

use super::score::{RubricInfo, RubricJson, outcome_remark, places, rank_text};
use super::waves::describe_load;
use super::{Advice, Cell, Column, DETAIL, ESSENTIAL, EXTRA, Note, Table};
use crate::model::{Load, Wave};
use crate::number::{fixed, machine};
use crate::rubric::StoredScore;

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

pub fn history(
    info: &RubricInfo,
    waves: &[WaveHistory],
    seat: Option<&str>,
) -> (Table, HistoryJson) {
    let r = &info.rubric;
    let places = places(r);
    let mut columns = vec![
        Column::text("Wave", "wave").grouped(),
        Column::text("Suite", "suite").grouped().priority(EXTRA),
        Column::text("Started", "started_at")
            .grouped()
            .priority(EXTRA),
        Column::text("Seat", "seat").priority(ESSENTIAL),
    ];
    // A relative score is never set beside another wave's: its column is left out.
    if !r.relative {
        columns.push(Column::num(&r.id(), "score").priority(ESSENTIAL));
    }
    columns.extend([
        Column::num("Rank in wave", "rank"),
        Column::text("Load", "load").grouped(),
        Column::text("Remark", "remark").priority(DETAIL),
    ]);
    let mut t = Table::new(columns);
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
    let mut rows = Vec::new();
    let mut not_rescored = Vec::new();
    for w in waves {
        if w.stored.is_empty() {
            not_rescored.push(w.wave.id.clone());
        }
        let of = w.stored.iter().filter(|s| s.score.rank.is_some()).count();
        for s in &w.stored {
            let sc = &s.score;
            if seat.is_some_and(|want| sc.seat != want) {
                continue;
            }
            let shown = if r.relative { None } else { sc.score };
            let remark = outcome_remark(sc).unwrap_or_default();
            let mut row = vec![
                Cell::text(&w.wave.id),
                Cell::text(&w.wave.suite),
                Cell::text(&w.wave.started_at),
                Cell::text(&sc.seat),
            ];
            if !r.relative {
                row.push(match shown {
                    Some(x) => Cell::new(fixed(x, places), machine(x)),
                    None => Cell::none(),
                });
            }
            row.extend([
                match rank_text(sc) {
                    Some(text) => Cell::new(
                        format!("{text} of {of}"),
                        sc.rank.map(|x| x.to_string()).unwrap_or_default(),
                    ),
                    None => Cell::none(),
                },
                Cell::text(describe_load(&w.wave.load)),
                Cell::text(remark),
            ]);
            t.rows.push(row);
            rows.push(HistoryRowJson {
                wave: w.wave.id.clone(),
                suite: w.wave.suite.clone(),
                started_at: w.wave.started_at.clone(),
                seat: sc.seat.clone(),
                score: shown,
                rank: sc.rank,
                of,
                gate: sc.gate.clone(),
                note: sc.note.clone(),
            });
        }
    }
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
