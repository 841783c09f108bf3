//! The wave-wide shift: between two waves, how the *other* seats present in both moved, so
//! that a seat's change can be read against its wave's. A whole wave slows when the tool server
//! is shared more widely (seed 001: xai-hierarchical slowed by 85.8 % while the rest of its wave
//! slowed by a median 148.7 %, which is why its cohort-relative score rose); a seat that slowed
//! far beyond its wave is telling something of its own.
//!
//! For wall seconds and total tokens: each other seat's relative change (new / old − 1), where
//! both are known in full; their median (even count: the mean of the two middle values); the
//! seat's own change; and how the two relate. Within [`IN_LINE`] percentage points of the
//! median the seat moved with its wave; otherwise less than it, or beyond it.
//!
//! Accuracy: the difference of the two correct-rates with a percentile bootstrap interval
//! (each wave's problems resampled independently; the seeded generator of
//! [`crate::stats::bootstrap`]), and whether it excludes zero.

use std::collections::BTreeMap;

use serde::Serialize;

use super::WaveInput;
use crate::figures::{Known, SeatFigures};
use crate::stats::bootstrap::{Draws, Settings};
use crate::stats::quantile;
use crate::stats::trials::SeatProblems;

/// How close to the wave's median a seat's change must be to count as moving with its wave, in
/// percentage points of relative change.
pub(crate) const IN_LINE: f64 = 0.10;

/// How a seat's change relates to its wave's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Relation {
    #[serde(rename = "less_than_the_wave")]
    Less,
    #[serde(rename = "in_line_with_the_wave")]
    InLine,
    #[serde(rename = "beyond_the_wave")]
    Beyond,
}

impl Relation {
    pub fn words(self) -> &'static str {
        match self {
            Relation::Less => "less than the wave",
            Relation::InLine => "in line with the wave",
            Relation::Beyond => "beyond the wave",
        }
    }
}

/// One figure's wave-wide shift between two waves.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Shift {
    /// The median relative change (new / old − 1) of the other seats in both waves.
    pub median_change: f64,
    /// How many other seats it is the median of.
    pub seats: usize,
    /// This seat's relative change, when known.
    pub seat_change: Option<f64>,
    /// How the seat's change relates to the median; `None` when the seat's is unknown.
    pub relation: Option<Relation>,
}

/// A relative change from `old` to `new`, when both are known in full and `old` is positive.
fn change(old: &Known<f64>, new: &Known<f64>, old_n: u64, new_n: u64) -> Option<f64> {
    (old.known == old_n && new.known == new_n && old.sum > 0.0).then(|| new.sum / old.sum - 1.0)
}

fn as_f64(k: &Known<u64>) -> Known<f64> {
    Known {
        sum: k.sum as f64,
        known: k.known,
    }
}

/// The figures that a shift is computed for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Figure {
    WallS,
    TokensTotal,
}

fn figure(f: &SeatFigures, which: Figure) -> Known<f64> {
    match which {
        Figure::WallS => f.wall_s,
        Figure::TokensTotal => as_f64(&f.tokens_total),
    }
}

/// The shift of `which` between waves `a` and `b`, for `seat`. `None` when no other seat is in
/// both waves with the figure known in full.
pub fn shift<'a>(a: &WaveInput<'a>, b: &WaveInput<'a>, seat: &str, which: Figure) -> Option<Shift> {
    fn of<'a>(w: &WaveInput<'a>) -> BTreeMap<&'a str, SeatFigures> {
        w.data
            .seats
            .iter()
            .map(|s| (s.seat.id.as_str(), SeatFigures::of(&w.data.wave, s)))
            .collect()
    }
    let (fa, fb) = (of(a), of(b));
    let rel = |x: &SeatFigures, y: &SeatFigures| {
        change(&figure(x, which), &figure(y, which), x.attempts, y.attempts)
    };
    let mut others: Vec<f64> = fa
        .iter()
        .filter(|(id, _)| **id != seat)
        .filter_map(|(id, x)| fb.get(id).and_then(|y| rel(x, y)))
        .collect();
    if others.is_empty() {
        return None;
    }
    others.sort_by(f64::total_cmp);
    let n = others.len();
    let median = if n % 2 == 1 {
        others[n / 2]
    } else {
        (others[n / 2 - 1] + others[n / 2]) / 2.0
    };
    let seat_change = fa.get(seat).zip(fb.get(seat)).and_then(|(x, y)| rel(x, y));
    let relation = seat_change.map(|c| {
        if (c - median).abs() <= IN_LINE {
            Relation::InLine
        } else if c < median {
            Relation::Less
        } else {
            Relation::Beyond
        }
    });
    Some(Shift {
        median_change: median,
        seats: n,
        seat_change,
        relation,
    })
}

/// The difference of a seat's correct-rates between two waves (new − old) and its percentile
/// bootstrap interval, each wave's problems resampled on their own.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct AccuracyChange {
    pub difference: f64,
    pub ci: [f64; 2],
    /// Whether the interval leaves out zero: a change the data can show.
    pub beyond_noise: bool,
}

/// Each problem's share of Correct trials, the missing ones as 0.
fn shares(p: &SeatProblems) -> Vec<f64> {
    let mut v: Vec<f64> = p
        .attempted
        .values()
        .map(|x| x.passed as f64 / x.trials as f64)
        .collect();
    v.extend(std::iter::repeat_n(0.0, p.missing as usize));
    v
}

pub(crate) fn accuracy_change(
    a: &WaveInput<'_>,
    b: &WaveInput<'_>,
    settings: &Settings,
) -> Option<AccuracyChange> {
    let sa = shares(&SeatProblems::of(&a.data.wave, &a.seat.attempts));
    let sb = shares(&SeatProblems::of(&b.data.wave, &b.seat.attempts));
    if sa.is_empty() || sb.is_empty() {
        return None;
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let difference = mean(&sb) - mean(&sa);
    let mut draws = Draws::new(settings.seed);
    let mut diffs = Vec::with_capacity(settings.resamples as usize);
    let (mut ia, mut ib) = (Vec::new(), Vec::new());
    for _ in 0..settings.resamples {
        draws.resample(sa.len(), &mut ia);
        draws.resample(sb.len(), &mut ib);
        let ma = ia.iter().map(|&i| sa[i]).sum::<f64>() / sa.len() as f64;
        let mb = ib.iter().map(|&i| sb[i]).sum::<f64>() / sb.len() as f64;
        diffs.push(mb - ma);
    }
    diffs.sort_by(f64::total_cmp);
    let alpha = 1.0 - settings.level;
    let lo = quantile(&diffs, alpha / 2.0)?;
    let hi = quantile(&diffs, 1.0 - alpha / 2.0)?;
    Some(AccuracyChange {
        difference,
        ci: [lo, hi],
        beyond_noise: lo > 0.0 || hi < 0.0,
    })
}
