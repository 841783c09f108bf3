"""The Inspect AI hook end to end: inspect_ai from PyPI runs a task on mockllm/model, and the
ledger then holds the wave with the log's own samples, scores and token totals."""

import os
import subprocess
import sys
import warnings
from pathlib import Path

from inspect_ai.log import read_eval_log

import benchledger

HERE = Path(__file__).parent


def run_eval(tmp_path, **env):
    """Runs inspect_eval.py with these environment variables; returns the log's path."""
    e = {k: v for k, v in os.environ.items() if not k.startswith("BENCHLEDGER_")}
    e.update({k: str(v) for k, v in env.items()})
    e.setdefault("INSPECT_LOG_LEVEL", "warning")
    p = subprocess.run(
        [sys.executable, str(HERE / "inspect_eval.py"), str(tmp_path / "logs")],
        capture_output=True,
        text=True,
        env=e,
        cwd=tmp_path,
        timeout=600,
    )
    assert p.returncode == 0, p.stderr
    status, location = p.stdout.strip().splitlines()[-2:]
    assert status == "success", p.stdout
    return location, p.stderr


def test_each_finished_log_lands_in_the_ledger_with_its_own_figures(tmp_path):
    db = tmp_path / "ledger.db"
    location, _ = run_eval(tmp_path, BENCHLEDGER_DB=db, BENCHLEDGER_WAVE="arith-1")
    log = read_eval_log(location)
    ledger = benchledger.Ledger(db)
    [wave] = ledger.waves()["waves"]
    assert wave["wave"] == "arith-1"
    attempts = ledger.attempts(["arith-1"]).to_pylist()
    # The log's own sample count, scores and token totals.
    assert len(attempts) == len(log.samples) == 4
    by_problem = {str(a["problem"]): a for a in attempts}
    for s in log.samples:
        a = by_problem[str(s.id)]
        assert a["correct"] == (s.scores["match"].value == "C")
        usage = s.model_usage["mockllm/model"]
        assert (a["input_tokens"], a["output_tokens"]) == (usage.input_tokens, usage.output_tokens)
    assert sum(a["correct"] for a in attempts) == 3
    assert sum(a["input_tokens"] for a in attempts) == 100 + 101 + 102 + 103
    [seat] = ledger.seats(["arith-1"]).to_pylist()
    assert (seat["attempts"], seat["correct"]) == (4, 3)
    assert ledger.verify()["ok"] is True


def the_day_it_started(log) -> str:
    """The day, in UTC, a log's run started: what ``ingest --from`` names a wave after."""
    from datetime import datetime, timezone

    return datetime.fromisoformat(log.eval.created).astimezone(timezone.utc).date().isoformat()


def test_without_a_wave_named_the_hook_names_it_as_ingest_from_does(tmp_path):
    db = tmp_path / "ledger.db"
    location, _ = run_eval(tmp_path, BENCHLEDGER_DB=db)
    log = read_eval_log(location, header_only=True)
    [wave] = benchledger.Ledger(db).waves()["waves"]
    assert wave["wave"] == f"arith-{the_day_it_started(log)}"
    # The same log through ingest --from is the same wave, already there.
    other = benchledger.Ledger.create(tmp_path / "other.db")
    assert other.ingest_from("inspect", [location]) == [wave["wave"]]


def test_a_task_named_suite_slash_task_is_ingested_and_logged(tmp_path):
    """Issue 30.7: the hook named the wave ``TASK-RUN_ID``, and a task of a registry
    (``inspect_evals/gsm8k``) made an id with a slash, refused ("wave id ... is not a valid
    id"): the log was dropped with a warning. The wave is named as ``ingest --from`` names it,
    and the hook logs one line per log it ingested."""
    import logging

    import anyio
    from benchledger.inspect_hook import BenchledgerHook

    db = tmp_path / "ledger.db"
    location, stderr = run_eval(tmp_path, BENCHLEDGER_DB=db, TASK_NAME="suite/task")
    assert "was not ingested" not in stderr, stderr
    log = read_eval_log(location, header_only=True)
    assert log.eval.task == "suite/task"
    id = f"task-{the_day_it_started(log)}"
    [wave] = benchledger.Ledger(db).waves()["waves"]
    assert wave["wave"] == id

    # The line it logs: the hook run here, on the same log, into another ledger.
    class Data:
        pass

    Data.log = log
    lines = []

    class Lines(logging.Handler):
        def emit(self, record):
            lines.append(record.getMessage())

    other = tmp_path / "other.db"
    logger = logging.getLogger("inspect_ai.benchledger")
    handler, level = Lines(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    os.environ["BENCHLEDGER_DB"] = str(other)
    try:
        anyio.run(BenchledgerHook().on_task_end, Data())
        anyio.run(BenchledgerHook().on_task_end, Data())
    finally:
        del os.environ["BENCHLEDGER_DB"]
        logger.removeHandler(handler)
        logger.setLevel(level)
    assert lines == [
        f"benchledger: wave {id} added to {other}: 1 seat, 4 samples ({log.location})",
        f"benchledger: {log.location} already in {other}: no wave added",
    ]


def test_the_hook_is_inert_without_benchledger_db(tmp_path):
    run_eval(tmp_path)
    assert not list(tmp_path.glob("*.db"))


def test_a_log_that_cannot_be_ingested_warns_and_the_eval_still_succeeds(tmp_path):
    # A directory where the ledger should be: refused, and said on stderr.
    (tmp_path / "dir.db").mkdir()
    _, stderr = run_eval(tmp_path, BENCHLEDGER_DB=tmp_path / "dir.db")
    assert "was not ingested" in stderr and "not a ledger file" in stderr


def test_the_hook_itself_warns_rather_than_raise(tmp_path):
    import anyio
    from benchledger.inspect_hook import BenchledgerHook

    class Log:
        location = str(tmp_path / "missing.eval")

        class eval:
            task = "t"
            run_id = "r"

    class Data:
        log = Log()

    os.environ["BENCHLEDGER_DB"] = str(tmp_path / "l.db")
    try:
        hook = BenchledgerHook()
        assert hook.enabled()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            anyio.run(hook.on_task_end, Data())
    finally:
        del os.environ["BENCHLEDGER_DB"]
    assert any("was not ingested" in str(w.message) for w in caught)
    assert benchledger.Ledger(tmp_path / "l.db").waves()["waves"] == []
