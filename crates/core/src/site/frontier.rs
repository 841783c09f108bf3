//! The cost–accuracy frontier of a wave, two ways, both pure.
//!
//! - **The Pareto set**: a seat is in it when no other seat is at least as accurate for no more
//!   cost, one of them strictly. Seats equal on both count as each other's peers, and both stay.
//! - **The frontier as HAL draws it** ("AI Agents That Matter", Kapoor et al. 2024, and the
//!   Holistic Agent Leaderboard): the vertices of the upper convex hull of the (cost, accuracy)
//!   points that are Pareto-efficient, joined in order of cost. A Pareto-efficient seat under the
//!   hull (a seat a mix of two others would beat in expectation) is in the Pareto set but not a
//!   frontier vertex; points collinear with a hull edge are not vertices.
//!
//! Points whose cost or accuracy is not a finite number are the caller's to leave out: these
//! functions take only plotted points.

/// A plotted seat: its cost (x) and accuracy (y).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub cost: f64,
    pub accuracy: f64,
}

/// Whether `a` dominates `b`: at least as accurate for no more cost, one of them strictly.
fn dominates(a: Point, b: Point) -> bool {
    a.accuracy >= b.accuracy && a.cost <= b.cost && (a.accuracy > b.accuracy || a.cost < b.cost)
}

/// For each point, whether it is in the Pareto set.
pub fn pareto(points: &[Point]) -> Vec<bool> {
    points
        .iter()
        .map(|&p| !points.iter().any(|&q| dominates(q, p)))
        .collect()
}

/// Whether the turn a → b → c is not clearly clockwise (right): a left turn, or a straight
/// line to within rounding (so that points collinear in decimal are collinear here too).
fn not_right_turn(a: Point, b: Point, c: Point) -> bool {
    let (ux, uy) = (b.cost - a.cost, b.accuracy - a.accuracy);
    let (vx, vy) = (c.cost - b.cost, c.accuracy - b.accuracy);
    let cross = ux * vy - uy * vx;
    cross >= -1e-12 * (ux.abs() + uy.abs()) * (vx.abs() + vy.abs())
}

/// The frontier as HAL draws it: indices into `points` of the upper convex hull's vertices that
/// are Pareto-efficient, cheapest first. One point or none gives itself or nothing.
pub(crate) fn hal_frontier(points: &[Point]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..points.len()).collect();
    // By cost, then the most accurate first, then by index so that equal points keep a fixed
    // order; of points sharing a cost only the most accurate can be on the upper hull.
    order.sort_by(|&i, &j| {
        let (a, b) = (points[i], points[j]);
        a.cost
            .total_cmp(&b.cost)
            .then(b.accuracy.total_cmp(&a.accuracy))
            .then(i.cmp(&j))
    });
    order.dedup_by(|later, earlier| points[*later].cost == points[*earlier].cost);
    let mut hull: Vec<usize> = Vec::new();
    for i in order {
        while hull.len() >= 2
            && not_right_turn(
                points[hull[hull.len() - 2]],
                points[hull[hull.len() - 1]],
                points[i],
            )
        {
            hull.pop();
        }
        hull.push(i);
    }
    let efficient = pareto(points);
    hull.retain(|&i| efficient[i]);
    hull
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(cost: f64, accuracy: f64) -> Point {
        Point { cost, accuracy }
    }

    /// The checkout rematch, by hand: anthropic ($1.55, 1), deepseek ($0.46, 0), google ($0.83,
    /// 1), openai ($0.80, 1), xai ($0.91, 1). Openai beats google and xai on cost at the same
    /// accuracy; deepseek is the cheapest. The hull runs deepseek → openai → anthropic, and
    /// anthropic is dominated: one segment.
    #[test]
    fn the_checkout_rematch_by_hand() {
        let pts = [
            p(1.55, 1.0),
            p(0.46, 0.0),
            p(0.83, 1.0),
            p(0.80, 1.0),
            p(0.91, 1.0),
        ];
        assert_eq!(pareto(&pts), [false, true, false, true, false]);
        assert_eq!(hal_frontier(&pts), [1, 3]);
    }

    #[test]
    fn a_pareto_seat_under_the_hull_is_not_a_vertex() {
        // (2, 0.5) is Pareto-efficient, but the mix of (1, 0.2) and (3, 0.9) beats it.
        let pts = [p(1.0, 0.2), p(2.0, 0.5), p(3.0, 0.9)];
        assert_eq!(pareto(&pts), [true, true, true]);
        assert_eq!(hal_frontier(&pts), [0, 2]);
        // Above the chord it is a vertex.
        let pts = [p(1.0, 0.2), p(2.0, 0.8), p(3.0, 0.9)];
        assert_eq!(hal_frontier(&pts), [0, 1, 2]);
    }

    #[test]
    fn equal_points_are_both_pareto_and_one_vertex() {
        let pts = [p(1.0, 0.5), p(1.0, 0.5), p(2.0, 0.4)];
        assert_eq!(pareto(&pts), [true, true, false]);
        assert_eq!(hal_frontier(&pts), [0]);
    }

    #[test]
    fn collinear_points_are_not_vertices_and_empty_is_empty() {
        let pts = [p(1.0, 0.1), p(2.0, 0.2), p(3.0, 0.3)];
        assert_eq!(hal_frontier(&pts), [0, 2]);
        assert!(hal_frontier(&[]).is_empty());
        assert_eq!(hal_frontier(&[p(5.0, 0.0)]), [0]);
    }

    #[test]
    fn a_cheaper_more_accurate_seat_dominates_everything() {
        let pts = [p(2.0, 0.5), p(1.0, 0.9), p(3.0, 0.7)];
        assert_eq!(pareto(&pts), [false, true, false]);
        assert_eq!(hal_frontier(&pts), [1]);
    }
}
