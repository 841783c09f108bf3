//! The scale proof: by interval arithmetic over the rubric, the range its score can take for any
//! valid ledger data, compared with the scale the rubric declares.
//!
//! Every measure ranges over its domain (accuracy and outcome over [0, 1], counts, seconds and
//! dollars over [0, ∞), a mean per attempt over the domain of what it averages), each factor's transform, floor, cap and exponent narrow that range, and
//! the combination (product, weighted sums, division, penalties, clamp, gates) is followed step
//! by step. Because each factor reads a different measure, or the same measure through a
//! monotone transform, the bounds are attained (or approached) by real seats, and each bound
//! carries the conditions that reach it — so a rejection can say, in plain words, what kind of
//! seat leaves the scale.

use super::interval::{Bound, Interval};
use super::measure::Measure;
use super::spec::{Factor, Per, Role, Rubric, Transform};
use crate::number::pretty;

/// The verdict of `rubric check` on one rubric.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckReport {
    /// The range the score can take (after clamp and gates).
    pub range: Interval,
    /// The range before the final clamp.
    pub unclamped: Interval,
    /// Reasons the rubric breaks its scale; empty when it keeps it.
    pub violations: Vec<String>,
    /// Things worth knowing that do not break the scale.
    pub warnings: Vec<String>,
}

impl CheckReport {
    pub fn ok(&self) -> bool {
        self.violations.is_empty()
    }
}

/// "a seat" or "an attempt": what one score (before a seat's mean) is computed for.
fn level_word(per: Per) -> &'static str {
    match per {
        Per::Seat => "a seat",
        Per::Attempt => "an attempt",
    }
}

/// The range of a measure, with how each end is reached.
fn measure_range(m: Measure, per: Per) -> Interval {
    if m == Measure::CanaryFailures {
        // From none failed to every canary failed: as many as a wave declares, so without a
        // limit a rubric can rely on; one attempt fails at most its own problem.
        return match per {
            Per::Seat => Interval::new(
                Bound::new(
                    0.0,
                    vec!["canary_failures = 0 (every canary passed)".into()],
                ),
                Bound::new(
                    f64::INFINITY,
                    vec![
                        "canary_failures without limit (every one of the wave's canaries failed)"
                            .into(),
                    ],
                ),
            ),
            Per::Attempt => Interval::new(
                Bound::new(0.0, vec!["canary_failures 0 (not a failed canary)".into()]),
                Bound::new(1.0, vec!["canary_failures 1 (a failed canary)".into()]),
            ),
        };
    }
    let (lo, hi) = m.domain();
    let name = m.name();
    let (lo_why, hi_why) = match m {
        Measure::Accuracy => match per {
            Per::Seat => (
                "accuracy 0 (nothing Correct)".to_string(),
                "accuracy 1 (fully Correct)".to_string(),
            ),
            Per::Attempt => (
                "accuracy 0 (not Correct)".into(),
                "accuracy 1 (Correct)".into(),
            ),
        },
        Measure::Outcome => ("outcome 0".into(), "outcome 1".into()),
        _ => (format!("{name} = 0"), format!("{name} without limit")),
    };
    Interval::new(Bound::new(lo, vec![lo_why]), Bound::new(hi, vec![hi_why]))
}

/// How many times an allowance, in words: 0.8 → "at most 80% of", 4 → "at least 4× ".
fn share(x: f64) -> String {
    if (x - 1.0).abs() < 1e-12 {
        "its".into()
    } else if x < 1.0 {
        format!("{}% of", pretty(x * 100.0))
    } else {
        format!("{}×", pretty(x))
    }
}

/// The range of one factor's value, after transform, floor, cap and exponent.
fn factor_range(f: &Factor, per: Per) -> Interval {
    let clipped = clipped_range(f, per);
    if f.exponent == 1.0 {
        clipped
    } else {
        clipped.pow(f.exponent)
    }
}

/// The range of one factor's value after transform, floor and cap, before the exponent.
fn clipped_range(f: &Factor, per: Per) -> Interval {
    let m = f.measure.name();
    let raw = match f.transform {
        Transform::Value => measure_range(f.measure, per),
        Transform::AllowanceRatio(a) => {
            let a = a.name();
            // allowance / measure falls from +∞ (measure 0) to 0 (measure without limit).
            let cap = f.cap.unwrap_or(f64::INFINITY);
            let hi_why = if cap.is_finite() {
                format!("{m} at or under {} {a}", share(1.0 / cap))
            } else {
                format!("{m} = 0")
            };
            let lo_why = match f.floor {
                Some(fl) if fl > 0.0 => format!("{m} at or over {} {a}", share(1.0 / fl)),
                _ => format!("{m} far over {a}"),
            };
            Interval::new(
                Bound::new(0.0, vec![lo_why]),
                Bound::new(f64::INFINITY, vec![hi_why]),
            )
        }
        Transform::Linear { expected, slope } => {
            let dom = measure_range(f.measure, per);
            let at = |x: f64| {
                if x.is_infinite() {
                    if slope == 0.0 { 1.0 } else { f64::NEG_INFINITY }
                } else {
                    1.0 - (x - expected) * slope
                }
            };
            let hi_why = match f.cap {
                Some(c) if slope > 0.0 => {
                    format!("{m} at most {}", pretty(expected + (1.0 - c) / slope))
                }
                _ => dom.lo.why[0].clone(),
            };
            let lo_why = match f.floor {
                Some(fl) if slope > 0.0 => {
                    format!("{m} at least {}", pretty(expected + (1.0 - fl) / slope))
                }
                _ => dom.hi.why[0].clone(),
            };
            Interval::new(
                Bound::new(at(dom.hi.value), vec![lo_why]),
                Bound::new(at(dom.lo.value), vec![hi_why]),
            )
        }
        Transform::CohortRatio => Interval::new(
            Bound::new(0.0, vec![format!("{m} = 0")]),
            Bound::new(
                f64::INFINITY,
                vec![format!("{m} far above the wave's median")],
            ),
        ),
    };
    raw.clip(f.floor, f.cap)
}

