//! Properties of the rubric interpreter and its scale proof, over arbitrary valid waves.
//!
//! Waves are generated directly as `model::WaveData`: 1–6 seats of 0–8 attempts, every optional
//! figure sometimes unknown, zeros everywhere (zero tokens, zero wall seconds, nothing Correct,
//! zero cost), budgets present or absent, a declared suite or none, canary problems or none,
//! traces or none. For every
//! shipped rubric, and every rubric of `tests/fixtures/rubrics/` (among them one that charges a
//! mean per attempt and breaks ties on another):
//!
//! - a rubric that passes `rubric check` never scores outside its declared scale;
//! - the range `rubric check` proves contains every score actually produced (v1 and the
//!   cohort-relative rubric included);
//! - no score and no factor is ever NaN or infinite, and every seat has a score, a failed gate
//!   or a note saying why it has none;
//! - scoring is deterministic, bit for bit;
//! - no renderer ever prints "NaN" or "inf".
//!
//! The last two properties go beyond the shipped rubrics: for any rubric the language can express
//! (generated directly as a `Rubric`, from every measure — the means per attempt included — in
//! factors, penalties, gates and tie-breaks), no NaN or infinity escapes, and the range `rubric
//! check` proves holds every score.
//!
//! Scoring a wave held whole (`score_wave`) and scoring it as `rescore` streams it — each seat's
//! running totals fed one attempt at a time, with only the fields the rubric reads — give the
//! same scores, bit for bit, for the shipped rubrics and for any rubric; and so does the same
//! wave written to a ledger and streamed back out of it.
//!
//! `edge_cases_have_defined_results` pins what each shipped rubric makes of zero tokens, zero
//! wall seconds, zero Correct and unknown cost.

mod common;

use std::path::Path;
use std::sync::OnceLock;

use benchledger::cli::Format;
use benchledger_core::figures::{FigureTally, SeatFigures};
use benchledger_core::formats::tally;
use benchledger_core::ledger::Ledger;
use benchledger_core::model::{
    Accounting, Attempt, Budget, Load, Provenance, Seat, SeatData, SuiteProblems, TraceStep, Wave,
    WaveData,
};
use benchledger_core::report::score::{RubricInfo, leaderboard};
use benchledger_core::rubric::measure::{ALLOWANCES, MEASURES, Measure};
use benchledger_core::rubric::spec::{Factor, Gate, Penalty, Per, Role, Scale, Transform};
use benchledger_core::rubric::{
    CheckReport, Rubric, Scorer, SeatTally, WaveScores, check, parse, score_wave,
};
use proptest::prelude::*;

const TOL: f64 = 1e-9;

#[derive(Clone)]
struct Shipped {
    file: String,
    rubric: Rubric,
    report: CheckReport,
}

/// Every rubric file in `dir` (of the crate), parsed and checked, by file name.
fn load(dir: &str) -> Vec<Shipped> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir:?}: {e}"))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).expect("read rubric");
            let rubric = parse(p, &text).expect("the rubric parses");
            let report = check(&rubric);
            Shipped {
                file: p.file_name().unwrap().to_string_lossy().into_owned(),
                rubric,
                report,
            }
        })
        .collect()
}

/// Every rubric in `rubrics/`, parsed and checked, by file name.
fn shipped() -> &'static [Shipped] {
    static SHIPPED: OnceLock<Vec<Shipped>> = OnceLock::new();
    SHIPPED.get_or_init(|| {
        let all = load("rubrics");
        // The properties below are only as good as the rubrics they cover.
        assert!(all.len() >= 7, "expected the shipped rubrics in rubrics/");
        assert!(all.iter().any(|s| s.rubric.relative));
        assert!(all.iter().any(|s| !s.report.ok()));
        all
    })
}

/// What the properties cover: the shipped rubrics, and the rubrics of
/// `tests/fixtures/rubrics/` (the fifth rubric written from the docs alone; a penalty on a
/// mean per attempt, with a tie-break on another).
fn covered() -> &'static [Shipped] {
    static COVERED: OnceLock<Vec<Shipped>> = OnceLock::new();
    COVERED.get_or_init(|| {
        let fixtures = load("tests/fixtures/rubrics");
        let reads_a_mean = |s: &Shipped| {
            let r = &s.rubric;
            r.penalties.iter().map(|p| p.measure).any(is_mean)
                && r.tie_break.iter().map(|t| t.measure).any(is_mean)
        };
        assert!(fixtures.iter().any(reads_a_mean), "a fixture reads means");
        shipped().iter().cloned().chain(fixtures).collect()
    })
}

