//! The static site, rendered in a real browser: headless Chromium loads each page from
//! `file://`, runs its script, and the DOM it ends with is checked — the tables hold the right
//! rows in the right order, the charts the right number of points and frontier segments — and a
//! screenshot of each kind of page is kept under `target/site-screenshots/`. A wave whose
//! strings are markup and script renders them as text, and no script of theirs runs.
//!
//! Chromium is Debian's `chromium` (or `$CHROMIUM`). Without one these tests say so and pass,
//! except under `CI=true`, where they fail: CI installs it (`.ci/run`).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Env;

/// The browser, or `None` (having said why) when there is none and this is not CI.
fn chromium() -> Option<PathBuf> {
    let named = std::env::var_os("CHROMIUM").map(PathBuf::from);
    let found = named.or_else(|| {
        ["chromium", "chromium-browser", "google-chrome"]
            .iter()
            .find_map(|name| {
                std::env::var_os("PATH").and_then(|paths| {
                    std::env::split_paths(&paths)
                        .map(|d| d.join(name))
                        .find(|p| p.is_file())
                })
            })
    });
    if found.is_none() {
        let msg = "no Chromium found (looked for $CHROMIUM, chromium, chromium-browser, \
                   google-chrome on PATH): the site's browser tests cannot run. Install it with \
                   `apt-get install chromium`";
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{msg}");
        eprintln!("SKIPPED: {msg}");
    }
    found
}

/// Runs headless Chromium on a page with these extra arguments, returning its stdout.
fn browse(chromium: &Path, page: &Path, extra: &[&str]) -> String {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(
        out.status.success(),
        "chromium failed on {}: {}",
        page.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("the DOM is UTF-8")
}

/// The DOM of a page after its scripts ran.
fn dom(chromium: &Path, page: &Path) -> String {
    let d = browse(chromium, page, &["--dump-dom"]);
    assert!(d.contains("</html>"), "no DOM for {}:\n{d}", page.display());
    d
}

/// Keeps a screenshot of a page under target/site-screenshots/NAME.png.
fn screenshot(chromium: &Path, page: &Path, name: &str) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("site-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join(format!("{name}.png"));
    let _ = std::fs::remove_file(&png);
    browse(
        chromium,
        page,
        &[
            &format!("--screenshot={}", png.display()),
            "--window-size=1200,1800",
        ],
    );
    let bytes = std::fs::read(&png).unwrap_or_else(|e| panic!("{}: {e}", png.display()));
    assert!(
        bytes.starts_with(b"\x89PNG") && bytes.len() > 10_000,
        "{name}"
    );
}

/// What a page looks like in a window of this size: the window's width, the document's, each
/// table box (`.scroll`) whose table is wider than the box (its caption or first header, and
/// the two widths), each hash broken over lines (`broken`: a hash is shown whole where it
/// fits and shortened in the middle where it does not, never broken anywhere), and each pair
/// of texts in a chart whose boxes overlap (`overlaps`: an axis's label over its ticks, a
/// slanted wave id over the axis's label), and the cost–accuracy charts narrower than their
/// box (`narrow`), and the charts drawn at less than 0.69 of their size (`small`: their 10 px
/// text under 7 px; a chart keeps a width and scrolls in its figure instead). The page is framed, unchanged (its own policy and script in force), in
/// a page of the test's that measures it once it has loaded: headless Chromium's own window is
/// never narrower than 500 px, a frame is.
fn measure(chromium: &Path, page: &Path, width: u32, height: u32) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let frame = dir.path().join("frame.html");
    std::fs::write(
        &frame,
        format!(
            "<!DOCTYPE html><html><body style=\"margin:0\"><iframe id=f src=\"file://{}\" \
             width={width} height={height} style=\"border:0\"></iframe><pre id=out></pre>\
             <script>document.getElementById('f').onload=function(){{\
             var w=this.contentWindow,d=w.document,o=[];\
             d.querySelectorAll('.scroll').forEach(function(b){{if(b.scrollWidth>b.clientWidth+1)\
             {{var c=b.querySelector('caption,th');o.push((c?c.textContent:'?')+' '+b.scrollWidth+'>'+b.clientWidth)}}}});\
             var h=[];d.querySelectorAll('code.hash').forEach(function(c){{if(c.getClientRects().length>1)\
             h.push(c.textContent)}});\
             var v=[];d.querySelectorAll('svg').forEach(function(s){{var t=[].slice.call(s.querySelectorAll('text'))\
             .map(function(e){{return [e.textContent,e.getBoundingClientRect()]}}).filter(function(e){{return e[1].width>0}});\
             t.forEach(function(a,i){{t.slice(i+1).forEach(function(b){{\
             if(Math.min(a[1].right,b[1].right)-Math.max(a[1].left,b[1].left)>1&&Math.min(a[1].bottom,b[1].bottom)-Math.max(a[1].top,b[1].top)>1)\
             v.push(a[0]+' / '+b[0])}})}})}});\
             var n=[];d.querySelectorAll('svg.chart[id^=frontier]').forEach(function(s){{\
             var r=s.getBoundingClientRect().width,p=s.parentElement.clientWidth;if(r<0.95*p)n.push(s.id+' '+r+'<'+p)}});\
             var m=[];d.querySelectorAll('svg.chart').forEach(function(s){{\
             var k=s.getBoundingClientRect().width/s.viewBox.baseVal.width;if(k<0.69)m.push(s.id+' '+k)}});\
             var q=[],sc=0;d.querySelectorAll('.scroll,.chart-box').forEach(function(b){{if(b.scrollWidth>b.clientWidth+1){{sc++;\
             if(w.getComputedStyle(b).backgroundImage.indexOf('gradient')<0)q.push(b.className+' '+b.scrollWidth+'>'+b.clientWidth)}}}});\
             {{CROSSINGS}}{{BLANK}}{{CAPTIONS}}\
             document.getElementById('out').textContent=JSON.stringify({{window:w.innerWidth,\
             document:d.documentElement.scrollWidth,clipped:o,broken:h,overlaps:v,narrow:n,small:m,\
             crossings:x,blank:e,cut:u,cueless:q,scrolled:sc}})}}</script></body></html>",
            page.display()
        )
        .replace("{CROSSINGS}", CROSSINGS)
        .replace("{BLANK}", BLANK)
        .replace("{CAPTIONS}", CAPTIONS),
    )
    .unwrap();
    let out = browse(
        chromium,
        &frame,
        &[
            "--allow-file-access-from-files",
            &format!("--window-size={},{}", width + 100, height + 100),
            "--virtual-time-budget=5000",
            "--dump-dom",
        ],
    );
    let json = between(&out, "<pre id=\"out\">", "</pre>")
        .trim_start_matches("<pre id=\"out\">")
        .replace("&gt;", ">")
        .replace("&lt;", "<")
        .replace("&amp;", "&");
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{}: {e}: {out}", page.display()))
}

/// [`measure`]'s `crossings`: each seat's label in a chart, or a scale's label in a slope chart
/// (its box, as drawn, less half a pixel each side), that a whisker, a whisker's cap, a segment
/// of the frontier, a seat's line or a scale's line in a slope chart, or a point crosses (issue
/// 31.4; the slope chart's: issue 31's new-user check), in the chart's own coordinates.
const CROSSINGS: &str = "var x=[];d.querySelectorAll('svg.chart').forEach(function(s){\
var ls=[].map.call(s.querySelectorAll('text.point-label,text.scale-label'),function(t){var b=t.getBBox();\
return [t.textContent,b.x+.5,b.y+.5,b.x+b.width-.5,b.y+b.height-.5]});\
function hit(l,a,b,c,e){var t0=0,t1=1,dx=c-a,dy=e-b,p=[-dx,dx,-dy,dy],q=[a-l[1],l[3]-a,b-l[2],l[4]-b];\
for(var i=0;i<4;i++){if(p[i]===0){if(q[i]<0)return false}else{var r=q[i]/p[i];\
if(p[i]<0){if(r>t1)return false;if(r>t0)t0=r}else{if(r<t0)return false;if(r<t1)t1=r}}}return true}\
s.querySelectorAll('line.whisker,line.whisker-cap,line.frontier-segment,line.slope,line.scale-mark').forEach(function(e){\
var a=+e.getAttribute('x1'),b=+e.getAttribute('y1'),c=+e.getAttribute('x2'),f=+e.getAttribute('y2');\
ls.forEach(function(l){if(hit(l,a,b,c,f))x.push(l[0]+' / '+e.getAttribute('class'))})});\
s.querySelectorAll('circle.point:not(.key)').forEach(function(e){var a=+e.getAttribute('cx'),\
b=+e.getAttribute('cy'),r=+e.getAttribute('r');ls.forEach(function(l){var nx=Math.max(l[1],Math.min(a,l[3])),\
ny=Math.max(l[2],Math.min(b,l[4]));if((nx-a)*(nx-a)+(ny-b)*(ny-b)<r*r)\
x.push(l[0]+' / point '+(e.getAttribute('data-seat')||e.getAttribute('data-wave')||''))})})});";

/// [`measure`]'s `blank`: each table row shown whose tallest cell's text (as shown: a closed
/// trace counts by its summary) is more than one and a half lines taller than its shortest's,
/// so that the other cells carry more than a line of blank space (issue 31.4): the difference
/// in pixels and the tallest cell's text.
const BLANK: &str = "var e=[];function tall(c){var it=d.createTreeWalker(c,4),n,t=1e9,b=-1e9;\
while(n=it.nextNode()){if(!n.parentElement.checkVisibility())continue;var g=d.createRange();g.selectNodeContents(n);\
[].forEach.call(g.getClientRects(),function(r){if(r.width>0&&r.height>0){t=Math.min(t,r.top);b=Math.max(b,r.bottom)}})}\
return b>t?b-t:0}\
d.querySelectorAll('tr').forEach(function(r){if(!r.checkVisibility())return;\
var lh=parseFloat(w.getComputedStyle(r.cells[0]).lineHeight)||20,hs=[].map.call(r.cells,function(c){return [tall(c),c.textContent.trim()]})\
.filter(function(h){return h[0]>0});if(!hs.length)return;var hi=hs.reduce(function(a,b){return b[0]>a[0]?b:a}),\
lo=Math.min.apply(null,hs.map(function(h){return h[0]}));if(hi[0]-lo>1.5*lh)e.push(Math.round(hi[0]-lo)+' '+hi[1])});";

/// [`measure`]'s `cut`: each table caption whose text runs outside its table's box (`.scroll`),
/// where it cannot be read whole (issue 31.4).
const CAPTIONS: &str = "var u=[];d.querySelectorAll('caption').forEach(function(c){var b=c.closest('.scroll');\
if(!b||!c.checkVisibility())return;var R=b.getBoundingClientRect(),g=d.createRange();g.selectNodeContents(c);\
[].forEach.call(g.getClientRects(),function(r){if(r.width>0&&(r.right>R.right+1||r.left<R.left-1))\
u.push(c.textContent+' '+Math.round(r.right)+'>'+Math.round(R.right))})});";

/// The value of `script`, a JavaScript expression over the window `w` and the document `d` of
/// a page framed at this size once it has loaded (as [`measure`] frames it: the page's own
/// policy and script in force), as JSON.
fn probe(chromium: &Path, page: &Path, width: u32, height: u32, script: &str) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let frame = dir.path().join("frame.html");
    std::fs::write(
        &frame,
        format!(
            "<!DOCTYPE html><html><body style=\"margin:0\"><iframe id=f src=\"file://{}\" \
             width={width} height={height} style=\"border:0\"></iframe><pre id=out></pre>\
             <script>document.getElementById('f').onload=function(){{\
             var w=this.contentWindow,d=w.document;\
             document.getElementById('out').textContent=JSON.stringify({script})}}</script></body></html>",
            page.display()
        ),
    )
    .unwrap();
    let out = browse(
        chromium,
        &frame,
        &[
            "--allow-file-access-from-files",
            &format!("--window-size={},{}", width + 100, height + 100),
            "--virtual-time-budget=5000",
            "--dump-dom",
        ],
    );
    let json = between(&out, "<pre id=\"out\">", "</pre>")
        .trim_start_matches("<pre id=\"out\">")
        .replace("&gt;", ">")
        .replace("&lt;", "<")
        .replace("&amp;", "&");
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{}: {e}: {json}", page.display()))
}

/// axe-core's script, installed by scripts/test under the target directory (or `$AXE_CORE`);
/// `None`, having said why, when it is not there and this is not CI.
fn axe_core() -> Option<PathBuf> {
    let path = std::env::var_os("AXE_CORE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_TARGET_TMPDIR"))
                .parent()
                .unwrap()
                .join("axe/node_modules/axe-core/axe.min.js")
        });
    if path.is_file() {
        return Some(path);
    }
    let msg = format!(
        "no axe-core at {} ($AXE_CORE): the site's accessibility checks cannot run; \
         scripts/test installs it (npm install --prefix target/axe axe-core)",
        path.display()
    );
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{msg}");
    eprintln!("SKIPPED: {msg}");
    None
}

/// The serious and critical violations axe-core finds in a page: each rule's id, and the first
/// element it names. The page is run as it is but for its policy (which would stop axe's own
/// script), beside itself so that its links still resolve.
fn axe_violations(chromium: &Path, axe: &Path, page: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(page).unwrap();
    let policy = between(&text, "<meta http-equiv=\"Content-Security-Policy\"", ">").to_string();
    let checked = text.replacen(&(policy + ">"), "", 1).replacen(
        "</body>",
        &format!(
            "<script src=\"file://{}\"></script><script>axe.run(document).then(function(r){{\
             var p=document.createElement('pre');p.id='axe';p.textContent=JSON.stringify(\
             r.violations.filter(function(v){{return v.impact==='serious'||v.impact==='critical'}})\
             .map(function(v){{return v.id+' ('+v.impact+') at '+v.nodes[0].target}}));\
             document.body.appendChild(p)}})</script></body>",
            axe.display()
        ),
        1,
    );
    let copy = page.with_file_name(format!(
        "axe-{}",
        page.file_name().unwrap().to_string_lossy()
    ));
    std::fs::write(&copy, checked).unwrap();
    let out = browse(
        chromium,
        &copy,
        &[
            "--allow-file-access-from-files",
            "--virtual-time-budget=20000",
            "--window-size=1400,900",
            "--dump-dom",
        ],
    );
    std::fs::remove_file(&copy).unwrap();
    let json = between(&out, "<pre id=\"axe\">", "</pre>")
        .trim_start_matches("<pre id=\"axe\">")
        .replace("&gt;", ">")
        .replace("&lt;", "<")
        .replace("&amp;", "&");
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{}: {e}: {out}", page.display()))
}

/// Every page of a site fits a 1400×900 window with every column of every table in view, and a
/// phone's 390×844 window with no page wider than it (a wide table scrolls in its own box).
fn every_page_fits(chromium: &Path, site: &Path) {
    let mut pages = Vec::new();
    let mut dirs = vec![site.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "html") {
                pages.push(p);
            }
        }
    }
    pages.sort();
    assert!(pages.len() > 10, "{pages:?}");
    let axe = axe_core();
    // Every wave page, and the first page of each other kind (a seat's page, a rubric change,
    // a publication are built alike), each kept as a screenshot at both sizes.
    let mut kinds = std::collections::BTreeSet::new();
    pages.retain(|p| {
        let rel = p.strip_prefix(site).unwrap();
        let mut parts = rel.components();
        let first = parts.next().unwrap().as_os_str().to_os_string();
        let depth = rel.components().count();
        let last = rel.file_name().unwrap().to_string_lossy();
        // Wave pages by name; below a wave, its matrix, a problem, and what changed.
        let kind = (
            first,
            depth,
            last.starts_with("since-"),
            last == "problems.html",
        );
        kinds.insert(kind) || (depth == 2 && rel.starts_with("waves"))
    });
    for page in &pages {
        let name = page
            .strip_prefix(site)
            .unwrap()
            .to_string_lossy()
            .replace(['/', '.'], "-");
        // One screenshot pair and one accessibility check a kind of page (every wave page is
        // measured, one is kept).
        let wave_page = page.parent() == Some(site.join("waves").as_path());
        if !wave_page || name.contains("checkout-rematch") {
            framed_screenshot(chromium, page, &format!("{name}-1400"), 1400, 900);
            framed_screenshot(chromium, page, &format!("{name}-390"), 390, 844);
            if let Some(axe) = &axe {
                let found = axe_violations(chromium, axe, page);
                assert!(
                    found.is_empty(),
                    "{}: axe-core finds {found:?}",
                    page.display()
                );
            }
        }
        let wide = measure(chromium, page, 1400, 900);
        assert_eq!(wide["window"], 1400, "{}: {wide}", page.display());
        assert!(
            wide["document"].as_u64() <= Some(1400) && wide["clipped"] == serde_json::json!([]),
            "{} at 1400 px: {wide}",
            page.display()
        );
        // A cost–accuracy chart uses the row's width (its own box, less a twentieth).
        assert_eq!(
            wide["narrow"],
            serde_json::json!([]),
            "{} at 1400 px: {wide}",
            page.display()
        );
        let phone = measure(chromium, page, 390, 844);
        assert_eq!(phone["window"], 390, "{}: {phone}", page.display());
        assert!(
            phone["document"].as_u64() <= Some(390),
            "{} at 390 px: {phone}",
            page.display()
        );
        for m in [&wide, &phone] {
            assert_eq!(
                m["broken"],
                serde_json::json!([]),
                "{}: {m}",
                page.display()
            );
            assert_eq!(
                m["overlaps"],
                serde_json::json!([]),
                "{}: {m}",
                page.display()
            );
            assert_eq!(m["small"], serde_json::json!([]), "{}: {m}", page.display());
            // No whisker, frontier segment or point crosses a seat's label (issue 31.4).
            assert_eq!(
                m["crossings"],
                serde_json::json!([]),
                "{}: {m}",
                page.display()
            );
        }
        // On a phone, no row carries more than a line of blank space, and every caption is
        // read whole (issue 31.4).
        // A table or chart wider than a phone scrolls sideways, and its edge says so: a shadow
        // where more of it lies (the new-user check of issue 31: the cost chart was cut at
        // 390 px with no cue).
        for what in ["blank", "cut", "cueless"] {
            assert_eq!(
                phone[what],
                serde_json::json!([]),
                "{} at 390 px: {phone}",
                page.display()
            );
        }
        if page.ends_with("index.html") {
            assert!(phone["scrolled"].as_u64() > Some(0), "{phone}");
        }
    }
}

