//! The record formats: what the hash of each entry of the chain is computed over (docs/formats.md,
//! "Chain records"). The chain is the publications and the withdrawals, in order; each entry
//! names the hash of the one before it, so editing or removing any entry breaks every link after
//! it, and `verify --expect-head` catches the removal of the last.

use super::json::{Json, sha256, to_string};
use super::{Decoder, FormatError};

/// The record format new entries are hashed in.
pub const LATEST: u32 = 1;

/// Every version this build can write, oldest first.
pub(crate) const VERSIONS: &[u32] = &[1];

fn check(what: &'static str, version: u32) -> Result<(), FormatError> {
    check_in(what, version, VERSIONS, LATEST)
}

/// Whether `version` is one of `versions`, the formats of `what` this build writes.
fn check_in(
    what: &'static str,
    version: u32,
    versions: &[u32],
    latest: u32,
) -> Result<(), FormatError> {
    if versions.contains(&version) {
        Ok(())
    } else {
        Err(FormatError::unknown(what, version, latest))
    }
}

/// The fields of a publication that its record hash covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Publication<'a> {
    pub id: i64,
    pub wave: &'a str,
    pub rubric_sha256: &'a str,
    pub title: &'a str,
    pub created_at: &'a str,
    pub input_sha256: &'a str,
    pub output_sha256: &'a str,
    pub prev_sha256: Option<&'a str>,
}

fn write_publication<S: super::json::Sink>(j: &mut Json<S>, r: &Publication<'_>) {
    j.begin_object();
    j.key("id").i64(r.id);
    j.key("wave").str(r.wave);
    j.key("rubric_sha256").str(r.rubric_sha256);
    j.key("title").str(r.title);
    j.key("created_at").str(r.created_at);
    j.key("input_sha256").str(r.input_sha256);
    j.key("output_sha256").str(r.output_sha256);
    j.key("prev_sha256").opt_str(r.prev_sha256);
    j.end_object();
}

/// A publication's record in a format version, as text.
pub fn publication_text(version: u32, r: &Publication<'_>) -> Result<String, FormatError> {
    check("publication record", version)?;
    Ok(to_string(|j| write_publication(j, r)))
}

/// A publication's record hash in a format version.
pub(crate) fn publication_sha256(version: u32, r: &Publication<'_>) -> Result<String, FormatError> {
    check("publication record", version)?;
    Ok(sha256(|j| write_publication(j, r)))
}

/// A publication record read back: owned fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicationFields {
    pub id: i64,
    pub wave: String,
    pub rubric_sha256: String,
    pub title: String,
    pub created_at: String,
    pub input_sha256: String,
    pub output_sha256: String,
    pub prev_sha256: Option<String>,
}

/// Reads a publication record back from its text.
pub fn decode_publication(version: u32, text: &str) -> Result<PublicationFields, FormatError> {
    check("publication record", version)?;
    let v = super::parse(text)?;
    let d = Decoder::root(&v);
    Ok(PublicationFields {
        id: d.field("id")?.i64()?,
        wave: d.field("wave")?.string()?,
        rubric_sha256: d.field("rubric_sha256")?.string()?,
        title: d.field("title")?.string()?,
        created_at: d.field("created_at")?.string()?,
        input_sha256: d.field("input_sha256")?.string()?,
        output_sha256: d.field("output_sha256")?.string()?,
        prev_sha256: d.field("prev_sha256")?.opt_string()?,
    })
}

/// The fields of a withdrawal that its record hash covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Withdrawal<'a> {
    pub id: i64,
    pub wave: &'a str,
    /// The withdrawn wave's content hash: what exactly was withdrawn.
    pub wave_content_sha256: &'a str,
    /// The wave that supersedes it, when it was superseded rather than withdrawn by hand.
    pub superseded_by: Option<&'a str>,
    pub reason: &'a str,
    pub created_at: &'a str,
    /// Its place in the chain: after this publication (0: before the first).
    pub after_publication: i64,
    pub prev_sha256: Option<&'a str>,
}

