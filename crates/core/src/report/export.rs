//! Exports: `benchledger export`. The ledger's rows — attempts, seats' absolute figures, or
//! scores under a rubric — as CSV or JSON lines, for a spreadsheet, a notebook or another tool.
//!
//! One contract for every export: each row carries its wave and seat (so the exports of two
//! waves concatenate into one table), the columns come in one documented order (the README's
//! `export` section; [`attempt_columns`] for attempts, `show`'s and `score`'s CSV columns for
//! seats and scores), integers stay integers, a float is written as the shortest text that reads
//! back to the same number (a whole one without `.0`, as in every CSV benchledger prints), and
//! an unknown value is an empty cell in CSV and `null` in JSON — never 0.

use super::{RENDERING_CANNOT_FAIL, Table};
use crate::model::WaveData;
use crate::number::machine;

/// What to export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum What {
    /// One row per attempt, as recorded.
    Attempts,
    /// One row per seat and wave: the absolute figures `show` prints.
    Seats,
    /// One row per seat and wave under a rubric (--rubric): the figures and the score `score`
    /// prints.
    Scores,
}

/// How an export is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// Comma-separated values, a header row first (unless --no-header).
    Csv,
    /// One JSON object per line, keys in the columns' order.
    Jsonl,
    /// Apache Parquet files (attempts, seats, scores) written into --out DIR.
    Parquet,
    /// Every Eval Ever records, one per wave and seat, written into --out DIR.
    Eee,
    /// Hugging Face `.eval_results/` YAML files, per model, written into --out DIR.
    HfEvalResults,
}

/// One value of an exported row.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// Unknown, or not applicable.
    Null,
    Int(i128),
    Float(f64),
    Bool(bool),
    Text(String),
}

impl Value {
    fn opt<T>(v: Option<T>, f: impl FnOnce(T) -> Value) -> Value {
        v.map_or(Value::Null, f)
    }

    /// A value read back from a listing's CSV text: numbers in a numeric column, text otherwise;
    /// empty is unknown.
    fn from_cell(machine: &str, numeric: bool) -> Value {
        if machine.is_empty() {
            return Value::Null;
        }
        if numeric {
            if let Ok(i) = machine.parse::<i128>() {
                return Value::Int(i);
            }
            if let Ok(x) = machine.parse::<f64>()
                && x.is_finite()
            {
                return Value::Float(x);
            }
        }
        Value::Text(machine.to_string())
    }

    fn csv(&self) -> String {
        match self {
            Value::Null => String::new(),
            Value::Int(i) => i.to_string(),
            Value::Float(x) => machine(*x),
            Value::Bool(b) => b.to_string(),
            Value::Text(s) => super::csv_shown(s).into_owned(),
        }
    }

    fn json(&self) -> String {
        match self {
            Value::Null => "null".into(),
            Value::Int(i) => i.to_string(),
            Value::Float(x) if x.is_finite() => machine(*x),
            Value::Float(_) => "null".into(),
            Value::Bool(b) => b.to_string(),
            Value::Text(s) => serde_json::to_string(s).expect(RENDERING_CANNOT_FAIL),
        }
    }
}

/// What an exported column holds, for a face that types its columns (the Python module's
/// Arrow tables): CSV and JSON lines carry it in how each value is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnKind {
    /// Whole numbers: counts, tokens, a trial's number.
    Int,
    /// Real numbers: seconds, dollars, ratios, outcomes.
    Real,
    Bool,
    Text,
}

/// The numeric columns of the seats' and scores' listings that hold real numbers; every other
/// numeric column of theirs counts something.
const REAL_COLUMNS: &[&str] = &[
    "accuracy",
    "wall_s",
    "cost_usd",
    "cost_of_pass_usd",
    "score",
];

/// Rows to export, with their column keys and what each column holds.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Rows {
    pub columns: Vec<String>,
    pub kinds: Vec<ColumnKind>,
    pub rows: Vec<Vec<Value>>,
}

