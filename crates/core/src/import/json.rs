//! What importers of JSON formats share: streaming the elements of a large top-level array, the
//! members of a top-level object, or the array one member of an object holds, one at a time (a
//! results file is never held whole), and reading a record's fields with errors that name the
//! file, the record and the field and say what was expected.

use std::io::Read;
use std::path::Path;

use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::object::{Part, Take, walk};
pub use super::object::{describe, syntax};
use crate::error::{Error, Location, Result};

/// Calls `each` with every element of the JSON array that makes up `reader`, in order, holding
/// one element at a time. A syntax error names the file and the line and column.
pub(crate) fn each_in_array<R: Read>(
    path: &Path,
    reader: R,
    mut each: impl FnMut(usize, Value) -> Result<()>,
) -> Result<usize> {
    struct Each<'f, F> {
        each: &'f mut F,
        failed: &'f mut Option<Error>,
    }
    impl<'de, F: FnMut(usize, Value) -> Result<()>> Visitor<'de> for Each<'_, F> {
        type Value = usize;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a JSON array of records")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<usize, A::Error> {
            let mut n = 0;
            while let Some(v) = seq.next_element_seed(super::results::strict::Strict)? {
                if let Err(e) = (self.each)(n, v) {
                    *self.failed = Some(e);
                    return Err(serde::de::Error::custom("stopped at a bad record"));
                }
                n += 1;
            }
            Ok(n)
        }
    }
    impl<'de, F: FnMut(usize, Value) -> Result<()>> DeserializeSeed<'de> for Each<'_, F> {
        type Value = usize;
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
            d.deserialize_seq(self)
        }
    }
    let mut failed = None;
    let mut de = serde_json::Deserializer::from_reader(std::io::BufReader::with_capacity(
        256 * 1024,
        reader,
    ));
    let counted = Each {
        each: &mut each,
        failed: &mut failed,
    }
    .deserialize(&mut de)
    .and_then(|n| de.end().map(|()| n));
    match (counted, failed) {
        (_, Some(e)) => Err(e),
        (Ok(n), None) => Ok(n),
        (Err(e), None) => Err(syntax(path, &e)),
    }
}

/// Calls `each` with every member of the JSON object that makes up `reader` — its key, then its
/// value — in file order, holding one member at a time (a walk of `super::object::walk`
/// reading every member whole). A key written twice is refused, naming it.
pub(crate) fn each_in_object<R: Read>(
    path: &Path,
    reader: R,
    mut each: impl FnMut(usize, String, Value) -> Result<()>,
) -> Result<usize> {
    let mut n = 0;
    walk(
        path,
        reader,
        "a JSON object",
        |_| Take::Whole,
        |key, part| {
            let Part::Whole(v) = part else {
                unreachable!("every member is read whole")
            };
            each(n, key.to_string(), v)?;
            n += 1;
            Ok(())
        },
    )?;
    Ok(n)
}

/// Calls `each` with every element of the array held by the member `member` of the JSON object
/// that makes up `reader` (`{"results": [...], ...}`), in order, holding one element at a time;
/// the object's other members are skipped without being kept. `None` when the object has no
/// such member; a member given twice, or one that is not an array, is an error.
pub(crate) fn each_in_member<R: Read>(
    path: &Path,
    reader: R,
    member: &str,
    mut each: impl FnMut(usize, Value) -> Result<()>,
) -> Result<Option<usize>> {
    let present = std::cell::Cell::new(false);
    let mut n = 0;
    walk(
        path,
        reader,
        "a JSON object",
        |key| {
            if key == member {
                present.set(true);
                Take::Elements
            } else {
                Take::Skip
            }
        },
        |_, part| {
            if let Part::Element(i, v) = part {
                each(i, v)?;
                n = i + 1;
            }
            Ok(())
        },
    )?;
    Ok(present.get().then_some(n))
}

/// A whole JSON text as a value, refusing a key given twice in any object (serde_json keeps the
/// last without a word): the error names the file, the line and the key.
pub(crate) fn strict_str(path: &Path, text: &str) -> Result<Value> {
    use serde::de::DeserializeSeed;
    let mut de = serde_json::Deserializer::from_str(text);
    super::results::strict::Strict
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v))
        .map_err(|e| syntax(path, &e))
}

/// [`strict_str`] over a reader.
pub(crate) fn strict_reader<R: Read>(path: &Path, reader: R) -> Result<Value> {
    use serde::de::DeserializeSeed;
    let mut de = serde_json::Deserializer::from_reader(std::io::BufReader::with_capacity(
        256 * 1024,
        reader,
    ));
    super::results::strict::Strict
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v))
        .map_err(|e| syntax(path, &e))
}

