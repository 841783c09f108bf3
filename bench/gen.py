#!/usr/bin/env python3
"""Generates benchmark data for benchledger: wave manifests with JSONL results, and the same
attempt rows as CSV for `sqlite3 .import`.

Deterministic (seeded), so two runs of the benchmark read the same bytes. Every field of every
attempt is known: `sqlite3 .import` cannot write NULL into a STRICT table (an empty CSV cell is
the text ''), and the reference must import the very rows benchledger stores.

    gen.py OUT_DIR SHAPE WAVES SEATS PROBLEMS

writes OUT_DIR/SHAPE/wNNN/wave.toml + sK.jsonl (one wave directory per wave),
OUT_DIR/SHAPE/attempts.csv (id, seat_id, then the attempt table's columns, in ledger order:
seat by id, then problem, then trial) and OUT_DIR/SHAPE/setup.sql (the suite, wave and seat rows
the CSV's seat ids refer to).
"""

import os
import random
import sys

BUDGET_TOKENS = 1_000_000
BUDGET_WALL_S = 180


def seat_profile(rng, s):
    """A seat's habits: how often it is Correct, how many tokens and seconds it spends."""
    return {
        "p_correct": 0.35 + 0.5 * rng.random(),
        "tokens": 150_000 + int(1_200_000 * rng.random()),
        "wall": 40.0 + 250.0 * rng.random(),
        "price": 0.5 + 4.0 * rng.random(),  # USD per million tokens
        "model": ["grok-4", "claude-opus", "gpt-5", "gemini-pro", "qwen-max"][s % 5],
        "provider": ["xai", "anthropic", "openai", "google", "alibaba"][s % 5],
        "harness": ["single-agent-react", "hierarchical-reactree"][s % 2],
    }


