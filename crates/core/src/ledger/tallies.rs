//! Seat tallies: each seat's totals, kept beside it since it was ingested (schema.sql,
//! migration 6; the text in `formats::tally`).
//!
//! A rescore under rubrics that read nothing of an attempt but its figures needs, of each seat,
//! only the totals its attempts add up to; the attempts are append-only, so the totals taken at
//! ingest never go stale. Reading them is one row a seat instead of every attempt: on
//! PostgreSQL, where every attempt read is a row sent to the client, that is the difference
//! between reading the history and reading a thousandth of it. Whoever reads them falls back to
//! the attempts for any seat that has none in the latest format (a seat ingested before
//! tallies were kept), so a tally is only ever a shortcut to what the attempts say; `verify
//! --ledger` checks that it is.

use std::collections::HashMap;

use super::Ledger;
use super::sql::{Value, values};
use super::waves::seat_at;
use crate::error::Result;
use crate::formats::tally;
use crate::model::{Known, Seat, SeatTotals};

/// Each wave's seats, in ledger order, with the text of their tally in the latest seat tally
/// format (`None`: none stored in it).
pub type SeatTallies = Vec<Vec<(Seat, Option<String>)>>;

/// How many waves' seats one query reads at most (each wave is a parameter of it).
const WAVES_A_QUERY: usize = 500;

impl Ledger {
    /// The seats of each wave of `slugs` (in that order), each in ledger order as
    /// `Ledger::fold_waves` gives them, with the tally stored for it in the latest seat tally
    /// format, as text (`formats::tally::read` reads it). A seat without one has `None`: its
    /// attempts are the only source of its figures.
    pub fn seat_tallies(&self, slugs: &[String]) -> Result<SeatTallies> {
        self.seat_tallies_in(slugs, tally::LATEST)
    }

    /// As [`Ledger::seat_tallies`], with each seat's tally in seat tally format `format`: a
    /// ledger keeps the tallies of older formats beside the latest, and `verify --ledger`
    /// checks each.
    pub(crate) fn seat_tallies_in(&self, slugs: &[String], format: u32) -> Result<SeatTallies> {
        let rowids: Vec<i64> = slugs
            .iter()
            .map(|s| self.wave_rowid(s))
            .collect::<Result<_>>()?;
        // Each wave's seats, by wave row id: the waves asked for a few hundred to a query.
        let mut of_wave: HashMap<i64, Vec<(Seat, Option<String>)>> = HashMap::new();
        self.read(|sql| {
            let mut distinct = rowids.clone();
            distinct.sort_unstable();
            distinct.dedup();
            for some in distinct.chunks(WAVES_A_QUERY) {
                let slots: Vec<String> = (2..some.len() + 2).map(|i| format!("?{i}")).collect();
                let mut params = vec![Value::from(format)];
                params.extend(some.iter().map(|&id| Value::from(id)));
                let rows = sql.rows(
                    &format!(
                        "SELECT s.wave_id, s.slug, s.model, s.provider, s.harness, s.config,
                            (SELECT name FROM seat_display_name d WHERE d.seat_id = s.id),
                            t.tally
                         FROM seat s LEFT JOIN seat_tally t ON t.seat_id = s.id AND t.format = ?1
                         WHERE s.wave_id IN ({}) ORDER BY s.wave_id, s.slug",
                        slots.join(", ")
                    ),
                    &params,
                    |r| Ok((r.get::<i64>(0)?, seat_at(r, 1)?, r.get(7)?)),
                )?;
                for (wave, seat, text) in rows {
                    of_wave.entry(wave).or_default().push((seat, text));
                }
            }
            Ok(())
        })?;
        Ok(rowids
            .iter()
            .map(|id| of_wave.get(id).cloned().unwrap_or_default())
            .collect())
    }

