//! The chain: publications and withdrawals, in one order, each linked to the one before by hash
//! (docs/formats.md, "Chain records"). Withdrawals are appended here; publications in
//! `publications.rs`. Both take the chain's head inside a transaction holding the ledger's write
//! lock ([`Ledger::write`]), so two writers cannot both claim the same predecessor and fork the
//! chain.

use super::Ledger;
use super::sql::{Row, Sql, values};
use crate::error::{Error, Hint, Result};
use crate::model::{
    ChainEntry, LogKind, NewLogEntry, NewWithdrawal, WithdrawalRow, WithdrawalSeal,
};

// Outer joins, so that a withdrawal whose wave row was deleted behind benchledger's back is
// still listed (and fails verification) rather than silently dropped.
pub(super) const SELECT: &str =
    "SELECT d.id, coalesce(w.slug, '(deleted wave row ' || d.wave_id || ')'),
        coalesce(w.content_sha256, ''), b.slug, d.reason, d.created_at,
        d.after_publication, d.prev_sha256, d.record_format, d.sha256
     FROM withdrawal d LEFT JOIN wave w ON w.id = d.wave_id
        LEFT JOIN wave b ON b.id = d.superseded_by";

fn from_row(r: &Row<'_>) -> Result<WithdrawalRow> {
    Ok(WithdrawalRow {
        id: r.get(0)?,
        wave: r.get(1)?,
        wave_content_sha256: r.get(2)?,
        superseded_by: r.get(3)?,
        reason: r.get(4)?,
        created_at: r.get(5)?,
        after_publication: r.get(6)?,
        prev_sha256: r.get(7)?,
        record_format: r.unsigned(8, "withdrawal.record_format")?,
        sha256: r.get(9)?,
    })
}

