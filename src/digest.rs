//! SHA-256 digests over canonical serialisations.
//!
//! A digest must come out the same on every machine for the same data, so the serialisation is
//! fixed: JSON with struct fields in declaration order, arrays in ledger order, and numbers as
//! `serde_json` writes them (the shortest text that reads back to the same `f64`, via `ryu`),
//! which does not depend on the platform or locale.
//!
//! Serialising here cannot fail, and where the types allow a failure the code says so with an
//! `expect` rather than hashing whatever was written (or `""`) in silence. serde_json fails only
//! on a map whose keys are not strings, a `Serialize` impl that returns an error, or a writer
//! that does. What benchledger hashes is model data and publication records — derived impls
//! over strings, numbers, bools, options, lists and structs: no maps, no hand-written impls; a
//! NaN is written as `null`, not refused — and it writes into memory or a hash, which never
//! fail. A failure would be a bug in benchledger, and a digest of part of the data would hide
//! it, so it panics. (Returning a `Result` would only move the `expect` to callers, all of
//! which hash the same plain data.)

use std::io::Write;

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::model::{SeatData, Wave, WaveData};

/// Lower-case hex SHA-256 of some bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(digest: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(2 * digest.len());
    for b in digest {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 0xf)] as char);
    }
    out
}

/// What the `expect`s of this module say: see the module's documentation for why.
const CANNOT_FAIL: &str = "serialising plain data into memory cannot fail";

/// The canonical serialisation of a value: compact JSON.
///
/// # Panics
///
/// When `value`'s serialisation fails, which it cannot for the plain data benchledger hashes
/// (see the module's documentation).
pub fn canonical_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect(CANNOT_FAIL)
}

/// SHA-256 of a value's canonical serialisation, hashed as it is written: a wave of a million
/// attempts never exists as one JSON string.
///
/// # Panics
///
/// As [`canonical_json`].
pub fn sha256_of<T: Serialize>(value: &T) -> String {
    let mut h = Hasher::new();
    h.json(value);
    h.finish()
}

/// A SHA-256 that canonical JSON is written into, through a buffer (serde_json writes in many
/// small pieces).
struct Hasher {
    buf: std::io::BufWriter<HashWriter>,
}

struct HashWriter(Sha256);

