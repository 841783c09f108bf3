//! The canonical JSON every hashed format is written in, by hand: one way to write each value,
//! fixed here rather than by whatever a serialisation library does this year (docs/formats.md,
//! "Canonical JSON").
//!
//! - No whitespace. Object keys in the order each format lists them; arrays in ledger order.
//! - Strings: UTF-8 as is, except `"` → `\"`, `\` → `\\`, U+0008 → `\b`, U+000C → `\f`,
//!   U+000A → `\n`, U+000D → `\r`, U+0009 → `\t`, and every other character below U+0020 →
//!   `\u00XX` with lower-case hex digits.
//! - Whole numbers (counts, trial numbers, ids, versions): decimal, no sign unless negative,
//!   no leading zeros.
//! - Measured numbers (`f64`): see [`number`]. Not-finite values are written `null`.
//! - `true`, `false`, `null`.
//!
//! This is exactly what serde_json 1.0.154 wrote for the same values, which is what format 1
//! was first hashed with; the tests hold the two to each other.

use sha2::{Digest, Sha256};

/// Where canonical JSON goes: memory, or straight into a hash.
pub trait Sink {
    fn put(&mut self, bytes: &[u8]);
}

impl Sink for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// A SHA-256 fed through a buffer: canonical JSON is written in many small pieces.
pub struct HashSink {
    buf: Vec<u8>,
    hash: Sha256,
}

impl HashSink {
    const CAPACITY: usize = 64 * 1024;

    pub fn new() -> HashSink {
        HashSink {
            buf: Vec::with_capacity(Self::CAPACITY),
            hash: Sha256::new(),
        }
    }

    /// The lower-case hex SHA-256 of everything put.
    pub fn finish(mut self) -> String {
        self.hash.update(&self.buf);
        crate::digest::hex(&self.hash.finalize())
    }
}

impl Default for HashSink {
    fn default() -> Self {
        HashSink::new()
    }
}

impl Sink for HashSink {
    fn put(&mut self, bytes: &[u8]) {
        if self.buf.len() + bytes.len() > Self::CAPACITY {
            self.hash.update(&self.buf);
            self.buf.clear();
        }
        if bytes.len() > Self::CAPACITY {
            self.hash.update(bytes);
        } else {
            self.buf.extend_from_slice(bytes);
        }
    }
}

/// A canonical JSON writer. Objects and arrays are opened and closed explicitly; separators
/// are written for the caller, so a format reads as the list of its keys and values.
pub struct Json<S: Sink> {
    sink: S,
    /// Whether the next key or array element follows another, and so needs a comma first.
    comma: bool,
}

impl<S: Sink> Json<S> {
    pub fn new(sink: S) -> Json<S> {
        Json { sink, comma: false }
    }

    pub(crate) fn into_sink(self) -> S {
        self.sink
    }

    /// Starts a value: a comma first when it follows another element.
    fn element(&mut self) {
        if self.comma {
            self.sink.put(b",");
        }
        self.comma = true;
    }

    pub(crate) fn begin_object(&mut self) -> &mut Self {
        self.element();
        self.sink.put(b"{");
        self.comma = false;
        self
    }

    pub(crate) fn end_object(&mut self) -> &mut Self {
        self.sink.put(b"}");
        self.comma = true;
        self
    }

    pub(crate) fn begin_array(&mut self) -> &mut Self {
        self.element();
        self.sink.put(b"[");
        self.comma = false;
        self
    }

    pub(crate) fn end_array(&mut self) -> &mut Self {
        self.sink.put(b"]");
        self.comma = true;
        self
    }

    /// A key of the innermost object; its value is written next.
    pub fn key(&mut self, key: &str) -> &mut Self {
        self.element();
        write_str(&mut self.sink, key);
        self.sink.put(b":");
        self.comma = false;
        self
    }

    pub fn str(&mut self, s: &str) -> &mut Self {
        self.element();
        write_str(&mut self.sink, s);
        self
    }

    pub fn f64(&mut self, x: f64) -> &mut Self {
        self.element();
        self.sink.put(number(x).as_bytes());
        self
    }

    pub fn u64(&mut self, n: u64) -> &mut Self {
        self.element();
        self.sink.put(n.to_string().as_bytes());
        self
    }

