//! The log (schema migration 11, [`LOG_SCHEMA_VERSION`]; docs/formats.md, "Log entries"):
//! every write that adds a fact — an ingest, a rubric or price table registered, a publication,
//! a withdrawal, a publication's signature, a seat's display name, a wave's origins — appends an entry naming what it added and its hash, in the same transaction
//! as the write, so a row deleted or rewritten behind benchledger's back contradicts its entry,
//! and an entry deleted or rewritten breaks the next link or moves the head. The entries follow the chain of
//! publications and withdrawals: the first links to that chain's head as it then was.
//!
//! Writers call [`append`] inside [`Ledger::write`], under the write lock, so two writers
//! cannot both claim the same predecessor.

use super::Ledger;
use super::sql::{Row, Sql, values};
use crate::error::{Error, Result};
use crate::formats::record;
use crate::model::{LogEntryRow, LogKind, NewLogEntry};

/// The schema version whose migration began the log: rows written before it have no entry.
pub const LOG_SCHEMA_VERSION: i64 = 11;

/// The query giving the record hash of the last publication or withdrawal (none: there is
/// none), in the order of their own chain (`ChainEntry::order`).
const RECORD_HEAD: &str = "SELECT sha256 FROM (
         SELECT id AS pos, 0 AS kind, 0 AS sub, sha256 FROM publication
         UNION ALL
         SELECT after_publication, 1, id, sha256 FROM withdrawal) AS entries
     ORDER BY pos DESC, kind DESC, sub DESC LIMIT 1";

/// The record hash of the last publication or withdrawal, as a writer holding the write lock
/// sees it: what a new publication or withdrawal links to.
pub(super) fn record_head(sql: &mut Sql<'_>) -> Result<Option<String>> {
    sql.row(RECORD_HEAD, &[], |r| r.get(0))
}

/// The chain's head as a writer holding the write lock sees it: the last log entry's hash, or,
/// before the first, the last publication's or withdrawal's. What a new log entry links to.
pub(super) fn head(sql: &mut Sql<'_>) -> Result<Option<String>> {
    let last: Option<String> = sql.row(
        "SELECT sha256 FROM chain_entry ORDER BY seq DESC LIMIT 1",
        &[],
        |r| r.get(0),
    )?;
    match last {
        Some(h) => Ok(Some(h)),
        None => record_head(sql),
    }
}

const COLUMNS: &str = "seq, kind, subject, version, subject_sha256, created_at, prev_sha256, \
                       record_format, sha256";

fn from_row(r: &Row<'_>) -> Result<LogEntryRow> {
    let kind: String = r.get(1)?;
    Ok(LogEntryRow {
        seq: r.get(0)?,
        kind: LogKind::from_name(&kind).ok_or_else(|| Error::Ledger {
            path: r.path().to_path_buf(),
            message: format!("log entry of unknown kind {kind:?} (table chain_entry)"),
        })?,
        subject: r.get(2)?,
        version: r.unsigned(3, "chain_entry.version")?,
        subject_sha256: r.get(4)?,
        created_at: r.get(5)?,
        prev_sha256: r.get(6)?,
        record_format: r.unsigned(7, "chain_entry.record_format")?,
        sha256: r.get(8)?,
    })
}

fn insert(sql: &mut Sql<'_>, e: &LogEntryRow) -> Result<()> {
    sql.execute(
        &format!("INSERT INTO chain_entry({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"),
        &values![
            e.seq,
            e.kind.name(),
            &e.subject,
            e.version,
            &e.subject_sha256,
            &e.created_at,
            e.prev_sha256.as_deref(),
            e.record_format,
            &e.sha256
        ],
    )
    .map(|_| ())
}

