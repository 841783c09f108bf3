//! Signed publications, in formats other tools read: a DSSE envelope (Dead Simple Signing
//! Envelope, payload type `application/vnd.in-toto+json`) holding an in-toto Statement v1.
//!
//! The statement's subjects are the publication's two texts by SHA-256 — its canonical input
//! (`publication-N.input`) and its published Markdown (`publication-N.md`) — and its predicate
//! (`PREDICATE_TYPE`) records what they were made from: the rubric (name, version, SHA-256 of
//! its text), the wave (id, content hash), the chain record hash, and the version of the tool
//! that signed. The signature is ed25519 over DSSE's pre-authentication encoding (`pae`) of
//! the payload; the envelope's `keyid` is the hex SHA-256 of the raw 32-byte public key.
//!
//! Keys are files in the usual formats, so that other tools read them: a private key is PKCS#8
//! PEM (RFC 8410, `-----BEGIN PRIVATE KEY-----`, the 32-byte seed only), a public key
//! SubjectPublicKeyInfo PEM (`-----BEGIN PUBLIC KEY-----`). docs/trust.md says what a signature
//! proves and what it does not.
//!
//! Pure: texts and keys in, envelopes and problems out. The command line reads key files and
//! the operating system's randomness; the ledger keeps envelopes beside their publications.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use ed25519_dalek::pkcs8::spki::der::pem::LineEnding;
use ed25519_dalek::pkcs8::{
    DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey, KeypairBytes,
};
use ed25519_dalek::{Signature, Signer as _, SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};

use crate::digest::{sha256_hex, short};

/// The DSSE payload type of an in-toto statement.
pub(crate) const PAYLOAD_TYPE: &str = "application/vnd.in-toto+json";
/// The in-toto statement's `_type`.
pub(crate) const STATEMENT_TYPE: &str = "https://in-toto.io/Statement/v1";
/// The predicate's type: a benchledger publication, version 1 of its fields (docs/trust.md).
/// A URN, because the project owns no web address a URL could promise to resolve at.
pub(crate) const PREDICATE_TYPE: &str = "urn:benchledger:predicate:publication:v1";

/// The largest envelope read back (a ledger's row, a bundle's file): 1 MiB. One holds two
/// digests, a few names and a signature, a few kilobytes at most.
pub(crate) const ENVELOPE_MAX_BYTES: usize = 1 << 20;

/// What a publication's statement says: its texts' digests and what they were made from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facts<'a> {
    /// The publication's id (it names the subjects).
    pub publication: i64,
    /// The SHA-256 of the canonical input text.
    pub input_sha256: &'a str,
    /// The SHA-256 of the published Markdown.
    pub output_sha256: &'a str,
    /// The rubric's `NAME@VERSION`.
    pub rubric: &'a str,
    /// The SHA-256 of the rubric's text.
    pub rubric_sha256: &'a str,
    /// The wave's id.
    pub wave: &'a str,
    /// The wave's content hash.
    pub wave_content_sha256: &'a str,
    /// The publication's chain record hash.
    pub record_sha256: &'a str,
}

