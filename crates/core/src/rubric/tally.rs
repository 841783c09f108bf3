//! Scoring from running totals: a seat's attempts are fed to its tally one at a time, in ledger
//! order (problem, then trial), and never held together; the wave is then scored from its seats'
//! tallies.
//!
//! A rubric reads a seat through a handful of totals: its figures ([`SeatFigures`], which hold
//! every seat-level measure), the errors left after free retries for each penalty that forgives
//! some, and, for a per-attempt rubric, the sum of the formula over the attempts and of each
//! named value it records, with the first reason met for which an attempt's formula is
//! undefined. A [`SeatTally`] keeps exactly these; memory is one tally per seat, however many
//! attempts a wave holds.
//!
//! Every sum runs in the order the attempts are added, from the same starting value as a sum
//! over a seat's attempts held whole, so a tally fed by the ledger row by row, and
//! [`super::score_wave`] over the same wave held whole, give the same scores to the bit. Pure,
//! like the rest of the interpreter: whoever reads the attempts (the ledger) feeds them in.
//!
//! ```text
//! let scorer = Scorer::new(&rubric, &wave);
//! // for each seat, in ledger order:   let mut t = scorer.tally();
//! //   for each of its attempts:       scorer.add(&mut t, &attempt);
//! let scores = scorer.score(seats_with_their_tallies);
//! ```

use std::collections::BTreeMap;

use super::interpret::{
    AttemptSums, Env, Totals, Unit, Values, WaveScores, medians_of, score_ranks, score_totals,
};
use super::measure::errors_after_free_retries;
use super::resolved::Resolved;
use super::spec::{Factor, Per, Rubric, Transform};
use crate::figures::{Basis, FigureTally, Known, SeatFigures};
use crate::model::{Attempt, AttemptFields, Seat, Wave, WaveData};

/// One seat's running totals under one rubric: what the rubric reads of its attempts. Made by
/// [`Scorer::tally`], fed by [`Scorer::add`].
#[derive(Debug, Clone)]
pub struct SeatTally {
    figures: FigureTally,
    /// By penalty, as [`Totals::free_errors`].
    free_errors: Vec<Option<Known<f64>>>,
    per_attempt: Option<AttemptSums>,
    /// One attempt's formula values, reused from attempt to attempt.
    scratch: Vec<f64>,
}

impl SeatTally {
    /// A per-attempt rubric's sums, for attempt `a` to be added to on the fast path of a tally
    /// another may follow ([`Scorer::add_own_leading`], [`Scorer::add_own_alone`]): `None`
    /// where `a` has a trace, the rubric is scored per seat, or its formula was undefined on
    /// an earlier attempt.
    #[inline(always)]
    fn fast_sums(&mut self, a: &Attempt) -> Option<&mut AttemptSums> {
        if a.trace.is_some() || !self.free_errors.is_empty() {
            return None;
        }
        self.per_attempt.as_mut().filter(|s| s.undefined.is_none())
    }
}

/// Scores one wave under one rubric from its seats' tallies.
pub struct Scorer<'a> {
    rubric: &'a Rubric,
    basis: Basis<'a>,
    /// For the per-attempt formula: the wave, and (for a cohort factor in it) the medians.
    env: Env<'a>,
    /// The per-attempt formula looked up once for the wave, for its fast path (`None`: every
    /// attempt takes the formula with its reasons).
    resolved: Option<Resolved<'a>>,
}

