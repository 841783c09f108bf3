//! Token counts summed over the usage records of one attempt, as importers of harness logs find
//! them: one record per model call (HAL) or per model and component (tau2-bench). A count is
//! known when at least one record states it — a record that does not mention cache writes had
//! none to report — and unknown when none does; absent is never made zero. Each count is checked
//! as a result line's is: a whole number, no more than a trillion, the sum included.

use serde_json::Value;

use super::json::{Rec, describe};
use crate::error::{Error, Location, Result};
use crate::import::results::MAX_COUNT;

/// Tokens of one attempt, in benchledger's names (`Attempt::input_tokens`, ...).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tokens {
    pub input: Option<u64>,
    pub output: Option<u64>,
    pub cache_read: Option<u64>,
    pub cache_write: Option<u64>,
}

impl Tokens {
    /// Whether no count is known.
    pub fn is_empty(&self) -> bool {
        *self == Tokens::default()
    }

    /// Adds one more record's counts; a sum past a trillion is an error at `at`.
    pub fn add(&mut self, more: Tokens, at: &Location) -> Result<()> {
        for (name, sum, n) in [
            ("input tokens", &mut self.input, more.input),
            ("output tokens", &mut self.output, more.output),
            ("cached reads", &mut self.cache_read, more.cache_read),
            ("cache writes", &mut self.cache_write, more.cache_write),
        ] {
            let Some(n) = n else { continue };
            let total = sum.unwrap_or(0).saturating_add(n);
            if total > MAX_COUNT {
                return Err(Error::input(
                    at.clone(),
                    format!(
                        "the attempt's {name} add up to more than 1,000,000,000,000 here; \
                         check the usage records"
                    ),
                ));
            }
            *sum = Some(total);
        }
        Ok(())
    }
}

/// A token count at `field` of `r` (a dotted path for a nested one, `usage.prompt_tokens`),
/// given its value: `None` when absent or `null`.
pub fn count(r: &Rec<'_>, field: &str, v: Option<&Value>) -> Result<Option<u64>> {
    match v.filter(|v| !v.is_null()) {
        None => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) if n <= MAX_COUNT => Ok(Some(n)),
            Some(_) => Err(r.bad(field, "more than 1,000,000,000,000 tokens in one record")),
            None => Err(r.bad(
                field,
                format!(
                    "expected a token count (a whole number, 0 or more), got {}",
                    describe(v)
                ),
            )),
        },
    }
}

/// The sum of the counts given, `None` when none is.
pub fn sum(counts: &[Option<u64>]) -> Option<u64> {
    counts
        .iter()
        .flatten()
        .copied()
        .reduce(|a, b| a.saturating_add(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn a_count_is_known_once_a_record_states_it() {
        let at = Location::file(Path::new("f.json"));
        let mut t = Tokens::default();
        assert!(t.is_empty());
        t.add(
            Tokens {
                input: Some(10),
                output: Some(2),
                ..Tokens::default()
            },
            &at,
        )
        .unwrap();
        t.add(
            Tokens {
                input: Some(5),
                cache_read: Some(3),
                ..Tokens::default()
            },
            &at,
        )
        .unwrap();
        assert_eq!(
            t,
            Tokens {
                input: Some(15),
                output: Some(2),
                cache_read: Some(3),
                cache_write: None
            }
        );
        let past = Tokens {
            input: Some(MAX_COUNT),
            ..Tokens::default()
        };
        assert!(
            t.add(past, &at)
                .unwrap_err()
                .to_string()
                .contains("input tokens add up to more than 1,000,000,000,000")
        );
        assert_eq!(sum(&[None, Some(2), Some(3)]), Some(5));
        assert_eq!(sum(&[None, None]), None);
    }

    #[test]
    fn counts_are_whole_numbers_named_by_their_field() {
        let v = serde_json::json!({"u": {"n": 2.5}});
        let r = Rec::new(Path::new("f.json"), "call 1", &v).unwrap();
        assert_eq!(count(&r, "u.m", None).unwrap(), None);
        assert_eq!(count(&r, "u.m", Some(&Value::Null)).unwrap(), None);
        assert_eq!(count(&r, "u.m", Some(&Value::from(7))).unwrap(), Some(7));
        assert_eq!(
            count(&r, "u.n", v.pointer("/u/n")).unwrap_err().to_string(),
            "f.json: call 1: field `u.n`: expected a token count (a whole number, 0 or more), \
             got 2.5"
        );
        assert!(count(&r, "u.n", Some(&Value::from(MAX_COUNT + 1))).is_err());
    }
}
