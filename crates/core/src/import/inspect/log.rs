//! The parts of an Inspect log benchledger reads, as serde shapes that take what they need and
//! skip the rest unparsed (`IgnoredAny` scans past a message, a model call or an attachment
//! without building it), so a sample of any size costs the memory of its figures alone.
//!
//! One sample shape serves all three places a sample is written: an element of a `.json`
//! log's `samples`, an element of an `.eval` archive's `summaries.json`, and a
//! `samples/<id>_epoch_<n>.json` member. Each reads what is there: a summary has no events, a
//! sample file written by an older inspect_ai has `transcript.events` rather than `events`, a
//! summary's `error` and `limit` are strings where a sample's are objects.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use crate::model::TraceStep;

/// The log's header: `header.json` of an `.eval` archive, the fields around `samples` of a
/// `.json` log.
#[derive(Debug, Default, Deserialize)]
pub struct Header {
    pub version: Option<Value>,
    pub status: Option<String>,
    pub eval: Option<EvalSpec>,
    pub plan: Option<Plan>,
    pub results: Option<Results>,
    pub stats: Option<Stats>,
    pub error: Option<LogError>,
}

/// `eval`: what was run.
#[derive(Debug, Default, Deserialize)]
pub struct EvalSpec {
    pub task: Option<String>,
    pub created: Option<String>,
    pub model: Option<String>,
    pub packages: Option<BTreeMap<String, String>>,
    pub scorers: Option<Vec<Named>>,
    pub solver: Option<String>,
    /// The generation settings the model ran under.
    pub model_generate_config: Option<serde_json::Value>,
}

impl EvalSpec {
    /// The version of inspect_ai that wrote the log, when it says.
    pub(crate) fn inspect_version(&self) -> Option<&str> {
        self.packages
            .as_ref()?
            .get("inspect_ai")
            .map(String::as_str)
    }
}

#[derive(Debug, Default, Deserialize)]
pub struct Named {
    pub name: Option<String>,
}

/// `plan`: the solvers, in order.
#[derive(Debug, Default, Deserialize)]
pub struct Plan {
    pub steps: Option<Vec<PlanStep>>,
}

#[derive(Debug, Default, Deserialize)]
pub struct PlanStep {
    pub solver: Option<String>,
}

/// `results`: the scorers' metrics, in the order the log lists them.
#[derive(Debug, Default, Deserialize)]
pub struct Results {
    pub total_samples: Option<u64>,
    pub scores: Option<Vec<EvalScore>>,
}

/// One entry of `results.scores`: a scorer (or one key of a scorer's dict value, `name`,
/// scored by `scorer`).
#[derive(Debug, Default, Deserialize)]
pub struct EvalScore {
    pub name: Option<String>,
    pub scorer: Option<String>,
}

/// `stats`: the run's own totals.
#[derive(Debug, Default, Deserialize)]
pub struct Stats {
    pub model_usage: Option<BTreeMap<String, UsageTotals>>,
}

/// A model's usage over the whole run, as the log totals it.
#[derive(Debug, Default, Clone, PartialEq, Deserialize)]
pub struct UsageTotals {
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    pub input_tokens_cache_read: Option<u64>,
    pub input_tokens_cache_write: Option<u64>,
}

/// `error`: why a run that did not succeed stopped.
#[derive(Debug, Default, Deserialize)]
pub struct LogError {
    pub message: Option<String>,
}

/// One sample × epoch, as read from any of the places a sample is written.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Sample {
    pub id: Option<Value>,
    pub epoch: Option<Value>,
    /// Each scorer's value, in the order the sample lists them (`None`: no value given).
    pub scores: Option<Vec<(String, Option<Value>)>>,
    /// Usage by model, as the sample counts it.
    pub model_usage: Option<Vec<(String, Usage)>>,
    pub total_time: Option<Value>,
    pub working_time: Option<Value>,
    pub error: Option<SampleError>,
    pub limit: Option<Value>,
    pub completed: Option<Value>,
    /// The tool calls of its events, in order; `None` when the sample had no events.
    pub trace: Option<Vec<TraceStep>>,
    /// What the model was asked (a string or chat messages), the target (a string or a list of
    /// them) and its output (`completion`, or the first choice's message), as written; read
    /// into an attempt's texts by [`super::texts`].
    pub input: Option<Value>,
    pub target: Option<Value>,
    pub output: Option<Value>,
    /// Each scorer's explanation, when it gives one as a string, in the sample's order.
    pub explanations: Vec<(String, String)>,
    /// The attachments the input, target or output above refer to (`attachment://…`), when
    /// the sample lists them after those; every other attachment is scanned past unread.
    pub attachments: BTreeMap<String, String>,
}