impl<'a> Scorer<'a> {
    pub fn new(rubric: &'a Rubric, wave: &'a Wave) -> Scorer<'a> {
        Scorer {
            rubric,
            basis: Basis::of(wave),
            env: Env {
                wave,
                medians: BTreeMap::new(),
            },
            resolved: match rubric.per {
                Per::Attempt => Resolved::of(rubric, wave),
                Per::Seat => None,
            },
        }
    }

    /// The fields of an attempt the rubric reads: those of every measure its factors,
    /// penalties, gates and tie-breaks use, and the trace where a penalty forgives free retries
    /// (counted from the trace). A tally fed attempts with only these fields scores the same as
    /// one fed whole attempts; its [`Scorer::figures`] are then complete only in these fields.
    pub fn fields(&self) -> AttemptFields {
        let r = self.rubric;
        let measures = r
            .factors
            .iter()
            .map(|f| f.measure)
            .chain(r.penalties.iter().map(|p| p.measure))
            .chain(r.gates.iter().map(|g| g.measure))
            .chain(r.tie_break.iter().map(|t| t.measure));
        let mut fields = measures.fold(AttemptFields::NONE, |acc, m| acc.and(m.fields()));
        // An attempt's formula, undefined, names the attempt by problem and trial.
        fields.trial = r.per == Per::Attempt;
        fields.trace = r.penalties.iter().any(|p| p.forgives_retries());
        fields
    }

    /// Whether the per-attempt formula divides by the wave's medians (a cohort factor in a
    /// per-attempt rubric, which `rubric::parse` refuses but a `Rubric` built in code may
    /// have). Then the medians must be known before the first attempt is added: tally every
    /// seat once, give the tallies to [`Scorer::set_medians`], and tally them again.
    pub fn needs_medians_first(&self) -> bool {
        self.rubric.per == Per::Attempt
            && self
                .rubric
                .factors
                .iter()
                .any(|f| f.transform == Transform::CohortRatio)
    }

    /// Sets the medians the per-attempt formula divides by, from every seat's tally of a first
    /// pass (see [`Scorer::needs_medians_first`]).
    pub fn set_medians<'t>(&mut self, tallies: impl IntoIterator<Item = &'t SeatTally>) {
        let figures: Vec<SeatFigures> = tallies.into_iter().map(|t| self.figures(t)).collect();
        self.env.medians = medians_of(self.rubric, &figures.iter().collect::<Vec<_>>());
    }

    /// A seat's tally before its first attempt.
    pub fn tally(&self) -> SeatTally {
        let r = self.rubric;
        SeatTally {
            figures: FigureTally::new(),
            free_errors: match r.per {
                Per::Seat => r
                    .penalties
                    .iter()
                    .map(|p| p.forgives_retries().then_some(Known::<f64>::NONE))
                    .collect(),
                Per::Attempt => Vec::new(),
            },
            per_attempt: (r.per == Per::Attempt).then(AttemptSums::default),
            scratch: Vec::new(),
        }
    }

    /// Adds one attempt to its seat's tally. Attempts come in ledger order: problem, then
    /// trial.
    pub fn add(&self, t: &mut SeatTally, a: &Attempt) {
        t.figures.add(&self.basis, a);
        self.add_rest(t, a);
    }

    /// Adds one attempt of a resampled wave (see [`FigureTally::add_drawn`]): `first` when it
    /// opens a drawn problem, each draw of a problem counting as a problem of its own. The wave
    /// the scorer was made with is the resampled one: its declared suite the number of problems
    /// drawn.
    pub(crate) fn add_drawn(&self, t: &mut SeatTally, a: &Attempt, first: bool) {
        t.figures.add_drawn(&self.basis, a, first);
        self.add_rest(t, a);
    }

    /// Adds one attempt to a seat's figures kept apart from any one rubric's tally: several
    /// rubrics of one wave share them (`rescore --all`), each then adding the attempt with
    /// [`Scorer::add_own`] and finishing with [`Scorer::with_figures`].
    pub(crate) fn add_figures(&self, f: &mut FigureTally, a: &Attempt) {
        f.add(&self.basis, a);
    }

    /// Whether the rubric keeps anything of an attempt besides its figures (a per-attempt
    /// formula, or errors counted after free retries): when it does not, `Scorer::add_own`
    /// does nothing and need not be called.
    pub fn keeps_more_than_figures(&self) -> bool {
        let r = self.rubric;
        r.per == Per::Attempt || r.penalties.iter().any(|p| p.forgives_retries())
    }

    /// Adds one attempt to what its seat's tally keeps under this rubric alone (not its
    /// figures: see [`Scorer::add_figures`]).
    #[inline]
    pub(crate) fn add_own(&self, t: &mut SeatTally, a: &Attempt) {
        self.add_rest(t, a);
    }

    /// Whether this scorer's per-attempt formula and `other`'s evaluate the same factors on
    /// every attempt: two per-attempt rubrics of the same wave with the same factors, none of
    /// them a cohort ratio. Then the factors computed for one of them serve both
    /// ([`Scorer::add_own_sharing`]).
    pub(crate) fn same_factors(&self, other: &Scorer<'_>) -> bool {
        let (r, o) = (self.rubric, other.rubric);
        r.per == Per::Attempt
            && o.per == Per::Attempt
            && std::ptr::eq(self.env.wave, other.env.wave)
            && r.factors.len() == o.factors.len()
            && r.factors
                .iter()
                .zip(&o.factors)
                .all(|(f, g)| same_factor(f, g))
            && !r
                .factors
                .iter()
                .any(|f| f.transform == Transform::CohortRatio)
    }

    /// [`Scorer::add_own`], with the factors of the attempt's formula taken from `shared` when
    /// a scorer with the same factors ([`Scorer::same_factors`]) has computed them for this
    /// attempt, and left there for the next one otherwise. Call [`SharedFactors::next`]
    /// before each attempt. The tally is the one [`Scorer::add_own`] makes, to the bit: where
    /// the factors' fast path gives nothing (a step undefined), each rubric computes its whole
    /// formula on its own ([`Scorer::add_formula`]), with the same operations.
    #[inline]
    pub(crate) fn add_own_sharing(
        &self,
        t: &mut SeatTally,
        a: &Attempt,
        shared: &mut SharedFactors,
    ) {
        if !t.free_errors.is_empty() {
            self.add_free_errors(t, a);
        }
        let Some(sums) = &mut t.per_attempt else {
            return;
        };
        if sums.undefined.is_some() {
            return;
        }
        if let Some((core, mut values)) = shared.get(self, a)
            && let Some(score) = self.fast_penalties(core, a, &mut values)
        {
            sums.add_defined(score, values.as_slice());
            return;
        }
        self.add_formula(t, a);
    }

    /// Whether this scorer's per-attempt formula gives the score and the values `other`'s
    /// gives on every attempt without a trace where its formula's fast path is defined: the
    /// same factors ([`Scorer::same_factors`]), multiplier and clamp, and penalties that
    /// differ at most in their names and in the free retries they forgive, which only a trace
    /// can show (without one every reported error counts). Then, attempt after attempt
    /// without a trace, one tally serves both ([`Scorer::add_own_leading`]): the two
    /// trace-holistic rubrics on a ledger without traces. Where their formulas are undefined
    /// they still differ, in the reasons they give.
    pub(crate) fn same_without_trace(&self, other: &Scorer<'_>) -> bool {
        let (r, o) = (self.rubric, other.rubric);
        let same_bits = |x: Option<f64>, y: Option<f64>| x.map(f64::to_bits) == y.map(f64::to_bits);
        self.same_factors(other)
            && r.multiplier.to_bits() == o.multiplier.to_bits()
            && same_bits(r.clamp_min, o.clamp_min)
            && same_bits(r.clamp_max, o.clamp_max)
            && r.penalties.len() == o.penalties.len()
            && r.penalties.iter().zip(&o.penalties).all(|(p, q)| {
                p.measure == q.measure && p.per_unit.to_bits() == q.per_unit.to_bits()
            })
    }

    /// [`Scorer::add_own_sharing`] for a tally that others follow (their scorers
    /// [`Scorer::same_without_trace`] as this one): adds the attempt and says `true` where it
    /// has no trace and the formula's fast path is defined on it, for then each follower would
    /// have added the same score and values, and this tally is still theirs. Otherwise it adds
    /// nothing and says `false`: the caller gives each follower a tally of its own (this one,
    /// as it stands) before adding the attempt to each with [`Scorer::add_own_sharing`].
    #[inline]
    pub(crate) fn add_own_leading(
        &self,
        t: &mut SeatTally,
        a: &Attempt,
        shared: &mut SharedFactors,
    ) -> bool {
        let Some(sums) = t.fast_sums(a) else {
            return false;
        };
        let Some((core, mut values)) = shared.get(self, a) else {
            return false;
        };
        match self.fast_penalties(core, a, &mut values) {
            Some(score) => {
                sums.add_defined(score, values.as_slice());
                true
            }
            None => false,
        }
    }

    /// [`Scorer::add_own_leading`] for a scorer that computes its factors for itself: the
    /// seat's one tally kept, every other rubric's following it (or no other keeping one).
    /// Adds the attempt and says `true` where it has no trace and the fast path is defined on
    /// it; otherwise adds nothing and says `false`, for the caller to add it rubric by rubric.
    #[inline]
    pub(crate) fn add_own_alone(&self, t: &mut SeatTally, a: &Attempt) -> bool {
        let Some(sums) = t.fast_sums(a) else {
            return false;
        };
        let mut values = Values::EMPTY;
        let Some(core) = self.fast_factors(a, &mut values) else {
            return false;
        };
        match self.fast_penalties(core, a, &mut values) {
            Some(score) => {
                sums.add_defined(score, values.as_slice());
                true
            }
            None => false,
        }
    }

    /// A tally fed by `Scorer::add_own`, completed with the seat's shared figures.
    pub fn with_figures(&self, mut t: SeatTally, figures: FigureTally) -> SeatTally {
        t.figures = figures;
        t
    }

    /// What a rubric keeps of an attempt besides its figures: [`Scorer::add_own_sharing`] with
    /// factors no other scorer computed.
    fn add_rest(&self, t: &mut SeatTally, a: &Attempt) {
        self.add_own_sharing(t, a, &mut SharedFactors::default());
    }

    /// The factors of the per-attempt formula on attempt `a` on its fast path
    /// ([`Resolved::factors`]); `None` where a step is undefined.
    #[inline(always)]
    fn fast_factors(&self, a: &Attempt, values: &mut Values) -> Option<f64> {
        self.resolved.as_ref()?.factors(a, values)
    }

    /// The score of attempt `a` from its factors' `core` on the fast path
    /// ([`Resolved::penalties`]); `None` where a penalty is undefined.
    #[inline(always)]
    fn fast_penalties(&self, core: f64, a: &Attempt, values: &mut Values) -> Option<f64> {
        self.resolved.as_ref()?.penalties(core, a, values)
    }

    /// An attempt's formula with its reasons ([`Env::formula`]), added to a per-attempt
    /// rubric's sums: where the fast path gives nothing, or holds too few values.
    #[cold]
    #[inline(never)]
    fn add_formula(&self, t: &mut SeatTally, a: &Attempt) {
        if let Some(sums) = &mut t.per_attempt {
            t.scratch.clear();
            let score = self
                .env
                .formula(self.rubric, &Unit::Attempt(a), &mut t.scratch);
            sums.add(score, &t.scratch);
        }
    }

    /// A per-seat rubric's errors after free retries, penalty by penalty.
    fn add_free_errors(&self, t: &mut SeatTally, a: &Attempt) {
        for (slot, p) in t.free_errors.iter_mut().zip(&self.rubric.penalties) {
            if let Some(k) = slot {
                k.add(errors_after_free_retries(a, p.free_retries));
            }
        }
    }

    /// The tally of a seat's attempts held whole (in ledger order, or any order: distinct
    /// problems are then recounted from the attempts).
    pub fn tally_seat(&self, attempts: &[Attempt]) -> SeatTally {
        let mut t = self.tally();
        for a in attempts {
            self.add(&mut t, a);
        }
        t.figures.recount_problems(&self.basis, attempts);
        t
    }

    /// The seat's absolute figures, from its tally: the same as [`SeatFigures::of`] its
    /// attempts.
    pub fn figures(&self, t: &SeatTally) -> SeatFigures {
        t.figures.figures(&self.basis)
    }

    /// Appends a tally's totals as numbers, for resampling from per-problem sums
    /// (`stats::sums`): its figures' columns ([`FigureTally::columns`]), then the sum and
    /// coverage of each error count after free retries, then for a per-attempt rubric the
    /// formula's total and each value it records (0 before the first attempt). Every column
    /// past the figures' is a sum of real numbers but the coverages
    /// (`Scorer::integer_columns`).
    pub fn columns(&self, t: &SeatTally, out: &mut Vec<f64>) {
        t.figures.columns(out);
        for k in t.free_errors.iter().flatten() {
            out.extend([k.sum, k.known as f64]);
        }
        if let Some(sums) = &t.per_attempt {
            out.push(sums.total);
            let width = self.recorded_values();
            out.extend((0..width).map(|i| sums.named.get(i).copied().unwrap_or(0.0)));
        }
    }

    /// How many columns [`Scorer::columns`] writes.
    pub fn column_count(&self) -> usize {
        let per_attempt = match self.rubric.per {
            Per::Attempt => 1 + self.recorded_values(),
            Per::Seat => 0,
        };
        FigureTally::COLUMNS + 2 * self.forgiving() + per_attempt
    }

    /// Whether column `c` of [`Scorer::columns`] holds a count or a sum of integers (exact as
    /// `f64` below 2⁵³), rather than a sum of real numbers.
    pub(crate) fn integer_columns(&self) -> Vec<bool> {
        let mut int = vec![true; FigureTally::COLUMNS];
        for c in FigureTally::FLOAT_COLUMNS {
            int[c] = false;
        }
        for _ in 0..self.forgiving() {
            int.extend([false, true]);
        }
        int.resize(self.column_count(), false);
        int
    }

    /// How many error counts after free retries a tally keeps (a per-seat rubric's penalties
    /// that forgive some).
    fn forgiving(&self) -> usize {
        match self.rubric.per {
            Per::Seat => {
                let free = self
                    .rubric
                    .penalties
                    .iter()
                    .filter(|p| p.forgives_retries());
                free.count()
            }
            Per::Attempt => 0,
        }
    }

    /// How many values the per-attempt formula records (factors, then penalties).
    fn recorded_values(&self) -> usize {
        self.rubric.factors.len() + self.rubric.penalties.len()
    }

    /// Why a per-attempt formula was undefined on some attempt of a tally, if it was.
    pub fn undefined<'t>(&self, t: &'t SeatTally) -> Option<&'t str> {
        t.per_attempt.as_ref()?.undefined.as_deref()
    }

    /// The tally whose totals are `c` (laid out as [`Scorer::columns`] writes them), with the
    /// first reason the formula was undefined on one of its attempts: a tally of a resampled
    /// wave, read as [`Scorer::add_drawn`] leaves one.
    pub(crate) fn tally_from_columns(&self, c: &[f64], undefined: Option<&str>) -> SeatTally {
        let (figures, mut rest) = c.split_at(FigureTally::COLUMNS);
        let mut t = self.tally();
        t.figures = FigureTally::from_columns(figures);
        for k in t.free_errors.iter_mut().flatten() {
            *k = Known {
                sum: rest[0],
                known: rest[1] as u64,
            };
            rest = &rest[2..];
        }
        if let Some(sums) = &mut t.per_attempt {
            sums.total = rest[0];
            if t.figures.attempts() > 0 {
                sums.named.extend_from_slice(&rest[1..]);
            }
            sums.undefined = undefined.map(str::to_string);
        }
        t
    }

    /// Scores every seat (in ledger order, with its finished tally) and ranks them.
    pub fn score(&self, seats: Vec<(Seat, SeatTally)>) -> WaveScores {
        let (seats, tallies): (Vec<Seat>, Vec<SeatTally>) = seats.into_iter().unzip();
        self.score_seats(seats.iter().zip(tallies))
    }

    /// [`Scorer::score`], the seats borrowed: a rescore scores each seat under every rubric,
    /// and a seat's score takes its id alone.
    pub(crate) fn score_seats<'s>(
        &self,
        seats: impl IntoIterator<Item = (&'s Seat, SeatTally)>,
    ) -> WaveScores {
        let totals: Vec<(&Seat, Totals)> = seats
            .into_iter()
            .map(|(seat, t)| (seat, self.totals(t)))
            .collect();
        score_totals(self.rubric, self.env.wave, &totals)
    }

    /// Scores and ranks seats' tallies (in the order of their `ids`), giving each seat, in the
    /// same order, its score and rank: those [`Scorer::score`] gives it, without the words and
    /// named values a listing prints. What each resample of a bootstrap needs, many times over.
    pub fn score_ranks(
        &self,
        ids: &[&str],
        seats: impl IntoIterator<Item = SeatTally>,
    ) -> Vec<(Option<f64>, Option<u32>)> {
        let totals: Vec<Totals> = seats.into_iter().map(|t| self.totals(t)).collect();
        score_ranks(self.rubric, self.env.wave, ids, &totals)
    }

    fn totals(&self, t: SeatTally) -> Totals {
        Totals {
            figures: self.figures(&t),
            free_errors: t.free_errors,
            per_attempt: t.per_attempt,
        }
    }
}

