//! The chain, checked: the publications and withdrawals, each linked to the one before it, and
//! the log that follows them (schema migration 11), an entry for every write that adds a fact,
//! each linked to the entry before it. Each entry's link, each record hash, each log entry
//! against the rows it names, and where the chain ends. Editing an entry breaks its own record
//! hash; removing one from the middle breaks the next entry's link; removing the last, or
//! rewriting the chain from some point on, moves its head — which only a head kept outside the
//! ledger (`publications --head`, then `verify --expect-head`) can show. Deleting or rewriting a
//! row the log names contradicts its entry.
//!
//! Pure: entries in, problems out. The publications' own reproduction is checked in
//! [`crate::publication`].

use std::collections::HashMap;

use crate::digest::short;
use crate::formats::{FormatError, record};
use crate::model::{
    ChainEntry, LogEntryRow, LogKind, NewWithdrawal, PriceTableRow, RubricRow, RulesRow, WaveRow,
    WithdrawalRow, WithdrawalSeal,
};

/// A new withdrawal's record hash in the latest record format, once the ledger has placed it
/// in the chain.
pub(crate) fn seal_withdrawal(new: &NewWithdrawal, s: &WithdrawalSeal<'_>) -> String {
    record::withdrawal_sha256(
        record::LATEST,
        &record::Withdrawal {
            id: s.id,
            wave: &new.wave,
            wave_content_sha256: s.wave_content_sha256,
            superseded_by: new.superseded_by.as_deref(),
            reason: &new.reason,
            created_at: &new.created_at,
            after_publication: s.after_publication,
            prev_sha256: s.prev_sha256,
        },
    )
    .expect("this build writes its own latest record format")
}

/// What is wrong with an entry's link to the entry before it, if anything. `prev` is the
/// entry before it in the chain's order; `partial` says the entries before this one may lie
/// elsewhere (a bundle holds one publication of a longer chain).
pub(crate) fn link_problem(
    entry: &ChainEntry,
    prev: Option<&ChainEntry>,
    partial: bool,
) -> Option<String> {
    match (prev, entry.prev_sha256()) {
        (Some(p), Some(link)) if link == p.sha256() => None,
        (Some(p), link) => Some(format!(
            "the chain is broken: it names predecessor {} but the entry before it, {}, hashes \
             to {}",
            link.map_or("(none)", short),
            p.label(),
            short(p.sha256())
        )),
        (None, Some(link)) if !partial => Some(format!(
            "the chain is broken: it names predecessor {} but no earlier entry exists",
            short(link)
        )),
        (None, _) => None,
    }
}

/// What is wrong with a withdrawal's own record, if anything: its fields (and the withdrawn
/// wave's content hash, as stored now) must hash to its stored hash.
pub(crate) fn withdrawal_problems(w: &WithdrawalRow) -> Vec<String> {
    let fields = record::Withdrawal {
        id: w.id,
        wave: &w.wave,
        wave_content_sha256: &w.wave_content_sha256,
        superseded_by: w.superseded_by.as_deref(),
        reason: &w.reason,
        created_at: &w.created_at,
        after_publication: w.after_publication,
        prev_sha256: w.prev_sha256.as_deref(),
    };
    match record::withdrawal_sha256(w.record_format, &fields) {
        Ok(sha) if sha == w.sha256 => Vec::new(),
        Ok(_) => vec![
            "the withdrawal record was edited (or its wave's content hash was): its fields no \
             longer hash to its sha256"
                .into(),
        ],
        Err(e) => vec![format!("its record cannot be checked: {e}")],
    }
}

/// Every broken link in the chain, by entry label. In a part of a chain (`partial`: a bundle's),
/// the first entry's predecessor lies outside it.
pub fn broken_links(chain: &[ChainEntry], partial: bool) -> Vec<(String, String)> {
    chain
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let prev = i.checked_sub(1).map(|j| &chain[j]);
            link_problem(e, prev, partial && i == 0).map(|p| (e.label(), p))
        })
        .collect()
}