impl Sample {
    /// Fills what this sample lacks from the same sample read elsewhere (a summary from its
    /// sample file). What this one has is kept, except an error and the texts, which a sample
    /// file tells more fully than a summary.
    pub(crate) fn fill_from(&mut self, other: Sample) {
        macro_rules! fill {
            ($($f:ident),*) => { $( if self.$f.is_none() { self.$f = other.$f; } )* };
        }
        fill!(
            scores,
            model_usage,
            total_time,
            working_time,
            limit,
            completed,
            trace
        );
        // The texts a sample file holds are whole where a summary's are shortened (inspect_ai
        // cuts a summary's input, target and explanations): the sample file's win.
        if other.input.is_some() {
            self.input = other.input;
        }
        if other.target.is_some() {
            self.target = other.target;
        }
        if other.output.is_some() {
            self.output = other.output;
        }
        if !other.explanations.is_empty() {
            self.explanations = other.explanations;
        }
        if !other.attachments.is_empty() {
            self.attachments = other.attachments;
        }
        match (&self.error, other.error) {
            (None, e) => self.error = e,
            (Some(mine), Some(theirs)) if !mine.from_traceback && theirs.from_traceback => {
                self.error = Some(theirs)
            }
            _ => {}
        }
    }
}

/// A model's usage in one sample: the counts, as written (checked when mapped).
#[derive(Debug, Default, Clone, PartialEq, Deserialize)]
pub struct Usage {
    pub input_tokens: Option<Value>,
    pub output_tokens: Option<Value>,
    pub input_tokens_cache_read: Option<Value>,
    pub input_tokens_cache_write: Option<Value>,
    pub total_cost: Option<Value>,
}

/// A sample's `error`, reduced to its kind as soon as it is read (a traceback can run to
/// kilobytes, and a log can hold thousands of failed samples).
#[derive(Debug, Clone, PartialEq)]
pub struct SampleError {
    /// The exception's class (`RuntimeError`, `openai.RateLimitError`), else `error`.
    pub kind: String,
    /// Whether the kind came from a traceback (a sample file) rather than a message alone.
    pub from_traceback: bool,
}

/// The kind of error in an exception's text: the dotted name before its first `:` or `(`,
/// when there is one.
fn exception_kind(line: &str) -> Option<String> {
    let line = line.trim();
    let end = line.find([':', '('])?;
    let name = &line[..end];
    let is_name = !name.is_empty()
        && name.len() <= 80
        && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
    is_name.then(|| name.to_string())
}

impl SampleError {
    fn from_value(v: Value) -> Option<SampleError> {
        match v {
            Value::Null => None,
            Value::Object(o) => {
                let traceback = o
                    .get("traceback")
                    .and_then(Value::as_str)
                    .and_then(|t| t.lines().rev().find(|l| !l.trim().is_empty()))
                    .and_then(exception_kind);
                let message = o.get("message").and_then(Value::as_str).unwrap_or("");
                Some(match traceback {
                    Some(kind) => SampleError {
                        kind,
                        from_traceback: true,
                    },
                    None => SampleError {
                        kind: exception_kind(message).unwrap_or_else(|| "error".into()),
                        from_traceback: false,
                    },
                })
            }
            Value::String(s) => Some(SampleError {
                kind: exception_kind(&s).unwrap_or_else(|| "error".into()),
                from_traceback: false,
            }),
            _ => Some(SampleError {
                kind: "error".into(),
                from_traceback: false,
            }),
        }
    }
}

/// The fields of a sample benchledger reads.
#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "snake_case")]
enum SampleField {
    Id,
    Epoch,
    Scores,
    ModelUsage,
    TotalTime,
    WorkingTime,
    Error,
    Limit,
    Completed,
    Events,
    Transcript,
    Input,
    Target,
    Output,
    Attachments,
    #[serde(other)]
    Other,
}