/// The range of the score before clamp and gates, for one seat (or one attempt).
fn formula_range(r: &Rubric) -> Interval {
    let mut core = Interval::point(1.0);
    let mut add: Option<Interval> = None;
    let mut div: Option<Interval> = None;
    for f in &r.factors {
        let v = factor_range(f, r.per);
        match f.role {
            Role::Multiply => core = core.mul(&v),
            Role::Add => {
                let t = v.scale(f.weight);
                add = Some(match add {
                    None => t,
                    Some(s) => s.add(&t),
                })
            }
            Role::Divide => {
                let t = v.scale(f.weight);
                div = Some(match div {
                    None => t,
                    Some(s) => s.add(&t),
                })
            }
        }
    }
    if let Some(a) = add {
        core = core.mul(&a);
    }
    if let Some(d) = div {
        core = core.mul(&d.recip());
    }
    let mut score = core.scale(r.multiplier);
    for p in &r.penalties {
        let m = measure_range(p.measure, r.per);
        score = score.add(&m.scale(-p.per_unit));
    }
    score
}

/// Proves (or refutes) that a rubric's score stays inside its declared scale.
///
/// # Example
///
/// The shipped session-efficiency@1 multiplies bonuses that can take a 0–100 score to 125;
/// its successor caps them:
///
/// ```
/// use std::path::Path;
/// use benchledger_core::rubric;
///
/// let rubrics = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rubrics");
/// for (file, keeps_its_scale) in [
///     ("session-efficiency.v1.toml", false),
///     ("session-efficiency.v2.toml", true),
/// ] {
///     let path = rubrics.join(file);
///     let text = std::fs::read_to_string(&path).unwrap();
///     let proof = rubric::check(&rubric::parse(&path, &text).unwrap());
///     assert_eq!(proof.violations.is_empty(), keeps_its_scale, "{file}");
/// }
/// ```
pub fn check(r: &Rubric) -> CheckReport {
    let unclamped = formula_range(r);
    let mut range = unclamped.clip(r.clamp_min, r.clamp_max);
    if r.per == Per::Attempt {
        // The seat's score is the mean over attempts and missing problems.
        range = range.union(&Interval::new(
            Bound::new(r.missing_score, vec!["a declared problem missing".into()]),
            Bound::new(r.missing_score, vec!["a declared problem missing".into()]),
        ));
    }
    for g in &r.gates {
        let why = vec![format!("failing gate {:?}", g.name)];
        range = range.union(&Interval::new(
            Bound::new(g.score, why.clone()),
            Bound::new(g.score, why),
        ));
    }

    let mut violations = Vec::new();
    let mut warnings = Vec::new();
    let scale_words = r.scale.noun("a");
    let tol = |x: f64| 1e-9 * x.abs().max(1.0);
    let level = level_word(r.per);
    // x^e is proven (and defined, for a fractional e) only for x ≥ 0: a factor that can go
    // negative (an `expected` + `slope` factor without a floor) cannot take an exponent.
    for f in r.factors.iter().filter(|f| f.exponent != 1.0) {
        let base = clipped_range(f, r.per);
        if base.lo.value < 0.0 {
            violations.push(format!(
                "factor {:?} can be negative ({level} {} gives it {}), and its exponent {} is \
                 defined here only for values of 0 or more, so the score can be undefined: give \
                 the factor floor = 0",
                f.name,
                describe(&base.lo.why),
                pretty(base.lo.value),
                pretty(f.exponent)
            ));
        }
    }
    if let Some(max) = r.scale.max
        && range.hi.value > max + tol(max)
    {
        violations.push(format!(
            "the score can reach {} on {scale_words}: {level} {} scores {}, above the \
             scale's max of {}",
            pretty(range.hi.value),
            describe(&range.hi.why),
            pretty(range.hi.value),
            pretty(max)
        ));
    }
    if let Some(min) = r.scale.min
        && range.lo.value < min - tol(min)
    {
        violations.push(format!(
            "the score can fall to {} on {scale_words}: {level} {} scores {}, below the \
             scale's min of {}",
            pretty(range.lo.value),
            describe(&range.lo.why),
            pretty(range.lo.value),
            pretty(min)
        ));
    }
    if let Some(cmax) = r.clamp_max
        && unclamped.hi.value > cmax + tol(cmax)
    {
        warnings.push(format!(
            "clamp.max = {} hides that the formula reaches {} ({level} {}): capping the \
             final number hides a bad formula; cap the factors instead",
            pretty(cmax),
            pretty(unclamped.hi.value),
            describe(&unclamped.hi.why)
        ));
    }
    if r.relative {
        warnings.push(
            "relative: the score ranks seats against their own wave's median; it is shown as a \
             rank inside one wave and never compared across waves"
                .into(),
        );
    }
    CheckReport {
        range,
        unclamped,
        violations,
        warnings,
    }
}