fn is_mean(m: Measure) -> bool {
    matches!(m, Measure::Mean(_))
}

// ---------------------------------------------------------------------------------------------
// Generators

const PROBLEMS: [&str; 6] = ["p1", "p2", "p3", "p4", "p5", "p6"];
const TOOLS: [&str; 3] = ["search", "fetch", "write"];

/// An unknown (when the seat leaves figures out), a zero, or something in range — zeros much
/// more often than chance.
fn count(max: u64, unknowns: bool) -> impl Strategy<Value = Option<u64>> {
    prop_oneof![
        if unknowns { 2 } else { 0 } => Just(None),
        3 => Just(Some(0)),
        1 => Just(Some(1)),
        4 => (0..=max).prop_map(Some),
    ]
}

fn amount(max: f64, unknowns: bool) -> impl Strategy<Value = Option<f64>> {
    prop_oneof![
        if unknowns { 2 } else { 0 } => Just(None),
        3 => Just(Some(0.0)),
        1 => (0.0..1e-3f64).prop_map(Some),
        4 => (0.0..=max).prop_map(Some),
    ]
}

fn trace() -> impl Strategy<Value = Option<Vec<TraceStep>>> {
    let step = (
        prop::sample::select(&TOOLS[..]),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(tool, ok, fail_often)| {
            let ok = ok && !fail_often;
            TraceStep {
                tool: tool.to_string(),
                ok,
                error: (!ok).then(|| "timeout".to_string()),
            }
        });
    prop_oneof![
        2 => Just(None),
        1 => prop::collection::vec(step, 0..14).prop_map(Some),
    ]
}

/// One attempt. With `unknowns`, any figure may be missing from the result; without, every
/// figure is reported (a seat with one unknown figure is undefined under a rubric that reads
/// it, so most seats report everything, or the scale properties would rarely see a score).
fn attempt(unknowns: bool) -> impl Strategy<Value = Attempt> {
    (
        (
            prop::sample::select(&PROBLEMS[..]),
            1u32..=3,
            prop::bool::weighted(0.65),
            prop_oneof![
                2 => Just(None),
                1 => Just(Some(0.0)),
                1 => Just(Some(1.0)),
                2 => (0.0..=1.0f64).prop_map(Some),
            ],
        ),
        (
            count(3_000_000, unknowns),
            count(500_000, unknowns),
            count(2_000_000, true),
            count(200_000, true),
        ),
        (amount(2_000.0, unknowns), amount(20.0, unknowns)),
        (count(40, unknowns), count(20, unknowns), trace()),
    )
        .prop_map(
            |(
                (problem, trial, correct, outcome),
                (input, output, read, write),
                (wall_s, cost_usd),
                (steps, errors, trace),
            )| {
                // When a trace is present, steps and errors derive from it (as ingest makes
                // them); otherwise they are reported or unknown.
                let (steps, errors) = match &trace {
                    Some(t) => (
                        Some(t.len() as u32),
                        Some(t.iter().filter(|s| !s.ok).count() as u32),
                    ),
                    None => (steps.map(|v| v as u32), errors.map(|v| v as u32)),
                };
                Attempt {
                    problem: problem.to_string(),
                    trial,
                    correct,
                    outcome,
                    input_tokens: input,
                    output_tokens: output,
                    input_tokens_cache_read: read,
                    input_tokens_cache_write: write,
                    wall_s,
                    cost_usd,
                    steps,
                    errors,
                    checklist: None,
                    trace,
                    working_s: None,
                    infra_error: false,
                    end_reason: None,
                    origin: None,
                    texts: None,
                }
            },
        )
}

fn seat(i: usize) -> impl Strategy<Value = SeatData> {
    prop::bool::weighted(0.3)
        .prop_flat_map(|unknowns| prop::collection::vec(attempt(unknowns), 0..=8))
        .prop_map(move |attempts| {
            // One attempt per (problem, trial), in ledger order.
            let mut attempts: Vec<Attempt> = attempts;
            attempts.sort_by(|a, b| (&a.problem, a.trial).cmp(&(&b.problem, b.trial)));
            attempts.dedup_by(|a, b| a.problem == b.problem && a.trial == b.trial);
            SeatData {
                seat: Seat {
                    id: format!("seat-{i}"),
                    model: format!("model-{i}"),
                    provider: "provider".into(),
                    harness: if i.is_multiple_of(2) {
                        "single-agent-react".into()
                    } else {
                        "hierarchical-reactree".into()
                    },
                    config: None,
                    display_name: None,
                },
                attempts,
            }
        })
}

