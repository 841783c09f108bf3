//! A ledger on PostgreSQL as the source or the destination of `benchledger copy`
//! (`crate::ledger::copy`): read through a server-side cursor in one repeatable-read snapshot,
//! written through binary `COPY` in one transaction holding the write lock.

use postgres::Transaction;
use postgres::binary_copy::BinaryCopyInWriter;
use postgres::types::{ToSql, Type};

use super::{FETCH_ROWS, Pg, error};
use crate::error::{Error, Result};
use crate::ledger::copy::{Cell, Copied, Sink, Source, TableSink};
use crate::ledger::sql::Value;

impl Pg {
    pub(in crate::ledger) fn with_source(
        &self,
        f: &mut dyn FnMut(&mut dyn Source) -> Result<Copied>,
    ) -> Result<Copied> {
        let mut client = self.client()?;
        let tx = client
            .build_transaction()
            .isolation_level(postgres::IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
            .map_err(|e| self.err(e))?;
        let mut src = PgSource { tx, pg: self };
        let out = f(&mut src)?;
        src.tx.commit().map_err(|e| self.err(e))?;
        Ok(out)
    }

    pub(in crate::ledger) fn with_sink(
        &self,
        f: &mut dyn FnMut(&mut dyn Sink) -> Result<Copied>,
    ) -> Result<Copied> {
        self.write(|tx| f(&mut PgSink { tx, pg: self }))
    }
}

struct PgSource<'c> {
    tx: Transaction<'c>,
    pg: &'c Pg,
}

impl Source for PgSource<'_> {
    fn each_row(
        &mut self,
        table: &str,
        columns: &[String],
        f: &mut dyn FnMut(&[Cell]) -> Result<()>,
    ) -> Result<u64> {
        let path = &self.pg.path;
        let err = |e| error(path, e);
        let stmt = self
            .tx
            .prepare(&format!(
                "SELECT {} FROM {table} ORDER BY 1, 2",
                columns.join(", ")
            ))
            .map_err(err)?;
        let portal = self.tx.bind(&stmt, &[]).map_err(err)?;
        let mut row = Vec::with_capacity(columns.len());
        let mut n = 0;
        loop {
            let rows = self.tx.query_portal(&portal, FETCH_ROWS).map_err(err)?;
            for r in &rows {
                row.clear();
                for (i, c) in r.columns().iter().enumerate() {
                    let ty = c.type_();
                    let cell = if *ty == Type::INT8 {
                        r.try_get::<_, Option<i64>>(i).map(|v| v.map(Cell::Int))
                    } else if *ty == Type::BOOL {
                        r.try_get::<_, Option<bool>>(i)
                            .map(|v| v.map(|b| Cell::Int(i64::from(b))))
                    } else if *ty == Type::FLOAT8 {
                        r.try_get::<_, Option<f64>>(i).map(|v| v.map(Cell::Real))
                    } else if *ty == Type::TEXT {
                        r.try_get::<_, Option<String>>(i).map(|v| v.map(Cell::Text))
                    } else {
                        return Err(Error::Ledger {
                            path: path.clone(),
                            message: format!(
                                "{table}.{} is of type {ty}, which schema.pg.sql never declares: \
                                 the schema was changed behind benchledger's back",
                                c.name()
                            ),
                        });
                    };
                    row.push(cell.map_err(err)?.unwrap_or(Cell::Null));
                }
                f(&row)?;
                n += 1;
            }
            if rows.len() < FETCH_ROWS as usize {
                break;
            }
        }
        Ok(n)
    }
}

struct PgSink<'a, 'c> {
    tx: &'a mut Transaction<'c>,
    pg: &'a Pg,
}

impl Sink for PgSink<'_, '_> {
    fn columns(&mut self, table: &str) -> Result<Vec<String>> {
        Ok(self
            .tx
            .query(
                "SELECT column_name::text FROM information_schema.columns
                 WHERE table_schema = current_schema() AND table_name = $1
                 ORDER BY ordinal_position",
                &[&table],
            )
            .map_err(|e| self.pg.err(e))?
            .iter()
            .map(|r| r.get(0))
            .collect())
    }

    fn count(&mut self, table: &str) -> Result<i64> {
        Ok(self
            .tx
            .query_one(&format!("SELECT count(*) FROM {table}"), &[])
            .map_err(|e| self.pg.err(e))?
            .get(0))
    }

    fn table<'s>(&'s mut self, table: &str, columns: &[String]) -> Result<Box<dyn TableSink + 's>> {
        let list = columns.join(", ");
        let types: Vec<Type> = self
            .tx
            .prepare(&format!("SELECT {list} FROM {table} LIMIT 0"))
            .map_err(|e| self.pg.err(e))?
            .columns()
            .iter()
            .map(|c| c.type_().clone())
            .collect();
        let sink = self
            .tx
            .copy_in(&format!("COPY {table} ({list}) FROM STDIN (FORMAT binary)"))
            .map_err(|e| self.pg.err(e))?;
        Ok(Box::new(PgTable {
            writer: BinaryCopyInWriter::new(sink, &types),
            pg: self.pg,
        }))
    }
}

struct PgTable<'a> {
    writer: BinaryCopyInWriter<'a>,
    pg: &'a Pg,
}

impl TableSink for PgTable<'_> {
    fn write(&mut self, row: &[Cell]) -> Result<()> {
        let values: Vec<Value<'_>> = row.iter().map(value).collect();
        let values: Vec<&(dyn ToSql + Sync)> =
            values.iter().map(|v| v as &(dyn ToSql + Sync)).collect();
        self.writer.write(&values).map_err(|e| self.pg.err(e))
    }

    fn finish(self: Box<Self>) -> Result<()> {
        let pg = self.pg;
        self.writer.finish().map(|_| ()).map_err(|e| pg.err(e))
    }
}

/// A copied value as a parameter: in the column type PostgreSQL asks for (SQLite's integer
/// flags as booleans, its integers as `bigint` or `double precision`; see [`Value`]).
fn value(c: &Cell) -> Value<'_> {
    match c {
        Cell::Null => Value::Null,
        Cell::Int(v) => Value::Int(*v),
        Cell::Real(v) => Value::Real(*v),
        Cell::Text(v) => Value::Text(v),
    }
}
