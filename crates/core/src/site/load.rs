//! What the site shows, read from the ledger: every wave (priced when asked), the registered
//! rubrics, and each publication verified on the way as `verify` verifies it. The site itself
//! is a pure function of this [`Input`] ([`super::render`]).

use crate::error::Result;
use crate::ledger::{ChainEntry, Ledger};
use crate::prices::{self, Costs};
use crate::publication;
use crate::registry;
use crate::report::score::RubricInfo;
use crate::report::withdrawn::Withdrawn;

use super::{Input, PublicationInput, WaveInput};

/// What the site shows, read from the ledger. With intervals `asked` for (any of `--ci`,
/// `--resamples`, `--seed`), a wave whose suite is too large to resample is refused, as
/// `score --ci` refuses it; drawn by default, such a wave is shown without them.
///
/// With `prices` (a registered table's NAME@VERSION), every wave's costs are filled in from
/// it (with [`Costs::Reprice`], every cost set from it), as `show --prices` fills them, before
/// anything is ranked or drawn; an unknown table is refused before any wave is read.
pub fn load(
    ledger: &Ledger,
    intervals: Option<crate::stats::bootstrap::Settings>,
    asked: bool,
    prices: Option<(&str, Costs)>,
) -> Result<Input> {
    let table = match prices.map(|(spec, _)| spec) {
        Some(spec) => {
            let row = registry::price_table_row(ledger, spec)?;
            let table = registry::parse_price_table(ledger, &row)?;
            Some((table, row.sha256))
        }
        None => None,
    };
    let costs = prices.map_or(Costs::Fill, |(_, costs)| costs);
    let withdrawn = Withdrawn::load(ledger)?;
    let mut waves = Vec::new();
    for row in ledger.waves()? {
        let mut data = ledger.load_wave(&row.wave.id)?;
        if intervals.is_some() && asked {
            crate::stats::check_suite_size(&data.wave)?;
        }
        let pricing = table
            .as_ref()
            .map(|(t, sha256)| prices::price_wave(t, sha256, &mut data, costs));
        waves.push(WaveInput {
            withdrawn: withdrawn.get(&row.wave.id).cloned(),
            reviews: ledger.wave_reviews(&row.wave.id)?,
            row,
            data,
            pricing,
        });
    }
    let mut rubrics = Vec::new();
    let mut rubric_added_at = Vec::new();
    for row in ledger.rubrics()? {
        rubric_added_at.push(row.added_at.clone());
        rubrics.push(RubricInfo {
            rubric: registry::parse_rubric(ledger, &row)?,
            sha256: row.sha256,
            scale_violation: row.scale_violation,
            registered: true,
        });
    }
    let entries = ledger.chain()?;
    let price_tables = ledger.price_tables()?;
    let mut publications = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let ChainEntry::Publication(p) = entry else {
            continue;
        };
        let mut problems =
            publication::reproduce::problems(ledger, &entries, i, &price_tables, false);
        // A signed statement that does not match the publication shows as a problem; who
        // signed it is for a reader with the key to check (`verify --trusted-key`).
        let signature = publication::signature::check(ledger, p, None)?;
        problems.extend(signature.problems);
        publications.push(PublicationInput {
            withdrawn: withdrawn.get(&p.wave).cloned(),
            row: p.clone(),
            problems,
            signed_by: signature.keyids,
        });
    }
    Ok(Input {
        waves,
        rubrics,
        publications,
        head: ledger.walk()?.last().map(|e| e.sha256().to_string()),
        intervals,
        rubric_added_at,
        front_rubric: None,
        problem_pages: super::PROBLEM_PAGES,
        advice: |a| a.to_string(),
        config: super::SiteConfig::default(),
    })
}
