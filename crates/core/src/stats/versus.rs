//! Two seats of one wave, paired on the problems both attempted: who solved what, the accuracy
//! difference with a paired bootstrap interval, McNemar's exact test on the problems each
//! solved, and the paired test on every trial (Miller 2024, "Adding Error Bars to Evals", §4):
//! per shared problem the difference d_p of the two seats' shares of Correct trials, its mean
//! d̄, se = sqrt(Σ (d_p − d̄)²) / P, z = d̄ / se and the two-sided normal p-value. McNemar's test
//! reduces each problem to a majority vote; the paired test keeps every trial, so with more
//! than one trial the verdict is the paired test's.

use std::collections::BTreeMap;

use super::bootstrap::{Interval, Settings, interval};
use super::mcnemar_exact;
use super::trials::{Problem, SeatProblems};
use crate::model::WaveData;

/// The paired comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Paired {
    pub shared: u64,
    pub only_a: u64,
    pub only_b: u64,
    pub both: u64,
    pub neither: u64,
    /// Mean over shared problems of A's share of Correct trials minus B's; `None` with no
    /// shared problem.
    pub diff: Option<f64>,
    pub diff_ci: Option<Interval>,
    pub mcnemar_p: f64,
    /// The paired test on every trial: `None` with no shared problem.
    pub test: Option<PairedTest>,
    /// Some shared problem has more than one trial of either seat: the verdict is the paired
    /// test's.
    pub trials: bool,
}

/// The paired test on the per-problem differences d_p (see the module's documentation).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairedTest {
    pub mean_diff: f64,
    /// sqrt(Σ (d_p − d̄)²) / P.
    pub se: f64,
    /// d̄ / se; `None` when se is 0 (every problem differs by the same amount).
    pub z: Option<f64>,
    /// Two-sided normal p-value of z. With se = 0 there is no spread to scale z by: 1 when
    /// d̄ = 0, else (every one of the P problems differs by d̄, all the same way) the exact
    /// two-sided sign test's, min(1, 2 · ½ᴾ): one problem is no evidence, six are p = 0.031.
    pub p: f64,
    /// d̄ ∓ 1.959964 · se.
    pub ci95: [f64; 2],
}

/// z₀.₉₇₅, to the digits the 95 % interval is defined with.
pub(crate) const Z_95: f64 = 1.959964;

/// Fewer discordant problems than this, and McNemar's test has little power.
pub(crate) const FEW_DISCORDANT: u64 = 10;

impl PairedTest {
    /// The test on differences `d` (none: `None`). Sums run in the order given.
    pub fn of(d: &[f64]) -> Option<PairedTest> {
        if d.is_empty() {
            return None;
        }
        let n = d.len() as f64;
        let mean = d.iter().fold(0.0, |acc, x| acc + x) / n;
        let spread = d.iter().fold(0.0, |acc, x| acc + (x - mean) * (x - mean));
        let se = spread.sqrt() / n;
        let z = (se > 0.0).then(|| mean / se);
        let p = match z {
            Some(z) => super::normal::two_sided_p(z),
            None if mean == 0.0 => 1.0,
            // Under no difference each problem favours either seat with chance ½; all P the
            // same way has chance 2 · ½ᴾ (before, p was 0 here, and one problem was called
            // separable).
            None => (2.0 * 0.5f64.powf(n)).min(1.0),
        };
        Some(PairedTest {
            mean_diff: mean,
            se,
            z,
            p,
            ci95: [mean - Z_95 * se, mean + Z_95 * se],
        })
    }
}

/// The significance the verdict asks of McNemar's test.
pub const ALPHA: f64 = 0.05;

impl Paired {
    pub fn of(
        a: &BTreeMap<String, Problem>,
        b: &BTreeMap<String, Problem>,
        settings: &Settings,
    ) -> Paired {
        let solved = |p: &Problem| p.passed * 2 > p.trials;
        let share = |p: &Problem| p.passed as f64 / p.trials as f64;
        let mut diffs = Vec::new();
        let (mut only_a, mut only_b, mut both, mut neither) = (0, 0, 0, 0);
        let mut trials = false;
        for (id, pa) in a {
            let Some(pb) = b.get(id) else { continue };
            match (solved(pa), solved(pb)) {
                (true, true) => both += 1,
                (true, false) => only_a += 1,
                (false, true) => only_b += 1,
                (false, false) => neither += 1,
            }
            diffs.push(share(pa) - share(pb));
            trials |= pa.trials > 1 || pb.trials > 1;
        }
        let mean = |idx: &mut dyn Iterator<Item = f64>, n: usize| {
            (n > 0).then(|| idx.sum::<f64>() / n as f64)
        };
        let diff = mean(&mut diffs.iter().copied(), diffs.len());
        let diff_ci = interval(diffs.len(), settings, |idx| {
            mean(&mut idx.iter().map(|&i| diffs[i]), idx.len())
        });
        Paired {
            shared: diffs.len() as u64,
            only_a,
            only_b,
            both,
            neither,
            diff,
            diff_ci,
            mcnemar_p: mcnemar_exact(only_a, only_b),
            test: PairedTest::of(&diffs),
            trials,
        }
    }

