//! The wave content format: what a wave's content hash is computed over (docs/formats.md,
//! "Wave content"). It makes a re-ingest of the same wave a no-op and a different wave under
//! the same id a conflict, and `verify --ledger` recomputes it from the stored rows.
//!
//! Version 1 lists the wave's conditions, then each seat with its attempts, in ledger order.
//! Version 2 adds the wave's `canary_problems` after its `provenance`, and three keys to each
//! attempt, after `trace`: `working_s`, `infra_error` and `end_reason` (what importers read
//! from harness logs). Version 3 adds `timeout_multiplier` to the wave's `load`, after
//! `serial_rerun`, and is the version only a wave that records a timeout multiplier is hashed
//! in (`for_wave`): every other wave is hashed in version 2 as before, so no existing hash
//! moves. Fields the model gains later are in none: a wave hashed in a version keeps its hash
//! for ever, whatever the model holds. Version 1 has no place for canary problems, and
//! versions 1 and 2 none for a timeout multiplier: a wave that declares one cannot be written
//! in them.

use super::json::{HashSink, Json, Sink};
use super::{Decoder, FormatError};
pub use crate::model::ContentHash;
use crate::model::{
    Accounting, Attempt, Budget, ChecklistItem, Load, Provenance, Seat, SeatData, SuiteProblems,
    TraceStep, Wave, WaveData,
};

/// The wave content format new waves are hashed in, unless they record a condition only a
/// later version holds (`for_wave`).
pub const LATEST: u32 = 2;

/// The newest version this build knows: version 2 with the wave's timeout multiplier.
pub(crate) const NEWEST: u32 = 3;

/// Every version this build can write, oldest first.
pub(crate) const VERSIONS: &[u32] = &[1, 2, 3];

/// The version a new wave is hashed in: [`LATEST`], or version 3 when it records a timeout
/// multiplier (the only version that holds one), so that a wave without one hashes as it
/// always has.
pub(crate) fn for_wave(w: &Wave) -> u32 {
    if w.load.timeout_multiplier.is_some() {
        NEWEST
    } else {
        LATEST
    }
}

fn check(version: u32) -> Result<(), FormatError> {
    if VERSIONS.contains(&version) {
        Ok(())
    } else {
        Err(FormatError::unknown("wave content", version, NEWEST))
    }
}

/// Checks that a version can hold the wave's conditions: version 1 has no canary problems.
fn check_wave(version: u32, w: &Wave) -> Result<(), FormatError> {
    check(version)?;
    if version < 2 && !w.canary_problems.is_empty() {
        return Err(FormatError::Malformed(format!(
            "wave content format 1 has no place for canary problems, and wave {} declares {}: a \
             wave hashed in format 1 (ingested by a build before canaries) keeps the conditions \
             it was ingested with; declare canaries in a new wave (which may supersede it)",
            w.id,
            w.canary_problems.len()
        )));
    }
    if version < 3
        && let Some(x) = w.load.timeout_multiplier
    {
        return Err(FormatError::Malformed(format!(
            "wave content format {version} has no place for a timeout multiplier, and wave {} \
             records {x}: a wave with one is hashed in format 3",
            w.id
        )));
    }
    Ok(())
}

/// The `wave` object of a version: version 1's keys (version 3: `load` with
/// `timeout_multiplier`), then (version 2 on) `canary_problems`.
fn write_wave<S: Sink>(version: u32, j: &mut Json<S>, w: &Wave) {
    j.begin_object();
    j.key("id").str(&w.id);
    j.key("suite").str(&w.suite);
    j.key("started_at").str(&w.started_at);
    j.key("notes").opt_str(w.notes.as_deref());
    j.key("suite_problems");
    match &w.suite_problems {
        None => {
            j.null();
        }
        Some(SuiteProblems::Count(n)) => {
            j.begin_object().key("Count").u64(*n).end_object();
        }
        Some(SuiteProblems::Ids(ids)) => {
            j.begin_object().key("Ids").begin_array();
            for id in ids {
                j.str(id);
            }
            j.end_array().end_object();
        }
    }
    let l = &w.load;
    j.key("load").begin_object();
    j.key("parallel_sessions")
        .opt_u64(l.parallel_sessions.map(u64::from));
    j.key("tool_server_sessions")
        .opt_u64(l.tool_server_sessions.map(u64::from));
    j.key("serial_rerun").opt_bool(l.serial_rerun);
    if version >= 3 {
        j.key("timeout_multiplier").opt_f64(l.timeout_multiplier);
    }
    j.end_object();
    let a = &w.accounting;
    j.key("accounting").begin_object();
    j.key("input_tokens_include_cache_reads")
        .bool(a.input_tokens_include_cache_reads);
    j.key("price_source").opt_str(a.price_source.as_deref());
    j.end_object();
    let b = &w.budget;
    j.key("budget").begin_object();
    j.key("tokens").opt_f64(b.tokens);
    j.key("wall_s").opt_f64(b.wall_s);
    j.key("cost_usd").opt_f64(b.cost_usd);
    j.end_object();
    let p = &w.provenance;
    j.key("provenance").begin_object();
    j.key("harness_version")
        .opt_str(p.harness_version.as_deref());
    j.key("producer").opt_str(p.producer.as_deref());
    j.key("producer_version")
        .opt_str(p.producer_version.as_deref());
    j.end_object();
    if version >= 2 {
        j.key("canary_problems").begin_array();
        for c in &w.canary_problems {
            j.str(c);
        }
        j.end_array();
    }
    j.end_object();
}

