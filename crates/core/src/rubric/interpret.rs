//! The interpreter: a rubric and a wave in, each seat's score, factors and rank out.
//!
//! Pure and deterministic: no SQL, no files, no clock. Seats are visited in ledger order and
//! attempts in (problem, trial) order, so every sum runs in the same order on every machine.
//! `sqrt` is used for an exponent of 0.5 (never `powf(0.5)`).
//!
//! A seat is scored from its running totals (`super::tally`), never from its attempts held
//! together: [`score_wave`](super::score_wave) tallies each seat of a wave held whole, and the
//! ledger streams its rows into the same tallies ([`Scorer`](super::Scorer)), so both give the
//! same scores to the bit.
//!
//! Every seat gets a score or a reason it has none: an unknown measure, a wave without the
//! budget a factor needs, a median of zero, a divisor of zero. A NaN or an infinity never leaves
//! this module.

use std::collections::BTreeMap;

use super::arith::pow;
use super::measure::{Measure, errors_after_free_retries};
use super::spec::{Factor, Gate, Penalty, Per, Role, Rubric, TieBreak, Transform};
use crate::figures::{Known, SeatFigures};
use crate::model::{Attempt, Seat, Wave, WaveData};

/// What a rubric makes of one seat.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatScore {
    pub seat: String,
    /// `None` when the score is undefined for this seat; `note` says why.
    pub score: Option<f64>,
    /// The named values that made the score: each factor's value (averaged over attempts for
    /// a per-attempt rubric), each penalty's points, each gate's compared value.
    pub factors: BTreeMap<String, f64>,
    /// The gate the seat failed, if any.
    pub gate: Option<String>,
    /// Why the score is undefined, when it is.
    pub note: Option<String>,
    /// 1 for the best; seats still tied after the tie-breaks share a rank. `None` when the score
    /// is undefined.
    pub rank: Option<u32>,
    /// For a seat whose score ties another's: how the tie was settled.
    pub tie: Option<String>,
    /// The rank is shared with another seat (equal on score and every tie-break).
    pub rank_shared: bool,
}

/// A whole wave's scores, best first (undefined scores last, by seat id).
#[derive(Debug, Clone, PartialEq)]
pub struct WaveScores {
    pub wave: String,
    pub seats: Vec<SeatScore>,
}

pub(super) fn clip(x: f64, floor: Option<f64>, cap: Option<f64>) -> f64 {
    let mut v = x;
    if let Some(lo) = floor {
        v = v.max(lo);
    }
    if let Some(hi) = cap {
        v = v.min(hi);
    }
    v
}

/// Median: the middle value, or the mean of the two middle values for an even count.
pub fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

/// For a per-attempt rubric: the formula summed over a seat's attempts.
#[derive(Debug, Clone, Default)]
pub(super) struct AttemptSums {
    /// Σ of each attempt's score, from 0.0, in attempt order.
    pub(super) total: f64,
    /// Σ of each named value the formula records (factors, then penalties), from the first
    /// attempt's values; empty before the first attempt.
    pub(super) named: Vec<f64>,
    /// The first reason an attempt's formula was undefined; once met, nothing more is summed
    /// (the seat's score is undefined for that reason).
    pub(super) undefined: Option<Undefined>,
}

impl AttemptSums {
    /// Adds one attempt's formula: its score and the `values` it recorded, or the reason it
    /// is undefined.
    pub(super) fn add(&mut self, score: Result<f64, Undefined>, values: &[f64]) {
        match score {
            Ok(score) => self.add_defined(score, values),
            Err(why) => self.undefined = Some(why),
        }
    }

    /// [`AttemptSums::add`] of a formula that is defined.
    #[inline]
    pub(super) fn add_defined(&mut self, score: f64, values: &[f64]) {
        self.total += score;
        if self.named.is_empty() {
            self.named.extend_from_slice(values);
        } else {
            for (sum, v) in self.named.iter_mut().zip(values) {
                *sum += v;
            }
        }
    }
}

