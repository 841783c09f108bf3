//! Keys and tokens found in a submission's files (`[secrets]`): the shapes the providers and
//! hosts give their credentials, searched in every byte of every file (and in every member of
//! an archive, where compression hides them), and **never printed whole**: a key found is
//! named by its kind, its first four and last two characters and its length.
//!
//! The shapes are the providers' own published prefixes: OpenAI (`sk-`, `sk-proj-`), Anthropic
//! (`sk-ant-`), AWS access key ids (`AKIA`, `ASIA`), GitHub (`ghp_`, `gho_`, `ghu_`, `ghs_`,
//! `ghr_`, `github_pat_`), Hugging Face (`hf_`), Google API keys (`AIza`), Slack (`xox?-`),
//! Stripe live keys, and PEM private keys. AWS's documentation key (`…EXAMPLE`) is not one.

use std::io::Read;
use std::sync::OnceLock;

/// The kinds, in the order of the pattern's alternatives (a more specific prefix first:
/// Anthropic's `sk-ant-` before OpenAI's `sk-`).
const KINDS: &[(&str, &str)] = &[
    (
        "anthropic",
        r"\bsk-ant-[A-Za-z0-9]{2,12}-[A-Za-z0-9_\-]{32,256}",
    ),
    (
        "openai",
        r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{32,256}",
    ),
    ("aws", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    (
        "github",
        r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})",
    ),
    ("huggingface", r"\bhf_[A-Za-z0-9]{30,64}\b"),
    ("google", r"\bAIza[0-9A-Za-z_\-]{35}\b"),
    ("slack", r"\bxox[abposr]-[A-Za-z0-9\-]{10,200}"),
    ("stripe", r"\b[rs]k_live_[0-9A-Za-z]{20,200}"),
    (
        "private-key",
        r"-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----",
    ),
];

/// The longest text a pattern can match: the overlap kept between two chunks of a file.
const OVERLAP: usize = 4096;

/// Bytes read at a time.
const CHUNK: usize = 1024 * 1024;

fn pattern() -> &'static regex::bytes::Regex {
    static P: OnceLock<regex::bytes::Regex> = OnceLock::new();
    P.get_or_init(|| {
        let alternatives: Vec<String> = KINDS
            .iter()
            .enumerate()
            .map(|(i, (_, p))| format!("(?P<k{i}>{p})"))
            .collect();
        regex::bytes::Regex::new(&alternatives.join("|")).expect("the shapes are valid")
    })
}

/// A key or token found.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Found {
    /// "openai", "aws", ... ([`KINDS`]).
    pub kind: &'static str,
    /// 1-based line of the file (of the archive's member).
    pub line: u64,
    /// Masked: `sk-p…Q2 (164 characters)`.
    pub masked: String,
}

/// `sk-p…Q2 (164 characters)`: the first four and last two characters, and the length.
pub(crate) fn mask(key: &str) -> String {
    let chars: Vec<char> = key.chars().collect();
    if chars.len() <= 8 {
        return format!("… ({} characters)", chars.len());
    }
    let head: String = chars[..4].iter().collect();
    let tail: String = chars[chars.len() - 2..].iter().collect();
    format!("{head}…{tail} ({} characters)", chars.len())
}

