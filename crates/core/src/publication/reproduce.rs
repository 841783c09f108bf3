//! Whether the publications a ledger holds reproduce: each one's link in the chain, then
//! [`check`](super::check) of its render against what it stored. `verify` and the static site
//! both ask it, so a publication is judged the same way wherever it is shown.

use crate::chain;
use crate::ledger::Ledger;
use crate::model::{ChainEntry, PriceTableRow};

/// What is wrong with the publication at `entries[at]` (the ledger's chain, in order): what
/// recomputing it from the ledger finds, then its link to the entry before it (`partial`: the
/// chain is a bundle's, which may start after the first entry). Empty: it reproduces. An entry
/// that is not a publication gets only its link checked.
pub fn problems(
    ledger: &Ledger,
    entries: &[ChainEntry],
    at: usize,
    price_tables: &[PriceTableRow],
    partial: bool,
) -> Vec<String> {
    let prev = at.checked_sub(1).map(|j| &entries[j]);
    let mut problems: Vec<String> = chain::link_problem(&entries[at], prev, partial)
        .into_iter()
        .collect();
    if let ChainEntry::Publication(p) = &entries[at] {
        let loaded = (
            ledger.publication_rubric(p.id),
            ledger.load_wave(&p.wave),
            ledger.publication_claims(p.id),
        );
        match loaded {
            (Ok(rubric), Ok(fresh), Ok(claims)) => {
                problems.splice(0..0, super::check(p, &claims, &rubric, price_tables, fresh));
            }
            (Err(e), _, _) => problems.push(format!("its rubric cannot be loaded: {e}")),
            (_, Err(e), _) => problems.push(format!("its wave cannot be loaded: {e}")),
            (_, _, Err(e)) => problems.push(format!("its claims cannot be loaded: {e}")),
        }
    }
    problems
}
