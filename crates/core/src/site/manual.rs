//! `how-to-read.html`: every explanation the site's boards would otherwise repeat, written
//! once. A board on the front page carries one line of notes, linking here; a chart's caption
//! says what it shows and links here for what its marks mean.

use maud::{Markup, html};

use super::Input;
use super::config::AttemptPages;
use super::html::{code_spans, layout};

/// The page's path from the site's root.
pub(super) const PATH: &str = "how-to-read.html";

/// A link to one of the page's sections (`anchor`, without `#`) from a page `depth`
/// directories below the root.
pub(super) fn href(depth: usize, anchor: &str) -> String {
    format!("{}{PATH}#{anchor}", "../".repeat(depth))
}

/// "How to read this", linked to a section of the page.
pub(super) fn link(depth: usize, anchor: &str, words: &str) -> Markup {
    html! { a href=(href(depth, anchor)) { (words) } }
}

pub(super) fn page(input: &Input) -> String {
    let level = input
        .intervals
        .as_ref()
        .map(crate::report::intervals::level_text);
    let body = html! {
        h1 { "How to read this site" }
        p { "What every leaderboard, chart and note of this site means, said once. Each board's note links to the part that explains it." }
        ul.sections {
            li { a href="#ranking" { "Which rubric ranks a suite" } }
            li { a href="#absolutes" { "Absolute figures first" } }
            li { a href="#intervals" { "Intervals and rank ranges" } }
            li { a href="#groups" { "Tie groups and ≈" } }
            li { a href="#frontier" { "The cost–accuracy chart" } }
            li { a href="#conditions" { "Conditions: load, accounting, budget" } }
            li { a href="#unknown" { "Unknown values and left-out columns" } }
            li { a href="#rubrics" { "Rubrics that fail their check" } }
            li { a href="#attempts" { "A problem's attempts" } }
            li { a href="#sample" { "The sample" } }
        }
        h2 id="ranking" { "Which rubric ranks a suite" }
        p { "The front page shows each suite's latest current wave (a withdrawn or superseded wave is never a current result). It ranks it under the rubric " code { "site --rubric NAME@VERSION" } " names when that rubric scores the wave; else under the most recently registered rubric that keeps its scale (passes " code { "rubric check" } ") and scores the wave; else under a failing one, marked; else on plain accuracy, the shipped " code { "rubrics/accuracy.v1.toml" } " (an efficiency rubric needs a budget, prices or medians a wave may not declare). Each board says which rubric it is under and why, and the command that prints the same board in the terminal. A wave's own page shows its board under every registered rubric." }
        p { "Suites are listed with the newest latest wave first, unless the site's " code { "site.toml" } " pins some (they lead, in its order) or hides some (they get no board on the front page; their waves keep their pages)." }
        h2 id="absolutes" { "Absolute figures first" }
        p { "Every board prints the absolutes before any score: Correct with its denominator, wall seconds, tokens and dollars, then Cost-of-Pass, then the score and the rank." }
        ul {
            li { strong { "Correct" } ": Correct / (attempts + missing). Where a suite declares its problems, a problem a seat never attempted counts as one attempt that is not Correct (missing)." }
            li { strong { "Tokens" } ": where a wave's input totals exclude cached reads, the cached reads and cache writes are added, so that totals compare across waves; the column's header says which." }
            li { strong { "Cost-of-Pass" } ": total USD / number Correct, pooled over the seat's attempts (the dollars spent per Correct answer; not the per-problem mean of Erol et al. 2025). Undefined (—) when nothing is Correct or a cost is unknown." }
            li { strong { "Relative scores" } ": a cohort-relative rubric's score ranks seats inside their own wave only; it is shown as a rank and never compared across waves." }
            li { strong { "Models" } ": each as its results wrote it. One written otherwise than benchledger's model table writes it (" code { "claude-sonnet-4.5" } " for " code { "claude-sonnet-4-5" } ") is underlined with dots and gives the table's id on hover, so that the same model from two harnesses reads as one; the seats filter finds it under either name." }
        }
        h2 id="intervals" { "Intervals and rank ranges" }
        @match (&level, &input.intervals) {
            (Some(level), Some(s)) => p { "This site drew every interval at " (level) "% over " (crate::number::int(u64::from(s.resamples))) " resamples from seed " (s.seed) " (ChaCha20: the same ledger gives the same interval on every machine)." }
            _ => p { "This site was made without intervals (" code { "site --no-ci" } "): its boards have no interval, rank range or group columns." }
        }
        p { "An interval is a percentile bootstrap over problems: each resample draws the wave's problems with replacement, every seat on the same draws, all trials of a problem together, from per-problem sums. A seat's " strong { "rank range" } " is the lower and upper quantile of its rank over the resamples (at 95 %, the 2.5 % and 97.5 % quantiles). A figure undefined on a resample (a Cost-of-Pass with nothing Correct) is left out of that resample, and a board names the intervals that rest on fewer resamples. A board ranked over fewer than " (crate::report::intervals::FEW_PROBLEMS) " problems says its rank ranges are " strong { "not shown" } ": over so few, a range such as 1–1 claims more than the data holds (" code { "score --ci" } " prints them, with that caution). A board of one seat has no rank range or group." }
        h2 id="groups" { "Tie groups and ≈" }
        p { "The " strong { "Group" } " column's letters come from the paired test on every trial: per shared problem, the difference of two seats' shares of Correct trials, Holm-corrected over every pair at α = 0.05. Seats sharing a letter cannot be told apart on accuracy; letters follow the per-problem mean, highest first." }
        p { "A seat marked " strong { "≈" } " is not separable from the leader: their rank ranges overlap, so the data cannot tell them apart. Overlapping ranges anywhere mark an order the data does not support. A seat tied with the leader for rank 1 is not marked." }
        h2 id="frontier" { "The cost–accuracy chart" }
        p { "Total cost in USD against accuracy, a point per seat (per seat and wave on the front page). A seat is in the " strong { "Pareto set" } " (filled) when no other seat is at least as accurate for no more cost, one of them strictly. The line is the " strong { "frontier as HAL draws it" } ": the vertices of the upper convex hull of the points that are Pareto-efficient, joined cheapest first, so a Pareto seat below the hull (one a mix of two others beats) is filled but not on the line. Grey whiskers are the leaderboard's accuracy interval. A seat whose cost is unknown for some attempt is not plotted, and named. The cost axis is logarithmic when costs span more than 10×. Every point of the Pareto set is labelled with its seat; another is labelled where the plot has room for its name (only close to it, in a chart of more than 40 points, such as a suite's across many waves), and the caption counts those left unlabelled. Every point names its seat when pointed at, and every chart's data is in a table beside it." }
        h2 id="conditions" { "Conditions: load, accounting, budget" }
        p { "Each wave records its load (seats running in parallel, sessions sharing the tool server, whether it was a serial rerun, a timeout multiplier when recorded), its accounting (whether input token totals include cached reads) and its budget (tokens and wall seconds per problem). Wall seconds are the load's as much as the seat's: compare absolutes across waves only with their conditions beside them. On a seat's page each point is labelled with its wave's load (par: parallel seats; tool: sessions sharing the tool server; serial: a serial rerun)." }
        h2 id="unknown" { "Unknown values and left-out columns" }
        p { "Absent is not zero: an unknown cost, token count or wall time is shown as —, and a figure built on it says how many attempts it covers. A column whose every cell is unknown (no wave records it) is left out of the table, and a note under it says so." }
        h2 id="rubrics" { "Rubrics that fail their check" }
        p { (code_spans("A rubric declares its scale, and `rubric check` proves the range its score can take. One whose score can leave its scale (the flawed session-efficiency v1 prints 125 on 0–100) can be registered only with `--allow-scale-violation`. On a wave's page its board comes after the boards of the rubrics that pass, collapsed and marked; it never ranks the front page while a passing rubric scores the wave.")) }
        h2 id="attempts" { "A problem's attempts" }
        p { "A problem's page lists every seat's attempts at it, trial by trial, with the trace its importer kept (each tool call, and the error of each that failed). Tokens are input plus output, with cached reads and writes as the wave's accounting counts them; — when the harness did not say. A column no attempt at the problem records is left out, and a note says so." }
        p { "Which waves have a page per problem: each suite's latest wave (and its latest current wave, when that is another), then whole waves, newest first, while the attempts on problem pages stay within the site's budget ("
            @match input.attempt_pages() {
                AttemptPages::Budget(n) => { "this site's is " (crate::number::int(n)) " attempts" }
                AttemptPages::All => { "this site's is all: every wave has them" }
            }
            "; " code { "attempt_pages" } " in " code { "site.toml" } " or " code { "site --attempt-pages N" } " sets it, " code { "all" } " for every wave), and only a wave of at most " (crate::number::int(input.problem_pages as u64)) " problems (" code { "site --problem-pages N" } "). Another wave keeps its matrix, whose problems are then not links: " code { "benchledger problems WAVE --problem ID" } " prints every seat's attempts at a problem." }
        p { "The Trial column counts a seat's trials at a problem from 1, as the ledger stores them and " code { "trials" } " and " code { "show" } " print them; where the record a file names counts them from 0 (tau-bench's and tau2-bench's), Came from says so." }
        p { "Came from: the log file and the record in it (Inspect's sample and epoch), or the trial's directory (Terminal-Bench, Harbor), relative to the directory of the wave's manifest (of a wave built by " code { "ingest --from" } ", to the directory of its " code { "--manifest" } ", else to the directory it ran in). A path outside that directory (absolute, or climbing out with ..) is shown by its file's name only, so that the page does not show where the wave was ingested (the ledger keeps the path as it was given), and the page says how many. With an artifacts base (" code { "site --artifacts URL" } " or " code { "site.toml" } "), each path under that directory is a link under it; one outside it is not linked." }
        h2 id="sample" { "The sample" }
        p { "Under the attempts, where the log recorded it: what the model was asked, the target, what it answered and the scorer's explanation (Inspect: the sample's input, target, output and the deciding scorer's explanation; lm-eval: the prompt, target and a generation's filtered response; HELM: the instance's input, its correct references and the completion; Harbor: the trajectory's first user message and the agent's last). What every trial shares is shown once; each trial's own texts are collapsed under its seat, trial and verdict. Each text is cut to " (crate::number::int(crate::model::AttemptTexts::CAP as u64)) " characters, and a cut text ends with a line saying how long it was. The same in the terminal: " code { "benchledger problems WAVE --problem ID" } "." }
    };
    layout("How to read this site", 0, body)
}
