//! Publications: frozen leaderboards, chained by hash (with the withdrawals: see `chain.rs`).
//! The schema's triggers refuse any UPDATE or DELETE; the chain is extended in one IMMEDIATE
//! transaction so two publishers cannot both claim the same predecessor. The claims file a
//! publication carries is kept beside it (`publication_claims`), written in the same
//! transaction; so is its signed statement (`publication_envelope`, a DSSE envelope), when it
//! is signed as it is published, or later.

use super::Ledger;
use super::sql::{Row, Sql, values};
use crate::error::{Error, Hint, Result};
use crate::model::{LogKind, NewLogEntry, PublicationRow, StoredClaims};

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
    /// The claims file the published text carries, its text as the claims section quotes it.
    pub claims: Option<String>,
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

fn from_row(r: &Row<'_>) -> Result<PublicationRow> {
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
        input_format: r.unsigned(12, "publication.input_format")?,
        record_format: r.unsigned(13, "publication.record_format")?,
    })
}

/// Writes one publication row (its `rubric` name is not stored: it comes from the rubric row).
fn insert(sql: &mut Sql<'_>, wave_id: i64, rubric_id: i64, p: &PublicationRow) -> Result<()> {
    sql.execute(
        "INSERT INTO publication(id, wave_id, rubric_id, rubric_sha256, title, created_at,
            input, input_sha256, output, output_sha256, prev_sha256, sha256, input_format,
            record_format)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
        &values![
            p.id,
            wave_id,
            rubric_id,
            &p.rubric_sha256,
            &p.title,
            &p.created_at,
            &p.input,
            &p.input_sha256,
            &p.output,
            &p.output_sha256,
            p.prev_sha256.as_deref(),
            &p.sha256,
            p.input_format,
            p.record_format
        ],
    )
    .map(|_| ())
}

/// Writes what a publication's claims row says: nothing for one made before the ledger kept
/// them (a bundle of it carries none either), else the claims text or NULL.
fn insert_claims(sql: &mut Sql<'_>, id: i64, claims: &StoredClaims) -> Result<()> {
    let text = match claims {
        StoredClaims::Unrecorded => return Ok(()),
        StoredClaims::None => None,
        StoredClaims::Text(t) => Some(t.as_str()),
    };
    sql.execute(
        "INSERT INTO publication_claims(publication_id, text) VALUES (?1, ?2)",
        &values![id, text],
    )
    .map(|_| ())
}

/// Writes a publication's signed statement (a DSSE envelope's JSON text) and, when the
/// ledger logs, its `signature` entry, at `at`, linked to the chain's head as it then is.
fn insert_envelope(
    sql: &mut Sql<'_>,
    logging: bool,
    id: i64,
    envelope: &str,
    at: &str,
) -> Result<()> {
    sql.execute(
        "INSERT INTO publication_envelope(publication_id, envelope) VALUES (?1, ?2)",
        &values![id, envelope],
    )?;
    let entry = NewLogEntry {
        kind: LogKind::Signature,
        subject: id.to_string(),
        version: 1,
        subject_sha256: crate::digest::sha256_hex(envelope.as_bytes()),
        created_at: at.to_string(),
    };
    super::log::append_at_head(sql, logging, &entry)
}

/// Makes a publication's signed statement from the row the ledger is about to append (its id
/// and record hash known): the envelope's JSON text.
pub type MakeEnvelope<'a> = &'a dyn Fn(&PublicationRow) -> String;

impl Ledger {
    /// Appends a publication to the chain. `seal` computes the record's hash from its id and
    /// its predecessor's hash; `envelope`, when given, signs the row so made, and its envelope
    /// is kept beside it in the same transaction.
    pub(crate) fn add_publication(
        &mut self,
        p: &NewPublication,
        seal: impl Fn(i64, Option<&str>) -> String,
        envelope: Option<MakeEnvelope<'_>>,
    ) -> Result<PublicationRow> {
        let wave_id = self.wave_rowid(&p.wave)?;
        let rubric_id = self.rubric_rowid(&p.rubric_sha256)?;
        let logging = self.logging();
        let id = self.write(|sql| {
            let id = sql.next_id("publication")?;
            let log_prev = super::log::head(sql)?;
            let prev = super::log::record_head(sql)?;
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
            insert(sql, wave_id, rubric_id, &row)?;
            let claims = match &p.claims {
                Some(text) => StoredClaims::Text(text.clone()),
                None => StoredClaims::None,
            };
            insert_claims(sql, id, &claims)?;
            let entry = NewLogEntry {
                kind: LogKind::Publication,
                subject: id.to_string(),
                version: row.record_format,
                subject_sha256: row.sha256.clone(),
                created_at: row.created_at.clone(),
            };
            super::log::append(sql, logging, &entry, log_prev)?;
            if let Some(sign) = envelope {
                insert_envelope(sql, logging, id, &sign(&row), &row.created_at)?;
            }
            Ok(id)
        })?;
        self.publication(id)
    }

