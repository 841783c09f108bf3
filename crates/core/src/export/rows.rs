//! `export --format csv|jsonl`: the ledger's rows (each attempt, each seat's figures, or each
//! seat's score under a rubric) as text, a wave at a time, so that an export of a long history
//! never holds it whole. The command writes each piece to its output as it comes; the Python
//! package gathers them.

use crate::error::{Error, Hint, Result};
use crate::ledger::Ledger;
use crate::registry;
use crate::report;
use crate::report::export::{ExportFormat, Rows, Value, What};
use crate::report::score::RubricInfo;
use crate::report::withdrawn::Withdrawn;

/// What each wave's rows are made of: its attempts, its seats, or its scores under a rubric.
pub enum Source {
    Attempts,
    Seats,
    Scores(Box<RubricInfo>),
}

impl Source {
    /// What `what` names, with the rubric a scores export needs (a rubric file, or a
    /// registered NAME@VERSION) and only then.
    pub fn of(ledger: &Ledger, what: What, rubric: Option<&str>) -> Result<Source> {
        Ok(match (what, rubric) {
            (What::Scores, Some(spec)) => {
                Source::Scores(Box::new(registry::resolve(ledger, spec)?))
            }
            (What::Scores, None) => {
                return Err(Error::argument(
                    "what",
                    "scores",
                    "the scores of which rubric? Name one (NAME@VERSION, or a rubric file)",
                )
                .hinted(Hint::AlsoGive("rubric")));
            }
            (_, Some(spec)) => {
                return Err(Error::argument(
                    "rubric",
                    spec,
                    "goes with an export of scores only: attempts and seats are the same under \
                     every rubric",
                ));
            }
            (What::Attempts, None) => Source::Attempts,
            (What::Seats, None) => Source::Seats,
        })
    }
}

/// The waves an export covers, in ledger order: the named ones (each checked to be in the
/// ledger, and refused when withdrawn unless `include_withdrawn`), else every wave not
/// withdrawn (every wave, with `include_withdrawn`).
pub fn chosen_waves(
    ledger: &Ledger,
    waves: &[String],
    include_withdrawn: bool,
) -> Result<Vec<String>> {
    let withdrawn = Withdrawn::load(ledger)?;
    if waves.is_empty() {
        return Ok(ledger
            .wave_ids()?
            .into_iter()
            .filter(|w| include_withdrawn || withdrawn.get(w).is_none())
            .collect());
    }
    for w in waves {
        ledger.load_wave_check(w)?;
        withdrawn.check_named(w, include_withdrawn)?;
    }
    Ok(waves.to_vec())
}

/// One wave's rows of an export, in the columns and order `export --what` writes them.
pub fn wave_rows(ledger: &Ledger, source: &Source, wave: &str) -> Result<Rows> {
    let data = ledger.load_wave(wave)?;
    Ok(match source {
        Source::Attempts => report::export::attempts(&data),
        Source::Seats => report::export::from_table(&report::waves::show(&data).0, &[]),
        Source::Scores(info) => {
            let scores = crate::rubric::score_wave(&info.rubric, &data);
            let (table, _) = report::score::leaderboard(&data, info, &scores);
            report::export::from_table(&table, &[("rubric", Value::Text(info.rubric.id()))])
        }
    })
}

/// The text of `export --format csv|jsonl` of the waves `ids` (see [`chosen_waves`]), handed
/// to `emit` a piece at a time: CSV with its header row when `header`. A seats or scores CSV
/// is one piece, under one header over the union of the waves' columns.
pub fn text(
    ledger: &Ledger,
    source: &Source,
    format: ExportFormat,
    ids: &[String],
    header: bool,
    emit: &mut dyn FnMut(&str) -> Result<()>,
) -> Result<()> {
    let mut header = header && format == ExportFormat::Csv;
    if ids.is_empty() && header && matches!(source, Source::Attempts) {
        // The columns of seats and scores come from a wave's listing; with no wave there is
        // no row, and no header to print either.
        let rows = Rows {
            columns: report::export::attempt_columns(),
            kinds: report::export::attempt_kinds(),
            rows: Vec::new(),
        };
        emit(&report::export::to_csv(&rows, true))?;
    }
    if format == ExportFormat::Csv
        && !ids.is_empty()
        && matches!(source, Source::Seats | Source::Scores(_))
    {
        // A seats or scores listing's columns can differ between waves (a wave with canaries
        // has one more): one header over the union of them, each value under its own column.
        let parts = ids
            .iter()
            .map(|id| wave_rows(ledger, source, id))
            .collect::<Result<Vec<_>>>()?;
        return emit(&report::export::to_csv(
            &report::export::concat(parts),
            header,
        ));
    }
    for id in ids {
        let rows = wave_rows(ledger, source, id)?;
        emit(&match format {
            ExportFormat::Csv => report::export::to_csv(&rows, header),
            ExportFormat::Jsonl => report::export::to_jsonl(&rows),
            ExportFormat::Parquet | ExportFormat::Eee | ExportFormat::HfEvalResults => {
                return Err(Error::Usage(
                    "parquet, eee and hf-eval-results are written into a directory, not as text"
                        .into(),
                ));
            }
        })?;
        header = false;
    }
    Ok(())
}
