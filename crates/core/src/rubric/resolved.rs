//! A per-attempt formula resolved once for a rubric on a wave: the fast path a rescore takes
//! on every attempt (issue 32 item 11).
//!
//! [`super::interpret`]'s formula, on one attempt, reads each factor's measure, looks up its
//! transform (an allowance ratio reads the wave's budget), clips, raises, and adds, giving a
//! reason wherever a step is undefined. Most of that is the same for every attempt of a wave:
//! here it is looked up once, when the scorer is made (each measure as the field it reads, each
//! allowance as its number), and what is left runs on every attempt with the same operations
//! in the same order, so the same bits. Where any step is undefined the fast path gives
//! nothing, and the formula with its reasons ([`super::interpret::Env::formula`]) says why.

use super::arith::pow;
use super::interpret::{Combined, Values, clip};
use super::measure::{Measure, errors_after_free_retries};
use super::spec::{Role, Rubric, Transform};
use crate::model::{Attempt, Wave};

/// A per-attempt rubric's formula on one wave, looked up ahead of its attempts.
#[derive(Debug)]
pub(super) struct Resolved<'a> {
    wave: &'a Wave,
    factors: Vec<Factor>,
    penalties: Vec<Penalty>,
    multiplier: f64,
    clamp_min: Option<f64>,
    clamp_max: Option<f64>,
}

/// Where a measure of one attempt comes from: one of the fields the shipped per-attempt
/// rubrics read, or any other measure ([`Measure::of_attempt`]).
#[derive(Debug, Clone, Copy)]
enum Read {
    Outcome,
    Verdict,
    Steps,
    Errors,
    Other,
}

/// A factor's transform, its allowance read from the wave's budget.
#[derive(Debug, Clone, Copy)]
enum Raw {
    Value,
    /// allowance / measure; `at_zero` (the cap, or `f64::MAX`) where the measure is 0.
    Ratio {
        allowance: f64,
        at_zero: f64,
    },
    Linear {
        expected: f64,
        slope: f64,
    },
}

#[derive(Debug)]
struct Factor {
    read: Read,
    measure: Measure,
    raw: Raw,
    floor: Option<f64>,
    cap: Option<f64>,
    exponent: f64,
    weight: f64,
    role: Role,
}

#[derive(Debug)]
struct Penalty {
    read: Read,
    measure: Measure,
    /// For a penalty counting errors after free retries: how many it forgives.
    free_retries: Option<u32>,
    per_unit: f64,
}

impl Read {
    fn of(m: Measure) -> Read {
        match m {
            Measure::Outcome => Read::Outcome,
            Measure::Accuracy | Measure::Correct => Read::Verdict,
            Measure::Steps => Read::Steps,
            Measure::Errors => Read::Errors,
            _ => Read::Other,
        }
    }

    /// The measure `m` (which this is [`Read::of`]) of attempt `a`, as
    /// [`Measure::of_attempt`] gives it.
    #[inline(always)]
    fn value(self, m: Measure, a: &Attempt, wave: &Wave) -> Option<f64> {
        match self {
            Read::Outcome => Some(a.outcome_or_verdict()),
            Read::Verdict => Some(if a.correct { 1.0 } else { 0.0 }),
            Read::Steps => a.steps.map(f64::from),
            Read::Errors => a.errors.map(f64::from),
            Read::Other => m.of_attempt(a, wave),
        }
    }
}

