//! `site.toml`: what a maintainer declares about the site (`site --config FILE`), all of it
//! optional. Its title and a short description head the front page; pinned suites lead it, in
//! the order written, before the rest (newest latest wave first); hidden suites get no
//! leaderboard there (their waves are still listed and have their pages); `artifacts` is the
//! base URL where each attempt's origin is published: a problem page's "Came from" links each
//! attempt's file under it (`artifact_link`).
//!
//! ```toml
//! title = "Incident RCA leaderboard"
//! description = "Root-cause analysis of frozen production incidents, rerun every month."
//! pinned = ["grafana-incident-rca"]
//! hidden = ["competitor-prices-csv"]
//! artifacts = "https://example.org/runs/"
//! ```
//!
//! Strict: an unknown key, a value of the wrong type, a suite named twice, or pinned and
//! hidden at once is an error naming the file, the line and the field; so is a suite the
//! ledger does not hold ([`SiteConfig::check`]).

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
        Ok(SiteConfig {
            path: path.to_path_buf(),
            title,
            description,
            pinned,
            hidden,
            artifacts,
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
             hidden = [\"c\"]\nartifacts = \"https://example.org/runs/\"\n",
        )
        .unwrap();
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