    pub fn i64(&mut self, n: i64) -> &mut Self {
        self.element();
        self.sink.put(n.to_string().as_bytes());
        self
    }

    pub fn bool(&mut self, b: bool) -> &mut Self {
        self.element();
        self.sink.put(if b { b"true" } else { b"false" });
        self
    }

    pub fn null(&mut self) -> &mut Self {
        self.element();
        self.sink.put(b"null");
        self
    }

    pub(crate) fn opt_str(&mut self, s: Option<&str>) -> &mut Self {
        match s {
            Some(s) => self.str(s),
            None => self.null(),
        }
    }

    pub(crate) fn opt_f64(&mut self, x: Option<f64>) -> &mut Self {
        match x {
            Some(x) => self.f64(x),
            None => self.null(),
        }
    }

    pub(crate) fn opt_u64(&mut self, n: Option<u64>) -> &mut Self {
        match n {
            Some(n) => self.u64(n),
            None => self.null(),
        }
    }

    pub(crate) fn opt_bool(&mut self, b: Option<bool>) -> &mut Self {
        match b {
            Some(b) => self.bool(b),
            None => self.null(),
        }
    }
}

/// A string, quoted and escaped (see the module's documentation).
fn write_str<S: Sink>(sink: &mut S, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    sink.put(b"\"");
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escape: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            0x08 => b"\\b",
            0x0c => b"\\f",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x00..=0x1f => {
                sink.put(&bytes[start..i]);
                sink.put(&[
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX[usize::from(b >> 4)],
                    HEX[usize::from(b & 0xf)],
                ]);
                start = i + 1;
                continue;
            }
            _ => continue,
        };
        sink.put(&bytes[start..i]);
        sink.put(escape);
        start = i + 1;
    }
    sink.put(&bytes[start..]);
    sink.put(b"\"");
}

