//! `benchledger._native`: the compiled half of the Python package (python/benchledger holds the
//! typed, documented API that calls it). It binds benchledger's library in the Python process:
//!
//! - [`main`] is the package's `benchledger` command: the whole command line, exit status kept.
//!   It is the only call that parses a command line.
//! - Every other call is one of the library's operations, bound directly, so that no wave id,
//!   seat or path is ever read as an option: the reading commands' documents
//!   (`benchledger_core::documents`: [`show`], [`score`], [`trials`], [`versus`], [`problems`],
//!   [`plan`], [`diff`], [`compare`], [`history`], [`publications`], [`rules`],
//!   [`claims_check`]; [`waves`] from `report::waves`), each the `--format json` document of
//!   its command built by the same code; [`ingest`], [`ingest_from`], [`review`], [`verify`],
//!   [`rescore`], [`withdraw`], [`copy`], [`bundle`], [`site`], [`init`]; and [`table`], which
//!   hands `export --what attempts|seats` over as Arrow arrays ([`arrow`]).
//!
//! Every call releases the GIL while it works, so other Python threads run during a long
//! ingest, rescore or bootstrap. An error becomes one of `benchledger.errors`' exceptions,
//! chosen by the command line's exit status and carrying its message.
//!
//! Ctrl-C stops the calls that read or write many waves (issue 34). Python runs its signal handlers only on the
//! main thread and only when asked, so a call that did its work on the calling thread heard
//! Ctrl-C only once the work had returned, committed. The work now runs on a thread of its own
//! (`interruptible`) while the calling thread waits, without the GIL, in slices of `SLICE`,
//! asking Python for its signals between them. When a handler raises (Ctrl-C's
//! `KeyboardInterrupt`), the call sets its own [`Cancel`] token, which the library checks
//! between batches (the seats an ingest reads, the waves a command reads, scores or stores, the
//! wait for another writer's lock) and last before a write commits; it waits for the work to
//! stop, rolled back, and raises the handler's exception. The token is the call's own: a
//! `KeyboardInterrupt` stops only the call made on the main thread that Python raised it in,
//! never another thread's. `main`, the command line, keeps the command line's behaviour: the
//! package's `benchledger` command ends at Ctrl-C (`benchledger._cli` restores the default
//! handler), and `benchledger.main()` raises it once the command returns.

mod arrow;

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use benchledger::commands::{self, Surroundings};
use benchledger_core::cancel::Cancel;
use benchledger_core::documents;
use benchledger_core::error::Error;
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The command line, run in this process: `argv` as `sys.argv` gives it (the program's name
/// first). Returns the exit status.
#[pyfunction]
fn main(py: Python<'_>, argv: Vec<String>) -> u8 {
    py.detach(move || benchledger::main_from(argv))
}

/// Creates a ledger at `db`, or checks that the one there is up to date (`init`, by the
/// library's [`benchledger_core::ledger::Ledger::init`]): no command line is parsed.
#[pyfunction]
fn init(py: Python<'_>, db: String) -> PyResult<()> {
    py.detach(move || {
        let mut sink = std::io::sink();
        let ctx = quiet_ctx(&mut sink, &db, std::time::Duration::ZERO, Cancel::new())?;
        benchledger_core::ledger::Ledger::init(&ctx.ledger_file()?).map(|_| ())
    })
    .map_err(|e| Failure(Box::new(e), Vec::new()).raise(py))
}

/// Checks that `db` opens as a ledger to read, as every command that reads it opens it. It has
/// no batches to stop between, so it runs as it did: Ctrl-C is raised once it returns.
#[pyfunction]
fn open(py: Python<'_>, db: String) -> PyResult<()> {
    py.detach(move || with_ledger(&db, Cancel::new(), |_| Ok(())))
        .map_err(|e| Failure(Box::new(e), Vec::new()).raise(py))
}

/// The rows of `export --what attempts|seats` (`what`) of the named waves (every wave not
/// withdrawn when `None`), as an object with `__arrow_c_stream__`.
#[pyfunction]
#[pyo3(signature = (db, what, waves=None, include_withdrawn=false))]
fn table(
    py: Python<'_>,
    db: String,
    what: &str,
    waves: Option<Vec<String>>,
    include_withdrawn: bool,
) -> PyResult<arrow::Table> {
    let source = match what {
        "attempts" => benchledger_core::export::rows::Source::Attempts,
        "seats" => benchledger_core::export::rows::Source::Seats,
        other => {
            return Err(PyRuntimeError::new_err(format!(
                "table({other:?}): attempts or seats"
            )));
        }
    };
    let waves = waves.unwrap_or_default();
    interruptible(py, move |cancel| {
        with_ledger(&db, cancel.clone(), |ledger| {
            let ids =
                benchledger_core::export::rows::chosen_waves(ledger, &waves, include_withdrawn)?;
            let mut all = Vec::with_capacity(ids.len());
            for id in &ids {
                cancel.check()?;
                all.push(benchledger_core::export::rows::wave_rows(
                    ledger, &source, id,
                )?);
            }
            Ok(all)
        })
    })?
    .map_err(|e| Failure(Box::new(e), Vec::new()).raise(py))
    .and_then(|rows| arrow::Table::of(&rows, what).map_err(PyRuntimeError::new_err))
}

/// A submission reviewed under `rules` (`benchledger review --format json`), bound to the
/// library's operation ([`benchledger_core::review::submission::submit`]) rather than to the
/// command line: no argument is parsed, so no path or id is ever read as an option. The
/// ledger `db` is read when the rules may be registered there (`NAME@VERSION`) or it is
/// needed (`against`, `prices`). Nothing is written unless `ingest`: then an accepted
/// submission's waves are ingested with the review recorded beside each and its rules
/// registered, in one transaction (`review --ingest`, [`benchledger_core::ingest::run::built`]).
/// Returns the review's JSON document; a verdict other than `accept` raises `CheckFailed` with
/// the document as its `output`, and ingests nothing.
#[pyfunction]
#[pyo3(signature = (db, paths, rules, *, from_=None, claims=None, against=None, prices=None,
    wave=None, manifest=None, suite=None, suite_problems=None, started_at=None, model=None,
    provider=None, harness=None, ingest=false, wait=600.0))]
