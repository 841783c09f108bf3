//! The leaderboard: `benchledger score`. Absolute figures first — correct-rate with its
//! denominator, wall seconds, tokens (saying whether cached reads are in), USD, Cost-of-Pass —
//! then the score and the rank. A relative score is labelled as a rank inside this wave only.

use std::collections::BTreeMap;

use serde::Serialize;

use super::fields::Fields;
use super::intervals::{self, FiguresCiJson, ScoreCiJson};
use super::waves::{
    Detail, SeatJson, absolute_fields, absolute_notes, canary_cell, canary_column, canary_notes,
    wave_heading,
};
use super::{Cell, Column, DETAIL, ESSENTIAL, Note, Table, capitalise, texts};
use crate::figures::SeatFigures;
use crate::model::WaveData;
use crate::number::{fixed, machine};
use crate::rubric::spec::Rubric;
use crate::rubric::{SeatScore, WaveScores};
use crate::stats::leaderboard::WaveIntervals;

/// Which rubric made a leaderboard (defined with the rubric; named here, where the
/// leaderboards that take it are).
pub use crate::rubric::RubricInfo;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ScaleJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RubricJson {
    pub name: String,
    pub version: u32,
    pub sha256: String,
    pub relative: bool,
    pub scale: ScaleJson,
    pub scale_violation: bool,
    pub registered: bool,
    pub tie_break: Vec<String>,
}

