//! Ingest: reading a wave manifest and the result files it names into the model, checking
//! everything before the ledger is touched.
//!
//! Nothing here writes. `visit_wave` reads a wave a seat at a time, handing each checked seat
//! on in ledger order, so a wave of a million attempts need never be held whole: the caller
//! hashes and stores each seat and lets it go. What it hands on is whole and consistent: every
//! seat's results parsed, no duplicate (seat, problem, trial), every attempt on a declared
//! problem, token counts that agree with the accounting convention. Errors name the file, the
//! line and the field, and say what was expected.
//!
//! Nor does anything here open a file: the caller hands in a [`Source`] that reads them by path
//! (the `ingest` command reads the filesystem; tests hold files in memory), and the paths are
//! what errors name.

pub mod files;
pub mod from;
pub(crate) mod manifest;
pub mod run;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::diagnostics::{check_no_nul, check_slug, line_of};
use crate::error::{Error, Location, Result};
use crate::import;
use crate::import::results;
pub use crate::import::{ReadSeek, Source};
use crate::model::{
    Accounting, Budget, Load, MAX_SUITE_PROBLEMS, MAX_SUITE_PROBLEMS_TEXT, Provenance, Seat,
    SeatData, SuiteProblems, Wave,
};

/// What `visit_wave` hands on as it reads a wave.
pub trait WaveVisitor {
    /// The wave's conditions, checked, before any seat.
    fn wave(&mut self, wave: &Wave);
    /// One seat, read and checked, with its attempts in ledger order (problem, then trial).
    /// Seats come in ledger order (by seat id).
    fn seat(&mut self, wave: &Wave, seat: SeatData);
    /// Where an importer reports how far it has read a long file; none by default.
    fn progress(&mut self) -> Option<&mut dyn crate::import::Progress> {
        None
    }
    /// What asks the reading to stop ([`crate::cancel`]): checked before each seat's results
    /// are read, so that `visit_wave` returns [`Error::Interrupted`] at the next seat once it
    /// is set. None by default: the reading runs to its end.
    fn cancel(&self) -> Option<&crate::cancel::Cancel> {
        None
    }
}

/// Reads a wave manifest and its result files, handing each seat to `v` as soon as it and every
/// seat before it in ledger order have been checked. Files are read, and errors found, in
/// manifest order; when the manifest lists its seats in id order (the usual case) one seat at a
/// time is held. An error may come after some seats were handed on: the caller must treat what
/// it was given as void then.
pub(crate) fn visit_wave(src: &dyn Source, path: &Path, v: &mut dyn WaveVisitor) -> Result<Wave> {
    let text = src.read_text(path).map_err(|e| Error::io(path, e))?;
    let m = manifest::parse(path, &text)?;
    let (wave, accounting_at) = wave_of(src, path, &text, &m.wave)?;

    if m.seat.is_empty() {
        return Err(Error::input(
            Location::file(path).field("seat"),
            "the wave has no seats: add at least one [[seat]] with id, model, provider, \
             harness and results",
        ));
    }
    v.wave(&wave);
    // Seats are checked in manifest order but handed on in id order: each waits here until
    // every seat before it in id order has been handed on.
    let mut pending: BTreeSet<&str> = m
        .seat
        .iter()
        .map(|s| s.get_ref().id.get_ref().as_str())
        .collect();
    let mut seats: BTreeMap<String, SeatData> = BTreeMap::new();
    let mut seat_lines: BTreeMap<String, usize> = BTreeMap::new();
    let mut display_names: BTreeMap<String, String> = BTreeMap::new();
    for s in &m.seat {
        let line = line_of(&text, s.span().start);
        let s = s.get_ref();
        let id = s.id.get_ref();
        check_seat_heading(path, &text, line, s, &mut display_names, &mut seat_lines)?;
        if let Some(cancel) = v.cancel() {
            cancel.check()?;
        }
        let data = read_seat(src, path, &text, &wave, &accounting_at, s, v)?;
        seats.insert(id.clone(), data);
        while let Some(next) = pending.first()
            && let Some(ready) = seats.remove(*next)
        {
            pending.pop_first();
            v.seat(&wave, ready);
        }
    }
    Ok(wave)
}

/// Checks the `[wave]` table's own fields (id, suite, the free text) and reads it into a
/// [`Wave`], with where its accounting convention was stated.
fn wave_of(
    src: &dyn Source,
    path: &Path,
    text: &str,
    w: &manifest::WaveSection,
) -> Result<(Wave, Location)> {
    check_wave_text(path, text, w)?;
    let started_at = manifest::started_at(path, text, &w.started_at)?;

    let suite_problems = suite_problems_of(src, path, text, w)?;
    let load = load_of(path, text, w)?;
    let (accounting, accounting_at) = accounting_of(path, text, w)?;
    let budget = budget_of(path, text, w)?;
    let supersedes = supersedes_of(path, text, w)?;
    let canary_problems = canaries(path, text, w, suite_problems.as_ref())?;

    let wave = Wave {
        id: w.id.get_ref().clone(),
        suite: w.suite.get_ref().clone(),
        started_at,
        notes: w.notes.clone(),
        suite_problems,
        load,
        accounting,
        budget,
        provenance: Provenance {
            harness_version: w.provenance.harness_version.clone(),
            producer: w.provenance.producer.clone(),
            producer_version: w.provenance.producer_version.clone(),
        },
        supersedes,
        canary_problems,
    };
    Ok((wave, accounting_at))
}