impl Write for HashWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.update(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Hasher {
    fn new() -> Hasher {
        Hasher {
            buf: std::io::BufWriter::with_capacity(64 * 1024, HashWriter(Sha256::new())),
        }
    }

    fn bytes(&mut self, b: &[u8]) {
        self.buf.write_all(b).expect(CANNOT_FAIL);
    }

    fn json<T: Serialize>(&mut self, value: &T) {
        serde_json::to_writer(&mut self.buf, value).expect(CANNOT_FAIL);
    }

    fn finish(mut self) -> String {
        self.buf.flush().expect(CANNOT_FAIL);
        hex(&self.buf.get_ref().0.clone().finalize())
    }
}

/// The content hash of a wave: what makes a re-ingest of the same wave a no-op, and a different
/// wave under the same id a conflict.
pub fn wave_content_sha256(data: &WaveData) -> String {
    sha256_of(data)
}

/// [`wave_content_sha256`] fed one seat at a time, in ledger order, so that a wave can be hashed
/// while it is read and never held whole. The bytes hashed are exactly `canonical_json` of the
/// [`WaveData`]: `{"wave":…,"seats":[…,…]}`.
pub struct WaveDigest {
    h: Hasher,
    seats: usize,
}

impl WaveDigest {
    pub fn new(wave: &Wave) -> WaveDigest {
        let mut h = Hasher::new();
        h.bytes(b"{\"wave\":");
        h.json(wave);
        h.bytes(b",\"seats\":[");
        WaveDigest { h, seats: 0 }
    }

    /// The next seat, in ledger order (by seat id).
    pub fn seat(&mut self, seat: &SeatData) {
        if self.seats > 0 {
            self.h.bytes(b",");
        }
        self.h.json(seat);
        self.seats += 1;
    }

    pub fn finish(mut self) -> String {
        self.h.bytes(b"]}");
        self.h.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_the_empty_string_is_the_known_value() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn streaming_a_wave_seat_by_seat_hashes_its_canonical_json() {
        use crate::model::{Accounting, Attempt, Budget, Load, Provenance, Seat};
        let attempt = |p: &str, cost: Option<f64>| Attempt {
            problem: p.into(),
            trial: 1,
            correct: true,
            outcome: None,
            input_tokens: Some(400_000),
            output_tokens: Some(165_000),
            input_tokens_cache_read: None,
            input_tokens_cache_write: Some(0),
            wall_s: Some(132.0),
            cost_usd: cost,
            steps: Some(3),
            errors: Some(0),
            checklist: None,
            trace: None,
        };
        let seat = |id: &str, attempts| SeatData {
            seat: Seat {
                id: id.into(),
                model: "m \"quoted\"".into(),
                provider: "p".into(),
                harness: "h".into(),
                config: None,
            },
            attempts,
        };
        let data = WaveData {
            wave: Wave {
                id: "w".into(),
                suite: "s".into(),
                started_at: "2026-03-04T10:00:00Z".into(),
                notes: Some("ünïcode".into()),
                suite_problems: None,
                load: Load::default(),
                accounting: Accounting::default(),
                budget: Budget {
                    tokens: Some(1e6),
                    wall_s: Some(180.0),
                    cost_usd: None,
                },
                provenance: Provenance::default(),
            },
            seats: vec![
                seat("a", vec![attempt("p1", Some(0.91)), attempt("p2", None)]),
                seat("b", vec![]),
                seat("c", vec![attempt("p1", Some(1e-7))]),
            ],
        };
        let whole = sha256_hex(canonical_json(&data).as_bytes());
        assert_eq!(wave_content_sha256(&data), whole);
        let mut d = WaveDigest::new(&data.wave);
        for s in &data.seats {
            d.seat(s);
        }
        assert_eq!(d.finish(), whole);
        // And more than the hasher's buffer holds.
        let big = vec![0.1f64; 50_000];
        assert_eq!(sha256_of(&big), sha256_hex(canonical_json(&big).as_bytes()));
    }

    #[test]
    fn what_benchledger_hashes_serialises_without_fail_even_at_its_edges() {
        use crate::model::{Attempt, ChecklistItem, Seat, SuiteProblems, TraceStep};
        // Values no checked input holds but that a hand-built wave might: not-finite numbers
        // are written as null, not refused.
        let attempt = Attempt {
            problem: "p \u{0} \"q\"".into(),
            trial: u32::MAX,
            correct: true,
            outcome: Some(f64::NAN),
            input_tokens: Some(u64::MAX),
            output_tokens: None,
            input_tokens_cache_read: Some(0),
            input_tokens_cache_write: None,
            wall_s: Some(f64::INFINITY),
            cost_usd: Some(-0.0),
            steps: Some(0),
            errors: None,
            checklist: Some(vec![ChecklistItem {
                item: "ünïcode".into(),
                pass: false,
            }]),
            trace: Some(vec![TraceStep {
                tool: "t".into(),
                ok: false,
                error: Some("timeout".into()),
            }]),
        };
        let data = WaveData {
            wave: Wave {
                id: "w".into(),
                suite: "s".into(),
                started_at: "2026-03-04T10:00:00Z".into(),
                notes: None,
                suite_problems: Some(SuiteProblems::Ids(vec!["p".into()])),
                load: Default::default(),
                accounting: Default::default(),
                budget: Default::default(),
                provenance: Default::default(),
            },
            seats: vec![SeatData {
                seat: Seat {
                    id: "a".into(),
                    model: "m".into(),
                    provider: "p".into(),
                    harness: "h".into(),
                    config: None,
                },
                attempts: vec![attempt],
            }],
        };
        let json = canonical_json(&data);
        assert!(json.contains("\"outcome\":null"), "{json}");
        assert!(json.contains("\"wall_s\":null"), "{json}");
        assert_eq!(sha256_of(&data), sha256_hex(json.as_bytes()));
    }

    #[test]
    fn numbers_serialise_canonically() {
        assert_eq!(canonical_json(&[0.1f64, 132.0, 1e-7]), "[0.1,132.0,1e-7]");
    }
}
