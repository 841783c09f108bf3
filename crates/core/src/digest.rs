//! SHA-256 digests, in lower-case hex: of rubric texts, published outputs and files as they
//! are, and (through [`crate::formats`]) of the canonical serialisations of waves,
//! publication inputs and chain records.

use sha2::{Digest, Sha256};

/// Lower-case hex SHA-256 of some bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Lower-case hex of a digest.
pub(crate) fn hex(digest: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(2 * digest.len());
    for b in digest {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 0xf)] as char);
    }
    out
}

/// Whether a text is a SHA-256 as benchledger writes them: 64 lower-case hex digits.
pub(crate) fn is_sha256(s: &str) -> bool {
    s.len() == 64
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The first twelve characters of a hash, for reading. Cut on a character boundary, so a
/// stored hash edited into something that is not hex cannot make it panic.
pub fn short(hash: &str) -> &str {
    match hash.char_indices().nth(12) {
        Some((i, _)) => &hash[..i],
        None => hash,
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
        assert!(is_sha256(&sha256_hex(b"")));
        assert!(!is_sha256(&sha256_hex(b"").to_uppercase()));
        assert!(!is_sha256("abc"));
    }

    #[test]
    fn a_short_hash_is_cut_on_a_character_boundary() {
        assert_eq!(short("0123456789abcdef"), "0123456789ab");
        assert_eq!(short("0123456789aé0000"), "0123456789aé");
        assert_eq!(short("ééééééééééééé"), "éééééééééééé");
        assert_eq!(short("abc"), "abc");
    }
}
