//! Publications: frozen leaderboards that anyone can recompute and compare byte for byte.
//!
//! A publication holds the canonical serialisation of every input row its leaderboard used (the
//! wave's conditions, seats, attempts and trace steps, plus the rubric's identity), that
//! serialisation's SHA-256, the rendered leaderboard and its SHA-256, and the hash of the
//! publication before it — so the publications form a chain, and editing any one of them
//! breaks every link after it.
//!
//! A publication may name the price table that filled in the costs its leaderboard shows
//! (`publish --prices`): its input records the table's name, version and hash, the published
//! text names the table, and verify fills in the same costs from the same registered text.
//!
//! A publication may carry intervals and rank ranges (`publish --ci`): its input records how
//! they were drawn (method, generator, level, resamples, seed), the published text shows them,
//! and verify draws them again from the same seed and compares byte for byte.
//!
//! This module is pure: it builds and compares texts and hashes ([`reproduce`] reads the
//! ledger's publications to hand them to it). The clock is the faces' job.

pub mod bundle;
pub mod bundle_write;
pub mod claims;
pub mod publish;
pub mod reproduce;
pub mod signature;

use std::collections::{BTreeMap, BTreeSet};

use crate::digest::{sha256_hex, short};
use crate::formats::{
    self,
    input::{CiId, PricesId, RubricId},
    read::Val,
    record,
};
use crate::model::WaveData;
use crate::model::{PriceTableRow, PublicationRow, RubricRow, StoredClaims};
use crate::prices::{Costs, Pricing};
use crate::report;
use crate::report::score::RubricInfo;
use crate::rubric::WaveScores;
use crate::stats::bootstrap::{GENERATOR, METHOD, METHOD_SUMS, Method, Settings};
use crate::stats::leaderboard::{WaveIntervals, published_intervals};

/// The identity of a rubric as a publication's input names it.
pub fn rubric_id(info: &RubricInfo) -> RubricId {
    RubricId {
        name: info.rubric.name.clone(),
        version: info.rubric.version,
        sha256: info.sha256.clone(),
    }
}

/// Everything a publication's text is made from, as the ledger holds it. `publish` gathers
/// them from what it was asked; `verify` from what the publication stored. Both render through
/// `render_input` and `render_text` ([`render`] is the two together), so a publication
/// reproduces by construction, not by two pipelines kept in step.
pub struct Sources<'a> {
    pub title: &'a str,
    /// The wave's rows as recorded: the costs a price table fills in are filled in by the
    /// render, after the input is written.
    pub wave: WaveData,
    pub rubric: &'a RubricInfo,
    /// The input format to write: the latest for a new publication, the stored one at verify.
    pub input_format: u32,
    /// The price table the input names, and its parsed text, which fills in the costs the rows
    /// lack. The text may be missing only to render the input.
    pub prices: Option<(PricesId, Option<&'a crate::prices::PriceTable>)>,
    /// How the intervals are drawn, as the input records it, when the publication has them.
    pub ci: Option<CiId>,
    /// The claims file the publication carries, checked against the wave in its text.
    pub claims: Option<&'a claims::Carried>,
    /// The published text's format: `None` for a new publication (format 1 when no user string
    /// holds a character HTML gives meaning to, else `OUTPUT_FORMAT`), the stored one at
    /// verify.
    pub output_format: Option<u32>,
}

/// A publication rendered: what `publish` stores and `verify` compares byte for byte.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    /// The canonical input: every row the leaderboard used, and what it names.
    pub input: String,
    pub input_sha256: String,
    /// The published text: the leaderboard in Markdown, and the claims section if any.
    pub output: String,
}

/// The canonical serialisation of a publication's inputs in its input format: the wave's rows
/// as recorded (before any price table filled in a cost), the rubric's identity, the price
/// table's, if one fills in costs, and how its intervals were drawn, if it has any.
pub(crate) fn render_input(s: &Sources<'_>) -> Result<String, formats::FormatError> {
    formats::input::encode(
        s.input_format,
        &rubric_id(s.rubric),
        s.prices.as_ref().map(|(id, _)| id),
        s.ci.as_ref(),
        &s.wave,
    )
}

