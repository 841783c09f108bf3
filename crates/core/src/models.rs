//! Canonical model ids: the shipped, versioned alias table (`models/aliases.v1.toml`, compiled
//! in). The same model comes under many names — `claude-sonnet-4-5`,
//! `anthropic/claude-sonnet-4.5`, `us.anthropic.claude-sonnet-4-5-20250929-v1:0` — across
//! harnesses, gateways and clouds; the table gives each model one canonical id, its family and
//! its provider, and lists the names known for it.
//!
//! Ingest reads it twice: a results file that names an alias of its seat's model is not a
//! mismatch, and a file that names a model without its provider gets the table's provider.
//! Seats keep the name their files used; the canonical id is said beside it, never instead.
//!
//! A name is looked up whole, ignoring case: as given, after its first `provider/` part, and as
//! its last `/` part; each also without a dated snapshot's suffix (`-20250929`, `-2025-09-29`).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// The table's text, as shipped.
pub(crate) const ALIASES_TEXT: &str = include_str!("../../../models/aliases.v1.toml");

/// The table's file, as `models` names it.
pub(crate) const ALIASES_FILE: &str = "models/aliases.v1.toml";

/// One model of the table.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub canonical: String,
    pub family: String,
    pub provider: String,
    #[serde(default)]
    pub aliases: Vec<String>,
}

/// The alias table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table {
    pub version: u32,
    #[serde(rename = "model")]
    pub models: Vec<Entry>,
    /// Every name (lower case) → its model's index.
    #[serde(skip)]
    names: BTreeMap<String, usize>,
}

impl Table {
    /// Reads a table's text; a name claimed by two models is an error naming both.
    pub fn parse(text: &str) -> std::result::Result<Table, String> {
        let mut t: Table = toml::from_str(text).map_err(|e| e.to_string())?;
        for (i, m) in t.models.iter().enumerate() {
            let own = [
                m.canonical.clone(),
                format!("{}/{}", m.provider, m.canonical),
            ];
            for name in own.iter().chain(&m.aliases) {
                let key = name.to_lowercase();
                match t.names.get(&key) {
                    Some(&j) if j != i => {
                        return Err(format!(
                            "{name:?} is a name of both {} and {}",
                            t.models[j].canonical, m.canonical
                        ));
                    }
                    _ => {
                        t.names.insert(key, i);
                    }
                }
            }
        }
        Ok(t)
    }

    /// The model a name is of, when the table knows it.
    pub fn resolve(&self, name: &str) -> Option<&Entry> {
        let lower = name.trim().to_lowercase();
        let mut candidates = vec![lower.clone()];
        if let Some((_, rest)) = lower.split_once('/') {
            candidates.push(rest.to_string());
        }
        if let Some(last) = lower.rsplit('/').next() {
            candidates.push(last.to_string());
        }
        let undated: Vec<String> = candidates.iter().filter_map(|c| undated(c)).collect();
        candidates.extend(undated);
        candidates
            .iter()
            .find_map(|c| self.names.get(c))
            .map(|&i| &self.models[i])
    }

    /// Whether two names are of one model the table knows.
    pub fn same(&self, a: &str, b: &str) -> bool {
        match (self.resolve(a), self.resolve(b)) {
            (Some(x), Some(y)) => x.canonical == y.canonical,
            _ => false,
        }
    }
}

/// A name without a dated snapshot's suffix (`-20250929` or `-2025-09-29`), when it has one.
fn undated(name: &str) -> Option<String> {
    for len in [9, 11] {
        if name.len() <= len || !name.is_char_boundary(name.len() - len) {
            continue;
        }
        let (head, tail) = name.split_at(name.len() - len);
        let date = &tail[1..];
        let digits: String = date.chars().filter(|c| *c != '-').collect();
        if tail.starts_with('-')
            && digits.len() == 8
            && digits.chars().all(|c| c.is_ascii_digit())
            && (len == 9 || (date.as_bytes()[4] == b'-' && date.as_bytes()[7] == b'-'))
        {
            return Some(head.to_string());
        }
    }
    None
}

/// The shipped table.
pub fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        // The shipped text is checked by this module's tests; a table that does not parse is
        // a build that fails them, never a user's error.
        Table::parse(ALIASES_TEXT).unwrap_or_else(|_| Table {
            version: 0,
            models: Vec::new(),
            names: BTreeMap::new(),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_table_parses_and_no_name_is_of_two_models() {
        let t = Table::parse(ALIASES_TEXT).unwrap();
        assert_eq!(t.version, 1);
        assert_eq!(table().models.len(), t.models.len());
        assert!(t.models.len() >= 10);
    }

    #[test]
    fn bedrock_ids_of_claude_opus_4_6_resolve() {
        // Bedrock names Opus 4.6 without a date: `anthropic.claude-opus-4-6-v1` (Anthropic's
        // model table once printed it with `:0`, which Bedrock refuses), with a region's or
        // the global inference profile's prefix. None resolved before.
        let t = table();
        for name in [
            "anthropic.claude-opus-4-6-v1",
            "anthropic.claude-opus-4-6-v1:0",
            "us.anthropic.claude-opus-4-6-v1",
            "global.anthropic.claude-opus-4-6-v1",
            "bedrock/global.anthropic.claude-opus-4-6-v1",
        ] {
            assert_eq!(
                t.resolve(name).map(|e| e.canonical.as_str()),
                Some("claude-opus-4-6"),
                "{name}"
            );
        }
        for (name, canonical) in [
            (
                "global.anthropic.claude-haiku-4-5-20251001-v1:0",
                "claude-haiku-4-5",
            ),
            (
                "eu.anthropic.claude-sonnet-4-20250514-v1:0",
                "claude-sonnet-4",
            ),
        ] {
            assert_eq!(
                t.resolve(name).map(|e| e.canonical.as_str()),
                Some(canonical)
            );
        }
    }

    #[test]
    fn a_name_resolves_with_or_without_its_provider_in_any_case_and_dated() {
        let t = table();
        for name in [
            "claude-sonnet-4-5",
            "anthropic/claude-sonnet-4-5",
            "anthropic/claude-sonnet-4.5",
            "openrouter/anthropic/claude-sonnet-4.5",
            "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
            "claude-sonnet-4-5-20250929",
            "Claude-Sonnet-4.5",
        ] {
            assert_eq!(
                t.resolve(name).map(|e| e.canonical.as_str()),
                Some("claude-sonnet-4-5"),
                "{name}"
            );
        }
        assert_eq!(t.resolve("claude-opus-4-6").unwrap().provider, "anthropic");
        assert_eq!(t.resolve("gpt-4o-2024-08-06").unwrap().canonical, "gpt-4o");
        assert!(t.resolve("claude-x").is_none());
        assert!(t.same("claude-4-sonnet", "anthropic/claude-sonnet-4"));
        assert!(!t.same("claude-sonnet-4", "claude-sonnet-4-5"));
        assert!(!t.same("claude-x", "claude-x"));
    }

    #[test]
    fn a_name_claimed_by_two_models_is_refused_naming_both() {
        let e = Table::parse(
            "version = 1\n[[model]]\ncanonical = \"a\"\nfamily = \"f\"\nprovider = \"p\"\n\
             aliases = [\"x\"]\n[[model]]\ncanonical = \"b\"\nfamily = \"f\"\nprovider = \"p\"\n\
             aliases = [\"X\"]\n",
        )
        .unwrap_err();
        assert!(e.contains("\"X\" is a name of both a and b"), "{e}");
    }
}
