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

/// Every row of a logged kind that no log entry names, as (how a reader names it, its kind's
/// number, the key by which something older than the log may name it): a wave by its slug, a
/// rubric by its text's SHA-256, a price table by "NAME@VERSION SHA256", a publication or
/// withdrawal by its record hash, a signature by its publication's id, a display name or a
/// wave's origins by the wave's slug; submission rules and reviews (migration 13, after the
/// log began) by their own keys, which nothing older than the log names. Row ids play no part: an editor chooses them (issue 34,
/// #1: rows moved to id 0 and below passed as "older than the log").
const UNNAMED: &str = "
    SELECT 'wave ' || slug, '01', slug, id FROM wave x
    WHERE NOT EXISTS (SELECT 1 FROM chain_entry c WHERE c.kind = 'ingest' AND c.subject = x.slug)
    UNION ALL
    SELECT 'rubric ' || name || '@' || version, '02', sha256, id FROM rubric x
    WHERE NOT EXISTS (SELECT 1 FROM chain_entry c WHERE c.kind = 'rubric'
                      AND c.subject = x.name AND c.version = x.version)
    UNION ALL
    SELECT 'price table ' || name || '@' || version, '03',
           name || '@' || CAST(version AS TEXT) || ' ' || sha256, id FROM price_table x
    WHERE NOT EXISTS (SELECT 1 FROM chain_entry c WHERE c.kind = 'price_table'
                      AND c.subject = x.name AND c.version = x.version)
    UNION ALL
    SELECT 'publication #' || id, '04', sha256, id FROM publication x
    WHERE NOT EXISTS (SELECT 1 FROM chain_entry c WHERE c.kind = 'publication'
                      AND c.subject = CAST(x.id AS TEXT))
    UNION ALL
    SELECT 'withdrawal #' || id, '05', sha256, id FROM withdrawal x
    WHERE NOT EXISTS (SELECT 1 FROM chain_entry c WHERE c.kind = 'withdrawal'
                      AND c.subject = CAST(x.id AS TEXT))
    UNION ALL
    SELECT 'the signature of publication #' || x.publication_id, '06',
           CAST(x.publication_id AS TEXT), x.publication_id
    FROM publication_envelope x
    WHERE NOT EXISTS (SELECT 1 FROM chain_entry c WHERE c.kind = 'signature'
                      AND c.subject = CAST(x.publication_id AS TEXT))
    UNION ALL
    SELECT 'the display name of seat ' || w.slug || '/' || s.slug, '07', w.slug, s.id
    FROM seat_display_name x JOIN seat s ON s.id = x.seat_id JOIN wave w ON w.id = s.wave_id
    WHERE NOT EXISTS (SELECT 1 FROM chain_entry c WHERE c.kind = 'display_name'
                      AND c.subject = w.slug || '/' || s.slug)
    UNION ALL
    SELECT 'the origin record of wave ' || w.slug, '08', w.slug, w.id FROM wave w
    WHERE EXISTS (SELECT 1 FROM attempt_origin o JOIN attempt a ON a.id = o.attempt_id
                  JOIN seat s ON s.id = a.seat_id WHERE s.wave_id = w.id)
      AND NOT EXISTS (SELECT 1 FROM chain_entry c WHERE c.kind = 'origins' AND c.subject = w.slug)
    UNION ALL
    SELECT 'submission rules ' || name || '@' || version, '09', sha256, id FROM submission_rules x
    WHERE NOT EXISTS (SELECT 1 FROM chain_entry c WHERE c.kind = 'rules'
                      AND c.subject = x.name AND c.version = x.version)
    UNION ALL
    SELECT 'the review of wave ' || w.slug || ' under rules ' || x.rules_name || '@'
           || CAST(x.rules_version AS TEXT), '10', w.slug, x.id
    FROM wave_review x JOIN wave w ON w.id = x.wave_id
    WHERE NOT EXISTS (SELECT 1 FROM chain_entry c WHERE c.kind = 'review'
                      AND c.subject = w.slug || '/' || x.rules_name || '@'
                                      || CAST(x.rules_version AS TEXT))
    UNION ALL
    SELECT 'the text record of wave ' || w.slug, '11', w.slug, w.id FROM wave w
    WHERE EXISTS (SELECT 1 FROM attempt_text t JOIN attempt a ON a.id = t.attempt_id
                  JOIN seat s ON s.id = a.seat_id WHERE s.wave_id = w.id)
      AND NOT EXISTS (SELECT 1 FROM chain_entry c WHERE c.kind = 'texts' AND c.subject = w.slug)
    ORDER BY 2, 4";

