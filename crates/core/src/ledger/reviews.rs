//! Submission rules and reviews (schema migration 13; docs/review.md): rules registered as
//! `name@version` with their SHA-256 and verbatim text, frozen like rubrics and price tables
//! (`rules add`), and the review recorded with each wave it let in (`review --ingest`), in the
//! ingest's own transaction, with the rules it ran under registered beside it. Both are logged:
//! a `rules` entry per registration, a `review` entry per review recorded, naming the SHA-256
//! of the review's record (`formats::record::review_sha256`).

use super::Ledger;
use super::registered::{Registered, register_in};
use super::sql::{Row, Sql, Value, values};
use crate::error::{Error, Result};
use crate::model::{LogKind, NewLogEntry, RulesRow, WaveReviewRow};

const RULES_COLUMNS: &str = "name, version, sha256, text, added_at";

fn rules_from_row(r: &Row<'_>) -> Result<RulesRow> {
    Ok(RulesRow {
        name: r.get(0)?,
        version: r.unsigned(1, "submission_rules.version")?,
        sha256: r.get(2)?,
        text: r.get(3)?,
        added_at: r.get(4)?,
    })
}

const REVIEW_SELECT: &str = "SELECT w.slug, r.rules_name, r.rules_version, r.rules_sha256, \
     r.verdict, r.findings, r.findings_sha256, r.reviewed_at \
     FROM wave_review r JOIN wave w ON w.id = r.wave_id";

fn review_from_row(r: &Row<'_>) -> Result<WaveReviewRow> {
    Ok(WaveReviewRow {
        wave: r.get(0)?,
        rules_name: r.get(1)?,
        rules_version: r.unsigned(2, "wave_review.rules_version")?,
        rules_sha256: r.get(3)?,
        verdict: r.get(4)?,
        findings: r.get(5)?,
        findings_sha256: r.get(6)?,
        reviewed_at: r.get(7)?,
    })
}

impl Ledger {
    /// Registers submission rules in one transaction: all of them, or (on any conflict) none.
    /// Returns, for each, whether it was added (`false`: the same name@version with the same
    /// text was registered already). The same name@version with other text is refused.
    pub fn add_rules(&mut self, rows: &[RulesRow]) -> Result<Vec<bool>> {
        self.register(rows)
    }

    /// The registered submission rules `name@version`, if there are.
    pub fn rules_row(&self, name: &str, version: u32) -> Result<Option<RulesRow>> {
        self.read(|sql| {
            sql.row(
                &format!(
                    "SELECT {RULES_COLUMNS} FROM submission_rules WHERE name = ?1 AND version = ?2"
                ),
                &values![name, version],
                rules_from_row,
            )
        })
    }

    /// Every registered set of submission rules, by name then version.
    pub(crate) fn rules_rows(&self) -> Result<Vec<RulesRow>> {
        self.read(|sql| {
            sql.rows(
                &format!("SELECT {RULES_COLUMNS} FROM submission_rules ORDER BY name, version"),
                &[],
                rules_from_row,
            )
        })
    }

    /// Every review recorded, by wave then in the order they were recorded.
    pub fn reviews(&self) -> Result<Vec<WaveReviewRow>> {
        self.read(|sql| {
            sql.rows(
                &format!("{REVIEW_SELECT} ORDER BY w.slug, r.id"),
                &[],
                review_from_row,
            )
        })
    }

    /// The reviews recorded with the wave `slug`, in the order they were recorded.
    pub(crate) fn wave_reviews(&self, slug: &str) -> Result<Vec<WaveReviewRow>> {
        self.read(|sql| {
            sql.rows(
                &format!("{REVIEW_SELECT} WHERE w.slug = ?1 ORDER BY r.id"),
                &values![slug],
                review_from_row,
            )
        })
    }
}

/// Records `review` inside the ingest's write transaction: registers its `rules` (a conflict
/// with registered text of the same name@version fails the whole ingest), then adds the review
/// and its log entry. Returns whether it was added: a wave that already holds a review under
/// the same rules text keeps that one.
pub(super) fn record(
    sql: &mut Sql<'_>,
    logging: bool,
    review: &WaveReviewRow,
    rules: &RulesRow,
) -> Result<bool> {
    let path = sql.path().to_path_buf();
    let findings = crate::digest::sha256_hex(review.findings.as_bytes());
    if rules.sha256 != review.rules_sha256
        || rules.name != review.rules_name
        || rules.version != review.rules_version
        || findings != review.findings_sha256
    {
        return Err(Error::Ledger {
            path,
            message: format!(
                "the review of wave {} does not match the rules or findings it names; nothing \
                 was written",
                review.wave
            ),
        });
    }
    register_in(sql, logging, rules)?;
    let wave_id: Option<i64> = sql.row(
        "SELECT id FROM wave WHERE slug = ?1",
        &values![&review.wave],
        |r| r.get(0),
    )?;
    let Some(wave_id) = wave_id else {
        return Err(Error::Ledger {
            path,
            message: format!(
                "a review names wave {}, which this ingest did not add and the ledger does not \
                 hold; nothing was written",
                review.wave
            ),
        });
    };
    let there: Option<i64> = sql.row(
        "SELECT id FROM wave_review WHERE wave_id = ?1 AND rules_sha256 = ?2",
        &values![wave_id, &review.rules_sha256],
        |r| r.get(0),
    )?;
    if there.is_some() {
        return Ok(false);
    }
    let id = sql.next_id("wave_review")?;
    sql.execute(
        "INSERT INTO wave_review(id, wave_id, rules_name, rules_version, rules_sha256, verdict, \
         findings, findings_sha256, reviewed_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        &values![
            id,
            wave_id,
            &review.rules_name,
            review.rules_version,
            &review.rules_sha256,
            &review.verdict,
            &review.findings,
            &review.findings_sha256,
            &review.reviewed_at
        ],
    )?;
    let entry = NewLogEntry {
        kind: LogKind::Review,
        subject: review.subject(),
        version: 1,
        subject_sha256: crate::formats::record::review_sha256(review),
        created_at: review.reviewed_at.clone(),
    };
    super::log::append_at_head(sql, logging, &entry)?;
    Ok(true)
}

impl Registered for RulesRow {
    const TABLE: &'static str = "submission_rules";
    const COLUMNS: &'static str = RULES_COLUMNS;
    const KIND: LogKind = LogKind::Rules;
    const WHAT: &'static str = "submission rules ";
    fn name(&self) -> &str {
        &self.name
    }
    fn version(&self) -> u32 {
        self.version
    }
    fn sha256(&self) -> &str {
        &self.sha256
    }
    fn added_at(&self) -> &str {
        &self.added_at
    }
    fn values(&self) -> Vec<Value<'_>> {
        values![
            &self.name,
            self.version,
            &self.sha256,
            &self.text,
            &self.added_at
        ]
        .to_vec()
    }
}
