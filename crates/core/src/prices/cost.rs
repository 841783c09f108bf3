//! The pricing arithmetic: what an attempt cost under a price table, and a wave's attempts
//! given the costs they lack (or every cost, repriced).
//!
//! An attempt's cost is
//!
//! ```text
//! cost_usd = (new input × input + output × output + cached reads × cache_read
//!             + cache writes × cache_write) / 1,000,000
//! ```
//!
//! added in that order, left to right, then divided, so the same attempt costs the same bits on
//! every machine. The token counts are read as the model defines them ([`Attempt::tokens_total`],
//! [`Attempt::new_input_tokens`]), so that no token is priced twice and none is left out:
//!
//! - **new input** is the input total without its cached reads: `input_tokens − cached reads`
//!   where the wave's input totals include cached reads (`input_tokens_include_cache_reads =
//!   true`), `input_tokens` as it is where they exclude them. A cached read is priced once, at
//!   `cache_read`, under either convention.
//! - **cache writes** are outside `input_tokens` under both conventions (the model adds them to
//!   every total), so they are priced once, at `cache_write`, never at `input` too.
//! - a result that leaves out cached reads or writes had none (the model's convention); a cost
//!   that needs a price the table does not give (cached reads with no `cache_read`) is unknown.
//!
//! Unknown is never zero: an attempt whose input or output tokens are unknown, whose seat's
//! model the table does not price, or whose cost would not be a finite number, has no cost.

use std::collections::BTreeMap;

use super::spec::{ModelPrice, PriceTable};
use crate::model::{Accounting, Attempt, WaveData};

/// Tokens per unit of a price: prices are USD per million tokens.
pub(crate) const TOKENS_PER_PRICE_UNIT: f64 = 1_000_000.0;

/// Why a price table could not price an attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Unpriced {
    /// The table has no row for the seat's model (and provider).
    NoPrice,
    /// The attempt's input or output tokens are unknown.
    TokensUnknown,
    /// The attempt read from a cache and the model's row gives no `cache_read` price.
    NoCacheReadPrice,
    /// The attempt wrote to a cache and the model's row gives no `cache_write` price.
    NoCacheWritePrice,
    /// More cached reads than input tokens, where the input totals include them: the counts
    /// contradict the wave's accounting (ingest refuses such an attempt).
    ReadsExceedInput,
    /// The cost would not be a finite number.
    NotFinite,
}

impl Unpriced {
    /// Every reason, in the order reports list them.
    pub const ALL: [Unpriced; 6] = [
        Unpriced::NoPrice,
        Unpriced::TokensUnknown,
        Unpriced::NoCacheReadPrice,
        Unpriced::NoCacheWritePrice,
        Unpriced::ReadsExceedInput,
        Unpriced::NotFinite,
    ];

    /// The reason's stable key, as JSON names it.
    pub fn key(self) -> &'static str {
        match self {
            Unpriced::NoPrice => "no_price",
            Unpriced::TokensUnknown => "tokens_unknown",
            Unpriced::NoCacheReadPrice => "no_cache_read_price",
            Unpriced::NoCacheWritePrice => "no_cache_write_price",
            Unpriced::ReadsExceedInput => "cache_reads_exceed_input",
            Unpriced::NotFinite => "not_finite",
        }
    }
}

/// What one attempt cost under a model's prices, in USD; why not, when it cannot be known.
pub fn attempt_cost(
    price: &ModelPrice,
    a: &Attempt,
    accounting: &Accounting,
) -> Result<f64, Unpriced> {
    let (Some(input), Some(output)) = (a.input_tokens, a.output_tokens) else {
        return Err(Unpriced::TokensUnknown);
    };
    let reads = a.input_tokens_cache_read.unwrap_or(0);
    let writes = a.input_tokens_cache_write.unwrap_or(0);
    let new_input = if accounting.input_tokens_include_cache_reads {
        input.checked_sub(reads).ok_or(Unpriced::ReadsExceedInput)?
    } else {
        input
    };
    // A price the table leaves out is needed only for tokens there are.
    let per = |tokens: u64, price: Option<f64>, missing: Unpriced| match (tokens, price) {
        (0, _) => Ok(0.0),
        (n, Some(p)) => Ok(n as f64 * p),
        (_, None) => Err(missing),
    };
    let read_usd = per(reads, price.cache_read, Unpriced::NoCacheReadPrice)?;
    let write_usd = per(writes, price.cache_write, Unpriced::NoCacheWritePrice)?;
    let usd =
        (new_input as f64 * price.input + output as f64 * price.output + read_usd + write_usd)
            / TOKENS_PER_PRICE_UNIT;
    if usd.is_finite() {
        Ok(usd)
    } else {
        Err(Unpriced::NotFinite)
    }
}

