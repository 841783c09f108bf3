//! A reading command's output as data: what people read and what a program reads, built
//! together so that they cannot disagree.

use crate::report::Table;

/// A reading command's output as data: its kind (the JSON envelope's `kind`), the table a
/// person reads and the JSON body a program reads.
#[derive(Debug, Clone)]
pub struct Document {
    pub kind: &'static str,
    pub table: Table,
    pub json: serde_json::Value,
}

impl Document {
    pub(super) fn new<T: serde::Serialize>(kind: &'static str, table: Table, json: &T) -> Document {
        Document {
            kind,
            table,
            json: serde_json::to_value(json).expect(crate::report::RENDERING_CANNOT_FAIL),
        }
    }

    /// The JSON document, exactly as `--format json` prints it.
    pub fn to_json(&self) -> String {
        crate::report::to_json(self.kind, &self.json)
    }
}
