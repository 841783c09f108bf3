//! Result files: one attempt a line (JSONL), or a CSV with the same column names.
//!
//! Every field is checked by name, so an error can say which field of which line is wrong and
//! what was expected: a misspelt key is an error (never silently ignored), a string where a
//! number belongs is an error, a negative count, a count above a trillion ([`MAX_COUNT`]), a NaN
//! or an infinity is an error. A field that
//! is left out (or `null`, or an empty CSV cell) is *unknown*, never zero.

use std::io::BufRead;
use std::path::Path;

use serde_json::{Map, Value};

use super::Source;
use crate::diagnostics::closest;
use crate::error::{Error, Location, Result};
use crate::model::{Attempt, ChecklistItem, TraceStep};

/// One parsed attempt with the line it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub line: usize,
    pub attempt: Attempt,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Text,
    Bool,
    Count,
    Trial,
    Amount,
    Fraction,
    Checklist,
    Trace,
}

/// The fields a result line may carry, and what each must hold.
const FIELDS: &[(&str, Kind)] = &[
    ("problem", Kind::Text),
    ("attempt", Kind::Trial),
    ("correct", Kind::Bool),
    ("outcome", Kind::Fraction),
    ("input_tokens", Kind::Count),
    ("output_tokens", Kind::Count),
    ("input_tokens_cache_read", Kind::Count),
    ("input_tokens_cache_write", Kind::Count),
    ("wall_s", Kind::Amount),
    ("cost_usd", Kind::Amount),
    ("steps", Kind::Count),
    ("errors", Kind::Count),
    ("checklist", Kind::Checklist),
    ("trace", Kind::Trace),
];

fn kind_of(field: &str) -> Option<Kind> {
    index_of(field).map(|i| FIELDS[i].1)
}

fn index_of(field: &str) -> Option<usize> {
    FIELDS.iter().position(|(n, _)| *n == field)
}

// Positions in FIELDS.
const PROBLEM: usize = 0;
const ATTEMPT: usize = 1;
const CORRECT: usize = 2;
const OUTCOME: usize = 3;
const INPUT_TOKENS: usize = 4;
const OUTPUT_TOKENS: usize = 5;
const CACHE_READ: usize = 6;
const CACHE_WRITE: usize = 7;
const WALL_S: usize = 8;
const COST_USD: usize = 9;
const STEPS: usize = 10;
const ERRORS: usize = 11;
const CHECKLIST: usize = 12;
const TRACE: usize = 13;

/// One result line's fields, by position in [`FIELDS`] (`Some(Null)` for a field given as
/// `null`), and the names of any unknown fields. What a JSON object of the line would hold,
/// without building one: no map, no key allocated per field.
#[derive(Default)]
struct Fields {
    slots: [Option<Value>; FIELDS.len()],
    unknown: Vec<String>,
}

fn expected(kind: Kind) -> &'static str {
    match kind {
        Kind::Text => "a non-empty string",
        Kind::Bool => "true or false",
        Kind::Count => "a whole number, 0 or more",
        Kind::Trial => "a whole number, 1 or more",
        Kind::Amount => "a finite number, 0 or more",
        Kind::Fraction => "a number from 0 to 1",
        Kind::Checklist => r#"a list of {"item": "...", "pass": true|false}"#,
        Kind::Trace => r#"a list of {"tool": "...", "ok": true|false, "error": "..."}"#,
    }
}

fn unknown_field(at: Location, key: &str) -> Error {
    let names = FIELDS.iter().map(|(n, _)| *n);
    let hint = match closest(key, names.clone()) {
        Some(c) => format!(" (did you mean `{c}`?)"),
        None => String::new(),
    };
    Error::input(
        at,
        format!(
            "unknown field{hint}; a result line may hold: {}",
            names.collect::<Vec<_>>().join(", ")
        ),
    )
}

fn describe(v: &Value) -> String {
    match v {
        Value::String(s) => format!("the string {s:?}"),
        Value::Number(n) => format!("{n}"),
        Value::Bool(b) => format!("{b}"),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
        Value::Null => "null".into(),
    }
}

fn bad(at: &Location, field: &str, kind: Kind, got: &Value) -> Error {
    Error::input(
        at.clone().field(field),
        format!("expected {}, got {}", expected(kind), describe(got)),
    )
}

/// The largest count a result line may give — tokens of any kind, steps, errors, a trial
/// number: a trillion. No real attempt comes near it, and under it every count fits the ledger's
/// signed 64-bit integers and a seat's sums cannot overflow in any realistic wave.
pub const MAX_COUNT: u64 = 1_000_000_000_000;

