//! Shared helpers for the CLI tests: run `benchledger` (in this process where the binary's
//! process adds nothing, else the real binary) against a ledger in a temporary directory, write wave directories from strings, read a ledger's bytes, find the
//! crate's own files (examples, rubrics, fixtures), and snapshot into `snapshots/`.
//!
//! Every run fixes the clock (`BENCHLEDGER_NOW`) and drops `BENCHLEDGER_DB` from the child's
//! environment, so a developer's own ledger can never be touched and outputs are reproducible.
//!
//! The same tests run against either store. By default an [`Env`]'s ledger is an SQLite file;
//! with `BENCHLEDGER_TEST_BACKEND=postgres` (and `BENCHLEDGER_TEST_PG` naming a server, as
//! `scripts/pg-test run` sets it) each [`Env`] gets a fresh database of its own on that server,
//! dropped when the test ends, and [`Env::ledger_bytes`] is a dump of its rows. A test that
//! reaches behind benchledger into the SQLite file asks [`sqlite_only`] first.

// Each test crate uses its own subset of these helpers.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The fixed "now" every run sees.
pub const NOW: &str = "2026-11-30T00:00:00Z";

/// What a run of the binary did.
#[derive(Debug)]
pub struct Out {
    /// The arguments it was given, without `--db PATH` (a temporary path that changes on every
    /// run).
    pub args: Vec<String>,
    /// The exit status; -1 when the process was killed by a signal.
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Out {
    /// Panics, showing everything, unless the run exited 0.
    #[track_caller]
    pub fn ok(self) -> Out {
        assert_eq!(self.status, 0, "expected success, got {self:#?}");
        self
    }

    /// Panics unless the run exited with `status`.
    #[track_caller]
    pub fn status(self, status: i32) -> Out {
        assert_eq!(
            self.status, status,
            "expected exit status {status}, got {self:#?}"
        );
        self
    }

    /// stdout parsed as JSON.
    #[track_caller]
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "`benchledger {}` did not print JSON ({e}):\n{}",
                self.args.join(" "),
                self.stdout
            )
        })
    }

    /// The command, its exit status and everything it printed, for a snapshot.
    pub fn transcript(&self) -> String {
        let mut s = format!(
            "$ benchledger {}\nexit status: {}\n",
            self.args.join(" "),
            self.status
        );
        if !self.stdout.is_empty() {
            s.push_str("--- stdout\n");
            s.push_str(&self.stdout);
        }
        if !self.stderr.is_empty() {
            s.push_str("--- stderr\n");
            s.push_str(&self.stderr);
        }
        s
    }
}

/// The `benchledger` binary, with the clock fixed and without the user's `BENCHLEDGER_DB`:
/// for a test that spawns it itself (to kill it, or to run several at once).
pub fn command() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_benchledger"));
    cmd.env("BENCHLEDGER_NOW", NOW).env_remove("BENCHLEDGER_DB");
    cmd
}

/// Runs a `benchledger` command line in this process, as the binary would run it from this
/// directory with the clock fixed and no `BENCHLEDGER_DB`: the same output, the same error
/// message on stderr, the same exit status. `None` when the arguments do not parse (clap's own
/// usage errors and help are the binary's to print).
pub fn run_in_process<S: AsRef<OsStr>>(args: &[S]) -> Option<Out> {
    use clap::Parser;
    let argv = std::iter::once(OsStr::new("benchledger")).chain(args.iter().map(AsRef::as_ref));
    let cli = benchledger::cli::Cli::try_parse_from(argv).ok()?;
    let surroundings = benchledger::commands::Surroundings {
        now: NOW.into(),
        db_env: None,
        interactive: false,
        stderr_terminal: false,
        width: None,
        cancel: benchledger_core::cancel::Cancel::new(),
    };
    let mut stdout = Vec::new();
    let (status, stderr) = match benchledger::commands::run_in(cli, &mut stdout, surroundings) {
        Ok(()) => (0, String::new()),
        Err(e) => (
            i32::from(e.exit_code()),
            format!("error: {}\n", benchledger::advice::message(&e)),
        ),
    };
    Some(Out {
        args: args
            .iter()
            .map(|a| a.as_ref().to_string_lossy().into_owned())
            .collect(),
        status,
        stdout: String::from_utf8(stdout).expect("stdout is UTF-8"),
        stderr,
    })
}

