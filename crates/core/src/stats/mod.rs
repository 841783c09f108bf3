//! Statistics: how sure a number is. Pure, like the rubric interpreter: data in, numbers out,
//! every result the same on every machine (fixed summation order; a named, portable random
//! generator for resampling, see [`bootstrap`]).
//!
//! - [`pass_at_k`], [`pass_hat_k`]: the chance that at least one of k trials passes (the
//!   unbiased estimator of Chen et al. 2021, "Evaluating Large Language Models Trained on
//!   Code", eq. 1), and that all k pass (tau-bench's pass^k, Yao et al. 2024), from n trials of
//!   which c passed;
//! - [`mcnemar_exact`]: McNemar's exact test on the discordant pairs of a paired comparison
//!   (two-sided binomial test with p = 1/2);
//! - [`quantile`]: the quantile definition every interval uses;
//! - [`check_suite_size`]: the refusal of a suite too large to resample;
//! - [`trials`]: a seat's repeated trials, problem by problem;
//! - [`versus`]: two seats paired on the problems both attempted;
//! - `cost_of_pass`: the Cost-of-Pass paper's per-problem definition, and the frontier;
//! - [`bootstrap`]: the generator and the percentile bootstrap over problems;
//! - [`multiple`]: Holm's adjustment over many comparisons, and tie groups as letters;
//! - [`normal`]: the standard normal's tail and quantiles;
//! - [`plan`]: power and sample size from a wave's own variance;
//! - `sums`: a leaderboard's resamples summed from per-problem totals;
//! - [`leaderboard`]: every seat of a wave resampled on the same problems: intervals for
//!   accuracy, Cost-of-Pass and a rubric's score, and rank ranges.

use crate::error::{Error, Result};
use crate::model::{MAX_SUITE_PROBLEMS, MAX_SUITE_PROBLEMS_TEXT, SuiteProblems, Wave};

pub mod bootstrap;
pub(crate) mod cost_of_pass;
pub mod leaderboard;
pub mod multiple;
pub mod normal;
pub mod plan;
mod sums;
#[cfg(test)]
pub(crate) mod testing;
pub mod trials;
pub mod versus;

/// Refuses a wave whose suite is declared larger than [`MAX_SUITE_PROBLEMS`], before anything
/// draws its problems: an interval or a comparison draws every problem of the suite on each
/// resample, a declared one no seat attempted too, so such a wave would take gigabytes (or
/// more than memory can hold). Ingest refuses such a number; a ledger written before it did
/// may hold one.
pub fn check_suite_size(wave: &Wave) -> Result<()> {
    match &wave.suite_problems {
        Some(SuiteProblems::Count(n)) if *n > MAX_SUITE_PROBLEMS => Err(Error::Usage(format!(
            "wave `{}` declares {n} problems in its suite (`suite_problems`), more than the \
             {MAX_SUITE_PROBLEMS_TEXT} benchledger draws intervals and comparisons over (the \
             wave was ingested before that limit): they cannot be drawn for it. Its listings \
             without intervals still can; to draw them, ingest the wave again under a new id \
             with its suite's real size",
            wave.id
        ))),
        _ => Ok(()),
    }
}

/// pass@k from `n` trials of which `c` passed: 1 − C(n−c, k) / C(n, k), the chance that at
/// least one of k trials drawn without replacement passes. `None` when there are fewer than k
/// trials (or k is 0). Computed as 1 − Π_{i=n−c+1}^{n} (1 − k/i), which never forms a binomial
/// coefficient.
pub fn pass_at_k(n: u64, c: u64, k: u64) -> Option<f64> {
    if k == 0 || n < k || c > n {
        return None;
    }
    if n - c < k {
        return Some(1.0);
    }
    let mut all_fail = 1.0;
    for i in (n - c + 1)..=n {
        all_fail *= 1.0 - k as f64 / i as f64;
    }
    Some(1.0 - all_fail)
}

/// pass^k from `n` trials of which `c` passed: C(c, k) / C(n, k), the chance that k trials
/// drawn without replacement all pass. `None` when there are fewer than k trials (or k is 0).
/// Computed as Π_{i=0}^{k−1} (c − i) / (n − i).
pub fn pass_hat_k(n: u64, c: u64, k: u64) -> Option<f64> {
    if k == 0 || n < k || c > n {
        return None;
    }
    if c < k {
        return Some(0.0);
    }
    let mut all_pass = 1.0;
    for i in 0..k {
        all_pass *= (c - i) as f64 / (n - i) as f64;
    }
    Some(all_pass)
}