/// [`MAX_COUNT`] as people read it.
const MAX_COUNT_TEXT: &str = "1,000,000,000,000";

fn count(at: &Location, field: &str, kind: Kind, v: &Value) -> Result<u64> {
    let n = match v {
        Value::Number(n) => n,
        _ => return Err(bad(at, field, kind, v)),
    };
    let within = match n.as_u64() {
        Some(u) => (u <= MAX_COUNT).then_some(u),
        // Some tools write whole numbers as floats (500000.0); accept those, nothing else. A
        // whole number up to 10^12 is held exactly by an f64.
        None => match n.as_f64() {
            Some(f) if f.is_finite() && f >= 0.0 && f.fract() == 0.0 => {
                (f <= MAX_COUNT as f64).then_some(f as u64)
            }
            _ => return Err(bad(at, field, kind, v)),
        },
    };
    within.ok_or_else(|| {
        let least = if kind == Kind::Trial { 1 } else { 0 };
        Error::input(
            at.clone().field(field),
            format!(
                "expected a whole number from {least} to {MAX_COUNT_TEXT}, got {}",
                describe(v)
            ),
        )
    })
}

fn amount(at: &Location, field: &str, kind: Kind, v: &Value) -> Result<f64> {
    match v.as_f64() {
        Some(f) if f.is_finite() && f >= 0.0 && (kind != Kind::Fraction || f <= 1.0) => Ok(f),
        _ => Err(bad(at, field, kind, v)),
    }
}

fn small(at: &Location, field: &str, n: u64) -> Result<u32> {
    u32::try_from(n).map_err(|_| {
        Error::input(
            at.clone().field(field),
            format!("{n} is too large (at most {})", u32::MAX),
        )
    })
}

fn checklist(at: &Location, v: &Value) -> Result<Vec<ChecklistItem>> {
    let err = || bad(at, "checklist", Kind::Checklist, v);
    let items = v.as_array().ok_or_else(err)?;
    items
        .iter()
        .map(|item| {
            let o = item.as_object().ok_or_else(err)?;
            if o.len() != 2 {
                return Err(err());
            }
            match (o.get("item"), o.get("pass")) {
                (Some(Value::String(i)), Some(Value::Bool(p))) => Ok(ChecklistItem {
                    item: i.clone(),
                    pass: *p,
                }),
                _ => Err(err()),
            }
        })
        .collect()
}

fn trace(at: &Location, v: &Value) -> Result<Vec<TraceStep>> {
    let steps = v
        .as_array()
        .ok_or_else(|| bad(at, "trace", Kind::Trace, v))?;
    steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let field = format!("trace[{i}]");
            let o = step.as_object().ok_or_else(|| {
                Error::input(
                    at.clone().field(&field),
                    format!(
                        "expected {}, got {}",
                        r#"{"tool": "...", "ok": true|false}"#,
                        describe(step)
                    ),
                )
            })?;
            for key in o.keys() {
                if !["tool", "ok", "error"].contains(&key.as_str()) {
                    return Err(Error::input(
                        at.clone().field(format!("{field}.{key}")),
                        "unknown field; a trace step may hold: tool, ok, error",
                    ));
                }
            }
            let tool = match o.get("tool") {
                Some(Value::String(s)) if !s.is_empty() => s.clone(),
                other => {
                    return Err(Error::input(
                        at.clone().field(format!("{field}.tool")),
                        format!(
                            "expected the tool's name, got {}",
                            other.map_or("nothing".into(), describe)
                        ),
                    ));
                }
            };
            let ok = match o.get("ok") {
                Some(Value::Bool(b)) => *b,
                other => {
                    return Err(Error::input(
                        at.clone().field(format!("{field}.ok")),
                        format!(
                            "expected true or false, got {}",
                            other.map_or("nothing".into(), describe)
                        ),
                    ));
                }
            };
            let error = match o.get("error") {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) => Some(s.clone()),
                Some(other) => {
                    return Err(Error::input(
                        at.clone().field(format!("{field}.error")),
                        format!(
                            "expected the error's kind as a string, got {}",
                            describe(other)
                        ),
                    ));
                }
            };
            if ok && error.is_some() {
                return Err(Error::input(
                    at.clone().field(format!("{field}.error")),
                    "a step with \"ok\": true cannot carry an error; set \"ok\": false or drop \
                     the error",
                ));
            }
            Ok(TraceStep { tool, ok, error })
        })
        .collect()
}