impl RubricJson {
    pub fn of(info: &RubricInfo) -> RubricJson {
        let r = &info.rubric;
        RubricJson {
            name: r.name.clone(),
            version: r.version,
            sha256: info.sha256.clone(),
            relative: r.relative,
            scale: ScaleJson {
                min: r.scale.min,
                max: r.scale.max,
            },
            scale_violation: info.scale_violation,
            registered: info.registered,
            tie_break: r.tie_break.iter().map(|t| t.name()).collect(),
        }
    }
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ScoredSeatJson {
    #[serde(flatten)]
    pub seat: SeatJson,
    /// Unrounded; null when undefined (see `note`).
    pub score: Option<f64>,
    pub rank: Option<u32>,
    pub factors: BTreeMap<String, f64>,
    pub gate: Option<String>,
    pub tie: Option<String>,
    pub note: Option<String>,
    /// With `--ci`: the score's interval, the rank range, and whether it is apart from the
    /// leader's.
    #[serde(flatten)]
    pub ci: Option<ScoreCiJson>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ScoreJson {
    pub wave: String,
    pub rubric: RubricJson,
    /// For a relative rubric: what its numbers may and may not be used for.
    pub relative_note: Option<&'static str>,
    pub seats: Vec<ScoredSeatJson>,
    /// With `--ci`: how the intervals were drawn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval: Option<super::versus::IntervalJson>,
    /// With `--ci`: the tie groups as letters (see `add_groups`).
    #[serde(flatten)]
    pub tie_groups: Option<super::groups::GroupsJson>,
}

/// Adds the tie groups to a leaderboard (`score --ci`, the site; never a publication's text):
/// the "Group" column beside the correct-rate (and its interval), the note saying what the
/// letters mean, each seat's `group` and the leaderboard's `groups` in the JSON.
pub(crate) fn add_groups(t: &mut Table, json: &mut ScoreJson, g: &crate::stats::versus::TieGroups) {
    super::groups::add_column(t, g, &json.wave);
    for s in &mut json.seats {
        s.seat.group = g.letters(&s.seat.seat).map(str::to_string);
    }
    json.tie_groups = Some(super::groups::GroupsJson::of(g));
}

pub(crate) const RELATIVE_NOTE: &str = "relative: this score ranks seats against their own wave's \
     median; it is a rank inside this wave only and is never compared across waves";

/// Decimal places for a rubric's scores: 2 on a wide scale (0–100), 3 otherwise.
pub fn places(r: &Rubric) -> usize {
    match r.scale.max {
        Some(m) if m >= 10.0 => 2,
        _ => 3,
    }
}

/// The score column's header.
pub(crate) fn score_header(r: &Rubric) -> String {
    if r.relative {
        format!("{} (relative, this wave only)", r.id())
    } else {
        r.id()
    }
}

/// The heading lines naming the rubric and any scale violation.
pub(crate) fn rubric_heading(info: &RubricInfo) -> Vec<String> {
    let r = &info.rubric;
    let scale = match (r.scale.min, r.scale.max) {
        (None, None) => "open scale".to_string(),
        _ => format!("scale {}", r.scale.range_words()),
    };
    let mut h = vec![format!(
        "Rubric {} ({scale}{}) sha256 {}",
        r.id(),
        if r.relative { ", relative" } else { "" },
        crate::digest::short(&info.sha256)
    )];
    if info.scale_violation {
        h.push(format!(
            "WARNING: {} fails `rubric check`: its score can leave its declared scale; it is \
             kept to reproduce historical numbers",
            r.id()
        ));
    }
    h
}

fn score_cell(s: &SeatScore, places: usize) -> Cell {
    match s.score {
        Some(x) => Cell::new(fixed(x, places), machine(x)),
        None => Cell::none(),
    }
}

/// A seat's rank for people: "2", or "2=" while the tie-breaks leave it shared; `None` when the
/// seat is unranked.
pub(crate) fn rank_text(s: &SeatScore) -> Option<String> {
    let r = s.rank?;
    Some(if s.rank_shared {
        format!("{r}=")
    } else {
        r.to_string()
    })
}

fn rank_cell(s: &SeatScore) -> Cell {
    match (rank_text(s), s.rank) {
        (Some(text), Some(r)) => Cell::new(text, r.to_string()),
        _ => Cell::none(),
    }
}

/// Why a seat's score is what it is, in a few words: a gate, a tie-break, an undefined reason.
fn remark(s: &SeatScore) -> String {
    outcome_remark(s)
        .or_else(|| s.tie.clone())
        .unwrap_or_default()
}

/// Why a seat's score is not an ordinary one: the gate it failed, or why it is undefined.
pub(crate) fn outcome_remark(s: &SeatScore) -> Option<String> {
    match (&s.gate, &s.note) {
        (Some(g), _) => Some(format!("failed gate {g}")),
        (None, Some(n)) => Some(format!("undefined: {n}")),
        (None, None) => None,
    }
}

/// The leaderboard of one wave under one rubric.
pub fn leaderboard(data: &WaveData, info: &RubricInfo, scores: &WaveScores) -> (Table, ScoreJson) {
    leaderboard_with(data, info, scores, None)
}

/// The leaderboard of one wave under one rubric, with each seat's intervals and rank range
/// when they were drawn (`score --ci`).
pub fn leaderboard_with(
    data: &WaveData,
    info: &RubricInfo,
    scores: &WaveScores,
    intervals: Option<&WaveIntervals>,
) -> (Table, ScoreJson) {
    leaderboard_of(data, info, scores, intervals, true)
}

/// [`leaderboard_with`] as a publication's text has always shown it: a seat tied with the
/// leader for rank 1 is marked not separable from it when their rank ranges overlap. A
/// published text is rendered again byte for byte by `verify`, so it keeps that rule.
pub(crate) fn leaderboard_as_published(
    data: &WaveData,
    info: &RubricInfo,
    scores: &WaveScores,
    intervals: Option<&WaveIntervals>,
) -> (Table, ScoreJson) {
    leaderboard_of(data, info, scores, intervals, false)
}

/// A scored seat as the leaderboard's JSON gives it: its figures, its score and rank, and
/// their intervals when drawn.
fn scored_seat_json(
    s: &SeatScore,
    seat: &crate::model::Seat,
    f: &SeatFigures,
    intervals: Option<&WaveIntervals>,
    leader: Option<&intervals::Leader<'_>>,
) -> ScoredSeatJson {
    let mut seat_json = SeatJson::of(seat, f);
    let mut ci = None;
    if let Some(w) = intervals {
        let i = w.seat(&s.seat);
        seat_json.ci = Some(FiguresCiJson::scored(&i));
        ci = Some(ScoreCiJson {
            score_ci: i.score.map(|i| [i.lo, i.hi]),
            rank_range: i.rank.map(|r| [r.lo, r.hi]),
            separable_from_leader: intervals::separable(&s.seat, &i, leader),
        });
    }
    ScoredSeatJson {
        seat: seat_json,
        score: s.score,
        rank: s.rank,
        factors: s.factors.clone(),
        gate: s.gate.clone(),
        tie: s.tie.clone(),
        note: s.note.clone(),
        ci,
    }
}

/// How equal scores are ranked, when the rubric breaks ties.
fn tie_break_note(r: &Rubric) -> Option<Note> {
    if r.tie_break.is_empty() {
        return None;
    }
    let order = if r.tie_break.iter().any(|t| t.higher_first) {
        "lower first; higher first where marked -"
    } else {
        "lower first"
    };
    let names: Vec<String> = r.tie_break.iter().map(|t| t.name()).collect();
    Some(Note::Text(format!(
        "Equal scores are ranked on {} ({order}); \"n=\" marks a rank still shared.",
        names.join(", then ")
    )))
}

/// A row of a leaderboard: a scored seat and its absolute figures.
struct BoardRow<'a> {
    score: &'a SeatScore,
    seat: &'a crate::model::Seat,
    figures: SeatFigures,
}

/// The leaderboard's columns, each with its cell: the seat, its absolute figures first, its
/// canaries where the wave declares some, then the score, its rank and a remark.
fn board_fields<'a>(data: &'a WaveData, info: &RubricInfo) -> Fields<'a, BoardRow<'a>> {
    let r = &info.rubric;
    let wave = data.wave.id.as_str();
    let places = places(r);
    Fields::new()
        .with(Column::machine_text("wave"), move |_: &BoardRow| {
            Cell::text(wave)
        })
        .with(Column::text("Seat", "seat"), |row| Cell::seat(row.seat))
        .with_all(
            absolute_fields(
                data.wave.accounting.input_tokens_include_cache_reads,
                Detail::Leaderboard,
            ),
            |row| &row.figures,
        )
        .with_some(canary_column(&data.wave), |row| canary_cell(&row.figures))
        .with(
            Column::num(&score_header(r), "score").priority(ESSENTIAL),
            move |row| score_cell(row.score, places),
        )
        .with(
            Column::num(if r.relative { "Rank in wave" } else { "Rank" }, "rank")
                .priority(ESSENTIAL),
            |row| rank_cell(row.score),
        )
        .with(Column::text("Remark", "remark").priority(DETAIL), |row| {
            Cell::text(remark(row.score))
        })
}