/// A page framed at a window's size (see [`measure`]), kept as a screenshot under
/// target/site-screenshots/NAME.png: the whole of its first screen.
fn framed_screenshot(chromium: &Path, page: &Path, name: &str, width: u32, height: u32) {
    let dir = tempfile::tempdir().unwrap();
    let frame = dir.path().join("frame.html");
    std::fs::write(
        &frame,
        format!(
            "<!DOCTYPE html><html><body style=\"margin:0\"><iframe src=\"file://{}\" \
             width={width} height={height} style=\"border:0;display:block\"></iframe></body></html>",
            page.display()
        ),
    )
    .unwrap();
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("site-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let png = shots.join(format!("{name}.png"));
    let _ = std::fs::remove_file(&png);
    browse(
        chromium,
        &frame,
        &[
            &format!("--screenshot={}", png.display()),
            &format!("--window-size={},{height}", width.max(500)),
        ],
    );
    assert!(
        std::fs::read(&png).unwrap().starts_with(b"\x89PNG"),
        "{name}"
    );
}

/// The part of `s` from the first `from` on, up to the first `to` after it.
fn between<'a>(s: &'a str, from: &str, to: &str) -> &'a str {
    let start = s.find(from).unwrap_or_else(|| panic!("{from:?} not found"));
    let rest = &s[start..];
    &rest[..rest.find(to).unwrap_or(rest.len())]
}

/// The text of each first cell of each body row of the first table in `s`, tags stripped (the
/// site leaves out the end tags HTML infers; a browser's DOM has them).
fn first_cells(s: &str) -> Vec<String> {
    rows_of(s).into_iter().map(|r| r[0].clone()).collect()
}

/// The texts of the cells of a stretch of table rows, tags stripped: each cell from its `<td`
/// on, whether or not its end tag is written.
fn cells_of(row: &str) -> Vec<String> {
    row.split("<td")
        .skip(1)
        .map(|c| strip_tags(&format!("<td{}", c.split("</tr>").next().unwrap_or(""))))
        .collect()
}

fn strip_tags(s: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for ch in s.chars() {
        match ch {
            '<' => inside = true,
            '>' => inside = false,
            c if !inside => out.push(c),
            _ => {}
        }
    }
    out.trim().to_string()
}

