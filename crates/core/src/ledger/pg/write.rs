//! Writing a ledger on PostgreSQL: every write in one transaction holding benchledger's write
//! lock (`Pg::write`), ids assigned as on SQLite (the largest so far plus one), an ingest's
//! staged rows copied in with binary `COPY`.

use std::path::Path;

use postgres::Transaction;
use postgres::binary_copy::BinaryCopyInWriter;
use postgres::types::{ToSql, Type};
use rusqlite::Connection;

use super::{Pg, error, signed, unsigned};
use crate::error::{Error, Result};
use crate::formats::wave::ContentHash;
use crate::ledger::chain::ChainTx;
use crate::ledger::registered::Registered;
use crate::ledger::stage::{IngestTx, Staged, decide};
use crate::ledger::{Ingested, NewPublication, PricesAdded};
use crate::ledger::{RubricAdded, sqlite};
use crate::model::{
    NewWithdrawal, PriceTableRow, PublicationRow, RubricRow, WithdrawalRow, WithdrawalSeal,
};
use crate::model::{SuiteProblems, Wave};
use crate::rubric::WaveScores;

/// A PostgreSQL write transaction, as the chain's and the ingest's rules see it; `stage` is the
/// scratch database an ingest was staged in.
struct PgTx<'a, 't> {
    tx: &'a mut Transaction<'t>,
    path: &'a Path,
    stage: Option<(&'a Connection, &'a Path)>,
}

/// Where a staged wave's rows lie in the scratch database (the ids after `before` up to
/// `last`), and what is added to a staged seat's or attempt's id to make it the ledger's.
struct StagedSpan {
    wave_id: i64,
    before: crate::ledger::stage::Ids,
    last: crate::ledger::stage::Ids,
    seat_offset: i64,
    attempt_offset: i64,
}

impl PgTx<'_, '_> {
    fn next_id(&mut self, table: &str) -> Result<i64> {
        let sql = format!("SELECT coalesce(max(id), 0) + 1 FROM {table}");
        Ok(self
            .tx
            .query_one(sql.as_str(), &[])
            .map_err(|e| error(self.path, e))?
            .get(0))
    }

    fn opt_string(&mut self, sql: &str, param: &str) -> Result<Option<String>> {
        Ok(self
            .tx
            .query_opt(sql, &[&param])
            .map_err(|e| error(self.path, e))?
            .map(|r| r.get(0)))
    }
}

impl ChainTx for PgTx<'_, '_> {
    fn recorded_supersedes(&mut self, wave: &str) -> Result<Option<String>> {
        self.opt_string(
            "SELECT o.slug FROM withdrawal d JOIN wave o ON o.id = d.wave_id
             JOIN wave n ON n.id = d.superseded_by WHERE n.slug = $1 ORDER BY d.id LIMIT 1",
            wave,
        )
    }

    fn wave_exists(&mut self, slug: &str) -> Result<bool> {
        Ok(self
            .tx
            .query_one(
                "SELECT EXISTS (SELECT 1 FROM wave WHERE slug = $1)",
                &[&slug],
            )
            .map_err(|e| error(self.path, e))?
            .get(0))
    }

    fn superseded_by(&mut self, old: &str) -> Result<Option<String>> {
        self.opt_string(
            "SELECT n.slug FROM withdrawal d JOIN wave o ON o.id = d.wave_id
             JOIN wave n ON n.id = d.superseded_by WHERE o.slug = $1 LIMIT 1",
            old,
        )
    }