/// The leaderboard; `co_leaders`: the seats tied with the leader for rank 1 are leaders too,
/// never marked as not separable from it (see [`intervals::Leader`]).
fn leaderboard_of(
    data: &WaveData,
    info: &RubricInfo,
    scores: &WaveScores,
    intervals: Option<&WaveIntervals>,
    co_leaders: bool,
) -> (Table, ScoreJson) {
    let r = &info.rubric;
    let by_id: BTreeMap<&str, &crate::model::SeatData> =
        data.seats.iter().map(|s| (s.seat.id.as_str(), s)).collect();
    let rows: Vec<BoardRow> = scores
        .seats
        .iter()
        .filter_map(|s| {
            let seat = by_id.get(s.seat.as_str())?;
            let figures = SeatFigures::of(&data.wave, seat);
            Some(BoardRow {
                score: s,
                seat: &seat.seat,
                figures,
            })
        })
        .collect();
    let mut t = board_fields(data, info).table(&rows);
    t.heading = wave_heading(&data.wave);
    t.heading.extend(rubric_heading(info));
    let places = places(r);
    let leader = intervals
        .and_then(|w| intervals::leader(scores.seats.iter().map(|s| (s.seat.as_str(), s.rank)), w))
        .map(|mut l| {
            if !co_leaders {
                l.tied.clear();
            }
            l
        });
    let seats_json: Vec<ScoredSeatJson> = rows
        .iter()
        .map(|row| {
            scored_seat_json(
                row.score,
                row.seat,
                &row.figures,
                intervals,
                leader.as_ref(),
            )
        })
        .collect();
    let figures: Vec<SeatFigures> = rows.into_iter().map(|r| r.figures).collect();
    t.notes = texts(absolute_notes(&data.wave, &figures, Detail::Leaderboard)).collect();
    t.notes.extend(super::display_names_note(
        scores
            .seats
            .iter()
            .filter_map(|s| by_id.get(s.seat.as_str()).map(|d| &d.seat)),
    ));
    t.notes.extend(texts(canary_notes(
        &data.wave,
        seats_json
            .iter()
            .map(|s| s.seat.seat.as_str())
            .zip(&figures),
    )));
    if let Some(w) = intervals {
        add_score_interval_columns(&mut t, w, places, leader.as_ref());
        t.heading.push(intervals::heading(w, true));
        let order: Vec<String> = seat_ids(&t);
        let order: Vec<&str> = order.iter().map(String::as_str).collect();
        let notes = intervals::notes(w, &order, leader.as_ref(), Some("score"));
        t.notes.extend(texts(notes));
    }
    if r.relative {
        t.notes
            .push(Note::Text(format!("{}.", capitalise(RELATIVE_NOTE))));
    }
    t.notes.extend(tie_break_note(r));
    let json = ScoreJson {
        wave: data.wave.id.clone(),
        rubric: RubricJson::of(info),
        relative_note: r.relative.then_some(RELATIVE_NOTE),
        seats: seats_json,
        interval: intervals.map(|w| intervals::settings_json(&w.settings)),
        tie_groups: None,
    };
    (t, json)
}

