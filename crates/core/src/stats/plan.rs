//! Power and sample size from a wave's own data: how small a difference between two seats this
//! design can detect, and how many problems (or trials) a design needs to detect a given one.
//!
//! The paired test of [`super::versus`] compares d̄, the mean over the P shared problems of
//! d_p = m_A,p − m_B,p. Its variance is (ω² + σ²_A/K_A + σ²_B/K_B) / P: ω² the variance of the
//! problems' true differences, σ²_s the within-problem variance of seat s's trial outcomes and
//! K_s its trials per problem (Miller 2024, "Adding Error Bars to Evals", §5). The wave gives
//! V = Σ_p (d_p − d̄)² / P, which estimates the whole bracket, and σ²_s from the problems with at
//! least two trials (the unbiased variance c(n − c) / (n(n − 1)) of n trials of which c passed,
//! averaged), so ω² = max(0, V − σ²_A/K_A − σ²_B/K_B). With one trial per problem the two parts
//! cannot be told apart, and V stands for the bracket.
//!
//! A two-sided test at level α with power π detects δ when δ ≥ (z₁₋α/₂ + z_π) · sqrt(bracket / P),
//! which gives the minimum detectable effect at P problems and the problems needed for δ.

use std::collections::BTreeMap;

use super::trials::Problem;

/// The trials per problem `mde_by_trials` plans for.
pub(crate) const TRIALS: [u64; 4] = [1, 2, 4, 8];

/// A plan for comparing two seats.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// Shared problems.
    pub problems: u64,
    /// Mean trials per attempted problem, per seat.
    pub trials_a: f64,
    pub trials_b: f64,
    /// Within-problem variance of each seat's outcomes; `None` when no problem has two trials.
    pub sigma2_within_a: Option<f64>,
    pub sigma2_within_b: Option<f64>,
    /// V: the variance of the per-problem differences.
    pub v: f64,
    /// ω² = max(0, V − σ²_A/K_A − σ²_B/K_B); `None` when a σ² is.
    pub omega2_diff: Option<f64>,
    /// The smallest difference this design detects.
    pub mde: f64,
    /// K → the MDE with K trials each on the same problems (the wave's own K alone when the
    /// within and between parts cannot be told apart, and nothing then when the two seats'
    /// own trials differ).
    pub mde_by_trials: BTreeMap<u64, f64>,
    /// With a target difference: the problems needed at the wave's trials.
    pub problems_needed: Option<u64>,
    /// z₁₋α/₂ + z_power.
    pub z_sum: f64,
}

/// The unbiased variance of a seat's outcomes within a problem, averaged over its problems with
/// at least two trials; and its mean trials per attempted problem.
fn within(problems: &BTreeMap<String, Problem>) -> (Option<f64>, f64) {
    let (mut sum, mut n) = (0.0, 0u64);
    let (mut trials, mut attempted) = (0u64, 0u64);
    for p in problems.values() {
        trials += p.trials;
        attempted += 1;
        if p.trials >= 2 {
            let (t, c) = (p.trials as f64, p.passed as f64);
            sum += c * (t - c) / (t * (t - 1.0));
            n += 1;
        }
    }
    let k = if attempted > 0 {
        trials as f64 / attempted as f64
    } else {
        0.0
    };
    ((n > 0).then(|| sum / n as f64), k)
}