/// Builds an attempt from one line's fields, checking each.
fn attempt(at: &Location, mut fields: Fields) -> Result<Attempt> {
    // The first unknown field in name order, as a JSON object's keys would list them.
    if let Some(key) = fields.unknown.iter().min() {
        return Err(unknown_field(at.clone().field(key), key));
    }
    // `null` is the same as absent: unknown.
    let problem = match fields.slots[PROBLEM].take().filter(|v| !v.is_null()) {
        Some(Value::String(s)) if !s.trim().is_empty() => s,
        Some(v) => return Err(bad(at, "problem", Kind::Text, &v)),
        None => {
            return Err(Error::input(
                at.clone().field("problem"),
                "missing: every result line names its problem",
            ));
        }
    };
    let get = |i: usize| fields.slots[i].as_ref().filter(|v| !v.is_null());
    let correct = match get(CORRECT) {
        Some(Value::Bool(b)) => *b,
        Some(v) => return Err(bad(at, "correct", Kind::Bool, v)),
        None => {
            return Err(Error::input(
                at.clone().field("correct"),
                "missing: every result line says whether it was Correct (true or false)",
            ));
        }
    };
    let trial = match get(ATTEMPT) {
        None => 1,
        Some(v) => {
            let n = count(at, "attempt", Kind::Trial, v)?;
            if n == 0 {
                return Err(bad(at, "attempt", Kind::Trial, v));
            }
            small(at, "attempt", n)?
        }
    };
    let cnt = |i: usize| -> Result<Option<u64>> {
        get(i)
            .map(|v| count(at, FIELDS[i].0, Kind::Count, v))
            .transpose()
    };
    let amt = |i: usize, kind: Kind| -> Result<Option<f64>> {
        get(i).map(|v| amount(at, FIELDS[i].0, kind, v)).transpose()
    };
    let steps = cnt(STEPS)?.map(|n| small(at, "steps", n)).transpose()?;
    let errors = cnt(ERRORS)?.map(|n| small(at, "errors", n)).transpose()?;
    let trace = get(TRACE).map(|v| trace(at, v)).transpose()?;
    let (steps, errors) = match &trace {
        None => (steps, errors),
        Some(t) => {
            let n = t.len() as u32;
            let e = t.iter().filter(|s| !s.ok).count() as u32;
            if let Some(s) = steps.filter(|s| *s != n) {
                return Err(Error::input(
                    at.clone().field("steps"),
                    format!("steps = {s}, but the trace holds {n}; fix one or leave steps out"),
                ));
            }
            if let Some(given) = errors.filter(|g| *g != e) {
                return Err(Error::input(
                    at.clone().field("errors"),
                    format!(
                        "errors = {given}, but the trace has {e} failed step{}; fix one or \
                         leave errors out",
                        if e == 1 { "" } else { "s" }
                    ),
                ));
            }
            (Some(n), Some(e))
        }
    };
    if let (Some(s), Some(e)) = (steps, errors)
        && e > s
    {
        return Err(Error::input(
            at.clone().field("errors"),
            format!("{e} errors in {s} steps: a run cannot have more failed steps than steps"),
        ));
    }
    Ok(Attempt {
        problem,
        trial,
        correct,
        outcome: amt(OUTCOME, Kind::Fraction)?,
        input_tokens: cnt(INPUT_TOKENS)?,
        output_tokens: cnt(OUTPUT_TOKENS)?,
        input_tokens_cache_read: cnt(CACHE_READ)?,
        input_tokens_cache_write: cnt(CACHE_WRITE)?,
        wall_s: amt(WALL_S, Kind::Amount)?,
        cost_usd: amt(COST_USD, Kind::Amount)?,
        steps,
        errors,
        checklist: get(CHECKLIST).map(|v| checklist(at, v)).transpose()?,
        // An empty trace says no more than no trace.
        trace: trace.filter(|t| !t.is_empty()),
    })
}

/// Reads a results file from `src`, by its extension: `.jsonl` / `.json` / `.ndjson` as JSON
/// lines, a line at a time; `.csv` as CSV, read whole.
pub fn read(src: &dyn Source, path: &Path) -> Result<Vec<Line>> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    if matches!(ext.as_str(), "jsonl" | "json" | "ndjson") {
        return read_jsonl(src, path);
    }
    let text = src.read_text(path).map_err(|e| Error::io(path, e))?;
    match ext.as_str() {
        "csv" => parse_csv(path, &text),
        _ => Err(Error::input(
            Location::file(path),
            "unknown results format: name the file .jsonl (one JSON object a line) or .csv",
        )),
    }
}

