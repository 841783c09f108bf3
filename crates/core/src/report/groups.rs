//! A wave's tie groups as letters beside each seat's accuracy (`score --ci`, `show --ci`, the
//! site's leaderboards): the compact letter display of `versus --all`
//! ([`crate::stats::versus::TieGroups`]), so that a reader of a leaderboard sees which seats the
//! data cannot tell apart without running every comparison. The letters are those of
//! `versus --wave W --all` at α = [`ALPHA`], the same seat for seat, and never part of a
//! publication's text, which stays as it was published.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Advice, Cell, Column, NORMAL, Note, Table};
use crate::number::{int, machine};
use crate::stats::versus::TieGroups;

/// The family-wise error rate the listings' letters are drawn at (`versus --all`'s default).
pub const ALPHA: f64 = crate::stats::versus::ALPHA;

/// The letters in a listing's JSON: `groups` as `versus --all` has it (seat → letters), and
/// the α they were drawn at.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct GroupsJson {
    /// Seat → its letters: two seats share a letter if and only if they are not separable.
    pub groups: BTreeMap<String, String>,
    pub groups_alpha: f64,
}

impl GroupsJson {
    pub fn of(g: &TieGroups) -> GroupsJson {
        GroupsJson {
            groups: g
                .seats
                .iter()
                .map(|s| (s.seat.clone(), s.letters.clone()))
                .collect(),
            groups_alpha: g.alpha,
        }
    }
}

/// Adds the "Group" column to a listing whose rows are seats (a column keyed `seat`), after the
/// correct-rate's interval (else after the correct-rate), and the note that says what the
/// letters mean. A seat the groups do not hold gets an empty cell.
pub(crate) fn add_column(t: &mut Table, g: &TieGroups, wave: &str) {
    let Some(seat_at) = t.columns.iter().position(|c| c.key == "seat") else {
        return;
    };
    let at = ["accuracy_ci_hi", "accuracy"]
        .iter()
        .find_map(|key| t.columns.iter().position(|c| c.key == *key))
        .map_or(t.columns.len(), |i| i + 1);
    // Drawn with the intervals but not what `--ci` asks for: a narrow terminal keeps it after
    // the ordinary columns to its right, and leaves it out before the intervals.
    t.columns
        .insert(at, Column::text("Group", "group").priority(NORMAL));
    for row in &mut t.rows {
        let letters = g.letters(&row[seat_at].machine).unwrap_or("");
        row.insert(at, Cell::text(letters));
    }
    t.notes.push(Note::Advice(Advice::Groups {
        summary: summary(g),
        wave: wave.to_string(),
    }));
}

/// What the letters mean, in words (the advice that goes with it names `versus --all`).
pub fn summary(g: &TieGroups) -> String {
    if g.skipped_pairs > 0 {
        return format!(
            "Group: not drawn: {} seats are more than the {} whose every pair is compared; the \
             {} pairs were skipped, and no seat is told apart from another.",
            int(g.seats.len() as u64),
            int(crate::stats::versus::PAIRWISE_SEATS_MAX as u64),
            int(g.skipped_pairs)
        );
    }
    let pairs = g.pairs.len() as u64;
    if pairs == 0 {
        return "Group: one seat, with no other to be told apart from.".to_string();
    }
    format!(
        "Group: seats sharing a letter cannot be told apart on accuracy: the paired test on \
         every trial (per shared problem, the difference of the seats' shares of Correct \
         trials), Holm-corrected over all {} pair{} at α = {}, finds no difference between \
         them. Letters follow the per-problem mean, highest first.",
        int(pairs),
        if pairs == 1 { "" } else { "s" },
        machine(g.alpha)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::versus::{RankedSeat, TieGroups};

    fn groups(letters: &[(&str, &str)]) -> TieGroups {
        TieGroups {
            alpha: 0.05,
            seats: letters
                .iter()
                .map(|(seat, l)| RankedSeat {
                    seat: seat.to_string(),
                    mean_per_problem: Some(0.5),
                    attempted: 40,
                    letters: l.to_string(),
                })
                .collect(),
            pairs: Vec::new(),
            skipped_pairs: 0,
        }
    }

    #[test]
    fn the_column_follows_the_correct_rate_and_its_interval() {
        let g = groups(&[("x", "a"), ("y", "ab")]);
        let mut t = Table::new(vec![
            Column::text("Seat", "seat"),
            Column::num("Correct", "accuracy"),
            Column::num("Wall s", "wall_s"),
        ]);
        t.rows
            .push(vec![Cell::text("y"), Cell::text("1"), Cell::text("2")]);
        t.rows
            .push(vec![Cell::text("z"), Cell::text("1"), Cell::text("2")]);
        add_column(&mut t, &g, "w");
        let keys: Vec<&str> = t.columns.iter().map(|c| c.key.as_str()).collect();
        assert_eq!(keys, ["seat", "accuracy", "group", "wall_s"]);
        assert_eq!(t.rows[0][2].human, "ab");
        // A seat the groups do not hold: empty.
        assert_eq!(t.rows[1][2].human, "");
        let mut t = Table::new(vec![
            Column::text("Seat", "seat"),
            Column::num("Correct", "accuracy"),
            Column::num("Correct 95% CI", "accuracy_ci_lo"),
            Column::machine("accuracy_ci_hi"),
        ]);
        t.rows.push(vec![
            Cell::text("x"),
            Cell::text("1"),
            Cell::text("2"),
            Cell::text("3"),
        ]);
        add_column(&mut t, &g, "w");
        assert_eq!(t.columns[4].key, "group");
        assert_eq!(t.rows[0][4].human, "a");
        let json = serde_json::to_value(GroupsJson::of(&g)).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"groups": {"x": "a", "y": "ab"}, "groups_alpha": 0.05})
        );
    }
}
