//! How a listing shows intervals (`show --ci`, `score --ci`, a publication made with `--ci`):
//! a heading line saying how they were drawn, a column beside each figure, the rank range
//! beside the rank with the seats not separable from the leader marked, and the JSON's
//! `accuracy_ci`, `cost_of_pass_ci`, `score_ci`, `rank_range` and `separable_from_leader`.
//!
//! Without `--ci` none of this appears, and every listing is what it was.

use std::collections::BTreeMap;

use serde::Serialize;

use super::versus::IntervalJson;
use super::{Cell, Column, Note, Table};
use crate::number::pretty;
use crate::number::{fixed, int, machine, usd};
use crate::stats::bootstrap::{GENERATOR, Interval, Settings};
use crate::stats::leaderboard::{RankRange, SeatIntervals, WaveIntervals};

/// How the intervals were drawn, as JSON shows it.
pub(crate) fn settings_json(s: &Settings) -> IntervalJson {
    IntervalJson {
        method: s.method.name(),
        generator: GENERATOR,
        level: s.level,
        resamples: s.resamples,
        seed: s.seed,
    }
}

/// The level in percent, for people: "95", "90.5".
pub fn level_text(s: &Settings) -> String {
    pretty(s.level * 100.0)
}

/// The heading line that says how a listing's intervals were drawn.
pub fn heading(w: &WaveIntervals, ranks: bool) -> String {
    let s = &w.settings;
    format!(
        "Intervals: {}% level, {} resamples, seed {}, generator {GENERATOR}; a {}, each \
         resample drawing the wave's {} with replacement, every seat on the same draws, all \
         trials of a problem together{}.",
        level_text(s),
        int(u64::from(s.resamples)),
        s.seed,
        s.method.name(),
        if w.problems == 1 {
            "1 problem".to_string()
        } else {
            format!("{} problems", int(w.problems))
        },
        if ranks {
            format!(
                "; rank range: the {}% and {}% quantiles of a seat's rank over the resamples",
                pretty((1.0 - s.level) / 2.0 * 100.0),
                pretty((1.0 + s.level) / 2.0 * 100.0)
            )
        } else {
            String::new()
        }
    )
}

/// A seat's intervals of its absolute figures, in the JSON of `show` and `score`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FiguresCiJson {
    /// `[lo, hi]` of `accuracy`; null when it is undefined on every resample.
    pub accuracy_ci: Option<[f64; 2]>,
    /// `[lo, hi]` of the pooled `cost_of_pass_usd`; null when it is undefined on every
    /// resample.
    pub cost_of_pass_ci: Option<[f64; 2]>,
    /// On how many resamples each interval rests (a figure undefined on a resample, such as a
    /// Cost-of-Pass with nothing Correct, is left out of it).
    pub ci_resamples: BTreeMap<&'static str, u32>,
}

fn pair(i: Option<Interval>) -> Option<[f64; 2]> {
    i.map(|i| [i.lo, i.hi])
}

fn defined(i: Option<Interval>) -> u32 {
    i.map_or(0, |i| i.defined)
}

impl FiguresCiJson {
    pub fn of(s: &SeatIntervals) -> FiguresCiJson {
        FiguresCiJson {
            accuracy_ci: pair(s.accuracy),
            cost_of_pass_ci: pair(s.cost_of_pass),
            ci_resamples: BTreeMap::from([
                ("accuracy", defined(s.accuracy)),
                ("cost_of_pass", defined(s.cost_of_pass)),
            ]),
        }
    }

    /// With a rubric's score and rank too.
    pub fn scored(s: &SeatIntervals) -> FiguresCiJson {
        let mut j = FiguresCiJson::of(s);
        j.ci_resamples.insert("score", defined(s.score));
        j.ci_resamples
            .insert("rank", s.rank.map_or(0, |r| r.defined));
        j
    }
}

/// A seat's interval of its score and range of its rank, in the JSON of `score`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ScoreCiJson {
    /// `[lo, hi]` of `score`; null when it is undefined on every resample.
    pub score_ci: Option<[f64; 2]>,
    /// `[best, worst]`: the quantiles of the seat's rank over the resamples; null when it was
    /// never ranked.
    pub rank_range: Option<[u32; 2]>,
    /// Whether the seat's rank range is apart from the leader's (the rank-1 seat's): false
    /// when they overlap, so that the data cannot tell the two apart; null for the leader
    /// itself, for a seat tied with it for rank 1, and for a seat without a rank range.
    pub separable_from_leader: Option<bool>,
}

/// The leader of a leaderboard: the first seat ranked 1, its rank range, and the seats that
/// share rank 1 with it (tied on the score and every tie-break, "1=").
#[derive(Debug, Clone, PartialEq)]
pub struct Leader<'a> {
    pub id: &'a str,
    pub range: RankRange,
    pub tied: Vec<&'a str>,
}

