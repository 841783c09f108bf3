//! What a caller asks of a document besides its waves and seats: a price table to fill costs
//! from ([`Prices`]) and intervals ([`Ci`]), each checked as the command line checks its flags;
//! and the checks every document makes of the waves and seats it is given.

use crate::error::{Error, Hint, Result};
use crate::ledger::Ledger;
use crate::model::{SeatData, WaveData};
use crate::prices::{Costs, Pricing};
use crate::registry;
use crate::stats::bootstrap::Settings;

/// The price table a listing fills costs from (`--prices NAME@VERSION`), and whether it prices
/// every attempt (`--reprice`) rather than only those without a cost.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Prices {
    pub table: Option<String>,
    pub reprice: bool,
}

impl Prices {
    /// Prices `data` as asked; `None` when no table is named. Repricing with no table to
    /// price from is refused (the command line's parser refuses `--reprice` without
    /// `--prices`; a library caller gets the same answer rather than a silent no-op).
    pub fn apply(&self, ledger: &Ledger, data: &mut WaveData) -> Result<Option<Pricing>> {
        if self.reprice && self.table.is_none() {
            return Err(Error::switch(
                "reprice",
                "prices every attempt from a price table, and none is named",
            )
            .hinted(Hint::AlsoGive("prices")));
        }
        let costs = if self.reprice {
            Costs::Reprice
        } else {
            Costs::Fill
        };
        self.table
            .as_deref()
            .map(|spec| registry::price(ledger, spec, costs, data))
            .transpose()
    }
}

/// The intervals asked for: `--ci [LEVEL]`, `--resamples N`, `--seed S`, each `None` when not
/// given.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Ci {
    /// The confidence level in percent (`--ci` alone: 95).
    pub level: Option<f64>,
    pub resamples: Option<u32>,
    pub seed: Option<u64>,
}

impl Ci {
    /// The interval settings asked for, checked: `None` when no interval is asked for (no
    /// level, unless `always`: `versus` always draws its one).
    pub fn settings(self, always: bool) -> Result<Option<Settings>> {
        let defaults = Settings::default();
        let level = match (self.level, always) {
            (Some(level), _) => level,
            (None, true) => defaults.level * 100.0,
            (None, false) => {
                if let Some((name, value)) = self
                    .resamples
                    .map(|r| ("resamples", r.to_string()))
                    .or(self.seed.map(|s| ("seed", s.to_string())))
                {
                    return Err(Error::argument(
                        name,
                        value,
                        "sets how intervals are drawn, and none is asked for",
                    )
                    .hinted(Hint::AlsoGive("ci")));
                }
                return Ok(None);
            }
        };
        if !(level > 50.0 && level < 100.0) {
            return Err(Error::argument(
                "ci",
                level,
                "give the confidence level in percent, above 50 and below 100 (e.g. 95)",
            ));
        }
        let resamples = self.resamples.unwrap_or(defaults.resamples);
        if !(100..=1_000_000).contains(&resamples) {
            return Err(Error::argument(
                "resamples",
                resamples,
                "give between 100 and 1000000 resamples (default 2000)",
            ));
        }
        Ok(Some(Settings {
            level: level / 100.0,
            resamples,
            seed: self.seed.unwrap_or(defaults.seed),
            method: defaults.method,
        }))
    }
}

/// A wave the caller named, loaded: known (else the error names the known ones).
pub(super) fn named(ledger: &Ledger, wave: &str) -> Result<WaveData> {
    ledger.load_wave_check(wave)?;
    ledger.load_wave(wave)
}

/// The seat `id` of a wave, else an error naming its seats.
pub(super) fn seat<'a>(data: &'a WaveData, id: &str) -> Result<&'a SeatData> {
    data.seats.iter().find(|s| s.seat.id == id).ok_or_else(|| {
        Error::Usage(format!(
            "wave {} has no seat {id:?}; its seats are: {}",
            data.wave.id,
            data.seats
                .iter()
                .map(|s| s.seat.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))
    })
}

/// Refuses a seat compared with itself.
pub(super) fn two_seats(a: &str, b: &str) -> Result<()> {
    if a == b {
        return Err(Error::Usage(format!(
            "seat {a} versus itself: name two different seats"
        )));
    }
    Ok(())
}