/// Whether two factors compute the same value under the same name, wherever their files
/// declare them.
fn same_factor(f: &Factor, g: &Factor) -> bool {
    Factor {
        line: 0,
        ..f.clone()
    } == Factor {
        line: 0,
        ..g.clone()
    }
}

/// An attempt's factors under one rubric, kept for the next rubric of the wave with the same
/// factors (`Scorer::add_own_sharing`).
#[derive(Debug, Clone, Copy)]
pub struct SharedFactors {
    /// Whether the factors were computed for the attempt at hand; then what their fast path
    /// gave (`None`: some step undefined), and their values in `values`.
    computed: bool,
    core: Option<f64>,
    values: Values,
}

impl Default for SharedFactors {
    fn default() -> Self {
        SharedFactors {
            computed: false,
            core: None,
            values: Values::EMPTY,
        }
    }
}

impl SharedFactors {
    /// Forgets the last attempt's factors: the next attempt's are computed afresh.
    #[inline]
    pub fn next(&mut self) {
        self.computed = false;
    }

    /// Attempt `a`'s factors on their fast path, their core and values: computed by `scorer`
    /// unless a scorer with the same factors already did for this attempt. `None` where a
    /// step is undefined.
    #[inline(always)]
    fn get(&mut self, scorer: &Scorer<'_>, a: &Attempt) -> Option<(f64, Values)> {
        if !self.computed {
            self.values = Values::EMPTY;
            self.core = scorer.fast_factors(a, &mut self.values);
            self.computed = true;
        }
        Some((self.core?, self.values))
    }
}