/// The examples with every shipped rubric registered, one publication, one withdrawal.
fn example_ledger() -> Env {
    let examples = common::examples();
    let paths: Vec<&str> = examples.iter().map(|p| p.to_str().unwrap()).collect();
    let env = Env::with_waves(&paths);
    let mut rubrics: Vec<String> = std::fs::read_dir(common::crate_path("rubrics"))
        .unwrap()
        .map(|e| format!("rubrics/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    rubrics.sort();
    let mut args = vec!["rubric", "add", "--allow-scale-violation"];
    args.extend(rubrics.iter().map(String::as_str));
    env.run(args).ok();
    env.run([
        "publish",
        "--wave",
        "checkout-rematch",
        "--rubric",
        "session-efficiency@2",
        "--title",
        "Checkout rematch",
    ])
    .ok();
    env.run(["withdraw", "prices-csv", "--reason", "a trial run"])
        .ok();
    env
}

#[test]
fn the_examples_site_renders_in_chromium_with_its_charts_and_tables() {
    let Some(chromium) = chromium() else { return };
    let env = example_ledger();
    let site = env.path().join("site");
    let out = env.run(["site", "--out", site.to_str().unwrap()]).ok();
    assert!(
        out.stdout
            .contains("4 waves, 12 seats, 8 rubrics, 1 publication"),
        "{}",
        out.stdout
    );

    // The index: every wave in order, the withdrawn one marked; the publication reproduces.
    let index = dom(&chromium, &site.join("index.html"));
    assert!(
        index.contains("data-sortable"),
        "the page's own script did not run"
    );
    let waves = between(&index, "<h2>Waves</h2>", "</table>");
    assert_eq!(
        first_cells(waves),
        ["rca-wave-1", "rca-wave-2", "checkout-rematch", "prices-csv"]
    );
    assert!(waves.contains("withdrawn on 2026-11-30T00:00:00Z: a trial run"));
    // A seat's table marks the withdrawn wave as the index does (a new user's check: only
    // the chart's hollow point said so).
    let tidy = std::fs::read_to_string(site.join("seats/tidy.html")).unwrap();
    let each = between(&tidy, "The seat in each wave", "</table>");
    assert!(
        each.contains(">prices-csv (withdrawn)</span></a>"),
        "{each}"
    );
    let publications = between(&index, "<h2>Publications</h2>", "</table>");
    assert!(publications.contains("reproduces byte for byte"));
    assert!(index.contains("benchledger verify --all --expect-head "));
    screenshot(&chromium, &site.join("index.html"), "index");

    // The checkout rematch: five seats on the chart; deepseek (cheapest) and openai (Correct
    // for the least) are the Pareto set, and the frontier is the one segment between them.
    let wave = site.join("waves/checkout-rematch.html");
    let page = dom(&chromium, &wave);
    let chart = between(&page, "<svg", "</svg>");
    assert!(
        chart.contains(
            "<title id=\"frontier-title\">Cost and accuracy, wave checkout-rematch</title>"
        )
    );
    assert_eq!(
        chart.matches("<circle class=\"point").count() - 2,
        5,
        "points (and 2 in the legend)"
    );
    assert_eq!(
        chart
            .matches("<circle class=\"point pareto\" data-seat")
            .count(),
        2
    );
    for seat in ["deepseek-react", "openai-react"] {
        assert!(
            chart.contains(&format!("class=\"point pareto\" data-seat=\"{seat}\"")),
            "{seat}"
        );
    }
    assert_eq!(chart.matches("<line class=\"frontier-segment\"").count(), 1);
    // The leaderboard under session-efficiency@2: the seats tied at 100 ranked on wall seconds,
    // then new input; absolutes before the score.
    let board = between(&page, "Under session-efficiency@2", "</table>");
    assert_eq!(
        first_cells(board),
        [
            "openai-react",
            "google-react",
            "xai-hierarchical",
            "anthropic-react",
            "deepseek-react"
        ]
    );
    let headers = between(board, "<thead>", "</thead>");
    assert!(
        headers.find(">Correct<").unwrap()
            < headers
                .find(">session-efficiency@2 · <span class=\"nw\">scale 0–100</span><")
                .unwrap()
    );
    // A relative rubric says so.
    assert!(page.contains(
        "Under cohort-efficiency@1<span class=\"tag\">relative: a rank inside this wave only</span>"
    ));
    // A footnote appears once on the page.
    assert_eq!(
        page.matches("Correct: Correct / (attempts + missing).")
            .count(),
        1
    );
    screenshot(&chromium, &wave, "wave");

    the_seat_page_shows_its_load_on_every_trend(&chromium, &site);

    // The rubric change: in the checkout rematch, three seats printed 125 on a 0–100 scale
    // (marked), and print 100 under the new version.
    let change = site.join("changes/session-efficiency-v1-v2.html");
    let page = dom(&chromium, &change);
    let slope = between(&page, "id=\"slope-checkout-rematch\"", "</svg>");
    assert_eq!(slope.matches("<line class=\"slope\"").count(), 5);
    assert_eq!(
        slope.matches("<circle class=\"point violation\"").count(),
        3
    );
    assert!(slope.contains("xai-hierarchical 125.00") && slope.contains("xai-hierarchical 100.00"));
    assert!(slope.contains("scale max 100.00"));
    // The withdrawn wave is left out.
    assert!(!page.contains("id=\"slope-prices-csv\""));
    screenshot(&chromium, &change, "change");

    // The publication: its text, its digests, the command that verifies it.
    let publication = site.join("publications/1.html");
    let page = dom(&chromium, &publication);
    assert!(page.contains("reproduces byte for byte"));
    assert!(page.contains("benchledger verify 1"));
    let md = std::fs::read(site.join("publications/1.md")).unwrap();
    let json = env.run(["publications", "--format", "json"]).ok().json();
    let output_sha = json["publications"][0]["output_sha256"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(common::sha256_hex(&md), output_sha);
    assert!(page.contains(&output_sha));
    screenshot(&chromium, &publication, "publication");
}

/// The seat whose wall time rose 141 → 262 s under heavier load: its page, in the examples'
/// site at `site`.
fn the_seat_page_shows_its_load_on_every_trend(chromium: &Path, site: &Path) {
    // The seat whose wall time rose 141 → 262 s under heavier load: it ran two suites, and
    // each suite has its three charts (a line that broke wherever the other suite's wave fell
    // between two points said nothing: issue 31's new-user check), each point labelled with its
    // wave's load.
    let seat = site.join("seats/xai-hierarchical.html");
    let page = dom(chromium, &seat);
    assert_eq!(page.matches("<svg").count(), 6);
    assert!(page.contains("<h2>Wall seconds, suite grafana-incident-rca</h2>"));
    assert!(page.contains("<h2>Accuracy, suite checkout-outage-rca</h2>"));
    let wall = between(&page, "id=\"trend-wall-grafana-incident-rca\"", "</svg>");
    assert_eq!(wall.matches("<circle class=\"point").count(), 2);
    assert!(
        wall.contains(
            "rca-wave-1 141.0 (4 par · 4 tool · serial); rca-wave-2 262.0 (6 par · 6 tool)"
        )
    );
    let loads: Vec<String> = wall
        .split("<text class=\"load\"")
        .skip(1)
        .map(|l| {
            let label = between(l, ">", "</text>");
            let lines: Vec<String> = label
                .split("<tspan")
                .skip(1)
                .map(|t| strip_tags(&format!("<x{t}")))
                .collect();
            lines.join(" · ")
        })
        .collect();
    assert_eq!(loads, ["4 par · 4 tool · serial", "6 par · 6 tool"]);
    // The suite's two waves are joined.
    assert_eq!(wall.matches("<line class=\"trend\"").count(), 1);
    let other = between(&page, "id=\"trend-wall-checkout-outage-rca\"", "</svg>");
    assert_eq!(other.matches("<circle class=\"point").count(), 1);
    assert!(other.contains("(5 par · 5 tool)"), "{other}");
    assert!(!other.contains("<line class=\"trend\""));
    screenshot(chromium, &seat, "seat");
}

#[test]
fn a_hostile_wave_renders_as_text_and_runs_no_script() {
    let Some(chromium) = chromium() else { return };
    let env = Env::init();
    let dir = env.path().join("hostile");
    let manifest = common::write_wave(
        &dir,
        r#"
[wave]
id = "hostile"
suite = "<script>document.body.setAttribute('data-pwned','suite')</script>"
started_at = 2026-03-04T10:00:00Z
notes = "</style><script>document.body.setAttribute('data-pwned','notes')</script>"

[wave.accounting]
input_tokens_include_cache_reads = false

[[seat]]
id = "evil"
model = "<script>alert(1)</script><script>document.body.setAttribute('data-pwned','model')</script>"
provider = "<img src=x onerror=\"document.body.setAttribute('data-pwned','img')\">"
harness = "\"><svg onload=\"document.body.setAttribute('data-pwned','svg')\">"
results = "evil.jsonl"
"#,
        &[(
            "evil.jsonl",
            "{\"problem\":\"p1\",\"correct\":true,\"wall_s\":10,\"cost_usd\":0.5,\"input_tokens\":10,\"output_tokens\":5}\n",
        )],
    );
    env.ingest(&[&manifest]);
    let site = env.path().join("site");
    env.run(["site", "--out", site.to_str().unwrap()]).ok();
    for page in ["index.html", "waves/hostile.html", "seats/evil.html"] {
        let d = dom(&chromium, &site.join(page));
        assert!(
            d.contains("data-sortable"),
            "{page}: the page's own script did not run"
        );
        // A script that ran would have set the attribute on <body>; its text is on the page.
        assert!(
            d.contains("<body><nav>"),
            "{page}: a script from the ledger ran:\n{d}"
        );
        assert!(
            !d.contains(" data-pwned=\""),
            "{page}: a script from the ledger ran:\n{d}"
        );
        assert!(
            !d.contains("<img"),
            "{page}: markup from the ledger became an element"
        );
    }
    let d = dom(&chromium, &site.join("waves/hostile.html"));
    // The strings are there, as text.
    assert!(d.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "{d}");
    assert!(d.contains("&lt;/style&gt;&lt;script&gt;"));
    assert!(d.contains("&lt;img src=x onerror="));
    screenshot(&chromium, &site.join("waves/hostile.html"), "hostile");
}

/// A new user's check (issue 19): `site --rubric accuracy@1`, the shipped accuracy rubric
/// unregistered (as `score --rubric accuracy@1` takes it), ranked only the waves no registered
/// rubric scores on it, and said of every other wave that accuracy@1 "gives no seat of this
/// wave a score". Every suite is now ranked on it, for the reason given.
#[test]
fn site_rubric_accuracy_ranks_every_suite_on_accuracy_unregistered() {
    let examples = common::examples();
    let paths: Vec<&str> = examples.iter().map(|p| p.to_str().unwrap()).collect();
    let env = Env::with_waves(&paths);
    env.run([
        "rubric",
        "add",
        &common::crate_path("rubrics/session-efficiency.v2.toml").to_string_lossy(),
    ])
    .ok();
    let site = env.path().join("site");
    env.run([
        "site",
        "--no-ci",
        "--out",
        site.to_str().unwrap(),
        "--rubric",
        "accuracy@1",
    ])
    .ok();
    let page = std::fs::read_to_string(site.join("index.html")).unwrap();
    let ranked: Vec<String> = page
        .split("<p class=\"ranked-by\">")
        .skip(1)
        .map(|p| strip_tags(between(p, "Ranked", "</p>")))
        .collect();
    assert_eq!(ranked.len(), 3, "{page}");
    for r in &ranked {
        assert!(
            r.starts_with("Ranked under accuracy@1 ")
                && r.ends_with("the rubric this site was made with (--rubric accuracy@1)."),
            "{r}"
        );
    }
    // The wave's own page has the leaderboard the front page shows.
    let wave = std::fs::read_to_string(site.join("waves/rca-wave-2.html")).unwrap();
    assert!(wave.contains("<h3>Under accuracy@1"), "{wave}");
}

/// Issue 31, #5: with an artifacts base, "Came from" links each attempt's log under it
/// (`site --artifacts`, over site.toml's); a base that is not an http(s) URL is refused with
/// nothing written.
#[test]
fn came_from_links_each_origin_under_the_artifacts_base() {
    let env = Env::with_waves(&["tests/fixtures/import/inspect/wave.toml"]);
    let site = env.path().join("site");
    let toml = env.path().join("site.toml");
    std::fs::write(&toml, "artifacts = \"https://example.org/other/\"\n").unwrap();
    let out = env
        .run([
            "site",
            "--out",
            site.to_str().unwrap(),
            "--artifacts",
            "javascript:alert(1)",
        ])
        .status(2);
    assert!(out.stderr.contains("--artifacts"), "{}", out.stderr);
    assert!(!site.exists());
    env.run([
        "site",
        "--out",
        site.to_str().unwrap(),
        "--config",
        toml.to_str().unwrap(),
        "--artifacts",
        "https://example.org/runs",
    ])
    .ok();
    let page = std::fs::read_to_string(site.join("waves/arith-mini/problems/1.html")).unwrap();
    assert_eq!(
        page.matches(
            "<a href=\"https://example.org/runs/run.json\"><code class=\"path\">run.json</code></a>"
        )
        .count(),
        2,
        "{page}"
    );
    assert!(!page.contains("example.org/other"), "{page}");
}

/// A new user's check: "Came from" printed the absolute path given at ingest
/// (`/work/…/run.json`), the layout of the machine the wave was ingested on. A path under the
/// manifest's directory is shown as the ledger keeps it; one outside it only by its file's
/// name, marked and counted; with an artifacts base, linking is as before.
#[test]
fn came_from_shows_only_the_name_of_a_file_outside_the_manifests_directory() {
    let env = Env::init();
    let fixture = common::crate_path("tests/fixtures/import/inspect/run.json");
    let fixture = fixture.canonicalize().unwrap();
    std::fs::create_dir(env.path().join("logs")).unwrap();
    std::fs::copy(&fixture, env.path().join("logs/run.json")).unwrap();
    let manifest = env.path().join("wave.toml");
    let seat = |id: &str, results: &str| {
        format!(
            "[[seat]]\nid = \"{id}\"\nmodel = \"claude-sonnet-4-5\"\nprovider = \"anthropic\"\n\
             harness = \"use_tools\"\nresults = {results:?}\nformat = \"inspect\"\n"
        )
    };
    std::fs::write(
        &manifest,
        format!(
            "[wave]\nid = \"arith-mini\"\nsuite = \"arith\"\nstarted_at = 2026-05-01T08:00:00Z\n\
             suite_problems = 3\n[wave.accounting]\ninput_tokens_include_cache_reads = false\n{}{}",
            seat("inside", "logs/run.json"),
            seat("outside", fixture.to_str().unwrap()),
        ),
    )
    .unwrap();
    env.run(["ingest", manifest.to_str().unwrap()]).ok();
    // The ledger keeps the path as it was given (outside, it is absolute or climbs out).
    let dir = fixture.parent().unwrap().to_str().unwrap().to_string();
    let site = env.path().join("site");
    env.run(["site", "--out", site.to_str().unwrap()]).ok();
    let page = std::fs::read_to_string(site.join("waves/arith-mini/problems/1.html")).unwrap();
    assert!(!page.contains(&dir), "{page}");
    assert!(!page.contains("<code class=\"path\">.."), "{page}");
    let rows = page.split("<tr>").filter(|r| r.contains("seats/"));
    let (mut inside, mut outside) = (0, 0);
    for row in rows {
        if row.contains(">inside<") {
            assert!(
                row.contains("<code class=\"path\">logs/<wbr>run.json</code>"),
                "{row}"
            );
            inside += 1;
        } else if row.contains(">outside<") {
            assert!(
                row.contains(
                    "<code class=\"path\" title=\"outside the directory the wave was ingested \
                     from: only the file's name is shown, not where it was\">run.json</code>"
                ),
                "{row}"
            );
            outside += 1;
        }
    }
    assert_eq!((inside, outside), (2, 2), "{page}");
    assert!(
        page.contains(
            "2 attempts with a path outside the directory the wave was ingested from (absolute, \
             or climbing out with ..): shown by the file's name only."
        ),
        "{page}"
    );
    // With an artifacts base, the file under the manifest's directory is linked; the other is
    // not, and is still shown by its name only.
    env.run([
        "site",
        "--out",
        site.to_str().unwrap(),
        "--artifacts",
        "https://example.org/runs",
    ])
    .ok();
    let page = std::fs::read_to_string(site.join("waves/arith-mini/problems/1.html")).unwrap();
    assert!(!page.contains(&dir), "{page}");
    assert_eq!(
        page.matches(
            "<a href=\"https://example.org/runs/logs/run.json\"><code class=\"path\">logs/<wbr>run.json</code></a>"
        )
        .count(),
        2,
        "{page}"
    );
    assert!(
        page.contains("shown by the file's name only, not linked under the artifacts base"),
        "{page}"
    );
}

#[test]
fn the_site_replaces_its_own_files_and_refuses_a_directory_it_did_not_write() {
    let env = Env::with_waves(&["examples/checkout-rematch/wave.toml"]);
    let site = env.path().join("site");
    env.run(["site", "--out", site.to_str().unwrap()]).ok();
    let first = std::fs::read_to_string(site.join("index.html")).unwrap();
    std::fs::write(site.join("mine.txt"), "keep me").unwrap();
    // Again into the same directory: the site is made anew, the other file kept.
    env.run(["site", "--out", site.to_str().unwrap()]).ok();
    assert_eq!(
        std::fs::read_to_string(site.join("index.html")).unwrap(),
        first
    );
    assert_eq!(
        std::fs::read_to_string(site.join("mine.txt")).unwrap(),
        "keep me"
    );
    // A directory with other things in it, and no site, is refused untouched.
    let other = env.path().join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("notes.txt"), "x").unwrap();
    let out = env
        .run(["site", "--out", other.to_str().unwrap()])
        .status(2);
    assert!(
        out.stderr
            .contains("holds no site written by `benchledger site`"),
        "{}",
        out.stderr
    );
    assert_eq!(std::fs::read_dir(&other).unwrap().count(), 1);
}

/// `site --out DIR` wrote through links planted in DIR (issue "Trust, round two"): an
/// `index.html` replaced by a link to a file elsewhere had that file overwritten, a linked
/// `waves/` put the pages elsewhere, and so did a linked `publications/1.md`. Each is refused
/// now, naming the link, with nothing written or removed, here or where it points. Needs no
/// browser.
#[cfg(unix)]
#[test]
fn site_out_writes_through_links_planted_in_dir() {
    use std::os::unix::fs::symlink;
    let env = Env::with_waves(&["examples/checkout-rematch/wave.toml"]);
    env.run(["rubric", "add", "rubrics/session-efficiency.v2.toml"])
        .ok();
    env.run([
        "publish",
        "--wave",
        "checkout-rematch",
        "--rubric",
        "session-efficiency@2",
        "--title",
        "Checkout rematch",
    ])
    .ok();
    let site = env.path().join("site");
    let out = site.to_str().unwrap();
    env.run(["site", "--out", out]).ok();
    assert!(site.join("publications/1.md").is_file());
    let outside = env.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    let victim = outside.join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let pages = outside.join("pages");
    std::fs::create_dir(&pages).unwrap();
    // Every file of the site, and what it holds.
    let listing = |dir: &Path| -> Vec<(PathBuf, Option<Vec<u8>>)> {
        let mut all = Vec::new();
        let mut todo = vec![dir.to_path_buf()];
        while let Some(d) = todo.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let path = e.unwrap().path();
                let meta = std::fs::symlink_metadata(&path).unwrap();
                if meta.is_dir() {
                    todo.push(path.clone());
                }
                let bytes = meta.is_file().then(|| std::fs::read(&path).unwrap());
                all.push((path, bytes));
            }
        }
        all.sort();
        all
    };
    let refused = |planted: &str, needle: &str| {
        let before = listing(&site);
        let o = env.run(["site", "--out", out]).status(2);
        assert!(o.stdout.is_empty(), "{planted}: {}", o.stdout);
        assert_eq!(o.stderr.lines().count(), 1, "{planted}: {}", o.stderr);
        assert!(
            o.stderr
                .contains(&format!("{} is {needle}", site.join(planted).display())),
            "{planted}: {}",
            o.stderr
        );
        assert!(o.stderr.contains("Nothing was written"), "{}", o.stderr);
        assert_eq!(listing(&site), before, "{planted}: the site changed");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert_eq!(std::fs::read_dir(&pages).unwrap().count(), 0, "{planted}");
    };

    std::fs::remove_file(site.join("index.html")).unwrap();
    symlink(&victim, site.join("index.html")).unwrap();
    refused("index.html", "a symbolic link");
    std::fs::remove_file(site.join("index.html")).unwrap();

    std::fs::rename(site.join("waves"), outside.join("old-waves")).unwrap();
    symlink(&pages, site.join("waves")).unwrap();
    refused("waves", "a symbolic link");
    std::fs::remove_file(site.join("waves")).unwrap();

    std::fs::remove_file(site.join("publications/1.md")).unwrap();
    symlink(&victim, site.join("publications/1.md")).unwrap();
    refused("publications/1.md", "a symbolic link");
    std::fs::remove_file(site.join("publications/1.md")).unwrap();

    // A directory where a page goes, or a file where a folder of pages goes.
    std::fs::create_dir(site.join("index.html")).unwrap();
    refused("index.html", "a directory");
    std::fs::remove_dir(site.join("index.html")).unwrap();
    std::fs::write(site.join("waves"), "not a folder").unwrap();
    refused("waves", "a regular file");
    std::fs::remove_file(site.join("waves")).unwrap();

    // DIR itself a link, named with a trailing slash: refused as the link it is.
    let linked = env.path().join("linked");
    symlink(&pages, &linked).unwrap();
    let o = env
        .run(["site", "--out", &format!("{}/", linked.display())])
        .status(2);
    assert!(o.stderr.contains("/ is a symbolic link"), "{}", o.stderr);
    assert_eq!(std::fs::read_dir(&pages).unwrap().count(), 0);

    // With the links gone the site is written again, whole.
    env.run(["site", "--out", out]).ok();
    assert!(site.join("index.html").is_file());
    assert!(site.join("publications/1.md").is_file());
    assert!(
        std::fs::symlink_metadata(site.join("waves"))
            .unwrap()
            .is_dir()
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
}

/// The charts of the examples, byte for byte: their numbers are printed with fixed places, so
/// the same ledger draws the same SVG on every machine.
#[test]
fn the_examples_charts_are_snapshotted() {
    let env = example_ledger();
    let site = env.path().join("site");
    env.run(["site", "--out", site.to_str().unwrap()]).ok();
    let read = |p: &str| std::fs::read_to_string(site.join(p)).unwrap();
    // An element a line, to read in review.
    let lines = |s: &str| s.replace("><", ">\n<");
    let svg = |page: &str, id: &str| {
        let page = read(page);
        lines(&format!(
            "<svg{}</svg>\n",
            between(
                &page,
                &format!("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" id=\"{id}\""),
                "</svg>"
            )
            .trim_start_matches("<svg")
        ))
    };
    common::snapshot_settings().bind(|| {
        insta::assert_snapshot!(
            "site__frontier_checkout_rematch",
            svg("waves/checkout-rematch.html", "frontier")
        );
        // The suite's chart on the front page: rca-wave-1 and rca-wave-2's twelve seats.
        insta::assert_snapshot!(
            "site__frontier_suite_grafana_incident_rca",
            svg("index.html", "frontier-grafana-incident-rca")
        );
        insta::assert_snapshot!(
            "site__slope_checkout_rematch",
            svg(
                "changes/session-efficiency-v1-v2.html",
                "slope-checkout-rematch"
            )
        );
        insta::assert_snapshot!(
            "site__trend_wall_xai_hierarchical",
            svg(
                "seats/xai-hierarchical.html",
                "trend-wall-grafana-incident-rca"
            )
        );
        let publication = read("publications/1.html");
        insta::assert_snapshot!(
            "site__publication_main",
            lines(between(&publication, "<main>", "</main>"))
        );
    });
}

#[test]
fn site_ci_gives_every_leaderboard_its_rank_ranges_and_the_chart_its_whiskers() {
    let env = example_ledger();
    let plain = env.path().join("plain");
    env.run(["site", "--out", plain.to_str().unwrap(), "--no-ci"])
        .ok();
    let without = std::fs::read_to_string(plain.join("waves/rca-wave-2.html")).unwrap();
    assert!(!without.contains("Rank range"));
    assert!(!without.contains("class=\"whisker\""));
    assert!(!without.contains(">Group<"));
    // Intervals by default: at 95 %, 2,000 resamples, seed 0; `--ci` alone changes nothing.
    let by_default = env.path().join("default");
    env.run(["site", "--out", by_default.to_str().unwrap()])
        .ok();
    let default_page = std::fs::read_to_string(by_default.join("waves/rca-wave-2.html")).unwrap();
    assert!(default_page.contains("Intervals: 95% level, 2,000 resamples, seed 0"));
    assert!(default_page.contains(">Rank range<") && default_page.contains(">Group<"));
    let asked = env.path().join("asked");
    env.run(["site", "--out", asked.to_str().unwrap(), "--ci"])
        .ok();
    assert_eq!(
        std::fs::read_to_string(asked.join("waves/rca-wave-2.html")).unwrap(),
        default_page
    );
    let out = env
        .run([
            "site",
            "--out",
            asked.to_str().unwrap(),
            "--no-ci",
            "--seed",
            "3",
        ])
        .status(2);
    assert!(out.stderr.contains("--no-ci"), "{}", out.stderr);

    let site = env.path().join("ci");
    env.run([
        "site",
        "--out",
        site.to_str().unwrap(),
        "--ci",
        "--resamples",
        "200",
        "--seed",
        "3",
    ])
    .ok();
    let page = std::fs::read_to_string(site.join("waves/rca-wave-2.html")).unwrap();
    let text = strip_tags(&page);
    // Every registered rubric's leaderboard has its rank range column, once, and says how the
    // intervals were drawn.
    let boards = page.matches("<h3>Under ").count();
    assert!(boards >= 2, "{boards}");
    assert_eq!(page.matches(">Rank range<").count(), boards, "{text}");
    assert_eq!(
        text.matches("Intervals: 95% level, 200 resamples, seed 3")
            .count(),
        boards
    );
    assert!(text.contains("Not separable from the leader"), "{text}");
    // Over 4 problems (fewer than 30) each board's rank range column says the ranges are not
    // shown, and its notes say why (issue 31's new-user check), where `score --ci` prints them
    // with its caution; over 30 they are shown, those `score --ci` prints
    // (a_board_over_30_problems_shows_the_rank_ranges_score_prints).
    assert!(page.matches(">not shown<").count() >= boards, "{text}");
    // (A note is said once on a page.)
    assert!(
        text.contains("Rank range not shown: the ranking rests on 4 problems, fewer than 30"),
        "{text}"
    );
    let score = env
        .run([
            "score",
            "--wave",
            "rca-wave-2",
            "--rubric",
            "session-efficiency@2",
            "--ci",
            "--resamples",
            "200",
            "--seed",
            "3",
            "--format",
            "json",
        ])
        .ok()
        .json();
    for seat in score["seats"].as_array().unwrap() {
        assert!(seat["rank_range"].is_array(), "{seat}");
    }
    // The cost–accuracy chart draws a whisker per plotted seat.
    assert!(page.contains("class=\"whisker\""), "no whiskers");
    // Every leaderboard prints the wave's tie-group letters, those of `versus --all`, in a
    // Group column after the correct-rate's interval.
    assert_eq!(page.matches(">Group<").count(), boards, "{text}");
    the_letters_are_those_of_versus_all(&env, &page, "rca-wave-2");

    // And in the browser: the rank range columns are in the rendered tables, the whiskers on
    // the chart (one per seat plotted: all six have known costs), and a screenshot is kept.
    let Some(chromium) = chromium() else { return };
    let wave = site.join("waves/rca-wave-2.html");
    let rendered = dom(&chromium, &wave);
    assert!(
        rendered.contains("data-sortable"),
        "the page's script did not run"
    );
    assert_eq!(rendered.matches(">Rank range<").count(), boards);
    let chart = between(&rendered, "<svg", "</svg>");
    assert_eq!(chart.matches("class=\"whisker\"").count(), 6, "{chart}");
    screenshot(&chromium, &wave, "wave-ci");
}

/// Each leaderboard of a wave's page holds, in its Group column right after the correct-rate's
/// interval, each seat's letters as `versus --all` prints them.
fn the_letters_are_those_of_versus_all(env: &Env, page: &str, wave: &str) {
    for board in page.split("<h3>Under ").skip(1) {
        board_letters_are_those_of_versus_all(env, between(board, "<table", "</table>"), wave);
    }
}

/// One leaderboard's table (HTML) holds each seat's letters as `versus --all` prints them, in
/// a Group column right after the correct-rate's interval.
fn board_letters_are_those_of_versus_all(env: &Env, board: &str, wave: &str) {
    let all = env
        .run(["versus", "--wave", wave, "--all", "--format", "json"])
        .ok()
        .json();
    let groups = all["groups"].as_object().unwrap();
    let headers: Vec<String> = between(board, "<thead>", "</thead>")
        .split("</th>")
        .map(strip_tags)
        .filter(|h| !h.is_empty())
        .collect();
    let at = headers.iter().position(|h| h == "Group").unwrap();
    assert_eq!(headers[at - 1], "Correct 95% CI", "{headers:?}");
    let mut rows = 0;
    for row in between(board, "<tbody>", "</tbody>").split("<tr>") {
        let cells = cells_of(row);
        if cells.len() <= at {
            continue;
        }
        assert_eq!(groups[&cells[0]], cells[at].as_str(), "{row}");
        rows += 1;
    }
    assert_eq!(rows, groups.len(), "{board}");
}

#[test]
fn the_front_page_ranks_each_suites_latest_wave_and_every_page_fits_both_windows() {
    let (env, site) = front_page_ledger_and_site();
    let page = std::fs::read_to_string(site.join("index.html")).unwrap();
    the_front_page_heads_each_suites_latest_wave(&page);
    // Intervals by default: each suite's leaderboard has its rank ranges and tie-group letters.
    let rca = between(
        &page,
        "waves/rca-wave-2.html\">rca-wave-2</a></h2>",
        "</table>",
    );
    assert!(rca.contains(">Rank range<"), "{rca}");
    board_letters_are_those_of_versus_all(&env, rca, "rca-wave-2");
    the_cheap_wave_with_long_ids_keeps_every_column_in_view(&page);
    the_seats_list_names_each_named_seat(&page);
    let Some(chromium) = chromium() else { return };
    let index = dom(&chromium, &site.join("index.html"));
    the_checkout_board_ranks_ties_on_wall_then_input(&index);
    the_wave_without_a_budget_says_why_it_is_ranked_otherwise(&index);
    screenshot(&chromium, &site.join("index.html"), "front");
    the_rca_suites_one_cost_accuracy_chart_spans_its_current_waves(&index);
    every_sample_is_one_click_away(&chromium, &site, &index);
    the_change_page_gives_a_wave_no_version_scores_its_table_and_no_empty_chart(&site);
    every_page_fits(&chromium, &site);
    the_charts_labels_read_at_11_px_on_a_phone(&chromium, &site);
    // At a phone's width the boards, the contents and the problem matrix keep their first
    // column in view while their box scrolls.
    for page in ["index.html", "waves/rca-wave-2/problems.html"] {
        the_first_column_stays_in_view(&chromium, &site.join(page));
    }
    a_seat_of_millions_of_tokens_keeps_its_axis_label_clear_of_the_ticks(&chromium, &site);
}

/// The examples' ledger with the Inspect wave (no budget) ingested twice, the second time with
/// a display name for its seat, and the cheap wave with long ids; and the site written from it
/// under `--rubric session-efficiency@2`, in the ledger's folder.
fn front_page_ledger_and_site() -> (Env, PathBuf) {
    let env = example_ledger();
    // A wave imported without a budget: no efficiency rubric scores it.
    env.ingest(&[&common::crate_path(
        "tests/fixtures/import/inspect/wave.toml",
    )]);
    // Ingested again with a display name for its seat: the wave is the same, the seat named.
    let named = env.path().join("inspect-named");
    common::copy_dir(&common::crate_path("tests/fixtures/import/inspect"), &named);
    let manifest = named.join("wave.toml");
    let text = std::fs::read_to_string(&manifest).unwrap().replace(
        "id = \"claude-react\"\n",
        "id = \"claude-react\"\ndisplay_name = \"Claude Sonnet 4.5 (tools)\"\n",
    );
    std::fs::write(&manifest, text).unwrap();
    env.ingest(&[&manifest]);
    env.ingest(&[&cheap_wave_with_long_ids(env.path())]);
    let site = env.path().join("site");
    env.run([
        "site",
        "--out",
        site.to_str().unwrap(),
        "--rubric",
        "session-efficiency@2",
    ])
    .ok();
    (env, site)
}

/// The front page's suite headings, `page` as written: each suite's latest current wave, the
/// newest first, and the suite whose waves are all withdrawn last, saying so.
fn the_front_page_heads_each_suites_latest_wave(page: &str) {
    // Each suite's latest current wave, the newest first: cheap-long-ids (May 2), the imported
    // arith-mini (May 1), checkout-rematch (March), rca-wave-2 (not rca-wave-1; February); the
    // withdrawn prices-csv suite has none, and comes last.
    let heads: Vec<String> = page
        .split("<h2 id=\"suite-")
        .skip(1)
        .map(|h| strip_tags(between(h, ">", "</h2>")))
        .collect();
    assert_eq!(
        heads,
        [
            "Suite arith-cheap: wave cheap-long-ids",
            "Suite arith: wave arith-mini",
            "Suite checkout-outage-rca: wave checkout-rematch",
            "Suite grafana-incident-rca: wave rca-wave-2",
            "Suite competitor-prices-csv",
        ],
        "heads"
    );
    assert!(page.contains("Every wave of this suite is withdrawn"));
}

/// The imported wave on the front page `index` (as the browser built it): ranked under another
/// rubric, saying why, its named seat shown by its display name, and no cost–accuracy chart.
fn the_wave_without_a_budget_says_why_it_is_ranked_otherwise(index: &str) {
    // The imported wave has no budget: session-efficiency@2 gives it no score, so it is ranked
    // under the most recently registered rubric that does, and says why.
    let arith = between(index, "arith-mini.html\">arith-mini</a></h2>", "</table>");
    assert!(
        arith.contains(
            "session-efficiency@2, named with --rubric, gives no seat of this wave a score"
        ),
        "{arith}"
    );
    // The named seat: its display name in the leaderboard, its id on hover and in the link.
    assert!(
        arith.contains(
            "<a href=\"seats/claude-react.html\"><span title=\"claude-react\">Claude Sonnet \
             4.5 (tools)</span></a>"
        ),
        "{arith}"
    );
    let arith_chart = between(index, "arith-mini.html\">arith-mini</a></h2>", "<h2");
    assert!(
        arith_chart.contains("No cost–accuracy chart for this suite")
            && !arith_chart.contains("<svg"),
        "{arith_chart}"
    );
}

/// One cost–accuracy chart per suite across its current waves, on the front page `index`:
/// grafana-incident-rca's has rca-wave-1 and rca-wave-2 side by side (6 seats each, every one
/// costed), each point named with its wave and a link to its seat. (The imported suite records
/// no cost, and says so in words, with no frame: see
/// `the_wave_without_a_budget_says_why_it_is_ranked_otherwise`.)
fn the_rca_suites_one_cost_accuracy_chart_spans_its_current_waves(index: &str) {
    let suite = between(
        index,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" id=\"frontier-grafana-incident-rca\"",
        "</svg>",
    );
    assert_eq!(suite.matches("data-seat=").count(), 12, "{suite}");
    assert!(suite.contains("data-seat=\"xai-hierarchical (rca-wave-1)\""));
    assert!(suite.contains("<a href=\"seats/xai-hierarchical.html\">"));
}

/// The site's page of what changed from session-efficiency@1 to @2: a wave no version of the
/// rubric scores (no budget) gets its table, and no empty chart; a wave they score, its chart.
fn the_change_page_gives_a_wave_no_version_scores_its_table_and_no_empty_chart(site: &Path) {
    let change =
        std::fs::read_to_string(site.join("changes/session-efficiency-v1-v2.html")).unwrap();
    assert!(change.contains("Wave <a href=\"../waves/arith-mini.html\">arith-mini</a>"));
    assert!(!change.contains("id=\"slope-arith-mini\""));
    assert!(change.contains("id=\"slope-checkout-rematch\""));
}

/// On a phone a cost–accuracy chart's labels read at 11 px, not 7 (issue 31's new-user check):
/// the chart keeps its size and scrolls in its box, whose edge says so (checked by
/// `every_page_fits`), the page no wider than the window.
fn the_charts_labels_read_at_11_px_on_a_phone(chromium: &Path, site: &Path) {
    for page in ["index.html", "waves/checkout-rematch.html"] {
        let sizes = probe(
            chromium,
            &site.join(page),
            390,
            844,
            "[].map.call(d.querySelectorAll('svg.chart[id^=frontier]'),function(s){\
             var t=s.querySelector('text.point-label');return parseFloat(w.getComputedStyle(t).fontSize)\
             *s.getBoundingClientRect().width/s.viewBox.baseVal.width})",
        );
        let sizes = sizes.as_array().unwrap();
        assert!(!sizes.is_empty(), "{page}");
        for px in sizes {
            assert!(px.as_f64() >= Some(10.9), "{page}: labels at {sizes:?} px");
        }
    }
}

/// A seat whose tokens run to millions: its tokens chart's axis label is clear of the ticks
/// ("1,500,000"), at both sizes, and its description gives tokens as the table does.
fn a_seat_of_millions_of_tokens_keeps_its_axis_label_clear_of_the_ticks(
    chromium: &Path,
    site: &Path,
) {
    let seat = site.join("seats/anthropic-hierarchical.html");
    for (width, height) in [(1400, 900), (390, 844)] {
        let m = measure(chromium, &seat, width, height);
        assert_eq!(m["overlaps"], serde_json::json!([]), "{m}");
    }
    let page = std::fs::read_to_string(&seat).unwrap();
    assert!(
        page.contains("wave's load: rca-wave-1 1,588,900 (4 par"),
        "{page}"
    );
}

/// The checkout rematch under the rubric named, on the front page `index`: the seats tied at
/// 100 ranked on wall seconds, then new input; absolutes before the score, each seat a link to
/// its page.
fn the_checkout_board_ranks_ties_on_wall_then_input(index: &str) {
    let board = between(
        index,
        "checkout-rematch.html\">checkout-rematch</a></h2>",
        "</table>",
    );
    assert!(board.contains("Ranked under <strong>session-efficiency@2</strong>"));
    assert_eq!(
        first_cells(board),
        [
            "openai-react",
            "google-react",
            "xai-hierarchical",
            "anthropic-react",
            "deepseek-react"
        ]
    );
    assert!(board.contains("<a href=\"seats/openai-react.html\">openai-react</a>"));
    let headers = between(board, "<thead>", "</thead>");
    assert!(
        headers.find(">Correct<").unwrap()
            < headers
                .find(">session-efficiency@2 · <span class=\"nw\">scale 0–100</span><")
                .unwrap()
    );
    assert!(headers.find(">USD<").unwrap() < headers.find(">Rank<").unwrap());
}

/// A new user's check at 390 px: the stylesheet makes the first column of a table box
/// (`.scroll`) sticky, so that a row's name stays in view while its figures scroll. In each
/// box of `page` wider than its window and shown (not in a closed `details`), the first body
/// cell's and the first header's left edges are measured, the box scrolled 150 px, and
/// measured again: they stay put (to a pixel), while the second column moves, and the first
/// cell is drawn over what scrolls under it.
fn the_first_column_stays_in_view(chromium: &Path, page: &Path) {
    let m = probe(
        chromium,
        page,
        390,
        844,
        "[].filter.call(d.querySelectorAll('.scroll'),function(b){return b.checkVisibility()&&b.scrollWidth>b.clientWidth+150})\
         .map(function(b){var c=b.querySelector('tbody td'),h=b.querySelector('thead th'),\
         n=b.querySelector('tbody td:nth-child(2)'),x=function(e){return e.getBoundingClientRect().left},\
         a=(b.scrollIntoView({block:'center',inline:'nearest'}),[x(c),x(h),x(n)]);b.scrollLeft=150;\
         var r=c.getBoundingClientRect(),o=d.elementFromPoint(r.left+r.width/2,r.top+r.height/2);\
         return {table:(b.querySelector('caption')||h).textContent,scrolled:b.scrollLeft,\
         before:a,after:[x(c),x(h),x(n)],on_top:!!o&&o.closest('td')===c}})",
    );
    let boxes = m.as_array().unwrap();
    assert!(
        !boxes.is_empty(),
        "{}: no table box scrolls at 390 px",
        page.display()
    );
    for b in boxes {
        let at = |k: &str, i: usize| b[k][i].as_f64().unwrap();
        assert_eq!(b["scrolled"].as_f64(), Some(150.0), "{b}");
        assert!(
            (at("before", 0) - at("after", 0)).abs() <= 1.0,
            "first cell moved: {b}"
        );
        assert!(
            (at("before", 1) - at("after", 1)).abs() <= 1.0,
            "first header moved: {b}"
        );
        assert!(
            at("before", 2) - at("after", 2) > 100.0,
            "second column did not scroll: {b}"
        );
        // Drawn over the cells that scroll under it, not behind them.
        assert_eq!(b["on_top"], true, "first cell covered: {b}");
    }
}

/// Every sample one click away, in the front page's site (`index`, its DOM): the matrix of
/// rca-wave-2 has a cell per problem and seat (4 × 6), most-solved first; a problem's page
/// lists every seat's attempt; what changed since rca-wave-1 (see tests/problems.rs for the
/// hand count).
fn every_sample_is_one_click_away(chromium: &Path, site: &Path, index: &str) {
    assert!(index.contains("href=\"waves/rca-wave-2/problems.html\""));
    let matrix = dom(chromium, &site.join("waves/rca-wave-2/problems.html"));
    let body = between(&matrix, "<tbody>", "</tbody>");
    let cells = [
        "<td class=\"pass\"",
        "<td class=\"fail\"",
        "<td class=\"missing\"",
    ]
    .iter()
    .map(|c| body.matches(c).count())
    .sum::<usize>();
    assert_eq!(cells, 4 * 6, "{body}");
    assert_eq!(first_cells(&matrix), ["rca-1", "rca-2", "rca-3", "rca-4"]);
    // On a phone the matrix scrolls sideways in its box, its problem column staying in view
    // (issue 31.4): scrolled to its end, every column has been shown, and the problems are
    // still at the box's left edge.
    let scrolled = probe(
        chromium,
        &site.join("waves/rca-wave-2/problems.html"),
        390,
        844,
        "(function(){var b=d.querySelector('.scroll'),wide=b.scrollWidth>b.clientWidth;\
         b.scrollLeft=b.scrollWidth;var c=b.querySelector('tbody td').getBoundingClientRect(),\
         r=b.getBoundingClientRect();return [wide,b.scrollLeft>0,Math.round(c.left-r.left)]})()",
    );
    assert_eq!(scrolled, serde_json::json!([true, true, 0]), "{scrolled}");
    let problem = dom(chromium, &site.join("waves/rca-wave-2/problems/rca-3.html"));
    let rows = between(&problem, "<tbody>", "</tbody>");
    assert_eq!(rows.matches("<tr>").count(), 6, "{rows}");
    assert_eq!(rows.matches("not Correct").count(), 2, "{rows}");
    the_named_imported_seat_and_where_its_attempts_came_from(chromium, site);
    // A wave of native result lines keeps no origin: no such column.
    assert!(!problem.contains("Came from"));
    let since = dom(
        chromium,
        &site.join("waves/rca-wave-2/since-rca-wave-1.html"),
    );
    assert!(strip_tags(&since).contains("1: rca-3"), "{since}");
}

/// A wave an importer could write: seat ids past 32 characters around a 40-character model
/// id (`azureai-Meta-Llama-3-1-405B-Instruct-jqf`), display names on two seats, and costs
/// under a cent, one of them unknown (`$0.0000550 (5 of 6)`), with a budget so that every
/// efficiency rubric scores it: with intervals, the widest leaderboard of the site.
fn cheap_wave_with_long_ids(dir: &Path) -> PathBuf {
    // Six problems; the Llama seat's fourth attempt records no cost.
    let lines = |costs: [Option<f64>; 6], correct: [bool; 6]| -> String {
        (0..6)
            .map(|i| {
                let cost = costs[i].map_or(String::new(), |c| format!(",\"cost_usd\":{c}"));
                format!(
                    "{{\"problem\":\"sum-{}\",\"correct\":{},\"input_tokens\":{},\
                     \"output_tokens\":{},\"wall_s\":{}{cost}}}\n",
                    i + 1,
                    correct[i],
                    900 + 37 * i,
                    120 + 11 * i,
                    4.5 + i as f64
                )
            })
            .collect()
    };
    let llama = lines(
        [
            Some(9.2e-6),
            Some(8.8e-6),
            Some(1.01e-5),
            None,
            Some(7.9e-6),
            Some(1.9e-5),
        ],
        [true, true, false, true, true, true],
    );
    let mini = lines(
        [
            Some(3.1e-6),
            Some(4.2e-6),
            Some(2.7e-6),
            Some(3.6e-6),
            Some(2.9e-6),
            Some(3.3e-6),
        ],
        [true, false, true, false, true, true],
    );
    let haiku = lines(
        [
            Some(1.2e-5),
            Some(1.5e-5),
            Some(1.1e-5),
            Some(1.4e-5),
            Some(1.3e-5),
            Some(1.6e-5),
        ],
        [true, true, true, false, true, true],
    );
    common::write_wave(
        &dir.join("cheap"),
        r#"
[wave]
id = "cheap-long-ids"
suite = "arith-cheap"
started_at = 2026-05-02T08:00:00Z
notes = "Cheap models with long ids from an importer: sub-cent costs, one cost unknown."

[wave.load]
parallel_sessions = 3
tool_server_sessions = 3

[wave.accounting]
input_tokens_include_cache_reads = true

[wave.budget]
tokens = 20_000
wall_s = 60

[[seat]]
id = "azureai-Meta-Llama-3-1-405B-Instruct-jqf-react-tools"
display_name = "Llama 3.1 405B Instruct (react, tools)"
model = "azureai-Meta-Llama-3-1-405B-Instruct-jqf"
provider = "azureai"
harness = "single-agent-react"
results = "llama.jsonl"

[[seat]]
id = "openai-gpt-4o-mini-2024-07-18-react-tools-v2"
model = "gpt-4o-mini-2024-07-18"
provider = "openai"
harness = "single-agent-react"
results = "mini.jsonl"

[[seat]]
id = "anthropic-claude-3-5-haiku-20241022-react"
display_name = "Claude 3.5 Haiku"
model = "claude-3-5-haiku-20241022"
provider = "anthropic"
harness = "single-agent-react"
results = "haiku.jsonl"
"#,
        &[
            ("llama.jsonl", &llama),
            ("mini.jsonl", &mini),
            ("haiku.jsonl", &haiku),
        ],
    )
}

/// The cheap wave's leaderboard on the front page (HTML `page`): too wide for one table at
/// 1400 px, it keeps the seat, the absolutes, the score, the rank and the rank range in the
/// first table and folds the remark into a second table of the same seats; a Cost-of-Pass
/// left unknown by a missing cost has no interval beside it; costs keep their digits.
fn the_cheap_wave_with_long_ids_keeps_every_column_in_view(page: &str) {
    let at = page
        .find("cheap-long-ids.html\">cheap-long-ids</a></h2>")
        .unwrap();
    let first = between(&page[at..], "<table", "</table>");
    let headers = strip_tags(between(first, "<thead>", "</thead>"));
    for h in [
        "Seat",
        "Correct",
        "USD",
        "Cost-of-Pass 95% CI",
        "Rank",
        "Rank range",
    ] {
        assert!(headers.contains(h), "{h}: {headers}");
    }
    assert!(!headers.contains("Remark"), "{headers}");
    let rest = &page[at + page[at..].find("</table>").unwrap()..];
    let second = between(rest, "<table", "</table>");
    assert!(second.contains("continued: Remark</caption>"), "{second}");
    assert_eq!(
        strip_tags(between(second, "<thead>", "</thead>")),
        "SeatRemark"
    );
    // The Llama seat: its display name, a cost of 5 of its 6 attempts, no Cost-of-Pass and no
    // interval around it.
    let row = between(first, "Llama 3.1 405B", "<tr>");
    let cells = cells_of(row);
    assert!(
        cells.iter().any(|c| c == "$0.0000550 (5 of 6)"),
        "{cells:?}"
    );
    let cop = cells.iter().position(|c| c == "—").unwrap();
    assert_eq!(cells[cop + 1], "—", "{cells:?}");
    // The same leaderboard in the terminal, named under it.
    assert!(
        page.contains(
            "The same leaderboard in the terminal: <code>benchledger score --wave cheap-long-ids \
             --rubric session-efficiency@2 --ci</code>."
        ),
        "{page}"
    );
}

/// The front page's list of every seat (HTML `page`): a named seat by its name, linked to its
/// page, its id beside the name and on hover; a seat without a name by its id.
fn the_seats_list_names_each_named_seat(page: &str) {
    let list = between(page, "<h2>Seats</h2>", "</ul>");
    let llama = "azureai-Meta-Llama-3-1-405B-Instruct-jqf-react-tools";
    assert!(
        list.contains(&format!(
            "<a href=\"seats/{llama}.html\" title=\"{llama}\">Llama 3.1 405B Instruct (react, \
             tools)</a> ({llama}, 1 wave)"
        )),
        "{list}"
    );
    let claude = "anthropic-claude-3-5-haiku-20241022-react";
    assert!(
        list.contains(&format!(
            "title=\"{claude}\">Claude 3.5 Haiku</a> ({claude}, 1 wave)"
        )),
        "{list}"
    );
    let mini = "openai-gpt-4o-mini-2024-07-18-react-tools-v2";
    assert!(
        list.contains(&format!(
            "<a href=\"seats/{mini}.html\">{mini}</a> (1 wave)"
        )),
        "{list}"
    );
    // No seat of the list is shown by its id alone when it has a name.
    assert!(!list.contains(&format!(">{llama}</a>")), "{list}");
}

/// The imported wave of the front page's test, its seat named: the name in its matrix, and a
/// problem page saying where each attempt came from (the log the manifest names, and the
/// sample and epoch: sample 2 ran 2 epochs).
fn the_named_imported_seat_and_where_its_attempts_came_from(chromium: &Path, site: &Path) {
    // An imported wave's problem page says where each attempt came from: the log the
    // manifest names, and the sample and epoch (sample 2 ran 2 epochs); its seat by name.
    let imported = dom(chromium, &site.join("waves/arith-mini/problems/2.html"));
    let rows = between(&imported, "<tbody>", "</tbody>");
    assert_eq!(rows.matches("<tr>").count(), 2, "{rows}");
    assert!(imported.contains(">Came from</th>"), "{imported}");
    for epoch in [1, 2] {
        assert!(
            rows.contains(&format!(
                "<code class=\"path\">run.json</code><br>sample 2 epoch {epoch}"
            )),
            "{rows}"
        );
    }
    assert!(rows.contains("Claude Sonnet 4.5 (tools)"), "{rows}");
    // Issue 31, #5: the sample itself, under the attempts: problem 1's input and target once
    // (both trials share them), then each trial collapsed with its answer and the deciding
    // scorer's explanation (trial 2 answered 41).
    let one = dom(chromium, &site.join("waves/arith-mini/problems/1.html"));
    let sample = between(&one, "<h2>The sample</h2>", "</main>");
    assert!(
        sample.contains("<h3>Input</h3><pre class=\"sample\">What is 6 * 7? Use the tools.</pre>")
            && sample.contains("<h3>Target</h3><pre class=\"sample\">42</pre>"),
        "{sample}"
    );
    assert_eq!(
        sample.matches("<details class=\"sample\">").count(),
        2,
        "{sample}"
    );
    assert!(
        !sample.contains("<details class=\"sample\" open"),
        "{sample}"
    );
    assert!(
        sample.contains("<dt>Answer</dt><dd><pre class=\"sample\">41</pre></dd>")
            && sample.contains("41 is not the target 42."),
        "{sample}"
    );
    let matrix = dom(chromium, &site.join("waves/arith-mini/problems.html"));
    assert!(
        matrix.contains("<span title=\"claude-react\">Claude Sonnet 4.5 (tools)</span>"),
        "{matrix}"
    );
}

/// The cells' texts of each body row of the first table in `s`, tags stripped (with or without
/// the end tags HTML infers).
fn rows_of(s: &str) -> Vec<Vec<String>> {
    between(s, "<tbody>", "</tbody>")
        .split("<tr>")
        .filter(|r| r.contains("<td"))
        .map(cells_of)
        .collect()
}

/// The suites' headings on a front page, in order.
fn suite_heads(page: &str) -> Vec<String> {
    page.split("<h2 id=\"suite-")
        .skip(1)
        .map(|h| strip_tags(between(h, ">", "</h2>")))
        .collect()
}

/// The examples' ledger with the Inspect fixture's wave (suite `arith`, the newest).
fn four_suites() -> Env {
    let env = example_ledger();
    env.ingest(&[&common::crate_path(
        "tests/fixtures/import/inspect/wave.toml",
    )]);
    env
}

/// Issue 31, item 1: the front page leads with the suite whose latest wave is newest, under a
/// table of contents (suite, its leader and score, the rubric, the latest wave, seats); each board carries one
/// line of notes linking to the one page that explains them all.
#[test]
fn the_index_leads_with_the_newest_suite_under_its_contents() {
    let env = four_suites();
    let site = env.path().join("site");
    env.run(["site", "--out", site.to_str().unwrap()]).ok();
    let page = std::fs::read_to_string(site.join("index.html")).unwrap();
    // arith-mini started on May 1, checkout-rematch in March, rca-wave-2 in February; every
    // wave of competitor-prices-csv is withdrawn.
    assert_eq!(
        suite_heads(&page),
        [
            "Suite arith: wave arith-mini",
            "Suite checkout-outage-rca: wave checkout-rematch",
            "Suite grafana-incident-rca: wave rca-wave-2",
            "Suite competitor-prices-csv",
        ]
    );
    // The contents come first, a row per suite in the same order, each naming the seat its
    // board ranks first and that seat's score as the board prints it.
    let contents = between(&page, "<table class=\"contents\">", "</table>");
    assert!(page.find("<table class=\"contents\">") < page.find("<h2 id=\"suite-"));
    let rows = rows_of(contents);
    let suites: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(
        suites,
        [
            "arith",
            "checkout-outage-rca",
            "grafana-incident-rca",
            "competitor-prices-csv"
        ]
    );
    for (row, wave) in rows
        .iter()
        .zip(["arith-mini", "checkout-rematch", "rca-wave-2"])
    {
        assert_eq!(row[4], wave, "{row:?}");
        let board = between(&page, &format!("{wave}.html\">{wave}</a></h2>"), "</table>");
        let first = &rows_of(board)[0];
        let headers: Vec<String> = between(board, "<thead>", "</thead>")
            .split("</th>")
            .map(strip_tags)
            .filter(|h| !h.is_empty())
            .collect();
        let under = between(board, "Ranked under <strong>", "</strong>")
            .trim_start_matches("Ranked under <strong>")
            .to_string();
        let score = headers
            .iter()
            .position(|h| h.starts_with(&format!("{under} · ")))
            .unwrap();
        // A seat tied with others for the first rank says so ("google-react (tied with 1 more)").
        assert!(row[1].starts_with(&first[0]), "{row:?} {first:?}");
        assert_eq!(&row[3], &under, "{row:?}");
        assert!(row[2].starts_with(&format!("{} ", first[score])), "{row:?}");
        assert!(contents.contains(&format!("href=\"#suite-{}\"", row[0])));
    }
    assert_eq!(rows[1][1], "google-react (tied with 1 more)");
    assert_eq!(rows[3][1], "every wave withdrawn");
    // Each explanation once, on the page every board's note links to; the front page says
    // none of them at length.
    let manual = std::fs::read_to_string(site.join("how-to-read.html")).unwrap();
    for (long, anchor) in [
        ("Holm-corrected", "groups"),
        ("a percentile bootstrap over problems", "intervals"),
        (
            "upper convex hull of the points that are Pareto-efficient",
            "frontier",
        ),
        (
            "Cost-of-Pass</strong>: total USD / number Correct",
            "absolutes",
        ),
    ] {
        assert!(!page.contains(long), "{long}");
        assert!(manual.contains(long), "{long}");
        assert!(manual.contains(&format!("id=\"{anchor}\"")), "{anchor}");
    }
    assert_eq!(page.matches("<p class=\"note board-note\">").count(), 3);
    assert_eq!(
        page.matches("<a href=\"how-to-read.html#absolutes\">How to read this board</a>")
            .count(),
        3
    );
    if let Some(chromium) = chromium() {
        each_board_note_is_one_line(&chromium, &site);
    }
}

/// In Chromium at 1400 px, each board's note on the front page at `site` is one line (its box
/// no taller than one and a half of its lines); the how-to-read page passes axe-core.
fn each_board_note_is_one_line(chromium: &Path, site: &Path) {
    let tall = probe(
        chromium,
        &site.join("index.html"),
        1400,
        900,
        "[].slice.call(d.querySelectorAll('p.board-note')).map(function(p){\
         var h=p.getBoundingClientRect().height,l=parseFloat(w.getComputedStyle(p).lineHeight);\
         return h>1.5*l?p.textContent+' '+h+'>'+l:''}).filter(String)",
    );
    assert_eq!(tall, serde_json::json!([]), "{tall}");
    framed_screenshot(
        chromium,
        &site.join("index.html"),
        "index-contents-1400",
        1400,
        900,
    );
    framed_screenshot(
        chromium,
        &site.join("how-to-read.html"),
        "how-to-read-1400",
        1400,
        900,
    );
    if let Some(axe) = axe_core() {
        let found = axe_violations(chromium, &axe, &site.join("how-to-read.html"));
        assert!(
            found.is_empty(),
            "how-to-read.html: axe-core finds {found:?}"
        );
    }
}

/// Issue 31, item 1: `site.toml` titles the front page, describes it, pins a suite first and
/// hides another (its wave still listed and paged).
#[test]
fn site_toml_titles_the_index_pins_and_hides_suites() {
    let env = four_suites();
    let site = env.path().join("site");
    // site.toml: a title and a description; grafana pinned first, checkout hidden (its wave
    // still listed and paged).
    let config = env.path().join("site.toml");
    std::fs::write(
        &config,
        "title = \"RCA <leaderboard>\"\ndescription = \"Incidents, monthly.\"\n\
         pinned = [\"grafana-incident-rca\"]\nhidden = [\"checkout-outage-rca\"]\n\
         artifacts = \"https://example.org/runs/\"\n",
    )
    .unwrap();
    env.run([
        "site",
        "--out",
        site.to_str().unwrap(),
        "--config",
        config.to_str().unwrap(),
    ])
    .ok();
    let page = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert_eq!(
        suite_heads(&page),
        [
            "Suite grafana-incident-rca: wave rca-wave-2",
            "Suite arith: wave arith-mini",
            "Suite competitor-prices-csv",
        ]
    );
    assert!(page.contains("<h1>RCA &lt;leaderboard&gt;</h1>"));
    assert!(page.contains("<title>RCA &lt;leaderboard&gt; · benchledger</title>"));
    assert!(page.contains("<p class=\"description\">Incidents, monthly.</p>"));
    let contents = between(&page, "<table class=\"contents\">", "</table>");
    assert!(!contents.contains("checkout"), "{contents}");
    assert!(page.contains("<a href=\"waves/checkout-rematch.html\">checkout-rematch</a>"));
    assert!(site.join("waves/checkout-rematch.html").is_file());
}

/// Issue 31, item 1: a mistake in `site.toml` is named by file, line and field, and nothing is
/// written.
#[test]
fn a_mistake_in_site_toml_is_named_and_nothing_is_written() {
    let env = four_suites();
    let config = env.path().join("site.toml");
    for (text, want) in [
        (
            "title = \"x\"\n\ncolour = \"red\"\n",
            "site.toml:3: field `colour`: unknown field `colour`",
        ),
        (
            "pinned = [\"nope\"]\n",
            "site.toml:1: field `pinned`: the ledger holds no suite \"nope\" (its suites: arith, \
             checkout-outage-rca, competitor-prices-csv, grafana-incident-rca)",
        ),
        (
            "pinned = [\"arith\"]\nhidden = [\"arith\"]\n",
            "site.toml:2: field `hidden`: suite \"arith\" is both pinned and hidden",
        ),
        (
            "title = \"x\"\nattempt_pages = \"lots\"\n",
            "site.toml:2: field `attempt_pages`: is \"lots\": expected a whole number of \
             attempts (0 or more, such as 10000) or \"all\"",
        ),
    ] {
        std::fs::write(&config, text).unwrap();
        let fresh = env.path().join("fresh");
        let out = env
            .run([
                "site",
                "--out",
                fresh.to_str().unwrap(),
                "--config",
                config.to_str().unwrap(),
            ])
            .status(2);
        assert!(out.stderr.contains(want), "{text:?}: {}", out.stderr);
        assert!(!fresh.exists(), "{text:?}");
    }
}

/// Every HTML page under `site`, sorted.
fn every_page(site: &Path) -> Vec<PathBuf> {
    let mut pages = Vec::new();
    let mut dirs = vec![site.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "html") {
                pages.push(p);
            }
        }
    }
    pages.sort();
    pages
}