/// A seat's tally, finished: everything its score is computed from.
pub(super) struct Totals {
    pub(super) figures: SeatFigures,
    /// For a per-seat rubric, by penalty (in the rubric's order): the errors after free
    /// retries summed over the seat's attempts, for each penalty that forgives some.
    pub(super) free_errors: Vec<Option<Known<f64>>>,
    /// For a per-attempt rubric: the sums of the formula over the seat's attempts.
    pub(super) per_attempt: Option<AttemptSums>,
}

/// Where measures are read from: a seat's totals or one attempt.
pub(super) enum Unit<'a> {
    Seat(&'a Totals),
    Attempt(&'a Attempt),
}

pub(super) struct Env<'a> {
    pub(super) wave: &'a Wave,
    /// For cohort factors: the median of each factor's measure over the wave's seats.
    pub(super) medians: BTreeMap<String, Option<f64>>,
}

pub(super) type Undefined = String;

/// The factors of a formula combined, Π multiply × Σ add / Σ divide: by the formula and by its
/// fast path ([`super::resolved`]) alike, so that the two take the same operations in the same
/// order and give the same bits.
#[derive(Debug, Clone, Copy)]
pub(super) struct Combined {
    product: f64,
    add: Option<f64>,
    div: Option<f64>,
}

impl Combined {
    /// Before the first factor.
    pub(super) const START: Combined = Combined {
        product: 1.0,
        add: None,
        div: None,
    };

    /// Takes a factor's value `v` in its role.
    #[inline(always)]
    pub(super) fn take(&mut self, role: Role, weight: f64, v: f64) {
        match role {
            Role::Multiply => self.product *= v,
            Role::Add => *self.add.get_or_insert(0.0) += weight * v,
            Role::Divide => *self.div.get_or_insert(0.0) += weight * v,
        }
    }

    /// The combination: `None` where the weighted sum it is divided by is 0.
    #[inline(always)]
    pub(super) fn core(self) -> Option<f64> {
        let mut core = self.product * self.add.unwrap_or(1.0);
        if let Some(d) = self.div {
            if d == 0.0 {
                return None;
            }
            core /= d;
        }
        Some(core)
    }
}

/// The named values of one attempt's formula on the fast path ([`super::resolved`]), held in
/// place: no allocation, and copied from one rubric to another by value. A formula recording
/// more than [`Values::HELD`] values takes the formula's own path ([`Env::formula`]), which
/// keeps them in a `Vec`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Values {
    held: [f64; Values::HELD],
    len: usize,
}

impl Values {
    /// Enough for every shipped per-attempt rubric (2 factors and a penalty).
    pub(super) const HELD: usize = 8;

    pub(super) const EMPTY: Values = Values {
        held: [0.0; Values::HELD],
        len: 0,
    };

    /// Records `v` after the values already held; `None` when there is no room.
    #[inline]
    pub(super) fn push(&mut self, v: f64) -> Option<()> {
        *self.held.get_mut(self.len)? = v;
        self.len += 1;
        Some(())
    }

    #[inline]
    pub(super) fn as_slice(&self) -> &[f64] {
        &self.held[..self.len.min(Values::HELD)]
    }
}

/// The names of the values [`Env::formula`] records, in the order it records them: each
/// factor's, then each penalty's points.
fn value_names(r: &Rubric) -> impl Iterator<Item = String> + '_ {
    r.factors
        .iter()
        .map(|f| f.name.clone())
        .chain(r.penalties.iter().map(|p| format!("penalty.{}", p.name)))
}

