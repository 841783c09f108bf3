//! Resampling from per-problem sums: why a leaderboard's bootstrap costs resamples × problems ×
//! seats, not resamples × attempts.
//!
//! Every figure and score a leaderboard resamples is read from a seat's running totals (counts,
//! sums and their coverage), and the totals of a resample are Σ over problems of (how often the
//! problem was drawn) × (the seat's totals on that problem alone). So each seat's totals on
//! each problem are taken once, as a row of numbers (`FigureTally::columns`,
//! `Scorer::columns`); a resample is then one weighted sum of rows, in problem order, and each
//! seat's tally is read back from its columns. This is what numpy does with a matrix product.
//!
//! Three things keep it small and exact:
//!
//! - only **live** columns are summed: a column that is 0 on every problem of every seat (a
//!   field the rubric does not read, left out of the attempts beforehand) stays 0, and one
//!   equal on every problem of every seat to an earlier column (a coverage equal to the count
//!   of attempts, where every attempt knows its value) is copied from it;
//! - counts and integer sums are held as `f64`, which is exact while every resample's total
//!   stays below 2⁵³: [`ProblemSums::new`] refuses (returns `None`) when the largest value of
//!   an integer column times the number of problems could pass it, and the caller then feeds
//!   attempts one by one;
//! - the sums of real numbers (seconds, USD, graded outcomes, a per-attempt formula) run in one
//!   fixed order (problems in wave order, each once, times its count), so they reproduce to the
//!   bit on every machine. They are not the bits of a sum attempt by attempt (the order
//!   differs): see `bootstrap::Method`.

/// 2⁵³: integers up to it are exact in `f64`.
const EXACT: f64 = 9_007_199_254_740_992.0;

/// Every seat's totals on every problem, as rows to sum.
pub(super) struct ProblemSums {
    seats: usize,
    /// Columns of one seat's totals.
    width: usize,
    /// The columns summed on a resample, in order.
    live: Vec<usize>,
    /// (column, the live column it equals everywhere).
    copies: Vec<(usize, usize)>,
    /// Per problem: each live column's value for each seat, `[problem][live column][seat]`.
    rows: Vec<f64>,
    /// Per seat: the problems on which its totals are undefined, for which group of columns,
    /// and why, in problem order.
    undefined: Vec<Vec<(usize, usize, String)>>,
}

/// Why a seat's totals on a resample are undefined, group by group of columns (see
/// [`ProblemSums::new`]): the reason met on the first problem drawn on which they are.
pub(super) struct Undefined<'a> {
    /// (problem, group, why), in problem order.
    list: &'a [(usize, usize, String)],
    counts: &'a [u32],
}

impl<'a> Undefined<'a> {
    /// Why the totals of columns `group` are undefined on this resample, if they are.
    pub(super) fn of(&self, group: usize) -> Option<&'a str> {
        self.list
            .iter()
            .find(|(p, g, _)| *g == group && self.counts[*p] > 0)
            .map(|(_, _, why)| why.as_str())
    }
}

impl ProblemSums {
    /// The sums of `seats` seats on `problems` problems, each seat's totals laid out in
    /// `integer.len()` columns (`integer[c]`: whether column c holds a count or a sum of
    /// integers). `cell(s, p, out, undefined)` appends seat s's columns on problem p, or
    /// nothing where it has no attempt there (all 0), and pushes onto `undefined` why its
    /// totals there are undefined, if they are, with the group of columns they are undefined
    /// for (several rubrics' totals laid side by side, each its own group, each undefined for
    /// its own reasons: see [`Undefined`]). It is called twice per cell. `None` when an
    /// integer column could pass 2⁵³ on some resample.
    pub(super) fn new(
        seats: usize,
        problems: usize,
        integer: &[bool],
        mut cell: impl FnMut(usize, usize, &mut Vec<f64>, &mut Vec<(usize, String)>),
    ) -> Option<ProblemSums> {
        let width = integer.len();
        // First pass: which columns are ever non-zero, which equal an earlier one everywhere,
        // and the largest value of each.
        let mut nonzero = vec![false; width];
        let mut largest = vec![0f64; width];
        let mut same_as: Vec<Vec<usize>> = (0..width).map(|c| (0..c).collect()).collect();
        let mut undefined = vec![Vec::new(); seats];
        let mut buf = Vec::with_capacity(width);
        let zeros = vec![0.0; width];
        let mut why = Vec::new();
        for p in 0..problems {
            for (s, seat_undefined) in undefined.iter_mut().enumerate() {
                buf.clear();
                cell(s, p, &mut buf, &mut why);
                seat_undefined.extend(why.drain(..).map(|(g, why)| (p, g, why)));
                let row = if buf.is_empty() { &zeros } else { &buf };
                debug_assert_eq!(row.len(), width);
                for (c, &v) in row.iter().enumerate() {
                    nonzero[c] |= v != 0.0;
                    largest[c] = largest[c].max(v.abs());
                    same_as[c].retain(|&j| row[j].to_bits() == v.to_bits());
                }
            }
        }
        let most = problems as f64;
        if (0..width).any(|c| integer[c] && (largest[c] >= EXACT || largest[c] * most >= EXACT)) {
            return None;
        }
        let mut live = Vec::new();
        let mut copies = Vec::new();
        for c in 0..width {
            if !nonzero[c] {
                continue;
            }
            match same_as[c].iter().find(|j| live.contains(*j)) {
                Some(&j) => copies.push((c, j)),
                None => live.push(c),
            }
        }
        // Second pass: the live columns, problem by problem.
        let mut rows = vec![0.0; problems * live.len() * seats];
        for p in 0..problems {
            let at = p * live.len() * seats;
            for s in 0..seats {
                buf.clear();
                cell(s, p, &mut buf, &mut why);
                why.clear();
                if buf.is_empty() {
                    continue;
                }
                for (l, &c) in live.iter().enumerate() {
                    rows[at + l * seats + s] = buf[c];
                }
            }
        }
        Some(ProblemSums {
            seats,
            width,
            live,
            copies,
            rows,
            undefined,
        })
    }

