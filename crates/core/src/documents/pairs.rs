//! Two seats of a wave paired on the problems both attempted: the difference and its test
//! (`versus`), every pair at once with the groups the data cannot separate (`versus_all`), and
//! how large a rematch must be to tell a difference apart (`plan`).

use super::document::Document;
use super::request::{self, Ci};
use crate::error::{Error, Result};
use crate::ledger::Ledger;
use crate::report;
use crate::report::withdrawn::Withdrawn;
use crate::stats::trials::SeatProblems;
use crate::stats::versus::{Paired, TieGroups};

/// `versus`: seats `a` and `b` of `wave`, paired, with the difference's interval (at 95% unless
/// `ci` says otherwise), McNemar's exact test and a verdict.
pub fn versus(ledger: &Ledger, wave: &str, a: &str, b: &str, ci: Ci) -> Result<Document> {
    let settings = ci.settings(true)?.unwrap_or_default();
    request::two_seats(a, b)?;
    let data = request::named(ledger, wave)?;
    let (sa, sb) = (request::seat(&data, a)?, request::seat(&data, b)?);
    let pa = SeatProblems::of(&data.wave, &sa.attempts);
    let pb = SeatProblems::of(&data.wave, &sb.attempts);
    let paired = Paired::of(&pa.attempted, &pb.attempted, &settings);
    let (mut table, json) = report::versus::versus(wave, a, b, &paired, &settings);
    let withdrawn = Withdrawn::load(ledger)?;
    let json = report::withdrawn::mark(&mut table, &json, &withdrawn.among([wave]));
    Ok(Document::new("versus", table, &json))
}

/// `versus --all`: every pair of the wave's seats, and the groups the data cannot separate at
/// the family-wise error rate `alpha`.
pub fn versus_all(ledger: &Ledger, wave: &str, alpha: f64) -> Result<Document> {
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(Error::argument(
            "alpha",
            alpha,
            "give the family-wise error rate above 0 and below 1 (e.g. 0.05)",
        ));
    }
    let data = request::named(ledger, wave)?;
    let groups = TieGroups::of(&data, alpha);
    let (table, json) = report::versus::versus_all(wave, &groups);
    Ok(Document::new("versus", table, &json))
}

/// `plan`: how many problems and trials a rematch of `seat` and `vs` needs to tell a
/// difference of `delta` (none: the one observed) apart at `alpha` with `power`, from the
/// wave's own variance.
pub fn plan(
    ledger: &Ledger,
    wave: &str,
    seat: &str,
    vs: &str,
    delta: Option<f64>,
    alpha: f64,
    power: f64,
) -> Result<Document> {
    for (name, v, e_g) in [("alpha", alpha, "0.05"), ("power", power, "0.8")] {
        if !(v > 0.0 && v < 1.0) {
            return Err(Error::argument(
                name,
                v,
                format!("give a share above 0 and below 1 (e.g. {e_g})"),
            ));
        }
    }
    if let Some(d) = delta
        && !(d > 0.0 && d <= 1.0)
    {
        return Err(Error::argument(
            "delta",
            d,
            "give the difference to detect as a share above 0 and at most 1 (0.03 for 3 points)",
        ));
    }
    request::two_seats(seat, vs)?;
    let data = request::named(ledger, wave)?;
    let (a, b) = (request::seat(&data, seat)?, request::seat(&data, vs)?);
    let pa = SeatProblems::of(&data.wave, &a.attempts);
    let pb = SeatProblems::of(&data.wave, &b.attempts);
    let plan = crate::stats::plan::plan(&pa.attempted, &pb.attempted, alpha, power, delta)
        .ok_or_else(|| {
            Error::Usage(format!(
                "seats {seat} and {vs} share no attempted problem in wave {wave}: there is \
                 nothing to plan from"
            ))
        })?;
    let (table, json) = report::plan::plan(wave, seat, vs, alpha, power, delta, &plan);
    Ok(Document::new("plan", table, &json))
}
