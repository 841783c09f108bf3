//! The `benchledger` command line: what the user typed ([`cli`]), one function per subcommand
//! ([`commands`]), and tables drawn for a terminal ([`terminal`]). Everything a command computes,
//! stores or publishes lives in `benchledger_core`; this crate parses, calls it, and prints.

pub mod advice;
pub mod cli;
pub mod commands;
pub mod terminal;

use std::io::Write;

/// The whole command line, as the binary runs it (and the Python package's `benchledger`
/// command, in its own process): parse `args` (the program's name first), run the command
/// with its output on stdout, print an error on stderr, and return the exit status: 0 ok, 1 a
/// check failed, 2 bad input or usage, 3 could not complete through no fault of the input
/// (the ledger busy past `--wait`, read-only, or the disk failed) having written nothing.
pub fn main_from<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::Parser;
    let cli = match cli::Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version print and succeed; a usage error prints and exits 2.
            let _ = e.print();
            return u8::try_from(e.exit_code()).unwrap_or(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match commands::run(cli, &mut out) {
        // Flushed here, not left to the end of the process: in the Python package the
        // process is Python's, which does not flush Rust's stdout when it exits.
        Ok(()) => {
            let _ = out.flush();
            0
        }
        Err(e) => {
            let _ = out.flush();
            // A reader that went away (`| head`) is not an error.
            if let benchledger_core::Error::Io { source, .. } = &e
                && source.kind() == std::io::ErrorKind::BrokenPipe
            {
                return 0;
            }
            eprintln!("error: {}", advice::message(&e));
            e.exit_code()
        }
    }
}
