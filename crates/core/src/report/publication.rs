//! Publication listings and the README of a reproduction bundle.

use serde::Serialize;

use super::withdrawn::{WithdrawnJson, describe};
use super::{Advice, Cell, Column, Note, Table};
use crate::formats::input::PricesId;
use crate::model::{PublicationRow, WithdrawalRow};

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PublicationJson {
    pub id: i64,
    pub title: String,
    pub wave: String,
    pub rubric: String,
    pub rubric_sha256: String,
    pub created_at: String,
    pub input_sha256: String,
    pub output_sha256: String,
    pub prev_sha256: Option<String>,
    pub sha256: String,
    /// When the publication's wave was withdrawn (or superseded), the first such record.
    pub withdrawn: Option<WithdrawnJson>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PublicationsJson {
    pub publications: Vec<PublicationJson>,
    /// The record hash of the chain's last entry (a publication or a withdrawal).
    pub head: Option<String>,
}

/// The publications, each marked when its wave has since been withdrawn, and the chain's head.
pub fn list(
    rows: &[PublicationRow],
    withdrawals: &[WithdrawalRow],
    head: Option<&str>,
) -> (Table, PublicationsJson) {
    let withdrawn = |wave: &str| withdrawals.iter().find(|w| w.wave == wave);
    let mut t = Table::new(vec![
        Column::num("#", "id"),
        Column::text("Title", "title"),
        Column::text("Wave", "wave"),
        Column::text("Rubric", "rubric"),
        Column::text("Published", "created_at"),
        Column::text("Output sha256", "output_sha256"),
        Column::text("Chained to", "prev_sha256"),
    ]);
    let short = |s: &str| crate::digest::short(s).to_string();
    for r in rows {
        t.rows.push(vec![
            Cell::text(r.id.to_string()),
            Cell::text(&r.title),
            Cell::text(&r.wave),
            Cell::text(&r.rubric),
            Cell::text(&r.created_at),
            Cell::new(short(&r.output_sha256), &r.output_sha256),
            match &r.prev_sha256 {
                Some(p) => Cell::new(short(p), p),
                None => Cell::new("(first)", ""),
            },
        ]);
    }
    for r in rows {
        if let Some(w) = withdrawn(&r.wave) {
            t.notes.push(Note::Text(format!(
                "#{}: wave {} was {}. The publication still verifies; it is no longer a current \
                 leaderboard.",
                r.id,
                r.wave,
                describe(w)
            )));
        }
    }
    if rows.is_empty() {
        t.notes.push(Note::Advice(Advice::NoPublications));
    } else {
        t.notes.push(Note::Advice(Advice::VerifyPublications));
    }
    if let Some(h) = head {
        t.notes.push(Note::Advice(Advice::ChainHead(h.to_string())));
    }
    let json = PublicationsJson {
        publications: rows
            .iter()
            .map(|r| PublicationJson {
                id: r.id,
                title: r.title.clone(),
                wave: r.wave.clone(),
                rubric: r.rubric.clone(),
                rubric_sha256: r.rubric_sha256.clone(),
                created_at: r.created_at.clone(),
                input_sha256: r.input_sha256.clone(),
                output_sha256: r.output_sha256.clone(),
                prev_sha256: r.prev_sha256.clone(),
                sha256: r.sha256.clone(),
                withdrawn: withdrawn(&r.wave).map(WithdrawnJson::from),
            })
            .collect(),
        head: head.map(str::to_string),
    };
    (t, json)
}

/// The latest layout of the README this build writes into a bundle. `verify --bundle` compares
/// a bundle's README byte for byte with what its layout says for the publication, so the text
/// of a layout never changes once shipped: a change is a new layout, and the old one stays here
/// for the bundles written with it (docs/formats.md).
pub const BUNDLE_LAYOUT: u32 = 4;

/// The file a bundle of a signed publication keeps its DSSE envelope in (layout 4), the same
/// bytes as its ledger keeps beside the publication, for tools other than benchledger.
pub(crate) const ENVELOPE_FILE: &str = "publication.dsse.json";

/// The name of the price table file a bundle carries: `NAME.vVERSION.prices.toml`, which no
/// rubric file (`NAME.vVERSION.toml`) can be named. Only for a name already checked to be a
/// slug.
pub(crate) fn prices_file_name(p: &PricesId) -> String {
    format!("{}.v{}.prices.toml", p.name, p.version)
}

/// The layout a bundle's README declares on its line `Bundle layout N.`; the first layout
/// declares none.
pub(crate) fn bundle_layout(readme: &str) -> Option<u32> {
    match readme
        .lines()
        .find_map(|l| l.strip_prefix("Bundle layout "))
    {
        None => Some(1),
        Some(rest) => rest.split(['.', ' ']).next().and_then(|n| n.parse().ok()),
    }
}

/// The README of a reproduction bundle of a publication, whose input names the price table
/// `prices` (if any), signed by the key `signed_by` (if it is signed): layout 4 for a signed
/// publication, else layout 3 for a publication with a price table, else layout 2 — each the
/// earliest that says all such a bundle holds.
pub(crate) fn bundle_readme(
    r: &PublicationRow,
    prices: Option<&PricesId>,
    signed_by: Option<&str>,
) -> String {
    match (prices, signed_by) {
        (_, Some(key)) => readme_v4(r, prices, key),
        (Some(_), None) => readme_v3(r, prices),
        (None, None) => readme_v2(r),
    }
}

/// The README of a reproduction bundle in a given layout; `None` for a layout this build does
/// not know. `prices` is the price table the publication's input names: layouts 1 and 2 were
/// written before publications could name one, and do not mention it.
pub(crate) fn bundle_readme_in(
    layout: u32,
    r: &PublicationRow,
    prices: Option<&PricesId>,
    signed_by: Option<&str>,
) -> Option<String> {
    match layout {
        1 => Some(readme_v1(r)),
        2 => Some(readme_v2(r)),
        3 => Some(readme_v3(r, prices)),
        4 => Some(readme_v4(r, prices, signed_by.unwrap_or("(none)"))),
        _ => None,
    }
}

/// Layout 4: layout 3, and for a signed publication its envelope file, the key that signed it
/// and how to check the signature.
fn readme_v4(r: &PublicationRow, prices: Option<&PricesId>, signed_by: &str) -> String {
    let v3 = readme_v3(r, prices);
    let body = v3.strip_suffix("Bundle layout 3.\n").unwrap_or(&v3);
    format!(
        "{body}## Signature\n\n\
         The publication is signed: `{ENVELOPE_FILE}` is a DSSE envelope (payload type \
         `application/vnd.in-toto+json`) holding an in-toto Statement v1 whose subjects are the \
         publication's input and output texts (SHA-256) and whose predicate names its rubric, \
         wave and publication record; `ledger.db` keeps the same envelope beside the \
         publication. It is signed with ed25519 by the key whose id (the SHA-256 of its raw \
         public key) is\n\n\
         - key id: `{signed_by}`\n\n\
         With that key's public key file (PEM), obtained from its owner by a way you trust:\n\n\
         ```\nbenchledger verify --bundle . --trusted-key PUB\n```\n\n\
         Bundle layout 4.\n"
    )
}

/// Layout 3: layout 2, and for a publication whose costs a price table filled in, that table:
/// in the ledger, as a file, and among the digests.
fn readme_v3(r: &PublicationRow, prices: Option<&PricesId>) -> String {
    let (in_ledger, file, from, digest) = match prices {
        Some(p) => (
            ", its rubric's verbatim text and the verbatim text of the price table that filled \
             in its costs"
                .to_string(),
            format!(
                ";\n- `{}`: the price table `{}@{}`, as registered",
                prices_file_name(p),
                p.name,
                p.version
            ),
            ", the rubric and the price table".to_string(),
            format!(
                "- price table text (`{}@{}`): `{}`\n",
                p.name, p.version, p.sha256
            ),
        ),
        None => (
            " and its rubric's verbatim text".to_string(),
            String::new(),
            " and the rubric".to_string(),
            String::new(),
        ),
    };
    format!(
        "# Reproduction bundle: publication #{id}\n\n\
         {title:?} — wave `{wave}` scored under rubric `{rubric}`, published {created}.\n\n\
         This directory holds everything needed to recompute the published leaderboard:\n\n\
         - `ledger.db`: a benchledger ledger with only this publication, its wave (conditions, \
         seats, attempts, trace steps){in_ledger};\n\
         - `publication.md`: the leaderboard exactly as published;\n\
         - the rubric file, as registered{file}.\n\n\
         ## Check it\n\n\
         With benchledger installed (`cargo install --path .` in its repository):\n\n\
         ```\nbenchledger verify --bundle .\n```\n\n\
         It recomputes the leaderboard from the rows in `ledger.db`{from}, compares it byte for \
         byte with the published text, and checks every digest, this README's included. It \
         prints OK, or exactly which row, seat and number differ, and exits 1.\n\n\
         It only reads this directory, and never writes in it: a bundle on read-only media \
         checks as well. It reads `ledger.db` into memory, as it is: a `ledger.db-wal` or \
         `ledger.db-journal` beside it is never applied. It reads regular files only, never a \
         symbolic link.\n\n\
         ## Digests\n\n\
         - output (publication.md): `{output}`\n\
         - input rows (canonical serialisation): `{input}`\n\
         - rubric text: `{rubric_sha}`\n\
         {digest}\
         - publication record: `{sha}`\n\
         - previous publication in the original ledger's chain: `{prev}`\n\n\
         Bundle layout 3.\n",
        id = r.id,
        title = r.title,
        wave = r.wave,
        rubric = r.rubric,
        created = r.created_at,
        output = r.output_sha256,
        input = r.input_sha256,
        rubric_sha = r.rubric_sha256,
        sha = r.sha256,
        prev = r.prev_sha256.as_deref().unwrap_or("(none: the first)"),
    )
}

/// Layout 2: says that checking only reads the bundle, and declares its layout.
fn readme_v2(r: &PublicationRow) -> String {
    format!(
        "# Reproduction bundle: publication #{id}\n\n\
         {title:?} — wave `{wave}` scored under rubric `{rubric}`, published {created}.\n\n\
         This directory holds everything needed to recompute the published leaderboard:\n\n\
         - `ledger.db`: a benchledger ledger with only this publication, its wave (conditions, \
         seats, attempts, trace steps) and its rubric's verbatim text;\n\
         - `publication.md`: the leaderboard exactly as published;\n\
         - the rubric file, as registered.\n\n\
         ## Check it\n\n\
         With benchledger installed (`cargo install --path .` in its repository):\n\n\
         ```\nbenchledger verify --bundle .\n```\n\n\
         It recomputes the leaderboard from the rows in `ledger.db` and the rubric, compares it \
         byte for byte with the published text, and checks every digest, this README's \
         included. It prints OK, or exactly which row, seat and number differ, and exits 1.\n\n\
         It only reads this directory, and never writes in it: a bundle on read-only media \
         checks as well. It reads `ledger.db` into memory, as it is: a `ledger.db-wal` or \
         `ledger.db-journal` beside it is never applied. It reads regular files only, never a \
         symbolic link.\n\n\
         ## Digests\n\n\
         - output (publication.md): `{output}`\n\
         - input rows (canonical serialisation): `{input}`\n\
         - rubric text: `{rubric_sha}`\n\
         - publication record: `{sha}`\n\
         - previous publication in the original ledger's chain: `{prev}`\n\n\
         Bundle layout 2.\n",
        id = r.id,
        title = r.title,
        wave = r.wave,
        rubric = r.rubric,
        created = r.created_at,
        output = r.output_sha256,
        input = r.input_sha256,
        rubric_sha = r.rubric_sha256,
        sha = r.sha256,
        prev = r.prev_sha256.as_deref().unwrap_or("(none: the first)"),
    )
}

/// Layout 1, as the first builds wrote it (frozen: bundles written then are checked against
/// it).
fn readme_v1(r: &PublicationRow) -> String {
    format!(
        "# Reproduction bundle: publication #{id}\n\n\
         {title:?} — wave `{wave}` scored under rubric `{rubric}`, published {created}.\n\n\
         This directory holds everything needed to recompute the published leaderboard:\n\n\
         - `ledger.db`: a benchledger ledger with only this publication, its wave (conditions, \
         seats, attempts, trace steps) and its rubric's verbatim text;\n\
         - `publication.md`: the leaderboard exactly as published;\n\
         - the rubric file, as registered.\n\n\
         ## Check it\n\n\
         With benchledger installed (`cargo install --path .` in its repository):\n\n\
         ```\nbenchledger verify --bundle .\n```\n\n\
         It recomputes the leaderboard from the rows in `ledger.db` and the rubric, compares it \
         byte for byte with the published text, and checks every digest. It prints OK, or \
         exactly which row, seat and number differ, and exits 1.\n\n\
         ## Digests\n\n\
         - output (publication.md): `{output}`\n\
         - input rows (canonical serialisation): `{input}`\n\
         - rubric text: `{rubric_sha}`\n\
         - publication record: `{sha}`\n\
         - previous publication in the original ledger's chain: `{prev}`\n",
        id = r.id,
        title = r.title,
        wave = r.wave,
        rubric = r.rubric,
        created = r.created_at,
        output = r.output_sha256,
        input = r.input_sha256,
        rubric_sha = r.rubric_sha256,
        sha = r.sha256,
        prev = r.prev_sha256.as_deref().unwrap_or("(none: the first)"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> PublicationRow {
        PublicationRow {
            id: 3,
            wave: "w".into(),
            rubric: "r@1".into(),
            rubric_sha256: "a".repeat(64),
            title: "t".into(),
            created_at: "2026-11-30T00:00:00Z".into(),
            input_format: 2,
            input: String::new(),
            input_sha256: "b".repeat(64),
            output: String::new(),
            output_sha256: "c".repeat(64),
            prev_sha256: None,
            record_format: 1,
            sha256: "d".repeat(64),
        }
    }

    #[test]
    fn layout_3_names_the_price_table_and_is_layout_2_without_one() {
        let r = row();
        let p = PricesId {
            name: "list".into(),
            version: 2,
            sha256: "e".repeat(64),
        };
        let v2 = readme_v2(&r);
        // Without a price table, layout 3 says what layout 2 says; a bundle of such a
        // publication is still written in layout 2.
        assert_eq!(
            readme_v3(&r, None),
            v2.replace("Bundle layout 2.", "Bundle layout 3.")
        );
        assert_eq!(bundle_readme(&r, None, None), v2);
        let v3 = bundle_readme(&r, Some(&p), None);
        assert_eq!(bundle_layout(&v3), Some(3));
        assert_eq!(
            bundle_readme_in(3, &r, Some(&p), None).as_deref(),
            Some(v3.as_str())
        );
        for line in [
            "- `list.v2.prices.toml`: the price table `list@2`, as registered.",
            &format!("- price table text (`list@2`): `{}`", "e".repeat(64)),
            "It recomputes the leaderboard from the rows in `ledger.db`, the rubric and the price \
             table, compares it",
        ] {
            assert!(v3.contains(line), "{line:?} in:\n{v3}");
        }
    }

    #[test]
    fn layout_4_is_layout_3_with_the_signature_and_only_signed_bundles_use_it() {
        let r = row();
        let key = "f".repeat(64);
        let v4 = bundle_readme(&r, None, Some(&key));
        assert_eq!(bundle_layout(&v4), Some(4));
        assert_eq!(
            bundle_readme_in(4, &r, None, Some(&key)).as_deref(),
            Some(v4.as_str())
        );
        let v3 = readme_v3(&r, None);
        let (before, after) = v4.split_once("## Signature\n").unwrap();
        assert_eq!(format!("{before}Bundle layout 3.\n"), v3);
        assert!(after.contains(&format!("- key id: `{key}`")), "{after}");
        assert!(after.contains("`publication.dsse.json`"), "{after}");
        assert!(after.ends_with("Bundle layout 4.\n"), "{after}");
        // Unsigned, a bundle keeps the layout it had.
        assert_eq!(bundle_layout(&bundle_readme(&r, None, None)), Some(2));
    }
}
