//! SHA-256 digests over canonical serialisations.
//!
//! A digest must come out the same on every machine for the same data, so the serialisation is
//! fixed: JSON with struct fields in declaration order, arrays in ledger order, and numbers as
//! `serde_json` writes them (the shortest text that reads back to the same `f64`, via `ryu`),
//! which does not depend on the platform or locale.

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::model::WaveData;

/// Lower-case hex SHA-256 of some bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(64);
    for b in digest {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// The canonical serialisation of a value: compact JSON.
pub fn canonical_json<T: Serialize>(value: &T) -> String {
    // Serialising plain data with string keys cannot fail.
    serde_json::to_string(value).unwrap_or_default()
}

/// SHA-256 of a value's canonical serialisation.
pub fn sha256_of<T: Serialize>(value: &T) -> String {
    sha256_hex(canonical_json(value).as_bytes())
}

/// The content hash of a wave: what makes a re-ingest of the same wave a no-op, and a different
/// wave under the same id a conflict.
pub fn wave_content_sha256(data: &WaveData) -> String {
    sha256_of(data)
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
    fn numbers_serialise_canonically() {
        assert_eq!(canonical_json(&[0.1f64, 132.0, 1e-7]), "[0.1,132.0,1e-7]");
    }
}
