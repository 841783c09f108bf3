//! The static site: `benchledger site --out DIR`. A leaderboard people can look at.
//!
//! The site is a pure function of what the ledger holds ([`Input`]): [`render`] returns every
//! page as a path and its text, and the command writes them. Nothing is patched; the whole site
//! is made again each time. Pages are HTML built with maud, which escapes every string by
//! default, so a model named `<script>alert(1)</script>` is text on the page; charts are SVG
//! drawn in `chart`, inline in the page. The whole site shares one stylesheet (`style.css`) and
//! one script (`site.js`, which sorts tables, linked only by a page with a table that sorts),
//! allowed by a Content-Security-Policy that lets a page load nothing but the site's own files
//! (`'self'`) and run no inline script (a page with nothing to sort allows no script at all):
//! no fonts, scripts, styles or images are fetched from anywhere else, so the site works from
//! `file://` and from any static host, and a script that escaped the escaping still would not
//! run. Every table is readable without script. A page per problem, of which a site holds
//! thousands, carries nothing but what it shows.
//!
//! Pages: `index.html` (a table of contents, then each suite's latest current wave ranked,
//! suites with the newest latest wave first or as `site.toml` pins them, and the suite's cost–accuracy
//! chart across its current waves; waves with their conditions, withdrawn ones marked; rubrics and their
//! changes; seats; publications with their verification and the chain head), `waves/W.html`
//! (conditions, absolute figures, the cost–accuracy chart with its frontier, the leaderboard
//! under each registered rubric), `seats/S.html` (absolute figures wave over wave, each point
//! annotated with its wave's load), `changes/R-vA-vB.html` (old → new score per seat under a
//! rubric change, scale violations marked) and `publications/N.html` (the published text, its
//! digests and the command that verifies it, beside the text itself as `N.md`), and
//! `how-to-read.html`, every explanation the boards' one-line notes link to, written once.

mod boards;
pub(crate) mod chart;
pub mod config;
mod costs;
mod front;
pub(crate) mod frontier;
mod html;
pub mod load;
mod manual;
mod pages;
mod samples;
pub mod write;

use crate::model::WaveData;
use crate::model::{PublicationRow, WaveRow, WithdrawalRow};
use crate::report::score::RubricInfo;

pub use config::{ATTEMPT_PAGES, AttemptPages, SiteConfig};

/// A wave as the site shows it.
#[derive(Debug, Clone)]
pub struct WaveInput {
    /// The wave's listing row (conditions, counts, content hash).
    pub row: WaveRow,
    pub data: WaveData,
    /// Its first withdrawal, when it is withdrawn or superseded.
    pub withdrawn: Option<WithdrawalRow>,
    /// The price table that filled in `data`'s costs (`site --prices`), when one did: every
    /// page that shows the wave's figures names it.
    pub pricing: Option<crate::prices::Pricing>,
    /// The reviews recorded with it (`review --ingest`): the index says which rules its
    /// submission passed.
    pub reviews: Vec<crate::model::WaveReviewRow>,
}

/// A publication and what verifying it found.
#[derive(Debug, Clone)]
pub struct PublicationInput {
    pub row: PublicationRow,
    /// Empty when it reproduces byte for byte and its link in the chain holds.
    pub problems: Vec<String>,
    /// The withdrawal of its wave, when it was withdrawn.
    pub withdrawn: Option<WithdrawalRow>,
    /// The ids of the keys its signed envelope names, when it is signed (docs/trust.md).
    pub signed_by: Vec<String>,
}

