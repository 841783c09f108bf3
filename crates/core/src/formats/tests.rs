//! The hashed formats against their definition: version 1 of each is byte for byte what the
//! serde serialisation of the model wrote when it was first hashed (a frozen copy of those
//! structs lives here, never to change), and every format reads back to what was written.

use proptest::prelude::*;
use serde::Serialize;

use super::input::{self, RubricId};
use super::{record, wave};
use crate::digest::sha256_hex;
use crate::model::{
    Accounting, Attempt, Budget, ChecklistItem, Load, Provenance, Seat, SeatData, SuiteProblems,
    TraceStep, Wave, WaveData,
};

/// The model as it was when format 1 was first hashed (commit 92068752), with its serde
/// derives: the definition of wave content format 1 and publication input format 1.
mod frozen_v1 {
    use serde::Serialize;

    #[derive(Serialize)]
    pub struct Load {
        pub parallel_sessions: Option<u32>,
        pub tool_server_sessions: Option<u32>,
        pub serial_rerun: Option<bool>,
    }
    #[derive(Serialize)]
    pub struct Accounting {
        pub input_tokens_include_cache_reads: bool,
        pub price_source: Option<String>,
    }
    #[derive(Serialize)]
    pub struct Budget {
        pub tokens: Option<f64>,
        pub wall_s: Option<f64>,
        pub cost_usd: Option<f64>,
    }
    #[derive(Serialize)]
    pub struct Provenance {
        pub harness_version: Option<String>,
        pub producer: Option<String>,
        pub producer_version: Option<String>,
    }
    #[derive(Serialize)]
    pub enum SuiteProblems {
        Count(u64),
        Ids(Vec<String>),
    }
    #[derive(Serialize)]
    pub struct Wave {
        pub id: String,
        pub suite: String,
        pub started_at: String,
        pub notes: Option<String>,
        pub suite_problems: Option<SuiteProblems>,
        pub load: Load,
        pub accounting: Accounting,
        pub budget: Budget,
        pub provenance: Provenance,
    }
    #[derive(Serialize)]
    pub struct Seat {
        pub id: String,
        pub model: String,
        pub provider: String,
        pub harness: String,
        pub config: Option<String>,
    }
    #[derive(Serialize)]
    pub struct TraceStep {
        pub tool: String,
        pub ok: bool,
        pub error: Option<String>,
    }
    #[derive(Serialize)]
    pub struct ChecklistItem {
        pub item: String,
        pub pass: bool,
    }
    #[derive(Serialize)]
    pub struct Attempt {
        pub problem: String,
        pub trial: u32,
        pub correct: bool,
        pub outcome: Option<f64>,
        pub input_tokens: Option<u64>,
        pub output_tokens: Option<u64>,
        pub input_tokens_cache_read: Option<u64>,
        pub input_tokens_cache_write: Option<u64>,
        pub wall_s: Option<f64>,
        pub cost_usd: Option<f64>,
        pub steps: Option<u32>,
        pub errors: Option<u32>,
        pub checklist: Option<Vec<ChecklistItem>>,
        pub trace: Option<Vec<TraceStep>>,
    }
    #[derive(Serialize)]
    pub struct SeatData {
        pub seat: Seat,
        pub attempts: Vec<Attempt>,
    }
    #[derive(Serialize)]
    pub struct WaveData {
        pub wave: Wave,
        pub seats: Vec<SeatData>,
    }
    #[derive(Serialize)]
    pub struct RubricId<'a> {
        pub name: &'a str,
        pub version: u32,
        pub sha256: &'a str,
    }
    #[derive(Serialize)]
    pub struct CanonicalInput<'a> {
        pub format: u32,
        pub rubric: RubricId<'a>,
        pub data: &'a WaveData,
    }
    #[derive(Serialize)]
    pub struct Record<'a> {
        pub id: i64,
        pub wave: &'a str,
        pub rubric_sha256: &'a str,
        pub title: &'a str,
        pub created_at: &'a str,
        pub input_sha256: &'a str,
        pub output_sha256: &'a str,
        pub prev_sha256: Option<&'a str>,
    }
}

