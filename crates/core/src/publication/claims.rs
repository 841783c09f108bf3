//! The checked claims a publication carries (`publish --claims FILE`), in its published text.
//!
//! They are appended to the published Markdown as a section of their own: the listing of the
//! claims checked against the published wave (under the publication's rubric and price table),
//! then the claims file itself, verbatim (line endings made `\n`, a final newline ensured), in a
//! fenced block. The published text is what the publication record's output hash covers, and
//! what `verify` recomputes and compares byte for byte: a verdict that moved, or a claims text
//! edited, is a difference it reports.
//!
//! The ledger keeps the claims file's text beside the publication (`publication_claims`,
//! [`StoredClaims`]), so `verify` renders the section from what was stored, as `publish` did
//! from the file it was given ([`stored`]); nothing is read back out of the published Markdown.
//! A publication made before the ledger kept them has no such row, and only for it are the
//! claims read back out of its published text (`legacy`). A bundle carries the row too.
//!
//! Why the text is also in the published Markdown: it is already hashed into the chain and
//! compared byte for byte by every verifier, ledger or bundle; a publication without claims is
//! byte for byte what it always was (no format changes, no new hashed field); and a reader of
//! the text sees each claim with its verdict where the leaderboard is.
//!
//! A publication's claims are about its own wave, and a `score:` claim about its own rubric.

use std::collections::BTreeMap;
use std::path::Path;

use crate::claims::check::{WaveCtx, check, seat_missing, seat_of};
use crate::claims::spec::{ClaimsFile, Figure, parse};
use crate::error::{Error, Location, Result};
use crate::model::{StoredClaims, WaveData};
use crate::report;
use crate::report::claims::{Digits, Row, Source, listing};
use crate::rubric::WaveScores;

/// The heading of the section, on a line of its own.
pub(crate) const HEADING: &str = "## Claims checked";

/// A claims file's text as a publication carries it: `\n` line endings, a final newline.
pub(crate) fn normalise(text: &str) -> String {
    let mut s = text.replace("\r\n", "\n");
    if !s.ends_with('\n') {
        s.push('\n');
    }
    s
}

/// Refuses a claim a publication cannot carry: one about another wave, or about another rubric's
/// score, or a seat the wave does not have.
pub(crate) fn check_fits(
    path: &Path,
    file: &ClaimsFile,
    data: &WaveData,
    rubric_id: &str,
) -> Result<()> {
    for c in &file.claims {
        let at = |line: usize, field: &str| Location::line(path, line).field(field);
        if c.wave != data.wave.id {
            return Err(Error::input(
                at(c.lines.wave, "wave"),
                format!(
                    "a publication's claims are about its own wave, {}; this claim is about {}",
                    data.wave.id, c.wave
                ),
            ));
        }
        if let Figure::Score { name, version } = &c.figure
            && format!("{name}@{version}") != rubric_id
        {
            return Err(Error::input(
                at(c.lines.figure, "figure"),
                format!(
                    "a publication's score claims are about its own rubric, {rubric_id}; this \
                     claim is of {}",
                    c.figure.name()
                ),
            ));
        }
        if let Err(fits) = seat_of(data, &c.seat) {
            return Err(Error::input(
                at(c.lines.seat, "seat"),
                seat_missing(data, &c.seat, &fits, false),
            ));
        }
    }
    Ok(())
}

/// The section a publication's text ends with: the claims checked against `data`, then the
/// claims file's (normalised) text.
///
/// In publication format 2 (`html_safe`), the listing's user strings are written with `&`, `<`
/// and `>` as character references (the claims file's own text is fenced, where no renderer
/// reads HTML, and stays as it is, to be read back).
pub fn section(
    file: &ClaimsFile,
    text: &str,
    data: &WaveData,
    rubric_id: &str,
    scores: &WaveScores,
    html_safe: bool,
) -> String {
    let text = normalise(text);
    let scores: BTreeMap<String, WaveScores> = [(rubric_id.to_string(), scores.clone())].into();
    let ctx = WaveCtx {
        data,
        scores: &scores,
        variants: &[],
    };
    let rows: Vec<Row<'_>> = file
        .claims
        .iter()
        .map(|c| Row {
            file: 0,
            claim: c,
            checked: check(c, &ctx),
        })
        .collect();
    let (table, _) = listing(&[Source { label: None, file }], &rows, Digits::Frozen);
    let longest = text
        .lines()
        .map(|l| l.chars().take_while(|c| *c == '~').count())
        .max()
        .unwrap_or(0);
    let fence = "~".repeat(longest.max(3) + 1);
    let (listing, id) = if html_safe {
        (
            report::to_markdown_html_safe(&table),
            report::html_escape(&file.id()),
        )
    } else {
        (report::to_markdown(&table), file.id())
    };
    format!(
        "\n{HEADING}\n\n{listing}\nThe claims file {id}, as published:\n\n{fence}toml\n{text}{fence}\n"
    )
}

