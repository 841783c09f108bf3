//! Diagnostics shared by every parser of user files: the line a byte offset sits on, a TOML
//! error turned into `file:line: field: message`, the rule for ids, and the known name closest
//! to a misspelt one.
//!
//! Ingest (wave manifests, result files) and the rubric language both report bad input this
//! way, and neither should depend on the other to do it; this module is where they meet, so an
//! error reads the same whichever file it is about.

use std::path::Path;

use crate::error::{Error, Location, Result};

/// The 1-based line of a byte offset in a text.
pub(crate) fn line_of(text: &str, offset: usize) -> usize {
    text[..text.floor_char_boundary(offset.min(text.len()))]
        .bytes()
        .filter(|b| *b == b'\n')
        .count()
        + 1
}

/// A TOML deserialisation error as `file:line: message`, with the field named when the message
/// carries it.
pub(crate) fn toml_error(path: &Path, text: &str, e: &toml::de::Error) -> Error {
    let at = match e.span() {
        Some(span) => Location::line(path, line_of(text, span.start)),
        None => Location::file(path),
    };
    let message = e.message().trim().to_string();
    // serde says "unknown field `x`, expected one of ..." or "missing field `x`"; name the field
    // in the location too.
    let named = ["unknown field `", "missing field `"]
        .iter()
        .find_map(|p| message.strip_prefix(p))
        .and_then(|r| r.split('`').next());
    if let Some(field) = named {
        return Error::input(at.field(field), message);
    }
    // "invalid type: string \"two\", expected i64" names neither the key nor, in words, what
    // was expected: take the key from the line the value sits on, and say the type plainly.
    let keyed = |at: Location| match e.span().and_then(|s| key_on_line(text, s.start)) {
        Some(key) => at.field(key),
        None => at,
    };
    // The value as written, for a number too large to be read at all.
    let written = e
        .span()
        .and_then(|s| text.get(s))
        .map(str::trim)
        .filter(|w| !w.is_empty());
    if let Some(rest) = message.strip_prefix("invalid type: ")
        && let Some((got, want)) = rest.rsplit_once(", expected ")
    {
        // A table written as a list of tables (`[[wave]]`), or a list as one table (`[seat]`).
        let header_line = e.span().is_some_and(|s| {
            let start = text.floor_char_boundary(s.start.min(text.len()));
            let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
            text[line_start..].trim_start().starts_with('[')
        });
        if header_line
            && let Some(header) = written
            && let Some(name) = e.span().and_then(|s| key_on_line(text, s.start))
        {
            let words = if header.starts_with("[[") {
                format!(
                    "[[{name}]] makes a list of tables, but `{name}` is one table: write [{name}]"
                )
            } else if want == "a sequence" || want == "sequence" {
                format!(
                    "[{name}] makes one table, but `{name}` is a list of tables: write [[{name}]] for each"
                )
            } else {
                format!("expected {}, got {}", plain(want), plain(got))
            };
            return Error::input(keyed(at), words);
        }
        // A whole number beyond 64 bits arrives as "integer `N` as i128".
        if got.starts_with("integer `")
            && got.ends_with("` as i128")
            && let Some(n) = written
        {
            return Error::input(
                keyed(at),
                format!("number out of range: expected {}, got {n}", plain(want)),
            );
        }
        return Error::input(
            keyed(at),
            format!("expected {}, got {}", plain(want), plain(got)),
        );
    }
    // `1e400` is beyond any floating-point number: "floating-point number overflowed" names
    // neither the key nor what was expected.
    if message == "floating-point number overflowed"
        && let Some(n) = written
    {
        return Error::input(
            keyed(at),
            format!("number out of range: expected a finite number, got {n}"),
        );
    }
    Error::input(at, message)
}

/// The bare key of the `key = value` line holding a byte offset, if that line is one; the
/// table's name, if it is a table's header (`[wave]`, `[[wave]]`, `[wave.budget]`).
fn key_on_line(text: &str, offset: usize) -> Option<&str> {
    let offset = text.floor_char_boundary(offset.min(text.len()));
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let line = text[start..end].trim();
    if let Some(header) = line.strip_prefix('[') {
        let name = header.split(']').next()?.trim_start_matches('[').trim();
        let bare = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
        return bare.then_some(name);
    }
    let (key, _) = line.split_once('=')?;
    let key = key.trim();
    let bare = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'));
    bare.then_some(key)
}

/// serde's names for types, in the words of the manifest's documentation.
fn plain(s: &str) -> String {
    match s {
        "i64" | "u64" | "i32" | "u32" => "a whole number".into(),
        "f64" | "f32" => "a number".into(),
        "a boolean" => "true or false".into(),
        "sequence" => "a list".into(),
        "map" => "a table".into(),
        _ => match s.strip_prefix("string ") {
            Some(quoted) => format!("the string {quoted}"),
            None => s.into(),
        },
    }
}

/// Checks a slug: letters, digits, `.`, `_` and `-`, starting with a letter or digit.
pub(crate) fn check_slug(at: Location, what: &str, s: &str) -> Result<()> {
    let ok = s.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if ok {
        Ok(())
    } else {
        Err(Error::input(
            at,
            format!(
                "{what} {s:?} is not a valid id: use letters, digits, '.', '_' and '-', \
                 starting with a letter or digit"
            ),
        ))
    }
}

