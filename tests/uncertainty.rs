//! Intervals that reproduce, through the CLI: `show`, `score` and `publish` with `--ci` on the
//! close-call fixture (tests/fixtures/uncertainty/wave.toml: four seats on ten problems, three
//! of them too close for ten problems to order, worked out by hand in its manifest). The
//! leaderboard prints rank ranges and marks the seats not separable from the leader; the same
//! seed gives the same bytes from another process and another seed other intervals; a
//! publication made with intervals records how they were drawn and verifies byte for byte, and
//! an edited setting is named.

mod common;

use std::path::Path;

use common::{Env, snapshot_settings, tests_dir};
use serde_json::{Value, json};

const WAVE: &str = "close-call";
const RUBRIC: &str = "rubrics/session-efficiency.v2.toml";

fn close_call() -> Env {
    let env = Env::init().run_from_crate_root();
    env.ingest(&[&tests_dir("fixtures/uncertainty/wave.toml")]);
    env
}

fn snapshot(name: &str, text: &str) {
    snapshot_settings().bind(|| insta::assert_snapshot!(name, text));
}

fn seat<'a>(json: &'a Value, id: &str) -> &'a Value {
    json["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .find(|s| s["seat"] == id)
        .unwrap_or_else(|| panic!("no seat {id} in {json}"))
}

fn bounds(v: &Value) -> (f64, f64) {
    (v[0].as_f64().expect("lo"), v[1].as_f64().expect("hi"))
}

#[test]
fn score_with_ci_prints_rank_ranges_and_marks_the_seats_not_separable_from_the_leader() {
    let env = close_call();
    let table = env
        .run(["score", "--wave", WAVE, "--rubric", RUBRIC, "--ci"])
        .ok()
        .stdout;
    snapshot("uncertainty__score_ci_table", &table);
    let json = env
        .run([
            "score", "--wave", WAVE, "--rubric", RUBRIC, "--ci", "--format", "json",
        ])
        .ok()
        .json();
    // 20 problems: the intervals carry a caution, in the JSON as in the text.
    let warnings = json["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0]
            .as_str()
            .unwrap()
            .starts_with("intervals over only 20 problems (fewer than 30)"),
        "{warnings:?}"
    );
    assert_eq!(
        json["interval"],
        json!({
            "method": "percentile bootstrap over problems, from per-problem sums",
            "generator": "chacha20",
            "level": 0.95,
            "resamples": 2000,
            "seed": 0
        })
    );
    // The leader, alpha: 8/10, score 80 (every factor capped at 1).
    let alpha = seat(&json, "alpha");
    assert_eq!((&alpha["rank"], &alpha["score"]), (&json!(1), &json!(80.0)));
    assert_eq!(alpha["separable_from_leader"], Value::Null);
    let (lo, hi) = bounds(&alpha["accuracy_ci"]);
    assert!(lo < 0.8 && 0.8 < hi, "{lo} {hi}");
    let (lo, hi) = bounds(&alpha["score_ci"]);
    assert!(lo < 80.0 && 80.0 <= hi, "{lo} {hi}");
    // $4.00 over 8 Correct.
    let (lo, hi) = bounds(&alpha["cost_of_pass_ci"]);
    assert!(lo <= 0.5 && 0.5 <= hi, "{lo} {hi}");
    assert_eq!(alpha["rank_range"][0], 1);
    // beta (75%) and gamma (70%) cannot be told apart from alpha on ten problems.
    for id in ["beta", "gamma"] {
        let s = seat(&json, id);
        assert_eq!(s["separable_from_leader"], false, "{id}: {s}");
        let range = &s["rank_range"];
        assert!(
            range[0].as_u64().unwrap() <= alpha["rank_range"][1].as_u64().unwrap(),
            "{id}: {range}"
        );
        assert_eq!(s["ci_resamples"]["rank"], 2000);
    }
    // Every interval is in the CSV, unrounded.
    let csv = env
        .run([
            "score", "--wave", WAVE, "--rubric", RUBRIC, "--ci", "--format", "csv",
        ])
        .ok()
        .stdout;
    let header = csv.lines().next().unwrap();
    for key in [
        "accuracy_ci_lo",
        "accuracy_ci_hi",
        "cost_of_pass_ci_lo",
        "score_ci_hi",
        "rank_range_lo",
        "rank_range_hi",
        "separable_from_leader",
    ] {
        assert!(header.split(',').any(|k| k == key), "{key}: {header}");
    }
}