    /// Problems one seat solved and the other did not.
    pub(crate) fn discordant(&self) -> u64 {
        self.only_a + self.only_b
    }

    /// The test the verdict rests on: the paired test with more than one trial, else McNemar's.
    pub(crate) fn verdict_test(&self) -> &'static str {
        if self.trials { "paired" } else { "mcnemar" }
    }

    /// The verdict in words.
    pub fn verdict(&self, a: &str, b: &str) -> String {
        if self.shared == 0 {
            return "no problem both attempted: nothing to compare".into();
        }
        let (p, a_ahead) = match (&self.test, self.trials) {
            (Some(t), true) => (t.p, t.mean_diff > 0.0),
            _ => (self.mcnemar_p, self.only_a > self.only_b),
        };
        if p < ALPHA {
            if a_ahead {
                format!("{a} ahead")
            } else {
                format!("{b} ahead")
            }
        } else {
            "no difference the data can show".into()
        }
    }
}

/// One pair of a leaderboard compared (see `all_pairs`).
#[derive(Debug, Clone, PartialEq)]
pub struct PairRow {
    /// Index of the seat with the higher per-problem mean (in the order given).
    pub a: usize,
    pub b: usize,
    pub shared: u64,
    /// The paired test; `None` with no shared problem.
    pub test: Option<PairedTest>,
    /// Holm's adjustment over all pairs (a pair without a shared problem counts as p = 1).
    pub p_holm: f64,
    /// p_holm < α.
    pub separable: bool,
}

/// Every pair of seats, each seat's problems given in the leaderboard's order (highest
/// per-problem mean first): the paired test on every trial, Holm's adjustment over all
/// m = n(n − 1)/2 pairs, and whether each pair is separable at `alpha`; with the tie groups as
/// letters ([`super::multiple::letters`]).
pub(crate) fn all_pairs(
    seats: &[&BTreeMap<String, Problem>],
    alpha: f64,
) -> (Vec<PairRow>, Vec<String>) {
    let n = seats.len();
    let mut rows = Vec::with_capacity(n * n.saturating_sub(1) / 2);
    for a in 0..n {
        for b in a + 1..n {
            let d = differences(seats[a], seats[b]);
            rows.push(PairRow {
                a,
                b,
                shared: d.len() as u64,
                test: PairedTest::of(&d),
                p_holm: 1.0,
                separable: false,
            });
        }
    }
    let p: Vec<f64> = rows.iter().map(|r| r.test.map_or(1.0, |t| t.p)).collect();
    for (r, adjusted) in rows.iter_mut().zip(super::multiple::holm(&p)) {
        r.p_holm = adjusted;
        r.separable = adjusted < alpha;
    }
    // Row of pair (i, j), i < j, by its place in the order they were pushed: a lookup, not a
    // scan of every pair for every pair (issue 34, #9: that made the letters quartic in seats).
    let at = |i: usize, j: usize| i * (2 * n - i - 1) / 2 + (j - i - 1);
    let apart = |i: usize, j: usize| rows[at(i, j)].separable;
    let letters = super::multiple::letters(n, apart);
    (rows, letters)
}

/// The most seats whose every pair is compared ([`TieGroups::of`]): 300 seats are 44,850 pairs.
/// Past it the pairwise statistics (the tie groups of `score --ci`, `show --ci`, `waves`,
/// `trials` and the site, and `versus --all`) are not computed, and say so: they need every
/// pair, which grows with the square of the seats (issue 34, #9: 1,000 seats took minutes,
/// 10,000 ran out of memory). README, "Limits".
pub(crate) const PAIRWISE_SEATS_MAX: usize = 300;

