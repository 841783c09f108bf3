//! Waves built from results files alone (`ingest --from FORMAT PATH...`, and the Python
//! package's `ingest_from`): the wave manifests a user would otherwise write by hand, made
//! from what the files say of their runs ([`crate::import::About`]) and, for what they do not
//! say, from [`FromOptions`] or a base manifest. Nothing is guessed: a field no file and no
//! option gives stops the build, naming the field and the option that supplies it.
//!
//! The manifests are ordinary TOML text, ingested as any written manifest is (the caller
//! serves them through [`WithBuilt`]), so a wave built here is held to every rule of a
//! written one, the model each file names included.
//!
//! How files become waves: a directory is searched (recursively) for the format's results
//! files ([`crate::import::Importer::finds`]); a file found there that cannot be read as the
//! format is skipped with a note (a stray file in a directory of logs), while a file named
//! outright must read. The files are grouped by suite, one wave per suite (an Inspect eval set
//! of four tasks is four waves), and within a wave one seat per model and generation config.
//! Files of one suite that count cached reads in opposite ways cannot share a wave, whose
//! accounting is one convention: they are split into two waves, said in a note.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use toml::{Table, Value};

use crate::diagnostics::closest;
use crate::error::{Error, Hint, Location, Result};
use crate::import::{FORMATS, Imported, Importer, ReadSeek, Source};

/// What the files cannot say, given by the caller. Each `Option` left `None` is taken from the
/// files, or from the base manifest.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FromOptions {
    /// The wave's id; with files of several suites, the prefix of each wave's id.
    pub wave: Option<String>,
    /// A wave manifest without seats, for the wave's conditions (load, budget, suite size,
    /// notes, accounting); what it says wins over the files.
    pub manifest: Option<PathBuf>,
    /// The suite, for every file.
    pub suite: Option<String>,
    /// The suite's size.
    pub suite_problems: Option<u64>,
    /// When the run started (RFC 3339 with its offset).
    pub started_at: Option<String>,
    /// The model, for files that do not name it. A file that names another is refused at
    /// ingest, naming both, unless `model_mismatch_allowed`.
    pub model: Option<String>,
    /// The model's provider.
    pub provider: Option<String>,
    /// The agent or harness.
    pub harness: Option<String>,
    /// A model named by a file that differs from `model` is kept, and the difference recorded
    /// in the wave's notes.
    pub model_mismatch_allowed: bool,
    /// For a format whose tasks come in groups (`lm-eval`): one wave per group, its seats
    /// reading every subtask, instead of each subtask a wave.
    pub group: bool,
    /// For a format of several scorers or metrics (Inspect, HELM): the one whose value decides
    /// Correct, for every file (a seat's `scorer`).
    pub scorer: Option<String>,
    /// Per-path seats (`--seat PATH=MODEL[@PROVIDER]`): the files at PATH (a file, or every
    /// file under a directory) are of MODEL (and PROVIDER), in place of `model` and `provider`;
    /// the deepest PATH holding a file is its. A PATH that holds no file read is refused.
    pub seats: Vec<SeatArg>,
    /// Display names by seat id (`--display-name SEAT=NAME`): each seat of that id, in every
    /// wave built, is shown as NAME. A seat id no wave has is refused.
    pub display_names: Vec<(String, String)>,
}

/// A `--display-name` argument, `SEAT=NAME`, as (seat id, name): split at the first `=`
/// (a seat id holds none; a name may).
pub fn display_name_arg(arg: &str) -> Result<(String, String)> {
    match arg.split_once('=') {
        Some((seat, name)) if !seat.trim().is_empty() && !name.trim().is_empty() => {
            Ok((seat.trim().to_string(), name.trim().to_string()))
        }
        _ => Err(Error::argument(
            "display_name",
            format!("{arg:?}"),
            "expected SEAT=NAME, the seat's id and the name to show it by \
             (e.g. anthropic-claude-sonnet-4-5=\"Claude Sonnet 4.5\")",
        )),
    }
}

/// A `--seat` argument: the results at a path are of this model (and provider).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatArg {
    pub path: PathBuf,
    pub model: String,
    pub provider: Option<String>,
}

/// A `--seat` argument, `PATH=MODEL[@PROVIDER]`: split at the last `=` (a path may hold one,
/// as HELM's run directories do; a model does not), then the model at its last `@`.
pub fn seat_arg(arg: &str) -> Result<SeatArg> {
    let bad = || {
        Error::argument(
            "seat",
            format!("{arg:?}"),
            "expected PATH=MODEL or PATH=MODEL@PROVIDER, the results file (or directory) and \
             the model they are of (e.g. logs/a=gpt-4o@openai)",
        )
    };
    let (path, model) = arg.rsplit_once('=').ok_or_else(bad)?;
    let (model, provider) = match model.rsplit_once('@') {
        Some((m, p)) => (m.trim(), Some(p.trim())),
        None => (model.trim(), None),
    };
    if path.trim().is_empty() || model.is_empty() || provider.is_some_and(str::is_empty) {
        return Err(bad());
    }
    Ok(SeatArg {
        path: lexical(Path::new(path.trim())),
        model: model.to_string(),
        provider: provider.map(str::to_string),
    })
}

/// A path without its `.` components, so that `./a/b` and `a/b` name one place.
fn lexical(path: &Path) -> PathBuf {
    let out: PathBuf = path
        .components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .collect();
    if out.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        out
    }
}

/// The `--seat` whose path holds this file: the deepest.
fn seat_of<'o>(options: &'o FromOptions, file: &Path) -> Option<&'o SeatArg> {
    let file = lexical(file);
    options
        .seats
        .iter()
        .filter(|s| s.path == Path::new(".") || file.starts_with(&s.path))
        .max_by_key(|s| s.path.components().count())
}

/// The model and provider given for a file: its `--seat`'s, else `--model` and `--provider`.
fn given_for(options: &FromOptions, file: &Path) -> (Option<String>, Option<String>) {
    match seat_of(options, file) {
        Some(s) => (Some(s.model.clone()), s.provider.clone()),
        None => (options.model.clone(), options.provider.clone()),
    }
}

/// A wave manifest built in memory, read in place of the file at `path`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Built {
    /// The path it stands at: the base manifest's (so that the files it names resolve from
    /// there), or a name that says where it came from.
    pub path: PathBuf,
    pub text: String,
}

/// What [`ingest_from`] built: one manifest per wave, and notes for the user (files skipped,
/// waves split).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    pub manifests: Vec<Built>,
    pub notes: Vec<String>,
}

/// The importer named `format`; the error lists the formats there are.
pub(crate) fn format_named(format: &str) -> Result<&'static dyn Importer> {
    if let Some(i) = FORMATS.iter().find(|i| i.name() == format) {
        return Ok(*i);
    }
    let names: Vec<&str> = FORMATS.iter().map(|i| i.name()).collect();
    let hint = crate::diagnostics::near_name(format, &names)
        .map(|c| format!(" (did you mean `{c}`?)"))
        .unwrap_or_default();
    Err(Error::Usage(format!(
        "unknown results format {format:?}{hint}; the formats are: {}",
        names.join(", ")
    )))
}

