//! Commands run in the test process (`common::run_in_process`, what `Env::run` uses from the
//! crate root) print, fail and exit exactly as the binary does: the same stdout, the same
//! stderr, the same status, for listings, a failed check and bad input alike. If they ever
//! drift, every in-process test would be testing something the user does not run.

mod common;

use std::ffi::OsString;

use common::{Env, crate_root, run_in_process, run_raw};

#[test]
fn in_process_and_the_binary_print_and_exit_alike() {
    let env = Env::with_waves(&[
        "examples/checkout-rematch/wave.toml",
        "examples/rca-wave-1/wave.toml",
    ]);
    env.run(["rubric", "add", "rubrics/session-efficiency.v2.toml"])
        .ok();
    let runs: &[&[&str]] = &[
        &["waves"],
        &["show", "checkout-rematch", "--format", "json"],
        &[
            "score",
            "--wave",
            "rca-wave-1",
            "--rubric",
            "session-efficiency@2",
            "--format",
            "md",
        ],
        &[
            "score",
            "--wave",
            "rca-wave-1",
            "--rubric",
            "session-efficiency@9",
        ],
        &["show", "no-such-wave"],
        &["rubric", "check", "rubrics/session-efficiency.v1.toml"],
        &["verify", "--ledger"],
    ];
    let mut statuses = Vec::new();
    for args in runs {
        let mut all: Vec<OsString> = vec!["--db".into(), env.db.clone().into()];
        all.extend(args.iter().map(OsString::from));
        let inside = run_in_process(&all).expect("the arguments parse");
        let spawned = run_raw(crate_root(), &all, &[]);
        assert_eq!(
            (inside.status, &inside.stdout, &inside.stderr),
            (spawned.status, &spawned.stdout, &spawned.stderr),
            "benchledger {}",
            args.join(" ")
        );
        statuses.push(inside.status);
    }
    // The runs cover success, a failed check and bad input.
    assert!(
        statuses.contains(&0) && statuses.contains(&1) && statuses.contains(&2),
        "{statuses:?}"
    );
    // A command line that does not parse is left to the binary (clap prints its usage).
    assert!(run_in_process(&["--no-such-flag"]).is_none());
}