/// Scores every seat of a wave and ranks them: each seat tallied from its attempts, then scored
/// from its tally ([`Scorer`]), exactly as a wave streamed from the ledger is.
pub fn score_wave(r: &Rubric, data: &WaveData) -> WaveScores {
    let mut scorer = Scorer::new(r, &data.wave);
    if scorer.needs_medians_first() {
        let first: Vec<_> = data
            .seats
            .iter()
            .map(|s| scorer.tally_seat(&s.attempts))
            .collect();
        scorer.set_medians(&first);
    }
    let seats = data
        .seats
        .iter()
        .map(|s| (s.seat.clone(), scorer.tally_seat(&s.attempts)))
        .collect();
    scorer.score(seats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::testing;

    /// A per-attempt formula recording more values than the fast path holds in place
    /// ([`Values::HELD`]) is computed by the formula's own path, attempt by attempt, with the
    /// same sums as a fold of [`Env::formula`] over the attempts; and so is one with a penalty
    /// undefined on some attempt.
    #[test]
    fn a_formula_past_the_values_held_in_place_sums_as_the_formula_does() {
        let factor = |i: usize| {
            format!(
                "[[factor]]\nname = \"f{i}\"\nmeasure = \"outcome\"\nrole = \"add\"\n\
                 weight = 0.{i}1\n"
            )
        };
        let many: String = (0..Values::HELD + 1).map(factor).collect();
        let few = factor(1) + "[[penalty]]\nname = \"e\"\nmeasure = \"errors\"\nper_unit = 0.2\n";
        let wave = testing::wave("w");
        let attempts: Vec<Attempt> = (0..7u32)
            .map(|n| Attempt {
                outcome: Some(f64::from(n) / 7.0),
                errors: (n != 5).then_some(n % 3),
                ..testing::attempt(&format!("p{n}"), 1, n % 2 == 0)
            })
            .collect();
        for body in [many, few] {
            let text = format!(
                "name = \"r\"\nversion = 1\nper = \"attempt\"\nscale = {{ min = -9, max = 9 }}\n{body}"
            );
            let r = crate::rubric::parse(std::path::Path::new("r.toml"), &text).unwrap();
            let scorer = Scorer::new(&r, &wave);
            let t = scorer.tally_seat(&attempts);
            let mut expected = AttemptSums::default();
            for a in &attempts {
                if expected.undefined.is_none() {
                    let mut values = Vec::new();
                    let score = scorer.env.formula(&r, &Unit::Attempt(a), &mut values);
                    expected.add(score, &values);
                }
            }
            let sums = t.per_attempt.as_ref().unwrap();
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(sums.total.to_bits(), expected.total.to_bits());
            assert_eq!(bits(&sums.named), bits(&expected.named));
            assert_eq!(sums.undefined, expected.undefined);
        }
    }
}
