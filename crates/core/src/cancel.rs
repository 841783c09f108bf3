//! A request, from outside the library, that a long write stop and leave the ledger as it was.
//!
//! A caller that runs a write on a thread of its own and must answer its user meanwhile (the
//! Python module, which hears Ctrl-C while an ingest or a rescore runs without the GIL: issue
//! 34) hands the ledger a [`Cancel`] ([`crate::Ledger::set_cancel`]) and sets it when the user
//! asks to stop. The write then stops at its next check with [`Error::Interrupted`], and its
//! transaction is rolled back. The checks come between batches, never inside a statement:
//!
//! - an ingest, before each seat is read ([`crate::ingest::WaveVisitor::cancel`]) and staged,
//!   and before its transaction commits;
//! - a rescore or a listing that reads attempts, before it reads the waves' attempts
//!   (`crate::Ledger::fold_waves`) and, reading them wave by wave, before each seat
//!   ([`crate::Ledger::fold_wave`]); a rescore also before each wave's scores are stored;
//! - a write waiting for another writer's lock on an SQLite ledger, between slices of the wait;
//! - every write, before its transaction commits.
//!
//! The last check is the one that promises: a write whose token was set before its commit
//! began writes nothing. A token set during the commit itself (the few milliseconds of
//! SQLite's or the server's `COMMIT`) is too late, and the write lands whole, as every write
//! lands: whole or not at all.
//!
//! The library knows no signal and installs no handler: whoever holds the token decides what
//! sets it. A token belongs to one call, so that two threads writing at once do not stop each
//! other; a ledger that is never given one is never interrupted.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::{Error, Result};

/// A request to stop, shared between the thread that writes and the one that may ask it to
/// stop (clones share it). Starts unset; once set, it stays set.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A token not set.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Asks every write that checks this token (or a clone of it) to stop at its next check.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether [`Cancel::cancel`] was called.
    pub(crate) fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    /// A check between batches: [`Error::Interrupted`] once the token is set.
    pub fn check(&self) -> Result<()> {
        if self.is_cancelled() {
            return Err(Error::Interrupted);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clone_sees_the_request_and_the_check_turns_it_into_interrupted() {
        let token = Cancel::new();
        let held = token.clone();
        assert!(held.check().is_ok());
        token.cancel();
        assert!(held.is_cancelled());
        let err = held.check().unwrap_err();
        assert!(matches!(err, Error::Interrupted), "{err}");
        assert_eq!(err.exit_code(), 130);
        // Another token is not touched.
        assert!(Cancel::new().check().is_ok());
    }
}