impl Env<'_> {
    fn measure(&self, m: Measure, unit: &Unit<'_>) -> Result<f64, Undefined> {
        match unit {
            Unit::Seat(t) => m.of_seat(&t.figures).ok_or_else(|| {
                if t.figures.attempts == 0 {
                    format!("the seat made no attempts, so its {} is unknown", m.name())
                } else {
                    format!("{} is unknown for some of its attempts", m.name())
                }
            }),
            Unit::Attempt(a) => m.of_attempt(a, self.wave).ok_or_else(|| {
                format!(
                    "{} is unknown for problem {:?} trial {}",
                    m.name(),
                    a.problem,
                    a.trial
                )
            }),
        }
    }

    /// The allowance `m` is held against, at the level `m` is read at.
    fn allowance(
        &self,
        a: super::measure::Allowance,
        m: Measure,
        unit: &Unit<'_>,
    ) -> Result<f64, Undefined> {
        let per = a.per_problem(&self.wave.budget).ok_or_else(|| {
            format!(
                "wave {} declares no {} ([wave.budget])",
                self.wave.id,
                a.name()
            )
        })?;
        Ok(match unit {
            // A seat's sum is held against the per-problem budget times the attempts it made;
            // a mean per attempt, like one attempt, against the per-problem budget.
            Unit::Seat(t) if !matches!(m, Measure::Mean(_)) => per * t.figures.attempts as f64,
            Unit::Seat(_) | Unit::Attempt(_) => per,
        })
    }

    fn factor(&self, f: &Factor, unit: &Unit<'_>) -> Result<f64, Undefined> {
        let m = self.measure(f.measure, unit)?;
        let raw = match f.transform {
            Transform::Value => m,
            Transform::AllowanceRatio(a) => {
                let allowance = self.allowance(a, f.measure, unit)?;
                if m == 0.0 {
                    // Nothing used: as far under budget as can be.
                    f.cap.unwrap_or(f64::MAX)
                } else {
                    allowance / m
                }
            }
            Transform::Linear { expected, slope } => 1.0 - (m - expected) * slope,
            Transform::CohortRatio => {
                let med = self
                    .medians
                    .get(&f.name)
                    .copied()
                    .flatten()
                    .ok_or_else(|| {
                        format!("the wave's median of {} is unknown", f.measure.name())
                    })?;
                if med == 0.0 {
                    return Err(format!(
                        "the median of {} over the wave is 0, so a ratio to it is undefined",
                        f.measure.name()
                    ));
                }
                m / med
            }
        };
        Ok(pow(clip(raw, f.floor, f.cap), f.exponent))
    }

    /// The points of the `i`th penalty.
    fn penalty(&self, i: usize, p: &Penalty, unit: &Unit<'_>) -> Result<f64, Undefined> {
        let amount = if p.forgives_retries() {
            match unit {
                // One attempt's errors, and their mean over that one attempt.
                Unit::Attempt(a) => errors_after_free_retries(a, p.free_retries)
                    .ok_or_else(|| format!("errors are unknown for problem {:?}", a.problem))?,
                Unit::Seat(t) => {
                    // Summed over the seat's attempts, in order, as they were tallied. A seat
                    // without attempts has no errors to count: unknown, as for any sum.
                    let attempts = t.figures.attempts;
                    if attempts == 0 {
                        return Err(format!(
                            "the seat made no attempts, so its {} is unknown",
                            p.measure.name()
                        ));
                    }
                    let unknown = || "errors are unknown for some of its attempts".to_string();
                    let k = t
                        .free_errors
                        .get(i)
                        .copied()
                        .flatten()
                        .ok_or_else(unknown)?;
                    if k.known != attempts {
                        return Err(unknown());
                    }
                    match p.measure {
                        Measure::Mean(_) => k.sum / attempts as f64,
                        _ => k.sum,
                    }
                }
            }
        } else {
            self.measure(p.measure, unit)?
        };
        Ok(p.per_unit * amount)
    }

    /// The formula for one unit: multiplier × Π multiply × Σ add / Σ divide − penalties, clamped.
    /// Records the named values in `values`, in the order of [`value_names`] (as far as it got
    /// when the formula is undefined).
    pub(super) fn formula(
        &self,
        r: &Rubric,
        unit: &Unit<'_>,
        values: &mut Vec<f64>,
    ) -> Result<f64, Undefined> {
        let core = self.factors(r, unit, values)?;
        self.penalties(r, core, unit, values)
    }

    /// The formula's factors for one unit: Π multiply × Σ add / Σ divide, each factor's value
    /// recorded in `values`. The same for two rubrics with the same factors on the same wave
    /// (no factor of them a cohort ratio, which reads the medians of its own rubric's wave).
    pub(super) fn factors(
        &self,
        r: &Rubric,
        unit: &Unit<'_>,
        values: &mut Vec<f64>,
    ) -> Result<f64, Undefined> {
        let mut combined = Combined::START;
        for f in &r.factors {
            let v = self.factor(f, unit)?;
            if !v.is_finite() {
                // Only a rubric that fails `rubric check` gets here (a negative factor under a
                // fractional exponent, a ratio that overflows): undefined, never NaN.
                return Err(format!("factor {:?} is not a finite number here", f.name));
            }
            values.push(v);
            combined.take(f.role, f.weight, v);
        }
        combined.core().ok_or_else(|| {
            "the weighted sum it is divided by is 0 (it used nothing the rubric divides by)".into()
        })
    }

    /// The rest of the formula, from its factors' `core` ([`Env::factors`]): multiplier × core
    /// − penalties, clamped, each penalty's points recorded in `values`.
    pub(super) fn penalties(
        &self,
        r: &Rubric,
        core: f64,
        unit: &Unit<'_>,
        values: &mut Vec<f64>,
    ) -> Result<f64, Undefined> {
        let mut score = r.multiplier * core;
        for (i, p) in r.penalties.iter().enumerate() {
            let points = self.penalty(i, p, unit)?;
            values.push(points);
            score -= points;
        }
        Ok(clip(score, r.clamp_min, r.clamp_max))
    }

    fn gate(&self, g: &Gate, unit: &Unit<'_>) -> Result<(f64, bool), Undefined> {
        let m = self.measure(g.measure, unit)?;
        let value = match g.allowance {
            Some(a) => {
                let allowance = self.allowance(a, g.measure, unit)?;
                if allowance == 0.0 {
                    if m == 0.0 { 0.0 } else { f64::INFINITY }
                } else {
                    m / allowance
                }
            }
            None => m,
        };
        let failed = g.min.is_some_and(|lo| value < lo) || g.max.is_some_and(|hi| value > hi);
        Ok((value, failed))
    }
}

