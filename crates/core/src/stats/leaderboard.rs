//! Intervals for a whole leaderboard: every seat of a wave resampled on the same problems, so
//! that each seat's accuracy, Cost-of-Pass and score come with an interval and its rank with a
//! rank range, and the order the leaderboard prints can be checked against what the data
//! supports.
//!
//! **The units** are the wave's problems: every problem a seat attempted, every declared
//! problem (a problem no seat attempted is a problem every seat failed: missing), and, where
//! the wave declares only its suite's size, as many unnamed problems as the size leaves over.
//! With a declared size smaller than the problems the seats attempted between them (seats that
//! attempted different problems), each drawn problem a seat did not attempt counts as missing
//! for it, so the resampled denominators are those of all the problems attempted.
//!
//! **A resample** draws as many units as there are, with replacement, from the seeded generator
//! of [`super::bootstrap`] (ChaCha20, the same draws [`super::bootstrap::interval`] makes). Every
//! seat is resampled on the same drawn problems, keeping all its trials of each; a problem drawn
//! twice counts as two problems. Each seat's attempts are fed to a running tally in problem
//! order (drawn problems by their place in the wave, each draw in turn, trials in order), so a
//! resample's sums run in one fixed order and reproduce to the bit.
//!
//! **On each resample** each seat's figures are recomputed (accuracy, pooled Cost-of-Pass) and,
//! under a rubric, the whole resampled wave is scored by the interpreter
//! ([`crate::rubric::Scorer`]) and ranked by it: a relative rubric's medians are those of the
//! resampled wave. A figure undefined on a resample (a Cost-of-Pass with nothing Correct, a
//! score a gate cannot decide) is left out of that seat's values, and the interval says on how
//! many resamples it rests.
//!
//! **Per seat**: the percentile interval of each figure (the (1 − level)/2 and (1 + level)/2
//! quantiles by nearest rank), and its **rank range**: the same quantiles of its rank over the
//! resamples where it was ranked. Memory is a few values per seat and resample; time is linear
//! in resamples × attempts.

use std::collections::{BTreeMap, BTreeSet};

use super::bootstrap::{
    Interval, Method, Settings, each_resample, each_resample_counts, percentile,
};
use super::sums::ProblemSums;
use crate::error::Result;
use crate::figures::{Basis, FigureTally};
use crate::model::{Attempt, AttemptFields, SuiteProblems, Wave, WaveData};
use crate::rubric::{Rubric, Scorer};

/// The range of a seat's rank over the resamples.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RankRange {
    /// The best rank in the range (the lower quantile).
    pub lo: u32,
    /// The worst rank in the range (the upper quantile).
    pub hi: u32,
    /// Resamples on which the seat was ranked: the range is over these.
    pub defined: u32,
}

impl RankRange {
    /// Whether two ranges share a rank.
    pub fn overlaps(&self, other: &RankRange) -> bool {
        self.lo <= other.hi && other.lo <= self.hi
    }
}

/// One seat's intervals.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SeatIntervals {
    pub accuracy: Option<Interval>,
    /// Pooled Cost-of-Pass: total USD / number Correct.
    pub cost_of_pass: Option<Interval>,
    /// The rubric's score (with a rubric only).
    pub score: Option<Interval>,
    /// With a rubric only.
    pub rank: Option<RankRange>,
}

/// Every seat's intervals, and how they were drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct WaveIntervals {
    pub settings: Settings,
    /// The problems each resample draws.
    pub problems: u64,
    /// By seat id.
    pub seats: BTreeMap<String, SeatIntervals>,
}

impl WaveIntervals {
    /// A seat's intervals (none for a seat the wave does not hold).
    pub fn seat(&self, id: &str) -> SeatIntervals {
        self.seats.get(id).copied().unwrap_or_default()
    }
}

/// The wave's problems, and for each seat where its attempts on each lie.
struct Units<'a> {
    /// Units in all: the named problems, then the unnamed ones.
    len: usize,
    /// Per seat: its attempts in (problem, trial) order.
    attempts: Vec<Vec<&'a Attempt>>,
    /// Per seat, per named problem: the range of its attempts on it (empty when it has none).
    spans: Vec<Vec<(u32, u32)>>,
}

