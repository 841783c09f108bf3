//! The publication input format: the canonical serialisation of every input row a published
//! leaderboard used — the rubric's identity and the wave's content — behind a publication's
//! input digest (docs/formats.md, "Publication input"). `verify` recomputes it from the ledger
//! in the version the publication recorded, and compares it byte for byte.

use super::json::{Json, to_string};
use super::{Decoder, FormatError, wave};
use crate::model::WaveData;

/// The input format new publications are written in.
pub const LATEST: u32 = 1;

/// Every version this build can write, oldest first.
pub const VERSIONS: &[u32] = &[1];

/// Which rubric a publication was computed with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RubricId {
    pub name: String,
    pub version: u32,
    pub sha256: String,
}

/// The wave content version each input version embeds.
fn content_version(version: u32) -> Result<u32, FormatError> {
    match version {
        1 => Ok(1),
        v => Err(FormatError::unknown("publication input", v, LATEST)),
    }
}

/// A publication's input in a format version: `{"format":1,"rubric":{…},"data":{…}}`.
pub fn encode(version: u32, rubric: &RubricId, data: &WaveData) -> Result<String, FormatError> {
    let content = content_version(version)?;
    let mut result = Ok(());
    let text = to_string(|j: &mut Json<Vec<u8>>| {
        j.begin_object();
        j.key("format").u64(u64::from(version));
        j.key("rubric").begin_object();
        j.key("name").str(&rubric.name);
        j.key("version").u64(u64::from(rubric.version));
        j.key("sha256").str(&rubric.sha256);
        j.end_object();
        j.key("data");
        result = wave::write_content(content, j, data);
        j.end_object();
    });
    result.map(|()| text)
}

/// Reads a publication's input back, checking that it declares the version it is read in.
pub fn decode(version: u32, text: &str) -> Result<(RubricId, WaveData), FormatError> {
    content_version(version)?;
    let v = super::parse(text)?;
    let d = Decoder::root(&v);
    let declared = d.field("format")?.u64()?;
    if declared != u64::from(version) {
        return Err(FormatError::Malformed(format!(
            "the input declares format {declared}, but the publication records format {version}"
        )));
    }
    let r = d.field("rubric")?;
    let rubric = RubricId {
        name: r.field("name")?.string()?,
        version: r.field("version")?.u32()?,
        sha256: r.field("sha256")?.string()?,
    };
    Ok((rubric, wave::decode_value(&d.field("data")?)?))
}
