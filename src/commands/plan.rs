//! `benchledger plan`: power and sample size for comparing two seats, from the wave's own
//! variance (`stats::plan`).

use super::Ctx;
use crate::cli::PlanArgs;
use benchledger_core::error::{Error, Result};
use benchledger_core::report;
use benchledger_core::stats::trials::SeatProblems;

/// `benchledger plan`, from its flags.
pub fn run(ctx: &mut Ctx<'_>, args: PlanArgs) -> Result<()> {
    let PlanArgs {
        wave,
        seat,
        vs,
        delta,
        alpha,
        power,
        format,
    } = args;
    for (flag, v) in [("--alpha", alpha), ("--power", power)] {
        if !(v > 0.0 && v < 1.0) {
            return Err(Error::Usage(format!(
                "{flag} {v}: give a share above 0 and below 1 (e.g. 0.05 for --alpha, 0.8 for \
                 --power)"
            )));
        }
    }
    if let Some(d) = delta
        && !(d > 0.0 && d <= 1.0)
    {
        return Err(Error::Usage(format!(
            "--delta {d}: give the difference to detect as a share above 0 and at most 1 (0.03 \
             for 3 points)"
        )));
    }
    if seat == vs {
        return Err(Error::Usage(format!(
            "seat {seat} versus itself: name two different seats"
        )));
    }
    let ledger = ctx.open()?;
    ledger.load_wave_check(&wave)?;
    let data = ledger.load_wave(&wave)?;
    let find = |id: &str| {
        data.seats.iter().find(|s| s.seat.id == id).ok_or_else(|| {
            Error::Usage(format!(
                "wave {wave} has no seat {id:?}; its seats are: {}",
                data.seats
                    .iter()
                    .map(|s| s.seat.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
    };
    let (a, b) = (find(&seat)?, find(&vs)?);
    let pa = SeatProblems::of(&data.wave, &a.attempts);
    let pb = SeatProblems::of(&data.wave, &b.attempts);
    let plan =
        benchledger_core::stats::plan::plan(&pa.attempted, &pb.attempted, alpha, power, delta)
            .ok_or_else(|| {
                Error::Usage(format!(
                    "seats {seat} and {vs} share no attempted problem in wave {wave}: there is \
                     nothing to plan from"
                ))
            })?;
    let (table, json) = report::plan::plan(&wave, &seat, &vs, alpha, power, delta, &plan);
    let text = ctx.render(format.format, "plan", &table, &json);
    ctx.write(&text)
}