/// The model's wave, in the frozen v1 structs.
fn frozen(d: &WaveData) -> frozen_v1::WaveData {
    let w = &d.wave;
    frozen_v1::WaveData {
        wave: frozen_v1::Wave {
            id: w.id.clone(),
            suite: w.suite.clone(),
            started_at: w.started_at.clone(),
            notes: w.notes.clone(),
            suite_problems: w.suite_problems.as_ref().map(|p| match p {
                SuiteProblems::Count(n) => frozen_v1::SuiteProblems::Count(*n),
                SuiteProblems::Ids(ids) => frozen_v1::SuiteProblems::Ids(ids.clone()),
            }),
            load: frozen_v1::Load {
                parallel_sessions: w.load.parallel_sessions,
                tool_server_sessions: w.load.tool_server_sessions,
                serial_rerun: w.load.serial_rerun,
            },
            accounting: frozen_v1::Accounting {
                input_tokens_include_cache_reads: w.accounting.input_tokens_include_cache_reads,
                price_source: w.accounting.price_source.clone(),
            },
            budget: frozen_v1::Budget {
                tokens: w.budget.tokens,
                wall_s: w.budget.wall_s,
                cost_usd: w.budget.cost_usd,
            },
            provenance: frozen_v1::Provenance {
                harness_version: w.provenance.harness_version.clone(),
                producer: w.provenance.producer.clone(),
                producer_version: w.provenance.producer_version.clone(),
            },
        },
        seats: d
            .seats
            .iter()
            .map(|s| frozen_v1::SeatData {
                seat: frozen_v1::Seat {
                    id: s.seat.id.clone(),
                    model: s.seat.model.clone(),
                    provider: s.seat.provider.clone(),
                    harness: s.seat.harness.clone(),
                    config: s.seat.config.clone(),
                },
                attempts: s
                    .attempts
                    .iter()
                    .map(|a| frozen_v1::Attempt {
                        problem: a.problem.clone(),
                        trial: a.trial,
                        correct: a.correct,
                        outcome: a.outcome,
                        input_tokens: a.input_tokens,
                        output_tokens: a.output_tokens,
                        input_tokens_cache_read: a.input_tokens_cache_read,
                        input_tokens_cache_write: a.input_tokens_cache_write,
                        wall_s: a.wall_s,
                        cost_usd: a.cost_usd,
                        steps: a.steps,
                        errors: a.errors,
                        checklist: a.checklist.as_ref().map(|c| {
                            c.iter()
                                .map(|i| frozen_v1::ChecklistItem {
                                    item: i.item.clone(),
                                    pass: i.pass,
                                })
                                .collect()
                        }),
                        trace: a.trace.as_ref().map(|t| {
                            t.iter()
                                .map(|s| frozen_v1::TraceStep {
                                    tool: s.tool.clone(),
                                    ok: s.ok,
                                    error: s.error.clone(),
                                })
                                .collect()
                        }),
                    })
                    .collect(),
            })
            .collect(),
    }
}

fn serde_text<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap()
}

// Generators: every field, with text that needs escaping and numbers at the edges.

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z0-9-]{1,8}",
        any::<String>(),
        Just("quote \" backslash \\ tab \t nul \u{0} ✓".to_string()),
    ]
}

fn number() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(0.0),
        Just(-0.0),
        Just(132.0),
        Just(1e-7),
        Just(1e16),
        Just(0.300_000_000_000_000_04),
        0.0..1e6f64,
        any::<u64>()
            .prop_map(f64::from_bits)
            .prop_filter("finite", |x| x.is_finite()),
    ]
}

