//! The interpreter: a rubric and a wave in, each seat's score, factors and rank out.
//!
//! Pure and deterministic: no SQL, no files, no clock. Seats are visited in ledger order and
//! attempts in (problem, trial) order, so every sum runs in the same order on every machine.
//! `sqrt` is used for an exponent of 0.5 (never `powf(0.5)`).
//!
//! Every seat gets a score or a reason it has none: an unknown measure, a wave without the
//! budget a factor needs, a median of zero, a divisor of zero. A NaN or an infinity never leaves
//! this module.

use std::collections::BTreeMap;

use super::measure::{Measure, errors_after_free_retries};
use super::spec::{Factor, Gate, Penalty, Per, Role, Rubric, TieBreak, Transform};
use crate::figures::SeatFigures;
use crate::model::{Attempt, SeatData, Wave, WaveData};

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

/// x^e, exactly reproducible for the common exponents.
pub fn pow(x: f64, e: f64) -> f64 {
    if e == 1.0 {
        x
    } else if e == 0.5 {
        x.sqrt()
    } else if e == 2.0 {
        x * x
    } else if x.is_infinite() {
        x
    } else {
        x.powf(e)
    }
}

fn clip(x: f64, floor: Option<f64>, cap: Option<f64>) -> f64 {
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

/// Where measures are read from: a seat's totals or one attempt.
enum Unit<'a> {
    Seat {
        seat: &'a SeatData,
        figures: &'a SeatFigures,
    },
    Attempt(&'a Attempt),
}

struct Env<'a> {
    wave: &'a Wave,
    /// For cohort factors: the median of each factor's measure over the wave's seats.
    medians: &'a BTreeMap<String, Option<f64>>,
}

type Undefined = String;

