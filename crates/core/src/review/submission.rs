//! A submission reviewed from what its caller names: the paths, their format (or the one they
//! plainly are), the rules (a file, registered `NAME@VERSION` or shipped), a claims file, a
//! wave to rank it against and a price table. One library operation, [`submit`], that
//! `benchledger review` and the Python package's `Ledger.review` both call: it reads the
//! files through [`crate::files`]' caps, finds what it needs in the ledger when there is one,
//! never writes, and returns the review with the rules it ran under (which `review --ingest`
//! registers with the waves it lets in).

use std::path::{Path, PathBuf};

use super::{Request, Review, Rules, parse_rules, rules};
use crate::digest::{sha256_hex, short};
use crate::error::{Error, Result};
use crate::files::{self, Cap};
use crate::ingest::Source;
use crate::ingest::files::Files;
use crate::ingest::from::FromOptions;
use crate::ledger::{Ledger, RulesRow};
use crate::model::WaveReviewRow;

/// A rules file, read whole.
pub const RULES: Cap = Cap {
    bytes: 16 * 1024 * 1024,
    what: "a rules file",
    advice: "check the path",
};

/// A claims file, read whole.
pub const CLAIMS: Cap = Cap {
    bytes: 16 * 1024 * 1024,
    what: "a claims file",
    advice: "check the path",
};

/// What a caller names to review a submission (the flags of `benchledger review`).
#[derive(Debug, Clone, Default)]
pub struct Submission {
    /// The submission: files, or directories searched for the format's results files.
    pub paths: Vec<PathBuf>,
    /// Its format, as `ingest --from` names it; `None`: a Harbor job directory or Inspect
    /// logs, told by what the paths hold (`sniff`).
    pub from: Option<String>,
    /// The rules: a file; else `NAME@VERSION` registered in the ledger; else shipped.
    pub rules: String,
    /// A claims file naming the submission's wave and seats.
    pub claims: Option<PathBuf>,
    /// A wave of the ledger to rank the submission against.
    pub against: Option<String>,
    /// A registered price table (`NAME@VERSION`) to recompute costs under.
    pub prices: Option<String>,
    /// What the files cannot say, as for `ingest --from`.
    pub options: FromOptions,
}

/// Rules as a review runs under them: parsed, with their text and its SHA-256.
#[derive(Debug, Clone)]
pub struct LoadedRules {
    pub rules: Rules,
    pub text: String,
    pub sha256: String,
}

impl LoadedRules {
    /// The row registering these rules at `now`.
    pub fn row(&self, now: &str) -> RulesRow {
        RulesRow {
            name: self.rules.name.clone(),
            version: self.rules.version,
            sha256: self.sha256.clone(),
            text: self.text.clone(),
            added_at: now.to_string(),
        }
    }
}

/// A submission reviewed, and the rules it was reviewed under.
#[derive(Debug)]
pub struct Reviewed {
    pub review: Review,
    pub rules: LoadedRules,
}

impl Reviewed {
    /// What `review --ingest` records with the waves it lets in, at `now`: for each wave, its
    /// review and the rules it ran under (registered in the same transaction). Rules that claim
    /// a shipped name with other text are refused ([`shipped_conflict`]; `origin` names them).
    pub fn records(&self, origin: &Path, now: &str) -> Result<Vec<(WaveReviewRow, RulesRow)>> {
        let registered = self.rules.row(now);
        shipped_conflict(origin, &registered)?;
        Ok(self
            .review
            .waves
            .iter()
            .map(|w| {
                (
                    super::recorded(&self.review, &w.wave.id, now),
                    registered.clone(),
                )
            })
            .collect())
    }
}

