//! The submission rules a ledger can review under (`rules list`): those registered in it and
//! those shipped with benchledger, with how many waves a review under each let in.

use std::path::Path;

use super::document::Document;
use crate::digest::sha256_hex;
use crate::error::Result;
use crate::ledger::Ledger;
use crate::review::{self, render, rules};

/// `rules list`: the rules registered in `ledger` (none without one) and those shipped, by name then version, with how many waves a
/// review under each let in.
pub fn rules(ledger: Option<&Ledger>) -> Result<Document> {
    let (registered, reviews) = match ledger {
        Some(ledger) => (ledger.rules_rows()?, ledger.reviews()?),
        None => (Vec::new(), Vec::new()),
    };
    let waves = |sha: &str| {
        let mut w: Vec<&str> = reviews
            .iter()
            .filter(|r| r.rules_sha256 == sha)
            .map(|r| r.wave.as_str())
            .collect();
        w.dedup();
        w.len() as u64
    };
    let description = |text: &str| {
        review::parse_rules(Path::new("rules"), text)
            .ok()
            .and_then(|r| r.description)
    };
    let mut rows: Vec<render::Listed> = registered
        .iter()
        .map(|r| render::Listed {
            name: r.name.clone(),
            version: r.version,
            sha256: r.sha256.clone(),
            description: description(&r.text),
            added_at: Some(r.added_at.clone()),
            shipped: rules::shipped(&r.name, r.version).is_some(),
            waves: waves(&r.sha256),
        })
        .collect();
    for (name, version, text) in rules::SHIPPED {
        if !registered
            .iter()
            .any(|r| r.name == *name && r.version == *version)
        {
            let sha256 = sha256_hex(text.as_bytes());
            rows.push(render::Listed {
                name: name.to_string(),
                version: *version,
                waves: waves(&sha256),
                sha256,
                description: description(text),
                added_at: None,
                shipped: true,
            });
        }
    }
    rows.sort_by(|a, b| (&a.name, a.version).cmp(&(&b.name, b.version)));
    let (table, json) = render::rules_list(&rows);
    Ok(Document::new("rules", table, &json))
}
