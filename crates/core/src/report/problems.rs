//! Every sample one click away: `benchledger problems`. A wave's problem × seat matrix (how
//! many of each seat's trials on each problem passed, its infrastructure errors, a problem it
//! never attempted), most-solved problems first; and between two waves, the problems each seat
//! solves in one and not the other.
//!
//! A seat *solves* a problem when more than half of its trials there are Correct. Problems
//! that tie go in natural order, runs of digits compared as numbers (`2` before `10`). A
//! problem the wave declares (`suite_problems` by id) that a seat never attempted is
//! *missing* for it, and not solved.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::{ASKED, Cell, Column, ESSENTIAL, Note, Table};
use crate::model::{SeatData, SuiteProblems, WaveData};

/// One seat on one problem.
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq)]
pub struct SeatCell {
    pub trials: u32,
    pub passed: u32,
    pub infra_errors: u32,
    /// The seat has no attempt at the problem.
    pub missing: bool,
}

impl SeatCell {
    /// More than half of its trials Correct.
    pub fn solves(&self) -> bool {
        self.passed * 2 > self.trials
    }

    /// For people: "pass", "fail", "missing"; with more than one trial, how many passed
    /// ("pass 2/3"); with infrastructure errors, how many ("fail, 1 infra error").
    pub fn words(&self) -> String {
        if self.missing {
            return "missing".into();
        }
        let mut s = if self.solves() { "pass" } else { "fail" }.to_string();
        if self.trials > 1 {
            s.push_str(&format!(" {}/{}", self.passed, self.trials));
        }
        match self.infra_errors {
            0 => {}
            1 => s.push_str(", 1 infra error"),
            n => s.push_str(&format!(", {n} infra errors")),
        }
        s
    }
}

/// One problem: how many seats solve it, and each seat's cell.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ProblemRow {
    pub problem: String,
    pub solved_by: usize,
    pub seats: BTreeMap<String, SeatCell>,
}

/// A wave's matrix, as `problems --format json` prints it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct MatrixJson {
    pub wave: String,
    /// The seats shown, in ledger order.
    pub seats: Vec<String>,
    /// How people see the seats that have a display name (seat → name); absent when none has.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub display_names: BTreeMap<String, String>,
    /// Most-solved first, then by problem id.
    pub problems: Vec<ProblemRow>,
    /// Problems the wave declares by count alone that no seat attempted: their ids are not
    /// recorded, so they have no row, and each counts as missing (not Correct) for every seat.
    /// Absent when there are none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unlisted: Option<u64>,
}

/// A seat as people read it: its display name where `names` has one, its id else.
fn shown<'a>(names: &'a BTreeMap<String, String>, id: &'a str) -> &'a str {
    names.get(id).map_or(id, String::as_str)
}

/// The note under a table that shows the seats `ids` by the display names `names` has for
/// them (see [`super::display_names_note`]).
fn names_note<'a>(
    names: &'a BTreeMap<String, String>,
    ids: impl IntoIterator<Item = &'a str>,
) -> Option<Note> {
    super::names_note(
        ids.into_iter()
            .filter_map(|id| Some((names.get(id)?.as_str(), id))),
    )
}

/// The problems of a wave: those it declares by id and those any seat attempted, in natural
/// order (`2` before `10`).
pub(crate) fn wave_problems(data: &WaveData) -> Vec<String> {
    let mut all: BTreeSet<&str> = BTreeSet::new();
    if let Some(SuiteProblems::Ids(ids)) = &data.wave.suite_problems {
        all.extend(ids.iter().map(String::as_str));
    }
    for s in &data.seats {
        all.extend(s.attempts.iter().map(|a| a.problem.as_str()));
    }
    let mut all: Vec<String> = all.into_iter().map(str::to_string).collect();
    all.sort_by(|a, b| natural(a, b));
    all
}

/// A seat's cell on each problem it attempted.
pub(crate) fn seat_cells(seat: &SeatData) -> BTreeMap<&str, SeatCell> {
    let mut cells: BTreeMap<&str, SeatCell> = BTreeMap::new();
    for a in &seat.attempts {
        let c = cells.entry(a.problem.as_str()).or_default();
        c.trials += 1;
        c.passed += u32::from(a.correct);
        c.infra_errors += u32::from(a.infra_error);
    }
    cells
}