/// Runs `benchledger` with exactly these arguments (no `--db`), from `cwd`, with extra
/// environment variables.
pub fn run_raw<S: AsRef<OsStr>>(cwd: &Path, args: &[S], env: &[(&str, &OsStr)]) -> Out {
    let mut cmd = command();
    cmd.args(args).current_dir(cwd);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("the benchledger binary runs");
    Out {
        args: args
            .iter()
            .map(|a| a.as_ref().to_string_lossy().into_owned())
            .collect(),
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// A temporary directory holding a ledger (`ledger.db`, or a database on the test server) and
/// whatever input a test writes.
pub struct Env {
    pub dir: tempfile::TempDir,
    /// The ledger as `--db` names it: the file, or the test database's URL.
    pub db: PathBuf,
    /// The test database on the PostgreSQL server, when the ledger is there.
    pub pg: Option<pg::Database>,
    /// Where the binary runs: the temporary directory, or the crate root
    /// ([`Env::run_from_crate_root`]).
    cwd: PathBuf,
}

impl Env {
    /// A fresh directory; the ledger is not created yet.
    pub fn new() -> Env {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let cwd = dir.path().to_path_buf();
        if postgres_backend() {
            let pg = pg::Database::create();
            return Env {
                db: PathBuf::from(&pg.url),
                pg: Some(pg),
                dir,
                cwd,
            };
        }
        let db = dir.path().join("ledger.db");
        Env {
            dir,
            db,
            pg: None,
            cwd,
        }
    }

    /// A fresh directory whose ledger is a new database on the test server
    /// (`BENCHLEDGER_TEST_PG`), whichever store the other tests run against.
    pub fn postgres() -> Env {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let cwd = dir.path().to_path_buf();
        let pg = pg::Database::create();
        Env {
            db: PathBuf::from(&pg.url),
            pg: Some(pg),
            dir,
            cwd,
        }
    }

    /// A fresh directory whose ledger is always an SQLite file, whichever store the tests run
    /// against.
    pub fn sqlite() -> Env {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let db = dir.path().join("ledger.db");
        let cwd = dir.path().to_path_buf();
        Env {
            dir,
            db,
            pg: None,
            cwd,
        }
    }

    /// Runs the binary from the crate root from now on, so that paths such as
    /// `rubrics/session-efficiency.v2.toml` resolve, and messages naming them read the same on
    /// every machine.
    pub fn run_from_crate_root(mut self) -> Env {
        self.cwd = crate_root().to_path_buf();
        self
    }

    /// A fresh ledger, run from the crate root, holding these waves (manifests relative to
    /// the crate root).
    #[track_caller]
    pub fn with_waves(manifests: &[&str]) -> Env {
        let env = Env::init().run_from_crate_root();
        if !manifests.is_empty() {
            let paths: Vec<&Path> = manifests.iter().map(Path::new).collect();
            env.ingest(&paths);
        }
        env
    }

    /// A fresh directory with an initialised ledger.
    pub fn init() -> Env {
        let env = Env::new();
        env.run(["init"]).ok();
        env
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Runs `benchledger --db <ledger> ARGS...` from the temporary directory (or the crate
    /// root). From the crate root, where the test itself runs, the command runs in this process
    /// ([`run_in_process`]); from elsewhere, and for a command line that does not parse (clap
    /// prints its own usage), the binary is spawned.
    pub fn run<I, S>(&self, args: I) -> Out
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut all: Vec<std::ffi::OsString> = vec!["--db".into(), self.db.clone().into()];
        all.extend(args.into_iter().map(|a| a.as_ref().to_os_string()));
        let here = std::env::current_dir().ok();
        let mut out = here
            .filter(|h| *h == self.cwd)
            .and_then(|_| run_in_process(&all))
            .unwrap_or_else(|| run_raw(&self.cwd, &all, &[]));
        out.args.drain(..2);
        out
    }

    /// The command `benchledger --db <ledger> ARGS...`, not yet run: for a test that spawns it
    /// itself (to kill it, or to run several at once).
    pub fn command<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut cmd = command();
        cmd.arg("--db")
            .arg(&self.db)
            .args(args)
            .current_dir(&self.cwd);
        cmd
    }

    /// Ingests manifests and panics unless that succeeds.
    #[track_caller]
    pub fn ingest(&self, manifests: &[&Path]) -> Out {
        let mut args: Vec<&OsStr> = vec![OsStr::new("ingest")];
        args.extend(manifests.iter().map(|m| m.as_os_str()));
        self.run(args).ok()
    }

    /// Ingests the Harbor job fixture (3 trials, 1 seat; its config.json says a timeout
    /// multiplier of 1, so the wave is hashed in wave content format 3).
    pub fn ingest_harbor_job(&self) -> Out {
        self.run([
            OsStr::new("ingest"),
            OsStr::new("--from"),
            OsStr::new("harbor"),
            OsStr::new("--started-at"),
            OsStr::new("2025-11-01T10:00:00Z"),
            crate_path("tests/fixtures/import/harbor/job").as_os_str(),
        ])
        .ok()
    }

    /// The ledger file's bytes. The binary closes its connection on exit, which checkpoints
    /// the WAL into the main file; this checks that no WAL with content is left behind, so the
    /// main file alone is the ledger's whole state.
    #[track_caller]
    pub fn ledger_bytes(&self) -> Vec<u8> {
        match &self.pg {
            Some(pg) => pg.dump(),
            None => ledger_bytes(&self.db),
        }
    }

    /// The ids of the waves in the ledger, in listing order.
    #[track_caller]
    pub fn wave_ids(&self) -> Vec<String> {
        let out = self.run(["waves", "--format", "json"]).ok();
        out.json()["waves"]
            .as_array()
            .expect("`waves` is a list")
            .iter()
            .map(|w| w["wave"].as_str().expect("a wave id").to_string())
            .collect()
    }
}

/// A ledger file's bytes, checking that no WAL with uncheckpointed content sits beside it.
#[track_caller]
pub fn ledger_bytes(db: &Path) -> Vec<u8> {
    let mut wal = db.as_os_str().to_os_string();
    wal.push("-wal");
    let wal = PathBuf::from(wal);
    if let Ok(meta) = std::fs::metadata(&wal) {
        assert_eq!(
            meta.len(),
            0,
            "{} holds content: the ledger's state is not all in its main file",
            wal.display()
        );
    }
    std::fs::read(db).unwrap_or_else(|e| panic!("reading {}: {e}", db.display()))
}

/// Writes a wave directory: `wave.toml` holding `manifest`, and each `(name, content)` file
/// beside it. Returns the manifest's path.
pub fn write_wave(dir: &Path, manifest: &str, files: &[(&str, &str)]) -> PathBuf {
    std::fs::create_dir_all(dir).expect("creating the wave directory");
    let path = dir.join("wave.toml");
    std::fs::write(&path, manifest).expect("writing wave.toml");
    for (name, content) in files {
        std::fs::write(dir.join(name), content).expect("writing a results file");
    }
    path
}

/// Copies a directory tree.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("creating the copy");
    for entry in std::fs::read_dir(from).expect("reading the directory") {
        let entry = entry.expect("a directory entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copying a file");
        }
    }
}

