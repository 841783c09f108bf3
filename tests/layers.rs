//! The layers of ARCHITECTURE.md, held by a test: a module may import only the modules of the
//! layers below its own, no files import each other in a circle (between folders or inside one),
//! and the library depends on no terminal or command-line crate.
//!
//! Imports are read from the source as written (`crate::…`, `super::…`, grouped `{…}` lists, in
//! `use` lines and in paths alike), outside comments, strings and `#[cfg(test)]` items: a test
//! may reach anywhere, the code it tests may not. A path names the module it goes through: a
//! re-export counts as an import of the module that re-exports it.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use common::crate_path;

/// benchledger-core's top-level modules, lowest layer first. A module imports only modules of
/// lower layers; a new module goes into a layer here, which is a decision written down.
const CORE_LAYERS: &[&[&str]] = &[
    // Plain data, errors, digests, text as people are shown it: what everything shares.
    &["model", "error", "digest", "text"],
    // How bad input is reported; the absolute figures; the hashed formats; the model alias
    // table; a caller's request that a long write stop.
    &["diagnostics", "figures", "formats", "models", "cancel"],
    // Numbers for people; price tables; the chain's records; signed statements of
    // publications; the files a caller names, read with a cap.
    &["number", "prices", "chain", "attest", "files"],
    // Foreign results files, one module per format: its importer and its claims extractor;
    // the files of a directory not trusted (a bundle from someone else), read with a cap.
    &["import", "untrusted"],
    // The rubric language and its interpreter.
    &["rubric"],
    // Statistics over scores; the ledger, the only module that speaks SQL.
    &["stats", "ledger"],
    // Claims checked against waves; wave manifests read into the model; registered rubrics and
    // price tables found by name.
    &["claims", "ingest", "registry"],
    // Every listing built as data, and its Markdown, CSV and JSON.
    &["report"],
    // What a publication freezes; a submission reviewed; waves rescored and their scores stored
    // (which waves: `report::withdrawn`; which rubrics: `registry`), or one streamed from the
    // ledger; exports of the ledger (a scores export resolves its rubric in `registry` and
    // builds `report`'s listings).
    &["publication", "review", "rescore", "export"],
    // Publications recomputed, the chain and the ledger checked, from a ledger or a bundle; the
    // static site, which shows each publication verified; each reading command's document
    // (`documents`: a diff visits the waves a rescore would).
    &["verify", "site", "documents"],
];

/// The binary's modules, lowest first.
const CLI_LAYERS: &[&[&str]] = &[&["advice", "cli"], &["terminal"], &["commands"]];

/// Crates of a terminal or a command line, which the library must not depend on.
const FACE_CRATES: &[&str] = &[
    "clap",
    "clap_complete",
    "clap_mangen",
    "comfy-table",
    "indicatif",
    "terminal_size",
];

/// The loops between a folder's `mod.rs` and its children that the code held when the test
/// first saw them (issue 30 item 4): shared items defined in a `mod.rs` that its children
/// import while it calls them. ARCHITECTURE.md forbids them; they are listed so that no new
/// one appears and none grows, and each fixed one must leave this list (the test fails on a
/// listed loop it no longer finds). Each circle as the checker names it.
const KNOWN_LOOPS: &[&str] = &[
    "import circle: export -> export::parquet",
    "import circle: formats -> formats::read",
    "import circle: import -> import::claims -> import::eee -> import::hal -> import::harbor -> import::helm -> \
     import::inspect -> import::json -> import::lm_eval -> import::native -> import::object -> \
     import::openhands -> import::results -> import::swe_bench -> import::tau2_bench -> \
     import::tau_bench -> import::terminal_bench -> import::tokens",
    "import circle: import::inspect -> import::inspect::archive -> import::inspect::json_log -> \
     import::inspect::wave",
    "import circle: import::results -> import::results::csv_file -> import::results::jsonl",
    "import circle: ledger -> ledger::access -> ledger::chain -> ledger::image -> ledger::log -> \
     ledger::pg -> ledger::prices -> ledger::publications -> ledger::registered -> \
     ledger::reviews -> ledger::rubrics -> ledger::scores -> ledger::sql -> ledger::stage -> ledger::tallies -> \
     ledger::waves",
    "import circle: ledger::pg -> ledger::pg::conn",
    "import circle: model -> model::rows",
    "import circle: report::compare -> report::compare::conditions -> report::compare::json -> \
     report::compare::notes -> report::compare::shift -> report::compare::verdict",
    "import circle: review -> review::render -> review::scans",
    "import circle: site -> site::boards -> site::costs -> site::front -> site::html -> \
     site::manual -> site::pages -> site::samples",
    "import circle: commands -> commands::audit -> commands::bundle -> commands::claims -> \
     commands::compare -> commands::completions -> commands::copy -> commands::demo -> \
     commands::export -> commands::history -> commands::ingest -> commands::keys -> \
     commands::models -> commands::plan -> commands::prices -> commands::problems -> \
     commands::publish -> commands::review -> commands::rubric -> commands::rules -> commands::score -> \
     commands::site -> commands::trials -> commands::verify -> commands::waves -> \
     commands::withdraw",
];

