//! Claims: numbers someone published about a wave — a leaderboard's JSON, a paper's table —
//! checked against the ledger (docs/claims.md).
//!
//! A claims file lists published numbers with where they came from and the precision they were
//! published with. Checking one computes the figure it names from the wave's attempts exactly
//! as benchledger computes it everywhere else, rounds it as the number was published, and says
//! whether it **reproduces**, **differs** (by how much, and the nearest plausible cause the
//! ledger can show: the same figure recomputed under another convention that does reproduce it,
//! or the publisher's own counts that disagree), or **cannot be computed** (and why).
//!
//! - `spec`: the claims file, parsed strictly;
//! - `round`: rounding at the published precision, halves included;
//! - `compute`: a figure from a seat's attempts, and under other conventions;
//! - [`check`](mod@check): a claim's verdict and its causes;
//! - [`write`](mod@write): a claims file written out (for `claims from`);
//! - [`from`]: claims read from leaderboards' own files (OpenHands index, Terminal-Bench, HAL,
//!   Harbor, lm-evaluation-harness);
//! - [`from_evals`]: claims read from model-evaluation harnesses' aggregates (HELM, Every Eval
//!   Ever);
//!
//! Both only re-export: each format's claims extractor lives beside its importer, in
//! `import/<format>/claims.rs`, so that one module knows a format's files. A claim's types live
//! in `model::claims`, below the importers, and are re-exported by `spec` and `round`.
//!
//! All of it is pure, texts and data in and data out, but [`read`](mod@read): `claims from` as
//! one library call, which reads a source's files and makes the claims file's text.

pub mod check;
pub(crate) mod compute;
pub mod from;
pub mod from_evals;
pub mod read;
pub(crate) mod round;
pub(crate) mod spec;
pub mod write;

pub use check::{Checked, Verdict, WaveCtx, check};
pub use round::Precision;
pub use spec::{Claim, ClaimsFile, Counts, Figure, Measure, SeatFigure, parse};

/// A claims file, read whole.
pub const CLAIMS: crate::files::Cap = crate::files::Cap {
    bytes: 16 * 1024 * 1024,
    what: "a claims file",
    advice: "check the path",
};

/// A claims file's text, parsed.
pub fn load(path: &std::path::Path) -> crate::error::Result<(String, ClaimsFile)> {
    let text =
        crate::files::read_text(path, CLAIMS).map_err(|e| crate::error::Error::io(path, e))?;
    let file = parse(path, &text)?;
    Ok((text, file))
}
