"""Every call of the Python API against the command line's own output on the demo ledger:
each document equal to its command's ``--format json``, each table value for value equal to
``export --format csv``."""

import csv
import io
import json
import math
import os

import pyarrow as pa
from pathlib import Path
import pytest

import benchledger
from conftest import cli

RUBRIC = "session-efficiency@2"


def cli_json(db, *args):
    out = cli("--db", db, *args, "--format", "json")
    assert out.status == 0, out.stderr
    return json.loads(out.stdout)


def test_the_command_and_the_module_are_both_there(demo):
    out = cli("--version")
    assert out.status == 0 and out.stdout.startswith("benchledger ")
    out = cli("demo")
    assert out.status == 0, out.stderr
    assert "1 of 1 publication reproduces" in out.stdout
    assert benchledger.main(["--version"]) == 0
    # A usage error is the command line's exit status 2.
    assert benchledger.main(["show"]) == 2


def test_waves_show_score_trials_versus_equal_the_command_lines(demo):
    db = demo / "demo.db"
    with benchledger.Ledger(db) as ledger:
        assert ledger.waves() == cli_json(db, "waves")
        waves = [w["wave"]["id"] if isinstance(w.get("wave"), dict) else w["wave"] for w in ledger.waves()["waves"]]
        assert "checkout-rematch" in waves
        for wave in waves:
            assert ledger.show(wave) == cli_json(db, "show", wave)
            assert ledger.trials(wave) == cli_json(db, "trials", wave)
        assert ledger.show("rca-wave-2", ci=True, resamples=500, seed=7) == cli_json(
            db, "show", "rca-wave-2", "--ci", "--resamples", "500", "--seed", "7"
        )
        assert ledger.show("rca-wave-2", ci=90) == cli_json(db, "show", "rca-wave-2", "--ci", "90")
        assert ledger.score("checkout-rematch", RUBRIC) == cli_json(
            db, "score", "--wave", "checkout-rematch", "--rubric", RUBRIC
        )
        rubric_file = demo / "files" / "rubrics" / "trace-holistic.v1.toml"
        assert ledger.score("rca-wave-2", rubric_file, ci=True) == cli_json(
            db, "score", "--wave", "rca-wave-2", "--rubric", rubric_file, "--ci"
        )
        assert ledger.trials("rca-wave-2", k=[1, 2]) == cli_json(
            db, "trials", "rca-wave-2", "--k", "1,2"
        )
        doc = ledger.versus("checkout-rematch", "openai-react", "xai-hierarchical")
        assert doc == cli_json(
            db, "versus", "--wave", "checkout-rematch", "openai-react", "xai-hierarchical"
        )
        assert ledger.versus("rca-wave-2", "openai-react", "anthropic-react", ci=90, seed=3) == cli_json(
            db, "versus", "--wave", "rca-wave-2", "openai-react", "anthropic-react",
            "--ci", "90", "--seed", "3",
        )


def test_verify_is_verify_all_ledger_as_json(demo):
    db = demo / "demo.db"
    doc = benchledger.Ledger(db).verify()
    assert doc == cli_json(db, "verify", "--all", "--ledger")
    assert doc["kind"] == "verify" and doc["ok"] is True
    assert [e["entry"] for e in doc["entries"]] == ["publication", "withdrawal"]
    assert [c["check"] for c in doc["ledger"]] == [
        "schema", "references", "waves", "tallies", "rubrics", "prices", "scores", "chain", "log",
    ]


def test_claims_check_that_differs_raises_check_failed_with_the_document(demo):
    db = demo / "demo.db"
    claims = demo / "files" / "claims" / "example-paper.v1.toml"
    out = cli("--db", db, "claims", "check", claims, "--format", "json")
    assert out.status == 1
    with pytest.raises(benchledger.CheckFailed) as e:
        benchledger.Ledger(db).claims_check(claims)
    assert str(e.value) == out.message
    assert e.value.exit_code == 1
    assert e.value.document == json.loads(out.stdout)
    assert {c["verdict"] for c in e.value.document["claims"]} >= {"reproduced"}


def typed(cell: str, t: pa.DataType):
    """A CSV cell read as the Arrow column's type: empty is null."""
    if cell == "":
        return None
    if pa.types.is_int64(t):
        return int(cell)
    if pa.types.is_float64(t):
        return float(cell)
    if pa.types.is_boolean(t):
        assert cell in ("true", "false"), cell
        return cell == "true"
    assert pa.types.is_string(t), t
    return cell


def assert_table_is_the_csv(table: pa.Table, text: str):
    rows = list(csv.reader(io.StringIO(text)))
    header, body = rows[0], rows[1:]
    assert table.column_names == header
    assert table.num_rows == len(body)
    columns = table.to_pydict()
    for c, name in enumerate(header):
        t = table.schema.field(name).type
        want = [typed(r[c], t) for r in body]
        got = columns[name]
        for g, w in zip(got, want):
            # Value for value: the same float bit for bit, never NaN.
            assert g == w and type(g) is type(w), (name, g, w)
            assert not (isinstance(g, float) and not math.isfinite(g))


