"""The compiled half of benchledger (crates/python): the command line and the library, run in
this process. Call it through :mod:`benchledger`."""

from typing import Any, Optional

def main(argv: list[str]) -> int:
    """Runs the command line (``argv[0]`` the program's name) and returns its exit status."""

def run(db: Optional[str], args: list[str]) -> tuple[str, list[str]]:
    """Runs one command against the ledger ``db`` with its output captured: returns the output
    and the waves it added. Raises :class:`benchledger.Error`'s subclass for its exit status.
    Ctrl-C (on the main thread) stops the command before it commits and raises
    ``KeyboardInterrupt``: the ledger is as it was."""

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