impl<'a> Units<'a> {
    fn of(data: &'a WaveData) -> Units<'a> {
        let mut named: BTreeSet<&str> = BTreeSet::new();
        if let Some(SuiteProblems::Ids(ids)) = &data.wave.suite_problems {
            named.extend(ids.iter().map(String::as_str));
        }
        for s in &data.seats {
            named.extend(s.attempts.iter().map(|a| a.problem.as_str()));
        }
        let named: Vec<&str> = named.into_iter().collect();
        let unnamed = match &data.wave.suite_problems {
            Some(SuiteProblems::Count(n)) => usize::try_from(*n)
                .unwrap_or(usize::MAX)
                .saturating_sub(named.len()),
            _ => 0,
        };
        let mut attempts = Vec::with_capacity(data.seats.len());
        let mut spans = Vec::with_capacity(data.seats.len());
        for s in &data.seats {
            let mut order: Vec<&Attempt> = s.attempts.iter().collect();
            let in_order =
                |a: &&Attempt, b: &&Attempt| (&a.problem, a.trial) <= (&b.problem, b.trial);
            if !order.is_sorted_by(in_order) {
                order.sort_by(|a, b| (&a.problem, a.trial).cmp(&(&b.problem, b.trial)));
            }
            let mut span = vec![(0u32, 0u32); named.len()];
            let mut i = 0;
            while i < order.len() {
                let p = order[i].problem.as_str();
                let mut j = i;
                while j < order.len() && order[j].problem == p {
                    j += 1;
                }
                // Every attempted problem is named.
                if let Ok(u) = named.binary_search(&p) {
                    span[u] = (i as u32, j as u32);
                }
                i = j;
            }
            attempts.push(order);
            spans.push(span);
        }
        Units {
            len: named.len().saturating_add(unnamed),
            attempts,
            spans,
        }
    }

    /// Seat `s`'s attempts on unit `u`, in trial order (none on an unnamed unit).
    fn on(&self, s: usize, u: usize) -> &[&'a Attempt] {
        match self.spans[s].get(u) {
            Some(&(lo, hi)) => &self.attempts[s][lo as usize..hi as usize],
            None => &[],
        }
    }

    /// Feeds seat `s`'s attempts on a resample (`counts[u]`: how often unit u was drawn) to
    /// `add`, each with whether it opens a drawn problem.
    fn feed(&self, s: usize, counts: &[u32], mut add: impl FnMut(&Attempt, bool)) {
        let attempts = &self.attempts[s];
        for (&(lo, hi), &n) in self.spans[s].iter().zip(counts) {
            if lo == hi {
                continue;
            }
            for _ in 0..n {
                for (k, a) in attempts[lo as usize..hi as usize].iter().enumerate() {
                    add(a, k == 0);
                }
            }
        }
    }
}

/// Each seat's resampled values, one per resample where each is defined.
struct Drawn {
    accuracy: Vec<Vec<f64>>,
    cost_of_pass: Vec<Vec<f64>>,
    score: Vec<Vec<f64>>,
    rank: Vec<Vec<f64>>,
}

impl Drawn {
    fn new(seats: usize, resamples: usize) -> Drawn {
        let each = || vec![Vec::with_capacity(resamples); seats];
        Drawn {
            accuracy: each(),
            cost_of_pass: each(),
            score: each(),
            rank: each(),
        }
    }

    fn figures(&mut self, s: usize, f: crate::figures::SeatFigures) {
        self.accuracy[s].extend(f.accuracy);
        self.cost_of_pass[s].extend(f.cost_of_pass_usd);
    }