fn write_withdrawal<S: super::json::Sink>(j: &mut Json<S>, r: &Withdrawal<'_>) {
    j.begin_object();
    j.key("kind").str("withdrawal");
    j.key("id").i64(r.id);
    j.key("wave").str(r.wave);
    j.key("wave_content_sha256").str(r.wave_content_sha256);
    j.key("superseded_by").opt_str(r.superseded_by);
    j.key("reason").str(r.reason);
    j.key("created_at").str(r.created_at);
    j.key("after_publication").i64(r.after_publication);
    j.key("prev_sha256").opt_str(r.prev_sha256);
    j.end_object();
}

/// A withdrawal's record in a format version, as text.
pub fn withdrawal_text(version: u32, r: &Withdrawal<'_>) -> Result<String, FormatError> {
    check("withdrawal record", version)?;
    Ok(to_string(|j| write_withdrawal(j, r)))
}

/// A withdrawal's record hash in a format version.
pub(crate) fn withdrawal_sha256(version: u32, r: &Withdrawal<'_>) -> Result<String, FormatError> {
    check("withdrawal record", version)?;
    Ok(sha256(|j| write_withdrawal(j, r)))
}

/// A withdrawal record read back: owned fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WithdrawalFields {
    pub id: i64,
    pub wave: String,
    pub wave_content_sha256: String,
    pub superseded_by: Option<String>,
    pub reason: String,
    pub created_at: String,
    pub after_publication: i64,
    pub prev_sha256: Option<String>,
}

/// Reads a withdrawal record back from its text.
pub fn decode_withdrawal(version: u32, text: &str) -> Result<WithdrawalFields, FormatError> {
    check("withdrawal record", version)?;
    let v = super::parse(text)?;
    let d = Decoder::root(&v);
    let kind = d.field("kind")?.string()?;
    if kind != "withdrawal" {
        return Err(FormatError::Malformed(format!(
            "kind: expected \"withdrawal\", got {kind:?}"
        )));
    }
    Ok(WithdrawalFields {
        id: d.field("id")?.i64()?,
        wave: d.field("wave")?.string()?,
        wave_content_sha256: d.field("wave_content_sha256")?.string()?,
        superseded_by: d.field("superseded_by")?.opt_string()?,
        reason: d.field("reason")?.string()?,
        created_at: d.field("created_at")?.string()?,
        after_publication: d.field("after_publication")?.i64()?,
        prev_sha256: d.field("prev_sha256")?.opt_string()?,
    })
}

/// The log entry format new entries are hashed in (docs/formats.md, "Log entries").
pub(crate) const LOG_LATEST: u32 = 1;

/// Every log entry format this build can write, oldest first.
pub(crate) const LOG_VERSIONS: &[u32] = &[1];

/// The fields of a log entry that its hash covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogEntry<'a> {
    /// `ingest`, `rubric`, `price_table`, `publication`, `withdrawal`, `signature`,
    /// `display_name` or `origins`.
    pub kind: &'a str,
    pub seq: i64,
    pub subject: &'a str,
    pub version: u32,
    pub subject_sha256: &'a str,
    pub created_at: &'a str,
    pub prev_sha256: Option<&'a str>,
}

fn write_log_entry<S: super::json::Sink>(j: &mut Json<S>, r: &LogEntry<'_>) {
    j.begin_object();
    j.key("kind").str(r.kind);
    j.key("seq").i64(r.seq);
    j.key("subject").str(r.subject);
    j.key("version").u64(u64::from(r.version));
    j.key("subject_sha256").str(r.subject_sha256);
    j.key("created_at").str(r.created_at);
    j.key("prev_sha256").opt_str(r.prev_sha256);
    j.end_object();
}

/// One attempt's origin as an `origins` log entry hashes it (docs/formats.md, "Log entries").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    pub seat: String,
    pub problem: String,
    pub trial: u32,
    pub file: String,
    pub record: Option<String>,
}

