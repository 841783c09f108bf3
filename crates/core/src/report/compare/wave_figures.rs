//! The seat's absolute figures in each wave, each known or with the reason it is not.
//!
//! Absent is not zero: a sum that covers only some of the attempts is no figure here, so a
//! change that involves it is unknown — never computed from a partial sum.

use crate::figures::{Known, SeatFigures};

/// The absolute figures a change is computed for, by their JSON names.
pub(super) const ALL_FIGURES: &[&str] = &[
    "accuracy",
    "wall_s",
    "tokens_total",
    "new_input_tokens",
    "cost_usd",
    "cost_of_pass_usd",
];

/// A figure of one wave: known, or why not.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Fig {
    Known(f64),
    Unknown(String),
}

impl Fig {
    pub(super) fn value(&self) -> Option<f64> {
        match self {
            Fig::Known(x) => Some(*x),
            Fig::Unknown(_) => None,
        }
    }

    /// A figure in two waves, `from` then `to`: both values, or the first wave where it is
    /// unknown and why.
    pub(super) fn known_pair<'a>(
        a: &'a Fig,
        b: &'a Fig,
        from: &'a str,
        to: &'a str,
    ) -> Result<(f64, f64), (&'a str, &'a str)> {
        match (a, b) {
            (Fig::Known(x), Fig::Known(y)) => Ok((*x, *y)),
            (Fig::Unknown(why), _) => Err((from, why)),
            (_, Fig::Unknown(why)) => Err((to, why)),
        }
    }
}

/// A sum is a usable figure only when it covers every attempt.
fn complete_f64(k: &Known<f64>, attempts: u64, what: &str) -> Fig {
    if attempts == 0 {
        Fig::Unknown("no attempts".into())
    } else if k.known < attempts {
        Fig::Unknown(format!(
            "{what} known for {} of {attempts} attempts",
            k.known
        ))
    } else {
        Fig::Known(k.sum)
    }
}

fn complete_u64(k: &Known<u64>, attempts: u64, what: &str) -> Fig {
    let f = Known {
        sum: k.sum as f64,
        known: k.known,
    };
    complete_f64(&f, attempts, what)
}

/// A token count, exactly, when it covers every attempt.
pub(super) fn complete_tokens(k: &Known<u64>, attempts: u64) -> Option<u64> {
    (attempts > 0 && k.known == attempts).then_some(k.sum)
}

/// The figures of the seat in one wave, each known or with the reason it is not.
pub(super) struct WaveFigs {
    pub(super) accuracy: Fig,
    pub(super) wall_s: Fig,
    pub(super) tokens_total: Fig,
    pub(super) new_input_tokens: Fig,
    pub(super) cost_usd: Fig,
    pub(super) cost_of_pass_usd: Fig,
}

impl WaveFigs {
    pub(super) fn of(f: &SeatFigures) -> WaveFigs {
        let n = f.attempts;
        WaveFigs {
            accuracy: match f.accuracy {
                Some(a) => Fig::Known(a),
                None => Fig::Unknown("no attempts and no declared problems".into()),
            },
            wall_s: complete_f64(&f.wall_s, n, "wall"),
            tokens_total: complete_u64(&f.tokens_total, n, "tokens"),
            new_input_tokens: complete_u64(&f.new_input_tokens, n, "input tokens"),
            cost_usd: complete_f64(&f.cost_usd, n, "cost"),
            cost_of_pass_usd: match f.cost_of_pass_usd {
                Some(c) => Fig::Known(c),
                None if f.correct == 0 => Fig::Unknown("undefined: nothing Correct".into()),
                None => Fig::Unknown(format!(
                    "cost known for {} of {n} attempts",
                    f.cost_usd.known
                )),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_partial_sum_gives_no_figure() {
        let k = Known {
            sum: 10.0,
            known: 3,
        };
        assert_eq!(
            complete_f64(&k, 4, "wall"),
            Fig::Unknown("wall known for 3 of 4 attempts".into())
        );
        assert_eq!(complete_f64(&k, 3, "wall"), Fig::Known(10.0));
        assert_eq!(
            complete_f64(&Known { sum: 0.0, known: 0 }, 0, "wall"),
            Fig::Unknown("no attempts".into())
        );
    }

    #[test]
    fn the_first_unknown_wave_is_named() {
        let (a, b) = (Fig::Known(1.0), Fig::Unknown("no attempts".into()));
        assert_eq!(Fig::known_pair(&a, &a, "w1", "w2"), Ok((1.0, 1.0)));
        assert_eq!(
            Fig::known_pair(&a, &b, "w1", "w2"),
            Err(("w2", "no attempts"))
        );
        assert_eq!(
            Fig::known_pair(&b, &b, "w1", "w2"),
            Err(("w1", "no attempts"))
        );
    }
}
