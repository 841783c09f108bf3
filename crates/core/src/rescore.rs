//! Waves scored under rubrics straight from the ledger. [`streamed`]: one wave, its attempts
//! streamed into each seat's running totals and never held, what `verify --ledger` holds every
//! stored score to; it gives the same scores as [`crate::rubric::score_wave`] over the wave
//! loaded whole. [`store`]: what `benchledger rescore` (one rubric or `--all`) does, many waves
//! under many rubrics in one read of the ledger and one transaction, the scores those of
//! [`streamed`] wave by wave. Here, not in the command, so that every face of the library
//! rescores the same way (issue 30).

use crate::error::{Error, Hint, Result};
use crate::figures::{Basis, FigureTally, SeatTotals};
use crate::formats::tally;
use crate::ledger::{Ledger, ScoreWriter, read_tally};
use crate::model::{Attempt, AttemptFields, Seat, Wave};
use crate::registry;
use crate::report::withdrawn::Withdrawn;
use crate::rubric::{Rubric, RubricInfo, Scorer, SeatTally, SharedFactors, WaveScores};

/// One wave's scores under `rubric`, its attempts streamed from the ledger (twice when the
/// rubric needs the wave's medians first).
pub fn streamed(ledger: &Ledger, rubric: &Rubric, wave: &str) -> Result<WaveScores> {
    let conditions = ledger.wave_conditions(wave)?;
    let mut scorer = Scorer::new(rubric, &conditions);
    let fields = scorer.fields();
    if scorer.needs_medians_first() {
        let first = ledger.fold_wave(wave, fields, |_| scorer.tally(), |t, a| scorer.add(t, a))?;
        scorer.set_medians(first.iter().map(|(_, t)| t));
    }
    let seats = ledger.fold_wave(wave, fields, |_| scorer.tally(), |t, a| scorer.add(t, a))?;
    Ok(scorer.score(seats))
}

/// A caller's view of a rescore under way (the command's spinner): told how many waves are
/// about to be read, before the one read of the ledger.
pub trait Watch {
    fn reading(&mut self, _waves: usize) {}
}

/// A rescore nobody watches.
impl Watch for () {}

/// What a rescore did: the waves it scored, the withdrawn waves it left out (when none was
/// named and withdrawn waves were not asked for), and what it stored under each rubric.
#[derive(Debug, Clone, PartialEq)]
pub struct Rescored {
    pub waves: Vec<String>,
    pub left_out: Vec<String>,
    pub rubrics: Vec<RubricRescored>,
}

/// What one rubric's rescore stored.
#[derive(Debug, Clone, PartialEq)]
pub struct RubricRescored {
    /// NAME@VERSION.
    pub id: String,
    pub sha256: String,
    /// Seats whose score was stored.
    pub seats: u64,
    /// Seats among them whose score is undefined.
    pub undefined: usize,
    /// `rubric check` rejects it: its scores can leave its declared scale.
    pub scale_violation: bool,
}

/// `benchledger rescore --rubric R`: the waves named (or every wave not withdrawn, unless
/// `include_withdrawn`) scored under `info`, which must be registered, and stored. `named` is
/// the rubric as the caller named it (a file or NAME@VERSION), for the error that says how to
/// register it.
///
/// # Example
///
/// ```
/// use std::path::Path;
/// use benchledger_core::{Ledger, digest, import::Quiet, ingest, model::RubricRow, registry, rescore};
///
/// # fn main() -> benchledger_core::Result<()> {
/// let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
/// let now = "2026-12-04T00:00:00Z";
/// let mut ledger = Ledger::in_memory()?;
/// let wave = root.join("examples/rca-wave-2/wave.toml");
/// ingest::run::manifests(&ledger, &[wave], now, &mut Quiet)?;
///
/// // A rubric is registered by its text; stored scores are keyed by the text's hash.
/// let text = std::fs::read_to_string(root.join("rubrics/accuracy.v1.toml")).unwrap();
/// ledger.add_rubrics(&[RubricRow {
///     name: "accuracy".into(),
///     version: 1,
///     sha256: digest::sha256_hex(text.as_bytes()),
///     text,
///     scale_violation: false,
///     added_at: now.into(),
/// }])?;
/// let info = registry::resolve(&ledger, "accuracy@1")?;
/// // No wave named: every wave not withdrawn.
/// let rescored = rescore::one(&mut ledger, "accuracy@1", &info, &[], false, &mut ())?;
/// assert_eq!(rescored.waves, ["rca-wave-2"]);
/// assert_eq!(rescored.rubrics[0].seats, 6);
/// # Ok(())
/// # }
/// ```
pub fn one(
    ledger: &mut Ledger,
    named: &str,
    info: &RubricInfo,
    waves: &[String],
    include_withdrawn: bool,
    watch: &mut dyn Watch,
) -> Result<Rescored> {
    if !info.registered {
        return Err(Error::Usage(format!(
            "{} is not registered: stored scores are keyed by a registered rubric's hash",
            info.rubric.id()
        ))
        .hinted(Hint::RegisterFirst(named.to_string())));
    }
    let (ids, left_out) = rescore_waves(ledger, waves, include_withdrawn)?;
    watch.reading(ids.len());
    let stored = store(ledger, &[&info.rubric], &[&info.sha256], &ids)?;
    Ok(Rescored {
        waves: ids,
        left_out,
        rubrics: vec![RubricRescored {
            id: info.rubric.id(),
            sha256: info.sha256.clone(),
            seats: stored.seats[0],
            undefined: stored.undefined[0],
            scale_violation: info.scale_violation,
        }],
    })
}

