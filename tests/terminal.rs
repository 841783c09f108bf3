//! The command line in a real terminal: tables fit its width (saying which columns were left
//! out), output piped or `--wide` is full width, and colour follows `NO_COLOR` and whether the
//! output is a terminal. The terminal is a pseudo-terminal made by util-linux's `script`
//! (Debian's bsdutils, which every Debian system has), sized with `stty`.

mod common;

use std::process::Command;

use common::Env;

/// Whether `script` can run a command in a pseudo-terminal here. Under CI=true it must: a
/// missing `script` fails the test there (`.ci/run` installs it), and elsewhere says why the
/// terminal checks were skipped.
fn script_available() -> bool {
    let found = Command::new("script")
        .args(["-qec", "true", "/dev/null"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        let msg = "`script` (util-linux; Debian's bsdutils) could not run a command in a \
                   pseudo-terminal, so the terminal-width checks cannot run: install bsdutils";
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{msg}");
        eprintln!("SKIPPED: {msg}");
    }
    found
}

fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// What `benchledger --db DB ARGS` prints in a terminal `cols` columns wide (stdout and stderr
/// both: a terminal shows them together), with extra environment variables, and its exit
/// status.
fn in_terminal_status(
    env: &Env,
    cols: usize,
    args: &[&str],
    vars: &[(&str, &str)],
) -> (i32, String) {
    let mut line = format!(
        "stty rows 40 cols {cols}; exec {} --db {}",
        quote(env!("CARGO_BIN_EXE_benchledger")),
        quote(env.db.to_str().unwrap())
    );
    for a in args {
        line.push(' ');
        line.push_str(&quote(a));
    }
    let mut cmd = Command::new("script");
    cmd.args(["-qec", &line, "/dev/null"])
        .current_dir(common::crate_root())
        .env("BENCHLEDGER_NOW", common::NOW)
        .env_remove("BENCHLEDGER_DB")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("COLUMNS")
        .env("TERM", "xterm");
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("script runs");
    let text = String::from_utf8(out.stdout)
        .expect("the terminal's output is UTF-8")
        .replace("\r\n", "\n");
    (out.status.code().unwrap_or(-1), text)
}

/// [`in_terminal_status`] of a command that succeeds.
#[track_caller]
fn in_terminal(env: &Env, cols: usize, args: &[&str], vars: &[(&str, &str)]) -> String {
    let (status, text) = in_terminal_status(env, cols, args, vars);
    assert_eq!(
        status,
        0,
        "`benchledger {}` failed:\n{text}",
        args.join(" ")
    );
    text
}

fn widest(text: &str) -> usize {
    text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

/// The columns a table in a `cols`-column terminal names as left out to fit, on one line.
fn left_out(text: &str, cols: usize) -> String {
    text.split(&format!("Left out to fit {cols} columns: "))
        .nth(1)
        .and_then(|t| t.split(" (--wide").next())
        .unwrap_or_else(|| panic!("no columns left out:\n{text}"))
        .replace('\n', " ")
}

fn examples() -> Env {
    Env::with_waves(&[
        "examples/rca-wave-1/wave.toml",
        "examples/rca-wave-2/wave.toml",
        "examples/checkout-rematch/wave.toml",
    ])
}

#[test]
fn show_in_a_100_column_terminal_prints_no_line_over_100_characters() {
    if !script_available() {
        return;
    }
    let env = examples();
    for wave in ["checkout-rematch", "rca-wave-1"] {
        let text = in_terminal(&env, 100, &["show", wave], &[]);
        assert!(text.contains(&format!("Wave {wave}")), "{text}");
        assert!(widest(&text) <= 100, "a line over 100 characters:\n{text}");
        // The columns that do not fit are named, and what a row is stays.
        assert!(text.contains("Left out to fit 100 columns:"), "{text}");
        assert!(text.contains("xai-hierarchical"), "{text}");
        assert!(text.contains("Correct"), "{text}");
        // `--wide` prints every column, whatever the terminal's width.
        let wide = in_terminal(&env, 100, &["show", wave, "--wide"], &[]);
        assert!(widest(&wide) > 100);
        assert!(!wide.contains("Left out"), "{wide}");
        assert!(wide.contains("Cached reads"), "{wide}");
    }
    // Every other table of the examples fits as well.
    env.run(["rubric", "add", "rubrics/session-efficiency.v2.toml"])
        .ok();
    env.run([
        "rubric",
        "add",
        "--allow-scale-violation",
        "rubrics/session-efficiency.v1.toml",
    ])
    .ok();
    env.run(["rescore", "--rubric", "session-efficiency@2"])
        .ok();
    for args in [
        vec!["waves"],
        vec![
            "score",
            "--wave",
            "rca-wave-2",
            "--rubric",
            "rubrics/cohort-efficiency.v1.toml",
        ],
        vec!["history", "--rubric", "session-efficiency@2"],
        vec!["diff", "session-efficiency@1", "session-efficiency@2"],
        vec!["show", "rca-wave-2", "--ci"],
        vec![
            "compare",
            "--seat",
            "xai-hierarchical",
            "rca-wave-1",
            "rca-wave-2",
        ],
    ] {
        let text = in_terminal(&env, 80, &args, &[]);
        assert!(
            widest(&text) <= 80,
            "`{}` prints a line over 80 characters in an 80-column terminal:\n{text}",
            args.join(" ")
        );
    }
    // A claims check (which exits 1: claims differ) fits too, down to 60 columns.
    for cols in [80, 60] {
        let (status, text) = in_terminal_status(
            &env,
            cols,
            &["claims", "check", "claims/example-paper.v1.toml"],
            &[],
        );
        assert_eq!(status, 1, "{text}");
        assert!(text.contains("Verdict"), "{text}");
        assert!(widest(&text) <= cols, "{text}");
    }
    // A leaderboard asked for its rank ranges keeps them on a narrow terminal.
    let text = in_terminal(
        &env,
        80,
        &[
            "score",
            "--wave",
            "rca-wave-2",
            "--rubric",
            "session-efficiency@2",
            "--ci",
        ],
        &[],
    );
    assert!(widest(&text) <= 80, "{text}");
    // (Its header may wrap: "Rank" over "range".)
    assert!(text.contains(" range") && text.contains("2–4"), "{text}");
    // And the score's interval: openai-hierarchical's 93.66, drawn 76.38–100.00.
    assert!(
        text.contains("Score 95% CI") && text.contains("76.38–100.00"),
        "{text}"
    );
    // A diff keeps its Change column, the point of a diff, at 80 columns: rca-wave-1's
    // anthropic-hierarchical went 112.19 → 100.00.
    let text = in_terminal(
        &env,
        80,
        &["diff", "session-efficiency@1", "session-efficiency@2"],
        &[],
    );
    assert!(widest(&text) <= 80, "{text}");
    assert!(text.contains("Change") && text.contains("-12.19"), "{text}");
    // Its rubric headers break at their own separators (`session-` over `efficiency` over
    // `@2`), never mid-word.
    assert!(
        text.lines()
            .any(|l| l.split_whitespace().any(|w| w == "efficiency")),
        "{text}"
    );
    let wide = in_terminal(
        &env,
        80,
        &[
            "diff",
            "session-efficiency@1",
            "session-efficiency@2",
            "--wide",
        ],
        &[],
    );
    assert_no_word_cut(&text, &wide, "diff");
    assert!(
        !text.contains("Left out to fit 80 columns: Change"),
        "{text}"
    );
    // `show --ci` keeps the correct-rate's interval (anthropic-react 3/4: 25.0–100.0%).
    let text = in_terminal(&env, 80, &["show", "rca-wave-2", "--ci"], &[]);
    assert!(widest(&text) <= 80, "{text}");
    assert!(text.contains("25.0–100.0%"), "{text}");
}

#[test]
fn piped_output_is_full_width_whatever_columns_says() {
    let env = examples();
    let piped = env.run(["show", "checkout-rematch"]).ok().stdout;
    let narrow = common::run_raw(
        common::crate_root(),
        &["--db", env.db.to_str().unwrap(), "show", "checkout-rematch"],
        &[("COLUMNS", std::ffi::OsStr::new("60"))],
    )
    .ok()
    .stdout;
    assert_eq!(piped, narrow);
    assert!(widest(&piped) > 100);
    assert!(!piped.contains("Left out"));
}

#[test]
fn colour_only_on_a_terminal_and_never_under_no_color() {
    let has_escape = |s: &str| s.contains('\u{1b}');
    // A usage error, which clap colours on a terminal.
    let env = Env::init();
    let piped = env.run(["show"]).status(2);
    assert!(!has_escape(&piped.stderr), "{}", piped.stderr);
    if !script_available() {
        return;
    }
    let (status, coloured) = in_terminal_status(&env, 100, &["show"], &[]);
    assert_eq!(status, 2);
    assert!(has_escape(&coloured), "{coloured}");
    let (_, plain) = in_terminal_status(&env, 100, &["show"], &[("NO_COLOR", "1")]);
    assert!(plain.contains("Usage"), "{plain}");
    assert!(!has_escape(&plain), "{plain}");
    // Help wraps to the terminal too.
    let help = in_terminal(&env, 80, &["--help"], &[("NO_COLOR", "1")]);
    assert!(help.contains("completions"), "{help}");
    assert!(widest(&help) <= 80, "{help}");
}

/// Terminal escapes printed raw (issue "Trust, round two"): a model, a wave's notes or a
/// publication's title holding `ESC [2J` and `BEL` cleared the screen of whoever ran `show`,
/// `score` or `publications`. A table shows every control character escaped, `\u{1b}`, and
/// prints none; what the tables hold is otherwise unchanged. (No pseudo-terminal is needed:
/// a table is what these commands print piped too.)
#[test]
fn terminal_escapes_printed_raw_by_show_score_and_publications() {
    let env = Env::with_waves(&[]);
    let hostile = "\u{1b}[2J\u{7}\r\u{9b}";
    let escaped = r"\u{1b}[2J\u{7}\u{d}\u{9b}";
    let manifest = format!(
        "[wave]\nid = \"hostile\"\nsuite = \"demo-suite\"\nstarted_at = 2026-03-01T09:00:00Z\n\
         suite_problems = 3\nnotes = {notes:?}\n\n[wave.load]\nparallel_sessions = 1\n\
         tool_server_sessions = 1\nserial_rerun = true\n\n[wave.accounting]\n\
         input_tokens_include_cache_reads = true\n\n[[seat]]\nid = \"s1\"\nmodel = {model:?}\n\
         provider = \"prov\"\nharness = \"react\"\nresults = \"s1.jsonl\"\n",
        notes = format!("notes{hostile}"),
        model = format!("model{hostile}"),
    )
    // TOML's escapes, not Rust's.
    .replace(r"\u{1b}", r"\u001B")
    .replace(r"\u{7}", r"\u0007")
    .replace(r"\u{9b}", r"\u009B");
    let results = std::fs::read_to_string(common::tests_dir("fixtures/base/s1.jsonl")).unwrap();
    let wave = common::write_wave(
        &env.path().join("hostile"),
        &manifest,
        &[("s1.jsonl", &results)],
    );
    env.ingest(&[&wave]);
    env.run(["rubric", "add", "rubrics/session-efficiency.v2.toml"])
        .ok();
    let title = format!("title{hostile}");
    // Such a title is refused now (issue 32, #2); one published before is still listed, so
    // the row is given one behind benchledger's back.
    env.run([
        "publish",
        "--wave",
        "hostile",
        "--rubric",
        "session-efficiency@2",
        "--title",
        &title,
    ])
    .status(2);
    env.run([
        "publish",
        "--wave",
        "hostile",
        "--rubric",
        "session-efficiency@2",
    ])
    .ok();
    env.tamper(&format!(
        "DROP TRIGGER publication_no_update; UPDATE publication SET title = {}",
        common::sql_text(&title)
    ));
    for (args, shows) in [
        (&["show", "hostile"][..], &["model", "notes"][..]),
        (
            &[
                "score",
                "--wave",
                "hostile",
                "--rubric",
                "session-efficiency@2",
            ],
            &["notes"],
        ),
        (&["publications"], &["title"]),
    ] {
        let out = env.run(args).ok();
        let text = format!("{}{}", out.stdout, out.stderr);
        let raw: Vec<char> = text
            .chars()
            .filter(|c| c.is_control() && *c != '\n')
            .collect();
        assert!(raw.is_empty(), "{args:?} printed {raw:?}:\n{text}");
        for what in shows {
            assert!(
                text.contains(&format!("{what}{escaped}")),
                "{args:?}: no escaped {what} in\n{text}"
            );
        }
    }
}

/// The pieces a word may break into: cut after `-`, `_`, `/` and `.`, and before `@` (the rule
/// the terminal's tables follow, written again here).
fn pieces(word: &str) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut piece = String::new();
    for ch in word.chars() {
        if ch == '@' && !piece.is_empty() {
            pieces.push(std::mem::take(&mut piece));
        }
        piece.push(ch);
        if matches!(ch, '-' | '_' | '/' | '.') {
            pieces.push(std::mem::take(&mut piece));
        }
    }
    if !piece.is_empty() {
        pieces.push(piece);
    }
    pieces
}

/// The words of the tables in a command's output: their header lines and rows (a table's
/// header runs from the blank line above it to the rule under it; its rows to the next rule).
fn table_words(text: &str) -> Vec<String> {
    let rule = |l: &str| !l.trim().is_empty() && l.trim().chars().all(|c| c == '─');
    let mut words = Vec::new();
    let mut above: Vec<&str> = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if rule(line) {
            if !inside {
                words.extend(
                    above
                        .drain(..)
                        .flat_map(str::split_whitespace)
                        .map(String::from),
                );
            }
            inside = !inside;
        } else if inside {
            words.extend(line.split_whitespace().map(String::from));
        } else if line.trim().is_empty() {
            above.clear();
        } else {
            above.push(line);
        }
    }
    words
}