/// A wave's seats in one order (highest per-problem mean first, ties by seat id), every pair
/// compared (`all_pairs`) and the tie groups as letters: what `versus --all` prints, and the
/// letters `score --ci`, `show --ci` and the site print beside each seat's accuracy.
#[derive(Debug, Clone, PartialEq)]
pub struct TieGroups {
    pub alpha: f64,
    /// In order.
    pub seats: Vec<RankedSeat>,
    /// Every pair, `a` and `b` indexing `seats`.
    pub pairs: Vec<PairRow>,
    /// The pairs not compared, when the wave has more than `PAIRWISE_SEATS_MAX` seats (then
    /// `pairs` is empty and every seat's letters too); 0 otherwise.
    pub skipped_pairs: u64,
}

/// One seat of [`TieGroups`].
#[derive(Debug, Clone, PartialEq)]
pub struct RankedSeat {
    pub seat: String,
    /// The mean over the wave's problems of the seat's share of Correct trials (a missing
    /// problem counts as 0); `None` with no problem at all.
    pub mean_per_problem: Option<f64>,
    /// Problems the seat attempted.
    pub attempted: u64,
    /// Its letters: two seats share a letter if and only if they are not separable.
    pub letters: String,
}

impl TieGroups {
    /// Every seat of `data` compared with every other at family-wise error rate `alpha`.
    pub fn of(data: &WaveData, alpha: f64) -> TieGroups {
        let mut seats: Vec<(&str, SeatProblems)> = data
            .seats
            .iter()
            .map(|s| {
                (
                    s.seat.id.as_str(),
                    SeatProblems::of(&data.wave, &s.attempts),
                )
            })
            .collect();
        let mean = |p: &SeatProblems| p.clustered().map(|c| c.mean_per_problem);
        seats.sort_by(|(ia, a), (ib, b)| {
            let (ma, mb) = (mean(a).unwrap_or(-1.0), mean(b).unwrap_or(-1.0));
            mb.total_cmp(&ma).then(ia.cmp(ib))
        });
        let problems: Vec<_> = seats.iter().map(|(_, p)| &p.attempted).collect();
        let n = problems.len();
        let (pairs, letters, skipped_pairs) = if n > PAIRWISE_SEATS_MAX {
            let m = n as u64 * (n as u64 - 1) / 2;
            (Vec::new(), vec![String::new(); n], m)
        } else {
            let (pairs, letters) = all_pairs(&problems, alpha);
            (pairs, letters, 0)
        };
        TieGroups {
            alpha,
            seats: seats
                .iter()
                .zip(letters)
                .map(|((id, p), letters)| RankedSeat {
                    seat: id.to_string(),
                    mean_per_problem: mean(p),
                    attempted: p.attempted.len() as u64,
                    letters,
                })
                .collect(),
            pairs,
            skipped_pairs,
        }
    }

    /// A seat's letters; `None` for a seat not in the wave.
    pub fn letters(&self, seat: &str) -> Option<&str> {
        self.seats
            .iter()
            .find(|s| s.seat == seat)
            .map(|s| s.letters.as_str())
    }
}