impl<'de> Deserialize<'de> for Sample {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Sample, D::Error> {
        SampleSeed { trace: true }.deserialize(d)
    }
}

/// Reads a sample, with its trace or (`trace: false`) scanning past its events too.
#[derive(Debug, Clone, Copy)]
pub struct SampleSeed {
    pub trace: bool,
}

impl<'de> DeserializeSeed<'de> for SampleSeed {
    type Value = Sample;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Sample, D::Error> {
        struct V {
            trace: bool,
        }
        impl<'de> Visitor<'de> for V {
            type Value = Sample;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a sample (a JSON object)")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Sample, A::Error> {
                let mut s = Sample::default();
                while let Some(key) = map.next_key::<SampleField>()? {
                    match key {
                        SampleField::Id => s.id = map.next_value()?,
                        SampleField::Epoch => s.epoch = map.next_value()?,
                        SampleField::Scores => {
                            let scores = map.next_value::<Option<Ordered<ScoreEntry>>>()?;
                            s.scores = scores.map(|o| {
                                o.0.into_iter()
                                    .map(|(k, v)| {
                                        if let Some(Value::String(e)) = v.explanation {
                                            s.explanations.push((k.clone(), e));
                                        }
                                        (k, v.value)
                                    })
                                    .collect()
                            })
                        }
                        SampleField::Input => s.input = map.next_value()?,
                        SampleField::Target => s.target = map.next_value()?,
                        SampleField::Output => s.output = map.next_value()?,
                        SampleField::Attachments => {
                            let wanted = attachments_named(&s);
                            s.attachments = map.next_value_seed(Wanted(&wanted))?;
                        }
                        SampleField::ModelUsage => {
                            s.model_usage = map.next_value::<Option<Ordered<Usage>>>()?.map(|o| o.0)
                        }
                        SampleField::TotalTime => s.total_time = map.next_value()?,
                        SampleField::WorkingTime => s.working_time = map.next_value()?,
                        SampleField::Error => {
                            s.error = map
                                .next_value::<Option<Value>>()?
                                .and_then(SampleError::from_value)
                        }
                        SampleField::Limit => s.limit = map.next_value()?,
                        SampleField::Completed => s.completed = map.next_value()?,
                        SampleField::Events | SampleField::Transcript if !self.trace => {
                            map.next_value::<IgnoredAny>()?;
                        }
                        SampleField::Events => {
                            let mut steps = Vec::new();
                            if map.next_value_seed(MaybeEvents(&mut steps))? {
                                s.trace = Some(steps);
                            }
                        }
                        SampleField::Transcript => {
                            let mut steps = Vec::new();
                            if map.next_value_seed(TranscriptSeed(&mut steps))? && s.trace.is_none()
                            {
                                s.trace = Some(steps);
                            }
                        }
                        SampleField::Other => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(s)
            }
        }
        d.deserialize_map(V { trace: self.trace })
    }
}

/// How a sample refers to one of its attachments: `attachment://NAME`.
pub(crate) const ATTACHMENT: &str = "attachment://";

/// The `attachment://` names the sample's input, target and output refer to.
pub(crate) fn attachments_named(s: &Sample) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    let mut stack: Vec<&Value> = [&s.input, &s.target, &s.output]
        .into_iter()
        .flatten()
        .collect();
    while let Some(v) = stack.pop() {
        match v {
            Value::String(t) => {
                if let Some(name) = t.strip_prefix(ATTACHMENT) {
                    out.insert(name.to_string());
                }
            }
            Value::Array(a) => stack.extend(a),
            Value::Object(o) => stack.extend(o.values()),
            _ => {}
        }
    }
    out
}

/// A score: its value, and its explanation (kept as an attempt's text, cut to its cap).
#[derive(Deserialize)]
struct ScoreEntry {
    value: Option<Value>,
    explanation: Option<Value>,
}

/// A sample's `attachments`, of which only the entries named in `self.0` are kept (each a
/// string); the rest are scanned past unread.
struct Wanted<'a>(&'a std::collections::BTreeSet<String>);