/// Asserts that no word of the tables `narrow` prints is cut inside: each is a word of the
/// same tables at full width (`wide`), or a run of that word's [`pieces`].
#[track_caller]
fn assert_no_word_cut(narrow: &str, wide: &str, what: &str) {
    let mut allowed = std::collections::BTreeSet::new();
    for word in table_words(wide) {
        let p = pieces(&word);
        for i in 0..p.len() {
            for j in i + 1..=p.len() {
                allowed.insert(p[i..j].concat());
            }
        }
    }
    let words = table_words(narrow);
    assert!(!words.is_empty(), "`{what}` printed no table:\n{narrow}");
    for w in words {
        assert!(
            allowed.contains(&w),
            "`{what}` cut a word inside: {w:?} is no word of its table at full width, nor a \
             run of one's pieces:\n{narrow}"
        );
    }
}

/// The examples, an Inspect AI log whose seat id is long (`anthropic-claude-sonnet-4-5`, as
/// `ingest --from` names it), and the rubrics the listings take.
fn examples_and_a_long_id() -> Env {
    let env = examples();
    env.run([
        "ingest",
        "--from",
        "inspect",
        common::tests_dir("fixtures/import/inspect/run.json")
            .to_str()
            .unwrap(),
    ])
    .ok();
    for rubric in [
        "rubrics/session-efficiency.v2.toml",
        "rubrics/accuracy.v1.toml",
    ] {
        env.run([
            "rubric",
            "add",
            &common::crate_path(rubric).to_string_lossy(),
        ])
        .ok();
    }
    env.run([
        "rubric",
        "add",
        "--allow-scale-violation",
        &common::crate_path("rubrics/session-efficiency.v1.toml").to_string_lossy(),
    ])
    .ok();
    env.run(["rescore", "--rubric", "session-efficiency@2"])
        .ok();
    env
}

