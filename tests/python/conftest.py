"""Fixtures of the Python package's tests: the demo ledger and its files, and the package's
own ``benchledger`` command to compare the API with."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# "Now" fixed, for the command line and the API alike (publications, withdrawals).
os.environ["BENCHLEDGER_NOW"] = "2026-11-30T00:00:00Z"
os.environ.pop("BENCHLEDGER_DB", None)

# The package's `benchledger` command, installed beside this Python.
CLI = str(Path(sys.executable).parent / "benchledger")


class Out:
    def __init__(self, p: subprocess.CompletedProcess) -> None:
        self.status = p.returncode
        self.stdout = p.stdout
        self.stderr = p.stderr

    @property
    def message(self) -> str:
        """The error message, as the API's exceptions carry it."""
        assert self.stderr.startswith("error: "), self.stderr
        return self.stderr[len("error: ") :].rstrip("\n")


def cli(*args: str, cwd=None) -> Out:
    """Runs the package's command line in its own process."""
    p = subprocess.run(
        [CLI, *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=600
    )
    return Out(p)


@pytest.fixture(scope="session")
def demo(tmp_path_factory) -> Path:
    """A directory holding the demo's ledger (demo.db: four waves, two rubrics, a
    publication, a withdrawal) and the files it is built from."""
    d = tmp_path_factory.mktemp("demo")
    out = cli("demo", "--db", d / "demo.db")
    assert out.status == 0, out.stderr
    out = cli("demo", "--write", d / "files")
    assert out.status == 0, out.stderr
    return d


@pytest.fixture
def ledger_copy(demo, tmp_path) -> Path:
    """A copy of the demo's ledger, for a test that writes."""
    db = tmp_path / "demo.db"
    shutil.copyfile(demo / "demo.db", db)
    return db
