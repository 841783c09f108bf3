//! What to do next, in the command line's words. The library names a next step as a
//! [`Hint`] and never names a command; this face says it with its own commands.

use benchledger_core::error::{Argument, Error, Hint};
use benchledger_core::report::{Advice, Note, Table};

/// An error's message as the command line prints it: the library's message, then what to do
/// next with this program's commands.
pub fn message(e: &Error) -> String {
    message_in(e, &CommandLine)
}

/// How a face of the library (the command line, the Python package) words an error: what to
/// do next, and a call's arguments, as its callers write them.
pub trait Face {
    /// A hint in this face's words, where it has its own call for it (`None`: the command
    /// line's words, whose commands every face ships).
    fn hint(&self, _hint: &Hint) -> Option<String> {
        None
    }

    /// An argument as this face's callers write it.
    fn argument(&self, a: &Argument) -> String;
}

/// The command line: every hint in its own words, an argument as its flag (`--alpha 1.5`).
pub struct CommandLine;

impl Face for CommandLine {
    fn argument(&self, a: &Argument) -> String {
        let flag = format!("--{}", a.name.replace('_', "-"));
        match a.value {
            Some(v) => format!("{flag} {v}"),
            None => flag,
        }
    }
}

/// An error's message as another face of the library says it (the Python package): the
/// library's message with each argument named as `face` names it, then what to do next in
/// `face`'s words where it has its own call for it, else in the command line's (whose commands
/// the package ships as its `benchledger` command).
pub fn message_in(e: &Error, face: &dyn Face) -> String {
    let said = |hint: &Hint| face.hint(hint).unwrap_or_else(|| says(hint));
    match e {
        Error::Hinted { error, hint } => format!("{}{}", message_in(error, face), said(hint)),
        Error::Argument {
            name,
            value,
            message,
        } => Argument {
            name,
            value: value.as_deref(),
        }
        .said(&|a| face.argument(a), message),
        _ => match e.hint() {
            Some(hint) => format!("{e}{}", said(hint)),
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
        Hint::NoServerSupport => {
            "; point --db at an SQLite file, or build it with the feature".into()
        }
        Hint::CheckWithWriter => " (`verify --all`)".into(),
        Hint::CopyInWhereWritable => ". Run any benchledger command on it once where it can be \
                                      written (that copies them in), then read it here"
            .into(),
        Hint::ReadsStillWork => ". Commands that only read the ledger still work".into(),
        Hint::OwnWaveId => ": give the new wave its own id in [wave] id".into(),
        Hint::AddSeats => {
            ": a wave in the ledger cannot grow. To have these seats beside its own, \
                           ingest them all at once under a new id: every results path in one \
                           call, each with its model (--seat PATH=MODEL[@PROVIDER]), and --wave \
                           NEW-ID (or a wave manifest, --manifest for its conditions)"
                .into()
        }
        Hint::RegisterFirst(named) => {
            format!(". Register it first with `benchledger rubric add {named}`")
        }
        Hint::VerifyLedger => "; `benchledger verify --all --ledger` names what changed".into(),
        Hint::UseFormat(format) => {
            format!("; this looks like {format}: use `--from {format}`")
        }
        Hint::ChooseScorer => "; choose the one that decides Correct with --scorer METRIC \
                               (ingest --from), or scorer = \"METRIC\" beside the seat's results \
                               (a wave manifest)"
            .into(),
        Hint::GiveAll(options) => format!(
            "; give them with {} (or in the wave manifest given with --manifest)",
            options
                .iter()
                .map(|o| format!("--{}", o.replace('_', "-")))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Hint::AlsoGive(name) => format!("; give --{} too", name.replace('_', "-")),
        Hint::RegisterAndRescore { file, id } => format!(
            ". Register it with `benchledger rubric add {file}`, then `benchledger rescore \
             --rubric {id}`"
        ),
        Hint::CheckSeatOrRescore(id) => format!(
            "; check the seat's id with `benchledger show WAVE`, or store scores with \
             `benchledger rescore --rubric {id}`"
        ),
        Hint::IncludeWithdrawn => {
            ". Pass --include-withdrawn to show it anyway (marked as withdrawn)".into()
        }
        Hint::CompareTwo(seat) => {
            format!("; e.g. `benchledger compare --seat {seat} WAVE-1 WAVE-2`")
        }
        Hint::Give(option) => format!(
            "; give it with --{} (or in the wave manifest given with --manifest)",
            option.replace('_', "-")
        ),
    }
}

/// A note under a table, as the command line prints it: advice said with its commands.
pub fn note(n: &Note) -> String {
    match n {
        Note::Text(s) => s.clone(),
        Note::Advice(a) => advises(a),
    }
}

/// The table with every advice note said in the command line's words, for a renderer that
/// prints notes as they are (Markdown).
pub fn worded(t: &Table) -> Table {
    let mut out = t.clone();
    for n in &mut out.notes {
        if let Note::Advice(_) = n {
            *n = Note::Text(note(n));
        }
    }
    out
}

/// A listing's advice, as a note of its own.
fn advises(a: &Advice) -> String {
    match a {
        Advice::NoPublications => "No publications yet: freeze one with `benchledger publish \
                                   --wave W --rubric NAME@VERSION`."
            .into(),
        Advice::VerifyPublications => "Check them with `benchledger verify --all`.".into(),
        Advice::ChainHead(h) => format!(
            "Chain head: {h}. Keep it outside the ledger; `benchledger verify --expect-head \
             HASH` checks that the chain still ends there."
        ),
        Advice::NoPrices => "No price tables registered: add one with `benchledger prices add \
                             prices/NAME.vN.toml`."
            .into(),
        Advice::PricesShown => "Prices are USD per million tokens; `benchledger prices show \
                                NAME@VERSION` prints a table's rows."
            .into(),
        Advice::NoCost => "Add a price table (`benchledger prices add TABLE.toml`) and render \
                           with `benchledger site --prices NAME@VERSION`, which fills the costs \
                           in from each attempt's tokens."
            .into(),
        Advice::NoRubrics => "No rubrics registered: add one with `benchledger rubric add \
                              rubrics/NAME.vN.toml`."
            .into(),
        Advice::NoWaves => "No waves yet: add one with `benchledger ingest MANIFEST.toml`.".into(),
        Advice::Trials { summary, wave } => format!("{summary} See `benchledger trials {wave}`."),
        Advice::Groups { summary, wave } => {
            format!("{summary} Every pair: `benchledger versus --wave {wave} --all`.")
        }
        Advice::CompareWaves => "Scores of different waves were made under different \
                                 conditions: compare them with `benchledger compare`, which puts \
                                 the absolutes and the load side by side."
            .into(),
        Advice::Rescore { waves, rubric } => {
            format!("No stored scores for {waves}: run `benchledger rescore --rubric {rubric}`.")
        }
        Advice::Score { wave, rubric, ci } => {
            let mut line = format!("benchledger score --wave {wave} --rubric {rubric}");
            if let Some((level, resamples, seed)) = ci {
                let default = benchledger_core::stats::bootstrap::Settings::default();
                line.push_str(" --ci");
                if *level != benchledger_core::report::intervals::level_text(&default) {
                    line.push_str(&format!(" {level}"));
                }
                if *resamples != default.resamples {
                    line.push_str(&format!(" --resamples {resamples}"));
                }
                if *seed != default.seed {
                    line.push_str(&format!(" --seed {seed}"));
                }
            }
            format!("The same leaderboard in the terminal: `{line}`.")
        }
    }
}

/// Advice in the command line's words, for a face that renders the library's documents
/// itself (the site): the same words [`note`] gives a table's advice.
pub fn words(a: &Advice) -> String {
    advises(a)
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

    /// The library names an argument by its own name; this program names it as its flag,
    /// the value after it, and an argument another one needs as a flag too.
    #[test]
    fn an_argument_is_named_as_this_programs_flag() {
        let e = Error::argument("alpha", 1.5, "give a share above 0 and below 1");
        assert_eq!(
            e.to_string(),
            "`alpha` = 1.5: give a share above 0 and below 1"
        );
        assert_eq!(message(&e), "--alpha 1.5: give a share above 0 and below 1");
        assert_eq!(e.exit_code(), 2);
        let e = Error::switch("reprice", "needs a table").hinted(Hint::AlsoGive("prices"));
        assert_eq!(e.to_string(), "`reprice`: needs a table");
        assert_eq!(message(&e), "--reprice: needs a table; give --prices too");
        let e = Error::argument("suite_problems", 0, "give a count");
        assert_eq!(message(&e), "--suite-problems 0: give a count");
    }

    /// A listing's advice is said with this program's commands, in a note of its own; the
    /// table's other notes stay as they are.
    #[test]
    fn a_listings_advice_is_said_with_this_programs_commands() {
        let mut t = Table::default();
        t.notes.push("plain".into());
        t.notes.push(Note::Advice(Advice::Rescore {
            waves: "w1, w2".into(),
            rubric: "r@1".into(),
        }));
        let w = worded(&t);
        assert_eq!(
            w.notes,
            [
                Note::Text("plain".into()),
                Note::Text(
                    "No stored scores for w1, w2: run `benchledger rescore --rubric r@1`.".into()
                )
            ]
        );
        assert_eq!(
            note(&Note::Advice(Advice::Trials {
                summary: "a: 2 trials.".into(),
                wave: "w".into()
            })),
            "a: 2 trials. See `benchledger trials w`."
        );
        assert_eq!(
            note(&Note::Advice(Advice::Groups {
                summary: "Group: a.".into(),
                wave: "w".into()
            })),
            "Group: a. Every pair: `benchledger versus --wave w --all`."
        );
    }

    /// The command that prints a leaderboard the site shows: the intervals as drawn, each
    /// setting named only when it is not the default.
    #[test]
    fn a_leaderboards_command_names_its_interval_settings_when_not_the_defaults() {
        let score = |ci| {
            words(&Advice::Score {
                wave: "w".into(),
                rubric: "accuracy@1".into(),
                ci,
            })
        };
        assert_eq!(
            score(None),
            "The same leaderboard in the terminal: `benchledger score --wave w --rubric accuracy@1`."
        );
        assert_eq!(
            score(Some(("95".into(), 2000, 0))),
            "The same leaderboard in the terminal: `benchledger score --wave w --rubric accuracy@1 \
             --ci`."
        );
        assert_eq!(
            score(Some(("90".into(), 200, 3))),
            "The same leaderboard in the terminal: `benchledger score --wave w --rubric accuracy@1 \
             --ci 90 --resamples 200 --seed 3`."
        );
    }

    /// A build without PostgreSQL says so in the library's words; the command line adds
    /// which flag to point elsewhere.
    #[test]
    fn a_build_without_postgres_is_told_where_to_point_db() {
        let e =
            Error::Usage("built without PostgreSQL support".into()).hinted(Hint::NoServerSupport);
        assert!(!e.to_string().contains("--db"), "{e}");
        assert_eq!(
            message(&e),
            "built without PostgreSQL support; point --db at an SQLite file, or build it with \
             the feature"
        );
    }

    /// The ledger's own messages that used to name a command end as they did, the command
    /// named by this face.
    #[test]
    fn ledger_messages_end_with_this_programs_commands() {
        let unavailable = |message: &str| Error::Unavailable {
            path: "l.db".into(),
            cause: benchledger_core::error::Cause::ReadOnly,
            message: message.into(),
        };
        let cases = [
            (
                Error::Ledger {
                    path: "l.db".into(),
                    message: "look at it with the benchledger that wrote it".into(),
                }
                .hinted(Hint::CheckWithWriter),
                "l.db: look at it with the benchledger that wrote it (`verify --all`)",
            ),
            (
                unavailable("beside the ledger").hinted(Hint::CopyInWhereWritable),
                "l.db: beside the ledger. Run any benchledger command on it once where it can be \
                 written (that copies them in), then read it here",
            ),
            (
                unavailable("nothing was written").hinted(Hint::ReadsStillWork),
                "l.db: nothing was written. Commands that only read the ledger still work",
            ),
        ];
        for (e, said) in cases {
            assert!(!e.to_string().contains("benchledger command"), "{e}");
            assert!(!e.to_string().contains("verify"), "{e}");
            assert_eq!(message(&e), said);
        }
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