#[allow(clippy::too_many_arguments)]
fn review(
    py: Python<'_>,
    db: String,
    paths: Vec<PathBuf>,
    rules: String,
    from_: Option<String>,
    claims: Option<PathBuf>,
    against: Option<String>,
    prices: Option<String>,
    wave: Option<String>,
    manifest: Option<PathBuf>,
    suite: Option<String>,
    suite_problems: Option<u64>,
    started_at: Option<String>,
    model: Option<String>,
    provider: Option<String>,
    harness: Option<String>,
    ingest: bool,
    wait: f64,
) -> PyResult<String> {
    use benchledger_core::review::{render, submission};
    let needs_ledger = against.is_some() || prices.is_some();
    let registered = submission::names_registered_rules(&rules);
    let origin = PathBuf::from(&rules);
    let s = submission::Submission {
        paths,
        from: from_,
        rules,
        claims,
        against,
        prices,
        options: benchledger_core::ingest::from::FromOptions {
            wave,
            manifest,
            suite,
            suite_problems,
            started_at,
            model,
            provider,
            harness,
            ..Default::default()
        },
    };
    let present = db.starts_with("postgres://")
        || db.starts_with("postgresql://")
        || std::path::Path::new(&db).is_file();
    interruptible(py, move |cancel| -> Result<String, Failure> {
        let fail = |e: Error| Failure(Box::new(e), Vec::new());
        let done = if (present && registered) || needs_ledger {
            with_ledger(&db, cancel.clone(), |ledger| {
                submission::submit(Some(ledger), &s)
            })
        } else {
            submission::submit(None, &s)
        }
        .map_err(fail)?;
        let document = render::json(&done.review);
        if let Some(refused) = submission::verdict_error(&done.review, &done.rules.rules, ingest) {
            return Err(Failure(Box::new(refused), document.into_bytes()));
        }
        if ingest {
            let (ledger, now) = open_write(&db, wait, cancel).map_err(fail)?;
            let records = done.records(&origin, &now).map_err(fail)?;
            let manifests = &done.review.plan.manifests;
            benchledger_core::ingest::run::built(
                &ledger,
                manifests,
                records,
                &now,
                &mut benchledger_core::import::Quiet,
            )
            .map_err(fail)?;
        }
        Ok(document)
    })?
    .map_err(|f| f.raise(py))
}

/// A reading command's JSON document, built by the library with the ledger `db` open to read
/// (as every command that reads it opens it): no command line is built or parsed, so no wave
/// id, seat or path is ever read as an option. Ctrl-C stops it between the waves it reads.
fn document(
    py: Python<'_>,
    db: String,
    build: impl FnOnce(&benchledger_core::ledger::Ledger) -> Result<String, Error> + Send,
) -> PyResult<String> {
    interruptible(py, move |cancel| with_ledger(&db, cancel, build))?
        .map_err(|e| Failure(Box::new(e), Vec::new()).raise(py))
}

/// Every wave of the ledger `db` with its conditions, withdrawn ones marked: the JSON document
/// of `waves --format json` ([`benchledger_core::report::waves::listing`]).
#[pyfunction]
fn waves(py: Python<'_>, db: String) -> PyResult<String> {
    document(py, db, |ledger| {
        let (_, json) = benchledger_core::report::waves::listing(ledger)?;
        Ok(benchledger_core::report::to_json("waves", &json))
    })
}

/// The library's interval request: `ci` the level in percent (`None`: no interval), and the
/// resamples and seed when given.
fn ci(level: Option<f64>, resamples: Option<u32>, seed: Option<u64>) -> documents::Ci {
    documents::Ci {
        level,
        resamples,
        seed,
    }
}

/// `show --format json` ([`documents::show`]).
#[pyfunction]
#[pyo3(signature = (db, wave, *, ci_level=None, resamples=None, seed=None, prices=None,
    reprice=false))]
#[allow(clippy::too_many_arguments)]
fn show(
    py: Python<'_>,
    db: String,
    wave: String,
    ci_level: Option<f64>,
    resamples: Option<u32>,
    seed: Option<u64>,
    prices: Option<String>,
    reprice: bool,
) -> PyResult<String> {
    let prices = documents::Prices {
        table: prices,
        reprice,
    };
    document(py, db, move |ledger| {
        documents::show(ledger, &wave, &prices, ci(ci_level, resamples, seed)).map(|d| d.to_json())
    })
}

/// `score --format json` ([`documents::score`]): `rubric` a registered NAME@VERSION or a
/// rubric file's path.
#[pyfunction]
#[pyo3(signature = (db, wave, rubric, *, ci_level=None, resamples=None, seed=None, prices=None,
    reprice=false, include_withdrawn=false))]
#[allow(clippy::too_many_arguments)]
fn score(
    py: Python<'_>,
    db: String,
    wave: String,
    rubric: String,
    ci_level: Option<f64>,
    resamples: Option<u32>,
    seed: Option<u64>,
    prices: Option<String>,
    reprice: bool,
    include_withdrawn: bool,
) -> PyResult<String> {
    let prices = documents::Prices {
        table: prices,
        reprice,
    };
    document(py, db, move |ledger| {
        let ci = ci(ci_level, resamples, seed);
        documents::score(ledger, &wave, &rubric, include_withdrawn, &prices, ci)
            .map(|d| d.to_json())
    })
}

/// `trials --format json` ([`documents::trials`]): `k` empty for the default.
#[pyfunction]
#[pyo3(signature = (db, wave, k=Vec::new()))]
fn trials(py: Python<'_>, db: String, wave: String, k: Vec<u64>) -> PyResult<String> {
    document(py, db, move |ledger| {
        documents::trials(ledger, &wave, &k).map(|d| d.to_json())
    })
}

/// `versus --format json` of two seats ([`documents::versus`]).
#[pyfunction]
#[pyo3(signature = (db, wave, a, b, *, ci_level=None, resamples=None, seed=None))]
#[allow(clippy::too_many_arguments)]
fn versus(
    py: Python<'_>,
    db: String,
    wave: String,
    a: String,
    b: String,
    ci_level: Option<f64>,
    resamples: Option<u32>,
    seed: Option<u64>,
) -> PyResult<String> {
    document(py, db, move |ledger| {
        documents::versus(ledger, &wave, &a, &b, ci(ci_level, resamples, seed)).map(|d| d.to_json())
    })
}

/// `versus --all --format json` ([`documents::versus_all`]).
#[pyfunction]
fn versus_all(py: Python<'_>, db: String, wave: String, alpha: f64) -> PyResult<String> {
    document(py, db, move |ledger| {
        documents::versus_all(ledger, &wave, alpha).map(|d| d.to_json())
    })
}

/// `problems --format json`: the matrix of `wave`, or with `against` what each seat solved
/// there and no longer does (`--regressions`), or with `problem` that problem's sample
/// ([`documents::problems`], [`documents::regressions`], [`documents::sample`]).
#[pyfunction]
#[pyo3(signature = (db, wave, *, against=None, problem=None, seats=Vec::new(),
    include_withdrawn=false))]
fn problems(
    py: Python<'_>,
    db: String,
    wave: String,
    against: Option<String>,
    problem: Option<String>,
    seats: Vec<String>,
    include_withdrawn: bool,
) -> PyResult<String> {
    document(py, db, move |ledger| {
        let include = include_withdrawn;
        Ok(match (against, problem) {
            (_, Some(problem)) => {
                let s = documents::sample(ledger, &wave, &problem, &seats, include)?;
                documents::sample_document(&s).to_json()
            }
            (Some(before), None) => {
                documents::regressions(ledger, &before, &wave, &seats, include)?.to_json()
            }
            (None, None) => documents::problems(ledger, &wave, &seats, include)?.to_json(),
        })
    })
}