/// The seat of each row of a leaderboard, in order (its first column is the wave, for CSV).
fn seat_ids(t: &Table) -> Vec<String> {
    let at = t
        .columns
        .iter()
        .position(|c| c.key == "seat")
        .expect("a leaderboard has a seat column");
    t.rows.iter().map(|r| r[at].machine.clone()).collect()
}

/// Adds the interval columns to a leaderboard: those of the absolute figures, the score's
/// beside the score, and the rank range beside the rank.
fn add_score_interval_columns(
    t: &mut Table,
    w: &WaveIntervals,
    places: usize,
    leader: Option<&intervals::Leader<'_>>,
) {
    let seats: Vec<String> = seat_ids(t);
    let level = intervals::level_text(&w.settings);
    let rank_at = t.columns.iter().position(|c| c.key == "rank");
    if let Some(at) = rank_at {
        let mut columns = intervals::columns("Rank range", "rank_range").to_vec();
        // The rank range is what `--ci` is asked for in a leaderboard: a narrow terminal keeps
        // it beside the rank.
        columns[0].priority = super::ESSENTIAL;
        columns.push(Column::machine("separable_from_leader"));
        t.columns.splice(at + 1..at + 1, columns);
        for (row, id) in t.rows.iter_mut().zip(&seats) {
            let i = w.seat(id);
            row.splice(
                at + 1..at + 1,
                intervals::rank_cells(i.rank, intervals::separable(id, &i, leader)),
            );
        }
    }
    if let Some(at) = t.columns.iter().position(|c| c.key == "score") {
        // Asked for with `--ci`, it outlasts every other column asked for; but the rank and
        // its range are what a leaderboard is read for, so a narrow terminal leaves the score's
        // interval out before them (issue 31).
        let mut columns = intervals::columns(&format!("Score {level}% CI"), "score_ci");
        columns[0].priority = super::ASKED_MAIN;
        t.columns.splice(at + 1..at + 1, columns);
        for (row, id) in t.rows.iter_mut().zip(&seats) {
            let cells = intervals::cells(w.seat(id).score, |x| fixed(x, places));
            row.splice(at + 1..at + 1, cells);
        }
    }
    super::waves::add_interval_columns(t, w, seats.iter().map(String::as_str));
}
