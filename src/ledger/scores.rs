//! Stored scores: what `rescore` derives, keyed by the rubric's hash. Derived data may be
//! replaced; the attempts it comes from never are.

use std::collections::BTreeMap;

use rusqlite::params;

use super::{Ledger, on_sqlite, sqlite};
use crate::error::{Error, Result};
use crate::rubric::{SeatScore, WaveScores};

/// A score as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredScore {
    pub wave: String,
    pub score: SeatScore,
}

/// A stored score as read: wave, seat, score, rank, factors, gate, tie, note.
pub(super) type ScoreRow = (
    String,
    String,
    Option<f64>,
    Option<u32>,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
);

/// How the named values behind a score are stored: a canonical JSON object (docs/formats.md),
/// names in order, every value a finite number (the interpreter never makes another).
pub(super) fn factors_text(factors: &BTreeMap<String, f64>) -> String {
    crate::formats::json::to_string(|j| {
        j.begin_object();
        for (k, v) in factors {
            j.key(k).f64(*v);
        }
        j.end_object();
    })
}

/// Reads stored factors back, each number exactly as written.
fn parse_factors(text: &str) -> std::result::Result<BTreeMap<String, f64>, String> {
    use crate::formats::read::{Val, parse};
    match parse(text).map_err(|e| e.to_string())? {
        Val::Obj(fields) => fields
            .into_iter()
            .map(|(k, v)| match v {
                Val::Num(n) => n
                    .parse()
                    .map(|x| (k.clone(), x))
                    .map_err(|_| format!("{k}: {n} is not a number")),
                other => Err(format!("{k}: expected a number, got {other}")),
            })
            .collect(),
        other => Err(format!("expected an object of named values, got {other}")),
    }
}

impl Ledger {
    /// Replaces the stored scores of a registered rubric for the given waves, in one
    /// transaction. Returns how many seats' scores were stored.
    pub fn store_scores(&mut self, rubric_sha256: &str, waves: &[WaveScores]) -> Result<u64> {
        Ok(self.store_scores_of(&[(rubric_sha256, waves)])?[0])
    }

