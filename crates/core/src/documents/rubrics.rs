//! Documents across waves: what a rubric change moves over history (`diff`), one seat across
//! waves beside the conditions that shape its numbers (`compare`), a registered rubric's stored
//! scores wave by wave (`history`), and the chain's publications and withdrawals
//! (`publications`).

use std::collections::{BTreeMap, BTreeSet};

use super::document::Document;
use crate::error::{Error, Hint, Result};
use crate::ledger::Ledger;
use crate::model::WaveData;
use crate::registry;
use crate::report;
use crate::report::compare::{Comparison, WaveInput, find_seat};
use crate::report::withdrawn::Withdrawn;
use crate::rescore;
use crate::rubric::{WaveScores, score_wave};

/// `diff OLD NEW`: two rubrics' leaderboards over all of history (or `waves`), seat by seat.
pub fn diff(
    ledger: &Ledger,
    old: &str,
    new: &str,
    waves: &[String],
    include_withdrawn: bool,
) -> Result<Document> {
    let old = registry::resolve(ledger, old)?;
    let new = registry::resolve(ledger, new)?;
    let withdrawn = Withdrawn::load(ledger)?;
    let ids = rescore::waves_to_visit(ledger, waves, &withdrawn, include_withdrawn)?;
    let mut scores = Vec::with_capacity(ids.len());
    // (wave, seat) → display name, for the seats that have one.
    let mut names = BTreeMap::new();
    for id in &ids {
        let data = ledger.load_wave(id)?;
        scores.push((
            score_wave(&old.rubric, &data),
            score_wave(&new.rubric, &data),
        ));
        for s in &data.seats {
            if let Some(n) = &s.seat.display_name {
                names.insert((id.clone(), s.seat.id.clone()), n.clone());
            }
        }
    }
    let rows = report::diff::rows(&old, &new, &scores, |wave, seat| {
        names.get(&(wave.to_string(), seat.to_string())).cloned()
    });
    let (mut table, json) = report::diff::diff(&old, &new, rows);
    let json = report::withdrawn::mark(
        &mut table,
        &json,
        &withdrawn.among(ids.iter().map(String::as_str)),
    );
    Ok(Document::new("diff", table, &json))
}

/// What `compare` shows: the comparison's tables (figures, conditions, and the CSV's one
/// table) and its JSON body, withdrawn waves marked.
#[derive(Debug, Clone)]
pub struct Compared {
    pub comparison: Comparison,
    pub json: serde_json::Value,
}

impl Compared {
    /// The JSON document, exactly as `compare --format json` prints it.
    pub fn to_json(&self) -> String {
        report::to_json("compare", &self.json)
    }
}

/// `compare --seat SEAT WAVE...`: one seat across two or more waves (oldest first), on
/// absolutes, with each wave's conditions and every difference called out; `rubrics` adds each
/// one's score.
pub fn compare(
    ledger: &Ledger,
    seat: &str,
    waves: &[String],
    rubrics: &[String],
    include_withdrawn: bool,
) -> Result<Compared> {
    if waves.len() < 2 {
        return Err(Error::Usage(format!(
            "compare needs two or more waves, oldest first (got {})",
            waves.len()
        ))
        .hinted(Hint::CompareTwo(seat.to_string())));
    }
    let mut seen = BTreeSet::new();
    for w in waves {
        if !seen.insert(w.as_str()) {
            return Err(Error::Usage(format!(
                "wave {w} is named twice; name each wave once, oldest first"
            )));
        }
    }
    let withdrawn = Withdrawn::load(ledger)?;
    for w in waves {
        ledger.load_wave_check(w)?;
        withdrawn.check_named(w, include_withdrawn)?;
    }
    let infos = rubrics
        .iter()
        .map(|r| registry::resolve(ledger, r))
        .collect::<Result<Vec<_>>>()?;
    let data: Vec<WaveData> = waves
        .iter()
        .map(|w| ledger.load_wave(w))
        .collect::<Result<_>>()?;
    let scores: Vec<Vec<WaveScores>> = data
        .iter()
        .map(|d| infos.iter().map(|i| score_wave(&i.rubric, d)).collect())
        .collect();
    let mut inputs = Vec::with_capacity(data.len());
    for (d, s) in data.iter().zip(&scores) {
        let Some(found) = find_seat(d, seat) else {
            let seats: Vec<&str> = d.seats.iter().map(|s| s.seat.id.as_str()).collect();
            return Err(Error::Usage(format!(
                "wave {} has no seat {seat:?}; its seats are: {}",
                d.wave.id,
                if seats.is_empty() {
                    "(none)".to_string()
                } else {
                    seats.join(", ")
                }
            )));
        };
        inputs.push(WaveInput {
            data: d,
            seat: found,
            scores: s,
        });
    }
    let mut comparison = report::compare::compare(seat, &inputs, &infos)?;
    let shown = withdrawn.among(waves.iter().map(String::as_str));
    let body = comparison.json.clone();
    let json = report::withdrawn::mark(&mut comparison.conditions, &body, &shown);
    let json = serde_json::to_value(&json).expect(report::RENDERING_CANNOT_FAIL);
    Ok(Compared { comparison, json })
}

/// `history --rubric R`: a registered rubric's stored scores wave by wave (only `waves`, when
/// any are named), for one `seat` or all.
pub fn history(
    ledger: &Ledger,
    rubric: &str,
    seat: Option<&str>,
    waves: &[String],
    include_withdrawn: bool,
) -> Result<Document> {
    let info = registry::resolve(ledger, rubric)?;
    if !info.registered {
        return Err(Error::Usage(format!(
            "{} is not registered: stored scores belong to registered rubrics",
            info.rubric.id(),
        ))
        .hinted(Hint::RegisterAndRescore {
            file: rubric.to_string(),
            id: info.rubric.id(),
        }));
    }
    let withdrawn = Withdrawn::load(ledger)?;
    for w in waves {
        ledger.load_wave_check(w)?;
        withdrawn.check_named(w, include_withdrawn)?;
    }
    let mut rows = Vec::new();
    // Every wave's conditions, in ledger order (start time, then id).
    for listed in ledger.waves()? {
        if !waves.is_empty() && !waves.contains(&listed.wave.id) {
            continue;
        }
        if !include_withdrawn && withdrawn.get(&listed.wave.id).is_some() {
            continue;
        }
        let stored = ledger.stored_scores(&info.sha256, &listed.wave.id)?;
        rows.push(report::history::WaveHistory {
            wave: listed.wave,
            stored,
        });
    }
    if let Some(s) = seat
        && !rows
            .iter()
            .any(|w| w.stored.iter().any(|x| x.score.seat == s))
    {
        return Err(Error::Usage(format!(
            "no stored score for seat {s:?} under {}",
            info.rubric.id(),
        ))
        .hinted(Hint::CheckSeatOrRescore(info.rubric.id())));
    }
    let (mut table, json) = report::history::history(&info, &rows, seat);
    let shown = withdrawn.among(rows.iter().map(|r| r.wave.id.as_str()));
    let json = report::withdrawn::mark(&mut table, &json, &shown);
    Ok(Document::new("history", table, &json))
}

/// `publications`: every publication and withdrawal of the chain, with its head.
pub fn publications(ledger: &Ledger) -> Result<Document> {
    let chain = ledger.walk()?;
    let rows = ledger.publications()?;
    let withdrawals = ledger.withdrawals()?;
    let (table, json) =
        report::publication::list(&rows, &withdrawals, chain.last().map(|e| e.sha256()));
    Ok(Document::new("publications", table, &json))
}