impl Facts<'_> {
    /// The subjects' names and digests, input first.
    fn subjects(&self) -> [(String, &str); 2] {
        [
            (
                format!("publication-{}.input", self.publication),
                self.input_sha256,
            ),
            (
                format!("publication-{}.md", self.publication),
                self.output_sha256,
            ),
        ]
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct Statement {
    #[serde(rename = "_type")]
    kind: String,
    subject: Vec<Subject>,
    #[serde(rename = "predicateType")]
    predicate_type: String,
    predicate: Predicate,
}

#[derive(Debug, Serialize, Deserialize)]
struct Subject {
    name: String,
    digest: SubjectDigest,
}

#[derive(Debug, Serialize, Deserialize)]
struct SubjectDigest {
    sha256: String,
}

/// The predicate, field by field (docs/trust.md).
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Predicate {
    publication: i64,
    rubric: Named,
    wave: WaveRef,
    record_sha256: String,
    tool: Tool,
}

#[derive(Debug, Serialize, Deserialize)]
struct Named {
    /// `NAME@VERSION`.
    id: String,
    sha256: String,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct WaveRef {
    id: String,
    content_sha256: String,
}

#[derive(Debug, Serialize, Deserialize)]
struct Tool {
    name: String,
    version: String,
}

/// A DSSE envelope, as JSON.
#[derive(Debug, Serialize, Deserialize)]
struct Envelope {
    payload: String,
    #[serde(rename = "payloadType")]
    payload_type: String,
    signatures: Vec<EnvelopeSignature>,
}

#[derive(Debug, Serialize, Deserialize)]
struct EnvelopeSignature {
    #[serde(default)]
    keyid: String,
    sig: String,
}

/// The statement's JSON text, the envelope's payload. `tool_version` is the signing tool's.
pub fn statement(facts: &Facts<'_>, tool_version: &str) -> String {
    let statement = Statement {
        kind: STATEMENT_TYPE.into(),
        subject: facts
            .subjects()
            .into_iter()
            .map(|(name, sha256)| Subject {
                name,
                digest: SubjectDigest {
                    sha256: sha256.into(),
                },
            })
            .collect(),
        predicate_type: PREDICATE_TYPE.into(),
        predicate: Predicate {
            publication: facts.publication,
            rubric: Named {
                id: facts.rubric.into(),
                sha256: facts.rubric_sha256.into(),
            },
            wave: WaveRef {
                id: facts.wave.into(),
                content_sha256: facts.wave_content_sha256.into(),
            },
            record_sha256: facts.record_sha256.into(),
            tool: Tool {
                name: "benchledger".into(),
                version: tool_version.into(),
            },
        },
    };
    serde_json::to_string(&statement).expect("a statement of strings serialises")
}

/// DSSE's pre-authentication encoding of a payload, what is signed:
/// `"DSSEv1" SP LEN(type) SP type SP LEN(body) SP body`, lengths in ASCII decimal bytes.
pub(crate) fn pae(payload_type: &str, payload: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "DSSEv1 {} {payload_type} {} ",
        payload_type.len(),
        payload.len()
    )
    .into_bytes();
    out.extend_from_slice(payload);
    out
}

/// The key id of a public key: the hex SHA-256 of its raw 32 bytes.
fn key_id(key: &VerifyingKey) -> String {
    sha256_hex(key.as_bytes())
}

/// A private signing key.
pub struct PrivateKey(SigningKey);

/// Shows the key's id, never the key.
impl std::fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PrivateKey(key id {})", self.public().id())
    }
}

impl PrivateKey {
    /// The key of a 32-byte seed (from the operating system's randomness, for a new key).
    pub fn from_seed(seed: &[u8; 32]) -> PrivateKey {
        PrivateKey(SigningKey::from_bytes(seed))
    }

    /// A key from its PKCS#8 PEM text; what is wrong with it otherwise.
    pub fn from_pem(text: &str) -> Result<PrivateKey, String> {
        if text.contains("-----BEGIN PUBLIC KEY-----") {
            return Err(
                "it is a public key: sign with the private key file (keygen wrote the \
                        public one beside it, as KEY.pub)"
                    .into(),
            );
        }
        SigningKey::from_pkcs8_pem(text)
            .map(PrivateKey)
            .map_err(|e| {
                format!(
                    "it is not an ed25519 private key in PKCS#8 PEM (-----BEGIN PRIVATE \
                     KEY-----, as `benchledger keygen` writes): {e}"
                )
            })
    }

    /// The key as PKCS#8 PEM: RFC 8410's private key info, the seed alone (no public key
    /// attribute), as OpenSSL writes it.
    pub fn to_pem(&self) -> String {
        let bytes = KeypairBytes {
            secret_key: self.0.to_bytes(),
            public_key: None,
        };
        bytes
            .to_pkcs8_pem(LineEnding::LF)
            .expect("a 32-byte seed encodes")
            .to_string()
    }

    /// Its public key.
    pub fn public(&self) -> PublicKey {
        PublicKey(self.0.verifying_key())
    }

