"""The Inspect AI hook: every eval log Inspect finishes goes into a benchledger ledger as it is
written, so the ledger is fed without anyone remembering to.

Inspect loads this module through the package's ``inspect_ai`` entry point. The hook is inert
unless ``BENCHLEDGER_DB`` names a ledger (created when it does not exist yet). At the end of
each task, the task's log is ingested as ``benchledger ingest --from inspect`` ingests it: into
the wave ``BENCHLEDGER_WAVE`` when set, else into the wave ``ingest --from`` names, the task
(after its last ``/``: ``inspect_evals/gsm8k`` is ``gsm8k``) and the day the run started, in
UTC (``gsm8k-2026-01-02``). The name is not made here: the library makes it, for the hook and
the command alike. Each log ingested is logged in one line (the wave, its seats and samples);
a log that cannot be ingested (an eval that failed, a wave id already taken by other content,
such as another run of the task that day without ``BENCHLEDGER_WAVE``) is reported as a
warning and never fails the evaluation.
"""

from __future__ import annotations

import logging
import os
import warnings
from typing import Optional

from inspect_ai.hooks import Hooks, TaskEnd, hooks

import benchledger


# Inspect shows the records of its own loggers only (its handler is on `inspect_ai`, which does
# not propagate to the root), at the level `--log-level` sets: a record of this child is shown
# where Inspect shows its own, and kept in its log file.
_logger = logging.getLogger("inspect_ai.benchledger")


def _log_path(location: str) -> str:
    """A log's location as a path: Inspect may give a ``file://`` URL."""
    if location.startswith("file://"):
        from urllib.parse import unquote, urlparse

        return unquote(urlparse(location).path)
    return location


def ingest_log(db: str, location: str, wave: Optional[str] = None) -> list[tuple[str, int, int]]:
    """Ingests the Inspect log at ``location`` into the ledger ``db``, creating the ledger
    when there is none: as the wave ``wave``, else as ``ingest --from inspect`` names it.
    Returns each wave added with its number of seats and of samples (attempts)."""
    if db.startswith(("postgresql://", "postgres://")) or os.path.exists(db):
        ledger = benchledger.Ledger(db)
    else:
        ledger = benchledger.Ledger.create(db)
    with ledger:
        added = ledger.ingest_from("inspect", [_log_path(location)], wave=wave)
        out = []
        for w in added:
            seats = ledger.show(w).get("seats", [])
            out.append((w, len(seats), sum(int(s.get("attempts") or 0) for s in seats)))
        return out


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


@hooks(
    name="benchledger",
    description="Ingests each finished eval log into the benchledger ledger BENCHLEDGER_DB",
)
class BenchledgerHook(Hooks):
    """Ingests each finished task's log into ``BENCHLEDGER_DB``."""

    def enabled(self) -> bool:
        return bool(os.environ.get("BENCHLEDGER_DB"))

    async def on_task_end(self, data: TaskEnd) -> None:
        db = os.environ.get("BENCHLEDGER_DB", "")
        log = data.log
        if not db or not log.location:
            return
        wave = os.environ.get("BENCHLEDGER_WAVE") or None
        try:
            import anyio.to_thread

            # The ingest releases the GIL: run it off the event loop, so other tasks go on.
            added = await anyio.to_thread.run_sync(ingest_log, db, log.location, wave)
        except Exception as e:  # a failure to ingest never fails the evaluation
            warnings.warn(
                f"benchledger: the log {log.location} was not ingested into {db}: {e}",
                RuntimeWarning,
                stacklevel=1,
            )
            return
        say = _logger.info
        if not added:
            say("benchledger: %s already in %s: no wave added", log.location, db)
        for w, seats, samples in added:
            say(
                "benchledger: wave %s added to %s: %s, %s (%s)",
                w,
                db,
                _plural(seats, "seat"),
                _plural(samples, "sample"),
                log.location,
            )