/// The chain's head: its last entry's record hash.
pub fn head(chain: &[ChainEntry]) -> Option<&ChainEntry> {
    chain.last()
}

/// The hash of a log entry's fields in log entry format `format`.
pub(crate) fn entry_sha256(format: u32, e: &LogEntryRow) -> Result<String, FormatError> {
    record::log_entry_sha256(
        format,
        &record::LogEntry {
            kind: e.kind.name(),
            seq: e.seq,
            subject: &e.subject,
            version: e.version,
            subject_sha256: &e.subject_sha256,
            created_at: &e.created_at,
            prev_sha256: e.prev_sha256.as_deref(),
        },
    )
}

/// The whole chain as it is walked to its head: the publications and withdrawals no log entry
/// names (those made before the log began), in their order, then the log. A publication or
/// withdrawal the log names is walked through its entry (its own link, to the publication or
/// withdrawal before it, is checked in `records`' order: [`broken_links`]).
pub fn walk(records: &[ChainEntry], log: &[LogEntryRow]) -> Vec<ChainEntry> {
    let named: std::collections::HashSet<(LogKind, &str)> =
        log.iter().map(|e| (e.kind, e.subject.as_str())).collect();
    let logged = |kind: LogKind, id: i64| named.contains(&(kind, id.to_string().as_str()));
    let mut out: Vec<ChainEntry> = records
        .iter()
        .filter(|r| match r {
            ChainEntry::Publication(p) => !logged(LogKind::Publication, p.id),
            ChainEntry::Withdrawal(w) => !logged(LogKind::Withdrawal, w.id),
            ChainEntry::Logged(_) => false,
        })
        .cloned()
        .collect();
    out.extend(log.iter().cloned().map(ChainEntry::Logged));
    out
}

/// Every broken link of the log in `walk` (as [`walk`] gives it), by entry label. In a bundle
/// (`partial`), which holds a few entries of a longer chain, only the link between two entries
/// that follow each other in the log is checked.
pub(crate) fn log_links(walk: &[ChainEntry], partial: bool) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, e) in walk.iter().enumerate() {
        let ChainEntry::Logged(entry) = e else {
            continue;
        };
        let prev = i.checked_sub(1).map(|j| &walk[j]);
        if partial {
            match prev {
                Some(ChainEntry::Logged(p)) if p.seq + 1 == entry.seq => {}
                _ => continue,
            }
        }
        if let Some(p) = link_problem(e, prev, false) {
            out.push((e.label(), p));
        }
    }
    out
}

/// The rows a log entry may name, as the ledger holds them now.
#[derive(Debug, Clone, Copy)]
pub struct Named<'a> {
    pub waves: &'a [WaveRow],
    pub rubrics: &'a [RubricRow],
    pub price_tables: &'a [PriceTableRow],
    /// The registered submission rules.
    pub rules: &'a [RulesRow],
    /// The publications and withdrawals.
    pub records: &'a [ChainEntry],
    /// The rows of the kinds whose entries record version 1 and no time of their own: a
    /// publication's signed statement, a seat's display name ([`Ledger::logged_contents`](crate::ledger::Ledger)).
    pub contents: &'a [LoggedContent],
}

/// A row a signature or display name entry names, as the ledger holds it now: the entry's
/// kind, its subject (the publication's id, in decimal; "WAVE/SEAT") and the SHA-256 of its
/// content (the envelope's text; the name).
pub type LoggedContent = (LogKind, String, String);

/// A name a log entry gives a row: its kind, its subject, and the version of a registered text.
type Name = (LogKind, String, Option<u32>);

/// What the ledger holds under a name: the row's hash, its version, when it was written (if
/// the row says).
type Held<'a> = (&'a str, u32, Option<&'a str>);

/// What the ledger holds under each name a log entry can give, built once from [`Named`].
pub struct Index<'a>(HashMap<Name, Held<'a>>);