/// Reviews the submission `s` without writing anything. `ledger` is where registered rules,
/// the `against` wave and the price table are found; without one, the rules must be a file or
/// shipped, and neither `against` nor `prices` can be named.
///
/// # Example
///
/// A Harbor job reviewed under the shipped Terminal-Bench rules, with no ledger: it keeps
/// fewer trials a problem than the rules ask, so it is rejected, and the review says why.
///
/// ```
/// use std::path::Path;
/// use benchledger_core::review::{Verdict, submission};
///
/// # fn main() -> benchledger_core::Result<()> {
/// let job = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/import/harbor/job");
/// let reviewed = submission::submit(
///     None,
///     &submission::Submission {
///         paths: vec![job],
///         rules: "terminal-bench-2@1".into(),
///         ..Default::default()
///     },
/// )?;
/// assert_eq!(reviewed.review.verdict, Verdict::Reject);
/// let trials = reviewed
///     .review
///     .checks
///     .iter()
///     .find(|c| c.rule == "require.trials_per_problem")
///     .unwrap();
/// assert_eq!(trials.verdict, Some(Verdict::Reject));
/// # Ok(())
/// # }
/// ```
pub fn submit(ledger: Option<&Ledger>, s: &Submission) -> Result<Reviewed> {
    let loaded = load_rules(ledger, &s.rules)?;
    let claims = s
        .claims
        .as_deref()
        .map(|p| {
            files::read_text(p, CLAIMS)
                .map(|t| (p.to_path_buf(), t))
                .map_err(|e| Error::io(p, e))
        })
        .transpose()?;
    let need = |flag: &str| -> Result<&Ledger> {
        ledger.ok_or_else(|| {
            Error::Usage(format!(
                "{flag} names something in a ledger, and there is none: create one with \
                 `benchledger init`, or point --db at an existing ledger"
            ))
        })
    };
    let prices = match &s.prices {
        Some(spec) => {
            let l = need("--prices")?;
            let row = crate::registry::price_table_row(l, spec)?;
            Some((crate::registry::parse_price_table(l, &row)?, row.sha256))
        }
        None => None,
    };
    let against = match &s.against {
        Some(id) => Some(need("--against")?.load_wave(id)?),
        None => None,
    };
    let source = Files {
        manifest: s.options.manifest.as_deref().unwrap_or(Path::new("")),
        built: &[],
    };
    let format = match &s.from {
        Some(f) => f.clone(),
        None => sniff(&source, &s.paths)?,
    };
    let request = Request {
        paths: &s.paths,
        format: &format,
        options: s.options.clone(),
        rules: &loaded.rules,
        rules_sha256: &loaded.sha256,
        claims: claims.as_ref().map(|(p, t)| (p.as_path(), t.as_str())),
        prices: prices.as_ref().map(|(t, sha)| (t, sha.as_str())),
        against: against.as_ref(),
    };
    let review = super::review(&source, &request)?;
    Ok(Reviewed {
        review,
        rules: loaded,
    })
}

/// The error a review whose verdict is not `accept` ends in (exit status 1), saying the
/// verdict, how many findings and the rules; `ingested`: whether an ingest was asked for (and
/// so not done). `None` for an accepted submission.
pub fn verdict_error(review: &Review, rules: &Rules, ingest: bool) -> Option<Error> {
    if review.verdict == super::Verdict::Accept {
        return None;
    }
    let findings = review.findings.len();
    Some(Error::CheckFailed(format!(
        "the review's verdict is {}: {findings} finding{} under rules {}@{} (see above){}",
        review.verdict.key(),
        if findings == 1 { "" } else { "s" },
        rules.name,
        rules.version,
        if ingest { "; nothing was ingested" } else { "" }
    )))
}

