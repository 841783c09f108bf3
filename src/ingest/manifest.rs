//! The wave manifest: a TOML file naming the wave, its conditions and its seats.
//!
//! Unknown keys are errors (a misspelt `paralel_sessions` must never be ignored), and every
//! error names the manifest's line. The accounting flag `input_tokens_include_cache_reads` is
//! required: a wave that does not say how its tokens were counted cannot be compared.

use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use crate::error::{Error, Location, Result};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub wave: WaveSection,
    #[serde(default)]
    pub seat: Vec<Spanned<SeatSection>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WaveSection {
    pub id: Spanned<String>,
    pub suite: Spanned<String>,
    pub started_at: Spanned<toml::Value>,
    pub notes: Option<String>,
    pub suite_problems: Option<Spanned<i64>>,
    pub suite_problems_file: Option<Spanned<String>>,
    #[serde(default)]
    pub load: LoadSection,
    pub accounting: Option<Spanned<AccountingSection>>,
    #[serde(default)]
    pub budget: BudgetSection,
    #[serde(default)]
    pub provenance: ProvenanceSection,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadSection {
    pub parallel_sessions: Option<Spanned<i64>>,
    pub tool_server_sessions: Option<Spanned<i64>>,
    pub serial_rerun: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AccountingSection {
    pub input_tokens_include_cache_reads: Option<bool>,
    pub price_source: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BudgetSection {
    pub tokens: Option<Spanned<f64>>,
    pub wall_s: Option<Spanned<f64>>,
    pub cost_usd: Option<Spanned<f64>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProvenanceSection {
    pub harness_version: Option<String>,
    pub producer: Option<String>,
    pub producer_version: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatSection {
    pub id: Spanned<String>,
    pub model: String,
    pub provider: String,
    pub harness: String,
    pub config: Option<String>,
    pub results: Spanned<String>,
}

/// The 1-based line of a byte offset in a text.
pub fn line_of(text: &str, offset: usize) -> usize {
    text[..text.floor_char_boundary(offset.min(text.len()))]
        .bytes()
        .filter(|b| *b == b'\n')
        .count()
        + 1
}

/// Where a spanned value sits in the manifest.
pub fn at<T>(path: &Path, text: &str, v: &Spanned<T>, field: &str) -> Location {
    Location::line(path, line_of(text, v.span().start)).field(field)
}

/// Parses a manifest's text, turning TOML and shape errors into `file:line: message`.
pub fn parse(path: &Path, text: &str) -> Result<Manifest> {
    toml::from_str(text).map_err(|e| toml_error(path, text, &e))
}

/// A TOML deserialisation error as `file:line: message`, with the field named when the message
/// carries it.
pub fn toml_error(path: &Path, text: &str, e: &toml::de::Error) -> Error {
    let at = match e.span() {
        Some(span) => Location::line(path, line_of(text, span.start)),
        None => Location::file(path),
    };
    let message = e.message().trim().to_string();
    // serde says "unknown field `x`, expected one of ..." or "missing field `x`"; name the field
    // in the location too.
    let named = ["unknown field `", "missing field `"]
        .iter()
        .find_map(|p| message.strip_prefix(p))
        .and_then(|r| r.split('`').next());
    if let Some(field) = named {
        return Error::input(at.field(field), message);
    }
    // "invalid type: string \"two\", expected i64" names neither the key nor, in words, what
    // was expected: take the key from the line the value sits on, and say the type plainly.
    if let Some(rest) = message.strip_prefix("invalid type: ")
        && let Some((got, want)) = rest.rsplit_once(", expected ")
    {
        let at = match e.span().and_then(|s| key_on_line(text, s.start)) {
            Some(key) => at.field(key),
            None => at,
        };
        return Error::input(at, format!("expected {}, got {}", plain(want), plain(got)));
    }
    Error::input(at, message)
}

/// The bare key of the `key = value` line holding a byte offset, if that line is one.
fn key_on_line(text: &str, offset: usize) -> Option<&str> {
    let offset = text.floor_char_boundary(offset.min(text.len()));
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let (key, _) = text[start..end].split_once('=')?;
    let key = key.trim();
    let bare = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'));
    bare.then_some(key)
}

/// serde's names for types, in the words of the manifest's documentation.
fn plain(s: &str) -> String {
    match s {
        "i64" | "u64" | "i32" | "u32" => "a whole number".into(),
        "f64" | "f32" => "a number".into(),
        "a boolean" => "true or false".into(),
        "sequence" => "a list".into(),
        "map" => "a table".into(),
        _ => match s.strip_prefix("string ") {
            Some(quoted) => format!("the string {quoted}"),
            None => s.into(),
        },
    }
}

/// Checks a slug: letters, digits, `.`, `_` and `-`, starting with a letter or digit.
pub fn check_slug(at: Location, what: &str, s: &str) -> Result<()> {
    let ok = s.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if ok {
        Ok(())
    } else {
        Err(Error::input(
            at,
            format!(
                "{what} {s:?} is not a valid id: use letters, digits, '.', '_' and '-', \
                 starting with a letter or digit"
            ),
        ))
    }
}

/// Normalises a start time to RFC 3339 in UTC with seconds, e.g. `2026-03-04T10:00:00Z`.
pub fn started_at(path: &Path, text: &str, v: &Spanned<toml::Value>) -> Result<String> {
    let at = at(path, text, v, "started_at");
    let raw = match v.get_ref() {
        toml::Value::Datetime(d) => d.to_string(),
        toml::Value::String(s) => s.clone(),
        other => {
            return Err(Error::input(
                at,
                format!(
                    "expected a date-time with its UTC offset, like 2026-03-04T10:00:00Z, got a {}",
                    other.type_str()
                ),
            ));
        }
    };
    let parsed = chrono::DateTime::parse_from_rfc3339(&raw).map_err(|_| {
        Error::input(
            at,
            format!(
                "{raw:?} is not a date-time with a UTC offset; write it like \
                 2026-03-04T10:00:00Z"
            ),
        )
    })?;
    Ok(parsed
        .with_timezone(&chrono::Utc)
        .to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true))
}
