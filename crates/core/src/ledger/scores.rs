//! Stored scores: what `rescore` derives, keyed by the rubric's hash. Derived data may be
//! replaced; the attempts it comes from never are.

use std::collections::{BTreeMap, BTreeSet};

use rusqlite::params;

use super::sql::{Cell, Sql, Value, values};
use super::{Ledger, sqlite};
use crate::cancel::Cancel;
use crate::error::{Error, Hint, Result};
use crate::rubric::StoredScore;
use crate::rubric::{SeatScore, WaveScores};

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

/// [`factors_text`] written into `out` (emptied first), the same text without its pieces'
/// allocations: a rescore writes one a seat and rubric. A name that canonical JSON escapes
/// (a quote, a backslash, a control character) has the whole text written by
/// [`factors_text`].
pub(super) fn write_factors(out: &mut String, factors: &BTreeMap<String, f64>) {
    out.clear();
    if factors
        .keys()
        .any(|k| k.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\'))
    {
        out.push_str(&factors_text(factors));
        return;
    }
    out.push('{');
    for (i, (k, v)) in factors.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('"');
        out.push_str(k);
        out.push_str("\":");
        push_number(out, *v);
    }
    out.push('}');
}

/// `json::number(x)` pushed onto `out`. That function writes Ryū's shortest digits in plain
/// notation exactly as Ryū does (the same range of exponents, always a fractional part, `-0.0`
/// signed) and only its scientific notation its own way: Ryū's text is taken as it is when it
/// has no exponent (test `numbers_are_pushed_as_json_writes_them`).
pub(super) fn push_number(out: &mut String, x: f64) {
    if x.is_finite() {
        let mut ryu = ryu::Buffer::new();
        let shortest = ryu.format_finite(x);
        if !shortest.contains('e') {
            out.push_str(shortest);
            return;
        }
    }
    out.push_str(&crate::formats::json::number(x));
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

/// Scores handed to `Ledger::store_scores_in_parts`, wave by wave: each replaces what was
/// stored for its wave under its rubric, all of them in one transaction.
pub struct ScoreWriter<'l> {
    to: Parts<'l>,
    /// Each rubric's row id, in the order the rubrics were named.
    rubric_ids: Vec<i64>,
    /// How many seats' scores were put under each rubric.
    counts: Vec<u64>,
    /// The ledger's request to stop, checked before each wave's scores are put.
    cancel: &'l Cancel,
}

enum Parts<'l> {
    /// Written as they come, in the open transaction.
    Sqlite {
        tx: rusqlite::Transaction<'l>,
        /// Boxed: the variant that gathers is a vector.
        statements: Box<Statements<'l>>,
        path: &'l std::path::Path,
        /// A wave's seats (slug to row id), looked up once for every rubric.
        seats_of: BTreeMap<String, BTreeMap<String, i64>>,
    },
    /// Gathered, by rubric: the server takes each rubric's rows in one statement.
    #[cfg(feature = "postgres")]
    Postgres(Vec<Vec<WaveScores>>),
}

impl ScoreWriter<'_> {
    /// Puts one wave's scores under the `k`th rubric named: they replace the wave's stored
    /// scores under it whole (a seat they leave out keeps none from before).
    ///
    /// Fails with [`Error::Interrupted`], and the whole transaction with it, once the ledger's
    /// work was asked to stop ([`Ledger::set_cancel`]).
    pub fn put(&mut self, k: usize, wave: WaveScores) -> Result<()> {
        self.cancel.check()?;
        let seats = wave.seats.len() as u64;
        match &mut self.to {
            Parts::Sqlite {
                statements,
                path,
                seats_of,
                ..
            } => replace_wave(statements, path, self.rubric_ids[k], seats_of, &wave)?,
            #[cfg(feature = "postgres")]
            Parts::Postgres(parts) => parts[k].push(wave),
        }
        self.counts[k] += seats;
        Ok(())
    }
}

impl Ledger {
    /// Replaces the stored scores of a registered rubric for the given waves, in one
    /// transaction. Returns how many seats' scores were stored.
    pub fn store_scores(&mut self, rubric_sha256: &str, waves: &[WaveScores]) -> Result<u64> {
        let (counts, ()) = self.store_scores_in_parts(&[rubric_sha256], |w| {
            waves.iter().try_for_each(|s| w.put(0, s.clone()))
        })?;
        Ok(counts[0])
    }