def test_attempts_and_seats_equal_export_csv_value_for_value(demo):
    db = demo / "demo.db"
    ledger = benchledger.Ledger(db)
    attempts = ledger.attempts()
    out = cli("--db", db, "export", "--what", "attempts", "--format", "csv")
    assert_table_is_the_csv(attempts, out.stdout)
    types = dict(zip(attempts.column_names, attempts.schema.types))
    assert types["attempt"] == pa.int64() and types["input_tokens"] == pa.int64()
    assert types["correct"] == pa.bool_() and types["infra_error"] == pa.bool_()
    assert types["wall_s"] == pa.float64() and types["wave"] == pa.string()

    seats = ledger.seats()
    out = cli("--db", db, "export", "--what", "seats", "--format", "csv")
    assert_table_is_the_csv(seats, out.stdout)
    types = dict(zip(seats.column_names, seats.schema.types))
    assert types["attempts"] == pa.int64() and types["tokens_total"] == pa.int64()
    assert types["accuracy"] == pa.float64() and types["cost_usd"] == pa.float64()

    # Named waves, withdrawn ones on request, as export --wave does.
    one = ledger.attempts(["rca-wave-2"])
    out = cli("--db", db, "export", "--what", "attempts", "--format", "csv", "--wave", "rca-wave-2")
    assert_table_is_the_csv(one, out.stdout)
    everything = ledger.seats(include_withdrawn=True)
    out = cli("--db", db, "export", "--what", "seats", "--format", "csv", "--include-withdrawn")
    assert_table_is_the_csv(everything, out.stdout)
    assert everything.num_rows > seats.num_rows


def test_tables_go_on_to_pandas(demo):
    df = benchledger.Ledger(demo / "demo.db").attempts().to_pandas()
    per_seat = df.groupby(["wave", "seat"])["correct"].mean()
    assert per_seat.loc[("checkout-rematch", "openai-react")] in (0.0, 1.0)
    assert str(df["input_tokens"].dtype) in ("int64", "Int64", "float64")


def test_an_empty_ledger_has_an_empty_typed_attempts_table(tmp_path):
    ledger = benchledger.Ledger.create(tmp_path / "new.db")
    t = ledger.attempts()
    assert t.num_rows == 0
    out = cli("--db", tmp_path / "new.db", "export", "--what", "attempts", "--format", "csv")
    assert t.column_names == out.stdout.strip().split(",")
    assert ledger.waves() == cli_json(tmp_path / "new.db", "waves")


def test_ingest_returns_the_waves_added(demo, tmp_path):
    ledger = benchledger.Ledger.create(tmp_path / "l.db")
    examples = demo / "files" / "examples"
    added = ledger.ingest([examples / "rca-wave-1" / "wave.toml", examples / "rca-wave-2" / "wave.toml"])
    assert added == ["rca-wave-1", "rca-wave-2"]
    # The same content again adds nothing.
    assert ledger.ingest(examples / "rca-wave-1" / "wave.toml") == []
    assert ledger.show("rca-wave-1") == cli_json(tmp_path / "l.db", "show", "rca-wave-1")


def test_a_closed_ledger_refuses_calls(demo):
    with benchledger.Ledger(demo / "demo.db") as ledger:
        pass
    with pytest.raises(ValueError):
        ledger.waves()


def test_ingest_from_builds_the_wave_the_command_line_builds(tmp_path):
    job = Path(__file__).parents[1] / "fixtures" / "import" / "harbor" / "job"
    ledger = benchledger.Ledger.create(tmp_path / "api.db")
    cli("--db", tmp_path / "cli.db", "init")
    # What the files do not say is asked for, the library's message the command line's and
    # its advice naming the call's own argument (issue 30; a HAL upload does not say when its
    # run started; a Harbor job does, since issue 32.10).
    upload = Path(__file__).parents[1] / "fixtures" / "import" / "hal" / "new-upload.json"
    out = cli("--db", tmp_path / "cli.db", "ingest", "--from", "hal", upload)
    assert out.status == 2
    with pytest.raises(benchledger.BadInput) as e:
        ledger.ingest_from("hal", upload)
    assert str(e.value) == out.message.replace(
        "; give it with --started-at (or in the wave manifest given with --manifest)",
        "; give it as started_at= (or in the wave manifest given as manifest=)",
    )
    assert "started_at=" in str(e.value) and "--started-at" not in str(e.value)
    out = cli(
        "--db", tmp_path / "cli.db", "ingest", "--from", "harbor", "--wave", "hb",
        "--started-at", "2026-03-04T10:00:00Z", job,
    )
    assert out.status == 0, out.stderr
    added = ledger.ingest_from("harbor", [job], wave="hb", started_at="2026-03-04T10:00:00Z")
    assert added == ["hb"]
    assert ledger.show("hb") == cli_json(tmp_path / "cli.db", "show", "hb")
    assert ledger.attempts().to_pylist() == benchledger.Ledger(tmp_path / "cli.db").attempts().to_pylist()