/// Appends an entry to the log inside a write transaction already open, linked to `prev` (the
/// chain's head before the write: [`head`], read before a publication or withdrawal is
/// inserted, since that moves the head of their own chain). Nothing, in a ledger that does not
/// log ([`Ledger::stop_logging`]).
pub(super) fn append(
    sql: &mut Sql<'_>,
    logging: bool,
    new: &NewLogEntry,
    prev: Option<String>,
) -> Result<()> {
    if !logging {
        return Ok(());
    }
    let seq: i64 = sql.value("SELECT coalesce(max(seq), 0) + 1 FROM chain_entry", &[])?;
    let mut e = LogEntryRow {
        seq,
        kind: new.kind,
        subject: new.subject.clone(),
        version: new.version,
        subject_sha256: new.subject_sha256.clone(),
        created_at: new.created_at.clone(),
        prev_sha256: prev,
        record_format: record::LOG_LATEST,
        sha256: String::new(),
    };
    e.sha256 = crate::chain::entry_sha256(record::LOG_LATEST, &e)
        .expect("this build writes its own latest log entry format");
    insert(sql, &e)
}

/// Appends an entry linked to the chain's head as it is now (an ingest or a registration: the
/// write did not move the head).
pub(super) fn append_at_head(sql: &mut Sql<'_>, logging: bool, new: &NewLogEntry) -> Result<()> {
    if !logging {
        return Ok(());
    }
    let prev = head(sql)?;
    append(sql, logging, new, prev)
}

/// What the log says of rows it does not name: the description of each wave, rubric, price
/// table, publication and withdrawal without an entry although one of its table with a smaller
/// row id has one — added after the log began, yet not through benchledger; and of each
/// signature, display name and wave's origins without an entry although the publication or wave
/// it belongs to has one (a row of these kinds for a publication or wave from before the log
/// began cannot be told from one added by hand, and is not named).
const UNLOGGED: &str = "
    SELECT 'wave ' || slug, id, 1 FROM wave x
    WHERE id > (SELECT min(w.id) FROM wave w JOIN chain_entry c
                ON c.kind = 'ingest' AND c.subject = w.slug)
      AND NOT EXISTS (SELECT 1 FROM chain_entry c WHERE c.kind = 'ingest' AND c.subject = x.slug)
    UNION ALL
    SELECT 'rubric ' || name || '@' || version, id, 2 FROM rubric x
    WHERE id > (SELECT min(r.id) FROM rubric r JOIN chain_entry c
                ON c.kind = 'rubric' AND c.subject = r.name AND c.version = r.version)
      AND NOT EXISTS (SELECT 1 FROM chain_entry c WHERE c.kind = 'rubric'
                      AND c.subject = x.name AND c.version = x.version)
    UNION ALL
    SELECT 'price table ' || name || '@' || version, id, 3 FROM price_table x
    WHERE id > (SELECT min(r.id) FROM price_table r JOIN chain_entry c
                ON c.kind = 'price_table' AND c.subject = r.name AND c.version = r.version)
      AND NOT EXISTS (SELECT 1 FROM chain_entry c WHERE c.kind = 'price_table'
                      AND c.subject = x.name AND c.version = x.version)
    UNION ALL
    SELECT 'publication #' || id, id, 4 FROM publication x
    WHERE id > (SELECT min(p.id) FROM publication p JOIN chain_entry c
                ON c.kind = 'publication' AND c.subject = CAST(p.id AS TEXT))
      AND NOT EXISTS (SELECT 1 FROM chain_entry c WHERE c.kind = 'publication'
                      AND c.subject = CAST(x.id AS TEXT))
    UNION ALL
    SELECT 'withdrawal #' || id, id, 5 FROM withdrawal x
    WHERE id > (SELECT min(d.id) FROM withdrawal d JOIN chain_entry c
                ON c.kind = 'withdrawal' AND c.subject = CAST(d.id AS TEXT))
      AND NOT EXISTS (SELECT 1 FROM chain_entry c WHERE c.kind = 'withdrawal'
                      AND c.subject = CAST(x.id AS TEXT))
    UNION ALL
    SELECT 'the signature of publication #' || x.publication_id, x.publication_id, 6
    FROM publication_envelope x
    WHERE EXISTS (SELECT 1 FROM chain_entry c WHERE c.kind = 'publication'
                  AND c.subject = CAST(x.publication_id AS TEXT))
      AND NOT EXISTS (SELECT 1 FROM chain_entry c WHERE c.kind = 'signature'
                      AND c.subject = CAST(x.publication_id AS TEXT))
    UNION ALL
    SELECT 'the display name of seat ' || w.slug || '/' || s.slug, s.id, 7
    FROM seat_display_name x JOIN seat s ON s.id = x.seat_id JOIN wave w ON w.id = s.wave_id
    WHERE EXISTS (SELECT 1 FROM chain_entry c WHERE c.kind = 'ingest' AND c.subject = w.slug)
      AND NOT EXISTS (SELECT 1 FROM chain_entry c WHERE c.kind = 'display_name'
                      AND c.subject = w.slug || '/' || s.slug)
    UNION ALL
    SELECT 'the origin record of wave ' || w.slug, w.id, 8 FROM wave w
    WHERE EXISTS (SELECT 1 FROM attempt_origin o JOIN attempt a ON a.id = o.attempt_id
                  JOIN seat s ON s.id = a.seat_id WHERE s.wave_id = w.id)
      AND EXISTS (SELECT 1 FROM chain_entry c WHERE c.kind = 'ingest' AND c.subject = w.slug)
      AND NOT EXISTS (SELECT 1 FROM chain_entry c WHERE c.kind = 'origins' AND c.subject = w.slug)
    ORDER BY 3, 2";

