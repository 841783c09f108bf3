//! The two schema files held equal: what `schema.sql` makes of an SQLite ledger and what
//! `schema.pg.sql` makes of a PostgreSQL one must be the same tables, with the same columns
//! (type, nullability, default), the same constraints (primary keys, unique keys, references,
//! which columns a CHECK guards) and the same indexes and append-only triggers.
//!
//! The SQLite side is read from a ledger the migrations made (its catalogue holds each table's
//! final `CREATE TABLE`); the PostgreSQL side is `schema.pg.sql`'s statements played in order
//! (`CREATE TABLE`, `ALTER TABLE … ADD COLUMN | ADD CONSTRAINT | DROP CONSTRAINT | ALTER COLUMN
//! … DROP DEFAULT`, `CREATE INDEX`, `DROP INDEX`, `CREATE TRIGGER`), so no server is needed. A statement the
//! player does not know fails the test: teach it, rather than let the schemas drift unseen.

use std::collections::{BTreeMap, BTreeSet};

/// A column as both dialects can say it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Column {
    /// `int`, `real`, `text` or `bool` (SQLite's flags: INTEGER with `CHECK (c IN (0, 1))`).
    kind: &'static str,
    not_null: bool,
    default: bool,
    /// The table it refers to.
    references: Option<String>,
    /// Whether a CHECK (other than a flag's) names it.
    checked: bool,
}

#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Table {
    columns: BTreeMap<String, Column>,
    primary_key: Vec<String>,
    unique: BTreeSet<Vec<String>>,
    /// The text of each CHECK, to tell which columns it names.
    checks: Vec<String>,
}

/// Everything compared: tables, indexes (name to table and columns) and the triggers that
/// refuse a change (table to the statements refused).
#[derive(Debug, Default, PartialEq, Eq)]
struct Schema {
    tables: BTreeMap<String, Table>,
    indexes: BTreeMap<String, (String, Vec<String>)>,
    refused: BTreeMap<String, BTreeSet<String>>,
}

/// `sql` without `--` comments.
fn uncommented(sql: &str) -> String {
    sql.lines()
        .map(|l| l.split_once("--").map_or(l, |(code, _)| code))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Splits `s` at `sep` outside parentheses, quotes and `$$` bodies.
fn split_top(s: &str, sep: char) -> Vec<String> {
    let (mut out, mut cur, mut depth, mut quoted, mut dollar) =
        (vec![], String::new(), 0, false, false);
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek() == Some(&'$') && !quoted {
            dollar = !dollar;
            cur.push(c);
            cur.push(chars.next().unwrap_or('$'));
            continue;
        }
        match c {
            '\'' if !dollar => quoted = !quoted,
            '(' if !quoted && !dollar => depth += 1,
            ')' if !quoted && !dollar => depth -= 1,
            c if c == sep && depth == 0 && !quoted && !dollar => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur);
    out.into_iter()
        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|s| !s.is_empty())
        .collect()
}

/// The text between the first `(` of `s` and its matching `)`, and what follows it.
fn parenthesised(s: &str) -> (&str, &str) {
    let open = s.find('(').expect("a parenthesis");
    let mut depth = 0;
    for (i, c) in s[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return (&s[open + 1..open + i], &s[open + i + 1..]);
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced parentheses in {s}")
}

fn names(list: &str) -> Vec<String> {
    list.split(',').map(|c| c.trim().to_lowercase()).collect()
}

/// Where the next `CHECK (` of `s` starts (not a column named `checklist`).
fn find_check(s: &str) -> Option<usize> {
    let upper = s.to_uppercase();
    let mut from = 0;
    while let Some(at) = upper[from..].find("CHECK") {
        let at = from + at;
        let before = upper[..at].chars().next_back();
        let boundary = before.is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        if boundary && upper[at + 5..].trim_start().starts_with('(') {
            return Some(at);
        }
        from = at + 5;
    }
    None
}

/// Whether `text` names the identifier `word`.
fn names_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w.eq_ignore_ascii_case(word))
}

