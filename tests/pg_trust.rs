//! A PostgreSQL ledger's credentials and roles, against a real server: the URL's password is
//! in no message, whatever the command and however it fails; libpq's password sources
//! (`PGPASSWORD`, `PGPASSFILE`, `~/.pgpass`) are honoured, with libpq's matching and
//! permission rules, so that a password need never be typed on a command line; and a role that
//! may only read verifies the whole ledger.
//!
//! These need a server (`scripts/pg-test run cargo test --test pg_trust`); the password
//! tests need its members of `benchledger_password_users` to authenticate with a password, as
//! `scripts/pg-test` sets up. Without a server they are skipped, saying so, except under CI.
#![cfg(feature = "postgres")]

mod common;

use std::path::Path;
use std::process::Output;

use common::Env;

/// Whether a test server is given; under CI, its absence fails the test.
fn server() -> bool {
    if common::pg::server().is_some() {
        return true;
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "BENCHLEDGER_TEST_PG is not set: under CI the PostgreSQL tests must run"
    );
    eprintln!("skipped: no PostgreSQL server (BENCHLEDGER_TEST_PG)");
    false
}

/// `benchledger --db DB ARGS` run by the binary with libpq's password sources taken away
/// (and `HOME` pointed at `home`), then `envs` set.
fn run(db: &str, args: &[&str], home: &Path, envs: &[(&str, &str)]) -> Output {
    let mut cmd = common::command();
    cmd.arg("--db")
        .arg(db)
        .args(args)
        .current_dir(home)
        .env_remove("PGPASSWORD")
        .env_remove("PGPASSFILE")
        .env("HOME", home);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd.output().expect("running benchledger")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The test database's URL split where a password goes: `postgresql://USER` and
/// `@HOST/DB`.
fn url_parts(url: &str) -> (String, String) {
    let (user, rest) = url.split_once('@').expect("the test URL names its user");
    (user.to_string(), format!("@{rest}"))
}

/// Issue 23, #4: a password in the URL (as credentials, as `?password=`, percent-encoded, with
/// TLS asked of a server without it, for a database that is not there, on a server that
/// cannot be reached, in a URL that does not parse) is never printed back, by any command.
#[test]
fn pg_url_password_is_in_no_message() {
    if !server() {
        return;
    }
    let env = Env::postgres();
    let url = env.db.to_string_lossy().into_owned();
    let (user, host_db) = url_parts(&url);
    let (host, _) = host_db.rsplit_once('/').unwrap();
    let urls = [
        format!("{user}:Pw1zzUser{host_db}"),
        format!("{user}{host_db}?password=Pw2zzQuery"),
        format!("{user}{host_db}?application_name=x&%70assword=Pw3zzEncoded"),
        format!("{user}:Pw4zzTls{host_db}?sslmode=require"),
        format!("{user}{host_db}?sslmode=require&password=Pw5zzTlsQuery"),
        format!("{user}:Pw6zzNoDb{host}/no_such_database_here"),
        format!("{user}:Pw7zzNoServer@%2Fno%2Fsuch%2Fdir/x?password=Pw7zzNoServer"),
        format!("{user}:Pw8zzBadPort@localhost:notaport/x"),
        format!("{user}:Pw9zz/Slash{host_db}"),
    ];
    let manifest = common::crate_path("examples/rca-wave-1/wave.toml");
    let rubric = common::crate_path("rubrics/session-efficiency.v2.toml");
    let manifest = manifest.to_str().unwrap();
    let rubric = rubric.to_str().unwrap();
    let commands: [&[&str]; 8] = [
        &["init"],
        &["ingest", manifest],
        &["waves"],
        &["show", "rca-wave-1"],
        &["show", "no-such-wave"],
        &["publish", "--wave", "rca-wave-1", "--rubric", rubric],
        &["verify", "--all", "--ledger"],
        &["publications"],
    ];
    let mut succeeded = 0;
    for (i, url) in urls.iter().enumerate() {
        let secret = format!("Pw{}zz", i + 1);
        for args in commands {
            let out = run(url, args, env.path(), &[]);
            let all = text(&out);
            assert!(
                !all.contains(&secret),
                "{args:?} on a URL with a password printed it:\n{all}"
            );
            succeeded += usize::from(out.status.success());
        }
        let copy = run(url, &["copy", "--from", url, "--to", url], env.path(), &[]);
        assert!(!text(&copy).contains(&secret), "copy: {}", text(&copy));
    }
    // The URLs the server accepts (trust ignores the password) ran every command: the
    // messages above were real answers, not all one refusal.
    assert!(succeeded >= 4 * 4, "only {succeeded} commands succeeded");
}

/// Issue 23, #4: the TLS refusal and the missing database name the URL as given, password
/// taken out.
#[test]
fn pg_url_password_tls_and_connection_errors_name_the_url_without_it() {
    if !server() {
        return;
    }
    let env = Env::postgres();
    let url = env.db.to_string_lossy().into_owned();
    let (user, host_db) = url_parts(&url);
    let tls = format!("{user}:Secret1{host_db}?sslmode=require&password=Secret2");
    let out = run(&tls, &["waves"], env.path(), &[]);
    let all = text(&out);
    assert_eq!(out.status.code(), Some(3), "{all}");
    assert!(all.contains("TLS"), "{all}");
    assert!(
        all.contains(&format!("{user}{host_db}?sslmode=require")),
        "{all}"
    );
    assert!(!all.contains("Secret"), "{all}");
}

/// A role of its own that must authenticate with a password (a member of
/// `benchledger_password_users`), owning the test database.
struct PasswordRole {
    name: String,
    password: String,
}

impl PasswordRole {
    fn create(env: &Env) -> PasswordRole {
        let db = &env.pg.as_ref().unwrap().name;
        let name = format!("{db}_pw");
        let password = format!("pw-{}-x:y\\z", std::process::id());
        let mut admin = common::pg::admin();
        admin
            .batch_execute(
                "DO $$ BEGIN CREATE ROLE benchledger_password_users NOLOGIN;
                 EXCEPTION WHEN duplicate_object THEN NULL; END $$",
            )
            .unwrap();
        admin
            .batch_execute(&format!(
                "DROP ROLE IF EXISTS {name};
                 CREATE ROLE {name} LOGIN PASSWORD '{}' IN ROLE benchledger_password_users;
                 ALTER DATABASE {db} OWNER TO {name};",
                password.replace('\'', "''")
            ))
            .unwrap();
        PasswordRole { name, password }
    }

    /// The line of a password file for this role, escaped as libpq reads it.
    fn pgpass_line(&self, host: &str, db: &str) -> String {
        let esc = |s: &str| s.replace('\\', "\\\\").replace(':', "\\:");
        format!(
            "{}:*:{}:{}:{}\n",
            esc(host),
            esc(db),
            esc(&self.name),
            esc(&self.password)
        )
    }
}

fn write_mode(path: &Path, text: &str, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// Issue 23, #4: `PGPASSWORD`, `PGPASSFILE` and `~/.pgpass` give the password, in libpq's
/// order and with its rules (first matching line, `*` and escapes, no file its group or others
/// may read); without any, the error says where to put one. The password is in no message.
#[test]
fn pg_password_from_pgpassword_pgpassfile_and_home_pgpass() {
    if !server() {
        return;
    }
    let env = Env::postgres();
    let role = PasswordRole::create(&env);
    let db_name = env.pg.as_ref().unwrap().name.clone();
    let url = env.db.to_string_lossy().into_owned();
    let (_, host_db) = url_parts(&url);
    let role_url = format!("postgresql://{}{host_db}", role.name);
    let socket_dir = common::pg::server()
        .and_then(|s| {
            let host = s.split_once('@')?.1.split('/').next()?.to_string();
            Some(host.replace("%2F", "/"))
        })
        .unwrap();
    let home = tempfile::tempdir().unwrap();
    let check = |out: &Output, status: i32, words: &[&str]| {
        let all = text(out);
        assert_eq!(out.status.code(), Some(status), "{all}");
        for w in words {
            assert!(all.contains(w), "expected {w:?} in:\n{all}");
        }
        assert!(
            !all.contains(&role.password),
            "the password printed:\n{all}"
        );
    };

    // No source: refused, saying where a password goes.
    let out = run(&role_url, &["init"], home.path(), &[]);
    check(&out, 2, &["asks for a password", "PGPASSWORD", "~/.pgpass"]);

    // PGPASSWORD.
    let out = run(
        &role_url,
        &["init"],
        home.path(),
        &[("PGPASSWORD", &role.password)],
    );
    check(&out, 0, &["created ledger"]);
    let out = run(
        &role_url,
        &["waves"],
        home.path(),
        &[("PGPASSWORD", "not-the-password")],
    );
    check(&out, 2, &["password authentication failed", "PGPASSWORD"]);

    // PGPASSFILE: the first matching line wins; lines for another database or user do not.
    let file = home.path().join("passfile");
    let text_of = |lines: &[String]| lines.concat();
    let lines = [
        "# benchledger's test\n".to_string(),
        role.pgpass_line(&socket_dir, "other_db"),
        format!("*:*:{db_name}:someone_else:wrong\n"),
        role.pgpass_line(&socket_dir, &db_name),
        format!("*:*:*:{}:wrong-too\n", role.name),
    ];
    write_mode(&file, &text_of(&lines), 0o600);
    let passfile = file.to_str().unwrap();
    let out = run(
        &role_url,
        &["waves"],
        home.path(),
        &[("PGPASSFILE", passfile)],
    );
    check(&out, 0, &[]);
    // ... but not when the group or others may read it.
    write_mode(&file, &text_of(&lines), 0o644);
    let out = run(
        &role_url,
        &["waves"],
        home.path(),
        &[("PGPASSFILE", passfile)],
    );
    check(&out, 2, &["group or world access", "0600", passfile]);
    // A matching line with a wrong password: the error says where it came from.
    write_mode(&file, &format!("*:*:*:{}:wrong\n", role.name), 0o600);
    let out = run(
        &role_url,
        &["waves"],
        home.path(),
        &[("PGPASSFILE", passfile)],
    );
    check(&out, 2, &["password authentication failed", passfile]);
    // PGPASSWORD comes before the file, the URL's password before both.
    let out = run(
        &role_url,
        &["waves"],
        home.path(),
        &[("PGPASSFILE", passfile), ("PGPASSWORD", &role.password)],
    );
    check(&out, 0, &[]);

    // ~/.pgpass, with a wildcard host.
    write_mode(
        &home.path().join(".pgpass"),
        &role.pgpass_line("*", &db_name),
        0o600,
    );
    let out = run(&role_url, &["waves"], home.path(), &[]);
    check(&out, 0, &[]);
    let out = run(
        &role_url,
        &["waves"],
        home.path(),
        &[("PGPASSWORD", "not-the-password")],
    );
    check(&out, 2, &["password authentication failed"]);

    drop(env);
    common::pg::admin()
        .batch_execute(&format!("DROP ROLE IF EXISTS {}", role.name))
        .unwrap();
}

/// Issue 23, #9: a role that may only read the ledger runs `verify --all --ledger` (the
/// expected schema is made in its temporary schema, not in a schema it cannot create), and the
/// check is real: a trigger disabled behind benchledger's back is named to it too.
#[test]
fn pg_read_only_role_verifies_the_ledger() {
    if !server() {
        return;
    }
    let env = Env::postgres();
    env.run(["init"]).ok();
    env.ingest(&[&common::crate_path("examples/checkout-rematch/wave.toml")]);
    let rubric = common::crate_path("rubrics/session-efficiency.v2.toml");
    env.run(["rubric".as_ref(), "add".as_ref(), rubric.as_os_str()])
        .ok();
    env.run([
        "publish",
        "--wave",
        "checkout-rematch",
        "--rubric",
        "session-efficiency@2",
    ])
    .ok();
    let name = env.pg.as_ref().unwrap().name.clone();
    let role = format!("{name}_ro");
    let mut admin = common::pg::admin();
    admin
        .batch_execute(&format!(
            "DROP ROLE IF EXISTS {role}; CREATE ROLE {role} LOGIN;
             GRANT CONNECT ON DATABASE {name} TO {role};"
        ))
        .unwrap();
    env.tamper(&format!(
        "GRANT USAGE ON SCHEMA public TO {role};
         GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role}"
    ));
    let url = env.db.to_string_lossy().into_owned();
    let (user, host_db) = url_parts(&url);
    let reader = format!("postgresql://{role}{host_db}");
    assert_ne!(user, format!("postgresql://{role}"));
    let before = env.ledger_bytes();
    let out = run(&reader, &["verify", "--all", "--ledger"], env.path(), &[]);
    let all = text(&out);
    assert_eq!(out.status.code(), Some(0), "{all}");
    assert!(
        all.contains("  schema: OK — tables, CHECKs, indexes and triggers match schema.sql"),
        "{all}"
    );
    assert!(all.contains("1 of 1 publication reproduces"), "{all}");
    assert_eq!(env.ledger_bytes(), before, "verify changed the ledger");

    env.tamper("ALTER TABLE attempt DISABLE TRIGGER attempt_no_update");
    let out = run(&reader, &["verify", "--ledger"], env.path(), &[]);
    let all = text(&out);
    assert_eq!(out.status.code(), Some(1), "{all}");
    assert!(
        all.contains("trigger `attempt_no_update` is disabled"),
        "{all}"
    );
    drop(env);
    admin
        .batch_execute(&format!("DROP ROLE IF EXISTS {role}"))
        .unwrap();
}