    fn append_withdrawal(
        &mut self,
        w: &NewWithdrawal,
        seal: &dyn Fn(&WithdrawalSeal<'_>) -> String,
    ) -> Result<WithdrawalRow> {
        let path = self.path;
        let err = |e| error(path, e);
        let row = self
            .tx
            .query_one(
                "SELECT id, content_sha256 FROM wave WHERE slug = $1",
                &[&w.wave],
            )
            .map_err(err)?;
        let (wave_id, content): (i64, String) = (row.get(0), row.get(1));
        let superseded_by: Option<i64> = match &w.superseded_by {
            Some(slug) => Some(
                self.tx
                    .query_one("SELECT id FROM wave WHERE slug = $1", &[slug])
                    .map_err(err)?
                    .get(0),
            ),
            None => None,
        };
        let id = self.next_id("withdrawal")?;
        let after: i64 = self
            .tx
            .query_one("SELECT coalesce(max(id), 0) FROM publication", &[])
            .map_err(err)?
            .get(0);
        let prev: Option<String> = self
            .tx
            .query_opt(crate::ledger::chain::HEAD, &[])
            .map_err(err)?
            .map(|r| r.get(0));
        let sha256 = seal(&WithdrawalSeal {
            id,
            wave_content_sha256: &content,
            after_publication: after,
            prev_sha256: prev.as_deref(),
        });
        let record_format = crate::formats::record::LATEST;
        self.tx
            .execute(
                "INSERT INTO withdrawal(id, wave_id, superseded_by, reason, created_at,
                    after_publication, prev_sha256, record_format, sha256)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                &[
                    &id,
                    &wave_id,
                    &superseded_by,
                    &w.reason,
                    &w.created_at,
                    &after,
                    &prev,
                    &i64::from(record_format),
                    &sha256,
                ],
            )
            .map_err(err)?;
        Ok(WithdrawalRow {
            id,
            wave: w.wave.clone(),
            wave_content_sha256: content,
            superseded_by: w.superseded_by.clone(),
            reason: w.reason.clone(),
            created_at: w.created_at.clone(),
            after_publication: after,
            prev_sha256: prev,
            record_format,
            sha256,
        })
    }
}

impl IngestTx for PgTx<'_, '_> {
    fn content_hash(&mut self, slug: &str) -> Result<Option<ContentHash>> {
        let row = self
            .tx
            .query_opt(
                "SELECT content_format, content_sha256 FROM wave WHERE slug = $1",
                &[&slug],
            )
            .map_err(|e| error(self.path, e))?;
        row.map(|r| {
            Ok(ContentHash {
                format: unsigned(self.path, "wave.content_format", r.get(0))?,
                sha256: r.get(1),
            })
        })
        .transpose()
    }

    fn copy_wave(
        &mut self,
        w: &Wave,
        hash: &ContentHash,
        before: crate::ledger::stage::Ids,
        last: crate::ledger::stage::Ids,
        now: &str,
    ) -> Result<()> {
        let Some((stage, stage_path)) = self.stage else {
            return Err(Error::Ledger {
                path: self.path.to_path_buf(),
                message: format!("wave {} was copied in without its staging", w.id),
            });
        };
        let wave_id = self.next_id("wave")?;
        self.insert_wave_row(wave_id, w, hash, now)?;
        if let Some(SuiteProblems::Ids(ids)) = &w.suite_problems {
            let sink = self
                .tx
                .copy_in("COPY wave_problem (wave_id, problem) FROM STDIN (FORMAT binary)")
                .map_err(|e| error(self.path, e))?;
            let mut out = BinaryCopyInWriter::new(sink, &[Type::INT8, Type::TEXT]);
            for id in ids {
                out.write(&[&wave_id, id])
                    .map_err(|e| error(self.path, e))?;
            }
            out.finish().map_err(|e| error(self.path, e))?;
        }
        for problem in &w.canary_problems {
            self.tx
                .execute(
                    "INSERT INTO wave_canary(wave_id, problem) VALUES ($1, $2)",
                    &[&wave_id, problem],
                )
                .map_err(|e| error(self.path, e))?;
        }
        // A staged id `i` of this wave becomes `i + offset`: the first becomes the ledger's next.
        let span = StagedSpan {
            wave_id,
            before,
            last,
            seat_offset: self.next_id("seat")? - (before.seat + 1),
            attempt_offset: self.next_id("attempt")? - (before.attempt + 1),
        };
        self.copy_seats(stage, stage_path, &span)?;
        self.copy_seat_tallies(stage, stage_path, &span)?;
        self.copy_attempts(stage, stage_path, &span)?;
        self.copy_trace_steps(stage, stage_path, &span)?;
        Ok(())
    }
}

