"""Ctrl-C during a long call (issue 34): the call stops before its transaction commits, raises
KeyboardInterrupt soon after the signal, and leaves the ledger as it was: during an ingest of many
files, and while a write waits for another writer's lock."""

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

import benchledger

# The interrupted ingest must still be running when the signal comes: the input grows until an
# ingest of it takes at least this long, and the signal comes a quarter of the way in.
LONG_ENOUGH = 2.0
# The longest the call may take to return once the signal came: the module waits for signals in
# slices of 50 ms, and the ingest checks before each seat (a few milliseconds each here).
PROMPT = 1.0


def wave_of_many_files(d, wave, seats, attempts=40):
    """A wave manifest in `d` whose `seats` seats each read their own small results file
    (native JSONL): an ingest that reads, checks and stages one file after another."""
    d.mkdir(parents=True, exist_ok=True)
    blocks = []
    for s in range(seats):
        lines = "".join(
            f'{{"problem":"p{i}","correct":{"true" if (i + s) % 3 == 0 else "false"},'
            f'"input_tokens":{1000 + i},"output_tokens":{100 + s},"wall_s":1.5}}\n'
            for i in range(attempts)
        )
        (d / f"s{s:05}.jsonl").write_text(lines)
        blocks.append(
            f'[[seat]]\nid = "s{s:05}"\nmodel = "m{s}"\nprovider = "p"\nharness = "h"\n'
            f'results = "s{s:05}.jsonl"\n'
        )
    (d / "wave.toml").write_text(
        f'[wave]\nid = "{wave}"\nsuite = "many"\nstarted_at = 2026-03-04T10:00:00Z\n\n'
        "[wave.accounting]\ninput_tokens_include_cache_reads = false\n\n" + "\n".join(blocks)
    )
    return d / "wave.toml"


def query(db, sql):
    c = sqlite3.connect(db)
    try:
        return c.execute(sql).fetchone()[0]
    finally:
        c.close()


def rows(db, table):
    return query(db, f"SELECT count(*) FROM {table}")


def state(ledger, db):
    """What an ingest that wrote nothing leaves as it was: the waves, the verdicts of verify,
    the rows of every table an ingest writes, and the log's head."""
    return (
        ledger.waves(),
        ledger.verify(),
        {t: rows(db, t) for t in ("wave", "seat", "attempt", "seat_tally", "chain_entry")},
        query(db, "SELECT sha256 FROM chain_entry ORDER BY seq DESC LIMIT 1"),
    )


def test_ctrl_c_during_an_ingest_raises_keyboard_interrupt_and_writes_nothing(tmp_path):
    # The input, grown until an uninterrupted ingest of it takes long enough (into a ledger of
    # its own), so that the signal surely comes while the interrupted one runs.
    seats = 400
    while True:
        manifest = wave_of_many_files(tmp_path / f"in-{seats}", "many", seats)
        timing = benchledger.Ledger.create(tmp_path / f"timing-{seats}.db")
        start = time.monotonic()
        assert timing.ingest(manifest) == ["many"]
        took = time.monotonic() - start
        if took >= LONG_ENOUGH or seats >= 12_800:
            break
        seats *= 2
    assert took >= LONG_ENOUGH, f"{seats} seats ingested in {took:.2f} s"

    db = tmp_path / "l.db"
    ledger = benchledger.Ledger.create(db)
    ledger.ingest(wave_of_many_files(tmp_path / "first", "first", 3))
    before = state(ledger, db)

    sent = []

    def interrupt():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(took / 4, interrupt)
    start = time.monotonic()
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            ledger.ingest(manifest)
        returned = time.monotonic()
    finally:
        timer.cancel()
        timer.join()

    # The call returned by the interrupt, soon after it and well before it would have ended.
    assert sent, "the call returned before the signal was sent"
    assert returned - sent[0] < PROMPT, (returned - sent[0], took)
    assert returned - start < took * 0.75, (returned - start, took)
    # The whole ingest was rolled back: no new wave, the same log and head, no row added.
    assert state(ledger, db) == before
    assert ledger.waves()["waves"][0]["wave"] == "first"
    assert len(ledger.waves()["waves"]) == 1
    # And nothing is left half done: the same ingest, uninterrupted, lands whole.
    assert ledger.ingest(manifest) == ["many"]
    assert rows(db, "seat") == before[2]["seat"] + seats
    print(
        f"\n{seats} seats: ingest {took:.2f} s uninterrupted; SIGINT at {sent[0] - start:.2f} s, "
        f"KeyboardInterrupt {1000 * (returned - sent[0]):.0f} ms after it"
    )


def test_a_call_that_is_not_interrupted_returns_as_before(tmp_path):
    """A short call is not slowed to the wait's slice: it returns as soon as its work does."""
    ledger = benchledger.Ledger.create(tmp_path / "l.db")
    ledger.ingest(wave_of_many_files(tmp_path / "w", "w", 2))
    start = time.monotonic()
    for _ in range(20):
        ledger.waves()
    per_call = (time.monotonic() - start) / 20
    assert per_call < 0.05, per_call


def test_ctrl_c_while_a_write_waits_for_another_writers_lock(tmp_path):
    """A write waiting for another writer (here for up to 60 s) stops waiting at Ctrl-C."""
    db = tmp_path / "l.db"
    ledger = benchledger.Ledger.create(db, wait=60)
    ledger.ingest(wave_of_many_files(tmp_path / "first", "first", 2))
    before = state(ledger, db)
    # Another process holds the write lock (in this one, POSIX locks would not keep the module's
    # own SQLite out: a process never conflicts with its own locks).
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys\n"
            "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            "c.execute('BEGIN IMMEDIATE')\n"
            "print('held', flush=True)\n"
            "sys.stdin.read()\n"
            "c.execute('COMMIT')\n",
            str(db),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline().strip() == "held"
    sent = []

    def interrupt():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(0.5, interrupt)
    start = time.monotonic()
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            ledger.ingest(wave_of_many_files(tmp_path / "second", "second", 2))
        returned = time.monotonic()
    finally:
        timer.cancel()
        timer.join()
        holder.stdin.close()
        assert holder.wait(timeout=30) == 0
    assert sent, "the call returned before the signal was sent"
    assert returned - sent[0] < PROMPT, returned - sent[0]
    assert returned - start < 5, returned - start
    assert state(ledger, db) == before
    after = 1000 * (returned - sent[0])
    print(f"\nwaiting for the lock: KeyboardInterrupt {after:.0f} ms after SIGINT")
