//! Writing a ledger on PostgreSQL, where it differs from SQLite: an ingest's staged rows copied
//! in with binary `COPY` (the rest of an ingest, like every other write, is the one body both
//! stores run, in `Pg::write`'s transaction holding the write lock), and stored scores replaced
//! a rubric at a time in a handful of round trips.

use std::path::Path;

use rusqlite::Connection;

use super::Pg;
use crate::error::Result;
use crate::ledger::copy::Cell;
use crate::ledger::sql::Sql;
use crate::ledger::stage::{Span, Staged, decide};
use crate::ledger::{Ingested, sqlite};
use crate::model::{SuiteProblems, Wave};
use crate::rubric::WaveScores;

/// A table an ingest stages: its columns, and the query reading them from the scratch database
/// in that order.
struct StagedTable {
    table: &'static str,
    columns: &'static [&'static str],
    select: &'static str,
}

const SEATS: StagedTable = StagedTable {
    table: "seat",
    columns: &[
        "id", "wave_id", "slug", "model", "provider", "harness", "config",
    ],
    select: "SELECT id, ?3, slug, model, provider, harness, config FROM seat
             WHERE id > ?1 AND id <= ?2 ORDER BY id",
};

const SEAT_TALLIES: StagedTable = StagedTable {
    table: "seat_tally",
    columns: &["seat_id", "format", "tally"],
    select: "SELECT seat_id, format, tally FROM seat_tally
             WHERE seat_id > ?1 AND seat_id <= ?2 ORDER BY seat_id",
};

const ATTEMPTS: StagedTable = StagedTable {
    table: "attempt",
    columns: &[
        "id",
        "seat_id",
        "problem",
        "trial",
        "correct",
        "outcome",
        "input_tokens",
        "output_tokens",
        "input_tokens_cache_read",
        "input_tokens_cache_write",
        "wall_s",
        "cost_usd",
        "steps",
        "errors",
        "checklist",
        "working_s",
        "infra_error",
        "end_reason",
    ],
    select: "SELECT id, seat_id, problem, trial, correct, outcome, input_tokens,
                output_tokens, input_tokens_cache_read, input_tokens_cache_write, wall_s,
                cost_usd, steps, errors, checklist, working_s, infra_error, end_reason
             FROM attempt WHERE id > ?1 AND id <= ?2 ORDER BY id",
};

const TRACE_STEPS: StagedTable = StagedTable {
    table: "trace_step",
    columns: &["attempt_id", "idx", "tool", "ok", "error"],
    select: "SELECT attempt_id, idx, tool, ok, error FROM trace_step
             WHERE id > ?1 AND id <= ?2 ORDER BY id",
};

/// The scratch database an ingest was staged in, and where it is (for its errors).
struct Stage<'s> {
    conn: &'s Connection,
    path: &'s Path,
}

impl Stage<'_> {
    /// Copies the rows `table.select` reads (with `params`) in through the ledger's bulk load,
    /// the first columns moved by `offsets` (a staged id made the ledger's).
    fn copy(
        &self,
        sql: &mut Sql<'_>,
        table: &StagedTable,
        params: &[i64],
        offsets: &[i64],
    ) -> Result<()> {
        let lite = |e| sqlite(self.path, e);
        let columns: Vec<String> = table.columns.iter().map(|c| c.to_string()).collect();
        let mut out = sql.sink(table.table, &columns)?;
        let mut stmt = self.conn.prepare_cached(table.select).map_err(lite)?;
        let mut rows = stmt
            .query(rusqlite::params_from_iter(params))
            .map_err(lite)?;
        let mut values = Vec::with_capacity(columns.len());
        while let Some(r) = rows.next().map_err(lite)? {
            values.clear();
            for (i, column) in table.columns.iter().enumerate() {
                let cell = Cell::of(r.get_ref(i).map_err(lite)?, self.path, table.table, column)?;
                values.push(match cell {
                    Cell::Int(v) => Cell::Int(v + offsets.get(i).copied().unwrap_or(0)),
                    other => other,
                });
            }
            out.write(&values)?;
        }
        out.finish()
    }
}

/// Copies one staged wave's rows in (the server's bulk load: binary `COPY`), its ids following
/// the ledger's: its declared problems, seats, seat tallies, attempts and trace steps.
fn copy_staged(sql: &mut Sql<'_>, stage: &Stage<'_>, w: &Wave, span: Span) -> Result<()> {
    let Span {
        wave_id,
        before,
        last,
    } = span;
    // A staged id `i` of this wave becomes `i + offset`: the first becomes the ledger's next.
    let seat = sql.next_id("seat")? - (before.seat + 1);
    let attempt = sql.next_id("attempt")? - (before.attempt + 1);
    if let Some(SuiteProblems::Ids(ids)) = &w.suite_problems {
        let mut out = sql.sink("wave_problem", &["wave_id".into(), "problem".into()])?;
        for id in ids {
            out.write(&[Cell::Int(wave_id), Cell::Text(id.clone())])?;
        }
        out.finish()?;
    }
    let seats = [before.seat, last.seat, wave_id];
    stage.copy(sql, &SEATS, &seats, &[seat])?;
    stage.copy(sql, &SEAT_TALLIES, &seats[..2], &[seat])?;
    let ids = [before.attempt, last.attempt];
    stage.copy(sql, &ATTEMPTS, &ids, &[attempt, seat])?;
    let steps = [before.step, last.step];
    stage.copy(sql, &TRACE_STEPS, &steps, &[attempt])
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
        self.write(|sql| {
            decide(sql, waves, now, &mut |sql, w, span| {
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
        self.write_tx(|tx| {
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