/// Issue 31, item 2: the waves table folded a second table off just to show a `Timeout ×`
/// column whose every cell was `—`. No table of any page, as Chromium lays it out, has a
/// column whose every cell is unknown; the waves table is one table, and one note under it
/// says what no wave records; the terminal's table leaves the column out alike.
#[test]
fn no_page_shows_a_column_no_row_records() {
    let env = example_ledger();
    env.ingest(&[&common::crate_path(
        "tests/fixtures/import/inspect/wave.toml",
    )]);
    let site = env.path().join("site");
    env.run(["site", "--out", site.to_str().unwrap()]).ok();
    let page = std::fs::read_to_string(site.join("index.html")).unwrap();
    let waves = between(&page, "<h2>Waves</h2>", "<h2>Rubrics</h2>");
    assert_eq!(waves.matches("<table").count(), 1, "{waves}");
    assert!(!waves.contains("Timeout ×</th>"), "{waves}");
    assert_eq!(
        waves
            .matches(
                "<p class=\"note unrecorded\">Unknown for every wave, so left out: Timeout ×.</p>"
            )
            .count(),
        1,
        "{waves}"
    );
    let terminal = env.run(["waves"]).ok().stdout;
    assert!(
        !terminal.lines().next().unwrap().contains("Timeout"),
        "{terminal}"
    );
    assert!(
        terminal.contains("Unknown for every wave, so left out: Timeout ×."),
        "{terminal}"
    );
    // The CSV keeps every column, for machines.
    let csv = env.run(["waves", "--format", "csv"]).ok().stdout;
    assert!(csv.lines().next().unwrap().contains("timeout"), "{csv}");
    // A problem's page: the imported wave records no end reason for problem 1; the native
    // rca-wave-2 no end reason and no trace for rca-1. The numbers' columns are still set right
    // (the page's own rule, for the columns it shows).
    let problem = std::fs::read_to_string(site.join("waves/arith-mini/problems/1.html")).unwrap();
    assert!(!problem.contains(">End reason</th>"));
    assert!(problem.contains("Unknown for every attempt, so left out: End reason."));
    assert!(problem.contains("<table class=\"attempts trimmed\">"));
    let problem =
        std::fs::read_to_string(site.join("waves/rca-wave-2/problems/rca-1.html")).unwrap();
    assert!(problem.contains("Unknown for every attempt, so left out: End reason and Trace."));
    let Some(chromium) = chromium() else { return };
    let right = probe(
        &chromium,
        &site.join("waves/rca-wave-2/problems/rca-1.html"),
        1400,
        900,
        "[].slice.call(d.querySelector('table.attempts').tBodies[0].rows[0].cells)\
         .map(function(c){return w.getComputedStyle(c).textAlign})",
    );
    // Seat, Trial, Outcome, Tokens, Wall s, USD, Steps, Errors.
    assert_eq!(
        right,
        serde_json::json!([
            "left", "right", "left", "right", "right", "right", "right", "right"
        ])
    );
    // Every page but the problems' (one of each wave's is enough: they are built alike).
    let mut empty = Vec::new();
    let mut waves_seen = std::collections::BTreeSet::new();
    let pages = every_page(&site).into_iter().filter(|p| {
        let problems = p.parent().and_then(|d| d.file_name()) == Some("problems".as_ref());
        !problems || waves_seen.insert(p.parent().unwrap().to_path_buf())
    });
    for p in pages {
        let found = probe(
            &chromium,
            &p,
            1400,
            900,
            "(function(){var o=[];[].slice.call(d.querySelectorAll('table')).forEach(function(t){\
             var hs=t.tHead?t.tHead.rows[0].cells:[];if(!t.tBodies[0])return;\
             var rs=[].slice.call(t.tBodies[0].rows).filter(function(r){return r.cells.length===hs.length});\
             if(!rs.length)return;for(var i=1;i<hs.length;i++){\
             if(rs.every(function(r){var x=r.cells[i].textContent.trim();return x===''||x==='—'}))\
             o.push((t.caption?t.caption.textContent:'')+': '+hs[i].textContent)}});return o})()",
        );
        if found != serde_json::json!([]) {
            empty.push(format!(
                "{}: {found}",
                p.strip_prefix(&site).unwrap().display()
            ));
        }
    }
    assert!(empty.is_empty(), "{empty:#?}");
}

