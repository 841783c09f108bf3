//! `benchledger publish` and `publications`: freezing a leaderboard into the chain, and listing
//! the chain.

use std::path::Path;

use super::Ctx;
use crate::cli::{CiArgs, Format, PublicationsArgs, PublishArgs};
use benchledger_core::error::{Error, Result};
use benchledger_core::ledger::{Ledger, PublicationRow};
use benchledger_core::publication::{bundle_write, publish};

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
    let row = publish::publish(
        &mut ledger,
        &publish::Request {
            wave,
            rubric,
            title,
            prices,
            ci: settings,
            bundle_dir,
            claims,
            key: key.as_ref(),
        },
        &ctx.now,
    )?;
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
    let document = benchledger_core::documents::publications(&ledger)?;
    ctx.write_document(format, &document)
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
