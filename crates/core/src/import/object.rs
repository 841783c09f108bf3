//! Streaming a results file that is one large JSON object (a HAL upload, a tau2-bench results
//! file): each top-level key is read whole, walked a part at a time, or skipped unread, as the
//! importer asks, so a file of gigabytes is never held whole — only one of its parts at a time.
//! Syntax errors name the file, line and column; an importer's own error stops the walk and is
//! returned as it was made.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::Path;

use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::results::strict::Strict;

use crate::error::{Error, Location, Result};

/// What to do with the value of one top-level key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Take {
    /// Read past it without keeping any of it.
    Skip,
    /// Read it whole: handed on as [`Part::Whole`].
    Whole,
    /// Read it a part at a time: a list's elements as [`Part::Element`], an object's entries as
    /// [`Part::Entry`]; any other value whole, as [`Part::Whole`].
    Each,
    /// Read a list's elements a part at a time, as [`Part::Element`]; anything but a list is
    /// refused, naming the key.
    Elements,
}

/// One part of a top-level key's value.
#[derive(Debug)]
pub enum Part {
    Whole(Value),
    /// The element at this index (from 0) of a list.
    Element(usize, Value),
    /// One key and its value of an object.
    Entry(String, Value),
}

/// Walks the JSON object that makes up `reader`, asking `plan` what to do with each top-level
/// key and handing `on` what it asked for, in file order. A top-level key that is not skipped
/// may appear once. `expecting` says what the file should be, for the error when it is not an
/// object.
pub fn walk<R: Read>(
    path: &Path,
    reader: R,
    expecting: &'static str,
    plan: impl Fn(&str) -> Take,
    mut on: impl FnMut(&str, Part) -> Result<()>,
) -> Result<()> {
    let mut failed = None;
    let mut de = serde_json::Deserializer::from_reader(std::io::BufReader::with_capacity(
        256 * 1024,
        reader,
    ));
    let walked = Top {
        path,
        expecting,
        plan: &plan,
        on: &mut on,
        failed: &mut failed,
    }
    .deserialize(&mut de)
    .and_then(|()| de.end());
    match (walked, failed) {
        (_, Some(e)) => Err(e),
        (Ok(()), None) => Ok(()),
        (Err(e), None) => Err(syntax(path, &e)),
    }
}

/// Stops the walk with an importer's error, kept aside to be returned as it is.
fn stop<E: serde::de::Error>(failed: &mut Option<Error>, e: Error) -> E {
    *failed = Some(e);
    E::custom("stopped at a bad record")
}

struct Top<'a, P, F> {
    path: &'a Path,
    expecting: &'static str,
    plan: &'a P,
    on: &'a mut F,
    failed: &'a mut Option<Error>,
}

impl<'de, P, F> DeserializeSeed<'de> for Top<'_, P, F>
where
    P: Fn(&str) -> Take,
    F: FnMut(&str, Part) -> Result<()>,
{
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, P, F> Visitor<'de> for Top<'_, P, F>
where
    P: Fn(&str) -> Take,
    F: FnMut(&str, Part) -> Result<()>,
{
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.expecting)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = BTreeSet::new();
        while let Some(key) = map.next_key::<String>()? {
            let take = (self.plan)(&key);
            if take != Take::Skip && !seen.insert(key.clone()) {
                let e = Error::input(
                    Location::file(self.path).field(key.as_str()),
                    "appears twice at the top of the file; keep one",
                );
                return Err(stop(self.failed, e));
            }
            match take {
                Take::Skip => {
                    map.next_value::<IgnoredAny>()?;
                }
                Take::Whole => {
                    let v: Value = map.next_value_seed(Strict)?;
                    if let Err(e) = (self.on)(&key, Part::Whole(v)) {
                        return Err(stop(self.failed, e));
                    }
                }
                Take::Each | Take::Elements => map.next_value_seed(Parts {
                    path: self.path,
                    key: &key,
                    only_list: take == Take::Elements,
                    on: &mut *self.on,
                    failed: &mut *self.failed,
                })?,
            }
        }
        Ok(())
    }
}

/// One top-level value, read a part at a time.
struct Parts<'a, F> {
    path: &'a Path,
    key: &'a str,
    /// Only a list is taken ([`Take::Elements`]).
    only_list: bool,
    on: &'a mut F,
    failed: &'a mut Option<Error>,
}

impl<F: FnMut(&str, Part) -> Result<()>> Parts<'_, F> {
    fn hand<E: serde::de::Error>(&mut self, part: Part) -> Result<(), E> {
        if self.only_list && !matches!(part, Part::Element(..)) {
            let got = match &part {
                Part::Whole(v) => describe(v),
                _ => "an object".into(),
            };
            return Err(self.not_a_list(&got));
        }
        (self.on)(self.key, part).map_err(|e| stop(self.failed, e))
    }

    fn not_a_list<E: serde::de::Error>(&mut self, got: &str) -> E {
        let e = Error::input(
            Location::file(self.path).field(self.key),
            format!("expected a list, got {got}"),
        );
        stop(self.failed, e)
    }
}

