//! The ledger: one SQLite file holding every wave, rubric, score and publication.
//!
//! This module is the only place in benchledger that speaks SQL, and each query is written
//! once for both stores, SQLite and PostgreSQL (`sql.rs`; the server's own code in `pg/`).
//! `schema.sql` at the crate root is the single source of truth for the tables (`schema.pg.sql`
//! says the same in PostgreSQL's dialect, held equal by a test: `schemas.rs`); it is embedded here and run as a list of
//! append-only migrations against `PRAGMA user_version`, in one transaction. A ledger written by
//! a newer benchledger (a higher `user_version`) is refused rather than misread.
//!
//! Every connection turns on foreign keys, WAL journalling with `synchronous = NORMAL`, and a
//! busy timeout, so concurrent writers wait for each other instead of failing or losing data
//! (how long, and what a reader does with a ledger it cannot write: `access.rs`). Each logical
//! write (an ingest, a rescore, a publication) is one transaction: it lands whole or not at all;
//! one that cannot complete because of the ledger's surroundings (busy, read-only, a full or
//! failing disk) is an [`Error::Unavailable`].

mod access;
mod chain;
pub mod copy;
#[cfg(feature = "postgres")]
mod credentials;
mod image;
mod log;
#[cfg(feature = "postgres")]
mod pg;
mod prices;
mod publications;
mod raw;
mod references;
mod registered;
mod reviews;
mod rubrics;
mod scan;
#[cfg(test)]
mod schemas;
mod scores;
mod sql;
mod stage;
mod tallies;
mod waves;

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use crate::cancel::Cancel;
use crate::error::{Error, Hint, Result};
use sql::Sql;

pub use access::Wait;
pub use image::IMAGE_MAX_BYTES;
pub use log::{LOG_SCHEMA_VERSION, LogCoverage};
pub use prices::PricesAdded;
pub use publications::{MakeEnvelope, NewPublication};
pub use rubrics::RubricAdded;
pub use scores::ScoreWriter;
pub use stage::Staging;
pub use tallies::SeatTallies;
pub(crate) use tallies::read_tally;
pub use waves::Ingested;
// The rows the ledger stores are plain data, defined in the model; named here too, where a
// caller of the ledger looks for them.
pub use crate::model::{
    ChainEntry, LogEntryRow, LogKind, NewWithdrawal, PriceTableRow, PublicationRow, RubricRow,
    RulesRow, StoredClaims, WaveReviewRow, WaveRow, WithdrawalRow, WithdrawalSeal,
};
pub use crate::rubric::StoredScore;

/// The schema, as a list of migrations (see the header of `schema.sql`).
pub const SCHEMA: &str = include_str!("../../schema.sql");

/// Splits `schema.sql` into its migrations: each starts at a line `-- migration N` (N a number)
/// and runs to the next. The numbers must be 1, 2, 3... in order.
pub fn migrations() -> Vec<String> {
    split_migrations(SCHEMA, "schema.sql")
}

/// Splits a schema file (`name`, for the message) into its migrations, as [`migrations`] says.
fn split_migrations(schema: &str, name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current: Option<String> = None;
    for line in schema.lines() {
        let marker = line
            .strip_prefix("-- migration ")
            .and_then(|n| n.trim().parse::<usize>().ok());
        if let Some(n) = marker {
            out.extend(current.take());
            assert_eq!(
                n,
                out.len() + 1,
                "{name} migrations must be numbered 1, 2, 3..."
            );
            current = Some(String::new());
        } else if let Some(body) = &mut current {
            body.push_str(line);
            body.push('\n');
        }
    }
    out.extend(current);
    out
}

/// The schema version this build writes: the number of migrations.
pub fn schema_version() -> i64 {
    migrations().len() as i64
}

/// Whether a file is being opened as an existing ledger, or created (or brought up to date).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Purpose {
    Create,
    Open,
}

/// An open ledger: one interface over two stores (`Store`).
pub struct Ledger {
    store: Store,
    /// Where the ledger is, as messages name it: the file, or the server's URL without its
    /// password.
    path: PathBuf,
    /// How long a write waits for another writer ([`Ledger::set_wait`]).
    wait: Wait,
    /// Whether a write appends its entry to the log (`log.rs`): always, but in a bundle's
    /// ledger, which takes its source's entries as they are ([`Ledger::stop_logging`]).
    logging: bool,
    /// What stops a long write before it commits ([`Ledger::set_cancel`]): never set unless
    /// a caller hands one in.
    cancel: Cancel,
}