#[test]
fn without_ci_a_leaderboard_is_what_it_was() {
    let env = close_call();
    let json = env
        .run([
            "score", "--wave", WAVE, "--rubric", RUBRIC, "--format", "json",
        ])
        .ok()
        .json();
    assert!(json.get("interval").is_none());
    let alpha = seat(&json, "alpha");
    for key in [
        "accuracy_ci",
        "rank_range",
        "separable_from_leader",
        "score_ci",
    ] {
        assert!(alpha.get(key).is_none(), "{key}: {alpha}");
    }
    let table = env
        .run(["score", "--wave", WAVE, "--rubric", RUBRIC])
        .ok()
        .stdout;
    assert!(
        !table.contains("CI") && !table.contains("Rank range"),
        "{table}"
    );
}

#[test]
fn show_with_ci_gives_accuracy_and_cost_of_pass_their_intervals() {
    let env = close_call();
    let md = env
        .run(["show", WAVE, "--ci", "90", "--format", "md"])
        .ok()
        .stdout;
    snapshot("uncertainty__show_ci_md", &md);
    let json = env
        .run(["show", WAVE, "--ci", "--format", "json"])
        .ok()
        .json();
    let gamma = seat(&json, "gamma");
    // 7/10 with q10 missing: the missing problem is resampled as a failure.
    let (lo, hi) = bounds(&gamma["accuracy_ci"]);
    assert!(lo < 0.7 && 0.7 < hi && hi < 1.0, "{lo} {hi}");
    assert_eq!(gamma["ci_resamples"]["accuracy"], 2000);
    assert!(gamma.get("rank_range").is_none());
}

#[test]
fn the_same_seed_gives_the_same_bytes_in_another_process_and_another_seed_other_intervals() {
    let env = close_call();
    let args = |seed: &'static str| {
        [
            "score", "--wave", WAVE, "--rubric", RUBRIC, "--ci", "--seed", seed, "--format", "json",
        ]
    };
    let first = env.run(args("11")).ok();
    let second = env.run(args("11")).ok();
    assert_eq!(first.stdout, second.stdout);
    let other = env.run(args("12")).ok().json();
    let first = first.json();
    assert_eq!(first["interval"]["seed"], 11);
    assert_eq!(other["interval"]["seed"], 12);
    let intervals = |j: &Value| -> Vec<Value> {
        j["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| json!([s["accuracy_ci"], s["cost_of_pass_ci"], s["score_ci"]]))
            .collect()
    };
    assert_ne!(intervals(&first), intervals(&other));
    // The point figures do not move with the seed.
    assert_eq!(seat(&first, "beta")["score"], seat(&other, "beta")["score"]);
}

#[test]
fn interval_flags_are_checked() {
    let env = close_call();
    for (args, says) in [
        (
            vec!["score", "--wave", WAVE, "--rubric", RUBRIC, "--seed", "3"],
            "--seed 3: sets how intervals are drawn, and none is asked for; give --ci too",
        ),
        (
            vec!["show", WAVE, "--resamples", "500"],
            "--resamples 500: sets how intervals are drawn",
        ),
        (vec!["show", WAVE, "--ci", "120"], "--ci 120"),
        (
            vec![
                "score",
                "--wave",
                WAVE,
                "--rubric",
                RUBRIC,
                "--ci",
                "--resamples",
                "10",
            ],
            "--resamples 10",
        ),
    ] {
        let out = env.run(&args).status(2);
        assert!(out.stderr.contains(says), "{args:?}: {out:#?}");
    }
}

fn registered() -> Env {
    let env = close_call();
    env.run(["rubric", "add", RUBRIC]).ok();
    env
}

