//! What every page of the site shares: the stylesheet, the sorting script and the policy that
//! allows only it, the page's frame, tables built from a report's `Table`, and the links between
//! pages. The only markup written as it is (`PreEscaped`) is the stylesheet and the script,
//! which are constants of this file, and rows maud rendered with their end tags taken out
//! ([`without_end_tags`]).

use std::collections::BTreeSet;

use maud::{DOCTYPE, Markup, PreEscaped, html};

use super::file_name;
use crate::report::{Advice, Column, Note, Table};

pub(super) const STYLE: &str = "\
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;color:#1a1a1a;background:#fff;line-height:1.45}
main{max-width:2200px;margin:0 auto;padding:0 1.25rem 3rem}
nav{background:#f2f4f7;padding:.5rem 1rem;border-bottom:1px solid #d0d5dd}
h1{font-size:1.6rem;overflow-wrap:anywhere}.nw{white-space:nowrap}h2{font-size:1.25rem;margin-top:2rem}h3{font-size:1.05rem}
.scroll{overflow-x:auto;max-width:100%}
.scroll td:first-child,.scroll th:first-child{position:sticky;left:0;background:#fff}
.scroll th:first-child{background:#f8f9fb}
table{border-collapse:collapse;margin:.5rem 0;font-size:.9rem}
caption{text-align:left;font-weight:600;padding:.25rem 0}
th,td{padding:.25rem .45rem;border-bottom:1px solid #e4e7ec;text-align:left;vertical-align:top}
th{background:#f8f9fb;vertical-align:bottom}
.id{white-space:nowrap}
.alias{text-decoration:underline dotted #98a2b3}
code.hash{overflow-wrap:anywhere;word-break:break-all}
.hash .short{display:none;white-space:nowrap}@media (max-width:720px){.hash .whole{display:none}.hash .short{display:inline}}
p,li,figcaption{overflow-wrap:break-word}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}td.num{white-space:nowrap}
td.wrap{white-space:normal}td.wrap span{white-space:nowrap}
.note{color:#475467;font-size:.88rem;margin:.2rem 0}
.banner{background:#fff4e5;border:1px solid #f5b971;padding:.5rem .8rem;margin:1rem 0}
.pass{color:#067647}.fail{color:#b42318}.missing{color:#667085;font-style:italic}
table.matrix td.pass{background:#ecfdf3}table.matrix td.fail{background:#fef3f2}
ol.trace{margin:.2rem 0;padding-left:1.4rem}
.attempts td:first-child{white-space:nowrap}
.attempts:not(.trimmed) td:nth-child(2),.attempts:not(.trimmed) td:nth-child(n+4):nth-child(-n+8){text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
table.attempts td.gap.gap:nth-child(2){text-align:left;white-space:normal}
.bad{color:#b42318;font-weight:600}.ok{color:#067647;font-weight:600}
input.filter{margin:.4rem 0;padding:.25rem .5rem;font:inherit;font-size:.9rem;max-width:100%}
details.failing>summary h3,details.unscored>summary h3{display:inline-block;margin:1rem 0 .4rem}
.tag{display:inline-block;font-size:.75rem;padding:0 .4rem;border:1px solid #98a2b3;border-radius:.6rem;margin-left:.4rem;vertical-align:middle;font-weight:400}
pre{background:#f8f9fb;border:1px solid #e4e7ec;padding:.8rem;overflow-x:auto;font-size:.82rem}
pre.sample{white-space:pre-wrap;overflow-wrap:anywhere;margin:.3rem 0}
details.sample{margin:.3rem 0}details.sample dl{margin:.3rem 0 .6rem 1rem}details.sample dd{margin:0}
code{font-size:.88em}
@media (max-width:720px){.scroll th,.scroll td{white-space:nowrap}.scroll caption{position:sticky;left:0;max-width:calc(100vw - 2.5rem)}}
.scroll,.chart-box{background:linear-gradient(to right,#fff 30%,#fff0) 0 0/2rem 100% no-repeat local,linear-gradient(to left,#fff 30%,#fff0) 100% 0/2rem 100% no-repeat local,radial-gradient(farthest-side at 0 50%,#0003,#0000) 0 0/.8rem 100% no-repeat scroll,radial-gradient(farthest-side at 100% 50%,#0003,#0000) 100% 0/.8rem 100% no-repeat scroll}
";

/// The stylesheet's rules for charts, in a page that has one.
pub(super) const STYLE_CHARTS: &str = "\
figure{margin:1rem 0}.chart-box{overflow-x:auto;max-width:100%}figcaption{font-size:.88rem;color:#475467;max-width:60rem}
svg.chart{width:100%;height:auto;font-size:11px;font-family:inherit}
svg .grid{stroke:#e4e7ec}svg .tick{fill:#475467}svg .axis-label{fill:#1a1a1a;font-size:12px}
svg .point{fill:#fff;stroke:#2e5b9a;stroke-width:2}svg .point.pareto{fill:#2e5b9a}
svg .point.current{fill:#2e5b9a}svg .point.withdrawn{fill:#fff;stroke:#98a2b3;stroke-dasharray:2 2}
svg .point.violation{fill:#b42318;stroke:#b42318}
svg .frontier-segment,svg .frontier-key{stroke:#2e5b9a;stroke-width:2}
svg .whisker,svg .whisker-cap,svg .whisker-key{stroke:#98a2b3;stroke-width:1.5}
svg .label-leader{stroke:#98a2b3;stroke-width:1}
svg .trend,svg .slope{stroke:#667085;stroke-width:1.5;fill:none}
svg .scale-mark{stroke:#b42318;stroke-dasharray:5 4}svg .scale-label{fill:#b42318}
svg .load{fill:#6941c6;font-size:10px}svg .point-label{fill:#1a1a1a}
details{margin:.5rem 0}summary{cursor:pointer;color:#2e5b9a}
";

/// The stylesheet's rules for sorting, in a page whose tables sort (and so carry the script).
pub(super) const STYLE_SORTING: &str = "\
table[data-sortable] th{cursor:pointer}
th[data-dir=asc]::after{content:' \\25B2'}th[data-dir=desc]::after{content:' \\25BC'}
";

/// Sorts a table by the column whose header is clicked (or activated with Enter), on each
/// cell's unrounded value (`data-v`; a cell without one: a matrix cell 1 when its class is
/// `pass`, 0 when `fail`, unknown when `missing`; a number's, its text without the commas that
/// group its digits; any other, its text); unknown values sort last. Marks each table it wires with
/// `data-sortable`, so a test can tell that the page's own script ran. Then, before each
/// element marked `data-filter` (a front-page board, the seats list, a matrix), a search box
/// that hides, as one types, the rows or items whose text, hover titles (a seat's id beside its
/// name) and `data-f` (a seat's models, providers and harnesses) do not hold what is typed.
/// Without the script there is no box and everything shows.
pub(super) const SCRIPT: &str = "\
function v(c){var a=c.getAttribute('data-v'),k=c.className;return a!==null?a:k==='pass'?'1':k==='fail'?'0':k==='missing'?'':k==='num'?c.textContent.replace(/,/g,''):c.textContent}\
document.querySelectorAll('table.sortable').forEach(function(t){t.setAttribute('data-sortable','');\
t.querySelectorAll('thead th').forEach(function(h,i){h.tabIndex=0;function go(){\
var d=h.getAttribute('data-dir')==='asc'?-1:1,b=t.tBodies[0],r=Array.prototype.slice.call(b.rows);\
t.querySelectorAll('thead th').forEach(function(o){o.removeAttribute('data-dir')});h.setAttribute('data-dir',d>0?'asc':'desc');\
r.sort(function(x,y){var a=v(x.cells[i]),c=v(y.cells[i]);\
if(!a)return c?1:0;if(!c)return -1;var p=Number(a),q=Number(c);\
return (isNaN(p)||isNaN(q)?a.localeCompare(c):p-q)*d});r.forEach(function(x){b.appendChild(x)})}\
h.addEventListener('click',go);h.addEventListener('keydown',function(e){if(e.key==='Enter')go()})})});\
document.querySelectorAll('[data-filter]').forEach(function(x){var i=document.createElement('input'),w='Filter by '+x.getAttribute('data-filter');\
i.type='search';i.className='filter';i.placeholder=w;i.size=w.length;i.setAttribute('aria-label',w);x.parentNode.insertBefore(i,x);\
i.addEventListener('input',function(){var q=i.value.trim().toLowerCase();x.querySelectorAll('tbody tr,li').forEach(function(r){\
var t=(r.textContent+' '+(r.getAttribute('data-f')||'')+' '+[].map.call(r.querySelectorAll('[title]'),function(e){return e.title}).join(' ')).toLowerCase();\
r.hidden=q!==''&&t.indexOf(q)<0})})});";

/// A list in words: "a", "a or b", "a, b or c".
pub(super) fn words_list(items: &[&str], and: &str) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} {and} {last}", init.join(", ")),
    }
}

/// The page's Content-Security-Policy: nothing is fetched from anywhere but the site itself
/// (its one stylesheet and, where a table sorts, its one script, `'self'`), inline styles are
/// allowed (a chart's size, a page's own rule), and no inline script runs; a page with nothing
/// to sort (`script` false) allows no script at all.
pub(super) fn policy(script: bool) -> String {
    let scripts = if script { "'self'" } else { "'none'" };
    format!(
        "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src data:; base-uri 'none'; \
         form-action 'none'; script-src {scripts}"
    )
}

/// The site's one stylesheet (`style.css`), every page's rules and the charts' and sorting's.
pub(super) fn stylesheet() -> String {
    format!("{STYLE}{STYLE_CHARTS}{STYLE_SORTING}")
}

/// Where the stylesheet and the script are, from the site's root.
pub(super) const STYLESHEET_PATH: &str = "style.css";
pub(super) const SCRIPT_PATH: &str = "site.js";

/// A whole page: `depth` is how many directories below the site's root it lies. It links the
/// site's one stylesheet, and its one script only when a table of it sorts: a page per
/// problem, of which a site holds thousands, carries nothing but what it shows.
pub(super) fn layout(title: &str, depth: usize, body: Markup) -> String {
    layout_styled(title, depth, body, None)
}

/// [`layout`], with a rule of the page's own after the stylesheet (`own`).
pub(super) fn layout_styled(title: &str, depth: usize, body: Markup, own: Option<&str>) -> String {
    let root = "../".repeat(depth);
    let sorts = body.0.contains("class=\"sortable");
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta http-equiv="Content-Security-Policy" content=(policy(sorts));
                title { (title) " · benchledger" }
                link rel="stylesheet" href=(format!("{root}{STYLESHEET_PATH}"));
                @if let Some(own) = own { style { (PreEscaped(own)) } }
            }
            body {
                nav { a href=(format!("{root}index.html")) { "benchledger: all waves, rubrics, seats and publications" } }
                main { (body) }
                @if sorts { script src=(format!("{root}{SCRIPT_PATH}")) {} }
            }
        }
    }
    .into_string()
}

/// Table rows without the end tags HTML lets a reader infer (`</td>`, `</tr>`: a cell ends
/// where the next cell or row begins, a row where the next row or the body's end does), a fifth
/// of a row's bytes on a page of numbers such as a problem's, of which a site holds thousands
/// (issue 31.7). Only the markup's own tags are taken out: every string from the ledger in it
/// is escaped, so no text holds a `<`.
pub(super) fn without_end_tags(rows: Markup) -> Markup {
    PreEscaped(rows.0.replace("</td>", "").replace("</tr>", ""))
}

/// The longest id shown whole; a longer one is shortened in the middle.
const ID_MAX: usize = 32;

/// An id as a table or a chart shows it: whole when short, else its start and end around an
/// ellipsis, with the whole id on hover (`title`). Ids never wrap (`.id`), so a long model id
/// from an importer (`azureai-Meta-Llama-3-1-405B-Instruct-jqf`) cannot blow out a table.
pub(super) fn id_text(id: &str) -> Markup {
    match shorten(id, ID_MAX) {
        None => html! { (id) },
        Some(short) => html! { span title=(id) { (short) } },
    }
}

/// An id's value for sorting (`data-v`), when [`id_text`] shows it shortened; none when it
/// shows it whole (the script then sorts on the text).
pub(super) fn id_value(id: &str) -> Option<&str> {
    shorten(id, ID_MAX).map(|_| id)
}

/// The characters of a digest a narrow window shows: its start and end around an ellipsis.
const HASH_SHOWN: usize = 25;

/// A digest (a SHA-256 in hex, a key id) as a page shows it: whole in a wide window, and in a
/// narrow one (a phone's) shortened in the middle; whole on hover (`title`) and in the page's
/// text either way, so it can be found and copied.
pub(super) fn hash_text(h: &str) -> Markup {
    match shorten(h, HASH_SHOWN) {
        None => html! { code.hash { (h) } },
        Some(short) => html! {
            code.hash title=(h) { span.whole { (h) } span.short { (short) } }
        },
    }
}

/// `s` shortened in the middle to `max` characters, when it is longer.
pub(super) fn shorten(s: &str, max: usize) -> Option<String> {
    let n = s.chars().count();
    if n <= max {
        return None;
    }
    let head = (max - 1).div_ceil(2);
    let tail = max - 1 - head;
    let start: String = s.chars().take(head).collect();
    let end: String = s.chars().skip(n - tail).collect();
    Some(format!("{start}…{end}"))
}

/// How wide a table may be drawn, in pixels, so that it fits a 1400 px window beside the
/// page's margins with room to spare ([`estimated_width`] errs wide).
const TABLE_BUDGET: f64 = 1300.0;

/// Roughly how wide a column is drawn at its narrowest, in pixels: its longest header word (a
/// header breaks at spaces and hyphens) or its longest unbreakable cell piece ([`pieces`];
/// a text column's words, which wrap), at 8 px a character (the body's 0.9 rem type errs
/// wide at that), and the cell's padding. A text column that wraps is given at least 20
/// characters, as a browser gives it room.
fn estimated_width(c: &Column, cells: &[&str], first: bool) -> f64 {
    let header = c
        .header
        .split([' ', '-'])
        .map(|w| w.chars().count())
        .max()
        .unwrap_or(0);
    let widest = cells
        .iter()
        .map(|text| {
            let text = if first {
                shorten(text, ID_MAX).unwrap_or_else(|| text.to_string())
            } else {
                text.to_string()
            };
            if first || c.numeric {
                pieces(&text)
                    .iter()
                    .map(|p| p.chars().count())
                    .max()
                    .unwrap_or(0)
            } else {
                text.chars().count().min(20)
            }
        })
        .max()
        .unwrap_or(0);
    header.max(widest) as f64 * 8.0 + 15.0
}

/// How wide, in pixels, the columns folded off a table must be to be worth a second table:
/// about two columns of numbers. A fold narrower than this (a lone `Timeout ×` or `USD`, a new
/// user's check) is not made; the table stays whole, over [`TABLE_BUDGET`] by less than this,
/// which the estimate's erring wide takes in (a text column is counted at 20 characters where
/// a browser wraps it to its longest word; tests/site.rs checks in Chromium that no table of
/// the examples' site scrolls at 1400 px).
const FOLD_MIN: f64 = 160.0;

/// A column's header, its scale (after " · ", as a board's score column names it) kept on one
/// line: "scale 0–1" broke after the dash on a narrow column (a new user's check).
fn header(text: &str) -> Markup {
    match text.split_once(" · ") {
        Some((name, scale)) => html! { (name) " · " span.nw { (scale) } },
        None => html! { (text) },
    }
}

/// Which of a table's columns (indices into `cols`) go to the second table so that the first
/// fits [`TABLE_BUDGET`]: the first column never; the least important first (the order a
/// narrow terminal leaves them out in), the rightmost of equals first. None when those
/// columns would be narrower together than [`FOLD_MIN`].
fn folded(t: &Table, cols: &[(usize, &Column)]) -> Vec<usize> {
    let widths: Vec<f64> = cols
        .iter()
        .enumerate()
        .map(|(k, (i, c))| {
            let cells: Vec<&str> = t.rows.iter().map(|r| r[*i].human.as_str()).collect();
            estimated_width(c, &cells, k == 0)
        })
        .collect();
    let mut total: f64 = widths.iter().sum();
    let mut order: Vec<usize> = (1..cols.len()).collect();
    order.sort_by(|&a, &b| cols[b].1.priority.cmp(&cols[a].1.priority).then(b.cmp(&a)));
    let mut out = Vec::new();
    for k in order {
        if total <= TABLE_BUDGET {
            break;
        }
        total -= widths[k];
        out.push(k);
    }
    if out.iter().map(|&k| widths[k]).sum::<f64>() < FOLD_MIN {
        return Vec::new();
    }
    out.sort_unstable();
    out
}

/// A listing as HTML tables: the columns people see, each cell's unrounded value in `data-v`
/// (what sorting uses), the first column linked where `links` says. When the columns would
/// not fit a 1400 px window, the least important ones ([`folded`]) go to a second table of
/// the same rows under it, led by the same first column: nothing is hidden behind a scrollbar.
/// A column or two of numbers too narrow to be worth a table of their own stay in the first.
/// A column no row records is left out ([`Table::without_unknown_columns`]), with its note.
pub(super) fn table(t: &Table, caption: Option<&str>, links: &[Option<String>]) -> Markup {
    // A column no row records is left out, and one note under the table says so.
    let (t, unrecorded) = t.without_unknown_columns();
    let unrecorded = html! { @if let Some(n) = unrecorded { p.note.unrecorded { (n) } } };
    let t = &crate::report::with_significant_costs(&t);
    let cols: Vec<(usize, &Column)> = t
        .columns
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.machine_only)
        .collect();
    let rest = folded(t, &cols);
    if rest.is_empty() {
        return html! { (one_table(t, caption, links, &cols)) (unrecorded) };
    }
    let first: Vec<(usize, &Column)> = cols
        .iter()
        .enumerate()
        .filter(|(k, _)| !rest.contains(k))
        .map(|(_, c)| *c)
        .collect();
    let second: Vec<(usize, &Column)> = std::iter::once(cols[0])
        .chain(rest.iter().map(|&k| cols[k]))
        .collect();
    let names: Vec<&str> = rest.iter().map(|&k| cols[k].1.header.as_str()).collect();
    let more = format!(
        "{}, continued: {}",
        caption.unwrap_or("The table above"),
        names.join(", ")
    );
    html! {
        (one_table(t, caption, links, &first))
        (one_table(t, Some(&more), links, &second))
        (unrecorded)
    }
}

/// One HTML table of `t`'s rows, in the columns `cols`, the first of them the row's name. Its
/// rows leave out the end tags HTML lets a reader infer ([`without_end_tags`]), and a cell
/// whose text is its value carries no `data-v` (the script sorts it on its text): issue 31.7.
fn one_table(
    t: &Table,
    caption: Option<&str>,
    links: &[Option<String>],
    cols: &[(usize, &Column)],
) -> Markup {
    html! {
        div.scroll {
            table.sortable {
                @if let Some(c) = caption { caption { (c) } }
                thead { tr { @for (_, c) in cols { th.num[c.numeric] scope="col" { (header(&c.header)) } } } }
                tbody {
                    (without_end_tags(html! { @for (r, row) in t.rows.iter().enumerate() {
                        tr {
                            @for (k, (i, c)) in cols.iter().enumerate() {
                                @let link = if k == 0 { links.get(r).cloned().flatten() } else { None };
                                (one_cell(&row[*i], c, k == 0, link))
                            }
                        }
                    } }))
                }
            }
        }
    }
}

/// A cell of [`one_table`]: the first column's (the row's name, linked where `link` says, an
/// id shortened in the middle or a display name with the id on hover), or a figure's (broken
/// only into its [`pieces`]), or a model's ([`model_name`]). Its unrounded value is in `data-v`
/// unless the cell's text is that value already.
fn one_cell(cell: &crate::report::Cell, c: &Column, first: bool, link: Option<String>) -> Markup {
    // Whether the cell's text is its value (a number's, once the commas grouping its digits
    // are taken out, as the script takes them out), when that is all it shows (no piece broken
    // off, no id shortened): then the value need not be said twice.
    let plain = cell.human == cell.machine
        || (c.numeric && !first && cell.human.replace(',', "") == cell.machine);
    if first {
        // A seat shown by its display name has its id on hover.
        let whole = shorten(&cell.human, ID_MAX).is_none();
        let shown = if !plain && !cell.machine.is_empty() && whole {
            html! { span title=(cell.machine) { (cell.human) } }
        } else {
            id_text(&cell.human)
        };
        let v = (!(plain && whole)).then_some(&cell.machine);
        return html! {
            td.id data-v=[v] {
                @if let Some(href) = link { a href=(href) { (shown) } }
                @else { (shown) }
            }
        };
    }
    let pieces = if c.numeric {
        pieces(&cell.human)
    } else {
        vec![cell.human.as_str()]
    };
    let v = (!plain || pieces.len() > 1).then_some(&cell.machine);
    html! {
        @if pieces.len() > 1 {
            td.num[c.numeric].wrap data-v=[v] {
                @for (k, p) in pieces.iter().enumerate() {
                    @if k > 0 && p.starts_with('(') { " " }
                    span { (p) }
                }
            }
        } @else if c.key == "model" {
            td data-v=[v] { (model_name(&cell.human)) }
        } @else if c.numeric {
            td.num data-v=[v] { (cell.human) }
        } @else {
            td data-v=[v] { (cell.human) }
        }
    }
}

/// The canonical id benchledger's model table (`models/aliases.v1.toml`) gives a model written
/// `name`, when it knows the model and writes it otherwise: `claude-sonnet-4-5` for
/// `claude-sonnet-4.5` or `anthropic/claude-sonnet-4-5-20250929`.
pub(super) fn canonical_model(name: &str) -> Option<&'static str> {
    crate::models::table()
        .resolve(name)
        .map(|m| m.canonical.as_str())
        .filter(|c| !c.eq_ignore_ascii_case(name.trim()))
}

/// A model's name as its results wrote it, with the canonical id on hover when the model table
/// writes it otherwise, so that the same model written two ways by two harnesses reads as one
/// (and a filter finds both under either name). Seats keep the name their files used.
pub(super) fn model_name(name: &str) -> Markup {
    match canonical_model(name) {
        Some(c) => {
            html! { span.alias title=(format!("{c} in benchledger's model table")) { (name) } }
        }
        None => html! { (name) },
    }
}

/// A cell's text in the pieces it may be broken into when its column must narrow: after an
/// interval's dash (`$0.0000123–` `$0.0000280`) and before a parenthesis (`$0.0000550`
/// `(5 of 6)`); each piece stays whole. One piece when there is nowhere to break.
pub(super) fn pieces(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, ch) in text.char_indices() {
        let cut = match ch {
            '–' => Some(i + ch.len_utf8()),
            '(' if i > 0 && text[..i].ends_with(' ') => Some(i),
            _ => None,
        };
        if let Some(at) = cut
            && at > start
            && at < text.len()
        {
            out.push(text[start..at].trim_end());
            start = at;
        }
    }
    out.push(&text[start..]);
    out
}

/// The notes under a table that this page has not printed yet: a footnote appears once per page.
/// Advice is said in the words of the face that made the site (`words`, [`super::Input::advice`]).
pub(super) fn notes(lines: &[Note], seen: &mut BTreeSet<String>, words: Words) -> Markup {
    html! {
        @for n in lines.iter().map(|n| said(n, words)) {
            @if seen.insert(n.clone()) { p.note { (code_spans(&n)) } }
        }
    }
}

/// A note's text with each span between a pair of backticks (a command, a file) set as
/// `<code>`, as the rest of the site sets them; the text is escaped either way, and a backtick
/// without a partner stays as it is.
pub(super) fn code_spans(text: &str) -> Markup {
    html! {
        @for (code, s) in split_code(text) {
            @if code { code { (s) } } @else { (s) }
        }
    }
}

/// `text` in its plain and code pieces (`true`: between a pair of backticks, which are
/// dropped), in order; empty plain pieces are left out.
pub(super) fn split_code(text: &str) -> Vec<(bool, &str)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        let Some(len) = rest[open + 1..].find('`') else {
            break;
        };
        if open > 0 {
            out.push((false, &rest[..open]));
        }
        out.push((true, &rest[open + 1..open + 1 + len]));
        rest = &rest[open + 2 + len..];
    }
    if !rest.is_empty() {
        out.push((false, rest));
    }
    out
}

/// Which price table filled in a wave's costs (`site --prices`), in the words a listing the
/// table priced says it ([`crate::report::prices::mark`]): the table, what it set and its
/// source, then each seat it could not price. Nothing when no table priced the wave.
pub(super) fn priced_by(w: &super::WaveInput) -> Markup {
    let mut t = Table::new(Vec::new());
    crate::report::prices::mark(&mut t, &(), w.pricing.as_ref());
    html! {
        @for line in &t.heading { p.note.prices { (code_spans(line)) } }
        @for n in t.notes.iter().map(ToString::to_string) { p.note.prices { (code_spans(&n)) } }
    }
}

/// How a face words advice ([`super::Input::advice`]).
pub(super) type Words = fn(&Advice) -> String;

/// A note as the site prints it: advice in the face's words, the rest in the library's.
fn said(n: &Note, words: Words) -> String {
    match n {
        Note::Advice(a) => words(a),
        Note::Text(s) => s.clone(),
    }
}

pub(super) fn wave_href(depth: usize, wave: &str) -> String {
    format!("{}waves/{}.html", "../".repeat(depth), file_name(wave))
}

pub(super) fn seat_href(depth: usize, seat: &str) -> String {
    format!("{}seats/{}.html", "../".repeat(depth), file_name(seat))
}

pub(super) fn publication_file(id: i64) -> String {
    format!("publications/{id}")
}

/// "1 seat", "2 seats".
pub(super) fn count(n: u64, one: &str) -> String {
    format!("{n} {one}{}", if n == 1 { "" } else { "s" })
}

/// The conditions of a wave in one line: suite, start, load, accounting, budget.
pub(super) fn conditions_line(w: &super::WaveInput) -> String {
    crate::report::waves::wave_heading(&w.data.wave)
        .into_iter()
        .skip(1)
        .collect::<Vec<_>>()
        .join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table just over the budget once kept its seat and figures in one table and folded a
    /// lone narrow column (`Timeout ×`) into a second table of its own (a new user's check);
    /// a fold as wide as a column of text still makes its second table.
    #[test]
    fn a_lone_narrow_column_is_not_folded_into_a_table_of_its_own() {
        use crate::report::{Cell, DETAIL};
        let tables = |last: Column, cell: &str| {
            let mut columns = vec![Column::text("Wave", "wave")];
            columns.extend((0..10).map(|k| Column::num("Figure", &format!("f{k}"))));
            columns.push(last);
            let mut t = Table::new(columns);
            let mut row = vec![Cell::text("w")];
            row.extend((0..10).map(|_| Cell::text("1,000,000,000")));
            row.push(Cell::text(cell));
            t.rows.push(row);
            let page = table(&t, Some("Waves"), &[None]).into_string();
            (page.matches("<table").count(), page)
        };
        // 47 + 10 × 119 + 71 px: over the budget by less than the Timeout × column.
        let (n, page) = tables(Column::num("Timeout ×", "timeout").priority(DETAIL), "2");
        assert_eq!(n, 1, "{page}");
        assert!(page.contains(">Timeout ×</th>") && !page.contains("continued"));
        let (n, page) = tables(
            Column::text("Remark", "remark").priority(DETAIL),
            "failed gate correct-rate at least one half",
        );
        assert_eq!(n, 2, "{page}");
        assert!(page.contains("Waves, continued: Remark"), "{page}");
    }

    #[test]
    fn a_long_id_is_shortened_in_the_middle() {
        assert_eq!(shorten("openai-react", 32), None);
        let long = "azureai-Meta-Llama-3-1-405B-Instruct-jqf";
        let s = shorten(long, 32).unwrap();
        assert_eq!(s, "azureai-Meta-Lla…5B-Instruct-jqf");
        assert_eq!(s.chars().count(), 32);
        let page = id_text(long).into_string();
        assert!(page.contains(&format!("title=\"{long}\"")));
    }

    #[test]
    fn a_cell_breaks_only_after_an_intervals_dash_and_before_a_parenthesis() {
        assert_eq!(
            pieces("$0.0000123–$0.0000280"),
            ["$0.0000123–", "$0.0000280"]
        );
        assert_eq!(pieces("$0.0000550 (5 of 6)"), ["$0.0000550", "(5 of 6)"]);
        assert_eq!(pieces("5/6 83.3%"), ["5/6 83.3%"]);
        assert_eq!(pieces("1–3 ≈"), ["1–", "3 ≈"]);
        assert_eq!(pieces("—"), ["—"]);
        assert_eq!(pieces("(x)"), ["(x)"]);
    }

    #[test]
    fn a_hash_is_whole_on_hover_and_shortened_in_the_middle_for_a_narrow_window() {
        let h = "f1e2d5f4953cc72c51dc15820c5809510c51dac81ae044754eea684a52081b67";
        assert_eq!(
            hash_text(h).into_string(),
            format!(
                "<code class=\"hash\" title=\"{h}\"><span class=\"whole\">{h}</span>\
                 <span class=\"short\">f1e2d5f4953c…684a52081b67</span></code>"
            )
        );
        assert!(STYLE.contains("@media (max-width:720px){.hash .whole{display:none}"));
        assert_eq!(
            hash_text("(none: the first)").into_string(),
            "<code class=\"hash\">(none: the first)</code>"
        );
    }

    /// Advice is said in the words the face passes in (the command line's name its commands);
    /// the library's own name none. A note appears once a page either way.
    #[test]
    fn advice_is_said_in_the_faces_words() {
        let groups = Note::Advice(Advice::Groups {
            summary: "Group: a.".into(),
            wave: "w".into(),
        });
        let lines = [groups.clone(), Note::Text("plain".into()), groups];
        fn cli(a: &Advice) -> String {
            format!("{a} Every pair: `tool versus`.")
        }
        let page = notes(&lines, &mut BTreeSet::new(), cli).into_string();
        assert_eq!(
            page,
            "<p class=\"note\">Group: a. Every pair: <code>tool versus</code>.</p><p class=\"note\">plain</p>"
        );
        let library = (super::super::Input::default().advice)(&Advice::NoWaves);
        assert_eq!(library, "No waves yet.");
    }

    /// A pair of backticks sets its text as code, escaped; a backtick without a partner, and
    /// text with none, are left as they are.
    #[test]
    fn backticked_spans_are_set_as_code() {
        assert_eq!(
            split_code("Run `a --b` then `c`."),
            [
                (false, "Run "),
                (true, "a --b"),
                (false, " then "),
                (true, "c"),
                (false, ".")
            ]
        );
        assert_eq!(
            split_code("`x` and ` alone"),
            [(true, "x"), (false, " and ` alone")]
        );
        assert_eq!(split_code("no code here"), [(false, "no code here")]);
        assert_eq!(split_code(""), Vec::<(bool, &str)>::new());
        assert_eq!(
            code_spans("Run `a <b> & c` or ` not").into_string(),
            "Run <code>a &lt;b&gt; &amp; c</code> or ` not"
        );
        assert_eq!(code_spans("plain <i>").into_string(), "plain &lt;i&gt;");
    }

    #[test]
    fn the_policy_allows_only_the_sites_own_script() {
        let p = policy(true);
        assert!(p.starts_with("default-src 'none';"));
        assert!(p.ends_with("script-src 'self'"), "{p}");
        assert!(!p.contains("script-src 'unsafe"));
        let t = Table::new(vec![Column::text("Seat", "seat")]);
        let page = layout("t", 2, table(&t, None, &[]));
        assert!(
            page.contains("<script src=\"../../site.js\"></script>"),
            "{page}"
        );
        assert!(page.contains("<link rel=\"stylesheet\" href=\"../../style.css\">"));
        assert!(page.contains(&policy(true)));
        // No inline script or stylesheet: the site's own files hold them.
        assert!(
            !page.contains("<script>") && !page.contains("<style>"),
            "{page}"
        );
        // A page with nothing to sort runs no script at all, and its policy allows none.
        let page = layout("t", 0, html! { p { "x" } });
        assert!(!page.contains("<script"), "{page}");
        assert!(page.contains("script-src 'none'"));
        // A page's own rule, after the stylesheet.
        let page = layout_styled("t", 0, html! { p { "x" } }, Some("p{color:red}"));
        assert!(
            page.contains("href=\"style.css\"><style>p{color:red}</style>"),
            "{page}"
        );
        let css = stylesheet();
        assert!(css.contains(STYLE) && css.contains(STYLE_CHARTS) && css.contains(STYLE_SORTING));
    }
}
