//! What the ledger stores beside the raw facts, as plain rows: registered rubrics and price
//! tables, stored scores, waves as listed, publications, withdrawals and the chain they make.
//! The ledger reads and writes them; the chain, the renderers and the site take them as data,
//! without reaching into the ledger for their types.

use super::Wave;

/// A withdrawal as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct WithdrawalRow {
    pub id: i64,
    pub wave: String,
    /// The withdrawn wave's stored content hash (read from its wave row).
    pub wave_content_sha256: String,
    /// The wave that supersedes it, when it was superseded rather than withdrawn by hand.
    pub superseded_by: Option<String>,
    pub reason: String,
    pub created_at: String,
    /// Its place in the chain: after this publication (0: before the first).
    pub after_publication: i64,
    pub prev_sha256: Option<String>,
    pub record_format: u32,
    pub sha256: String,
}

/// One entry of the chain.
#[derive(Debug, Clone, PartialEq)]
pub enum ChainEntry {
    Publication(PublicationRow),
    Withdrawal(WithdrawalRow),
    /// An entry of the log (schema migration 11): what a write added, by name and hash.
    Logged(LogEntryRow),
}

impl ChainEntry {
    pub fn sha256(&self) -> &str {
        match self {
            ChainEntry::Publication(p) => &p.sha256,
            ChainEntry::Withdrawal(w) => &w.sha256,
            ChainEntry::Logged(e) => &e.sha256,
        }
    }

    pub fn prev_sha256(&self) -> Option<&str> {
        match self {
            ChainEntry::Publication(p) => p.prev_sha256.as_deref(),
            ChainEntry::Withdrawal(w) => w.prev_sha256.as_deref(),
            ChainEntry::Logged(e) => e.prev_sha256.as_deref(),
        }
    }

    /// How a reader names the entry: "publication #3", "withdrawal #1 (wave w)".
    pub fn label(&self) -> String {
        match self {
            ChainEntry::Publication(p) => format!("publication #{}", p.id),
            ChainEntry::Withdrawal(w) => format!("withdrawal #{} (wave {})", w.id, w.wave),
            ChainEntry::Logged(e) => e.label(),
        }
    }

    /// The entry's place in the chain's order: publications by id, each followed by the
    /// withdrawals made after it, by id; the log after them all, by sequence number.
    pub(crate) fn order(&self) -> (i64, u8, i64) {
        match self {
            ChainEntry::Publication(p) => (p.id, 0, 0),
            ChainEntry::Withdrawal(w) => (w.after_publication, 1, w.id),
            ChainEntry::Logged(e) => (i64::MAX, 2, e.seq),
        }
    }
}

/// What an entry of the log records (docs/formats.md, "Log entries").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LogKind {
    /// A wave ingested: its slug, content format and content hash.
    Ingest,
    /// A rubric registered: its name, version and the SHA-256 of its text.
    Rubric,
    /// A price table registered: its name, version and the SHA-256 of its text.
    PriceTable,
    /// A publication made: its id, record format and record hash.
    Publication,
    /// A withdrawal (or supersession) made: its id, record format and record hash.
    Withdrawal,
    /// A publication's signed statement kept (`publish --sign`, `sign`): the publication's id,
    /// version 1 and the SHA-256 of the envelope's stored text.
    Signature,
    /// A seat's display name given (at ingest, or by a later re-ingest): "WAVE/SEAT", version 1
    /// and the SHA-256 of the name.
    DisplayName,
    /// The origins of a new wave's attempts (written at ingest for the formats that name one):
    /// the wave's id, version 1 and the SHA-256 of its origins in attempt order.
    Origins,
    /// Submission rules registered (`rules add`, or with the review they ran): their name,
    /// version and the SHA-256 of their text.
    Rules,
    /// A review recorded with the wave it let in (`review --ingest`): "WAVE/NAME@VERSION" (the
    /// rules'), version 1 and the SHA-256 of the review's record (docs/formats.md).
    Review,
    /// The texts of a new wave's attempts (written at ingest for the formats that record the
    /// sample): the wave's id, version 1 and the SHA-256 of its texts in attempt order.
    Texts,
}