/// The problems less the known loops of [`KNOWN_LOOPS`] found in `src`; a known loop of a
/// module of `src` no longer found is a problem too (take it off the list).
fn less_known_loops(src: &Path, problems: Vec<String>) -> Vec<String> {
    let modules: BTreeSet<String> = rust_files(src)
        .iter()
        .map(|f| module_of(src, f).join("::"))
        .collect();
    let mut out: Vec<String> = problems
        .iter()
        .filter(|p| !KNOWN_LOOPS.contains(&p.as_str()))
        .cloned()
        .collect();
    for known in KNOWN_LOOPS {
        let first = known
            .trim_start_matches("import circle: ")
            .split(" -> ")
            .next()
            .unwrap_or_default();
        if modules.contains(first) && !problems.iter().any(|p| p == known) {
            out.push(format!("no longer found, take it off KNOWN_LOOPS: {known}"));
        }
    }
    out
}

/// Crates the library must not name: the command line's own (it depends on the library, so
/// the library naming it would be an import from above every layer).
const ABOVE_CORE: &[&str] = &["benchledger"];

#[test]
fn core_modules_import_only_lower_layers_and_no_circles() {
    let src = crate_path("crates/core/src");
    let problems = less_known_loops(&src, check_crate(&src, CORE_LAYERS, ABOVE_CORE));
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn cli_modules_import_only_lower_layers_and_no_circles() {
    let src = crate_path("src");
    let problems = less_known_loops(&src, check_crate(&src, CLI_LAYERS, &[]));
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

/// Issue 30 item 4: the checker could be walked around. Each way is planted in a copy of the
/// library's real source and must be caught: a root re-export used from a lower layer
/// (`use crate::Ledger;` inside `model/`), a loop between a folder's `mod.rs` and one of its
/// children, and the library importing the command line's `commands`.
#[test]
fn the_layering_test_cannot_be_walked_around() {
    let plant = |rel: &str, append: &str| {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("src");
        common::copy_dir(&crate_path("crates/core/src"), &src);
        let file = src.join(rel);
        let mut text = std::fs::read_to_string(&file).unwrap_or_default();
        text.push_str(append);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, text).unwrap();
        let problems = less_known_loops(&src, check_crate(&src, CORE_LAYERS, ABOVE_CORE));
        (dir, problems)
    };
    // The copy as it is passes.
    let (_dir, clean) = plant("model/mod.rs", "");
    assert!(clean.is_empty(), "{clean:#?}");
    // A root re-export of `ledger` (a higher layer), from `model`.
    let (_dir, problems) = plant("model/mod.rs", "\nuse crate::Ledger;\n");
    assert!(
        problems
            .iter()
            .any(|p| p.contains("model/mod.rs") && p.contains("crate::ledger")),
        "{problems:#?}"
    );
    // The same, grouped and through `super` from a child.
    let (_dir, problems) = plant("stats/plan.rs", "\nuse super::super::{Ledger as L};\n");
    assert!(
        problems
            .iter()
            .any(|p| p.contains("stats/plan.rs") && p.contains("crate::ledger")),
        "{problems:#?}"
    );
    // An item of the root itself, from below it.
    let (_dir, problems) = plant("model/mod.rs", "\nfn f() { crate::made_up_root_fn(); }\n");
    assert!(
        problems
            .iter()
            .any(|p| p.contains("model/mod.rs") && p.contains("crate root")),
        "{problems:#?}"
    );
    // A child of `rubric/` importing its `mod.rs`, which imports the child.
    let (_dir, problems) = plant(
        "rubric/loop_child.rs",
        "pub fn g() {}\nfn h() { super::parse_all(); }\n",
    );
    let (_dir2, problems2) = {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("src");
        common::copy_dir(&crate_path("crates/core/src"), &src);
        let mod_rs = src.join("rubric/mod.rs");
        let text = std::fs::read_to_string(&mod_rs).unwrap()
            + "\nmod loop_child;\npub fn parse_all() { loop_child::g(); }\n";
        std::fs::write(&mod_rs, text).unwrap();
        std::fs::write(
            src.join("rubric/loop_child.rs"),
            "pub fn g() {}\nfn h() { super::parse_all(); }\n",
        )
        .unwrap();
        let problems = less_known_loops(&src, check_crate(&src, CORE_LAYERS, ABOVE_CORE));
        (dir, problems)
    };
    assert!(
        problems.is_empty(),
        "a child importing mod.rs alone is no loop: {problems:#?}"
    );
    assert!(
        problems2
            .iter()
            .any(|p| p.contains("circle") && p.contains("rubric -> rubric::loop_child")),
        "{problems2:#?}"
    );
    // The library importing the command line.
    let (_dir, problems) = plant("report/mod.rs", "\nuse benchledger::commands::Ctx;\n");
    assert!(
        problems
            .iter()
            .any(|p| p.contains("report/mod.rs") && p.contains("benchledger::commands")),
        "{problems:#?}"
    );
}

#[test]
fn the_library_depends_on_no_terminal_or_command_line_crate() {
    let manifest = std::fs::read_to_string(crate_path("crates/core/Cargo.toml")).unwrap();
    let toml: toml::Table = manifest.parse().unwrap();
    let mut deps: Vec<&String> = Vec::new();
    for (key, value) in &toml {
        if key.ends_with("dependencies") && key != "dev-dependencies" {
            deps.extend(value.as_table().unwrap().keys());
        }
        if key == "target" {
            for t in value.as_table().unwrap().values() {
                for (k, v) in t.as_table().unwrap() {
                    if k == "dependencies" {
                        deps.extend(v.as_table().unwrap().keys());
                    }
                }
            }
        }
    }
    assert!(
        deps.iter().any(|d| *d == "rusqlite"),
        "read the library's dependencies: {deps:?}"
    );
    let faces: Vec<&&String> = deps
        .iter()
        .filter(|d| FACE_CRATES.contains(&d.as_str()))
        .collect();
    assert!(faces.is_empty(), "benchledger-core depends on {faces:?}");
}

/// The checker itself must be able to fail: a made-up tree with an upward import and a circle
/// inside a folder is refused, naming both, and what comments, strings and tests hold is not
/// read as an import.
#[test]
fn the_checker_names_an_upward_import_and_a_circle() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    let write = |rel: &str, text: &str| {
        let p = src.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write("lib.rs", "pub mod low;\npub mod high;\n");
    write(
        "low/mod.rs",
        "mod a;\nmod b;\nuse crate::high::Thing; // up\n",
    );
    write(
        "low/a.rs",
        "use super::b::B;\n/* crate::high in a comment */\nconst S: &str = \"crate::high\";\n",
    );
    write("low/b.rs", "use super::{a::A, self as me};\n");
    write(
        "high.rs",
        // A test may import anything: its import of `low` would close a circle with low's
        // upward import, were it read.
        "pub struct Thing;\n#[cfg(test)]\nmod tests {\n    use crate::low::a;\n}\n",
    );
    let problems = check_crate(src, &[&["low"], &["high"]], &[]);
    assert_eq!(problems.len(), 2, "{problems:#?}");
    assert!(
        problems[0].contains("low/mod.rs") && problems[0].contains("crate::high"),
        "{problems:#?}"
    );
    assert!(
        problems[1].contains("circle")
            && problems[1].contains("low::a")
            && problems[1].contains("low::b"),
        "{problems:#?}"
    );
}

/// What is wrong with a crate's imports, one line each. `above`: crates the crate must not
/// name at all.
fn check_crate(src: &Path, layers: &[&[&str]], above: &[&str]) -> Vec<String> {
    let files = rust_files(src);
    let modules: BTreeMap<Vec<String>, PathBuf> = files
        .iter()
        .map(|f| (module_of(src, f), f.clone()))
        .collect();
    let layer_of = |m: &str| layers.iter().position(|l| l.contains(&m));
    let mut problems = Vec::new();
    // The crate root's re-exports (`pub use model::{Wave, …}`): the name at the root -> the
    // module it comes from. A path through the root is an import of that module.
    let root_code = modules
        .get(&Vec::new())
        .map(|f| without_cfg_test(&strip(&std::fs::read_to_string(f).unwrap())))
        .unwrap_or_default();
    let mut reexports: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for p in paths(&root_code, &[], &modules) {
        if let (Some(name), Some(m)) = (p.last(), longest_module(&p, &modules))
            && !m.is_empty()
        {
            reexports.insert(name.clone(), m);
        }
    }
    // Imports between modules, each resolved to the longest module path it goes through.
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (module, file) in &modules {
        let text = std::fs::read_to_string(file).unwrap();
        let code = without_cfg_test(&strip(&text));
        let rel = file.strip_prefix(src).unwrap().display().to_string();
        for name in above {
            for p in crate_paths(&code, name) {
                problems.push(format!(
                    "{rel}: imports {name}::{}, a crate above every layer of this one",
                    p.join("::")
                ));
            }
        }
        let mut targets: BTreeSet<Vec<String>> = BTreeSet::new();
        for p in paths(&code, module, &modules) {
            let Some(mut t) = longest_module(&p, &modules) else {
                continue;
            };
            if t.is_empty() && !module.is_empty() {
                // Through the crate root: the module a re-export there comes from, else the
                // root itself, which sits above every layer.
                match p.first().and_then(|name| reexports.get(name)) {
                    Some(m) => t = m.clone(),
                    None => {
                        problems.push(format!(
                            "{rel}: imports crate::{} from the crate root, above every layer",
                            p.join("::")
                        ));
                        continue;
                    }
                }
            }
            if t != *module {
                targets.insert(t);
            }
        }
        if let Some(top) = module.first() {
            match layer_of(top) {
                None => problems.push(format!(
                    "{rel}: module `{top}` is in no layer: add it to the layers"
                )),
                Some(mine) => {
                    for t in &targets {
                        let Some(theirs) = t.first() else { continue };
                        if theirs == top {
                            continue;
                        }
                        match layer_of(theirs) {
                            Some(l) if l < mine => {}
                            _ => problems.push(format!(
                                "{rel}: imports crate::{} from a layer not below `{top}`'s",
                                t.join("::")
                            )),
                        }
                    }
                }
            }
        }
        edges.insert(module.clone(), targets);
    }
    // Circles among the children of each folder (the crate root's included).
    let folders: BTreeSet<Vec<String>> = modules
        .keys()
        .filter(|m| !m.is_empty())
        .map(|m| m[..m.len() - 1].to_vec())
        .collect();
    for folder in folders {
        let d = folder.len();
        // The folder's own module (its mod.rs) is one of the nodes: a loop between it and a
        // child is a circle like any other.
        let child = |m: &Vec<String>| {
            if *m == folder {
                Some(folder.clone())
            } else {
                (m.len() > d && m[..d] == folder[..]).then(|| m[..=d].to_vec())
            }
        };
        let mut graph: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
        for (m, ts) in &edges {
            let Some(a) = child(m) else { continue };
            for t in ts {
                if let Some(b) = child(t)
                    && a != b
                {
                    graph.entry(a.clone()).or_default().insert(b);
                }
            }
        }
        for circle in circles(&graph) {
            let names: Vec<String> = circle.iter().map(|m| m.join("::")).collect();
            problems.push(format!("import circle: {}", names.join(" -> ")));
        }
    }
    problems
}

/// The longest prefix of `p` that is a module (the root, an empty path, at the shortest).
fn longest_module(p: &[String], modules: &BTreeMap<Vec<String>, PathBuf>) -> Option<Vec<String>> {
    (0..=p.len())
        .rev()
        .map(|k| p[..k].to_vec())
        .find(|k| modules.contains_key(k))
}

/// Every path `name::…` in the code, where `name` starts a path (an extern crate's name).
fn crate_paths(code: &str, name: &str) -> Vec<Vec<String>> {
    let compact = compact(code);
    let b = compact.as_bytes();
    let start = format!("{name}::");
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(k) = compact[from..].find(&start) {
        let at = from + k;
        from = at + start.len();
        if at > 0 && (is_ident(b[at - 1]) || b[at - 1] == b':') {
            continue;
        }
        expand(&compact, from, &[], &mut out);
    }
    out
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            out.extend(rust_files(&p));
        } else if p.extension().is_some_and(|e| e == "rs") && !p.ends_with("main.rs") {
            out.push(p);
        }
    }
    out
}

