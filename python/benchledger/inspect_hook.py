"""The Inspect AI hook: every eval log Inspect finishes goes into a benchledger ledger as it is
written, so the ledger is fed without anyone remembering to.

Inspect loads this module through the package's ``inspect_ai`` entry point. The hook is inert
unless ``BENCHLEDGER_DB`` names a ledger (created when it does not exist yet). At the end of
each task, the task's log is ingested as ``benchledger ingest --from inspect`` would: into the
wave ``BENCHLEDGER_WAVE`` when set, else a wave named from the run (the task and the run's id).
A log that cannot be ingested (an eval that failed, a wave id already taken by other content)
is reported as a warning and never fails the evaluation.
"""

from __future__ import annotations

import logging
import os
import warnings

from inspect_ai.hooks import Hooks, TaskEnd, hooks

import benchledger


def _log_path(location: str) -> str:
    """A log's location as a path: Inspect may give a ``file://`` URL."""
    if location.startswith("file://"):
        from urllib.parse import unquote, urlparse

        return unquote(urlparse(location).path)
    return location


def ingest_log(db: str, location: str, wave: str) -> list[str]:
    """Ingests the Inspect log at ``location`` into the ledger ``db`` as the wave ``wave``,
    creating the ledger when there is none; returns the waves added."""
    if db.startswith(("postgresql://", "postgres://")) or os.path.exists(db):
        ledger = benchledger.Ledger(db)
    else:
        ledger = benchledger.Ledger.create(db)
    with ledger:
        return ledger.ingest_from("inspect", [_log_path(location)], wave=wave)


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
        wave = os.environ.get("BENCHLEDGER_WAVE") or f"{log.eval.task}-{log.eval.run_id}"
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
        if added:
            logging.getLogger(__name__).info(
                "benchledger: wave %s added to %s", ", ".join(added), db
            )
