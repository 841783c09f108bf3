//! The listing of `claims check` (and of the claims a publication carries): each claim's
//! published value, the ledger's, the ledger's at the published precision, the verdict and why;
//! then how many reproduce.

use serde::Serialize;

use super::fields::Fields;
use super::{Cell, Column, Note, Table};
use crate::claims::check::{Checked, Tried, Verdict, cause_label};
use crate::claims::round::{Precision, computed_text, difference_beside_interval, published_text};
use crate::claims::{Claim, ClaimsFile};
use crate::number::{machine, signed};

/// A claims file as a listing names it: where it was read from (none for the claims a
/// publication carries), and what it declares.
pub struct Source<'a> {
    pub label: Option<String>,
    pub file: &'a ClaimsFile,
}

/// How a listing writes the ledger's values (and differences) beside a claim published with an
/// interval rather than decimals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Digits {
    /// Two decimals more than the published value is written with, at most six: for people
    /// reading a check (`claims check`).
    Readable,
    /// Every digit, in the shortest form that reads back as the same number: how the claims
    /// section of a publication has always been written, kept so that every published text
    /// still reproduces byte for byte.
    Frozen,
}

/// One claim, checked, and the file it is in (an index into the sources).
pub struct Row<'a> {
    pub file: usize,
    pub claim: &'a Claim,
    pub checked: Checked,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FileJson {
    /// The path it was read from; null for the claims a publication carries.
    pub file: Option<String>,
    pub name: String,
    pub version: u32,
    pub source: String,
    pub description: Option<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CountsJson {
    pub correct: u64,
    pub of: u64,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CoversJson {
    pub known: u64,
    pub attempts: u64,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CauseJson {
    pub cause: &'static str,
    pub says: String,
    pub reproduces: bool,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TriedJson {
    pub convention: &'static str,
    pub says: String,
    pub computed: f64,
    pub computed_rounded: Vec<String>,
    pub reproduces: bool,
}

impl From<&Tried> for TriedJson {
    fn from(t: &Tried) -> TriedJson {
        TriedJson {
            convention: t.key,
            says: t.says.clone(),
            computed: t.computed,
            computed_rounded: t.rounded.clone(),
            reproduces: t.reproduces,
        }
    }
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ClaimJson {
    /// The claims file it is in (an index into `files`) and its line there.
    pub file: usize,
    pub line: usize,
    pub wave: String,
    pub seat: String,
    pub figure: String,
    /// The publisher's name for the figure, when the claim gives it.
    pub metric: Option<String>,
    pub source: Option<String>,
    pub published: f64,
    pub scale: f64,
    pub decimals: Option<u32>,
    pub tolerance: Option<f64>,
    /// The publisher's own counts, when the claim gives them.
    pub counts: Option<CountsJson>,
    /// The ledger's value in the published scale; null when it cannot be computed.
    pub computed: Option<f64>,
    /// At the published decimals: one value, or two when the ledger's sits at a half.
    pub computed_rounded: Vec<String>,
    /// computed − published.
    pub difference: Option<f64>,
    /// For a sum or a mean: the attempts it covers.
    pub covers: Option<CoversJson>,
    /// `reproduced`, `differs` or `cannot_be_computed`.
    pub verdict: &'static str,
    /// Why it cannot be computed.
    pub reason: Option<String>,
    /// The plausible causes of a difference, nearest first.
    pub causes: Vec<CauseJson>,
    /// Every other convention tried, with its value.
    pub tried: Vec<TriedJson>,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SummaryJson {
    pub claims: u64,
    pub reproduced: u64,
    pub differs: u64,
    pub cannot_be_computed: u64,
}

/// The JSON of `claims check`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ClaimsJson {
    pub files: Vec<FileJson>,
    pub claims: Vec<ClaimJson>,
    pub summary: SummaryJson,
}

/// How many claims got each verdict.
pub fn summary(rows: &[Row<'_>]) -> SummaryJson {
    let n = |v: Verdict| rows.iter().filter(|r| r.checked.verdict == v).count() as u64;
    SummaryJson {
        claims: rows.len() as u64,
        reproduced: n(Verdict::Reproduced),
        differs: n(Verdict::Differs),
        cannot_be_computed: n(Verdict::CannotBeComputed),
    }
}

/// "16 claims: 6 reproduced, 5 differ, 5 cannot be computed."
pub(crate) fn summary_line(s: &SummaryJson) -> String {
    format!(
        "{} claim{}: {} reproduced, {} differ{}, {} cannot be computed.",
        s.claims,
        if s.claims == 1 { "" } else { "s" },
        s.reproduced,
        s.differs,
        if s.differs == 1 { "s" } else { "" },
        s.cannot_be_computed
    )
}

fn difference_text(d: f64, p: Precision, published: f64, digits: Digits) -> String {
    if d.fract() == 0.0 && d.abs() < 1e15 {
        let n = d as i64;
        return if n > 0 {
            format!("+{n}")
        } else {
            n.to_string()
        };
    }
    match p {
        Precision::Decimals(n) => signed(d, n as usize + 2),
        Precision::Tolerance(_) if digits == Digits::Readable => {
            difference_beside_interval(d, published)
        }
        Precision::Tolerance(_) => {
            let m = machine(d);
            if d > 0.0 { format!("+{m}") } else { m }
        }
    }
}

fn tried_text(t: &Tried, c: &Claim) -> String {
    if t.rounded.is_empty() {
        computed_text(t.computed, c.precision, c.value)
    } else {
        t.rounded.join(" or ")
    }
}

/// The plausible cause in a few words, for the table's column.
fn cause_cell(k: &Checked) -> String {
    match k.verdict {
        Verdict::Reproduced => {
            if k.rounded.len() == 2 {
                "at a half".into()
            } else {
                String::new()
            }
        }
        Verdict::Differs if k.causes.is_empty() => "none found".into(),
        Verdict::Differs => {
            let mut labels: Vec<&str> = Vec::new();
            for c in &k.causes {
                let l = cause_label(c.key);
                if !labels.contains(&l) {
                    labels.push(l);
                }
            }
            labels.join(", ")
        }
        Verdict::CannotBeComputed => String::new(),
    }
}

/// Why a claim got its verdict, in sentences: a note under the table (`None` for a claim that
/// reproduces plainly).
fn why(n: usize, c: &Claim, k: &Checked, digits: Digits) -> Option<String> {
    let text = match k.verdict {
        Verdict::Reproduced if k.notes.is_empty() => return None,
        Verdict::Reproduced => format!(": {}", k.notes.join("; ")),
        Verdict::Differs => {
            // Nothing reproduces it: say what was tried first, then what disagrees.
            let mut parts: Vec<String> = Vec::new();
            if !k.causes.iter().any(|c| c.reproduces) {
                parts.push(if k.tried.is_empty() {
                    "no convention tried reproduces it".into()
                } else {
                    format!(
                        "no convention tried reproduces it ({})",
                        k.tried
                            .iter()
                            .map(|t| format!("{}: {}", t.says, tried_text(t, c)))
                            .collect::<Vec<_>>()
                            .join("; ")
                    )
                });
            }
            parts.extend(k.causes.iter().map(|c| c.says.clone()));
            // Only a seat found by the alias table leaves a note on a claim that differs.
            parts.extend(k.notes.iter().cloned());
            format!(
                " by {}: {}",
                difference_text(k.difference.unwrap_or(0.0), c.precision, c.value, digits),
                parts.join("; ")
            )
        }
        Verdict::CannotBeComputed => {
            let mut parts: Vec<String> = k.reason.iter().cloned().collect();
            parts.extend(k.causes.iter().map(|c| c.says.clone()));
            parts.extend(k.notes.iter().cloned());
            format!(": {}", parts.join("; "))
        }
    };
    Some(format!("#{n} {}{text}.", k.verdict.words()))
}

/// The ledger's value beside a published one, as `digits` says.
fn ledger_text(x: f64, p: Precision, published: f64, digits: Digits) -> String {
    match p {
        Precision::Tolerance(_)
            if digits == Digits::Frozen && !(x.fract() == 0.0 && x.abs() < 1e15) =>
        {
            machine(x)
        }
        _ => computed_text(x, p, published),
    }
}

/// The figure as a listing names it: with its scale when it was published scaled.
fn figure_text(c: &Claim) -> String {
    if c.scale == 1.0 {
        c.figure.name()
    } else {
        format!("{} ×{}", c.figure.name(), machine(c.scale))
    }
}

/// The listing's columns, one row a claim numbered from 1, each with its cell.
fn fields<'a, 'r>(digits: Digits) -> Fields<'a, (usize, &'r Row<'r>)> {
    use super::{DETAIL, ESSENTIAL};
    Fields::new()
        .with(Column::num("#", "claim"), |(i, _): &(usize, &Row)| {
            Cell::text(i.to_string())
        })
        .with(Column::machine("file"), |(_, r)| {
            Cell::text(r.file.to_string())
        })
        .with(Column::machine("line"), |(_, r)| {
            Cell::text(r.claim.line.to_string())
        })
        .with(
            Column::text("Wave", "wave").grouped().priority(ESSENTIAL),
            |(_, r)| Cell::text(&r.claim.wave),
        )
        .with(
            Column::text("Seat", "seat").grouped().priority(ESSENTIAL),
            |(_, r)| Cell::text(&r.claim.seat),
        )
        .with(
            Column::text("Figure", "figure").priority(ESSENTIAL),
            |(_, r)| Cell::new(figure_text(r.claim), r.claim.figure.name()),
        )
        .with(Column::machine("scale"), |(_, r)| {
            Cell::text(machine(r.claim.scale))
        })
        .with(
            Column::num("Published", "published").priority(ESSENTIAL),
            |(_, r)| {
                let c = r.claim;
                Cell::new(published_text(c.value, c.precision), machine(c.value))
            },
        )
        .with(
            Column::num("Ledger", "computed").priority(DETAIL),
            move |(_, r)| match r.checked.computed {
                Some(x) => Cell::new(
                    ledger_text(x, r.claim.precision, r.claim.value, digits),
                    machine(x),
                ),
                None => Cell::none(),
            },
        )
        .with(
            Column::num("At published precision", "computed_rounded").priority(DETAIL),
            |(_, r)| {
                if r.checked.rounded.is_empty() {
                    Cell::none()
                } else {
                    Cell::text(r.checked.rounded.join(" or "))
                }
            },
        )
        .with(Column::machine("difference"), |(_, r)| {
            Cell::text(r.checked.difference.map(machine).unwrap_or_default())
        })
        .with(
            Column::text("Verdict", "verdict").priority(ESSENTIAL),
            |(_, r)| Cell::new(r.checked.verdict.words(), r.checked.verdict.key()),
        )
        .with(Column::text("Plausible cause", "cause"), |(_, r)| {
            let k = &r.checked;
            Cell::new(
                cause_cell(k),
                k.causes.iter().map(|c| c.key).collect::<Vec<_>>().join(" "),
            )
        })
}

/// One checked claim as the listing's JSON gives it.
fn claim_json(r: &Row<'_>) -> ClaimJson {
    let (c, k) = (r.claim, &r.checked);
    let (decimals, tolerance) = match c.precision {
        Precision::Decimals(d) => (Some(d), None),
        Precision::Tolerance(t) => (None, Some(t)),
    };
    ClaimJson {
        file: r.file,
        line: c.line,
        wave: c.wave.clone(),
        seat: c.seat.clone(),
        figure: c.figure.name(),
        metric: c.metric.clone(),
        source: c.source.clone(),
        published: c.value,
        scale: c.scale,
        decimals,
        tolerance,
        counts: c.counts.map(|k| CountsJson {
            correct: k.correct,
            of: k.of,
        }),
        computed: k.computed,
        computed_rounded: k.rounded.clone(),
        difference: k.difference,
        covers: k.covers.map(|c| CoversJson {
            known: c.known,
            attempts: c.attempts,
        }),
        verdict: k.verdict.key(),
        reason: k.reason.clone(),
        causes: k
            .causes
            .iter()
            .map(|c| CauseJson {
                cause: c.key,
                says: c.says.clone(),
                reproduces: c.reproduces,
            })
            .collect(),
        tried: k.tried.iter().map(TriedJson::from).collect(),
        notes: k.notes.clone(),
    }
}

/// The listing of checked claims, its values written as `digits` says.
pub fn listing(sources: &[Source<'_>], rows: &[Row<'_>], digits: Digits) -> (Table, ClaimsJson) {
    let numbered: Vec<(usize, &Row<'_>)> =
        rows.iter().enumerate().map(|(i, r)| (i + 1, r)).collect();
    let mut t = fields(digits).table(&numbered);
    for s in sources {
        let from = match &s.label {
            Some(l) => format!(" (from {l})"),
            None => String::new(),
        };
        t.heading
            .push(format!("Claims {}{from}: {}", s.file.id(), s.file.source));
        if let Some(d) = &s.file.description {
            t.heading.push(d.clone());
        }
    }
    let sum = summary(rows);
    t.notes.push(Note::Text(summary_line(&sum)));
    for (i, r) in rows.iter().enumerate() {
        t.notes.extend(
            why(i + 1, r.claim, &r.checked, digits)
                .into_iter()
                .map(Note::Text),
        );
    }
    t.notes.push(
        "Each published number is compared at the precision it was published with: the \
         ledger's value rounded to its decimals (a value at a half rounds either way: Python's \
         round takes it to even, JavaScript's toFixed away from zero), or within its interval \
         (±). A claim that differs names the conventions under which the ledger does reproduce \
         it, nearest first."
            .into(),
    );
    let json = ClaimsJson {
        files: sources
            .iter()
            .map(|s| FileJson {
                file: s.label.clone(),
                name: s.file.name.clone(),
                version: s.file.version,
                source: s.file.source.clone(),
                description: s.file.description.clone(),
            })
            .collect(),
        claims: rows.iter().map(claim_json).collect(),
        summary: sum,
    };
    (t, json)
}
