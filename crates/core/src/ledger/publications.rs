//! Publications: frozen leaderboards, chained by hash (with the withdrawals: see `chain.rs`).
//! The schema's triggers refuse any UPDATE or DELETE; the chain is extended in one IMMEDIATE
//! transaction so two publishers cannot both claim the same predecessor.

use rusqlite::{OptionalExtension, params};

use super::{Ledger, on_sqlite, sqlite};
use crate::error::{Error, Result};
use crate::model::PublicationRow;

/// A publication to add; the ledger assigns the id and the predecessor.
#[derive(Debug, Clone, PartialEq)]
pub struct NewPublication {
    pub wave: String,
    pub rubric_sha256: String,
    pub title: String,
    pub created_at: String,
    pub input_format: u32,
    pub input: String,
    pub input_sha256: String,
    pub output: String,
    pub output_sha256: String,
}

// Outer joins, so that a publication whose wave or rubric row was deleted behind benchledger's
// back is still listed (and fails verification) rather than silently dropped.
pub(super) const SELECT: &str =
    "SELECT p.id, coalesce(w.slug, '(deleted wave row ' || p.wave_id || ')'),
        coalesce(r.name || '@' || r.version, '(deleted rubric row ' || p.rubric_id || ')'),
        p.rubric_sha256, p.title,
        p.created_at, p.input, p.input_sha256, p.output, p.output_sha256, p.prev_sha256, p.sha256,
        p.input_format, p.record_format
     FROM publication p LEFT JOIN wave w ON w.id = p.wave_id
        LEFT JOIN rubric r ON r.id = p.rubric_id";

fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<PublicationRow> {
    Ok(PublicationRow {
        id: r.get(0)?,
        wave: r.get(1)?,
        rubric: r.get(2)?,
        rubric_sha256: r.get(3)?,
        title: r.get(4)?,
        created_at: r.get(5)?,
        input: r.get(6)?,
        input_sha256: r.get(7)?,
        output: r.get(8)?,
        output_sha256: r.get(9)?,
        prev_sha256: r.get(10)?,
        sha256: r.get(11)?,
        input_format: r.get(12)?,
        record_format: r.get(13)?,
    })
}

/// Writes one publication row (its `rubric` name is not stored: it comes from the rubric row).
fn insert(
    conn: &rusqlite::Connection,
    wave_id: i64,
    rubric_id: i64,
    p: &PublicationRow,
) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO publication(id, wave_id, rubric_id, rubric_sha256, title, created_at,
            input, input_sha256, output, output_sha256, prev_sha256, sha256, input_format,
            record_format)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
        params![
            p.id,
            wave_id,
            rubric_id,
            p.rubric_sha256,
            p.title,
            p.created_at,
            p.input,
            p.input_sha256,
            p.output,
            p.output_sha256,
            p.prev_sha256,
            p.sha256,
            p.input_format,
            p.record_format
        ],
    )
    .map(|_| ())
}

impl Ledger {
    /// Appends a publication to the chain. `seal` computes the record's hash from its id and
    /// its predecessor's hash.
    pub fn add_publication(
        &mut self,
        p: &NewPublication,
        seal: impl Fn(i64, Option<&str>) -> String,
    ) -> Result<PublicationRow> {
        let path = self.path.clone();
        let wave_id = self.wave_rowid(&p.wave)?;
        let rubric_id = self.rubric_rowid(&p.rubric_sha256)?;
        on_sqlite!(self, pg => {
            let id = pg.add_publication(wave_id, rubric_id, p, &seal)?;
            self.publication(id)
        });
        let tx = self.begin_write()?;
        let id: i64 = tx
            .query_row(
                "SELECT coalesce(max(id), 0) + 1 FROM publication",
                [],
                |r| r.get(0),
            )
            .map_err(|e| sqlite(&path, e))?;
        let prev = super::chain::head_in(&tx).map_err(|e| sqlite(&path, e))?;
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
        insert(&tx, wave_id, rubric_id, &row).map_err(|e| sqlite(&path, e))?;
        tx.commit().map_err(|e| sqlite(&path, e))?;
        self.publication(id)
    }

    /// Copies a publication, as is, into this ledger (for reproduction bundles). Its wave and
    /// rubric must already be here.
    pub fn import_publication(&mut self, p: &PublicationRow) -> Result<()> {
        let wave_id = self.wave_rowid(&p.wave)?;
        let rubric_id = self.rubric_rowid(&p.rubric_sha256)?;
        let conn = on_sqlite!(self, pg => pg.import_publication(wave_id, rubric_id, p));
        insert(conn, wave_id, rubric_id, p).map_err(|e| self.err(e))
    }

    /// Every publication, oldest first.
    pub fn publications(&self) -> Result<Vec<PublicationRow>> {
        let conn = on_sqlite!(self, pg => pg.publications());
        conn.prepare_cached(&format!("{SELECT} ORDER BY p.id"))
            .and_then(|mut s| s.query_map([], from_row)?.collect())
            .map_err(|e| self.err(e))
    }

    pub fn publication(&self, id: i64) -> Result<PublicationRow> {
        self.publication_if_any(id)?.ok_or_else(|| {
            Error::Usage(format!(
                "no publication {id} in {}; list them with `benchledger publications`",
                self.path.display()
            ))
        })
    }

    fn publication_if_any(&self, id: i64) -> Result<Option<PublicationRow>> {
        let conn = on_sqlite!(self, pg => pg.publication(id));
        conn.prepare_cached(&format!("{SELECT} WHERE p.id = ?1"))
            .and_then(|mut s| s.query_row([id], from_row).optional())
            .map_err(|e| self.err(e))
    }

    /// The rubric row a publication refers to, read without trusting its stored hash.
    pub fn publication_rubric(&self, id: i64) -> Result<super::RubricRow> {
        let conn = on_sqlite!(self, pg => pg.publication_rubric(id));
        conn.prepare_cached(
            "SELECT r.name, r.version, r.sha256, r.text, r.scale_violation, r.added_at
                 FROM publication p JOIN rubric r ON r.id = p.rubric_id WHERE p.id = ?1",
        )
        .and_then(|mut s| {
            s.query_row([id], |r| {
                Ok(super::RubricRow {
                    name: r.get(0)?,
                    version: r.get(1)?,
                    sha256: r.get(2)?,
                    text: r.get(3)?,
                    scale_violation: r.get(4)?,
                    added_at: r.get(5)?,
                })
            })
        })
        .map_err(|e| self.err(e))
    }

    /// The ingest time recorded for a wave (copied into bundles as is).
    pub fn wave_ingested_at(&self, slug: &str) -> Result<String> {
        let rowid = self.wave_rowid(slug)?;
        let conn = on_sqlite!(self, pg => pg.wave_ingested_at(rowid));
        conn.prepare_cached("SELECT ingested_at FROM wave WHERE id = ?1")
            .and_then(|mut s| s.query_row([rowid], |r| r.get(0)))
            .map_err(|e| self.err(e))
    }
}
