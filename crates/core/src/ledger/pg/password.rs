//! The connection's password, from libpq's sources when the URL gives none, so that a password
//! need never be typed on a command line (where `ps` shows it to every user of the machine).
//!
//! In libpq's order: the URL's own password (`postgresql://USER:PASSWORD@…` or
//! `?password=…`); else `PGPASSWORD`; else the password file, `PGPASSFILE` or `~/.pgpass`
//! (`$HOME/.pgpass`). An empty password counts as none, as in libpq. The file is read as libpq
//! reads it:
//!
//! - one entry a line, `HOST:PORT:DATABASE:USER:PASSWORD`; a line starting with `#` is a
//!   comment; a field may be `*` (anything); `\:` and `\\` stand for `:` and `\`;
//! - the first line whose four fields match is used, its password ending at the first
//!   unescaped `:`;
//! - HOST is matched against the URL's host (a Unix socket's directory as its path; `localhost`
//!   when the URL names no host or the socket is in the usual directory, `/var/run/postgresql`,
//!   `/run/postgresql` or `/tmp`); PORT against the port (5432 when none is named); DATABASE
//!   against the database (the user's name when none is named); USER against the user (the
//!   operating system's user name when none is named);
//! - a file that is not a plain file, or that its group or others may read, write or run, is
//!   not read at all (libpq warns and ignores it; here the error for a missing password says
//!   why the file was not used).
//!
//! With several hosts in one URL, the first host that has an entry gives the password for all
//! of them (the client library takes one password per connection).

use std::ffi::OsString;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use postgres::config::Host;

/// Where the connection's password came from, for the error that reports it refused or
/// missing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Source {
    /// The URL's own.
    Url,
    /// `PGPASSWORD`.
    Environment,
    /// The password file at this path.
    File(PathBuf),
    /// None was found; when a password file was there but not read, why.
    Missing { skipped: Option<String> },
}

impl Source {
    /// Words for an error: where the password came from, or where none was found.
    pub(super) fn describe(&self) -> String {
        match self {
            Source::Url => "the password was the URL's".into(),
            Source::Environment => "the password was PGPASSWORD's".into(),
            Source::File(path) => format!("the password was read from {}", path.display()),
            Source::Missing { skipped: None } => {
                "no password was given: set PGPASSWORD, or add a line \
                 HOST:PORT:DATABASE:USER:PASSWORD to ~/.pgpass (or the file PGPASSFILE names) \
                 with permissions 0600"
                    .into()
            }
            Source::Missing {
                skipped: Some(why), ..
            } => format!(
                "no password was given: {why}; set PGPASSWORD, or fix the file (a line \
                 HOST:PORT:DATABASE:USER:PASSWORD, permissions 0600)"
            ),
        }
    }
}

/// What the lookup reads from the process's environment, gathered once (tests give their own).
#[derive(Debug, Clone, Default)]
pub(super) struct Environment {
    /// `PGPASSWORD`.
    pub password: Option<OsString>,
    /// `PGPASSFILE`.
    pub passfile: Option<PathBuf>,
    /// `HOME`, where `.pgpass` is looked for.
    pub home: Option<PathBuf>,
    /// The operating system's user name, the user when the URL names none.
    pub os_user: Option<String>,
}

impl Environment {
    /// This process's environment.
    pub(super) fn current() -> Environment {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        Environment {
            password: var("PGPASSWORD"),
            passfile: var("PGPASSFILE").map(PathBuf::from),
            home: var("HOME").map(PathBuf::from),
            os_user: whoami::username().ok(),
        }
    }
}

/// Socket directories libpq builds treat as their default, matched as `localhost`.
const DEFAULT_SOCKET_DIRS: [&str; 3] = ["/var/run/postgresql", "/run/postgresql", "/tmp"];

/// Gives `config` a password from libpq's sources when its URL gave none, and says where the
/// password came from.
pub(super) fn fill(config: &mut postgres::Config, env: &Environment) -> Source {
    if config.get_password().is_some_and(|p| !p.is_empty()) {
        return Source::Url;
    }
    if let Some(password) = &env.password {
        config.password(password.as_encoded_bytes());
        return Source::Environment;
    }
    let file = match (&env.passfile, &env.home) {
        (Some(file), _) => file.clone(),
        (None, Some(home)) => home.join(".pgpass"),
        (None, None) => return Source::Missing { skipped: None },
    };
    let lines = match open(&file) {
        Ok(Some(lines)) => lines,
        Ok(None) => return Source::Missing { skipped: None },
        Err(why) => return Source::Missing { skipped: Some(why) },
    };
    let user = config
        .get_user()
        .map(str::to_owned)
        .or_else(|| env.os_user.clone())
        .unwrap_or_default();
    let dbname = config
        .get_dbname()
        .map_or_else(|| user.clone(), str::to_owned);
    let keys = keys(config.get_hosts(), config.get_ports());
    for (host, port) in &keys {
        let wanted = [
            host.as_bytes(),
            port.as_bytes(),
            dbname.as_bytes(),
            user.as_bytes(),
        ];
        if let Some(password) = lines.iter().find_map(|line| matches(line, &wanted)) {
            config.password(password);
            return Source::File(file);
        }
    }
    Source::Missing { skipped: None }
}