/// What the log covers (`Ledger::log_coverage`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LogCoverage {
    /// The rows no entry names and nothing from before the log began names either, as a
    /// reader names them ("wave w", "rubric r@2", "publication #3"): each was added behind
    /// benchledger's back, or (in a ledger older than the log) is older than the log but
    /// nothing shows it.
    pub unaccounted: Vec<String>,
    /// How many waves, rubrics and price tables no entry names that a publication or
    /// withdrawal from before the log began does: provably older than the log, checked against
    /// their own hashes only.
    pub older: [usize; 3],
}

/// What the chain from before the log began names: the records the log's first entry links
/// to, and everything before them, pinned by that link.
#[derive(Default)]
struct Older {
    waves: std::collections::BTreeSet<String>,
    rubrics: std::collections::BTreeSet<String>,
    price_tables: std::collections::BTreeSet<String>,
    records: std::collections::BTreeSet<String>,
    publications: std::collections::BTreeSet<String>,
}

impl Older {
    /// `chain` is the publications and withdrawals in chain order; `first_link` the log's
    /// first entry's link (`None`: the log is empty, so every record is older than it;
    /// `Some(None)`: the log began before any record, so none is). A ledger whose log began
    /// at its creation has no record older than the log, so nothing is older.
    fn of(chain: &[crate::model::ChainEntry], first_link: Option<Option<&str>>) -> Older {
        use crate::model::ChainEntry;
        let before: &[ChainEntry] = match first_link {
            None => chain,
            Some(None) => &[],
            Some(Some(link)) => match chain.iter().position(|e| e.sha256() == link) {
                Some(at) => &chain[..=at],
                // The link names no record: the chain check says so; nothing is older.
                None => &[],
            },
        };
        let mut out = Older::default();
        for e in before {
            out.records.insert(e.sha256().to_string());
            match e {
                ChainEntry::Publication(p) => {
                    out.waves.insert(p.wave.clone());
                    out.rubrics.insert(p.rubric_sha256.clone());
                    out.publications.insert(p.id.to_string());
                    if let Ok(input) = crate::formats::input::decode(p.input_format, &p.input)
                        && let Some(t) = input.prices
                    {
                        out.price_tables
                            .insert(format!("{}@{} {}", t.name, t.version, t.sha256));
                    }
                }
                ChainEntry::Withdrawal(w) => {
                    out.waves.insert(w.wave.clone());
                    out.waves.extend(w.superseded_by.clone());
                }
                ChainEntry::Logged(_) => {}
            }
        }
        out
    }