impl PgTx<'_, '_> {
    /// Copies a staged wave's seats in, their ids moved by the span's offset.
    fn copy_seats(
        &mut self,
        stage: &Connection,
        stage_path: &Path,
        span: &StagedSpan,
    ) -> Result<()> {
        let StagedSpan {
            wave_id,
            before,
            last,
            seat_offset,
            ..
        } = *span;
        let lite = |e| sqlite(stage_path, e);
        let path = self.path;
        let err = |e| error(path, e);
        let sink = self
            .tx
            .copy_in(
                "COPY seat (id, wave_id, slug, model, provider, harness, config)
                 FROM STDIN (FORMAT binary)",
            )
            .map_err(err)?;
        let mut out = BinaryCopyInWriter::new(
            sink,
            &[
                Type::INT8,
                Type::INT8,
                Type::TEXT,
                Type::TEXT,
                Type::TEXT,
                Type::TEXT,
                Type::TEXT,
            ],
        );
        let mut stmt = stage
            .prepare(
                "SELECT id, slug, model, provider, harness, config FROM seat
                 WHERE id > ?1 AND id <= ?2 ORDER BY id",
            )
            .map_err(lite)?;
        let mut rows = stmt.query([before.seat, last.seat]).map_err(lite)?;
        while let Some(r) = rows.next().map_err(lite)? {
            let id: i64 = r.get(0).map_err(lite)?;
            let slug: &str = r.get_ref(1).and_then(|v| Ok(v.as_str()?)).map_err(lite)?;
            let model: &str = r.get_ref(2).and_then(|v| Ok(v.as_str()?)).map_err(lite)?;
            let provider: &str = r.get_ref(3).and_then(|v| Ok(v.as_str()?)).map_err(lite)?;
            let harness: &str = r.get_ref(4).and_then(|v| Ok(v.as_str()?)).map_err(lite)?;
            let config: Option<&str> = r
                .get_ref(5)
                .and_then(|v| Ok(v.as_str_or_null()?))
                .map_err(lite)?;
            out.write(&[
                &(id + seat_offset),
                &wave_id,
                &slug,
                &model,
                &provider,
                &harness,
                &config,
            ])
            .map_err(err)?;
        }
        out.finish().map_err(err)?;
        Ok(())
    }

    /// Copies the tallies of a staged wave's seats in.
    fn copy_seat_tallies(
        &mut self,
        stage: &Connection,
        stage_path: &Path,
        span: &StagedSpan,
    ) -> Result<()> {
        let StagedSpan {
            before,
            last,
            seat_offset,
            ..
        } = *span;
        let lite = |e| sqlite(stage_path, e);
        let path = self.path;
        let err = |e| error(path, e);
        let sink = self
            .tx
            .copy_in("COPY seat_tally (seat_id, format, tally) FROM STDIN (FORMAT binary)")
            .map_err(err)?;
        let mut out = BinaryCopyInWriter::new(sink, &[Type::INT8, Type::INT8, Type::TEXT]);
        let mut stmt = stage
            .prepare(
                "SELECT seat_id, format, tally FROM seat_tally
                 WHERE seat_id > ?1 AND seat_id <= ?2 ORDER BY seat_id",
            )
            .map_err(lite)?;
        let mut rows = stmt.query([before.seat, last.seat]).map_err(lite)?;
        while let Some(r) = rows.next().map_err(lite)? {
            let seat: i64 = r.get(0).map_err(lite)?;
            let format: i64 = r.get(1).map_err(lite)?;
            let tally: &str = r.get_ref(2).and_then(|v| Ok(v.as_str()?)).map_err(lite)?;
            out.write(&[&(seat + seat_offset), &format, &tally])
                .map_err(err)?;
        }
        out.finish().map_err(err)?;
        Ok(())
    }