fn publish_ci(env: &Env) -> String {
    env.run([
        "publish",
        "--wave",
        WAVE,
        "--rubric",
        "session-efficiency@2",
        "--title",
        "A close call",
        "--ci",
        "--seed",
        "3",
    ])
    .ok()
    .stdout
}

#[test]
fn a_publication_with_intervals_records_them_and_verifies_byte_for_byte() {
    let env = registered();
    let text = publish_ci(&env);
    snapshot("uncertainty__publish_ci", &text);
    let input: String = stored(&env.db, "input");
    assert!(
        input.contains(
            r#""ci":{"method":"percentile bootstrap over problems, from per-problem sums","generator":"chacha20","level":0.95,"resamples":2000,"seed":3}"#
        ),
        "{}",
        &input[..300]
    );
    let out = env.run(["verify", "--all"]).ok();
    assert!(
        out.stdout.contains("1 of 1 publication reproduces"),
        "{}",
        out.stdout
    );
    // And from a bundle, on another machine.
    let dir = env.path().join("bundle");
    env.run(["bundle", "1", "--out", dir.to_str().unwrap()])
        .ok();
    let out = env.run(["verify", "--bundle", dir.to_str().unwrap()]).ok();
    assert!(
        out.stdout.contains("OK — reproduces byte for byte"),
        "{}",
        out.stdout
    );
}

