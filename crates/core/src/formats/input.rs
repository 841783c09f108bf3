//! The publication input format: the canonical serialisation of every input row a published
//! leaderboard used — the rubric's identity, the price table's and how its intervals were drawn
//! (version 2), and the wave's content — behind a publication's input digest (docs/formats.md, "Publication input").
//! `verify` recomputes it from the ledger in the version the publication recorded, and
//! compares it byte for byte.

use super::json::{Json, to_string};
use super::{Decoder, FormatError, wave};
use crate::model::WaveData;

/// The input format new publications are written in, unless their wave records a condition
/// only a later version holds (`for_wave`).
pub const LATEST: u32 = 2;

/// The newest version this build knows: version 2 embedding wave content format 3.
pub(crate) const NEWEST: u32 = 3;

/// Every version this build can write, oldest first.
pub const VERSIONS: &[u32] = &[1, 2, 3];

/// The input format a new publication of `wave` is written in: [`LATEST`], or version 3 when
/// the wave records a timeout multiplier (which only wave content format 3 holds), so that a
/// publication of any other wave is written as it always was.
pub(crate) fn for_wave(wave: &crate::model::Wave) -> u32 {
    if wave::for_wave(wave) >= 3 {
        NEWEST
    } else {
        LATEST
    }
}

/// Which rubric a publication was computed with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RubricId {
    pub name: String,
    pub version: u32,
    pub sha256: String,
}

/// Which price table filled in the costs a publication's leaderboard shows, if one did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PricesId {
    pub name: String,
    pub version: u32,
    pub sha256: String,
}

/// How a publication's intervals were drawn (`publish --ci`), if it has any.
#[derive(Debug, Clone, PartialEq)]
pub struct CiId {
    /// The method's name (`crate::stats::bootstrap::METHOD`).
    pub method: String,
    /// The generator's name (`crate::stats::bootstrap::GENERATOR`).
    pub generator: String,
    /// The confidence level, in (0, 1).
    pub level: f64,
    pub resamples: u32,
    pub seed: u64,
}

/// The wave content version each input version embeds.
fn content_version(version: u32) -> Result<u32, FormatError> {
    match version {
        1 => Ok(1),
        2 => Ok(2),
        3 => Ok(3),
        v => Err(FormatError::unknown("publication input", v, NEWEST)),
    }
}

/// A publication's input in a format version:
/// version 1 `{"format":1,"rubric":{…},"data":{…}}`;
/// version 2 `{"format":2,"rubric":{…},"prices":{…}|null,"ci":{…}|null,"data":{…}}`;
/// version 3 the same as version 2 with `"format":3` and its `data` in wave content format 3.
/// Version 1 has no place for a price table or intervals: asking it to name one is an error.
pub(crate) fn encode(
    version: u32,
    rubric: &RubricId,
    prices: Option<&PricesId>,
    ci: Option<&CiId>,
    data: &WaveData,
) -> Result<String, FormatError> {
    let content = content_version(version)?;
    if version < 2 && prices.is_some() {
        return Err(FormatError::Malformed(
            "publication input format 1 cannot name a price table".into(),
        ));
    }
    if version < 2 && ci.is_some() {
        return Err(FormatError::Malformed(
            "publication input format 1 cannot record intervals".into(),
        ));
    }
    let mut result = Ok(());
    let text = to_string(|j: &mut Json<Vec<u8>>| {
        j.begin_object();
        j.key("format").u64(u64::from(version));
        j.key("rubric").begin_object();
        j.key("name").str(&rubric.name);
        j.key("version").u64(u64::from(rubric.version));
        j.key("sha256").str(&rubric.sha256);
        j.end_object();
        if version >= 2 {
            j.key("prices");
            match prices {
                Some(p) => {
                    j.begin_object();
                    j.key("name").str(&p.name);
                    j.key("version").u64(u64::from(p.version));
                    j.key("sha256").str(&p.sha256);
                    j.end_object();
                }
                None => {
                    j.null();
                }
            }
            j.key("ci");
            match ci {
                Some(c) => {
                    j.begin_object();
                    j.key("method").str(&c.method);
                    j.key("generator").str(&c.generator);
                    j.key("level").f64(c.level);
                    j.key("resamples").u64(u64::from(c.resamples));
                    j.key("seed").u64(c.seed);
                    j.end_object();
                }
                None => {
                    j.null();
                }
            }
        }
        j.key("data");
        result = wave::write_content(content, j, data);
        j.end_object();
    });
    result.map(|()| text)
}

/// A publication's input read back.
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    pub rubric: RubricId,
    pub prices: Option<PricesId>,
    pub ci: Option<CiId>,
    pub data: WaveData,
}

/// Reads a publication's input back, checking that it declares the version it is read in.
pub(crate) fn decode(version: u32, text: &str) -> Result<Input, FormatError> {
    let content = content_version(version)?;
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
    let prices = if version >= 2 {
        let p = d.field("prices")?;
        if p.is_null() {
            None
        } else {
            Some(PricesId {
                name: p.field("name")?.string()?,
                version: p.field("version")?.u32()?,
                sha256: p.field("sha256")?.string()?,
            })
        }
    } else {
        None
    };
    let ci = if version >= 2 {
        let c = d.field("ci")?;
        if c.is_null() {
            None
        } else {
            Some(CiId {
                method: c.field("method")?.string()?,
                generator: c.field("generator")?.string()?,
                level: c.field("level")?.f64()?,
                resamples: c.field("resamples")?.u32()?,
                seed: c.field("seed")?.u64()?,
            })
        }
    } else {
        None
    };
    Ok(Input {
        rubric,
        prices,
        ci,
        data: wave::decode_value(content, &d.field("data")?)?,
    })
}
