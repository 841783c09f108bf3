//! Cost-of-Pass per problem, as the Cost-of-Pass paper defines it (Erol et al. 2025,
//! arXiv 2504.13359): for each problem, the mean cost of an attempt on it divided by its success
//! rate over its trials — the expected cost of getting it right once. The pooled Cost-of-Pass
//! (total USD / number Correct, seed 000's) stays the headline; this one is printed beside it
//! with trials.
//!
//! A problem never passed has no finite cost of pass: it is counted apart, never averaged in as
//! infinity. A problem with any attempt of unknown cost has an unknown cost of pass, and the
//! figure says how many problems it covers. The frontier Cost-of-Pass of a wave takes, problem
//! by problem, the cheapest seat's.

use std::collections::BTreeMap;

use crate::model::Attempt;

/// One problem's cost of pass, when it was passed and every attempt's cost is known.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ProblemCost {
    /// Mean cost of an attempt ÷ success rate.
    Known(f64),
    /// No trial passed.
    NeverPassed,
    /// Some attempt's cost is unknown.
    Unknown,
}

/// Each attempted problem's cost of pass, by problem id.
pub(crate) fn per_problem(attempts: &[Attempt]) -> BTreeMap<String, ProblemCost> {
    // (trials, passed, cost sum, costs known)
    let mut by: BTreeMap<&str, (u64, u64, f64, u64)> = BTreeMap::new();
    for a in attempts {
        let e = by.entry(a.problem.as_str()).or_insert((0, 0, 0.0, 0));
        e.0 += 1;
        e.1 += u64::from(a.correct);
        if let Some(c) = a.cost_usd {
            e.2 += c;
            e.3 += 1;
        }
    }
    by.into_iter()
        .map(|(p, (trials, passed, cost, known))| {
            let v = if passed == 0 {
                ProblemCost::NeverPassed
            } else if known < trials {
                ProblemCost::Unknown
            } else {
                // (cost / trials) / (passed / trials) = cost / passed.
                ProblemCost::Known(cost / passed as f64)
            };
            (p.to_string(), v)
        })
        .collect()
}

/// A mean of per-problem costs of pass, with what it covers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    /// The mean over the problems with a known cost of pass; `None` when there is none.
    pub mean_usd: Option<f64>,
    /// Problems it averages over.
    pub problems: u64,
    /// Problems never passed (by this seat; for the frontier, by any seat), counted apart.
    pub never_passed: u64,
    /// Problems passed but with an attempt of unknown cost, left out.
    pub unknown: u64,
}

/// The summary of one seat's per-problem costs of pass; `missing` declared problems it never
/// attempted count as never passed.
pub(crate) fn summarise(costs: &BTreeMap<String, ProblemCost>, missing: u64) -> Summary {
    let (mut sum, mut n, mut never, mut unknown) = (0.0, 0, 0, 0);
    for c in costs.values() {
        match c {
            ProblemCost::Known(x) => {
                sum += x;
                n += 1;
            }
            ProblemCost::NeverPassed => never += 1,
            ProblemCost::Unknown => unknown += 1,
        }
    }
    Summary {
        mean_usd: (n > 0).then(|| sum / n as f64),
        problems: n,
        never_passed: never + missing,
        unknown,
    }
}

/// The frontier: problem by problem, the cheapest known cost of pass among the seats; a problem
/// no seat passed is counted apart (so is a declared one no seat attempted: `declared` is the
/// suite's size, when known); one passed only at unknown cost is left out.
pub fn frontier(seats: &[BTreeMap<String, ProblemCost>], declared: Option<u64>) -> Summary {
    let mut best: BTreeMap<&str, ProblemCost> = BTreeMap::new();
    for s in seats {
        for (p, c) in s {
            let e = best.entry(p.as_str()).or_insert(ProblemCost::NeverPassed);
            *e = match (*e, *c) {
                (ProblemCost::Known(a), ProblemCost::Known(b)) => ProblemCost::Known(a.min(b)),
                (ProblemCost::Known(a), _) | (_, ProblemCost::Known(a)) => ProblemCost::Known(a),
                (ProblemCost::Unknown, _) | (_, ProblemCost::Unknown) => ProblemCost::Unknown,
                _ => ProblemCost::NeverPassed,
            };
        }
    }
    let unattempted = declared.map_or(0, |n| n.saturating_sub(best.len() as u64));
    let owned: BTreeMap<String, ProblemCost> =
        best.into_iter().map(|(p, c)| (p.to_string(), c)).collect();
    summarise(&owned, unattempted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::testing;

    fn attempt(problem: &str, correct: bool, cost: Option<f64>) -> Attempt {
        Attempt {
            cost_usd: cost,
            ..testing::attempt(problem, 1, correct)
        }
    }

    #[test]
    fn by_hand() {
        // p1: 4 trials at $0.50, 1 passed: mean cost 0.5 / rate 0.25 = $2.00.
        // p2: 2 trials at $1 and $3, 2 passed: 2 / 1 = $2.00.
        // p3: never passed. p4: passed, one cost unknown.
        let mut a = vec![attempt("p1", true, Some(0.5))];
        a.extend((0..3).map(|_| attempt("p1", false, Some(0.5))));
        a.push(attempt("p2", true, Some(1.0)));
        a.push(attempt("p2", true, Some(3.0)));
        a.push(attempt("p3", false, Some(9.0)));
        a.push(attempt("p4", true, None));
        let c = per_problem(&a);
        assert_eq!(c["p1"], ProblemCost::Known(2.0));
        assert_eq!(c["p2"], ProblemCost::Known(2.0));
        assert_eq!(c["p3"], ProblemCost::NeverPassed);
        assert_eq!(c["p4"], ProblemCost::Unknown);
        let s = summarise(&c, 0);
        assert_eq!(s.mean_usd, Some(2.0));
        assert_eq!((s.problems, s.never_passed, s.unknown), (2, 1, 1));
        // A declared problem never attempted was never passed.
        assert_eq!(summarise(&c, 2).never_passed, 3);
        // A second seat passes p3 at $1 and p1 at $5: the frontier takes the cheaper of each.
        let other = per_problem(&[
            attempt("p3", true, Some(1.0)),
            attempt("p1", true, Some(5.0)),
        ]);
        let f = frontier(&[c.clone(), other.clone()], None);
        // p1 min(2, 5) = 2, p2 2, p3 1; p4 unknown: mean 5 / 3.
        assert_eq!((f.problems, f.never_passed, f.unknown), (3, 0, 1));
        assert!((f.mean_usd.unwrap() - 5.0 / 3.0).abs() < 1e-15);
        // Of a suite of 6, p5 and p6 no seat attempted.
        assert_eq!(frontier(&[c, other], Some(6)).never_passed, 2);
    }
}
