//! The ledger on a PostgreSQL server: the second store behind [`super::Ledger`], for many
//! writers on many machines (`--db postgresql://USER@HOST/DB`).
//!
//! It keeps schema.sql's tables in PostgreSQL's dialect (`schema.pg.sql`, the same migrations
//! numbered the same way, applied versions kept in `benchledger_migration`) and behaves as the
//! SQLite store does, output for output:
//!
//! - **One writer at a time.** Every write transaction first takes one transaction-level
//!   advisory lock, benchledger's write lock ([`WRITE_LOCK`]), as SQLite's `BEGIN IMMEDIATE`
//!   takes the file's: ids (the largest so far plus one) and the chain's head are read under
//!   it, so two publishers can never both claim the same predecessor and fork the chain, and
//!   ids come out as on SQLite. It waits as `--wait` allows (`lock_timeout`), and a wait that
//!   runs out is [`Error::Unavailable`] (exit 3), nothing written. Readers never wait.
//! - **The same queries.** Every query both stores run is written once (`crate::ledger::sql`)
//!   and runs here on a connection or on a transaction holding the write lock
//!   ([`Pg::read`], [`Pg::write`]); this module keeps what only a server does.
//! - **Ingest through binary `COPY`**, in the one transaction holding the write lock
//!   (`Sql::sink`, `conn.rs`), from the scratch SQLite file an ingest is staged in as on SQLite.
//! - **Bounded reads.** In a transaction (a snapshot, for reads), a query streams through a
//!   server-side cursor (`conn.rs`), so memory stays bounded however large the wave or history.
//! - **The same errors.** A server that cannot be reached, one shutting down, a full disk, a
//!   role that may not write: [`Error::Unavailable`] (exit 3), as a busy or read-only SQLite
//!   file is; anything else the server refuses names the server and its words.
//!
//! Only plain connections are made (no TLS): reach a remote server over a Unix socket, a
//! private network or a tunnel.

mod conn;
mod schema;

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, TryLockError};

use postgres::error::SqlState;
use postgres::{Client, NoTls};

use super::Wait;
use super::credentials::{self, Environment, Source};
use super::sql::{Sql, values};
use crate::error::{Cause, Error, Hint, Result};

/// The key of benchledger's write lock (`pg_advisory_xact_lock`): every write transaction
/// takes it first. Advisory locks belong to one database, so ledgers in other databases of the
/// same server never wait for each other.
pub(super) const WRITE_LOCK: i64 = 0x6265_6e63_686c_6564; // "benchled"

/// How many rows a server-side cursor hands over at a time.
const FETCH_ROWS: i32 = 4096;

/// Rows fetched at a time from a cursor over the whole history: more than a seat's, to cross
/// the network fewer times (still bounded: some megabytes of rows).
const FETCH_ROWS_ALL: i32 = 32768;

/// The URL as messages show it: without a password, wherever the URL holds one (the
/// password as the client library decodes it: [`credentials::redacted`]).
pub(crate) fn redacted(url: &str) -> String {
    let config = url.parse::<postgres::Config>().ok();
    let password = config.as_ref().and_then(|c| c.get_password());
    credentials::redacted(url, password.and_then(|p| std::str::from_utf8(p).ok()))
}

/// A connection to a ledger on a PostgreSQL server.
pub(crate) struct Pg {
    /// Behind a mutex so that a ledger can move to another thread (`Ledger: Send`); one
    /// operation holds it at a time.
    client: Mutex<Client>,
    /// The URL without its password, as messages name the ledger.
    path: PathBuf,
    /// How long a write waits for the write lock, and whom to tell.
    wait: Wait,
}

impl Pg {
    /// Connects to the server `url` names.
    pub(super) fn connect(url: &str) -> Result<Pg> {
        let path = PathBuf::from(redacted(url));
        let mut config: postgres::Config = url.parse().map_err(|e| {
            Error::Usage(format!(
                "{} is not a PostgreSQL connection URL ({e}); write it as \
                 postgresql://USER@HOST/DATABASE (a Unix socket's directory as \
                 postgresql://USER@%2Fpath%2Fto%2Fdir/DATABASE or ?host=/path/to/dir)",
                path.display()
            ))
        })?;
        let source = fill(&mut config, &Environment::current());
        let client = config
            .connect(NoTls)
            .map_err(|e| connect_error(&path, &source, e))?;
        Ok(Pg {
            client: Mutex::new(client),
            path,
            wait: Wait::default(),
        })
    }

    pub(super) fn path(&self) -> &Path {
        &self.path
    }

    pub(super) fn set_wait(&mut self, wait: Wait) {
        self.wait = wait;
    }