impl LogKind {
    pub const ALL: [LogKind; 11] = [
        LogKind::Ingest,
        LogKind::Rubric,
        LogKind::PriceTable,
        LogKind::Publication,
        LogKind::Withdrawal,
        LogKind::Signature,
        LogKind::DisplayName,
        LogKind::Origins,
        LogKind::Rules,
        LogKind::Review,
        LogKind::Texts,
    ];

    /// The name the ledger stores and the record hashes.
    pub fn name(self) -> &'static str {
        match self {
            LogKind::Ingest => "ingest",
            LogKind::Rubric => "rubric",
            LogKind::PriceTable => "price_table",
            LogKind::Publication => "publication",
            LogKind::Withdrawal => "withdrawal",
            LogKind::Signature => "signature",
            LogKind::DisplayName => "display_name",
            LogKind::Rules => "rules",
            LogKind::Review => "review",
            LogKind::Origins => "origins",
            LogKind::Texts => "texts",
        }
    }

    pub(crate) fn from_name(name: &str) -> Option<LogKind> {
        LogKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// An entry of the log, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogEntryRow {
    /// Its place in the log, from 1.
    pub seq: i64,
    pub kind: LogKind,
    /// The wave's slug; the rubric's or price table's name; the publication's or withdrawal's
    /// id, in decimal (also for a signature: the signed publication's).
    pub subject: String,
    /// The wave's content format; the rubric's or price table's version; the record format of
    /// the publication or withdrawal; 1 for a signature.
    pub version: u32,
    /// The wave's content hash; the SHA-256 of the registered text; the record hash; the
    /// SHA-256 of the envelope's stored text.
    pub subject_sha256: String,
    pub created_at: String,
    pub prev_sha256: Option<String>,
    /// The log entry format `sha256` was computed in.
    pub record_format: u32,
    pub sha256: String,
}

impl LogEntryRow {
    /// What the entry names, as a reader says it: "wave w", "rubric r@2", "publication #3".
    pub(crate) fn subject_label(&self) -> String {
        match self.kind {
            LogKind::Ingest => format!("wave {}", self.subject),
            LogKind::Rubric => format!("rubric {}@{}", self.subject, self.version),
            LogKind::PriceTable => format!("price table {}@{}", self.subject, self.version),
            LogKind::Publication => format!("publication #{}", self.subject),
            LogKind::Withdrawal => format!("withdrawal #{}", self.subject),
            LogKind::Signature => format!("the signature of publication #{}", self.subject),
            LogKind::DisplayName => format!("the display name of seat {}", self.subject),
            LogKind::Origins => format!("the origin record of wave {}", self.subject),
            LogKind::Texts => format!("the text record of wave {}", self.subject),
            LogKind::Rules => format!("submission rules {}@{}", self.subject, self.version),
            LogKind::Review => match self.subject.split_once('/') {
                Some((wave, rules)) => format!("the review of wave {wave} under rules {rules}"),
                None => format!("the review {}", self.subject),
            },
        }
    }

    /// How a reader names the entry: "log entry #4 (wave w ingested)".
    pub fn label(&self) -> String {
        let did = match self.kind {
            LogKind::Ingest => "ingested",
            LogKind::Rubric | LogKind::PriceTable | LogKind::Rules => "registered",
            LogKind::Publication => "published",
            LogKind::Withdrawal => "made",
            LogKind::Signature => "kept",
            LogKind::DisplayName => "given",
            LogKind::Origins | LogKind::Review | LogKind::Texts => "recorded",
        };
        format!("log entry #{} ({} {did})", self.seq, self.subject_label())
    }
}

/// A log entry to append; the ledger assigns its place and predecessor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewLogEntry {
    pub kind: LogKind,
    pub subject: String,
    pub version: u32,
    pub subject_sha256: String,
    pub created_at: String,
}