/// The SHA-256 of a wave's origins, in attempt order: the canonical JSON array of one object
/// per origin, `{"seat","problem","trial","file","record"}` in that order.
pub(crate) fn origins_sha256(origins: &[Origin]) -> String {
    sha256(|j| {
        j.begin_array();
        for o in origins {
            j.begin_object();
            j.key("seat").str(&o.seat);
            j.key("problem").str(&o.problem);
            j.key("trial").u64(u64::from(o.trial));
            j.key("file").str(&o.file);
            j.key("record").opt_str(o.record.as_deref());
            j.end_object();
        }
        j.end_array();
    })
}

/// One attempt's texts as a `texts` log entry hashes them (docs/formats.md, "Log entries").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Texts {
    pub seat: String,
    pub problem: String,
    pub trial: u32,
    pub texts: crate::model::AttemptTexts,
}

/// The SHA-256 of a wave's attempt texts, in attempt order: the canonical JSON array of one
/// object per attempt that has texts, `{"seat","problem","trial","input","target","answer",
/// "explanation"}` in that order (an absent text is `null`).
pub(crate) fn texts_sha256(texts: &[Texts]) -> String {
    sha256(|j| {
        j.begin_array();
        for t in texts {
            j.begin_object();
            j.key("seat").str(&t.seat);
            j.key("problem").str(&t.problem);
            j.key("trial").u64(u64::from(t.trial));
            j.key("input").opt_str(t.texts.input.as_deref());
            j.key("target").opt_str(t.texts.target.as_deref());
            j.key("answer").opt_str(t.texts.answer.as_deref());
            j.key("explanation").opt_str(t.texts.explanation.as_deref());
            j.end_object();
        }
        j.end_array();
    })
}

/// The SHA-256 of a recorded review (what its `review` log entry names): the canonical JSON
/// object `{"wave","rules":{"name","version","sha256"},"verdict","findings_sha256"}` in that
/// order. The findings are named by their own SHA-256, which the row keeps beside their text.
pub(crate) fn review_sha256(r: &crate::model::WaveReviewRow) -> String {
    sha256(|j| {
        j.begin_object();
        j.key("wave").str(&r.wave);
        j.key("rules").begin_object();
        j.key("name").str(&r.rules_name);
        j.key("version").u64(u64::from(r.rules_version));
        j.key("sha256").str(&r.rules_sha256);
        j.end_object();
        j.key("verdict").str(&r.verdict);
        j.key("findings_sha256").str(&r.findings_sha256);
        j.end_object();
    })
}

fn check_log(version: u32) -> Result<(), FormatError> {
    check_in("log entry", version, LOG_VERSIONS, LOG_LATEST)
}

/// A log entry's record in a format version, as text.
pub fn log_entry_text(version: u32, r: &LogEntry<'_>) -> Result<String, FormatError> {
    check_log(version)?;
    Ok(to_string(|j| write_log_entry(j, r)))
}

/// A log entry's hash in a format version.
pub(crate) fn log_entry_sha256(version: u32, r: &LogEntry<'_>) -> Result<String, FormatError> {
    check_log(version)?;
    Ok(sha256(|j| write_log_entry(j, r)))
}

#[cfg(test)]
mod log_tests {
    use super::*;

    /// The text of a log entry, and its hash, pinned: docs/formats.md shows this example.
    #[test]
    fn a_log_entry_is_written_as_documented() {
        let e = LogEntry {
            kind: "ingest",
            seq: 1,
            subject: "w",
            version: 2,
            subject_sha256: &"a".repeat(64),
            created_at: "2026-12-02T00:00:00Z",
            prev_sha256: None,
        };
        let text = log_entry_text(1, &e).unwrap();
        assert_eq!(
            text,
            format!(
                "{{\"kind\":\"ingest\",\"seq\":1,\"subject\":\"w\",\"version\":2,\
                 \"subject_sha256\":\"{}\",\"created_at\":\"2026-12-02T00:00:00Z\",\
                 \"prev_sha256\":null}}",
                "a".repeat(64)
            )
        );
        assert_eq!(
            log_entry_sha256(1, &e).unwrap(),
            crate::digest::sha256_hex(text.as_bytes())
        );
        assert!(log_entry_sha256(2, &e).is_err());
    }
}
