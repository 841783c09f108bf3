//! `benchledger publish` and `publications`: freezing a leaderboard into the chain, and listing
//! the chain.

use std::path::Path;

use super::Ctx;
use super::rubric::resolve;
use crate::cli::{CiArgs, Format, PublicationsArgs, PublishArgs};
use benchledger_core::digest::sha256_hex;
use benchledger_core::error::{Error, Result};
use benchledger_core::formats::input::PricesId;
use benchledger_core::ledger::{Ledger, MakeEnvelope, NewPublication, PublicationRow};
use benchledger_core::publication::bundle_write;
use benchledger_core::publication::{
    Record, Rendered, Sources, ci_id, record_sha256, render, signature,
};
use benchledger_core::report;

/// What `publish` was asked for.
#[derive(Debug, Clone, Copy, Default)]
pub struct Request<'a> {
    /// The wave's id.
    pub wave: &'a str,
    /// A registered rubric, `NAME@VERSION`.
    pub rubric: &'a str,
    pub title: Option<&'a str>,
    /// A registered price table filling in the costs attempts lack.
    pub prices: Option<&'a str>,
    pub ci: CiArgs,
    /// Also write a bundle into this directory.
    pub bundle_dir: Option<&'a Path>,
    /// Write the published text to this file instead of printing it.
    pub out: Option<&'a Path>,
    /// A claims file to check against the wave and carry in the published text.
    pub claims: Option<&'a Path>,
    /// A private key file to sign the publication with.
    pub sign: Option<&'a Path>,
}