    /// Copies a staged wave's attempts in, their ids and seats' moved by the span's offsets.
    fn copy_attempts(
        &mut self,
        stage: &Connection,
        stage_path: &Path,
        span: &StagedSpan,
    ) -> Result<()> {
        let StagedSpan {
            before,
            last,
            seat_offset,
            attempt_offset,
            ..
        } = *span;
        let lite = |e| sqlite(stage_path, e);
        let path = self.path;
        let err = |e| error(path, e);
        let sink = self
            .tx
            .copy_in(
                "COPY attempt (id, seat_id, problem, trial, correct, outcome, input_tokens,
                    output_tokens, input_tokens_cache_read, input_tokens_cache_write, wall_s,
                    cost_usd, steps, errors, checklist, working_s, infra_error, end_reason)
                 FROM STDIN (FORMAT binary)",
            )
            .map_err(err)?;
        let mut out = BinaryCopyInWriter::new(
            sink,
            &[
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
        );
        let mut stmt = stage
            .prepare(
                "SELECT id, seat_id, problem, trial, correct, outcome, input_tokens,
                    output_tokens, input_tokens_cache_read, input_tokens_cache_write, wall_s,
                    cost_usd, steps, errors, checklist, working_s, infra_error, end_reason
                 FROM attempt WHERE id > ?1 AND id <= ?2 ORDER BY id",
            )
            .map_err(lite)?;
        let mut rows = stmt.query([before.attempt, last.attempt]).map_err(lite)?;
        while let Some(r) = rows.next().map_err(lite)? {
            let int = |i| r.get::<_, Option<i64>>(i).map_err(lite);
            let real = |i| r.get::<_, Option<f64>>(i).map_err(lite);
            let text = |i| {
                r.get_ref(i)
                    .and_then(|v| Ok(v.as_str_or_null()?))
                    .map_err(lite)
            };
            let flag = |i| r.get::<_, bool>(i).map_err(lite);
            let id: i64 = r.get(0).map_err(lite)?;
            let seat: i64 = r.get(1).map_err(lite)?;
            let problem: &str = r.get_ref(2).and_then(|v| Ok(v.as_str()?)).map_err(lite)?;
            let trial: i64 = r.get(3).map_err(lite)?;
            let values: [&(dyn ToSql + Sync); 18] = [
                &(id + attempt_offset),
                &(seat + seat_offset),
                &problem,
                &trial,
                &flag(4)?,
                &real(5)?,
                &int(6)?,
                &int(7)?,
                &int(8)?,
                &int(9)?,
                &real(10)?,
                &real(11)?,
                &int(12)?,
                &int(13)?,
                &text(14)?,
                &real(15)?,
                &flag(16)?,
                &text(17)?,
            ];
            out.write(&values).map_err(err)?;
        }
        out.finish().map_err(err)?;
        Ok(())
    }

    /// Copies the trace steps of a staged wave's attempts in.
    fn copy_trace_steps(
        &mut self,
        stage: &Connection,
        stage_path: &Path,
        span: &StagedSpan,
    ) -> Result<()> {
        let StagedSpan {
            before,
            last,
            attempt_offset,
            ..
        } = *span;
        let lite = |e| sqlite(stage_path, e);
        let path = self.path;
        let err = |e| error(path, e);
        let sink = self
            .tx
            .copy_in(
                "COPY trace_step (attempt_id, idx, tool, ok, error) FROM STDIN (FORMAT binary)",
            )
            .map_err(err)?;
        let mut out = BinaryCopyInWriter::new(
            sink,
            &[Type::INT8, Type::INT8, Type::TEXT, Type::BOOL, Type::TEXT],
        );
        let mut stmt = stage
            .prepare(
                "SELECT attempt_id, idx, tool, ok, error FROM trace_step
                 WHERE id > ?1 AND id <= ?2 ORDER BY id",
            )
            .map_err(lite)?;
        let mut rows = stmt.query([before.step, last.step]).map_err(lite)?;
        while let Some(r) = rows.next().map_err(lite)? {
            let attempt: i64 = r.get(0).map_err(lite)?;
            let idx: i64 = r.get(1).map_err(lite)?;
            let tool: &str = r.get_ref(2).and_then(|v| Ok(v.as_str()?)).map_err(lite)?;
            let ok: bool = r.get(3).map_err(lite)?;
            let error: Option<&str> = r
                .get_ref(4)
                .and_then(|v| Ok(v.as_str_or_null()?))
                .map_err(lite)?;
            out.write(&[&(attempt + attempt_offset), &idx, &tool, &ok, &error])
                .map_err(err)?;
        }
        out.finish().map_err(err)?;
        Ok(())
    }

