//! A wave's leaderboards as the site shows them: one under each registered rubric (the shipped
//! accuracy rubric when none scores the wave), with the intervals, rank ranges and tie-group
//! letters `site` draws unless told `--no-ci`.

use super::{Input, WaveInput};
use crate::report::intervals::FEW_PROBLEMS;
use crate::report::score::{RubricInfo, ScoreJson, ScoredSeatJson};
use crate::report::{Cell, Column, Table};
use crate::rubric::{Rubric, WaveScores, score_wave};
use crate::stats::leaderboard::{WaveIntervals, wave_intervals, wave_intervals_under};
use crate::stats::versus::TieGroups;

/// A wave's leaderboard under one rubric.
pub(super) struct Board<'a> {
    pub(super) info: &'a RubricInfo,
    pub(super) scores: WaveScores,
    pub(super) table: Table,
    pub(super) json: ScoreJson,
}

/// What a leaderboard says of a seat's uncertainty, when it says anything.
///
/// The hook for intervals: the score report does not carry them yet. When a seat of its JSON
/// gains `accuracy_ci` (`[low, high]`, accuracy as a share) or `rank_range` (`[best, worst]`),
/// the site draws the accuracy interval as a whisker on the cost–accuracy chart and adds a
/// "Rank range" column to the leaderboard (unless the leaderboard's table already has one,
/// keyed `rank_range`). They are read from the JSON by name, so nothing here changes when the
/// report learns them.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Uncertainty {
    pub(super) accuracy: Option<(f64, f64)>,
    pub(super) rank_range: Option<(u64, u64)>,
}

pub(super) fn uncertainty(seat: &ScoredSeatJson) -> Uncertainty {
    let Ok(v) = serde_json::to_value(seat) else {
        return Uncertainty::default();
    };
    let pair = |key: &str| -> Option<(f64, f64)> {
        let a = v.get(key)?.as_array()?;
        Some((a.first()?.as_f64()?, a.get(1)?.as_f64()?))
    };
    let ranks = v.get("rank_range").and_then(|r| {
        let a = r.as_array()?;
        Some((a.first()?.as_u64()?, a.get(1)?.as_u64()?))
    });
    Uncertainty {
        accuracy: pair("accuracy_ci").filter(|(lo, hi)| lo.is_finite() && hi.is_finite()),
        rank_range: ranks,
    }
}

/// The leaderboard's table, with a rank range column when its seats carry ranges and there are
/// two seats or more to rank (a lone seat's 1–1 says nothing: issue 31's new-user check).
pub(super) fn with_rank_ranges(board: &Board<'_>) -> Table {
    let mut t = board.table.clone();
    let ranges: Vec<Option<(u64, u64)>> = board
        .json
        .seats
        .iter()
        .map(|s| uncertainty(s).rank_range)
        .collect();
    if ranges.len() > 1
        && ranges.iter().any(Option::is_some)
        && !t.columns.iter().any(|c| c.key.starts_with("rank_range"))
        && ranges.len() == t.rows.len()
    {
        let at = t
            .columns
            .iter()
            .position(|c| c.key == "rank")
            .map_or(t.columns.len(), |i| i + 1);
        t.columns
            .insert(at, Column::text("Rank range", "rank_range"));
        for (row, r) in t.rows.iter_mut().zip(ranges) {
            row.insert(
                at,
                match r {
                    Some((a, b)) if a == b => Cell::text(a.to_string()),
                    Some((a, b)) => Cell::new(format!("{a}–{b}"), format!("{a}-{b}")),
                    None => Cell::none(),
                },
            );
        }
    }
    t
}

/// A board ranked over fewer than [`FEW_PROBLEMS`] problems says its rank ranges are not shown,
/// in words, in their column, and why among its notes (issue 31's new-user check: a one-problem
/// wave's 1–1 … 5–5 read as certain). The site's boards only: `score --ci` prints the ranges
/// with the caution, and a publication's text is frozen.
fn rank_ranges_not_shown(t: &mut Table, problems: u64) {
    let Some(at) = t.columns.iter().position(|c| c.key == "rank_range_lo") else {
        return;
    };
    for row in &mut t.rows {
        if let Some(cell) = row.get_mut(at) {
            *cell = Cell::new(RANKS_NOT_SHOWN, "");
        }
    }
    t.notes.push(crate::report::Note::Text(format!(
        "Rank range {RANKS_NOT_SHOWN}: the ranking rests on {}, fewer than {FEW_PROBLEMS}, too \
         few for a range of ranks to mean what it seems to.",
        super::html::count(problems, "problem"),
    )));
}