/// Why `path`, given as a wave manifest, is not one, when it is plainly something else: a
/// directory, or a results file of a format benchledger reads (`ingest FILE.eval`), with the
/// format to read it as. `None` for anything that may be a manifest (a `.toml` file, or one
/// nothing recognises): reading it says what is wrong with it.
pub(crate) fn not_a_manifest(src: &dyn Source, path: &Path) -> Option<Error> {
    let dir = matches!(src.list(path), Ok(Some(_)));
    let toml = path.extension().and_then(|e| e.to_str()) == Some("toml");
    if !dir && (toml || !src.is_file(path)) {
        return None;
    }
    let sniffed = crate::import::sniff::sniff(src, path);
    let e = match (dir, sniffed) {
        (true, _) => Error::input(
            Location::file(path),
            "is a directory, not a wave manifest (TOML); a directory of results files is read \
             with the format they are in",
        ),
        (false, Some(_)) => Error::input(
            Location::file(path),
            "is a results file, not a wave manifest (TOML)",
        ),
        (false, None) => return None,
    };
    Some(match sniffed {
        Some(f) => e.hinted(Hint::UseFormat(f)),
        None => e,
    })
}

/// Builds the wave manifests for the results files of `format` at `paths` (files, or
/// directories searched for them), with `options` for what the files do not say. Reads only
/// through `src`; writes nothing. Serve the manifests with [`WithBuilt`] to ingest them.
pub fn ingest_from(
    src: &dyn Source,
    format: &str,
    paths: &[PathBuf],
    options: &FromOptions,
) -> Result<Plan> {
    let importer = format_named(format)?;
    check_format_options(importer, options)?;
    let mut notes = Vec::new();
    let base = base_manifest(src, options)?;
    let base_wave = base_wave_of(base.as_ref(), options)?;
    let mut files = described(
        src,
        importer,
        paths,
        options,
        base.as_ref().map(|_| &base_wave),
        &mut notes,
    )?;
    if options.group {
        files = grouped(src, importer, files, options)?;
    }
    check_seats_read(&files, options)?;
    every_missing(importer, &files, options, &base_wave)?;
    let groups = group(&files, options, &base_wave, &mut notes)?;
    let mut seat_ids: BTreeSet<String> = BTreeSet::new();
    let several = groups.len() > 1;
    let mut manifests = Vec::with_capacity(groups.len());
    for ((suite, flag), members) in &groups {
        let mut root = base.as_ref().map(|(_, t)| t.clone()).unwrap_or_default();
        let split = *flag == Some(true) && groups.contains_key(&(suite.clone(), Some(false)));
        let suffix = if split { "-cached-in" } else { "" };
        let wave = wave_table(
            importer, suite, *flag, suffix, members, options, &base_wave, several,
        )?;
        let id = wave
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let mut recorded = conditions_of(members);
        let seats = seats(importer, members, options, &mut notes, &mut recorded)?;
        seat_ids.extend(
            seats
                .iter()
                .filter_map(|s| s.get("id").and_then(Value::as_str).map(str::to_string)),
        );
        let mut wave = wave;
        if !recorded.is_empty() {
            let mut text = wave
                .get("notes")
                .and_then(Value::as_str)
                .map(|n| format!("{n}\n"))
                .unwrap_or_default();
            text.push_str(&recorded.join("\n"));
            wave.insert("notes".into(), Value::String(text));
        }
        root.insert("wave".into(), Value::Table(wave));
        root.insert("seat".into(), Value::Array(seats));
        let text = toml::to_string(&root)
            .map_err(|e| Error::Usage(format!("cannot write the wave: {e}")))?;
        let path = built_path(options, format, &id, several);
        manifests.push(Built { path, text });
    }
    check_display_names(options, &seat_ids)?;
    Ok(Plan { manifests, notes })
}

/// Refuses `--group` and `--scorer` for a format whose results have no groups or no scorers.
fn check_format_options(importer: &dyn Importer, options: &FromOptions) -> Result<()> {
    if options.group && !importer.has_groups() {
        return Err(Error::switch(
            "group",
            format!(
                "results of format `{}` have no groups of tasks (lm-eval's have)",
                importer.name()
            ),
        ));
    }
    if let Some(scorer) = &options.scorer
        && !importer.has_scorers()
    {
        return Err(Error::argument(
            "scorer",
            scorer,
            format!(
                "results of format `{}` have no scorers to choose from",
                importer.name()
            ),
        ));
    }
    Ok(())
}

/// The `[wave]` table of the `--manifest` given (`base`, its path and table): empty when there
/// is none or it has no `[wave]`.
fn base_wave_of(base: Option<&(PathBuf, Table)>, options: &FromOptions) -> Result<Table> {
    Ok(match base.and_then(|(_, t)| t.get("wave")) {
        None => Table::new(),
        Some(Value::Table(t)) => t.clone(),
        Some(_) => {
            return Err(Error::input(
                manifest_at(options, "wave"),
                "expected a [wave] table",
            ));
        }
    })
}

/// Refuses a `--seat` whose path none of the results files read is at (or under).
fn check_seats_read(files: &[File], options: &FromOptions) -> Result<()> {
    if let Some(s) = options.seats.iter().find(|s| {
        !files
            .iter()
            .any(|f| seat_of(options, &f.path).is_some_and(|o| o.path == s.path))
    }) {
        let read: Vec<String> = files
            .iter()
            .take(5)
            .map(|f| f.path.display().to_string())
            .collect();
        return Err(Error::argument(
            "seat",
            format!("{}={}", s.path.display(), s.model),
            format!(
                "no results file read is at {} (or under it, closer than another seat's \
                 path); the files read are: {}{}",
                s.path.display(),
                read.join(", "),
                if files.len() > 5 { ", ..." } else { "" }
            ),
        ));
    }
    Ok(())
}

/// What the files say of the run that the load has no field for, once each, in file order.
fn conditions_of(members: &[&File]) -> Vec<String> {
    let mut recorded: Vec<String> = Vec::new();
    for f in members {
        for c in &f.imported.about.conditions {
            if !recorded.contains(c) {
                recorded.push(c.clone());
            }
        }
    }
    recorded
}

/// The path a built manifest is named by in errors: the `--manifest` given, or the format's
/// `--from`, with the wave's id when the files make several waves.
fn built_path(options: &FromOptions, format: &str, id: &str, several: bool) -> PathBuf {
    match &options.manifest {
        Some(m) if several => PathBuf::from(format!("{}#{id}", m.display())),
        Some(m) => m.clone(),
        None if several => PathBuf::from(format!("--from {format} (wave {id})")),
        None => PathBuf::from(format!("--from {format}")),
    }
}

/// Refuses a `--display-name` for a seat none of the waves built (`seat_ids`) has.
fn check_display_names(options: &FromOptions, seat_ids: &BTreeSet<String>) -> Result<()> {
    if let Some((seat, name)) = options
        .display_names
        .iter()
        .find(|(seat, _)| !seat_ids.contains(seat))
    {
        let known: Vec<&str> = seat_ids.iter().map(String::as_str).collect();
        let hint = closest(seat, known.iter().copied())
            .map(|c| format!(" (did you mean `{c}`?)"))
            .unwrap_or_default();
        return Err(Error::argument(
            "display_name",
            format!("{seat}={name}"),
            format!(
                "names seat `{seat}`{hint}, which none of the waves built from these files has; \
                 their seats are: {}",
                known.join(", ")
            ),
        ));
    }
    Ok(())
}

/// One results file and what it says.
struct File {
    path: PathBuf,
    /// The path written into the manifest: absolute when a base manifest is given (its
    /// directory is where relative paths would resolve from), else as given.
    results: PathBuf,
    imported: Imported,
    /// The group of tasks the seat reads whole (`--group`).
    group: Option<String>,
    /// The agent and model whose results the seat reads, in a file of several.
    agent: Option<(String, Option<String>)>,
}