/// Checks the wave's id is a slug, its suite's name is not empty, and no text of the wave's
/// holds a NUL.
fn check_wave_text(path: &Path, text: &str, w: &manifest::WaveSection) -> Result<()> {
    check_slug(
        manifest::at(path, text, &w.id, "id"),
        "wave id",
        w.id.get_ref(),
    )?;
    check_no_nul(
        manifest::at(path, text, &w.suite, "suite"),
        w.suite.get_ref(),
    )?;
    for (field, v) in [
        ("notes", &w.notes),
        ("provenance.harness_version", &w.provenance.harness_version),
        ("provenance.producer", &w.provenance.producer),
        (
            "provenance.producer_version",
            &w.provenance.producer_version,
        ),
    ] {
        if let Some(v) = v {
            // Not spanned: the line of the key in the manifest.
            let key = field.rsplit('.').next().unwrap_or(field);
            check_no_nul(manifest::key_at(path, text, key, field), v)?;
        }
    }
    if w.suite.get_ref().trim().is_empty() {
        return Err(Error::input(
            manifest::at(path, text, &w.suite, "suite"),
            "the suite's name is empty",
        ));
    }
    Ok(())
}

/// Checks a seat's own fields before its results are read: a slug for an id, no NUL in its
/// text, a display name no other seat has, and an id no seat before it (`seat_lines`, each
/// id with the line it sits on) has.
fn check_seat_heading(
    path: &Path,
    text: &str,
    line: usize,
    s: &manifest::SeatSection,
    display_names: &mut BTreeMap<String, String>,
    seat_lines: &mut BTreeMap<String, usize>,
) -> Result<()> {
    let id = s.id.get_ref();
    check_slug(manifest::at(path, text, &s.id, "id"), "seat id", id)?;
    for (field, v) in [
        ("model", Some(&s.model)),
        ("provider", Some(&s.provider)),
        ("harness", Some(&s.harness)),
        ("config", s.config.as_ref()),
    ] {
        if let Some(v) = v {
            check_no_nul(Location::line(path, line).field(format!("seat.{field}")), v)?;
        }
    }
    if let Some(n) = &s.display_name {
        check_display_name(
            manifest::at(path, text, n, "display_name"),
            n.get_ref(),
            display_names,
            id,
        )?;
    }
    if let Some(first) = seat_lines.get(id) {
        return Err(Error::input(
            manifest::at(path, text, &s.id, "id"),
            format!("seat `{id}` appears twice in this wave (first at line {first})"),
        ));
    }
    seat_lines.insert(id.clone(), line);
    Ok(())
}

/// The longest display name, in characters: a name, not a description.
pub(crate) const MAX_DISPLAY_NAME: usize = 80;

/// Checks a seat's display name: some text besides spaces, no control character, at most
/// [`MAX_DISPLAY_NAME`] characters, and no other seat of the wave's (`taken`: each name given
/// so far, trimmed, with its seat), since it tells seats apart where the id is not shown.
pub(crate) fn check_display_name(
    at: Location,
    name: &str,
    taken: &mut BTreeMap<String, String>,
    seat: &str,
) -> Result<()> {
    let name = name.trim();
    let wrong = if name.is_empty() {
        Some("is empty: give the seat a name people read, or leave display_name out".to_string())
    } else if let Some(c) = name.chars().find(|c| c.is_control()) {
        Some(format!(
            "{name:?} holds the control character {:?}: a display name is one line of text",
            c
        ))
    } else if name.chars().count() > MAX_DISPLAY_NAME {
        Some(format!(
            "is {} characters long: a display name is at most {MAX_DISPLAY_NAME} (a name, not a \
             description; the seat's config and notes hold the rest)",
            name.chars().count()
        ))
    } else {
        taken.get(name).map(|other| {
            format!(
                "{name:?} is already seat `{other}`'s display name: each seat of a wave needs \
                 its own, or the two could not be told apart"
            )
        })
    };
    if let Some(why) = wrong {
        return Err(Error::input(at, format!("the display name {why}")));
    }
    taken.insert(name.to_string(), seat.to_string());
    Ok(())
}

/// The suite's declared problems: a count, a list read from a file, or none.
fn suite_problems_of(
    src: &dyn Source,
    path: &Path,
    text: &str,
    w: &manifest::WaveSection,
) -> Result<Option<SuiteProblems>> {
    let dir = path.parent().unwrap_or(Path::new("."));
    Ok(match (&w.suite_problems, &w.suite_problems_file) {
        (Some(_), Some(f)) => {
            return Err(Error::input(
                manifest::at(path, text, f, "suite_problems_file"),
                "give suite_problems or suite_problems_file, not both",
            ));
        }
        (Some(n), None) => {
            if *n.get_ref() < 1 {
                return Err(Error::input(
                    manifest::at(path, text, n, "suite_problems"),
                    format!(
                        "expected the number of problems in the suite (1 or more), got {}",
                        n.get_ref(),
                    ),
                ));
            }
            if *n.get_ref() as u64 > MAX_SUITE_PROBLEMS {
                return Err(Error::input(
                    manifest::at(path, text, n, "suite_problems"),
                    format!(
                        "expected the number of problems in the suite, at most \
                         {MAX_SUITE_PROBLEMS_TEXT}, got {}: no suite comes near it, and every \
                         problem is drawn on each resample of an interval; check the number",
                        n.get_ref(),
                    ),
                ));
            }
            Some(SuiteProblems::Count(*n.get_ref() as u64))
        }
        (None, Some(f)) => Some(SuiteProblems::Ids(problem_ids(
            src,
            &dir.join(f.get_ref()),
            manifest::at(path, text, f, "suite_problems_file"),
        )?)),
        (None, None) => None,
    })
}