    /// The connection, for one operation at a time.
    fn client(&self) -> Result<MutexGuard<'_, Client>> {
        match self.client.try_lock() {
            Ok(client) => Ok(client),
            // A panic in the middle of an operation: the connection's own state is what the
            // server says it is (an open transaction is rolled back on the next one).
            Err(TryLockError::Poisoned(p)) => Ok(p.into_inner()),
            Err(TryLockError::WouldBlock) => Err(Error::Ledger {
                path: self.path.clone(),
                message: "the ledger was asked for something while it was still reading a \
                          wave; this is a bug in benchledger"
                    .into(),
            }),
        }
    }

    fn err(&self, e: postgres::Error) -> Error {
        error(&self.path, e)
    }

    /// Starts a write transaction holding benchledger's write lock. When another writer holds
    /// it, tells the [`Wait::announce`] hook once and waits up to the [`Wait::limit`]; when the
    /// wait runs out, the error says how long it waited and that nothing was written.
    fn begin_write<'c>(&self, client: &'c mut Client) -> Result<postgres::Transaction<'c>> {
        let mut tx = client.transaction().map_err(|e| self.err(e))?;
        let try_lock = "SELECT pg_try_advisory_xact_lock(?1)";
        let free: bool = Sql::server(&mut tx, &self.path).value(try_lock, &values![WRITE_LOCK])?;
        if free {
            return Ok(tx);
        }
        let limit = self.wait.limit;
        if limit.is_zero() {
            return Err(super::access::busy(&self.path, limit));
        }
        if let Some(announce) = &self.wait.announce {
            announce(&self.path, limit);
        }
        tx.batch_execute(&format!(
            "SET LOCAL lock_timeout = {}",
            limit.as_millis().max(1)
        ))
        .map_err(|e| self.err(e))?;
        match tx.execute("SELECT pg_advisory_xact_lock($1)", &[&WRITE_LOCK]) {
            Ok(_) => {}
            Err(e) if e.code() == Some(&SqlState::LOCK_NOT_AVAILABLE) => {
                return Err(super::access::busy(&self.path, limit));
            }
            Err(e) => return Err(self.err(e)),
        }
        tx.batch_execute("SET LOCAL lock_timeout = 0")
            .map_err(|e| self.err(e))?;
        Ok(tx)
    }

    /// Runs `f` on the connection, for one operation.
    pub(in crate::ledger) fn read<T>(
        &self,
        f: impl FnOnce(&mut Sql<'_>) -> Result<T>,
    ) -> Result<T> {
        f(&mut Sql::server(&mut *self.client()?, &self.path))
    }

    /// Runs `f` in a write transaction holding the write lock, and commits what it did.
    pub(in crate::ledger) fn write<T>(
        &self,
        f: impl FnOnce(&mut Sql<'_>) -> Result<T>,
    ) -> Result<T> {
        let mut client = self.client()?;
        let mut tx = self.begin_write(&mut client)?;
        let out = f(&mut Sql::server(&mut tx, &self.path))?;
        tx.commit().map_err(|e| self.err(e))?;
        Ok(out)
    }

    /// Runs `f` in a read-only, repeatable-read transaction (one snapshot), its queries
    /// streaming through cursors.
    pub(in crate::ledger) fn snapshot_read<T>(
        &self,
        f: impl FnOnce(&mut Sql<'_>) -> Result<T>,
    ) -> Result<T> {
        let mut client = self.client()?;
        let mut tx = (client.build_transaction())
            .isolation_level(postgres::IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
            .map_err(|e| self.err(e))?;
        let out = f(&mut Sql::server(&mut tx, &self.path))?;
        tx.commit().map_err(|e| self.err(e))?;
        Ok(out)
    }
}

/// Gives `config` a password from libpq's sources when its URL gave none (`credentials`), and says
/// where the password came from.
fn fill(config: &mut postgres::Config, env: &Environment) -> Source {
    use postgres::config::Host;
    let target = credentials::Target {
        has_password: config.get_password().is_some_and(|p| !p.is_empty()),
        hosts: (config.get_hosts().iter())
            .map(|h| match h {
                Host::Tcp(name) => credentials::Host::Tcp(name.clone()),
                Host::Unix(dir) => credentials::Host::Unix(dir.clone()),
            })
            .collect(),
        ports: config.get_ports().to_vec(),
        dbname: config.get_dbname().map(str::to_owned),
        user: config.get_user().map(str::to_owned),
    };
    let (password, source) = credentials::find(&target, env);
    if let Some(password) = password {
        config.password(password);
    }
    source
}

/// Why a connection could not be made: the server unreachable or refusing is
/// [`Error::Unavailable`] (exit 3); a database, user or password it does not know, a usage
/// error.
fn connect_error(path: &Path, source: &Source, e: postgres::Error) -> Error {
    if let Some(db) = e.as_db_error() {
        let code = db.code();
        if *code == SqlState::INVALID_CATALOG_NAME {
            return Error::Usage(format!("{}: {}", path.display(), db.message()))
                .hinted(Hint::CreateDatabase(path.to_path_buf()));
        }
        if *code == SqlState::INVALID_PASSWORD
            || *code == SqlState::INVALID_AUTHORIZATION_SPECIFICATION
        {
            let advice = match source {
                Source::Url => {
                    "; give the password in PGPASSWORD or ~/.pgpass rather than in the URL"
                        .to_string()
                }
                other => format!("; {}", other.describe()),
            };
            return Error::Usage(format!(
                "{}: the server refused the connection: {}{advice}",
                path.display(),
                db.message()
            ));
        }
    }
    // The client's own words when the server asks for a password and none was found.
    let missing =
        std::error::Error::source(&e).is_some_and(|s| s.to_string() == "password missing");
    if e.as_db_error().is_none() && missing {
        return Error::Usage(format!(
            "{}: the server asks for a password; {}",
            path.display(),
            source.describe()
        ));
    }
    match error(path, e) {
        Error::Ledger { message, .. } => Error::Unavailable {
            path: path.to_path_buf(),
            cause: Cause::CannotOpen,
            message: format!(
                "could not complete: cannot connect to the PostgreSQL server ({message}); \
                 nothing was written. Check that the server is running and reachable at this \
                 URL, then run the command again"
            ),
        },
        other => other,
    }
}

pub(super) use conn::{error, words};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_is_shown_without_its_password() {
        assert_eq!(
            redacted("postgresql://ann:s3cret@db.example/ledger?sslmode=disable"),
            "postgresql://ann@db.example/ledger?sslmode=disable"
        );
        assert_eq!(
            redacted("postgresql://ann@db/ledger"),
            "postgresql://ann@db/ledger"
        );
        assert_eq!(
            redacted("postgres:///ledger?host=/tmp"),
            "postgres:///ledger?host=/tmp"
        );
        // Issue 23, #4: every spelling of a password is taken out.
        for (url, shown) in [
            (
                "postgresql://ann@db/ledger?password=s3cret",
                "postgresql://ann@db/ledger",
            ),
            (
                "postgresql://ann@db/ledger?sslmode=require&password=s3cret&x=1",
                "postgresql://ann@db/ledger?sslmode=require&x=1",
            ),
            (
                "postgresql://ann@db/ledger?%70assword=s3cret",
                "postgresql://ann@db/ledger",
            ),
            (
                "postgresql://ann:s3/cr?et@db/ledger",
                "postgresql://ann@db/ledger",
            ),
            (
                "postgresql://db/ledger?password=s3@cret&sslmode=disable",
                "postgresql://db/ledger?sslmode=disable",
            ),
        ] {
            assert_eq!(redacted(url), shown, "{url}");
        }
        // The decoded password, wherever else it is seen.
        assert_eq!(
            redacted("postgresql://ann:s3cret@db/s3cret"),
            "postgresql://ann@db/***"
        );
        let url = |s: &str| crate::ledger::server_url(Path::new(s)).unwrap().is_some();
        assert!(url("postgresql://x@y/z"));
        assert!(url("postgres://x@y/z"));
        assert!(!url("ledger.db"));
        assert!(!url("./postgresql://x"));
    }

    /// What a URL says goes to the password file as libpq reads it (`credentials`' tests hold
    /// the file's rules): a socket directory, the defaults, a password in the URL.
    #[test]
    fn a_url_is_looked_up_in_the_password_file_as_libpq_does() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("pgpass");
        std::fs::write(
            &file,
            "/srv/pg/socket:5432:ledger:ann:socketpw\n\
             localhost:5432:osuser:osuser:defaults\n\
             db:6000:ledger:ann:port\n",
        )
        .unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        let env = Environment {
            passfile: Some(file),
            os_user: Some("osuser".into()),
            ..Environment::default()
        };
        let filled = |url: &str| {
            let mut c: postgres::Config = url.parse().unwrap();
            let source = fill(&mut c, &env);
            (c.get_password().map(<[u8]>::to_vec), source)
        };
        let pw = |url: &str| filled(url).0;
        assert_eq!(pw("host=/var/run/postgresql"), Some(b"defaults".to_vec()));
        assert_eq!(
            pw("postgresql://ann@%2Fsrv%2Fpg%2Fsocket/ledger"),
            Some(b"socketpw".to_vec())
        );
        assert_eq!(
            pw("postgresql://ann@db:6000/ledger"),
            Some(b"port".to_vec())
        );
        assert_eq!(
            filled("postgresql://ann@%2Fsrv%2Fpg%2Fsocket/other"),
            (None, Source::Missing { skipped: None })
        );
        assert_eq!(
            filled("postgresql://ann:inurl@db/ledger"),
            (Some(b"inurl".to_vec()), Source::Url)
        );
        // An empty password in the URL counts as none.
        assert_eq!(
            pw("postgresql://ann:@db:6000/ledger"),
            Some(b"port".to_vec())
        );
    }
}