fn attempt() -> impl Strategy<Value = Attempt> {
    (
        (
            text(),
            any::<u32>(),
            any::<bool>(),
            proptest::option::of(number()),
        ),
        (
            proptest::option::of(any::<u64>()),
            proptest::option::of(any::<u64>()),
            proptest::option::of(any::<u64>()),
            proptest::option::of(any::<u64>()),
        ),
        (
            proptest::option::of(number()),
            proptest::option::of(number()),
            proptest::option::of(any::<u32>()),
            proptest::option::of(any::<u32>()),
        ),
        proptest::option::of(proptest::collection::vec(
            (text(), any::<bool>()).prop_map(|(item, pass)| ChecklistItem { item, pass }),
            0..3,
        )),
        proptest::option::of(proptest::collection::vec(
            (text(), any::<bool>(), proptest::option::of(text()))
                .prop_map(|(tool, ok, error)| TraceStep { tool, ok, error }),
            0..3,
        )),
        (
            proptest::option::of(number()),
            any::<bool>(),
            proptest::option::of(text()),
        ),
    )
        .prop_map(
            |(
                (problem, trial, correct, outcome),
                (i, o, r, w),
                (wall, cost, steps, errors),
                c,
                t,
                (working_s, infra_error, end_reason),
            )| {
                Attempt {
                    problem,
                    trial,
                    correct,
                    outcome,
                    input_tokens: i,
                    output_tokens: o,
                    input_tokens_cache_read: r,
                    input_tokens_cache_write: w,
                    wall_s: wall,
                    cost_usd: cost,
                    steps,
                    errors,
                    checklist: c,
                    trace: t,
                    working_s,
                    infra_error,
                    end_reason,
                    origin: None,
                    texts: None,
                }
            },
        )
}