/// What holds a ledger. Nothing outside this module knows which store it is talking to. Each
/// query both stores run is written once, over the connection either one lends
/// ([`Ledger::read`], [`Ledger::write`]: `sql.rs`); a method dispatches on the store only where
/// the stores truly differ (bulk loads, reading the whole history, migrations). An enum rather
/// than a trait object: a method that only one store has (SQLite's integrity check, a bundle's
/// in-memory image) needs no dummy in the other.
pub(crate) enum Store {
    /// An SQLite file (or an in-memory database): the embedded default.
    Sqlite(Connection),
    /// A database on a PostgreSQL server, shared by many writers.
    #[cfg(feature = "postgres")]
    Postgres(Box<pg::Pg>),
}

/// The SQLite connection of `$ledger`; on another store, returns `$other` from the enclosing
/// function instead, with `$p` bound to that store.
#[cfg(feature = "postgres")]
macro_rules! on_sqlite {
    ($ledger:expr, $p:ident => $other:expr) => {
        match &$ledger.store {
            $crate::ledger::Store::Sqlite(conn) => conn,
            $crate::ledger::Store::Postgres($p) => return $other,
        }
    };
}

/// Without PostgreSQL support, every ledger is SQLite.
#[cfg(not(feature = "postgres"))]
macro_rules! on_sqlite {
    ($ledger:expr, $p:ident => $other:expr) => {{
        let $crate::ledger::Store::Sqlite(conn) = &$ledger.store;
        conn
    }};
}
pub(crate) use on_sqlite;

impl std::fmt::Debug for Ledger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ledger").field("path", &self.path).finish()
    }
}

impl Ledger {
    /// Creates a ledger at `path`, or opens (and migrates) the one already there. Returns whether
    /// the file was created.
    pub fn create(path: &Path) -> Result<(Ledger, bool)> {
        if let Some(url) = server_url(path)? {
            return Ledger::on_server(url, Purpose::Create);
        }
        let existed = path.exists();
        if let Some(dir) = path.parent()
            && !dir.as_os_str().is_empty()
            && !dir.is_dir()
        {
            return Err(Error::Usage(format!(
                "cannot create a ledger at {}: the directory {} does not exist; create it first",
                path.display(),
                dir.display()
            )));
        }
        let conn = Connection::open(path).map_err(|e| sqlite(path, e))?;
        let ledger = Ledger::configure(conn, path, Purpose::Create)?;
        Ok((ledger, !existed))
    }

