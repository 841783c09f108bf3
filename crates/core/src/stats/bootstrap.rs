//! The percentile bootstrap, made to reproduce: the same data, level, resample count and seed
//! give the same interval on every machine and in every later build, so that an interval can be
//! published and verified byte for byte like any other number.
//!
//! The generator is named and fixed: ChaCha20 (the RFC 8439 block function, 20 rounds), from the
//! `chacha20` crate, keyed with the seed as 8 little-endian bytes followed by 24 zero bytes,
//! read as 64-bit words. A uniform index below n is drawn by rejection: a word w is used when
//! w < ⌊2⁶⁴ / n⌋ · n, as w mod n; otherwise the next word is drawn. (A general-purpose `StdRng`
//! promises no stability across versions, and `gen_range`'s method may change: neither is used.)
//!
//! A resample draws as many units as there are (problems, with all of a problem's trials kept
//! together), with replacement; the statistic is computed on each; the interval is the
//! (1 − level)/2 and (1 + level)/2 quantiles of the resampled values by nearest rank
//! ([`super::quantile`]).

use chacha20::ChaCha20Rng;
use chacha20::rand_core::{Rng, SeedableRng};

/// The generator's name, as stored with an interval.
pub(crate) const GENERATOR: &str = "chacha20";

/// The method's name, as stored with an interval, for the first way a leaderboard's intervals
/// were drawn ([`Method::Attempts`]); every other interval (`versus`, `compare`) is still drawn
/// this way.
pub(crate) const METHOD: &str = "percentile bootstrap over problems";

/// The name of [`Method::ProblemSums`], as stored with an interval.
pub(crate) const METHOD_SUMS: &str = "percentile bootstrap over problems, from per-problem sums";

/// How a leaderboard's resampled figures are summed. Both draw the same problems from the same
/// seed, keep all trials of a problem together and take the same percentiles; they differ only
/// in the order a resample's sums of real numbers (seconds, USD, graded outcomes, a per-attempt
/// formula) are added, so their intervals may differ in the last bits of a float. Counts and
/// integer sums (attempts, Correct, tokens) are exact in both. A publication names its method,
/// so one drawn before [`Method::ProblemSums`] existed is drawn again the way it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// Every drawn attempt fed to the seat's tally in turn (drawn problems in wave order, a
    /// problem drawn twice fed twice): time linear in resamples × attempts.
    Attempts,
    /// Each seat's sums per problem taken once; a resample's sums are then Σ count × sum over
    /// the drawn problems, in problem order (see `stats::sums`): time linear in resamples ×
    /// problems × seats, whatever the trials.
    #[default]
    ProblemSums,
}

impl Method {
    /// The name stored with an interval drawn this way.
    pub fn name(self) -> &'static str {
        match self {
            Method::Attempts => METHOD,
            Method::ProblemSums => METHOD_SUMS,
        }
    }

    /// The method a stored name names.
    pub fn named(name: &str) -> Option<Method> {
        [Method::Attempts, Method::ProblemSums]
            .into_iter()
            .find(|m| m.name() == name)
    }
}

/// How an interval is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// The confidence level, in (0, 1): 0.95 for a 95 % interval.
    pub level: f64,
    /// How many resamples.
    pub resamples: u32,
    pub seed: u64,
    /// How a leaderboard's resampled sums are added (other intervals ignore it).
    pub method: Method,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            level: 0.95,
            resamples: 2000,
            seed: 0,
            method: Method::default(),
        }
    }
}

/// The seeded stream of draws.
pub struct Draws(ChaCha20Rng);

impl Draws {
    pub fn new(seed: u64) -> Draws {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        Draws(ChaCha20Rng::from_seed(key))
    }

    /// The next 64-bit word.
    pub fn word(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A uniform index in 0..n (n ≥ 1), by rejection (see the module's documentation).
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "an index below 0 cannot be drawn");
        let zone = (u64::MAX / n) * n;
        loop {
            let w = self.word();
            if w < zone {
                return w % n;
            }
        }
    }

