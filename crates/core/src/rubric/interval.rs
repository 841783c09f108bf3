//! Interval arithmetic with witnesses: the range an expression can take, and for each end the
//! conditions that reach it.
//!
//! Each bound carries the list of conditions (in plain words) under which the expression
//! attains it, so that a checker can say not only "the score can reach 125" but "a seat with
//! accuracy = 1, tokens_total ≤ 0.8 × budget.tokens and wall_s ≤ 0.8 × budget.wall_s reaches
//! 125". Infinite bounds stand for "grows without limit". The arithmetic is sound: the true
//! range of the expression always lies inside the computed one (for the operations used by
//! rubrics, it is also tight, since every input varies independently).

/// One end of an interval and how it is reached.
#[derive(Debug, Clone, PartialEq)]
pub struct Bound {
    pub value: f64,
    pub why: Vec<String>,
}

impl Bound {
    pub fn new(value: f64, why: Vec<String>) -> Bound {
        Bound { value, why }
    }

    fn join(value: f64, a: &Bound, b: &Bound) -> Bound {
        let mut why = a.why.clone();
        for w in &b.why {
            if !why.contains(w) {
                why.push(w.clone());
            }
        }
        Bound { value, why }
    }
}

/// A closed interval [lo, hi]; either end may be infinite.
#[derive(Debug, Clone, PartialEq)]
pub struct Interval {
    pub lo: Bound,
    pub hi: Bound,
}

/// `0 × ∞ = 0`: a factor that is exactly zero zeroes the product however large the other grows.
fn mul(a: f64, b: f64) -> f64 {
    if a == 0.0 || b == 0.0 { 0.0 } else { a * b }
}

impl Interval {
    pub fn new(lo: Bound, hi: Bound) -> Interval {
        Interval { lo, hi }
    }

    /// A single value, reached unconditionally.
    pub fn point(x: f64) -> Interval {
        Interval::new(Bound::new(x, vec![]), Bound::new(x, vec![]))
    }

    fn pick(cands: Vec<Bound>) -> Interval {
        let mut lo = cands[0].clone();
        let mut hi = cands[0].clone();
        for c in cands.into_iter().skip(1) {
            if c.value < lo.value {
                lo = c.clone();
            }
            if c.value > hi.value {
                hi = c;
            }
        }
        Interval { lo, hi }
    }

    pub(crate) fn mul(&self, o: &Interval) -> Interval {
        let mut cands = Vec::with_capacity(4);
        for a in [&self.lo, &self.hi] {
            for b in [&o.lo, &o.hi] {
                cands.push(Bound::join(mul(a.value, b.value), a, b));
            }
        }
        Interval::pick(cands)
    }

    pub fn add(&self, o: &Interval) -> Interval {
        Interval {
            lo: Bound::join(self.lo.value + o.lo.value, &self.lo, &o.lo),
            hi: Bound::join(self.hi.value + o.hi.value, &self.hi, &o.hi),
        }
    }

    /// Multiplication by a constant.
    pub fn scale(&self, k: f64) -> Interval {
        let a = Bound::new(mul(self.lo.value, k), self.lo.why.clone());
        let b = Bound::new(mul(self.hi.value, k), self.hi.why.clone());
        if k >= 0.0 {
            Interval { lo: a, hi: b }
        } else {
            Interval { lo: b, hi: a }
        }
    }

    /// 1 / x; 1/0 is +∞ and 1/±∞ is 0. An interval that holds values on both sides of 0 has a
    /// reciprocal that runs from −∞ to +∞ (a divisor just below or just above 0).
    pub(crate) fn recip(&self) -> Interval {
        let r = |b: &Bound| {
            let v = if b.value == 0.0 {
                f64::INFINITY
            } else {
                1.0 / b.value
            };
            Bound::new(v, b.why.clone())
        };
        if self.lo.value >= 0.0 {
            return Interval {
                lo: r(&self.hi),
                hi: r(&self.lo),
            };
        }
        if self.hi.value < 0.0 {
            let r = |b: &Bound| Bound::new(1.0 / b.value, b.why.clone());
            return Interval {
                lo: r(&self.hi),
                hi: r(&self.lo),
            };
        }
        // lo < 0 ≤ hi: the divisor can come as close to 0 as it likes from below (and, unless
        // hi is 0 itself, from above).
        let near = |side: &str| {
            Bound::new(
                if side == "below" {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                },
                vec![format!("the sum it is divided by just {side} 0")],
            )
        };
        let hi = if self.hi.value > 0.0 {
            near("above")
        } else {
            Bound::new(1.0 / self.lo.value, self.lo.why.clone())
        };
        Interval {
            lo: near("below"),
            hi,
        }
    }