def test_issue_34_10_no_path_or_id_is_ever_read_as_an_option(demo, tmp_path, monkeypatch):
    """Issue 34, #10: ``Ledger("a.db").ingest([m, "--db=victim.db"])`` wrote into victim.db
    and returned success; only ``ingest_from`` passed ``--``. Every path, wave, seat and value
    is now an operand after ``--`` or joined to its flag by ``=``."""
    monkeypatch.chdir(tmp_path)
    examples = demo / "files" / "examples"
    m = examples / "rca-wave-1" / "wave.toml"
    ledger = benchledger.Ledger.create(tmp_path / "a.db")
    victim = tmp_path / "victim.db"
    with pytest.raises(benchledger.BadInput):
        ledger.ingest([m, "--db=victim.db"])
    assert not victim.exists()
    assert ledger.waves()["waves"] == []
    for call in (
        lambda: ledger.show("--db=victim.db"),
        lambda: ledger.trials("--db=victim.db"),
        lambda: ledger.score("--db=victim.db", RUBRIC),
        lambda: ledger.score("rca-wave-1", "--db=victim.db"),
        lambda: ledger.versus("rca-wave-1", "--db=victim.db", "--db=victim.db"),
        lambda: ledger.claims_check("--db=victim.db"),
        lambda: ledger.problems("--db=victim.db"),
        lambda: ledger.problems("rca-wave-1", "--db=victim.db", regressions=True),
        lambda: ledger.plan("--db=victim.db", "--db=victim.db", "x"),
        lambda: ledger.history("--db=victim.db"),
        lambda: ledger.diff("--db=victim.db", RUBRIC),
        lambda: ledger.compare("--db=victim.db", ["--db=victim.db", "rca-wave-1"]),
        lambda: ledger.versus_all("--db=victim.db"),
        lambda: ledger.ingest_from("harbor", "--db=victim.db", wave="--db=victim.db"),
    ):
        with pytest.raises(benchledger.BadInput):
            call()
        assert not victim.exists()
    # The same calls on a ledger that holds the wave still work.
    assert ledger.ingest(m) == ["rca-wave-1"]
    assert ledger.show("rca-wave-1") == cli_json(tmp_path / "a.db", "show", "rca-wave-1")


def test_issue_34_display_names_that_are_not_a_mapping_are_bad_input(tmp_path):
    """Issue 34 (smaller): ``ingest_from(display_names="ab")`` raised AttributeError."""
    ledger = benchledger.Ledger.create(tmp_path / "l.db")
    job = Path(__file__).parents[1] / "fixtures" / "import" / "harbor" / "job"
    with pytest.raises(benchledger.BadInput) as e:
        ledger.ingest_from("harbor", job, display_names="ab")
    assert "display_names" in str(e.value)


def test_a_display_name_for_no_seat_is_named_as_the_mapping_entry(tmp_path):
    """A display name for a seat no wave has names the entry of ``display_names``, where the
    command line names its ``--display-name SEAT=NAME``."""
    ledger = benchledger.Ledger.create(tmp_path / "l.db")
    job = Path(__file__).parents[1] / "fixtures" / "import" / "harbor" / "job"
    with pytest.raises(benchledger.BadInput) as e:
        ledger.ingest_from("harbor", job, display_names={"nobody": "No One"})
    message = str(e.value)
    assert message.startswith('display_names={"nobody": "No One"}: names seat `nobody`'), message
    assert "--display-name" not in message
    assert ledger.waves()["waves"] == []


RULES = """[rules]
name = "api-board"
version = 1

[require]
trials_per_problem = 2

[secrets]
verdict = "reject"
"""


def test_review_equals_the_command_line_and_ingests_with_its_record(tmp_path):
    job = Path(__file__).parents[1] / "fixtures" / "import" / "harbor" / "job"
    rules = tmp_path / "rules.toml"
    rules.write_text(RULES)
    ledger = benchledger.Ledger.create(tmp_path / "api.db")
    cli("--db", tmp_path / "cli.db", "init")
    # Two trials of every task: the job has one task with a single trial, so it is rejected,
    # and the API raises CheckFailed holding the document the command line prints.
    out = cli("--db", tmp_path / "cli.db", "review", job, "--rules", rules, "--format", "json")
    assert out.status == 1, out.stderr
    with pytest.raises(benchledger.CheckFailed) as e:
        ledger.review(job, rules)
    assert e.value.document == json.loads(out.stdout)
    assert e.value.document["verdict"] == "reject"
    assert ledger.waves()["waves"] == []

    rules.write_text(RULES.replace("trials_per_problem = 2", "trials_per_problem = 1"))
    doc = ledger.review(
        [job], rules, format="harbor", ingest=True, wave="hb", started_at="2026-03-04T10:00:00Z"
    )
    assert doc["verdict"] == "accept"
    [wave] = ledger.waves()["waves"]
    assert wave["wave"] == "hb"
    assert [(r["rules"], r["verdict"]) for r in wave["reviews"]] == [("api-board@1", "accept")]
    checks = ledger.verify()["ledger"]
    assert "reviews" in [c["check"] for c in checks]