/// The plan for A against B at `alpha` (two-sided) and `power`, and with `delta` the problems
/// it needs. `None` with no shared problem, or α or power outside (0, 1).
pub fn plan(
    a: &BTreeMap<String, Problem>,
    b: &BTreeMap<String, Problem>,
    alpha: f64,
    power: f64,
    delta: Option<f64>,
) -> Option<Plan> {
    let d = super::versus::differences(a, b);
    if d.is_empty() {
        return None;
    }
    // z₁₋α/₂ as −z_α/₂: 1 − α/2 rounds to 1 for α below about 1e-16, which made a tiny α
    // read as "no shared problem" (issue 34).
    let z_sum = -super::normal::quantile(alpha / 2.0)? + super::normal::quantile(power)?;
    let p = d.len() as f64;
    let mean = d.iter().fold(0.0, |acc, x| acc + x) / p;
    let v = d.iter().fold(0.0, |acc, x| acc + (x - mean) * (x - mean)) / p;
    let (sa, ka) = within(a);
    let (sb, kb) = within(b);
    let mde_at = |bracket: f64| z_sum * (bracket / p).sqrt();
    let (bracket, omega2, by_trials) = match (sa, sb) {
        (Some(sa), Some(sb)) => {
            let omega2 = (v - sa / ka - sb / kb).max(0.0);
            let by: BTreeMap<u64, f64> = TRIALS
                .iter()
                .map(|&k| (k, mde_at(omega2 + (sa + sb) / k as f64)))
                .collect();
            (omega2 + sa / ka + sb / kb, Some(omega2), by)
        }
        _ => {
            // The wave's own design, named by its trials only when both seats have the same:
            // a 5-trial seat against a 1-trial one has no "K trials each" (issue 32 item 9).
            let (own_a, own_b) = (ka.round().max(1.0) as u64, kb.round().max(1.0) as u64);
            let by = if own_a == own_b {
                BTreeMap::from([(own_a, mde_at(v))])
            } else {
                BTreeMap::new()
            };
            (v, None, by)
        }
    };
    let problems_needed = delta
        .filter(|d| *d != 0.0)
        .map(|d| (z_sum * z_sum * bracket / (d * d)).ceil() as u64);
    Some(Plan {
        problems: d.len() as u64,
        trials_a: ka,
        trials_b: kb,
        sigma2_within_a: sa,
        sigma2_within_b: sb,
        v,
        omega2_diff: omega2,
        mde: mde_at(bracket),
        mde_by_trials: by_trials,
        problems_needed,
        z_sum,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::bootstrap::Draws;
    use crate::stats::testing::problems;

    #[test]
    fn a_plan_by_hand() {
        // Two problems, two trials each. A: 2/2, 1/2 → m = 1, 0.5; B: 0/2, 1/2 → 0, 0.5.
        // d = 1, 0: d̄ = 0.5, V = (0.25 + 0.25) / 2 = 0.25. σ²_A: (0 + 1·1/(2·1)) / 2 = 0.25,
        // σ²_B the same; K = 2: σ²/K = 0.125 each, ω² = max(0, 0.25 − 0.25) = 0.
        // z₀.₉₇₅ + z₀.₈ = 1.959963984540054 + 0.8416212335729143 = 2.801585218113;
        // MDE = 2.8016 · sqrt(0.25 / 2); at K = 1: sqrt(0.5 / 2); problems for δ = 0.1:
        // ceil(2.8016² · 0.25 / 0.01) = ceil(196.22) = 197.
        let a = problems(&[(2, 2), (2, 1)]);
        let b = problems(&[(2, 0), (2, 1)]);
        let p = plan(&a, &b, 0.05, 0.8, Some(0.1)).unwrap();
        let z = 1.959963984540054 + 0.8416212335729143;
        assert!((p.z_sum - z).abs() < 1e-14);
        assert_eq!(
            (p.v, p.sigma2_within_a, p.sigma2_within_b),
            (0.25, Some(0.25), Some(0.25))
        );
        assert_eq!(p.omega2_diff, Some(0.0));
        assert!((p.mde - z * (0.25f64 / 2.0).sqrt()).abs() < 1e-14);
        assert!((p.mde_by_trials[&1] - z * (0.5f64 / 2.0).sqrt()).abs() < 1e-14);
        assert!((p.mde_by_trials[&8] - z * (0.0625f64 / 2.0).sqrt()).abs() < 1e-14);
        assert_eq!(p.problems_needed, Some(197));
        // One trial each: no within variance; V stands in, and only the wave's own K is planned.
        let one = plan(
            &problems(&[(1, 1), (1, 0)]),
            &problems(&[(1, 0), (1, 0)]),
            0.05,
            0.8,
            None,
        )
        .unwrap();
        assert_eq!((one.sigma2_within_a, one.omega2_diff), (None, None));
        assert_eq!(
            one.mde_by_trials.keys().copied().collect::<Vec<_>>(),
            vec![1]
        );
        assert_eq!(one.problems_needed, None);
        assert!(plan(&a, &BTreeMap::new(), 0.05, 0.8, None).is_none());
    }

    /// Issue 32 item 9: a seat of 5 trials a problem against one of a single trial planned
    /// "with 3 trials each", a design neither seat ran. Without a within-problem variance for
    /// both, only the wave's own design is planned, and it is named by trials only when the two
    /// seats share it.
    #[test]
    fn issue_32_plan_names_no_trial_count_the_seats_do_not_share() {
        let five = problems(&[(5, 3), (5, 1), (5, 5)]);
        let one = problems(&[(1, 1), (1, 0), (1, 1)]);
        let p = plan(&five, &one, 0.05, 0.8, Some(0.1)).unwrap();
        assert_eq!((p.trials_a, p.trials_b), (5.0, 1.0));
        assert_eq!(p.omega2_diff, None);
        assert!(p.mde_by_trials.is_empty(), "{:?}", p.mde_by_trials);
        let (t, json) = crate::report::plan::plan("w", "a", "b", 0.05, 0.8, Some(0.1), &p);
        let text = format!("{t:?} {json:?}");
        assert!(!text.contains("trials each"), "{text}");
        assert!(
            json.notes
                .iter()
                .any(|n| n.contains("at these trials (5 / 1)")),
            "{:?}",
            json.notes
        );
    }

    /// Issue 34 (smaller): `plan --alpha 1e-17` said the seats "share no attempted problem":
    /// 1 − α/2 rounded to 1, whose quantile is none. Every α in (0, 1) plans, with a finite
    /// MDE, as long as the seats share a problem.
    #[test]
    fn issue_34_a_tiny_alpha_plans_rather_than_claiming_no_shared_problem() {
        let a = problems(&[(2, 2), (2, 1)]);
        let b = problems(&[(2, 0), (2, 1)]);
        for alpha in [1e-10, 1e-16, 1e-17, 1e-100, 1e-300, f64::MIN_POSITIVE] {
            let p = plan(&a, &b, alpha, 0.8, Some(0.1))
                .unwrap_or_else(|| panic!("alpha {alpha}: no plan"));
            assert!(
                p.z_sum.is_finite() && p.z_sum > 7.0,
                "alpha {alpha}: {}",
                p.z_sum
            );
            assert!(p.mde.is_finite(), "alpha {alpha}");
        }
    }

    /// A design of the size `problems_needed` names detects a true difference δ about `power`
    /// of the time: a pilot wave gives the plan; 400 simulated waves of that many problems,
    /// tested by the paired test at α = 0.05, reject in 80 % ± 5 % of them.
    #[test]
    fn problems_needed_gives_the_power_asked_for() {
        let mut world = Draws::new(1935);
        // Each problem's pass rate for A is one of 0.2, 0.5, 0.8; B's is A's less 0.1.
        let rates = [0.2, 0.5, 0.8];
        let trials = 2u64;
        let draw = |n: usize, world: &mut Draws| {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for _ in 0..n {
                let r = rates[world.below(3) as usize];
                let pass = |rate: f64, w: &mut Draws| {
                    (0..trials)
                        .filter(|_| (w.below(1_000_000) as f64) < rate * 1e6)
                        .count() as u64
                };
                a.push((trials, pass(r, world)));
                b.push((trials, pass(r - 0.1, world)));
            }
            (problems(&a), problems(&b))
        };
        let (pa, pb) = draw(2000, &mut world);
        let needed = plan(&pa, &pb, 0.05, 0.8, Some(0.1))
            .unwrap()
            .problems_needed
            .unwrap() as usize;
        assert!((100..2000).contains(&needed), "{needed}");
        let mut rejected = 0;
        for _ in 0..400 {
            let (a, b) = draw(needed, &mut world);
            let d = crate::stats::versus::differences(&a, &b);
            let t = crate::stats::versus::PairedTest::of(&d).unwrap();
            rejected += u32::from(t.p < 0.05);
        }
        assert!(
            (300..=340).contains(&rejected),
            "{rejected} of 400 at {needed} problems"
        );
    }
}
