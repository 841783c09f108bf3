//! The wave manifest: a TOML file naming the wave, its conditions and its seats.
//!
//! Unknown keys are errors (a misspelt `paralel_sessions` must never be ignored), and every
//! error names the manifest's line. The accounting flag `input_tokens_include_cache_reads` is
//! required: a wave that does not say how its tokens were counted cannot be compared.

use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use crate::diagnostics::{line_of, toml_error};
use crate::error::{Error, Location, Result};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub wave: WaveSection,
    #[serde(default)]
    pub seat: Vec<Spanned<SeatSection>>,
}

/// The fields of [`WaveSection`], as a base manifest of `ingest --from` is checked against
/// them before the wave is built (the whole manifest is then read by serde, which refuses any
/// other).
pub(crate) const WAVE_FIELDS: &[&str] = &[
    "id",
    "suite",
    "started_at",
    "notes",
    "suite_problems",
    "suite_problems_file",
    "load",
    "accounting",
    "budget",
    "provenance",
    "supersedes",
    "canary_problems",
];

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
    pub supersedes: Option<Spanned<String>>,
    /// Problems any working harness solves: a seat that fails one is flagged.
    pub canary_problems: Option<Spanned<Vec<Spanned<String>>>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadSection {
    pub parallel_sessions: Option<Spanned<i64>>,
    pub tool_server_sessions: Option<Spanned<i64>>,
    pub serial_rerun: Option<bool>,
    /// The factor every timeout of the run was scaled by: finite, above 0.
    pub timeout_multiplier: Option<Spanned<f64>>,
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
    /// How people see the seat in tables and charts; the id stays its key. Outside the wave's
    /// content hash.
    pub display_name: Option<Spanned<String>>,
    pub results: Spanned<String>,
    /// The results' format (see `crate::import`); default: by the file's extension.
    pub format: Option<Spanned<String>>,
    /// For a format with several scorers: the one whose value decides Correct.
    pub scorer: Option<Spanned<String>>,
    /// For a format whose tasks come in groups (`lm-eval`): the group read whole from the
    /// run's results file, one wave of all its subtasks.
    pub group: Option<Spanned<String>>,
    /// For a file of several agents' results (`harbor`): the agent whose results are the
    /// seat's, and its model where that agent ran several.
    pub agent: Option<Spanned<String>>,
    pub agent_model: Option<Spanned<String>>,
    /// `"allow"`: keep the seat when its results name another model than `model` (a model
    /// served under another name); by default such a seat is refused.
    pub model_mismatch: Option<Spanned<String>>,
}

/// Where a spanned value sits in the manifest.
pub fn at<T>(path: &Path, text: &str, v: &Spanned<T>, field: &str) -> Location {
    Location::line(path, line_of(text, v.span().start)).field(field)
}

/// Where a key that is not spanned sits in the manifest: the first line that sets `key`
/// (`key = ...`), or the file alone when none does.
pub(crate) fn key_at(path: &Path, text: &str, key: &str, field: &str) -> Location {
    let sets = |l: &str| {
        l.trim_start()
            .strip_prefix(key)
            .is_some_and(|rest| rest.trim_start().starts_with('='))
    };
    match text.lines().position(sets) {
        Some(i) => Location::line(path, i + 1).field(field),
        None => Location::file(path).field(field),
    }
}

/// Parses a manifest's text, turning TOML and shape errors into `file:line: message`.
pub fn parse(path: &Path, text: &str) -> Result<Manifest> {
    toml::from_str(text).map_err(|e| toml_error(path, text, &e))
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