impl Table {
    /// Adds a column definition or a table constraint.
    fn add(&mut self, item: &str) {
        let upper = item.to_uppercase();
        if let Some(rest) = upper.strip_prefix("PRIMARY KEY") {
            self.primary_key = names(parenthesised(rest).0);
        } else if let Some(rest) = upper.strip_prefix("UNIQUE") {
            self.unique.insert(names(parenthesised(rest).0));
        } else if upper.starts_with("CHECK") || upper.starts_with("CONSTRAINT") {
            self.checks.push(item.to_string());
        } else {
            self.add_column(item);
        }
    }

    fn add_column(&mut self, item: &str) {
        let mut words = item.split_whitespace();
        let name = words
            .next()
            .expect("a column name")
            .trim_matches('"')
            .to_lowercase();
        let ty = words.next().expect("a column type").to_lowercase();
        let kind = match ty.as_str() {
            "integer" | "bigint" => "int",
            "real" | "double" => "real",
            "text" => "text",
            "boolean" => "bool",
            other => panic!("column {name}: type {other} is neither dialect's"),
        };
        let upper = item.to_uppercase();
        let references = upper
            .split_once("REFERENCES ")
            .map(|(_, t)| t.split('(').next().unwrap_or("").trim().to_lowercase());
        let mut checks = Vec::new();
        let mut rest = item;
        while let Some(at) = find_check(rest) {
            let (inside, after) = parenthesised(&rest[at..]);
            checks.push(inside.to_string());
            rest = after;
        }
        // SQLite's flags are integers checked to be 0 or 1: a boolean, not a constraint.
        let flag = format!("{name} IN (0, 1)");
        let kind = if checks.iter().any(|c| c.contains(&flag)) {
            "bool"
        } else {
            kind
        };
        if upper.contains("PRIMARY KEY") {
            self.primary_key = vec![name.clone()];
        }
        if names_word(&upper, "UNIQUE") {
            self.unique.insert(vec![name.clone()]);
        }
        self.checks
            .extend(checks.into_iter().map(|c| c.replace(&flag, "")));
        let column = Column {
            kind,
            not_null: upper.contains("NOT NULL"),
            default: upper.contains("DEFAULT"),
            references,
            checked: false,
        };
        self.columns.insert(name, column);
    }

    /// The table as compared: a key's columns are not null, and each column knows whether
    /// a CHECK names it.
    fn settled(mut self) -> Table {
        let checks = std::mem::take(&mut self.checks);
        for (name, c) in &mut self.columns {
            c.not_null |= self.primary_key.contains(name);
            c.checked = checks.iter().any(|check| names_word(check, name));
        }
        self.unique.remove(&self.primary_key);
        self
    }
}

