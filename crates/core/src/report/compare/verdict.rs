//! The verdict: one line per pair of consecutive waves — did the seat get slower or faster,
//! under what load, and on the same work or not. It is the first thing a reader sees.

use super::Parts;
use super::conditions::{CondValue, Kind, TIMEOUT_MULTIPLIER, load_direction};
use super::text::relative;
use super::wave_figures::Fig;
use crate::number::{fixed, signed};

/// One line per pair of consecutive waves: did the seat get slower or faster, and under what
/// difference in conditions.
pub(super) fn verdict(p: &Parts<'_>) -> Vec<String> {
    (1..p.ids.len()).map(|j| line(p, j - 1, j)).collect()
}

/// The verdict on waves `i` → `j`: the change in wall time, the load, the work and whatever
/// else differs, then the rest of the wave's shift and the accuracy's.
fn line(p: &Parts<'_>, i: usize, j: usize) -> String {
    let Parts {
        ids,
        figures,
        conds,
        ..
    } = p;
    let prefix = if ids.len() > 2 {
        format!("{} → {}: ", ids[i], ids[j])
    } else {
        String::new()
    };
    // The conditions of these kinds that differ between the two waves, for people.
    let differing = |kinds: &[Kind]| -> Vec<String> {
        conds
            .iter()
            .filter(|c| kinds.contains(&c.kind) && c.differs_between(i, j))
            .map(|c| c.between(i, j))
            .collect()
    };
    let different_work = differing(&[Kind::Identity, Kind::Attempts]);
    let same_work = different_work.is_empty();
    let accuracy_moved = figures[i].accuracy != figures[j].accuracy
        && figures[i].accuracy.is_some()
        && figures[j].accuracy.is_some();
    let speed = speed(p, i, j, same_work, accuracy_moved);
    let load = differing(&[Kind::Load]);
    let load_text = load_text(p, i, j, &load);
    let others = differing(&[Kind::CacheAccounting, Kind::Prices, Kind::Budget]);
    let mut line = format!("{prefix}{speed}{load_text}");
    if same_work {
        line.push('.');
    } else {
        line.push_str(&format!(
            " — but on different work: {}.",
            different_work.join(", ")
        ));
    }
    if !others.is_empty() {
        line.push_str(&format!(" Also different: {}.", others.join(", ")));
    }
    line.push_str(&shifts_text(p, i, accuracy_moved));
    line
}

/// How the seat's wall time changed from wave `i` to `j`, in words (on different work a
/// change in wall time says nothing about speed), with the Correct counts when they moved.
fn speed(p: &Parts<'_>, i: usize, j: usize, same_work: bool, accuracy_moved: bool) -> String {
    let Parts {
        seat,
        ids,
        figures,
        figs,
        ..
    } = p;
    let correct = format!(
        "Correct {}/{} → {}/{}",
        figures[i].correct, figures[i].denominator, figures[j].correct, figures[j].denominator
    );
    match Fig::known_pair(&figs[i].wall_s, &figs[j].wall_s, ids[i], ids[j]) {
        Ok((x, y)) => {
            let d = y - x;
            // On different work (another suite, seat or number of attempts) a change in
            // wall time says nothing about speed.
            let what = if fixed(d, 1) == "0.0" {
                "took the same wall time"
            } else if same_work {
                if d > 0.0 { "got slower" } else { "got faster" }
            } else if d > 0.0 {
                "took more wall time"
            } else {
                "took less wall time"
            };
            let mut detail = format!("wall {} s", signed(d, 1));
            if let Some(r) = relative(x, y) {
                detail.push_str(&format!(", {r}"));
            }
            if accuracy_moved {
                detail.push_str(&format!("; {correct}"));
            }
            format!("{seat} {what} ({detail})")
        }
        Err((w, why)) => {
            let mut s = format!("{seat}'s change in wall time is unknown ({w}: {why}");
            if accuracy_moved {
                s.push_str(&format!("; {correct}"));
            }
            s.push(')');
            s
        }
    }
}

/// The load the change was under: the same (or not fully recorded), or heavier, lighter or
/// different, naming the conditions that differ (`load`).
fn load_text(p: &Parts<'_>, i: usize, j: usize, load: &[String]) -> String {
    let conds = &p.conds;
    if load.is_empty() {
        let all_known = conds
            .iter()
            .filter(|c| c.kind == Kind::Load && c.key != TIMEOUT_MULTIPLIER)
            .all(|c| c.values[i] != CondValue::Unknown);
        if all_known {
            " under the same recorded load".to_string()
        } else {
            " under load that was not fully recorded".to_string()
        }
    } else {
        let how = match load_direction(conds, i, j) {
            1 => "heavier load",
            -1 => "lighter load",
            _ => "different load",
        };
        format!(" under {how}: {}", load.join(", "))
    }
}

/// How the rest of the wave moved against the seat, and whether the accuracy's change lies
/// beyond what resampling the problems gives (when it moved).
fn shifts_text(p: &Parts<'_>, i: usize, accuracy_moved: bool) -> String {
    let seat = p.seat;
    let shifts = &p.shifts[i];
    let mut line = String::new();
    if let Some(s) = shifts.wall_s
        && let (Some(_), Some(r)) = (s.seat_change, s.relation)
    {
        let moved = if s.median_change >= 0.0 {
            format!("slowed by a median {}%", fixed(s.median_change * 100.0, 1))
        } else {
            format!(
                "sped up by a median {}%",
                fixed(-s.median_change * 100.0, 1)
            )
        };
        line.push_str(&format!(
            " The rest of the wave {moved} ({} seat{} in both waves): {seat} moved {}.",
            s.seats,
            if s.seats == 1 { "" } else { "s" },
            r.words()
        ));
    }
    if accuracy_moved && let Some(a) = shifts.accuracy {
        line.push_str(&format!(
            " Accuracy {} points (95% interval {} to {}): {}.",
            signed(a.difference * 100.0, 1),
            signed(a.ci[0] * 100.0, 1),
            signed(a.ci[1] * 100.0, 1),
            if a.beyond_noise {
                "a change the data can show"
            } else {
                "within what resampling the problems gives"
            }
        ));
    }
    line
}
