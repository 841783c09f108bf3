//! Trajectories searched by a review's `[[scan]]` patterns: Harbor's ATIF files, Inspect AI's
//! samples, SWE-agent's `.traj` files. Each file is walked as a stream of JSON values, never
//! built into a tree: every string is handed to the patterns with the place it sits at
//! (a tool call's arguments, a message, an output) and the step it belongs to, and nothing
//! else is kept but the hits. A file is read into one reused buffer when it is under
//! [`WHOLE`], and parsed straight from the reader past that, so memory stays at one buffer
//! whatever the submission's size.

use std::io::Read;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::rules::{Place, Scan};

/// A trajectory file at most this large is read whole into the walker's buffer (parsing from a
/// slice is about twice as fast); a larger one is parsed from the reader.
pub(crate) const WHOLE: u64 = 64 * 1024 * 1024;

/// One step of a path into a JSON document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

/// A leaf the walker hands on: a string, or a whole number (a step's id, an epoch).
#[derive(Debug, Clone, Copy)]
pub enum Leaf<'s> {
    Str(&'s str),
    Int(i64),
}

/// Walks a JSON document, calling `f` with the path to every string and whole number in it.
pub fn walk<'de, D: Deserializer<'de>>(
    d: D,
    f: &mut dyn FnMut(&[Seg], Leaf<'_>),
) -> Result<(), D::Error> {
    let mut path = Vec::new();
    Walk { path: &mut path, f }.deserialize(d)
}

struct Walk<'p, 'f, 'g> {
    path: &'p mut Vec<Seg>,
    f: &'f mut (dyn FnMut(&[Seg], Leaf<'_>) + 'g),
}

impl<'de> DeserializeSeed<'de> for Walk<'_, '_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_, '_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_str<E>(self, v: &str) -> Result<(), E> {
        (self.f)(self.path, Leaf::Str(v));
        Ok(())
    }

    fn visit_i64<E>(self, v: i64) -> Result<(), E> {
        (self.f)(self.path, Leaf::Int(v));
        Ok(())
    }

    fn visit_u64<E>(self, v: u64) -> Result<(), E> {
        if let Ok(v) = i64::try_from(v) {
            (self.f)(self.path, Leaf::Int(v));
        }
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let Walk { path, f } = self;
        let mut i = 0;
        loop {
            path.push(Seg::Index(i));
            let more = seq.next_element_seed(Walk {
                path: &mut *path,
                f: &mut *f,
            })?;
            path.pop();
            if more.is_none() {
                return Ok(());
            }
            i += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let Walk { path, f } = self;
        while let Some(key) = map.next_key::<String>()? {
            path.push(Seg::Key(key));
            map.next_value_seed(Walk {
                path: &mut *path,
                f: &mut *f,
            })?;
            path.pop();
        }
        Ok(())
    }
}

/// How a trajectory file is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Harbor's ATIF (`steps[].tool_calls`, `.message`, `.observation`): one trial.
    Atif,
    /// One Inspect AI sample (`messages[]` with `role`, `content`, `tool_calls`): one trial, the
    /// sample's `id` and `epoch` its problem and trial.
    InspectSample,
    /// An Inspect AI log written as one JSON document: `samples[]`, each a sample.
    InspectLog,
    /// SWE-agent's `.traj` (`trajectory[]` with `action`, `observation`, `thought`): one trial.
    SweAgent,
}

/// A unit's place before its role is known: Inspect writes a message's `content` before its
/// `role`, which decides whether the content is said (a message) or came back (a tool's
/// output).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Spot {
    At(Place),
    ByRole,
    /// In Inspect's `attachments` under this key: a message or tool call refers to it as
    /// `attachment://KEY`, and it sits where that reference sits.
    Attached(String),
}

/// Where a leaf sits: the trial (a sample of a log; 0 in a one-trial file), the step (unit)
/// within it, and its place.
struct Located {
    trial: usize,
    unit: Option<usize>,
    spot: Spot,
}

fn key(path: &[Seg], i: usize) -> Option<&str> {
    match path.get(i) {
        Some(Seg::Key(k)) => Some(k),
        _ => None,
    }
}

fn index(path: &[Seg], i: usize) -> Option<usize> {
    match path.get(i) {
        Some(Seg::Index(n)) => Some(*n),
        _ => None,
    }
}

