//! Rubric reports: the verdict of `rubric check`, the `rubric list` listing, `rubric show`.

use serde::Serialize;

use super::{Advice, Cell, Column, Note, Table};
use crate::model::RubricRow;
use crate::number::pretty;
use crate::rubric::check::CheckReport;
use crate::rubric::spec::{Per, Rubric};

fn scale_words(r: &Rubric) -> String {
    r.scale.noun("its")
}

/// The verdict on one rubric file, as text.
pub fn check_text(source: &str, r: &Rubric, rep: &CheckReport) -> String {
    let mut out = String::new();
    let kind = if r.relative { " (relative)" } else { "" };
    let verdict = if rep.ok() { "keeps" } else { "FAILS" };
    out.push_str(&format!(
        "{source}: {}{kind} {verdict} {}\n",
        r.id(),
        scale_words(r)
    ));
    let level = match r.per {
        Per::Seat => "per seat",
        Per::Attempt => "per attempt, averaged over a seat's attempts",
    };
    out.push_str(&format!(
        "  score range: {} to {} ({level})\n",
        pretty(rep.range.lo.value),
        pretty(rep.range.hi.value)
    ));
    for v in &rep.violations {
        out.push_str(&format!("  error: {v}\n"));
    }
    for w in &rep.warnings {
        out.push_str(&format!("  note: {w}\n"));
    }
    out
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RubricListJson {
    pub rubrics: Vec<RubricListEntry>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RubricListEntry {
    pub rubric: String,
    pub name: String,
    pub version: u32,
    pub sha256: String,
    pub scale_violation: bool,
    pub added_at: String,
    pub description: Option<String>,
}

/// The `rubric list` listing. `rubrics` pairs each row with its parsed form (when it parses).
pub fn list(rows: &[(RubricRow, Option<Rubric>)]) -> (Table, RubricListJson) {
    let mut t = Table::new(vec![
        Column::text("Rubric", "rubric"),
        Column::text("SHA-256", "sha256"),
        Column::text("Scale", "scale"),
        Column::text("Check", "scale_violation"),
        Column::text("Added", "added_at"),
    ]);
    for (row, parsed) in rows {
        let scale = parsed.as_ref().map_or("?".to_string(), |r| {
            let s = scale_words(r).replace("its ", "");
            if r.relative {
                format!("{s}, relative")
            } else {
                s
            }
        });
        t.rows.push(vec![
            Cell::text(row.id()),
            Cell::new(crate::digest::short(&row.sha256), &row.sha256),
            Cell::text(scale),
            Cell::new(
                if row.scale_violation {
                    "FAILS (allowed: scale violation)"
                } else {
                    "keeps its scale"
                },
                row.scale_violation.to_string(),
            ),
            Cell::text(&row.added_at),
        ]);
    }
    if rows.is_empty() {
        t.notes.push(Note::Advice(Advice::NoRubrics));
    }
    let json = RubricListJson {
        rubrics: rows
            .iter()
            .map(|(row, parsed)| RubricListEntry {
                rubric: row.id(),
                name: row.name.clone(),
                version: row.version,
                sha256: row.sha256.clone(),
                scale_violation: row.scale_violation,
                added_at: row.added_at.clone(),
                description: parsed.as_ref().and_then(|r| r.description.clone()),
            })
            .collect(),
    };
    (t, json)
}

/// `rubric show`: a header, then the verbatim text.
pub fn show(row: &RubricRow) -> String {
    let mut out = format!(
        "# {} · sha256 {} · registered {}\n",
        row.id(),
        row.sha256,
        row.added_at
    );
    if row.scale_violation {
        out.push_str(
            "# WARNING: fails `rubric check` (its score can leave its scale); registered with \
             --allow-scale-violation\n",
        );
    }
    out.push_str(&row.text);
    if !row.text.ends_with('\n') {
        out.push('\n');
    }
    out
}
