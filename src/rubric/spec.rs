//! The rubric language: TOML in, a checked [`Rubric`] out.
//!
//! Parsing is strict. An unknown key is an error naming the file, the line and the key; a
//! measure or allowance that does not exist is an error listing the ones that do; keys that
//! contradict each other (an allowance and an expectation on one factor) are errors. What comes
//! out is plain data the checker and the interpreter can trust.

use serde::Deserialize;
use toml::Spanned;

use super::measure::{ALLOWANCES, Allowance, MEASURES, Measure};
use crate::diagnostics::{check_slug, closest, line_of, toml_error};
use crate::error::{Error, Location, Result};

/// At what level measures are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Per {
    /// Seat totals: the score is computed once per seat.
    Seat,
    /// Each attempt is scored on its own, then the attempt scores are averaged; a declared
    /// problem the seat never attempted scores `missing_score`.
    Attempt,
}

/// How a factor enters the score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Multiplies the score.
    Multiply,
    /// Adds `weight × value` to a weighted sum that multiplies the score.
    Add,
    /// Adds `weight × value` to a weighted sum that divides the score.
    Divide,
}

/// How a measure becomes a factor value, before floor, cap and exponent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Transform {
    /// The measure itself.
    Value,
    /// allowance / measure: above 1 under budget, below 1 over it. A measure of 0 gives the cap.
    AllowanceRatio(Allowance),
    /// 1 − (measure − expected) × slope: 1 at the expected count, falling past it.
    Linear { expected: f64, slope: f64 },
    /// measure / (the median of the measure over the wave's seats): a cohort-relative value.
    CohortRatio,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Factor {
    pub name: String,
    pub measure: Measure,
    pub transform: Transform,
    pub role: Role,
    pub weight: f64,
    pub floor: Option<f64>,
    pub cap: Option<f64>,
    pub exponent: f64,
    /// Line of the `[[factor]]` header in the rubric file.
    pub line: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Penalty {
    pub name: String,
    pub measure: Measure,
    /// Points subtracted from the score per unit of the measure.
    pub per_unit: f64,
    /// With `measure = "errors"`: failures forgiven at the start of each run of consecutive
    /// failing calls to the same tool.
    pub free_retries: u32,
    pub line: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Gate {
    pub name: String,
    pub measure: Measure,
    /// When set, the gate compares measure / allowance instead of the measure.
    pub allowance: Option<Allowance>,
    /// The seat fails the gate when the compared value is below `min`...
    pub min: Option<f64>,
    /// ...or above `max`.
    pub max: Option<f64>,
    /// The score of a seat that fails the gate.
    pub score: f64,
    pub line: usize,
}

/// One tie-break: a seat-level measure, lower first unless `higher_first` (written `-measure`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TieBreak {
    pub measure: Measure,
    pub higher_first: bool,
}

impl TieBreak {
    /// As written in a rubric: `wall_s`, or `-accuracy` for higher first.
    pub fn name(&self) -> String {
        if self.higher_first {
            format!("-{}", self.measure.name())
        } else {
            self.measure.name().to_string()
        }
    }
}

/// A rubric's declared scale. `None` bounds are open.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    pub min: Option<f64>,
    pub max: Option<f64>,
}

impl Scale {
    /// The range in words: "0–100", "from 0", "up to 10", "open".
    pub fn range_words(&self) -> String {
        use super::check::pretty;
        match (self.min, self.max) {
            (Some(lo), Some(hi)) => format!("{}–{}", pretty(lo), pretty(hi)),
            (Some(lo), None) => format!("from {}", pretty(lo)),
            (None, Some(hi)) => format!("up to {}", pretty(hi)),
            (None, None) => "open".into(),
        }
    }

    /// The scale as a noun after `article` ("a", "its"): "a 0–100 scale", "its scale from 0",
    /// "an open scale".
    pub fn noun(&self, article: &str) -> String {
        let range = self.range_words();
        match (self.min, self.max) {
            (Some(_), Some(_)) => format!("{article} {range} scale"),
            (None, None) if article == "a" => "an open scale".into(),
            (None, None) => format!("{article} open scale"),
            _ => format!("{article} scale {range}"),
        }
    }
}

