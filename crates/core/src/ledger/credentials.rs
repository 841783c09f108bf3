//! A PostgreSQL ledger's credentials: where the connection's password comes from, and where it
//! must never show. Rules, text and files only: the server's client fills in what this finds
//! and decodes the URL's password (`pg/mod.rs`); nothing here needs a server or the client
//! crate, and every rule is tested without either.
//!
//! **Where it never shows.** A message names a server's ledger by its URL without the password
//! ([`redacted`]), however the URL spells it.
//!
//! **Where it comes from.** From libpq's sources when the URL gives none, so that a password
//! need never be typed on a command line (where `ps` shows it to every user of the machine).
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

/// The URL as messages show it: without a password, wherever the URL holds one.
///
/// Read as the client library reads it: the credentials run to the first `@` (the user up to
/// its first `:`, the rest the password); every `password` parameter of the query is left out.
/// `password` (the URL's, as the client library decodes it) is then masked wherever it is
/// still seen, so that no spelling of a URL puts its password in a message.
pub(super) fn redacted(url: &str, password: Option<&str>) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let shown = match rest.split_once('@') {
        Some((creds, after)) => {
            let user = creds.split_once(':').map_or(creds, |(u, _)| u);
            format!("{scheme}://{user}@{after}")
        }
        None => format!("{scheme}://{rest}"),
    };
    let mut shown = match shown.split_once('?') {
        Some((before, query)) => {
            let kept: Vec<&str> = query
                .split('&')
                .filter(|param| {
                    let key = param.split_once('=').map_or(*param, |(k, _)| k);
                    let key = percent_decode(key);
                    key.trim() != "password"
                })
                .collect();
            if kept.is_empty() {
                before.to_string()
            } else {
                format!("{before}?{}", kept.join("&"))
            }
        }
        None => shown,
    };
    if let Some(password) = password
        && !password.is_empty()
    {
        shown = shown.replace(password, "***");
    }
    shown
}

/// `%XX` escapes decoded (as the client library decodes a URL's parameter names).
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(h), Some(l)) = (
                bytes.get(i + 1).copied().and_then(hex),
                bytes.get(i + 2).copied().and_then(hex),
            )
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

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

/// A server the connection goes to, as the password file is searched for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Host {
    /// A host name or address.
    Tcp(String),
    /// A Unix socket's directory.
    Unix(PathBuf),
}

/// What a connection's URL says of where it goes and as whom, for the password file.
#[derive(Debug, Clone, Default)]
pub(super) struct Target {
    /// Whether the URL gave a (non-empty) password of its own.
    pub has_password: bool,
    pub hosts: Vec<Host>,
    pub ports: Vec<u16>,
    pub dbname: Option<String>,
    pub user: Option<String>,
}