    /// A resampled wave's scores and ranks, in seat order.
    fn scores(&mut self, scores: Vec<(Option<f64>, Option<u32>)>) {
        for (s, (score, rank)) in scores.into_iter().enumerate() {
            self.score[s].extend(score);
            self.rank[s].extend(rank.map(f64::from));
        }
    }
}

/// Each seat's intervals over resamples of the wave's problems (see the module's
/// documentation): accuracy and Cost-of-Pass always, the score and the rank range under a
/// rubric. A wave whose declared suite is too large to resample is refused (see
/// [`super::check_suite_size`]).
pub(crate) fn wave_intervals(
    data: &WaveData,
    rubric: Option<&Rubric>,
    settings: &Settings,
) -> Result<WaveIntervals> {
    let mut one = intervals_under(data, &[rubric], settings, false)?;
    Ok(one.pop().expect("the intervals of one rubric"))
}

/// [`wave_intervals`] as a publication's text has always drawn them: with an interval around
/// a Cost-of-Pass the wave leaves unknown, when some resamples define one. A published text
/// is rendered again byte for byte by `verify`, so it keeps the rule it was published under.
pub(crate) fn published_intervals(
    data: &WaveData,
    rubric: Option<&Rubric>,
    settings: &Settings,
) -> Result<WaveIntervals> {
    let mut one = intervals_under(data, &[rubric], settings, true)?;
    Ok(one.pop().expect("the intervals of one rubric"))
}

/// The wave's intervals under each of `rubrics` in turn: what [`wave_intervals`] gives under
/// each, to the bit, for less than the work of drawing them one by one. Every rubric's
/// resamples draw the same problems (one seed, one wave), and their figures' columns are
/// mostly the same: each seat's per-problem sums are taken once over the columns of every
/// rubric (a column that two rubrics share summed once), and each resample's sums then read
/// by each rubric, which keeps its own reasons for a seat's undefined score.
pub(crate) fn wave_intervals_under(
    data: &WaveData,
    rubrics: &[&Rubric],
    settings: &Settings,
) -> Result<Vec<WaveIntervals>> {
    let rubrics: Vec<Option<&Rubric>> = rubrics.iter().map(|&r| Some(r)).collect();
    intervals_under(data, &rubrics, settings, false)
}

/// [`wave_intervals`] under each of `rubrics` (`None`: the figures alone); `as_published`:
/// as [`published_intervals`] draws them.
fn intervals_under(
    data: &WaveData,
    rubrics: &[Option<&Rubric>],
    settings: &Settings,
    as_published: bool,
) -> Result<Vec<WaveIntervals>> {
    super::check_suite_size(&data.wave)?;
    let units = Units::of(data);
    // A resample is a wave of as many problems as were drawn: the declared suite (when there
    // is one) is their number, and the problems a seat did not attempt are its missing ones.
    let resampled = Wave {
        suite_problems: data
            .wave
            .suite_problems
            .as_ref()
            .map(|_| SuiteProblems::Count(units.len as u64)),
        ..data.wave.clone()
    };
    let mut drawn: Vec<Drawn> = rubrics
        .iter()
        .map(|_| Drawn::new(data.seats.len(), settings.resamples as usize))
        .collect();
    draw(data, &units, rubrics, &resampled, settings, &mut drawn);
    Ok(rubrics
        .iter()
        .zip(&mut drawn)
        .map(|(&r, d)| finish(data, units.len, r, d, settings, as_published))
        .collect())
}

/// Draws every rubric's resamples onto its `drawn`: the rubrics drawn from per-problem sums
/// together when they can be, the rest from their attempts.
fn draw(
    data: &WaveData,
    units: &Units<'_>,
    rubrics: &[Option<&Rubric>],
    resampled: &Wave,
    settings: &Settings,
    drawn: &mut [Drawn],
) {
    // The rubrics drawn from per-problem sums: together when they can be, else each alone (a
    // rubric whose sums could be inexact is drawn from its attempts, the others still from
    // their sums, as each would be on its own).
    let summed: Vec<usize> = (0..rubrics.len())
        .filter(|&k| {
            settings.method == Method::ProblemSums
                && !rubrics[k].is_some_and(|r| Scorer::new(r, resampled).needs_medians_first())
        })
        .collect();
    let mut fed: Vec<usize> = (0..rubrics.len()).filter(|k| !summed.contains(k)).collect();
    if !summed.is_empty() && !by_sums(data, units, rubrics, &summed, resampled, settings, drawn) {
        for &k in &summed {
            if summed.len() == 1 || !by_sums(data, units, rubrics, &[k], resampled, settings, drawn)
            {
                fed.push(k);
            }
        }
    }
    for k in fed {
        by_attempts(data, units, rubrics[k], resampled, settings, &mut drawn[k]);
    }
}

/// One rubric's intervals from its resamples, `drawn`: each seat's percentile intervals over
/// the `problems` drawn; `as_published`: as [`published_intervals`] draws them.
fn finish(
    data: &WaveData,
    problems: usize,
    rubric: Option<&Rubric>,
    drawn: &mut Drawn,
    settings: &Settings,
    as_published: bool,
) -> WaveIntervals {
    let level = settings.level;
    let seats = data
        .seats
        .iter()
        .enumerate()
        .map(|(s, seat)| {
            let ranks = percentile(&mut drawn.rank[s], level).map(|i| RankRange {
                lo: i.lo as u32,
                hi: i.hi as u32,
                defined: i.defined,
            });
            (
                seat.seat.id.clone(),
                SeatIntervals {
                    accuracy: percentile(&mut drawn.accuracy[s], level),
                    // No interval around a Cost-of-Pass the wave itself leaves unknown
                    // (a cost some attempt lacks), though the resamples that miss that
                    // attempt would draw one; a publication's text keeps what it was
                    // published with.
                    cost_of_pass: (as_published
                        || crate::figures::SeatFigures::of(&data.wave, seat)
                            .cost_of_pass_usd
                            .is_some())
                    .then(|| percentile(&mut drawn.cost_of_pass[s], level))
                    .flatten(),
                    score: rubric.and_then(|_| percentile(&mut drawn.score[s], level)),
                    rank: ranks,
                },
            )
        })
        .collect();
    WaveIntervals {
        settings: *settings,
        problems: problems as u64,
        seats,
    }
}

fn seat_ids(data: &WaveData) -> Vec<&str> {
    data.seats.iter().map(|s| s.seat.id.as_str()).collect()
}

/// [`Method::Attempts`]: every drawn attempt fed to its seat's tally in turn.
fn by_attempts(
    data: &WaveData,
    units: &Units<'_>,
    rubric: Option<&Rubric>,
    resampled: &Wave,
    settings: &Settings,
    drawn: &mut Drawn,
) {
    let n = data.seats.len();
    let ids = seat_ids(data);
    let mut counts = vec![0u32; units.len];
    each_resample(units.len, settings, |picked| {
        counts.fill(0);
        for &u in picked {
            counts[u] += 1;
        }
        match rubric {
            None => {
                let basis = Basis::of(resampled);
                for s in 0..n {
                    let mut t = FigureTally::new();
                    units.feed(s, &counts, |a, first| t.add_drawn(&basis, a, first));
                    drawn.figures(s, t.figures(&basis));
                }
            }
            Some(rubric) => {
                let mut scorer = Scorer::new(rubric, resampled);
                let tally = |scorer: &Scorer<'_>, s: usize| {
                    let mut t = scorer.tally();
                    units.feed(s, &counts, |a, first| scorer.add_drawn(&mut t, a, first));
                    t
                };
                if scorer.needs_medians_first() {
                    let first: Vec<_> = (0..n).map(|s| tally(&scorer, s)).collect();
                    scorer.set_medians(&first);
                }
                let mut seats = Vec::with_capacity(n);
                for s in 0..n {
                    let t = tally(&scorer, s);
                    drawn.figures(s, scorer.figures(&t));
                    seats.push(t);
                }
                drawn.scores(scorer.score_ranks(&ids, seats));
            }
        }
    });
}

