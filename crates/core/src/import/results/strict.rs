//! Strict JSON: serde visitors that refuse an object giving the same key twice (serde_json
//! keeps the last silently), and that read a result line's object straight into its
//! [`Fields`], with no map built per line.

use serde_json::{Map, Value};

use super::fields::{FIELDS, Fields, index_of};

/// A result line as read: an object's fields, or whatever other JSON value the line holds.
// One lives at a time, on the stack; boxing the fields would cost an allocation per line.
#[allow(clippy::large_enum_variant)]
pub(super) enum Top {
    Object(Fields),
    Other(Value),
}

/// Parses one JSON line like [`strict_json`], but reads a top-level object straight into
/// [`Fields`]: the same errors, in the same order, as building the object and then reading it.
pub(super) fn strict_line(raw: &str) -> serde_json::Result<Top> {
    use serde::de::DeserializeSeed;
    let mut de = serde_json::Deserializer::from_str(raw);
    let v = LineSeed.deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// Parses JSON like `serde_json::from_str::<Value>`, but refuses an object that gives the same
/// key twice: serde_json keeps the last silently, so `{"correct":true,"correct":false}` would
/// otherwise land as not Correct without a word.
pub(super) fn strict_json(raw: &str) -> serde_json::Result<Value> {
    use serde::de::DeserializeSeed;
    let mut de = serde_json::Deserializer::from_str(raw);
    let v = Strict.deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// A [`Value`] builder that refuses duplicate keys, at any depth: what every JSON importer
/// reads a value with (`import::json::strict_str`), so that no format keeps the last of two.
#[derive(Clone, Copy)]
pub(crate) struct Strict;

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
