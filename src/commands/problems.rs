//! `benchledger problems`: a wave's problem × seat matrix, or with `--regressions` the problems
//! each seat solves in one wave and not the other. The library builds both
//! ([`benchledger_core::report::problems`]); this checks what was named and prints.

use super::{Ctx, Withdrawn};
use crate::cli::{Format, ProblemsArgs};
use benchledger_core::error::{Error, Result};
use benchledger_core::ledger::Ledger;
use benchledger_core::model::WaveData;
use benchledger_core::report::problems;

/// A wave the user named: known (else the error names the known ones) and, unless
/// `--include-withdrawn`, not withdrawn.
fn named_wave(
    ledger: &Ledger,
    withdrawn: &Withdrawn,
    wave: &str,
    include: bool,
) -> Result<WaveData> {
    ledger.load_wave_check(wave)?;
    withdrawn.check_named(wave, include)?;
    ledger.load_wave(wave)
}

/// Every `--seat` must be a seat of one of these waves; the error names the known ones.
fn check_seats(seats: &[String], waves: &[&WaveData]) -> Result<()> {
    for s in seats {
        if !waves
            .iter()
            .any(|w| w.seats.iter().any(|x| &x.seat.id == s))
        {
            let mut known: Vec<&str> = waves
                .iter()
                .flat_map(|w| w.seats.iter().map(|x| x.seat.id.as_str()))
                .collect();
            known.sort_unstable();
            known.dedup();
            let names: Vec<&str> = waves.iter().map(|w| w.wave.id.as_str()).collect();
            return Err(Error::Usage(format!(
                "--seat {s}: no such seat in {}; its seats are: {}",
                names.join(" or "),
                known.join(", ")
            )));
        }
    }
    Ok(())
}

/// `--problem ID`: the problem's attempts with their texts, in the chosen format.
fn sample(
    ctx: &mut Ctx<'_>,
    wave: &WaveData,
    problem: &str,
    args: &ProblemsArgs,
) -> Result<String> {
    let Some(s) = benchledger_core::report::sample::sample(wave, problem, &args.seat) else {
        let known = problems::wave_problems(wave);
        let shown: Vec<&str> = known.iter().take(20).map(String::as_str).collect();
        return Err(Error::Usage(format!(
            "--problem {problem}: no seat of wave {} attempted it; its problems are: {}{}",
            wave.wave.id,
            shown.join(", "),
            if known.len() > shown.len() {
                format!(" (and {} more)", known.len() - shown.len())
            } else {
                String::new()
            }
        )));
    };
    use benchledger_core::report::sample::{sample_table, sample_text};
    Ok(match args.format.format {
        Format::Table => sample_text(&s),
        Format::Md => {
            // A fence longer than any run of backticks in the texts.
            let text = sample_text(&s);
            let mut fence = String::from("```");
            while text.contains(fence.as_str()) {
                fence.push('`');
            }
            format!("{fence}text\n{text}{fence}\n")
        }
        Format::Csv | Format::Json => {
            ctx.render(args.format.format, "problem-sample", &sample_table(&s), &s)
        }
    })
}

pub fn run(ctx: &mut Ctx<'_>, args: ProblemsArgs) -> Result<()> {
    let want = if args.regressions { 2 } else { 1 };
    if args.waves.len() != want {
        return Err(Error::Usage(if args.regressions {
            "--regressions compares two waves: name both (WAVE_A WAVE_B), the earlier first".into()
        } else {
            "name one wave (or two with --regressions)".into()
        }));
    }
    let ledger = ctx.open()?;
    let withdrawn = Withdrawn::load(&ledger)?;
    let waves: Vec<WaveData> = args
        .waves
        .iter()
        .map(|w| named_wave(&ledger, &withdrawn, w, args.include_withdrawn))
        .collect::<Result<_>>()?;
    let refs: Vec<&WaveData> = waves.iter().collect();
    check_seats(&args.seat, &refs)?;
    if let Some(problem) = &args.problem {
        let text = sample(ctx, &waves[0], problem, &args)?;
        return ctx.write(&text);
    }
    let marks = withdrawn.among(args.waves.iter().map(String::as_str));
    let text = if args.regressions {
        let r = problems::regressions(&waves[0], &waves[1], &args.seat);
        let mut table = problems::regressions_table(&r);
        let json = benchledger_core::report::withdrawn::mark(&mut table, &r, &marks);
        ctx.render(args.format.format, "problem-regressions", &table, &json)
    } else {
        let m = problems::matrix(&waves[0], &args.seat);
        let mut table = problems::matrix_table(&m);
        let json = benchledger_core::report::withdrawn::mark(&mut table, &m, &marks);
        ctx.render(args.format.format, "problems", &table, &json)
    };
    ctx.write(&text)
}
