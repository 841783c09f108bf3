//! Two seats of one wave, paired on the problems both attempted: who solved what, the accuracy
//! difference with a paired bootstrap interval, and McNemar's exact test.

use std::collections::BTreeMap;

use super::bootstrap::{Interval, Settings, interval};
use super::mcnemar_exact;
use super::trials::Problem;

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
        for (id, pa) in a {
            let Some(pb) = b.get(id) else { continue };
            match (solved(pa), solved(pb)) {
                (true, true) => both += 1,
                (true, false) => only_a += 1,
                (false, true) => only_b += 1,
                (false, false) => neither += 1,
            }
            diffs.push(share(pa) - share(pb));
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
        }
    }

    /// The verdict in words.
    pub fn verdict(&self, a: &str, b: &str) -> String {
        if self.shared == 0 {
            return "no problem both attempted: nothing to compare".into();
        }
        if self.mcnemar_p < ALPHA {
            if self.only_a > self.only_b {
                format!("{a} ahead")
            } else {
                format!("{b} ahead")
            }
        } else {
            "no difference the data can show".into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(outcomes: &[(u64, u64)]) -> BTreeMap<String, Problem> {
        outcomes
            .iter()
            .enumerate()
            .map(|(i, &(trials, passed))| (format!("p{i:02}"), Problem { trials, passed }))
            .collect()
    }

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
