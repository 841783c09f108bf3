//! Opening the ledger for what a command does with it, and waiting for another writer.
//!
//! A command that only reads opens the ledger with [`Ledger::open_for_reading`]: as usual when
//! it can be written, else read-only — a ledger in a read-only directory, on read-only media or
//! without write permission can still be listed, scored and verified. A read-only open never
//! migrates; a ledger older than this build must be opened once where it can be written.
//!
//! A write (`BEGIN IMMEDIATE`, [`Ledger::begin_write`]) waits for another writer's lock as long
//! as [`Ledger::set_wait`] allows, tells its [`Wait::announce`] hook once when it has to wait,
//! and when the wait runs out fails with [`Error::Unavailable`], having written nothing. On
//! SQLite it stops waiting, with [`Error::Interrupted`], when its caller asks it to
//! ([`Ledger::set_cancel`]).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::{Connection, OpenFlags, Transaction, TransactionBehavior};

use super::{Ledger, schema_version, sqlite};
use crate::error::{Cause, Error, Hint, Result};

/// Told, with the ledger's path and the wait's limit, that a write has started to wait.
pub type Announce = Box<dyn Fn(&Path, Duration) + Send>;

/// How long a write waits for another writer's lock, and whom to tell when it has to.
pub struct Wait {
    /// The longest a write waits for the lock.
    pub limit: Duration,
    /// Called once, with the ledger's path and the limit, when a write finds the lock held and
    /// starts to wait (the commands say so on a terminal).
    pub announce: Option<Announce>,
}

impl Default for Wait {
    /// Ten seconds, in silence: what every connection has until told otherwise.
    fn default() -> Wait {
        Wait {
            limit: DEFAULT_WAIT,
            announce: None,
        }
    }
}

/// The busy timeout a connection starts with.
const DEFAULT_WAIT: Duration = Duration::from_secs(10);

/// How long SQLite waits for another writer's lock at a time, before a write checks whether its
/// caller asked it to stop ([`crate::cancel`]) and waits again.
const LOCK_SLICE: Duration = Duration::from_millis(100);

impl Ledger {
    /// Opens the ledger at `path`, which must exist, for a command that writes: read-write,
    /// migrated to this build's schema.
    pub fn open_for_writing(path: &Path) -> Result<Ledger> {
        refuse_a_directory(path)?;
        Ledger::open(path)
    }

    /// Opens the ledger at `path`, which must exist, for a command that only reads: as
    /// [`Ledger::open`] does when it can be written, else read-only (`Ledger::open_read_only`).
    pub fn open_for_reading(path: &Path) -> Result<Ledger> {
        refuse_a_directory(path)?;
        match Ledger::open(path) {
            Err(Error::Unavailable {
                cause: Cause::ReadOnly | Cause::CannotOpen,
                ..
            }) => Ledger::open_read_only(path),
            other => other,
        }
    }