/// Refuses a text holding NUL (U+0000), the one rule for both stores: SQLite would keep it,
/// PostgreSQL refuses it in any text, so a ledger could not be copied from one to the other.
pub(crate) fn check_no_nul(at: Location, s: &str) -> Result<()> {
    match s.find('\0') {
        None => Ok(()),
        Some(i) => Err(Error::input(
            at,
            format!(
                "holds a NUL character (U+0000) at byte {i} of {s:?}: no ledger stores one \
                 (PostgreSQL refuses it in text, so SQLite does not take it either); remove it \
                 from the source"
            ),
        )),
    }
}

/// The error for bytes that are not UTF-8 text, naming the line of the first invalid byte
/// (`first_line` being the line `bytes` starts on) and its column in bytes. `None` when they
/// are UTF-8. Of the kind `std::fs::read_to_string` gives (`InvalidData`).
pub(crate) fn not_utf8(bytes: &[u8], first_line: usize) -> Option<std::io::Error> {
    let e = std::str::from_utf8(bytes).err()?;
    let valid = &bytes[..e.valid_up_to()];
    let line = first_line + valid.iter().filter(|b| **b == b'\n').count();
    let column = valid.len() - valid.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1) + 1;
    Some(std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!(
            "line {line} is not UTF-8 text (an invalid byte at column {column}): save the file \
             as UTF-8"
        ),
    ))
}

/// The known name closest to a misspelt one, if any is close.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 4))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// The name one not quite any means: the closest by spelling ([`closest`]), else the one a
/// longer name begins with, separators and case aside (`inspect-ai` and `inspect_ai` are
/// `inspect`), else the one whose words it spells out (`lm-evaluation-harness` is `lm-eval`).
pub(crate) fn near_name<'a>(name: &str, names: &[&'a str]) -> Option<&'a str> {
    let lower = name.to_ascii_lowercase();
    if let Some(c) = closest(&lower, names.iter().copied()) {
        return Some(c);
    }
    let bare = |s: &str| -> String { s.chars().filter(char::is_ascii_alphanumeric).collect() };
    let given = bare(&lower);
    let words: Vec<&str> = lower.split(['-', '_', ' ']).collect();
    names
        .iter()
        .copied()
        .filter(|n| {
            let n = bare(n);
            given.starts_with(&n) || (n.starts_with(&given) && given.len() >= 4)
        })
        .max_by_key(|n| n.len())
        .or_else(|| {
            names.iter().copied().find(|n| {
                let parts: Vec<&str> = n.split('-').collect();
                parts.len() > 1
                    && words.len() >= parts.len()
                    && parts.iter().zip(&words).all(|(p, w)| w.starts_with(p))
            })
        })
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_near_name_is_found_by_spelling_prefix_or_words() {
        let names = [
            "inspect",
            "inspect-summaries",
            "lm-eval",
            "terminal-bench",
            "harbor",
        ];
        for (given, near) in [
            ("inspect-ai", Some("inspect")),
            ("inspect_ai", Some("inspect")),
            ("Inspect", Some("inspect")),
            ("lm-evaluation-harness", Some("lm-eval")),
            ("lm_eval", Some("lm-eval")),
            ("terminal_bench", Some("terminal-bench")),
            ("harbour", Some("harbor")),
            ("xyz", None),
        ] {
            assert_eq!(near_name(given, &names), near, "{given}");
        }
    }

    #[test]
    fn a_byte_offset_is_on_its_one_based_line() {
        let text = "a = 1\nb = 2\n";
        assert_eq!(line_of(text, 0), 1);
        assert_eq!(line_of(text, 6), 2);
        assert_eq!(line_of(text, 999), 3);
    }

    #[test]
    fn the_closest_name_is_suggested_only_when_it_is_close() {
        let names = ["wall_s", "cost_usd", "tokens_total"];
        assert_eq!(closest("wal_s", names), Some("wall_s"));
        assert_eq!(closest("token_total", names), Some("tokens_total"));
        assert_eq!(closest("zzzzzzzz", names), None);
    }

    #[test]
    fn a_slug_starts_with_a_letter_or_digit() {
        let at = || Location::file(Path::new("m.toml")).field("id");
        assert!(check_slug(at(), "wave id", "rca-wave.2_b").is_ok());
        assert_eq!(
            check_slug(at(), "wave id", "-x").unwrap_err().to_string(),
            "m.toml: field `id`: wave id \"-x\" is not a valid id: use letters, digits, '.', '_' \
             and '-', starting with a letter or digit"
        );
        assert!(check_slug(at(), "wave id", "a b").is_err());
    }

    #[test]
    fn a_number_too_large_to_read_names_its_key_and_what_was_expected() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Budget {
            tokens: Option<f64>,
            sessions: Option<i64>,
        }
        let err = |text: &str| {
            let e = toml::from_str::<Budget>(text).unwrap_err();
            toml_error(Path::new("m.toml"), text, &e).to_string()
        };
        assert_eq!(
            err("sessions = 2\ntokens = 1e400\n"),
            "m.toml:2: field `tokens`: number out of range: expected a finite number, got 1e400"
        );
        assert_eq!(
            err("tokens  =  -1e400   # a typo\n"),
            "m.toml:1: field `tokens`: number out of range: expected a finite number, got -1e400"
        );
        assert_eq!(
            err("sessions = 99999999999999999999\n"),
            "m.toml:1: field `sessions`: number out of range: expected a whole number, got \
             99999999999999999999"
        );
        // Other type errors keep their words.
        assert_eq!(
            err("sessions = \"two\"\n"),
            "m.toml:1: field `sessions`: expected a whole number, got the string \"two\""
        );
    }
}