/// The claims file text a published text carries, read back out of its Markdown: `None` when
/// it carries none, `Err` when its section is there but the text cannot be read back out of it.
/// Only for a publication made before the ledger kept its claims beside it (`legacy`).
pub fn extract(output: &str) -> Option<std::result::Result<String, String>> {
    let mut lines = output.split('\n');
    lines.by_ref().find(|l| *l == HEADING)?;
    let Some(open) = lines.by_ref().find(|l| {
        l.strip_suffix("toml")
            .is_some_and(|f| f.len() >= 4 && f.chars().all(|c| c == '~'))
    }) else {
        return Some(Err(format!(
            "its text has a \"{HEADING}\" section without the claims file in it"
        )));
    };
    let fence = open.trim_end_matches("toml");
    let mut text = String::new();
    for l in lines {
        if l == fence {
            return Some(Ok(text));
        }
        text.push_str(l);
        text.push('\n');
    }
    Some(Err(format!(
        "its text has a \"{HEADING}\" section whose claims file does not end"
    )))
}

/// The claims a publication carries: the file, checked to fit the publication, and its text.
#[derive(Debug, Clone)]
pub struct Carried {
    pub file: ClaimsFile,
    pub text: String,
}

impl Carried {
    /// The section the published text ends with, the claims checked against `data`.
    pub fn section(
        &self,
        data: &WaveData,
        rubric_id: &str,
        scores: &WaveScores,
        html_safe: bool,
    ) -> String {
        section(&self.file, &self.text, data, rubric_id, scores, html_safe)
    }

    /// The claims file's text as the section quotes it, and as the ledger keeps it beside the
    /// publication.
    pub fn quoted(&self) -> String {
        normalise(&self.text)
    }
}

/// The claims publication `id` carries, for verify, from what the ledger keeps beside it (the
/// published text only for a publication made before it kept them: `legacy`). What keeps them
/// from being read is pushed onto `problems` (and none returned, so the comparison shows the
/// difference too); claims that no longer fit the publication are pushed too, and still carried.
pub fn stored(
    id: i64,
    claims: &StoredClaims,
    published: &str,
    data: &WaveData,
    rubric_id: &str,
    problems: &mut Vec<String>,
) -> Option<Carried> {
    match claims {
        StoredClaims::Unrecorded => legacy(published, data, rubric_id, problems),
        StoredClaims::None => None,
        StoredClaims::Text(text) => {
            let origin = format!("the claims file stored with publication #{id}");
            read(Path::new(&origin), text, data, rubric_id, problems)
        }
    }
}

/// The claims a published text carries, read back out of its Markdown: how a publication made
/// before the ledger kept its claims beside it is verified (see [`stored`]).
pub(crate) fn legacy(
    published: &str,
    data: &WaveData,
    rubric_id: &str,
    problems: &mut Vec<String>,
) -> Option<Carried> {
    let text = match extract(published)? {
        Ok(text) => text,
        Err(problem) => {
            problems.push(format!("its claims cannot be read back: {problem}"));
            return None;
        }
    };
    let origin = Path::new("the claims file of the published text");
    read(origin, &text, data, rubric_id, problems)
}

/// A claims file's text parsed and checked to fit the publication, as [`stored`] says.
fn read(
    origin: &Path,
    text: &str,
    data: &WaveData,
    rubric_id: &str,
    problems: &mut Vec<String>,
) -> Option<Carried> {
    let file = match parse(origin, text) {
        Ok(f) => f,
        Err(e) => {
            problems.push(format!("its claims no longer parse: {e}"));
            return None;
        }
    };
    if let Err(e) = check_fits(origin, &file, data, rubric_id) {
        problems.push(format!("its claims no longer fit the publication: {e}"));
    }
    Some(Carried {
        file,
        text: text.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_claims_text_is_read_back_whatever_it_holds() {
        let text = "name = \"c\"\n# ~~~~toml\nsource = \"~~~~~\"\n";
        let longest = 5;
        let fence = "~".repeat(longest + 1);
        let out = format!("# t\n\n| a |\n\n{HEADING}\n\ntable\n\n{fence}toml\n{text}{fence}\n");
        assert_eq!(extract(&out), Some(Ok(text.to_string())));
        assert_eq!(extract("# t\n\nno claims\n"), None);
        assert!(matches!(
            extract(&format!("{HEADING}\n\n~~~~toml\nx\n")),
            Some(Err(_))
        ));
        assert_eq!(normalise("a\r\nb"), "a\nb\n");
    }
}
