"""The compiled half of benchledger (crates/python): the command line and the library, run in
this process. Call it through :mod:`benchledger`."""

from typing import Any, Optional

def main(argv: list[str]) -> int:
    """Runs the command line (``argv[0]`` the program's name) and returns its exit status."""

def publish(
    db: str,
    wave: str,
    rubric: str,
    *,
    title: Optional[str] = None,
    prices: Optional[str] = None,
    ci_level: Optional[float] = None,
    resamples: Optional[int] = None,
    seed: Optional[int] = None,
    claims: Optional[str] = None,
    sign: Optional[str] = None,
    bundle: Optional[str] = None,
    wait: float = 600.0,
) -> tuple[int, str, Optional[str], str, str, str, Optional[str], str]:
    """Publishes by the library's operation (no command line parsed): id, record sha256, the
    record it is chained to, output and input sha256, the chain's head, the signing key's id,
    the published text."""

def export(
    db: str,
    format: str,
    *,
    out: Optional[str] = None,
    what: Optional[str] = None,
    waves: list[str] = ...,
    rubric: Optional[str] = None,
    include_withdrawn: bool = False,
    header: bool = True,
    hf_datasets: list[str] = ...,
    source_url: Optional[str] = None,
) -> tuple[Optional[str], list[tuple[str, int]]]:
    """``export`` by the library's operations (no command line parsed): the text of csv and
    jsonl, or what parquet, eee and hf-eval-results wrote into ``out``."""

def init(db: str) -> None:
    """Creates a ledger at ``db``, or checks that the one there is up to date (``init``)."""

def open(db: str) -> None:
    """Checks that the ledger ``db`` opens to read."""

def table(
    db: str, what: str, waves: Optional[list[str]] = None, include_withdrawn: bool = False
) -> Table:
    """The rows of ``export --what attempts|seats`` as an Arrow stream. Ctrl-C (on the main
    thread) stops the reading and raises ``KeyboardInterrupt``."""

def review(
    db: str,
    paths: list[str],
    rules: str,
    *,
    from_: Optional[str] = None,
    claims: Optional[str] = None,
    against: Optional[str] = None,
    prices: Optional[str] = None,
    wave: Optional[str] = None,
    manifest: Optional[str] = None,
    suite: Optional[str] = None,
    suite_problems: Optional[int] = None,
    started_at: Optional[str] = None,
    model: Optional[str] = None,
    provider: Optional[str] = None,
    harness: Optional[str] = None,
    ingest: bool = False,
    wait: float = 600.0,
) -> str:
    """A submission reviewed under ``rules`` by the library's operation (no command line is
    parsed): the review's JSON document. Reads the ledger ``db`` when it is there or needed;
    writes only with ``ingest``, an accepted submission's waves with their review. A verdict
    other than ``accept`` raises :class:`benchledger.CheckFailed` with the document as its
    output, and ingests nothing."""

def waves(db: str) -> str:
    """The ``waves --format json`` document, built by the library (no command line parsed)."""

# Each reading command's JSON document, built by the library (``benchledger_core::documents``)
# with no command line parsed. ``ci_level`` is the interval level in percent (``None``: no
# interval); ``resamples`` and ``seed`` are given only when asked for.

def show(
    db: str,
    wave: str,
    *,
    ci_level: Optional[float] = None,
    resamples: Optional[int] = None,
    seed: Optional[int] = None,
    prices: Optional[str] = None,
    reprice: bool = False,
) -> str:
    """``show --format json``."""

def score(
    db: str,
    wave: str,
    rubric: str,
    *,
    ci_level: Optional[float] = None,
    resamples: Optional[int] = None,
    seed: Optional[int] = None,
    prices: Optional[str] = None,
    reprice: bool = False,
    include_withdrawn: bool = False,
) -> str:
    """``score --format json``."""

def trials(db: str, wave: str, k: list[int] = ...) -> str:
    """``trials --format json`` (``k`` empty: the default)."""

def versus(
    db: str,
    wave: str,
    a: str,
    b: str,
    *,
    ci_level: Optional[float] = None,
    resamples: Optional[int] = None,
    seed: Optional[int] = None,
) -> str:
    """``versus --format json`` of two seats."""

def versus_all(db: str, wave: str, alpha: float) -> str:
    """``versus --all --format json``."""

def problems(
    db: str,
    wave: str,
    *,
    against: Optional[str] = None,
    problem: Optional[str] = None,
    seats: list[str] = ...,
    include_withdrawn: bool = False,
) -> str:
    """``problems --format json``: the matrix, the regressions since ``against``, or the
    sample of ``problem``."""