    /// Creates a ledger at `path` (`init`), or opens the one there when its schema is what
    /// schema.sql makes; `true` when it was created. A ledger whose schema differs (its
    /// triggers dropped, say) is not "nothing to do": that fails the check, naming each
    /// difference.
    pub fn init(path: &Path) -> Result<(Ledger, bool)> {
        let (ledger, created) = Ledger::create(path)?;
        if created {
            return Ok((ledger, true));
        }
        let differences = ledger.schema_differences()?;
        if !differences.is_empty() {
            return Err(Error::CheckFailed(format!(
                "ledger {} exists, but its schema differs from schema.sql:\n{}\nIts raw facts may \
                 have been changed behind benchledger's back",
                ledger.path().display(),
                differences
                    .iter()
                    .map(|d| format!("  - {d}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            ))
            .hinted(Hint::VerifyLedger));
        }
        Ok((ledger, false))
    }

    /// Opens the ledger at `path`, which must exist.
    pub fn open(path: &Path) -> Result<Ledger> {
        if let Some(url) = server_url(path)? {
            return Ledger::on_server(url, Purpose::Open).map(|(l, _)| l);
        }
        if !path.exists() {
            return Err(Error::Usage(format!("no ledger at {}", path.display()))
                .hinted(Hint::CreateLedger(path.to_path_buf())));
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| sqlite(path, e))?;
        Ledger::configure(conn, path, Purpose::Open)
    }

    /// A ledger in memory, for tests.
    pub fn in_memory() -> Result<Ledger> {
        let path = Path::new(":memory:");
        let conn = Connection::open_in_memory().map_err(|e| sqlite(path, e))?;
        Ledger::configure(conn, path, Purpose::Create)
    }

    /// Connects to a ledger on a PostgreSQL server, creating or migrating its schema as
    /// `purpose` says. Returns whether it was created.
    #[cfg(feature = "postgres")]
    fn on_server(url: &str, purpose: Purpose) -> Result<(Ledger, bool)> {
        let pg = pg::Pg::connect(url)?;
        let created = pg.prepare(purpose)?;
        Ok((
            Ledger {
                path: pg.path().to_path_buf(),
                store: Store::Postgres(Box::new(pg)),
                wait: Wait::default(),
                logging: true,
                cancel: Cancel::default(),
            },
            created,
        ))
    }

    /// `path` as messages name a ledger there: a file as it is, a server's URL without its
    /// password (however the URL spells it).
    pub fn shown(path: &Path) -> PathBuf {
        match server_url(path) {
            #[cfg(feature = "postgres")]
            Ok(Some(url)) => PathBuf::from(pg::redacted(url)),
            _ => path.to_path_buf(),
        }
    }

    /// Whether `path` names a database on a PostgreSQL server rather than a file.
    pub fn on_a_server(path: &Path) -> bool {
        matches!(server_url(path), Ok(Some(_)))
    }

    #[cfg(not(feature = "postgres"))]
    fn on_server(_: &str, _: Purpose) -> Result<(Ledger, bool)> {
        Err(Error::Usage(
            "this benchledger was built without PostgreSQL support (cargo feature `postgres`)"
                .into(),
        )
        .hinted(crate::error::Hint::NoServerSupport))
    }

    fn configure(conn: Connection, path: &Path, purpose: Purpose) -> Result<Ledger> {
        let mut ledger = Ledger {
            store: Store::Sqlite(conn),
            path: path.to_path_buf(),
            wait: Wait::default(),
            logging: true,
            cancel: Cancel::default(),
        };
        ledger
            .lite()?
            .busy_timeout(Duration::from_secs(10))
            .map_err(|e| sqlite(path, e))?;
        plans_kept(ledger.lite()?).map_err(|e| sqlite(path, e))?;
        // Reading the version first tells a non-SQLite file from a ledger with a clear message.
        let version: i64 = ledger
            .lite()?
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(|e| match e {
                rusqlite::Error::SqliteFailure(f, _)
                    if f.code == rusqlite::ErrorCode::NotADatabase =>
                {
                    Error::Ledger {
                        path: path.to_path_buf(),
                        message: "this file is not a benchledger ledger (not an SQLite database)"
                            .into(),
                    }
                }
                e => sqlite(path, e),
            })?;
        // A file with no schema version is either new (no tables yet), or another
        // application's SQLite database, which must never receive our migrations.
        let other_tables = || {
            let tables: i64 = ledger
                .lite()?
                .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
                .map_err(|e| sqlite(path, e))?;
            Ok(tables > 0)
        };
        check_version(
            path,
            version,
            purpose,
            other_tables,
            "this SQLite file is not a benchledger ledger (it holds other tables and no \
             benchledger schema version); nothing was changed",
        )?;
        let supported = schema_version();
        let conn = ledger.lite()?;
        conn.pragma_update(None, "foreign_keys", true)
            .map_err(|e| sqlite(path, e))?;
        if path != Path::new(":memory:") {
            // WAL lets readers and one writer work at once; NORMAL is durable across app crashes.
            let mode: String = conn
                .pragma_update_and_check(None, "journal_mode", "wal", |r| r.get(0))
                .map_err(|e| sqlite(path, e))?;
            if !mode.eq_ignore_ascii_case("wal") {
                return Err(Error::Ledger {
                    path: path.to_path_buf(),
                    message: format!(
                        "SQLite would not use write-ahead logging here (journal mode {mode}), so \
                         concurrent writers could fail; put the ledger on a local filesystem"
                    ),
                });
            }
            conn.pragma_update(None, "synchronous", "NORMAL")
                .map_err(|e| sqlite(path, e))?;
        }
        if version < supported {
            ledger.migrate(version)?;
        }
        Ok(ledger)
    }

    /// Runs every migration after `from`, in one transaction.
    ///
    /// Some migrations rebuild a table (SQLite cannot add a CHECK to a column in place), which
    /// drops it while other tables still refer to it. So, as SQLite's documentation prescribes
    /// for such changes, foreign keys are off while the migrations run (the pragma cannot change
    /// inside a transaction) and every reference is checked before the transaction commits.
    fn migrate(&mut self, from: i64) -> Result<()> {
        let path = self.path.clone();
        self.lite()?
            .pragma_update(None, "foreign_keys", false)
            .map_err(|e| sqlite(&path, e))?;
        let migrated = self.run_migrations(from);
        let restored = self
            .lite()?
            .pragma_update(None, "foreign_keys", true)
            .map_err(|e| sqlite(&path, e));
        migrated.and(restored)
    }

    fn run_migrations(&mut self, from: i64) -> Result<()> {
        let path = self.path.clone();
        let tx = self
            .lite_mut()?
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| sqlite(&path, e))?;
        // Another process may have migrated while we waited for the write lock.
        let now: i64 = tx
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(|e| sqlite(&path, e))?;
        if now == from {
            for (i, sql) in migrations().iter().enumerate().skip(from as usize) {
                tx.execute_batch(sql).map_err(|e| match e {
                    rusqlite::Error::SqliteFailure(f, Some(msg))
                        if f.code == rusqlite::ErrorCode::ConstraintViolation =>
                    {
                        Error::Ledger {
                            path: path.clone(),
                            message: format!(
                                "this ledger cannot be brought to schema version {}: a stored \
                                 row breaks a constraint that version declares ({msg}), so it \
                                 was edited behind benchledger's back. Nothing was changed; \
                                 look at it with the benchledger that wrote it",
                                i + 1
                            ),
                        }
                        .hinted(crate::error::Hint::CheckWithWriter)
                    }
                    e if access::unavailable(&e).is_some() => sqlite(&path, e),
                    e => migration_refused(&path, from, i + 1, &e),
                })?;
                tx.pragma_update(None, "user_version", (i + 1) as i64)
                    .map_err(|e| sqlite(&path, e))?;
            }
            let dangling: i64 = tx
                .query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
                    r.get(0)
                })
                .map_err(|e| sqlite(&path, e))?;
            if dangling > 0 {
                return Err(Error::Ledger {
                    path,
                    message: format!(
                        "migrating this ledger to schema version {} would leave {dangling} \
                         row(s) referring to rows that do not exist; it was left as it was. \
                         Run `PRAGMA foreign_key_check` in the sqlite3 shell to see them",
                        schema_version()
                    ),
                });
            }
        }
        tx.commit().map_err(|e| sqlite(&path, e))
    }

    /// The schema version of this ledger.
    pub fn user_version(&self) -> Result<i64> {
        let conn = on_sqlite!(self, pg => pg.user_version());
        conn.pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(|e| self.err(e))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs SQLite's own consistency check: `["ok"]` when it finds nothing wrong.
    pub fn integrity_check(&self) -> Result<Vec<String>> {
        let mut stmt = self
            .lite()?
            .prepare("PRAGMA integrity_check")
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([], |r| r.get::<_, String>(0))
            .map_err(|e| self.err(e))?;
        rows.collect::<rusqlite::Result<Vec<_>>>()
            .map_err(|e| self.err(e))
    }

    /// Runs `f` on the ledger's connection, for reading (one operation at a time on a
    /// server).
    fn read<T>(&self, f: impl FnOnce(&mut Sql<'_>) -> Result<T>) -> Result<T> {
        match &self.store {
            Store::Sqlite(conn) => f(&mut Sql::lite(conn, &self.path)),
            #[cfg(feature = "postgres")]
            Store::Postgres(pg) => pg.read(f),
        }
    }

    /// Runs `f` on the ledger's connection for reading in one snapshot: on the server, a
    /// read-only, repeatable-read transaction whose queries stream through cursors
    /// ([`Sql::stream`]); on SQLite, as [`Ledger::read`] (a statement reads one snapshot).
    fn snapshot<T>(&self, f: impl FnOnce(&mut Sql<'_>) -> Result<T>) -> Result<T> {
        match &self.store {
            Store::Sqlite(conn) => f(&mut Sql::lite(conn, &self.path)),
            #[cfg(feature = "postgres")]
            Store::Postgres(pg) => pg.snapshot_read(f),
        }
    }

    /// Runs `f` in a write transaction holding the ledger's write lock (`BEGIN IMMEDIATE`, or
    /// the server's advisory lock: see [`Ledger::begin_write`] and `pg::Pg::write`), and
    /// commits what it did; an error leaves the ledger as it was.
    ///
    /// A write whose [`Cancel`] is set by the time `f` returns is rolled back: its caller
    /// asked it to stop ([`Error::Interrupted`]).
    fn write<T>(&self, f: impl FnOnce(&mut Sql<'_>) -> Result<T>) -> Result<T> {
        let f = |sql: &mut Sql<'_>| {
            let out = f(sql)?;
            self.cancel.check()?;
            Ok(out)
        };
        match &self.store {
            Store::Sqlite(_) => {
                let tx = self.begin_write()?;
                let out = f(&mut Sql::lite(&tx, &self.path))?;
                tx.commit().map_err(|e| self.err(e))?;
                Ok(out)
            }
            #[cfg(feature = "postgres")]
            Store::Postgres(pg) => pg.write(f),
        }
    }

    /// Has every long write on this ledger stop, writing nothing, once `cancel` is set: between
    /// batches (the seats of an ingest, the waves of a rescore) and last before its transaction
    /// commits, with [`Error::Interrupted`] (see [`crate::cancel`]).
    pub fn set_cancel(&mut self, cancel: Cancel) {
        self.cancel = cancel;
    }

    fn err(&self, e: rusqlite::Error) -> Error {
        sqlite(&self.path, e)
    }

    /// The SQLite connection, for what only an SQLite ledger does (its pragmas, migrations and
    /// integrity check, a bundle's image); an error on another store.
    fn lite(&self) -> Result<&Connection> {
        match &self.store {
            Store::Sqlite(conn) => Ok(conn),
            #[cfg(feature = "postgres")]
            Store::Postgres(_) => Err(self.sqlite_only()),
        }
    }

    /// What an SQLite-only operation says on another store.
    #[cfg(feature = "postgres")]
    fn sqlite_only(&self) -> Error {
        Error::Ledger {
            path: self.path.clone(),
            message: "this operation needs an SQLite ledger; this one is on a PostgreSQL \
                      server (a bundle, for one, is always an SQLite file)"
                .into(),
        }
    }

    fn lite_mut(&mut self) -> Result<&mut Connection> {
        match &mut self.store {
            Store::Sqlite(conn) => Ok(conn),
            #[cfg(feature = "postgres")]
            Store::Postgres(_) => Err(Error::Ledger {
                path: self.path.clone(),
                message: "this operation needs an SQLite ledger".into(),
            }),
        }
    }

    /// The SQLite connection, for tests that reach behind the interface.
    #[cfg(test)]
    pub(crate) fn conn(&self) -> &Connection {
        self.lite().expect("an SQLite ledger")
    }

    /// The ledger's schema objects (tables, indexes, triggers) with their SQL, keyed by kind
    /// and name.
    fn schema_objects(&self) -> Result<std::collections::BTreeMap<(String, String), String>> {
        self.lite()?
            .prepare(
                "SELECT type, name, coalesce(sql, '') FROM sqlite_master
                 WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name",
            )
            .and_then(|mut s| {
                s.query_map([], |r| Ok(((r.get(0)?, r.get(1)?), r.get(2)?)))?
                    .collect()
            })
            .map_err(|e| self.err(e))
    }

    /// How this ledger's schema differs from what `schema.sql` makes of a new ledger: every
    /// table (with its CHECKs), index and trigger, by name and SQL text, and the schema version.
    /// Empty when they are the same. A dropped trigger is how the immutability of raw facts is
    /// switched off behind benchledger's back.
    pub fn schema_differences(&self) -> Result<Vec<String>> {
        on_sqlite!(self, pg => pg.schema_differences());
        let expected = Ledger::in_memory()?.schema_objects()?;
        let actual = self.schema_objects()?;
        let version = self.user_version()?;
        Ok(differences(version, &expected, &actual, "schema.sql", None))
    }
}

/// A schema's objects, each as its store renders its definition, keyed by kind and name.
type Objects = std::collections::BTreeMap<(String, String), String>;

/// How a ledger's schema objects (`actual`, at schema `version`) differ from what `file` makes
/// of a new ledger (`expected`), on either store. `disabled` is how a disabled trigger's
/// definition ends, on a store whose triggers can be switched off in place.
fn differences(
    version: i64,
    expected: &Objects,
    actual: &Objects,
    file: &str,
    disabled: Option<&str>,
) -> Vec<String> {
    let mut out = Vec::new();
    let supported = schema_version();
    if version != supported {
        out.push(format!(
            "the schema version is {version}, and {file}'s is {supported}"
        ));
    }
    let switched_off =
        |a: &str, def: &str| disabled.is_some_and(|d| a.ends_with(d) && !def.ends_with(d));
    for ((kind, name), def) in expected {
        match actual.get(&(kind.clone(), name.clone())) {
            None if kind == "trigger" => out.push(format!(
                "trigger `{name}` is missing: what it protects can be changed or deleted"
            )),
            None => out.push(format!("{kind} `{name}` is missing")),
            Some(a) if kind == "trigger" && switched_off(a, def) => out.push(format!(
                "trigger `{name}` is disabled: what it protects can be changed or deleted"
            )),
            Some(a) if a != def => out.push(format!(
                "{kind} `{name}` differs from {file} (its constraints may have been changed)"
            )),
            Some(_) => {}
        }
    }
    for (kind, name) in actual.keys() {
        if !expected.contains_key(&(kind.clone(), name.clone())) {
            out.push(format!("{kind} `{name}` is not in {file}"));
        }
    }
    out
}

/// Whether a store at schema `version` may be opened for `purpose`: with no version, a store
/// holding tables (`other_tables`) is another application's (`not_ours` says so, in the
/// store's words), and an empty one is not a ledger unless it is being created; a version
/// newer than this build's is refused. Nothing is changed either way.
fn check_version(
    path: &Path,
    version: i64,
    purpose: Purpose,
    other_tables: impl FnOnce() -> Result<bool>,
    not_ours: &str,
) -> Result<()> {
    if version == 0 {
        if other_tables()? {
            return Err(Error::Ledger {
                path: path.to_path_buf(),
                message: not_ours.into(),
            });
        }
        if purpose == Purpose::Open {
            return Err(
                Error::Usage(format!("{} is empty, not a ledger", path.display()))
                    .hinted(Hint::InitLedger(path.to_path_buf())),
            );
        }
    }
    let supported = schema_version();
    if version > supported {
        return Err(Error::Ledger {
            path: path.to_path_buf(),
            message: format!(
                "this ledger has schema version {version}, written by a newer benchledger; \
                 this build understands versions up to {supported}. Upgrade benchledger to \
                 open it (nothing was changed)"
            ),
        });
    }
    Ok(())
}

/// A migration SQLite refused for another reason than a broken constraint: the schema already
/// holds what the migration adds (its version was set back behind benchledger's back). SQLite's
/// own words are given without the migration's text, which they quote whole.
fn migration_refused(path: &Path, from: i64, to: usize, e: &rusqlite::Error) -> Error {
    let words = match e {
        rusqlite::Error::SqlInputError { msg, .. } => msg.clone(),
        rusqlite::Error::SqliteFailure(_, Some(msg)) => {
            msg.split(" in ").next().unwrap_or(msg).to_string()
        }
        rusqlite::Error::SqliteFailure(f, None) => f.to_string(),
        other => other.to_string(),
    };
    let words = words.lines().next().unwrap_or_default().to_string();
    Error::Ledger {
        path: path.to_path_buf(),
        message: format!(
            "this ledger cannot be brought from schema version {from} to {to} ({words}): its \
             schema already holds what version {to} adds, so its schema version was set back \
             behind benchledger's back. Nothing was changed; restore the ledger from a copy (if \
             only its version was edited, `PRAGMA user_version = {}` in the sqlite3 shell puts \
             it back)",
            schema_version()
        ),
    }
}

/// The server URL `--db` gives, when it names a PostgreSQL server rather than a file.
fn server_url(path: &Path) -> Result<Option<&str>> {
    let Some(s) = path.to_str() else {
        return Ok(None);
    };
    if s.starts_with("postgresql://") || s.starts_with("postgres://") {
        Ok(Some(s))
    } else {
        Ok(None)
    }
}

/// Has SQLite plan each statement once, whatever values are bound to it (its "query planner
/// stability guarantee"). Otherwise a statement with a term such as `wave_id = ?1` that the
/// planner weighed by the value bound (whether it is 0 or 1) is marked to be planned again, and
/// `sqlite3_clear_bindings` then expires it: rusqlite's statement cache clears the bindings of
/// every statement handed back to it, so each use of such a statement prepared it again
/// (`sqlite3Reprepare`, ~98 k instructions; four a wave in a rescore: bench/README.md, round
/// 13). benchledger runs no `ANALYZE`, so what a plan weighed of a value was only that guess
/// of how many rows match; a statement's results never depend on its plan.
fn plans_kept(conn: &Connection) -> rusqlite::Result<()> {
    conn.set_db_config(
        rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG,
        true,
    )
    .map(|_| ())
}

/// An SQLite error on the database at `path`: [`Error::Unavailable`] when the cause is the
/// ledger's surroundings (busy, read-only, a full or failing disk), else [`Error::Store`] with
/// SQLite's own message.
fn sqlite(path: &Path, source: rusqlite::Error) -> Error {
    match access::unavailable(&source) {
        Some(cause) => Error::Unavailable {
            path: path.to_path_buf(),
            cause,
            message: access::unavailable_message(cause, &source, path),
        },
        None => Error::Store {
            path: path.to_path_buf(),
            message: source.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A ledger can be handed to another thread (a worker, a Python caller that releases
    /// the GIL), whichever store holds it.
    #[test]
    fn a_ledger_is_send() {
        fn send<T: Send>() {}
        send::<Ledger>();
    }

    /// SQLite's failures map to exit statuses by their cause: the ledger's surroundings (busy,
    /// locked, read-only, cannot open, disk full or failing) exit 3 having written nothing;
    /// anything else is the store's own error, exit 2, with SQLite's message.
    #[test]
    fn a_busy_read_only_full_or_failing_ledger_exits_3_and_other_store_errors_2() {
        use rusqlite::ffi;
        let error = |code: i32| {
            sqlite(
                Path::new("l.db"),
                rusqlite::Error::SqliteFailure(ffi::Error::new(code), None),
            )
        };
        for code in [
            ffi::SQLITE_BUSY,
            ffi::SQLITE_LOCKED,
            ffi::SQLITE_READONLY,
            ffi::SQLITE_CANTOPEN,
            ffi::SQLITE_FULL,
            ffi::SQLITE_IOERR,
        ] {
            let e = error(code);
            assert!(matches!(e, Error::Unavailable { .. }), "code {code}: {e:?}");
            assert_eq!(e.exit_code(), 3, "code {code}");
        }
        for code in [
            ffi::SQLITE_CONSTRAINT,
            ffi::SQLITE_CORRUPT,
            ffi::SQLITE_NOTADB,
        ] {
            let e = error(code);
            assert_eq!(e.exit_code(), 2, "code {code}");
            let source = rusqlite::Error::SqliteFailure(ffi::Error::new(code), None);
            assert_eq!(
                e.to_string(),
                format!("ledger l.db: {source}"),
                "code {code}"
            );
        }
    }

    #[test]
    fn a_downgraded_user_version_is_refused_without_the_schema_text() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.db");
        drop(Ledger::create(&path).unwrap());
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", 3).unwrap();
        drop(conn);
        let e = Ledger::open(&path).unwrap_err().to_string();
        assert!(
            e.contains(
                "cannot be brought from schema version 3 to 4 (table price_table already \
                        exists)"
            ),
            "{e}"
        );
        assert!(!e.contains("--") && !e.contains("CREATE"), "{e}");
        assert_eq!(e.lines().count(), 1, "{e}");
        // Nothing was changed.
        let conn = Connection::open(&path).unwrap();
        let v: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(v, 3);
    }

    #[test]
    fn migrations_are_numbered_from_one_without_gaps() {
        let m = migrations();
        assert!(!m.is_empty());
        assert!(m[0].contains("CREATE TABLE attempt"));
    }

    #[test]
    fn migrating_an_empty_ledger_reaches_the_current_version() {
        let ledger = Ledger::in_memory().unwrap();
        assert_eq!(ledger.user_version().unwrap(), schema_version());
        assert_eq!(ledger.integrity_check().unwrap(), vec!["ok".to_string()]);
    }

    #[test]
    fn migrating_twice_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.db");
        let (l, created) = Ledger::create(&path).unwrap();
        assert!(created);
        drop(l);
        let (l, created) = Ledger::create(&path).unwrap();
        assert!(!created);
        assert_eq!(l.user_version().unwrap(), schema_version());
        drop(l);
        let l = Ledger::open(&path).unwrap();
        assert_eq!(l.user_version().unwrap(), schema_version());
    }

    #[test]
    fn a_new_ledger_matches_schema_sql_and_a_dropped_trigger_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.db");
        let (l, _) = Ledger::create(&path).unwrap();
        assert_eq!(l.schema_differences().unwrap(), Vec::<String>::new());
        l.conn()
            .execute_batch(
                "DROP TRIGGER attempt_no_update; CREATE INDEX extra ON attempt(wall_s);
                 DROP INDEX seat_by_wave;",
            )
            .unwrap();
        assert_eq!(
            l.schema_differences().unwrap(),
            vec![
                "index `seat_by_wave` is missing",
                "trigger `attempt_no_update` is missing: what it protects can be changed or \
                 deleted",
                "index `extra` is not in schema.sql",
            ]
        );
    }

    #[test]
    fn a_hash_edited_into_something_else_stops_the_migration_and_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.db");
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(&migrations()[0]).unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
        conn.execute_batch(&format!(
            "INSERT INTO suite(id, name) VALUES (1, 's');
             INSERT INTO wave(id, slug, suite_id, started_at, input_tokens_include_cache_reads,
                content_sha256, ingested_at)
             VALUES (1, 'w', 1, 't', 0, 'é{}', 't');",
            "a".repeat(63)
        ))
        .unwrap();
        drop(conn);
        let err = Ledger::open(&path).unwrap_err().to_string();
        assert!(
            err.contains("cannot be brought to schema version 2"),
            "{err}"
        );
        assert!(err.contains("Nothing was changed"), "{err}");
        let conn = Connection::open(&path).unwrap();
        let v: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(v, 1);
        let waves: i64 = conn
            .query_row("SELECT count(*) FROM wave", [], |r| r.get(0))
            .unwrap();
        assert_eq!(waves, 1);
    }

    #[test]
    fn a_ledger_from_a_newer_version_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.db");
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", schema_version() + 1)
            .unwrap();
        drop(conn);
        let err = Ledger::open(&path).unwrap_err().to_string();
        assert!(err.contains("newer benchledger"), "{err}");
        assert!(err.contains("Upgrade benchledger"), "{err}");
    }

    #[test]
    fn another_applications_database_is_never_migrated() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("other.db");
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch("CREATE TABLE notes(x TEXT)").unwrap();
        drop(conn);
        for e in [
            Ledger::open(&path).unwrap_err(),
            Ledger::create(&path).unwrap_err(),
        ] {
            assert!(e.to_string().contains("not a benchledger ledger"), "{e}");
        }
        let conn = Connection::open(&path).unwrap();
        let v: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(v, 0);
    }

    #[test]
    fn an_empty_file_is_not_silently_made_a_ledger() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("empty.db");
        std::fs::write(&path, b"").unwrap();
        let e = Ledger::open(&path).unwrap_err();
        assert_eq!(e.hint(), Some(&Hint::InitLedger(path.clone())), "{e}");
        assert!(e.to_string().ends_with("is empty, not a ledger"), "{e}");
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 0);
        // init may turn it into one.
        let (l, _) = Ledger::create(&path).unwrap();
        assert_eq!(l.user_version().unwrap(), schema_version());
    }

    #[test]
    fn opening_a_missing_ledger_says_how_to_create_one() {
        let missing = Path::new("/nonexistent/x.db");
        let err = Ledger::open(missing).unwrap_err();
        assert_eq!(
            err.hint(),
            Some(&Hint::CreateLedger(missing.to_path_buf())),
            "{err}"
        );
    }
}