/// A checklist as version 1 writes it (also how the ledger stores an attempt's checklist).
pub(crate) fn write_checklist<S: Sink>(j: &mut Json<S>, items: &[ChecklistItem]) {
    j.begin_array();
    for c in items {
        j.begin_object();
        j.key("item").str(&c.item);
        j.key("pass").bool(c.pass);
        j.end_object();
    }
    j.end_array();
}

/// One seat object of a version (checked by the caller); version 3's is version 2's.
fn write_seat<S: Sink>(version: u32, j: &mut Json<S>, s: &SeatData) {
    j.begin_object();
    j.key("seat").begin_object();
    j.key("id").str(&s.seat.id);
    j.key("model").str(&s.seat.model);
    j.key("provider").str(&s.seat.provider);
    j.key("harness").str(&s.seat.harness);
    j.key("config").opt_str(s.seat.config.as_deref());
    j.end_object();
    j.key("attempts").begin_array();
    for a in &s.attempts {
        j.begin_object();
        j.key("problem").str(&a.problem);
        j.key("trial").u64(u64::from(a.trial));
        j.key("correct").bool(a.correct);
        j.key("outcome").opt_f64(a.outcome);
        j.key("input_tokens").opt_u64(a.input_tokens);
        j.key("output_tokens").opt_u64(a.output_tokens);
        j.key("input_tokens_cache_read")
            .opt_u64(a.input_tokens_cache_read);
        j.key("input_tokens_cache_write")
            .opt_u64(a.input_tokens_cache_write);
        j.key("wall_s").opt_f64(a.wall_s);
        j.key("cost_usd").opt_f64(a.cost_usd);
        j.key("steps").opt_u64(a.steps.map(u64::from));
        j.key("errors").opt_u64(a.errors.map(u64::from));
        j.key("checklist");
        match &a.checklist {
            Some(c) => write_checklist(j, c),
            None => {
                j.null();
            }
        }
        j.key("trace");
        match &a.trace {
            Some(steps) => {
                j.begin_array();
                for t in steps {
                    j.begin_object();
                    j.key("tool").str(&t.tool);
                    j.key("ok").bool(t.ok);
                    j.key("error").opt_str(t.error.as_deref());
                    j.end_object();
                }
                j.end_array();
            }
            None => {
                j.null();
            }
        }
        if version >= 2 {
            j.key("working_s").opt_f64(a.working_s);
            j.key("infra_error").bool(a.infra_error);
            j.key("end_reason").opt_str(a.end_reason.as_deref());
        }
        j.end_object();
    }
    j.end_array();
    j.end_object();
}

/// Writes a wave's content, seat by seat, in a format version: `{"wave":…,"seats":[…]}`.
/// The caller hands the seats in ledger order.
pub struct Writer<S: Sink> {
    version: u32,
    j: Json<S>,
}

impl<S: Sink> Writer<S> {
    pub fn new(version: u32, sink: S, wave: &Wave) -> Result<Writer<S>, FormatError> {
        check_wave(version, wave)?;
        let mut j = Json::new(sink);
        begin_content(version, &mut j, wave);
        Ok(Writer { version, j })
    }

    /// The next seat, in ledger order (by seat id).
    pub fn seat(&mut self, seat: &SeatData) {
        write_seat(self.version, &mut self.j, seat);
    }