/// McNemar's exact p-value for `b` pairs where only the first passed and `c` where only the
/// second did: the two-sided binomial test of b against Binomial(b + c, 1/2),
/// min(1, 2 · P(X ≤ min(b, c))). 1 when there is no discordant pair.
pub fn mcnemar_exact(b: u64, c: u64) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    // P(X = i) = C(n, i) / 2^n, built up term by term in logs so large n cannot overflow.
    let ln_half_n = -(n as f64) * std::f64::consts::LN_2;
    let mut ln_choose = 0.0; // ln C(n, 0)
    let mut tail = 0.0;
    for i in 0..=b.min(c) {
        if i > 0 {
            ln_choose += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        tail += (ln_choose + ln_half_n).exp();
    }
    (2.0 * tail).min(1.0)
}

/// The `q` quantile (0 ≤ q ≤ 1) of sorted values, by the nearest-rank definition: the value
/// at 1-based rank ⌈q · n⌉ (rank 1 for q = 0). `None` for no values.
pub fn quantile(sorted: &[f64], q: f64) -> Option<f64> {
    Some(sorted[quantile_index(sorted.len(), q)?])
}

/// Where [`quantile`] reads among `n` sorted values: the index of the nearest rank
/// ceil(q · n), clamped to 1..=n, less one. `None` when `n` is 0.
pub fn quantile_index(n: usize, q: f64) -> Option<usize> {
    if n == 0 {
        return None;
    }
    Some(((q * n as f64).ceil() as usize).clamp(1, n) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every k-subset of n trials of which the first c pass: (subsets with a pass, subsets all
    /// passing, subsets).
    fn enumerate(n: u64, c: u64, k: u64) -> (u64, u64, u64) {
        let (mut any, mut all, mut total) = (0, 0, 0);
        for mask in 0u32..(1 << n) {
            if u64::from(mask.count_ones()) != k {
                continue;
            }
            let passing = u64::from((mask & ((1 << c) - 1)).count_ones());
            total += 1;
            any += u64::from(passing > 0);
            all += u64::from(passing == k);
        }
        (any, all, total)
    }

    proptest! {
        #[test]
        fn the_estimators_are_the_shares_of_k_subsets(n in 1u64..=12, c in 0u64..=12, k in 1u64..=12) {
            prop_assume!(c <= n && k <= n);
            let (any, all, total) = enumerate(n, c, k);
            let at = pass_at_k(n, c, k).unwrap();
            let hat = pass_hat_k(n, c, k).unwrap();
            prop_assert!((at - any as f64 / total as f64).abs() < 1e-12, "{at} vs {any}/{total}");
            prop_assert!((hat - all as f64 / total as f64).abs() < 1e-12, "{hat} vs {all}/{total}");
        }
    }

    #[test]
    fn fewer_trials_than_k_say_nothing() {
        assert_eq!(pass_at_k(3, 1, 4), None);
        assert_eq!(pass_hat_k(3, 1, 4), None);
        assert_eq!(pass_at_k(3, 1, 0), None);
        assert_eq!(pass_at_k(5, 5, 5), Some(1.0));
        assert_eq!(pass_hat_k(5, 4, 5), Some(0.0));
        // One trial: both are the share passed.
        assert_eq!(pass_at_k(1, 1, 1), Some(1.0));
        assert_eq!(pass_hat_k(1, 0, 1), Some(0.0));
    }

    #[test]
    fn mcnemar_is_the_binomial_tail() {
        // b = 0, c = 5: 2 · (1/2)^5 = 0.0625.
        assert!((mcnemar_exact(0, 5) - 0.0625).abs() < 1e-15);
        // b = 1, c = 9: 2 · (1 + 10) / 1024 = 0.021484375.
        assert!((mcnemar_exact(1, 9) - 0.021_484_375).abs() < 1e-15);
        assert!((mcnemar_exact(9, 1) - 0.021_484_375).abs() < 1e-15);
        // b = 3, c = 3: the whole distribution's lower half and more: capped at 1.
        assert_eq!(mcnemar_exact(3, 3), 1.0);
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        // Large counts stay finite.
        let p = mcnemar_exact(400, 600);
        assert!(p > 0.0 && p < 1e-9, "{p}");
    }

    #[test]
    fn quantiles_are_by_nearest_rank() {
        let v = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0];
        assert_eq!(quantile(&v, 0.025), Some(1.0));
        assert_eq!(quantile(&v, 0.5), Some(5.0));
        assert_eq!(quantile(&v, 0.975), Some(10.0));
        assert_eq!(quantile(&v, 0.0), Some(1.0));
        assert_eq!(quantile(&[], 0.5), None);
    }
}
