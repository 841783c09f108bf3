//! The model alias table (models/aliases.v1.toml): `benchledger models` lists it; `ingest
//! --from` takes the provider a file leaves unsaid from it, for a model of every provider in
//! it; a seat whose results name an alias of its model is not a mismatch; seats keep the name
//! their files used.

mod common;

use std::ffi::OsStr;
use std::path::Path;

use common::{Env, copy_dir, crate_path};

/// The OpenHands fixture's model directory, its metadata.json naming `model`.
fn openhands_model(env: &Env, model: &str) -> std::path::PathBuf {
    let dir = env.path().join("oh");
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&crate_path("tests/fixtures/import/openhands"), &dir);
    let meta = dir.join("claude-x/metadata.json");
    let text = std::fs::read_to_string(&meta).unwrap();
    std::fs::write(
        &meta,
        text.replace("\"model\": \"claude-x\"", &format!("\"model\": {model:?}")),
    )
    .unwrap();
    dir
}

fn from_openhands(env: &Env, dir: &Path, wave: &str) -> common::Out {
    env.run([
        OsStr::new("ingest"),
        OsStr::new("--from"),
        OsStr::new("openhands"),
        OsStr::new("--started-at"),
        OsStr::new("2026-02-01T00:00:00Z"),
        OsStr::new("--wave"),
        OsStr::new(wave),
        dir.join("claude-x").as_os_str(),
    ])
}

#[test]
fn models_lists_the_table_with_every_provider_and_its_version() {
    let env = Env::new();
    let out = env.run(["models", "--format", "json"]).ok().json();
    assert_eq!(out["version"], 1);
    assert_eq!(out["file"], "models/aliases.v1.toml");
    let models = out["models"].as_array().unwrap();
    let opus = models
        .iter()
        .find(|m| m["canonical"] == "claude-opus-4-6")
        .unwrap();
    assert_eq!(opus["provider"], "anthropic");
    assert_eq!(opus["family"], "claude");
    let table = env.run(["models"]).ok().stdout;
    assert!(table.contains("claude-sonnet-4-5") && table.contains("aliases.v1.toml"));
}

#[test]
fn from_openhands_on_claude_opus_4_6_no_longer_asks_for_a_provider() {
    // Before the alias table: "the file names model \"claude-opus-4-6\" without its provider;
    // give it with --provider".
    let env = Env::init();
    let dir = openhands_model(&env, "claude-opus-4-6");
    let out = from_openhands(&env, &dir, "opus").ok();
    assert!(
        format!("{}{}", out.stdout, out.stderr).contains("anthropic's claude-opus-4-6"),
        "{out:#?}"
    );
    let show = env.run(["show", "opus", "--format", "json"]).ok().json();
    let seat = &show["seats"][0];
    assert_eq!(seat["provider"], "anthropic");
    assert_eq!(seat["model"], "claude-opus-4-6");
    assert!(
        show["notes"]
            .as_str()
            .unwrap()
            .contains("model alias table v1"),
        "{show}"
    );
}

#[test]
fn a_model_of_each_provider_named_without_it_gets_the_table_s_provider_and_keeps_its_name() {
    for (named, provider) in [
        ("us.anthropic.claude-sonnet-4-5-20250929-v1:0", "anthropic"),
        ("claude-4-sonnet", "anthropic"),
        ("gpt-4o-2024-08-06", "openai"),
        ("gpt-5", "openai"),
        ("gemini-2.5-pro", "google"),
        ("grok-4-0709", "xai"),
        ("deepseek-v3.1", "deepseek"),
        ("qwen3-coder", "alibaba"),
        ("kimi-k2-instruct", "moonshotai"),
    ] {
        let env = Env::init();
        let dir = openhands_model(&env, named);
        from_openhands(&env, &dir, "w").ok();
        let show = env.run(["show", "w", "--format", "json"]).ok().json();
        let seat = &show["seats"][0];
        assert_eq!(seat["provider"], provider, "{named}");
        assert_eq!(
            seat["model"], named,
            "{named}: the seat keeps the file's name"
        );
    }
    // A model the table does not know still asks.
    let env = Env::init();
    let dir = openhands_model(&env, "claude-x");
    let out = from_openhands(&env, &dir, "w").status(2);
    assert!(out.stderr.contains("give it with --provider"), "{out:#?}");
}

#[test]
fn results_naming_an_alias_of_the_seat_s_model_are_not_a_mismatch_but_another_model_still_is() {
    let env = Env::init();
    let dir = openhands_model(&env, "us.anthropic.claude-sonnet-4-5-20250929-v1:0");
    let manifest = dir.join("wave.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replace("model = \"claude-x\"", "model = \"claude-sonnet-4.5\""),
    )
    .unwrap();
    env.ingest(&[&manifest]);
    // claude-sonnet-4 is another model than claude-sonnet-4.5: refused, naming both.
    let env = Env::init();
    let dir = openhands_model(&env, "claude-4-sonnet");
    let manifest = dir.join("wave.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replace("model = \"claude-x\"", "model = \"claude-sonnet-4.5\""),
    )
    .unwrap();
    let out = env
        .run([OsStr::new("ingest"), manifest.as_os_str()])
        .status(2);
    assert!(
        out.stderr.contains("name model \"claude-4-sonnet\""),
        "{out:#?}"
    );
}