impl<'de> DeserializeSeed<'de> for Wanted<'_> {
    type Value = BTreeMap<String, String>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        struct V<'a>(&'a std::collections::BTreeSet<String>);
        impl<'de> Visitor<'de> for V<'_> {
            type Value = BTreeMap<String, String>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object of attachments")
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(BTreeMap::new())
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = BTreeMap::new();
                while let Some(k) = map.next_key::<String>()? {
                    if self.0.contains(&k) {
                        if let Value::String(v) = map.next_value::<Value>()? {
                            out.insert(k, v);
                        }
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(out)
            }
        }
        d.deserialize_any(V(self.0))
    }
}

/// A JSON object's entries in the order written.
pub struct Ordered<T>(pub Vec<(String, T)>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Ordered<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Ordered<T>, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Ordered<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered<T>, A::Error> {
                let mut v = Vec::new();
                while let Some((k, x)) = map.next_entry::<String, T>()? {
                    v.push((k, x));
                }
                Ok(Ordered(v))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// `transcript`, as inspect_ai wrote events before 0.3.4x: `{"events": [...], ...}`.
struct TranscriptSeed<'a>(&'a mut Vec<TraceStep>);

impl<'de> DeserializeSeed<'de> for TranscriptSeed<'_> {
    /// Whether it held events.
    type Value = bool;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TranscriptSeed<'_> {
    type Value = bool;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a transcript (a JSON object with events)")
    }
    fn visit_unit<E: de::Error>(self) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        let mut had = false;
        while let Some(key) = map.next_key::<SampleField>()? {
            if let SampleField::Events = key {
                had |= map.next_value_seed(MaybeEvents(&mut *self.0))?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(had)
    }
}

/// An events list, or null.
struct MaybeEvents<'a>(&'a mut Vec<TraceStep>);

impl<'de> DeserializeSeed<'de> for MaybeEvents<'_> {
    /// Whether there was a list.
    type Value = bool;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for MaybeEvents<'_> {
    type Value = bool;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of events")
    }
    fn visit_unit<E: de::Error>(self) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        while seq.next_element_seed(EventSeed(&mut *self.0))?.is_some() {}
        Ok(true)
    }
}

/// The fields of an event benchledger reads.
#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "snake_case")]
enum EventField {
    Event,
    Function,
    Error,
    Events,
    #[serde(other)]
    Other,
}

/// An event's kind: only a tool call's matters (read without building a string).
#[derive(Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum EventKind {
    Tool,
    #[serde(other)]
    Other,
}

/// One event: a tool event becomes a step of the trace (named by its function, failed when it
/// has an error, the error's `type` its kind); events nested in it (a sub-agent's, in logs
/// before events were flattened into spans) follow it.
struct EventSeed<'a>(&'a mut Vec<TraceStep>);

impl<'de> DeserializeSeed<'de> for EventSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for EventSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an event (a JSON object)")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut kind: Option<EventKind> = None;
        let mut function: Option<String> = None;
        let mut error: Option<Value> = None;
        let mut nested = Vec::new();
        while let Some(key) = map.next_key::<EventField>()? {
            match key {
                EventField::Event => kind = map.next_value()?,
                EventField::Function => {
                    function = match map.next_value::<Value>()? {
                        Value::String(s) => Some(s),
                        _ => None,
                    }
                }
                EventField::Error => error = map.next_value()?,
                EventField::Events => {
                    map.next_value_seed(MaybeEvents(&mut nested))?;
                }
                EventField::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        if kind == Some(EventKind::Tool) {
            let error = error.filter(|e| !e.is_null());
            self.0.push(TraceStep {
                tool: function.unwrap_or_else(|| "(unnamed tool)".into()),
                ok: error.is_none(),
                error: error.map(|e| match e.get("type").and_then(Value::as_str) {
                    Some(t) if !t.trim().is_empty() => t.to_string(),
                    _ => "unknown".to_string(),
                }),
            });
        }
        self.0.append(&mut nested);
        Ok(())
    }
}

/// Reads a JSON array of samples one at a time, handing each on; on a bad element, says which
/// (0-based) it was through `at`.
pub struct SamplesSeed<'a, F> {
    pub each: &'a mut F,
    pub at: &'a mut usize,
    /// Whether to read each sample's trace.
    pub trace: bool,
}