/// What a board's rank range column says where its ranges are not shown.
pub(super) const RANKS_NOT_SHOWN: &str = "not shown";

/// Leaves out of `t` each column whose key `drop` holds, and its cells.
fn drop_columns(t: &mut Table, drop: impl Fn(&str) -> bool) {
    let keep: Vec<bool> = t.columns.iter().map(|c| !drop(&c.key)).collect();
    let mut k = keep.iter();
    t.columns.retain(|_| *k.next().unwrap_or(&true));
    for row in &mut t.rows {
        let mut k = keep.iter();
        row.retain(|_| *k.next().unwrap_or(&true));
    }
}

/// A rubric's declared scale in a few words, as a board's score column names it: "scale 0–1",
/// "scale 0–100", "scale from 0", "open scale". Scores of rubrics on different scales meet on
/// one page (the front page's contents, the boards one under another), so none is shown
/// without its own (a new user found 0.600 beside 100.00 in one column).
pub(super) fn scale_words(r: &Rubric) -> String {
    match (r.scale.min, r.scale.max) {
        (None, None) => "open scale".into(),
        _ => format!("scale {}", r.scale.range_words()),
    }
}

/// A score as the front page's contents print it, on its rubric's scale: "0.820 of 1",
/// "82.00 of 100" on a scale from 0, else "1.584 on a scale from 0"; a relative score says so
/// ("…, relative: this wave only").
/// An unknown score ("—") is left as it is.
pub(super) fn on_scale(score: &str, r: &Rubric) -> String {
    if score == Cell::none().human || score.is_empty() {
        return score.to_string();
    }
    let shown = match (r.scale.min, r.scale.max) {
        (Some(0.0), Some(hi)) => format!("{score} of {}", crate::number::pretty(hi)),
        _ => format!("{score} on {}", r.scale.noun("a")),
    };
    if r.relative {
        format!("{shown}, relative: this wave only")
    } else {
        shown
    }
}

/// A caution for a board whose seats attempted different numbers of problems in a wave that
/// declares no suite size: each seat's rate is then over the problems it attempted, so a seat
/// that ran 10 of the 100 problems the others ran can rank first on them (a new user's check:
/// 8 of 10 above 63 of 100, where the wave's problem matrix counts the 90 as missing). Said on
/// the site's boards only: the terminal's leaderboard is what publications freeze, and a new
/// note there would change their published text.
pub(super) fn uneven_problems(data: &crate::model::WaveData) -> Option<String> {
    if data.wave.suite_problems.is_some() {
        return None;
    }
    let mut counts: Vec<(usize, &str)> = data
        .seats
        .iter()
        .map(|s| {
            let problems: std::collections::BTreeSet<&str> =
                s.attempts.iter().map(|a| a.problem.as_str()).collect();
            (problems.len(), s.seat.id.as_str())
        })
        .collect();
    let most = counts.iter().map(|(n, _)| *n).max()?;
    counts.retain(|(n, _)| *n < most);
    if counts.is_empty() {
        return None;
    }
    let fewer: Vec<String> = counts
        .iter()
        .take(5)
        .map(|(n, seat)| format!("{seat} {n}"))
        .collect();
    Some(format!(
        "Seats attempted different numbers of problems (most: {most}; fewer: {}{}), and the \
         wave declares no suite size, so each seat's rates are over the problems it attempted \
         and are not comparable across seats: declare suite_problems in the wave's manifest to \
         count a problem a seat did not attempt as not Correct.",
        fewer.join(", "),
        if counts.len() > 5 {
            format!(" and {} more", counts.len() - 5)
        } else {
            String::new()
        }
    ))
}

