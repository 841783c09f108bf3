//! Writing a table as a Parquet file, a row group at a time: rows are buffered column by column
//! and written out every [`ROW_GROUP`] rows, so memory stays bounded however many rows there
//! are. Uses the `parquet` crate's own column writers (no arrow), snappy-compressed.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use parquet::basic::Compression;
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;

use super::{Column, Kind, Value};
use crate::error::{Error, Result};

/// Rows per row group.
pub(crate) const ROW_GROUP: usize = 65_536;

/// One column's buffered values and definition levels (1: a value, 0: null).
enum Buffer {
    Int(Vec<i64>),
    Real(Vec<f64>),
    Flag(Vec<bool>),
    Text(Vec<ByteArray>),
}

/// A Parquet file being written.
pub struct Writer {
    path: PathBuf,
    file: SerializedFileWriter<File>,
    columns: &'static [Column],
    buffers: Vec<(Buffer, Vec<i16>)>,
    rows: usize,
    pub written: u64,
}

impl Writer {
    /// Creates `path` for rows of `columns` (every column optional: a null is an unknown).
    pub fn create(path: &Path, name: &str, columns: &'static [Column]) -> Result<Writer> {
        let mut fields = String::new();
        for c in columns {
            let ty = match c.kind {
                Kind::Int => "INT64",
                Kind::Real => "DOUBLE",
                Kind::Flag => "BOOLEAN",
                Kind::Text => "BYTE_ARRAY",
            };
            let annotation = if c.kind == Kind::Text { " (UTF8)" } else { "" };
            fields.push_str(&format!("  OPTIONAL {ty} {}{annotation};\n", c.name));
        }
        let schema =
            parquet::schema::parser::parse_message_type(&format!("message {name} {{\n{fields}}}"))
                .map_err(|e| bug(path, e))?;
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_created_by(format!("benchledger {}", env!("CARGO_PKG_VERSION")))
            .build();
        let file = File::create(path).map_err(|e| Error::io(path, e))?;
        let file = SerializedFileWriter::new(file, Arc::new(schema), Arc::new(props))
            .map_err(|e| write_error(path, e))?;
        let buffers = columns
            .iter()
            .map(|c| {
                let b = match c.kind {
                    Kind::Int => Buffer::Int(Vec::new()),
                    Kind::Real => Buffer::Real(Vec::new()),
                    Kind::Flag => Buffer::Flag(Vec::new()),
                    Kind::Text => Buffer::Text(Vec::new()),
                };
                (b, Vec::new())
            })
            .collect();
        Ok(Writer {
            path: path.to_path_buf(),
            file,
            columns,
            buffers,
            rows: 0,
            written: 0,
        })
    }

    /// Adds a row: one value per column, in order.
    pub fn push(&mut self, row: &[Value<'_>]) -> Result<()> {
        assert_eq!(
            row.len(),
            self.columns.len(),
            "a row of {}",
            self.path.display()
        );
        for ((buffer, defs), v) in self.buffers.iter_mut().zip(row) {
            let present = match (buffer, v) {
                (_, Value::Null) => false,
                (Buffer::Int(b), Value::Int(x)) => {
                    b.push(*x);
                    true
                }
                (Buffer::Real(b), Value::Real(x)) => {
                    b.push(*x);
                    true
                }
                (Buffer::Flag(b), Value::Flag(x)) => {
                    b.push(*x);
                    true
                }
                (Buffer::Text(b), Value::Text(x)) => {
                    b.push(ByteArray::from(x.as_bytes().to_vec()));
                    true
                }
                (_, v) => unreachable!("{v:?} in a column of another kind"),
            };
            defs.push(i16::from(present));
        }
        self.rows += 1;
        if self.rows == ROW_GROUP {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes the buffered rows as a row group.
    fn flush(&mut self) -> Result<()> {
        if self.rows == 0 {
            return Ok(());
        }
        let path = self.path.clone();
        let err = |e| write_error(&path, e);
        let mut group = self.file.next_row_group().map_err(err)?;
        for (buffer, defs) in &mut self.buffers {
            let mut col = group
                .next_column()
                .map_err(err)?
                .expect("a column writer for every column of the schema");
            let defs_slice = Some(defs.as_slice());
            match buffer {
                Buffer::Int(b) => {
                    col.typed::<Int64Type>()
                        .write_batch(b, defs_slice, None)
                        .map_err(err)?;
                    b.clear();
                }
                Buffer::Real(b) => {
                    col.typed::<DoubleType>()
                        .write_batch(b, defs_slice, None)
                        .map_err(err)?;
                    b.clear();
                }
                Buffer::Flag(b) => {
                    col.typed::<BoolType>()
                        .write_batch(b, defs_slice, None)
                        .map_err(err)?;
                    b.clear();
                }
                Buffer::Text(b) => {
                    col.typed::<ByteArrayType>()
                        .write_batch(b, defs_slice, None)
                        .map_err(err)?;
                    b.clear();
                }
            }
            defs.clear();
            col.close().map_err(err)?;
        }
        group.close().map_err(err)?;
        self.written += self.rows as u64;
        self.rows = 0;
        Ok(())
    }

    /// Writes what is buffered and the file's footer. Returns the rows written.
    pub fn finish(mut self) -> Result<u64> {
        self.flush()?;
        let path = self.path.clone();
        self.file.close().map_err(|e| write_error(&path, e))?;
        Ok(self.written)
    }
}

/// A Parquet error while writing `path`: the disk, mostly.
fn write_error(path: &Path, e: parquet::errors::ParquetError) -> Error {
    match e {
        parquet::errors::ParquetError::External(inner) => {
            match inner.downcast::<std::io::Error>() {
                Ok(io) => Error::io(path, *io),
                Err(other) => bug(path, other),
            }
        }
        other => bug(path, other),
    }
}

fn bug(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Ledger {
        path: path.to_path_buf(),
        message: format!("could not write Parquet: {e}"),
    }
}