def plan(
    db: str,
    wave: str,
    seat: str,
    vs: str,
    *,
    delta: Optional[float] = None,
    alpha: float = 0.05,
    power: float = 0.8,
) -> str:
    """``plan --format json``."""

def diff(
    db: str, old: str, new: str, *, waves: list[str] = ..., include_withdrawn: bool = False
) -> str:
    """``diff --format json``."""

def compare(
    db: str,
    seat: str,
    waves: list[str],
    *,
    rubrics: list[str] = ...,
    include_withdrawn: bool = False,
) -> str:
    """``compare --format json``."""

def history(
    db: str,
    rubric: str,
    *,
    seat: Optional[str] = None,
    waves: list[str] = ...,
    include_withdrawn: bool = False,
) -> str:
    """``history --format json``."""

def publications(db: str) -> str:
    """``publications --format json``."""

def rules(db: str) -> str:
    """``rules list --format json``."""

def claims_check(db: str, paths: list[str]) -> str:
    """``claims check --format json``; a claim that differs raises
    :class:`benchledger.CheckFailed` with the document as its output."""

def verify(db: str, trusted_key: Optional[str] = None, wait: float = 600.0) -> str:
    """``verify --all --ledger --format json`` by the library's operation (no command line is
    parsed, so ``trusted_key``, a public key file, is only ever a path): the JSON document. A
    check that fails raises :class:`benchledger.CheckFailed` with the document as its output."""

def ingest(db: str, manifests: list[str], wait: float = 600.0) -> list[str]:
    """Ingests wave manifests in one transaction by the library's operation (no command line
    is parsed); returns the waves added."""

def withdraw(
    db: str, wave: str, reason: str, wait: float = 600.0
) -> tuple[str, str, str, str, Optional[str], str]:
    """Withdraws a wave by the library's operation (no command line parsed): wave, reason,
    created at, record sha256, the record it is chained to, the chain's head."""

def site(
    db: str,
    out: str,
    *,
    rubric: Optional[str] = None,
    intervals: bool = True,
    prices: Optional[str] = None,
    reprice: bool = False,
    problem_pages: Optional[int] = None,
    artifacts: Optional[str] = None,
    config: Optional[str] = None,
) -> tuple[int, int]:
    """Writes the static site by the library's operations; pages written and their bytes."""

def copy(db: str, to: str, wait: float = 600.0) -> list[tuple[str, int]]:
    """Copies a whole ledger into a new one by the library's operation; rows per table."""

def bundle(db: str, id: int, out: str) -> None:
    """Writes a publication's reproduction bundle by the library's operation."""

def verify_bundle(dir: str, trusted_key: Optional[str] = None) -> str:
    """The ``verify --bundle DIR --format json`` document, by the library's operation."""

def claims_from(
    format: str,
    path: str,
    *,
    wave: Optional[str] = None,
    seat: Optional[str] = None,
    wave_prefix: Optional[str] = None,
    task: Optional[str] = None,
    metric: Optional[str] = None,
    evaluation: Optional[str] = None,
    out: Optional[str] = None,
) -> str:
    """A claims file's text made by the library from a source's files (no ledger, no command
    line); with ``out``, written there, a new file."""
def rescore(
    db: str,
    rubric: Optional[str] = None,
    all: bool = False,
    waves: list[str] = ...,
    include_withdrawn: bool = False,
    wait: float = 600.0,
) -> tuple[list[str], list[str], list[tuple[str, str, int, int, bool]]]:
    """``rescore --rubric RUBRIC`` or ``rescore --all`` by the library's operation (no command
    line parsed, so a rubric is only ever a file or a NAME@VERSION): the waves rescored, the
    withdrawn waves left out, and per rubric its id, sha256, seats stored, seats without a
    score, and whether ``rubric check`` rejects it."""

def ingest_from(
    db: str,
    format: str,
    paths: list[str],
    *,
    wave: Optional[str] = None,
    manifest: Optional[str] = None,
    suite: Optional[str] = None,
    suite_problems: Optional[int] = None,
    started_at: Optional[str] = None,
    model: Optional[str] = None,
    provider: Optional[str] = None,
    harness: Optional[str] = None,
    allow_model_mismatch: bool = False,
    display_names: list[tuple[str, str]] = ...,
    wait: float = 600.0,
) -> list[str]:
    """``ingest --from`` by the library's operation: waves built from a harness's files,
    ingested in one transaction; returns the waves added."""

class Table:
    """An export's rows, read by ``pyarrow.table(t)`` through ``__arrow_c_stream__``."""

    def __arrow_c_stream__(self, requested_schema: Optional[Any] = None) -> Any: ...
    def __len__(self) -> int: ...
