//! `site.toml`: what a maintainer declares about the site (`site --config FILE`), all of it
//! optional. Its title and a short description head the front page; pinned suites lead it, in
//! the order written, before the rest (newest latest wave first); hidden suites get no
//! leaderboard there (their waves are still listed and have their pages); `artifacts` is the
//! base URL where each attempt's origin is published: a problem page's "Came from" links each
//! attempt's file under it (`artifact_link`); `attempt_pages` is how many attempts the site's
//! problem pages may show in all ([`AttemptPages`], by default [`ATTEMPT_PAGES`]; each suite's
//! latest wave gets its problem pages even past it), or `"all"`.
//!
//! ```toml
//! title = "Incident RCA leaderboard"
//! description = "Root-cause analysis of frozen production incidents, rerun every month."
//! pinned = ["grafana-incident-rca"]
//! hidden = ["competitor-prices-csv"]
//! artifacts = "https://example.org/runs/"
//! attempt_pages = 5000
//! ```
//!
//! Strict: an unknown key, a value of the wrong type, a suite named twice, pinned and hidden
//! at once, or an attempts budget that is neither a whole number nor `"all"` is an error naming
//! the file, the line and the field; so is a suite the ledger does not hold
//! ([`SiteConfig::check`]).

use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::diagnostics::{line_of, toml_error};
use crate::error::{Error, Location, Result};

/// What `site.toml` declares. The default declares nothing: suites newest first, every one shown.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SiteConfig {
    /// Where it was read from (for errors found later, against the ledger).
    pub path: PathBuf,
    /// The front page's heading, instead of "Leaderboard".
    pub title: Option<String>,
    /// A paragraph under the heading.
    pub description: Option<String>,
    /// Suites that lead the front page, in this order; each with the line it is written on.
    pub pinned: Vec<(String, usize)>,
    /// Suites left off the front page's leaderboards and contents; each with its line.
    pub hidden: Vec<(String, usize)>,
    /// The base URL under which each attempt's origin is published (parsed and kept; no page
    /// links with it yet).
    pub artifacts: Option<String>,
    /// How many attempts the problem pages may show (`attempt_pages`); `None`: not declared,
    /// so [`ATTEMPT_PAGES`].
    pub attempt_pages: Option<AttemptPages>,
}

/// How many attempts a site's problem pages show in all (issue 31 item 7: at 100 waves × 20
/// seats × 50 problems, a page per problem was 22 of the site's 42 MB). Each suite's latest
/// wave always gets its problem pages (and its attempts count against the budget); then whole
/// waves do, newest first, while the attempts on problem pages stay within the budget. A wave
/// without them keeps its matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttemptPages {
    /// At most this many attempts on problem pages (unless each suite's latest wave alone
    /// holds more).
    Budget(u64),
    /// Every wave gets its problem pages (`"all"`).
    All,
}

/// The attempts budget unless `site.toml` or `site --attempt-pages` says otherwise: five waves
/// of 20 seats × 50 problems, which keeps `bench/site`'s 100 such waves, with intervals, under
/// 20 MB with half a megabyte to spare (bench/README.md, "An attempts budget for problem
/// pages"), and far above any shipped example.
pub const ATTEMPT_PAGES: AttemptPages = AttemptPages::Budget(5_000);

impl AttemptPages {
    /// `N` or `all`, as `site --attempt-pages` and `site.toml`'s `attempt_pages` write it; else
    /// what was expected, in words.
    pub fn parse(s: &str) -> Result<AttemptPages, String> {
        let s = s.trim();
        if s == "all" {
            return Ok(AttemptPages::All);
        }
        s.replace('_', "")
            .parse::<u64>()
            .map(AttemptPages::Budget)
            .map_err(|_| {
                format!(
                    "{s:?} is not an attempts budget: expected a whole number of attempts \
                     (0 or more, such as 10000) or \"all\""
                )
            })
    }
}

impl std::fmt::Display for AttemptPages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AttemptPages::Budget(n) => write!(f, "{}", crate::number::int(*n)),
            AttemptPages::All => f.write_str("all"),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    title: Option<Spanned<String>>,
    description: Option<Spanned<String>>,
    #[serde(default)]
    pinned: Vec<Spanned<String>>,
    #[serde(default)]
    hidden: Vec<Spanned<String>>,
    artifacts: Option<Spanned<String>>,
    attempt_pages: Option<Spanned<toml::Value>>,
}

