//! An ingest's staged rows copied into a store that cannot attach the scratch file they were
//! staged in (the server): table by table, read from the scratch file and written through the
//! store's bulk load ([`Sql::sink`]: binary `COPY` on PostgreSQL), their ids moved to follow
//! the ledger's. Written over the query layer, with nothing of the server's in it; SQLite's
//! own ingest attaches the file instead and copies with `INSERT … SELECT` (`stage.rs`).

use std::path::Path;

use rusqlite::Connection;

use super::copy::Cell;
use super::sql::Sql;
use super::sqlite;
use super::stage::Span;
use crate::error::Result;
use crate::model::{SuiteProblems, Wave};

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
pub(super) struct StageFile<'s> {
    pub(super) conn: &'s Connection,
    pub(super) path: &'s Path,
}

impl StageFile<'_> {
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

    /// Copies one staged wave's rows in through the ledger's bulk load ([`Sql::sink`]), its ids
    /// following the ledger's: its declared problems, seats, seat tallies, attempts and trace
    /// steps. How a store that cannot attach the scratch file (the server) takes an ingest.
    pub(super) fn copy_wave(&self, sql: &mut Sql<'_>, w: &Wave, span: Span) -> Result<()> {
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
        self.copy(sql, &SEATS, &seats, &[seat])?;
        self.copy(sql, &SEAT_TALLIES, &seats[..2], &[seat])?;
        let ids = [before.attempt, last.attempt];
        self.copy(sql, &ATTEMPTS, &ids, &[attempt, seat])?;
        let steps = [before.step, last.step];
        self.copy(sql, &TRACE_STEPS, &steps, &[attempt])
    }
}
