//! `benchledger problems`: a wave's problem × seat matrix, with `--regressions` the problems
//! each seat solves in one wave and not the other, or with `--problem` one problem's sample.
//! The library builds each ([`documents::problems`], [`documents::regressions`],
//! [`documents::sample`]); this checks how many waves were named and prints.

use super::Ctx;
use crate::cli::{Format, ProblemsArgs};
use benchledger_core::documents;
use benchledger_core::error::{Error, Result};
use benchledger_core::report::sample::sample_text;

/// A sample as text: in Markdown, fenced by more backticks than any run in its texts.
fn sample_markdown(text: &str) -> String {
    let mut fence = String::from("```");
    while text.contains(fence.as_str()) {
        fence.push('`');
    }
    format!("{fence}text\n{text}{fence}\n")
}

pub fn run(ctx: &mut Ctx<'_>, args: ProblemsArgs) -> Result<()> {
    let want = if args.regressions { 2 } else { 1 };
    if args.waves.len() != want {
        return Err(Error::Usage(if args.regressions {
            "--regressions compares two waves: name both (WAVE_A WAVE_B), the earlier first".into()
        } else {
            "name one wave (or two with --regressions)".into()
        }));
    }
    let ledger = ctx.open()?;
    let (seats, include) = (&args.seat, args.include_withdrawn);
    let format = args.format.format;
    if let Some(problem) = &args.problem {
        let s = documents::sample(&ledger, &args.waves[0], problem, seats, include)?;
        let text = match format {
            Format::Table => sample_text(&s),
            Format::Md => sample_markdown(&sample_text(&s)),
            Format::Csv | Format::Json => {
                let document = documents::sample_document(&s);
                ctx.render(format, document.kind, &document.table, &document.json)
            }
        };
        return ctx.write(&text);
    }
    let document = if args.regressions {
        documents::regressions(&ledger, &args.waves[0], &args.waves[1], seats, include)?
    } else {
        documents::problems(&ledger, &args.waves[0], seats, include)?
    };
    ctx.write_document(format, &document)
}
