//! The README's examples hold as written: what an example uses is what the command above it
//! installs.

mod common;

use common::crate_path;

/// Issue 32, item 8: the README's first Python example called `.to_pandas()` after
/// `pip install '.[arrow]'`, which installs no pandas.
#[test]
fn the_readme_python_example_installs_the_pandas_it_uses() {
    let readme = std::fs::read_to_string(crate_path("README.md")).unwrap();
    let pyproject: toml::Table = std::fs::read_to_string(crate_path("pyproject.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let extras = pyproject["project"]["optional-dependencies"]
        .as_table()
        .unwrap();
    let section = readme
        .split("## From Python")
        .nth(1)
        .unwrap()
        .split("\n## ")
        .next()
        .unwrap();
    let (before, rest) = section.split_once("```python").unwrap();
    let example = rest.split("```").next().unwrap();
    assert!(example.contains(".to_pandas()"), "{example}");
    // An install line before the example names an extra that brings pandas.
    let named: Vec<&str> = before
        .split("pip install '.[")
        .skip(1)
        .filter_map(|s| s.split(']').next())
        .collect();
    let brings_pandas = |extra: &str| {
        extras
            .get(extra)
            .and_then(|d| d.as_array())
            .is_some_and(|deps| {
                deps.iter()
                    .any(|d| d.as_str().is_some_and(|d| d.starts_with("pandas")))
            })
    };
    assert!(
        named.iter().any(|e| brings_pandas(e)),
        "the README installs {named:?} before an example that calls .to_pandas(); extras: \
         {extras:?}"
    );
}
