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
    /// With `measure = "errors"` or `"mean.errors"`: failures forgiven at the start of each
    /// run of consecutive failing calls to the same tool.
    pub free_retries: u32,
    pub line: usize,
}

impl Penalty {
    /// Whether the penalty counts errors after free retries, from each attempt's trace, rather
    /// than reading its measure.
    #[inline]
    pub(crate) fn forgives_retries(&self) -> bool {
        self.free_retries > 0 && self.measure.base() == Measure::Errors
    }
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
    pub(crate) fn range_words(&self) -> String {
        use crate::number::pretty;
        match (self.min, self.max) {
            (Some(lo), Some(hi)) => format!("{}–{}", pretty(lo), pretty(hi)),
            (Some(lo), None) => format!("from {}", pretty(lo)),
            (None, Some(hi)) => format!("up to {}", pretty(hi)),
            (None, None) => "open".into(),
        }
    }

    /// The scale as a noun after `article` ("a", "its"): "a 0–100 scale", "its scale from 0",
    /// "an open scale".
    pub(crate) fn noun(&self, article: &str) -> String {
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
            let hint = Measure::mean_spelt_otherwise(v.get_ref())
                .map(Measure::name)
                .or_else(|| closest(v.get_ref(), names.clone()))
                .map(|c| format!(" (did you mean `{c}`?)"))
                .unwrap_or_default();
            let (means, sums): (Vec<&str>, Vec<&str>) = names.partition(|n| n.starts_with("mean."));
            Error::input(
                self.at(v, field),
                format!(
                    "unknown measure {:?}{hint}; the measures are: {}; and the mean per attempt \
                     of each sum: {}",
                    v.get_ref(),
                    sums.join(", "),
                    means.join(", ")
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
///
/// Each part is read and checked in turn, always in this order, so that of two faults the same
/// one is reported every time: the top-level keys (name, version, scale, per, multiplier,
/// clamp, missing_score), then the factors, the rule tying `relative` to cohort factors, the
/// penalties, the gates and the tie-breaks.
pub fn parse(path: &std::path::Path, text: &str) -> Result<Rubric> {
    let raw: RawRubric = toml::from_str(text).map_err(|e| toml_error(path, text, &e))?;
    let c = Ctx { path, text };

    let name = raw.name.get_ref().clone();
    check_slug(c.at(&raw.name, "name"), "rubric name", &name)?;
    let version = c.version(&raw.version)?;
    let scale = c.scale(raw.scale.as_ref(), raw.relative)?;
    let per = c.per(raw.per.as_ref())?;
    let multiplier = match &raw.multiplier {
        Some(m) => c.finite(m, "multiplier")?,
        None => 1.0,
    };
    let (clamp_min, clamp_max) = c.clamp(raw.clamp.as_ref())?;
    // The score of a seat that fails a gate, and of a missing problem, unless the rubric says.
    let default_low = scale.min.or(clamp_min).unwrap_or(0.0);
    let missing_score = c.missing_score(raw.missing_score.as_ref(), per, default_low)?;
    let factors = c.factors(&raw.factor, per)?;
    c.relative_matches_factors(raw.relative, &factors)?;
    let penalties = c.penalties(&raw.penalty)?;
    let gates = c.gates(&raw.gate, default_low)?;
    let tie_break = c.tie_breaks(&raw.tie_break)?;

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

/// The parts of [`parse`], one a method: each reads one part of the raw rubric and checks it.
impl Ctx<'_> {
    /// `version`: a whole number, 1 or more.
    fn version(&self, v: &Spanned<i64>) -> Result<u32> {
        match u32::try_from(*v.get_ref()) {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(Error::input(
                self.at(v, "version"),
                format!("expected a version number, 1 or more, got {}", v.get_ref()),
            )),
        }
    }

    /// `scale`: finite ends, `min` below `max`, both ends for an absolute rubric; a relative
    /// rubric may leave it out (open).
    fn scale(&self, s: Option<&Spanned<RawScale>>, relative: bool) -> Result<Scale> {
        let Some(s) = s else {
            if relative {
                return Ok(Scale {
                    min: None,
                    max: None,
                });
            }
            return Err(Error::input(
                Location::file(self.path).field("scale"),
                "missing: declare the scale the score promises, e.g. scale = { min = 0, max = 100 }",
            ));
        };
        let r = s.get_ref();
        for (v, f) in [(r.min, "scale.min"), (r.max, "scale.max")] {
            if let Some(x) = v
                && !x.is_finite()
            {
                return Err(Error::input(self.at(s, f), "expected a finite number"));
            }
        }
        if let (Some(lo), Some(hi)) = (r.min, r.max)
            && lo >= hi
        {
            return Err(Error::input(
                self.at(s, "scale"),
                format!("scale.min ({lo}) must be below scale.max ({hi})"),
            ));
        }
        if !relative && (r.min.is_none() || r.max.is_none()) {
            return Err(Error::input(
                self.at(s, "scale"),
                "an absolute rubric declares both ends of its scale: scale = { min = .., max = .. }",
            ));
        }
        Ok(Scale {
            min: r.min,
            max: r.max,
        })
    }

    /// `per`: "seat" (the default) or "attempt".
    fn per(&self, p: Option<&Spanned<String>>) -> Result<Per> {
        let Some(p) = p else {
            return Ok(Per::Seat);
        };
        match p.get_ref().as_str() {
            "seat" => Ok(Per::Seat),
            "attempt" => Ok(Per::Attempt),
            other => Err(Error::input(
                self.at(p, "per"),
                format!("expected \"seat\" or \"attempt\", got {other:?}"),
            )),
        }
    }

    /// `clamp`: at least one end, finite, `min` not above `max`.
    fn clamp(&self, cl: Option<&Spanned<RawScale>>) -> Result<(Option<f64>, Option<f64>)> {
        let Some(cl) = cl else {
            return Ok((None, None));
        };
        let r = cl.get_ref();
        if r.min.is_none() && r.max.is_none() {
            return Err(Error::input(
                self.at(cl, "clamp"),
                "give clamp.min, clamp.max or both",
            ));
        }
        for (v, f) in [(r.min, "clamp.min"), (r.max, "clamp.max")] {
            if let Some(x) = v
                && !x.is_finite()
            {
                return Err(Error::input(
                    self.at(cl, f),
                    format!("expected a finite number, got {x}"),
                ));
            }
        }
        if let (Some(lo), Some(hi)) = (r.min, r.max)
            && lo > hi
        {
            return Err(Error::input(
                self.at(cl, "clamp"),
                format!("clamp.min ({lo}) is above clamp.max ({hi})"),
            ));
        }
        Ok((r.min, r.max))
    }

    /// `missing_score`: only with `per = "attempt"`; `default_low` when not given.
    fn missing_score(&self, m: Option<&Spanned<f64>>, per: Per, default_low: f64) -> Result<f64> {
        let Some(m) = m else {
            return Ok(default_low);
        };
        if per != Per::Attempt {
            return Err(Error::input(
                self.at(m, "missing_score"),
                "missing_score applies only with per = \"attempt\"; at the seat level a \
                 missing problem already counts as not Correct",
            ));
        }
        self.finite(m, "missing_score")
    }

    /// Every `[[factor]]`: at least one, each named once.
    fn factors(&self, raw: &[Spanned<RawFactor>], per: Per) -> Result<Vec<Factor>> {
        let mut factors = Vec::new();
        let mut names = std::collections::BTreeSet::new();
        for f in raw {
            let line = self.line(f);
            let r = f.get_ref();
            let at_header = Location::line(self.path, line).field("factor");
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
            factors.push(self.factor(r, line, per)?);
        }
        if factors.is_empty() {
            return Err(Error::input(
                Location::file(self.path).field("factor"),
                "a rubric needs at least one [[factor]]",
            ));
        }
        Ok(factors)
    }

    /// One `[[factor]]` whose header is on `line`: measure, role and weight, transform, floor
    /// and cap, exponent.
    fn factor(&self, r: &RawFactor, line: usize, per: Per) -> Result<Factor> {
        let at_header = Location::line(self.path, line).field("factor");
        let measure = self.measure(&r.measure, "measure")?;
        let role = self.role(r.role.as_ref())?;
        let weight = match &r.weight {
            None => 1.0,
            Some(w) => {
                if role == Role::Multiply {
                    return Err(Error::input(
                        self.at(w, "weight"),
                        "a weight belongs to a factor with role = \"add\" or \"divide\"; a \
                         multiplying factor is weighted by its exponent",
                    ));
                }
                self.non_negative(w, "weight")?
            }
        };
        let transform = self.transform(r, &at_header, per)?;
        let floor = r
            .floor
            .as_ref()
            .map(|v| self.finite(v, "floor"))
            .transpose()?;
        let cap = r.cap.as_ref().map(|v| self.finite(v, "cap")).transpose()?;
        if let (Some(lo), Some(hi), Some(cv)) = (floor, cap, &r.cap)
            && lo > hi
        {
            return Err(Error::input(
                self.at(cv, "cap"),
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
                let x = self.finite(e, "exponent")?;
                if x <= 0.0 {
                    return Err(Error::input(
                        self.at(e, "exponent"),
                        format!("expected an exponent above 0, got {x}"),
                    ));
                }
                x
            }
        };
        Ok(Factor {
            name: r.name.clone(),
            measure,
            transform,
            role,
            weight,
            floor,
            cap,
            exponent,
            line,
        })
    }

    /// A factor's `role`: "multiply" (the default), "add" or "divide".
    fn role(&self, v: Option<&Spanned<String>>) -> Result<Role> {
        let Some(v) = v else {
            return Ok(Role::Multiply);
        };
        match v.get_ref().as_str() {
            "multiply" => Ok(Role::Multiply),
            "add" => Ok(Role::Add),
            "divide" => Ok(Role::Divide),
            other => Err(Error::input(
                self.at(v, "role"),
                format!("expected \"multiply\", \"add\" or \"divide\", got {other:?}"),
            )),
        }
    }

    /// A factor's transform: at most one of `allowance`, `expected` + `slope`, `relative_to`.
    fn transform(&self, r: &RawFactor, at_header: &Location, per: Per) -> Result<Transform> {
        match (&r.allowance, &r.expected, &r.slope, &r.relative_to) {
            (None, None, None, None) => Ok(Transform::Value),
            (Some(a), None, None, None) => Ok(Transform::AllowanceRatio(self.allowance(a)?)),
            (None, Some(e), Some(s), None) => Ok(Transform::Linear {
                expected: self.finite(e, "expected")?,
                slope: self.non_negative(s, "slope")?,
            }),
            (None, Some(e), None, None) => Err(Error::input(
                self.at(e, "slope"),
                "an `expected` count needs a `slope`: the value lost per unit past it",
            )),
            (None, None, Some(s), None) => Err(Error::input(
                self.at(s, "expected"),
                "a `slope` needs an `expected` count to fall from",
            )),
            (None, None, None, Some(rt)) => {
                if rt.get_ref() != "median" {
                    return Err(Error::input(
                        self.at(rt, "relative_to"),
                        format!(
                            "expected \"median\" (the median over the wave's seats), got {:?}",
                            rt.get_ref()
                        ),
                    ));
                }
                if per == Per::Attempt {
                    return Err(Error::input(
                        self.at(rt, "relative_to"),
                        "a cohort-relative factor compares seats, so it needs per = \"seat\"",
                    ));
                }
                Ok(Transform::CohortRatio)
            }
            _ => Err(Error::input(
                at_header.clone(),
                format!(
                    "factor {:?} mixes transforms: use one of `allowance`, `expected` + \
                     `slope`, or `relative_to`",
                    r.name
                ),
            )),
        }
    }

    /// `relative = true` exactly when some factor is relative to the wave's median.
    fn relative_matches_factors(&self, relative: bool, factors: &[Factor]) -> Result<()> {
        let has_cohort = factors
            .iter()
            .any(|f| f.transform == Transform::CohortRatio);
        if has_cohort && !relative {
            return Err(Error::input(
                Location::file(self.path).field("relative"),
                "this rubric scores seats relative to their wave's median (relative_to = \"median\"), \
                 so it must say so: add relative = true. A relative score ranks seats inside one \
                 wave and is never compared across waves",
            ));
        }
        if !has_cohort && relative {
            return Err(Error::input(
                Location::file(self.path).field("relative"),
                "relative = true, but no factor is relative to the wave (relative_to = \"median\"); \
                 drop relative = true",
            ));
        }
        Ok(())
    }

    /// Every `[[penalty]]`, each named once.
    fn penalties(&self, raw: &[Spanned<RawPenalty>]) -> Result<Vec<Penalty>> {
        let mut penalties = Vec::new();
        let mut names = std::collections::BTreeSet::new();
        for p in raw {
            let r = p.get_ref();
            if !names.insert(r.name.clone()) {
                return Err(Error::input(
                    Location::line(self.path, self.line(p)).field("penalty"),
                    format!(
                        "two penalties are named {:?}; give each its own name",
                        r.name
                    ),
                ));
            }
            let measure = self.measure(&r.measure, "measure")?;
            let free_retries = match &r.free_retries {
                None => 0,
                Some(n) => {
                    if measure.base() != Measure::Errors {
                        return Err(Error::input(
                            self.at(n, "free_retries"),
                            "free_retries applies to measure = \"errors\" or \"mean.errors\" \
                             only",
                        ));
                    }
                    u32::try_from(*n.get_ref()).map_err(|_| {
                        Error::input(
                            self.at(n, "free_retries"),
                            format!("expected a whole number, 0 or more, got {}", n.get_ref()),
                        )
                    })?
                }
            };
            penalties.push(Penalty {
                name: r.name.clone(),
                measure,
                per_unit: self.non_negative(&r.per_unit, "per_unit")?,
                free_retries,
                line: self.line(p),
            });
        }
        Ok(penalties)
    }

    /// Every `[[gate]]`, each named once, with a `min` or a `max`; a failing seat scores
    /// `default_low` unless the gate gives its own `score`.
    fn gates(&self, raw: &[Spanned<RawGate>], default_low: f64) -> Result<Vec<Gate>> {
        let mut gates = Vec::new();
        let mut names = std::collections::BTreeSet::new();
        for g in raw {
            let r = g.get_ref();
            let line = self.line(g);
            if !names.insert(r.name.clone()) {
                return Err(Error::input(
                    Location::line(self.path, line).field("gate"),
                    format!("two gates are named {:?}; give each its own name", r.name),
                ));
            }
            let measure = self.measure(&r.measure, "measure")?;
            let allowance = r
                .allowance
                .as_ref()
                .map(|a| self.allowance(a))
                .transpose()?;
            let min = r.min.as_ref().map(|v| self.finite(v, "min")).transpose()?;
            let max = r.max.as_ref().map(|v| self.finite(v, "max")).transpose()?;
            if min.is_none() && max.is_none() {
                return Err(Error::input(
                    Location::line(self.path, line).field("gate"),
                    format!("gate {:?} needs a `min` or a `max` to fail against", r.name),
                ));
            }
            let score = match &r.score {
                Some(s) => self.finite(s, "score")?,
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
        Ok(gates)
    }

    /// `tie_break`: measure names, each lower first or, written `-measure`, higher first.
    fn tie_breaks(&self, raw: &[Spanned<String>]) -> Result<Vec<TieBreak>> {
        raw.iter()
            .map(|t| {
                let (name, higher_first) = match t.get_ref().strip_prefix('-') {
                    Some(rest) => (rest.to_string(), true),
                    None => (t.get_ref().clone(), false),
                };
                let spanned = Spanned::new(t.span(), name);
                Ok(TieBreak {
                    measure: self.measure(&spanned, "tie_break")?,
                    higher_first,
                })
            })
            .collect()
    }
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
