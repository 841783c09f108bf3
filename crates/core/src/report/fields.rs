//! A listing's columns declared once, each with how a row yields its cell.
//!
//! A table written out column by column keeps its headers in one list and its cells in
//! another, in the same order by hand: a long function, and a column added to one list and
//! not the other puts every cell after it under the wrong header. A [`Fields`] holds each
//! column beside the function that makes its cell from a row, so the two cannot drift apart
//! and a listing reads as the list of what it shows.

use super::{Cell, Column, Table};

/// One column of a listing of rows of type `R`, and how a row yields its cell.
struct Field<'a, R> {
    column: Column,
    cell: Box<dyn Fn(&R) -> Cell + 'a>,
}

/// The columns of a listing of rows of type `R`, in the order they are shown.
pub(crate) struct Fields<'a, R> {
    fields: Vec<Field<'a, R>>,
}

impl<'a, R> Fields<'a, R> {
    pub(crate) fn new() -> Self {
        Fields { fields: Vec::new() }
    }

    /// The column, its cell made from a row by `cell`.
    pub(crate) fn with(mut self, column: Column, cell: impl Fn(&R) -> Cell + 'a) -> Self {
        self.push(column, cell);
        self
    }

    /// The column when `shown`, else none.
    pub(crate) fn with_if(
        self,
        shown: bool,
        column: Column,
        cell: impl Fn(&R) -> Cell + 'a,
    ) -> Self {
        if shown { self.with(column, cell) } else { self }
    }

    /// The column when there is one, else none.
    pub(crate) fn with_some(self, column: Option<Column>, cell: impl Fn(&R) -> Cell + 'a) -> Self {
        match column {
            Some(c) => self.with(c, cell),
            None => self,
        }
    }

    /// Adds the column, its cell made from a row by `cell`.
    pub(crate) fn push(&mut self, column: Column, cell: impl Fn(&R) -> Cell + 'a) {
        self.fields.push(Field {
            column,
            cell: Box::new(cell),
        });
    }

    /// These columns followed by every column of `other`, whose rows are a part of these
    /// (`part` gives it): a listing of seats takes the absolute figures' columns whole.
    pub(crate) fn with_all<S: 'a>(
        mut self,
        other: Fields<'a, S>,
        part: impl Fn(&R) -> &S + Copy + 'a,
    ) -> Self {
        for f in other.fields {
            let cell = f.cell;
            self.push(f.column, move |r| cell(part(r)));
        }
        self
    }

    /// The columns, in order.
    pub(crate) fn columns(&self) -> Vec<Column> {
        self.fields.iter().map(|f| f.column.clone()).collect()
    }

    /// One row's cells, in the columns' order.
    pub(crate) fn cells(&self, row: &R) -> Vec<Cell> {
        self.fields.iter().map(|f| (f.cell)(row)).collect()
    }

    /// A table of these columns, one row of cells for each of `rows`, in order.
    pub(crate) fn table<'r>(&self, rows: impl IntoIterator<Item = &'r R>) -> Table
    where
        R: 'r,
    {
        let mut t = Table::new(self.columns());
        t.rows = rows.into_iter().map(|r| self.cells(r)).collect();
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each row's cells come in the columns' order, a column left out takes its cells with it.
    #[test]
    fn each_column_brings_its_own_cells() {
        let rows = [("a", 1), ("b", 2)];
        for shown in [true, false] {
            let t = Fields::new()
                .with(Column::text("Name", "name"), |r: &(&str, i32)| {
                    Cell::text(r.0)
                })
                .with_if(shown, Column::num("Twice", "twice"), |r| {
                    Cell::text((r.1 * 2).to_string())
                })
                .with(Column::num("N", "n"), |r| Cell::text(r.1.to_string()))
                .table(&rows);
            let headers: Vec<&str> = t.columns.iter().map(|c| c.header.as_str()).collect();
            let cells: Vec<Vec<&str>> = t
                .rows
                .iter()
                .map(|r| r.iter().map(|c| c.human.as_str()).collect())
                .collect();
            if shown {
                assert_eq!(headers, ["Name", "Twice", "N"]);
                assert_eq!(cells, [["a", "2", "1"], ["b", "4", "2"]]);
            } else {
                assert_eq!(headers, ["Name", "N"]);
                assert_eq!(cells, [["a", "1"], ["b", "2"]]);
            }
        }
    }

    /// A part's columns come after the whole's, each cell made from the row's part.
    #[test]
    fn a_parts_columns_take_their_cells_from_the_part() {
        let part = Fields::new().with(Column::num("Len", "len"), |s: &String| {
            Cell::text(s.len().to_string())
        });
        let rows = [(1, "ab".to_string()), (2, "xyz".to_string())];
        let fields = Fields::new()
            .with(Column::num("N", "n"), |r: &(i32, String)| {
                Cell::text(r.0.to_string())
            })
            .with_all(part, |r| &r.1);
        let t = fields.table(&rows);
        let headers: Vec<&str> = t.columns.iter().map(|c| c.header.as_str()).collect();
        assert_eq!(headers, ["N", "Len"]);
        let cells: Vec<Vec<&str>> = t
            .rows
            .iter()
            .map(|r| r.iter().map(|c| c.human.as_str()).collect())
            .collect();
        assert_eq!(cells, [["1", "2"], ["2", "3"]]);
        assert_eq!(fields.cells(&rows[0]).len(), fields.columns().len());
    }
}