/// A seat's score with every number in canonical form: `-0.0` (from an empty sum, or a zero
/// times a negative) is printed as `0`, never `-0`.
fn seat_score(r: &Rubric, env: &Env<'_>, seat: &Seat, totals: &Totals) -> SeatScore {
    let mut out = seat_score_raw(r, env, seat, totals);
    out.score = out.score.map(|x| x + 0.0);
    for v in out.factors.values_mut() {
        *v += 0.0;
    }
    out
}

fn seat_score_raw(r: &Rubric, env: &Env<'_>, seat: &Seat, totals: &Totals) -> SeatScore {
    let mut factors = BTreeMap::new();
    let o = evaluate(r, env, totals, Some(&mut factors));
    SeatScore {
        seat: seat.id.clone(),
        score: o.score,
        factors,
        gate: o.gate,
        note: o.note,
        rank: None,
        tie: None,
        rank_shared: false,
    }
}

/// A seat's score alone, in canonical form (as [`seat_score`] gives it), without the named
/// values that made it: what a bootstrap resample needs of each seat.
pub(super) fn score_only(r: &Rubric, env: &Env<'_>, totals: &Totals) -> Option<f64> {
    evaluate(r, env, totals, None).score.map(|x| x + 0.0)
}

/// What a seat's evaluation gives: its score, the gate it failed, why it is undefined.
struct Outcome {
    score: Option<f64>,
    gate: Option<String>,
    note: Option<String>,
}

/// Evaluates a seat under the rubric, recording the named values into `factors` when given.
fn evaluate(
    r: &Rubric,
    env: &Env<'_>,
    totals: &Totals,
    mut factors: Option<&mut BTreeMap<String, f64>>,
) -> Outcome {
    let unit = Unit::Seat(totals);
    let mut out = Outcome {
        score: None,
        gate: None,
        note: None,
    };
    // Gates first: a seat that fails one gets the gate's score whatever else is known — even
    // when another gate cannot be decided (a seat 3× over its wall allowance fails the wall gate
    // whether or not its token counts are known). Only when no gate fails does an undecidable
    // one leave the score undefined.
    let mut undecided = None;
    for g in &r.gates {
        match env.gate(g, &unit) {
            Ok((value, failed)) => {
                if let Some(f) = factors.as_deref_mut() {
                    f.insert(format!("gate.{}", g.name), finite_or_max(value));
                }
                if failed && out.gate.is_none() {
                    out.gate = Some(g.name.clone());
                    out.score = Some(g.score);
                }
            }
            Err(why) => {
                undecided.get_or_insert(format!("gate {:?} cannot be decided: {why}", g.name));
            }
        }
    }
    if let Some(why) = undecided
        && out.gate.is_none()
    {
        out.note = Some(why);
        return out;
    }
    let result = match r.per {
        Per::Seat => {
            let mut values = Vec::new();
            let s = env.formula(r, &unit, &mut values);
            if let Some(f) = factors {
                f.extend(value_names(r).zip(values));
            }
            s
        }
        Per::Attempt => attempt_mean(r, totals, factors),
    };
    match result {
        Ok(s) if out.gate.is_none() => {
            if s.is_finite() {
                out.score = Some(s);
            } else {
                out.note = Some("the score is not a finite number".into());
            }
        }
        Ok(_) => {}
        Err(why) => {
            if out.gate.is_none() {
                out.note = Some(why);
            }
        }
    }
    out
}