/// Issue 31, item 3: on rca-wave-2's page the board under session-efficiency@1 (which fails
/// `rubric check` and prints 125 on 0–100) sat above the v2 one. Under each wave, the boards of
/// rubrics that pass come first; a failing rubric's after them, collapsed and marked.
#[test]
fn a_failing_rubrics_board_comes_after_the_passing_ones_collapsed() {
    let env = example_ledger();
    let site = env.path().join("site");
    env.run(["site", "--out", site.to_str().unwrap()]).ok();
    let page = std::fs::read_to_string(site.join("waves/rca-wave-2.html")).unwrap();
    let heads: Vec<String> = page
        .split("<h3>Under ")
        .skip(1)
        .map(|h| strip_tags(&format!("Under {}", between(h, "", "</h3>"))))
        .collect();
    assert_eq!(heads.len(), 8, "{heads:?}");
    let failing: Vec<usize> = (0..heads.len())
        .filter(|&i| heads[i].contains("fails rubric check"))
        .collect();
    assert_eq!(failing, [7], "{heads:?}");
    assert!(
        heads[7].starts_with("Under session-efficiency@1"),
        "{heads:?}"
    );
    let v1 = page.find("<h3>Under session-efficiency@1").unwrap();
    let v2 = page.find("<h3>Under session-efficiency@2").unwrap();
    assert!(v2 < v1);
    // Collapsed: inside a closed <details>, its heading the summary.
    let details = &page[page[..v1].rfind("<details").unwrap()..v1];
    assert_eq!(details, "<details class=\"failing\"><summary>", "{details}");
    // The front page ranks on a rubric that passes.
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    let board = between(&index, "rca-wave-2.html\">rca-wave-2</a></h2>", "</table>");
    assert!(!board.contains("session-efficiency@1"), "{board}");
    let Some(chromium) = chromium() else { return };
    let wave = site.join("waves/rca-wave-2.html");
    let shown = probe(
        &chromium,
        &wave,
        1400,
        900,
        "[].slice.call(d.querySelectorAll('h3')).filter(function(h){return /^Under /.test(h.textContent)})\
         .map(function(h){var t=h.closest('details');var b=(t||h.parentNode).querySelector('table');\
         return [h.textContent.split(' ')[1], t?t.open:null, h.getBoundingClientRect().height>0]})",
    );
    let shown = shown.as_array().unwrap();
    assert_eq!(shown.len(), 8);
    assert_eq!(
        shown[7],
        serde_json::json!(["session-efficiency@1fails", false, true]),
        "{shown:?}"
    );
    // The collapsed board's table takes no room until it is opened.
    let hidden = probe(
        &chromium,
        &wave,
        1400,
        900,
        "(function(){var x=d.querySelector('details.failing'),t=x.querySelector('table');\
         var before=[t.checkVisibility(),x.getBoundingClientRect().height];x.open=true;\
         return [before[0],before[1]<80,t.checkVisibility(),x.getBoundingClientRect().height>before[1]+100]})()",
    );
    assert_eq!(
        hidden,
        serde_json::json!([false, true, true, true]),
        "{hidden}"
    );
    framed_screenshot(&chromium, &wave, "wave-failing-board-1400", 1400, 900);
    if let Some(axe) = axe_core() {
        let found = axe_violations(&chromium, &axe, &wave);
        assert!(found.is_empty(), "rca-wave-2: axe-core finds {found:?}");
    }
}