    /// Stores the scores `fill` puts, under the registered rubrics named by hash (the `k`th
    /// is [`ScoreWriter::put`]'s `k`), all in one transaction: every wave's scores land, or
    /// none do. On SQLite each wave's are written as they are put, so a caller making them
    /// part by part holds one part at a time. Returns how many seats' scores were stored under
    /// each rubric, and what `fill` returned. Once the ledger's writes are asked to stop
    /// ([`Ledger::set_cancel`]), the next wave put, or else the commit, fails with
    /// [`Error::Interrupted`] and nothing is stored.
    pub(crate) fn store_scores_in_parts<T>(
        &mut self,
        rubric_sha256s: &[&str],
        fill: impl FnOnce(&mut ScoreWriter<'_>) -> Result<T>,
    ) -> Result<(Vec<u64>, T)> {
        let rubric_ids: Vec<i64> = rubric_sha256s
            .iter()
            .map(|sha| self.rubric_rowid(sha))
            .collect::<Result<_>>()?;
        let n = rubric_ids.len();
        #[cfg(feature = "postgres")]
        if let super::Store::Postgres(pg) = &self.store {
            let mut w = ScoreWriter {
                to: Parts::Postgres(vec![Vec::new(); n]),
                rubric_ids,
                counts: vec![0; n],
                cancel: &self.cancel,
            };
            let made = fill(&mut w)?;
            let Parts::Postgres(parts) = &w.to else {
                unreachable!("a writer for the server gathers");
            };
            let sets: Vec<(i64, &[WaveScores])> = w
                .rubric_ids
                .iter()
                .zip(parts)
                .map(|(&id, waves)| (id, waves.as_slice()))
                .collect();
            let stored = pg.write(|sql| {
                let stored = store_gathered(sql, &sets)?;
                self.cancel.check()?;
                Ok(stored)
            })?;
            return Ok((stored, made));
        }
        let path = self.path.clone();
        let tx = self.begin_write()?;
        let statements = Box::new(Statements::prepare(self.lite()?).map_err(|e| sqlite(&path, e))?);
        let mut w = ScoreWriter {
            to: Parts::Sqlite {
                tx,
                statements,
                path: &path,
                seats_of: BTreeMap::new(),
            },
            rubric_ids,
            counts: vec![0; n],
            cancel: &self.cancel,
        };
        let made = fill(&mut w)?;
        // The last check before the commit: a rescore asked to stop is rolled back.
        self.cancel.check()?;
        #[cfg_attr(
            not(feature = "postgres"),
            allow(clippy::infallible_destructuring_match)
        )]
        let tx = match w.to {
            Parts::Sqlite { tx, statements, .. } => {
                drop(statements);
                tx
            }
            #[cfg(feature = "postgres")]
            Parts::Postgres(_) => unreachable!("a writer for a file writes as it goes"),
        };
        tx.commit().map_err(|e| sqlite(&path, e))?;
        Ok((w.counts, made))
    }

    /// The stored scores of a rubric in one wave, best first (as ranked).
    pub(crate) fn stored_scores(
        &self,
        rubric_sha256: &str,
        wave: &str,
    ) -> Result<Vec<StoredScore>> {
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
        self.read(|sql| {
            sql.rows(
                "SELECT w.slug, s.slug, sc.score, sc.rank, sc.factors, sc.gate, sc.tie, sc.note
                 FROM score sc JOIN seat s ON s.id = sc.seat_id JOIN wave w ON w.id = s.wave_id
                 WHERE sc.rubric_id = ?1 AND w.slug = ?2
                 ORDER BY sc.rank IS NULL, sc.rank, s.slug",
                &values![rubric_id, wave],
                |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.unsigned_opt(3, "score.rank")?,
                        r.get(4)?,
                        r.get(5)?,
                        r.get(6)?,
                        r.get(7)?,
                    ))
                },
            )
        })
    }

    pub(crate) fn rubric_rowid(&self, sha256: &str) -> Result<i64> {
        self.rubric_id_of(sha256)?.ok_or_else(|| {
            Error::Usage(format!(
                "no rubric with sha256 {} is registered",
                crate::digest::short(sha256)
            ))
            .hinted(Hint::RegisterRubricFile)
        })
    }
}