    /// A resample of `n` units: n indices in 0..n, with replacement. The same indices as
    /// `below(n)` drawn n times, with the rejection zone and the division by n worked out once.
    pub fn resample(&mut self, n: usize, into: &mut Vec<usize>) {
        into.clear();
        if n == 0 {
            return;
        }
        let below = Below::new(n as u64);
        into.extend((0..n).map(|_| below.draw(self) as usize));
    }
}

/// Uniform indices below one n, drawn as [`Draws::below`] draws them: the zone ⌊2⁶⁴ / n⌋ · n
/// taken once, and w mod n by multiplication with ⌈2¹²⁸ / n⌉ (Lemire, Kaser and Kurz, "Faster
/// remainder by direct computation", 2019: exact for every 64-bit w and n), not by a division
/// a draw.
struct Below {
    n: u64,
    zone: u64,
    /// ⌈2¹²⁸ / n⌉ (0 for n = 1, whose remainders are all 0).
    m: u128,
}

impl Below {
    fn new(n: u64) -> Below {
        assert!(n > 0, "an index below 0 cannot be drawn");
        Below {
            n,
            zone: (u64::MAX / n) * n,
            m: if n == 1 {
                0
            } else {
                u128::MAX / u128::from(n) + 1
            },
        }
    }

    /// w mod n.
    fn rem(&self, w: u64) -> u64 {
        let low = self.m.wrapping_mul(u128::from(w));
        // The high 128 bits of low · n, of which the top 64 are the remainder.
        let n = u128::from(self.n);
        let bottom = (u128::from(low as u64) * n) >> 64;
        let top = (low >> 64) * n;
        ((bottom + top) >> 64) as u64
    }

    fn draw(&self, draws: &mut Draws) -> u64 {
        loop {
            let w = draws.word();
            if w < self.zone {
                return self.rem(w);
            }
        }
    }
}

/// A percentile interval and how many resamples it rests on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    pub lo: f64,
    pub hi: f64,
    /// Resamples on which the statistic was defined (a Cost-of-Pass with nothing Correct is
    /// not): the interval is over these.
    pub defined: u32,
}

/// Draws `settings.resamples` resamples of `units` units from the seed's stream, handing each
/// to `each` in turn (its indices, in draw order). Every interval of one wave draws the same
/// resamples from the same seed, so statistics drawn together (all the seats of a
/// leaderboard, scored on each resample) see the same problems.
pub(crate) fn each_resample(units: usize, settings: &Settings, mut each: impl FnMut(&[usize])) {
    if units == 0 {
        return;
    }
    let mut draws = Draws::new(settings.seed);
    let mut idx = Vec::with_capacity(units);
    for _ in 0..settings.resamples {
        draws.resample(units, &mut idx);
        each(&idx);
    }
}

/// [`each_resample`] by batches: each resample as its count of draws of each unit (`units`
/// counts), up to `batch` resamples one after another in the slice handed to `each`. The same
/// resamples, in the same order.
pub(crate) fn each_resample_counts(
    units: usize,
    settings: &Settings,
    batch: usize,
    mut each: impl FnMut(&[u32]),
) {
    let batch = batch.max(1);
    let mut counts = vec![0u32; units * batch];
    let mut held = 0;
    each_resample(units, settings, |picked| {
        let these = &mut counts[held * units..(held + 1) * units];
        these.fill(0);
        for &u in picked {
            these[u] += 1;
        }
        held += 1;
        if held == batch {
            each(&counts);
            held = 0;
        }
    });
    if held > 0 {
        each(&counts[..held * units]);
    }
}