/// The columns of an attempts export, in order.
pub(crate) const ATTEMPT_COLUMNS: &[&str] = &[
    "wave",
    "seat",
    "problem",
    "attempt",
    "correct",
    "outcome",
    "input_tokens",
    "output_tokens",
    "input_tokens_cache_read",
    "input_tokens_cache_write",
    "wall_s",
    "working_s",
    "cost_usd",
    "steps",
    "errors",
    "infra_error",
    "end_reason",
    // Where the attempt came from (at the end, so that the columns before keep their places):
    // its log file or trial directory, and the record in it; empty when its importer did not
    // say, or the wave predates the ledger's keeping it.
    "origin_file",
    "origin_record",
];

/// The columns of an attempts export.
pub fn attempt_columns() -> Vec<String> {
    ATTEMPT_COLUMNS.iter().map(|c| c.to_string()).collect()
}

/// What each column of an attempts export holds, in the order of `ATTEMPT_COLUMNS`.
pub fn attempt_kinds() -> Vec<ColumnKind> {
    use ColumnKind::{Bool, Int, Real, Text};
    vec![
        Text, Text, Text, Int, Bool, Real, Int, Int, Int, Int, Real, Real, Real, Int, Int, Bool,
        Text, Text, Text,
    ]
}

/// Every attempt of a wave, seat by seat in ledger order.
pub fn attempts(data: &WaveData) -> Rows {
    let mut rows = Vec::new();
    let int = |v: Option<u64>| Value::opt(v, |n| Value::Int(i128::from(n)));
    let float = |v: Option<f64>| Value::opt(v, Value::Float);
    for s in &data.seats {
        for a in &s.attempts {
            rows.push(vec![
                Value::Text(data.wave.id.clone()),
                Value::Text(s.seat.id.clone()),
                Value::Text(a.problem.clone()),
                Value::Int(i128::from(a.trial)),
                Value::Bool(a.correct),
                float(a.outcome),
                int(a.input_tokens),
                int(a.output_tokens),
                int(a.input_tokens_cache_read),
                int(a.input_tokens_cache_write),
                float(a.wall_s),
                float(a.working_s),
                float(a.cost_usd),
                int(a.steps.map(u64::from)),
                int(a.errors.map(u64::from)),
                Value::Bool(a.infra_error),
                Value::opt(a.end_reason.clone(), Value::Text),
                Value::opt(a.origin.as_ref().map(|o| o.file.clone()), Value::Text),
                Value::opt(
                    a.origin.as_ref().and_then(|o| o.record.clone()),
                    Value::Text,
                ),
            ]);
        }
    }
    Rows {
        columns: attempt_columns(),
        kinds: attempt_kinds(),
        rows,
    }
}

/// A listing's CSV columns (every column, the machine-only ones too) as rows to export, with
/// `extra` columns inserted after the first (the wave).
pub(crate) fn from_table(t: &Table, extra: &[(&str, Value)]) -> Rows {
    let mut columns: Vec<String> = t.columns.iter().map(|c| c.key.clone()).collect();
    let mut kinds: Vec<ColumnKind> = t
        .columns
        .iter()
        .map(|c| match c.numeric {
            false => ColumnKind::Text,
            true if REAL_COLUMNS.contains(&c.key.as_str()) => ColumnKind::Real,
            true => ColumnKind::Int,
        })
        .collect();
    for (k, (key, value)) in extra.iter().enumerate() {
        columns.insert(1 + k, key.to_string());
        kinds.insert(
            1 + k,
            match value {
                Value::Int(_) => ColumnKind::Int,
                Value::Float(_) => ColumnKind::Real,
                Value::Bool(_) => ColumnKind::Bool,
                Value::Null | Value::Text(_) => ColumnKind::Text,
            },
        );
    }
    let rows = t
        .rows
        .iter()
        .map(|row| {
            let mut values: Vec<Value> = row
                .iter()
                .zip(&t.columns)
                .map(|(cell, c)| Value::from_cell(&cell.machine, c.numeric))
                .collect();
            for (k, (_, v)) in extra.iter().enumerate() {
                values.insert(1 + k, v.clone());
            }
            values
        })
        .collect();
    Rows {
        columns,
        kinds,
        rows,
    }
}

