//! Published numbers checked against the ledger (`claims check`): each claim of a claims file
//! computed from the waves it names and compared at the precision it was printed with, a claim
//! that differs tried under other conventions (cached reads, repricing) to say why.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::document::Document;
use super::request::Prices;
use crate::claims::check::{
    Variant, WaveCtx, check as check_claim, pricing_variants, seat_missing, seat_of,
};
use crate::claims::{ClaimsFile, Figure, Verdict};
use crate::error::{Error, Location, Result};
use crate::ledger::Ledger;
use crate::model::WaveData;
use crate::prices::Costs;
use crate::report;
use crate::report::claims::{Digits, Row, Source, listing};
use crate::report::withdrawn::Withdrawn;
use crate::rubric::{WaveScores, score_wave};

/// A claims file to check: its label in the listing, its path, and the file parsed
/// ([`load`]).
#[derive(Debug, Clone)]
pub struct Loaded {
    pub label: String,
    pub path: PathBuf,
    pub file: ClaimsFile,
}

/// The claims checked: the listing, and how many of how many claims differ.
#[derive(Debug, Clone)]
pub struct Checked {
    pub document: Document,
    pub differ: usize,
    pub claims: usize,
}

impl Checked {
    /// A failed check when any claim differs from the ledger, saying how many.
    pub fn outcome(&self) -> Result<()> {
        if self.differ == 0 {
            return Ok(());
        }
        Err(Error::CheckFailed(format!(
            "{} of {} claim{} differ{} from the ledger (see above)",
            self.differ,
            self.claims,
            if self.claims == 1 { "" } else { "s" },
            if self.differ == 1 { "s" } else { "" }
        )))
    }
}

pub use crate::claims::load;

/// Refuses a claim whose wave, seat or rubric the ledger does not have, naming the file, the
/// claim's line and the field.
fn check_references(
    ledger: &Ledger,
    path: &Path,
    file: &ClaimsFile,
    waves: &BTreeMap<String, WaveData>,
) -> Result<()> {
    for c in &file.claims {
        let at = |line: usize, field: &str| Location::line(path, line).field(field);
        let Some(data) = waves.get(&c.wave) else {
            // The ledger's own words for a wave it does not have, where the claim is.
            let message = match ledger.load_wave_check(&c.wave) {
                Err(e) => e.to_string(),
                Ok(()) => format!("no wave `{}`", c.wave),
            };
            return Err(Error::input(at(c.lines.wave, "wave"), message));
        };
        if let Err(fits) = seat_of(data, &c.seat) {
            return Err(Error::input(
                at(c.lines.seat, "seat"),
                seat_missing(data, &c.seat, &fits, true),
            ));
        }
        if let Figure::Score { name, version } = &c.figure
            && let Err(e) = crate::registry::rubric_row(ledger, name, *version)
        {
            // The rubric's own error, where the claim is (its hint kept for the caller to
            // word).
            return Err(match e {
                Error::Hinted { error, hint } => {
                    Error::input(at(c.lines.figure, "figure"), error.to_string()).hinted(*hint)
                }
                e => Error::input(at(c.lines.figure, "figure"), e.to_string()),
            });
        }
    }
    Ok(())
}

/// Everything one wave's claims are checked against.
struct WaveInput {
    data: WaveData,
    scores: BTreeMap<String, WaveScores>,
    variants: Vec<Variant>,
    pricing: Option<crate::prices::Pricing>,
}

/// The waves the claims name that the ledger holds, loaded.
fn named_waves(ledger: &Ledger, loaded: &[&ClaimsFile]) -> Result<BTreeMap<String, WaveData>> {
    let existing: BTreeSet<String> = ledger.wave_ids()?.into_iter().collect();
    let named: BTreeSet<&str> = loaded
        .iter()
        .flat_map(|f| f.claims.iter().map(|c| c.wave.as_str()))
        .filter(|w| existing.contains(*w))
        .collect();
    let mut raw = BTreeMap::new();
    for w in &named {
        raw.insert(w.to_string(), ledger.load_wave(w)?);
    }
    Ok(raw)
}

