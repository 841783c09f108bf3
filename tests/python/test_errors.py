"""Each exception class, raised with the command line's message for the same call (its advice
naming the Python call where the package has one, issue 30), the ledger unchanged."""

import hashlib
import sqlite3
import subprocess
import sys

import pytest

import benchledger
from conftest import cli


def state(db):
    """What a ledger holds, to compare before and after a refused call: its bytes and its
    waves."""
    return hashlib.sha256(db.read_bytes()).hexdigest(), benchledger.Ledger(db).waves()


def bad_manifest(tmp_path, demo):
    """A manifest whose wave lacks [wave.accounting]."""
    src = (demo / "files" / "examples" / "checkout-rematch" / "wave.toml").read_text()
    text = src.replace("[wave.accounting]\ninput_tokens_include_cache_reads = false\n", "")
    assert text != src
    d = tmp_path / "bad"
    d.mkdir()
    for f in (demo / "files" / "examples" / "checkout-rematch").iterdir():
        (d / f.name).write_bytes(f.read_bytes())
    (d / "wave.toml").write_text(text.replace('id = "checkout-rematch"', 'id = "new-wave"'))
    return d / "wave.toml"


def test_bad_input_raises_bad_input_with_the_cli_message_and_the_ledger_unchanged(
    ledger_copy, demo, tmp_path
):
    manifest = bad_manifest(tmp_path, demo)
    before = state(ledger_copy)
    out = cli("--db", ledger_copy, "ingest", manifest)
    assert out.status == 2
    with pytest.raises(benchledger.BadInput) as e:
        benchledger.Ledger(ledger_copy).ingest(manifest)
    assert str(e.value) == out.message
    assert "wave.accounting" in str(e.value) and str(manifest) in str(e.value)
    assert e.value.exit_code == 2 and isinstance(e.value, benchledger.Error)
    assert state(ledger_copy) == before


def test_unknown_names_and_a_missing_ledger_are_bad_input_in_the_cli_words(demo, tmp_path):
    db = demo / "demo.db"
    ledger = benchledger.Ledger(db)
    cases = [
        (lambda: ledger.show("nope"), ["show", "nope"]),
        (lambda: ledger.versus("rca-wave-2", "x", "x"), ["versus", "--wave", "rca-wave-2", "x", "x"]),
        (lambda: ledger.trials("rca-wave-2", k=[0]), ["trials", "rca-wave-2", "--k", "0"], ("--k 0", "k=0")),
        (lambda: ledger.score("rca-wave-2", "nope@1"), ["score", "--wave", "rca-wave-2", "--rubric", "nope@1"]),
        (
            lambda: ledger.show("rca-wave-2", resamples=10),
            ["show", "rca-wave-2", "--resamples", "10"],
            ("--resamples 10", "resamples=10"),
            ("give --ci too", "give ci= too"),
        ),
        (lambda: ledger.attempts(["nope"]), ["export", "--what", "attempts", "--wave", "nope"]),
    ]
    for call, args, *named in cases:
        out = cli("--db", db, *args, "--format", "json" if args[0] != "export" else "csv")
        assert out.status == 2, args
        with pytest.raises(benchledger.BadInput) as e:
            call()
        # The same message, each argument named as each face's callers write it: the command
        # line's flag, Python's keyword argument.
        expected = out.message
        for flag, keyword in named:
            assert flag in expected, (args, expected)
            expected = expected.replace(flag, keyword)
        assert str(e.value) == expected, args
    missing = tmp_path / "none.db"
    out = cli("--db", missing, "waves")
    with pytest.raises(benchledger.BadInput) as e:
        benchledger.Ledger(missing)
    cli_advice = (
        f": create one with `benchledger init --db {missing}`, or point --db or BENCHLEDGER_DB "
        "at an existing ledger"
    )
    assert out.message.endswith(cli_advice)
    assert str(e.value) == out.message[: -len(cli_advice)] + (
        f': create one with `benchledger.Ledger.create("{missing}")`, or open an existing ledger'
    )
    assert not missing.exists()


def test_a_tampered_ledger_raises_check_failed_with_the_whole_report(ledger_copy):
    con = sqlite3.connect(ledger_copy)
    con.executescript(
        "DROP TRIGGER attempt_no_update; UPDATE attempt SET wall_s = wall_s + 1 "
        "WHERE id = (SELECT min(id) FROM attempt);"
    )
    con.close()
    before = state(ledger_copy)
    out = cli("--db", ledger_copy, "verify", "--all", "--ledger", "--format", "json")
    assert out.status == 1
    with pytest.raises(benchledger.CheckFailed) as e:
        benchledger.Ledger(ledger_copy).verify()
    assert str(e.value) == out.message
    assert e.value.exit_code == 1
    doc = e.value.document
    assert doc["ok"] is False
    assert doc == __import__("json").loads(out.stdout)
    assert any(c["verdict"] == "mismatch" for c in doc["ledger"])
    assert state(ledger_copy) == before


def test_a_busy_ledger_raises_unavailable_and_nothing_is_written(ledger_copy, demo, tmp_path):
    manifest = demo / "files" / "examples" / "checkout-rematch" / "wave.toml"
    text = manifest.read_text().replace('id = "checkout-rematch"', 'id = "another"')
    copy = tmp_path / "m"
    copy.mkdir()
    for f in manifest.parent.iterdir():
        (copy / f.name).write_bytes(f.read_bytes())
    (copy / "wave.toml").write_text(text)
    waves = benchledger.Ledger(ledger_copy).waves()
    # Another process holds the write lock (a lock of this process would not bar its own
    # connections: POSIX locks are per process).
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
            "c.execute('BEGIN IMMEDIATE'); print('locked', flush=True); sys.stdin.read()",
            str(ledger_copy),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline() == "locked\n"
    try:
        out = cli("--db", ledger_copy, "--wait", "0", "ingest", copy / "wave.toml")
        assert out.status == 3, out.stderr
        with pytest.raises(benchledger.Unavailable) as e:
            benchledger.Ledger(ledger_copy, wait=0).ingest(copy / "wave.toml")
        assert str(e.value) == out.message.replace(
            ". Run the command again when the other writer is done, or give --wait more seconds",
            ". Call again when the other writer is done, or give more seconds to wait "
            "(`benchledger.Ledger(db, wait=SECONDS)`)",
        )
        assert "--wait" not in str(e.value)
        assert e.value.exit_code == 3
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)
    assert benchledger.Ledger(ledger_copy).waves() == waves
    # Once the writer is gone, the same call goes through.
    assert benchledger.Ledger(ledger_copy, wait=0).ingest(copy / "wave.toml") == ["another"]