impl<'a> Named<'a> {
    /// The rows by the names log entries give them.
    pub fn index(&self) -> Index<'a> {
        let mut map = HashMap::new();
        for w in self.waves {
            map.insert(
                (LogKind::Ingest, w.wave.id.clone(), None),
                (
                    w.content.sha256.as_str(),
                    w.content.format,
                    Some(w.ingested_at.as_str()),
                ),
            );
        }
        for r in self.rubrics {
            map.insert(
                (LogKind::Rubric, r.name.clone(), Some(r.version)),
                (r.sha256.as_str(), r.version, Some(r.added_at.as_str())),
            );
        }
        for t in self.price_tables {
            map.insert(
                (LogKind::PriceTable, t.name.clone(), Some(t.version)),
                (t.sha256.as_str(), t.version, Some(t.added_at.as_str())),
            );
        }
        for r in self.rules {
            map.insert(
                (LogKind::Rules, r.name.clone(), Some(r.version)),
                (r.sha256.as_str(), r.version, Some(r.added_at.as_str())),
            );
        }
        for r in self.records {
            let (key, row) = match r {
                ChainEntry::Publication(p) => (
                    (LogKind::Publication, p.id.to_string(), None),
                    (
                        p.sha256.as_str(),
                        p.record_format,
                        Some(p.created_at.as_str()),
                    ),
                ),
                ChainEntry::Withdrawal(w) => (
                    (LogKind::Withdrawal, w.id.to_string(), None),
                    (
                        w.sha256.as_str(),
                        w.record_format,
                        Some(w.created_at.as_str()),
                    ),
                ),
                ChainEntry::Logged(_) => continue,
            };
            map.insert(key, row);
        }
        for (kind, subject, sha) in self.contents {
            map.insert((*kind, subject.clone(), None), (sha.as_str(), 1, None));
        }
        Index(map)
    }
}

/// What is wrong with a log entry: its own hash, and the row it names, which must be in the
/// ledger with the hash the entry recorded (a wave's content hash and format; a registered
/// text's SHA-256; a publication's or withdrawal's record hash and format; a signed
/// statement's SHA-256) and the time, where the row keeps one.
pub(crate) fn entry_problems(e: &LogEntryRow, named: &Index<'_>) -> Vec<String> {
    let mut out = Vec::new();
    match entry_sha256(e.record_format, e) {
        Ok(sha) if sha == e.sha256 => {}
        Ok(_) => out
            .push("the log entry was edited: its fields no longer hash to its sha256".to_string()),
        Err(err) => out.push(format!("its record cannot be checked: {err}")),
    }
    let version = matches!(
        e.kind,
        LogKind::Rubric | LogKind::PriceTable | LogKind::Rules
    )
    .then_some(e.version);
    let now = named.0.get(&(e.kind, e.subject.clone(), version)).copied();
    let what = e.subject_label();
    let (hash_name, version_name, deleted) = match e.kind {
        LogKind::Ingest => (
            "content hash",
            "content format",
            "its rows were deleted behind benchledger's back",
        ),
        LogKind::Rubric | LogKind::PriceTable | LogKind::Rules => (
            "text sha256",
            "version",
            "its row was deleted behind benchledger's back",
        ),
        LogKind::Publication | LogKind::Withdrawal => (
            "record hash",
            "record format",
            "its row was deleted behind benchledger's back",
        ),
        LogKind::Signature => (
            "envelope sha256",
            "version",
            "its envelope was deleted behind benchledger's back",
        ),
        LogKind::DisplayName => (
            "name sha256",
            "version",
            "its row was deleted behind benchledger's back",
        ),
        LogKind::Origins => (
            "origins sha256",
            "version",
            "its rows were deleted behind benchledger's back",
        ),
        LogKind::Texts => (
            "texts sha256",
            "version",
            "its rows were deleted behind benchledger's back",
        ),
        LogKind::Review => (
            "record sha256",
            "version",
            "its row was deleted behind benchledger's back",
        ),
    };
    match now {
        None => out.push(format!(
            "{what} is not in the ledger, though the log recorded it on {} ({hash_name} {}): \
             {deleted}",
            e.created_at,
            short(&e.subject_sha256)
        )),
        Some((sha, version, _)) if sha != e.subject_sha256 || version != e.version => {
            out.push(format!(
                "{what} is in the ledger with {hash_name} {} ({version_name} {version}), but the \
                 log recorded {} ({version_name} {}) on {}: it was rewritten behind \
                 benchledger's back",
                short(sha),
                short(&e.subject_sha256),
                e.version,
                e.created_at
            ))
        }
        Some((_, _, Some(at))) if at != e.created_at => out.push(format!(
            "{what} is in the ledger as written on {at}, but the log recorded it on {}: its time \
             was rewritten behind benchledger's back",
            e.created_at
        )),
        Some(_) => {}
    }
    out
}