impl<'a> Resolved<'a> {
    /// Rubric `r`'s per-attempt formula on `wave` (whether or not `r` is scored per attempt):
    /// `None` where a factor is undefined on every attempt (a cohort ratio, which reads the
    /// wave's medians; an allowance the wave's budget does not give).
    pub(super) fn of(r: &Rubric, wave: &'a Wave) -> Option<Resolved<'a>> {
        let factors = r
            .factors
            .iter()
            .map(|f| {
                let raw = match f.transform {
                    Transform::Value => Raw::Value,
                    Transform::AllowanceRatio(al) => Raw::Ratio {
                        allowance: al.per_problem(&wave.budget)?,
                        at_zero: f.cap.unwrap_or(f64::MAX),
                    },
                    Transform::Linear { expected, slope } => Raw::Linear { expected, slope },
                    Transform::CohortRatio => return None,
                };
                Some(Factor {
                    read: Read::of(f.measure),
                    measure: f.measure,
                    raw,
                    floor: f.floor,
                    cap: f.cap,
                    exponent: f.exponent,
                    weight: f.weight,
                    role: f.role,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let penalties = r
            .penalties
            .iter()
            .map(|p| Penalty {
                read: Read::of(p.measure),
                measure: p.measure,
                free_retries: p.forgives_retries().then_some(p.free_retries),
                per_unit: p.per_unit,
            })
            .collect();
        Some(Resolved {
            wave,
            factors,
            penalties,
            multiplier: r.multiplier,
            clamp_min: r.clamp_min,
            clamp_max: r.clamp_max,
        })
    }

    /// The formula's factors on attempt `a` where every one is defined and finite: Π multiply
    /// × Σ add / Σ divide, each factor's value recorded in `values`. `None` where one is not
    /// (then `values` holds a part, to clear), or `values` has no room.
    #[inline(always)]
    pub(super) fn factors(&self, a: &Attempt, values: &mut Values) -> Option<f64> {
        let mut combined = Combined::START;
        for f in &self.factors {
            let m = f.read.value(f.measure, a, self.wave)?;
            let raw = match f.raw {
                Raw::Value => m,
                Raw::Ratio { allowance, at_zero } => {
                    if m == 0.0 {
                        at_zero
                    } else {
                        allowance / m
                    }
                }
                Raw::Linear { expected, slope } => 1.0 - (m - expected) * slope,
            };
            let v = pow(clip(raw, f.floor, f.cap), f.exponent);
            if !v.is_finite() {
                return None;
            }
            values.push(v)?;
            combined.take(f.role, f.weight, v);
        }
        combined.core()
    }

    /// The score of attempt `a` from its factors' `core`, where every penalty is defined:
    /// multiplier × core − each penalty's points (recorded in `values`), clamped. `None`
    /// where one is not, or `values` has no room.
    #[inline(always)]
    pub(super) fn penalties(&self, core: f64, a: &Attempt, values: &mut Values) -> Option<f64> {
        let mut score = self.multiplier * core;
        for p in &self.penalties {
            let amount = match p.free_retries {
                Some(free) => errors_after_free_retries(a, free)?,
                None => p.read.value(p.measure, a, self.wave)?,
            };
            let points = p.per_unit * amount;
            values.push(points)?;
            score -= points;
        }
        Some(clip(score, self.clamp_min, self.clamp_max))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::rubric::interpret::{Env, Unit};

    /// The fast path ([`Resolved`]) gives the general path's bits
    /// and values on every attempt where it gives anything, for every shipped rubric, and
    /// gives nothing only where the general path is undefined (or a factor is a cohort ratio).
    #[test]
    fn the_resolved_formula_is_the_general_formula() {
        use crate::model::{Budget, TraceStep, testing};
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rubrics");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
        files.sort();
        assert!(files.len() >= 7, "{files:?}");
        let mut wave = testing::wave_of(None);
        wave.budget = Budget {
            tokens: Some(5000.0),
            wall_s: Some(60.0),
            cost_usd: Some(0.5),
        };
        let attempts: Vec<Attempt> = (0..60u32)
            .map(|n| Attempt {
                outcome: (n % 3 == 0).then_some(f64::from(n % 5) / 4.0),
                input_tokens: (n % 7 != 0).then_some(u64::from(n) * 97),
                output_tokens: Some(u64::from(n) * 13),
                wall_s: (n % 11 != 0).then_some(f64::from(n) * 1.7),
                cost_usd: Some(f64::from(n) * 0.013),
                steps: (n % 13 != 0).then_some(n % 17),
                errors: (n % 19 != 0).then_some(n % 4),
                trace: (n % 5 == 1).then(|| {
                    (0..n % 6)
                        .map(|i| TraceStep {
                            tool: format!("t{}", i % 2),
                            ok: i % 3 == 0,
                            error: None,
                        })
                        .collect()
                }),
                ..testing::attempt(&format!("p{n}"), 1, n % 2 == 0)
            })
            .collect();
        let env = Env {
            wave: &wave,
            medians: BTreeMap::new(),
        };
        let mut fast_some = 0;
        for file in &files {
            let text = std::fs::read_to_string(file).unwrap();
            let r = crate::rubric::parse(file, &text).unwrap();
            for a in &attempts {
                let (mut fast_values, mut slow_values) = (Values::EMPTY, Vec::new());
                let fast = Resolved::of(&r, &wave).and_then(|f| {
                    f.factors(a, &mut fast_values)
                        .and_then(|core| f.penalties(core, a, &mut fast_values))
                });
                let fast_values = fast_values.as_slice();
                let slow = env.formula(&r, &Unit::Attempt(a), &mut slow_values);
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                match (fast, &slow) {
                    (Some(f), Ok(s)) => {
                        fast_some += 1;
                        assert_eq!(f.to_bits(), s.to_bits(), "{file:?} {}", a.problem);
                        assert_eq!(bits(fast_values), bits(&slow_values), "{file:?}");
                    }
                    (None, Err(_)) => {}
                    (None, Ok(_)) => assert!(
                        r.factors
                            .iter()
                            .any(|f| f.transform == Transform::CohortRatio),
                        "{file:?} {}: the fast path gave nothing where the formula is defined",
                        a.problem
                    ),
                    (Some(_), Err(why)) => panic!("{file:?} {}: {why}", a.problem),
                }
            }
        }
        assert!(fast_some > 100, "{fast_some}");
    }
}