    /// Keeps a signed statement beside publication `id`, made by `envelope` from its row as
    /// stored, at `at` (the time its log entry records); refused when it already has one (a
    /// publication carries one signature, frozen).
    pub fn sign_publication(
        &mut self,
        id: i64,
        envelope: MakeEnvelope<'_>,
        at: &str,
    ) -> Result<()> {
        let row = self.publication(id)?;
        let path = self.path.clone();
        let logging = self.logging();
        self.write(|sql| {
            let signed: Option<i64> = sql.row(
                "SELECT publication_id FROM publication_envelope WHERE publication_id = ?1",
                &values![id],
                |r| r.get(0),
            )?;
            if signed.is_some() {
                return Err(Error::Usage(format!(
                    "publication #{id} in {} is signed already: a publication carries one \
                     signature, frozen with it (`benchledger verify {id} --trusted-key PUB` \
                     checks it)",
                    path.display()
                )));
            }
            insert_envelope(sql, logging, id, &envelope(&row), at)
        })
    }

    /// The signed statement kept beside publication `id` (a DSSE envelope's JSON text), if it
    /// is signed.
    pub fn publication_envelope(&self, id: i64) -> Result<Option<String>> {
        self.read(|sql| {
            sql.row(
                "SELECT envelope FROM publication_envelope WHERE publication_id = ?1",
                &values![id],
                |r| r.get(0),
            )
        })
    }

    /// Copies a publication, as is, into this ledger (for reproduction bundles), with the
    /// claims its ledger keeps beside it ([`Ledger::publication_claims`]) and its signed
    /// statement, if any ([`Ledger::publication_envelope`]). Its wave and rubric must already
    /// be here.
    pub(crate) fn import_publication(
        &mut self,
        p: &PublicationRow,
        claims: &StoredClaims,
        envelope: Option<&str>,
    ) -> Result<()> {
        let wave_id = self.wave_rowid(&p.wave)?;
        let rubric_id = self.rubric_rowid(&p.rubric_sha256)?;
        let logging = self.logging();
        self.write(|sql| {
            insert(sql, wave_id, rubric_id, p)?;
            insert_claims(sql, p.id, claims)?;
            match envelope {
                Some(text) => insert_envelope(sql, logging, p.id, text, &p.created_at),
                None => Ok(()),
            }
        })
    }

    /// The claims file publication `id` carries, as kept beside it;
    /// [`StoredClaims::Unrecorded`] for a publication made before the ledger kept them.
    pub fn publication_claims(&self, id: i64) -> Result<StoredClaims> {
        let row: Option<Option<String>> = self.read(|sql| {
            sql.row(
                "SELECT text FROM publication_claims WHERE publication_id = ?1",
                &values![id],
                |r| r.get(0),
            )
        })?;
        Ok(match row {
            None => StoredClaims::Unrecorded,
            Some(None) => StoredClaims::None,
            Some(Some(text)) => StoredClaims::Text(text),
        })
    }

    /// Every publication, oldest first.
    pub fn publications(&self) -> Result<Vec<PublicationRow>> {
        self.read(|sql| sql.rows(&format!("{SELECT} ORDER BY p.id"), &[], from_row))
    }

    pub fn publication(&self, id: i64) -> Result<PublicationRow> {
        self.publication_if_any(id)?.ok_or_else(|| {
            Error::Usage(format!("no publication {id} in {}", self.path.display()))
                .hinted(Hint::ListPublications)
        })
    }

    fn publication_if_any(&self, id: i64) -> Result<Option<PublicationRow>> {
        self.read(|sql| sql.row(&format!("{SELECT} WHERE p.id = ?1"), &values![id], from_row))
    }

    /// The rubric row a publication refers to, read without trusting its stored hash.
    pub(crate) fn publication_rubric(&self, id: i64) -> Result<super::RubricRow> {
        self.read(|sql| {
            sql.found(
                "SELECT r.name, r.version, r.sha256, r.text, r.scale_violation, r.added_at
                 FROM publication p JOIN rubric r ON r.id = p.rubric_id WHERE p.id = ?1",
                &values![id],
                super::rubrics::from_row,
                ("publication (or its rubric)", id),
            )
        })
    }

    /// The ingest time recorded for a wave (copied into bundles as is).
    pub(crate) fn wave_ingested_at(&self, slug: &str) -> Result<String> {
        let rowid = self.wave_rowid(slug)?;
        self.read(|sql| {
            sql.found(
                "SELECT ingested_at FROM wave WHERE id = ?1",
                &values![rowid],
                |r| r.get(0),
                ("wave", rowid),
            )
        })
    }
}