/// `plan --format json` ([`documents::plan`]).
#[pyfunction]
#[pyo3(signature = (db, wave, seat, vs, *, delta=None, alpha=0.05, power=0.8))]
#[allow(clippy::too_many_arguments)]
fn plan(
    py: Python<'_>,
    db: String,
    wave: String,
    seat: String,
    vs: String,
    delta: Option<f64>,
    alpha: f64,
    power: f64,
) -> PyResult<String> {
    document(py, db, move |ledger| {
        documents::plan(ledger, &wave, &seat, &vs, delta, alpha, power).map(|d| d.to_json())
    })
}

/// `diff --format json` ([`documents::diff`]).
#[pyfunction]
#[pyo3(signature = (db, old, new, *, waves=Vec::new(), include_withdrawn=false))]
fn diff(
    py: Python<'_>,
    db: String,
    old: String,
    new: String,
    waves: Vec<String>,
    include_withdrawn: bool,
) -> PyResult<String> {
    document(py, db, move |ledger| {
        documents::diff(ledger, &old, &new, &waves, include_withdrawn).map(|d| d.to_json())
    })
}

/// `compare --format json` ([`documents::compare`]).
#[pyfunction]
#[pyo3(signature = (db, seat, waves, *, rubrics=Vec::new(), include_withdrawn=false))]
fn compare(
    py: Python<'_>,
    db: String,
    seat: String,
    waves: Vec<String>,
    rubrics: Vec<String>,
    include_withdrawn: bool,
) -> PyResult<String> {
    document(py, db, move |ledger| {
        documents::compare(ledger, &seat, &waves, &rubrics, include_withdrawn).map(|c| c.to_json())
    })
}

/// `history --format json` ([`documents::history`]).
#[pyfunction]
#[pyo3(signature = (db, rubric, *, seat=None, waves=Vec::new(), include_withdrawn=false))]
fn history(
    py: Python<'_>,
    db: String,
    rubric: String,
    seat: Option<String>,
    waves: Vec<String>,
    include_withdrawn: bool,
) -> PyResult<String> {
    document(py, db, move |ledger| {
        documents::history(ledger, &rubric, seat.as_deref(), &waves, include_withdrawn)
            .map(|d| d.to_json())
    })
}

/// `claims check --format json` of the claims files `paths` against the ledger `db`
/// ([`documents::claims::claims`]), each file labelled by its path as the command labels it.
/// Every file is read and parsed before the ledger is opened. A claim that differs raises
/// `CheckFailed` with the document as its `output`.
#[pyfunction]
fn claims_check(py: Python<'_>, db: String, paths: Vec<PathBuf>) -> PyResult<String> {
    use documents::claims;
    interruptible(py, move |cancel| -> Result<String, Failure> {
        let fail = |e: Error| Failure(Box::new(e), Vec::new());
        let files = paths
            .iter()
            .map(|path| {
                claims::load(path).map(|(_, file)| claims::Loaded {
                    label: path.display().to_string(),
                    path: path.clone(),
                    file,
                })
            })
            .collect::<Result<Vec<_>, Error>>()
            .map_err(fail)?;
        let checked = with_ledger(&db, cancel, |ledger| {
            claims::claims(ledger, &files, &documents::Prices::default())
        })
        .map_err(fail)?;
        let document = checked.document.to_json();
        checked
            .outcome()
            .map_err(|e| Failure(Box::new(e), document.clone().into_bytes()))?;
        Ok(document)
    })?
    .map_err(|f| f.raise(py))
}

/// `rules list --format json` of the ledger `db` ([`documents::rules`]).
#[pyfunction]
fn rules(py: Python<'_>, db: String) -> PyResult<String> {
    document(py, db, |ledger| {
        documents::rules(Some(ledger)).map(|d| d.to_json())
    })
}

/// `publications --format json` ([`documents::publications`]).
#[pyfunction]
fn publications(py: Python<'_>, db: String) -> PyResult<String> {
    document(py, db, |ledger| {
        documents::publications(ledger).map(|d| d.to_json())
    })
}

/// `verify --all --ledger --format json` of the ledger `db` (with `--trusted-key` when
/// `trusted_key` names a public key file), bound to the library's operation
/// ([`benchledger_core::verify::run`]): no command line is parsed, so no path is ever read as
/// an option. The ledger is opened to read as the commands open it, waiting up to `wait`
/// seconds for another writer. Returns the JSON document; a check that fails raises
/// `CheckFailed` with the document as its `output`.
#[pyfunction]
#[pyo3(signature = (db, trusted_key=None, wait=600.0))]
fn verify(py: Python<'_>, db: String, trusted_key: Option<PathBuf>, wait: f64) -> PyResult<String> {
    use benchledger_core::publication::signature;
    use benchledger_core::verify;
    interruptible(py, move |cancel| -> Result<String, Failure> {
        let fail = |e: Error| Failure(Box::new(e), Vec::new());
        let mut sink = std::io::sink();
        let ctx = quiet_ctx(&mut sink, &db, wait_for(wait).map_err(fail)?, cancel).map_err(fail)?;
        let trusted_key = trusted_key
            .as_deref()
            .map(|path| signature::read_public(path, "trusted_key"))
            .transpose()
            .map_err(fail)?;
        let request = verify::Request {
            all: true,
            ledger: true,
            trusted_key,
            ..Default::default()
        };
        let report = verify::run(&request, || ctx.open()).map_err(fail)?;
        let document = report.json();
        report
            .outcome()
            .map_err(|e| Failure(Box::new(e), document.clone().into_bytes()))?;
        Ok(document)
    })?
    .map_err(|f| f.raise(py))
}

/// `bundle ID --out DIR` of the ledger `db`, bound to the library's operation
/// ([`benchledger_core::publication::bundle_write::publication`]): publication `id`'s
/// reproduction bundle written into `out`, a new or empty directory (nothing is written when it
/// cannot be).
#[pyfunction]
#[pyo3(signature = (db, id, out))]
fn bundle(py: Python<'_>, db: String, id: i64, out: PathBuf) -> PyResult<()> {
    use benchledger_core::publication::bundle_write;
    interruptible(py, move |cancel| {
        with_ledger(&db, cancel, |ledger| {
            bundle_write::publication(ledger, id, &out)
        })
    })?
    .map_err(|e| Failure(Box::new(e), Vec::new()).raise(py))
}

/// `publish --wave W --rubric R` of the ledger `db`, bound to the library's operation
/// ([`benchledger_core::publication::publish::publish`]): the leaderboard frozen into the
/// chain (signed with the private key file `sign`, carrying the claims file `claims`), then,
/// with `bundle`, its reproduction bundle written into that new or empty directory (checked
/// before anything is published). Returns the publication: its id, record hash, the record it
/// is chained to, output and input hashes, the chain's head, the signing key's id and the
/// published text.
#[pyfunction]
#[pyo3(signature = (db, wave, rubric, *, title=None, prices=None, ci_level=None, resamples=None,
    seed=None, claims=None, sign=None, bundle=None, wait=600.0))]
