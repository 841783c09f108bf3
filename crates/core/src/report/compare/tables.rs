//! What people and CSV read: the figures transposed (one column per wave, the change between
//! consecutive waves), the conditions side by side, and one CSV row per wave.

use std::collections::BTreeSet;

use super::Parts;
use super::conditions::CondValue;
use super::text::{change_text, with_relative};
use super::wave_figures::{Fig, WaveFigs};
use crate::number::{
    fixed, int, known_machine_f64, known_machine_u64, machine_opt, partial, percent, signed,
    signed_int, signed_usd_significant, usd,
};
use crate::report::score::places as score_places;
use crate::report::waves::tokens_header;
use crate::report::{Cell, Column, Note, Table, capitalise};

/// The figures, for people: one column per wave, the change between consecutive waves.
pub(super) fn figures_table(p: &Parts<'_>, verdict: &[String]) -> Table {
    let Parts {
        waves,
        ids,
        figures,
        figs,
        ..
    } = p;
    let mut columns = vec![Column::text("Figure", "figure")];
    for (i, id) in ids.iter().enumerate() {
        if i > 0 {
            columns.push(Column::num(
                "Change",
                &format!("change_{}_{}", ids[i - 1], id),
            ));
        }
        columns.push(Column::num(id, id));
    }
    let mut people = Table::new(columns);
    people.heading = figures_heading(p, verdict);

    let row =
        |label: String, cell: &dyn Fn(usize) -> String, change: &dyn Fn(usize, usize) -> String| {
            transposed(ids.len(), label, cell, change)
        };
    let ch =
        |pick: fn(&WaveFigs) -> &Fig, i: usize, j: usize, show: &dyn Fn(f64, f64) -> String| {
            change_text(pick(&figs[i]), pick(&figs[j]), ids[i], ids[j], show)
        };

    people.rows.push(row(
        "Correct".into(),
        &|i| {
            let f = &figures[i];
            match f.accuracy {
                Some(a) => format!("{}/{} {}", f.correct, f.denominator, percent(a)),
                None => "—".into(),
            }
        },
        &|i, j| {
            ch(|f| &f.accuracy, i, j, &|x, y| {
                with_relative(format!("{} pp", signed((y - x) * 100.0, 1)), x, y)
            })
        },
    ));
    people.rows.push(row(
        "Wall s".into(),
        &|i| partial(&figures[i].wall_s, figures[i].attempts, |x| fixed(x, 1)),
        &|i, j| {
            ch(|f| &f.wall_s, i, j, &|x, y| {
                with_relative(format!("{} s", signed(y - x, 1)), x, y)
            })
        },
    ));
    let tokens_label = tokens_label(waves);
    let token_change = |x: f64, y: f64| {
        let d = y as i64 - x as i64;
        with_relative(signed_int(d), x, y)
    };
    people.rows.push(row(
        tokens_label.into(),
        &|i| partial(&figures[i].tokens_total, figures[i].attempts, int),
        &|i, j| ch(|f| &f.tokens_total, i, j, &token_change),
    ));
    people.rows.push(row(
        "New input tokens".into(),
        &|i| partial(&figures[i].new_input_tokens, figures[i].attempts, int),
        &|i, j| ch(|f| &f.new_input_tokens, i, j, &token_change),
    ));
    people.rows.push(row(
        "USD".into(),
        &|i| partial(&figures[i].cost_usd, figures[i].attempts, usd),
        &|i, j| {
            ch(|f| &f.cost_usd, i, j, &|x, y| {
                with_relative(signed_usd_significant(y - x), x, y)
            })
        },
    ));
    people.rows.push(row(
        "Cost-of-Pass".into(),
        &|i| figures[i].cost_of_pass_usd.map_or("—".into(), usd),
        &|i, j| {
            ch(|f| &f.cost_of_pass_usd, i, j, &|x, y| {
                with_relative(signed_usd_significant(y - x), x, y)
            })
        },
    ));
    people.rows.extend(rubric_rows(p));
    people
}

/// The figures table's heading: the seat, its waves and their suite, then a blank line and
/// the verdict, the first thing a reader should see.
fn figures_heading(p: &Parts<'_>, verdict: &[String]) -> Vec<String> {
    let Parts {
        seat, waves, ids, ..
    } = p;
    let suites: BTreeSet<&str> = waves.iter().map(|w| w.data.wave.suite.as_str()).collect();
    let mut heading = vec![format!(
        "Seat {seat} across waves {}{} · only absolutes are compared",
        ids.join(" → "),
        if suites.len() == 1 {
            format!(" · suite {}", waves[0].data.wave.suite)
        } else {
            String::new()
        }
    )];
    // A blank line, then the verdict: the first thing a reader should see.
    heading.push(String::new());
    heading.extend(verdict.iter().cloned());
    heading
}