    /// Whether the row of kind `kind` (as [`UNNAMED`] numbers them, from `01`) keyed `key` is named by
    /// something older than the log.
    fn names(&self, kind: i64, key: &str) -> bool {
        match kind {
            1 | 7 | 8 => self.waves.contains(key),
            2 => self.rubrics.contains(key),
            3 => self.price_tables.contains(key),
            4 | 5 => self.records.contains(key),
            6 => self.publications.contains(key),
            _ => false,
        }
    }
}

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

    /// What the log covers: every row of every logged kind is named by an entry, or named
    /// by a publication or withdrawal from before the log began (the chain the log's first
    /// entry links to), or it is unaccounted for. Row ids and times decide nothing: an editor
    /// chooses both.
    pub(crate) fn log_coverage(&self) -> Result<LogCoverage> {
        let first_link: Option<Option<String>> = self.read(|sql| {
            sql.row(
                "SELECT prev_sha256 FROM chain_entry ORDER BY seq LIMIT 1",
                &[],
                |r| r.get(0),
            )
        })?;
        let chain = self.chain()?;
        let older = Older::of(&chain, first_link.as_ref().map(Option::as_deref));
        let rows: Vec<(String, String, String)> =
            self.read(|sql| sql.rows(UNNAMED, &[], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))))?;
        let mut out = LogCoverage::default();
        for (what, kind, key) in rows {
            let kind: i64 = kind.parse().unwrap_or(0);
            if older.names(kind, &key) {
                if let Some(n) = usize::try_from(kind - 1)
                    .ok()
                    .and_then(|i| out.older.get_mut(i))
                {
                    *n += 1;
                }
            } else {
                out.unaccounted.push(what);
            }
        }
        Ok(out)
    }

    /// The rows of the kinds whose log entries name their content's SHA-256 and no time of
    /// their own ([`crate::chain::Named::contents`]): each publication's signed statement, by
    /// the publication's id; each seat's display name, by "WAVE/SEAT"; each wave's origins.
    pub(crate) fn logged_contents(&self) -> Result<Vec<crate::chain::LoggedContent>> {
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
        for mut r in self.reviews()? {
            // The entry names the findings by their SHA-256: a findings text edited away from
            // the hash beside it makes a record no entry names.
            let findings = sha(&r.findings);
            if findings != r.findings_sha256 {
                r.findings_sha256 = format!("{} (findings hash to {findings})", r.findings_sha256);
            }
            out.push((
                LogKind::Review,
                r.subject(),
                crate::formats::record::review_sha256(&r),
            ));
        }
        for slug in slugs {
            let origins = self.read(|sql| origins(sql, &slug))?;
            let sha = crate::formats::record::origins_sha256(&origins);
            out.push((LogKind::Origins, slug, sha));
        }
        let slugs: Vec<String> = self.read(|sql| {
            sql.rows(
                "SELECT DISTINCT w.slug FROM attempt_text t JOIN attempt a ON a.id = t.attempt_id
                 JOIN seat s ON s.id = a.seat_id JOIN wave w ON w.id = s.wave_id ORDER BY w.slug",
                &[],
                |r| r.get(0),
            )
        })?;
        for slug in slugs {
            let texts = self.read(|sql| texts(sql, &slug))?;
            let sha = crate::formats::record::texts_sha256(&texts);
            out.push((LogKind::Texts, slug, sha));
        }
        Ok(out)
    }

    /// From now on, this ledger's writes append no log entries: for a bundle's ledger, which
    /// takes the entries of its source as they are ([`Ledger::import_log_entries`]).
    pub(crate) fn stop_logging(&mut self) {
        self.logging = false;
    }

    /// Copies log entries, as they are, into this ledger (for reproduction bundles).
    pub(crate) fn import_log_entries(&mut self, entries: &[LogEntryRow]) -> Result<()> {
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

/// The texts of the wave `slug`'s attempts, in attempt order (what its `texts` log entry
/// hashes).
pub(super) fn texts(sql: &mut Sql<'_>, slug: &str) -> Result<Vec<crate::formats::record::Texts>> {
    sql.rows(
        "SELECT s.slug, a.problem, a.trial, t.input, t.target, t.answer, t.explanation
         FROM attempt_text t JOIN attempt a ON a.id = t.attempt_id
         JOIN seat s ON s.id = a.seat_id JOIN wave w ON w.id = s.wave_id
         WHERE w.slug = ?1 ORDER BY a.id",
        &values![slug],
        |r| {
            Ok(crate::formats::record::Texts {
                seat: r.get(0)?,
                problem: r.get(1)?,
                trial: r.unsigned(2, "attempt.trial")?,
                texts: crate::model::AttemptTexts {
                    input: r.get(3)?,
                    target: r.get(4)?,
                    answer: r.get(5)?,
                    explanation: r.get(6)?,
                },
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