/// The published text of `s`, whose input renders as `input`: the costs filled in from the
/// price table, the wave scored, the intervals drawn from the recorded seed, the leaderboard
/// rendered (`render_output`), then the claims section. `Err` says why it cannot be rendered
/// (a price table named without its text, interval settings publish would not take, a suite
/// too large to draw intervals over).
pub(crate) fn render_text(s: Sources<'_>, input: &str) -> Result<String, String> {
    let Sources {
        title,
        mut wave,
        rubric: info,
        prices,
        ci,
        claims,
        output_format,
        ..
    } = s;
    // A publication shows seats by their ids alone: a display name is kept outside the wave's
    // content hash and outside the publication's input, so a text that showed one could not
    // be reproduced from what the publication records (docs/formats.md, "Wave content").
    for s in &mut wave.seats {
        s.seat.display_name = None;
    }
    let pricing = match prices {
        None => None,
        Some((id, Some(table))) => Some(crate::prices::price_wave(
            table,
            &id.sha256,
            &mut wave,
            Costs::Fill,
        )),
        Some((id, None)) => {
            return Err(format!(
                "price table {}@{} is named without its text",
                id.name, id.version
            ));
        }
    };
    let settings = ci.as_ref().map(published_settings).transpose()?;
    let intervals = settings
        .map(|s| published_intervals(&wave, Some(&info.rubric), &s))
        .transpose()
        .map_err(|e| e.to_string())?;
    let scores = crate::rubric::score_wave(&info.rubric, &wave);
    let input_sha256 = sha256_hex(input.as_bytes());
    let text = |format: u32| {
        let mut output = render_output(
            format,
            title,
            &wave,
            info,
            &scores,
            &input_sha256,
            pricing.as_ref(),
            intervals.as_ref(),
        );
        if let Some(c) = claims {
            output.push_str(&c.section(&wave, &info.rubric.id(), &scores, format >= 2));
        }
        output
    };
    Ok(match output_format {
        Some(format) => text(format),
        // Format 2 differs from format 1 only where a user string holds `&`, `<` or `>`: a
        // text without one is the same in both, and is written in format 1, as it always was.
        None => {
            let plain = text(1);
            let safe = text(OUTPUT_FORMAT);
            let declared = |f: u32| format!("\nPublication format {f}.\n");
            if safe.replacen(&declared(OUTPUT_FORMAT), &declared(1), 1) == plain {
                plain
            } else {
                safe
            }
        }
    })
}

/// A publication rendered whole: `render_input`, then `render_text`.
pub fn render(s: Sources<'_>) -> Result<Rendered, String> {
    let input = render_input(&s).map_err(|e| format!("its input cannot be written: {e}"))?;
    let output = render_text(s, &input)?;
    Ok(Rendered {
        input_sha256: sha256_hex(input.as_bytes()),
        input,
        output,
    })
}

/// How a publication's intervals are drawn, as its input records it.
pub(crate) fn ci_id(s: &Settings) -> CiId {
    CiId {
        method: s.method.name().into(),
        generator: GENERATOR.into(),
        level: s.level,
        resamples: s.resamples,
        seed: s.seed,
    }
}

/// What a publication's stored input names beside its rows: the price table that filled in
/// its costs, and how its intervals were drawn.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Named {
    pub prices: Option<PricesId>,
    pub ci: Option<CiId>,
}