/// Reads a JSON-lines file a line at a time, never holding its text whole. The outcome is that of
/// reading the whole file as text and then parsing it (`parse_jsonl`, which the tests hold it
/// to): a file that cannot be read, or is not UTF-8, is that error even when a line before the
/// fault is bad too.
fn read_jsonl(src: &dyn Source, path: &Path) -> Result<Vec<Line>> {
    let open = || src.open_lines(path).map_err(|e| Error::io(path, e));
    // Count the lines first, so the attempts take one allocation of the right size rather than a
    // doubling series (a file can hold 10^5 lines, each attempt some 200 bytes).
    let mut lines = 0;
    let mut r = open()?;
    loop {
        let buf = r.fill_buf().map_err(|e| Error::io(path, e))?;
        if buf.is_empty() {
            break;
        }
        lines += buf.iter().filter(|b| **b == b'\n').count();
        let n = buf.len();
        r.consume(n);
    }
    let mut out = Vec::with_capacity(lines + 1);
    let mut r = open()?;
    let mut buf = Vec::new();
    let mut line = 0;
    loop {
        buf.clear();
        if r.read_until(b'\n', &mut buf)
            .map_err(|e| Error::io(path, e))?
            == 0
        {
            break;
        }
        line += 1;
        let raw = match text_of(&buf) {
            Some(raw) => raw,
            None => return Err(Error::io(path, not_utf8())),
        };
        match parse_line(path, line, raw) {
            Ok(Some(l)) => out.push(l),
            Ok(None) => {}
            // What the rest of the file holds decides which error comes first.
            Err(e) => return Err(unreadable_rest(path, r).unwrap_or(e)),
        }
    }
    Ok(out)
}

/// A line read with its ending, as `str::lines` would give it: without `\n` or `\r\n`; `None`
/// when it is not UTF-8. A line ending cannot fall inside a UTF-8 sequence, so the file is UTF-8
/// exactly when each of its lines is.
fn text_of(buf: &[u8]) -> Option<&str> {
    let bytes = match buf.strip_suffix(b"\n") {
        Some(b) => b.strip_suffix(b"\r").unwrap_or(b),
        None => buf,
    };
    std::str::from_utf8(bytes).ok()
}

/// The error `read_to_string` gives for a file that is not UTF-8.
fn not_utf8() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        "stream did not contain valid UTF-8",
    )
}

/// The error reading the rest of a file would meet, if any: what `read_to_string` would have
/// reported before a single line was parsed.
fn unreadable_rest(path: &Path, mut r: impl BufRead) -> Option<Error> {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match r.read_until(b'\n', &mut buf) {
            Ok(0) => return None,
            Ok(_) if text_of(&buf).is_none() => return Some(Error::io(path, not_utf8())),
            Ok(_) => {}
            Err(e) => return Some(Error::io(path, e)),
        }
    }
}

/// Parses JSON lines held whole. Blank lines are skipped. Ingest streams instead
/// ([`read_jsonl`]); this is the reference it is tested against.
#[cfg(test)]
fn parse_jsonl(path: &Path, text: &str) -> Result<Vec<Line>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        if let Some(l) = parse_line(path, i + 1, raw)? {
            out.push(l);
        }
    }
    Ok(out)
}

/// One JSON line (1-based `line`); `None` for a blank one.
fn parse_line(path: &Path, line: usize, raw: &str) -> Result<Option<Line>> {
    if raw.trim().is_empty() {
        return Ok(None);
    }
    let fields = strict_line(raw).map_err(|e| json_error(&Location::line(path, line), raw, &e))?;
    let fields = match fields {
        Top::Object(f) => f,
        Top::Other(value) => {
            return Err(Error::input(
                Location::line(path, line),
                format!(
                    "expected one JSON object per line, got {}",
                    describe(&value)
                ),
            ));
        }
    };
    Ok(Some(Line {
        line,
        attempt: attempt(&Location::line(path, line), fields)?,
    }))
}

/// A result line as read: an object's fields, or whatever other JSON value the line holds.
// One lives at a time, on the stack; boxing the fields would cost an allocation per line.
#[allow(clippy::large_enum_variant)]
enum Top {
    Object(Fields),
    Other(Value),
}

