"""The Python API against a ledger on a PostgreSQL server (``scripts/test`` runs the Python
tests beside a throwaway server of ``scripts/pg-test``, naming it in ``BENCHLEDGER_TEST_PG``):
the same calls on the same files give the same documents as on an SQLite file, and the
chain's records are the same bytes."""

import os
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest

import benchledger
from test_api import RULES

SERVER = os.environ.get("BENCHLEDGER_TEST_PG", "")



def psql() -> str:
    """PostgreSQL's client, from PATH or the server's own packages."""
    found = shutil.which("psql")
    if found:
        return found
    for d in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (d / "psql").exists():
            return str(d / "psql")
    pytest.fail("BENCHLEDGER_TEST_PG is set but no psql is installed")


def url_of(name: str) -> str:
    """The URL of database ``name`` on the test server (the server's URL, its path replaced)."""
    base, _, query = SERVER.partition("?")
    scheme, _, rest = base.partition("://")
    authority = rest.split("/", 1)[0]
    return f"{scheme}://{authority}/{name}" + (f"?{query}" if query else "")


@pytest.fixture
def pg_db():
    """A database of its own on the test server, dropped afterwards. Without a server the
    tests are skipped, saying so; under ``CI=true`` they fail."""
    if not SERVER:
        why = "no PostgreSQL server named (BENCHLEDGER_TEST_PG; scripts/test starts one)"
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)
    name = f"bl_py_{uuid.uuid4().hex[:12]}"
    subprocess.run([psql(), SERVER, "-q", "-c", f"CREATE DATABASE {name}"], check=True)
    yield url_of(name)
    subprocess.run(
        [psql(), SERVER, "-q", "-c", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], check=True
    )


def test_the_api_on_postgresql_gives_what_it_gives_on_sqlite(pg_db, demo, tmp_path):
    examples = demo / "files" / "examples"
    manifests = [examples / w / "wave.toml" for w in ("rca-wave-1", "rca-wave-2", "checkout-rematch")]
    on_pg = benchledger.Ledger.create(pg_db)
    on_file = benchledger.Ledger.create(tmp_path / "l.db")
    for ledger in (on_pg, on_file):
        assert ledger.ingest(manifests) == ["rca-wave-1", "rca-wave-2", "checkout-rematch"]
    assert on_pg.waves() == on_file.waves()
    assert on_pg.show("rca-wave-2") == on_file.show("rca-wave-2")
    assert on_pg.score("checkout-rematch", "accuracy@1") == on_file.score(
        "checkout-rematch", "accuracy@1"
    )
    # The chain's record of a withdrawal is the same bytes on both stores.
    made = [ledger.withdraw("rca-wave-1", "rerun serially") for ledger in (on_pg, on_file)]
    assert made[0] == made[1]
    assert on_pg.verify() == on_file.verify()
    assert on_pg.attempts().equals(on_file.attempts())


def test_a_review_ingested_on_postgresql_is_recorded_and_verifies(pg_db, tmp_path):
    job = Path(__file__).parents[1] / "fixtures" / "import" / "harbor" / "job"
    rules = tmp_path / "rules.toml"
    rules.write_text(RULES.replace("trials_per_problem = 2", "trials_per_problem = 1"))
    ledger = benchledger.Ledger.create(pg_db)
    doc = ledger.review(
        job, rules, format="harbor", ingest=True, wave="hb", started_at="2026-03-04T10:00:00Z"
    )
    assert doc["verdict"] == "accept"
    [wave] = ledger.waves()["waves"]
    assert [(r["rules"], r["verdict"]) for r in wave["reviews"]] == [("api-board@1", "accept")]
    assert "reviews" in [c["check"] for c in ledger.verify()["ledger"]]


def test_bad_input_leaves_the_postgresql_ledger_unchanged(pg_db, demo, tmp_path):
    ledger = benchledger.Ledger.create(pg_db)
    src = demo / "files" / "examples" / "checkout-rematch"
    bad = tmp_path / "bad"
    shutil.copytree(src, bad)
    text = (bad / "wave.toml").read_text()
    (bad / "wave.toml").write_text(text.replace("[wave.accounting]\n", "[wave.acounting]\n"))
    with pytest.raises(benchledger.BadInput) as e:
        ledger.ingest(bad / "wave.toml")
    assert "wave.toml" in str(e.value)
    assert ledger.waves()["waves"] == []


def test_a_ledger_copied_onto_postgresql_and_back_verifies_the_same(pg_db, demo, tmp_path):
    ledger = benchledger.Ledger(demo / "demo.db")
    copied = ledger.copy(pg_db)
    assert copied == benchledger.Ledger(pg_db).copy(tmp_path / "back.db")
    for there in (benchledger.Ledger(pg_db), benchledger.Ledger(tmp_path / "back.db")):
        assert there.waves() == ledger.waves()
        assert there.verify() == ledger.verify()