    /// [`Ledger::store_scores`] for several registered rubrics (each by its hash, with its
    /// waves' scores), all in one transaction. Returns how many seats' scores were stored under
    /// each.
    pub fn store_scores_of(&mut self, sets: &[(&str, &[WaveScores])]) -> Result<Vec<u64>> {
        let path = self.path.clone();
        let ids: Vec<(i64, &[WaveScores])> = sets
            .iter()
            .map(|&(sha, waves)| Ok((self.rubric_rowid(sha)?, waves)))
            .collect::<Result<_>>()?;
        on_sqlite!(self, pg => pg.store_scores(&ids));
        let tx = self.begin_write()?;
        let mut counts = Vec::with_capacity(ids.len());
        {
            let mut seat_ids = tx
                .prepare_cached(
                    "SELECT s.slug, s.id FROM seat s JOIN wave w ON w.id = s.wave_id
                     WHERE w.slug = ?1",
                )
                .map_err(|e| sqlite(&path, e))?;
            let mut delete = tx
                .prepare_cached(
                    "DELETE FROM score WHERE rubric_id = ?1 AND seat_id IN
                       (SELECT s.id FROM seat s JOIN wave w ON w.id = s.wave_id WHERE w.slug = ?2)",
                )
                .map_err(|e| sqlite(&path, e))?;
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO score(rubric_id, seat_id, score, rank, factors, gate, tie, note)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                )
                .map_err(|e| sqlite(&path, e))?;
            // A wave's seats, by slug: the same for every rubric.
            let mut seats_of: BTreeMap<&str, BTreeMap<String, i64>> = BTreeMap::new();
            for &(rubric_id, waves) in &ids {
                let mut stored = 0;
                for w in waves {
                    let ids = match seats_of.entry(w.wave.as_str()) {
                        std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
                        std::collections::btree_map::Entry::Vacant(e) => e.insert(
                            seat_ids
                                .query_map([&w.wave], |r| Ok((r.get(0)?, r.get(1)?)))
                                .and_then(|rows| rows.collect())
                                .map_err(|e| sqlite(&path, e))?,
                        ),
                    };
                    delete
                        .execute(params![rubric_id, w.wave])
                        .map_err(|e| sqlite(&path, e))?;
                    for s in &w.seats {
                        let Some(seat_id) = ids.get(&s.seat) else {
                            return Err(no_seat(&w.wave, &s.seat));
                        };
                        let factors = factors_text(&s.factors);
                        insert
                            .execute(params![
                                rubric_id, seat_id, s.score, s.rank, factors, s.gate, s.tie, s.note
                            ])
                            .map_err(|e| sqlite(&path, e))?;
                        stored += 1;
                    }
                }
                counts.push(stored);
            }
        }
        tx.commit().map_err(|e| sqlite(&path, e))?;
        Ok(counts)
    }

    /// The stored scores of a rubric in one wave, best first (as ranked).
    pub fn stored_scores(&self, rubric_sha256: &str, wave: &str) -> Result<Vec<StoredScore>> {
        let rubric_id = self.rubric_rowid(rubric_sha256)?;
        let rows = self.score_rows(rubric_id, wave)?;
        let ranks: Vec<Option<u32>> = rows.iter().map(|r| r.3).collect();
        rows.into_iter()
            .map(|(wave, seat, score, rank, factors, gate, tie, note)| {
                let rank_shared =
                    rank.is_some() && ranks.iter().filter(|r| **r == rank).count() > 1;
                let factors = parse_factors(&factors).map_err(|e| Error::Ledger {
                    path: self.path.clone(),
                    message: format!(
                        "stored factors of seat {seat} in wave {wave} are malformed: {e}"
                    ),
                })?;
                Ok(StoredScore {
                    wave,
                    score: SeatScore {
                        seat,
                        score,
                        factors,
                        gate,
                        note,
                        rank,
                        tie,
                        rank_shared,
                    },
                })
            })
            .collect()
    }

    /// The rows of [`Ledger::stored_scores`], best first.
    fn score_rows(&self, rubric_id: i64, wave: &str) -> Result<Vec<ScoreRow>> {
        let conn = on_sqlite!(self, pg => pg.score_rows(rubric_id, wave));
        let mut stmt = conn
            .prepare_cached(
                "SELECT w.slug, s.slug, sc.score, sc.rank, sc.factors, sc.gate, sc.tie, sc.note
                 FROM score sc JOIN seat s ON s.id = sc.seat_id JOIN wave w ON w.id = s.wave_id
                 WHERE sc.rubric_id = ?1 AND w.slug = ?2
                 ORDER BY sc.rank IS NULL, sc.rank, s.slug",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map(params![rubric_id, wave], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<f64>>(2)?,
                    r.get::<_, Option<u32>>(3)?,
                    r.get::<_, String>(4)?,
                    r.get::<_, Option<String>>(5)?,
                    r.get::<_, Option<String>>(6)?,
                    r.get::<_, Option<String>>(7)?,
                ))
            })
            .and_then(|rows| rows.collect::<rusqlite::Result<Vec<_>>>())
            .map_err(|e| self.err(e))?;
        Ok(rows)
    }

    pub(crate) fn rubric_rowid(&self, sha256: &str) -> Result<i64> {
        self.rubric_id_of(sha256)?.ok_or_else(|| {
            Error::Usage(format!(
                "no rubric with sha256 {} is registered; register it with `benchledger \
                     rubric add FILE`",
                crate::digest::short(sha256)
            ))
        })
    }
}

/// A score for a seat its wave does not have.
pub(super) fn no_seat(wave: &str, seat: &str) -> Error {
    Error::Usage(format!("wave {wave} has no seat {seat}"))
}

impl Ledger {
    fn rubric_id_of(&self, sha256: &str) -> Result<Option<i64>> {
        use rusqlite::OptionalExtension;
        let conn = on_sqlite!(self, pg => pg.rubric_id_of(sha256));
        conn.prepare_cached("SELECT id FROM rubric WHERE sha256 = ?1")
            .and_then(|mut s| s.query_row([sha256], |r| r.get(0)).optional())
            .map_err(|e| self.err(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factors_read_back_exactly() {
        let factors: BTreeMap<String, f64> = [
            ("tokens".to_string(), 92_435.845_673_802_28),
            ("gate.accuracy".to_string(), 0.1 + 0.2),
            ("penalty.errors".to_string(), -0.0),
        ]
        .into_iter()
        .collect();
        let text = factors_text(&factors);
        let back = parse_factors(&text).unwrap();
        assert_eq!(back.len(), 3);
        for (k, v) in &factors {
            assert_eq!(back[k].to_bits(), v.to_bits(), "{k}");
        }
        assert!(parse_factors("[1]").is_err());
        assert!(parse_factors(r#"{"a":"x"}"#).is_err());
    }
}