impl<'de, F: FnMut(Sample) -> Result<(), String>> DeserializeSeed<'de> for SamplesSeed<'_, F> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, F: FnMut(Sample) -> Result<(), String>> Visitor<'de> for SamplesSeed<'_, F> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of samples")
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(s) = seq.next_element_seed(SampleSeed { trace: self.trace })? {
            (self.each)(s).map_err(de::Error::custom)?;
            *self.at += 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_keeps_its_figures_and_its_tool_calls_and_skips_the_rest() {
        let s: Sample = serde_json::from_str(
            r#"{"id": "s3", "epoch": 2, "input": "long", "messages": [{"content": "x"}],
                "scores": {"match": {"value": "C", "explanation": "long"}, "judge": {"value": 0.5}},
                "model_usage": {"openai/gpt-4o": {"input_tokens": 10, "output_tokens": 2}},
                "total_time": 1.5, "working_time": 1.25, "limit": {"type": "token", "limit": 9},
                "events": [
                  {"event": "model", "error": "retry: rate limited", "output": {"x": [1, 2]}},
                  {"uuid": "u", "event": "tool", "function": "bash", "error": null, "events": []},
                  {"error": {"type": "timeout", "message": "m"}, "function": "bash",
                   "event": "tool", "events": [{"event": "tool", "function": "inner"}]}
                ]}"#,
        )
        .unwrap();
        assert_eq!(s.id, Some(Value::from("s3")));
        assert_eq!(s.epoch, Some(Value::from(2)));
        let scores = s.scores.unwrap();
        assert_eq!(scores[0], ("match".to_string(), Some(Value::from("C"))));
        assert_eq!(scores[1].0, "judge");
        assert_eq!(
            s.model_usage.unwrap()[0].1.input_tokens,
            Some(Value::from(10))
        );
        let trace = s.trace.unwrap();
        let got: Vec<(&str, bool, Option<&str>)> = trace
            .iter()
            .map(|t| (t.tool.as_str(), t.ok, t.error.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                ("bash", true, None),
                ("bash", false, Some("timeout")),
                ("inner", true, None)
            ]
        );
    }

    #[test]
    fn old_transcripts_and_summaries_are_read_too() {
        let s: Sample = serde_json::from_str(
            r#"{"id": 1, "epoch": 1, "transcript": {"events": [{"event": "tool",
                "function": "f", "error": {"message": "no type"}}], "content": {}}}"#,
        )
        .unwrap();
        let t = s.trace.unwrap();
        assert_eq!((t[0].ok, t[0].error.as_deref()), (false, Some("unknown")));
        let summary: Sample =
            serde_json::from_str(r#"{"id": 1, "epoch": 1, "error": "RuntimeError: boom"}"#)
                .unwrap();
        assert_eq!(summary.trace, None, "a summary has no events");
        assert_eq!(summary.error.as_ref().unwrap().kind, "RuntimeError");
        let full: Sample = serde_json::from_str(
            r#"{"events": [], "error": {"message": "boom", "traceback":
                "Traceback (most recent call last):\n  File \"x\"\nopenai.RateLimitError: slow\n"}}"#,
        )
        .unwrap();
        let mut merged = summary.clone();
        merged.fill_from(full);
        assert_eq!(merged.trace, Some(vec![]));
        assert_eq!(
            merged.error,
            Some(SampleError {
                kind: "openai.RateLimitError".into(),
                from_traceback: true
            })
        );
        // A summary's texts are inspect_ai's shortened ones: the sample file's are kept.
        let mut summary: Sample = serde_json::from_str(
            r#"{"id": 3, "epoch": 1, "input": "Why?", "target": "Because",
                "scores": {"m": {"value": "C", "explanation": "The submission elaborates..."}}}"#,
        )
        .unwrap();
        let full: Sample = serde_json::from_str(
            r#"{"id": 3, "epoch": 1, "input": "Why?",
                "scores": {"m": {"value": "C", "explanation": "The submission elaborates.\nGRADE: C"}}}"#,
        )
        .unwrap();
        summary.fill_from(full);
        assert_eq!(
            summary.explanations,
            [(
                "m".to_string(),
                "The submission elaborates.\nGRADE: C".to_string()
            )]
        );
        assert_eq!(
            summary.target,
            Some(Value::String("Because".into())),
            "kept"
        );
        let odd: Sample =
            serde_json::from_str(r#"{"error": {"message": "it broke badly"}}"#).unwrap();
        assert_eq!(odd.error.unwrap().kind, "error");
    }
}