/// Which costs a price table sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Costs {
    /// Only the costs attempts lack: a recorded cost is kept.
    Fill,
    /// Every cost, recorded or not, so that all of a leaderboard's costs come from one table;
    /// an attempt the table cannot price is left without a cost rather than keep a recorded
    /// one beside the table's.
    Reprice,
}

impl Costs {
    /// The stable word JSON names it by.
    pub fn key(self) -> &'static str {
        match self {
            Costs::Fill => "fill",
            Costs::Reprice => "reprice",
        }
    }
}

/// How a price table priced one seat's attempts.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatPricing {
    pub seat: String,
    pub model: String,
    pub provider: String,
    /// The row that priced the seat's model (its model and provider), if the table has one.
    pub row: Option<(String, Option<String>)>,
    /// Attempts whose cost the table set.
    pub priced: u64,
    /// Attempts that kept their recorded cost ([`Costs::Fill`] only).
    pub recorded: u64,
    /// Attempts left without a cost, by why.
    pub unpriced: BTreeMap<Unpriced, u64>,
}

impl SeatPricing {
    pub(crate) fn unpriced_total(&self) -> u64 {
        self.unpriced.values().sum()
    }
}

/// How a price table priced a wave: which table, which costs, and each seat's counts.
#[derive(Debug, Clone, PartialEq)]
pub struct Pricing {
    pub name: String,
    pub version: u32,
    /// The SHA-256 of the table's registered text.
    pub sha256: String,
    pub date: String,
    pub source: String,
    pub costs: Costs,
    /// In the wave's seat order.
    pub seats: Vec<SeatPricing>,
}

impl Pricing {
    /// `name@version`.
    pub fn id(&self) -> String {
        format!("{}@{}", self.name, self.version)
    }

    pub fn priced(&self) -> u64 {
        self.seats.iter().map(|s| s.priced).sum()
    }

    pub fn recorded(&self) -> u64 {
        self.seats.iter().map(|s| s.recorded).sum()
    }

    pub fn unpriced(&self) -> u64 {
        self.seats.iter().map(SeatPricing::unpriced_total).sum()
    }
}