#[allow(clippy::too_many_arguments)]
fn publish(
    py: Python<'_>,
    db: String,
    wave: String,
    rubric: String,
    title: Option<String>,
    prices: Option<String>,
    ci_level: Option<f64>,
    resamples: Option<u32>,
    seed: Option<u64>,
    claims: Option<PathBuf>,
    sign: Option<PathBuf>,
    bundle: Option<PathBuf>,
    wait: f64,
) -> PyResult<Published> {
    use benchledger_core::publication::{bundle_write, publish, signature};
    interruptible(py, move |cancel| -> Result<Published, Error> {
        let key = sign
            .as_deref()
            .map(|path| signature::read_private(path, "sign"))
            .transpose()?;
        let settings = ci(ci_level, resamples, seed).settings(false)?;
        let (mut ledger, now) = open_write(&db, wait, cancel)?;
        let request = publish::Request {
            wave: &wave,
            rubric: &rubric,
            title: title.as_deref(),
            prices: prices.as_deref(),
            ci: settings,
            bundle_dir: bundle.as_deref(),
            claims: claims.as_deref(),
            key: key.as_ref(),
        };
        let row = publish::publish(&mut ledger, &request, &now)?;
        if let Some(dir) = &bundle {
            bundle_write::write(&ledger, &row, dir).map_err(|e| {
                Error::Usage(format!(
                    "published #{} (it is in the ledger), but its bundle could not be written: \
                     {e}. Write it with Ledger.bundle({}, DIR)",
                    row.id, row.id
                ))
            })?;
        }
        let head = ledger.walk()?.last().map(|e| e.sha256().to_string());
        Ok((
            row.id,
            row.sha256,
            row.prev_sha256,
            row.output_sha256,
            row.input_sha256,
            head.unwrap_or_default(),
            key.map(|k| k.public().id()),
            row.output,
        ))
    })?
    .map_err(|e| Failure(Box::new(e), Vec::new()).raise(py))
}

/// What [`publish`] returns: id, record sha256, the record it is chained to, output sha256,
/// input sha256, the chain's head, the signing key's id, the published text.
type Published = (
    i64,
    String,
    Option<String>,
    String,
    String,
    String,
    Option<String>,
    String,
);

/// `export --format FORMAT` of the ledger `db`, bound to the library's operations
/// ([`benchledger_core::export::rows::text`] and [`benchledger_core::export::into_dir`]):
/// `csv` and `jsonl` return the rows' text (`what` the rows: attempts, seats or scores under
/// `rubric`); `parquet`, `eee` and `hf-eval-results` write into the directory `out` and return
/// what they wrote, as (name, count) pairs.
#[pyfunction]
#[pyo3(signature = (db, format, *, out=None, what=None, waves=Vec::new(), rubric=None,
    include_withdrawn=false, header=true, hf_datasets=Vec::new(), source_url=None))]
#[allow(clippy::too_many_arguments)]
fn export(
    py: Python<'_>,
    db: String,
    format: String,
    out: Option<PathBuf>,
    what: Option<String>,
    waves: Vec<String>,
    rubric: Option<String>,
    include_withdrawn: bool,
    header: bool,
    hf_datasets: Vec<String>,
    source_url: Option<String>,
) -> PyResult<Exported> {
    use benchledger_core::export::{hf, rows};
    use benchledger_core::report::export::{ExportFormat, What};
    interruptible(py, move |cancel| -> Result<Exported, Error> {
        let usage = |m: &str| Err(Error::Usage(format!("export(): {m}")));
        let format = match format.as_str() {
            "csv" => ExportFormat::Csv,
            "jsonl" => ExportFormat::Jsonl,
            "parquet" => ExportFormat::Parquet,
            "eee" => ExportFormat::Eee,
            "hf-eval-results" => ExportFormat::HfEvalResults,
            other => {
                return usage(&format!(
                    "format {other:?}: csv, jsonl, parquet, eee or hf-eval-results"
                ));
            }
        };
        let text_format = matches!(format, ExportFormat::Csv | ExportFormat::Jsonl);
        if format != ExportFormat::HfEvalResults
            && (!hf_datasets.is_empty() || source_url.is_some())
        {
            return usage("hf_datasets and source_url go with format=\"hf-eval-results\"");
        }
        if !text_format && (what.is_some() || rubric.is_some()) {
            return usage("what and rubric go with format=\"csv\" or \"jsonl\"");
        }
        with_ledger(&db, cancel, |ledger| match out.as_deref() {
            None if text_format => {
                let what = match what.as_deref() {
                    Some("attempts") => What::Attempts,
                    Some("seats") => What::Seats,
                    Some("scores") => What::Scores,
                    _ => return usage("what=: attempts, seats or scores"),
                };
                let source = rows::Source::of(ledger, what, rubric.as_deref())?;
                let ids = rows::chosen_waves(ledger, &waves, include_withdrawn)?;
                let mut text = String::new();
                rows::text(ledger, &source, format, &ids, header, &mut |s| {
                    text.push_str(s);
                    Ok(())
                })?;
                Ok((Some(text), Vec::new()))
            }
            None => usage("this format is written into a directory: give out=DIR"),
            Some(_) if text_format => usage("csv and jsonl are returned as text: leave out out="),
            Some(dir) => {
                let counts = export_into(ledger, format, dir, &waves, include_withdrawn, || {
                    let mut options = hf::Options {
                        source_url: source_url.clone(),
                        ..hf::Options::default()
                    };
                    for d in &hf_datasets {
                        let (suite, dataset) = hf::hub_dataset(d)?;
                        options.datasets.insert(suite, dataset);
                    }
                    Ok(options)
                })?;
                Ok((None, counts))
            }
        })
    })?
    .map_err(|e| Failure(Box::new(e), Vec::new()).raise(py))
}

/// An export written into the directory `dir` (parquet, eee or hf-eval-results, the last with
/// the `options` it is given): what was written, as (name, count) pairs.
fn export_into(
    ledger: &benchledger_core::ledger::Ledger,
    format: benchledger_core::report::export::ExportFormat,
    dir: &Path,
    waves: &[String],
    include_withdrawn: bool,
    options: impl FnOnce() -> Result<benchledger_core::export::hf::Options, Error>,
) -> Result<Vec<(String, u64)>, Error> {
    use benchledger_core::export::{into_dir, rows};
    use benchledger_core::report::export::ExportFormat;
    let counts = match format {
        ExportFormat::Parquet => {
            if !waves.is_empty() || include_withdrawn {
                return Err(Error::Usage(
                    "export(): parquet writes every wave (withdrawn ones marked): waves and \
                     include_withdrawn go with the other formats"
                        .into(),
                ));
            }
            let n = into_dir::parquet(ledger, dir)?;
            vec![
                ("attempts", n.attempts),
                ("seats", n.seats),
                ("scores", n.scores),
            ]
        }
        ExportFormat::Eee => {
            let ids = rows::chosen_waves(ledger, waves, include_withdrawn)?;
            let n = into_dir::eee(ledger, &ids, dir)?;
            vec![
                ("waves", ids.len() as u64),
                ("records", n.records),
                ("rows", n.rows),
            ]
        }
        _ => {
            let options = options()?;
            let ids = rows::chosen_waves(ledger, waves, include_withdrawn)?;
            let n = into_dir::hf(ledger, &ids, &options, dir)?;
            vec![
                ("waves", ids.len() as u64),
                ("files", n.files as u64),
                ("models", n.models as u64),
            ]
        }
    };
    Ok(counts
        .into_iter()
        .map(|(k, n)| (k.to_string(), n))
        .collect())
}