/// The crate's root directory.
pub fn crate_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A path under the crate's root.
pub fn crate_path(rel: &str) -> PathBuf {
    crate_root().join(rel)
}

/// The shipped example manifests, `examples/*/wave.toml`, in name order.
pub fn examples() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(crate_path("examples"))
        .expect("examples/ is readable")
        .map(|e| e.expect("a directory entry").path().join("wave.toml"))
        .filter(|p| p.is_file())
        .collect();
    v.sort();
    assert_eq!(v.len(), 4, "the four example waves: {v:?}");
    v
}

/// SHA-256 of some bytes, in lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A path under the crate's `tests/` directory.
pub fn tests_dir(rel: &str) -> PathBuf {
    crate_root().join("tests").join(rel)
}

/// insta settings for named file snapshots in `snapshots/` at the crate root.
pub fn snapshot_settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots"));
    s.set_prepend_module_to_snapshot(false);
    s
}

/// `verify`'s words with the schema version this build writes named `[schema version]`: the
/// version grows with every migration, and a snapshot of what a migration does not touch
/// should not change with it.
pub fn schema_version_named(s: &str) -> String {
    let v = benchledger_core::ledger::schema_version();
    s.replace(
        &format!("match schema.sql (version {v})"),
        "match schema.sql (version [schema version])",
    )
}