/// The leader of a leaderboard (see [`Leader`]), when a seat is ranked 1 and has a rank range.
pub fn leader<'a>(
    ranked: impl IntoIterator<Item = (&'a str, Option<u32>)>,
    w: &WaveIntervals,
) -> Option<Leader<'a>> {
    let mut first = ranked
        .into_iter()
        .filter(|(_, r)| *r == Some(1))
        .map(|(id, _)| id);
    let id = first.next()?;
    Some(Leader {
        id,
        range: w.seat(id).rank?,
        tied: first.collect(),
    })
}

/// Whether a seat is separable from the leader: `None` for the leader itself and the seats
/// tied with it for rank 1 (leaders as much as it is: a mark saying the data cannot tell
/// them from the leader would contradict their shared rank), and for a seat (or a leader)
/// without a rank range.
pub fn separable(seat: &str, s: &SeatIntervals, leader: Option<&Leader<'_>>) -> Option<bool> {
    let l = leader?;
    if l.id == seat || l.tied.contains(&seat) {
        return None;
    }
    Some(!s.rank?.overlaps(&l.range))
}

/// What an interval column shows: its human text, the columns it adds (the lower bound under
/// `key_lo`, the upper, for CSV only, under `key_hi`).
///
/// An interval is what `--ci` asked for: a narrow terminal keeps it after every other optional
/// column (the tie groups' letters, the figures to its right).
pub fn columns(header: &str, key: &str) -> [Column; 2] {
    [
        Column::num(header, &format!("{key}_lo")).priority(super::ASKED),
        Column::machine(&format!("{key}_hi")),
    ]
}

/// The cells of one interval: "41.2–65.0%" for people, the bounds for machines.
pub fn cells(i: Option<Interval>, human: impl Fn(f64) -> String) -> [Cell; 2] {
    match i {
        Some(i) => [
            Cell::new(format!("{}–{}", human(i.lo), human(i.hi)), machine(i.lo)),
            Cell::text(machine(i.hi)),
        ],
        None => [Cell::none(), Cell::new("", "")],
    }
}

/// An accuracy interval's cells: "41.2–65.0%".
pub(crate) fn accuracy_cells(i: Option<Interval>) -> [Cell; 2] {
    let [mut lo, hi] = cells(i, |x| fixed(x * 100.0, 1));
    if i.is_some() {
        lo.human.push('%');
    }
    [lo, hi]
}

/// A Cost-of-Pass interval's cells: "$0.52–$0.91".
pub(crate) fn cost_cells(i: Option<Interval>) -> [Cell; 2] {
    cells(i, usd)
}

/// The mark beside a rank range not separable from the leader's.
pub(crate) const NOT_SEPARABLE: &str = "≈";

/// A rank range's cells: "1–3", marked [`NOT_SEPARABLE`] when it overlaps the leader's; then,
/// for machines, the worst rank and whether it is separable from the leader.
pub(crate) fn rank_cells(r: Option<RankRange>, separable: Option<bool>) -> [Cell; 3] {
    let flag = match separable {
        Some(b) => Cell::text(b.to_string()),
        None => Cell::new("", ""),
    };
    match r {
        Some(r) => [
            Cell::new(
                format!(
                    "{}–{}{}",
                    r.lo,
                    r.hi,
                    if separable == Some(false) {
                        format!(" {NOT_SEPARABLE}")
                    } else {
                        String::new()
                    }
                ),
                r.lo.to_string(),
            ),
            Cell::text(r.hi.to_string()),
            flag,
        ],
        None => [Cell::none(), Cell::new("", ""), flag],
    }
}

/// The notes under a listing with intervals: which seats the data cannot tell from the
/// leader, and which intervals rest on fewer resamples than were drawn.
pub fn notes(
    w: &WaveIntervals,
    order: &[&str],
    leader: Option<&Leader<'_>>,
    score_named: Option<&str>,
) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(l) = leader {
        let (id, range) = (l.id, l.range);
        let close: Vec<&str> = order
            .iter()
            .copied()
            .filter(|s| separable(s, &w.seat(s), leader) == Some(false))
            .collect();
        let ranked_others = order
            .iter()
            .filter(|s| separable(s, &w.seat(s), leader).is_some())
            .count();
        let tied = if l.tied.is_empty() {
            String::new()
        } else {
            format!(
                "; tied with it for rank 1, and so not marked: {}",
                l.tied.join(", ")
            )
        };
        if !close.is_empty() {
            notes.push(format!(
                "{NOT_SEPARABLE} Not separable from the leader, {id} (rank range {}–{}{tied}): {}. \
                 Their rank ranges overlap the leader's, so the data cannot tell them apart \
                 from it; overlapping ranges anywhere mark an order the data does not support.",
                range.lo,
                range.hi,
                close.join(", ")
            ));
        } else if ranked_others > 0 {
            notes.push(format!(
                "Every other seat's rank range lies apart from the leader's ({id}, {}–{}{tied}); \
                 overlapping ranges anywhere mark an order the data does not support.",
                range.lo, range.hi
            ));
        } else if !l.tied.is_empty() {
            notes.push(format!(
                "The leader, {id} (rank range {}–{}{tied}).",
                range.lo, range.hi
            ));
        }
    }
    let total = w.settings.resamples;
    let mut partial = Vec::new();
    for s in order {
        let i = w.seat(s);
        let mut figures = vec![
            ("accuracy", defined(i.accuracy)),
            ("Cost-of-Pass", defined(i.cost_of_pass)),
        ];
        if let Some(name) = score_named {
            figures.push((name, defined(i.score)));
            figures.push(("rank", i.rank.map_or(0, |r| r.defined)));
        }
        for (what, n) in figures {
            if n > 0 && n < total {
                partial.push(format!("{s} {what} {}", int(u64::from(n))));
            }
        }
    }
    if !partial.is_empty() {
        notes.push(format!(
            "Intervals resting on fewer than the {} resamples (the figure was undefined on the \
             others): {}.",
            int(u64::from(total)),
            partial.join(", ")
        ));
    }
    notes
}

