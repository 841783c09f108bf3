//! Publishing: a wave's leaderboard under a registered rubric frozen into the chain, with the
//! input it was rendered from, the claims it carries and, when a key is given, its signature,
//! all in one transaction. The command (`publish`) and the Python package's `Ledger.publish`
//! both call [`publish`]; each then writes the bundle and says what was published in its own
//! words.

use std::path::Path;

use super::bundle_write;
use super::claims::{Carried, check_fits};
use super::{Record, Rendered, Sources, ci_id, record_sha256, render, signature};
use crate::attest::PrivateKey;
use crate::digest::sha256_hex;
use crate::error::{Error, Hint, Result};
use crate::formats::input::{self, PricesId};
use crate::ledger::{Ledger, MakeEnvelope, NewPublication, PublicationRow};
use crate::model::{PriceTableRow, WaveData};
use crate::prices::PriceTable;
use crate::registry;
use crate::report::withdrawn::{self, Withdrawn};
use crate::rubric::RubricInfo;
use crate::stats::bootstrap::Settings;

/// What a publication is to be.
#[derive(Debug, Clone, Copy, Default)]
pub struct Request<'a> {
    /// The wave's id.
    pub wave: &'a str,
    /// A registered rubric, `NAME@VERSION` (or its file's path, when that file is registered).
    pub rubric: &'a str,
    /// The title (default: "WAVE under RUBRIC").
    pub title: Option<&'a str>,
    /// A registered price table filling in the costs attempts lack.
    pub prices: Option<&'a str>,
    /// The intervals drawn into the published text, when any.
    pub ci: Option<Settings>,
    /// A directory the bundle will be written into: checked before anything is published.
    pub bundle_dir: Option<&'a Path>,
    /// A claims file to check against the wave and carry in the published text.
    pub claims: Option<&'a Path>,
    /// The key to sign the publication with.
    pub key: Option<&'a PrivateKey>,
}

/// Publishes `request` at `now` (RFC 3339): the rubric must be registered, the wave there and
/// not withdrawn, the title free of control and bidirectional formatting characters, and the
/// claims about this wave and rubric. Returns the committed row; nothing is written on error.
/// A bundle directory is checked here and written by the caller once this returns
/// ([`bundle_write::write`]).
pub fn publish(ledger: &mut Ledger, request: &Request<'_>, now: &str) -> Result<PublicationRow> {
    let Request {
        wave,
        rubric,
        title,
        prices,
        bundle_dir,
        claims,
        key,
        ..
    } = *request;
    let info = publishable(ledger, wave, rubric)?;
    let price_table = prices
        .map(|spec| registered_prices(ledger, spec))
        .transpose()?;
    if let Some(dir) = bundle_dir {
        bundle_write::check_target(
            ledger,
            &info.sha256,
            price_table.as_ref().map(|(row, _)| row),
            dir,
        )?;
    }
    let data = ledger.load_wave(wave)?;
    let claims = claims
        .map(|path| carried(path, &data, &info.rubric.id()))
        .transpose()?;
    if let Some(t) = title {
        check_title(t)?;
    }
    let title = title
        .map(str::to_string)
        .unwrap_or_else(|| format!("{} under {}", data.wave.id, info.rubric.id()));
    let new = new_publication(
        request,
        now,
        title,
        data,
        &info,
        price_table.as_ref(),
        claims.as_ref(),
    )?;
    add(ledger, &new, &info, key)
}

/// The rubric `rubric` names, checked to be registered, and the wave checked to be there and
/// not withdrawn.
fn publishable(ledger: &Ledger, wave: &str, rubric: &str) -> Result<RubricInfo> {
    let info = registry::resolve(ledger, rubric)?;
    if !info.registered {
        return Err(Error::Usage(format!(
            "{} is not registered: a publication must name a rubric anyone can recompute it \
             with",
            info.rubric.id()
        ))
        .hinted(Hint::RegisterFirst(rubric.to_string())));
    }
    ledger.load_wave_check(wave)?;
    if let Some(w) = Withdrawn::load(ledger)?.get(wave) {
        return Err(Error::Usage(format!(
            "wave {wave} was {}: a withdrawn wave is not published as a leaderboard",
            withdrawn::describe(w)
        )));
    }
    Ok(info)
}