/// Several waves' rows as one table: every column any of them has, in the order each first
/// appears (a column only a later wave has, such as `canary_failures`, comes after the first
/// wave's), and each row's cell of a column its wave lacks unknown. So a CSV of several waves
/// keeps every value under its own header, and it matches the table the Python package builds.
pub fn concat(parts: Vec<Rows>) -> Rows {
    if parts.windows(2).all(|w| w[0].columns == w[1].columns) {
        let mut parts = parts.into_iter();
        let Some(mut all) = parts.next() else {
            return Rows::default();
        };
        for p in parts {
            all.rows.extend(p.rows);
        }
        return all;
    }
    let mut all = Rows::default();
    for p in &parts {
        for (name, kind) in p.columns.iter().zip(&p.kinds) {
            if !all.columns.contains(name) {
                all.columns.push(name.clone());
                all.kinds.push(*kind);
            }
        }
    }
    for p in parts {
        let at: Vec<usize> = p
            .columns
            .iter()
            .map(|c| {
                all.columns
                    .iter()
                    .position(|a| a == c)
                    .expect("every column is in the union")
            })
            .collect();
        for row in p.rows {
            let mut cells = vec![Value::Null; all.columns.len()];
            for (v, &i) in row.into_iter().zip(&at) {
                cells[i] = v;
            }
            all.rows.push(cells);
        }
    }
    all
}

/// CSV: the header row (when asked) and the rows.
pub fn to_csv(rows: &Rows, header: bool) -> String {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    if header {
        w.write_record(&rows.columns).expect(RENDERING_CANNOT_FAIL);
    }
    for row in &rows.rows {
        w.write_record(row.iter().map(Value::csv))
            .expect(RENDERING_CANNOT_FAIL);
    }
    let bytes = w.into_inner().expect(RENDERING_CANNOT_FAIL);
    String::from_utf8(bytes).expect("CSV is written from UTF-8 values")
}

/// JSON lines: one object per row, its keys in the columns' order.
pub(crate) fn to_jsonl(rows: &Rows) -> String {
    let mut out = String::new();
    for row in &rows.rows {
        out.push('{');
        for (k, (key, v)) in rows.columns.iter().zip(row).enumerate() {
            if k > 0 {
                out.push(',');
            }
            out.push_str(&serde_json::to_string(key).expect(RENDERING_CANNOT_FAIL));
            out.push(':');
            out.push_str(&v.json());
        }
        out.push_str("}\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_keep_their_kind_in_both_formats() {
        let rows = Rows {
            columns: vec!["a".into(), "b".into(), "c".into(), "d".into(), "e".into()],
            kinds: Vec::new(),
            rows: vec![vec![
                Value::Int(400_000),
                Value::Float(132.0),
                Value::Float(0.1 + 0.2),
                Value::Null,
                Value::Text("x,\"y\"".into()),
            ]],
        };
        assert_eq!(
            to_csv(&rows, true),
            "a,b,c,d,e\n400000,132,0.30000000000000004,,\"x,\"\"y\"\"\"\n"
        );
        assert_eq!(to_csv(&rows, false).lines().count(), 1);
        assert_eq!(
            to_jsonl(&rows),
            "{\"a\":400000,\"b\":132,\"c\":0.30000000000000004,\"d\":null,\"e\":\"x,\\\"y\\\"\"}\n"
        );
    }

    #[test]
    fn cells_read_back_as_numbers_only_in_numeric_columns() {
        assert_eq!(Value::from_cell("12", true), Value::Int(12));
        assert_eq!(Value::from_cell("1.5", true), Value::Float(1.5));
        assert_eq!(Value::from_cell("1-3", true), Value::Text("1-3".into()));
        assert_eq!(Value::from_cell("12", false), Value::Text("12".into()));
        assert_eq!(Value::from_cell("", false), Value::Null);
    }
}