/// "that is fully Correct, with tokens_total at or under 80% of budget.tokens and wall_s ..."
fn describe(why: &[String]) -> String {
    match why {
        [] => "of any kind".into(),
        [one] => format!("with {one}"),
        [init @ .., last] => format!("with {} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rubric::spec::parse;
    use std::path::Path;

    fn rubric(text: &str) -> Rubric {
        parse(Path::new("r.toml"), text).unwrap()
    }

    const V1: &str = r#"
name = "se"
version = 1
scale = { min = 0, max = 100 }
multiplier = 100
[[factor]]
name = "accuracy"
measure = "accuracy"
[[factor]]
name = "tokens"
measure = "tokens_total"
allowance = "budget.tokens"
floor = 0.25
cap = 1.25
exponent = 0.5
[[factor]]
name = "wall"
measure = "wall_s"
allowance = "budget.wall_s"
floor = 0.25
cap = 1.25
exponent = 0.5
"#;

    #[test]
    fn the_old_formula_is_caught_printing_125() {
        let rep = check(&rubric(V1));
        assert!(!rep.ok());
        assert_eq!(pretty(rep.range.hi.value), "125");
        assert_eq!(
            rep.violations[0],
            "the score can reach 125 on a 0–100 scale: a seat with accuracy 1 (fully Correct), \
             tokens_total at or under 80% of budget.tokens and wall_s at or under 80% of budget.wall_s \
             scores 125, above the scale's max of 100"
        );
    }

    #[test]
    fn capping_factors_at_one_keeps_the_scale() {
        let v2 = V1
            .replace("cap = 1.25", "cap = 1.0")
            .replace("exponent = 0.5\n", "");
        let rep = check(&rubric(&v2));
        assert!(rep.ok(), "{:?}", rep.violations);
        assert_eq!((rep.range.lo.value, rep.range.hi.value), (0.0, 100.0));
    }

    #[test]
    fn clamping_the_final_number_is_flagged() {
        let clamped = V1.replace(
            "multiplier = 100",
            "multiplier = 100\nclamp = { max = 100 }",
        );
        let rep = check(&rubric(&clamped));
        assert!(rep.ok());
        assert!(
            rep.warnings[0].contains("hides that the formula reaches 125"),
            "{:?}",
            rep.warnings
        );
    }

    const MEAN_ERRORS: &str = r#"
name = "careful"
version = 1
scale = { min = 0, max = 100 }
multiplier = 100
[[factor]]
name = "accuracy"
measure = "accuracy"
[[penalty]]
name = "errors"
measure = "mean.errors"
per_unit = 5
"#;

    #[test]
    fn a_penalty_on_a_mean_is_proven_over_the_range_of_one_attempt() {
        // The mean of errors per attempt is as unbounded as one attempt's errors.
        let rep = check(&rubric(MEAN_ERRORS));
        assert!(!rep.ok());
        assert_eq!(pretty(rep.range.lo.value), "-∞");
        assert_eq!(
            rep.violations[0],
            "the score can fall to -∞ on a 0–100 scale: a seat with accuracy 0 (nothing \
             Correct) and mean.errors without limit scores -∞, below the scale's min of 0"
        );
        // Floored, it keeps the scale; its top is a seat with no errors at all.
        let floored = check(&rubric(
            &MEAN_ERRORS.replace("multiplier = 100", "multiplier = 100\nclamp = { min = 0 }"),
        ));
        assert!(floored.ok(), "{:?}", floored.violations);
        assert_eq!(
            (floored.range.lo.value, floored.range.hi.value),
            (0.0, 100.0)
        );
        assert_eq!(
            floored.range.hi.why,
            ["accuracy 1 (fully Correct)", "mean.errors = 0"]
        );
    }

    #[test]
    fn a_mean_held_against_an_allowance_is_bounded_by_its_cap() {
        let v1_means = V1
            .replace("\"tokens_total\"", "\"mean.tokens_total\"")
            .replace("\"wall_s\"", "\"mean.wall_s\"");
        let rep = check(&rubric(&v1_means));
        assert_eq!(pretty(rep.range.hi.value), "125");
        assert_eq!(
            rep.violations[0],
            "the score can reach 125 on a 0–100 scale: a seat with accuracy 1 (fully Correct), \
             mean.tokens_total at or under 80% of budget.tokens and mean.wall_s at or under 80% \
             of budget.wall_s scores 125, above the scale's max of 100"
        );
    }
}
