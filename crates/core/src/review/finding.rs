//! What a review found: each finding names the rule it comes from, its verdict, what it is in
//! words, and its evidence (the file, problem, trial, step and a short excerpt), so that a
//! maintainer can go straight to it.

use serde::Serialize;

use super::verdict::Verdict;

/// At most this many pieces of evidence are kept for one finding; the rest are counted.
pub(crate) const EVIDENCE: usize = 20;

/// Where a finding was seen. Every field is optional: a finding about the run's configuration
/// has a file and no trial.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Evidence {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The seat, in a submission of several.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trial: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// A short excerpt, on one line, keys and tokens masked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<String>,
}

impl Evidence {
    pub fn file(file: impl Into<String>) -> Evidence {
        Evidence {
            file: Some(file.into()),
            ..Evidence::default()
        }
    }

    /// "trajectory.json, problem hello-world, trial hello-world__a1B2c3, step 4, line 3".
    pub fn place(&self) -> String {
        let mut parts = Vec::new();
        if let Some(f) = &self.file {
            parts.push(f.clone());
        }
        if let Some(s) = &self.seat {
            parts.push(format!("seat {s}"));
        }
        if let Some(p) = &self.problem {
            parts.push(format!("problem {p}"));
        }
        if let Some(t) = &self.trial {
            parts.push(format!("trial {t}"));
        }
        if let Some(s) = &self.step {
            parts.push(s.clone());
        }
        if let Some(l) = self.line {
            parts.push(format!("line {l}"));
        }
        parts.join(", ")
    }
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// The rule it comes from: `require.trials_per_problem`, `scan.git-history`, `secrets`,
    /// `claims`, `cost`, `integrity`.
    pub rule: String,
    pub verdict: Verdict,
    pub message: String,
    pub evidence: Vec<Evidence>,
    /// Evidence past `EVIDENCE` (20), counted and left out.
    pub more_evidence: u64,
}

impl Finding {
    pub fn new(rule: impl Into<String>, verdict: Verdict, message: impl Into<String>) -> Finding {
        Finding {
            rule: rule.into(),
            verdict,
            message: message.into(),
            evidence: Vec::new(),
            more_evidence: 0,
        }
    }

    /// Adds evidence, keeping the first `EVIDENCE` (20).
    pub fn with(mut self, evidence: impl IntoIterator<Item = Evidence>) -> Finding {
        for e in evidence {
            if self.evidence.len() < EVIDENCE {
                self.evidence.push(e);
            } else {
                self.more_evidence += 1;
            }
        }
        self
    }
}

impl Serialize for Verdict {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.key())
    }
}