/// The statements that store a wave's scores, prepared once for a whole rescore (on the
/// connection the transaction holds).
struct Statements<'l> {
    seats: rusqlite::CachedStatement<'l>,
    /// The scores stored under a rubric for the seats whose ids lie in a range: a wave's
    /// rows, read in one pass of the table's key (a wave's seats are written together, so
    /// their ids are close; rows of other waves' seats in the range are passed over).
    stored: rusqlite::CachedStatement<'l>,
    /// A seat's score replaced in place where it changed: its row keeps its place in both
    /// indexes, and its rubric and seat, already checked, are not checked again.
    update: rusqlite::CachedStatement<'l>,
    /// A seat's first score under the rubric (an upsert only in case a caller gives a seat
    /// twice: the later score is the one kept, as an update would keep it).
    insert: rusqlite::CachedStatement<'l>,
    delete: rusqlite::CachedStatement<'l>,
    /// The text of the factors of the seat at hand ([`write_factors`]), its buffer reused.
    factors: String,
    /// The wave at hand's stored rows under the rubric at hand, by seat id (`None`: a row
    /// that does not read as one benchledger writes, to write again).
    held: BTreeMap<i64, Option<StoredRow>>,
}

/// A stored score's row as [`Statements::stored`] reads it: score, rank, factors, gate,
/// tie, note.
type StoredRow = (
    Option<f64>,
    Option<i64>,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
);