/// Per problem both attempted (in problem order), A's share of Correct trials minus B's.
pub fn differences(a: &BTreeMap<String, Problem>, b: &BTreeMap<String, Problem>) -> Vec<f64> {
    let share = |p: &Problem| p.passed as f64 / p.trials as f64;
    a.iter()
        .filter_map(|(id, pa)| b.get(id).map(|pb| share(pa) - share(pb)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 34, #9: the seat-pair statistics were quadratic in seats with no bound, and the
    /// tie letters looked each pair up by scanning every pair (quartic). Past
    /// [`PAIRWISE_SEATS_MAX`] seats no pair is compared and the count skipped is said; up to it,
    /// 300 seats' letters come back in well under the time a scan took.
    #[test]
    fn issue_34_9_pairwise_statistics_are_bounded_and_say_what_they_skipped() {
        use crate::model::testing;
        let wave_of = |seats: usize| {
            let all = (0..seats)
                .map(|i| {
                    let attempts = (0..4)
                        .map(|p| testing::attempt(&format!("p{p}"), 1, (i + p) % 3 == 0))
                        .collect();
                    testing::seat(&format!("s{i:05}"), attempts)
                })
                .collect();
            testing::wave_data(testing::wave_of(None), all)
        };
        let big = TieGroups::of(&wave_of(PAIRWISE_SEATS_MAX + 1), 0.05);
        let n = (PAIRWISE_SEATS_MAX + 1) as u64;
        assert_eq!(big.skipped_pairs, n * (n - 1) / 2);
        assert!(big.pairs.is_empty() && big.seats.iter().all(|s| s.letters.is_empty()));
        let start = std::time::Instant::now();
        let at = TieGroups::of(&wave_of(PAIRWISE_SEATS_MAX), 0.05);
        assert_eq!(at.skipped_pairs, 0);
        assert_eq!(
            at.pairs.len(),
            PAIRWISE_SEATS_MAX * (PAIRWISE_SEATS_MAX - 1) / 2
        );
        assert!(at.seats.iter().all(|s| !s.letters.is_empty()));
        // Not a benchmark: a bound far above what the lookup takes, far below the scan.
        assert!(start.elapsed().as_secs() < 60, "{:?}", start.elapsed());
    }
    use crate::stats::testing::problems;

    #[test]
    fn a_clear_leader_and_a_tie() {
        // 12 shared problems: A solves all, B solves 2. Discordant 10–0: p = 2/1024.
        let a = problems(&[(1, 1); 12]);
        let mut b_out = vec![(1, 0); 12];
        b_out[0] = (1, 1);
        b_out[1] = (1, 1);
        let b = problems(&b_out);
        let p = Paired::of(&a, &b, &Settings::default());
        assert_eq!((p.shared, p.only_a, p.only_b, p.both), (12, 10, 0, 2));
        assert!((p.mcnemar_p - 2.0 / 1024.0).abs() < 1e-15);
        assert!((p.diff.unwrap() - 10.0 / 12.0).abs() < 1e-15);
        let ci = p.diff_ci.unwrap();
        assert!(ci.lo > 0.0 && ci.hi <= 1.0, "{ci:?}");
        assert_eq!(p.verdict("a", "b"), "a ahead");
        // 3–2 discordant: no difference the data can show.
        let a = problems(&[(1, 1), (1, 1), (1, 1), (1, 0), (1, 0)]);
        let b = problems(&[(1, 0), (1, 0), (1, 0), (1, 1), (1, 1)]);
        let p = Paired::of(&a, &b, &Settings::default());
        assert_eq!(p.verdict("a", "b"), "no difference the data can show");
        // Only problems both attempted are paired.
        let mut a = problems(&[(1, 1)]);
        a.insert(
            "only-a".into(),
            Problem {
                trials: 1,
                passed: 1,
            },
        );
        let p = Paired::of(&a, &problems(&[(1, 0)]), &Settings::default());
        assert_eq!(p.shared, 1);
        let none = Paired::of(&a, &BTreeMap::new(), &Settings::default());
        assert_eq!(none.diff, None);
        assert_eq!(
            none.verdict("a", "b"),
            "no problem both attempted: nothing to compare"
        );
    }

    /// Every problem differing by the same amount left se = 0 and p = 0, so `versus` called
    /// two seats separable on one problem. It is the exact sign test's p now.
    #[test]
    fn a_constant_difference_gets_the_sign_tests_p_not_zero() {
        assert_eq!(PairedTest::of(&[1.0]).unwrap().p, 1.0);
        assert_eq!(PairedTest::of(&[-1.0, -1.0]).unwrap().p, 0.5);
        assert_eq!(PairedTest::of(&[0.5; 6]).unwrap().p, 0.03125);
        assert_eq!(PairedTest::of(&[1.0; 2000]).unwrap().p, 0.0);
        // One problem, solved by one seat in each of its three trials and never by the other:
        // not separable.
        let a = BTreeMap::from([(
            "p1".to_string(),
            Problem {
                passed: 3,
                trials: 3,
            },
        )]);
        let b = BTreeMap::from([(
            "p1".to_string(),
            Problem {
                passed: 0,
                trials: 3,
            },
        )]);
        let paired = Paired::of(&a, &b, &Settings::default());
        assert_eq!(paired.test.unwrap().p, 1.0);
        assert_eq!(paired.verdict("a", "b"), "no difference the data can show");
    }

    #[test]
    fn the_paired_test_by_hand() {
        // Differences 0.5, 0, 1, 0.5: d̄ = 0.5, Σ (d − d̄)² = 0 + 0.25 + 0.25 + 0 = 0.5,
        // se = sqrt(0.5) / 4, z = 0.5 / se = 2·sqrt(2) = 2.828427..., and the two-sided
        // p = erfc(2) = 0.004677734981047266 (erfc(z / √2) with z / √2 = 2).
        let t = PairedTest::of(&[0.5, 0.0, 1.0, 0.5]).unwrap();
        assert_eq!(t.mean_diff, 0.5);
        let se = 0.5f64.sqrt() / 4.0;
        assert!((t.se - se).abs() < 1e-16);
        assert!((t.z.unwrap() - 2.0 * 2f64.sqrt()).abs() < 1e-14);
        assert!(
            (t.p / 0.004_677_734_981_047_266 - 1.0).abs() < 1e-6,
            "{}",
            t.p
        );
        assert_eq!(t.ci95, [0.5 - 1.959964 * se, 0.5 + 1.959964 * se]);
        // No spread: z undefined; p 1 at no difference, the sign test's at a constant one.
        let flat = PairedTest::of(&[0.0, 0.0]).unwrap();
        assert_eq!((flat.z, flat.p), (None, 1.0));
        assert_eq!(PairedTest::of(&[0.25, 0.25]).unwrap().p, 0.5);
        assert_eq!(PairedTest::of(&[]), None);
    }

    #[test]
    fn with_trials_the_verdict_is_the_paired_tests() {
        // 40 problems × 4 trials. A passes 3 of 4 everywhere; B 3 of 4 on every other
        // problem and 2 of 4 on the rest. The majority vote sees 20 problems both solved and
        // 20 only A solved; the paired test sees d = 0 on 20 problems and 0.25 on 20.
        let a = problems(&[(4, 3); 40]);
        let mut b_out = vec![(4, 2); 40];
        for p in b_out.iter_mut().step_by(2) {
            *p = (4, 3);
        }
        let b = problems(&b_out);
        let p = Paired::of(&a, &b, &Settings::default());
        assert!(p.trials);
        assert_eq!(p.verdict_test(), "paired");
        let t = p.test.unwrap();
        // d̄ = 0.125; Σ (d − d̄)² = 40 · 0.125² = 0.625; se = sqrt(0.625) / 40.
        assert_eq!(t.mean_diff, 0.125);
        assert!((t.se - 0.625f64.sqrt() / 40.0).abs() < 1e-16);
        assert!(t.p < 1e-9);
        assert_eq!(p.verdict("a", "b"), "a ahead");
        // One trial each: McNemar's verdict.
        let one = Paired::of(
            &problems(&[(1, 1)]),
            &problems(&[(1, 0)]),
            &Settings::default(),
        );
        assert_eq!(one.verdict_test(), "mcnemar");
        assert_eq!(one.discordant(), 1);
    }

    #[test]
    fn all_pairs_by_hand() {
        // Three seats over 40 single-trial problems: `top` solves 36, `mid` 34 of the same,
        // `low` 10. top − mid: d = 1 on 2 problems, 0 elsewhere: d̄ = 0.05, Σ (d − d̄)² =
        // 2 · 0.95² + 38 · 0.05² = 1.9, se = sqrt(1.9) / 40, z = 1.451, p = 0.1468; the other
        // two pairs are far apart (p < 1e-9). Holm over 3: the smallest two ×3 and ×2, top–mid
        // ×1 (0.1468): top and mid share a letter, low has its own.
        let solve =
            |k: usize| problems(&(0..40).map(|i| (1, u64::from(i < k))).collect::<Vec<_>>());
        let (top, mid, low) = (solve(36), solve(34), solve(10));
        let (rows, letters) = all_pairs(&[&top, &mid, &low], 0.05);
        assert_eq!(rows.len(), 3);
        let tm = &rows[0];
        assert_eq!((tm.a, tm.b, tm.shared), (0, 1, 40));
        let t = tm.test.unwrap();
        assert!((t.se - 1.9f64.sqrt() / 40.0).abs() < 1e-16);
        let p = super::super::normal::two_sided_p(0.05 / (1.9f64.sqrt() / 40.0));
        assert_eq!(t.p, p);
        assert!((p - 0.1468).abs() < 1e-4, "{p}");
        assert_eq!(tm.p_holm, p);
        assert!(!tm.separable);
        assert!(rows[1].separable && rows[2].separable);
        let (p1, p2) = (rows[1].test.unwrap().p, rows[2].test.unwrap().p);
        let (lo, hi) = (p1.min(p2), p1.max(p2));
        let holm = |p: f64| {
            if p == lo {
                3.0 * lo
            } else {
                (3.0 * lo).max(2.0 * hi)
            }
        };
        assert_eq!((rows[1].p_holm, rows[2].p_holm), (holm(p1), holm(p2)));
        assert_eq!(letters, ["a", "a", "b"]);
    }

    #[test]
    fn with_trials_a_problem_is_solved_by_a_majority() {
        // A passes 3 of 5 (solved), B 2 of 4 (not: a half is not more than half).
        let p = Paired::of(
            &problems(&[(5, 3)]),
            &problems(&[(4, 2)]),
            &Settings::default(),
        );
        assert_eq!((p.only_a, p.only_b), (1, 0));
        assert!((p.diff.unwrap() - (0.6 - 0.5)).abs() < 1e-15);
    }
}