/// The longest title and description, in characters.
const TITLE_MAX: usize = 120;
const DESCRIPTION_MAX: usize = 1_000;

impl SiteConfig {
    /// Reads `site.toml`'s text (`path` names it in errors).
    pub fn parse(path: &Path, text: &str) -> Result<SiteConfig> {
        let raw: Raw = toml::from_str(text).map_err(|e| toml_error(path, text, &e))?;
        let at = |field: &str, span: std::ops::Range<usize>| {
            Location::line(path, line_of(text, span.start)).field(field)
        };
        let one_line = |field: &str, v: &Spanned<String>, max: usize| -> Result<String> {
            let s = v.get_ref().trim();
            if s.is_empty() {
                return Err(Error::input(
                    at(field, v.span()),
                    "is empty: leave the key out instead",
                ));
            }
            if s.chars().count() > max {
                return Err(Error::input(
                    at(field, v.span()),
                    format!("is {} characters long; at most {max}", s.chars().count()),
                ));
            }
            if s.chars()
                .any(|c| c.is_control() && (field == "title" || c != '\n'))
            {
                return Err(Error::input(
                    at(field, v.span()),
                    "holds a control character (a title is one line)",
                ));
            }
            Ok(s.to_string())
        };
        let title = raw
            .title
            .as_ref()
            .map(|v| one_line("title", v, TITLE_MAX))
            .transpose()?;
        let description = raw
            .description
            .as_ref()
            .map(|v| one_line("description", v, DESCRIPTION_MAX))
            .transpose()?;
        let suites = |field: &str, list: &[Spanned<String>]| -> Result<Vec<(String, usize)>> {
            let mut out: Vec<(String, usize)> = Vec::new();
            for v in list {
                let line = line_of(text, v.span().start);
                let name = v.get_ref();
                if name.trim().is_empty() {
                    return Err(Error::input(at(field, v.span()), "an empty suite name"));
                }
                if let Some((_, first)) = out.iter().find(|(s, _)| s == name) {
                    return Err(Error::input(
                        at(field, v.span()),
                        format!("suite {name:?} is named twice (first on line {first})"),
                    ));
                }
                out.push((name.clone(), line));
            }
            Ok(out)
        };
        let pinned = suites("pinned", &raw.pinned)?;
        let hidden = suites("hidden", &raw.hidden)?;
        if let Some((name, line)) = hidden
            .iter()
            .find(|(h, _)| pinned.iter().any(|(p, _)| p == h))
        {
            return Err(Error::input(
                Location::line(path, *line).field("hidden"),
                format!("suite {name:?} is both pinned and hidden: name it in one list only"),
            ));
        }
        let artifacts = match &raw.artifacts {
            None => None,
            Some(v) => Some(
                base_url(v.get_ref())
                    .map_err(|why| Error::input(at("artifacts", v.span()), why))?,
            ),
        };
        let attempt_pages = match &raw.attempt_pages {
            None => None,
            Some(v) => Some(
                attempt_budget(v.get_ref())
                    .map_err(|why| Error::input(at("attempt_pages", v.span()), why))?,
            ),
        };
        Ok(SiteConfig {
            path: path.to_path_buf(),
            title,
            description,
            pinned,
            hidden,
            artifacts,
            attempt_pages,
        })
    }