/// Runs `benchledger ARGS...` (no `--db`) from `cwd` as `run_raw` does, but kills it if it runs
/// past `limit`, failing the test: for a command that must be refused at once rather than hang.
/// Its output is drained as it comes, so a long output cannot stall it.
#[track_caller]
pub fn run_guarded<S: AsRef<OsStr>>(cwd: &Path, args: &[S], limit: std::time::Duration) -> Out {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = command()
        .args(args)
        .current_dir(cwd)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the benchledger binary runs");
    fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<String> {
        std::thread::spawn(move || {
            let mut s = String::new();
            if let Some(mut p) = pipe {
                p.read_to_string(&mut s).expect("output is UTF-8");
            }
            s
        })
    }
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for benchledger") {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            let args: Vec<_> = args.iter().map(|a| a.as_ref().to_os_string()).collect();
            panic!("benchledger {args:?} was still running after {limit:?}, and was killed");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    Out {
        args: args
            .iter()
            .map(|a| a.as_ref().to_string_lossy().into_owned())
            .collect(),
        status: status.code().unwrap_or(-1),
        stdout: stdout.join().expect("stdout read"),
        stderr: stderr.join().expect("stderr read"),
    }
}

impl Env {
    /// Runs `benchledger --db <ledger> ARGS...` as [`run_guarded`] does.
    #[track_caller]
    pub fn run_guarded<I, S>(&self, args: I, limit: std::time::Duration) -> Out
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut all: Vec<std::ffi::OsString> = vec!["--db".into(), self.db.clone().into()];
        all.extend(args.into_iter().map(|a| a.as_ref().to_os_string()));
        run_guarded(self.path(), &all, limit)
    }
}

/// Whether the tests run against PostgreSQL (`BENCHLEDGER_TEST_BACKEND=postgres`).
pub fn postgres_backend() -> bool {
    match std::env::var("BENCHLEDGER_TEST_BACKEND").as_deref() {
        Ok("postgres") => true,
        Ok("sqlite") | Ok("") | Err(_) => false,
        Ok(other) => panic!("BENCHLEDGER_TEST_BACKEND={other:?}: expected sqlite or postgres"),
    }
}

/// For a test that reaches into the SQLite file behind benchledger's back: true (go on) on
/// SQLite; on PostgreSQL, says the test is skipped there and returns false.
pub fn sqlite_only(test: &str) -> bool {
    if postgres_backend() {
        eprintln!("{test}: skipped on PostgreSQL (it works on the SQLite file itself)");
        return false;
    }
    true
}

/// The test PostgreSQL server (`BENCHLEDGER_TEST_PG`), when there is one.
pub mod pg {
    #[cfg_attr(not(feature = "postgres"), allow(unused_imports))]
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// The server's URL, from `BENCHLEDGER_TEST_PG` (`scripts/pg-test` prints it).
    pub fn server() -> Option<String> {
        std::env::var("BENCHLEDGER_TEST_PG")
            .ok()
            .filter(|s| !s.is_empty())
    }