/// The load the wave ran under: sessions at a time and sharing the tool server, a serial
/// rerun, the factor its timeouts were scaled by.
fn load_of(path: &Path, text: &str, w: &manifest::WaveSection) -> Result<Load> {
    let positive = |v: &Option<toml::Spanned<i64>>, f: &str| -> Result<Option<u32>> {
        match v {
            None => Ok(None),
            Some(n) if *n.get_ref() >= 1 && *n.get_ref() <= i64::from(u32::MAX) => {
                Ok(Some(*n.get_ref() as u32))
            }
            Some(n) => Err(Error::input(
                manifest::at(path, text, n, f),
                format!(
                    "expected a whole number of sessions, 1 or more, got {}",
                    n.get_ref(),
                ),
            )),
        }
    };
    Ok(Load {
        parallel_sessions: positive(&w.load.parallel_sessions, "parallel_sessions")?,
        tool_server_sessions: positive(&w.load.tool_server_sessions, "tool_server_sessions")?,
        serial_rerun: w.load.serial_rerun,
        timeout_multiplier: match &w.load.timeout_multiplier {
            None => None,
            Some(x) if x.get_ref().is_finite() && *x.get_ref() > 0.0 => Some(*x.get_ref() + 0.0),
            Some(x) => {
                return Err(Error::input(
                    manifest::at(path, text, x, "timeout_multiplier"),
                    format!(
                        "expected the factor every timeout was scaled by, finite and above 0 \
                         (1 for timeouts as the harness sets them), got {}",
                        x.get_ref(),
                    ),
                ));
            }
        },
    })
}

/// How the wave counted tokens, and where in the manifest it says so (for an importer whose
/// format states its own accounting and disagrees).
fn accounting_of(
    path: &Path,
    text: &str,
    w: &manifest::WaveSection,
) -> Result<(Accounting, Location)> {
    // Where a format that states its accounting is told the manifest disagrees.
    let accounting_at = match &w.accounting {
        Some(a) => manifest::at(path, text, a, "input_tokens_include_cache_reads"),
        None => Location::file(path).field("wave.accounting"),
    };
    let accounting = match &w.accounting {
        Some(a) => match a.get_ref().input_tokens_include_cache_reads {
            Some(flag) => Accounting {
                input_tokens_include_cache_reads: flag,
                price_source: a.get_ref().price_source.clone(),
            },
            None => {
                return Err(Error::input(
                    manifest::at(path, text, a, "input_tokens_include_cache_reads"),
                    "missing: say whether input token totals include cached reads \
                     (input_tokens_include_cache_reads = true or false under [wave.accounting])",
                ));
            }
        },
        None => {
            return Err(Error::input(
                Location::file(path).field("wave.accounting"),
                "missing: add [wave.accounting] with input_tokens_include_cache_reads = true or \
                 false, so token totals can be compared across waves",
            ));
        }
    };
    Ok((accounting, accounting_at))
}

/// The allowances per problem.
fn budget_of(path: &Path, text: &str, w: &manifest::WaveSection) -> Result<Budget> {
    let allowance = |v: &Option<toml::Spanned<f64>>, f: &str| -> Result<Option<f64>> {
        match v {
            None => Ok(None),
            Some(x) if x.get_ref().is_finite() && *x.get_ref() > 0.0 => Ok(Some(*x.get_ref())),
            Some(x) => Err(Error::input(
                manifest::at(path, text, x, f),
                format!(
                    "expected a positive, finite allowance per problem, got {}",
                    x.get_ref(),
                ),
            )),
        }
    };
    Ok(Budget {
        tokens: allowance(&w.budget.tokens, "tokens")?,
        wall_s: allowance(&w.budget.wall_s, "wall_s")?,
        cost_usd: allowance(&w.budget.cost_usd, "cost_usd")?,
    })
}

/// The wave this one supersedes, when it says so.
fn supersedes_of(path: &Path, text: &str, w: &manifest::WaveSection) -> Result<Option<String>> {
    Ok(match &w.supersedes {
        None => None,
        Some(s) => {
            check_slug(
                manifest::at(path, text, s, "supersedes"),
                "superseded wave id",
                s.get_ref(),
            )?;
            if s.get_ref() == w.id.get_ref() {
                return Err(Error::input(
                    manifest::at(path, text, s, "supersedes"),
                    "a wave cannot supersede itself: name the earlier wave this one corrects",
                ));
            }
            Some(s.get_ref().clone())
        }
    })
}

/// One seat's results, read through its format's importer and checked against the wave.
fn read_seat(
    src: &dyn Source,
    path: &Path,
    text: &str,
    wave: &Wave,
    accounting_at: &Location,
    s: &manifest::SeatSection,
    v: &mut dyn WaveVisitor,
) -> Result<SeatData> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let id = s.id.get_ref();
    let results_path = dir.join(s.results.get_ref());
    if !src.is_file(&results_path) {
        return Err(Error::input(
            manifest::at(path, text, &s.results, "results"),
            format!(
                "results file {} does not exist (results are named relative to the manifest)",
                results_path.display(),
            ),
        ));
    }
    let importer = match &s.format {
        Some(f) => import::named(f.get_ref(), manifest::at(path, text, f, "format"))?,
        None => import::by_extension(&results_path)?,
    };
    check_importer_fields(path, text, wave, s, importer)?;
    let options = import::Options {
        scorer: s.scorer.as_ref().map(|x| x.get_ref().clone()),
        group: s.group.as_ref().map(|x| x.get_ref().clone()),
        agent: s.agent.as_ref().map(|x| x.get_ref().clone()),
        agent_model: s.agent_model.as_ref().map(|x| x.get_ref().clone()),
    };
    let mut quiet = import::Quiet;
    let mut imported = importer.read(&mut import::Input {
        src,
        path: &results_path,
        options: &options,
        progress: v.progress().unwrap_or(&mut quiet),
    })?;
    if let Some(stated) = &imported.accounting {
        check_stated_accounting(accounting_at, wave, stated, &results_path, importer, id)?;
    }
    check_model(path, text, s, &results_path, imported.model.as_deref())?;
    // Native result lines name no record worth keeping (the seat names its file): only a
    // foreign format's attempts keep where they came from.
    if !matches!(importer.name(), "jsonl" | "csv") {
        for r in &mut imported.records {
            r.attempt.origin = Some(origin(dir, &results_path, r));
        }
    }
    let attempts = check_seat(&results_path, wave, imported.records)?;
    if attempts.is_empty() && wave.suite_problems.is_none() {
        return Err(Error::input(
            Location::file(&results_path),
            "the results file holds no attempts; declare the suite's size (suite_problems) \
             so the seat counts as missing every problem, or drop the seat",
        ));
    }
    Ok(SeatData {
        seat: Seat {
            id: id.clone(),
            model: s.model.clone(),
            provider: s.provider.clone(),
            harness: s.harness.clone(),
            config: s.config.clone(),
            display_name: s
                .display_name
                .as_ref()
                .map(|n| n.get_ref().trim().to_string()),
        },
        attempts,
    })
}