def test_review_is_the_librarys_own_call_and_reads_no_path_as_an_option(tmp_path, monkeypatch):
    job = Path(__file__).parents[1] / "fixtures" / "import" / "harbor" / "job"
    rules = tmp_path / "rules.toml"
    rules.write_text(RULES.replace("trials_per_problem = 2", "trials_per_problem = 1"))
    ledger = benchledger.Ledger.create(tmp_path / "api.db")
    out = cli("--db", tmp_path / "api.db", "review", job, "--rules", rules, "--format", "json")
    assert out.status == 0, out.stderr
    assert ledger.review(job, rules) == json.loads(out.stdout)
    # No command line is parsed: a relative path that reads like an option is a path.
    monkeypatch.chdir(tmp_path)
    Path("--db=victim.db").mkdir()
    with pytest.raises(benchledger.BadInput) as e:
        ledger.review("--db=victim.db", rules, format="harbor")
    assert "--db=victim.db" in str(e.value)
    assert not (tmp_path / "victim.db").exists()
    assert ledger.waves()["waves"] == []


def test_the_other_documents_equal_the_command_lines(demo):
    db = demo / "demo.db"
    ledger = benchledger.Ledger(db)
    assert ledger.versus_all("checkout-rematch") == cli_json(
        db, "versus", "--wave", "checkout-rematch", "--all"
    )
    assert ledger.versus_all("rca-wave-2", alpha=0.1, seed=3) == cli_json(
        db, "versus", "--wave", "rca-wave-2", "--all", "--alpha", "0.1", "--seed", "3"
    )
    assert ledger.problems("checkout-rematch") == cli_json(db, "problems", "checkout-rematch")
    assert ledger.problems(
        "rca-wave-2", "rca-wave-1", regressions=True, include_withdrawn=True
    ) == cli_json(db, "problems", "rca-wave-1", "rca-wave-2", "--regressions", "--include-withdrawn")
    assert ledger.problems("checkout-rematch", problem="checkout-outage") == cli_json(
        db, "problems", "checkout-rematch", "--problem", "checkout-outage"
    )
    assert ledger.plan("checkout-rematch", "openai-react", "xai-hierarchical", delta=0.2) == cli_json(
        db, "plan", "--wave", "checkout-rematch", "--seat", "openai-react",
        "--vs", "xai-hierarchical", "--delta", "0.2",
    )
    assert ledger.history(RUBRIC) == cli_json(db, "history", "--rubric", RUBRIC)
    assert ledger.diff("session-efficiency@1", RUBRIC) == cli_json(
        db, "diff", "session-efficiency@1", RUBRIC
    )
    assert ledger.compare(
        "openai-react", ["rca-wave-1", "rca-wave-2"], [RUBRIC], include_withdrawn=True
    ) == cli_json(
        db, "compare", "--seat", "openai-react", "rca-wave-1", "rca-wave-2", "--rubric", RUBRIC,
        "--include-withdrawn",
    )
    assert ledger.publications() == cli_json(db, "publications")
    assert ledger.rules() == cli_json(db, "rules", "list")
    assert benchledger.__version__ == cli("--version").stdout.split()[1]


