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
         Input digest (sha256): {input_sha256}\n\n{}",
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
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                let l = label(x, i);
                walk(&format!("{path} [{l}]"), x, y, out);
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

/// What differs between two rendered outputs. Table rows are matched by seat and reported by
/// column ("seat x: Wall s 132.0 → 131.0"); other lines by line number.
pub fn diff_outputs(published: &str, now: &str) -> Vec<String> {
    let a: Vec<&str> = published.lines().collect();
    let b: Vec<&str> = now.lines().collect();
    let header = b.iter().find(|l| l.starts_with("| ")).map(|l| cells(l));
    let mut out = Vec::new();
    for i in 0..a.len().max(b.len()) {
        let (x, y) = (a.get(i).copied(), b.get(i).copied());
        if x == y {
            continue;
        }
        match (x, y, &header) {
            (Some(x), Some(y), Some(h)) if x.starts_with("| ") && y.starts_with("| ") => {
                let (cx, cy) = (cells(x), cells(y));
                if cx.first() == cy.first() && cx.len() == cy.len() {
                    let changes: Vec<String> = cx
                        .iter()
                        .zip(&cy)
                        .enumerate()
                        .filter(|(_, (p, q))| p != q)
                        .map(|(j, (p, q))| {
                            let col = h.get(j).map_or("?", String::as_str);
                            format!("{col} {p} → {q}")
                        })
                        .collect();
                    out.push(format!("seat {}: {}", cx[0], changes.join("; ")));
                } else {
                    out.push(format!("line {}: {x:?} → {y:?}", i + 1));
                }
            }
            (Some(x), Some(y), _) => out.push(format!("line {}: {x:?} → {y:?}", i + 1)),
            (Some(x), None, _) => out.push(format!("line {}: {x:?} → (absent)", i + 1)),
            (None, Some(y), _) => out.push(format!("line {}: (absent) → {y:?}", i + 1)),
            (None, None, _) => {}
        }
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