/// With `--group`: the files of tasks that belong to a group replaced by one file per group
/// and run (the run's results file, read for the group); the others kept as they are.
fn grouped(
    src: &dyn Source,
    importer: &dyn Importer,
    files: Vec<File>,
    options: &FromOptions,
) -> Result<Vec<File>> {
    let mut out = Vec::with_capacity(files.len());
    let mut seen = BTreeSet::new();
    for f in files {
        let Some((results, group)) = importer.group_of(src, &f.path) else {
            out.push(f);
            continue;
        };
        if !seen.insert((results.clone(), group.clone())) {
            continue;
        }
        let chosen = crate::import::Options {
            group: Some(group.clone()),
            scorer: options.scorer.clone(),
            ..Default::default()
        };
        let imported = importer.about_with(src, &results, &chosen)?;
        out.push(File {
            path: results.clone(),
            results,
            imported,
            group: Some(group),
            agent: None,
        });
    }
    Ok(out)
}

/// One results file described: as one file, or, holding several agents' results (a Harbor job
/// of several agents or models), as one per agent and model, each read for its own.
fn describe(
    src: &dyn Source,
    importer: &dyn Importer,
    path: &Path,
    options: &FromOptions,
) -> Result<Vec<File>> {
    let chosen = crate::import::Options {
        scorer: options.scorer.clone(),
        ..Default::default()
    };
    let agents = if importer.has_agents() {
        importer.agents(src, path)?
    } else {
        Vec::new()
    };
    if agents.is_empty() {
        return Ok(vec![File {
            path: path.to_path_buf(),
            results: path.to_path_buf(),
            imported: importer.about_with(src, path, &chosen)?,
            group: None,
            agent: None,
        }]);
    }
    agents
        .into_iter()
        .map(|(agent, model)| {
            let options = crate::import::Options {
                agent: Some(agent.clone()),
                agent_model: model.clone(),
                ..chosen.clone()
            };
            Ok(File {
                path: path.to_path_buf(),
                results: path.to_path_buf(),
                imported: importer.about_with(src, path, &options)?,
                group: None,
                agent: Some((agent, model)),
            })
        })
        .collect()
}

/// The results files at `paths`, each described; files found in a directory that do not read
/// as the format are skipped with a note.
fn described(
    src: &dyn Source,
    importer: &dyn Importer,
    paths: &[PathBuf],
    options: &FromOptions,
    base: Option<&Table>,
    notes: &mut Vec<String>,
) -> Result<Vec<File>> {
    let mut out = Vec::new();
    for input in paths {
        let Some(found) = search(src, importer, input, notes)? else {
            let files = describe(src, importer, input, options).map_err(|e| {
                match crate::import::sniff::sniff(src, input) {
                    Some(other) if other != importer.name() => e.hinted(Hint::UseFormat(other)),
                    _ => e,
                }
            })?;
            out.extend(files);
            continue;
        };
        let before = out.len();
        let notes_before = notes.len();
        let mut failed = Vec::new();
        for path in found {
            match describe(src, importer, &path, options) {
                Ok(files) => out.extend(files),
                Err(e) => {
                    notes.push(format!(
                        "skipped {}: not read as {} ({e})",
                        path.display(),
                        importer.name()
                    ));
                    failed.push(e);
                }
            }
        }
        // A directory of another format's results: say which, not what each file was not.
        if out.len() == before
            && let Some(other) =
                crate::import::sniff::sniff(src, input).filter(|other| *other != importer.name())
        {
            notes.truncate(notes_before);
            return Err(Error::Usage(format!(
                "{} holds no results file of format `{}`{}",
                input.display(),
                importer.name(),
                match failed.len() {
                    0 => String::new(),
                    n => format!(" ({n} files that might have been were not)"),
                }
            ))
            .hinted(Hint::UseFormat(other)));
        }
        // The one file of the format's name there is, unread: its own error, with its advice.
        if out.len() == before && failed.len() == 1 {
            notes.truncate(notes_before);
            return Err(failed.remove(0));
        }
        if out.len() == before {
            return Err(Error::Usage(format!(
                "{} holds no results file of format `{}` that could be read ({}){}",
                input.display(),
                importer.name(),
                importer.describes(),
                if notes.len() == notes_before {
                    String::new()
                } else {
                    format!(": {}", notes[notes_before..].join("; "))
                }
            )));
        }
    }
    // What an importer decided in reading a file, once each: not of a field given otherwise.
    let given = |field: &str| {
        field == "started_at" && options.started_at.is_some()
            || base.is_some_and(|w| w.contains_key(field))
    };
    for f in &out {
        for (field, n) in &f.imported.about.notes {
            if given(field) {
                continue;
            }
            let note = format!("{}: {n}", f.path.display());
            if !notes.contains(&note) {
                notes.push(note);
            }
        }
    }
    if out.is_empty() {
        return Err(Error::Usage(format!(
            "no results files given: name the {} files, or a directory of them",
            importer.name()
        )));
    }
    Ok(out)
}

/// How deep `ingest --from` searches a directory it is given (README, limits).
pub(crate) const WALK_DEPTH: usize = 32;
/// How many entries (files and directories) it looks at, at most, under one directory given.
pub(crate) const WALK_ENTRIES: usize = 100_000;

/// The bounds of a directory walk.
#[derive(Clone, Copy)]
struct Walk {
    depth: usize,
    entries: usize,
}

/// The format's files under `dir`, sorted, or `None` when it is not a directory. A link to a
/// directory is never followed (it could lead back up the tree, or to `/`), said in a note; a
/// tree deeper than [`WALK_DEPTH`] or of more than [`WALK_ENTRIES`] entries is refused.
fn search(
    src: &dyn Source,
    importer: &dyn Importer,
    dir: &Path,
    notes: &mut Vec<String>,
) -> Result<Option<Vec<PathBuf>>> {
    search_within(
        src,
        importer,
        dir,
        notes,
        Walk {
            depth: WALK_DEPTH,
            entries: WALK_ENTRIES,
        },
    )
}

fn search_within(
    src: &dyn Source,
    importer: &dyn Importer,
    dir: &Path,
    notes: &mut Vec<String>,
    walk: Walk,
) -> Result<Option<Vec<PathBuf>>> {
    let Some(first) = src.list(dir).map_err(|e| Error::io(dir, e))? else {
        return Ok(None);
    };
    let mut found = Vec::new();
    let mut stack = vec![(first, 1usize)];
    let mut seen = 0usize;
    while let Some((entries, depth)) = stack.pop() {
        for p in entries {
            let hidden = p
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with('.'));
            if hidden {
                continue;
            }
            seen += 1;
            if seen > walk.entries {
                return Err(Error::Usage(format!(
                    "{} holds more than {} files and directories, more than ingest --from \
                     searches: name the directories of the logs themselves",
                    dir.display(),
                    walk.entries
                )));
            }
            match src.list(&p).map_err(|e| Error::io(&p, e))? {
                Some(_) if src.is_link(&p) => notes.push(format!(
                    "did not follow {}: a link to a directory (name the directory itself to \
                     read it)",
                    p.display()
                )),
                Some(_) if depth >= walk.depth => {
                    return Err(Error::Usage(format!(
                        "{} is {} directories below {}, deeper than ingest --from searches: \
                         name a directory nearer the logs",
                        p.display(),
                        depth,
                        dir.display()
                    )));
                }
                Some(inner) => stack.push((inner, depth + 1)),
                None if importer.finds(src, &p) => found.push(p),
                None => {}
            }
        }
    }
    found.sort();
    Ok(Some(found))
}