/// A wave's leaderboards: one under each registered rubric, and one under the shipped accuracy
/// rubric when none of them scores the wave (a wave imported without a budget, say) or the
/// site ranks on it (`--rubric accuracy@1`), and accuracy is not registered itself.
pub(super) fn boards<'a>(
    input: &'a Input,
    w: &WaveInput,
    accuracy: &'a RubricInfo,
) -> Vec<Board<'a>> {
    // The tie-group letters travel with the intervals; they are the wave's, whatever rubric.
    let groups = input
        .intervals
        .as_ref()
        .map(|_| TieGroups::of(&w.data, crate::report::groups::ALPHA));
    // Every registered rubric's intervals drawn together: the same resamples, each seat's
    // per-problem sums taken once for them all (`wave_intervals_under`). A wave whose suite is
    // too large to resample has none (`benchledger site` refuses it before rendering when
    // intervals are asked for, and shows it without them when they are drawn by default: see
    // `stats::check_suite_size`).
    let drawn: Vec<Option<WaveIntervals>> = match &input.intervals {
        Some(settings) => {
            let rubrics: Vec<&Rubric> = input.rubrics.iter().map(|r| &r.rubric).collect();
            match wave_intervals_under(&w.data, &rubrics, settings) {
                Ok(each) => each.into_iter().map(Some).collect(),
                Err(_) => input.rubrics.iter().map(|_| None).collect(),
            }
        }
        None => input.rubrics.iter().map(|_| None).collect(),
    };
    let board = |info: &'a RubricInfo, intervals: Option<WaveIntervals>| {
        let scores = score_wave(&info.rubric, &w.data);
        let (mut table, mut json) =
            crate::report::score::leaderboard_with(&w.data, info, &scores, intervals.as_ref());
        // A board of one seat gets no tie group and no rank range (its lone "a" and 1–1 said
        // nothing: issue 31's new-user check).
        if let (Some(_), Some(g), true) = (&intervals, &groups, json.seats.len() > 1) {
            crate::report::score::add_groups(&mut table, &mut json, g);
        }
        if json.seats.len() < 2 {
            drop_columns(&mut table, |key| key.starts_with("rank_range"));
        } else if let Some(w) = intervals.as_ref().filter(|w| w.problems < FEW_PROBLEMS) {
            rank_ranges_not_shown(&mut table, w.problems);
        }
        // Intervals over few problems carry the caution the terminal prints with them (the
        // new-user check of issue 31: a one-problem wave's 100.0–100.0% and tie groups read as
        // certain on the site).
        let _ = crate::report::intervals::caution(&mut table, &(), intervals.as_ref());
        if let Some(note) = uneven_problems(&w.data) {
            table.notes.push(crate::report::Note::Text(note));
        }
        if let Some(c) = table.columns.iter_mut().find(|c| c.key == "score") {
            c.header = format!("{} · {}", c.header, scale_words(&info.rubric));
        }
        Board {
            info,
            scores,
            table,
            json,
        }
    };
    let mut boards: Vec<Board<'a>> = input
        .rubrics
        .iter()
        .zip(drawn)
        .map(|(info, i)| board(info, i))
        .collect();
    let accuracy_registered = input
        .rubrics
        .iter()
        .any(|r| r.rubric.id() == accuracy.rubric.id());
    // Also where the front page is to rank every suite on it (`site --rubric accuracy@1`,
    // which takes it unregistered, as `score` does).
    let named = input.front_rubric.as_deref() == Some(accuracy.rubric.id().as_str());
    if !accuracy_registered && (named || !boards.iter().any(Board::scores_any)) {
        let intervals = input
            .intervals
            .as_ref()
            .and_then(|settings| wave_intervals(&w.data, Some(&accuracy.rubric), settings).ok());
        boards.push(board(accuracy, intervals));
    }
    boards
}

/// Every wave's leaderboards ([`boards`]), in the waves' order. Drawing intervals is most of a
/// site's work and each wave's are its own (seeded, over its own problems), so the waves are
/// shared among the machine's cores: the same boards, sooner.
pub(super) fn every_wave<'a>(input: &'a Input, accuracy: &'a RubricInfo) -> Vec<Vec<Board<'a>>> {
    let one = |w: &'a WaveInput| boards(input, w, accuracy);
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let threads = cores.min(input.waves.len());
    if input.intervals.is_none() || threads < 2 {
        return input.waves.iter().map(one).collect();
    }
    let chunk = input.waves.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = input
            .waves
            .chunks(chunk)
            .map(|waves| scope.spawn(move || waves.iter().map(one).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

impl Board<'_> {
    /// Whether the rubric gives at least one seat of the wave a score.
    pub(super) fn scores_any(&self) -> bool {
        self.scores.seats.iter().any(|s| s.score.is_some())
    }
}