/// The password for a connection to `target` from libpq's sources when its URL gave none (the
/// password, or `None` to keep the URL's or to go without), and where it came from.
pub(super) fn find(target: &Target, env: &Environment) -> (Option<Vec<u8>>, Source) {
    if target.has_password {
        return (None, Source::Url);
    }
    if let Some(password) = &env.password {
        return (
            Some(password.as_encoded_bytes().to_vec()),
            Source::Environment,
        );
    }
    let file = match (&env.passfile, &env.home) {
        (Some(file), _) => file.clone(),
        (None, Some(home)) => home.join(".pgpass"),
        (None, None) => return (None, Source::Missing { skipped: None }),
    };
    let lines = match open(&file) {
        Ok(Some(lines)) => lines,
        Ok(None) => return (None, Source::Missing { skipped: None }),
        Err(why) => return (None, Source::Missing { skipped: Some(why) }),
    };
    let user = target
        .user
        .clone()
        .or_else(|| env.os_user.clone())
        .unwrap_or_default();
    let dbname = target.dbname.clone().unwrap_or_else(|| user.clone());
    for (host, port) in &keys(&target.hosts, &target.ports) {
        let wanted = [
            host.as_bytes(),
            port.as_bytes(),
            dbname.as_bytes(),
            user.as_bytes(),
        ];
        if let Some(password) = lines.iter().find_map(|line| matches(line, &wanted)) {
            return (Some(password), Source::File(file));
        }
    }
    (None, Source::Missing { skipped: None })
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

    /// The client's own decoding of each URL is `pg`'s test; here, what is cut and masked.
    #[test]
    fn a_url_is_shown_without_its_password_however_it_is_spelled() {
        for (url, password, shown) in [
            (
                "postgresql://ann:pw@db/ledger?sslmode=disable",
                Some("pw"),
                "postgresql://ann@db/ledger?sslmode=disable",
            ),
            (
                "postgresql://ann@db/ledger?a=1&%70assword=pw&b=2",
                Some("pw"),
                "postgresql://ann@db/ledger?a=1&b=2",
            ),
            (
                "postgresql://ann@db/ledger?password=pw",
                None,
                "postgresql://ann@db/ledger",
            ),
            (
                "postgresql://ann:pw@db/pw?x=pw",
                Some("pw"),
                "postgresql://ann@db/***?x=***",
            ),
            (
                "postgresql://ann:@db/ledger",
                Some(""),
                "postgresql://ann@db/ledger",
            ),
            ("ledger.db", None, "ledger.db"),
        ] {
            assert_eq!(redacted(url, password), shown, "{url}");
        }
        assert_eq!(percent_decode("%70a%73s%zz%4"), "pass%zz%4");
    }

    /// What `postgresql://ann@db/ledger` asks for.
    fn ann_at_db() -> Target {
        Target {
            hosts: vec![Host::Tcp("db".into())],
            dbname: Some("ledger".into()),
            user: Some("ann".into()),
            ..Target::default()
        }
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

    fn password(found: (Option<Vec<u8>>, Source)) -> Option<Vec<u8>> {
        found.0
    }

    #[test]
    fn libpq_password_order_url_then_pgpassword_then_file() {
        let (_dir, mut env) = env_with_file("*:*:*:*:fromfile\n", 0o600);
        let given = Target {
            has_password: true,
            ..ann_at_db()
        };
        assert_eq!(find(&given, &env), (None, Source::Url));

        env.password = Some("fromenv".into());
        assert_eq!(
            find(&ann_at_db(), &env),
            (Some(b"fromenv".to_vec()), Source::Environment)
        );

        env.password = None;
        let (found, source) = find(&ann_at_db(), &env);
        assert!(matches!(source, Source::File(_)), "{source:?}");
        assert_eq!(found.as_deref(), Some(&b"fromfile"[..]));
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
        assert_eq!(
            password(find(&ann_at_db(), &env)).as_deref(),
            Some(&b"pa:ss\\word"[..])
        );
        let elsewhere = Target {
            hosts: vec![Host::Tcp("elsewhere".into())],
            ports: vec![6000],
            dbname: Some("x".into()),
            user: Some("carol".into()),
            ..Target::default()
        };
        assert_eq!(
            password(find(&elsewhere, &env)).as_deref(),
            Some(&b"fallback"[..])
        );
    }

    #[test]
    fn libpq_passfile_defaults_localhost_5432_user_as_database_and_socket_paths() {
        let text = "h\\:x:5432:ann:ann:escapedhost\n\
                    /srv/pg/socket:5432:ledger:ann:socketpw\n\
                    localhost:5432:osuser:osuser:defaults\n";
        let (_dir, env) = env_with_file(text, 0o600);
        // The usual socket directory, no port, no database, no user: localhost, 5432, the
        // operating system's user name twice; no host at all means the same.
        for hosts in [vec![Host::Unix("/var/run/postgresql".into())], vec![]] {
            let target = Target {
                hosts,
                ..Target::default()
            };
            assert_eq!(
                password(find(&target, &env)).as_deref(),
                Some(&b"defaults"[..])
            );
        }
        let socket = |db: &str| Target {
            hosts: vec![Host::Unix("/srv/pg/socket".into())],
            dbname: Some(db.into()),
            user: Some("ann".into()),
            ..Target::default()
        };
        assert_eq!(
            password(find(&socket("ledger"), &env)).as_deref(),
            Some(&b"socketpw"[..])
        );
        assert_eq!(
            find(&socket("other"), &env),
            (None, Source::Missing { skipped: None })
        );
        // An escaped `:` in the host field matches a host name holding one.
        let odd = Target {
            hosts: vec![Host::Tcp("h:x".into())],
            user: Some("ann".into()),
            ..Target::default()
        };
        assert_eq!(
            password(find(&odd, &env)).as_deref(),
            Some(&b"escapedhost"[..])
        );
    }

    #[test]
    fn libpq_passfile_with_several_hosts_takes_the_first_host_with_an_entry() {
        let (_dir, env) = env_with_file("b:5433:ledger:ann:second\n", 0o600);
        let target = Target {
            hosts: vec![Host::Tcp("a".into()), Host::Tcp("b".into())],
            ports: vec![5432, 5433],
            ..ann_at_db()
        };
        assert_eq!(
            password(find(&target, &env)).as_deref(),
            Some(&b"second"[..])
        );
    }

    #[cfg(unix)]
    #[test]
    fn libpq_passfile_with_group_or_world_access_is_not_read() {
        for mode in [0o640, 0o604, 0o610] {
            let (_dir, env) = env_with_file("*:*:*:*:secret\n", mode);
            let (None, Source::Missing { skipped: Some(why) }) = find(&ann_at_db(), &env) else {
                panic!("mode {mode:o}: the file was read");
            };
            assert!(
                why.contains("group or world access") && why.contains("0600"),
                "{why}"
            );
        }
        let dir = tempfile::tempdir().unwrap();
        let env = Environment {
            passfile: Some(dir.path().to_path_buf()),
            ..Environment::default()
        };
        let (None, Source::Missing { skipped: Some(why) }) = find(&ann_at_db(), &env) else {
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
        assert_eq!(
            find(&ann_at_db(), &env),
            (None, Source::Missing { skipped: None })
        );
        let file = dir.path().join(".pgpass");
        std::fs::write(&file, "db:5432:ledger:ann:home\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        assert_eq!(
            find(&ann_at_db(), &env),
            (Some(b"home".to_vec()), Source::File(file))
        );
    }
}
