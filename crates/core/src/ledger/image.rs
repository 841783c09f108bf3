//! A ledger loaded into memory from bytes read elsewhere: how a reproduction bundle is opened.
//!
//! A bundle comes from someone else and may sit on read-only media, so SQLite never opens its
//! file. The commands check it is a regular file of bounded size and hand over its bytes; this
//! module gives them to SQLite as an in-memory database (`sqlite3_deserialize`). Whatever SQLite
//! does afterwards — migrating an old schema, journalling — happens in memory and cannot reach
//! the file, and a `-wal`, `-shm` or `-journal` file beside it is never read: the main file
//! alone is what gets verified.

use std::io::Read;
use std::path::Path;

use rusqlite::Connection;
use rusqlite::config::DbConfig;

use super::{Ledger, schema_version, sqlite};
use crate::error::{Error, Result};

/// The largest ledger image loaded into memory: 512 MiB. SQLite's in-memory databases grow to
/// 1 GiB at most, and migrating an old schema copies some tables, so half is left free.
pub const IMAGE_MAX_BYTES: u64 = 512 * 1024 * 1024;

/// The SQLite file header: its first 100 bytes, which open with this magic string.
const HEADER_LEN: usize = 100;
const MAGIC: &[u8; 16] = b"SQLite format 3\0";

