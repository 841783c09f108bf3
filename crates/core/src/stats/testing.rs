//! Test data for the statistics, built one way (as [`crate::model::testing`] builds waves and
//! seats): a seat's problems from its outcomes.

use std::collections::BTreeMap;

use super::trials::Problem;

/// A seat's problems `p00`, `p01`, ..., one per `(trials, passed)` in `outcomes`, in order.
pub(crate) fn problems(outcomes: &[(u64, u64)]) -> BTreeMap<String, Problem> {
    outcomes
        .iter()
        .enumerate()
        .map(|(i, &(trials, passed))| (format!("p{i:02}"), Problem { trials, passed }))
        .collect()
}