/// The format of a submission named without one: a Harbor job's directory, or Inspect logs;
/// else an error saying to name it (and what it looks like, when it plainly is another
/// format).
pub(crate) fn sniff(src: &dyn Source, paths: &[PathBuf]) -> Result<String> {
    for p in paths {
        if src.is_file(&p.join("result.json")) && src.is_file(&p.join("config.json")) {
            return Ok("harbor".into());
        }
        let eval = |q: &Path| q.extension().is_some_and(|e| e == "eval");
        if eval(p)
            || src
                .list(p)
                .ok()
                .flatten()
                .is_some_and(|entries| entries.iter().any(|q| eval(q)))
        {
            return Ok("inspect".into());
        }
    }
    let looks = paths
        .iter()
        .find_map(|p| crate::import::sniff::sniff(src, p))
        .map(|f| format!(" (this looks like {f}: use --from {f})"))
        .unwrap_or_default();
    Err(Error::Usage(format!(
        "say which format the submission is in with --from FORMAT{looks}; without it, a review \
         reads a Harbor job directory or Inspect logs (the formats are those of `ingest --from`)"
    )))
}

/// Whether `spec` names rules the ledger may hold (`NAME@VERSION`, with no file at that
/// path): only then does finding them read the ledger.
pub fn names_registered_rules(spec: &str) -> bool {
    crate::registry::split_id(spec).is_some() && !Path::new(spec).exists()
}

/// The rules `spec` names: a file; else `NAME@VERSION` registered in `ledger`; else shipped
/// with benchledger. Their text, and the path errors name.
fn rules_text(ledger: Option<&Ledger>, spec: &str) -> Result<(PathBuf, String)> {
    let path = Path::new(spec);
    let Some((name, version)) = crate::registry::split_id(spec).filter(|_| !path.exists()) else {
        let text = files::read_text(path, RULES).map_err(|e| Error::io(path, e))?;
        return Ok((path.to_path_buf(), text));
    };
    let mut registered = Vec::new();
    if let Some(ledger) = ledger {
        if let Some(row) = ledger.rules_row(name, version)? {
            return Ok((
                PathBuf::from(format!(
                    "rules {spec} registered in {}",
                    ledger.path().display()
                )),
                row.text,
            ));
        }
        registered = ledger.rules_rows()?.iter().map(RulesRow::id).collect();
    }
    if let Some(text) = rules::shipped(name, version) {
        return Ok((
            PathBuf::from(format!("shipped rules {spec}")),
            text.to_string(),
        ));
    }
    let shipped: Vec<String> = rules::SHIPPED
        .iter()
        .map(|(n, v, _)| format!("{n}@{v}"))
        .collect();
    let registered = if registered.is_empty() {
        "none are registered in the ledger".to_string()
    } else {
        format!("the ledger has {}", registered.join(", "))
    };
    Err(Error::Usage(format!(
        "--rules {spec}: no file is at that path, no rules {spec} are registered ({registered}), \
         and none ship with benchledger under that name (they are {}). Register a rules file \
         with `benchledger rules add FILE`, or give its path",
        shipped.join(", ")
    )))
}

/// Reads and parses the rules `spec` names: a file, registered rules, or shipped ones.
pub fn load_rules(ledger: Option<&Ledger>, spec: &str) -> Result<LoadedRules> {
    let (path, text) = rules_text(ledger, spec)?;
    let rules = parse_rules(&path, &text)?;
    Ok(LoadedRules {
        rules,
        sha256: sha256_hex(text.as_bytes()),
        text,
    })
}

/// Rules that claim a shipped name@version with other text: refused, so a name that ships
/// means the same text in every ledger.
pub fn shipped_conflict(origin: &Path, row: &RulesRow) -> Result<()> {
    match rules::shipped(&row.name, row.version) {
        Some(text) if sha256_hex(text.as_bytes()) != row.sha256 => Err(Error::Conflict(format!(
            "{}: rules {} ship with benchledger with other text (sha256 {} shipped, {} \
                 here); give your own rules another name, or a version of their own. Nothing \
                 was registered",
            origin.display(),
            row.id(),
            short(&sha256_hex(text.as_bytes())),
            short(&row.sha256)
        ))),
        _ => Ok(()),
    }
}
