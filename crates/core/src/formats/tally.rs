//! A seat's totals as the ledger keeps them beside the seat (the `seat_tally` table), so that
//! a rescore under a rubric that reads nothing of an attempt but its figures reads one row a
//! seat instead of every attempt. Written in canonical JSON ([`super::json`]), versioned like
//! the hashed formats: a build reads only the versions it knows, and a tally in another version
//! is left unused (the attempts are read instead). docs/formats.md, "Seat tally", lists the
//! fields.
//!
//! Version 1 kept cached reads and cache writes as bare sums, an attempt that left them out
//! counted as having none; version 2 keeps them as `[sum, known]` like every other count, so a
//! format that cannot record them shows them unknown rather than 0. A ledger keeps the
//! version-1 rows it has beside the version-2 rows written later (neither is changed); only the
//! latest is read for its totals, and `verify --ledger` checks every version it holds.
//!
//! Not hashed: the totals are derived from the seat's attempts, which the wave's content hash
//! covers, and `verify --ledger` checks each stored tally against a tally of the attempts.

use super::json::{self, Json};
use super::read;
use super::{Decoder, FormatError};
use crate::model::{Known, SeatTotals};

/// The version this build writes.
pub const LATEST: u32 = 2;

/// The versions this build reads and checks, oldest first.
pub(crate) const VERSIONS: [u32; 2] = [1, 2];

/// The fields of every version, in their order.
const FIELDS: [&str; 16] = [
    "attempts",
    "correct",
    "problems",
    "declared",
    "canaries_passed",
    "outcome_sum",
    "input_tokens",
    "output_tokens",
    "cache_read",
    "cache_write",
    "tokens_total",
    "new_input_tokens",
    "wall_s",
    "cost_usd",
    "steps",
    "errors",
];

/// The totals in the latest version.
pub fn write(t: &SeatTotals) -> String {
    write_in(LATEST, t).expect("the latest version is written")
}

/// The totals in version `format` (`None`: a version this build does not know). Version 1
/// writes the sums of cached reads and cache writes alone.
pub(crate) fn write_in(format: u32, t: &SeatTotals) -> Option<String> {
    if !VERSIONS.contains(&format) {
        return None;
    }
    Some(json::to_string(|j| {
        let known = |j: &mut Json<Vec<u8>>, key: &str, k: Known<u64>| {
            j.key(key).begin_array().u64(k.sum).u64(k.known).end_array();
        };
        let known_f = |j: &mut Json<Vec<u8>>, key: &str, k: Known<f64>| {
            j.key(key).begin_array().f64(k.sum).u64(k.known).end_array();
        };
        j.begin_object();
        j.key(FIELDS[0]).u64(t.attempts);
        j.key(FIELDS[1]).u64(t.correct);
        j.key(FIELDS[2]).u64(t.problems);
        j.key(FIELDS[3]).u64(t.declared);
        j.key(FIELDS[4]).u64(t.canaries_passed);
        j.key(FIELDS[5]).f64(t.outcome_sum);
        known(j, FIELDS[6], t.input_tokens);
        known(j, FIELDS[7], t.output_tokens);
        if format == 1 {
            j.key(FIELDS[8]).u64(t.cache_read.sum);
            j.key(FIELDS[9]).u64(t.cache_write.sum);
        } else {
            known(j, FIELDS[8], t.cache_read);
            known(j, FIELDS[9], t.cache_write);
        }
        known(j, FIELDS[10], t.tokens_total);
        known(j, FIELDS[11], t.new_input_tokens);
        known_f(j, FIELDS[12], t.wall_s);
        known_f(j, FIELDS[13], t.cost_usd);
        known(j, FIELDS[14], t.steps);
        known(j, FIELDS[15], t.errors);
        j.end_object();
    }))
}