/// A withdrawal to append; the ledger assigns its id, place and predecessor.
#[derive(Debug, Clone, PartialEq)]
pub struct NewWithdrawal {
    pub wave: String,
    pub superseded_by: Option<String>,
    pub reason: String,
    pub created_at: String,
}

/// What a withdrawal's record hash is computed from, once the ledger has placed it.
#[derive(Debug, Clone, PartialEq)]
pub struct WithdrawalSeal<'a> {
    pub id: i64,
    pub wave_content_sha256: &'a str,
    pub after_publication: i64,
    pub prev_sha256: Option<&'a str>,
}

/// A registered price table.
#[derive(Debug, Clone, PartialEq)]
pub struct PriceTableRow {
    pub name: String,
    pub version: u32,
    pub sha256: String,
    /// The price table file's text, verbatim.
    pub text: String,
    pub added_at: String,
}

impl PriceTableRow {
    pub fn id(&self) -> String {
        format!("{}@{}", self.name, self.version)
    }
}

/// Registered submission rules (`rules add`; docs/review.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesRow {
    pub name: String,
    pub version: u32,
    pub sha256: String,
    /// The rules file's text, verbatim.
    pub text: String,
    pub added_at: String,
}

impl RulesRow {
    pub fn id(&self) -> String {
        format!("{}@{}", self.name, self.version)
    }
}

/// A review recorded with the wave it let in (`review --ingest`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaveReviewRow {
    /// The wave's slug.
    pub wave: String,
    pub rules_name: String,
    pub rules_version: u32,
    /// The SHA-256 of the rules' text.
    pub rules_sha256: String,
    /// `accept`, `needs-review` or `reject`.
    pub verdict: String,
    /// The review document's `findings` array, as JSON.
    pub findings: String,
    /// The SHA-256 of `findings`.
    pub findings_sha256: String,
    pub reviewed_at: String,
}

impl WaveReviewRow {
    /// The rules it ran under, `NAME@VERSION`.
    pub fn rules(&self) -> String {
        format!("{}@{}", self.rules_name, self.rules_version)
    }

    /// The subject of its log entry: "WAVE/NAME@VERSION".
    pub fn subject(&self) -> String {
        format!("{}/{}", self.wave, self.rules())
    }
}

/// A publication as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct PublicationRow {
    pub id: i64,
    pub wave: String,
    /// NAME@VERSION of the rubric row it refers to.
    pub rubric: String,
    /// The rubric's SHA-256 at publication.
    pub rubric_sha256: String,
    pub title: String,
    pub created_at: String,
    /// The publication input format `input` is written in.
    pub input_format: u32,
    pub input: String,
    pub input_sha256: String,
    pub output: String,
    pub output_sha256: String,
    pub prev_sha256: Option<String>,
    /// The record format `sha256` was computed in.
    pub record_format: u32,
    pub sha256: String,
}

/// The claims file a publication carries, as the ledger keeps it beside the publication
/// (`publication_claims`, schema migration 7).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoredClaims {
    /// The publication was made before the ledger kept its claims beside it: its published
    /// text is the only record of the claims it carries, if any.
    Unrecorded,
    /// It carries no claims.
    None,
    /// It carries this claims file, its text as its claims section quotes it.
    Text(String),
}

/// A registered rubric.
#[derive(Debug, Clone, PartialEq)]
pub struct RubricRow {
    pub name: String,
    pub version: u32,
    pub sha256: String,
    /// The rubric file's text, verbatim.
    pub text: String,
    /// Registered with --allow-scale-violation: `rubric check` rejects it.
    pub scale_violation: bool,
    pub added_at: String,
}

impl RubricRow {
    pub fn id(&self) -> String {
        format!("{}@{}", self.name, self.version)
    }
}

/// A wave as listed: its conditions and how much it holds.
#[derive(Debug, Clone, PartialEq)]
pub struct WaveRow {
    pub wave: Wave,
    pub seats: u64,
    pub attempts: u64,
    pub content: ContentHash,
    pub ingested_at: String,
}

/// A wave's content hash and the format it was computed in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentHash {
    pub format: u32,
    pub sha256: String,
}