    /// The URL of database `name` on the test server.
    pub fn url_of(name: &str) -> String {
        let server = server().expect("BENCHLEDGER_TEST_PG names the test server");
        let (base, query) = match server.split_once('?') {
            Some((b, q)) => (b.to_string(), format!("?{q}")),
            None => (server.clone(), String::new()),
        };
        let authority_end = base
            .find("://")
            .map(|i| i + 3)
            .and_then(|start| base[start..].find('/').map(|j| start + j))
            .unwrap_or(base.len());
        format!("{}/{name}{query}", &base[..authority_end])
    }

    /// A client of the server's maintenance database.
    #[cfg(feature = "postgres")]
    pub fn admin() -> postgres::Client {
        let server = server().expect("BENCHLEDGER_TEST_PG names the test server");
        postgres::Client::connect(&server, postgres::NoTls)
            .unwrap_or_else(|e| panic!("connecting to the test server {server}: {e}"))
    }

    /// A database of its own for one test, dropped (with its connections) when done.
    pub struct Database {
        pub name: String,
        pub url: String,
    }

    static NEXT: AtomicUsize = AtomicUsize::new(0);

    impl Database {
        #[cfg(feature = "postgres")]
        pub fn create() -> Database {
            let name = format!(
                "bl_test_{}_{}",
                std::process::id(),
                NEXT.fetch_add(1, Ordering::SeqCst)
            );
            admin()
                .batch_execute(&format!("CREATE DATABASE {name}"))
                .unwrap_or_else(|e| panic!("creating the test database {name}: {e}"));
            Database {
                url: url_of(&name),
                name,
            }
        }

        #[cfg(not(feature = "postgres"))]
        pub fn create() -> Database {
            let _ = &NEXT;
            panic!("BENCHLEDGER_TEST_BACKEND=postgres needs the `postgres` cargo feature")
        }

        /// A client of this database.
        #[cfg(feature = "postgres")]
        pub fn client(&self) -> postgres::Client {
            postgres::Client::connect(&self.url, postgres::NoTls)
                .unwrap_or_else(|e| panic!("connecting to {}: {e}", self.url))
        }

        /// Every row of every table of the database, as text, tables by name and rows in
        /// order: what the ledger holds, to compare before and after a command.
        #[cfg(feature = "postgres")]
        pub fn dump(&self) -> Vec<u8> {
            let mut c = self.client();
            let tables: Vec<String> = c
                .query(
                    "SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema()
                     ORDER BY tablename",
                    &[],
                )
                .expect("listing the tables")
                .iter()
                .map(|r| r.get(0))
                .collect();
            let mut out = String::new();
            for t in tables {
                out.push_str(&format!("-- {t}\n"));
                let rows = c
                    .simple_query(&format!(
                        "SELECT t::text FROM {t} t ORDER BY t::text COLLATE \"C\""
                    ))
                    .expect("reading a table");
                for m in rows {
                    if let postgres::SimpleQueryMessage::Row(r) = m {
                        out.push_str(r.get(0).unwrap_or("NULL"));
                        out.push('\n');
                    }
                }
            }
            out.into_bytes()
        }

        #[cfg(not(feature = "postgres"))]
        pub fn dump(&self) -> Vec<u8> {
            unreachable!("no PostgreSQL without the feature")
        }
    }

    impl Drop for Database {
        fn drop(&mut self) {
            #[cfg(feature = "postgres")]
            if let Ok(mut c) =
                postgres::Client::connect(&server().unwrap_or_default(), postgres::NoTls)
            {
                let _ = c.batch_execute(&format!(
                    "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                    self.name
                ));
            }
        }
    }
}

/// A value of a ledger's row as the tests compare it, whichever store holds it: integers and
/// flags as integers (SQLite's way), reals as reals, text as text.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
}

/// A database shell on a test's ledger, reaching behind benchledger's back as someone with
/// `sqlite3` or `psql` would.
pub enum Shell {
    Lite(rusqlite::Connection),
    #[cfg(feature = "postgres")]
    Pg(postgres::Client),
}