/// The registered price table `spec` names: its row and the table parsed.
fn registered_prices(ledger: &Ledger, spec: &str) -> Result<(PriceTableRow, PriceTable)> {
    let row = registry::price_table_row(ledger, spec)?;
    let table = registry::parse_price_table(ledger, &row)?;
    Ok((row, table))
}

/// The publication of the wave's `data` under `title`, its input and text rendered, made at
/// `now`.
fn new_publication(
    request: &Request<'_>,
    now: &str,
    title: String,
    data: WaveData,
    info: &RubricInfo,
    price_table: Option<&(PriceTableRow, PriceTable)>,
    claims: Option<&Carried>,
) -> Result<NewPublication> {
    let wave = request.wave;
    // The input names the table that fills in the costs the rows lack (input format 2's
    // `prices`) and how the intervals are drawn; the render fills in the costs after writing
    // the input, as verify will.
    let prices = price_table.map(|(row, table)| {
        let id = PricesId {
            name: table.name.clone(),
            version: table.version,
            sha256: row.sha256.clone(),
        };
        (id, Some(table))
    });
    let input_format = input::for_wave(&data.wave);
    let Rendered {
        input,
        input_sha256,
        output,
    } = render(Sources {
        title: &title,
        wave: data,
        rubric: info,
        input_format,
        prices,
        ci: request.ci.as_ref().map(ci_id),
        claims,
        output_format: None,
    })
    .map_err(|e| Error::Usage(format!("wave {wave} cannot be published: {e}")))?;
    Ok(NewPublication {
        wave: wave.to_string(),
        rubric_sha256: info.sha256.clone(),
        title,
        created_at: now.to_string(),
        input_format,
        output_sha256: sha256_hex(output.as_bytes()),
        input,
        input_sha256,
        output,
        claims: claims.map(|c| c.quoted()),
    })
}

/// Adds the publication `new` to the chain, signed with `key` when one is given.
fn add(
    ledger: &mut Ledger,
    new: &NewPublication,
    info: &RubricInfo,
    key: Option<&PrivateKey>,
) -> Result<PublicationRow> {
    // Signed in the same transaction, once the row's id and record hash are known: the
    // statement names the record.
    let content = ledger.wave_content_hash(&new.wave)?;
    let rubric_id = info.rubric.id();
    let envelope = key
        .map(|k| move |row: &PublicationRow| signature::sign(k, row, &rubric_id, &content.sha256));
    let seal = |id, prev: Option<&str>| {
        record_sha256(&Record {
            id,
            wave: &new.wave,
            rubric_sha256: &new.rubric_sha256,
            title: &new.title,
            created_at: &new.created_at,
            input_sha256: &new.input_sha256,
            output_sha256: &new.output_sha256,
            prev_sha256: prev,
        })
    };
    ledger.add_publication(new, seal, envelope.as_ref().map(|f| f as MakeEnvelope<'_>))
}

/// The claims file at `path`, read, parsed and checked to be about this wave, its rubric and
/// the wave's seats, as the publication will carry it.
fn carried(path: &Path, data: &crate::model::WaveData, rubric_id: &str) -> Result<Carried> {
    let (text, file) = crate::claims::load(path)?;
    check_fits(path, &file, data, rubric_id)?;
    Ok(Carried { file, text })
}

/// A title is frozen into the record hash and the published text, and printed wherever the
/// publication is listed: one with a control or bidirectional formatting character
/// (`\u{1b}[2J`, a right-to-left override) is refused rather than escaped, so that what was
/// typed is what is published, byte for byte, and no frozen text can act on a terminal or
/// spoof a name (issue 32, #2). Publications made before keep their titles and verify.
fn check_title(title: &str) -> Result<()> {
    match title.chars().find(|&c| crate::text::is_active(c)) {
        None => Ok(()),
        Some(c) => Err(Error::argument(
            "title",
            format!("{:?}", crate::text::shown(title)),
            format!(
                "holds the character {}, which would act on a terminal or reorder the text \
                 around it rather than be read: give a title without control or bidirectional \
                 formatting characters",
                c.escape_unicode()
            ),
        )),
    }
}