    pub fn finish(mut self) -> S {
        end_content(&mut self.j);
        self.j.into_sink()
    }
}

fn begin_content<S: Sink>(version: u32, j: &mut Json<S>, wave: &Wave) {
    j.begin_object().key("wave");
    write_wave(version, j, wave);
    j.key("seats").begin_array();
}

fn end_content<S: Sink>(j: &mut Json<S>) {
    j.end_array().end_object();
}

/// A whole wave's content in a format version, written where `j` stands (the publication
/// input embeds it).
pub(crate) fn write_content<S: Sink>(
    version: u32,
    j: &mut Json<S>,
    data: &WaveData,
) -> Result<(), FormatError> {
    check_wave(version, &data.wave)?;
    begin_content(version, j, &data.wave);
    for s in &data.seats {
        write_seat(version, j, s);
    }
    end_content(j);
    Ok(())
}

/// A wave's content hash, computed a seat at a time so a wave is never held whole.
pub type Digest = Writer<HashSink>;

impl Writer<HashSink> {
    /// The lower-case hex SHA-256 of the content.
    pub fn sha256(self) -> String {
        self.finish().finish()
    }
}

/// A whole wave's content in a format version, as text (for decoding, tests and bundles).
pub fn encode(version: u32, data: &WaveData) -> Result<String, FormatError> {
    let mut w = Writer::new(version, Vec::new(), &data.wave)?;
    for s in &data.seats {
        w.seat(s);
    }
    Ok(String::from_utf8(w.finish()).expect("canonical JSON is written from UTF-8 pieces"))
}

/// A whole wave's content hash in a format version.
pub fn sha256(version: u32, data: &WaveData) -> Result<ContentHash, FormatError> {
    let mut d = Digest::new(version, HashSink::new(), &data.wave)?;
    for s in &data.seats {
        d.seat(s);
    }
    Ok(ContentHash {
        format: version,
        sha256: d.sha256(),
    })
}

/// The text the ledger stores an attempt's checklist as: the checklist of wave content
/// format 1.
pub(crate) fn checklist_text(items: &[ChecklistItem]) -> String {
    super::json::to_string(|j| write_checklist(j, items))
}

/// Reads a stored checklist back.
pub(crate) fn parse_checklist(text: &str) -> Result<Vec<ChecklistItem>, FormatError> {
    decode_checklist(&Decoder::root(&super::parse(text)?))
}

/// Reads a wave's content back from its text in a format version.
pub fn decode(version: u32, text: &str) -> Result<WaveData, FormatError> {
    check(version)?;
    decode_value(version, &Decoder::root(&super::parse(text)?))
}

/// Reads a version's `{"wave":…,"seats":[…]}` from a parsed value.
pub(crate) fn decode_value(version: u32, d: &Decoder<'_>) -> Result<WaveData, FormatError> {
    let wave = decode_wave(version, &d.field("wave")?)?;
    let seats = d
        .field("seats")?
        .array()?
        .iter()
        .map(|s| decode_seat(version, s))
        .collect::<Result<_, _>>()?;
    Ok(WaveData { wave, seats })
}

/// A wave's suite size: none, a count, or the problems' ids.
fn decode_suite_problems(sp: &Decoder<'_>) -> Result<Option<SuiteProblems>, FormatError> {
    Ok(if sp.is_null() {
        None
    } else if let Ok(n) = sp.field("Count") {
        Some(SuiteProblems::Count(n.u64()?))
    } else {
        Some(SuiteProblems::Ids(
            sp.field("Ids")?
                .array()?
                .iter()
                .map(|i| i.string())
                .collect::<Result<_, _>>()?,
        ))
    })
}

