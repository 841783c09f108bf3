//! A `.json` Inspect log: one JSON document, read as a stream. Its top-level fields are
//! visited in the order written — inspect_ai writes the header (`version`, `status`, `eval`,
//! `plan`, `results`, `stats`, `error`) before `samples` — and `samples` one element at a
//! time, each reduced to its figures and tool calls as it is read ([`super::log::Sample`]).
//! Only the header and those reductions are held; `messages`, `output`, `store`,
//! `attachments` and every event but a tool call's name and error are scanned past unparsed.
//!
//! A log that did not succeed, or the header alone ([`Mode::Head`]), stops reading at
//! `samples`.

use std::io::Read;
use std::path::Path;

use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, Visitor};

use super::log::{Header, Sample, SamplesSeed};
use super::{Log, Mode};
use crate::error::{Error, Result};
use crate::import::Progress;

#[derive(serde::Deserialize)]
#[serde(field_identifier, rename_all = "snake_case")]
enum Field {
    Version,
    Status,
    Eval,
    Plan,
    Results,
    Stats,
    Error,
    Samples,
    #[serde(other)]
    Other,
}

/// How a read of the document ended early.
enum Stop {
    /// A record was refused: this error.
    Failed(Error),
    /// Nothing more was wanted: the header was all that was asked for, or the run did not
    /// succeed and its samples will not be read.
    Enough,
}

struct Top<'a> {
    log: &'a mut Log,
    mode: Mode,
    progress: &'a mut dyn Progress,
    stop: &'a mut Option<Stop>,
    /// How many samples were read whole, and whether reading is inside `samples`.
    sample_at: &'a mut Option<usize>,
    each: &'a mut dyn FnMut(&Header, Sample) -> Result<()>,
}

impl<'de> DeserializeSeed<'de> for Top<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Top<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an Inspect log (a JSON object with eval, results, stats and samples)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<(), A::Error> {
        use serde::de::Error as _;
        let mut saw_samples = false;
        while let Some(key) = map.next_key::<Field>()? {
            let h = &mut self.log.header;
            match key {
                Field::Version => h.version = map.next_value()?,
                Field::Status => {
                    h.status = map.next_value()?;
                    self.log.status_read = true;
                }
                Field::Eval => h.eval = map.next_value()?,
                Field::Plan => h.plan = map.next_value()?,
                Field::Results => h.results = map.next_value()?,
                Field::Stats => h.stats = map.next_value()?,
                Field::Error => h.error = map.next_value()?,
                Field::Samples => {
                    saw_samples = true;
                    // A status given and not a success: null is not one either.
                    let unfinished = self.log.status_read && h.status.as_deref() != Some("success");
                    if self.mode == Mode::Head || unfinished {
                        *self.stop = Some(Stop::Enough);
                        return Err(A::Error::custom("stopped before the samples"));
                    }
                    if let Some(n) = h.results.as_ref().and_then(|r| r.total_samples) {
                        self.progress.total(n);
                    }
                    let mut at = 0usize;
                    *self.sample_at = Some(0);
                    let progress = &mut *self.progress;
                    let each = &mut *self.each;
                    let stop = &mut *self.stop;
                    let header: &Header = &self.log.header;
                    let mut one = |s: Sample| -> std::result::Result<(), String> {
                        match each(header, s) {
                            Ok(()) => {
                                progress.advance(1);
                                Ok(())
                            }
                            Err(e) => {
                                *stop = Some(Stop::Failed(e));
                                Err("stopped at a bad sample".into())
                            }
                        }
                    };
                    let seed = SamplesSeed {
                        each: &mut one,
                        at: &mut at,
                        trace: self.mode == Mode::Trace,
                    };
                    let r = map.next_value_seed(seed);
                    *self.sample_at = Some(at);
                    r?;
                    *self.sample_at = None;
                    self.log.samples_read = true;
                }
                Field::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        self.log.no_samples = !saw_samples;
        // Read to its end: a status not given is known to be missing.
        self.log.status_read = true;
        Ok(())
    }
}

/// Reads a `.json` log from `reader`, handing each sample to `each` as it is read.
/// `reopen` gives the file again, to show the text at a syntax error.
pub fn read<'r>(
    path: &Path,
    reader: impl Read,
    mode: Mode,
    progress: &mut dyn Progress,
    each: &mut dyn FnMut(&Header, Sample) -> Result<()>,
    reopen: &mut dyn FnMut() -> Option<Box<dyn Read + 'r>>,
) -> Result<Log> {
    let mut log = Log::default();
    let mut stop = None;
    let mut sample_at = None;
    let mut de = serde_json::Deserializer::from_reader(std::io::BufReader::with_capacity(
        256 * 1024,
        reader,
    ));
    let read = Top {
        log: &mut log,
        mode,
        progress,
        stop: &mut stop,
        sample_at: &mut sample_at,
        each,
    }
    .deserialize(&mut de)
    .and_then(|()| de.end());
    match (read, stop) {
        (_, Some(Stop::Failed(e))) => Err(e),
        (_, Some(Stop::Enough)) | (Ok(()), None) => Ok(log),
        (Err(e), None) => Err(super::json_error(
            path,
            &e,
            sample_at.map(|i| format!("samples[{i}]")),
            reopen,
        )),
    }
}