/// Fewer problems than this, and an interval over them is a rough guide.
pub(crate) const FEW_PROBLEMS: u64 = 30;

/// A listing's JSON body with the cautions its intervals carry (none: no `warnings` key).
#[derive(Debug, Clone, Serialize)]
pub struct Cautioned<'a, T: Serialize> {
    #[serde(flatten)]
    pub body: &'a T,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// The cautions intervals drawn over `w` carry: fewer than `FEW_PROBLEMS` problems.
pub fn warnings(w: &WaveIntervals) -> Vec<String> {
    if w.problems >= FEW_PROBLEMS {
        return Vec::new();
    }
    vec![format!(
        "intervals over only {} problem{} (fewer than {FEW_PROBLEMS}): the percentile bootstrap \
         runs narrow on so few, and a rank range such as 1–1 may claim more than the data holds",
        int(w.problems),
        if w.problems == 1 { "" } else { "s" }
    )]
}

/// Marks a listing (`show --ci`, `score --ci`; never a publication's text, which stays as it
/// was published) with the cautions its intervals carry: a note each, and the JSON's
/// `warnings` array.
pub fn caution<'a, T: Serialize>(
    table: &mut Table,
    body: &'a T,
    intervals: Option<&WaveIntervals>,
) -> Cautioned<'a, T> {
    let warnings = intervals.map(warnings).unwrap_or_default();
    for w in &warnings {
        table.notes.push(Note::Text(format!("Caution: {w}.")));
    }
    Cautioned { body, warnings }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranked(lo: u32, hi: u32) -> SeatIntervals {
        SeatIntervals {
            rank: Some(RankRange {
                lo,
                hi,
                defined: 2000,
            }),
            ..SeatIntervals::default()
        }
    }

    /// Two seats tied for rank 1 on every resample (the same answers on every problem: rank
    /// ranges 1–1 both) and a third behind, overlapping them: the tied one is a leader too and
    /// carries no "≈" (which would say the data cannot tell it from the leader beside a range
    /// of 1–1 and a rank of "1="); the one behind does.
    #[test]
    fn a_seat_tied_with_the_leader_is_a_leader_not_marked_close_to_it() {
        let w = WaveIntervals {
            settings: Settings::default(),
            problems: 40,
            seats: [
                ("a", ranked(1, 1)),
                ("b", ranked(1, 1)),
                ("c", ranked(1, 3)),
            ]
            .into_iter()
            .map(|(id, s)| (id.to_string(), s))
            .collect(),
        };
        let l = leader([("a", Some(1)), ("b", Some(1)), ("c", Some(3))], &w).unwrap();
        assert_eq!(l.tied, ["b"]);
        assert_eq!(separable("a", &w.seat("a"), Some(&l)), None);
        assert_eq!(separable("b", &w.seat("b"), Some(&l)), None);
        assert_eq!(separable("c", &w.seat("c"), Some(&l)), Some(false));
        let [range, _, _] = rank_cells(w.seat("b").rank, separable("b", &w.seat("b"), Some(&l)));
        assert_eq!(range.human, "1–1");
        let [range, _, _] = rank_cells(w.seat("c").rank, separable("c", &w.seat("c"), Some(&l)));
        assert_eq!(range.human, "1–3 ≈");
        assert_eq!(
            notes(&w, &["a", "b", "c"], Some(&l), None),
            [
                "≈ Not separable from the leader, a (rank range 1–1; tied with it for rank 1, and \
              so not marked: b): c. Their rank ranges overlap the leader's, so the data cannot \
              tell them apart from it; overlapping ranges anywhere mark an order the data does \
              not support."
            ]
        );
        // As a publication has always shown it, no seat is tied: b is marked.
        let published = Leader {
            tied: Vec::new(),
            ..l.clone()
        };
        assert_eq!(separable("b", &w.seat("b"), Some(&published)), Some(false));
        // Everyone tied: one line naming them.
        let two = leader([("a", Some(1)), ("b", Some(1))], &w).unwrap();
        assert_eq!(
            notes(&w, &["a", "b"], Some(&two), None),
            ["The leader, a (rank range 1–1; tied with it for rank 1, and so not marked: b)."]
        );
    }
}