impl Ledger {
    /// Every entry of the log, in order.
    pub fn log(&self) -> Result<Vec<LogEntryRow>> {
        self.read(|sql| {
            sql.rows(
                &format!("SELECT {COLUMNS} FROM chain_entry ORDER BY seq"),
                &[],
                from_row,
            )
        })
    }

    /// The whole chain as it is walked to its head ([`crate::chain::walk`]): the publications
    /// and withdrawals from before the log began, then the log. Its last entry is the head.
    pub fn walk(&self) -> Result<Vec<crate::model::ChainEntry>> {
        Ok(crate::chain::walk(&self.chain()?, &self.log()?))
    }

    /// The rows no log entry names although one of their table with a smaller row id has one —
    /// added after the log began, yet not through benchledger — as a reader names them: "wave
    /// w", "rubric r@2", "publication #3".
    pub fn unlogged(&self) -> Result<Vec<String>> {
        self.read(|sql| sql.rows(UNLOGGED, &[], |r| r.get(0)))
    }

    /// How many waves, rubrics and price tables no entry names (those from before the log
    /// began, and any added behind benchledger's back: [`Ledger::unlogged`]).
    pub fn unnamed_by_log(&self) -> Result<[i64; 3]> {
        self.read(|sql| {
            sql.one(
                "SELECT
                   (SELECT count(*) FROM wave x WHERE NOT EXISTS (SELECT 1 FROM chain_entry c
                      WHERE c.kind = 'ingest' AND c.subject = x.slug)),
                   (SELECT count(*) FROM rubric x WHERE NOT EXISTS (SELECT 1 FROM chain_entry c
                      WHERE c.kind = 'rubric' AND c.subject = x.name AND c.version = x.version)),
                   (SELECT count(*) FROM price_table x WHERE NOT EXISTS (SELECT 1 FROM
                      chain_entry c WHERE c.kind = 'price_table' AND c.subject = x.name
                      AND c.version = x.version))",
                &[],
                |r| Ok([r.get(0)?, r.get(1)?, r.get(2)?]),
            )
        })
    }

