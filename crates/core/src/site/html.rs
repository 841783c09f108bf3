//! What every page of the site shares: the stylesheet, the sorting script and the policy that
//! allows only it, the page's frame, tables built from a report's `Table`, and the links between
//! pages. The only markup written as it is (`PreEscaped`) is the stylesheet and the script,
//! which are constants of this file.

use std::collections::BTreeSet;

use maud::{DOCTYPE, Markup, PreEscaped, html};
use sha2::Digest;

use super::file_name;
use crate::report::{Advice, Column, Note, Table};

pub(super) const STYLE: &str = "\
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;color:#1a1a1a;background:#fff;line-height:1.45}
main{max-width:2200px;margin:0 auto;padding:0 1.25rem 3rem}
nav{background:#f2f4f7;padding:.5rem 1rem;border-bottom:1px solid #d0d5dd}
h1{font-size:1.6rem}h2{font-size:1.25rem;margin-top:2rem}h3{font-size:1.05rem}
.scroll{overflow-x:auto;max-width:100%}
.scroll td:first-child,.scroll th:first-child{position:sticky;left:0;background:#fff}
.scroll th:first-child{background:#f8f9fb}
table{border-collapse:collapse;margin:.5rem 0;font-size:.9rem}
caption{text-align:left;font-weight:600;padding:.25rem 0}
th,td{padding:.25rem .45rem;border-bottom:1px solid #e4e7ec;text-align:left;vertical-align:top}
th{background:#f8f9fb;vertical-align:bottom}
.id{white-space:nowrap}
code.hash{overflow-wrap:anywhere;word-break:break-all}
p,li,figcaption{overflow-wrap:break-word}
table[data-sortable] th{cursor:pointer}
th[data-dir=asc]::after{content:' \\25B2'}th[data-dir=desc]::after{content:' \\25BC'}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}td.num{white-space:nowrap}
.note{color:#475467;font-size:.88rem;margin:.2rem 0}
.banner{background:#fff4e5;border:1px solid #f5b971;padding:.5rem .8rem;margin:1rem 0}
.pass{color:#067647}.fail{color:#b42318}.missing{color:#667085;font-style:italic}
table.matrix td.pass{background:#ecfdf3}table.matrix td.fail{background:#fef3f2}
ol.trace{margin:.2rem 0;padding-left:1.4rem}
.bad{color:#b42318;font-weight:600}.ok{color:#067647;font-weight:600}
.tag{display:inline-block;font-size:.75rem;padding:0 .4rem;border:1px solid #98a2b3;border-radius:.6rem;margin-left:.4rem;vertical-align:middle;font-weight:400}
pre{background:#f8f9fb;border:1px solid #e4e7ec;padding:.8rem;overflow-x:auto;font-size:.82rem}
code{font-size:.88em}
figure{margin:1rem 0}figcaption{font-size:.88rem;color:#475467;max-width:60rem}
svg.chart{width:100%;height:auto;font-size:11px;font-family:inherit}
svg .grid{stroke:#e4e7ec}svg .tick{fill:#475467}svg .axis-label{fill:#1a1a1a;font-size:12px}
svg .point{fill:#fff;stroke:#2e5b9a;stroke-width:2}svg .point.pareto{fill:#2e5b9a}
svg .point.withdrawn{fill:#fff;stroke:#98a2b3;stroke-dasharray:2 2}
svg .point.violation{fill:#b42318;stroke:#b42318}
svg .frontier-segment,svg .frontier-key{stroke:#2e5b9a;stroke-width:2}
svg .whisker{stroke:#2e5b9a;stroke-width:1.5}
svg .trend,svg .slope{stroke:#667085;stroke-width:1.5;fill:none}
svg .scale-mark{stroke:#b42318;stroke-dasharray:5 4}svg .scale-label{fill:#b42318}
svg .load{fill:#6941c6;font-size:10px}svg .point-label{fill:#1a1a1a}
details{margin:.5rem 0}summary{cursor:pointer;color:#2e5b9a}
";

/// Sorts a table by the column whose header is clicked (or activated with Enter), on each
/// cell's unrounded value (`data-v`); unknown values sort last. Marks each table it wires with
/// `data-sortable`, so a test can tell that the page's own script ran.
pub(super) const SCRIPT: &str = "\
document.querySelectorAll('table.sortable').forEach(function(t){t.setAttribute('data-sortable','');\
t.querySelectorAll('thead th').forEach(function(h,i){h.tabIndex=0;function go(){\
var d=h.getAttribute('data-dir')==='asc'?-1:1,b=t.tBodies[0],r=Array.prototype.slice.call(b.rows);\
t.querySelectorAll('thead th').forEach(function(o){o.removeAttribute('data-dir')});h.setAttribute('data-dir',d>0?'asc':'desc');\
r.sort(function(x,y){var a=x.cells[i].getAttribute('data-v'),c=y.cells[i].getAttribute('data-v');\
if(!a)return c?1:0;if(!c)return -1;var p=Number(a),q=Number(c);\
return (isNaN(p)||isNaN(q)?a.localeCompare(c):p-q)*d});r.forEach(function(x){b.appendChild(x)})}\
h.addEventListener('click',go);h.addEventListener('keydown',function(e){if(e.key==='Enter')go()})})});";

/// Standard base64 of some bytes (for the script's hash in the page's policy).
pub(super) fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(A[((n >> (18 - 6 * k)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The page's Content-Security-Policy: nothing is fetched from anywhere, inline styles are
/// allowed, and the only script that may run is the one above.
pub(super) fn policy() -> String {
    format!(
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; \
         form-action 'none'; script-src 'sha256-{}'",
        base64(&sha2::Sha256::digest(SCRIPT.as_bytes()))
    )
}

/// A whole page: `depth` is how many directories below the site's root it lies.
pub(super) fn layout(title: &str, depth: usize, body: Markup) -> String {
    let root = "../".repeat(depth);
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta http-equiv="Content-Security-Policy" content=(policy());
                meta name="generator" content="benchledger";
                title { (title) " · benchledger" }
                style { (PreEscaped(STYLE)) }
            }
            body {
                nav { a href=(format!("{root}index.html")) { "benchledger: all waves, rubrics, seats and publications" } }
                main { (body) }
                script { (PreEscaped(SCRIPT)) }
            }
        }
    }
    .into_string()
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

/// A listing as an HTML table: the columns people see, each cell's unrounded value in
/// `data-v` (what sorting uses), the first column linked where `links` says.
pub(super) fn table(t: &Table, caption: Option<&str>, links: &[Option<String>]) -> Markup {
    let t = &crate::report::with_significant_costs(t);
    let cols: Vec<(usize, &Column)> = t
        .columns
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.machine_only)
        .collect();
    html! {
        div.scroll {
            table.sortable {
                @if let Some(c) = caption { caption { (c) } }
                thead { tr { @for (_, c) in &cols { th.num[c.numeric] scope="col" { (c.header) } } } }
                tbody {
                    @for (r, row) in t.rows.iter().enumerate() {
                        tr {
                            @for (k, (i, c)) in cols.iter().enumerate() {
                                @let cell = &row[*i];
                                @let link = if k == 0 { links.get(r).cloned().flatten() } else { None };
                                @if k == 0 {
                                    // A seat shown by its display name has its id on hover.
                                    @let shown = if cell.human != cell.machine && !cell.machine.is_empty() && shorten(&cell.human, ID_MAX).is_none() {
                                        html! { span title=(cell.machine) { (cell.human) } }
                                    } else {
                                        id_text(&cell.human)
                                    };
                                    td.id data-v=(cell.machine) {
                                        @if let Some(href) = link { a href=(href) { (shown) } }
                                        @else { (shown) }
                                    }
                                } @else {
                                    td.num[c.numeric] data-v=(cell.machine) { (cell.human) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The notes under a table that this page has not printed yet: a footnote appears once per page.
pub(super) fn notes(lines: &[Note], seen: &mut BTreeSet<String>) -> Markup {
    html! {
        @for n in lines.iter().map(said) {
            @if seen.insert(n.clone()) { p.note { (n) } }
        }
    }
}

/// A note as the site prints it. The site is read beside the command line and names its
/// commands on every page, so advice that can reach a site page (an empty waves listing, a
/// seat's trials, a leaderboard's tie groups) is said with them, as the command line says it; the rest in the library's
/// own words.
fn said(n: &Note) -> String {
    match n {
        Note::Advice(Advice::NoWaves) => {
            "No waves yet: add one with `benchledger ingest MANIFEST.toml`.".into()
        }
        Note::Advice(Advice::Trials { summary, wave }) => {
            format!("{summary} See `benchledger trials {wave}`.")
        }
        Note::Advice(Advice::Groups { summary, wave }) => {
            format!("{summary} Every pair: `benchledger versus --wave {wave} --all`.")
        }
        n => n.to_string(),
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
    fn base64_matches_the_standard_vectors() {
        for (raw, enc) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(raw.as_bytes()), enc);
        }
    }

    #[test]
    fn the_policy_allows_only_the_pages_own_script() {
        let p = policy();
        assert!(p.starts_with("default-src 'none';"));
        assert!(!p.contains("unsafe-inline'; script") && !p.contains("script-src 'unsafe"));
        let page = layout("t", 0, html! { p { "x" } });
        assert!(page.contains(&format!("<script>{SCRIPT}</script>")));
    }
}
