"""A verifier that is not benchledger's: the DSSE envelope a signed publication's bundle carries,
checked from the specifications alone with Python's ``cryptography`` (OpenSSL's ed25519).

The pre-authentication encoding is computed here from the DSSE protocol document
("DSSEv1" SP LEN(type) SP type SP LEN(body) SP body), the public key is read from the PEM file
``keygen`` wrote, and the statement's subjects are compared with the SHA-256 of the texts the
bundle holds. A changed byte, a wrong key and a swapped subject must each fail it.
"""

import base64
import hashlib
import json
import sqlite3
from pathlib import Path

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    PublicFormat,
    load_pem_public_key,
)

import benchledger
from conftest import cli

PAYLOAD_TYPE = "application/vnd.in-toto+json"


def pae(payload_type: str, payload: bytes) -> bytes:
    """DSSE v1's pre-authentication encoding, from the protocol document."""
    t = payload_type.encode()
    return b"DSSEv1 %d %s %d %s" % (len(t), t, len(payload), payload)


def check(envelope: dict, key: Ed25519PublicKey, texts: dict) -> list:
    """What is wrong with ``envelope`` as a signature by ``key`` of a statement whose subjects
    are ``texts`` (name to bytes); empty when it verifies."""
    problems = []
    if envelope.get("payloadType") != PAYLOAD_TYPE:
        problems.append("payloadType")
    payload = base64.b64decode(envelope["payload"], validate=True)
    raw = key.public_bytes(Encoding.Raw, PublicFormat.Raw)
    keyid = hashlib.sha256(raw).hexdigest()
    verified = False
    for s in envelope["signatures"]:
        try:
            key.verify(base64.b64decode(s["sig"]), pae(envelope["payloadType"], payload))
        except InvalidSignature:
            continue
        verified = True
        if s["keyid"] != keyid:
            problems.append("keyid is not the SHA-256 of the raw public key")
    if not verified:
        problems.append("no signature verifies under the key")
    statement = json.loads(payload)
    if statement["_type"] != "https://in-toto.io/Statement/v1":
        problems.append("_type")
    subjects = {s["name"]: s["digest"]["sha256"] for s in statement["subject"]}
    expected = {name: hashlib.sha256(text).hexdigest() for name, text in texts.items()}
    if subjects != expected:
        problems.append(f"subjects {subjects} are not the texts' {expected}")
    return problems


def reencode(envelope: dict, statement: dict) -> dict:
    """The envelope with another payload and its signatures as they were."""
    payload = json.dumps(statement, separators=(",", ":")).encode()
    return {**envelope, "payload": base64.b64encode(payload).decode()}


@pytest.fixture(scope="module")
def signed(demo, tmp_path_factory):
    """A signed copy of the demo's publication #1, its bundle, and two keys: the signer's and
    another."""
    d = tmp_path_factory.mktemp("signed")
    db = d / "demo.db"
    db.write_bytes((demo / "demo.db").read_bytes())
    for name in ("signer", "other"):
        out = cli("keygen", "--out", d / name)
        assert out.status == 0, out.stderr
    out = cli("--db", db, "sign", "1", "--key", d / "signer")
    assert out.status == 0, out.stderr
    out = cli("--db", db, "bundle", "1", "--out", d / "bundle")
    assert out.status == 0, out.stderr
    return d


def texts_of(bundle: Path) -> dict:
    """The publication's two texts, as the bundle holds them."""
    with sqlite3.connect(f"file:{bundle / 'ledger.db'}?mode=ro", uri=True) as conn:
        (pid, input_text) = conn.execute("SELECT id, input FROM publication").fetchone()
    return {
        f"publication-{pid}.input": input_text.encode(),
        f"publication-{pid}.md": (bundle / "publication.md").read_bytes(),
    }


def key(path: Path) -> Ed25519PublicKey:
    k = load_pem_public_key(path.read_bytes())
    assert isinstance(k, Ed25519PublicKey)
    return k


def test_the_envelope_verifies_with_an_independent_implementation(signed):
    envelope = json.loads((signed / "bundle" / "publication.dsse.json").read_bytes())
    texts = texts_of(signed / "bundle")
    assert check(envelope, key(signed / "signer.pub"), texts) == []
    # benchledger agrees, and so does its own check against the key.
    out = cli("verify", "--bundle", signed / "bundle", "--trusted-key", signed / "signer.pub")
    assert out.status == 0, out.stdout + out.stderr


def test_a_changed_byte_a_wrong_key_and_a_swapped_subject_each_fail(signed):
    envelope = json.loads((signed / "bundle" / "publication.dsse.json").read_bytes())
    texts = texts_of(signed / "bundle")
    signer = key(signed / "signer.pub")
    statement = json.loads(base64.b64decode(envelope["payload"]))

    # A changed byte: one character of the statement's wave content hash.
    changed = json.loads(json.dumps(statement))
    digest = changed["predicate"]["wave"]["contentSha256"]
    changed["predicate"]["wave"]["contentSha256"] = ("0" if digest[0] != "0" else "1") + digest[1:]
    assert "no signature verifies under the key" in check(reencode(envelope, changed), signer, texts)

    # A wrong key.
    assert check(envelope, key(signed / "other.pub"), texts) == [
        "no signature verifies under the key"
    ]

    # A swapped subject: the input's digest and the output's exchanged.
    swapped = json.loads(json.dumps(statement))
    a, b = swapped["subject"]
    a["digest"], b["digest"] = b["digest"], a["digest"]
    problems = check(reencode(envelope, swapped), signer, texts)
    assert "no signature verifies under the key" in problems
    assert any(p.startswith("subjects") for p in problems)
    # ... and the genuine envelope over texts swapped in the bundle fails on its subjects.
    names = list(texts)
    crossed = {names[0]: texts[names[1]], names[1]: texts[names[0]]}
    assert any(p.startswith("subjects") for p in check(envelope, signer, crossed))


def test_the_api_verifies_under_a_trusted_key(signed):
    ledger = benchledger.Ledger(signed / "demo.db")
    doc = ledger.verify(trusted_key=signed / "signer.pub")
    assert doc["signatures"]["signed"] == 1
    assert doc["entries"][0]["signature"]["signed_by_trusted_key"] is True
    with pytest.raises(benchledger.CheckFailed) as failed:
        ledger.verify(trusted_key=signed / "other.pub")
    assert failed.value.document["signatures"]["signed"] == 0



def test_verify_reads_a_trusted_key_named_like_an_option_as_a_path(signed, tmp_path, monkeypatch):
    """``trusted_key`` is only ever a path, whatever it begins with: no command line is built
    from it, so a key file named ``--db=x.pub`` is read as the key, never taken for an option."""
    (tmp_path / "--db=x.pub").write_bytes((signed / "signer.pub").read_bytes())
    monkeypatch.chdir(tmp_path)
    ledger = benchledger.Ledger(signed / "demo.db")
    doc = ledger.verify(trusted_key=Path("--db=x.pub"))
    assert doc["signatures"]["signed"] == 1
    with pytest.raises(benchledger.BadInput) as missing:
        ledger.verify(trusted_key=Path("--ledger"))
    assert "cannot read the key file" in str(missing.value)