/// Refuses what a seat sets that its format has no use for (`scorer`, `group`, `agent`,
/// `agent_model`), and a format that needs the suite's size in a wave that does not declare it.
fn check_importer_fields(
    path: &Path,
    text: &str,
    wave: &Wave,
    s: &manifest::SeatSection,
    importer: &dyn import::Importer,
) -> Result<()> {
    let id = s.id.get_ref();
    if let Some(scorer) = &s.scorer
        && !importer.has_scorers()
    {
        return Err(Error::input(
            manifest::at(path, text, scorer, "scorer"),
            format!(
                "results of format `{}` have no scorers to choose from; drop `scorer`",
                importer.name(),
            ),
        ));
    }
    if let Some(group) = &s.group
        && !importer.has_groups()
    {
        return Err(Error::input(
            manifest::at(path, text, group, "group"),
            format!(
                "results of format `{}` have no groups of tasks; drop `group`",
                importer.name(),
            ),
        ));
    }
    for (name, field) in [("agent", &s.agent), ("agent_model", &s.agent_model)] {
        if let Some(v) = field
            && !importer.has_agents()
        {
            return Err(Error::input(
                manifest::at(path, text, v, name),
                format!(
                    "results of format `{}` are of one agent each; drop `{name}`",
                    importer.name(),
                ),
            ));
        }
    }
    if let Some(why) = importer.needs_suite_size()
        && wave.suite_problems.is_none()
    {
        return Err(Error::input(
            Location::file(path).field("wave.suite_problems"),
            format!(
                "missing: seat `{id}` reads format `{}`, which needs the suite's size: {why}. \
                 Declare it under [wave] with suite_problems = N (or suite_problems_file)",
                importer.name(),
            ),
        ));
    }
    Ok(())
}

/// Refuses results whose `stated` accounting convention is not the one the manifest says
/// (at `accounting_at`).
fn check_stated_accounting(
    accounting_at: &Location,
    wave: &Wave,
    stated: &import::Stated,
    results_path: &Path,
    importer: &dyn import::Importer,
    id: &str,
) -> Result<()> {
    if stated.input_tokens_include_cache_reads != wave.accounting.input_tokens_include_cache_reads {
        return Err(Error::input(
            accounting_at.clone(),
            format!(
                "the manifest says input_tokens_include_cache_reads = {}, but {} (seat `{id}`, \
                 format `{}`) counts them the other way: {}. Make the manifest say {}",
                wave.accounting.input_tokens_include_cache_reads,
                results_path.display(),
                importer.name(),
                stated.why,
                stated.input_tokens_include_cache_reads,
            ),
        ));
    }
    Ok(())
}

/// Where a record came from, as the ledger keeps it: the file or directory that holds it alone
/// (a trial's directory), with no record; else the results file, and the record in the
/// format's words. The path is relative to the manifest's directory `dir` ([`relative_to`]),
/// so that it names the same file on another machine that has the manifest and its files: for
/// `ingest --from`, the directory of its `--manifest`, else the current directory (the built
/// manifest's path has no directory), where the paths on the command line start.
fn origin(dir: &Path, results: &Path, r: &import::Record) -> crate::model::AttemptOrigin {
    match &r.file {
        Some(f) => crate::model::AttemptOrigin {
            file: relative_to(dir, f),
            record: None,
        },
        None => crate::model::AttemptOrigin {
            file: relative_to(dir, results),
            record: Some(r.at.to_string()),
        },
    }
}

/// `path` relative to the directory `dir`, `/`-separated and without `.` components: the rest
/// of it when it lies under `dir` as both are written; else, both made absolute against the
/// current directory, the way from `dir` to it (`../logs/run.json`); absolute only when the two
/// share nothing but the root. Paths are compared as written: `..` is taken lexically and no
/// link is followed (the origin names a file; it is never read through).
pub(crate) fn relative_to(dir: &Path, path: &Path) -> String {
    use std::path::{Component, PathBuf};
    let clean = |p: &Path| -> PathBuf {
        p.components()
            .filter(|c| !matches!(c, Component::CurDir))
            .collect()
    };
    let (d, p) = (clean(dir), clean(path));
    if d.is_absolute() == p.is_absolute()
        && let Ok(rest) = p.strip_prefix(&d)
    {
        return slashed(rest);
    }
    // Each made absolute, `..` taken lexically: its names from the root.
    let names = |p: &Path| -> Option<Vec<std::ffi::OsString>> {
        let base = if p.as_os_str().is_empty() {
            Path::new(".")
        } else {
            p
        };
        let mut out = Vec::new();
        for c in std::path::absolute(base).ok()?.components() {
            match c {
                Component::Normal(n) => out.push(n.to_os_string()),
                Component::ParentDir => {
                    out.pop();
                }
                Component::RootDir | Component::CurDir => {}
                Component::Prefix(_) => return None,
            }
        }
        Some(out)
    };
    let (Some(from), Some(to)) = (names(&d), names(&p)) else {
        return slashed(&p);
    };
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let rest = to[common..]
        .iter()
        .map(|n| n.to_string_lossy().into_owned());
    if common == 0 {
        return format!("/{}", rest.collect::<Vec<_>>().join("/"));
    }
    let mut parts: Vec<String> = vec!["..".into(); from.len() - common];
    parts.extend(rest);
    if parts.is_empty() {
        return ".".into();
    }
    parts.join("/")
}

