//! Seat tallies: each seat's totals, kept beside it since it was ingested (schema.sql,
//! migration 6; the text in `formats::tally`).
//!
//! A rescore under rubrics that read nothing of an attempt but its figures needs, of each seat,
//! only the totals its attempts add up to; the attempts are append-only, so the totals taken at
//! ingest never go stale. Reading them is one row a seat instead of every attempt: on
//! PostgreSQL, where every attempt read is a row sent to the client, that is the difference
//! between reading the history and reading a thousandth of it. Whoever reads them falls back to
//! the attempts for any seat that has none in the latest format (a seat ingested before
//! tallies were kept), so a tally is only ever a shortcut to what the attempts say; `verify
//! --ledger` checks that it is.

use std::collections::HashMap;

use super::Ledger;
use super::sql::{Value, values};
use super::waves::seat_at;
use crate::error::Result;
use crate::formats::tally;
use crate::model::Seat;

/// Each wave's seats, in ledger order, with the text of their tally in the latest seat tally
/// format (`None`: none stored in it).
pub type SeatTallies = Vec<Vec<(Seat, Option<String>)>>;

/// How many waves' seats one query reads at most (each wave is a parameter of it).
const WAVES_A_QUERY: usize = 500;

impl Ledger {
    /// The seats of each wave of `slugs` (in that order), each in ledger order as
    /// `Ledger::fold_waves` gives them, with the tally stored for it in the latest seat tally
    /// format, as text (`formats::tally::read` reads it). A seat without one has `None`: its
    /// attempts are the only source of its figures.
    pub fn seat_tallies(&self, slugs: &[String]) -> Result<SeatTallies> {
        self.seat_tallies_in(slugs, tally::LATEST)
    }

    /// As [`Ledger::seat_tallies`], with each seat's tally in seat tally format `format`: a
    /// ledger keeps the tallies of older formats beside the latest, and `verify --ledger`
    /// checks each.
    pub(crate) fn seat_tallies_in(&self, slugs: &[String], format: u32) -> Result<SeatTallies> {
        let rowids: Vec<i64> = slugs
            .iter()
            .map(|s| self.wave_rowid(s))
            .collect::<Result<_>>()?;
        // Each wave's seats, by wave row id: the waves asked for a few hundred to a query.
        let mut of_wave: HashMap<i64, Vec<(Seat, Option<String>)>> = HashMap::new();
        self.read(|sql| {
            let mut distinct = rowids.clone();
            distinct.sort_unstable();
            distinct.dedup();
            for some in distinct.chunks(WAVES_A_QUERY) {
                let slots: Vec<String> = (2..some.len() + 2).map(|i| format!("?{i}")).collect();
                let mut params = vec![Value::from(format)];
                params.extend(some.iter().map(|&id| Value::from(id)));
                let rows = sql.rows(
                    &format!(
                        "SELECT s.wave_id, s.slug, s.model, s.provider, s.harness, s.config,
                            (SELECT name FROM seat_display_name d WHERE d.seat_id = s.id),
                            t.tally
                         FROM seat s LEFT JOIN seat_tally t ON t.seat_id = s.id AND t.format = ?1
                         WHERE s.wave_id IN ({}) ORDER BY s.wave_id, s.slug",
                        slots.join(", ")
                    ),
                    &params,
                    |r| Ok((r.get::<i64>(0)?, seat_at(r, 1)?, r.get(7)?)),
                )?;
                for (wave, seat, text) in rows {
                    of_wave.entry(wave).or_default().push((seat, text));
                }
            }
            Ok(())
        })?;
        Ok(rowids
            .iter()
            .map(|id| of_wave.get(id).cloned().unwrap_or_default())
            .collect())
    }

