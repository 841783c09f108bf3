//! The PostgreSQL schema: `schema.pg.sql`'s migrations, applied and tracked in the database, and
//! the check that a ledger's schema is what they make.
//!
//! "The schema differs" means here what it means for SQLite, object by object: every table
//! (its columns with their types, nullability, collation and default), every constraint (its
//! definition: the CHECKs, keys and references), every index, every trigger (its definition,
//! and whether it is enabled: `ALTER TABLE … DISABLE TRIGGER` is how immutability would be
//! switched off on PostgreSQL) and every function (its whole definition: the trigger function
//! that refuses a change could be edited into one that lets it through), in the ledger's schema,
//! compared with what the migrations make of an empty schema. The expected side is made on the
//! spot, in the session's temporary schema (which a role that may only read can still use),
//! inside a transaction that is rolled back, so the comparison is with
//! this build's `schema.pg.sql` as PostgreSQL itself renders it (`pg_get_constraintdef`,
//! `pg_get_indexdef`, `pg_get_triggerdef`, `pg_get_functiondef`).

use std::collections::BTreeMap;

use super::Pg;
use crate::error::{Error, Result};
use crate::ledger::sql::{Sql, values};
use crate::ledger::{Objects, Purpose, check_version, differences};

/// The PostgreSQL schema, as a list of migrations (see the header of `schema.pg.sql`).
pub(crate) const SCHEMA: &str = include_str!("../../../schema.pg.sql");

/// The table the applied migrations are recorded in, made before the first one runs.
const BOOTSTRAP: &str = "CREATE TABLE IF NOT EXISTS benchledger_migration (
    version bigint PRIMARY KEY CHECK (version >= 1)
)";

/// Splits `schema.pg.sql` into its migrations, as `super::super::migrations` does schema.sql.
pub(crate) fn migrations() -> Vec<String> {
    super::super::split_migrations(SCHEMA, "schema.pg.sql")
}

impl Pg {
    /// Brings the ledger to this build's schema version, or refuses a database that is not a
    /// ledger, an empty one opened rather than created, or one from a newer benchledger.
    /// Returns whether the ledger was created (it had no schema version).
    pub(in crate::ledger) fn prepare(&self, purpose: Purpose) -> Result<bool> {
        let version = self.user_version()?;
        let other_tables = || {
            self.read(|sql| {
                sql.value::<i64>(
                    "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm')
                       AND c.relname <> 'benchledger_migration'",
                    &[],
                )
            })
            .map(|tables| tables > 0)
        };
        check_version(
            &self.path,
            version,
            purpose,
            other_tables,
            "this database is not a benchledger ledger (its schema holds other tables and no \
             benchledger schema version); nothing was changed. Give benchledger a database (or \
             a schema) of its own",
        )?;
        if version < super::super::schema_version() {
            self.migrate()?;
        }
        Ok(version == 0)
    }

    /// Runs every migration not yet applied, in one transaction holding the write lock (so two
    /// processes creating the same ledger at once run them once).
    fn migrate(&self) -> Result<()> {
        let mut client = self.client()?;
        let mut tx = self.begin_write(&mut client)?;
        tx.batch_execute(BOOTSTRAP).map_err(|e| self.err(e))?;
        let now: i64 = Sql::server(&mut tx, &self.path).value(APPLIED, &[])?;
        for (i, sql) in migrations().iter().enumerate().skip(now as usize) {
            let version = (i + 1) as i64;
            tx.batch_execute(sql).map_err(|e| match e.code() {
                Some(c) if c.code().starts_with("23") => Error::Ledger {
                    path: self.path.clone(),
                    message: format!(
                        "this ledger cannot be brought to schema version {version}: a stored \
                         row breaks a constraint that version declares ({}), so it was edited \
                         behind benchledger's back. Nothing was changed",
                        super::words(&e)
                    ),
                },
                _ => self.err(e),
            })?;
            let record = "INSERT INTO benchledger_migration(version) VALUES (?1)";
            Sql::server(&mut tx, &self.path).execute(record, &values![version])?;
        }
        tx.commit().map_err(|e| self.err(e))
    }

    /// The schema version of this ledger: the last migration applied (0: none).
    pub(in crate::ledger) fn user_version(&self) -> Result<i64> {
        self.read(|sql| {
            let exists = "SELECT to_regclass('benchledger_migration') IS NOT NULL";
            match sql.value(exists, &[])? {
                true => sql.value(APPLIED, &[]),
                false => Ok(0),
            }
        })
    }

