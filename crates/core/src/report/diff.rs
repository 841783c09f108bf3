//! `benchledger diff`: how a rubric change shifts past scores, seat by seat and wave by wave,
//! then a summary — how many moved, the largest shifts, the rank changes, and which old scores
//! lay outside their declared scale.

use serde::Serialize;

use super::fields::Fields;
use super::score::{RubricInfo, RubricJson, places, score_header};
use super::{ASKED, Cell, Column, DETAIL, ESSENTIAL, Note, Table};
use crate::number::{fixed, machine, machine_opt, signed};
use crate::rubric::WaveScores;
use crate::rubric::spec::Scale;

/// One seat of one wave: its old and new score and rank.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Shift {
    pub wave: String,
    pub seat: String,
    /// How people see the seat in this wave, when it has a display name; absent when it has
    /// none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
    /// Null when undefined, or when the rubric is relative (shown as a rank only).
    pub old: Option<f64>,
    pub new: Option<f64>,
    /// new − old; null when either is undefined or either rubric is relative.
    pub delta: Option<f64>,
    pub old_rank: Option<u32>,
    pub new_rank: Option<u32>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DiffRow {
    #[serde(flatten)]
    pub shift: Shift,
    /// The old score lies outside the old rubric's declared scale.
    pub old_outside_scale: bool,
    /// The new score lies outside the new rubric's declared scale.
    pub new_outside_scale: bool,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DiffSummary {
    pub waves: usize,
    pub seats: usize,
    /// Seats whose score changed (or became defined or undefined).
    pub moved: usize,
    pub unchanged: usize,
    /// Up to five, largest |delta| first.
    pub largest_shifts: Vec<Shift>,
    pub rank_changes: Vec<Shift>,
    pub old_outside_scale: Vec<Shift>,
    pub new_outside_scale: Vec<Shift>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DiffJson {
    pub old: RubricJson,
    pub new: RubricJson,
    pub rows: Vec<DiffRow>,
    pub summary: DiffSummary,
}

impl Shift {
    /// The seat as people read it: its display name, else its id.
    pub fn shown(&self) -> &str {
        self.display_name.as_deref().unwrap_or(&self.seat)
    }
}

fn outside(x: Option<f64>, s: &Scale) -> bool {
    let Some(x) = x else { return false };
    let tol = |b: f64| 1e-9 * b.abs().max(1.0);
    s.max.is_some_and(|m| x > m + tol(m)) || s.min.is_some_and(|m| x < m - tol(m))
}

/// The rows that `keep` picks, in order, as shifts.
fn shifts(rows: &[DiffRow], keep: impl Fn(&DiffRow) -> bool) -> Vec<Shift> {
    rows.iter()
        .filter(|r| keep(r))
        .map(|r| r.shift.clone())
        .collect()
}

/// Pairs the old and new scores of each wave, seat by seat; `display_name` says how people see
/// a seat of a wave (wave, seat), when it has a display name.
pub fn rows(
    old: &RubricInfo,
    new: &RubricInfo,
    scores: &[(WaveScores, WaveScores)],
    display_name: impl Fn(&str, &str) -> Option<String>,
) -> Vec<DiffRow> {
    // A relative score is shown only as a rank inside its wave: its value is left out, and a
    // change is computed only between two absolute scores.
    let comparable = !old.rubric.relative && !new.rubric.relative;
    let mut out = Vec::new();
    for (o, n) in scores {
        let mut seats: Vec<&str> = o.seats.iter().map(|s| s.seat.as_str()).collect();
        seats.sort_unstable();
        for seat in seats {
            let os = o.seats.iter().find(|s| s.seat == seat);
            let ns = n.seats.iter().find(|s| s.seat == seat);
            let old_score = os.and_then(|s| s.score);
            let new_score = ns.and_then(|s| s.score);
            out.push(DiffRow {
                shift: Shift {
                    wave: o.wave.clone(),
                    seat: seat.to_string(),
                    display_name: display_name(&o.wave, seat),
                    old: old_score.filter(|_| !old.rubric.relative),
                    new: new_score.filter(|_| !new.rubric.relative),
                    delta: old_score
                        .zip(new_score)
                        .filter(|_| comparable)
                        .map(|(a, b)| b - a),
                    old_rank: os.and_then(|s| s.rank),
                    new_rank: ns.and_then(|s| s.rank),
                },
                old_outside_scale: outside(old_score, &old.rubric.scale),
                new_outside_scale: outside(new_score, &new.rubric.scale),
            });
        }
    }
    out
}

pub fn summary(rows: &[DiffRow]) -> DiffSummary {
    let waves = rows
        .iter()
        .map(|r| r.shift.wave.as_str())
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    let moved = rows
        .iter()
        .filter(|r| r.shift.old != r.shift.new || r.shift.old_rank != r.shift.new_rank)
        .count();
    let mut largest: Vec<&DiffRow> = rows
        .iter()
        .filter(|r| r.shift.delta.is_some_and(|d| d != 0.0))
        .collect();
    largest.sort_by(|a, b| {
        let (x, y) = (
            a.shift.delta.unwrap_or(0.0).abs(),
            b.shift.delta.unwrap_or(0.0).abs(),
        );
        y.total_cmp(&x)
            .then_with(|| a.shift.wave.cmp(&b.shift.wave))
            .then_with(|| a.shift.seat.cmp(&b.shift.seat))
    });
    DiffSummary {
        waves,
        seats: rows.len(),
        moved,
        unchanged: rows.len() - moved,
        largest_shifts: largest
            .into_iter()
            .take(5)
            .map(|r| r.shift.clone())
            .collect(),
        rank_changes: shifts(rows, |r| r.shift.old_rank != r.shift.new_rank),
        old_outside_scale: shifts(rows, |r| r.old_outside_scale),
        new_outside_scale: shifts(rows, |r| r.new_outside_scale),
    }
}

fn scale_words(s: &Scale) -> String {
    s.range_words()
}

/// The shifts for a summary note: "wave/seat what, wave/seat what", each seat as people read
/// it.
fn list(shifts: &[Shift], what: impl Fn(&Shift) -> String) -> String {
    shifts
        .iter()
        .map(|x| format!("{}/{} {}", x.wave, x.shown(), what(x)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn opt_rank(r: Option<u32>) -> String {
    r.map_or("—".into(), |r| r.to_string())
}

/// The diff's columns, one row a seat in a wave, each with its cell.
fn fields<'a>(old: &'a RubricInfo, new: &'a RubricInfo, places: usize) -> Fields<'a, DiffRow> {
    let f = move |x: Option<f64>| match x {
        Some(v) => Cell::new(fixed(v, places), machine(v)),
        None => Cell::none(),
    };
    Fields::new()
        .with(Column::text("Wave", "wave").grouped(), |r: &DiffRow| {
            Cell::text(&r.shift.wave)
        })
        .with(Column::text("Seat", "seat").priority(ESSENTIAL), |r| {
            Cell::new(r.shift.shown(), &r.shift.seat)
        })
        // The two rubrics named: a narrow terminal keeps them after every optional column, and
        // on one too narrow for them all, the Change before them.
        .with(
            Column::num(&score_header(&old.rubric), "old").priority(ASKED),
            move |r| f(r.shift.old),
        )
        .with(
            Column::num(&score_header(&new.rubric), "new").priority(ASKED),
            move |r| f(r.shift.new),
        )
        // The point of a diff: a narrow terminal keeps it beside the two scores.
        .with(
            Column::num("Change", "delta").priority(ESSENTIAL),
            move |r| match r.shift.delta {
                Some(d) => Cell::new(signed(d, places), machine(d)),
                None => Cell::none(),
            },
        )
        .with(Column::text("Rank", "rank"), |r| rank_cell(&r.shift))
        .with(
            Column::text("Remark", "remark").priority(DETAIL),
            move |r| Cell::text(remark(old, new, r)),
        )
}

/// A seat's rank under the old rubric and the new: one number when it stayed.
fn rank_cell(s: &Shift) -> Cell {
    Cell::new(
        if s.old_rank == s.new_rank {
            opt_rank(s.new_rank)
        } else {
            format!("{} → {}", opt_rank(s.old_rank), opt_rank(s.new_rank))
        },
        format!(
            "{}>{}",
            machine_opt(s.old_rank.map(f64::from)),
            machine_opt(s.new_rank.map(f64::from))
        ),
    )
}

/// Which of a row's scores lie outside their rubric's scale, in words.
fn remark(old: &RubricInfo, new: &RubricInfo, r: &DiffRow) -> String {
    let mut remark = Vec::new();
    for (which, info, outside) in [
        ("old", old, r.old_outside_scale),
        ("new", new, r.new_outside_scale),
    ] {
        if outside {
            remark.push(format!(
                "{which} score outside {}'s {} scale",
                info.rubric.id(),
                scale_words(&info.rubric.scale)
            ));
        }
    }
    remark.join("; ")
}

/// The diff listing.
pub fn diff(old: &RubricInfo, new: &RubricInfo, rows: Vec<DiffRow>) -> (Table, DiffJson) {
    let summary = summary(&rows);
    let places = places(&old.rubric).max(places(&new.rubric));
    let mut t = fields(old, new, places).table(&rows);
    t.heading.push(format!(
        "Rubric change: {} (scale {}) → {} (scale {})",
        old.rubric.id(),
        scale_words(&old.rubric.scale),
        new.rubric.id(),
        scale_words(&new.rubric.scale)
    ));
    for info in [old, new] {
        if info.scale_violation {
            t.heading.push(format!(
                "WARNING: {} fails `rubric check`: its score can leave its declared scale",
                info.rubric.id()
            ));
        }
    }
    let s = &summary;
    t.notes.push(Note::Text(format!(
        "{} seat{} in {} wave{}: {} moved, {} unchanged.",
        s.seats,
        if s.seats == 1 { "" } else { "s" },
        s.waves,
        if s.waves == 1 { "" } else { "s" },
        s.moved,
        s.unchanged
    )));
    if !s.largest_shifts.is_empty() {
        let shifts = list(&s.largest_shifts, |x| {
            signed(x.delta.unwrap_or(0.0), places)
        });
        t.notes
            .push(Note::Text(format!("Largest shifts: {shifts}.")));
    }
    t.notes.push(if s.rank_changes.is_empty() {
        "No rank changed.".into()
    } else {
        let changes = list(&s.rank_changes, |x| {
            format!("{} → {}", opt_rank(x.old_rank), opt_rank(x.new_rank))
        });
        format!("Rank changes: {changes}.").into()
    });
    // An empty list when no score lies outside.
    let old_outside = list(&s.old_outside_scale, |x| {
        fixed(x.old.unwrap_or(0.0), places)
    });
    let new_outside = list(&s.new_outside_scale, |x| {
        fixed(x.new.unwrap_or(0.0), places)
    });
    for (which, info, outside) in [("Old", old, old_outside), ("New", new, new_outside)] {
        if !outside.is_empty() {
            t.notes.push(Note::Text(format!(
                "{which} scores outside {}'s declared {} scale: {outside}.",
                info.rubric.id(),
                scale_words(&info.rubric.scale)
            )));
        }
    }
    t.notes
        .extend(super::names_note(rows.iter().filter_map(|r| {
            Some((r.shift.display_name.as_deref()?, r.shift.seat.as_str()))
        })));
    if old.rubric.relative || new.rubric.relative {
        t.notes.push(
            "A relative score ranks seats against their own wave's medians: it is shown only as \
             a rank inside each wave, so its values and changes are left out; compare the ranks."
                .into(),
        );
    }
    let json = DiffJson {
        old: RubricJson::of(old),
        new: RubricJson::of(new),
        rows,
        summary,
    };
    (t, json)
}