    /// Keeps values within [floor, cap]. A bound that the clip moves keeps its witness.
    pub fn clip(&self, floor: Option<f64>, cap: Option<f64>) -> Interval {
        let f = |b: &Bound| {
            let mut v = b.value;
            if let Some(lo) = floor {
                v = v.max(lo);
            }
            if let Some(hi) = cap {
                v = v.min(hi);
            }
            Bound::new(v, b.why.clone())
        };
        Interval {
            lo: f(&self.lo),
            hi: f(&self.hi),
        }
    }

    /// x^e for e > 0, over the non-negative part of the interval (where it is monotone
    /// increasing). A negative part has no real power in general; the checker rejects a factor
    /// with an exponent that can be negative, so it is left out here rather than turned into NaN.
    pub fn pow(&self, e: f64) -> Interval {
        let p = |b: &Bound| Bound::new(super::arith::pow(b.value.max(0.0), e), b.why.clone());
        Interval {
            lo: p(&self.lo),
            hi: p(&self.hi),
        }
    }

    /// The smallest interval holding both.
    pub(crate) fn union(&self, o: &Interval) -> Interval {
        Interval {
            lo: if o.lo.value < self.lo.value {
                o.lo.clone()
            } else {
                self.lo.clone()
            },
            hi: if o.hi.value > self.hi.value {
                o.hi.clone()
            } else {
                self.hi.clone()
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iv(lo: f64, hi: f64, l: &str, h: &str) -> Interval {
        Interval::new(
            Bound::new(lo, vec![l.into()]),
            Bound::new(hi, vec![h.into()]),
        )
    }

    #[test]
    fn product_of_two_bonuses_reaches_their_product_with_both_witnesses() {
        let a = iv(0.5, 1.118, "a low", "a high");
        let b = iv(0.5, 1.118, "b low", "b high");
        let p = a.mul(&b);
        assert!((p.hi.value - 1.118 * 1.118).abs() < 1e-12);
        assert_eq!(p.hi.why, vec!["a high", "b high"]);
    }

    #[test]
    fn zero_times_unbounded_is_zero() {
        let a = iv(0.0, 1.0, "", "");
        let b = iv(0.0, f64::INFINITY, "", "");
        let p = a.mul(&b);
        assert_eq!((p.lo.value, p.hi.value), (0.0, f64::INFINITY));
    }

    #[test]
    fn reciprocal_of_a_range_touching_zero_is_unbounded() {
        let r = iv(0.0, 4.0, "zero", "four").recip();
        assert_eq!((r.lo.value, r.hi.value), (0.25, f64::INFINITY));
        assert_eq!(r.hi.why, vec!["zero"]);
    }

    #[test]
    fn reciprocal_of_a_range_across_zero_is_unbounded_both_ways() {
        // A divisor that can be negative (a linear factor without a floor) can also come
        // arbitrarily close to 0 from either side.
        let r = iv(f64::NEG_INFINITY, 0.45, "many steps", "few steps").recip();
        assert_eq!((r.lo.value, r.hi.value), (f64::NEG_INFINITY, f64::INFINITY));
        let r = iv(-4.0, -2.0, "", "").recip();
        assert_eq!((r.lo.value, r.hi.value), (-0.5, -0.25));
    }

    #[test]
    fn clip_and_negation() {
        let a = iv(f64::NEG_INFINITY, 1.3, "", "").clip(Some(0.0), Some(1.0));
        assert_eq!((a.lo.value, a.hi.value), (0.0, 1.0));
        let n = iv(0.0, f64::INFINITY, "", "").scale(-0.2);
        assert_eq!((n.lo.value, n.hi.value), (f64::NEG_INFINITY, 0.0));
    }
}
