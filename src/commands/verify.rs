//! `benchledger verify`: the library's verification ([`benchledger_core::verify`]) from the
//! command line's flags — publications recomputed from the ledger (or a bundle) and compared
//! byte for byte, the chain checked (`--expect-head`), the ledger checked against what it was
//! derived from (`--ledger`), signatures against a trusted key — its report printed for people
//! or as the JSON document.

use std::path::Path;

use super::Ctx;
use crate::cli::{Format, VerifyArgs};
use benchledger_core::error::{Error, Result};
use benchledger_core::publication::signature;
use benchledger_core::verify;

/// What `verify` was asked to check, as the command line names it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Request<'a> {
    /// These publications.
    pub ids: &'a [i64],
    /// Every publication and withdrawal.
    pub all: bool,
    /// A bundle's directory, instead of the ledger.
    pub bundle: Option<&'a Path>,
    /// The ledger's integrity.
    pub ledger: bool,
    /// The hash the chain must end at.
    pub expect_head: Option<&'a str>,
    /// The verdicts as a JSON document (`--format json`) rather than a report for people.
    pub json: bool,
    /// A public key file: every publication checked must be signed by it.
    pub trusted_key: Option<&'a Path>,
}

/// Verifies what `req` asks and prints the report; a check that failed ends the command with
/// its error, after the report.
pub fn verify(ctx: &mut Ctx<'_>, req: Request<'_>) -> Result<()> {
    let trusted_key = req
        .trusted_key
        .map(|path| signature::read_public(path, "--trusted-key"))
        .transpose()?;
    let request = verify::Request {
        ids: req.ids,
        all: req.all,
        bundle: req.bundle,
        ledger: req.ledger,
        expect_head: req.expect_head,
        trusted_key,
    };
    let report = verify::run(&request, || ctx.open())?;
    if req.json {
        ctx.write(&report.json())?;
    } else {
        ctx.write(&report.text)?;
    }
    report.outcome()
}

/// `benchledger verify`, from its flags.
pub fn run(ctx: &mut Ctx<'_>, args: VerifyArgs) -> Result<()> {
    let VerifyArgs {
        ids,
        all,
        bundle,
        expect_head,
        ledger,
        trusted_key,
        format,
    } = args;
    let json = match format.format {
        Format::Table => false,
        Format::Json => true,
        other => {
            return Err(Error::Usage(format!(
                "verify --format {}: verify prints its report, or --format json",
                match other {
                    Format::Csv => "csv",
                    _ => "md",
                }
            )));
        }
    };
    verify(
        ctx,
        Request {
            ids: &ids,
            all,
            bundle: bundle.as_deref(),
            ledger,
            expect_head: expect_head.as_deref(),
            json,
            trusted_key: trusted_key.as_deref(),
        },
    )
}