/// The matrix of a wave over the named seats (every seat when none is named; the caller has
/// checked that each exists).
pub fn matrix(data: &WaveData, seats: &[String]) -> MatrixJson {
    let shown: Vec<&SeatData> = data
        .seats
        .iter()
        .filter(|s| seats.is_empty() || seats.contains(&s.seat.id))
        .collect();
    let cells: Vec<BTreeMap<&str, SeatCell>> = shown.iter().map(|s| seat_cells(s)).collect();
    let mut problems: Vec<ProblemRow> = wave_problems(data)
        .into_iter()
        .map(|p| {
            let seats: BTreeMap<String, SeatCell> = shown
                .iter()
                .zip(&cells)
                .map(|(s, c)| {
                    let cell = c.get(p.as_str()).copied().unwrap_or(SeatCell {
                        missing: true,
                        ..SeatCell::default()
                    });
                    (s.seat.id.clone(), cell)
                })
                .collect();
            ProblemRow {
                solved_by: seats.values().filter(|c| c.solves()).count(),
                problem: p,
                seats,
            }
        })
        .collect();
    problems.sort_by(|a, b| {
        b.solved_by
            .cmp(&a.solved_by)
            .then(natural(&a.problem, &b.problem))
    });
    let unlisted = match data.wave.suite_problems {
        Some(SuiteProblems::Count(n)) => n.checked_sub(problems.len() as u64).filter(|u| *u > 0),
        _ => None,
    };
    MatrixJson {
        unlisted,
        wave: data.wave.id.clone(),
        seats: shown.iter().map(|s| s.seat.id.clone()).collect(),
        display_names: shown
            .iter()
            .filter_map(|s| Some((s.seat.id.clone(), s.seat.display_name.clone()?)))
            .collect(),
        problems,
    }
}

/// "1 seat", "2 seats".
fn count(n: usize, one: &str) -> String {
    format!("{n} {one}{}", if n == 1 { "" } else { "s" })
}

/// The matrix as a table: a row a problem, a column a seat.
pub(crate) fn matrix_table(m: &MatrixJson) -> Table {
    let mut columns = vec![
        Column::text("Problem", "problem"),
        Column::num("Solved by", "solved_by").priority(ESSENTIAL),
    ];
    // People read a seat by its display name; CSV's header is its id, the key. A matrix is
    // read by its seats: on a narrow terminal a seat's header breaks at its id's separators
    // before any seat is left out.
    columns.extend(
        m.seats
            .iter()
            .map(|s| Column::text(shown(&m.display_names, s), s).priority(ASKED)),
    );
    let mut t = Table::new(columns);
    t.heading = vec![format!(
        "Wave {}: {} × {}, most-solved first",
        m.wave,
        count(m.problems.len(), "problem"),
        count(m.seats.len(), "seat")
    )];
    for p in &m.problems {
        let mut row = vec![
            Cell::text(&p.problem),
            Cell::new(
                format!("{} of {}", p.solved_by, m.seats.len()),
                p.solved_by.to_string(),
            ),
        ];
        for s in &m.seats {
            let c = p.seats[s];
            row.push(Cell::new(
                c.words(),
                if c.missing {
                    String::new()
                } else {
                    format!("{}/{}", c.passed, c.trials)
                },
            ));
        }
        t.rows.push(row);
    }
    t.notes.push(
        "A seat solves a problem when more than half of its trials there are Correct; \
         \"pass 2/3\": 2 of 3 trials Correct; missing: no attempt (not Correct); an \
         infrastructure error is an attempt that counts as not Correct."
            .into(),
    );
    if let Some(n) = m.unlisted {
        t.notes.push(unlisted_note(n).into());
    }
    t.notes.extend(names_note(
        &m.display_names,
        m.seats.iter().map(String::as_str),
    ));
    t
}

/// What the matrix cannot show of a wave that declares its problems by count alone: `n` that
/// no seat attempted.
pub(crate) fn unlisted_note(n: u64) -> String {
    if n == 1 {
        "1 more problem the wave declares by count was attempted by no seat: its id is not \
         recorded, so it has no row; it is missing, not Correct, for every seat."
            .into()
    } else {
        format!(
            "{n} more problems the wave declares by count were attempted by no seat: their ids \
             are not recorded, so they have no row; each is missing, not Correct, for every seat."
        )
    }
}

/// What changed for one seat between two waves.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SeatRegressions {
    pub seat: String,
    /// How people see the seat, when it has a display name (its name in the second wave, else
    /// in the first); absent when it has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
    /// Solved in the first wave, attempted and not solved in the second.
    pub newly_failed: Vec<String>,
    /// Not solved in the first wave, solved in the second.
    pub newly_solved: Vec<String>,
    /// Attempted by the seat in the first wave only.
    pub only_in_a: Vec<String>,
    /// Attempted by the seat in the second wave only.
    pub only_in_b: Vec<String>,
}

/// `problems --regressions A B --format json`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RegressionsJson {
    pub wave_a: String,
    pub wave_b: String,
    /// Every seat in both waves (or those named), in the first wave's order.
    pub seats: Vec<SeatRegressions>,
}