/// Parses one JSON line like [`strict_json`], but reads a top-level object straight into
/// [`Fields`]: the same errors, in the same order, as building the object and then reading it.
fn strict_line(raw: &str) -> serde_json::Result<Top> {
    use serde::de::DeserializeSeed;
    let mut de = serde_json::Deserializer::from_str(raw);
    let v = LineSeed.deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// Parses JSON like `serde_json::from_str::<Value>`, but refuses an object that gives the same
/// key twice: serde_json keeps the last silently, so `{"correct":true,"correct":false}` would
/// otherwise land as not Correct without a word.
fn strict_json(raw: &str) -> serde_json::Result<Value> {
    use serde::de::DeserializeSeed;
    let mut de = serde_json::Deserializer::from_str(raw);
    let v = Strict.deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// A [`Value`] builder that refuses duplicate keys, at any depth.
#[derive(Clone, Copy)]
struct Strict;

impl<'de> serde::de::DeserializeSeed<'de> for Strict {
    type Value = Value;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Strict {
    type Value = Value;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::from(n))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::from(n))
    }
    fn visit_f64<E>(self, x: f64) -> Result<Value, E> {
        Ok(Value::from(x))
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_string()))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(Strict)? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(serde::de::Error::custom(format_args!(
                    "duplicate field `{key}`"
                )));
            }
            let v = map.next_value_seed(Strict)?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

#[derive(Clone, Copy)]
struct LineSeed;

impl<'de> serde::de::DeserializeSeed<'de> for LineSeed {
    type Value = Top;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Top, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for LineSeed {
    type Value = Top;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Top, E> {
        Ok(Top::Other(Value::Bool(b)))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Top, E> {
        Ok(Top::Other(Value::from(n)))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Top, E> {
        Ok(Top::Other(Value::from(n)))
    }
    fn visit_f64<E>(self, x: f64) -> Result<Top, E> {
        Ok(Top::Other(Value::from(x)))
    }
    fn visit_str<E>(self, s: &str) -> Result<Top, E> {
        Ok(Top::Other(Value::String(s.to_string())))
    }
    fn visit_unit<E>(self) -> Result<Top, E> {
        Ok(Top::Other(Value::Null))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Top, A::Error> {
        serde::de::Visitor::visit_seq(Strict, seq).map(Top::Other)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Top, A::Error> {
        let mut f = Fields::default();
        while let Some(key) = map.next_key_seed(KeySeed)? {
            match key {
                Key::Known(i) => {
                    if f.slots[i].is_some() {
                        return Err(serde::de::Error::custom(format_args!(
                            "duplicate field `{}`",
                            FIELDS[i].0
                        )));
                    }
                    f.slots[i] = Some(map.next_value_seed(Strict)?);
                }
                Key::Unknown(key) => {
                    if f.unknown.contains(&key) {
                        return Err(serde::de::Error::custom(format_args!(
                            "duplicate field `{key}`"
                        )));
                    }
                    map.next_value_seed(Strict)?;
                    f.unknown.push(key);
                }
            }
        }
        Ok(Top::Object(f))
    }
}

/// A key of a result line: a known field's position, or an unknown name.
enum Key {
    Known(usize),
    Unknown(String),
}

#[derive(Clone, Copy)]
struct KeySeed;

impl<'de> serde::de::DeserializeSeed<'de> for KeySeed {
    type Value = Key;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> serde::de::Visitor<'de> for KeySeed {
    type Value = Key;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E>(self, s: &str) -> Result<Key, E> {
        Ok(match index_of(s) {
            Some(i) => Key::Known(i),
            None => Key::Unknown(s.to_string()),
        })
    }
}

/// Turns a JSON error into one naming the field it happened in, when that can be found.
fn json_error(at: &Location, raw: &str, e: &serde_json::Error) -> Error {
    use serde_json::error::Category;
    let col = e.column().saturating_sub(1).min(raw.len());
    // serde_json's text ends "at line 1 column N"; within one JSONL line only the column
    // means anything.
    let text = e.to_string();
    let what = text
        .rsplit_once(" at line ")
        .map_or(text.as_str(), |(w, _)| w);
    if let Some(key) = what
        .strip_prefix("duplicate field `")
        .and_then(|r| r.strip_suffix('`'))
    {
        return Error::input(
            at.clone().field(key),
            "the field appears twice on this line; give it once",
        );
    }
    if e.classify() == Category::Eof {
        return Error::input(
            at.clone(),
            "the line ends before its JSON object does (a missing `}` or `\"`?): each line \
             must hold one whole JSON object",
        );
    }
    let before = &raw[..raw.floor_char_boundary(col)];
    // The last `"key":` before the error is the field being read.
    let field = before.rfind("\":").and_then(|end| {
        let start = before[..end].rfind('"')?;
        Some(before[start + 1..end].to_string())
    });
    let rest = &raw[raw.floor_char_boundary(col)..];
    let non_number = ["NaN", "-NaN", "Infinity", "-Infinity", "inf", "-inf", "nan"]
        .iter()
        .any(|t| rest.trim_start().starts_with(t));
    let message = if non_number {
        "NaN and infinities are not numbers; leave the field out (or null) when the value is \
         unknown"
            .to_string()
    } else if what.contains("out of range") {
        "number out of range: expected a finite number".to_string()
    } else {
        format!("not valid JSON at column {}: {what}", e.column())
    };
    let at = match field {
        Some(f) => at.clone().field(f),
        None => at.clone(),
    };
    Error::input(at, message)
}

/// Parses CSV with a header row of the same field names as JSONL. Empty cells are unknown;
/// `checklist` and `trace` cells hold JSON.
pub fn parse_csv(path: &Path, text: &str) -> Result<Vec<Line>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| {
            Error::input(
                Location::line(path, 1),
                format!("unreadable CSV header: {e}"),
            )
        })?
        .clone();
    let mut seen = std::collections::BTreeSet::new();
    for h in headers.iter() {
        if kind_of(h).is_none() {
            return Err(unknown_field(Location::line(path, 1).field(h), h));
        }
        if !seen.insert(h) {
            return Err(Error::input(
                Location::line(path, 1).field(h),
                "column appears twice in the header",
            ));
        }
    }
    // Every header is a known field, named once (checked above).
    let columns: Vec<usize> = headers.iter().filter_map(index_of).collect();
    let mut out = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line() as usize);
            Error::input(
                Location::line(path, line),
                format!("unreadable CSV row: {e}"),
            )
        })?;
        let line = record.position().map_or(0, |p| p.line() as usize);
        let at = Location::line(path, line);
        let mut fields = Fields::default();
        for (i, cell) in columns.iter().zip(record.iter()) {
            if cell.is_empty() {
                continue;
            }
            fields.slots[*i] = Some(csv_cell(FIELDS[*i].1, cell));
        }
        out.push(Line {
            line,
            attempt: attempt(&at, fields)?,
        });
    }
    Ok(out)
}

