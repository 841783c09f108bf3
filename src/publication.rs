//! Publications: frozen leaderboards that anyone can recompute and compare byte for byte.
//!
//! A publication holds the canonical serialisation of every input row its leaderboard used (the
//! wave's conditions, seats, attempts and trace steps, plus the rubric's identity), that
//! serialisation's SHA-256, the rendered leaderboard and its SHA-256, and the hash of the
//! publication before it — so the publications form a chain, and editing any one of them
//! breaks every link after it.
//!
//! This module is pure: it builds and compares texts and hashes. Reading the ledger and the
//! clock is the commands' job.

use serde::Serialize;
use serde_json::Value;

use crate::digest::{canonical_json, sha256_hex};
use crate::ledger::{PublicationRow, RubricRow};
use crate::model::WaveData;
use crate::report;
use crate::report::score::RubricInfo;
use crate::rubric::WaveScores;

/// Version of the canonical input serialisation. Part of every input digest.
pub const INPUT_FORMAT: u32 = 1;

#[derive(Serialize)]
struct CanonicalInput<'a> {
    format: u32,
    rubric: RubricId<'a>,
    data: &'a WaveData,
}

#[derive(Serialize)]
struct RubricId<'a> {
    name: &'a str,
    version: u32,
    sha256: &'a str,
}

/// The canonical serialisation of a publication's inputs.
pub fn canonical_input(data: &WaveData, info: &RubricInfo) -> String {
    canonical_json(&CanonicalInput {
        format: INPUT_FORMAT,
        rubric: RubricId {
            name: &info.rubric.name,
            version: info.rubric.version,
            sha256: &info.sha256,
        },
        data,
    })
}

/// Version of the published text's layout. A publication records it in its text; a build that
/// renders another version says so instead of reporting every changed line. Bump it whenever the
/// leaderboard's rendering changes, since published texts are compared byte for byte.
pub const OUTPUT_FORMAT: u32 = 1;

/// The layout version a published text declares, if it declares one.
pub fn output_format(text: &str) -> Option<u32> {
    text.lines()
        .find_map(|l| l.strip_prefix("Publication format "))
        .and_then(|rest| rest.split(['.', ' ']).next())
        .and_then(|n| n.parse().ok())
}

/// The published text: a title, what it was computed from, then the leaderboard in Markdown.
pub fn render_output(
    title: &str,
    data: &WaveData,
    info: &RubricInfo,
    scores: &WaveScores,
    input_sha256: &str,
) -> String {
    let (table, _) = report::score::leaderboard(data, info, scores);
    format!(
        "# {}\n\nComputed by benchledger from wave `{}` under rubric `{}` (sha256 {}).\n\
         Input digest (sha256): {input_sha256}\n\
         Publication format {OUTPUT_FORMAT}.\n\n{}",
        title.replace('\n', " "),
        data.wave.id,
        info.rubric.id(),
        info.sha256,
        report::to_markdown(&table)
    )
}

/// The fields of a publication that its hash covers.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Record<'a> {
    pub id: i64,
    pub wave: &'a str,
    pub rubric_sha256: &'a str,
    pub title: &'a str,
    pub created_at: &'a str,
    pub input_sha256: &'a str,
    pub output_sha256: &'a str,
    pub prev_sha256: Option<&'a str>,
}

/// The hash of a publication record: what the next publication chains to.
pub fn record_sha256(r: &Record<'_>) -> String {
    sha256_hex(canonical_json(r).as_bytes())
}

/// A readable label for an array element: a seat by id, an attempt by problem and trial.
fn label(v: &Value, index: usize) -> String {
    if let Some(id) = v.pointer("/seat/id").and_then(Value::as_str) {
        return format!("seat {id}");
    }
    if let (Some(p), Some(t)) = (
        v.get("problem").and_then(Value::as_str),
        v.get("trial").and_then(Value::as_u64),
    ) {
        return format!("problem {p} trial {t}");
    }
    format!("#{index}")
}

/// Whether labels identify their elements: none positional, none repeated.
fn keyed(labels: &[String]) -> bool {
    let unique: std::collections::BTreeSet<&String> = labels.iter().collect();
    unique.len() == labels.len() && labels.iter().all(|l| !l.starts_with('#'))
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(60).collect::<String>())
    } else {
        s
    }
}

