//! What each reading command shows, as a library call: a wave's figures ([`show`]), its
//! leaderboard under a rubric ([`score`]), its repeated trials ([`trials`]), two seats paired
//! ([`versus`], [`versus_all`], [`plan`]), its problems ([`problems`], [`regressions`],
//! [`sample`]), a rubric change over history ([`diff`]), one seat across waves ([`compare`]), a
//! rubric's stored scores ([`history`]), the chain's publications ([`publications`]) and the
//! submission rules a ledger knows ([`rules`]).
//!
//! Each takes a ledger and what the caller asked, checks it (a wave or seat that is not there
//! is named with the ones that are), and returns a [`Document`]: the table people read and the
//! JSON body a program reads, built by the same code. The command line renders one in the
//! format asked for; the Python package hands back its JSON ([`Document::to_json`]), so both
//! give the same document byte for byte.

pub mod claims;
mod document;
mod pairs;
mod problems;
mod request;
mod rubrics;
mod rules;
mod wave;

pub use document::Document;
pub use pairs::{plan, versus, versus_all};
pub use problems::{problems, regressions, sample, sample_document};
pub use request::{Ci, Prices};
pub use rubrics::{Compared, compare, diff, history, publications};
pub use rules::rules;
pub use wave::{score, show, trials};
