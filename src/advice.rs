//! What to do next, in the command line's words. The library names a next step as a
//! [`Hint`] and never names a command; this face says it with its own commands.

use benchledger_core::error::{Error, Hint};

/// An error's message as the command line prints it: the library's message, then what to do
/// next with this program's commands.
pub fn message(e: &Error) -> String {
    match e {
        Error::Hinted { error, hint } => format!("{}{}", message(error), says(hint)),
        _ => match e.hint() {
            Some(hint) => format!("{e}{}", says(hint)),
            None => e.to_string(),
        },
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
        Hint::NameLedgerFile => ": point --db or BENCHLEDGER_DB at the ledger file".into(),
        Hint::AddWave => "; add one with `benchledger ingest MANIFEST.toml`".into(),
        Hint::ListPublications => "; list them with `benchledger publications`".into(),
        Hint::RegisterRubricFile => "; register it with `benchledger rubric add FILE`".into(),
        Hint::WaitLonger => ". Run the command again when the other writer is done, or give \
                              --wait more seconds"
            .into(),
        Hint::UpgradeElsewhere => ". Open it once where it can be written (`benchledger init \
                                   --db PATH` upgrades it), or read it with the benchledger \
                                   that wrote it"
            .into(),
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

    /// A ledger kept busy past the wait names no flag in the library's words; the command
    /// line says which flag waits longer.
    #[test]
    fn a_busy_ledger_is_told_to_wait_longer_in_this_programs_words() {
        let e = Error::Unavailable {
            path: "l.db".into(),
            cause: benchledger_core::error::Cause::Busy,
            message: "could not complete: the ledger is busy; nothing was written".into(),
        };
        assert!(!e.to_string().contains("--wait"), "{e}");
        assert_eq!(
            message(&e),
            "l.db: could not complete: the ledger is busy; nothing was written. Run the command \
             again when the other writer is done, or give --wait more seconds"
        );
    }
}