/// One rubric's share of per-problem sums laid side by side ([`by_sums`]): its scorer (none:
/// the figures alone), the fields it reads, and where its columns lie.
struct Group<'a> {
    /// The rubric's place in the list drawn for.
    k: usize,
    scorer: Option<Scorer<'a>>,
    fields: AttemptFields,
    /// Its columns: `at..at + width` of every seat's row.
    at: usize,
    width: usize,
}

impl Group<'_> {
    /// A seat's totals on one problem (its attempts there), appended to `out` as columns; why
    /// they are undefined, if they are.
    fn columns(
        &self,
        basis: &Basis<'_>,
        attempts: &[&Attempt],
        out: &mut Vec<f64>,
    ) -> Option<String> {
        let first = |k: usize| k == 0;
        match &self.scorer {
            Some(scorer) => {
                let mut t = scorer.tally();
                for (k, a) in attempts.iter().enumerate() {
                    scorer.add_drawn(&mut t, &self.fields.read(a), first(k));
                }
                scorer.columns(&t, out);
                scorer.undefined(&t).map(str::to_string)
            }
            None => {
                let mut t = FigureTally::new();
                for (k, a) in attempts.iter().enumerate() {
                    t.add_drawn(basis, &self.fields.read(a), first(k));
                }
                t.columns(out);
                None
            }
        }
    }
}