def test_the_documents_are_the_librarys_calls_not_a_command_line(demo, monkeypatch):
    """Issue 30: every reading document is built by the library (``benchledger_core::
    documents``), not by a command line built, parsed and captured: with the module's command
    line out of reach, each still answers, equal to its command's JSON, and a bad value is still the command
    line's ``BadInput`` with its message."""
    db = demo / "demo.db"
    expected = {
        "show": cli_json(db, "show", "rca-wave-2", "--ci", "90", "--seed", "4"),
        "score": cli_json(db, "score", "--wave", "rca-wave-2", "--rubric", RUBRIC, "--ci"),
        "trials": cli_json(db, "trials", "rca-wave-2", "--k", "2,1"),
        "versus": cli_json(db, "versus", "--wave", "rca-wave-2", "openai-react", "anthropic-react"),
        "versus_all": cli_json(db, "versus", "--wave", "rca-wave-2", "--all", "--alpha", "0.2"),
        "problems": cli_json(db, "problems", "rca-wave-2", "--seat", "openai-react"),
        "regressions": cli_json(
            db, "problems", "rca-wave-1", "rca-wave-2", "--regressions", "--include-withdrawn"
        ),
        "plan": cli_json(
            db, "plan", "--wave", "rca-wave-2", "--seat", "openai-react", "--vs", "anthropic-react"
        ),
        "diff": cli_json(db, "diff", "session-efficiency@1", RUBRIC, "--wave", "rca-wave-2"),
        "history": cli_json(db, "history", "--rubric", RUBRIC, "--seat", "openai-react"),
        "publications": cli_json(db, "publications"),
        "rules": cli_json(db, "rules", "list"),
    }

    def no_command_line(*args, **kwargs):
        raise AssertionError(f"a command line was run: {args}")

    # The module has no call that runs a command line for the API; the one it has, the
    # package's own `benchledger` command, must not be reached either.
    assert not hasattr(benchledger._native, "run")
    monkeypatch.setattr(benchledger._native, "main", no_command_line)
    ledger = benchledger.Ledger(db)
    assert ledger.show("rca-wave-2", ci=90, seed=4) == expected["show"]
    assert ledger.score("rca-wave-2", RUBRIC, ci=True) == expected["score"]
    assert ledger.trials("rca-wave-2", k=[2, 1]) == expected["trials"]
    assert ledger.versus("rca-wave-2", "openai-react", "anthropic-react") == expected["versus"]
    assert ledger.versus_all("rca-wave-2", alpha=0.2) == expected["versus_all"]
    assert ledger.problems("rca-wave-2", seats=["openai-react"]) == expected["problems"]
    assert ledger.problems(
        "rca-wave-2", "rca-wave-1", regressions=True, include_withdrawn=True
    ) == expected["regressions"]
    assert ledger.plan("rca-wave-2", "openai-react", "anthropic-react") == expected["plan"]
    assert ledger.diff("session-efficiency@1", RUBRIC, waves=["rca-wave-2"]) == expected["diff"]
    assert ledger.history(RUBRIC, seat="openai-react") == expected["history"]
    assert ledger.publications() == expected["publications"]
    assert ledger.rules() == expected["rules"]
    for call, message in (
        (lambda: ledger.show("rca-wave-2", ci=40), "^ci=40: give the confidence level"),
        (lambda: ledger.show("rca-wave-2", seed=3), "^seed=3: sets how intervals are drawn, and none is asked for; give ci= too$"),
        (lambda: ledger.show("rca-wave-2", reprice=True), r"^reprice=True: prices every attempt from a price table, and none is named; give prices= too$"),
        (lambda: ledger.trials("rca-wave-2", k=[0]), "^k=0: k counts trials"),
        (lambda: ledger.versus("rca-wave-2", "openai-react", "openai-react"), "versus itself"),
        (lambda: ledger.versus_all("rca-wave-2", alpha=1.5), "^alpha=1.5: give the family-wise error rate"),
        (lambda: ledger.plan("rca-wave-2", "openai-react", "nobody"), 'no seat "nobody"'),
        (lambda: ledger.problems("rca-wave-2", seats=["nobody"]), "^seat=nobody: no such seat"),
        (lambda: ledger.problems("rca-wave-2", regressions=True), "compares two waves"),
        (lambda: ledger.problems("nowhere"), "nowhere"),
        (lambda: ledger.history("nonesuch@1"), "nonesuch@1"),
        (
            lambda: ledger.compare("openai-react", ["rca-wave-2"]),
            r"two or more waves, oldest first \(got 1\); e\.g\. `Ledger\.compare\(\"openai-react\"",
        ),
        (
            lambda: ledger.history(RUBRIC, seat="nobody"),
            r"no stored score for seat \"nobody\" under .*; check the seat's id with "
            r"`Ledger\.show\(wave\)`, or store scores with `Ledger\.rescore\(rubric=",
        ),
    ):
        with pytest.raises(benchledger.BadInput, match=message):
            call()


def test_withdraw_is_the_librarys_own_call_and_records_what_the_command_line_records(
    demo, tmp_path
):
    """Python's withdraw (no command line parsed) appends the very record the command line
    appends on a copy of the same ledger at the same "now", and returns it with the chain's
    head; the waves listing marks the wave from then on."""
    db, other = tmp_path / "api.db", tmp_path / "cli.db"
    for d in (db, other):
        d.write_bytes((demo / "demo.db").read_bytes())
    with benchledger.Ledger(db) as ledger:
        w = ledger.withdraw("rca-wave-2", "  the tool server was misconfigured  ")
        listed = ledger.waves()
    out = cli("--db", other, "withdraw", "rca-wave-2", "--reason", "the tool server was misconfigured")
    assert out.status == 0, out.stderr
    assert w["wave"] == "rca-wave-2"
    assert w["reason"] == "the tool server was misconfigured"
    assert w["created_at"] == "2026-11-30T00:00:00Z"
    assert f"record sha256 {w['sha256']}" in out.stdout
    assert f"chain head    {w['head']}" in out.stdout
    assert w["prev_sha256"] is not None and len(w["prev_sha256"]) == 64
    assert listed == cli_json(other, "waves")
    assert "rca-wave-2" in {x["wave"] for x in listed["withdrawn"]}


