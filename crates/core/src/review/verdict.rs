//! A review's verdict, and each finding's: `accept`, `needs-review` or `reject`, ordered so
//! that the worst one found is the review's.

/// What a review says of a submission, or of one finding. Ordered from best to worst.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    Accept,
    NeedsReview,
    Reject,
}

impl Verdict {
    pub const ALL: [Verdict; 3] = [Verdict::Accept, Verdict::NeedsReview, Verdict::Reject];

    /// The stable word rules files and JSON use.
    pub fn key(self) -> &'static str {
        match self {
            Verdict::Accept => "accept",
            Verdict::NeedsReview => "needs-review",
            Verdict::Reject => "reject",
        }
    }

    pub(crate) fn from_key(key: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.key() == key)
    }

    /// The exit status a command gives it: 0 to accept, 1 otherwise.
    pub fn exit_code(self) -> u8 {
        match self {
            Verdict::Accept => 0,
            Verdict::NeedsReview | Verdict::Reject => 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worst_verdict_is_the_greatest() {
        assert_eq!(
            [Verdict::NeedsReview, Verdict::Reject, Verdict::Accept]
                .into_iter()
                .max(),
            Some(Verdict::Reject)
        );
        for v in Verdict::ALL {
            assert_eq!(Verdict::from_key(v.key()), Some(v));
        }
    }
}