/// `a/b.rs` and `a/b/mod.rs` are module a::b; `lib.rs` is the crate root (an empty path).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|l| l == "mod" || l == "lib") {
        parts.pop();
    }
    parts
}

/// The source with comments, strings and character literals blanked (lifetimes kept).
fn strip(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &src[i..];
        if rest.starts_with("//") {
            let end = rest.find('\n').map_or(b.len(), |e| i + e);
            i = end;
        } else if rest.starts_with("/*") {
            let mut depth = 0;
            while i < b.len() {
                if src[i..].starts_with("/*") {
                    depth += 1;
                    i += 2;
                } else if src[i..].starts_with("*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if let Some(hashes) = raw_string_start(rest, i == 0 || !is_ident(b[i - 1])) {
            let open = rest.find('"').unwrap();
            let close = format!("\"{}", "#".repeat(hashes));
            let end = rest[open + 1..]
                .find(&close)
                .map_or(b.len(), |e| i + open + 1 + e + close.len());
            i = end;
            out.push_str("\"\"");
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && char_literal_len(rest).is_some() {
            i += char_literal_len(rest).unwrap();
            out.push_str("' '");
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// `r"`, `r#"`, `br"`…: the number of `#`.
fn raw_string_start(s: &str, at_word_start: bool) -> Option<usize> {
    if !at_word_start {
        return None;
    }
    let s = s.strip_prefix('b').unwrap_or(s);
    let s = s.strip_prefix('r')?;
    let hashes = s.len() - s.trim_start_matches('#').len();
    s[hashes..].starts_with('"').then_some(hashes)
}

/// The length of a character literal at the start of `s` (`'a'`, `'\n'`, `'\u{1F600}'`), or
/// none for a lifetime.
fn char_literal_len(s: &str) -> Option<usize> {
    let body = &s[1..];
    if let Some(esc) = body.strip_prefix('\\') {
        let close = esc.find('\'')?;
        return Some(1 + 1 + close + 1);
    }
    let c = body.chars().next()?;
    body[c.len_utf8()..]
        .starts_with('\'')
        .then(|| 1 + c.len_utf8() + 1)
}

/// The code without the items behind `#[cfg(test)]`.
fn without_cfg_test(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let item = &rest[at + "#[cfg(test)]".len()..];
        // The item ends at a `;` before any brace, or at the brace that closes its first one.
        let mut depth = 0usize;
        let mut end = item.len();
        for (k, c) in item.char_indices() {
            match c {
                ';' if depth == 0 => {
                    end = k + 1;
                    break;
                }
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

/// The code with whitespace next to `::`, `{`, `}` and `,` dropped: `a :: b` and `a::b` alike.
fn compact(code: &str) -> String {
    {
        let mut s = String::with_capacity(code.len());
        let mut chars = code.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_whitespace() {
                // Drop whitespace next to `::`, `{`, `}` and `,`.
                let last = s.chars().last();
                while chars.peek().is_some_and(|n| n.is_whitespace()) {
                    chars.next();
                }
                let next = chars.peek().copied();
                let joins = |x: Option<char>| matches!(x, Some(':' | '{' | '}' | ','));
                if !joins(last) && !joins(next) {
                    s.push(' ');
                }
            } else {
                s.push(c);
            }
        }
        s
    }
}

/// Every `crate::…`, `super::…` and `self::…` path in the code, absolute from the crate root,
/// grouped lists expanded; and every path that starts with the name of a child of `module`
/// (`use child::Item;`, `child::f()`), which names that child as `self::child` would.
fn paths(
    code: &str,
    module: &[String],
    modules: &BTreeMap<Vec<String>, PathBuf>,
) -> Vec<Vec<String>> {
    let compact = compact(code);
    let b = compact.as_bytes();
    let mut out = Vec::new();
    let children: Vec<String> = modules
        .keys()
        .filter(|m| m.len() == module.len() + 1 && m[..module.len()] == *module)
        .map(|m| format!("{}::", m[module.len()]))
        .collect();
    for child in &children {
        let mut from = 0;
        while let Some(k) = compact[from..].find(child.as_str()) {
            let at = from + k;
            from = at + child.len();
            if at > 0 && (is_ident(b[at - 1]) || b[at - 1] == b':') {
                continue;
            }
            expand(&compact, at, module, &mut out);
        }
    }
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(k) = compact[from..].find(start) {
            let at = from + k;
            from = at + start.len();
            if at > 0 && (is_ident(b[at - 1]) || b[at - 1] == b':') {
                continue;
            }
            // Where the path starts, as a module path: `crate` the root, `self` this module,
            // each `super` one up.
            let mut base: Vec<String> = if start == "crate::" {
                Vec::new()
            } else {
                module.to_vec()
            };
            let mut i = at;
            if start != "super::" {
                i += start.len();
            }
            while compact[i..].starts_with("super::") {
                base.pop();
                i += "super::".len();
            }
            expand(&compact, i, &base, &mut out);
        }
    }
    out
}

/// Reads the path (or `{…}` group) at `i`, appending each full path to `out`.
fn expand(s: &str, mut i: usize, base: &[String], out: &mut Vec<Vec<String>>) -> usize {
    let b = s.as_bytes();
    let mut path = base.to_vec();
    loop {
        if i < b.len() && b[i] == b'{' {
            i += 1;
            loop {
                i = expand(s, i, &path, out);
                if i < b.len() && b[i] == b',' {
                    i += 1;
                    if i < b.len() && b[i] == b'}' {
                        i += 1;
                        return i;
                    }
                    continue;
                }
                if i < b.len() && b[i] == b'}' {
                    i += 1;
                }
                return i;
            }
        }
        let start = i;
        while i < b.len() && is_ident(b[i]) {
            i += 1;
        }
        let name = &s[start..i];
        if !name.is_empty() && name != "self" && name != "super" {
            path.push(name.to_string());
        }
        if s[i..].starts_with("::") {
            i += 2;
            continue;
        }
        // `name as alias`
        if s[i..].starts_with(" as ") {
            i += 4;
            while i < b.len() && is_ident(b[i]) {
                i += 1;
            }
        }
        out.push(path);
        return i;
    }
}

/// The circles of a directed graph: its strongly connected components of more than one node,
/// each in sorted order.
fn circles(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<Vec<String>>> {
    // Two nodes share a circle when each reaches the other.
    let reach = |from: &Vec<String>| {
        let mut seen: BTreeSet<Vec<String>> = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(n) = stack.pop() {
            for m in graph.get(&n).into_iter().flatten() {
                if seen.insert(m.clone()) {
                    stack.push(m.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&Vec<String>, BTreeSet<Vec<String>>> =
        graph.keys().map(|n| (n, reach(n))).collect();
    let mut done: BTreeSet<Vec<String>> = BTreeSet::new();
    let mut out = Vec::new();
    for (n, r) in &reached {
        if done.contains(*n) || !r.contains(*n) {
            continue;
        }
        let circle: Vec<Vec<String>> = r
            .iter()
            .filter(|m| reached.get(m).is_some_and(|rm| rm.contains(*n)))
            .cloned()
            .collect();
        done.extend(circle.iter().cloned());
        out.push(circle);
    }
    out
}