/// Everything the site shows.
#[derive(Debug, Clone)]
pub struct Input {
    /// In listing order (oldest first).
    pub waves: Vec<WaveInput>,
    /// The registered rubrics, in listing order (by name, then version).
    pub rubrics: Vec<RubricInfo>,
    /// When each of `rubrics` was registered (same order): the front page ranks a suite under
    /// the most recently registered rubric that scores its latest wave.
    pub rubric_added_at: Vec<String>,
    /// The rubric the front page ranks every suite under (`site --rubric NAME@VERSION`), when
    /// one is named and it scores the suite's latest wave.
    pub front_rubric: Option<String>,
    /// A wave of at most this many problems gets a page per problem (`site --problem-pages`);
    /// every wave gets its problem × seat matrix.
    pub problem_pages: usize,
    pub publications: Vec<PublicationInput>,
    /// The record hash of the chain's last entry.
    pub head: Option<String>,
    /// How the leaderboards' intervals and rank ranges are drawn (`site` draws them unless told
    /// `--no-ci`); none without. With them, each leaderboard also prints the wave's tie-group
    /// letters. A wave whose suite is too large to resample gets none (a caller that was asked
    /// for intervals refuses it first, with [`crate::stats::check_suite_size`]).
    pub intervals: Option<crate::stats::bootstrap::Settings>,
    /// How the site words a listing's advice (an empty listing, a seat's trials, the tie
    /// groups, the command that prints a leaderboard): a face passes its own words, which name
    /// its commands; by default the library's, which name none.
    pub advice: fn(&crate::report::Advice) -> String,
    /// What `site.toml` declares (`site --config`): the front page's title and description,
    /// pinned and hidden suites, the attempts budget of the problem pages. The default declares
    /// nothing.
    pub config: SiteConfig,
}

/// How many problems a wave may have and still get a page per problem, unless told otherwise.
pub const PROBLEM_PAGES: usize = 2_000;

impl Input {
    /// How many attempts the site's problem pages may show in all: `site.toml`'s
    /// `attempt_pages` (or `site --attempt-pages`), else [`config::ATTEMPT_PAGES`].
    pub fn attempt_pages(&self) -> config::AttemptPages {
        self.config.attempt_pages.unwrap_or(config::ATTEMPT_PAGES)
    }
}

impl Default for Input {
    fn default() -> Input {
        Input {
            waves: Vec::new(),
            rubrics: Vec::new(),
            publications: Vec::new(),
            head: None,
            intervals: None,
            rubric_added_at: Vec::new(),
            front_rubric: None,
            problem_pages: PROBLEM_PAGES,
            advice: |a| a.to_string(),
            config: SiteConfig::default(),
        }
    }
}

/// One file of the site: its path relative to the site's root (`/`-separated, only slugs and
/// names the site chose), and its contents.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    pub path: String,
    pub body: String,
}

/// Every page of the site.
///
/// Every control and bidirectional formatting character in a page's HTML (from a model's name,
/// a wave's notes, a title) is written as the text `\u{…}`, as the terminal shows it, so that
/// no stored string reorders what is printed beside it to pass for another name (issue 34);
/// only the line breaks and tabs of the HTML's own layout stay. Other files (a publication's
/// Markdown, byte for byte as published) are as they are.
///
/// # Example
///
/// ```
/// use std::path::Path;
/// use benchledger_core::{Ledger, import::Quiet, ingest, site};
///
/// # fn main() -> benchledger_core::Result<()> {
/// let wave = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/rca-wave-2/wave.toml");
/// let ledger = Ledger::in_memory()?;
/// ingest::run::manifests(&ledger, &[wave], "2026-12-04T00:00:00Z", &mut Quiet)?;
/// // No intervals drawn, no price table: the site of what the ledger records.
/// let pages = site::render(&site::load::load(&ledger, None, false, None)?);
/// let index = pages.iter().find(|p| p.path == "index.html").unwrap();
/// assert!(index.body.contains("rca-wave-2"));
/// # Ok(())
/// # }
/// ```
pub fn render(input: &Input) -> Vec<Page> {
    let mut pages = pages::all(input);
    for p in &mut pages {
        if p.path.ends_with(".html")
            && let std::borrow::Cow::Owned(shown) =
                crate::text::shown_keeping(&p.body, |c| matches!(c, '\n' | '\t' | '\r'))
        {
            p.body = shown;
        }
    }
    pages
}

/// The file name a stored string gets: itself when it is a slug (letters, digits, `.`, `_`,
/// `-`, starting with a letter or digit: the rule ids are checked with on the way in), else
/// `_` and a digest of it, so that no path is ever built from an unchecked string.
pub fn file_name(s: &str) -> String {
    let slug = s.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
        && s.len() <= 200
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if slug {
        s.to_string()
    } else {
        format!("_{}", &crate::digest::sha256_hex(s.as_bytes())[..16])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_slugs_become_file_names() {
        assert_eq!(file_name("rca-wave-1"), "rca-wave-1");
        for bad in ["../x", "", ".hidden", "a/b", "<script>", "x\0"] {
            let f = file_name(bad);
            assert!(f.starts_with('_') && f.len() == 17, "{bad:?} → {f}");
        }
        assert_ne!(file_name("../x"), file_name("../y"));
    }
}
