//! The claims file: TOML in, a checked [`ClaimsFile`] out (docs/claims.md).
//!
//! Parsing is strict, as the rubric language's and the price table's are: an unknown key is an
//! error naming the file, the line and the key; a figure benchledger does not compute is named
//! with the closest one it does; every claim says the precision it was published with, as
//! decimals or as an interval, and its value agrees with that precision. What comes out is
//! plain data the checking can trust.

use serde::Deserialize;
use toml::Spanned;

use super::round::{MAX_DECIMALS, Precision, published_units};
use crate::diagnostics::{check_slug, closest, line_of, toml_error};
use crate::error::{Error, Location, Result};
pub use crate::model::claims::{Claim, ClaimsFile, Counts, Figure, Lines, Measure, SeatFigure};

impl Figure {
    /// Reads a figure's name; `Err` says what was expected.
    pub fn parse(s: &str) -> std::result::Result<Figure, String> {
        if let Some(f) = SeatFigure::ALL.iter().find(|f| f.name() == s) {
            return Ok(Figure::Seat(*f));
        }
        if let Some(m) = Measure::ALL.iter().find(|m| m.name() == s) {
            return Ok(Figure::Mean(*m));
        }
        for (prefix, make) in [
            ("pass_at_k.", Figure::PassAtK as fn(u64) -> Figure),
            ("pass_hat_k.", Figure::PassHatK),
        ] {
            if let Some(k) = s.strip_prefix(prefix) {
                return match digits(k).filter(|k| *k >= 1) {
                    Some(k) => Ok(make(k)),
                    None => Err(format!(
                        "expected {prefix}K with K a whole number of trials, 1 or more (like \
                         {prefix}2), got {s:?}"
                    )),
                };
            }
        }
        if let Some(id) = s.strip_prefix("score:") {
            let parsed = id
                .rsplit_once('@')
                .and_then(|(n, v)| Some((n, digits(v).and_then(|v| u32::try_from(v).ok())?)))
                .filter(|(_, v)| *v >= 1);
            return match parsed {
                Some((name, version)) if !name.is_empty() => Ok(Figure::Score {
                    name: name.into(),
                    version,
                }),
                _ => Err(format!(
                    "expected score:NAME@VERSION, a registered rubric (like \
                     score:session-efficiency@2), got {s:?}"
                )),
            };
        }
        let names = SeatFigure::ALL
            .iter()
            .map(|f| f.name())
            .chain(Measure::ALL.iter().map(|m| m.name()));
        let hint = closest(s, names.clone())
            .map(|c| format!(" (did you mean {c}?)"))
            .unwrap_or_default();
        Err(format!(
            "unknown figure {s:?}{hint}: expected one of {}, pass_at_k.K, pass_hat_k.K or \
             score:NAME@VERSION",
            names.collect::<Vec<_>>().join(", ")
        ))
    }
}

/// A whole number written in plain digits (no sign, no blanks).
fn digits(s: &str) -> Option<u64> {
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    name: Spanned<String>,
    version: Spanned<i64>,
    source: Spanned<String>,
    description: Option<String>,
    #[serde(default)]
    claim: Vec<Spanned<RawClaim>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawClaim {
    wave: Spanned<String>,
    seat: Spanned<String>,
    figure: Spanned<String>,
    value: Spanned<toml::Value>,
    scale: Option<Spanned<toml::Value>>,
    decimals: Option<Spanned<i64>>,
    tolerance: Option<Spanned<toml::Value>>,
    metric: Option<Spanned<String>>,
    correct: Option<Spanned<i64>>,
    of: Option<Spanned<i64>>,
    source: Option<Spanned<String>>,
}

struct Ctx<'a> {
    path: &'a std::path::Path,
    text: &'a str,
}

