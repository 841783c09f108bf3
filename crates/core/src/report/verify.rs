//! `verify --format json`: what a verification found, as data, and its JSON document. The
//! library's verification (the `verify` module) gathers it (recomputing each publication,
//! checking the chain and the ledger) beside its report for people, and a face prints either;
//! both say the same verdicts.
//!
//! The document (kind `verify`): `ok` (everything checked passed), `entries` (one per
//! publication and withdrawal checked, in chain order, each with its `verdict` — `ok` or
//! `mismatch` — and its `problems`), `publications` (how many reproduce of how many), `notes`
//! (what a bundle's check says besides), `head` (the `--expect-head` check, or null) and
//! `ledger` (the `--ledger` checks in order — schema, waves, tallies, rubrics, prices, scores,
//! chain — or null when not asked for). A publication that is signed, or checked against a
//! trusted key, carries its `signature`; with `--trusted-key`, `signatures` counts those the
//! key signed.

use serde::Serialize;

/// One entry of the chain, checked.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "entry", rename_all = "snake_case")]
pub enum Entry {
    /// A publication, recomputed and compared byte for byte.
    Publication {
        id: i64,
        title: String,
        wave: String,
        rubric: String,
        /// The SHA-256 of the published text.
        output_sha256: String,
        verdict: Verdict,
        problems: Vec<String>,
        /// Its signature, checked: present when it is signed or a trusted key was given.
        #[serde(skip_serializing_if = "Option::is_none")]
        signature: Option<SignatureJson>,
    },
    /// A withdrawal (or supersession) of a wave.
    Withdrawal {
        id: i64,
        wave: String,
        /// The wave that supersedes it, for a supersession.
        superseded_by: Option<String>,
        created_at: String,
        reason: String,
        verdict: Verdict,
        problems: Vec<String>,
    },
}

/// A publication's signature, checked (`verify --trusted-key`; docs/trust.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SignatureJson {
    /// Whether an envelope is kept beside it.
    pub signed: bool,
    /// The key ids its envelope's signatures name.
    pub keyids: Vec<String>,
    /// The id of the trusted key it was checked against, or null when none was given (then
    /// only its statement is held to the stored publication).
    pub trusted_key: Option<String>,
    /// Whether its signature verifies under the trusted key.
    pub signed_by_trusted_key: bool,
    pub verdict: Verdict,
    pub problems: Vec<String>,
}

/// How many publications are signed by the trusted key, of those checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SignedTally {
    pub trusted_key: String,
    pub signed: usize,
    pub total: usize,
}

/// Whether a check passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Ok,
    Mismatch,
}

impl Verdict {
    /// `Ok` when nothing is wrong.
    pub fn of(problems: &[String]) -> Verdict {
        if problems.is_empty() {
            Verdict::Ok
        } else {
            Verdict::Mismatch
        }
    }
}

/// A check with a name (a `--ledger` section, the chain's head): what it found right, or
/// what was wrong.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Check {
    pub check: String,
    pub verdict: Verdict,
    /// What was found right, when it passed.
    pub detail: Option<String>,
    pub problems: Vec<String>,
}

impl Check {
    pub fn new(check: &str, ok: String, problems: Vec<String>) -> Check {
        Check {
            check: check.into(),
            verdict: Verdict::of(&problems),
            detail: problems.is_empty().then_some(ok),
            problems,
        }
    }
}

/// How many publications reproduce, of those checked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub reproduced: usize,
    pub total: usize,
}

/// Everything a verification checked.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Verification {
    /// Everything checked passed.
    pub ok: bool,
    pub entries: Vec<Entry>,
    /// Set when publications were checked.
    pub publications: Option<Tally>,
    /// What a bundle's check says besides its entries.
    pub notes: Vec<String>,
    /// The `--expect-head` check.
    pub head: Option<Check>,
    /// The `--ledger` checks, in order.
    pub ledger: Option<Vec<Check>>,
    /// With `--trusted-key`: how many publications it signed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signatures: Option<SignedTally>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_check_keeps_its_detail_only_when_it_passed() {
        let ok = Check::new("schema", "matches".into(), Vec::new());
        assert_eq!(
            (ok.verdict, ok.detail.as_deref()),
            (Verdict::Ok, Some("matches"))
        );
        let bad = Check::new("schema", "matches".into(), vec!["a trigger dropped".into()]);
        assert_eq!((bad.verdict, bad.detail), (Verdict::Mismatch, None));
        let v = serde_json::to_value(Entry::Withdrawal {
            id: 1,
            wave: "w".into(),
            superseded_by: None,
            created_at: "t".into(),
            reason: "r".into(),
            verdict: Verdict::Ok,
            problems: Vec::new(),
        })
        .unwrap();
        assert_eq!(v["entry"], "withdrawal");
        assert_eq!(v["verdict"], "ok");
    }
}