fn finite_or_max(x: f64) -> f64 {
    if x.is_finite() { x } else { f64::MAX }
}

/// Per-attempt scoring: each attempt through the formula (summed as the seat was tallied), then
/// the mean over attempts and missing problems (which score `missing_score`). Factor values are
/// averaged over attempts.
fn attempt_mean(
    r: &Rubric,
    totals: &Totals,
    factors: Option<&mut BTreeMap<String, f64>>,
) -> Result<f64, Undefined> {
    let figures = &totals.figures;
    if figures.denominator == 0 {
        return Err("the seat has no attempts".into());
    }
    let sums = totals
        .per_attempt
        .as_ref()
        .ok_or_else(|| "the seat's attempts were not tallied per attempt".to_string())?;
    if let Some(why) = &sums.undefined {
        return Err(why.clone());
    }
    let total = sums.total + r.missing_score * figures.missing as f64;
    let n = figures.attempts as f64;
    if let Some(factors) = factors {
        for (name, sum) in value_names(r).zip(&sums.named) {
            factors.insert(name, sum / n);
        }
    }
    Ok(total / figures.denominator as f64)
}

/// The median of each cohort factor's measure over the wave's seats whose measure is known,
/// by factor name: the yardstick a relative score divides by.
pub fn cohort_medians(r: &Rubric, data: &WaveData) -> BTreeMap<String, Option<f64>> {
    let figures: Vec<SeatFigures> = data
        .seats
        .iter()
        .map(|s| SeatFigures::of(&data.wave, s))
        .collect();
    medians_of(r, &figures.iter().collect::<Vec<_>>())
}

/// The cohort medians over these seats' figures (in the wave's seat order).
pub(super) fn medians_of(r: &Rubric, figures: &[&SeatFigures]) -> BTreeMap<String, Option<f64>> {
    r.factors
        .iter()
        .filter(|f| f.transform == Transform::CohortRatio)
        .map(|f| {
            let values: Vec<f64> = figures
                .iter()
                .filter_map(|fig| f.measure.of_seat(fig))
                .collect();
            (f.name.clone(), median(&values))
        })
        .collect()
}

/// Scores finished tallies (seats in ledger order) and ranks them.
pub(super) fn score_totals(r: &Rubric, wave: &Wave, totals: &[(&Seat, Totals)]) -> WaveScores {
    let figures: Vec<&SeatFigures> = totals.iter().map(|(_, t)| &t.figures).collect();
    let env = Env {
        wave,
        medians: medians_of(r, &figures),
    };
    let mut seats: Vec<SeatScore> = totals
        .iter()
        .map(|(s, t)| seat_score(r, &env, s, t))
        .collect();
    let keys: Vec<Vec<Option<f64>>> = figures.iter().map(|f| tie_keys(r, f)).collect();
    rank(&mut seats, &keys, &r.tie_break);
    WaveScores {
        wave: wave.id.clone(),
        seats,
    }
}

/// Scores finished tallies (seats in ledger order) and ranks them, giving each seat (in the
/// same order) its score and rank alone: the same numbers as [`score_totals`], without the
/// words and named values a listing prints, for the resamples of a bootstrap.
pub(super) fn score_ranks(
    r: &Rubric,
    wave: &Wave,
    ids: &[&str],
    totals: &[Totals],
) -> Vec<(Option<f64>, Option<u32>)> {
    let figures: Vec<&SeatFigures> = totals.iter().map(|t| &t.figures).collect();
    let env = Env {
        wave,
        medians: medians_of(r, &figures),
    };
    let scores: Vec<Option<f64>> = totals.iter().map(|t| score_only(r, &env, t)).collect();
    let keys: Vec<Vec<Option<f64>>> = figures.iter().map(|f| tie_keys(r, f)).collect();
    let ranked = Ranking::of(&scores, ids, &keys);
    scores.into_iter().zip(ranked.rank).collect()
}

