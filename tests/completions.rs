//! `benchledger completions SHELL` and `benchledger man`: generated from the clap definitions,
//! so every command and flag is in them; the bash script is loaded by a real bash.

mod common;

use common::Env;

#[test]
fn completion_scripts_name_every_command() {
    let env = Env::new();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = env.run(["completions", shell]).ok();
        for word in ["export", "site", "completions", "wide", "format"] {
            assert!(out.stdout.contains(word), "{shell} lacks {word}");
        }
    }
    let out = env.run(["completions", "tcsh"]).status(2);
    assert!(out.stderr.contains("tcsh"), "{}", out.stderr);
}

#[test]
fn bash_loads_the_completion_script_and_completes_a_command() {
    let env = Env::new();
    let script = env.run(["completions", "bash"]).ok().stdout;
    let file = env.path().join("benchledger.bash");
    std::fs::write(&file, script).unwrap();
    // Ask the loaded function for the completions of `benchledger ex`.
    let probe = format!(
        "source {}; COMP_WORDS=(benchledger ex); COMP_CWORD=1; COMP_LINE='benchledger ex'; \
         COMP_POINT=${{#COMP_LINE}}; _benchledger benchledger ex benchledger; \
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        file.display()
    );
    let out = std::process::Command::new("bash")
        .args(["-c", &probe])
        .output()
        .expect("bash runs");
    let replies = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(replies.trim(), "export", "{replies}");
}

#[test]
fn the_man_page_documents_every_command_and_man_out_writes_one_per_command() {
    let env = Env::new();
    let page = env.run(["man"]).ok().stdout;
    assert!(
        page.starts_with(".ie") || page.contains(".TH benchledger 1"),
        "{page}"
    );
    for word in ["export", "site", "demo", "completions", "NO_COLOR"] {
        assert!(page.contains(word), "the man page lacks {word}");
    }
    let dir = env.path().join("man1");
    std::fs::create_dir(&dir).unwrap();
    let out = env.run(["man", "--out", dir.to_str().unwrap()]).ok();
    for name in [
        "benchledger.1",
        "benchledger-show.1",
        "benchledger-rubric-check.1",
    ] {
        let text =
            std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(text.contains(".TH"), "{name}");
        assert!(out.stdout.contains(name), "{}", out.stdout);
    }
    let missing = env.path().join("nope");
    let out = env
        .run(["man", "--out", missing.to_str().unwrap()])
        .status(2);
    assert!(out.stderr.contains("not a directory"), "{}", out.stderr);
}