fn wave_data() -> impl Strategy<Value = WaveData> {
    let suite_problems = proptest::option::of(prop_oneof![
        any::<u64>().prop_map(SuiteProblems::Count),
        proptest::collection::vec(text(), 0..3).prop_map(SuiteProblems::Ids),
    ]);
    let wave = (
        (text(), text(), text(), proptest::option::of(text())),
        suite_problems,
        (
            proptest::option::of(any::<u32>()),
            proptest::option::of(any::<u32>()),
            proptest::option::of(any::<bool>()),
        ),
        (any::<bool>(), proptest::option::of(text())),
        (
            proptest::option::of(number()),
            proptest::option::of(number()),
            proptest::option::of(number()),
        ),
        (
            proptest::option::of(text()),
            proptest::option::of(text()),
            proptest::option::of(text()),
        ),
    )
        .prop_map(
            |((id, suite, started_at, notes), suite_problems, (p, t, s), (incl, price), b, v)| {
                Wave {
                    id,
                    suite,
                    started_at,
                    notes,
                    suite_problems,
                    load: Load {
                        parallel_sessions: p,
                        tool_server_sessions: t,
                        serial_rerun: s,
                        // Only format 3 holds one (`with_multiplier`).
                        timeout_multiplier: None,
                    },
                    accounting: Accounting {
                        input_tokens_include_cache_reads: incl,
                        price_source: price,
                    },
                    budget: Budget {
                        tokens: b.0,
                        wall_s: b.1,
                        cost_usd: b.2,
                    },
                    provenance: Provenance {
                        harness_version: v.0,
                        producer: v.1,
                        producer_version: v.2,
                    },
                    supersedes: None,
                    canary_problems: Vec::new(),
                }
            },
        );
    let seat = (
        (text(), text(), text(), text(), proptest::option::of(text())),
        proptest::collection::vec(attempt(), 0..4),
    )
        .prop_map(
            |((id, model, provider, harness, config), attempts)| SeatData {
                seat: Seat {
                    id,
                    model,
                    provider,
                    harness,
                    config,
                    display_name: None,
                },
                attempts,
            },
        );
    (wave, proptest::collection::vec(seat, 0..3)).prop_map(|(wave, seats)| WaveData { wave, seats })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn wave_content_v1_is_what_the_v1_model_serialised_to(data in wave_data()) {
        let text = wave::encode(1, &data).unwrap();
        prop_assert_eq!(&text, &serde_text(&frozen(&data)));
        prop_assert_eq!(wave::sha256(1, &data).unwrap().sha256, sha256_hex(text.as_bytes()));
    }

    #[test]
    fn wave_content_reads_back_to_what_was_written(data in wave_data()) {
        for &v in wave::VERSIONS {
            let text = wave::encode(v, &data).unwrap();
            // What a version cannot hold reads back as absent.
            let mut expected = data.clone();
            if v < 2 {
                for a in expected.seats.iter_mut().flat_map(|s| s.attempts.iter_mut()) {
                    a.working_s = None;
                    a.infra_error = false;
                    a.end_reason = None;
                }
            }
            prop_assert_eq!(wave::decode(v, &text).unwrap(), expected);
        }
    }

    #[test]
    fn publication_input_v1_is_what_the_v1_model_serialised_to(
        data in wave_data(),
        name in text(),
        version in any::<u32>(),
    ) {
        let rubric = RubricId { name: name.clone(), version, sha256: "ab".repeat(32) };
        let frozen_data = frozen(&data);
        let expected = serde_text(&frozen_v1::CanonicalInput {
            format: 1,
            rubric: frozen_v1::RubricId { name: &name, version, sha256: &rubric.sha256 },
            data: &frozen_data,
        });
        prop_assert_eq!(input::encode(1, &rubric, None, None, &data).unwrap(), expected);
    }

    #[test]
    fn publication_input_reads_back_to_what_was_written(data in wave_data(), name in text()) {
        let rubric = RubricId { name, version: 3, sha256: "cd".repeat(32) };
        for &v in input::VERSIONS {
            let prices = (v >= 2).then(|| input::PricesId {
                name: "list".into(),
                version: 2,
                sha256: "ab".repeat(32),
            });
            let ci = (v >= 2).then(|| input::CiId {
                method: "percentile bootstrap over problems".into(),
                generator: "chacha20".into(),
                level: 0.95,
                resamples: 2000,
                seed: u64::MAX,
            });
            let text = input::encode(v, &rubric, prices.as_ref(), ci.as_ref(), &data).unwrap();
            let back = input::decode(v, &text).unwrap();
            // What a version cannot hold reads back as absent.
            let mut expected = data.clone();
            if v < 2 {
                for a in expected.seats.iter_mut().flat_map(|s| s.attempts.iter_mut()) {
                    a.working_s = None;
                    a.infra_error = false;
                    a.end_reason = None;
                }
            }
            prop_assert_eq!(back, input::Input { rubric: rubric.clone(), prices, ci, data: expected });
        }
    }

    #[test]
    fn records_are_what_v1_serialised_to_and_read_back(
        id in any::<i64>(),
        fields in proptest::collection::vec(text(), 6),
        prev in proptest::option::of(text()),
        superseded_by in proptest::option::of(text()),
    ) {
        let p = record::Publication {
            id,
            wave: &fields[0],
            rubric_sha256: &fields[1],
            title: &fields[2],
            created_at: &fields[3],
            input_sha256: &fields[4],
            output_sha256: &fields[5],
            prev_sha256: prev.as_deref(),
        };
        let text = record::publication_text(1, &p).unwrap();
        prop_assert_eq!(&text, &serde_text(&frozen_v1::Record {
            id,
            wave: p.wave,
            rubric_sha256: p.rubric_sha256,
            title: p.title,
            created_at: p.created_at,
            input_sha256: p.input_sha256,
            output_sha256: p.output_sha256,
            prev_sha256: p.prev_sha256,
        }));
        prop_assert_eq!(record::publication_sha256(1, &p).unwrap(), sha256_hex(text.as_bytes()));
        let back = record::decode_publication(1, &text).unwrap();
        prop_assert_eq!(
            (back.id, back.wave.as_str(), back.title.as_str(), back.prev_sha256.as_deref()),
            (id, p.wave, p.title, p.prev_sha256)
        );
        let w = record::Withdrawal {
            id,
            wave: &fields[0],
            wave_content_sha256: &fields[1],
            superseded_by: superseded_by.as_deref(),
            reason: &fields[2],
            created_at: &fields[3],
            after_publication: id.wrapping_abs(),
            prev_sha256: prev.as_deref(),
        };
        let text = record::withdrawal_text(1, &w).unwrap();
        prop_assert_eq!(record::withdrawal_sha256(1, &w).unwrap(), sha256_hex(text.as_bytes()));
        let back = record::decode_withdrawal(1, &text).unwrap();
        prop_assert_eq!(
            record::Withdrawal {
                id: back.id,
                wave: &back.wave,
                wave_content_sha256: &back.wave_content_sha256,
                superseded_by: back.superseded_by.as_deref(),
                reason: &back.reason,
                created_at: &back.created_at,
                after_publication: back.after_publication,
                prev_sha256: back.prev_sha256.as_deref(),
            },
            w
        );
    }
}