impl Ledger {
    /// A ledger copied into memory from the `len` bytes `image` yields: the contents of a
    /// ledger file, which `origin` names in messages. The file is never opened by SQLite nor
    /// written; a ledger of an older schema version is migrated in memory only.
    pub(crate) fn from_image(origin: &Path, mut image: impl Read, len: u64) -> Result<Ledger> {
        let header = image_header(origin, &mut image, len)?;
        let conn = in_memory(origin, &header, image, len)?;
        let mut ledger = Ledger {
            store: super::Store::Sqlite(conn),
            path: origin.to_path_buf(),
            wait: super::Wait::default(),
            logging: true,
            cancel: crate::cancel::Cancel::default(),
        };
        let version = image_version(&ledger, origin)?;
        let supported = schema_version();
        // Before anything reads a table: every object must be what the migrations make of a
        // ledger at this version, so that no view, trigger or changed table (a recursive view in
        // a table's place) is ever run.
        let differences = schema_differences_at(&ledger, version)?;
        if !differences.is_empty() {
            // Not a usage error: the file was checked, and did not pass (exit status 1).
            return Err(Error::CheckFailed(format!(
                "{}: its schema is not what benchledger's migrations make of a ledger at schema \
                 version {version}, so nothing in it was read:\n{}",
                origin.display(),
                differences
                    .iter()
                    .map(|d| format!("  - {d}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            )));
        }
        ledger
            .lite()?
            .pragma_update(None, "foreign_keys", true)
            .map_err(|e| sqlite(origin, e))?;
        if version < supported {
            ledger.migrate(version)?;
        }
        Ok(ledger)
    }
}

/// The error refusing the image `origin` names, for `message`.
fn refuse(origin: &Path, message: String) -> Error {
    Error::Ledger {
        path: origin.to_path_buf(),
        message,
    }
}

/// The error for an image `origin` names that is not an SQLite database.
fn not_sqlite(origin: &Path) -> Error {
    refuse(
        origin,
        "this file is not a benchledger ledger (not an SQLite database)".into(),
    )
}

/// The image's SQLite header, read from `image` after its `len` is checked, with WAL mode
/// turned off.
fn image_header(origin: &Path, image: &mut impl Read, len: u64) -> Result<[u8; HEADER_LEN]> {
    if len > IMAGE_MAX_BYTES {
        return Err(refuse(
            origin,
            format!(
                "it is {len} bytes, more than the {} MiB a ledger loaded into memory may be",
                IMAGE_MAX_BYTES >> 20
            ),
        ));
    }
    if len == 0 {
        return Err(refuse(
            origin,
            "this file is empty, not a benchledger ledger".into(),
        ));
    }
    if len < HEADER_LEN as u64 {
        return Err(not_sqlite(origin));
    }
    let mut header = [0u8; HEADER_LEN];
    image
        .read_exact(&mut header)
        .map_err(|e| Error::io(origin, e))?;
    if &header[..MAGIC.len()] != MAGIC {
        return Err(not_sqlite(origin));
    }
    // Bytes 18 and 19 are the file format's write and read versions: 2 in a ledger that
    // was written in WAL mode, which an in-memory database cannot be. Setting both to 1
    // (rollback journal) is how SQLite's file format documentation turns WAL off; it
    // changes nothing else, and the WAL file itself is never read.
    if header[18] == 2 || header[19] == 2 {
        header[18] = 1;
        header[19] = 1;
    }
    Ok(header)
}

/// An in-memory database holding the `header` and the rest of the `len` bytes of `image`,
/// its schema let call nothing but plain SQL.
fn in_memory(
    origin: &Path,
    header: &[u8; HEADER_LEN],
    image: impl Read,
    len: u64,
) -> Result<Connection> {
    let size = usize::try_from(len).map_err(|_| not_sqlite(origin))?;
    let mut conn = Connection::open_in_memory().map_err(|e| sqlite(origin, e))?;
    // The schema comes from someone else: let it call nothing but plain SQL.
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_DEFENSIVE, true)
        .and_then(|_| conn.set_db_config(DbConfig::SQLITE_DBCONFIG_TRUSTED_SCHEMA, false))
        .map_err(|e| sqlite(origin, e))?;
    conn.deserialize_read_exact(rusqlite::MAIN_DB, (&header[..]).chain(image), size, false)
        .map_err(|e| Error::Ledger {
            path: origin.to_path_buf(),
            message: format!(
                "could not be read whole into memory ({e}): it is shorter than its size said, \
                 so it changed while it was read; nothing was changed"
            ),
        })?;
    Ok(conn)
}

/// The image's schema version, refused when it has none or is newer than this build's.
fn image_version(ledger: &Ledger, origin: &Path) -> Result<i64> {
    let version: i64 = ledger
        .lite()?
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(|e| match e {
            rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::NotADatabase => {
                not_sqlite(origin)
            }
            e => sqlite(origin, e),
        })?;
    if version == 0 {
        return Err(refuse(
            origin,
            "this SQLite file is not a benchledger ledger (it has no benchledger schema \
             version)"
                .into(),
        ));
    }
    let supported = schema_version();
    if version > supported {
        return Err(refuse(
            origin,
            format!(
                "this ledger has schema version {version}, written by a newer benchledger; this \
                 build understands versions up to {supported}. Upgrade benchledger to read it"
            ),
        ));
    }
    Ok(version)
}

/// Tables SQLite itself may add to a ledger (`ANALYZE`'s statistics), left out of the
/// comparison; everything else in `sqlite_schema`, SQLite's own `sqlite_sequence` and
/// automatic indexes included, is compared.
const SQLITE_STATISTICS: [&str; 3] = ["sqlite_stat1", "sqlite_stat3", "sqlite_stat4"];

/// Every object of `sqlite_schema` (type, name, table, SQL text), but `ANALYZE`'s tables.
fn all_objects(conn: &Connection) -> rusqlite::Result<super::Objects> {
    conn.prepare(
        "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_schema ORDER BY type, name",
    )?
    .query_map([], |r| {
        let (kind, name, table, sql): (String, String, String, String) =
            (r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?);
        Ok(((kind, name), format!("{table}\n{sql}")))
    })?
    .filter(|o| {
        o.as_ref().map_or(true, |((kind, name), _)| {
            !(kind == "table" && SQLITE_STATISTICS.contains(&name.as_str()))
        })
    })
    .collect()
}

/// How `ledger`'s schema (at `version`) differs from the one the first `version` migrations
/// make of an empty database: every table, index, view and trigger, by name and SQL text.
fn schema_differences_at(ledger: &Ledger, version: i64) -> Result<Vec<String>> {
    let reference = Connection::open_in_memory().map_err(|e| sqlite(&ledger.path, e))?;
    let count = usize::try_from(version).unwrap_or(usize::MAX);
    for sql in super::migrations().iter().take(count) {
        reference
            .execute_batch(sql)
            .map_err(|e| sqlite(&ledger.path, e))?;
    }
    let expected = all_objects(&reference).map_err(|e| sqlite(&ledger.path, e))?;
    let actual = all_objects(ledger.lite()?).map_err(|e| sqlite(&ledger.path, e))?;
    let file = format!("schema version {version}");
    // The version itself was compared by the caller.
    Ok(super::differences(
        schema_version(),
        &expected,
        &actual,
        &file,
        None,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes of a ledger written to a file the ordinary way (in WAL mode), closed.
    fn ledger_file_bytes() -> Vec<u8> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.db");
        drop(Ledger::create(&path).unwrap());
        std::fs::read(&path).unwrap()
    }

    fn load(bytes: &[u8]) -> Result<Ledger> {
        Ledger::from_image(Path::new("b/ledger.db"), bytes, bytes.len() as u64)
    }

    #[test]
    fn a_wal_mode_ledger_loads_and_is_migrated_in_memory() {
        let bytes = ledger_file_bytes();
        assert_eq!((bytes[18], bytes[19]), (2, 2), "written in WAL mode");
        let ledger = load(&bytes).unwrap();
        assert_eq!(ledger.user_version().unwrap(), schema_version());
        assert_eq!(ledger.path(), Path::new("b/ledger.db"));

        // A schema-1 ledger (as the first builds wrote them) is brought up to date in memory.
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(&super::super::migrations()[0]).unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
        let mut conn = conn;
        let old = conn.serialize(rusqlite::MAIN_DB).unwrap().to_vec();
        let ledger = load(&old).unwrap();
        assert_eq!(ledger.user_version().unwrap(), schema_version());
        assert_eq!(ledger.integrity_check().unwrap(), vec!["ok".to_string()]);
    }

    #[test]
    fn what_is_not_a_ledger_is_refused_by_name() {
        for (bytes, says) in [
            (Vec::new(), "is empty"),
            (b"SQLite format 3\0".to_vec(), "not an SQLite database"),
            (vec![0u8; 4096], "not an SQLite database"),
            (
                {
                    let mut conn = Connection::open_in_memory().unwrap();
                    conn.execute_batch("CREATE TABLE notes(x TEXT)").unwrap();
                    conn.serialize(rusqlite::MAIN_DB).unwrap().to_vec()
                },
                "no benchledger schema version",
            ),
            (
                {
                    let mut conn = Connection::open_in_memory().unwrap();
                    conn.pragma_update(None, "user_version", schema_version() + 1)
                        .unwrap();
                    conn.serialize(rusqlite::MAIN_DB).unwrap().to_vec()
                },
                "newer benchledger",
            ),
        ] {
            let e = load(&bytes).unwrap_err().to_string();
            assert!(e.starts_with("b/ledger.db: "), "{e}");
            assert!(e.contains(says), "{e}");
        }
        let e = Ledger::from_image(Path::new("x"), &[][..], IMAGE_MAX_BYTES + 1)
            .unwrap_err()
            .to_string();
        assert!(e.contains("more than the 512 MiB"), "{e}");
    }

    /// Issue 23, #5: a recursive view in a table's place never runs (it filled the disk), and
    /// an extra view or trigger is refused: every object is compared before anything is read.
    #[test]
    fn bundle_schema_recursive_view_and_extra_objects_are_refused_before_reading() {
        for (tamper, says) in [
            (
                "ALTER TABLE attempt RENAME TO attempt_kept;
                 CREATE VIEW attempt AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL \
                 SELECT n + 1 FROM r) SELECT n FROM r",
                "view `attempt` is not in schema version",
            ),
            (
                "CREATE VIEW extra AS SELECT 1",
                "view `extra` is not in schema version",
            ),
            (
                "CREATE TRIGGER extra AFTER INSERT ON wave BEGIN SELECT 1; END",
                "trigger `extra` is not in schema version",
            ),
            ("CREATE INDEX extra ON wave(id)", "index `extra` is not in"),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("l.db");
            drop(Ledger::create(&path).unwrap());
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(tamper).unwrap();
            drop(conn);
            let image = std::fs::read(&path).unwrap();
            let started = std::time::Instant::now();
            let e = load(&image).unwrap_err().to_string();
            assert!(started.elapsed().as_secs() < 10, "{tamper}");
            assert!(e.contains(says), "{tamper}: {e}");
            assert!(e.contains("nothing in it was read"), "{e}");
        }
    }

    #[test]
    fn a_short_read_is_an_error_not_a_ledger() {
        let bytes = ledger_file_bytes();
        let e = Ledger::from_image(Path::new("b"), &bytes[..], bytes.len() as u64 + 10)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("b: could not be read whole"), "{e}");
    }
}