/// A parsed, checked rubric: data for the checker and the interpreter.
#[derive(Debug, Clone, PartialEq)]
pub struct Rubric {
    pub name: String,
    pub version: u32,
    pub description: Option<String>,
    pub relative: bool,
    pub scale: Scale,
    pub per: Per,
    pub multiplier: f64,
    pub clamp_min: Option<f64>,
    pub clamp_max: Option<f64>,
    /// With `per = "attempt"`: the score of a declared problem the seat never attempted.
    pub missing_score: f64,
    pub factors: Vec<Factor>,
    pub penalties: Vec<Penalty>,
    pub gates: Vec<Gate>,
    /// Seat-level measures that order seats whose scores tie, in order.
    pub tie_break: Vec<TieBreak>,
}

impl Rubric {
    /// `name@version`.
    pub fn id(&self) -> String {
        format!("{}@{}", self.name, self.version)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRubric {
    name: Spanned<String>,
    version: Spanned<i64>,
    description: Option<String>,
    #[serde(default)]
    relative: bool,
    scale: Option<Spanned<RawScale>>,
    per: Option<Spanned<String>>,
    multiplier: Option<Spanned<f64>>,
    clamp: Option<Spanned<RawScale>>,
    missing_score: Option<Spanned<f64>>,
    #[serde(default)]
    factor: Vec<Spanned<RawFactor>>,
    #[serde(default)]
    penalty: Vec<Spanned<RawPenalty>>,
    #[serde(default)]
    gate: Vec<Spanned<RawGate>>,
    #[serde(default)]
    tie_break: Vec<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScale {
    min: Option<f64>,
    max: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFactor {
    name: String,
    measure: Spanned<String>,
    role: Option<Spanned<String>>,
    weight: Option<Spanned<f64>>,
    allowance: Option<Spanned<String>>,
    expected: Option<Spanned<f64>>,
    slope: Option<Spanned<f64>>,
    relative_to: Option<Spanned<String>>,
    floor: Option<Spanned<f64>>,
    cap: Option<Spanned<f64>>,
    exponent: Option<Spanned<f64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPenalty {
    name: String,
    measure: Spanned<String>,
    per_unit: Spanned<f64>,
    free_retries: Option<Spanned<i64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGate {
    name: String,
    measure: Spanned<String>,
    allowance: Option<Spanned<String>>,
    min: Option<Spanned<f64>>,
    max: Option<Spanned<f64>>,
    score: Option<Spanned<f64>>,
}

struct Ctx<'a> {
    path: &'a std::path::Path,
    text: &'a str,
}

impl Ctx<'_> {
    fn at<T>(&self, v: &Spanned<T>, field: &str) -> Location {
        Location::line(self.path, line_of(self.text, v.span().start)).field(field)
    }

    fn line<T>(&self, v: &Spanned<T>) -> usize {
        line_of(self.text, v.span().start)
    }

    fn measure(&self, v: &Spanned<String>, field: &str) -> Result<Measure> {
        Measure::parse(v.get_ref()).ok_or_else(|| {
            let names = MEASURES.iter().map(|(n, _, _)| *n);
            let hint = closest(v.get_ref(), names.clone())
                .map(|c| format!(" (did you mean `{c}`?)"))
                .unwrap_or_default();
            Error::input(
                self.at(v, field),
                format!(
                    "unknown measure {:?}{hint}; the measures are: {}",
                    v.get_ref(),
                    names.collect::<Vec<_>>().join(", ")
                ),
            )
        })
    }

    fn allowance(&self, v: &Spanned<String>) -> Result<Allowance> {
        Allowance::parse(v.get_ref()).ok_or_else(|| {
            Error::input(
                self.at(v, "allowance"),
                format!(
                    "unknown allowance {:?}; the allowances are: {}",
                    v.get_ref(),
                    ALLOWANCES
                        .iter()
                        .map(|(n, _)| *n)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })
    }

    fn finite(&self, v: &Spanned<f64>, field: &str) -> Result<f64> {
        let x = *v.get_ref();
        if x.is_finite() {
            Ok(x)
        } else {
            Err(Error::input(
                self.at(v, field),
                format!("expected a finite number, got {x}"),
            ))
        }
    }

    fn non_negative(&self, v: &Spanned<f64>, field: &str) -> Result<f64> {
        let x = self.finite(v, field)?;
        if x >= 0.0 {
            Ok(x)
        } else {
            Err(Error::input(
                self.at(v, field),
                format!("expected a number 0 or more, got {x}"),
            ))
        }
    }
}

/// Parses a rubric's text. `path` is used in error messages only.
pub fn parse(path: &std::path::Path, text: &str) -> Result<Rubric> {
    let raw: RawRubric = toml::from_str(text).map_err(|e| toml_error(path, text, &e))?;
    let c = Ctx { path, text };

    let name = raw.name.get_ref().clone();
    check_slug(c.at(&raw.name, "name"), "rubric name", &name)?;
    let version = match u32::try_from(*raw.version.get_ref()) {
        Ok(v) if v >= 1 => v,
        _ => {
            return Err(Error::input(
                c.at(&raw.version, "version"),
                format!(
                    "expected a version number, 1 or more, got {}",
                    raw.version.get_ref()
                ),
            ));
        }
    };

    let scale = match &raw.scale {
        Some(s) => {
            let r = s.get_ref();
            for (v, f) in [(r.min, "scale.min"), (r.max, "scale.max")] {
                if let Some(x) = v
                    && !x.is_finite()
                {
                    return Err(Error::input(c.at(s, f), "expected a finite number"));
                }
            }
            if let (Some(lo), Some(hi)) = (r.min, r.max)
                && lo >= hi
            {
                return Err(Error::input(
                    c.at(s, "scale"),
                    format!("scale.min ({lo}) must be below scale.max ({hi})"),
                ));
            }
            if !raw.relative && (r.min.is_none() || r.max.is_none()) {
                return Err(Error::input(
                    c.at(s, "scale"),
                    "an absolute rubric declares both ends of its scale: scale = { min = .., max = .. }",
                ));
            }
            Scale {
                min: r.min,
                max: r.max,
            }
        }
        None if raw.relative => Scale {
            min: None,
            max: None,
        },
        None => {
            return Err(Error::input(
                Location::file(path).field("scale"),
                "missing: declare the scale the score promises, e.g. scale = { min = 0, max = 100 }",
            ));
        }
    };

    let per = match &raw.per {
        None => Per::Seat,
        Some(p) => match p.get_ref().as_str() {
            "seat" => Per::Seat,
            "attempt" => Per::Attempt,
            other => {
                return Err(Error::input(
                    c.at(p, "per"),
                    format!("expected \"seat\" or \"attempt\", got {other:?}"),
                ));
            }
        },
    };

    let multiplier = match &raw.multiplier {
        Some(m) => c.finite(m, "multiplier")?,
        None => 1.0,
    };
    let (clamp_min, clamp_max) = match &raw.clamp {
        None => (None, None),
        Some(cl) => {
            let r = cl.get_ref();
            if r.min.is_none() && r.max.is_none() {
                return Err(Error::input(
                    c.at(cl, "clamp"),
                    "give clamp.min, clamp.max or both",
                ));
            }
            for (v, f) in [(r.min, "clamp.min"), (r.max, "clamp.max")] {
                if let Some(x) = v
                    && !x.is_finite()
                {
                    return Err(Error::input(
                        c.at(cl, f),
                        format!("expected a finite number, got {x}"),
                    ));
                }
            }
            if let (Some(lo), Some(hi)) = (r.min, r.max)
                && lo > hi
            {
                return Err(Error::input(
                    c.at(cl, "clamp"),
                    format!("clamp.min ({lo}) is above clamp.max ({hi})"),
                ));
            }
            (r.min, r.max)
        }
    };
    let default_low = scale.min.or(clamp_min).unwrap_or(0.0);
    let missing_score = match &raw.missing_score {
        Some(m) => {
            if per != Per::Attempt {
                return Err(Error::input(
                    c.at(m, "missing_score"),
                    "missing_score applies only with per = \"attempt\"; at the seat level a \
                     missing problem already counts as not Correct",
                ));
            }
            c.finite(m, "missing_score")?
        }
        None => default_low,
    };

    let mut factors = Vec::new();
    let mut names = std::collections::BTreeSet::new();
    for f in &raw.factor {
        let line = c.line(f);
        let r = f.get_ref();
        let at_header = Location::line(path, line).field("factor");
        if r.name.starts_with("penalty.") || r.name.starts_with("gate.") {
            return Err(Error::input(
                at_header,
                format!(
                    "factor name {:?}: names starting with `penalty.` or `gate.` are kept for \
                     penalties and gates in the reported factors",
                    r.name
                ),
            ));
        }
        if !names.insert(r.name.clone()) {
            return Err(Error::input(
                at_header,
                format!("two factors are named {:?}; give each its own name", r.name),
            ));
        }
        let measure = c.measure(&r.measure, "measure")?;
        let role = match &r.role {
            None => Role::Multiply,
            Some(v) => match v.get_ref().as_str() {
                "multiply" => Role::Multiply,
                "add" => Role::Add,
                "divide" => Role::Divide,
                other => {
                    return Err(Error::input(
                        c.at(v, "role"),
                        format!("expected \"multiply\", \"add\" or \"divide\", got {other:?}"),
                    ));
                }
            },
        };
        let weight = match &r.weight {
            None => 1.0,
            Some(w) => {
                if role == Role::Multiply {
                    return Err(Error::input(
                        c.at(w, "weight"),
                        "a weight belongs to a factor with role = \"add\" or \"divide\"; a \
                         multiplying factor is weighted by its exponent",
                    ));
                }
                c.non_negative(w, "weight")?
            }
        };
        let transform = match (&r.allowance, &r.expected, &r.slope, &r.relative_to) {
            (None, None, None, None) => Transform::Value,
            (Some(a), None, None, None) => Transform::AllowanceRatio(c.allowance(a)?),
            (None, Some(e), Some(s), None) => Transform::Linear {
                expected: c.finite(e, "expected")?,
                slope: c.non_negative(s, "slope")?,
            },
            (None, Some(e), None, None) => {
                return Err(Error::input(
                    c.at(e, "slope"),
                    "an `expected` count needs a `slope`: the value lost per unit past it",
                ));
            }
            (None, None, Some(s), None) => {
                return Err(Error::input(
                    c.at(s, "expected"),
                    "a `slope` needs an `expected` count to fall from",
                ));
            }
            (None, None, None, Some(rt)) => {
                if rt.get_ref() != "median" {
                    return Err(Error::input(
                        c.at(rt, "relative_to"),
                        format!(
                            "expected \"median\" (the median over the wave's seats), got {:?}",
                            rt.get_ref()
                        ),
                    ));
                }
                if per == Per::Attempt {
                    return Err(Error::input(
                        c.at(rt, "relative_to"),
                        "a cohort-relative factor compares seats, so it needs per = \"seat\"",
                    ));
                }
                Transform::CohortRatio
            }
            _ => {
                return Err(Error::input(
                    at_header,
                    format!(
                        "factor {:?} mixes transforms: use one of `allowance`, `expected` + \
                         `slope`, or `relative_to`",
                        r.name
                    ),
                ));
            }
        };
        let floor = r.floor.as_ref().map(|v| c.finite(v, "floor")).transpose()?;
        let cap = r.cap.as_ref().map(|v| c.finite(v, "cap")).transpose()?;
        if let (Some(lo), Some(hi), Some(cv)) = (floor, cap, &r.cap)
            && lo > hi
        {
            return Err(Error::input(
                c.at(cv, "cap"),
                format!("floor ({lo}) is above cap ({hi})"),
            ));
        }
        if matches!(transform, Transform::AllowanceRatio(_)) && cap.is_none() {
            return Err(Error::input(
                at_header.field("cap"),
                format!(
                    "factor {:?} divides an allowance by {} and needs a cap: the ratio grows \
                     without bound as the measure approaches 0",
                    r.name,
                    measure.name()
                ),
            ));
        }
        let exponent = match &r.exponent {
            None => 1.0,
            Some(e) => {
                let x = c.finite(e, "exponent")?;
                if x <= 0.0 {
                    return Err(Error::input(
                        c.at(e, "exponent"),
                        format!("expected an exponent above 0, got {x}"),
                    ));
                }
                x
            }
        };
        factors.push(Factor {
            name: r.name.clone(),
            measure,
            transform,
            role,
            weight,
            floor,
            cap,
            exponent,
            line,
        });
    }
    if factors.is_empty() {
        return Err(Error::input(
            Location::file(path).field("factor"),
            "a rubric needs at least one [[factor]]",
        ));
    }
    let has_cohort = factors
        .iter()
        .any(|f| f.transform == Transform::CohortRatio);
    if has_cohort && !raw.relative {
        return Err(Error::input(
            Location::file(path).field("relative"),
            "this rubric scores seats relative to their wave's median (relative_to = \"median\"), \
             so it must say so: add relative = true. A relative score ranks seats inside one \
             wave and is never compared across waves",
        ));
    }
    if !has_cohort && raw.relative {
        return Err(Error::input(
            Location::file(path).field("relative"),
            "relative = true, but no factor is relative to the wave (relative_to = \"median\"); \
             drop relative = true",
        ));
    }

    let mut penalties = Vec::new();
    let mut penalty_names = std::collections::BTreeSet::new();
    for p in &raw.penalty {
        let r = p.get_ref();
        if !penalty_names.insert(r.name.clone()) {
            return Err(Error::input(
                Location::line(path, c.line(p)).field("penalty"),
                format!(
                    "two penalties are named {:?}; give each its own name",
                    r.name
                ),
            ));
        }
        let measure = c.measure(&r.measure, "measure")?;
        let free_retries = match &r.free_retries {
            None => 0,
            Some(n) => {
                if measure != Measure::Errors {
                    return Err(Error::input(
                        c.at(n, "free_retries"),
                        "free_retries applies to measure = \"errors\" only",
                    ));
                }
                u32::try_from(*n.get_ref()).map_err(|_| {
                    Error::input(
                        c.at(n, "free_retries"),
                        format!("expected a whole number, 0 or more, got {}", n.get_ref()),
                    )
                })?
            }
        };
        penalties.push(Penalty {
            name: r.name.clone(),
            measure,
            per_unit: c.non_negative(&r.per_unit, "per_unit")?,
            free_retries,
            line: c.line(p),
        });
    }

    let mut gates = Vec::new();
    let mut gate_names = std::collections::BTreeSet::new();
    for g in &raw.gate {
        let r = g.get_ref();
        let line = c.line(g);
        if !gate_names.insert(r.name.clone()) {
            return Err(Error::input(
                Location::line(path, line).field("gate"),
                format!("two gates are named {:?}; give each its own name", r.name),
            ));
        }
        let measure = c.measure(&r.measure, "measure")?;
        let allowance = r.allowance.as_ref().map(|a| c.allowance(a)).transpose()?;
        let min = r.min.as_ref().map(|v| c.finite(v, "min")).transpose()?;
        let max = r.max.as_ref().map(|v| c.finite(v, "max")).transpose()?;
        if min.is_none() && max.is_none() {
            return Err(Error::input(
                Location::line(path, line).field("gate"),
                format!("gate {:?} needs a `min` or a `max` to fail against", r.name),
            ));
        }
        let score = match &r.score {
            Some(s) => c.finite(s, "score")?,
            None => default_low,
        };
        gates.push(Gate {
            name: r.name.clone(),
            measure,
            allowance,
            min,
            max,
            score,
            line,
        });
    }

    let mut tie_break = Vec::new();
    for t in &raw.tie_break {
        let (name, higher_first) = match t.get_ref().strip_prefix('-') {
            Some(rest) => (rest.to_string(), true),
            None => (t.get_ref().clone(), false),
        };
        let spanned = Spanned::new(t.span(), name);
        tie_break.push(TieBreak {
            measure: c.measure(&spanned, "tie_break")?,
            higher_first,
        });
    }

    Ok(Rubric {
        name,
        version,
        description: raw.description,
        relative: raw.relative,
        scale,
        per,
        multiplier,
        clamp_min,
        clamp_max,
        missing_score,
        factors,
        penalties,
        gates,
        tie_break,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn err(text: &str) -> String {
        parse(Path::new("r.toml"), text).unwrap_err().to_string()
    }

    const HEAD: &str = "name = \"x\"\nversion = 1\nscale = { min = 0, max = 1 }\n";

    #[test]
    fn an_unknown_key_names_file_line_and_key() {
        let e = err(&format!(
            "{HEAD}[[factor]]\nname = \"a\"\nmeasure = \"accuracy\"\ncapp = 1\n"
        ));
        assert!(
            e.starts_with("r.toml:7: field `capp`: unknown field `capp`"),
            "{e}"
        );
    }

    #[test]
    fn an_unknown_measure_suggests_the_closest() {
        let e = err(&format!(
            "{HEAD}[[factor]]\nname = \"a\"\nmeasure = \"wal_s\"\n"
        ));
        assert!(
            e.starts_with(
                "r.toml:6: field `measure`: unknown measure \"wal_s\" (did you mean `wall_s`?)"
            ),
            "{e}"
        );
    }

    #[test]
    fn an_allowance_ratio_needs_a_cap() {
        let e = err(&format!(
            "{HEAD}[[factor]]\nname = \"t\"\nmeasure = \"tokens_total\"\nallowance = \"budget.tokens\"\n"
        ));
        assert!(e.contains("needs a cap"), "{e}");
    }

    #[test]
    fn a_cohort_factor_requires_relative() {
        let e = err(&format!(
            "{HEAD}[[factor]]\nname = \"w\"\nmeasure = \"wall_s\"\nrelative_to = \"median\"\n"
        ));
        assert!(e.contains("add relative = true"), "{e}");
    }
}