impl Env {
    /// A shell on this test's ledger.
    pub fn shell(&self) -> Shell {
        match &self.pg {
            #[cfg(feature = "postgres")]
            Some(pg) => Shell::Pg(pg.client()),
            #[cfg(not(feature = "postgres"))]
            Some(_) => unreachable!("no PostgreSQL without the feature"),
            None => Shell::open(&self.db),
        }
    }

    /// Edits the ledger behind benchledger's back ([`Shell::tamper`]).
    #[track_caller]
    pub fn tamper(&self, sql: &str) {
        self.shell().tamper(sql);
    }

    /// Every row of a query on the ledger ([`Shell::rows`]).
    #[track_caller]
    pub fn rows(&self, sql: &str) -> Vec<Vec<Cell>> {
        self.shell().rows(sql)
    }

    /// The one integer a query on the ledger returns.
    #[track_caller]
    pub fn count(&self, sql: &str) -> i64 {
        match self.rows(sql).as_slice() {
            [row] => match row.as_slice() {
                [Cell::Int(n)] => *n,
                other => panic!("{sql}: expected one integer, got {other:?}"),
            },
            other => panic!("{sql}: expected one row, got {other:?}"),
        }
    }
}

impl Shell {
    /// A shell on the ledger `--db` names: a PostgreSQL URL or an SQLite file.
    pub fn at(db: &Path) -> Shell {
        let s = db.to_string_lossy();
        if s.starts_with("postgresql://") || s.starts_with("postgres://") {
            #[cfg(feature = "postgres")]
            return Shell::Pg(
                postgres::Client::connect(&s, postgres::NoTls)
                    .unwrap_or_else(|e| panic!("connecting to {s}: {e}")),
            );
        }
        Shell::open(db)
    }

    /// A shell on the SQLite file `db`.
    pub fn open(db: &Path) -> Shell {
        Shell::Lite(
            rusqlite::Connection::open(db)
                .unwrap_or_else(|e| panic!("opening {}: {e}", db.display())),
        )
    }

    /// Runs `sql` (statements separated by `;`, in the SQL both stores speak) as an editor of
    /// the ledger would. On PostgreSQL the statements run in a session whose triggers and
    /// references are off (`session_replication_role = replica`, what a superuser editing the
    /// tables can do, as SQLite's shell edits with references unchecked), and SQLite's
    /// `DROP TRIGGER t_no_x` is PostgreSQL's `DROP TRIGGER t_no_x ON t`.
    #[track_caller]
    pub fn tamper(&mut self, sql: &str) {
        match self {
            Shell::Lite(conn) => conn
                .execute_batch(sql)
                .unwrap_or_else(|e| panic!("tampering with {sql:?}: {e}")),
            #[cfg(feature = "postgres")]
            Shell::Pg(client) => {
                let kept: Vec<String> = sql
                    .split(';')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(|s| match s.strip_prefix("DROP TRIGGER ") {
                        Some(name) => {
                            let table = name
                                .split_once("_no_")
                                .unwrap_or_else(|| panic!("{name}: not a benchledger trigger"))
                                .0;
                            format!("DROP TRIGGER {name} ON {table}")
                        }
                        None => s.to_string(),
                    })
                    .collect();
                let batch = format!(
                    "SET session_replication_role = replica; {}; RESET session_replication_role",
                    kept.join("; ")
                );
                client
                    .batch_execute(&batch)
                    .unwrap_or_else(|e| panic!("tampering with {sql:?}: {e}"));
            }
        }
    }

    /// Runs `sql` with the ledger's protections on: the store's own error when it refuses.
    pub fn try_execute(&mut self, sql: &str) -> Result<(), String> {
        match self {
            Shell::Lite(conn) => conn.execute_batch(sql).map_err(|e| e.to_string()),
            #[cfg(feature = "postgres")]
            Shell::Pg(client) => client.batch_execute(sql).map_err(|e| {
                e.as_db_error()
                    .map_or_else(|| e.to_string(), |d| d.message().to_string())
            }),
        }
    }

