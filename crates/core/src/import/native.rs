//! benchledger's own results formats as importers: JSON lines (`jsonl`) and CSV (`csv`), one
//! attempt a line with the fields the README lists. The reading and checking of each line is
//! [`results`](super::results)'s; this only puts it behind [`Importer`].

use std::path::Path;

use super::{Imported, Importer, Input, Source};
use crate::error::{Error, Result};
use crate::import::results;

/// One JSON object a line.
pub struct JsonLines;

impl Importer for JsonLines {
    fn name(&self) -> &'static str {
        "jsonl"
    }

    fn describes(&self) -> &'static str {
        "benchledger's result lines, one JSON object a line"
    }

    fn finds(&self, _: &dyn Source, path: &Path) -> bool {
        matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("jsonl" | "ndjson")
        )
    }

    fn read(&self, input: &mut Input<'_>) -> Result<Imported> {
        Ok(Imported {
            records: results::read_jsonl(input.src, input.path)?,
            ..Imported::default()
        })
    }
}

/// A CSV with the result lines' field names as its header.
pub struct Csv;

impl Importer for Csv {
    fn name(&self) -> &'static str {
        "csv"
    }

    fn describes(&self) -> &'static str {
        "benchledger's result lines as CSV, the field names as the header"
    }

    fn finds(&self, _: &dyn Source, path: &Path) -> bool {
        path.extension().and_then(|e| e.to_str()) == Some("csv")
    }

    fn read(&self, input: &mut Input<'_>) -> Result<Imported> {
        let text = input
            .src
            .read_text(input.path)
            .map_err(|e| Error::io(input.path, e))?;
        Ok(Imported {
            records: results::parse_csv(input.path, &text)?,
            ..Imported::default()
        })
    }
}