impl Env<'_> {
    fn measure(&self, m: Measure, unit: &Unit<'_>) -> Result<f64, Undefined> {
        match unit {
            Unit::Seat { seat, figures } => m.of_seat(figures, seat).ok_or_else(|| {
                if figures.attempts == 0 {
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

    fn allowance(&self, a: super::measure::Allowance, unit: &Unit<'_>) -> Result<f64, Undefined> {
        let per = a.per_problem(&self.wave.budget).ok_or_else(|| {
            format!(
                "wave {} declares no {} ([wave.budget])",
                self.wave.id,
                a.name()
            )
        })?;
        Ok(match unit {
            // The allowance of a seat is the per-problem budget times the attempts it made.
            Unit::Seat { figures, .. } => per * figures.attempts as f64,
            Unit::Attempt(_) => per,
        })
    }

    fn factor(&self, f: &Factor, unit: &Unit<'_>) -> Result<f64, Undefined> {
        let m = self.measure(f.measure, unit)?;
        let raw = match f.transform {
            Transform::Value => m,
            Transform::AllowanceRatio(a) => {
                let allowance = self.allowance(a, unit)?;
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

    fn penalty(&self, p: &Penalty, unit: &Unit<'_>) -> Result<f64, Undefined> {
        let amount = if p.measure == Measure::Errors && p.free_retries > 0 {
            match unit {
                Unit::Attempt(a) => errors_after_free_retries(a, p.free_retries)
                    .ok_or_else(|| format!("errors are unknown for problem {:?}", a.problem))?,
                Unit::Seat { seat, .. } => {
                    let mut sum = 0.0;
                    for a in &seat.attempts {
                        sum += errors_after_free_retries(a, p.free_retries).ok_or_else(|| {
                            "errors are unknown for some of its attempts".to_string()
                        })?;
                    }
                    sum
                }
            }
        } else {
            self.measure(p.measure, unit)?
        };
        Ok(p.per_unit * amount)
    }

    /// The formula for one unit: multiplier × Π multiply × Σ add / Σ divide − penalties, clamped.
    /// Records the named values in `factors`.
    fn formula(
        &self,
        r: &Rubric,
        unit: &Unit<'_>,
        factors: &mut Vec<(String, f64)>,
    ) -> Result<f64, Undefined> {
        let mut product = 1.0;
        let mut add: Option<f64> = None;
        let mut div: Option<f64> = None;
        for f in &r.factors {
            let v = self.factor(f, unit)?;
            if !v.is_finite() {
                // Only a rubric that fails `rubric check` gets here (a negative factor under a
                // fractional exponent, a ratio that overflows): undefined, never NaN.
                return Err(format!("factor {:?} is not a finite number here", f.name));
            }
            factors.push((f.name.clone(), v));
            match f.role {
                Role::Multiply => product *= v,
                Role::Add => *add.get_or_insert(0.0) += f.weight * v,
                Role::Divide => *div.get_or_insert(0.0) += f.weight * v,
            }
        }
        let mut core = product * add.unwrap_or(1.0);
        if let Some(d) = div {
            if d == 0.0 {
                return Err(
                    "the weighted sum it is divided by is 0 (it used nothing the rubric divides by)"
                        .into(),
                );
            }
            core /= d;
        }
        let mut score = r.multiplier * core;
        for p in &r.penalties {
            let points = self.penalty(p, unit)?;
            factors.push((format!("penalty.{}", p.name), points));
            score -= points;
        }
        Ok(clip(score, r.clamp_min, r.clamp_max))
    }

    fn gate(&self, g: &Gate, unit: &Unit<'_>) -> Result<(f64, bool), Undefined> {
        let m = self.measure(g.measure, unit)?;
        let value = match g.allowance {
            Some(a) => {
                let allowance = self.allowance(a, unit)?;
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

fn seat_score(r: &Rubric, env: &Env<'_>, seat: &SeatData, figures: &SeatFigures) -> SeatScore {
    let unit = Unit::Seat { seat, figures };
    let mut out = SeatScore {
        seat: seat.seat.id.clone(),
        score: None,
        factors: BTreeMap::new(),
        gate: None,
        note: None,
        rank: None,
        tie: None,
        rank_shared: false,
    };
    // Gates first: a seat that fails one gets the gate's score whatever else is known — even
    // when another gate cannot be decided (a seat 3× over its wall allowance fails the wall gate
    // whether or not its token counts are known). Only when no gate fails does an undecidable
    // one leave the score undefined.
    let mut undecided = None;
    for g in &r.gates {
        match env.gate(g, &unit) {
            Ok((value, failed)) => {
                out.factors
                    .insert(format!("gate.{}", g.name), finite_or_max(value));
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
            let mut named = Vec::new();
            let s = env.formula(r, &unit, &mut named);
            out.factors.extend(named);
            s
        }
        Per::Attempt => attempt_mean(r, env, seat, figures, &mut out.factors),
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

/// Per-attempt scoring: each attempt through the formula, then the mean over attempts and
/// missing problems (which score `missing_score`). Factor values are averaged over attempts.
fn attempt_mean(
    r: &Rubric,
    env: &Env<'_>,
    seat: &SeatData,
    figures: &SeatFigures,
    factors: &mut BTreeMap<String, f64>,
) -> Result<f64, Undefined> {
    if figures.denominator == 0 {
        return Err("the seat has no attempts".into());
    }
    let mut total = 0.0;
    let mut sums: Vec<(String, f64)> = Vec::new();
    for a in &seat.attempts {
        let mut named = Vec::new();
        total += env.formula(r, &Unit::Attempt(a), &mut named)?;
        if sums.is_empty() {
            sums = named;
        } else {
            for (acc, (_, v)) in sums.iter_mut().zip(named) {
                acc.1 += v;
            }
        }
    }
    total += r.missing_score * figures.missing as f64;
    let n = seat.attempts.len() as f64;
    for (name, sum) in sums {
        factors.insert(name, sum / n);
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
    medians_of(r, data, &figures)
}

fn medians_of(
    r: &Rubric,
    data: &WaveData,
    figures: &[SeatFigures],
) -> BTreeMap<String, Option<f64>> {
    r.factors
        .iter()
        .filter(|f| f.transform == Transform::CohortRatio)
        .map(|f| {
            let values: Vec<f64> = data
                .seats
                .iter()
                .zip(figures)
                .filter_map(|(s, fig)| f.measure.of_seat(fig, s))
                .collect();
            (f.name.clone(), median(&values))
        })
        .collect()
}

/// Scores every seat of a wave and ranks them.
pub fn score_wave(r: &Rubric, data: &WaveData) -> WaveScores {
    // Each seat's figures once; every measure below reads them.
    let figures: Vec<SeatFigures> = data
        .seats
        .iter()
        .map(|s| SeatFigures::of(&data.wave, s))
        .collect();
    let medians = medians_of(r, data, &figures);
    let env = Env {
        wave: &data.wave,
        medians: &medians,
    };
    let mut seats: Vec<SeatScore> = data
        .seats
        .iter()
        .zip(&figures)
        .map(|(s, f)| seat_score(r, &env, s, f))
        .collect();
    let keys: BTreeMap<String, Vec<Option<f64>>> = data
        .seats
        .iter()
        .zip(&figures)
        .map(|(s, f)| {
            (
                s.seat.id.clone(),
                r.tie_break
                    .iter()
                    .map(|t| {
                        // Higher-first measures sort on their negation.
                        t.measure
                            .of_seat(f, s)
                            .map(|v| if t.higher_first { -v } else { v })
                    })
                    .collect(),
            )
        })
        .collect();
    rank(&mut seats, &keys, &r.tie_break);
    WaveScores {
        wave: data.wave.id.clone(),
        seats,
    }
}

/// Orders seats best first and assigns competition ranks (1, 1, 3): by score, higher first;
/// then, among equal scores, by each tie-break key, lower first (unknown last; a higher-first
/// measure arrives negated). Seats equal on everything share a rank and are listed by id.
fn rank(
    seats: &mut [SeatScore],
    keys: &BTreeMap<String, Vec<Option<f64>>>,
    tie_break: &[TieBreak],
) {
    use std::cmp::Ordering;
    let key_cmp = |a: &SeatScore, b: &SeatScore| -> Ordering {
        let (ka, kb) = (&keys[&a.seat], &keys[&b.seat]);
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
    };
    let full_cmp = |a: &SeatScore, b: &SeatScore| -> Ordering {
        match (a.score, b.score) {
            (Some(x), Some(y)) => y
                .total_cmp(&x)
                .then_with(|| key_cmp(a, b))
                .then_with(|| a.seat.cmp(&b.seat)),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => a.seat.cmp(&b.seat),
        }
    };
    seats.sort_by(full_cmp);
    let snapshot: Vec<SeatScore> = seats.to_vec();
    for (i, s) in seats.iter_mut().enumerate() {
        let Some(score) = s.score else { continue };
        let better = snapshot[..i]
            .iter()
            .filter(|o| {
                o.score.is_some_and(|x| x > score)
                    || (o.score == Some(score) && key_cmp(o, s) == Ordering::Less)
            })
            .count();
        s.rank = Some(better as u32 + 1);
        let same_score: Vec<&SeatScore> = snapshot
            .iter()
            .filter(|o| o.seat != s.seat && o.score == Some(score))
            .collect();
        if same_score.is_empty() {
            continue;
        }
        let still_tied = same_score.iter().any(|o| key_cmp(o, s) == Ordering::Equal);
        s.rank_shared = still_tied;
        s.tie = Some(if still_tied {
            if tie_break.is_empty() {
                "tied on score; the rubric declares no tie-break".into()
            } else {
                "tied on score and on every tie-break".into()
            }
        } else {
            // Name the first tie-break that separates this seat from every seat it ties with.
            let ka = &keys[&s.seat];
            let decisive = same_score
                .iter()
                .map(|o| {
                    let kb = &keys[&o.seat];
                    ka.iter().zip(kb).position(|(x, y)| x != y).unwrap_or(0)
                })
                .max()
                .unwrap_or(0);
            let names: Vec<String> = tie_break[..=decisive].iter().map(|t| t.name()).collect();
            format!("tied on score; broken on {}", names.join(", then "))
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn exponent_one_half_is_sqrt() {
        assert_eq!(pow(1.25, 0.5), 1.25f64.sqrt());
    }
}
