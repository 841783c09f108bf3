//! The price table file: TOML in, a checked [`PriceTable`] out (docs/prices.md).
//!
//! Parsing is strict, as the rubric language's is: an unknown key is an error naming the file,
//! the line and the key; every price is a finite number, 0 or more; a model (with its provider)
//! is priced once; the date is a date. What comes out is plain data the pricing arithmetic can
//! trust.

use serde::Deserialize;
use toml::Spanned;

use crate::diagnostics::{check_slug, line_of, toml_error};
use crate::error::{Error, Location, Result};

/// One model's prices, in USD per million tokens.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelPrice {
    /// The model, exactly as seats record it.
    pub model: String,
    /// When set, the row prices the model only for seats of this provider (and wins over a row
    /// for the model without one).
    pub provider: Option<String>,
    /// New input: input tokens not read from a cache.
    pub input: f64,
    pub output: f64,
    /// Cached reads; `None` when the table does not price them (a cost that needs them is then
    /// unknown, never guessed).
    pub cache_read: Option<f64>,
    /// Cache writes; `None` likewise.
    pub cache_write: Option<f64>,
    /// Line of the `[[model]]` header in the file.
    pub line: usize,
}

impl ModelPrice {
    /// The row as a person names it: `gpt-5`, or `gpt-5 (provider azure)`.
    pub fn label(&self) -> String {
        match &self.provider {
            Some(p) => format!("{} (provider {p})", self.model),
            None => self.model.clone(),
        }
    }
}

/// A parsed, checked price table.
#[derive(Debug, Clone, PartialEq)]
pub struct PriceTable {
    pub name: String,
    pub version: u32,
    /// The day the prices were read, `YYYY-MM-DD`.
    pub date: String,
    /// Where they were read from.
    pub source: String,
    pub description: Option<String>,
    /// In file order.
    pub models: Vec<ModelPrice>,
}

impl PriceTable {
    /// `name@version`.
    pub fn id(&self) -> String {
        format!("{}@{}", self.name, self.version)
    }

