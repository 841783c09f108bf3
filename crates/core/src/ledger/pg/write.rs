//! Writing a ledger on PostgreSQL, where it differs from SQLite: an ingest's staged rows copied
//! in with binary `COPY` (the rest of an ingest, like every other write, is the one body both
//! stores run, in `Pg::write`'s transaction holding the write lock), and stored scores replaced
//! a rubric at a time in a handful of round trips.

use std::path::Path;

use postgres::binary_copy::BinaryCopyInWriter;
use postgres::types::{ToSql, Type};
use rusqlite::Connection;
use rusqlite::types::ValueRef;

use super::{Pg, error};
use crate::error::Result;
use crate::ledger::sql::{PgConn, Sql, Value};
use crate::ledger::stage::{Span, Staged, decide};
use crate::ledger::{Ingested, sqlite};
use crate::model::{SuiteProblems, Wave};
use crate::rubric::WaveScores;

/// A table an ingest stages: how its rows are copied in (`COPY`, the types of its columns)
/// and read from the scratch database (`SELECT`, in the same column order).
struct StagedTable {
    copy: &'static str,
    types: &'static [Type],
    select: &'static str,
}

const SEATS: StagedTable = StagedTable {
    copy: "COPY seat (id, wave_id, slug, model, provider, harness, config)
           FROM STDIN (FORMAT binary)",
    types: &[
        Type::INT8,
        Type::INT8,
        Type::TEXT,
        Type::TEXT,
        Type::TEXT,
        Type::TEXT,
        Type::TEXT,
    ],
    select: "SELECT id, ?3, slug, model, provider, harness, config FROM seat
             WHERE id > ?1 AND id <= ?2 ORDER BY id",
};

const SEAT_TALLIES: StagedTable = StagedTable {
    copy: "COPY seat_tally (seat_id, format, tally) FROM STDIN (FORMAT binary)",
    types: &[Type::INT8, Type::INT8, Type::TEXT],
    select: "SELECT seat_id, format, tally FROM seat_tally
             WHERE seat_id > ?1 AND seat_id <= ?2 ORDER BY seat_id",
};

const ATTEMPTS: StagedTable = StagedTable {
    copy: "COPY attempt (id, seat_id, problem, trial, correct, outcome, input_tokens,
               output_tokens, input_tokens_cache_read, input_tokens_cache_write, wall_s,
               cost_usd, steps, errors, checklist, working_s, infra_error, end_reason)
           FROM STDIN (FORMAT binary)",
    types: &[
        Type::INT8,
        Type::INT8,
        Type::TEXT,
        Type::INT8,
        Type::BOOL,
        Type::FLOAT8,
        Type::INT8,
        Type::INT8,
        Type::INT8,
        Type::INT8,
        Type::FLOAT8,
        Type::FLOAT8,
        Type::INT8,
        Type::INT8,
        Type::TEXT,
        Type::FLOAT8,
        Type::BOOL,
        Type::TEXT,
    ],
    select: "SELECT id, seat_id, problem, trial, correct, outcome, input_tokens,
                output_tokens, input_tokens_cache_read, input_tokens_cache_write, wall_s,
                cost_usd, steps, errors, checklist, working_s, infra_error, end_reason
             FROM attempt WHERE id > ?1 AND id <= ?2 ORDER BY id",
};

const TRACE_STEPS: StagedTable = StagedTable {
    copy: "COPY trace_step (attempt_id, idx, tool, ok, error) FROM STDIN (FORMAT binary)",
    types: &[Type::INT8, Type::INT8, Type::TEXT, Type::BOOL, Type::TEXT],
    select: "SELECT attempt_id, idx, tool, ok, error FROM trace_step
             WHERE id > ?1 AND id <= ?2 ORDER BY id",
};

/// The scratch database an ingest was staged in, and where it is (for its errors).
struct Stage<'s> {
    conn: &'s Connection,
    path: &'s Path,
}

impl Stage<'_> {
    /// Copies the rows `table.select` reads (with `params`) in, the first columns moved by
    /// `offsets` (a staged id made the ledger's).
    fn copy(
        &self,
        pg: &mut dyn PgConn,
        path: &Path,
        table: &StagedTable,
        params: &[i64],
        offsets: &[i64],
    ) -> Result<()> {
        let lite = |e| sqlite(self.path, e);
        let err = |e| error(path, e);
        let sink = pg.copy_in(table.copy).map_err(err)?;
        let mut out = BinaryCopyInWriter::new(sink, table.types);
        let mut stmt = self.conn.prepare_cached(table.select).map_err(lite)?;
        let mut rows = stmt
            .query(rusqlite::params_from_iter(params))
            .map_err(lite)?;
        let n = table.types.len();
        while let Some(r) = rows.next().map_err(lite)? {
            let mut values = Vec::with_capacity(n);
            for i in 0..n {
                values.push(match r.get_ref(i).map_err(lite)? {
                    ValueRef::Null => Value::Null,
                    ValueRef::Integer(v) => Value::Int(v + offsets.get(i).copied().unwrap_or(0)),
                    ValueRef::Real(v) => Value::Real(v),
                    text => Value::Text(text.as_str().map_err(|e| lite(e.into()))?),
                });
            }
            let values: Vec<&(dyn ToSql + Sync)> =
                values.iter().map(|v| v as &(dyn ToSql + Sync)).collect();
            out.write(&values).map_err(err)?;
        }
        out.finish().map_err(err)?;
        Ok(())
    }
}