def test_publish_is_the_librarys_call_and_publishes_what_the_command_line_publishes(
    demo, tmp_path
):
    """Issue 30: ``Ledger.publish`` (no command line parsed) freezes the very publication the
    command line freezes on a copy of the same ledger at the same "now", with intervals, a
    signature and a bundle; both verify, and bad input publishes nothing."""
    db, other = tmp_path / "api.db", tmp_path / "cli.db"
    for d in (db, other):
        d.write_bytes((demo / "demo.db").read_bytes())
    key = tmp_path / "key.pem"
    assert cli("keygen", "--out", key).status == 0
    ledger = benchledger.Ledger(db)
    before = ledger.publications()
    for call, message in (
        (lambda: ledger.publish("rca-wave-2", "nonesuch@1"), "nonesuch@1"),
        (lambda: ledger.publish("nowhere", RUBRIC), "nowhere"),
        (lambda: ledger.publish("rca-wave-1", RUBRIC), "withdrawn"),
        (lambda: ledger.publish("rca-wave-2", RUBRIC, title="a\u001b[2Jb"), "title"),
        (lambda: ledger.publish("rca-wave-2", RUBRIC, ci=40), "^ci=40: give the confidence level"),
    ):
        with pytest.raises(benchledger.BadInput, match=message):
            call()
    assert ledger.publications() == before
    p = ledger.publish(
        "rca-wave-2", RUBRIC, title="Wave one", ci=True, sign=key, bundle=tmp_path / "b1"
    )
    out = cli(
        "--db", other, "publish", "--wave", "rca-wave-2", "--rubric", RUBRIC,
        "--title", "Wave one", "--ci", "--sign", key, "--bundle", tmp_path / "b2",
    )
    assert out.status == 0, out.stderr
    assert f"published #{p['id']} " in out.stdout
    assert f"record sha256 {p['sha256']}" in out.stdout
    assert f"output sha256 {p['output_sha256']}" in out.stdout
    assert f"chain head    {p['head']}" in out.stdout
    assert f"signed by key {p['signed_by']}" in out.stdout
    assert p["text"] in out.stdout
    assert ledger.publications() == cli_json(other, "publications")
    assert ledger.verify()["ok"] is True
    assert benchledger.verify_bundle(tmp_path / "b1")["ok"] is True
    assert sorted(os.listdir(tmp_path / "b1")) == sorted(os.listdir(tmp_path / "b2"))


def test_export_is_the_librarys_call_and_writes_what_the_command_line_writes(demo, tmp_path):
    """Issue 30: ``Ledger.export`` (no command line parsed) gives the command line's CSV and
    JSON lines byte for byte, and writes the same Every Eval Ever, Hugging Face and Parquet
    files; bad input writes nothing."""
    db = demo / "demo.db"
    ledger = benchledger.Ledger(db)

    def cli_text(*args):
        out = cli("--db", db, "export", *args)
        assert out.status == 0, out.stderr
        return out.stdout

    assert ledger.export("csv", what="attempts") == cli_text("--format", "csv", "--what", "attempts")
    assert ledger.export("csv", what="seats", waves=["rca-wave-2", "checkout-rematch"]) == cli_text(
        "--format", "csv", "--what", "seats", "--wave", "rca-wave-2", "--wave", "checkout-rematch"
    )
    assert ledger.export(
        "jsonl", what="scores", rubric=RUBRIC, include_withdrawn=True
    ) == cli_text("--format", "jsonl", "--what", "scores", "--rubric", RUBRIC, "--include-withdrawn")
    assert ledger.export("csv", what="attempts", header=False, waves=["prices-csv"]) == cli_text(
        "--format", "csv", "--what", "attempts", "--no-header", "--wave", "prices-csv"
    )

    def files(d):
        return {
            str(p.relative_to(d)): p.read_bytes() for p in sorted(Path(d).rglob("*")) if p.is_file()
        }

    eee = ledger.export("eee", tmp_path / "eee-api")
    assert cli("--db", db, "export", "--format", "eee", "--out", tmp_path / "eee-cli").status == 0
    assert files(tmp_path / "eee-api") == files(tmp_path / "eee-cli") != {}
    assert eee["waves"] == 3 and eee["records"] > 0
    hf = ledger.export(
        "hf-eval-results", tmp_path / "hf-api", hf_datasets=["grafana-incident-rca=acme/rca"]
    )
    assert cli(
        "--db", db, "export", "--format", "hf-eval-results", "--out", tmp_path / "hf-cli",
        "--hf-dataset", "grafana-incident-rca=acme/rca",
    ).status == 0
    assert files(tmp_path / "hf-api") == files(tmp_path / "hf-cli") != {}
    assert hf["files"] == len(files(tmp_path / "hf-api"))
    parquet = ledger.export("parquet", tmp_path / "pq")
    out = cli("--db", db, "export", "--format", "parquet", "--out", tmp_path / "pq-cli")
    assert f"attempts.parquet ({parquet['attempts']} rows)" in out.stdout
    assert f"seats.parquet ({parquet['seats']} rows)" in out.stdout
    for call, message in (
        (lambda: ledger.export("xml", what="attempts"), "xml"),
        (lambda: ledger.export("csv"), "attempts, seats or scores"),
        (
            lambda: ledger.export("csv", what="scores"),
            r"^what=scores: the scores of which rubric\? .*; give rubric= too$",
        ),
        (lambda: ledger.export("eee"), "out=DIR"),
        (lambda: ledger.export("eee", tmp_path / "x", what="seats"), "what and rubric"),
        (lambda: ledger.export("csv", what="seats", waves=["nowhere"]), "nowhere"),
        (lambda: ledger.export("hf-eval-results", tmp_path / "y", hf_datasets=["bad"]), "bad"),
    ):
        with pytest.raises(benchledger.BadInput, match=message):
            call()
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()