/// A path `/`-separated (`.` when it is empty).
fn slashed(p: &Path) -> String {
    let s: Vec<String> = p
        .components()
        .map(|c| match c {
            std::path::Component::RootDir => String::new(),
            c => c.as_os_str().to_string_lossy().into_owned(),
        })
        .collect();
    if s.is_empty() {
        ".".into()
    } else {
        s.join("/")
    }
}

/// Whether a model named by a results file is the seat's: the same name, the same with the
/// provider's prefix (`openai/gpt-4o` for provider `openai`, model `gpt-4o`), or the same last
/// part of a path-like name (`openrouter/anthropic/claude-x` and `anthropic/claude-x`), or a
/// dated snapshot of it (`claude-sonnet-4-20250514`, `gpt-4o-2024-08-06` for `claude-sonnet-4`,
/// `gpt-4o`), or a name of the same model in the alias table (`crate::models`:
/// `us.anthropic.claude-sonnet-4-5-20250929-v1:0` for `claude-sonnet-4.5`).
fn same_model(named: &str, provider: &str, model: &str) -> bool {
    let aliases = crate::models::table();
    if aliases.same(named, model) || aliases.same(named, &format!("{provider}/{model}")) {
        return true;
    }
    let last = |s: &str| s.rsplit('/').next().unwrap_or(s).to_string();
    let (named_last, model_last) = (last(named), last(model));
    let dated = named_last
        .strip_prefix(model_last.as_str())
        .and_then(|rest| rest.strip_prefix('-'))
        .is_some_and(|date| {
            let digits: String = date.chars().filter(|c| *c != '-').collect();
            digits.len() == 8
                && digits.chars().all(|c| c.is_ascii_digit())
                && date.chars().all(|c| c.is_ascii_digit() || c == '-')
        });
    named == model || named == format!("{provider}/{model}") || named_last == model_last || dated
}

