//! An export's rows as Arrow arrays, handed to Python through the Arrow C stream interface
//! (`__arrow_c_stream__`, the PyCapsule protocol): `pyarrow.table(...)`, `polars.from_arrow`
//! and DuckDB take them without a row of Python objects being made.
//!
//! The columns are exactly `export --what attempts|seats`'s, in its order; each is typed by
//! what it holds ([`ColumnKind`]): whole numbers as int64, real numbers as float64, flags as
//! booleans, text as UTF-8, an unknown as null. The waves' rows follow one another in ledger
//! order, as the export writes them. Waves whose listings differ in a column (a wave with
//! canary problems has `canary_failures`) make one table of every column, in the order first
//! met, null where a wave has none.

use std::sync::Arc;

use arrow_array::builder::{BooleanBuilder, Float64Builder, Int64Builder, StringBuilder};
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{ArrayRef, RecordBatch, RecordBatchIterator};
use arrow_schema::{Field, Schema};
use benchledger_core::report::export::{ColumnKind, Rows, Value};
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

/// A table of an export, ready to cross into Python: `pyarrow.table(t)` reads it.
#[pyclass(module = "benchledger._native", frozen)]
pub struct Table {
    batch: RecordBatch,
}

#[pymethods]
impl Table {
    /// The Arrow C stream interface: a capsule holding a stream of the table's one batch.
    /// Each call makes a new stream over the same arrays.
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        // A consumer's requested schema is a hint a producer may ignore (the interface's
        // rule): the columns' types are the export's.
        let _ = requested_schema;
        let batch = self.batch.clone();
        let schema = batch.schema();
        let reader = RecordBatchIterator::new([Ok(batch)], schema);
        let stream = FFI_ArrowArrayStream::new(Box::new(reader));
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }

    /// How many rows the table holds.
    fn __len__(&self) -> usize {
        self.batch.num_rows()
    }
}

impl Table {
    /// The rows of every wave, one table. `what` names the export in an error.
    pub fn of(waves: &[Rows], what: &str) -> Result<Table, String> {
        let mut columns: Vec<(String, ColumnKind)> = Vec::new();
        for rows in waves {
            for (name, kind) in rows.columns.iter().zip(&rows.kinds) {
                if !columns.iter().any(|(c, _)| c == name) {
                    columns.push((name.clone(), *kind));
                }
            }
        }
        if columns.is_empty() && what == "attempts" {
            let kinds = benchledger_core::report::export::attempt_kinds();
            columns = benchledger_core::report::export::attempt_columns()
                .into_iter()
                .zip(kinds)
                .collect();
        }
        let mut fields = Vec::with_capacity(columns.len());
        let mut arrays: Vec<ArrayRef> = Vec::with_capacity(columns.len());
        for (name, kind) in &columns {
            // Each wave's values of this column (None: the wave has no such column).
            let values = waves.iter().flat_map(|rows| {
                let at = rows.columns.iter().position(|c| c == name);
                rows.rows.iter().map(move |r| at.map(|k| &r[k]))
            });
            let array = column(*kind, values)
                .map_err(|v| format!("{what}: column {name} holds {v:?}, not a {kind:?}"))?;
            fields.push(Field::new(name, array.data_type().clone(), true));
            arrays.push(array);
        }
        let schema = Arc::new(Schema::new(fields));
        let batch = RecordBatch::try_new(schema, arrays).map_err(|e| e.to_string())?;
        Ok(Table { batch })
    }
}

/// One column's array from its values (`None` or `Value::Null`: null); a value of another kind
/// is returned as the error (a whole number in a column of real numbers is that number).
fn column<'a>(
    kind: ColumnKind,
    values: impl Iterator<Item = Option<&'a Value>>,
) -> Result<ArrayRef, Value> {
    let bad = |v: &Value| v.clone();
    Ok(match kind {
        ColumnKind::Int => {
            let mut b = Int64Builder::new();
            for v in values {
                match v {
                    None | Some(Value::Null) => b.append_null(),
                    Some(Value::Int(i)) => {
                        b.append_value(i64::try_from(*i).map_err(|_| bad(&Value::Int(*i)))?)
                    }
                    Some(other) => return Err(bad(other)),
                }
            }
            Arc::new(b.finish())
        }
        ColumnKind::Real => {
            let mut b = Float64Builder::new();
            for v in values {
                match v {
                    None | Some(Value::Null) => b.append_null(),
                    Some(Value::Float(x)) => b.append_value(*x),
                    // An exact conversion: export values are far below 2^53.
                    Some(Value::Int(i)) => b.append_value(*i as f64),
                    Some(other) => return Err(bad(other)),
                }
            }
            Arc::new(b.finish())
        }
        ColumnKind::Bool => {
            let mut b = BooleanBuilder::new();
            for v in values {
                match v {
                    None | Some(Value::Null) => b.append_null(),
                    Some(Value::Bool(x)) => b.append_value(*x),
                    Some(other) => return Err(bad(other)),
                }
            }
            Arc::new(b.finish())
        }
        ColumnKind::Text => {
            let mut b = StringBuilder::new();
            for v in values {
                match v {
                    None | Some(Value::Null) => b.append_null(),
                    Some(Value::Text(s)) => b.append_value(s),
                    Some(other) => return Err(bad(other)),
                }
            }
            Arc::new(b.finish())
        }
    })
}