def test_withdraw_refuses_an_empty_reason_an_unknown_wave_and_a_second_withdrawal(ledger_copy):
    before = ledger_copy.read_bytes()
    ledger = benchledger.Ledger(ledger_copy)
    with pytest.raises(benchledger.BadInput, match="reason is empty"):
        ledger.withdraw("rca-wave-2", " \n")
    with pytest.raises(benchledger.BadInput, match="no-such-wave"):
        ledger.withdraw("no-such-wave", "a reason")
    with pytest.raises(benchledger.BadInput, match="already withdrawn"):
        ledger.withdraw("rca-wave-1", "a second reason")
    assert ledger_copy.read_bytes() == before


def test_claims_from_is_the_librarys_call_and_writes_what_the_command_line_writes(tmp_path):
    fixtures = Path(__file__).parents[1] / "fixtures" / "import"
    result = fixtures / "harbor" / "job" / "result.json"
    args = dict(wave="harbor-mini", seat="terminus-2-claude-sonnet-4-5")
    out = cli("claims", "from", "harbor", result, "--wave", args["wave"], "--seat", args["seat"],
              "--out", tmp_path / "cli.toml")
    assert out.status == 0, out.stderr
    text = benchledger.claims_from("harbor", result, out=tmp_path / "api.toml", **args)
    assert text == (tmp_path / "cli.toml").read_text()
    assert (tmp_path / "api.toml").read_text() == text
    # A file that exists is never overwritten; a format that needs a wave says so.
    with pytest.raises(benchledger.BadInput, match="already exists"):
        benchledger.claims_from("harbor", result, out=tmp_path / "api.toml", **args)
    with pytest.raises(benchledger.BadInput, match="needs wave="):
        benchledger.claims_from("helm", fixtures / "helm")
    with pytest.raises(benchledger.BadInput, match='no format "nope"'):
        benchledger.claims_from("nope", result, **args)