/// What `schema.pg.sql`'s migrations make, played statement by statement.
fn postgres() -> Schema {
    let mut s = Schema::default();
    let file = include_str!("../../schema.pg.sql");
    for migration in super::split_migrations(file, "schema.pg.sql") {
        for stmt in split_top(&uncommented(&migration), ';') {
            let upper = stmt.to_uppercase();
            let word = |i: usize| stmt.split_whitespace().nth(i).unwrap_or("").to_lowercase();
            if upper.starts_with("CREATE FUNCTION") {
                continue;
            } else if upper.starts_with("CREATE TABLE") {
                let mut t = Table::default();
                split_top(parenthesised(&stmt).0, ',')
                    .iter()
                    .for_each(|i| t.add(i));
                s.tables.insert(word(2), t);
            } else if upper.starts_with("CREATE INDEX") {
                let (cols, _) = parenthesised(&stmt);
                let table = word(4).split('(').next().unwrap_or("").to_string();
                s.indexes.insert(word(2), (table, names(cols)));
            } else if upper.starts_with("DROP INDEX") {
                assert!(
                    s.indexes.remove(&word(2)).is_some(),
                    "a dropped index exists"
                );
            } else if upper.starts_with("CREATE TRIGGER") {
                s.refused
                    .entry(word(6))
                    .or_default()
                    .insert(word(4).to_uppercase());
            } else if upper.starts_with("ALTER TABLE") {
                let t = s.tables.get_mut(&word(2)).expect("an altered table exists");
                let (_, action) = stmt.split_at(upper.find(&word(3).to_uppercase()).unwrap());
                if let Some(col) = action.strip_prefix("ADD COLUMN ") {
                    t.add_column(col);
                } else if upper.contains(" ADD CONSTRAINT ") && upper.contains(" CHECK ") {
                    t.checks.push(action.to_string());
                } else if let Some(name) = action.strip_prefix("DROP CONSTRAINT ") {
                    // PostgreSQL names a column's own CHECK `TABLE_COLUMN_check`.
                    let column = name
                        .trim()
                        .strip_prefix(&format!("{}_", word(2)))
                        .and_then(|n| n.strip_suffix("_check"))
                        .filter(|c| t.columns.contains_key(*c))
                        .unwrap_or_else(|| panic!("the schema test does not know: {stmt}"));
                    let before = t.checks.len();
                    t.checks.retain(|c| !names_word(c, column));
                    assert!(t.checks.len() < before, "a dropped CHECK exists: {stmt}");
                } else if upper.ends_with("DROP DEFAULT") {
                    t.columns.get_mut(&word(5)).expect("the column").default = false;
                } else {
                    panic!("the schema test does not know: {stmt}");
                }
            } else {
                panic!("the schema test does not know: {stmt}");
            }
        }
    }
    s.tables = s
        .tables
        .into_iter()
        .map(|(n, t)| (n, t.settled()))
        .collect();
    s
}

/// What `schema.sql`'s migrations make, read from a new ledger's catalogue.
fn sqlite() -> Schema {
    let ledger = super::Ledger::in_memory().unwrap();
    let conn = ledger.conn();
    let mut stmt = conn
        .prepare(
            "SELECT type, name, tbl_name, sql FROM sqlite_master
             WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .unwrap();
    let rows: Vec<(String, String, String, String)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    let mut s = Schema::default();
    for (kind, name, table, sql) in rows {
        let sql = uncommented(&sql);
        match kind.as_str() {
            "table" => {
                let mut t = Table::default();
                split_top(parenthesised(&sql).0, ',')
                    .iter()
                    .for_each(|i| t.add(i));
                s.tables.insert(name, t.settled());
            }
            "index" => {
                s.indexes
                    .insert(name, (table, names(parenthesised(&sql).0)));
            }
            "trigger" => {
                let event = sql.split_whitespace().nth(4).unwrap_or("").to_uppercase();
                s.refused.entry(table).or_default().insert(event);
            }
            other => panic!("{other} {name} in schema.sql"),
        }
    }
    s
}

#[test]
fn the_two_schema_files_make_the_same_tables_constraints_indexes_and_triggers() {
    let (lite, mut pg) = (sqlite(), postgres());
    // PostgreSQL's TRUNCATE fires no row trigger: each table refusing DELETE refuses it too.
    for (table, events) in &mut pg.refused {
        assert_eq!(
            events.remove("TRUNCATE"),
            events.contains("DELETE"),
            "{table}: schema.pg.sql refuses DELETE and TRUNCATE together"
        );
    }
    let tables: Vec<&String> = lite.tables.keys().collect();
    assert_eq!(tables, pg.tables.keys().collect::<Vec<_>>(), "the tables");
    for (name, table) in &lite.tables {
        assert_eq!(table, &pg.tables[name], "table {name}");
    }
    assert_eq!(lite.indexes, pg.indexes, "the indexes");
    assert_eq!(lite.refused, pg.refused, "the append-only triggers");
    assert!(lite.refused["attempt"].contains("UPDATE"));
}

#[test]
fn a_column_that_differs_is_caught() {
    let mut a = Table::default();
    a.add("n bigint NOT NULL CHECK (n >= 1)");
    let mut b = Table::default();
    b.add("n INTEGER NOT NULL");
    assert_ne!(a.clone().settled(), b.settled());
    let mut c = Table::default();
    c.add("n INTEGER NOT NULL CHECK (n >= 1)");
    assert_eq!(a.settled(), c.settled());
}