/// The base manifest's path and table, when one is given: it may not hold seats.
fn base_manifest(src: &dyn Source, options: &FromOptions) -> Result<Option<(PathBuf, Table)>> {
    let Some(m) = &options.manifest else {
        return Ok(None);
    };
    let text = src.read_text(m).map_err(|e| Error::io(m, e))?;
    let table = text
        .parse::<Table>()
        .map_err(|e| crate::diagnostics::toml_error(m, &text, &e))?;
    if table.contains_key("seat") {
        return Err(Error::input(
            Location::file(m).field("seat"),
            "the seats come from the results files (one per model); leave [[seat]] out of \
             this manifest, or write the whole manifest and ingest it as it is",
        ));
    }
    check_base_keys(m, &text, &table)?;
    Ok(Some((m.clone(), table)))
}

/// Refuses a key a wave manifest does not have, at the top or in `[wave]`, naming its line
/// and the field meant: a base manifest is read field by field as the wave is built, so a key
/// it does not know would otherwise be passed over in silence (and `started` for
/// `started_at` reported as a date the results files lack).
fn check_base_keys(path: &Path, text: &str, table: &Table) -> Result<()> {
    use super::manifest::WAVE_FIELDS;
    let at = |key: &str, field: String| {
        let line = text.lines().position(|l| {
            l.trim_start()
                .strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        });
        match line {
            Some(n) => Location::line(path, n + 1).field(field),
            None => Location::file(path).field(field),
        }
    };
    if let Some(key) = table.keys().find(|k| *k != "wave") {
        let why = if WAVE_FIELDS.contains(&key.as_str()) {
            format!("`{key}` belongs under [wave]: put it in the [wave] table")
        } else {
            format!("unknown key `{key}`: a wave manifest holds a [wave] table (and [[seat]])")
        };
        return Err(Error::input(at(key, key.clone()), why));
    }
    if let Some(Value::Table(wave)) = table.get("wave")
        && let Some(key) = wave.keys().find(|k| !WAVE_FIELDS.contains(&k.as_str()))
    {
        // A field the key begins (`started` for `started_at`), else the nearest spelling.
        let near = WAVE_FIELDS
            .iter()
            .copied()
            .find(|f| f.starts_with(key.as_str()))
            .or_else(|| crate::diagnostics::closest(key, WAVE_FIELDS.iter().copied()))
            .map(|f| format!(" (did you mean `{f}`?)"))
            .unwrap_or_default();
        return Err(Error::input(
            at(key, format!("wave.{key}")),
            format!(
                "unknown field `{key}`{near}; [wave] takes {}",
                WAVE_FIELDS.join(", ")
            ),
        ));
    }
    Ok(())
}

fn manifest_at(options: &FromOptions, field: &str) -> Location {
    match &options.manifest {
        Some(p) => Location::file(p).field(field),
        None => Location::file(Path::new("--manifest")).field(field),
    }
}

/// A field no file gives and no option or manifest supplies.
fn missing(at: &Path, field: &'static str, why: &str) -> Error {
    Error::input(Location::file(at).field(field), format!("missing: {why}"))
        .hinted(Hint::Give(field))
}

/// The fields a file lacks, each with why.
type Lacks = Vec<(&'static str, String)>;

/// Every field no file gives and no option or base manifest supplies, in one error: naming
/// each with its reason (what follows stops at the first). One field missing is the error
/// [`missing`] makes; several, one error naming them all, each file with its own.
fn every_missing(
    importer: &dyn Importer,
    files: &[File],
    options: &FromOptions,
    base_wave: &Table,
) -> Result<()> {
    let base_suite = base_wave.get("suite").and_then(Value::as_str);
    let suite_of = |f: &File| {
        options
            .suite
            .as_deref()
            .or(base_suite)
            .or(f.imported.about.suite.as_deref())
            .map(str::to_string)
    };
    // The suites some file of which says when its run started.
    let started: BTreeSet<Option<String>> = files
        .iter()
        .filter(|f| f.imported.about.started_at.is_some())
        .map(suite_of)
        .collect();
    let start_given = options.started_at.is_some() || base_wave.contains_key("started_at");
    let size_given = options.suite_problems.is_some()
        || base_wave.contains_key("suite_problems")
        || base_wave.contains_key("suite_problems_file");
    let mut lacking: Vec<(&Path, Lacks)> = Vec::new();
    for f in files {
        let about = &f.imported.about;
        let mut fields: Lacks = Vec::new();
        let suite = suite_of(f);
        if suite.is_none() {
            fields.push((
                "suite",
                "the file does not name the suite it was run on".into(),
            ));
        }
        if !start_given && !started.contains(&suite) {
            fields.push((
                "started_at",
                "the file does not say when its run started".into(),
            ));
        }
        model_lacks(options, f, &mut fields);
        if options.harness.is_none() && about.harness.is_none() {
            fields.push(("harness", "the file does not name its agent".into()));
        }
        if let Some(why) = importer.needs_suite_size()
            && !size_given
            && about.suite_problems.is_none()
        {
            fields.push((
                "suite_problems",
                format!("format `{}` needs the suite's size: {why}", importer.name()),
            ));
        }
        if !fields.is_empty() && !lacking.iter().any(|(p, _)| *p == f.path.as_path()) {
            lacking.push((&f.path, fields));
        }
    }
    let mut all: Vec<&'static str> = Vec::new();
    for (_, fields) in &lacking {
        for (field, _) in fields {
            if !all.contains(field) {
                all.push(field);
            }
        }
    }
    match all.len() {
        0 => Ok(()),
        1 => {
            let (path, fields) = &lacking[0];
            Err(missing(path, fields[0].0, &fields[0].1))
        }
        n => Err(several_missing(&lacking, n, all)),
    }
}

/// What a file lacks of its model and provider, added to `fields`: the model, or, for a
/// model given without its provider that the alias table does not know, the provider.
fn model_lacks(options: &FromOptions, f: &File, fields: &mut Lacks) {
    let about = &f.imported.about;
    let (given_model, given_provider) = given_for(options, &f.path);
    let model = given_model.or(f.imported.model.clone());
    let prefixed = model
        .as_deref()
        .and_then(|m| m.split_once('/'))
        .is_some_and(|(p, r)| !p.is_empty() && !r.is_empty());
    let no_provider = given_provider.is_none() && about.provider.is_none();
    match &model {
        None => fields.push((
            "model",
            if no_provider {
                "the file does not name the model it evaluated, nor its provider: give it \
                 as PROVIDER/MODEL"
            } else {
                "the file does not name the model it evaluated"
            }
            .into(),
        )),
        // A model the alias table knows brings its provider.
        Some(m) if no_provider && !prefixed && crate::models::table().resolve(m).is_none() => {
            fields.push((
                "provider",
                format!("the file names model {m:?} without its provider"),
            ))
        }
        Some(_) => {}
    }
}

/// The error for `n` (more than one) fields missing, `all` of them: each set of fields
/// lacking said once, with the files (of `lacking`) that lack it.
fn several_missing(lacking: &[(&Path, Lacks)], n: usize, all: Vec<&'static str>) -> Error {
    // Files lacking the same, said once.
    let mut alike: Vec<(&Lacks, Vec<&Path>)> = Vec::new();
    for (path, fields) in lacking {
        match alike.iter_mut().find(|(f, _)| *f == fields) {
            Some((_, paths)) => paths.push(path),
            None => alike.push((fields, vec![path])),
        }
    }
    let mut message = format!("missing {n} fields the files do not give: ");
    for (i, (fields, paths)) in alike.iter().enumerate() {
        if i > 0 {
            message.push_str("; ");
        }
        message.push_str(
            &fields
                .iter()
                .map(|(field, why)| format!("`{field}` ({why})"))
                .collect::<Vec<_>>()
                .join(", "),
        );
        if alike.len() > 1 || paths.len() > 1 {
            let shown: Vec<String> = paths
                .iter()
                .take(3)
                .map(|p| p.display().to_string())
                .collect();
            message.push_str(&format!(" in {}", shown.join(", ")));
            if paths.len() > 3 {
                message.push_str(&format!(" and {} more", paths.len() - 3));
            }
        }
    }
    Error::input(Location::file(lacking[0].0), message).hinted(Hint::GiveAll(all))
}

/// The files grouped into waves: by suite, then by the accounting they state (`None`: either).
type Groups<'f> = BTreeMap<(String, Option<bool>), Vec<&'f File>>;

fn group<'f>(
    files: &'f [File],
    options: &FromOptions,
    base_wave: &Table,
    notes: &mut Vec<String>,
) -> Result<Groups<'f>> {
    let declared = base_wave
        .get("accounting")
        .and_then(|a| a.get("input_tokens_include_cache_reads"))
        .and_then(Value::as_bool);
    let base_suite = base_wave.get("suite").and_then(Value::as_str);
    let mut by_suite: BTreeMap<String, Vec<&File>> = BTreeMap::new();
    for f in files {
        let suite = options
            .suite
            .as_deref()
            .or(base_suite)
            .or(f.imported.about.suite.as_deref())
            .ok_or_else(|| {
                missing(
                    &f.path,
                    "suite",
                    "the file does not name the suite it was run on",
                )
            })?;
        by_suite.entry(suite.to_string()).or_default().push(f);
    }
    let mut groups = Groups::new();
    for (suite, members) in by_suite {
        let stated: BTreeSet<bool> = members
            .iter()
            .filter_map(|f| f.imported.accounting.as_ref())
            .map(|s| s.input_tokens_include_cache_reads)
            .collect();
        if declared.is_some() || stated.len() < 2 {
            let flag = declared.or_else(|| stated.first().copied());
            if flag.is_none()
                && let Some(f) = members
                    .iter()
                    .find(|f| f.imported.about.counts_cached_reads)
            {
                return Err(Error::input(
                    manifest_at(options, "wave.accounting.input_tokens_include_cache_reads"),
                    format!(
                        "missing: {} counts cached reads but does not say whether its input \
                         tokens include them; say so in a manifest given with --manifest, under \
                         [wave.accounting], with input_tokens_include_cache_reads = true or \
                         false",
                        f.path.display()
                    ),
                ));
            }
            groups.insert((suite, flag), members);
            continue;
        }
        notes.push(format!(
            "the results of suite {suite:?} count cached reads in two ways (some input totals \
             include them, some do not): a wave holds one convention, so they are two waves, \
             the one whose input includes them with an id ending in -cached-in"
        ));
        for f in members {
            let flag = f
                .imported
                .accounting
                .as_ref()
                .is_some_and(|s| s.input_tokens_include_cache_reads);
            groups
                .entry((suite.clone(), Some(flag)))
                .or_default()
                .push(f);
        }
    }
    Ok(groups)
}

