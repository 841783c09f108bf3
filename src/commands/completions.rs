//! `benchledger completions SHELL` and `benchledger man`: shell completions and man pages
//! generated from the command line's own clap definitions, so they can never disagree with
//! `--help`.

use std::path::Path;

use clap::CommandFactory;

use super::Ctx;
use crate::cli::{Cli, CompletionsArgs, ManArgs};
use benchledger_core::error::{Error, Result};

/// Prints the completion script for `shell`.
pub fn completions(ctx: &mut Ctx<'_>, shell: clap_complete::Shell) -> Result<()> {
    let mut cmd = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "benchledger", &mut script);
    let text = String::from_utf8(script)
        .map_err(|_| Error::Usage(format!("the {shell} completion script is not UTF-8")))?;
    ctx.write(&text)
}

/// Prints the man page of `benchledger` (section 1), or, with `out`, writes it and one page
/// per subcommand (`benchledger-show.1`, ...) to that directory.
pub fn man(ctx: &mut Ctx<'_>, out: Option<&Path>) -> Result<()> {
    let cmd = Cli::command();
    match out {
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(cmd)
                .render(&mut page)
                .map_err(|e| Error::io(Path::new("<stdout>"), e))?;
            ctx.write(&String::from_utf8_lossy(&page))
        }
        Some(dir) => {
            if !dir.is_dir() {
                return Err(Error::Usage(format!(
                    "--out {}: not a directory; create it first (man pages are written into it)",
                    dir.display()
                )));
            }
            // Every command's page, as `clap_mangen::generate_to` writes them, named here.
            let mut cmd = cmd.disable_help_subcommand(true);
            cmd.build();
            let mut pages = Vec::new();
            write_pages(cmd, dir, &mut pages).map_err(|e| Error::io(dir, e))?;
            pages.sort();
            ctx.write(&format!(
                "wrote {} man pages to {}: {}\nRead one with `man {}/benchledger.1`.\n",
                pages.len(),
                dir.display(),
                pages.join(", "),
                dir.display()
            ))
        }
    }
}

fn write_pages(cmd: clap::Command, dir: &Path, pages: &mut Vec<String>) -> std::io::Result<()> {
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()).cloned() {
        write_pages(sub, dir, pages)?;
    }
    let path = clap_mangen::Man::new(cmd).generate_to(dir)?;
    pages.push(
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
    );
    Ok(())
}

/// `benchledger completions`, from its flags.
pub fn run_completions(ctx: &mut Ctx<'_>, args: CompletionsArgs) -> Result<()> {
    completions(ctx, args.shell)
}

/// `benchledger man`, from its flags.
pub fn run_man(ctx: &mut Ctx<'_>, args: ManArgs) -> Result<()> {
    man(ctx, args.out.as_deref())
}
