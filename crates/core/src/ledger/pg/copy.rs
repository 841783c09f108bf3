//! A ledger on PostgreSQL as the source of `benchledger copy` (`crate::ledger::copy`): read
//! through a server-side cursor in one repeatable-read snapshot. (As the destination, it is
//! written through the query layer's sink, binary `COPY`: `conn.rs`.)

use postgres::Transaction;

use super::{FETCH_ROWS, Pg, error};
use crate::error::Result;
use crate::ledger::copy::{Cell, Copied, Source};
use crate::ledger::sql::ServerRow;

impl Pg {
    pub(in crate::ledger) fn with_source(
        &self,
        f: &mut dyn FnMut(&mut dyn Source) -> Result<Copied>,
    ) -> Result<Copied> {
        let mut client = self.client()?;
        let tx = self.snapshot(&mut client)?;
        let mut src = PgSource { tx, pg: self };
        let out = f(&mut src)?;
        src.tx.commit().map_err(|e| self.err(e))?;
        Ok(out)
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
                for (i, column) in columns.iter().enumerate() {
                    row.push(Cell::of(r.value(path, i)?, path, table, column)?);
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