/// `benchledger rescore --all`: every registered rubric, each wave read once.
pub fn all(
    ledger: &mut Ledger,
    waves: &[String],
    include_withdrawn: bool,
    watch: &mut dyn Watch,
) -> Result<Rescored> {
    let rows = ledger.rubrics()?;
    if rows.is_empty() {
        return Err(Error::Usage("no rubric is registered".into()).hinted(Hint::RegisterRubricFile));
    }
    let rubrics: Vec<Rubric> = rows
        .iter()
        .map(|r| registry::parse_rubric(ledger, r))
        .collect::<Result<_>>()?;
    let refs: Vec<&Rubric> = rubrics.iter().collect();
    let (ids, left_out) = rescore_waves(ledger, waves, include_withdrawn)?;
    watch.reading(ids.len());
    let shas: Vec<&str> = rows.iter().map(|r| r.sha256.as_str()).collect();
    let stored = store(ledger, &refs, &shas, &ids)?;
    let rubrics = rows
        .iter()
        .zip(stored.seats.into_iter().zip(stored.undefined))
        .map(|(row, (seats, undefined))| RubricRescored {
            id: row.id(),
            sha256: row.sha256.clone(),
            seats,
            undefined,
            scale_violation: row.scale_violation,
        })
        .collect();
    Ok(Rescored {
        waves: ids,
        left_out,
        rubrics,
    })
}

/// The waves a command should visit: the named ones (checked to exist, and refused when
/// withdrawn unless `include`; a wave named twice is visited once), else every wave but the
/// withdrawn ones (unless `include`).
pub(crate) fn waves_to_visit(
    ledger: &Ledger,
    named: &[String],
    withdrawn: &Withdrawn,
    include: bool,
) -> Result<Vec<String>> {
    if named.is_empty() {
        let mut all = ledger.wave_ids()?;
        all.retain(|w| include || withdrawn.get(w).is_none());
        return Ok(all);
    }
    let mut out: Vec<String> = Vec::with_capacity(named.len());
    for w in named {
        ledger.load_wave_check(w)?;
        withdrawn.check_named(w, include)?;
        if !out.contains(w) {
            out.push(w.clone());
        }
    }
    Ok(out)
}

/// The waves a rescore visits, and the withdrawn ones it leaves out (when none is named).
fn rescore_waves(
    ledger: &Ledger,
    waves: &[String],
    include_withdrawn: bool,
) -> Result<(Vec<String>, Vec<String>)> {
    let withdrawn = Withdrawn::load(ledger)?;
    let ids = waves_to_visit(ledger, waves, &withdrawn, include_withdrawn)?;
    let left_out = if waves.is_empty() && !include_withdrawn {
        ledger
            .wave_ids()?
            .into_iter()
            .filter(|w| withdrawn.get(w).is_some())
            .collect()
    } else {
        Vec::new()
    };
    Ok((ids, left_out))
}

/// At most this many seats' scores are held at once while a rescore stores them.
pub(crate) const PART_SEATS: usize = 2048;

/// What a rescore stored under each of its rubrics: seats with a score stored, and seats among
/// them whose score is undefined.
pub struct Stored {
    /// For each rubric, the seats whose score it stored.
    pub seats: Vec<u64>,
    /// For each rubric, the seats among them whose score is undefined.
    pub undefined: Vec<usize>,
}

/// Every wave of `ids` scored under each of `rubrics` (registered, with hashes `shas`) and
/// stored, in at most one read of the ledger's attempts (`Ledger::fold_waves`) and one
/// transaction. Each seat's figures come from the tally stored beside it
/// ([`Ledger::seat_tallies`]; a seat without one is tallied from its attempts and keeps it);
/// only rubrics that keep more of an attempt than its figures (a per-attempt formula, free
/// retries) need the attempts, each read once with the columns those rubrics read and fed to
/// each of their tallies. Where the tallies cannot give the figures (fields they do not keep
/// apart), every attempt is read with the columns any rubric reads, and tallied. The waves are
/// then scored and stored part by part (consecutive waves of at most `PART_SEATS` seats), so
/// that one part's scores are held at a time. The scores are those [`streamed`] gives wave
/// by wave and rubric by rubric (a rubric's tally reads only its own fields, whatever else the
/// attempt carries).
pub fn store(
    ledger: &mut Ledger,
    rubrics: &[&Rubric],
    shas: &[&str],
    ids: &[String],
) -> Result<Stored> {
    store_in(ledger, rubrics, shas, ids, PART_SEATS)
}

