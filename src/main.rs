//! The `benchledger` binary: parse the arguments, run the command, map the outcome to an exit
//! status (0 ok, 1 a check failed, 2 bad input or usage, 3 could not complete through no fault
//! of the input — the ledger busy past `--wait`, read-only, or the disk failed — having written
//! nothing). Everything else lives in the library.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = benchledger::cli::Cli::parse();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match benchledger::commands::run(cli, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = out.flush();
            // A reader that went away (`| head`) is not an error.
            if let benchledger_core::Error::Io { source, .. } = &e
                && source.kind() == std::io::ErrorKind::BrokenPipe
            {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {}", benchledger::advice::message(&e));
            ExitCode::from(e.exit_code())
        }
    }
}