/// The tokens row's label: as every wave counts its input, or both ways when they differ.
fn tokens_label(waves: &[super::WaveInput<'_>]) -> &'static str {
    let incl: BTreeSet<bool> = waves
        .iter()
        .map(|w| w.data.wave.accounting.input_tokens_include_cache_reads)
        .collect();
    match (incl.contains(&true), incl.contains(&false)) {
        (true, false) => tokens_header(true),
        (false, true) => tokens_header(false),
        _ => "Tokens (cached reads in or added)",
    }
}

/// One figure's row of `n` waves: its label, then each wave's value, after the first each
/// preceded by the change from the wave before.
fn transposed(
    n: usize,
    label: String,
    cell: &dyn Fn(usize) -> String,
    change: &dyn Fn(usize, usize) -> String,
) -> Vec<Cell> {
    let mut r = vec![Cell::text(label)];
    for i in 0..n {
        if i > 0 {
            r.push(Cell::text(change(i - 1, i)));
        }
        r.push(Cell::text(cell(i)));
    }
    r
}

/// Each rubric's row: its score and the change, or a relative rubric's rank, not compared.
fn rubric_rows(p: &Parts<'_>) -> Vec<Vec<Cell>> {
    let Parts {
        rubrics,
        ids,
        places,
        ..
    } = p;
    let mut rows = Vec::new();
    let row =
        |label: String, cell: &dyn Fn(usize) -> String, change: &dyn Fn(usize, usize) -> String| {
            transposed(ids.len(), label, cell, change)
        };
    for (k, info) in rubrics.iter().enumerate() {
        let r = &info.rubric;
        if r.relative {
            rows.push(row(
                format!("{} rank in wave (relative)", r.id()),
                &|i| places[i][k].text.clone(),
                &|_, _| "not compared (relative)".into(),
            ));
        } else {
            rows.push(row(r.id(), &|i| places[i][k].text.clone(), &|i, j| match (
                places[i][k].score,
                places[j][k].score,
            ) {
                (Some(x), Some(y)) => with_relative(signed(y - x, score_places(r)), x, y),
                _ => "unknown (a score is undefined)".into(),
            }));
        }
    }

    rows
}

/// The conditions, side by side, each marked with what a difference in it confounds.
pub(super) fn conditions_table(p: &Parts<'_>, notes: &[String]) -> Table {
    let Parts { ids, conds, .. } = p;
    let mut columns = vec![Column::text("Condition", "condition")];
    for id in ids.iter() {
        columns.push(Column::text(id, id));
    }
    columns.push(Column::text("Confounds", "confounds"));
    let mut cond_table = Table::new(columns);
    cond_table
        .heading
        .push("Conditions (every difference is a confounder of the change):".into());
    for c in conds.iter() {
        let mut r = vec![Cell::text(capitalise(c.label))];
        for v in &c.values {
            r.push(Cell::text(v.human(c.unknown)));
        }
        r.push(Cell::text(if c.differs() {
            c.confounds_text()
        } else if c.unknown == "unknown" && c.values.iter().all(|v| *v == CondValue::Unknown) {
            "not recorded in any wave"
        } else {
            "same"
        }));
        cond_table.rows.push(r);
    }
    cond_table.notes = notes.iter().cloned().map(Note::Text).collect();

    cond_table
}

/// CSV: one row per wave with the absolute figures and the conditions.
pub(super) fn csv_table(p: &Parts<'_>) -> Table {
    let Parts {
        seat,
        rubrics,
        ids,
        figures,
        conds,
        places,
        ..
    } = p;
    let mut csv_cols: Vec<Column> = vec![
        Column::text("Wave", "wave"),
        Column::text("Seat", "seat"),
        Column::num("Problems", "problems"),
        Column::num("Attempts", "attempts"),
        Column::num("Correct", "correct"),
        Column::num("Missing", "missing"),
        Column::num("Denominator", "denominator"),
        Column::num("Accuracy", "accuracy"),
        Column::num("Wall s", "wall_s"),
        Column::num("Wall known", "wall_known_attempts"),
        Column::num("Tokens", "tokens_total"),
        Column::num("Tokens known", "tokens_known_attempts"),
        Column::num("New input", "new_input_tokens"),
        Column::num("USD", "cost_usd"),
        Column::num("USD known", "cost_known_attempts"),
        Column::num("Cost-of-Pass", "cost_of_pass_usd"),
    ];
    for c in conds.iter() {
        if c.key != "attempts" {
            csv_cols.push(Column::text(c.label, &c.key.replace('.', "_")));
        }
    }
    for info in rubrics.iter() {
        let id = info.rubric.id();
        if !info.rubric.relative {
            csv_cols.push(Column::num(&id, &format!("{id}_score")));
        }
        csv_cols.push(Column::num(&id, &format!("{id}_rank")));
        csv_cols.push(Column::num(&id, &format!("{id}_of")));
    }
    let mut csv = Table::new(csv_cols);
    for (i, f) in figures.iter().enumerate() {
        let mut r = vec![
            Cell::text(ids[i]),
            Cell::text(*seat),
            Cell::text(f.problems.to_string()),
            Cell::text(f.attempts.to_string()),
            Cell::text(f.correct.to_string()),
            Cell::text(f.missing.to_string()),
            Cell::text(f.denominator.to_string()),
            Cell::text(machine_opt(f.accuracy)),
            Cell::text(known_machine_f64(&f.wall_s)),
            Cell::text(f.wall_s.known.to_string()),
            Cell::text(known_machine_u64(&f.tokens_total)),
            Cell::text(f.tokens_total.known.to_string()),
            Cell::text(known_machine_u64(&f.new_input_tokens)),
            Cell::text(known_machine_f64(&f.cost_usd)),
            Cell::text(f.cost_usd.known.to_string()),
            Cell::text(machine_opt(f.cost_of_pass_usd)),
        ];
        for c in conds.iter().filter(|c| c.key != "attempts") {
            r.push(Cell::text(c.values[i].machine()));
        }
        for (k, info) in rubrics.iter().enumerate() {
            let p = &places[i][k];
            if !info.rubric.relative {
                r.push(Cell::text(machine_opt(p.score)));
            }
            r.push(Cell::text(
                p.rank.map(|r| r.to_string()).unwrap_or_default(),
            ));
            r.push(Cell::text(p.of.to_string()));
        }
        csv.rows.push(r);
    }

    csv
}