    /// Opens the ledger at `path` read-only: nothing is written to it. SQLite still keeps its
    /// write-ahead log and that log's index beside the ledger (`-wal`, `-shm`); where they
    /// cannot be made (a read-only directory), the file is read as immutable (see
    /// `open_immutable`). A ledger with an older schema is refused rather than
    /// migrated.
    pub(crate) fn open_read_only(path: &Path) -> Result<Ledger> {
        if !path.exists() {
            // The same words as `open`.
            return Ledger::open(path);
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let first = Connection::open_with_flags(path, flags)
            .map_err(|e| sqlite(path, e))
            .and_then(|conn| Ledger::configure_read_only(conn, path));
        match first {
            Err(Error::Unavailable {
                cause: Cause::ReadOnly | Cause::CannotOpen,
                ..
            }) => Ledger::open_immutable(path),
            other => other,
        }
    }

    /// Opens the ledger at `path` as an immutable file: SQLite takes no lock and keeps no files
    /// beside it. That is safe where no process can write the ledger (its directory is
    /// read-only), unless its write-ahead log holds changes not yet copied into the file, which
    /// would then go unseen: that is refused.
    fn open_immutable(path: &Path) -> Result<Ledger> {
        let wal = sibling(path, "-wal");
        if std::fs::metadata(&wal).is_ok_and(|m| m.len() > 0) {
            return Err(Error::Unavailable {
                path: path.to_path_buf(),
                cause: Cause::CannotOpen,
                message: format!(
                    "could not complete: the ledger cannot be opened for writing here, and {} \
                     holds changes not yet copied into it, which SQLite cannot read without \
                     writing beside the ledger",
                    wal.display()
                ),
            }
            .hinted(Hint::CopyInWhereWritable));
        }
        let conn = Connection::open_with_flags(
            immutable_uri(path)?,
            OpenFlags::SQLITE_OPEN_READ_ONLY
                | OpenFlags::SQLITE_OPEN_NO_MUTEX
                | OpenFlags::SQLITE_OPEN_URI,
        )
        .map_err(|e| sqlite(path, e))?;
        Ledger::configure_read_only(conn, path)
    }

    /// Checks a read-only connection's schema, and makes sure it never writes.
    fn configure_read_only(conn: Connection, path: &Path) -> Result<Ledger> {
        conn.busy_timeout(DEFAULT_WAIT)
            .map_err(|e| sqlite(path, e))?;
        let version: i64 = conn
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
        let supported = schema_version();
        if version == 0 {
            return Err(Error::Ledger {
                path: path.to_path_buf(),
                message: "this file is not a benchledger ledger (it has no benchledger schema \
                          version)"
                    .into(),
            });
        }
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
        if version < supported {
            return Err(Error::Ledger {
                path: path.to_path_buf(),
                message: format!(
                    "this ledger has schema version {version}, older than this build's \
                     {supported}, and it cannot be written here, so it cannot be upgraded \
                     (nothing was changed)"
                ),
            }
            .hinted(Hint::UpgradeElsewhere));
        }
        conn.pragma_update(None, "foreign_keys", true)
            .map_err(|e| sqlite(path, e))?;
        super::plans_kept(&conn).map_err(|e| sqlite(path, e))?;
        // A write through this connection fails as SQLITE_READONLY, whatever the file allows.
        conn.pragma_update(None, "query_only", true)
            .map_err(|e| sqlite(path, e))?;
        Ok(Ledger {
            store: super::Store::Sqlite(conn),
            path: path.to_path_buf(),
            wait: Wait::default(),
            logging: true,
            cancel: crate::cancel::Cancel::default(),
        })
    }

    /// Sets how long writes wait for another writer's lock, and the hook told when one has to
    /// wait. Every statement waits as long for a lock it needs.
    pub fn set_wait(&mut self, wait: Wait) -> Result<()> {
        match &mut self.store {
            super::Store::Sqlite(conn) => {
                conn.busy_timeout(wait.limit)
                    .map_err(|e| sqlite(&self.path, e))?;
                self.wait = wait;
            }
            #[cfg(feature = "postgres")]
            super::Store::Postgres(pg) => pg.set_wait(wait),
        }
        Ok(())
    }

    /// Starts a write transaction (`BEGIN IMMEDIATE`). When another writer holds the lock, it
    /// tells the [`Wait::announce`] hook once and waits up to the [`Wait::limit`]; when the
    /// wait runs out, the error says how long it waited and that nothing was written. It waits
    /// in slices of [`LOCK_SLICE`], and stops between them with [`Error::Interrupted`] once its
    /// caller asks it to ([`Ledger::set_cancel`]): a wait may last minutes.
    pub(crate) fn begin_write(&self) -> Result<Transaction<'_>> {
        let limit = self.wait.limit;
        let conn = self.lite()?;
        conn.busy_timeout(Duration::ZERO).map_err(|e| self.err(e))?;
        let mut tx = Transaction::new_unchecked(conn, TransactionBehavior::Immediate);
        let mut interrupted = false;
        if matches!(&tx, Err(e) if is_busy(e)) && !limit.is_zero() {
            if let Some(announce) = &self.wait.announce {
                announce(&self.path, limit);
            }
            let until = Instant::now() + limit;
            loop {
                if self.cancel.is_cancelled() {
                    interrupted = true;
                    break;
                }
                let left = until.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    break;
                }
                conn.busy_timeout(left.min(LOCK_SLICE))
                    .map_err(|e| self.err(e))?;
                tx = Transaction::new_unchecked(conn, TransactionBehavior::Immediate);
                if !matches!(&tx, Err(e) if is_busy(e)) {
                    break;
                }
            }
        }
        conn.busy_timeout(limit).map_err(|e| self.err(e))?;
        if interrupted {
            return Err(Error::Interrupted);
        }
        let tx = tx.map_err(|e| {
            if is_busy(&e) {
                busy(&self.path, limit)
            } else {
                self.err(e)
            }
        })?;
        // A file SQLite could open only for reading: refused here, as the first write would
        // be, so that a write command that would change nothing (a rescore storing the
        // scores already stored) still says the ledger cannot be written.
        if conn.is_readonly(rusqlite::MAIN_DB).unwrap_or(false) {
            let readonly = rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_READONLY);
            return Err(self.err(rusqlite::Error::SqliteFailure(readonly, None)));
        }
        Ok(tx)
    }
}