impl Ctx<'_> {
    fn at<T>(&self, v: &Spanned<T>, field: &str) -> Location {
        Location::line(self.path, line_of(self.text, v.span().start)).field(field)
    }

    /// A number written as an integer or a float: finite.
    fn number(&self, v: &Spanned<toml::Value>, field: &str, expected: &str) -> Result<f64> {
        let x = match v.get_ref() {
            toml::Value::Integer(i) => *i as f64,
            toml::Value::Float(f) => *f,
            other => {
                return Err(Error::input(
                    self.at(v, field),
                    format!("expected {expected}, got a {}", other.type_str()),
                ));
            }
        };
        if !x.is_finite() {
            return Err(Error::input(
                self.at(v, field),
                format!("expected {expected}, got {x}"),
            ));
        }
        Ok(x + 0.0)
    }

    fn text(&self, v: &Spanned<String>, field: &str, what: &str) -> Result<String> {
        let s = v.get_ref();
        if s.trim().is_empty() {
            return Err(Error::input(
                self.at(v, field),
                format!("expected {what}, got an empty text"),
            ));
        }
        Ok(s.clone())
    }

    fn count(&self, v: &Spanned<i64>, field: &str, what: &str) -> Result<u64> {
        u64::try_from(*v.get_ref()).map_err(|_| {
            Error::input(
                self.at(v, field),
                format!("expected {what}, 0 or more, got {}", v.get_ref()),
            )
        })
    }

    fn claim(&self, c: &Spanned<RawClaim>) -> Result<Claim> {
        let line = line_of(self.text, c.span().start);
        let r = c.get_ref();
        check_slug(self.at(&r.wave, "wave"), "wave id", r.wave.get_ref())?;
        // A seat's id, or a name of its model the alias table knows (which may hold `/`, `:`
        // or `@`: `us.anthropic.claude-sonnet-4-5-20250929-v1:0`); `check::seat_of` finds it.
        if crate::models::table().resolve(r.seat.get_ref()).is_none() {
            check_slug(self.at(&r.seat, "seat"), "seat id", r.seat.get_ref())?;
        }
        let figure = Figure::parse(r.figure.get_ref())
            .map_err(|e| Error::input(self.at(&r.figure, "figure"), e))?;
        let value = self.number(&r.value, "value", "the published number")?;
        let scale = self.scale(r)?;
        let precision = self.precision(r, value, line)?;
        let counts = self.counts(r, &figure)?;
        let at = |v: &Spanned<String>| line_of(self.text, v.span().start);
        Ok(Claim {
            line,
            lines: Lines {
                wave: at(&r.wave),
                seat: at(&r.seat),
                figure: at(&r.figure),
            },
            wave: r.wave.get_ref().clone(),
            seat: r.seat.get_ref().clone(),
            figure,
            value,
            scale,
            precision,
            metric: r
                .metric
                .as_ref()
                .map(|m| self.text(m, "metric", "the publisher's name for the figure"))
                .transpose()?,
            counts,
            source: r
                .source
                .as_ref()
                .map(|s| self.text(s, "source", "where the number came from"))
                .transpose()?,
        })
    }

    /// What the figure was multiplied by to be published: 1 unless given, and above 0.
    fn scale(&self, r: &RawClaim) -> Result<f64> {
        Ok(match &r.scale {
            None => 1.0,
            Some(s) => {
                let x = self.number(
                    s,
                    "scale",
                    "what the figure was multiplied by to be published (100 for a percentage)",
                )?;
                if x <= 0.0 {
                    return Err(Error::input(
                        self.at(s, "scale"),
                        format!(
                            "expected what the figure was multiplied by to be published, more \
                             than 0 (100 for a percentage), got {x}"
                        ),
                    ));
                }
                x
            }
        })
    }

    /// The precision the number was published with: its decimals, or an interval around it
    /// (one of the two, and decimals that `value` does not exceed).
    fn precision(&self, r: &RawClaim, value: f64, line: usize) -> Result<Precision> {
        Ok(match (&r.decimals, &r.tolerance) {
            (Some(d), None) => {
                let n = u32::try_from(*d.get_ref())
                    .ok()
                    .filter(|n| *n <= MAX_DECIMALS)
                    .ok_or_else(|| {
                        Error::input(
                            self.at(d, "decimals"),
                            format!(
                                "expected the decimals the number was published with, from 0 to \
                                 {MAX_DECIMALS}, got {}",
                                d.get_ref()
                            ),
                        )
                    })?;
                if published_units(value, n).is_none() {
                    return Err(Error::input(
                        self.at(&r.value, "value"),
                        format!(
                            "{value} has more decimals than the {n} `decimals` says it was \
                             published with: give the number as published, and its decimals"
                        ),
                    ));
                }
                Precision::Decimals(n)
            }
            (None, Some(t)) => {
                let x = self.number(t, "tolerance", "the half-width of an interval, 0 or more")?;
                if x < 0.0 {
                    return Err(Error::input(
                        self.at(t, "tolerance"),
                        format!("expected the half-width of an interval, 0 or more, got {x}"),
                    ));
                }
                Precision::Tolerance(x)
            }
            (Some(d), Some(_)) => {
                return Err(Error::input(
                    self.at(d, "decimals"),
                    "give either `decimals` (the decimals it was published with) or `tolerance` \
                     (an interval around the value), not both",
                ));
            }
            (None, None) => {
                return Err(Error::input(
                    Location::line(self.path, line).field("decimals"),
                    "missing: give the precision the number was published with, `decimals = N`, \
                     or an interval around it, `tolerance = X`",
                ));
            }
        })
    }

    /// A publisher's counts behind an accuracy: `correct` and `of` together, or neither.
    fn counts(&self, r: &RawClaim, figure: &Figure) -> Result<Option<Counts>> {
        Ok(match (&r.correct, &r.of) {
            (None, None) => None,
            (Some(c), Some(o)) => {
                if !figure.is_accuracy() {
                    return Err(Error::input(
                        self.at(c, "correct"),
                        format!(
                            "`correct` and `of` are a publisher's counts behind an accuracy; \
                             this claim is of {}",
                            figure.name()
                        ),
                    ));
                }
                let correct = self.count(c, "correct", "the number Correct")?;
                let of = self.count(o, "of", "the number of problems")?;
                if of == 0 || correct > of {
                    return Err(Error::input(
                        self.at(o, "of"),
                        format!(
                            "expected the number of problems the accuracy is over, at least 1 \
                             and at least `correct` ({correct}), got {of}"
                        ),
                    ));
                }
                Some(Counts { correct, of })
            }
            (Some(c), None) => {
                return Err(Error::input(
                    self.at(c, "of"),
                    "missing: `correct` goes with `of`, the number of problems it is out of",
                ));
            }
            (None, Some(o)) => {
                return Err(Error::input(
                    self.at(o, "correct"),
                    "missing: `of` goes with `correct`, the number Correct",
                ));
            }
        })
    }
}

