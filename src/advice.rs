//! What to do next, in the command line's words. The library names a next step as a
//! [`Hint`] and never names a command; this face says it with its own commands.

use benchledger_core::error::{Error, Hint};

/// An error's message as the command line prints it: the library's message, then what to do
/// next with this program's commands.
pub fn message(e: &Error) -> String {
    match e {
        Error::Hinted { error, hint } => format!("{}{}", message(error), says(hint)),
        _ => e.to_string(),
    }
}

/// A hint, as a clause that follows the message.
fn says(hint: &Hint) -> String {
    match hint {
        Hint::RegisterRubric => {
            "; register it with `benchledger rubric add FILE`, or pass the rubric file's path"
                .into()
        }
        Hint::RegisterPrices => "; register it with `benchledger prices add FILE`".into(),
        Hint::RegisterPricesFirst => {
            " (register a price table file first with `benchledger prices add FILE`)".into()
        }
        Hint::CreateLedger(path) => format!(
            ": create one with `benchledger init --db {}`, or point --db or BENCHLEDGER_DB at an \
             existing ledger",
            path.display()
        ),
        Hint::InitLedger(path) => {
            format!(
                ": create one with `benchledger init --db {}`",
                path.display()
            )
        }
        Hint::CreateDatabase(path) => format!(
            ": create the database first (`createdb`), then `benchledger init --db {}`",
            path.display()
        ),
        Hint::Withdraw => ": withdraw a wave by hand with `benchledger withdraw`".into(),
        Hint::ListWaves => " (see `benchledger waves`)".into(),
        Hint::VerifyAll => ". Check the ledger with `benchledger verify --all`".into(),
        Hint::Give(option) => format!(
            "; give it with --{} (or in the wave manifest given with --manifest)",
            option.replace('_', "-")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hint_follows_the_message_in_this_programs_words() {
        let e =
            Error::Usage("no rubric r@1 is registered in l.db".into()).hinted(Hint::RegisterRubric);
        assert_eq!(e.to_string(), "no rubric r@1 is registered in l.db");
        assert_eq!(
            message(&e),
            "no rubric r@1 is registered in l.db; register it with `benchledger rubric add \
             FILE`, or pass the rubric file's path"
        );
        assert_eq!(message(&Error::Usage("plain".into())), "plain");
    }
}