    /// The wave row, and its suite's when the suite is new.
    fn insert_wave_row(
        &mut self,
        wave_id: i64,
        w: &Wave,
        hash: &ContentHash,
        now: &str,
    ) -> Result<()> {
        let path = self.path;
        let err = |e| error(path, e);
        let suite: Option<i64> = self
            .tx
            .query_opt("SELECT id FROM suite WHERE name = $1", &[&w.suite])
            .map_err(err)?
            .map(|r| r.get(0));
        let suite_id = match suite {
            Some(id) => id,
            None => {
                let id = self.next_id("suite")?;
                self.tx
                    .execute(
                        "INSERT INTO suite(id, name) VALUES ($1, $2)",
                        &[&id, &w.suite],
                    )
                    .map_err(err)?;
                id
            }
        };
        let (problems, listed) = match &w.suite_problems {
            None => (None, false),
            Some(SuiteProblems::Count(n)) => (Some(signed(*n)), false),
            Some(SuiteProblems::Ids(ids)) => (Some(signed(ids.len())), true),
        };
        self.tx
            .execute(
                "INSERT INTO wave(id, slug, suite_id, started_at, notes, suite_problems,
                    suite_problems_listed, parallel_sessions, tool_server_sessions, serial_rerun,
                    input_tokens_include_cache_reads, price_source,
                    budget_tokens, budget_wall_s, budget_cost_usd,
                    harness_version, producer, producer_version, content_sha256, content_format,
                    ingested_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
                    $17, $18, $19, $20, $21)",
                &[
                    &wave_id,
                    &w.id,
                    &suite_id,
                    &w.started_at,
                    &w.notes,
                    &problems,
                    &listed,
                    &w.load.parallel_sessions.map(i64::from),
                    &w.load.tool_server_sessions.map(i64::from),
                    &w.load.serial_rerun,
                    &w.accounting.input_tokens_include_cache_reads,
                    &w.accounting.price_source,
                    &w.budget.tokens,
                    &w.budget.wall_s,
                    &w.budget.cost_usd,
                    &w.provenance.harness_version,
                    &w.provenance.producer,
                    &w.provenance.producer_version,
                    &hash.sha256,
                    &i64::from(hash.format),
                    &now,
                ],
            )
            .map_err(err)?;
        Ok(())
    }
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
        self.write(|tx| {
            let mut t = PgTx {
                tx,
                path: &self.path,
                stage: Some((stage, stage_path)),
            };
            decide(&mut t, &self.path, waves, now)
        })
    }

    /// [`crate::ledger::Ledger::keep_seat_tallies`] on PostgreSQL.
    pub(in crate::ledger) fn keep_seat_tallies(
        &self,
        wave: &str,
        format: u32,
        tallies: &[(String, String)],
    ) -> Result<usize> {
        self.write(|tx| {
            let stmt = tx
                .prepare(
                    "INSERT INTO seat_tally(seat_id, format, tally)
                     SELECT s.id, $3, $4 FROM seat s JOIN wave w ON w.id = s.wave_id
                     WHERE w.slug = $1 AND s.slug = $2
                     ON CONFLICT DO NOTHING",
                )
                .map_err(|e| self.err(e))?;
            let mut kept = 0;
            for (seat, text) in tallies {
                kept += tx
                    .execute(&stmt, &[&wave, seat, &i64::from(format), text])
                    .map_err(|e| self.err(e))?;
            }
            Ok(kept as usize)
        })
    }

    pub(in crate::ledger) fn withdraw(
        &self,
        w: &NewWithdrawal,
        seal: &dyn Fn(&WithdrawalSeal<'_>) -> String,
    ) -> Result<WithdrawalRow> {
        self.write(|tx| {
            let earlier = tx
                .query_opt(
                    "SELECT d.reason, d.created_at FROM withdrawal d
                     JOIN wave w ON w.id = d.wave_id WHERE w.slug = $1 ORDER BY d.id LIMIT 1",
                    &[&w.wave],
                )
                .map_err(|e| self.err(e))?;
            if let Some(r) = earlier {
                return Err(crate::ledger::chain::already_withdrawn(
                    &w.wave,
                    r.get(0),
                    r.get(1),
                ));
            }
            PgTx {
                tx,
                path: &self.path,
                stage: None,
            }
            .append_withdrawal(w, seal)
        })
    }

    /// Appends a publication; returns its id.
    pub(in crate::ledger) fn add_publication(
        &self,
        wave_id: i64,
        rubric_id: i64,
        p: &NewPublication,
        seal: &dyn Fn(i64, Option<&str>) -> String,
    ) -> Result<i64> {
        self.write(|tx| {
            let id: i64 = tx
                .query_one("SELECT coalesce(max(id), 0) + 1 FROM publication", &[])
                .map_err(|e| self.err(e))?
                .get(0);
            let prev: Option<String> = tx
                .query_opt(crate::ledger::chain::HEAD, &[])
                .map_err(|e| self.err(e))?
                .map(|r| r.get(0));
            let row = PublicationRow {
                id,
                wave: p.wave.clone(),
                rubric: String::new(),
                rubric_sha256: p.rubric_sha256.clone(),
                title: p.title.clone(),
                created_at: p.created_at.clone(),
                input_format: p.input_format,
                input: p.input.clone(),
                input_sha256: p.input_sha256.clone(),
                output: p.output.clone(),
                output_sha256: p.output_sha256.clone(),
                sha256: seal(id, prev.as_deref()),
                prev_sha256: prev,
                record_format: crate::formats::record::LATEST,
            };
            insert_publication(tx, wave_id, rubric_id, &row).map_err(|e| self.err(e))?;
            Ok(id)
        })
    }

    pub(in crate::ledger) fn import_publication(
        &self,
        wave_id: i64,
        rubric_id: i64,
        p: &PublicationRow,
    ) -> Result<()> {
        self.write(|tx| insert_publication(tx, wave_id, rubric_id, p).map_err(|e| self.err(e)))
    }

    pub(in crate::ledger) fn add_rubrics(&self, rows: &[RubricRow]) -> Result<Vec<RubricAdded>> {
        self.write(|tx| {
            let mut out = Vec::with_capacity(rows.len());
            for row in rows {
                let there: Option<String> = tx
                    .query_opt(
                        "SELECT sha256 FROM rubric WHERE name = $1 AND version = $2",
                        &[&row.name, &i64::from(row.version)],
                    )
                    .map_err(|e| self.err(e))?
                    .map(|r| r.get(0));
                if let Some(there) = there {
                    if there == row.sha256 {
                        out.push(RubricAdded::AlreadyPresent);
                        continue;
                    }
                    return Err(row.conflict(&there));
                }
                tx.execute(
                    "INSERT INTO rubric(id, name, version, sha256, text, scale_violation, added_at)
                     VALUES ((SELECT coalesce(max(id), 0) + 1 FROM rubric), $1, $2, $3, $4, $5,
                        $6)",
                    &[
                        &row.name,
                        &i64::from(row.version),
                        &row.sha256,
                        &row.text,
                        &row.scale_violation,
                        &row.added_at,
                    ],
                )
                .map_err(|e| self.err(e))?;
                out.push(RubricAdded::Added);
            }
            Ok(out)
        })
    }

    pub(in crate::ledger) fn add_price_tables(
        &self,
        rows: &[PriceTableRow],
    ) -> Result<Vec<PricesAdded>> {
        self.write(|tx| {
            let mut out = Vec::with_capacity(rows.len());
            for row in rows {
                let there: Option<String> = tx
                    .query_opt(
                        "SELECT sha256 FROM price_table WHERE name = $1 AND version = $2",
                        &[&row.name, &i64::from(row.version)],
                    )
                    .map_err(|e| self.err(e))?
                    .map(|r| r.get(0));
                if let Some(there) = there {
                    if there == row.sha256 {
                        out.push(PricesAdded::AlreadyPresent);
                        continue;
                    }
                    return Err(row.conflict(&there));
                }
                tx.execute(
                    "INSERT INTO price_table(id, name, version, sha256, text, added_at)
                     VALUES ((SELECT coalesce(max(id), 0) + 1 FROM price_table), $1, $2, $3, $4,
                        $5)",
                    &[
                        &row.name,
                        &i64::from(row.version),
                        &row.sha256,
                        &row.text,
                        &row.added_at,
                    ],
                )
                .map_err(|e| self.err(e))?;
                out.push(PricesAdded::Added);
            }
            Ok(out)
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

/// Writes one publication row (its `rubric` name is not stored: it comes from the rubric row).
fn insert_publication(
    tx: &mut Transaction<'_>,
    wave_id: i64,
    rubric_id: i64,
    p: &PublicationRow,
) -> std::result::Result<(), postgres::Error> {
    tx.execute(
        "INSERT INTO publication(id, wave_id, rubric_id, rubric_sha256, title, created_at,
            input, input_sha256, output, output_sha256, prev_sha256, sha256, input_format,
            record_format)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
        &[
            &p.id,
            &wave_id,
            &rubric_id,
            &p.rubric_sha256,
            &p.title,
            &p.created_at,
            &p.input,
            &p.input_sha256,
            &p.output,
            &p.output_sha256,
            &p.prev_sha256,
            &p.sha256,
            &i64::from(p.input_format),
            &i64::from(p.record_format),
        ],
    )
    .map(|_| ())
}
