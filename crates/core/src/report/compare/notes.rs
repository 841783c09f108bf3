//! The notes under the conditions (and in the JSON): the confounders grouped by what they
//! confound, how the figures are defined, and what each rubric's numbers may be used for.

use super::Parts;
use super::conditions::{Condition, Kind, TIMEOUT_MULTIPLIER, confounds};
use super::rubrics::{CohortMedian, Medians};
use super::text::{join_and, measure_text, relative};
use crate::report::waves::FIGURES_NOTE;

/// The notes printed under the conditions (and carried in the JSON).
pub(super) fn notes(p: &Parts<'_>) -> Vec<String> {
    let Parts {
        waves,
        ids,
        figures,
        conds,
        rubrics,
        places,
        medians,
        ..
    } = p;
    let mut notes = Vec::new();
    // Confounders, grouped by what they confound.
    notes.extend(confounder_notes(conds));
    if conds.iter().all(|c| !c.differs()) {
        notes.push(
            "No recorded condition differs between the waves (load, accounting, budget, suite, \
             seat); an unrecorded one still may."
                .into(),
        );
    }
    notes.push(format!(
        "{FIGURES_NOTE} Changes: later wave minus earlier, with the relative change in \
         parentheses."
    ));
    let excl: Vec<String> = waves
        .iter()
        .zip(ids)
        .filter(|(w, _)| !w.data.wave.accounting.input_tokens_include_cache_reads)
        .map(|(_, id)| id.to_string())
        .collect();
    if !excl.is_empty() {
        notes.push(format!(
            "Tokens: the input totals of {} exclude cached reads, so cached reads and cache \
             writes are added to make the totals comparable.",
            join_and(&excl)
        ));
    }
    if figures.iter().any(|f| {
        f.wall_s.known < f.attempts
            || f.tokens_total.known < f.attempts
            || f.new_input_tokens.known < f.attempts
            || f.cost_usd.known < f.attempts
    }) {
        notes.push(
            "(k of n): the figure covers only the k attempts whose value is known; unknown is \
             not zero, so a change involving it is unknown."
                .into(),
        );
    }
    for (k, info) in rubrics.iter().enumerate() {
        let r = &info.rubric;
        if info.scale_violation {
            notes.push(format!(
                "WARNING: {} fails `rubric check`: its score can leave its declared scale.",
                r.id()
            ));
        }
        if !r.relative {
            let id = r.id();
            let by: Vec<String> = conds
                .iter()
                .filter(|c| c.differs() && confounds(c, rubrics).contains(&id))
                .map(|c| c.across())
                .collect();
            if !by.is_empty() {
                notes.push(format!(
                    "{id} is absolute, so its score is compared across waves; but it reads figures \
                     whose conditions differ, so its change is confounded too: by {}.",
                    join_and(&by)
                ));
            }
            continue;
        }
        let ranks: Vec<String> = places.iter().map(|p| p[k].text.clone()).collect();
        // Each cohort factor's measure: its wave median in each wave, and how far it moved.
        let moved = yardstick(medians, k);
        let mut note = format!(
            "{} is relative: a seat's score is measured against its own wave's medians, so only \
             its rank inside each wave is shown ({}), never its value or a change across waves. \
             When a whole wave slows, the medians move, and a relative score can rise while the \
             seat got slower.",
            r.id(),
            ranks.join(" → ")
        );
        if !moved.is_empty() {
            note.push_str(&format!(
                " The yardstick moved: the wave median of {}.",
                join_and(&moved)
            ));
        }
        notes.push(note);
    }
    notes
}

/// Whether a condition belongs to a group of confounders.
type Member<'a> = &'a dyn Fn(&Condition) -> bool;

/// The confounders, grouped by what they confound: one note per group with a condition that
/// differs. The timeout multiplier, though a load condition, is a group of its own: it
/// confounds more than the wall time.
fn confounder_notes(conds: &[Condition]) -> Vec<String> {
    let mut notes = Vec::new();
    let timeout = |c: &Condition| c.key == TIMEOUT_MULTIPLIER;
    let of = |kinds: &'static [Kind]| move |c: &Condition| kinds.contains(&c.kind) && !timeout(c);
    let groups: [(Member<'_>, &str); 6] = [
        (
            &of(&[Kind::Load]),
            "the change in wall time cannot be assigned to the seat alone; repeat under \
             comparable load to separate them",
        ),
        (
            &timeout,
            "the changes in accuracy, wall time, tokens and USD cannot be assigned to the seat \
             alone (a longer timeout lets trials finish that would have timed out); repeat \
             under the same timeouts to separate them",
        ),
        (
            &of(&[Kind::CacheAccounting]),
            "the change in token totals is confounded by how tokens were counted (totals are \
             normalised, with cached reads added where input totals exclude them, but that rests \
             on each wave's declaration)",
        ),
        (
            &of(&[Kind::Prices]),
            "the change in USD and Cost-of-Pass is confounded by where prices came from",
        ),
        (
            &of(&[Kind::Budget]),
            "every change is confounded by what the seat was allowed (a seat may pace itself \
             to its budget, and a score held against the budget moves with it)",
        ),
        (
            &of(&[Kind::Identity, Kind::Attempts]),
            "a different thing was measured and every change is confounded",
        ),
    ];
    for (member, why) in groups {
        let differing: Vec<String> = conds
            .iter()
            .filter(|c| member(c) && c.differs())
            .map(|c| c.across())
            .collect();
        if !differing.is_empty() {
            notes.push(format!(
                "Confounder{}: {} — {why}.",
                if differing.len() > 1 { "s" } else { "" },
                join_and(&differing)
            ));
        }
    }
    notes
}

/// Each cohort factor's measure of rubric `k`: its wave median in each wave, and how far it
/// moved.
fn yardstick(medians: &Medians, k: usize) -> Vec<String> {
    let mut moved = Vec::new();
    let first = medians.first().map(|w| w[k].as_slice()).unwrap_or_default();
    for (m, CohortMedian { measure, .. }) in first.iter().enumerate() {
        let values: Vec<Option<f64>> = medians
            .iter()
            .map(|w| w[k].get(m).and_then(|c| c.median))
            .collect();
        let path: Vec<String> = values
            .iter()
            .map(|v| v.map_or("unknown".into(), |v| measure_text(*measure, v)))
            .collect();
        let mut text = format!("{} {}", measure.name(), path.join(" → "));
        if let (Some(Some(a)), Some(Some(b))) = (values.first(), values.last())
            && let Some(r) = relative(*a, *b)
        {
            text.push_str(&format!(" ({r})"));
        }
        moved.push(text);
    }
    moved
}