/// A wave's own fields and conditions (its `wave` object).
fn decode_wave(version: u32, w: &Decoder<'_>) -> Result<Wave, FormatError> {
    let suite_problems = decode_suite_problems(&w.field("suite_problems")?)?;
    let load = w.field("load")?;
    let acc = w.field("accounting")?;
    let budget = w.field("budget")?;
    let prov = w.field("provenance")?;
    Ok(Wave {
        id: w.field("id")?.string()?,
        suite: w.field("suite")?.string()?,
        started_at: w.field("started_at")?.string()?,
        notes: w.field("notes")?.opt_string()?,
        suite_problems,
        load: Load {
            parallel_sessions: load.field("parallel_sessions")?.opt_u32()?,
            tool_server_sessions: load.field("tool_server_sessions")?.opt_u32()?,
            serial_rerun: load.field("serial_rerun")?.opt_bool()?,
            timeout_multiplier: if version >= 3 {
                load.field("timeout_multiplier")?.opt_f64()?
            } else {
                None
            },
        },
        accounting: Accounting {
            input_tokens_include_cache_reads: acc
                .field("input_tokens_include_cache_reads")?
                .bool()?,
            price_source: acc.field("price_source")?.opt_string()?,
        },
        budget: Budget {
            tokens: budget.field("tokens")?.opt_f64()?,
            wall_s: budget.field("wall_s")?.opt_f64()?,
            cost_usd: budget.field("cost_usd")?.opt_f64()?,
        },
        provenance: Provenance {
            harness_version: prov.field("harness_version")?.opt_string()?,
            producer: prov.field("producer")?.opt_string()?,
            producer_version: prov.field("producer_version")?.opt_string()?,
        },
        // Not in version 1: a supersession is an entry of the chain.
        supersedes: None,
        canary_problems: if version >= 2 {
            w.field("canary_problems")?
                .array()?
                .iter()
                .map(|c| c.string())
                .collect::<Result<_, _>>()?
        } else {
            Vec::new()
        },
    })
}

/// One seat and its attempts, in order.
fn decode_seat(version: u32, s: &Decoder<'_>) -> Result<SeatData, FormatError> {
    let seat = s.field("seat")?;
    let attempts = s
        .field("attempts")?
        .array()?
        .iter()
        .map(|a| decode_attempt(version, a))
        .collect::<Result<_, _>>()?;
    Ok(SeatData {
        seat: Seat {
            id: seat.field("id")?.string()?,
            model: seat.field("model")?.string()?,
            provider: seat.field("provider")?.string()?,
            harness: seat.field("harness")?.string()?,
            config: seat.field("config")?.opt_string()?,
            display_name: None,
        },
        attempts,
    })
}

/// One attempt; the fields a version did not write are absent.
fn decode_attempt(version: u32, a: &Decoder<'_>) -> Result<Attempt, FormatError> {
    let checklist = a.field("checklist")?;
    let trace = a.field("trace")?;
    Ok(Attempt {
        problem: a.field("problem")?.string()?,
        trial: a.field("trial")?.u32()?,
        correct: a.field("correct")?.bool()?,
        outcome: a.field("outcome")?.opt_f64()?,
        input_tokens: a.field("input_tokens")?.opt_u64()?,
        output_tokens: a.field("output_tokens")?.opt_u64()?,
        input_tokens_cache_read: a.field("input_tokens_cache_read")?.opt_u64()?,
        input_tokens_cache_write: a.field("input_tokens_cache_write")?.opt_u64()?,
        wall_s: a.field("wall_s")?.opt_f64()?,
        cost_usd: a.field("cost_usd")?.opt_f64()?,
        steps: a.field("steps")?.opt_u32()?,
        errors: a.field("errors")?.opt_u32()?,
        checklist: if checklist.is_null() {
            None
        } else {
            Some(decode_checklist(&checklist)?)
        },
        trace: if trace.is_null() {
            None
        } else {
            Some(decode_trace(&trace)?)
        },
        working_s: if version >= 2 {
            a.field("working_s")?.opt_f64()?
        } else {
            None
        },
        infra_error: version >= 2 && a.field("infra_error")?.bool()?,
        end_reason: if version >= 2 {
            a.field("end_reason")?.opt_string()?
        } else {
            None
        },
        origin: None,
        texts: None,
    })
}

/// An attempt's trace, step by step.
fn decode_trace(trace: &Decoder<'_>) -> Result<Vec<TraceStep>, FormatError> {
    trace
        .array()?
        .iter()
        .map(|t| {
            Ok(TraceStep {
                tool: t.field("tool")?.string()?,
                ok: t.field("ok")?.bool()?,
                error: t.field("error")?.opt_string()?,
            })
        })
        .collect()
}

/// A checklist written by [`write_checklist`].
pub(crate) fn decode_checklist(d: &Decoder<'_>) -> Result<Vec<ChecklistItem>, FormatError> {
    d.array()?
        .iter()
        .map(|c| {
            Ok(ChecklistItem {
                item: c.field("item")?.string()?,
                pass: c.field("pass")?.bool()?,
            })
        })
        .collect()
}