/// A write that waited the whole `limit` for another writer's lock, on either store.
pub(super) fn busy(path: &Path, limit: Duration) -> Error {
    Error::Unavailable {
        path: path.to_path_buf(),
        cause: Cause::Busy,
        message: format!(
            "could not complete: the ledger is busy: another process held its write lock for \
             the whole {} this command waited; nothing was written",
            seconds(limit)
        ),
    }
}

fn is_busy(e: &rusqlite::Error) -> bool {
    unavailable(e) == Some(Cause::Busy)
}

/// Why SQLite could not complete, when the cause is the ledger's surroundings rather than the
/// request: another writer holding the lock, a read-only file or directory, a full or failing
/// disk. `None` for everything else (a constraint, a malformed file, a bug).
pub(super) fn unavailable(e: &rusqlite::Error) -> Option<Cause> {
    use rusqlite::ErrorCode as C;
    match e {
        rusqlite::Error::SqliteFailure(f, _) => match f.code {
            C::DatabaseBusy | C::DatabaseLocked => Some(Cause::Busy),
            C::ReadOnly => Some(Cause::ReadOnly),
            C::CannotOpen => Some(Cause::CannotOpen),
            C::DiskFull => Some(Cause::DiskFull),
            C::SystemIoFailure => Some(Cause::DiskFailed),
            _ => None,
        },
        _ => None,
    }
}

/// "5 s", "0.5 s".
fn seconds(d: Duration) -> String {
    if d.subsec_nanos() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

/// What an [`Error::Unavailable`] from SQLite says: why the command could not complete, that
/// nothing was written, and what to do.
pub(super) fn unavailable_message(cause: Cause, e: &rusqlite::Error, path: &Path) -> String {
    let cannot_open;
    let why = match cause {
        Cause::Busy => {
            "the ledger is busy: another process kept its lock past the wait; nothing was \
             written"
        }
        Cause::ReadOnly => {
            "the ledger cannot be written: the file, its directory or its filesystem is \
             read-only; nothing was written. Commands that only read the ledger still work; \
             write where it can be written"
        }
        Cause::CannotOpen => {
            cannot_open = format!(
                "the ledger cannot be opened for writing: SQLite keeps two files beside it ({} \
                 and {}), so its directory must be writable too; nothing was written",
                sibling(path, "-wal").display(),
                sibling(path, "-shm").display()
            );
            &cannot_open
        }
        Cause::DiskFull => {
            "the disk is full; nothing was written. Free some space and run the command again"
        }
        Cause::Raced => {
            "another writer changed the ledger meanwhile; nothing was written. Run the command \
             again"
        }
        Cause::DiskFailed => {
            "a read or write on the disk failed; nothing was written. Check the disk and run \
             the command again"
        }
    };
    format!("could not complete ({e}): {why}")
}

/// A directory named as the ledger is a usage error, not a ledger that cannot be opened.
fn refuse_a_directory(path: &Path) -> Result<()> {
    if path.is_dir() {
        return Err(
            Error::Usage(format!("{} is a directory, not a ledger", path.display()))
                .hinted(Hint::NameLedgerFile),
        );
    }
    Ok(())
}

/// `path` with `suffix` appended to its file name: `l.db` → `l.db-wal`.
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(suffix);
    PathBuf::from(s)
}