/// Whether the chain ends exactly at `expected`; otherwise what happened, as far as the chain
/// shows it.
pub(crate) fn head_problem(chain: &[ChainEntry], expected: &str) -> Option<String> {
    let Some(last) = head(chain) else {
        return Some(format!(
            "the chain is empty, but it was expected to end at {expected}: every publication, \
             withdrawal and log entry was removed"
        ));
    };
    if last.sha256() == expected {
        return None;
    }
    match chain.iter().position(|e| e.sha256() == expected) {
        Some(i) => Some(format!(
            "the chain ends at {} ({}), not at the expected {} ({}): {} entr{} came after it. \
             If they are legitimate, keep the new head instead",
            last.sha256(),
            last.label(),
            expected,
            chain[i].label(),
            chain.len() - 1 - i,
            if chain.len() - 1 - i == 1 { "y" } else { "ies" }
        )),
        None => Some(format!(
            "the chain ends at {} ({}), and the expected head {} is nowhere in it: entries were \
             removed or rewritten, or this is another ledger",
            last.sha256(),
            last.label(),
            expected
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn withdrawal(id: i64, after: i64, prev: Option<&str>) -> WithdrawalRow {
        let mut w = WithdrawalRow {
            id,
            wave: "w".into(),
            wave_content_sha256: "c".repeat(64),
            superseded_by: None,
            reason: "broken harness".into(),
            created_at: "2026-11-30T00:00:00Z".into(),
            after_publication: after,
            prev_sha256: prev.map(str::to_string),
            record_format: 1,
            sha256: String::new(),
        };
        w.sha256 = record::withdrawal_sha256(
            1,
            &record::Withdrawal {
                id,
                wave: &w.wave,
                wave_content_sha256: &w.wave_content_sha256,
                superseded_by: None,
                reason: &w.reason,
                created_at: &w.created_at,
                after_publication: after,
                prev_sha256: prev,
            },
        )
        .unwrap();
        w
    }

    #[test]
    fn links_heads_and_records_are_checked() {
        let a = withdrawal(1, 0, None);
        let b = withdrawal(2, 0, Some(&a.sha256));
        let chain = vec![
            ChainEntry::Withdrawal(a.clone()),
            ChainEntry::Withdrawal(b.clone()),
        ];
        assert!(broken_links(&chain, false).is_empty());
        assert!(withdrawal_problems(&a).is_empty());
        assert_eq!(head_problem(&chain, &b.sha256), None);
        let grown = head_problem(&chain, &a.sha256).unwrap();
        assert!(grown.contains("1 entry came after it"), "{grown}");
        let gone = head_problem(&chain, &"f".repeat(64)).unwrap();
        assert!(gone.contains("nowhere in it"), "{gone}");
        assert!(head_problem(&[], &a.sha256).unwrap().contains("empty"));

        // The first removed: the second names a predecessor that does not exist.
        let cut = vec![ChainEntry::Withdrawal(b.clone())];
        assert_eq!(broken_links(&cut, false).len(), 1);
        assert!(broken_links(&cut, true).is_empty());
        assert!(link_problem(&cut[0], None, true).is_none());

        let mut edited = a.clone();
        edited.reason = "nothing wrong".into();
        assert_eq!(withdrawal_problems(&edited).len(), 1);
    }

    fn entry(seq: i64, kind: LogKind, subject: &str, sha: &str, prev: Option<&str>) -> LogEntryRow {
        let mut e = LogEntryRow {
            seq,
            kind,
            subject: subject.into(),
            version: 1,
            subject_sha256: sha.into(),
            created_at: "2026-11-30T00:00:00Z".into(),
            prev_sha256: prev.map(str::to_string),
            record_format: 1,
            sha256: String::new(),
        };
        e.sha256 = entry_sha256(1, &e).unwrap();
        e
    }

    fn rubric(sha: &str) -> RubricRow {
        RubricRow {
            name: "r".into(),
            version: 1,
            sha256: sha.into(),
            text: String::new(),
            scale_violation: false,
            added_at: "2026-11-30T00:00:00Z".into(),
        }
    }

    /// The log follows the withdrawals it does not name, links to the head before it, and each
    /// entry is checked against the row it names: gone, rewritten, or written at another time.
    #[test]
    fn the_log_follows_the_records_and_names_its_rows() {
        let w = withdrawal(1, 0, None);
        let a = entry(1, LogKind::Rubric, "r", &"a".repeat(64), Some(&w.sha256));
        let b = entry(
            2,
            LogKind::Withdrawal,
            "2",
            &"b".repeat(64),
            Some(&a.sha256),
        );
        let records = vec![ChainEntry::Withdrawal(w.clone())];
        let walked = walk(&records, &[a.clone(), b.clone()]);
        assert_eq!(walked.len(), 3);
        assert!(log_links(&walked, false).is_empty());
        assert_eq!(head(&walked).unwrap().sha256(), b.sha256);

        // A withdrawal the log names is walked through its entry.
        let named_w = entry(2, LogKind::Withdrawal, "1", &w.sha256, Some(&a.sha256));
        assert_eq!(walk(&records, &[named_w]).len(), 1);

        // The first entry removed: the second's link names what is gone; in a bundle, where
        // the entries before lie outside, that is not a problem.
        let cut = walk(&records, std::slice::from_ref(&b));
        assert_eq!(log_links(&cut, false).len(), 1);
        assert!(log_links(&cut, true).is_empty());

        let rubrics = [rubric(&"a".repeat(64))];
        let named = Named {
            waves: &[],
            rubrics: &rubrics,
            price_tables: &[],
            rules: &[],
            records: &records,
            contents: &[],
        };
        assert!(entry_problems(&a, &named.index()).is_empty());
        let rewritten = [rubric(&"c".repeat(64))];
        let problems = entry_problems(
            &a,
            &Named {
                rubrics: &rewritten,
                ..named
            }
            .index(),
        );
        assert!(problems[0].contains("rewritten behind"), "{problems:?}");
        let gone = entry_problems(
            &a,
            &Named {
                rubrics: &[],
                ..named
            }
            .index(),
        );
        assert!(gone[0].contains("is not in the ledger"), "{gone:?}");
        let mut later = rubric(&"a".repeat(64));
        later.added_at = "2027-01-01T00:00:00Z".into();
        let moved = entry_problems(
            &a,
            &Named {
                rubrics: std::slice::from_ref(&later),
                ..named
            }
            .index(),
        );
        assert!(moved[0].contains("its time was rewritten"), "{moved:?}");
        // The withdrawal entry names a withdrawal #2 the ledger does not hold.
        assert!(
            entry_problems(&b, &named.index())[0].contains("withdrawal #2 is not in the ledger")
        );
        let mut edited = a.clone();
        edited.created_at = "2020-01-01T00:00:00Z".into();
        assert!(
            entry_problems(&edited, &named.index())
                .iter()
                .any(|p| p.contains("the log entry was edited"))
        );
    }
}