#[test]
fn wave_content_v1_is_written_as_documented() {
    let data = WaveData {
        wave: Wave {
            id: "w".into(),
            suite: "s".into(),
            started_at: "2026-03-04T10:00:00Z".into(),
            notes: None,
            suite_problems: Some(SuiteProblems::Count(4)),
            load: Load {
                parallel_sessions: Some(6),
                tool_server_sessions: None,
                serial_rerun: Some(false),
                timeout_multiplier: None,
            },
            accounting: Accounting::default(),
            budget: Budget {
                tokens: Some(1e6),
                wall_s: Some(180.0),
                cost_usd: None,
            },
            provenance: Provenance::default(),
            supersedes: None,
            canary_problems: Vec::new(),
        },
        seats: vec![SeatData {
            seat: Seat {
                id: "a".into(),
                model: "m".into(),
                provider: "p".into(),
                harness: "h".into(),
                config: None,
                display_name: None,
            },
            attempts: vec![Attempt {
                problem: "p1".into(),
                trial: 1,
                correct: true,
                input_tokens: Some(400_000),
                output_tokens: Some(165_000),
                input_tokens_cache_write: Some(0),
                wall_s: Some(132.0),
                cost_usd: Some(0.91),
                steps: Some(3),
                errors: Some(0),
                checklist: Some(vec![ChecklistItem {
                    item: "i".into(),
                    pass: true,
                }]),
                ..Attempt::empty()
            }],
        }],
    };
    // The example in docs/formats.md.
    assert_eq!(
        wave::encode(1, &data).unwrap(),
        concat!(
            r#"{"wave":{"id":"w","suite":"s","started_at":"2026-03-04T10:00:00Z","notes":null,"#,
            r#""suite_problems":{"Count":4},"load":{"parallel_sessions":6,"#,
            r#""tool_server_sessions":null,"serial_rerun":false},"accounting":"#,
            r#"{"input_tokens_include_cache_reads":false,"price_source":null},"budget":"#,
            r#"{"tokens":1000000.0,"wall_s":180.0,"cost_usd":null},"provenance":"#,
            r#"{"harness_version":null,"producer":null,"producer_version":null}},"seats":"#,
            r#"[{"seat":{"id":"a","model":"m","provider":"p","harness":"h","config":null},"#,
            r#""attempts":[{"problem":"p1","trial":1,"correct":true,"outcome":null,"#,
            r#""input_tokens":400000,"output_tokens":165000,"input_tokens_cache_read":null,"#,
            r#""input_tokens_cache_write":0,"wall_s":132.0,"cost_usd":0.91,"steps":3,"#,
            r#""errors":0,"checklist":[{"item":"i","pass":true}],"trace":null}]}]}"#
        )
    );
}