/// A message of Inspect's at `path[at..]` (`messages[i]...`), the sample's `input`, or one of
/// its `attachments`.
fn inspect_message(path: &[Seg], at: usize, trial: usize) -> Located {
    let other = Located {
        trial,
        unit: None,
        spot: Spot::At(Place::Any),
    };
    match key(path, at) {
        Some("messages") => {}
        Some("input") => {
            return Located {
                trial,
                unit: None,
                spot: Spot::At(Place::Messages),
            };
        }
        Some("attachments") => {
            return match key(path, at + 1) {
                Some(k) => Located {
                    trial,
                    unit: None,
                    spot: Spot::Attached(k.to_string()),
                },
                None => other,
            };
        }
        _ => return other,
    }
    let Some(i) = index(path, at + 1) else {
        return other;
    };
    let spot = match key(path, at + 2) {
        Some("tool_calls") => Spot::At(Place::Commands),
        Some("content") => Spot::ByRole,
        _ => Spot::At(Place::Any),
    };
    Located {
        trial,
        unit: Some(i),
        spot,
    }
}

fn locate(layout: Layout, path: &[Seg]) -> Located {
    let any = |unit| Located {
        trial: 0,
        unit,
        spot: Spot::At(Place::Any),
    };
    match layout {
        Layout::Atif => {
            if key(path, 0) != Some("steps") {
                return any(None);
            }
            let Some(i) = index(path, 1) else {
                return any(None);
            };
            let place = match key(path, 2) {
                Some("tool_calls") => Place::Commands,
                Some("message" | "reasoning_content") => Place::Messages,
                Some("observation") => Place::Outputs,
                _ => Place::Any,
            };
            Located {
                trial: 0,
                unit: Some(i),
                spot: Spot::At(place),
            }
        }
        Layout::SweAgent => {
            if key(path, 0) != Some("trajectory") {
                return any(None);
            }
            let Some(i) = index(path, 1) else {
                return any(None);
            };
            let place = match key(path, 2) {
                Some("action") => Place::Commands,
                Some("thought" | "response") => Place::Messages,
                Some("observation") => Place::Outputs,
                _ => Place::Any,
            };
            Located {
                trial: 0,
                unit: Some(i),
                spot: Spot::At(place),
            }
        }
        Layout::InspectSample => inspect_message(path, 0, 0),
        Layout::InspectLog => match (key(path, 0), index(path, 1)) {
            (Some("samples"), Some(s)) => inspect_message(path, 2, s),
            _ => any(None),
        },
    }
}

/// What a walk learns of a trial besides its hits: its problem and trial (Inspect's `id` and
/// `epoch`), each step's id (ATIF's `step_id`) and each message's role.
#[derive(Debug, Clone, Default)]
pub struct TrialFacts {
    pub problem: Option<String>,
    pub epoch: Option<i64>,
    pub step_ids: std::collections::BTreeMap<usize, i64>,
    pub roles: std::collections::BTreeMap<usize, String>,
    /// Inspect's `attachment://KEY` references: the message each sits in, and where in it.
    refs: std::collections::BTreeMap<String, (usize, Spot)>,
}

fn learn(layout: Layout, path: &[Seg], leaf: Leaf<'_>, facts: &mut Vec<TrialFacts>) {
    let (base, trial) = match layout {
        Layout::InspectLog => match (key(path, 0), index(path, 1)) {
            (Some("samples"), Some(s)) => (2, s),
            _ => return,
        },
        _ => (0, 0),
    };
    let rest = &path[base.min(path.len())..];
    let grow = |facts: &mut Vec<TrialFacts>| {
        if facts.len() <= trial {
            facts.resize_with(trial + 1, TrialFacts::default);
        }
    };
    let text = |leaf: Leaf<'_>| match leaf {
        Leaf::Str(s) => s.to_string(),
        Leaf::Int(n) => n.to_string(),
    };
    match (layout, rest) {
        (Layout::Atif, [Seg::Key(s), Seg::Index(i), Seg::Key(k)])
            if s == "steps" && k == "step_id" =>
        {
            if let Leaf::Int(n) = leaf {
                grow(facts);
                facts[trial].step_ids.insert(*i, n);
            }
        }
        (Layout::InspectSample | Layout::InspectLog, [Seg::Key(k)]) if k == "id" => {
            grow(facts);
            facts[trial].problem = Some(text(leaf));
        }
        (Layout::InspectSample | Layout::InspectLog, [Seg::Key(k)]) if k == "epoch" => {
            if let Leaf::Int(n) = leaf {
                grow(facts);
                facts[trial].epoch = Some(n);
            }
        }
        (Layout::InspectSample | Layout::InspectLog, [Seg::Key(m), Seg::Index(i), Seg::Key(r)])
            if m == "messages" && r == "role" =>
        {
            if let Leaf::Str(role) = leaf {
                grow(facts);
                facts[trial].roles.insert(*i, role.to_string());
            }
        }
        (
            Layout::InspectSample | Layout::InspectLog,
            [Seg::Key(m), Seg::Index(i), Seg::Key(k), ..],
        ) if m == "messages" => {
            if let Leaf::Str(text) = leaf
                && let Some(hash) = text.strip_prefix("attachment://")
            {
                let spot = if k == "tool_calls" {
                    Spot::At(Place::Commands)
                } else {
                    Spot::ByRole
                };
                grow(facts);
                facts[trial].refs.insert(hash.to_string(), (*i, spot));
            }
        }
        _ => {}
    }
}

