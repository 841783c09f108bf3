//! How a withdrawn wave is marked wherever a listing shows it (`waves`, `show`, and the
//! listings that leave it out unless told `--include-withdrawn`): a line under the table, and a
//! `withdrawn` list in the JSON.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Note, Table};
use crate::error::{Error, Hint, Result};
use crate::ledger::Ledger;
use crate::model::WithdrawalRow;

/// A withdrawal, as JSON shows it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct WithdrawnJson {
    pub wave: String,
    pub reason: String,
    pub created_at: String,
    /// The wave that supersedes it, when it was superseded.
    pub superseded_by: Option<String>,
    pub sha256: String,
}

impl From<&WithdrawalRow> for WithdrawnJson {
    fn from(w: &WithdrawalRow) -> WithdrawnJson {
        WithdrawnJson {
            wave: w.wave.clone(),
            reason: w.reason.clone(),
            created_at: w.created_at.clone(),
            superseded_by: w.superseded_by.clone(),
            sha256: w.sha256.clone(),
        }
    }
}

/// The withdrawn (or superseded) waves of a ledger, each with its first withdrawal: what
/// `score`, `rescore`, `history`, `diff` and `compare` leave out unless told
/// `--include-withdrawn`, and what every listing marks.
pub struct Withdrawn(BTreeMap<String, WithdrawalRow>);

impl Withdrawn {
    pub fn load(ledger: &Ledger) -> Result<Withdrawn> {
        let mut map = BTreeMap::new();
        for w in ledger.withdrawals()? {
            map.entry(w.wave.clone()).or_insert(w);
        }
        Ok(Withdrawn(map))
    }

    pub fn get(&self, wave: &str) -> Option<&WithdrawalRow> {
        self.0.get(wave)
    }

    /// A wave the user named: refused when withdrawn, unless `include`.
    pub(crate) fn check_named(&self, wave: &str, include: bool) -> Result<()> {
        match self.0.get(wave) {
            Some(w) if !include => Err(Error::Usage(format!(
                "wave {wave} was {}; it is left out of leaderboards",
                describe(w)
            ))
            .hinted(Hint::IncludeWithdrawn)),
            _ => Ok(()),
        }
    }

    /// Of these waves, the withdrawals of those that are withdrawn.
    pub fn among<'a>(&'a self, waves: impl IntoIterator<Item = &'a str>) -> Vec<&'a WithdrawalRow> {
        waves.into_iter().filter_map(|w| self.0.get(w)).collect()
    }
}

/// "withdrawn on DATE: REASON" or "superseded by W on DATE: REASON".
pub fn describe(w: &WithdrawalRow) -> String {
    match &w.superseded_by {
        Some(by) => format!("superseded by {by} on {}: {}", w.created_at, w.reason),
        None => format!("withdrawn on {}: {}", w.created_at, w.reason),
    }
}

/// A listing's JSON body with the withdrawn waves it shows.
#[derive(Debug, Clone, Serialize)]
pub struct Marked<'a, T: Serialize> {
    #[serde(flatten)]
    pub body: &'a T,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub withdrawn: Vec<WithdrawnJson>,
}

/// Marks the withdrawn waves a listing shows: a note each under the table, and the JSON's
/// `withdrawn` list.
pub fn mark<'a, T: Serialize>(
    table: &mut Table,
    body: &'a T,
    shown: &[&WithdrawalRow],
) -> Marked<'a, T> {
    for w in shown {
        table.notes.push(Note::Text(format!(
            "Wave {} was {}. It is not a current result.",
            w.wave,
            describe(w)
        )));
    }
    Marked {
        body,
        withdrawn: shown.iter().map(|w| WithdrawnJson::from(*w)).collect(),
    }
}