pub fn publish(ctx: &mut Ctx<'_>, request: Request<'_>) -> Result<()> {
    let Request {
        wave,
        rubric,
        title,
        prices,
        ci,
        bundle_dir,
        out,
        claims,
        sign,
    } = request;
    if let Some(file) = out {
        check_out_file(file)?;
    }
    let key = sign
        .map(|path| super::keys::read_private(path, "--sign"))
        .transpose()?;
    let settings = super::interval_settings(ci, false)?;
    let mut ledger = ctx.open_write()?;
    let info = resolve(&ledger, rubric)?;
    if !info.registered {
        return Err(Error::Usage(format!(
            "{} is not registered: a publication must name a rubric anyone can recompute it \
             with. Register it first with `benchledger rubric add {rubric}`",
            info.rubric.id()
        )));
    }
    ledger.load_wave_check(wave)?;
    if let Some(w) = super::Withdrawn::load(&ledger)?.get(wave) {
        return Err(Error::Usage(format!(
            "wave {wave} was {}: a withdrawn wave is not published as a leaderboard",
            report::withdrawn::describe(w)
        )));
    }
    let price_table = match prices {
        Some(spec) => {
            let row = benchledger_core::registry::price_table_row(&ledger, spec)?;
            let table = benchledger_core::registry::parse_price_table(&ledger, &row)?;
            Some((row, table))
        }
        None => None,
    };
    if let Some(dir) = bundle_dir {
        bundle_write::check_target(
            &ledger,
            &info.sha256,
            price_table.as_ref().map(|(row, _)| row),
            dir,
        )?;
    }
    let data = ledger.load_wave(wave)?;
    let claims = claims
        .map(|p| super::claims::for_publication(p, &data, &info.rubric.id()))
        .transpose()?;
    // A title is frozen into the record hash and the published text, and printed wherever
    // the publication is listed: one with a control or bidirectional formatting character
    // (`\u{1b}[2J`, a right-to-left override) is refused rather than escaped, so that what was
    // typed is what is published, byte for byte, and no frozen text can act on a terminal or
    // spoof a name (issue 32, #2). Publications made before keep their titles and verify.
    if let Some(t) = title
        && let Some(c) = t.chars().find(|&c| benchledger_core::text::is_active(c))
    {
        return Err(Error::Usage(format!(
            "--title {:?} holds the character {}, which would act on a terminal or reorder \
             the text around it rather than be read: give a title without control or \
             bidirectional formatting characters",
            benchledger_core::text::shown(t),
            c.escape_unicode()
        )));
    }
    let title = title
        .map(str::to_string)
        .unwrap_or_else(|| format!("{} under {}", data.wave.id, info.rubric.id()));
    // The input names the table that fills in the costs the rows lack (input format 2's
    // `prices`) and how the intervals are drawn; the render fills in the costs after writing
    // the input, as verify will.
    let prices = price_table.as_ref().map(|(row, table)| {
        let id = PricesId {
            name: table.name.clone(),
            version: table.version,
            sha256: row.sha256.clone(),
        };
        (id, Some(table))
    });
    let input_format = benchledger_core::formats::input::for_wave(&data.wave);
    let Rendered {
        input,
        input_sha256,
        output,
    } = render(Sources {
        title: &title,
        wave: data,
        rubric: &info,
        input_format,
        prices,
        ci: settings.as_ref().map(ci_id),
        claims: claims.as_ref(),
        output_format: None,
    })
    .map_err(|e| Error::Usage(format!("wave {wave} cannot be published: {e}")))?;
    let new = NewPublication {
        wave: wave.to_string(),
        rubric_sha256: info.sha256.clone(),
        title,
        created_at: ctx.now.clone(),
        input_format,
        output_sha256: sha256_hex(output.as_bytes()),
        input,
        input_sha256,
        output,
        claims: claims.as_ref().map(|c| c.quoted()),
    };
    // Signed in the same transaction, once the row's id and record hash are known: the
    // statement names the record.
    let content = ledger.wave_content_hash(wave)?;
    let rubric_id = info.rubric.id();
    let envelope = key
        .as_ref()
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
    let row =
        ledger.add_publication(&new, seal, envelope.as_ref().map(|f| f as MakeEnvelope<'_>))?;
    let signed_by = key.as_ref().map(|k| k.public().id());
    let msg = published_message(&ledger, &row, signed_by.as_deref(), bundle_dir, out)?;
    ctx.write(&msg)
}

/// What `publish` prints once the publication is committed: its digests and chain link (and
/// the id of the key that signed it), after writing its bundle to `bundle_dir` and its text to
/// `out` when asked (else the text follows the digests).
fn published_message(
    ledger: &Ledger,
    row: &PublicationRow,
    signed_by: Option<&str>,
    bundle_dir: Option<&Path>,
    out: Option<&Path>,
) -> Result<String> {
    let mut msg = format!(
        "published #{} {:?}: wave {} under {}\n  output sha256 {}\n  input sha256  {}\n  record sha256 {}{}\n",
        row.id,
        row.title,
        row.wave,
        row.rubric,
        row.output_sha256,
        row.input_sha256,
        row.sha256,
        match &row.prev_sha256 {
            Some(p) => format!(" (chained to {})", benchledger_core::digest::short(p)),
            None => " (first in the chain)".into(),
        }
    );
    // The chain's head: the publication's log entry (its signature's, when signed).
    if let Some(head) = ledger.walk()?.last() {
        msg.push_str(&format!(
            "  chain head    {} (keep it outside the ledger: `verify --expect-head`)\n",
            head.sha256()
        ));
    }
    if let Some(id) = signed_by {
        msg.push_str(&format!("  signed by key {id}\n"));
    }
    if let Some(dir) = bundle_dir {
        // The publication is committed and frozen; if the bundle still cannot be written, say
        // so plainly and how to write it again.
        bundle_write::write(ledger, row, dir).map_err(|e| {
            Error::Usage(format!(
                "published #{} (it is in the ledger), but its bundle could not be written: {e}. \
                 Write it with `benchledger bundle {} --out DIR`",
                row.id, row.id
            ))
        })?;
        msg.push_str(&format!(
            "  bundle written to {}: check it with `benchledger verify --bundle {}`\n",
            dir.display(),
            dir.display()
        ));
    }
    match out {
        Some(file) => {
            // The publication is committed; if the file still cannot be written, say so and
            // where the text can be had.
            std::fs::write(file, &row.output).map_err(|e| {
                Error::Usage(format!(
                    "published #{} (it is in the ledger), but {} could not be written: {e}. \
                     The text is in its bundle: `benchledger bundle {} --out DIR`",
                    row.id,
                    file.display(),
                    row.id
                ))
            })?;
            msg.push_str(&format!("  published text written to {}\n", file.display()));
        }
        None => {
            // Shown as a terminal is given text: a control character in a note or model's
            // name escaped (issue 32, #2). `--out` and the bundle keep the published bytes.
            msg.push('\n');
            msg.push_str(&benchledger_core::text::shown_keeping(&row.output, |c| {
                c == '\n'
            }));
        }
    }
    Ok(msg)
}

/// Refuses, before anything is published, a `--out` that cannot be a file written there: a
/// directory, something other than a regular file, or a path in a directory that does not
/// exist.
fn check_out_file(file: &Path) -> Result<()> {
    if let Some(kind) = super::files::irregular_at(file) {
        return Err(Error::Usage(format!(
            "--out {} is {kind}: name a file to write the published text to (nothing was \
             published)",
            file.display()
        )));
    }
    let parent = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !parent.is_dir() {
        return Err(Error::Usage(format!(
            "--out {}: {} is not a directory (nothing was published)",
            file.display(),
            parent.display()
        )));
    }
    Ok(())
}

pub fn publications(ctx: &mut Ctx<'_>, head: bool, format: Format) -> Result<()> {
    let ledger = ctx.open()?;
    let chain = ledger.walk()?;
    if head {
        return match chain.last() {
            Some(last) => ctx.write(&format!("{}\n", last.sha256())),
            None => Err(Error::Usage(format!(
                "the chain of {} is empty: there is no head to keep until something is \
                 published (`benchledger publish`) or withdrawn",
                ledger.path().display()
            ))),
        };
    }
    let rows = ledger.publications()?;
    let withdrawals = ledger.withdrawals()?;
    let (table, json) =
        report::publication::list(&rows, &withdrawals, chain.last().map(|e| e.sha256()));
    let text = ctx.render(format, "publications", &table, &json);
    ctx.write(&text)
}

/// `benchledger publish`, from its flags.
pub fn run_publish(ctx: &mut Ctx<'_>, args: PublishArgs) -> Result<()> {
    let PublishArgs {
        wave,
        rubric,
        title,
        prices,
        ci,
        bundle,
        out,
        claims,
        sign,
        wait: _,
    } = args;
    publish(
        ctx,
        Request {
            wave: &wave,
            rubric: &rubric,
            title: title.as_deref(),
            prices: prices.as_deref(),
            ci,
            bundle_dir: bundle.as_deref(),
            out: out.as_deref(),
            claims: claims.as_deref(),
            sign: sign.as_deref(),
        },
    )
}

/// `benchledger publications`, from its flags.
pub fn run_publications(ctx: &mut Ctx<'_>, args: PublicationsArgs) -> Result<()> {
    publications(ctx, args.head, args.format.format)
}