impl<'de, F: FnMut(&str, Part) -> Result<()>> DeserializeSeed<'de> for Parts<'_, F> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, F: FnMut(&str, Part) -> Result<()>> Visitor<'de> for Parts<'_, F> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0;
        while let Some(v) = seq.next_element_seed(Strict)? {
            self.hand(Part::Element(i, v))?;
            i += 1;
        }
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        if self.only_list {
            return Err(self.not_a_list("an object"));
        }
        let mut seen = BTreeSet::new();
        while let Some(k) = map.next_key::<String>()? {
            if !seen.insert(k.clone()) {
                return Err(serde::de::Error::custom(format_args!(
                    "duplicate field `{k}`"
                )));
            }
            let v: Value = map.next_value_seed(Strict)?;
            self.hand(Part::Entry(k, v))?;
        }
        Ok(())
    }

    fn visit_bool<E: serde::de::Error>(mut self, b: bool) -> Result<(), E> {
        self.hand(Part::Whole(Value::Bool(b)))
    }

    fn visit_i64<E: serde::de::Error>(mut self, n: i64) -> Result<(), E> {
        self.hand(Part::Whole(Value::from(n)))
    }

    fn visit_u64<E: serde::de::Error>(mut self, n: u64) -> Result<(), E> {
        self.hand(Part::Whole(Value::from(n)))
    }

    fn visit_f64<E: serde::de::Error>(mut self, x: f64) -> Result<(), E> {
        self.hand(Part::Whole(Value::from(x)))
    }

    fn visit_str<E: serde::de::Error>(mut self, s: &str) -> Result<(), E> {
        self.hand(Part::Whole(Value::String(s.to_owned())))
    }

    fn visit_unit<E: serde::de::Error>(mut self) -> Result<(), E> {
        self.hand(Part::Whole(Value::Null))
    }
}

/// A JSON syntax error, by line and column.
pub fn syntax(path: &Path, e: &serde_json::Error) -> Error {
    let at = if e.line() > 0 {
        Location::line(path, e.line())
    } else {
        Location::file(path)
    };
    // A key given twice in one object (refused by `Strict`, where serde_json keeps the last).
    let text = e.to_string();
    if let Some(key) = text
        .strip_prefix("duplicate field `")
        .and_then(|r| r.split('`').next())
    {
        return Error::input(
            at.field(key),
            "the key appears twice in one object; keep one (a JSON reader would keep the last \
             without a word)",
        );
    }
    Error::input(at, format!("not the JSON this format expects: {e}"))
}

/// A JSON value in a few words, for an error.
pub fn describe(v: &Value) -> String {
    match v {
        Value::String(s) => {
            let cut: String = s.chars().take(40).collect();
            if cut.len() < s.len() {
                format!("the string {cut:?}…")
            } else {
                format!("the string {s:?}")
            }
        }
        Value::Number(n) => format!("{n}"),
        Value::Bool(b) => format!("{b}"),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
        Value::Null => "null".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walked(text: &str, plan: impl Fn(&str) -> Take) -> Result<Vec<String>> {
        let mut seen = Vec::new();
        walk(
            Path::new("f.json"),
            text.as_bytes(),
            "an object",
            plan,
            |k, p| {
                seen.push(match p {
                    Part::Whole(v) => format!("{k}={v}"),
                    Part::Element(i, v) => format!("{k}[{i}]={v}"),
                    Part::Entry(e, v) => format!("{k}.{e}={v}"),
                });
                Ok(())
            },
        )?;
        Ok(seen)
    }

    #[test]
    fn keys_are_read_whole_a_part_at_a_time_or_skipped() {
        let seen = walked(
            r#"{"a": {"x": 1}, "big": [1, {"y": 2}], "map": {"p": 3, "q": [4]},
                "skip": {"deep": [1, 2, 3]}, "s": "text", "n": null}"#,
            |k| match k {
                "a" => Take::Whole,
                "skip" => Take::Skip,
                _ => Take::Each,
            },
        )
        .unwrap();
        assert_eq!(
            seen,
            [
                r#"a={"x":1}"#,
                "big[0]=1",
                r#"big[1]={"y":2}"#,
                "map.p=3",
                "map.q=[4]",
                r#"s="text""#,
                "n=null",
            ]
        );
    }

    #[test]
    fn an_importers_error_stops_the_walk_as_it_was_made() {
        let e = walk(
            Path::new("f.json"),
            &br#"{"big": [1, 2, 3]}"#[..],
            "an object",
            |_| Take::Each,
            |_, p| match p {
                Part::Element(1, _) => Err(Error::input(
                    Location::record(Path::new("f.json"), "big[1]"),
                    "no",
                )),
                _ => Ok(()),
            },
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "f.json: big[1]: no");
    }

    #[test]
    fn bad_json_a_non_object_and_a_repeated_key_are_refused() {
        for (text, says) in [
            (
                "[1, 2]",
                "f.json:1: not the JSON this format expects: invalid type: sequence, expected an object",
            ),
            ("{\"a\": [1,", "f.json:1: not the JSON this format expects"),
            ("{\"a\": 1} {}", "trailing characters"),
            (
                "{\"a\": 1, \"a\": 2}",
                "f.json: field `a`: appears twice at the top of the file",
            ),
        ] {
            let e = walked(text, |_| Take::Whole).unwrap_err().to_string();
            assert!(e.contains(says), "{e}");
        }
        // A skipped key may repeat: nothing is read from it.
        assert!(walked("{\"a\": 1, \"a\": 2}", |_| Take::Skip).is_ok());
    }
}