    /// How this ledger's schema differs from what `schema.pg.sql` makes (see the module's
    /// documentation). Empty when they are the same.
    pub(in crate::ledger) fn schema_differences(&self) -> Result<Vec<String>> {
        let actual = self.read(|sql| objects(sql, None))?;
        let version = self.user_version()?;
        let mut client = self.client()?;
        // The expected schema, made in the session's temporary schema and rolled back: a role
        // that may only read the ledger may still make temporary objects (PostgreSQL grants
        // TEMPORARY to every role by default), where it could not create a schema.
        let mut tx = client.transaction().map_err(|e| self.err(e))?;
        tx.batch_execute(&format!("SET LOCAL search_path = pg_temp; {BOOTSTRAP};"))
            .map_err(|e| self.err(e))?;
        for sql in migrations() {
            // Functions in the temporary schema are found only by their qualified name.
            let sql = sql.replace("benchledger_refuse(", "pg_temp.benchledger_refuse(");
            tx.batch_execute(&sql).map_err(|e| self.err(e))?;
        }
        let expected = {
            let sql = &mut Sql::server(&mut tx, &self.path);
            let scratch: String =
                sql.value("SELECT pg_my_temp_schema()::regnamespace::text", &[])?;
            objects(sql, Some(&scratch))?
        };
        tx.rollback().map_err(|e| self.err(e))?;
        // PostgreSQL names the temporary schema `pg_temp` in definitions.
        let expected = (expected.into_iter())
            .map(|(k, def)| (k, def.replace(" pg_temp.", " ").replace("(pg_temp.", "(")))
            .collect();
        Ok(differences(
            version,
            &expected,
            &actual,
            "schema.pg.sql",
            Some(DISABLED),
        ))
    }
}

/// How a disabled trigger's definition ends in [`objects`].
const DISABLED: &str = " [disabled]";

/// The last migration recorded as applied.
const APPLIED: &str = "SELECT coalesce(max(version), 0) FROM benchledger_migration";

/// The schema objects of `schema` (the connection's current schema when `None`), each as
/// PostgreSQL renders its definition, keyed by kind and name. The schema's own name is taken
/// out of the definitions, so two schemas made alike compare equal.
fn objects(sql: &mut Sql<'_>, schema: Option<&str>) -> Result<Objects> {
    let schema: String = match schema {
        Some(s) => s.to_string(),
        None => sql.value("SELECT current_schema()::text", &[])?,
    };
    let mut out = BTreeMap::new();
    let queries: [(&str, &str); 5] = [
        (
            "table",
            "SELECT c.relname::text, c.relkind::text || ': ' || string_agg(
                 a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
                 || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END
                 || coalesce(' COLLATE ' || co.collname, '')
                 || coalesce(' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), ''),
                 ', ' ORDER BY a.attname)
             FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
             LEFT JOIN pg_collation co ON co.oid = a.attcollation AND a.attcollation <> 0
                 AND co.collname <> 'default'
             LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
             WHERE n.nspname = ?1 AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
             GROUP BY c.relname, c.relkind",
        ),
        (
            "constraint",
            "SELECT cl.relname || '.' || con.conname, pg_get_constraintdef(con.oid)
             FROM pg_constraint con JOIN pg_class cl ON cl.oid = con.conrelid
             JOIN pg_namespace n ON n.oid = cl.relnamespace WHERE n.nspname = ?1",
        ),
        (
            "index",
            "SELECT c.relname::text, pg_get_indexdef(c.oid)
             FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
             JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ?1",
        ),
        (
            "trigger",
            "SELECT t.tgname::text, pg_get_triggerdef(t.oid)
                 || CASE WHEN t.tgenabled = 'D' THEN ' [disabled]' ELSE '' END
             FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
             JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = ?1 AND NOT t.tgisinternal",
        ),
        (
            "function",
            "SELECT p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')',
                 pg_get_functiondef(p.oid)
             FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
             WHERE n.nspname = ?1 AND p.prokind = 'f'",
        ),
    ];
    for (kind, query) in queries {
        let rows = sql.rows(query, &values![&schema], |r| Ok((r.get(0)?, r.get(1)?)))?;
        for (name, def) in rows {
            let def: String = def;
            let def = def
                .replace(&format!(" {schema}."), " ")
                .replace(&format!("({schema}."), "(");
            out.insert((kind.to_string(), name), def);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_two_schemas_have_the_same_migrations() {
        assert_eq!(
            super::migrations().len(),
            crate::ledger::migrations().len(),
            "every migration of schema.sql needs its mirror in schema.pg.sql, numbered the same"
        );
    }
}