/// A column of the one publication, as stored (in the ledger on either store, or a bundle's).
fn stored(db: &Path, column: &str) -> String {
    match common::Shell::at(db)
        .rows(&format!("SELECT {column} FROM publication"))
        .as_slice()
    {
        [row] => match &row[0] {
            common::Cell::Text(t) => t.clone(),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_edited_interval_setting_is_named_by_verify() {
    let env = registered();
    publish_ci(&env);
    env.tamper(
        r#"DROP TRIGGER publication_no_update;
           UPDATE publication SET input = replace(input, '"seed":3', '"seed":4');"#,
    );
    let out = env.run(["verify", "--all"]).status(1);
    assert!(
        out.stdout
            .contains("the stored input was edited: it no longer matches its digest"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("seed 3") && out.stdout.contains("seed 4"),
        "{}",
        out.stdout
    );
    snapshot("uncertainty__verify_edited_seed", &out.stdout);
}

/// `suite_problems` had no cap (issue "Trust, round two"): a wave declaring 4,000,000,000
/// problems ingested, then `show --ci`, `score --ci` and `compare` aborted allocating 32 GB,
/// and 9223372036854775807 panicked ("capacity overflow"). Ingest refuses such a number now
/// (tests/ingest.rs); a ledger written before it did, which may hold one, gets a clear error
/// naming the wave from every command that would draw its problems, and nothing is written.
#[test]
fn suite_problems_has_no_cap_in_a_ledger_written_before_it() {
    let env = Env::init();
    let base = tests_dir("fixtures/base/wave.toml");
    let dir = env.path().join("again");
    common::copy_dir(&tests_dir("fixtures/base"), &dir);
    let again = dir.join("wave.toml");
    let text = std::fs::read_to_string(&again).unwrap();
    std::fs::write(&again, text.replace("id = \"base\"", "id = \"again\"")).unwrap();
    env.ingest(&[&base, &again]);
    env.run([
        std::ffi::OsStr::new("rubric"),
        "add".as_ref(),
        common::crate_path(RUBRIC).as_os_str(),
    ])
    .ok();
    let rubric = "session-efficiency@2";
    env.tamper("DROP TRIGGER wave_no_update");
    let site = env.path().join("site");
    let site = site.to_str().unwrap();
    for n in ["4000000000", "9223372036854775807"] {
        // As a build before the cap wrote it.
        env.tamper(&format!(
            "UPDATE wave SET suite_problems = {n} WHERE slug = 'base'"
        ));
        let before = env.ledger_bytes();
        for args in [
            &["show", "base", "--ci"][..],
            &["score", "--wave", "base", "--rubric", rubric, "--ci"],
            &["compare", "--seat", "s1", "base", "again"],
            &["publish", "--wave", "base", "--rubric", rubric, "--ci"],
            &["site", "--out", site, "--ci"],
        ] {
            let out = env.run_guarded(args, std::time::Duration::from_secs(60));
            assert_eq!(out.status, 2, "{n} {args:?}: {out:#?}");
            // `publish` says first what it could not do.
            let message = format!(
                "wave `base` declares {n} problems in its suite (`suite_problems`), more than \
                 the 1,000,000 benchledger draws intervals and comparisons over (the wave was \
                 ingested before that limit): they cannot be drawn for it. Its listings without \
                 intervals still can; to draw them, ingest the wave again under a new id with \
                 its suite's real size\n"
            );
            assert!(
                out.stderr.starts_with("error: ") && out.stderr.ends_with(&message),
                "{args:?}: {}",
                out.stderr
            );
            assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
            assert!(out.stdout.is_empty(), "{args:?}: {}", out.stdout);
            assert_eq!(env.ledger_bytes(), before, "{args:?} changed the ledger");
        }
        assert!(!Path::new(site).exists(), "site --ci wrote a site");
        // `site` draws intervals by default, not on request: it shows that wave without them
        // and the other with them.
        let drawn = env.path().join(format!("site-{n}"));
        env.run([
            "site",
            "--out",
            drawn.to_str().unwrap(),
            "--resamples",
            "100",
        ])
        .status(2);
        env.run(["site", "--out", drawn.to_str().unwrap()]).ok();
        let page = |w: &str| std::fs::read_to_string(drawn.join(format!("waves/{w}.html")));
        // (A wave of one seat has no rank range on the site: its score's interval says so.)
        assert!(!page("base").unwrap().contains(">Score 95% CI<"));
        assert!(page("again").unwrap().contains(">Score 95% CI<"));
        // Without intervals the wave is listed as before: its declared problems counted, never
        // drawn.
        let show = env.run(["show", "base", "--format", "json"]).ok().json();
        assert_eq!(show["suite_problems"].to_string(), n, "{show}");
    }
}

#[test]
fn versus_all_prints_every_pair_and_the_tie_groups() {
    let env = close_call();
    let table = env.run(["versus", "--wave", WAVE, "--all"]).ok().stdout;
    snapshot("uncertainty__versus_all", &table);
    let json = env
        .run(["versus", "--wave", WAVE, "--all", "--format", "json"])
        .ok()
        .json();
    let seats = json["seats"].as_array().unwrap();
    let pairs = json["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), seats.len() * (seats.len() - 1) / 2);
    // Two seats share a letter exactly when their pair is not separable.
    for p in pairs {
        let (a, b) = (p["a"].as_str().unwrap(), p["b"].as_str().unwrap());
        let (la, lb) = (
            json["groups"][a].as_str().unwrap(),
            json["groups"][b].as_str().unwrap(),
        );
        let share = la.chars().any(|c| lb.contains(c));
        assert_eq!(share, p["separable"] == false, "{p}");
    }
}

/// The tie-group letters of `score --ci`, `show --ci` and `versus --all`, worked out by hand on
/// a wave of four seats over 40 problems, one trial each, each seat solving the first n
/// problems: top n = 38, second 34, third 30, last 10.
///
/// Solved sets are nested, so for a pair k = n_a − n_b apart every d_p is 1 (k problems) or 0:
/// d̄ = k/40, Σ (d − d̄)² = k (1 − k/40)² + (40 − k)(k/40)² = k (1 − k/40), se = sqrt(k (1 −
/// k/40)) / 40 and z = d̄ / se = sqrt(k / (1 − k/40)).
/// - top–second and second–third, k = 4: z = sqrt(4 / 0.9) = 2.108, p = 0.0350;
/// - top–third, k = 8: z = sqrt(8 / 0.8) = √10 = 3.162, p = 0.00157;
/// - each with last, k = 20, 24, 28: z ≥ sqrt(20 / 0.5) = 6.32, p < 1e-9.
///
/// Holm over 6 pairs: the three with last ×6, ×5, ×4 (still < 1e-8), top–third ×3 = 0.0047
/// (separable), then the two at 0.0350 ×2 = 0.070 and ×1, held at 0.070 (not separable). So
/// top and second tie, second and third tie, top and third are apart, and last is apart from
/// all: top `a`, second `ab`, third `b`, last `c`.
#[test]
fn tie_group_letters_by_hand_in_score_show_and_versus_all() {
    let env = Env::init().run_from_crate_root();
    let solved = [("top", 38), ("second", 34), ("third", 30), ("last", 10)];
    let mut manifest = "[wave]\nid = \"letters\"\nsuite = \"s\"\nstarted_at = \
                        2026-01-01T00:00:00Z\nsuite_problems_file = \"problems.txt\"\n\n\
                        [wave.accounting]\ninput_tokens_include_cache_reads = true\n"
        .to_string();
    let mut files = Vec::new();
    for (seat, n) in solved {
        manifest.push_str(&format!(
            "\n[[seat]]\nid = \"{seat}\"\nmodel = \"m-{seat}\"\nprovider = \"p\"\nharness = \
             \"h\"\nresults = \"{seat}.jsonl\"\n"
        ));
        let lines: String = (1..=40)
            .map(|p| {
                format!(
                    "{{\"problem\": \"p{p:02}\", \"attempt\": 1, \"correct\": {}}}\n",
                    p <= n
                )
            })
            .collect();
        files.push((format!("{seat}.jsonl"), lines));
    }
    let problems: String = (1..=40).map(|p| format!("p{p:02}\n")).collect();
    files.push(("problems.txt".to_string(), problems));
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, c)| (n.as_str(), c.as_str()))
        .collect();
    let path = common::write_wave(&env.path().join("letters"), &manifest, &files);
    env.ingest(&[&path]);
    let want = json!({"top": "a", "second": "ab", "third": "b", "last": "c"});

    let all = env
        .run(["versus", "--wave", "letters", "--all", "--format", "json"])
        .ok()
        .json();
    assert_eq!(all["groups"], want, "{all}");
    let p_holm = |a: &str, b: &str| {
        all["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["a"] == a && p["b"] == b)
            .unwrap_or_else(|| panic!("no pair {a} {b}"))["p_holm"]
            .as_f64()
            .unwrap()
    };
    // p for z = √10: erfc(√5) = 0.001565402258..., times 3.
    assert!((p_holm("top", "third") / (3.0 * 0.001_565_402_258) - 1.0).abs() < 1e-6);
    assert!((p_holm("top", "second") - 0.070).abs() < 5e-4);
    assert_eq!(p_holm("top", "second"), p_holm("second", "third"));

    let rubric = "rubrics/accuracy.v1.toml";
    let score = env
        .run([
            "score", "--wave", "letters", "--rubric", rubric, "--ci", "--format", "json",
        ])
        .ok()
        .json();
    let show = env
        .run(["show", "letters", "--ci", "--format", "json"])
        .ok()
        .json();
    for listing in [&score, &show] {
        assert_eq!(listing["groups"], want, "{listing}");
        assert_eq!(listing["groups_alpha"], 0.05);
        for (seat, letters) in want.as_object().unwrap() {
            assert_eq!(&self::seat(listing, seat)["group"], letters);
        }
    }
    let table = env
        .run(["score", "--wave", "letters", "--rubric", rubric, "--ci"])
        .ok()
        .stdout;
    snapshot("uncertainty__score_ci_groups", &table);
    // Without --ci no letters: the listing is as it was.
    let plain = env
        .run([
            "score", "--wave", "letters", "--rubric", rubric, "--format", "json",
        ])
        .ok()
        .json();
    assert!(plain.get("groups").is_none() && seat(&plain, "top").get("group").is_none());
    // A publication with intervals carries no letters: its text is the frozen layout's.
    env.run(["rubric", "add", rubric]).ok();
    env.run([
        "publish",
        "--wave",
        "letters",
        "--rubric",
        "accuracy@1",
        "--ci",
    ])
    .ok();
    let text = stored(&env.db, "output");
    assert!(
        text.contains("Rank range") && !text.contains("Group"),
        "{text}"
    );
    env.run(["verify", "--all"]).ok();
}
