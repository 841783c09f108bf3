//! The ledger's references, swept (issue 34, #2): every row that names a row of another table
//! by its id — a seat its wave, a display name its seat, an envelope its publication — must
//! name one that exists. The stores enforce this as rows are written, but an editor of the
//! file (SQLite's shell with `foreign_keys` off, a PostgreSQL session with triggers off) does
//! not: a dangling row then passes every hash, and breaks the next write that reaches for the
//! id it names (a publication's claims row already taken, a planted envelope attached to the
//! next unsigned publication, an origin row on an attempt not yet ingested). One query,
//! written once for both stores.

use super::Ledger;
use crate::error::Result;

/// Every reference the schema declares, as (table, column, the table it refers to); each
/// refers to that table's `id`. `the_sweep_covers_every_reference_the_schema_declares` holds
/// this list to `schema.sql`.
pub(super) const REFERENCES: &[(&str, &str, &str)] = &[
    ("wave", "suite_id", "suite"),
    ("wave_problem", "wave_id", "wave"),
    ("wave_canary", "wave_id", "wave"),
    ("seat", "wave_id", "wave"),
    ("seat_display_name", "seat_id", "seat"),
    ("seat_tally", "seat_id", "seat"),
    ("attempt", "seat_id", "seat"),
    ("attempt_origin", "attempt_id", "attempt"),
    ("attempt_text", "attempt_id", "attempt"),
    ("trace_step", "attempt_id", "attempt"),
    ("score", "rubric_id", "rubric"),
    ("score", "seat_id", "seat"),
    ("publication", "wave_id", "wave"),
    ("publication", "rubric_id", "rubric"),
    ("publication_claims", "publication_id", "publication"),
    ("publication_envelope", "publication_id", "publication"),
    ("withdrawal", "wave_id", "wave"),
    ("withdrawal", "superseded_by", "wave"),
    ("wave_review", "wave_id", "wave"),
];

/// How many dangling ids of one reference are named one by one; the rest are counted.
const NAMED_MAX: usize = 5;

impl Ledger {
    /// Every row naming an id its table does not hold, as "TABLE.COLUMN: N row(s) name
    /// TARGET id(s) I, J that do not exist": nothing when every reference holds.
    pub(crate) fn dangling_references(&self) -> Result<Vec<String>> {
        let mut out = Vec::new();
        for (table, column, target) in REFERENCES {
            let ids: Vec<(i64, i64)> = self.read(|sql| {
                sql.rows(
                    &format!(
                        "SELECT c.{column}, count(*) FROM {table} c
                         WHERE c.{column} IS NOT NULL
                           AND NOT EXISTS (SELECT 1 FROM {target} t WHERE t.id = c.{column})
                         GROUP BY c.{column} ORDER BY c.{column}"
                    ),
                    &[],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
            })?;
            if ids.is_empty() {
                continue;
            }
            let rows: i64 = ids.iter().map(|(_, n)| n).sum();
            let mut named: Vec<String> = ids
                .iter()
                .take(NAMED_MAX)
                .map(|(id, _)| id.to_string())
                .collect();
            if ids.len() > NAMED_MAX {
                named.push(format!("and {} more", ids.len() - NAMED_MAX));
            }
            out.push(format!(
                "{table}.{column}: {rows} row{} name{} {target} id{} {} that {} not exist: \
                 written behind benchledger's back (the next write that reaches for {} would \
                 fail or attach to {})",
                if rows == 1 { "" } else { "s" },
                if rows == 1 { "s" } else { "" },
                if ids.len() == 1 { "" } else { "s" },
                named.join(", "),
                if ids.len() == 1 { "does" } else { "do" },
                if ids.len() == 1 {
                    "that id"
                } else {
                    "those ids"
                },
                if ids.len() == 1 { "it" } else { "them" },
            ));
        }
        Ok(out)
    }
}

impl Ledger {
    /// Seat tallies in a format no benchledger writes, as "wave W, seat S: a stored tally of
    /// format N, ...": a rescore never reads them, so nothing else shows them (issue 34).
    pub(crate) fn tallies_of_unknown_formats(&self) -> Result<Vec<String>> {
        let rows: Vec<(String, String, i64)> = self.read(|sql| {
            sql.rows(
                "SELECT w.slug, s.slug, t.format FROM seat_tally t
                 JOIN seat s ON s.id = t.seat_id JOIN wave w ON w.id = s.wave_id
                 ORDER BY w.slug, s.slug, t.format",
                &[],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
        })?;
        let known = crate::formats::tally::VERSIONS;
        Ok(rows
            .into_iter()
            .filter(|(_, _, f)| !u32::try_from(*f).is_ok_and(|f| known.contains(&f)))
            .map(|(wave, seat, format)| {
                format!(
                    "wave {wave}, seat {seat}: a stored tally of format {format}, which no \
                     benchledger writes (formats {}): it was written behind benchledger's back",
                    known
                        .iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
            .collect())
    }

    /// Declared problems stored for a wave that declares no list of them (its manifest gave a
    /// count, or nothing): its content hash does not cover them, yet they would be read as
    /// its problem list (issue 34).
    pub(crate) fn problems_of_unlisted_waves(&self) -> Result<Vec<String>> {
        let rows: Vec<(String, i64)> = self.read(|sql| {
            sql.rows(
                "SELECT w.slug, count(*) FROM wave_problem p JOIN wave w ON w.id = p.wave_id
                 WHERE NOT w.suite_problems_listed GROUP BY w.slug ORDER BY w.slug",
                &[],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
        })?;
        Ok(rows
            .into_iter()
            .map(|(wave, n)| {
                format!(
                    "wave {wave} declares no problem list, yet {n} declared problem{} {} \
                     stored for it: written behind benchledger's back",
                    if n == 1 { "" } else { "s" },
                    if n == 1 { "is" } else { "are" }
                )
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    /// The sweep's list is every `REFERENCES` of the schema a new ledger has, no more.
    #[test]
    fn the_sweep_covers_every_reference_the_schema_declares() {
        let dir = tempfile::tempdir().unwrap();
        let (ledger, _) = crate::ledger::Ledger::create(&dir.path().join("l.db")).unwrap();
        let conn = ledger.lite().unwrap();
        let tables: Vec<String> = conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        let mut declared = BTreeSet::new();
        for t in &tables {
            let mut stmt = conn
                .prepare("SELECT \"from\", \"table\", \"to\" FROM pragma_foreign_key_list(?1)")
                .unwrap();
            let refs = stmt
                .query_map([t], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                    ))
                })
                .unwrap();
            for r in refs {
                let (from, target, to) = r.unwrap();
                assert_eq!(to, "id", "{t}.{from}");
                declared.insert((t.clone(), from, target));
            }
        }
        let swept: BTreeSet<(String, String, String)> = super::REFERENCES
            .iter()
            .map(|(t, c, p)| (t.to_string(), c.to_string(), p.to_string()))
            .collect();
        assert_eq!(swept, declared);
    }
}