/// A new user's check (issue 19): in an 80-column terminal `score --ci` kept the tie groups'
/// "Group" column and left out the Correct 95% CI the user asked for. The intervals asked for
/// now outlast Group and every other optional column, in `score --ci` and `show --ci`.
#[test]
fn the_intervals_asked_for_outlast_group_and_every_other_optional_column() {
    if !script_available() {
        return;
    }
    let env = examples_and_a_long_id();
    let wave = "arith-2026-05-01";
    let text = in_terminal(
        &env,
        80,
        &["score", "--wave", wave, "--rubric", "accuracy@1", "--ci"],
        &[],
    );
    assert!(widest(&text) <= 80, "{text}");
    let left_out = left_out(&text, 80);
    // 2 of 6 trials Correct over 3 problems, its interval drawn 0.0–50.0%: kept, and Group (a
    // letter a seat) left out before it, and the score's interval and rank range kept too.
    assert!(left_out.contains("Group"), "{left_out}");
    assert!(!left_out.contains("Correct 95% CI"), "{left_out}");
    assert!(text.contains("0.0–50.0%"), "{text}");
    assert!(
        text.contains("0.000–0.500") && text.contains("1–1"),
        "{text}"
    );
    // `show --ci` keeps both intervals and leaves Group out first when they do not all fit.
    for cols in [80, 60] {
        let text = in_terminal(&env, cols, &["show", "rca-wave-2", "--ci"], &[]);
        assert!(widest(&text) <= cols, "{text}");
        assert!(
            text.contains("25.0–100.0%") && text.contains("$0.55–$2.91"),
            "{text}"
        );
        assert!(
            !text.contains("95% CI,") && !text.contains("95% CI ("),
            "{text}"
        );
        if cols == 60 {
            assert!(
                text.replace('\n', " ").contains("Harness, Group, Missing"),
                "{text}"
            );
        }
    }
}