def test_a_bundle_written_by_the_api_verifies_as_the_command_lines_does(demo, tmp_path):
    """Ledger.bundle and verify_bundle are the library's own calls: the bundle holds the texts
    the command line's bundle holds, and its verification is the command line's document."""
    db = demo / "demo.db"
    out = cli("--db", db, "bundle", "1", "--out", tmp_path / "cli")
    assert out.status == 0, out.stderr
    benchledger.Ledger(db).bundle(1, tmp_path / "api")
    for name in ("publication.md", "README.md"):
        assert (tmp_path / "api" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes()
    assert sorted(p.name for p in (tmp_path / "api").iterdir()) == sorted(
        p.name for p in (tmp_path / "cli").iterdir()
    )
    doc = benchledger.verify_bundle(tmp_path / "api")
    assert doc == cli_json(db, "verify", "--bundle", tmp_path / "api")
    # Nothing is written into a directory that is not empty.
    with pytest.raises(benchledger.BadInput, match="not empty"):
        benchledger.Ledger(db).bundle(1, tmp_path / "api")
    # A published text changed in the bundle fails, with the whole report.
    text = tmp_path / "api" / "publication.md"
    text.write_text(text.read_text() + "\n")
    with pytest.raises(benchledger.CheckFailed) as e:
        benchledger.verify_bundle(tmp_path / "api")
    assert e.value.document == json.loads(
        cli("--db", db, "verify", "--bundle", tmp_path / "api", "--format", "json").stdout
    )


def test_copy_is_the_librarys_call_and_the_copy_verifies(demo, tmp_path):
    ledger = benchledger.Ledger(demo / "demo.db")
    copied = ledger.copy(tmp_path / "copy.db")
    assert copied["wave"] == len(ledger.waves()["waves"]) == 4
    assert copied["publication"] >= 1 and copied["chain_entry"] >= 1
    there = benchledger.Ledger(tmp_path / "copy.db")
    assert there.waves() == ledger.waves()
    assert there.verify() == ledger.verify()
    # Never into a ledger that is there already, nor into itself.
    with pytest.raises(benchledger.BadInput):
        ledger.copy(tmp_path / "copy.db")
    with pytest.raises(benchledger.BadInput, match="both name"):
        ledger.copy(demo / "demo.db")


def test_site_is_the_librarys_call_and_writes_the_command_lines_pages(demo, tmp_path):
    db = demo / "demo.db"
    out = cli("--db", db, "site", "--no-ci", "--rubric", RUBRIC, "--out", tmp_path / "cli")
    assert out.status == 0, out.stderr
    written = benchledger.Ledger(db).site(tmp_path / "api", rubric=RUBRIC, intervals=False)

    def files(d):
        return {p.relative_to(d).as_posix(): p.read_bytes() for p in d.rglob("*") if p.is_file()}

    api, cli_site = files(tmp_path / "api"), files(tmp_path / "cli")
    assert api == cli_site
    assert written["pages"] == len(api) - 1  # the list of the site's files aside
    assert written["bytes"] == sum(len(b) for n, b in api.items() if n != ".benchledger-site")
    # An earlier site is replaced; a directory holding anything else is refused.
    benchledger.Ledger(db).site(tmp_path / "api", intervals=False)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(benchledger.BadInput, match="not empty"):
        benchledger.Ledger(db).site(tmp_path / "other")
    assert (tmp_path / "other" / "notes.txt").read_text() == "mine"


def test_site_takes_the_attempts_budget_as_the_command_line_does(demo, tmp_path):
    """``attempt_pages`` is ``site --attempt-pages``: a budget of 0 leaves problem pages to
    each suite's latest wave alone, byte for byte as the command writes them; a budget that is
    neither a number nor "all" is bad input, named as the keyword argument."""
    db = demo / "demo.db"
    out = cli("--db", db, "site", "--no-ci", "--attempt-pages", "0", "--out", tmp_path / "cli")
    assert out.status == 0, out.stderr
    benchledger.Ledger(db).site(tmp_path / "api", intervals=False, attempt_pages=0)
    every = tmp_path / "every"
    benchledger.Ledger(db).site(every, intervals=False, attempt_pages="all")

    def files(d):
        return {p.relative_to(d).as_posix(): p.read_bytes() for p in d.rglob("*") if p.is_file()}

    assert files(tmp_path / "api") == files(tmp_path / "cli")
    assert len(files(every)) > len(files(tmp_path / "api"))
    with pytest.raises(benchledger.BadInput) as e:
        benchledger.Ledger(db).site(tmp_path / "bad", attempt_pages="many")
    assert str(e.value).startswith("attempt_pages=many: "), str(e.value)
    assert not (tmp_path / "bad").exists()


def _stored_scores(db, rubrics):
    """Every stored score under each rubric, as `history` lists them."""
    return {r: cli_json(db, "history", "--rubric", r) for r in rubrics}


def test_rescore_is_the_librarys_own_call_and_stores_what_the_command_line_stores(demo, tmp_path):
    """Python's rescore (no command line parsed) leaves the same stored scores as
    `benchledger rescore` on a copy of the same ledger, under one rubric and under --all."""
    db, other = tmp_path / "api.db", tmp_path / "cli.db"
    for d in (db, other):
        d.write_bytes((demo / "demo.db").read_bytes())
    rubrics = [r["rubric"] for r in cli_json(db, "rubric", "list")["rubrics"]]
    assert rubrics
    with benchledger.Ledger(db) as ledger:
        one = ledger.rescore(rubrics[0])
        every = ledger.rescore(all=True)
    out = cli("--db", other, "rescore", "--rubric", rubrics[0])
    assert out.status == 0, out.stderr
    out = cli("--db", other, "rescore", "--all")
    assert out.status == 0, out.stderr
    assert [r["id"] for r in one["rubrics"]] == rubrics[:1]
    assert sorted(r["id"] for r in every["rubrics"]) == sorted(rubrics)
    assert one["waves"] == every["waves"] and one["waves"]
    assert f"rescored {len(one['waves'])} waves" in out.stdout
    for r in every["rubrics"]:
        assert f"{r['id']} (sha256 {r['sha256'][:12]}): {r['seats']} seats" in out.stdout
    stored = _stored_scores(db, rubrics)
    assert all(doc["rows"] for doc in stored.values())
    assert stored == _stored_scores(other, rubrics)


def test_rescore_reads_a_rubric_named_like_an_option_as_a_path(demo, tmp_path, monkeypatch):
    """A rubric file named like an option (`--db=x.db`) is read as that file: here, a copy of
    a registered rubric's text, so it resolves to the registered rubric and is rescored."""
    db = tmp_path / "demo.db"
    db.write_bytes((demo / "demo.db").read_bytes())
    rubric = "session-efficiency@2"
    assert rubric in [r["rubric"] for r in cli_json(db, "rubric", "list")["rubrics"]]
    text = (demo / "files" / "rubrics" / "session-efficiency.v2.toml").read_bytes()
    monkeypatch.chdir(tmp_path)
    (tmp_path / "--db=x.db").write_bytes(text)
    with benchledger.Ledger(db) as ledger:
        done = ledger.rescore("--db=x.db")
    assert [r["id"] for r in done["rubrics"]] == [rubric]
    assert not (tmp_path / "x.db").exists()
    with pytest.raises(benchledger.BadInput):
        benchledger.Ledger(db).rescore()