fn allowance(max: f64) -> impl Strategy<Value = Option<f64>> {
    prop_oneof![
        1 => Just(None),
        5 => (1e-3..=max).prop_map(Some),
    ]
}

fn wave() -> impl Strategy<Value = WaveData> {
    let suite = prop_oneof![
        2 => Just(None),
        1 => (1u64..=10).prop_map(|n| Some(SuiteProblems::Count(n))),
        1 => prop::sample::subsequence(&PROBLEMS[..], 1..=PROBLEMS.len())
            .prop_map(|ids| Some(SuiteProblems::Ids(ids.iter().map(|s| s.to_string()).collect()))),
    ];
    let budget = (allowance(2_000_000.0), allowance(600.0), allowance(5.0)).prop_map(
        |(tokens, wall_s, cost_usd)| Budget {
            tokens,
            wall_s,
            cost_usd,
        },
    );
    let seats = (1usize..=6).prop_flat_map(|n| (0..n).map(seat).collect::<Vec<_>>());
    // Canary problems: none, or some of the problems (of the declared ones, when the suite
    // declares its ids, as a manifest must).
    let canaries = prop_oneof![
        1 => Just(Vec::new()),
        1 => prop::sample::subsequence(&PROBLEMS[..], 1..=3),
    ];
    (suite, budget, any::<bool>(), seats, canaries).prop_map(
        |(suite_problems, budget, cache_in, seats, canaries)| {
            let canary_problems = canaries
                .iter()
                .filter(|c| match &suite_problems {
                    Some(SuiteProblems::Ids(ids)) => ids.iter().any(|id| id == *c),
                    _ => true,
                })
                .map(|c| c.to_string())
                .collect();
            WaveData {
                wave: Wave {
                    id: "generated".into(),
                    suite: "suite".into(),
                    started_at: "2026-01-01T00:00:00Z".into(),
                    notes: None,
                    suite_problems,
                    load: Load::default(),
                    accounting: Accounting {
                        input_tokens_include_cache_reads: cache_in,
                        price_source: None,
                    },
                    budget,
                    provenance: Provenance::default(),
                    supersedes: None,
                    canary_problems,
                },
                seats,
            }
        },
    )
}

// ---------------------------------------------------------------------------------------------
// Checks shared by the properties

fn info(s: &Shipped) -> RubricInfo {
    RubricInfo {
        rubric: s.rubric.clone(),
        sha256: "0123456789abcdef".repeat(4),
        scale_violation: !s.report.ok(),
        registered: false,
    }
}

/// Every number of a scoring, as bits, so that "the same" means bit-identical (NaN included).
fn fingerprint(w: &WaveScores) -> Vec<String> {
    w.seats
        .iter()
        .map(|s| {
            let factors: Vec<String> = s
                .factors
                .iter()
                .map(|(k, v)| format!("{k}={:016x}", v.to_bits()))
                .collect();
            format!(
                "{} {:?} {:?} {:?} {:?} {:?} [{}]",
                s.seat,
                s.score.map(f64::to_bits),
                s.rank,
                s.gate,
                s.tie,
                s.note,
                factors.join(" ")
            )
        })
        .collect()
}

/// "NaN", "inf", "infinity" as a word anywhere in a rendering.
fn non_finite_text(s: &str) -> Option<&str> {
    if s.contains("NaN") {
        return Some("NaN");
    }
    s.split(|c: char| !c.is_ascii_alphanumeric())
        .find(|w| matches!(w.to_ascii_lowercase().as_str(), "inf" | "infinity" | "nan"))
}

