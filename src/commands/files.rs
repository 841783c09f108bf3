//! The library's capped reads of the files a command is given ([`benchledger_core::files`]),
//! under the name the commands use.

pub use benchledger_core::files::*;