/// A new user's check (issue 31): at 60 columns `score --ci` left out Rank and its range and
/// kept the score's interval, so the leaderboard read without its ranks. The rank is what a
/// leaderboard is read for: the score's interval goes before the rank and its range.
#[test]
fn a_narrow_leaderboard_keeps_its_rank_before_the_scores_interval() {
    if !script_available() {
        return;
    }
    let env = examples();
    env.run(["rubric", "add", "rubrics/session-efficiency.v2.toml"])
        .status(0);
    let text = in_terminal(
        &env,
        60,
        &[
            "score",
            "--wave",
            "rca-wave-2",
            "--rubric",
            "session-efficiency@2",
            "--ci",
        ],
        &[],
    );
    assert!(widest(&text) <= 60, "{text}");
    let left_out = left_out(&text, 60);
    assert!(left_out.contains("Score 95% CI"), "{left_out}");
    assert!(
        !left_out.contains("Rank,") && !left_out.ends_with("Rank"),
        "{left_out}"
    );
    assert!(!left_out.contains("Rank range"), "{left_out}");
    // openai-hierarchical: rank 2, its range 2–4 (the demo's seed-0 intervals).
    assert!(text.contains("2–4"), "{text}");
}

/// A new user's check (issue 19): in an 80-column terminal `problems` left out the column of a
/// seat with a long model id (`azureai-…-405B-Instruct-jqf`) although the matrix was 51 columns
/// wide. A matrix is read by its seats: a seat's header breaks at its id's separators before
/// any seat goes.
#[test]
fn the_matrix_keeps_every_seat_breaking_a_long_id_at_its_separators() {
    if !script_available() {
        return;
    }
    let env = examples();
    // The Inspect fixture's log twice, the second for a model with a long id: one wave of two
    // seats.
    let logs = env.path().join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    let log =
        std::fs::read_to_string(common::tests_dir("fixtures/import/inspect/run.json")).unwrap();
    std::fs::write(logs.join("claude.json"), &log).unwrap();
    std::fs::write(
        logs.join("llama.json"),
        log.replace(
            "anthropic/claude-sonnet-4-5",
            "azureai/Meta-Llama-3-1-405B-Instruct-jqf",
        ),
    )
    .unwrap();
    env.run(["ingest", "--from", "inspect", logs.to_str().unwrap()])
        .ok();
    let text = in_terminal(&env, 80, &["problems", "arith-2026-05-01"], &[]);
    assert!(widest(&text) <= 80, "{text}");
    assert!(!text.contains("Left out"), "{text}");
    // Both seats' cells on every problem's row, and the long id whole, read down its header.
    for problem in ["1", "2", "q3"] {
        let row = text
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{problem} ")))
            .unwrap_or_else(|| panic!("no row {problem}:\n{text}"));
        assert_eq!(row.matches("fail").count(), 2, "{row}\n{text}");
    }
    let header: String = text
        .lines()
        .skip_while(|l| !l.contains("Problem"))
        .take_while(|l| !l.starts_with('─'))
        .filter_map(|l| l.split_whitespace().last())
        .collect();
    assert_eq!(header, "azureai-Meta-Llama-3-1-405B-Instruct-jqf", "{text}");
}

