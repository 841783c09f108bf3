"""benchledger for Python: a ledger of AI-agent benchmark waves, read and fed from a notebook.

>>> import benchledger
>>> with benchledger.Ledger("benchledger.db") as ledger:
...     df = ledger.attempts().to_pandas()

Every document a method returns is the one its command prints with ``--format json``, built
by the same code in this process (no ``benchledger`` binary is called); ``attempts()`` and
``seats()`` are the rows of ``export --what attempts|seats`` as Arrow tables, typed and handed
over without copying. Errors raise :class:`BadInput`, :class:`CheckFailed` or
:class:`Unavailable` (all :class:`Error`) with the command line's messages. Long work releases
the GIL. Ctrl-C stops a call: ``KeyboardInterrupt`` is raised and what the call was writing is
rolled back, so an interrupted ``ingest`` adds no wave. docs/python.md has the whole API, what
Ctrl-C does, and the Inspect AI hook.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Optional, Sequence, Union

from benchledger import _native
from benchledger.errors import BadInput, CheckFailed, Error, Unavailable

if TYPE_CHECKING:
    import pyarrow

__all__ = [
    "Ledger",
    "claims_from",
    "verify_bundle",
    "Error",
    "BadInput",
    "CheckFailed",
    "Unavailable",
    "__version__",
]

try:
    from importlib.metadata import PackageNotFoundError, version as _version

    __version__: str = _version("benchledger")
except PackageNotFoundError:  # run from a source tree without the package installed
    __version__ = "0+unknown"

Path = Union[str, "os.PathLike[str]"]

# The interval settings' defaults, as the command line has them.
_RESAMPLES = 2000
_SEED = 0


def _paths(paths: Union[Path, Iterable[Path]]) -> list[str]:
    if isinstance(paths, (str, os.PathLike)):
        return [os.fspath(paths)]
    return [os.fspath(p) for p in paths]


def _intervals(ci: Union[bool, float], resamples: int, seed: int) -> dict[str, Any]:
    """The intervals asked for, as the library takes them (the command line's --ci,
    --resamples and --seed): ``ci`` ``True`` for 95%, or a level in percent. Resamples and
    seed other than the defaults without an interval are refused, as the command line refuses
    them."""
    level: Optional[float] = None
    if ci is True:
        level = 95.0
    elif ci is not False and ci is not None:
        level = float(ci)
    return {
        "ci_level": level,
        "resamples": int(resamples) if ci or resamples != _RESAMPLES else None,
        "seed": int(seed) if ci or seed != _SEED else None,
    }


class Ledger:
    """A benchledger ledger: an SQLite file, or a database on a PostgreSQL server
    (``postgresql://USER@HOST/DATABASE``).

    Opening checks that the ledger is there and readable (:class:`BadInput` otherwise, saying
    how to create one). Each call then opens the ledger for its own duration, as each command
    does, so a ``Ledger`` holds no connection between calls and may be shared between threads.
    It is a context manager; :meth:`close` only marks it closed.
    """

    def __init__(self, db: Path, wait: int = 600) -> None:
        """Opens the ledger at ``db`` (a path, or a ``postgresql://`` URL). ``wait``: how many
        seconds a write waits for another writer to finish with the ledger before raising
        :class:`Unavailable` (the command line's ``--wait``)."""
        self._db = os.fspath(db)
        self._wait = int(wait)
        self._closed = False
        _native.open(self._db)

    @classmethod
    def create(cls, db: Path, wait: int = 600) -> "Ledger":
        """Creates a new ledger at ``db`` (``benchledger init``) and returns it. An existing,
        up-to-date ledger is opened as it is; one whose schema differs raises
        :class:`CheckFailed`."""
        _native.init(os.fspath(db))
        return cls(db, wait)

    @property
    def db(self) -> str:
        """Where the ledger is: the path or URL it was opened with."""
        return self._db

    def close(self) -> None:
        """Marks the ledger closed: later calls raise ``ValueError``. (No connection is held
        between calls, so there is nothing else to release.)"""
        self._closed = True

    def __enter__(self) -> "Ledger":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Ledger({self._db!r})"

    def _check_open(self) -> None:
        if self._closed:
            raise ValueError(f"ledger {self._db} is closed")

    def _read(self, name: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """The JSON document the library builds for ``_native.<name>`` (no command line)."""
        self._check_open()
        document: dict[str, Any] = json.loads(getattr(_native, name)(self._db, *args, **kwargs))
        return document

    # Feeding the ledger.

    def ingest(self, manifest: Union[Path, Iterable[Path]]) -> list[str]:
        """Ingests one wave manifest (TOML), or several, in one transaction
        (``benchledger ingest``): every new wave lands, or none does. Returns the ids of the
        waves added, in order; a wave already in the ledger with the same content is not
        among them. Bad input raises :class:`BadInput` naming file, line and field, the
        ledger unchanged."""
        self._check_open()
        added: list[str] = _native.ingest(self._db, _paths(manifest), wait=self._wait)
        return added

    def ingest_from(
        self,
        format: str,
        paths: Union[Path, Iterable[Path]],
        wave: Optional[str] = None,
        manifest: Optional[Path] = None,
        *,
        suite: Optional[str] = None,
        suite_problems: Optional[int] = None,
        started_at: Optional[str] = None,
        model: Optional[str] = None,
        harness: Optional[str] = None,
        provider: Optional[str] = None,
        allow_model_mismatch: bool = False,
        display_names: Optional[Mapping[str, str]] = None,
    ) -> list[str]:
        """Ingests results files of a harness's own format as waves built from what they say
        (``benchledger ingest --from FORMAT``): one wave per suite, one seat per model.
        ``format`` is any format of docs/importers.md (``"inspect"``, ``"harbor"``,
        ``"lm-eval"``, ``"helm"``, ``"eee"``, ``"terminal-bench"``, ...), ``paths`` the files or
        directories of them, ``wave`` the wave's id (default: the suite and the date of the
        earliest file; with several waves, their ids' prefix), ``manifest`` a wave manifest
        without seats for what the files cannot say. The keyword arguments are the command
        line's ``--suite``, ``--suite-problems``, ``--started-at``, ``--model``, ``--harness``,
        ``--provider`` and ``--model-mismatch=allow``, for what the files do not name;
        ``display_names`` maps seat ids to the names shown for them (``--display-name
        SEAT=NAME``, each). A field
        no file, flag or manifest gives raises :class:`BadInput` naming it. Returns the ids of
        the waves added."""
        if display_names is not None and not isinstance(display_names, Mapping):
            raise BadInput(
                f"display_names={display_names!r}: give a mapping of seat ids to the names "
                "shown for them, such as {\"xai-react\": \"Grok 4\"}"
            )
        names = []
        for seat, name in sorted((display_names or {}).items()):
            if not str(seat).strip() or not str(name).strip():
                raise BadInput(
                    f"display_names: {seat!r}: {name!r}: give each seat's id and the name to "
                    "show it by, neither empty"
                )
            names.append((str(seat).strip(), str(name).strip()))
        self._check_open()
        added: list[str] = _native.ingest_from(
            self._db,
            format,
            _paths(paths),
            wave=wave,
            manifest=None if manifest is None else os.fspath(manifest),
            suite=suite,
            suite_problems=None if suite_problems is None else int(suite_problems),
            started_at=started_at,
            model=model,
            provider=provider,
            harness=harness,
            allow_model_mismatch=allow_model_mismatch,
            display_names=names,
            wait=self._wait,
        )
        return added

    # Documents, each as its command prints it with --format json.

    def site(
        self,
        out: Path,
        *,
        rubric: Optional[str] = None,
        intervals: bool = True,
        prices: Optional[str] = None,
        reprice: bool = False,
        problem_pages: Optional[int] = None,
        attempt_pages: Union[int, str, None] = None,
        artifacts: Optional[str] = None,
        config: Optional[Path] = None,
    ) -> dict[str, int]:
        """Writes the static site into ``out`` (``benchledger site --out DIR``): a new or
        empty directory, or one an earlier site was written into (only that site's files are
        replaced; nothing is written through a link). ``rubric`` (NAME@VERSION) ranks the front
        page; ``intervals`` draws intervals, rank ranges and tie groups with their defaults
        (``--no-ci`` when false); ``prices`` and ``reprice`` fill costs from a registered price
        table; ``problem_pages``, ``attempt_pages`` (a number of attempts, or ``"all"``),
        ``artifacts`` and ``config`` (a ``site.toml``) are the command's ``--problem-pages``,
        ``--attempt-pages``, ``--artifacts`` and ``--config``. The pages are the command's, byte
        for byte. Returns ``pages`` written and the ``bytes`` they hold."""
        self._check_open()
        pages, size = _native.site(
            self._db,
            os.fspath(out),
            rubric=rubric,
            intervals=intervals,
            prices=prices,
            reprice=reprice,
            problem_pages=problem_pages,
            attempt_pages=None if attempt_pages is None else str(attempt_pages),
            artifacts=artifacts,
            config=None if config is None else os.fspath(config),
        )
        return {"pages": pages, "bytes": size}

    def copy(self, to: Union[str, Path]) -> dict[str, int]:
        """Copies this whole ledger into a new one at ``to``, an SQLite file or a PostgreSQL
        database (``benchledger copy --from DB --to DEST``): every row as it is, so every hash
        and publication verifies there as here; the copy gets the whole ledger or nothing.
        Returns how many rows of each table went over. A destination that holds a ledger
        already raises :class:`BadInput`."""
        self._check_open()
        copied: list[tuple[str, int]] = _native.copy(self._db, os.fspath(to), wait=self._wait)
        return dict(copied)

    def bundle(self, publication: int, out: Path) -> None:
        """Writes publication ``publication``'s reproduction bundle into ``out``, a new or
        empty directory (``benchledger bundle ID --out DIR``): a small ledger holding only what
        it was made from, its texts and a README, which :func:`verify_bundle` (or ``benchledger
        verify --bundle``) checks on any machine. Nothing is written when it cannot be: a
        directory that is not empty, or a link, raises :class:`BadInput`."""
        self._check_open()
        _native.bundle(self._db, int(publication), os.fspath(out))

    def withdraw(self, wave: str, reason: str) -> dict[str, Any]:
        """Takes ``wave`` off the leaderboards for ``reason`` (``benchledger withdraw``): a
        withdrawal appended to the chain, nothing deleted or changed; score, rescore, history,
        diff and compare leave the wave out from then on, and its publications still verify.
        Returns the withdrawal: ``wave``, ``reason``, ``created_at``, its record's ``sha256``,
        ``prev_sha256`` (the record it is chained to; ``None`` for the first) and ``head``, the
        chain's head after it, to keep outside the ledger for :meth:`verify`. An empty reason,
        an unknown wave or one already withdrawn raises :class:`BadInput`, the ledger
        unchanged."""
        self._check_open()
        wave_id, why, created_at, sha256, prev, head = _native.withdraw(
            self._db, wave, reason, wait=self._wait
        )
        return {
            "wave": wave_id,
            "reason": why,
            "created_at": created_at,
            "sha256": sha256,
            "prev_sha256": prev,
            "head": head,
        }

    def publish(
        self,
        wave: str,
        rubric: str,
        *,
        title: Optional[str] = None,
        prices: Optional[str] = None,
        ci: Union[bool, float] = False,
        resamples: int = _RESAMPLES,
        seed: int = _SEED,
        claims: Optional[Path] = None,
        sign: Optional[Path] = None,
        bundle: Optional[Path] = None,
    ) -> dict[str, Any]:
        """Freezes ``wave``'s leaderboard under the registered ``rubric`` (``NAME@VERSION``)
        into the chain (``benchledger publish``): its text, the input it was rendered from and a
        record chained to the one before, in one transaction. ``title`` defaults to "WAVE under
        RUBRIC"; ``prices`` fills in missing costs from a registered price table; ``ci`` draws
        intervals into the text (as :meth:`show`); ``claims`` carries a claims file about this
        wave and rubric; ``sign`` signs it with a private key file (``benchledger keygen``);
        ``bundle`` writes its reproduction bundle into that new or empty directory, checked
        before anything is published. Returns the publication: ``id``, ``sha256`` (its
        record), ``prev_sha256``, ``output_sha256``, ``input_sha256``, ``head`` (the chain's
        head after it, to keep outside the ledger for :meth:`verify`), ``signed_by`` (the key's
        id, or ``None``) and ``text``, the published text. An unregistered rubric, an unknown or
        withdrawn wave, or a title with control characters raises :class:`BadInput`, nothing
        published."""
        self._check_open()
        pid, sha256, prev, output_sha256, input_sha256, head, signed_by, text = _native.publish(
            self._db,
            wave,
            os.fspath(rubric),
            title=title,
            prices=prices,
            claims=None if claims is None else os.fspath(claims),
            sign=None if sign is None else os.fspath(sign),
            bundle=None if bundle is None else os.fspath(bundle),
            wait=self._wait,
            **_intervals(ci, resamples, seed),
        )
        return {
            "id": pid,
            "sha256": sha256,
            "prev_sha256": prev,
            "output_sha256": output_sha256,
            "input_sha256": input_sha256,
            "head": head,
            "signed_by": signed_by,
            "text": text,
        }

    def rescore(
        self,
        rubric: Optional[Union[str, Path]] = None,
        all: bool = False,
        waves: Optional[Iterable[str]] = None,
        include_withdrawn: bool = False,
    ) -> dict[str, Any]:
        """Scores the waves (every wave not withdrawn when ``None``; withdrawn ones too with
        ``include_withdrawn``) under ``rubric`` (a registered NAME@VERSION, or its file, always
        read as a rubric and never as an option), or with ``all`` under every registered
        rubric in one read of the ledger, and stores the scores (``benchledger rescore``);
        attempts are untouched. ``benchledger rescore`` has no JSON format, so this returns
        what it did: ``waves`` rescored, ``left_out`` (the withdrawn waves left out), and
        ``rubrics``, one entry per rubric with its ``id``, ``sha256``, ``seats`` stored,
        ``undefined`` (seats without a score) and ``scale_violation``. A rubric not registered,
        or neither or both of ``rubric`` and ``all``, raises :class:`BadInput`."""
        self._check_open()
        named = None if rubric is None else os.fspath(rubric)
        done, left_out, rubrics = _native.rescore(
            self._db,
            named,
            all=all,
            waves=list(waves or []),
            include_withdrawn=include_withdrawn,
            wait=self._wait,
        )
        return {
            "waves": done,
            "left_out": left_out,
            "rubrics": [
                {
                    "id": id_,
                    "sha256": sha256,
                    "seats": seats,
                    "undefined": undefined,
                    "scale_violation": violation,
                }
                for id_, sha256, seats, undefined, violation in rubrics
            ],
        }

    def waves(self) -> dict[str, Any]:
        """Every wave with its conditions (``benchledger waves --format json``)."""
        self._check_open()
        document: dict[str, Any] = json.loads(_native.waves(self._db))
        return document

    def show(
        self,
        wave: str,
        ci: Union[bool, float] = False,
        resamples: int = _RESAMPLES,
        seed: int = _SEED,
        prices: Optional[str] = None,
        reprice: bool = False,
    ) -> dict[str, Any]:
        """A wave's absolute figures per seat (``benchledger show --format json``). ``ci``:
        ``True`` for 95% bootstrap intervals, or a level in percent; ``resamples`` and
        ``seed`` set how they are drawn. ``prices`` (``NAME@VERSION``) fills in missing costs
        from a registered price table; ``reprice`` prices every attempt from it."""
        return self._read(
            "show", wave, prices=prices, reprice=reprice, **_intervals(ci, resamples, seed)
        )

    def score(
        self,
        wave: str,
        rubric: Union[str, Path],
        ci: Union[bool, float] = False,
        resamples: int = _RESAMPLES,
        seed: int = _SEED,
        prices: Optional[str] = None,
        reprice: bool = False,
        include_withdrawn: bool = False,
    ) -> dict[str, Any]:
        """A wave's leaderboard under a rubric (``benchledger score --format json``):
        ``rubric`` is a registered ``NAME@VERSION`` or a rubric file's path. The other
        arguments are :meth:`show`'s; ``include_withdrawn`` shows a withdrawn wave, marked."""
        return self._read(
            "score",
            wave,
            os.fspath(rubric),
            prices=prices,
            reprice=reprice,
            include_withdrawn=include_withdrawn,
            **_intervals(ci, resamples, seed),
        )

    def trials(self, wave: str, k: Optional[Sequence[int]] = None) -> dict[str, Any]:
        """Repeated trials per seat: pass@k and pass^k (``benchledger trials --format
        json``); ``k`` the k to show (default: 1 up to the fewest trials of a problem)."""
        return self._read("trials", wave, [int(n) for n in (k or [])])

    def versus(
        self,
        wave: str,
        a: str,
        b: str,
        ci: float = 95.0,
        resamples: int = _RESAMPLES,
        seed: int = _SEED,
    ) -> dict[str, Any]:
        """Two seats of a wave, paired on the problems both attempted: the difference with
        its bootstrap interval (at ``ci`` percent), McNemar's exact test, and a verdict
        (``benchledger versus --format json``)."""
        return self._read("versus", wave, a, b, **_intervals(ci, resamples, seed))

    def versus_all(
        self,
        wave: str,
        alpha: Optional[float] = None,
        ci: float = 95.0,
        resamples: int = _RESAMPLES,
        seed: int = _SEED,
    ) -> dict[str, Any]:
        """Every pair of a wave's seats compared as :meth:`versus` compares two, with the groups
        the data cannot separate (``benchledger versus --all --format json``); ``alpha`` the
        family-wise error rate (the command line's default when ``None``)."""
        return self._read("versus_all", wave, 0.05 if alpha is None else float(alpha))

    def problems(
        self,
        wave: str,
        against: Optional[str] = None,
        *,
        regressions: bool = False,
        seats: Optional[Iterable[str]] = None,
        include_withdrawn: bool = False,
        problem: Optional[str] = None,
    ) -> dict[str, Any]:
        """A wave's problems by seat: each attempt's verdict, and the problems no seat or every
        seat solved (``benchledger problems --format json``); with ``against`` (an older wave)
        and ``regressions``, what each seat solved there and no longer does. ``seats`` keeps
        only those seats. With ``problem``, that problem's sample: every seat's attempts at it
        with the texts the log recorded (input, target, answer, the scorer's explanation;
        ``problems WAVE --problem ID``)."""
        if regressions != (against is not None):
            raise BadInput(
                "problems(): regressions=True compares two waves: give both (against= the "
                "earlier), or neither"
            )
        if problem is not None and against is not None:
            raise BadInput("problems(): a problem's sample is of one wave: give problem= or "
                           "against=, not both")
        return self._read(
            "problems",
            wave,
            against=against,
            problem=problem,
            seats=list(seats or []),
            include_withdrawn=include_withdrawn,
        )

    def plan(
        self,
        wave: str,
        seat: str,
        vs: str,
        delta: Optional[float] = None,
        alpha: float = 0.05,
        power: float = 0.8,
    ) -> dict[str, Any]:
        """How many problems and trials a rematch of two seats needs to tell a difference of
        ``delta`` apart at ``alpha`` with ``power`` (``benchledger plan --format json``)."""
        return self._read(
            "plan",
            wave,
            seat,
            vs,
            delta=None if delta is None else float(delta),
            alpha=float(alpha),
            power=float(power),
        )

    def diff(
        self,
        old: str,
        new: str,
        waves: Optional[Iterable[str]] = None,
        include_withdrawn: bool = False,
    ) -> dict[str, Any]:
        """Two rubrics' leaderboards over all of history (or ``waves``), seat by seat
        (``benchledger diff --format json``): what a rubric change moves."""
        return self._read(
            "diff", old, new, waves=list(waves or []), include_withdrawn=include_withdrawn
        )

    def compare(
        self,
        seat: str,
        waves: Iterable[str],
        rubrics: Optional[Iterable[str]] = None,
        include_withdrawn: bool = False,
    ) -> dict[str, Any]:
        """One seat across waves, absolutes beside the conditions that shape them
        (``benchledger compare --format json``); ``rubrics`` adds each one's score."""
        return self._read(
            "compare",
            seat,
            list(waves),
            rubrics=[os.fspath(r) for r in (rubrics or [])],
            include_withdrawn=include_withdrawn,
        )

    def history(
        self,
        rubric: str,
        seat: Optional[str] = None,
        waves: Optional[Iterable[str]] = None,
        include_withdrawn: bool = False,
    ) -> dict[str, Any]:
        """A rubric's scores wave by wave (``benchledger history --format json``), for one
        ``seat`` or all."""
        return self._read(
            "history",
            os.fspath(rubric),
            seat=seat,
            waves=list(waves or []),
            include_withdrawn=include_withdrawn,
        )

    def publications(self) -> dict[str, Any]:
        """Every publication and withdrawal of the chain (``benchledger publications --format
        json``)."""
        return self._read("publications")

    def rules(self) -> dict[str, Any]:
        """Submission rules registered in the ledger and shipped with benchledger, with the
        waves each let in (``benchledger rules list --format json``)."""
        return self._read("rules")

    def claims_check(self, path: Union[Path, Iterable[Path]]) -> dict[str, Any]:
        """Each claim of claims files checked against the ledger (``benchledger claims check
        --format json``). A claim that differs raises :class:`CheckFailed`, its ``document``
        holding every verdict."""
        return self._read("claims_check", _paths(path))

    def review(
        self,
        paths: Union[Path, Iterable[Path]],
        rules: Union[str, Path],
        *,
        format: Optional[str] = None,
        claims: Optional[Path] = None,
        prices: Optional[str] = None,
        against: Optional[str] = None,
        suite_problems: Optional[int] = None,
        ingest: bool = False,
        wave: Optional[str] = None,
        started_at: Optional[str] = None,
        model: Optional[str] = None,
        harness: Optional[str] = None,
        provider: Optional[str] = None,
    ) -> dict[str, Any]:
        """A submission reviewed under submission rules (``benchledger review --format
        json``; docs/review.md): ``paths`` its files or directories, ``rules`` a rules file or
        ``NAME@VERSION`` (registered in the ledger, else shipped), ``format`` the format as
        ``ingest --from`` names it (default: a Harbor job or Inspect logs, recognised).
        ``claims``, ``prices``, ``against`` and ``suite_problems`` are the command line's
        ``--claims``, ``--prices``, ``--against`` and ``--suite-problems``. Nothing is written
        unless ``ingest`` is true: then an accepted submission is added as a wave (``wave`` its
        id) with the review recorded beside it. A verdict other than ``accept`` raises
        :class:`CheckFailed`, its ``document`` holding the whole review; a submission or rules
        that cannot be read raise :class:`BadInput` naming file, line and field."""
        # The library's own operation: nothing is parsed as a command line.
        self._check_open()
        document: dict[str, Any] = json.loads(
            _native.review(
                self._db,
                _paths(paths),
                os.fspath(rules),
                from_=format,
                claims=None if claims is None else os.fspath(claims),
                against=against,
                prices=prices,
                wave=wave,
                suite_problems=None if suite_problems is None else int(suite_problems),
                started_at=started_at,
                model=model,
                provider=provider,
                harness=harness,
                ingest=ingest,
                wait=self._wait,
            )
        )
        return document

    def verify(self, trusted_key: Optional[Path] = None) -> dict[str, Any]:
        """Every publication recomputed and compared byte for byte, and the ledger checked
        against what it was derived from (``benchledger verify --all --ledger --format
        json``): one entry per publication and withdrawal with its verdict, and the ledger's
        checks. With ``trusted_key`` (a public key file, PEM), every publication must also be
        signed by that key (``--trusted-key``; docs/trust.md). Anything that does not pass
        raises :class:`CheckFailed`, its ``document`` holding the whole report."""
        self._check_open()
        key = None if trusted_key is None else os.fspath(trusted_key)
        document: dict[str, Any] = json.loads(_native.verify(self._db, key, wait=self._wait))
        return document

    # Tables.

    def attempts(
        self, waves: Optional[Iterable[str]] = None, include_withdrawn: bool = False
    ) -> "pyarrow.Table":
        """Every attempt of the waves (all waves not withdrawn when ``None``), with exactly the
        columns of ``export --what attempts`` in its order and row order, typed (integers
        int64, flags bool, unknowns null). Needs pyarrow; ``.to_pandas()`` from there."""
        return self._table("attempts", waves, include_withdrawn)

    def seats(
        self, waves: Optional[Iterable[str]] = None, include_withdrawn: bool = False
    ) -> "pyarrow.Table":
        """Every seat of the waves with its absolute figures: the columns of ``export --what
        seats``, typed as :meth:`attempts`'s are."""
        return self._table("seats", waves, include_withdrawn)

    def export(
        self,
        format: str,
        out: Optional[Path] = None,
        *,
        what: Optional[str] = None,
        waves: Optional[Iterable[str]] = None,
        rubric: Optional[Union[str, Path]] = None,
        include_withdrawn: bool = False,
        header: bool = True,
        hf_datasets: Optional[Iterable[str]] = None,
        source_url: Optional[str] = None,
    ) -> Union[str, dict[str, int]]:
        """The ledger exported (``benchledger export``). ``format="csv"`` or ``"jsonl"``
        returns the rows' text: ``what`` is ``"attempts"``, ``"seats"`` or ``"scores"`` (under
        ``rubric``), of ``waves`` (every wave not withdrawn when ``None``), CSV with its
        ``header``. ``"parquet"``, ``"eee"`` (Every Eval Ever records) and
        ``"hf-eval-results"`` (Hugging Face ``.eval_results/`` files; ``hf_datasets`` as
        ``SUITE=OWNER/NAME[:TASK]``, ``source_url`` each entry's link) are written into the
        directory ``out`` and return what was written: rows per Parquet file, or waves,
        records and rows, or waves, files and models. For :meth:`attempts` and :meth:`seats`
        as tables, use those."""
        self._check_open()
        text, counts = _native.export(
            self._db,
            format,
            out=None if out is None else os.fspath(out),
            what=what,
            waves=list(waves or []),
            rubric=None if rubric is None else os.fspath(rubric),
            include_withdrawn=include_withdrawn,
            header=header,
            hf_datasets=list(hf_datasets or []),
            source_url=source_url,
        )
        if text is not None:
            return text
        return dict(counts)

    def _table(
        self, what: str, waves: Optional[Iterable[str]], include_withdrawn: bool
    ) -> "pyarrow.Table":
        if self._closed:
            raise ValueError(f"ledger {self._db} is closed")
        import pyarrow

        names = None if waves is None else [waves] if isinstance(waves, str) else list(waves)
        return pyarrow.table(_native.table(self._db, what, names, include_withdrawn))


def verify_bundle(bundle: Path, trusted_key: Optional[Path] = None) -> dict[str, Any]:
    """A reproduction bundle checked on its own, trusting nothing in it (``benchledger verify
    --bundle DIR --format json``): its publication recomputed from the bundle's ledger and
    compared byte for byte, its ledger's integrity, and with ``trusted_key`` (a public key
    file, PEM) its signature. Needs no ledger of one's own. Anything that does not pass raises
    :class:`CheckFailed`, its ``document`` holding the whole report."""
    document: dict[str, Any] = json.loads(
        _native.verify_bundle(
            os.fspath(bundle), None if trusted_key is None else os.fspath(trusted_key)
        )
    )
    return document


def claims_from(
    format: str,
    path: Path,
    *,
    wave: Optional[str] = None,
    seat: Optional[str] = None,
    wave_prefix: str = "oh-",
    task: Optional[str] = None,
    metric: Optional[str] = None,
    evaluation: Optional[str] = None,
    out: Optional[Path] = None,
) -> str:
    """The figures a harness or leaderboard published, read from its own files into a claims
    file (``benchledger claims from FORMAT PATH``), to check against a ledger with
    :meth:`Ledger.claims_check`. ``format`` is one of ``openhands`` (an index model directory;
    a wave per benchmark, ``wave_prefix`` + its name, the seat the directory's name unless
    ``seat`` names it), ``terminal-bench``, ``hal``, ``harbor``, ``helm`` (``metric``),
    ``eee`` (``evaluation``) or ``lm-eval`` (``task``, ``metric``); all but ``openhands``
    need ``wave`` and ``seat``. Returns the claims file's text, which says in its comments
    where each figure came from; with ``out``, also writes it there, a new file (one that
    exists is never overwritten). Bound to the library's own call: no ledger is opened and
    no command line is parsed. Unreadable input raises :class:`BadInput` naming the file."""
    text: str = _native.claims_from(
        format,
        os.fspath(path),
        wave=wave,
        seat=seat,
        wave_prefix=wave_prefix,
        task=task,
        metric=metric,
        evaluation=evaluation,
        out=None if out is None else os.fspath(out),
    )
    return text


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the command line with ``argv`` (without the program's name) in this process and
    returns its exit status; its output goes to this process's stdout and stderr."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    return _native.main(["benchledger", *args])
