//! A wave's problems: the problem × seat matrix (`problems`), what each seat solved in one wave
//! and no longer does in another (`regressions`), and one problem's sample with the texts its
//! logs recorded (`sample`).

use super::document::Document;
use crate::error::{Error, Result};
use crate::ledger::Ledger;
use crate::model::WaveData;
use crate::report::problems;
use crate::report::sample::{self, SampleJson as Sample};
use crate::report::withdrawn::{self, Withdrawn};

/// A wave the caller named: known (else the error names the known ones) and, unless
/// `include_withdrawn`, not withdrawn.
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

/// Every seat of `seats` must be a seat of one of these waves; the error names the known ones.
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
            return Err(Error::argument(
                "seat",
                s,
                format!(
                    "no such seat in {}; its seats are: {}",
                    names.join(" or "),
                    known.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

/// `problems WAVE`: each problem's verdict per seat (only `seats`, when any are named), and the
/// problems no seat or every seat solved.
pub fn problems(
    ledger: &Ledger,
    wave: &str,
    seats: &[String],
    include_withdrawn: bool,
) -> Result<Document> {
    let withdrawn = Withdrawn::load(ledger)?;
    let data = named_wave(ledger, &withdrawn, wave, include_withdrawn)?;
    check_seats(seats, &[&data])?;
    let m = problems::matrix(&data, seats);
    let mut table = problems::matrix_table(&m);
    let json = withdrawn::mark(&mut table, &m, &withdrawn.among([wave]));
    Ok(Document::new("problems", table, &json))
}

/// `problems --regressions BEFORE AFTER`: what each seat (only `seats`, when any are named)
/// solved in `before` and no longer solves in `after`, and the reverse.
pub fn regressions(
    ledger: &Ledger,
    before: &str,
    after: &str,
    seats: &[String],
    include_withdrawn: bool,
) -> Result<Document> {
    let withdrawn = Withdrawn::load(ledger)?;
    let a = named_wave(ledger, &withdrawn, before, include_withdrawn)?;
    let b = named_wave(ledger, &withdrawn, after, include_withdrawn)?;
    check_seats(seats, &[&a, &b])?;
    let r = problems::regressions(&a, &b, seats);
    let mut table = problems::regressions_table(&r);
    let json = withdrawn::mark(&mut table, &r, &withdrawn.among([before, after]));
    Ok(Document::new("problem-regressions", table, &json))
}

/// `problems WAVE --problem ID`: every attempt at one problem (by `seats`, when any are named)
/// with the texts its log recorded. Render it with [`sample::sample_text`], or as a document
/// of kind `problem-sample` with `sample::sample_table`.
pub fn sample(
    ledger: &Ledger,
    wave: &str,
    problem: &str,
    seats: &[String],
    include_withdrawn: bool,
) -> Result<Sample> {
    let withdrawn = Withdrawn::load(ledger)?;
    let data = named_wave(ledger, &withdrawn, wave, include_withdrawn)?;
    check_seats(seats, &[&data])?;
    sample::sample(&data, problem, seats).ok_or_else(|| {
        let known = problems::wave_problems(&data);
        let shown: Vec<&str> = known.iter().take(20).map(String::as_str).collect();
        Error::argument(
            "problem",
            problem,
            format!(
                "no seat of wave {} attempted it; its problems are: {}{}",
                data.wave.id,
                shown.join(", "),
                if known.len() > shown.len() {
                    format!(" (and {} more)", known.len() - shown.len())
                } else {
                    String::new()
                }
            ),
        )
    })
}

/// A sample as a document (kind `problem-sample`).
pub fn sample_document(s: &Sample) -> Document {
    Document::new("problem-sample", sample::sample_table(s), s)
}