/// A slug of a name: runs of characters an id cannot hold become one `-`.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '.' | '_') {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').trim_start_matches(['.', '_']);
    if out.is_empty() {
        "wave".into()
    } else {
        out.to_string()
    }
}

/// A start time as RFC 3339 in UTC.
fn utc(raw: &str, at: &Path, field: &'static str) -> Result<String> {
    chrono::DateTime::parse_from_rfc3339(raw)
        .map(|t| {
            t.with_timezone(&chrono::Utc)
                .to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
        })
        .map_err(|_| {
            Error::input(
                Location::file(at).field(field),
                format!("{raw:?} is not a date-time with a UTC offset"),
            )
            .hinted(Hint::Give("started_at"))
        })
}

/// The one value every member gives, when they all give the same.
fn common<T: Clone + PartialEq>(members: &[&File], get: impl Fn(&File) -> Option<T>) -> Option<T> {
    let mut values = members.iter().map(|f| get(f));
    let first = values.next()??;
    values.all(|v| v.as_ref() == Some(&first)).then_some(first)
}

/// The `[wave]` table of one group.
#[allow(clippy::too_many_arguments)]
fn wave_table(
    importer: &dyn Importer,
    suite: &str,
    flag: Option<bool>,
    suffix: &str,
    members: &[&File],
    options: &FromOptions,
    base: &Table,
    several: bool,
) -> Result<Table> {
    let mut wave = base.clone();
    let first = members[0];
    wave.insert("suite".into(), Value::String(suite.to_string()));
    // The start: the option, the manifest's, else the earliest any file gives.
    let started = match (&options.started_at, wave.get("started_at")) {
        (Some(s), _) => Some(utc(s, Path::new("--started-at"), "started_at")?),
        (None, Some(_)) => None,
        (None, None) => {
            let mut starts = Vec::new();
            for f in members {
                if let Some(s) = &f.imported.about.started_at {
                    starts.push(utc(s, &f.path, "started_at")?);
                }
            }
            Some(starts.into_iter().min().ok_or_else(|| {
                missing(
                    &first.path,
                    "started_at",
                    "the file does not say when its run started",
                )
            })?)
        }
    };
    if let Some(s) = &started {
        wave.insert("started_at".into(), Value::String(s.clone()));
    }
    let date: String = wave
        .get("started_at")
        .map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .unwrap_or_default()
        .chars()
        .take(10)
        .collect();
    let own = format!("{}-{date}", slug(suite.rsplit('/').next().unwrap_or(suite)));
    let id = match (&options.wave, wave.get("id").and_then(Value::as_str)) {
        (Some(w), _) if several => format!("{w}-{own}{suffix}"),
        (Some(w), _) => format!("{w}{suffix}"),
        (None, Some(w)) if several => format!("{w}-{own}{suffix}"),
        (None, Some(w)) => format!("{w}{suffix}"),
        (None, None) => format!("{own}{suffix}"),
    };
    wave.insert("id".into(), Value::String(id));
    let size = options
        .suite_problems
        .or_else(|| common(members, |f| f.imported.about.suite_problems));
    if let Some(n) = size
        && !wave.contains_key("suite_problems")
        && !wave.contains_key("suite_problems_file")
    {
        let n = i64::try_from(n).unwrap_or(i64::MAX);
        wave.insert("suite_problems".into(), Value::Integer(n));
    }
    if let Some(why) = importer.needs_suite_size()
        && !wave.contains_key("suite_problems")
        && !wave.contains_key("suite_problems_file")
    {
        return Err(missing(
            &first.path,
            "suite_problems",
            &format!("format `{}` needs the suite's size: {why}", importer.name()),
        ));
    }
    conditions(&mut wave, flag, members);
    Ok(wave)
}

/// Accounting, load and provenance: what the manifest says, else what the files agree on.
fn conditions(wave: &mut Table, flag: Option<bool>, members: &[&File]) {
    let mut section = match wave.remove("accounting") {
        Some(Value::Table(t)) => t,
        _ => Table::new(),
    };
    section
        .entry("input_tokens_include_cache_reads")
        .or_insert(Value::Boolean(flag.unwrap_or(false)));
    wave.insert("accounting".into(), Value::Table(section));
    let mut load = Table::new();
    if let Some(n) = common(members, |f| f.imported.about.parallel_sessions) {
        load.insert("parallel_sessions".into(), Value::Integer(i64::from(n)));
    }
    if let Some(n) = common(members, |f| f.imported.about.tool_server_sessions) {
        load.insert("tool_server_sessions".into(), Value::Integer(i64::from(n)));
    }
    if let Some(b) = common(members, |f| f.imported.about.serial_rerun) {
        load.insert("serial_rerun".into(), Value::Boolean(b));
    }
    if let Some(x) = common(members, |f| f.imported.about.timeout_multiplier) {
        load.insert("timeout_multiplier".into(), Value::Float(x));
    }
    if !load.is_empty() {
        let section = wave
            .entry("load")
            .or_insert_with(|| Value::Table(Table::new()));
        if let Value::Table(t) = section {
            for (k, v) in load {
                t.entry(k).or_insert(v);
            }
        }
    }
    let mut provenance = Table::new();
    let about = |get: fn(&crate::import::About) -> Option<String>| {
        common(members, |f| get(&f.imported.about))
    };
    for (key, value) in [
        ("producer", about(|a| a.producer.clone())),
        ("producer_version", about(|a| a.producer_version.clone())),
        ("harness_version", about(|a| a.harness_version.clone())),
    ] {
        if let Some(v) = value {
            provenance.insert(key.into(), Value::String(v));
        }
    }
    if !provenance.is_empty() {
        let section = wave
            .entry("provenance")
            .or_insert_with(|| Value::Table(Table::new()));
        if let Value::Table(t) = section {
            for (k, v) in provenance {
                t.entry(k).or_insert(v);
            }
        }
    }
}