fn kind_of(caps: &regex::bytes::Captures<'_>) -> &'static str {
    KINDS
        .iter()
        .enumerate()
        .find(|(i, _)| caps.name(&format!("k{i}")).is_some())
        .map_or("key", |(_, (k, _))| k)
}

fn is_example(key: &[u8]) -> bool {
    key.windows(7).any(|w| w == b"EXAMPLE")
}

/// Every key in a text replaced by its mask: what an excerpt holds before it is shown.
pub(crate) fn mask_all(text: &str) -> String {
    let p = pattern();
    if !p.is_match(text.as_bytes()) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for m in p.find_iter(text.as_bytes()) {
        out.push_str(&text[last..m.start()]);
        out.push_str(&mask(&text[m.start()..m.end()]));
        last = m.end();
    }
    out.push_str(&text[last..]);
    out
}

/// Searches a stream for keys, a chunk at a time (consecutive chunks overlap by the longest
/// key, so none is missed at a seam and none is found twice). At most `limit` are kept;
/// the count of all is returned beside them.
pub fn search(mut reader: impl Read, limit: usize) -> std::io::Result<(Vec<Found>, u64)> {
    let p = pattern();
    // Grown as the stream needs, never zero-filled: most files are far smaller than a chunk.
    let mut buf: Vec<u8> = Vec::new();
    let mut found = Vec::new();
    let mut count = 0u64;
    // Lines before `buf[0]`.
    let mut line_base = 1u64;
    loop {
        let start = buf.len();
        let n = (&mut reader).take(CHUNK as u64).read_to_end(&mut buf)?;
        let eof = n < CHUNK || buf.len() == start;
        // Matches starting before `cut` are taken now; the rest wait for the next chunk,
        // which starts with the overlap.
        let cut = if eof {
            buf.len()
        } else {
            buf.len().saturating_sub(OVERLAP)
        };
        let mut counted_to = 0usize;
        let mut line = line_base;
        for m in p.find_iter(&buf) {
            if m.start() >= cut {
                break;
            }
            if is_example(m.as_bytes()) {
                continue;
            }
            count += 1;
            if found.len() < limit {
                line += buf[counted_to..m.start()]
                    .iter()
                    .filter(|b| **b == b'\n')
                    .count() as u64;
                counted_to = m.start();
                let kind = p
                    .captures_at(&buf, m.start())
                    .map_or("key", |caps| kind_of(&caps));
                found.push(Found {
                    kind,
                    line,
                    masked: mask(&String::from_utf8_lossy(m.as_bytes())),
                });
            }
        }
        if eof {
            return Ok((found, count));
        }
        line_base += buf[..cut].iter().filter(|b| **b == b'\n').count() as u64;
        buf.drain(..cut);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys of each kind, made for these tests (none is real).
    pub(crate) fn planted() -> Vec<(&'static str, String)> {
        vec![
            ("openai", format!("sk-proj-{}", "Ab3".repeat(16))),
            ("anthropic", format!("sk-ant-api03-{}", "Zq9_".repeat(20))),
            ("aws", "AKIAQWERTYUIOPASDFGH".to_string()),
            ("github", format!("ghp_{}", "x1Y2".repeat(9))),
            ("huggingface", format!("hf_{}", "k7L".repeat(12))),
        ]
    }

    #[test]
    fn every_kind_is_found_and_never_shown_whole() {
        for (kind, key) in planted() {
            let text = format!("line one\nexport KEY={key} # set\n");
            let (found, n) = search(text.as_bytes(), 10).unwrap();
            assert_eq!(n, 1, "{kind}: {found:?}");
            assert_eq!(found[0].kind, kind);
            assert_eq!(found[0].line, 2);
            assert!(
                !found[0].masked.contains(&key[4..key.len() - 2]),
                "{found:?}"
            );
            assert!(found[0].masked.starts_with(&key[..4]));
            let masked = mask_all(&text);
            assert!(!masked.contains(&key), "{masked}");
        }
    }

    #[test]
    fn a_key_at_a_chunk_seam_is_found_once_with_its_line() {
        let key = planted()[0].1.clone();
        let mut text = "a\n".repeat((CHUNK - 10) / 2);
        text.push_str(&key);
        text.push('\n');
        text.push_str(&"b".repeat(CHUNK));
        let (found, n) = search(text.as_bytes(), 10).unwrap();
        assert_eq!(n, 1, "{found:?}");
        assert_eq!(found[0].line, (CHUNK as u64 - 10) / 2 + 1);
    }

    #[test]
    fn words_that_look_like_prefixes_are_not_keys() {
        let text = "task-abcdefghijklmnopqrstuvwxyz0123456789abcdef AKIAIOSFODNN7EXAMPLE sk-short";
        assert_eq!(search(text.as_bytes(), 10).unwrap().1, 0);
    }
}
