//! A wave scored under a rubric straight from the ledger, its attempts streamed into each
//! seat's running totals and never held: what `rescore` compares wave by wave and what
//! `verify --ledger` holds every stored score to. It gives the same scores as
//! [`crate::rubric::score_wave`] over the wave loaded whole.

use crate::error::Result;
use crate::ledger::Ledger;
use crate::rubric::{Rubric, Scorer, WaveScores};

/// One wave's scores under `rubric`, its attempts streamed from the ledger (twice when the
/// rubric needs the wave's medians first).
pub fn streamed(ledger: &Ledger, rubric: &Rubric, wave: &str) -> Result<WaveScores> {
    let conditions = ledger.wave_conditions(wave)?;
    let mut scorer = Scorer::new(rubric, &conditions);
    let fields = scorer.fields();
    if scorer.needs_medians_first() {
        let first = ledger.fold_wave(wave, fields, |_| scorer.tally(), |t, a| scorer.add(t, a))?;
        scorer.set_medians(first.iter().map(|(_, t)| t));
    }
    let seats = ledger.fold_wave(wave, fields, |_| scorer.tally(), |t, a| scorer.add(t, a))?;
    Ok(scorer.score(seats))
}