impl<'l> Statements<'l> {
    fn prepare(conn: &'l rusqlite::Connection) -> rusqlite::Result<Statements<'l>> {
        Ok(Statements {
            seats: conn.prepare_cached(
                "SELECT s.slug, s.id FROM seat s JOIN wave w ON w.id = s.wave_id
                 WHERE w.slug = ?1",
            )?,
            stored: conn.prepare_cached(
                "SELECT seat_id, score, rank, factors, gate, tie, note FROM score
                 WHERE rubric_id = ?1 AND seat_id BETWEEN ?2 AND ?3",
            )?,
            update: conn.prepare_cached(
                "UPDATE score SET score = ?3, rank = ?4, factors = ?5, gate = ?6, tie = ?7,
                   note = ?8
                 WHERE rubric_id = ?1 AND seat_id = ?2",
            )?,
            insert: conn.prepare_cached(
                "INSERT INTO score(rubric_id, seat_id, score, rank, factors, gate, tie, note)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                 ON CONFLICT (rubric_id, seat_id) DO UPDATE SET score = ?3, rank = ?4,
                   factors = ?5, gate = ?6, tie = ?7, note = ?8",
            )?,
            delete: conn
                .prepare_cached("DELETE FROM score WHERE rubric_id = ?1 AND seat_id = ?2")?,
            factors: String::new(),
            held: BTreeMap::new(),
        })
    }

    /// Reads into [`Statements::held`] the rows stored under rubric `rubric_id` for the seats
    /// with ids `ids` (and any other seat whose id lies between theirs).
    fn hold(
        &mut self,
        rubric_id: i64,
        ids: impl Iterator<Item = i64> + Clone,
    ) -> rusqlite::Result<()> {
        self.held.clear();
        let (Some(lo), Some(hi)) = (ids.clone().min(), ids.max()) else {
            return Ok(());
        };
        let mut rows = self.stored.query(params![rubric_id, lo, hi])?;
        while let Some(r) = rows.next()? {
            let row = (|| -> rusqlite::Result<StoredRow> {
                Ok((
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                ))
            })();
            self.held.insert(r.get(0)?, row.ok());
        }
        Ok(())
    }
}

/// Replaces the stored scores of wave `w` under rubric `rubric_id` with its scores: each
/// seat's row updated where it changed (or inserted, the first time), and a seat they leave
/// out deleted. A row that already holds the seat's score is not written again, so a rescore
/// that changes nothing writes nothing; the wave's rows are read in one query, not looked up
/// one by one (bench/README.md, round 16).
fn replace_wave(
    st: &mut Statements<'_>,
    path: &std::path::Path,
    rubric_id: i64,
    seats_of: &mut BTreeMap<String, BTreeMap<String, i64>>,
    w: &WaveScores,
) -> Result<()> {
    let err = |e| sqlite(path, e);
    if !seats_of.contains_key(&w.wave) {
        let seats = st
            .seats
            .query_map([&w.wave], |r| Ok((r.get(0)?, r.get(1)?)))
            .and_then(|rows| rows.collect())
            .map_err(err)?;
        seats_of.insert(w.wave.clone(), seats);
    }
    let ids = &seats_of[&w.wave];
    st.hold(rubric_id, ids.values().copied()).map_err(err)?;
    for s in &w.seats {
        let Some(&seat_id) = ids.get(&s.seat) else {
            return Err(no_seat(&w.wave, &s.seat));
        };
        write_factors(&mut st.factors, &s.factors);
        let rank = s.rank.map(i64::from);
        let statement = match st.held.remove(&seat_id) {
            Some(Some((score, was_rank, factors, gate, tie, note)))
                if score == s.score
                    && was_rank == rank
                    && factors == st.factors
                    && gate == s.gate
                    && tie == s.tie
                    && note == s.note =>
            {
                continue;
            }
            Some(_) => &mut st.update,
            None => &mut st.insert,
        };
        let row = params![
            rubric_id, seat_id, s.score, rank, st.factors, s.gate, s.tie, s.note
        ];
        statement.execute(row).map_err(err)?;
    }
    // The wave's scores are these alone: a seat not scored now keeps no score from before.
    for &seat_id in ids.values().filter(|id| st.held.contains_key(*id)) {
        st.delete
            .execute(params![rubric_id, seat_id])
            .map_err(err)?;
    }
    Ok(())
}

/// Replaces stored scores, rubric by rubric, in the open write transaction and a handful of
/// statements (how the server stores what a [`ScoreWriter`] gathered: each statement is a round
/// trip): the seats of every wave named found in one query, then per rubric one delete of
/// those waves' scores and every row through the store's bulk load ([`Sql::sink`]). Nothing in
/// it is the server's: the tests run it on SQLite, against the writer SQLite uses.
#[cfg_attr(not(feature = "postgres"), allow(dead_code))]
fn store_gathered(sql: &mut Sql<'_>, sets: &[(i64, &[WaveScores])]) -> Result<Vec<u64>> {
    let slugs: BTreeSet<&str> = sets
        .iter()
        .flat_map(|(_, waves)| waves.iter().map(|w| w.wave.as_str()))
        .collect();
    if slugs.is_empty() {
        return Ok(vec![0; sets.len()]);
    }
    let slugs: Vec<Value<'_>> = slugs.into_iter().map(Value::from).collect();
    // The waves named, as the placeholders `?from, ?from+1, …`.
    let named = |from: usize| {
        (from..from + slugs.len())
            .map(|i| format!("?{i}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // (wave, seat) -> seat row id.
    let seat_ids: BTreeMap<(String, String), i64> = sql
        .rows(
            &format!(
                "SELECT w.slug, s.slug, s.id FROM seat s JOIN wave w ON w.id = s.wave_id
                 WHERE w.slug IN ({})",
                named(1)
            ),
            &slugs,
            |r| Ok(((r.get(0)?, r.get(1)?), r.get(2)?)),
        )?
        .into_iter()
        .collect();
    let delete = format!(
        "DELETE FROM score WHERE rubric_id = ?1 AND seat_id IN
           (SELECT s.id FROM seat s JOIN wave w ON w.id = s.wave_id WHERE w.slug IN ({}))",
        named(2)
    );
    let columns: Vec<String> = ["rubric_id", "seat_id", "score", "rank", "factors", "gate"]
        .into_iter()
        .chain(["tie", "note"])
        .map(String::from)
        .collect();
    let text = |t: &Option<String>| t.clone().map_or(Cell::Null, Cell::Text);
    let mut counts = Vec::with_capacity(sets.len());
    for &(rubric_id, waves) in sets {
        // Every seat of the waves named loses its score under the rubric; those scored now get
        // theirs back.
        let mut params = vec![Value::Int(rubric_id)];
        params.extend_from_slice(&slugs);
        sql.execute(&delete, &params)?;
        let mut out = sql.sink("score", &columns)?;
        let mut rows = 0;
        for w in waves {
            for s in &w.seats {
                let Some(&id) = seat_ids.get(&(w.wave.clone(), s.seat.clone())) else {
                    return Err(no_seat(&w.wave, &s.seat));
                };
                out.write(&[
                    Cell::Int(rubric_id),
                    Cell::Int(id),
                    s.score.map_or(Cell::Null, Cell::Real),
                    s.rank.map_or(Cell::Null, |r| Cell::Int(i64::from(r))),
                    Cell::Text(factors_text(&s.factors)),
                    text(&s.gate),
                    text(&s.tie),
                    text(&s.note),
                ])?;
                rows += 1;
            }
        }
        out.finish()?;
        counts.push(rows);
    }
    Ok(counts)
}

/// A score for a seat its wave does not have.
pub(super) fn no_seat(wave: &str, seat: &str) -> Error {
    Error::Usage(format!("wave {wave} has no seat {seat}"))
}

impl Ledger {
    fn rubric_id_of(&self, sha256: &str) -> Result<Option<i64>> {
        self.read(|sql| {
            sql.row(
                "SELECT id FROM rubric WHERE sha256 = ?1",
                &values![sha256],
                |r| r.get(0),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::RubricRow;
    use crate::model::{Accounting, Attempt, Budget, Load, Provenance, Seat, SeatData};
    use crate::model::{Wave, WaveData};

    const NOW: &str = "2026-01-01T00:00:00Z";

    /// A ledger holding wave `w` with seats `a`, `b` and `c`, and one registered rubric.
    fn ledger() -> (Ledger, String) {
        let mut ledger = Ledger::in_memory().unwrap();
        let seat = |id: &str| SeatData {
            seat: Seat {
                id: id.into(),
                model: "m".into(),
                provider: "p".into(),
                harness: "h".into(),
                config: None,
                display_name: None,
            },
            attempts: vec![Attempt {
                problem: "p1".into(),
                trial: 1,
                ..Attempt::empty()
            }],
        };
        let wave = WaveData {
            wave: Wave {
                id: "w".into(),
                suite: "s".into(),
                started_at: NOW.into(),
                notes: None,
                suite_problems: None,
                load: Load::default(),
                accounting: Accounting::default(),
                budget: Budget::default(),
                provenance: Provenance::default(),
                supersedes: None,
                canary_problems: Vec::new(),
            },
            seats: vec![seat("a"), seat("b"), seat("c")],
        };
        ledger.add_waves(&[wave], NOW).unwrap();
        let sha = "5".repeat(64);
        ledger
            .add_rubric(&RubricRow {
                name: "r".into(),
                version: 1,
                sha256: sha.clone(),
                text: "name = \"r\"".into(),
                scale_violation: false,
                added_at: NOW.into(),
            })
            .unwrap();
        (ledger, sha)
    }

    fn scores(seats: &[(&str, f64)]) -> WaveScores {
        WaveScores {
            wave: "w".into(),
            seats: seats
                .iter()
                .enumerate()
                .map(|(k, &(seat, score))| SeatScore {
                    seat: seat.into(),
                    score: Some(score),
                    factors: [("x".to_string(), score / 2.0)].into_iter().collect(),
                    gate: None,
                    note: None,
                    rank: Some(k as u32 + 1),
                    tie: None,
                    rank_shared: false,
                })
                .collect(),
        }
    }

    fn stored(ledger: &Ledger, sha: &str) -> Vec<(String, Option<f64>, Option<u32>, f64)> {
        let mut out: Vec<_> = ledger
            .stored_scores(sha, "w")
            .unwrap()
            .into_iter()
            .map(|s| {
                (
                    s.score.seat,
                    s.score.score,
                    s.score.rank,
                    s.score.factors["x"],
                )
            })
            .collect();
        out.sort_by(|x, y| x.0.cmp(&y.0));
        out
    }

    /// Storing a wave's scores again replaces them whole: each seat's row takes the new
    /// values, and a seat the new scores leave out keeps none from before.
    #[test]
    fn storing_again_replaces_the_waves_scores_whole() {
        let (mut ledger, sha) = ledger();
        let n = ledger
            .store_scores(&sha, &[scores(&[("a", 3.0), ("b", 2.0), ("c", 1.0)])])
            .unwrap();
        assert_eq!(n, 3);
        assert_eq!(
            stored(&ledger, &sha),
            [
                ("a".to_string(), Some(3.0), Some(1), 1.5),
                ("b".to_string(), Some(2.0), Some(2), 1.0),
                ("c".to_string(), Some(1.0), Some(3), 0.5),
            ]
        );
        ledger
            .store_scores(&sha, &[scores(&[("c", 8.0), ("a", 4.0)])])
            .unwrap();
        assert_eq!(
            stored(&ledger, &sha),
            [
                ("a".to_string(), Some(4.0), Some(2), 2.0),
                ("c".to_string(), Some(8.0), Some(1), 4.0),
            ]
        );
    }

    /// Storing the scores already stored writes no row (a rescore that changes nothing writes
    /// nothing), while a row changed behind benchledger's back, or a score that changed, is
    /// written again, and a seat with no score yet gets its row.
    #[test]
    fn scores_already_stored_are_not_written_again() {
        let (mut ledger, sha) = ledger();
        let all = scores(&[("a", 3.0), ("b", 2.0), ("c", 1.0)]);
        ledger
            .store_scores(&sha, &[scores(&[("a", 3.0), ("b", 2.0)])])
            .unwrap();
        let written = |ledger: &mut Ledger, scores: &WaveScores| {
            let before = ledger.lite().unwrap().total_changes();
            ledger
                .store_scores(&sha, std::slice::from_ref(scores))
                .unwrap();
            ledger.lite().unwrap().total_changes() - before
        };
        // c's first score: one row inserted; a and b as they were.
        assert_eq!(written(&mut ledger, &all), 1);
        assert_eq!(written(&mut ledger, &all), 0);
        let want = stored(&ledger, &sha);
        ledger
            .lite()
            .unwrap()
            .execute_batch(
                "UPDATE score SET factors = '{\"x\":0.25}' WHERE seat_id = 1;
                 UPDATE score SET note = 'edited' WHERE seat_id = 2;
                 UPDATE score SET rank = NULL WHERE seat_id = 3;",
            )
            .unwrap();
        assert_eq!(written(&mut ledger, &all), 3);
        assert_eq!(stored(&ledger, &sha), want);
        let mut changed = all.clone();
        changed.seats[1].score = Some(2.5);
        assert_eq!(written(&mut ledger, &changed), 1);
        assert_eq!(stored(&ledger, &sha)[1].1, Some(2.5));
        // A seat given twice keeps the later score, as an update would leave it.
        let mut twice = scores(&[("a", 3.0), ("b", 2.0), ("c", 1.0), ("a", 7.0)]);
        twice.seats[3].rank = Some(1);
        ledger.store_scores(&sha, &[twice]).unwrap();
        assert_eq!(
            stored(&ledger, &sha)[0],
            ("a".to_string(), Some(7.0), Some(1), 3.5)
        );
    }

    /// A score for a seat the wave does not have is refused, and the scores stored before
    /// stay as they were.
    #[test]
    fn a_score_for_no_seat_changes_nothing() {
        let (mut ledger, sha) = ledger();
        ledger
            .store_scores(&sha, &[scores(&[("a", 3.0), ("b", 2.0), ("c", 1.0)])])
            .unwrap();
        let before = stored(&ledger, &sha);
        let e = ledger
            .store_scores(&sha, &[scores(&[("a", 9.0), ("zz", 1.0)])])
            .unwrap_err();
        assert!(e.to_string().contains("wave w has no seat zz"), "{e}");
        assert_eq!(stored(&ledger, &sha), before);
    }

    /// A rescore asked to stop (issue 34) stores nothing: not when asked after its first wave
    /// (the next wave put is refused), nor when asked once every wave is put (the commit is).
    #[test]
    fn a_rescore_asked_to_stop_stores_nothing() {
        let (mut ledger, sha) = ledger();
        ledger
            .store_scores(&sha, &[scores(&[("a", 3.0), ("b", 2.0), ("c", 1.0)])])
            .unwrap();
        let before = stored(&ledger, &sha);
        let log = ledger.log().unwrap();
        let cancel = Cancel::new();
        ledger.set_cancel(cancel.clone());
        let after_first = ledger.store_scores_in_parts(&[&sha], |w| {
            w.put(0, scores(&[("a", 9.0), ("b", 8.0), ("c", 7.0)]))?;
            cancel.cancel();
            w.put(0, scores(&[("a", 6.0)]))
        });
        assert!(
            matches!(after_first, Err(Error::Interrupted)),
            "{after_first:?}"
        );
        assert_eq!(stored(&ledger, &sha), before);
        let at_commit = ledger.store_scores_in_parts(&[&sha], |w| {
            w.put(0, scores(&[("a", 9.0), ("b", 8.0), ("c", 7.0)]))?;
            cancel.cancel();
            Ok(())
        });
        assert!(
            matches!(at_commit, Err(Error::Interrupted)),
            "{at_commit:?}"
        );
        assert_eq!(stored(&ledger, &sha), before);
        assert_eq!(ledger.log().unwrap(), log);
        // A token never set stops nothing.
        ledger.set_cancel(Cancel::new());
        ledger.store_scores(&sha, &[scores(&[("a", 9.0)])]).unwrap();
        assert_eq!(stored(&ledger, &sha)[0].1, Some(9.0));
    }

    /// The server's way of storing scores, gathered and written a rubric at a time, stores
    /// what SQLite's, written wave by wave, does: run here on SQLite, where both can run.
    #[test]
    fn scores_stored_gathered_are_those_stored_wave_by_wave() {
        let (other, _) = ledger();
        let (mut ledger, sha) = ledger();
        let rubric = ledger.rubric_rowid(&sha).unwrap();
        let first = scores(&[("a", 3.0), ("b", 2.0), ("c", 1.0)]);
        let again = scores(&[("c", 8.0), ("a", 4.0)]);
        let gathered = |ledger: &Ledger, w: &WaveScores| {
            ledger
                .write(|sql| store_gathered(sql, &[(rubric, std::slice::from_ref(w))]))
                .unwrap()
        };
        assert_eq!(gathered(&other, &first), [3]);
        ledger.store_scores(&sha, &[first]).unwrap();
        assert_eq!(stored(&other, &sha), stored(&ledger, &sha));
        assert_eq!(gathered(&other, &again), [2]);
        ledger
            .store_scores(&sha, std::slice::from_ref(&again))
            .unwrap();
        assert_eq!(stored(&other, &sha), stored(&ledger, &sha));
        let e = other
            .write(|sql| store_gathered(sql, &[(rubric, &[scores(&[("zz", 1.0)])])]))
            .unwrap_err();
        assert!(e.to_string().contains("wave w has no seat zz"), "{e}");
        assert_eq!(
            other
                .write(|sql| store_gathered(sql, &[(rubric, &[])]))
                .unwrap(),
            [0]
        );
        assert_eq!(stored(&other, &sha), stored(&ledger, &sha));
    }

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

    /// Numbers and factors written without the canonical writer's allocations are its text,
    /// byte for byte: edges of the plain notation, signed zeros, extremes, and names it escapes.
    #[test]
    fn numbers_are_pushed_as_json_writes_them() {
        let mut xs = vec![
            0.0,
            -0.0,
            1.0,
            132.0,
            0.1,
            1e-7,
            1e-5,
            1.5e-5,
            9.99999e-6,
            1.5e-6,
            250_000.5,
            1e6,
            9.999e15,
            1e15,
            1e16,
            1.25e16,
            123_456_789_012_345_680.0,
            f64::MAX,
            f64::MIN,
            f64::MIN_POSITIVE,
            f64::EPSILON,
            5e-324,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        // Every power of ten, and its neighbours, across the range.
        for e in -320..=308 {
            let x: f64 = format!("1e{e}").parse().unwrap();
            xs.extend([
                x,
                -x,
                f64::from_bits(x.to_bits() + 1),
                f64::from_bits(x.to_bits() - 1),
            ]);
        }
        for x in xs {
            let mut out = String::new();
            push_number(&mut out, x);
            assert_eq!(out, crate::formats::json::number(x), "{x:e}");
        }
        let factors: BTreeMap<String, f64> = [
            ("tokens", 92_435.845_673_802_28),
            ("gate.accuracy", 0.1 + 0.2),
            ("penalty.errors", -0.0),
            ("tiny", 1e-9),
            ("huge", 3e20),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        let mut out = "left over".to_string();
        write_factors(&mut out, &factors);
        assert_eq!(out, factors_text(&factors));
        for name in ["say \"hi\"", "back\\slash", "tab\t", "é ∑"] {
            let mut odd = factors.clone();
            odd.insert(name.to_string(), 2.5);
            write_factors(&mut out, &odd);
            assert_eq!(out, factors_text(&odd), "{name:?}");
        }
        write_factors(&mut out, &BTreeMap::new());
        assert_eq!(out, factors_text(&BTreeMap::new()));
    }

    proptest::proptest! {
        #[test]
        fn any_number_is_pushed_as_json_writes_it(bits in proptest::prelude::any::<u64>()) {
            let x = f64::from_bits(bits);
            let mut out = String::new();
            push_number(&mut out, x);
            proptest::prop_assert_eq!(out, crate::formats::json::number(x));
        }
    }
}