/// Appends a withdrawal inside a write transaction already open (an ingest's, for a
/// supersession, or `withdraw`'s own), and its entry to the log (unless `logging` is off).
/// `seal` computes the record hash once it is placed.
pub(super) fn append_withdrawal(
    sql: &mut Sql<'_>,
    logging: bool,
    w: &NewWithdrawal,
    seal: &dyn Fn(&WithdrawalSeal<'_>) -> String,
) -> Result<WithdrawalRow> {
    let (wave_id, content): (i64, String) = sql.one(
        "SELECT id, content_sha256 FROM wave WHERE slug = ?1",
        &values![&w.wave],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let superseded_by: Option<i64> = match &w.superseded_by {
        Some(slug) => Some(sql.value("SELECT id FROM wave WHERE slug = ?1", &values![slug])?),
        None => None,
    };
    let id = sql.next_id("withdrawal")?;
    let after: i64 = sql.value("SELECT coalesce(max(id), 0) FROM publication", &[])?;
    let log_prev = super::log::head(sql)?;
    let prev = super::log::record_head(sql)?;
    let sha256 = seal(&WithdrawalSeal {
        id,
        wave_content_sha256: &content,
        after_publication: after,
        prev_sha256: prev.as_deref(),
    });
    let record_format = crate::formats::record::LATEST;
    sql.execute(
        "INSERT INTO withdrawal(id, wave_id, superseded_by, reason, created_at,
            after_publication, prev_sha256, record_format, sha256)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        &values![
            id,
            wave_id,
            superseded_by,
            &w.reason,
            &w.created_at,
            after,
            prev.as_deref(),
            record_format,
            &sha256
        ],
    )?;
    let entry = NewLogEntry {
        kind: LogKind::Withdrawal,
        subject: id.to_string(),
        version: record_format,
        subject_sha256: sha256.clone(),
        created_at: w.created_at.clone(),
    };
    super::log::append(sql, logging, &entry, log_prev)?;
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

impl Ledger {
    /// Withdraws a wave by hand: appends a withdrawal to the chain. Nothing is deleted or
    /// changed. A wave already withdrawn (or superseded) is refused, naming when and why.
    pub fn withdraw(
        &mut self,
        w: &NewWithdrawal,
        seal: &dyn Fn(&WithdrawalSeal<'_>) -> String,
    ) -> Result<WithdrawalRow> {
        self.wave_rowid(&w.wave)?;
        let logging = self.logging();
        self.write(|sql| {
            let earlier: Option<(String, String)> = sql.row(
                "SELECT d.reason, d.created_at FROM withdrawal d JOIN wave w ON w.id = d.wave_id
                 WHERE w.slug = ?1 ORDER BY d.id LIMIT 1",
                &values![&w.wave],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            if let Some((reason, at)) = earlier {
                return Err(already_withdrawn(&w.wave, &reason, &at));
            }
            append_withdrawal(sql, logging, w, seal)
        })
    }

    /// Takes `wave` off the leaderboards for `reason` (`benchledger withdraw`, Python's
    /// `Ledger.withdraw`): a withdrawal sealed at `now` and appended to the chain; nothing is
    /// deleted or changed. Returns its record and the chain's head after it (what a maintainer
    /// keeps outside the ledger for `verify --expect-head`).
    pub fn withdraw_wave(
        &mut self,
        wave: &str,
        reason: &str,
        now: &str,
    ) -> Result<(WithdrawalRow, String)> {
        let reason = reason.trim();
        if reason.is_empty() {
            return Err(Error::Usage(
                "the withdrawal's reason is empty: say why the wave is withdrawn (a wrong budget, \
                 a broken harness, ...); the reason is kept in the chain"
                    .into(),
            ));
        }
        let new = NewWithdrawal {
            wave: wave.to_string(),
            superseded_by: None,
            reason: reason.to_string(),
            created_at: now.to_string(),
        };
        let row = self.withdraw(&new, &|s| crate::chain::seal_withdrawal(&new, s))?;
        let head = self
            .walk()?
            .last()
            .map_or(String::new(), |e| e.sha256().to_string());
        Ok((row, head))
    }

    /// Every withdrawal, by id.
    pub fn withdrawals(&self) -> Result<Vec<WithdrawalRow>> {
        self.read(|sql| sql.rows(&format!("{SELECT} ORDER BY d.id"), &[], from_row))
    }
    /// The whole chain, in order.
    pub fn chain(&self) -> Result<Vec<ChainEntry>> {
        let mut entries: Vec<ChainEntry> = self
            .publications()?
            .into_iter()
            .map(ChainEntry::Publication)
            .chain(self.withdrawals()?.into_iter().map(ChainEntry::Withdrawal))
            .collect();
        entries.sort_by_key(ChainEntry::order);
        Ok(entries)
    }
}

/// The wave that `wave` supersedes, as the chain records it.
fn recorded_supersedes(sql: &mut Sql<'_>, wave: &str) -> Result<Option<String>> {
    sql.row(
        "SELECT o.slug FROM withdrawal d JOIN wave o ON o.id = d.wave_id
         JOIN wave n ON n.id = d.superseded_by WHERE n.slug = ?1 ORDER BY d.id LIMIT 1",
        &values![wave],
        |r| r.get(0),
    )
}

/// The wave that supersedes `old`, if one does.
fn superseded_by(sql: &mut Sql<'_>, old: &str) -> Result<Option<String>> {
    sql.row(
        "SELECT n.slug FROM withdrawal d JOIN wave o ON o.id = d.wave_id
         JOIN wave n ON n.id = d.superseded_by WHERE o.slug = ?1 LIMIT 1",
        &values![old],
        |r| r.get(0),
    )
}

/// A wave already in the ledger, ingested again: the `supersedes` its manifest says now must
/// be the one the chain recorded (a supersession is never added or undone after ingest).
pub(super) fn check_supersedes(sql: &mut Sql<'_>, wave: &str, says: Option<&str>) -> Result<()> {
    let recorded = recorded_supersedes(sql, wave)?;
    if recorded.as_deref() == says {
        return Ok(());
    }
    Err(Error::Conflict(format!(
        "wave `{wave}` is already in the ledger with the same results, but it {} while this \
         manifest {}. A supersession is never added or undone after ingest",
        recorded
            .as_deref()
            .map_or("supersedes no wave".into(), |o| format!("supersedes `{o}`")),
        says.map_or("names none".into(), |o| format!(
            "says `supersedes = \"{o}\"`"
        ))
    ))
    .hinted(Hint::Withdraw))
}

/// Records that the new wave `new` (just written in `tx`) supersedes `old`: a withdrawal of
/// `old` appended to the chain, in the same transaction. `old` must be in the ledger (or
/// written earlier in this transaction) and not already superseded.
pub(super) fn supersede(
    sql: &mut Sql<'_>,
    logging: bool,
    new: &str,
    old: &str,
    now: &str,
) -> Result<()> {
    let exists: bool = sql.value(
        "SELECT EXISTS (SELECT 1 FROM wave WHERE slug = ?1)",
        &values![old],
    )?;
    if !exists {
        return Err(Error::Usage(format!(
            "wave `{new}` says `supersedes = \"{old}\"`, but the ledger has no wave `{old}`: name \
             a wave already ingested"
        ))
        .hinted(Hint::ListWaves));
    }
    if let Some(by) = superseded_by(sql, old)? {
        return Err(Error::Conflict(format!(
            "wave `{new}` says `supersedes = \"{old}\"`, but `{old}` is already superseded by \
             `{by}`: a wave is corrected once; supersede `{by}` instead"
        )));
    }
    let w = NewWithdrawal {
        wave: old.to_string(),
        superseded_by: Some(new.to_string()),
        reason: format!("superseded by wave {new}"),
        created_at: now.to_string(),
    };
    append_withdrawal(sql, logging, &w, &|s| crate::chain::seal_withdrawal(&w, s))?;
    Ok(())
}

/// A wave withdrawn twice: refused, naming when and why it was withdrawn.
pub(super) fn already_withdrawn(wave: &str, reason: &str, at: &str) -> Error {
    Error::Usage(format!(
        "wave `{wave}` was already withdrawn on {at} ({reason}); a withdrawal is never repeated \
         or undone"
    ))
}