    /// The totals of every seat on a resample that drew problem p `counts[p]` times: for each
    /// seat in turn, `each(seat, its columns, why its totals are undefined)` (group by group,
    /// the first problem drawn on which they are). `acc` and `columns` are scratch space.
    #[cfg(test)]
    pub(super) fn resample(
        &self,
        counts: &[u32],
        acc: &mut Vec<f64>,
        columns: &mut Vec<f64>,
        each: impl FnMut(usize, &[f64], &Undefined<'_>),
    ) {
        self.sum_resamples(counts, acc);
        self.each_seat(counts, acc, columns, each);
    }

    /// The summed live columns of several resamples at once: `counts` holds one count per
    /// problem for each resample, one resample after another, and `acc` gets each resample's
    /// sums in turn (`stride()` numbers each). Each row of the table is read once for all of
    /// them, which is what keeps a resample's cost off the memory bus; each resample's sums
    /// are added in problem order, as one resample alone adds them, so they are the same bits.
    pub(super) fn sum_resamples(&self, counts: &[u32], acc: &mut Vec<f64>) {
        let stride = self.stride();
        let problems = self.rows.len().checked_div(stride).unwrap_or(0);
        let resamples = counts.len().checked_div(problems).unwrap_or(1);
        acc.clear();
        acc.resize(stride * resamples, 0.0);
        if stride == 0 {
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx") {
            // SAFETY: the processor has AVX, checked just now.
            return unsafe { sum_rows_avx(&self.rows, stride, problems, counts, acc) };
        }
        sum_rows(&self.rows, stride, problems, counts, acc);
    }

    /// How many numbers one resample's sums take in [`ProblemSums::sum_resamples`].
    pub(super) fn stride(&self) -> usize {
        self.live.len() * self.seats
    }

    /// The totals of every seat on one resample (its `counts` per problem, `acc` its sums from
    /// [`ProblemSums::sum_resamples`]): for each seat in turn, `each(seat, its columns, why its
    /// totals are undefined)`. `columns` is scratch space.
    pub(super) fn each_seat(
        &self,
        counts: &[u32],
        acc: &[f64],
        columns: &mut Vec<f64>,
        mut each: impl FnMut(usize, &[f64], &Undefined<'_>),
    ) {
        for s in 0..self.seats {
            columns.clear();
            columns.resize(self.width, 0.0);
            for (l, &c) in self.live.iter().enumerate() {
                columns[c] = acc[l * self.seats + s];
            }
            for &(c, j) in &self.copies {
                columns[c] = columns[j];
            }
            let why = Undefined {
                list: &self.undefined[s],
                counts,
            };
            each(s, columns, &why);
        }
    }
}

/// [`ProblemSums::sum_resamples`]'s loop: for each problem in order, each resample's sums
/// plus (times drawn) × (the problem's row). Every product and sum is rounded once, as IEEE 754
/// rounds it, whatever the width of the registers it is done in (Rust never fuses a multiply
/// and an add), so the AVX build of it below gives the same bits.
#[inline(always)]
fn sum_rows(rows: &[f64], stride: usize, problems: usize, counts: &[u32], acc: &mut [f64]) {
    for (p, row) in rows.chunks_exact(stride).enumerate() {
        for (r, acc) in acc.chunks_exact_mut(stride).enumerate() {
            let n = counts[r * problems + p];
            if n == 0 {
                continue;
            }
            let n = f64::from(n);
            for (a, &v) in acc.iter_mut().zip(row) {
                *a += n * v;
            }
        }
    }
}

/// [`sum_rows`] compiled for AVX: four sums at once where the baseline build does two.
///
/// # Safety
/// The processor must have AVX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn sum_rows_avx(
    rows: &[f64],
    stride: usize,
    problems: usize,
    counts: &[u32],
    acc: &mut [f64],
) {
    sum_rows(rows, stride, problems, counts, acc);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two seats, three problems, columns (count, integer sum, real sum, coverage = count).
    fn cells() -> Vec<Vec<Option<[f64; 4]>>> {
        vec![
            vec![
                Some([2.0, 10.0, 0.1, 2.0]),
                None,
                Some([1.0, 7.0, 0.7, 1.0]),
            ],
            vec![
                Some([3.0, 0.0, 0.2, 3.0]),
                Some([1.0, 0.0, 0.3, 1.0]),
                Some([2.0, 0.0, 0.5, 2.0]),
            ],
        ]
    }

    fn sums(cells: &[Vec<Option<[f64; 4]>>]) -> Option<ProblemSums> {
        // Two groups of columns, each undefined for its own reasons: group 0 for seat 1 on
        // p1, group 1 for seat 0 on p2.
        ProblemSums::new(2, 3, &[true, true, false, true], |s, p, out, why| {
            if let Some(row) = cells[s][p] {
                out.extend(row);
            }
            if s == 1 && p == 1 {
                why.push((0, "undefined on p1".to_string()));
            }
            if s == 0 && p == 2 {
                why.push((1, "group 1 undefined on p2".to_string()));
            }
        })
    }

    #[test]
    fn a_resample_is_the_weighted_sum_of_the_drawn_problems() {
        let sums = sums(&cells()).unwrap();
        // The coverage equals the count everywhere: copied, not summed.
        assert_eq!(sums.live, vec![0, 1, 2]);
        assert_eq!(sums.copies, vec![(3, 0)]);
        let (mut acc, mut cols) = (Vec::new(), Vec::new());
        let mut got = Vec::new();
        // p0 twice, p2 once.
        let whys = |why: &Undefined<'_>| [0, 1].map(|g| why.of(g).map(str::to_string));
        sums.resample(&[2, 0, 1], &mut acc, &mut cols, |s, c, why| {
            got.push((s, c.to_vec(), whys(why)))
        });
        // p2 drawn: seat 0's group 1 is undefined, its group 0 is not.
        let p2 = Some("group 1 undefined on p2".to_string());
        assert_eq!(
            got[0],
            (0, vec![5.0, 27.0, 2.0 * 0.1 + 0.7, 5.0], [None, p2.clone()])
        );
        assert_eq!(
            got[1],
            (1, vec![8.0, 0.0, 2.0 * 0.2 + 0.5, 8.0], [None, None])
        );
        got.clear();
        // p1 drawn: seat 1 is undefined in group 0 alone, seat 0 has no attempt there.
        sums.resample(&[0, 3, 0], &mut acc, &mut cols, |s, c, why| {
            got.push((s, c.to_vec(), whys(why)))
        });
        assert_eq!(got[0], (0, vec![0.0; 4], [None, None]));
        assert_eq!(got[1].2, [Some("undefined on p1".to_string()), None]);
    }

    /// Issue 32 item 11: resamples summed together (eight at a time, with AVX where the
    /// processor has it) are the bits of each summed alone by the plain loop.
    #[test]
    fn resamples_summed_together_are_each_summed_alone() {
        let (seats, problems, width) = (3, 50, 4);
        let mut world = crate::stats::bootstrap::Draws::new(3);
        let mut real = || (world.word() >> 11) as f64 / (1u64 << 53) as f64 * 1e3;
        let values: Vec<f64> = (0..seats * problems * width).map(|_| real()).collect();
        let sums = ProblemSums::new(seats, problems, &[false; 4], |s, p, out, _| {
            let at = (s * problems + p) * width;
            out.extend_from_slice(&values[at..at + width]);
        })
        .unwrap();
        let mut draws = crate::stats::bootstrap::Draws::new(9);
        let counts: Vec<u32> = (0..8 * problems).map(|_| draws.below(4) as u32).collect();
        let mut together = Vec::new();
        sums.sum_resamples(&counts, &mut together);
        let stride = sums.stride();
        for (r, counts) in counts.chunks_exact(problems).enumerate() {
            let mut alone = vec![0.0; stride];
            sum_rows(&sums.rows, stride, problems, counts, &mut alone);
            let bits = |x: &[f64]| x.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&together[r * stride..(r + 1) * stride]), bits(&alone));
        }
    }

    #[test]
    fn an_integer_column_that_could_pass_2_to_the_53_is_refused() {
        let mut big = cells();
        // Three problems × 2⁵² could reach 2⁵³ and more.
        big[0][0] = Some([2.0, EXACT / 2.0, 0.1, 2.0]);
        assert!(sums(&big).is_none());
        // A real column may be as large as it likes.
        let mut big = cells();
        big[0][0] = Some([2.0, 10.0, 1e300, 2.0]);
        assert!(sums(&big).is_some());
    }
}