/// [`Method::ProblemSums`], for the rubrics `which` of `rubrics` at once: each seat's totals
/// per problem taken once (over the fields each rubric and the figures read, each rubric's
/// columns beside the others', a column equal to another everywhere summed once), a
/// resample's totals their weighted sum (see [`super::sums`]), read by each rubric from its
/// own columns. Each column's sum is the one a rubric drawn alone sums, to the bit. False,
/// with nothing drawn, when a resample's integer sums could be inexact as `f64`: the caller
/// then draws them otherwise.
fn by_sums(
    data: &WaveData,
    units: &Units<'_>,
    rubrics: &[Option<&Rubric>],
    which: &[usize],
    resampled: &Wave,
    settings: &Settings,
    drawn: &mut [Drawn],
) -> bool {
    let n = data.seats.len();
    let ids = seat_ids(data);
    let basis = Basis::of(resampled);
    let mut integer = Vec::new();
    let groups: Vec<Group<'_>> = which
        .iter()
        .map(|&k| {
            let scorer = rubrics[k].map(|r| Scorer::new(r, resampled));
            let mut fields = scorer.as_ref().map_or(AttemptFields::NONE, Scorer::fields);
            fields.cost_usd = true;
            let at = integer.len();
            match &scorer {
                Some(scorer) => integer.extend(scorer.integer_columns()),
                None => {
                    let mut int = vec![true; FigureTally::COLUMNS];
                    for c in FigureTally::FLOAT_COLUMNS {
                        int[c] = false;
                    }
                    integer.extend(int);
                }
            }
            Group {
                k,
                scorer,
                fields,
                at,
                width: integer.len() - at,
            }
        })
        .collect();
    let sums = ProblemSums::new(n, units.len, &integer, |s, u, out, undefined| {
        let attempts = units.on(s, u);
        if attempts.is_empty() {
            return;
        }
        for (g, group) in groups.iter().enumerate() {
            if let Some(why) = group.columns(&basis, attempts, out) {
                undefined.push((g, why));
            }
        }
    });
    let Some(sums) = sums else {
        return false;
    };
    let (mut acc, mut columns) = (Vec::new(), Vec::new());
    let mut tallies: Vec<Vec<_>> = groups.iter().map(|_| Vec::with_capacity(n)).collect();
    let stride = sums.stride();
    // Resamples summed eight at a time: each row of per-problem sums read once for the eight.
    each_resample_counts(units.len, settings, 8, |batch| {
        sums.sum_resamples(batch, &mut acc);
        for (r, counts) in batch.chunks_exact(units.len).enumerate() {
            let acc = &acc[r * stride..(r + 1) * stride];
            sums.each_seat(counts, acc, &mut columns, |s, c, undefined| {
                for ((g, group), tallies) in groups.iter().enumerate().zip(&mut tallies) {
                    let c = &c[group.at..group.at + group.width];
                    let drawn = &mut drawn[group.k];
                    match &group.scorer {
                        None => drawn.figures(s, FigureTally::from_columns(c).figures(&basis)),
                        Some(scorer) => {
                            let t = scorer.tally_from_columns(c, undefined.of(g));
                            drawn.figures(s, scorer.figures(&t));
                            tallies.push(t);
                        }
                    }
                }
            });
            for (group, tallies) in groups.iter().zip(&mut tallies) {
                if let Some(scorer) = &group.scorer {
                    drawn[group.k].scores(scorer.score_ranks(&ids, tallies.drain(..)));
                }
            }
        }
    });
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::testing;
    use crate::model::{Budget, SeatData};
    use crate::stats::bootstrap::{Draws, interval};

    fn attempt(problem: &str, trial: u32, correct: bool) -> Attempt {
        Attempt {
            input_tokens: Some(1000),
            output_tokens: Some(100),
            wall_s: Some(10.0),
            cost_usd: Some(0.5),
            steps: Some(3),
            errors: Some(0),
            ..testing::attempt(problem, trial, correct)
        }
    }

    fn seat(id: &str, attempts: Vec<Attempt>) -> SeatData {
        testing::seat(id, attempts)
    }

    fn wave(suite: Option<SuiteProblems>, seats: Vec<SeatData>) -> WaveData {
        let wave = Wave {
            budget: Budget {
                tokens: Some(2000.0),
                wall_s: Some(20.0),
                cost_usd: None,
            },
            ..testing::wave_of(suite)
        };
        testing::wave_data(wave, seats)
    }

    fn rubric(text: &str) -> Rubric {
        crate::rubric::parse(std::path::Path::new("r.toml"), text).unwrap()
    }

    const ACCURACY: &str = "name = \"acc\"\nversion = 1\nscale = { min = 0, max = 100 }\n\
                            multiplier = 100\n[[factor]]\nname = \"accuracy\"\n\
                            measure = \"accuracy\"\n";

    /// Over 1,000 simulated waves of 40 problems with two trials each, every trial passed with
    /// probability 0.6 (drawn from the seeded generator), the 95 % interval this path draws for
    /// the accuracy covers 0.6 at least 93 % of the time.
    #[test]
    fn the_95_percent_accuracy_interval_covers_the_true_rate() {
        let mut world = Draws::new(2027);
        let mut covered = 0;
        for w in 0..1000u64 {
            let attempts = (0..40)
                .flat_map(|p| (1..=2).map(move |t| (p, t)))
                .map(|(p, t)| attempt(&format!("p{p:02}"), t, world.below(10) < 6))
                .collect();
            let data = wave(None, vec![seat("a", attempts)]);
            let settings = Settings {
                resamples: 200,
                seed: w,
                ..Settings::default()
            };
            let ci = wave_intervals(&data, None, &settings)
                .unwrap()
                .seat("a")
                .accuracy
                .unwrap();
            covered += u32::from(ci.lo <= 0.6 && 0.6 <= ci.hi);
        }
        assert!(covered >= 930, "covered {covered} of 1000");
    }

    #[test]
    fn a_single_trial_accuracy_is_the_bootstrap_of_its_problems() {
        // The same draws as `bootstrap::interval` over the problems' verdicts: a seat's
        // interval is the one the plain bootstrap gives, to the bit.
        let verdicts: Vec<bool> = (0..30).map(|i| i % 3 != 0).collect();
        let attempts = verdicts
            .iter()
            .enumerate()
            .map(|(i, &c)| attempt(&format!("p{i:02}"), 1, c))
            .collect();
        let data = wave(Some(SuiteProblems::Count(30)), vec![seat("a", attempts)]);
        let s = Settings::default();
        let joint = wave_intervals(&data, None, &s).unwrap().seat("a").accuracy;
        let plain = interval(verdicts.len(), &s, |idx| {
            Some(idx.iter().filter(|&&i| verdicts[i]).count() as f64 / idx.len() as f64)
        });
        assert_eq!(joint, plain);
        assert_eq!(joint.unwrap().defined, 2000);
    }

    #[test]
    fn missing_problems_are_resampled_as_failures() {
        // 10 declared problems; the seat attempted 5, all Correct: 50 %, and no resample can
        // give more than the share of attempted problems drawn.
        let ids: Vec<String> = (0..10).map(|i| format!("p{i}")).collect();
        let attempts = (0..5).map(|i| attempt(&format!("p{i}"), 1, true)).collect();
        let data = wave(Some(SuiteProblems::Ids(ids)), vec![seat("a", attempts)]);
        let ci = wave_intervals(&data, None, &Settings::default())
            .unwrap()
            .seat("a")
            .accuracy
            .unwrap();
        assert!(ci.lo < 0.5 && ci.hi > 0.5 && ci.hi < 1.0, "{ci:?}");
        // Undeclared, the five attempted are all there is: every resample is 100 %.
        let attempts = (0..5).map(|i| attempt(&format!("p{i}"), 1, true)).collect();
        let data = wave(None, vec![seat("a", attempts)]);
        let ci = wave_intervals(&data, None, &Settings::default())
            .unwrap()
            .seat("a")
            .accuracy
            .unwrap();
        assert_eq!((ci.lo, ci.hi), (1.0, 1.0));
    }

    /// A Cost-of-Pass the wave leaves unknown (one attempt of 10 has no cost: the listing
    /// prints "—") gets no interval, though the resamples that miss that attempt define one;
    /// a publication's text keeps drawing it, as it was published.
    #[test]
    fn no_interval_around_an_unknown_cost_of_pass() {
        let mut attempts: Vec<Attempt> = (0..10)
            .map(|i| attempt(&format!("p{i}"), 1, i % 2 == 0))
            .collect();
        attempts[3].cost_usd = None;
        let data = wave(None, vec![seat("a", attempts)]);
        assert_eq!(
            crate::figures::SeatFigures::of(&data.wave, &data.seats[0]).cost_of_pass_usd,
            None
        );
        let settings = Settings::default();
        let w = wave_intervals(&data, None, &settings).unwrap();
        assert_eq!(w.seat("a").cost_of_pass, None);
        assert!(w.seat("a").accuracy.is_some());
        let published = published_intervals(&data, None, &settings).unwrap();
        let drawn = published.seat("a").cost_of_pass.unwrap();
        // Defined only on the resamples that never draw p3: about (1 - 1/10)^10 of them.
        assert!(drawn.defined > 0 && drawn.defined < 2000, "{drawn:?}");
        // Every cost known: an interval, and the same both ways.
        let known = wave(
            None,
            vec![seat(
                "a",
                (0..10)
                    .map(|i| attempt(&format!("p{i}"), 1, i % 2 == 0))
                    .collect(),
            )],
        );
        assert_eq!(
            wave_intervals(&known, None, &settings).unwrap().seat("a"),
            published_intervals(&known, None, &settings)
                .unwrap()
                .seat("a")
        );
        assert!(
            wave_intervals(&known, None, &settings)
                .unwrap()
                .seat("a")
                .cost_of_pass
                .is_some()
        );
    }

    #[test]
    fn rank_ranges_separate_a_clear_leader_and_overlap_a_close_one() {
        // Over 40 problems: `top` solves 38, `close` 37, `far` 10.
        let solve = |n: usize| -> Vec<Attempt> {
            (0..40)
                .map(|i| attempt(&format!("p{i:02}"), 1, i < n))
                .collect()
        };
        let data = wave(
            Some(SuiteProblems::Count(40)),
            vec![
                seat("close", solve(37)),
                seat("far", solve(10)),
                seat("top", solve(38)),
            ],
        );
        let w = wave_intervals(&data, Some(&rubric(ACCURACY)), &Settings::default()).unwrap();
        let (top, close, far) = (
            w.seat("top").rank.unwrap(),
            w.seat("close").rank.unwrap(),
            w.seat("far").rank.unwrap(),
        );
        assert_eq!((far.lo, far.hi), (3, 3));
        assert!(top.overlaps(&close), "{top:?} {close:?}");
        assert!(!top.overlaps(&far));
        assert_eq!(top.defined, 2000);
        let score = w.seat("top").score.unwrap();
        assert!(score.lo <= 95.0 && 95.0 <= score.hi, "{score:?}");
        // Cost-of-Pass: 40 × $0.50 over the Correct ones.
        let cop = w.seat("far").cost_of_pass.unwrap();
        assert!(cop.lo < 2.0 && 2.0 < cop.hi, "{cop:?}");
    }

    #[test]
    fn the_same_seed_draws_the_same_intervals_and_another_seed_others() {
        let mut world = Draws::new(5);
        let mut seats = Vec::new();
        for id in ["a", "b", "c"] {
            let attempts = (0..25)
                .flat_map(|p| (1..=3).map(move |t| (p, t)))
                .map(|(p, t)| {
                    let mut a = attempt(&format!("p{p:02}"), t, world.below(2) == 0);
                    a.wall_s = Some(world.below(1000) as f64 / 7.0);
                    a
                })
                .collect();
            seats.push(seat(id, attempts));
        }
        let data = wave(None, seats);
        let cohort = rubric(
            "name = \"c\"\nversion = 1\nrelative = true\nscale = { min = 0 }\n[[factor]]\n\
             name = \"accuracy\"\nmeasure = \"accuracy\"\n[[factor]]\nname = \"wall\"\n\
             measure = \"wall_s\"\nrelative_to = \"median\"\nrole = \"divide\"\n",
        );
        let s = Settings::default();
        let one = wave_intervals(&data, Some(&cohort), &s).unwrap();
        assert_eq!(one, wave_intervals(&data, Some(&cohort), &s).unwrap());
        let other = wave_intervals(&data, Some(&cohort), &Settings { seed: 1, ..s }).unwrap();
        assert_ne!(one.seats, other.seats);
        assert!(one.seat("a").score.is_some());
    }

    /// Close enough for sums of the same reals added in another order.
    fn near(a: Option<Interval>, b: Option<Interval>) -> bool {
        let close = |x: f64, y: f64| (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0);
        match (a, b) {
            (Some(a), Some(b)) => close(a.lo, b.lo) && close(a.hi, b.hi) && a.defined == b.defined,
            (a, b) => a == b,
        }
    }

    /// Per-problem sums draw what feeding every drawn attempt draws, under every shipped
    /// rubric (per seat, per attempt, relative, with free retries) and without one: counts,
    /// accuracies and rank ranges to the bit, sums of reals to 1e-9.
    #[test]
    fn per_problem_sums_draw_what_attempts_draw() {
        let mut world = Draws::new(11);
        let mut seats = Vec::new();
        for id in ["a", "b", "c", "d"] {
            let cells: Vec<(u32, u32)> =
                (0..30).flat_map(|p| (1..=3).map(move |t| (p, t))).collect();
            let attempts = cells
                .into_iter()
                .filter(|_| world.below(9) != 0)
                .collect::<Vec<_>>()
                .into_iter()
                .map(|(p, t)| {
                    let mut a = attempt(&format!("p{p:02}"), t, world.below(3) != 0);
                    a.wall_s = Some(world.below(1000) as f64 / 7.0);
                    a.cost_usd = Some(world.below(1000) as f64 / 3000.0);
                    a.input_tokens = Some(world.below(3000));
                    a.steps = Some(world.below(12) as u32);
                    a.errors = Some(world.below(3) as u32);
                    a.outcome = Some(world.below(11) as f64 / 10.0);
                    a
                })
                .collect();
            seats.push(seat(id, attempts));
        }
        let mut ids: Vec<String> = (0..32).map(|p| format!("p{p:02}")).collect();
        ids.sort();
        let mut data = wave(Some(SuiteProblems::Ids(ids)), seats);
        data.wave.canary_problems = vec!["p03".into(), "p31".into()];
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rubrics");
        let mut rubrics = vec![None];
        for entry in std::fs::read_dir(root).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            rubrics.push(Some(crate::rubric::parse(&path, &text).unwrap()));
        }
        assert!(rubrics.len() > 5);
        for r in &rubrics {
            let s = Settings {
                resamples: 300,
                ..Settings::default()
            };
            let sums = wave_intervals(&data, r.as_ref(), &s).unwrap();
            let attempts = Settings {
                method: Method::Attempts,
                ..s
            };
            let fed = wave_intervals(&data, r.as_ref(), &attempts).unwrap();
            let name = r.as_ref().map(|r| r.id());
            for (id, one) in &sums.seats {
                let other = fed.seat(id);
                assert_eq!(one.accuracy, other.accuracy, "{name:?} {id}");
                assert_eq!(one.rank, other.rank, "{name:?} {id}");
                assert!(near(one.cost_of_pass, other.cost_of_pass), "{name:?} {id}");
                assert!(
                    near(one.score, other.score),
                    "{name:?} {id} {one:?} {other:?}"
                );
            }
        }
    }

    /// Every shipped rubric's intervals drawn together are those each draws alone, to the bit:
    /// per seat, relative and per-attempt rubrics, one whose formula is undefined on some
    /// problems for some seats (its own reasons, not another rubric's), and one whose
    /// medians are needed first (drawn from its attempts, beside the others).
    #[test]
    fn intervals_drawn_together_are_those_drawn_alone() {
        let mut world = Draws::new(23);
        let mut seats = Vec::new();
        for id in ["a", "b", "c", "d", "e"] {
            let attempts = (0..24)
                .flat_map(|p| (1..=2).map(move |t| (p, t)))
                .filter(|_| world.below(7) != 0)
                .collect::<Vec<_>>()
                .into_iter()
                .map(|(p, t)| {
                    let mut a = attempt(&format!("p{p:02}"), t, world.below(3) != 0);
                    a.wall_s = Some(world.below(1000) as f64 / 7.0);
                    a.cost_usd = Some(world.below(1000) as f64 / 3000.0);
                    a.steps = (world.below(15) != 0).then(|| world.below(12) as u32);
                    a.errors = Some(world.below(3) as u32);
                    a.outcome = Some(world.below(11) as f64 / 10.0);
                    a
                })
                .collect();
            seats.push(seat(id, attempts));
        }
        let data = wave(Some(SuiteProblems::Count(26)), seats);
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rubrics");
        let mut rubrics = Vec::new();
        for entry in std::fs::read_dir(root).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            rubrics.push(crate::rubric::parse(&path, &text).unwrap());
        }
        rubrics.sort_by_key(Rubric::id);
        // A per-attempt rubric with a cohort factor: its medians come first, so it is drawn
        // from its attempts.
        let mut medians = rubric(
            "name = \"m\"\nversion = 1\nper = \"attempt\"\nscale = { min = 0, max = 1 }\n[[factor]]\n\
             name = \"accuracy\"\nmeasure = \"accuracy\"\n",
        );
        medians.factors.push(crate::rubric::spec::Factor {
            name: "wall".into(),
            transform: crate::rubric::spec::Transform::CohortRatio,
            role: crate::rubric::spec::Role::Divide,
            ..rubric(
                "name = \"w\"\nversion = 1\nrelative = true\nscale = { min = 0 }\n[[factor]]\n\
                 name = \"wall\"\nmeasure = \"wall_s\"\nrelative_to = \"median\"\n",
            )
            .factors[0]
                .clone()
        });
        rubrics.push(medians);
        let refs: Vec<&Rubric> = rubrics.iter().collect();
        let s = Settings {
            resamples: 300,
            ..Settings::default()
        };
        let together = wave_intervals_under(&data, &refs, &s).unwrap();
        assert_eq!(together.len(), refs.len());
        for (r, t) in refs.iter().zip(&together) {
            let alone = wave_intervals(&data, Some(r), &s).unwrap();
            assert_eq!(t, &alone, "{}", r.id());
        }
        // The per-attempt rubrics reading steps are undefined on some resamples (a step count
        // unknown), the others on none: each kept its own reasons.
        let partial = |id: &str| {
            let k = refs.iter().position(|r| r.id() == id).unwrap();
            together[k]
                .seats
                .values()
                .filter(|i| i.score.is_none_or(|i| i.defined < 300))
                .count()
        };
        assert!(partial("trace-holistic@1") > 0);
        assert!(partial("trace-holistic-retries@1") > 0);
        assert_eq!(partial("session-efficiency@2"), 0);
    }

    #[test]
    fn suite_problems_past_the_cap_is_refused_not_drawn() {
        // Four billion problems asked for 32 GB; the largest a ledger can hold overflowed the
        // allocation ("capacity overflow"). Both are refused before anything is drawn.
        for n in [4_000_000_000, i64::MAX as u64, u64::MAX] {
            let data = wave(
                Some(SuiteProblems::Count(n)),
                vec![seat("a", vec![attempt("p", 1, true)])],
            );
            let e = wave_intervals(&data, None, &Settings::default()).unwrap_err();
            assert!(
                e.to_string()
                    .starts_with(&format!("wave `w` declares {n} problems in its suite")),
                "{e}"
            );
        }
    }

    #[test]
    fn every_draw_of_a_problem_counts_as_a_problem() {
        // One problem, two trials, one Correct: whatever is drawn, 50 %.
        let data = wave(
            Some(SuiteProblems::Count(1)),
            vec![seat(
                "a",
                vec![attempt("p", 1, true), attempt("p", 2, false)],
            )],
        );
        let ci = wave_intervals(&data, None, &Settings::default())
            .unwrap()
            .seat("a")
            .accuracy
            .unwrap();
        assert_eq!((ci.lo, ci.hi), (0.5, 0.5));
    }
}