/// The price table and interval settings a publication's stored input names, if it names any.
/// Only an input that holds a `"prices":{` or a `"ci":{` anywhere is read back whole, so a
/// publication without either (every one before them, and most after) costs verify no second
/// parse of its input; one that names them in any other way differs from its recomputation,
/// and verify says where.
pub fn named(row: &PublicationRow) -> Result<Named, String> {
    if row.input_format < 2
        || !(row.input.contains(r#""prices":{"#) || row.input.contains(r#""ci":{"#))
    {
        return Ok(Named::default());
    }
    formats::input::decode(row.input_format, &row.input)
        .map(|input| Named {
            prices: input.prices,
            ci: input.ci,
        })
        .map_err(|e| {
            format!("the price table or interval settings its input names cannot be read: {e}")
        })
}

/// The price table a publication's stored input names, if it names one (see [`named`]).
pub(crate) fn named_prices(row: &PublicationRow) -> Result<Option<PricesId>, String> {
    named(row).map(|n| n.prices)
}

/// The settings to draw a publication's intervals again with, or why they cannot be: a method
/// or generator this build does not draw with, or settings `publish` would not have taken.
pub(crate) fn published_settings(ci: &CiId) -> Result<Settings, String> {
    let method = Method::named(&ci.method).filter(|_| ci.generator == GENERATOR);
    let Some(method) = method else {
        return Err(format!(
            "its intervals were drawn by {:?} from generator {:?}, and this benchledger draws \
             them only by {METHOD:?} or {METHOD_SUMS:?} from {GENERATOR:?}: they cannot be \
             drawn again here",
            ci.method, ci.generator
        ));
    };
    let takes = ci.level > 0.5 && ci.level < 1.0 && (100..=1_000_000).contains(&ci.resamples);
    if !takes {
        return Err(format!(
            "its interval settings (level {}, {} resamples) are not ones publish takes (a level \
             above 0.5 and below 1, 100 to 1000000 resamples): they were edited",
            ci.level, ci.resamples
        ));
    }
    Ok(Settings {
        level: ci.level,
        resamples: ci.resamples,
        seed: ci.seed,
        method,
    })
}

/// Version of the published text's layout. A publication records it in its text; a build that
/// renders another version says so instead of reporting every changed line. Bump it whenever the
/// leaderboard's rendering changes, since published texts are compared byte for byte.
///
/// Format 2 writes `&`, `<` and `>` in every user string (the title, every heading, cell and
/// note of the leaderboard and of the claims listing) as character references, so that no
/// renderer that passes HTML through runs markup from a results file. This build renders
/// formats 1 and 2.
pub(crate) const OUTPUT_FORMAT: u32 = 2;

/// The layout version a published text declares, if it declares one.
pub(crate) fn output_format(text: &str) -> Option<u32> {
    text.lines()
        .find_map(|l| l.strip_prefix("Publication format "))
        .and_then(|rest| rest.split(['.', ' ']).next())
        .and_then(|n| n.parse().ok())
}

/// The published text: a title, what it was computed from, then the leaderboard in Markdown —
/// its heading naming, when a price table filled in its costs, that table, and with intervals,
/// how they were drawn, with their columns and rank ranges (a text without prices or intervals
/// is exactly what this layout always wrote).
#[allow(clippy::too_many_arguments)]
fn render_output(
    format: u32,
    title: &str,
    data: &WaveData,
    info: &RubricInfo,
    scores: &WaveScores,
    input_sha256: &str,
    pricing: Option<&Pricing>,
    intervals: Option<&WaveIntervals>,
) -> String {
    let (mut table, json) = report::score::leaderboard_as_published(data, info, scores, intervals);
    report::prices::mark(&mut table, &json, pricing);
    let title = title.replace('\n', " ");
    let (title, leaderboard) = if format >= 2 {
        (
            report::html_escape(&title),
            report::to_markdown_html_safe(&table),
        )
    } else {
        (title, report::to_markdown(&table))
    };
    format!(
        "# {title}\n\nComputed by benchledger from wave `{}` under rubric `{}` (sha256 {}).\n\
         Input digest (sha256): {input_sha256}\n\
         Publication format {format}.\n\n{leaderboard}",
        data.wave.id,
        info.rubric.id(),
        info.sha256,
    )
}

/// The fields of a publication that its record hash covers.
pub type Record<'a> = record::Publication<'a>;

/// The hash of a publication record in the latest record format: what the next entry of the
/// chain links to.
pub fn record_sha256(r: &Record<'_>) -> String {
    record::publication_sha256(record::LATEST, r)
        .expect("this build writes its own latest record format")
}

/// A readable label for an array element: a seat by id, an attempt by problem and trial.
fn label(v: &Val, index: usize) -> String {
    if let Some(id) = v
        .get("seat")
        .and_then(|s| s.get("id"))
        .and_then(Val::as_str)
    {
        return format!("seat {}", cut_to(id, VALUE_SHOWN));
    }
    if let (Some(p), Some(Val::Num(t))) = (v.get("problem").and_then(Val::as_str), v.get("trial")) {
        return format!("problem {} trial {t}", cut_to(p, VALUE_SHOWN));
    }
    format!("#{index}")
}

/// Whether labels identify their elements: none positional, none repeated.
fn keyed(labels: &[String]) -> bool {
    let unique: BTreeSet<&String> = labels.iter().collect();
    unique.len() == labels.len() && labels.iter().all(|l| !l.starts_with('#'))
}

/// The longest input value, table cell and line a difference shows, in characters: a report
/// names what changed, it does not reprint it (a forged title can be megabytes long).
const VALUE_SHOWN: usize = 60;
const CELL_SHOWN: usize = 120;
const LINE_SHOWN: usize = 200;

/// A text cut to `n` characters, with `…` when it was longer.
fn cut_to(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

fn cut(s: &str) -> String {
    cut_to(s, CELL_SHOWN)
}

fn short_value(v: &Val) -> String {
    cut_to(&v.to_string(), VALUE_SHOWN)
}

fn walk(path: &str, old: &Val, new: &Val, out: &mut Vec<String>) {
    match (old, new) {
        (Val::Obj(a), Val::Obj(b)) => {
            let a: BTreeMap<&str, &Val> = a.iter().map(|(k, v)| (k.as_str(), v)).collect();
            let b: BTreeMap<&str, &Val> = b.iter().map(|(k, v)| (k.as_str(), v)).collect();
            let keys: BTreeSet<&str> = a.keys().chain(b.keys()).copied().collect();
            for k in keys {
                let p = if path.is_empty() {
                    k.to_string()
                } else {
                    format!("{path}.{k}")
                };
                match (a.get(k), b.get(k)) {
                    (Some(x), Some(y)) => walk(&p, x, y, out),
                    (Some(x), None) => out.push(format!("{p}: {} → (absent)", short_value(x))),
                    (None, Some(y)) => out.push(format!("{p}: (absent) → {}", short_value(y))),
                    (None, None) => {}
                }
            }
        }
        (Val::Arr(a), Val::Arr(b)) => {
            if a.len() != b.len() {
                out.push(format!("{path}: {} items → {} items", a.len(), b.len()));
            }
            let la: Vec<String> = a.iter().enumerate().map(|(i, x)| label(x, i)).collect();
            let lb: Vec<String> = b.iter().enumerate().map(|(i, y)| label(y, i)).collect();
            if keyed(&la) && keyed(&lb) {
                // Seats and attempts are matched by their ids, not their positions: one attempt
                // deleted from the middle of a seat is reported as that attempt removed, not as
                // every later attempt "changed into" its successor.
                let ia: BTreeMap<&str, usize> = la
                    .iter()
                    .enumerate()
                    .map(|(i, l)| (l.as_str(), i))
                    .collect();
                let ib: BTreeMap<&str, usize> = lb
                    .iter()
                    .enumerate()
                    .map(|(i, l)| (l.as_str(), i))
                    .collect();
                for (x, l) in a.iter().zip(&la) {
                    match ib.get(l.as_str()) {
                        Some(&j) => walk(&format!("{path} [{l}]"), x, &b[j], out),
                        None => out.push(format!("{path} [{l}]: removed")),
                    }
                }
                for l in lb.iter().filter(|l| !ia.contains_key(l.as_str())) {
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
                out.push(format!(
                    "{path}: {} → {}",
                    short_value(old),
                    short_value(new)
                ));
            }
        }
    }
}

/// What differs between two canonical inputs, one line per changed value, naming the seat,
/// the attempt and the field: "data.seats [seat x].attempts [problem p trial 1].wall_s: 132.0 →
/// 131.0". Numbers are compared as written, digit for digit. Linear in the inputs' size (up to
/// a logarithm), however many values changed.
pub(crate) fn diff_inputs(published: &str, now: &str) -> Vec<String> {
    match (formats::read::parse(published), formats::read::parse(now)) {
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
    let mut seen: BTreeMap<(usize, String), usize> = BTreeMap::new();
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with("| ") && lines.get(i + 1).is_some_and(|n| is_rule(n)) {
            p.headers.push(cells(l));
            table = Some(p.headers.len() - 1);
        } else if let Some(t) = table.filter(|_| l.starts_with("| ")) {
            let c = cells(l);
            let first = c.first().cloned().unwrap_or_default();
            let n = seen.entry((t, first.clone())).or_insert(0);
            p.rows.push(((t, first, *n), c));
            *n += 1;
            continue;
        } else if !is_rule(l) {
            table = None;
        }
        p.other.push((i + 1, l));
    }
    p
}

/// What differs between two rendered outputs. Table rows are matched by their first cell (a
/// seat; a claim's number), whatever their position, and reported by column ("seat x: Wall s
/// 132.0 → 131.0", "#1: Verdict reproduced → differs");
/// other lines by line number. Long lines and cells are cut (see `cut`).
pub(crate) fn diff_outputs(published: &str, now: &str) -> Vec<String> {
    let (a, b) = (parts(published), parts(now));
    let mut out = Vec::new();
    for i in 0..a.other.len().max(b.other.len()) {
        match (a.other.get(i), b.other.get(i)) {
            (Some((_, x)), Some((_, y))) if x == y => {}
            (Some((n, x)), Some((_, y))) => out.push(format!(
                "line {n}: {:?} → {:?}",
                cut_to(x, LINE_SHOWN),
                cut_to(y, LINE_SHOWN)
            )),
            (Some((n, x)), None) => {
                out.push(format!("line {n}: {:?} → (absent)", cut_to(x, LINE_SHOWN)))
            }
            (None, Some((n, y))) => {
                out.push(format!("line {n}: (absent) → {:?}", cut_to(y, LINE_SHOWN)))
            }
            (None, None) => {}
        }
    }
    // A row is named as its table's first column names it: a leaderboard's by seat, the
    // claims table's by its number (`#3`, as the claims listing itself names it).
    let name = |(t, first, _): &(usize, String, usize)| {
        let first = cut_to(first, VALUE_SHOWN);
        let numbered = b
            .headers
            .get(*t)
            .or_else(|| a.headers.get(*t))
            .and_then(|h| h.first())
            .is_some_and(|h| h == "#");
        if numbered {
            format!("#{first}")
        } else {
            format!("seat {first}")
        }
    };
    let row = |c: &[String]| cut_to(&c.join(" | "), LINE_SHOWN);
    let in_b: BTreeMap<&(usize, String, usize), &Vec<String>> =
        b.rows.iter().map(|(k, c)| (k, c)).collect();
    let in_a: BTreeSet<&(usize, String, usize)> = a.rows.iter().map(|(k, _)| k).collect();
    for (key, cx) in &a.rows {
        let Some(cy) = in_b.get(key) else {
            out.push(format!("{}: row removed (was {:?})", name(key), row(cx)));
            continue;
        };
        if cx == *cy {
            continue;
        }
        if cx.len() != cy.len() {
            out.push(format!("{}: {:?} → {:?}", name(key), row(cx), row(cy)));
            continue;
        }
        let header = b.headers.get(key.0).or_else(|| a.headers.get(key.0));
        let changes: Vec<String> = cx
            .iter()
            .zip(cy.iter())
            .enumerate()
            .filter(|(_, (p, q))| p != q)
            .map(|(j, (p, q))| {
                let col = header.and_then(|h| h.get(j)).map_or("?", String::as_str);
                let show = |c: &str| {
                    if c.is_empty() {
                        "(blank)".to_string()
                    } else {
                        cut(c)
                    }
                };
                format!("{col} {} → {}", show(p), show(q))
            })
            .collect();
        out.push(format!("{}: {}", name(key), changes.join("; ")));
    }
    for (key, cy) in &b.rows {
        if !in_a.contains(key) {
            out.push(format!("{}: row added ({:?})", name(key), row(cy)));
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
            format!(
                "rows in another order: {} → {}",
                cut_to(&x, LINE_SHOWN),
                cut_to(&y, LINE_SHOWN)
            )
        });
    }
    out
}

/// Whether a registered rubric's stored name and version are the ones its text declares. No
/// hash covers the stored pair (the text's hash covers the text), so an edit to it would
/// otherwise relabel a publication unseen.
pub(crate) fn rubric_name_problem(
    row: &RubricRow,
    parsed: &crate::rubric::Rubric,
) -> Option<String> {
    (row.name != parsed.name || row.version != parsed.version).then(|| {
        format!(
            "rubric {}: the ledger names it {}, but its text declares {}: the stored name was \
             edited behind benchledger's back",
            parsed.id(),
            row.id(),
            parsed.id()
        )
    })
}

/// Whether a registered price table's stored name and version are the ones its text declares
/// (as [`rubric_name_problem`] for a rubric).
pub(crate) fn prices_name_problem(
    row: &PriceTableRow,
    parsed: &crate::prices::PriceTable,
) -> Option<String> {
    (row.name != parsed.name || row.version != parsed.version).then(|| {
        format!(
            "price table {}: the ledger names it {}, but its text declares {}: the stored name \
             was edited behind benchledger's back",
            parsed.id(),
            row.id(),
            parsed.id()
        )
    })
}

/// The price table a publication names, checked against the registered text it was priced
/// with: its text parsed, and the hash the publication names; `None` when there is no table to
/// recompute with (missing, or no longer parsing). Every problem found is pushed onto
/// `problems`; one that leaves the table usable (an edited text that still parses) does not
/// stop the recomputation, so the report also says which numbers the edit moved.
fn published_prices(
    id: &PricesId,
    price_tables: &[PriceTableRow],
    problems: &mut Vec<String>,
) -> Option<crate::prices::PriceTable> {
    let label = format!("{}@{}", id.name, id.version);
    let Some(row) = price_tables
        .iter()
        .find(|r| r.name == id.name && r.version == id.version)
    else {
        problems.push(format!(
            "price table {label}, which the publication's costs were filled in from, is not in \
             the ledger under that name: it was deleted or renamed behind benchledger's back"
        ));
        return None;
    };
    let text_sha = sha256_hex(row.text.as_bytes());
    if text_sha != row.sha256 || row.sha256 != id.sha256 {
        problems.push(format!(
            "price table {label}: its text was edited behind benchledger's back (published \
             sha256 {}, the text now hashes to {})",
            short(&id.sha256),
            short(&text_sha)
        ));
    }
    let origin = std::path::PathBuf::from(format!("price table {label} (registered text)"));
    match crate::prices::parse(&origin, &row.text) {
        Ok(table) => {
            problems.extend(prices_name_problem(row, &table));
            Some(table)
        }
        Err(e) => {
            problems.push(format!("the price table text no longer parses: {e}"));
            None
        }
    }
}

/// The publication format a stored output was rendered in (1 when it names none), refused
/// when this build does not render it.
fn renderable_format(output: &str) -> Result<u32, String> {
    let format = output_format(output).unwrap_or(1);
    if (1..=OUTPUT_FORMAT).contains(&format) {
        Ok(format)
    } else {
        Err(format!(
            "it was rendered in publication format {format}, and this benchledger renders \
             formats 1 to {OUTPUT_FORMAT}: verify it with a benchledger that renders format \
             {format} (its inputs and digests are checked above)"
        ))
    }
}

/// A publication's stored text that differs from the text rendered now, said as a problem:
/// `what`, the count of the differing `lines` and `how`, then each line.
fn changed(what: &str, how: &str, lines: &[String]) -> String {
    format!(
        "{what} ({} difference{}{how}):\n{}",
        lines.len(),
        if lines.len() == 1 { "" } else { "s" },
        indent(lines)
    )
}

/// Checks a publication's record against its sha256 and its rubric's text against the
/// rubric's, adding what is wrong to `problems`; the rubric as published, or `None` when its
/// text no longer parses (nothing more can be checked then).
fn checked_rubric(
    row: &PublicationRow,
    rubric_row: &RubricRow,
    problems: &mut Vec<String>,
) -> Option<RubricInfo> {
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
    match record::publication_sha256(row.record_format, &record) {
        Ok(sha) if sha == row.sha256 => {}
        Ok(_) => problems.push(
            "the publication record was edited: its fields no longer hash to its sha256".into(),
        ),
        Err(e) => problems.push(format!("its record cannot be checked: {e}")),
    }
    let text_sha = sha256_hex(rubric_row.text.as_bytes());
    if text_sha != rubric_row.sha256 || rubric_row.sha256 != row.rubric_sha256 {
        problems.push(format!(
            "rubric {}: its text was edited behind benchledger's back (published sha256 {}, \
             the text now hashes to {})",
            rubric_row.id(),
            short(&row.rubric_sha256),
            short(&text_sha)
        ));
    }
    let origin = std::path::PathBuf::from(format!("{} (registered text)", rubric_row.id()));
    let rubric = match crate::rubric::parse(&origin, &rubric_row.text) {
        Ok(r) => r,
        Err(e) => {
            problems.push(format!("the rubric text no longer parses: {e}"));
            return None;
        }
    };
    if let Some(p) = rubric_name_problem(rubric_row, &rubric) {
        problems.push(p);
    }
    Some(RubricInfo {
        rubric,
        sha256: row.rubric_sha256.clone(),
        scale_violation: rubric_row.scale_violation,
        registered: true,
    })
}

/// Everything verify found wrong with one publication, its link in the chain aside (see
/// [`crate::chain`]); empty when it reproduces. `claims` are those the ledger keeps beside it;
/// `price_tables` are the ledger's registered price tables (the publication's input names the
/// one it used, if any); `fresh` is its wave as the ledger holds it now.
pub fn check(
    row: &PublicationRow,
    claims: &StoredClaims,
    rubric_row: &RubricRow,
    price_tables: &[PriceTableRow],
    fresh: WaveData,
) -> Vec<String> {
    let mut problems = Vec::new();
    let Some(info) = checked_rubric(row, rubric_row, &mut problems) else {
        return problems;
    };
    if sha256_hex(row.input.as_bytes()) != row.input_sha256 {
        problems.push("the stored input was edited: it no longer matches its digest".into());
    }
    let named = named(row).unwrap_or_else(|problem| {
        problems.push(problem);
        Named::default()
    });
    // Verify renders what publish rendered, from what the publication stored: its title, the
    // wave as the ledger holds it now, the rubric, and what its input names. The claims file is
    // the one stored beside it.
    let mut sources = Sources {
        title: &row.title,
        wave: fresh,
        rubric: &info,
        input_format: row.input_format,
        prices: named.prices.clone().map(|id| (id, None)),
        ci: named.ci.clone(),
        claims: None,
        output_format: None,
    };
    let input = match render_input(&sources) {
        Ok(input) => input,
        Err(e) => {
            problems.push(format!("its input cannot be recomputed: {e}"));
            return problems;
        }
    };
    if input != row.input {
        problems.push(changed(
            "input rows changed since publication",
            "",
            &diff_inputs(&row.input, &input),
        ));
    }
    if sha256_hex(row.output.as_bytes()) != row.output_sha256 {
        problems.push("the stored output was edited: it no longer matches its digest".into());
    }
    match renderable_format(&row.output) {
        Ok(format) => sources.output_format = Some(format),
        Err(problem) => {
            problems.push(problem);
            return problems;
        }
    }
    // The costs are filled in as publish filled them: from the table the input names.
    let table = match &named.prices {
        Some(id) => match published_prices(id, price_tables, &mut problems) {
            Some(table) => Some(table),
            None => return problems,
        },
        None => None,
    };
    if let Some((_, text)) = &mut sources.prices {
        *text = table.as_ref();
    }
    // The intervals are drawn again as publish drew them: from the recorded settings.
    if let Some(Err(problem)) = named.ci.as_ref().map(published_settings) {
        problems.push(problem);
        return problems;
    }
    let rubric_id = info.rubric.id();
    let claims = claims::stored(
        row.id,
        claims,
        &row.output,
        &sources.wave,
        &rubric_id,
        &mut problems,
    );
    sources.claims = claims.as_ref();
    let output = match render_text(sources, &input) {
        Ok(output) => output,
        Err(problem) => {
            problems.push(problem);
            return problems;
        }
    };
    if output != row.output {
        problems.push(changed(
            "the published leaderboard does not reproduce",
            ", published → now",
            &diff_outputs(&row.output, &output),
        ));
    }
    problems
}

/// The most differences a report lists one by one; the rest are counted. A forged wave can
/// differ in millions of values, and the first few say what happened.
pub(crate) const DIFFERENCES_SHOWN: usize = 50;

/// Differences as an indented list, the first `DIFFERENCES_SHOWN` of them, then how many
/// more there are.
pub fn indent(lines: &[String]) -> String {
    let mut out: Vec<String> = lines
        .iter()
        .take(DIFFERENCES_SHOWN)
        .map(|l| format!("      {l}"))
        .collect();
    if lines.len() > DIFFERENCES_SHOWN {
        out.push(format!(
            "      … and {} more",
            lines.len() - DIFFERENCES_SHOWN
        ));
    }
    out.join("\n")
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
    fn a_forgery_of_every_row_is_reported_in_bounded_lines() {
        // One seat of 40,000 attempts, every wall time changed, and a title a megabyte long:
        // matched by key, not by search, and cut to what a reader can take in.
        let attempts = |wall: f64| {
            (0..40_000)
                .map(|i| format!(r#"{{"problem":"p{i}","trial":1,"wall_s":{wall:?}}}"#))
                .collect::<Vec<_>>()
                .join(",")
        };
        let input = |wall: f64, title: &str| {
            format!(
                r#"{{"title":"{title}","data":{{"seats":[{{"seat":{{"id":"s1"}},"attempts":[{}]}}]}}}}"#,
                attempts(wall)
            )
        };
        let long = "x".repeat(1 << 20);
        let lines = diff_inputs(&input(1.0, "t"), &input(2.0, &long));
        assert_eq!(lines.len(), 40_001);
        assert!(
            lines.iter().all(|l| l.chars().count() < 200),
            "{}",
            lines[0]
        );
        assert_eq!(
            lines[0],
            "data.seats [seat s1].attempts [problem p0 trial 1].wall_s: 1.0 → 2.0"
        );
        assert_eq!(
            lines[40_000],
            format!("title: \"t\" → \"{}…", "x".repeat(59))
        );
        let shown = indent(&lines);
        assert_eq!(shown.lines().count(), DIFFERENCES_SHOWN + 1);
        assert!(shown.ends_with("… and 39951 more"), "{shown}");

        let table = |wall: &str| {
            let mut t = String::from("# t\n\n| Seat | Wall s |\n|---|---:|\n");
            for i in 0..40_000 {
                t.push_str(&format!("| s{i} | {wall} |\n"));
            }
            t
        };
        let lines = diff_outputs(&table("1.0"), &table(&"9".repeat(10_000)));
        assert_eq!(lines.len(), 40_000);
        assert!(
            lines.iter().all(|l| l.chars().count() < 200),
            "{}",
            lines[0]
        );
    }

    #[test]
    fn numbers_that_differ_in_the_last_digit_are_different() {
        let a = r#"{"wall_s":92435.84567380228}"#;
        let b = r#"{"wall_s":92435.84567380227}"#;
        assert_eq!(
            diff_inputs(a, b),
            vec!["wall_s: 92435.84567380228 → 92435.84567380227"]
        );
    }

    #[test]
    fn interval_settings_are_drawn_again_only_as_publish_draws_them() {
        let ci = ci_id(&Settings {
            level: 0.9,
            resamples: 500,
            seed: 7,
            method: Method::ProblemSums,
        });
        assert_eq!(ci.method, METHOD_SUMS);
        assert_eq!(
            published_settings(&ci),
            Ok(Settings {
                level: 0.9,
                resamples: 500,
                seed: 7,
                method: Method::ProblemSums,
            })
        );
        // A publication drawn before per-problem sums names the first method, and is drawn
        // again by it.
        let first = CiId {
            method: METHOD.into(),
            ..ci.clone()
        };
        assert_eq!(
            published_settings(&first).map(|s| s.method),
            Ok(Method::Attempts)
        );
        let other_method = CiId {
            method: "BCa".into(),
            ..ci.clone()
        };
        assert!(
            published_settings(&other_method)
                .unwrap_err()
                .contains("cannot be drawn again here")
        );
        // A stored setting no publish takes (a bundle from elsewhere asking for four billion
        // resamples) is refused, not run.
        for bad in [
            CiId {
                resamples: u32::MAX,
                ..ci.clone()
            },
            CiId {
                level: 1.0,
                ..ci.clone()
            },
        ] {
            assert!(
                published_settings(&bad)
                    .unwrap_err()
                    .contains("were edited"),
                "{bad:?}"
            );
        }
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