    /// The rows of the kinds whose log entries name their content's SHA-256 and no time of
    /// their own ([`crate::chain::Named::contents`]): each publication's signed statement, by
    /// the publication's id; each seat's display name, by "WAVE/SEAT"; each wave's origins.
    pub fn logged_contents(&self) -> Result<Vec<crate::chain::LoggedContent>> {
        let envelopes: Vec<(i64, String)> = self.read(|sql| {
            sql.rows(
                "SELECT publication_id, envelope FROM publication_envelope ORDER BY publication_id",
                &[],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
        })?;
        let names: Vec<(String, String, String)> = self.read(|sql| {
            sql.rows(
                "SELECT w.slug, s.slug, d.name FROM seat_display_name d
                 JOIN seat s ON s.id = d.seat_id JOIN wave w ON w.id = s.wave_id ORDER BY s.id",
                &[],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
        })?;
        let sha = |text: &str| crate::digest::sha256_hex(text.as_bytes());
        let signatures = envelopes
            .into_iter()
            .map(|(id, text)| (LogKind::Signature, id.to_string(), sha(&text)));
        let display_names = names
            .into_iter()
            .map(|(wave, seat, name)| (LogKind::DisplayName, format!("{wave}/{seat}"), sha(&name)));
        let slugs: Vec<String> = self.read(|sql| {
            sql.rows(
                "SELECT DISTINCT w.slug FROM attempt_origin o JOIN attempt a ON a.id = o.attempt_id
                 JOIN seat s ON s.id = a.seat_id JOIN wave w ON w.id = s.wave_id ORDER BY w.slug",
                &[],
                |r| r.get(0),
            )
        })?;
        let mut out: Vec<crate::chain::LoggedContent> = signatures.chain(display_names).collect();
        for slug in slugs {
            let origins = self.read(|sql| origins(sql, &slug))?;
            let sha = crate::formats::record::origins_sha256(&origins);
            out.push((LogKind::Origins, slug, sha));
        }
        Ok(out)
    }

    /// From now on, this ledger's writes append no log entries: for a bundle's ledger, which
    /// takes the entries of its source as they are ([`Ledger::import_log_entries`]).
    pub fn stop_logging(&mut self) {
        self.logging = false;
    }

    /// Copies log entries, as they are, into this ledger (for reproduction bundles).
    pub fn import_log_entries(&mut self, entries: &[LogEntryRow]) -> Result<()> {
        self.write(|sql| {
            for e in entries {
                insert(sql, e)?;
            }
            Ok(())
        })
    }

    /// Whether this ledger's writes append log entries.
    pub(super) fn logging(&self) -> bool {
        self.logging
    }
}

/// The origins of the wave `slug`'s attempts, in attempt order (what its `origins` log entry
/// hashes).
pub(super) fn origins(
    sql: &mut Sql<'_>,
    slug: &str,
) -> Result<Vec<crate::formats::record::Origin>> {
    sql.rows(
        "SELECT s.slug, a.problem, a.trial, o.file, o.record
         FROM attempt_origin o JOIN attempt a ON a.id = o.attempt_id
         JOIN seat s ON s.id = a.seat_id JOIN wave w ON w.id = s.wave_id
         WHERE w.slug = ?1 ORDER BY a.id",
        &values![slug],
        |r| {
            Ok(crate::formats::record::Origin {
                seat: r.get(0)?,
                problem: r.get(1)?,
                trial: r.unsigned(2, "attempt.trial")?,
                file: r.get(3)?,
                record: r.get(4)?,
            })
        },
    )
}

#[cfg(test)]
mod tests {
    /// [`super::LOG_SCHEMA_VERSION`] names the migration that makes the log's table.
    #[test]
    fn the_log_began_with_the_migration_that_makes_its_table() {
        let migrations = crate::ledger::migrations();
        let at = usize::try_from(super::LOG_SCHEMA_VERSION).unwrap() - 1;
        assert!(migrations[at].contains("CREATE TABLE chain_entry ("));
    }
}