/// A seat's tie-break keys, in the rubric's order: each measure, a higher-first one negated.
fn tie_keys(r: &Rubric, f: &SeatFigures) -> Vec<Option<f64>> {
    r.tie_break
        .iter()
        .map(|tb| {
            // Higher-first measures sort on their negation.
            tb.measure
                .of_seat(f)
                .map(|v| if tb.higher_first { -v } else { v })
        })
        .collect()
}

/// Scores this close count as equal: a difference this small comes from the order in which
/// sums were taken, not from the seats (0.1 + 0.2 + 0.3 is not 0.3 + 0.2 + 0.1 in floating point).
pub(crate) const TIE_TOLERANCE: f64 = 1e-9;

/// Whether two scores are equal for ranking: within `TIE_TOLERANCE`, relative to their size.
pub fn same_score(a: f64, b: f64) -> bool {
    (a - b).abs() <= TIE_TOLERANCE * a.abs().max(b.abs()).max(1.0)
}

/// Tie-break keys compared, lower first; an unknown one after every known one.
fn key_order(ka: &[Option<f64>], kb: &[Option<f64>]) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    for (x, y) in ka.iter().zip(kb) {
        let o = match (x, y) {
            (Some(x), Some(y)) => x.total_cmp(y),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        };
        if o != Ordering::Equal {
            return o;
        }
    }
    Ordering::Equal
}

/// Seats ordered and ranked by index (see [`rank`]): `order` best first, and for each seat (in
/// the order given) its group of equal scores (`usize::MAX` when undefined) and its rank.
struct Ranking {
    order: Vec<usize>,
    group: Vec<usize>,
    rank: Vec<Option<u32>>,
}

impl Ranking {
    fn of(scores: &[Option<f64>], ids: &[&str], keys: &[Vec<Option<f64>>]) -> Ranking {
        use std::cmp::Ordering;
        let n = scores.len();
        // Best score first, undefined last; then equal scores form groups, each group starting
        // at its best score, so the grouping is as deterministic as the order.
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| match (scores[a], scores[b]) {
            (Some(x), Some(y)) => y.total_cmp(&x).then_with(|| ids[a].cmp(ids[b])),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => ids[a].cmp(ids[b]),
        });
        let mut group = vec![usize::MAX; n];
        let mut anchor: Option<f64> = None;
        let mut g = 0;
        for &s in &order {
            if let Some(x) = scores[s] {
                if anchor.is_some_and(|a| !same_score(a, x)) {
                    g += 1;
                    anchor = Some(x);
                }
                anchor.get_or_insert(x);
                group[s] = g;
            }
        }
        order.sort_by(|&a, &b| {
            group[a]
                .cmp(&group[b])
                .then_with(|| {
                    if scores[a].is_some() {
                        key_order(&keys[a], &keys[b])
                    } else {
                        Ordering::Equal
                    }
                })
                .then_with(|| ids[a].cmp(ids[b]))
        });
        // A seat's rank is one more than the seats ahead of it: in a lower group, or in its
        // own with lesser keys. In `order` those are exactly the seats before the first one
        // equal to it on group and keys.
        let mut rank = vec![None; n];
        let mut first = 0;
        for (k, &s) in order.iter().enumerate() {
            if scores[s].is_none() {
                break;
            }
            if k > 0 {
                let p = order[k - 1];
                if group[p] != group[s] || key_order(&keys[p], &keys[s]) != Ordering::Equal {
                    first = k;
                }
            }
            rank[s] = Some(first as u32 + 1);
        }
        Ranking { order, group, rank }
    }
}