/// A CSV cell as the JSON value it stands for; a cell that does not read as its field's type is
/// kept as a string so the checker reports it.
fn csv_cell(kind: Kind, cell: &str) -> Value {
    let parsed = match kind {
        Kind::Text => None,
        Kind::Bool => match cell.to_ascii_lowercase().as_str() {
            "true" | "1" => Some(Value::Bool(true)),
            "false" | "0" => Some(Value::Bool(false)),
            _ => None,
        },
        Kind::Count | Kind::Trial | Kind::Amount | Kind::Fraction => {
            serde_json::from_str::<serde_json::Number>(cell)
                .ok()
                .map(Value::Number)
        }
        Kind::Checklist | Kind::Trace => strict_json(cell).ok(),
    };
    parsed.unwrap_or_else(|| Value::String(cell.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(line: &str) -> Result<Attempt> {
        parse_jsonl(Path::new("r.jsonl"), line).map(|mut v| v.remove(0).attempt)
    }

    #[test]
    fn field_positions_match_the_field_list() {
        let named = [
            (PROBLEM, "problem"),
            (ATTEMPT, "attempt"),
            (CORRECT, "correct"),
            (OUTCOME, "outcome"),
            (INPUT_TOKENS, "input_tokens"),
            (OUTPUT_TOKENS, "output_tokens"),
            (CACHE_READ, "input_tokens_cache_read"),
            (CACHE_WRITE, "input_tokens_cache_write"),
            (WALL_S, "wall_s"),
            (COST_USD, "cost_usd"),
            (STEPS, "steps"),
            (ERRORS, "errors"),
            (CHECKLIST, "checklist"),
            (TRACE, "trace"),
        ];
        assert_eq!(named.len(), FIELDS.len());
        for (i, name) in named {
            assert_eq!(FIELDS[i].0, name);
        }
    }

    #[test]
    fn of_several_unknown_fields_the_first_by_name_is_named() {
        let e = one(r#"{"zeta":1,"problem":"p","correct":true,"alpha":2}"#)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("r.jsonl:1: field `alpha`: unknown field"),
            "{e}"
        );
        let e = one(r#"{"zeta":1,"problem":"p","zeta":2}"#)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "r.jsonl:1: field `zeta`: the field appears twice on this line; give it once"
        );
        // A syntax error later on the line still wins over an unknown field.
        let e = one(r#"{"zeta":1,"problem":"p","correct":tru}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not valid JSON"), "{e}");
        let e = one(r#"[1,2]"#).unwrap_err().to_string();
        assert_eq!(
            e,
            "r.jsonl:1: expected one JSON object per line, got a list"
        );
    }

    #[test]
    fn reading_a_file_a_line_at_a_time_is_reading_it_whole() {
        use crate::ingest::Memory;
        let cases: &[&[u8]] = &[
            b"{\"problem\":\"a\",\"correct\":true}\r\n\n  \n{\"problem\":\"b\",\"correct\":false}",
            b"{\"problem\":\"a\",\"correct\":true}\n",
            b"",
            // A bad line before a line that is not UTF-8: the file is unreadable first.
            b"{\"problem\":\"a\"}\n{\"problem\":\"\xff\",\"correct\":true}\n",
            b"{\"problem\":\"\xff\",\"correct\":true}\n{\"problem\":\"a\"}\n",
            // A bad line, then good ones.
            b"{\"problem\":\"a\",\"correct\":true}\n{\"problem\":3}\n{}\n",
            // A bare \r at the very end stays in the line, as str::lines leaves it.
            b"{\"problem\":\"a\",\"correct\":true}\r",
            // \r\n split across the reader's buffers (of 7 bytes).
            b"{\"problem\":\"a\",\"correct\":true}\r\n{\"problem\":\"bb\",\"correct\":true}\r\n",
        ];
        for (i, bytes) in cases.iter().enumerate() {
            let path = Path::new("w/r.jsonl");
            let src = Memory::new().with("w/r.jsonl", *bytes);
            let whole = match src.read_text(path) {
                Ok(text) => parse_jsonl(path, &text),
                Err(e) => Err(Error::io(path, e)),
            };
            let streamed = read(&src, path);
            assert_eq!(
                format!("{:?}", streamed.map_err(|e| e.to_string())),
                format!("{:?}", whole.map_err(|e| e.to_string())),
                "case {i}"
            );
        }
        // The error for text that is not UTF-8 is the one reading a real file gives.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        std::fs::write(&path, b"\xff\n").unwrap();
        let real = std::fs::read_to_string(&path).unwrap_err();
        assert_eq!(real.kind(), not_utf8().kind());
        assert_eq!(real.to_string(), not_utf8().to_string());
    }

    #[test]
    fn a_count_above_a_trillion_is_refused_with_the_range() {
        let line =
            |field: &str, n: &str| format!(r#"{{"problem":"p","correct":true,"{field}":{n}}}"#);
        let ok = |field: &str, n: &str| one(&line(field, n)).unwrap();
        let err = |field: &str, n: &str| one(&line(field, n)).unwrap_err().to_string();
        assert_eq!(
            ok("input_tokens", "1000000000000").input_tokens,
            Some(MAX_COUNT)
        );
        assert_eq!(ok("output_tokens", "1e12").output_tokens, Some(MAX_COUNT));
        assert_eq!(
            ok("input_tokens_cache_read", "1000000000000.0").input_tokens_cache_read,
            Some(MAX_COUNT)
        );
        for (field, n, got) in [
            ("input_tokens", "1000000000001", "1000000000001"),
            (
                "output_tokens",
                "9223372036854775808",
                "9223372036854775808",
            ),
            (
                "input_tokens_cache_read",
                "18446744073709551615",
                "18446744073709551615",
            ),
            ("input_tokens_cache_write", "100000000000000000000", "1e+20"),
            ("input_tokens", "1.5e12", "1500000000000.0"),
            ("steps", "2000000000000", "2000000000000"),
            ("errors", "1e13", "10000000000000.0"),
        ] {
            assert_eq!(
                err(field, n),
                format!(
                    "r.jsonl:1: field `{field}`: expected a whole number from 0 to \
                     1,000,000,000,000, got {got}"
                )
            );
        }
        assert_eq!(
            err("attempt", "1000000000001"),
            "r.jsonl:1: field `attempt`: expected a whole number from 1 to 1,000,000,000,000, \
             got 1000000000001"
        );
        // Under the bound, the u32 fields keep their own limit.
        assert_eq!(
            err("steps", "5000000000"),
            "r.jsonl:1: field `steps`: 5000000000 is too large (at most 4294967295)"
        );
        // Other faults keep their messages.
        assert_eq!(
            err("input_tokens", "-1"),
            "r.jsonl:1: field `input_tokens`: expected a whole number, 0 or more, got -1"
        );
        let grouped = MAX_COUNT
            .to_string()
            .as_bytes()
            .rchunks(3)
            .rev()
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect::<Vec<_>>()
            .join(",");
        assert_eq!(MAX_COUNT_TEXT, grouped);
        // CSV cells are held to the same bound.
        let e = parse_csv(
            Path::new("r.csv"),
            "problem,correct,input_tokens\np,true,1000000000001\n",
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            e,
            "r.csv:2: field `input_tokens`: expected a whole number from 0 to 1,000,000,000,000, \
             got 1000000000001"
        );
    }

    #[test]
    fn a_full_line_parses() {
        let a = one(r#"{"problem":"checkout-1","correct":true,"outcome":1.0,"input_tokens":400000,"output_tokens":165000,"input_tokens_cache_read":0,"input_tokens_cache_write":0,"wall_s":132.0,"cost_usd":0.91,"steps":3,"errors":0}"#).unwrap();
        assert_eq!(a.input_tokens, Some(400_000));
        assert_eq!(a.trial, 1);
        assert_eq!(a.cost_usd, Some(0.91));
    }

    #[test]
    fn absent_and_null_are_unknown_not_zero() {
        let a = one(r#"{"problem":"p","correct":false,"cost_usd":null}"#).unwrap();
        assert_eq!((a.cost_usd, a.wall_s, a.input_tokens), (None, None, None));
    }

    #[test]
    fn errors_name_the_line_and_field() {
        let e = parse_jsonl(
            Path::new("r.jsonl"),
            "{\"problem\":\"a\",\"correct\":true}\n{\"problem\":\"b\",\"correct\":true,\"cost_usd\":\"cheap\"}",
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            e,
            "r.jsonl:2: field `cost_usd`: expected a finite number, 0 or more, got the string \"cheap\""
        );
    }

    #[test]
    fn a_misspelt_field_is_refused_with_a_suggestion() {
        let e = one(r#"{"problem":"p","correct":true,"wal_s":3}"#)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("r.jsonl:1: field `wal_s`: unknown field (did you mean `wall_s`?)"),
            "{e}"
        );
    }

    #[test]
    fn a_field_given_twice_is_refused_not_overwritten() {
        let e = one(r#"{"problem":"p","correct":true,"correct":false}"#)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "r.jsonl:1: field `correct`: the field appears twice on this line; give it once"
        );
        let e =
            one(r#"{"problem":"p","correct":true,"trace":[{"tool":"a","ok":true,"ok":false}]}"#)
                .unwrap_err()
                .to_string();
        assert!(e.contains("field `ok`: the field appears twice"), "{e}");
    }

    #[test]
    fn nan_is_named_as_such() {
        let e = one(r#"{"problem":"p","correct":true,"wall_s":NaN}"#)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("r.jsonl:1: field `wall_s`: NaN and infinities"),
            "{e}"
        );
    }

    #[test]
    fn a_trace_derives_steps_and_errors_and_must_agree() {
        let a = one(r#"{"problem":"p","correct":true,"trace":[{"tool":"a","ok":true},{"tool":"a","ok":false,"error":"timeout"}]}"#).unwrap();
        assert_eq!((a.steps, a.errors), (Some(2), Some(1)));
        let e = one(r#"{"problem":"p","correct":true,"steps":3,"trace":[{"tool":"a","ok":true}]}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("steps = 3, but the trace holds 1"), "{e}");
    }

    #[test]
    fn csv_reads_the_same_columns() {
        let lines = parse_csv(
            Path::new("r.csv"),
            "problem,correct,wall_s,cost_usd\na,true,1.5,\nb,0,2,0.1\n",
        )
        .unwrap();
        assert_eq!(lines[0].attempt.cost_usd, None);
        assert_eq!(lines[1].line, 3);
        assert!(!lines[1].attempt.correct);
        let e = parse_csv(Path::new("r.csv"), "problem,correct,wall_s\na,true,fast\n")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "r.csv:2: field `wall_s`: expected a finite number, 0 or more, got the string \"fast\""
        );
    }
}