/// The (HOST, PORT) pairs the file is searched for, one per host in the URL's order.
fn keys(hosts: &[Host], ports: &[u16]) -> Vec<(String, String)> {
    let port = |i: usize| {
        let p = match ports {
            [] => 5432,
            [one] => *one,
            many => many.get(i).copied().unwrap_or(5432),
        };
        p.to_string()
    };
    if hosts.is_empty() {
        return vec![("localhost".into(), port(0))];
    }
    hosts
        .iter()
        .enumerate()
        .map(|(i, host)| {
            let name = match host {
                Host::Tcp(name) => name.clone(),
                Host::Unix(dir) if DEFAULT_SOCKET_DIRS.iter().any(|d| dir == Path::new(d)) => {
                    "localhost".into()
                }
                Host::Unix(dir) => dir.to_string_lossy().into_owned(),
            };
            (name, port(i))
        })
        .collect()
}

/// The password file's lines, without their line ends and comments; `None` when there is no
/// file; why the file was not read, when it is there but must not be.
fn open(file: &Path) -> std::result::Result<Option<Vec<Vec<u8>>>, String> {
    let Ok(meta) = std::fs::metadata(file) else {
        return Ok(None);
    };
    if !meta.is_file() {
        return Err(format!(
            "the password file {} is not a plain file, so it was not read",
            file.display()
        ));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if meta.permissions().mode() & 0o077 != 0 {
            return Err(format!(
                "the password file {} has group or world access, so it was not read \
                 (permissions should be u=rw, 0600, or less: chmod 0600 {})",
                file.display(),
                file.display()
            ));
        }
    }
    let Ok(f) = std::fs::File::open(file) else {
        return Err(format!(
            "the password file {} could not be opened",
            file.display()
        ));
    };
    let mut lines = Vec::new();
    for line in std::io::BufReader::new(f).split(b'\n') {
        let Ok(mut line) = line else {
            return Err(format!(
                "the password file {} could not be read",
                file.display()
            ));
        };
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.is_empty() || line[0] == b'#' {
            continue;
        }
        lines.push(line);
    }
    Ok(Some(lines))
}

/// The password of `line` when its four fields match `wanted` (host, port, database, user),
/// unescaped and ending at the first unescaped `:`.
fn matches(line: &[u8], wanted: &[&[u8]; 4]) -> Option<Vec<u8>> {
    let mut rest = line;
    for token in wanted {
        rest = field_matches(rest, token)?;
    }
    let mut password = Vec::new();
    let mut it = rest.iter().copied().peekable();
    while let Some(b) = it.next() {
        match b {
            b':' => break,
            b'\\' => {
                if let Some(next) = it.next() {
                    password.push(next);
                } else {
                    password.push(b);
                }
            }
            _ => password.push(b),
        }
    }
    Some(password)
}