fn walk(path: &str, old: &Value, new: &Value, out: &mut Vec<String>) {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            for k in keys {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match (a.get(k), b.get(k)) {
                    (Some(x), Some(y)) => walk(&p, x, y, out),
                    (Some(x), None) => out.push(format!("{p}: {} → (absent)", short(x))),
                    (None, Some(y)) => out.push(format!("{p}: (absent) → {}", short(y))),
                    (None, None) => {}
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            if a.len() != b.len() {
                out.push(format!("{path}: {} items → {} items", a.len(), b.len()));
            }
            let la: Vec<String> = a.iter().enumerate().map(|(i, x)| label(x, i)).collect();
            let lb: Vec<String> = b.iter().enumerate().map(|(i, y)| label(y, i)).collect();
            if keyed(&la) && keyed(&lb) {
                // Seats and attempts are matched by their ids, not their positions: one attempt
                // deleted from the middle of a seat is reported as that attempt removed, not as
                // every later attempt "changed into" its successor.
                for (x, l) in a.iter().zip(&la) {
                    match lb.iter().position(|m| m == l) {
                        Some(j) => walk(&format!("{path} [{l}]"), x, &b[j], out),
                        None => out.push(format!("{path} [{l}]: removed")),
                    }
                }
                for l in lb.iter().filter(|l| !la.contains(l)) {
                    out.push(format!("{path} [{l}]: added"));
                }
            } else {
                for (i, (x, y)) in a.iter().zip(b).enumerate() {
                    let l = label(x, i);
                    walk(&format!("{path} [{l}]"), x, y, out);
                }
            }
        }
        _ => {
            if old != new {
                out.push(format!("{path}: {} → {}", short(old), short(new)));
            }
        }
    }
}

/// What differs between two canonical inputs, one line per changed value, naming the seat,
/// the attempt and the field: "data.seats [seat x].attempts [problem p trial 1].wall_s: 132.0 →
/// 131.0".
pub fn diff_inputs(published: &str, now: &str) -> Vec<String> {
    match (
        serde_json::from_str::<Value>(published),
        serde_json::from_str::<Value>(now),
    ) {
        (Ok(a), Ok(b)) => {
            let mut out = Vec::new();
            walk("", &a, &b, &mut out);
            out
        }
        _ => vec!["the published input is not valid JSON: it was edited".into()],
    }
}

fn cells(line: &str) -> Vec<String> {
    line.trim()
        .trim_start_matches('|')
        .trim_end_matches('|')
        .split(" | ")
        .map(|c| c.trim().to_string())
        .collect()
}

fn is_rule(line: &str) -> bool {
    line.starts_with("|-") || line.starts_with("|:")
}

/// A rendered text taken apart: the body rows of its Markdown tables, keyed by table, first
/// cell and occurrence, and every other line with its line number.
struct Parts<'a> {
    headers: Vec<Vec<String>>,
    rows: Vec<((usize, String, usize), Vec<String>)>,
    other: Vec<(usize, &'a str)>,
}

fn parts(text: &str) -> Parts<'_> {
    let lines: Vec<&str> = text.lines().collect();
    let mut p = Parts {
        headers: Vec::new(),
        rows: Vec::new(),
        other: Vec::new(),
    };
    let mut table = None;
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with("| ") && lines.get(i + 1).is_some_and(|n| is_rule(n)) {
            p.headers.push(cells(l));
            table = Some(p.headers.len() - 1);
        } else if let Some(t) = table.filter(|_| l.starts_with("| ")) {
            let c = cells(l);
            let first = c.first().cloned().unwrap_or_default();
            let seen = p
                .rows
                .iter()
                .filter(|((u, f, _), _)| *u == t && *f == first)
                .count();
            p.rows.push(((t, first, seen), c));
            continue;
        } else if !is_rule(l) {
            table = None;
        }
        p.other.push((i + 1, l));
    }
    p
}