/// Parses a claims file's text. `path` is used in error messages only.
///
/// The parts are checked in this order, always, so that of two faults the same one is reported
/// every time: name, version, source, then each `[[claim]]` in file order (wave, seat, figure,
/// value, scale, precision, counts, metric, source).
pub fn parse(path: &std::path::Path, text: &str) -> Result<ClaimsFile> {
    let raw: RawFile = toml::from_str(text).map_err(|e| toml_error(path, text, &e))?;
    let c = Ctx { path, text };
    let name = raw.name.get_ref().clone();
    check_slug(c.at(&raw.name, "name"), "claims file name", &name)?;
    let version = match u32::try_from(*raw.version.get_ref()) {
        Ok(n) if n >= 1 => n,
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
    let source = c.text(&raw.source, "source", "where the numbers were published")?;
    if raw.claim.is_empty() {
        return Err(Error::input(
            Location::file(path).field("claim"),
            "no claims: expected at least one [[claim]] with wave, seat, figure, value and its \
             precision",
        ));
    }
    let claims = raw
        .claim
        .iter()
        .map(|cl| c.claim(cl))
        .collect::<Result<Vec<_>>>()?;
    Ok(ClaimsFile {
        name,
        version,
        source,
        description: raw.description,
        claims,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    const HEAD: &str = "name = \"oh\"\nversion = 1\nsource = \"the index\"\n";

    fn claim(body: &str) -> String {
        format!(
            "{HEAD}\n[[claim]]\nwave = \"w\"\nseat = \"s\"\n{body}\n",
            body = body
        )
    }

    fn err(text: &str) -> String {
        parse(Path::new("c.toml"), text).unwrap_err().to_string()
    }

    #[test]
    fn a_claim_reads_with_its_line_and_precision() {
        let f = parse(
            Path::new("c.toml"),
            &claim(
                "figure = \"accuracy\"\nvalue = 76.8\nscale = 100\ndecimals = 1\ncorrect = 384\n\
                 of = 500\nmetric = \"accuracy\"",
            ),
        )
        .unwrap();
        assert_eq!(f.id(), "oh@1");
        let c = &f.claims[0];
        assert_eq!(c.line, 5);
        assert_eq!(c.figure, Figure::Seat(SeatFigure::Accuracy));
        assert_eq!((c.value, c.scale), (76.8, 100.0));
        assert_eq!(c.precision, Precision::Decimals(1));
        assert_eq!(
            c.counts,
            Some(Counts {
                correct: 384,
                of: 500
            })
        );
    }

    #[test]
    fn every_figure_name_reads_back() {
        for f in SeatFigure::ALL {
            assert_eq!(Figure::parse(f.name()), Ok(Figure::Seat(f)));
        }
        for m in Measure::ALL {
            assert_eq!(Figure::parse(m.name()), Ok(Figure::Mean(m)));
        }
        for f in [
            Figure::PassAtK(2),
            Figure::PassHatK(5),
            Figure::Score {
                name: "session-efficiency".into(),
                version: 2,
            },
        ] {
            assert_eq!(Figure::parse(&f.name()), Ok(f));
        }
        assert!(Figure::parse("pass_at_k.0").is_err());
        assert!(Figure::parse("pass_at_k.+2").is_err());
        assert!(Figure::parse("score:x").is_err());
        assert!(Figure::parse("score:@2").is_err());
    }

    #[test]
    fn bad_claims_are_named_by_line_and_field() {
        for (body, says) in [
            (
                "figure = \"acuracy\"\nvalue = 1\ndecimals = 0",
                "c.toml:8: field `figure`: unknown figure \"acuracy\" (did you mean accuracy?)",
            ),
            (
                "figure = \"accuracy\"\nvalue = 76.85\nscale = 100\ndecimals = 1",
                "c.toml:9: field `value`: 76.85 has more decimals than the 1 `decimals` says",
            ),
            (
                "figure = \"accuracy\"\nvalue = 76.8",
                "c.toml:5: field `decimals`: missing: give the precision",
            ),
            (
                "figure = \"accuracy\"\nvalue = 76.8\ndecimals = 1\ntolerance = 0.1",
                "field `decimals`: give either `decimals`",
            ),
            (
                "figure = \"accuracy\"\nvalue = \"76.8\"\ndecimals = 1",
                "c.toml:9: field `value`: expected the published number, got a string",
            ),
            (
                "figure = \"accuracy\"\nvalue = 1\nscale = 0\ndecimals = 1",
                "field `scale`: expected what the figure was multiplied by",
            ),
            (
                "figure = \"accuracy\"\nvalue = 1\ndecimals = 13",
                "field `decimals`: expected the decimals the number was published with, from 0 \
                 to 12, got 13",
            ),
            (
                "figure = \"cost_usd\"\nvalue = 1\ndecimals = 0\ncorrect = 1\nof = 2",
                "field `correct`: `correct` and `of` are a publisher's counts behind an \
                 accuracy; this claim is of cost_usd",
            ),
            (
                "figure = \"accuracy\"\nvalue = 1\ndecimals = 0\ncorrect = 3\nof = 2",
                "field `of`: expected the number of problems the accuracy is over",
            ),
            (
                "figure = \"accuracy\"\nvalue = 1\ndecimals = 0\nwho = 1",
                "field `who`: unknown field `who`",
            ),
            (
                "figure = \"accuracy\"\nvalue = 1\ntolerance = -1",
                "field `tolerance`: expected the half-width of an interval, 0 or more, got -1",
            ),
        ] {
            let e = err(&claim(body));
            assert!(e.contains(says), "{e}\n  should say: {says}");
        }
        assert!(err(HEAD).contains("no claims"));
        assert!(
            err(&claim("figure = \"accuracy\"\nvalue = 1\ndecimals = 0")
                .replace("\"w\"", "\"a b\""))
            .contains("field `wave`: wave id \"a b\" is not a valid id")
        );
    }
}