/// The percentile interval of resampled values (the statistic where it was defined, one value
/// per resample): their (1 − level)/2 and (1 + level)/2 quantiles by nearest rank. Values that
/// are not finite are left out, as undefined. Reorders `values`; `None` when none is left.
///
/// The two quantiles are those of the values sorted ([`super::quantile`]), found by selection
/// rather than a whole sort: the same numbers, in a fraction of the time a leaderboard's many
/// intervals took to sort.
pub fn percentile(values: &mut Vec<f64>, level: f64) -> Option<Interval> {
    values.retain(|x| x.is_finite());
    let alpha = 1.0 - level;
    let lo = super::quantile_index(values.len(), alpha / 2.0)?;
    let hi = super::quantile_index(values.len(), 1.0 - alpha / 2.0)?.max(lo);
    let (below, &mut at_hi, _) = values.select_nth_unstable_by(hi, f64::total_cmp);
    let at_lo = if lo < hi {
        *below.select_nth_unstable_by(lo, f64::total_cmp).1
    } else {
        at_hi
    };
    Some(Interval {
        lo: at_lo,
        hi: at_hi,
        defined: values.len() as u32,
    })
}

/// The percentile interval of `stat` over resamples of `units` units. `stat` gets the indices
/// of one resample and returns the statistic, or `None` where it is undefined. `None` when it
/// is undefined on every resample (or there are no units).
pub fn interval(
    units: usize,
    settings: &Settings,
    mut stat: impl FnMut(&[usize]) -> Option<f64>,
) -> Option<Interval> {
    let mut values = Vec::with_capacity(settings.resamples as usize);
    each_resample(units, settings, |idx| values.extend(stat(idx)));
    percentile(&mut values, settings.level)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 32 item 11: a resample's indices are drawn with the division by n taken out of
    /// the loop; they are the indices `below` draws, and its remainder is `%`'s, for every n
    /// and word (edges and random ones).
    #[test]
    fn the_remainder_by_multiplication_is_the_division_s() {
        let mut world = Draws::new(7);
        let mut ns = vec![1, 2, 3, 7, 10, 1000, 2000, 1 << 32, (1 << 32) + 1, u64::MAX];
        ns.extend([u64::MAX - 1, 1 << 63, (1 << 63) + 1, 6_700_417, 999_999_937]);
        ns.extend(
            (0..2000)
                .map(|_| world.word() >> world.below(64))
                .filter(|&n| n > 0),
        );
        for n in ns {
            let below = Below::new(n);
            let mut words = vec![0, 1, n - 1, n, n.wrapping_add(1), u64::MAX, u64::MAX - 1];
            words.extend((0..200).map(|_| world.word()));
            words.extend((0..50).map(|_| world.word() % n.saturating_mul(3).max(1)));
            for w in words {
                assert_eq!(below.rem(w), w % n, "{w} mod {n}");
            }
        }
        for (seed, n) in [(0, 1), (1, 2), (2, 3), (3, 2000), (4, 100_000), (5, 12_345)] {
            let (mut one, mut many) = (Draws::new(seed), Draws::new(seed));
            let mut got = Vec::new();
            many.resample(n, &mut got);
            let want: Vec<usize> = (0..n).map(|_| one.below(n as u64) as usize).collect();
            assert_eq!(got, want, "n = {n}");
        }
    }

    /// Selection finds the quantiles a whole sort does, on values with ties, signed zeros and
    /// undefined ones, at every level and size.
    #[test]
    fn percentile_by_selection_is_percentile_of_the_sorted_values() {
        let mut world = Draws::new(11);
        for _ in 0..2000 {
            let n = world.below(40) as usize;
            let values: Vec<f64> = (0..n)
                .map(|_| match world.below(6) {
                    0 => f64::NAN,
                    1 => -0.0,
                    2 => 0.0,
                    k => (world.below(5) as f64 - 2.0) * k as f64,
                })
                .collect();
            let level = [0.5001, 0.8, 0.9, 0.95, 0.99, 0.9999][world.below(6) as usize];
            let mut sorted: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
            sorted.sort_by(f64::total_cmp);
            let alpha = 1.0 - level;
            let want = super::super::quantile(&sorted, alpha / 2.0).map(|lo| {
                (
                    lo.to_bits(),
                    super::super::quantile(&sorted, 1.0 - alpha / 2.0)
                        .unwrap()
                        .to_bits(),
                    sorted.len() as u32,
                )
            });
            let got = percentile(&mut values.clone(), level)
                .map(|i| (i.lo.to_bits(), i.hi.to_bits(), i.defined));
            assert_eq!(got, want, "{values:?} {level}");
        }
    }

    #[test]
    fn the_generator_is_chacha20_keyed_by_the_seed() {
        // Pinned: a change here changes every published interval.
        let mut d = Draws::new(0);
        let words: Vec<u64> = (0..3).map(|_| d.word()).collect();
        let mut again = Draws::new(0);
        assert_eq!(words, (0..3).map(|_| again.word()).collect::<Vec<_>>());
        // RFC 8439's ChaCha20 with an all-zero key, nonce and counter starts with the block
        // 76 b8 e0 ad a0 f1 3d 90 ...: the first word, little-endian.
        assert_eq!(words[0], 0x903d_f1a0_ade0_b876);
        assert_ne!(Draws::new(1).word(), words[0]);
    }

    #[test]
    fn indices_are_uniform_and_below_n() {
        let mut d = Draws::new(7);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[d.below(6) as usize] += 1;
        }
        for c in counts {
            assert!((9_500..10_500).contains(&c), "{counts:?}");
        }
        assert_eq!(Draws::new(3).below(1), 0);
    }

    /// Over 1,000 simulated waves of 40 problems passed with probability 0.6 (drawn from the
    /// same seeded generator), the 95 % interval of the accuracy covers 0.6 at least 93 % of the
    /// time. (The percentile bootstrap runs a little under its level on small samples.)
    #[test]
    fn the_95_percent_interval_covers_the_true_rate() {
        let mut world = Draws::new(2026);
        let settings = Settings {
            resamples: 200,
            ..Settings::default()
        };
        let mut covered = 0;
        for w in 0..1000u64 {
            let wave: Vec<f64> = (0..40)
                .map(|_| if world.below(10) < 6 { 1.0 } else { 0.0 })
                .collect();
            let mean =
                |idx: &[usize]| Some(idx.iter().map(|&i| wave[i]).sum::<f64>() / idx.len() as f64);
            let ci = interval(
                wave.len(),
                &Settings {
                    seed: w,
                    ..settings
                },
                mean,
            )
            .unwrap();
            covered += u32::from(ci.lo <= 0.6 && 0.6 <= ci.hi);
        }
        assert!(covered >= 930, "covered {covered} of 1000");
    }

    #[test]
    fn the_interval_of_a_mean_covers_it_and_reproduces() {
        let data: Vec<f64> = (0..40).map(|i| f64::from(i % 2)).collect();
        let mean =
            |idx: &[usize]| Some(idx.iter().map(|&i| data[i]).sum::<f64>() / idx.len() as f64);
        let s = Settings::default();
        let a = interval(data.len(), &s, mean).unwrap();
        let b = interval(data.len(), &s, mean).unwrap();
        assert_eq!(a, b);
        assert!(
            a.lo < 0.5 && a.hi > 0.5 && a.lo > 0.2 && a.hi < 0.8,
            "{a:?}"
        );
        assert_eq!(a.defined, 2000);
        // Another seed draws other resamples: on values that do not fall on a coarse grid, the
        // bounds move.
        let spread: Vec<f64> = (0..40u32)
            .map(|i| f64::from((i * 37) % 101) / 7.0)
            .collect();
        let mean_of =
            |idx: &[usize]| Some(idx.iter().map(|&i| spread[i]).sum::<f64>() / idx.len() as f64);
        let one = interval(spread.len(), &s, mean_of).unwrap();
        let other = interval(spread.len(), &Settings { seed: 1, ..s }, mean_of).unwrap();
        assert_ne!(one, other);
        assert_eq!(interval(0, &s, mean), None);
        assert_eq!(interval(3, &s, |_| None), None);
    }
}