/// One line of a JSON-lines file as a value, refusing a key given twice: errors name the file,
/// the line and the key.
pub(crate) fn strict_line(path: &Path, line: usize, text: &str) -> Result<Value> {
    strict_str(path, text).map_err(|e| match e {
        Error::Input { mut at, message } => {
            at.line = Some(line);
            Error::Input { at, message }
        }
        e => e,
    })
}

/// The parts of a JSON document an importer reads; every other part is skipped unread
/// (`serde::de::IgnoredAny`), so a file's size bounds memory only through the parts kept: the
/// small files beside a format's results (a Harbor trial's `result.json`, lm-eval's results,
/// HELM's `run_spec.json`) can carry megabytes the importer never looks at (token ids and log
/// probabilities, task configurations, few-shot examples). A part kept is read as a [`Value`],
/// so that the importer's fields give the errors they gave when the file was read whole.
#[derive(Debug, Clone, Copy)]
pub enum Shape {
    /// The value whole; a key given twice in any of its objects is refused.
    Whole,
    /// An object's named members, each in its own shape, every other member skipped unread; a
    /// named member given twice is refused. A list where the object should be is kept empty
    /// (its elements unread: "expected an object, got a list" needs none of them).
    Fields(&'static [(&'static str, Shape)]),
    /// Every element of a list, or the value of every member of an object (a map keyed by
    /// task), in one shape; a member given twice is refused.
    Each(&'static Shape),
}

/// The parts of the JSON document `reader` holds that `shape` names, as a value, streamed
/// (the document is never held whole, only the parts kept). Errors name the file, the line
/// and, for a key given twice, the key.
pub(crate) fn shaped<R: Read>(path: &Path, reader: R, shape: Shape) -> Result<Value> {
    let mut de =
        serde_json::Deserializer::from_reader(std::io::BufReader::with_capacity(64 * 1024, reader));
    shape
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v))
        .map_err(|e| syntax(path, &e))
}

/// [`shaped`] over the file at `path` of `src`, opened as a stream.
pub(crate) fn shaped_file(src: &dyn super::Source, path: &Path, shape: Shape) -> Result<Value> {
    let file = src.open(path).map_err(|e| Error::io(path, e))?;
    shaped(path, file, shape)
}

impl<'de> DeserializeSeed<'de> for Shape {
    type Value = Value;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        match self {
            Shape::Whole => super::results::strict::Strict.deserialize(d),
            _ => d.deserialize_any(self),
        }
    }
}

impl<'de> Visitor<'de> for Shape {
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
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        match self {
            Shape::Each(inner) => {
                while let Some(v) = seq.next_element_seed(*inner)? {
                    out.push(v);
                }
            }
            _ => while seq.next_element::<IgnoredAny>()?.is_some() {},
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let part = match self {
                Shape::Fields(fields) => fields.iter().find(|(k, _)| *k == key).map(|(_, s)| *s),
                Shape::Each(inner) => Some(*inner),
                Shape::Whole => Some(Shape::Whole),
            };
            let Some(part) = part else {
                map.next_value::<IgnoredAny>()?;
                continue;
            };
            if out.contains_key(&key) {
                return Err(serde::de::Error::custom(format_args!(
                    "duplicate field `{key}`"
                )));
            }
            let v = map.next_value_seed(part)?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

/// A JSON object read as one record: its fields, with errors that name the record.
pub struct Rec<'a> {
    pub path: &'a Path,
    /// The record in the format's words: "record 3", "task 7 trial 2".
    pub label: String,
    pub value: &'a Value,
}

impl<'a> Rec<'a> {
    pub fn new(path: &'a Path, label: impl Into<String>, value: &'a Value) -> Result<Rec<'a>> {
        let r = Rec {
            path,
            label: label.into(),
            value,
        };
        if !value.is_object() {
            return Err(Error::input(
                r.at(),
                format!("expected a JSON object, got {}", describe(value)),
            ));
        }
        Ok(r)
    }

    /// Where this record is.
    pub fn at(&self) -> Location {
        Location::record(self.path, self.label.clone())
    }

    /// An error at one of its fields.
    pub fn bad(&self, field: &str, message: impl Into<String>) -> Error {
        Error::input(self.at().field(field), message)
    }