    /// Keeps the tallies of seats of the wave `wave` that have none in the latest format
    /// (`tallies`: each seat's id and its tally's text, written by `formats::tally::write`
    /// from the seat's attempts as the ledger gives them back), in one transaction. A seat that
    /// has one already keeps it: tallies, like the attempts they come from, are never changed.
    /// Returns how many were kept.
    pub(crate) fn keep_seat_tallies(
        &self,
        wave: &str,
        tallies: &[(String, String)],
    ) -> Result<usize> {
        self.write(|sql| {
            let mut kept = 0;
            for (seat, text) in tallies {
                kept += sql.execute(
                    "INSERT INTO seat_tally(seat_id, format, tally)
                     SELECT s.id, ?3, ?4 FROM seat s JOIN wave w ON w.id = s.wave_id
                     WHERE w.slug = ?1 AND s.slug = ?2
                     ON CONFLICT DO NOTHING",
                    &values![wave, seat, tally::LATEST, text],
                )?;
            }
            Ok(kept)
        })
    }
}

/// A seat's totals from the text of its tally in the latest format, exactly as
/// `formats::tally::read` reads them (`None` where it refuses the text), in a twentieth of the
/// work: a rescore reads one a seat. The text that format's writer gives, which is the only
/// text it reads, is read in place, each number checked to be written the one way the writer
/// writes it (a whole number without leading zeros; a measured one as `json::number` writes
/// it); then the text is that of the totals read, which `tally::read` would read to the same
/// values. Any other text goes to `tally::read` itself, for its verdict.
pub(crate) fn read_tally(text: &str) -> Option<SeatTotals> {
    read_written(text.as_bytes()).or_else(|| tally::read(tally::LATEST, text).ok())
}

/// [`read_tally`]'s reading of the text the latest format's writer gives, and only of it.
fn read_written(text: &[u8]) -> Option<SeatTotals> {
    let c = &mut Written { rest: text };
    let totals = SeatTotals {
        attempts: c.key(b"{\"attempts\":")?.whole()?,
        correct: c.key(b",\"correct\":")?.whole()?,
        problems: c.key(b",\"problems\":")?.whole()?,
        declared: c.key(b",\"declared\":")?.whole()?,
        canaries_passed: c.key(b",\"canaries_passed\":")?.whole()?,
        outcome_sum: c.key(b",\"outcome_sum\":")?.measured()?,
        input_tokens: c.key(b",\"input_tokens\":")?.known(Written::whole)?,
        output_tokens: c.key(b",\"output_tokens\":")?.known(Written::whole)?,
        cache_read: c.key(b",\"cache_read\":")?.known(Written::whole)?,
        cache_write: c.key(b",\"cache_write\":")?.known(Written::whole)?,
        tokens_total: c.key(b",\"tokens_total\":")?.known(Written::whole)?,
        new_input_tokens: c.key(b",\"new_input_tokens\":")?.known(Written::whole)?,
        wall_s: c.key(b",\"wall_s\":")?.known(Written::measured)?,
        cost_usd: c.key(b",\"cost_usd\":")?.known(Written::measured)?,
        steps: c.key(b",\"steps\":")?.known(Written::whole)?,
        errors: c.key(b",\"errors\":")?.known(Written::whole)?,
    };
    (c.key(b"}")?.rest.is_empty()).then_some(totals)
}

/// The rest of a tally's text, read from the front.
struct Written<'t> {
    rest: &'t [u8],
}

impl<'t> Written<'t> {
    /// Skips `bytes`, which must come next.
    fn key(&mut self, bytes: &[u8]) -> Option<&mut Self> {
        self.rest = self.rest.strip_prefix(bytes)?;
        Some(self)
    }

    /// `[sum, known]`, the sum read by `sum`.
    fn known<T>(&mut self, sum: impl Fn(&mut Self) -> Option<T>) -> Option<Known<T>> {
        let sum = sum(self.key(b"[")?)?;
        let known = self.key(b",")?.whole()?;
        self.key(b"]")?;
        Some(Known { sum, known })
    }

    /// A whole number as `u64::to_string` writes it: digits, no leading zero but in `0`.
    fn whole(&mut self) -> Option<u64> {
        let digits = self.rest.iter().take_while(|b| b.is_ascii_digit()).count();
        let (number, rest) = self.rest.split_at(digits);
        if number.is_empty() || (number[0] == b'0' && number.len() > 1) {
            return None;
        }
        let mut n: u64 = 0;
        for &d in number {
            n = n.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
        }
        self.rest = rest;
        Some(n)
    }