/// Prices a wave's attempts under a table: with [`Costs::Fill`] the attempts that lack a cost
/// get the table's, with [`Costs::Reprice`] every attempt does (or none, where the table cannot
/// price it). `sha256` is the table's registered hash, which the returned [`Pricing`] names.
pub fn price_wave(table: &PriceTable, sha256: &str, data: &mut WaveData, costs: Costs) -> Pricing {
    let accounting = &data.wave.accounting;
    let mut seats = Vec::with_capacity(data.seats.len());
    for s in &mut data.seats {
        let row = table.lookup(&s.seat.model, &s.seat.provider);
        let mut p = SeatPricing {
            seat: s.seat.id.clone(),
            model: s.seat.model.clone(),
            provider: s.seat.provider.clone(),
            row: row.map(|r| (r.model.clone(), r.provider.clone())),
            priced: 0,
            recorded: 0,
            unpriced: BTreeMap::new(),
        };
        for a in &mut s.attempts {
            if costs == Costs::Fill && a.cost_usd.is_some() {
                p.recorded += 1;
                continue;
            }
            let cost = match row {
                Some(r) => attempt_cost(r, a, accounting),
                None => Err(Unpriced::NoPrice),
            };
            match cost {
                Ok(usd) => {
                    a.cost_usd = Some(usd);
                    p.priced += 1;
                }
                Err(why) => {
                    a.cost_usd = None;
                    *p.unpriced.entry(why).or_insert(0) += 1;
                }
            }
        }
        seats.push(p);
    }
    Pricing {
        name: table.name.clone(),
        version: table.version,
        sha256: sha256.to_string(),
        date: table.date.clone(),
        source: table.source.clone(),
        costs,
        seats,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Wave;
    use crate::model::testing;

    fn price(cache_read: Option<f64>, cache_write: Option<f64>) -> ModelPrice {
        ModelPrice {
            model: "m".into(),
            provider: None,
            input: 2.0,
            output: 10.0,
            cache_read,
            cache_write,
            line: 1,
        }
    }

    fn attempt(input: Option<u64>, output: Option<u64>, read: u64, write: u64) -> Attempt {
        Attempt {
            problem: "p".into(),
            trial: 1,
            correct: true,
            input_tokens: input,
            output_tokens: output,
            input_tokens_cache_read: Some(read),
            input_tokens_cache_write: Some(write),
            ..Attempt::empty()
        }
    }

    fn accounting(include: bool) -> Accounting {
        Accounting {
            input_tokens_include_cache_reads: include,
            price_source: None,
        }
    }

    #[test]
    fn cached_reads_and_writes_are_priced_apart_and_once() {
        // Input $2, output $10, cached reads $0.25, cache writes $2.50 per million tokens.
        let p = price(Some(0.25), Some(2.5));
        // Input totals exclude cached reads: 400,000 new input tokens.
        //   400,000 × 2 + 50,000 × 10 + 300,000 × 0.25 + 100,000 × 2.5
        //   = 800,000 + 500,000 + 75,000 + 250,000 = 1,625,000 → $1.625
        let excl = attempt(Some(400_000), Some(50_000), 300_000, 100_000);
        assert_eq!(attempt_cost(&p, &excl, &accounting(false)), Ok(1.625));
        // The same attempt counted the other way: its 300,000 cached reads are inside an input
        // total of 700,000, and are taken out before the input is priced. The same cost.
        let incl = attempt(Some(700_000), Some(50_000), 300_000, 100_000);
        assert_eq!(attempt_cost(&p, &incl, &accounting(true)), Ok(1.625));
        // Read under the wrong convention, the cached reads would be priced twice: once as
        // input (300,000 × 2 = 600,000 more), once as cached reads.
        assert_eq!(attempt_cost(&p, &incl, &accounting(false)), Ok(2.225));

        // Each cache price acts on its own tokens only: a million cached reads cost $0.25, a
        // million cache writes $2.50, and the two are never swapped.
        let reads_only = attempt(Some(0), Some(0), 1_000_000, 0);
        let writes_only = attempt(Some(0), Some(0), 0, 1_000_000);
        assert_eq!(attempt_cost(&p, &reads_only, &accounting(false)), Ok(0.25));
        assert_eq!(attempt_cost(&p, &writes_only, &accounting(false)), Ok(2.5));
        // Under inclusive accounting, cache writes are still outside the input total.
        let writes_incl = attempt(Some(0), Some(0), 0, 1_000_000);
        assert_eq!(attempt_cost(&p, &writes_incl, &accounting(true)), Ok(2.5));
    }

    #[test]
    fn a_price_the_table_leaves_out_is_needed_only_for_tokens_there_are() {
        let no_cache = price(None, None);
        let plain = attempt(Some(1_000_000), Some(100_000), 0, 0);
        // 1,000,000 × 2 + 100,000 × 10 = 3,000,000 → $3
        assert_eq!(attempt_cost(&no_cache, &plain, &accounting(false)), Ok(3.0));
        // Cache fields left out of a result are none.
        let mut bare = plain.clone();
        (bare.input_tokens_cache_read, bare.input_tokens_cache_write) = (None, None);
        assert_eq!(attempt_cost(&no_cache, &bare, &accounting(true)), Ok(3.0));
        let reads = attempt(Some(1_000_000), Some(100_000), 10, 0);
        let writes = attempt(Some(1_000_000), Some(100_000), 0, 10);
        assert_eq!(
            attempt_cost(&no_cache, &reads, &accounting(false)),
            Err(Unpriced::NoCacheReadPrice)
        );
        assert_eq!(
            attempt_cost(&no_cache, &writes, &accounting(false)),
            Err(Unpriced::NoCacheWritePrice)
        );
    }

    #[test]
    fn unknown_tokens_give_an_unknown_cost_never_zero() {
        let p = price(Some(0.2), Some(2.5));
        for a in [
            attempt(None, Some(1), 0, 0),
            attempt(Some(1), None, 0, 0),
            attempt(None, None, 0, 0),
        ] {
            assert_eq!(
                attempt_cost(&p, &a, &accounting(false)),
                Err(Unpriced::TokensUnknown)
            );
        }
        // Counts that contradict the accounting are not guessed at.
        let a = attempt(Some(10), Some(1), 11, 0);
        assert_eq!(
            attempt_cost(&p, &a, &accounting(true)),
            Err(Unpriced::ReadsExceedInput)
        );
        // A cost beyond any finite number is unknown too.
        let mut huge = price(None, None);
        huge.output = f64::MAX;
        let a = attempt(Some(0), Some(1_000_000), 0, 0);
        assert_eq!(
            attempt_cost(&huge, &a, &accounting(false)),
            Err(Unpriced::NotFinite)
        );
    }

    fn wave(attempts: Vec<Attempt>, model: &str) -> WaveData {
        let mut seat = testing::seat("s", attempts);
        seat.seat.model = model.into();
        let wave = Wave {
            accounting: accounting(false),
            ..testing::wave("w")
        };
        testing::wave_data(wave, vec![seat])
    }

    fn table() -> PriceTable {
        PriceTable {
            name: "t".into(),
            version: 1,
            date: "2026-03-01".into(),
            source: "s".into(),
            description: None,
            models: vec![price(None, None)],
        }
    }

    #[test]
    fn filling_keeps_recorded_costs_and_repricing_replaces_them() {
        let mut recorded = attempt(Some(1_000_000), Some(0), 0, 0);
        recorded.cost_usd = Some(5.0);
        let lacking = attempt(Some(0), Some(1_000_000), 0, 0);
        let unknown = attempt(None, Some(1), 0, 0);
        let mut cached = attempt(Some(0), Some(0), 1, 0);
        cached.cost_usd = Some(0.5);
        let all = vec![recorded, lacking, unknown, cached];

        let mut data = wave(all.clone(), "m");
        let p = price_wave(&table(), "abc", &mut data, Costs::Fill);
        let costs: Vec<Option<f64>> = data.seats[0].attempts.iter().map(|a| a.cost_usd).collect();
        assert_eq!(costs, vec![Some(5.0), Some(10.0), None, Some(0.5)]);
        assert_eq!((p.priced(), p.recorded(), p.unpriced()), (1, 2, 1));
        assert_eq!(p.seats[0].unpriced[&Unpriced::TokensUnknown], 1);
        assert_eq!(p.seats[0].row, Some(("m".into(), None)));

        let mut data = wave(all.clone(), "m");
        let p = price_wave(&table(), "abc", &mut data, Costs::Reprice);
        let costs: Vec<Option<f64>> = data.seats[0].attempts.iter().map(|a| a.cost_usd).collect();
        // The recorded $5 becomes the table's $2; the cached read the table cannot price
        // loses its recorded cost rather than mix two sources.
        assert_eq!(costs, vec![Some(2.0), Some(10.0), None, None]);
        assert_eq!((p.priced(), p.recorded(), p.unpriced()), (2, 0, 2));

        // Repricing twice gives the same bits.
        let mut again = data.clone();
        price_wave(&table(), "abc", &mut again, Costs::Reprice);
        assert_eq!(again, data);

        // A model the table does not price: every cost it would set stays unknown.
        let mut data = wave(all, "other");
        let p = price_wave(&table(), "abc", &mut data, Costs::Fill);
        assert_eq!(p.seats[0].row, None);
        assert_eq!(p.seats[0].unpriced[&Unpriced::NoPrice], 2);
        assert_eq!(p.recorded(), 2);
    }
}