/// What [`export`] returns: the text of csv and jsonl, or what was written into the directory.
type Exported = (Option<String>, Vec<(String, u64)>);

/// `copy --from DB --to DEST`, bound to the library's operation
/// ([`benchledger_core::ledger::copy::whole`]): the whole ledger `db` into a new one at `to`,
/// on either store; every row as it is, or nothing. Returns the rows copied per table.
#[pyfunction]
#[pyo3(signature = (db, to, wait=600.0))]
fn copy(py: Python<'_>, db: String, to: String, wait: f64) -> PyResult<Vec<(String, u64)>> {
    use benchledger_core::ledger::{Wait, copy};
    interruptible(py, move |_cancel| -> Result<_, Error> {
        let limit = wait_for(wait)?;
        let (_, copied) = copy::whole(Path::new(&db), Path::new(&to), &|| Wait {
            limit,
            announce: None,
        })?;
        Ok(copied
            .into_iter()
            .map(|(t, n)| (t.to_string(), n))
            .collect())
    })?
    .map_err(|e| Failure(Box::new(e), Vec::new()).raise(py))
}

/// `site --out DIR` of the ledger `db`, bound to the library's operations: what the site shows
/// read from the ledger ([`benchledger_core::site::load::load`], each publication verified on
/// the way), its pages rendered, and written into `out` ([`benchledger_core::site::write`]: a
/// new or empty directory, or an earlier site's). Intervals are drawn with their defaults
/// unless `intervals` is false. Returns how many pages were written and how many bytes they
/// hold.
#[pyfunction]
#[pyo3(signature = (db, out, *, rubric=None, intervals=true, prices=None, reprice=false,
    problem_pages=None, attempt_pages=None, artifacts=None, config=None))]
#[allow(clippy::too_many_arguments)]
fn site(
    py: Python<'_>,
    db: String,
    out: PathBuf,
    rubric: Option<String>,
    intervals: bool,
    prices: Option<String>,
    reprice: bool,
    problem_pages: Option<usize>,
    attempt_pages: Option<String>,
    artifacts: Option<String>,
    config: Option<PathBuf>,
) -> PyResult<(usize, usize)> {
    use benchledger_core::{files, prices::Costs, registry, site};
    interruptible(py, move |cancel| -> Result<_, Error> {
        // site.toml first: a mistake in it is named before the ledger is read.
        let mut conf = match &config {
            Some(path) => {
                let text =
                    files::read_text(path, files::SITE_CONFIG).map_err(|e| Error::io(path, e))?;
                site::SiteConfig::parse(path, &text)?
            }
            None => site::SiteConfig::default(),
        };
        if let Some(budget) = &attempt_pages {
            conf.attempt_pages = Some(
                site::AttemptPages::parse(budget)
                    .map_err(|why| Error::argument("attempt_pages", budget, why))?,
            );
        }
        if let Some(url) = &artifacts {
            conf.artifacts = Some(
                site::config::base_url(url)
                    .map_err(|why| Error::Usage(format!("artifacts={url:?}: {why}")))?,
            );
        }
        with_ledger(&db, cancel, |ledger| {
            if let Some(spec) = &rubric {
                let Some((name, version)) = registry::split_id(spec) else {
                    return Err(Error::Usage(format!(
                        "rubric={spec:?}: expected a registered rubric as NAME@VERSION"
                    )));
                };
                if *spec != benchledger_core::rubric::accuracy().rubric.id() {
                    registry::rubric_info(ledger, name, version)?;
                }
            }
            let costs = if reprice { Costs::Reprice } else { Costs::Fill };
            let settings = intervals.then(benchledger_core::stats::bootstrap::Settings::default);
            let mut input = site::load::load(
                ledger,
                settings,
                false,
                prices.as_deref().map(|p| (p, costs)),
            )?;
            conf.check(input.waves.iter().map(|w| w.data.wave.suite.as_str()))?;
            // The site is the same whichever face made it: its advice names the commands a
            // reader of it runs.
            input.advice = benchledger::advice::words;
            input.config = conf;
            input.front_rubric = rubric.clone();
            if let Some(n) = problem_pages {
                input.problem_pages = n;
            }
            let pages = site::render(&input);
            let bytes = site::write::to_dir(&out, &pages)?;
            Ok((pages.len(), bytes))
        })
    })?
    .map_err(|e| Failure(Box::new(e), Vec::new()).raise(py))
}

/// `verify --bundle DIR --format json` (with `--trusted-key` when `trusted_key` names a public
/// key file), bound to the library's operation ([`benchledger_core::verify::run`]): a bundle
/// checked trusting nothing in it, no ledger opened. Returns the JSON document; a check that
/// fails raises `CheckFailed` with the document as its `output`.
#[pyfunction]
#[pyo3(signature = (dir, trusted_key=None))]
fn verify_bundle(py: Python<'_>, dir: PathBuf, trusted_key: Option<PathBuf>) -> PyResult<String> {
    use benchledger_core::publication::signature;
    use benchledger_core::verify;
    interruptible(py, move |_cancel| -> Result<String, Failure> {
        let fail = |e: Error| Failure(Box::new(e), Vec::new());
        let trusted_key = trusted_key
            .as_deref()
            .map(|path| signature::read_public(path, "trusted_key"))
            .transpose()
            .map_err(fail)?;
        let request = verify::Request {
            bundle: Some(&dir),
            trusted_key,
            ..Default::default()
        };
        let report = verify::run(&request, || {
            Err(Error::Usage("a bundle is verified without a ledger".into()))
        })
        .map_err(fail)?;
        let document = report.json();
        report
            .outcome()
            .map_err(|e| Failure(Box::new(e), document.clone().into_bytes()))?;
        Ok(document)
    })?
    .map_err(|f| f.raise(py))
}

/// What a rescore stored under one rubric: NAME@VERSION, sha256, seats stored, seats without a
/// score, whether `rubric check` rejects it.
type RubricRescored = (String, String, u64, usize, bool);