/// The model a file's seat is of, and its provider.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ModelOf {
    /// The model as given or named in full (`openai/gpt-4o`): the seat's id is made from it.
    full: String,
    provider: String,
    /// The model as the seat records it: without the provider's prefix when the prefix is
    /// the provider.
    model: String,
}

/// Resolves a file's model and provider: the given ones (`--model`, `--provider`, a `--seat`
/// of its path) over what the file names; a provider the file leaves unsaid from the prefix of
/// the model's name, else from the model alias table (said in `notes` beside the file, and once
/// in `recorded`), else missing, named with its flag.
fn model_of(
    f: &File,
    given_model: Option<String>,
    given_provider: Option<String>,
    notes: &mut Vec<String>,
    recorded: &mut Vec<String>,
) -> Result<ModelOf> {
    let full = given_model.or(f.imported.model.clone()).ok_or_else(|| {
        missing(
            &f.path,
            "model",
            "the file does not name the model it evaluated",
        )
    })?;
    let (prefix, rest) = match full.split_once('/') {
        Some((p, r)) if !p.is_empty() && !r.is_empty() => (Some(p), r),
        _ => (None, full.as_str()),
    };
    let provider = match given_provider
        .or(f.imported.about.provider.clone())
        .or(prefix.map(str::to_string))
    {
        Some(p) => p,
        // The provider the file leaves unsaid, from the alias table: said in the wave's
        // notes, beside the name the file used.
        None => match crate::models::table().resolve(&full) {
            Some(e) => {
                let said = format!(
                    "model {full:?} is {}'s {} (benchledger's model alias table v{}), its \
                     provider taken from there",
                    e.provider,
                    e.canonical,
                    crate::models::table().version
                );
                notes.push(format!("{}: {said}", f.path.display()));
                if !recorded.contains(&said) {
                    recorded.push(said);
                }
                e.provider.clone()
            }
            None => {
                return Err(missing(
                    &f.path,
                    "provider",
                    &format!("the file names model {full:?} without its provider"),
                ));
            }
        },
    };
    let model = if prefix == Some(provider.as_str()) {
        rest.to_string()
    } else {
        full.clone()
    };
    Ok(ModelOf {
        full,
        provider,
        model,
    })
}

/// One seat per file: a model and its provider, a harness, the file, and an id from the
/// model; runs of one model under different generation configs, or twice under one, get ids
/// that tell them apart.
fn seats(
    importer: &dyn Importer,
    members: &[&File],
    options: &FromOptions,
    notes: &mut Vec<String>,
    recorded: &mut Vec<String>,
) -> Result<Vec<Value>> {
    // (model, config) -> files, and the configs of each model.
    let mut configs: BTreeMap<String, BTreeSet<Option<String>>> = BTreeMap::new();
    let mut rows = Vec::with_capacity(members.len());
    for f in members {
        let row = row(f, options, notes, recorded)?;
        configs
            .entry(row.full.clone())
            .or_default()
            .insert(row.config.clone());
        rows.push(row);
    }
    let mut taken: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let of_model = &configs[&row.full];
        let id = seat_id(&row, of_model, &mut taken, notes);
        let seat = seat_table(importer, options, row, id, of_model.len() > 1, recorded)?;
        out.push(Value::Table(seat));
    }
    Ok(out)
}

/// A file's seat before its id: its model, provider, harness and config, and the models the
/// file names and the options give.
struct Row<'a> {
    f: &'a File,
    full: String,
    provider: String,
    model: String,
    harness: String,
    config: Option<String>,
    named: Option<String>,
    given_model: Option<String>,
}

/// The seat of one file, before its id: its model and provider as given or named, and its
/// harness.
fn row<'a>(
    f: &'a File,
    options: &FromOptions,
    notes: &mut Vec<String>,
    recorded: &mut Vec<String>,
) -> Result<Row<'a>> {
    let named = f.imported.model.clone();
    let (given_model, given_provider) = given_for(options, &f.path);
    let ModelOf {
        full,
        provider,
        model,
    } = model_of(f, given_model.clone(), given_provider, notes, recorded)?;
    let harness = options
        .harness
        .clone()
        .or(f.imported.about.harness.clone())
        .ok_or_else(|| missing(&f.path, "harness", "the file does not name its agent"))?;
    let config = f.imported.about.config.clone();
    Ok(Row {
        f,
        full,
        provider,
        model,
        harness,
        config,
        named,
        given_model,
    })
}

/// A seat's id, from its agent and model, told apart from the model's other configs
/// (`of_model`) and from the ids already `taken`.
fn seat_id(
    row: &Row<'_>,
    of_model: &BTreeSet<Option<String>>,
    taken: &mut BTreeMap<String, usize>,
    notes: &mut Vec<String>,
) -> String {
    let (f, full) = (row.f, &row.full);
    // A job of several agents: each agent's seat is named after it too.
    let mut id = match &f.agent {
        Some((agent, _)) => slug(&format!("{agent}-{full}")),
        None => slug(full),
    };
    if of_model.len() > 1 {
        let k = of_model.iter().position(|c| *c == row.config).unwrap_or(0) + 1;
        id = format!("{id}-config{k}");
    }
    let n = taken.entry(id.clone()).or_default();
    *n += 1;
    if *n > 1 {
        notes.push(format!(
            "{} is a second run of model {full} on this suite under the same settings: seat \
             {id}-run{n}",
            f.path.display()
        ));
        id = format!("{id}-run{n}");
    }
    id
}

/// A seat's table in the manifest, under its `id`; `configs` is whether its model runs under
/// several generation configs.
fn seat_table(
    importer: &dyn Importer,
    options: &FromOptions,
    row: Row<'_>,
    id: String,
    configs: bool,
    recorded: &mut Vec<String>,
) -> Result<Table> {
    let Row {
        f,
        full: _,
        provider,
        model,
        harness,
        config,
        named,
        given_model,
    } = row;
    let results = results_path(f, options)?;
    let shown_as = options.display_names.iter().find(|(s, _)| *s == id);
    let mut seat = Table::new();
    seat.insert("id".into(), Value::String(id));
    seat.insert("model".into(), Value::String(model));
    seat.insert("provider".into(), Value::String(provider));
    seat.insert("harness".into(), Value::String(harness));
    if let Some((_, name)) = shown_as {
        seat.insert("display_name".into(), Value::String(name.clone()));
    }
    if configs && let Some(c) = config {
        seat.insert("config".into(), Value::String(c));
    }
    seat.insert("results".into(), Value::String(results));
    seat.insert("format".into(), Value::String(importer.name().into()));
    if let Some(g) = &f.group {
        seat.insert("group".into(), Value::String(g.clone()));
    }
    if let Some(sc) = &options.scorer {
        seat.insert("scorer".into(), Value::String(sc.clone()));
    }
    if let Some((agent, model)) = &f.agent {
        seat.insert("agent".into(), Value::String(agent.clone()));
        if let Some(m) = model {
            seat.insert("agent_model".into(), Value::String(m.clone()));
        }
    }
    if options.model_mismatch_allowed
        && let (Some(n), Some(m)) = (&named, &given_model)
        && n != m
    {
        recorded.push(format!(
            "seat {}: its results name model {n}; it was ingested as {m} \
             (model_mismatch = \"allow\")",
            seat["id"].as_str().unwrap_or_default()
        ));
        seat.insert("model_mismatch".into(), Value::String("allow".into()));
    }
    Ok(seat)
}