    /// A DSSE envelope (JSON text) holding the statement of `facts`, signed with this key.
    pub fn sign(&self, facts: &Facts<'_>, tool_version: &str) -> String {
        let payload = statement(facts, tool_version);
        let sig: Signature = self.0.sign(&pae(PAYLOAD_TYPE, payload.as_bytes()));
        let envelope = Envelope {
            payload: STANDARD.encode(payload.as_bytes()),
            payload_type: PAYLOAD_TYPE.into(),
            signatures: vec![EnvelopeSignature {
                keyid: key_id(&self.0.verifying_key()),
                sig: STANDARD.encode(sig.to_bytes()),
            }],
        };
        serde_json::to_string(&envelope).expect("an envelope of strings serialises")
    }
}

/// A public key, to verify signatures with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicKey(VerifyingKey);

impl PublicKey {
    /// A key from its SubjectPublicKeyInfo PEM text; what is wrong with it otherwise.
    pub fn from_pem(text: &str) -> Result<PublicKey, String> {
        if text.contains("PRIVATE KEY-----") {
            return Err(
                "it is a private key: trust the public key file (keygen wrote it \
                        beside the private one, as KEY.pub), and keep the private one private"
                    .into(),
            );
        }
        VerifyingKey::from_public_key_pem(text)
            .map(PublicKey)
            .map_err(|e| {
                format!(
                    "it is not an ed25519 public key in SubjectPublicKeyInfo PEM (-----BEGIN \
                     PUBLIC KEY-----, as `benchledger keygen` writes beside the private key): {e}"
                )
            })
    }

    /// The key as SubjectPublicKeyInfo PEM.
    pub fn to_pem(&self) -> String {
        self.0
            .to_public_key_pem(LineEnding::LF)
            .expect("an ed25519 public key encodes")
    }

    /// Its key id: the hex SHA-256 of its raw 32 bytes.
    pub fn id(&self) -> String {
        key_id(&self.0)
    }
}

/// What checking an envelope found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Checked {
    /// The key ids its signatures name, in order.
    pub keyids: Vec<String>,
    /// Whether a signature verified under the trusted key (false when none was given).
    pub signed_by_trusted: bool,
    /// What is wrong: the signature (when a trusted key was given), the statement against
    /// `facts`.
    pub problems: Vec<String>,
}

/// Checks an envelope (its JSON text) against what the publication it sits beside says
/// (`facts`) and, when `trusted` is given, that it is signed by that key. The predicate's
/// `tool` is not compared: any version may have signed.
pub fn check(envelope: &str, facts: &Facts<'_>, trusted: Option<&PublicKey>) -> Checked {
    let mut out = Checked::default();
    if envelope.len() > ENVELOPE_MAX_BYTES {
        out.problems.push(format!(
            "its envelope is {} bytes, more than the {ENVELOPE_MAX_BYTES} an envelope can need: \
             it was not read",
            envelope.len()
        ));
        return out;
    }
    let env: Envelope = match serde_json::from_str(envelope) {
        Ok(e) => e,
        Err(e) => {
            out.problems
                .push(format!("its envelope is not a DSSE envelope in JSON: {e}"));
            return out;
        }
    };
    out.keyids = env.signatures.iter().map(|s| s.keyid.clone()).collect();
    if env.payload_type != PAYLOAD_TYPE {
        out.problems.push(format!(
            "its envelope's payloadType is {:?}, not {PAYLOAD_TYPE:?}",
            env.payload_type
        ));
    }
    let payload = match STANDARD.decode(env.payload.as_bytes()) {
        Ok(p) => p,
        Err(e) => {
            out.problems
                .push(format!("its envelope's payload is not base64: {e}"));
            return out;
        }
    };
    if let Some(key) = trusted {
        match signature_problem(&env, &payload, key) {
            None => out.signed_by_trusted = true,
            Some(p) => out.problems.push(p),
        }
    }
    out.problems.extend(statement_problems(&payload, facts));
    out
}