/// A pattern's match in a trajectory, before its step's id, its message's role or the place
/// of its attachment is known.
#[derive(Debug, Clone)]
struct RawHit {
    /// Index of the scan in the rules.
    scan: usize,
    trial: usize,
    unit: Option<usize>,
    spot: Spot,
    excerpt: String,
}

/// A pattern's match, placed.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Hit {
    pub scan: usize,
    /// The trial within the file (a log's sample), 0 in a one-trial file.
    pub trial: usize,
    /// "step 4", "message 7".
    pub step: Option<String>,
    pub place: Place,
    pub excerpt: String,
}

/// The scans' patterns, compiled once into a set, so that each string is searched once for
/// all of them and again only by the patterns that match it.
pub struct Scanner<'r> {
    scans: &'r [Scan],
    set: regex::RegexSet,
}

impl<'r> Scanner<'r> {
    pub fn new(scans: &'r [Scan]) -> Scanner<'r> {
        let set = regex::RegexSet::new(scans.iter().map(|s| s.pattern.as_str()))
            .expect("each pattern compiled alone when the rules were parsed");
        Scanner { scans, set }
    }

    fn search(&self, s: &str, at: &Located, out: &mut Vec<RawHit>) {
        // Most strings match nothing: one pass that can stop early says so, before the pass
        // that finds every pattern matching.
        if s.is_empty() || !self.set.is_match(s) {
            return;
        }
        for i in self.set.matches(s).iter() {
            let scan = &self.scans[i];
            // A role or an attachment's place is decided once the walk is done.
            if let Spot::At(p) = at.spot
                && !scan.place.covers(p)
            {
                continue;
            }
            if let Some(m) = scan.regex.find(s) {
                out.push(RawHit {
                    scan: i,
                    trial: at.trial,
                    unit: at.unit,
                    spot: at.spot.clone(),
                    excerpt: excerpt(s, m.start(), m.end()),
                });
            }
        }
    }

    /// Walks one trajectory document, returning its hits and what it says of its trials.
    pub fn scan<'de, D: Deserializer<'de>>(
        &self,
        layout: Layout,
        d: D,
    ) -> Result<(Vec<Hit>, Vec<TrialFacts>), D::Error> {
        let mut raw = Vec::new();
        let mut facts: Vec<TrialFacts> = Vec::new();
        walk(d, &mut |path, leaf| {
            learn(layout, path, leaf, &mut facts);
            if let Leaf::Str(s) = leaf {
                self.search(s, &locate(layout, path), &mut raw);
            }
        })?;
        let mut hits: Vec<Hit> = Vec::with_capacity(raw.len());
        for h in raw {
            let f = facts.get(h.trial);
            let (unit, spot) = match &h.spot {
                Spot::Attached(k) => match f.and_then(|f| f.refs.get(k)) {
                    Some((u, spot)) => (Some(*u), spot.clone()),
                    None => (None, Spot::At(Place::Any)),
                },
                spot => (h.unit, spot.clone()),
            };
            let place = match spot {
                Spot::At(p) => p,
                _ => {
                    let role = unit.and_then(|u| f.and_then(|f| f.roles.get(&u)));
                    if role.is_some_and(|r| r == "tool") {
                        Place::Outputs
                    } else {
                        Place::Messages
                    }
                }
            };
            if !self.scans[h.scan].place.covers(place) {
                continue;
            }
            let step = unit.map(|u| match layout {
                Layout::Atif => {
                    let id = f.and_then(|f| f.step_ids.get(&u)).copied();
                    format!("step {}", id.unwrap_or(u as i64 + 1))
                }
                Layout::SweAgent => format!("step {}", u + 1),
                Layout::InspectSample | Layout::InspectLog => format!("message {}", u + 1),
            });
            let step = step.or_else(|| {
                (place == Place::Messages
                    && matches!(layout, Layout::InspectSample | Layout::InspectLog))
                .then(|| "input".to_string())
            });
            hits.push(Hit {
                scan: h.scan,
                trial: h.trial,
                step,
                place,
                excerpt: h.excerpt,
            });
        }
        // One hit per pattern, step and excerpt: a log that repeats a message (Inspect's events
        // beside its messages) names it once.
        hits.sort();
        hits.dedup_by(|a, b| {
            a.scan == b.scan && a.trial == b.trial && a.step == b.step && a.excerpt == b.excerpt
        });
        Ok((hits, facts))
    }

    /// [`Scanner::scan`] over a file's bytes, read into `buf` when it is at most [`WHOLE`]
    /// (`len`), else parsed from the reader.
    pub(crate) fn scan_reader(
        &self,
        layout: Layout,
        mut reader: impl Read,
        len: u64,
        buf: &mut Vec<u8>,
    ) -> Result<(Vec<Hit>, Vec<TrialFacts>), String> {
        if len <= WHOLE {
            buf.clear();
            reader
                .read_to_end(buf)
                .map_err(|e| format!("cannot be read: {e}"))?;
            let mut d = serde_json::Deserializer::from_slice(buf);
            let out = self.scan(layout, &mut d).map_err(|e| e.to_string())?;
            d.end().map_err(|e| e.to_string())?;
            Ok(out)
        } else {
            let mut d = serde_json::Deserializer::from_reader(std::io::BufReader::with_capacity(
                256 * 1024,
                reader,
            ));
            let out = self.scan(layout, &mut d).map_err(|e| e.to_string())?;
            d.end().map_err(|e| e.to_string())?;
            Ok(out)
        }
    }
}

/// Bytes of context kept on each side of a match in an excerpt.
const CONTEXT: usize = 40;

/// The match with some context, on one line: control characters escaped, at most
/// [`CONTEXT`] bytes each side (on character boundaries), keys and tokens masked.
pub fn excerpt(s: &str, start: usize, end: usize) -> String {
    let end = end.min(start + 200);
    let from = s.floor_char_boundary(start.saturating_sub(CONTEXT));
    let to = s.ceil_char_boundary((end + CONTEXT).min(s.len()));
    let mut out = String::new();
    if from > 0 {
        out.push('…');
    }
    for c in s[from..to].chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    if to < s.len() {
        out.push('…');
    }
    super::secrets::mask_all(&out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::Verdict;

    fn scans(specs: &[(&str, &str, Place)]) -> Vec<Scan> {
        specs
            .iter()
            .enumerate()
            .map(|(i, (id, p, place))| Scan {
                id: id.to_string(),
                description: None,
                pattern: p.to_string(),
                regex: regex::Regex::new(p).unwrap(),
                place: *place,
                verdict: Verdict::NeedsReview,
                line: i + 1,
            })
            .collect()
    }

    fn run(layout: Layout, scans: &[Scan], json: &str) -> Vec<Hit> {
        let s = Scanner::new(scans);
        let mut d = serde_json::Deserializer::from_str(json);
        s.scan(layout, &mut d).unwrap().0
    }

    #[test]
    fn an_atif_hit_is_placed_in_its_step_and_place() {
        let json = r#"{"steps": [
          {"step_id": 1, "source": "user", "message": "fix the git log"},
          {"step_id": 7, "source": "agent", "message": "looking",
           "tool_calls": [{"function_name": "bash", "arguments": {"keystrokes": "git log --all\n"}}],
           "observation": {"results": [{"content": "commit abc git log --all"}]}}]}"#;
        let s = scans(&[("git", r"git\s+log\s+--all", Place::Commands)]);
        let hits = run(Layout::Atif, &s, json);
        assert_eq!(hits.len(), 1, "{hits:?}");
        assert_eq!(hits[0].step.as_deref(), Some("step 7"));
        assert_eq!(hits[0].place, Place::Commands);
        assert_eq!(hits[0].excerpt, "git log --all\\n");
        // Looking anywhere finds the output too.
        let s = scans(&[("git", r"git\s+log\s+--all", Place::Any)]);
        let hits = run(Layout::Atif, &s, json);
        let places: Vec<Place> = hits.iter().map(|h| h.place).collect();
        assert_eq!(places, vec![Place::Commands, Place::Outputs]);
    }