def attempt(rng, prof, problem):
    correct = rng.random() < prof["p_correct"]
    outcome = 1.0 if correct else round(rng.random() * 0.9, 2)
    total = max(1000, int(rng.lognormvariate(0, 0.5) * prof["tokens"]))
    output = total // 6
    cache_read = int((total - output) * 0.4 * rng.random())
    cache_write = int((total - output) * 0.05 * rng.random())
    input_tokens = total - output - cache_read - cache_write
    wall = round(max(0.5, rng.lognormvariate(0, 0.4) * prof["wall"]), 1)
    cost = round(total / 1e6 * prof["price"], 4)
    steps = rng.randint(2, 20)
    errors = rng.randint(0, steps // 3)
    return {
        "problem": problem,
        "correct": correct,
        "outcome": outcome,
        "input_tokens": input_tokens,
        "output_tokens": output,
        "input_tokens_cache_read": cache_read,
        "input_tokens_cache_write": cache_write,
        "wall_s": wall,
        "cost_usd": cost,
        "steps": steps,
        "errors": errors,
        # The agent's own time: most of the wall time (every field known, as .import needs).
        "working_s": round(wall * 0.8, 3),
    }


def jsonl_line(a):
    # The shape an eval harness writes: compact JSON, one object a line.
    return (
        f'{{"problem":"{a["problem"]}","correct":{"true" if a["correct"] else "false"},'
        f'"outcome":{a["outcome"]!r},"input_tokens":{a["input_tokens"]},'
        f'"output_tokens":{a["output_tokens"]},'
        f'"input_tokens_cache_read":{a["input_tokens_cache_read"]},'
        f'"input_tokens_cache_write":{a["input_tokens_cache_write"]},'
        f'"wall_s":{a["wall_s"]!r},"cost_usd":{a["cost_usd"]!r},'
        f'"steps":{a["steps"]},"errors":{a["errors"]},"working_s":{a["working_s"]!r}}}\n'
    )


def csv_row(attempt_id, seat_id, a):
    # Columns of the attempt table, in order; checklist and end_reason are the empty text (''
    # — .import cannot write NULL), trial is 1, infra_error 0.
    return (
        f'{attempt_id},{seat_id},{a["problem"]},1,{1 if a["correct"] else 0},{a["outcome"]!r},'
        f'{a["input_tokens"]},{a["output_tokens"]},{a["input_tokens_cache_read"]},'
        f'{a["input_tokens_cache_write"]},{a["wall_s"]!r},{a["cost_usd"]!r},'
        f'{a["steps"]},{a["errors"]},,{a["working_s"]!r},0,\n'
    )


def main():
    out, shape, waves, seats, problems = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
    root = os.path.join(out, shape)
    os.makedirs(root, exist_ok=True)
    rng = random.Random(f"benchledger-{shape}-{waves}-{seats}-{problems}")
    width = len(str(problems - 1))
    # Problem ids sort as text in the ledger; zero-padding keeps that order the numeric one.
    ids = [f"prob-{i:0{width}d}" for i in range(problems)]
    setup = ["INSERT INTO suite(id, name) VALUES (1, 'bench-suite');"]
    attempt_id = 0
    seat_rowid = 0
    with open(os.path.join(root, "attempts.csv"), "w") as csv:
        for w in range(waves):
            wid = f"w{w:03d}"
            wdir = os.path.join(root, wid)
            os.makedirs(wdir, exist_ok=True)
            day = 1 + w % 28
            month = 1 + (w // 28) % 12
            started = f"2026-{month:02d}-{day:02d}T10:00:00Z"
            parallel = 1 + w % 8
            manifest = [
                "[wave]",
                f'id = "{wid}"',
                'suite = "bench-suite"',
                f"started_at = {started}",
                f"suite_problems = {problems}",
                "",
                "[wave.load]",
                f"parallel_sessions = {parallel}",
                f"tool_server_sessions = {parallel}",
                "serial_rerun = false",
                "",
                "[wave.accounting]",
                "input_tokens_include_cache_reads = false",
                "",
                "[wave.budget]",
                f"tokens = {BUDGET_TOKENS}",
                f"wall_s = {BUDGET_WALL_S}",
                "",
            ]
            setup.append(
                "INSERT INTO wave(id, slug, suite_id, started_at, suite_problems, "
                "parallel_sessions, tool_server_sessions, serial_rerun, "
                "input_tokens_include_cache_reads, budget_tokens, budget_wall_s, "
                f"content_sha256, content_format, ingested_at) VALUES ({w + 1}, '{wid}', 1, "
                f"'{started}', {problems}, {parallel}, {parallel}, 0, 0, {BUDGET_TOKENS}, "
                f"{BUDGET_WALL_S}, '{'0' * 64}', 1, '2026-01-01T00:00:00Z');"
            )
            # Seats in id order, as the ledger stores them (s0 < s1 < ... for < 10 seats).
            for s in range(seats):
                sid = f"s{s:02d}"
                prof = seat_profile(rng, s)
                manifest += [
                    "[[seat]]",
                    f'id = "{sid}"',
                    f'model = "{prof["model"]}"',
                    f'provider = "{prof["provider"]}"',
                    f'harness = "{prof["harness"]}"',
                    f'results = "{sid}.jsonl"',
                    "",
                ]
                seat_rowid += 1
                setup.append(
                    "INSERT INTO seat(id, wave_id, slug, model, provider, harness) VALUES "
                    f"({seat_rowid}, {w + 1}, '{sid}', '{prof['model']}', "
                    f"'{prof['provider']}', '{prof['harness']}');"
                )
                with open(os.path.join(wdir, f"{sid}.jsonl"), "w") as f:
                    lines = []
                    rows = []
                    for p in ids:
                        a = attempt(rng, prof, p)
                        lines.append(jsonl_line(a))
                        attempt_id += 1
                        rows.append(csv_row(attempt_id, seat_rowid, a))
                    f.write("".join(lines))
                    csv.write("".join(rows))
            with open(os.path.join(wdir, "wave.toml"), "w") as f:
                f.write("\n".join(manifest))
    with open(os.path.join(root, "setup.sql"), "w") as f:
        f.write("BEGIN;\n" + "\n".join(setup) + "\nCOMMIT;\n")


if __name__ == "__main__":
    main()