/// libpq's `pwdfMatchesString`: whether the field at the start of `buf` is `*` or equals
/// `token` (with `\` escaping the next byte); the rest of the line after the field's `:` if so.
fn field_matches<'a>(buf: &'a [u8], token: &[u8]) -> Option<&'a [u8]> {
    if let [b'*', b':', rest @ ..] = buf {
        return Some(rest);
    }
    let mut i = 0;
    let mut t = 0;
    while i < buf.len() {
        let mut escaped = false;
        if buf[i] == b'\\' {
            i += 1;
            escaped = true;
            if i == buf.len() {
                return None;
            }
        }
        if buf[i] == b':' && !escaped && t == token.len() {
            return Some(&buf[i + 1..]);
        }
        if t == token.len() || buf[i] != token[t] {
            return None;
        }
        i += 1;
        t += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(url: &str) -> postgres::Config {
        url.parse().unwrap()
    }

    fn env_with_file(text: &str, mode: u32) -> (tempfile::TempDir, Environment) {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("pgpass");
        std::fs::write(&file, text).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode)).unwrap();
        }
        let env = Environment {
            passfile: Some(file),
            os_user: Some("osuser".into()),
            ..Environment::default()
        };
        (dir, env)
    }

    #[test]
    fn libpq_password_order_url_then_pgpassword_then_file() {
        let (_dir, mut env) = env_with_file("*:*:*:*:fromfile\n", 0o600);
        let mut c = config("postgresql://ann:inurl@db/ledger");
        assert_eq!(fill(&mut c, &env), Source::Url);
        assert_eq!(c.get_password(), Some(&b"inurl"[..]));

        env.password = Some("fromenv".into());
        let mut c = config("postgresql://ann@db/ledger");
        assert_eq!(fill(&mut c, &env), Source::Environment);
        assert_eq!(c.get_password(), Some(&b"fromenv"[..]));

        env.password = None;
        let mut c = config("postgresql://ann:@db/ledger");
        assert!(matches!(fill(&mut c, &env), Source::File(_)));
        assert_eq!(c.get_password(), Some(&b"fromfile"[..]));
    }

    #[test]
    fn libpq_passfile_first_matching_line_wins_with_escapes_and_wildcards() {
        let text = "# a comment line\n\
                    db:5432:other:ann:wrongdb\n\
                    db:5433:ledger:ann:wrongport\n\
                    db:*:ledger:bob:wronguser\n\
                    db:*:ledger:ann:pa\\:ss\\\\word:ignored\r\n\
                    *:*:*:*:fallback\n";
        let (_dir, env) = env_with_file(text, 0o600);
        let mut c = config("postgresql://ann@db/ledger");
        assert!(matches!(fill(&mut c, &env), Source::File(_)));
        assert_eq!(c.get_password(), Some(&b"pa:ss\\word"[..]));

        let mut c = config("postgresql://carol@elsewhere:6000/x");
        fill(&mut c, &env);
        assert_eq!(c.get_password(), Some(&b"fallback"[..]));
    }

    #[test]
    fn libpq_passfile_defaults_localhost_5432_user_as_database_and_socket_paths() {
        let text = "h\\:x:5432:ann:ann:escapedhost\n\
                    /srv/pg/socket:5432:ledger:ann:socketpw\n\
                    localhost:5432:osuser:osuser:defaults\n";
        let (_dir, env) = env_with_file(text, 0o600);
        // No host (the default socket), no port, no database, no user: localhost, 5432, the
        // user's name twice.
        let mut c = config("host=/var/run/postgresql");
        fill(&mut c, &env);
        assert_eq!(c.get_password(), Some(&b"defaults"[..]));
        let mut c = config("postgresql://ann@%2Fsrv%2Fpg%2Fsocket/ledger");
        fill(&mut c, &env);
        assert_eq!(c.get_password(), Some(&b"socketpw"[..]));
        let mut c = config("postgresql://ann@%2Fsrv%2Fpg%2Fsocket/other");
        assert_eq!(fill(&mut c, &env), Source::Missing { skipped: None });
        assert_eq!(c.get_password(), None);
    }

    #[cfg(unix)]
    #[test]
    fn libpq_passfile_with_group_or_world_access_is_not_read() {
        for mode in [0o640, 0o604, 0o610] {
            let (_dir, env) = env_with_file("*:*:*:*:secret\n", mode);
            let mut c = config("postgresql://ann@db/ledger");
            let Source::Missing { skipped: Some(why) } = fill(&mut c, &env) else {
                panic!("mode {mode:o}: the file was read");
            };
            assert!(
                why.contains("group or world access") && why.contains("0600"),
                "{why}"
            );
            assert_eq!(c.get_password(), None);
        }
        let dir = tempfile::tempdir().unwrap();
        let env = Environment {
            passfile: Some(dir.path().to_path_buf()),
            ..Environment::default()
        };
        let mut c = config("postgresql://ann@db/ledger");
        let Source::Missing { skipped: Some(why) } = fill(&mut c, &env) else {
            panic!("a directory was read as the password file");
        };
        assert!(why.contains("not a plain file"), "{why}");
    }

    #[test]
    fn libpq_passfile_under_home_and_missing_file() {
        let dir = tempfile::tempdir().unwrap();
        let env = Environment {
            home: Some(dir.path().to_path_buf()),
            ..Environment::default()
        };
        let mut c = config("postgresql://ann@db/ledger");
        assert_eq!(fill(&mut c, &env), Source::Missing { skipped: None });
        let file = dir.path().join(".pgpass");
        std::fs::write(&file, "db:5432:ledger:ann:home\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        assert_eq!(fill(&mut c, &env), Source::File(file));
        assert_eq!(c.get_password(), Some(&b"home"[..]));
    }
}