/// An SQLite URI opening `path` read-only as immutable: `file:///abs/path?immutable=1`, every
/// byte outside the unreserved set percent-encoded.
fn immutable_uri(path: &Path) -> Result<String> {
    let abs = std::path::absolute(path).map_err(|e| Error::io(path, e))?;
    let bytes = abs.as_os_str().as_encoded_bytes();
    let mut uri = String::from("file://");
    for &b in bytes {
        if b.is_ascii_alphanumeric() || matches!(b, b'/' | b'-' | b'.' | b'_' | b'~') {
            uri.push(b as char);
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri.push_str("?immutable=1");
    Ok(uri)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[test]
    fn a_uri_escapes_what_sqlite_would_read_as_syntax() {
        let uri = immutable_uri(Path::new("/a b/x?y#z%.db")).unwrap();
        assert_eq!(uri, "file:///a%20b/x%3Fy%23z%25.db?immutable=1");
    }

    #[test]
    fn a_write_waits_for_the_lock_says_so_once_and_gives_up_at_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.db");
        drop(Ledger::create(&path).unwrap());
        let mut ledger = Ledger::open_for_writing(&path).unwrap();
        let told = Arc::new(Mutex::new(Vec::new()));
        let t = told.clone();
        ledger
            .set_wait(Wait {
                limit: Duration::from_millis(300),
                announce: Some(Box::new(move |p, limit| {
                    t.lock().unwrap().push((p.to_path_buf(), limit))
                })),
            })
            .unwrap();

        // Free: no word, and the transaction is a write transaction.
        let tx = ledger.begin_write().unwrap();
        tx.rollback().unwrap();
        assert!(told.lock().unwrap().is_empty());

        // Held by another connection past the limit.
        let other = Connection::open(&path).unwrap();
        other.execute_batch("BEGIN IMMEDIATE").unwrap();
        let started = std::time::Instant::now();
        let err = ledger.begin_write().unwrap_err();
        assert!(started.elapsed() >= Duration::from_millis(250));
        assert_eq!(err.exit_code(), 3);
        let msg = err.to_string();
        assert!(msg.contains("the ledger is busy"), "{msg}");
        assert!(msg.contains("the whole 0.3 s this command waited"), "{msg}");
        assert!(msg.contains("nothing was written"), "{msg}");
        assert_eq!(
            *told.lock().unwrap(),
            [(path.clone(), Duration::from_millis(300))]
        );

        // Released while it waits: it gets the lock.
        ledger
            .set_wait(Wait {
                limit: Duration::from_secs(30),
                announce: None,
            })
            .unwrap();
        let release = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            other.execute_batch("COMMIT").unwrap();
        });
        let tx = ledger.begin_write().unwrap();
        tx.commit().unwrap();
        release.join().unwrap();
    }

    /// A write waiting for another writer's lock stops waiting soon after its caller asks it to
    /// (issue 34), rather than at the end of its wait, and writes nothing.
    #[test]
    fn a_write_asked_to_stop_stops_waiting_for_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.db");
        drop(Ledger::create(&path).unwrap());
        let mut ledger = Ledger::open_for_writing(&path).unwrap();
        ledger
            .set_wait(Wait {
                limit: Duration::from_secs(60),
                announce: None,
            })
            .unwrap();
        let cancel = crate::cancel::Cancel::new();
        ledger.set_cancel(cancel.clone());
        let other = Connection::open(&path).unwrap();
        other.execute_batch("BEGIN IMMEDIATE").unwrap();
        let asked = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            cancel.cancel();
        });
        let started = Instant::now();
        let err = ledger.begin_write().unwrap_err();
        let waited = started.elapsed();
        asked.join().unwrap();
        assert!(matches!(err, Error::Interrupted), "{err}");
        assert!(
            waited >= Duration::from_millis(150) && waited < Duration::from_secs(5),
            "{waited:?}"
        );
        // The connection waits as long as before for what it does next.
        other.execute_batch("COMMIT").unwrap();
        ledger.set_cancel(crate::cancel::Cancel::new());
        ledger.begin_write().unwrap().commit().unwrap();
    }

    #[test]
    fn with_no_wait_a_held_lock_fails_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.db");
        drop(Ledger::create(&path).unwrap());
        let mut ledger = Ledger::open_for_writing(&path).unwrap();
        ledger
            .set_wait(Wait {
                limit: Duration::ZERO,
                announce: Some(Box::new(|_, _| panic!("told of a wait that cannot happen"))),
            })
            .unwrap();
        let other = Connection::open(&path).unwrap();
        other.execute_batch("BEGIN IMMEDIATE").unwrap();
        let err = ledger.begin_write().unwrap_err();
        assert!(err.to_string().contains("the whole 0 s"), "{err}");
    }

    #[test]
    fn a_read_only_open_reads_and_never_writes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.db");
        drop(Ledger::create(&path).unwrap());
        let before = std::fs::read(&path).unwrap();
        let l = Ledger::open_read_only(&path).unwrap();
        assert_eq!(l.user_version().unwrap(), schema_version());
        assert!(l.wave_ids().unwrap().is_empty());
        let err = l
            .conn()
            .execute_batch("INSERT INTO suite(name) VALUES ('x')")
            .map_err(|e| sqlite(&path, e))
            .unwrap_err();
        assert_eq!(err.exit_code(), 3, "{err}");
        assert!(err.to_string().contains("cannot be written"), "{err}");
        drop(l);
        assert_eq!(std::fs::read(&path).unwrap(), before);
    }

    #[test]
    fn a_read_only_open_refuses_an_older_schema_rather_than_migrating() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.db");
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(&super::super::migrations()[0]).unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
        conn.pragma_update(None, "journal_mode", "wal").unwrap();
        drop(conn);
        let before = std::fs::read(&path).unwrap();
        let err = Ledger::open_read_only(&path).unwrap_err();
        assert_eq!(err.hint(), Some(&Hint::UpgradeElsewhere), "{err}");
        let err = err.to_string();
        assert!(err.contains("schema version 1, older than"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), before);
    }

    fn suites(l: &Ledger) -> i64 {
        l.conn()
            .query_row("SELECT count(*) FROM suite", [], |r| r.get(0))
            .unwrap()
    }

    #[test]
    fn changes_still_in_the_log_are_read_or_refused_never_missed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.db");
        drop(Ledger::create(&path).unwrap());
        // A writer that has not checkpointed: its changes are in l.db-wal only.
        let writer = Connection::open(&path).unwrap();
        writer.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
        writer
            .execute_batch("INSERT INTO suite(name) VALUES ('s')")
            .unwrap();
        assert!(std::fs::metadata(sibling(&path, "-wal")).unwrap().len() > 0);
        // Read-only, through the log's index beside the file: seen.
        assert_eq!(suites(&Ledger::open_read_only(&path).unwrap()), 1);
        // As immutable (where the index cannot be made), they would be missed: refused.
        let err = Ledger::open_immutable(&path).unwrap_err();
        assert_eq!(err.exit_code(), 3);
        assert!(
            err.to_string()
                .contains("holds changes not yet copied into it"),
            "{err}"
        );
        // Once the log is copied in, an immutable read sees them, and writes nothing.
        drop(writer);
        assert_eq!(
            std::fs::metadata(sibling(&path, "-wal")).map_or(0, |m| m.len()),
            0
        );
        let before = std::fs::read(&path).unwrap();
        let l = Ledger::open_immutable(&path).unwrap();
        assert_eq!(suites(&l), 1);
        assert_eq!(l.user_version().unwrap(), schema_version());
        drop(l);
        assert_eq!(std::fs::read(&path).unwrap(), before);
    }

    #[test]
    fn a_directory_is_not_a_ledger() {
        let dir = tempfile::tempdir().unwrap();
        for e in [
            Ledger::open_for_reading(dir.path()).unwrap_err(),
            Ledger::open_for_writing(dir.path()).unwrap_err(),
        ] {
            assert_eq!(e.exit_code(), 2);
            assert_eq!(e.hint(), Some(&Hint::NameLedgerFile), "{e}");
            assert!(
                e.to_string().contains("is a directory, not a ledger"),
                "{e}"
            );
        }
    }
}