/// A measured number (`f64`), canonically: `null` when not finite; otherwise the shortest
/// decimal digits that read back to the same `f64` (nearest on a tie, as the Ryū algorithm
/// finds them), written
///
/// - in plain notation when the decimal exponent `k` of the first digit (the `k` of
///   d.ddd × 10^k) is in -5 ≤ k < 16, always with a fractional part: `0.0`, `-0.0`, `132.0`,
///   `0.1`, `0.00001`, `250000.5`, `1000000000000000.0`;
/// - otherwise in scientific notation, the first digit, the others after a point if any, then
///   `e`, the exponent's sign (`+` or `-`) and its digits: `1e-7`, `1.5e-6`, `1e+16`,
///   `1.2345678901234568e+17`.
pub fn number(x: f64) -> String {
    if !x.is_finite() {
        return "null".into();
    }
    let mut buf = ryu::Buffer::new();
    let shortest = buf.format_finite(x);
    // Take Ryū's text apart into sign, significant digits and exponent, then write it by the
    // rule above: the digits are Ryū's, the notation is this format's own.
    let (negative, unsigned) = match shortest.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, shortest),
    };
    let (mantissa, exp) = match unsigned.split_once('e') {
        Some((m, e)) => (m, e.parse::<i32>().unwrap_or(0)),
        None => (unsigned, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all: String = format!("{int}{frac}");
    let digits = all.trim_start_matches('0');
    let sign = if negative { "-" } else { "" };
    if digits.is_empty() {
        return format!("{sign}0.0");
    }
    let trimmed = digits.trim_end_matches('0');
    // value = trimmed × 10^exp10
    let exp10 = exp - frac.len() as i32 + (digits.len() - trimmed.len()) as i32;
    let k = trimmed.len() as i32 - 1 + exp10;
    if (-5..16).contains(&k) {
        if exp10 >= 0 {
            format!("{sign}{trimmed}{}.0", "0".repeat(exp10 as usize))
        } else {
            let point = trimmed.len() as i32 + exp10;
            if point > 0 {
                let (a, b) = trimmed.split_at(point as usize);
                format!("{sign}{a}.{b}")
            } else {
                format!("{sign}0.{}{trimmed}", "0".repeat((-point) as usize))
            }
        }
    } else {
        let (first, rest) = trimmed.split_at(1);
        let point = if rest.is_empty() { "" } else { "." };
        let exp_sign = if k < 0 { "-" } else { "+" };
        format!("{sign}{first}{point}{rest}e{exp_sign}{}", k.unsigned_abs())
    }
}

/// Canonical JSON written into memory, as text.
pub fn to_string(write: impl FnOnce(&mut Json<Vec<u8>>)) -> String {
    let mut j = Json::new(Vec::new());
    write(&mut j);
    // Only `&str` pieces and ASCII punctuation are ever put.
    String::from_utf8(j.into_sink()).expect("canonical JSON is written from UTF-8 pieces")
}

/// The SHA-256 of canonical JSON, hashed as it is written.
pub fn sha256(write: impl FnOnce(&mut Json<HashSink>)) -> String {
    let mut j = Json::new(HashSink::new());
    write(&mut j);
    j.into_sink().finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn numbers_are_written_canonically() {
        for (x, text) in [
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (132.0, "132.0"),
            (0.1, "0.1"),
            (1e-7, "1e-7"),
            (1e-5, "0.00001"),
            (1.5e-5, "0.000015"),
            (1.5e-6, "1.5e-6"),
            (250_000.5, "250000.5"),
            (1e6, "1000000.0"),
            (9.999e15, "9999000000000000.0"),
            (1e16, "1e+16"),
            (1.25e16, "1.25e+16"),
            (123_456_789_012_345_680.0, "1.2345678901234568e+17"),
            (0.300_000_000_000_000_04, "0.30000000000000004"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e+308"),
            (-2.5, "-2.5"),
            (f64::NAN, "null"),
            (f64::INFINITY, "null"),
        ] {
            assert_eq!(number(x), text, "{x:?}");
        }
    }

    #[test]
    fn strings_are_escaped_canonically() {
        let s = to_string(|j| {
            j.str("a\"b\\c\u{8}\u{c}\n\r\t\u{0}\u{1f}\u{7f} ü ✓ \u{2028}");
        });
        assert_eq!(
            s,
            "\"a\\\"b\\\\c\\b\\f\\n\\r\\t\\u0000\\u001f\u{7f} ü ✓ \u{2028}\""
        );
    }

    #[test]
    fn separators_follow_the_structure() {
        let s = to_string(|j| {
            j.begin_object();
            j.key("a").u64(1);
            j.key("b").begin_array();
            j.begin_object().key("c").null().end_object();
            j.begin_object().end_object();
            j.bool(true);
            j.end_array();
            j.key("d").begin_object().end_object();
            j.key("e").f64(1.0);
            j.end_object();
        });
        assert_eq!(s, r#"{"a":1,"b":[{"c":null},{},true],"d":{},"e":1.0}"#);
    }

    #[test]
    fn hashing_as_written_equals_hashing_the_text() {
        fn write<S: Sink>(j: &mut Json<S>, long: &str) {
            j.begin_array();
            for i in 0..1000 {
                j.u64(i);
            }
            j.str(long);
            j.end_array();
        }
        let long = "x".repeat(200_000);
        let text = to_string(|j| write(j, &long));
        assert_eq!(
            sha256(|j| write(j, &long)),
            crate::digest::sha256_hex(text.as_bytes())
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        /// Format 1 was first hashed with serde_json 1.0.154's output: the canonical writer
        /// must give the same text for every value.
        #[test]
        fn numbers_are_what_format_1_was_hashed_with(bits in any::<u64>()) {
            let x = f64::from_bits(bits);
            let serde = serde_json::to_string(&x).unwrap();
            prop_assert_eq!(number(x), serde);
        }

        #[test]
        fn numbers_read_back_to_themselves(bits in any::<u64>()) {
            let x = f64::from_bits(bits);
            prop_assume!(x.is_finite());
            let back: f64 = number(x).parse().unwrap();
            prop_assert_eq!(back.to_bits(), x.to_bits());
        }

        #[test]
        fn strings_are_what_format_1_was_hashed_with(s in any::<String>()) {
            prop_assert_eq!(to_string(|j| { j.str(&s); }), serde_json::to_string(&s).unwrap());
        }
    }
}