/// `rescore --rubric RUBRIC` or `rescore --all` bound to the library's operations
/// ([`benchledger_core::rescore::one`], [`benchledger_core::rescore::all`]): no command line is
/// parsed, so a rubric is only ever a file or a NAME@VERSION, never an option. A write waits up
/// to `wait` seconds for another writer. Returns the waves rescored, the withdrawn waves left
/// out, and what was stored under each rubric.
#[pyfunction]
#[pyo3(signature = (db, rubric=None, all=false, waves=Vec::new(), include_withdrawn=false, wait=600.0))]
fn rescore(
    py: Python<'_>,
    db: String,
    rubric: Option<String>,
    all: bool,
    waves: Vec<String>,
    include_withdrawn: bool,
    wait: f64,
) -> PyResult<(Vec<String>, Vec<String>, Vec<RubricRescored>)> {
    use benchledger_core::rescore;
    interruptible(py, move |cancel| {
        let (mut ledger, _) = open_write(&db, wait, cancel)?;
        let done = match (rubric, all) {
            (Some(rubric), false) => {
                let info = benchledger_core::registry::resolve(&ledger, &rubric)?;
                rescore::one(
                    &mut ledger,
                    &rubric,
                    &info,
                    &waves,
                    include_withdrawn,
                    &mut (),
                )?
            }
            (None, true) => rescore::all(&mut ledger, &waves, include_withdrawn, &mut ())?,
            _ => {
                return Err(Error::Usage(
                    "name one rubric, or pass all=True for every registered rubric (not both)"
                        .into(),
                ));
            }
        };
        let rubrics = done
            .rubrics
            .into_iter()
            .map(|r| (r.id, r.sha256, r.seats, r.undefined, r.scale_violation))
            .collect();
        Ok((done.waves, done.left_out, rubrics))
    })?
    .map_err(|e| Failure(Box::new(e), Vec::new()).raise(py))
}

/// Ingests the wave manifests `manifests` into the ledger `db` in one transaction, bound to
/// the library's operation ([`benchledger_core::ingest::run::manifests`]): no command line is
/// parsed, so no path is ever read as an option. A write waits up to `wait` seconds for
/// another writer. Returns the waves added, in order.
#[pyfunction]
#[pyo3(signature = (db, manifests, wait=600.0))]
fn ingest(py: Python<'_>, db: String, manifests: Vec<PathBuf>, wait: f64) -> PyResult<Vec<String>> {
    use benchledger_core::ingest::run;
    interruptible(py, move |cancel| {
        run::check_manifests(&manifests)?;
        // A ledger that cannot be opened is named after any bad input.
        let (ledger, now) = open_write(&db, wait, cancel)
            .map_err(|e| run::first_input_error(&manifests, &[]).unwrap_or(e))?;
        run::manifests(
            &ledger,
            &manifests,
            &now,
            &mut benchledger_core::import::Quiet,
        )
        .map(|report| report.added())
    })?
    .map_err(|e| Failure(Box::new(e), Vec::new()).raise(py))
}

/// Withdraws `wave` from the ledger `db` for `reason`, bound to the library's operation
/// ([`benchledger_core::ledger::Ledger::withdraw_wave`]): a withdrawal appended to the chain,
/// nothing deleted or changed. Returns the withdrawal's wave, reason, time, record hash, the
/// record it is chained to (none when it is the first) and the chain's head after it.
#[pyfunction]
#[pyo3(signature = (db, wave, reason, wait=600.0))]
fn withdraw(
    py: Python<'_>,
    db: String,
    wave: String,
    reason: String,
    wait: f64,
) -> PyResult<Withdrawn> {
    interruptible(py, move |cancel| {
        let (mut ledger, now) = open_write(&db, wait, cancel)?;
        let (row, head) = ledger.withdraw_wave(&wave, &reason, &now)?;
        Ok((
            row.wave,
            row.reason,
            row.created_at,
            row.sha256,
            row.prev_sha256,
            head,
        ))
    })?
    .map_err(|e: Error| Failure(Box::new(e), Vec::new()).raise(py))
}

/// What [`withdraw`] returns: wave, reason, created at, record sha256, the record it is chained
/// to, the chain's head.
type Withdrawn = (String, String, String, String, Option<String>, String);

/// `claims from FORMAT PATH` bound to the library's operation
/// ([`benchledger_core::claims::read::read`]): the source's files read and its published
/// figures made a claims file, whose text is returned and, with `out`, written to that new
/// file. No ledger is opened.
#[pyfunction]
#[pyo3(signature = (format, path, *, wave=None, seat=None, wave_prefix=None, task=None,
    metric=None, evaluation=None, out=None))]
#[allow(clippy::too_many_arguments)]
fn claims_from(
    py: Python<'_>,
    format: String,
    path: PathBuf,
    wave: Option<String>,
    seat: Option<String>,
    wave_prefix: Option<String>,
    task: Option<String>,
    metric: Option<String>,
    evaluation: Option<String>,
    out: Option<PathBuf>,
) -> PyResult<String> {
    use benchledger_core::claims::read::{self, Source};
    interruptible(py, move |_cancel| -> Result<String, Error> {
        let needs = |what: &str, v: &Option<String>| -> Result<String, Error> {
            v.clone().ok_or_else(|| {
                Error::Usage(format!(
                    "claims_from(format={format:?}) needs {what}=: the {what} the claims are about"
                ))
            })
        };
        let (w, s) = if format == "openhands" {
            (String::new(), String::new())
        } else {
            (needs("wave", &wave)?, needs("seat", &seat)?)
        };
        let t = if format == "lm-eval" {
            needs("task", &task)?
        } else {
            String::new()
        };
        let source = match format.as_str() {
            "openhands" => Source::Openhands {
                dir: &path,
                wave_prefix: wave_prefix.as_deref().unwrap_or("oh-"),
                seat: seat.as_deref(),
            },
            "terminal-bench" => Source::TerminalBench {
                results: &path,
                wave: &w,
                seat: &s,
            },
            "hal" => Source::Hal {
                upload: &path,
                wave: &w,
                seat: &s,
            },
            "harbor" => Source::Harbor {
                result: &path,
                wave: &w,
                seat: &s,
            },
            "helm" => Source::Helm {
                run_dir: &path,
                metric: metric.as_deref(),
                wave: &w,
                seat: &s,
            },
            "eee" => Source::Eee {
                record: &path,
                evaluation: evaluation.as_deref(),
                wave: &w,
                seat: &s,
            },
            "lm-eval" => Source::LmEval {
                results: &path,
                task: &t,
                metric: metric.as_deref(),
                wave: &w,
                seat: &s,
            },
            other => {
                return Err(Error::Usage(format!(
                    "claims_from: no format {other:?}; give one of openhands, terminal-bench, \
                     hal, harbor, helm, eee, lm-eval"
                )));
            }
        };
        let made = read::read(&source)?;
        if let Some(out) = &out {
            read::write_new(out, &made.text)?;
        }
        Ok(made.text)
    })?
    .map_err(|e| Failure(Box::new(e), Vec::new()).raise(py))
}

/// `ingest --from FORMAT PATHS...` bound to the library's operation
/// ([`benchledger_core::ingest::run::from_files`]): the waves built from the files' own words,
/// ingested in one transaction. `display_names` maps seat ids to names shown for them.
/// Returns the waves added, in order.
#[pyfunction]
#[pyo3(signature = (db, format, paths, *, wave=None, manifest=None, suite=None,
    suite_problems=None, started_at=None, model=None, provider=None, harness=None,
    allow_model_mismatch=false, display_names=Vec::new(), wait=600.0))]