    /// A field's value; `None` when absent or `null`.
    pub fn get(&self, field: &str) -> Option<&'a Value> {
        self.value.get(field).filter(|v| !v.is_null())
    }

    fn expected(&self, field: &str, what: &str, got: &Value) -> Error {
        self.bad(field, format!("expected {what}, got {}", describe(got)))
    }

    /// A field that must be there.
    pub fn required(&self, field: &str, what: &str) -> Result<&'a Value> {
        self.get(field)
            .ok_or_else(|| self.bad(field, format!("missing: expected {what}")))
    }

    /// An id: a non-empty string, or a whole number written as one.
    pub fn id(&self, field: &str) -> Result<String> {
        let v = self.required(field, "an id (a string or a whole number)")?;
        match v {
            Value::String(s) if !s.trim().is_empty() => Ok(s.clone()),
            Value::Number(n) if n.is_u64() || n.is_i64() => Ok(n.to_string()),
            _ => Err(self.expected(field, "an id (a string or a whole number)", v)),
        }
    }

    /// A finite number, when given.
    pub fn number(&self, field: &str) -> Result<Option<f64>> {
        match self.get(field) {
            None => Ok(None),
            Some(v) => match v.as_f64().filter(|x| x.is_finite()) {
                Some(x) => Ok(Some(x)),
                None => Err(self.expected(field, "a finite number", v)),
            },
        }
    }

    /// A whole number, 0 or more, when given.
    pub fn count(&self, field: &str) -> Result<Option<u64>> {
        match self.get(field) {
            None => Ok(None),
            Some(v) => match v.as_u64() {
                Some(n) => Ok(Some(n)),
                None => Err(self.expected(field, "a whole number, 0 or more", v)),
            },
        }
    }

    /// A string, when given.
    pub fn text(&self, field: &str) -> Result<Option<&'a str>> {
        match self.get(field) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(v) => Err(self.expected(field, "a string", v)),
        }
    }

    /// A boolean, when given.
    pub(crate) fn boolean(&self, field: &str) -> Result<Option<bool>> {
        match self.get(field) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(v) => Err(self.expected(field, "true or false", v)),
        }
    }

    /// A list, when given.
    pub fn list(&self, field: &str) -> Result<Option<&'a Vec<Value>>> {
        match self.get(field) {
            None => Ok(None),
            Some(Value::Array(a)) => Ok(Some(a)),
            Some(v) => Err(self.expected(field, "a list", v)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_array_is_streamed_an_element_at_a_time() {
        let mut seen = Vec::new();
        let n = each_in_array(
            Path::new("f.json"),
            &b"[1, {\"a\": 2}, \"x\"]"[..],
            |i, v| {
                seen.push((i, v));
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(n, 3);
        assert_eq!(seen[1].1["a"], 2);
    }

    #[test]
    fn an_objects_members_are_streamed_in_file_order_and_a_key_twice_refused() {
        let mut seen = Vec::new();
        let n = each_in_object(
            Path::new("f.json"),
            &b"{\"b\": 1, \"a\": {\"x\": 2}, \"c\": 3}"[..],
            |i, k, v| {
                seen.push((i, k, v));
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(n, 3);
        let keys: Vec<&str> = seen.iter().map(|(_, k, _)| k.as_str()).collect();
        assert_eq!(keys, ["b", "a", "c"]);
        assert_eq!(seen[1].2["x"], 2);
        let twice = each_in_object(
            Path::new("f.json"),
            &b"{\"b\": 1, \"a\": 2, \"b\": 3}"[..],
            |_, _, _| Ok(()),
        )
        .unwrap_err();
        assert_eq!(
            twice.to_string(),
            "f.json: field `b`: appears twice at the top of the file; keep one"
        );
        let e = each_in_object(
            Path::new("f.json"),
            &b"{\"a\": 1, \"b\": 2}"[..],
            |_, k, _| {
                if k == "b" {
                    Err(Error::input(
                        Location::record(Path::new("f.json"), "b"),
                        "no",
                    ))
                } else {
                    Ok(())
                }
            },
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "f.json: b: no");
        for text in [&b"[1]"[..], &b"{\"a\": 1"[..], &b"{\"a\": 1} 2"[..]] {
            let e = each_in_object(Path::new("f.json"), text, |_, _, _| Ok(()))
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("f.json:1: not the JSON this format expects"),
                "{e}"
            );
        }
    }

    #[test]
    fn the_array_one_member_holds_is_streamed_and_the_rest_skipped() {
        let mut seen = Vec::new();
        let n = each_in_member(
            Path::new("f.json"),
            &b"{\"id\": \"x\", \"results\": [1, 2], \"accuracy\": {\"deep\": [0]}}"[..],
            "results",
            |i, v| {
                seen.push((i, v));
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(n, Some(2));
        assert_eq!(seen[1].1, 2);
        let none = each_in_member(
            Path::new("f.json"),
            &b"{\"x\": []}"[..],
            "results",
            |_, _| Ok(()),
        )
        .unwrap();
        assert_eq!(none, None);
        let e = each_in_member(
            Path::new("f.json"),
            &b"{\"results\": [1, 2, 3]}"[..],
            "results",
            |i, _| {
                if i == 1 {
                    Err(Error::input(
                        Location::record(Path::new("f.json"), "record 2"),
                        "no",
                    ))
                } else {
                    Ok(())
                }
            },
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "f.json: record 2: no");
        for (text, says) in [
            (&b"{\"results\": [], \"results\": []}"[..], "appears twice"),
            (
                &b"{\"results\": {}}"[..],
                "field `results`: expected a list, got an object",
            ),
            (
                &b"{\"results\": 3}"[..],
                "field `results`: expected a list, got 3",
            ),
            (&b"[[1]]"[..], "f.json:1: not the JSON"),
        ] {
            let e = each_in_member(Path::new("f.json"), text, "results", |_, _| Ok(()))
                .unwrap_err()
                .to_string();
            assert!(e.contains(says), "{e}");
        }
    }

    #[test]
    fn a_bad_element_stops_the_stream_with_its_own_error() {
        let e = each_in_array(Path::new("f.json"), &b"[1, 2, 3]"[..], |i, _| {
            if i == 1 {
                Err(Error::input(
                    Location::record(Path::new("f.json"), "record 2"),
                    "no",
                ))
            } else {
                Ok(())
            }
        })
        .unwrap_err();
        assert_eq!(e.to_string(), "f.json: record 2: no");
        for (text, says) in [
            (
                &b"{\"a\": 1}"[..],
                "f.json:1: not the JSON this format expects",
            ),
            (&b"[1, 2"[..], "f.json:1: not the JSON this format expects"),
            (&b"[1] [2]"[..], "trailing characters"),
            (&b"[NaN]"[..], "f.json:1"),
        ] {
            let e = each_in_array(Path::new("f.json"), text, |_, _| Ok(()))
                .unwrap_err()
                .to_string();
            assert!(e.contains(says), "{e}");
        }
    }

    #[test]
    fn a_shape_keeps_the_parts_it_names_and_skips_the_rest_unread() {
        const INNER: Shape = Shape::Fields(&[("k", Shape::Whole)]);
        const SHAPE: Shape = Shape::Fields(&[
            ("a", Shape::Whole),
            ("o", INNER),
            ("l", Shape::Each(&INNER)),
            ("m", Shape::Each(&INNER)),
            ("wrong", INNER),
        ]);
        let v = shaped(
            Path::new("f.json"),
            &br#"{"a": {"x": [1]}, "skip": {"big": [1, 2, {"d": 1, "d": 2}]},
                  "o": {"k": 1, "no": [2]}, "l": [{"k": 2, "no": 3}, 4],
                  "m": {"t1": {"k": 5, "no": 6}}, "wrong": [1, 2], "skip": 1}"#[..],
            SHAPE,
        )
        .unwrap();
        assert_eq!(
            v,
            serde_json::json!({"a": {"x": [1]}, "o": {"k": 1}, "l": [{"k": 2}, 4],
                               "m": {"t1": {"k": 5}}, "wrong": []})
        );
        for (text, says) in [
            (
                &br#"{"a": 1, "a": 2}"#[..],
                "f.json:1: field `a`: the key appears twice in one object",
            ),
            (
                &b"{\"o\": {\"k\": 1,\n \"k\": 2}}"[..],
                "f.json:2: field `k`: the key appears twice",
            ),
            (
                &br#"{"a": {"x": 1, "x": 2}}"#[..],
                "f.json:1: field `x`: the key appears twice",
            ),
            (
                &br#"{"m": {"t": {}, "t": {}}}"#[..],
                "f.json:1: field `t`: the key appears twice",
            ),
            (
                &br#"{"a": 1"#[..],
                "f.json:1: not the JSON this format expects",
            ),
            (&br#"{"a": 1} 2"#[..], "trailing characters"),
        ] {
            let e = shaped(Path::new("f.json"), text, SHAPE)
                .unwrap_err()
                .to_string();
            assert!(e.contains(says), "{e}");
        }
        // A value that is not an object is kept as it is, for the importer to refuse.
        assert_eq!(
            shaped(Path::new("f.json"), &b"7"[..], SHAPE).unwrap(),
            Value::from(7)
        );
    }

    #[test]
    fn fields_are_read_with_errors_that_name_the_record() {
        let v: Value = serde_json::json!({"id": 7, "x": "y", "n": -1});
        let r = Rec::new(Path::new("f.json"), "task 7", &v).unwrap();
        assert_eq!(r.id("id").unwrap(), "7");
        assert_eq!(
            r.number("x").unwrap_err().to_string(),
            "f.json: task 7: field `x`: expected a finite number, got the string \"y\""
        );
        assert_eq!(
            r.count("n").unwrap_err().to_string(),
            "f.json: task 7: field `n`: expected a whole number, 0 or more, got -1"
        );
        assert_eq!(
            r.required("gone", "a number").unwrap_err().to_string(),
            "f.json: task 7: field `gone`: missing: expected a number"
        );
        assert!(Rec::new(Path::new("f.json"), "r", &Value::Bool(true)).is_err());
    }
}