    /// Every row of a query, each column as a [`Cell`].
    #[track_caller]
    pub fn rows(&mut self, sql: &str) -> Vec<Vec<Cell>> {
        match self {
            Shell::Lite(conn) => {
                use rusqlite::types::Value;
                let mut stmt = conn.prepare(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
                let n = stmt.column_count();
                stmt.query_map([], |r| {
                    (0..n)
                        .map(|i| {
                            Ok(match r.get::<_, Value>(i)? {
                                Value::Null => Cell::Null,
                                Value::Integer(v) => Cell::Int(v),
                                Value::Real(v) => Cell::Real(v),
                                Value::Text(v) => Cell::Text(v),
                                Value::Blob(v) => panic!("{sql}: a blob {v:?}"),
                            })
                        })
                        .collect()
                })
                .and_then(|rows| rows.collect::<rusqlite::Result<Vec<_>>>())
                .unwrap_or_else(|e| panic!("{sql}: {e}"))
            }
            #[cfg(feature = "postgres")]
            Shell::Pg(client) => {
                use postgres::types::Type;
                let rows = client
                    .query(sql, &[])
                    .unwrap_or_else(|e| panic!("{sql}: {e}"));
                rows.iter()
                    .map(|r| {
                        (0..r.len())
                            .map(|i| {
                                let ty = r.columns()[i].type_();
                                let cell = if *ty == Type::INT8 {
                                    r.get::<_, Option<i64>>(i).map(Cell::Int)
                                } else if *ty == Type::INT4 {
                                    r.get::<_, Option<i32>>(i).map(|v| Cell::Int(v.into()))
                                } else if *ty == Type::BOOL {
                                    r.get::<_, Option<bool>>(i).map(|v| Cell::Int(v.into()))
                                } else if *ty == Type::FLOAT8 {
                                    r.get::<_, Option<f64>>(i).map(Cell::Real)
                                } else if *ty == Type::TEXT || *ty == Type::NAME {
                                    r.get::<_, Option<String>>(i).map(Cell::Text)
                                } else {
                                    panic!("{sql}: column {i} is of type {ty}")
                                };
                                cell.unwrap_or(Cell::Null)
                            })
                            .collect()
                    })
                    .collect()
            }
        }
    }
}

/// `s` as an SQL string literal, in the syntax both stores read.
pub fn sql_text(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// Another process's write transaction on a test's ledger, held until dropped: SQLite's
/// `BEGIN IMMEDIATE`, or benchledger's advisory write lock on PostgreSQL.
pub enum WriteLock {
    Lite(rusqlite::Connection),
    #[cfg(feature = "postgres")]
    Pg(postgres::Client),
}

/// The key of benchledger's write lock on PostgreSQL (`src/ledger/pg/mod.rs`).
pub const PG_WRITE_LOCK: i64 = 0x6265_6e63_686c_6564;

impl Env {
    /// Takes the ledger's write lock as another writer would, and holds it.
    pub fn hold_write_lock(&self) -> WriteLock {
        match self.shell() {
            Shell::Lite(conn) => {
                conn.execute_batch("BEGIN IMMEDIATE")
                    .expect("taking the write lock");
                WriteLock::Lite(conn)
            }
            #[cfg(feature = "postgres")]
            Shell::Pg(mut client) => {
                client
                    .batch_execute(&format!(
                        "BEGIN; SELECT pg_advisory_xact_lock({PG_WRITE_LOCK})"
                    ))
                    .expect("taking the write lock");
                WriteLock::Pg(client)
            }
        }
    }

    /// Checks the ledger is whole: SQLite's own integrity check on a file, `verify --ledger`
    /// (every row against its hashes, the schema against schema.pg.sql) on PostgreSQL.
    #[track_caller]
    pub fn assert_intact(&self) {
        match &self.pg {
            Some(_) => {
                self.run(["verify", "--ledger"]).ok();
            }
            None => assert_eq!(
                self.rows("PRAGMA integrity_check"),
                vec![vec![Cell::Text("ok".into())]]
            ),
        }
    }
}