/// Reads totals written in `format`. Only the text `write_in` gives for the totals it holds
/// is read: any other text (another key order, a number written another way, a value that is
/// not finite) is malformed. Version 1 says nothing of which attempts recorded their cached
/// reads and cache writes: its sums are read as covering every attempt, as it took them.
pub fn read(format: u32, text: &str) -> Result<SeatTotals, FormatError> {
    if !VERSIONS.contains(&format) {
        return Err(FormatError::unknown("seat tally", format, LATEST));
    }
    let v = read::parse(text)?;
    let d = Decoder::root(&v);
    let keys: Vec<&str> = match &v {
        read::Val::Obj(fields) => fields.iter().map(|(k, _)| k.as_str()).collect(),
        _ => Vec::new(),
    };
    if keys != FIELDS {
        return Err(FormatError::Malformed(format!(
            "a seat tally of format {format} holds the keys {} in that order; this one holds {}",
            FIELDS.join(", "),
            if keys.is_empty() {
                "none".to_string()
            } else {
                keys.join(", ")
            }
        )));
    }
    let known = |name: &str| -> Result<Known<u64>, FormatError> {
        match d.field(name)?.array()?.as_slice() {
            [sum, known] => Ok(Known {
                sum: sum.u64()?,
                known: known.u64()?,
            }),
            _ => Err(FormatError::Malformed(format!(
                "{name}: expected [sum, attempts known]"
            ))),
        }
    };
    let known_f = |name: &str| -> Result<Known<f64>, FormatError> {
        match d.field(name)?.array()?.as_slice() {
            [sum, known] => Ok(Known {
                sum: sum.f64()?,
                known: known.u64()?,
            }),
            _ => Err(FormatError::Malformed(format!(
                "{name}: expected [sum, attempts known]"
            ))),
        }
    };
    let attempts = d.field(FIELDS[0])?.u64()?;
    let cache = |name: &str| -> Result<Known<u64>, FormatError> {
        if format == 1 {
            Ok(Known {
                sum: d.field(name)?.u64()?,
                known: attempts,
            })
        } else {
            known(name)
        }
    };
    let t = SeatTotals {
        attempts,
        correct: d.field(FIELDS[1])?.u64()?,
        problems: d.field(FIELDS[2])?.u64()?,
        declared: d.field(FIELDS[3])?.u64()?,
        canaries_passed: d.field(FIELDS[4])?.u64()?,
        outcome_sum: d.field(FIELDS[5])?.f64()?,
        input_tokens: known(FIELDS[6])?,
        output_tokens: known(FIELDS[7])?,
        cache_read: cache(FIELDS[8])?,
        cache_write: cache(FIELDS[9])?,
        tokens_total: known(FIELDS[10])?,
        new_input_tokens: known(FIELDS[11])?,
        wall_s: known_f(FIELDS[12])?,
        cost_usd: known_f(FIELDS[13])?,
        steps: known(FIELDS[14])?,
        errors: known(FIELDS[15])?,
    };
    if write_in(format, &t).as_deref() != Some(text) {
        return Err(FormatError::Malformed(
            "a seat tally not written the one way its format writes it".into(),
        ));
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn totals() -> SeatTotals {
        SeatTotals {
            attempts: 12,
            correct: 5,
            problems: 10,
            declared: 9,
            canaries_passed: 1,
            outcome_sum: 6.300000000000001,
            input_tokens: Known {
                sum: u64::MAX,
                known: 11,
            },
            output_tokens: Known { sum: 0, known: 0 },
            cache_read: Known { sum: 17, known: 4 },
            cache_write: Known { sum: 0, known: 0 },
            tokens_total: Known { sum: 3, known: 2 },
            new_input_tokens: Known { sum: 4, known: 5 },
            wall_s: Known {
                sum: 0.1 + 0.2,
                known: 12,
            },
            cost_usd: Known {
                sum: 1e-7,
                known: 3,
            },
            steps: Known { sum: 40, known: 12 },
            errors: Known { sum: 2, known: 12 },
        }
    }

    #[test]
    fn format_2_is_written_as_documented_and_reads_back_to_the_bit() {
        let t = totals();
        let text = write(&t);
        assert_eq!(
            text,
            r#"{"attempts":12,"correct":5,"problems":10,"declared":9,"canaries_passed":1,"outcome_sum":6.300000000000001,"input_tokens":[18446744073709551615,11],"output_tokens":[0,0],"cache_read":[17,4],"cache_write":[0,0],"tokens_total":[3,2],"new_input_tokens":[4,5],"wall_s":[0.30000000000000004,12],"cost_usd":[1e-7,3],"steps":[40,12],"errors":[2,12]}"#
        );
        assert_eq!(read(2, &text), Ok(t));
        // A seat without attempts sums its outcomes to -0.0, which is kept as such.
        let empty = SeatTotals {
            outcome_sum: -0.0,
            ..t
        };
        let back = read(2, &write(&empty)).unwrap();
        assert!(back.outcome_sum == 0.0 && back.outcome_sum.is_sign_negative());
    }

    #[test]
    fn format_1_keeps_the_cache_sums_alone_and_reads_them_as_covering_every_attempt() {
        let t = totals();
        let text = write_in(1, &t).unwrap();
        assert_eq!(
            text,
            r#"{"attempts":12,"correct":5,"problems":10,"declared":9,"canaries_passed":1,"outcome_sum":6.300000000000001,"input_tokens":[18446744073709551615,11],"output_tokens":[0,0],"cache_read":17,"cache_write":0,"tokens_total":[3,2],"new_input_tokens":[4,5],"wall_s":[0.30000000000000004,12],"cost_usd":[1e-7,3],"steps":[40,12],"errors":[2,12]}"#
        );
        let back = read(1, &text).unwrap();
        assert_eq!(back.cache_read, Known { sum: 17, known: 12 });
        assert_eq!(back.cache_write, Known { sum: 0, known: 12 });
        assert_eq!(
            SeatTotals {
                cache_read: t.cache_read,
                cache_write: t.cache_write,
                ..back
            },
            t
        );
        // Each version's text is malformed as the other's.
        assert!(matches!(read(2, &text), Err(FormatError::Malformed(_))));
        assert!(matches!(
            read(1, &write(&t)),
            Err(FormatError::Malformed(_))
        ));
        assert_eq!(write_in(3, &t), None);
    }

    #[test]
    fn another_text_or_version_is_refused() {
        let text = write(&totals());
        assert!(matches!(
            read(3, &text),
            Err(FormatError::Unknown { version: 3, .. })
        ));
        for bad in [
            text.replace("\"attempts\":12", "\"attempts\":12.0"),
            text.replace(
                "\"correct\":5,\"problems\":10",
                "\"problems\":10,\"correct\":5",
            ),
            text.replace("[3,2]", "[3]"),
            text.replace("[0.30000000000000004,12]", "[0.300000000000000044,12]"),
            text.replace(",\"errors\":[2,12]", ""),
            text.replace("1e-7", "null"),
            text.replace(":12,", ":-12,"),
            text.replace("[17,4]", "17"),
            format!("{text} "),
        ] {
            assert!(
                matches!(read(2, &bad), Err(FormatError::Malformed(_))),
                "{bad}"
            );
        }
    }
}