    #[test]
    fn an_inspect_message_is_an_output_when_its_role_says_tool() {
        // `content` before `role`, as Inspect writes them.
        let json = r#"{"id": "s3", "epoch": 2, "messages": [
          {"content": "run the tests", "role": "user"},
          {"content": [{"type": "text", "text": "tests passed"}], "role": "tool"}]}"#;
        let s = scans(&[
            ("t", "tests", Place::Outputs),
            ("u", "tests", Place::Messages),
        ]);
        let scanner = Scanner::new(&s);
        let mut d = serde_json::Deserializer::from_str(json);
        let (hits, facts) = scanner.scan(Layout::InspectSample, &mut d).unwrap();
        assert_eq!(facts[0].problem.as_deref(), Some("s3"));
        assert_eq!(facts[0].epoch, Some(2));
        let got: Vec<(usize, Option<&str>)> =
            hits.iter().map(|h| (h.scan, h.step.as_deref())).collect();
        assert_eq!(got, vec![(0, Some("message 2")), (1, Some("message 1"))]);
    }

    #[test]
    fn an_attachment_sits_where_its_reference_sits() {
        // Inspect's .eval samples keep long texts in `attachments`, after the messages.
        let json = r#"{"id": 1, "epoch": 1, "messages": [
          {"content": "hi", "role": "user"},
          {"content": "", "role": "assistant", "tool_calls": [
             {"function": "bash", "arguments": {"cmd": "attachment://aa"}}]},
          {"content": "attachment://bb", "role": "tool"}],
          "attachments": {"aa": "git log --all", "bb": "git log --all printed", "cc": "git log --all"}}"#;
        let s = scans(&[
            ("c", "git log", Place::Commands),
            ("o", "git log", Place::Outputs),
        ]);
        let hits = run(Layout::InspectSample, &s, json);
        let got: Vec<(usize, Option<&str>, Place)> = hits
            .iter()
            .map(|h| (h.scan, h.step.as_deref(), h.place))
            .collect();
        assert_eq!(
            got,
            vec![
                (0, Some("message 2"), Place::Commands),
                (1, Some("message 3"), Place::Outputs)
            ]
        );
    }

    #[test]
    fn a_log_of_samples_places_each_hit_in_its_sample() {
        let json = r#"{"samples": [
          {"id": 1, "epoch": 1, "messages": [{"role": "assistant", "content": "x"}]},
          {"id": 2, "epoch": 1, "messages": [{"role": "assistant", "content": "git reflog"}]}]}"#;
        let s = scans(&[("g", "reflog", Place::Messages)]);
        let hits = run(Layout::InspectLog, &s, json);
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].trial, 1);
    }

    #[test]
    fn a_swe_agent_action_is_a_command_and_its_observation_an_output() {
        let json = r#"{"trajectory": [
          {"thought": "look at history", "action": "git log --all --oneline", "observation": "abc"},
          {"thought": "x", "action": "ls", "observation": "git log --all was run"}],
          "history": [{"role": "assistant", "content": "git log --all --oneline"}]}"#;
        let s = scans(&[("g", "git log --all", Place::Commands)]);
        let hits = run(Layout::SweAgent, &s, json);
        let got: Vec<(Option<&str>, Place)> =
            hits.iter().map(|h| (h.step.as_deref(), h.place)).collect();
        assert_eq!(got, vec![(Some("step 1"), Place::Commands)]);
    }

    #[test]
    fn an_excerpt_is_one_line_and_short() {
        let long = format!("{}git log --all\n{}", "a".repeat(100), "b".repeat(100));
        let e = excerpt(&long, 100, 113);
        assert!(e.starts_with('…') && e.ends_with('…'), "{e}");
        assert!(!e.contains('\n'));
        assert!(e.chars().count() < 110, "{e}");
    }
}
