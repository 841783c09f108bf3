//! A claims file written out as TOML, for `claims from`: the layout a person would write, one
//! `[[claim]]` per published number, each value as it was published. What is written parses back
//! to the same claims (tested), so a generated file is checked like a hand-written one.

use super::round::{Precision, published_units, units_text};
use super::spec::{Claim, ClaimsFile};

/// A TOML basic string.
fn string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A number as TOML reads it back to the same value: at its decimals when it has them.
fn number(x: f64, decimals: Option<u32>) -> String {
    if let Some(d) = decimals
        && let Some(n) = published_units(x, d)
    {
        let s = units_text(n, d);
        // A whole number at 0 decimals is written as a float so it reads as one.
        return if d == 0 { format!("{s}.0") } else { s };
    }
    toml::Value::Float(x).to_string()
}

fn claim(c: &Claim) -> String {
    let mut s = String::from("[[claim]]\n");
    s.push_str(&format!("wave = {}\n", string(&c.wave)));
    s.push_str(&format!("seat = {}\n", string(&c.seat)));
    s.push_str(&format!("figure = {}\n", string(&c.figure.name())));
    let decimals = match c.precision {
        Precision::Decimals(d) => Some(d),
        Precision::Tolerance(_) => None,
    };
    s.push_str(&format!("value = {}\n", number(c.value, decimals)));
    if c.scale != 1.0 {
        let scale = if c.scale.fract() == 0.0 && c.scale.abs() < 1e15 {
            format!("{}", c.scale as i64)
        } else {
            number(c.scale, None)
        };
        s.push_str(&format!("scale = {scale}\n"));
    }
    match c.precision {
        Precision::Decimals(d) => s.push_str(&format!("decimals = {d}\n")),
        Precision::Tolerance(t) => s.push_str(&format!("tolerance = {}\n", number(t, None))),
    }
    if let Some(m) = &c.metric {
        s.push_str(&format!("metric = {}\n", string(m)));
    }
    if let Some(k) = c.counts {
        s.push_str(&format!("correct = {}\nof = {}\n", k.correct, k.of));
    }
    if let Some(src) = &c.source {
        s.push_str(&format!("source = {}\n", string(src)));
    }
    s
}

/// The claims file as TOML, headed by comment lines (each written as `# ` and the line).
pub(crate) fn to_toml(file: &ClaimsFile, comments: &[String]) -> String {
    let mut s = String::new();
    for c in comments {
        for line in c.lines() {
            s.push_str(&format!("# {line}\n").replace("# \n", "#\n"));
        }
    }
    s.push_str(&format!("name = {}\n", string(&file.name)));
    s.push_str(&format!("version = {}\n", file.version));
    s.push_str(&format!("source = {}\n", string(&file.source)));
    if let Some(d) = &file.description {
        s.push_str(&format!("description = {}\n", string(d)));
    }
    for c in &file.claims {
        s.push('\n');
        s.push_str(&claim(c));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::spec::{Counts, Figure, SeatFigure, parse};

    #[test]
    fn a_written_file_parses_back_to_the_same_claims() {
        let file = ClaimsFile {
            name: "oh-claude".into(),
            version: 1,
            source: "OpenHands index \"results\"".into(),
            description: None,
            claims: vec![
                Claim {
                    line: 0,
                    lines: Default::default(),
                    wave: "oh-swe-bench".into(),
                    seat: "claude".into(),
                    figure: Figure::Seat(SeatFigure::Accuracy),
                    value: 80.0,
                    scale: 100.0,
                    precision: Precision::Decimals(1),
                    metric: Some("solveable_accuracy".into()),
                    counts: Some(Counts {
                        correct: 28,
                        of: 67,
                    }),
                    source: Some("swe-bench, v1.11.0".into()),
                },
                Claim {
                    line: 0,
                    lines: Default::default(),
                    wave: "tb".into(),
                    seat: "t".into(),
                    figure: Figure::PassAtK(2),
                    value: 0.8,
                    scale: 1.0,
                    precision: Precision::Tolerance(1e-9),
                    metric: None,
                    counts: None,
                    source: None,
                },
                Claim {
                    line: 0,
                    lines: Default::default(),
                    wave: "oh-gaia".into(),
                    seat: "claude".into(),
                    figure: Figure::Mean(crate::claims::Measure::WallS),
                    value: 207.0,
                    scale: 1.0,
                    precision: Precision::Decimals(0),
                    metric: None,
                    counts: None,
                    source: None,
                },
            ],
        };
        let text = to_toml(
            &file,
            &["written by a test".into(), "line two\n\nafter".into()],
        );
        assert!(text.starts_with("# written by a test\n# line two\n#\n# after\nname ="));
        assert!(
            text.contains("value = 80.0\nscale = 100\ndecimals = 1\n"),
            "{text}"
        );
        assert!(text.contains("value = 207.0\ndecimals = 0\n"), "{text}");
        let back = parse(std::path::Path::new("c.toml"), &text).unwrap();
        let mut expected = file.clone();
        for (c, b) in expected.claims.iter_mut().zip(&back.claims) {
            (c.line, c.lines) = (b.line, b.lines);
        }
        assert_eq!(back, expected);
    }
}