    /// The row that prices a seat's model: the row for this model and this provider, else the
    /// row for this model that names no provider. Models and providers match exactly, as
    /// written (no prefix is stripped, no case folded).
    pub(crate) fn lookup(&self, model: &str, provider: &str) -> Option<&ModelPrice> {
        let rows = || self.models.iter().filter(|m| m.model == model);
        rows()
            .find(|m| m.provider.as_deref() == Some(provider))
            .or_else(|| rows().find(|m| m.provider.is_none()))
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTable {
    name: Spanned<String>,
    version: Spanned<i64>,
    date: Spanned<toml::Value>,
    source: Spanned<String>,
    description: Option<String>,
    #[serde(default)]
    model: Vec<Spanned<RawModel>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawModel {
    model: Spanned<String>,
    provider: Option<Spanned<String>>,
    input: Spanned<f64>,
    output: Spanned<f64>,
    cache_read: Option<Spanned<f64>>,
    cache_write: Option<Spanned<f64>>,
}

struct Ctx<'a> {
    path: &'a std::path::Path,
    text: &'a str,
}

impl Ctx<'_> {
    fn at<T>(&self, v: &Spanned<T>, field: &str) -> Location {
        Location::line(self.path, line_of(self.text, v.span().start)).field(field)
    }

    /// A price: a finite number, 0 or more (a negative zero is read as zero).
    fn price(&self, v: &Spanned<f64>, field: &str) -> Result<f64> {
        let x = *v.get_ref();
        if !x.is_finite() {
            return Err(Error::input(
                self.at(v, field),
                format!("expected a finite number of USD per million tokens, got {x}"),
            ));
        }
        if x < 0.0 {
            return Err(Error::input(
                self.at(v, field),
                format!("expected USD per million tokens, 0 or more, got {x}"),
            ));
        }
        Ok(x + 0.0)
    }

    /// A name as seats record it: not empty, no blanks around it (it would never match).
    fn word(&self, v: &Spanned<String>, field: &str) -> Result<String> {
        let s = v.get_ref();
        if s.is_empty() || s.trim() != s {
            return Err(Error::input(
                self.at(v, field),
                format!(
                    "expected the {field} exactly as seats record it, without blanks around it, \
                     got {s:?}"
                ),
            ));
        }
        Ok(s.clone())
    }

    fn version(&self, v: &Spanned<i64>) -> Result<u32> {
        match u32::try_from(*v.get_ref()) {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(Error::input(
                self.at(v, "version"),
                format!("expected a version number, 1 or more, got {}", v.get_ref()),
            )),
        }
    }

    /// `date`: a TOML date (`2026-03-01`, unquoted), without a time.
    fn date(&self, v: &Spanned<toml::Value>) -> Result<String> {
        let expected =
            "expected the day the prices were read, as a date like 2026-03-01 (unquoted)";
        match v.get_ref() {
            toml::Value::Datetime(d)
                if d.date.is_some() && d.time.is_none() && d.offset.is_none() =>
            {
                Ok(d.to_string())
            }
            toml::Value::Datetime(d) => Err(Error::input(
                self.at(v, "date"),
                format!("{expected}, got {d}"),
            )),
            other => Err(Error::input(
                self.at(v, "date"),
                format!("{expected}, got a {}", other.type_str()),
            )),
        }
    }

    fn model(&self, m: &Spanned<RawModel>) -> Result<ModelPrice> {
        let r = m.get_ref();
        let optional = |p: &Option<Spanned<f64>>, field| p.as_ref().map(|p| self.price(p, field));
        Ok(ModelPrice {
            model: self.word(&r.model, "model")?,
            provider: r
                .provider
                .as_ref()
                .map(|p| self.word(p, "provider"))
                .transpose()?,
            input: self.price(&r.input, "input")?,
            output: self.price(&r.output, "output")?,
            cache_read: optional(&r.cache_read, "cache_read").transpose()?,
            cache_write: optional(&r.cache_write, "cache_write").transpose()?,
            line: line_of(self.text, m.span().start),
        })
    }
}

/// Parses a price table's text. `path` is used in error messages only.
///
/// The parts are checked in this order, always, so that of two faults the same one is reported
/// every time: name, version, date, source, then each `[[model]]` in file order.
pub fn parse(path: &std::path::Path, text: &str) -> Result<PriceTable> {
    let raw: RawTable = toml::from_str(text).map_err(|e| toml_error(path, text, &e))?;
    let c = Ctx { path, text };
    let name = raw.name.get_ref().clone();
    check_slug(c.at(&raw.name, "name"), "price table name", &name)?;
    let version = c.version(&raw.version)?;
    let date = c.date(&raw.date)?;
    let source = raw.source.get_ref().trim().to_string();
    if source.chars().any(char::is_control) {
        return Err(Error::input(
            c.at(&raw.source, "source"),
            "write the source on one line, without control characters: every leaderboard priced \
             with the table prints it on a line of its own",
        ));
    }
    if source.is_empty() {
        return Err(Error::input(
            c.at(&raw.source, "source"),
            "say where the prices come from (a provider's price page and the day it was read, \
             an invoice, ...)",
        ));
    }
    let mut models: Vec<ModelPrice> = Vec::with_capacity(raw.model.len());
    for m in &raw.model {
        let price = c.model(m)?;
        if let Some(first) = models
            .iter()
            .find(|o| o.model == price.model && o.provider == price.provider)
        {
            return Err(Error::input(
                Location::line(path, price.line).field("model"),
                format!(
                    "{} is priced twice (first at line {}); price each model once (a row with a \
                     `provider` prices the model for that provider only)",
                    price.label(),
                    first.line
                ),
            ));
        }
        models.push(price);
    }
    if models.is_empty() {
        return Err(Error::input(
            Location::file(path).field("model"),
            "a price table needs at least one [[model]] with its input and output prices",
        ));
    }
    Ok(PriceTable {
        name,
        version,
        date,
        source,
        description: raw.description,
        models,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    const GOOD: &str = r#"name = "list"
version = 2
date = 2026-03-01
source = "provider list prices, read 2026-03-01"

[[model]]
model = "gpt-5"
input = 1.25
output = 10
cache_read = 0.125

[[model]]
model = "gpt-5"
provider = "azure"
input = 1.5
output = 12.0
cache_read = 0.15
cache_write = -0.0
"#;

    fn err(text: &str) -> String {
        parse(Path::new("p.toml"), text).unwrap_err().to_string()
    }

    #[test]
    fn a_good_table_parses_to_its_rows() {
        let t = parse(Path::new("p.toml"), GOOD).unwrap();
        assert_eq!((t.id(), t.date.as_str()), ("list@2".into(), "2026-03-01"));
        assert_eq!(t.models.len(), 2);
        let plain = &t.models[0];
        assert_eq!((plain.input, plain.output), (1.25, 10.0));
        assert_eq!((plain.cache_read, plain.cache_write), (Some(0.125), None));
        assert_eq!(plain.line, 6);
        // A negative zero is read as zero.
        assert!(t.models[1].cache_write.unwrap().is_sign_positive());
        // The provider's own row wins; another provider falls back to the row without one.
        assert_eq!(t.lookup("gpt-5", "azure").unwrap().input, 1.5);
        assert_eq!(t.lookup("gpt-5", "openai").unwrap().input, 1.25);
        // Models match exactly: no prefix stripped, no case folded.
        assert!(t.lookup("openai/gpt-5", "openai").is_none());
        assert!(t.lookup("GPT-5", "openai").is_none());
    }

    #[test]
    fn bad_tables_are_named_by_line_and_field() {
        let with = |from: &str, to: &str| GOOD.replacen(from, to, 1);
        assert_eq!(
            err(&with("output = 10\n", "output = 10\nouput = 3\n")),
            "p.toml:10: field `ouput`: unknown field `ouput`, expected one of `model`, \
             `provider`, `input`, `output`, `cache_read`, `cache_write`"
        );
        assert_eq!(
            err(&with("input = 1.25", "input = -1.25")),
            "p.toml:8: field `input`: expected USD per million tokens, 0 or more, got -1.25"
        );
        assert_eq!(
            err(&with("cache_read = 0.125", "cache_read = nan")),
            "p.toml:10: field `cache_read`: expected a finite number of USD per million \
             tokens, got NaN"
        );
        assert_eq!(
            err(&with("output = 10\n", "output = inf\n")),
            "p.toml:9: field `output`: expected a finite number of USD per million tokens, got \
             inf"
        );
        assert_eq!(
            err(&with("provider = \"azure\"\n", "")),
            "p.toml:12: field `model`: gpt-5 is priced twice (first at line 6); price each \
             model once (a row with a `provider` prices the model for that provider only)"
        );
        assert_eq!(
            err(&with("date = 2026-03-01", "date = \"2026-03-01\"")),
            "p.toml:3: field `date`: expected the day the prices were read, as a date like \
             2026-03-01 (unquoted), got a string"
        );
        assert_eq!(
            err(&with("date = 2026-03-01", "date = 2026-03-01T10:00:00Z")),
            "p.toml:3: field `date`: expected the day the prices were read, as a date like \
             2026-03-01 (unquoted), got 2026-03-01T10:00:00Z"
        );
        assert_eq!(
            err(&with("version = 2", "version = 0")),
            "p.toml:2: field `version`: expected a version number, 1 or more, got 0"
        );
        assert_eq!(
            err(&with("name = \"list\"", "name = \"../list\"")),
            "p.toml:1: field `name`: price table name \"../list\" is not a valid id: use \
             letters, digits, '.', '_' and '-', starting with a letter or digit"
        );
        assert_eq!(
            err(&with("model = \"gpt-5\"", "model = \"gpt-5 \"")),
            "p.toml:7: field `model`: expected the model exactly as seats record it, without \
             blanks around it, got \"gpt-5 \""
        );
        assert!(
            err(&with(
                "source = \"provider list prices, read 2026-03-01\"",
                "source = \" \""
            ))
            .starts_with("p.toml:4: field `source`: say where the prices come from")
        );
        assert!(
            err(&with(
                "source = \"provider list prices, read 2026-03-01\"",
                "source = \"\"\"two\nlines\"\"\""
            ))
            .starts_with("p.toml:4: field `source`: write the source on one line")
        );
        assert_eq!(
            err(&with("input = 1.25\n", "")),
            "p.toml:6: field `input`: missing field `input`"
        );
        let header = GOOD.split("[[model]]").next().unwrap();
        assert_eq!(
            err(header),
            "p.toml: field `model`: a price table needs at least one [[model]] with its input \
             and output prices"
        );
        assert_eq!(
            err(&with("output = 10\n", "output = \"ten\"\n")),
            "p.toml:9: field `output`: expected a number, got the string \"ten\""
        );
    }
}