/// The problems each seat in both waves solves in one and not the other.
pub fn regressions(a: &WaveData, b: &WaveData, seats: &[String]) -> RegressionsJson {
    let mut out = Vec::new();
    for sa in &a.seats {
        if !seats.is_empty() && !seats.contains(&sa.seat.id) {
            continue;
        }
        let Some(sb) = b.seats.iter().find(|s| s.seat.id == sa.seat.id) else {
            continue;
        };
        let (ca, cb) = (seat_cells(sa), seat_cells(sb));
        let ids = |f: &dyn Fn(&str) -> bool, from: &BTreeMap<&str, SeatCell>| -> Vec<String> {
            let mut ids: Vec<String> = from
                .keys()
                .filter(|p| f(p))
                .map(|p| p.to_string())
                .collect();
            ids.sort_by(|a, b| natural(a, b));
            ids
        };
        out.push(SeatRegressions {
            seat: sa.seat.id.clone(),
            display_name: sb
                .seat
                .display_name
                .clone()
                .or_else(|| sa.seat.display_name.clone()),
            newly_failed: ids(
                &|p| ca[p].solves() && cb.get(p).is_some_and(|c| !c.solves()),
                &ca,
            ),
            newly_solved: ids(
                &|p| cb[p].solves() && ca.get(p).is_some_and(|c| !c.solves()),
                &cb,
            ),
            only_in_a: ids(&|p| !cb.contains_key(p), &ca),
            only_in_b: ids(&|p| !ca.contains_key(p), &cb),
        });
    }
    RegressionsJson {
        wave_a: a.wave.id.clone(),
        wave_b: b.wave.id.clone(),
        seats: out,
    }
}

/// Problem ids in natural order: runs of digits compared as numbers, so `p2` before `p11`
/// and `11` before `100` (issue 32, #9: `100, 11, 12` read as text).
pub(crate) fn natural(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let (mut x, mut y) = (a, b);
    loop {
        match (x.chars().next(), y.chars().next()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let run = |s: &str| s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
                let (i, j) = (run(x), run(y));
                let (m, n) = (
                    x[..i].trim_start_matches('0'),
                    y[..j].trim_start_matches('0'),
                );
                let by = m.len().cmp(&n.len()).then_with(|| m.cmp(n));
                if by != Ordering::Equal {
                    return by;
                }
                (x, y) = (&x[i..], &y[j..]);
            }
            (Some(c), Some(d)) => {
                if c != d {
                    return c.cmp(&d);
                }
                (x, y) = (&x[c.len_utf8()..], &y[d.len_utf8()..]);
            }
        }
    }
}

/// "2: p1, p3", or "0".
fn listed(ids: &[String]) -> Cell {
    let human = if ids.is_empty() {
        "0".to_string()
    } else {
        format!("{}: {}", ids.len(), ids.join(", "))
    };
    Cell::new(human, ids.join(" "))
}

/// The regressions as a table: a row a seat.
pub(crate) fn regressions_table(r: &RegressionsJson) -> Table {
    let mut t = Table::new(vec![
        Column::text("Seat", "seat"),
        Column::text("Newly failed", "newly_failed").priority(ESSENTIAL),
        Column::text("Newly solved", "newly_solved").priority(ESSENTIAL),
        Column::text(&format!("Only in {}", r.wave_a), "only_in_a"),
        Column::text(&format!("Only in {}", r.wave_b), "only_in_b"),
    ]);
    t.heading = vec![format!(
        "Problems each seat solves in one wave and not the other: {} → {}",
        r.wave_a, r.wave_b
    )];
    for s in &r.seats {
        t.rows.push(vec![
            Cell::new(s.display_name.as_deref().unwrap_or(&s.seat), &s.seat),
            listed(&s.newly_failed),
            listed(&s.newly_solved),
            listed(&s.only_in_a),
            listed(&s.only_in_b),
        ]);
    }
    t.notes.push(Note::Text(format!(
        "Newly failed: solved in {a} (more than half its trials Correct), attempted and not \
         solved in {b}; newly solved: the reverse. Only in a wave: attempted by the seat there \
         and not in the other.",
        a = r.wave_a,
        b = r.wave_b
    )));
    t.notes.extend(super::names_note(
        r.seats
            .iter()
            .filter_map(|s| Some((s.display_name.as_deref()?, s.seat.as_str()))),
    ));
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 32, #9: `problems --regressions` listed 90 ids sorted as text (`100, 11, 12`).
    #[test]
    fn issue_32_9_regressions_list_problem_ids_in_natural_order() {
        let mut ids = vec!["100", "11", "12", "p10", "p9", "2", "p9a", "b", "a", "010"];
        ids.sort_by(|a, b| natural(a, b));
        assert_eq!(
            ids,
            ["2", "010", "11", "12", "100", "a", "b", "p9", "p9a", "p10"]
        );
    }

    #[test]
    fn a_seat_solves_with_more_than_half_its_trials() {
        let c = |passed, trials| SeatCell {
            trials,
            passed,
            infra_errors: 0,
            missing: false,
        };
        assert!(c(1, 1).solves() && c(2, 3).solves());
        assert!(!c(1, 2).solves() && !c(0, 1).solves() && !SeatCell::default().solves());
        assert_eq!(c(2, 3).words(), "pass 2/3");
        assert_eq!(
            SeatCell {
                infra_errors: 1,
                ..c(0, 1)
            }
            .words(),
            "fail, 1 infra error"
        );
    }
}