#[allow(clippy::too_many_arguments)]
fn ingest_from(
    py: Python<'_>,
    db: String,
    format: String,
    paths: Vec<PathBuf>,
    wave: Option<String>,
    manifest: Option<PathBuf>,
    suite: Option<String>,
    suite_problems: Option<u64>,
    started_at: Option<String>,
    model: Option<String>,
    provider: Option<String>,
    harness: Option<String>,
    allow_model_mismatch: bool,
    display_names: Vec<(String, String)>,
    wait: f64,
) -> PyResult<Vec<String>> {
    use benchledger_core::ingest::{from, run};
    let options = from::FromOptions {
        wave,
        manifest,
        suite,
        suite_problems,
        started_at,
        model,
        provider,
        harness,
        model_mismatch_allowed: allow_model_mismatch,
        display_names,
        ..Default::default()
    };
    interruptible(py, move |cancel| {
        // The manifests are built, and checked, before the ledger is opened: bad input is
        // named first.
        let plan = run::plan_from_files(&format, &paths, &options)?;
        let built = plan.manifests;
        let paths: Vec<PathBuf> = built.iter().map(|b| b.path.clone()).collect();
        let (ledger, now) = open_write(&db, wait, cancel)
            .map_err(|e| run::first_input_error(&paths, &built).unwrap_or(e))?;
        run::built(
            &ledger,
            &built,
            Vec::new(),
            &now,
            &mut benchledger_core::import::Quiet,
        )
        .map(|report| report.added())
    })?
    .map_err(|e| Failure(Box::new(e), Vec::new()).raise(py))
}

/// How long the calling thread waits for a call's work, without the GIL, before it asks Python
/// whether a signal came: the longest a Ctrl-C waits to be heard.
const SLICE: Duration = Duration::from_millis(50);

/// The stack of the thread a call's work runs on: a main thread's on Linux, where the work ran
/// before it had a thread of its own (a spawned thread's default is 2 MiB).
const WORKER_STACK: usize = 8 << 20;