#[test]
fn an_unknown_version_is_refused_naming_it() {
    let data = WaveData {
        wave: Wave {
            id: "w".into(),
            suite: "s".into(),
            started_at: "t".into(),
            notes: None,
            suite_problems: None,
            load: Load::default(),
            accounting: Accounting::default(),
            budget: Budget::default(),
            provenance: Provenance::default(),
            supersedes: None,
            canary_problems: Vec::new(),
        },
        seats: vec![],
    };
    let e = wave::sha256(wave::NEWEST + 1, &data)
        .unwrap_err()
        .to_string();
    assert!(e.contains("wave content format 4"), "{e}");
    assert!(e.contains("newer benchledger"), "{e}");
    let rubric = RubricId {
        name: "r".into(),
        version: 1,
        sha256: "0".repeat(64),
    };
    assert!(input::encode(0, &rubric, None, None, &data).is_err());
    let prices = input::PricesId {
        name: "p".into(),
        version: 1,
        sha256: "0".repeat(64),
    };
    assert!(input::encode(1, &rubric, Some(&prices), None, &data).is_err());
    assert!(
        record::publication_text(
            7,
            &record::Publication {
                id: 1,
                wave: "w",
                rubric_sha256: "r",
                title: "t",
                created_at: "c",
                input_sha256: "i",
                output_sha256: "o",
                prev_sha256: None,
            }
        )
        .is_err()
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// A field the model gains after a format version was shipped (here `supersedes`, added
    /// after version 1) changes nothing that version hashes: no wave's content hash, no
    /// publication's input digest.
    #[test]
    fn a_field_added_to_the_model_changes_nothing_published(
        data in wave_data(),
        supersedes in "[a-z0-9-]{1,12}",
    ) {
        let mut with = data.clone();
        with.wave.supersedes = Some(supersedes);
        prop_assert_eq!(wave::sha256(1, &with).unwrap(), wave::sha256(1, &data).unwrap());
        let rubric = RubricId { name: "r".into(), version: 1, sha256: "ef".repeat(32) };
        prop_assert_eq!(
            input::encode(1, &rubric, None, None, &with).unwrap(),
            input::encode(1, &rubric, None, None, &data).unwrap()
        );
    }
}

/// A factor a timeout may be scaled by: finite, above 0.
fn multiplier() -> impl Strategy<Value = f64> {
    prop_oneof![Just(1.0), Just(2.0), Just(0.5), Just(1e-7), 1e-3..1e3f64]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A wave that records no timeout multiplier is hashed in format 2, as every build before
    /// format 3 hashed it: no existing wave's hash, nor any publication input of it, moves.
    #[test]
    fn a_wave_without_a_timeout_multiplier_hashes_as_before(data in wave_data()) {
        prop_assert_eq!(wave::for_wave(&data.wave), 2);
        prop_assert_eq!(input::for_wave(&data.wave), 2);
    }

    /// Format 3 is format 2 with `timeout_multiplier` at the end of `load`, and reads back; the
    /// formats before it refuse a wave that records one rather than drop it.
    #[test]
    fn format_3_is_format_2_with_the_timeout_multiplier(data in wave_data(), x in multiplier()) {
        let v2 = wave::encode(2, &data).unwrap();
        let mut with = data.clone();
        with.wave.load.timeout_multiplier = Some(x);
        prop_assert_eq!(wave::for_wave(&with.wave), 3);
        prop_assert_eq!(input::for_wave(&with.wave), 3);
        let v3 = wave::encode(3, &with).unwrap();
        let serial = match data.wave.load.serial_rerun {
            Some(b) => b.to_string(),
            None => "null".into(),
        };
        let key = format!(r#""serial_rerun":{serial}}}"#);
        let x_text = super::json::to_string(|j| {
            j.f64(x);
        });
        prop_assert_eq!(
            &v3,
            &v2.replacen(
                &key,
                &format!(r#""serial_rerun":{serial},"timeout_multiplier":{x_text}}}"#),
                1
            )
        );
        prop_assert_eq!(wave::decode(3, &v3).unwrap(), with.clone());
        for v in [1, 2] {
            let e = wave::sha256(v, &with).unwrap_err().to_string();
            prop_assert!(e.contains("no place for a timeout multiplier"), "{}", e);
        }
        let rubric = RubricId { name: "r".into(), version: 1, sha256: "ef".repeat(32) };
        let text = input::encode(3, &rubric, None, None, &with).unwrap();
        prop_assert!(text.starts_with(r#"{"format":3,"#), "{}", text);
        prop_assert_eq!(input::decode(3, &text).unwrap().data, with.clone());
        prop_assert!(input::encode(2, &rubric, None, None, &with).is_err());
    }
}

#[test]
fn wave_content_v3_is_written_as_documented() {
    // The example in docs/formats.md, "Wave content, version 3".
    let data = WaveData {
        wave: Wave {
            id: "w".into(),
            suite: "s".into(),
            started_at: "2026-03-04T10:00:00Z".into(),
            notes: None,
            suite_problems: None,
            load: Load {
                parallel_sessions: Some(4),
                tool_server_sessions: None,
                serial_rerun: None,
                timeout_multiplier: Some(2.0),
            },
            accounting: Accounting::default(),
            budget: Budget::default(),
            provenance: Provenance::default(),
            supersedes: None,
            canary_problems: Vec::new(),
        },
        seats: vec![],
    };
    assert_eq!(
        wave::encode(3, &data).unwrap(),
        concat!(
            r#"{"wave":{"id":"w","suite":"s","started_at":"2026-03-04T10:00:00Z","notes":null,"#,
            r#""suite_problems":null,"load":{"parallel_sessions":4,"tool_server_sessions":null,"#,
            r#""serial_rerun":null,"timeout_multiplier":2.0},"accounting":"#,
            r#"{"input_tokens_include_cache_reads":false,"price_source":null},"budget":"#,
            r#"{"tokens":null,"wall_s":null,"cost_usd":null},"provenance":"#,
            r#"{"harness_version":null,"producer":null,"producer_version":null},"#,
            r#""canary_problems":[]},"seats":[]}"#
        )
    );
}