/// A results file that names another model than its seat is refused, naming both, unless the
/// seat says `model_mismatch = "allow"`.
fn check_model(
    path: &Path,
    text: &str,
    s: &manifest::SeatSection,
    results_path: &Path,
    named: Option<&str>,
) -> Result<()> {
    let allowed = match &s.model_mismatch {
        None => false,
        Some(v) if v.get_ref() == "allow" => true,
        Some(v) => {
            return Err(Error::input(
                manifest::at(path, text, v, "model_mismatch"),
                format!(
                    "expected \"allow\" (or no model_mismatch), got {:?}",
                    v.get_ref()
                ),
            ));
        }
    };
    match named {
        Some(n) if !allowed && !same_model(n, &s.provider, &s.model) => Err(Error::input(
            manifest::at(path, text, &s.id, "model"),
            format!(
                "seat `{}` says model {:?} (provider {:?}), but its results {} name model \
                 {n:?}; correct the seat's model, or, when the model was served under another \
                 name, say model_mismatch = \"allow\" on the seat",
                s.id.get_ref(),
                s.model,
                s.provider,
                results_path.display(),
            ),
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod origin_tests {
    use super::relative_to;
    use std::path::Path;

    #[test]
    fn an_origin_is_relative_to_the_manifests_directory() {
        let r = |d: &str, p: &str| relative_to(Path::new(d), Path::new(p));
        // Under the directory, as both are written.
        assert_eq!(r("sub/tb", "sub/tb/run/fix-git/t1"), "run/fix-git/t1");
        assert_eq!(r("./sub", "./sub/./run.json"), "run.json");
        assert_eq!(r("", "run.json"), "run.json");
        assert_eq!(r("", "./logs/run.json"), "logs/run.json");
        assert_eq!(r("/data/w", "/data/w/run.json"), "run.json");
        // Outside it: the way there.
        assert_eq!(r("/data/meta", "/data/logs/run.json"), "../logs/run.json");
        assert_eq!(r("sub", "sub/../logs/run.json"), "../logs/run.json");
        assert_eq!(r("/a/b/c", "/a/x"), "../../x");
        // Sharing nothing but the root: absolute.
        assert_eq!(r("/home/me", "/data/run.json"), "/data/run.json");
        // One absolute, one relative: both made absolute against the current directory.
        let here = std::env::current_dir().unwrap();
        let inside = here.join("logs").join("run.json");
        assert_eq!(r("", inside.to_str().unwrap()), "logs/run.json");
        assert_eq!(r("..", inside.to_str().unwrap()), {
            let name = here.file_name().unwrap().to_str().unwrap();
            format!("{name}/logs/run.json")
        });
    }
}

#[cfg(test)]
mod model_tests {
    #[test]
    fn a_results_model_is_the_seats_by_name_prefix_or_dated_snapshot() {
        let same = super::same_model;
        assert!(same("gpt-4o", "openai", "gpt-4o"));
        assert!(same("openai/gpt-4o", "openai", "gpt-4o"));
        assert!(same(
            "openrouter/openai/gpt-4o",
            "openrouter",
            "openai/gpt-4o"
        ));
        assert!(same(
            "anthropic/claude-sonnet-4-20250514",
            "anthropic",
            "claude-sonnet-4"
        ));
        assert!(same("gpt-4o-2024-08-06", "openai", "gpt-4o"));
        assert!(!same("claude-opus-4-6", "openai", "gpt-4"));
        assert!(!same("gpt-4o-mini", "openai", "gpt-4o"));
        assert!(!same("gpt-4o-2024", "openai", "gpt-4o"));
    }
}

/// Checks one attempt on its own, as a result line's fields are checked when it is read: an
/// importer builds attempts itself, and each must hold to the same rules (a count past a
/// trillion, an outcome outside [0, 1], a negative or not-finite amount, more failed steps than
/// steps, a trace that disagrees with its counts, an infrastructure error marked Correct).
fn check_attempt(at: &Location, a: &crate::model::Attempt) -> Result<()> {
    let bad = |field: &str, message: String| Err(Error::input(at.clone().field(field), message));
    check_no_nul(at.clone().field("problem"), &a.problem)?;
    if let Some(r) = &a.end_reason {
        check_no_nul(at.clone().field("end_reason"), r)?;
    }
    for (i, step) in a.trace.iter().flatten().enumerate() {
        check_no_nul(at.clone().field(format!("trace[{i}].tool")), &step.tool)?;
        if let Some(e) = &step.error {
            check_no_nul(at.clone().field(format!("trace[{i}].error")), e)?;
        }
    }
    for (i, item) in a.checklist.iter().flatten().enumerate() {
        check_no_nul(at.clone().field(format!("checklist[{i}].item")), &item.item)?;
    }
    if a.problem.trim().is_empty() {
        return bad("problem", "missing: every attempt names its problem".into());
    }
    if a.trial == 0 {
        return bad(
            "attempt",
            "expected a trial number, 1 or more, got 0".into(),
        );
    }
    if let Some(o) = a.outcome
        && !(o.is_finite() && (0.0..=1.0).contains(&o))
    {
        return bad("outcome", format!("expected a number from 0 to 1, got {o}"));
    }
    for (field, v) in [
        ("input_tokens", a.input_tokens),
        ("output_tokens", a.output_tokens),
        ("input_tokens_cache_read", a.input_tokens_cache_read),
        ("input_tokens_cache_write", a.input_tokens_cache_write),
        ("steps", a.steps.map(u64::from)),
        ("errors", a.errors.map(u64::from)),
    ] {
        if let Some(n) = v
            && n > results::MAX_COUNT
        {
            return bad(
                field,
                format!("{n} is more than a trillion, past any real attempt: check the source"),
            );
        }
    }
    for (field, v) in [
        ("wall_s", a.wall_s),
        ("cost_usd", a.cost_usd),
        ("working_s", a.working_s),
    ] {
        if let Some(x) = v
            && !(x.is_finite() && x >= 0.0)
        {
            return bad(
                field,
                format!("expected a finite number, 0 or more, got {x}"),
            );
        }
    }
    if let (Some(s), Some(e)) = (a.steps, a.errors)
        && e > s
    {
        return bad(
            "errors",
            format!("{e} errors in {s} steps: a run cannot have more failed steps than steps"),
        );
    }
    if let Some(t) = &a.trace {
        let n = t.len() as u32;
        let failed = t.iter().filter(|s| !s.ok).count() as u32;
        if a.steps.is_some_and(|s| s != n) || a.errors.is_some_and(|e| e != failed) {
            return bad(
                "trace",
                format!(
                    "the trace holds {n} steps, {failed} failed, but the attempt counts {} \
                     steps and {} errors",
                    a.steps.map_or("unknown".into(), |s| s.to_string()),
                    a.errors.map_or("unknown".into(), |e| e.to_string())
                ),
            );
        }
    }
    if a.infra_error && a.correct {
        return bad(
            "infra_error",
            "an attempt that ended in an infrastructure error cannot be Correct".into(),
        );
    }
    if a.end_reason.as_deref().is_some_and(|r| r.trim().is_empty()) {
        return bad(
            "end_reason",
            "expected the harness's words, got an empty string".into(),
        );
    }
    Ok(())
}

/// Checks one seat's attempts against each other and against the wave, and puts them in ledger
/// order (problem, then trial).
///
/// Lines are checked in file order and the first failing line is reported, as if each line were
/// checked against those before it; duplicates are found by sorting rather than by a map of every
/// line seen, so the check holds little beyond the lines themselves.
fn check_seat(
    path: &Path,
    wave: &Wave,
    mut lines: Vec<results::Line>,
) -> Result<Vec<crate::model::Attempt>> {
    fn key(l: &results::Line) -> (&str, u32) {
        (l.attempt.problem.as_str(), l.attempt.trial)
    }
    let in_order = lines.windows(2).all(|w| key(&w[0]) < key(&w[1]));
    // The first repeat in file order: (its index, the index of the first line with its key).
    let mut repeat: Option<(usize, usize)> = None;
    if !in_order {
        let mut by_key: Vec<usize> = (0..lines.len()).collect();
        // Stable: within one key, file order.
        by_key.sort_by(|a, b| key(&lines[*a]).cmp(&key(&lines[*b])));
        for group in by_key.chunk_by(|a, b| key(&lines[*a]) == key(&lines[*b])) {
            if let [first, second, ..] = group
                && repeat.is_none_or(|(r, _)| *second < r)
            {
                repeat = Some((*second, *first));
            }
        }
    }
    let mut distinct: BTreeSet<&str> = BTreeSet::new();
    for (i, l) in lines.iter().enumerate() {
        let at = l.at.locate(path);
        check_attempt(&at, &l.attempt)?;
        // Name the line where the seat's distinct problems first outnumber the declared suite.
        if let Some(SuiteProblems::Count(n)) = &wave.suite_problems
            && distinct.insert(l.attempt.problem.as_str())
            && distinct.len() as u64 > *n
        {
            return Err(Error::input(
                at.field("problem"),
                format!(
                    "problem {:?} is this seat's problem number {}, but the manifest declares \
                     a suite of {n} (suite_problems); raise suite_problems or check the results",
                    l.attempt.problem,
                    distinct.len()
                ),
            ));
        }
        if let Some(SuiteProblems::Ids(ids)) = &wave.suite_problems
            && ids.binary_search(&l.attempt.problem).is_err()
        {
            return Err(Error::input(
                at.field("problem"),
                format!(
                    "problem {:?} is not among the {} problems the manifest declares \
                     (suite_problems_file); add it to that list or check the results",
                    l.attempt.problem,
                    ids.len()
                ),
            ));
        }
        if wave.accounting.input_tokens_include_cache_reads
            && let (Some(input), Some(read)) =
                (l.attempt.input_tokens, l.attempt.input_tokens_cache_read)
            && read > input
        {
            return Err(Error::input(
                at.field("input_tokens_cache_read"),
                format!(
                    "{read} cached reads cannot sit inside {input} input tokens, yet the wave \
                     says input totals include cached reads; check [wave.accounting]"
                ),
            ));
        }
        if let Some((r, first)) = repeat
            && r == i
        {
            return Err(Error::input(
                at.field("problem"),
                format!(
                    "duplicate attempt: problem {:?} trial {} already appears at {}; give \
                     each trial its own \"attempt\" number",
                    l.attempt.problem, l.attempt.trial, lines[first].at
                ),
            ));
        }
    }
    drop(distinct);
    if !in_order {
        // No two lines share a key, so an unstable sort gives the one order there is.
        lines.sort_unstable_by(|a, b| key(a).cmp(&key(b)));
    }
    Ok(lines
        .into_iter()
        .map(|l| unsigned_zeros(l.attempt))
        .collect())
}

/// An attempt with each measured zero written -0.0 taken as 0.0. The ledger stores, and gives
/// back, a zero without its sign (SQLite keeps none on a REAL), and a wave's content hash is of
/// what the ledger holds: hashed as `-0.0`, the wave's own rows would no longer hash to it, and
/// `verify --ledger` would report an edit nobody made.
fn unsigned_zeros(mut a: crate::model::Attempt) -> crate::model::Attempt {
    for x in [
        &mut a.outcome,
        &mut a.wall_s,
        &mut a.cost_usd,
        &mut a.working_s,
    ]
    .into_iter()
    .flatten()
    {
        *x += 0.0;
    }
    a
}

/// The wave's canary problems, checked: each a problem id, none twice, each a declared problem
/// where the wave declares its problems' ids, no more than the suite holds where it declares
/// its size. Sorted.
fn canaries(
    path: &Path,
    text: &str,
    w: &manifest::WaveSection,
    suite: Option<&SuiteProblems>,
) -> Result<Vec<String>> {
    let Some(list) = &w.canary_problems else {
        return Ok(Vec::new());
    };
    let at = |v: &toml::Spanned<String>| manifest::at(path, text, v, "canary_problems");
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for c in list.get_ref() {
        let id = c.get_ref();
        check_no_nul(at(c), id)?;
        if id.trim().is_empty() {
            return Err(Error::input(
                at(c),
                "a canary problem's id is empty: name a problem of the suite",
            ));
        }
        if id.trim() != id {
            return Err(Error::input(
                at(c),
                format!(
                    "canary problem {id:?} has blanks around it: write the problem's id as \
                         its results name it"
                ),
            ));
        }
        let line = line_of(text, c.span().start);
        if let Some(first) = seen.insert(id, line) {
            return Err(Error::input(
                at(c),
                format!("canary problem {id:?} is listed twice (first at line {first})"),
            ));
        }
        if let Some(SuiteProblems::Ids(ids)) = suite
            && ids.binary_search(id).is_err()
        {
            return Err(Error::input(
                at(c),
                format!(
                    "canary problem {id:?} is not one of the problems the manifest declares \
                     (suite_problems_file): a canary must be a problem of the suite"
                ),
            ));
        }
    }
    if let Some(SuiteProblems::Count(n)) = suite
        && seen.len() as u64 > *n
    {
        return Err(Error::input(
            manifest::at(path, text, list, "canary_problems"),
            format!(
                "{} canary problems in a suite of {n} (suite_problems): a canary must be a \
                 problem of the suite",
                seen.len()
            ),
        ));
    }
    Ok(seen.into_keys().map(str::to_string).collect())
}

/// Reads a problem-id file: one id a line; blank lines and `#` comments skipped.
fn problem_ids(src: &dyn Source, path: &Path, named_at: Location) -> Result<Vec<String>> {
    let text = src.read_text(path).map_err(|e| {
        Error::input(
            named_at,
            format!("cannot read the problem list {}: {e}", path.display()),
        )
    })?;
    let mut ids = BTreeMap::new();
    // A byte-order mark opens the file; it is not part of the first id.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    for (i, raw) in text.lines().enumerate() {
        let id = raw.trim();
        if id.is_empty() || id.starts_with('#') {
            continue;
        }
        check_no_nul(Location::line(path, i + 1), id)?;
        if let Some(first) = ids.insert(id.to_string(), i + 1) {
            return Err(Error::input(
                Location::line(path, i + 1),
                format!("problem {id:?} is listed twice (first at line {first})"),
            ));
        }
    }
    if ids.is_empty() {
        return Err(Error::input(
            Location::file(path),
            "the problem list is empty: write one problem id a line",
        ));
    }
    Ok(ids.into_keys().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::Memory;

    #[test]
    fn an_imported_attempt_is_held_to_the_rules_of_a_result_line() {
        let at = Location::record(Path::new("log.eval"), "sample 3 epoch 1");
        let ok = crate::model::Attempt {
            problem: "p".into(),
            trial: 1,
            correct: false,
            outcome: Some(0.5),
            input_tokens: Some(10),
            output_tokens: Some(5),
            input_tokens_cache_read: None,
            input_tokens_cache_write: None,
            wall_s: Some(1.0),
            cost_usd: Some(0.1),
            steps: Some(2),
            errors: Some(1),
            checklist: None,
            trace: None,
            working_s: Some(0.5),
            infra_error: true,
            end_reason: Some("sandbox died".into()),
            origin: None,
            texts: None,
        };
        assert!(check_attempt(&at, &ok).is_ok());
        let cases: Vec<(crate::model::Attempt, &str)> = vec![
            (
                crate::model::Attempt {
                    outcome: Some(1.5),
                    ..ok.clone()
                },
                "log.eval: sample 3 epoch 1: field `outcome`: expected a number from 0 to 1, \
                 got 1.5",
            ),
            (
                crate::model::Attempt {
                    input_tokens: Some(results::MAX_COUNT + 1),
                    ..ok.clone()
                },
                "field `input_tokens`: 1000000000001 is more than a trillion",
            ),
            (
                crate::model::Attempt {
                    cost_usd: Some(-1.0),
                    ..ok.clone()
                },
                "field `cost_usd`: expected a finite number, 0 or more, got -1",
            ),
            (
                crate::model::Attempt {
                    errors: Some(3),
                    ..ok.clone()
                },
                "field `errors`: 3 errors in 2 steps",
            ),
            (
                crate::model::Attempt {
                    correct: true,
                    ..ok.clone()
                },
                "field `infra_error`: an attempt that ended in an infrastructure error cannot \
                 be Correct",
            ),
            (
                crate::model::Attempt {
                    trial: 0,
                    ..ok.clone()
                },
                "field `attempt`",
            ),
            (
                crate::model::Attempt {
                    trace: Some(vec![crate::model::TraceStep {
                        tool: "t".into(),
                        ok: true,
                        error: None,
                    }]),
                    ..ok.clone()
                },
                "field `trace`: the trace holds 1 steps, 0 failed",
            ),
        ];
        for (a, says) in cases {
            let e = check_attempt(&at, &a).unwrap_err().to_string();
            assert!(e.contains(says), "{e}");
        }
    }

    const MANIFEST: &str = r#"[wave]
id = "w"
suite = "s"
started_at = 2026-03-01T09:00:00Z
suite_problems_file = "ids.txt"

[wave.accounting]
input_tokens_include_cache_reads = false

[[seat]]
id = "zeta"
model = "m"
provider = "p"
harness = "h"
results = "zeta.csv"

[[seat]]
id = "alpha"
model = "m"
provider = "p"
harness = "h"
results = "alpha.jsonl"
"#;

    /// What a visit hands on: the wave's id, then each seat's id with its attempts'
    /// (problem, trial).
    #[derive(Default)]
    struct Collect(Vec<String>);

    impl WaveVisitor for Collect {
        fn wave(&mut self, wave: &Wave) {
            self.0.push(format!("wave {}", wave.id));
        }
        fn seat(&mut self, _: &Wave, seat: SeatData) {
            let attempts: Vec<String> = seat
                .attempts
                .iter()
                .map(|a| format!("{}#{}", a.problem, a.trial))
                .collect();
            self.0
                .push(format!("seat {}: {}", seat.seat.id, attempts.join(" ")));
        }
    }

    fn wave() -> Memory {
        Memory::new()
            .with("w/wave.toml", MANIFEST)
            .with("w/ids.txt", "# the suite\np1\np2\n")
            .with(
                "w/alpha.jsonl",
                "{\"problem\":\"p2\",\"correct\":true}\n\
                 {\"problem\":\"p1\",\"attempt\":2,\"correct\":false}\n\
                 {\"problem\":\"p1\",\"correct\":true}\n",
            )
            .with("w/zeta.csv", "problem,correct\np1,true\n")
    }

    fn visit(src: &Memory) -> Result<Vec<String>> {
        let mut c = Collect::default();
        visit_wave(src, Path::new("w/wave.toml"), &mut c)?;
        Ok(c.0)
    }

    #[test]
    fn a_wave_is_read_from_whatever_source_it_is_given() {
        assert_eq!(
            visit(&wave()).unwrap(),
            ["wave w", "seat alpha: p1#1 p1#2 p2#1", "seat zeta: p1#1",]
        );
    }

    #[test]
    fn errors_name_the_path_the_source_was_asked_for() {
        let e = |src: Memory| visit(&src).unwrap_err().to_string();
        assert_eq!(
            e(wave().with("w/alpha.jsonl", "{\"problem\":\"p3\",\"correct\":true}\n")),
            "w/alpha.jsonl:1: field `problem`: problem \"p3\" is not among the 2 problems the \
             manifest declares (suite_problems_file); add it to that list or check the results"
        );
        let mut src = wave();
        src.files.remove(Path::new("w/zeta.csv"));
        assert_eq!(
            e(src),
            "w/wave.toml:15: field `results`: results file w/zeta.csv does not exist (results \
             are named relative to the manifest)"
        );
        let mut src = wave();
        src.files.remove(Path::new("w/ids.txt"));
        assert_eq!(
            e(src),
            "w/wave.toml:5: field `suite_problems_file`: cannot read the problem list \
             w/ids.txt: entity not found"
        );
        assert_eq!(
            e(wave().with("w/wave.toml", b"\xff".to_vec())),
            "w/wave.toml: line 1 is not UTF-8 text (an invalid byte at column 1): save the \
             file as UTF-8"
        );
        assert_eq!(
            e(wave().with("w/zeta.csv", b"problem,correct\np1,\xff\n".to_vec())),
            "w/zeta.csv: line 2 is not UTF-8 text (an invalid byte at column 4): save the \
             file as UTF-8"
        );
    }

    #[test]
    fn a_byte_order_mark_at_the_start_of_any_file_is_skipped() {
        let mut marked = wave();
        for bytes in marked.files.values_mut() {
            bytes.splice(0..0, "\u{feff}".bytes());
        }
        assert_eq!(visit(&marked).unwrap(), visit(&wave()).unwrap());
    }
}