/// Orders seats best first and assigns competition ranks (1, 1, 3): by score, higher first;
/// then, among equal scores (see [`same_score`]), by each tie-break key, lower first (unknown
/// last; a higher-first measure arrives negated). Seats equal on everything share a rank and are
/// listed by id. `keys` holds each seat's tie-break keys, in the order `seats` is given.
fn rank(seats: &mut Vec<SeatScore>, keys: &[Vec<Option<f64>>], tie_break: &[TieBreak]) {
    use std::cmp::Ordering;
    let scores: Vec<Option<f64>> = seats.iter().map(|s| s.score).collect();
    let ids: Vec<&str> = seats.iter().map(|s| s.seat.as_str()).collect();
    let Ranking { order, group, rank } = Ranking::of(&scores, &ids, keys);
    let n = seats.len();
    let mut ties: Vec<(bool, Option<String>)> = vec![(false, None); n];
    for s in 0..n {
        if scores[s].is_none() {
            continue;
        }
        let same: Vec<usize> = (0..n)
            .filter(|&o| ids[o] != ids[s] && group[o] == group[s])
            .collect();
        if same.is_empty() {
            continue;
        }
        let still_tied = same
            .iter()
            .any(|&o| key_order(&keys[o], &keys[s]) == Ordering::Equal);
        let tie = if still_tied {
            if tie_break.is_empty() {
                "tied on score; the rubric declares no tie-break".into()
            } else {
                "tied on score and on every tie-break".into()
            }
        } else {
            // Name the first tie-break that separates this seat from every seat it ties with.
            let decisive = same
                .iter()
                .map(|&o| {
                    keys[s]
                        .iter()
                        .zip(&keys[o])
                        .position(|(x, y)| x != y)
                        .unwrap_or(0)
                })
                .max()
                .unwrap_or(0);
            let names: Vec<String> = tie_break[..=decisive].iter().map(|t| t.name()).collect();
            format!("tied on score; broken on {}", names.join(", then "))
        };
        ties[s] = (still_tied, Some(tie));
    }
    let mut slots: Vec<Option<SeatScore>> = std::mem::take(seats).into_iter().map(Some).collect();
    for &s in &order {
        let mut seat = slots[s].take().expect("each seat once");
        seat.rank = rank[s];
        (seat.rank_shared, seat.tie) = std::mem::take(&mut ties[s]);
        seats.push(seat);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rubric::score_wave;

    #[test]
    fn median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn scores_equal_but_for_summation_order_tie_and_are_broken_on_absolutes() {
        // 0.1 + 0.2 + 0.3 and 0.3 + 0.2 + 0.1 differ in the last bit; the seats tie.
        let a = (0.1 + 0.2 + 0.3) / 3.0;
        let b = (0.3 + 0.2 + 0.1) / 3.0;
        assert_ne!(a, b);
        let seat = |id: &str, score: f64| SeatScore {
            seat: id.into(),
            score: Some(score),
            factors: BTreeMap::new(),
            gate: None,
            note: None,
            rank: None,
            tie: None,
            rank_shared: false,
        };
        let mut seats = vec![seat("a-slow", a), seat("b-fast", b), seat("c-worse", 0.1)];
        let keys = [vec![Some(300.0)], vec![Some(30.0)], vec![Some(1.0)]];
        let tb = [TieBreak {
            measure: Measure::WallS,
            higher_first: false,
        }];
        rank(&mut seats, &keys, &tb);
        let order: Vec<(&str, Option<u32>)> =
            seats.iter().map(|s| (s.seat.as_str(), s.rank)).collect();
        assert_eq!(
            order,
            vec![
                ("b-fast", Some(1)),
                ("a-slow", Some(2)),
                ("c-worse", Some(3))
            ]
        );
        assert_eq!(
            seats[0].tie.as_deref(),
            Some("tied on score; broken on wall_s")
        );
        assert!(seats[2].tie.is_none());
    }

    /// Competition ranks by hand: three seats on 0.9, of which two also tie on the tie-break
    /// (so they share rank 1, and the third is 3rd); then 0.5 (4th); an undefined score is
    /// unranked and listed last. The same whether the seats come in this order or another.
    #[test]
    fn competition_ranks_by_hand() {
        let scores = [Some(0.5), Some(0.9), None, Some(0.9), Some(0.9)];
        let ids = ["d", "c", "e", "b", "a"];
        let keys = [
            vec![Some(0.0)],
            vec![Some(2.0)],
            vec![None],
            vec![Some(1.0)],
            vec![Some(1.0)],
        ];
        let r = Ranking::of(&scores, &ids, &keys);
        let order: Vec<&str> = r.order.iter().map(|&i| ids[i]).collect();
        assert_eq!(order, ["a", "b", "c", "d", "e"]);
        assert_eq!(r.rank, [Some(4), Some(3), None, Some(1), Some(1)]);
        let seat = |id: &str, score: Option<f64>| SeatScore {
            seat: id.into(),
            score,
            factors: BTreeMap::new(),
            gate: None,
            note: None,
            rank: None,
            tie: None,
            rank_shared: false,
        };
        let mut seats: Vec<SeatScore> = ids.iter().zip(scores).map(|(i, s)| seat(i, s)).collect();
        let tb = [TieBreak {
            measure: Measure::WallS,
            higher_first: false,
        }];
        rank(&mut seats, &keys, &tb);
        let listed: Vec<(&str, Option<u32>, bool)> = seats
            .iter()
            .map(|s| (s.seat.as_str(), s.rank, s.rank_shared))
            .collect();
        assert_eq!(
            listed,
            [
                ("a", Some(1), true),
                ("b", Some(1), true),
                ("c", Some(3), false),
                ("d", Some(4), false),
                ("e", None, false)
            ]
        );
        assert_eq!(
            seats[2].tie.as_deref(),
            Some("tied on score; broken on wall_s")
        );
        assert_eq!(
            seats[0].tie.as_deref(),
            Some("tied on score and on every tie-break")
        );
    }

    #[test]
    fn exponent_one_half_is_sqrt() {
        assert_eq!(pow(1.25, 0.5), 1.25f64.sqrt());
    }

    /// A wave declaring two problems: `one` made an attempt with two failed calls to the same
    /// tool, `none` made no attempt.
    fn two_seats() -> WaveData {
        use crate::model::{Accounting, SuiteProblems, TraceStep};
        let step = |ok: bool| TraceStep {
            tool: "fetch".into(),
            ok,
            error: (!ok).then(|| "timeout".into()),
        };
        let seat = crate::model::testing::seat;
        let attempt = Attempt {
            problem: "p1".into(),
            trial: 1,
            correct: true,
            steps: Some(3),
            errors: Some(2),
            trace: Some(vec![step(false), step(false), step(true)]),
            ..Attempt::empty()
        };
        WaveData {
            wave: Wave {
                id: "w".into(),
                suite: "s".into(),
                started_at: "2026-01-01T00:00:00Z".into(),
                notes: None,
                suite_problems: Some(SuiteProblems::Count(2)),
                load: Default::default(),
                accounting: Accounting::default(),
                budget: Default::default(),
                provenance: Default::default(),
                supersedes: None,
                canary_problems: Vec::new(),
            },
            seats: vec![seat("none", vec![]), seat("one", vec![attempt])],
        }
    }

    #[test]
    fn a_seat_without_attempts_has_unknown_errors_with_or_without_free_retries() {
        let rubric = |free: &str| {
            crate::rubric::parse(
                std::path::Path::new("r.toml"),
                &format!(
                    "name = \"r\"\nversion = 1\nscale = {{ min = -100, max = 1 }}\n\
                     [[factor]]\nname = \"a\"\nmeasure = \"accuracy\"\n\
                     [[penalty]]\nname = \"e\"\nmeasure = \"errors\"\nper_unit = 1\n{free}"
                ),
            )
            .unwrap()
        };
        for (free, charged) in [("", 2.0), ("free_retries = 1\n", 1.0)] {
            let scores = score_wave(&rubric(free), &two_seats());
            let by_id = |id: &str| scores.seats.iter().find(|s| s.seat == id).unwrap();
            assert_eq!(by_id("one").factors["penalty.e"], charged, "{free:?}");
            assert_eq!(by_id("one").score, Some(0.5 - charged), "{free:?}");
            assert_eq!(by_id("none").score, None, "{free:?}");
            assert_eq!(
                by_id("none").note.as_deref(),
                Some("the seat made no attempts, so its errors is unknown"),
                "{free:?}"
            );
        }
    }
}