/// A new user's check (issue 19): at 80 columns headers and ids broke mid-word (`Gro` over
/// `up`, `anthropic-c` over `laude-sonne`). Every table the terminal prints breaks a header or
/// an id only at its own separators, at 80 columns and narrower, and leaves a column out
/// rather than cut a word.
#[test]
fn no_table_cuts_a_header_or_an_id_inside_a_word() {
    if !script_available() {
        return;
    }
    let env = examples_and_a_long_id();
    let wave = "arith-2026-05-01";
    let commands: Vec<Vec<&str>> = vec![
        vec!["score", "--wave", wave, "--rubric", "accuracy@1", "--ci"],
        vec!["score", "--wave", wave, "--rubric", "accuracy@1"],
        vec![
            "score",
            "--wave",
            "rca-wave-2",
            "--rubric",
            "session-efficiency@2",
            "--ci",
        ],
        vec!["show", wave, "--ci"],
        vec!["show", "rca-wave-1"],
        vec!["waves"],
        vec!["diff", "session-efficiency@1", "session-efficiency@2"],
        vec!["history", "--rubric", "session-efficiency@2"],
        vec!["problems", wave],
        vec!["problems", "rca-wave-1"],
        vec!["problems", "--regressions", "rca-wave-1", "rca-wave-2"],
        vec!["trials", wave],
        vec!["versus", "--wave", "rca-wave-2", "--all"],
        vec![
            "compare",
            "--seat",
            "xai-hierarchical",
            "rca-wave-1",
            "rca-wave-2",
        ],
        vec!["rubric", "list"],
    ];
    for args in &commands {
        let mut wide_args = args.clone();
        wide_args.push("--wide");
        let wide = in_terminal(&env, 80, &wide_args, &[]);
        for cols in [80, 60] {
            let text = in_terminal(&env, cols, args, &[]);
            let what = format!("{} at {cols} columns", args.join(" "));
            assert!(widest(&text) <= cols, "`{what}`:\n{text}");
            assert_no_word_cut(&text, &wide, &what);
        }
    }
}