    /// A measured number as `json::number` writes it: finite, and its text the one that
    /// function gives for the value its text reads to (which is the value, read back).
    fn measured(&mut self) -> Option<f64> {
        let end = self
            .rest
            .iter()
            .position(|&b| matches!(b, b',' | b']' | b'}'))?;
        let (number, rest) = self.rest.split_at(end);
        let text = std::str::from_utf8(number).ok()?;
        let x: f64 = text.parse().ok()?;
        if !x.is_finite() {
            return None;
        }
        let mut canonical = String::with_capacity(32);
        super::scores::push_number(&mut canonical, x);
        self.rest = rest;
        (canonical == text).then_some(x)
    }
}

#[cfg(test)]
mod tests {
    use crate::figures::{Basis, FigureTally, tallied_field_sets};
    use crate::formats::tally;
    use crate::ledger::Ledger;
    use crate::model::{Accounting, Attempt, Seat, SeatData, SuiteProblems, Wave, WaveData};
    use crate::model::{Known, SeatTotals};

    fn wave(id: &str, include_cache_reads: bool) -> WaveData {
        let attempt = |p: usize, trial: u32| Attempt {
            problem: format!("p{p}"),
            trial,
            correct: (p + trial as usize).is_multiple_of(3),
            // A -0.0 outcome reads back from the ledger as 0.0: the tally must be of that.
            outcome: match p % 4 {
                0 => None,
                1 => Some(-0.0),
                _ => Some(p as f64 / 7.0),
            },
            input_tokens: (p != 5).then_some(1000 + p as u64),
            output_tokens: Some(10 * p as u64),
            input_tokens_cache_read: p.is_multiple_of(2).then_some(700),
            input_tokens_cache_write: (p == 3).then_some(5),
            wall_s: (p != 2).then_some(0.1 * p as f64 + 0.3),
            cost_usd: Some(0.01 * trial as f64),
            steps: Some(p as u32),
            errors: (p == 4).then_some(2),
            ..Attempt::empty()
        };
        let seat = |s: usize, attempts: Vec<Attempt>| SeatData {
            seat: Seat {
                id: format!("seat{s}"),
                model: "m".into(),
                provider: "p".into(),
                harness: "h".into(),
                config: None,
                display_name: None,
            },
            attempts,
        };
        WaveData {
            wave: Wave {
                id: id.into(),
                suite: "s".into(),
                started_at: "2026-01-01T00:00:00Z".into(),
                notes: None,
                suite_problems: Some(SuiteProblems::Ids(vec![
                    "p0".into(),
                    "p1".into(),
                    "p9".into(),
                ])),
                load: Default::default(),
                accounting: Accounting {
                    input_tokens_include_cache_reads: include_cache_reads,
                    price_source: None,
                },
                budget: Default::default(),
                provenance: Default::default(),
                supersedes: None,
                canary_problems: vec!["p1".into(), "p2".into()],
            },
            seats: vec![
                seat(
                    0,
                    (0..8)
                        .flat_map(|p| (1..=2).map(move |t| attempt(p, t)))
                        .collect(),
                ),
                // One attempt, outcome -0.0.
                seat(1, vec![attempt(1, 1)]),
                seat(2, Vec::new()),
            ],
        }
    }

    #[test]
    fn a_stored_tally_gives_the_figures_of_the_attempts_read_back_with_any_fields() {
        let mut l = Ledger::in_memory().unwrap();
        let waves = [wave("a", false), wave("b", true)];
        l.add_waves(&waves, "2026-01-02T00:00:00Z").unwrap();
        let slugs = vec!["a".to_string(), "b".to_string()];
        let stored = l.seat_tallies(&slugs).unwrap();
        for (slug, seats) in slugs.iter().zip(&stored) {
            assert_eq!(seats.len(), 3);
            let conditions = l.wave_conditions(slug).unwrap();
            let basis = Basis::of(&conditions);
            let mut derived = 0;
            for f in tallied_field_sets() {
                let read = l
                    .fold_wave(slug, f, |_| FigureTally::new(), |t, a| t.add(&basis, a))
                    .unwrap();
                for ((seat, want), (stored_seat, text)) in read.iter().zip(seats) {
                    assert_eq!(seat, stored_seat);
                    let totals = tally::read(tally::LATEST, text.as_deref().unwrap()).unwrap();
                    if let Some(got) = FigureTally::from_totals(&totals, f) {
                        derived += 1;
                        // Debug tells -0.0 from 0.0: the bits are compared.
                        assert_eq!(
                            format!("{:?}", got.totals()),
                            format!("{:?}", want.totals()),
                            "wave {slug}, {}, {f:?}",
                            seat.id
                        );
                    }
                }
            }
            assert!(derived > 900, "{derived}");
        }
    }

