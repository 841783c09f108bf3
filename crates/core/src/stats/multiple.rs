//! Many comparisons at once: every pair of a leaderboard's seats tested, and the answer kept
//! honest about how many tests were run.
//!
//! - `holm`: Holm's step-down adjustment (Holm 1979, "A simple sequentially rejective
//!   multiple test procedure"): the family-wise error rate held at α over all the pairs,
//!   uniformly more powerful than Bonferroni's. With the m p-values sorted ascending,
//!   p̃_(i) = max_{j ≤ i} min(1, (m − j + 1) · p_(j)).
//! - [`letters`]: a compact letter display (Piepho 2004, "An algorithm for a letter-based
//!   representation of all-pairwise comparisons"): each seat gets letters so that two seats
//!   share a letter if and only if they are not separable — the tie groups of a leaderboard.

/// Holm's adjusted p-values, in the order given. Ties keep their given order.
pub(crate) fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&i, &j| p[i].total_cmp(&p[j]));
    let mut adjusted = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

/// Letters for `n` seats (in the order they should read: the first seat's first letter is
/// `a`), given which pairs are separable: `separable(i, j)` for i < j. Two seats share a
/// letter if and only if they are not separable. Piepho's insert-and-absorb: start with one
/// letter for all; for each separable pair, split every letter holding both into one without
/// each; drop a letter whose seats another letter holds too. Letters are then named in the
/// order of their first seat: `a`–`z`, then `A`–`Z`, then `#53`, `#54`, ….
pub fn letters(n: usize, separable: impl Fn(usize, usize) -> bool) -> Vec<String> {
    let mut columns: Vec<Vec<bool>> = if n == 0 {
        Vec::new()
    } else {
        vec![vec![true; n]]
    };
    for i in 0..n {
        for j in i + 1..n {
            if !separable(i, j) {
                continue;
            }
            let mut next = Vec::with_capacity(columns.len() + 1);
            for c in columns {
                if c[i] && c[j] {
                    let mut without_i = c.clone();
                    without_i[i] = false;
                    let mut without_j = c;
                    without_j[j] = false;
                    next.push(without_i);
                    next.push(without_j);
                } else {
                    next.push(c);
                }
            }
            columns = absorb(next);
        }
    }
    columns.sort_by_key(|c| {
        (
            c.iter().position(|&x| x),
            c.iter().map(|&x| !x).collect::<Vec<_>>(),
        )
    });
    let name = |k: usize| match k {
        0..=25 => char::from(b'a' + k as u8).to_string(),
        26..=51 => char::from(b'A' + (k - 26) as u8).to_string(),
        _ => format!("#{}", k + 1),
    };
    (0..n)
        .map(|s| {
            columns
                .iter()
                .enumerate()
                .filter(|(_, c)| c[s])
                .map(|(k, _)| name(k))
                .collect()
        })
        .collect()
}

/// Drops every column whose seats another column holds too (and duplicates but the first).
fn absorb(columns: Vec<Vec<bool>>) -> Vec<Vec<bool>> {
    let within = |a: &[bool], b: &[bool]| a.iter().zip(b).all(|(&x, &y)| !x || y);
    let mut kept: Vec<Vec<bool>> = Vec::with_capacity(columns.len());
    for (k, c) in columns.iter().enumerate() {
        let absorbed = columns
            .iter()
            .enumerate()
            .any(|(l, d)| l != k && within(c, d) && (c != d || l < k));
        if !absorbed {
            kept.push(c.clone());
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holm_by_hand() {
        // m = 4, p = 0.01, 0.04, 0.03, 0.005. Sorted: 0.005 (×4 = 0.02), 0.01 (×3 = 0.03),
        // 0.03 (×2 = 0.06), 0.04 (×1 = 0.04 → held up to 0.06 by the running maximum).
        let adj = holm(&[0.01, 0.04, 0.03, 0.005]);
        let want = [0.03, 0.06, 0.06, 0.02];
        for (a, w) in adj.iter().zip(want) {
            assert!((a - w).abs() < 1e-15, "{adj:?}");
        }
        // Capped at 1.
        assert_eq!(holm(&[0.6, 0.9]), vec![1.0, 1.0]);
        assert_eq!(holm(&[]), Vec::<f64>::new());
    }

    #[test]
    fn letters_by_hand() {
        // Four seats, best first: 0 and 1 tie, 1 and 2 tie, 3 lies apart from all.
        let apart = [(0, 2), (0, 3), (1, 3), (2, 3)];
        let l = letters(4, |i, j| apart.contains(&(i, j)));
        assert_eq!(l, ["a", "ab", "b", "c"]);
        // Nothing separable: one group.
        assert_eq!(letters(3, |_, _| false), ["a", "a", "a"]);
        // Everything separable: a letter each.
        assert_eq!(letters(3, |_, _| true), ["a", "b", "c"]);
        assert_eq!(letters(0, |_, _| true), Vec::<String>::new());
    }

    /// On random separability patterns, two seats share a letter exactly when they are not
    /// separable.
    #[test]
    fn seats_share_a_letter_iff_they_are_not_separable() {
        let mut world = crate::stats::bootstrap::Draws::new(1979);
        for _ in 0..300 {
            let n = 1 + world.below(9) as usize;
            let apart: Vec<Vec<bool>> = (0..n)
                .map(|i| (0..n).map(|j| j > i && world.below(3) == 0).collect())
                .collect();
            let l = letters(n, |i, j| apart[i][j]);
            for i in 0..n {
                for j in i + 1..n {
                    let share = l[i].chars().any(|c| l[j].contains(c));
                    assert_eq!(share, !apart[i][j], "{apart:?} {l:?}");
                }
            }
        }
    }
}