/// Copies one staged wave's rows in (the server's bulk load: binary `COPY`), its ids following
/// the ledger's: its declared problems, seats, seat tallies, attempts and trace steps.
fn copy_staged(sql: &mut Sql<'_>, stage: &Stage<'_>, w: &Wave, span: Span) -> Result<()> {
    let path = sql.path();
    let Span {
        wave_id,
        before,
        last,
    } = span;
    // A staged id `i` of this wave becomes `i + offset`: the first becomes the ledger's next.
    let seat = sql.next_id("seat")? - (before.seat + 1);
    let attempt = sql.next_id("attempt")? - (before.attempt + 1);
    let Some(pg) = sql.as_pg() else {
        unreachable!("a server's ingest is copied in by the server");
    };
    if let Some(SuiteProblems::Ids(ids)) = &w.suite_problems {
        let err = |e| error(path, e);
        let sink = pg
            .copy_in("COPY wave_problem (wave_id, problem) FROM STDIN (FORMAT binary)")
            .map_err(err)?;
        let mut out = BinaryCopyInWriter::new(sink, &[Type::INT8, Type::TEXT]);
        for id in ids {
            out.write(&[&wave_id, id]).map_err(err)?;
        }
        out.finish().map_err(err)?;
    }
    stage.copy(
        pg,
        path,
        &SEATS,
        &[before.seat, last.seat, wave_id],
        &[seat],
    )?;
    stage.copy(pg, path, &SEAT_TALLIES, &[before.seat, last.seat], &[seat])?;
    let ids = [before.attempt, last.attempt];
    stage.copy(pg, path, &ATTEMPTS, &ids, &[attempt, seat])?;
    let steps = [before.step, last.step];
    stage.copy(pg, path, &TRACE_STEPS, &steps, &[attempt])
}

impl Pg {
    /// An ingest's commit: every staged wave decided and copied in, in one transaction holding
    /// the write lock.
    pub(in crate::ledger) fn copy_in(
        &self,
        stage: &Connection,
        stage_path: &Path,
        waves: &[Staged],
        now: &str,
    ) -> Result<Vec<Ingested>> {
        let stage = Stage {
            conn: stage,
            path: stage_path,
        };
        self.write(|tx| {
            let mut sql = Sql::pg(tx, &self.path);
            decide(&mut sql, waves, now, &mut |sql, w, span| {
                copy_staged(sql, &stage, w, span)
            })
        })
    }

    /// Replaces stored scores, rubric by rubric, in one transaction and a handful of round
    /// trips: the seats of every wave named found in one query, then per rubric one delete
    /// and one insert of every row (arrays unnested on the server), not a statement per seat.
    pub(in crate::ledger) fn store_scores(
        &self,
        sets: &[(i64, &[WaveScores])],
    ) -> Result<Vec<u64>> {
        self.write(|tx| {
            let err = |e| self.err(e);
            let mut slugs: Vec<&str> = sets
                .iter()
                .flat_map(|(_, waves)| waves.iter().map(|w| w.wave.as_str()))
                .collect();
            slugs.sort_unstable();
            slugs.dedup();
            // (wave, seat) -> seat row id.
            let seat_ids: std::collections::HashMap<(String, String), i64> = tx
                .query(
                    "SELECT w.slug, s.slug, s.id FROM seat s JOIN wave w ON w.id = s.wave_id
                     WHERE w.slug = ANY($1)",
                    &[&slugs],
                )
                .map_err(err)?
                .iter()
                .map(|r| ((r.get(0), r.get(1)), r.get(2)))
                .collect();
            let mut counts = Vec::with_capacity(sets.len());
            for &(rubric_id, waves) in sets {
                let named: std::collections::HashSet<&str> =
                    waves.iter().map(|w| w.wave.as_str()).collect();
                let mut every_seat: Vec<i64> = seat_ids
                    .iter()
                    .filter(|((w, _), _)| named.contains(w.as_str()))
                    .map(|(_, id)| *id)
                    .collect();
                every_seat.sort_unstable();
                tx.execute(
                    "DELETE FROM score WHERE rubric_id = $1 AND seat_id = ANY($2)",
                    &[&rubric_id, &every_seat],
                )
                .map_err(err)?;
                let rows: usize = waves.iter().map(|w| w.seats.len()).sum();
                let mut seat = Vec::with_capacity(rows);
                let mut score = Vec::with_capacity(rows);
                let mut rank = Vec::with_capacity(rows);
                let mut factors = Vec::with_capacity(rows);
                let mut gate = Vec::with_capacity(rows);
                let mut tie = Vec::with_capacity(rows);
                let mut note = Vec::with_capacity(rows);
                for w in waves {
                    for s in &w.seats {
                        let Some(id) = seat_ids.get(&(w.wave.clone(), s.seat.clone())) else {
                            return Err(crate::ledger::scores::no_seat(&w.wave, &s.seat));
                        };
                        seat.push(*id);
                        score.push(s.score);
                        rank.push(s.rank.map(i64::from));
                        factors.push(crate::ledger::scores::factors_text(&s.factors));
                        gate.push(s.gate.as_deref());
                        tie.push(s.tie.as_deref());
                        note.push(s.note.as_deref());
                    }
                }
                tx.execute(
                    "INSERT INTO score(rubric_id, seat_id, score, rank, factors, gate, tie, note)
                     SELECT $1, * FROM unnest($2::bigint[], $3::float8[], $4::bigint[],
                                             $5::text[], $6::text[], $7::text[], $8::text[])",
                    &[
                        &rubric_id, &seat, &score, &rank, &factors, &gate, &tie, &note,
                    ],
                )
                .map_err(err)?;
                counts.push(rows as u64);
            }
            Ok(counts)
        })
    }
}