/// The path a seat's `results` names.
fn results_path(f: &File, options: &FromOptions) -> Result<String> {
    let p = if options.manifest.is_some() {
        std::path::absolute(&f.results).map_err(|e| Error::io(&f.results, e))?
    } else {
        f.results.clone()
    };
    p.to_str().map(str::to_string).ok_or_else(|| {
        Error::Usage(format!(
            "{} is not a UTF-8 path, which a manifest cannot name",
            p.display()
        ))
    })
}

/// A source that serves built manifests at their paths, and everything else from `inner`.
pub struct WithBuilt<'a> {
    pub inner: &'a dyn Source,
    pub built: &'a [Built],
}

impl WithBuilt<'_> {
    fn get(&self, path: &Path) -> Option<&Built> {
        self.built.iter().find(|b| b.path == path)
    }
}

impl Source for WithBuilt<'_> {
    fn is_file(&self, path: &Path) -> bool {
        self.get(path).is_some() || self.inner.is_file(path)
    }

    fn read_text(&self, path: &Path) -> std::io::Result<String> {
        match self.get(path) {
            Some(b) => Ok(b.text.clone()),
            None => self.inner.read_text(path),
        }
    }

    fn open_lines(&self, path: &Path) -> std::io::Result<Box<dyn std::io::BufRead + '_>> {
        match self.get(path) {
            Some(b) => Ok(Box::new(std::io::Cursor::new(b.text.as_bytes()))),
            None => self.inner.open_lines(path),
        }
    }

    fn open(&self, path: &Path) -> std::io::Result<Box<dyn ReadSeek + '_>> {
        match self.get(path) {
            Some(b) => Ok(Box::new(std::io::Cursor::new(b.text.as_bytes()))),
            None => self.inner.open(path),
        }
    }

    fn list(&self, path: &Path) -> std::io::Result<Option<Vec<PathBuf>>> {
        self.inner.list(path)
    }

    fn is_link(&self, path: &Path) -> bool {
        self.inner.is_link(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::Memory;

    const TAU: &str = r#"[{"task_id": 0, "trial": 0, "reward": 1.0, "info": {}, "traj": []},
        {"task_id": 1, "trial": 0, "reward": 0.0, "info": {}, "traj": []}]"#;

    fn options() -> FromOptions {
        FromOptions {
            suite: Some("tau-bench-airline".into()),
            started_at: Some("2024-06-01T02:00:00+02:00".into()),
            model: Some("openai/gpt-4o".into()),
            harness: Some("tool-calling".into()),
            ..FromOptions::default()
        }
    }

    /// `seats` was 150 lines; resolving a file's model and provider is a step of its own
    /// (`model_of`), which this pins: the given model over the named one, the provider from
    /// the given one, the file, the model's prefix (dropped from the model), then the alias
    /// table (said in a note), else missing with its flag.
    #[test]
    fn ingest_from_seats_resolves_each_files_model_and_provider_in_a_step_of_its_own() {
        let file = |model: Option<&str>, provider: Option<&str>| File {
            path: "r/a.json".into(),
            results: "r/a.json".into(),
            imported: Imported {
                model: model.map(str::to_string),
                about: crate::import::About {
                    provider: provider.map(str::to_string),
                    ..Default::default()
                },
                ..Default::default()
            },
            group: None,
            agent: None,
        };
        let (mut notes, mut recorded) = (Vec::new(), Vec::new());
        let mut of = |f: &File, m: Option<&str>, p: Option<&str>| {
            model_of(
                f,
                m.map(str::to_string),
                p.map(str::to_string),
                &mut notes,
                &mut recorded,
            )
            .map(|m| (m.full, m.provider, m.model))
        };
        let said = |full: &str, provider: &str, model: &str| {
            Some((full.to_string(), provider.to_string(), model.to_string()))
        };
        let named = file(Some("openai/gpt-4o"), None);
        assert_eq!(
            of(&named, None, None).ok(),
            said("openai/gpt-4o", "openai", "gpt-4o")
        );
        assert_eq!(
            of(&named, Some("acme/m1"), Some("hosted")).ok(),
            said("acme/m1", "hosted", "acme/m1")
        );
        assert_eq!(
            of(&file(Some("m2"), Some("p2")), None, None).ok(),
            said("m2", "p2", "m2")
        );
        let e = of(&file(None, None), None, None).unwrap_err().to_string();
        assert!(e.contains("model"), "{e}");
        let e = of(&file(Some("no-such-model-anywhere"), None), None, None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("provider"), "{e}");
        let (full, provider, _) = of(&file(Some("gpt-4o"), None), None, None).unwrap();
        assert_eq!((full.as_str(), provider.as_str()), ("gpt-4o", "openai"));
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(
            notes[0].starts_with("r/a.json: model \"gpt-4o\""),
            "{notes:?}"
        );
        assert_eq!(recorded.len(), 1, "{recorded:?}");
    }

    #[test]
    fn a_file_that_names_nothing_takes_the_options() {
        let src = Memory::new().with("r/a.json", TAU);
        let plan = ingest_from(&src, "tau-bench", &["r".into()], &options()).unwrap();
        assert_eq!(plan.notes, Vec::<String>::new());
        assert_eq!(plan.manifests.len(), 1);
        let m = &plan.manifests[0];
        assert_eq!(m.path, Path::new("--from tau-bench"));
        let t: Table = m.text.parse().unwrap();
        assert_eq!(
            t["wave"]["id"].as_str(),
            Some("tau-bench-airline-2024-06-01")
        );
        assert_eq!(
            t["wave"]["started_at"].as_str(),
            Some("2024-06-01T00:00:00Z")
        );
        assert_eq!(
            t["wave"]["accounting"]["input_tokens_include_cache_reads"].as_bool(),
            Some(false)
        );
        let seat = &t["seat"][0];
        assert_eq!(seat["id"].as_str(), Some("openai-gpt-4o"));
        assert_eq!(seat["provider"].as_str(), Some("openai"));
        assert_eq!(seat["model"].as_str(), Some("gpt-4o"));
        assert_eq!(seat["results"].as_str(), Some("r/a.json"));
        assert_eq!(seat["format"].as_str(), Some("tau-bench"));
        // The built manifest is a wave ingest reads.
        struct Count(usize);
        impl crate::ingest::WaveVisitor for Count {
            fn wave(&mut self, _: &crate::model::Wave) {}
            fn seat(&mut self, _: &crate::model::Wave, s: crate::model::SeatData) {
                self.0 += s.attempts.len();
            }
        }
        let served = WithBuilt {
            inner: &src,
            built: &plan.manifests,
        };
        let mut count = Count(0);
        crate::ingest::visit_wave(&served, &m.path, &mut count).unwrap();
        assert_eq!(count.0, 2);
    }

    #[test]
    fn what_nothing_gives_is_named_with_its_option() {
        let src = Memory::new().with("a.json", TAU);
        for (field, unset) in [
            (
                "suite",
                FromOptions {
                    suite: None,
                    ..options()
                },
            ),
            (
                "started_at",
                FromOptions {
                    started_at: None,
                    ..options()
                },
            ),
            (
                "model",
                FromOptions {
                    model: None,
                    ..options()
                },
            ),
            (
                "harness",
                FromOptions {
                    harness: None,
                    ..options()
                },
            ),
            (
                "provider",
                FromOptions {
                    // A model the alias table does not know: one it knows gets its provider.
                    model: Some("in-house-model".into()),
                    ..options()
                },
            ),
        ] {
            let e = ingest_from(&src, "tau-bench", &["a.json".into()], &unset).unwrap_err();
            assert_eq!(e.hint(), Some(&Hint::Give(field)), "{e}");
            assert!(
                e.to_string()
                    .starts_with(&format!("a.json: field `{field}`: missing: ")),
                "{e}"
            );
        }
        let e = ingest_from(&src, "json", &["a.json".into()], &options()).unwrap_err();
        assert!(e.to_string().contains("did you mean `jsonl`?"), "{e}");
    }

    /// Issue 32.4: `ingest --from hal` stopped on `suite`, then on `started_at`, then on
    /// `provider`, one run at a time: every missing field is named, with its reason, at once.
    #[test]
    fn missing_fields_are_named_all_at_once_not_one_at_a_time() {
        let src = Memory::new().with("d/a.json", TAU).with("d/b.json", TAU);
        let e = ingest_from(&src, "tau-bench", &["d".into()], &FromOptions::default()).unwrap_err();
        assert_eq!(
            e.hint(),
            Some(&Hint::GiveAll(vec![
                "suite",
                "started_at",
                "model",
                "harness"
            ])),
            "{e}"
        );
        assert_eq!(
            e.to_string(),
            "d/a.json: missing 4 fields the files do not give: `suite` (the file does not name \
             the suite it was run on), `started_at` (the file does not say when its run \
             started), `model` (the file does not name the model it evaluated, nor its \
             provider: give it as PROVIDER/MODEL), `harness` (the file does not name its agent) \
             in d/a.json, d/b.json"
        );
        // What one option gives is no longer named; a model without its provider is.
        let e = ingest_from(
            &src,
            "tau-bench",
            &["d/a.json".into()],
            &FromOptions {
                // A model the alias table does not know: one it knows brings its provider.
                model: Some("house-model-7".into()),
                suite: Some("s".into()),
                ..FromOptions::default()
            },
        )
        .unwrap_err();
        assert_eq!(
            e.hint(),
            Some(&Hint::GiveAll(vec!["started_at", "provider", "harness"])),
            "{e}"
        );
        assert!(
            e.to_string().contains(
                "`provider` (the file names model \"house-model-7\" without its provider)"
            ),
            "{e}"
        );
    }

    /// Issue 34.4 (the bounds; the links are tests/import.rs): a walk stops, refused, past its
    /// depth and its count of entries instead of walking for minutes.
    #[test]
    fn a_directory_walk_is_bounded_in_depth_and_entries() {
        let deep = format!("d/{}a.json", "x/".repeat(5));
        let src = Memory::new().with(&deep, TAU).with("d/b.json", TAU);
        let mut notes = Vec::new();
        let within = |depth, entries, notes: &mut Vec<String>| {
            search_within(
                &src,
                format_named("tau-bench").unwrap(),
                Path::new("d"),
                notes,
                Walk { depth, entries },
            )
        };
        let found = within(6, 100, &mut notes).unwrap().unwrap();
        assert_eq!(found.len(), 2);
        let e = within(5, 100, &mut notes).unwrap_err().to_string();
        assert!(
            e.contains("d/x/x/x/x/x is 5 directories below d, deeper than ingest --from searches"),
            "{e}"
        );
        let e = within(6, 4, &mut notes).unwrap_err().to_string();
        assert!(
            e.contains("d holds more than 4 files and directories, more than ingest --from"),
            "{e}"
        );
        assert!(notes.is_empty());
    }

    /// A new user's check: a base manifest with `suite` above its [wave] table, or `started`
    /// for `started_at`, was passed over in silence, and the error then said the results files
    /// do not say when their run started. Each is now refused where it is, naming the field.
    #[test]
    fn a_base_manifest_key_the_manifest_does_not_have_is_refused_on_its_line() {
        let with = |text: &str| {
            let src = Memory::new().with("d/a.json", TAU).with("m.toml", text);
            let o = FromOptions {
                manifest: Some("m.toml".into()),
                ..options()
            };
            ingest_from(&src, "tau-bench", &["d/a.json".into()], &o)
                .unwrap_err()
                .to_string()
        };
        let e = with("suite = \"x/y\"\n[wave]\nnotes = \"n\"\n");
        assert!(
            e.contains("m.toml:1") && e.contains("`suite` belongs under [wave]"),
            "{e}"
        );
        let e = with("[wave]\nnotes = \"n\"\nstarted = 2026-01-01T00:00:00Z\n");
        assert!(e.contains("m.toml:3") && e.contains("wave.started"), "{e}");
        assert!(e.contains("did you mean `started_at`?"), "{e}");
        let e = with("[wave]\n[extra]\nx = 1\n");
        assert!(e.contains("unknown key `extra`"), "{e}");
        // Every field a manifest's [wave] has is taken.
        assert!(
            ingest_from(
                &Memory::new()
                    .with("d/a.json", TAU)
                    .with("m.toml", "[wave]\nnotes = \"n\"\n[wave.load]\n"),
                "tau-bench",
                &["d/a.json".into()],
                &FromOptions {
                    manifest: Some("m.toml".into()),
                    ..options()
                }
            )
            .is_ok()
        );
    }

    #[test]
    fn a_second_run_of_a_model_is_a_seat_of_its_own_and_the_base_manifest_is_kept() {
        let src = Memory::new()
            .with("d/a.json", TAU)
            .with("d/b.json", TAU)
            .with("e/c.json", TAU);
        // Two runs of one model on one suite: two seats, said in a note.
        let plan = ingest_from(&src, "tau-bench", &["d".into()], &options()).unwrap();
        let t: Table = plan.manifests[0].text.parse().unwrap();
        let ids: Vec<&str> = t["seat"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, ["openai-gpt-4o", "openai-gpt-4o-run2"]);
        assert_eq!(plan.notes.len(), 1, "{:?}", plan.notes);
        assert!(plan.notes[0].contains("d/b.json is a second run of model openai/gpt-4o"));
        // A base manifest's wave is kept; the suite must still come from somewhere (files of
        // several suites are several waves: tests/import_inspect.rs, an eval set).
        let src = src.with("m.toml", "[wave]\nnotes = \"nightly\"\n");
        let one = FromOptions {
            wave: Some("night".into()),
            suite: None,
            manifest: Some("m.toml".into()),
            ..options()
        };
        let e = ingest_from(&src, "tau-bench", &["d/a.json".into()], &one).unwrap_err();
        assert_eq!(e.hint(), Some(&Hint::Give("suite")));
        let with_suite = |suite: &str| FromOptions {
            suite: Some(suite.into()),
            ..one.clone()
        };
        let plan =
            ingest_from(&src, "tau-bench", &["d/a.json".into()], &with_suite("x/y")).unwrap();
        let t: Table = plan.manifests[0].text.parse().unwrap();
        assert_eq!(t["wave"]["id"].as_str(), Some("night"));
        assert_eq!(t["wave"]["notes"].as_str(), Some("nightly"));
        assert!(
            t["seat"][0]["results"]
                .as_str()
                .unwrap()
                .ends_with("d/a.json"),
            "with a base manifest, results are absolute: {t}"
        );
    }
}