/// What differs between two rendered outputs. Table rows are matched by seat (their first
/// cell), whatever their position, and reported by column ("seat x: Wall s 132.0 → 131.0");
/// other lines by line number.
pub fn diff_outputs(published: &str, now: &str) -> Vec<String> {
    let (a, b) = (parts(published), parts(now));
    let mut out = Vec::new();
    for i in 0..a.other.len().max(b.other.len()) {
        match (a.other.get(i), b.other.get(i)) {
            (Some((_, x)), Some((_, y))) if x == y => {}
            (Some((n, x)), Some((_, y))) => out.push(format!("line {n}: {x:?} → {y:?}")),
            (Some((n, x)), None) => out.push(format!("line {n}: {x:?} → (absent)")),
            (None, Some((n, y))) => out.push(format!("line {n}: (absent) → {y:?}")),
            (None, None) => {}
        }
    }
    let name = |(_, first, _): &(usize, String, usize)| format!("seat {first}");
    for (key, cx) in &a.rows {
        let Some((_, cy)) = b.rows.iter().find(|(k, _)| k == key) else {
            out.push(format!(
                "{}: row removed (was {:?})",
                name(key),
                cx.join(" | ")
            ));
            continue;
        };
        if cx == cy {
            continue;
        }
        if cx.len() != cy.len() {
            out.push(format!(
                "{}: {:?} → {:?}",
                name(key),
                cx.join(" | "),
                cy.join(" | ")
            ));
            continue;
        }
        let header = b.headers.get(key.0).or_else(|| a.headers.get(key.0));
        let changes: Vec<String> = cx
            .iter()
            .zip(cy)
            .enumerate()
            .filter(|(_, (p, q))| p != q)
            .map(|(j, (p, q))| {
                let col = header.and_then(|h| h.get(j)).map_or("?", String::as_str);
                let show = |c: &str| {
                    if c.is_empty() {
                        "(blank)".to_string()
                    } else {
                        c.to_string()
                    }
                };
                format!("{col} {} → {}", show(p), show(q))
            })
            .collect();
        out.push(format!("{}: {}", name(key), changes.join("; ")));
    }
    for (key, cy) in &b.rows {
        if !a.rows.iter().any(|(k, _)| k == key) {
            out.push(format!("{}: row added ({:?})", name(key), cy.join(" | ")));
        }
    }
    // Nothing found line by line or row by row, yet the texts differ: say how, rather than
    // report nothing.
    if out.is_empty() && published != now {
        let order = |p: &Parts<'_>| {
            p.rows
                .iter()
                .map(|((_, f, _), _)| f.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let (x, y) = (order(&a), order(&b));
        out.push(if x == y {
            "the texts differ only in line endings or a final newline".into()
        } else {
            format!("rows in another order: {x} → {y}")
        });
    }
    out
}

/// Everything verify found wrong with one publication; empty when it reproduces.
pub fn check(
    row: &PublicationRow,
    prev: Option<&PublicationRow>,
    rubric_row: &RubricRow,
    fresh: &WaveData,
    in_bundle: bool,
) -> Vec<String> {
    let mut problems = Vec::new();
    let record = Record {
        id: row.id,
        wave: &row.wave,
        rubric_sha256: &row.rubric_sha256,
        title: &row.title,
        created_at: &row.created_at,
        input_sha256: &row.input_sha256,
        output_sha256: &row.output_sha256,
        prev_sha256: row.prev_sha256.as_deref(),
    };
    if record_sha256(&record) != row.sha256 {
        problems.push(
            "the publication record was edited: its fields no longer hash to its sha256".into(),
        );
    }
    match (prev, &row.prev_sha256) {
        (Some(p), Some(link)) if *link == p.sha256 => {}
        (Some(p), link) => problems.push(format!(
            "the chain is broken: it names predecessor {} but publication {} hashes to {}",
            link.as_deref().map_or("(none)", |l| &l[..l.len().min(12)]),
            p.id,
            &p.sha256[..p.sha256.len().min(12)]
        )),
        (None, Some(link)) if !in_bundle => problems.push(format!(
            "the chain is broken: it names predecessor {} but no earlier publication exists",
            &link[..link.len().min(12)]
        )),
        (None, _) => {}
    }
    let text_sha = sha256_hex(rubric_row.text.as_bytes());
    if text_sha != rubric_row.sha256 || rubric_row.sha256 != row.rubric_sha256 {
        problems.push(format!(
            "rubric {}: its text was edited behind benchledger's back (published sha256 {}, \
             the text now hashes to {})",
            rubric_row.id(),
            &row.rubric_sha256[..row.rubric_sha256.len().min(12)],
            &text_sha[..12]
        ));
    }
    let origin = std::path::PathBuf::from(format!("{} (registered text)", rubric_row.id()));
    let rubric = match crate::rubric::parse(&origin, &rubric_row.text) {
        Ok(r) => r,
        Err(e) => {
            problems.push(format!("the rubric text no longer parses: {e}"));
            return problems;
        }
    };
    let info = RubricInfo {
        rubric,
        sha256: row.rubric_sha256.clone(),
        scale_violation: rubric_row.scale_violation,
        registered: true,
    };
    if sha256_hex(row.input.as_bytes()) != row.input_sha256 {
        problems.push("the stored input was edited: it no longer matches its digest".into());
    }
    let input = canonical_input(fresh, &info);
    if input != row.input {
        let lines = diff_inputs(&row.input, &input);
        problems.push(format!(
            "input rows changed since publication ({} difference{}):\n{}",
            lines.len(),
            if lines.len() == 1 { "" } else { "s" },
            indent(&lines)
        ));
    }
    if sha256_hex(row.output.as_bytes()) != row.output_sha256 {
        problems.push("the stored output was edited: it no longer matches its digest".into());
    }
    if let Some(n) = output_format(&row.output).filter(|n| *n != OUTPUT_FORMAT) {
        problems.push(format!(
            "it was rendered in publication format {n}, and this benchledger renders format \
             {OUTPUT_FORMAT}: verify it with a benchledger that renders format {n} (its inputs \
             and digests are checked above)"
        ));
        return problems;
    }
    let scores = crate::rubric::score_wave(&info.rubric, fresh);
    let output = render_output(
        &row.title,
        fresh,
        &info,
        &scores,
        &sha256_hex(input.as_bytes()),
    );
    if output != row.output {
        let lines = diff_outputs(&row.output, &output);
        problems.push(format!(
            "the published leaderboard does not reproduce ({} difference{}, published → now):\n{}",
            lines.len(),
            if lines.len() == 1 { "" } else { "s" },
            indent(&lines)
        ));
    }
    problems
}

fn indent(lines: &[String]) -> String {
    lines
        .iter()
        .map(|l| format!("      {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_differences_name_seat_attempt_and_field() {
        let a = r#"{"data":{"seats":[{"seat":{"id":"s1"},"attempts":[{"problem":"p","trial":1,"wall_s":132.0}]}]}}"#;
        let b = a.replace("132.0", "131.0");
        assert_eq!(
            diff_inputs(a, &b),
            vec!["data.seats [seat s1].attempts [problem p trial 1].wall_s: 132.0 → 131.0"]
        );
    }

    #[test]
    fn output_differences_name_seat_and_column() {
        let a = "# t\n| Seat | Wall s |\n|---|---:|\n| s1 | 132.0 |\n";
        let b = a.replace("132.0", "131.0");
        assert_eq!(diff_outputs(a, &b), vec!["seat s1: Wall s 132.0 → 131.0"]);
    }

    #[test]
    fn a_deleted_middle_attempt_is_named_not_shifted() {
        let attempt =
            |p: &str, wall: f64| format!(r#"{{"problem":"{p}","trial":1,"wall_s":{wall:?}}}"#);
        let seat = |attempts: &[String]| {
            format!(
                r#"{{"data":{{"seats":[{{"seat":{{"id":"s1"}},"attempts":[{}]}}]}}}}"#,
                attempts.join(",")
            )
        };
        let all = [attempt("p1", 1.0), attempt("p2", 2.0), attempt("p3", 3.0)];
        let a = seat(&all);
        let b = seat(&[all[0].clone(), all[2].clone()]);
        assert_eq!(
            diff_inputs(&a, &b),
            vec![
                "data.seats [seat s1].attempts: 3 items → 2 items",
                "data.seats [seat s1].attempts [problem p2 trial 1]: removed",
            ]
        );
        assert_eq!(
            diff_inputs(&b, &a),
            vec![
                "data.seats [seat s1].attempts: 2 items → 3 items",
                "data.seats [seat s1].attempts [problem p2 trial 1]: added",
            ]
        );
    }

    #[test]
    fn output_rows_are_matched_by_seat_when_ranks_change() {
        let a = "# t\n\n| Seat | Score | Rank |\n|---|---:|---:|\n| s1 | 100 | 1 |\n| s2 | 75 | 2 |\n\nnote\n";
        let b = "# t\n\n| Seat | Score | Rank |\n|---|---:|---:|\n| s2 | 75 | 1 |\n| s1 | 0 | 2 |\n\nnote\n";
        assert_eq!(
            diff_outputs(a, b),
            vec!["seat s1: Score 100 → 0; Rank 1 → 2", "seat s2: Rank 2 → 1"]
        );
        let c = "# t\n\n| Seat | Score | Rank |\n|---|---:|---:|\n| s1 | 100 | 1 |\n\nnote\n";
        assert_eq!(
            diff_outputs(a, c),
            vec![r#"seat s2: row removed (was "s2 | 75 | 2")"#]
        );
        assert_eq!(
            diff_outputs(a, a.trim_end()),
            vec!["the texts differ only in line endings or a final newline"]
        );
    }

    #[test]
    fn the_output_format_is_read_back() {
        assert_eq!(output_format("# t\n\nPublication format 1.\n"), Some(1));
        assert_eq!(output_format("# t\n"), None);
    }

    #[test]
    fn the_record_hash_covers_every_field() {
        let r = Record {
            id: 1,
            wave: "w",
            rubric_sha256: "r",
            title: "t",
            created_at: "c",
            input_sha256: "i",
            output_sha256: "o",
            prev_sha256: None,
        };
        let base = record_sha256(&r);
        let mut changed = r.clone();
        changed.title = "u";
        assert_ne!(record_sha256(&changed), base);
        let mut chained = r.clone();
        chained.prev_sha256 = Some("p");
        assert_ne!(record_sha256(&chained), base);
    }
}
