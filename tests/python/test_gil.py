"""Long work releases the GIL: a Python thread keeps running while a large wave is ingested."""

import threading
import time

import benchledger


def big_wave(d, attempts):
    lines = "".join(
        f'{{"problem":"p{i}","correct":{"true" if i % 3 == 0 else "false"},'
        f'"input_tokens":{1000 + i},"output_tokens":100,"wall_s":1.5}}\n'
        for i in range(attempts)
    )
    (d / "s.jsonl").write_text(lines)
    (d / "wave.toml").write_text(
        "[wave]\nid = \"big\"\nsuite = \"big-suite\"\nstarted_at = 2026-03-04T10:00:00Z\n\n"
        "[wave.accounting]\ninput_tokens_include_cache_reads = false\n\n"
        "[[seat]]\nid = \"s\"\nmodel = \"m\"\nprovider = \"p\"\nharness = \"h\"\n"
        "results = \"s.jsonl\"\n"
    )
    return d / "wave.toml"


def test_a_thread_runs_during_a_long_ingest(tmp_path):
    manifest = big_wave(tmp_path, 40_000)
    ledger = benchledger.Ledger.create(tmp_path / "l.db")
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.002)

    t = threading.Thread(target=tick)
    t.start()
    time.sleep(0.05)
    start = time.monotonic()
    added = ledger.ingest(manifest)
    end = time.monotonic()
    stop.set()
    t.join()
    assert added == ["big"]
    during = [x for x in ticks if start < x < end]
    # The thread kept ticking through the ingest: without the GIL released it could not run
    # at all until the call returned.
    assert end - start > 0.1, end - start
    assert len(during) >= 10, (len(during), end - start)
    assert max(during) - min(during) > (end - start) / 2
    assert ledger.attempts(["big"]).num_rows == 40_000