    /// Refuses a pinned or hidden suite the ledger does not hold (`suites`), naming its line
    /// and the suites there are.
    pub fn check<'a>(&self, suites: impl IntoIterator<Item = &'a str> + Clone) -> Result<()> {
        for (field, list) in [("pinned", &self.pinned), ("hidden", &self.hidden)] {
            for (name, line) in list {
                if !suites.clone().into_iter().any(|s| s == name) {
                    let mut known: Vec<&str> = suites.clone().into_iter().collect();
                    known.sort_unstable();
                    known.dedup();
                    return Err(Error::input(
                        Location::line(&self.path, *line).field(field),
                        format!(
                            "the ledger holds no suite {name:?} (its suites: {})",
                            if known.is_empty() {
                                "none".to_string()
                            } else {
                                known.join(", ")
                            }
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Whether the front page leaves this suite out.
    pub fn hides(&self, suite: &str) -> bool {
        self.hidden.iter().any(|(s, _)| s == suite)
    }

    /// Where the front page puts a pinned suite (its place in `pinned`), if it is pinned.
    pub fn pin(&self, suite: &str) -> Option<usize> {
        self.pinned.iter().position(|(s, _)| s == suite)
    }
}

/// `site.toml`'s `attempt_pages`: a whole number of attempts, 0 or more, or the string
/// `"all"`; else what was expected, in words.
fn attempt_budget(v: &toml::Value) -> Result<AttemptPages, String> {
    let expected = "expected a whole number of attempts (0 or more, such as 10000) or \"all\"";
    match v {
        toml::Value::Integer(n) => u64::try_from(*n)
            .map(AttemptPages::Budget)
            .map_err(|_| format!("is {n}: {expected}")),
        toml::Value::String(s) if s == "all" => Ok(AttemptPages::All),
        toml::Value::String(s) => Err(format!("is {s:?}: {expected}")),
        other => Err(format!("is a {} ({other}): {expected}", other.type_str())),
    }
}

/// `url` as an artifacts base (`site.toml`'s `artifacts`, `site --artifacts`): http:// or
/// https://, with no white space, control character or quote; else why not, in words.
pub fn base_url(url: &str) -> Result<String, String> {
    let url = url.trim();
    let scheme = url.starts_with("https://") || url.starts_with("http://");
    if !scheme
        || url.len() <= "https://".len()
        || url
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || "\"'<>`".contains(c))
    {
        return Err(format!(
            "{url:?} is not a base URL: expected http:// or https:// and no spaces or quotes, \
             such as \"https://example.org/runs/\""
        ));
    }
    Ok(url.to_string())
}

/// Where an attempt's origin `file` (relative to the manifest, `/`-separated) is published
/// under the artifacts `base`: each segment percent-encoded but for letters, digits and
/// `-._~`. `None` for a file that is not below the base (absolute, or climbing with `..`).
pub(crate) fn artifact_link(base: &str, file: &str) -> Option<String> {
    if file.starts_with('/') || file.split('/').any(|s| s == ".." || s.is_empty()) {
        return None;
    }
    let mut out = base.to_string();
    if !out.ends_with('/') {
        out.push('/');
    }
    for (k, segment) in file.split('/').enumerate() {
        if k > 0 {
            out.push('/');
        }
        for b in segment.bytes() {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                out.push(char::from(b));
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<SiteConfig> {
        SiteConfig::parse(Path::new("site.toml"), text)
    }

    fn error(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn every_key_is_read() {
        let c = parse(
            "title = \"RCA\"\ndescription = \"Monthly.\"\npinned = [\"b\", \"a\"]\n\
             hidden = [\"c\"]\nartifacts = \"https://example.org/runs/\"\n\
             attempt_pages = 2_500\n",
        )
        .unwrap();
        assert_eq!(c.attempt_pages, Some(AttemptPages::Budget(2_500)));
        assert_eq!(c.title.as_deref(), Some("RCA"));
        assert_eq!(c.description.as_deref(), Some("Monthly."));
        assert_eq!(c.pinned, [("b".to_string(), 3), ("a".to_string(), 3)]);
        assert_eq!(c.hidden, [("c".to_string(), 4)]);
        assert_eq!(c.artifacts.as_deref(), Some("https://example.org/runs/"));
        assert_eq!(c.pin("a"), Some(1));
        assert!(c.hides("c") && !c.hides("a"));
        assert_eq!(
            parse("").unwrap(),
            SiteConfig {
                path: "site.toml".into(),
                ..SiteConfig::default()
            }
        );
    }

    /// Each mistake names the file, the line and the field.
    #[test]
    fn bad_input_names_file_line_and_field() {
        for (text, want) in [
            (
                "title = \"x\"\ntitel = \"y\"\n",
                "site.toml:2: field `titel`: unknown field",
            ),
            ("pinned = \"a\"\n", "site.toml:1: field `pinned`:"),
            ("title = \"\"\n", "site.toml:1: field `title`: is empty"),
            (
                "title = \"a\\nb\"\n",
                "site.toml:1: field `title`: holds a control character",
            ),
            (
                "pinned = [\"a\",\n  \"a\"]\n",
                "site.toml:2: field `pinned`: suite \"a\" is named twice (first on line 1)",
            ),
            (
                "pinned = [\"a\"]\nhidden = [\"a\"]\n",
                "site.toml:2: field `hidden`: suite \"a\" is both pinned and hidden",
            ),
            (
                "\n\nartifacts = \"ftp://x/\"\n",
                "site.toml:3: field `artifacts`: \"ftp://x/\" is not a base URL",
            ),
            (
                "artifacts = \"https://a b/\"\n",
                "site.toml:1: field `artifacts`:",
            ),
        ] {
            let e = error(text);
            assert!(e.starts_with(want), "{text:?}: {e}");
        }
    }

    /// `attempt_pages`: a whole number of attempts or "all"; anything else names the file, the
    /// line and the field, and what was expected.
    #[test]
    fn the_attempt_budget_is_a_whole_number_or_all() {
        assert_eq!(
            parse("attempt_pages = 0\n").unwrap().attempt_pages,
            Some(AttemptPages::Budget(0))
        );
        assert_eq!(
            parse("attempt_pages = \"all\"\n").unwrap().attempt_pages,
            Some(AttemptPages::All)
        );
        assert_eq!(parse("").unwrap().attempt_pages, None);
        let expected = "expected a whole number of attempts (0 or more, such as 10000) or \"all\"";
        for (text, want) in [
            (
                "title = \"x\"\n\nattempt_pages = -1\n",
                format!("site.toml:3: field `attempt_pages`: is -1: {expected}"),
            ),
            (
                "attempt_pages = \"every\"\n",
                format!("site.toml:1: field `attempt_pages`: is \"every\": {expected}"),
            ),
            (
                "attempt_pages = 1.5\n",
                format!("site.toml:1: field `attempt_pages`: is a float (1.5): {expected}"),
            ),
            (
                "attempt_pages = true\n",
                format!("site.toml:1: field `attempt_pages`: is a boolean (true): {expected}"),
            ),
        ] {
            let e = error(text);
            assert!(e.starts_with(&want), "{text:?}: {e}");
        }
        assert_eq!(AttemptPages::parse("all"), Ok(AttemptPages::All));
        assert_eq!(
            AttemptPages::parse("10_000"),
            Ok(AttemptPages::Budget(10_000))
        );
        assert!(AttemptPages::parse("-3").unwrap_err().contains(expected));
        assert_eq!(ATTEMPT_PAGES.to_string(), "5,000");
    }

    #[test]
    fn a_suite_the_ledger_does_not_hold_is_refused_by_its_line() {
        let c = parse("pinned = [\"a\"]\n\nhidden = [\"zz\"]\n").unwrap();
        assert!(c.check(["a", "b"].iter().copied()).is_err());
        let e = c.check(["a", "b"].iter().copied()).unwrap_err().to_string();
        assert!(
            e.starts_with(
                "site.toml:3: field `hidden`: the ledger holds no suite \"zz\" (its suites: a, b)"
            ),
            "{e}"
        );
        assert!(c.check(["a", "zz"].iter().copied()).is_ok());
    }

    #[test]
    fn an_origin_links_under_the_base_each_segment_encoded_and_never_above_it() {
        assert_eq!(
            artifact_link("https://example.org/runs", "tb/run 1/hello#world/").as_deref(),
            None,
            "an empty segment"
        );
        assert_eq!(
            artifact_link("https://example.org/runs/", "tb/run 1/hello#wörld").as_deref(),
            Some("https://example.org/runs/tb/run%201/hello%23w%C3%B6rld")
        );
        assert_eq!(
            artifact_link("https://example.org/runs", "logs/a.eval").as_deref(),
            Some("https://example.org/runs/logs/a.eval")
        );
        assert_eq!(artifact_link("https://x.org/", "../outside/a.json"), None);
        assert_eq!(artifact_link("https://x.org/", "/abs/a.json"), None);
        assert!(base_url("javascript:alert(1)").is_err());
        assert!(base_url("https://a b/").is_err());
    }
}