fn seat_ids(w: &WaveData) -> Vec<String> {
    w.seats.iter().map(|s| s.seat.id.clone()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_rubric_that_passes_check_never_leaves_its_scale(data in wave()) {
        for s in covered().iter().filter(|s| s.report.ok()) {
            let scores = score_wave(&s.rubric, &data);
            prop_assert_eq!(scores.seats.len(), data.seats.len());
            let mut ids: Vec<String> = scores.seats.iter().map(|x| x.seat.clone()).collect();
            ids.sort();
            prop_assert_eq!(ids, seat_ids(&data));
            for seat in &scores.seats {
                let ctx = format!("{} {}: {:?}", s.file, seat.seat, seat);
                if let Some(x) = seat.score {
                    prop_assert!(x.is_finite(), "{}", ctx);
                    if let Some(min) = s.rubric.scale.min {
                        prop_assert!(x >= min - TOL, "below the scale: {}", ctx);
                    }
                    if let Some(max) = s.rubric.scale.max {
                        prop_assert!(x <= max + TOL, "above the scale: {}", ctx);
                    }
                }
            }
        }
    }

    #[test]
    fn every_seat_gets_a_finite_score_a_failed_gate_or_a_reason(data in wave()) {
        for s in covered() {
            let scores = score_wave(&s.rubric, &data);
            for seat in &scores.seats {
                let ctx = format!("{} {}: {:?}", s.file, seat.seat, seat);
                prop_assert!(
                    seat.score.is_some() || seat.note.is_some() || seat.gate.is_some(),
                    "no score and no reason: {}", ctx
                );
                if let Some(x) = seat.score {
                    prop_assert!(x.is_finite(), "{}", ctx);
                }
                for (name, v) in &seat.factors {
                    prop_assert!(v.is_finite(), "factor {} is {}: {}", name, v, ctx);
                }
                // A score and a reason for not having one never come together.
                prop_assert!(seat.score.is_none() || seat.note.is_none(), "{}", ctx);
                // A failed gate decides the score.
                if let Some(g) = &seat.gate {
                    let gate = s.rubric.gates.iter().find(|x| &x.name == g);
                    prop_assert!(gate.is_some(), "{}", ctx);
                    prop_assert_eq!(seat.score, Some(gate.unwrap().score), "{}", ctx);
                }
                // Ranked exactly when scored.
                prop_assert_eq!(seat.rank.is_some(), seat.score.is_some(), "{}", ctx);
            }
            // Scored seats come first, best first (scores equal but for rounding in either order,
            // as their tie-breaks say).
            let scored: Vec<f64> = scores.seats.iter().map_while(|x| x.score).collect();
            prop_assert!(scores.seats[scored.len()..].iter().all(|x| x.score.is_none()));
            prop_assert!(
                scored
                    .windows(2)
                    .all(|w| w[0] >= w[1] || benchledger_core::rubric::interpret::same_score(w[0], w[1])),
                "{:?}",
                scored
            );
        }
    }

    #[test]
    fn the_range_check_proves_contains_every_score_produced(data in wave()) {
        for s in covered() {
            let (lo, hi) = (s.report.range.lo.value, s.report.range.hi.value);
            let tol = |x: f64| TOL * x.abs().max(1.0);
            for seat in score_wave(&s.rubric, &data).seats {
                if let Some(x) = seat.score {
                    prop_assert!(
                        x >= lo - tol(lo) && x <= hi + tol(hi),
                        "{}: {} scores {}, outside the proven range [{}, {}]",
                        s.file, seat.seat, x, lo, hi
                    );
                }
            }
        }
    }

    #[test]
    fn scoring_is_deterministic_bit_for_bit(data in wave()) {
        let copy = data.clone();
        for s in covered() {
            let a = score_wave(&s.rubric, &data);
            let b = score_wave(&s.rubric, &copy);
            prop_assert_eq!(fingerprint(&a), fingerprint(&b), "{}", s.file);
        }
    }

    #[test]
    fn no_renderer_prints_nan_or_inf(data in wave()) {
        for s in covered() {
            let info = info(s);
            let scores = score_wave(&s.rubric, &data);
            let (table, json) = leaderboard(&data, &info, &scores);
            for format in [Format::Table, Format::Json, Format::Csv, Format::Md] {
                let text = benchledger::terminal::render(format, "score", &table, &json);
                prop_assert!(!text.is_empty());
                if let Some(word) = non_finite_text(&text) {
                    prop_assert!(false, "{} in {:?} prints {:?}:\n{}", s.file, format, word, text);
                }
                if format == Format::Json {
                    let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
                    let n = v["seats"].as_array().map_or(0, Vec::len);
                    prop_assert_eq!(n, data.seats.len());
                    // A JSON null score always comes with a reason.
                    for seat in v["seats"].as_array().unwrap() {
                        prop_assert!(!seat["score"].is_null() || !seat["note"].is_null());
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Any rubric the language can express

/// A factor as the parser could produce it: an allowance ratio always has a cap, a weight only
/// on a summed factor, floor ≤ cap, an exponent above 0, and a cohort ratio only per seat.
fn any_factor(i: usize, per: Per) -> impl Strategy<Value = Factor> {
    (
        (
            0..MEASURES.len(),
            // Linear factors (which can go negative) and cohort ratios most often.
            prop::sample::select(vec![0u8, 0, 1, 1, 2, 2, 2, 3, 3]),
            0..ALLOWANCES.len(),
        ),
        (-5.0..30.0f64, 0.0..0.5f64, 0u8..3, 0.0..2.0f64),
        (
            prop::option::of(-1.0..2.0f64),
            prop::option::of(0.0..3.0f64),
            prop::sample::select(vec![1.0, 1.0, 0.5, 2.0, 1.5]),
        ),
    )
        .prop_map(
            move |((m, t, a), (expected, slope, role, weight), (floor, cap, exponent))| {
                let measure = MEASURES[m].1;
                let transform = match t {
                    0 => Transform::Value,
                    1 => Transform::AllowanceRatio(ALLOWANCES[a].1),
                    2 => Transform::Linear { expected, slope },
                    _ if per == Per::Seat => Transform::CohortRatio,
                    _ => Transform::Value,
                };
                let role = [Role::Multiply, Role::Add, Role::Divide][role as usize];
                let cap = match transform {
                    Transform::AllowanceRatio(_) => Some(cap.unwrap_or(1.25)),
                    _ => cap,
                };
                let (floor, cap) = match (floor, cap) {
                    (Some(f), Some(c)) if f > c => (Some(c), Some(f)),
                    other => other,
                };
                Factor {
                    name: format!("f{i}"),
                    measure,
                    transform,
                    role,
                    weight: if role == Role::Multiply { 1.0 } else { weight },
                    floor,
                    cap,
                    exponent,
                    line: 1,
                }
            },
        )
}

fn any_rubric() -> impl Strategy<Value = Rubric> {
    let per = prop_oneof![Just(Per::Seat), Just(Per::Attempt)];
    per.prop_flat_map(|per| {
        let factors = (1usize..=4)
            .prop_flat_map(move |n| (0..n).map(|i| any_factor(i, per)).collect::<Vec<_>>());
        let penalty = (0..MEASURES.len(), 0.0..10.0f64, 0u32..3).prop_map(|(m, per_unit, free)| {
            let measure = MEASURES[m].1;
            Penalty {
                name: format!("p{m}"),
                measure,
                per_unit,
                free_retries: if MEASURES[m].1.base() == Measure::Errors {
                    free
                } else {
                    0
                },
                line: 1,
            }
        });
        let gate = (
            0..MEASURES.len(),
            prop::option::of(0..ALLOWANCES.len()),
            prop::option::of(0.0..2.0f64),
            prop::option::of(0.0..3.0f64),
            prop::sample::select(vec![0.0, -1.0, 50.0]),
        )
            .prop_map(|(m, a, min, max, score)| Gate {
                name: format!("g{m}"),
                measure: MEASURES[m].1,
                allowance: a.map(|a| ALLOWANCES[a].1),
                min: if min.is_none() && max.is_none() {
                    Some(0.5)
                } else {
                    min
                },
                max,
                score,
                line: 1,
            });
        (
            factors,
            prop::collection::vec(penalty, 0..=2),
            prop::collection::vec(gate, 0..=2),
            prop::sample::select(vec![1.0, 100.0, 0.5, -1.0]),
            (
                prop::option::of(-1.0..1.0f64),
                prop::option::of(0.0..200.0f64),
            ),
            prop::sample::select(vec![0.0, 0.5, 1.0]),
            prop::collection::vec((0..MEASURES.len(), any::<bool>()), 0..=2),
        )
            .prop_map(
                move |(factors, penalties, gates, multiplier, (cmin, cmax), missing, ties)| {
                    let tie_break = ties
                        .into_iter()
                        .map(
                            |(m, higher_first)| benchledger_core::rubric::spec::TieBreak {
                                measure: MEASURES[m].1,
                                higher_first,
                            },
                        )
                        .collect();
                    let (clamp_min, clamp_max) = match (cmin, cmax) {
                        (Some(lo), Some(hi)) if lo > hi => (Some(hi), Some(lo)),
                        other => other,
                    };
                    Rubric {
                        name: "generated".into(),
                        version: 1,
                        description: None,
                        relative: factors
                            .iter()
                            .any(|f| f.transform == Transform::CohortRatio),
                        scale: Scale {
                            min: Some(0.0),
                            max: Some(100.0),
                        },
                        per,
                        multiplier,
                        clamp_min,
                        clamp_max,
                        missing_score: if per == Per::Attempt { missing } else { 0.0 },
                        factors,
                        penalties,
                        gates,
                        tie_break,
                    }
                },
            )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn no_rubric_lets_a_nan_or_an_infinity_out(rubric in any_rubric(), data in wave()) {
        for seat in score_wave(&rubric, &data).seats {
            let ctx = format!("{rubric:?}\n{seat:?}");
            prop_assert!(
                seat.score.is_some() || seat.note.is_some() || seat.gate.is_some(),
                "{}", ctx
            );
            prop_assert!(seat.score.is_none_or(f64::is_finite), "{}", ctx);
            prop_assert!(seat.factors.values().all(|v| v.is_finite()), "{}", ctx);
        }
    }

    #[test]
    fn the_range_check_proves_holds_for_any_rubric(rubric in any_rubric(), data in wave()) {
        let report = check(&rubric);
        // A factor that can be negative under an exponent is rejected outright: its range is
        // not proven (its score is undefined or not monotone there).
        if report.violations.iter().any(|v| v.starts_with("factor ")) {
            return Ok(());
        }
        let (lo, hi) = (report.range.lo.value, report.range.hi.value);
        prop_assert!(lo <= hi, "{:?}", report.range);
        let tol = |x: f64| TOL * x.abs().max(1.0);
        for seat in score_wave(&rubric, &data).seats {
            if let Some(x) = seat.score {
                prop_assert!(
                    x >= lo - tol(lo) && x <= hi + tol(hi),
                    "{:?}\n{:?} scores {}, outside the proven range [{}, {}]",
                    rubric, seat, x, lo, hi
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Scoring from running totals, as `rescore` streams a wave out of the ledger

/// Every seat tallied one attempt at a time, each attempt with only the fields the rubric
/// reads, then scored from the tallies.
fn streamed(r: &Rubric, data: &WaveData) -> WaveScores {
    let mut scorer = Scorer::new(r, &data.wave);
    let fields = scorer.fields();
    let tally = |scorer: &Scorer| -> Vec<(Seat, SeatTally)> {
        data.seats
            .iter()
            .map(|s| {
                let mut t = scorer.tally();
                for a in &s.attempts {
                    scorer.add(&mut t, &fields.read(a));
                }
                (s.seat.clone(), t)
            })
            .collect()
    };
    if scorer.needs_medians_first() {
        let first = tally(&scorer);
        scorer.set_medians(first.iter().map(|(_, t)| t));
    }
    scorer.score(tally(&scorer))
}

/// The wave written to a fresh ledger and scored as `rescore` scores it: its attempts streamed
/// out of the ledger into each seat's tally, never held.
fn through_a_ledger(rubrics: &[&Rubric], data: &WaveData) -> Vec<WaveScores> {
    let mut ledger = Ledger::in_memory().expect("an in-memory ledger");
    ledger
        .add_waves(std::slice::from_ref(data), "2026-01-01T00:00:00Z")
        .expect("the generated wave is written");
    let wave = ledger
        .wave_conditions(&data.wave.id)
        .expect("its conditions");
    rubrics
        .iter()
        .map(|r| {
            let mut scorer = Scorer::new(r, &wave);
            let fields = scorer.fields();
            let fold = |scorer: &Scorer| {
                ledger
                    .fold_wave(
                        &data.wave.id,
                        fields,
                        |_| scorer.tally(),
                        |t, a| scorer.add(t, a),
                    )
                    .expect("the wave streams")
            };
            if scorer.needs_medians_first() {
                let first = fold(&scorer);
                scorer.set_medians(first.iter().map(|(_, t)| t));
            }
            let seats = fold(&scorer);
            let scores = scorer.score(seats);
            // A rubric that keeps nothing of an attempt but its figures is rescored from the
            // seats' stored tallies instead: the same scores, to the bit.
            if !scorer.keeps_more_than_figures()
                && !scorer.needs_medians_first()
                && FigureTally::totals_give(fields)
            {
                let stored = ledger
                    .seat_tallies(std::slice::from_ref(&data.wave.id))
                    .expect("the tallies read");
                let seats: Vec<(Seat, SeatTally)> = stored
                    .into_iter()
                    .flatten()
                    .map(|(seat, text)| {
                        let totals = tally::read(tally::LATEST, &text.expect("a tally per seat"))
                            .expect("a tally that reads");
                        let figures = FigureTally::from_totals(&totals, fields)
                            .expect("the figures the fields ask for");
                        (seat, scorer.with_figures(scorer.tally(), figures))
                    })
                    .collect();
                assert_eq!(every_bit(&scorer.score(seats)), every_bit(&scores), "{r:?}");
            }
            scores
        })
        .collect()
}

/// Every number and word of a scoring, floats as bits (0.0 and -0.0 differ).
fn every_bit(w: &WaveScores) -> Vec<String> {
    let mut out = vec![w.wave.clone()];
    out.extend(fingerprint(w));
    out.extend(
        w.seats
            .iter()
            .map(|s| format!("{} shared {}", s.seat, s.rank_shared)),
    );
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn scoring_from_streamed_tallies_equals_score_wave_bit_for_bit(
        rubric in any_rubric(),
        data in wave(),
    ) {
        for r in covered().iter().map(|s| &s.rubric).chain([&rubric]) {
            prop_assert_eq!(
                every_bit(&streamed(r, &data)),
                every_bit(&score_wave(r, &data)),
                "{:?}", r
            );
        }
        // Fed whole attempts, a tally's figures are the seat's figures, to the bit.
        let scorer = Scorer::new(&rubric, &data.wave);
        for s in &data.seats {
            let mut t = scorer.tally();
            for a in &s.attempts {
                scorer.add(&mut t, a);
            }
            prop_assert_eq!(
                format!("{:?}", scorer.figures(&t)),
                format!("{:?}", SeatFigures::of(&data.wave, s))
            );
        }
    }

    /// What a bootstrap resample takes of a scoring (`Scorer::score_ranks`: each seat's score
    /// and rank alone, in seat order) is what the listing's scoring gives each seat, to the bit.
    #[test]
    fn score_ranks_gives_each_seat_its_listed_score_and_rank(
        rubric in any_rubric(),
        data in wave(),
    ) {
        for r in covered().iter().map(|s| &s.rubric).chain([&rubric]) {
            let mut scorer = Scorer::new(r, &data.wave);
            let tally = |scorer: &Scorer| -> Vec<SeatTally> {
                data.seats.iter().map(|s| scorer.tally_seat(&s.attempts)).collect()
            };
            if scorer.needs_medians_first() {
                let first = tally(&scorer);
                scorer.set_medians(&first);
            }
            let ids: Vec<&str> = data.seats.iter().map(|s| s.seat.id.as_str()).collect();
            let lean = scorer.score_ranks(&ids, tally(&scorer));
            let listed = score_wave(r, &data);
            for (id, (score, rank)) in ids.iter().zip(&lean) {
                let l = listed.seats.iter().find(|s| s.seat == *id).expect("every seat listed");
                prop_assert_eq!(score.map(f64::to_bits), l.score.map(f64::to_bits), "{}", id);
                prop_assert_eq!(*rank, l.rank, "{} {:?}", id, r);
            }
        }
    }

    #[test]
    fn a_wave_streamed_out_of_the_ledger_scores_as_score_wave_bit_for_bit(
        rubric in any_rubric(),
        data in wave(),
    ) {
        let rubrics: Vec<&Rubric> = covered().iter().map(|s| &s.rubric).chain([&rubric]).collect();
        for (r, scores) in rubrics.iter().zip(through_a_ledger(&rubrics, &data)) {
            prop_assert_eq!(every_bit(&scores), every_bit(&score_wave(r, &data)), "{:?}", r);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The defined result of each edge case, under every shipped rubric

fn plain_attempt(problem: &str, correct: bool) -> Attempt {
    Attempt {
        problem: problem.into(),
        trial: 1,
        correct,
        outcome: None,
        input_tokens: Some(500),
        output_tokens: Some(100),
        input_tokens_cache_read: Some(0),
        input_tokens_cache_write: Some(0),
        wall_s: Some(30.0),
        cost_usd: Some(0.1),
        steps: Some(5),
        errors: Some(0),
        checklist: None,
        trace: None,
        working_s: None,
        infra_error: false,
        end_reason: None,
        origin: None,
        texts: None,
    }
}

fn named(id: &str, attempts: Vec<Attempt>) -> SeatData {
    SeatData {
        seat: Seat {
            id: id.into(),
            model: "m".into(),
            provider: "p".into(),
            harness: "h".into(),
            config: None,
            display_name: None,
        },
        attempts,
    }
}

/// One seat per edge case, beside a typical one. Budget per problem: 1,000 tokens, 60 s.
fn edge_wave() -> WaveData {
    let typical = plain_attempt("p1", true);
    let zero_tokens = Attempt {
        input_tokens: Some(0),
        output_tokens: Some(0),
        ..plain_attempt("p1", true)
    };
    let zero_wall = Attempt {
        wall_s: Some(0.0),
        ..plain_attempt("p1", true)
    };
    let zero_correct = plain_attempt("p1", false);
    let unknown_cost = Attempt {
        cost_usd: None,
        ..plain_attempt("p1", true)
    };
    let mut seats = vec![
        named("typical", vec![typical]),
        named("zero-tokens", vec![zero_tokens]),
        named("zero-wall", vec![zero_wall]),
        named("zero-correct", vec![zero_correct]),
        named("unknown-cost", vec![unknown_cost]),
    ];
    seats.sort_by(|a, b| a.seat.id.cmp(&b.seat.id));
    WaveData {
        wave: Wave {
            id: "edges".into(),
            suite: "suite".into(),
            started_at: "2026-01-01T00:00:00Z".into(),
            notes: None,
            suite_problems: None,
            load: Load::default(),
            accounting: Accounting::default(),
            budget: Budget {
                tokens: Some(1_000.0),
                wall_s: Some(60.0),
                cost_usd: None,
            },
            provenance: Provenance::default(),
            supersedes: None,
            canary_problems: Vec::new(),
        },
        seats,
    }
}

/// A whole wave in which every seat used nothing: zero tokens, zero seconds, zero dollars.
fn all_zero_wave() -> WaveData {
    let nothing = |p: &str, correct: bool| Attempt {
        input_tokens: Some(0),
        output_tokens: Some(0),
        wall_s: Some(0.0),
        cost_usd: Some(0.0),
        steps: Some(0),
        ..plain_attempt(p, correct)
    };
    WaveData {
        seats: vec![
            named("idle-correct", vec![nothing("p1", true)]),
            named("idle-wrong", vec![nothing("p1", false)]),
        ],
        ..edge_wave()
    }
}

fn outcome(s: &benchledger_core::rubric::SeatScore) -> String {
    match (s.score, &s.gate, &s.note) {
        (Some(x), Some(g), _) => format!("{x} (failed gate {g})"),
        (Some(x), None, _) => format!("{x}"),
        (None, _, Some(n)) => format!("undefined: {n}"),
        (None, _, None) => "undefined, no reason given".into(),
    }
}

#[test]
fn edge_cases_have_defined_results() {
    let mut out = String::new();
    for (title, data) in [
        ("one seat per edge case", edge_wave()),
        ("every seat used nothing", all_zero_wave()),
    ] {
        out.push_str(&format!("## {title}\n"));
        for s in shipped() {
            out.push_str(&format!("{}\n", s.file));
            let scores = score_wave(&s.rubric, &data);
            let mut by_id: Vec<_> = scores.seats.iter().collect();
            by_id.sort_by(|a, b| a.seat.cmp(&b.seat));
            for seat in by_id {
                out.push_str(&format!("    {:<13} {}\n", seat.seat, outcome(seat)));
            }
        }
    }
    common::snapshot_settings().bind(|| insta::assert_snapshot!("rubric_props__edge_cases", out));

    let get = |file: &str, data: &WaveData, seat: &str| {
        let s = shipped().iter().find(|s| s.file == file).unwrap();
        score_wave(&s.rubric, data)
            .seats
            .into_iter()
            .find(|x| x.seat == seat)
            .unwrap()
    };
    let edges = edge_wave();
    let v2 = "session-efficiency.v2.toml";
    // Zero tokens or zero seconds: as far under budget as can be, so the factor is its cap.
    assert_eq!(get(v2, &edges, "zero-tokens").factors["tokens"], 1.0);
    assert_eq!(get(v2, &edges, "zero-wall").factors["wall"], 1.0);
    assert_eq!(get(v2, &edges, "zero-tokens").score, Some(100.0));
    let v1 = get("session-efficiency.v1.toml", &edges, "zero-tokens");
    assert_eq!(v1.factors["tokens"], 1.25f64.sqrt());
    // Zero Correct: a defined 0, never NaN.
    assert_eq!(get(v2, &edges, "zero-correct").score, Some(0.0));
    assert_eq!(
        get("cohort-efficiency.v1.toml", &edges, "zero-correct").score,
        Some(0.0)
    );
    // Unknown cost: rubrics that do not use cost are unaffected; the cohort rubric, which
    // divides by it, leaves the seat undefined and says why.
    assert_eq!(get(v2, &edges, "unknown-cost").score, Some(100.0));
    let c = get("cohort-efficiency.v1.toml", &edges, "unknown-cost");
    assert_eq!(c.score, None);
    assert_eq!(
        c.note.as_deref(),
        Some("cost_usd is unknown for some of its attempts")
    );
    // A wave where everyone used nothing has a median of 0: cohort ratios are undefined.
    let zero = all_zero_wave();
    let c = get("cohort-efficiency.v1.toml", &zero, "idle-correct");
    assert_eq!(c.score, None);
    assert!(
        c.note
            .unwrap()
            .contains("median of wall_s over the wave is 0")
    );
}