/// Whether a signature of `env` verifies under `key` over the PAE of `payload`; otherwise why
/// not. Every signature is tried (a key id is a hint, not a proof).
fn signature_problem(env: &Envelope, payload: &[u8], key: &PublicKey) -> Option<String> {
    let message = pae(&env.payload_type, payload);
    let id = key.id();
    let verifies = |s: &EnvelopeSignature| {
        let Ok(bytes) = STANDARD.decode(s.sig.as_bytes()) else {
            return false;
        };
        let Ok(sig) = Signature::from_slice(&bytes) else {
            return false;
        };
        key.0.verify_strict(&message, &sig).is_ok()
    };
    if env.signatures.iter().any(verifies) {
        return None;
    }
    Some(if env.signatures.is_empty() {
        "its envelope holds no signature".to_string()
    } else if env.signatures.iter().any(|s| s.keyid == id) {
        format!(
            "its signature by the trusted key {} does not verify: the envelope (or what it \
             signs) was changed after signing",
            short(&id)
        )
    } else {
        format!(
            "it is not signed by the trusted key {}: its envelope is signed by key {}",
            short(&id),
            env.signatures
                .iter()
                .map(|s| short(&s.keyid).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

/// What the statement in `payload` says that `facts` do not.
fn statement_problems(payload: &[u8], facts: &Facts<'_>) -> Vec<String> {
    let statement: Statement = match serde_json::from_slice(payload) {
        Ok(s) => s,
        Err(e) => {
            return vec![format!(
                "its envelope's payload is not an in-toto statement of a benchledger \
                 publication: {e}"
            )];
        }
    };
    let mut problems = Vec::new();
    let mut differs = |what: &str, signed: &str, stored: &str| {
        if signed != stored {
            problems.push(format!(
                "the signed statement's {what} is {}, but the ledger's is {}",
                quoted(signed),
                quoted(stored)
            ));
        }
    };
    differs("_type", &statement.kind, STATEMENT_TYPE);
    differs("predicateType", &statement.predicate_type, PREDICATE_TYPE);
    let expected = facts.subjects();
    let names: Vec<&str> = statement.subject.iter().map(|s| s.name.as_str()).collect();
    let expected_names: Vec<&str> = expected.iter().map(|(n, _)| n.as_str()).collect();
    differs(
        "subject names",
        &names.join(", "),
        &expected_names.join(", "),
    );
    for (name, sha) in &expected {
        if let Some(s) = statement.subject.iter().find(|s| &s.name == name) {
            differs(&format!("subject {name}'s sha256"), &s.digest.sha256, sha);
        }
    }
    let p = &statement.predicate;
    differs(
        "publication",
        &p.publication.to_string(),
        &facts.publication.to_string(),
    );
    differs("rubric", &p.rubric.id, facts.rubric);
    differs("rubric sha256", &p.rubric.sha256, facts.rubric_sha256);
    differs("wave", &p.wave.id, facts.wave);
    differs(
        "wave content sha256",
        &p.wave.content_sha256,
        facts.wave_content_sha256,
    );
    differs("chain record sha256", &p.record_sha256, facts.record_sha256);
    problems
}

/// A value for a message: a hash shortened, anything else quoted and cut.
fn quoted(s: &str) -> String {
    if crate::digest::is_sha256(s) {
        return short(s).to_string();
    }
    match s.char_indices().nth(80) {
        Some((i, _)) => format!("{:?}…", &s[..i]),
        None => format!("{s:?}"),
    }
}

/// The key ids an envelope's signatures name, or nothing when it cannot be read (for listing:
/// [`check`] says what is wrong).
pub(crate) fn key_ids(envelope: &str) -> Vec<String> {
    if envelope.len() > ENVELOPE_MAX_BYTES {
        return Vec::new();
    }
    serde_json::from_str::<Envelope>(envelope)
        .map(|e| e.signatures.into_iter().map(|s| s.keyid).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> Facts<'static> {
        Facts {
            publication: 3,
            input_sha256: "1111111111111111111111111111111111111111111111111111111111111111",
            output_sha256: "2222222222222222222222222222222222222222222222222222222222222222",
            rubric: "r@1",
            rubric_sha256: "3333333333333333333333333333333333333333333333333333333333333333",
            wave: "w1",
            wave_content_sha256: "4444444444444444444444444444444444444444444444444444444444444444",
            record_sha256: "5555555555555555555555555555555555555555555555555555555555555555",
        }
    }

    #[test]
    fn pae_is_the_spec_s_encoding() {
        // The example of DSSE's protocol document.
        assert_eq!(
            pae("http://example.com/HelloWorld", b"hello world"),
            b"DSSEv1 29 http://example.com/HelloWorld 11 hello world".to_vec()
        );
        assert_eq!(pae("", b""), b"DSSEv1 0  0 ".to_vec());
    }

    #[test]
    fn keys_round_trip_through_pem_and_the_key_id_is_the_raw_key_s_hash() {
        let key = PrivateKey::from_seed(&[7; 32]);
        let pem = key.to_pem();
        assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----\n"), "{pem}");
        let again = PrivateKey::from_pem(&pem).unwrap();
        assert_eq!(again.public(), key.public());
        let public = key.public().to_pem();
        assert!(
            public.starts_with("-----BEGIN PUBLIC KEY-----\n"),
            "{public}"
        );
        assert_eq!(PublicKey::from_pem(&public).unwrap(), key.public());
        assert_eq!(key.public().id(), sha256_hex(key.public().0.as_bytes()));
        assert!(
            PrivateKey::from_pem(&public)
                .unwrap_err()
                .contains("public key")
        );
        assert!(
            PublicKey::from_pem(&pem)
                .unwrap_err()
                .contains("private key")
        );
        assert!(PublicKey::from_pem("junk").unwrap_err().contains("PEM"));
    }

    #[test]
    fn a_signed_envelope_checks_and_each_tampering_fails() {
        let key = PrivateKey::from_seed(&[9; 32]);
        let trusted = key.public();
        let envelope = key.sign(&facts(), "0.1.0");
        let ok = check(&envelope, &facts(), Some(&trusted));
        assert_eq!(ok.problems, Vec::<String>::new());
        assert!(ok.signed_by_trusted);
        assert_eq!(ok.keyids, vec![trusted.id()]);

        let other = PrivateKey::from_seed(&[1; 32]).public();
        let wrong = check(&envelope, &facts(), Some(&other));
        assert!(!wrong.signed_by_trusted);
        assert!(
            wrong.problems[0].contains("not signed by the trusted key"),
            "{wrong:?}"
        );

        // A byte of the payload changed: the signature no longer verifies.
        let mut env: serde_json::Value = serde_json::from_str(&envelope).unwrap();
        let payload = String::from_utf8(
            STANDARD
                .decode(env["payload"].as_str().unwrap().as_bytes())
                .unwrap(),
        )
        .unwrap();
        let changed = payload.replace("\"w1\"", "\"w2\"");
        env["payload"] = STANDARD.encode(changed.as_bytes()).into();
        let bad = check(&env.to_string(), &facts(), Some(&trusted));
        assert!(bad.problems[0].contains("does not verify"), "{bad:?}");
        assert!(bad.problems.iter().any(|p| p.contains("wave")), "{bad:?}");

        // The ledger's texts swapped: the subjects no longer match them.
        let mut swapped = facts();
        std::mem::swap(&mut swapped.input_sha256, &mut swapped.output_sha256);
        let bad = check(&envelope, &swapped, Some(&trusted));
        assert!(bad.signed_by_trusted);
        assert_eq!(bad.problems.len(), 2, "{bad:?}");
        assert!(bad.problems[0].contains("publication-3.input"), "{bad:?}");

        // Without a trusted key the statement is still held to the ledger.
        let unchecked = check(&envelope, &swapped, None);
        assert!(!unchecked.signed_by_trusted);
        assert_eq!(unchecked.problems.len(), 2);
        assert!(check("{", &facts(), None).problems[0].contains("not a DSSE envelope"));
    }
}
