//! The `benchledger` binary: parse the arguments, run the command, map the outcome to an exit
//! status (see [`benchledger::main_from`]). Everything else lives in the library.

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(benchledger::main_from(std::env::args_os()))
}