    fn some_totals(n: u64, outcome_sum: f64, wall_s: f64, cost_usd: f64) -> SeatTotals {
        let k = |sum: u64| Known {
            sum,
            known: n % 1000,
        };
        SeatTotals {
            attempts: n,
            correct: n / 2,
            problems: n / 3,
            declared: 0,
            canaries_passed: n % 2,
            outcome_sum,
            input_tokens: k(n.wrapping_mul(0x9e37_79b9_7f4a_7c15)),
            output_tokens: k(u64::MAX - n),
            cache_read: k(n % 10),
            cache_write: k(0),
            tokens_total: k(n << 3),
            new_input_tokens: k(n + 1),
            wall_s: Known {
                sum: wall_s,
                known: n,
            },
            cost_usd: Known {
                sum: cost_usd,
                known: 1,
            },
            steps: k(7),
            errors: k(n / 7),
        }
    }

    /// The tally read in place is the one `tally::read` reads, to the bit, for the text the
    /// writer gives (and is read in place then, not handed on); any other text is refused or
    /// read as `tally::read` says.
    #[test]
    fn a_tally_read_in_place_is_the_one_tally_read_reads() {
        let numbers = [
            0.0,
            -0.0,
            0.1 + 0.2,
            918.2099999999998,
            1e-7,
            1.5e-6,
            1e16,
            1.25e300,
            f64::MIN_POSITIVE,
            -3.5,
        ];
        let bits = |t: &SeatTotals| format!("{t:?} {}", t.outcome_sum.to_bits());
        for (i, &a) in numbers.iter().enumerate() {
            for &b in &numbers {
                let t = some_totals(i as u64 * 977 + 3, a, b, numbers[(i + 3) % numbers.len()]);
                let text = tally::write(&t);
                let fast = super::read_written(text.as_bytes()).expect("read in place");
                assert_eq!(bits(&fast), bits(&t), "{text}");
                assert_eq!(
                    bits(&super::read_tally(&text).unwrap()),
                    bits(&tally::read(tally::LATEST, &text).unwrap())
                );
            }
        }
        let text = tally::write(&some_totals(12, 6.300000000000001, 0.5, 1e-7));
        let mut others = vec![
            text.replace("\"correct\":6", "\"correct\":06"),
            text.replace("6.300000000000001", "6.3000000000000010"),
            text.replace("6.300000000000001", "+6.300000000000001"),
            text.replace("1e-7", "1E-7"),
            text.replace("1e-7", "0.0000001"),
            text.replace("0.5", "5e-1"),
            text.replace("[7,", "[7.0,"),
            text.replace("}", " }"),
            format!("{text} "),
            text.replace("\"errors\"", "\"Errors\""),
            text[..text.len() - 1].to_string(),
            tally::write_in(1, &some_totals(12, 1.0, 2.0, 3.0)).unwrap(),
            String::new(),
        ];
        others.push(text.replace(
            &format!(
                "\"input_tokens\":[{}",
                some_totals(12, 0.0, 0.0, 0.0).input_tokens.sum
            ),
            "\"input_tokens\":[18446744073709551616",
        ));
        for other in &others {
            assert_ne!(other, &text);
            assert_eq!(super::read_written(other.as_bytes()), None, "{other}");
            assert_eq!(
                super::read_tally(other),
                tally::read(tally::LATEST, other).ok(),
                "{other}"
            );
        }
    }
}