/// [`store`], in parts of at most `part_seats` seats.
fn store_in(
    ledger: &mut Ledger,
    rubrics: &[&Rubric],
    shas: &[&str],
    ids: &[String],
    part_seats: usize,
) -> Result<Stored> {
    let conditions: Vec<Wave> = ids
        .iter()
        .map(|w| ledger.wave_conditions(w))
        .collect::<Result<_>>()?;
    // [wave][rubric]
    let scorers: Vec<Vec<Scorer<'_>>> = conditions
        .iter()
        .map(|c| rubrics.iter().map(|r| Scorer::new(r, c)).collect())
        .collect();
    let Some(first) = scorers.first() else {
        return Ok(Stored {
            seats: vec![0; rubrics.len()],
            undefined: vec![0; rubrics.len()],
        });
    };
    let pass = Pass::of(first);
    let seats = held_seats(ledger, ids, &scorers, &pass)?;
    // A rubric whose formula needs the medians first is scored now, before the transaction.
    let mut apart = score_apart(ledger, rubrics, &pass.one_pass, ids)?;
    let (stored, undefined) = ledger.store_scores_in_parts(shas, |writer| {
        let mut undefined = vec![0; rubrics.len()];
        let mut waves = seats.into_iter().enumerate().peekable();
        while waves.peek().is_some() {
            let part = next_part(&mut waves, part_seats);
            // The part's waves scored under the rubrics of the pass, shared among the CPUs.
            let mut scored = on_every_cpu(part, |_, (w, wave_seats)| {
                (w, score_wave(&scorers[w], &pass, wave_seats))
            });
            put_part(writer, &mut scored, &mut apart, &mut undefined)?;
        }
        Ok(undefined)
    })?;
    Ok(Stored {
        seats: stored,
        undefined,
    })
}

/// Which rubrics a rescore scores in its one pass, the fields they read, and which of them
/// keep more of an attempt than its figures.
struct Pass {
    /// The rubrics scored in the one pass (indices into the rubrics): all but those whose
    /// per-attempt formula needs the wave's medians first.
    one_pass: Vec<usize>,
    /// The fields of an attempt any of them reads.
    fields: AttemptFields,
    /// The positions in `one_pass` of the rubrics that keep more than figures.
    keeping: Vec<usize>,
}