    /// Keeps the tallies of seats of the wave `wave` that have none in the latest format
    /// (`tallies`: each seat's id and its tally's text, written by `formats::tally::write`
    /// from the seat's attempts as the ledger gives them back), in one transaction. A seat that
    /// has one already keeps it: tallies, like the attempts they come from, are never changed.
    /// Returns how many were kept.
    pub(crate) fn keep_seat_tallies(
        &self,
        wave: &str,
        tallies: &[(String, String)],
    ) -> Result<usize> {
        self.write(|sql| {
            let mut kept = 0;
            for (seat, text) in tallies {
                kept += sql.execute(
                    "INSERT INTO seat_tally(seat_id, format, tally)
                     SELECT s.id, ?3, ?4 FROM seat s JOIN wave w ON w.id = s.wave_id
                     WHERE w.slug = ?1 AND s.slug = ?2
                     ON CONFLICT DO NOTHING",
                    &values![wave, seat, tally::LATEST, text],
                )?;
            }
            Ok(kept)
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::figures::{Basis, FigureTally, tallied_field_sets};
    use crate::formats::tally;
    use crate::ledger::Ledger;
    use crate::model::{Accounting, Attempt, Seat, SeatData, SuiteProblems, Wave, WaveData};

    fn wave(id: &str, include_cache_reads: bool) -> WaveData {
        let attempt = |p: usize, trial: u32| Attempt {
            problem: format!("p{p}"),
            trial,
            correct: (p + trial as usize).is_multiple_of(3),
            // A -0.0 outcome reads back from the ledger as 0.0: the tally must be of that.
            outcome: match p % 4 {
                0 => None,
                1 => Some(-0.0),
                _ => Some(p as f64 / 7.0),
            },
            input_tokens: (p != 5).then_some(1000 + p as u64),
            output_tokens: Some(10 * p as u64),
            input_tokens_cache_read: p.is_multiple_of(2).then_some(700),
            input_tokens_cache_write: (p == 3).then_some(5),
            wall_s: (p != 2).then_some(0.1 * p as f64 + 0.3),
            cost_usd: Some(0.01 * trial as f64),
            steps: Some(p as u32),
            errors: (p == 4).then_some(2),
            ..Attempt::empty()
        };
        let seat = |s: usize, attempts: Vec<Attempt>| SeatData {
            seat: Seat {
                id: format!("seat{s}"),
                model: "m".into(),
                provider: "p".into(),
                harness: "h".into(),
                config: None,
                display_name: None,
            },
            attempts,
        };
        WaveData {
            wave: Wave {
                id: id.into(),
                suite: "s".into(),
                started_at: "2026-01-01T00:00:00Z".into(),
                notes: None,
                suite_problems: Some(SuiteProblems::Ids(vec![
                    "p0".into(),
                    "p1".into(),
                    "p9".into(),
                ])),
                load: Default::default(),
                accounting: Accounting {
                    input_tokens_include_cache_reads: include_cache_reads,
                    price_source: None,
                },
                budget: Default::default(),
                provenance: Default::default(),
                supersedes: None,
                canary_problems: vec!["p1".into(), "p2".into()],
            },
            seats: vec![
                seat(
                    0,
                    (0..8)
                        .flat_map(|p| (1..=2).map(move |t| attempt(p, t)))
                        .collect(),
                ),
                // One attempt, outcome -0.0.
                seat(1, vec![attempt(1, 1)]),
                seat(2, Vec::new()),
            ],
        }
    }

    #[test]
    fn a_stored_tally_gives_the_figures_of_the_attempts_read_back_with_any_fields() {
        let mut l = Ledger::in_memory().unwrap();
        let waves = [wave("a", false), wave("b", true)];
        l.add_waves(&waves, "2026-01-02T00:00:00Z").unwrap();
        let slugs = vec!["a".to_string(), "b".to_string()];
        let stored = l.seat_tallies(&slugs).unwrap();
        for (slug, seats) in slugs.iter().zip(&stored) {
            assert_eq!(seats.len(), 3);
            let conditions = l.wave_conditions(slug).unwrap();
            let basis = Basis::of(&conditions);
            let mut derived = 0;
            for f in tallied_field_sets() {
                let read = l
                    .fold_wave(slug, f, |_| FigureTally::new(), |t, a| t.add(&basis, a))
                    .unwrap();
                for ((seat, want), (stored_seat, text)) in read.iter().zip(seats) {
                    assert_eq!(seat, stored_seat);
                    let totals = tally::read(tally::LATEST, text.as_deref().unwrap()).unwrap();
                    if let Some(got) = FigureTally::from_totals(&totals, f) {
                        derived += 1;
                        // Debug tells -0.0 from 0.0: the bits are compared.
                        assert_eq!(
                            format!("{:?}", got.totals()),
                            format!("{:?}", want.totals()),
                            "wave {slug}, {}, {f:?}",
                            seat.id
                        );
                    }
                }
            }
            assert!(derived > 900, "{derived}");
        }
    }
}