/// Issue 31, item 7: bench/site's 5,000 problem pages were 27.6 MB, each repeating two
/// paragraphs of explanation and closing every cell and row. A problem's rows carry no end tag
/// HTML can infer (a browser reads the same table: `every_sample_is_one_click_away` counts its
/// rows in Chromium's DOM), and the page links to what its table means, said once on the "How
/// to read this" page.
fn issue_31_7_a_problem_page_carries_its_rows_and_a_link_to_what_they_mean(
    site: &Path,
    problem: &str,
) {
    let rows = between(problem, "<tbody>", "</tbody>");
    assert_eq!(rows.matches("<tr>").count(), 6, "{rows}");
    assert!(!rows.contains("</td>") && !rows.contains("</tr>"), "{rows}");
    assert!(problem.contains("href=\"../../../how-to-read.html#attempts\""));
    assert!(!problem.contains("input plus output"), "{problem}");
    let manual = std::fs::read_to_string(site.join("how-to-read.html")).unwrap();
    let section = between(&manual, "<h2 id=\"attempts\">", "</main>");
    assert!(section.contains("input plus output") && section.contains("Came from"));
}

/// Issue 31, item 7: bench/site was 63 MB, every page carrying its own stylesheet and script.
/// The whole site shares one stylesheet and one script, loaded from `file://` in Chromium under
/// each page's policy; no page carries an inline script or the stylesheet's rules, and a
/// problem's page carries nothing but what it shows (its frame under 800 bytes).
#[test]
fn one_stylesheet_and_one_script_serve_the_whole_site_from_file() {
    let env = example_ledger();
    let site = env.path().join("site");
    env.run(["site", "--out", site.to_str().unwrap()]).ok();
    let css = std::fs::read_to_string(site.join("style.css")).unwrap();
    assert!(css.contains("svg .whisker") && css.contains("th[data-dir=asc]"));
    let js = std::fs::read_to_string(site.join("site.js")).unwrap();
    assert!(js.contains("table.sortable"));
    for page in every_page(&site) {
        let text = std::fs::read_to_string(&page).unwrap();
        let depth = page.strip_prefix(&site).unwrap().components().count() - 1;
        let root = "../".repeat(depth);
        assert!(
            text.contains(&format!(
                "<link rel=\"stylesheet\" href=\"{root}style.css\">"
            )),
            "{}",
            page.display()
        );
        assert!(!text.contains("<script>"), "{}", page.display());
        assert!(
            !text.contains("font-family:system-ui"),
            "{}",
            page.display()
        );
        let sorts = text.contains("class=\"sortable");
        assert_eq!(
            text.contains(&format!("<script src=\"{root}site.js\"></script>")),
            sorts,
            "{}",
            page.display()
        );
    }
    // A problem's page: everything outside its <main> is its head (with, as here, where it
    // leaves columns out, its own rule for the numbers' columns) and the link home.
    let problem =
        std::fs::read_to_string(site.join("waves/rca-wave-2/problems/rca-3.html")).unwrap();
    let main = between(&problem, "<main>", "</main>").len();
    assert!(
        problem.len() - main < 800,
        "{} bytes of frame: {problem}",
        problem.len() - main
    );
    issue_31_7_a_problem_page_carries_its_rows_and_a_link_to_what_they_mean(&site, &problem);
    let Some(chromium) = chromium() else { return };
    // From file://: the stylesheet applies (the navigation's background) and the script runs
    // (it marks each table it wires), on a page two folders down as on the index.
    for page in [
        "index.html",
        "waves/rca-wave-2/problems.html",
        "waves/rca-wave-2/problems/rca-3.html",
    ] {
        let got = probe(
            &chromium,
            &site.join(page),
            1400,
            900,
            "[w.getComputedStyle(d.querySelector('nav')).backgroundColor,\
             d.querySelectorAll('table.sortable').length===d.querySelectorAll('table[data-sortable]').length]",
        );
        assert_eq!(
            got,
            serde_json::json!(["rgb(242, 244, 247)", true]),
            "{page}: {got}"
        );
    }
}

/// Issue 31, item 6: the front page's boards and seats list, and a wave's matrix, filter as one
/// types (by seat, and in the seats list by model, provider or harness; by problem in the
/// matrix), with the site's one script; without it there is no box and every row shows.
#[test]
fn boards_seats_and_the_matrix_filter_as_one_types() {
    let env = example_ledger();
    let site = env.path().join("site");
    env.run(["site", "--out", site.to_str().unwrap()]).ok();
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(!index.contains("<input"), "the boxes are the script's");
    assert!(index.contains("data-filter=\"seat, model, provider or harness\""));
    let Some(chromium) = chromium() else { return };
    let got = probe(
        &chromium,
        &site.join("index.html"),
        1400,
        900,
        "(function(){var o={};function type(i,v){i.value=v;i.dispatchEvent(new w.Event('input'))}\
         function shown(rows){return [].slice.call(rows).filter(function(r){return !r.hidden})}\
         var box=[].slice.call(d.querySelectorAll('[data-filter]')).filter(function(x){var c=x.querySelector('caption');\
         return c&&c.textContent.indexOf('wave rca-wave-2')>=0})[0];\
         type(box.previousElementSibling,'Hierarchical');\
         o.board=shown(box.querySelector('tbody').rows).map(function(r){return r.cells[0].textContent}).sort();\
         var ul=d.querySelector('ul.seats'),j=ul.previousElementSibling;o.label=j.getAttribute('aria-label');\
         type(j,'grok');o.grok=shown(ul.children).map(function(l){return l.querySelector('a').textContent});\
         type(j,'');o.all=shown(ul.children).length;return o})()",
    );
    assert_eq!(
        got,
        serde_json::json!({
            "board": ["anthropic-hierarchical", "openai-hierarchical", "xai-hierarchical"],
            "label": "Filter by seat, model, provider or harness",
            "grok": ["five-repeats", "xai-hierarchical", "xai-react"],
            "all": 12,
        }),
        "{got}"
    );
    let matrix = probe(
        &chromium,
        &site.join("waves/rca-wave-2/problems.html"),
        1400,
        900,
        "(function(){var x=d.querySelector('[data-filter]'),i=x.previousElementSibling;i.value='rca-3';\
         i.dispatchEvent(new w.Event('input'));return [].slice.call(x.querySelector('tbody').rows)\
         .filter(function(r){return !r.hidden}).map(function(r){return r.cells[0].textContent})})()",
    );
    assert_eq!(matrix, serde_json::json!(["rca-3"]), "{matrix}");
}

#[test]
fn a_wave_without_a_budget_is_ranked_on_plain_accuracy() {
    // No rubric registered at all: the imported wave still has a leaderboard, on accuracy.
    let env = Env::with_waves(&["tests/fixtures/import/inspect/wave.toml"]);
    let site = env.path().join("site");
    env.run(["site", "--out", site.to_str().unwrap()]).ok();
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    let board = between(&index, "arith-mini.html\">arith-mini</a></h2>", "</figure>");
    assert!(
        board.contains("Ranked under <strong>accuracy@1</strong>"),
        "{board}"
    );
    assert!(board.contains("so it is ranked on plain accuracy"));
    // 2 of 6 Correct (the fixture's hand count): 0.333, rank 1.
    let text = strip_tags(board);
    assert!(
        text.contains("2/6 33.3%") && text.contains("0.333"),
        "{text}"
    );
    let wave = std::fs::read_to_string(site.join("waves/arith-mini.html")).unwrap();
    assert!(wave.contains("<h3>Under accuracy@1"), "{wave}");
    // The page names the command that prints this leaderboard, and it does, unregistered.
    let command = "benchledger score --wave arith-mini --rubric accuracy@1 --ci";
    assert!(
        board.contains(&format!(
            "The same leaderboard in the terminal: <code>{command}</code>."
        )),
        "{board}"
    );
    let mut args: Vec<&str> = command.split(' ').skip(1).collect();
    args.extend(["--format", "json"]);
    let score = env.run(args).ok().json();
    assert_eq!(
        (&score["rubric"]["name"], &score["rubric"]["version"]),
        (&serde_json::json!("accuracy"), &serde_json::json!(1)),
        "{score}"
    );
    assert_eq!(score["rubric"]["registered"], false);
    assert_eq!(score["seats"][0]["seat"], "claude-react");
    assert_eq!(score["seats"][0]["rank"], 1);
    assert!((score["seats"][0]["score"].as_f64().unwrap() - 2.0 / 6.0).abs() < 1e-12);
    // Its interval around a Cost-of-Pass that one cost-less attempt leaves unknown: none.
    assert_eq!(
        score["seats"][0]["cost_of_pass_usd"],
        serde_json::Value::Null
    );
    assert_eq!(
        score["seats"][0]["cost_of_pass_ci"],
        serde_json::Value::Null
    );
    // Found by name only to be scored: a publication still needs it registered.
    let err = env
        .run([
            "publish",
            "--wave",
            "arith-mini",
            "--rubric",
            "accuracy@1",
            "--title",
            "t",
        ])
        .status(2);
    assert!(
        err.stderr.contains("accuracy@1 is not registered"),
        "{}",
        err.stderr
    );
    // A rubric named on the command line must exist.
    let err = env
        .run([
            "site",
            "--out",
            site.to_str().unwrap(),
            "--rubric",
            "nope@1",
        ])
        .status(2);
    assert!(
        err.stderr.contains("no rubric nope@1 is registered"),
        "{}",
        err.stderr
    );
}

/// A new user's check: the index's waves table folded a second table off to show one narrow
/// column (`Timeout ×`, with `Attempts`), and a seat's table one of `USD` alone. The examples
/// with the checkout rematch run under a timeout multiplier and a longer id: every table stays
/// whole, and (in Chromium) none is wider than its box at 1400 px.
#[test]
fn a_narrow_column_is_not_folded_into_a_table_of_its_own() {
    let env = Env::init();
    let mut manifests: Vec<PathBuf> = common::examples()
        .into_iter()
        .filter(|p| !p.to_string_lossy().contains("checkout-rematch"))
        .collect();
    let from = common::crate_path("examples/checkout-rematch");
    let to = env.path().join("checkout-rematch");
    std::fs::create_dir(&to).unwrap();
    for e in std::fs::read_dir(&from).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
    }
    let manifest = to.join("wave.toml");
    let text = std::fs::read_to_string(&manifest)
        .unwrap()
        .replacen(
            "id = \"checkout-rematch\"",
            "id = \"checkout-rematch-march-2026\"",
            1,
        )
        .replacen(
            "serial_rerun = false",
            "serial_rerun = false\ntimeout_multiplier = 2",
            1,
        );
    assert!(text.contains("timeout_multiplier = 2") && text.contains("march-2026"));
    std::fs::write(&manifest, text).unwrap();
    manifests.push(manifest);
    let paths: Vec<&Path> = manifests.iter().map(PathBuf::as_path).collect();
    env.ingest(&paths);
    env.run(["withdraw", "prices-csv", "--reason", "a trial run"])
        .ok();
    let site = env.path().join("site");
    env.run(["site", "--out", site.to_str().unwrap()]).ok();
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    let waves = between(&index, "<h2>Waves</h2>", "</table>");
    assert!(waves.contains(">Timeout ×</th>"), "{waves}");
    for page in every_page(&site) {
        let text = std::fs::read_to_string(&page).unwrap();
        assert!(!text.contains(", continued: "), "{}", page.display());
    }
    if let Some(chromium) = chromium() {
        for page in ["index.html", "seats/anthropic-react.html"] {
            let wide = measure(&chromium, &site.join(page), 1400, 900);
            assert_eq!(wide["clipped"], serde_json::json!([]), "{page}: {wide}");
        }
    }
}

/// A new user's check: the front page's contents put one suite's accuracy@1 (0–1) beside
/// another's session-efficiency@2 (0–100) in one Score column, "0.333" over "100.00". Each
/// score is shown on its rubric's declared scale, in the contents and in each board's score
/// column; a relative score stays labelled.
#[test]
fn each_score_on_the_front_page_says_its_rubrics_scale() {
    let examples = common::examples();
    let mut paths: Vec<&str> = examples.iter().map(|p| p.to_str().unwrap()).collect();
    paths.push("tests/fixtures/import/inspect/wave.toml");
    let env = Env::with_waves(&paths);
    env.run(["rubric", "add", "rubrics/session-efficiency.v2.toml"])
        .ok();
    let site = env.path().join("site");
    env.run(["site", "--out", site.to_str().unwrap()]).ok();
    let page = std::fs::read_to_string(site.join("index.html")).unwrap();
    let contents = between(&page, "<table class=\"contents\">", "</table>");
    let rows = rows_of(contents);
    let scored: Vec<(&str, &str, &str)> = rows
        .iter()
        .filter(|r| r.len() > 4)
        .map(|r| (r[0].as_str(), r[2].as_str(), r[3].as_str()))
        .collect();
    assert_eq!(
        scored,
        [
            ("arith", "0.333 of 1", "accuracy@1"),
            (
                "competitor-prices-csv",
                "100.00 of 100",
                "session-efficiency@2"
            ),
            (
                "checkout-outage-rca",
                "100.00 of 100",
                "session-efficiency@2"
            ),
            (
                "grafana-incident-rca",
                "100.00 of 100",
                "session-efficiency@2"
            ),
        ],
        "{contents}"
    );
    // Each board's score column names its scale.
    let arith = between(&page, "arith-mini.html\">arith-mini</a></h2>", "</table>");
    assert!(
        arith.contains(">accuracy@1 · <span class=\"nw\">scale 0–1</span></th>"),
        "{arith}"
    );
    let rca = between(&page, "rca-wave-2.html\">rca-wave-2</a></h2>", "</table>");
    assert!(
        rca.contains(">session-efficiency@2 · <span class=\"nw\">scale 0–100</span></th>"),
        "{rca}"
    );
    // Ranked under the relative rubric, a score says it ranks inside its wave only.
    env.run(["rubric", "add", "rubrics/cohort-efficiency.v1.toml"])
        .ok();
    env.run([
        "site",
        "--out",
        site.to_str().unwrap(),
        "--rubric",
        "cohort-efficiency@1",
    ])
    .ok();
    let page = std::fs::read_to_string(site.join("index.html")).unwrap();
    let contents = between(&page, "<table class=\"contents\">", "</table>");
    let rows = rows_of(contents);
    let rca = rows
        .iter()
        .find(|r| r[0] == "grafana-incident-rca")
        .unwrap();
    assert!(
        rca[2].ends_with(" on a scale from 0, relative: this wave only"),
        "{rca:?}"
    );
    assert!(
        page.contains(">cohort-efficiency@1 (relative, this wave only) · <span class=\"nw\">scale from 0</span></th>"),
        "{page}"
    );
}

#[test]
fn a_wave_past_the_problem_page_limit_gets_its_matrix_and_no_page_per_problem() {
    let env = Env::with_waves(&[
        "examples/rca-wave-1/wave.toml",
        "tests/fixtures/import/terminal-bench/wave.toml",
    ]);
    let site = env.path().join("site");
    env.run([
        "site",
        "--out",
        site.to_str().unwrap(),
        "--problem-pages",
        "3",
    ])
    .ok();
    // rca-wave-1 has 4 problems: past 3, so its matrix alone, saying how to get the rest.
    let matrix = std::fs::read_to_string(site.join("waves/rca-wave-1/problems.html")).unwrap();
    assert!(
        matrix.contains("too many problems for a page each"),
        "{matrix}"
    );
    assert!(!site.join("waves/rca-wave-1/problems").exists());
    // tb-mini has 2: a page each.
    assert!(site.join("waves/tb-mini/problems/fix-git.html").is_file());
    assert!(
        site.join("waves/tb-mini/problems/hello-world.html")
            .is_file()
    );
}