impl Pass {
    /// The pass of the rubrics that `first` (one wave's scorers, one a rubric) score.
    fn of(first: &[Scorer<'_>]) -> Pass {
        // A rubric whose per-attempt formula needs the wave's medians first (which `rubric
        // add` never registers) is scored on its own, wave by wave, in its two passes.
        let one_pass: Vec<usize> = (0..first.len())
            .filter(|&k| !first[k].needs_medians_first())
            .collect();
        let fields = one_pass
            .iter()
            .map(|&k| first[k].fields())
            .fold(AttemptFields::NONE, AttemptFields::and);
        // A seat's figures are the same under every rubric (one wave, one basis): they are
        // tallied once, and each rubric tallies only what it keeps besides them (most keep
        // nothing more: the positions in `one_pass` of those that do).
        let keeping: Vec<usize> = (0..one_pass.len())
            .filter(|&j| first[one_pass[j]].keeps_more_than_figures())
            .collect();
        Pass {
            one_pass,
            fields,
            keeping,
        }
    }

    /// The fields the rubrics that keep more than figures read, of `first`'s scorers.
    fn own_fields(&self, first: &[Scorer<'_>]) -> AttemptFields {
        self.keeping
            .iter()
            .map(|&j| first[self.one_pass[j]].fields())
            .fold(AttemptFields::NONE, AttemptFields::and)
    }
}

/// Every seat of the waves `ids` as the pass holds it: its figures and the tallies of its own
/// of the rubrics that keep more. Each seat's figures come from its stored tally where it has
/// one; then only the rubrics that keep more of an attempt than its figures read the
/// attempts, and only the fields those read (for the shipped ones: trace-holistic's outcome,
/// steps and errors, and its retries' trace, not the tokens, seconds and dollars every figure
/// sums). Otherwise every attempt is read with every field of the pass, and tallied.
fn held_seats(
    ledger: &Ledger,
    ids: &[String],
    scorers: &[Vec<Scorer<'_>>],
    pass: &Pass,
) -> Result<HeldWaves> {
    let Pass {
        one_pass,
        fields,
        keeping,
    } = pass;
    if one_pass.is_empty() {
        return Ok(ids.iter().map(|_| Vec::new()).collect());
    }
    let own = OwnTallies::new(scorers, one_pass, keeping);
    match stored_figures(ledger, ids, *fields)? {
        Some(stored) if keeping.is_empty() => Ok(stored),
        Some(stored) => {
            let own_tallies = ledger.fold_waves(
                ids,
                pass.own_fields(&scorers[0]),
                |w, _| (w, own.start(w)),
                |(w, kept), a| own.add(*w, kept, a),
            )?;
            let finished = own_tallies
                .into_iter()
                .map(|seats| {
                    let finish = |(seat, (w, kept))| (seat, (w, own.finish(kept)));
                    seats.into_iter().map(finish).collect()
                })
                .collect();
            with_own_tallies(ledger, stored, finished)
        }
        None => Ok(ledger
            .fold_waves(
                ids,
                *fields,
                |w, _| (w, FigureTally::new(), own.start(w)),
                |(w, figures, kept), a| {
                    scorers[*w][one_pass[0]].add_figures(figures, a);
                    own.add(*w, kept, a);
                },
            )?
            .into_iter()
            .map(|seats| {
                seats
                    .into_iter()
                    .map(|(seat, (w, figures, kept))| (seat, (w, figures, own.finish(kept))))
                    .collect()
            })
            .collect()),
    }
}

/// One wave's seats (held as the pass holds them) scored under each rubric of the pass, by
/// `scorers` (the wave's, one a rubric); `None` for the rubrics scored apart.
fn score_wave(
    scorers: &[Scorer<'_>],
    pass: &Pass,
    wave_seats: Vec<(Seat, Held)>,
) -> Vec<Option<WaveScores>> {
    let mut per: Vec<Vec<(&Seat, SeatTally)>> = pass
        .one_pass
        .iter()
        .map(|_| Vec::with_capacity(wave_seats.len()))
        .collect();
    let (seats, held): (Vec<Seat>, Vec<Held>) = wave_seats.into_iter().unzip();
    for (seat, (_, figures, own)) in seats.iter().zip(held) {
        let mut own = own.into_iter();
        for (j, (slot, &k)) in per.iter_mut().zip(&pass.one_pass).enumerate() {
            let t = if pass.keeping.contains(&j) {
                own.next().expect("a tally for each rubric that keeps one")
            } else {
                scorers[k].tally()
            };
            slot.push((seat, scorers[k].with_figures(t, figures.clone())));
        }
    }
    let mut scored: Vec<Option<WaveScores>> = scorers.iter().map(|_| None).collect();
    for (&k, seats) in pass.one_pass.iter().zip(per) {
        scored[k] = Some(scorers[k].score_seats(seats));
    }
    scored
}

/// Stores a part's scores (each wave's index with its scores, `None` for a rubric scored
/// `apart`), rubric by rubric so that each rubric's rows lie together in the score table,
/// counting the undefined scores of each rubric into `undefined`.
fn put_part(
    writer: &mut ScoreWriter<'_>,
    scored: &mut [(usize, Vec<Option<WaveScores>>)],
    apart: &mut [Vec<Option<WaveScores>>],
    undefined: &mut [usize],
) -> Result<()> {
    for (k, undefined) in undefined.iter_mut().enumerate() {
        for (w, scored) in scored.iter_mut() {
            let s = match scored[k].take() {
                Some(s) => s,
                None => apart[k][*w].take().expect("each wave scored apart once"),
            };
            *undefined += s.seats.iter().filter(|s| s.score.is_none()).count();
            writer.put(k, s)?;
        }
    }
    Ok(())
}

/// The rubrics not in `one_pass` (whose formula needs the wave's medians first), each
/// scoring every wave of `ids` on its own, in its two passes; an empty list for the others.
fn score_apart(
    ledger: &Ledger,
    rubrics: &[&Rubric],
    one_pass: &[usize],
    ids: &[String],
) -> Result<Vec<Vec<Option<WaveScores>>>> {
    let mut apart: Vec<Vec<Option<WaveScores>>> = Vec::with_capacity(rubrics.len());
    for (k, rubric) in rubrics.iter().enumerate() {
        apart.push(if one_pass.contains(&k) {
            Vec::new()
        } else {
            ids.iter()
                .map(|w| streamed(ledger, rubric, w).map(Some))
                .collect::<Result<_>>()?
        });
    }
    Ok(apart)
}

/// A part of a rescore: the next waves, up to `part_seats` seats (at least one wave).
fn next_part<S>(
    waves: &mut std::iter::Peekable<impl Iterator<Item = (usize, Vec<S>)>>,
    part_seats: usize,
) -> Vec<(usize, Vec<S>)> {
    let mut part = Vec::new();
    let mut held = 0;
    while let Some((_, wave_seats)) = waves.peek() {
        if !part.is_empty() && held + wave_seats.len() > part_seats {
            break;
        }
        held += wave_seats.len();
        part.extend(waves.next());
    }
    part
}

/// A seat as a rescore's one pass holds it: its wave's index, its figures, and the tallies of
/// the rubrics that keep more of an attempt than its figures.
type Held = (usize, FigureTally, Vec<SeatTally>);

/// Each wave's seats, as a rescore's one pass holds them.
type HeldWaves = Vec<Vec<(Seat, Held)>>;

/// What a seat keeps of its attempts for the rubrics that keep more than figures.
struct Own {
    /// Their tallies, one a rubric; a follower's is its leader's while it follows (see
    /// [`OwnTallies::finish`]).
    tallies: Vec<SeatTally>,
    /// Where some of them share their factors, the factors of the attempt at hand.
    shared: Vec<SharedFactors>,
    /// For each rubric, whether its tally is still its leader's: every attempt so far had no
    /// trace, and its leader's formula was defined on it.
    following: Vec<bool>,
    /// Whether every rubric that follows another still does.
    together: bool,
}

/// The tallies of their own that a rescore's rubrics keeping more than figures make of each
/// seat's attempts. Rubrics whose per-attempt formulas have the same factors (the two
/// trace-holistic ones) compute them once an attempt; rubrics whose formulas differ only in the
/// free retries they forgive (the same two) keep one tally while the attempts have no traces.
struct OwnTallies<'s, 'r> {
    /// [wave][rubric]
    scorers: &'s [Vec<Scorer<'r>>],
    /// The rubrics that keep more than figures, as indices into `scorers[w]`.
    rubrics: Vec<usize>,
    /// For each of `rubrics`, the place among them of the first with the same factors, when
    /// there is more than one such.
    shares: Vec<Option<usize>>,
    /// For each of `rubrics`, the place among them of the first whose formula gives the same
    /// on attempts without a trace ([`Scorer::same_without_trace`]), when that is another: its
    /// leader, whose tally it follows.
    leaders: Vec<Option<usize>>,
    /// For each of `rubrics`, the places of those that follow it.
    followers: Vec<Vec<usize>>,
    /// The place of the rubric every other of `rubrics` follows, if one is.
    alone: Option<usize>,
}

impl<'s, 'r> OwnTallies<'s, 'r> {
    /// For the rubrics `one_pass[j]` for each j of `keeping`.
    fn new(scorers: &'s [Vec<Scorer<'r>>], one_pass: &[usize], keeping: &[usize]) -> Self {
        let rubrics: Vec<usize> = keeping.iter().map(|&j| one_pass[j]).collect();
        // For each rubric, the first of those that stand in `same` to it.
        let first_of = |same: &dyn Fn(&Scorer<'r>, &Scorer<'r>) -> bool| -> Vec<Option<usize>> {
            match scorers.first() {
                None => vec![None; rubrics.len()],
                Some(first) => rubrics
                    .iter()
                    .map(|&k| (0..rubrics.len()).find(|&o| same(&first[k], &first[rubrics[o]])))
                    .collect(),
            }
        };
        let firsts = first_of(&|a, b| a.same_factors(b));
        let shares: Vec<Option<usize>> = firsts
            .iter()
            .map(|&g| g.filter(|_| firsts.iter().filter(|&&o| o == g).count() > 1))
            .collect();
        let leaders: Vec<Option<usize>> = first_of(&|a, b| a.same_without_trace(b))
            .into_iter()
            .enumerate()
            .map(|(i, g)| g.filter(|&g| g != i))
            .collect();
        let followers: Vec<Vec<usize>> = (0..rubrics.len())
            .map(|i| {
                (0..rubrics.len())
                    .filter(|&j| leaders[j] == Some(i))
                    .collect()
            })
            .collect();
        let alone = (0..rubrics.len()).find(|&i| followers[i].len() + 1 == rubrics.len());
        OwnTallies {
            scorers,
            rubrics,
            shares,
            leaders,
            followers,
            alone,
        }
    }

    /// A seat's, before its first attempt, in wave `w`: held until every wave is read.
    fn start(&self, w: usize) -> Own {
        let tallies = self
            .rubrics
            .iter()
            .map(|&k| self.scorers[w][k].tally())
            .collect();
        let shared = if self.shares.iter().any(Option::is_some) {
            vec![SharedFactors::default(); self.rubrics.len()]
        } else {
            Vec::new()
        };
        let following = self.leaders.iter().map(Option::is_some).collect();
        Own {
            tallies,
            shared,
            following,
            together: true,
        }
    }

    /// Adds one attempt of a seat of wave `w`: where one rubric's tally is the seat's only
    /// one (the others following it), and its formula's fast path takes the attempt, that
    /// alone; otherwise each rubric's in turn ([`OwnTallies::add_each`]).
    #[inline]
    fn add(&self, w: usize, own: &mut Own, a: &Attempt) {
        if let Some(i) = self.alone
            && own.together
            && self.scorers[w][self.rubrics[i]].add_own_alone(&mut own.tallies[i], a)
        {
            return;
        }
        self.add_each(w, own, a);
    }

    /// [`OwnTallies::add`], rubric by rubric: a follower left to its leader, a leader telling
    /// its followers to go their own way where the attempt could part them.
    #[inline(never)]
    fn add_each(&self, w: usize, own: &mut Own, a: &Attempt) {
        own.shared.iter_mut().for_each(SharedFactors::next);
        let scorers = &self.scorers[w];
        for (i, (&k, share)) in self.rubrics.iter().zip(&self.shares).enumerate() {
            if own.following[i] {
                continue;
            }
            let scorer = &scorers[k];
            let Some(g) = *share else {
                scorer.add_own(&mut own.tallies[i], a);
                continue;
            };
            let followers = &self.followers[i];
            if followers.iter().any(|&j| own.following[j]) {
                if scorer.add_own_leading(&mut own.tallies[i], a, &mut own.shared[g]) {
                    continue;
                }
                // The followers go their own way from here, from the tally they followed.
                for &j in followers {
                    if own.following[j] {
                        own.tallies[j] = own.tallies[i].clone();
                        own.following[j] = false;
                    }
                }
                own.together = false;
            }
            scorer.add_own_sharing(&mut own.tallies[i], a, &mut own.shared[g]);
        }
    }

    /// A seat's tallies, one a rubric, after its last attempt: a rubric that followed its
    /// leader to the end has its leader's tally, which is the one it would have made itself.
    fn finish(&self, mut own: Own) -> Vec<SeatTally> {
        for (j, leader) in self.leaders.iter().enumerate() {
            if let Some(l) = leader
                && own.following[j]
            {
                own.tallies[j] = own.tallies[*l].clone();
            }
        }
        own.tallies
    }
}

/// Each wave's seats with their wave's index and the tallies of their own the rubrics that keep
/// more than figures made of their attempts.
type OwnWaves = Vec<Vec<(Seat, (usize, Vec<SeatTally>))>>;

/// Every seat's figures from the tallies the ledger keeps beside the seats
/// ([`Ledger::seat_tallies`]), as reading their attempts with `fields` would make them, to the
/// bit, without reading the attempts (the rubrics that keep more of an attempt than its figures
/// read them for that alone: [`with_own_tallies`]). A seat without a tally that reads (one ingested before tallies were kept) is tallied from
/// its attempts, wave by wave, and its tally kept for the next rescore. `None` when the
/// tallies cannot give the figures `fields` asks for: then the attempts are read.
fn stored_figures(
    ledger: &Ledger,
    ids: &[String],
    fields: AttemptFields,
) -> Result<Option<HeldWaves>> {
    if !FigureTally::totals_give(fields) {
        return Ok(None);
    }
    let mut out = Vec::with_capacity(ids.len());
    for (w, seats) in ledger.seat_tallies(ids)?.into_iter().enumerate() {
        let mut totals: Vec<Option<SeatTotals>> = seats
            .iter()
            .map(|(_, text)| text.as_deref().and_then(read_tally))
            .collect();
        if totals.iter().any(Option::is_none) {
            let conditions = ledger.wave_conditions(&ids[w])?;
            let basis = Basis::of(&conditions);
            let read = ledger.fold_wave(
                &ids[w],
                FigureTally::FIELDS,
                |_| FigureTally::new(),
                |t, a| t.add(&basis, a),
            )?;
            let mut keep = Vec::new();
            for ((slot, (seat, _)), (read_seat, t)) in totals.iter_mut().zip(&seats).zip(read) {
                if slot.is_none() && seat.id == read_seat.id {
                    let t = t.totals();
                    keep.push((seat.id.clone(), tally::write(&t)));
                    *slot = Some(t);
                }
            }
            ledger.keep_seat_tallies(&ids[w], &keep)?;
        }
        let mut these = Vec::with_capacity(seats.len());
        for ((seat, _), totals) in seats.into_iter().zip(totals) {
            let Some(figures) = totals.and_then(|t| FigureTally::from_totals(&t, fields)) else {
                return Ok(None);
            };
            these.push((seat, (w, figures, Vec::new())));
        }
        out.push(these);
    }
    Ok(Some(out))
}

/// Each seat's figures from its stored tally, joined with the tallies of its own the rubrics
/// that keep more than figures made of its attempts: the two hold the same seats in the same
/// order (a wave's seats are written once, with its attempts, and never change).
fn with_own_tallies(ledger: &Ledger, stored: HeldWaves, own: OwnWaves) -> Result<HeldWaves> {
    stored
        .into_iter()
        .zip(own)
        .map(|(figures, own)| {
            if figures.len() != own.len() {
                return Err(seats_changed(ledger));
            }
            figures
                .into_iter()
                .zip(own)
                .map(|((seat, (w, f, _)), (other, (_, own)))| {
                    if seat.id == other.id {
                        Ok((seat, (w, f, own)))
                    } else {
                        Err(seats_changed(ledger))
                    }
                })
                .collect()
        })
        .collect()
}

fn seats_changed(ledger: &Ledger) -> Error {
    Error::Ledger {
        path: ledger.path().to_path_buf(),
        message: "a wave's seats were not the same in two reads of the ledger, which \
                  benchledger never does (seats are append-only); nothing was written"
            .into(),
    }
    .hinted(Hint::VerifyLedger)
}

/// `f` of each of `items` (with its index), in order; the items cut into one run of
/// consecutive items per CPU, each run on its own thread.
fn on_every_cpu<T: Send, U: Send>(items: Vec<T>, f: impl Fn(usize, T) -> U + Sync) -> Vec<U> {
    let cpus = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let per_run = items.len().div_ceil(cpus).max(1);
    if per_run >= items.len() {
        return items
            .into_iter()
            .enumerate()
            .map(|(i, t)| f(i, t))
            .collect();
    }
    let mut runs: Vec<Vec<(usize, T)>> = Vec::new();
    for (i, t) in items.into_iter().enumerate() {
        match runs.last_mut() {
            Some(run) if run.len() < per_run => run.push((i, t)),
            _ => runs.push(vec![(i, t)]),
        }
    }
    let f = &f;
    std::thread::scope(|scope| {
        let handles: Vec<_> = runs
            .into_iter()
            .map(|run| {
                scope.spawn(move || run.into_iter().map(|(i, t)| f(i, t)).collect::<Vec<U>>())
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| match h.join() {
                Ok(done) => done,
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect::<Vec<U>>()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledger::RubricRow;
    use crate::model::{
        Accounting, Attempt, Budget, Load, Provenance, SeatData, SuiteProblems, TraceStep, WaveData,
    };

    const NOW: &str = "2026-01-01T00:00:00Z";

    /// Wave `w{n}` of `seats` seats over five problems, every field some seats' attempts use.
    fn wave(n: usize, seats: usize) -> WaveData {
        let seats = (0..seats)
            .map(|s| SeatData {
                seat: Seat {
                    id: format!("seat-{s}"),
                    model: format!("m{}", s % 3),
                    provider: "p".into(),
                    harness: "h".into(),
                    config: None,
                    display_name: None,
                },
                attempts: (0..5)
                    .map(|p| {
                        let k = (n * 31 + s * 7 + p) as u64;
                        Attempt {
                            problem: format!("p{p}"),
                            trial: 1,
                            correct: !k.is_multiple_of(3),
                            outcome: Some((k % 5) as f64 / 4.0),
                            input_tokens: Some(1000 + 37 * k),
                            output_tokens: Some(100 + k),
                            input_tokens_cache_read: Some(10 * (k % 4)),
                            wall_s: Some(3.5 + (k % 11) as f64),
                            cost_usd: Some(0.01 * (k % 7) as f64),
                            // Unknown on some attempts: a per-attempt formula reading it is
                            // then undefined for the seat.
                            steps: (k % 13 != 5).then_some((k % 9) as u32),
                            errors: Some((k % 3) as u32),
                            trace: (k % 4 == 1).then(|| {
                                (0..k % 5)
                                    .map(|i| TraceStep {
                                        tool: format!("t{}", i % 2),
                                        ok: i % 3 == 0,
                                        error: None,
                                    })
                                    .collect()
                            }),
                            ..Attempt::empty()
                        }
                    })
                    .collect(),
            })
            .collect();
        WaveData {
            wave: Wave {
                id: format!("w{n}"),
                suite: "s".into(),
                started_at: NOW.into(),
                notes: None,
                suite_problems: Some(SuiteProblems::Count(5)),
                load: Load::default(),
                accounting: Accounting::default(),
                budget: Budget {
                    tokens: Some(30_000.0),
                    wall_s: Some(40.0),
                    cost_usd: Some(0.2),
                },
                provenance: Provenance::default(),
                supersedes: None,
                canary_problems: Vec::new(),
            },
            seats,
        }
    }

    /// A ledger of six waves (3, 1, 4, 1, 5 and 2 seats) with every shipped rubric registered.
    fn ledger() -> (Ledger, Vec<RubricRow>) {
        ledger_of(|_| true)
    }

    /// [`ledger`], with the traces of the attempts `keep` says no to (by seat and problem)
    /// left out.
    fn ledger_of(keep: impl Fn((usize, usize)) -> bool) -> (Ledger, Vec<RubricRow>) {
        let mut ledger = Ledger::in_memory().unwrap();
        let waves: Vec<_> = [3, 1, 4, 1, 5, 2]
            .iter()
            .enumerate()
            .map(|(n, &seats)| {
                let mut w = wave(n, seats);
                for (s, seat) in w.seats.iter_mut().enumerate() {
                    for (p, a) in seat.attempts.iter_mut().enumerate() {
                        if !keep((s, p)) {
                            a.trace = None;
                        }
                    }
                }
                w
            })
            .collect();
        ledger.add_waves(&waves, NOW).unwrap();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rubrics");
        let mut rows = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            let rubric = crate::rubric::parse(std::path::Path::new("r.toml"), &text).unwrap();
            rows.push(RubricRow {
                name: rubric.name.clone(),
                version: rubric.version,
                sha256: crate::digest::sha256_hex(text.as_bytes()),
                text,
                scale_violation: true,
                added_at: NOW.into(),
            });
        }
        rows.sort_by_key(RubricRow::id);
        ledger.add_rubrics(&rows).unwrap();
        (ledger, rows)
    }

    /// The two trace-holistic rubrics share their factors (outcome and steps), so `rescore
    /// --all` computes them once an attempt; no other pair of shipped rubrics does.
    #[test]
    fn the_trace_holistic_rubrics_share_their_factors() {
        let (rubrics, data) = shipped_rubrics();
        let scorers: Vec<Scorer<'_>> = rubrics.iter().map(|r| Scorer::new(r, &data.wave)).collect();
        assert_eq!(
            pairs_of(&rubrics, &scorers, |a, b| a.same_factors(b)),
            vec![(
                "trace-holistic-retries@1".to_string(),
                "trace-holistic@1".to_string()
            )]
        );
        // The same factors on another wave are not shared (its budget may differ).
        let other = wave(1, 1);
        let k = rubrics
            .iter()
            .position(|r| r.id() == "trace-holistic@1")
            .unwrap();
        assert!(scorers[k].same_factors(&Scorer::new(&rubrics[k], &data.wave)));
        assert!(!scorers[k].same_factors(&Scorer::new(&rubrics[k], &other.wave)));
    }

    /// Storing part by part, whatever the parts, stores for every wave and rubric the scores
    /// `rescore::streamed` gives wave by wave, and counts them.
    #[test]
    fn rescoring_in_parts_stores_each_waves_scores_as_scored_alone() {
        for part_seats in [1, 4, 5, 2048] {
            stores_each_waves_scores_as_scored_alone(ledger(), part_seats);
        }
    }

    /// The two trace-holistic rubrics keep one tally while a seat's attempts have no trace
    /// (`OwnTallies`' leader and follower); each stores what it scores alone, whether no
    /// attempt has a trace (the follower follows to the end), or traces come after attempts
    /// without one, or the first attempt has one, or an attempt whose steps are unknown comes
    /// first (the formula undefined, with each rubric's own reason).
    #[test]
    fn rubrics_differing_in_free_retries_store_what_each_scores_alone() {
        let (rubrics, data) = shipped_rubrics();
        let scorers: Vec<Scorer<'_>> = rubrics.iter().map(|r| Scorer::new(r, &data.wave)).collect();
        assert_eq!(
            pairs_of(&rubrics, &scorers, |a, b| a.same_without_trace(b)),
            vec![(
                "trace-holistic-retries@1".to_string(),
                "trace-holistic@1".to_string()
            )]
        );
        stores_each_waves_scores_as_scored_alone(ledger_of(|_| false), 2048);
        // Traces only past the second problem: the follower leaves its leader mid-seat.
        stores_each_waves_scores_as_scored_alone(ledger_of(|(_, p)| p >= 2), 2048);
        // Traces on every other seat only.
        stores_each_waves_scores_as_scored_alone(ledger_of(|(s, _)| s % 2 == 1), 3);
    }

    /// Every shipped rubric, and a wave of one seat to score them on.
    fn shipped_rubrics() -> (Vec<Rubric>, WaveData) {
        let (_, rows) = ledger();
        let rubrics = rows
            .iter()
            .map(|r| crate::rubric::parse(std::path::Path::new("r.toml"), &r.text).unwrap())
            .collect();
        (rubrics, wave(0, 1))
    }

    /// The pairs of rubrics (by id, in the order given) whose scorers stand in `relation`,
    /// checked to be symmetric.
    fn pairs_of(
        rubrics: &[Rubric],
        scorers: &[Scorer<'_>],
        relation: impl Fn(&Scorer<'_>, &Scorer<'_>) -> bool,
    ) -> Vec<(String, String)> {
        let mut pairs = Vec::new();
        for (i, a) in scorers.iter().enumerate() {
            for (j, b) in scorers.iter().enumerate().skip(i + 1) {
                assert_eq!(relation(a, b), relation(b, a), "{}", rubrics[i].id());
                if relation(a, b) {
                    pairs.push((rubrics[i].id(), rubrics[j].id()));
                }
            }
        }
        pairs
    }

    /// `store_in` over the whole `ledger`, in parts of `part_seats` seats, stores for every
    /// wave and rubric the scores `rescore::streamed` gives wave by wave, and counts them.
    fn stores_each_waves_scores_as_scored_alone(
        (mut ledger, rows): (Ledger, Vec<RubricRow>),
        part_seats: usize,
    ) {
        let rubrics: Vec<Rubric> = rows
            .iter()
            .map(|r| crate::rubric::parse(std::path::Path::new("r.toml"), &r.text).unwrap())
            .collect();
        let refs: Vec<&Rubric> = rubrics.iter().collect();
        let shas: Vec<&str> = rows.iter().map(|r| r.sha256.as_str()).collect();
        let ids = ledger.wave_ids().unwrap();
        assert_eq!(ids.len(), 6);
        let stored = store_in(&mut ledger, &refs, &shas, &ids, part_seats).unwrap();
        assert_eq!(stored.seats, vec![16; rows.len()], "part of {part_seats}");
        for (k, rubric) in refs.iter().enumerate() {
            let mut undefined = 0;
            for id in &ids {
                let alone = streamed(&ledger, rubric, id).unwrap();
                undefined += alone.seats.iter().filter(|s| s.score.is_none()).count();
                let mut kept: Vec<_> = ledger
                    .stored_scores(shas[k], id)
                    .unwrap()
                    .into_iter()
                    .map(|s| s.score)
                    .collect();
                let mut want = alone.seats.clone();
                kept.sort_by(|a, b| a.seat.cmp(&b.seat));
                want.sort_by(|a, b| a.seat.cmp(&b.seat));
                assert_eq!(kept, want, "{} in {id}, part of {part_seats}", rubric.id());
            }
            assert_eq!(stored.undefined[k], undefined, "{}", rubric.id());
        }
    }
}