/// Runs `work` on a thread of its own, handing it the call's [`Cancel`] token, while this
/// thread waits for it without the GIL in slices of [`SLICE`] and runs Python's signal handlers
/// between them (`PyErr_CheckSignals`, which does so only on the main thread). When a handler
/// raises (Ctrl-C's `KeyboardInterrupt`), the token is set, the work is waited for (the library
/// stops it at its next check, rolled back, with `Error::Interrupted`) and its result dropped,
/// and the handler's exception is returned. Work that committed before the token was set stays
/// committed; the exception is raised all the same, as it would be had Ctrl-C come a moment
/// after the call returned. A panic in the work is resumed here, as were it this thread's.
fn interruptible<T: Send>(py: Python<'_>, work: impl FnOnce(Cancel) -> T + Send) -> PyResult<T> {
    let cancel = Cancel::new();
    let token = cancel.clone();
    std::thread::scope(|scope| {
        let (done, mut rx) = mpsc::channel();
        let worker = std::thread::Builder::new()
            .name("benchledger".into())
            .stack_size(WORKER_STACK)
            .spawn_scoped(scope, move || {
                // The receiver is gone only if this thread panicked: nothing waits for it.
                let _ = done.send(work(token));
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
        loop {
            let got;
            (rx, got) = receive(py, rx, Some(SLICE));
            match got {
                Ok(result) => return Ok(result),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if let Err(raised) = py.check_signals() {
                cancel.cancel();
                // Dropped: an `Interrupted` that wrote nothing, or work that committed first.
                let _ = receive(py, rx, None);
                let _ = worker.join();
                return Err(raised);
            }
        }
        // The work sent nothing: it panicked.
        match worker.join() {
            Err(panic) => std::panic::resume_unwind(panic),
            Ok(()) => Err(PyRuntimeError::new_err(
                "the call's work ended without a result",
            )),
        }
    })
}

/// Waits up to `timeout` (for ever when `None`) for the work's result, without the GIL. The
/// receiver goes to the wait and comes back: it cannot be shared (it is not `Sync`), and only
/// what is `Send` may go where the GIL is released.
fn receive<T: Send>(
    py: Python<'_>,
    rx: mpsc::Receiver<T>,
    timeout: Option<Duration>,
) -> (mpsc::Receiver<T>, Result<T, mpsc::RecvTimeoutError>) {
    py.detach(move || {
        let got = match timeout {
            Some(t) => rx.recv_timeout(t),
            None => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
        };
        (rx, got)
    })
}

/// The commands' context for a library call on the ledger `db`, its output discarded: a write
/// waits up to `wait` for another writer; the ledger stops its work once `cancel` is set.
fn quiet_ctx<'o>(
    out: &'o mut std::io::Sink,
    db: &str,
    wait: std::time::Duration,
    cancel: Cancel,
) -> Result<commands::Ctx<'o>, Error> {
    let s = quiet_surroundings(cancel)?;
    Ok(commands::Ctx {
        out,
        db_flag: Some(PathBuf::from(db)),
        now: s.now,
        interactive: false,
        stderr_terminal: false,
        db_env: None,
        wait,
        layout: benchledger::terminal::Layout::full(),
        outcome: commands::Outcome::default(),
        cancel: s.cancel,
    })
}

/// Opens the ledger at `db` to read, as the commands do (refusing what is not a regular file),
/// and hands it to `f`; the ledger stops its work once `cancel` is set.
fn with_ledger<T>(
    db: &str,
    cancel: Cancel,
    f: impl FnOnce(&benchledger_core::ledger::Ledger) -> Result<T, Error>,
) -> Result<T, Error> {
    let mut sink = std::io::sink();
    let ctx = quiet_ctx(&mut sink, db, std::time::Duration::from_secs(600), cancel)?;
    f(&ctx.open()?)
}

/// Opens the ledger at `db` to write, as the commands do (a write waits up to `wait` seconds
/// for another writer, and stops once `cancel` is set); returns it with "now".
fn open_write(
    db: &str,
    wait: f64,
    cancel: Cancel,
) -> Result<(benchledger_core::ledger::Ledger, String), Error> {
    let mut sink = std::io::sink();
    let ctx = quiet_ctx(&mut sink, db, wait_for(wait)?, cancel)?;
    let ledger = ctx.open_write()?;
    Ok((ledger, ctx.now.clone()))
}

/// `wait` seconds, as the time a call waits for another writer; an error unless it is a
/// number of seconds, 0 or more.
fn wait_for(wait: f64) -> Result<std::time::Duration, Error> {
    if !(wait.is_finite() && wait >= 0.0) {
        return Err(Error::Usage(format!(
            "wait={wait}: give the seconds a write waits for another writer, 0 or more"
        )));
    }
    Ok(std::time::Duration::from_secs_f64(wait))
}

/// A command's surroundings in a library call: no terminal (no progress bars, full-width
/// output), the ledger always named, "now" from the clock or $BENCHLEDGER_NOW, and the call's
/// `cancel` token.
fn quiet_surroundings(cancel: Cancel) -> Result<Surroundings, Error> {
    Ok(Surroundings {
        now: commands::now()?,
        db_env: None,
        interactive: false,
        stderr_terminal: false,
        width: None,
        cancel,
    })
}

/// The Python package as a face of the library: an argument as a keyword argument
/// (`alpha=1.5`), what to do next in its own words where it has its own call for it (the
/// command line's words otherwise: its commands ship with the package as `benchledger`).
struct PythonFace;

impl benchledger::advice::Face for PythonFace {
    fn argument(&self, a: &benchledger_core::error::Argument) -> String {
        match (a.name, a.value.and_then(|v| v.split_once('='))) {
            // The command line's `--display-name SEAT=NAME` is one entry of the mapping
            // `display_names`.
            ("display_name", Some((seat, name))) => {
                format!("display_names={{{seat:?}: {name:?}}}")
            }
            _ => format!("{}={}", a.name, a.value.unwrap_or("True")),
        }
    }

    fn hint(&self, hint: &benchledger_core::error::Hint) -> Option<String> {
        python_says(hint)
    }
}

/// What to do next, in the Python package's words where it has its own call for it.
fn python_says(hint: &benchledger_core::error::Hint) -> Option<String> {
    use benchledger_core::error::Hint;
    let option = |o: &str| format!("{o}=");
    Some(match hint {
        Hint::AlsoGive(name) => format!("; give {} too", option(name)),
        Hint::RegisterAndRescore { file, id } => format!(
            ". Register it with `benchledger rubric add {file}`, then \
             `Ledger.rescore(rubric={id:?})`"
        ),
        Hint::CheckSeatOrRescore(id) => format!(
            "; check the seat's id with `Ledger.show(wave)`, or store scores with \
             `Ledger.rescore(rubric={id:?})`"
        ),
        Hint::IncludeWithdrawn => {
            ". Pass include_withdrawn=True to show it anyway (marked as withdrawn)".into()
        }
        Hint::CompareTwo(seat) => {
            format!("; e.g. `Ledger.compare({seat:?}, [\"WAVE-1\", \"WAVE-2\"])`")
        }
        Hint::CreateLedger(path) => format!(
            ": create one with `benchledger.Ledger.create({:?})`, or open an existing ledger",
            path.display().to_string()
        ),
        Hint::InitLedger(path) => format!(
            ": create one with `benchledger.Ledger.create({:?})`",
            path.display().to_string()
        ),
        Hint::CreateDatabase(path) => format!(
            ": create the database first (`createdb`), then `benchledger.Ledger.create({:?})`",
            path.display().to_string()
        ),
        Hint::Withdraw => ": withdraw a wave by hand with `Ledger.withdraw(wave, reason)`".into(),
        Hint::ListWaves => " (see `Ledger.waves()`)".into(),
        Hint::VerifyAll | Hint::CheckWithWriter => {
            ". Check the ledger with `Ledger.verify()`".into()
        }
        Hint::NameLedgerFile => ": open the ledger file itself, `benchledger.Ledger(PATH)`".into(),
        Hint::AddWave => "; add one with `Ledger.ingest(manifest)`".into(),
        Hint::ListPublications => "; list them with `Ledger.publications()`".into(),
        Hint::WaitLonger => ". Call again when the other writer is done, or give more seconds \
                              to wait (`benchledger.Ledger(db, wait=SECONDS)`)"
            .into(),
        Hint::UpgradeElsewhere => ". Open it once where it can be written \
                                   (`benchledger.Ledger.create(PATH)` upgrades it), or read it \
                                   with the benchledger that wrote it"
            .into(),
        Hint::VerifyLedger => "; `Ledger.verify()` names what changed".into(),
        Hint::UseFormat(format) => {
            format!("; this looks like {format}: use `Ledger.ingest_from({format:?}, ...)`")
        }
        Hint::Give(o) => format!(
            "; give it as {} (or in the wave manifest given as manifest=)",
            option(o)
        ),
        Hint::GiveAll(options) => format!(
            "; give them as {} (or in the wave manifest given as manifest=)",
            options
                .iter()
                .map(|o| option(o))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => return None,
    })
}

/// Why a call failed, before it becomes a Python exception: the library's error, and what the
/// call had to show before it (a failed check's document).
struct Failure(Box<Error>, Vec<u8>);

impl Failure {
    /// The exception of `benchledger.errors` for this failure: `CheckFailed` (exit status 1),
    /// `Unavailable` (3) or `BadInput` (2), its message the command line's, with `exit_code`
    /// and the `output` printed before the failure.
    fn raise(self, py: Python<'_>) -> PyErr {
        // Only a call whose token was set stops so, and it raises the signal handler's own
        // exception instead ([`interruptible`]); should one ever come here, it is Ctrl-C's.
        let Failure(e, output) = self;
        if matches!(*e, Error::Interrupted) {
            return PyKeyboardInterrupt::new_err(e.to_string());
        }
        let (code, message) = (
            e.exit_code(),
            benchledger::advice::message_in(&e, &PythonFace),
        );
        let class = match code {
            1 => "CheckFailed",
            3 => "Unavailable",
            _ => "BadInput",
        };
        let made = (|| -> PyResult<PyErr> {
            let errors = py.import("benchledger.errors")?;
            let kwargs = PyDict::new(py);
            kwargs.set_item("exit_code", code)?;
            kwargs.set_item("output", String::from_utf8_lossy(&output))?;
            let value = errors.getattr(class)?.call((message,), Some(&kwargs))?;
            Ok(PyErr::from_value(value))
        })();
        made.unwrap_or_else(|e| e)
    }
}

/// The module `benchledger._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(main, m)?)?;
    m.add_function(wrap_pyfunction!(open, m)?)?;
    m.add_function(wrap_pyfunction!(init, m)?)?;
    m.add_function(wrap_pyfunction!(table, m)?)?;
    m.add_function(wrap_pyfunction!(review, m)?)?;
    m.add_function(wrap_pyfunction!(ingest, m)?)?;
    m.add_function(wrap_pyfunction!(waves, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(ingest_from, m)?)?;
    m.add_function(wrap_pyfunction!(withdraw, m)?)?;
    m.add_function(wrap_pyfunction!(claims_from, m)?)?;
    m.add_function(wrap_pyfunction!(bundle, m)?)?;
    m.add_function(wrap_pyfunction!(copy, m)?)?;
    m.add_function(wrap_pyfunction!(site, m)?)?;
    m.add_function(wrap_pyfunction!(verify_bundle, m)?)?;
    m.add_function(wrap_pyfunction!(rescore, m)?)?;
    m.add_function(wrap_pyfunction!(publish, m)?)?;
    m.add_function(wrap_pyfunction!(export, m)?)?;
    for f in [
        wrap_pyfunction!(show, m)?,
        wrap_pyfunction!(score, m)?,
        wrap_pyfunction!(trials, m)?,
        wrap_pyfunction!(versus, m)?,
        wrap_pyfunction!(versus_all, m)?,
        wrap_pyfunction!(problems, m)?,
        wrap_pyfunction!(plan, m)?,
        wrap_pyfunction!(diff, m)?,
        wrap_pyfunction!(compare, m)?,
        wrap_pyfunction!(history, m)?,
        wrap_pyfunction!(publications, m)?,
        wrap_pyfunction!(rules, m)?,
        wrap_pyfunction!(claims_check, m)?,
    ] {
        m.add_function(f)?;
    }
    m.add_class::<arrow::Table>()?;
    Ok(())
}