/// The numbers a stretch of a page keeps for sorting (`data-v`), where they are numbers.
fn sort_values(s: &str) -> Vec<f64> {
    s.split("data-v=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next()?.parse().ok())
        .collect()
}

/// Whether `values` holds `x`, to the last bits of a sum.
fn holds(values: &[f64], x: f64) -> bool {
    values.iter().any(|v| (v - x).abs() < 1e-12)
}

#[test]
fn site_prices_fills_the_costs_a_format_did_not_record() {
    // recall-openai records no cost (Inspect 0.3.183 wrote none); arith-mini records 5 of 6.
    // The hand-computed costs are in the price table fixture's comments.
    let env = Env::with_waves(&[
        "tests/fixtures/import/inspect/wave.toml",
        "tests/fixtures/import/inspect/openai.toml",
    ]);
    env.run(["prices", "add", "tests/fixtures/prices/site-check.v1.toml"])
        .ok();
    let read = |site: &Path, page: &str| std::fs::read_to_string(site.join(page)).unwrap();
    let advice = "Add a price table (<code>benchledger prices add TABLE.toml</code>) and render \
                  with <code>benchledger site --prices NAME@VERSION</code>";

    // Without --prices: no chart, and the advice names the command that draws one.
    let plain = env.path().join("plain");
    env.run(["site", "--no-ci", "--out", plain.to_str().unwrap()])
        .ok();
    let recall = read(&plain, "waves/recall-openai.html");
    assert!(
        recall.contains("no attempt of this wave records a cost"),
        "{recall}"
    );
    assert!(recall.contains(advice), "{recall}");
    assert!(!recall.contains("id=\"frontier\""));
    assert!(!recall.contains("Prices: site-check@1"));
    let arith = read(&plain, "waves/arith-mini.html");
    assert!(
        arith.contains("Not plotted: claude-react (cost unknown for some attempts). "),
        "{arith}"
    );
    assert!(arith.contains(advice), "{arith}");
    assert!(read(&plain, "index.html").contains(advice));

    // With --prices: the costs are filled in before anything is ranked or drawn.
    let priced = env.path().join("priced");
    env.run([
        "site",
        "--no-ci",
        "--prices",
        "site-check@1",
        "--out",
        priced.to_str().unwrap(),
    ])
    .ok();
    let recall = read(&priced, "waves/recall-openai.html");
    // One seat: its cost and accuracy in a line, where a chart would hold its one point.
    assert!(
        recall.contains("No cost–accuracy chart for one seat: "),
        "{recall}"
    );
    assert!(!recall.contains(advice));
    // $0.00225 + $0.004125 = $0.006375, and 1 Correct: Cost-of-Pass the same.
    let board = between(&recall, "<h3>Under accuracy@1", "</table>");
    let values = sort_values(board);
    assert_eq!(
        values
            .iter()
            .filter(|v| (*v - 0.006375).abs() < 1e-12)
            .count(),
        2,
        "USD and Cost-of-Pass: {board}"
    );
    assert!(
        recall.contains(
            "Prices: site-check@1 (sha256 1e30a488a0de), USD per million tokens, dated \
             2026-05-01: filled in the cost of 2 attempts that lacked one; 0 recorded costs \
             kept; 0 attempts left without a cost."
        ),
        "{recall}"
    );
    // arith-mini: its 5 recorded costs ($0.055) kept, the sixth filled ($0.0012): $0.0562,
    // and 2 Correct: Cost-of-Pass $0.0281.
    let arith = read(&priced, "waves/arith-mini.html");
    let board = between(&arith, "<h3>Under accuracy@1", "</table>");
    let values = sort_values(board);
    assert!(
        holds(&values, 0.0562) && holds(&values, 0.0281),
        "{values:?}"
    );
    assert!(
        arith.contains("No cost–accuracy chart for one seat: "),
        "{arith}"
    );
    // The note is the one `show --prices` prints, word for word.
    let show = env
        .run(["show", "arith-mini", "--prices", "site-check@1"])
        .ok();
    let line = show
        .stdout
        .lines()
        .find(|l| l.starts_with("Prices: "))
        .unwrap();
    assert!(
        line.contains("filled in the cost of 1 attempt that lacked one; 5 recorded costs kept")
    );
    assert!(arith.contains(line), "{line}\n{arith}");
    // A recorded cost is kept, never repriced (the table would make sample 1 epoch 1 $0.00481).
    let problem = read(&priced, "waves/arith-mini/problems/1.html");
    assert!(problem.contains("<td>$0.01<"), "{problem}");
    assert!(!problem.contains("$0.00481"), "{problem}");
    let q3 = read(&priced, "waves/arith-mini/problems/q3.html");
    assert!(q3.contains("<td>$0.00120<") && q3.contains(line), "{q3}");
    // Every other page that shows these costs names the table too: both suites' leaderboards
    // on the front page, and each seat's page.
    assert_eq!(
        read(&priced, "index.html")
            .matches("Prices: site-check@1")
            .count(),
        2
    );
    for seat in ["seats/gpt-4o.html", "seats/claude-react.html"] {
        assert!(
            read(&priced, seat).contains("Prices: site-check@1"),
            "{seat}"
        );
    }

    // An unknown table: exit 2 naming the registered ones, and nothing written.
    let none = env.path().join("none");
    let out = env
        .run([
            "site",
            "--prices",
            "nope@1",
            "--out",
            none.to_str().unwrap(),
        ])
        .status(2);
    assert!(
        out.stderr.contains("nope@1") && out.stderr.contains("registered: site-check@1"),
        "{}",
        out.stderr
    );
    assert!(!none.exists());
}

/// `site --prices T --reprice`: every cost comes from the table, recorded ones set aside, and
/// the pages say so with the line `show --prices T --reprice` prints. By hand (prices in
/// tests/fixtures/prices/site-check.v1.toml, tokens in tests/fixtures/import/inspect/wave.toml;
/// claude-sonnet-4-5: input 3, output 15, cached read 0.3, cache write 3.75 per million):
///   sample 1 epoch 1, recorded $0.010: 1000 × 3 + 100 × 15 + 400 × 0.3 + 50 × 3.75
///     = 3000 + 1500 + 120 + 187.5 = 4807.5 → $0.0048075, printed $0.00481
///   sample 1 epoch 2: 3600 + 2250 + 120 = 5970; sample 2 epoch 1: 2400 + 1200 + 375 = 3975;
///   sample 2 epoch 2: 6000 + 4500 + 150 = 10650; q3 epoch 1: 1500 + 750 + 30 = 2280;
///   q3 epoch 2: 900 + 300 = 1200
///   total 28882.5 → $0.0288825; 2 Correct, so Cost-of-Pass $0.01444125
/// Its bootstrap interval ($0.00348 to $0.04) straddles a cent, so both bounds print with three
/// significant digits.
#[test]
fn site_reprice_replaces_recorded_costs_with_the_tables() {
    let env = Env::with_waves(&[
        "tests/fixtures/import/inspect/wave.toml",
        "tests/fixtures/import/inspect/openai.toml",
    ]);
    env.run(["prices", "add", "tests/fixtures/prices/site-check.v1.toml"])
        .ok();
    let read = |site: &Path, page: &str| std::fs::read_to_string(site.join(page)).unwrap();
    let site = env.path().join("repriced");
    env.run([
        "site",
        "--prices",
        "site-check@1",
        "--reprice",
        "--out",
        site.to_str().unwrap(),
    ])
    .ok();
    // The recorded $0.01 of sample 1 epoch 1 gives way to the table's.
    let problem = read(&site, "waves/arith-mini/problems/1.html");
    assert!(problem.contains("<td>$0.00481<"), "{problem}");
    assert!(!problem.contains("<td>$0.01<"), "{problem}");
    let arith = read(&site, "waves/arith-mini.html");
    let board = between(&arith, "<h3>Under accuracy@1", "</table>");
    let values = sort_values(board);
    assert!(
        holds(&values, 0.0288825) && holds(&values, 0.01444125),
        "{values:?}"
    );
    assert!(!holds(&values, 0.0562), "the filled-in total: {values:?}");
    // The note is the one `show --prices --reprice` prints, word for word.
    let show = env
        .run([
            "show",
            "arith-mini",
            "--prices",
            "site-check@1",
            "--reprice",
        ])
        .ok();
    let line = show
        .stdout
        .lines()
        .find(|l| l.starts_with("Prices: "))
        .unwrap();
    assert_eq!(
        line,
        "Prices: site-check@1 (sha256 1e30a488a0de), USD per million tokens, dated 2026-05-01: \
         repriced every attempt, recorded costs set aside: 6 attempts priced; 0 attempts left \
         without a cost."
    );
    assert!(arith.contains(line), "{line}\n{arith}");
    assert!(problem.contains(line), "{line}\n{problem}");
    // The Cost-of-Pass interval straddles a cent: both bounds with three significant digits,
    // in the site, the terminal and Markdown alike ("$0.0400", not "$0.04").
    assert!(
        board.contains("<span>$0.00348–</span><span>$0.0400</span>"),
        "{board}"
    );
    for format in ["table", "md"] {
        let out = env
            .run([
                "show",
                "arith-mini",
                "--prices",
                "site-check@1",
                "--reprice",
                "--ci",
                "--format",
                format,
            ])
            .ok()
            .stdout;
        assert!(out.contains("$0.00348–$0.0400"), "{format}: {out}");
    }
}

/// Issue 34, #8: a wave whose costs are all at or below 1e-308 (a value ingest accepts) made
/// `site` abort (a capacity overflow computing the cost axis's ticks, exit 101).
#[test]
fn issue_34_8_site_renders_a_wave_whose_costs_are_all_below_1e_308() {
    let env = Env::init();
    let line = |p: &str, ok: bool| {
        format!(
            "{{\"problem\":\"{p}\",\"correct\":{ok},\"input_tokens\":10,\"output_tokens\":1,\
             \"wall_s\":1.0,\"cost_usd\":1e-308}}\n"
        )
    };
    let a = format!("{}{}", line("p1", true), line("p2", false));
    let b = format!("{}{}", line("p1", true), line("p2", true));
    let wave = common::write_wave(
        &env.path().join("tiny"),
        "[wave]\nid = \"tiny\"\nsuite = \"s\"\nstarted_at = 2026-05-01T00:00:00Z\n\n\
         [wave.accounting]\ninput_tokens_include_cache_reads = false\n\n\
         [[seat]]\nid = \"a\"\nmodel = \"m\"\nprovider = \"p\"\nharness = \"h\"\nresults = \"a.jsonl\"\n\n\
         [[seat]]\nid = \"b\"\nmodel = \"n\"\nprovider = \"p\"\nharness = \"h\"\nresults = \"b.jsonl\"\n",
        &[("a.jsonl", &a), ("b.jsonl", &b)],
    );
    env.ingest(&[&wave]);
    let site = env.path().join("site");
    env.run(["site", "--out", site.to_str().unwrap()]).ok();
    assert!(site.join("index.html").is_file());
}

/// Issue 31's new-user check: the same model written two ways by two sources
/// (`claude-sonnet-4.5` in the examples, `claude-sonnet-4-5` in the Inspect log) read as two
/// models. Each stays as its files wrote it, with the canonical id of benchledger's model table
/// on hover where the two differ, and the seats list's filter finds both under that id.
#[test]
fn a_model_written_another_way_carries_its_canonical_id() {
    let env = four_suites();
    let site = env.path().join("site");
    env.run(["site", "--no-ci", "--out", site.to_str().unwrap()])
        .ok();
    let wave = std::fs::read_to_string(site.join("waves/checkout-rematch.html")).unwrap();
    assert!(
        wave.contains(
            "<span class=\"alias\" title=\"claude-sonnet-4-5 in benchledger's model table\">\
             claude-sonnet-4.5</span>"
        ),
        "{wave}"
    );
    // Written as the table writes it: no hover.
    let inspect = std::fs::read_to_string(site.join("waves/arith-mini.html")).unwrap();
    assert!(inspect.contains(">claude-sonnet-4-5<"), "{inspect}");
    assert!(!inspect.contains("class=\"alias\""), "{inspect}");
    // Only the one written otherwise carries it.
    assert_eq!(wave.matches("class=\"alias\"").count(), 1, "{wave}");
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    let seats = between(&index, "<ul class=\"seats\"", "</ul>");
    let with_id: Vec<&str> = seats
        .split("<li ")
        .skip(1)
        .filter(|li| {
            let terms = &li[li.find("data-f=\"").unwrap() + 8..];
            terms[..terms.find('"').unwrap()].contains("claude-sonnet-4-5")
        })
        .collect();
    assert!(
        with_id.iter().any(|li| li.contains("anthropic-react"))
            && with_id.iter().any(|li| li.contains("claude-react")),
        "{with_id:?}"
    );
}

/// The new-user check of issue 31: a seat whose waves record no wall seconds or tokens (an
/// OpenHands index records neither) got empty 0–1 axes for them; and the seat page said a
/// hollow point is a withdrawn wave while every point was drawn hollow. Now a figure no wave
/// records gets a line saying so instead of a chart, and a current wave's point is filled.
#[test]
fn a_seat_page_draws_no_empty_chart_and_fills_a_current_waves_point() {
    let env = Env::init();
    env.ingest(&[&common::crate_path(
        "tests/fixtures/import/openhands/wave.toml",
    )]);
    let site = env.path().join("site");
    env.run(["site", "--no-ci", "--out", site.to_str().unwrap()])
        .ok();
    let page = std::fs::read_to_string(site.join("seats/openhands-claude-x.html")).unwrap();
    // A chart with nothing to draw gets a line, and no heading of its own (issue 31's
    // new-user check: a heading over "No chart").
    assert!(
        page.contains(
            "No chart of wall seconds: no wave here records wall seconds for every attempt of \
             this seat."
        ),
        "{page}"
    );
    assert!(
        page.contains("No chart of tokens: no wave here records tokens"),
        "{page}"
    );
    assert!(
        !page.contains("<h2>Wall seconds") && !page.contains("<h2>Tokens"),
        "{page}"
    );
    assert_eq!(page.matches("<svg").count(), 1, "{page}");
    let accuracy = between(&page, "id=\"trend-accuracy\"", "</svg>");
    assert!(
        accuracy.contains("<circle class=\"point current\""),
        "{accuracy}"
    );
    let style = std::fs::read_to_string(site.join("style.css")).unwrap();
    assert!(style.contains("svg .point.current{fill:#2e5b9a}"));
}

/// The new-user check of issue 31: a one-problem wave's board read "100.0–100.0%", rank range
/// 1–1 and its own tie-group letter, as certain as a 500-problem one, with the caution the
/// terminal prints nowhere on the site. Now each board drawn over fewer than 30 problems says
/// so: a tag on the front page, the whole caution among the wave's notes.
#[test]
fn a_board_over_few_problems_carries_the_terminals_caution() {
    let env = four_suites();
    let site = env.path().join("site");
    env.run(["site", "--out", site.to_str().unwrap()]).ok();
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    let tag = "under 30 problems: intervals and tie groups are rough";
    assert_eq!(index.matches(tag).count(), 3, "{index}");
    assert!(index.contains("title=\"Caution: intervals over only 1 problem (fewer than 30)"));
    let wave = std::fs::read_to_string(site.join("waves/checkout-rematch.html")).unwrap();
    assert!(
        wave.contains("Caution: intervals over only 1 problem (fewer than 30)"),
        "{wave}"
    );
    // Without intervals there is nothing to caution about.
    let plain = env.path().join("plain");
    env.run(["site", "--no-ci", "--out", plain.to_str().unwrap()])
        .ok();
    let index = std::fs::read_to_string(plain.join("index.html")).unwrap();
    assert!(!index.contains(tag));
}

/// The new-user check of issue 31: on an imported wave that records no budget, the first board
/// was session-efficiency@2's, which scores no seat there ("declares no budget.tokens"), above
/// the board that ranks the wave. Now a board that scores no seat comes after those that do,
/// collapsed and marked.
#[test]
fn a_board_that_scores_no_seat_comes_after_those_that_rank() {
    let env = four_suites();
    let site = env.path().join("site");
    env.run(["site", "--no-ci", "--out", site.to_str().unwrap()])
        .ok();
    let page = std::fs::read_to_string(site.join("waves/arith-mini.html")).unwrap();
    let unscored = page
        .find("<details class=\"unscored\">")
        .unwrap_or_else(|| panic!("no unscored board: {page}"));
    let ranked = page.find("<h3>Under ").expect("a board that ranks");
    assert!(ranked < unscored, "{page}");
    let boards = &page[page.find("id=\"leaderboards\"").unwrap()..];
    let first = between(boards, "<h3>Under ", "</h3>");
    assert!(!first.contains("session-efficiency"), "{first}");
    assert!(
        between(&page[unscored..], "<summary>", "</summary>")
            .contains("scores no seat of this wave")
    );
}

/// A new user's check: in a wave that declares no suite size, a seat that ran 10 problems
/// ranked first at 8 of 10 above one at 63 of 100. Each board of such a wave now says that
/// its seats' rates are over different problems; a wave that declares its suite, whose rates
/// count the problems a seat did not attempt, says nothing.
#[test]
fn a_board_of_seats_over_different_problems_says_so_unless_the_suite_is_declared() {
    let env = Env::init();
    let line = |p: usize, ok: bool| {
        format!(
            "{{\"problem\":\"p{p}\",\"correct\":{ok},\"input_tokens\":10,\"output_tokens\":1,\
             \"wall_s\":1.0}}\n"
        )
    };
    let few: String = (0..10).map(|p| line(p, p < 8)).collect();
    let many: String = (0..100).map(|p| line(p, p < 63)).collect();
    let wave = |id: &str, declared: &str| {
        common::write_wave(
            &env.path().join(id),
            &format!(
                "[wave]\nid = \"{id}\"\nsuite = \"s\"\nstarted_at = 2026-05-01T00:00:00Z\n\
                 {declared}\n[wave.accounting]\ninput_tokens_include_cache_reads = false\n\n\
                 [[seat]]\nid = \"few\"\nmodel = \"m\"\nprovider = \"p\"\nharness = \"h\"\n\
                 results = \"a.jsonl\"\n\n\
                 [[seat]]\nid = \"many\"\nmodel = \"n\"\nprovider = \"p\"\nharness = \"h\"\n\
                 results = \"b.jsonl\"\n"
            ),
            &[("a.jsonl", &few), ("b.jsonl", &many)],
        )
    };
    let open = wave("open", "");
    let declared = wave("declared", "suite_problems = 100\n");
    env.ingest(&[&open, &declared]);
    let site = env.path().join("site");
    env.run(["site", "--no-ci", "--out", site.to_str().unwrap()])
        .ok();
    let page = std::fs::read_to_string(site.join("waves/open.html")).unwrap();
    assert!(
        page.contains(
            "Seats attempted different numbers of problems (most: 100; fewer: few 10), and the \
             wave declares no suite size"
        ),
        "{page}"
    );
    let page = std::fs::read_to_string(site.join("waves/declared.html")).unwrap();
    assert!(!page.contains("different numbers of problems"), "{page}");
}

/// The new-user check of issue 31: a suite of one seat got a whole board — a filter box, tie
/// group "a", rank range 1–1 — and a chart of one point. Now its board is the seat's row alone,
/// and its figures are a line in place of the chart.
#[test]
fn a_suite_of_one_seat_gets_its_row_and_no_one_point_chart() {
    let env = example_ledger();
    let solo = env.path().join("solo");
    std::fs::create_dir_all(&solo).unwrap();
    let examples = common::crate_path("examples/checkout-rematch");
    std::fs::copy(
        examples.join("deepseek-react.jsonl"),
        solo.join("deepseek-react.jsonl"),
    )
    .unwrap();
    let manifest = std::fs::read_to_string(examples.join("wave.toml")).unwrap();
    let head = &manifest[..manifest.find("[[seat]]").unwrap()];
    let seat = &manifest[manifest.find("[[seat]]\nid = \"deepseek-react\"").unwrap()..];
    std::fs::write(
        solo.join("wave.toml"),
        format!("{head}{seat}")
            .replace("id = \"checkout-rematch\"", "id = \"solo-wave\"")
            .replace("suite = \"checkout-outage-rca\"", "suite = \"solo-suite\""),
    )
    .unwrap();
    env.ingest(&[&solo.join("wave.toml")]);
    let site = env.path().join("site");
    env.run(["site", "--out", site.to_str().unwrap()]).ok();
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    let board = between(&index, "solo-wave.html\">solo-wave</a></h2>", "<h2");
    assert!(board.contains("deepseek-react"), "{board}");
    for absent in ["data-filter", "Rank range", ">Group<", "<svg"] {
        assert!(!board.contains(absent), "{absent}: {board}");
    }
    assert!(
        board.contains("No cost–accuracy chart for one seat: deepseek-react costs $"),
        "{board}"
    );
    // The other suites keep theirs.
    let rematch = between(
        &index,
        "checkout-rematch.html\">checkout-rematch</a></h2>",
        "<h2",
    );
    for present in ["data-filter", "Rank range", ">Group<", "<svg"] {
        assert!(rematch.contains(present), "{present}: {rematch}");
    }
    let wave = std::fs::read_to_string(site.join("waves/solo-wave.html")).unwrap();
    assert!(
        !wave.contains("<svg") && !wave.contains("Rank range"),
        "{wave}"
    );
    assert!(
        wave.contains("No cost–accuracy chart for one seat"),
        "{wave}"
    );
}

/// A wave of 30 problems and three seats, in its own suite, under `dir`: its manifest.
fn wave_of_30_problems(dir: &Path) -> PathBuf {
    let head = String::from(
        "[wave]\nid = \"thirty\"\nsuite = \"thirty-suite\"\nstarted_at = 2026-06-01T10:00:00Z\n\n\
         [wave.load]\nparallel_sessions = 3\ntool_server_sessions = 3\nserial_rerun = false\n\n\
         [wave.accounting]\ninput_tokens_include_cache_reads = false\n",
    );
    write_wave(
        dir,
        "thirty",
        head,
        &["alpha", "beta", "gamma"],
        30,
        |k, i| {
            format!(
                "{{\"problem\":\"p-{i}\",\"correct\":{},\"input_tokens\":1000,\
             \"output_tokens\":100,\"wall_s\":10,\"cost_usd\":0.0{}}}\n",
                (i * 7 + k * 5) % 10 < 8 - 2 * k,
                k + 1
            )
        },
    )
}

/// Writes the wave `id` under `dir` (in its folder `id`): its manifest `head` (the `[wave]`
/// tables) then a `[[seat]]` for each of `seats` (model `m-{seat}`, provider `p`, harness
/// `h`), whose results, `{seat}.jsonl`, are `line(k, i)` for problems `i` from 0 to
/// `problems - 1`, `k` the seat's place in `seats`; the manifest's path.
fn write_wave(
    dir: &Path,
    id: &str,
    head: String,
    seats: &[&str],
    problems: usize,
    line: impl Fn(usize, usize) -> String,
) -> PathBuf {
    let wave = dir.join(id);
    std::fs::create_dir_all(&wave).unwrap();
    let mut manifest = head;
    for (k, seat) in seats.iter().enumerate() {
        let lines: String = (0..problems).map(|i| line(k, i)).collect();
        std::fs::write(wave.join(format!("{seat}.jsonl")), lines).unwrap();
        manifest.push_str(&format!(
            "\n[[seat]]\nid = \"{seat}\"\nmodel = \"m-{seat}\"\nprovider = \"p\"\n\
             harness = \"h\"\nresults = \"{seat}.jsonl\"\n"
        ));
    }
    let path = wave.join("wave.toml");
    std::fs::write(&path, manifest).unwrap();
    path
}

/// Issue 31's new-user check: a board over 30 problems or more shows each seat's rank range,
/// those `score --ci` prints on the same draws, and no "not shown".
#[test]
fn a_board_over_30_problems_shows_the_rank_ranges_score_prints() {
    let env = Env::with_waves(&[]);
    env.ingest(&[&wave_of_30_problems(env.path())]);
    let site = env.path().join("site");
    env.run(["site", "--out", site.to_str().unwrap()]).ok();
    let page = std::fs::read_to_string(site.join("waves/thirty.html")).unwrap();
    let text = strip_tags(&page);
    assert!(page.contains(">Rank range<"), "{text}");
    assert!(!text.contains("not shown"), "{text}");
    let score = env
        .run([
            "score",
            "--wave",
            "thirty",
            "--rubric",
            "accuracy@1",
            "--ci",
            "--format",
            "json",
        ])
        .ok()
        .json();
    for seat in score["seats"].as_array().unwrap() {
        let r = &seat["rank_range"];
        let (lo, hi) = (r[0].as_u64().unwrap(), r[1].as_u64().unwrap());
        let shown = if lo == hi {
            lo.to_string()
        } else {
            format!("{lo}–{hi}")
        };
        assert!(text.contains(&shown), "{shown} missing: {text}");
    }
}

/// Issue 31's new-user check: a problem's Trial column counts from 1 (as the ledger stores
/// trials and `trials` prints them) while its Came from quoted tau-bench's "trial 0". The cell
/// now says its file counts from 0, and which trial that is.
#[test]
fn came_from_says_when_its_file_counts_trials_from_0() {
    let env = Env::with_waves(&["tests/fixtures/import/tau-bench/wave.toml"]);
    let site = env.path().join("site");
    env.run(["site", "--out", site.to_str().unwrap()]).ok();
    let page = std::fs::read_dir(site.join("waves/tau-mini/problems"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .find(|p| p.contains("(task 0 trial 0)"))
        .expect("the problem page of task 0");
    let text = strip_tags(&page);
    for (file, ours) in [(0, 1), (1, 2)] {
        let said =
            format!("(task 0 trial {file}) — its file counts trials from 0: this is trial {ours}");
        assert!(text.contains(&said), "{said}: {text}");
    }
    // As the command line numbers them.
    let sample = env.run(["problems", "tau-mini", "--problem", "0"]).ok();
    for ours in [1, 2] {
        assert!(
            sample.stdout.contains(&format!("gpt-4o · trial {ours} · ")),
            "{}",
            sample.stdout
        );
    }
}

/// Every link of every page of `site` that leads inside it (`href` and `src`, a fragment cut
/// off), as "page → link", that names no file of the site.
fn dead_links(site: &Path) -> Vec<String> {
    let mut dead = Vec::new();
    for page in every_page(site) {
        let text = std::fs::read_to_string(&page).unwrap();
        for attr in ["href=\"", "src=\""] {
            for rest in text.split(attr).skip(1) {
                let link = rest.split('"').next().unwrap();
                let file = link.split('#').next().unwrap();
                if file.is_empty() || link.contains(':') {
                    continue;
                }
                if !page.parent().unwrap().join(file).is_file() {
                    dead.push(format!(
                        "{} → {link}",
                        page.strip_prefix(site).unwrap().display()
                    ));
                }
            }
        }
    }
    dead
}

/// A wave of 2 seats × `problems` problems (`2 × problems` attempts) of `suite`, started on
/// June `day`.
fn small_wave(dir: &Path, id: &str, suite: &str, day: u32, problems: usize) -> PathBuf {
    let head = format!(
        "[wave]\nid = \"{id}\"\nsuite = \"{suite}\"\nstarted_at = 2026-06-{day:02}T10:00:00Z\n\n\
         [wave.accounting]\ninput_tokens_include_cache_reads = false\n"
    );
    write_wave(dir, id, head, &["alpha", "beta"], problems, |k, i| {
        format!(
            "{{\"problem\":\"p-{i}\",\"correct\":{},\"input_tokens\":100,\
             \"output_tokens\":10,\"wall_s\":5,\"cost_usd\":0.01}}\n",
            (i + k) % 2 == 0
        )
    })
}

/// The waves of a site that have a page per problem, by id, sorted (a site written over an
/// earlier one leaves the folders it emptied).
fn waves_with_problem_pages(site: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(site.join("waves"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| std::fs::read_dir(p.join("problems")).is_ok_and(|mut d| d.next().is_some()))
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

/// Issue 31, item 7: bench/site's 100 waves wrote 5,000 problem pages (22 of its 42 MB). Past
/// the site's attempts budget, a wave gets its matrix and no page per problem: each suite's
/// latest wave always gets them, then whole waves, newest first (by start, a tie by id), while
/// they fit, the first that does not ending the run. A matrix without them links to none,
/// says why and how to see an attempt and raise the budget, and no page links to a page that
/// is not there. `site --attempt-pages` overrides site.toml's `attempt_pages`.
#[test]
fn a_site_over_its_attempt_budget_pages_each_suites_latest_and_the_newest_waves_only() {
    let env = Env::init();
    let dir = env.path().join("waves");
    // Suite s: s-1 (1 problem, 2 attempts) … s-5; suite t: t-1 (started with s-3) and t-2.
    // Newest first: t-2, s-5, s-4, t-1, s-3 (the tie: t-1 > s-3), s-2, s-1.
    let manifests = [
        small_wave(&dir, "s-1", "s", 1, 1),
        small_wave(&dir, "s-2", "s", 2, 3),
        small_wave(&dir, "s-3", "s", 3, 3),
        small_wave(&dir, "s-4", "s", 4, 3),
        small_wave(&dir, "s-5", "s", 5, 3),
        small_wave(&dir, "t-1", "t", 3, 3),
        small_wave(&dir, "t-2", "t", 6, 3),
    ];
    env.ingest(&manifests.iter().map(PathBuf::as_path).collect::<Vec<_>>());
    let config = env.path().join("site.toml");
    // 26 attempts: t-2 and s-5 (12, the suites' latest), s-4 (18), t-1 (24); s-3 would make
    // 30, so the run ends there: s-1's 2 would fit, but it is older than a wave left out.
    std::fs::write(&config, "attempt_pages = 26\n").unwrap();
    let site = env.path().join("site");
    let render = |extra: &[&str]| {
        let mut args = vec![
            "site",
            "--no-ci",
            "--out",
            site.to_str().unwrap(),
            "--config",
            config.to_str().unwrap(),
        ];
        args.extend(extra);
        env.run(args).ok();
    };
    render(&[]);
    assert_eq!(
        waves_with_problem_pages(&site),
        ["s-4", "s-5", "t-1", "t-2"]
    );
    assert_eq!(dead_links(&site), Vec::<String>::new());
    let paged = std::fs::read_to_string(site.join("waves/s-4/problems.html")).unwrap();
    assert!(paged.contains("href=\"problems/p-0.html\""), "{paged}");
    assert!(!paged.contains("no page each"), "{paged}");
    for wave in ["s-1", "s-2", "s-3"] {
        let matrix =
            std::fs::read_to_string(site.join(format!("waves/{wave}/problems.html"))).unwrap();
        assert!(!matrix.contains("href=\"problems/"), "{matrix}");
        let said = strip_tags(between(&matrix, "<p class=\"note budget\">", "</p>"));
        assert_eq!(
            said,
            format!(
                "This wave's problems have no page each (the site gives them to each suite's \
                 latest wave and, newest first, to as many more waves as fit in 26 attempts in \
                 all: how to read this): benchledger problems {wave} --problem ID prints every \
                 seat's attempts at one, and attempt_pages in site.toml (or site \
                 --attempt-pages N, all for every wave) raises the budget."
            )
        );
        // The matrix is whole: every problem and seat.
        assert!(matrix.contains("<td class=\"id\">p-0"), "{matrix}");
    }
    // A wave's page promises its attempts only where they have pages.
    let wave = std::fs::read_to_string(site.join("waves/s-3.html")).unwrap();
    assert!(
        strip_tags(&wave).contains("Every problem × seat (which seat solved what) · "),
        "{wave}"
    );
    let wave = std::fs::read_to_string(site.join("waves/s-4.html")).unwrap();
    assert!(strip_tags(&wave).contains("(which seat solved what, each attempt and its trace)"));
    let manual = std::fs::read_to_string(site.join("how-to-read.html")).unwrap();
    assert!(
        strip_tags(&manual).contains("within the site's budget (this site's is 26 attempts;"),
        "{manual}"
    );
    // The command line's budget over site.toml's: none beyond each suite's latest wave, then all.
    render(&["--attempt-pages", "0"]);
    assert_eq!(waves_with_problem_pages(&site), ["s-5", "t-2"]);
    let matrix = std::fs::read_to_string(site.join("waves/s-4/problems.html")).unwrap();
    assert!(matrix.contains("fit in 0 attempts in all"), "{matrix}");
    render(&["--attempt-pages", "1_000"]);
    let matrix = std::fs::read_to_string(site.join("waves/s-1/problems.html")).unwrap();
    assert!(!matrix.contains("no page each"), "{matrix}");
    render(&["--attempt-pages", "20"]);
    let matrix = std::fs::read_to_string(site.join("waves/s-1/problems.html")).unwrap();
    assert!(matrix.contains("fit in 20 attempts in all"), "{matrix}");
    assert_eq!(dead_links(&site), Vec::<String>::new());
    render(&["--attempt-pages", "all"]);
    assert_eq!(
        waves_with_problem_pages(&site),
        ["s-1", "s-2", "s-3", "s-4", "s-5", "t-1", "t-2"]
    );
    // A suite's latest wave withdrawn: its latest current wave gets its pages too.
    env.run(["withdraw", "s-5", "--reason", "a rerun"]).ok();
    render(&["--attempt-pages", "0"]);
    assert_eq!(waves_with_problem_pages(&site), ["s-4", "s-5", "t-2"]);
    assert_eq!(dead_links(&site), Vec::<String>::new());
    let out = env
        .run([
            "site",
            "--out",
            site.to_str().unwrap(),
            "--attempt-pages",
            "some",
        ])
        .status(2);
    assert!(
        out.stderr
            .contains("\"some\" is not an attempts budget: expected a whole number of attempts"),
        "{}",
        out.stderr
    );
}

/// Issue 31, item 7: the default attempts budget (5,000) is far above every shipped example, so
/// their site keeps every page: byte for byte the site with every wave's problem pages, but
/// for the "How to read this" page, which states the budget; and no link of it is dead.
#[test]
fn the_default_attempt_budget_keeps_every_example_page() {
    let env = example_ledger();
    let site = env.path().join("site");
    let all = env.path().join("all");
    env.run(["site", "--no-ci", "--out", site.to_str().unwrap()])
        .ok();
    env.run([
        "site",
        "--no-ci",
        "--out",
        all.to_str().unwrap(),
        "--attempt-pages",
        "all",
    ])
    .ok();
    let pages = every_page(&site);
    let rel = |root: &Path, ps: &[PathBuf]| -> Vec<PathBuf> {
        ps.iter()
            .map(|p| p.strip_prefix(root).unwrap().to_path_buf())
            .collect()
    };
    assert_eq!(rel(&site, &pages), rel(&all, &every_page(&all)));
    assert_eq!(
        waves_with_problem_pages(&site),
        ["checkout-rematch", "prices-csv", "rca-wave-1", "rca-wave-2"]
    );
    for page in &pages {
        let name = page.strip_prefix(&site).unwrap();
        let (a, b) = (
            std::fs::read_to_string(page).unwrap(),
            std::fs::read_to_string(all.join(name)).unwrap(),
        );
        if name == Path::new("how-to-read.html") {
            assert!(
                strip_tags(&a).contains("this site's is 5,000 attempts"),
                "{a}"
            );
            assert!(strip_tags(&b).contains("this site's is all: every wave has them"));
        } else {
            assert!(a == b, "{}", name.display());
        }
    }
    assert_eq!(dead_links(&site), Vec::<String>::new());
}

/// Issue 31, item 7: a matrix cell whose class says its value (pass: every trial passed; fail:
/// none; missing) carries no `data-v`, nor a cell whose text is its value; the site's script
/// still sorts them, in Chromium: a seat's column ascending puts its fails first, then any
/// partial passes by their share, its passes, and the missing last; the problems' column sorts
/// on its ids' text.
#[test]
fn a_matrix_sorts_on_its_cells_classes_without_their_values() {
    let env = example_ledger();
    let site = env.path().join("site");
    env.run(["site", "--no-ci", "--out", site.to_str().unwrap()])
        .ok();
    let page = site.join("waves/rca-wave-2/problems.html");
    let matrix = std::fs::read_to_string(&page).unwrap();
    assert!(!matrix.contains("data-v=\"1\"") && !matrix.contains("data-v=\"0\""));
    assert!(!matrix.contains("data-v=\"\""), "{matrix}");
    let Some(chromium) = chromium() else { return };
    // Each seat's column clicked once (ascending): the cells' ranks (fail 0, a share of trials
    // passed, pass 1, missing 2) read down the column never fall.
    let got = probe(
        &chromium,
        &page,
        1400,
        900,
        "(function(){var t=d.querySelector('table.matrix'),hs=t.tHead.rows[0].cells,out=[],p=[];\
         hs[0].click();hs[0].click();[].forEach.call(t.tBodies[0].rows,function(r){p.push(r.cells[0].textContent)});\
         for(var i=2;i<hs.length;i++){hs[i].click();out.push([].map.call(t.tBodies[0].rows,function(r){\
         var c=r.cells[i],v=c.getAttribute('data-v');return c.className==='missing'?2:v!==null?Number(v):c.className==='pass'?1:0}))}\
         return [p,out]})()",
    );
    // The problems' column (ids shown whole, so sorted on their text) clicked twice: descending.
    assert_eq!(
        got[0],
        serde_json::json!(["rca-4", "rca-3", "rca-2", "rca-1"])
    );
    let columns = got[1].as_array().unwrap();
    assert!(!columns.is_empty(), "{got}");
    let mut kinds = std::collections::BTreeSet::new();
    for column in columns {
        let ranks: Vec<f64> = column
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{got}");
        kinds.extend(ranks.iter().map(|r| r.to_string()));
    }
    // The example's seats both pass and fail.
    assert!(kinds.contains("0") && kinds.contains("1"), "{kinds:?}");
}