/// Each wave priced as `prices` asks (with the other pricing conventions a claim that differs
/// is tried under), and scored under every rubric a claim about it names.
fn wave_inputs(
    ledger: &Ledger,
    raw: BTreeMap<String, WaveData>,
    loaded: &[&ClaimsFile],
    prices: &Prices,
) -> Result<BTreeMap<String, WaveInput>> {
    let table = match &prices.table {
        Some(spec) => {
            let row = crate::registry::price_table_row(ledger, spec)?;
            let table = crate::registry::parse_price_table(ledger, &row)?;
            Some((row.sha256, table))
        }
        None => None,
    };
    let costs = if prices.reprice {
        Costs::Reprice
    } else {
        Costs::Fill
    };
    let mut inputs = BTreeMap::new();
    for (id, data) in raw {
        let (data, variants, pricing) = match &table {
            Some((sha, t)) => {
                let variants = pricing_variants(t, sha, &data, costs);
                let mut priced = data;
                let p = crate::prices::price_wave(t, sha, &mut priced, costs);
                (priced, variants, Some(p))
            }
            None => (data, Vec::new(), None),
        };
        let mut scores = BTreeMap::new();
        for c in loaded
            .iter()
            .flat_map(|f| &f.claims)
            .filter(|c| c.wave == id)
        {
            if let Figure::Score { name, version } = &c.figure {
                let key = format!("{name}@{version}");
                if let std::collections::btree_map::Entry::Vacant(slot) = scores.entry(key) {
                    let row = crate::registry::rubric_row(ledger, name, *version)?;
                    let rubric = crate::registry::parse_rubric(ledger, &row)?;
                    slot.insert(score_wave(&rubric, &data));
                }
            }
        }
        inputs.insert(
            id,
            WaveInput {
                data,
                scores,
                variants,
                pricing,
            },
        );
    }
    Ok(inputs)
}

/// The note under the listing saying how a price table set a wave's costs.
fn pricing_note(id: &str, p: &crate::prices::Pricing) -> report::Note {
    report::Note::Text(format!(
        "Wave {id}: {} cost{} set from price table {} ({}; {} recorded kept, {} left unpriced); \
         costs repriced under other conventions are among the causes tried.",
        p.priced(),
        if p.priced() == 1 { "" } else { "s" },
        p.id(),
        if p.costs == Costs::Reprice {
            "every cost repriced"
        } else {
            "the missing costs filled in"
        },
        p.recorded(),
        p.unpriced()
    ))
}

/// `claims check`: each claim of the claims files `files` (each `(label, path, file)`: the
/// label names it in the listing, the path in an error) computed from the ledger and compared
/// with its printed precision; costs filled in from `prices` first, and repricing among the
/// causes tried for a claim that differs. A claim whose wave, seat or rubric the ledger does
/// not have is refused, naming the file, the claim's line and the field.
pub fn claims(ledger: &Ledger, files: &[Loaded], prices: &Prices) -> Result<Checked> {
    let loaded: Vec<&ClaimsFile> = files.iter().map(|f| &f.file).collect();
    let raw = named_waves(ledger, &loaded)?;
    for f in files {
        check_references(ledger, &f.path, &f.file, &raw)?;
    }
    let inputs = wave_inputs(ledger, raw, &loaded, prices)?;
    let mut rows = Vec::new();
    for (i, file) in loaded.iter().enumerate() {
        for c in &file.claims {
            let Some(w) = inputs.get(&c.wave) else {
                continue;
            };
            let checked = check_claim(
                c,
                &WaveCtx {
                    data: &w.data,
                    scores: &w.scores,
                    variants: &w.variants,
                },
            );
            rows.push(Row {
                file: i,
                claim: c,
                checked,
            });
        }
    }
    let sources: Vec<Source<'_>> = files
        .iter()
        .map(|f| Source {
            label: Some(f.label.clone()),
            file: &f.file,
        })
        .collect();
    let (mut out, json) = listing(&sources, &rows, Digits::Readable);
    for (id, w) in &inputs {
        if let Some(p) = &w.pricing {
            out.notes.push(pricing_note(id, p));
        }
    }
    let withdrawn = Withdrawn::load(ledger)?;
    let json = report::withdrawn::mark(
        &mut out,
        &json,
        &withdrawn.among(inputs.keys().map(String::as_str)),
    );
    let differ = rows
        .iter()
        .filter(|r| r.checked.verdict == Verdict::Differs)
        .count();
    Ok(Checked {
        document: Document::new("claims", out, &json),
        differ,
        claims: rows.len(),
    })
}
