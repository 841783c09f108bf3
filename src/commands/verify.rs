//! `benchledger verify`: recompute publications from the ledger (or a bundle) and their
//! rubric, compare byte for byte, and check the chain.

use std::path::Path;

use super::Ctx;
use super::bundle::{bundle_file_problems, open_bundle};
use crate::error::{Error, Result};
use crate::ledger::{Ledger, PublicationRow};
use crate::publication;

/// Verifies the named publications (or all) of a ledger — a bundle's, when `bundle` names its
/// directory; returns the report and whether all reproduced.
fn verify_ledger(ledger: &Ledger, ids: &[i64], bundle: Option<&Path>) -> Result<(String, bool)> {
    let in_bundle = bundle.is_some();
    let all = ledger.publications()?;
    let chosen: Vec<&PublicationRow> = if ids.is_empty() {
        all.iter().collect()
    } else {
        let mut v = Vec::new();
        for id in ids {
            match all.iter().find(|p| p.id == *id) {
                Some(p) => v.push(p),
                None => {
                    ledger.publication(*id)?;
                }
            }
        }
        v
    };
    if chosen.is_empty() {
        return Ok(("no publications to verify\n".into(), true));
    }
    let mut out = String::new();
    let mut failed = 0;
    for p in &chosen {
        let prev = all.iter().rev().find(|q| q.id < p.id);
        let rubric = ledger.publication_rubric(p.id)?;
        let mut problems = match ledger.load_wave(&p.wave) {
            Ok(fresh) => publication::check(p, prev, &rubric, &fresh, in_bundle),
            Err(e) => vec![format!("its wave cannot be loaded: {e}")],
        };
        if let Some(dir) = bundle {
            problems.extend(bundle_file_problems(dir, p, &rubric));
        }
        let head = format!(
            "publication #{} {:?} ({} under {})",
            p.id, p.title, p.wave, p.rubric
        );
        if problems.is_empty() {
            out.push_str(&format!(
                "{head}: OK — reproduces byte for byte (output sha256 {})\n",
                crate::digest::short(&p.output_sha256)
            ));
        } else {
            failed += 1;
            out.push_str(&format!("{head}: MISMATCH\n"));
            for pr in problems {
                out.push_str(&format!("  - {pr}\n"));
            }
        }
    }
    if in_bundle
        && let Some(first) = chosen.first()
        && let Some(link) = &first.prev_sha256
    {
        out.push_str(&format!(
            "note: the link to the publication before #{} (sha256 {}) lies outside this bundle\n",
            first.id,
            crate::digest::short(link)
        ));
    }
    out.push_str(&format!(
        "{} of {} publication{} reproduce{}\n",
        chosen.len() - failed,
        chosen.len(),
        if chosen.len() == 1 { "" } else { "s" },
        if chosen.len() - failed == 1 { "s" } else { "" }
    ));
    Ok((out, failed == 0))
}

pub fn verify(ctx: &mut Ctx<'_>, ids: &[i64], all: bool, bundle: Option<&Path>) -> Result<()> {
    let (report, ok) = match bundle {
        Some(dir) => {
            // Read into memory, never opened by SQLite: nothing is written in the bundle.
            let (ledger, notes) = open_bundle(dir)?;
            let (report, ok) = verify_ledger(&ledger, ids, Some(dir))?;
            (notes.concat() + &report, ok)
        }
        None => {
            if ids.is_empty() && !all {
                return Err(Error::Usage(
                    "name the publications to verify (see `benchledger publications`), or pass \
                     --all"
                        .into(),
                ));
            }
            let ledger = ctx.open()?;
            verify_ledger(&ledger, if all { &[] } else { ids }, None)?
        }
    };
    ctx.write(&report)?;
    if ok {
        Ok(())
    } else {
        Err(Error::CheckFailed(
            "verify: a publication does not reproduce from the ledger (see above)".into(),
        ))
    }
}
